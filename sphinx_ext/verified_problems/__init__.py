"""Verified worked problems: a Sphinx extension that checks a book's digits against its snippets.

``check-numeric`` runs a problem's snippet at build time, shows what it printed, and fails the
build whenever a digit in the prose diverges from it. ``problem`` gives a page its header,
id and place in the problem index.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .collector import setup_collector
from .config import setup_config
from .digit_marks import mark_digits
from .exemptions import setup_exemptions
from .numeric_directive import setup_numeric_directive
from .problems import setup_problems
from .recovery import setup_recovery
from .render import setup_render
from .snippets import close, finish_prefetch, outdated_by_runtime, prefetch, start_early
from .verdict import note_change, report_verdict
from .verification_page import setup_verification_page
from .verify_builder import setup_verify_builder

if TYPE_CHECKING:
    from sphinx.application import Sphinx

__version__ = "0.1.0"


def _add_static(app: Sphinx) -> None:
    static = str(Path(__file__).parent / "static")
    if static not in app.config.html_static_path:
        app.config.html_static_path.append(static)


def setup(app: Sphinx) -> dict[str, Any]:
    """Sphinx's entry point."""
    setup_config(app)
    setup_render(app)
    setup_numeric_directive(app)
    setup_exemptions(app)
    setup_problems(app)
    setup_collector(app)
    setup_recovery(app)
    setup_verification_page(app)
    setup_verify_builder(app)
    app.connect("builder-inited", _add_static)
    app.connect("config-inited", start_early, priority=900)  # once the configuration is valid
    app.connect("env-before-read-docs", prefetch)
    app.connect("env-updated", finish_prefetch)
    app.connect("env-get-outdated", outdated_by_runtime)
    app.connect("env-purge-doc", note_change)
    app.connect("doctree-resolved", mark_digits)
    app.connect("build-finished", report_verdict, priority=400)
    app.connect("build-finished", close, priority=900)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 2}
