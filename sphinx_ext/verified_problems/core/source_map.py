"""Where a number stands in the author's file: exact line and column from doctree text.

Docutils keeps only the line where a block starts (MyST gives a ``$$`` block the line of its
opening fence). The check needs the line of the digit itself, and the fix command its column,
so each piece of prose is found again in the source text, moving forward from its block's line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Protocol, TypeVar

from .text import has_sign

Position = tuple[int, int]  # 0-based line index, 0-based column


@lru_cache(maxsize=256)
def _read_lines(path: str, mtime_ns: int) -> tuple[str, ...]:
    # Lines as MyST counts them: at "\n" only (str.splitlines also breaks at U+2028, U+0085 …).
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    return tuple(line.removesuffix("\r") for line in text.split("\n"))


def source_lines(path: str) -> tuple[str, ...]:
    """The lines of a source file (cached while the file is unchanged)."""
    try:
        return _read_lines(path, Path(path).stat().st_mtime_ns)
    except OSError:
        return ()


class Cursor:
    """A reading position in one source file that only moves forward.

    ``origin`` is the index the first of ``lines`` has (one cell of a notebook, whose lines
    are numbered from its cell's base): positions are given in those numbers.
    """

    def __init__(self, lines: tuple[str, ...], start_line: int, origin: int = 0) -> None:
        self.lines = lines
        self.origin = origin
        self.position: Position = (max(start_line - origin, 0), 0)

    def find_number(self, written: str) -> Position | None:
        """The next occurrence of a number as written, not inside a longer number.

        A number with a sign may be written with U+2212 or ``&minus;``; one without is not the
        digits of a signed number (``2.0`` is not found in the ``-2.0`` of the row above it).
        Digits in an inline code span are code, never the prose's number (an error about it
        would name the code's line).
        """
        signed = written.startswith("-")
        digits = re.escape(written.removeprefix("-"))
        sign = "(?:[-−]|&minus;)" if signed else ""
        pattern = re.compile(r"(?<![\d.])" + sign + digits + r"(?![\d])")
        line, column = self.position
        for index in range(line, len(self.lines)):
            text = self.lines[index]
            code: list[tuple[int, int]] | None = None  # found only on a line with a match
            for match in pattern.finditer(text, column if index == line else 0):
                code = _code_spans(text) if code is None else code
                if any(start <= match.start() < end for start, end in code):
                    continue
                if signed or not has_sign(text, match.start()):
                    self.position = (index, match.end())
                    return (index + self.origin, match.start())
        return None

    def place_block(self, content: str) -> list[Position | None]:
        """For each line of ``content`` (verbatim LaTeX), where its first character stands."""
        placed: list[Position | None] = []
        for raw in content.split("\n"):
            stripped = raw.strip()
            if not stripped:
                placed.append(None)
                continue
            found = self._find_outside_code(stripped)
            if found is not None:
                index, at = found
                self.position = (index, at + len(stripped))
                found = (index + self.origin, at - (len(raw) - len(raw.lstrip())))
            placed.append(found)
        return placed

    def _find_outside_code(self, text: str) -> Position | None:
        """The next occurrence of ``text`` that is not inside an inline code span (a paragraph
        may quote a formula as code before it writes it as math)."""
        line, column = self.position
        for index in range(line, len(self.lines)):
            code: list[tuple[int, int]] | None = None
            at = self.lines[index].find(text, column if index == line else 0)
            while at >= 0:
                code = _code_spans(self.lines[index]) if code is None else code
                if not any(start <= at < end for start, end in code):
                    return (index, at)
                at = self.lines[index].find(text, at + 1)
        return None


_BACKTICKS = re.compile(r"`+")


def _code_spans(text: str) -> list[tuple[int, int]]:
    """The inline code spans of one line: a run of backticks to the next run of equal length,
    unless a role's name stands before it (``{unchecked}`1.5` `` is prose)."""
    spans: list[tuple[int, int]] = []
    runs = list(_BACKTICKS.finditer(text))
    k = 0
    while k < len(runs):
        closing = next((j for j in range(k + 1, len(runs))
                        if len(runs[j].group()) == len(runs[k].group())), None)
        if closing is None:
            k += 1
            continue
        if text[runs[k].start() - 1 : runs[k].start()] != "}":
            spans.append((runs[k].start(), runs[closing].end()))
        k = closing + 1
    return spans


def offset_to_position(
    content: str, placed: list[Position | None], offset: int
) -> Position | None:
    """Map an offset in verbatim content to the source position of that character."""
    line_no = content.count("\n", 0, offset)
    line_start = content.rfind("\n", 0, offset) + 1
    base = placed[line_no] if line_no < len(placed) else None
    if base is None:
        return None
    return (base[0], base[1] + offset - line_start)


class LineEdit(Protocol):
    """Digits to replace: ``old`` at a 1-based line and a 0-based column becomes ``new``."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def old(self) -> str: ...
    @property
    def new(self) -> str: ...


Edited = TypeVar("Edited", bound=LineEdit)


def edit_lines(lines: list[str], edits: Iterable[Edited], first: int = 1) -> list[Edited]:
    """Make the edits in ``lines`` (the first of which is line ``first``), last first so that
    a line's columns stay true; the edits whose ``old`` is no longer there are returned."""
    misplaced: list[Edited] = []
    for edit in sorted(edits, key=lambda e: (e.line, e.column), reverse=True):
        index, end = edit.line - first, edit.column + len(edit.old)
        if not 0 <= index < len(lines) or lines[index][edit.column:end] != edit.old:
            misplaced.append(edit)
            continue
        lines[index] = lines[index][:edit.column] + edit.new + lines[index][end:]
    return misplaced
