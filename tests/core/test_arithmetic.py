"""The prose's own arithmetic, by the book's policy, and what it derives (no Sphinx).

An equation holds when it holds for the digits as written, or for the full-precision values
they stand for (the printed ones); each result is rounded to the places written, padded to the
policy's (DESIGN §4).
"""

from __future__ import annotations

import pytest
from block_check import arithmetic, check, failures, mismatches, where
from verified_problems.core import Outcome


@pytest.mark.parametrize(
    "latex",
    [
        r"1 + 0.4931 + 1 = 2.4931",
        r"0.4011 + 0.1978 + 0.4011 = 1.0000",
        r"e^{-0.7071} = 0.4931",
        r"e^{0} = 1",
        r"\sqrt 2 \approx 1.4142",
        r"\sqrt{2} = 1.4142",
        r"0.4011(0) + 0.1978(1) + 0.4011(1) = 0.5989",
        r"\tfrac{0.4931}{2.4931} = 0.1978",
        r"\left(\tfrac{1}{2.4931},\; \tfrac{0.4931}{2.4931}\right) = (0.4011,\; 0.1978)",
        r"\tfrac13 = 0.3333",
        r"\frac{1}{3} \cdot 3 = 1",
        r"2^{10} = 1024",
        r"\log(1.5032) = 0.4076",
        r"1002 + \ln 1.5032 = 1002.4076",
        # scientific notation, at the places it shows (2.7536e-5: nine)
        r"1.2 \times 10^{-5} = 0.0000",
        r"e^{-10.5} = 2.7536 \times 10^{-5}",
        r"1 + 2.7536 \times 10^{-5} + 7.9920 \times 10^{-11} \approx 1.0000",
        # a derivation: each step consistent with the next, the last equal to its result
        r"3 \times 13.25 - 1.5 \times 1.5 = 39.75 - 2.25 = 37.5",
        r"e^{-1/\sqrt 2} = e^{-0.7071} = 0.4931",
        # names and unknown macros are not evaluated
        r"\sqrt{\dk} = \sqrt 2",
        r"x + 0.5 = 1.5",
        r"\mathrm{softmax}(0.5) = 0.7",
    ],
)
def test_equations_that_hold_or_are_not_arithmetic(latex: str) -> None:
    assert mismatches(latex) == []


def test_a_wrong_sum_is_reported_at_the_right_side() -> None:
    latex = r"0.4011 + 0.1978 + 0.4011 = 1.0001"
    [problem] = arithmetic(latex)
    assert where(latex, problem).startswith("1.0001")
    assert problem.message == (
        "the arithmetic does not hold: 0.4011 + 0.1978 + 0.4011 is 1.0000, not 1.0001")


def test_a_dropped_minus_in_an_exponent_is_caught() -> None:
    assert mismatches(r"e^{0.7071} = 0.4931") == [
        "the arithmetic does not hold: e^{0.7071} is 2.0281, not 0.4931"
    ]


def test_rounding_is_the_full_precision_values_not_a_tolerance() -> None:
    # 0.7518 as written; the printed values the operands stand for give 0.7517
    assert mismatches(r"0.2483 + 0.5035 = 0.7517") != []
    assert mismatches(r"0.2483 + 0.5035 \approx 0.7517") != []
    printed = "a = 0.24826\nb = 0.50346\n"
    assert mismatches(r"0.2483 + 0.5035 = 0.7517", printed) == []
    assert mismatches(r"O_{31} = 0.2483(1) + 0.2483(0) + 0.5035(1) = 0.7517", printed) == []
    assert mismatches(r"0.2483 + 0.5035 \approx 0.7530", printed) == [
        "the arithmetic does not hold: 0.2483 + 0.5035 is 0.7518 from the digits as written "
        "and 0.7517 at full precision, not 0.7530"
    ]


def test_tuples_are_checked_entry_by_entry() -> None:
    latex = r"\left(\tfrac{1}{2.4931},\; \tfrac{0.4931}{2.4931}\right) = (0.4011,\; 0.1987)"
    [problem] = arithmetic(latex)
    assert where(latex, problem).startswith("0.1987")


def test_an_exact_tie_is_accepted_either_way() -> None:
    assert mismatches(r"0.5 \cdot 0.0003 = 0.0002") == []  # 0.00015 rounds to 0.0002
    assert mismatches(r"0.5 \cdot 0.0003 = 0.0001") == []  # and an author may round it down
    assert mismatches(r"0.5 \cdot 0.25 = 0.12") != []  # 0.12 claims 0.1200


def test_exempt_numbers_are_not_evaluated() -> None:
    assert mismatches(r"\unchecked{0.5} + 0.5 = 2") == []


def test_no_interval_of_rounding_excuses_a_wrong_quotient() -> None:
    # 0.1 - 0.05 was "anything from -0.005 to 0.105 within rounding"; it is 0.05
    assert mismatches(r"\frac{1}{0.1 - 0.05} = 5") != []
    assert mismatches(r"\frac{1}{0.1 - 0.05} = 20") == []


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"0.4004 / \ln 1 \approx 0.5776", r"0.4004 / \ln 1 divides by zero"),
        (r"\frac{1}{0.0} = 5", r"\frac{1}{0.0} divides by zero"),
        (r"\ln -11.875 = 2.4744",
         r"\ln -11.875 takes the logarithm of a number that is not positive"),
        (r"-\ln 0.0 = 0.1054", r"-\ln 0.0 takes the logarithm of a number that is not positive"),
        (r"\sqrt{0.35 \times 0.65 / -124} = 0.0428",
         r"\sqrt{0.35 \times 0.65 / -124} takes the square root of a negative number"),
        (r"\boldsymbol{\ell} = (-\ln 0.9,\; -\ln 0.0) = (0.1054,\; 0.2231)",
         r"(-\ln 0.9,\; -\ln 0.0) takes the logarithm of a number that is not positive"),
    ],
)
def test_an_equation_whose_side_has_no_value_does_not_hold(latex: str, message: str) -> None:
    [problem] = arithmetic(latex)
    assert problem.message == f"the arithmetic does not hold: {message}"
    assert where(latex, problem).startswith(message.split()[0])


@pytest.mark.parametrize(
    "latex",
    [
        r"\ln 0 = -\infty",  # the other side has no value to compare: a statement, not a slip
        r"\frac{1}{0} + x = 5",  # not all arithmetic
    ],
)
def test_no_value_is_only_reported_against_a_side_that_has_one(latex: str) -> None:
    assert mismatches(latex) == []


def test_a_matrix_of_computations_is_checked_cell_by_cell() -> None:
    steps = r"\begin{{pmatrix}} {} \\ 1(0.3) + 2(-0.3) + 1 \end{{pmatrix}}"
    result = r"\begin{pmatrix} -0.4 \\ 0.7 \end{pmatrix}"
    assert mismatches(f"{steps.format('3(0.3) + 1(-0.3) - 1')} = {result}") == []
    latex = f"{steps.format('3(0.3) + 1(0.3) - 1')} = {result}"
    [problem] = arithmetic(latex)
    assert problem.message == (
        "the arithmetic does not hold: 3(0.3) + 1(0.3) - 1 is 0.2000, not -0.4")
    assert where(latex, problem).startswith("3(0.3) + 1(0.3)")  # where the computation is
    # a determinant is no matrix of values
    assert mismatches(r"\begin{vmatrix} 1 & 2 \\ 3 & 4 \end{vmatrix} = -2") == []


