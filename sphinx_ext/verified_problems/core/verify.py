"""The verdict on one snippet's share of a page: every prose number against the transcript.

Pure: it takes the parsed transcript, the named values and free digits the prose holds (each
with where it stands), and the rounding policy, and returns one :class:`Verdict` per number.
The Sphinx side only locates numbers and reports what this returns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from math import prod

from .digits import Comparison, Policy, PrintedPool, Status, compare
from .values import Entry, NamedValue, ProseNumber, Transcript


class Outcome(StrEnum):
    """How one prose number fared; everything but MATCH and EXEMPT is reported."""

    MATCH = "match"
    DIVERGE = "diverge"
    AMBIGUOUS = "ambiguous"
    SHAPE = "shape"
    RANGE = "range"
    EXEMPT = "exempt"


@dataclass(frozen=True)
class Placed:
    """A prose number with the page position the caller resolved for it."""

    number: ProseNumber
    line: int | None
    column: int | None
    context: str


@dataclass(frozen=True)
class PlacedValue:
    """A named value with its cells placed."""

    value: NamedValue
    cells: tuple[Placed, ...]


@dataclass(frozen=True)
class Verdict:
    """One checked (or exempted) prose number: a row of the report, a message when it fails."""

    kind: str  # "named", "free" or "exempt"
    name: str | None
    index: tuple[int, ...] | None  # 1-based, into the printed array
    placed: Placed
    outcome: Outcome
    printed: str | None
    places: int | None
    over_policy: bool
    message: str

    @property
    def failed(self) -> bool:
        """Whether this number fails the build."""
        return self.outcome not in (Outcome.MATCH, Outcome.EXEMPT)


_ELEMENT = re.compile(r"(?P<base>.+?)_(?P<index>\d+(?:,\d+)*)")


def verify(
    transcript: Transcript,
    named: Sequence[PlacedValue],
    free: Sequence[Placed],
    exempt: Sequence[Placed],
    policy: Policy,
) -> list[Verdict]:
    """Check a snippet's share of a page: named values entry by entry, the rest as free digits."""
    pool = PrintedPool(transcript.numbers)
    verdicts: list[Verdict] = []
    leftover: list[Placed] = list(free)
    for placed_value in named:
        checked = _check_named(placed_value, transcript, policy)
        if checked is None:
            checked = _unprinted_sibling(placed_value, transcript)
        if checked is None:
            checked = _check_whole(placed_value, transcript, policy)
        if checked is None:
            leftover.extend(cell for cell in placed_value.cells if cell.number.decimal)
        else:
            verdicts.extend(checked)
    verdicts.extend(_check_free(cell, pool, policy) for cell in leftover)
    verdicts.extend(
        Verdict("exempt", None, None, cell, Outcome.EXEMPT, None, None, False, "")
        for cell in exempt
    )
    verdicts.sort(key=lambda v: (v.placed.line or 0, v.placed.column or 0))
    return verdicts


def resolve(name: str, entries: dict[str, Entry]) -> tuple[Entry, tuple[int, ...] | None] | None:
    """The printed quantity a prose name refers to: itself, or an element of a printed array.

    ``O_11`` is the quantity ``O_11`` if the snippet printed one; otherwise element (1, 1) of a
    printed 2-D ``O`` (one digit per axis, or comma-separated indices ``O_10,2``). One index
    into a printed column or row (shape (n, 1) or (1, n), as numpy prints a column vector) is
    its element: ``w_2`` is ``w[2, 1]``. Without that, ``w_2`` named nothing and its value was
    left to match any printed number.
    """
    if name in entries:
        return entries[name], None
    match = _ELEMENT.fullmatch(name)
    if match is None or match["base"] not in entries:
        return None
    entry = entries[match["base"]]
    raw = match["index"]
    if "," in raw:
        index = tuple(int(part) for part in raw.split(","))
    elif len(entry.shape) == len(raw):
        index = tuple(int(digit) for digit in raw)
    elif len(entry.shape) == 1:
        index = (int(raw),)
    elif len(entry.shape) == 2 and 1 in entry.shape:
        index = (int(raw), 1) if entry.shape[1] == 1 else (1, int(raw))
    else:
        return None
    return entry, index


