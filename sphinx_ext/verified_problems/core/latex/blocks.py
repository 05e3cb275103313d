r"""What a math block holds: its named values, free digits, exempt numbers and equations.

The last step of the reader (:mod:`.grammar` reads a chain; this module reads a block). A chain
with at least one name and one literal gives one :class:`~..values.NamedValue` per literal,
with all the names of the chain, in order, each once; its ``start`` is where the literal
starts. Every other decimal of the block (a number with a decimal point, or in scientific
form; integers never) is a free digit, wherever it stands: expressions, exponents,
subscripts, fractions, roots, ``\text``, the arguments of any macro. Numbers inside
``\unchecked`` are exempt: listed in ``exempt`` (decimals, and integers that would have been
cells), neither free nor cells. A named value with any exempt cell is dropped, and its other
decimals are free.

Layout environments, ``array``, unknown environments and the argument of ``\boxed`` (both
parts of ``\underbrace{…}_{…}``) are read as blocks of their own wherever they stand: no
digit goes unread.

Every chain is also kept as an :class:`Equation`, for the prose's arithmetic to check
(:mod:`..arithmetic`); the reader itself computes nothing.

Malformed input gives a :class:`~..values.SourceProblem`, never an exception: a matrix whose
rows have different lengths (no named value; its decimals are free), a bare ``_11`` or
``^12``, and an unknown environment where a named value was expected (the other problems
come from the passes before).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from ..values import NamedValue, ProseExtract, ProseNumber, SourceProblem
from .brackets import Folder, match_brackets
from .grammar import (
    Literal,
    NameTuple,
    chain_terms,
    classify,
    equations_of,
    is_interval,
    ragged,
    relations_of,
    rows_of,
    split_at,
    unwrap,
)
from .tokenizer import Expander, Reader
from .tokens import (
    Container,
    Env,
    Group,
    Item,
    Num,
    Tok,
    argument_of,
    is_infinity,
    is_tok,
    span_of,
    walk,
)
from .tree import parse
from .vocabulary import (
    BOXES,
    BRACES,
    CHAIN_ENDS,
    KNOWN_ENVIRONMENTS,
    MATRIX_ENVIRONMENTS,
    SCRIPT_MARKS,
    SCRIPTS,
    MacroDef,
)


@dataclass(frozen=True)
class Equation:
    """One chain of a block, as the prose's arithmetic needs it.

    ``terms`` are the chain's sides (token lists), ``relations`` the ``=``, ``\\approx``, …
    between them, and ``named`` whether the chain gives a quantity a name (its value is then
    checked against the snippet, so the arithmetic only has to hold within rounding).
    """

    terms: tuple[tuple[Item, ...], ...]
    relations: tuple[str, ...]
    named: bool


@dataclass
class LatexReading:
    """One math block read: the numbers it holds, and its chains for the arithmetic."""

    extract: ProseExtract
    equations: list[Equation]


@dataclass
class _Findings:
    """What the chains of a block name, and which numbers they claimed or exempted."""

    problems: list[SourceProblem]
    equations: list[Equation] = field(default_factory=list)
    named: list[NamedValue] = field(default_factory=list)
    cells: set[tuple[int, int]] = field(default_factory=set)
    dropped: set[tuple[int, int]] = field(default_factory=set)

    def block(self, items: Sequence[Item]) -> None:
        """Read a block of equations, then the blocks nested in it (``aligned``, ``cases``)."""
        for equation in equations_of(items):
            for k, part in enumerate(split_at(equation, CHAIN_ENDS)):  # 0 < \eta = 0.5528 < 1
                terms = chain_terms(part)
                named = self.chain(terms, unnamed=k == 0)
                self.equations.append(Equation(tuple(tuple(term) for term in terms),
                                               tuple(relations_of(part)), named))
        for nested in _nested_blocks(items):
            self.block(nested)

    def chain(self, terms: list[list[Item]], *, unnamed: bool = True) -> bool:
        """One named value per literal of a chain that has a name; whether it has one.

        A chain without a name still yields (if ``unnamed``) its literal tuples and matrices
        that hold a decimal, as values with no name: they must match a printed array as a whole.
        So does a tuple or matrix of integers equated with an expression (``\\mat{X}^{\\mathsf
        T}\\mat{X} = \\begin{bmatrix} 4 & 6 \\\\ 6 & 14 \\end{bmatrix}``): its integers are
        checked where they quote printed numbers.
        """
        kinds = [classify(term) for term in terms]
        names = tuple(dict.fromkeys(kind for kind in kinds if isinstance(kind, str)))
        tuples = [kind for kind in kinds if isinstance(kind, NameTuple)]
        literals = [kind for kind in kinds if isinstance(kind, Literal)]
        if not (names or tuples) and not unnamed:
            return False
        if not (names or tuples):
            equated = len(kinds) > 1 and None in kinds  # X^T X = [[4, 6], [6, 14]]
            literals = [lit for lit, term in zip(kinds, terms, strict=True)
                        if isinstance(lit, Literal) and len(lit.cells) > 1
                        and (equated or any(cell.decimal for cell in lit.cells))
                        and not is_interval(term)]
        if names and not literals:
            self._unknown_environments(terms, names)
        self._values(names, literals, tuples)
        return bool(names or tuples)

    def _values(self, names: tuple[str, ...], literals: list[Literal],
                tuples: list[NameTuple]) -> None:
        for literal in literals:
            spans = {(cell.start, cell.end) for cell in literal.cells}
            if any(cell.exempt for cell in literal.cells):
                self.dropped |= spans
                continue
            cells = tuple(cell.prose() for cell in literal.cells)
            values = [NamedValue(names, literal.shape, cells, literal.start)] \
                if names or not tuples else []
            for named in tuples:
                values += _elementwise(named, literal.shape, cells)
            if values:  # else its decimals stay free digits
                self.named += values
                self.cells |= spans

    def _unknown_environments(self, terms: list[list[Item]], names: tuple[str, ...]) -> None:
        for term in terms:
            items = unwrap(term)
            if len(items) == 1 and isinstance(items[0], Env):
                env = items[0]
                if env.name not in KNOWN_ENVIRONMENTS:
                    self.problems.append(SourceProblem(
                        env.start, f"unknown environment `{env.name}`: the value of"
                                   f" {', '.join(names)} is not read from it; write it as a"
                                   " bmatrix, pmatrix or another matrix environment"))

    def extract(self, items: Sequence[Item]) -> ProseExtract:
        """The block's extract: named values, then every other number as free or exempt."""
        result = ProseExtract(named=sorted(self.named, key=lambda value: value.start))
        seen: set[tuple[int, int]] = set()
        for item in walk(items):
            if isinstance(item, Env) and item.name in MATRIX_ENVIRONMENTS:
                self._check_rows(item)
            if not isinstance(item, Num) or not item.own:
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

    def _check_rows(self, env: Env) -> None:
        rows = rows_of(env)
        message = ragged(rows)
        if message is not None:
            row = next(row for row in rows if len(row) != len(rows[0]))
            spans = (span_of(item) for cell in row for item in cell)
            where = next((span[0] for span in spans if span), env.start)
            self.problems.append(SourceProblem(where, message))