def test_determinant_bars_are_evaluated_exactly() -> None:
    cofactors = (r"\begin{{vmatrix}} 2 & 1 & -1 \\ 1 & 3 & 2 \\ 1 & 0 & 2 \end{{vmatrix}}"
                 r" = 2 \begin{{vmatrix}} 3 & 2 \\ 0 & {minor} \end{{vmatrix}}"
                 r" - 1 \begin{{vmatrix}} 1 & 2 \\ 1 & 2 \end{{vmatrix}}"
                 r" + (-1) \begin{{vmatrix}} 1 & 3 \\ 1 & 0 \end{{vmatrix}}"
                 r" = 2(6 - 0) - 1(2 - 2) + (-1)(0 - 3) = 15")
    assert mismatches(cofactors.format(minor=2)) == []
    assert mismatches(cofactors.format(minor=5)) == [
        "the arithmetic does not hold: " + cofactors.format(minor=2).split(" = ")[0]
        + " is 15, but " + cofactors.format(minor=5).split(" = ")[1] + " is 33"]
    assert mismatches(r"\begin{vmatrix} 0.5 & 0.2 \\ 0.1 & 0.4 \end{vmatrix} = 0.18") == []
    assert mismatches(r"\begin{vmatrix} 0.5 & 0.2 \\ 0.1 & 0.4 \end{vmatrix} = 0.2") == [
        r"the arithmetic does not hold: \begin{vmatrix} 0.5 & 0.2 \\ 0.1 & 0.4 \end{vmatrix} "
        "is 0.1800, not 0.2"]
    # a norm's double bars, and bars that are not square, are not evaluated
    assert mismatches(r"\begin{Vmatrix} 1 & 2 \\ 3 & 4 \end{Vmatrix} = 7") == []
    assert mismatches(r"\begin{vmatrix} 1 & 2 & 3 \\ 3 & 4 & 5 \end{vmatrix} = 7") == []


def test_a_wrong_side_is_placed_at_its_summand_that_differs() -> None:
    # a side written over lines: the error names the summand (and so the line) that is wrong
    latex = ("2 \\begin{vmatrix} 3 & 2 \\\\ 0 & 2 \\end{vmatrix}\n"
             "- 1 \\begin{vmatrix} 2 & 2 \\\\ 1 & 2 \\end{vmatrix}\n"
             "+ (-1) \\begin{vmatrix} 1 & 3 \\\\ 1 & 0 \\end{vmatrix}\n"
             "= 2(6 - 0) - 1(2 - 2) + (-1)(0 - 3)")
    [problem] = arithmetic(latex)
    assert where(latex, problem).startswith("- 1 \\begin{vmatrix} 2 & 2")
    [problem] = arithmetic("0.5 + 0.25 = 0.75 + 1")  # the first that differs: the 0.5
    assert problem.placed.column == 0


def test_a_small_value_a_name_is_equated_with_is_compared_at_its_significant_digits() -> None:
    # at the policy's four places 10^{-5} and 10^{-6} are both 0.0000
    given = {"epsilon": "1e-05"}
    assert failures(r"\epsilon = 10^{-5}", given_names=given) == []
    assert failures(r"\epsilon = 10^{-6}", given_names=given) == [
        "epsilon: printed 0.00001, but 10^{-6} is 0.000001"]
    # never at more places than the printed value shows
    assert failures(r"p = 2^{-10}", "p = 0.00098\n") == []


def test_integer_powers_of_any_size_are_evaluated() -> None:
    assert mismatches(r"20 \times 0.1 \times 0.9^{19} = 0.2702") == []
    assert mismatches(r"0.9^{20} = 0.1316") == [
        "the arithmetic does not hold: 0.9^{20} is 0.1216, not 0.1316"]
    assert mismatches(r"2^{-20} = 0.000001") == []
    assert mismatches(r"2^{20} = 1000000") == [
        "the arithmetic does not hold: 2^{20} is 1048576.0000, not 1000000"]
    assert mismatches(r"10^{100} = 5") != []  # exact, however large
    assert mismatches(r"2^{1000000} = 3") == []  # too large to write out: not evaluated


def test_factorials_and_binomials_are_evaluated_exactly() -> None:
    assert mismatches(r"\frac{2^2}{2!} e^{-2} = 2 e^{-2} = 0.2707") == []
    assert mismatches(r"\frac{2^2}{3!} e^{-2} = 2 e^{-2}") == [
        "the arithmetic does not hold: \\frac{2^2}{3!} e^{-2} is 0.090223522, but 2 e^{-2} is "
        "0.27067057"]
    assert mismatches(r"\binom{20}{3} (0.1)^3 (0.9)^{17} = 0.1901") == []
    assert mismatches(r"\binom{20}{2} = 191") == [
        "the arithmetic does not hold: \\binom{20}{2} is 190.0000, not 191"]
    assert mismatches(r"(5 - 2)! = 7") == [
        "the arithmetic does not hold: (5 - 2)! is 6.0000, not 7"]
    assert mismatches(r"0.5! = 7") == []  # no factorial of a fraction: not evaluated
    assert mismatches(r"-3! = -6") == []  # the minus of -(3!), as of a power
    assert mismatches(r"\frac{2^2}{-2!} = 2") == [
        "the arithmetic does not hold: \\frac{2^2}{-2!} is -2.0000, not 2"]


def test_a_matrix_of_maxima_is_evaluated_entry_by_entry() -> None:
    latex = r"\mathbf{h} = \begin{bmatrix} \max(0, 1.2) \\ \max(%s, -0.2) \end{bmatrix}" \
            r" = \begin{bmatrix} 1.2 \\ 0 \end{bmatrix}"
    printed = "h = [1.2 0. ]\nz = [ 1.2 -0.2]\n"
    assert failures(latex % "0", printed) == []
    assert failures(latex % "1", printed) == [
        "the arithmetic does not hold: \\max(1, -0.2) is 1.0000, not 0"]


def test_a_minus_before_a_power_negates_the_power() -> None:
    assert mismatches(r"e^{-0.5^2/2} \approx 0.8825") == []
    assert mismatches(r"-0.5^2 = -0.25") == []
    assert mismatches(r"e^{-0.5^2/2} \approx 1.1331") == [
        "the arithmetic does not hold: e^{-0.5^2/2} is 0.8825, not 1.1331"]


@pytest.mark.parametrize("e", [r"\mathrm{e}", r"\mathrm e", r"\operatorname{e}", "e"])
def test_an_upright_e_is_eulers_number(e: str) -> None:
    assert mismatches(rf"{e}^{{-1.5}} = 0.2231") == []
    assert mismatches(rf"\tfrac{{1.5^2}}{{2}}\,{e}^{{-1.5}} = 0.2510") == []
    assert mismatches(rf"{e}^{{1.5}} = 0.2231") == [
        f"the arithmetic does not hold: {e}^{{1.5}} is 4.4817, not 0.2231"]


def test_scientific_notation_is_evaluated_at_the_places_it_shows() -> None:
    assert mismatches(r"e^{-10.5} = 7.9920 \times 10^{-11}") == [
        "the arithmetic does not hold: e^{-10.5} is 0.000027536449350, not 7.9920e-11"
    ]
    assert mismatches(r"e^{-10.5} = 2.7537 \times 10^{-5}") != []  # nine places: 2.7536
    assert mismatches(r"2 + 2.7536 \times 10^{-5} \approx 1.0000") != []


def test_a_wrong_step_of_a_derivation_is_reported_where_it_stands() -> None:
    # Only the last step used to be compared, with the result: 4 x 13.25 went unseen.
    latex = ("\\det \\mat{G} &= 4 \\times 13.25 - 1.5 \\times 1.5 \\\\\n"
             "&= 39.75 - 2.25 \\\\\n&= 37.5")
    [problem] = arithmetic(latex, macros={"mat": ("\\mathbf{#1}", 1)})
    assert where(latex, problem).startswith("4 \\times 13.25")
    assert problem.message == (
        "the arithmetic does not hold: 4 \\times 13.25 - 1.5 \\times 1.5 is 50.75, but "
        "39.75 - 2.25 is 37.5"
    )
    assert mismatches(r"3 \times 13.25 - 1.5 \times 3 = 39.75 - 2.25") != []
    assert mismatches(r"e^{-1/\sqrt 2} = e^{0.7071}") != []  # a dropped minus between steps


