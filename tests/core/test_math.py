"""The math reader (`read_math`): named values, free digits, exemptions and problems, with offsets.

Every formula of the seed page (problem II.3.B01) is here, written as the page writes it.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from block_check import mismatches
from hypothesis import given, settings
from hypothesis import strategies as st
from verified_problems.core import (
    EXEMPT_MACRO,
    MacroDef,
    NamedValue,
    ProseExtract,
    ProseNumber,
    read_math,
)

BOOK: dict[str, MacroDef] = {
    "mat": (r"\mathbf{#1}", 1),
    "vec": (r"\boldsymbol{#1}", 1),
    "R": (r"\mathbb{R}", 0),
    "dk": ("d_k", 0),
}


def extract(latex: str, macros: dict[str, MacroDef] | None = None) -> ProseExtract:
    """Extract with the book's macros, and check every offset against the input."""
    result = read_math(latex, BOOK if macros is None else macros)
    for number in _numbers(result):
        _assert_span(latex, number)
    for problem in result.problems:
        assert 0 <= problem.where <= len(latex)
    return result


def _numbers(result: ProseExtract) -> list[ProseNumber]:
    cells = [cell for value in result.named for cell in value.cells]
    return cells + result.free + result.exempt


_SPACING = re.compile(r"\s|~|%[^\n]*|\\[,;:! >]|\\q?quad(?![a-z])")


def _assert_span(latex: str, number: ProseNumber) -> None:
    """The span holds the written form of the number's text (sign included)."""
    written = latex[number.start : number.end]
    compact = _SPACING.sub("", written).replace("−", "-")
    if number.text.endswith("inf"):
        assert compact == number.text.replace("inf", r"\infty")
    elif "\\" in compact:  # 1.2 \times 10^{-5}
        mantissa, exponent = number.text.split("e")
        assert re.fullmatch(
            re.escape(mantissa) + r"\\(times|cdot)10\^\{?" + re.escape(exponent) + r"\}?",
            compact,
        ), written
    else:
        assert compact == number.text, (written, number.text)


def written(latex: str, number: ProseNumber) -> str:
    return latex[number.start : number.end]


def free(latex: str, result: ProseExtract) -> list[str]:
    return [written(latex, number) for number in result.free]


def cells(latex: str, value: NamedValue) -> list[str]:
    return [written(latex, cell) for cell in value.cells]


def only_named(result: ProseExtract) -> NamedValue:
    assert len(result.named) == 1, result.named
    return result.named[0]


# -- the seed page ---------------------------------------------------------------------------

GIVEN = (
    r"\mat{Q} = \mat{K} = \mat{V} = \begin{bmatrix} 1 & 0 \\ 0 & 1 \\ 1 & 1 \end{bmatrix}"
    r" \in \R^{3 \times 2}, \qquad \dk = 2 ."
)


def test_given_names_three_matrices_and_the_key_width() -> None:
    result = extract(GIVEN)
    qkv, dk = result.named
    assert qkv.names == ("Q", "K", "V")
    assert qkv.shape == (3, 2)
    assert [cell.text for cell in qkv.cells] == ["1", "0", "0", "1", "1", "1"]
    assert cells(GIVEN, qkv) == ["1", "0", "0", "1", "1", "1"]
    assert not any(cell.decimal for cell in qkv.cells)
    assert GIVEN[qkv.start :].startswith(r"\begin{bmatrix}")
    assert dk.names == ("d_k",)
    assert dk.shape == ()
    assert [cell.text for cell in dk.cells] == ["2"]
    assert dk.cells[0].start == GIVEN.rindex("2")
    assert result.free == [] and result.exempt == [] and result.problems == []


def test_given_cell_offsets_are_each_digit() -> None:
    qkv = extract(GIVEN).named[0]
    body = GIVEN.index(r"\begin{bmatrix}")
    expected = [m.start() for m in re.finditer(r"[01]", GIVEN[body : GIVEN.index(r"\end")])]
    assert [cell.start - body for cell in qkv.cells] == expected


SCORES = r"\mat{S} = \begin{bmatrix} 1 & 0 & 1 \\ 0 & 1 & 1 \\ 1 & 1 & 2 \end{bmatrix}"


def test_scores_are_an_integer_matrix() -> None:
    value = only_named(extract(SCORES))
    assert value.names == ("S",)
    assert value.shape == (3, 3)
    assert [c.text for c in value.cells] == ["1", "0", "1", "0", "1", "1", "1", "1", "2"]


ZED = (
    r"\mat{Z} = \begin{bmatrix} 0.7071 & 0 & 0.7071 \\ 0 & 0.7071 & 0.7071 \\"
    r" 0.7071 & 0.7071 & 1.4142 \end{bmatrix}"
)
ZED_LINES = r"""\mat{Z} = \begin{bmatrix}
  0.7071 & 0      & 0.7071 \\  % token 1
  0      & 0.7071 & 0.7071 \\
  0.7071 & 0.7071 & 1.4142 \\
\end{bmatrix}"""


@pytest.mark.parametrize("latex", [ZED, ZED_LINES])
def test_scaled_scores_on_one_line_or_several(latex: str) -> None:
    result = extract(latex)
    value = only_named(result)
    assert value.names == ("Z",)
    assert value.shape == (3, 3)
    texts = ["0.7071", "0", "0.7071", "0", "0.7071", "0.7071", "0.7071", "0.7071", "1.4142"]
    assert [c.text for c in value.cells] == texts
    assert cells(latex, value) == texts
    assert [c.decimal for c in value.cells] == ["." in t for t in texts]
    assert result.free == [] and result.problems == []


SHIFTED = (
    r"\vec{z} - \max = (0,\; -0.7071,\; 0), \qquad e^{0} = 1, \quad e^{-0.7071} = 0.4931 ."
)


def test_shifted_row_is_an_unnamed_value_and_exponentials_are_free_digits() -> None:
    result = extract(SHIFTED)
    [row] = result.named
    assert row.names == ()
    assert row.shape == (3,)
    assert [c.text for c in row.cells] == ["0", "-0.7071", "0"]
    assert row.cells[1].start == SHIFTED.index("-0.7071")
    assert [n.text for n in result.free] == ["-0.7071", "0.4931"]
    second, third = result.free
    assert second.start == SHIFTED.index("{-0.7071}") + 1
    assert third.start == SHIFTED.index("0.4931")
    assert free(SHIFTED, result) == ["-0.7071", "0.4931"]


