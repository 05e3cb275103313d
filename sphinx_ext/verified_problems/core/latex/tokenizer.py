r"""Passes 1 and 2 of the reader: the first tree made tokens, the book's macros expanded.

**Reading.** pylatexenc's ``LatexWalker`` gives groups, environments, macros and characters
with positions. It runs with an empty macro database, so that no macro takes arguments
behind our back: a ``{…}`` after a macro is just a group. Characters become one token each,
except digits, which become numbers (``12``, ``0.7071``, ``.5``; ``1.2e-5`` only with a
decimal point, since ``2e`` may be 2 times e). Whitespace, comments, small spacing (``\;``
``\,`` ``\:`` ``\!`` ``\>`` ``\ `` ``~``) and markup that is not math (``\label{…}``,
``\tag{…}``, ``\nonumber``, ``\displaystyle``, ``\phantom{…}``, ``\hspace{…}``, the colour of
``\color{…}``/``\textcolor{…}{x}``, the ``[2pt]`` of ``\\[2pt]``, environment arguments
such as ``{cc}`` and ``[t]``) are dropped. The content of ``\text{…}`` (``\textrm``,
``\mbox``, …) is read as running text, by the rules of :mod:`..text`.

**Macros.** The book's MathJax macros are expanded. Tokens from an argument keep their own
offsets; tokens from the body take the macro's offset and are not the author's: a number in
a macro body is never reported, a minus there is never a sign. ``\unchecked{…}`` (which wins
over a book macro of that name) marks what it holds as exempt.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..text import find_decimals
from ..values import SourceProblem
from .tokens import (
    Container,
    Env,
    Group,
    Item,
    Num,
    Param,
    Tok,
    argument_of,
    is_tok,
    span_of,
    with_items,
)
from .tree import LatexSyntaxError, Node, parse_strict
from .vocabulary import (
    CONNECTIVE_WRAPPERS,
    CONNECTIVES,
    DELIMITER_MACROS,
    DROPPED,
    DROPPED_WITH_ARGUMENT,
    EXEMPT_MACRO,
    EXPANSION_BUDGET,
    EXPANSION_DEPTH,
    TEXT_MACROS,
    MacroDef,
)

# -- pass 1: reading -------------------------------------------------------------------------

_NUMBER = r"(?P<num>[0-9]*\.[0-9]+(?:[eE][-+]?[0-9]+(?![.0-9]))?|[0-9]+)"  # 1.2e-5 needs a "."
_MATH_LEXEME = re.compile(_NUMBER + r"|(?P<char>\S)")
_BODY_LEXEME = re.compile(_NUMBER + r"|#(?P<param>[1-9])|(?P<char>\S)")  # #1 in macro bodies


def _takes_delimiter(items: Sequence[Item]) -> bool:
    """Whether the last token read is ``\\left``, ``\\right`` or a size: a delimiter follows."""
    return bool(items) and is_tok(items[-1], DELIMITER_MACROS)


@dataclass
class Reader:
    """Turns the tree's nodes into tokens; ``at`` is set when reading a macro body."""

    at: tuple[int, int] | None = None

    def read(self, nodes: Sequence[Node], *, text: bool = False) -> list[Item]:
        """The tokens of a node list (``text``: the content of ``\\text{…}``)."""
        out: list[Item] = []
        i = 0
        while i < len(nodes):
            node = nodes[i]
            i += 1
            if node.kind == "chars":
                if not text and node.text.startswith(".") and _takes_delimiter(out):
                    out.append(self._tok(".", node.start, node.start + 1))  # ``\\left.``
                    node = replace(node, start=node.start + 1, text=node.text[1:])
                out.extend(self._chars(node.text, node.start, text=text))
            elif node.kind == "group":
                out.append(self._group(node, text=text))
            elif node.kind == "math":
                out.append(self._group(node, text=False))
            elif node.kind == "env":
                out.append(self._env(node))
            else:
                i = self._macro(node, nodes, i, out)
        return out

    @property
    def own(self) -> bool:
        """Whether what is read is the author's own text (not a macro body)."""
        return self.at is None

    def _span(self, start: int, end: int) -> tuple[int, int]:
        return self.at if self.at is not None else (start, end)

    def _tok(self, text: str, start: int, end: int) -> Tok:
        return Tok(text, *self._span(start, end), own=self.own)

    def _chars(self, chars: str, base: int, *, text: bool) -> Iterator[Item]:
        if text:
            yield from self._text_chars(chars, base)
            return
        for match in (_MATH_LEXEME if self.own else _BODY_LEXEME).finditer(chars):
            start, end = base + match.start(), base + match.end()
            if match["num"]:
                yield Num(match["num"], *self._span(start, end), "." in match["num"],
                           own=self.own)
            elif match["char"] is None:
                yield Param(int(match["param"]))
            elif match["char"] != "~":
                yield self._tok(match["char"], start, end)

    def _text_chars(self, chars: str, base: int) -> Iterator[Item]:
        decimals = {number.start: number for number in find_decimals(chars)}
        i = 0
        while i < len(chars):
            number = decimals.get(i)
            if number is not None:
                yield Num(number.text, *self._span(base + i, base + number.end),
                           decimal=True, own=self.own)
                i = number.end
                continue
            if not chars[i].isspace() and chars[i] != "~":
                yield self._tok(chars[i], base + i, base + i + 1)
            i += 1

    def _group(self, node: Node, *, text: bool) -> Group:
        items = self.read(node.children, text=text)
        return Group(tuple(items), *self._span(node.start, node.end))

    def _env(self, node: Node) -> Env:
        items = tuple(self.read(node.children))
        return Env(node.text, items, *self._span(node.start, node.end))

    def _macro(self, node: Node, nodes: Sequence[Node], i: int, out: list[Item]) -> int:
        """Append the macro's token (if it is kept); return where reading goes on."""
        name = node.text
        if name in DROPPED:
            return i
        if name in DROPPED_WITH_ARGUMENT:
            if _is_star(nodes, i) and _is_group(nodes, i + 1):  # \tag*{…}
                return i + 2
            return i + 1 if _is_group(nodes, i) else i
        follows_group = _is_group(nodes, i)
        if follows_group and name in CONNECTIVE_WRAPPERS and _is_connective(nodes[i]):
            out.append(self._tok("\\quad", node.start, nodes[i].end))  # \text{ and }
            return i + 1
        out.append(self._tok("\\" + name, node.start, node.end))
        if name in TEXT_MACROS and follows_group:
            out.append(self._group(nodes[i], text=True))
            return i + 1
        return i


