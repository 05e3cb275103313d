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

Only sums, differences, products, quotients, ``\\frac``, ``\\sqrt``, ``e^{x}`` (upright too),
``\\exp``, ``\\log``/``\\ln``, integer powers and parentheses of written numbers are
evaluated, numbers in scientific notation (``2.7536 \\times 10^{-5}``) included, in a term of
its own, a tuple ``( … )`` or a matrix (entry by entry); anything with a name or another macro
is left alone. Pure: it reads the chains the LaTeX reader keeps (:class:`~.latex.Equation`);
the reader knows nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Context, Decimal, InvalidOperation
from typing import Any

from .latex import Equation
from .latex.grammar import ragged, rows_of, without_unit
from .latex.tokens import Delim, Env, Group, Num, Tok
from .latex.vocabulary import MATRIX_ENVIRONMENTS, MINUS, starred
from .values import SourceProblem

_CONTEXT = Context(prec=60, Emax=10**6, Emin=-(10**6))
_SKIP = frozenset(["\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\left", "\\right", "\\bigl",
                   "\\bigr", "\\Bigl", "\\Bigr", "\\displaystyle", "\\textstyle"])
_TIMES = frozenset(["\\times", "\\cdot", "*", "×", "·"])
_FRACTIONS = frozenset(["\\frac", "\\tfrac", "\\dfrac", "\\cfrac"])
_LOGS = frozenset(["\\log", "\\ln"])
#: Upright forms of Euler's number: ``\\mathrm{e}^{x}`` is ``e^{x}``.
_UPRIGHT = frozenset(["\\mathrm", "\\operatorname", "\\textrm", "\\text", "\\mathit"])
_EXACT_RELATIONS = frozenset(["="])
_ROUGH_RELATIONS = frozenset(["\\approx", "≈"])
_LARGEST_EXPONENT = Decimal(10_000)
#: Matrices whose cells are values (``vmatrix`` is a determinant, ``Vmatrix`` a norm).
_MATRICES = MATRIX_ENVIRONMENTS - starred("vmatrix Vmatrix")


class NotArithmetic(Exception):
    """The term is not plain arithmetic on written numbers."""


@dataclass(frozen=True)
class Value:
    """A computed value: exact from the written digits, and the interval rounding allows."""

    exact: Decimal
    low: Decimal
    high: Decimal


def check_equations(equations: Sequence[Equation], source: str) -> list[SourceProblem]:
    """Every equation of a math block that does not hold, where it stands in ``source``."""
    return [problem for equation in equations
            for problem in check_chain(equation.terms, equation.relations, source,
                                       equation.named)]


def check_chain(terms: Sequence[Sequence[Any]], relations: Sequence[str],
                source: str, named: bool) -> list[SourceProblem]:
    """Check each pair of neighbouring terms of a chain that are both arithmetic."""
    values: dict[int, list[Value] | str | None] = {}

    def evaluated(j: int) -> list[Value] | str | None:  # lazily: most terms are names
        if j not in values:
            values[j] = _evaluate_term(terms[j])
        return values[j]

    mismatches: list[SourceProblem] = []
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
        if len(left) != len(right):
            continue
        literal = _literal_side(terms[k], terms[k + 1])
        if literal is None:
            mismatches += _compare_steps(terms[k], terms[k + 1], left, right, source)
            continue
        side, numbers = literal
        other = left if side == 1 else right
        entries = _entries(terms[1 - side + k], source, len(numbers))
        for value, number, (written, where) in zip(other, numbers, entries, strict=True):
            problem = _compare(value, number, named or relation in _ROUGH_RELATIONS, written)
            if problem is not None:
                mismatches.append(SourceProblem(number.start if where is None else where, problem))
    return mismatches


def _literal_side(first: Sequence[Any], second: Sequence[Any]) -> tuple[int, list[Any]] | None:
    """Which side is written as plain numbers (the right one if both are), and its numbers."""
    for side, term in ((1, second), (0, first)):
        numbers = _numbers_only(term)
        if numbers is not None:
            return side, numbers
    return None