def test_an_unnamed_tuple_of_decimals_is_a_value_to_match_whole() -> None:
    latex = "(-0.7071, -0.7071, 0)"
    [value] = extract(latex).named
    assert (value.names, value.shape) == ((), (3,))
    assert [c.text for c in value.cells] == ["-0.7071", "-0.7071", "0"]
    assert extract("(1, 0)").named == []  # integers only: an index pair, not a value


def test_square_root_of_the_key_width() -> None:
    latex = r"\sqrt{\dk} = \sqrt 2 \approx 1.4142"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["1.4142"]


def test_denominator_is_two_free_digits() -> None:
    latex = "1 + 0.4931 + 1 = 2.4931"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.4931", "2.4931"]


@pytest.mark.parametrize(
    ("latex", "texts"),
    [
        (r"\vec{z} = (0.7071, 0, 0.7071)", ["0.7071", "0", "0.7071"]),
        (r"\vec{z} = (0.7071, 0.7071, 1.4142)", ["0.7071", "0.7071", "1.4142"]),
    ],
)
def test_row_of_scaled_scores_is_a_named_tuple(latex: str, texts: list[str]) -> None:
    result = extract(latex)
    value = only_named(result)
    assert value.names == ("z",)
    assert value.shape == (3,)
    assert cells(latex, value) == texts
    assert latex[value.start] == "("
    assert result.free == []


@pytest.mark.parametrize(
    ("latex", "texts"),
    [
        ("0.4931, 0.4931, 1", ["0.4931", "0.4931"]),
        ("1.9862", ["1.9862"]),
        ("0.4011(0) + 0.1978(1) + 0.4011(1) = 0.5989", ["0.4011", "0.1978", "0.4011", "0.5989"]),
        ("0.4011 + 0.1978 + 0.4011 = 1.0000", ["0.4011", "0.1978", "0.4011", "1.0000"]),
    ],
)
def test_inline_numbers_without_a_name_are_free(latex: str, texts: list[str]) -> None:
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == texts
    assert [n.text for n in result.free] == texts


A_ONE = (
    r"\vec{a}_1 = \left(\tfrac{1}{2.4931},\; \tfrac{0.4931}{2.4931},\; \tfrac{1}{2.4931}\right)"
    r" = (0.4011,\; 0.1978,\; 0.4011) ."
)


def test_first_attention_row_names_the_literal_and_frees_the_fractions() -> None:
    result = extract(A_ONE)
    value = only_named(result)
    assert value.names == ("a_1",)
    assert value.shape == (3,)
    assert cells(A_ONE, value) == ["0.4011", "0.1978", "0.4011"]
    assert value.cells[0].start == A_ONE.index("0.4011")
    assert free(A_ONE, result) == ["2.4931", "0.4931", "2.4931", "2.4931"]
    assert [n.start for n in result.free] == sorted(n.start for n in result.free)


def test_third_attention_row() -> None:
    latex = r"\vec{a}_3 = (0.2483,\; 0.2483,\; 0.5035) ."
    value = only_named(extract(latex))
    assert value.names == ("a_3",)
    assert value.shape == (3,)
    assert cells(latex, value) == ["0.2483", "0.2483", "0.5035"]


OUT = r"O_{11} = 0.4011(1) + 0.1978(0) + 0.4011(1) = 0.8022 ,"


def test_output_entry_names_the_last_term_and_frees_the_products() -> None:
    result = extract(OUT)
    value = only_named(result)
    assert value.names == ("O_11",)
    assert value.shape == ()
    assert [c.text for c in value.cells] == ["0.8022"]
    assert value.cells[0].start == OUT.index("0.8022")
    assert value.start == OUT.index("0.8022")
    assert free(OUT, result) == ["0.4011", "0.1978", "0.4011"]


ANSWER = (
    r"\mat{A} = \begin{bmatrix} 0.4011 & 0.1978 & 0.4011 \\ 0.1978 & 0.4011 & 0.4011 \\"
    r" 0.2483 & 0.2483 & 0.5035 \end{bmatrix}, \qquad \mat{O} = \begin{bmatrix} 0.8022 &"
    r" 0.5989 \\ 0.5989 & 0.8022 \\ 0.7517 & 0.7517 \end{bmatrix}"
)


def test_answer_names_both_matrices() -> None:
    result = extract(ANSWER)
    a, o = result.named
    assert (a.names, a.shape) == (("A",), (3, 3))
    assert cells(ANSWER, a) == ["0.4011", "0.1978", "0.4011", "0.1978", "0.4011", "0.4011",
                                "0.2483", "0.2483", "0.5035"]
    assert (o.names, o.shape) == (("O",), (3, 2))
    assert cells(ANSWER, o) == ["0.8022", "0.5989", "0.5989", "0.8022", "0.7517", "0.7517"]
    assert o.cells[0].start == ANSWER.index("0.8022")
    assert result.free == [] and result.problems == []


def test_variation_names_new_values() -> None:
    latex = r"\mat{V} = \begin{bmatrix} 2 & 0 \\ 0 & 2 \\ 2 & 2 \end{bmatrix}"
    value = only_named(extract(latex))
    assert (value.names, value.shape) == (("V",), (3, 2))
    dk = only_named(extract(r"\dk = 8"))
    assert (dk.names, [c.text for c in dk.cells]) == (("d_k",), ["8"])


@pytest.mark.parametrize(
    "latex",
    [
        r"S_{ij}",
        r"\mat{S} = \mat{Q}\mat{K}^{\mathsf T}",
        r"\mat{O} = \mat{A}\mat{V}",
        r"\mat{Q} = \mat{K}",
        r"i",
        r"3 \times 3",
        r"(1,1)",
        r"(1,0)",
        r"[0,1]",
        r"\mat{V}",
    ],
)
def test_seed_formulas_that_hold_nothing_to_check(latex: str) -> None:
    result = extract(latex)
    assert replace(result, equations=[]) == ProseExtract()


