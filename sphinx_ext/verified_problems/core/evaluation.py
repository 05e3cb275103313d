r"""The value of a term of written numbers: exactly, and within the rounding its digits allow.

Only sums, differences, products, quotients, ``\frac``, ``\sqrt``, ``e^{x}`` (upright too),
``\exp``, ``\log``/``\ln``/``\lg``/``\log_b``, integer powers and parentheses of written
numbers are evaluated, numbers in scientific notation (``2.7536 \times 10^{-5}``) included, in
a term of its own, a tuple ``( … )`` or a matrix (entry by entry); anything with a name or
another macro is no arithmetic.

Arithmetic is exact where it can be: every written number is a rational number (``0.4011`` is
4011/10000), and sums, products, quotients and integer powers of rationals are computed as
:class:`fractions.Fraction`, so ``\frac13 - \frac14 = \frac1{12}`` holds exactly. A root, an
exponential or a logarithm is computed with :mod:`decimal` at 60 digits.

Each written decimal stands for every value that rounds to it (±half its last place; an
integer is exact): a :class:`Value` carries that interval beside the exact value, its ends in
60-digit decimals (fractions there would cost ten times as much), and every comparison of ends
allows far more than their rounding error (:func:`overlap`, :func:`admits`), so that two ways
of writing the same value never disagree by a last digit no one wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .latex.grammar import ragged, rows_of, without_unit
from .latex.tokens import Delim, Env, Group, Num, is_tok
from .latex.vocabulary import MATRIX_ENVIRONMENTS, MINUS, starred

_CONTEXT = Context(prec=60, Emax=10**6, Emin=-(10**6))
#: How far a computed end of an interval may be from its true value, relative (and absolute).
_SLACK = Decimal("1e-45")
SKIPPED = frozenset(["\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\left", "\\right", "\\bigl",
                     "\\bigr", "\\Bigl", "\\Bigr", "\\displaystyle", "\\textstyle"])
_TIMES = frozenset(["\\times", "\\cdot", "*", "×", "·"])
_FRACTIONS = frozenset(["\\frac", "\\tfrac", "\\dfrac", "\\cfrac"])
_LOGS = frozenset(["\\log", "\\ln", "\\lg"])
#: The base of each logarithm as written; ``\log`` without a subscript takes the book's.
_LOG_BASES = {"\\ln": None, "\\lg": 10}
#: Upright forms of Euler's number: ``\mathrm{e}^{x}`` is ``e^{x}``.
_UPRIGHT = frozenset(["\\mathrm", "\\operatorname", "\\textrm", "\\text", "\\mathit"])
_LARGEST_EXPONENT = Decimal(10_000)
#: Matrices whose cells are values (``vmatrix`` is a determinant, ``Vmatrix`` a norm).
_MATRICES = MATRIX_ENVIRONMENTS - starred("vmatrix Vmatrix")
_ONE = Fraction(1)
_D_ONE = Decimal(1)


class NotArithmetic(Exception):
    """The term is not plain arithmetic on written numbers."""


@dataclass(frozen=True)
class Value:
    """A computed value: exact from the written digits, and the interval rounding allows."""

    exact: Fraction
    low: Decimal
    high: Decimal


def evaluate_term(term: Sequence[Any], log_base: int | None = None) -> list[Value] | str | None:
    """A term's value(s): one for a scalar expression, one per entry for a tuple or matrix; what
    makes it undefined (``divides by zero``), if it is arithmetic without a value; None if it is
    no arithmetic. ``log_base`` is the base of a bare ``\\log`` (None: natural)."""
    undefined: list[str] = []
    try:
        values = [_Parser(part, undefined, log_base).whole()
                  for part in _parts(term_items(term))]
    except (NotArithmetic, InvalidOperation, ArithmeticError):
        return None
    return undefined[0] if undefined else values


def _parts(items: list[Any]) -> list[list[Any]]:
    """What a term's entries are written as: a matrix's cells, a tuple's parts, or itself."""
    cells = matrix_cells(items)
    if cells is not None:
        return [term_items(cell) for cell in cells]
    if len(items) == 1 and isinstance(items[0], Delim) and items[0].opener == "(":
        parts = split_commas(items[0].items)
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

    def __init__(self, items: Sequence[Any], undefined: list[str], log_base: int | None) -> None:
        self.items = [i for i in items if not is_tok(i, SKIPPED)]
        self.at = 0
        self.undefined = undefined
        self.log_base = log_base

    def _sub(self, items: Sequence[Any]) -> Value:
        return _Parser(items, self.undefined, self.log_base).whole()

    def _without_value(self, reason: str) -> Value:
        self.undefined.append(reason)
        return Value(_ONE, _D_ONE, _D_ONE)

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
        while is_tok(self.peek(), MINUS | frozenset(["+"])):
            operator = self.take().text
            right = self.product()
            value = _add(value, right) if operator == "+" else _add(value, _neg(right))
        return value

    def product(self) -> Value:
        start = self.at
        value = self.signed()
        if self.at == start + 1 and is_tok(self.peek(), _FRACTIONS):
            value = self._mixed(self.items[start], value)
        while True:
            item = self.peek()
            if is_tok(item, _TIMES):
                self.take()
                value = self._times(value, self.signed)
            elif is_tok(item, frozenset(["/"])):
                self.take()
                value = self._divide(value, self.signed())
            elif item is not None and _starts_atom(item):
                value = self._times(value, self.power)  # 0.4011(1), 2\sqrt{2}
            else:
                return value

    def _times(self, value: Value, factor: Callable[[], Value]) -> Value:
        """``value`` times the next factor; an exact zero times the logarithm of zero is zero,
        the convention ``0 \\log 0 = 0`` of entropies (the limit of x log x)."""
        before = len(self.undefined)
        zero_log = _is_zero(value) and is_tok(self.peek(), _LOGS)
        result = _mul(value, factor())
        if zero_log and len(self.undefined) == before + 1 and "logarithm" in self.undefined[-1]:
            del self.undefined[before:]
            return value
        return result

    def _mixed(self, whole: Any, value: Value) -> Value:
        """``3\\tfrac{3}{4}`` is a mixed number, 3¾: a whole number written before a fraction
        of whole numbers below one is added to it, as a reader reads it."""
        if not (is_number(whole) and whole.text.isdigit()):
            return value
        at = self.at
        fraction = self.atom()
        if fraction.low == fraction.high and 0 < fraction.exact < 1:
            return _add(value, fraction)
        self.at = at  # a product after all: read again by the loop
        return value

    def signed(self) -> Value:
        if is_tok(self.peek(), MINUS):
            self.take()
            return _neg(self.signed())
        if is_tok(self.peek(), frozenset(["+"])):
            self.take()
        return self.power()

    def power(self) -> Value:
        euler = self._euler()
        if euler and is_tok(self._after(euler - 1), frozenset(["^"])):
            self.at += euler + 1
            return _monotone(_exp, self._sub(argument_items(self.take())))
        item = self.peek()
        base = self.atom()
        if is_tok(self.peek(), frozenset(["^"])):
            self.take()
            exponent = self._sub(argument_items(self.take()))
            if is_number(item) and item.text[0] in MINUS:  # -0.5^2 is -(0.5^2), as in TeX
                return _neg(_integer_power(_neg(base), exponent))
            return _integer_power(base, exponent)
        return base

    def _euler(self) -> int:
        """How many items spell Euler's number here: ``e`` is one, ``\\mathrm{e}`` two."""
        item = self.peek()
        if is_tok(item, frozenset(["e"])):
            return 1
        if is_tok(item, _UPRIGHT):
            after = self._after(0)
            if is_tok(after, frozenset(["e"])) or (
                    isinstance(after, Group) and len(after.items) == 1
                    and is_tok(after.items[0], frozenset(["e"]))):
                return 2
        return 0

    def _after(self, skip: int) -> Any:
        """The item ``skip + 1`` places after the next one."""
        at = self.at + skip + 1
        return self.items[at] if at < len(self.items) else None

    def atom(self) -> Value:
        item = self.take()
        if is_number(item):
            return _number(item.text)
        if isinstance(item, Group):
            return self._sub(item.items)
        if isinstance(item, Delim) and item.opener in ("(", "["):
            return self._sub(item.items)
        if is_tok(item, _FRACTIONS):
            numerator, denominator = self._two_arguments()
            return self._divide(numerator, denominator)
        if is_tok(item, frozenset(["\\sqrt"])):
            argument = self._argument_value()
            if argument.exact < 0:
                return self._without_value("takes the square root of a negative number")
            return _monotone(_sqrt, argument)
        if is_tok(item, frozenset(["\\exp"])):
            return _monotone(_exp, self._argument_value())
        if is_tok(item, _LOGS):
            base = self._log_base(item.text)
            argument = self._argument_value()
            if argument.exact <= 0:
                return self._without_value("takes the logarithm of a number that is not positive")
            return _logarithm(argument, base)
        raise NotArithmetic

    def _log_base(self, written: str) -> int | None:
        """The base of the logarithm just read: a subscript (``\\log_2``), the name's own
        (``\\ln``, ``\\lg``), or the book's for a bare ``\\log``."""
        if written == "\\log" and is_tok(self.peek(), frozenset(["_"])):
            self.take()
            base = self._sub(argument_items(self.take())).exact
            if base.denominator != 1 or base < 2:
                raise NotArithmetic
            return int(base)
        return _LOG_BASES.get(written, self.log_base)

    def _argument_value(self) -> Value:
        item = self.take()
        if is_number(item) or isinstance(item, Group | Delim):
            return self._sub(argument_items(item))
        raise NotArithmetic

    def _two_arguments(self) -> tuple[Value, Value]:
        first = self.take()
        if is_number(first) and len(first.text) == 2 and first.text.isdigit():
            return _number(first.text[0]), _number(first.text[1])  # \tfrac13
        second = self.take()
        return self._sub(argument_items(first)), self._sub(argument_items(second))