def _numbers_only(term: Sequence[Any]) -> list[Any] | None:
    items = _items(term)
    if len(items) == 1 and _is_number(items[0]):
        return [items[0]]
    cells = _cells(items)
    if cells is not None:
        entries = [_items(cell) for cell in cells]
        if all(len(entry) == 1 and _is_number(entry[0]) for entry in entries):
            return [entry[0] for entry in entries]
        return None
    if len(items) == 1 and _is_delim(items[0]):
        parts = _split_commas(items[0].items)
        if all(len(p) == 1 and _is_number(p[0]) for p in parts):
            return [p[0] for p in parts]
    return None


def _compare(value: Value, number: Any, rough: bool, written: str) -> str | None:
    claimed = Decimal(number.text)
    places = _places(claimed)
    quantum = Decimal(1).scaleb(-places)
    rounded = value.exact.quantize(quantum, rounding=ROUND_HALF_EVEN, context=_CONTEXT)
    if rounded == claimed or _is_tie(value.exact, claimed, quantum):
        return None
    half = quantum / 2
    consistent = value.low <= claimed + half and claimed - half <= value.high
    if rough and consistent:
        return None
    shown = f"{rounded:f}"
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
        if a.low > b.high or b.low > a.high:
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


def _shown(value: Decimal) -> str:
    """A computed value as a message shows it: eight significant digits at most."""
    rounded = _CONTEXT.create_decimal(value).normalize(Context(prec=8))
    return f"{rounded:f}"


def _is_tie(exact: Decimal, claimed: Decimal, quantum: Decimal) -> bool:
    return abs(exact - claimed) == quantum / 2


def _places(written: Decimal) -> int:
    """The decimal places a written number shows: ``2.7536e-5`` shows nine (0.000027536)."""
    exponent = written.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0  # ``inf`` shows none


def _entries(term: Sequence[Any], source: str, count: int) -> list[tuple[str, int | None]]:
    """How each of a computed term's ``count`` entries is quoted, and where one that does not
    hold is reported (None: at the number it should equal).

    A matrix is quoted cell by cell, and a cell is reported where its computation stands: its
    result, on a line of its own, is checked against the snippet anyway (the matrix is a named
    value or, unnamed, must equal a printed array), so the computation is what this adds.
    """
    cells = _cells(_items(term))
    if cells is not None and len(cells) == count:
        return [(_text(cell, source), _start(cell)) for cell in cells]
    return [(_text(term, source), None)] * count


def _start(term: Sequence[Any]) -> int | None:
    return next((item.start for item in _items(term) if hasattr(item, "start")), None)


def _text(term: Sequence[Any], source: str) -> str:
    spans = [(item.start, item.end) for item in _items(term) if hasattr(item, "start")]
    if not spans:
        return "the left side"
    return " ".join(source[spans[0][0] : spans[-1][1]].split())


# -- evaluation -------------------------------------------------------------------------------


def _evaluate_term(term: Sequence[Any]) -> list[Value] | str | None:
    """A term's value(s): one for a scalar expression, one per entry for a tuple; what makes
    it undefined (``divides by zero``), if it is arithmetic without a value; None if it is no
    arithmetic."""
    undefined: list[str] = []
    try:
        values = [_Parser(part, undefined).whole() for part in _parts(_items(term))]
    except (NotArithmetic, InvalidOperation, ArithmeticError):
        return None
    return undefined[0] if undefined else values


def _parts(items: list[Any]) -> list[list[Any]]:
    """What a term's entries are written as: a matrix's cells, a tuple's parts, or itself."""
    cells = _cells(items)
    if cells is not None:
        return [_items(cell) for cell in cells]
    if len(items) == 1 and _is_delim(items[0]) and items[0].opener == "(":
        parts = _split_commas(items[0].items)
        if len(parts) > 1:
            return parts
    return [items]


