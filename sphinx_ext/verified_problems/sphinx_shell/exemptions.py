"""Explicit exemptions: what an author marks as not to be checked, and nothing else.

``{unchecked}`0.5``` in text, ``\\unchecked{0.5}`` in math (a macro that renders its argument
unchanged) and a ``:::{unchecked}`` passage. Exempted numbers are counted and listed in the
report as exempt; nothing is exempt silently.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from . import nodes as vnodes

if TYPE_CHECKING:
    from docutils.nodes import Node
    from sphinx.application import Sphinx


def unchecked_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any,
    options: dict[str, Any] | None = None, content: list[str] | None = None,
) -> tuple[list[Node], list[nodes.system_message]]:
    """``{unchecked}`TEXT```: TEXT as written, its numbers exempt from checking."""
    node = nodes.inline(rawtext, text, classes=["verified-unchecked"])
    node[vnodes.EXEMPT_ATTRIBUTE] = True
    return [node], []


class UncheckedDirective(SphinxDirective):
    """``:::{unchecked}``: a passage whose numbers are exempt (quoted data, say)."""

    has_content = True

    def run(self) -> list[Node]:
        container = nodes.container(classes=["verified-unchecked"])
        container[vnodes.EXEMPT_ATTRIBUTE] = True
        self.set_source_info(container)
        container += self.parse_content_to_nodes(allow_section_headings=False)
        return [container]


def setup_exemptions(app: Sphinx) -> None:
    """Register the role and the directive."""
    app.add_role("unchecked", unchecked_role)
    app.add_directive("unchecked", UncheckedDirective)
