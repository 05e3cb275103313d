"""Mutation testing of the checker on the real book: every wrong number must fail the build.

Usage: ``python scripts/mutation.py [--pages PAGE ...] [--extra DIR ...] [--sample N]
[--seed S] [--all-digits] [--printed] [--bind | --no-bind] [--choose PAGE:LINE=QUANTITY]
[--subprocess] [--keep] [--progress]``; ``make mutation`` runs every mutant of every checked
page, ``make mutation PAGES="book/problems/a.md book/b.md"`` those of some pages,
``EXTRA=DIR`` adds pages for the run (``MUTATION_ARGS`` passes anything else,
``MUTATION_ARGS=--printed`` the printed class).

The book (``book/``), its snippets (``scripts/snippets/``) and its configuration (``conf/``)
are copied into a temporary folder; the real files are never touched. ``--extra DIR`` adds
``DIR/pages/*.md`` to the copy as ``book/extra/*.md`` (listed in a hidden toctree appended to
the copy's ``index.md``, so they build) and ``DIR/snippets/*`` to its ``scripts/snippets/``.
The mutated pages are ``--pages`` (paths as in the repository, ``book/...``, or an extra
page's own path), by default every checked page: every page with a ``check-numeric``
directive (outside code).

Where the mutants come from: the page's Markdown source, read here independently of the
checker, so a number the checker never reads is tried too. The scan reads

* prose: paragraphs, headings, lists, table cells, block quotes, the content of directives
  (admonitions, dropdowns, ``prf:`` blocks, ...);
* math: ``$…$``, ``$$…$$`` (inline or as a block), ``{math}`` blocks and the ``{math}`` role,
  amsmath environments (``\\begin{align}`` ... at the start of a block);

and skips code (fenced blocks, inline code, the content of ``{code-block}`` and the like,
``{eval-rst}``, ``{raw}``, ``{toctree}``), directive lines and their option lines
(``:name: value``, a YAML option block; so the problem header's ``:kind:`` and
``:difficulty:``), MyST comments (``% ...``), HTML comments, targets (``(label)=``), front
matter, link destinations, role contents other than ``{math}`` (``{ref}``,
``{problem:ref}``, ``{val}``, ...), exemptions (``{unchecked}`` role and passage,
``\\unchecked{}``), injections (``\\val{…}``: a name and a format, no written digit),
TeX comments, ``\\label``/``\\tag``/``\\ref`` and spacing lengths (``\\hspace{0.5em}``,
``\\kern``), an environment's column specification (``{array}{cc}``) and ``\\begin``/``\\end``.

Which numbers:

* every **decimal** (a number with a decimal point, in text also scientific ``1.2e-5``),
  wherever it stands, in math or in text (also inside ``\\text{…}`` in math); not a dotted
  version or id (``1.0.4``, ``II.3.B01``);
* an **integer** only in math, and only where it is a value: a cell of a matrix environment
  (``bmatrix``, ``pmatrix``, ..., ``array``) that is numeric, an entry of a tuple of numbers
  that holds a decimal (``(-0.7071, -0.7071, 0)``), or in a numeric side of an
  equation. An equation is a run of sides joined by ``=``, ``\\approx``, ``\\simeq``,
  ``\\equiv``, ``\\coloneqq``; it ends at ``,``, ``;`` (outside brackets), ``\\quad``,
  ``\\qquad``, ``\\\\``, words in ``\\text{…}`` and the other relations (``<``, ``\\le``,
  ``\\in``, ``\\to``, ``\\sim``, ``\\mapsto``, ...: so ``0 < \\eta`` or ``\\R^{3}`` are never
  mutated). A side is numeric when it holds numbers, brackets, tuples, matrices, ``+ - \\cdot
  \\times /``, ``\\frac``, ``\\sqrt``, ``\\log``, ``\\ln``, ``\\exp``, ``e^{…}``, powers and a
  transpose, and no name (a letter or a symbol macro): ``\\dk = 2``, ``e^{0} = 1``,
  ``0.9^5 \\times 2``, ``\\frac{2}{1 - 0.855}`` are, ``v_{t+1} = \\rho^2 v_t``,
  ``\\frac{\\sigma^2}{1 - \\rho^2}`` are not. A subscript is an index, never mutated, but for
  the base of ``\\log_2``. Integers in text ("Step 3", a table's "2") are never mutated.

The mutants of those numbers:

* ``digit``: one digit changed, the last one +1 mod 10 (``--all-digits``: every digit
  position, one mutant each);
* ``swap``: two neighbours that differ exchanged, in a row or a column of a matrix whose cells
  are single numbers, or in a tuple ``(…, …)`` of single numbers;
* ``sign``: the minus of a negative number dropped;
* ``sign-add``: a minus added to a positive number (where a sign can stand: at the start of a
  side, a cell, a group or an entry, after a relation or an opening bracket; in text after a
  space or a bracket; a unary ``+`` becomes ``-``);
* ``operator``: a binary ``+`` made ``-`` or a ``-`` made ``+``, between two operands in a
  numeric side of an equation or a numeric matrix cell.

and, opt-in (``--printed``, also included by ``--all-digits``), the **printed** class, which
needs the build rather than the scan to say which numbers are free digits:

* ``printed``: each free digit replaced by every other number its snippet printed. A free
  digit is a number that the baseline's ``verification.json`` gives the kind ``free``,
  ``bound`` or ``given`` (neither named nor derived nor exempt), matched to the scan's number
  on its line with the same digits (the one at its column, if several are). Its snippet is the
  one the report says owns it (a Variation's own ``check-numeric … :scope: section``); what it
  printed is the build's own run (from the snippet cache, by the report's key; run by the
  extension's engine if the entry is missing), read by the checker's transcript reader. Each
  distinct printed number is written at the prose number's decimal places, rounded half-even,
  with its sign (``0.6285`` becomes ``-0.5800`` for a printed -0.58; the prose's own minus,
  ``−`` or ``-``, and a written ``+`` are kept). A replacement that writes the prose's own
  value is skipped (and, where the sign cannot count, its magnitude), and so is a number in
  scientific notation; numbers not matched or not placed are listed and counted, not failed.
  The class is free digits × printed numbers, so it is large: ``--sample`` draws from it as
  from the others, and the summary counts it on a line of its own. A free digit may stand for
  any printed number until a binding says which one: without bindings, most of these survive.

``--bind`` (on by default with ``--extra``, whose new pages have no recorded bindings;
``--no-bind`` turns it off) first runs ``verified-bind <srcdir> --conf <confdir> --build
<copy>/_build/bind`` in the copy, on its correct pages: it records under ``<srcdir>/_bindings/``
which printed quantity each free digit stands for, and the baseline (a full build, since the
tool builds elsewhere) reads them. If it exits 1 (some digits are ambiguous) its output is
printed and the run goes on, those digits unbound; ``--choose`` passes the choices it asks
for. If the command is not installed in this interpreter's environment, a note says so and
nothing is bound.

No mutant leaves the page's value unchanged: a sign is neither added to nor dropped from a
zero (``-0`` is ``0``) nor from a number whose sign cannot count (alone in ``|…|``, or in
``(…)`` raised to an even integer power), equal neighbours are not swapped, and an operator
before a term that is a product with a literal zero factor (``0.1978(0)``) is not flipped, nor
is the sign of that term's number.

Each mutant is written into the copy, the copy is rebuilt incrementally with the same doctrees
(only that page and the book's verification page are re-read, the snippets come from the
cache; in this process, about seven times faster than a ``sphinx-build`` per mutant, which
``--subprocess`` runs instead, with the same verdicts), and the mutant is *killed* only if the
build exits non-zero AND an error names the mutated file and every mutated line. The file is
then restored byte for byte and stamped with a fresh mtime, so the next build re-reads it clean
(restoring the old mtime would hide the restoration from Sphinx, which compares a page's mtime
with the time it last read it). A mutant whose edit cannot be made where it was found is
*unapplied*. A last build of the restored copy must pass and report exactly the baseline's
numbers.

Every surviving and every unapplied mutant is printed (file:line, what changed, the line
before and after, what the build did), then the numbers the checker checked (its
``verification.json``) that the scan did not mutate (a hole in this scan), with ``--printed``
the free digits it could not match or place, the counts per kind and the kill rate. The exit
status is 1 if any mutant survived or was unapplied (of the printed class too), any checked
number was not mutated, or the restored copy does not build as before.
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import dataclasses
import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation, localcontext
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
KINDS = ("digit", "swap", "sign", "sign-add", "operator")  # the default classes
PRINTED = "printed"  # the opt-in class (--printed): a free digit made another printed number
ALL_KINDS = (*KINDS, PRINTED)
#: The report's kinds of a free digit: no name, not derived, not exempt.
FREE_KINDS = frozenset({"free", "bound", "given"})
BIND_COMMAND = "verified-bind"
EXTRA_FOLDER = "extra"  # where --extra pages go in the copied book

#: A page read, in Sphinx's status stream.
_READING = re.compile(r"^reading sources\.\.\. (?:\[\s*\d+%\] )?(\S+)", re.MULTILINE)
#: A located message in Sphinx's warning stream.
_LOCATED = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<level>ERROR|WARNING|CRITICAL): ")
#: A terminal escape sequence (Sphinx colours its output under CI=true).
_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")


def strip_escape_sequences(text: str) -> str:
    """``text`` without terminal colours."""
    return _ESCAPE.sub("", text)


# -- reading a page's source: where its numbers are written -----------------------------------

#: Directives whose content is not prose (code, raw text, other markup, file lists).
_CODE_DIRECTIVES = frozenset({
    "code", "code-block", "sourcecode", "code-cell", "literalinclude", "eval-rst", "raw",
    "toctree", "include", "mermaid", "graphviz", "highlight", "parsed-literal",
})
#: Directives whose content is exempt from the check, or generated.
_EXEMPT_DIRECTIVES = frozenset({
    "unchecked", "check-numeric", "verification-report", "problem-index",
})
_MATRICES = frozenset({
    "matrix", "pmatrix", "bmatrix", "Bmatrix", "vmatrix", "Vmatrix", "smallmatrix", "array",
    "matrix*", "pmatrix*", "bmatrix*", "Bmatrix*", "vmatrix*", "Vmatrix*",
})
_CASES = frozenset({"cases", "dcases", "rcases", "cases*"})
_WITH_SPEC = frozenset({"array", "alignat", "alignat*", "alignedat", "subarray", "tabular"})

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*?)\s*$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[^}\s]+)\}")
_OPTION = re.compile(r"^\s*:[\w.-]+:(?:\s|$)")
_TARGET = re.compile(r"^\s*\([^()\s]+\)=\s*$")
_AMSMATH = re.compile(r"^\s*\\begin\{(?P<name>(?:equation|align|alignat|gather|multline|"
                      r"flalign|eqnarray|math|dmath)\*?)\}")
_ROLE = re.compile(r"\{(?P<name>[\w:.+-]+)\}$")
_AUTOLINK = re.compile(r"<(?:https?|ftp|mailto):[^>\s]*>")
_PUNCTUATION = frozenset(r"""!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~""")

#: A decimal in text: a point, or scientific notation; not part of a word, a version or an id.
_TEXT_NUMBER = re.compile(
    r"(?<![\w.])(?:\d+\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?!\d|\.\d)")
#: What may stand before a number in text for a minus to be added (or a sign to be written).
_TEXT_OPENERS = frozenset(" \t\n([{|*_=:;,")

_MATH_TOKEN = re.compile(
    r"(?P<comment>%[^\n]*)|(?P<num>\d+(?:\.\d+)?|\.\d+)|(?P<cs>\\(?:[A-Za-z]+\*?|.))"
    r"|(?P<space>\s+)|(?P<chr>.)", re.DOTALL)

_EQUATIONS = frozenset({"=", r"\approx", r"\simeq", r"\equiv", r"\doteq", r"\coloneqq",
                        r"\eqqcolon", r"\triangleq"})
_RELATIONS = frozenset({
    "<", ">", r"\lt", r"\gt", r"\le", r"\leq", r"\ge", r"\geq", r"\leqslant", r"\geqslant",
    r"\ne", r"\neq", r"\in", r"\notin", r"\ni", r"\subset", r"\subseteq", r"\supset",
    r"\supseteq", r"\sim", r"\propto", r"\to", r"\mapsto", r"\rightarrow", r"\longrightarrow",
    r"\Rightarrow", r"\Longrightarrow", r"\implies", r"\iff", r"\Leftrightarrow", r"\leftarrow",
    r"\gets", r"\ll", r"\gg", r"\prec", r"\succ", r"\preceq", r"\succeq", r"\perp",
    r"\parallel", r"\cong", r"\asymp", r"\models", r"\vdash", r"\stackrel", r"\overset",
})
_SEPARATORS = frozenset({r"\quad", r"\qquad", "\\\\", r"\cr", r"\newline", r"\enspace",
                         r"\label", r"\tag", r"\tag*", r"\hspace", r"\hspace*"})
_SPACING = frozenset({r"\,", r"\;", r"\:", r"\!", "\\ ", r"\thinspace", r"\medspace",
                      r"\thickspace", r"\negthinspace", r"\displaystyle", r"\textstyle",
                      r"\scriptstyle", r"\hline", r"\nonumber", r"\notag"})
_TEXT_MACROS = frozenset({r"\text", r"\textrm", r"\textit", r"\textbf", r"\textsf", r"\texttt",
                          r"\textnormal", r"\textup", r"\textsl", r"\textmd", r"\mbox",
                          r"\hbox"})
#: Macros whose arguments are not prose numbers, and how many.
_SKIP_MACROS = {r"\label": 1, r"\tag": 1, r"\tag*": 1, r"\ref": 1, r"\eqref": 1,
                r"\hspace": 1, r"\hspace*": 1, r"\vspace": 1, r"\unchecked": 1, r"\val": 1,
                r"\color": 1, r"\textcolor": 1, r"\href": 1, r"\url": 1, r"\phantom": 1,
                r"\hphantom": 1, r"\vphantom": 1, r"\rule": 2, r"\mspace": 1}
#: Macros followed by an unbraced length (``\kern0.2em``).
_LENGTH_MACROS = frozenset({r"\kern", r"\mkern", r"\hskip", r"\mskip"})
#: What a numeric side may hold besides numbers, brackets and operators.
_NUMERIC_MACROS = frozenset({
    r"\frac", r"\tfrac", r"\dfrac", r"\cfrac", r"\sqrt", r"\log", r"\ln", r"\lg", r"\exp",
    r"\cdot", r"\cdotp", r"\times", r"\div", r"\pm", r"\mp", r"\ast", r"\left", r"\right",
    r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\biggl", r"\biggr", r"\Biggl", r"\Biggr",
    r"\big", r"\Big", r"\bigg", r"\Bigg", r"\middle", r"\{", r"\}", r"\lbrace", r"\rbrace",
    r"\langle", r"\rangle", r"\lvert", r"\rvert", r"\vert", r"\|", r"\lbrack", r"\rbrack",
    r"\ldots", r"\dots", r"\cdots", r"\infty", r"\%", r"\unchecked",
})
_NUMERIC_CHARS = frozenset("+-−*/()[]|.,;:!'&~")
_OPERATORS = frozenset({"+", "-", "−", "*", "/", r"\cdot", r"\cdotp", r"\times", r"\div",
                        r"\pm", r"\mp", r"\ast", "^", "_"})
#: Macros that take an argument: what follows them is no operand of a sign or an operator.
_ARGUMENT_MACROS = frozenset({
    r"\frac", r"\tfrac", r"\dfrac", r"\cfrac", r"\sqrt", r"\log", r"\ln", r"\lg", r"\exp",
    r"\left", r"\right", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr", r"\biggl", r"\biggr",
    r"\Biggl", r"\Biggr", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\middle", r"\mathrm",
    r"\mathbf", r"\mathit", r"\mathsf", r"\mathcal", r"\mathbb", r"\boldsymbol", r"\bm",
    r"\operatorname", r"\vec", r"\hat", r"\bar", r"\tilde", r"\overline", r"\underline",
    r"\sum", r"\prod", r"\int", r"\lim", r"\max", r"\min", r"\sin", r"\cos", r"\tan",
})
_OPENERS = frozenset({"(", "[", r"\{", r"\langle", r"\lbrace", r"\lbrack", r"\lvert"})
_CLOSERS = frozenset({")", "]", r"\}", r"\rangle", r"\rbrace", r"\rbrack", r"\rvert"})
_TRANSPOSES = frozenset({"T", r"\top", r"\intercal", r"\prime", "'"})


@dataclass(frozen=True, order=True)
class Number:
    """A number as written in a page: where its digits start, and what stands around them."""

    line: int  # 1-based
    column: int  # 0-based, of the first digit
    text: str  # the digits as written, without a sign: "0.1978", "1.2e-5", "3"
    context: str  # "math", "cell" (of a matrix) or "text"
    mutable: bool  # a decimal, or an integer where it is a value (see the module's docstring)
    sign: str = ""  # the unary sign written before it, with the spaces up to the digits
    sign_column: int = -1  # where that sign is (on the same line)
    signable: bool = False  # a minus may be added before it
    unsigned: bool = False  # its sign does not count: (x)^2, |x|, 0.4011(0)

    @property
    def integer(self) -> bool:
        """No decimal point and no exponent."""
        return self.text.isdigit()

    @property
    def value(self) -> Decimal:
        """The number with its sign."""
        magnitude = Decimal(self.text)
        return -magnitude if self.sign.startswith(("-", "−")) else magnitude

    @property
    def written(self) -> str:
        """The sign and the digits, as they stand."""
        return self.sign + self.text

    @property
    def start(self) -> int:
        """The column of the sign, or of the digits."""
        return self.sign_column if self.sign else self.column


@dataclass(frozen=True, order=True)
class Operator:
    """A binary ``+`` or ``-`` in a numeric side of an equation."""

    line: int
    column: int
    symbol: str


@dataclass
class PageScan:
    """What the scan found in one page."""

    source: Path
    numbers: list[Number] = field(default_factory=list)
    operators: list[Operator] = field(default_factory=list)
    #: matrices (rows of cells) and tuples (one row): a cell is a single number, or None
    groups: list[list[list[Number | None]]] = field(default_factory=list)
    checked: bool = False  # the page has a check-numeric directive

    @property
    def mutable(self) -> list[Number]:
        """The numbers mutants are made of."""
        return [n for n in self.numbers if n.mutable]


@dataclass
class _Tok:
    kind: str  # num, cs, chr, space, skip
    text: str
    start: int
    end: int


@dataclass
class _Group:
    items: list[_Node]
    start: int
    end: int
    role: str = "math"  # math, text or skip


@dataclass
class _Env:
    name: str
    items: list[_Node]
    start: int
    end: int


_Node = _Tok | _Group | _Env


def _is(node: _Node | None, *texts: str) -> bool:
    return isinstance(node, _Tok) and node.kind in ("chr", "cs") and node.text in texts


def _insignificant(node: _Node) -> bool:
    if isinstance(node, _Tok):
        return (node.kind in ("space", "skip") or (node.kind == "cs" and node.text in _SPACING)
                or (node.kind == "chr" and node.text == "~"))
    return False


def _before(nodes: Sequence[_Node], k: int) -> tuple[_Node | None, int]:
    j = k - 1
    while j >= 0 and _insignificant(nodes[j]):
        j -= 1
    return (nodes[j], j) if j >= 0 else (None, -1)


def _after(nodes: Sequence[_Node], k: int) -> tuple[_Node | None, int]:
    j = k + 1
    while j < len(nodes) and _insignificant(nodes[j]):
        j += 1
    return (nodes[j], j) if j < len(nodes) else (None, len(nodes))


def _operand_end(node: _Node | None, nodes: Sequence[_Node] = (), j: int = -1) -> bool:
    """Whether ``node`` (``nodes[j]``) can end an operand (so a ``-`` after it is binary).

    A bar ``|`` ends one when it closes an absolute value: an odd number of bars before it.
    """
    if node is None:
        return False
    if _is(node, "|") and j >= 0:
        return sum(_is(n, "|") for n in nodes[:j]) % 2 == 1
    if isinstance(node, _Group | _Env):
        return True
    if node.kind == "num":
        return True
    if node.kind == "chr":
        return node.text.isalpha() or node.text in ")]|!'"
    if node.kind == "cs":
        return not _joins(node.text, _ARGUMENT_MACROS, _OPENERS, _TEXT_MACROS, _SKIP_MACROS)
    return False


def _operand_start(node: _Node | None) -> bool:
    """Whether ``node`` can start an operand (so a ``+`` before it is binary)."""
    if node is None:
        return False
    if isinstance(node, _Group | _Env):
        return True
    if node.kind == "num":
        return True
    if node.kind == "chr":
        return node.text.isalpha() or node.text in "([|"
    if node.kind == "cs":
        return not _joins(node.text, _CLOSERS, {r"\right"})
    return False


def _joins(macro: str, *more: Collection[str]) -> bool:
    """Whether a control sequence joins operands (an operator, a relation, a separator) or is
    one of ``more``: no operand ends or starts with it."""
    return any(macro in group
               for group in (_OPERATORS, _EQUATIONS, _RELATIONS, _SEPARATORS, *more))


def _sign_may_stand_after(node: _Node | None) -> bool:
    """Whether a sign may be written right after ``node`` (None: at the start)."""
    if node is None:
        return True
    if isinstance(node, _Tok) and node.kind == "chr":
        return node.text in "([,;&=<>|{" or node.text in _EQUATIONS
    if isinstance(node, _Tok) and node.kind == "cs":
        return (node.text in _EQUATIONS or node.text in _RELATIONS
                or node.text in _SEPARATORS or node.text in _OPENERS)
    return False


def _is_zero(text: str) -> bool:
    try:
        return Decimal(text) == 0
    except InvalidOperation:
        return False


class _Scanner:
    """One page's scan (see the module's docstring for what it reads and skips)."""

    def __init__(self, text: str, source: Path) -> None:
        self.text = text
        self.scan = PageScan(source)
        self.line_starts = [0]
        for line in text.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.by_offset: dict[int, Number] = {}

    def where(self, offset: int) -> tuple[int, int]:
        """(line 1-based, column 0-based) of an offset."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index]

    def run(self) -> PageScan:
        for kind, start, end in self._regions():
            if kind == "math":
                self._math(start, end)
            else:
                self._inline(start, end)
        self.scan.numbers.sort()
        self.scan.operators.sort()
        return self.scan

    # -- blocks ---------------------------------------------------------------------------

    def _regions(self) -> list[tuple[str, int, int]]:
        """The page as regions of Markdown to read inline and of math."""
        text, starts = self.text, self.line_starts
        lines = [line.rstrip("\r\n") for line in text.splitlines(keepends=True)]
        regions: list[tuple[str, int, int]] = []
        stack: list[tuple[str, int, str]] = []  # open fences: character, length, kind

        def line_of(offset: int) -> int:
            return bisect.bisect_right(starts, offset) - 1

        def add(kind: str, start: int, end: int) -> None:
            if (kind == "markdown" and regions and regions[-1][0] == "markdown"
                    and text[regions[-1][2]:start].strip("\r\n") == ""):
                regions[-1] = ("markdown", regions[-1][1], end)
            else:
                regions.append((kind, start, end))

        i, n = 0, len(lines)
        if n and lines[0].strip() == "---":  # front matter
            i = next((k + 1 for k in range(1, n) if lines[k].strip() in ("---", "...")), 0)
        while i < n:
            line = lines[i]
            kind = stack[-1][2] if stack else "markdown"
            fence = _FENCE.match(line)
            if fence and not fence["info"]:
                char, length = fence["fence"][0], len(fence["fence"])
                closing = next((k for k, (c, size, _kind) in enumerate(stack)
                                if c == char and size <= length), None)
                if closing is not None:
                    del stack[closing:]
                    i += 1
                    continue
            if kind == "code":
                i += 1
                continue
            if kind == "math":
                add("math", starts[i], starts[i] + len(line))
                i += 1
                continue
            if fence:
                directive = _DIRECTIVE.match(fence["info"].strip())
                name = directive["name"] if directive else None
                if name is None and fence["fence"][0] in "`~":
                    new = "code"
                elif name == "math":
                    new = "math"
                elif name in _CODE_DIRECTIVES:
                    new = "code"
                elif kind == "exempt" or name in _EXEMPT_DIRECTIVES:
                    new = "exempt"
                else:
                    new = "markdown"
                if name == "check-numeric":
                    self.scan.checked = True
                stack.append((fence["fence"][0], len(fence["fence"]), new))
                i += 1
                if name is not None:
                    i = self._skip_options(lines, i)
                continue
            if kind == "exempt":
                i += 1
                continue
            stripped = line.strip()
            if stripped.startswith("%") or _TARGET.match(line):
                i += 1
                continue
            if stripped.startswith("<!--"):
                close = text.find("-->", starts[i])
                i = n if close == -1 else line_of(close) + 1
                continue
            if stripped.startswith("$$"):
                opened = starts[i] + line.index("$$") + 2
                close = text.find("$$", opened)
                if close != -1:
                    add("math", opened, close)
                    i = line_of(close) + 1  # the rest of the closing line is a label
                    continue
            amsmath = _AMSMATH.match(line)
            if amsmath:
                marker = "\\end{" + amsmath["name"] + "}"
                close = text.find(marker, starts[i])
                if close != -1:
                    add("math", starts[i] + len(line) - len(line.lstrip()), close + len(marker))
                    i = line_of(close) + 1
                    continue
            add("markdown", starts[i], starts[i] + len(line))
            i += 1
        return regions

    @staticmethod
    def _skip_options(lines: Sequence[str], i: int) -> int:
        """The first line after a directive's options (``:name: value`` lines, or YAML)."""
        if i < len(lines) and lines[i].strip() == "---":
            close = next((k for k in range(i + 1, len(lines)) if lines[k].strip() == "---"),
                         None)
            if close is not None:
                return close + 1
        while i < len(lines) and _OPTION.match(lines[i]):
            i += 1
        return i

    # -- inline Markdown ----------------------------------------------------------------------

    def _inline(self, start: int, end: int) -> None:
        text = self.text
        i = segment = start
        while i < end:
            c = text[i]
            if c == "\\" and i + 1 < end and text[i + 1] in _PUNCTUATION:
                i += 2
                continue
            if c == "`":
                run = len(text[i:end]) - len(text[i:end].lstrip("`"))
                close = self._closing_backticks(i + run, end, run)
                if close is None:
                    i += run
                    continue
                role = _ROLE.search(text, max(start, i - 80), i)
                self._text(segment, role.start() if role else i)
                if role and role["name"] == "math":
                    self._math(i + run, close)
                i = segment = close + run
                continue
            if c == "$":
                double = text.startswith("$$", i)
                close = (text.find("$$", i + 2, end) if double
                         else self._closing_dollar(i + 1, end))
                if close is not None and close != -1:
                    self._text(segment, i)
                    width = 2 if double else 1
                    self._math(i + width, close)
                    i = segment = close + width
                    continue
            if text.startswith("<!--", i):
                close = text.find("-->", i + 4, end)
                self._text(segment, i)
                i = segment = end if close == -1 else close + 3
                continue
            if text.startswith("](", i):
                close = text.find(")", i + 2, end)
                if close != -1:
                    self._text(segment, i)
                    i = segment = close + 1
                    continue
            if c == "<":
                link = _AUTOLINK.match(text, i, end)
                if link:
                    self._text(segment, i)
                    i = segment = link.end()
                    continue
            i += 1
        self._text(segment, end)

    def _closing_backticks(self, i: int, end: int, run: int) -> int | None:
        text = self.text
        while i < end:
            if text[i] == "`":
                length = len(text[i:end]) - len(text[i:end].lstrip("`"))
                if length == run:
                    return i
                i += length
                continue
            if text[i] == "\n" and text[i + 1:end].lstrip(" \t").startswith("\n"):
                return None
            i += 1
        return None

    def _closing_dollar(self, i: int, end: int) -> int | None:
        text = self.text
        while i < end:
            if text[i] == "\\":
                i += 2
                continue
            if text[i] == "$":
                return i if not text.startswith("$$", i) else None
            if text[i] == "\n" and text[i + 1:end].lstrip(" \t").startswith("\n"):
                return None
            i += 1
        return None

    def _text(self, start: int, end: int) -> None:
        """The decimals of prose between two offsets."""
        text = self.text
        for match in _TEXT_NUMBER.finditer(text, start, end):
            line, column = self.where(match.start())
            k = match.start() - 1
            before = text[k - 1] if k >= 1 else "\n"
            sign = ""
            if k >= 0 and text[k] in "-−" and before in _TEXT_OPENERS:
                sign = text[k]
            signable = not sign and (k < 0 or text[k] in _TEXT_OPENERS)
            self._add(Number(line, column, match.group(), "text", True, sign,
                             column - 1 if sign else -1, signable), match.start())

    def _add(self, number: Number, offset: int) -> None:
        if offset not in self.by_offset:
            self.by_offset[offset] = number
            self.scan.numbers.append(number)

    # -- math -----------------------------------------------------------------------------------

    def _math(self, start: int, end: int) -> None:
        tokens: list[_Tok] = []
        for match in _MATH_TOKEN.finditer(self.text, start, end):
            kind = match.lastgroup
            assert kind is not None
            if kind != "comment":
                tokens.append(_Tok(kind, match.group(), match.start(), match.end()))
        tree = _tree(tokens, end)
        _mark(tree)
        self._sequence(tree, cases=False, context="math")

    def _sequence(self, items: list[_Node], cases: bool, context: str) -> None:
        """An equation level: segments split at separators, sides at equation relations."""
        segments: list[list[list[_Node]]] = [[[]]]
        loose: list[_Node] = []
        depth = 0
        delimiter = False  # the token after \left or \right is its delimiter
        for node in items:
            if isinstance(node, _Tok):
                if delimiter and node.kind != "space":
                    delimiter = False
                    segments[-1][-1].append(node)
                    continue
                if node.kind == "cs" and node.text in (r"\left", r"\right"):
                    depth = depth + 1 if node.text == r"\left" else max(0, depth - 1)
                    delimiter = True
                elif node.text in _OPENERS and node.kind in ("chr", "cs"):
                    depth += 1
                elif node.text in _CLOSERS and node.kind in ("chr", "cs"):
                    depth = max(0, depth - 1)
                elif node.kind == "chr" and node.text == "&" and not cases:
                    continue
                elif depth == 0 and node.kind in ("chr", "cs") and (
                        (node.text in ",;" and node.kind == "chr")
                        or node.text in _SEPARATORS or node.text in _RELATIONS
                        or node.text in _TEXT_MACROS or (cases and node.text == "&")):
                    loose.append(node)
                    segments.append([[]])
                    continue
                elif depth == 0 and node.kind in ("chr", "cs") and node.text in _EQUATIONS:
                    segments[-1].append([])
                    continue
            elif isinstance(node, _Group) and node.role != "math" and depth == 0:
                loose.append(node)
                if node.role == "text":
                    segments.append([[]])
                continue
            segments[-1][-1].append(node)
        for sides in segments:
            equation = len(sides) > 1
            for side in sides:
                self._collect(side, equation and _numeric(side), context)
        self._collect(loose, False, context)

    def _collect(self, nodes: list[_Node], value: bool, context: str) -> None:
        """The numbers, operators, matrices and tuples of a list of siblings."""
        for k, node in enumerate(nodes):
            if isinstance(node, _Group):
                if node.role == "text":
                    self._text(node.start + 1, max(node.start + 1, node.end - 1))
                elif node.role == "math":
                    previous, j = _before(nodes, k)
                    subscript = _is(previous, "_")
                    log_base = subscript and _is(_before(nodes, j)[0], r"\log")
                    self._collect(node.items, value and (log_base or not subscript), context)
            elif isinstance(node, _Env):
                if node.name in _MATRICES:
                    self._matrix(node)
                else:
                    self._sequence(node.items, node.name in _CASES, context)
            elif node.kind == "num":
                self._number(nodes, k, value, context)
            elif value and node.kind == "chr" and node.text in "+-−":
                self._operator(nodes, k)
        self._tuples(nodes)

    def _number(self, nodes: list[_Node], k: int, value: bool, context: str) -> None:
        token = nodes[k]
        assert isinstance(token, _Tok)
        previous, j = _before(nodes, k)
        subscript = _is(previous, "_")
        if subscript and _is(_before(nodes, j)[0], r"\log"):
            subscript = False
        integer = token.text.isdigit()
        mutable = (not integer) or (value and not subscript)
        line, column = self.where(token.start)
        sign, sign_column, signable = "", -1, False
        before_sign, i = _before(nodes, j)
        if _is(previous, "-", "−", "+") and not _operand_end(before_sign, nodes, i):
            assert isinstance(previous, _Tok)
            sign_line, column_of_sign = self.where(previous.start)
            if sign_line == line:  # a sign on another line is left alone
                sign, sign_column = self.text[previous.start:token.start], column_of_sign
        elif not subscript:
            signable = _sign_may_stand_after(previous)
        opening = before_sign if sign else previous
        unsigned = _sign_cancels(opening, nodes, k) or _zero_term(nodes, k)
        self._add(Number(line, column, token.text, context, mutable, sign, sign_column,
                         signable, unsigned), token.start)

    def _operator(self, nodes: list[_Node], k: int) -> None:
        token = nodes[k]
        assert isinstance(token, _Tok)
        previous, j = _before(nodes, k)
        following, m = _after(nodes, k)
        if not (_operand_end(previous, nodes, j) and _operand_start(following)):
            return
        if _zero_term(nodes, m):
            return
        line, column = self.where(token.start)
        self.scan.operators.append(Operator(line, column, token.text))

    def _matrix(self, env: _Env) -> None:
        rows: list[list[list[_Node]]] = [[[]]]
        for node in env.items:
            if _is(node, "\\\\", r"\cr"):
                rows.append([[]])
            elif _is(node, "&"):
                rows[-1].append([])
            else:
                rows[-1][-1].append(node)
        grid: list[list[Number | None]] = []
        for row in rows:
            cells: list[Number | None] = []
            for cell in row:
                self._collect(cell, _numeric(cell), "cell")
                cells.append(self._single(cell))
            if any(c is not None for c in cells) or len(cells) > 1:
                grid.append(cells)
        while grid and all(c is None for c in grid[-1]):
            grid.pop()
        if sum(c is not None for row in grid for c in row) >= 2:
            self.scan.groups.append(grid)

    def _make_mutable(self, number: Number) -> None:
        mutable = dataclasses.replace(number, mutable=True)
        self.scan.numbers[self.scan.numbers.index(number)] = mutable
        for offset, known in self.by_offset.items():
            if known is number:
                self.by_offset[offset] = mutable
                break

    def _single(self, nodes: Sequence[_Node], any_number: bool = False) -> Number | None:
        """The number a cell or an entry is, if it is one (mutable) number and nothing else."""
        significant = [n for n in nodes if not _insignificant(n)
                       and not _is(n, r"\left", r"\right")]
        if len(significant) == 2 and _is(significant[0], "-", "−"):
            significant = significant[1:]
        if len(significant) != 1:
            return None
        (node,) = significant
        if not (isinstance(node, _Tok) and node.kind == "num"):
            return None
        number = self.by_offset.get(node.start)
        return number if number is not None and (number.mutable or any_number) else None

    def _tuples(self, nodes: list[_Node]) -> None:
        """Parenthesised lists of at least two single numbers, for swaps."""
        for k, node in enumerate(nodes):
            if not _is(node, "("):
                continue
            depth = 0
            entries: list[list[_Node]] = []
            entry: list[_Node] = []
            closed = False
            for other in nodes[k + 1:]:
                if _is(other, "(", "["):
                    depth += 1
                elif _is(other, ")", "]"):
                    if depth == 0:
                        closed = _is(other, ")")
                        break
                    depth -= 1
                elif depth == 0 and _is(other, ","):
                    entries.append(entry)
                    entry = []
                    continue
                entry.append(other)
            entries.append(entry)
            if not closed or len(entries) < 2:
                continue
            written = [self._single(e, any_number=True) for e in entries]
            if all(written) and any(n is not None and not n.integer for n in written):
                for number in written:  # a tuple of numbers with a decimal is a value
                    if number is not None and not number.mutable:
                        self._make_mutable(number)
            cells = [self._single(e) for e in entries]
            if sum(c is not None for c in cells) >= 2:
                self.scan.groups.append([cells])


