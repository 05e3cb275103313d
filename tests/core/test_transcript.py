"""Reading snippet output: every print format numpy and Python produce, problems, free numbers."""

from __future__ import annotations

import contextlib
import io
import math
import sys
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from verified_problems.core import Entry, read_transcript


def entry(text: str, name: str = "X") -> Entry:
    """The one entry ``name`` of ``text``, which must parse without problems."""
    transcript = read_transcript(text)
    assert transcript.problems == []
    return transcript.entries[name]


def same_numbers(values: tuple[str, ...], expected: list[str]) -> bool:
    """Equal as decimals, element by element (numpy may drop zeros that formatting keeps)."""
    return len(values) == len(expected) and all(
        Decimal(v) == Decimal(e) for v, e in zip(values, expected, strict=True)
    )


def softmax_rows() -> Any:
    """The attention weights of problem II.3.B01, computed as the snippet would."""
    q = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    z = q @ q.T / np.sqrt(2)
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def fixed(array: Any, places: int) -> list[str]:
    """The elements of ``array`` rounded by Python's own formatting (exact on the binary value)."""
    return [format(x, f".{places}f") for x in np.asarray(array, dtype=float).ravel().tolist()]


# --- scalars ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("printed", "value"),
    [
        ("3", "3"),
        ("-12", "-12"),
        ("0.4011", "0.4011"),
        ("-0.4011", "-0.4011"),
        (".5", ".5"),
        ("1.", "1."),
        ("1.2e-05", "1.2e-05"),
        ("-3E+02", "-3E+02"),
        ("1.e+20", "1.e+20"),
        ("nan", "nan"),
        ("inf", "inf"),
        ("-inf", "-inf"),
        ("-0.", "-0."),
        ("-0.0", "-0.0"),
        ("+0.5", "0.5"),
    ],
)
def test_a_scalar(printed: str, value: str) -> None:
    assert entry(f"X = {printed}") == Entry("X", (), (value,), 1)


@pytest.mark.parametrize(
    ("scalar", "value"),
    [
        (np.float64(0.4011), "0.4011"),
        (np.float64(-0.0), "-0.0"),
        (np.float64("nan"), "nan"),
        (np.float64("-inf"), "-inf"),
        (np.float64(1.2e-5), "1.2e-05"),
        (np.int64(3), "3"),
        (np.float32(0.1), "0.1"),
        (np.longdouble("0.1"), "0.1"),
    ],
)
def test_numpy_scalar_reprs(scalar: Any, value: str) -> None:
    printed = repr(scalar)
    assert printed.startswith("np.")
    assert entry(f"X = {printed}\n").values == (value,)
    assert entry(f"X = {scalar!s}\n").values == (value,)


@pytest.mark.parametrize("printed", ["numpy.float64(0.4011)", "np.float16(0.4011)"])
def test_other_numpy_scalar_spellings(printed: str) -> None:
    assert entry(f"X = {printed}") == Entry("X", (), ("0.4011",), 1)


def test_python_and_decimal_scalars() -> None:
    from decimal import Decimal as D

    assert entry(f"X = {round(0.40111, 4)}").values == ("0.4011",)
    assert entry(f"X = {D('0.4010')!r}").values == ("0.4010",)


def test_spacing_around_the_name() -> None:
    text = "  d_k = 2\nx=0.5\nA2   =   [1, 2]\n"
    transcript = read_transcript(text)
    assert transcript.entries["d_k"] == Entry("d_k", (), ("2",), 1)
    assert transcript.entries["x"] == Entry("x", (), ("0.5",), 2)
    assert transcript.entries["A2"] == Entry("A2", (2,), ("1", "2"), 3)


# --- Python lists and tuples -----------------------------------------------------------------


def test_a_list_of_rounded_floats() -> None:
    row = [round(x, 4) for x in softmax_rows()[0].tolist()]
    assert entry(f"a_1 = {row}", "a_1") == Entry("a_1", (3,), ("0.4011", "0.1978", "0.4011"), 1)