def test_a_unit_after_the_result_does_not_hide_the_sum() -> None:
    assert mismatches(r"0.8262 + 0.3786 + 0.25 = 1.4548 \;\text{bits}") == []
    assert mismatches(r"0.8262 + 0.3786 + 0.375 = 1.4548 \;\text{bits}") == [
        "the arithmetic does not hold: 0.8262 + 0.3786 + 0.375 is 1.5798, not 1.4548"
    ]


# -- exact fractions, the logarithm's base, units (formulas as textbooks write them) ----------


@pytest.mark.parametrize(
    "latex",
    [
        r"\frac13 - \frac14 = \frac1{12}",
        r"\frac{1}{3} + \frac{1}{3} = \frac{2}{3}",
        r"20/19 - 19/19 = 1/19",
        r"\tfrac{2}{7} \times \tfrac{7}{2} = 1",
        r"\left(\frac{1}{2}\right)^{3} = \frac{1}{8} = 0.125",
        r"e^{1} \cdot e^{1} = e^{2}",
        r"\sqrt{2} \cdot \sqrt{2} = 2",
        r"\ln 2 + \ln 3 = \ln 6",
    ],
)
def test_exact_values_written_two_ways_are_equal(latex: str) -> None:
    # 1/3 - 1/4 and 1/12 differed in a 60th digit: "is 0.083333333, but \frac{1}{12} is
    # 0.083333333".
    assert mismatches(latex) == []


def test_a_wrong_fraction_still_fails() -> None:
    assert mismatches(r"\frac13 - \frac14 = \frac1{11}") != []
    assert mismatches(r"20/19 - 19/19 = 2/19") != []


def test_a_real_slip_of_a_textbook_is_still_caught() -> None:
    assert mismatches(r"0.81 \approx 0.283^2") == [
        "the arithmetic does not hold: 0.283^2 is 0.0801, not 0.81"]


@pytest.mark.parametrize(
    ("latex", "base"),
    [
        (r"\log 8 = 3", 2), (r"\log_2 8 = 3", None), (r"\log_{2} 0.25 = -2", None),
        (r"\log 1000 = 3", 10), (r"\lg 100 = 2", None), (r"\log_{10} 0.001 = -3", 2),
        (r"\ln e^{2} = 2", 10), (r"\log 2 = 0.6931", None), (r"-\log_2 0.5 = 1", None),
    ],
)
def test_the_logarithm_has_the_base_written_or_the_books(latex: str, base: int | None) -> None:
    assert mismatches(latex, log_base=base) == []


def test_a_book_whose_log_is_base_two_fails_a_natural_log() -> None:
    assert mismatches(r"\log 2 = 0.6931", log_base=2) != []
    assert mismatches(r"\log 8 = 3") != []  # natural by default


def test_sides_with_other_units_are_not_compared() -> None:
    assert mismatches(r"4 \times 256 \textrm{ bit} = 128 \textrm{ bytes}") == []
    assert mismatches(r"2 \times 0.5\,\mathrm{s} = 1.5\,\mathrm{s}") != []  # the same unit
    assert mismatches(r"8 \times 16 \text{ bits} = 128 \text{ bit}") == []
    assert mismatches(r"8 \times 16 \text{ bits} = 127 \text{ bit}") != []  # plural agrees
    assert mismatches(r"0.5 + 0.25 = 0.85\,\mathrm{m}") != []  # one side's unit only


def test_a_whole_number_before_a_fraction_below_one_is_a_mixed_number() -> None:
    assert mismatches(r"\frac{15}{4} = 3\tfrac{3}{4} = 3.75") == []
    assert mismatches(r"2\frac{1}{2} = 2.5") == []
    assert mismatches(r"2\frac{3}{2} = 3") == []  # above one: a product
    assert mismatches(r"3\tfrac{3}{4} = 2.25") != []


def test_a_step_that_holds_with_neither_neighbour_is_reported_once_where_it_stands() -> None:
    # A wrong middle step was reported at the step before it and at the result after it.
    latex = (r"\begin{aligned} H &= \frac{1}{2} + \frac{1}{4} \\ &= \frac{5}{8} \\"
             r" &= 0.75 \end{aligned}")
    found = arithmetic(latex)
    assert [where(latex, p)[:11] for p in found] == [r"\frac{5}{8}"]
    assert mismatches(r"a = 0.75 + 0.25 = 1.5 = 1") == [
        "the arithmetic does not hold: 0.75 + 0.25 is 1.0000, not 1.5"]
    # a wrong first step still stands at its own place, a wrong result at the result
    early = r"0.5 + 0.35 = 0.75 + 0.25 = 1"
    assert [where(early, p)[:3] for p in arithmetic(early)] == ["0.5"]
    late = r"0.5 + 0.5 = 0.75 + 0.25 = 1.5"
    assert [where(late, p)[:3] for p in arithmetic(late)] == ["1.5"]


def test_zero_times_the_logarithm_of_zero_is_zero_as_entropies_take_it() -> None:
    # "with the convention 0 log_2 0 = 0" failed: the logarithm of a number that is not positive.
    assert mismatches(r"0 \log_2 0 = 0") == []
    assert mismatches(r"-(0.5 \log_2 0.5 + 0 \log_2 0) = 0.5") == []
    assert mismatches(r"0 \cdot \ln 0 = 0") == []
    assert mismatches(r"0.5 \log_2 0 = 0") != []  # only an exact zero, only the logarithm
    assert mismatches(r"\log 0 = 0") != []


# -- the book's policy: full precision, padding, derived numbers (DESIGN §3–§4) -------------


def test_intermediates_carry_full_precision() -> None:
    # "0.3132 from the digits as written", though P22 is 0.73105857 and -ln P22 = 0.31326
    assert mismatches(r"-\ln 0.7311 = 0.3133") != []
    assert mismatches(r"-\ln 0.7311 = 0.3133", "P_22 = 0.73105857\n") == []
    assert mismatches(r"1.0549 - 1.0297 = 0.0252") == []  # as written


