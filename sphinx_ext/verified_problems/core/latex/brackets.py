r"""Passes 3 and 4 of the reader: brackets matched, numbers folded (signs, scientific form).

**Brackets.** ``( )``, ``[ ]``, ``\{ \}``, ``\langle \rangle``, …, ``\left… \right…`` and
``\bigl… \bigr…`` become delimited items, so that commas inside them split nothing. Plain
brackets pair with any plain bracket (``[0, 1)``); ``\left`` only with ``\right``.

**Numbers.** ``\infty`` becomes ``inf``. A minus (``-`` or ``−``) directly before a number,
spacing aside, is its sign when nothing that could be subtracted from stands before it: the
start of a group, block or environment, an operator, a relation, an opening bracket, a
comma, ``&``, ``\\``, ``\quad``, or a ``|`` that itself opens. ``1.2 \times 10^{-5}`` (or
``\cdot``) becomes one number ``1.2e-5`` whose span is the whole written form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from ..values import SourceProblem
from .tokens import (
    Container,
    Delim,
    Env,
    Group,
    Item,
    Num,
    Tok,
    argument_of,
    is_bracketed,
    is_tok,
    span_of,
    text_of,
    with_items,
)
from .vocabulary import (
    CLOSERS,
    DIMENSION,
    ENVIRONMENT_ARGUMENTS,
    MINUS,
    OPENERS,
    OPTIONAL_ARGUMENT,
    SCIENTIFIC_TIMES,
    SCRIPT_MARKS,
    SIGN_CONTEXT,
    SIZED,
    SIZED_LEFT,
    SIZED_RIGHT,
)

# -- pass 3: brackets ------------------------------------------------------------------------


@dataclass
class _Frame:
    """An open bracket waiting for its closer (``paired``: a ``\\left``, closed by ``\\right``)."""

    opener: tuple[Tok, ...]
    paired: bool
    items: list[Item] = field(default_factory=list)


def _bracket_at(items: Sequence[Item], i: int, *, opening: bool) -> tuple[int, bool] | None:
    """The width and pairedness of the opening (closing) bracket at ``i``, if one is there."""
    item = items[i]
    if not isinstance(item, Tok):
        return None
    after = items[i + 1] if i + 1 < len(items) else None
    delimiter = isinstance(after, Tok)
    bare = OPENERS if opening else CLOSERS
    if item.text == ("\\left" if opening else "\\right") and delimiter:
        return 2, True
    if item.text in (SIZED_LEFT if opening else SIZED_RIGHT) and delimiter:
        return 2, False
    if item.text in SIZED and after is not None and is_tok(after, bare):
        return 2, False
    return (1, False) if item.text in bare else None


def match_brackets(items: Sequence[Item], problems: list[SourceProblem]) -> list[Item]:
    """``items`` with each matched pair of brackets turned into a :class:`Delim`."""
    inner = [
        with_items(item, match_brackets(item.items, problems))
        if isinstance(item, Container) else item
        for item in items
    ]
    inner = [_without_arguments(item) if isinstance(item, Env) else item for item in inner]
    stack = [_Frame((), paired=False)]
    i = 0
    while i < len(inner):
        if (opened := _bracket_at(inner, i, opening=True)) is not None:
            width, paired = opened
            stack.append(_Frame(_toks(inner[i : i + width]), paired))
            i += width
        elif (closed := _bracket_at(inner, i, opening=False)) is not None:
            width, paired = closed
            _close(stack, _toks(inner[i : i + width]), paired, problems)
            i += width
        else:
            stack[-1].items.append(inner[i])
            i += 1
    while len(stack) > 1:
        _abandon(stack, problems)
    return _without_row_options(stack[0].items)


def _without_arguments(env: Env) -> Env:
    """An environment without its arguments (``[t]``, ``{cc}``, ``[r]``): they are not math."""
    items: Sequence[Item] = env.items
    if env.name in OPTIONAL_ARGUMENT and items and is_bracketed(items[0], "["):
        items = items[1:]
    for _ in range(ENVIRONMENT_ARGUMENTS.get(env.name, 0)):
        if items and isinstance(items[0], Group):
            items = items[1:]
    return replace(env, items=tuple(items))


def _without_row_options(items: Sequence[Item]) -> list[Item]:
    r"""``items`` without the ``[2pt]`` of each ``\\[2pt]``: amsmath reads it as a spacing."""
    return [
        item for k, item in enumerate(items)
        if not (k and is_tok(items[k - 1], "\\\\") and _is_dimension(item))
    ]


def _is_dimension(item: Item) -> bool:
    """Whether ``item`` is a bracketed TeX length (``[2pt]``, ``[0.5em]``)."""
    if not (is_bracketed(item, "[") and isinstance(item, Delim) and item.closer == "]"):
        return False
    return DIMENSION.fullmatch("".join(text_of(part) for part in item.items)) is not None


def _toks(items: Sequence[Item]) -> tuple[Tok, ...]:
    return tuple(item for item in items if isinstance(item, Tok))


def _close(stack: list[_Frame], closer: tuple[Tok, ...], paired: bool,
           problems: list[SourceProblem]) -> None:
    if not paired:
        if len(stack) > 1 and not stack[-1].paired:
            _finish(stack, closer)
        else:
            stack[-1].items.extend(closer)
        return
    if not any(frame.paired for frame in stack):
        problems.append(SourceProblem(closer[0].start, "this `\\right` has no `\\left` before"
                                                       " it; put `\\left.` (which shows"
                                                       " nothing) where the pair opens"))
        stack[-1].items.extend(closer)
        return
    while not stack[-1].paired:
        _abandon(stack, problems)
    _finish(stack, closer)


def _finish(stack: list[_Frame], closer: tuple[Tok, ...]) -> None:
    frame = stack.pop()
    stack[-1].items.append(Delim(frame.opener[-1].text, closer[-1].text, tuple(frame.items),
                                  frame.opener[0].start, closer[-1].end))


def _abandon(stack: list[_Frame], problems: list[SourceProblem]) -> None:
    """An opener that nothing closes: its tokens stay where they are, as plain tokens."""
    frame = stack.pop()
    if frame.paired:
        problems.append(SourceProblem(frame.opener[0].start, "this `\\left` is never closed"
                                                             " by a `\\right`; put `\\right.`"
                                                             " (which shows nothing) where"
                                                             " the pair closes"))
    stack[-1].items.extend(frame.opener)
    stack[-1].items.extend(frame.items)


# -- pass 4: numbers -------------------------------------------------------------------------


_GAP = re.compile(
    r"(?:\s|~|%[^\n]*(?:\n|$)|\\[,;:! >]"
    r"|\\(?:quad|qquad|enspace|thinspace|medspace|thickspace|negthinspace)(?![a-zA-Z]))*"
)


@dataclass(frozen=True)
class Folder:
    """Folds infinity, signs and scientific notation into :class:`Num` items, everywhere.

    Parts are folded only when nothing but spacing stands between them in ``source`` (a brace
    that a tolerant parse dropped does not make a minus and a number adjacent).
    """

    source: str

    def fold(self, items: Sequence[Item]) -> list[Item]:
        """``items`` (and everything inside them) with their numbers folded."""
        inner = [
            with_items(item, self.fold(item.items)) if isinstance(item, Container) else item
            for item in items
        ]
        minus_forms = _minus_forms([_infinity(item) for item in inner])
        return _percents(self._scientific(self._signs(minus_forms)))

    def _adjacent(self, first: Item, then: Item) -> bool:
        """Whether only spacing stands between ``first`` and ``then`` in the source."""
        before, after = span_of(first), span_of(then)
        if before is None or after is None:
            return False
        return _GAP.fullmatch(self.source, before[1], after[0]) is not None

    def _signs(self, items: Sequence[Item]) -> list[Item]:
        out: list[Item] = []
        for item in items:
            minus = out[-1] if out else None
            if (isinstance(item, Num) and item.own and isinstance(minus, Tok) and minus.own
                    and minus.text in MINUS and _sign_may_stand(out, len(out) - 1)
                    and not item.text.startswith("-") and self._adjacent(minus, item)):
                out[-1] = replace(item, text="-" + item.text, start=minus.start)
            else:
                out.append(item)
        return out

    def _scientific(self, items: Sequence[Item]) -> list[Item]:
        out: list[Item] = []
        i = 0
        while i < len(items):
            folded = self._scientific_at(items, i)
            if folded is None:
                out.append(items[i])
                i += 1
            else:
                out.append(folded)
                i += 5
        return out

    def _scientific_at(self, items: Sequence[Item], i: int) -> Num | None:
        r"""``m \times 10^{e}`` (or ``\cdot``) at ``i`` as one number ``me e``, if it is there."""
        window = list(items[i : i + 5])
        if len(window) < 5:
            return None
        mantissa, times, ten, caret, exponent = window
        if not (isinstance(mantissa, Num) and mantissa.own and "inf" not in mantissa.text
                and is_tok(times, SCIENTIFIC_TIMES) and isinstance(ten, Num) and ten.own
                and ten.text == "10" and is_tok(caret, "^")
                and isinstance(exponent, Num | Group)):
            return None
        if i and is_tok(items[i - 1], SCRIPT_MARKS):
            return None  # the 6 of `10^6 \times 10^3` is an exponent, no number of its own
        parts = [mantissa, times, ten, caret, exponent]
        power = _integer(exponent)
        if power is None or not all(self._adjacent(a, b) for a, b in pairwise(parts)):
            return None
        return replace(mantissa, text=f"{mantissa.text}e{power}", end=exponent.end,
                       decimal=True)


def _infinity(item: Item) -> Item:
    if is_tok(item, "\\infty") and isinstance(item, Tok):
        return Num("inf", item.start, item.end, decimal=False, own=item.own)
    return item


def _minus_forms(items: Sequence[Item]) -> list[Item]:
    r"""``{-}`` and ``\mathord{-}`` (a minus kept from being binary) as the minus they are."""
    out: list[Item] = []
    for item in items:
        if isinstance(item, Group) and len(item.items) == 1 and is_tok(item.items[0], MINUS):
            if out and is_tok(out[-1], "\\mathord"):
                out.pop()
            out.append(item.items[0])
        else:
            out.append(item)
    return out


def _percents(items: Sequence[Item]) -> list[Item]:
    r"""A number followed by ``\%`` stands for its hundredth: it is marked so."""
    out = list(items)
    for k, item in enumerate(items):
        if not isinstance(item, Num):
            continue
        after = next((items[j] for j in range(k + 1, len(items))
                      if not is_tok(items[j], _SPACING)), None)
        if after is not None and is_tok(after, "\\%"):
            out[k] = replace(item, percent=True)
    return out


_SPACING = frozenset(["\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\thinspace"])


def _sign_may_stand(items: Sequence[Item], k: int) -> bool:
    """Whether a minus at ``k`` is a sign: nothing it could subtract from stands before it."""
    if k == 0:
        return True
    before = items[k - 1]
    if is_tok(before, "|"):  # an opening bar if a value may start where it stands
        return _sign_may_stand(items, k - 1)
    return is_tok(before, SIGN_CONTEXT)


def _integer(item: Item) -> str | None:
    """The integer an exponent holds (``5``, ``{-5}``), if that is all it holds."""
    if isinstance(item, Num) and len(item.text) > 1:
        return None  # `10^12` is 10 to the 1, then 2
    inner = argument_of(item)
    if len(inner) == 1 and isinstance(inner[0], Num) and inner[0].own:
        text = inner[0].text
        return text if text.lstrip("-").isdigit() else None
    return None