class _Parser:
    """Recursive descent over tokens: sums of products of (signed) powers of atoms.

    A step without a value (a division by zero, the logarithm of a number that is not
    positive, the square root of a negative one) is noted in ``undefined``, shared with the
    parsers of the sub-expressions, and stands in as 1 so that the rest is still read: the
    term is undefined only if all of it is arithmetic.
    """

    def __init__(self, items: Sequence[Any], undefined: list[str]) -> None:
        self.items = [i for i in items if not _is_tok(i, _SKIP)]
        self.at = 0
        self.undefined = undefined

    def _sub(self, items: Sequence[Any]) -> Value:
        return _Parser(items, self.undefined).whole()

    def _without_value(self, reason: str) -> Value:
        self.undefined.append(reason)
        return Value(Decimal(1), Decimal(1), Decimal(1))

    def _divide(self, a: Value, b: Value) -> Value:
        return self._without_value("divides by zero") if b.exact == 0 else _div(a, b)

    def whole(self) -> Value:
        if not self.items:
            raise NotArithmetic
        value = self.sum()
        if self.at != len(self.items):
            raise NotArithmetic
        return value

    def peek(self) -> Any:
        return self.items[self.at] if self.at < len(self.items) else None

    def take(self) -> Any:
        item = self.peek()
        if item is None:
            raise NotArithmetic
        self.at += 1
        return item

    def sum(self) -> Value:
        value = self.product()
        while _is_tok(self.peek(), MINUS | frozenset(["+"])):
            operator = self.take().text
            right = self.product()
            value = _add(value, right) if operator == "+" else _add(value, _neg(right))
        return value

    def product(self) -> Value:
        value = self.signed()
        while True:
            item = self.peek()
            if _is_tok(item, _TIMES):
                self.take()
                value = _mul(value, self.signed())
            elif _is_tok(item, frozenset(["/"])):
                self.take()
                value = self._divide(value, self.signed())
            elif item is not None and _starts_atom(item):
                value = _mul(value, self.power())  # 0.4011(1), 2\sqrt{2}
            else:
                return value

    def signed(self) -> Value:
        if _is_tok(self.peek(), MINUS):
            self.take()
            return _neg(self.signed())
        if _is_tok(self.peek(), frozenset(["+"])):
            self.take()
        return self.power()

    def power(self) -> Value:
        euler = self._euler()
        if euler and _is_tok(self._after(euler - 1), frozenset(["^"])):
            self.at += euler + 1
            return _monotone(_exp, self._sub(_argument(self.take())))
        item = self.peek()
        base = self.atom()
        if _is_tok(self.peek(), frozenset(["^"])):
            self.take()
            exponent = self._sub(_argument(self.take()))
            if _is_number(item) and item.text[0] in MINUS:  # -0.5^2 is -(0.5^2), as in TeX
                return _neg(_integer_power(_neg(base), exponent))
            return _integer_power(base, exponent)
        return base

    def _euler(self) -> int:
        """How many items spell Euler's number here: ``e`` is one, ``\\mathrm{e}`` two."""
        item = self.peek()
        if _is_tok(item, frozenset(["e"])):
            return 1
        if _is_tok(item, _UPRIGHT):
            after = self._after(0)
            if _is_tok(after, frozenset(["e"])) or (
                    _is_group(after) and len(after.items) == 1
                    and _is_tok(after.items[0], frozenset(["e"]))):
                return 2
        return 0

    def _after(self, skip: int) -> Any:
        """The item ``skip + 1`` places after the next one."""
        at = self.at + skip + 1
        return self.items[at] if at < len(self.items) else None

    def atom(self) -> Value:
        item = self.take()
        if _is_number(item):
            return _number(item.text)
        if _is_group(item):
            return self._sub(item.items)
        if _is_delim(item) and item.opener in ("(", "["):
            return self._sub(item.items)
        if _is_tok(item, _FRACTIONS):
            numerator, denominator = self._two_arguments()
            return self._divide(numerator, denominator)
        if _is_tok(item, frozenset(["\\sqrt"])):
            argument = self._argument_value()
            if argument.exact < 0:
                return self._without_value("takes the square root of a negative number")
            return _monotone(_sqrt, argument)
        if _is_tok(item, frozenset(["\\exp"])):
            return _monotone(_exp, self._argument_value())
        if _is_tok(item, _LOGS):
            argument = self._argument_value()
            if argument.exact <= 0:
                return self._without_value("takes the logarithm of a number that is not positive")
            return _monotone(_log, argument)
        raise NotArithmetic

    def _argument_value(self) -> Value:
        item = self.take()
        if _is_number(item) or _is_group(item) or _is_delim(item):
            return self._sub(_argument(item))
        raise NotArithmetic

    def _two_arguments(self) -> tuple[Value, Value]:
        first = self.take()
        if _is_number(first) and len(first.text) == 2 and first.text.isdigit():
            return _number(first.text[0]), _number(first.text[1])  # \tfrac13
        second = self.take()
        return self._sub(_argument(first)), self._sub(_argument(second))


