"""A notebook's outputs as a transcript, its cells as places, its JSON edited exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from verified_problems.core import (
    CellEdit,
    LayoutError,
    cell_of_line,
    cells_transcript,
    edit_cells,
    located,
    read_location,
    read_transcript,
)


def code(source: str, *outputs: dict[str, Any], count: int | None = 1,
         tags: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"cell_type": "code", "source": source, "outputs": list(outputs),
            "execution_count": count, "metadata": {"tags": list(tags)}}


def stdout(text: str | list[str]) -> dict[str, Any]:
    return {"output_type": "stream", "name": "stdout", "text": text}


def error(name: str, value: str, line: int) -> dict[str, Any]:
    traceback = ["\x1b[31m---------\x1b[39m", f"Cell \x1b[32mIn[4]\x1b[39m, line \x1b[32m{line}"
                 "\x1b[39m\n      1 x = 1\n", f"\x1b[31m{name}\x1b[39m: {value}"]
    return {"output_type": "error", "ename": name, "evalue": value, "traceback": traceback}


MARKDOWN = {"cell_type": "markdown", "source": "Some $x = 1$.", "metadata": {}}


def test_stdout_of_code_cells_in_order_then_glued_values() -> None:
    cells = [code("print('a =', 1)", stdout("a = 1\n")), MARKDOWN,
             code("print(2)", stdout(["b = 0.5", "\n", "c = [1, 2]"]),
                  {"output_type": "stream", "name": "stderr", "text": "d = 9\n"},
                  {"output_type": "execute_result", "data": {"text/plain": "e = 7"}})]
    glued = {"loss": {"data": {"text/plain": "np.float64(0.8544)"}},
             "figure": {"data": {"image/png": "..."}}}
    run = cells_transcript(cells, glued)
    assert run.failure is None
    assert run.transcript == "a = 1\nb = 0.5\nc = [1, 2]\nloss = np.float64(0.8544)\n"
    transcript = read_transcript(run.transcript)
    assert transcript.problems == []
    assert [e.name for e in transcript.entries.values()] == ["a", "b", "c", "loss"]


def test_the_script_is_the_code_cells_python() -> None:
    cells = [code("%matplotlib inline\nbeta = 0.9\n!ls", stdout("x = 1\n")), MARKDOWN,
             code(["gamma = 0.5\n", "print(gamma)"], stdout("0.5\n"))]
    assert cells_transcript(cells, {}).script == "\nbeta = 0.9\n\ngamma = 0.5\nprint(gamma)"


def test_a_cells_error_fails_the_run_at_the_line_its_traceback_names() -> None:
    cells = [code("x = 1", stdout("x = 1\n")), MARKDOWN,
             code("y = 1 / 0", error("ZeroDivisionError", "division by zero", 3))]
    run = cells_transcript(cells, {})
    assert (run.failure, run.failed_cell, run.failed_line) == (
        "ZeroDivisionError: division by zero", 2, 3)


def test_an_expected_error_is_no_failure() -> None:
    raising = code("raise ValueError", error("ValueError", "", 1), tags=("raises-exception",))
    printing = code("print", stdout("x = 1\n"))
    assert cells_transcript([raising, printing], {}).failure is None
    other = code("raise KeyError", error("KeyError", "'k'", 1))
    assert cells_transcript([other, printing], {}, allow_errors=True).failure is None
    assert cells_transcript([other, printing], {}).failure == "KeyError: 'k'"


def test_a_timeout_is_the_failure_of_the_cell_it_interrupted() -> None:
    cells = [code("x = 1", stdout("x = 1\n")),
             code("sleep", error("KeyboardInterrupt", "", 2)), code("z = 3", count=None)]
    run = cells_transcript(cells, {}, execution_error="CellTimeoutError")
    assert (run.failure, run.failed_cell, run.failed_line) == ("CellTimeoutError", 1, 2)


def test_another_executor_error_is_placed_at_the_first_cell_that_did_not_run() -> None:
    cells = [code("x = 1", stdout("x = 1\n")), code("z = 3", count=None)]
    run = cells_transcript(cells, {}, execution_error="DeadKernelError")
    assert (run.failure, run.failed_cell) == ("DeadKernelError", 1)


def test_a_notebook_never_executed_or_silent_fails() -> None:
    never = cells_transcript([MARKDOWN, code("print(1)", count=None)], {})
    assert never.failed_cell == 1 and "not executed" in (never.failure or "")
    silent = cells_transcript([code("x = 1")], {})
    assert silent.failure == "the notebook's cells printed nothing"
    glued_only = cells_transcript([code("glue")], {"p": {"data": {"text/plain": "0.5"}}})
    assert glued_only.failure is None and glued_only.transcript == "p = 0.5\n"


@pytest.mark.parametrize(("line", "cell"), [
    (10002, (0, 1)), (30008, (2, 7)), (20003, (1, 2)), (10001, None), (9999, None), (42, None)])
def test_the_cell_of_an_ipynb_line(line: int, cell: tuple[int, int] | None) -> None:
    assert cell_of_line(line) == cell


def test_a_location_a_person_can_use() -> None:
    assert located("book/nb.ipynb", 30008) == "book/nb.ipynb:cell 3, line 7"
    assert located("book/nb.md", 30008) == "book/nb.md:30008"
    assert located("book/nb.ipynb", None) == "book/nb.ipynb"
    assert located("book/nb.ipynb", 12) == "book/nb.ipynb:12"


@pytest.mark.parametrize("line", [30008, 10002, 12])
def test_a_location_reads_back_as_it_was_written(line: int) -> None:
    for page in ("book/nb.ipynb", "book/a.md"):
        assert read_location(located(page, line)) == (page, line)
    assert read_location("nb.ipynb:cell 0, line 2") is None
    assert read_location("nb.md:twelve") is None


def notebook(*sources: str | list[str]) -> str:
    cells = [{"cell_type": "markdown", "id": f"c{n}", "metadata": {}, "source": source}
             for n, source in enumerate(sources)]
    data = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def test_an_edit_changes_those_digits_of_the_json_and_nothing_else() -> None:
    text = notebook("# Title", ["So $q = 0.6226$,\n", "\n", "and $r = 0.5$ — “quoted”.\n"])
    edits = [CellEdit(20002, 8, "0.6226", "0.6225"), CellEdit(20004, 9, "0.5", "0.4")]
    new, missed = edit_cells(text, edits)
    assert missed == []
    changed = [(a, b) for a, b in zip(text.split("\n"), new.split("\n"), strict=True) if a != b]
    assert changed == [('    "So $q = 0.6226$,\\n",', '    "So $q = 0.6225$,\\n",'),
                       ('    "and $r = 0.5$ — “quoted”.\\n"', '    "and $r = 0.4$ — “quoted”.\\n"')]


def test_a_source_kept_as_one_string_stays_one() -> None:
    new, _ = edit_cells(notebook("a\nSo $q = 0.6226$."), [CellEdit(10003, 8, "0.6226", "0.6225")])
    assert json.loads(new)["cells"][0]["source"] == "a\nSo $q = 0.6225$."


def test_digits_no_longer_where_they_were_are_returned_not_guessed() -> None:
    text = notebook("So $q = 0.6226$.")
    edit = CellEdit(10002, 8, "0.6227", "0.6225")
    assert edit_cells(text, [edit]) == (text, [edit])
    assert edit_cells(text, [CellEdit(50002, 0, "1", "2")])[1] != []


def test_a_notebook_in_another_layout_is_refused_with_the_reason() -> None:
    compact = json.dumps(json.loads(notebook("So $q = 0.6226$.")))
    with pytest.raises(LayoutError, match="save it from Jupyter"):
        edit_cells(compact, [CellEdit(10002, 9, "0.6226", "0.6225")])
    with pytest.raises(LayoutError, match="not a notebook"):
        edit_cells("{not json", [])


def test_a_value_printed_and_glued_under_one_name_is_one_entry() -> None:
    cells = [code("print", stdout("p = [0.26894142 0.73105858]\nq = 0.5\n"))]
    glued = {"p": {"data": {"text/plain": "array([0.2689414213699951, 0.7310585786300049])"}},
             "q": {"data": {"text/plain": "0.6"}}}
    run = cells_transcript(cells, glued)
    assert run.transcript == "p = [0.26894142 0.73105858]\nq = 0.5\nq = 0.6\n"
    [problem] = read_transcript(run.transcript).problems
    assert "q is printed twice, on lines 2 and 3" in problem.message
