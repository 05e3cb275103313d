"""Mutation testing of the checker on the real book: every wrong digit must fail the build.

Usage: ``python scripts/mutation.py [--sample N] [--seed S] [--all-digits] [--subprocess]
[--keep] [--progress]`` (``make mutation`` runs every mutant).

The book (``book/``), its snippets (``scripts/snippets/``) and its configuration (``conf/``)
are copied into a temporary folder; the real files are never touched. The copy is built once
with ``-b verify`` and ``verification.json`` lists every number the checker checked, with its
page, line and column. From every number that matched (kind ``named`` or ``free``) mutants
are made:

* ``digit``: one digit changed, the last one +1 mod 10 (``--all-digits``: every digit
  position, one mutant each);
* ``swap``: for each named matrix or vector (the cells of one name in one block of lines),
  two adjacent entries that differ are exchanged (neighbours in a row and in a column);
* ``sign``: the minus sign of a negative number dropped.

Each mutant is written into the copy at the recorded line and column (after checking that the
number is written there), the copy is rebuilt incrementally with the same doctrees (only
that page and the book's verification page are re-read, the snippets come from the cache;
in this process, about seven times faster than a ``sphinx-build`` per mutant, which
``--subprocess`` runs instead, with the same verdicts), and the mutant is
*killed* only if the build exits non-zero AND an error names the mutated file and every
mutated line. The file is then restored byte for byte and stamped with a fresh mtime, so the
next build re-reads it clean (restoring the old mtime would hide the restoration from Sphinx,
which compares a page's mtime with the time it last read it). A last build of the restored
copy must pass and report exactly the baseline's numbers.

Every surviving mutant is printed (file:line, what changed, what the build did), then the
counts per kind and the kill rate. The exit status is 1 if any mutant survived or could not be
applied.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sphinx.util.console import strip_escape_sequences
from verified_problems.sphinx_shell.snippets import STATS_PATTERN

PROJECT = Path(__file__).resolve().parent.parent
KINDS = ("digit", "swap", "sign")

#: A number as written in the source, from its first character (sign included).
_WRITTEN = re.compile(r"[-−]?\s*(?:\d+\.?\d*|\.\d+)")  # U+2212 too, in running text
#: A page read, in Sphinx's status stream.
_READING = re.compile(r"^reading sources\.\.\. (?:\[\s*\d+%\] )?(\S+)", re.MULTILINE)
#: A located message in Sphinx's warning stream.
_LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<level>ERROR|WARNING|CRITICAL): ")


# -- the numbers and their mutants ------------------------------------------------------------


@dataclass(frozen=True)
class Checked:
    """One number of ``verification.json`` that matched: where it is and what it says."""

    source: Path
    line: int  # 1-based
    column: int  # 0-based
    kind: str  # named or free
    name: str | None
    index: tuple[int, ...] | None
    prose: str


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``old`` by ``new`` at a line (1-based) and column (0-based) of a file."""

    line: int
    column: int
    old: str
    new: str


@dataclass(frozen=True)
class Mutant:
    """One deliberate mistake in one page: one edit, or two for a swap."""

    kind: str  # digit, swap or sign
    source: Path
    edits: tuple[Edit, ...]
    label: str  # the number's name and index, or "free digit"

    @property
    def lines(self) -> tuple[int, ...]:
        """The lines an error must name."""
        return tuple(sorted({e.line for e in self.edits}))

    def describe(self, root: Path) -> str:
        """``book/page.md:84: digit a_1[2]: 0.1978 -> 0.1979``."""
        where = f"{_relative(self.source, root)}:{','.join(map(str, self.lines))}"
        if self.kind == "swap":
            first, second = self.edits
            if first.line == second.line:
                at = f"line {first.line}, columns {first.column} and {second.column}"
            else:
                at = (f"line {first.line} column {first.column}, "
                      f"line {second.line} column {second.column}")
            change = f"{first.old} <-> {second.old} ({at})"
        else:
            (edit,) = self.edits
            change = f"{edit.old} -> {edit.new} (column {edit.column})"
        return f"{where}: {self.kind} {self.label}: {change}"


