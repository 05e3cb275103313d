"""Snippet output → :class:`~.values.Transcript`: the printed quantities, and every number printed.

A snippet prints each checked quantity as ``NAME = VALUE`` (DESIGN.md section 2). This module
reads those entries without ever turning a digit into a float: values stay the decimal strings
that were printed, so :mod:`.digits` compares exactly what the reader sees.

An entry is a line ``NAME = VALUE`` (leading spaces allowed, ``NAME`` a Python-like identifier)
whose VALUE, up to the end of the line (or, when brackets are still open, up to the line that
closes them), is nothing but one numeric value:

* a number: ``3``, ``-0.``, ``0.4011``, ``.5``, ``1.2e-05``, ``nan``, ``inf``, ``-inf``
  (a ``+`` sign, as numpy's ``sign='+'`` prints it, is dropped from the value);
* a wrapped scalar: ``np.float64(0.4011)``, ``numpy.int64(3)``, ``np.longdouble('0.1')``,
  ``Decimal('0.1')``;
* a list or tuple, nested, with or without commas (numpy's ``str`` form), of any of these;
* ``array(...)`` / ``matrix(...)`` (``np.``/``numpy.`` prefix allowed) around such a value,
  with optional ``dtype=...`` and ``shape=(...)`` arguments; ``shape=`` gives the shape of an
  empty array.

``NAME =`` with nothing after it, followed by a line that opens a bracket (``print("A =\\n", A)``)
is an entry whose value starts on that next line.

The value may be followed, on the line where it ends, by a note: words, a unit, a remark in
parentheses (``w = 0.5 rad``, ``p = 0.7311 (rounded)``, ``A = [[1 2]`` … ``[3 4]] (row-major)``,
as ``print("w =", w, "rad")`` writes them). The note is not part of the value and is ignored, as
long as nothing in it could be read as the value instead. A note that holds a number
(``x = 0.5 or 0.6``, ``x = 1, 2``), that starts with an operator (``x = 2 - y``, ``x = 0.5 ± e``)
or a percent sign (``acc = 82.47%``, which is not the number 82.47) makes the line a problem at
its line, never an entry and never silently free text. The note ends at a later ``=``: what
follows states another quantity, an entry in turn when a name stands before its ``=``
(``print("w =", w, "and b =", b)`` prints two entries, ``w = 0.3 and b = 0.1``), free text
otherwise (``x = 0.5 and exp(-x) = 0.6065``). A value glued to a letter, digit, ``_``
or ``.``, directly or through an operator (``0x1F``, ``2j``, ``3rd``, ``1+2j``, ``2024-05-01``,
``12:30``), is no number: such a line is free text.

Everything else is free text. Its numbers are still collected into ``Transcript.numbers``:
a run of digits with an optional decimal point and exponent, or ``nan``/``inf``, that is not
glued to a letter, digit, ``_`` or ``.`` on either side (so ``x2``, ``float64``, ``1st``,
``0x1F`` and the parts of a version ``1.2.3`` are not numbers). A ``-`` directly before a
number is its sign, unless it directly follows a letter, digit, ``_``, ``.``, ``)`` or ``]``:
there it is a subtraction or a dash, so ``2024-05-01`` gives ``2024``, ``05``, ``01`` and
``f(x)-1`` gives ``1``. Thousands separators split a number (``1,000`` → ``1``, ``000``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .values import Entry, SourceProblem, Transcript

__all__ = ["read_transcript"]

_UNSIGNED = r"(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|nan|inf)"

_ENTRY_HEAD = re.compile(r"\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*(?P<rest>.*)")

_FREE_NUMBER = re.compile(
    rf"(?:(?<![A-Za-z0-9_.)\]])(?P<sign>[+-]))?(?<![A-Za-z0-9_.])(?P<number>{_UNSIGNED})"
    r"(?![A-Za-z0-9_]|\.[0-9])"
)

# The tokens a numeric value is made of; anything else makes the value free text.
_TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<call>(?:(?:np|numpy)\.)?(?:array|matrix)\()
    | (?P<wrap>(?:(?:np|numpy)\.[A-Za-z_][A-Za-z0-9_]*|Decimal)\()
    | (?P<dtype>dtype=(?:(?:(?:np|numpy)\.)?[A-Za-z_][A-Za-z0-9_]*|'[^'\n]*'|"[^"\n]*"))
    | (?P<shape>shape=)
    | (?P<ellipsis>\.\.\.)
    | (?P<quoted>'[^'\n]*'|"[^"\n]*")
    | (?P<number>[+-]?"""
    + _UNSIGNED
    + r""")
    | (?P<open>[\[(])
    | (?P<close>[\])])
    | (?P<comma>,)
    """,
    re.VERBOSE,
)

