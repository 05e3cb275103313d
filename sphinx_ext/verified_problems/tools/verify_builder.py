"""``sphinx-build -b verify``: check every page's digits and write the reports, no HTML.

For CI and pre-commit (``make check``): it reads what changed, like any builder, and the
end-of-build verdict then reports and fails exactly as an HTML build would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.builders.dummy import DummyBuilder

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class VerifyBuilder(DummyBuilder):
    """Reads pages (running and checking their snippets) and writes only the reports.

    Sphinx's dummy builder, except that it writes nothing for pages that did not change.
    """

    name = "verify"
    epilog = "The verification reports are in %(outdir)s."

    def get_outdated_docs(self) -> set[str]:
        return set()


def setup_verify_builder(app: Sphinx) -> None:
    """Register the builder."""
    app.add_builder(VerifyBuilder)
