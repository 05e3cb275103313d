r"""Does the prose's own arithmetic hold, by the book's policy? And which numbers does it derive?

The policy of a book of worked problems: intermediate quantities carry full precision; only
what is written is rounded. So an equation of numbers holds when it holds for the digits as
written, or for the full-precision values those numbers stand for (the printed values, or
values derived on the page, that round to them): each result rounded to the places it is
written with, padded to the policy's (an integer ``4`` claims 4.0000), must give its digits.
There is no tolerance beyond that rounding:

- ``-\ln 0.7311 = 0.3133`` holds when the snippet printed 0.73105857 (as written it gives
  0.3132); ``1.0549 - 1.0297 = 0.0252`` holds as written;
- ``0.4011 + 0.1978 + 0.4011 = 1.0001`` fails both ways, and ``3.7678 - 0.2322 = 4`` fails
  (the 4 claims 4.0000);
- two neighbouring sides that are both computations (a derivation's steps, ``0.9 \times 0.9 +
  0.1 \times 0.3 = 0.81 + 0.03``) must agree at the policy's places (exactly, if both are
  exact), so that a wrong digit in an earlier step is caught where it stands; at full
  precision, a decimal of a step stands for the part of the step before it that rounds to it;
- a printed name equated with a computation of no decimals (``p = \frac{1}{3}``) must be it;
- a side that has no value (``0.4004 / \ln 1``, ``\sqrt{-0.25}``), equated with one that has,
  does not hold either; two sides that carry different units (``bit`` and ``bytes``) are not
  compared.

A chain of computations also **derives** numbers (DESIGN §3): of its sides that are arithmetic,
the first whose decimals all have a provenance of their own is where its operands stand
(``1 + e^{0.3}``); the decimals of its results (``= 2.3499``) and of its later steps that are
parts of the step before them (``= 0.81 + 0.03``) are derived and need no print. The operands,
and a later step's decimals that are no part of the step before, still need a provenance, and
may be the magnitude of a printed negative (``-0.54 - 0.58``).

What is evaluated, and how exactly, is :mod:`.evaluation`'s. Pure: the caller says what the
page knows (:class:`Known`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

from .blame import (
    at_the_wrong_step,
    cell_orders,
    entry_starts,
    parts_that_differ,
    quoted_entries,
    start_of,
    text_of,
)
from .evaluation import (
    ABSOLUTE,
    NotArithmetic,
    Value,
    as_decimal,
    evaluate_term,
    number_value,
    places_shown,
    rounded_text,
)
from .latex import Equation
from .latex.grammar import Literal, NameTuple, classify, rows_of, unit_of
from .latex.tokens import Delim, Env, Num, is_tok, walk
from .latex.vocabulary import EITHER_SIGN, MINUS
from .printed import listed
from .terms import (
    Lookup,
    NamedArray,
    entries_of,
    extreme_of,
    is_number,
    matrix_cells,
    split_commas,
    term_items,
    uses_arrays,
)
from .values import SourceProblem

#: The relations across which both sides are one value.
EQUALITIES = frozenset(["=", "\\approx", "≈", "\\simeq"])


@dataclass(frozen=True)
class Known:
    """What the page knows beyond the digits as written.

    ``full`` gives the full-precision values a written number may stand for (``value_text``
    and whether only its magnitude must agree), ``name`` the value of a printed scalar (None:
    unknown), ``provenance`` whether a written number has one without this chain (printed,
    given, derived elsewhere); ``places`` is the policy's. ``values`` gives every value of a
    printed name with its label, row-major (a scalar's one, an array's all), so that a name
    equated with a tuple or matrix of computations is compared entry by entry;
    ``arrangement`` whether numbers written as a tuple or matrix (of ``ndim`` axes) are a
    printed array (True), printed numbers otherwise arranged (False) or not all printed
    (None): where a computation and the result written after it disagree, it says which is
    wrong. ``array`` gives a printed array's shape and values by its name, so that a
    computation with it is evaluated.
    """

    places: int
    full: Callable[[str, bool], tuple[Fraction, ...]]
    name: Callable[[str], Fraction | None]
    provenance: Callable[[str], bool] = lambda _text: False
    log_base: int | None = None
    values: Callable[[str], tuple[tuple[str, Fraction], ...] | None] = lambda _name: None
    arrangement: Callable[[Sequence[str], int], bool | None] = lambda _texts, _ndim: None
    #: The shape and values of a printed array a name means (``B\\vec{v}_1`` is computed).
    array: Callable[[str], NamedArray | None] = lambda _name: None
    array_words: frozenset[str] = frozenset()
    #: The same as the prose's digits write them, for the reading as written (an array the
    #: prose writes out carries the printed values its digits stand for only at full precision).
    written_array: Callable[[str], NamedArray | None] | None = None
    #: Which numbers written as one tuple or matrix differ from the printed array most like
    #: them (:meth:`.printed.Printed.differing_cells`): where a changed entry stands.
    differing: Callable[[Sequence[str], int], list[int]] = lambda _texts, _ndim: []


@dataclass
class ChainResult:
    """What one chain says: where it does not hold, what it derives, which operands are
    magnitudes. Offsets are the numbers' starts in the block."""

    problems: list[SourceProblem] = field(default_factory=list)
    #: Each derived number's value and the computation it is derived from.
    derived: dict[int, tuple[Fraction, str]] = field(default_factory=dict)
    magnitudes: set[int] = field(default_factory=set)
    #: The decimals the chain computes from: they need a provenance of their own.
    operands: set[int] = field(default_factory=set)
    #: The derived results whose digits are the exact value of their computation.
    exact: set[int] = field(default_factory=set)
    #: The digits of a step that does not hold: its error is theirs.
    covered: set[int] = field(default_factory=set)