_MAX_DEPTH = 64  # numpy arrays have at most 64 dimensions; deeper nesting is not a value


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str


@dataclass(frozen=True)
class _Seq:
    """A bracketed sequence; ``shape`` is the declared ``shape=`` of an ``array(...)``."""

    items: tuple[_Node, ...]
    shape: tuple[int, ...] | None = None


_Node = str | _Seq | None  # a number's text, a sequence, or None for numpy's "..."


class _NotAValue(Exception):
    """The text is not one numeric value: the line is free text."""


class _Ragged(Exception):
    """A nested sequence whose rows differ in length, or mix numbers and rows."""

    def __init__(self, lengths: tuple[int, ...] | None) -> None:
        super().__init__(lengths)
        self.lengths = lengths


def read_transcript(text: str) -> Transcript:
    """Read a snippet's stdout into its named entries, every printed number, and its problems.

    This is the only reading of snippet output: what it does not recognise as an entry is free
    text, whose numbers still count as printed (a free digit in the prose may quote them).
    """
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    transcript = Transcript()
    numbers = _Numbers()
    index, rest = 0, None
    while index < len(lines):
        index, rest = _read_line(lines, index, rest, transcript, numbers)
    transcript.numbers = tuple(numbers.every)
    transcript.unnamed = tuple(numbers.unnamed)
    transcript.percentages = tuple(numbers.percentages)
    return transcript


@dataclass
class _Numbers:
    """Every number printed, and those printed outside an entry with their output line."""

    every: list[str] = field(default_factory=list)
    unnamed: list[tuple[int, str]] = field(default_factory=list)
    percentages: list[str] = field(default_factory=list)

    def free_text(self, line: str, number: int) -> None:
        """The numbers of a line of free text, output line ``number`` (1-based)."""
        matches = list(_FREE_NUMBER.finditer(line))
        found = [_signed(match) for match in matches]
        self.every.extend(found)
        self.unnamed.extend((number, text) for text in found)
        self.percentages.extend(text for text, match in zip(found, matches, strict=True)
                                if _PERCENT.match(line, match.end()))


def _read_line(
    lines: list[str], index: int, rest: str | None, transcript: Transcript, numbers: _Numbers
) -> tuple[int, str | None]:
    """Read the entry or free text at ``index`` (or ``rest``, the end of that line).

    Returns where to read on: the index of the next line, and ``None``; or, when another
    quantity is printed after the entry's value on the line where it ends (``w = 0.3 and
    b = 0.1``), that line's index and the rest of it from that quantity's name on.
    """
    text = lines[index] if rest is None else rest
    head = _ENTRY_HEAD.fullmatch(text)
    chunk = _value_lines(lines, index, head["rest"]) if head else None
    if head is None or chunk is None:
        numbers.free_text(text, index + 1)
        return index + 1, None
    name, line = head["name"], index + 1
    if chunk is _UNCLOSED:
        transcript.problems.append(SourceProblem(line, _unclosed_message(name, line)))
        numbers.free_text(text, line)
        return index + 1, None
    assert isinstance(chunk, _Chunk)
    try:
        entry = _entry(name, line, chunk.text)
        after = _check_note(name, line, chunk)
    except _NotAValue:
        numbers.free_text(text, line)
        return index + 1, None
    except _Problem as problem:
        transcript.problems.append(SourceProblem(line, problem.message))
        for offset, free_line in enumerate([text, *lines[index + 1 : chunk.end]]):
            numbers.free_text(free_line, line + offset)
        return chunk.end, None
    numbers.every.extend(entry.values)
    _record(transcript, entry)
    if after:
        return chunk.end - 1, after
    return chunk.end, None


@dataclass(frozen=True)
class _Chunk:
    """A value's text in the output, and the note that follows it on the line where it ends."""

    text: str
    end: int  # the index of the line after the value
    note: str
    note_line: int  # 1-based, the line where the value ends and the note stands


