r"""The value of a term: exactly, from the digits as written or from what they stand for.

Sums, differences, products, quotients, ``\frac``, ``\sqrt``, ``e^{x}`` (upright too),
``\exp``, ``\log``/``\ln``/``\lg``/``\log_b`` (of a number, a bracket or a fraction), integer
powers, absolute values (``|x|``, ``\lvert x \rvert``, ``\left| x \right|``), percentages
(``82.47\%`` is 0.8247) and parentheses are evaluated, numbers in scientific notation
(``2.7536 \times 10^{-5}``) included, in a term of its own, a tuple ``( … )``, a matrix
(entry by entry) or a number times a matrix (``\frac{1}{3}\begin{pmatrix}…\end{pmatrix}``,
``-\begin{bmatrix}…\end{bmatrix}``). A name is a value only where the caller knows it (a
printed scalar or element: ``\lambda_1 - 4``, ``|\hat{m}_2|``); any other name or macro is no
arithmetic.

Arithmetic is exact where it can be: every written number is a rational number (``0.4011`` is
4011/10000), and sums, products, quotients and integer powers of rationals are computed as
:class:`fractions.Fraction`, so ``\frac13 - \frac14 = \frac1{12}`` holds exactly. A root, an
exponential or a logarithm is computed with :mod:`decimal` at 60 digits. A written number may
be given another value by the caller (:class:`Lookup`): the full-precision printed value it
stands for, so that the prose's arithmetic can follow the book's policy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Context, Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from .latex.grammar import name_prefix, ragged, rows_of, without_unit
from .latex.tokens import Delim, Env, Group, Num, Tok, is_tok, walk
from .latex.vocabulary import (
    EITHER_SIGN,
    MATRIX_ENVIRONMENTS,
    MINUS,
    MINUS_PLUS,
    PLUS_MINUS,
    starred,
)

_CONTEXT = Context(prec=60, Emax=10**6, Emin=-(10**6))
SKIPPED = frozenset(["\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\left", "\\right", "\\bigl",
                     "\\bigr", "\\Bigl", "\\Bigr", "\\big", "\\Big", "\\displaystyle",
                     "\\textstyle", "\\%"])
_TIMES = frozenset(["\\times", "\\cdot", "*", "×", "·"])
_FRACTIONS = frozenset(["\\frac", "\\tfrac", "\\dfrac", "\\cfrac"])
_LOGS = frozenset(["\\log", "\\ln", "\\lg"])
#: The base of each logarithm as written; ``\log`` without a subscript takes the book's.
_LOG_BASES = {"\\ln": None, "\\lg": 10}
#: The largest and the smallest of a list written out: ``\max(4.5,\; 5)``.
_EXTREMES = frozenset(["\\max", "\\min"])
#: Upright forms of Euler's number: ``\mathrm{e}^{x}`` is ``e^{x}``.
_UPRIGHT = frozenset(["\\mathrm", "\\operatorname", "\\textrm", "\\text", "\\mathit"])
#: Brackets whose content's absolute value they mean.
ABSOLUTE = frozenset(["|", "\\lvert", "\\vert"])
_LARGEST_EXPONENT = Decimal(10_000)
#: ``a \\pm b`` is two values, ``a - b`` and ``a + b`` (in the order of an interval written
#: after it); ``\\mp`` the other way round.
_SIGN_CHOICES = {sign: "-+" for sign in PLUS_MINUS} | {sign: "+-" for sign in MINUS_PLUS}
#: π to 60 digits, as every other irrational here is computed.
_PI = Fraction(Decimal("3.14159265358979323846264338327950288419716939937510582097494459"))
#: Matrices whose cells are values (``vmatrix`` is a determinant, ``Vmatrix`` a norm).
_MATRICES = MATRIX_ENVIRONMENTS - starred("vmatrix Vmatrix")
_ONE = Fraction(1)


class NotArithmetic(Exception):
    """The term is not plain arithmetic on known values."""


@dataclass(frozen=True)
class Value:
    """A computed value, and whether it is exact: integers and fractions of integers only."""

    value: Fraction
    exact: bool


@dataclass(frozen=True)
class Lookup:
    """What the caller knows beyond the digits: values for written numbers, keyed by where
    they start (``numbers``), and the values of names (``name``, None where unknown)."""

    numbers: Mapping[int, Fraction]
    name: Callable[[str], Fraction | None]
    #: A printed array's shape and values by the name the prose gives it (None: not one), and
    #: the words of those names (``v``, ``W``, ``Sigma``): a term with none of them in it
    #: names no array, and is not searched for names.
    array: Callable[[str], NamedArray | None] = lambda _name: None
    array_words: frozenset[str] = frozenset()


#: A printed array: its shape (one or two axes) and its values, row-major, as printed.
NamedArray = tuple[tuple[int, ...], tuple[str, ...]]
NO_LOOKUP = Lookup({}, lambda _name: None)


def evaluate_term(term: Sequence[Any], log_base: int | None = None,
                  lookup: Lookup = NO_LOOKUP,
                  seen: list[Fraction] | None = None) -> list[Value] | str | None:
    """A term's value(s): one for a scalar expression, one per entry for a tuple or matrix; what
    makes it undefined (``divides by zero``), if it is arithmetic without a value; None if it is
    no arithmetic. ``log_base`` is the base of a bare ``\\log`` (None: natural); ``seen``, if
    given, receives the value of every part of the term (what a next step may write rounded)."""
    undefined: list[str] = []
    found: list[Fraction] = [] if seen is None else seen
    try:
        values = [_Parser(part, undefined, log_base, lookup, found).whole()
                  for part in _parts(term_items(term), lookup)]
    except (NotArithmetic, InvalidOperation, ArithmeticError, RecursionError):
        return None
    return undefined[0] if undefined else values


def _parts(items: list[Any], lookup: Lookup = NO_LOOKUP) -> list[list[Any]]:
    """What a term's entries are written as: itself, or, where it holds tuples or matrices of
    one size, one copy per entry with each of them replaced by that entry (``0.36\\,(-0.55,\\;
    0.55)``, ``\\frac13 \\begin{pmatrix}…``, ``(0.5, -0.5) - 0.5\\,(-0.1132, 0.2467)``)."""
    return _split(_prepared(items, lookup))


def _prepared(items: list[Any], lookup: Lookup, alone: bool = False) -> list[Any]:
    """``items`` with lists, norms, named arrays and products made items the parser reads;
    ``alone``: a name standing alone is an array too (in a norm's brackets)."""
    return _multiplied(_named_arrays(_normed(_gathered(items), lookup), lookup, alone))


def _split(items: list[Any]) -> list[list[Any]]:
    found: dict[int, list[list[Any]] | None] = {}
    sizes = set(_entry_counts(items, found))
    if len(sizes) != 1:
        return [items]
    count = sizes.pop()
    return [_entry(items, k, found) for k in range(count)]


@dataclass(frozen=True)
class _Extreme:
    """``\\max`` or ``\\min`` with the numbers listed in its brackets, as one item: those
    brackets are its arguments, not a tuple (``\\max(4.5,\\; 5)`` is one value)."""

    largest: bool
    arguments: tuple[tuple[Any, ...], ...]
    start: int


def _gathered(items: list[Any]) -> list[Any]:
    """``items`` with each ``\\max(…)`` and ``\\min(…)`` of two or more arguments made one
    :class:`_Extreme`, inside brackets too (the items themselves where there is none)."""
    if not any(is_tok(item, _EXTREMES) for item in walk(items)):
        return items
    out: list[Any] = []
    changed = False
    for item in items:
        if out and is_tok(out[-1], _EXTREMES) and isinstance(item, Delim) \
                and item.opener in ("(", "[", "\\{"):
            parts = split_commas(item.items)
            if len(parts) > 1:
                out[-1] = _Extreme(out[-1].text == "\\max",
                                   tuple(tuple(_gathered(list(part))) for part in parts),
                                   out[-1].start)
                changed = True
                continue
        if isinstance(item, Group | Delim):
            inside = list(item.items)
            inner = _gathered(inside)
            if inner is not inside:
                item = replace(item, items=tuple(inner))
                changed = True
        out.append(item)
    return out if changed else items


@dataclass(frozen=True)
class _Norm:
    """``\\lVert x \\rVert``, ``\\|x\\|_2``, ``\\lVert A \\rVert_F`` as one item: the
    entries it is the norm of (each as items) and its kind: the root of the sum of squares
    (``F``, ``2`` or none written), the sum of magnitudes (``1``) or the largest (``inf``)."""

    entries: tuple[tuple[Any, ...], ...]
    kind: str


#: Brackets of a norm, as a :class:`Delim` opens them (``\lVert``, ``\left\|``).
_NORM_OPENERS = frozenset(["\\lVert", "\\|", "\\Vert"])
#: A norm's subscript as written, and the kind it names; a matrix has only ``F``.
_NORM_KINDS = {"F": "F", "2": "2", "1": "1", "\\infty": "inf", "inf": "inf", "∞": "inf"}


def _normed(items: list[Any], lookup: Lookup) -> list[Any]:
    """``items`` with each norm of a vector, of a scalar, or Frobenius norm of a matrix made one
    :class:`_Norm`, inside brackets too; any other norm (``\\lVert A \\rVert_2`` of a
    matrix: the largest singular value) is left, and is no arithmetic."""
    if not any(_opens_norm(item) for item in walk(items)):
        return items
    out: list[Any] = []
    at = 0
    while at < len(items):
        inside, after = _norm_bracket(items, at)
        kind, after = _norm_kind(items, after) if inside is not None else (None, after)
        norm = _norm(inside, kind, lookup) if inside is not None else None
        if norm is not None:
            out.append(norm)
            at = after
            continue
        item = items[at]
        if isinstance(item, Group | Delim):
            item = replace(item, items=tuple(_normed(list(item.items), lookup)))
        out.append(item)
        at += 1
    return out


def _opens_norm(item: Any) -> bool:
    return (isinstance(item, Delim) and item.opener in _NORM_OPENERS) or is_tok(item, "\\|")


def _norm_bracket(items: Sequence[Any], at: int) -> tuple[list[Any] | None, int]:
    """What the norm's brackets at ``at`` hold, and where they end (None: no norm there)."""
    item = items[at]
    if isinstance(item, Delim) and _opens_norm(item):
        return list(item.items), at + 1
    if is_tok(item, "\\|"):
        end = next((k for k in range(at + 1, len(items)) if is_tok(items[k], "\\|")), None)
        if end is not None:
            return list(items[at + 1:end]), end + 1
    return None, at


def _norm_kind(items: Sequence[Any], at: int) -> tuple[str | None, int]:
    """The kind a norm's subscript names (``2`` without one), and where the norm ends."""
    if not is_tok(_item_at(items, at), "_"):
        return "", at
    script = _item_at(items, at + 1)
    inner = [i for i in walk(argument_items(script)) if isinstance(i, Tok | Num)
             and not is_tok(i, _UPRIGHT)]
    written = inner[0].text if len(inner) == 1 else None
    return _NORM_KINDS.get(written or ""), at + 2


def _norm(inside: list[Any], kind: str | None, lookup: Lookup) -> _Norm | None:
    """The norm of what ``inside`` holds, where its kind is one for that shape: a matrix's
    only with ``F``."""
    if kind is None:
        return None
    prepared = _prepared(inside, lookup, alone=True)
    if kind != "F" and any(_is_grid(item) for item in prepared):
        return None
    return _Norm(tuple(tuple(entry) for entry in _split(prepared)), kind)


def _is_grid(item: Any) -> bool:
    """Whether an item is a matrix of more than one row and column."""
    rows = _rows(item, column=False)
    return rows is not None and len(rows) > 1 and len(rows[0]) > 1


@dataclass(frozen=True)
class _Product:
    """Matrices written side by side, multiplied: each cell a row of the left one times a
    column of the right one, as items the parser reads (``(a)(b) + (c)(d)``)."""

    rows: tuple[tuple[tuple[Any, ...], ...], ...]


def _named_arrays(items: list[Any], lookup: Lookup, alone: bool = False) -> list[Any]:
    """``items`` with each name of a printed array in a computation replaced by its values, as
    a matrix (a column for a tuple): ``B\\vec{v}_1`` is a matrix times a column, and ``\\vec{a}
    + \\vec{b}`` a sum of tuples. A name raised to a power (``\\vec{x}^{\\mathsf T}``) is left,
    and so is a name alone, unless ``alone`` says it is one of a computation."""
    words = lookup.array_words
    if len(items) < (1 if alone else 2) or not any(_is_word(item, words) for item in walk(items)):
        return items
    out: list[Any] = []
    at = 0
    replaced = False
    while at < len(items):
        found = name_prefix(items[at:]) if _may_name(items[at:at + 2], words) else None
        array = lookup.array(found[0]) if found is not None else None
        if found is None or array is None or is_tok(_item_at(items, at + found[1]), "^"):
            out.append(items[at])
            at += 1
            continue
        out.append(_array_item(*array))
        at += found[1]
        replaced = True
    return out if replaced else items


def uses_arrays(term: Sequence[Any], lookup: Lookup) -> bool:
    """Whether a term computes with a printed array by its name (``\\mat{A}\\mat{V}``)."""
    items = term_items(term)
    return _named_arrays(items, lookup) is not items


def _is_word(item: Any, words: frozenset[str]) -> bool:
    return isinstance(item, Tok) and item.text.lstrip("\\") in words


def _may_name(items: Sequence[Any], words: frozenset[str]) -> bool:
    """Whether a name of a printed array may start here: its word is in the next two items
    (``B``, ``\\vec{v}``, ``\\mat{W}``)."""
    return isinstance(items[0], Tok | Group) and any(_is_word(item, words)
                                                     for item in walk(items))


def _item_at(items: Sequence[Any], at: int) -> Any:
    return items[at] if at < len(items) else None


def _array_item(shape: tuple[int, ...], values: tuple[str, ...]) -> _Product:
    """A printed array as the cells of a matrix (a vector as a column)."""
    columns = shape[1] if len(shape) == 2 else 1
    cells = [(Num(text, -1, -1, "." in text),) for text in values]
    return _Product(tuple(tuple(cells[r * columns:(r + 1) * columns])
                          for r in range(len(values) // columns)))


def _multiplied(items: list[Any]) -> list[Any]:
    """``items`` with each run of matrices side by side (``\\begin{pmatrix} 14 & -6 \\\\ -6 &
    3 \\end{pmatrix} \\begin{pmatrix} 8 \\\\ 19 \\end{pmatrix}``, or a matrix before a tuple, a
    column) replaced by their product, where their shapes allow one, and each dot product of two
    vectors of one length (``\\vec{u} \\cdot \\vec{v}``, ``(1, 2) \\cdot (3, 4)``) by its sum."""
    out: list[Any] = []
    at = 0
    while at < len(items):
        item = items[at]
        left = _rows(out[-1], column=False) if out else None
        right = _rows(item, column=True) if left is not None else None
        if left is not None and right is not None and len(left[0]) == len(right):
            out[-1] = _Product(tuple(tuple(_dot(row, [r[j] for r in right])
                                           for j in range(len(right[0]))) for row in left))
        elif out and is_tok(item, "\\cdot") and (dot := _dot_product(out[-1],
                                                                     _item_at(items, at + 1))):
            out[-1] = dot
            at += 1
        else:
            out.append(item)
        at += 1
    return out


def _dot_product(first: Any, second: Any) -> Group | None:
    """``first \\cdot second`` as the sum of the products of their entries, if both are
    vectors (a tuple, a column or a row) of one length."""
    a, b = _vector(first), _vector(second)
    if a is None or b is None or len(a) != len(b):
        return None
    return Group(_dot(a, b), -1, -1)


def _vector(item: Any) -> list[Any] | None:
    """The entries of a vector: a tuple, or a matrix of one row or one column."""
    rows = _rows(item, column=True) if item is not None else None
    if rows is None or (len(rows) > 1 and len(rows[0]) > 1):
        return None
    cells = [cell for row in rows for cell in row]
    return cells if len(cells) > 1 else None


def _rows(item: Any, column: bool) -> list[list[Any]] | None:
    """A matrix's rows of cells (a product's too; with ``column``, a tuple as a column)."""
    if isinstance(item, _Product):
        return [list(row) for row in item.rows]
    if isinstance(item, Env) and item.name in _MATRICES:
        rows = rows_of(item)
        return None if ragged(rows) is not None else rows
    if column and isinstance(item, Delim) and item.opener == "(":
        parts = split_commas(item.items)
        return [[part] for part in parts] if len(parts) > 1 else None
    return None


def _dot(row: Sequence[Any], column: Sequence[Any]) -> tuple[Any, ...]:
    """``(a_1)(b_1) + (a_2)(b_2) + …``: a row times a column, as items."""
    items: list[Any] = []
    for k, (a, b) in enumerate(zip(row, column, strict=True)):
        if k:
            items.append(Tok("+", -1, -1))
        items += [Group(tuple(a), -1, -1), Group(tuple(b), -1, -1)]
    return tuple(items)


def entries_of(item: Any, found: dict[int, list[list[Any]] | None]) -> list[list[Any]] | None:
    """A tuple's parts or a matrix's cells, if ``item`` is one (read once a term: ``found``
    keeps what was read)."""
    key = id(item)
    if isinstance(item, _Product):
        return [list(cell) for row in item.rows for cell in row]
    if key not in found:
        cells = matrix_cells([item]) if isinstance(item, Env) else None
        if cells is not None:
            found[key] = [term_items(cell) for cell in cells]
        elif isinstance(item, Delim) and item.opener == "(":
            parts = split_commas(item.items)
            found[key] = parts if len(parts) > 1 else None
        else:
            found[key] = None
    return found[key]


def _entry_counts(items: Sequence[Any], found: dict[int, list[list[Any]] | None]) -> list[int]:
    counts: list[int] = []
    for item in items:
        entries = entries_of(item, found)
        if entries is not None:
            counts.append(len(entries))
        elif is_tok(item, EITHER_SIGN):
            counts.append(2)  # 3 \pm 2.7951: two values, the lower first (as an interval)
        elif isinstance(item, Group | Delim):
            counts += _entry_counts(item.items, found)
    return counts


def _entry(items: Sequence[Any], k: int,
           found: dict[int, list[list[Any]] | None]) -> list[Any]:
    """``items`` with every tuple or matrix in them replaced by its ``k``-th entry."""
    out: list[Any] = []
    for item in items:
        entries = entries_of(item, found)
        if entries is not None:
            out.append(Group(tuple(entries[k]), -1, -1))
        elif is_tok(item, EITHER_SIGN):
            out.append(Tok(_SIGN_CHOICES[item.text][k], item.start, item.end, item.own))
        elif isinstance(item, Group):
            out.append(Group(tuple(_entry(item.items, k, found)), item.start, item.end))
        elif isinstance(item, Delim):
            out.append(Delim(item.opener, item.closer, tuple(_entry(item.items, k, found)),
                             item.start, item.end))
        else:
            out.append(item)
    return out


class _Parser:
    """Recursive descent over tokens: sums of products of (signed) powers of atoms.

    A step without a value (a division by zero, the logarithm of a number that is not
    positive, the square root of a negative one) is noted in ``undefined``, shared with the
    parsers of the sub-expressions, and stands in as 1 so that the rest is still read: the
    term is undefined only if all of it is arithmetic.
    """

    def __init__(self, items: Sequence[Any], undefined: list[str], log_base: int | None,
                 lookup: Lookup, seen: list[Fraction]) -> None:
        self.items = [i for i in items if not is_tok(i, SKIPPED)]
        self.at = 0
        self.undefined = undefined
        self.log_base = log_base
        self.lookup = lookup
        self.seen = seen

    def _sub(self, items: Sequence[Any]) -> Value:
        return _Parser(items, self.undefined, self.log_base, self.lookup, self.seen).whole()

    def _saw(self, value: Value) -> Value:
        self.seen.append(value.value)
        return value

    def _without_value(self, reason: str) -> Value:
        self.undefined.append(reason)
        return Value(_ONE, True)

    def _divide(self, a: Value, b: Value) -> Value:
        if b.value == 0:
            return self._without_value("divides by zero")
        return Value(a.value / b.value, a.exact and b.exact)

    def whole(self) -> Value:
        if not self.items:
            raise NotArithmetic
        value = self.sum()
        if self.at != len(self.items):
            raise NotArithmetic
        return self._saw(value)

    def peek(self) -> Any:
        return self.items[self.at] if self.at < len(self.items) else None

    def take(self) -> Any:
        item = self.peek()
        if item is None:
            raise NotArithmetic
        self.at += 1
        return item

    def sum(self) -> Value:
        value = self.product()
        while is_tok(self.peek(), MINUS | frozenset(["+"])):
            operator = self.take().text
            right = self.product()
            value = self._saw(_add(value, right if operator == "+" else _neg(right)))
        return value

    def product(self) -> Value:
        start = self.at
        value = self.signed()
        if self.at == start + 1 and is_tok(self.peek(), _FRACTIONS):
            value = self._mixed(self.items[start], value)
        while True:
            item = self.peek()
            if is_tok(item, _TIMES):
                self.take()
                value = self._times(value, self.signed)
            elif is_tok(item, frozenset(["/"])):
                self.take()
                value = self._divide(value, self.signed())
            elif item is not None and self._starts_atom(item):
                value = self._times(value, self.power)  # 0.4011(1), 2\sqrt{2}, 2\lambda
            else:
                return self._saw(value)

    def _times(self, value: Value, factor: Callable[[], Value]) -> Value:
        """``value`` times the next factor; an exact zero times the logarithm of zero is zero,
        the convention ``0 \\log 0 = 0`` of entropies (the limit of x log x)."""
        before = len(self.undefined)
        zero_log = value.exact and value.value == 0 and is_tok(self.peek(), _LOGS)
        result = _mul(value, factor())
        if zero_log and len(self.undefined) == before + 1 and "logarithm" in self.undefined[-1]:
            del self.undefined[before:]
            return value
        return result

    def _mixed(self, whole: Any, value: Value) -> Value:
        """``3\\tfrac{3}{4}`` is a mixed number, 3¾: a whole number written before a fraction
        of whole numbers below one is added to it, as a reader reads it."""
        if not (is_number(whole) and whole.text.isdigit()):
            return value
        at = self.at
        fraction = self.atom()
        if fraction.exact and 0 < fraction.value < 1:
            return _add(value, fraction)
        self.at = at  # a product after all: read again by the loop
        return value

    def signed(self) -> Value:
        if is_tok(self.peek(), MINUS):
            self.take()
            return self._saw(_neg(self.signed()))
        if is_tok(self.peek(), frozenset(["+"])):
            self.take()
        return self.power()

    def power(self) -> Value:
        euler = self._euler()
        if euler and is_tok(self._after(euler - 1), frozenset(["^"])):
            self.at += euler + 1
            return _function(_exp, self._sub(argument_items(self.take())))
        item = self.peek()
        base = self.atom()
        if is_tok(self.peek(), frozenset(["^"])):
            self.take()
            script = argument_items(self.take())
            if len(script) == 1 and isinstance(script[0], Delim) and script[0].opener == "(":
                raise NotArithmetic  # \mu_1^{(0)}, x^{(t)}: an index, not a power
            exponent = self._sub(script)
            if is_number(item) and item.text[0] in MINUS:  # -0.5^2 is -(0.5^2), as in TeX
                return _neg(_power(_neg(base), exponent))
            return _power(base, exponent)
        return base

    def _euler(self) -> int:
        """How many items spell Euler's number here: ``e`` is one, ``\\mathrm{e}`` two."""
        item = self.peek()
        if is_tok(item, frozenset(["e"])):
            return 1
        if is_tok(item, _UPRIGHT):
            after = self._after(0)
            if is_tok(after, frozenset(["e"])) or (
                    isinstance(after, Group) and len(after.items) == 1
                    and is_tok(after.items[0], frozenset(["e"]))):
                return 2
        return 0

    def _after(self, skip: int) -> Any:
        """The item ``skip + 1`` places after the next one."""
        at = self.at + skip + 1
        return self.items[at] if at < len(self.items) else None

    def atom(self) -> Value:
        return self._saw(self._atom())

    def _atom(self) -> Value:
        item = self.take()
        if is_number(item):
            return self._number(item)
        if isinstance(item, Group):
            return self._sub(item.items)
        if isinstance(item, Delim) and item.opener in ("(", "["):
            return self._sub(item.items)
        if isinstance(item, Delim) and item.opener in ABSOLUTE:
            return _absolute(self._sub(item.items))
        if is_tok(item, "|"):
            return _absolute(self._sub(self._until_bar()))
        if is_tok(item, _FRACTIONS):
            numerator, denominator = self._two_arguments()
            return self._divide(numerator, denominator)
        if is_tok(item, frozenset(["\\sqrt"])):
            argument = self._argument_value()
            if argument.value < 0:
                return self._without_value("takes the square root of a negative number")
            return _function(_sqrt, argument, exact_squares=True)
        if is_tok(item, frozenset(["\\exp"])):
            return _function(_exp, self._argument_value())
        if isinstance(item, _Norm):
            return self._norm(item)
        if isinstance(item, _Extreme):
            values = [self._sub(list(argument)) for argument in item.arguments]
            return (max if item.largest else min)(values, key=lambda v: v.value)
        if is_tok(item, _LOGS):
            base = self._log_base(item.text)
            argument = self._argument_value()
            if argument.value <= 0:
                return self._without_value("takes the logarithm of a number that is not positive")
            return _logarithm(argument, base)
        self.at -= 1
        return self._name()

    def _number(self, item: Num) -> Value:
        known = self.lookup.numbers.get(item.start)
        if known is not None:
            return Value(known, False)
        return number_value(item)

    def _name(self) -> Value:
        """A name the caller knows the value of (``\\lambda_1``, ``\\hat{m}_2``, ``A_{12}``)."""
        found = name_prefix(self.items[self.at:])
        if found is None:
            raise NotArithmetic
        name, used = found
        value = self.lookup.name(name)
        if value is None and name == "e":  # Euler's number, unless the snippet printed an e
            value = Fraction(_exp(Decimal(1)))
        if value is None and used == 1 and is_tok(self.peek(), frozenset(["\\pi"])):
            value = _PI  # a bare \pi, unless printed: \vec{\pi} is a distribution's name
        if value is None:
            raise NotArithmetic
        self.at += used
        return Value(value, False)

    def _norm(self, norm: _Norm) -> Value:
        values = [self._sub(list(entry)) for entry in norm.entries]
        exact = all(value.exact for value in values)
        magnitudes = [abs(value.value) for value in values]
        if norm.kind == "1":
            return Value(sum(magnitudes, Fraction(0)), exact)
        if norm.kind == "inf":
            return Value(max(magnitudes), exact)
        squares = sum((m * m for m in magnitudes), Fraction(0))
        return _function(_sqrt, Value(squares, exact), exact_squares=True)

    def _until_bar(self) -> list[Any]:
        """The items up to the ``|`` that closes the one just taken."""
        end = next((k for k in range(self.at, len(self.items)) if is_tok(self.items[k], "|")),
                   None)
        if end is None:
            raise NotArithmetic
        inside, self.at = self.items[self.at:end], end + 1
        return inside

    def _log_base(self, written: str) -> int | None:
        """The base of the logarithm just read: a subscript (``\\log_2``), the name's own
        (``\\ln``, ``\\lg``), or the book's for a bare ``\\log``."""
        if written == "\\log" and is_tok(self.peek(), frozenset(["_"])):
            self.take()
            base = self._sub(argument_items(self.take())).value
            if base.denominator != 1 or base < 2:
                raise NotArithmetic
            return int(base)
        return _LOG_BASES.get(written, self.log_base)

    def _argument_value(self) -> Value:
        """A function's argument: a number, a group, a bracket, a fraction (``\\ln\\frac ab``)
        or a root."""
        item = self.peek()
        if is_tok(item, _FRACTIONS | frozenset(["\\sqrt"])):
            return self.atom()
        item = self.take()
        if is_number(item) or isinstance(item, Group | Delim):
            return self._sub(argument_items(item))
        raise NotArithmetic

    def _two_arguments(self) -> tuple[Value, Value]:
        first = self.take()
        if is_number(first) and len(first.text) == 2 and first.text.isdigit():
            return _integer(first.text[0]), _integer(first.text[1])  # \tfrac13
        second = self.take()
        return self._sub(argument_items(first)), self._sub(argument_items(second))

    def _starts_atom(self, item: Any) -> bool:
        return (is_number(item) or isinstance(item, Group)
                or (isinstance(item, Delim) and item.opener in ("(", "[", *ABSOLUTE))
                or is_tok(item, _FRACTIONS | frozenset(["\\sqrt", "\\exp", "e"]) | _LOGS
                          | _UPRIGHT) or isinstance(item, _Extreme | _Norm)
                or (name_prefix(self.items[self.at:]) is not None
                    and not is_tok(item, MINUS | frozenset(["+", "|", "^", "_"]))))


# -- values ---------------------------------------------------------------------------------


def number_value(item: Num) -> Value:
    """A written number's value as written: ``82.47\\%`` is 0.8247; an integer is exact."""
    text = item.text
    if not any(c.isdigit() for c in text) or "inf" in text:
        raise NotArithmetic
    written = Decimal(text)
    if abs(written.adjusted()) > _LARGEST_EXPONENT:
        raise NotArithmetic
    value = Fraction(written) / (100 if item.percent else 1)
    return Value(value, not ("." in text or "e" in text.lower()))


def _integer(text: str) -> Value:
    return Value(Fraction(int(text)), True)


def places_shown(written: Decimal) -> int:
    """The decimal places a written number shows: ``2.7536e-5`` shows nine (0.000027536)."""
    exponent = written.as_tuple().exponent
    return max(-exponent, 0) if isinstance(exponent, int) else 0  # ``inf`` shows none


def _add(a: Value, b: Value) -> Value:
    return Value(a.value + b.value, a.exact and b.exact)


def _neg(a: Value) -> Value:
    return Value(-a.value, a.exact)


def _mul(a: Value, b: Value) -> Value:
    return Value(a.value * b.value, a.exact and b.exact)


def _absolute(a: Value) -> Value:
    return Value(abs(a.value), a.exact)


def _power(base: Value, exponent: Value) -> Value:
    n = exponent.value
    if not exponent.exact or n.denominator != 1 or not -12 <= n <= 12:
        raise NotArithmetic
    if n < 0 and base.value == 0:
        raise NotArithmetic
    return Value(base.value ** int(n), base.exact)


def as_decimal(value: Fraction) -> Decimal:
    """A rational as a 60-digit decimal (exact when it has 60 digits or fewer)."""
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def rounded_text(value: Fraction, places: int) -> str:
    """A rational rounded half to even to ``places`` decimals, written with all of them
    (``0.2500``): how a computed value is shown against digits at the policy's places."""
    return f"{as_decimal(round(value, places)).quantize(Decimal(1).scaleb(-places)):f}"


def _exp(x: Decimal) -> Decimal:
    if abs(x) > _LARGEST_EXPONENT:
        raise NotArithmetic
    return x.exp(_CONTEXT)


def _sqrt(x: Decimal) -> Decimal:
    return x.sqrt(_CONTEXT)


def _log(x: Decimal) -> Decimal:
    return x.ln(_CONTEXT)


def _function(function: Callable[[Decimal], Decimal], a: Value, *,
              exact_squares: bool = False) -> Value:
    """A function of a value at 60 digits; exact only for the root of an exact square."""
    result = Fraction(function(as_decimal(a.value)))
    exact = exact_squares and a.exact and result * result == a.value
    return Value(result, exact)


def _logarithm(a: Value, base: int | None) -> Value:
    natural = _function(_log, a)
    if base is None:
        return natural
    return Value(natural.value / Fraction(_log(Decimal(base))), False)


# -- token helpers ---------------------------------------------------------------------------


_TERM_ENDS = SKIPPED | frozenset([".", ",", ";", "\\quad", "\\qquad"])


def term_items(term: Sequence[Any]) -> list[Any]:
    """A term's items as the arithmetic reads them: no spacing, punctuation, braces around all
    of it, or unit after its number."""
    items = list(without_unit([i for i in term if not is_tok(i, _TERM_ENDS)]))
    while len(items) == 1 and isinstance(items[0], Group):
        items = list(without_unit([i for i in items[0].items if not is_tok(i, SKIPPED)]))
    return items


def matrix_cells(items: Sequence[Any]) -> list[list[Any]] | None:
    """The cells, row by row, of a term that is one matrix of values; None for anything else."""
    if len(items) != 1 or not isinstance(items[0], Env):
        return None
    if items[0].name not in _MATRICES:
        return None
    rows = rows_of(items[0])
    return None if ragged(rows) is not None else [cell for row in rows for cell in row]


def argument_items(item: Any) -> list[Any]:
    """What an argument holds: a group's or a bracket's content, or the one item."""
    if isinstance(item, Group | Delim):
        return list(item.items)
    return [item]


def split_commas(items: Sequence[Any]) -> list[list[Any]]:
    """A tuple's parts, without the spacing between them."""
    parts: list[list[Any]] = [[]]
    for item in items:
        if is_tok(item, frozenset([","])):
            parts.append([])
        elif not is_tok(item, SKIPPED):
            parts[-1].append(item)
    return parts


def is_number(item: Any) -> bool:
    """Whether ``item`` is a number the author wrote and did not exempt."""
    return isinstance(item, Num) and item.own and not item.exempt

