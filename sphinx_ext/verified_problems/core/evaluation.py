r"""The value of a term: exactly, from the digits as written or from what they stand for.

Sums, differences, products, quotients, ``\frac``, ``\sqrt``, ``e^{x}`` (upright too),
``\exp``, ``\log``/``\ln``/``\lg``/``\log_b`` (of a number, a bracket or a fraction), integer
powers, absolute values (``|x|``, ``\lvert x \rvert``, ``\left| x \right|``), percentages
(``82.47\%`` is 0.8247) and parentheses are evaluated, numbers in scientific notation
(``2.7536 \times 10^{-5}``) included, in a term of its own, a tuple ``( … )``, a matrix
(entry by entry) or a number times a matrix (``\frac{1}{3}\begin{pmatrix}…\end{pmatrix}``,
``-\begin{bmatrix}…\end{bmatrix}``). A name is a value only where the caller knows it (a
printed scalar or element: ``\lambda_1 - 4``, ``|\hat{m}_2|``); any other name or macro is no
arithmetic.

Arithmetic is exact where it can be: every written number is a rational number (``0.4011`` is
4011/10000), and sums, products, quotients and integer powers of rationals are computed as
:class:`fractions.Fraction`, so ``\frac13 - \frac14 = \frac1{12}`` holds exactly. A root, an
exponential or a logarithm is computed with :mod:`decimal` at 60 digits. A written number may
be given another value by the caller (:class:`Lookup`): the full-precision printed value it
stands for, so that the prose's arithmetic can follow the book's policy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .latex.grammar import name_prefix, ragged, rows_of
from .latex.tokens import Delim, Env, Group, Num, is_tok
from .latex.vocabulary import DETERMINANTS, MINUS, TIMES
from .terms import (
    NO_LOOKUP,
    SKIPPED,
    UPRIGHT,
    Extreme,
    Lookup,
    Norm,
    argument_items,
    closing,
    is_number,
    parts,
    term_items,
)

_CONTEXT = Context(prec=60, Emax=10**6, Emin=-(10**6))
_FRACTIONS = frozenset(["\\frac", "\\tfrac", "\\dfrac", "\\cfrac"])
_BINOMIALS = frozenset(["\\binom", "\\tbinom", "\\dbinom"])
_LOGS = frozenset(["\\log", "\\ln", "\\lg"])
#: The base of each logarithm as written; ``\log`` without a subscript takes the book's.
_LOG_BASES = {"\\ln": None, "\\lg": 10}
#: Brackets whose content's absolute value they mean.
ABSOLUTE = frozenset(["|", "\\lvert", "\\vert"])
_LARGEST_EXPONENT = Decimal(10_000)
#: The largest ``n!`` evaluated (its digits stay in the thousands).
_LARGEST_FACTORIAL = 1000
#: How large (in bits) an exact power may grow: ``0.9^{100}`` at 60 digits, and more.
_LARGEST_POWER_BITS = 200_000
#: π to 60 digits, as every other irrational here is computed.
_PI = Fraction(Decimal("3.14159265358979323846264338327950288419716939937510582097494459"))
_ONE = Fraction(1)


class NotArithmetic(Exception):
    """The term is not plain arithmetic on known values."""


@dataclass(frozen=True)
class Value:
    """A computed value, and whether it is exact: integers and fractions of integers only."""

    value: Fraction
    exact: bool


def evaluate_term(term: Sequence[Any], log_base: int | None = None,
                  lookup: Lookup = NO_LOOKUP,
                  seen: list[Fraction] | None = None) -> list[Value] | str | None:
    """A term's value(s): one for a scalar expression, one per entry for a tuple or matrix; what
    makes it undefined (``divides by zero``), if it is arithmetic without a value; None if it is
    no arithmetic. ``log_base`` is the base of a bare ``\\log`` (None: natural); ``seen``, if
    given, receives the value of every part of the term (what a next step may write rounded)."""
    undefined: list[str] = []
    found: list[Fraction] = [] if seen is None else seen
    try:
        values = [_Parser(part, undefined, log_base, lookup, found).whole()
                  for part in parts(term_items(term), lookup)]
    except (NotArithmetic, InvalidOperation, ArithmeticError, RecursionError):
        return None
    return undefined[0] if undefined else values


class _Parser:
    """Recursive descent over tokens: sums of products of (signed) powers of atoms.

    A step without a value (a division by zero, the logarithm of a number that is not
    positive, the square root of a negative one) is noted in ``undefined``, shared with the
    parsers of the sub-expressions, and stands in as 1 so that the rest is still read: the
    term is undefined only if all of it is arithmetic.
    """

    def __init__(self, items: Sequence[Any], undefined: list[str], log_base: int | None,
                 lookup: Lookup, seen: list[Fraction]) -> None:
        self.items = [i for i in items if not is_tok(i, SKIPPED)]
        self.at = 0
        self.undefined = undefined
        self.log_base = log_base
        self.lookup = lookup
        self.seen = seen

    def _sub(self, items: Sequence[Any]) -> Value:
        return _Parser(items, self.undefined, self.log_base, self.lookup, self.seen).whole()

    def _saw(self, value: Value) -> Value:
        self.seen.append(value.value)
        return value

    def _without_value(self, reason: str) -> Value:
        self.undefined.append(reason)
        return Value(_ONE, True)

    def _divide(self, a: Value, b: Value) -> Value:
        if b.value == 0:
            return self._without_value("divides by zero")
        return Value(a.value / b.value, a.exact and b.exact)

    def whole(self) -> Value:
        if not self.items:
            raise NotArithmetic
        value = self.sum()
        if self.at != len(self.items):
            raise NotArithmetic
        return self._saw(value)

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
            value = self._saw(_add(value, right if operator == "+" else _neg(right)))
        return value

    def product(self) -> Value:
        start = self.at
        value = self.signed()
        if self.at == start + 1 and is_tok(self.peek(), _FRACTIONS):
            value = self._mixed(self.items[start], value)
        while True:
            item = self.peek()
            if is_tok(item, TIMES):
                self.take()
                value = self._times(value, self.signed)
            elif is_tok(item, frozenset(["/"])):
                self.take()
                value = self._divide(value, self.signed())
            elif item is not None and self._starts_atom(item):
                value = self._times(value, self.power)  # 0.4011(1), 2\sqrt{2}, 2\lambda
            else:
                return self._saw(value)

    def _times(self, value: Value, factor: Callable[[], Value]) -> Value:
        """``value`` times the next factor; an exact zero times the logarithm of zero is zero,
        the convention ``0 \\log 0 = 0`` of entropies (the limit of x log x)."""
        before = len(self.undefined)
        zero_log = value.exact and value.value == 0 and is_tok(self.peek(), _LOGS)
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
        if fraction.exact and 0 < fraction.value < 1:
            return _add(value, fraction)
        self.at = at  # a product after all: read again by the loop
        return value

    def signed(self) -> Value:
        if is_tok(self.peek(), MINUS):
            self.take()
            return self._saw(_neg(self.signed()))
        if is_tok(self.peek(), frozenset(["+"])):
            self.take()
        return self.power()

    def power(self) -> Value:
        """A power, a factorial or an atom; the value of each is noted (a step may write
        ``2.1^2`` of the step before it as 4.41)."""
        euler = self._euler()
        if euler and is_tok(self._after(euler - 1), frozenset(["^"])):
            self.at += euler + 1
            return self._saw(_function(_exp, self._sub(argument_items(self.take()))))
        item = self.peek()
        base = self.atom()
        negated = is_number(item) and item.text[0] in MINUS  # -0.5^2 is -(0.5^2), as in TeX
        if is_tok(self.peek(), frozenset(["!"])):
            self.take()  # and -2! is -(2!)
            base = self._saw(_neg(_factorial(_neg(base))) if negated else _factorial(base))
        if is_tok(self.peek(), frozenset(["^"])):
            self.take()
            script = argument_items(self.take())
            if len(script) == 1 and isinstance(script[0], Delim) and script[0].opener == "(":
                raise NotArithmetic  # \mu_1^{(0)}, x^{(t)}: an index, not a power
            exponent = self._sub(script)
            return self._saw(_neg(_power(_neg(base), exponent)) if negated
                             else _power(base, exponent))
        return base

    def _euler(self) -> int:
        """How many items spell Euler's number here: ``e`` is one, ``\\mathrm{e}`` two."""
        item = self.peek()
        if is_tok(item, frozenset(["e"])):
            return 1
        if is_tok(item, UPRIGHT):
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
        return self._saw(self._atom())

    def _atom(self) -> Value:
        item = self.take()
        if is_number(item):
            return self._number(item)
        if isinstance(item, Group):
            return self._sub(item.items)
        if isinstance(item, Delim) and item.opener in ("(", "["):
            return self._sub(item.items)
        if isinstance(item, Delim) and item.opener in ABSOLUTE:
            return _absolute(self._sub(item.items))
        if is_tok(item, "|"):
            return _absolute(self._sub(self._until_bar()))
        if is_tok(item, _FRACTIONS):
            numerator, denominator = self._two_arguments()
            return self._divide(numerator, denominator)
        if is_tok(item, _BINOMIALS):
            return _binomial(*self._two_arguments())
        if is_tok(item, frozenset(["\\sqrt"])):
            argument = self._argument_value()
            if argument.value < 0:
                return self._without_value("takes the square root of a negative number")
            return _function(_sqrt, argument, exact_squares=True)
        if is_tok(item, frozenset(["\\exp"])):
            return _function(_exp, self._argument_value())
        if isinstance(item, Norm):
            return self._norm(item)
        if isinstance(item, Env) and item.name in DETERMINANTS:
            return self._determinant(item)
        if isinstance(item, Extreme):
            values = [self._sub(list(argument)) for argument in item.arguments]
            return (max if item.largest else min)(values, key=lambda v: v.value)
        if is_tok(item, _LOGS):
            base = self._log_base(item.text)
            argument = self._argument_value()
            if argument.value <= 0:
                return self._without_value("takes the logarithm of a number that is not positive")
            return _logarithm(argument, base)
        self.at -= 1
        return self._name()

    def _number(self, item: Num) -> Value:
        known = self.lookup.numbers.get(item.start)
        if known is not None:
            return Value(known, False)
        return number_value(item)

    def _name(self) -> Value:
        """A name the caller knows the value of (``\\lambda_1``, ``\\hat{m}_2``, ``A_{12}``)."""
        found = name_prefix(self.items[self.at:])
        if found is None:
            raise NotArithmetic
        name, used = found
        value = self.lookup.name(name)
        if value is None and name == "e":  # Euler's number, unless the snippet printed an e
            value = Fraction(_exp(Decimal(1)))
        if value is None and used == 1 and is_tok(self.peek(), frozenset(["\\pi"])):
            value = _PI  # a bare \pi, unless printed: \vec{\pi} is a distribution's name
        if value is None:
            raise NotArithmetic
        self.at += used
        return Value(value, False)

    def _determinant(self, env: Env) -> Value:
        """``\\begin{vmatrix} … \\end{vmatrix}``: the determinant of a square matrix."""
        rows = rows_of(env)
        if not rows or ragged(rows) is not None or len(rows) != len(rows[0]):
            raise NotArithmetic
        cells = [[self._sub(cell) for cell in row] for row in rows]
        exact = all(cell.exact for row in cells for cell in row)
        return Value(determinant([[cell.value for cell in row] for row in cells]), exact)

    def _norm(self, norm: Norm) -> Value:
        values = [self._sub(list(entry)) for entry in norm.entries]
        exact = all(value.exact for value in values)
        magnitudes = [abs(value.value) for value in values]
        if norm.kind == "1":
            return Value(sum(magnitudes, Fraction(0)), exact)
        if norm.kind == "inf":
            return Value(max(magnitudes), exact)
        squares = sum((m * m for m in magnitudes), Fraction(0))
        return _function(_sqrt, Value(squares, exact), exact_squares=True)

    def _until_bar(self) -> list[Any]:
        """The items up to the ``|`` that closes the one just taken."""
        end = closing(self.items, self.at, "|")
        if end is None:
            raise NotArithmetic
        inside, self.at = self.items[self.at:end], end + 1
        return inside

    def _log_base(self, written: str) -> int | None:
        """The base of the logarithm just read: a subscript (``\\log_2``), the name's own
        (``\\ln``, ``\\lg``), or the book's for a bare ``\\log``."""
        if written == "\\log" and is_tok(self.peek(), frozenset(["_"])):
            self.take()
            base = self._sub(argument_items(self.take())).value
            if base.denominator != 1 or base < 2:
                raise NotArithmetic
            return int(base)
        return _LOG_BASES.get(written, self.log_base)

    def _argument_value(self) -> Value:
        """A function's argument: a number, a group, a bracket, a fraction (``\\ln\\frac ab``)
        or a root."""
        item = self.peek()
        if is_tok(item, _FRACTIONS | frozenset(["\\sqrt"])):
            return self.atom()
        item = self.take()
        if is_number(item) or isinstance(item, Group | Delim):
            return self._sub(argument_items(item))
        raise NotArithmetic

    def _two_arguments(self) -> tuple[Value, Value]:
        first = self.take()
        if is_number(first) and len(first.text) == 2 and first.text.isdigit():
            return _integer(first.text[0]), _integer(first.text[1])  # \tfrac13
        second = self.take()
        return self._sub(argument_items(first)), self._sub(argument_items(second))

    def _starts_atom(self, item: Any) -> bool:
        return (is_number(item) or isinstance(item, Group)
                or (isinstance(item, Delim) and item.opener in ("(", "[", *ABSOLUTE))
                or is_tok(item, _FRACTIONS | _BINOMIALS | _LOGS | UPRIGHT
                          | frozenset(["\\sqrt", "\\exp", "e"]))
                or isinstance(item, Extreme | Norm)
                or (isinstance(item, Env) and item.name in DETERMINANTS)
                or (name_prefix(self.items[self.at:]) is not None
                    and not is_tok(item, MINUS | frozenset(["+", "|", "^", "_"]))))


