"""``check-numeric`` end to end: real Sphinx, real MyST, real snippets, the real HTML.

Every build here is a real build of a small root under ``tests/roots``, copied into a temporary
folder first. Messages are compared whole, since the message text is the product: an author
reads ``index.md:13: ERROR: p[2]: prose 0.2448, printed 0.2447 (…) [verified.divergence]`` and
must be able to act on it. Builds that several tests only read are shared per module.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp
from support import (
    ROOTS,
    Build,
    copy_root_to,
    no_traceback,
    rendered_check,
    replace_in,
    sphinx_build,
)
from support import build_root as build
from verified_problems.sphinx_shell import snippets
from verified_problems.sphinx_shell.records import PageReport
from verified_problems.tools.reports import build_json


def copy(name: str, target: Path) -> Path:
    """Copy ``tests/roots/test-NAME`` to ``target``; links the failure root needs are made."""
    copy_root_to(name, target)
    if name == "failures":  # a link in the snippet folder that leads out of it
        (target / "scripts" / "snippets" / "link.py").symlink_to(Path("..") / "outside.py")
    return target


@pytest.fixture
def root(tmp_path: Path) -> Callable[[str], Path]:
    """A fresh, editable copy of a test root."""
    return lambda name: copy(name, tmp_path / name)


# -- 1. a clean build -----------------------------------------------------------------------

SOFTMAX = (ROOTS / "test-plain" / "scripts" / "snippets" / "softmax.py").read_text()


def test_clean_build_injects_the_transcript_and_the_verdict(root: Callable[[str], Path]) -> None:
    result = build(root("plain"))
    assert result.statuscode == 0
    assert result.messages() == []
    check = result.page("index").select_one("div.verified-check")
    assert check is not None
    assert "verified-failed" not in check["class"]
    transcript = check.select_one("details.verified-transcript pre")
    assert transcript is not None
    assert transcript.get_text() == (
        "z = [1. 2. 3.]\n"
        "e = [0.13533528 0.36787944 1.        ]\n"
        "p = [0.09003057 0.24472847 0.66524096]\n"
    )
    # Counted by hand: z, e and p are printed and named, 3 entries each (the integers of
    # z = (1, 2, 3) and e_3 = 1 included); 0.6652 in the text and e^{-2} = 0.1353 are free.
    verdict = check.select_one("p.verified-verdict")
    assert verdict is not None
    assert verdict.get_text() == (
        "Executed at build. The digits above are the digits it printed "
        "(9 checked by name, 1 derived by the page's own arithmetic and 1 matched a printed "
        "number but not bound to one)."
    )
    caption = check.select_one(".verified-caption, .caption-text")
    assert caption is not None
    assert caption.get_text(strip=True) == "softmax.py"
    excerpt = check.select_one(".verified-excerpt pre")
    assert excerpt is not None
    assert excerpt.get_text() == SOFTMAX
    script = check.select_one("details.verified-script")
    assert script is not None
    summary, listing = script.select_one("summary"), script.select_one("pre")
    assert summary is not None
    assert listing is not None
    assert summary.get_text(strip=True) == "The full 7-line script, scripts/snippets/softmax.py"
    assert re.sub(r"(?m)^\d+", "", listing.get_text()) == SOFTMAX  # line numbers dropped
    assert result.summary().startswith(
        "verified: 1 checked pages, 11 numbers; snippets: 1 run, 0 cached, 0 failed,"
    )


# -- 2. a wrong digit fails the build, on every build, until it is put back -----------------

WRONG_DIGITS = {
    "named": (
        "0.2447,\\;",
        "0.2448,\\;",
        ("index.md:13: ERROR: p[2]: prose 0.2448, printed 0.2447 (Softmax of three scores) "
         "[verified.divergence]",),
    ),
    "free-in-text": (
        "weight is 0.6652",
        "weight is 0.6653",
        ("index.md:17: ERROR: free digit: prose 0.6653 is not among the printed numbers "
         "(nearest printed 0.6652 (p[3])) (Softmax of three scores) [verified.divergence]",),
    ),
    # A number the prose's own arithmetic derives is checked by that arithmetic.
    "free-in-math": (
        "$e^{-2} = 0.1353$",
        "$e^{-2} = 0.1354$",
        ("index.md:17: ERROR: the arithmetic does not hold: e^{-2} is 0.1353, not 0.1354 "
         "(Softmax of three scores) [verified.arithmetic]",),
    ),
}


@pytest.mark.parametrize("case", WRONG_DIGITS)
def test_a_wrong_digit_fails_every_build_until_put_back(
    root: Callable[[str], Path], case: str
) -> None:
    right, wrong, messages = WRONG_DIGITS[case]
    srcdir = root("plain")
    page = srcdir / "index.md"
    replace_in(page, right, wrong)
    first = build(srcdir)
    assert first.statuscode == 1
    assert first.messages() == list(messages)
    assert f"{len(messages)} errors on 1 pages" in first.summary()
    verdict = first.page("index").select_one("p.verified-verdict")
    assert verdict is not None
    assert verdict.get_text().startswith(
        "Executed at build. 1 of the numbers above fails its check; the build log says why"
    )

    again = build(srcdir)  # same sources, same environment: nothing is re-read
    assert again.read == []
    assert again.statuscode == 1
    assert again.messages() == list(messages)

    replace_in(page, wrong, right)
    fixed = build(srcdir)
    assert fixed.read == ["index"]
    assert fixed.statuscode == 0
    assert fixed.messages() == []


def test_the_sphinx_build_command_exits_1_1_then_0(root: Callable[[str], Path]) -> None:
    srcdir = root("plain")
    page = srcdir / "index.md"
    replace_in(page, "0.2447,\\;", "0.2448,\\;")
    message = (
        f"{srcdir}/index.md:13: ERROR: p[2]: prose 0.2448, printed 0.2447 "
        "(Softmax of three scores) [verified.divergence]"
    )
    for _ in range(2):
        run = sphinx_build(srcdir)
        assert run.returncode == 1, run.stderr
        assert run.stderr.splitlines() == [message]
        assert "Traceback" not in run.stdout + run.stderr
    replace_in(page, "0.2448,\\;", "0.2447,\\;")
    run = sphinx_build(srcdir)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""


def test_a_snippet_created_after_the_error_is_picked_up(root: Callable[[str], Path]) -> None:
    """A page whose snippet was missing is checked again once the file exists."""
    srcdir = root("plain")
    replace_in(srcdir / "index.md", "{check-numeric} softmax.py", "{check-numeric} soft.py")
    missing = build(srcdir)
    assert missing.statuscode == 1
    assert missing.messages() == [
        "index.md:19: ERROR: snippet 'soft.py' not found in <root>/scripts/snippets; "
        "create it or fix the name [verified.snippet-path]"
    ]
    shutil.copy(
        srcdir / "scripts" / "snippets" / "softmax.py", srcdir / "scripts" / "snippets" / "soft.py"
    )
    created = build(srcdir)  # the page itself is unchanged
    assert created.read == ["index"]
    assert created.statuscode == 0
    assert created.messages() == []


# -- 3. the rounding trap -------------------------------------------------------------------


def test_the_sum_of_rounded_entries_is_not_the_printed_digit(
    root: Callable[[str], Path],
) -> None:
    """O_31 is 0.7517; the rounded weights 0.2483 + 0.5035 add to 0.7518."""
    srcdir = root("trap")
    right = build(srcdir)
    assert right.statuscode == 0
    assert right.messages() == []
    replace_in(srcdir / "index.md", "= 0.7517 ,", "= 0.7518 ,")
    wrong = build(srcdir)
    assert wrong.statuscode == 1
    assert wrong.messages() == [
        "index.md:8: ERROR: O[3,1]: prose 0.7518, printed 0.7517 (The rounding trap) "
        "[verified.divergence]"
    ]


# -- 4. every failure path, one page each, in one build -------------------------------------

FAILURES = {
    "absolute": "absolute.md:5: ERROR: snippet path '/tmp/absolute.py' is absolute; write it "
    "relative to <root>/scripts/snippets [verified.snippet-path]",
    "braces": "braces.md:6: ERROR: unbalanced braces: the `{` at this point is never closed; "
    "close it with `}`, or write `\\{` for a brace the formula shows [verified.latex]",
    "crash": "crash.md:5: ERROR: snippet crash.py failed at <root>/scripts/snippets/crash.py:3: "
    "ZeroDivisionError: float division by zero [verified.snippet]",
    "dotdot": "dotdot.md:5: ERROR: snippet path '../outside.py' climbs out with '..'; snippets "
    "live in <root>/scripts/snippets [verified.snippet-path]",
    "empty": "empty.md:5: ERROR: snippet empty.py failed: the snippet printed nothing "
    "[verified.snippet]",
    "hang": "hang.md:5: ERROR: snippet hang.py failed: the snippet did not finish within 1 s "
    "(make it faster, or give the check a longer :timeout:) [verified.snippet]",
    "missing": "missing.md:5: ERROR: snippet 'nowhere.py' not found in <root>/scripts/snippets; "
    "create it or fix the name [verified.snippet-path]",
    "nan": "nan.md:3: ERROR: x: prose 0.5, printed nan (A snippet that prints nan) "
    "[verified.divergence]",
    "ragged": "ragged.md:9: ERROR: matrix rows have different lengths: row 1 has 2 entries, "
    "row 2 has 1 [verified.latex]",
    "range": "range.md:3: ERROR: O[4,1]: no such element, the printed O is 3×2 "
    "(An element out of range) [verified.range]",
    "shape": "shape.md:6: ERROR: O: prose is 2×2, printed is 3×2 (A shape mismatch) "
    "[verified.shape]",
    "symlink": "symlink.md:5: ERROR: snippet 'link.py' leads outside the snippet folder "
    "<root>/scripts/snippets (a symbolic link?); put the script itself in that folder "
    "[verified.snippet-path]",
    "tie": "tie.md:3: ERROR: t: prose 0.1235, printed 0.12345 is an exact tie at 4 d.p.; print "
    "more digits so the rounding is decided (An exact tie) [verified.ambiguous]",
    "twice": "twice.md:5: ERROR: output of twice.py, line 2: x is printed twice, on lines 1 and "
    "2, and only the first is checked: print each quantity once or give the two distinct "
    "names. [verified.transcript]",
    "unclosed": "unclosed.md:5: ERROR: output of unclosed.py, line 1: The brackets of x, opened "
    "on line 1 of the output, never close before the output ends, so its value cannot be "
    "read: print the whole value. [verified.transcript]",
    "undecodable": "undecodable.md:5: ERROR: snippet undecodable.py failed: the snippet printed "
    "bytes that are not UTF-8 (at byte 8: b'\\xff\\xfe\\n') [verified.snippet]",
}

#: Pages whose snippet path was refused: the check says why instead of showing the snippet.
REFUSED = {
    "absolute": "/tmp/absolute.py",
    "dotdot": "../outside.py",
    "missing": "nowhere.py",
    "symlink": "link.py",
}
#: Pages whose snippet ran but produced no transcript to check.
FAILED = {"crash", "empty", "hang", "undecodable"}
NOT_RUN = set(REFUSED) | FAILED


@pytest.fixture(scope="module")
def failures(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Build]:
    """The failure root, built once with ``-j 1``."""
    yield build(copy("failures", tmp_path_factory.mktemp("serial") / "failures"))


def test_every_failure_fails_the_build_with_its_message_only(failures: Build) -> None:
    assert failures.statuscode == 1
    assert failures.messages() == list(FAILURES.values())  # in page order, nothing else
    assert f"{len(FAILURES)} errors on {len(FAILURES)} pages" in failures.summary()
    no_traceback(failures)


@pytest.mark.parametrize("page", FAILURES)
def test_a_failing_page_is_still_rendered(failures: Build, page: str) -> None:
    check = rendered_check(failures, page)
    assert ("verified-failed" in check["class"]) == (page in NOT_RUN)
    verdict = check.select_one("p.verified-verdict")
    if page in REFUSED:
        assert verdict is None
        assert check.get_text(strip=True).startswith(
            f"The snippet {REFUSED[page]} could not be run: "
        )
    elif page in FAILED:
        assert verdict is not None
        assert verdict.get_text() == (
            "The snippet failed at build time: nothing on this page was verified."
        )
    else:
        assert verdict is not None
        # The page fails, so its verdict must not claim that its digits are verified.
        assert verdict.get_text().startswith("Executed at build")
        assert "The digits above are the digits it printed" not in verdict.get_text()


def test_what_a_failed_snippet_printed_is_shown(failures: Build) -> None:
    transcript = failures.page("hang").select_one("details.verified-transcript pre")
    assert transcript is not None
    assert transcript.get_text() == "h = 0.5\n"
    refused = failures.page("symlink").select_one("div.verified-check p")
    assert refused is not None
    assert refused.get_text().startswith("The snippet link.py could not be run: ")


def test_a_failed_snippets_numbers_count_as_failed(failures: Build) -> None:
    (number,) = failures.reports["crash"].numbers
    assert (number.line, number.prose, number.name, number.status) == (3, "0.5", "r",
                                                                        "snippet-failed")
    assert number.message == "not checked: crash.py failed at build time"
    summary = build_json({"crash": failures.reports["crash"]})["summary"]
    assert summary["numbers"] == summary["failed"] == 1  # not vanished from the totals


def test_a_failed_snippet_is_run_again_on_the_next_build(tmp_path: Path) -> None:
    """Failures are not cached: their pages are read again, the others are not."""
    srcdir = copy("failures", tmp_path / "failures")
    build(srcdir)
    again = build(srcdir)
    assert again.statuscode == 1
    assert again.messages() == list(FAILURES.values())
    assert again.read == sorted(NOT_RUN)
    assert "snippets: 4 run, 0 cached, 4 failed" in again.summary()
    no_traceback(again)


# -- 5. scope: who owns which number --------------------------------------------------------


@pytest.fixture(scope="module")
def scopes(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(copy("scope", tmp_path_factory.mktemp("scope") / "scope"))


def _owners(report: PageReport) -> list[tuple[str, str, str, str]]:
    numbers = sorted(report.numbers, key=lambda n: (n.line or 0, n.column or 0))
    return [(n.context, n.prose, n.printed or "", n.snippet) for n in numbers]


def test_each_number_is_checked_against_the_snippet_that_owns_it(scopes: Build) -> None:
    assert not [m for m in scopes.messages() if m.startswith("variation.md")]
    report = scopes.reports["variation"]
    assert report.findings == []
    by_owner = _owners(report)
    # The same name V, with other values in the Variation, passes against each snippet.
    assert by_owner == [
        *[("Solution", p, f"{p}.0000", "base.py") for p in ("1", "0", "0", "1")],
        ("Solution", "0.7071", "0.7071", "base.py"),
        ("Solution", "0.7071", "0.7071", "base.py"),
        *[("Variation", p, f"{p}.0000", "variation.py") for p in ("2", "0", "0", "2")],
        ("Variation", "1.4142", "1.4142", "variation.py"),
        ("Variation", "1.4142", "1.4142", "variation.py"),
        ("Draws on", "0.7071", "0.7071", "base.py"),
    ]


def test_two_page_wide_checks_are_an_error(scopes: Build) -> None:
    assert scopes.statuscode == 1
    assert (
        "two-page-wide.md:8: ERROR: a second page-wide check (variation.py) on this page; give "
        "it ':scope: section' so it owns only its section [verified.scope]"
    ) in scopes.messages()


def test_a_decimal_outside_every_section_scope_is_an_error(scopes: Build) -> None:
    assert scopes.messages() == [
        "two-page-wide.md:8: ERROR: a second page-wide check (variation.py) on this page; give "
        "it ':scope: section' so it owns only its section [verified.scope]",
        "unowned.md:3: ERROR: 0.7071 is outside the scope of every check-numeric on this page; "
        "move it into a checked section, or mark it {unchecked} if it is quoted data "
        "[verified.unowned]",
    ]


def test_a_wrong_digit_is_reported_against_its_owner(root: Callable[[str], Path]) -> None:
    srcdir = root("scope")
    page = srcdir / "variation.md"
    replace_in(page, "s = 1.4142 ,", "s = 1.4143 ,")  # the variation's own digit, wrong
    replace_in(page, "new scale, 1.4142", "new scale, 0.7071")  # the base's digit
    replace_in(page, "repeats the scale, 0.7071", "repeats the scale, 1.4142")  # the variation's
    result = build(srcdir)
    assert result.statuscode == 1
    assert [m for m in result.messages() if m.startswith("variation.md")] == [
        "variation.md:11: ERROR: free digit: prose 1.4142 is not among the printed numbers "
        "(nearest printed 1.0000 (V[1,1])) (Solution) [verified.divergence]",
        "variation.md:23: ERROR: s: prose 1.4143, printed 1.4142 (Variation) [verified.divergence]",
        "variation.md:26: ERROR: free digit: prose 0.7071 is not among the printed numbers "
        "(nearest printed 0.0000 (V[1,2])) (Variation) [verified.divergence]",
    ]
    failed = [n for n in result.reports["variation"].numbers if n.status != "match"]
    assert [(n.line, n.snippet) for n in failed] == [
        (11, "base.py"),
        (23, "variation.py"),
        (26, "variation.py"),
    ]


def test_the_same_formula_twice_is_marked_by_each_owner(root: Callable[[str], Path]) -> None:
    # Math nodes with the same LaTeX share one extract (it is remembered by its text); each
    # must still carry its own marks: twice under base.py, and wrong under variation.py.
    srcdir = root("scope")
    page = srcdir / "variation.md"
    replace_in(page, "new scale, 1.4142.", "new scale, 1.4142, not $s = 0.7071$.")
    replace_in(page, "again: $s = 0.7071$.", "again: $s = 0.7071$, and once more $s = 0.7071$.")
    result = build(srcdir)
    assert [m for m in result.messages() if m.startswith("variation.md")] == [
        "variation.md:26: ERROR: s: prose 0.7071, printed 1.4142 (Variation) "
        "[verified.divergence]",
    ]
    marks: dict[str, list[list[str]]] = {}
    for math in result.page("variation").select("span.math"):
        text = math.get_text()
        if text.startswith("\\(s ="):
            section = math.find_parent("section")["id"]
            marks.setdefault(section, []).append(re.findall(r"\\class\{([^{}]*)\}", text))
    assert marks == {"variation": [["verified-bad"]],
                     "draws-on": [["verified-ok"], ["verified-ok"]]}

# -- 6. exemptions --------------------------------------------------------------------------


def test_exempt_numbers_pass_and_are_counted(root: Callable[[str], Path]) -> None:
    result = build(root("exempt"))
    assert result.statuscode == 0
    assert result.messages() == []
    page = result.page("index")
    verdict = page.select_one("p.verified-verdict")
    assert verdict is not None
    assert verdict.get_text() == (
        "Executed at build. The digits above are the digits it printed "
        "(1 checked by name and 4 exempted by the author)."
    )
    exempt = [(n.line, n.prose) for n in result.reports["index"].numbers if n.kind == "exempt"]
    assert exempt == [(3, "0.123"), (4, "0.123"), (7, "0.987"), (8, "0.654")]
    role = page.select_one("span.verified-unchecked")
    assert role is not None
    assert role.get_text() == "0.123"
    passage = page.select_one("div.verified-unchecked")
    assert passage is not None
    assert "0.987" in passage.get_text()


# -- 7. advisory warnings and suppress_warnings ---------------------------------------------

PRECISION = (
    "index.md:3: WARNING: 0.12346 shows more decimals than the rounding policy; it was compared "
    "at its own 5 d.p. (More decimals than the policy) [verified.precision]"
)


def test_more_decimals_than_the_policy_is_a_warning(root: Callable[[str], Path]) -> None:
    result = build(root("precision"))
    assert result.statuscode == 0
    assert result.messages() == [PRECISION]


def test_suppress_warnings_silences_an_advisory_warning(root: Callable[[str], Path]) -> None:
    result = build(root("precision"), confoverrides={"suppress_warnings": ["verified.precision"]})
    assert result.statuscode == 0
    assert result.messages() == []


def test_suppressing_an_error_hides_it_but_still_fails(root: Callable[[str], Path]) -> None:
    srcdir = root("plain")
    replace_in(srcdir / "index.md", "0.2447,\\;", "0.2448,\\;")
    result = build(srcdir, confoverrides={"suppress_warnings": ["verified.divergence"]})
    assert result.messages() == []
    assert result.statuscode == 1
    assert "1 errors on 1 pages" in result.summary()


# -- 8. parallel builds ---------------------------------------------------------------------


def test_a_parallel_build_gives_the_same_pages_and_verdict(failures: Build, tmp_path: Path) -> None:
    parallel = build(copy("failures", tmp_path / "failures"), parallel=2)
    assert parallel.parallel_read
    assert parallel.statuscode == failures.statuscode == 1
    assert parallel.messages() == failures.messages()
    timing = re.compile(r"\d+\.\d+ s")
    assert timing.sub("", parallel.summary()) == timing.sub("", failures.summary())
    for page in ["index", *FAILURES]:
        assert parallel.html(page) == failures.html(page), page


def test_snippets_run_while_a_single_reader_reads(tmp_path: Path) -> None:
    """One reader: the snippets start in the background before the first page is read.

    With ``-j 2`` they are finished before Sphinx forks its readers (a thread does not survive
    a fork), so that build does not announce them as running alongside the reading.
    """
    serial = build(copy("incremental", tmp_path / "serial"))
    started = serial.status.index("running 3 snippets (or taking them from the cache) while"
                                  " pages are read")
    assert started < serial.status.index("reading sources...")
    assert "snippets: 3 run, 0 cached, 0 failed" in serial.summary()
    parallel = build(copy("incremental", tmp_path / "parallel"), parallel=2)
    assert "while pages are read" not in parallel.status
    assert "running 3 snippets (or taking them from the cache)" in parallel.status
    assert parallel.html("second") == serial.html("second")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("name", ["incremental", "problems"])
def test_a_build_that_reads_every_page_starts_its_worker_before_reading(
    name: str, tmp_path: Path
) -> None:
    """No saved environment: the worker starts once the configuration is known, the build
    runs its snippets on it, and the build's end stops it, even if no page asked for one
    (the "problems" root has no check; it is given an empty snippet folder). A saved
    environment may mean a no-op build: there the worker waits for a snippet to be asked for."""
    srcdir = copy(name, tmp_path / name)
    (srcdir / "scripts" / "snippets").mkdir(parents=True, exist_ok=True)
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
    try:
        early = snippets._EARLY.get(app.config)
        assert early is not None
        pid = early.worker_pid
        assert pid is not None and _running(pid)
        app.build()
        assert app.statuscode == 0
        assert early.stats.run == (3 if name == "incremental" else 0)
    finally:
        app.cleanup()
    assert early.worker_pid is None
    assert not _running(pid)
    _build_without_early_worker(srcdir)


def test_a_book_without_a_snippet_folder_starts_no_worker(tmp_path: Path) -> None:
    _build_without_early_worker(copy("problems", tmp_path / "problems"))


def _build_without_early_worker(srcdir: Path) -> None:
    """A build that starts no worker before reading, and passes."""
    app = SphinxTestApp("html", srcdir=srcdir, status=StringIO(), warning=StringIO())
    try:
        assert app.config not in snippets._EARLY
        app.build()
        assert app.statuscode == 0
    finally:
        app.cleanup()


# -- 9. incremental builds ------------------------------------------------------------------


def test_an_incremental_build_reads_and_runs_only_what_changed(
    root: Callable[[str], Path],
) -> None:
    srcdir = root("incremental")
    snippets = srcdir / "scripts" / "snippets"
    first = build(srcdir)
    assert first.statuscode == 0
    assert first.read == ["first", "index", "second", "third"]
    assert "snippets: 3 run, 0 cached, 0 failed" in first.summary()

    unchanged = build(srcdir)
    assert unchanged.statuscode == 0
    assert unchanged.read == []
    assert "updating environment: 0 added, 0 changed, 0 removed" in unchanged.status
    assert "verified: 3 checked pages, 3 numbers; snippets: 0 run, 0 cached" in unchanged.summary()

    replace_in(
        snippets / "second.py",
        'print("s =", sqrt(2.0))',
        'print("s =", sqrt(2.0))\nprint("note = 2.5")',
    )
    edited = build(srcdir)
    assert edited.statuscode == 0
    assert edited.read == ["second"]
    assert "snippets: 1 run, 0 cached, 0 failed" in edited.summary()
    transcript = edited.page("second").select_one("details.verified-transcript pre")
    assert transcript is not None
    assert transcript.get_text() == "s = 1.4142135623730951\nnote = 2.5\n"

    replace_in(snippets / "helper.py", "    return sqrt(0.5)", "    return sqrt(2.0) / 2")
    module = build(srcdir)
    assert module.statuscode == 0
    assert module.read == ["first"]
    assert "snippets: 1 run, 0 cached, 0 failed" in module.summary()


# -- 10. wrong digits that used to pass -----------------------------------------------------

#: Mutants of ``tests/roots/test-derivations`` that an earlier checker let through (the last it
#: caught, on the line above), each with every error it must now give.
SLIPPED_THROUGH = {
    "an early step of a derivation": (
        "3 \\times 13.25", "4 \\times 13.25",
        ["index.md:7: ERROR: the arithmetic does not hold: 4 \\times 13.25 - 1.5 \\times 1.5 is "
         "50.75, but 39.75 - 2.25 is 37.5 (The determinant) [verified.arithmetic]"]),
    "scientific notation in text": (
        "about 3e-05", "about 4e-05",
        ["index.md:21: ERROR: free digit: prose 4e-05 is not among the printed numbers (nearest "
         "printed 0.00003 (p_tail)) (A tiny probability) [verified.divergence]"]),
    "a value with its unit": (
        "= 1.4855 \\;\\text{bits}", "= 0.5211 \\;\\text{bits}",
        ["index.md:25: ERROR: H: prose 0.5211, printed 1.4855 (An entropy) "
         "[verified.divergence]",
         "index.md:25: ERROR: the arithmetic does not hold: 0.5 + 0.5211 + 0.4644 is 1.4855, not "
         "0.5211 (An entropy) [verified.arithmetic]"]),
    "an exact entry of a named tuple": (
        "\\frac{1}{4},\\; \\frac{1}{4}\\right)", "\\frac{1}{3},\\; \\frac{1}{4}\\right)",
        ["index.md:60: ERROR: q[2]: printed 0.25, but \\frac{1}{3} is 0.33333333 (Exact entries) "
         "[verified.arithmetic]"]),
    "a name equated with a product": (
        "u = 0.5 \\times 0.5", "u = 0.5 \\times 0.25",
        ["index.md:60: ERROR: u: printed 0.25, but 0.5 \\times 0.25 is 0.125 (Exact entries) "
         "[verified.arithmetic]"]),
    "a plus-minus": (
        "\\frac{5 \\pm", "\\frac{6 \\pm",
        ["index.md:50: ERROR: the arithmetic does not hold: \\frac{6 \\pm \\sqrt 5}{2} is 1.8820, "
         "not 1.3820 (Two eigenvalues) [verified.arithmetic]"]),
    "a product of matrices": (
        "14 & -6 \\\\ -6 & 3", "14 & -6 \\\\ -6 & 4",
        ["index.md:68: ERROR: the arithmetic does not hold (entry 2): \\tfrac16 "
         "\\begin{pmatrix} 14 & -6 \\\\ -6 & 4 \\end{pmatrix} \\begin{pmatrix} 8 \\\\ 19 "
         "\\end{pmatrix} is 4.6666667, but \\tfrac16 \\begin{pmatrix} -2 \\\\ 9 "
         "\\end{pmatrix} is 1.5 (A product) [verified.arithmetic]"]),
    "an element of a printed column": (
        "w_2 = -0.04", "w_2 = 0.35",
        ["index.md:13: ERROR: w[2,1]: prose 0.35, printed -0.0400 (The determinant) "
         "[verified.divergence]"]),
    "a row under another index": (
        "\\vec{z}_3 = (0.75", "\\vec{z}_2 = (0.75",
        ["index.md:17: ERROR: z_2: not printed, though the snippet printed z_1, z_3; print z_2, "
         "or write the name it was printed under (Rows by name) [verified.range]"]),
    "a table cell below a signed one": (
        "| 0.5 | -1.0 |", "| 0.5 | 2.1 |",
        ["index.md:32: ERROR: free digit: prose 2.1 is not among the printed numbers (nearest "
         "printed 2.2500 (steps[2])) (Logarithms) [verified.divergence]"]),
    "a cell of a matrix of computations": (
        "3(0.3) + 1(-0.3)", "3(0.3) + 1(0.3)",
        ["index.md:43: ERROR: the arithmetic does not hold: 3(0.3) + 1(0.3) - 1 is 0.2000, not "
         "-0.4 (A gradient step) [verified.arithmetic]"]),
    "two eigenvalues listed in pairs": (
        "3.6180, 1.3820$", "1.3820, 3.6180$",
        ["index.md:49: ERROR: lambda_1: prose 1.3820, printed 3.6180 (Two eigenvalues) "
         "[verified.divergence]",
         "index.md:49: ERROR: lambda_2: prose 3.6180, printed 1.3820 (Two eigenvalues) "
         "[verified.divergence]"]),
    "a value with its margin": (
        "\\hat{p} = 0.5", "\\hat{p} = 1.5",
        ["index.md:54: ERROR: p_hat: prose 1.5, printed 0.5000 (An estimate) "
         "[verified.divergence]"]),
    "a number below an inline code span holding its digits": (
        "the rate, 1.5,", "the rate, 2.5,",
        ["index.md:56: ERROR: free digit: prose 2.5 is not among the printed numbers (nearest "
         "printed 2.2500 (steps[2])) (An estimate) [verified.divergence]"]),
    "a minor of a cofactor expansion": (
        "3 & 2 \\\\ 0 & 2", "3 & 2 \\\\ 0 & 5",
        ["index.md:74: ERROR: the arithmetic does not hold: \\begin{vmatrix} 2 & 1 & -1 \\\\ 1 & 3 "
         "& 2 \\\\ 1 & 0 & 2 \\end{vmatrix} is 15, but 2 \\begin{vmatrix} 3 & 2 \\\\ 0 & 5 "
         "\\end{vmatrix} - 1 \\begin{vmatrix} 1 & 2 \\\\ 1 & 2 \\end{vmatrix} + (-1) "
         "\\begin{vmatrix} 1 & 3 \\\\ 1 & 0 \\end{vmatrix} is 33 (Cofactors) "
         "[verified.arithmetic]"]),
    "an entry of a determinant named as printed": (
        "1 & 3 & 2 \\\\ 1 & 0", "1 & 4 & 2 \\\\ 1 & 0",
        ["index.md:73: ERROR: det_C: printed 15, but \\begin{vmatrix} 2 & 1 & -1 \\\\ 1 & 4 & 2 "
         "\\\\ 1 & 0 & 2 \\end{vmatrix} is 20 (Cofactors) [verified.arithmetic]",
         "index.md:73: ERROR: the arithmetic does not hold: \\begin{vmatrix} 2 & 1 & -1 \\\\ 1 & 4 "
         "& 2 \\\\ 1 & 0 & 2 \\end{vmatrix} is 20, but 2 \\begin{vmatrix} 3 & 2 \\\\ 0 & 2 "
         "\\end{vmatrix} - 1 \\begin{vmatrix} 1 & 2 \\\\ 1 & 2 \\end{vmatrix} + (-1) "
         "\\begin{vmatrix} 1 & 3 \\\\ 1 & 0 \\end{vmatrix} is 15 (Cofactors) "
         "[verified.arithmetic]"]),
    "a power beyond the twelfth": (
        "0.9^{19}", "0.9^{18}",
        ["index.md:81: ERROR: the arithmetic does not hold: 20 \\times 0.1 \\times 0.9^{18} is "
         "0.3002, not 0.2702 (A long power) [verified.arithmetic]"]),
    "a factorial": (
        "{2!}", "{3!}",
        ["index.md:82: ERROR: the arithmetic does not hold: \\frac{2^2}{3!} e^{-2} is 0.0902, "
         "not 0.2707 (A long power) [verified.arithmetic]"]),
    "a row of a matrix computed over several lines": (
        "-3(5) + 5.5(6)", "-4(5) + 5.5(6)",
        ["index.md:90: ERROR: the arithmetic does not hold (entry 2): \\frac{1}{10.25} "
         "\\begin{bmatrix} 3.5(5) - 3(6) \\\\ -4(5) + 5.5(6) \\end{bmatrix} is 1.2682927, but "
         "\\frac{1}{10.25} \\begin{bmatrix} -0.5 \\\\ 18 \\end{bmatrix} is 1.7560976 "
         "(A solve over several lines) [verified.arithmetic]"]),
    "a later row of a matrix over several lines": (
        "18\n", "19\n",
        ["index.md:95: ERROR: the arithmetic does not hold (entry 2): \\frac{1}{10.25} "
         "\\begin{bmatrix} 3.5(5) - 3(6) \\\\ -3(5) + 5.5(6) \\end{bmatrix} is 1.7560976, but "
         "\\frac{1}{10.25} \\begin{bmatrix} -0.5 \\\\ 19 \\end{bmatrix} is 1.8536585 "
         "(A solve over several lines) [verified.arithmetic]"]),
    "a percentage written as the digits of a printed fraction": (
        "removes 83.84 %", "removes 0.84 %",
        ["index.md:103: ERROR: free digit: prose 0.84 % (read as 0.0084) is not among the printed "
         "numbers (nearest printed 0.8384 (removed), a fraction: 83.84 %) (A solve over several "
         "lines) [verified.divergence]"]),
    "an upright e": (
        "\\mathrm{e}^{-1.5}", "\\mathrm{e}^{1.5}",
        ["index.md:54: ERROR: the arithmetic does not hold: \\mathrm{e}^{1.5} is 4.4817, not "
         "0.2231 (An estimate) [verified.arithmetic]"]),
}


def test_the_derivations_root_passes_as_written(root: Callable[[str], Path]) -> None:
    built = build(root("derivations"))
    assert built.statuscode == 0, built.warning
    assert "62 numbers" in built.summary()
    # sphinx-design gives a dropdown's title line 0: its 0.5 used to be placed at the page's
    # first 0.5 (line 17), so a report or an error about it named the wrong line.
    halves = [n.line for n in built.reports["index"].numbers if n.prose == "0.5"]
    assert 36 in halves and halves.count(17) == 1


@pytest.mark.parametrize("case", list(SLIPPED_THROUGH))
def test_a_wrong_digit_that_used_to_pass_fails_the_build(
    root: Callable[[str], Path], case: str
) -> None:
    right, wrong, messages = SLIPPED_THROUGH[case]
    srcdir = root("derivations")
    replace_in(srcdir / "index.md", right, wrong)
    built = build(srcdir)
    assert built.statuscode == 1
    assert built.messages() == messages


def _one_page(root: Path, snippet: str, page: str) -> Path:
    """A project of one page checked by one snippet, free digits allowed unbound."""
    (root / "snippets").mkdir(parents=True)
    (root / "snippets" / "t.py").write_text(snippet)
    (root / "conf.py").write_text('extensions = ["myst_parser", "verified_problems"]\n'
                                  'verified_unbound = "allow"\n'
                                  'myst_enable_extensions = ["colon_fence"]\n'
                                  'verified_snippet_dir = "snippets"\n')
    (root / "index.md").write_text(page + ":::{check-numeric} t.py\n:::\n")
    return root


def test_equal_numbers_in_one_table_row_are_each_placed_at_their_own_cell(
    tmp_path: Path,
) -> None:
    # Each cell of a row started its own search at the row's line: the second 0.5 was placed
    # at the first one's column, so a wrong second cell was never tried at its place.
    row = "| h | 0.5 | 0.5 | 0.375 | 0.375 |"
    root = _one_page(tmp_path / "table", 'print("h = [0.5, 0.5, 0.375, 0.375]")\n',
                     f"# Table\n\n| x | a | b | c | d |\n|---|---|---|---|---|\n{row}\n\n")
    result = build(root)
    assert result.statuscode == 0, result.warning
    placed = [(n.line, n.column) for n in result.reports["index"].numbers]
    columns = [row.index(" 0.5 ") + 1, row.index(" 0.5 |", row.index(" 0.5 ") + 1) + 1,
               row.index("0.375"), row.rindex("0.375")]
    assert placed == [(5, column) for column in columns]


# -- 11. pages written the way authors write (the book's policy, DESIGN §3–§4) -------------


def test_a_bound_in_the_prose_is_told_to_be_printed_or_exempted(tmp_path: Path) -> None:
    # trial 11: "more than 2.2 closer" is no quote of a printed number; the error says so
    page = "# Bound\n\nThe margin is 2.2084, so each point is more than 2.2 closer.\n\n"
    root = _one_page(tmp_path / "bound", 'print("margin =", 2.2084)\n', page)
    page = (root / "index.md").read_text()
    (message,) = build(root).messages()
    assert message.startswith("index.md:3: ERROR: free digit: prose 2.2 is not among")
    assert "2.2 reads as a bound: print it" in message and "{unchecked}`2.2`" in message
    (root / "index.md").write_text(page.replace("more than 2.2", "more than {unchecked}`2.2`"))
    assert build(root).statuscode == 0


def test_a_page_written_the_natural_way_builds_clean(root: Callable[[str], Path]) -> None:
    """Intermediates the prose computes, operands after a minus, exact values shown in full,
    percentages, given data, element forms and assignments: no error, no warning."""
    result = build(root("policy"))
    assert result.statuscode == 0, result.warning
    assert result.messages() == []
    kinds = {number.kind for number in result.reports["index"].numbers}
    assert kinds >= {"named", "derived", "given", "free"}


#: A wrong digit in each style of the policy page, and the one error each must give.
POLICY_SLIPS = {
    "a derived intermediate": ("= -0.54 - 0.58", "= -0.54 - 0.57", 6, "[verified.arithmetic]"),
    "a full-precision result": ("= 0.3133$", "= 0.3134$", 16, "[verified.arithmetic]"),
    "a derived result": ("= 2.3499$", "= 2.3498$", 16, "[verified.arithmetic]"),
    "a percentage in text": ("12.88 %", "12.89 %", 18, "[verified.divergence]"),
    "an element in brackets": (r"[\mat{A}]_{12} = 0.1", r"[\mat{A}]_{12} = 0.3", 22,
                               "[verified.divergence]"),
    "a printed name in the arithmetic": ("(1,\\; -0.5858)", "(1,\\; -0.5857)", 24,
                                         "[verified.arithmetic]"),
    "given data": (r"$\beta_2 = 0.999$", r"$\beta_2 = 0.99$", 12, "[verified.divergence]"),
}


@pytest.mark.parametrize("case", list(POLICY_SLIPS))
def test_a_wrong_digit_on_the_natural_page_fails_at_its_line(
    root: Callable[[str], Path], case: str
) -> None:
    right, wrong, line, subtype = POLICY_SLIPS[case]
    srcdir = root("policy")
    replace_in(srcdir / "index.md", right, wrong)
    result = build(srcdir)
    assert result.statuscode == 1
    [message] = result.messages()
    assert message.startswith(f"index.md:{line}: ERROR: ") and message.endswith(subtype), message


def test_a_variation_with_other_data_is_told_to_take_a_check_of_its_own(
    root: Callable[[str], Path],
) -> None:
    srcdir = root("policy")
    replace_in(srcdir / "index.md", r"another $\beta_1 = 0.9$", r"another $\beta_1 = 0.8$")
    [message] = build(srcdir).messages()
    assert message == (
        "index.md:28: ERROR: beta_1 (given): prose 0.8, printed 0.9000; if this section works "
        "with other data than the page's snippet, give it a check-numeric of its own (:scope: "
        "section) (Variation) [verified.divergence]")
