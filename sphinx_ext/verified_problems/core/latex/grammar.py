r"""The grammar of a block: equations, chains of equalities, and terms (names, literals).

A block is split into **equations** at top-level ``\\``, ``&``, ``,``, ``;``,
``\quad`` and ``\qquad``, except where a run of these separators stands next to a relation
(``x &= 1`` is one equation, and a line that starts with ``&=`` goes on with the one before),
or a line break (``\\``, ``&``) next to ``+``, ``-``, ``\times``, ``\cdot``, ``\pm`` (a sum
carried over lines). Each equation is a **chain** of terms split at ``=``, ``\approx``, ``≈``,
``\simeq``, ``:=``, ``\coloneqq``, ``\equiv``, ``\triangleq``, ``\doteq`` and the assignments
``\gets``, ``\leftarrow``, ``←``; any other relation (``\in``,
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

Environments: matrices (``matrix``, ``bmatrix``, ``pmatrix``, ``Bmatrix``, ``vmatrix``,
``Vmatrix``, ``smallmatrix``, starred with an optional ``[r]``) are values.

Unknown macros are operators: their ``{…}`` groups are read like any group.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from .tokens import (
    Delim,
    Env,
    Group,
    Item,
    Num,
    Tok,
    argument_of,
    is_infinity,
    is_tok,
    span_of,
    text_of,
    walk,
)
from .vocabulary import (
    ARRAY_ENVIRONMENTS,
    CHAIN_ENDS,
    CHAIN_RELATIONS,
    CONTINUATIONS,
    DECORATIONS,
    ELLIPSES,
    GREEK,
    LINE_BREAKS,
    MATRIX_ENVIRONMENTS,
    NAMING_OPERATORS,
    OPERATOR_NAMES,
    PLUS_MINUS,
    PUNCTUATION,
    RELATIONS,
    SEPARATORS,
    SUBSCRIPT_MARKS,
    TRANSPOSE_MARKS,
    VALUE_MATRICES,
    WORD_TEXTS,
    WORD_WRAPPERS,
    WRAPPERS,
)

# -- the grammar: equations, chains, terms ---------------------------------------------------


def equations_of(items: Sequence[Item]) -> list[list[Item]]:
    """The equations of a block, split at its top-level separators.

    A run of separators next to a relation joins instead: ``x &= 1``, a line that starts with
    ``&=``, ``x = \\quad 1``; so does a line break or ``&`` next to a ``+`` (a sum that goes
    on over lines, ``\\ &\\quad + 0.4011``). Names and numbers listed in pairs,
    ``\\lambda_1, \\lambda_2 = 3.6180, 1.3820``, are an equation a pair.
    """
    items = _words_between(items)
    equations: list[list[Item]] = [[]]
    by_comma: list[bool] = []  # whether equations k and k + 1 were split by a lone comma
    i = 0
    while i < len(items):
        if not is_tok(items[i], SEPARATORS):
            equations[-1].append(items[i])
            i += 1
            continue
        run = i
        while i < len(items) and is_tok(items[i], SEPARATORS):
            i += 1
        breaks_line = any(is_tok(item, LINE_BREAKS) for item in items[run:i])
        joiners = RELATIONS | CONTINUATIONS if breaks_line else RELATIONS
        before = equations[-1][-1] if equations[-1] else None
        after = items[i] if i < len(items) else None
        if not any(item is not None and is_tok(item, joiners) for item in (before, after)):
            by_comma.append(i - run == 1 and is_tok(items[run], ","))
            equations.append([])
    return [equation for equation in _paired(equations, by_comma) if equation]


def _words_between(items: Sequence[Item]) -> Sequence[Item]:
    r"""``items`` with words in ``\text{…}`` that stand before a name made a separator.

    ``N = 10 \text{ firms, each with capacity } K = 40``: the words end one equation and the
    name starts the next, so ``N`` is not given ``K``'s value. Words at the end of a term
    are its unit (``1.4548 \text{ bits}``), and a name written as a word stays a name
    (``\text{loss} = 0.25``).
    """
    if not any(type(item) is Tok and item.text in WORD_TEXTS for item in items):
        return items
    out: list[Item] = []
    for k, item in enumerate(items):
        macro = out[-1] if out else None
        if (isinstance(item, Group) and isinstance(macro, Tok) and macro.text in WORD_TEXTS
                and _holds_words(item) and k + 1 < len(items)
                and _name_head(items[k + 1:]) is not None):
            out[-1] = Tok("\\quad", macro.start, item.end, own=macro.own)
        else:
            out.append(item)
    return out


def _holds_words(group: Group) -> bool:
    pieces = list(walk(group.items))
    return (not any(isinstance(piece, Num) for piece in pieces)
            and any(_is_letter(piece) for piece in pieces))


def _paired(equations: list[list[Item]], by_comma: list[bool]) -> list[list[Item]]:
    """Equations with each run ``N_1, …, N_k = V_1, …, V_k`` (lone commas) made k pairs."""
    result: list[list[Item]] = []
    j = 0
    while j < len(equations):
        names = 0
        while (j + names < len(equations) - 1 and by_comma[j + names]
               and _name(unwrap(equations[j + names])) is not None):
            names += 1
        if not names:
            result.append(equations[j])
            j += 1
            continue
        k = names + 1
        middle = equations[j + names]
        values = equations[j + k : j + 2 * k - 1]
        terms = chain_terms(middle)
        if (len(terms) == 2 and len(relations_of(middle)) == 1
                and _name(unwrap(terms[0])) is not None and _scalar(terms[1]) is not None
                and len(values) == k - 1 and all(by_comma[j + names : j + 2 * k - 2])
                and all(_scalar(value) is not None for value in values)):
            relation = next(item for item in middle if is_tok(item, CHAIN_RELATIONS))
            lefts = [*equations[j : j + names], terms[0]]
            rights = [terms[1], *values]
            result += [[*left, relation, *right] for left, right in zip(lefts, rights, strict=True)]
            j += 2 * k - 1
        else:
            result.append(equations[j])
            j += 1
    return result




def chain_terms(equation: Sequence[Item]) -> list[list[Item]]:
    """The terms of an equation's chain of equalities; what follows another relation is not."""
    terms: list[list[Item]] = [[]]
    for item in equation:
        if is_tok(item, CHAIN_RELATIONS):
            terms.append([])
        elif is_tok(item, CHAIN_ENDS):
            break
        else:
            terms[-1].append(item)
    return terms


