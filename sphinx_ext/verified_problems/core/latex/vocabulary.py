"""The reader's vocabulary: which control sequences and characters are what.

Relations that chain and relations that end a chain, operators, separators, brackets and their
sizes, fonts and decorations that a name may wear, markup that is not math, and the
environments the reader knows. One place, so that every pass agrees on what ``\\approx`` or
``\\quad`` is.
"""

from __future__ import annotations

import re
from typing import TypeAlias

MacroDef: TypeAlias = tuple[str, int]
"""A MathJax macro of the book: its body (with ``#1``…``#9``) and its number of arguments."""

EXEMPT_MACRO = "unchecked"
r"""``\unchecked{…}``: the author exempts what it holds from checking (it renders unchanged)."""


# -- vocabulary ------------------------------------------------------------------------------



def _macro_names(names: str) -> frozenset[str]:
    """Control sequences from a list of names: ``"alpha beta"`` → ``{"\\alpha", "\\beta"}``."""
    return frozenset("\\" + name for name in names.split())


def _names(names: str) -> frozenset[str]:
    return frozenset(names.split())


def starred(names: str) -> frozenset[str]:
    """Environment names with their starred forms."""
    return frozenset(name + star for name in names.split() for star in ("", "*"))


GREEK = _macro_names(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa"
    " lambda mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega"
    " Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega ell"
)
WORD_WRAPPERS = _macro_names(
    "mathrm text operatorname mathit mathsf mathtt textrm textit textbf textsf texttt"
    " textnormal mbox"
)
WRAPPERS = WORD_WRAPPERS | _macro_names(
    "mathbf boldsymbol bm vec mathcal mathbb mathfrak mathscr symbf pmb"
)
#: Accents and decorations, with the mark a name takes from them (``\\check\\phi`` is
#: ``phi_check``): every accent MathJax knows, a wide form marking as its narrow one.
DECORATIONS = {
    "\\hat": "hat",
    "\\widehat": "hat",
    "\\bar": "bar",
    "\\overline": "bar",
    "\\tilde": "tilde",
    "\\widetilde": "tilde",
    "\\dot": "dot",
    "\\ddot": "ddot",
    "\\dddot": "dddot",
    "\\ddddot": "ddddot",
    "\\check": "check",
    "\\widecheck": "check",
    "\\breve": "breve",
    "\\acute": "acute",
    "\\grave": "grave",
    "\\mathring": "ring",
    "\\underline": "underline",
    "\\overrightarrow": "arrow",
    "\\overleftarrow": "leftarrow",
}
TEXT_MACROS = _names("text textrm textit textbf textsf texttt textnormal textup mbox hbox emph")
#: Words that join two equations when they stand in ``\\text{…}`` (``p_1 = 0.25 \\text{ and }
#: p_2 = 0.75``): the text then separates the equations as ``\\quad`` does. Only the first word
#: of the text counts (``\\text{for all } i``), and a text holding a digit is never one.
CONNECTIVES = _names(
    "and or nor for where whereas wherein if iff when whenever while with without then so hence"
    " thus therefore since because but otherwise else unless given as at by from to via using"
    " also which such that let we is are gives yields implies respectively provided on over all"
    " each every any i.e. e.g. ie eg s.t. st resp. cf. and/or vs. versus"
)
#: What may hold a connective word: the text macros, and ``\mathrm`` as some books write it.
CONNECTIVE_WRAPPERS = TEXT_MACROS | frozenset(["mathrm"])
#: Text in running words, as tokens: ``\text{…}`` and its kin, not the ``\mathrm`` of a
#: function name.
WORD_TEXTS = frozenset("\\" + name for name in TEXT_MACROS)
DROPPED = frozenset(
    [",", ";", ":", "!", " ", ">", "enspace", "thinspace", "medspace", "thickspace",
     "negthinspace", "negmedspace", "negthickspace", "nonumber", "notag", "displaystyle",
     "textstyle", "scriptstyle", "scriptscriptstyle", "hline", "limits", "nolimits",
     "strut", "mathstrut", "allowbreak", "hfill"]
)
#: Markup whose first ``{…}`` is not math: dropped with it (``\textcolor{red}{x}`` leaves
#: ``{x}``).
DROPPED_WITH_ARGUMENT = _names(
    "label tag hspace vspace phantom hphantom vphantom cline eqref ref color textcolor class"
    " cssId style href"
)