class _Unclosed:
    """The value's brackets never close before the output ends."""


_UNCLOSED = _Unclosed()

#: Tokens that begin a value, and those of them that open a bracket.
_OPENERS = frozenset({"open", "call", "wrap"})
_STARTERS = _OPENERS | {"number", "ellipsis"}


def _value_lines(lines: list[str], index: int, rest: str) -> _Chunk | _Unclosed | None:
    """The value that starts after ``NAME =`` on line ``index``, and the note after it.

    The value ends where its brackets close (or, for a bare number, where the number ends),
    on the first line or a later one; the rest of that line is its note. Returns
    :data:`_UNCLOSED` when its brackets never close, or ``None`` when the text is no value:
    it does not start with one, or it has something inside its brackets that no value has
    (``(1+2j)``, ``[True False]``), or the value runs on into a word (``0x1F``, ``2j``).
    """
    start = index
    if not rest.strip() and index + 1 < len(lines) and _opens_value(lines[index + 1]):
        start, rest = index + 1, lines[index + 1]
    parts: list[str] = []
    depth = 0
    for current in range(start, len(lines)):
        text = rest if current == start else lines[current]
        stop, depth = _scan(text, depth)
        if stop is None and depth > 0:
            parts.append(text)
            continue
        if stop is None or stop < 0:
            return None if current == start else _closes_later(lines, current, parts)
        note = text[stop:]
        if note and _GLUED.match(note):
            return None
        parts.append(text[:stop])
        return _Chunk("\n".join(parts), current + 1, note, current + 1)
    return _UNCLOSED


def _scan(text: str, depth: int) -> tuple[int | None, int]:
    """Walk the tokens of one line of a value, at bracket ``depth`` when the line starts.

    Returns ``(stop, depth)``: ``stop`` is where the value ends in ``text`` (its brackets all
    closed), ``None`` if the line ends first (still inside brackets, or with no token at all),
    or ``-1`` if the line has something that is not part of a value before that.
    """
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        kind = match.lastgroup if match is not None else None
        if match is None or kind is None or (depth == 0 and kind not in _STARTERS | {"space"}):
            return -1, depth
        position = match.end()
        if kind in _OPENERS:
            depth += 1
        elif kind == "close":
            depth -= 1
        if depth == 0 and kind != "space":
            return position, depth
    return None, depth


def _closes_later(lines: list[str], current: int, parts: list[str]) -> _Unclosed | None:
    """A value interrupted inside its brackets on line ``current``: unclosed, or no value.

    Counted as brackets in the text, as printed: if they never close before the output ends,
    the entry is unclosed (``A = [[1 2]`` with its last row lost); if they do, the text was
    something else than a value all along.
    """
    depth = sum(_depth(part) for part in parts)
    for line in lines[current:]:
        depth += _depth(line)
        if depth <= 0:
            return None
    return _UNCLOSED


def _opens_value(line: str) -> bool:
    match = _TOKEN.match(line)
    if match is not None and match.lastgroup == "space":
        match = _TOKEN.match(line, match.end())
    return match is not None and match.lastgroup in {"open", "call"}


def _depth(text: str) -> int:
    return text.count("[") + text.count("(") - text.count("]") - text.count(")")


#: A value that runs on into a word or a number is no value: ``0x1F``, ``2j``, ``1.2.3``, and
#: with a sign or an operator between them ``1+2j``, ``2024-05-01``, ``3/4``, ``12:30``.
_GLUED = re.compile(r"[-+*/^:]?[A-Za-z0-9_.]")

#: A note that starts with one of these makes the value part of an expression (``2 - y``).
_OPERATOR = re.compile(r"\s*[-+*/^=<>!~±×÷·−≈≤≥≠]")
_PERCENT = re.compile(r"\s*%")

#: Where a note says that something else equals something: ``and b = 0.1``, ``exp(-x) = 0.6``.
_EQUALS = re.compile(r"(?<![=!<>])=(?!=)")
#: The name just before that ``=``, when it is a name as an entry has one (not ``x.T`` or ``f(x)``).
_LAST_NAME = re.compile(r"(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*\s*$")