def defined_arrays(equation: Equation, unknown: Callable[[str], bool]
                   ) -> Iterator[tuple[str, Literal]]:
    """The names (of those ``unknown`` says the page knows nothing of) a chain equates with a
    tuple or matrix of numbers written out (``B = \\begin{pmatrix} 4 & 0 \\\\ 3 & -5
    \\end{pmatrix}``), with that literal: an array the prose defines, which a later computation
    may use by its name (``B\\vec{v}_1``)."""
    terms = equation.terms
    for k, relation in enumerate(equation.relations):
        if relation not in EQUALITIES or k + 1 >= len(terms) or not _written_out(terms[k + 1]):
            continue
        name = classify(terms[k])
        if not isinstance(name, str) or not unknown(name):
            continue
        value = classify(terms[k + 1])
        if isinstance(value, Literal) and len(value.cells) > 1 and len(value.shape) in (1, 2) \
                and all(is_number(c) for c in value.cells):
            yield name, value


def _written_out(term: Sequence[Any]) -> bool:
    """Whether a side may be a tuple or matrix of numbers (checked first: classify costs more)."""
    items = term_items(term)
    return len(items) == 1 and isinstance(items[0], Env | Delim)


def array_readings(literal: Literal, known: Known) -> tuple[NamedArray, NamedArray]:
    """An array the prose writes out, as written and as the policy carries it (a number that
    stands for one printed value is that value)."""
    return ((literal.shape, tuple(cell.text for cell in literal.cells)),
            (literal.shape, tuple(_carried(cell, known) for cell in literal.cells)))


def _carried(number: Num, known: Known) -> str:
    """A written number's digits, or those of the one printed value it stands for."""
    found = known.full(number.prose().value_text, False)
    return f"{as_decimal(found[0]):f}" if len(found) == 1 else number.text


def check_chain(equation: Equation, source: str, known: Known) -> ChainResult:
    """Check each pair of neighbouring sides of a chain that are both arithmetic; say what the
    chain derives.

    A side that holds with neither of its neighbours is the wrong step: the two pairs are
    reported once, where it stands (``a = 0.75 + 0.25 = 1.5 = 1`` names the ``1.5``).
    """
    chain = _Chain(equation, source, known)
    result = ChainResult(magnitudes=chain.magnitudes)
    by_pair: dict[int, list[SourceProblem]] = {}
    undefined: set[int] = set()
    result.problems += chain.printed_names()
    for k in chain.pairs():
        left, right = chain.written[k], chain.written[k + 1]
        if isinstance(left, str) or isinstance(right, str):
            result.problems += chain.undefined(k, undefined)
        elif found := chain.compare(k):
            by_pair[k] = found
    result.problems += at_the_wrong_step(by_pair, equation.terms)
    failing = bool(result.problems)
    operands = chain.operands(failing)
    result.operands = {n.start for n in operands}
    result.magnitudes |= result.operands  # an operand may be a printed negative's magnitude
    result.derived = chain.derived(failing)
    fresh = chain.fresh(operands)
    if result.problems:  # a wrong step's digits: the arithmetic's error says all there is
        result.covered = fresh
    else:
        result.operands |= fresh
        result.magnitudes |= fresh
    result.exact = chain.exact
    return result