def relations_of(equation: Sequence[Item]) -> list[str]:
    """The relations between the terms of :func:`chain_terms`, in order."""
    relations: list[str] = []
    for item in equation:
        if is_tok(item, CHAIN_ENDS):
            break
        if isinstance(item, Tok) and item.text in CHAIN_RELATIONS:
            relations.append(item.text)
    return relations


def _strip(items: Sequence[Item]) -> Sequence[Item]:
    """``items`` without the punctuation and spacing around it."""
    start, end = 0, len(items)
    while start < end and is_tok(items[start], PUNCTUATION):
        start += 1
    while end > start and is_tok(items[end - 1], PUNCTUATION):
        end -= 1
    return items[start:end]


def unwrap(items: Sequence[Item]) -> Sequence[Item]:
    """A lone ``{…}`` (or ``\\unchecked{…}``) stands for what it holds; a number and its unit,
    its margin (``0.5 \\pm 0.088``) or an ellipsis (``0.9543\\ldots``), for the number."""
    items = without_unit(items)
    while len(items) == 1 and isinstance(items[0], Group):
        items = without_unit(items[0].items)
    if len(items) >= 3 and isinstance(items[0], Num) and is_tok(items[1], PLUS_MINUS):
        return items[:1]
    if len(items) == 2 and isinstance(items[0], Num) and is_tok(items[1], ELLIPSES):
        return items[:1]  # 0.9543\ldots: the digits shown
    if len(items) >= 2 and isinstance(items[0], Num) and items[0].percent \
            and all(isinstance(item, Tok) for item in items[1:]):
        return items[:1]  # 82.47\,\%: the number, which knows it is a percentage
    return items


_UNIT_MACROS = frozenset(["\\text", "\\mathrm", "\\textrm", "\\mbox", "\\textnormal",
                          "\\textup"])


def without_unit(items: Sequence[Item]) -> Sequence[Item]:
    """``items`` stripped, and without the unit written after a number (``1.4548 \\text{bits}``).

    Only a unit: text that holds no digit, right after a number. The number is then what the
    term is, so ``H = 1.4548 \\text{ bits}`` names it and ``0.5 + 0.25 = 0.75\\,\\mathrm{m}`` is
    arithmetic.
    """
    items = _strip(items)
    return _strip(items[:-2]) if _ends_in_unit(items) else items


def unit_of(items: Sequence[Item]) -> str | None:
    """The unit written after a term's last number, as written (``bit`` in ``256\\,\\textrm{
    bit}``), if the term ends in one; the arithmetic compares no sides whose units differ."""
    items = _strip(items)
    while len(items) == 1 and isinstance(items[0], Group):
        items = _strip(items[0].items)
    unit = items[-1] if _ends_in_unit(items) else None
    if not isinstance(unit, Group):
        return None
    return "".join(text_of(item) for item in walk(unit.items))