def test_a_tuple_and_a_one_tuple() -> None:
    assert entry(f"X = {(0.1, 0.2)}") == Entry("X", (2,), ("0.1", "0.2"), 1)
    assert entry(f"X = {(0.5,)}") == Entry("X", (1,), ("0.5",), 1)


def test_nested_lists() -> None:
    assert entry(f"X = {[[1, 2], [3, 4]]}") == Entry("X", (2, 2), ("1", "2", "3", "4"), 1)
    cube = np.arange(8).reshape(2, 2, 2).tolist()
    assert entry(f"X = {cube}").shape == (2, 2, 2)


def test_lists_of_numpy_scalars() -> None:
    row = list(np.round(softmax_rows()[0], 4))
    printed = repr(row)
    assert "np.float64(" in printed
    assert entry(f"X = {printed}") == Entry("X", (3,), ("0.4011", "0.1978", "0.4011"), 1)
    nested = [list(r) for r in np.round(softmax_rows(), 4)]
    assert entry(f"X = {nested}").shape == (3, 3)


def test_a_list_of_arrays() -> None:
    printed = repr([np.array([1.0, 2.0]), np.array([3.0, 4.0])])
    assert entry(f"X = {printed}") == Entry("X", (2, 2), ("1.", "2.", "3.", "4."), 1)


def test_nan_inf_and_negative_zero_in_a_list() -> None:
    printed = str([math.nan, math.inf, -math.inf, -0.0])
    assert entry(f"X = {printed}").values == ("nan", "inf", "-inf", "-0.0")


def test_an_empty_list() -> None:
    assert entry("X = []") == Entry("X", (0,), (), 1)
    assert entry("X = [[], []]") == Entry("X", (2, 0), (), 1)


# --- numpy arrays ----------------------------------------------------------------------------

OPTIONS: list[dict[str, Any]] = [
    {},
    {"precision": 4},
    {"precision": 4, "suppress": True},
    {"precision": 4, "floatmode": "fixed"},
    {"precision": 4, "linewidth": 20},
    {"precision": 4, "sign": " "},
    {"precision": 4, "sign": "+"},
    {"precision": 3, "floatmode": "maxprec_equal", "linewidth": 30, "suppress": True},
]
SHAPES = [(4,), (3, 3), (2, 3, 2)]


def arrays() -> Iterator[Any]:
    weights = softmax_rows()
    yield weights[0]
    yield weights
    yield np.concatenate([weights, -weights], axis=1)[:, :4].reshape(2, 3, 2)
    yield np.array([[1.0, 1.0, 1.0]])
    yield np.array([0.0, -0.5])
    yield np.array([[1e-5, 2.5], [300.0, -4e-3]])
    yield np.array([[1, -2, 3], [40, 5, 6]])


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("form", [str, repr])
def test_numpy_arrays_under_print_options(options: dict[str, Any], form: Any) -> None:
    for array in arrays():
        with np.printoptions(**options):
            printed = form(array)
        expected = fixed(array, options.get("precision", 8))
        got = entry(f"X = {printed}\nafter = 1\n")
        assert got.shape == array.shape, printed
        if options.get("suppress") or "e" not in printed:
            assert same_numbers(got.values, expected), printed
        else:
            assert [Decimal(v) for v in got.values] == [
                Decimal(np.format_float_scientific(x, precision=options.get("precision", 8)))
                for x in array.ravel()
            ]


def test_linewidth_wraps_a_row_over_several_lines() -> None:
    with np.printoptions(precision=4, linewidth=20):
        printed = str(softmax_rows())
        printed_repr = repr(softmax_rows())
    assert printed.count("\n") > 2 and printed_repr.count("\n") > 2
    text = f"intro 7\nA = {printed}\nB = {printed_repr}\nafter = 1"
    transcript = read_transcript(text)
    assert transcript.problems == []
    assert transcript.entries["A"].line == 2
    assert transcript.entries["B"].line == 2 + printed.count("\n") + 1
    assert transcript.entries["after"].line == text.count("\n") + 1
    assert same_numbers(transcript.entries["A"].values, fixed(softmax_rows(), 4))
    assert transcript.entries["B"].values == transcript.entries["A"].values


