r"""The first reading of a math block: groups, environments, macros and runs of characters.

Every math block of every page is read, so this is on the build's hot path. Most blocks are
plain: braces that balance, ``\begin``/``\end`` that pair, no ``$``, no ``%`` comment. Those
are read by :func:`_scan`, a single pass over the string. Anything else (a comment, math
inside ``\text``, ``\(``, an unbalanced brace, a stray ``\end``) goes to pylatexenc, whose
strict parser names the problem and whose tolerant parser still gives a tree to read on.

Both give the same tree for a plain block, by pylatexenc's rules (the core's tests hold them to
it on every block of the book and on generated ones): a letter macro takes the
whitespace after it, short of a blank line; every other whitespace belongs to the run of
characters it stands in; the macro database is empty, so no macro takes arguments and a ``{…}``
after a macro is a group of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pylatexenc import latexwalker
from pylatexenc.macrospec import EnvironmentSpec, LatexContextDb, MacroSpec

from ..values import SourceProblem

Kind = Literal["chars", "group", "math", "env", "macro"]


@dataclass(frozen=True, slots=True)
class Node:
    """One node: ``text`` is the characters, the macro's or the environment's name.

    ``start``/``end`` are offsets into the block; a macro's ``end`` is the end of its name.
    """

    kind: Kind
    start: int
    end: int
    text: str = ""
    children: tuple[Node, ...] = ()


class LatexSyntaxError(ValueError):
    """Strict reading failed: the block is not well-formed LaTeX."""


def parse(source: str, problems: list[SourceProblem]) -> list[Node]:
    """The tree of ``source``; what is malformed goes into ``problems``, the rest is read."""
    try:
        return parse_strict(source)
    except LatexSyntaxError as error:
        try:
            nodes = _pylatexenc_nodes(source, tolerant=True)
        except latexwalker.LatexWalkerError:
            nodes = []
        problems.extend(_parse_problems(source, nodes, error.__cause__ or error))
        return _convert(nodes)


def parse_strict(source: str) -> list[Node]:
    """The tree of well-formed ``source`` (a macro body); :class:`LatexSyntaxError` if not."""
    fast = _scan(source)
    if fast is not None:
        return fast
    try:
        return _convert(_pylatexenc_nodes(source, tolerant=False))
    except latexwalker.LatexWalkerError as error:
        raise LatexSyntaxError(str(error)) from error


# -- the fast path ---------------------------------------------------------------------------

_SPECIAL = re.compile(r"[\\{}$%]")
_LETTERS = re.compile(r"[^\W\d_]+")
_ENVIRONMENT_NAME = re.compile(r"\s*\{([\w* ._-]+)\}")  # pylatexenc's own rule


@dataclass(slots=True)
class _Open:
    kind: Kind
    name: str
    start: int
    outer: list[Node]


def _scan(source: str) -> list[Node] | None:
    """The tree of a plain block in one pass, or None if pylatexenc must read it."""
    out: list[Node] = []
    stack: list[_Open] = []
    pos, size = 0, len(source)
    while pos < size:
        match = _SPECIAL.search(source, pos)
        stop = match.start() if match is not None else size
        if stop > pos:
            out.append(Node("chars", pos, stop, source[pos:stop]))
        if match is None:
            break
        char = source[stop]
        if char == "{":
            stack.append(_Open("group", "", stop, out))
            out, pos = [], stop + 1
        elif char == "}":
            if not stack or stack[-1].kind != "group":
                return None
            opened = stack.pop()
            opened.outer.append(Node("group", opened.start, stop + 1, "", tuple(out)))
            out, pos = opened.outer, stop + 1
        elif char == "\\":
            step = _escape(source, stop, stack, out)
            if step is None:
                return None
            out, pos = step
        else:  # $ or %: math inside text, or a comment
            return None
    return None if stack else out


def _escape(
    source: str, at: int, stack: list[_Open], out: list[Node]
) -> tuple[list[Node], int] | None:
    """Read the control sequence at ``at``: where reading goes on, and into which list."""
    letters = _LETTERS.match(source, at + 1)
    if letters is None:
        if at + 1 >= len(source) or source[at + 1] in "()[]":
            return None  # a lone backslash, or inline/display math delimiters
        out.append(Node("macro", at, at + 2, source[at + 1]))
        return out, at + 2
    name = letters.group()
    if not name.isalpha():
        return None
    end = letters.end()
    if name in ("begin", "end"):
        environment = _ENVIRONMENT_NAME.match(source, end)
        if environment is None:
            return None
        after = environment.end()
        if name == "begin":
            stack.append(_Open("env", environment.group(1), at, out))
            return [], after
        if not stack or stack[-1].kind != "env" or stack[-1].name != environment.group(1):
            return None
        opened = stack.pop()
        opened.outer.append(Node("env", opened.start, after, opened.name, tuple(out)))
        return opened.outer, after
    out.append(Node("macro", at, end, name))
    return out, _after_space(source, end)


def _after_space(source: str, pos: int) -> int:
    """Past the whitespace a letter macro takes: all of it, short of a blank line."""
    taken = ""
    while pos < len(source) and source[pos].isspace():
        taken += source[pos]
        pos += 1
        if taken.endswith("\n\n"):
            return pos - 2
    return pos


# -- pylatexenc ------------------------------------------------------------------------------


def _empty_context() -> Any:
    db = LatexContextDb()
    db.set_unknown_macro_spec(MacroSpec(""))
    db.set_unknown_environment_spec(EnvironmentSpec(""))
    return db


_CONTEXT = _empty_context()


def _pylatexenc_nodes(source: str, *, tolerant: bool) -> list[Any]:
    walker = latexwalker.LatexWalker(source, latex_context=_CONTEXT, tolerant_parsing=tolerant)
    nodes, _, _ = walker.get_latex_nodes(pos=0)
    return [node for node in nodes if node is not None]


def _convert(nodes: list[Any]) -> list[Node]:
    """pylatexenc's nodes as ours; comments are dropped."""
    out: list[Node] = []
    for node in nodes:
        if node is None:
            continue
        end = node.pos + node.len
        if isinstance(node, latexwalker.LatexCharsNode):
            out.append(Node("chars", node.pos, end, node.chars))
        elif isinstance(node, latexwalker.LatexGroupNode | latexwalker.LatexMathNode):
            kind: Kind = "group" if isinstance(node, latexwalker.LatexGroupNode) else "math"
            out.append(Node(kind, node.pos, end, "", tuple(_convert(node.nodelist or []))))
        elif isinstance(node, latexwalker.LatexEnvironmentNode):
            out.append(Node("env", node.pos, end, node.environmentname,
                            tuple(_convert(node.nodelist or []))))
        elif isinstance(node, latexwalker.LatexMacroNode):
            name = node.macroname
            out.append(Node("macro", node.pos, node.pos + 1 + len(name), name))
    return out


