"""The end-of-build verdict: every finding of every page, a summary line, the exit status.

Sphinx 9 exits 0 after ``logger.error`` and does not re-read an unchanged page, so findings are
printed here, from the environment, on every build — the pages read in this build and the pages
kept from earlier ones alike — and any error sets the exit status to 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.util import logging

from .diagnostics import emit
from .records import pages
from .snippets import stats_line

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)


def report_verdict(app: Sphinx, exception: BaseException | None) -> None:
    """Print every finding in page and line order, then one summary line; fail on any error."""
    if exception is not None:
        return
    reports = pages(app.env)
    located = sorted(
        ((f, report.source) for report in reports.values() for f in report.findings),
        key=lambda pair: (pair[0].docname, pair[0].line or 0),
    )
    for finding, page in located:
        emit(finding, page)
    findings = [finding for finding, _page in located]
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


def setup_verdict(app: Sphinx) -> None:
    """Give the verdict once the build is done (before the reports are written from it)."""
    app.connect("build-finished", report_verdict, priority=400)
