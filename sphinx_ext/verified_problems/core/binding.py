"""Bindings: which printed quantity each free digit of a page stands for (DESIGN §3, *Bound*).

A decimal the prose neither names nor derives would otherwise only have to be *somewhere*
among the printed numbers, and a wrong digit that equals another printed number would pass. A
page's binding record says, for each such digit, which quantity it quotes: a printed name and
index (``E[1,2]``, ``denominator_3``), a number printed outside an entry (``output line 7``,
``output line 7 #2`` for the second on that line) or a literal of the snippet's source
(``snippet line 4``). A leading ``-`` binds a magnitude written after a binary minus to the
printed negative (``-x_2``). ``verified-bind`` writes the record while the page is right;
the build only reads it.

A record is matched to the page as a diff matches lines: each digit by its section and the
text around it, its own digits and every other number there masked, in order. So an inserted
sentence or a new equation shifts nothing, and a digit changed into another printed number
still finds its binding, which then says it is wrong. Pure: the record's text, the matching
and the quantities; reading and writing files is the caller's.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from .digits import Policy, PrintedPool, shorter_rounds_other, to_decimal
from .printed import Literal, Printed, index_label, indices, negated, percentage_itself
from .values import Entry

#: How many characters on each side of a digit identify where it stands.
NEAR = 24

_NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Binding:
    """One entry of a page's record: a free digit, where it stands, and what it quotes.

    ``bound`` is the quantity's label, or None while ``verified-bind`` still needs a person to
    choose among ``choose``. ``printed`` is the quantity's value when the binding was made,
    for a reviewer of the record's diff; the build compares with what is printed now.
    """

    snippet: str
    section: str
    near: str
    prose: str
    bound: str | None
    printed: str = ""
    choose: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        """What identifies the digit's place, whatever its digits now are."""
        return place_key(self.snippet, self.section, self.near)


def place_key(snippet: str, section: str, around: str) -> tuple[str, str, str]:
    """A digit's place as records compare it: typography folded, since a builder's smart
    quotes (HTML's ``’`` and ``—``, the text builder's ``'`` and ``---``) are no edit."""
    return (snippet, fold(section), fold(around))


_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-",
                             "…": "...", "\u00a0": " "})
_DASHES = re.compile(r"-{2,}")


def fold(text: str) -> str:
    """Text with smart quotes, dashes and ellipses as typed."""
    return _DASHES.sub("-", text.translate(_TYPOGRAPHY))


class RecordError(ValueError):
    """A binding record that cannot be read, with what is wrong in words an author can act on."""


def near(text: str, start: int, end: int) -> str:
    """The text around a digit, its numbers masked (``#``) and its spaces folded: what
    identifies the digit's place when any number there, its own included, is changed."""
    before = _mask(text[max(0, start - NEAR):start])
    after = _mask(text[end:end + NEAR])
    return f"{before}@{after}"


def _mask(text: str) -> str:
    return _SPACE.sub(" ", _NUMBER.sub("#", text)).strip()


def align(page: Sequence[tuple[str, ...]], record: Sequence[tuple[str, ...]]) -> dict[int, int]:
    """Which record entry each of the page's digits is, by their keys, as a diff aligns lines:
    ``{page index: record index}``. A key is a :func:`place_key` and the digits written there,
    so that places alike (a table's rows, whose masked places are one) are told apart by their
    digits, as a diff tells lines. Where a run was edited, each digit of the run is paired
    with the most alike entry of the run's by place alone (ties in order), if one is alike
    enough: a digit changed where it stands keeps its binding."""
    matcher = difflib.SequenceMatcher(None, list(record), list(page), autojunk=False)
    paired: dict[int, int] = {}
    for tag, r1, r2, p1, p2 in matcher.get_opcodes():
        if tag == "equal":
            paired.update(zip(range(p1, p2), range(r1, r2), strict=True))
        elif tag == "replace":
            paired.update(_alike(page, record, range(p1, p2), list(range(r1, r2))))
    return paired


#: How alike two places must be (difflib's ratio of their texts) to be one digit's.
ALIKE = 0.6


def _alike(page: Sequence[tuple[str, ...]], record: Sequence[tuple[str, ...]],
           digits: range, entries: list[int]) -> dict[int, int]:
    """The most alike pairs first, each digit and entry used once."""
    scored = sorted(((_likeness(page[p], record[r]), -abs(p - digits.start - n), p, r)
                     for p in digits for n, r in enumerate(entries)), reverse=True)
    paired: dict[int, int] = {}
    used: set[int] = set()
    for score, _, p, r in scored:
        if score >= ALIKE and p not in paired and r not in used:
            paired[p] = r
            used.add(r)
    return paired


def _likeness(one: tuple[str, ...], other: tuple[str, ...]) -> float:
    if one[:2] != other[:2]:
        return 0.0  # another snippet's or another section's
    return difflib.SequenceMatcher(None, one[2], other[2], autojunk=False).ratio()