@pytest.mark.parametrize(
    ("latex", "holds"),
    [
        (r"3.7678 + 0.2322 = 4", True),
        (r"3.7678 - 0.2322 = 4", False),  # the 4 claims 4.0000
        (r"\frac12 + \frac14 + \frac18 + \frac1{16} = 1", False),
        (r"\frac12 + \frac14 + \frac18 + \frac1{16} = 0.9375", True),
        (r"0.5 + 0.25 = 1", False),
        (r"z_1 = 0.1 + 2(-0.2) = -0.3", True),
        (r"z_1 = 0.1 + 2(-0.3) = -0.3", False),  # one-decimal operands are no tolerance
        (r"\ln \frac{0.4}{0.5} = -0.2231", True),
        (r"\ln \frac{0.4}{0.6} = -0.2231", False),
        (r"\frac{1}{3}\begin{pmatrix} 0.3 \\ 0.6 \end{pmatrix}"
         r" = \begin{pmatrix} 0.1 \\ 0.2 \end{pmatrix}", True),
        (r"\frac{1}{3}\begin{pmatrix} 0.3 \\ 0.9 \end{pmatrix}"
         r" = \begin{pmatrix} 0.1 \\ 0.2 \end{pmatrix}", False),
        (r"0.36\,(-0.55,\; 0.55) = (-0.198,\; 0.198)", True),
        (r"(0.5,\; -0.5) - 0.5\,(-0.1132,\; 0.2467) = (0.5566,\; -0.6234)", True),
        (r"(0.5,\; -0.5) + 0.5\,(-0.1132,\; 0.2467) = (0.5566,\; -0.6234)", False),
        (r"\mat{A} = -\begin{bmatrix} 1 & 0.5 \end{bmatrix} = \begin{bmatrix} -1 & -0.5"
         r" \end{bmatrix}", True),
        (r"{-}0.5 + \mathord{-}0.25 = -0.75", True),
        (r"\left| -0.5 \right| + \lvert -0.25 \rvert + |-0.25| = 1", True),
        (r"\tfrac12 \bigl[ 0.4 + 0.2 \bigr] = 0.3", True),
        (r"\frac{1}{4} = 25\%", True),
        (r"\frac{1}{4} = 26\%", False),
        (r"\frac{1}{3} + \frac{1}{3} = \frac{2}{3}", True),
        (r"e \approx 2.7183", True),
        (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} (1,\; 1) = (3,\; 7)", True),  # A x
        (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} (1,\; 1) = (3,\; 8)", False),
        (r"\tfrac16 \begin{pmatrix} 14 & -6 \\ -6 & 3 \end{pmatrix} \begin{pmatrix} 8 \\ 19"
         r" \end{pmatrix} = \begin{pmatrix} -\tfrac13 \\ \tfrac32 \end{pmatrix}", True),
        (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} \begin{bmatrix} 0 & 1 \\ 1 & 0"
         r" \end{bmatrix} = \begin{bmatrix} 2 & 1 \\ 4 & 3 \end{bmatrix}", True),
        (r"\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix} \begin{bmatrix} 0 & 1 \\ 1 & 0"
         r" \end{bmatrix} = \begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}", False),
        (r"3 \pm \sqrt{9 - 1.1875} = 3 \pm 2.7951", True),  # \pm: two values
        (r"4 \pm \sqrt{9 - 1.1875} = 3 \pm 2.7951", False),
        (r"5 \pm 0.98 = [4.02,\; 5.98]", True),
        (r"5 \mp 0.98 = [4.02,\; 5.98]", False),
        (r"\frac{6 \pm \sqrt 5}{2} = (1.3820,\; 3.6180)", False),
        (r"\sqrt{2\pi} = 2.5066", True),  # a bare \pi is the constant
        (r"\frac{1}{\sqrt{2\pi}} = 0.3989", True),
        (r"\frac{1}{\sqrt{3\pi}} = 0.3989", False),
        (r"\frac{\ln 3}{\ln 2} = \frac{1.0986}{0.6931} = 1.5850", True),  # steps carry ln 3 on
        (r"\frac{\ln 3}{\ln 2} = \frac{1.0986}{0.6932} = 1.5850", False),
        # two steps too small for the policy's places: at four significant digits (trial 12)
        (r"\frac{10^{-5}}{2 \cdot 2.5} = \frac{2}{10^{6}}", True),
        (r"\frac{10^{-5}}{2 \cdot 2.5} = 2 \times 11^{-6}", False),
    ],
)
def test_equations_by_the_policy(latex: str, holds: bool) -> None:
    assert (mismatches(latex, macros={"mat": (r"\mathbf{#1}", 1)}) == []) is holds


def test_a_number_the_arithmetic_computes_needs_no_print() -> None:
    given = ("0.3", "0.9", "0.1")
    for latex in (r"1 + e^{0.3} = 2.3499", r"2.3499 = 1 + e^{0.3}", r"\ln 3 = 1.0986",
                  r"0.9 \times 0.9 + 0.1 \times 0.3 = 0.81 + 0.03 = 0.84"):
        verdicts = check(latex, given=given)
        assert [v.message for v in verdicts if v.failed] == [], latex
        assert any(v.kind == "derived" and v.provenance.startswith("derived: ")
                   for v in verdicts), latex
    # the operands still need a provenance: 0.3 is neither printed nor given here
    assert failures(r"1 + e^{0.3} = 2.3499") == [
        "free digit: prose 0.3 is not among the printed numbers (none printed)"]


def test_a_printed_array_with_a_transpose_mark_is_transposed_in_a_computation() -> None:
    # trial 12: "\mathbf{q}_1^\top \mathbf{q}_1 = 1" passed with any number for the 1
    printed = "q_1 = [0.6 0.8 0. ]\nQ = [[0.6 0.]\n [0.8 0.]\n [0. 1.]]\n"
    macros = {"mat": (r"\mathbf{#1}", 1)}
    for latex in (r"\mathbf{q}_1^\top \mathbf{q}_1 = 1",
                  r"\mathbf{q}_1^{\mathsf T}\mathbf{q}_1 = 1",
                  r"\mat{Q}^\top \mat{Q} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}"):
        assert failures(latex, printed, macros=macros) == [], latex
        assert failures(latex.replace("= 1", "= 2").replace("& 1", "& 2"), printed,
                        macros=macros) != [], latex
    assert failures(r"\mathbf{q}_1^{(2)} = 1", printed) == []  # an index, not a transpose


def test_a_step_may_write_any_part_of_the_step_before_it_worked_out() -> None:
    # trial 12: "3 \cdot 2.1^2 - 2 = 3 \cdot 4.41 - 2" writes the power 2.1^2 out, as
    # "2.1^3 - 4.2 = 9.261 - 4.2" writes a summand; a factorial, a root or a fraction likewise
    given = ("2.1",)
    for latex in (r"3 \cdot 2.1^2 - 2 = 3 \cdot 4.41 - 2 = 11.23",
                  r"2 \cdot 3! + 1 = 2 \cdot 6 + 1 = 13",
                  r"2.1 \sqrt{2.1} = 2.1 \cdot 1.4491 = 3.0432",
                  r"3 \cdot \frac{2.1}{4} = 3 \cdot 0.525 = 1.575"):
        assert failures(latex, given=given) == [], latex
    assert failures(r"3 \cdot 2.1^2 - 2 = 3 \cdot 4.42 - 2 = 11.23", given=given) != []


def test_printed_names_and_magnitudes_in_the_arithmetic() -> None:
    printed = "lambda_1 = 4.41421356\nm_hat_2 = -5.89473684\ng = [-0.54 -0.58]\n"
    assert failures(r"(1,\; \lambda_1 - 4) = (1,\; 0.4142)", printed) == []
    assert failures(r"(1,\; \lambda_1 - 4) = (1,\; 0.4143)", printed) != []
    assert failures(r"|\hat{m}_2| = 5.8947", printed) == []
    assert failures(r"\lvert \hat{m}_2 \rvert = 5.8947", printed) == []
    assert failures(r"-0.54 - 0.58 = -1.12", printed) == []  # 0.58 after a binary minus
    assert failures(r"-0.54 - 0.58 = -1.02", printed) != []


def test_a_printed_name_equated_with_an_exact_value_is_compared() -> None:
    printed = "p = 0.33333333\ny = 1.73205081\nq = 0.125\n"
    assert failures(r"p = \frac{1}{3} \quad y = \sqrt{3} \quad q = 2^{-3}", printed) == []
    assert failures(r"p = \frac{1}{4}", printed) == [
        "p: printed 0.33333333, but \\frac{1}{4} is 0.25"]
    assert failures(r"q = 2^{-2}", printed) != []


def test_a_printed_array_equated_with_exact_entries_is_compared_entry_by_entry() -> None:
    printed = "p = [0.5, 0.25, 0.25]\nP = [[0.5 0.5]\n [0.33333333 0.66666667]]\n"
    assert failures(r"p = \left(\frac{1}{2},\; \frac{1}{4},\; \frac{1}{4}\right)", printed) == []
    assert failures(r"p = (\tfrac12,\; \tfrac13,\; \tfrac14)", printed) == [
        "p[2]: printed 0.25, but \\tfrac13 is 0.33333333"]
    matrix = r"P = \begin{bmatrix} \frac12 & \frac12 \\ \frac13 & \frac%s \end{bmatrix}"
    assert failures(matrix % "23", printed) == []
    assert failures(matrix % "13", printed) == [
        "P[2,2]: printed 0.66666667, but \\frac13 is 0.33333333"]
    assert failures(r"p = (\tfrac12,\; \tfrac14)", printed) != []  # two entries for three


