"""What happened to a snippet's run: the first failure that explains it, in one sentence.

Loaded by ``worker.py`` by its path, so it imports nothing from the package at run time.
"""

from __future__ import annotations

import json
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

#: Failure names; the caller's ``Failure`` enum has the same values.
CRASH, TIMEOUT, EMPTY, UNDECODABLE = "crash", "timeout", "empty", "undecodable"
OUTPUT_LIMIT, MEMORY, ORPHAN, PROCESSES = "output-limit", "memory", "orphan", "processes"

_MEMORY_WORDS = ("MemoryError", "Cannot allocate memory", "out of memory", "bad_alloc")


class Run(Protocol):
    """What the classification reads of a finished child (the worker's ``Running``)."""

    job: Any  # the worker's Job: its limits
    folder: Path
    timed_out: bool
    over: str | None


def read_side(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / "side.json").read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):g} MiB"
    return f"{n} bytes"


def file_tail(path: Path, limit: int = 4096) -> str:
    """The last ``limit`` bytes of a file as text (what a message quotes of a long log)."""
    try:
        with path.open("rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - limit))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


@dataclass(frozen=True)
class Outcome:
    """What the caller is told about one finished child."""

    failure: str | None
    message: str
    crash_file: str | None = None
    snippet_line: int | None = None


def classify(
    run: Run, status: int, orphan: bool, out: bytes, side: dict[str, Any]
) -> Outcome:
    """The first failure that explains the run, most telling first; None if it succeeded."""
    job = run.job
    signum = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if run.timed_out:
        return Outcome(TIMEOUT, f"the snippet did not finish within {job.timeout:g} s")
    if run.over == PROCESSES:
        return Outcome(PROCESSES, f"the snippet ran more than {job.max_processes} processes "
                                  "at once and was stopped")
    if run.over == MEMORY:
        return Outcome(MEMORY, f"the snippet's processes together used more than the "
                               f"{job.max_memory_mb} MB memory limit and were stopped")
    if signum == signal.SIGXFSZ or side.get("too_big"):
        return _too_big(run, len(out))
    if side.get("memory"):
        return Outcome(
            MEMORY,
            f"the snippet ran out of memory under the {job.max_memory_mb} MB limit "
            f"({side.get('message', 'MemoryError')})",
        )
    if signum is not None:
        return _killed(run, signum)
    if os.WEXITSTATUS(status) != 0:
        return _crashed(run, side, os.WEXITSTATUS(status))
    if orphan or side.get("orphan"):
        return Outcome(ORPHAN, "the snippet left a background process running; it was killed")
    return _judge_output(out)


def _too_big(run: Run, printed: int) -> Outcome:
    limit = _size(run.job.max_output)
    if printed >= run.job.max_output:
        return Outcome(OUTPUT_LIMIT, f"the snippet printed more than {limit} and was stopped")
    if len(read_bytes(run.folder / "stderr")) >= run.job.max_output:
        return Outcome(OUTPUT_LIMIT, f"the snippet wrote more than {limit} to stderr")
    return Outcome(OUTPUT_LIMIT, f"the snippet wrote a file larger than the {limit} output limit")


def _killed(run: Run, signum: int) -> Outcome:
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = str(signum)
    err = file_tail(run.folder / "stderr")
    if any(word in err for word in _MEMORY_WORDS):
        return Outcome(
            MEMORY,
            f"the snippet ran out of memory under the {run.job.max_memory_mb} MB limit "
            f"and was killed by {name}",
        )
    return Outcome(CRASH, f"the snippet was killed by signal {name}")


def _crashed(run: Run, side: dict[str, Any], code: int) -> Outcome:
    message = side.get("message")
    if not isinstance(message, str):
        lines = file_tail(run.folder / "stderr").strip().splitlines()
        message = lines[-1] if lines else f"the snippet exited with status {code}"
    crash_file, line = side.get("crash_file"), side.get("snippet_line")
    return Outcome(
        CRASH,
        message,
        crash_file if isinstance(crash_file, str) else None,
        line if isinstance(line, int) else None,
    )


def _judge_output(out: bytes) -> Outcome:
    try:
        text = out.decode("utf-8")
    except UnicodeDecodeError as bad:
        return Outcome(
            UNDECODABLE,
            f"the snippet printed bytes that are not UTF-8 (at byte {bad.start}: "
            f"{out[bad.start : bad.start + 4]!r})",
        )
    if not text.strip():
        return Outcome(EMPTY, "the snippet printed nothing")
    return Outcome(None, "")



def read_bytes(path: Path) -> bytes:
    """A file's bytes, or none if it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return b""
