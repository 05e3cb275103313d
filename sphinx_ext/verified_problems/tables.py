"""Small docutils tables for the generated pages (the problem index, the verification page)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docutils import nodes


def simple_table(
    headers: Sequence[str], rows: Iterable[Sequence[nodes.Node]], css_class: str
) -> nodes.table:
    """A table with a header row; each cell holds one inline node or text."""
    table = nodes.table(classes=[css_class])
    group = nodes.tgroup(cols=len(headers))
    table += group
    group.extend(nodes.colspec(colwidth=1) for _ in headers)
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
