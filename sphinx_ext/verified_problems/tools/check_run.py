"""What the explicit tools share: the check-only build they read, and an atomic write.

``verified-fix`` and ``verified-bind`` are the only code that edits an author's files; each
runs the verify builder, reads its JSON report, and writes a file only in one step, and only
if nobody changed it since it was read.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .reports import JSON_NAME


class FileChanged(RuntimeError):
    """The file changed on disk between reading and writing: the edit would lose work."""


def write_atomically(path: Path, original: bytes | None, new_text: str) -> None:
    """Replace ``path`` by ``new_text`` in one step, refusing if it is no longer ``original``
    (None: a new file, refused if one appeared meanwhile)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(new_text.encode("utf-8"))
            stream.flush()
            os.fsync(stream.fileno())
        Path(temporary).chmod(path.stat().st_mode & 0o7777 if original is not None else 0o644)
        if (path.read_bytes() if path.exists() else None) != original:
            raise FileChanged(f"{path} changed on disk since it was read; run the tool again")
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def run_check(source: Path, conf: Path, build: Path) -> tuple[int, dict[str, Any] | None, str]:
    """Run the check-only build; its exit status, its JSON report and what it printed.

    The old report is removed first: a build that changed nothing rewrites the reports only
    when they are missing, and a report still there afterwards is then this build's own.
    """
    outdir = build / "verify"
    report_path = outdir / JSON_NAME
    report_path.unlink(missing_ok=True)
    command = [sys.executable, "-m", "sphinx", "-b", "verify", "-q", "-c", str(conf),
               "-d", str(build / "doctrees"), str(source), str(outdir)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if not report_path.is_file():
        return done.returncode, None, done.stderr
    return done.returncode, json.loads(report_path.read_text(encoding="utf-8")), done.stderr


def unusable(source: Path, conf: Path) -> str | None:
    """Why the check cannot run on these folders, in words an author can act on; or None."""
    if not source.is_dir():
        return f"no source folder {source}; give the folder of your pages (as for sphinx-build)"
    if not (conf / "conf.py").is_file():
        return (f"no conf.py in {conf}; give the folder that holds it with --conf (as"
                " sphinx-build's -c)")
    return None




def tool_parser(prog: str, description: str, would_change: str) -> argparse.ArgumentParser:
    """The options every tool shares: the folders, as ``sphinx-build`` takes them, and
    ``--check`` / ``--diff`` (``would_change``: what ``--check`` fails on)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("source", nargs="?", type=Path, default=Path(),
                        help="the source folder, as for sphinx-build (default: .)")
    parser.add_argument("--conf", type=Path, default=None,
                        help="the folder of conf.py (default: the source folder, as "
                             "sphinx-build's -c)")
    parser.add_argument("--build", type=Path, default=Path("_build"),
                        help="build folder for the check and its cache (default: _build)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help=f"change nothing; exit 1 if {would_change} (for pre-commit)")
    mode.add_argument("--diff", action="store_true", help="show the diff, change nothing")
    return parser


def checked_report(prog: str, args: argparse.Namespace) -> dict[str, Any] | None:
    """The check build's report for a tool's folders, or None once what went wrong is said
    (the tool then exits 2). ``--conf`` defaults to the source folder, as for sphinx-build."""
    if args.conf is None:
        args.conf = args.source
    problem = unusable(args.source, args.conf)
    if problem is not None:
        sys.stderr.write(f"{prog}: {problem}\n")
        return None
    status, report, printed = run_check(args.source, args.conf, args.build)
    if report is None or status not in (0, 1):
        sys.stderr.write(printed)
        sys.stderr.write(f"{prog}: the check build did not produce a report (see above)\n")
        return None
    return report


def show_diff(path: Path, old: str, new: str) -> None:
    """The unified diff of a file a tool changes (or would change), on standard output."""
    sys.stdout.writelines(difflib.unified_diff(
        old.splitlines(keepends=True), new.splitlines(keepends=True), str(path), str(path)))
