"""Binding records, run for real: ``verified-bind`` writes them, the build only reads them.

A free digit (neither named nor derived) is bound to the one printed quantity it quotes, so a
digit changed into *another* printed number fails at its line (DESIGN §3, *Bound*). Each test
copies ``tests/roots/test-bindings`` and runs ``sphinx-build`` and the installed commands as
subprocesses, as an author or CI would.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import copy_root_to, replace_in, sphinx_build

BIN = Path(sys.executable).parent
RECORD = Path("_bindings/index.json")
THIRD = "--choose=index.md:16=near_third_a"


def bind(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``verified-bind`` on a root (its own conf.py), never asking at a terminal."""
    command = [BIN / "verified-bind", root, "--build", root / "_build", "--no-ask", *args]
    return subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=300, check=False)


def errors(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The build's error lines, each with its page path relative to the root."""
    return [line.split("/", 1)[-1] if "index.md" in line else line
            for line in result.stderr.splitlines() if "ERROR" in line]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_root_to("bindings", tmp_path / "bindings")


@pytest.fixture
def bound(root: Path) -> Path:
    """The root with its record written (the one ambiguous digit chosen)."""
    done = bind(root, THIRD)
    assert done.returncode == 0, done.stdout + done.stderr
    return root


def test_a_free_digit_with_no_binding_fails_at_its_line(root: Path) -> None:
    result = sphinx_build(root, "-W")
    assert result.returncode != 0
    found = errors(result)
    assert any("index.md:7:" in e and "0.4223: bound to no printed quantity; run make bind"
               in e and "[verified.unbound]" in e for e in found), found
    assert sum("index.md:11:" in e for e in found) == 1  # the table cell, at its row


def test_bind_writes_a_record_and_asks_for_the_one_choice(root: Path) -> None:
    first = bind(root)
    assert first.returncode == 1
    assert "index.md:16: 0.3333 matches " in first.stdout
    assert "near_third_a (0.33334)" in first.stdout and "near_third_b (0.33326)" in first.stdout
    record = json.loads((root / RECORD).read_text(encoding="utf-8"))["bindings"]
    pending = [b for b in record if b["prose"] == "0.3333"]
    assert pending[0]["bound"] is None
    assert sorted(pending[0]["choose"]) == ["near_third_a", "near_third_b"]
    build = sphinx_build(root, "-W")
    assert any("index.md:16:" in e and "choose the one it quotes" in e for e in errors(build))
    assert bind(root, THIRD).returncode == 0
    assert sphinx_build(root, "-W").returncode == 0


def test_the_record_reads_binding_by_binding(bound: Path) -> None:
    text = (bound / RECORD).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if '"prose"' in line]
    assert len(lines) == 21  # one binding a line: its diff reads binding by binding
    assert not any('"section": "Given"' in line and '"prose": "1.5"' in line for line in lines)
    assert any('"bound": "p[1] = p[2] = largest"' in line and '"prose": "0.4223"' in line
               for line in lines)  # printed alike: one group, no question
    assert any('"bound": "snippet line 5"' in line for line in lines)  # the source's 0.5
    assert any('"bound": "output line 8"' in line for line in lines)  # the loss, unnamed
    # one value printed twice through a float's rounding: one binding, no question
    assert any('"bound": "total = total_as_floats_add"' in line for line in lines)
    assert any('"bound": "v[2] = zero"' in line for line in lines)  # a zero, and its noise
    # one value printed at two precisions, 1.41421356 and 1.4142135623730951
    assert any('"bound": "root_2 = diagonal"' in line for line in lines)
    assert any('"bound": "-log_p_c"' in line for line in lines)  # "1.8620 below zero"
    assert any('"bound": "XtX[2,2]"' in line for line in lines)  # an integer of X^T X