def test_an_operand_one_minus_a_printed_probability_is_derived_from_it() -> None:
    printed = "prevalence = 0.01\nfpr = 0.1\nsensitivity = 0.95\nodds = 0.096\n"
    latex = r"0.95 \times 0.01 + 0.1 \times 0.99 = 0.1085"
    assert [(v.placed.number.text, v.provenance) for v in check(latex, printed)
            if v.kind == "derived"
            ] == [("0.99", "derived: 1 - 0.01 (prevalence)"), ("0.1085", "derived: 0.95 \\times"
                  " 0.01 + 0.1 \\times 0.99")]
    # not one plus: 1.1978 for a printed 0.1978 is a slipped first digit (times 0 here)
    row = "a = [0.4011 0.1978 0.4011]\n"
    assert failures(r"0.4011(1) + 1.1978(0) + 0.4011(1) = 0.8022", row) != []
    assert failures(r"0.95 \times 0.01 + 0.1 \times 0.98 = 0.1075", printed) == [
        "free digit: prose 0.98 is not among the printed numbers (nearest printed 0.9500 "
        "(sensitivity))"]


def test_a_result_whose_printed_entries_are_rearranged_is_reported_at_the_result() -> None:
    # Two entries of the inverse swapped: each is still a printed number, so the error used to
    # be put at the computation's cells, a line away from the digits that changed.
    printed = "XtX_inv = [[ 0.7 -0.3]\n [-0.3  0.2]]\n"
    latex = (r"\frac{1}{20} \begin{bmatrix} %s & -6 \\ -6 & 4 \end{bmatrix}"
             r" = \begin{bmatrix} %s \end{bmatrix}")
    swapped = latex % ("14", r"-0.3 & 0.7 \\ -0.3 & 0.2")
    assert [where(swapped, v)[:4] for v in check(swapped, printed) if v.failed] == [
        "-0.3", "0.7 "]
    computed = latex % ("15", r"0.7 & -0.3 \\ -0.3 & 0.2")  # the computation is what is wrong
    assert [where(computed, v)[:2] for v in check(computed, printed) if v.failed] == ["15"]
    # two of the computation's entries swapped: each now gives another printed number, but the
    # result is the printed array, so the computation is what is wrong
    swapped = (r"\frac{1}{20} \begin{bmatrix} -6 & 14 \\ -6 & 4 \end{bmatrix}"
               r" = \begin{bmatrix} 0.7 & -0.3 \\ -0.3 & 0.2 \end{bmatrix}")
    assert [where(swapped, v)[:3] for v in check(swapped, printed) if v.failed] == ["-6 ", "14 "]


def test_of_two_steps_that_disagree_the_one_the_snippet_did_not_print_is_blamed() -> None:
    printed = "A_inv = [[-0.5  0.5]\n [ 1.  -0.66666667]]\n"
    steps = (r"-\frac{1}{6} \begin{bmatrix} 3 & -3 \\ -6 & %s \end{bmatrix}"
             r" = \begin{bmatrix} -\frac{1}{2} & \frac{1}{2} \\ %s & -\frac{2}{3} \end{bmatrix}")
    later = steps % ("4", "2")  # the second step is wrong: reported at its entry that differs
    assert [where(later, v)[:6] for v in check(later, printed) if v.failed] == ["2 & -\\"]
    earlier = steps % ("5", "1")  # the first: at its cell that differs
    assert [where(earlier, v)[:6] for v in check(earlier, printed) if v.failed] == ["5 \\end"]


_RIDGE = r"""\hat{w} = \frac{1}{10.25}
\begin{bmatrix}
3.5(5) - 3(6) \\
-3(5) + 5.5(6)
\end{bmatrix}
= \frac{1}{10.25}
\begin{bmatrix}
-0.5 \\
18
\end{bmatrix}
= \begin{bmatrix}
-0.0488 \\
1.7561
\end{bmatrix}"""
_RIDGE_PRINTED = "det = 10.25\nw = [-0.04878049  1.75609756]\n"
_RIDGE_GIVEN = ("5.5", "3.0", "3.5", "5.0", "6.0")  # the snippet's A and b


def test_a_step_over_several_lines_holds() -> None:
    assert [v.message for v in check(_RIDGE, _RIDGE_PRINTED, given=_RIDGE_GIVEN)
            if v.failed] == []


@pytest.mark.parametrize(("line", "old", "new"), [
    (3, "3.5(5)", "3.6(5)"), (3, "- 3(6)", "- 4(6)"), (4, "-3(5)", "-4(5)"),
    (4, "+ 5.5", "- 5.5"), (8, "-0.5", "-0.6"), (9, "18", "19"), (6, "10.25", "10.26"),
    (1, "{1}", "{2}"), (12, "-0.0488", "-0.0489")])
def test_a_wrong_step_over_several_lines_is_reported_at_the_changed_line(
        line: int, old: str, new: str) -> None:
    # trial 10: a matrix computed over several lines was reported at its first line
    assert _lines_reported(_RIDGE, line, old, new, _RIDGE_PRINTED, given=_RIDGE_GIVEN) == {line}


def _lines_reported(latex: str, line: int, old: str, new: str, printed: str,
                    **options: object) -> set[int]:
    """The lines the arithmetic's errors name once ``old`` is made ``new`` on ``line``."""
    lines = latex.split("\n")
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    changed = "\n".join(lines)
    failed = [v for v in check(changed, printed, **options)  # type: ignore[arg-type]
              if v.outcome is Outcome.ARITHMETIC]
    return {changed[:v.placed.column].count("\n") + 1 for v in failed}


@pytest.mark.parametrize(("lines", "named"), [((8, 9), {8, 9}), ((12, 13), {12, 13})])
def test_two_rows_swapped_are_reported_at_the_rows(lines: tuple[int, int],
                                                   named: set[int]) -> None:
    # a step's swapped rows make every entry differ: no shared factor is to blame; a result's
    # swapped rows are printed numbers in another order, each wrong where it stands
    rows = _RIDGE.split("\n")
    first, second = lines
    rows[first - 1], rows[second - 1] = (rows[second - 1].rstrip(" \\") + r" \\",
                                         rows[first - 1].rstrip(" \\"))
    latex = "\n".join(rows)
    failed = [v for v in check(latex, _RIDGE_PRINTED, given=_RIDGE_GIVEN)
              if v.outcome is Outcome.ARITHMETIC]
    assert {latex[:v.placed.column].count("\n") + 1 for v in failed} == named, latex


_ROOTS = "lam_1 = 7.53393727\nlam_2 = 0.13272940\n"


@pytest.mark.parametrize("latex", [r"\lambda_{1,2} = \frac{23 \pm \sqrt{493}}{6}",
                                   r"\lambda_{1,2} = \frac{23 \mp \sqrt{493}}{6}"])
def test_a_listed_name_equated_with_a_plus_minus_is_both_roots(latex: str) -> None:
    assert failures(latex, _ROOTS) == []


@pytest.mark.parametrize("latex", [
    r"\lambda_{1,2} = \frac{24 \pm \sqrt{493}}{6}", r"\lambda_{1,2} = \frac{23 \pm \sqrt{403}}{6}",
    r"\lambda_{1,2} = \frac{23 \pm \sqrt{493}}{7}", r"\lambda_{1,2} = \frac{-23 \pm \sqrt{493}}{6}",
    r"\lambda_{1,2} = \frac{23 \pm \sqrt{-493}}{6}"])
def test_a_listed_name_equated_with_wrong_roots_fails(latex: str) -> None:
    # trial 11: every mutant of this closed form passed, a margin being never compared
    assert failures(latex, _ROOTS) != []


def test_a_name_with_a_margin_is_no_listing() -> None:
    assert failures(r"\hat{p} = \frac{1}{2} \pm \frac{1}{10}", "p_hat = 0.5\n") == []


_QUADRATIC = r"""\begin{aligned}
\lambda_{1,2}
&= \frac{\frac{23}{3} \pm \sqrt{\left(\frac{23}{3}\right)^2 - 4 \cdot 1}}{2}
= \frac{7.6667 \pm \sqrt{54.7778}}{2} \\
&= \frac{7.6667 \pm 7.4012}{2},
\end{aligned}"""


