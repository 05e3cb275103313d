"""What verification costs: the same generated book built plain, checked and with programoutput.

``make bench`` (``python scripts/bench.py``) writes books of 50, 200 and 500 attention problems
(:mod:`bench_book`; ``--problems 40`` for one smaller size) into a temporary folder, in three
variants of the same pages, and builds each variant cold (fresh build folder), again with nothing
changed (no-op), and again after one snippet was edited (the same edit in every variant).

The yardstick measures verification alone: the plain page shows the same excerpt (a
``literalinclude`` of the snippet) and the same transcript (a static block, captured when the book
is written) as the checked page, and the programoutput page shows the excerpt beside its
``program-output``. Checked minus plain is then what running and checking the snippets costs.

The targets, all from one run: verification overhead per problem (checked minus plain, cold,
over the problem count) at most 5 ms and at least 15 times below programoutput's; the cold build
of the largest book at most 1.20 times plain; a no-op rebuild at most 1.05 times plain; and
what confining a snippet (Landlock) and recording the files it opens add to its run, at most
1 ms (:func:`bench_runner.confinement_cost`: the same snippets through one warm worker,
confined and tracked against bare, alternating; ``--confinement-only`` measures just that).

The variants are built side by side, interleaved, so they share the machine's noise;
``--repeat N`` takes medians over N rounds (3 by default: on a small machine one round's ratios
drift by 10–25 %, enough to move a target across its line), and each round builds every
variant's no-op three times (:data:`NOOP_SAMPLES`). Every ratio and overhead is taken round by
round, between builds that ran side by side, and its median reported (:func:`paired`): the
machine's own speed drifts by a quarter over a long run, so the medians of two columns would
compare builds that ran half an hour apart.

Every figure is the wall time of the whole ``sphinx-build -b html -c CONF -d DOCTREES SRC OUT``
process and its peak RSS (``os.wait4``). ``-q`` is left out because it would also hide the
extension's summary line, which gives the snippets run; the output goes to a log file instead,
for every variant alike. ``OPENBLAS_NUM_THREADS=1`` is set for every build (the extension's
workers set it anyway), so programoutput's snippets run at their fastest on a small machine;
``--no-blas-pin`` leaves the variable as inherited, as a programoutput user would have it.

The report is a table of the figures, the same figures as the "Performance" table of
``book/authors/development.md``, a table of the targets (each value, its target and whether it
is met) and one of the other ratios. Nothing is written into the repository unless
``--output FILE`` is given, but the extension's bytecode (in its ``__pycache__`` folders, as an
installed copy has it: :func:`compile_as_installed`); ``--markdown`` prints Markdown.
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

# Nothing written into the repository but the extension's bytecode (compile_as_installed).
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))

import verified_problems  # noqa: E402
from bench_book import VARIANTS, Book, write_books  # noqa: E402
from bench_runner import confinement_cost  # noqa: E402
from verified_problems.sphinx_shell.snippets import STATS_PATTERN  # noqa: E402

PHASES = ("cold", "noop", "edit")
#: No-op builds per variant and round. One takes a second or two, so the machine's noise moves
#: its ratio by more than the 5 % the target allows (one round once gave the plain book 1.38 s
#: and the checked 1.67 s, and the next sixteen alternating builds 1.37 and 1.48 s); more
#: samples of a cheap build cost little.
NOOP_SAMPLES = 3
DEFAULT_SIZES = (50, 200, 500)
#: The targets: overhead per problem (ms), programoutput's overhead over ours, checked / plain.
OVERHEAD_MS = 5.0
PEER_TIMES = 15.0
COLD_RATIO = 1.20
NOOP_RATIO = 1.05
CONFINEMENT_MS = 1.0
_READ = re.compile(r"^reading sources\.\.\. \[\s*\d+%\] (\S+)", re.MULTILINE)


@dataclass(frozen=True)
class Build:
    """One sphinx-build: its wall time, peak RSS, pages read and snippets run (checked only)."""

    seconds: float
    peak_mb: float
    read: int
    run: int | None


class BuildFailed(RuntimeError):
    """A benchmark build exited with an error: the figures would mean nothing."""


def command(book: Book) -> list[str]:
    """The sphinx-build command of one variant."""
    return [
        sys.executable, "-m", "sphinx", "-b", "html", "-c", str(book.conf),
        "-d", str(book.build / "doctrees"), str(book.src), str(book.build / "html"),
    ]


def parse_log(text: str) -> tuple[int, int | None]:
    """Pages read (Sphinx's ``reading sources... [ n%] doc`` lines) and snippets run."""
    stats = STATS_PATTERN.search(text)
    return len(_READ.findall(text)), int(stats["run"]) if stats else None


def run_build(book: Book, log: Path, timeout: float) -> Build:
    """Run one build to completion; its wall time and peak RSS come from ``os.wait4``."""
    with log.open("w", encoding="utf-8") as out:
        start = time.perf_counter()
        process = subprocess.Popen(command(book), stdout=out, stderr=subprocess.STDOUT)
        timer = threading.Timer(timeout, process.kill)
        timer.start()
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    text = log.read_text(encoding="utf-8", errors="replace")
    if process.returncode != 0:
        tail = "\n".join(text.splitlines()[-30:])
        raise BuildFailed(f"{book.variant} ({book.size}) exited {process.returncode}:\n{tail}")
    read, run = parse_log(text)
    return Build(seconds, usage.ru_maxrss / 1024, read, run)


def prepare(book: Book, phase: str, round_: int) -> None:
    """Set up a phase: a fresh build folder for cold, one edit for edit, nothing for no-op."""
    if phase == "cold":
        shutil.rmtree(book.build, ignore_errors=True)
        book.build.mkdir(parents=True)
    elif phase == "edit":
        book.edit(round_)


Runs = dict[tuple[int, str, str], list[Build]]


def measure(books: dict[str, Book], repeat: int, timeout: float, runs: Runs) -> None:
    """Every phase of every variant, variants interleaved; the order rotates each round."""
    for round_ in range(repeat):
        shift = round_ % len(VARIANTS)
        order = VARIANTS[shift:] + VARIANTS[:shift]
        for phase in PHASES:
            for sample in range(NOOP_SAMPLES if phase == "noop" else 1):
                for variant in order:
                    book = books[variant]
                    prepare(book, phase, round_)
                    log = book.root / f"{phase}-{round_}-{sample}.log"
                    build = run_build(book, log, timeout)
                    runs[book.size, variant, phase].append(build)
                    print(f"  {book.size:>4} {variant:<13} {phase:<4} {build.seconds:7.2f} s "
                          f"{build.peak_mb:6.0f} MB", file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Figures:
    """Medians over the rounds of one size and variant, every build's time in the order they
    ran (for :func:`paired`), and the counts of every round."""

    cold: float
    noop: float
    edit: float
    peak_mb: float
    noop_run: set[int | None]
    edit_run: set[int | None]
    noop_read: set[int]
    edit_read: set[int]
    seconds: dict[str, tuple[float, ...]] = field(default_factory=dict)


def figures(runs: Runs, size: int, variant: str) -> Figures:
    """Summarise the rounds of one size and variant."""
    def get(phase: str) -> list[Build]:
        return runs[size, variant, phase]

    def median(phase: str) -> float:
        return statistics.median(b.seconds for b in get(phase))

    return Figures(
        cold=median("cold"), noop=median("noop"), edit=median("edit"),
        peak_mb=max(b.peak_mb for phase in PHASES for b in get(phase)),
        noop_run={b.run for b in get("noop")}, edit_run={b.run for b in get("edit")},
        noop_read={b.read for b in get("noop")}, edit_read={b.read for b in get("edit")},
        seconds={phase: tuple(b.seconds for b in get(phase)) for phase in PHASES},
    )


def paired(one: Figures, other: Figures, phase: str,
           combine: Callable[[float, float], float]) -> float:
    """The median over rounds of ``combine(one's build, other's build)``, each pair built side
    by side in one round.

    Not a combination of the two medians: the machine's speed drifts over a long bench (plain's
    500-problem build took 25.2, 29.9 and 31.8 s in three rounds of one run), and only builds
    that ran minutes apart share it.
    """
    pairs = zip(one.seconds[phase], other.seconds[phase], strict=True)
    return statistics.median(combine(a, b) for a, b in pairs)


def ratio(one: Figures, other: Figures, phase: str) -> float:
    """``one``'s builds of a phase against ``other``'s, round by round (:func:`paired`)."""
    return paired(one, other, phase, lambda a, b: a / b)


def _counts(values: set[int | None] | set[int]) -> str:
    known = sorted(v for v in values if v is not None)
    if not known:
        return "—"
    return str(known[0]) if len(known) == 1 else f"{known[0]}–{known[-1]}"


def figure_rows(table: dict[tuple[int, str], Figures], sizes: Sequence[int]) -> list[list[str]]:
    """The first table: one row per size and variant."""
    rows = []
    for size in sizes:
        for variant in VARIANTS:
            f = table[size, variant]
            run = f"{_counts(f.noop_run)} / {_counts(f.edit_run)}" if variant == "checked" else "—"
            rows.append([
                str(size), variant, f"{f.cold:.2f}", f"{f.noop:.2f}", f"{f.edit:.2f}",
                f"{f.peak_mb:.0f}", run, f"{_counts(f.noop_read)} / {_counts(f.edit_read)}",
            ])
    return rows


FIGURE_HEADERS = [
    "problems", "variant", "cold s", "no-op s", "edit s", "peak MB",
    "snippets run no-op / edit", "pages read no-op / edit",
]
RATIO_HEADERS = ["measure", "problems", "value", "target", "met"]
#: The development page's "Performance" table, column for column.
PERFORMANCE_HEADERS = [
    "problems", "plain cold", "checked cold", "programoutput cold", "overhead a problem",
    "programoutput / overhead", "cold ratio", "no-op ratio",
]


@dataclass(frozen=True)
class Ratio:
    """One row of the second table: a measure, its value, and its target if it has one."""

    measure: str
    size: str
    value: str
    target: str = ""
    met: bool | None = None

    def row(self) -> list[str]:
        """As a table row."""
        met = "" if self.met is None else ("yes" if self.met else "NO")
        return [self.measure, self.size, self.value, self.target or "—", met]


def overhead_ms(variant: Figures, plain: Figures, size: int) -> float:
    """A variant's cold-build overhead over plain, per problem, in milliseconds (round by
    round, :func:`paired`)."""
    return paired(variant, plain, "cold", lambda a, b: (a - b) / size * 1000)


def _overhead_ratio(checked_ms: float, peer_ms: float) -> tuple[str, bool]:
    if checked_ms <= 0:
        return "∞ (no measurable verification overhead)", peer_ms > 0
    ratio = peer_ms / checked_ms
    return f"{ratio:.1f}×", ratio >= PEER_TIMES


def size_ratios(plain: Figures, checked: Figures, peer: Figures, size: int,
                largest: bool) -> list[Ratio]:
    """The ratios of one size; the cold-build target applies to the largest size measured."""
    n = str(size)
    checked_ms = overhead_ms(checked, plain, size)
    peer_ms = overhead_ms(peer, plain, size)
    times, beats = _overhead_ratio(checked_ms, peer_ms)
    cold = ratio(checked, plain, "cold")
    noop = ratio(checked, plain, "noop")
    quiet = checked.noop_run == {0} and checked.noop_read == {0}
    edit_ok = checked.edit_run == {1} and checked.edit_read == {1}
    return [
        Ratio("verification overhead per problem", n, f"{checked_ms:.1f} ms",
              f"≤ {OVERHEAD_MS:g} ms", checked_ms <= OVERHEAD_MS),
        Ratio("programoutput overhead / verification overhead", n, times,
              f"≥ {PEER_TIMES:g}×", beats),
        Ratio("checked / plain, cold", n, f"{cold:.2f}×",
              f"≤ {COLD_RATIO:.2f}×" if largest else "", cold <= COLD_RATIO if largest else None),
        Ratio("checked / plain, no-op", n, f"{noop:.2f}×", f"≤ {NOOP_RATIO:.2f}×",
              noop <= NOOP_RATIO),
        Ratio("checked / plain, edit", n, f"{ratio(checked, plain, 'edit'):.2f}×"),
        Ratio("programoutput / plain, cold", n, f"{ratio(peer, plain, 'cold'):.2f}×"),
        Ratio("programoutput overhead per problem", n, f"{peer_ms:.1f} ms"),
        Ratio("checked no-op: snippets run, pages read", n,
              f"{_counts(checked.noop_run)}, {_counts(checked.noop_read)}", "0, 0", quiet),
        Ratio("checked edit: snippets run, pages read", n,
              f"{_counts(checked.edit_run)}, {_counts(checked.edit_read)}", "1, 1", edit_ok),
        Ratio("checked / plain, peak memory", n, f"{checked.peak_mb / plain.peak_mb:.2f}×"),
        Ratio("programoutput / plain, peak memory", n, f"{peer.peak_mb / plain.peak_mb:.2f}×"),
    ]


def growth_ratio(table: dict[tuple[int, str], Figures], small: int, large: int,
                 variant: str) -> Ratio:
    """How cold builds grow from ``small`` to ``large`` problems: linear, or quadratic?"""
    ratio = table[large, variant].cold / table[small, variant].cold
    scale = large / small
    exponent = math.log(ratio) / math.log(scale)
    target = f"< {scale ** 1.5:.2f}× (linear {scale:.2f}×, quadratic {scale ** 2:.2f}×)"
    return Ratio(f"{variant} cold, {large} / {small} problems", f"{small}→{large}",
                 f"{ratio:.2f}× (n^{exponent:.2f})", target, ratio < scale ** 1.5)


def ratios(table: dict[tuple[int, str], Figures], sizes: Sequence[int]) -> list[Ratio]:
    """Every ratio: per size, then growth between consecutive sizes."""
    rows = []
    for size in sizes:
        plain, checked, peer = (table[size, v] for v in VARIANTS)
        rows += size_ratios(plain, checked, peer, size, size == max(sizes))
    for small, large in itertools.pairwise(sizes):
        rows += [growth_ratio(table, small, large, v) for v in ("plain", "checked")]
    return rows


def performance_rows(
    table: dict[tuple[int, str], Figures], sizes: Sequence[int]
) -> list[list[str]]:
    """The development page's "Performance" table: one row per size, as the page writes its
    figures."""
    rows = []
    for size in sizes:
        plain, checked, peer = (table[size, v] for v in VARIANTS)
        checked_ms = overhead_ms(checked, plain, size)
        times, _ = _overhead_ratio(checked_ms, overhead_ms(peer, plain, size))
        rows.append([
            str(size), f"{plain.cold:.2f} s", f"{checked.cold:.2f} s", f"{peer.cold:.2f} s",
            f"{checked_ms:.1f} ms", times.split(" (")[0], f"{ratio(checked, plain, 'cold'):.2f}×",
            f"{ratio(checked, plain, 'noop'):.2f}×",
        ])
    return rows


def _staleness(table: dict[tuple[int, str], Figures], sizes: Sequence[int]) -> str:
    """What an edited snippet does to the programoutput page, as the edit builds measured it."""
    read = set().union(*(table[s, "programoutput"].edit_read for s in sizes))
    if read == {0}:
        return ("programoutput does not track the files its command reads: an edited snippet is "
                "not re-run and its page stays stale (0 pages read).")
    return ("programoutput does not track the file its command runs; the literalinclude beside "
            "it does, so an edited snippet's page is re-read and its program re-run "
            f"({_counts(read)} page(s) read). The plain page is re-read too, and its static "
            "transcript stays as it was captured.")


def render(headers: list[str], rows: list[list[str]], markdown: bool) -> str:
    """A table as Markdown or as aligned text."""
    if markdown:
        rule = "|" + "---|" * len(headers)  # as the development page writes it
        return "\n".join([f"| {' | '.join(headers)} |", rule,
                          *("| " + " | ".join(cells) + " |" for cells in rows)])
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    line: Callable[[list[str]], str] = lambda cells: "  ".join(  # noqa: E731
        c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()
    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, rows)])


