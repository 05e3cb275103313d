"""The book's "Verification" page: every checked page, its problems, snippets, checks, status.

``:::{verification-report}`` is a placeholder filled in when the page is written, from the
environment's reports of all pages; the page is re-read whenever any page changed, so it never
shows a stale status. Run times vary between builds, so they are left out when
``SOURCE_DATE_EPOCH`` asks for a reproducible build.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, ClassVar

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from ..sphinx_shell.background import finish_checks
from ..sphinx_shell.outputs import written_before
from ..sphinx_shell.problems import Problem, problem_domain, sort_key
from ..sphinx_shell.records import SnippetRecord, pages
from ..sphinx_shell.tables import link, simple_table

if TYPE_CHECKING:
    from docutils.nodes import Node
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from ..sphinx_shell.records import PageReport


class verification_report(nodes.General, nodes.Element):
    """Placeholder for the verification table."""


class VerificationReportDirective(SphinxDirective):
    """``verification-report``: the table of every verified page."""

    option_spec: ClassVar[dict[str, object]] = {}

    def run(self) -> list[Node]:
        report_pages = self.env.__dict__.setdefault("verified_report_pages", set())
        report_pages.add(self.env.docname)
        return [verification_report("")]


def _outdated(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    if not (added or changed or removed):
        return []
    return sorted(env.__dict__.get("verified_report_pages", set()) - changed - removed)


def _rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The report pages, unless this output folder has them from the very state the pages are
    in: reading a page in one build (``make check``) and writing in another (``make html``)
    with the same environment would otherwise leave the HTML's table as it was."""
    report_pages = sorted(env.__dict__.get("verified_report_pages", set()))
    if not report_pages or written_before(app, "verification-report"):
        return []
    return report_pages


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    env.__dict__.get("verified_report_pages", set()).discard(docname)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    theirs = other.__dict__.get("verified_report_pages", set())
    env.__dict__.setdefault("verified_report_pages", set()).update(theirs & set(docnames))


def _fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for placeholder in list(doctree.findall(verification_report)):
        placeholder.replace_self(_table(app, docname))


def _table(app: Sphinx, fromdoc: str) -> nodes.Node:
    finish_checks(app)
    reports = [r for _, r in sorted(pages(app.env).items()) if r.snippets]
    if not reports:
        return nodes.paragraph("", "No page of this book has a check-numeric block yet.")
    timed = not os.environ.get("SOURCE_DATE_EPOCH")
    headers = ["Problem", "Page", "Snippet", "Checked", "Status"] + (["Run time"] if timed else [])
    by_page: dict[str, list[Problem]] = {}
    for problem in sorted(problem_domain(app.env).problems.values(), key=lambda p: sort_key(p.id)):
        by_page.setdefault(problem.docname, []).append(problem)
    rows = [
        [_problems(app, fromdoc, by_page.get(report.docname, [])),
         *_cells(app, fromdoc, report, record, timed)]
        for report in reports
        for record in report.snippets
    ]
    return simple_table(headers, rows, "verification-report")


def _problems(app: Sphinx, fromdoc: str, declared: list[Problem]) -> Node:
    """The ids of the problems a page declares, each a link to its header (none: empty)."""
    cell = nodes.inline()
    for number, problem in enumerate(declared):
        if number:
            cell += nodes.Text(", ")
        cell += link(app.builder, fromdoc, problem.docname, problem.anchor,
                     nodes.Text(problem.id))
    return cell


def _cells(
    app: Sphinx, fromdoc: str, report: PageReport, record: SnippetRecord, timed: bool
) -> list[Node]:
    title = app.env.titles.get(report.docname)
    label = title.astext() if title is not None else report.docname
    page = link(app.builder, fromdoc, report.docname, "", nodes.Text(label))
    checked = f"{record.named} named, {record.free} free" + (
        f", {record.exempt} exempt" if record.exempt else ""
    ) + (f", {record.injected} injected" if record.injected else "")
    errors = len(report.errors)
    if record.failure:
        status = f"snippet failed ({record.failure})"
    elif errors:
        status = f"{errors} errors"
    else:
        status = "verified"
    cells: list[Node] = [page, nodes.literal(record.snippet, record.snippet),
                         nodes.Text(checked), nodes.Text(status)]
    if timed:
        cached = " (cached)" if record.cached else ""
        cells.append(nodes.Text(f"{record.seconds * 1000:.0f} ms{cached}"))
    return cells


def setup_verification_page(app: Sphinx) -> None:
    """Register the directive and keep its page fresh."""
    app.add_directive("verification-report", VerificationReportDirective)
    app.add_node(verification_report)
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("doctree-resolved", _fill)
    app.connect("env-get-updated", _rewrite)