def _ends_in_unit(items: Sequence[Item]) -> bool:
    return (len(items) >= 3 and isinstance(items[-3], Num) and is_tok(items[-2], _UNIT_MACROS)
            and isinstance(items[-1], Group) and not _digits_but_powers(items[-1].items))


def _digits_but_powers(items: Sequence[Item]) -> bool:
    """Whether ``items`` hold a number other than a power (``\\mathrm{m/s^2}`` holds none)."""
    for k, item in enumerate(items):
        if k and is_tok(items[k - 1], "^"):
            continue
        if isinstance(item, Num) or (isinstance(item, Group | Delim)
                                     and _digits_but_powers(item.items)):
            return True
    return False


@dataclass(frozen=True)
class Literal:
    """A literal term: its cells row-major and its shape."""

    shape: tuple[int, ...]
    cells: tuple[Num, ...]
    start: int


@dataclass(frozen=True)
class NameTuple:
    """A tuple of names, ``(y_1, y_2)``: each takes the matching entry of a tuple of values."""

    names: tuple[str, ...]


def classify(term: Sequence[Item]) -> str | Literal | NameTuple | None:
    """A term as a name (its normal form), a literal, a tuple of names, or None (an
    expression)."""
    items = unwrap(term)
    literal = _literal(items)
    if literal is not None:
        return literal
    name = _name(items)
    if name is not None:
        return name.render()
    return _name_tuple(items)


def _name_tuple(items: Sequence[Item]) -> NameTuple | None:
    r"""``(y_1, y_2)``, ``(\rho, \sigma_w, \sigma_v)``: two or more names in brackets, or a
    matrix of names (``\begin{pmatrix} x_1 \\ x_2 \end{pmatrix}``, row-major)."""
    if len(items) != 1:
        return None
    item = items[0]
    if isinstance(item, Env) and item.name in MATRIX_ENVIRONMENTS:
        entries = [cell for row in rows_of(item) for cell in row]
    elif isinstance(item, Delim) and item.opener in "([":
        entries = split_at(_strip(item.items), ",")
    else:
        return None
    names = [_name(unwrap(entry)) for entry in entries]
    if len(names) < 2 or any(name is None for name in names):
        return None
    return NameTuple(tuple(name.render() for name in names if name is not None))


def is_interval(term: Sequence[Item]) -> bool:
    r"""Whether a term is an interval of two numbers, ``[0,\, 0.045]`` or ``[-1.96, 1.96]``.

    Square brackets around two numbers, the first below the second: what follows "lies in" in
    a sentence. Its decimals are free digits, not an array the snippet must have printed.
    """
    items = unwrap(term)
    if len(items) != 1 or not isinstance(items[0], Delim) or items[0].opener != "[":
        return False
    ends = [_scalar(entry) for entry in split_at(_strip(items[0].items), ",")]
    if len(ends) != 2:
        return False
    low, high = ends
    return low is not None and high is not None and Decimal(low.text) < Decimal(high.text)


# -- literals --


def _scalar(items: Sequence[Item]) -> Num | None:
    """The one number a term or cell holds (a leading ``+`` is allowed), if that is all."""
    items = unwrap(items)
    if len(items) == 2 and is_tok(items[0], "+"):
        items = items[1:]
    if len(items) == 1 and isinstance(items[0], Num) and items[0].own:
        return items[0]
    return None


def _literal(items: Sequence[Item]) -> Literal | None:
    number = _scalar(items)
    if number is not None:
        return Literal((), (number,), number.start)
    if len(items) == 3 and is_tok(items[1], "^") and is_transpose(items[2]):
        inner = _literal(items[:1])  # [0.9543 & 0.5130]^{\mathsf T}: the matrix transposed
        return _transpose(inner) if inner is not None and inner.shape else None
    if len(items) != 1:
        return None
    item = items[0]
    if isinstance(item, Env) and item.name in VALUE_MATRICES | ARRAY_ENVIRONMENTS:
        return _matrix(item)  # a determinant's bars (vmatrix) hold no value of a name
    if isinstance(item, Delim):
        return _tuple(item)
    return None


