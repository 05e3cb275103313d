"""scripts/bench.py for real at a tiny size: the books build; the counts and ratio rows are there.

Fifteen real sphinx-build runs of a 3-problem book (every variant cold, three no-ops and an edit),
whose HTML is then read, and three of scripts/build_phases.py; no assertion is about time.
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
from bench_book import (  # noqa: E402
    EXCERPT,
    SECTION,
    UNCHECKED_KIND,
    VARIANTS,
    page,
    problems,
    rounded,
    run_snippet,
    snippet,
    write_books,
)
from bs4 import Tag  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the benchmark writes its books: ``<folder>/3/<variant>``."""
    return tmp_path_factory.mktemp("bench")


@pytest.fixture(scope="module")
def runs(folder: Path) -> bench.Runs:
    """One real benchmark of a 3-problem book, every variant and phase."""
    return bench.bench([3], repeat=1, timeout=120, folder=folder)


def test_checked_noop_runs_nothing_and_edit_runs_one(runs: bench.Runs) -> None:
    noop, edit = runs[3, "checked", "noop"][0], runs[3, "checked", "edit"][0]
    assert (noop.run, noop.read) == (0, 0)
    assert all(len(runs[3, v, "noop"]) == bench.NOOP_SAMPLES for v in VARIANTS)
    assert all((b.run, b.read) == (0, 0) for b in runs[3, "checked", "noop"])
    assert (edit.run, edit.read) == (1, 1)
    assert runs[3, "checked", "cold"][0].run == 3
    # the same snippet edit everywhere: plain and programoutput include the snippet too
    assert [runs[3, v, "edit"][0].read for v in VARIANTS] == [1, 1, 1]


def test_report_has_the_figures_and_ratio_rows(runs: bench.Runs) -> None:
    text = bench.report(runs, [3], repeat=1, seconds=1.0, markdown=False)
    for row in (
        "Targets",
        "Other ratios",
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
    assert "| verification overhead per problem | 3 |" in text
    assert "| ≤ 5 ms |" in text and "| ≥ 15× |" in text and "| ≤ 1.05× |" in text
    assert "| ≤ 1.20× |" in text  # the cold target: the largest size measured, here 3


def test_markdown_report_has_the_performance_table(runs: bench.Runs) -> None:
    # The development page's "Performance" table, header for header, so a run's rows can
    # replace its rows.
    page = PROJECT / "book" / "authors" / "development.md"
    readme = page.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(readme) if line.startswith("| problems | plain"))
    header, readme_rule = readme[at: at + 2]
    lines = bench.report(runs, [3], repeat=1, seconds=1.0, markdown=True).splitlines()
    assert header in lines
    rule, row = lines[lines.index(header) + 1: lines.index(header) + 3]
    assert rule == readme_rule
    cells = row.strip("| ").split(" | ")
    assert cells[0] == "3"
    assert len(cells) == header.count(" | ") + 1
    assert [c.rsplit(" ", 1)[-1] for c in cells[1:5]] == ["s", "s", "s", "ms"]
    assert cells[-2].endswith("×") and cells[-1].endswith("×")


def test_prose_digits_are_the_printed_ones_rounded_half_even() -> None:
    # 0.12345 is stored as 0.12345000000000000417...; it prints as 0.12345, a tie: half-even.
    assert str(rounded(0.12345)) == "0.1234"
    assert str(rounded(0.00015)) == "0.0002"
    assert str(rounded(-0.73456)) == "-0.7346"
    problem = problems(1)[0]
    assert "np.set_printoptions(floatmode=\"unique\"" in snippet(problem)


def test_variants_differ_only_after_the_check_heading() -> None:
    # The yardstick: a plain page has every heading and sentence of a checked one, so the two
    # builds differ by the check alone, not by a section more in every page's navigation.
    problem = problems(1)[0]
    pages = {variant: page(problem, variant, Path("/snippets"), "X = 1\n") for variant in VARIANTS}
    heads, tails = {}, {}
    for variant, text in pages.items():
        heads[variant], found, tails[variant] = text.partition(SECTION)
        assert found, variant
    # the header's kind alone differs: a numeric problem must have a check (verified.no-check)
    assert ":kind: numeric\n" in heads["checked"]
    for variant in ("plain", "programoutput"):
        assert heads[variant] == heads["checked"].replace(":kind: numeric\n",
                                                          f":kind: {UNCHECKED_KIND}\n")
    include = ':::{literalinclude} /../snippets/p0001.py\n:language: python\n:start-after: "# '
    assert tails["plain"].startswith("\n" + include)
    assert tails["plain"].endswith('"# -- end excerpt"\n:::\n\n```text\nX = 1\n```\n')
    assert tails["checked"].startswith("\n:::{check-numeric} p0001.py\n")
    assert tails["programoutput"].startswith("\n" + include)
    assert tails["programoutput"].endswith(f":::\n\n:::{{program-output}} {sys.executable} "
                                           "/snippets/p0001.py\n:::\n")
    # the excerpt's markers and options are the same for check-numeric and literalinclude
    options = tails["checked"].split("\n", 2)[2]
    assert options in tails["plain"] and options in tails["programoutput"]