def _number(text: str) -> Value:
    if not any(c.isdigit() for c in text) or "inf" in text:
        raise NotArithmetic
    exact = Decimal(text)
    if abs(exact.adjusted()) > _LARGEST_EXPONENT:
        raise NotArithmetic
    shown = "." in text or "e" in text.lower()  # an integer written as such is exact
    half = Decimal(1).scaleb(-_places(exact)) / 2 if shown else Decimal(0)
    return Value(exact, exact - half, exact + half)


def _add(a: Value, b: Value) -> Value:
    return Value(a.exact + b.exact, a.low + b.low, a.high + b.high)


def _neg(a: Value) -> Value:
    return Value(-a.exact, -a.high, -a.low)


def _mul(a: Value, b: Value) -> Value:
    corners = [x * y for x in (a.low, a.high) for y in (b.low, b.high)]
    return Value(_CONTEXT.multiply(a.exact, b.exact), min(corners), max(corners))


def _div(a: Value, b: Value) -> Value:
    if b.low <= 0 <= b.high:
        raise NotArithmetic
    corners = [_CONTEXT.divide(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    return Value(_CONTEXT.divide(a.exact, b.exact), min(corners), max(corners))


def _integer_power(base: Value, exponent: Value) -> Value:
    n = exponent.exact
    if exponent.low != exponent.high or n != n.to_integral_value() or not 0 <= n <= 12:
        raise NotArithmetic
    value = Value(Decimal(1), Decimal(1), Decimal(1))
    for _ in range(int(n)):
        value = _mul(value, base)
    return value


def _exp(x: Decimal) -> Decimal:
    if abs(x) > _LARGEST_EXPONENT:
        raise NotArithmetic
    return x.exp(_CONTEXT)


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise NotArithmetic
    return x.sqrt(_CONTEXT)


def _log(x: Decimal) -> Decimal:
    if x <= 0:
        raise NotArithmetic
    return x.ln(_CONTEXT)


def _monotone(function: Callable[[Decimal], Decimal], a: Value) -> Value:
    """An increasing function applied to a value and to its interval's ends."""
    return Value(function(a.exact), function(a.low), function(a.high))


# -- token helpers -------------------------------------------------------------------------------


_TERM_ENDS = _SKIP | frozenset([".", ",", ";", "\\quad", "\\qquad"])


def _items(term: Sequence[Any]) -> list[Any]:
    items = list(without_unit([i for i in term if not _is_tok(i, _TERM_ENDS)]))
    while len(items) == 1 and isinstance(items[0], Group):
        items = list(without_unit([i for i in items[0].items if not _is_tok(i, _SKIP)]))
    return items


def _cells(items: Sequence[Any]) -> list[list[Any]] | None:
    """The cells, row by row, of a term that is one matrix of values; None for anything else."""
    if len(items) != 1 or not isinstance(items[0], Env):
        return None
    if items[0].name not in _MATRICES:
        return None
    rows = rows_of(items[0])
    return None if ragged(rows) is not None else [cell for row in rows for cell in row]


def _argument(item: Any) -> list[Any]:
    if isinstance(item, Group | Delim):
        return list(item.items)
    return [item]


def _split_commas(items: Sequence[Any]) -> list[list[Any]]:
    parts: list[list[Any]] = [[]]
    for item in items:
        if _is_tok(item, frozenset([","])):
            parts.append([])
        elif not _is_tok(item, _SKIP):
            parts[-1].append(item)
    return parts


def _is_tok(item: Any, texts: frozenset[str]) -> bool:
    return isinstance(item, Tok) and item.text in texts


def _is_number(item: Any) -> bool:
    return isinstance(item, Num) and item.own and not item.exempt


def _is_group(item: Any) -> bool:
    return isinstance(item, Group)


def _is_delim(item: Any) -> bool:
    return isinstance(item, Delim)


def _starts_atom(item: Any) -> bool:
    return (_is_number(item) or _is_group(item) or (_is_delim(item) and item.opener == "(")
            or _is_tok(item, _FRACTIONS | frozenset(["\\sqrt", "\\exp", "e"]) | _LOGS
                       | _UPRIGHT))
