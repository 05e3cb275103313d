"""The checker cannot be fooled: mutants of the real book fail the build (scripts/mutation.py).

The mutants come from the pages' Markdown source (every decimal; integers where they are values
in math): one digit changed, two neighbouring entries swapped, a minus dropped or added, a
``+``/``-`` flipped. The scan itself is tested on small pages; a sample of the book's mutants
is applied to a copy of the real book, and each must fail the build with an error naming its
file and line, but for the known survivors, which are held to account. A deliberately blind
page (the Answer wrapped in ``:::{unchecked}``) shows that the machinery does report survivors.
The opt-in printed class (each free digit made every other number its snippet printed) is
tested on a small book of its own; its survivors on the real book are not pinned: they wait for
the bindings (``--bind``).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from support import PROJECT, ROOTS, sphinx_build


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation", PROJECT / "scripts" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


mutation: Any = _load()

ATTENTION = "book/problems/ii-3-b01-attention-by-hand.md"
SAMPLE = 100  # of about 500 mutants; about 0.2 s each
SEED = 2026

#: Lines of the real book whose default mutants the checker lets through, and why.
KNOWN_SURVIVORS: dict[tuple[str, int], str] = {}


def _line_of(outcome: Any, root: Path) -> tuple[str, int]:
    return (mutation._relative(outcome.mutant.source, root), outcome.mutant.lines[0])


# -- the scan: which numbers of a page's source are mutated ------------------------------------

PAGE = """\
# A heading with 0.25

:::{problem} X.1.A01
:kind: numeric
:difficulty: 2
:::

