"""The problem layout end to end: header, references, index and every author error.

Each build is a real Sphinx build (sphinx.testing's app, or the real ``sphinx-build``) of a small
root under ``tests/roots``, copied first so a test may edit it. Messages are compared whole:
an author reads them and must be able to act on them.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from support import ROOTS, Build, copy_root_to, replace_in, sphinx_build
from support import build_root as build
from verified_problems.sphinx_shell.problems import sort_key

POLICY_3 = (
    "All values rounded to 3 d.p. Intermediate quantities carry full precision; "
    "only what is printed is rounded."
)


def one(page: BeautifulSoup, selector: str) -> Tag:
    found = page.select(selector)
    assert len(found) == 1, f"{len(found)} × {selector}"
    return found[0]


def index_rows(page: BeautifulSoup) -> list[tuple[str, str, str, str, str]]:
    """The problem index as (id, href, title, kind, difficulty) rows, in page order."""
    table = one(page, "table.problem-index")
    heads = [th.get_text(strip=True) for th in table.select("thead th")]
    assert heads == ["Id", "Title", "Kind", "Difficulty"]
    rows = []
    for tr in table.select("tbody tr"):
        cells = tr.select("td")
        link = cells[0].select_one("a")
        assert link is not None
        rows.append((link.get_text(), str(link["href"]), *(c.get_text(strip=True)
                                                             for c in cells[1:])))
    return rows


@pytest.fixture
def problems(copy_root: Callable[[str], Path]) -> Path:
    return copy_root("problems")


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The problems root built once; several tests only read it."""
    return build(copy_root_to("problems", tmp_path_factory.mktemp("clean") / "problems"))


# -- the layout -----------------------------------------------------------------------------


def test_clean_build_has_no_message(clean: Build) -> None:
    assert clean.statuscode == 0
    assert clean.messages() == []


def test_header_shows_id_kind_difficulty_and_the_overridden_policy(clean: Build) -> None:
    header = one(clean.page("second"), "section > div.problem-header")
    parts = [p.get_text() for p in header.find_all("p", recursive=False)]
    assert parts == ["Problem II.3.B01", "derivation▲▲△", POLICY_3]  # :decimals: 3
    assert one(header, ".problem-id")["id"] == "problem-ii-3-b01"
    kind = one(header, ".problem-badges > .problem-kind")
    assert (kind.get_text(), kind["aria-label"]) == ("derivation", "kind: derivation")
    marks = one(header, ".problem-badges > .problem-difficulty")
    assert (marks.get_text(), marks["aria-label"]) == ("▲▲△", "difficulty 2 of 3")
    assert kind["role"] == marks["role"] == "img"  # the label names the mark
    # the header sits right under the page's title, inside its section
    assert header.find_previous_sibling().name == "h1"
    # without :decimals: the policy is the configured one
    policy = one(clean.page("first"), ".problem-policy").get_text()
    assert policy == POLICY_3.replace("3 d.p.", "4 d.p.")
    assert one(clean.page("first"), ".problem-difficulty")["aria-label"] == "difficulty 1 of 3"


def test_reference_renders_title_and_id_and_links_to_the_header(clean: Build) -> None:
    link = one(clean.page("second"), "a.reference.internal:has(> .problem-ref)")
    assert link.get_text() == "Log-sum-exp 0.NU.02"
    assert link["href"] == "first.html#problem-0-nu-02"
    target = one(clean.page("first"), "#problem-0-nu-02")
    assert target.get_text() == "Problem 0.NU.02"
    back = one(clean.page("first"), "a.reference.internal:has(> .problem-ref)")
    assert (back.get_text(), back["href"]) == (
        "Attention on three tokens, by hand II.3.B01", "second.html#problem-ii-3-b01")


def test_index_lists_every_problem_sorted_with_links(clean: Build) -> None:
    assert index_rows(clean.page("problem-index")) == [
        ("0.NU.02", "first.html#problem-0-nu-02", "Log-sum-exp", "concept", "▲△△"),
        ("II.3.B01", "second.html#problem-ii-3-b01", "Attention on three tokens, by hand",
         "derivation", "▲▲△"),
    ]
    marks = clean.page("problem-index").select("table.problem-index .problem-difficulty")
    assert [m["aria-label"] for m in marks] == ["difficulty 1 of 3", "difficulty 2 of 3"]


