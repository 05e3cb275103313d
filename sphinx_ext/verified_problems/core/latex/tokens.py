"""The token tree every pass of the reader works on, and the helpers to look into it.

A math block becomes a tree of small values: :class:`Tok` (a character or a control
sequence), :class:`Num` (a number as written), :class:`Group` (``{…}``), :class:`Env`
(``\\begin…\\end``), :class:`Delim` (what stands between matched brackets) and, in macro
bodies only, :class:`Param` (``#1``). Each keeps its span in the block, so every number can be
located and fixed where the author wrote it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from ..values import ProseNumber

# -- the token tree --------------------------------------------------------------------------

# The items below are values: no pass changes one, each builds new ones (``with_items``,
# ``replace``). They are not ``frozen`` only because a frozen dataclass costs four times as
# much to build, and a page's math makes thousands of them; ``unsafe_hash`` keeps them
# hashable by value, as frozen ones are.


@dataclass(unsafe_hash=True, slots=True)
class Tok:
    r"""One character (``a``, ``=``, ``&``) or control sequence (``\alpha``, ``\\``).

    ``own`` is False for a token that came from a macro body: it stands at the macro's offset.
    """

    text: str
    start: int
    end: int
    own: bool = True


@dataclass(unsafe_hash=True, slots=True)
class Num:
    """A number as written: canonical ``text``, its span, and whether it is checked."""

    text: str
    start: int
    end: int
    decimal: bool
    own: bool = True
    exempt: bool = False
    percent: bool = False

    def prose(self) -> ProseNumber:
        """The shared value type."""
        return ProseNumber(self.text, self.start, self.end, self.decimal, self.exempt,
                           self.percent)


@dataclass(unsafe_hash=True, slots=True)
class Group:
    """A ``{…}`` group (or ``$…$`` inside ``\\text``)."""

    items: tuple[Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class Env:
    """A ``\\begin{name}…\\end{name}`` environment and its body."""

    name: str
    items: tuple[Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class Delim:
    r"""What stands between matched brackets; ``opener``/``closer`` are the bare brackets."""

    opener: str
    closer: str
    items: tuple[Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class Param:
    """``#n`` in a macro body, before substitution."""

    index: int


Item: TypeAlias = "Tok | Num | Group | Env | Delim | Param"
Container = Group | Env | Delim


def is_tok(item: Item, texts: frozenset[str] | str) -> bool:
    """Whether ``item`` is a token with one of ``texts``."""
    if not isinstance(item, Tok):
        return False
    return item.text == texts if isinstance(texts, str) else item.text in texts


def span_of(item: Item) -> tuple[int, int] | None:
    """Where an item stands in the input (a ``#n`` of a macro body stands nowhere)."""
    return None if isinstance(item, Param) else (item.start, item.end)


def with_items(item: Container, items: Sequence[Item]) -> Container:
    """``item`` holding ``items``; itself if they are the very items it holds.

    Every pass rebuilds every container, and most come out as they went in.
    """
    held = item.items
    if len(items) == len(held) and all(a is b for a, b in zip(items, held, strict=True)):
        return item
    if isinstance(item, Group):
        return Group(tuple(items), item.start, item.end)
    if isinstance(item, Env):
        return Env(item.name, tuple(items), item.start, item.end)
    return Delim(item.opener, item.closer, tuple(items), item.start, item.end)


def walk(items: Sequence[Item]) -> Iterator[Item]:
    """Every item of the tree, depth first, in document order."""
    for item in items:
        yield item
        if isinstance(item, Container):
            yield from walk(item.items)


def argument_of(item: Item) -> Sequence[Item]:
    """What a macro argument holds: a group's content, or the one token."""
    return item.items if isinstance(item, Group) else (item,)


def is_bracketed(item: Item, opener: str) -> bool:
    return isinstance(item, Delim) and item.opener == opener


def is_infinity(item: Item) -> bool:
    r"""Whether ``item`` is ``\infty``: a number that is one token, as a script takes it whole."""
    return isinstance(item, Num) and item.text.lstrip("-") == "inf"


def text_of(item: Item) -> str:
    return item.text if isinstance(item, Tok | Num) else ""
