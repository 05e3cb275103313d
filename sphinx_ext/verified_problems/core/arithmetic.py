"""Does the prose's own arithmetic hold? ``0.4011 + 0.1978 + 0.4011 = 1.0000``, ``e^{-1} = …``.

A free digit only has to be among the printed numbers, so a wrong digit that happens to be
printed elsewhere (``1.0001`` for ``1.0000``, ``0.7071`` for ``-0.7071``) would pass. An
equation whose sides are both plain arithmetic on written numbers can be checked on its own:

- in an equation that names nothing, with ``=``, the left side computed exactly from the
  digits as written, rounded half-even to the right side's decimals, must give the right
  side's digits (``0.4011 + 0.1978 + 0.4011 = 1.0001`` fails);
- with ``\\approx``, or where the chain names a quantity (``O_{31} = 0.2483(1) + 0.2483(0) +
  0.5035(1) = 0.7517``, whose value is checked against the snippet anyway), the sides must
  only be consistent within rounding: some values that round to the written digits make the
  equation true (interval arithmetic);
- two neighbouring sides that are both computations (a derivation's steps, ``3 \\times 13.25 -
  1.5 \\times 1.5 = 39.75 - 2.25 = 37.5``) must be consistent within rounding with each other,
  so that a wrong digit in an earlier step is caught where it stands, not only the last step
  against its result;
- a side that has no value as written (``0.4004 / \\ln 1``, ``\\ln(-11.875)``,
  ``\\sqrt{-0.25}``), equated with one that has, does not hold either.

- two sides that carry different units (``4 \\times 256 \\textrm{ bit} = 128 \\textrm{ bytes}``)
  are not compared: the numbers alone do not say what the equation means.

What is evaluated, and how exactly, is :mod:`.evaluation`'s. Pure: it reads the chains the
LaTeX reader keeps (:class:`~.latex.Equation`); the reader knows nothing of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

from .evaluation import (
    Value,
    admits,
    as_decimal,
    evaluate_term,
    is_number,
    matrix_cells,
    overlap,
    places_shown,
    split_commas,
    term_items,
)
from .latex import Equation
from .latex.grammar import unit_of
from .latex.tokens import Delim
from .values import SourceProblem

_EXACT_RELATIONS = frozenset(["="])
_ROUGH_RELATIONS = frozenset(["\\approx", "≈"])


def check_equations(equations: Sequence[Equation], source: str,
                    log_base: int | None = None) -> list[SourceProblem]:
    """Every equation of a math block that does not hold, where it stands in ``source``.

    ``log_base`` is the base of a bare ``\\log`` in this book (None: natural).
    """
    return [problem for equation in equations
            for problem in check_chain(equation.terms, equation.relations, source,
                                       equation.named, log_base)]


def check_chain(terms: Sequence[Sequence[Any]], relations: Sequence[str], source: str,
                named: bool, log_base: int | None = None) -> list[SourceProblem]:
    """Check each pair of neighbouring terms of a chain that are both arithmetic.

    A term that holds with neither of its neighbours is the wrong step: the two pairs are
    reported once, where it stands (``a = 0.75 + 0.25 = 1.5 = 1`` names the ``1.5``).
    """
    values: dict[int, list[Value] | str | None] = {}

    def evaluated(j: int) -> list[Value] | str | None:  # lazily: most terms are names
        if j not in values:
            values[j] = evaluate_term(terms[j], log_base)
        return values[j]

    mismatches: list[SourceProblem] = []
    by_pair: dict[int, list[SourceProblem]] = {}
    undefined: set[int] = set()
    for k, relation in enumerate(relations):
        if k + 1 >= len(terms) or relation not in _EXACT_RELATIONS | _ROUGH_RELATIONS:
            continue
        left = evaluated(k)
        right = evaluated(k + 1) if left is not None else None
        if left is None or right is None:
            continue
        if isinstance(left, str) or isinstance(right, str):
            for j in (k, k + 1):
                if isinstance(values[j], str) and j not in undefined:
                    undefined.add(j)
                    mismatches += _undefined(terms[j], str(values[j]), source)
            continue
        if len(left) != len(right) or _other_units(terms[k], terms[k + 1]):
            continue
        literal = _literal_side(terms[k], terms[k + 1])
        if literal is None:
            found = _compare_steps(terms[k], terms[k + 1], left, right, source)
        else:
            found = _compare_literal(terms[k:k + 2], literal, left, right, source,
                                     named or relation in _ROUGH_RELATIONS)
        if found:
            by_pair[k] = found
    return mismatches + _at_the_wrong_step(by_pair, terms)


def _compare_literal(pair: Sequence[Sequence[Any]], literal: tuple[int, list[Any]],
                     left: list[Value], right: list[Value], source: str,
                     rough: bool) -> list[SourceProblem]:
    """A computation against the plain numbers written on the other side."""
    side, numbers = literal
    other = left if side == 1 else right
    entries = _entries(pair[1 - side], source, len(numbers))
    found: list[SourceProblem] = []
    for value, number, (written, where) in zip(other, numbers, entries, strict=True):
        problem = _compare(value, number, rough, written)
        if problem is not None:
            found.append(SourceProblem(number.start if where is None else where, problem))
    return found


def _at_the_wrong_step(by_pair: dict[int, list[SourceProblem]],
                       terms: Sequence[Sequence[Any]]) -> list[SourceProblem]:
    """Each failing pair's problems; where a term fails with both its neighbours (pairs k - 1
    and k), their two scalar problems become one, placed at that term."""
    placed: list[SourceProblem] = []
    blamed: set[int] = set()
    for k, problems in sorted(by_pair.items()):
        culprit = k + 1 if k + 1 in by_pair else k if k - 1 in by_pair else None
        scalar = culprit is not None and all(
            len(by_pair.get(j, ())) == 1 for j in (culprit - 1, culprit))
        where = _start(terms[culprit]) if scalar and culprit is not None else None
        if culprit is None or where is None:
            placed += problems
        elif culprit not in blamed:
            blamed.add(culprit)
            placed.append(SourceProblem(where, problems[0].message))
    return placed


def _literal_side(first: Sequence[Any], second: Sequence[Any]) -> tuple[int, list[Any]] | None:
    """Which side is written as plain numbers (the right one if both are), and its numbers."""
    for side, term in ((1, second), (0, first)):
        numbers = _numbers_only(term)
        if numbers is not None:
            return side, numbers
    return None


def _numbers_only(term: Sequence[Any]) -> list[Any] | None:
    items = term_items(term)
    if len(items) == 1 and is_number(items[0]):
        return [items[0]]
    cells = matrix_cells(items)
    if cells is not None:
        entries = [term_items(cell) for cell in cells]
        if all(len(entry) == 1 and is_number(entry[0]) for entry in entries):
            return [entry[0] for entry in entries]
        return None
    if len(items) == 1 and isinstance(items[0], Delim):
        parts = split_commas(items[0].items)
        if all(len(p) == 1 and is_number(p[0]) for p in parts):
            return [p[0] for p in parts]
    return None


def _compare(value: Value, number: Any, rough: bool, written: str) -> str | None:
    number_value = Decimal(number.text)
    places = places_shown(number_value)
    claimed = Fraction(number_value)
    half = Fraction(1, 10**places) / 2
    rounded = round(value.exact, places)  # half to even, exactly
    if rounded == claimed or abs(value.exact - claimed) == half:  # a tie: either rounding
        return None
    margin = Decimal(1).scaleb(-places) / 2
    consistent = admits(value, number_value - margin, number_value + margin)
    if rough and consistent:
        return None
    shown = f"{as_decimal(rounded).quantize(Decimal(1).scaleb(-places)):f}"
    if consistent:
        return (f"the arithmetic does not hold: {written} is {shown} from the digits as written, "
                f"not {number.text}; if the difference is rounding, write \\approx")
    return f"the arithmetic does not hold: {written} is {shown}, not {number.text}"


def _compare_steps(first: Sequence[Any], second: Sequence[Any], left: list[Value],
                   right: list[Value], source: str) -> list[SourceProblem]:
    """Two computations on either side of ``=`` or ``\\approx``: some values that round to
    their written digits must make them equal. Reported where the first one starts: the step
    after it is checked in turn against what follows it."""
    start = _start(first)
    if start is None:
        return []
    for a, b in zip(left, right, strict=True):
        if not overlap(a, b):
            return [SourceProblem(start, f"the arithmetic does not hold: {_text(first, source)} is "
                                    f"{_shown(a.exact)}, but {_text(second, source)} is "
                                    f"{_shown(b.exact)}")]
    return []


def _undefined(term: Sequence[Any], reason: str, source: str) -> list[SourceProblem]:
    """A side with no value, reported where it starts."""
    start = _start(term)
    if start is None:
        return []
    return [SourceProblem(start, f"the arithmetic does not hold: {_text(term, source)} {reason}")]


def _shown(value: Fraction) -> str:
    """A computed value as a message shows it: eight significant digits at most."""
    rounded = as_decimal(value).normalize(Context(prec=8))
    return f"{rounded:f}"


def _other_units(first: Sequence[Any], second: Sequence[Any]) -> bool:
    """Whether the two sides carry units that are not the same (``bit`` and ``bytes``)."""
    units = [_unit(term) for term in (first, second)]
    return None not in units and units[0] != units[1]


def _unit(term: Sequence[Any]) -> str | None:
    """A side's unit, in a form where ``bits`` and ``bit`` agree, if it carries one."""
    written = unit_of(term)
    if written is None:
        return None
    unit = "".join(written.split()).lower()
    return unit[:-1] if len(unit) > 3 and unit.endswith("s") else unit


def _entries(term: Sequence[Any], source: str, count: int) -> list[tuple[str, int | None]]:
    """How each of a computed term's ``count`` entries is quoted, and where one that does not
    hold is reported (None: at the number it should equal).

    A matrix is quoted cell by cell, and a cell is reported where its computation stands: its
    result, on a line of its own, is checked against the snippet anyway (the matrix is a named
    value or, unnamed, must equal a printed array), so the computation is what this adds.
    """
    cells = matrix_cells(term_items(term))
    if cells is not None and len(cells) == count:
        return [(_text(cell, source), _start(cell)) for cell in cells]
    return [(_text(term, source), None)] * count


def _start(term: Sequence[Any]) -> int | None:
    return next((item.start for item in term_items(term) if hasattr(item, "start")), None)


def _text(term: Sequence[Any], source: str) -> str:
    spans = [(item.start, item.end) for item in term_items(term) if hasattr(item, "start")]
    if not spans:
        return "the left side"
    return " ".join(source[spans[0][0] : spans[-1][1]].split())


