"""A notebook's own outputs as a transcript, and its cells as the places of its prose.

A page that is a notebook (MyST-NB: an ``.ipynb``, or MyST Markdown with ``{code-cell}``\\ s)
computes its numbers in its own code cells. :func:`cells_transcript` reads what those cells
printed, in order, and the values glued with MyST-NB's ``glue`` (as ``NAME = VALUE`` lines
after the printed ones): the same text a snippet's transcript is, read by the same rules.

An ``.ipynb`` has no lines of its own. MyST-NB numbers the lines of cell ``i`` (from 0) from
``(i + 1) * 10000``; :func:`cell_of_line` turns such a line back into the cell and its line, and
:func:`cell_lines` gives the text a number is found again in. :func:`edit_cells` changes the
digits of a cell's source in the file's JSON and nothing else, or says why it cannot.

Nothing here imports MyST-NB or nbformat: cells and outputs are the plain mappings of the
notebook format (nbformat 4).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .digits import shorter_rounds_other, to_decimal
from .source_map import Edited, edit_lines
from .transcript import read_transcript
from .values import Entry

#: MyST-NB's line numbers of an ``.ipynb``: cell ``i`` starts at ``(i + 1) * LINE_BASE``.
LINE_BASE = 10000
#: Lines of a code cell that are IPython, not Python (magics, shell escapes).
_NOT_PYTHON = re.compile(r"^\s*[%!]")
#: The notebook format's own JSON layout, as Jupyter and nbformat write it.
_LAYOUT: dict[str, Any] = {"sort_keys": True, "indent": 1, "ensure_ascii": False}


@dataclass(frozen=True)
class CellsRun:
    """What a notebook's code cells gave: the transcript to check the prose against."""

    #: What the cells printed to stdout, in order, then one ``NAME = VALUE`` line per glued value.
    transcript: str
    #: The code cells' Python, one after another (its literals are the page's given data).
    script: str
    #: Why the cells gave no usable transcript (a cell raised, timed out, nothing was printed).
    failure: str | None = None
    #: The cell (from 0) the failure is in, when one is, and the line of it (from 1) that its
    #: traceback names.
    failed_cell: int | None = None
    failed_line: int | None = None


def cells_transcript(cells: Sequence[Mapping[str, Any]], glued: Mapping[str, Mapping[str, Any]],
                     allow_errors: bool = False, execution_error: str | None = None) -> CellsRun:
    """The transcript of a notebook's executed cells and glued values.

    A cell's error output fails the run unless errors are expected (``allow_errors``, or the
    cell's ``raises-exception`` tag). So does an ``execution_error`` (the executor's: a timeout
    is placed at the cell it interrupted, another at the first code cell that did not run), a
    page whose code never ran, and a run that printed and glued nothing.
    """
    code = [(index, cell) for index, cell in enumerate(cells) if cell.get("cell_type") == "code"]
    printed = "".join(_stdout(cell) for _index, cell in code)
    script = "\n".join(_python(_text(cell.get("source", ""))) for _index, cell in code)
    transcript = printed + _glued_lines(printed, glued)
    timed_out = execution_error is not None and "Timeout" in execution_error
    for index, cell in code:
        error = _error(cell, allow_errors)
        if error is not None:  # a timeout interrupts its cell: the timeout is the failure
            return CellsRun(transcript, script, execution_error if timed_out else error[0],
                            index, error[1])
    unrun = next((index for index, cell in code if cell.get("execution_count") is None
                  and _text(cell.get("source", "")).strip()), None)
    if execution_error is not None:
        return CellsRun(transcript, script, execution_error, unrun)
    if unrun is not None and not transcript:
        return CellsRun(transcript, script, "the cell did not run (the notebook was not "
                        "executed, and has no stored outputs)", unrun)
    if not transcript.strip():
        return CellsRun(transcript, script, "the notebook's cells printed nothing")
    return CellsRun(transcript, script)


def _text(source: str | Sequence[str]) -> str:
    """A cell's source or a stream's text: the format allows a string or a list of lines."""
    return source if isinstance(source, str) else "".join(source)


def _stdout(cell: Mapping[str, Any]) -> str:
    parts = [_text(output.get("text", "")) for output in cell.get("outputs", ())
             if output.get("output_type") == "stream" and output.get("name") == "stdout"]
    text = "".join(parts)
    return text if not text or text.endswith("\n") else text + "\n"


def _python(source: str) -> str:
    """A code cell's source with its IPython-only lines blanked (line numbers kept)."""
    return "\n".join("" if _NOT_PYTHON.match(line) else line for line in source.split("\n"))


def _glued_lines(printed: str, glued: Mapping[str, Mapping[str, Any]]) -> str:
    """A ``NAME = VALUE`` line for each glued value, but for a value the cells also printed
    under its name (``print("p =", p)`` and ``glue("p", p)``): that one is the printed line.

    A glued value that is not the printed one is kept, and the transcript says that the name
    was printed twice.
    """
    if not glued:
        return ""
    entries = read_transcript(printed).entries
    lines = []
    for name, output in glued.items():
        plain = _text(output.get("data", {}).get("text/plain", "")).strip()
        line = f"{name} = {plain}\n" if plain else ""
        printed_entry = entries.get(name)
        glued_entry = read_transcript(line).entries.get(name) if printed_entry else None
        if not (printed_entry and glued_entry and _same(printed_entry, glued_entry)):
            lines.append(line)
    return "".join(lines)


def _same(first: Entry, second: Entry) -> bool:
    """Whether two printings of a quantity agree, at the places of the shorter of each pair."""
    return first.shape == second.shape and all(
        _agree(a, b) for a, b in zip(first.values, second.values, strict=True))


