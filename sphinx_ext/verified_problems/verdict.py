"""The end-of-build verdict: every finding of every page, a summary line, the exit status.

Sphinx 9 exits 0 after ``logger.error`` and does not re-read an unchanged page, so findings are
printed here, from the environment, on every build — the pages read in this build and the pages
kept from earlier ones alike — and any error sets the exit status to 1.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from sphinx.util import logging

from .collector import pages
from .config import read_config
from .diagnostics import emit
from .reports import JSON_NAME, JUNIT_NAME, write_reports
from .snippets import stats_line

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)


def report_verdict(app: Sphinx, exception: BaseException | None) -> None:
    """Print every finding in page and line order, then one summary line; fail on any error."""
    if exception is not None:
        return
    reports = pages(app.env)
    findings = sorted(
        (f for report in reports.values() for f in report.findings),
        key=lambda f: (f.docname, f.line or 0),
    )
    for finding in findings:
        emit(finding)
    errors = sum(f.is_error for f in findings)
    checked = [r for r in reports.values() if r.snippets]
    numbers = sum(r.number_count for r in checked)
    parts = [f"verified: {len(checked)} checked pages, {numbers} numbers"]
    stats = stats_line(app)
    if stats:
        parts.append(stats)
    if errors:
        failing = len({f.docname for f in findings if f.is_error})
        parts.append(f"{errors} errors on {failing} pages")
        app.statuscode = 1
    logger.info("; ".join(parts))
    outdir = Path(app.outdir)
    if read_config(app).reports and (_CHANGED.pop(app.env, False) or not _written(outdir)):
        json_path, _junit = write_reports(outdir, reports, Path(app.srcdir))
        logger.info(f"verified: reports written to {json_path.parent}")


#: Whether this build read or removed a page, per environment: the reports are rewritten only
#: then (or when missing), so a no-op rebuild does not pay for them.
_CHANGED: WeakKeyDictionary[BuildEnvironment, bool] = WeakKeyDictionary()


def note_change(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """Remember that a page's report changes (``env-purge-doc``: a page read again or removed)."""
    _CHANGED[env] = True


def _written(outdir: Path) -> bool:
    return (outdir / JSON_NAME).is_file() and (outdir / JUNIT_NAME).is_file()
