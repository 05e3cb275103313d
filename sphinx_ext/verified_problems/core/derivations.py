"""The prose's arithmetic on one snippet's share of a page, where prose meets the transcript.

Each chain of the share's math (:class:`PlacedEquation`) is checked by :mod:`.arithmetic`
against what the page knows: the printed values (by name, and the full precision a written
number stands for) and the values derived by the chains before it, in reading order. What
comes back is said of the placed numbers themselves: which are derived (and from what), which
operands may be a printed negative's magnitude, and where the arithmetic does not hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

from .arithmetic import Known, array_readings, check_chain, defined_arrays
from .latex import Equation
from .printed import Printed, name_words
from .terms import NamedArray
from .values import Placed


@dataclass(frozen=True)
class PlacedEquation:
    """A chain of a math block, with the block's LaTeX and the block's numbers as placed.

    ``numbers`` maps each number's offset in ``source`` to the placed number the share's
    lists hold (the same object); ``place`` places any other offset (where a side starts).
    """

    equation: Equation
    source: str
    numbers: Mapping[int, Placed]
    place: Callable[[int], Placed]


@dataclass
class Derivations:
    """What the chains of a share say of its numbers, keyed by the placed number's ``id``."""

    derived: dict[int, tuple[Fraction, str]] = field(default_factory=dict)
    magnitudes: set[int] = field(default_factory=set)
    #: Where each equation that does not hold is reported, why, and where else it may be.
    problems: list[tuple[Placed, str, Placed | None]] = field(default_factory=list)
    #: Each derived number's full value by its digits, and the chain that first derived it:
    #: what an operand of another chain may quote.
    values: dict[str, tuple[Fraction, int]] = field(default_factory=dict)
    #: The chain each operand belongs to.
    operands: dict[int, int] = field(default_factory=dict)
    #: Digits the arithmetic derives exactly (``0.069604``): no rounding, so no breach of the
    #: policy however many places they show.
    exact: set[str] = field(default_factory=set)
    #: What the computation gives, for a number written after one that does not give it.
    computed: dict[int, Fraction] = field(default_factory=dict)
    #: The operands derived as one minus a printed number: a binding, where one was recorded
    #: (a digit since changed into such a complement), still decides.
    complements: set[int] = field(default_factory=set)

    def elsewhere(self, cell: Placed) -> Fraction | None:
        """The value another chain derived with these digits, if one did."""
        found = self.values.get(cell.number.value_text)
        if found is None or self.operands.get(id(cell)) == found[1]:
            return None
        return found[0]


def derive(equations: Sequence[PlacedEquation], printed: Printed,
           log_base: int | None = None) -> Derivations:
    """Check every chain in reading order; a number derived by one is known to the next."""
    found = Derivations()

    def full(prose: str, magnitude: bool) -> tuple[Fraction, ...]:
        values = printed.full(prose, magnitude)
        return values or ((found.values[prose][0],) if prose in found.values else ())

    def provenance(prose: str) -> bool:
        return bool(full(prose, True)) or printed.is_given(prose) \
            or printed.complement(prose) is not None

    defined: dict[str, tuple[NamedArray, NamedArray]] = {}

    def arrays(reading: int) -> Callable[[str], NamedArray | None]:
        """Printed arrays, then those the prose wrote out, in one reading (0: as written)."""
        return lambda name: printed.array(name) or (
            defined[name][reading] if name in defined else None)

    known = Known(printed.policy.decimals, full, printed.scalar, provenance, log_base,
                  printed.values, printed.arrangement, arrays(1), printed.array_words,
                  arrays(0), printed.differing_cells)
    for chain, placed in enumerate(equations):
        result = check_chain(placed.equation, placed.source, known)
        known = _defining(placed.equation, printed, defined, known)
        for start, (value, origin) in result.derived.items():
            number = placed.numbers.get(start)
            if number is not None:
                found.derived[id(number)] = (value, origin)
                found.values.setdefault(number.number.value_text, (value, chain))
                if start in result.exact:
                    found.exact.add(number.number.value_text)
        for start in result.operands & set(placed.numbers):
            _complement(placed.numbers[start], printed, full, found)
        for start in result.covered & set(placed.numbers):
            found.derived[id(placed.numbers[start])] = (Fraction(0), "a step that does not hold")
        for start in result.operands:
            if start in placed.numbers:
                found.operands[id(placed.numbers[start])] = chain
        found.magnitudes |= {id(placed.numbers[start]) for start in result.magnitudes
                             if start in placed.numbers}
        found.problems += [(_placed(placed, problem.where), problem.message,
                            None if problem.instead is None else placed.place(problem.instead))
                           for problem in result.problems]
        found.computed.update((id(placed.numbers[problem.where]), problem.computed)
                              for problem in result.problems
                              if problem.computed is not None and problem.where in placed.numbers)
    return found


def _defining(equation: Equation, printed: Printed,
              defined: dict[str, tuple[NamedArray, NamedArray]], known: Known) -> Known:
    """What the page knows once a chain has defined arrays by name that the snippet did not
    print (a printed one is what its name means), as written and carried: their words, for
    the next chains."""
    def unknown(name: str) -> bool:
        return printed.array(name) is None and printed.scalar(name) is None

    new = {name: array_readings(literal, known)
           for name, literal in defined_arrays(equation, unknown)}
    if not new:
        return known
    defined.update(new)
    return replace(known, array_words=known.array_words | name_words(new))


def _complement(number: Placed, printed: Printed,
                full: Callable[[str, bool], tuple[Fraction, ...]], found: Derivations) -> None:
    """An operand with no provenance of its own that is one minus a printed or given number
    is derived from it (``0.99`` of a printed prevalence 0.01)."""
    text = number.number.value_text
    if id(number) in found.derived or full(text, True) or printed.is_given(text):
        return
    origin = printed.complement(text)
    if origin is not None:
        found.derived[id(number)] = (Fraction(Decimal(text)), origin)
        found.complements.add(id(number))


def _placed(placed: PlacedEquation, offset: int) -> Placed:
    """The placed number at an offset (the same object the share holds), or a new place."""
    number = placed.numbers.get(offset)
    return number if number is not None else placed.place(offset)
