"""Where a chain of arithmetic that does not hold is reported: at what differs, on its line.

A derivation written over several lines (a matrix row by row, a cofactor expansion summand by
summand) is wrong in one place, and the author should be sent to that line, not to where the
step starts. Of two steps that disagree, the one that is wrong (:mod:`.arithmetic` says which)
is reported at its factor that differs from the other step's (``\\frac{1}{10.26}`` against
``\\frac{1}{10.25}`` before the same matrix), else at each entry that differs (the changed
row, both rows of a swap), else at its summand that differs, else where it starts. A step that
holds with neither of its neighbours is reported inside it, where the two pairs place it.

Pure: what a part's value is, and whether two differ, is the caller's (``differs``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .latex.grammar import rows_of
from .latex.tokens import Delim, Env
from .terms import entries_of, matrix_cells, split_commas, summands, term_items
from .values import SourceProblem

#: Whether two parts of two steps (each a term's items) have different values; None where they
#: are not two comparable values.
Differs = Callable[[Sequence[Any], Sequence[Any]], bool | None]


def parts_that_differ(blamed: Sequence[Any], other: Sequence[Any], wrong: Sequence[int],
                      count: int, differs: Differs) -> list[tuple[int, int]]:
    """Where a wrong step is reported, each place with the entry it shows (of ``count``;
    ``wrong`` are those that differ): its factor, each entry, or its summand that differs
    from the other step's, or where it starts (nowhere, if nothing of it is in the source).

    Where both steps are the same scalar factors of a tuple or matrix, a factor that differs
    is what is wrong; if none does, each entry that differs is (two entries swapped make
    every entry differ). Otherwise entries are blamed only if not every entry differs (what
    they all share would be)."""
    factors = _same_factors(blamed, other)
    for a, b in factors or ():
        if differs([a], [b]):
            return _placed(wrong[0], start_of([a]))
    if count > 1 and (factors is not None or len(wrong) < count):
        starts = entry_starts(blamed, count)
        if all(starts[i] is not None for i in wrong):
            return [(i, start) for i in wrong if (start := starts[i]) is not None]
    return _placed(wrong[0], _summand_that_differs(blamed, other, differs) or start_of(blamed))


def _placed(entry: int, where: int | None) -> list[tuple[int, int]]:
    return [] if where is None else [(entry, where)]


def _same_factors(blamed: Sequence[Any], other: Sequence[Any]) -> list[tuple[Any, Any]] | None:
    """The scalar factors of two steps in their places, where both are as many factors and one
    tuple or matrix in the same place (``\\frac{1}{10.25}\\begin{bmatrix}…`` twice); else
    None."""
    mine, theirs = term_items(blamed), term_items(other)
    found: dict[int, list[list[Any]] | None] = {}
    if len(mine) < 2 or len(mine) != len(theirs):
        return None
    arrays = [(entries_of(a, found) is not None, entries_of(b, found) is not None)
              for a, b in zip(mine, theirs, strict=True)]
    if not any(x for x, _ in arrays) or any(x != y for x, y in arrays):
        return None
    return [(a, b) for (a, b), (x, _) in zip(zip(mine, theirs, strict=True), arrays, strict=True)
            if not x]


def _summand_that_differs(blamed: Sequence[Any], other: Sequence[Any],
                          differs: Differs) -> int | None:
    """The first summand that differs from the other side's in its place, where both are sums
    of as many (``2|…| - 1|…| + …`` against ``2(6 - 0) - 1(2 - 2) + …``)."""
    mine, theirs = summands(blamed), summands(other)
    if len(mine) < 2 or len(mine) != len(theirs):
        return None
    for a, b in zip(mine, theirs, strict=True):
        different = differs(a, b)
        if different is None:
            return None
        if different:
            return start_of(a)
    return None


def at_the_wrong_step(by_pair: dict[int, list[SourceProblem]],
                      terms: Sequence[Sequence[Any]]) -> list[SourceProblem]:
    """Each failing pair's problems; where a term fails with both its neighbours (pairs k - 1
    and k), their problems become those placed inside that term: past its start where some
    are (its rows that differ), else one where it starts."""
    placed: list[SourceProblem] = []
    blamed: set[int] = set()
    for k, problems in sorted(by_pair.items()):
        culprit = k + 1 if k + 1 in by_pair else k if k - 1 in by_pair else None
        if culprit is None:
            placed += problems
        elif culprit not in blamed:
            blamed.add(culprit)
            placed += _inside(terms[culprit], by_pair[culprit - 1] + by_pair[culprit])
    return placed


def _inside(term: Sequence[Any], problems: Sequence[SourceProblem]) -> list[SourceProblem]:
    spans = _spans(term)
    if not spans:
        return list(problems)
    start, end = spans[0][0], spans[-1][1]
    within: dict[int, SourceProblem] = {}
    for problem in problems:
        if start < problem.where < end:
            within.setdefault(problem.where, problem)
    return list(within.values()) or [SourceProblem(start, problems[0].message)]


def quoted_entries(term: Sequence[Any], source: str, count: int) -> list[tuple[str, int | None]]:
    """How each of a computed term's ``count`` entries is quoted, and where one that does not
    hold is reported (None: at the number it should equal).

    A matrix is quoted cell by cell, and a cell is reported where its computation stands.
    """
    items = term_items(term)
    cells = matrix_cells(items)
    if cells is not None and len(cells) == count:
        return [(text_of(cell, source), start_of(cell)) for cell in cells]
    if len(items) == 1 and isinstance(items[0], Delim) and items[0].opener == "(":
        parts = split_commas(items[0].items)
        if len(parts) == count > 1:
            return [(text_of(part, source), None) for part in parts]
    return [(text_of(term, source), None)] * count


def entry_starts(term: Sequence[Any], count: int) -> list[int | None]:
    """Where each of a computed term's entries starts: the parts of its one tuple or matrix,
    of that many entries (``(0.5, 0.25)``, or ``\\frac{1}{20}\\begin{bmatrix}…``: each entry is
    made from its cell), else the term (a product of matrices makes each entry of a row of
    one and a column of the other)."""
    found: dict[int, list[list[Any]] | None] = {}
    arrays = [cells for item in term_items(term) if (cells := entries_of(item, found)) is not None]
    if count > 1 and len(arrays) == 1 and len(arrays[0]) == count:
        return [start_of(entry) for entry in arrays[0]]
    return [start_of(term)] * count


def start_of(term: Sequence[Any]) -> int | None:
    """Where a term starts in the source (None: nothing of it comes from there)."""
    spans = _spans(term)
    return spans[0][0] if spans else None


def text_of(term: Sequence[Any], source: str) -> str:
    """A term as a message quotes it: its source, its spacing made single."""
    spans = _spans(term)
    if not spans:
        return "the left side"
    return " ".join(source[spans[0][0] : spans[-1][1]].split())


def _spans(term: Sequence[Any]) -> list[tuple[int, int]]:
    return [(item.start, item.end) for item in term_items(term)
            if isinstance(getattr(item, "start", None), int) and item.start >= 0]


def cell_orders(item: Any, count: int) -> list[list[int]]:
    """The orders in which a factor's ``count`` cells may be read as a printed array: as
    written and, for a matrix of two rows and columns or more, transposed (``\\mat{A}^{\\mathsf
    T}`` written out is the printed ``A`` read by columns)."""
    written = list(range(count))
    rows = rows_of(item) if isinstance(item, Env) else []
    columns = len(rows[0]) if rows else 0
    if len(rows) < 2 or columns < 2 or len(rows) * columns != count:
        return [written]
    return [written, [i * columns + j for j in range(columns) for i in range(len(rows))]]