@pytest.mark.parametrize(("line", "old", "new", "quantity"), [
    (7, "and the smallest is 0.1554", "and the smallest is 0.4223", "p[3]"),
    (12, "| c     | 0.1554", "| c     | 0.4223", "p[3]"),
    (5, "add to $6.4366$", "add to $2.7183$", "total"),
    (16, "third: 0.3333", "third: 0.1554", "near_third_a"),
    (20, "scale 0.5", "scale 0.1554", "the literal 0.5 on line 5 of the snippet"),
    (20, "lies 1.8620", "lies -1.8620", "-log_p_c"),
    # a named tuple the snippet printed as a row of another name, turned into another row
    (42, "(0.25,\\; 0.75)", "(0.75,\\; 0.25)", "H[1,1] = R[1,1] = R[2,2]"),
    # integers equated with a product of names, that the snippet printed
    (46, "3 & 5 \\end", "3 & 6 \\end", "XtX[2,2]"),
])
def test_a_digit_changed_into_another_printed_number_fails(
        bound: Path, line: int, old: str, new: str, quantity: str) -> None:
    assert sphinx_build(bound, "-W").returncode == 0
    replace_in(bound / "index.md", old, new)
    result = sphinx_build(bound, "-W")
    assert result.returncode != 0
    found = errors(result)
    assert any(f"index.md:{line}:" in e and f"here is bound to {quantity}" in e for e in found), \
        found


def test_edits_elsewhere_shift_nothing(bound: Path) -> None:
    replace_in(bound / "index.md", "## Exponentials\n",
               "## Exponentials\n\nA new sentence, and $p_1 = 0.4223$ named.\n\n")
    replace_in(bound / "index.md", "## A third\n", "## A third\n\nAnother remark.\n")
    assert sphinx_build(bound, "-W").returncode == 0, errors(sphinx_build(bound, "-W"))


def test_a_new_free_digit_needs_its_own_binding(bound: Path) -> None:
    replace_in(bound / "index.md", "About a third", "Again 0.1554, and about a third")
    found = errors(sphinx_build(bound, "-W"))
    assert len(found) == 1 and "bound to no printed quantity" in found[0], found


def test_a_changed_record_has_the_page_read_again(bound: Path) -> None:
    assert sphinx_build(bound, "-W").returncode == 0
    (bound / RECORD).unlink()
    result = sphinx_build(bound, "-W")
    assert result.returncode != 0 and "bound to no printed quantity" in result.stderr
    assert bind(bound, THIRD).returncode == 0
    assert sphinx_build(bound, "-W").returncode == 0


def test_a_broken_record_is_one_located_error(bound: Path) -> None:
    (bound / RECORD).write_text("{not json", encoding="utf-8")
    result = sphinx_build(bound, "-W")
    assert result.returncode != 0
    assert "binding record" in result.stderr and "[verified.binding]" in result.stderr
    assert "Traceback" not in result.stderr
    refused = bind(bound)
    assert refused.returncode == 1 and "fix or remove it first" in refused.stderr


def test_fix_rewrites_bound_digits_by_their_binding(bound: Path) -> None:
    replace_in(bound / "scripts" / "softmax.py", "z = [1.0, 1.0, 0.0]", "z = [1.0, 1.0, 0.5]")
    assert sphinx_build(bound, "-W").returncode != 0
    record = (bound / RECORD).read_bytes()
    fixed = subprocess.run([str(BIN / "verified-fix"), str(bound), "--build",
                            str(bound / "_build")], capture_output=True, text=True, timeout=300,
                           check=False)
    assert "-The largest probability is 0.4223, and the smallest is 0.1554." in fixed.stdout
    assert (bound / RECORD).read_bytes() == record  # fix keeps the bindings
    assert sphinx_build(bound, "-W").returncode == 0, fixed.stdout


def test_quantities_that_now_differ_are_a_choice_again(bound: Path) -> None:
    replace_in(bound / "scripts" / "softmax.py", 'print("largest =", round(max(p), 8))',
               'print("largest =", round(max(p), 3))')
    found = errors(sphinx_build(bound, "-W"))
    assert any("index.md:7:" in e and "which now print different values" in e for e in found)


