"""A verdict on one prose number: what it was checked against, how it fared, and why.

Shared by the checks of named values (:mod:`.verify`) and of free digits (:mod:`.free`), so a
comparison becomes a verdict, a message and a provenance in one way only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum

from .digits import Comparison, Policy, Status, compare
from .values import Placed


class Outcome(StrEnum):
    """How one prose number fared; everything but MATCH and EXEMPT is reported."""

    MATCH = "match"
    DIVERGE = "diverge"
    AMBIGUOUS = "ambiguous"
    SHAPE = "shape"
    RANGE = "range"
    ARITHMETIC = "arithmetic"
    #: A free digit with no binding (or a binding still to choose) where the book binds them.
    UNBOUND = "unbound"
    EXEMPT = "exempt"


@dataclass(frozen=True)
class Verdict:
    """One checked (or exempted) prose number: a row of the report, a message when it fails."""

    kind: str  # "named", "derived", "bound", "given", "free" (unbound), "exempt", "injected"
    name: str | None
    index: tuple[int, ...] | None  # 1-based, into the printed array
    placed: Placed
    outcome: Outcome
    printed: str | None
    places: int | None
    over_policy: bool
    message: str
    #: Where a number that holds comes from, as a reader is told: ``derived: 1 + e^{0.3}``.
    provenance: str = ""
    #: The quantity a free digit is bound to (``E[1,2]``, ``output line 7``, ``snippet line 4``).
    bound: str | None = None
    #: Every quantity a free digit's digits match, each with its printed value: what
    #: ``verified-bind`` chooses from (quantities printed alike are one, ``A[1,1] = A[2,2]``).
    candidates: tuple[tuple[str, str], ...] = ()

    @property
    def failed(self) -> bool:
        """Whether this number fails the build."""
        return self.outcome not in (Outcome.MATCH, Outcome.EXEMPT)


_OUTCOMES = {Status.MATCH: Outcome.MATCH, Status.DIVERGE: Outcome.DIVERGE,
             Status.AMBIGUOUS: Outcome.AMBIGUOUS}


def verdict_of(kind: str, name: str | None, index: tuple[int, ...] | None, cell: Placed,
               comparison: Comparison, label: str) -> Verdict:
    """The verdict of a comparison, with the message a failure is reported by."""
    return Verdict(kind, name, index, cell, _OUTCOMES[comparison.status], comparison.printed,
                   comparison.places, comparison.over_policy, _message(label, cell, comparison))


def with_provenance(verdict: Verdict, provenance: str) -> Verdict:
    """The verdict with where its number comes from, if it holds (a failure has none)."""
    return verdict if verdict.failed else replace(verdict, provenance=provenance)


def as_percentage(cell: Placed, comparison: Comparison, policy: Policy,
                  judge: Callable[[str, Policy], Comparison] | None) -> Comparison:
    """A percentage that does not match as its hundredth may match the digits written, where
    the snippet printed the percentage itself (``3.7264`` for 3.7264 %, ``41.6667`` for
    41.67 %), at the places of its hundredth (:func:`face_policy`). ``judge`` compares with
    what may be a percentage itself (:func:`~.printed.percentage_itself`); None where the
    printed value is a fraction, which only the hundredth may quote."""
    if not cell.number.percent or comparison.status is Status.MATCH or judge is None:
        return comparison
    face = judge(cell.number.text, face_policy(policy))
    return face if face.status is Status.MATCH else comparison


def face_judge(printed: str, itself: bool) -> Callable[[str, Policy], Comparison] | None:
    """How :func:`as_percentage` compares a percentage's digits with one printed value: with
    it where it may be the percentage ``itself``; not at all (None) where it is a fraction."""
    return (lambda digits, at: compare(digits, printed, at)) if itself else None


def face_policy(policy: Policy) -> Policy:
    """The policy for a percentage's own digits: two places fewer, those of its hundredth
    (41.67 % is 0.4167 at four places, so 41.67 at two)."""
    return replace(policy, decimals=max(policy.decimals - 2, 0))


def in_percent(cell: Placed, comparison: Comparison) -> Comparison:
    """A percentage's comparison with its printed digits shown as one (what `make fix`
    writes in its place: 82.48 for a printed 0.8248)."""
    if (not cell.number.percent or comparison.printed is None
            or comparison.status is not Status.DIVERGE):
        return comparison
    shown = f"{Decimal(comparison.printed).scaleb(2):f}"
    return replace(comparison, printed=shown)


def _message(label: str, cell: Placed, comparison: Comparison) -> str:
    written = cell.number.text
    if comparison.status is Status.MATCH:
        return ""
    if comparison.status is Status.AMBIGUOUS:
        return (
            f"{label}: prose {written}, printed {comparison.printed} is an exact tie at "
            f"{comparison.places} d.p.; print more digits so the rounding is decided"
        )
    return f"{label}: prose {written}, printed {comparison.printed}"