class _Chain:
    """One chain's sides, evaluated as written and at full precision.

    At full precision, a decimal stands for a printed value that rounds to it, or for the value
    of a part of the side before it that rounds to it (a step that writes ``\\frac{3.2189}{
    0.5108}`` for ``\\frac{\\ln 25}{-\\ln 0.6}`` carries ln 25 and -ln 0.6 on).
    """

    def __init__(self, equation: Equation, source: str, known: Known) -> None:
        self.terms = equation.terms
        self.relations = equation.relations
        self.source = source
        self.known = known
        self.magnitudes = {n.start for term in self.terms for n in _magnitudes(term)}
        names = self._lookup({}, full=False)
        self.seen: list[list[Fraction]] = [[] for _ in self.terms]
        self.literals = [_literal_numbers(term) for term in self.terms]
        self.written = [self._literal(j) if self.literals[j] is not None
                        else None if _is_name(term)
                        else evaluate_term(term, known.log_base, names, self.seen[j])
                        for j, term in enumerate(self.terms)]
        self.names = names
        #: The decimals of a step that stand for a part of the step before it.
        self.carried: set[int] = set()
        #: What each computation's numbers stand for at full precision.
        self.lookups: dict[int, Lookup] = {}
        self.full = self._full_values()
        #: The results the chain derives exactly, digit for digit (``= 0.069604``).
        self.exact: set[int] = set()
        #: The pairs of computations compared and found to hold (by the left one's index).
        self.held: set[int] = set()

    def _lookup(self, numbers: dict[int, Fraction], full: bool) -> Lookup:
        """What the evaluation knows: the values written numbers stand for, and the names' (at
        full precision, or as the prose writes them)."""
        known = self.known
        array = known.array if full or known.written_array is None else known.written_array
        return Lookup(numbers, known.name, array, known.array_words)

    def _literal(self, j: int) -> list[Value] | None:
        """A side of plain numbers, as written (no evaluation needed)."""
        numbers = self.literals[j]
        assert numbers is not None
        try:
            values = [number_value(number) for number in numbers]
        except NotArithmetic:
            return None
        self.seen[j] = [value.value for value in values]
        return values

    def _full_values(self) -> list[list[Value] | str | None]:
        """Each side at full precision, from the first to the last."""
        full: list[list[Value] | str | None] = []
        before: list[Fraction] = []
        for j, term in enumerate(self.terms):
            if not isinstance(self.written[j], list) or self.literals[j] is not None:
                full.append(self.written[j])
                before = self.seen[j] if self.literals[j] is not None else []
                continue
            numbers: dict[int, Fraction] = {}
            for number in _decimals(term):
                value = self._standing_for(number, before)
                if value is not None:
                    numbers[number.start] = value
            seen: list[Fraction] = []
            self.lookups[j] = self._lookup(numbers, full=True)
            full.append(evaluate_term(term, self.known.log_base, self.lookups[j], seen))
            linked = j < len(self.relations) and self.relations[j] in EQUALITIES
            before = seen + self.seen[j] if linked else []
        return full

    def _standing_for(self, number: Num, before: list[Fraction]) -> Fraction | None:
        """The full-precision value a written decimal stands for, if the page knows one: a
        part of the step before it (the decimal is then carried), or a printed value."""
        magnitude = number.start in self.magnitudes
        written = number_value(number).value
        for value in before:  # in the sign written: the steps' agreement checks the signs
            if _rounds_to(abs(value), number, self.known.places, magnitude=True):
                self.carried.add(number.start)
                return abs(value) * (1 if written >= 0 else -1)
        found = self.known.full(number.prose().value_text, magnitude)
        return found[0] if found else None

    def printed_names(self) -> list[SourceProblem]:
        """A printed name equated with a computation (``p = \\frac{1}{3}``, ``y = \\sqrt{3}``,
        ``p = (\\frac12, \\frac14, \\frac14)``, ``x = 0.5 \\times 0.6``): each printed value
        must be what its entry computes at the policy's places, as written or at full
        precision. A chain with plain numbers in it is left to them: the name is checked
        against the numbers (the named value's check), and the numbers against the
        computation; only a computation of no decimals is compared with the name as well."""
        found: list[SourceProblem] = []
        for k, relation in enumerate(self.relations):
            if relation not in EQUALITIES or k + 1 >= len(self.terms):
                continue
            for name, other in ((k, k + 1), (k + 1, k)):
                found += self._printed_name(name, other)
        return found

    def _printed_name(self, name: int, other: int) -> list[SourceProblem]:
        computed, term = self.written[other], self.terms[other]
        if isinstance(computed, str):
            return self._printed_name_undefined(name, other, computed)
        numbers = any(literal is not None for literal in self.literals)
        if not isinstance(computed, list) or self.literals[other] is not None \
                or (numbers and _decimals(term)) or uses_arrays(term, self.names):
            return []  # no computation to compare (checked first: classify costs more); one
            # of printed arrays by name only against digits written (a name may mean another)
        kind = classify(self.terms[name])
        margin = _margin(term)  # a margin, unless the name lists two (\lambda_{1,2} = a \pm b)
        if margin and not (isinstance(kind, str) and listed(kind)):
            return []
        values = self._named_values(name)
        if values is None:
            return []
        start = start_of(term)
        if len(computed) != len(values):
            return [] if numbers or start is None else [SourceProblem(start, (
                f"{kind}: printed {len(values)} values, but {text_of(term, self.source)} "
                f"computes {len(computed)}"))]
        readings = self._values(other)
        if margin:  # the two roots, whichever the snippet printed first
            values = tuple(sorted(values, key=lambda labelled: labelled[1]))
            readings = [sorted(reading, key=lambda value: value.value) for reading in readings]
        places = max(self.known.places, _places_in(term))
        starts = entry_starts(term, len(values))
        quoted = [entry[0] for entry in quoted_entries(term, self.source, len(values))]
        found: list[tuple[int, str]] = []
        for i, ((label, value), at) in enumerate(zip(values, starts, strict=True)):
            shown = max(places, _significant_places(readings[-1][i].value, value))
            if at is None or any(_agree(Value(value, False), reading[i], shown)
                                 for reading in readings):
                continue
            found.append((at, f"{label}: printed {_shown(value)}, but {quoted[i]} is "
                              f"{_shown(readings[-1][i].value)}"))
        factor = self._unprinted_factor(term) if found else []  # once, and only if needed
        return [SourceProblem(place, message) for at, message in found
                for place in factor or [at]]

    def _named_values(self, name: int) -> tuple[tuple[str, Fraction], ...] | None:
        """The printed values side ``name`` names, with their labels (None: it names none)."""
        kind = classify(self.terms[name])
        return self.known.values(kind) if isinstance(kind, str) else None

    def _printed_name_undefined(self, name: int, other: int, reason: str
                                ) -> list[SourceProblem]:
        """A printed name equated with what has no value (``\\lambda_{1,2} = \\frac{23 \\pm
        \\sqrt{-493}}{6}``): it does not hold."""
        values = self._named_values(name)
        start = start_of(self.terms[other])
        if not values or start is None:
            return []
        labels = ", ".join(label for label, _value in values)
        printed = ", ".join(_shown(value) for _label, value in values)
        return [SourceProblem(start, f"{labels}: printed {printed}, but "
                                     f"{text_of(self.terms[other], self.source)} {reason}")]

    def pairs(self) -> Iterator[int]:
        """The pairs of neighbouring sides (by the left one's index) that are both arithmetic."""
        for k, relation in enumerate(self.relations):
            if (k + 1 < len(self.terms) and relation in EQUALITIES
                    and self.written[k] is not None and self.written[k + 1] is not None):
                yield k

    def undefined(self, k: int, seen: set[int]) -> list[SourceProblem]:
        found: list[SourceProblem] = []
        for j in (k, k + 1):
            reason = self.written[j]
            if isinstance(reason, str) and j not in seen:
                seen.add(j)
                start = start_of(self.terms[j])
                if start is not None:
                    found.append(SourceProblem(start, "the arithmetic does not hold: "
                                               f"{text_of(self.terms[j], self.source)} {reason}"))
        return found

    def compare(self, k: int) -> list[SourceProblem]:
        left, right = self.written[k], self.written[k + 1]
        assert isinstance(left, list) and isinstance(right, list)
        first, second = self.terms[k], self.terms[k + 1]
        if len(left) != len(right) or _other_units(first, second):
            return []
        literal = _literal_side(first, second)
        if literal is None:
            return self._compare_arguments(k) or self._compare_steps(k)
        return self._compare_literal(k, *literal)

    def _compare_arguments(self, k: int) -> list[SourceProblem]:
        """``\\max(2 + 0.5 \\cdot 5,\\; 5) = \\max(4.5,\\; 5)``: a step that works out the
        arguments of one ``\\max`` or ``\\min`` gives each of them, one by one (a wrong one
        that is not the largest would pass as the value). Reported at the first that differs."""
        first, second = (extreme_of(term_items(self.terms[j])) for j in (k, k + 1))
        if first is None or second is None or first.largest != second.largest \
                or len(first.arguments) != len(second.arguments):
            return []
        for a, b in zip(first.arguments, second.arguments, strict=True):
            readings = [[self._argument(a, k, full), self._argument(b, k + 1, full)]
                        for full in (False, True)]
            places = max(self.known.places, _places_in(a), _places_in(b))
            if any(x is None or y is None or _agree(x, y, places) for x, y in readings):
                continue
            x, y = readings[-1]
            start = start_of(b)
            assert x is not None and y is not None
            return [] if start is None else [SourceProblem(start, (
                f"the arithmetic does not hold: {text_of(a, self.source)} is {_shown(x.value)}, "
                f"but {text_of(b, self.source)} is {_shown(y.value)}"))]
        return []

    def _argument(self, items: Sequence[Any], j: int, full: bool) -> Value | None:
        """One argument's value, as written or at full precision (None: not one value)."""
        lookup = self.lookups.get(j, self.names) if full else self.names
        values = evaluate_term(items, self.known.log_base, lookup)
        return values[0] if isinstance(values, list) and len(values) == 1 else None

    def _values(self, j: int) -> list[list[Value]]:
        """Side ``j`` as written and at full precision (the same, where nothing stands for
        more than its digits)."""
        written, full = self.written[j], self.full[j]
        assert isinstance(written, list)
        return [written, full if isinstance(full, list) else written]

    def _compare_literal(self, k: int, side: int, numbers: list[Num]) -> list[SourceProblem]:
        """A computation against the plain numbers written on the other side."""
        computed = k if side == 1 else k + 1
        readings = self._values(computed)
        entries = quoted_entries(self.terms[computed], self.source, len(numbers))
        wrong = [i for i, number in enumerate(numbers)
                 if not any(_rounds_to(values[i].value, number, self.known.places)
                            for values in readings)]
        starts = entry_starts(self.terms[computed], len(numbers))
        printed = self._arrangement(side, k, numbers) if len(numbers) > 1 else None
        if len(wrong) == len(numbers) > 1 and not self._rearranged(numbers, readings[-1]):
            # every entry: what they share is wrong (a factor), unless the result is the
            # computed entries rearranged (two swapped), each wrong where it stands
            wrong, starts = wrong[:1], [start_of(self.terms[computed])] * len(numbers)
        found: list[SourceProblem] = []
        for i in wrong:
            number, (quoted, where) = numbers[i], entries[i]
            message = _message(quoted, [values[i].value for values in readings], number,
                               self.known.places)
            computation = where if where is not None else starts[i]
            changed = where is not None and self._result_changed(number, readings, i)
            if printed is False or changed:  # the result is what is wrong
                found.append(SourceProblem(number.start, message))
            elif printed is True and computation is not None:  # the result is a printed array
                factor = self._unprinted_factor(self.terms[computed]) if where is None else None
                found += [SourceProblem(place, message) for place in factor or [computation]]
            elif where is None:
                found.append(SourceProblem(number.start, message, starts[i],
                                           readings[-1][i].value))
            else:
                found.append(SourceProblem(where, message))
        return found

    def _rearranged(self, numbers: list[Num], values: list[Value]) -> bool:
        """Whether the numbers written are the computed values in another order."""
        unused = [v.value for v in values]
        for number in numbers:
            match = next((v for v in unused if _rounds_to(v, number, self.known.places)), None)
            if match is None:
                return False
            unused.remove(match)
        return True

    def _unprinted_factor(self, term: Sequence[Any]) -> list[int]:
        """Where the one tuple or matrix of a computation that is no printed array was changed
        (``r x^T`` with ``r`` printed: ``x^T`` was): at its cells that differ from the printed
        array most like it (a changed entry, both of a swap), else where it starts."""
        found: dict[int, list[list[Any]] | None] = {}
        factors = [item for item in term_items(term) if entries_of(item, found) is not None]
        if len(factors) < 2:
            return []
        unlike = [(item, starts) for item in factors
                  if (starts := self._unlike_printed(item, found[id(item)] or [])) is not None]
        return (unlike[0][1] or [unlike[0][0].start]) if len(unlike) == 1 else []

    def _unlike_printed(self, item: Any, cells: list[list[Any]]) -> list[int] | None:
        """None if a factor is a printed array (as written, or transposed); else where its
        cells that differ from the printed array most like it stand."""
        texts = [text_of(cell, self.source) for cell in cells]
        orders, ndim = cell_orders(item, len(texts)), _ndim(item)
        readings = [[texts[k] for k in order] for order in orders]
        if any(self.known.arrangement(reading, ndim) is True for reading in readings):
            return None
        found = [[order[i] for i in self.known.differing(reading, ndim)]
                 for order, reading in zip(orders, readings, strict=True)]
        differing = min((indices for indices in found if indices), key=len, default=[])
        return [start for i in differing if (start := start_of(cells[i])) is not None]

    def _result_changed(self, number: Num, readings: list[list[Value]], i: int) -> bool:
        """Whether a matrix cell's computation gives a printed number and the number written
        for it is none: then the result, not the cell's computation, was changed."""
        return self._printed_as([readings[-1][i]]) \
            and not self.known.full(number.prose().value_text, False)

    def _arrangement(self, side: int, k: int, numbers: list[Num]) -> bool | None:
        """Whether the tuple or matrix written as a result is a printed array (True: the
        computation before it is what is wrong), printed numbers in an order no printed array
        has (False: the result is), or neither (None)."""
        literal = classify(self.terms[k + side])
        ndim = len(literal.shape) if isinstance(literal, Literal) else 1
        texts = [number.prose().value_text for number in numbers]
        return self.known.arrangement(texts, ndim)

    def _compare_steps(self, k: int) -> list[SourceProblem]:
        """Two computations: they must agree at the policy's places, as written or at full
        precision. Reported where the first one starts (the step after it is checked in turn
        against what follows it), or where the second one does if only the first gives what
        the snippet printed."""
        first, second = self.terms[k], self.terms[k + 1]
        places = max(self.known.places, _places_in(first), _places_in(second))
        readings = list(zip(self._values(k), self._values(k + 1), strict=False))
        if any(all(_agree(a, b, places) for a, b in zip(x, y, strict=True))
               for x, y in readings):
            self.held.add(k)
            return []
        left, right = readings[-1]
        blamed = second if self._second_is_wrong(k, readings) else first
        wrong = [i for i, (a, b) in enumerate(zip(left, right, strict=True))
                 if not _agree(a, b, places)]
        places_wrong = parts_that_differ(blamed, first if blamed is second else second, wrong,
                                         len(left), lambda a, b: self._differ(a, b, places))
        return [SourceProblem(start, f"the arithmetic does not hold"
                                     f"{f' (entry {i + 1})' if len(left) > 1 else ''}: "
                                     f"{text_of(first, self.source)} is {_shown(left[i].value)}, "
                                     f"but {text_of(second, self.source)} is "
                                     f"{_shown(right[i].value)}")
                for i, start in places_wrong]

    def _second_is_wrong(self, k: int, readings: list[tuple[list[Value], list[Value]]]) -> bool:
        """Of two steps that disagree, whether the second is wrong: the first gives what the
        snippet printed (as written or at full precision) and the second does not, or the
        first agrees with the step before it (``A = B = C`` with ``A = B``: C is wrong) and the
        second gives nothing printed; where both or neither give it, the second is wrong if its
        numbers quote nothing the page knows and the first's all do
        (``2.1 - \\frac{0.061}{11.23} = 2.1 - 5.4329 \\times 10^{-3}``)."""
        first, second = (any(self._printed_as(reading[side], self.terms[k + side])
                                 for reading in readings) for side in (0, 1))
        if first != second:
            return first
        return (k - 1 in self.held and not second) or (
            self._sourced(k) and not self._sourced(k + 1))

    def _sourced(self, j: int) -> bool:
        """Whether every decimal of side ``j`` has a provenance of its own (printed, given,
        derived by another chain)."""
        return all(self.known.provenance(n.prose().value_text) for n in _decimals(self.terms[j]))

    def _differ(self, a: Sequence[Any], b: Sequence[Any], places: int) -> bool | None:
        """Whether two parts of two steps differ at ``places`` (None: not two values)."""
        x, y = (evaluate_term(part, self.known.log_base, self.names) for part in (a, b))
        if not (isinstance(x, list) and isinstance(y, list) and len(x) == len(y) == 1):
            return None
        return not _agree(x[0], y[0], places)

    def _printed_as(self, values: list[Value], term: Sequence[Any] = ()) -> bool:
        """Whether computed values are what the snippet printed: a printed number, a printed
        array, row or column entry by entry, or the two values of a ``\\pm`` each a printed
        number (``lam_1`` and ``lam_2``), at the policy's places."""
        places = self.known.places
        texts = [rounded_text(v.value, places) for v in values]
        if len(texts) == 1 or (len(texts) == 2 and _margin(term)):
            return all(self.known.full(text, False) for text in texts)
        return self.known.arrangement(texts, 1) is True

    def _computations(self) -> list[int]:
        """The arithmetic sides joined to another that are computations, not plain numbers."""
        return [j for j in self._linked() if self.literals[j] is None]

    def operands(self, failing: bool) -> list[Num]:
        """The decimals the chain computes from: those of its first computation whose decimals
        all have a provenance of their own (else of its first computation)."""
        anchor = self._anchor(failing)
        return [] if anchor is None else _decimals(self.terms[anchor])

    def _anchor(self, failing: bool) -> int | None:
        """The first computation whose decimals all have a provenance, else the first; the
        first in a chain that does not hold, whose wrong digit may be what took a provenance
        away (a later step's digits, parts of the correct first step, are then the error's)."""
        computations = self._computations()
        if not computations:
            return None
        if failing:
            return computations[0]
        return next((j for j in computations if all(
            self.known.provenance(n.prose().value_text) for n in _decimals(self.terms[j]))),
            computations[0])

    def fresh(self, operands: list[Num]) -> set[int]:
        """The decimals of later steps that are no part of the step before them (``0.48 -
        0.75 = -0.27 = 0.36\\,(-0.75)``): operands of their own."""
        starts = {n.start for n in operands}
        return {n.start for j in self._computations() for n in _decimals(self.terms[j])
                if n.start not in starts and n.start not in self.carried}

    def derived(self, failing: bool) -> dict[int, tuple[Fraction, str]]:
        """The decimals of every arithmetic side but the operands', each with its value and the
        computation it comes from."""
        anchor = self._anchor(failing)
        if anchor is None:
            return {}
        computations = self._computations()
        derived: dict[int, tuple[Fraction, str]] = {}
        for j in self._linked():
            if j == anchor:
                continue
            entries = self.literals[j]
            if entries is None:  # a step: its decimals that are parts of the step before it
                origin = anchor
                entries = [n for n in _decimals(self.terms[j]) if n.start in self.carried]
                values = [number_value(number) for number in entries]
            else:  # a result: derived as the nearest computation's value
                origin = min(computations, key=lambda c: (abs(c - j), c))
                readings = self._values(origin)
                values = readings[-1]
                if len(values) != len(entries):
                    continue  # a computation of another size (a dot product): no derivation
                self.exact.update(n.start for i, n in enumerate(entries)
                                  if any(r[i].value == number_value(n).value for r in readings))
            text = text_of(self.terms[origin], self.source)
            for number, value in zip(entries, values, strict=True):
                if number.decimal:
                    derived[number.start] = (value.value, text)
        return derived

    def _linked(self) -> list[int]:
        """The arithmetic sides joined by equalities to another arithmetic side."""
        linked: set[int] = set()
        for k in self.pairs():
            if not isinstance(self.written[k], str) and not isinstance(self.written[k + 1], str):
                linked |= {k, k + 1}
        return sorted(linked)