Text −0.5, step 7, version 1.0.4, `0.75`, {ref}`0.125 <x>` and [a](http://x/0.5.html).
% a comment 0.375
<!-- 0.625 -->

$$
x = 1 + 0.3 - 2 + 0(4), \\qquad \\R^{3}, \\quad y_{2} = 4 \\text{ and 0.875}
$$

```python
z = 0.9
```

:::{unchecked}
1.5
:::

$0 < t = 3$, $(-0.1)^2 = 0.01$, $-0.0$, $\\begin{bmatrix} 1 & -2 \\end{bmatrix}$ {math}`s = 5`.

| 0.7 | 8 | $(1, 0)$ | $(0.2, 0)$ |

:::{check-numeric} x.py
:caption: 0.33
:::
"""


def _scan(text: str = PAGE) -> Any:
    return mutation.scan_page(text, Path("/book/page.md"))


def test_the_scan_finds_every_decimal_and_the_integers_that_are_values() -> None:
    scan = _scan()
    assert scan.checked
    found = [(n.line, n.written, n.context) for n in scan.mutable]
    assert found == [
        (1, "0.25", "text"),  # a heading
        (8, "−0.5", "text"),  # with its U+2212 sign
        (13, "1", "math"), (13, "0.3", "math"), (13, "2", "math"),  # sides of an equation
        (13, "0", "math"), (13, "4", "math"),
        (13, "4", "math"),  # y_{2} = 4, not the subscript
        (13, "0.875", "text"),  # words in \text
        (24, "3", "math"), (24, "-0.1", "math"), (24, "2", "math"), (24, "0.01", "math"),
        (24, "-0.0", "math"),
        (24, "1", "cell"), (24, "-2", "cell"),  # a matrix
        (24, "5", "math"),  # the {math} role
        (26, "0.7", "text"),  # a table cell
        (26, "0.2", "math"), (26, "0", "math"),  # a tuple of numbers with a decimal
    ]


def test_the_scan_skips_code_options_comments_exemptions_and_integers_that_are_no_value() -> None:
    scan = _scan()
    written = {n.written for n in scan.mutable}
    # inline code, a role's target, a link, a comment, an HTML comment, a code block, an
    # exempt passage, a directive's option: never read
    for skipped in ("0.75", "0.125", "0.375", "0.625", "0.9", "1.5", "0.33", "1.0", "0.4"):
        assert skipped not in written
    assert all(n.line not in (3, 4, 5, 28, 29) for n in scan.numbers)  # header and check lines
    unmutated = {(n.line, n.written) for n in scan.numbers if not n.mutable}
    # \R^{3} (after a comma: no equation), the subscript of y_{2}, 0 < t (an inequality),
    # integers in text (7, 8: never even read), a tuple of integers
    assert unmutated == {(13, "3"), (13, "2"), (24, "0"), (26, "1"), (26, "0")}
    assert not any(n.text in ("7", "8") for n in scan.numbers)


def test_the_scan_skips_injections_which_hold_no_written_digit() -> None:
    page = ("# Injected\n\nIn text {val}`p_1:.2f`, in math $s = \\val{s:.2f}$ and "
            "$q = 0.5$.\n\n:::{check-numeric} s.py\n:::\n")
    assert [(n.line, n.written) for n in _scan(page).mutable] == [(3, "0.5")]


def test_sign_and_operator_mutants() -> None:
    mutants = mutation.make_mutants([_scan()])
    by_kind: dict[str, set[tuple[int, str, str]]] = {}
    for mutant in mutants:
        (edit, *_rest) = mutant.edits
        by_kind.setdefault(mutant.kind, set()).add((edit.line, edit.old, edit.new))
    # a minus added where a sign can stand; never to 0, -0.0 or a number after an operator,
    # an unbraced power or under an even power
    assert by_kind["sign-add"] == {
        (1, "0.25", "-0.25"), (13, "1", "-1"), (13, "4", "-4"), (13, "0.875", "-0.875"),
        (24, "3", "-3"), (24, "0.01", "-0.01"), (24, "1", "-1"), (24, "5", "-5"),
        (26, "0.7", "-0.7"), (26, "0.2", "-0.2")}
    # the minus of a negative number dropped; not from -0.0 (the same value) nor (-0.1)^2
    assert by_kind["sign"] == {(8, "−0.5", "0.5"), (24, "-2", "2")}
    # + and - flipped between two operands; not before 0(4), a term that is zero
    assert by_kind["operator"] == {(13, "+", "-"), (13, "-", "+")}
    line = PAGE.splitlines()[12]
    assert sorted(e.column for m in mutants if m.kind == "operator" for e in m.edits) == [
        line.index("+"), line.index("-")]
    # swaps: the matrix's two cells, the tuple (0.2, 0) (its entries differ)
    assert {m.edits[0].old + "<->" + m.edits[1].old for m in mutants if m.kind == "swap"} == {
        "1<->-2", "0.2<->0"}


def test_digit_mutants_and_edits() -> None:
    (number,) = [n for n in _scan().mutable if n.written == "-0.1"]
    source = Path("/book/page.md")
    assert [m.edits[0].new for m in mutation.digit_mutants(source, number)] == ["0.2"]
    assert [m.edits[0].new for m in mutation.digit_mutants(source, number, True)] == [
        "1.1", "0.2"]
    edited = mutation.apply_edits("a\n$$-0.7071 & 1$$\n", [
        mutation.Edit(2, 2, "-0.7071", "1"), mutation.Edit(2, 12, "1", "-0.7071")])
    assert edited == "a\n$$1 & -0.7071$$\n"
    with pytest.raises(ValueError, match="does not hold"):
        mutation.apply_edits("0.5\n", [mutation.Edit(1, 0, "0.6", "0.7")])


def test_the_scan_reads_amsmath_aligned_rows_and_math_blocks() -> None:
    text = ("```{math}\n:label: eq\n\\begin{aligned}\nH &= 1 + 0.5 \\\\\n  &= 1.5\n"
            "\\end{aligned}\n```\n\n\\begin{align}\nv = \\frac{2}{4}\n\\end{align}\n\n"
            "$$\nq = \\frac{\\sigma^2}{1 - \\rho^2}\n$$ (label-1)\n\n$\\log_2 8 = 3$ bits\n")
    scan = _scan(text)
    assert not scan.checked
    assert [(n.line, n.written) for n in scan.mutable] == [
        (4, "1"), (4, "0.5"), (5, "1.5"), (10, "2"), (10, "4"),
        (17, "2"), (17, "8"), (17, "3")]  # the base of \log_2 is a value
    # a symbolic side: neither its integers nor its operator are mutated
    assert {(n.line, n.text) for n in scan.numbers if not n.mutable} == {(14, "2"), (14, "1")}
    assert [(o.line, o.symbol) for o in scan.operators] == [(4, "+")]


def test_a_failure_on_another_line_does_not_kill() -> None:
    page = Path("/book/page.md")
    mutant = mutation.Mutant("digit", page, (mutation.Edit(12, 4, "0.4011", "0.4012"),),
                             "in math")
    elsewhere = mutation.Build(1, f"{page}:13: ERROR: A[1,1]: prose 0.4012, printed 0.4011\n", 0.1)
    assert mutation.judge(mutant, elsewhere) == (
        False, "the build failed (exit 1) but no error names line 12 (errors name [13])")
    warned = mutation.Build(1, f"{page}:12: WARNING: something else\n", 0.1)
    assert not mutation.judge(mutant, warned)[0]
    passed = mutation.Build(0, "", 0.1)
    assert mutation.judge(mutant, passed) == (False, "the build passed (exit 0)")
    right = mutation.Build(1, f"\x1b[31m{page}:12: ERROR: A[1,1]: prose 0.4012, printed 0.4011 "
                              "[verified.divergence]\x1b[39;49;00m\n", 0.1)
    assert mutation.judge(mutant, right) == (
        True, "A[1,1]: prose 0.4012, printed 0.4011 [verified.divergence]")


def test_a_swap_must_be_reported_on_both_lines() -> None:
    page = Path("/book/page.md")
    mutant = mutation.Mutant("swap", page, (mutation.Edit(3, 0, "0.1", "0.2"),
                                            mutation.Edit(4, 0, "0.2", "0.1")), "in a matrix")
    one = mutation.Build(1, f"{page}:3: ERROR: A[1,1]: prose 0.2, printed 0.1\n", 0.1)
    assert not mutation.judge(mutant, one)[0]
    both = mutation.Build(1, f"{page}:3: ERROR: x\n{page}:4: ERROR: y\n", 0.1)
    assert mutation.judge(mutant, both) == (True, "x; y")


# -- the real book ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One sampled mutation run of the real book, shared by the tests that judge it."""
    root = tmp_path_factory.mktemp("mutation") / "copy"
    return mutation.mutate(root, sample=SAMPLE, seed=SEED)


@pytest.mark.slow
def test_a_sample_of_the_book_kills_every_mutant(sample: Any) -> None:
    """100 % killed, but for the known survivors (which the next test holds to account)."""
    summary = sample.summary()
    print(summary)
    assert sample.unscanned == [], summary  # every number the checker checks is mutated
    assert sample.unapplied == [], summary
    assert sample.final_ok, summary
    assert len(sample.outcomes) == SAMPLE
    assert {o.mutant.kind for o in sample.outcomes} == set(mutation.KINDS)
    unknown = [o.mutant.describe(sample.root) for o in sample.survivors
               if _line_of(o, sample.root) not in KNOWN_SURVIVORS]
    assert unknown == [], summary
    for outcome in sample.outcomes:
        if outcome.killed:
            assert "[verified." in outcome.reason, outcome.reason
    # The mutant builds re-read the mutated page (and the verification page), never a snippet.
    assert all(o.snippets_run == 0 for o in sample.outcomes)
    assert max(o.read for o in sample.outcomes) <= 3
    assert f"mutants: {SAMPLE}, killed: " in summary


@pytest.mark.slow
def test_the_known_survivors_still_survive(tmp_path: Path) -> None:
    """Each known line still lets a mutant through: when the checker catches it, update the list."""
    workspace = mutation.Workspace.create(tmp_path / "copy")
    _build, report = mutation.baseline(workspace)
    mutants = mutation.make_mutants(mutation.scan_pages(mutation.checked_pages(workspace)))
    known = [m for m in mutants
             if (mutation._relative(m.source, workspace.root), m.lines[0]) in KNOWN_SURVIVORS]
    result = mutation.run_mutants(workspace, known, report)
    assert result.final_ok
    surviving = {_line_of(o, workspace.root) for o in result.survivors}
    assert surviving == set(KNOWN_SURVIVORS), result.summary()


@pytest.mark.slow
def test_pages_runs_the_mutants_of_one_page_only(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--pages`` (``make mutation PAGES=…``): a sample of that page's mutants, no other."""
    real = (PROJECT / ATTENTION).read_bytes()
    page_mutants = mutation.make_mutants([mutation.scan_page(real.decode("utf-8"),
                                                             PROJECT / ATTENTION)])
    status = mutation.main(["--pages", ATTENTION, "--sample", "4", "--seed", "3", "--progress"])
    out, err = capsys.readouterr()
    assert f"[sample of {len(page_mutants)}]" in out, out
    assert "mutants: 4, killed: " in out
    ran = [line for line in err.splitlines() if line.startswith("[")]
    assert len(ran) == 4
    assert all(f"] killed {ATTENTION}:" in line or f"] SURVIVED {ATTENTION}:" in line
               for line in ran), err
    assert status == (0 if "survived: 0, unapplied: 0" in out else 1)
    assert (PROJECT / ATTENTION).read_bytes() == real  # the real page is never touched
    with pytest.raises(SystemExit, match="not a checked page"):
        mutation.main(["--pages", "book/apparatus.md"])
    with pytest.raises(SystemExit, match="no such page"):
        mutation.main(["--pages", "book/no-such-page.md"])


EXTRA_PAGE = """\
# An extra page

The mean of $(1, 2, 3)$ is $m = 2.0000$, and $\\sqrt{2} \\approx 1.4142$.

:::{check-numeric} extra-mean.py
:::
"""


@pytest.mark.slow
def test_extra_pages_are_added_to_the_copy_and_mutated(tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    (extra / "pages").mkdir(parents=True)
    (extra / "snippets").mkdir()
    (extra / "pages" / "mean.md").write_text(EXTRA_PAGE, encoding="utf-8")
    (extra / "snippets" / "extra-mean.py").write_text(
        'print("m =", 2.0)\nprint("r =", 2 ** 0.5)\n', encoding="utf-8")
    root = tmp_path / "copy"
    result = mutation.mutate(root, pages=[str(extra / "pages" / "mean.md")], extras=[extra])
    print(result.summary())
    copy = root / "book" / "extra" / "mean.md"
    assert copy.read_text(encoding="utf-8") == EXTRA_PAGE  # restored byte for byte
    assert (root / "scripts" / "snippets" / "extra-mean.py").is_file()
    index = (root / "book" / "index.md").read_text(encoding="utf-8")
    real_index = (PROJECT / "book" / "index.md").read_text(encoding="utf-8")
    assert index.startswith(real_index) and "\nextra/mean\n" in index[len(real_index):]
    assert {o.mutant.source for o in result.outcomes} == {copy}
    # 2.0000 and 1.4142 (digit, sign-add) and the 2 under the root (digit, sign-add);
    # the integers of (1, 2, 3) are not values
    assert Counter(o.mutant.kind for o in result.outcomes) == {"digit": 3, "sign-add": 3}
    assert result.ok, result.summary()


def _blind_answer(page: Path) -> tuple[int, int]:
    """Wrap the Answer's display math in ``:::{unchecked}`` without moving a line.

    The blank lines around the block become the fences. Returns the block's first and last
    line (1-based).
    """
    lines = page.read_text(encoding="utf-8").split("\n")
    heading = lines.index("## Answer")
    assert lines[heading + 1] == "" and lines[heading + 2] == "$$"
    closing = lines.index("$$", heading + 3)
    assert lines[closing + 1] == ""
    lines[heading + 1] = ":::{unchecked}"
    lines[closing + 1] = ":::"
    page.write_text("\n".join(lines), encoding="utf-8")
    return heading + 3, closing + 1


@pytest.mark.slow
def test_a_blind_page_lets_mutants_survive_and_they_are_reported(tmp_path: Path) -> None:
    workspace = mutation.Workspace.create(tmp_path / "copy")
    page = workspace.root / ATTENTION
    mutants = mutation.make_mutants(mutation.scan_pages([page]))
    first, last = _blind_answer(page)
    assert mutation.make_mutants(mutation.scan_pages([page])) != mutants  # the blind page's
    workspace.write(page, page.read_bytes())  # a fresh mtime: Sphinx re-reads the page
    blind = mutation.baseline(workspace)[1]
    exempt = [n for p in blind["pages"] if p["docname"] == "problems/ii-3-b01-attention-by-hand"
              for n in p["numbers"] if n["kind"] == "exempt" and first <= n["line"] <= last]
    assert len(exempt) == 15  # A (3x3) and O (3x2) are no longer checked
    first_row = first + 3  # $$, \mat{A} =, \begin{bmatrix}, then 0.4011 & 0.1978 & 0.4011
    in_answer = [m for m in mutants if m.source == page and m.lines[0] == first_row]
    assert {m.kind for m in in_answer} == {"digit", "swap", "sign-add"}
    result = mutation.run_mutants(workspace, in_answer, blind)
    assert result.final_ok
    assert len(result.survivors) == len(in_answer)
    assert not result.ok
    summary = result.summary()
    assert f"SURVIVED {ATTENTION}:110: digit in a matrix: 0.4011 -> 0.4012 (column 0): " \
           "the build passed (exit 0)\n    before: 0.4011 & 0.1978 & 0.4011 \\\\\n" \
           "    after:  0.4012 & 0.1978 & 0.4011 \\\\" in summary
    assert f"mutants: {len(in_answer)}, killed: 0 (0.0%)" in summary


@pytest.mark.slow
def test_in_process_builds_exit_as_sphinx_build_does(tmp_path: Path) -> None:
    workspace = mutation.Workspace.create(tmp_path / "copy")
    mutation.baseline(workspace)
    page = workspace.root / ATTENTION
    mutants = mutation.make_mutants(mutation.scan_pages([page]))
    named = next(m for m in mutants if m.kind == "digit" and m.lines == (84,)
                 and m.edits[0].old == "0.1978")  # a_1[2]
    # "Step 1" made "Step 2": a count in a heading, which the checker does not read
    heading = mutation.Mutant("digit", page, (mutation.Edit(40, 9, "1", "2"),), "in text")
    for mutant, killed in ((named, True), (heading, False)):
        workspace.in_subprocess = False
        here = workspace.run(mutant)
        status_here = workspace.builds[-1].status
        workspace.in_subprocess = True
        there = workspace.run(mutant)
        assert workspace.builds[-1].status == status_here == (1 if killed else 0)
        assert here.killed is there.killed is killed
        assert here.reason == there.reason


# -- no false alarms: other styles of writing problems pass unchanged ------------------------

#: Per page of tests/roots/test-styles: how many numbers are checked by name and as free digits.
STYLES = {
    "numpy-default": (19, 1),  # numpy's str, aligned columns, negatives, a wrapped vector
    "repr-arrays": (7, 1),  # array([...]) over two lines
    "fstrings": (2, 1),  # print(f"m = {m:.6f}"), a number inside a sentence
    "rounded-lists": (6, 1),  # [0.09, 0.2447, 0.6652] against 0.0900
    "float64": (4, 0),  # np.float64(1.4142135623730951), a list of them
    "vectors": (17, 0),  # pmatrix columns, a (3, 1) column, a row, P_{22}, x = 1/3 = 0.3333
    "scientific": (5, 2),  # 2.2204 \times 10^{-16} against 2.220446049250313e-16
    "printoptions": (7, 2),  # precision=4, "A =\n", sign="+", aligned, the {math} role
}

#: Lines of tests/roots/test-styles whose mutants the checker lets through, and why.
KNOWN_STYLE_SURVIVORS = {
    ("repr-arrays.md", 10): "the minus (U+2212) of a free digit in text: −0.5 made 0.5 passes, "
    "though no 0.5 is printed",
}


def test_other_styles_pass_unchanged_and_every_number_is_checked(
    copy_root: Callable[[str], Path],
) -> None:
    root = copy_root("styles")
    done = sphinx_build(root, "-W", builder="verify")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    data = json.loads((root / "_build" / "verify" / "verification.json").read_text("utf-8"))
    numbers = [n for page in data["pages"] for n in page["numbers"]]
    assert [n for n in numbers if n["status"] != "match"] == []
    assert data["summary"] == {"pages": len(STYLES), "numbers": len(numbers), "failed": 0,
                               "errors": 0}
    counts = {page["docname"]: (sum(n["kind"] == "named" for n in page["numbers"]),
                                sum(n["kind"] == "free" for n in page["numbers"]))
              for page in data["pages"]}
    assert counts == STYLES


@pytest.mark.slow
def test_other_styles_are_checked_for_real(tmp_path: Path) -> None:
    """Every mutant of the styles root fails its build but on the known lines: no vacuous match."""
    workspace = mutation.Workspace.from_folder(ROOTS / "test-styles", tmp_path / "styles")
    result = mutation.mutate_copy(workspace)
    summary = result.summary()
    assert result.unscanned == [] and result.unapplied == [] and result.final_ok, summary
    assert {o.mutant.kind for o in result.outcomes} == set(mutation.KINDS)
    surviving = {_line_of(o, workspace.root) for o in result.survivors}
    assert surviving == set(KNOWN_STYLE_SURVIVORS), summary


def test_no_sign_is_put_on_a_product_with_a_zero_factor() -> None:
    # `-0.4011(0) + 0.1978(1)` is the same sum: that mutant "survived" every run of the seed.
    scan = mutation.scan_page("# Page\n\n$$\n0.4011(0) + 0.1978(1) = 0.1978\n$$\n")
    signed = {(e.old, e.new) for m in mutation.make_mutants([scan]) if m.kind == "sign-add"
              for e in m.edits}
    assert ("0.4011", "-0.4011") not in signed
    assert ("0.1978", "-0.1978") in signed  # at the result: a sign that counts


# -- the printed class: a free digit made each other number its snippet printed ---------------

PRINTED_PAGE = """\
# Probabilities

The largest probability, 0.6285, is the third; the logit is $-0.58$.

Said again on another line: 0.6285.

$$
p_3 = 0.6285
$$

:::{check-numeric} probs.py
:::

## Variation

With other scores the largest is 0.9000.

:::{check-numeric} variation.py
:scope: section
:::
"""

PRINTED_SNIPPETS = {
    "probs.py": 'import numpy as np\n\np = np.array([0.2285, 0.143, 0.6285])\nprint("p =", p)\n'
                'print("logit =", -0.58)\nprint("total =", 1.0)\nprint("near =", 0.62849)\n'
                'print("e =", 2.71828)\nprint("tiny =", 0.00025)\n',
    "variation.py": 'print("q =", [0.05, 0.05, 0.9])\n',
}

#: What each printed number of probs.py becomes at 4 places (0.6285's) and at 2 (-0.58's):
#: 0.62849 writes 0.6285 itself (skipped), 0.00025 is 0.0002 half-even, the minus is kept.
AT_4_PLACES = {"0.2285", "0.1430", "-0.5800", "1.0000", "2.7183", "0.0002"}
AT_2_PLACES = {"0.23", "0.14", "0.63", "1.00", "2.72", "0.00"}


def _printed_project(folder: Path) -> Path:
    """A self-contained book (conf.py beside the page) for the printed class."""
    (folder / "scripts" / "snippets").mkdir(parents=True)
    (folder / "conf.py").write_text(
        'extensions = ["myst_parser", "verified_problems"]\n'
        'myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]\n'
        'verified_unbound = "allow"\n'
        'exclude_patterns = ["_build"]\n', encoding="utf-8")
    (folder / "index.md").write_text(PRINTED_PAGE, encoding="utf-8")
    for name, code in PRINTED_SNIPPETS.items():
        (folder / "scripts" / "snippets" / name).write_text(code, encoding="utf-8")
    return folder


def test_a_printed_replacement_keeps_the_places_and_the_signs_and_rounds_half_even() -> None:
    assert mutation.render(mutation.Decimal("0.00025"), 4) == "0.0002"  # half-even
    assert mutation.render(mutation.Decimal("0.00035"), 4) == "0.0004"
    assert mutation.render(mutation.Decimal("-0.00001"), 4) == "0.0000"  # a zero has no minus
    assert mutation.render(mutation.Decimal("6.02214076e23"), 1) == "602214076000000000000000.0"
    scan = _scan("Text −0.5 and $(0.25)^2 = 0.0625$ and $+0.5 = x$.\n")
    minus, squared, _power, _result, plus = scan.numbers
    values = [mutation.Decimal(v) for v in ("-0.25", "0.75", "-0.5", "0.49", "-0.26")]
    made, skipped = mutation.printed_mutants(Path("/book/page.md"), minus, values)
    # its own minus (U+2212) on a negative, none on a positive; -0.5 and 0.49 write -0.5 and
    # 0.5: the second is a mutant, the first is the prose itself
    assert [m.edits[0].new for m in made] == ["−0.2", "0.8", "0.5", "−0.3"]
    assert skipped == 1
    assert {m.kind for m in made} == {"printed"} and made[0].edits[0].old == "−0.5"
    # under an even power the sign does not count: -0.25 is the prose's value there
    made, skipped = mutation.printed_mutants(Path("/book/page.md"), squared, values[:2])
    assert [m.edits[0].new for m in made] == ["0.75"] and skipped == 1
    made, _skipped = mutation.printed_mutants(Path("/book/page.md"), plus, values[:2])
    assert [m.edits[0].new for m in made] == ["-0.2", "+0.8"]  # a written + stays


@pytest.mark.slow
def test_the_printed_class_of_a_small_page(tmp_path: Path) -> None:
    workspace = mutation.Workspace.from_folder(_printed_project(tmp_path / "project"),
                                               tmp_path / "copy")
    _build, report = mutation.baseline(workspace)
    scans = mutation.scan_pages(mutation.checked_pages(workspace))
    mutants, stats = mutation.make_printed_mutants(
        report, scans, workspace.snippet_outputs(report), workspace.root)
    made = {(m.lines[0], m.edits[0].old, m.edits[0].new) for m in mutants}
    assert made == (
        {(3, "0.6285", new) for new in AT_4_PLACES} | {(3, "-0.58", new) for new in AT_2_PLACES}
        | {(5, "0.6285", new) for new in AT_4_PLACES}  # the same digits on its own line
        | {(16, "0.9000", "0.0500")})  # the Variation's number: its own snippet's numbers
    assert len(mutants) == len(made)  # one mutant per distinct replacement
    line = PRINTED_PAGE.splitlines()[4]
    assert {m.edits[0].column for m in mutants if m.lines == (5,)} == {line.index("0.6285")}
    # p_3 = 0.6285 is named: not a free digit; 0.6285 and 0.62849 skipped twice, -0.58 once,
    # 0.9 once (0.05 printed twice is one number)
    assert (stats.free, stats.mutated, stats.unmatched, stats.unplaced, stats.equal) == (
        4, 4, [], [], 2 + 1 + 2 + 1)
    result = mutation.run_mutants(workspace, mutants, report)
    assert result.final_ok and not result.unapplied, result.summary()
    for outcome in result.outcomes:  # killed only by an error at the changed line
        if outcome.killed:
            assert "[verified." in outcome.reason, outcome.reason


def test_a_free_digit_is_matched_to_the_scanned_number_on_its_line() -> None:
    scan = _scan(PRINTED_PAGE)
    record = {"line": 5, "column": None, "prose": "0.6285", "kind": "free"}
    assert mutation.match_number(record, scan).line == 5
    record = {"line": 3, "column": 61, "prose": "-0.58", "kind": "free"}  # at the minus
    assert mutation.match_number(record, scan).written == "-0.58"
    assert mutation.match_number({**record, "prose": "0.6285", "line": 4}, scan) is None
    twice = _scan("Both 0.5 and 0.5.\n")
    assert mutation.match_number({"line": 1, "column": None, "prose": "0.5"}, twice) is None
    assert mutation.match_number({"line": 1, "column": 13, "prose": "0.5"}, twice).column == 13


@pytest.mark.slow
def test_the_printed_class_is_opt_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Off by default; ``--printed`` (or ``--all-digits``) adds it, sampled and counted apart."""
    extra = tmp_path / "extra"
    project = _printed_project(tmp_path / "project")
    (extra / "pages").mkdir(parents=True)
    shutil.copy(project / "index.md", extra / "pages" / "probabilities.md")
    shutil.copytree(project / "scripts" / "snippets", extra / "snippets")
    page = str(extra / "pages" / "probabilities.md")
    # 0.6285 matches p[3] and a 'near' 0.62849 on purpose: verified-bind asks which one
    chosen = [f"--choose=probabilities.md:{line}=p[3]" for line in (3, 5)]
    common = ["--extra", str(extra), "--pages", page, "--sample", "0", *chosen]
    mutation.main(common)
    out = capsys.readouterr().out
    assert "printed:" not in out, out
    assert "--bind: verified-bind bound every free digit" in out  # on by default with --extra
    mutation.main([*common, "--printed"])
    out = capsys.readouterr().out
    count = 2 * len(AT_4_PLACES) + len(AT_2_PLACES) + 1
    assert f"  printed: 0 mutants (of {count}), 0 killed, 0 survived\n" in out, out
    assert "    of 4 free digits: 4 mutated, 0 not matched to the scan, 0 not placed; " in out


def _stand_in(folder: Path, status: int) -> Path:
    """An executable in place of ``verified-bind``: it records its arguments and exits."""
    script = folder / f"bind-{status}"
    record = f"pathlib.Path({str(folder / 'argv')!r}).write_text('\\n'.join(sys.argv[1:]))"
    script.write_text(f"#!{sys.executable}\nimport pathlib, sys\n{record}\n"
                      f"print('ambiguous: page.md:3: 0.5')\nsys.exit({status})\n",
                      encoding="utf-8")
    script.chmod(0o755)
    return script


def test_bind_runs_the_binding_tool_on_the_copy_or_says_it_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    workspace = mutation.Workspace(tmp_path / "copy")
    assert mutation.bind(workspace, None) is None
    assert "--bind: verified-bind is not installed in " in capsys.readouterr().out
    assert mutation.bind(workspace, _stand_in(tmp_path, 1)) == 1  # ambiguous: go on
    assert (tmp_path / "argv").read_text().splitlines() == [
        str(workspace.srcdir), "--conf", str(workspace.root / "conf"),
        "--build", str(workspace.root / "_build" / "bind")]
    out = capsys.readouterr().out
    assert "left some digits ambiguous (exit 1)" in out and "ambiguous: page.md:3: 0.5" in out
    assert mutation.bind(workspace, _stand_in(tmp_path, 0)) == 0
    with pytest.raises(SystemExit, match=r"failed \(exit 2\):\nambiguous"):
        mutation.bind(workspace, _stand_in(tmp_path, 2))


def test_a_bound_or_given_digit_the_scan_misses_is_reported() -> None:
    """A free digit bound by a record file (kind ``bound``) or quoting the source (``given``) is
    still a checked number: the scan must mutate it."""
    scan = _scan("Text 0.5 here.\n")
    numbers = [{"line": 1, "column": 5, "prose": "0.5", "kind": "bound", "status": "match"},
               {"line": 1, "column": 9, "prose": "0.7", "kind": "given", "status": "match"}]
    report = {"pages": [{"source": "/book/page.md", "numbers": numbers}]}
    assert mutation.unmutated(report, [scan], Path("/")) == [
        "book/page.md:1: 0.7 at column 9 is checked by the build but never mutated"]