def test_ids_sort_in_book_order() -> None:
    ids = ["X.1.A01", "II.10.A01", "II.3.B01", "IX.2.A01", "0.NU.02", "II.3.B1", "II.3.A02"]
    assert sorted(ids, key=sort_key) == [
        "0.NU.02", "II.3.A02", "II.3.B01", "II.3.B1", "II.10.A01", "IX.2.A01", "X.1.A01"]


def test_other_builders_show_the_header_as_text(problems: Path) -> None:
    result = build(problems, "text")
    assert result.statuscode == 0, result.warning
    text = (problems / "_build" / "text" / "second.txt").read_text(encoding="utf-8")
    assert text.startswith("Attention on three tokens, by hand\n****")
    flowing = " ".join(text.split())  # the text builder wraps at 70 columns
    assert f"Problem II.3.B01 derivation ▲▲△ {POLICY_3} Strategy" in flowing
    assert "(Log-sum-exp 0.NU.02)" in flowing


def test_an_orphan_page_is_listed_without_a_link_where_the_builder_leaves_it_out(
    problems: Path,
) -> None:
    # An orphan page is no part of the LaTeX document: linking to it crashed the LaTeX build.
    (problems / "orphan.md").write_text(
        "---\norphan: true\n---\n# A page apart\n\n:::{problem} III.1.A01\n:kind: numeric\n"
        ":difficulty: 1\n:::\n\nThe weight is $w = 0.5$.\n\n:::{check-numeric} orphan.py\n:::\n",
        encoding="utf-8")
    snippets = problems / "scripts" / "snippets"
    snippets.mkdir(parents=True)
    (snippets / "orphan.py").write_text('print("w =", 0.5)\n', encoding="utf-8")
    (problems / "verification.md").write_text("# Verification\n\n:::{verification-report}\n"
                                              ":::\n", encoding="utf-8")
    replace_in(problems / "index.md", "problem-index\n", "problem-index\nverification\n")
    result = build(problems, "latex")
    assert result.statuscode == 0, result.warning
    tex = next((problems / "_build" / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "III.1.A01" in tex and "A page apart" in tex  # the rows, as text
    html = build(problems)
    assert html.statuscode == 0, html.warning
    rows = html.page("verification").select("table.verification-report tbody tr")
    assert [row.select_one("a")["href"] for row in rows] == ["orphan.html#problem-iii-1-a01"]


# -- author errors: one located message each, and a failing build ---------------------------

HEADER = ":::{problem} I.1.A01\n:kind: derivation\n:difficulty: 2\n:::"
KINDS = "numeric, derivation, proof, concept"


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (":::{problem}\n:kind: derivation\n:difficulty: 2\n:::",
         "problem without an id; write ':::{problem} II.3.B01'"),
        (HEADER.replace("I.1.A01", "i.1.a01"),
         "problem id 'i.1.a01' is malformed; use dot-separated parts of capital letters and "
         "digits, e.g. II.3.B01 or 0.NU.02"),
        (HEADER.replace("I.1.A01", "IA01"),
         "problem id 'IA01' is malformed; use dot-separated parts of capital letters and "
         "digits, e.g. II.3.B01 or 0.NU.02"),
        (HEADER.replace("derivation", "essay"),
         f"problem I.1.A01 has unknown kind 'essay'; use one of {KINDS} "
         "(or add it to verified_kinds)"),
        (HEADER.replace(":kind: derivation\n", ""),
         f"problem I.1.A01 has no :kind:; use one of {KINDS}"),
        (HEADER.replace(":difficulty: 2\n", ""),
         "problem I.1.A01 has difficulty none; give ':difficulty:' as 1, 2 or 3"),
        (HEADER.replace(":difficulty: 2", ":difficulty: 4"),
         "problem I.1.A01 has difficulty '4'; give ':difficulty:' as 1, 2 or 3"),
        (HEADER.replace(":difficulty: 2", ":difficulty: 0"),
         "problem I.1.A01 has difficulty '0'; give ':difficulty:' as 1, 2 or 3"),
        (HEADER.replace(":difficulty: 2", ":difficulty: hard"),
         "problem I.1.A01 has difficulty 'hard'; give ':difficulty:' as 1, 2 or 3"),
        (HEADER.replace(":::\n", "").replace(":difficulty: 2", ":difficulty: 2\n:decimals: x\n:::"),
         "problem I.1.A01 has decimals 'x'; give ':decimals:' as a whole number from 0 to 30"),
    ],
    ids=["missing-id", "lower-case-id", "id-without-dots", "unknown-kind", "missing-kind",
         "missing-difficulty", "difficulty-4", "difficulty-0", "difficulty-word", "decimals"],
)
def test_a_bad_header_is_one_located_error(
    copy_root: Callable[[str], Path], header: str, message: str
) -> None:
    root = copy_root("problem-error")
    replace_in(root / "bad.md", HEADER, header)
    result = build(root)
    assert result.messages() == [f"bad.md:3: ERROR: {message} [verified.problem]"]
    assert result.statuscode == 1
    assert "Traceback" not in result.warning + result.status


