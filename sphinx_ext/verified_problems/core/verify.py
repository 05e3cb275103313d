"""The verdict on one snippet's share of a page: every prose number against the transcript.

Pure: it takes the parsed transcript, the named values, free digits and chains the prose holds
(each with where it stands), the snippet's source literals and the rounding policy, and
returns one :class:`Verdict` per number: named, derived (:mod:`.derivations`), given, free or
exempt, or why it has none. The Sphinx side only locates numbers and reports what this
returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from math import prod

from .binding import Binding, Quantities, is_whole_number, named_label
from .derivations import Derivations, PlacedEquation, derive
from .digits import Policy, Status, compare, to_decimal
from .evaluation import rounded_text
from .free import Binder, check_free, derived_or_given
from .latex.grammar import is_operator_name
from .printed import (
    Literal,
    Printed,
    element_of,
    flat_index,
    given_texts,
    index_label,
    indices,
    percentage_itself,
    resolve,
)
from .values import Entry, Placed, PlacedValue, ProseNumber, Transcript
from .verdicts import (
    Outcome,
    Verdict,
    as_percentage,
    face_judge,
    in_percent,
    verdict_of,
    with_provenance,
)


def verify(
    transcript: Transcript,
    named: Sequence[PlacedValue],
    free: Sequence[Placed],
    exempt: Sequence[Placed],
    policy: Policy,
    *,
    equations: Sequence[PlacedEquation] = (),
    given: Sequence[str] = (),
    given_names: Mapping[str, str] | None = None,
    given_values: Mapping[str, Entry] | None = None,
    log_base: int | None = None,
    literals: Sequence[Literal] = (),
    bindings: Mapping[int, Binding] | None = None,
    strict: bool = True,
) -> list[Verdict]:
    """Check a snippet's share of a page: every decimal must have a provenance.

    Named values are checked entry by entry against the printed quantity of their name; the
    share's chains (``equations``) are checked by the prose's arithmetic and derive the numbers
    they compute; every other decimal must be printed, or be one of the snippet's own source
    literals (``given``; ``given_names``: those it assigns to a name, ``beta_1 = 0.9``, which a
    prose name may quote and compute with; ``given_values``: the numbers and arrays it writes
    out by name, :func:`.printed.source_values`). ``log_base`` is what a bare ``\\log`` means.

    Where the book binds its free digits, ``bindings`` holds the page's record matched to the
    free digits (by the ``id`` of their placed number) and ``literals`` the source's literals
    where they stand: each free digit must then be derived, or match the one quantity its
    binding names; without a binding it fails (``strict``) or is counted as free.
    """
    printed = Printed(transcript, policy, given or given_texts(literals), given_names,
                      given_values)
    derivations = derive(equations, printed, log_base)
    binder = None if bindings is None else Binder(bindings, Quantities(printed, literals), strict)
    verdicts: list[Verdict] = []
    leftover: list[Placed] = list(free)
    for placed_value in named:
        checked = _given_integer(placed_value, printed, derivations, binder) \
            if _sets_a_parameter(placed_value, printed) else _check_named(placed_value, printed)
        names = placed_value.value.names
        if checked is None and names and all(map(is_operator_name, names)):
            leftover += [cell for cell in placed_value.cells if cell.number.decimal]
            continue  # \det \mat{A} not printed: no name, as before operators named
        if checked is None:
            checked = _unprinted_sibling(placed_value, transcript)
        if checked is None:
            checked = _check_unprinted(placed_value, printed, derivations, binder)
        verdicts.extend(checked)
    verdicts.extend(check_free(cell, printed, derivations, binder) for cell in leftover)
    printed_right = {id(v.placed) for v in verdicts if _printed_right(v, derivations, printed)}
    printed_right |= {id(cell) for cell, _message, _instead in derivations.problems
                      if _derived_as_printed(cell, derivations, printed, verdicts)}
    verdicts.extend(
        Verdict("derived", None, None,
                instead if instead is not None and id(cell) in printed_right else cell,
                Outcome.ARITHMETIC, None, None, False, message)
        for cell, message, instead in derivations.problems
    )
    verdicts.extend(
        Verdict("exempt", None, None, cell, Outcome.EXEMPT, None, None, False, "")
        for cell in exempt
    )
    verdicts = [_exact(v, derivations) for v in verdicts]
    verdicts.sort(key=lambda v: (v.placed.line or 0, v.placed.column or 0))
    return verdicts


def _printed_right(verdict: Verdict, derivations: Derivations, printed: Printed) -> bool:
    """Whether a number checked on its own is the printed one: named or bound, or a free digit
    among the printed numbers after a computation that gives none."""
    if verdict.outcome is not Outcome.MATCH:
        return False
    if verdict.kind in ("named", "bound"):
        return True
    return verdict.kind == "free" and not _gives_printed(verdict.placed, derivations, printed)


def _derived_as_printed(cell: Placed, derivations: Derivations, printed: Printed,
                        verdicts: Sequence[Verdict]) -> bool:
    """Whether the number written after a computation that does not hold is one the snippet
    printed, with no check of its own (the chain derives it), where the computation gives no
    printed number: then the computation is what is wrong, and the error is reported there.
    (A computation that gives a printed number, followed by another printed number, is right,
    and the result is what was changed.)"""
    if id(cell) not in derivations.derived or not cell.number.text:
        return False
    if any(v.failed and v.placed is cell for v in verdicts):
        return False
    if printed.pool.match(cell.number.value_text, printed.policy).status is not Status.MATCH:
        return False
    return not _gives_printed(cell, derivations, printed)


def _gives_printed(cell: Placed, derivations: Derivations, printed: Printed) -> bool:
    """Whether the computation before a number it does not give gives a printed number
    itself: then it is right, and the number after it (another printed one) was changed."""
    computed = derivations.computed.get(id(cell))
    if computed is None:
        return False
    shown = rounded_text(computed, printed.policy.decimals)
    return printed.pool.match(shown, printed.policy).status is Status.MATCH


def _exact(verdict: Verdict, derivations: Derivations) -> Verdict:
    """A number shown with more places than the policy is no breach of it when the prose's
    arithmetic derives exactly those digits (an exact value is not a rounding)."""
    if verdict.over_policy and verdict.placed.number.value_text in derivations.exact:
        return replace(verdict, over_policy=False)
    return verdict


def _check_named(placed_value: PlacedValue, printed: Printed) -> list[Verdict] | None:
    entries = printed.transcript.entries
    resolved = [r for n in placed_value.value.names if (r := resolve(n, entries))]
    if not resolved:
        return None
    verdicts: list[Verdict] = []
    for entry, index in resolved:
        verdicts.extend(_check_against(placed_value, entry, index, printed.policy))
    return verdicts


def _sets_a_parameter(placed_value: PlacedValue, printed: Printed) -> bool:
    """Whether a named integer gives a parameter another setting: the source assigns the name a
    number that is no whole one (``beta = 0.5``, printed or not), so a whole number written for
    it (``the same rule with $\\beta = 0$``) is a case the prose considers, not a quote: a
    count, as for a name the snippet did not print."""
    cells = placed_value.cells
    if len(cells) != 1 or cells[0].number.decimal:
        return False
    return any((found := resolve(name, printed.given_values)) and _fractional(found[0])
               for name in placed_value.value.names)


def _fractional(entry: Entry) -> bool:
    """Whether a given value is one number that is not whole (``0.5``; not ``1.0``)."""
    try:
        value = to_decimal(entry.values[0]) if not entry.shape else None
    except ValueError:
        return False
    return value is not None and value.is_finite() and value != value.to_integral_value()


def _unprinted_sibling(placed_value: PlacedValue, transcript: Transcript) -> list[Verdict] | None:
    """A name such as ``z_2`` that the snippet did not print, where it printed ``z_1`` and ``z_3``.

    An author who prints a family by index prints each one the prose quotes: ``\\vec{z}_2``
    written with row 1's values must not pass as ``z_1``.
    """
    cells = placed_value.cells
    if not any(cell.number.decimal for cell in cells):
        return None  # m_0 = 0: a start that needs no print
    for name in placed_value.value.names:
        element = element_of(name)
        if element is None:
            continue
        siblings = [name_printed for name_printed in transcript.entries
                    if (found := element_of(name_printed)) and found[0] == element[0]]
        if siblings:
            message = (f"{name}: not printed, though the snippet printed {', '.join(siblings)};"
                       f" print {name}, or write the name it was printed under")
            return [Verdict("named", name, None, cells[0], Outcome.RANGE, None, None, False,
                            message)]
    return None


def _check_unprinted(placed_value: PlacedValue, printed: Printed,
                     derivations: Derivations, binder: Binder | None) -> list[Verdict]:
    """A value whose name the snippet did not print (or a tuple or matrix with no name): a
    tuple or matrix may be a printed array, row or column as a whole (``\\vec{a}_3`` for row 3
    of a printed ``A``); otherwise each of its decimals must be derived or given, or it has no
    provenance, reported once, at its first such decimal. A named scalar is no free digit.

    Nothing is compared with "the closest" array: entry by entry as free digits, a sign
    dropped from ``(0, -0.7071, 0)`` would still find its ``0.7071`` printed somewhere. Where
    the book binds, a tuple or matrix instead has each entry bound to the printed quantity (or
    literal) it quotes, so that it cannot turn into another printed row; a named scalar only
    to a literal (its name says what it is: printed, given by the source, or derived).
    """
    cells = placed_value.cells
    decimals = [cell for cell in cells if cell.number.decimal]
    if not decimals and not placed_value.value.names:
        return _quoted_integers(placed_value, printed, derivations, binder)
    if not decimals and len(cells) == 1 and binder is not None and binder.strict:
        return _given_integer(placed_value, printed, derivations, binder)  # bound, not compared
    in_source = _given_value(placed_value, printed)
    if in_source is not None:
        return in_source
    if not decimals and len(cells) > 1:  # a tuple of integers is a value too: (-1000, -1001)
        decimals = list(cells)
    if not decimals:  # m_0 = 0: a start that needs no print, or a value the source gives
        return _given_integer(placed_value, printed, derivations, binder)
    if binder is None or not binder.strict:
        whole = _check_whole(placed_value, printed)
        if whole is not None:
            return whole
    if printed.transcript.problems:  # it may be what could not be read: that is the error
        return [check_free(cell, printed, derivations, binder) for cell in decimals]
    given = next((n for n in placed_value.value.names if n in printed.given_names), None)
    if given is not None and len(placed_value.cells) == 1:
        return [_given_name(placed_value, given, printed)]
    if binder is not None and placed_value.value.names and len(cells) == 1:
        binder = replace(binder, printed=False)  # a named scalar is no free digit
    verdicts = [derived_or_given(cell, printed, derivations, binder) for cell in decimals]
    missing = [cell for cell, verdict in zip(decimals, verdicts, strict=True) if verdict is None]
    found = [verdict for verdict in verdicts if verdict is not None]
    if binder is not None and binder.strict:
        found += _bound_integers(cells, decimals, printed, derivations, binder)
    if not missing:
        return found
    return [*found, _no_provenance(placed_value, missing[0], printed)]


def _quoted_integers(placed_value: PlacedValue, printed: Printed, derivations: Derivations,
                     binder: Binder | None) -> list[Verdict]:
    """A tuple or matrix of integers with no name, equated with an expression: a printed
    array as a whole, or (where the book binds) each integer bound where it quotes a printed
    quantity; integers that quote nothing are counts, and no error."""
    if binder is not None and binder.strict:
        return _bound_integers(placed_value.cells, (), printed, derivations, binder)
    return _check_whole(placed_value, printed) or []


def _given_integer(placed_value: PlacedValue, printed: Printed, derivations: Derivations,
                   binder: Binder | None) -> list[Verdict]:
    """A named integer the snippet did not print (``x = 2``): where the book binds, bound to
    the source's literal it quotes, so that it cannot turn into another number; one that
    quotes none is a count (``k = 2``), and no error. One whose name the source assigns a
    whole number (``alpha = 1``) is bound to that literal alone (never the ``1.0`` of another
    name's data), where it quotes it: ``y = 0`` of a source's ``y = 1`` is a count ("had the
    label been 0"); so is one whose name the source assigns another number."""
    counts = [found[0] for name in placed_value.value.names
              if (found := resolve(name, printed.given_values)) and not found[0].shape]
    if binder is None or not binder.strict:
        return []
    only = frozenset(named_label(entry) for entry in counts if is_whole_number(entry))
    if counts and not only:
        return []
    return _bound_integers(placed_value.cells, (), printed, derivations,
                           replace(binder, printed=False, only=only or None))


def _bound_integers(cells: Sequence[Placed], decimals: Sequence[Placed], printed: Printed,
                    derivations: Derivations, binder: Binder) -> list[Verdict]:
    """The integers of a tuple or matrix beside its decimals, each bound where it quotes a
    printed quantity (the whole printed array once said so, ``(0, -0.7071, 0)``); an integer
    that quotes none is a count, and no error."""
    checked = {id(cell) for cell in decimals}
    verdicts = (derived_or_given(cell, printed, derivations, binder)
                for cell in cells if id(cell) not in checked)
    return [verdict for verdict in verdicts if verdict is not None]


def _given_value(placed_value: PlacedValue, printed: Printed) -> list[Verdict] | None:
    """A name the snippet did not print that means a number or an array its source writes
    out, or an element of one (``\\lambda = 0.5``, ``\\boldsymbol{\\gamma} = (2,\\; 0.5)``,
    ``\\gamma_1 = 2``): each entry against the source's. None where the shapes differ, or
    where no entry is the source's: the name then means something else there ("had the label
    been y = 0", a Variation's ``\\boldsymbol{\\beta} = \\boldsymbol{\\mu} = (3,\\; 1)``), and
    the rules of a name the snippet did not print decide."""
    value, cells = placed_value.value, placed_value.cells
    for name in value.names:
        found = resolve(name, printed.given_values)
        if found is None:
            continue
        entry, index = found
        if index is None and _shapes_agree(value.shape, entry.shape):
            pairs = list(zip(indices(entry.shape), entry.values, strict=True))
        elif index is not None and not value.shape \
                and (flat := flat_index(index, entry.shape)) is not None:
            pairs = [(index, entry.values[flat])]
        else:
            continue
        verdicts = [_compare_cell(entry, where, text, cell, printed.policy, given=True)
                    for (where, text), cell in zip(pairs, cells, strict=True)]
        if any(verdict.outcome is Outcome.MATCH for verdict in verdicts):
            return verdicts
    return None


def _given_name(placed_value: PlacedValue, name: str, printed: Printed) -> Verdict:
    """A name the snippet's source assigns a number (``\\beta_1 = 0.9``): its value, given."""
    cell, given = placed_value.cells[0], printed.given_names[name]
    comparison = compare(cell.number.value_text, given, printed.policy)
    verdict = verdict_of("given", name, None, cell, comparison, f"{name} (given)")
    return with_provenance(verdict, f"given in the snippet's source: {name} = {given}")


def _no_provenance(placed_value: PlacedValue, cell: Placed, printed: Printed) -> Verdict:
    names = placed_value.value.names
    number, text = cell.number.text, cell.number.value_text
    if names:
        message = (f"{names[0]}: not printed by the snippet, and {number} is not derived on this "
                   f"page; print {names[0]}, or write the name it was printed under")
        label = printed.label_of(text, names[0])
        message += f" ({number} is printed as {label})" if label else ""
        given = resolve(names[0], printed.given_values)
        if given is not None and given[1] is None:
            entry = given[0]
            shown = entry.values[0] if not entry.shape else f"[{', '.join(entry.values)}]"
            message += (f"; the snippet's source gives {entry.name} = {shown} on line "
                        f"{entry.line}")
    else:
        message = (f"{number}: this tuple or matrix is no printed array, row or column, and is "
                   "not derived on this page; print it, or name it as it was printed")
    return Verdict("named" if names else "free", names[0] if names else None, None, cell,
                   Outcome.DIVERGE, None, None, False, message)


def _check_whole(placed_value: PlacedValue, printed: Printed) -> list[Verdict] | None:
    """A tuple or matrix with no name: the entries of the first printed array, row or column
    of its size that it matches entirely, or None."""
    value = placed_value.value
    if not value.shape:
        return None
    candidates = printed.arrays_of(len(placed_value.cells), len(value.shape))
    for entry, where, values in candidates:
        verdicts = [_compare_cell(entry, index, text, cell, printed.policy)
                    for index, text, cell in zip(where, values, placed_value.cells, strict=True)]
        if all(v.outcome is Outcome.MATCH for v in verdicts):
            return verdicts
    return None


def _check_against(
    placed_value: PlacedValue, entry: Entry, index: tuple[int, ...] | None, policy: Policy
) -> list[Verdict]:
    value = placed_value.value
    first = placed_value.cells[0] if placed_value.cells else None
    if index is not None:
        if value.shape != () or first is None:
            return [_shape_failure(entry.name + "_" + _join(index), value.shape, (), first)]
        flat = flat_index(index, entry.shape)
        if flat is None:
            message = (
                f"{entry.name}{index_label(index)}: no such element, the printed {entry.name} is "
                f"{_shape_text(entry.shape)}"
            )
            return [Verdict("named", entry.name, index, first, Outcome.RANGE, None, None, False,
                            message)]
        return [_compare_cell(entry, index, entry.values[flat], first, policy)]
    if not value.shape and first is not None and len(entry.values) > 1:
        every_entry = _constant(entry, first, policy)
        if every_entry is not None:
            return [every_entry]
    if not _shapes_agree(value.shape, entry.shape):
        return [_shape_failure(entry.name, value.shape, entry.shape, first)]
    every = indices(entry.shape)
    return [
        _compare_cell(entry, idx, printed, cell, policy)
        for idx, printed, cell in zip(every, entry.values, placed_value.cells, strict=True)
    ]


def _constant(entry: Entry, cell: Placed, policy: Policy) -> Verdict | None:
    """A scalar written for a printed array whose every entry it is (``V_0 = 0`` for the
    zero vector): it holds, as every entry; None if some entry is another number."""
    verdicts = [_compare_cell(entry, index, printed, cell, policy)
                for index, printed in zip(indices(entry.shape), entry.values, strict=True)]
    if not all(v.outcome is Outcome.MATCH for v in verdicts):
        return None
    return replace(verdicts[0], index=None, provenance=f"{entry.name}, printed "
                   f"{entry.values[0]} in each of its {len(entry.values)} entries")


def _compare_cell(entry: Entry, index: tuple[int, ...], printed: str, cell: Placed,
                  policy: Policy, given: bool = False) -> Verdict:
    """A written number against an entry's value: a printed one, or one the source gives."""
    label = entry.name + index_label(index)
    comparison = as_percentage(cell, compare(cell.number.value_text, printed, policy), policy,
                               face_judge(printed, percentage_itself(entry.name, printed)))
    verdict = verdict_of("given" if given else "named", entry.name, index, cell,
                         in_percent(cell, comparison), f"{label} (given)" if given else label)
    return with_provenance(verdict, f"given on line {entry.line} of the snippet: {label} = "
                           f"{printed}" if given else f"{label}, printed {printed}")


def _shape_failure(
    name: str, prose: tuple[int, ...], printed: tuple[int, ...], first: Placed | None
) -> Verdict:
    assert first is not None or prose == ()
    message = f"{name}: prose is {_shape_text(prose)}, printed is {_shape_text(printed)}"
    placed = first if first is not None else Placed(ProseNumber("", 0, 0, False), None, None, "")
    return Verdict("named", name, None, placed, Outcome.SHAPE, None, None, False, message)


def _shapes_agree(prose: tuple[int, ...], printed: tuple[int, ...]) -> bool:
    if prose == printed:
        return True
    vectors = {prose, printed}
    if any(len(s) == 1 for s in vectors) and prod(prose) == prod(printed):
        return all(len(s) == 1 or (len(s) == 2 and 1 in s) for s in vectors)
    return False


def _join(index: tuple[int, ...]) -> str:
    return ",".join(str(i) for i in index)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "a scalar" if not shape else "×".join(str(n) for n in shape)


__all__ = ["Outcome", "Placed", "PlacedEquation", "PlacedValue", "Verdict", "index_label",
           "verify"]