_FIRST_WORD = re.compile(r"[\s,;:]*(?P<word>[A-Za-z][A-Za-z./]*)")


def _is_connective(group: Node) -> bool:
    """Whether a ``\\text{…}`` group holds words that join equations (``and``, ``where``)."""
    if not all(child.kind == "chars" for child in group.children):
        return False
    text = "".join(child.text for child in group.children)
    if any(c.isdigit() for c in text):
        return False
    found = _FIRST_WORD.match(text)
    if found is None:
        return bool(text.strip()) and not text.strip(" ,;")  # `\text{, }`: a comma
    written = found["word"]
    if written not in (written.lower(), written.capitalize()):
        return False  # \\mathrm{AS}: an acronym, a name
    word = written.lower()
    return word in CONNECTIVES or word.rstrip(".,") in CONNECTIVES


def _is_group(nodes: Sequence[Node], i: int) -> bool:
    return i < len(nodes) and nodes[i].kind == "group"


def _is_star(nodes: Sequence[Node], i: int) -> bool:
    return i < len(nodes) and nodes[i].kind == "chars" and nodes[i].text.strip() == "*"


# -- pass 2: macros --------------------------------------------------------------------------


@dataclass
class Expander:
    """Expands the book's macros and ``\\unchecked``, recording what goes wrong."""

    macros: Mapping[str, MacroDef]
    problems: list[SourceProblem]
    budget: int = EXPANSION_BUDGET  # expansions left for the macro being expanded
    runaway: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        # MathJax's own config names macros without the backslash; accept it either way.
        self.macros = {name.lstrip("\\"): value for name, value in self.macros.items()}

    def expand(self, items: Sequence[Item], depth: int = 0) -> list[Item]:
        """``items`` with every macro of the book replaced by its body (``depth``: nesting)."""
        out: list[Item] = []
        i = 0
        while i < len(items):
            item = items[i]
            i += 1
            if isinstance(item, Container):
                out.append(with_items(item, self.expand(item.items, depth)))
            elif is_tok(item, "\\" + EXEMPT_MACRO) and isinstance(item, Tok):
                i = self._exempt(item, items, i, out, depth)
            elif isinstance(item, Tok) and item.text.startswith("\\") \
                    and item.text[1:] in self.macros:
                i = self._user(item, items, i, out, depth)
            else:
                out.append(item)
        return out

    def _exempt(self, macro: Tok, items: Sequence[Item], i: int, out: list[Item],
                depth: int) -> int:
        if i >= len(items):
            self.problems.append(SourceProblem(
                macro.start, f"`\\{EXEMPT_MACRO}` needs the exempt text in braces after it,"
                             f" as in `\\{EXEMPT_MACRO}{{0.5}}`"))
            return i
        argument = items[i]
        inner = self.expand(argument_of(argument), depth)
        start, end = span_of(argument) or (macro.start, macro.end)
        out.append(Group(tuple(_exempted(inner)), start, end))
        return i + 1

    def _user(self, macro: Tok, items: Sequence[Item], i: int, out: list[Item],
              depth: int) -> int:
        body, count = self.macros[macro.text[1:]]
        arguments = [list(argument_of(item)) for item in items[i : i + count]]
        if len(arguments) < count:
            self.problems.append(SourceProblem(
                macro.start, f"the macro `{macro.text}` takes {count} argument(s), but only"
                             f" {len(arguments)} follow(s) it here; give it each argument in"
                             " braces, as its definition in verified_macros asks"))
        if depth == 0:  # each macro the author wrote gets a fresh budget
            self.budget = EXPANSION_BUDGET
        if self.budget <= 0 or depth >= EXPANSION_DEPTH:
            if macro.text not in self.runaway:
                self.runaway.add(macro.text)
                self.problems.append(SourceProblem(
                    macro.start, f"the macro `{macro.text}` expands without end"))
            return i + len(arguments)
        self.budget -= 1
        template = _body(body, macro, self.problems)
        out.extend(self.expand(_substitute(template, arguments), depth + 1))
        return i + len(arguments)