@pytest.mark.parametrize(("line", "old", "new"), [
    (4, "7.6667", "7.6668"), (4, "54.7778", "64.7778"), (5, "7.4012", "7.4022"),
    (5, "7.6667", "7.6677"), (5, "{2}", "{3}")])
def test_of_three_steps_the_one_that_disagrees_with_the_rest_is_reported(
        line: int, old: str, new: str) -> None:
    # trial 11: the last step, wrong, was reported at the step before it, which holds with
    # the first
    assert _lines_reported(_QUADRATIC, line, old, new, _ROOTS) == {line}


def test_a_determinant_is_named_where_the_snippet_printed_it() -> None:
    printed = "det_A = -6.0\n"
    macros = {"mat": (r"\mathbf{#1}", 1)}
    assert failures(r"\det\mat{A} = -6 \quad \det(\mat{A}) = -6", printed, macros=macros) == []
    assert failures(r"\det\mat{A} = 6", printed, macros=macros) == [
        "det_A: prose 6, printed -6.0000"]
    # in the arithmetic too
    assert failures(r"\frac{12}{\det\mat{A}} = -2", printed, macros=macros) == []
    assert failures(r"\frac{12}{\det\mat{A}} = 2", printed, macros=macros) != []
    # not printed: no name, as before (an integer is a count, a decimal a free digit)
    assert failures(r"\det\mat{B} = 7", printed, macros=macros) == []


def test_a_result_turned_into_another_printed_number_is_reported_at_the_result() -> None:
    printed = "lambda_max = 4.0\netas = [0.05 0.1 0.25 0.4 0.6]\neta_max = 0.5\n"
    latex = r"0 < \eta < %s/\lambda_{\max} = %s"
    changed = latex % ("2", "0.6")  # 2/4 is a printed number: the 0.6 after it was changed
    assert [where(changed, v) for v in check(changed, printed) if v.failed] == ["0.6"]
    operand = latex % ("3", "0.5")  # 3/4 is none: the computation was, and stands there
    assert [where(operand, v)[:2] for v in check(operand, printed) if v.failed] == ["3/"]


def test_a_changed_cell_of_a_result_matrix_is_reported_at_the_result() -> None:
    # The cell's computation gives the printed -0.1324 and the result now shows a number the
    # snippet printed nowhere: the result was changed, not the computation a line above it.
    printed = "delta1 = [-0.13242 0.05516]\nx = [1. 0.5]\n"
    latex = (r"\begin{bmatrix} %s \cdot 1 & 0.0552 \cdot 0.5 \end{bmatrix}"
             "\n= \\begin{bmatrix} %s & 0.0276 \\end{bmatrix}")
    result = latex % ("-0.1324", "-0.1325")
    assert [where(result, v)[:7] for v in check(result, printed) if v.failed] == ["-0.1325"]
    flipped = latex % ("-0.1324", "0.1324")  # its sign dropped: the magnitude is no print
    assert [where(flipped, v)[:7] for v in check(flipped, printed) if v.failed] == ["0.1324 "]
    cell = latex % ("-0.1325", "-0.1324")  # the computation changed: reported there
    assert {where(cell, v)[:10] for v in check(cell, printed) if v.failed} == {"-0.1325 \\c"}


def test_percentages_stand_for_their_hundredth() -> None:
    assert failures(r"p = 82.47\%", "p = 0.824712\n") == []
    assert failures(r"p = 82.48\%", "p = 0.824712\n") == [
        "p: prose 82.48, printed 82.47"]  # in the units written: what `make fix` writes
    assert failures(r"p = 3.7264\%", "p = 3.72639089\n") == []  # printed as a percentage
    # printed as a percentage, compared at the places of its hundredth (0.8247: 82.47)
    assert failures(r"p = 82.47\%", "p = 82.4712\n") == []
    assert failures(r"p = 82.48\%", "p = 82.4712\n") != []
    assert failures(r"p = 41.67\%", "p = 41.66666666666667\n") == []
    assert failures(r"p = 41.66\%", "p = 41.66666666666667\n") != []
    # a free percentage's message says what it was read as, at the places compared
    assert failures(r"\text{a gain of 16.7 \%}", "g = 0.16666\n") == [
        "free digit: prose 16.7 % (read as 0.1670) is not among the printed numbers "
        "(nearest printed 0.1667 (g))"]


def test_a_scalar_for_a_printed_array_holds_where_it_is_every_entry() -> None:
    assert failures(r"V_0 = 0", "V_0 = [0. 0. 0.]\n") == []
    assert failures(r"V_0 = 0.5", "V_0 = [0.5 0.5]\n") == []
    assert failures(r"V_0 = 1", "V_0 = [0. 0. 0.]\n") == ["V_0: prose is a scalar, printed is 3"]
    assert failures(r"V_0 = 0", "V_0 = [0. 1. 0.]\n") == ["V_0: prose is a scalar, printed is 3"]


def test_given_data_is_quoted_and_named_from_the_source() -> None:
    names = {"beta_1": "0.9", "alpha": "0.1"}
    assert failures(r"\beta_1 = 0.9, \quad \alpha = 0.1", given_names=names) == []
    assert failures(r"\beta_1 = 0.8", given_names=names) == [
        "beta_1 (given): prose 0.8, printed 0.9000"]
    assert failures(r"1 - \beta_1^2 = 1 - 0.81 = 0.19", given_names=names) == []


@pytest.mark.parametrize(
    ("latex", "element"),
    [(r"[\mat{A}]_{12} = 0.2", True), (r"(\mat{A})_{21} = 0.3", True), (r"A_{2,1} = 0.3", True),
     (r"[\mat{A}]_{12} = 0.3", False), (r"x \gets 0.7", False), (r"x \leftarrow 0.7", False),
     (r"x \simeq 0.7", False)],
)
def test_element_forms_and_assignments_name_their_values(latex: str, element: bool) -> None:
    found = failures(latex, "A = [[0.1 0.2]\n [0.3 0.4]]\n", macros={"mat": (r"\mathbf{#1}", 1)})
    assert (found == []) is element
    assert found == [] or found[0].split(":")[0] in ("A[1,2]", "x")


def test_a_wrong_computation_before_a_printed_result_is_reported_where_it_stands() -> None:
    # A slip in \tfrac{1}{2.4931} was reported at the result on the next line, which is right.
    printed = "a_1 = [0.40111209 0.19777581]\n"
    latex = ("\\vec{a}_1 = \\left(\\tfrac{2}{2.4931},\\; \\tfrac{0.4931}{2.4931}\\right)\n"
             "= (0.4011,\\; 0.1978)")
    [problem] = arithmetic(latex, printed)
    assert where(latex, problem).startswith("\\tfrac{2}{2.4931}")
    wrong = latex.replace("(0.4011", "(0.4012")  # a wrong result still stands at the result
    assert {where(wrong, p)[:6] for p in arithmetic(wrong, printed)} == {"0.4012"}


def test_a_positive_number_after_a_binary_minus_may_be_a_printed_negative() -> None:
    printed = "a = 1.56071234\nb = -0.56071234\ntheta_1 = -2.9\nstep = -0.0999\n"
    assert failures(r"1.5607 - 0.5607 = 1", printed) == []
    # an operand is the magnitude of a printed step (the issue's `0.1 + 0.0999`), and the
    # arithmetic keeps its sign honest: the wrong sign does not give the result
    assert failures(r"-2.9 + 0.0999 = -2.8001", printed) == []
    assert failures(r"-2.9 - 0.0999 = -2.8001", printed) != []