def _check_named(
    placed_value: PlacedValue, transcript: Transcript, policy: Policy
) -> list[Verdict] | None:
    resolved = [(n, r) for n in placed_value.value.names if (r := resolve(n, transcript.entries))]
    if not resolved:
        return None
    verdicts: list[Verdict] = []
    for _name, (entry, index) in resolved:
        verdicts.extend(_check_against(placed_value, entry, index, policy))
    return verdicts


def _unprinted_sibling(placed_value: PlacedValue, transcript: Transcript) -> list[Verdict] | None:
    """A name such as ``z_2`` that the snippet did not print, where it printed ``z_1`` and ``z_3``.

    Any other unprinted name is matched against every printed array (:func:`_check_whole`), and
    here that would let a wrong index pass: ``\\vec{z}_2`` written with row 1's values matches
    the printed ``z_1``. An author who prints a family by index prints each one the prose quotes.
    """
    cells = placed_value.cells
    if not cells:
        return None
    for name in placed_value.value.names:
        match = _ELEMENT.fullmatch(name)
        if match is None:
            continue
        siblings = [printed for printed in transcript.entries
                    if (found := _ELEMENT.fullmatch(printed)) and found["base"] == match["base"]]
        if siblings:
            message = (f"{name}: not printed, though the snippet printed {', '.join(siblings)};"
                       f" print {name}, or write the name it was printed under")
            return [Verdict("named", name, None, cells[0], Outcome.RANGE, None, None, False,
                            message)]
    return None


def _check_whole(
    placed_value: PlacedValue, transcript: Transcript, policy: Policy
) -> list[Verdict] | None:
    """A tuple or matrix the snippet did not print under its name: it must be a printed array.

    Checked as a whole against every printed array, row or column of that size; the entries
    are taken from the first that matches entirely, or compared with the closest one. Entry
    by entry as free digits, a sign dropped from ``(0, -0.7071, 0)`` would still find its
    ``0.7071`` printed somewhere.
    """
    value = placed_value.value
    if not value.shape or not any(cell.number.decimal for cell in placed_value.cells):
        return None
    candidates = list(_candidates(transcript, len(placed_value.cells), len(value.shape)))
    if not candidates:
        return None
    scored = []
    for rank, (entry, indices, printed) in enumerate(candidates):
        verdicts = [_compare_cell(entry, index, text, cell, policy)
                    for index, text, cell in zip(indices, printed, placed_value.cells, strict=True)]
        misses = sum(v.outcome is not Outcome.MATCH for v in verdicts)
        if misses == 0:
            return verdicts
        scored.append((misses, rank, verdicts))
    *_, closest = min(scored, key=lambda scored_one: scored_one[:2])
    note = " (this tuple or matrix is no printed array; compared with the closest one)"
    return [v if not v.failed else replace(v, message=v.message + note) for v in closest]


def _candidates(
    transcript: Transcript, size: int, ndim: int
) -> Iterable[tuple[Entry, list[tuple[int, ...]], tuple[str, ...]]]:
    """Printed arrays of ``size`` entries: whole arrays first, then rows and columns."""
    entries = list(transcript.entries.values())
    for entry in entries:
        if len(entry.values) == size and entry.shape:
            yield entry, list(_indices(entry.shape)), entry.values
    for entry in entries:
        if ndim == 1 and len(entry.shape) == 2:
            rows, columns = entry.shape
            if columns == size:
                for r in range(rows):
                    yield (entry, [(r + 1, c + 1) for c in range(columns)],
                           entry.values[r * columns:(r + 1) * columns])
            if rows == size and columns > 1:
                for c in range(columns):
                    yield (entry, [(r + 1, c + 1) for r in range(rows)],
                           tuple(entry.values[r * columns + c] for r in range(rows)))


