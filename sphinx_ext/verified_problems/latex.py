r"""Numbers in the book's math: named values and free digits, with exact source offsets.

DESIGN.md section 3. A math block (display or inline: the LaTeX between its delimiters) is read
in four passes, each on a small tree of tokens that keeps every offset into the input:

1. **Reading.** pylatexenc's ``LatexWalker`` gives groups, environments, macros and characters
   with positions. It runs with an empty macro database, so that no macro takes arguments
   behind our back: a ``{…}`` after a macro is just a group. Characters become one token each,
   except digits, which become numbers (``12``, ``0.7071``, ``.5``; ``1.2e-5`` only with a
   decimal point, since ``2e`` may be 2 times e). Whitespace, comments, small spacing (``\;``
   ``\,`` ``\:`` ``\!`` ``\>`` ``\ `` ``~``) and markup that is not math (``\label{…}``,
   ``\tag{…}``, ``\nonumber``, ``\displaystyle``, ``\phantom{…}``, ``\hspace{…}``, the colour of
   ``\color{…}``/``\textcolor{…}{x}``, the ``[2pt]`` of ``\\[2pt]``, environment arguments
   such as ``{cc}`` and ``[t]``) are dropped. The content of ``\text{…}`` (``\textrm``,
   ``\mbox``, …) is read as running text, by the rules of :mod:`.prose`.
2. **Macros.** The book's MathJax macros are expanded. Tokens from an argument keep their own
   offsets; tokens from the body take the macro's offset and are not the author's: a number in
   a macro body is never reported, a minus there is never a sign. ``\unchecked{…}`` (which wins
   over a book macro of that name) marks what it holds as exempt.
3. **Brackets.** ``( )``, ``[ ]``, ``\{ \}``, ``\langle \rangle``, …, ``\left… \right…`` and
   ``\bigl… \bigr…`` become delimited items, so that commas inside them split nothing. Plain
   brackets pair with any plain bracket (``[0, 1)``); ``\left`` only with ``\right``.
4. **Numbers.** ``\infty`` becomes ``inf``. A minus (``-`` or ``−``) directly before a number,
   spacing aside, is its sign when nothing that could be subtracted from stands before it: the
   start of a group, block or environment, an operator, a relation, an opening bracket, a
   comma, ``&``, ``\\``, ``\quad``, or a ``|`` that itself opens. ``1.2 \times 10^{-5}`` (or
   ``\cdot``) becomes one number ``1.2e-5`` whose span is the whole written form.

Then the grammar. A block is split into **equations** at top-level ``\\``, ``&``, ``,``, ``;``,
``\quad`` and ``\qquad``, except where a run of these separators stands next to a relation
(``x &= 1`` is one equation, and a line that starts with ``&=`` goes on with the one before),
or a line break (``\\``, ``&``) next to ``+``, ``-``, ``\times``, ``\cdot``, ``\pm`` (a sum
carried over lines). Each equation is a **chain** of terms split at ``=``, ``\approx``, ``≈``,
``:=``, ``\coloneqq``, ``\equiv``, ``\triangleq`` and ``\doteq``; any other relation (``\in``,
``<``, ``>``, ``\le``, ``\ge``, ``\ne``, ``\to``, ``\mapsto``, ``\sim``, ``\propto``, …) ends
the chain, and what follows it is a chain of its own that only names can give values
(``0 < \eta = 0.5528 < 1`` names 0.5528; an interval, ``p \in [0.412, 0.588]``, need not be a
printed array, so its decimals are free). Each term, stripped of ``. , ; :`` and spacing
around it and of braces around all of it, is

* a **name**: a letter, a Greek letter macro (``\alpha`` → ``alpha``, ``\Sigma`` →
  ``Sigma``, ``\ell``) or, inside ``\mathrm``, ``\text``, ``\operatorname``, ``\mathit``,
  ``\mathsf``, ``\mathtt`` and the ``\text…`` fonts, a word written without spaces
  (``\mathrm{loss}`` → ``loss``); optionally in a font or under ``\vec`` (``\mathbf``,
  ``\boldsymbol``, ``\bm``, ``\mathcal``, ``\mathbb``, …); optionally decorated (``\hat``,
  ``\widehat`` → ``hat``; ``\bar``, ``\overline`` → ``bar``; ``\tilde``, ``\widetilde`` →
  ``tilde``; ``\dot``, ``\ddot``; a prime ``x'`` → ``prime``); optionally with one
  subscript. The normal form joins base, decorations and subscript with ``_``, the subscript
  as written without braces or spaces: ``a_{1}``, ``a_1`` and ``\vec{a}_1`` → ``a_1``;
  ``O_{11}`` → ``O_11``; ``S_{ij}`` → ``S_ij``; ``X_{10,2}`` → ``X_10,2``; ``W_{\text{max}}``
  and ``W_{\max}`` → ``W_max``; ``\hat{y}`` → ``y_hat``; ``\hat{y}_1`` and ``\hat{y_1}`` →
  ``y_hat_1``. A superscript (``K^{\mathsf T}``, ``x^2``), two letters side by side (a
  product), a decimal subscript or a bare ``_11`` (TeX subscripts only the ``1``) make it no
  name;
* a **literal**: a number (with its sign; scientific; ``\infty``); a matrix environment whose
  cells are all numbers (rows at ``\\``, a last empty row ignored, cells at ``&``; shape
  ``(rows, columns)``); an ``array`` of numbers, alone or in brackets, likewise; or a tuple
  ``( … )`` / ``[ … ]`` in any size (``\left``, ``\bigl``, ``\big``) of comma-separated numbers
  (shape ``(n,)``) or of tuples of one shape (shape ``(n, m, …)``). One number in parentheses
  is that number (shape ``()``); one in square brackets is a 1-vector (shape ``(1,)``). A
  matrix with a transpose mark (``^{\mathsf T}``, ``^\top``, ``^{\intercal}``, ``^T``) is that
  matrix transposed;
* anything else: an **expression**.

A number followed by its unit, in ``\text``, ``\mathrm``, ``\textrm``, ``\mbox``,
``\textnormal`` or ``\textup`` holding no digit (``1.4548 \;\text{bits}``,
``3\,\mathrm{ms}``), is read as the number alone, as a literal and in the prose's arithmetic:
a unit must not turn a named value into free digits. So is a number followed by ``\pm`` and
its margin (``\hat{p} = 0.5 \pm 0.088`` names 0.5; the margin's decimals are free), and one
followed by an ellipsis (``0.9543\ldots``). Names and numbers listed in pairs,
``\lambda_1, \lambda_2 = 3.6180, 1.3820``, are read as one equation a pair.

A chain with at least one name and one literal gives one :class:`NamedValue` per literal, with
all the names of the chain, in order, each once; its ``start`` is where the literal starts.
Every other decimal of the block (a number with a decimal point, or in scientific form;
integers never) is a free digit, wherever it stands: expressions, exponents, subscripts,
fractions, roots, ``\text``, the arguments of any macro. Numbers inside ``\unchecked`` are
exempt: listed in ``exempt`` (decimals, and integers that would have been cells), neither free
nor cells. A named value with any exempt cell is dropped, and its other decimals are free.

Environments: matrices (``matrix``, ``bmatrix``, ``pmatrix``, ``Bmatrix``, ``vmatrix``,
``Vmatrix``, ``smallmatrix``, starred with an optional ``[r]``) are values. Layout
(``align``, ``aligned``, ``alignat``, ``gather``, ``gathered``, ``split``, ``equation``,
``multline``, ``flalign``, ``eqnarray``, ``cases``, ``dcases``, ``rcases``, ``subarray``,
starred forms), ``array`` and unknown environments are read as blocks of equations wherever
they stand (``array`` is also a matrix value where a chain needs one), and so is the argument
of ``\boxed``: no digit goes unread.

Unknown macros are operators: their ``{…}`` groups are read like any group.

Malformed input gives a :class:`SourceProblem`, never an exception, and extraction goes on
from pylatexenc's tolerant parse: unbalanced braces, environments and ``$`` (found by its strict
parser), an unpaired ``\left`` or ``\right``, a macro with too few arguments or that expands
without end, a matrix whose rows have different lengths (no named value; its decimals are
free), a bare ``_11`` or ``^12``, and an unknown environment where a named value was expected.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise
from types import MappingProxyType
from typing import TypeAlias

from .latex_tree import LatexSyntaxError, Node, parse, parse_strict
from .numbers import NamedValue, ProseExtract, ProseNumber, SourceProblem
from .prose import find_decimals

MacroDef: TypeAlias = tuple[str, int]
"""A MathJax macro of the book: its body (with ``#1``…``#9``) and its number of arguments."""

EXEMPT_MACRO = "unchecked"
r"""``\unchecked{…}``: the author exempts what it holds from checking (it renders unchanged)."""

_NO_MACROS: Mapping[str, MacroDef] = MappingProxyType({})

# -- vocabulary ------------------------------------------------------------------------------



def _macro_names(names: str) -> frozenset[str]:
    """Control sequences from a list of names: ``"alpha beta"`` → ``{"\\alpha", "\\beta"}``."""
    return frozenset("\\" + name for name in names.split())


def _names(names: str) -> frozenset[str]:
    return frozenset(names.split())


def _starred(names: str) -> frozenset[str]:
    """Environment names with their starred forms."""
    return frozenset(name + star for name in names.split() for star in ("", "*"))


_GREEK = _macro_names(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa"
    " lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
    " Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell"
)
_WORD_WRAPPERS = _macro_names(
    "mathrm text operatorname mathit mathsf mathtt textrm textit textbf textsf texttt"
    " textnormal mbox"
)
_WRAPPERS = _WORD_WRAPPERS | _macro_names(
    "mathbf boldsymbol bm vec mathcal mathbb mathfrak mathscr symbf pmb"
)
_DECORATIONS = {
    "\\hat": "hat",
    "\\widehat": "hat",
    "\\bar": "bar",
    "\\overline": "bar",
    "\\tilde": "tilde",
    "\\widetilde": "tilde",
    "\\dot": "dot",
    "\\ddot": "ddot",
}
_TEXT_MACROS = _names("text textrm textit textbf textsf texttt textnormal textup mbox hbox emph")
_DROPPED = frozenset(
    [",", ";", ":", "!", " ", ">", "enspace", "thinspace", "medspace", "thickspace",
     "negthinspace", "negmedspace", "negthickspace", "nonumber", "notag", "displaystyle",
     "textstyle", "scriptstyle", "scriptscriptstyle", "hline", "limits", "nolimits",
     "strut", "mathstrut", "allowbreak", "hfill"]
)
#: Markup whose first ``{…}`` is not math: dropped with it (``\textcolor{red}{x}`` leaves
#: ``{x}``).
_DROPPED_WITH_ARGUMENT = _names(
    "label tag hspace vspace phantom hphantom vphantom cline eqref ref color textcolor class"
    " cssId style href"
)

_CHAIN_RELATIONS = frozenset(
    ["=", "\\approx", "≈", "\\coloneqq", "\\eqqcolon", "\\equiv", "\\triangleq", "\\doteq"]
)
_CHAIN_ENDS = frozenset(
    ["<", ">", "≤", "≥", "≠", "∈", "→", "\\in", "\\notin", "\\le", "\\leq", "\\ge", "\\geq",
     "\\lt", "\\gt", "\\leqslant", "\\geqslant", "\\ne", "\\neq", "\\to", "\\mapsto",
     "\\rightarrow", "\\Rightarrow", "\\longrightarrow", "\\implies", "\\iff", "\\sim",
     "\\simeq", "\\propto", "\\subset", "\\subseteq", "\\ll", "\\gg", "\\gets", "\\leftarrow",
     "\\Leftarrow", "\\longleftarrow", "\\Longleftarrow", "\\Longrightarrow", "\\leftrightarrow",
     "\\Leftrightarrow", "\\longmapsto", "\\cong", "←", "⇐", "⇒", "↔"]
)
_RELATIONS = _CHAIN_RELATIONS | _CHAIN_ENDS
_OPERATORS = frozenset(
    ["+", "-", "−", "*", "/", ":", "±", "×", "·", "\\times", "\\cdot", "\\pm", "\\mp",
     "\\div", "\\ast", "\\star", "\\circ", "\\odot", "\\otimes", "\\oplus", "\\setminus"]
)
_EQUATION_BREAKS = frozenset([",", ";", "\\quad", "\\qquad"])
_LINE_BREAKS = frozenset(["&", "\\\\"])
_SEPARATORS = _EQUATION_BREAKS | _LINE_BREAKS
#: Operators that carry an expression over a line break.
_CONTINUATIONS = frozenset(["+", "-", "−", "\\times", "\\cdot", "\\pm", "\\mp"])
_OPENERS = frozenset(
    ["(", "[", "\\{", "\\lbrace", "\\lbrack", "\\langle", "\\lvert", "\\lVert", "\\lfloor",
     "\\lceil"]
)
_CLOSERS = frozenset(
    [")", "]", "\\}", "\\rbrace", "\\rbrack", "\\rangle", "\\rvert", "\\rVert", "\\rfloor",
     "\\rceil"]
)
_SIZED_LEFT = frozenset(["\\bigl", "\\Bigl", "\\biggl", "\\Biggl"])
_SIZED_RIGHT = frozenset(["\\bigr", "\\Bigr", "\\biggr", "\\Biggr"])
_SIZED = frozenset(["\\big", "\\Big", "\\bigg", "\\Bigg"])
#: Macros whose next character is a delimiter: after them ``.`` is the empty one, no decimal point.
_DELIMITER_MACROS = _SIZED_LEFT | _SIZED_RIGHT | _SIZED | frozenset(["\\left", "\\right"])
#: Functions written without parentheses: a minus right after one is its argument's sign.
_FUNCTIONS = frozenset(["\\ln", "\\log", "\\lg", "\\exp", "\\sin", "\\cos", "\\tan",
                        "\\tanh", "\\sinh", "\\cosh", "\\arctan"])
#: What may stand right before a minus that is a sign (besides nothing at all).
_SIGN_CONTEXT = (
    _RELATIONS | _OPERATORS | _EQUATION_BREAKS | _OPENERS | _SIZED_LEFT | _FUNCTIONS
    | frozenset(["&", "\\\\", "\\left"])
)
_MINUS = frozenset(["-", "−"])
_PLUS_MINUS = frozenset(["\\pm", "±"])
_BRACES = frozenset(["\\underbrace", "\\overbrace"])
_BOXES = _BRACES | frozenset(["\\boxed"])
_TRANSPOSE_MARKS = frozenset(["T", "\\top", "\\intercal", "⊤"])
_ELLIPSES = frozenset(["\\ldots", "\\dots", "\\cdots", "…"])
#: Operator names a subscript may be (``\lambda_{\max}`` is ``lambda_max``).
_OPERATOR_NAMES = frozenset(["\\max", "\\min", "\\sup", "\\inf", "\\arg", "\\det", "\\exp",
                             "\\log", "\\ln"])
_SCIENTIFIC_TIMES = frozenset(["\\times", "\\cdot"])
_DIMENSION = re.compile(r"[-+]?[0-9.]*(?:pt|em|ex|mm|cm|in|mu|bp|pc|dd|cc|sp)")
_SCRIPTS = {"_": "subscripts", "^": "raises"}
_SCRIPT_MARKS = frozenset(_SCRIPTS)
_SUBSCRIPT_MARKS = frozenset([",", "+", "-"])
_PUNCTUATION = frozenset([".", ",", ";", ":", "\\quad", "\\qquad"])

_MATRIX_ENVIRONMENTS = _starred("matrix bmatrix pmatrix Bmatrix vmatrix Vmatrix smallmatrix")
_ARRAY_ENVIRONMENTS = frozenset(["array"])
_LAYOUT_ENVIRONMENTS = _starred(
    "align aligned alignat alignedat gather gathered split equation multline flalign eqnarray"
    " cases dcases rcases subarray"
)
_KNOWN_ENVIRONMENTS = _MATRIX_ENVIRONMENTS | _ARRAY_ENVIRONMENTS | _LAYOUT_ENVIRONMENTS
#: Environments whose first ``{…}`` groups are arguments, not content.
_ENVIRONMENT_ARGUMENTS = {"array": 1, "subarray": 1, "alignat": 1, "alignat*": 1,
                          "alignedat": 1}
#: Environments that take an optional ``[…]`` first: ``aligned[t]``, ``bmatrix*[r]``.
_OPTIONAL_ARGUMENT = frozenset(name for name in _MATRIX_ENVIRONMENTS if name.endswith("*")) \
    | _names("aligned gathered alignedat array subarray")
_EXPANSION_BUDGET = 10_000
_EXPANSION_DEPTH = 64

# -- the token tree --------------------------------------------------------------------------

# The items below are values: no pass changes one, each builds new ones (``_with_items``,
# ``replace``). They are not ``frozen`` only because a frozen dataclass costs four times as
# much to build, and a page's math makes thousands of them; ``unsafe_hash`` keeps them
# hashable by value, as frozen ones are.


@dataclass(unsafe_hash=True, slots=True)
class _Tok:
    r"""One character (``a``, ``=``, ``&``) or control sequence (``\alpha``, ``\\``).

    ``own`` is False for a token that came from a macro body: it stands at the macro's offset.
    """

    text: str
    start: int
    end: int
    own: bool = True


@dataclass(unsafe_hash=True, slots=True)
class _Num:
    """A number as written: canonical ``text``, its span, and whether it is checked."""

    text: str
    start: int
    end: int
    decimal: bool
    own: bool = True
    exempt: bool = False

    def prose(self) -> ProseNumber:
        """The shared value type."""
        return ProseNumber(self.text, self.start, self.end, self.decimal, self.exempt)


@dataclass(unsafe_hash=True, slots=True)
class _Group:
    """A ``{…}`` group (or ``$…$`` inside ``\\text``)."""

    items: tuple[_Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class _Env:
    """A ``\\begin{name}…\\end{name}`` environment and its body."""

    name: str
    items: tuple[_Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class _Delim:
    r"""What stands between matched brackets; ``opener``/``closer`` are the bare brackets."""

    opener: str
    closer: str
    items: tuple[_Item, ...]
    start: int
    end: int


@dataclass(unsafe_hash=True, slots=True)
class _Param:
    """``#n`` in a macro body, before substitution."""

    index: int


_Item: TypeAlias = "_Tok | _Num | _Group | _Env | _Delim | _Param"
_Container = _Group | _Env | _Delim


def _is(item: _Item, texts: frozenset[str] | str) -> bool:
    """Whether ``item`` is a token with one of ``texts``."""
    if not isinstance(item, _Tok):
        return False
    return item.text == texts if isinstance(texts, str) else item.text in texts


def _span_of(item: _Item) -> tuple[int, int] | None:
    """Where an item stands in the input (a ``#n`` of a macro body stands nowhere)."""
    return None if isinstance(item, _Param) else (item.start, item.end)


def _with_items(item: _Container, items: Sequence[_Item]) -> _Container:
    """``item`` holding ``items``; itself if they are the very items it holds.

    Every pass rebuilds every container, and most come out as they went in.
    """
    held = item.items
    if len(items) == len(held) and all(a is b for a, b in zip(items, held, strict=True)):
        return item
    if isinstance(item, _Group):
        return _Group(tuple(items), item.start, item.end)
    if isinstance(item, _Env):
        return _Env(item.name, tuple(items), item.start, item.end)
    return _Delim(item.opener, item.closer, tuple(items), item.start, item.end)


def _walk(items: Sequence[_Item]) -> Iterator[_Item]:
    """Every item of the tree, depth first, in document order."""
    for item in items:
        yield item
        if isinstance(item, _Container):
            yield from _walk(item.items)


# -- pass 1: reading -------------------------------------------------------------------------

_NUMBER = r"(?P<num>[0-9]*\.[0-9]+(?:[eE][-+]?[0-9]+(?![.0-9]))?|[0-9]+)"  # 1.2e-5 needs a "."
_MATH_LEXEME = re.compile(_NUMBER + r"|(?P<char>\S)")
_BODY_LEXEME = re.compile(_NUMBER + r"|#(?P<param>[1-9])|(?P<char>\S)")  # #1 in macro bodies


def _takes_delimiter(items: Sequence[_Item]) -> bool:
    """Whether the last token read is ``\\left``, ``\\right`` or a size: a delimiter follows."""
    return bool(items) and _is(items[-1], _DELIMITER_MACROS)


@dataclass
class _Reader:
    """Turns the tree's nodes into tokens; ``at`` is set when reading a macro body."""

    at: tuple[int, int] | None = None

    def read(self, nodes: Sequence[Node], *, text: bool = False) -> list[_Item]:
        """The tokens of a node list (``text``: the content of ``\\text{…}``)."""
        out: list[_Item] = []
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

    def _tok(self, text: str, start: int, end: int) -> _Tok:
        return _Tok(text, *self._span(start, end), own=self.own)

    def _chars(self, chars: str, base: int, *, text: bool) -> Iterator[_Item]:
        if text:
            yield from self._text_chars(chars, base)
            return
        for match in (_MATH_LEXEME if self.own else _BODY_LEXEME).finditer(chars):
            start, end = base + match.start(), base + match.end()
            if match["num"]:
                yield _Num(match["num"], *self._span(start, end), "." in match["num"],
                           own=self.own)
            elif match["char"] is None:
                yield _Param(int(match["param"]))
            elif match["char"] != "~":
                yield self._tok(match["char"], start, end)

    def _text_chars(self, chars: str, base: int) -> Iterator[_Item]:
        decimals = {number.start: number for number in find_decimals(chars)}
        i = 0
        while i < len(chars):
            number = decimals.get(i)
            if number is not None:
                yield _Num(number.text, *self._span(base + i, base + number.end),
                           decimal=True, own=self.own)
                i = number.end
                continue
            if not chars[i].isspace() and chars[i] != "~":
                yield self._tok(chars[i], base + i, base + i + 1)
            i += 1

    def _group(self, node: Node, *, text: bool) -> _Group:
        items = self.read(node.children, text=text)
        return _Group(tuple(items), *self._span(node.start, node.end))

    def _env(self, node: Node) -> _Env:
        items = tuple(self.read(node.children))
        return _Env(node.text, items, *self._span(node.start, node.end))

    def _macro(self, node: Node, nodes: Sequence[Node], i: int, out: list[_Item]) -> int:
        """Append the macro's token (if it is kept); return where reading goes on."""
        name = node.text
        if name in _DROPPED:
            return i
        if name in _DROPPED_WITH_ARGUMENT:
            if _is_star(nodes, i) and _is_group(nodes, i + 1):  # \tag*{…}
                return i + 2
            return i + 1 if _is_group(nodes, i) else i
        follows_group = _is_group(nodes, i)
        out.append(self._tok("\\" + name, node.start, node.end))
        if name in _TEXT_MACROS and follows_group:
            out.append(self._group(nodes[i], text=True))
            return i + 1
        return i


def _is_group(nodes: Sequence[Node], i: int) -> bool:
    return i < len(nodes) and nodes[i].kind == "group"


def _is_star(nodes: Sequence[Node], i: int) -> bool:
    return i < len(nodes) and nodes[i].kind == "chars" and nodes[i].text.strip() == "*"


# -- pass 2: macros --------------------------------------------------------------------------


@dataclass
class _Expander:
    """Expands the book's macros and ``\\unchecked``, recording what goes wrong."""

    macros: Mapping[str, MacroDef]
    problems: list[SourceProblem]
    budget: int = _EXPANSION_BUDGET  # expansions left for the macro being expanded
    runaway: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        # MathJax's own config names macros without the backslash; accept it either way.
        self.macros = {name.lstrip("\\"): value for name, value in self.macros.items()}

    def expand(self, items: Sequence[_Item], depth: int = 0) -> list[_Item]:
        """``items`` with every macro of the book replaced by its body (``depth``: nesting)."""
        out: list[_Item] = []
        i = 0
        while i < len(items):
            item = items[i]
            i += 1
            if isinstance(item, _Container):
                out.append(_with_items(item, self.expand(item.items, depth)))
            elif _is(item, "\\" + EXEMPT_MACRO) and isinstance(item, _Tok):
                i = self._exempt(item, items, i, out, depth)
            elif isinstance(item, _Tok) and item.text.startswith("\\") \
                    and item.text[1:] in self.macros:
                i = self._user(item, items, i, out, depth)
            else:
                out.append(item)
        return out

    def _exempt(self, macro: _Tok, items: Sequence[_Item], i: int, out: list[_Item],
                depth: int) -> int:
        if i >= len(items):
            self.problems.append(SourceProblem(
                macro.start, f"`\\{EXEMPT_MACRO}` needs the exempt text in braces after it,"
                             f" as in `\\{EXEMPT_MACRO}{{0.5}}`"))
            return i
        argument = items[i]
        inner = self.expand(_argument(argument), depth)
        start, end = _span_of(argument) or (macro.start, macro.end)
        out.append(_Group(tuple(_exempted(inner)), start, end))
        return i + 1

    def _user(self, macro: _Tok, items: Sequence[_Item], i: int, out: list[_Item],
              depth: int) -> int:
        body, count = self.macros[macro.text[1:]]
        arguments = [list(_argument(item)) for item in items[i : i + count]]
        if len(arguments) < count:
            self.problems.append(SourceProblem(
                macro.start, f"the macro `{macro.text}` takes {count} argument(s), but only"
                             f" {len(arguments)} follow(s) it here"))
        if depth == 0:  # each macro the author wrote gets a fresh budget
            self.budget = _EXPANSION_BUDGET
        if self.budget <= 0 or depth >= _EXPANSION_DEPTH:
            if macro.text not in self.runaway:
                self.runaway.add(macro.text)
                self.problems.append(SourceProblem(
                    macro.start, f"the macro `{macro.text}` expands without end"))
            return i + len(arguments)
        self.budget -= 1
        template = _body(body, macro, self.problems)
        out.extend(self.expand(_substitute(template, arguments), depth + 1))
        return i + len(arguments)


def _argument(item: _Item) -> Sequence[_Item]:
    """What a macro argument holds: a group's content, or the one token."""
    return item.items if isinstance(item, _Group) else (item,)


def _exempted(items: Sequence[_Item]) -> Iterator[_Item]:
    for item in items:
        if isinstance(item, _Num):
            yield replace(item, exempt=True)
        elif isinstance(item, _Container):
            yield _with_items(item, list(_exempted(item.items)))
        else:
            yield item


def _body(body: str, macro: _Tok, problems: list[SourceProblem]) -> list[_Item]:
    """The tokens of a macro body, all standing at the macro's offset."""
    nodes = _body_nodes(body)
    if nodes is None:
        problems.append(SourceProblem(
            macro.start, f"the body of the macro `{macro.text}` is not valid LaTeX"))
        return []
    return _Reader(at=(macro.start, macro.end)).read(nodes)


@lru_cache(maxsize=256)
def _body_nodes(body: str) -> list[Node] | None:
    """A macro body's parse, once per body: a book uses the same few macros on every page."""
    try:
        return parse_strict(body)
    except LatexSyntaxError:
        return None


def _substitute(template: Sequence[_Item], arguments: list[list[_Item]]) -> list[_Item]:
    out: list[_Item] = []
    for item in template:
        if isinstance(item, _Param):
            if item.index <= len(arguments):
                out.extend(arguments[item.index - 1])
        elif isinstance(item, _Container):
            out.append(_with_items(item, _substitute(item.items, arguments)))
        else:
            out.append(item)
    return out


# -- pass 3: brackets ------------------------------------------------------------------------


@dataclass
class _Frame:
    """An open bracket waiting for its closer (``paired``: a ``\\left``, closed by ``\\right``)."""

    opener: tuple[_Tok, ...]
    paired: bool
    items: list[_Item] = field(default_factory=list)


def _bracket_at(items: Sequence[_Item], i: int, *, opening: bool) -> tuple[int, bool] | None:
    """The width and pairedness of the opening (closing) bracket at ``i``, if one is there."""
    item = items[i]
    if not isinstance(item, _Tok):
        return None
    after = items[i + 1] if i + 1 < len(items) else None
    delimiter = isinstance(after, _Tok)
    bare = _OPENERS if opening else _CLOSERS
    if item.text == ("\\left" if opening else "\\right") and delimiter:
        return 2, True
    if item.text in (_SIZED_LEFT if opening else _SIZED_RIGHT) and delimiter:
        return 2, False
    if item.text in _SIZED and after is not None and _is(after, bare):
        return 2, False
    return (1, False) if item.text in bare else None


def _match_brackets(items: Sequence[_Item], problems: list[SourceProblem]) -> list[_Item]:
    """``items`` with each matched pair of brackets turned into a :class:`_Delim`."""
    inner = [
        _with_items(item, _match_brackets(item.items, problems))
        if isinstance(item, _Container) else item
        for item in items
    ]
    inner = [_without_arguments(item) if isinstance(item, _Env) else item for item in inner]
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


def _without_arguments(env: _Env) -> _Env:
    """An environment without its arguments (``[t]``, ``{cc}``, ``[r]``): they are not math."""
    items: Sequence[_Item] = env.items
    if env.name in _OPTIONAL_ARGUMENT and items and _is_bracketed(items[0], "["):
        items = items[1:]
    for _ in range(_ENVIRONMENT_ARGUMENTS.get(env.name, 0)):
        if items and isinstance(items[0], _Group):
            items = items[1:]
    return replace(env, items=tuple(items))


def _without_row_options(items: Sequence[_Item]) -> list[_Item]:
    r"""``items`` without the ``[2pt]`` of each ``\\[2pt]``: amsmath reads it as a spacing."""
    return [
        item for k, item in enumerate(items)
        if not (k and _is(items[k - 1], "\\\\") and _is_dimension(item))
    ]


def _is_dimension(item: _Item) -> bool:
    """Whether ``item`` is a bracketed TeX length (``[2pt]``, ``[0.5em]``)."""
    if not (_is_bracketed(item, "[") and isinstance(item, _Delim) and item.closer == "]"):
        return False
    return _DIMENSION.fullmatch("".join(_text(part) for part in item.items)) is not None


def _toks(items: Sequence[_Item]) -> tuple[_Tok, ...]:
    return tuple(item for item in items if isinstance(item, _Tok))


def _close(stack: list[_Frame], closer: tuple[_Tok, ...], paired: bool,
           problems: list[SourceProblem]) -> None:
    if not paired:
        if len(stack) > 1 and not stack[-1].paired:
            _finish(stack, closer)
        else:
            stack[-1].items.extend(closer)
        return
    if not any(frame.paired for frame in stack):
        problems.append(SourceProblem(closer[0].start, "this `\\right` has no `\\left` before"
                                                       " it"))
        stack[-1].items.extend(closer)
        return
    while not stack[-1].paired:
        _abandon(stack, problems)
    _finish(stack, closer)


def _finish(stack: list[_Frame], closer: tuple[_Tok, ...]) -> None:
    frame = stack.pop()
    stack[-1].items.append(_Delim(frame.opener[-1].text, closer[-1].text, tuple(frame.items),
                                  frame.opener[0].start, closer[-1].end))


def _abandon(stack: list[_Frame], problems: list[SourceProblem]) -> None:
    """An opener that nothing closes: its tokens stay where they are, as plain tokens."""
    frame = stack.pop()
    if frame.paired:
        problems.append(SourceProblem(frame.opener[0].start, "this `\\left` is never closed"
                                                             " by a `\\right`"))
    stack[-1].items.extend(frame.opener)
    stack[-1].items.extend(frame.items)


# -- pass 4: numbers -------------------------------------------------------------------------


_GAP = re.compile(
    r"(?:\s|~|%[^\n]*(?:\n|$)|\\[,;:! >]"
    r"|\\(?:quad|qquad|enspace|thinspace|medspace|thickspace|negthinspace)(?![a-zA-Z]))*"
)


@dataclass(frozen=True)
class _Folder:
    """Folds infinity, signs and scientific notation into :class:`_Num` items, everywhere.

    Parts are folded only when nothing but spacing stands between them in ``source`` (a brace
    that a tolerant parse dropped does not make a minus and a number adjacent).
    """

    source: str

    def fold(self, items: Sequence[_Item]) -> list[_Item]:
        """``items`` (and everything inside them) with their numbers folded."""
        inner = [
            _with_items(item, self.fold(item.items)) if isinstance(item, _Container) else item
            for item in items
        ]
        return self._scientific(self._signs([_infinity(item) for item in inner]))

    def _adjacent(self, first: _Item, then: _Item) -> bool:
        """Whether only spacing stands between ``first`` and ``then`` in the source."""
        before, after = _span_of(first), _span_of(then)
        if before is None or after is None:
            return False
        return _GAP.fullmatch(self.source, before[1], after[0]) is not None

    def _signs(self, items: Sequence[_Item]) -> list[_Item]:
        out: list[_Item] = []
        for item in items:
            minus = out[-1] if out else None
            if (isinstance(item, _Num) and item.own and isinstance(minus, _Tok) and minus.own
                    and minus.text in _MINUS and _sign_may_stand(out, len(out) - 1)
                    and not item.text.startswith("-") and self._adjacent(minus, item)):
                out[-1] = replace(item, text="-" + item.text, start=minus.start)
            else:
                out.append(item)
        return out

    def _scientific(self, items: Sequence[_Item]) -> list[_Item]:
        out: list[_Item] = []
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

    def _scientific_at(self, items: Sequence[_Item], i: int) -> _Num | None:
        r"""``m \times 10^{e}`` (or ``\cdot``) at ``i`` as one number ``me e``, if it is there."""
        window = list(items[i : i + 5])
        if len(window) < 5:
            return None
        mantissa, times, ten, caret, exponent = window
        if not (isinstance(mantissa, _Num) and mantissa.own and "inf" not in mantissa.text
                and _is(times, _SCIENTIFIC_TIMES) and isinstance(ten, _Num) and ten.own
                and ten.text == "10" and _is(caret, "^")
                and isinstance(exponent, _Num | _Group)):
            return None
        parts = [mantissa, times, ten, caret, exponent]
        power = _integer(exponent)
        if power is None or not all(self._adjacent(a, b) for a, b in pairwise(parts)):
            return None
        return replace(mantissa, text=f"{mantissa.text}e{power}", end=exponent.end,
                       decimal=True)


def _infinity(item: _Item) -> _Item:
    if _is(item, "\\infty") and isinstance(item, _Tok):
        return _Num("inf", item.start, item.end, decimal=False, own=item.own)
    return item


def _sign_may_stand(items: Sequence[_Item], k: int) -> bool:
    """Whether a minus at ``k`` is a sign: nothing it could subtract from stands before it."""
    if k == 0:
        return True
    before = items[k - 1]
    if _is(before, "|"):  # an opening bar if a value may start where it stands
        return _sign_may_stand(items, k - 1)
    return _is(before, _SIGN_CONTEXT)


def _integer(item: _Item) -> str | None:
    """The integer an exponent holds (``5``, ``{-5}``), if that is all it holds."""
    if isinstance(item, _Num) and len(item.text) > 1:
        return None  # `10^12` is 10 to the 1, then 2
    inner = _argument(item)
    if len(inner) == 1 and isinstance(inner[0], _Num) and inner[0].own:
        text = inner[0].text
        return text if text.lstrip("-").isdigit() else None
    return None


# -- the grammar: equations, chains, terms ---------------------------------------------------


def _equations(items: Sequence[_Item]) -> list[list[_Item]]:
    """The equations of a block, split at its top-level separators.

    A run of separators next to a relation joins instead: ``x &= 1``, a line that starts with
    ``&=``, ``x = \\quad 1``; so does a line break or ``&`` next to a ``+`` (a sum that goes
    on over lines, ``\\ &\\quad + 0.4011``). Names and numbers listed in pairs,
    ``\\lambda_1, \\lambda_2 = 3.6180, 1.3820``, are an equation a pair.
    """
    equations: list[list[_Item]] = [[]]
    by_comma: list[bool] = []  # whether equations k and k + 1 were split by a lone comma
    i = 0
    while i < len(items):
        if not _is(items[i], _SEPARATORS):
            equations[-1].append(items[i])
            i += 1
            continue
        run = i
        while i < len(items) and _is(items[i], _SEPARATORS):
            i += 1
        breaks_line = any(_is(item, _LINE_BREAKS) for item in items[run:i])
        joiners = _RELATIONS | _CONTINUATIONS if breaks_line else _RELATIONS
        before = equations[-1][-1] if equations[-1] else None
        after = items[i] if i < len(items) else None
        if not any(item is not None and _is(item, joiners) for item in (before, after)):
            by_comma.append(i - run == 1 and _is(items[run], ","))
            equations.append([])
    return [equation for equation in _paired(equations, by_comma) if equation]


def _paired(equations: list[list[_Item]], by_comma: list[bool]) -> list[list[_Item]]:
    """Equations with each run ``N_1, …, N_k = V_1, …, V_k`` (lone commas) made k pairs."""
    result: list[list[_Item]] = []
    j = 0
    while j < len(equations):
        names = 0
        while (j + names < len(equations) - 1 and by_comma[j + names]
               and _name(_unwrap(equations[j + names])) is not None):
            names += 1
        if not names:
            result.append(equations[j])
            j += 1
            continue
        k = names + 1
        middle = equations[j + names]
        values = equations[j + k : j + 2 * k - 1]
        terms = _chain(middle)
        if (len(terms) == 2 and len(_relations(middle)) == 1
                and _name(_unwrap(terms[0])) is not None and _scalar(terms[1]) is not None
                and len(values) == k - 1 and all(by_comma[j + names : j + 2 * k - 2])
                and all(_scalar(value) is not None for value in values)):
            relation = next(item for item in middle if _is(item, _CHAIN_RELATIONS))
            lefts = [*equations[j : j + names], terms[0]]
            rights = [terms[1], *values]
            result += [[*left, relation, *right] for left, right in zip(lefts, rights, strict=True)]
            j += 2 * k - 1
        else:
            result.append(equations[j])
            j += 1
    return result


def _is_bracketed(item: _Item, opener: str) -> bool:
    return isinstance(item, _Delim) and item.opener == opener


def _chain(equation: Sequence[_Item]) -> list[list[_Item]]:
    """The terms of an equation's chain of equalities; what follows another relation is not."""
    terms: list[list[_Item]] = [[]]
    for item in equation:
        if _is(item, _CHAIN_RELATIONS):
            terms.append([])
        elif _is(item, _CHAIN_ENDS):
            break
        else:
            terms[-1].append(item)
    return terms


def _relations(equation: Sequence[_Item]) -> list[str]:
    """The relations between the terms of :func:`_chain`, in order."""
    relations: list[str] = []
    for item in equation:
        if _is(item, _CHAIN_ENDS):
            break
        if isinstance(item, _Tok) and item.text in _CHAIN_RELATIONS:
            relations.append(item.text)
    return relations


def _strip(items: Sequence[_Item]) -> Sequence[_Item]:
    """``items`` without the punctuation and spacing around it."""
    start, end = 0, len(items)
    while start < end and _is(items[start], _PUNCTUATION):
        start += 1
    while end > start and _is(items[end - 1], _PUNCTUATION):
        end -= 1
    return items[start:end]


def _unwrap(items: Sequence[_Item]) -> Sequence[_Item]:
    """A lone ``{…}`` (or ``\\unchecked{…}``) stands for what it holds; a number and its unit,
    its margin (``0.5 \\pm 0.088``) or an ellipsis (``0.9543\\ldots``), for the number."""
    items = without_unit(items)
    while len(items) == 1 and isinstance(items[0], _Group):
        items = without_unit(items[0].items)
    if len(items) >= 3 and isinstance(items[0], _Num) and _is(items[1], _PLUS_MINUS):
        return items[:1]
    if len(items) == 2 and isinstance(items[0], _Num) and _is(items[1], _ELLIPSES):
        return items[:1]  # 0.9543\ldots: the digits shown
    return items


_UNIT_MACROS = frozenset(["\\text", "\\mathrm", "\\textrm", "\\mbox", "\\textnormal",
                          "\\textup"])


def without_unit(items: Sequence[_Item]) -> Sequence[_Item]:
    """``items`` stripped, and without the unit written after a number (``1.4548 \\text{bits}``).

    Only a unit: text that holds no digit, right after a number. The number is then what the
    term is, so ``H = 1.4548 \\text{ bits}`` names it and ``0.5 + 0.25 = 0.75\\,\\mathrm{m}`` is
    arithmetic.
    """
    items = _strip(items)
    if (len(items) >= 3 and isinstance(items[-3], _Num) and _is(items[-2], _UNIT_MACROS)
            and isinstance(items[-1], _Group) and not any(
                isinstance(item, _Num) for item in _walk(items[-1].items))):
        return _strip(items[:-2])
    return items


@dataclass(frozen=True)
class _Literal:
    """A literal term: its cells row-major and its shape."""

    shape: tuple[int, ...]
    cells: tuple[_Num, ...]
    start: int


def _classify(term: Sequence[_Item]) -> str | _Literal | None:
    """A term as a name (its normal form), a literal, or None for an expression."""
    items = _unwrap(term)
    literal = _literal(items)
    if literal is not None:
        return literal
    name = _name(items)
    return name.render() if name is not None else None


# -- literals --


def _scalar(items: Sequence[_Item]) -> _Num | None:
    """The one number a term or cell holds (a leading ``+`` is allowed), if that is all."""
    items = _unwrap(items)
    if len(items) == 2 and _is(items[0], "+"):
        items = items[1:]
    if len(items) == 1 and isinstance(items[0], _Num) and items[0].own:
        return items[0]
    return None


def _literal(items: Sequence[_Item]) -> _Literal | None:
    number = _scalar(items)
    if number is not None:
        return _Literal((), (number,), number.start)
    if len(items) == 3 and _is(items[1], "^") and _is_transpose(items[2]):
        inner = _literal(items[:1])  # [0.9543 & 0.5130]^{\mathsf T}: the matrix transposed
        return _transpose(inner) if inner is not None and inner.shape else None
    if len(items) != 1:
        return None
    item = items[0]
    if isinstance(item, _Env) and item.name in _MATRIX_ENVIRONMENTS | _ARRAY_ENVIRONMENTS:
        return _matrix(item)
    if isinstance(item, _Delim):
        return _tuple(item)
    return None


def _tuple(delim: _Delim) -> _Literal | None:
    """A tuple ``( … )`` or ``[ … ]`` of numbers or of equal tuples, or a bracketed matrix."""
    if (delim.opener, delim.closer) not in (("(", ")"), ("[", "]")):
        return None
    items = _strip(delim.items)
    if len(items) == 1 and isinstance(items[0], _Env):
        return _literal(items)
    entries = [_entry(entry) for entry in _split(items, ",")]
    if not entries or any(entry is None for entry in entries):
        return None
    parts = [entry for entry in entries if entry is not None]
    if len({part.shape for part in parts}) != 1:
        return None
    if len(parts) == 1 and parts[0].shape == () and delim.opener == "(":
        return parts[0]
    cells = tuple(cell for part in parts for cell in part.cells)
    return _Literal((len(parts), *parts[0].shape), cells, delim.start)


def _is_transpose(item: _Item) -> bool:
    r"""``T``, ``\top``, ``\intercal``, ``{\mathsf T}``, ``{\mathrm{T}}``, …: a transpose mark."""
    marks = [piece for piece in _walk(_argument(item)) if isinstance(piece, _Tok)]
    return bool(marks) and _is(marks[-1], _TRANSPOSE_MARKS) and all(
        _is(mark, _WRAPPERS) for mark in marks[:-1])


def _transpose(literal: _Literal) -> _Literal:
    if len(literal.shape) != 2:
        return literal  # a tuple is a vector either way
    rows, columns = literal.shape
    cells = tuple(literal.cells[i * columns + j] for j in range(columns) for i in range(rows))
    return _Literal((columns, rows), cells, literal.start)


def _entry(items: Sequence[_Item]) -> _Literal | None:
    number = _scalar(items)
    if number is not None:
        return _Literal((), (number,), number.start)
    items = _strip(items)
    if len(items) == 1 and isinstance(items[0], _Delim):
        return _tuple(items[0])
    return None


def _split(items: Sequence[_Item], separator: frozenset[str] | str) -> list[list[_Item]]:
    parts: list[list[_Item]] = [[]]
    for item in items:
        if _is(item, separator):
            parts.append([])
        else:
            parts[-1].append(item)
    return parts


def _rows(env: _Env) -> list[list[list[_Item]]]:
    r"""A matrix's cells: rows at ``\\`` (a last empty row is dropped), cells at ``&``."""
    rows: list[list[list[_Item]]] = [[[]]]
    for item in env.items:
        if _is(item, "\\\\"):
            rows.append([[]])
        elif _is(item, "&"):
            rows[-1].append([])
        else:
            rows[-1][-1].append(item)
    if len(rows) > 1 and len(rows[-1]) == 1 and not _strip(rows[-1][0]):
        rows.pop()
    return rows


def _ragged(rows: list[list[list[_Item]]]) -> str | None:
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(rows[0]):
            return (f"matrix rows have different lengths: row 1 has {len(rows[0])} entries,"
                    f" row {number} has {len(row)}")
    return None


def _matrix(env: _Env) -> _Literal | None:
    rows = _rows(env)
    if _ragged(rows) is not None:
        return None
    cells = [_scalar(cell) for row in rows for cell in row]
    if not cells or any(cell is None for cell in cells):
        return None
    numbers = tuple(cell for cell in cells if cell is not None)
    return _Literal((len(rows), len(rows[0])), numbers, env.start)


# -- names --


@dataclass(frozen=True)
class _Name:
    """A name being read: its base letter or word, decorations and subscript."""

    base: str
    marks: tuple[str, ...] = ()
    subscript: str | None = None

    def render(self) -> str:
        """The normal form: ``base_mark…_subscript``."""
        subscript = (self.subscript,) if self.subscript else ()
        return "_".join((self.base, *self.marks, *subscript))


def _is_letter(item: _Item) -> bool:
    return isinstance(item, _Tok) and len(item.text) == 1 and item.text.isalpha()


def _name(items: Sequence[_Item]) -> _Name | None:
    """The name ``items`` spell, if they spell one."""
    if not items:
        return None
    head = _name_head(items)
    if head is None:
        return None
    name, used = head
    return _name_tail(name, items[used:])


def _name_head(items: Sequence[_Item]) -> tuple[_Name, int] | None:
    """The name at the start of ``items`` and how many items it took, before any subscript."""
    first = items[0]
    if isinstance(first, _Group):
        inner = _name(first.items)
        return (inner, 1) if inner is not None else None
    if not isinstance(first, _Tok):
        return None
    if _is_letter(first):
        return _Name(first.text), 1
    if first.text in _GREEK:
        return _Name(first.text[1:]), 1
    if len(items) < 2 or (first.text not in _WRAPPERS and first.text not in _DECORATIONS):
        return None
    argument = _argument(items[1])
    inner = (_word(argument) if first.text in _WORD_WRAPPERS else None) or _name(argument)
    if inner is None:
        return None
    if first.text in _DECORATIONS:
        inner = replace(inner, marks=(*inner.marks, _DECORATIONS[first.text]))
    return inner, 2


def _word(items: Sequence[_Item]) -> _Name | None:
    r"""A multi-letter word as one name (``loss``, ``W1``, ``lr\_max``), written without gaps."""
    pieces: list[str] = []
    for k, item in enumerate(items):
        if k and not _touches(items[k - 1], item):
            return None
        if _is_alnum(item) or (isinstance(item, _Num) and not item.decimal and k):
            pieces.append(_text(item))
        elif _is(item, "\\_"):
            pieces.append("_")
        else:
            return None
    if len(pieces) < 2 or not pieces[0].isalpha():
        return None
    return _Name("".join(pieces))


def _touches(before: _Item, item: _Item) -> bool:
    """Whether ``item`` follows ``before`` with no space between (macro bodies always do)."""
    if isinstance(item, _Tok | _Num) and not item.own:
        return True
    first, then = _span_of(before), _span_of(item)
    return first is not None and then is not None and first[1] == then[0]


def _is_alnum(item: _Item) -> bool:
    return isinstance(item, _Tok) and len(item.text) == 1 and item.text.isalnum()


def _text(item: _Item) -> str:
    return item.text if isinstance(item, _Tok | _Num) else ""


def _name_tail(name: _Name, rest: Sequence[_Item]) -> _Name | None:
    """``name`` with the subscript and primes that follow it; None if anything else does."""
    i = 0
    while i < len(rest):
        if _is(rest[i], "'"):
            name = replace(name, marks=(*name.marks, "prime"))
            i += 1
        elif _is(rest[i], "_") and name.subscript is None and i + 1 < len(rest):
            subscript = _subscript(rest[i + 1])
            if subscript is None:
                return None
            name = replace(name, subscript=subscript)
            i += 2
        else:
            return None
    return name


def _subscript(item: _Item) -> str | None:
    """A subscript as the name writes it: ``1``, ``k``, ``ij``, ``10,2``, ``max``."""
    if isinstance(item, _Num) and item.own and len(item.text) > 1:
        return None  # TeX subscripts only the first digit of a bare `_11`
    inner = _argument(item)
    named = _name(inner)
    if named is not None:
        return named.render()
    pieces: list[str] = []
    for piece in inner:
        if (isinstance(piece, _Num) and not piece.decimal) or _is_alnum(piece) \
                or _is(piece, _SUBSCRIPT_MARKS):
            pieces.append(_text(piece))
        elif (_is(piece, _GREEK) or _is(piece, _OPERATOR_NAMES)) and isinstance(piece, _Tok):
            pieces.append(piece.text[1:])  # \alpha, \max: alpha, max
        else:
            return None
    return "".join(pieces) or None


# -- analysis --------------------------------------------------------------------------------


@dataclass
class _Findings:
    """What the chains of a block name, and which numbers they claimed or exempted."""

    problems: list[SourceProblem]
    source: str = ""
    arithmetic: list[SourceProblem] = field(default_factory=list)
    named: list[NamedValue] = field(default_factory=list)
    cells: set[tuple[int, int]] = field(default_factory=set)
    dropped: set[tuple[int, int]] = field(default_factory=set)

    def block(self, items: Sequence[_Item]) -> None:
        """Read a block of equations, then the blocks nested in it (``aligned``, ``cases``)."""
        from .arithmetic import check_chain

        for equation in _equations(items):
            for k, part in enumerate(_split(equation, _CHAIN_ENDS)):  # 0 < \eta = 0.5528 < 1
                terms = _chain(part)
                named = self.chain(terms, unnamed=k == 0)
                for mismatch in check_chain(terms, _relations(part), self.source, named):
                    self.arithmetic.append(SourceProblem(mismatch.where, mismatch.message))
        for nested in _nested_blocks(items):
            self.block(nested)

    def chain(self, terms: list[list[_Item]], *, unnamed: bool = True) -> bool:
        """One named value per literal of a chain that has a name; whether it has one.

        A chain without a name still yields (if ``unnamed``) its literal tuples and matrices
        that hold a decimal, as values with no name: they must match a printed array as a whole.
        """
        kinds = [_classify(term) for term in terms]
        names = tuple(dict.fromkeys(kind for kind in kinds if isinstance(kind, str)))
        literals = [kind for kind in kinds if isinstance(kind, _Literal)]
        if not names and not unnamed:
            return False
        if not names:
            literals = [lit for lit in literals if len(lit.cells) > 1
                        and any(cell.decimal for cell in lit.cells)]
        if names and not literals:
            self._unknown_environments(terms, names)
        self._values(names, literals)
        return bool(names)

    def _values(self, names: tuple[str, ...], literals: list[_Literal]) -> None:
        for literal in literals:
            spans = {(cell.start, cell.end) for cell in literal.cells}
            if any(cell.exempt for cell in literal.cells):
                self.dropped |= spans
                continue
            cells = tuple(cell.prose() for cell in literal.cells)
            self.named.append(NamedValue(names, literal.shape, cells, literal.start))
            self.cells |= spans

    def _unknown_environments(self, terms: list[list[_Item]], names: tuple[str, ...]) -> None:
        for term in terms:
            items = _unwrap(term)
            if len(items) == 1 and isinstance(items[0], _Env):
                env = items[0]
                if env.name not in _KNOWN_ENVIRONMENTS:
                    self.problems.append(SourceProblem(
                        env.start, f"unknown environment `{env.name}`: the value of"
                                   f" {', '.join(names)} is not read from it; write it as a"
                                   " bmatrix, pmatrix or another matrix environment"))

    def extract(self, items: Sequence[_Item]) -> ProseExtract:
        """The block's extract: named values, then every other number as free or exempt."""
        result = ProseExtract(named=sorted(self.named, key=lambda value: value.start),
                              arithmetic=sorted(self.arithmetic, key=lambda p: p.where))
        seen: set[tuple[int, int]] = set()
        for item in _walk(items):
            if isinstance(item, _Env) and item.name in _MATRIX_ENVIRONMENTS:
                self._check_rows(item)
            if not isinstance(item, _Num) or not item.own:
                continue
            span = (item.start, item.end)
            if span in self.cells or span in seen:
                continue
            seen.add(span)
            if item.exempt and (item.decimal or span in self.dropped):
                result.exempt.append(item.prose())
            elif item.decimal and not item.exempt:
                result.free.append(item.prose())
        self.problems.extend(_bare_scripts(items))
        result.problems = sorted(self.problems, key=lambda problem: problem.where)
        return result

    def _check_rows(self, env: _Env) -> None:
        rows = _rows(env)
        message = _ragged(rows)
        if message is not None:
            row = next(row for row in rows if len(row) != len(rows[0]))
            spans = (_span_of(item) for cell in row for item in cell)
            where = next((span[0] for span in spans if span), env.start)
            self.problems.append(SourceProblem(where, message))


def _bare_scripts(items: Sequence[_Item]) -> Iterator[SourceProblem]:
    r"""``x_11``, ``x^12``: TeX scripts only the first digit, which an author rarely means."""
    for k, item in enumerate(items):
        if isinstance(item, _Container):
            yield from _bare_scripts(item.items)
            continue
        mark = items[k - 1] if k else None
        if (isinstance(item, _Num) and item.own and len(item.text) > 1
                and isinstance(mark, _Tok) and mark.text in _SCRIPTS):
            yield SourceProblem(item.start, f"`{mark.text}{item.text}` {_SCRIPTS[mark.text]}"
                                            f" only its first digit; write"
                                            f" `{mark.text}{{{item.text}}}`")


def _nested_blocks(items: Sequence[_Item]) -> Iterator[Sequence[_Item]]:
    r"""The bodies of layout environments (and of ``\boxed{…}``, and both parts of
    ``\underbrace{…}_{…}``) within a block, outermost first."""
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if isinstance(item, _Env) and item.name not in _MATRIX_ENVIRONMENTS:
            yield item.items
        elif _is(item, _BOXES) and i < len(items) and isinstance(items[i], _Group):
            yield _argument(items[i])  # \underbrace{0.5 + 0.25}_{w = 0.75}: both are read
            i += 1
            if (_is(item, _BRACES) and i + 1 < len(items) and _is(items[i], _SCRIPT_MARKS)
                    and isinstance(items[i + 1], _Group)):
                yield _argument(items[i + 1])
                i += 2
        elif isinstance(item, _Container):
            yield from _nested_blocks(item.items)


# -- entry point -----------------------------------------------------------------------------


def extract_math(latex: str, macros: Mapping[str, MacroDef] = _NO_MACROS) -> ProseExtract:
    r"""The named values, free digits, exempt numbers and problems of one math block.

    ``latex`` is the math as written between its delimiters (``$…$``, ``$$…$$``, a
    ``{math}`` directive, an amsmath environment); ``macros`` are the book's MathJax macros
    (``{"mat": (r"\mathbf{#1}", 1)}``). Every offset in the result is into ``latex``. The
    rules are in this module's docstring.

    A book repeats much of its inline math (``$\mat{A}$``, ``$\sqrt{d_k}$``) page after page,
    so results are remembered by block and macros. Each call gets lists of its own; the frozen
    numbers in them may be shared with another call's.
    """
    extract = _extract_remembered(latex, tuple(macros.items()))
    return ProseExtract(list(extract.named), list(extract.free), list(extract.exempt),
                        list(extract.problems), list(extract.arithmetic))


@lru_cache(maxsize=256)  # what recurs stays; a page's one-off blocks soon make room
def _extract_remembered(latex: str, macros: tuple[tuple[str, MacroDef], ...]) -> ProseExtract:
    return _extract(latex, dict(macros))


def _extract(latex: str, macros: Mapping[str, MacroDef]) -> ProseExtract:
    problems: list[SourceProblem] = []
    items = _Reader().read(parse(latex, problems))
    items = _Expander(macros, problems).expand(items)
    items = _Folder(latex).fold(_match_brackets(items, problems))
    findings = _Findings(problems, latex)
    findings.block(items)
    return findings.extract(items)
