"""What one snippet printed, as the prose may ask for it: by name, by value, and by whom.

A prose name is resolved to a printed quantity or to an element of one (:func:`resolve`); a
written number to the printed values it may stand for at full precision (:meth:`Printed.full`)
and, when it is wrong, to the printed quantity nearest to it, named (``-0.5800 (x_2)``). The
snippet's own source literals (its given data, ``P = np.array([[0.9, 0.1], …])``) are a pool
of their own.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cached_property, lru_cache

from .digits import Policy, PrintedPool, Status, compare, to_decimal
from .values import Entry, Transcript

_ELEMENT = re.compile(r"(?P<base>.+?)_(?P<index>\d+(?:,\d+)*)")

#: The words of a printed name (``W1``, ``v_1``: ``W``, ``v``), as the prose may spell it.
_WORDS = re.compile(r"[A-Za-z]+")

#: The words by which a printed name says that its value is a percentage itself
#: (``drop_pct``, ``errorPercent``), and not the fraction a percentage stands for.
_PERCENT_WORDS = frozenset({"pct", "perc", "percent", "percentage", "percents"})
_NAME_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")


def percentage_itself(label: str | None, value: str) -> bool:
    """Whether a printed value may be a percentage itself, which the prose quotes by its
    digits (``41.67 %`` of a printed ``41.666…``) rather than by its hundredth.

    It may if it is 1 or more (as a fraction, 100 % or more), or if its name says so
    (``removed_pct``). A printed ``removed = 0.8383`` is the fraction that ``83.83 %`` stands
    for: a ``0.84 %`` of it is wrong, not a second reading.
    """
    number = to_decimal(value)
    if number.is_finite() and abs(number) >= 1:
        return True
    words = _NAME_WORDS.findall(label or "")
    return any(word.lower() in _PERCENT_WORDS for word in words)


def _finite(entry: Entry) -> list[Decimal]:
    """An entry's values as decimals, or none if one of them is no finite number."""
    values = [to_decimal(text) for text in entry.values]
    return values if all(value.is_finite() for value in values) else []


def index_label(index: tuple[int, ...] | None) -> str:
    """How an entry's 1-based index is shown everywhere: ``[1,2]``, nothing for a scalar."""
    return f"[{','.join(str(i) for i in index)}]" if index else ""


def element_of(name: str) -> tuple[str, str] | None:
    """A name's base and index digits if it reads as an element (``O_11``: ``O``, ``11``)."""
    match = _ELEMENT.fullmatch(name)
    return None if match is None else (match["base"], match["index"])


def listed(name: str) -> list[str] | None:
    """The names a name lists by its indices (``lambda_1,2``: ``lambda_1``, ``lambda_2``), or
    None if it lists none."""
    element = element_of(name)
    if element is None or "," not in element[1]:
        return None
    return [f"{element[0]}_{index}" for index in element[1].split(",")]


def resolve(name: str, entries: dict[str, Entry]) -> tuple[Entry, tuple[int, ...] | None] | None:
    """The printed quantity a prose name refers to: itself, or an element of a printed array.

    ``O_11`` is the quantity ``O_11`` if the snippet printed one; otherwise element (1, 1) of a
    printed 2-D ``O`` (one digit per axis, or comma-separated indices ``O_10,2``). One index
    into a printed column or row (shape (n, 1) or (1, n), as numpy prints a column vector) is
    its element: ``w_2`` is ``w[2, 1]``. Without that, ``w_2`` named nothing and its value was
    left to match any printed number.
    """
    spelled = next((s for s in python_spellings(name) if s in entries), None)
    if spelled is not None:
        return entries[spelled], None
    element = element_of(name)
    base = None if element is None else next(
        (s for s in python_spellings(element[0]) if s in entries), None)
    if element is None or base is None:
        return None
    entry = entries[base]
    raw = element[1]
    if "," in raw:
        index = tuple(int(part) for part in raw.split(","))
    elif len(entry.shape) == len(raw):
        index = tuple(int(digit) for digit in raw)
    elif len(entry.shape) == 1:
        index = (int(raw),)
    elif len(entry.shape) == 2 and 1 in entry.shape:
        index = (int(raw), 1) if entry.shape[1] == 1 else (1, int(raw))
    else:
        return None
    return entry, index