def read_record(text: str) -> list[Binding]:
    """The bindings of a record's text; :class:`RecordError` says what is wrong with it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON ({error.msg} at line {error.lineno}); run make bind to "
                          "write it again") from None
    rows = data.get("bindings") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise RecordError("no list of 'bindings'; run make bind to write it again")
    return [_binding(row, n) for n, row in enumerate(rows, start=1)]


def _binding(row: Any, n: int) -> Binding:
    fields = ("snippet", "section", "near", "prose")
    if not isinstance(row, dict) or not all(isinstance(row.get(f), str) for f in fields):
        raise RecordError(f"binding {n} lacks one of {', '.join(fields)}; run make bind")
    bound = row.get("bound")
    choose = row.get("choose", [])
    if not (bound is None or isinstance(bound, str)) or not isinstance(choose, list):
        raise RecordError(f"binding {n}: 'bound' must be a quantity or null, 'choose' a list")
    return Binding(row["snippet"], row["section"], row["near"], row["prose"], bound,
                   str(row.get("printed", "")), tuple(str(c) for c in choose))


def write_record(bindings: Iterable[Binding], about: str) -> str:
    """A record's text: one binding a line, so that its diff reads binding by binding."""
    rows = [json.dumps(_row(b), ensure_ascii=False) for b in bindings]
    listed = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    return f'{{\n  "about": {json.dumps(about, ensure_ascii=False)},\n  "bindings": {listed}\n}}\n'


def _row(binding: Binding) -> dict[str, Any]:
    row: dict[str, Any] = {"prose": binding.prose, "bound": binding.bound}
    if binding.choose:
        row["choose"] = list(binding.choose)
    row.update(printed=binding.printed, section=binding.section, near=binding.near,
               snippet=binding.snippet)
    return row


class Quantities:
    """Every quantity one snippet's free digits may be bound to, by label and by value.

    Printed quantities come first: a source literal is a candidate only for digits that match
    no printed number (a printed ``x = 0.5`` is what the prose quotes, not the ``0.5`` its
    source assigns).
    """

    def __init__(self, printed: Printed, literals: Sequence[Literal]) -> None:
        self.policy = printed.policy
        self.values: dict[str, str] = {}
        self._printed = _Labelled(self.values, _printed_labels(printed))
        literal_labels = _literal_labels(literals)
        named = [(named_label(entry), entry.values[0]) for entry in printed.given_values.values()
                 if is_whole_number(entry)]
        self._literals = _Labelled(self.values, [
            *((label, lit.text) for label, lit in literal_labels), *named])
        self._minus = {label for label, lit in literal_labels if lit.minus}
        self._percentages = frozenset(printed.transcript.percentages)

    def percentage_itself(self, label: str) -> bool:
        """Whether a quantity may be a percentage itself (:func:`.printed.percentage_itself`,
        or printed before a percent sign): what a percentage's digits as written may quote."""
        value = self.value(label)
        return value is not None and (percentage_itself(label, value)
                                      or value in self._percentages)

    def value(self, label: str) -> str | None:
        """The value a binding stands for now: of each quantity of a group (``A[1,1] = A[2,2]``,
        printed alike, :func:`same_value`), negated for ``-LABEL``; None if one is no longer
        printed or their values now differ (:meth:`values_of` says which)."""
        values = self.values_of(label)
        if any(v is None for v in values):
            return None
        first = to_decimal(str(values[0]))
        if not all(same_value(first, to_decimal(str(v))) for v in values):
            return None
        return values[0]

    def values_of(self, label: str) -> list[str | None]:
        """The value of each quantity of a binding, as printed now (None: not printed)."""
        return [self._one(part) for part in label.split(GROUP)]

    def _one(self, label: str) -> str | None:
        if label.startswith("-"):
            found = self.values.get(label[1:])
            return None if found is None else negated(found)
        return self.values.get(label)

    def candidates(self, prose: str, magnitude: bool, printed: bool = True,
                   policy: Policy | None = None) -> tuple[tuple[str, str], ...]:
        """What a free digit's digits may be bound to at the policy (or at ``policy``): one
        group a value, of every quantity printed with that value (``a_1[1] = A[1,1]``); with
        ``magnitude``, the negatives' too (``-x_2``); without ``printed``, the source's literals
        only (for a value the prose names, which the snippet did not print). Each with its
        value."""
        policy = policy or self.policy
        found = self._printed.matching(prose, policy, magnitude) if printed else []
        if not found:
            found = [(value, label) for value, label in
                     self._literals.matching(prose, policy, magnitude=True)
                     if not label.startswith("-") or label[1:] in self._minus]
        return tuple((group, str(self._one(group.split(GROUP)[0])))
                     for group in _grouped(found))


#: What joins the quantities of a group in a binding: they printed the same value.
GROUP = " = "


#: Printed values that agree to this many significant digits (or, below 1, decimal places)
#: are one value, printed twice through a float's rounding (``0.98`` and
#: ``0.9799999999999996``, ``0`` and ``-5.551115123125783e-17``): one binding, not a choice.
SAME_DIGITS = 12


