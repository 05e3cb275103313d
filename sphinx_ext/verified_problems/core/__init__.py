"""The pure core: a page's digits read, compared with a snippet's output, and judged.

Nothing in this package imports Sphinx, docutils or MyST (a test keeps it so), so a pre-commit
hook, a plugin for another documentation engine or a notebook can check digits with it as it
is. Numbers stay the decimal strings that were written or printed, compared as
:class:`decimal.Decimal`; a float never enters.

One page, in four steps:

1. :func:`read_transcript` reads what a snippet printed: its named quantities (``NAME =
   VALUE``) and every number it printed.
2. :func:`read_math` and :func:`read_text` read the prose: named values, free digits, exempt
   numbers, malformed input and a math block's chains of equalities, each with its offsets
   into the text read.
3. :class:`Cursor` places those offsets on the lines of the author's file.
4. :func:`verify` gives the verdict on a snippet's share of the page, one :class:`Verdict`
   per number, by the comparison of :func:`compare` under a :class:`Policy`: every decimal
   named, derived by the prose's arithmetic (its chains, as :class:`PlacedEquation`), printed,
   or given by the snippet's source; a free digit bound, by the page's record
   (:func:`read_record`, matched to the page by :func:`align`), to the one quantity it quotes.

A notebook's own outputs are a transcript too (:func:`cells_transcript`); a page that is an
``.ipynb`` is placed by cell (:func:`cell_lines`, :func:`located`) and edited in its JSON by
:func:`edit_cells`.

Digits an author asks for by name instead of writing them (``\\val{p_1}``) are found by
:func:`find_requests`, read by :func:`read_request` and written by :func:`render_request`
(an :class:`Injection`), before the prose is read.

Every function here takes an author's input as it is and reports what is wrong with it in its
result (:class:`SourceProblem`, a failed :class:`Verdict`); none raises on it. The modules
below this one are the implementation; what is not exported here may change.
"""

from __future__ import annotations

from .binding import (
    NEAR,
    Binding,
    Quantities,
    RecordError,
    align,
    near,
    place_key,
    read_record,
    write_record,
)
from .derivations import PlacedEquation
from .digits import (
    Comparison,
    Policy,
    PrintedPool,
    Rounding,
    Status,
    compare,
    places_for,
    to_decimal,
)
from .injection import (
    VAL_MACRO,
    InjectedCell,
    Injection,
    find_requests,
    read_request,
    render_request,
    written_offset,
)
from .latex import EXEMPT_MACRO, MacroDef
from .notebook import (
    CellEdit,
    CellsRun,
    LayoutError,
    cell_lines,
    cell_of_line,
    cells_transcript,
    edit_cells,
    located,
    read_location,
)
from .printed import (
    Literal,
    index_label,
    literal_places,
    source_assignments,
    source_literals,
    source_values,
)
from .prose import read_math, read_text
from .source_map import Cursor, LineEdit, Position, edit_lines, offset_to_position, source_lines
from .transcript import read_transcript
from .values import (
    Entry,
    NamedValue,
    Placed,
    PlacedValue,
    ProseExtract,
    ProseNumber,
    SourceProblem,
    Transcript,
)
from .verdicts import Outcome, Verdict
from .verify import verify

__all__ = [
    "EXEMPT_MACRO",
    "NEAR",
    "VAL_MACRO",
    "Binding",
    "CellEdit",
    "CellsRun",
    "Comparison",
    "Cursor",
    "Entry",
    "InjectedCell",
    "Injection",
    "LayoutError",
    "LineEdit",
    "Literal",
    "MacroDef",
    "NamedValue",
    "Outcome",
    "Placed",
    "PlacedEquation",
    "PlacedValue",
    "Policy",
    "Position",
    "PrintedPool",
    "ProseExtract",
    "ProseNumber",
    "Quantities",
    "RecordError",
    "Rounding",
    "SourceProblem",
    "Status",
    "Transcript",
    "Verdict",
    "align",
    "cell_lines",
    "cell_of_line",
    "cells_transcript",
    "compare",
    "edit_cells",
    "edit_lines",
    "find_requests",
    "index_label",
    "literal_places",
    "located",
    "near",
    "offset_to_position",
    "place_key",
    "places_for",
    "read_location",
    "read_math",
    "read_record",
    "read_request",
    "read_text",
    "read_transcript",
    "render_request",
    "source_assignments",
    "source_lines",
    "source_literals",
    "source_values",
    "to_decimal",
    "verify",
    "write_record",
    "written_offset",
]