CHAIN_RELATIONS = frozenset(
    ["=", "\\approx", "≈", "\\simeq", "\\coloneqq", "\\eqqcolon", "\\equiv", "\\triangleq",
     "\\doteq", "\\gets", "\\leftarrow", "←"]
)
CHAIN_ENDS = frozenset(
    ["<", ">", "≤", "≥", "≠", "∈", "→", "\\in", "\\notin", "\\le", "\\leq", "\\ge", "\\geq",
     "\\lt", "\\gt", "\\leqslant", "\\geqslant", "\\ne", "\\neq", "\\to", "\\mapsto",
     "\\rightarrow", "\\Rightarrow", "\\longrightarrow", "\\implies", "\\iff", "\\sim",
     "\\propto", "\\subset", "\\subseteq", "\\ll", "\\gg", "\\Leftarrow", "\\longleftarrow",
     "\\Longleftarrow", "\\Longrightarrow", "\\leftrightarrow",
     "\\Leftrightarrow", "\\longmapsto", "\\cong", "⇐", "⇒", "↔"]
)
RELATIONS = CHAIN_RELATIONS | CHAIN_ENDS
_OPERATORS = frozenset(
    ["+", "-", "−", "*", "/", ":", "±", "×", "·", "\\times", "\\cdot", "\\pm", "\\mp",
     "\\div", "\\ast", "\\star", "\\circ", "\\odot", "\\otimes", "\\oplus", "\\setminus"]
)
_EQUATION_BREAKS = frozenset([",", ";", "\\quad", "\\qquad"])
LINE_BREAKS = frozenset(["&", "\\\\"])
SEPARATORS = _EQUATION_BREAKS | LINE_BREAKS
#: Operators that carry an expression over a line break.
CONTINUATIONS = frozenset(["+", "-", "−", "\\times", "\\cdot", "\\pm", "\\mp"])
OPENERS = frozenset(
    ["(", "[", "\\{", "\\lbrace", "\\lbrack", "\\langle", "\\lvert", "\\lVert", "\\lfloor",
     "\\lceil"]
)
CLOSERS = frozenset(
    [")", "]", "\\}", "\\rbrace", "\\rbrack", "\\rangle", "\\rvert", "\\rVert", "\\rfloor",
     "\\rceil"]
)
SIZED_LEFT = frozenset(["\\bigl", "\\Bigl", "\\biggl", "\\Biggl"])
SIZED_RIGHT = frozenset(["\\bigr", "\\Bigr", "\\biggr", "\\Biggr"])
SIZED = frozenset(["\\big", "\\Big", "\\bigg", "\\Bigg"])
#: Macros whose next character is a delimiter: after them ``.`` is the empty one, no decimal point.
DELIMITER_MACROS = SIZED_LEFT | SIZED_RIGHT | SIZED | frozenset(["\\left", "\\right"])
#: Functions written without parentheses: a minus right after one is its argument's sign.
_FUNCTIONS = frozenset(["\\ln", "\\log", "\\lg", "\\exp", "\\sin", "\\cos", "\\tan",
                        "\\tanh", "\\sinh", "\\cosh", "\\arctan"])
#: What may stand right before a minus that is a sign (besides nothing at all).
SIGN_CONTEXT = (
    RELATIONS | _OPERATORS | _EQUATION_BREAKS | OPENERS | SIZED_LEFT | _FUNCTIONS
    | frozenset(["&", "\\\\", "\\left"])
)
MINUS = frozenset(["-", "−"])
PLUS_MINUS = frozenset(["\\pm", "±"])
MINUS_PLUS = frozenset(["\\mp", "∓"])
#: Either: a margin after a name, two values in the arithmetic.
EITHER_SIGN = PLUS_MINUS | MINUS_PLUS
BRACES = frozenset(["\\underbrace", "\\overbrace"])
BOXES = BRACES | frozenset(["\\boxed"])
TRANSPOSE_MARKS = frozenset(["T", "\\top", "\\intercal", "⊤"])
ELLIPSES = frozenset(["\\ldots", "\\dots", "\\cdots", "…"])
#: Operator names a subscript may be (``\lambda_{\max}`` is ``lambda_max``).
OPERATOR_NAMES = frozenset(["\\max", "\\min", "\\sup", "\\inf", "\\arg", "\\det", "\\exp",
                             "\\log", "\\ln"])
#: Operators that name what they give of a named matrix: ``\\det \\mat{A}`` is ``det_A``.
#: Such a name is checked where the snippet printed it, and names nothing where it did not.
NAMING_OPERATORS = frozenset(["\\det"])
SCIENTIFIC_TIMES = frozenset(["\\times", "\\cdot"])
DIMENSION = re.compile(r"[-+]?[0-9.]*(?:pt|em|ex|mm|cm|in|mu|bp|pc|dd|cc|sp)")
SCRIPTS = {"_": "subscripts", "^": "raises"}
SCRIPT_MARKS = frozenset(SCRIPTS)
SUBSCRIPT_MARKS = frozenset([",", "+", "-"])
PUNCTUATION = frozenset([".", ",", ";", ":", "\\quad", "\\qquad"])

MATRIX_ENVIRONMENTS = starred("matrix bmatrix pmatrix Bmatrix vmatrix Vmatrix smallmatrix")
#: Matrices between bars: ``vmatrix`` is a determinant, ``Vmatrix`` a norm; a scalar either way.
BARRED_MATRICES = starred("vmatrix Vmatrix")
#: Matrices whose cells are the value itself.
VALUE_MATRICES = MATRIX_ENVIRONMENTS - BARRED_MATRICES
#: Bars around a matrix that mean its determinant (``Vmatrix``, a norm, is not evaluated).
DETERMINANTS = starred("vmatrix")
#: The signs of a product.
TIMES = frozenset(["\\times", "\\cdot", "*", "×", "·"])
ARRAY_ENVIRONMENTS = frozenset(["array"])
_LAYOUT_ENVIRONMENTS = starred(
    "align aligned alignat alignedat gather gathered split equation multline flalign eqnarray"
    " cases dcases rcases subarray"
)
KNOWN_ENVIRONMENTS = MATRIX_ENVIRONMENTS | ARRAY_ENVIRONMENTS | _LAYOUT_ENVIRONMENTS
#: Environments whose first ``{…}`` groups are arguments, not content.
ENVIRONMENT_ARGUMENTS = {"array": 1, "subarray": 1, "alignat": 1, "alignat*": 1,
                          "alignedat": 1}
#: Environments that take an optional ``[…]`` first: ``aligned[t]``, ``bmatrix*[r]``.
OPTIONAL_ARGUMENT = frozenset(name for name in MATRIX_ENVIRONMENTS if name.endswith("*")) \
    | _names("aligned gathered alignedat array subarray")
EXPANSION_BUDGET = 10_000
EXPANSION_DEPTH = 64