def test_the_str_of_a_matrix_as_the_seed_prints_it() -> None:
    text = "A = [[0.4011 0.1978 0.4011]\n [0.1978 0.4011 0.4011]]\n"
    assert entry(text, "A") == Entry(
        "A", (2, 3), ("0.4011", "0.1978", "0.4011", "0.1978", "0.4011", "0.4011"), 1
    )


def test_row_of_ones_and_a_sign_column() -> None:
    assert entry("X = [1. 1. 1.]").values == ("1.", "1.", "1.")
    assert entry("X = [ 0.  -0.5]").values == ("0.", "-0.5")


def test_an_array_repr_across_lines() -> None:
    text = "A = array([[0.40111, 0.19778],\n       [0.1, 0.2]])"
    assert entry(text, "A") == Entry("A", (2, 2), ("0.40111", "0.19778", "0.1", "0.2"), 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int8, np.uint64])
def test_a_repr_with_a_dtype(dtype: Any) -> None:
    printed = repr(np.array([[1, 2], [3, 4]], dtype=dtype))
    assert entry(f"X = {printed}").shape == (2, 2)


def test_empty_arrays() -> None:
    assert entry(f"X = {np.zeros(0)!r}") == Entry("X", (0,), (), 1)
    assert entry(f"X = {np.zeros(0)}") == Entry("X", (0,), (), 1)
    assert entry(f"X = {np.zeros((0, 3))!r}") == Entry("X", (0, 3), (), 1)
    assert entry(f"X = {np.zeros((2, 0))!r}") == Entry("X", (2, 0), (), 1)


def test_a_zero_dimensional_array() -> None:
    assert entry(f"X = {np.array(1.5)!r}") == Entry("X", (), ("1.5",), 1)
    assert entry(f"X = {np.array(1.5)}") == Entry("X", (), ("1.5",), 1)


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_matrix_reprs() -> None:
    m = np.matrix([[1.5, 2.0], [3.0, 4.0]])
    assert entry(f"M = {m!r}", "M") == Entry("M", (2, 2), ("1.5", "2.", "3.", "4."), 1)
    assert entry(f"M = {m}", "M").shape == (2, 2)


def test_the_value_may_start_on_the_next_line() -> None:
    transcript = read_transcript(f"heading\nA =\n{np.eye(2)}\nB = 2\n")
    assert transcript.entries["A"] == Entry("A", (2, 2), ("1.", "0.", "0.", "1."), 2)
    assert transcript.entries["B"].line == 5


def test_a_three_dimensional_array_has_blank_lines_inside() -> None:
    printed = str(np.arange(8).reshape(2, 2, 2))
    assert "\n\n" in printed
    text = f"T = {printed}\nU = 1"
    assert entry(text, "T") == Entry("T", (2, 2, 2), tuple(str(i) for i in range(8)), 1)
    assert read_transcript(text).entries["U"].line == printed.count("\n") + 2


# --- not entries -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "name = Alice",
        "ok = True",
        "exp(-0.7071) = 0.4931",
        "x[0] = 0.5",
        "A.T = 0.5",
        "c = (1+2j)",
        f"c = {np.complex128(1 + 2j)!r}",
        f"c = {np.array([1 + 2j, 3 - 1j])}",
        "x == 0.5",
        "x = ",
        "x = 0x1F",
        f"s = {np.array(['a', 'b'])!r}",
        f"b = {np.array([True, False])}",
        "x = [1, 2)",
        "x = np.float64('abc')",
        "x = array([1, 2], order='F')",
        # a value run on into a word, a number or an expression is no number
        "x = 0.5rad",
        "x = 1+2j",
        "d = 2024-05-01",
        "t = 12:30",
        "r = 3/4",
        "v = 1.2.3",
        "x = 0.5.",
    ],
)
def test_free_text_is_not_an_entry(line: str) -> None:
    transcript = read_transcript(line + "\n")
    assert transcript.entries == {}
    assert transcript.problems == []


