"""Per-page verification state, kept in the environment and safe under ``sphinx-build -j``.

A page is checked when it is read; its :class:`~.records.PageReport` is stored by docname,
cleared when the page is re-read or removed, and merged back from parallel readers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.environment.collectors import EnvironmentCollector

from .config import read_config
from .digit_marks import add_header_mark
from .host import unknown_macros, unread_directives
from .outputs import note_change
from .page_check import check_page
from .records import pages

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


class VerifiedCollector(EnvironmentCollector):
    """Checks each page as it is read and keeps the result with the environment."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        pages(env).pop(docname, None)
        note_change(env)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        theirs = pages(other)
        for docname in docnames:
            if docname in theirs:
                pages(env)[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        config = read_config(app)
        report = check_page(env.docname, doctree, config)
        early: list[Any] = env.temp_data.pop("verified_findings", None) or []
        as_text = [] if config.colon_fence else unread_directives(env.docname, doctree)
        report.findings[:0] = [*early, *as_text,
                               *unknown_macros(env.docname, doctree, config.known_macros)]
        add_header_mark(doctree, report)
        pages(env)[env.docname] = report


def setup_collector(app: Sphinx) -> None:
    """Register the collector."""
    app.add_env_collector(VerifiedCollector)