def _check_against(
    placed_value: PlacedValue, entry: Entry, index: tuple[int, ...] | None, policy: Policy
) -> list[Verdict]:
    value = placed_value.value
    first = placed_value.cells[0] if placed_value.cells else None
    if index is not None:
        if value.shape != () or first is None:
            return [_shape_failure(entry.name + "_" + _join(index), value.shape, (), first)]
        flat = _flat_index(index, entry.shape)
        if flat is None:
            message = (
                f"{entry.name}{index_label(index)}: no such element, the printed {entry.name} is "
                f"{_shape_text(entry.shape)}"
            )
            return [Verdict("named", entry.name, index, first, Outcome.RANGE, None, None, False,
                            message)]
        return [_compare_cell(entry, index, entry.values[flat], first, policy)]
    if not _shapes_agree(value.shape, entry.shape):
        return [_shape_failure(entry.name, value.shape, entry.shape, first)]
    indices = list(_indices(entry.shape))
    return [
        _compare_cell(entry, idx, printed, cell, policy)
        for idx, printed, cell in zip(indices, entry.values, placed_value.cells, strict=True)
    ]


def _compare_cell(
    entry: Entry, index: tuple[int, ...], printed: str, cell: Placed, policy: Policy
) -> Verdict:
    comparison = compare(cell.number.text, printed, policy)
    label = entry.name + index_label(index)
    return _verdict("named", entry.name, index, cell, comparison, label)


def _check_free(cell: Placed, pool: PrintedPool, policy: Policy) -> Verdict:
    comparison = pool.match(cell.number.text, policy)
    return _verdict("free", None, None, cell, comparison, "free digit")


def _verdict(
    kind: str,
    name: str | None,
    index: tuple[int, ...] | None,
    cell: Placed,
    comparison: Comparison,
    label: str,
) -> Verdict:
    outcome = {
        Status.MATCH: Outcome.MATCH,
        Status.DIVERGE: Outcome.DIVERGE,
        Status.AMBIGUOUS: Outcome.AMBIGUOUS,
    }[comparison.status]
    message = _message(label, kind, cell, comparison)
    return Verdict(kind, name, index, cell, outcome, comparison.printed, comparison.places,
                   comparison.over_policy, message)


def _message(label: str, kind: str, cell: Placed, comparison: Comparison) -> str:
    written = cell.number.text
    if comparison.status is Status.MATCH:
        return ""
    if comparison.status is Status.AMBIGUOUS:
        return (
            f"{label}: prose {written}, printed {comparison.printed} is an exact tie at "
            f"{comparison.places} d.p.; print more digits so the rounding is decided"
        )
    if kind == "free":
        nearest = f"nearest printed {comparison.printed}" if comparison.printed else "none printed"
        return f"{label}: prose {written} is not among the printed numbers ({nearest})"
    return f"{label}: prose {written}, printed {comparison.printed}"


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


def _indices(shape: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
    if not shape:
        yield ()
        return
    for first in range(1, shape[0] + 1):
        for rest in _indices(shape[1:]):
            yield (first, *rest)


def _flat_index(index: tuple[int, ...], shape: tuple[int, ...]) -> int | None:
    if len(index) != len(shape) or any(not 1 <= i <= n for i, n in zip(index, shape, strict=True)):
        return None
    flat = 0
    for i, n in zip(index, shape, strict=True):
        flat = flat * n + (i - 1)
    return flat


def index_label(index: tuple[int, ...] | None) -> str:
    """How an entry's 1-based index is shown everywhere: ``[1,2]``, nothing for a scalar."""
    return f"[{','.join(str(i) for i in index)}]" if index else ""


def _join(index: tuple[int, ...]) -> str:
    return ",".join(str(i) for i in index)


def _shape_text(shape: tuple[int, ...]) -> str:
    return "a scalar" if not shape else "×".join(str(n) for n in shape)