# -- signs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        ("-0.5", "-0.5"),
        ("x = -0.5", "-0.5"),
        ("(-0.5)", "-0.5"),
        ("1, -0.5", "-0.5"),
        (r"\begin{matrix} 1 & -0.5 \end{matrix}", "-0.5"),
        (r"\begin{matrix} 1 \\ -0.5 \end{matrix}", "-0.5"),
        ("e^{-0.5}", "-0.5"),
        (r"\frac{-0.5}{2}", "-0.5"),
        (r"x_{-0.5}", "-0.5"),
        (r"y \approx -0.5", "-0.5"),
        (r"2 \times -0.5", "-0.5"),
        (r"\left( -0.5 \right)", "-0.5"),
        (r"(0,\; -0.5)", "-0.5"),
        ("- 0.5", "-0.5"),
        ("−0.5", "-0.5"),
        ("|-0.5|", "-0.5"),
        ("1 - 0.5", "0.5"),
        ("x - 0.5", "0.5"),
        ("(x) - 0.5", "0.5"),
        (r"\sqrt{2} - 0.5", "0.5"),
        ("|x| - 0.5", "0.5"),
        (r"\alpha - 0.5", "0.5"),
    ],
)
def test_a_minus_is_a_sign_only_where_nothing_precedes_it(latex: str, text: str) -> None:
    result = extract(latex)
    numbers = [n for n in _numbers(result) if n.text.endswith("0.5")]
    assert [n.text for n in numbers] == [text]
    start = numbers[0].start
    assert latex[start] in ("-−" if text.startswith("-") else "0")


def test_a_synthetic_minus_from_a_macro_body_is_not_a_sign() -> None:
    latex = r"\neg{0.5}"
    result = extract(latex, {"neg": ("-#1", 1)})
    assert [(n.text, written(latex, n)) for n in result.free] == [("0.5", "0.5")]


# -- named values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "normal"),
    [
        ("x", "x"),
        (r"\alpha", "alpha"),
        (r"\Sigma", "Sigma"),
        (r"\mathbf{X}", "X"),
        (r"\mat{X}", "X"),
        (r"\boldsymbol{\mu}", "mu"),
        (r"\bm{x}", "x"),
        (r"\vec x", "x"),
        (r"\vec{a}_1", "a_1"),
        (r"a_{1}", "a_1"),
        (r"a_1", "a_1"),
        (r"d_k", "d_k"),
        (r"\dk", "d_k"),
        (r"O_{11}", "O_11"),
        (r"S_{ij}", "S_ij"),
        (r"X_{1,2}", "X_1,2"),
        (r"X_{10, 2}", "X_10,2"),
        (r"W_{\text{max}}", "W_max"),
        (r"\sigma_{\alpha}", "sigma_alpha"),
        (r"\hat{y}", "y_hat"),
        (r"\bar{x}", "x_bar"),
        (r"\tilde{x}", "x_tilde"),
        (r"\hat{y}_1", "y_hat_1"),
        (r"\hat{y_1}", "y_hat_1"),
        (r"\boldsymbol{\hat{y}}", "y_hat"),
        (r"x'", "x_prime"),
        (r"\mathrm{loss}", "loss"),
        (r"\text{loss}", "loss"),
        (r"\operatorname{softmax}", "softmax"),
        (r"\mathrm{loss}_{2}", "loss_2"),
        (r"\mathbf{W}_q", "W_q"),
        (r"{x}", "x"),
    ],
)
def test_names_are_normalised(name: str, normal: str) -> None:
    latex = f"{name} = 0.5"
    value = only_named(extract(latex))
    assert value.names == (normal,)
    assert cells(latex, value) == ["0.5"]


@pytest.mark.parametrize(
    "term",
    [
        "ab",
        "2x",
        "x^2",
        r"K^{\mathsf T}",
        r"x_1^2",
        r"\mathbf{ab}",
        r"\text{loss rate}",
        r"f(x)",
        r"\max",
        r"x_{0.5}",
        r"\sqrt{x}",
        r"e^{0}",
    ],
)
def test_terms_that_are_not_names(term: str) -> None:
    result = extract(f"{term} = 0.25")
    assert result.named == []
    assert [n.text for n in result.free][-1] == "0.25"


def test_every_name_of_a_chain_gets_every_literal() -> None:
    latex = r"x = y = 0.5 = \tfrac{1}{2}"
    value = only_named(extract(latex))
    assert value.names == ("x", "y")
    latex = r"x = 0.5 \approx 0.50"
    first, second = extract(latex).named
    assert first.names == second.names == ("x",)
    assert [c.text for c in first.cells + second.cells] == ["0.5", "0.50"]


def test_a_name_after_the_literal_counts_too() -> None:
    value = only_named(extract("0.5 = p"))
    assert value.names == ("p",)


def test_a_repeated_name_is_listed_once() -> None:
    value = only_named(extract("x = 2x - x = 0.5"))
    assert value.names == ("x",)


@pytest.mark.parametrize(
    "relation", [r"\in", "<", ">", r"\le", r"\leq", r"\ge", r"\geq", r"\ne", r"\neq", r"\to",
                 r"\mapsto"],
)
def test_other_relations_end_the_chain(relation: str) -> None:
    latex = f"x {relation} 0.5"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.5"]


@pytest.mark.parametrize(
    ("latex", "named"),
    [
        (r"0 < \eta = 0.5528 < 2/\lambda_{\max}", [(("eta",), ["0.5528"])]),
        (r"w_1 = 0.5130 > w_2 = 0.5130", [(("w_1",), ["0.5130"]), (("w_2",), ["0.5130"])]),
        (r"p \in [0.412, 0.588]", []),  # an interval need not be a printed array
    ],
)
def test_a_chain_after_an_inequality_names_its_values(
    latex: str, named: list[tuple[tuple[str, ...], list[str]]]
) -> None:
    assert [(value.names, cells(latex, value)) for value in extract(latex).named] == named


@pytest.mark.parametrize(
    ("latex", "name"),
    [(r"\lambda_{\max} = 1.3820", "lambda_max"), (r"\lambda_\min = 1.3820", "lambda_min"),
     (r"w_1 = 1.3820\ldots", "w_1"), (r"w_1 = 1.3820\dots", "w_1")],
)
def test_operator_subscripts_and_an_ellipsis_keep_the_name(latex: str, name: str) -> None:
    value = only_named(extract(latex))
    assert (value.names, cells(latex, value)) == ((name,), ["1.3820"])