def _check_note(name: str, line: int, chunk: _Chunk) -> str:
    """Accept the note after a value, or raise the :class:`_Problem` that it cannot be read.

    The note is the value's own up to a later ``=``; from there on the line states something
    else, whose numbers are not the value's. Returns that rest of the line, from the other
    quantity's name when it has one (read as an entry in turn), or from its ``=``.
    """
    where = f" (on line {chunk.note_line})" if chunk.note_line != line else ""
    if _PERCENT.match(chunk.note):
        raise _Problem(_percent_message(name, line, where))
    if _OPERATOR.match(chunk.note):
        raise _Problem(_operator_message(name, line, where))
    own, after = chunk.note, ""
    if (equals := _EQUALS.search(own)) is not None:
        split = equals.start()
        if (named := _LAST_NAME.search(own, 0, split)) is not None:
            split = named.start()
        own, after = own[:split], own[split:]
    if _free_numbers(own):
        raise _Problem(_second_number_message(name, line, where))
    return after


def _record(transcript: Transcript, entry: Entry) -> None:
    first = transcript.entries.get(entry.name)
    if first is None:
        transcript.entries[entry.name] = entry
        return
    message = (
        f"{entry.name} is printed twice, on lines {first.line} and {entry.line}, and only the "
        "first is checked: print each quantity once or give the two distinct names."
    )
    transcript.problems.append(SourceProblem(entry.line, message))


class _Problem(Exception):
    """A value that is meant as an entry but cannot be checked; ``message`` is for the author."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _entry(name: str, line: int, text: str) -> Entry:
    tokens = _tokens_or_none(text)
    if tokens is None:
        raise _NotAValue(text)
    node = _Parser(tokens).value()
    if _has_ellipsis(node):
        raise _Problem(_summarised_message(name, line))
    try:
        shape = _shape(node)
    except _Ragged as ragged:
        raise _Problem(_ragged_message(name, line, ragged.lengths)) from None
    return Entry(name=name, shape=shape, values=tuple(_flatten(node)), line=line)


# --- tokens and the recursive descent -------------------------------------------------------


def _tokens_or_none(text: str) -> list[_Token] | None:
    """The tokens of ``text`` (spaces dropped), or ``None`` if any part of it is not a token."""
    tokens: list[_Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.lastgroup is None:
            return None
        if match.lastgroup != "space":
            tokens.append(_Token(match.lastgroup, match.group()))
        position = match.end()
    return tokens


class _Parser:
    """A recursive descent over the tokens of one value; raises :class:`_NotAValue`."""

    def __init__(self, tokens: list[_Token]) -> None:
        self._tokens = tokens
        self._position = 0

    def value(self) -> _Node:
        node = self._element(0)
        if self._peek() is not None:
            raise _NotAValue("text after the value")
        return node

    def _peek(self) -> _Token | None:
        if self._position < len(self._tokens):
            return self._tokens[self._position]
        return None

    def _take(self, *kinds: str) -> _Token:
        token = self._peek()
        if token is None or token.kind not in kinds:
            raise _NotAValue(f"expected {' or '.join(kinds)}")
        self._position += 1
        return token

    def _element(self, depth: int) -> _Node:
        if depth > _MAX_DEPTH:
            raise _NotAValue("nested too deep")
        token = self._take("number", "wrap", "call", "open", "ellipsis")
        if token.kind == "number":
            return _number_text(token.text)
        if token.kind == "wrap":
            return self._wrapped()
        if token.kind == "call":
            return self._call(depth)
        if token.kind == "ellipsis":
            return None
        return _Seq(self._items(depth, "]" if token.text == "[" else ")"))

    def _wrapped(self) -> str:
        token = self._take("number", "quoted")
        if self._take("close").text != ")":
            raise _NotAValue("mismatched brackets")
        text = token.text.strip("'\"") if token.kind == "quoted" else token.text
        if re.fullmatch(rf"[+-]?{_UNSIGNED}", text) is None:
            raise _NotAValue("a wrapped value that is not a number")
        return _number_text(text)

    def _items(self, depth: int, closer: str) -> tuple[_Node, ...]:
        items: list[_Node] = []
        while (token := self._peek()) is not None and token.kind != "close":
            items.append(self._element(depth + 1))
            if (after := self._peek()) is not None and after.kind == "comma":
                self._position += 1
        if self._take("close").text != closer:
            raise _NotAValue("mismatched brackets")
        return tuple(items)

    def _call(self, depth: int) -> _Node:
        node = self._element(depth + 1)
        shape: tuple[int, ...] | None = None
        while self._take("comma", "close").kind == "comma":
            if self._take("dtype", "shape").kind == "shape":
                shape = self._shape_argument()
        if self._tokens[self._position - 1].text != ")":
            raise _NotAValue("mismatched brackets")
        if isinstance(node, _Seq) and shape is not None:
            return _Seq(node.items, shape)
        return node

    def _shape_argument(self) -> tuple[int, ...]:
        if self._take("open").text != "(":
            raise _NotAValue("a shape that is not a tuple")
        dimensions = self._items(0, ")")
        if not all(isinstance(size, str) and size.isdigit() for size in dimensions):
            raise _NotAValue("a shape that is not whole numbers")
        return tuple(int(str(size)) for size in dimensions)


def _number_text(text: str) -> str:
    return text.removeprefix("+")


# --- shape and values ----------------------------------------------------------------------


def _has_ellipsis(node: _Node) -> bool:
    if node is None:
        return True
    return isinstance(node, _Seq) and any(_has_ellipsis(item) for item in node.items)


def _shape(node: _Node) -> tuple[int, ...]:
    """The rectangular shape of ``node``; raises :class:`_Ragged` if it has none."""
    if not isinstance(node, _Seq):
        return ()
    if not node.items:
        return node.shape if node.shape is not None else (0,)
    shapes = [_shape(item) for item in node.items]
    if any(shape != shapes[0] for shape in shapes):
        raise _Ragged(_differing_lengths(shapes))
    return (len(node.items), *shapes[0])


def _differing_lengths(shapes: list[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The lengths at the first axis where ``shapes`` differ; ``None`` if numbers mix with rows."""
    if any(len(shape) != len(shapes[0]) for shape in shapes):
        return None
    axis = next(i for i in range(len(shapes[0])) if len({s[i] for s in shapes}) > 1)
    return tuple(shape[axis] for shape in shapes)