def read_checked(report: dict[str, Any]) -> tuple[list[Checked], list[str]]:
    """The matched named and free numbers of a report, each once, and those without a place."""
    checked: list[Checked] = []
    unplaced: list[str] = []
    seen: set[tuple[Path, int, int]] = set()
    for page in report["pages"]:
        source = Path(page["source"])
        for number in page["numbers"]:
            if number["status"] != "match" or number["kind"] not in ("named", "free"):
                continue
            if number["line"] is None or number["column"] is None:
                unplaced.append(f"{source}:{number['line']}: {number['prose']} has no column")
                continue
            key = (source, number["line"], number["column"])
            if key in seen:  # Q = K = V: one cell, three names
                continue
            seen.add(key)
            index = tuple(number["index"]) if number["index"] is not None else None
            checked.append(Checked(source, number["line"], number["column"], number["kind"],
                                   number["name"], index, number["prose"]))
    return checked, unplaced


def written_at(lines: Sequence[str], number: Checked) -> str | None:
    """The number as written at its recorded place, or None if it is not written there."""
    if not 1 <= number.line <= len(lines):
        return None
    match = _WRITTEN.match(lines[number.line - 1], number.column)
    if match is None:
        return None
    token = match.group()
    compact = token.replace(" ", "").replace("−", "-")
    mantissa = re.split(r"e", number.prose, flags=re.IGNORECASE)[0]
    if compact in (number.prose, mantissa):
        return token
    return None


def _label(number: Checked) -> str:
    if number.kind == "free":
        return "free digit"
    index = f"[{','.join(map(str, number.index))}]" if number.index else ""
    return f"{number.name}{index}"


def digit_mutants(number: Checked, token: str, all_digits: bool) -> Iterator[Mutant]:
    """The last digit +1 mod 10, or each digit in turn."""
    positions = [i for i, c in enumerate(token) if c.isdigit()]
    for position in positions if all_digits else positions[-1:]:
        new = token[:position] + str((int(token[position]) + 1) % 10) + token[position + 1:]
        yield Mutant("digit", number.source, (Edit(number.line, number.column, token, new),),
                     _label(number))


def sign_mutants(number: Checked, token: str) -> Iterator[Mutant]:
    """The number without its minus sign (a negative number only)."""
    if token.startswith(("-", "−")):
        new = token[1:].lstrip()
        yield Mutant("sign", number.source, (Edit(number.line, number.column, token, new),),
                     _label(number))


def blocks(numbers: Iterable[Checked]) -> list[list[Checked]]:
    """Named cells grouped into matrices: one name, consecutive lines, no index twice."""
    by_name: dict[tuple[Path, str], list[Checked]] = defaultdict(list)
    for number in numbers:
        if number.kind == "named" and number.name and number.index:
            by_name[(number.source, number.name)].append(number)
    groups: list[list[Checked]] = []
    for cells in by_name.values():
        cells.sort(key=lambda c: (c.line, c.column))
        current: list[Checked] = []
        for cell in cells:
            if current and (cell.index in {c.index for c in current}
                            or cell.line - current[-1].line > 1):
                groups.append(current)
                current = []
            current.append(cell)
        if current:
            groups.append(current)
    return groups


def swap_mutants(group: Sequence[Checked], tokens: dict[Checked, str]) -> Iterator[Mutant]:
    """Each pair of neighbours (same row, or same column) whose values differ, exchanged."""
    by_index = {cell.index: cell for cell in group}
    for cell in group:
        assert cell.index is not None
        for axis in range(len(cell.index)):
            neighbour_index = tuple(i + (1 if a == axis else 0) for a, i in enumerate(cell.index))
            other = by_index.get(neighbour_index)
            if other is None or cell not in tokens or other not in tokens:
                continue
            first, second = tokens[cell], tokens[other]
            if _value(first) == _value(second):
                continue
            edits = (Edit(cell.line, cell.column, first, second),
                     Edit(other.line, other.column, second, first))
            label = f"{_label(cell)}<->{_label(other)}"
            yield Mutant("swap", cell.source, edits, label)


def _value(token: str) -> Decimal | str:
    try:
        return Decimal(token.replace(" ", "").replace("−", "-"))
    except InvalidOperation:
        return token