def _elementwise(names: NameTuple, shape: tuple[int, ...],
                 cells: tuple[ProseNumber, ...]) -> list[NamedValue]:
    """``(y_1, y_2) = (0.625, 0.4375)``: each name, the matching entry or row (none if the
    values have another length: the names then name nothing)."""
    if len(cells) == len(names.names) and len(cells) > 1:
        return [NamedValue((name,), (), (cell,), cell.start)
                for name, cell in zip(names.names, cells, strict=True)]
    if not shape or shape[0] != len(names.names):
        return []
    size = len(cells) // shape[0]
    return [NamedValue((name,), shape[1:], cells[k * size:(k + 1) * size], cells[k * size].start)
            for k, name in enumerate(names.names)]


def _bare_scripts(items: Sequence[Item]) -> Iterator[SourceProblem]:
    r"""``x_11``, ``x^12``: TeX scripts only the first digit, which an author rarely means.

    A macro is one token, so ``\sum_{t=0}^\infty`` scripts all of ``\infty``: no problem.
    The message offers both readings, one of them what the author's LaTeX renders.
    """
    for k, item in enumerate(items):
        if isinstance(item, Container):
            yield from _bare_scripts(item.items)
            continue
        mark = items[k - 1] if k else None
        if (isinstance(item, Num) and item.own and len(item.text) > 1
                and isinstance(mark, Tok) and mark.text in SCRIPTS and not is_infinity(item)):
            script, first, rest = mark.text, item.text[0], item.text[1:]
            yield SourceProblem(item.start, f"`{script}{item.text}` {SCRIPTS[script]} only its"
                                            f" first digit, as TeX reads it (it renders as"
                                            f" `{script}{{{first}}}{rest}`); write"
                                            f" `{script}{{{item.text}}}` to {SCRIPTS[script][:-1]}"
                                            f" all of it, or `{script}{{{first}}}{rest}` if"
                                            " that is what you mean")


def _nested_blocks(items: Sequence[Item]) -> Iterator[Sequence[Item]]:
    r"""The bodies of layout environments (and of ``\boxed{…}``, and both parts of
    ``\underbrace{…}_{…}``) within a block, outermost first."""
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if isinstance(item, Env) and item.name not in MATRIX_ENVIRONMENTS:
            yield item.items
        elif is_tok(item, BOXES) and i < len(items) and isinstance(items[i], Group):
            yield argument_of(items[i])  # \underbrace{0.5 + 0.25}_{w = 0.75}: both are read
            i += 1
            if (is_tok(item, BRACES) and i + 1 < len(items) and is_tok(items[i], SCRIPT_MARKS)
                    and isinstance(items[i + 1], Group)):
                yield argument_of(items[i + 1])
                i += 2
        elif isinstance(item, Container):
            yield from _nested_blocks(item.items)


# -- entry point -----------------------------------------------------------------------------


def read_latex(latex: str, macros: Mapping[str, MacroDef]) -> LatexReading:
    r"""The named values, free digits, exempt numbers, problems and equations of a math block.

    ``latex`` is the math as written between its delimiters; ``macros`` are the book's MathJax
    macros (``{"mat": (r"\mathbf{#1}", 1)}``). Every offset in the result is into ``latex``.
    """
    problems: list[SourceProblem] = []
    items = Reader().read(parse(latex, problems))
    items = Expander(macros, problems).expand(items)
    items = Folder(latex).fold(match_brackets(items, problems))
    findings = _Findings(problems)
    findings.block(items)
    return LatexReading(findings.extract(items), findings.equations)