def environment() -> str:
    """The versions and the machine the figures belong to."""
    packages = ("sphinx", "myst-parser", "numpy", "sphinxcontrib-programoutput")
    found = ", ".join(f"{p} {version(p)}" for p in packages)
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "unset")
    return (f"Python {platform.python_version()}, {found}; {os.cpu_count()} CPUs; "
            f"OPENBLAS_NUM_THREADS {blas}")


def _layout(chapter_size: int) -> str:
    if chapter_size:
        return f"chapters of {chapter_size} problems, each a :glob: toctree"
    return "every problem in one flat :glob: toctree of index.md"


def confinement_ratio(confined_ms: float, bare_ms: float) -> Ratio:
    """The confinement target's row: what confining and tracking add to a snippet's run."""
    cost = confined_ms - bare_ms
    return Ratio("confinement and tracking per snippet", "—",
                 f"{cost:+.2f} ms ({confined_ms:.2f} against {bare_ms:.2f} ms)",
                 f"≤ {CONFINEMENT_MS:g} ms", cost <= CONFINEMENT_MS)


def report(
    runs: Runs, sizes: Sequence[int], repeat: int, seconds: float, markdown: bool,
    chapter_size: int = 0, confinement: Ratio | None = None,
) -> str:
    """The whole printed report: figures, ratios with targets, the verdict."""
    table = {(s, v): figures(runs, s, v) for s in sizes for v in VARIANTS}
    rows = ratios(table, sizes) + ([confinement] if confinement is not None else [])
    judged = [r for r in rows if r.met is not None]
    others = [r for r in rows if r.met is None]
    missed = [f"{r.measure} ({r.size}): {r.value}, target {r.target}" for r in judged if not r.met]
    heading = "### " if markdown else ""
    verdict = f"Targets met: {len(judged) - len(missed)} of {len(judged)}."
    return "\n".join([
        f"{heading}Verification benchmark: sphinx-build -b html, whole-process wall time",
        "",
        f"{environment()}. {repeat} round(s), median (no-op: {NOOP_SAMPLES} builds a round; "
        "ratios and overheads round by round, then their median); "
        f"the bench took {seconds:.0f} s. "
        f"Pages: {_layout(chapter_size)}; the book's conf.py, theme and theme options. "
        "Every variant shows the excerpt; plain shows the transcript as a static block "
        "(captured when the book was written), programoutput runs the snippet beside a "
        "literalinclude, checked runs and checks it.",
        "",
        render(FIGURE_HEADERS, figure_rows(table, sizes), markdown),
        "",
        _staleness(table, sizes),
        "",
        f"{heading}As the development page's Performance table",
        "",
        render(PERFORMANCE_HEADERS, performance_rows(table, sizes), markdown),
        "",
        f"{heading}Targets",
        "",
        render(RATIO_HEADERS, [r.row() for r in judged], markdown),
        "",
        f"{heading}Other ratios",
        "",
        render(RATIO_HEADERS, [r.row() for r in others], markdown),
        "",
        verdict + ("" if not missed else " Missed: " + "; ".join(missed) + "."),
    ])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", "--problems", type=lambda s: [int(n) for n in s.split(",")],
                        default=list(DEFAULT_SIZES),
                        help="problem counts, e.g. 50,200,500 (default), or one: --problems 40")
    parser.add_argument("--repeat", type=int, default=3,
                        help="rounds (default 3: one round's ratios drift by 10–25 %% on a small "
                             "machine); figures are medians")
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    parser.add_argument("--output", type=Path, help="also write the report to this file")
    parser.add_argument("--keep", action="store_true", help="keep the generated books and logs")
    parser.add_argument("--chapter-size", type=int, default=25, metavar="N",
                        help="problems per chapter, as a book groups them (default 25; 0 puts "
                             "every problem in one flat toctree, which the sidebar makes "
                             "quadratic)")
    parser.add_argument("--no-blas-pin", action="store_true",
                        help="do not set OPENBLAS_NUM_THREADS=1 for the builds")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds a build may take")
    parser.add_argument("--confinement-only", action="store_true",
                        help="measure only what confinement and tracking cost a snippet")
    return parser.parse_args(argv)