def test_what_follows_the_end_of_a_chain_is_not_its_value() -> None:
    latex = r"x = 0.25 \in (0.1, 0.5)"
    result = extract(latex)
    value = only_named(result)
    assert cells(latex, value) == ["0.25"]
    assert free(latex, result) == ["0.1", "0.5"]


@pytest.mark.parametrize(
    "latex", [r"\hat{p} = 0.5 \pm 0.088", r"\hat{p} = 0.5 ± 0.088",
              r"\hat{p} = 0.5 \pm 1.96 \times 0.0449"])
def test_a_value_with_its_margin_is_the_value(latex: str) -> None:
    result = extract(latex)
    value = only_named(result)
    assert (value.names, cells(latex, value)) == (("p_hat",), ["0.5"])
    assert "0.5" not in free(latex, result)


@pytest.mark.parametrize(
    "latex",
    [r"\lambda_1, \lambda_2 = 3.6180, 1.3820", r"\lambda_1,\; \lambda_2 = 3.6180,\; 1.3820."],
)
def test_names_and_numbers_listed_in_pairs(latex: str) -> None:
    result = extract(latex)
    assert [(value.names, cells(latex, value)) for value in result.named] == [
        (("lambda_1",), ["3.6180"]), (("lambda_2",), ["1.3820"])]
    assert free(latex, result) == []


@pytest.mark.parametrize(
    ("latex", "names"),
    [(r"a, b = 0.5", [("b",)]), (r"a = 0.5,\; b = 0.25", [("a",), ("b",)]),
     (r"a, b = 0.5 \\ 0.25", [("b",)])],
)
def test_lists_that_are_not_pairs(latex: str, names: list[tuple[str, ...]]) -> None:
    assert [value.names for value in extract(latex).named] == names


@pytest.mark.parametrize("arrow", [r"\leftarrow", r"\gets", "←"])
def test_a_minus_after_an_assignment_arrow_is_a_sign(arrow: str) -> None:
    # and the arrow names the value: `\theta \gets -0.51` gives theta its value
    latex = rf"\theta {arrow} -0.51"
    value = only_named(extract(latex))
    assert (value.names, cells(latex, value)) == (("theta",), ["-0.51"])


@pytest.mark.parametrize("function", [r"\ln", r"\log", r"\exp"])
def test_a_minus_right_after_a_function_is_its_arguments_sign(function: str) -> None:
    latex = f"{function} -11.875 = 2.4744"
    assert free(latex, extract(latex))[0] == "-11.875"


@pytest.mark.parametrize("relation", [":=", r"\coloneqq", r"\equiv", r"\approx"])
def test_equalities_that_continue_a_chain(relation: str) -> None:
    value = only_named(extract(f"x {relation} 0.5"))
    assert value.names == ("x",)


def test_probability_entry() -> None:
    latex = "P_{22} = 0.25"
    value = only_named(extract(latex))
    assert (value.names, value.shape, cells(latex, value)) == (("P_22",), (), ["0.25"])


def test_an_expression_chain_names_nothing() -> None:
    latex = "x - 0.5 = 1.5"
    result = extract(latex)
    assert result.named == []
    assert [n.text for n in result.free] == ["0.5", "1.5"]
    assert free(latex, result) == ["0.5", "1.5"]


def test_infinity_is_a_literal_but_not_a_free_digit() -> None:
    latex = r"m = -\infty, \quad M = \infty, \quad \infty > 0.5"
    result = extract(latex)
    low, high = result.named
    assert (low.names, [c.text for c in low.cells]) == (("m",), ["-inf"])
    assert written(latex, low.cells[0]) == r"-\infty"
    assert (high.names, [c.text for c in high.cells]) == (("M",), ["inf"])
    assert free(latex, result) == ["0.5"]


# -- scientific notation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "text", "span"),
    [
        (r"1.2 \times 10^{-5}", "1.2e-5", r"1.2 \times 10^{-5}"),
        (r"-1.2\times10^{-5}", "-1.2e-5", r"-1.2\times10^{-5}"),
        (r"3 \cdot 10^{4}", "3e4", r"3 \cdot 10^{4}"),
        (r"2.5 \times 10^3", "2.5e3", r"2.5 \times 10^3"),
        (r"1.2e-5", "1.2e-5", "1.2e-5"),
    ],
)
def test_scientific_notation_is_one_number(latex: str, text: str, span: str) -> None:
    result = extract(latex)
    assert [(n.text, written(latex, n), n.decimal) for n in result.free] == [(text, span, True)]


def test_scientific_literal_is_named() -> None:
    latex = r"\epsilon = 1.2 \times 10^{-5}"
    value = only_named(extract(latex))
    assert value.names == ("epsilon",)
    assert [c.text for c in value.cells] == ["1.2e-5"]
    assert cells(latex, value) == [r"1.2 \times 10^{-5}"]


def test_integers_alone_are_never_free() -> None:
    assert extract(r"2 \times 10 + x_{12} + 3^{4} - 10^{3} + 2e-1").free == []


def test_a_bare_power_of_ten_stays_apart() -> None:
    result = extract(r"0.5 \times 10^12")
    assert [n.text for n in result.free] == ["0.5"]
    assert [p.message for p in result.problems] == [
        "`^12` raises only its first digit, as TeX reads it (it renders as `^{1}2`); write"
        " `^{12}` to raise all of it, or `^{1}2` if that is what you mean"
    ]


# -- tuples ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tuple_latex",
    [
        "(0.1, 0.2, 0.3)",
        r"\left(0.1,\; 0.2,\quad 0.3\right)",
        r"\left( 0.1 ,\, 0.2 ,\: 0.3 \right)",
        "[0.1, 0.2, 0.3]",
        r"\left[0.1, 0.2, 0.3\right]",
        r"\bigl(0.1,\ 0.2,~0.3\bigr)",
        r"\Bigl[0.1, 0.2, 0.3\Bigr]",
        r"\big(0.1, 0.2, 0.3\big)",
        "(0.1,\n 0.2,\n 0.3)",
    ],
)
def test_tuples_in_any_brackets_and_spacing(tuple_latex: str) -> None:
    latex = rf"\vec{{v}} = {tuple_latex} ."
    value = only_named(extract(latex))
    assert value.names == ("v",)
    assert value.shape == (3,)
    assert cells(latex, value) == ["0.1", "0.2", "0.3"]