# --- a note after the value ------------------------------------------------------------------


def printed(*lines: tuple[Any, ...]) -> str:
    """What ``print(*args)`` writes for each tuple of arguments, one call a tuple."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for args in lines:
            print(*args)
    return out.getvalue()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (printed(("w =", 0.5, "rad")), "0.5"),
        (printed(("p =", round(0.731058, 4), "(rounded)")), "0.7311"),
        (printed(("p =", np.float64(0.7311), "(rounded)")), "0.7311"),
        (printed(("p =", repr(np.float64(0.7311)), "(rounded)")), "0.7311"),
        ("A = 0.5 # rounded", "0.5"),
        ("x = 3 apples", "3"),
        ("x = 0.5 (approx)", "0.5"),
        ("x = 0.5(approx)", "0.5"),
        ("x = 0.5, rounded", "0.5"),
        ("x = 0.5: the weight", "0.5"),
        ("x = -0.25 m/s", "-0.25"),
        ("t = 1.5 s (float64)", "1.5"),
        ("x = 1e-05 — small", "1e-05"),
        ("x = nan (no data)", "nan"),
        ("x = 0.5 (rounded, see below", "0.5"),
    ],
)
def test_a_note_after_a_number_is_ignored(text: str, value: str) -> None:
    name = text.split("=")[0].strip()
    transcript = read_transcript(text)
    assert transcript.problems == []
    assert transcript.entries == {name: Entry(name, (), (value,), 1)}
    assert transcript.numbers == (value,)


@pytest.mark.parametrize(
    ("text", "shape", "values"),
    [
        (printed(("v =", [0.1, 0.2], "(unit vector)")), (2,), ("0.1", "0.2")),
        (printed(("v =", (0.1, 0.2), "m")), (2,), ("0.1", "0.2")),
        (printed(("v =", [np.float64(0.1), np.float64(0.2)], "(rounded)")), (2,),
         ("0.1", "0.2")),
        (printed(("v =", [[1, 2], [3, 4]], "(row-major)")), (2, 2), ("1", "2", "3", "4")),
        (printed(("v =", np.array([0.5, 1.5]), "rad")), (2,), ("0.5", "1.5")),
        (printed(("v =", repr(np.array([0.5, 1.5])), "rad")), (2,), ("0.5", "1.5")),
    ],
)
def test_a_note_after_a_list_tuple_or_array_on_one_line(
    text: str, shape: tuple[int, ...], values: tuple[str, ...]
) -> None:
    assert entry(text, "v") == Entry("v", shape, values, 1)


@pytest.mark.parametrize("form", [str, repr])
@pytest.mark.parametrize("linewidth", [75, 20])
def test_a_note_after_a_numpy_array_over_several_lines(form: Any, linewidth: int) -> None:
    with np.printoptions(precision=4, linewidth=linewidth):
        shown = form(softmax_rows())
    assert shown.count("\n") >= 2
    text = printed(("intro 7",), ("A =", shown, "(row-major)"), ("after =", 1))
    transcript = read_transcript(text)
    assert transcript.problems == []
    a = transcript.entries["A"]
    assert (a.line, a.shape) == (2, (3, 3))
    assert same_numbers(a.values, fixed(softmax_rows(), 4))
    assert transcript.entries["after"].line == 2 + shown.count("\n") + 1


def test_a_note_after_an_array_that_starts_on_the_next_line() -> None:
    text = printed(("heading",), ("A =\n", np.eye(2), "(identity)"), ("B =", 2))
    assert text.startswith("heading\nA =\n [[1. 0.]\n [0. 1.]] (identity)\n")
    transcript = read_transcript(text)
    assert transcript.problems == []
    assert transcript.entries["A"] == Entry("A", (2, 2), ("1.", "0.", "0.", "1."), 2)
    assert transcript.entries["B"].line == 5


def test_a_note_after_a_three_dimensional_array() -> None:
    shown = str(np.arange(8).reshape(2, 2, 2))
    text = printed(("T =", shown, "(two 2 by 2 blocks)"), ("U =", 1))
    # the note's "2 by 2" is on the line where the value ends: another number, a problem
    transcript = read_transcript(text)
    assert transcript.entries.keys() == {"U"}
    (problem,) = transcript.problems
    assert problem.where == 1 and f"(on line {shown.count(chr(10)) + 1})" in problem.message
    text = printed(("T =", shown, "(two blocks)"), ("U =", 1))
    assert entry(text, "T") == Entry("T", (2, 2, 2), tuple(str(i) for i in range(8)), 1)


def test_brackets_in_a_note_do_not_take_the_next_line() -> None:
    transcript = read_transcript("A = [[1 2]\n [3 4]] (see the\nB = 1\n")
    assert transcript.problems == []
    assert transcript.entries["A"] == Entry("A", (2, 2), ("1", "2", "3", "4"), 1)
    assert transcript.entries["B"] == Entry("B", (), ("1",), 3)


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("x = 0.5 or 0.6", ("0.5", "0.6")),
        ("x = 1, 2", ("1", "2")),
        ("n = 1,000", ("1", "000")),
        ("x = [1, 2] and [3, 4]", ("1", "2", "3", "4")),
        ("x = [1, 2] [3, 4]", ("1", "2", "3", "4")),
        ("x = 0.5 (after 3 steps)", ("0.5", "3")),
        ("x = np.float64(0.5) 0.6", ("0.5", "0.6")),
        (printed(("x =", 0.5, "or", 0.6)), ("0.5", "0.6")),
    ],
)
def test_a_note_with_another_number_is_a_located_problem(
    text: str, numbers: tuple[str, ...]
) -> None:
    transcript = read_transcript(f"intro\n{text}\nafter = 1\n")
    assert transcript.entries.keys() == {"after"}
    (problem,) = transcript.problems
    assert problem.where == 2
    name = text.split()[0]
    assert problem.message == (
        f"{name} on line 2 of the output has another number after its value, so which number "
        f"is {name} cannot be told: print the note without digits, or on a line of its own."
    )
    assert transcript.numbers == (*numbers, "1")


def test_a_note_with_another_number_after_a_multi_line_array() -> None:
    text = printed(("A =", np.eye(2), "or", np.zeros(2)), ("B =", 1))
    transcript = read_transcript(text)
    assert transcript.entries.keys() == {"B"}
    (problem,) = transcript.problems
    assert problem.where == 1
    assert "A on line 1 of the output has another number after its value (on line 2)" in (
        problem.message)
    assert transcript.numbers == ("1.", "0.", "0.", "1.", "0.", "0.", "1")


@pytest.mark.parametrize(
    "text",
    ["x = 2 - y", "x = 0.5 ± 0.1", "x = 0.5 * scale", "x = 2 -", "x = [1, 2] + [3, 4]",
     "x = 0.5 <= tol", "x = 3 × 10"],
)
def test_an_operator_after_the_value_is_a_located_problem(text: str) -> None:
    transcript = read_transcript(text)
    assert transcript.entries == {}
    (problem,) = transcript.problems
    assert problem.where == 1
    assert problem.message.startswith(
        "x on line 1 of the output goes on with an operator after its value, so it reads as an "
        "expression rather than one value")


@pytest.mark.parametrize("text", ["acc = 82.47%", "acc = 82.47 % (test set)",
                                  "acc = [82.47, 90.1] %"])
def test_a_percentage_is_a_located_problem(text: str) -> None:
    transcript = read_transcript(text)
    assert transcript.entries == {}
    (problem,) = transcript.problems
    assert problem.where == 1
    assert problem.message == (
        "acc on line 1 of the output is printed as a percentage, and the number before the "
        "percent sign is not its value: print the fraction itself, without the sign, or the "
        "percentage under a name that says so (acc_pct = …).")


def test_free_text_numbers_before_a_percent_sign_are_percentages() -> None:
    transcript = read_transcript("removed 0.84% of it, then 12 %\nand 3 of 5\n")
    assert transcript.percentages == ("0.84", "12")
    assert transcript.numbers == ("0.84", "12", "3", "5")


def test_several_quantities_on_one_line() -> None:
    text = printed(
        ("w =", 0.3, "and b =", 0.1),
        ("x =", 1, ", y =", 2, "(counts)"),
        ("p =", 0.5, "(q =", 0.25, "as well)"),
    )
    transcript = read_transcript(text)
    assert transcript.problems == []
    assert transcript.entries == {
        "w": Entry("w", (), ("0.3",), 1),
        "b": Entry("b", (), ("0.1",), 1),
        "x": Entry("x", (), ("1",), 2),
        "y": Entry("y", (), ("2",), 2),
        "p": Entry("p", (), ("0.5",), 3),
        "q": Entry("q", (), ("0.25",), 3),
    }
    assert transcript.numbers == ("0.3", "0.1", "1", "2", "0.5", "0.25")


def test_a_quantity_after_a_multi_line_array_and_before_one() -> None:
    text = printed(("A =", np.eye(2), "and w =", 0.3), ("v =", 0.5, "and B =", np.eye(2)),
                   ("after =", 1))
    transcript = read_transcript(text)
    assert transcript.problems == []
    assert {name: e.line for name, e in transcript.entries.items()} == {
        "A": 1, "w": 2, "v": 3, "B": 3, "after": 5}
    assert transcript.entries["B"] == Entry("B", (2, 2), ("1.", "0.", "0.", "1."), 3)


def test_what_a_note_says_equals_something_else_is_free_text() -> None:
    transcript = read_transcript("x = 0.5 and exp(-x) = 0.6065\ny = 2 where z.T = 3\n")
    assert transcript.problems == []
    assert transcript.entries.keys() == {"x", "y"}
    assert transcript.numbers == ("0.5", "0.6065", "2", "3")


def test_a_number_before_the_next_quantity_is_still_a_problem() -> None:
    transcript = read_transcript("x = 0.5 or 0.6 and y = 1\n")
    assert transcript.entries == {}
    assert [p.where for p in transcript.problems] == [1]
    assert transcript.numbers == ("0.5", "0.6", "1")


def test_a_name_printed_twice_with_a_note() -> None:
    transcript = read_transcript("w = 0.5 rad\nw = 0.6 rad\n")
    assert transcript.entries == {"w": Entry("w", (), ("0.5",), 1)}
    assert [p.where for p in transcript.problems] == [2]


def test_note_problem_messages_are_one_sentence_without_jargon() -> None:
    text = "a = 1 or 2\nb = 2 - y\nc = 50%\nd = [[1 2]\n [3 4]] and 5\n"
    problems = read_transcript(text).problems
    assert [p.where for p in problems] == [1, 2, 3, 4]
    for problem in problems:
        assert "." not in problem.message.removesuffix(".")
        for jargon in ("list", "tuple", "exception", "parse", "token", "ndarray"):
            assert jargon not in problem.message.lower()


# --- problems --------------------------------------------------------------------------------


def test_brackets_that_never_close() -> None:
    transcript = read_transcript("intro\nA = [[0.4011 0.1978]\n [0.1978 0.4011]\nB = 2\n")
    assert transcript.entries.keys() == {"B"}
    (problem,) = transcript.problems
    assert problem.where == 2
    assert "A" in problem.message and "line 2" in problem.message
    assert "never close" in problem.message


def test_a_summarised_array() -> None:
    printed = str(np.arange(2000))
    assert "..." in printed
    transcript = read_transcript(f"big = {printed}\n")
    assert transcript.entries == {}
    (problem,) = transcript.problems
    assert problem.where == 1 and "big" in problem.message
    assert "np.set_printoptions(threshold=sys.maxsize)" in problem.message
    assert transcript.numbers == ("0", "1", "2", "1997", "1998", "1999")


def test_a_summarised_matrix_over_several_lines() -> None:
    printed = repr(np.zeros((100, 100)))
    transcript = read_transcript(f"Z = {printed}\nafter = 1\n")
    assert [p.where for p in transcript.problems] == [1]
    assert transcript.entries.keys() == {"after"}


def test_a_ragged_list() -> None:
    transcript = read_transcript("x = 1\nr = [[1, 2], [3]]\n")
    assert transcript.entries.keys() == {"x"}
    (problem,) = transcript.problems
    assert problem.where == 2
    assert "r" in problem.message and "(2, 1)" in problem.message


def test_a_ragged_list_deeper_down() -> None:
    (problem,) = read_transcript("r = [[[1, 2]], [[1], [2]]]").problems
    assert "(1, 2)" in problem.message


def test_a_list_mixing_numbers_and_rows() -> None:
    (problem,) = read_transcript("m = [1, [2, 3]]").problems
    assert "mixes" in problem.message


def test_a_name_printed_twice() -> None:
    transcript = read_transcript("A = 0.5\nnote\nA = [1, 2]\n")
    assert transcript.entries == {"A": Entry("A", (), ("0.5",), 1)}
    (problem,) = transcript.problems
    assert problem.where == 3
    assert "lines 1 and 3" in problem.message
    assert "once" in problem.message and "distinct names" in problem.message
    assert transcript.numbers == ("0.5", "1", "2")


def test_problem_messages_are_one_sentence_without_jargon() -> None:
    text = "A = 1\nA = 2\nB = [1, [2]]\nC = [[1], [2, 3]]\nD = [0 1 ... 8 9]\nE = [1, 2\n"
    problems = read_transcript(text).problems
    assert len(problems) == 5
    for problem in problems:
        body = problem.message.removesuffix(".").replace("e.g. ", "").replace("'...'", "")
        assert "." not in body.replace("np.set_printoptions", "").replace("sys.maxsize", "")
        for jargon in ("list", "tuple", "exception", "parse", "token", "ndarray"):
            assert jargon not in problem.message.lower()


# --- every number ----------------------------------------------------------------------------


def test_numbers_in_free_text() -> None:
    transcript = read_transcript(
        f"exp(-0.7071) = 0.4931\nrow sums: {np.ones(3)}\nsoftmax denominators 2.4931, 1.9862\n"
    )
    assert transcript.entries == {}
    assert transcript.numbers == ("-0.7071", "0.4931", "1.", "1.", "1.", "2.4931", "1.9862")


def test_numbers_include_entries_in_order() -> None:
    text = "step 1\nS = [[1 0]\n [0 1]]\nz - max = (0, -0.7071, 0)\nx = np.float64(0.5)"
    assert read_transcript(text).numbers == (
        "1", "1", "0", "0", "1", "0", "-0.7071", "0", "0.5",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("line", "numbers"),
    [
        ("x2 a_1 float64 = 3", ("3",)),
        ("np.float64(0.25) and numpy.int64(7)", ("0.25", "7")),
        ("1st 2nd 3x 0x1F", ()),
        ("version 1.2.3 of it", ()),
        ("2024-05-01", ("2024", "05", "01")),
        ("f(x)-1 and a-b-2 and [3]-4", ("1", "2", "3", "4")),
        ("e^-0.5, (-1), =-2, -3", ("-0.5", "-1", "-2", "-3")),
        ("1,000", ("1", "000")),
        ("50% at 12:30", ("50", "12", "30")),
        ("it is 0.5.", ("0.5",)),
        ("nan inf -inf infinity banana", ("nan", "inf", "-inf")),
        ("1e-05 and 2.5E+3 and 4e", ("1e-05", "2.5E+3")),
        (".5 and 1. and +2", (".5", "1.", "2")),
        ("np.float64(0.5)", ("0.5",)),
    ],
)
def test_which_free_text_is_a_number(line: str, numbers: tuple[str, ...]) -> None:
    assert read_transcript(line).numbers == numbers


def test_numbers_of_problem_values_are_still_printed_numbers() -> None:
    transcript = read_transcript("r = [[1.5, 2], [3]]\nu = [0.25\n")
    assert transcript.numbers == ("1.5", "2", "3", "0.25")


def test_windows_line_endings() -> None:
    transcript = read_transcript("A = [[1 2]\r\n [3 4]]\r\nb = 0.5\r\n")
    assert transcript.entries["A"].shape == (2, 2)
    assert transcript.entries["b"] == Entry("b", (), ("0.5",), 3)


def test_an_empty_output() -> None:
    transcript = read_transcript("")
    assert (transcript.entries, transcript.numbers, transcript.problems) == ({}, (), [])


def test_silly_nesting_is_free_text() -> None:
    transcript = read_transcript("x = " + "[" * 200 + "1" + "]" * 200)
    assert transcript.entries == {} and transcript.numbers == ("1",)


# --- a round trip through numpy's own printing -----------------------------------------------

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)


def assert_round_trip(values: tuple[str, ...], array: Any, shortest: bool) -> None:
    """Each value is the element's decimal, exactly; ``shortest`` when printed as ``repr`` does.

    numpy's ``floatmode='unique'`` may give every element of an array in scientific notation as
    many digits as the longest needs, taking the extra digits from the exact binary value
    (``3.2572808991188408e+16`` where ``repr`` says ``3.257280899118841e+16``): those still
    denote the same float, which the float in this test (never the parser) confirms.
    """
    for value, x in zip(values, np.asarray(array, dtype=float).ravel().tolist(), strict=True):
        if math.isnan(x):
            assert value == "nan"
            continue
        expected = Decimal(repr(x))
        if shortest:
            assert Decimal(value) == expected
        else:
            assert float(value) == x
        assert Decimal(value).is_signed() == expected.is_signed()


@settings(max_examples=300, deadline=None)
@given(
    array=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=5),
        elements=FLOATS,
    ),
    form=st.sampled_from([str, repr]),
    linewidth=st.sampled_from([20, 75, 200]),
    sign=st.sampled_from(["-", " ", "+"]),
)
def test_numpy_prints_round_trip(array: Any, form: Any, linewidth: int, sign: Any) -> None:
    with np.printoptions(floatmode="unique", threshold=sys.maxsize, linewidth=linewidth, sign=sign):
        printed = form(array)
    got = entry(f"before 1\nX = {printed}\nafter = 2\n")
    assert got.shape == array.shape
    assert got.line == 2
    assert_round_trip(got.values, array, shortest="e" not in printed)


@settings(max_examples=200, deadline=None)
@given(
    array=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
        elements=FLOATS,
    ),
    scalars=st.booleans(),
)
def test_python_lists_round_trip(array: Any, scalars: bool) -> None:
    as_list = [np.float64(x) for x in array.ravel()] if scalars else array.tolist()
    got = entry(f"X = {as_list}")
    assert got.shape == ((array.size,) if scalars else array.shape)
    assert_round_trip(got.values, array, shortest=True)


NOTES = ["rad", "(rounded)", "# rounded", "(row-major)", "m/s", "— the weights", ", done",
         "(see the table"]


@settings(max_examples=200, deadline=None)
@given(
    array=hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4),
        elements=FLOATS,
    ),
    form=st.sampled_from([str, repr]),
    linewidth=st.sampled_from([20, 75]),
    note=st.sampled_from(NOTES),
)
def test_a_note_never_changes_the_value(array: Any, form: Any, linewidth: int, note: str) -> None:
    with np.printoptions(floatmode="unique", threshold=sys.maxsize, linewidth=linewidth):
        shown = form(array)
    plain = entry(f"X = {shown}\n")
    noted = entry(printed(("before 1",), ("X =", shown, note), ("after =", 2)))
    assert (noted.shape, noted.values, noted.line) == (plain.shape, plain.values, 2)
