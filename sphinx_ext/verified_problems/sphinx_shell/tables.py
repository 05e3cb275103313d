"""Small docutils tables for the generated pages (the problem index, the verification page)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.errors import NoUri
from sphinx.util.nodes import make_refnode

if TYPE_CHECKING:
    from sphinx.builders import Builder


def link(builder: Builder, fromdoc: str, todoc: str, anchor: str, child: nodes.Node) -> nodes.Node:
    """A reference to ``todoc#anchor``, or ``child`` alone where the builder has no address for
    the page (an orphan page is no part of the LaTeX document: its row keeps its text)."""
    try:
        return make_refnode(builder, fromdoc, todoc, anchor, child)
    except NoUri:
        return child


def simple_table(
    headers: Sequence[str], rows: Iterable[Sequence[nodes.Node]], css_class: str
) -> nodes.table:
    """A table with a header row; each cell holds one inline node or text."""
    rows = [list(cells) for cells in rows]
    table = nodes.table(classes=[css_class])
    group = nodes.tgroup(cols=len(headers))
    table += group
    # Relative widths from the longest text of each column: the text builder lays them out.
    widths = [max([len(header)] + [len(row[k].astext()) for row in rows])
              for k, header in enumerate(headers)]
    group.extend(nodes.colspec(colwidth=width) for width in widths)
    head = nodes.thead()
    head += _row([nodes.Text(h) for h in headers])
    group += head
    body = nodes.tbody()
    body.extend(_row(cells) for cells in rows)
    group += body
    return table


def _row(cells: Sequence[nodes.Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += nodes.paragraph("", "", cell)
        row += entry
    return row