#: A value printed with fewer places is the same value as one that rounds to it, where it
#: shows at least this many significant digits (``0.70710678``, ``round(v, 8)``, and
#: ``0.7071067811865475``): one quantity printed at two precisions, not a coincidence.
SHOWN_DIGITS = 6


def same_value(one: Decimal, other: Decimal) -> bool:
    """Whether two printed values are one value: equal to :data:`SAME_DIGITS` significant
    digits (or decimal places, where they are smaller than 1), or the one with fewer places,
    showing :data:`SHOWN_DIGITS` digits or more, is the other rounded."""
    scale = max(abs(one), abs(other), Decimal(1))
    if one == other or abs(one - other) <= scale.scaleb(-SAME_DIGITS):
        return True
    short = max((one, other), key=lambda v: int(v.as_tuple().exponent))
    return len(short.as_tuple().digits) >= SHOWN_DIGITS and shorter_rounds_other(one, other)


def _grouped(found: list[tuple[Decimal, str]]) -> list[str]:
    groups: list[tuple[Decimal, list[str]]] = []
    for value, label in found:
        group = next((labels for first, labels in groups if same_value(first, value)), None)
        if group is None:
            groups.append((value, [label]))
        else:
            group.append(label)
    return [GROUP.join(labels) for _value, labels in groups]


class _Labelled:
    """Labelled values: which labels a prose number may stand for, by a pool of their values."""

    def __init__(self, values: dict[str, str], labelled: Iterable[tuple[str, str]]) -> None:
        self.by_value: dict[Decimal, list[str]] = {}
        for label, text in labelled:
            values[label] = text
            value = to_decimal(text)
            if value.is_finite():
                self.by_value.setdefault(value, []).append(label)
        self.pool = PrintedPool(str(value) for value in self.by_value)

    def matching(self, prose: str, policy: Policy,
                 magnitude: bool) -> list[tuple[Decimal, str]]:
        """Each label whose value the prose number matches, with the value it then stands for."""
        found = [(value, label) for value in self.pool.matches(prose, policy)
                 for label in self.by_value[value]]
        if magnitude:
            found += [(-value, "-" + label) for value in self.pool.matches(negated(prose), policy)
                      for label in self.by_value[value]]
        return found


def _printed_labels(printed: Printed) -> Iterable[tuple[str, str]]:
    for entry in printed.transcript.entries.values():
        for index, text in zip(indices(entry.shape), entry.values, strict=False):
            yield entry.name + index_label(index), text
    yield from _by_line("output line", printed.transcript.unnamed)


def named_label(entry: Entry) -> str:
    """The label of a whole number the source assigns a name (``alpha = 1``): bound by name,
    ``snippet line 9 alpha``, since a count is bound only to its own name's literal."""
    return f"snippet line {entry.line} {entry.name}"


def is_whole_number(entry: Entry) -> bool:
    """Whether a given value is one whole number (``k = 3``), which the prose may quote as a
    count."""
    return not entry.shape and entry.values[0].lstrip("-").isdigit()


def _literal_labels(literals: Sequence[Literal]) -> list[tuple[str, Literal]]:
    labels = _by_line("snippet line", [(literal.line, literal.text) for literal in literals])
    return [(label, literal) for (label, _), literal in zip(labels, literals, strict=True)]


def _by_line(what: str, numbers: Sequence[tuple[int, str]]) -> list[tuple[str, str]]:
    """Labels for numbers by their line: ``output line 7``, or ``output line 7 #2`` for the
    second of several on that line."""
    per_line: dict[int, int] = {}
    for line, _text in numbers:
        per_line[line] = per_line.get(line, 0) + 1
    ordinal: dict[int, int] = {}
    labels: list[tuple[str, str]] = []
    for line, text in numbers:
        ordinal[line] = ordinal.get(line, 0) + 1
        suffix = f" #{ordinal[line]}" if per_line[line] > 1 else ""
        labels.append((f"{what} {line}{suffix}", text))
    return labels


def describe(label: str, value: str) -> str:
    """A binding as the reader's tooltip and the reports say it."""
    if is_literal(label):
        return f"given on {_source_line(label)} of the snippet: {value}"
    parts = label.split(GROUP)
    if len(parts) > 3:
        label = f"{GROUP.join(parts[:2])} (and {len(parts) - 2} more printed alike)"
    return f"bound to {label}, printed {value}"


def bound_to(label: str, value: str) -> str:
    """A binding as an error names it: ``bound to denominator_3, printed 1.98613738``, or
    ``bound to the literal 1.0 on line 5 of the snippet``."""
    if is_literal(label):
        return f"bound to the literal {value} on {_source_line(label)} of the snippet"
    return f"bound to {label}, printed {value}"


def _source_line(label: str) -> str:
    return "line " + label.lstrip("-").removeprefix("snippet line ").split(" ")[0]


def is_literal(label: str) -> bool:
    """Whether a binding quotes the snippet's source (a given number) rather than its output."""
    return all(part.lstrip("-").startswith("snippet line ") for part in label.split(GROUP))
