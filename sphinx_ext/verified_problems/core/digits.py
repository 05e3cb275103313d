"""The comparison of digits (DESIGN.md section 4): is the prose number the number printed?

Both sides are the decimal strings that were written and printed, compared as
:class:`decimal.Decimal` in an exact context: a float never enters, so a printed
``0.1234500000000000000001`` is not mistaken for a tie and ``0.1`` is exactly one tenth.

The rules, in one place:

* The comparison is made at the policy's decimals, or at the prose number's own decimals where
  it shows more (``over_policy``: the caller warns). A prose number in scientific notation
  (``1.20e-5``) states its own precision: it is compared at exactly its own decimals
  (mantissa decimals minus exponent, which may be negative: ``1.2e3`` is compared to the
  hundreds) and is never ``over_policy``.
* The printed number is taken at face value (the zeros it omits are zeros), rounded to that
  precision with the policy's rounding; the prose number is padded with zeros; the two
  strings must be equal. Zero has no sign (``-0.0000`` equals ``0.0000``); every other sign
  matters.
* A printed number that is an exact tie at that precision (``0.12345`` at 4 places) is
  ``AMBIGUOUS`` whatever the prose says: the author must print more digits. Because ties
  are never decided, the rounding mode can never change a verdict; it only shapes the
  printed digits shown in a report.
* ``nan`` matches only ``nan``; ``inf`` matches only an ``inf`` of the same sign.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import (
    MAX_EMAX,
    MAX_PREC,
    MIN_EMIN,
    ROUND_DOWN,
    ROUND_HALF_EVEN,
    ROUND_HALF_UP,
    Context,
    Decimal,
    InvalidOperation,
)
from enum import StrEnum

__all__ = [
    "Comparison",
    "Policy",
    "PrintedPool",
    "Rounding",
    "Status",
    "compare",
    "places_for",
    "to_decimal",
]

# Additions, subtractions and quantizations in this context are exact: nothing is ever rounded
# by the context itself, only by an explicit ``quantize`` with an explicit rounding.
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[InvalidOperation])

_NUMBER = re.compile(
    r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf|infinity)",
    re.IGNORECASE,
)

# A guard, not a policy: a number whose exponent is this far out would take megabytes of
# digits to round to 4 places. Floats, even numpy's longdouble, stay far inside it.
_MAX_EXPONENT = 100_000


class Rounding(StrEnum):
    """How a printed number is rounded to the comparison precision.

    The two modes differ only on exact ties, and a tie is always reported as ambiguous, so the
    mode never changes a verdict; it decides the printed digits a report shows. ``half-up``
    rounds a tie away from zero, as people do by hand.
    """

    HALF_EVEN = "half-even"
    HALF_UP = "half-up"


_DECIMAL_ROUNDING = {Rounding.HALF_EVEN: ROUND_HALF_EVEN, Rounding.HALF_UP: ROUND_HALF_UP}


@dataclass(frozen=True)
class Policy:
    """A book's (or one problem's) stated rounding policy: "All values rounded to 4 d.p."."""

    decimals: int = 4
    rounding: Rounding = Rounding.HALF_EVEN

    def __post_init__(self) -> None:
        if self.decimals < 0:
            raise ValueError(f"a rounding policy needs 0 or more decimals, not {self.decimals}")


class Status(StrEnum):
    """The verdict on one prose number."""

    MATCH = "match"
    DIVERGE = "diverge"
    AMBIGUOUS = "ambiguous"


@dataclass(frozen=True)
class Comparison:
    """A verdict with the digits a report needs to show it.

    ``prose`` is the prose number padded to ``places``; ``printed`` is the printed number
    rounded to ``places`` (``nan``/``inf``/``-inf`` as such), except for a tie, which is shown
    with its own digits (``0.12345``) since rounding it is the very thing that is undecided.
    ``printed`` is ``None`` when no printed number applies (an empty pool).
    """

    status: Status
    places: int
    prose: str
    printed: str | None
    over_policy: bool


def to_decimal(text: str) -> Decimal:
    """Read a decimal string exactly, refusing anything that is not plainly a number.

    :class:`~decimal.Decimal` alone would also take ``1_000``, ``sNaN`` or surrounding
    spaces; the core only ever deals in numbers as people and numpy write them.
    """
    if _NUMBER.fullmatch(text) is None:
        raise ValueError(
            f"{text!r} is not a number: expected digits such as 0.4011, -0., .5, 1e-05, "
            "nan, inf or -inf"
        )
    value = Decimal(text)
    if value.is_finite() and abs(value.adjusted()) > _MAX_EXPONENT:
        raise ValueError(f"{text!r} is too large or too small to compare digit by digit")
    return value


def places_for(prose: str, policy: Policy) -> int:
    """The number of decimal places at which ``prose`` is compared.

    The policy's decimals, or the prose number's own where it shows more; a number in
    scientific notation is compared at its own decimals only (``1.20e-5`` → 7).
    """
    value = to_decimal(prose)
    if not value.is_finite():
        return policy.decimals
    own = _own_places(value)
    if _is_scientific(prose):
        return own
    return max(policy.decimals, own)


def compare(prose: str, printed: str, policy: Policy) -> Comparison:
    """Judge a named prose number against the value printed under the same name."""
    wanted, got = to_decimal(prose), to_decimal(printed)
    places = places_for(prose, policy)
    prose_text = _show(wanted, places, policy.rounding)
    over = _over_policy(prose, wanted, policy) and got != wanted  # an exact value is no rounding
    if got.is_finite() and wanted.is_finite() and _is_tie(got, places):
        return Comparison(Status.AMBIGUOUS, places, prose_text, _face(got), over)
    printed_text = _show(got, places, policy.rounding)
    status = Status.MATCH if printed_text == prose_text else Status.DIVERGE
    return Comparison(status, places, prose_text, printed_text, over)


class PrintedPool:
    """Every number one snippet printed, ready to answer "did it print this?" quickly.

    A free digit (a decimal the prose does not name) is right when some printed number,
    rounded to the prose's comparison precision, gives it. A book asks this thousands of times
    against pools of hundreds of numbers, so the finite numbers are sorted once and each
    question is two bisections around the prose value; answers are cached.
    """

    def __init__(self, numbers: Iterable[str]) -> None:
        """Read the pool; raise :class:`ValueError` on a string that is not a number."""
        values = [to_decimal(text) for text in numbers]
        self._finite: list[Decimal] = sorted(value for value in values if value.is_finite())
        self._special = frozenset(_face(value) for value in values if not value.is_finite())
        self._cache: dict[tuple[str, Policy], Comparison] = {}

    def match(self, prose: str, policy: Policy) -> Comparison:
        """Judge a free prose number against every printed number.

        ``MATCH`` if some printed number that is not a tie rounds to it; else ``AMBIGUOUS`` if
        a tie could round to it (``printed`` shows the tie's own digits); else ``DIVERGE``
        with the nearest printed number rounded to the places, or ``None`` when there is no
        printed number to show (an empty pool, or ``nan``/``inf`` prose that was not
        printed). The precision is :func:`places_for`'s: a caller that wants a free digit
        judged at its own decimals only passes ``Policy(decimals=0)``.
        """
        key = (prose, policy)
        if key not in self._cache:
            self._cache[key] = self._judge(prose, policy)
        return self._cache[key]

    def matches(self, prose: str, policy: Policy) -> list[Decimal]:
        """The printed numbers that round to ``prose`` at its comparison precision (no tie),
        in order: what a prose number may stand for at full precision."""
        wanted = to_decimal(prose)
        if not wanted.is_finite():
            return []
        places = places_for(prose, policy)
        target = _rounded(wanted, places, policy.rounding)
        half = _half_step(places)
        low = bisect.bisect_right(self._finite, _EXACT.subtract(target, half))
        high = bisect.bisect_left(self._finite, _EXACT.add(target, half))
        return self._finite[low:high]

    def holds(self, value: Decimal) -> bool:
        """Whether exactly this value was printed (``0.069604`` for a prose ``0.069604``)."""
        at = bisect.bisect_left(self._finite, value)
        return at < len(self._finite) and self._finite[at] == value

    def _judge(self, prose: str, policy: Policy) -> Comparison:
        wanted = to_decimal(prose)
        places = places_for(prose, policy)
        target = _show(wanted, places, policy.rounding)
        over = _over_policy(prose, wanted, policy) and not self.holds(wanted)
        if not wanted.is_finite():
            found = target in self._special
            status = Status.MATCH if found else Status.DIVERGE
            return Comparison(status, places, target, target if found else None, over)
        status, printed = self._search(_rounded(wanted, places, policy.rounding), places, policy)
        return Comparison(status, places, target, printed, over)

    def _search(self, target: Decimal, places: int, policy: Policy) -> tuple[Status, str | None]:
        half = _half_step(places)
        low, high = _EXACT.subtract(target, half), _EXACT.add(target, half)
        first = bisect.bisect_left(self._finite, low)
        inner_start = bisect.bisect_right(self._finite, low)
        inner_end = bisect.bisect_left(self._finite, high)
        last = bisect.bisect_right(self._finite, high)
        if inner_start < inner_end:
            return Status.MATCH, _show(target, places, policy.rounding)
        if first < inner_start:
            return Status.AMBIGUOUS, _face(self._finite[first])
        if inner_end < last:
            return Status.AMBIGUOUS, _face(self._finite[inner_end])
        nearest = self._nearest(target, first)
        if nearest is None:
            return Status.DIVERGE, None
        return Status.DIVERGE, _show(nearest, places, policy.rounding)

    def _nearest(self, target: Decimal, index: int) -> Decimal | None:
        candidates = self._finite[max(index - 1, 0) : index + 1]
        if not candidates:
            return None
        return min(candidates, key=lambda value: _EXACT.subtract(value, target).copy_abs())


def _is_scientific(text: str) -> bool:
    return "e" in text.lower()


def _own_places(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)  # finite values only
    return -exponent


def _over_policy(prose: str, value: Decimal, policy: Policy) -> bool:
    if not value.is_finite() or _is_scientific(prose):
        return False
    return _own_places(value) > policy.decimals


def shorter_rounds_other(one: Decimal, other: Decimal) -> bool:
    """Whether the one of two finite values written with fewer places is the other rounded to
    them, half to even (``0.70710678`` and ``0.7071067811865475``): one value printed twice."""
    short, full = sorted((one, other), key=lambda value: -int(value.as_tuple().exponent))
    return full.quantize(Decimal(1).scaleb(int(short.as_tuple().exponent)),
                         rounding=ROUND_HALF_EVEN) == short


def _step(places: int) -> Decimal:
    return Decimal((0, (1,), -places))


def _half_step(places: int) -> Decimal:
    return Decimal((0, (5,), -places - 1))


def _is_tie(value: Decimal, places: int) -> bool:
    """True when ``value`` lies exactly halfway between two numbers of ``places`` decimals."""
    truncated = value.quantize(_step(places), rounding=ROUND_DOWN, context=_EXACT)
    return _EXACT.subtract(value, truncated).copy_abs() == _half_step(places)


def _rounded(value: Decimal, places: int, rounding: Rounding) -> Decimal:
    result = value.quantize(_step(places), rounding=_DECIMAL_ROUNDING[rounding], context=_EXACT)
    return result.copy_abs() if result.is_zero() else result


def _show(value: Decimal, places: int, rounding: Rounding) -> str:
    """``value`` rounded (or padded) to ``places`` as fixed-point digits; nan/inf by name."""
    if not value.is_finite():
        return _face(value)
    return format(_rounded(value, places, rounding), "f")


def _face(value: Decimal) -> str:
    """``value`` with its own digits, as fixed-point; ``nan``, ``inf`` or ``-inf``."""
    if value.is_nan():
        return "nan"
    if value.is_infinite():
        return "-inf" if value.is_signed() else "inf"
    return format(value, "f")