def test_allowed_unbound_digits_are_counted(root: Path) -> None:
    with (root / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('verified_unbound = "allow"\n')
    # A magnitude given its sign by a sentence is bound by a person, never passed unbound.
    replace_in(root / "index.md", "; class c lies 1.8620 below zero", "")
    result = sphinx_build(root, "-W", builder="verify")
    assert result.returncode == 0, result.stderr
    report = json.loads((root / "_build" / "verify" / "verification.json").read_text())
    numbers = report["pages"][0]["numbers"]
    unbound = [n for n in numbers if n["kind"] == "free"]
    assert len(unbound) == 10  # and the source's literals, given
    assert all(n["provenance"].startswith("printed ") for n in unbound)
    assert report["pages"][0]["snippets"][0]["unbound"] == 10


def test_a_binding_to_a_quantity_printed_no_more_is_dropped(bound: Path) -> None:
    loss = 'print("the loss is", round(-math.log(p[0]), 8))\n'
    replace_in(bound / "scripts" / "softmax.py", loss, "")
    rebound = bind(bound, THIRD)
    assert rebound.returncode == 1
    assert ("index.md:20: 0.8620 was bound to output line 8, which the snippet no longer "
            "prints: binding dropped") in rebound.stdout
    found = errors(sphinx_build(bound, "-W"))
    assert any("index.md:20:" in e and "prose 0.8620 is not among the printed numbers" in e
               for e in found), found


@pytest.mark.parametrize(("named", "old", "new", "line"), [
    (True, "4 & 0.5\n", "5 & 0.5\n", 37),
    (False, "4 & 0.5\n", "5 & 0.5\n", 37),
    (False, "1 & 3 \\\\\n", "1 & 5 \\\\\n", 36),  # a decimal entry the chain derives
])
def test_a_wrong_cell_of_a_computed_matrix_fails_at_its_line(
        bound: Path, named: bool, old: str, new: str, line: int) -> None:
    """``H = \\frac{1}{4} [[1, 3], [4, 0.5]] = …``: the cell made wrong, not the line where
    the computation starts or the result's, is where the error stands (the result is the
    printed H, named or not)."""
    if not named:
        replace_in(bound / "index.md", "H = \\frac{1}{4}", "\\frac{1}{4}")
        assert bind(bound, THIRD).returncode == 0  # the right page, bound again
    replace_in(bound / "index.md", old, new)
    found = errors(sphinx_build(bound, "-W"))
    assert len(found) == 1 and f"index.md:{line}:" in found[0], found
    assert "[verified.arithmetic]" in found[0]


def test_swapped_cells_of_a_computed_matrix_fail_at_their_line(bound: Path) -> None:
    """Swapped, the cells of ``\\frac{1}{4} [[1, 3], …]`` each give another printed number;
    the result, unnamed, is still the printed H, so the computation's line is where the
    errors stand."""
    replace_in(bound / "index.md", "H = \\frac{1}{4}", "\\frac{1}{4}")
    assert bind(bound, THIRD).returncode == 0  # the right page, bound again
    replace_in(bound / "index.md", "1 & 3 \\\\\n", "3 & 1 \\\\\n")
    found = errors(sphinx_build(bound, "-W"))
    assert found and all("index.md:36:" in e and "[verified.arithmetic]" in e for e in found), \
        found


def test_a_wrong_factor_of_a_computed_matrix_fails_at_its_line(bound: Path) -> None:
    """Every entry of ``\\frac{1}{5} [[1, 3], [4, 0.5]]`` differs from the printed H: what they
    share, the factor, is where the error stands (once)."""
    replace_in(bound / "index.md", "H = \\frac{1}{4}", "H = \\frac{1}{5}")
    found = errors(sphinx_build(bound, "-W"))
    assert len(found) == 1 and "index.md:34:" in found[0] and "[verified.arithmetic]" in found[0], \
        found


def test_a_digit_bound_to_a_value_printed_at_two_precisions_may_show_the_exact_one(
        root: Path) -> None:
    # 0.14798085 rounds up to the six places printed beside it: those digits are exact
    script = root / "scripts" / "softmax.py"
    script.write_text(script.read_text(encoding="utf-8") + 'print("density =", 0.14798085)\n'
                      'print("density_6dp =", 0.147981)\n', encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333. The density is 0.147981.")
    assert bind(root, THIRD).returncode == 0
    result = sphinx_build(root, "-W")
    assert result.returncode == 0, result.stderr
    assert "more decimals than the rounding policy" not in result.stderr


def test_a_named_integer_the_source_gives_is_bound_to_its_literal(root: Path) -> None:
    # W is the statement's data, never printed: its w_21 = 2 quotes the source's 2.0
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333. Its entry $w_{21} = 2$, and $k = 7$ classes.")
    assert bind(root, THIRD).returncode == 0
    record = json.loads((root / RECORD).read_text(encoding="utf-8"))["bindings"]
    assert [b["prose"] for b in record if b["section"] == "A third"] == ["0.3333", "2"]
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", "$w_{21} = 2$", "$w_{21} = 3$")
    wrong = errors(sphinx_build(root, "-W"))
    assert any("index.md:16:" in e and "3 here is bound to" in e for e in wrong), wrong
    replace_in(root / "index.md", "$w_{21} = 3$, and $k = 7$", "$w_{21} = 2$, and $k = 8$")
    assert sphinx_build(root, "-W").returncode == 0  # a count quotes nothing: no error


def test_a_count_the_source_assigns_its_name_is_bound_to_that_literal_alone(
        root: Path) -> None:
    # trial 12: "the smoothing constant alpha = 1" of a source's alpha = 1 took any number.
    # Bound to alpha's literal, never to the 1.0 of z's data; a "y = 0" written so from the
    # start (the source's y is 1) quotes nothing: a count ("had the label been").
    script = root / "scripts" / "softmax.py"
    script.write_text("alpha = 1\ny = 1\n" + script.read_text(encoding="utf-8"),
                      encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333. Smoothed with $\\alpha = 1$; had the label been $y = 0$.")
    assert bind(root, THIRD).returncode == 0
    record = json.loads((root / RECORD).read_text(encoding="utf-8"))["bindings"]
    assert [(b["prose"], b["bound"]) for b in record if b["section"] == "A third"] == [
        ("0.3333", "near_third_a"), ("1", "snippet line 1 alpha")]
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", "$\\alpha = 1$", "$\\alpha = 2$")
    wrong = errors(sphinx_build(root, "-W"))
    assert len(wrong) == 1 and "index.md:16:" in wrong[0], wrong
    assert "2 here is bound to the literal 1 on line 1 of the snippet" in wrong[0], wrong


def binds_then_fails_once(root: Path, change: tuple[str, str], where: str, says: str) -> None:
    """The page binds and builds; with ``change`` made, one error, at ``where``, says ``says``."""
    assert bind(root, THIRD).returncode == 0
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", *change)
    wrong = errors(sphinx_build(root, "-W"))
    assert len(wrong) == 1 and where in wrong[0] and says in wrong[0], wrong


def test_a_whole_number_for_a_printed_parameter_is_another_setting(root: Path) -> None:
    # trial 13: "plain gradient descent is the same rule with beta = 0", beta = 0.5 printed
    script = root / "scripts" / "softmax.py"
    script.write_text("beta = 0.5\nprint('beta =', beta)\n" + script.read_text(encoding="utf-8"),
                      encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333. With $\\beta = 0.5$; plain descent is $\\beta = 0$.")
    binds_then_fails_once(root, ("$\\beta = 0.5$", "$\\beta = 0.6$"), "index.md:16:", "prose 0.6")


def test_an_array_the_source_writes_out_is_given_not_bound(bound: Path) -> None:
    # W is the statement's data, never printed: its entries are the source's, by position,
    # though 1.5 and 0.7 are each a literal elsewhere too
    replace_in(bound / "index.md", "2 & 0.7\n", "2 & 1.5\n")
    found = errors(sphinx_build(bound, "-W"))
    assert len(found) == 1 and "index.md:27:" in found[0], found
    assert "W[2,2] (given): prose 1.5, printed 0.7" in found[0]


def test_a_percentage_that_quotes_either_reading_is_asked_for(root: Path) -> None:
    script = root / "scripts" / "softmax.py"
    script.write_text(script.read_text(encoding="utf-8") + 'print("ratio =", 0.375)\n'
                      'print("share_pct =", 37.49999999)\n', encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333.\n\nIt removes 37.5 % of the impurity.")
    asked = bind(root, THIRD)
    assert asked.returncode == 1
    assert "index.md:18: 37.5 matches " in asked.stdout, asked.stdout
    assert "ratio (0.375)" in asked.stdout and "share_pct (37.49999999)" in asked.stdout
    assert bind(root, THIRD, "--choose=index.md:18=share_pct").returncode == 0
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", "37.5 %", "37.6 %")
    wrong = errors(sphinx_build(root, "-W"))
    assert any("index.md:18:" in e and "bound to share_pct" in e for e in wrong), wrong


def test_a_percentage_bound_to_a_fraction_is_read_as_its_hundredth_only(root: Path) -> None:
    # trial 10: "removes 83.83 % of the loss" made "0.84 %" passed as the fraction's digits
    script = root / "scripts" / "softmax.py"
    script.write_text(script.read_text(encoding="utf-8") + 'print("ratio =", 0.37521)\n',
                      encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.",
               "About a third: 0.3333.\n\nIt removes 37.52 % of the impurity.")
    binds_then_fails_once(root, ("37.52 %", "0.38 %"), "index.md:18:", "bound to ratio")


_UNIT = """
$$
\\vec{u}_1 = \\frac{1}{\\sqrt{1 + 0.8729^2}}
\\begin{bmatrix}
1 \\\\
0.8729
\\end{bmatrix}
= \\frac{1}{1.3274}
\\begin{bmatrix}
1 \\\\
0.8729
\\end{bmatrix}
= \\begin{bmatrix}
0.7534 \\\\
0.6576
\\end{bmatrix}
$$
"""


def test_a_wrong_digit_early_in_a_chain_is_its_only_error(root: Path) -> None:
    # trial 11: 0.8729 made 0.8720 in the first step also made the correct 1.3274 and 0.8729
    # of the next step "bound to no printed quantity; run make bind"
    script = root / "scripts" / "softmax.py"
    script.write_text(script.read_text(encoding="utf-8") + (
        "slope = 3.2006 / 3.6667\nnorm = (1 + slope**2) ** 0.5\n"
        'print("slope =", slope)\nprint("norm =", norm)\n'
        'print("u_1 =", [1 / norm, slope / norm])\n'), encoding="utf-8")
    replace_in(root / "index.md", "About a third: 0.3333.", "About a third: 0.3333.\n" + _UNIT)
    assert bind(root, THIRD).returncode == 0
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", "0.8729\n\\end{bmatrix}\n= \\frac",
               "0.8720\n\\end{bmatrix}\n= \\frac")
    wrong = errors(sphinx_build(root, "-W"))
    assert wrong and all("index.md:22:" in e for e in wrong), wrong


def test_rows_alike_are_told_apart_by_their_digits(root: Path) -> None:
    # the three rows' places are one once their digits are masked: only the changed row fails
    replace_in(root / "index.md", "## Exponentials\n",
               "## Exponentials\n\n| x | value |\n|---|---|\n| $p_1$ | 0.4223 |\n"
               "| $p_3$ | 0.1554 |\n| $p_0$ | 0 |\n")
    assert bind(root, THIRD.replace(":16=", ":22=")).returncode == 0
    assert sphinx_build(root, "-W").returncode == 0
    replace_in(root / "index.md", "| $p_0$ | 0 |", "| $p_0$ | 0.1554 |")
    found = errors(sphinx_build(root, "-W"))
    assert len(found) == 1, found
    assert "index.md:8: ERROR: 0.1554: bound to no printed quantity" in found[0]