def _tuple(delim: Delim) -> Literal | None:
    """A tuple ``( … )`` or ``[ … ]`` of numbers or of equal tuples, or a bracketed matrix."""
    if (delim.opener, delim.closer) not in (("(", ")"), ("[", "]")):
        return None
    items = _strip(delim.items)
    if len(items) == 1 and isinstance(items[0], Env):
        return _literal(items)
    entries = [_entry(entry) for entry in split_at(items, ",")]
    if not entries or any(entry is None for entry in entries):
        return None
    parts = [entry for entry in entries if entry is not None]
    if len({part.shape for part in parts}) != 1:
        return None
    if len(parts) == 1 and parts[0].shape == () and delim.opener == "(":
        return parts[0]
    cells = tuple(cell for part in parts for cell in part.cells)
    return Literal((len(parts), *parts[0].shape), cells, delim.start)


def is_transpose(item: Item) -> bool:
    r"""``T``, ``\top``, ``\intercal``, ``{\mathsf T}``, ``{\mathrm{T}}``, …: a transpose mark."""
    marks = [piece for piece in walk(argument_of(item)) if isinstance(piece, Tok)]
    return bool(marks) and is_tok(marks[-1], TRANSPOSE_MARKS) and all(
        is_tok(mark, WRAPPERS) for mark in marks[:-1])


def _transpose(literal: Literal) -> Literal:
    if len(literal.shape) != 2:
        return literal  # a tuple is a vector either way
    rows, columns = literal.shape
    cells = tuple(literal.cells[i * columns + j] for j in range(columns) for i in range(rows))
    return Literal((columns, rows), cells, literal.start)


def _entry(items: Sequence[Item]) -> Literal | None:
    number = _scalar(items)
    if number is not None:
        return Literal((), (number,), number.start)
    items = _strip(items)
    if len(items) == 1 and isinstance(items[0], Delim):
        return _tuple(items[0])
    return None


def split_at(items: Sequence[Item], separator: frozenset[str] | str) -> list[list[Item]]:
    parts: list[list[Item]] = [[]]
    for item in items:
        if is_tok(item, separator):
            parts.append([])
        else:
            parts[-1].append(item)
    return parts


def rows_of(env: Env) -> list[list[list[Item]]]:
    r"""A matrix's cells: rows at ``\\`` (a last empty row is dropped), cells at ``&``."""
    rows: list[list[list[Item]]] = [[[]]]
    for item in env.items:
        if is_tok(item, "\\\\"):
            rows.append([[]])
        elif is_tok(item, "&"):
            rows[-1].append([])
        else:
            rows[-1][-1].append(item)
    if len(rows) > 1 and len(rows[-1]) == 1 and not _strip(rows[-1][0]):
        rows.pop()
    return rows


def ragged(rows: list[list[list[Item]]]) -> str | None:
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(rows[0]):
            return (f"matrix rows have different lengths: row 1 has {len(rows[0])} entries,"
                    f" row {number} has {len(row)}")
    return None


def _matrix(env: Env) -> Literal | None:
    rows = rows_of(env)
    if ragged(rows) is not None:
        return None
    cells = [_scalar(cell) for row in rows for cell in row]
    if not cells or any(cell is None for cell in cells):
        return None
    numbers = tuple(cell for cell in cells if cell is not None)
    return Literal((len(rows), len(rows[0])), numbers, env.start)


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


def _is_letter(item: Item) -> bool:
    return isinstance(item, Tok) and len(item.text) == 1 and item.text.isalpha()


def _name(items: Sequence[Item]) -> _Name | None:
    """The name ``items`` spell, if they spell one."""
    if not items:
        return None
    head = _name_head(items)
    if head is None:
        return None
    name, used = head
    return _name_tail(name, items[used:])


def _name_head(items: Sequence[Item]) -> tuple[_Name, int] | None:
    """The name at the start of ``items`` and how many items it took, before any subscript."""
    first = items[0]
    if isinstance(first, Group):
        inner = _name(first.items)
        return (inner, 1) if inner is not None else None
    if isinstance(first, Delim) and first.opener in "([" and len(items) > 2 \
            and is_tok(items[1], "_"):  # [\mat{A}]_{12}, (\mat{A})_{12}: an element
        inner = _name(first.items)
        return (inner, 1) if inner is not None and inner.subscript is None else None
    if not isinstance(first, Tok):
        return None
    if first.text in NAMING_OPERATORS and len(items) > 1:
        return _operator_name(first.text[1:], items[1:])
    if _is_letter(first):
        return _Name(first.text), 1
    if first.text in GREEK:
        return _Name(first.text[1:]), 1
    if len(items) < 2 or (first.text not in WRAPPERS and first.text not in DECORATIONS):
        return None
    argument = argument_of(items[1])
    inner = (_word(argument) if first.text in WORD_WRAPPERS else None) or _name(argument)
    if inner is None:
        return None
    if first.text in DECORATIONS:
        inner = replace(inner, marks=(*inner.marks, DECORATIONS[first.text]))
    return inner, 2


