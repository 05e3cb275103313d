"""Printed digits injected into the prose: ``{val}`NAME``` in text, ``\\val{NAME}`` in math.

Real builds of ``tests/roots/test-injection``: injected values in a sentence (one as a
percentage), in inline and display math (a whole tuple, a matrix cell, a format), in a table,
beside hand-written digits that are still checked, and inside the prose's own arithmetic. Each
builder gets plain digits; the HTML marks each injected digit with where it came from.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from support import Build, copy_root_to, math_marks, no_traceback, paragraph, replace_in, text_marks
from support import build_root as build

SNIPPET = "(injection.py)"
FROM = "injected from the snippet's output"


def tip(label: str, printed: str) -> str:
    return f"{FROM}: {label}, printed {printed} {SNIPPET}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Build]:
    """The injection root, built once."""
    yield build(copy_root_to("injection", tmp_path_factory.mktemp("val") / "injection"))


def test_the_root_builds_clean(site: Build) -> None:
    assert site.statuscode == 0, site.warning
    assert site.messages() == []


def test_injected_into_text_with_a_format(site: Build) -> None:
    words = paragraph(site.page("index"), "The softmax gives")
    assert words.get_text() == ("The softmax gives the first weight 0.0900, which is 9.0% of "
                                "the total.")
    assert text_marks(words) == [("verified-injected", "0.0900", tip("p[1]", "0.09003057")),
                                 ("verified-injected", "9.0", tip("p[1]", "0.09003057"))]


def test_injected_into_inline_math_beside_a_hand_written_digit(site: Build) -> None:
    marks = math_marks(paragraph(site.page("index"), "Inline,"))
    assert marks == [
        ("verified-injected", "0.2447", tip("p[2]", "0.24472847")),
        ("verified-ok", "0.5", f"q, printed 0.5 {SNIPPET}"),
        ("verified-injected", "0.0900", tip("p[1]", "0.09003057")),
        ("verified-injected", "0.2447", tip("p[2]", "0.24472847")),
        ("verified-injected", "0.6652", tip("p[3]", "0.66524096")),
    ]


def test_injected_into_a_matrix_cell_of_display_math(site: Build) -> None:
    block = site.page("index").select_one("div.math")
    assert block is not None
    assert "\\val" not in block.get_text()
    assert math_marks(BeautifulSoup(str(block), "html.parser")) == [
        ("verified-ok", "0.9", f"A[1,1], printed 0.9 {SNIPPET}"),
        ("verified-injected", "0.1000", tip("A[1,2]", "0.1")),
        ("verified-ok", "0.3", f"A[2,1], printed 0.3 {SNIPPET}"),
        ("verified-ok", "0.7", f"A[2,2], printed 0.7 {SNIPPET}"),
        ("verified-injected", "2.35", tip("s", "2.345678")),
        ("verified-ok", "0.5", f"q, printed 0.5 {SNIPPET}"),
    ]


def test_the_arithmetic_around_injected_values_is_derived(site: Build) -> None:
    marks = math_marks(paragraph(site.page("index"), "The first two weights"))
    assert marks[-1] == ("verified-ok", "0.3348", f"derived: 0.0900 + 0.2447 {SNIPPET}")


def test_injected_into_a_table(site: Build) -> None:
    table = site.page("index").select_one("table")
    assert table is not None
    cells = [row.select("td")[1] for row in table.select("tbody tr")]
    assert cells[0].get_text() == "0.0900"
    assert text_marks(cells[0]) == [("verified-injected", "0.0900", tip("p[1]", "0.09003057"))]
    assert math_marks(cells[1]) == [("verified-injected", "0.6652", tip("p[3]", "0.66524096"))]


def test_a_count_is_injected_as_printed(site: Build) -> None:
    words = paragraph(site.page("index"), "The count is")
    assert text_marks(words) == [("verified-injected", "3", tip("n", "3"))]


def test_the_reports_and_the_verdict_count_injected_digits(site: Build) -> None:
    report = site.reports["index"]
    kinds = [n.kind for n in report.numbers]
    assert kinds.count("injected") == 13
    assert report.snippets[0].injected == 13
    injected = [n for n in report.numbers if n.kind == "injected"]
    assert all(n.status == "match" and n.provenance.startswith(FROM) for n in injected)
    verdict = site.page("index").select_one("p.verified-verdict")
    assert verdict is not None
    assert "13 injected from its output" in verdict.get_text()
    mark = site.page("index").select_one(".verified-mark .verified-tip")
    assert mark is not None and "or injected from it (13 numbers)" in mark.get_text()


def test_text_and_latex_builders_get_the_digits(tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    text = build(root, "text")
    assert text.statuscode == 0, text.warning
    written = (root / "_build" / "text" / "index.txt").read_text(encoding="utf-8")
    assert "first weight 0.0900, which is 9.0% of the total" in written
    assert "0.9 & 0.1000 \\\\ 0.3 & 0.7" in written
    assert "The count is 3." in written
    assert "\\val" not in written and "{val}" not in written
    latex = build(root, "latex")
    assert latex.statuscode == 0, latex.warning
    tex = next((root / "_build" / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "\\(p_2 = 0.2447\\)" in tex
    assert "\\left(0.0900,\\; 0.2447,\\; 0.6652\\right)" in tex
    assert "9.0\\%" in tex
    assert "\\val{" not in tex


def test_a_snippet_change_changes_the_injected_digits(tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    first = build(root)
    assert "2.35" in first.html("index")
    replace_in(root / "scripts" / "snippets" / "injection.py", "2.345678", "2.355678")
    second = build(root)
    assert second.statuscode == 0, second.warning
    assert second.read == ["index"]
    marks = math_marks(second.page("index"))
    assert ("verified-injected", "2.36", tip("s", "2.355678")) in marks


def test_hand_written_digits_beside_injections_fail_at_their_line_and_column(
        tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    page = root / "index.md"
    replace_in(page, "\\val{A_{12}} \\\\ 0.3", "\\val{A_{12}} \\\\ 0.4")
    replace_in(page, "\\quad q = 0.5", "\\quad q = 0.7")
    replace_in(page, "= 0.3348", "= 0.3349")
    result = build(root)
    assert result.statuscode == 1
    assert result.messages() == [
        "index.md:15: ERROR: A[2,1]: prose 0.4, printed 0.3000 (Solution) [verified.divergence]",
        "index.md:16: ERROR: q: prose 0.7, printed 0.5000 (Solution) [verified.divergence]",
        "index.md:19: ERROR: the arithmetic does not hold: 0.0900 + 0.2447 is 0.3347 from the "
        "digits as written and 0.3348 at full precision, not 0.3349 (Solution) "
        "[verified.arithmetic]",
    ]
    lines = page.read_text(encoding="utf-8").split("\n")
    wrong = [n for n in result.reports["index"].numbers if n.status == "diverge"]
    assert [lines[n.line - 1][n.column:n.column + 3] for n in wrong] == ["0.4", "0.7"]


def test_requests_that_cannot_be_met_are_located_errors(tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    page = root / "index.md"
    replace_in(page, "\\val{s:.2f}", "\\val{s:.2g}")
    replace_in(page, "The count is {val}`n`.",
               "The count is {val}`m`,\n$\\val{A_{31}}$ and {val}`A` and $\\val{p_1$.")
    result = build(root)
    assert result.statuscode == 1
    no_traceback(result)
    assert result.messages() == [
        "index.md:16: ERROR: s:.2g: the format '.2g' does not apply; write .Nf for N decimal "
        "places or .N% for a percentage (p_1:.2f, p_1:.1%) [verified.injection]",
        "index.md:26: ERROR: m: the snippet printed no m (it printed p, A, s, q, n); print it, "
        "or write the name it was printed under [verified.injection]",
        "index.md:27: ERROR: A_{31}: no such element, the printed A is 2×2 [verified.injection]",
        "index.md:27: ERROR: A: the printed A is 2×2, which has no form in a sentence; inject "
        "it in math, or name one element [verified.injection]",
        "index.md:27: ERROR: \\val{ has no closing brace [verified.injection]",
    ]
    text = paragraph(result.page("index"), "The count is").get_text()
    assert "val" not in text and "?" in text


def test_a_page_without_a_check_cannot_inject(tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    (root / "plain.md").write_text("# Plain\n\nNothing runs here: {val}`p_1`.\n",
                                   encoding="utf-8")
    replace_in(root / "index.md", ":::{problem}", "```{toctree}\n:hidden:\nplain\n```\n\n"
                                                  ":::{problem}")
    result = build(root)
    assert result.statuscode == 1
    assert result.messages() == [
        "plain.md:3: ERROR: p_1: this page has no check-numeric, so no snippet gives its "
        "value; add one, or write the digits by hand [verified.injection]"]


def test_injection_is_parallel_safe(tmp_path: Path) -> None:
    root = copy_root_to("injection", tmp_path / "injection")
    for number in range(3):
        text = (root / "index.md").read_text(encoding="utf-8")
        (root / f"copy{number}.md").write_text(text.replace("T.03", f"T.1{number}"),
                                               encoding="utf-8")
    replace_in(root / "index.md", ":::{problem}", "```{toctree}\n:hidden:\ncopy0\ncopy1\ncopy2"
                                                  "\n```\n\n:::{problem}")
    result = build(root, parallel=2)
    assert result.statuscode == 0, result.warning
    assert result.parallel_read
    report = json.loads(json.dumps([n.kind for n in result.reports["copy2"].numbers]))
    assert report.count("injected") == 13
