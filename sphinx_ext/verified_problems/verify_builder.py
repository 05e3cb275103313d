"""``sphinx-build -b verify``: check every page's digits and write the reports, no HTML.

For CI and pre-commit (``make check``): it reads what changed, like any builder, and the
end-of-build verdict then reports and fails exactly as an HTML build would.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import TYPE_CHECKING

from sphinx.builders import Builder

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx


class VerifyBuilder(Builder):
    """Reads pages (running and checking their snippets) and writes only the reports."""

    name = "verify"
    epilog = "The verification reports are in %(outdir)s."
    allow_parallel = True

    def init(self) -> None:
        pass

    def get_outdated_docs(self) -> Iterable[str]:
        return []

    def get_target_uri(self, docname: str, typ: str | None = None) -> str:
        return ""

    def prepare_writing(self, docnames: Set[str]) -> None:
        pass

    def write_doc(self, docname: str, doctree: nodes.document) -> None:
        pass

    def finish(self) -> None:
        pass


def setup_verify_builder(app: Sphinx) -> None:
    """Register the builder."""
    app.add_builder(VerifyBuilder)
