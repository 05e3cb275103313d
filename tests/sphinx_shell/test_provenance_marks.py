"""The reader's view of provenance: each marked digit says what it is, the badge what holds.

Real builds of ``tests/roots/test-provenance``: a page with a named, a derived and a given
number in math, in a paragraph and in a table cell, a zero, and digits that only matched a
printed number (bound to none); a second page with an exemption. What a reader is shown is read
from the HTML as written: MathJax's ``\\class{…}{\\texttip{NUMBER}{TIP}}`` in the math, and
``span.verified-digit`` with its ``title`` in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import Build, copy_root_to, math_marks, paragraph, replace_in, text_marks
from support import build_root as build
from verified_problems.sphinx_shell.digit_marks import tex_text

SNIPPET = "(provenance.py)"
@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Build]:
    """The provenance root, built once."""
    yield build(copy_root_to("provenance", tmp_path_factory.mktemp("marks") / "provenance"))


def test_the_root_builds(site: Build) -> None:
    assert site.statuscode == 0, site.warning
    assert site.messages() == []


def test_math_digits_say_what_they_are(site: Build) -> None:
    marks = math_marks(paragraph(site.page("index"), "Shifted by its maximum"))
    assert marks == [
        ("verified-ok", "0", f"z_1_minus_max[1], printed 0. {SNIPPET}"),
        ("verified-ok", "-0.5", f"z_1_minus_max[2], printed -0.5 {SNIPPET}"),
        ("verified-ok", "0", f"z_1_minus_max[3], printed 0. {SNIPPET}"),
        ("verified-ok", "0.0000", f"g, printed 0.0 {SNIPPET}"),
        ("verified-ok", "0.9", f"given on line 4 of the snippet: beta_1 = 0.9 {SNIPPET}"),
        ("verified-ok", "0.25", f"given in the snippet's source {SNIPPET}"),
        ("verified-ok", "0.35", f"given in the snippet's source {SNIPPET}"),
        ("verified-ok", "0.6", f"derived: 0.25 + 0.35 {SNIPPET}"),
        ("verified-ok", "0.35", f"given in the snippet's source {SNIPPET}"),
        ("verified-ok", "0.25", f"given in the snippet's source {SNIPPET}"),
        ("verified-ok", "1.4", f"derived: \\tfrac{{0.35}}{{0.25}} {SNIPPET}"),
    ]


def test_text_digits_say_what_they_are(site: Build) -> None:
    marks = text_marks(paragraph(site.page("index"), "In words:"))
    assert marks == [
        ("verified-ok", "0.6", f"derived: elsewhere on this page {SNIPPET}"),
        ("verified-ok", "0.01", f"given in the snippet's source {SNIPPET}"),
        ("verified-unbound", "0.0000",
         f"matched a printed number but not bound to one: printed 0.0000 {SNIPPET}"),
        ("verified-unbound", "0.6652",
         f"matched a printed number but not bound to one: printed 0.6652 {SNIPPET}"),
    ]


def test_table_cells_are_marked_in_their_math_and_their_text(site: Build) -> None:
    table = site.page("index").select_one("table")
    assert table is not None
    rows = [[math_marks(cell) + text_marks(cell) for cell in row.select("td")[1:]]
            for row in table.select("tbody tr")]
    unbound = "matched a printed number but not bound to one"
    assert rows == [
        [[("verified-ok", "0.6652", f"p[3], printed 0.66524096 {SNIPPET}")],
         [("verified-unbound", "0.6652", f"{unbound}: printed 0.6652 {SNIPPET}")]],
        [[("verified-ok", "0.25", f"given in the snippet's source {SNIPPET}"),
          ("verified-ok", "0.35", f"given in the snippet's source {SNIPPET}"),
          ("verified-ok", "0.6", f"derived: 0.25 + 0.35 {SNIPPET}")],
         [("verified-ok", "0.6", f"derived: elsewhere on this page {SNIPPET}")]],
        [[("verified-ok", "0.9", f"given on line 4 of the snippet: beta_1 = 0.9 {SNIPPET}")],
         [("verified-ok", "0.01", f"given in the snippet's source {SNIPPET}")]],
    ]


def test_a_text_digit_is_focusable_and_described(site: Build) -> None:
    span = site.page("index").select_one("span.verified-digit")
    assert span is not None
    assert span["tabindex"] == "0"
    assert span["aria-description"] == span["title"]


def test_no_unbound_digit_looks_checked(site: Build) -> None:
    page = site.page("index")
    marks = math_marks(page) + text_marks(page)
    unbound = [m for m in marks if m[2].startswith("matched a printed number")]
    assert unbound
    assert all(css == "verified-unbound" for css, _, _ in unbound)
    assert all(not tip.startswith("matched") for css, _, tip in marks if css == "verified-ok")


def test_an_exempt_digit_in_text_says_so(site: Build) -> None:
    assert text_marks(site.page("exempt")) == [
        ("verified-exempt", "0.123", "not checked: exempted by the author"),
    ]


def test_the_badge_claims_only_what_holds(site: Build) -> None:
    tip = site.page("exempt").select_one(".problem-header .verified-tip")
    assert tip is not None
    assert re.fullmatch(
        r"Every number on this page was checked against the output of value\.py \(sha256 "
        r"[0-9a-f]{12}\), executed at build on \d{4}-\d\d-\d\d, except 1 number exempted by "
        r"the author\.", tip.get_text())
    tip = site.page("index").select_one(".problem-header .verified-tip")
    assert tip is not None
    assert not tip.get_text().startswith("Every number")
    assert re.fullmatch(
        r"20 numbers on this page were checked against the output of provenance\.py \(sha256 "
        r"[0-9a-f]{12}\), executed at build on \d{4}-\d\d-\d\d; 3 more matched a printed "
        r"number but are not bound to one\.", tip.get_text())


def test_the_verdict_line_counts_by_kind(site: Build) -> None:
    verdicts = [p.get_text() for name in ("index", "exempt")
                for p in site.page(name).select("p.verified-verdict")]
    assert verdicts == [
        "Executed at build. The digits above are the digits it printed (5 checked by name, "
        "5 derived by the page's own arithmetic, 10 given in the snippet's source and 3 matched "
        "a printed number but not bound to one).",
        "Executed at build. The digits above are the digits it printed (1 checked by name and "
        "1 exempted by the author).",
    ]


def test_a_wrong_digit_says_what_is_wrong(tmp_path: Path) -> None:
    srcdir = copy_root_to("provenance", tmp_path / "provenance")
    replace_in(srcdir / "index.md", "largest weight is 0.6652.", "largest weight is 0.6653.")
    replace_in(srcdir / "index.md", "$p_3 = 0.6652$", "$p_3 = 0.6653$")
    result = build(srcdir)
    assert result.statuscode == 1
    page = result.page("index")
    assert ("verified-bad", "0.6653", "free digit: prose 0.6653 is not among the printed "
            f"numbers (nearest printed 0.6652 (p[3])) {SNIPPET}") in text_marks(page)
    assert ("verified-bad", "0.6653",
            f"p[3]: prose 0.6653, printed 0.6652 {SNIPPET}") in math_marks(page)


def test_other_builders_and_the_search_index_see_plain_text(tmp_path: Path) -> None:
    srcdir = copy_root_to("provenance", tmp_path / "provenance")
    text = build(srcdir, "text")
    written = (srcdir / "_build" / "text" / "index.txt").read_text(encoding="utf-8")
    assert text.statuscode == 0
    assert "In words: the weights add up to 0.6, the tolerance is 0.01" in written
    assert "elsewhere" not in written and "texttip" not in written
    html = build(srcdir)
    assert html.statuscode == 0
    index = (srcdir / "_build" / "html" / "searchindex.js").read_text(encoding="utf-8")
    assert "toler" in index  # the page's words are indexed, its tooltips' ("elsewhere") are not
    assert "elsewher" not in index


@pytest.mark.parametrize(("tip", "shown"), [
    ("z_1_minus_max[1], printed 0.", "z_1_minus_max[1], printed 0."),
    ("derived: e^{0.3} + 1", "derived: e^\\{0.3\\} + 1"),
    ("a \\ b $ # % & ~", "a \\\\ b \\$ # % & ~"),
])
def test_a_tooltip_is_escaped_for_mathjax_text_mode(tip: str, shown: str) -> None:
    assert tex_text(tip) == shown