def _margin(term: Sequence[Any]) -> bool:
    """Whether a term holds a ``\\pm``: a name equated with it (``\\hat{p} = 0.5 \\pm 0.088``)
    has a margin, not two values."""
    return any(is_tok(item, EITHER_SIGN) for item in walk(term_items(term)))


def _is_name(term: Sequence[Any]) -> bool:
    """A side that is a name or a tuple of names: the named value's check, not arithmetic."""
    kind = classify(term)
    return isinstance(kind, NameTuple) or (isinstance(kind, str) and kind != "e")


def _decimals(term: Sequence[Any]) -> list[Num]:
    """The decimals written in a side, in order."""
    return [item for item in walk(term)
            if isinstance(item, Num) and is_number(item) and item.decimal]


def _magnitudes(term: Sequence[Any]) -> Iterator[Num]:
    """Numbers written after a binary minus or inside an absolute value: their sign is the
    prose's, so a printed negative of the same magnitude is what they may stand for."""
    items = list(term)
    inside = False
    for k, item in enumerate(items):
        if is_tok(item, "|"):
            inside = not inside
        if is_number(item) and (inside or (k and is_tok(items[k - 1], MINUS))):
            yield item
        if isinstance(item, Delim) and item.opener in ABSOLUTE:
            yield from (n for n in walk(item.items) if isinstance(n, Num) and is_number(n))
        elif hasattr(item, "items"):
            yield from _magnitudes(item.items)


