"""The prose of a parsed page, as regions of numbers placed on the author's lines.

:func:`regions` walks a doctree in reading order and yields each math node and each text of
prose that holds a number (:class:`Region`), with the heading it stands under and what tells its
numbers' places apart for a binding record: the text around each, a table cell's row and
column, an inline formula's paragraph. :func:`place_number` puts a number of a region on its
file's line and column (:mod:`.page_check` gives the regions to the checks that own them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from ..core import (
    NEAR,
    Cursor,
    Placed,
    Position,
    ProseExtract,
    ProseNumber,
    cell_lines,
    near,
    offset_to_position,
    read_math,
    read_text,
    source_lines,
    written_offset,
)
from . import nodes as vnodes

if TYPE_CHECKING:
    from .config import VerifiedConfig

#: Nodes whose text is not prose: code, markup, and what the extension itself writes.
_SKIP = (
    nodes.literal_block,
    nodes.literal,
    nodes.raw,
    nodes.comment,
    nodes.doctest_block,
    nodes.target,
    nodes.substitution_definition,
    nodes.system_message,
    addnodes.toctree,
    vnodes.numeric_check,
    vnodes.problem_header,
)

@dataclass
class Region:
    """The numbers one node of prose holds, already placed in the source."""

    node: nodes.Node
    extract: ProseExtract
    placed: dict[int, Position | None]
    context: str
    exempt: bool
    #: Where a math block's lines stand in its file, to place any other offset on demand.
    block_lines: list[Position | None] | None = None
    latex: str = ""
    #: The text the numbers' offsets are into (the LaTeX of math), and for a table cell where
    #: it stands in its table: what tells the numbers' places apart for a binding.
    text: str = ""
    cell: str = ""
    #: The text of the paragraph just before and after an inline formula.
    around: tuple[str, str] = ("", "")
    #: The text node a region of plain text was read from (its ``node`` is the parent).
    text_node: nodes.Text | None = None
    #: Math with printed values injected (:mod:`.injection`): its LaTeX as written, and where
    #: each injection stands now and as written, so that offsets are placed as written.
    written: str = ""
    shifts: tuple[tuple[int, int, int, int], ...] = ()

    def position(self, offset: int) -> Position | None:
        """Where an offset of this region stands; placed once, when first asked for."""
        if offset not in self.placed and self.block_lines is not None:
            self.placed[offset] = offset_to_position(self.written or self.latex,
                                                     self.block_lines,
                                                     written_offset(self.shifts, offset))
        return self.placed.get(offset)


class _Walker:
    """Walks the doctree in reading order, keeping the heading a number stands under."""

    def __init__(self, config: VerifiedConfig, source: str) -> None:
        self.config = config
        self.source = source
        self.cursors: dict[tuple[str, int], Cursor] = {}
        self.lines: dict[str, tuple[str, ...]] = {}  # by path: one read (and stat) a page
        self.context = ""

    def walk(self, node: nodes.Node, exempt: bool) -> Iterator[Region]:
        if isinstance(node, _SKIP) or (
            isinstance(node, nodes.Element) and node.get(vnodes.SKIP_ATTRIBUTE)
        ):
            return
        if isinstance(node, nodes.Element) and node.get(vnodes.EXEMPT_ATTRIBUTE):
            exempt = True
        if isinstance(node, nodes.math | nodes.math_block):
            yield self._math(node, exempt)
            return
        if isinstance(node, nodes.Text):
            region = self._text(node, exempt)
            if region is not None:
                yield region
            return
        saved = self.context
        if isinstance(node, nodes.section) and node.children:
            self.context = node[0].astext()
        elif isinstance(node, nodes.paragraph) and node.children and isinstance(
            node[0], nodes.strong
        ):
            self.context = node[0].astext().rstrip(" .:")
        for child in node.children:
            yield from self.walk(child, exempt)
        if isinstance(node, nodes.section):
            self.context = saved

    def _cursor(self, node: nodes.Node) -> Cursor:
        anchor = node
        while anchor is not None and not getattr(anchor, "line", None):
            anchor = anchor.parent  # none, or 0: sphinx-design gives a dropdown's title line 0
        if anchor is None:
            anchor = node
        path = getattr(anchor, "source", None) or self.source
        line = (getattr(anchor, "line", None) or 1) - 1
        # One cursor a source line: the cells of a table row each stand on the row's line, and
        # a second 0.5 in the row must be found after the first, not at it again.
        cursor = self.cursors.get((path, line))
        if cursor is None:
            cursor = self.cursors[(path, line)] = self._new_cursor(path, line)
        return cursor

    def _new_cursor(self, path: str, line: int) -> Cursor:
        if path.endswith(".ipynb"):  # MyST-NB numbers each cell's lines from its own base
            cell = cell_lines(path, line + 1)
            return Cursor(cell[0], line, origin=cell[1]) if cell else Cursor((), line)
        lines = self.lines.get(path)
        if lines is None:
            lines = self.lines[path] = source_lines(path)
        return Cursor(lines, line)

    def _math(self, node: nodes.Element, exempt: bool) -> Region:
        latex = node.astext()
        extract = read_math(latex, self.config.macros)
        written = node.get(vnodes.WRITTEN_ATTRIBUTE, "")
        placed_lines = self._cursor(node).place_block(written or latex)
        shifts = tuple(span[:4] for span in node.get(vnodes.INJECTED_ATTRIBUTE, ()))
        return Region(node, extract, {}, self.context, exempt, placed_lines, latex, latex,
                       _table_cell(node), _around(node), written=written, shifts=shifts)

    def _text(self, node: nodes.Text, exempt: bool) -> Region | None:
        text = str(node)
        if not any(c.isdigit() for c in text):
            return None
        extract = read_text(text)
        if not (extract.free or extract.named or extract.problems):
            return None
        cursor = self._cursor(node.parent)
        placed = {n.start: cursor.find_number(text[n.start:n.end]) for n in extract.free}
        return Region(node.parent, extract, placed, self.context, exempt, text=text,
                       cell=_table_cell(node), text_node=node)


def _around(node: nodes.Node) -> tuple[str, str]:
    """The text just before and after an inline node in its paragraph (none for a block)."""
    parent = node.parent
    if isinstance(node, nodes.math_block) or parent is None:
        return "", ""
    at = parent.index(node)
    before = "".join(child.astext() for child in parent.children[max(0, at - 2):at])
    after = "".join(child.astext() for child in parent.children[at + 1:at + 3])
    return before[-NEAR:], after[:NEAR]


def _table_cell(node: nodes.Node) -> str:
    """Where a node stands in a table, if it does: the row's first cell and the column (a
    cell that holds only a number has no text around it to be told apart by)."""
    entry = node
    while entry is not None and not isinstance(entry, nodes.entry):
        entry = entry.parent
    if entry is None or not isinstance(entry.parent, nodes.row):
        return ""
    row = entry.parent
    return f"{near(row[0].astext(), 0, 0)}|{row.index(entry)}|"


def numbers_of(extract: ProseExtract) -> list[ProseNumber]:
    """Every number a region holds: its named values' cells, its free and exempt numbers."""
    return [c for v in extract.named for c in v.cells] + extract.free + extract.exempt


def regions(doctree: nodes.document, config: VerifiedConfig, source: str) -> Iterator[Region]:
    """The page's regions of prose that hold numbers, in reading order."""
    yield from _Walker(config, source).walk(doctree, exempt=False)


def place_number(region: Region, number: ProseNumber) -> Placed:
    """A number of a region on its file's line and column, with its heading and the masked
    text around it (what a binding record finds it again by)."""
    position = region.position(number.start)
    column = position[1] if position is not None else None
    before, after = region.around
    around = region.cell + near(before + region.text + after, number.start + len(before),
                                number.end + len(before)) if number.text else ""
    return Placed(number, line_of(region, number.start), column, region.context, around)


def line_of(region: Region, offset: int) -> int | None:
    """The 1-based source line of an offset in a region, or its block's line if unplaced."""
    position = region.position(offset)
    return position[0] + 1 if position is not None else vnodes.source_line(region.node)


def offset_placer(region: Region) -> Callable[[int], Placed]:
    """Places any offset of a region (where an equation's side starts) as a number would be."""
    def place(offset: int) -> Placed:
        return place_number(region, ProseNumber("", offset, offset, False))
    return place