def test_nested_tuples_of_equal_length_are_two_dimensional() -> None:
    latex = "Q = ((1, 0.5), (0.25, -2), (3, 4))"
    value = only_named(extract(latex))
    assert value.shape == (3, 2)
    assert cells(latex, value) == ["1", "0.5", "0.25", "-2", "3", "4"]


@pytest.mark.parametrize(
    "latex",
    ["q = ((1, 0.5), (0.25))", "q = (0.5, x)", "q = [0.5, 1)", r"q = \{0.5, 1\}"],
)
def test_tuples_that_are_not_literals(latex: str) -> None:
    result = extract(latex)
    assert result.named == []
    assert "0.5" in [n.text for n in result.free]


def test_one_number_in_parentheses_is_a_scalar_and_in_brackets_a_vector() -> None:
    assert only_named(extract("x = (0.5)")).shape == ()
    assert only_named(extract("x = [0.5]")).shape == (1,)


def test_a_comma_inside_brackets_does_not_split_the_equation() -> None:
    latex = r"f(0.5, 2) = 0.25, \quad g = 0.75"
    result = extract(latex)
    value = only_named(result)
    assert value.names == ("g",)
    assert free(latex, result) == ["0.5", "0.25"]


# -- matrices --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "env",
    ["matrix", "bmatrix", "pmatrix", "Bmatrix", "smallmatrix", "bmatrix*", "pmatrix*"],
)
def test_every_matrix_environment_is_a_value(env: str) -> None:
    latex = rf"M = \begin{{{env}}} 0.5 & -1 \\ 2 & 0.25 \end{{{env}}}"
    value = only_named(extract(latex))
    assert value.shape == (2, 2)
    assert cells(latex, value) == ["0.5", "-1", "2", "0.25"]


@pytest.mark.parametrize("env", ["vmatrix", "Vmatrix", "vmatrix*"])
def test_a_matrix_between_bars_is_no_value_of_a_name(env: str) -> None:
    # \det A_1 = |…| = 26: the name's value is the 26 (a determinant, a scalar), never 3×3
    latex = rf"\det A_1 = \begin{{{env}}} 3 & 1 \\ 1 & 3 \end{{{env}}} = 8"
    value = only_named(extract(latex))
    assert value.shape == ()
    assert cells(latex, value) == ["8"]


def test_column_vector_in_pmatrix() -> None:
    latex = r"\vec{v} = \begin{pmatrix} 0.5 \\ -0.25 \\ 1 \end{pmatrix}"
    value = only_named(extract(latex))
    assert (value.names, value.shape) == (("v",), (3, 1))
    assert cells(latex, value) == ["0.5", "-0.25", "1"]


def test_matrix_options_row_spacing_and_a_trailing_row_break() -> None:
    latex = r"A = \begin{bmatrix*}[r] -1 & 0.5 \\[2pt] 2 & 3 \\ \end{bmatrix*}"
    value = only_named(extract(latex))
    assert value.shape == (2, 2)
    assert cells(latex, value) == ["-1", "0.5", "2", "3"]


def test_array_in_brackets_is_a_matrix() -> None:
    latex = r"B = \left[\begin{array}{cc} 0.5 & 1 \\ 2 & 0.25 \end{array}\right]"
    value = only_named(extract(latex))
    assert value.shape == (2, 2)
    assert cells(latex, value) == ["0.5", "1", "2", "0.25"]


def test_a_ragged_matrix_is_a_problem_and_its_decimals_are_free() -> None:
    latex = r"\mat{X} = \begin{bmatrix} 0.1 & 0.2 & 0.3 \\ 0.4 & 0.5 \end{bmatrix}"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.1", "0.2", "0.3", "0.4", "0.5"]
    [problem] = result.problems
    assert problem.message == (
        "matrix rows have different lengths: row 1 has 3 entries, row 2 has 2"
    )
    assert latex[problem.where :].startswith("0.4")


def test_a_matrix_with_symbols_is_an_expression() -> None:
    latex = r"M = \begin{bmatrix} a & 0.5 \\ \vdots & \ddots \end{bmatrix}"
    result = extract(latex)
    assert result.named == [] and result.problems == []
    assert free(latex, result) == ["0.5"]


def test_an_empty_cell_makes_no_literal() -> None:
    result = extract(r"M = \begin{bmatrix} 0.5 & \\ 1 & 2 \end{bmatrix}")
    assert result.named == []


# -- blocks of equations ---------------------------------------------------------------------


def test_align_reads_each_line_and_continuation_lines() -> None:
    latex = r"""\begin{align}
x &= 0.5 \\
y &= 1 - 0.25 \\
  &= 0.75 \label{eq:y}
\end{align}"""
    result = extract(latex)
    x, y = result.named
    assert (x.names, cells(latex, x)) == (("x",), ["0.5"])
    assert (y.names, cells(latex, y)) == (("y",), ["0.75"])
    assert free(latex, result) == ["0.25"]


def test_a_sum_carried_over_lines_stays_one_equation() -> None:
    latex = r"""\begin{aligned}
O_{11} &= 0.4011 \cdot 1 + 0.1978 \cdot 0 \\
       &\quad + 0.4011 \cdot 1 \\
       &= 0.8022
\end{aligned}"""
    result = extract(latex)
    value = only_named(result)
    assert (value.names, cells(latex, value)) == (("O_11",), ["0.8022"])
    assert free(latex, result) == ["0.4011", "0.1978", "0.4011"]


def test_spacing_next_to_a_relation_does_not_split() -> None:
    latex = r"x =\quad 0.5 \qquad y \quad = 0.25"
    x, y = extract(latex).named
    assert (x.names, y.names) == (("x",), ("y",))


def test_row_spacing_is_not_a_number_but_a_bracket_after_a_break_is() -> None:
    latex = r"x = 0.5 \\[0.5em] y = 0.25 \\ [0.75]"
    result = extract(latex)
    assert [v.names for v in result.named] == [("x",), ("y",)]
    assert free(latex, result) == ["0.75"]