def _parse_problems(source: str, nodes: list[Any], error: BaseException) -> list[SourceProblem]:
    """The author's view of a strict parse error."""
    message = str(getattr(error, "msg", "") or error)
    where = int(getattr(error, "pos", 0) or 0)
    if "mismatching closing brace" in message:
        return [SourceProblem(where, "unbalanced braces: this `}` closes no `{`; drop it, or"
                                     " write `\\}` for a brace the formula shows")]
    bad = re.search(r"Bad \\(begin|end) macro", message)
    if bad:
        word = bad.group(1)
        return [SourceProblem(where, f"`\\{word}` needs an environment name in braces, as in"
                                     f" `\\{word}{{bmatrix}}`")]
    stray = re.search(r"Unexpected closing environment: '([^']*)'", message)
    if stray:
        name = stray.group(1)
        return [SourceProblem(where, f"`\\end{{{name}}}` here closes no `\\begin{{{name}}}`;"
                                     f" add `\\begin{{{name}}}` where it starts, or drop this")]
    wrong = re.search(r"environment: '([^']*)', was expecting '([^']*)'", message)
    if wrong:
        found, expected = wrong.groups()
        return [SourceProblem(where, f"`\\end{{{found}}}` here closes `\\begin{{{expected}}}`;"
                                     f" write `\\end{{{expected}}}`")]
    unclosed = list(_unclosed(source, nodes))
    if unclosed:
        return unclosed
    return [SourceProblem(where, f"this LaTeX cannot be read: {message}")]


def _unclosed(source: str, nodes: list[Any]) -> list[SourceProblem]:
    """Groups and environments of a tolerant parse that the input never closes."""
    found: list[SourceProblem] = []
    for node in nodes:
        if node is None:
            continue
        end = node.pos + node.len
        if isinstance(node, latexwalker.LatexGroupNode) and not _closes(node, source, "}"):
            found.append(SourceProblem(node.pos, "unbalanced braces: the `{` at this point is"
                                                 " never closed; close it with `}`, or write"
                                                 " `\\{` for a brace the formula shows"))
        if isinstance(node, latexwalker.LatexEnvironmentNode):
            name = node.environmentname
            if not re.search(r"\\end\s*\{" + re.escape(name) + r"\}\s*$", source[:end]):
                found.append(SourceProblem(node.pos, f"`\\begin{{{name}}}` is never closed by"
                                                     f" `\\end{{{name}}}`; add it where the"
                                                     " environment ends"))
        if isinstance(node, latexwalker.LatexMathNode):
            opener, closer = node.delimiters
            if not source[node.pos : end].endswith(closer) or node.len <= len(opener):
                found.append(SourceProblem(node.pos, f"this `{opener}` is never closed by"
                                                     f" `{closer}`; close it, or write `\\$`"
                                                     " for a dollar sign"))
        found.extend(_unclosed(source, getattr(node, "nodelist", None) or []))
    return found


def _closes(node: Any, source: str, closer: str) -> bool:
    end = node.pos + node.len
    children = [child for child in node.nodelist or [] if child is not None]
    last = children[-1].pos + children[-1].len if children else node.pos + 1
    return end > last and source[end - 1] == closer