def make_mutants(
    checked: Sequence[Checked], all_digits: bool = False
) -> tuple[list[Mutant], list[str]]:
    """Every mutant of the checked numbers, and the numbers not written where recorded."""
    tokens: dict[Checked, str] = {}
    misplaced: list[str] = []
    lines_of: dict[Path, list[str]] = {}
    for number in checked:
        if number.source not in lines_of:
            lines_of[number.source] = number.source.read_text(encoding="utf-8").splitlines()
        token = written_at(lines_of[number.source], number)
        if token is None:
            misplaced.append(f"{number.source}:{number.line}: {number.prose} is not written at "
                             f"column {number.column}")
        else:
            tokens[number] = token
    mutants: list[Mutant] = []
    for number, token in tokens.items():
        mutants.extend(digit_mutants(number, token, all_digits))
    for group in blocks(checked):
        mutants.extend(swap_mutants(group, tokens))
    for number, token in tokens.items():
        mutants.extend(sign_mutants(number, token))
    unique = list(dict.fromkeys(mutants))
    return unique, misplaced


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with the edits made, each checked to replace what it claims to."""
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        line = lines[edit.line - 1]
        if line[edit.column:edit.column + len(edit.old)] != edit.old:
            raise ValueError(f"line {edit.line}, column {edit.column} does not hold {edit.old!r}")
        lines[edit.line - 1] = line[:edit.column] + edit.new + line[edit.column + len(edit.old):]
    return "".join(lines)


# -- building -------------------------------------------------------------------------------


@dataclass
class Build:
    """One build of the copy: its exit status and its located messages."""

    status: int
    warnings: str
    seconds: float
    log: str = ""

    @property
    def read(self) -> list[str]:
        """The pages this build read (Sphinx's "reading sources... docname" lines)."""
        return _READING.findall(strip_escape_sequences(self.log))

    @property
    def snippets_run(self) -> int:
        """Snippets this build ran rather than took from the cache (the summary line's count)."""
        match = STATS_PATTERN.search(strip_escape_sequences(self.log))
        return int(match["run"]) if match else 0

    def errors_at(self, source: Path) -> dict[int, list[str]]:
        """Error messages that name ``source``, by line."""
        found: dict[int, list[str]] = defaultdict(list)
        target = source.resolve()
        for line in strip_escape_sequences(self.warnings).splitlines():
            match = _LOCATED.match(line)
            if match is None or match["level"] == "WARNING":
                continue
            with contextlib.suppress(OSError):
                if Path(match["path"]).resolve() == target:
                    found[int(match["line"])].append(line[match.end():])
        return found


@dataclass
class Outcome:
    """What became of one mutant."""

    mutant: Mutant
    killed: bool
    reason: str
    seconds: float
    read: int = 0
    snippets_run: int = 0


@dataclass
class Workspace:
    """A copy of the book, its snippets and its configuration, built in this process."""

    root: Path
    source: str = "book"  # the source folder, relative to root
    conf: str = "conf"  # the folder of conf.py, relative to root
    builder: str = "verify"
    in_subprocess: bool = False  # build with the sphinx-build command, not in this process
    _stamp: int = 0
    builds: list[Build] = field(default_factory=list)

    @classmethod
    def create(cls, root: Path, project: Path = PROJECT) -> Workspace:
        """Copy ``book/``, ``scripts/snippets/`` and ``conf/`` of ``project`` into ``root``."""
        root.mkdir(parents=True, exist_ok=True)
        shutil.copytree(project / "book", root / "book")
        shutil.copytree(project / "conf", root / "conf")
        shutil.copytree(project / "scripts" / "snippets", root / "scripts" / "snippets")
        return cls(root)

    @classmethod
    def from_folder(cls, folder: Path, root: Path) -> Workspace:
        """Copy a self-contained project (``conf.py`` beside the pages, a test root) to ``root``."""
        shutil.copytree(folder, root)
        return cls(root, source=".", conf=".")

    @property
    def outdir(self) -> Path:
        """Where the builder writes (``verification.json``)."""
        return self.root / "_build" / self.builder

    def command(self) -> list[str]:
        """The ``sphinx-build`` command line an in-process build stands for."""
        return [sys.executable, "-m", "sphinx", "-c", str(self.root / self.conf),
                "-d", str(self.root / "_build" / "doctrees"), "-b", self.builder,
                str(self.root / self.source), str(self.outdir)]

    def build(self) -> Build:
        """An incremental build, as :meth:`command` (in a subprocess if ``in_subprocess``).

        In this process it is what ``sphinx.cmd.build.build_main`` does, minus the argument
        parsing and the interpreter start: the same application, the same exit status
        (``app.statuscode``, or 2 when the build raises).
        """
        if self.in_subprocess:
            return self._build_in_subprocess()
        from sphinx.application import Sphinx
        from sphinx.util.docutils import docutils_namespace, patch_docutils

        status, warning = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        confdir = self.root / self.conf
        try:
            with patch_docutils(confdir), docutils_namespace():
                app = Sphinx(
                    srcdir=self.root / self.source, confdir=confdir, outdir=self.outdir,
                    doctreedir=self.root / "_build" / "doctrees", buildername=self.builder,
                    status=status, warning=warning, freshenv=False,
                )
                app.build()
                code = int(app.statuscode)
        except Exception as exc:  # what sphinx-build reports and exits 2 on
            warning.write(f"sphinx-build would exit 2: {type(exc).__name__}: {exc}\n")
            code = 2
        build = Build(code, warning.getvalue(), time.perf_counter() - start, status.getvalue())
        self.builds.append(build)
        return build

    def _build_in_subprocess(self) -> Build:
        start = time.perf_counter()
        done = subprocess.run(self.command(), capture_output=True, text=True, check=False,
                              timeout=600)
        build = Build(done.returncode, done.stderr, time.perf_counter() - start, done.stdout)
        self.builds.append(build)
        return build

    def report(self) -> dict[str, Any]:
        """The last build's ``verification.json``, its page sources made absolute."""
        data: dict[str, Any] = json.loads(
            (self.outdir / "verification.json").read_text(encoding="utf-8"))
        for page in data["pages"]:
            page["source"] = str(self.root / self.source / page["source"])
        return data

    def write(self, path: Path, data: bytes) -> None:
        """Write a page and give it an mtime later than any before, so Sphinx re-reads it.

        The stamp also keys the checker's cache of source lines: each content its own stamp.
        """
        path.write_bytes(data)
        self._stamp = max(time.time_ns(), self._stamp + 1_000_000)
        os.utime(path, ns=(self._stamp, self._stamp))

    def run(self, mutant: Mutant) -> Outcome:
        """Apply the mutant, build, judge, restore the page byte for byte."""
        original = mutant.source.read_bytes()
        mutated = apply_edits(original.decode("utf-8"), mutant.edits).encode("utf-8")
        self.write(mutant.source, mutated)
        try:
            build = self.build()
        finally:
            self.write(mutant.source, original)
            if mutant.source.read_bytes() != original:
                raise RuntimeError(f"{mutant.source} was not restored byte for byte")
        killed, reason = judge(mutant, build)
        return Outcome(mutant, killed, reason, build.seconds, len(build.read), build.snippets_run)


def judge(mutant: Mutant, build: Build) -> tuple[bool, str]:
    """Killed: a non-zero exit and an error naming the mutated file and every mutated line."""
    errors = build.errors_at(mutant.source)
    if build.status == 0:
        return False, "the build passed (exit 0)"
    missing = [line for line in mutant.lines if line not in errors]
    if missing:
        named = sorted(errors) or "no line of this file"
        return False, (f"the build failed (exit {build.status}) but no error names line "
                       f"{', '.join(map(str, missing))} (errors name {named})")
    return True, "; ".join(m for line in mutant.lines for m in errors[line][:1])


# -- the run --------------------------------------------------------------------------------


@dataclass
class Result:
    """A mutation run: every outcome, what could not be mutated, and the times."""

    root: Path
    outcomes: list[Outcome]
    total: int
    misplaced: list[str]
    baseline_seconds: float
    seconds: float
    final_ok: bool
    final_problem: str = ""

    @property
    def survivors(self) -> list[Outcome]:
        """The mutants the build did not catch."""
        return [o for o in self.outcomes if not o.killed]

    @property
    def ok(self) -> bool:
        """Every mutant killed, every number located, the restored copy clean."""
        return not self.survivors and not self.misplaced and self.final_ok

    def summary(self) -> str:
        """What the run prints."""
        out: list[str] = []
        for outcome in self.survivors:
            out.append(f"SURVIVED {outcome.mutant.describe(self.root)}: {outcome.reason}")
        for problem in self.misplaced:
            out.append(f"NOT LOCATED {problem}")
        if not self.final_ok:
            out.append(f"NOT RESTORED {self.final_problem}")
        killed = sum(o.killed for o in self.outcomes)
        count = len(self.outcomes)
        rate = 100.0 * killed / count if count else 100.0
        out.append(f"mutants: {count}, killed: {killed} ({rate:.1f}%)"
                   + (f" [sample of {self.total}]" if count < self.total else ""))
        for kind in KINDS:
            mine = [o for o in self.outcomes if o.mutant.kind == kind]
            out.append(f"  {kind}: {len(mine)} mutants, {sum(o.killed for o in mine)} killed")
        out.append(f"time: {self.seconds:.1f} s in all (baseline build "
                   f"{self.baseline_seconds:.1f} s)")
        if count:
            per = sum(o.seconds for o in self.outcomes) / count
            read = sum(o.read for o in self.outcomes) / count
            ran = sum(o.snippets_run for o in self.outcomes)
            out.append(f"  per mutant build: {per:.2f} s, {read:.1f} pages read; snippets run by "
                       f"all mutant builds: {ran}")
        return "\n".join(out)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _numbers(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {page["docname"]: page["numbers"] for page in report["pages"]}


def baseline(workspace: Workspace) -> tuple[Build, dict[str, Any]]:
    """The first, full build of the copy; it must pass with every number matched."""
    build = workspace.build()
    if build.status != 0:
        raise SystemExit(f"the unmutated book does not build (exit {build.status}):\n"
                         f"{build.warnings}")
    report = workspace.report()
    if report["summary"]["failed"] or report["summary"]["errors"]:
        raise SystemExit(f"the unmutated book has failures: {report['summary']}")
    return build, report


def run_mutants(
    workspace: Workspace,
    mutants: Sequence[Mutant],
    expected: dict[str, Any],
    total: int | None = None,
    misplaced: Sequence[str] = (),
    baseline_seconds: float = 0.0,
    progress: bool = False,
) -> Result:
    """Run the mutants one by one, then check that the restored copy builds as the baseline."""
    start = time.perf_counter()
    ordered = sorted(mutants, key=lambda m: (str(m.source), m.lines, m.kind, m.edits))
    outcomes: list[Outcome] = []
    for number, mutant in enumerate(ordered, 1):
        outcome = workspace.run(mutant)
        outcomes.append(outcome)
        if progress:
            mark = "killed" if outcome.killed else "SURVIVED"
            print(f"[{number}/{len(ordered)}] {mark} {mutant.describe(workspace.root)}",
                  file=sys.stderr, flush=True)
    final = workspace.build()
    final_ok, final_problem = True, ""
    if final.status != 0:
        final_ok, final_problem = False, f"the restored copy fails (exit {final.status})"
    elif _numbers(workspace.report()) != _numbers(expected):
        final_ok, final_problem = False, "the restored copy reports other numbers than before"
    return Result(workspace.root, outcomes, len(mutants) if total is None else total,
                  list(misplaced), baseline_seconds, time.perf_counter() - start,
                  final_ok, final_problem)


def mutate(
    root: Path,
    sample: int | None = None,
    seed: int = 0,
    all_digits: bool = False,
    project: Path = PROJECT,
    progress: bool = False,
    in_subprocess: bool = False,
) -> Result:
    """The whole run in ``root`` (a fresh folder): copy the book, then :func:`mutate_copy`."""
    workspace = Workspace.create(root, project)
    workspace.in_subprocess = in_subprocess
    return mutate_copy(workspace, sample, seed, all_digits, progress)


def mutate_copy(
    workspace: Workspace,
    sample: int | None = None,
    seed: int = 0,
    all_digits: bool = False,
    progress: bool = False,
) -> Result:
    """Baseline, mutants (all, or a sample drawn with ``seed``), verdict."""
    start = time.perf_counter()
    build, report = baseline(workspace)
    checked, unplaced = read_checked(report)
    mutants, misplaced = make_mutants(checked, all_digits)
    total = len(mutants)
    if sample is not None and sample < total:
        mutants = random.Random(seed).sample(mutants, sample)
    result = run_mutants(workspace, mutants, report, total, unplaced + misplaced,
                         build.seconds, progress)
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """``make mutation``."""
    os.environ["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; it is parsed here
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=None,
                        help="run a random sample of N mutants (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument("--all-digits", action="store_true",
                        help="mutate every digit position, not only the last digit")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument("--progress", action="store_true", help="print each mutant as it runs")
    parser.add_argument("--subprocess", action="store_true",
                        help="run each build as a sphinx-build command (slower; same verdicts)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="mutation-"))
    try:
        result = mutate(folder / "copy", args.sample, args.seed, args.all_digits,
                        progress=args.progress, in_subprocess=args.subprocess)
        print(result.summary())
    finally:
        if args.keep:
            print(f"the copy is in {folder / 'copy'}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