#: How a snippet spells a letter whose name is a Python keyword (``lambda``).
_KEYWORD_SPELLINGS = {"lambda": ("lam", "lmbda", "lambd", "lamda", "lambda_")}


def python_spellings(name: str) -> tuple[str, ...]:
    """A prose name, and how Python code spells it where the name is a keyword (``\\lambda``
    is ``lam``, ``lmbda``…, and ``\\lambda_1`` is ``lam_1``)."""
    for keyword, spellings in _KEYWORD_SPELLINGS.items():
        if name == keyword or name.startswith(keyword + "_"):
            rest = name[len(keyword):]
            return (name, *(spelled + rest for spelled in spellings))
    return (name,)


def flat_index(index: tuple[int, ...], shape: tuple[int, ...]) -> int | None:
    """Where a 1-based index stands in the row-major values; None outside the shape."""
    if len(index) != len(shape) or any(not 1 <= i <= n for i, n in zip(index, shape, strict=True)):
        return None
    flat = 0
    for i, n in zip(index, shape, strict=True):
        flat = flat * n + (i - 1)
    return flat


def indices(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every 1-based index of an array of ``shape``, row-major."""
    if not shape:
        return [()]
    return [(first, *rest) for first in range(1, shape[0] + 1) for rest in indices(shape[1:])]


class Printed:
    """A transcript (and the snippet's source literals) ready for the prose's questions."""

    def __init__(self, transcript: Transcript, policy: Policy, given: Sequence[str] = (),
                 given_names: Mapping[str, str] | None = None,
                 given_values: Mapping[str, Entry] | None = None) -> None:
        self.transcript = transcript
        self.policy = policy
        self.pool = PrintedPool(transcript.numbers)
        self.given = PrintedPool(given)
        self.given_names = dict(given_names or {})
        #: The numbers and arrays the source writes out by name (:func:`source_values`): a
        #: prose name the snippet did not print may mean one, or one of an array's elements.
        self.given_values = dict(given_values or {})
        self._labels: dict[Decimal, str] = {}
        for entry in transcript.entries.values():
            for index, text in zip(indices(entry.shape), entry.values, strict=False):
                value = to_decimal(text)
                if value.is_finite():
                    self._labels.setdefault(value, entry.name + index_label(index))
        #: The printed numbers that may be percentages themselves (:func:`percentage_itself`),
        #: with those printed before a percent sign: what a percentage's digits may quote.
        self.faces = PrintedPool(self._faces())

    def _faces(self) -> list[str]:
        named = [text for entry in self.transcript.entries.values() for text in entry.values
                 if percentage_itself(entry.name, text)]
        unnamed = [text for _line, text in self.transcript.unnamed
                   if percentage_itself(None, text)]
        return named + unnamed + list(self.transcript.percentages)

    def scalar(self, name: str) -> Fraction | None:
        """The full value of a prose name that means one number, if it was printed, or if the
        source gives it (a name it assigns a number, an element of an array it writes out)."""
        resolved = resolve(name, self.transcript.entries)
        if resolved is None and name in self.given_names:
            return Fraction(to_decimal(self.given_names[name]))
        resolved = resolved or resolve(name, self.given_values)
        if resolved is None:
            return None
        entry, index = resolved
        if index is None:
            flat = 0 if entry.shape == () else None
        else:
            flat = flat_index(index, entry.shape)
        if flat is None:
            return None
        value = to_decimal(entry.values[flat])
        return Fraction(value) if value.is_finite() else None

    def values(self, name: str) -> tuple[tuple[str, Fraction], ...] | None:
        """Every full printed value of a prose name with its label, row-major: a scalar's one
        (or an element's), an array's all (``P[1,2]``); None if the name was not printed or a
        value is no number."""
        entry = self._whole(name)
        if entry is None:
            scalar = self.scalar(name)
            return self._listed(name) if scalar is None else ((name, scalar),)
        decimals = _finite(entry)
        if not decimals:
            return None
        return tuple((entry.name + index_label(index), Fraction(value))
                     for index, value in zip(indices(entry.shape), decimals, strict=False))

    def _listed(self, name: str) -> tuple[tuple[str, Fraction], ...] | None:
        """The printed scalars a name lists by their indices (``\\lambda_{1,2}``: ``lam_1``
        and ``lam_2``), where its base is no printed array; None otherwise."""
        names, element = listed(name), element_of(name)
        entries = self.transcript.entries
        if names is None or element is None or resolve(element[0], entries) is not None:
            return None
        found = []
        for one in names:
            resolved, value = resolve(one, entries), self.scalar(one)
            if resolved is None or resolved[1] is not None or value is None:
                return None
            found.append((resolved[0].name, value))
        return tuple(found)

    def array(self, name: str) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
        """The shape and the values of a printed array a prose name means as a whole (``B``,
        ``\\vec{v}_1``), for arithmetic that uses it; None for a scalar or an element."""
        entry = self._whole(name)
        if entry is None or len(entry.shape) not in (1, 2) or len(_finite(entry)) < 2:
            return None
        return entry.shape, entry.values

    def _whole(self, name: str) -> Entry | None:
        """The printed quantity a prose name means as a whole (not one of its elements)."""
        resolved = resolve(name, self.transcript.entries)
        return resolved[0] if resolved is not None and resolved[1] is None else None

    @cached_property
    def array_words(self) -> frozenset[str]:
        """The words of the names of printed arrays (``W1`` and ``v_1``: ``W``, ``v``)."""
        return name_words(entry.name for entry in self.transcript.entries.values()
                          if len(entry.shape) in (1, 2))

    def arrays_of(self, size: int, ndim: int
                  ) -> Iterator[tuple[Entry, list[tuple[int, ...]], tuple[str, ...]]]:
        """Printed arrays of ``size`` entries, with each entry's index: whole arrays first,
        then (for a 1-D tuple) the rows and columns of printed matrices."""
        entries = list(self.transcript.entries.values())
        for entry in entries:
            if len(entry.values) == size and entry.shape:
                yield entry, indices(entry.shape), entry.values
        for entry in entries:
            if ndim == 1 and len(entry.shape) == 2:
                rows, columns = entry.shape
                if columns == size:
                    for r in range(rows):
                        yield (entry, [(r + 1, c + 1) for c in range(columns)],
                               entry.values[r * columns:(r + 1) * columns])
                if rows == size and columns > 1:
                    for c in range(columns):
                        yield (entry, [(r + 1, c + 1) for r in range(rows)],
                               tuple(entry.values[r * columns + c] for r in range(rows)))

    def arrangement(self, texts: Sequence[str], ndim: int) -> bool | None:
        """Whether numbers written as one tuple or matrix are a printed array, row or column
        (True), printed numbers in another arrangement (False: two entries swapped, one turned
        into another printed number), or not all printed (None: nothing to tell by)."""
        if any(self.pool.match(text, self.policy).status is not Status.MATCH for text in texts):
            return None
        return any(all(compare(text, value, self.policy).status is Status.MATCH
                       for text, value in zip(texts, values, strict=True))
                   for _entry, _where, values in self.arrays_of(len(texts), ndim))

    def differing_cells(self, texts: Sequence[str], ndim: int) -> list[int]:
        """Which numbers written as one tuple or matrix differ from the printed array (row or
        column) they agree with in most places, where one agrees in half of them or more:
        where a changed entry of it stands, or both of a swap (an error's place, never a
        value's provenance)."""
        most, differing = 0, []
        for _entry, _where, values in self.arrays_of(len(texts), ndim):
            same = [compare(text, value, self.policy).status is Status.MATCH
                    for text, value in zip(texts, values, strict=True)]
            if sum(same) > most:
                most, differing = sum(same), [i for i, alike in enumerate(same) if not alike]
        return differing if 2 * most >= len(texts) else []

    def full(self, prose: str, magnitude: bool) -> tuple[Fraction, ...]:
        """The printed values a written number may stand for at full precision (rounding to
        it); with ``magnitude``, the negatives' magnitudes too, in the written sign."""
        found = [Fraction(value) for value in self.pool.matches(prose, self.policy)]
        if magnitude:
            found += [-Fraction(value) for value in self.pool.matches(negated(prose), self.policy)]
        return tuple(dict.fromkeys(found))

    def is_given(self, prose: str) -> bool:
        """Whether the snippet's source writes this number as a literal."""
        return self.given.match(prose, self.policy).status is Status.MATCH

    def complement(self, prose: str) -> str | None:
        """How a written number is one minus a printed or given number below one, if it is
        (``1 - 0.01 (prevalence)``): the complement of a probability is what prose computes in
        its head and the snippet seldom prints. (Not one plus: ``1.1978`` for a printed
        ``0.1978`` is what a slipped first digit writes.)"""
        other = 1 - Decimal(prose)
        if not 0 < other < 1:
            return None
        text = f"{other:f}"
        label = self.label_of(text) or ("given" if self.is_given(text) else None)
        return None if label is None else f"1 - {text} ({label})"

    def label_of(self, prose: str, like: str = "") -> str | None:
        """The printed quantity (name and index) a number is printed as, if any: first one
        whose name begins like ``like`` (``w_ls`` for a prose ``w``, beside a ``b_ls`` equal to
        it)."""
        found = self.pool.matches(prose, self.policy)
        labels = [self._labels[value] for value in found if value in self._labels]
        return next((label for label in labels if like and label.startswith(like)),
                    labels[0] if labels else None)

    def nearest(self, prose: str, face: str | None = None) -> str | None:
        """The printed quantity nearest a wrong prose number, sign-aware and named: the
        negative of the same magnitude if it was printed (``-0.5800 (x_2)``). ``face`` is a
        percentage's digits as written: where the snippet printed the percentage itself, that
        may lie nearer (``61.3 %`` of a printed ``61.2756``) than any hundredth."""
        opposite = self.pool.match(negated(prose), self.policy)
        if opposite.status is Status.MATCH:
            return self._named(str(opposite.printed))
        printed = self.pool.match(prose, self.policy).printed
        if face is not None:
            other = self.pool.match(face, self.policy).printed
            if other is not None and (printed is None
                                      or _apart(face, other) < _apart(prose, printed)):
                shown = self._named(other)
                if self.faces.match(face, self.policy).printed == other:
                    return shown
                percent = f"{to_decimal(other).scaleb(2):f}".rstrip("0").rstrip(".")
                return f"{shown}, a fraction: {percent} %"
        return None if printed is None else self._named(printed)

    def _named(self, shown: str) -> str:
        """Printed digits as a message shows them, with the name of the first number printed
        so."""
        found = self.pool.matches(shown, self.policy)
        label = self._labels.get(found[0]) if found else None
        return f"{shown} ({label})" if label else shown


def _apart(prose: str, printed: str) -> Decimal:
    """How far a printed number lies from a written one, relative to the written one."""
    written = to_decimal(prose)
    return abs(to_decimal(printed) - written) / max(abs(written), Decimal("1e-12"))


def negated(text: str) -> str:
    """A number's text with the other sign: ``0.58`` and ``-0.58``."""
    return text[1:] if text.startswith("-") else "-" + text


def source_literals(code: str) -> tuple[str, ...]:
    """The decimals a snippet's source writes as literals (``0.9``, ``-0.2``, ``1e-3``): the
    statement's data that the prose may quote as given. Source that does not tokenize gives
    what was read before the error."""
    return given_texts(literal_places(code))


def given_texts(literals: Sequence[Literal]) -> tuple[str, ...]:
    """The numbers the prose may quote of a source's literals: each as written, and with its
    minus where one stands before it."""
    found: list[str] = []
    for literal in literals:
        found += ["-" + literal.text, literal.text] if literal.minus else [literal.text]
    return tuple(dict.fromkeys(found))


@dataclass(frozen=True)
class Literal:
    """A decimal literal of a snippet's source where it stands: its 1-based ``line``, and
    whether a minus stands before it."""

    line: int
    text: str
    minus: bool


def literal_places(code: str) -> tuple[Literal, ...]:
    """Every decimal literal of a snippet's source, in order, with its line: what a given
    number the prose quotes is bound to (``snippet line 4``)."""
    found: list[Literal] = []
    before = ""
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if token.type == tokenize.NUMBER and _is_decimal(token.string):
                text = token.string.replace("_", "").rstrip("jJ")
                found.append(Literal(token.start[0], text, before == "-"))
            if token.type not in (tokenize.NL, tokenize.COMMENT):
                before = token.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return tuple(found)


def source_assignments(code: str) -> dict[str, str]:
    """The names a snippet's source gives a number at its top level (``beta_1 = 0.9``,
    ``eps = 1e-8``, ``m = -0.5``): given data the prose may name and compute with."""
    found: dict[str, str] = {}
    for statement in _assignments(_module(code)):
        for target in statement.targets:
            found.update(_assigned(target, statement.value))
    return found


def source_values(code: str) -> dict[str, Entry]:
    """The numbers and arrays a snippet's source writes out under a name it assigns nowhere
    else (``lam = 2``, ``gamma = np.array([2.0, 0.5])``, ``W = [[0.1, 0.2], [0.3, 0.4]]``),
    each with its line: given data that a prose name may quote whole or by element
    (``\\lambda = 2``, ``\\boldsymbol{\\gamma} = (2,\\; 0.5)``, ``\\gamma_1 = 2``). Without
    them those digits were bound to whatever printed number equals them (or, integers, not
    checked at all), and a changed input would have been checked against that."""
    module = _module(code)
    stored = _stores(module)
    found: dict[str, Entry] = {}
    for statement in _assignments(module):
        target = statement.targets[0]
        if len(statement.targets) == 1 and isinstance(target, ast.Name) \
                and stored[target.id] == 1:
            value = _written_value(statement.value)
            if value is not None:
                found[target.id] = Entry(target.id, value[0], value[1], statement.lineno)
    return found


@lru_cache(maxsize=256)
def _module(code: str) -> ast.Module | None:
    """A snippet's source parsed once, for every question asked of it (read only)."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):
        return None


def _assignments(module: ast.Module | None) -> list[ast.Assign]:
    """The top-level assignments of a snippet's source (none if it does not parse)."""
    body = module.body if module is not None else []
    return [statement for statement in body if isinstance(statement, ast.Assign)]


def _stores(module: ast.Module | None) -> Counter[str]:
    """How often each name is assigned anywhere in the source (a loop's target, an element's or
    an augmented assignment count too): an array changed after it is written is no given."""
    counts: Counter[str] = Counter()
    for node in ast.walk(module) if module is not None else ():
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            counts[node.id] += 1
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.value, ast.Name):
            counts[node.value.id] += 1
    return counts


#: The calls that make an array of a literal list (``np.array([...], dtype=float)``).
_ARRAY_CALLS = frozenset({"array", "asarray"})


def _written_value(node: ast.expr) -> tuple[tuple[int, ...], tuple[str, ...]] | None:
    """The shape and the row-major numbers of a literal number, 1-D or 2-D array, or None."""
    number = _number_text(node)
    if number is not None:
        return (), (number,)
    if isinstance(node, ast.Call) and len(node.args) == 1 and _called(node.func) in _ARRAY_CALLS:
        node = node.args[0]
    if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
        return None
    rows = [row.elts if isinstance(row, ast.List | ast.Tuple) else None for row in node.elts]
    if all(row is None for row in rows):
        numbers = [_number_text(element) for element in node.elts]
        shape: tuple[int, ...] = (len(numbers),)
    elif all(row is not None and len(row) == len(rows[0] or ()) for row in rows):
        numbers = [_number_text(element) for row in rows for element in row or ()]
        shape = (len(rows), len(rows[0] or ()))
    else:
        return None
    texts = [text for text in numbers if text is not None]
    return (shape, tuple(texts)) if len(texts) == len(numbers) and texts else None


def _called(func: ast.expr) -> str | None:
    """The name of a called function, with or without its module (``np.array``, ``array``)."""
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _assigned(target: ast.expr, value: ast.expr) -> dict[str, str]:
    """``x = 0.5`` and ``a, b = 0.9, 0.999``: each name with its number."""
    if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
            and len(target.elts) == len(value.elts):
        pairs: dict[str, str] = {}
        for name, part in zip(target.elts, value.elts, strict=True):
            pairs.update(_assigned(name, part))
        return pairs
    text = _number_text(value)
    return {target.id: text} if isinstance(target, ast.Name) and text is not None else {}


def _number_text(node: ast.expr) -> str | None:
    sign = ""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        sign, node = ("-" if isinstance(node.op, ast.USub) else ""), node.operand
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return sign + repr(node.value)
    return None


def _is_decimal(text: str) -> bool:
    lowered = text.lower()
    return not lowered.startswith(("0x", "0o", "0b")) and ("." in text or "e" in lowered) \
        and not lowered.endswith("j")


def name_words(names: Iterable[str]) -> frozenset[str]:
    """The words of names as the prose may spell them (``W1`` and ``v_1``: ``W``, ``v``): a
    term with none of them in it names no array."""
    return frozenset(word for name in names for word in _WORDS.findall(name))
