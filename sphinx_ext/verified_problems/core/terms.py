r"""What a term is written as, read into the items the arithmetic's parser evaluates.

Before :mod:`.evaluation` parses a term, its written forms are gathered: a ``\\max`` or
``\\min`` of a list written out, a norm (``\\lVert \\vec{v} \\rVert``, ``\\lVert A
\\rVert_F``), the name of a printed array or of one the prose wrote out (``B\\vec{v}_1``),
matrices side by side (their product) and dot products (``\\vec{u} \\cdot \\vec{v}``). A term
that holds tuples or matrices of one size is then split into one term per entry. Nothing here
computes a value; the token helpers at the end are shared with the chains' checks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .latex.grammar import is_transpose, name_prefix, ragged, rows_of, without_unit
from .latex.tokens import Delim, Env, Group, Num, Tok, is_tok, walk
from .latex.vocabulary import EITHER_SIGN, MINUS, MINUS_PLUS, PLUS_MINUS, TIMES, VALUE_MATRICES

SKIPPED = frozenset(["\\,", "\\;", "\\:", "\\!", "\\ ", "~", "\\left", "\\right", "\\bigl",
                     "\\bigr", "\\Bigl", "\\Bigr", "\\big", "\\Big", "\\displaystyle",
                     "\\textstyle", "\\%"])
#: The largest and the smallest of a list written out: ``\\max(4.5,\\; 5)``.
_EXTREMES = frozenset(["\\max", "\\min"])
#: Upright forms of a letter (``\\mathrm{e}``, ``_{\\mathrm{F}}``).
UPRIGHT = frozenset(["\\mathrm", "\\operatorname", "\\textrm", "\\text", "\\mathit"])
#: ``a \\pm b`` is two values, ``a - b`` and ``a + b`` (in the order of an interval written
#: after it); ``\\mp`` the other way round.
_SIGN_CHOICES = {sign: "-+" for sign in PLUS_MINUS} | {sign: "+-" for sign in MINUS_PLUS}


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


def parts(items: list[Any], lookup: Lookup = NO_LOOKUP) -> list[list[Any]]:
    """What a term's entries are written as: itself, or, where it holds tuples or matrices of
    one size, one copy per entry with each of them replaced by that entry (``0.36\\,(-0.55,\\;
    0.55)``, ``\\frac13 \\begin{pmatrix}…``, ``(0.5, -0.5) - 0.5\\,(-0.1132, 0.2467)``)."""
    return _split(_prepared(items, lookup))


def _prepared(items: list[Any], lookup: Lookup, alone: bool = False) -> list[Any]:
    """``items`` with lists, norms, named arrays and products made items the parser reads;
    ``alone``: a name standing alone is an array too (in a norm's brackets)."""
    return _multiplied(_transposed_tuples(_named_arrays(_normed(_gathered(items), lookup),
                                                        lookup, alone)))


def _split(items: list[Any]) -> list[list[Any]]:
    found: dict[int, list[list[Any]] | None] = {}
    sizes = set(_entry_counts(items, found))
    if len(sizes) != 1:
        return [items]
    count = sizes.pop()
    return [_entry(items, k, found) for k in range(count)]


@dataclass(frozen=True)
class Extreme:
    """``\\max`` or ``\\min`` with the numbers listed in its brackets, as one item: those
    brackets are its arguments, not a tuple (``\\max(4.5,\\; 5)`` is one value)."""

    largest: bool
    arguments: tuple[tuple[Any, ...], ...]


def extreme_of(items: list[Any]) -> Extreme | None:
    """The one ``\\max`` or ``\\min`` of a list written out that ``items`` are, if they are."""
    gathered = _gathered(items)
    return gathered[0] if len(gathered) == 1 and isinstance(gathered[0], Extreme) else None


def _gathered(items: list[Any]) -> list[Any]:
    """``items`` with each ``\\max(…)`` and ``\\min(…)`` of two or more arguments made one
    :class:`Extreme`, inside brackets and matrices too (the items themselves where there is
    none)."""
    if not any(is_tok(item, _EXTREMES) for item in walk(items)):
        return items
    out: list[Any] = []
    changed = False
    for item in items:
        if out and is_tok(out[-1], _EXTREMES) and isinstance(item, Delim) \
                and item.opener in ("(", "[", "\\{"):
            parts = split_commas(item.items)
            if len(parts) > 1:
                out[-1] = Extreme(out[-1].text == "\\max",
                                  tuple(tuple(_gathered(list(part))) for part in parts))
                changed = True
                continue
        if isinstance(item, Group | Delim | Env):
            inside = list(item.items)
            inner = _gathered(inside)
            if inner is not inside:
                item = replace(item, items=tuple(inner))
                changed = True
        out.append(item)
    return out if changed else items


@dataclass(frozen=True)
class Norm:
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
    :class:`Norm`, inside brackets too; any other norm (``\\lVert A \\rVert_2`` of a
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
    end = closing(items, at + 1, "\\|") if is_tok(item, "\\|") else None
    return (list(items[at + 1:end]), end + 1) if end is not None else (None, at)


def closing(items: Sequence[Any], start: int, bar: str) -> int | None:
    """Where the next ``bar`` (``|``, ``\\|``) from ``start`` is: the one that closes a bar
    left unmatched by the brackets' pass."""
    return next((k for k in range(start, len(items)) if is_tok(items[k], bar)), None)


def _norm_kind(items: Sequence[Any], at: int) -> tuple[str | None, int]:
    """The kind a norm's subscript names (``""`` without one: the length), and where the
    norm ends."""
    if not is_tok(_item_at(items, at), "_"):
        return "", at
    script = _item_at(items, at + 1)
    inner = [i for i in walk(argument_items(script)) if isinstance(i, Tok | Num)
             and not is_tok(i, UPRIGHT)]
    written = inner[0].text if len(inner) == 1 else None
    return _NORM_KINDS.get(written or ""), at + 2


def _norm(inside: list[Any], kind: str | None, lookup: Lookup) -> Norm | None:
    """The norm of what ``inside`` holds, where its kind is one for that shape: a matrix's
    only with ``F``."""
    if kind is None:
        return None
    prepared = _prepared(inside, lookup, alone=True)
    if kind != "F" and any(_is_grid(item) for item in prepared):
        return None
    return Norm(tuple(tuple(entry) for entry in _split(prepared)), kind)


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
    a matrix (a column for a tuple): ``B\\vec{v}_1`` is a matrix times a column, ``\\vec{a}
    + \\vec{b}`` a sum of tuples, and with a transpose mark it is transposed
    (``\\mathbf{q}_1^\\top \\mathbf{q}_1`` is a row times a column). A name raised to any other
    power (``x^{(t)}``) is left, and so is a name alone, unless ``alone`` says it is one of a
    computation."""
    words = lookup.array_words
    if len(items) < (1 if alone else 2) or not any(_is_word(item, words) for item in walk(items)):
        return items
    out: list[Any] = []
    at = 0
    replaced = False
    while at < len(items):
        found = name_prefix(items[at:]) if _may_name(items[at:at + 2], words) else None
        array = lookup.array(found[0]) if found is not None else None
        end = at + found[1] if found is not None else at
        raised = is_tok(_item_at(items, end), "^")
        script = _item_at(items, end + 1) if raised else None
        transposed = script is not None and is_transpose(script)
        if found is None or array is None or (raised and not transposed):
            out.append(items[at])
            at += 1
            continue
        out.append(_array_item(*array, transposed=transposed))
        at = end + 2 if transposed else end
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


def _array_item(shape: tuple[int, ...], values: tuple[str, ...],
                transposed: bool = False) -> _Product:
    """A printed array as the cells of a matrix (a vector as a column), or of its transpose."""
    columns = shape[1] if len(shape) == 2 else 1
    cells = [(Num(text, -1, -1, "." in text),) for text in values]
    rows = [cells[r * columns:(r + 1) * columns] for r in range(len(values) // columns)]
    if transposed:
        rows = [list(column) for column in zip(*rows, strict=True)]
    return _Product(tuple(tuple(row) for row in rows))


def _transposed_tuples(items: list[Any]) -> list[Any]:
    """``items`` with each transposed tuple made the matrix it is: ``(1, 2)^{\\mathsf T}``
    is a row, since a tuple stands for a column; before a tuple of another length, which no
    row can multiply, it is the column of an outer product (``\\tfrac{1}{13}(14, 16,
    17)^{\\mathsf T}(2, 3)``, tuples written as rows)."""
    out: list[Any] = []
    at = 0
    while at < len(items):
        item, script = items[at], _item_at(items, at + 2)
        cells = _tuple_cells(item) if is_tok(_item_at(items, at + 1), "^") else None
        if cells is None or script is None or not is_transpose(script):
            out.append(item)
            at += 1
            continue
        after = _tuple_cells(_item_at(items, at + 3))
        if after is not None and len(after) != len(cells):  # a column, then the tuple a row
            out += [_Product(tuple((cell,) for cell in cells)), _Product((tuple(after),))]
            at += 4
        else:
            out.append(_Product((tuple(cells),)))
            at += 3
    return out


def _tuple_cells(item: Any) -> list[tuple[Any, ...]] | None:
    """A tuple's entries as cells, if ``item`` is a tuple."""
    rows = _rows(item, column=True) if isinstance(item, Delim) else None
    return [tuple(row[0]) for row in rows] if rows is not None else None


def _multiplied(items: list[Any]) -> list[Any]:
    """``items`` with each run of matrices side by side (``\\begin{pmatrix} 14 & -6 \\\\ -6 &
    3 \\end{pmatrix} \\begin{pmatrix} 8 \\\\ 19 \\end{pmatrix}``, or a matrix before a tuple, a
    column) replaced by their product, where their shapes allow one, and each dot product of two
    vectors of one length (``\\vec{u} \\cdot \\vec{v}``, ``(1, 2) \\cdot (3, 4)``) by its sum."""
    out: list[Any] = []
    at = 0
    while at < len(items):
        item = items[at]
        row = isinstance(item, _Product) and len(item.rows) == 1  # a tuple before it: a column
        left = _rows(out[-1], column=row) if out else None
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
    if isinstance(item, Env) and item.name in VALUE_MATRICES:
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


# -- token helpers ---------------------------------------------------------------------------


_TERM_ENDS = SKIPPED | frozenset([".", ",", ";", "\\quad", "\\qquad"])


#: What a ``+`` or ``-`` after it is a sign of, not the start of another summand.
_BEFORE_A_SIGN = TIMES | MINUS | EITHER_SIGN | frozenset(["/", "^", "_", "+", "="])


def summands(term: Sequence[Any]) -> list[list[Any]]:
    """A side's top-level summands, each with its sign (``2|…| - 1|…| + (-1)|…|``: three)."""
    found: list[list[Any]] = [[]]
    for item in (i for i in term_items(term) if not is_tok(i, SKIPPED)):
        if is_tok(item, MINUS | {"+"}) and found[-1] \
                and not is_tok(found[-1][-1], _BEFORE_A_SIGN):
            found.append([])
        found[-1].append(item)
    return found


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
    if items[0].name not in VALUE_MATRICES:
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
