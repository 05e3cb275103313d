"""What the explicit tools share: the check-only build they read, and an atomic write.

``verified-fix`` and ``verified-bind`` are the only code that edits an author's files; each
runs the verify builder, reads its JSON report, and writes a file only in one step, and only
if nobody changed it since it was read.
"""

from __future__ import annotations

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