def test_the_largest_and_smallest_of_a_list_are_evaluated() -> None:
    assert failures(r"V_1(s_3) = \max(2, 5) = 5, \quad \max(2 + 0.5 \cdot 5,\; 5) = 5",
                    "r = 0.5\n") == []
    assert failures(r"V_1(s_3) = \max(2, 5) = 6") == [
        r"the arithmetic does not hold: \max(2, 5) is 5.0000, not 6"]
    assert failures(r"\min\{0.2, 0.7\} = 0.7", "x = 0.2\ny = 0.7\n") == [
        r"the arithmetic does not hold: \min\{0.2, 0.7\} is 0.2000, not 0.7"]
    assert failures(r"(\max(1, 2), 3) = (2, 4)") == [
        "the arithmetic does not hold: 3 is 3.0000, not 4"]
    assert failures(r"\max_a Q(s, a) = 0.5", "q = 0.5\n") == []  # over a set: no arithmetic


def test_a_step_that_works_out_the_arguments_of_a_max_gives_each_of_them() -> None:
    latex = r"V = \max(2 + 0.5 \cdot 5,\; 5) = \max(%s,\; %s) = 5"
    assert failures(latex % ("4.5", "5"), "r = 0.5\n") == []
    assert failures(latex % ("-4.5", "5"), "r = 0.5\n") == [
        r"the arithmetic does not hold: 2 + 0.5 \cdot 5 is 4.5, but -4.5 is -4.5"]
    assert failures(latex % ("5", "4.5"), "r = 0.5\n") != []  # the arguments swapped
    # at full precision: 0.3333 is the printed third
    assert failures(r"\min(3 \cdot 0.3333,\; 2) = \min(1,\; 2) = 1", "p = 0.33333333\n") == []


def test_a_wrong_factor_of_a_product_with_a_printed_result_is_blamed_itself() -> None:
    latex = (r"\nabla L = \begin{bmatrix} 0.1605 \\ 0.4822 \\ -0.6428 \end{bmatrix}"
             "\n" r"\begin{bmatrix} 2 & 2 \end{bmatrix}" "\n"
             r"= \begin{bmatrix} 0.1605 & 0.3210 \\ 0.4822 & 0.9645 \\ -0.6428 & -1.2855 "
             r"\end{bmatrix}")
    printed = ("r = [0.16052 0.48224 -0.64276]\nx = [1. 2.]\n"
               "grad = [[0.16052 0.32104]\n [0.48224 0.96448]\n [-0.64276 -1.28552]]\n")
    wrong = [v for v in check(latex, printed) if v.failed]
    assert len(wrong) == 3
    # at its entry that differs from the printed x it is most like (its first: 1 made 2)
    assert {where(latex, v)[:19] for v in wrong} == {r"2 & 2 \end{bmatrix}"}


def assert_reported_only_at(latex: str, printed: str, at: list[str]) -> None:
    """The failures of ``latex`` stand where ``at`` start, each, and nowhere else."""
    places = {where(latex, v) for v in check(latex, printed) if v.failed}
    assert len(places) == len(at) and all(any(p.startswith(a) for p in places) for a in at), \
        [p[:12] for p in places]


@pytest.mark.parametrize(("r", "at"), [
    ("5 & 1.1 \\\\\n0 & 2", ["1.1 "]),                 # an entry made another number
    ("5 & -1 \\\\\n0 & 2", ["-1 "]),                   # a sign
    ("5 & 1 \\\\\n0 & 3", ["3\n"]),                    # on the matrix's second line
    ("1 & 5 \\\\\n0 & 2", ["1 & 5", "5 \\\\"]),       # two entries swapped: both
])
def test_a_changed_entry_of_a_factor_of_a_matrix_product_is_reported_at_it(
        r: str, at: list[str]) -> None:
    # trial 12: Q R written out over lines, an entry of R changed, was reported at Q's rows
    printed = ("Q = [[0.6 0.8]\n [0.8 -0.6]]\nR = [[5. 1.]\n [0. 2.]]\n"
               "QR = [[3. 2.2]\n [4. -0.4]]\n")
    latex = ("Q R = \\begin{bmatrix}\n0.6 & 0.8 \\\\\n0.8 & -0.6\n\\end{bmatrix}\n"
             "\\begin{bmatrix}\n" + r + "\n\\end{bmatrix}\n"
             "= \\begin{bmatrix}\n3 & 2.2 \\\\\n4 & -0.4\n\\end{bmatrix}")
    assert_reported_only_at(latex, printed, at)


@pytest.mark.parametrize(("old", "new"), [("5.4319", "5.4329"), ("0.061", "0.062")])
def test_of_two_steps_that_disagree_the_one_whose_number_quotes_nothing_is_blamed(
        old: str, new: str) -> None:
    # trial 12: a Newton step's correction changed on its second line was reported on the first
    printed = ("x_1 = 2.1\nf_1 = 0.061\nfprime_1 = 11.23\ndelta_1 = 0.005431879\n"
               "x_2 = 2.094568121\n")
    latex = ("x_2 = 2.1 - \\frac{0.061}{11.23}\n"
             "= 2.1 - 5.4319 \\times 10^{-3} = 2.0946").replace(old, new)
    lines = {latex[:len(latex) - len(where(latex, v))].count("\n")
             for v in check(latex, printed) if v.failed}
    assert lines == {latex[:latex.index(new)].count("\n")}


@pytest.mark.parametrize(("old", "new", "line"), [
    ("2.0946 - \\frac", "2.0946 + \\frac", 0),    # the operator of the first step
    ("10^{-5}", "20^{-5}", 1),                        # a power of the second
])
def test_a_step_is_printed_where_it_is_as_written_or_at_full_precision(
        old: str, new: str, line: int) -> None:
    # trial 12: x_2 and x_3 both print as 2.0946; a full-precision reading of the second step
    # that rounds to no printed value blamed it for the first's changed operator
    printed = ("x_2 = 2.094568121104185\nf_2 = 0.0001857231732707021\n"
               "fprime_2 = 11.16164684183775\ndelta_2 = 1.663940598573203e-05\n"
               "x_3 = 2.094551481698199\n")
    latex = ("x_3 = 2.0946 - \\frac{1.8572 \\times 10^{-4}}{11.1616}\n"
             "= 2.0946 - 1.6639 \\times 10^{-5} = 2.0946").replace(old, new)
    lines = {latex[:len(latex) - len(where(latex, v))].count("\n")
             for v in check(latex, printed) if v.failed}
    assert lines == {line}


def test_a_printed_array_named_in_a_computation_is_its_values() -> None:
    printed = "a = [0.2 0.3]\nb = [0.3 0.4]\nB = [[1. 2.]\n [3. 4.]]\nv_1 = [1. 1.]\n"
    assert failures(r"\vec{a} + \vec{b} = (0.5, 0.7), \quad 2\vec{a} = (0.4, 0.6)",
                    printed) == []
    assert failures(r"\vec{a} + \vec{b} = (0.5, 0.8)", printed) == [
        r"the arithmetic does not hold: \vec{a} + \vec{b} is 0.7000, not 0.8"]
    assert failures(r"B\vec{v}_1 = (3, 7)", printed) == []
    assert failures(r"B\vec{v}_1 = (3, 8)", printed) == [
        r"the arithmetic does not hold: B\vec{v}_1 is 7.0000, not 8"]
    # a transpose is computed too: a row times a column
    assert failures(r"\vec{a}^{\mathsf T} \vec{b} = 0.18", printed) == []
    assert failures(r"\vec{a}^{\mathsf T} \vec{b} = 0.3", printed) == [
        r"the arithmetic does not hold: \vec{a}^{\mathsf T} \vec{b} is 0.1800, not 0.3"]


def test_a_dot_product_of_two_vectors_is_the_sum_of_their_products() -> None:
    printed = "a = [0.2 0.3]\nb = [0.3 0.4]\nu_1 = [0.6 0.8]\nu_2 = [0.8 -0.6]\n"
    assert failures(r"\vec{a} \cdot \vec{b} = 0.18, \quad (1, 2) \cdot (3, 4) = 11", printed) == []
    assert failures(r"\vec{a} \cdot \vec{b} = 0.1", printed) == [
        r"the arithmetic does not hold: \vec{a} \cdot \vec{b} is 0.1800, not 0.1"]
    assert failures(r"\vec{u}_1 \cdot \vec{u}_2 = 0", printed) == []
    assert failures(r"\vec{u}_1 \cdot \vec{u}_2 = 1", printed) != []
    assert failures(r"(1, 2) \cdot (3, 4, 5) = 11", printed) == []  # no dot product: not checked


