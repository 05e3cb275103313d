"""Finding a number of the prose again in its source file (unit tests, no Sphinx)."""

from __future__ import annotations

from verified_problems.core import Cursor

TABLE = (
    "| x | log2 x |",
    "|---|---|",
    "| 0.25 | -2.0 |",
    "| 4.0 | 2.0 |",
)


def test_an_unsigned_number_is_not_found_in_a_signed_one() -> None:
    # Each cell is found from the top of its table: 2.0 used to be placed in row 1's -2.0,
    # so an error about row 2 named row 1's line.
    assert Cursor(TABLE, 0).find_number("2.0") == (3, 8)
    assert Cursor(TABLE, 0).find_number("-2.0") == (2, 9)


def test_a_minus_that_subtracts_is_no_sign() -> None:
    assert Cursor(("so 1-0.5 is left",), 0).find_number("0.5") == (0, 5)
    assert Cursor(("so 1 -0.5 is left",), 0).find_number("0.5") is None


def test_a_sign_written_as_u2212_is_found() -> None:
    assert Cursor(("x = (−0.7071, 0)",), 0).find_number("-0.7071") == (0, 5)


def test_the_cursor_moves_forward() -> None:
    cursor = Cursor(("0.5 and 0.5", "0.5"), 0)
    assert [cursor.find_number("0.5") for _ in range(4)] == [(0, 0), (0, 8), (1, 0), None]


def test_digits_in_an_inline_code_span_are_not_the_prose_number() -> None:
    # The fixer rewrites a number where it is found: never inside code.
    lines = ("Check `ci[0] = 0.411`, then", "read the lower end, 0.411, again.")
    assert Cursor(lines, 0).find_number("0.411") == (1, 20)
    assert Cursor(("``a = `0.5` `` and 0.5",), 0).find_number("0.5") == (0, 19)
    assert Cursor(("{unchecked}`0.5` and 0.5",), 0).find_number("0.5") == (0, 12)  # a role


def test_a_sign_written_as_an_entity_is_found() -> None:
    assert Cursor(("at &minus;1.6 from lam",), 0).find_number("-1.6") == (0, 3)


def test_a_formula_quoted_as_code_before_it_is_written_as_math_is_placed_at_the_math() -> None:
    # The math's LaTeX was found in the code span first: its error (and make fix) named the code.
    lines = ("A unit (`t = 0.25\\,\\mathrm{s}`) leaves it named:", "$t = 0.25\\,\\mathrm{s}$.")
    assert Cursor(lines, 0).place_block("t = 0.25\\,\\mathrm{s}") == [(1, 1)]
    assert Cursor(("`x = 1` and $x = 1$",), 0).place_block("x = 1") == [(0, 13)]