# -- values ---------------------------------------------------------------------------------


def _number(text: str) -> Value:
    if not any(c.isdigit() for c in text) or "inf" in text:
        raise NotArithmetic
    written = Decimal(text)
    if abs(written.adjusted()) > _LARGEST_EXPONENT:
        raise NotArithmetic
    shown = "." in text or "e" in text.lower()  # an integer written as such is exact
    half = Decimal(1).scaleb(-places_shown(written)) / 2 if shown else Decimal(0)
    return Value(Fraction(written), _CONTEXT.subtract(written, half), _CONTEXT.add(written, half))


def places_shown(written: Decimal) -> int:
    """The decimal places a written number shows: ``2.7536e-5`` shows nine (0.000027536)."""
    exponent = written.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0  # ``inf`` shows none


def overlap(a: Value, b: Value) -> bool:
    """Whether some values within both intervals are equal (allowing for their rounding)."""
    return _below(a.low, b.high) and _below(b.low, a.high)


def admits(value: Value, low: Decimal, high: Decimal) -> bool:
    """Whether the interval ``[low, high]`` (a written number's) meets ``value``'s."""
    return _below(value.low, high) and _below(low, value.high)


def _below(low: Decimal, high: Decimal) -> bool:
    slack = _CONTEXT.fma(_CONTEXT.add(_CONTEXT.abs(low), _CONTEXT.abs(high)), _SLACK, _SLACK)
    return low <= _CONTEXT.add(high, slack)


