"""scripts/bench.py for real at a tiny size: the books build; the counts and ratio rows are there.

Nine real sphinx-build runs of a 3-problem book (about 15 s), and three of scripts/build_phases.py;
no assertion is about time.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import PROJECT, soup

SCRIPTS = PROJECT / "scripts"
sys.path.insert(0, str(SCRIPTS))

import bench  # noqa: E402
from bench_book import VARIANTS, page, problems, rounded, snippet, write_books  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> bench.Runs:
    """One real benchmark of a 3-problem book, every variant and phase."""
    return bench.bench([3], repeat=1, timeout=120, folder=tmp_path_factory.mktemp("bench"))


def test_checked_noop_runs_nothing_and_edit_runs_one(runs: bench.Runs) -> None:
    noop, edit = runs[3, "checked", "noop"][0], runs[3, "checked", "edit"][0]
    assert (noop.run, noop.read) == (0, 0)
    assert all(len(runs[3, v, "noop"]) == bench.NOOP_SAMPLES for v in VARIANTS)
    assert all((b.run, b.read) == (0, 0) for b in runs[3, "checked", "noop"])
    assert (edit.run, edit.read) == (1, 1)
    assert runs[3, "checked", "cold"][0].run == 3


def test_report_has_the_figures_and_ratio_rows(runs: bench.Runs) -> None:
    text = bench.report(runs, [3], repeat=1, seconds=1.0, markdown=False)
    for row in (
        "checked / plain, cold",
        "checked / plain, no-op",
        "programoutput / plain, cold",
        "verification overhead per problem",
        "programoutput overhead / verification overhead",
        "checked no-op: snippets run, pages read",
        "checked / plain, peak memory",
    ):
        assert row in text
    checked = next(line for line in text.splitlines() if line.split()[:2] == ["3", "checked"])
    assert "0 / 1" in checked  # snippets run: none on the no-op rebuild, one after the edit


def test_markdown_report_is_a_table(runs: bench.Runs) -> None:
    text = bench.report(runs, [3], repeat=1, seconds=1.0, markdown=True)
    assert "| measure | problems | value | target | met |" in text
    assert "| checked no-op: snippets run, pages read | 3 | 0, 0 | 0, 0 | yes |" in text


def test_prose_digits_are_the_printed_ones_rounded_half_even() -> None:
    # 0.12345 is stored as 0.12345000000000000417...; it prints as 0.12345, a tie: half-even.
    assert str(rounded(0.12345)) == "0.1234"
    assert str(rounded(0.00015)) == "0.0002"
    assert str(rounded(-0.73456)) == "-0.7346"
    problem = problems(1)[0]
    assert "np.set_printoptions(floatmode=\"unique\"" in snippet(problem)


def test_variants_differ_only_in_the_directive() -> None:
    # The yardstick: a plain page has every heading and sentence of a checked one, so the two
    # builds differ by the check alone, not by a section more in every page's navigation.
    problem = problems(1)[0]
    pages = {variant: page(problem, variant, Path("/snippets")) for variant in VARIANTS}
    directives = {variant: text.split("\n:::{", 2)[-1] for variant, text in pages.items()
                  if variant != "plain"}
    assert directives["checked"].startswith("check-numeric} p0001.py")
    assert directives["programoutput"].startswith("program-output} ")
    for variant, directive in directives.items():
        assert pages[variant].removesuffix("\n:::{" + directive) == pages["plain"]
    assert "\n## Check — numeric\n" in pages["plain"]


def _phases(book: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPTS / "build_phases.py"), str(book / "src"),
               str(book / "out"), "-c", str(book / "conf"), *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def _check_classes(book: Path, page: Path) -> set[str]:
    """The classes inside the page's check block, in the HTML the last build wrote."""
    html = book / "out" / "html" / page.relative_to(book / "src").with_suffix(".html")
    block = soup(html).select_one("div.verified-check")
    assert block is not None
    return {name for element in block.find_all(True) for name in element.get("class", [])}


def test_build_phases_times_each_phase_and_skipping_checks_verifies_nothing(
    tmp_path: Path,
) -> None:
    book = write_books(tmp_path, 2)["checked"].root
    first = next((book / "src").rglob("p0001.md"))
    text = first.read_text(encoding="utf-8")
    entry = re.search(r"\\mat\{O\} =\n\\begin\{bmatrix\}\n(-?\d+\.\d+)", text)
    assert entry is not None
    wrong = entry[1][:-1] + str((int(entry[1][-1]) + 1) % 10)
    first.write_text(text[: entry.start(1)] + wrong + text[entry.end(1):], encoding="utf-8")

    checked = _phases(book)
    rows = [line.split()[0] for line in checked.stdout.splitlines()[1:6]]
    assert rows == ["set-up", "reading", "after", "writing", "finishing"], checked.stdout
    assert "the reader waited" in checked.stdout
    assert checked.returncode != 0, checked.stdout  # the wrong digit fails the build
    assert f"prose {wrong}" in checked.stderr

    skipped = _phases(book, "--skip-checks")
    assert skipped.returncode == 0, skipped.stderr  # nothing was checked, so nothing failed
    assert f"prose {wrong}" not in skipped.stderr
    assert "sphinx-build exit status: 0" in skipped.stdout
    assert _check_classes(book, first) >= {"verified-excerpt", "verified-transcript"}

    bare = _phases(book, "--skip-checks", "--bare-blocks")
    assert bare.returncode == 0, bare.stderr
    shown = _check_classes(book, first)
    assert not shown & {"verified-excerpt", "verified-script", "verified-transcript"}, shown