def _rounds_to(value: Fraction, number: Num, places: int, magnitude: bool = False) -> bool:
    """Whether ``value``, rounded to the places ``number`` is written with (padded to the
    policy's), gives its digits (with ``magnitude``, its digits without their sign); an exact
    tie may go either way."""
    written = number_value(number).value
    written = abs(written) if magnitude else written
    at = _claimed_places(number, places)
    rounded = round(value, at)  # half to even, exactly
    return rounded == written or abs(value - written) == Fraction(1, 10**at) / 2


def _claimed_places(number: Num, places: int) -> int:
    """The places a written number claims: its own, padded to the policy's (a number in
    scientific notation states its own precision; a percentage's hundredth has two more)."""
    shown = places_shown(Decimal(number.text)) + (2 if number.percent else 0)
    return shown if "e" in number.text.lower() else max(shown, places)


def _agree(a: Value, b: Value, places: int) -> bool:
    """Two computed values that are the same: exactly, if both are exact (``\\frac13 -
    \\frac14 = \\frac1{12}``); else at ``places``, equal when rounded or apart by no more than
    half a unit there (on either side of a rounding boundary). Two values that both round to
    zero there are compared at four significant digits of the larger (``\\frac{10^{-5}}{2
    \\cdot 2.5}`` is not ``2 \\times 11^{-6}``, though both are 0.0000)."""
    if a.exact and b.exact:
        return a.value == b.value
    x, y = a.value, b.value
    largest = max(abs(x), abs(y))
    if 0 < largest < Fraction(1, 10**places) / 2:
        places = 3 - as_decimal(largest).adjusted()
    return round(x, places) == round(y, places) or abs(x - y) <= Fraction(1, 10**places) / 2


