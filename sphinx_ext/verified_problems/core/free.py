"""A decimal the prose does not name: derived by its arithmetic, or bound to one quantity.

Where the book binds its free digits (a :class:`Binder`, from the page's record), each one is
derived, or checked against the one printed quantity (or source literal) its binding names: a
digit changed into another printed number fails at its line. Without a binder, a free digit
only has to be among the printed numbers (or the source's literals), as before bindings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from .binding import GROUP, Binding, Quantities, bound_to, describe, is_literal
from .derivations import Derivations
from .digits import Status, compare, to_decimal
from .printed import Printed, negated
from .values import Placed
from .verdicts import (
    Outcome,
    Verdict,
    as_percentage,
    face_judge,
    face_policy,
    in_percent,
    verdict_of,
    with_provenance,
)


@dataclass(frozen=True)
class Binder:
    """A share's bindings, matched to its placed numbers (by ``id``), the quantities they
    may name, and whether a digit with none fails (``strict``) or is counted as free."""

    bindings: Mapping[int, Binding]
    quantities: Quantities
    strict: bool = True
    #: Whether printed quantities may be bound (else the source's literals only: the cells of
    #: a value the prose names and the snippet did not print are given, or nothing).
    printed: bool = True
    #: The only quantities a digit may be bound to, where not any (a count the source assigns
    #: its name: that literal alone).
    only: frozenset[str] | None = None


def check_free(cell: Placed, printed: Printed, derivations: Derivations,
               binder: Binder | None = None) -> Verdict:
    """A decimal the prose does not name: derived, bound (or, without bindings, printed; as a
    magnitude after a binary minus or inside ``|…|``), or given."""
    if binder is None:
        return _pooled(cell, printed, derivations)
    return _bind(cell, derivations, binder) or _pooled(cell, printed, derivations)


def derived_or_given(cell: Placed, printed: Printed, derivations: Derivations,
                     binder: Binder | None = None) -> Verdict | None:
    """The verdict on a decimal of a tuple that is no printed array: derived, or one of the
    snippet's source literals; None if neither. Where the book binds, a given number is bound
    to its literal, and an entry of a tuple with no name may also be bound to the printed
    quantity it quotes (a binding says which: no sign dropped from ``(0, -0.7071, 0)`` finds
    its ``0.7071`` elsewhere)."""
    if binder is not None:
        found = _bind(cell, derivations, binder)
        if found is not None or binder.strict:
            return found
    derived = _derived(cell, derivations)
    if derived is not None:
        return derived
    if printed.is_given(cell.number.value_text):
        return Verdict("given", None, None, cell, Outcome.MATCH, None, None, False, "",
                       "given in the snippet's source")
    return None


def _bind(cell: Placed, derivations: Derivations, binder: Binder) -> Verdict | None:
    """A free digit by its binding; None for an unbound one a book allows (judged as
    without bindings)."""
    derived = derivations.derived.get(id(cell))
    binding = binder.bindings.get(id(cell))
    if derived is not None and (binding is None or id(cell) not in derivations.complements):
        return _derived_verdict(cell, derived[1])
    if binding is None and not binder.strict:
        return None
    magnitude = id(cell) in derivations.magnitudes
    candidates = _candidates(cell, binder, magnitude)
    if not candidates and not magnitude and binder.strict and binder.printed:
        # "0.34 below it", of a printed -0.34: a magnitude the sentence gives the sign of;
        # bound only by a person's make bind (and its diff), never passed as a free digit.
        candidates = _candidates(cell, binder, True)
    if binding is not None and binding.bound is not None:
        return _bound(cell, binding.bound, binder.quantities, candidates)
    if not candidates:
        return _derived(cell, derivations)
    if binding is not None and binding.choose:
        return _unbound(cell, candidates, f"{cell.number.text} matches {_listed(candidates)}: "
                        "choose the one it quotes with make bind (--choose PAGE:LINE=QUANTITY), "
                        "or keep only that one in the record's 'choose'")
    if binder.strict:
        return _unbound(cell, candidates, f"{cell.number.text}: bound to no printed quantity; "
                        f"run make bind to record the one it quotes ({_listed(candidates)})")
    return None  # allowed unbound: among the printed numbers, as without bindings


def _candidates(cell: Placed, binder: Binder, magnitude: bool) -> tuple[tuple[str, str], ...]:
    number, quantities = cell.number, binder.quantities
    found = quantities.candidates(number.value_text, magnitude, binder.printed)
    if number.percent:  # 37.5 % may quote a printed 0.375 or a printed 37.4999…: both asked
        face = quantities.candidates(number.text, magnitude, binder.printed,
                                     face_policy(quantities.policy))
        found += tuple(candidate for candidate in face if candidate not in found
                       and quantities.percentage_itself(candidate[0]))
    only = binder.only
    if only is None:
        return found
    kept = ((GROUP.join(p for p in group.split(GROUP) if p in only), value)
            for group, value in found)
    return tuple((group, value) for group, value in kept if group)


def _bound(cell: Placed, label: str, quantities: Quantities,
           candidates: tuple[tuple[str, str], ...]) -> Verdict:
    """A bound digit against the quantity its binding names, as printed now."""
    kind = "given" if is_literal(label) else "bound"
    value = quantities.value(label)
    text = cell.number.text
    if value is None:
        values = quantities.values_of(label)
        message = (f"{text} here is bound to {label}, which the snippet no longer prints; run "
                   "make bind to bind it again") if None in values else (
                   f"{text} here is bound to {label}, which now print different values "
                   f"({', '.join(map(str, values))}); run make bind to choose the one it quotes")
        return Verdict(kind, None, None, cell, Outcome.DIVERGE, None, None, False, message,
                       bound=label, candidates=candidates)
    policy = quantities.policy
    comparison = as_percentage(cell, compare(cell.number.value_text, value, policy), policy,
                               face_judge(value, quantities.percentage_itself(label)))
    if comparison.over_policy and _printed_exactly(cell, quantities.values_of(label)):
        comparison = replace(comparison, over_policy=False)
    verdict = verdict_of(kind, None, None, cell, in_percent(cell, comparison), label)
    if verdict.outcome is Outcome.DIVERGE:
        message = (f"{text} here is {bound_to(label, value)}; if the page now means "
                   "another quantity, run make bind")
        verdict = replace(verdict, message=message)
    verdict = with_provenance(verdict, describe(label, value))
    return replace(verdict, bound=label, candidates=candidates)


def _printed_exactly(cell: Placed, values: list[str | None]) -> bool:
    """Whether one quantity of a binding printed exactly the digits written (``0.147981``,
    beside the same value at eight places): an exact value is no rounding beyond the policy."""
    written = to_decimal(cell.number.value_text)
    return any(value is not None and to_decimal(value) == written for value in values)


def _unbound(cell: Placed, candidates: tuple[tuple[str, str], ...], message: str) -> Verdict:
    return Verdict("free", None, None, cell, Outcome.UNBOUND, None, None, False, message,
                   candidates=candidates)


def _listed(candidates: tuple[tuple[str, str], ...]) -> str:
    shown = ", ".join(label for label, _value in candidates[:4])
    return shown + (f" and {len(candidates) - 4} more" if len(candidates) > 4 else "")


def _pooled(cell: Placed, printed: Printed, derivations: Derivations) -> Verdict:
    """A free digit among the printed numbers (as a magnitude after a binary minus or inside
    ``|…|``), derived, or given; otherwise wrong, with the nearest printed number."""
    text = cell.number.value_text
    comparison = as_percentage(cell, printed.pool.match(text, printed.policy), printed.policy,
                               printed.faces.match)
    if comparison.status is Status.MATCH:
        verdict = verdict_of("free", None, None, cell, comparison, "free digit")
        return with_provenance(verdict, f"printed {comparison.printed}")
    if id(cell) in derivations.magnitudes:
        other = printed.pool.match(negated(text), printed.policy)
        if other.status is Status.MATCH:
            verdict = verdict_of("free", None, None, cell, other, "free digit")
            return with_provenance(verdict, f"the magnitude of printed {other.printed}")
    found = derived_or_given(cell, printed, derivations)
    if found is not None:
        return found
    verdict = verdict_of("free", None, None, cell, comparison, "free digit")
    if comparison.status is Status.DIVERGE:
        nearest = printed.nearest(text, cell.number.text if cell.number.percent else None)
        shown = f"nearest printed {nearest}" if nearest else "none printed"
        message = (f"free digit: prose {_as_read(cell, comparison.places)} is not among the "
                   f"printed numbers ({shown}){_bound_hint(cell)}")
        return replace(verdict, message=message)
    return verdict


#: Words and relations after which a number is a bound (``more than 2.2``, ``< 0.05``).
_BOUND = re.compile(r"(?:(?:more|less|fewer|greater|smaller|larger|lower|higher) than|at (?:least|"
                    r"most)|above|below|under|over|exceeds?|within|<|>|≤|≥|\\(?:le|ge|leq|geq|"
                    r"lt|gt|ll|gg))\s*[{(]?\s*$", re.IGNORECASE)


def _bound_hint(cell: Placed) -> str:
    """What to do with a bound the snippet does not print (``more than 2.2 closer``): its
    digits quote no printed number, so only the author can vouch for them."""
    if _BOUND.search(cell.near.partition("@")[0]) is None:
        return ""
    text = cell.number.text
    return (f"; after a comparison, {text} reads as a bound: print it (a threshold the snippet "
            f"tests), or exempt it as the author's own ({{unchecked}}`{text}` in text, "
            f"\\unchecked{{{text}}} in math)")


def _as_read(cell: Placed, places: int) -> str:
    """A prose number as a message quotes it: a percentage with the hundredth it was read as,
    at the places compared (``16.7 % (read as 0.1670)``)."""
    number = cell.number
    if not number.percent:
        return number.text
    return f"{number.text} % (read as {to_decimal(number.value_text):.{max(places, 0)}f})"


def _derived(cell: Placed, derivations: Derivations) -> Verdict | None:
    """The verdict on a number the prose's arithmetic derives (here or in another chain)."""
    derived = derivations.derived.get(id(cell))
    if derived is not None:
        return _derived_verdict(cell, derived[1])
    if derivations.elsewhere(cell) is not None:
        return _derived_verdict(cell, "elsewhere on this page")
    return None


def _derived_verdict(cell: Placed, origin: str) -> Verdict:
    return Verdict("derived", None, None, cell, Outcome.MATCH, None, None, False, "",
                   f"derived: {origin}")