def _agree(first: str, second: str) -> bool:
    try:
        a, b = to_decimal(first), to_decimal(second)
    except ValueError:
        return first == second
    return shorter_rounds_other(a, b) if a.is_finite() and b.is_finite() else first == second


def _error(cell: Mapping[str, Any], allow_errors: bool) -> tuple[str, int | None] | None:
    """A cell's unexpected error, and the line of the cell its traceback points at."""
    tags = cell.get("metadata", {}).get("tags", ())
    if allow_errors or "raises-exception" in tags:
        return None
    for output in cell.get("outputs", ()):
        if output.get("output_type") == "error":
            name = str(output.get("ename", "Error"))
            value = str(output.get("evalue", "")).strip()
            return (f"{name}: {value}" if value else name), _traceback_line(
                output.get("traceback", ()))
    return None


#: The line of its cell an IPython traceback names (``Cell In[3], line 2``), and colours.
_TRACEBACK_LINE = re.compile(r"Cell In\s*\[\d*\],\s*line (\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _traceback_line(traceback: str | Sequence[str]) -> int | None:
    text = _ANSI.sub("", traceback if isinstance(traceback, str) else "\n".join(traceback))
    found = _TRACEBACK_LINE.findall(text)
    return int(found[-1]) if found else None


def cell_of_line(line: int) -> tuple[int, int] | None:
    """The cell (from 0) and the line in it (from 1) of a line MyST-NB gave an ``.ipynb``."""
    cell = line // LINE_BASE - 1
    within = line - _first_line(cell) + 1
    return (cell, within) if cell >= 0 and within >= 1 else None


def located(path: str, line: int | None) -> str:
    """Where a line of a page is, as a person finds it: ``page.md:12``, and in an ``.ipynb``
    (which has no lines of its own) ``page.ipynb:cell 3, line 2``, both counted from 1."""
    found = cell_of_line(line) if line and path.endswith(".ipynb") else None
    if found is not None:
        return f"{path}:cell {found[0] + 1}, line {found[1]}"
    return f"{path}:{line}" if line else path


#: A location as :func:`located` writes it: ``PAGE:LINE`` or ``PAGE:cell N, line K``.
_LOCATION = re.compile(r"(?P<page>.+):(?:cell (?P<cell>\d+), line (?P<within>\d+)|(?P<line>\d+))")


def read_location(text: str) -> tuple[str, int] | None:
    """The page and line of a location as :func:`located` writes it (what a build message
    says is what a command takes back), or None."""
    found = _LOCATION.fullmatch(text.strip())
    if found is None:
        return None
    if found["line"] is not None:
        return found["page"], int(found["line"])
    cell, within = int(found["cell"]), int(found["within"])
    return (found["page"], _first_line(cell - 1) + within - 1) if cell >= 1 and within >= 1 \
        else None


@lru_cache(maxsize=64)
def _cells(path: str, mtime_ns: int) -> tuple[tuple[str, ...], ...]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return tuple(tuple(_text(cell.get("source", "")).split("\n")) for cell in data["cells"])


def cell_lines(path: str, line: int) -> tuple[tuple[str, ...], int] | None:
    """The lines of the ``.ipynb`` cell that ``line`` is in, and the index its first line has
    among the lines MyST-NB counts (None if the file or the cell cannot be read)."""
    found = cell_of_line(line)
    if found is None:
        return None
    try:
        cells = _cells(path, Path(path).stat().st_mtime_ns)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if found[0] >= len(cells):
        return None
    return cells[found[0]], _first_line(found[0]) - 1  # as an index: lines counted from 0


class LayoutError(ValueError):
    """The ``.ipynb`` cannot be edited digit by digit: say why, and nothing is written."""


@dataclass(frozen=True)
class CellEdit:
    """Replace ``old`` by ``new`` at a line MyST-NB gave the ``.ipynb`` (from 1) and a column."""

    line: int
    column: int
    old: str
    new: str


def edit_cells(text: str, edits: Iterable[Edited]) -> tuple[str, list[Edited]]:
    """The ``.ipynb`` text with the edits made in its cells' sources, and the edits whose digits
    are no longer where they were.

    Only a file in the notebook format's own layout (as Jupyter saves it) is edited, so that
    writing it back changes those digits' lines and nothing else; another layout is a
    :class:`LayoutError` that says what to do.
    """
    try:
        data = json.loads(text)
        cells = data["cells"]
    except (ValueError, KeyError, TypeError) as error:
        raise LayoutError(f"it is not a notebook the fix can read ({error})") from None
    if _dump(data) != text:
        raise LayoutError("it is not laid out as Jupyter saves notebooks (JSON with one-space "
                          "indents and sorted keys); save it from Jupyter, or fix it by hand")
    by_cell: dict[int, list[Edited]] = defaultdict(list)
    missed: list[Edited] = []
    for edit in edits:
        found = cell_of_line(edit.line)
        if found is None or found[0] >= len(cells):
            missed.append(edit)
        else:
            by_cell[found[0]].append(edit)
    for index, cell_edits in by_cell.items():
        missed += _edit_cell(cells[index], cell_edits, _first_line(index))
    return _dump(data), missed


def _edit_cell(cell: dict[str, Any], edits: list[Edited], first: int) -> list[Edited]:
    """Edit one cell's source, kept as the format had it: a string, or a list of lines."""
    source = cell.get("source", "")
    lines = _text(source).split("\n")
    missed = edit_lines(lines, edits, first)
    if isinstance(source, str):
        cell["source"] = "\n".join(lines)
    else:
        cell["source"] = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return missed


def _first_line(cell: int) -> int:
    """The line MyST-NB gives the first line of an ``.ipynb`` cell (from 0)."""
    return (cell + 1) * LINE_BASE + 2


def _dump(data: Any) -> str:
    return json.dumps(data, **_LAYOUT) + "\n"