def _is_zero(a: Value) -> bool:
    return a.exact == 0 and a.low == a.high == 0


def _add(a: Value, b: Value) -> Value:
    return Value(a.exact + b.exact, _CONTEXT.add(a.low, b.low), _CONTEXT.add(a.high, b.high))


def _neg(a: Value) -> Value:
    return Value(-a.exact, _CONTEXT.minus(a.high), _CONTEXT.minus(a.low))


def _mul(a: Value, b: Value) -> Value:
    corners = [_CONTEXT.multiply(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    return Value(a.exact * b.exact, min(corners), max(corners))


def _div(a: Value, b: Value) -> Value:
    if b.low <= 0 <= b.high:
        raise NotArithmetic
    corners = [_CONTEXT.divide(x, y) for x in (a.low, a.high) for y in (b.low, b.high)]
    return Value(a.exact / b.exact, min(corners), max(corners))


def _integer_power(base: Value, exponent: Value) -> Value:
    n = exponent.exact
    if exponent.low != exponent.high or n.denominator != 1 or not 0 <= n <= 12:
        raise NotArithmetic
    value = Value(_ONE, _D_ONE, _D_ONE)
    for _ in range(int(n)):
        value = _mul(value, base)
    return value


def as_decimal(value: Fraction) -> Decimal:
    """A rational as a 60-digit decimal (exact when it has 60 digits or fewer)."""
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


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
    """An increasing function of a value and of its interval's ends."""
    return Value(Fraction(function(as_decimal(a.exact))), function(a.low), function(a.high))


def _logarithm(a: Value, base: int | None) -> Value:
    natural = _monotone(_log, a)
    if base is None:
        return natural
    scale = _log(Decimal(base))  # a positive constant: the order stays
    return Value(natural.exact / Fraction(scale), _CONTEXT.divide(natural.low, scale),
                 _CONTEXT.divide(natural.high, scale))


# -- token helpers ---------------------------------------------------------------------------


_TERM_ENDS = SKIPPED | frozenset([".", ",", ";", "\\quad", "\\qquad"])


def term_items(term: Sequence[Any]) -> list[Any]:
    """A term's items as the arithmetic reads them: no spacing, punctuation, braces around all
    of it, or unit after its number."""
    items = list(without_unit([i for i in term if not is_tok(i, _TERM_ENDS)]))
    while len(items) == 1 and isinstance(items[0], Group):
        items = list(without_unit([i for i in items[0].items if not is_tok(i, SKIPPED)]))
    return items


def matrix_cells(items: Sequence[Any]) -> list[list[Any]] | None:
    """The cells, row by row, of a term that is one matrix of values; None for anything else."""
    if len(items) != 1 or not isinstance(items[0], Env):
        return None
    if items[0].name not in _MATRICES:
        return None
    rows = rows_of(items[0])
    return None if ragged(rows) is not None else [cell for row in rows for cell in row]


def argument_items(item: Any) -> list[Any]:
    """What an argument holds: a group's or a bracket's content, or the one item."""
    if isinstance(item, Group | Delim):
        return list(item.items)
    return [item]


def split_commas(items: Sequence[Any]) -> list[list[Any]]:
    """A tuple's parts, without the spacing between them."""
    parts: list[list[Any]] = [[]]
    for item in items:
        if is_tok(item, frozenset([","])):
            parts.append([])
        elif not is_tok(item, SKIPPED):
            parts[-1].append(item)
    return parts


def is_number(item: Any) -> bool:
    """Whether ``item`` is a number the author wrote and did not exempt."""
    return isinstance(item, Num) and item.own and not item.exempt


def _starts_atom(item: Any) -> bool:
    return (is_number(item) or isinstance(item, Group)
            or (isinstance(item, Delim) and item.opener == "(")
            or is_tok(item, _FRACTIONS | frozenset(["\\sqrt", "\\exp", "e"]) | _LOGS
                       | _UPRIGHT))