def _tree(tokens: list[_Tok], end: int) -> list[_Node]:
    """Tokens nested into brace groups and environments."""
    root: list[_Node] = []
    items = root
    stack: list[tuple[list[_Node], _Tok, str | None]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.kind == "chr" and token.text == "{":
            stack.append((items, token, None))
            items = []
            i += 1
            continue
        if token.kind == "chr" and token.text == "}":
            if stack and stack[-1][2] is None:
                parent, opener, _name = stack.pop()
                parent.append(_Group(items, opener.start, token.end))
                items = parent
            i += 1
            continue
        if token.kind == "cs" and token.text in (r"\begin", r"\end"):
            name, j = _argument(tokens, i + 1)
            if name is None:
                items.append(token)
                i += 1
                continue
            if token.text == r"\begin":
                if name in _WITH_SPEC:
                    j = _argument(tokens, j)[1]
                stack.append((items, token, name))
                items = []
                i = j
                continue
            while stack:
                parent, opener, env = stack.pop()
                if env is None:
                    parent.append(_Group(items, opener.start, token.start))
                    items = parent
                    continue
                parent.append(_Env(env, items, opener.start, tokens[j - 1].end))
                items = parent
                break
            i = j
            continue
        items.append(token)
        i += 1
    while stack:
        parent, opener, env = stack.pop()
        parent.append(_Group(items, opener.start, end) if env is None
                      else _Env(env, items, opener.start, end))
        items = parent
    return root


def _argument(tokens: Sequence[_Tok], j: int) -> tuple[str | None, int]:
    """The text of a ``{…}`` argument (not nested) at ``j``, after spaces, and what follows."""
    while j < len(tokens) and tokens[j].kind == "space":
        j += 1
    if j >= len(tokens) or tokens[j].text != "{":
        return None, j
    k = j + 1
    while k < len(tokens) and tokens[k].text != "}":
        k += 1
    return "".join(t.text for t in tokens[j + 1:k]).strip(), k + 1


def _mark(items: list[_Node]) -> None:
    """Give the arguments of text and skipped macros their role, recursively."""
    for k, node in enumerate(items):
        if isinstance(node, _Group | _Env):
            _mark(node.items)
            continue
        if node.kind != "cs":
            continue
        role, count = ("text", 1) if node.text in _TEXT_MACROS else (
            "skip", _SKIP_MACROS.get(node.text, 0))
        j = k + 1
        while count and j < len(items):
            other = items[j]
            if isinstance(other, _Group):
                other.role = role
                count -= 1
            elif not (isinstance(other, _Tok) and other.kind == "space"):
                break
            j += 1
        if node.text in _LENGTH_MACROS:
            following = _after(items, k)[0]
            if isinstance(following, _Tok) and following.kind == "num":
                following.kind = "skip"


def _sign_cancels(opening: _Node | None, nodes: Sequence[_Node], k: int) -> bool:
    """Whether the number at ``k`` (after ``opening``) stands alone in ``|…|`` or ``(…)^2n``."""
    closing, m = _after(nodes, k)
    if _is(opening, "|") and _is(closing, "|"):
        return True
    if not (_is(opening, "(") and _is(closing, ")") and _is(_after(nodes, m)[0], "^")):
        return False
    power = _after(nodes, _after(nodes, m)[1])[0]
    if isinstance(power, _Group):  # ^{12}: the whole group
        inner = [n for n in power.items if not _insignificant(n)]
        exponent = inner[0].text if len(inner) == 1 and isinstance(inner[0], _Tok) else ""
    else:  # ^12 is ^1 followed by 2: TeX takes one token
        exponent = power.text[:1] if isinstance(power, _Tok) else ""
    return exponent.isdigit() and int(exponent) % 2 == 0


def _transpose(nodes: Sequence[_Node], k: int) -> int:
    """How many nodes after the ``^`` at ``k`` make a transpose or a prime (0: none)."""
    following, m = _after(nodes, k)
    if _is(following, *_TRANSPOSES):
        return m - k
    if _is(following, r"\mathsf", r"\mathrm") and _is(_after(nodes, m)[0], "T"):
        return _after(nodes, m)[1] - k
    if isinstance(following, _Group):
        inner = [n for n in following.items if not _insignificant(n)]
        texts = [n.text for n in inner if isinstance(n, _Tok)]
        if len(texts) == len(inner) and (texts in (["T"], [r"\top"], [r"\intercal"])
                                         or texts in ([r"\mathsf", "T"], [r"\mathrm", "T"])):
            return m - k
    return 0


def _numeric(nodes: Sequence[_Node]) -> bool:
    """Whether a side is made of numbers and arithmetic only (see the module's docstring)."""
    significant = False
    k = 0
    while k < len(nodes):
        node = nodes[k]
        if isinstance(node, _Group):
            if node.role == "text":
                return False
            if node.role == "math" and node.items:
                if not _numeric(node.items):
                    return False
                significant = True
            significant = significant or node.role == "skip"
        elif isinstance(node, _Env):
            if node.name not in _MATRICES or not _numeric(
                    [n for n in node.items if not _is(n, "\\\\", "&")]):
                return False
            significant = True
        elif node.kind in ("space", "skip"):
            pass
        elif node.kind == "num":
            significant = True
        elif node.text == "^":
            skip = _transpose(nodes, k)
            if skip:
                k += skip + 1
                continue
        elif node.text == "_":
            if not _is(_before(nodes, k)[0], r"\log"):
                return False
        elif node.kind == "chr":
            if node.text == "e" and _is(_after(nodes, k)[0], "^"):
                pass
            elif node.text not in _NUMERIC_CHARS:
                return False
        elif node.text in (r"\mathrm", r"\mathit"):
            following, m = _after(nodes, k)
            inner = following.items if isinstance(following, _Group) else [following]
            texts = [n.text for n in inner if isinstance(n, _Tok) and not _insignificant(n)]
            if texts != ["e"]:
                return False
            k = m + 1
            continue
        elif not (node.text in _NUMERIC_MACROS or node.text in _SPACING or node.text == "\\\\"):
            return False
        k += 1
    return significant


def _zero_term(nodes: Sequence[_Node], m: int) -> bool:
    """Whether the term from ``nodes[m]`` is a product with a literal zero factor."""
    depth = 0
    for k in range(m, len(nodes)):
        node = nodes[k]
        if _is(node, "(", "["):
            depth += 1
        elif _is(node, ")", "]"):
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and (_is(node, "+", "-", "−", ",", ";", "&", "\\\\")
                             or _is(node, *_EQUATIONS) or _is(node, *_RELATIONS)):
            return False
        elif isinstance(node, _Tok) and node.kind == "num" and _is_zero(node.text):
            previous, _j = _before(nodes, k)
            if _is(previous, "^", "_"):
                continue
            following = _after(nodes, k)[0]
            if depth == 0 or (_is(previous, "(") and _is(following, ")")):
                return True
    return False


def scan_page(text: str, source: Path = Path("page.md")) -> PageScan:
    """Every number, operator, matrix and tuple of a Markdown page's source."""
    return _Scanner(text, source).run()


# -- the mutants ------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``old`` by ``new`` at a line (1-based) and column (0-based) of a file."""

    line: int
    column: int
    old: str
    new: str


_WHERE = {"math": "in math", "cell": "in a matrix", "text": "in text"}


@dataclass(frozen=True)
class Mutant:
    """One deliberate mistake in one page: one edit, or two for a swap."""

    kind: str  # one of ALL_KINDS
    source: Path
    edits: tuple[Edit, ...]
    label: str  # where it stands: "in math", "in text", "in a matrix", "in a tuple"

    @property
    def lines(self) -> tuple[int, ...]:
        """The lines an error must name."""
        return tuple(sorted({e.line for e in self.edits}))

    def describe(self, root: Path) -> str:
        """``book/page.md:84: digit in math: 0.1978 -> 0.1979 (column 55)``."""
        where = f"{_relative(self.source, root)}:{','.join(map(str, self.lines))}"
        if self.kind == "swap":
            first, second = self.edits
            if first.line == second.line:
                at = f"line {first.line}, columns {first.column} and {second.column}"
            else:
                at = (f"line {first.line} column {first.column}, "
                      f"line {second.line} column {second.column}")
            change = f"{first.old} <-> {second.old} ({at})"
        else:
            (edit,) = self.edits
            change = f"{edit.old} -> {edit.new} (column {edit.column})"
        return f"{where}: {self.kind} {self.label}: {change}"

    def excerpts(self, text: str, width: int = 36) -> list[tuple[str, str]]:
        """For each mutated line, a window of it before and after the mutation."""
        after = apply_edits(text, self.edits).splitlines()
        before = text.splitlines()
        shown: list[tuple[str, str]] = []
        for line in self.lines:
            edits = [e for e in self.edits if e.line == line]
            first = min(e.column for e in edits)
            last = max(e.column + len(e.old) for e in edits)
            grown = sum(len(e.new) - len(e.old) for e in edits)
            start = max(0, first - width)
            old, new = before[line - 1], after[line - 1]
            shown.append((_window(old, start, last + width), _window(new, start,
                                                                     last + grown + width)))
        return shown


def _window(line: str, start: int, end: int) -> str:
    return ("…" if start > 0 else "") + line[start:end] + ("…" if end < len(line) else "")


def _label(number: Number) -> str:
    return _WHERE[number.context]


def digit_mutants(source: Path, number: Number, all_digits: bool = False) -> list[Mutant]:
    """The last digit +1 mod 10, or each digit in turn (the sign left as it is)."""
    token = number.text
    positions = [i for i, c in enumerate(token) if c.isdigit()]
    mutants = []
    for position in positions if all_digits else positions[-1:]:
        new = token[:position] + str((int(token[position]) + 1) % 10) + token[position + 1:]
        mutants.append(Mutant("digit", source, (Edit(number.line, number.column, token, new),),
                              _label(number)))
    return mutants


def sign_mutants(source: Path, number: Number) -> list[Mutant]:
    """The minus dropped from a negative number, or added to a positive one (never to 0)."""
    if number.value == 0 or number.unsigned:
        return []
    if number.sign.startswith(("-", "−")):
        return [Mutant("sign", source, (Edit(number.line, number.sign_column, number.written,
                                             number.text),), _label(number))]
    if number.sign.startswith("+") or (number.signable and not number.sign):
        return [Mutant("sign-add", source, (Edit(number.line, number.start, number.written,
                                                 "-" + number.text),), _label(number))]
    return []


def swap_mutants(source: Path, group: Sequence[Sequence[Number | None]]) -> list[Mutant]:
    """Each pair of neighbours (same row, or same column) whose values differ, exchanged."""
    label = "in a tuple" if len(group) == 1 else "in a matrix"
    mutants = []
    for r, row in enumerate(group):
        for c, cell in enumerate(row):
            neighbours = [row[c + 1] if c + 1 < len(row) else None,
                          group[r + 1][c] if r + 1 < len(group) and c < len(group[r + 1])
                          else None]
            for other in neighbours:
                if cell is None or other is None or cell.value == other.value:
                    continue
                edits = (Edit(cell.line, cell.start, cell.written, other.written),
                         Edit(other.line, other.start, other.written, cell.written))
                mutants.append(Mutant("swap", source, edits, label))
    return mutants


def operator_mutants(source: Path, operator: Operator) -> list[Mutant]:
    """``+`` made ``-``, ``-`` made ``+``."""
    flipped = "-" if operator.symbol == "+" else "+"
    return [Mutant("operator", source,
                   (Edit(operator.line, operator.column, operator.symbol, flipped),), "in math")]


def make_mutants(scans: Iterable[PageScan], all_digits: bool = False) -> list[Mutant]:
    """Every mutant of the scanned pages, each once."""
    mutants: list[Mutant] = []
    for scan in scans:
        for number in scan.mutable:
            mutants.extend(digit_mutants(scan.source, number, all_digits))
        for group in scan.groups:
            mutants.extend(swap_mutants(scan.source, group))
        for number in scan.mutable:
            mutants.extend(sign_mutants(scan.source, number))
        for operator in scan.operators:
            mutants.extend(operator_mutants(scan.source, operator))
    return list(dict.fromkeys(mutants))


# -- the printed class: a free digit made another number its snippet printed ----------------


@dataclass
class PrintedScan:
    """What the printed class made of the report's free digits, for the summary."""

    free: int = 0  # free digits (kinds free, bound, given) on the mutated pages
    mutated: int = 0  # those matched to a scanned number, with mutants
    unmatched: list[str] = field(default_factory=list)  # no scanned number there with its digits
    unplaced: list[str] = field(default_factory=list)  # scientific, or no output of its snippet
    equal: int = 0  # replacements skipped: they write the prose's own value


def printed_values(stdout: str) -> list[Decimal]:
    """The distinct finite numbers a snippet printed, in the order printed.

    Read by the checker's own transcript reader: what the checker takes for printed numbers
    (its pool for free digits) is exactly what the mutants are made of.
    """
    from verified_problems.core import read_transcript

    values = (Decimal(text) for text in read_transcript(stdout).numbers)
    return list(dict.fromkeys(v for v in values if v.is_finite()))


def decimal_places(text: str) -> int | None:
    """How many places a number is written to; None in scientific notation (no fixed places)."""
    if "e" in text.lower():
        return None
    return len(text.partition(".")[2])


def render(value: Decimal, places: int) -> str:
    """``value`` at ``places`` decimal places, rounded half-even; a zero has no minus."""
    with localcontext() as context:
        context.prec = max(28, len(value.as_tuple().digits) + places + 2)  # no overflow
        rounded = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
    return f"{abs(rounded) if rounded == 0 else rounded:f}"


def _signed(number: Number, rendered: str) -> str:
    """The rendered number with the prose's own signs: its minus (``−``) or its ``+``."""
    written = number.sign.strip()
    if rendered.startswith("-"):
        return (written if written in ("-", "−") else "-") + rendered[1:]
    return "+" + rendered if written == "+" else rendered


def printed_mutants(source: Path, number: Number,
                    printed: Sequence[Decimal]) -> tuple[list[Mutant], int]:
    """``number`` replaced by each printed value, at its places; and how many were skipped.

    A replacement is skipped when it writes the number's own value (the one printed, or one
    that rounds to it), or, where its sign cannot count (``|x|``, ``(x)^2``), its magnitude.
    """
    places = decimal_places(number.text)
    assert places is not None, "scientific notation is not placed"
    mutants: dict[str, Mutant] = {}
    skipped = 0
    for value in printed:
        rendered = render(value, places)
        same = (abs(Decimal(rendered)) == abs(number.value) if number.unsigned
                else Decimal(rendered) == number.value)
        if same:
            skipped += 1
            continue
        new = _signed(number, rendered)
        edit = Edit(number.line, number.start, number.written, new)
        mutants.setdefault(new, Mutant(PRINTED, source, (edit,), _label(number)))
    return list(mutants.values()), skipped


def _digits(prose: str) -> str:
    """A report's prose number as the scan writes its digits: no sign, no percent sign."""
    return prose.strip().lstrip("+-−").strip().removesuffix("%").removesuffix("\\").strip()


def match_number(record: dict[str, Any], scan: PageScan) -> Number | None:
    """The scanned number a report's number is: on its line, with its digits (at its column
    if several are)."""
    digits = _digits(str(record.get("prose", "")))
    same = [n for n in scan.numbers if n.line == record.get("line") and n.text == digits]
    at = [n for n in same if record.get("column") in (n.column, n.start)]
    if at:
        return at[0]
    return same[0] if len(same) == 1 else None


def make_printed_mutants(
    report: dict[str, Any], scans: Iterable[PageScan], outputs: dict[tuple[str, str], str],
    root: Path,
) -> tuple[list[Mutant], PrintedScan]:
    """The printed class of the scanned pages: each free digit of the report made each other
    number its snippet printed (``outputs``: stdout by page source and snippet name)."""
    by_source = {scan.source.resolve(): scan for scan in scans}
    stats = PrintedScan()
    mutants: list[Mutant] = []
    for page in report["pages"]:
        scan = by_source.get(Path(page["source"]).resolve())
        if scan is None:
            continue
        for record in page["numbers"]:
            if record.get("kind") not in FREE_KINDS:
                continue
            stats.free += 1
            where = (f"{_relative(scan.source, root)}:{record.get('line')}: "
                     f"{record.get('prose')} ({record.get('kind')}, {record.get('snippet')})")
            number = match_number(record, scan)
            stdout = outputs.get((page["source"], record.get("snippet", "")))
            if decimal_places(_digits(str(record.get("prose", "")))) is None:
                stats.unplaced.append(f"{where}: in scientific notation")
            elif number is None:
                stats.unmatched.append(where)
            elif stdout is None:
                stats.unplaced.append(f"{where}: its snippet's output was not found")
            else:
                made, skipped = printed_mutants(scan.source, number, printed_values(stdout))
                mutants.extend(made)
                stats.equal += skipped
                stats.mutated += 1
    return list(dict.fromkeys(mutants)), stats


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with the edits made, each checked to replace what it claims to."""
    lines = text.splitlines(keepends=True)
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        if not 1 <= edit.line <= len(lines):
            raise ValueError(f"line {edit.line} is not in the file")
        line = lines[edit.line - 1]
        if line[edit.column:edit.column + len(edit.old)] != edit.old:
            raise ValueError(f"line {edit.line}, column {edit.column} does not hold {edit.old!r}")
        lines[edit.line - 1] = line[:edit.column] + edit.new + line[edit.column + len(edit.old):]
    return "".join(lines)


# -- building -------------------------------------------------------------------------------


@dataclass
class Build:
    """One build of the copy: its exit status and its located messages."""

    status: int
    warnings: str
    seconds: float
    log: str = ""

    @property
    def read(self) -> list[str]:
        """The pages this build read (Sphinx's "reading sources... docname" lines)."""
        return _READING.findall(strip_escape_sequences(self.log))

    @property
    def snippets_run(self) -> int:
        """Snippets this build ran rather than took from the cache (the summary line's count)."""
        from verified_problems.sphinx_shell.snippets import STATS_PATTERN

        match = STATS_PATTERN.search(strip_escape_sequences(self.log))
        return int(match["run"]) if match else 0

    def errors_at(self, source: Path) -> dict[int, list[str]]:
        """Error messages that name ``source``, by line."""
        found: dict[int, list[str]] = defaultdict(list)
        target = source.resolve()
        for line in strip_escape_sequences(self.warnings).splitlines():
            match = _LOCATED.match(line)
            if match is None or match["level"] == "WARNING":
                continue
            with contextlib.suppress(OSError):
                if Path(match["path"]).resolve() == target:
                    found[int(match["line"])].append(line[match.end():])
        return found


@dataclass
class Outcome:
    """What became of one mutant."""

    mutant: Mutant
    killed: bool
    reason: str
    seconds: float
    read: int = 0
    snippets_run: int = 0
    applied: bool = True
    excerpts: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Workspace:
    """A copy of the book, its snippets and its configuration, built in this process."""

    root: Path
    source: str = "book"  # the source folder, relative to root
    conf: str = "conf"  # the folder of conf.py, relative to root
    builder: str = "verify"
    in_subprocess: bool = False  # build with the sphinx-build command, not in this process
    #: ``PAGE:LINE=QUANTITY`` choices for ``verified-bind`` where a digit matches several values
    bind_choices: tuple[str, ...] = ()
    extra_pages: dict[Path, Path] = field(default_factory=dict)  # original -> copy
    _stamp: int = 0
    builds: list[Build] = field(default_factory=list)

    @classmethod
    def create(cls, root: Path, project: Path = PROJECT,
               extras: Sequence[Path] = ()) -> Workspace:
        """Copy ``book/``, ``scripts/snippets/`` and ``conf/`` of ``project`` into ``root``.

        Each folder of ``extras`` adds its ``pages/*.md`` as ``book/extra/*.md`` (in a hidden
        toctree appended to ``book/index.md``) and its ``snippets/*`` to ``scripts/snippets/``.
        """
        root.mkdir(parents=True, exist_ok=True)
        shutil.copytree(project / "book", root / "book")
        shutil.copytree(project / "conf", root / "conf")
        shutil.copytree(project / "scripts" / "snippets", root / "scripts" / "snippets")
        workspace = cls(root)
        for extra in extras:
            workspace.add_extra(extra)
        return workspace

    @classmethod
    def from_folder(cls, folder: Path, root: Path) -> Workspace:
        """Copy a self-contained project (``conf.py`` beside the pages, a test root) to ``root``."""
        shutil.copytree(folder, root)
        return cls(root, source=".", conf=".")

    def add_extra(self, folder: Path) -> list[Path]:
        """Add ``folder/pages/*.md`` and ``folder/snippets/*`` to the copy; the pages added."""
        pages = sorted((folder / "pages").glob("*.md"))
        if not pages:
            raise SystemExit(f"--extra {folder}: no pages/*.md there")
        snippets = folder / "snippets"
        target = self.root / "scripts" / "snippets"
        for snippet in sorted(snippets.rglob("*")) if snippets.is_dir() else []:
            if snippet.is_dir():
                continue
            copy = target / snippet.relative_to(snippets)
            if copy.exists() and copy.read_bytes() != snippet.read_bytes():
                raise SystemExit(f"--extra {folder}: {copy.name} is already a different snippet")
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(snippet, copy)
        book = self.root / self.source
        added: list[Path] = []
        for page in pages:
            copy = book / EXTRA_FOLDER / page.name
            if copy.exists():
                raise SystemExit(f"--extra {folder}: a page {copy.name} was already added")
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(page, copy)
            self.extra_pages[page.resolve()] = copy
            added.append(copy)
        index = book / "index.md"
        entries = "\n".join(f"{EXTRA_FOLDER}/{p.stem}" for p in added)
        with index.open("a", encoding="utf-8") as out:  # after the last line: no line moves
            out.write(f"\n\n:::{{toctree}}\n:hidden:\n:caption: Extra pages\n\n{entries}\n:::\n")
        return added

    @property
    def outdir(self) -> Path:
        """Where the builder writes (``verification.json``)."""
        return self.root / "_build" / self.builder

    @property
    def srcdir(self) -> Path:
        """The copied source folder."""
        return self.root / self.source

    def pages(self) -> list[Path]:
        """Every Markdown page of the copy."""
        build = self.root / "_build"
        return sorted(p for p in self.srcdir.rglob("*.md") if build not in p.parents)

    def command(self) -> list[str]:
        """The ``sphinx-build`` command line an in-process build stands for."""
        return [sys.executable, "-m", "sphinx", "-c", str(self.root / self.conf),
                "-d", str(self.root / "_build" / "doctrees"), "-b", self.builder,
                str(self.srcdir), str(self.outdir)]

    def build(self) -> Build:
        """An incremental build, as :meth:`command` (in a subprocess if ``in_subprocess``).

        In this process it is what ``sphinx.cmd.build.build_main`` does, minus the argument
        parsing and the interpreter start: the same application, the same exit status
        (``app.statuscode``, or 2 when the build raises).
        """
        if self.in_subprocess:
            return self._build_in_subprocess()
        from sphinx.application import Sphinx
        from sphinx.util.docutils import docutils_namespace, patch_docutils

        status, warning = io.StringIO(), io.StringIO()
        start = time.perf_counter()
        confdir = self.root / self.conf
        try:
            with patch_docutils(confdir), docutils_namespace():
                app = Sphinx(
                    srcdir=self.srcdir, confdir=confdir, outdir=self.outdir,
                    doctreedir=self.root / "_build" / "doctrees", buildername=self.builder,
                    status=status, warning=warning, freshenv=False,
                )
                app.build()
                code = int(app.statuscode)
        except Exception as exc:  # what sphinx-build reports and exits 2 on
            warning.write(f"sphinx-build would exit 2: {type(exc).__name__}: {exc}\n")
            code = 2
        build = Build(code, warning.getvalue(), time.perf_counter() - start, status.getvalue())
        self.builds.append(build)
        return build

    def _build_in_subprocess(self) -> Build:
        start = time.perf_counter()
        done = subprocess.run(self.command(), capture_output=True, text=True, check=False,
                              timeout=600)
        build = Build(done.returncode, done.stderr, time.perf_counter() - start, done.stdout)
        self.builds.append(build)
        return build

    def report(self) -> dict[str, Any]:
        """The last build's ``verification.json``, its page sources made absolute."""
        data: dict[str, Any] = json.loads(
            (self.outdir / "verification.json").read_text(encoding="utf-8"))
        for page in data["pages"]:
            page["source"] = str(self.srcdir / page["source"])
        return data

    def snippet_folders(self) -> tuple[Path, Path]:
        """The copy's snippet cache and snippet folder, as its ``conf.py`` sets them.

        The extension's documented defaults otherwise: ``<doctrees>/snippet-cache``, and
        ``scripts/snippets`` beside ``conf.py``.
        """
        from sphinx.config import Config
        from sphinx.util.tags import Tags

        confdir = self.root / self.conf
        config = Config.read(confdir, overrides={}, tags=Tags())
        config.add("verified_cache_dir", "", "", (str,))
        config.add("verified_snippet_dir", "scripts/snippets", "", (str,))
        cache = str(config.verified_cache_dir)
        doctrees = self.root / "_build" / "doctrees"
        return ((confdir / cache).resolve() if cache else doctrees / "snippet-cache",
                (confdir / str(config.verified_snippet_dir)).resolve())

    def snippet_outputs(self, report: dict[str, Any]) -> dict[tuple[str, str], str]:
        """What each snippet of a report printed, by page source and snippet name.

        The build's own run, from the snippet cache by the key the report gives; a snippet
        whose entry is not there (a cache that could not be written) is run as the build runs
        it, by the extension's engine.
        """
        from verified_problems.engine.cache import ResultCache

        cache_dir, snippet_dir = self.snippet_folders()
        cache = ResultCache(cache_dir)
        outputs: dict[tuple[str, str], str] = {}
        for page in report["pages"]:
            for record in page["snippets"]:
                hit = cache.get(record["key"], snippet_dir)
                stdout = (hit.stdout if hit is not None
                          else _run_snippet(snippet_dir / record["snippet"], snippet_dir))
                if stdout is not None:
                    outputs.setdefault((page["source"], record["snippet"]), stdout)
        return outputs

    def write(self, path: Path, data: bytes) -> None:
        """Write a page and give it an mtime later than any before, so Sphinx re-reads it.

        The stamp also keys the checker's cache of source lines: each content its own stamp.
        """
        path.write_bytes(data)
        self._stamp = max(time.time_ns(), self._stamp + 1_000_000)
        os.utime(path, ns=(self._stamp, self._stamp))

    def run(self, mutant: Mutant) -> Outcome:
        """Apply the mutant, build, judge, restore the page byte for byte."""
        original = mutant.source.read_bytes()
        text = original.decode("utf-8")
        try:
            mutated = apply_edits(text, mutant.edits)
        except ValueError as exc:
            return Outcome(mutant, False, f"not applied: {exc}", 0.0, applied=False)
        excerpts = mutant.excerpts(text)
        self.write(mutant.source, mutated.encode("utf-8"))
        try:
            build = self.build()
        finally:
            self.write(mutant.source, original)
            if mutant.source.read_bytes() != original:
                raise RuntimeError(f"{mutant.source} was not restored byte for byte")
        killed, reason = judge(mutant, build)
        return Outcome(mutant, killed, reason, build.seconds, len(build.read), build.snippets_run,
                       excerpts=excerpts)


def _run_snippet(path: Path, snippet_dir: Path) -> str | None:
    """A snippet's stdout, run by the extension's engine with its default limits (None: it
    failed)."""
    from verified_problems.engine.runner import Runner, SnippetRequest

    with Runner(None, jobs=1) as runner:
        result = runner.run(SnippetRequest(path.resolve(), snippet_dir))
    return result.stdout if result.ok else None


def bind_command() -> Path | None:
    """The ``verified-bind`` of this interpreter's environment, if it is installed."""
    command = Path(sys.executable).parent / BIND_COMMAND
    return command if command.is_file() and os.access(command, os.X_OK) else None


def bind(workspace: Workspace, command: Path | None) -> int | None:
    """Record the bindings of the copy's correct pages (``verified-bind``), before any mutant.

    They are written under the copy's ``<srcdir>/_bindings/``, which its builds then read; the
    tool's own check builds in ``_build/bind``, so the baseline is a full build that reads
    them. Exit 1 (some digits are ambiguous) is printed and the run goes on: those digits are
    reported unbound. Without the command (None: not installed, see :func:`bind_command`) there
    is nothing to bind: a note, and None.
    """
    if command is None:
        print(f"--bind: {BIND_COMMAND} is not installed in {Path(sys.executable).parent}; "
              "the free digits are mutated unbound", flush=True)
        return None
    argv = [str(command), str(workspace.srcdir), "--conf", str(workspace.root / workspace.conf),
            "--build", str(workspace.root / "_build" / "bind"),
            *(f"--choose={choice}" for choice in workspace.bind_choices)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=1800)
    output = (done.stdout + done.stderr).rstrip()
    if done.returncode == 0:
        print(f"--bind: {BIND_COMMAND} bound every free digit", flush=True)
    elif done.returncode == 1:
        print(f"--bind: {BIND_COMMAND} left some digits ambiguous (exit 1); they stay "
              f"unbound:\n{output}", flush=True)
    else:
        raise SystemExit(f"--bind: {BIND_COMMAND} failed (exit {done.returncode}):\n{output}")
    return done.returncode


def judge(mutant: Mutant, build: Build) -> tuple[bool, str]:
    """Killed: a non-zero exit and an error naming the mutated file and every mutated line."""
    errors = build.errors_at(mutant.source)
    if build.status == 0:
        return False, "the build passed (exit 0)"
    missing = [line for line in mutant.lines if line not in errors]
    if missing:
        named = sorted(errors) or "no line of this file"
        return False, (f"the build failed (exit {build.status}) but no error names line "
                       f"{', '.join(map(str, missing))} (errors name {named})")
    return True, "; ".join(m for line in mutant.lines for m in errors[line][:1])


# -- the run --------------------------------------------------------------------------------


@dataclass
class Result:
    """A mutation run: every outcome, what the scan missed, and the times."""

    root: Path
    outcomes: list[Outcome]
    generated: Counter[str]  # mutants per kind, before sampling
    unscanned: list[str]
    baseline_seconds: float
    seconds: float
    final_ok: bool
    final_problem: str = ""
    printed: PrintedScan | None = None  # the printed class, when it was asked for

    @property
    def total(self) -> int:
        """Every mutant made, sampled or not."""
        return sum(self.generated.values())

    @property
    def survivors(self) -> list[Outcome]:
        """The mutants the build did not catch."""
        return [o for o in self.outcomes if o.applied and not o.killed]

    @property
    def unapplied(self) -> list[Outcome]:
        """The mutants whose edit could not be made where the scan found the number."""
        return [o for o in self.outcomes if not o.applied]

    @property
    def ok(self) -> bool:
        """Every mutant applied and killed, every checked number mutated, the copy clean."""
        return (not self.survivors and not self.unapplied and not self.unscanned
                and self.final_ok)

    def summary(self) -> str:
        """What the run prints."""
        out: list[str] = []
        for outcome in self.survivors:
            out.append(f"SURVIVED {outcome.mutant.describe(self.root)}: {outcome.reason}")
            for before, after in outcome.excerpts:
                out.append(f"    before: {before}")
                out.append(f"    after:  {after}")
        for outcome in self.unapplied:
            out.append(f"UNAPPLIED {outcome.mutant.describe(self.root)}: {outcome.reason}")
        for problem in self.unscanned:
            out.append(f"NOT MUTATED {problem}")
        if self.printed is not None:
            out.extend(f"NOT MATCHED (printed) {where}" for where in self.printed.unmatched)
            out.extend(f"NOT PLACED (printed) {where}" for where in self.printed.unplaced)
        if not self.final_ok:
            out.append(f"NOT RESTORED {self.final_problem}")
        applied = [o for o in self.outcomes if o.applied]
        killed = sum(o.killed for o in applied)
        count = len(applied)
        rate = 100.0 * killed / count if count else 100.0
        out.append(f"mutants: {len(self.outcomes)}, killed: {killed} ({rate:.1f}%), "
                   f"survived: {len(self.survivors)}, unapplied: {len(self.unapplied)}"
                   + (f" [sample of {self.total}]" if len(self.outcomes) < self.total else ""))
        for kind in KINDS if self.printed is None else ALL_KINDS:
            mine = [o for o in self.outcomes if o.mutant.kind == kind]
            of = (f" (of {self.generated[kind]})" if len(mine) < self.generated[kind] else "")
            out.append(f"  {kind}: {len(mine)} mutants{of}, {sum(o.killed for o in mine)} killed, "
                       f"{sum(o.applied and not o.killed for o in mine)} survived")
        if self.printed is not None:
            scan = self.printed
            out.append(f"    of {scan.free} free digits: {scan.mutated} mutated, "
                       f"{len(scan.unmatched)} not matched to the scan, {len(scan.unplaced)} "
                       f"not placed; {scan.equal} replacements skipped (the prose's own value)")
        out.append(f"time: {self.seconds:.1f} s in all (baseline build "
                   f"{self.baseline_seconds:.1f} s)")
        if count:
            per = sum(o.seconds for o in applied) / count
            read = sum(o.read for o in applied) / count
            ran = sum(o.snippets_run for o in applied)
            out.append(f"  per mutant build: {per:.2f} s, {read:.1f} pages read; snippets run by "
                       f"all mutant builds: {ran}")
        return "\n".join(out)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _numbers(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    return {page["docname"]: page["numbers"] for page in report["pages"]}


def baseline(workspace: Workspace) -> tuple[Build, dict[str, Any]]:
    """The first, full build of the copy; it must pass with every number matched."""
    build = workspace.build()
    if build.status != 0:
        raise SystemExit(f"the unmutated book does not build (exit {build.status}):\n"
                         f"{build.warnings}")
    report = workspace.report()
    if report["summary"]["failed"] or report["summary"]["errors"]:
        raise SystemExit(f"the unmutated book has failures: {report['summary']}")
    return build, report


def scan_pages(pages: Iterable[Path]) -> list[PageScan]:
    """The scan of each page."""
    return [scan_page(page.read_text(encoding="utf-8"), page) for page in pages]


def checked_pages(workspace: Workspace) -> list[Path]:
    """The pages of the copy with a ``check-numeric`` directive."""
    return [scan.source for scan in scan_pages(workspace.pages()) if scan.checked]


def select_pages(workspace: Workspace, names: Sequence[str] | None,
                 project: Path = PROJECT) -> list[Path]:
    """The copy's pages that ``--pages`` names (all checked pages if None)."""
    if not names:
        return checked_pages(workspace)
    chosen: list[Path] = []
    for name in names:
        given = Path(name)
        absolute = (given if given.is_absolute() else Path.cwd() / given).resolve()
        copy: Path | None = workspace.extra_pages.get(absolute)
        if copy is None:
            for base in (project.resolve(), workspace.root):
                with contextlib.suppress(ValueError):
                    copy = workspace.root / absolute.relative_to(base)
                    break
        if copy is None or not copy.is_file():
            copy = workspace.root / given
        if not copy.is_file():
            raise SystemExit(f"--pages {name}: no such page in the book")
        if not scan_page(copy.read_text(encoding="utf-8"), copy).checked:
            raise SystemExit(f"--pages {name}: not a checked page (no check-numeric directive)")
        chosen.append(copy)
    return list(dict.fromkeys(chosen))


def unmutated(report: dict[str, Any], scans: Sequence[PageScan], root: Path) -> list[str]:
    """Numbers the checker checked on the scanned pages that the scan does not mutate."""
    mutated: set[tuple[Path, int, int]] = set()
    for scan in scans:
        for number in scan.mutable:
            mutated.add((scan.source.resolve(), number.line, number.column))
            mutated.add((scan.source.resolve(), number.line, number.start))
    sources = {scan.source.resolve() for scan in scans}
    missed: list[str] = []
    for page in report["pages"]:
        source = Path(page["source"]).resolve()
        if source not in sources:
            continue
        for number in page["numbers"]:
            if (number.get("kind") not in FREE_KINDS | {"named"}
                    or number.get("status") != "match"):
                continue
            line, column = number.get("line"), number.get("column")
            if line is None or column is None:
                missed.append(f"{_relative(source, root)}:{line}: {number.get('prose')} "
                              "(checked without a column)")
            elif (source, line, column) not in mutated:
                missed.append(f"{_relative(source, root)}:{line}: {number.get('prose')} at "
                              f"column {column} is checked by the build but never mutated")
    return list(dict.fromkeys(missed))


def run_mutants(
    workspace: Workspace,
    mutants: Sequence[Mutant],
    expected: dict[str, Any],
    generated: Counter[str] | None = None,
    unscanned: Sequence[str] = (),
    baseline_seconds: float = 0.0,
    progress: bool = False,
) -> Result:
    """Run the mutants one by one, then check that the restored copy builds as the baseline."""
    start = time.perf_counter()
    ordered = sorted(mutants, key=lambda m: (str(m.source), m.lines, m.kind, m.edits))
    outcomes: list[Outcome] = []
    for number, mutant in enumerate(ordered, 1):
        outcome = workspace.run(mutant)
        outcomes.append(outcome)
        if progress:
            mark = ("killed" if outcome.killed else "SURVIVED" if outcome.applied
                    else "UNAPPLIED")
            print(f"[{number}/{len(ordered)}] {mark} {mutant.describe(workspace.root)}",
                  file=sys.stderr, flush=True)
    final = workspace.build()
    final_ok, final_problem = True, ""
    if final.status != 0:
        final_ok, final_problem = False, f"the restored copy fails (exit {final.status})"
    elif _numbers(workspace.report()) != _numbers(expected):
        final_ok, final_problem = False, "the restored copy reports other numbers than before"
    counts = generated if generated is not None else Counter(m.kind for m in mutants)
    return Result(workspace.root, outcomes, counts, list(unscanned), baseline_seconds,
                  time.perf_counter() - start, final_ok, final_problem)


def mutate(
    root: Path,
    sample: int | None = None,
    seed: int = 0,
    all_digits: bool = False,
    project: Path = PROJECT,
    progress: bool = False,
    in_subprocess: bool = False,
    pages: Sequence[str] | None = None,
    extras: Sequence[Path] = (),
    printed: bool = False,
    bind_first: bool = False,
    choices: Sequence[str] = (),
) -> Result:
    """The whole run in ``root`` (a fresh folder): copy the book, then :func:`mutate_copy`."""
    workspace = Workspace.create(root, project, extras)
    workspace.in_subprocess = in_subprocess
    workspace.bind_choices = tuple(choices)
    chosen = select_pages(workspace, pages, project)
    return mutate_copy(workspace, sample, seed, all_digits, progress, chosen, printed,
                       bind_first)


def mutate_copy(
    workspace: Workspace,
    sample: int | None = None,
    seed: int = 0,
    all_digits: bool = False,
    progress: bool = False,
    pages: Sequence[Path] | None = None,
    printed: bool = False,
    bind_first: bool = False,
) -> Result:
    """(Bindings,) baseline, mutants of the pages (all, or a sample drawn with ``seed``),
    verdict. ``printed`` adds the printed class (``all_digits`` too)."""
    start = time.perf_counter()
    if bind_first:
        bind(workspace, bind_command())
    build, report = baseline(workspace)
    scans = scan_pages(checked_pages(workspace) if pages is None else pages)
    mutants = make_mutants(scans, all_digits)
    printed_scan = None
    if printed or all_digits:
        more, printed_scan = make_printed_mutants(
            report, scans, workspace.snippet_outputs(report), workspace.root)
        mutants = list(dict.fromkeys([*mutants, *more]))
    missed = unmutated(report, scans, workspace.root)
    generated = Counter(m.kind for m in mutants)
    if sample is not None and sample < len(mutants):
        mutants = random.Random(seed).sample(mutants, sample)
    result = run_mutants(workspace, mutants, report, generated, missed, build.seconds,
                         progress)
    result.printed = printed_scan
    result.seconds = time.perf_counter() - start
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """``make mutation``."""
    os.environ["NO_COLOR"] = "1"  # Sphinx colours its output under CI=true; it is parsed here
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--pages", nargs="+", metavar="PAGE", default=None,
                        help="mutate these pages only (default: every checked page)")
    parser.add_argument("--extra", action="append", type=Path, default=[], metavar="DIR",
                        help="add DIR/pages/*.md and DIR/snippets/* to the copied book")
    parser.add_argument("--sample", type=int, default=None,
                        help="run a random sample of N mutants (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample")
    parser.add_argument("--all-digits", action="store_true",
                        help="mutate every digit position, not only the last digit "
                             "(and add the printed class)")
    parser.add_argument("--printed", action="store_true",
                        help="add the printed class: each free digit made every other number "
                             "its snippet printed (large)")
    parser.add_argument("--bind", action=argparse.BooleanOptionalAction, default=None,
                        help=f"run {BIND_COMMAND} on the copy before mutating (default: on "
                             "with --extra)")
    parser.add_argument("--choose", action="append", default=[], metavar="PAGE:LINE=QUANTITY",
                        help=f"passed to {BIND_COMMAND} (repeatable): the quantity a digit of "
                             "the copy quotes where several values match")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument("--progress", action="store_true", help="print each mutant as it runs")
    parser.add_argument("--subprocess", action="store_true",
                        help="run each build as a sphinx-build command (slower; same verdicts)")
    args = parser.parse_args(argv)
    pages = [p for group in args.pages for p in group.split()] if args.pages else None
    folder = Path(tempfile.mkdtemp(prefix="mutation-"))
    try:
        bind_first = bool(args.extra) if args.bind is None else args.bind
        result = mutate(folder / "copy", args.sample, args.seed, args.all_digits,
                        progress=args.progress, in_subprocess=args.subprocess, pages=pages,
                        extras=args.extra, printed=args.printed, bind_first=bind_first,
                        choices=args.choose)
        print(result.summary())
    finally:
        if args.keep:
            print(f"the copy is in {folder / 'copy'}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