def bench(
    sizes: Sequence[int], repeat: int, timeout: float, folder: Path, chapter_size: int = 0
) -> Runs:
    """Generate the books of every size in ``folder`` and measure them."""
    runs: Runs = defaultdict(list)
    for size in sizes:
        books = write_books(folder, size, chapter_size)
        measure(books, repeat, timeout, runs)
    return runs


def compile_as_installed() -> None:
    """Compile the extension's bytecode, as ``pip install`` does for a wheel.

    An editable install leaves none, and where ``PYTHONDONTWRITEBYTECODE`` is set (these
    machines) every build would compile the whole extension from source again (0.2–0.3 s a
    build), which no installed copy of it does; Sphinx and the other packages have theirs.
    """
    package = Path(verified_problems.__file__).parent
    compileall.compile_dir(package, quiet=1)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print the report."""
    args = parse_args(argv)
    compile_as_installed()
    sizes = sorted(set(args.sizes))
    if not args.no_blas_pin:
        os.environ["OPENBLAS_NUM_THREADS"] = "1"
    os.environ["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; it is parsed here
    folder = Path(tempfile.mkdtemp(prefix="verified-bench-"))
    start = time.perf_counter()
    try:
        (folder / "confinement").mkdir()
        confinement = confinement_ratio(*confinement_cost(folder / "confinement"))
        if args.confinement_only:
            print(render(RATIO_HEADERS, [confinement.row()], args.markdown))
            return 0 if confinement.met else 1
        runs = bench(sizes, args.repeat, args.timeout, folder, args.chapter_size)
    finally:
        if args.keep:
            print(f"books and logs kept in {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.perf_counter() - start
    text = report(runs, sizes, args.repeat, seconds, args.markdown, args.chapter_size,
                  confinement)
    print(text)
    if args.output:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