# -- values ---------------------------------------------------------------------------------


def number_value(item: Num) -> Value:
    """A written number's value as written: ``82.47\\%`` is 0.8247; an integer is exact."""
    text = item.text
    if not any(c.isdigit() for c in text) or "inf" in text:
        raise NotArithmetic
    written = Decimal(text)
    if abs(written.adjusted()) > _LARGEST_EXPONENT:
        raise NotArithmetic
    value = Fraction(written) / (100 if item.percent else 1)
    return Value(value, not ("." in text or "e" in text.lower()))


def _integer(text: str) -> Value:
    return Value(Fraction(int(text)), True)


def places_shown(written: Decimal) -> int:
    """The decimal places a written number shows: ``2.7536e-5`` shows nine (0.000027536)."""
    exponent = written.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0  # ``inf`` shows none


def _add(a: Value, b: Value) -> Value:
    return Value(a.value + b.value, a.exact and b.exact)


def determinant(rows: Sequence[Sequence[Fraction]]) -> Fraction:
    """A square matrix's determinant, exactly (elimination over the rationals)."""
    matrix = [list(row) for row in rows]
    found = _ONE
    for k in range(len(matrix)):
        pivot = next((i for i in range(k, len(matrix)) if matrix[i][k] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != k:
            matrix[k], matrix[pivot] = matrix[pivot], matrix[k]
            found = -found
        found *= matrix[k][k]
        for row in matrix[k + 1:]:
            factor = row[k] / matrix[k][k]
            row[k:] = [a - factor * b for a, b in zip(row[k:], matrix[k][k:], strict=True)]
    return found


def _factorial(a: Value) -> Value:
    """``n!`` of a whole number written exactly (``2!``, ``(5 - 2)!``)."""
    return Value(Fraction(math.factorial(_whole(a))), True)


def _binomial(n: Value, k: Value) -> Value:
    """``\\binom{n}{k}`` of whole numbers written exactly."""
    return Value(Fraction(math.comb(_whole(n), _whole(k))), True)


def _whole(a: Value) -> int:
    """An exact whole number a factorial or a binomial may take."""
    n = a.value
    if not a.exact or n.denominator != 1 or not 0 <= n <= _LARGEST_FACTORIAL:
        raise NotArithmetic
    return int(n)


def _neg(a: Value) -> Value:
    return Value(-a.value, a.exact)


def _mul(a: Value, b: Value) -> Value:
    return Value(a.value * b.value, a.exact and b.exact)


def _absolute(a: Value) -> Value:
    return Value(abs(a.value), a.exact)


def _power(base: Value, exponent: Value) -> Value:
    """An integer power, exactly (``0.9^{20}``, ``2^{-20}``); one whose digits would run to
    tens of thousands is no arithmetic a page checks."""
    n = exponent.value
    if not exponent.exact or n.denominator != 1:
        raise NotArithmetic
    size = max(base.value.numerator.bit_length(), base.value.denominator.bit_length())
    if size * abs(n) > _LARGEST_POWER_BITS:
        raise NotArithmetic
    if n < 0 and base.value == 0:
        raise NotArithmetic
    return Value(base.value ** int(n), base.exact)


def as_decimal(value: Fraction) -> Decimal:
    """A rational as a 60-digit decimal (exact when it has 60 digits or fewer)."""
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def rounded_text(value: Fraction, places: int) -> str:
    """A rational rounded half to even to ``places`` decimals, written with all of them
    (``0.2500``): how a computed value is shown against digits at the policy's places."""
    scaled = round(value * Fraction(10) ** places)  # exact, however large the value
    if places <= 0:
        return str(scaled * 10 ** -places)
    digits = str(abs(scaled)).rjust(places + 1, "0")
    sign = "-" if scaled < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _exp(x: Decimal) -> Decimal:
    if abs(x) > _LARGEST_EXPONENT:
        raise NotArithmetic
    return x.exp(_CONTEXT)


def _sqrt(x: Decimal) -> Decimal:
    return x.sqrt(_CONTEXT)


def _log(x: Decimal) -> Decimal:
    return x.ln(_CONTEXT)


def _function(function: Callable[[Decimal], Decimal], a: Value, *,
              exact_squares: bool = False) -> Value:
    """A function of a value at 60 digits; exact only for the root of an exact square."""
    result = Fraction(function(as_decimal(a.value)))
    exact = exact_squares and a.exact and result * result == a.value
    return Value(result, exact)


def _logarithm(a: Value, base: int | None) -> Value:
    natural = _function(_log, a)
    if base is None:
        return natural
    return Value(natural.value / Fraction(_log(Decimal(base))), False)