def test_run_snippet_prints_what_a_fresh_interpreter_prints(tmp_path: Path) -> None:
    path = tmp_path / "p0001.py"
    path.write_text(snippet(problems(1)[0]), encoding="utf-8")
    fresh = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                           check=True, timeout=60).stdout
    assert run_snippet(path) == fresh
    assert run_snippet(path) == fresh  # the print options the snippet set did not stay


def _check_section(folder: Path, variant: str, number: int) -> Tag:
    """The "Check — numeric" section of problem ``number``'s page, as the last build wrote it."""
    html = folder / "3" / variant / "build" / "html"
    [path] = html.rglob(f"p{number:04d}.html")
    section = soup(path).select_one("section#check-numeric")
    assert section is not None, path
    return section


def _code(section: Tag, language: str) -> list[str]:
    """The text of the section's code blocks highlighted as ``language``, outside a check."""
    return [pre.get_text() for pre in section.select(f"div.highlight-{language} pre")
            if pre.find_parent("div", class_="verified-check") is None]


@pytest.mark.parametrize("number", [1, 2, 3])
def test_plain_and_programoutput_pages_show_the_excerpt_and_the_transcript(
    runs: bench.Runs, folder: Path, number: int
) -> None:
    # What the checked page shows, which the yardstick must show as well.
    checked = _check_section(folder, "checked", number)
    excerpt = checked.select_one("div.verified-excerpt pre")
    transcript = checked.select_one("details.verified-transcript pre")
    assert excerpt is not None and transcript is not None
    assert excerpt.get_text() == EXCERPT
    snippet_path = folder / "3" / "plain" / "snippets" / f"p{number:04d}.py"
    fresh = subprocess.run([sys.executable, str(snippet_path)], capture_output=True, text=True,
                           check=True, timeout=60).stdout
    assert transcript.get_text() == fresh

    plain = _check_section(folder, "plain", number)
    assert plain.select("div.verified-check") == []  # nothing is checked
    assert _code(plain, "python") == [EXCERPT]
    assert _code(plain, "text") == [fresh]  # static, captured when the book was written

    peer = _check_section(folder, "programoutput", number)
    assert peer.select("div.verified-check") == []
    assert _code(peer, "python") == [EXCERPT]
    assert _code(peer, "text") == [fresh]  # what program-output ran at build time


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


def test_the_confinement_cost_is_measured_and_judged(tmp_path: Path) -> None:
    confined, bare = bench.confinement_cost(tmp_path, count=3, rounds=1)
    assert confined > 0 and bare > 0
    row = bench.confinement_ratio(confined, bare)
    assert row.target == "≤ 1 ms" and row.met is (confined - bare <= 1.0)
    assert re.fullmatch(r"[+-]\d+\.\d\d ms \(\d+\.\d\d against \d+\.\d\d ms\)", row.value)
    assert bench.confinement_ratio(5.0, 3.5).met is False


def test_overheads_and_ratios_pair_the_builds_of_each_round() -> None:
    # The last run's 500-problem cold builds, in round order: the machine slowed by a quarter
    # over the run. The medians of the two columns (29.91 and 25.00 s) would make verification
    # 9.8 ms a problem faster than none; round by round it costs -0.6, -9.8 and +10.3 ms.
    def built(*seconds: float) -> bench.Figures:
        return bench.Figures(0.0, 0.0, 0.0, 0.0, set(), set(), set(), set(),
                             {"cold": seconds})

    plain, checked = built(25.20, 29.91, 31.79), built(24.91, 25.00, 36.95)
    assert round(bench.overhead_ms(checked, plain, 500), 1) == -0.6
    assert round(bench.ratio(checked, plain, "cold"), 2) == 0.99