def test_an_ampersand_before_anything_but_a_relation_splits() -> None:
    latex = "a = 1 & b = 0.5"
    a, b = extract(latex).named
    assert (a.names, b.names) == (("a",), ("b",))
    assert [c.text for c in a.cells + b.cells] == ["1", "0.5"]


def test_semicolons_and_quads_split() -> None:
    latex = r"a = 0.1; b = 0.2 \quad c = 0.3 \qquad d = 0.4 \\ e = 0.5"
    result = extract(latex)
    assert [v.names[0] for v in result.named] == ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize(
    "env", ["aligned", "gathered", "split", "equation", "multline", "gather*", "align*"],
)
def test_layout_environments_are_read_as_equations(env: str) -> None:
    latex = rf"\begin{{{env}}} x &= 0.5 \\ y &= 0.25 \end{{{env}}}"
    result = extract(latex)
    assert [v.names for v in result.named] == [("x",), ("y",)]


def test_layout_nested_in_an_equation_is_read() -> None:
    latex = (r"\left\{ \begin{aligned}[t] x &= 0.5 \\ y &\approx 0.25 \end{aligned} \right."
             r" \quad z = 0.125")
    result = extract(latex)
    assert sorted(v.names[0] for v in result.named) == ["x", "y", "z"]


def test_cases_are_layout() -> None:
    latex = r"f = \begin{cases} 0.5 & x > 0 \\ -0.5 & \text{otherwise} \end{cases}"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.5", "-0.5"]


def test_boxed_is_read_as_a_block() -> None:
    latex = r"\boxed{\mat{A} = (0.5, 0.25)}"
    assert only_named(extract(latex)).names == ("A",)


def test_colour_and_starred_tags_are_not_math() -> None:
    latex = r"x = \textcolor{red}{0.5}, \quad y = {\color{blue} 0.25} \tag*{1.5}"
    result = extract(latex)
    assert [(v.names, cells(latex, v)) for v in result.named] == [
        (("x",), ["0.5"]), (("y",), ["0.25"]),
    ]
    assert result.free == []


def test_markup_that_is_not_math_is_ignored() -> None:
    latex = r"x = 0.5 \label{eq:1.5} \tag{2.5} \nonumber \phantom{0.75} % 0.125"
    result = extract(latex)
    assert only_named(result).names == ("x",)
    assert result.free == []


# -- text inside math ------------------------------------------------------------------------


def test_text_inside_math_follows_the_prose_rules() -> None:
    latex = r"x = 0.5 \quad \text{(Log-sum-exp 0.NU.02, step 1.5 of II.3.B01)}"
    result = extract(latex)
    assert only_named(result).names == ("x",)
    assert free(latex, result) == ["1.5"]


# -- exemption -------------------------------------------------------------------------------


def test_unchecked_numbers_are_exempt_not_free() -> None:
    latex = rf"a = \{EXEMPT_MACRO}{{0.123}} + 0.5, \quad b = \unchecked{{0.25}}"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.5"]
    assert [(n.text, n.exempt, written(latex, n)) for n in result.exempt] == [
        ("0.123", True, "0.123"), ("0.25", True, "0.25"),
    ]


def test_a_named_value_inside_unchecked_is_dropped() -> None:
    latex = r"\mat{A} = \unchecked{\begin{bmatrix} 0.5 & 1 \end{bmatrix}}"
    result = extract(latex)
    assert result.named == [] and result.free == []
    assert [n.text for n in result.exempt] == ["0.5", "1"]


def test_a_partly_unchecked_value_is_dropped_and_its_other_decimals_are_free() -> None:
    latex = r"v = (0.5, \unchecked{0.6}, 0.7)"
    result = extract(latex)
    assert result.named == []
    assert free(latex, result) == ["0.5", "0.7"]
    assert [n.text for n in result.exempt] == ["0.6"]


def test_unchecked_wins_over_a_macro_of_the_same_name() -> None:
    macros = {**BOOK, "unchecked": ("#1", 1)}
    result = extract(r"x = \unchecked{0.5}", macros)
    assert result.free == [] and result.named == []
    assert [n.text for n in result.exempt] == ["0.5"]


def test_unchecked_without_an_argument_is_a_problem() -> None:
    result = extract(r"0.5 \unchecked")
    assert len(result.problems) == 1
    assert "needs the exempt text in braces" in result.problems[0].message


# -- macros ----------------------------------------------------------------------------------


def test_a_decimal_in_a_macro_argument_keeps_its_offset() -> None:
    latex = r"y = \mat{0.5} + \mat{0.25}"
    result = extract(latex)
    assert result.named == []
    assert [(n.text, n.start) for n in result.free] == [
        ("0.5", latex.index("0.5")), ("0.25", latex.index("0.25")),
    ]


def test_a_number_in_a_macro_body_is_never_reported() -> None:
    macros = {"half": ("0.5", 0), "scaled": (r"0.25 \cdot #1", 1)}
    latex = r"x = \half, \quad y = \scaled{0.75}"
    result = extract(latex, macros)
    assert result.named == []
    assert free(latex, result) == ["0.75"]


def test_macros_expand_inside_macros() -> None:
    macros = {**BOOK, "W": (r"\mat{W}_{#1}", 1)}
    latex = r"\W{q} = (0.5, 0.25)"
    value = only_named(extract(latex, macros))
    assert value.names == ("W_q",)
    assert cells(latex, value) == ["0.5", "0.25"]


def test_macro_names_may_carry_their_backslash() -> None:
    value = only_named(extract(r"\dk = 0.5", {"\\dk": ("d_k", 0)}))
    assert value.names == ("d_k",)


def test_a_macro_with_too_few_arguments_is_a_problem() -> None:
    result = extract(r"\mat")
    assert [p.message for p in result.problems] == [
        "the macro `\\mat` takes 1 argument(s), but only 0 follow(s) it here; give it each"
        " argument in braces, as its definition in verified_macros asks"
    ]


@pytest.mark.parametrize("body", [r"\loop", r"\loop\loop", r"{\loop}"])
def test_a_macro_that_expands_without_end_is_a_problem(body: str) -> None:
    result = extract(r"\loop = 0.5, \quad \mat{A} = (0.25)", {**BOOK, "loop": (body, 0)})
    assert [p.message for p in result.problems] == ["the macro `\\loop` expands without end"]
    assert [n.text for n in result.free] == ["0.5"]
    assert only_named(result).names == ("A",)