def _exempted(items: Sequence[Item]) -> Iterator[Item]:
    for item in items:
        if isinstance(item, Num):
            yield replace(item, exempt=True)
        elif isinstance(item, Container):
            yield with_items(item, list(_exempted(item.items)))
        else:
            yield item


def _body(body: str, macro: Tok, problems: list[SourceProblem]) -> list[Item]:
    """The tokens of a macro body, all standing at the macro's offset."""
    nodes = _body_nodes(body)
    if nodes is None:
        problems.append(SourceProblem(
            macro.start, f"the body of the macro `{macro.text}` is not valid LaTeX"))
        return []
    return Reader(at=(macro.start, macro.end)).read(nodes)


@lru_cache(maxsize=256)
def _body_nodes(body: str) -> list[Node] | None:
    """A macro body's parse, once per body: a book uses the same few macros on every page."""
    try:
        return parse_strict(body)
    except LatexSyntaxError:
        return None


def _substitute(template: Sequence[Item], arguments: list[list[Item]]) -> list[Item]:
    out: list[Item] = []
    for item in template:
        if isinstance(item, Param):
            if item.index <= len(arguments):
                out.extend(arguments[item.index - 1])
        elif isinstance(item, Container):
            out.append(with_items(item, _substitute(item.items, arguments)))
        else:
            out.append(item)
    return out