def test_an_id_declared_on_two_pages_is_one_error_at_the_second(problems: Path) -> None:
    replace_in(problems / "second.md", "{problem} II.3.B01", "{problem} 0.NU.02")
    replace_in(problems / "first.md", "{problem:ref}`II.3.B01`", "the second page")
    result = build(problems)
    assert result.messages() == [
        "second.md:3: ERROR: problem id 0.NU.02 is already declared at first.md:3; "
        "give each problem its own id [verified.problem]"
    ]
    assert result.statuscode == 1
    # the first declaration wins: references and the index point to it
    assert index_rows(result.page("problem-index")) == [
        ("0.NU.02", "first.html#problem-0-nu-02", "Log-sum-exp", "concept", "▲△△")]
    # fixed on the FIRST page, the error goes although the second page is not re-read
    replace_in(problems / "first.md", "{problem} 0.NU.02", "{problem} 0.NU.03")
    again = build(problems)
    assert again.read == ["first"]
    assert again.messages() == []
    assert again.statuscode == 0


def test_a_dangling_reference_is_sphinx_own_located_typed_warning_and_fails(
    problems: Path,
) -> None:
    replace_in(problems / "second.md", "{problem:ref}`0.NU.02`", "{problem:ref}`9.ZZ.99`")
    result = build(problems)
    assert result.messages() == [
        "second.md:11: WARNING: problem:ref reference target not found: 9.ZZ.99 [ref.ref]"
    ]
    assert result.statuscode == 1
    # nothing changed: the page is written again, so the warning and the failure stay
    again = build(problems)
    assert again.read == []
    assert again.messages() == result.messages()
    assert again.statuscode == 1