def test_unknown_macros_are_operators_whose_arguments_are_read() -> None:
    latex = r"\foo{0.5}{x} = \bar{0.25} \baz 0.75"
    result = extract(latex, {})
    assert result.named == []
    assert free(latex, result) == ["0.5", "0.25", "0.75"]


# -- malformed input -------------------------------------------------------------------------


def test_an_unclosed_brace_is_a_problem_and_the_rest_is_still_read() -> None:
    latex = r"x = 0.5, \quad \sqrt{y = 0.25"
    result = extract(latex)
    assert only_named(result).names == ("x",)
    assert free(latex, result) == ["0.25"]
    [problem] = result.problems
    assert problem.message == ("unbalanced braces: the `{` at this point is never closed;"
                               " close it with `}`, or write `\\{` for a brace the formula shows")
    assert latex[problem.where] == "{"


def test_a_stray_closing_brace_is_a_problem() -> None:
    latex = "x} = 0.5"
    result = extract(latex)
    [problem] = result.problems
    assert problem.message == ("unbalanced braces: this `}` closes no `{`; drop it, or write"
                               " `\\}` for a brace the formula shows")
    assert problem.where == 1


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"\begin{bmatrix} 0.5 & 1", "`\\begin{bmatrix}` is never closed by `\\end{bmatrix}`;"
         " add it where the environment ends"),
        (r"\begin{bmatrix} 0.5 \end{pmatrix}",
         "`\\end{pmatrix}` here closes `\\begin{bmatrix}`; write `\\end{bmatrix}`"),
        (r"0.5 \end{bar}", "`\\end{bar}` here closes no `\\begin{bar}`; add"
         " `\\begin{bar}` where it starts, or drop this"),
        (r"\left( 0.5", "this `\\left` is never closed by a `\\right`; put `\\right.`"
         " (which shows nothing) where the pair closes"),
        (r"0.5 \right)", "this `\\right` has no `\\left` before it; put `\\left.`"
         " (which shows nothing) where the pair opens"),
        (r"O_11 = 0.5", "`_11` subscripts only its first digit, as TeX reads it (it renders as"
                        " `_{1}1`); write `_{11}` to subscript all of it, or `_{1}1` if that"
                        " is what you mean"),
        (r"2x = $0.5", "this `$` is never closed by `$`; close it, or write `\\$`"
         " for a dollar sign"),
        (r"\begin 0.5", "`\\begin` needs an environment name in braces, as in `\\begin{bmatrix}`"),
    ],
)
def test_malformed_input_is_reported_once(latex: str, message: str) -> None:
    result = extract(latex)
    assert [p.message for p in result.problems] == [message]
    unnamed = [c.text for v in result.named for c in v.cells if c.decimal]
    assert [n.text for n in result.free] + unnamed == ["0.5"]


def test_unknown_environment_where_a_value_was_expected() -> None:
    latex = r"\mat{X} = \begin{foo} 0.5 \end{foo}"
    result = extract(latex)
    [problem] = result.problems
    assert problem.message == (
        "unknown environment `foo`: the value of X is not read from it; write it as a bmatrix,"
        " pmatrix or another matrix environment"
    )
    assert latex[problem.where :].startswith(r"\begin{foo}")
    assert free(latex, result) == ["0.5"]


def test_an_unknown_environment_elsewhere_is_read_silently() -> None:
    result = extract(r"\begin{foo} x = 0.5 \end{foo}")
    assert only_named(result).names == ("x",) and result.problems == []


def test_empty_input() -> None:
    assert extract("") == ProseExtract()


# -- properties ------------------------------------------------------------------------------

_DECIMALS = st.builds(
    lambda sign, whole, digits: f"{sign}{whole}.{digits}",
    st.sampled_from(["", "-"]),
    st.sampled_from(["0", "1", "12", ""]),
    st.from_regex(r"[0-9]{1,6}", fullmatch=True),
)
_INTEGERS = st.builds(lambda sign, n: f"{sign}{n}", st.sampled_from(["", "-"]),
                      st.integers(0, 999))
_CELLS = st.one_of(_DECIMALS, _INTEGERS)
_GAPS = st.sampled_from(["", " ", "  ", "\n", "\n    ", r"\,", r"\;", r"\quad ", r"\ ", "~",
                         " % note\n"])
_MATRICES = st.sampled_from(["matrix", "bmatrix", "pmatrix", "Bmatrix", "smallmatrix"])
_NAMES = st.sampled_from([("A", "A"), (r"\mat{A}", "A"), (r"\mathbf{W}_{q}", "W_q"),
                          (r"\boldsymbol{\Sigma}", "Sigma"), (r"\vec{a}_1", "a_1")])


@st.composite
def _matrix_latex(draw: st.DrawFn) -> tuple[str, str, list[list[str]]]:
    rows = draw(st.integers(1, 4))
    columns = draw(st.integers(1, 4))
    matrix = [[draw(_CELLS) for _ in range(columns)] for _ in range(rows)]
    env = draw(_MATRICES)
    name, normal = draw(_NAMES)
    parts = [name, draw(_GAPS), "=", draw(_GAPS), rf"\begin{{{env}}}"]
    for r, row in enumerate(matrix):
        for c, cell in enumerate(row):
            parts += [draw(_GAPS), cell, draw(_GAPS)]
            if c < columns - 1:
                parts.append("&")
        if r < rows - 1 or draw(st.booleans()):
            parts += [r"\\", draw(_GAPS)]
    parts += [rf"\end{{{env}}}", draw(st.sampled_from(["", " .", ",", r" \in \R^{2}"]))]
    return "".join(parts), normal, matrix


@given(_matrix_latex())
@settings(max_examples=200, deadline=None)
def test_matrices_round_trip(case: tuple[str, str, list[list[str]]]) -> None:
    latex, normal, matrix = case
    result = extract(latex)
    value = only_named(result)
    assert value.names == (normal,)
    assert value.shape == (len(matrix), len(matrix[0]))
    flat = [cell for row in matrix for cell in row]
    assert [c.text for c in value.cells] == flat
    assert cells(latex, value) == flat
    assert [c.decimal for c in value.cells] == ["." in cell for cell in flat]
    assert result.free == [] and result.problems == []