def _flatten(node: _Node) -> Iterator[str]:
    if isinstance(node, _Seq):
        for item in node.items:
            yield from _flatten(item)
    elif node is not None:
        yield node


def _free_numbers(line: str) -> list[str]:
    """Every number in a line of free text, signed where a minus sign is its sign."""
    return [_signed(match) for match in _FREE_NUMBER.finditer(line)]


def _signed(match: re.Match[str]) -> str:
    return ("-" if match["sign"] == "-" else "") + match["number"]


# --- messages for the author ---------------------------------------------------------------


def _unclosed_message(name: str, line: int) -> str:
    return (
        f"The brackets of {name}, opened on line {line} of the output, never close before the "
        "output ends, so its value cannot be read: print the whole value."
    )


def _summarised_message(name: str, line: int) -> str:
    return (
        f"{name} on line {line} of the output is shortened with '...', so its hidden digits "
        "cannot be checked: raise numpy's print threshold in the snippet, e.g. "
        "np.set_printoptions(threshold=sys.maxsize)."
    )


def _ragged_message(name: str, line: int, lengths: tuple[int, ...] | None) -> str:
    if lengths is None:
        return (
            f"{name} on line {line} of the output mixes single numbers with rows of numbers, "
            "so it is not a table: print it as a table or as separate quantities."
        )
    shown = ", ".join(str(length) for length in lengths)
    return (
        f"The rows of {name} on line {line} of the output have different lengths ({shown}), "
        "so it is not a table: print rows of equal length or each row under its own name."
    )


def _second_number_message(name: str, line: int, where: str) -> str:
    return (
        f"{name} on line {line} of the output has another number after its value{where}, so "
        f"which number is {name} cannot be told: print the note without digits, or on a line "
        "of its own."
    )


def _operator_message(name: str, line: int, where: str) -> str:
    return (
        f"{name} on line {line} of the output goes on with an operator after its value{where}, "
        "so it reads as an expression rather than one value: print the value alone, or put the "
        "note in parentheses."
    )


def _percent_message(name: str, line: int, where: str) -> str:
    return (
        f"{name} on line {line} of the output is printed as a percentage{where}, and the number "
        "before the percent sign is not its value: print the fraction itself, without the sign, "
        f"or the percentage under a name that says so ({name}_pct = …)."
    )
