"""Where one book build spends its time: wall, CPU and garbage collection per build phase.

``make bench`` says how much verification costs; this says where. It runs one ``sphinx-build``
in this process, marks the phases by Sphinx's own events, and prints for each the wall time,
this process's CPU time, the time in the garbage collector and its full collections::

    python scripts/build_phases.py SRC OUT [-c CONF] [--cache-dir DIR] [--skip-checks]

Reading's wall time minus its CPU time is what the reader waited, for snippets mostly. The
snippet worker and its snippets are child processes: their CPU shows on the last line.

Three switches answer "what if": ``--cache-dir DIR`` keeps snippet results in a folder of
your choosing (build twice to read with every result cached); ``--skip-checks`` replaces
each page's check by an empty report (the snippets still run and the pages are still
rendered, but nothing is verified); ``--bare-blocks`` renders each check block as its caption
and verdict line alone, without the excerpt, the full script and the transcript, to tell
what showing them costs. The last two make a diagnostic only, never a book to publish. The
"Performance" section of `book/authors/development.md` was measured with them.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True  # nothing written into the repository, not even __pycache__
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sphinx_ext"))

#: The events that end a phase, and the phase each ends.
BOUNDARIES = {
    "env-before-read-docs": "set-up",
    "env-updated": "reading",
    "write-started": "after reading",
    "build-finished": "writing",
}
FINAL = "finishing"


@dataclass
class Clock:
    """The running totals a phase is the difference of."""

    wall: float = 0.0
    cpu: float = 0.0
    gc: float = 0.0
    full: int = 0


@dataclass
class Timeline:
    """Phases as they end: the clock at each boundary, and the collector's running totals."""

    start: Clock = field(default_factory=Clock)
    marks: list[tuple[str, Clock]] = field(default_factory=list)
    gc_seconds: float = 0.0
    gc_full: int = 0
    _gc_started: float = 0.0

    def now(self) -> Clock:
        """Every running total at this moment."""
        return Clock(time.perf_counter(), time.process_time(), self.gc_seconds, self.gc_full)

    def on_collection(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` entry: time each collection, count the full ones."""
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        self.gc_seconds += time.perf_counter() - self._gc_started
        self.gc_full += info["generation"] == 2

    def mark(self, name: str) -> None:
        """End the phase ``name`` now (once: an event Sphinx emits again ends nothing)."""
        if name not in (seen for seen, _ in self.marks):
            self.marks.append((name, self.now()))

    def rows(self) -> list[tuple[str, Clock]]:
        """Each phase's own wall, CPU, GC time and full collections."""
        rows, last = [], self.start
        for name, clock in self.marks:
            rows.append((name, Clock(clock.wall - last.wall, clock.cpu - last.cpu,
                                     clock.gc - last.gc, clock.full - last.full)))
            last = clock
        return rows


def watch(timeline: Timeline) -> None:
    """Mark a phase's end whenever Sphinx emits the event that ends it."""
    from sphinx.events import EventManager

    emit = EventManager.emit

    def marking_emit(self: EventManager, name: str, *args: Any, **kwargs: Any) -> Any:
        if name in BOUNDARIES:
            timeline.mark(BOUNDARIES[name])
        return emit(self, name, *args, **kwargs)

    EventManager.emit = marking_emit  # type: ignore[method-assign]


def skip_checks() -> None:
    """Give every page an empty report instead of checking it (a diagnostic, never a book)."""
    from verified_problems.sphinx_shell import page_check
    from verified_problems.sphinx_shell.records import PageReport

    def unchecked(docname: str, doctree: Any, config: Any, record: Any = None) -> PageReport:
        return PageReport(docname=docname, source=str(doctree.get("source", "")))

    page_check.check_page = unchecked  # type: ignore[assignment]


def bare_blocks() -> None:
    """Render each check block as its caption and verdict line alone (a diagnostic)."""
    from docutils import nodes
    from verified_problems.sphinx_shell import numeric_directive

    def bare(check: Any) -> list[nodes.Node]:
        return [nodes.paragraph(check[key], check[key]) for key in ("caption", "verdict")]

    numeric_directive._parts = bare  # type: ignore[assignment]


def report(timeline: Timeline, status: int) -> str:
    """The table of phases, the reader's wait and the children's CPU."""
    lines = [f"{'phase':<14} {'wall s':>7} {'cpu s':>7} {'gc s':>6} {'full gcs':>8}"]
    rows = timeline.rows()
    for name, clock in rows:
        lines.append(f"{name:<14} {clock.wall:7.2f} {clock.cpu:7.2f} {clock.gc:6.2f} "
                     f"{clock.full:8d}")
    end, start = timeline.marks[-1][1], timeline.start
    lines.append(f"{'total':<14} {end.wall - start.wall:7.2f} {end.cpu - start.cpu:7.2f} "
                 f"{end.gc - start.gc:6.2f} {end.full - start.full:8d}")
    reading = dict(rows).get("reading")
    if reading is not None:
        lines.append(f"the reader waited {max(reading.wall - reading.cpu, 0.0):.2f} s "
                     "(reading's wall time minus its CPU time)")
    children = os.times()
    lines.append(f"child processes (snippet worker, snippets): "
                 f"{children.children_user + children.children_system:.2f} s CPU")
    lines.append(f"sphinx-build exit status: {status}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Build once, print the phases; the exit status is sphinx-build's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path)
    parser.add_argument("output", type=Path, help="emptied first: every build is cold")
    parser.add_argument("-c", "--conf", type=Path, help="the folder of conf.py (default: SRC)")
    parser.add_argument("--cache-dir", type=Path, help="verified_cache_dir for this build")
    parser.add_argument("--skip-checks", action="store_true",
                        help="check no page (a diagnostic: the build verifies nothing)")
    parser.add_argument("--bare-blocks", action="store_true",
                        help="show no excerpt, script or transcript (a diagnostic)")
    args = parser.parse_args(argv)

    from sphinx.cmd.build import build_main

    timeline = Timeline()
    gc.callbacks.append(timeline.on_collection)
    watch(timeline)
    if args.skip_checks:
        skip_checks()
    if args.bare_blocks:
        bare_blocks()
    shutil.rmtree(args.output, ignore_errors=True)
    command = ["-b", "html", "-q", "-d", str(args.output / "doctrees")]
    command += ["-c", str(args.conf)] if args.conf else []
    command += ["-D", f"verified_cache_dir={args.cache_dir}"] if args.cache_dir else []
    timeline.start = timeline.now()
    status = build_main([*command, str(args.source), str(args.output / "html")])
    timeline.mark(FINAL)
    print(report(timeline, status))
    return status


if __name__ == "__main__":
    sys.exit(main())