@st.composite
def _tuple_latex(draw: st.DrawFn) -> tuple[str, list[str]]:
    entries = draw(st.lists(_CELLS, min_size=2, max_size=6))
    left, right = draw(st.sampled_from([("(", ")"), (r"\left(", r"\right)"), ("[", "]"),
                                        (r"\left[", r"\right]"), (r"\bigl(", r"\bigr)")]))
    body = "".join(
        (entry if k == 0 else "," + draw(_GAPS) + entry) + draw(_GAPS)
        for k, entry in enumerate(entries)
    )
    return rf"\vec{{x}} ={draw(_GAPS)}{left}{draw(_GAPS)}{body}{right} .", entries


@given(_tuple_latex())
@settings(max_examples=200, deadline=None)
def test_tuples_round_trip(case: tuple[str, list[str]]) -> None:
    latex, entries = case
    value = only_named(extract(latex))
    assert value.shape == (len(entries),)
    assert cells(latex, value) == entries


_FRAGMENTS = st.sampled_from(
    ["x", "=", "0.5", "-", "1", "{", "}", "(", ")", "[", "]", "&", r"\\", ",", r"\left(",
     r"\right)", r"\begin{bmatrix}", r"\end{bmatrix}", r"\begin{aligned}", r"\end{aligned}",
     r"\mat{", r"\unchecked{", "^", "_", r"\frac", r"\times", "10", r"\infty", r"\text{",
     " ", "\n", "%", r"\in", r"\approx", r"\dk", "−", ".", "e", r"\qquad", "$", "#", "~"]
)


@given(st.lists(_FRAGMENTS, max_size=40).map("".join))
@settings(max_examples=400, deadline=None)
def test_any_input_gives_an_extract_and_never_raises(latex: str) -> None:
    result = extract(latex)  # the helper checks every span against its text
    for number in _numbers(result):
        assert 0 <= number.start < number.end <= len(latex)


_PLAIN_FRAGMENTS = _FRAGMENTS.filter(lambda fragment: fragment not in ("%", r"\text{"))


@given(st.lists(_PLAIN_FRAGMENTS, max_size=40).map("".join))
@settings(max_examples=400, deadline=None)
def test_no_decimal_goes_unread(latex: str) -> None:
    result = extract(latex)
    spans = [(n.start, n.end) for n in _numbers(result) if n.decimal]
    for match in re.finditer(r"[0-9]*\.[0-9]+", latex):
        assert any(start <= match.start() and match.end() <= end for start, end in spans), (
            match.group(), latex
        )


def _without_equations(extract: ProseExtract) -> str:
    return repr(replace(extract, equations=[]))


def test_a_remembered_extract_is_the_same_and_a_caller_cannot_spoil_it() -> None:
    # Extracts are remembered by block and macros; each call still gets lists of its own.
    latex = r"\vec{p} = (0.0900, 0.2447) \quad e^{-2} = 0.1353"
    first = read_math(latex)
    expected = _without_equations(first)
    assert [value.names for value in first.named] == [("p",)]
    first.named.clear()
    first.free.append(ProseNumber("9.9999", 0, 6, True))
    assert _without_equations(read_math(latex)) == expected
    assert _without_equations(read_math(latex, {"vec": (r"\mathbf{#1}", 1)})) == expected
    other = read_math(latex, {"vec": ("v", 0)})  # `v{p}` is no name: an unnamed tuple
    assert [value.names for value in other.named] == [()]


@pytest.mark.parametrize(
    ("latex", "name", "cell"),
    [
        (r"H = 1.4548 \;\text{bits}", "H", "1.4548"),
        (r"H = 1.4548\,\mathrm{bits} .", "H", "1.4548"),
        (r"t = 0.25 \textrm{ s}", "t", "0.25"),
        (r"H = {0.6931 \text{ nats}}", "H", "0.6931"),
    ],
)
def test_a_unit_after_a_number_leaves_it_a_named_value(latex: str, name: str, cell: str) -> None:
    # A unit used to make the term an expression: the value went unnamed, a free digit that any
    # printed number could match.
    result = extract(latex)
    assert [(v.names, [c.text for c in v.cells]) for v in result.named] == [((name,), [cell])]
    assert result.free == []


def test_text_after_a_number_that_holds_a_decimal_is_no_unit() -> None:
    result = extract(r"p = 0.5 \text{ (about 0.49)}")
    assert result.named == []
    assert [n.text for n in result.free] == ["0.5", "0.49"]
    assert extract(r"\mathrm{loss} = 0.25").named[0].names == ("loss",)  # still a name


def test_a_null_delimiter_before_a_digit_is_no_decimal_point() -> None:
    # `\left.0.5` was read as the numbers .0 and .5, and the \right as unpaired.
    result = extract(r"\left.0.5\right|_{0} = 0.5")
    assert [n.text for n in result.free] == ["0.5", "0.5"]
    assert result.problems == []
    assert [n.text for n in extract(r"\bigl.0.25\bigr|").free] == ["0.25"]


def test_both_parts_of_an_underbrace_are_read() -> None:
    latex = r"\underbrace{0.5130 + 0.9543 = 1.4673}_{w_1 = 0.9543}"
    result = extract(latex)
    value = only_named(result)
    assert (value.names, cells(latex, value)) == (("w_1",), ["0.9543"])
    assert mismatches(r"\overbrace{0.5 + 0.25 = 0.9}^{\text{sum}}") != []


@pytest.mark.parametrize(
    "mark", [r"^{\mathsf T}", r"^\top", r"^{\intercal}", "^T", r"^{\mathrm{T}}"])
def test_a_transposed_matrix_is_the_matrix_transposed(mark: str) -> None:
    latex = rf"W = \begin{{bmatrix}} 1.5 & 2.5 \\ 3.5 & 4.5 \end{{bmatrix}}{mark}"
    value = only_named(extract(latex))
    assert (value.shape, cells(latex, value)) == ((2, 2), ["1.5", "3.5", "2.5", "4.5"])
    assert extract(latex.replace(mark, "^{2}")).named == []  # a power is no value