def test_norms_of_vectors_and_the_frobenius_norm_of_a_matrix_are_evaluated() -> None:
    printed = "A = [[3. 0.]\n [4. 5.]]\nv = [0.6 0.8]\n"
    holds = (r"\lVert A \rVert_F^2 = 50, \quad \|\vec{v}\|_2 = 1, \quad \lVert (3, 4) \rVert = 5,"
             r" \quad \left\| (3, -4) \right\|_1 = 7, \quad \lVert (3, -4) \rVert_\infty = 4,"
             r" \quad \lVert A \rVert_{\mathrm{F}} = \sqrt{50}")
    assert failures(holds, printed) == []
    assert failures(r"\lVert A \rVert_F^2 = 51", printed) == [
        r"the arithmetic does not hold: \lVert A \rVert_F^2 is 50.0000, not 51"]
    for wrong in (r"\lVert (3, 4) \rVert = 6", r"\|\vec{v}\|_2 = 2",
                  r"\left\| (3, -4) \right\|_1 = 8", r"\lVert (3, -4) \rVert_\infty = 3",
                  r"\lVert A \rVert_{\mathrm{F}} = \sqrt{51}"):
        assert failures(wrong, printed) != [], wrong
    # a matrix's 2-norm is its largest singular value: not evaluated, so not compared
    assert failures(r"\lVert A \rVert_2 = 1, \quad \lVert A \rVert = 1", printed) == []


def test_a_result_of_a_computation_of_another_size_is_not_derived() -> None:
    printed = "a = [0.2 0.3]\nb = [0.3 0.4]\n"
    assert failures(r"(0.2, 0.3) + (0.3, 0.4) = 0.1", printed) == [
        "free digit: prose 0.1 is not among the printed numbers (nearest printed 0.2000 (a[1]))"]


def test_an_array_the_prose_writes_out_is_known_by_its_name_after() -> None:
    printed = "A = [[4. 0.]\n [3. -5.]]\nv_1 = [0.70710678 -0.70710678]\n"  # the prose says B
    latex = r"B = \begin{pmatrix} 4 & 0 \\ 3 & -5 \end{pmatrix}, \quad B\vec{v}_1 = %s"
    assert failures(latex % r"\tfrac{1}{\sqrt2}(4, 8)", printed) == []
    for wrong in (r"\tfrac{1}{\sqrt2}(5, 8)", r"\tfrac{1}{\sqrt2}(8, 4)",
                  r"\tfrac{1}{\sqrt3}(4, 8)"):
        assert failures(latex % wrong, printed) != [], wrong
    # before its definition, and where the snippet printed the name, the name is not the prose's
    assert failures(r"B\vec{v}_1 = (9, 9), \quad B = \begin{pmatrix} 4 & 0 \\ 3 & -5 "
                    r"\end{pmatrix}", printed) == []
    assert failures(r"A = \begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}, \quad A\vec{v}_1 = "
                    r"\tfrac{1}{\sqrt2}(4, 8)", printed) == [
        "A[1,1]: prose 1, printed 4.0000", "A[2,1]: prose 0, printed 3.0000",
        "A[2,2]: prose 1, printed -5.0000"]  # and A v_1 is the printed A's: it holds


def test_an_array_the_prose_writes_out_carries_the_printed_values_its_digits_stand_for() -> None:
    printed = "W_new = [[0.12345 0.23456]\n [0.5 0.25]]\nx = [1. 2.]\n"  # the prose says W'
    latex = (r"W' = \begin{bmatrix} 0.1235 & 0.2346 \\ 0.5 & 0.25 \end{bmatrix}, \quad"
             r" W'\vec{x} = (%s, 1)")
    assert mismatches(latex % "0.5926", printed) == []  # 0.12345 + 2 (0.23456)
    assert mismatches(latex % "0.5927", printed) == []  # 0.1235 + 2 (0.2346): as written
    assert mismatches(latex % "0.5928", printed) == [
        r"the arithmetic does not hold: W'\vec{x} is 0.5927 from the digits as written and "
        "0.5926 at full precision, not 0.5928"]


def test_a_superscript_in_parentheses_is_an_index_not_a_power() -> None:
    printed = "mu_1 = 1.0241\npi_2 = 0.4466\n"  # the updated values; the prose gives the first
    assert failures(r"\mu_1^{(0)} = 0, \quad \pi_2^{(0)} = 0.5", printed + "p = 0.5\n") == []
    assert failures(r"\mu_1^{2} = 1.0488", printed) == []  # a power: 1.0241 squared
    assert failures(r"\mu_1^{2} = 1.0489", printed) != []


@pytest.mark.parametrize(("latex", "holds"), [
    (r"(1, 2)^{\mathsf T}(3, 4) = 11", True),        # a row times a column
    (r"(1, 2)^{\mathsf T}(3, 4) = 12", False),
    (r"(1, 2)(3, 4, 5)^\top = \begin{pmatrix} 3 & 4 & 5 \\ 6 & 8 & 10 \end{pmatrix}", True),
    (r"(1, 2)(3, 4, 5)^\top = \begin{pmatrix} 3 & 4 & 5 \\ 6 & 8 & 11 \end{pmatrix}", False),
    (r"(1, 2)^T (3, 4, 5) = \begin{pmatrix} 3 & 4 & 5 \\ 6 & 8 & 10 \end{pmatrix}", True),
    (r"(1, 2)^T (3, 4, 6) = \begin{pmatrix} 3 & 4 & 5 \\ 6 & 8 & 10 \end{pmatrix}", False),
])
def test_a_transposed_tuple_is_a_row_or_the_column_of_an_outer_product(
        latex: str, holds: bool) -> None:
    # trial 13: A_1 = \tfrac{1}{13}(14, 16, 17)^{\mathsf T}(2, 3) was not evaluated: any digit
    # of it could change
    assert (failures(latex) == []) is holds


def test_a_printed_array_equated_with_an_outer_product_of_tuples_is_compared() -> None:
    printed = ("A_1 =\n[[2.1538461538461537 3.230769230769231]\n"
               " [2.4615384615384617 3.692307692307692]\n"
               " [2.6153846153846154 3.9230769230769234]]\n")
    assert failures(r"A_1 = \tfrac{1}{13}(14, 16, 17)^{\mathsf T}(2, 3)", printed) == []
    assert len(failures(r"A_1 = \tfrac{1}{13}(14, 16, 18)^{\mathsf T}(2, 3)", printed)) == 2


@pytest.mark.parametrize(("a", "at"), [
    ("1 & 4 \\\\\n2 & 5 \\\\\n4 & 3", ["5 \\"]),     # an entry of A changed
    ("1 & 4 \\\\\n2 & 4 \\\\\n3 & 4", ["3 &", "4\n"]),  # two entries of A's last row swapped
])
def test_a_changed_entry_beside_a_transposed_printed_factor_is_reported_at_it(
        a: str, at: list[str]) -> None:
    # trial 13: A^T A written out, an entry of A changed, was reported at the product's first
    # line: the transpose of the printed A, written out, was taken for no printed array
    printed = "A = [[1 4]\n [2 4]\n [4 3]]\nG = [[21 24]\n [24 41]]\n"
    latex = ("G = \\begin{pmatrix}\n1 & 2 & 4 \\\\\n4 & 4 & 3\n\\end{pmatrix}\n"
             "\\begin{pmatrix}\n" + a + "\n\\end{pmatrix}\n"
             "= \\begin{pmatrix}\n21 & 24 \\\\\n24 & 41\n\\end{pmatrix}")
    assert_reported_only_at(latex, printed, at)
