"""What each output folder was last written from, kept beside the doctrees.

Builds can share one environment and write into different folders: ``make check`` reads a
changed page and writes ``_build/verify``, then ``make html`` reads nothing and writes
``_build/html``. What is made from the whole environment (the reports, the Verification page)
must then still be made again for the second folder. So every change to the pages' records
gives the environment a new state, and each output folder keeps, in a small file beside the
doctrees, the state its reports and pages were last written from.
"""

from __future__ import annotations

import hashlib
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


def output_file(doctreedir: Path, outdir: Path, kind: str) -> Path:
    """A file of ours about one output folder, beside the doctrees (in the folder itself an
    epub would pack it), named after the folder."""
    key = hashlib.sha256(str(outdir.resolve()).encode("utf-8", "surrogatepass")).hexdigest()
    return doctreedir / f"verified-{kind}" / key[:16]


def note_change(env: BuildEnvironment) -> None:
    """A page's records changed (read again or removed): the environment is in a new state."""
    env.verified_state = secrets.token_hex(8)  # type: ignore[attr-defined]


def written_before(app: Sphinx, what: str) -> bool:
    """Whether ``what`` in this build's output folder was written from this very state; if not,
    it is noted as written from it now (the caller writes it in this build)."""
    state = str(getattr(app.env, "verified_state", ""))
    stamp = output_file(Path(app.doctreedir), Path(app.outdir), f"written-{what}")
    try:
        if stamp.read_text(encoding="utf-8") == state:
            return True
    except OSError:
        pass
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(state, encoding="utf-8")
    return False