def _significant_places(computed: Fraction, printed: Fraction) -> int:
    """The places that show four significant digits of a small computed value (``10^{-5}``
    at eight, where the policy's four would make it 0 and any other small power equal), but
    never more than the printed value shows."""
    if computed == 0 or abs(computed) >= 1:
        return 0
    return min(3 - as_decimal(abs(computed)).adjusted(),
               places_shown(as_decimal(printed).normalize()))


def _places_in(term: Sequence[Any]) -> int:
    return max((places_shown(Decimal(n.text)) for n in _decimals(term)), default=0)


def _message(quoted: str, values: list[Fraction], number: Num, places: int) -> str:
    at = _claimed_places(number, places)
    claimed = number.text + ("\\%" if number.percent else "")

    def rounded(value: Fraction) -> str:
        return rounded_text(value, at)

    as_written = rounded(values[0])
    if len(values) > 1 and rounded(values[1]) != as_written:
        return (f"the arithmetic does not hold: {quoted} is {as_written} from the digits as "
                f"written and {rounded(values[1])} at full precision, not {claimed}")
    return f"the arithmetic does not hold: {quoted} is {as_written}, not {claimed}"


def _literal_side(first: Sequence[Any], second: Sequence[Any]) -> tuple[int, list[Num]] | None:
    """Which side is written as plain numbers (the right one if both are), and its numbers."""
    for side, term in ((1, second), (0, first)):
        numbers = _literal_numbers(term)
        if numbers is not None:
            return side, numbers
    return None


def _literal_numbers(term: Sequence[Any]) -> list[Num] | None:
    """A side's numbers, if it is nothing but numbers: one, a tuple's, or a matrix's."""
    items = _plain(term_items(term))
    if len(items) == 1 and is_number(items[0]):
        return [items[0]]
    cells = matrix_cells(items)
    if cells is not None:
        entries = [_plain(term_items(cell)) for cell in cells]
        if all(len(entry) == 1 and is_number(entry[0]) for entry in entries):
            return [entry[0] for entry in entries]
        return None
    if len(items) == 1 and isinstance(items[0], Delim):
        parts = [_plain(part) for part in split_commas(items[0].items)]
        if all(len(p) == 1 and is_number(p[0]) for p in parts):
            return [p[0] for p in parts]
    return None


def _plain(items: Sequence[Any]) -> list[Any]:
    """Items without the ``\\%`` that a percentage's number already knows of."""
    return [item for item in items if not is_tok(item, "\\%")]


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


def _ndim(item: Any) -> int:
    """A tuple's dimensions, or a matrix's: one for a single row or column."""
    if not isinstance(item, Env):
        return 1
    rows = rows_of(item)
    return 1 if len(rows) == 1 or all(len(row) == 1 for row in rows) else 2



