"""Value types shared by the functional core (no Sphinx import here).

The core passes numbers around as the decimal strings that were written or printed, never as
floats: the comparison in :mod:`.digits` must see exactly the digits a person typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class ProseNumber:
    """A number as the prose writes it, with where it stands in the text it was read from.

    ``text`` is a canonical numeric string that :class:`decimal.Decimal` parses: the digits as
    written, with a leading ``-`` when the prose wrote a unary minus (``e^{-0.7071}``), and
    LaTeX scientific notation folded in (``1.2 \\times 10^{-5}`` becomes ``1.2e-5``).
    ``start``/``end`` delimit the written form (sign included) in the extractor's input, so a
    location or a fix can be made from them.
    """

    text: str
    start: int
    end: int
    decimal: bool
    exempt: bool = False
    #: Written as a percentage (``82.47\\%``, ``2.45 %``): it stands for its hundredth.
    percent: bool = False

    @property
    def value_text(self) -> str:
        """The number it stands for, as a decimal string: ``82.47%`` is ``0.8247``."""
        if not self.percent:
            return self.text
        return f"{Decimal(self.text).scaleb(-2):f}"


@dataclass(frozen=True)
class NamedValue:
    """A literal that the prose gives a name: ``\\mat{A} = \\begin{bmatrix}...``.

    ``names`` are normalised (``A``, ``a_1``, ``O_11``, ``d_k``, ``alpha``): every name of a
    chain of equalities. A tuple or matrix of decimals that no name is given has no names: it
    must match a printed array as a whole. ``cells`` are row-major, ``shape`` is ``()`` for a
    scalar, ``(n,)`` for a tuple and ``(rows, columns)`` for a matrix.
    """

    names: tuple[str, ...]
    shape: tuple[int, ...]
    cells: tuple[ProseNumber, ...]
    start: int


@dataclass(frozen=True)
class Placed:
    """A prose number with the page position the caller resolved for it."""

    number: ProseNumber
    line: int | None
    column: int | None
    context: str
    #: The text around the number, its numbers masked (:func:`~.binding.near`): how a binding
    #: record finds the number again after edits elsewhere.
    near: str = ""


@dataclass(frozen=True)
class PlacedValue:
    """A named value with its cells placed."""

    value: NamedValue
    cells: tuple[Placed, ...]


@dataclass(frozen=True)
class SourceProblem:
    """Something malformed in an input, at an offset (prose) or a line (transcript).

    ``instead`` is where else it may stand: an equation that does not hold is reported at the
    number written after the computation, or at the computation (``instead``) where that
    number is the printed one; ``computed`` is then what the computation gives.
    """

    where: int
    message: str
    instead: int | None = None
    computed: Fraction | None = None


@dataclass
class ProseExtract:
    """Everything the checker needs from one piece of prose (a math block or a text run)."""

    named: list[NamedValue] = field(default_factory=list)
    free: list[ProseNumber] = field(default_factory=list)
    exempt: list[ProseNumber] = field(default_factory=list)
    problems: list[SourceProblem] = field(default_factory=list)
    #: A math block's chains (:class:`~.latex.Equation`), for the prose's arithmetic, which
    #: needs the transcript (:mod:`.derivations`).
    equations: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class Entry:
    """A quantity the snippet printed as ``NAME = VALUE``: its values flattened row-major."""

    name: str
    shape: tuple[int, ...]
    values: tuple[str, ...]
    line: int


@dataclass
class Transcript:
    """A parsed snippet output: named entries, every number printed, and what could not be read.

    ``numbers`` holds every number in the output, in order, including those of named entries:
    a free digit in the prose may quote any of them.
    """

    entries: dict[str, Entry] = field(default_factory=dict)
    numbers: tuple[str, ...] = ()
    problems: list[SourceProblem] = field(default_factory=list)
    #: The numbers printed outside a named entry, each with its 1-based output line: what a
    #: free digit quoting one is bound to (``output line 7``).
    unnamed: tuple[tuple[int, str], ...] = ()
    #: The numbers of free text printed with a percent sign after them (``removed 0.84%``):
    #: percentages themselves, which the prose quotes with their digits as written.
    percentages: tuple[str, ...] = ()
