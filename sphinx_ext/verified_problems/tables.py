"""Small docutils tables for the generated pages (the problem index, the verification page)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from docutils import nodes


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
