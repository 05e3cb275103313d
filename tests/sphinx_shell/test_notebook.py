"""Notebook pages verified against their own outputs (MyST-NB executes them, with its cache).

Real builds of ``tests/roots/test-notebook``: a MyST Markdown notebook (two code cells, one of
them gluing a value) and an ``.ipynb``, each with a ``check-numeric`` that names no snippet.
Their prose quotes what their cells printed and glued; a wrong digit fails at the Markdown
file's real line, or at an ``.ipynb``'s cell and line; a failing, silent or slow notebook fails
as a snippet would; a no-op build runs no cell; ``verified-fix`` repairs both kinds of page.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import Build, copy_root_to, math_marks, no_traceback, paragraph, replace_in, text_marks
from support import build_root as build

pytestmark = pytest.mark.slow

BIN = Path(sys.executable).parent
SOFTMAX = "softmax.md"
SIGMOID = "sigmoid.ipynb"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Build]:
    """The notebook root, built once."""
    yield build(copy_root_to("notebook", tmp_path_factory.mktemp("nb") / "notebook"))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_root_to("notebook", tmp_path / "notebook")


def edit_cell(path: Path, index: int, old: str, new: str) -> None:
    """Change the source of one cell of an ``.ipynb``, as Jupyter would save it."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    source = "".join(notebook["cells"][index]["source"])
    assert old in source
    notebook["cells"][index]["source"] = source.replace(old, new).splitlines(keepends=True)
    path.write_text(json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def errors(result: Build) -> list[str]:
    return [m for m in result.messages() if "ERROR" in m]


def test_correct_notebook_pages_build_clean(site: Build) -> None:
    assert site.statuscode == 0, site.warning
    assert site.messages() == []
    assert "verified: 2 checked pages" in site.summary()


def test_a_myst_notebooks_digits_are_checked_against_its_cells(site: Build) -> None:
    tip = "(softmax.md)"
    marks = math_marks(paragraph(site.page("softmax"), "The softmax of"))
    assert marks == [("verified-ok", "0.2689", f"p[1], printed 0.2689414213699951 {tip}"),
                     ("verified-ok", "0.7311", f"p[2], printed 0.7310585786300049 {tip}")]
    loss = paragraph(site.page("softmax"), "The loss of")
    assert math_marks(loss) == [("verified-ok", "0.3133", f"ell, printed 0.3132616875182228 {tip}")]
    # {glue:text} writes digits into the prose: they are checked as a digit written by hand
    assert text_marks(loss) == [
        ("verified-ok", "0.7311", f"bound to p[2] = p_max, printed 0.7310585786300049 {tip}")]


def test_an_ipynbs_digits_are_checked_against_its_cells(site: Build) -> None:
    page = site.page("sigmoid")
    assert math_marks(paragraph(page, "and its slope")) == [
        ("verified-ok", "0.2350", "derived: q(1 - q) (sigmoid.ipynb)")]
    block = page.select_one("div.math")
    assert block is not None and "verified-ok" in str(block)


def test_the_check_shows_what_the_cells_printed_and_the_verdict(site: Build) -> None:
    check = site.page("softmax").select_one("div.verified-check")
    assert check is not None
    transcript = check.select_one("details.verified-transcript")
    assert transcript is not None and not transcript.has_attr("open")  # outputs are on the page
    assert "p = [0.2689414213699951, 0.7310585786300049]" in transcript.get_text()
    assert "ell = 0.3132616875182228" in transcript.get_text()  # glued, not displayed
    assert check.select_one("pre.verified-script, .verified-excerpt") is None
    assert "Executed at build" in check.get_text()


def test_a_wrong_digit_in_a_myst_notebook_fails_at_the_files_line(root: Path) -> None:
    replace_in(root / SOFTMAX, "(0.2689,\\; 0.7311)", "(0.2689,\\; 0.7312)")
    result = build(root)
    assert result.statuscode == 1
    assert errors(result) == [
        f"{SOFTMAX}:22: ERROR: p[2]: prose 0.7312, printed 0.7311 (Softmax in a MyST "
        "notebook) [verified.divergence]"]


def test_a_wrong_digit_in_an_ipynb_fails_at_its_cell_and_line(root: Path) -> None:
    edit_cell(root / SIGMOID, 2, "q = 0.6225", "q = 0.6226")
    result = build(root)
    assert result.statuscode == 1
    assert errors(result) == [
        f"{SIGMOID}:cell 3, line 3: ERROR: q: prose 0.6226, printed 0.6225 (The sigmoid in an "
        "ipynb) [verified.divergence]"]


def test_a_wrong_digit_for_a_glued_value_fails(root: Path) -> None:
    replace_in(root / SOFTMAX, "$\\ell = 0.3133$", "$\\ell = 0.3134$")
    result = build(root)
    assert errors(result) == [
        f"{SOFTMAX}:33: ERROR: ell: prose 0.3134, printed 0.3133 (Softmax in a MyST notebook) "
        "[verified.divergence]"]


def test_a_glued_value_that_changed_fails_the_digits_written_for_it(root: Path) -> None:
    replace_in(root / SOFTMAX, 'glue("ell", ell, display=False)',
               'glue("ell", ell / 2, display=False)')
    result = build(root)
    assert any("ell: prose 0.3133, printed 0.1566" in m for m in errors(result)), result.warning


def test_a_failing_cell_fails_the_build_with_its_message(root: Path) -> None:
    replace_in(root / SOFTMAX, "ell = -math.log(p[1])", "ell = -math.log(p[1] - 1)")
    result = build(root)
    assert result.statuscode == 1
    no_traceback(result)
    assert f"{SOFTMAX}:28: ERROR: the cells of {SOFTMAX} failed: ValueError: math domain " \
           "error [verified.snippet]" in result.messages()
    report = result.reports["softmax"]
    assert {n.status for n in report.numbers} == {"snippet-failed"}


def test_a_failing_ipynb_cell_is_located_by_cell(root: Path) -> None:
    edit_cell(root / SIGMOID, 1, "x = 0.5\n", "x = 0.5\nraise RuntimeError('no data')\n")
    result = build(root)
    assert f"{SIGMOID}:cell 2, line 4: ERROR: the cells of {SIGMOID} failed: RuntimeError: no " \
           "data [verified.snippet]" in result.messages()


def test_cells_that_print_nothing_fail(root: Path) -> None:
    edit_cell(root / SIGMOID, 1, 'print("q =", q)\nprint("slope =", q * (1 - q))', "pass")
    result = build(root)
    assert f"{SIGMOID}: ERROR: the cells of {SIGMOID} failed: the notebook's cells printed " \
           "nothing [verified.snippet]" in result.messages()


def test_a_cell_that_runs_too_long_fails_with_the_setting_to_change(root: Path) -> None:
    edit_cell(root / SIGMOID, 1, "import math\n", "import math, time\ntime.sleep(30)\n")
    result = build(root, confoverrides={"nb_execution_timeout": 2})
    message = next(m for m in errors(result) if "[verified.snippet]" in m)
    assert message.startswith(f"{SIGMOID}:cell 2, line 2: ERROR: the cells of {SIGMOID} "
                              "failed: CellTimeoutError")
    assert "raise nb_execution_timeout in conf.py" in message


def test_a_no_op_rebuild_runs_no_cell_and_keeps_the_verdict(root: Path) -> None:
    replace_in(root / SOFTMAX, "(0.2689,\\; 0.7311)", "(0.2689,\\; 0.7312)")
    first = build(root)
    again = build(root)
    assert again.read == [] and (root / "runs.log").read_text() == "softmax ran\n"
    assert again.statuscode == 1 and errors(again) == errors(first)
    assert "p[2]: prose 0.7312, printed 0.7311" in errors(again)[0]


def test_a_check_without_a_snippet_on_a_page_that_is_no_notebook(root: Path) -> None:
    (root / "plain.md").write_text("# Plain\n\nHere $a = 0.5$.\n\n:::{check-numeric}\n:::\n",
                                   encoding="utf-8")
    replace_in(root / "index.md", "sigmoid\n", "sigmoid\nplain\n")
    result = build(root)
    assert any(m.startswith("plain.md:5: ERROR: check-numeric names no snippet") and
               "only on a notebook page" in m for m in result.messages()), result.warning


def test_parallel_builds_check_notebooks_the_same(root: Path) -> None:
    replace_in(root / SOFTMAX, "(0.2689,\\; 0.7311)", "(0.2689,\\; 0.7312)")
    edit_cell(root / SIGMOID, 2, "q = 0.6225", "q = 0.6226")
    for number in range(4):  # Sphinx reads in parallel from six pages on
        (root / f"more{number}.md").write_text(f"# More {number}\n", encoding="utf-8")
    replace_in(root / "index.md", "sigmoid\n", "sigmoid\nmore0\nmore1\nmore2\nmore3\n")
    # jupyter-cache's first database, opened by two readers at once, races (sphinx-doc/sphinx
    # #12481): the notebooks run without one here, as `force` runs them
    replace_in(root / "conf.py", '"cache"', '"force"')
    result = build(root, parallel=2)
    assert result.parallel_read
    assert [m.split(": ERROR")[0] for m in errors(result)] == [
        f"{SIGMOID}:cell 3, line 3", f"{SOFTMAX}:22"]


# -- verified-fix on notebook pages ----------------------------------------------------------


def fix(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``verified-fix`` on the root, as an author runs it."""
    command = [str(BIN / "verified-fix"), ".", "--build", "_build/fix", *args]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=600,
                          check=False)


def test_fix_repairs_a_myst_notebook_and_an_ipynb_changing_only_those_digits(
        root: Path) -> None:
    page, notebook = root / SOFTMAX, root / SIGMOID
    right_page, right_notebook = page.read_text(), notebook.read_text()
    replace_in(page, "(0.2689,\\; 0.7311)", "(0.2689,\\; 0.7312)")
    edit_cell(notebook, 2, "q = 0.6225", "q = 0.6226")
    done = fix(root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified-fix: 2 digits changed, 0 listed for a person to fix" in done.stdout
    assert page.read_text() == right_page
    assert notebook.read_text() == right_notebook  # byte for byte: outputs, ids, layout


def test_fix_refuses_an_ipynb_it_cannot_edit_exactly_and_says_why(root: Path) -> None:
    notebook = root / SIGMOID
    edit_cell(notebook, 2, "q = 0.6225", "q = 0.6226")
    compact = json.dumps(json.loads(notebook.read_text()))
    notebook.write_text(compact)
    done = fix(root)
    assert done.returncode == 1
    assert notebook.read_text() == compact
    assert f"{SIGMOID}: not fixed, correct it by hand: 1 digits of this notebook were not " \
           "fixed: it is not laid out as Jupyter saves notebooks" in done.stdout


def test_the_reports_locate_an_ipynbs_numbers_by_cell(root: Path) -> None:
    edit_cell(root / SIGMOID, 2, "q = 0.6225", "q = 0.6226")
    result = build(root, "verify")
    assert result.statuscode == 1
    out = root / "_build" / "verify"
    report = json.loads((out / "verification.json").read_text(encoding="utf-8"))
    [page] = [p for p in report["pages"] if p["source"] == SIGMOID]
    wrong = [n for n in page["numbers"] if n["status"] == "diverge"]
    assert [(n["name"], n["cell"]) for n in wrong] == [("q", [3, 3])]
    junit = (out / "verification.xml").read_text(encoding="utf-8")
    assert f'message="{SIGMOID}:cell 3, line 3: q: prose 0.6226' in junit


def test_bind_asks_for_a_choice_in_an_ipynb_by_cell_and_takes_it_back(root: Path) -> None:
    edit_cell(root / SIGMOID, 1, 'print("q =", q)', 'print("q =", q)\nprint("a =", 0.25)\n'
                                                     'print("b =", 0.24999)')
    edit_cell(root / SIGMOID, 2, "and its slope", "a quarter is 0.25, and its slope")
    bind = [str(BIN / "verified-bind"), ".", "--build", "_build/bind", "--no-ask"]
    asked = subprocess.run(bind, cwd=root, capture_output=True, text=True, timeout=600,
                           check=False)
    hint = f"--choose '{SIGMOID}:cell 3, line 5=QUANTITY'"
    assert hint in asked.stdout, asked.stdout + asked.stderr
    chosen = subprocess.run([*bind, "--choose", f"{SIGMOID}:cell 3, line 5=b"], cwd=root,
                            capture_output=True, text=True, timeout=600, check=False)
    assert chosen.returncode == 0, chosen.stdout + chosen.stderr
    record = json.loads((root / "_bindings" / "sigmoid.json").read_text(encoding="utf-8"))
    assert [b["bound"] for b in record["bindings"] if b["prose"] == "0.25"] == ["b"]
    result = build(root)
    assert result.statuscode == 0, result.warning