def _operator_name(operator: str, rest: Sequence[Item]) -> tuple[_Name, int] | None:
    """``\\det \\mat{A}`` or ``\\det(\\mat{A})`` as the name ``det_A``, and the items it took."""
    if isinstance(rest[0], Delim) and rest[0].opener == "(":
        inner = _name(rest[0].items)
        if inner is None or (len(rest) > 1 and is_tok(rest[1], "_")):
            return None
        return _Name(f"{operator}_{inner.render()}"), 2
    head = _name_head(rest)
    if head is None:
        return None
    return _Name(f"{operator}_{head[0].render()}"), head[1] + 1


def _word(items: Sequence[Item]) -> _Name | None:
    r"""A multi-letter word as one name (``loss``, ``W1``, ``lr\_max``), written without gaps."""
    pieces: list[str] = []
    for k, item in enumerate(items):
        if k and not _touches(items[k - 1], item):
            return None
        if _is_alnum(item) or (isinstance(item, Num) and not item.decimal and k):
            pieces.append(text_of(item))
        elif is_tok(item, "\\_"):
            pieces.append("_")
        else:
            return None
    if len(pieces) < 2 or not pieces[0].isalpha():
        return None
    return _Name("".join(pieces))


def _touches(before: Item, item: Item) -> bool:
    """Whether ``item`` follows ``before`` with no space between (macro bodies always do)."""
    if isinstance(item, Tok | Num) and not item.own:
        return True
    first, then = span_of(before), span_of(item)
    return first is not None and then is not None and first[1] == then[0]


def _is_alnum(item: Item) -> bool:
    return isinstance(item, Tok) and len(item.text) == 1 and item.text.isalnum()




def is_operator_name(name: str) -> bool:
    """Whether a name is an operator's of a named matrix (``det_A``, from ``\\det\\mat{A}``):
    checked where the snippet printed it, and no name (as before) where it did not."""
    return any(name.startswith(f"{operator[1:]}_") for operator in NAMING_OPERATORS)


def name_prefix(items: Sequence[Item]) -> tuple[str, int] | None:
    """The name that ``items`` start with (its normal form) and how many items it takes, for
    an expression that uses it (``\\lambda_1 - 4``, ``2 \\hat{m}_2``)."""
    head = _name_head(items) if items else None
    if head is None:
        return None
    name, used = head
    while used < len(items):
        if is_tok(items[used], "'"):
            name = replace(name, marks=(*name.marks, "prime"))
            used += 1
            continue
        subscript = None
        if is_tok(items[used], "_") and name.subscript is None and used + 1 < len(items):
            subscript = _subscript(items[used + 1])
        if subscript is None:
            break
        name = replace(name, subscript=subscript)
        used += 2
    return name.render(), used


def _name_tail(name: _Name, rest: Sequence[Item]) -> _Name | None:
    """``name`` with the subscript and primes that follow it; None if anything else does."""
    i = 0
    while i < len(rest):
        if is_tok(rest[i], "'"):
            name = replace(name, marks=(*name.marks, "prime"))
            i += 1
        elif is_tok(rest[i], "_") and name.subscript is None and i + 1 < len(rest):
            subscript = _subscript(rest[i + 1])
            if subscript is None:
                return None
            name = replace(name, subscript=subscript)
            i += 2
        else:
            return None
    return name


def _subscript(item: Item) -> str | None:
    """A subscript as the name writes it: ``1``, ``k``, ``ij``, ``10,2``, ``max``."""
    if isinstance(item, Num) and item.own and len(item.text) > 1 and not is_infinity(item):
        return None  # TeX subscripts only the first digit of a bare `_11`
    inner = argument_of(item)
    named = _name(inner)
    if named is not None:
        return named.render()
    pieces: list[str] = []
    for piece in inner:
        if (isinstance(piece, Num) and not piece.decimal) or _is_alnum(piece) \
                or is_tok(piece, SUBSCRIPT_MARKS):
            pieces.append(text_of(piece))
        elif (is_tok(piece, GREEK) or is_tok(piece, OPERATOR_NAMES)) and isinstance(piece, Tok):
            pieces.append(piece.text[1:])  # \alpha, \max: alpha, max
        else:
            return None
    return "".join(pieces) or None