def test_a_bad_configuration_value_is_one_message_without_traceback(problems: Path) -> None:
    with (problems / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('verified_decimals = "four"\n')
    done = sphinx_build(problems)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert [line for line in done.stderr.splitlines() if line] == [
        f"{problems}/conf.py:7: ERROR: verified_decimals must be a whole number from 0 to 30, "
        "not 'four' (set it in conf.py) [verified.config]"
    ]


# -- a numeric problem without a check --------------------------------------------------------


def no_check(where: str, problem_id: str) -> str:
    """The error at a numeric problem's header when its page has no check-numeric."""
    return (
        f"{where}: ERROR: problem {problem_id} is of kind numeric, but its page has no "
        "check-numeric, so none of its digits is checked: add a check-numeric directive under "
        "the problem (':::{check-numeric} snippet.py' and ':::', not commented out), or change "
        "its :kind: to one of derivation, proof, concept [verified.no-check]"
    )


def test_a_numeric_problem_without_a_check_fails_at_its_header(
    copy_root: Callable[[str], Path],
) -> None:
    """Forgotten, or commented out with ``%`` or ``<!-- -->``, in MyST or reST: an error each.

    The page with a check and the derivation without one pass; the errors stay on a build that
    reads nothing, and each goes when its page is fixed.
    """
    root = copy_root("no-check")
    result = build(root)
    assert result.messages() == [
        no_check("forgotten.md:3", "I.1.A01"),
        no_check("html-comment.md:3", "I.1.A03"),
        no_check("percent.md:3", "I.1.A02"),
        no_check("rest.rst:4", "I.1.A04"),
    ]
    assert result.statuscode == 1
    assert result.summary().startswith("verified: 1 checked pages, 1 numbers;")
    assert result.summary().endswith("4 errors on 4 pages")
    assert {f.subtype.value for r in result.reports.values() for f in r.findings} == {"no-check"}
    # nothing changed: nothing is read, and the build fails again
    again = build(root)
    assert (again.read, again.messages(), again.statuscode) == ([], result.messages(), 1)
    # a check brought back, a kind changed: each page's error goes with its fix
    replace_in(root / "percent.md", "% :::{check-numeric} weight.py\n% :::",
               ":::{check-numeric} weight.py\n:::")
    replace_in(root / "rest.rst", ":kind: numeric", ":kind: concept")
    fixed = build(root)
    assert fixed.read == ["percent", "rest"]
    assert fixed.messages() == result.messages()[:2]
    assert fixed.statuscode == 1
    replace_in(root / "html-comment.md", "<!--\n", "")
    replace_in(root / "html-comment.md", "-->\n", "")
    replace_in(root / "forgotten.md", ":kind: numeric", ":kind: derivation")
    clean = build(root)
    assert (clean.messages(), clean.statuscode) == ([], 0)
    assert clean.summary().startswith("verified: 3 checked pages, 3 numbers")


def test_a_numeric_problem_without_a_check_under_other_kinds(
    copy_root: Callable[[str], Path],
) -> None:
    """The kinds to change to are the configured ones; with no numeric kind there is no rule."""
    root = copy_root("no-check")
    for page in ("percent.md", "html-comment.md", "rest.rst", "checked.md", "derivation.md"):
        (root / page).unlink()
    replace_in(root / "index.md", "percent\nhtml-comment\nrest\nchecked\nderivation\n", "")
    with (root / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('verified_kinds = ["numeric", "essay"]\n')
    result = build(root)
    assert result.messages() == [
        no_check("forgotten.md:3", "I.1.A01").replace("to one of derivation, proof, concept",
                                                      "to essay")]
    assert result.statuscode == 1
    replace_in(root / "conf.py", '["numeric", "essay"]', '["calculation", "essay"]')
    replace_in(root / "forgotten.md", ":kind: numeric", ":kind: calculation")
    other = build(root)
    assert (other.messages(), other.statuscode) == ([], 0)


# -- incremental and parallel builds ----------------------------------------------------------

THIRD = """# Gradients by hand

:::{problem} I.1.A01
:kind: derivation
:difficulty: 3
:::
"""


def test_index_and_references_follow_an_incremental_build(problems: Path) -> None:
    first = build(problems)
    assert first.statuscode == 0
    (problems / "third.md").write_text(THIRD, encoding="utf-8")
    replace_in(problems / "index.md", "second\n", "second\nthird\n")
    replace_in(problems / "first.md", "# Log-sum-exp", "# Log-sum-exp, stably")
    result = build(problems)
    assert result.statuscode == 0, result.warning
    assert result.read == ["first", "index", "third"]
    # the index page and the page citing the retitled problem are written again, not re-read
    assert {"problem-index", "second"} <= set(result.written)
    assert [row[0] for row in index_rows(result.page("problem-index"))] == [
        "0.NU.02", "I.1.A01", "II.3.B01"]
    assert index_rows(result.page("problem-index"))[1] == (
        "I.1.A01", "third.html#problem-i-1-a01", "Gradients by hand", "derivation", "▲▲▲")
    link = one(result.page("second"), "a.reference.internal:has(> .problem-ref)")
    assert link.get_text() == "Log-sum-exp, stably 0.NU.02"
    # and a build with nothing changed reads and writes nothing
    idle = build(problems)
    assert (idle.read, idle.written, idle.statuscode) == ([], [], 0)


def _many(root: Path) -> Path:
    """The problems root with enough pages (more than five) for Sphinx to read in parallel."""
    names = []
    for number in range(12, 0, -1):
        name = f"extra-{number}"
        names.append(name)
        (root / f"{name}.md").write_text(
            f"# Extra {number}\n\n:::{{problem}} II.{number}.C01\n:kind: proof\n"
            f":difficulty: {number % 3 + 1}\n:::\n\nSee {{problem:ref}}`0.NU.02`.\n",
            encoding="utf-8",
        )
    replace_in(root / "index.md", "problem-index\n", "\n".join(names) + "\nproblem-index\n")
    return root


def test_parallel_build_gives_the_same_index(tmp_path: Path) -> None:
    source = ROOTS / "test-problems"
    serial = build(_many(Path(shutil.copytree(source, tmp_path / "serial"))))
    parallel = build(_many(Path(shutil.copytree(source, tmp_path / "parallel"))), parallel=2)
    assert parallel.parallel_read
    assert (serial.statuscode, parallel.statuscode) == (0, 0)
    assert serial.messages() == parallel.messages() == []
    rows = index_rows(serial.page("problem-index"))
    assert rows == index_rows(parallel.page("problem-index"))
    extras = [f"II.{n}.C01" for n in range(1, 13)]
    assert [row[0] for row in rows] == ["0.NU.02", *extras[:2], "II.3.B01", *extras[2:]]
