"""Formulas as public MyST and Markdown textbooks write them: read as MathJax renders them.

Each case is a class of formula that real books use on almost every page and that the reader
used to reject (a located LaTeX error on a block MathJax renders) or misread (a name paired
with another equation's value). The blocks are written here, in those books' styles.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from block_check import mismatches
from hypothesis import given, settings
from hypothesis import strategies as st
from support import PROJECT
from verified_problems.core import ProseExtract, read_math


def named(result: ProseExtract) -> list[tuple[tuple[str, ...], list[str]]]:
    return [(value.names, [cell.text for cell in value.cells]) for value in result.named]


def free(result: ProseExtract) -> list[str]:
    return [number.text for number in result.free]


# -- a macro as a script takes one token, as TeX does ------------------------------------------


@pytest.mark.parametrize(
    "latex",
    [
        r"\sum_{j=0}^\infty \beta^j x_{t+j}",
        r"F_\infty(x) = \lim_{n \to \infty} F_n(x)",
        r"\int_{-\infty}^\infty f(x) \, dx = 1",
        r"\{w_t\}_{t=0}^\infty",
        r"\prod_{k=1}^\infty (1 + r_k)",
        r"\| x \|_\infty \leq 1",
        r"\sum_{t=0}^\infty \beta^t = \frac{1}{1 - \beta} \quad \text{for } |\beta| < 1",
    ],
)
def test_infinity_as_a_bare_script_is_read_without_a_problem(latex: str) -> None:
    result = read_math(latex)
    assert result.problems == []
    assert mismatches(latex) == []


def test_infinity_as_a_subscript_is_part_of_a_name() -> None:
    assert named(read_math(r"F_\infty = 0.5")) == [(("F_inf",), ["0.5"])]
    assert named(read_math(r"F_{\infty} = 0.5")) == [(("F_inf",), ["0.5"])]


def test_a_bare_run_of_digits_as_a_script_is_still_a_problem_with_both_readings() -> None:
    result = read_math(r"x^12 = 0.5")
    message = result.problems[0].message
    assert "`^{1}2`" in message and "`^{12}`" in message  # what it renders as, and the other


def test_powers_of_ten_are_no_scientific_number_of_an_exponent() -> None:
    # 10^6 \times 10^3 was folded into a decimal 6e3 the author never wrote.
    result = read_math(r"10^6 \times 10^3 = 10^9")
    assert (result.free, result.problems) == ([], [])
    assert mismatches(r"10^6 \times 10^3 = 10^9") == []
    assert free(read_math(r"c = 2.998 \times 10^8")) == []  # named, and still one number
    assert named(read_math(r"c = 2.998 \times 10^8")) == [(("c",), ["2.998e8"])]
    assert mismatches(r"10^6 \times 10^3 = 10^8") != []


# -- words in \text separate equations --------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "values"),
    [
        (r"p_1 = 0.25 \text{ and } p_2 = 0.75", [("p_1", "0.25"), ("p_2", "0.75")]),
        (r"p_0 = 4.9625, \; p_1 = 7.0625 \;\; \text{and} \;\; p_2 = 7.675",
         [("p_0", "4.9625"), ("p_1", "7.0625"), ("p_2", "7.675")]),
        (r"\alpha = 0.3 \text{ where } \beta = 0.96", [("alpha", "0.3"), ("beta", "0.96")]),
        (r"x = 0.5 \textrm{ or } x = -0.5", [("x", "0.5"), ("x", "-0.5")]),
        (r"\sigma = 0.2 \mbox{ with } \mu = 1.5", [("sigma", "0.2"), ("mu", "1.5")]),
        (r"r = 0.05 \text{, hence } R = 1.05", [("r", "0.05"), ("R", "1.05")]),
        (r"\rho = 0.9 \quad \text{if } \sigma = 0.1", [("rho", "0.9"), ("sigma", "0.1")]),
        (r"a = 0.25\text{ i.e. } b = 0.75", [("a", "0.25"), ("b", "0.75")]),
    ],
)
def test_a_connective_in_text_separates_equations(
    latex: str, values: list[tuple[str, str]]
) -> None:
    result = read_math(latex)
    assert named(result) == [((name,), [value]) for name, value in values]
    assert result.problems == []


def test_a_matrix_and_a_vector_joined_by_and_each_keep_their_value() -> None:
    latex = (r"A = \begin{bmatrix} 0.9 & 0.1 \\ 0.4 & 0.6 \end{bmatrix} \; \text{and} \;"
             r" d = (0.5,\; 0.5)")
    assert named(read_math(latex)) == [(("A",), ["0.9", "0.1", "0.4", "0.6"]),
                                       (("d",), ["0.5", "0.5"])]


def test_a_unit_is_no_connective_and_a_name_in_text_stays_a_name() -> None:
    assert named(read_math(r"H = 1.4548 \;\text{bits}")) == [(("H",), ["1.4548"])]
    assert named(read_math(r"\text{loss} = 0.25")) == [(("loss",), ["0.25"])]
    assert named(read_math(r"v = 3.5 \text{ meters per second}")) == [(("v",), ["3.5"])]
    assert named(read_math(r"\mathrm{AS} = 0.5")) == [(("AS",), ["0.5"])]  # an acronym
    assert named(read_math(r"x = 0.5 \text{ Where } y = 0.25")) == [(("x",), ["0.5"]),
                                                                    (("y",), ["0.25"])]


def test_a_minus_after_a_connective_is_a_sign() -> None:
    assert named(read_math(r"x = 1.5 \text{ and } y = -0.5")) == [(("x",), ["1.5"]),
                                                                  (("y",), ["-0.5"])]


def test_cases_with_conditions_in_text_read_each_branch() -> None:
    latex = (r"f(x) = \begin{cases} 0.5 & \text{if } x > 0 \\ 0.25 & \text{otherwise}"
             r" \end{cases}")
    result = read_math(latex)
    assert result.problems == [] and sorted(free(result)) == ["0.25", "0.5"]


# -- tuples of names, accents, intervals ------------------------------------------------------


def test_a_tuple_of_names_takes_a_tuple_of_values_entry_by_entry() -> None:
    assert named(read_math(r"(y_1, y_2) = (0.625, 0.4375)")) == [
        (("y_1",), ["0.625"]), (("y_2",), ["0.4375"])]
    assert named(read_math(r"(\rho, \sigma_w, \sigma_v) = (0.9, 0.5, 1.0)")) == [
        (("rho",), ["0.9"]), (("sigma_w",), ["0.5"]), (("sigma_v",), ["1.0"])]
    assert named(read_math(r"\left(\hat\alpha, \hat\beta\right) = \left(0.12,\; 0.88\right)")) \
        == [(("alpha_hat",), ["0.12"]), (("beta_hat",), ["0.88"])]


def test_a_column_of_names_takes_a_column_of_values() -> None:
    latex = (r"\begin{bmatrix} \beta_0 \\ \beta_1 \end{bmatrix}"
             r" = \begin{bmatrix} 1.1 \\ -0.4 \end{bmatrix}")
    assert named(read_math(latex)) == [(("beta_0",), ["1.1"]), (("beta_1",), ["-0.4"])]


def test_a_tuple_of_names_of_another_length_names_nothing() -> None:
    result = read_math(r"(a, b) = (0.5, 0.25, 0.25)")
    assert result.named == [] and free(result) == ["0.5", "0.25", "0.25"]


@pytest.mark.parametrize(
    ("latex", "name"),
    [
        (r"\check\phi = 0.5", "phi_check"),
        (r"\check{\phi} = 0.5", "phi_check"),
        (r"\breve{x}_1 = 0.5", "x_breve_1"),
        (r"\acute a = 0.5", "a_acute"),
        (r"\mathring{u} = 0.5", "u_ring"),
        (r"\widehat{\theta} = 0.5", "theta_hat"),
        (r"\underline{w} = 0.5", "w_underline"),
    ],
)
def test_accents_are_marks_of_a_name(latex: str, name: str) -> None:
    assert named(read_math(latex)) == [((name,), ["0.5"])]


@pytest.mark.parametrize("latex", [r"[0,\, 0.045]", r"[-1.96, 1.96]", r"\left[0.1, 0.9\right]"])
def test_an_interval_after_words_is_free_digits(latex: str) -> None:
    result = read_math(latex)
    assert result.named == [] and len(result.free) >= 1


def test_an_unnamed_tuple_that_is_no_interval_is_still_a_value() -> None:
    assert named(read_math(r"(0,\; -0.7071,\; 0)")) == [((), ["0", "-0.7071", "0"])]
    assert named(read_math(r"[0.9, 0.1]")) == [((), ["0.9", "0.1"])]  # not increasing
    assert named(read_math(r"\mathrm{CI} = [-1.96, 1.96]")) == [(("CI",), ["-1.96", "1.96"])]


# -- properties -------------------------------------------------------------------------------

_NAMES = st.sampled_from(["x", "p_1", r"\alpha", r"\hat{\beta}", r"\sigma_w", r"\mathbf{W}_q"])
_VALUES = st.from_regex(r"-?[0-9]\.[0-9]{1,4}", fullmatch=True)
_WORDS = st.sampled_from(["and", " and ", "where", " for ", "if ", "with", ", so ",
                          " otherwise ", "or", " hence ", "i.e."])
_TEXTS = st.sampled_from([r"\text", r"\textrm", r"\mbox", r"\mathrm"])
_GAPS = st.sampled_from(["", " ", r"\;", r"\quad ", r"\,", r"\;\;"])


@st.composite
def _joined(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Two to four equations ``NAME = VALUE`` joined by a word in ``\\text{…}``."""
    count = draw(st.integers(2, 4))
    values = [draw(_VALUES) for _ in range(count)]
    parts = []
    for k, value in enumerate(values):
        if k:
            parts.append(f"{draw(_GAPS)}{draw(_TEXTS)}{{{draw(_WORDS)}}}{draw(_GAPS)}")
        parts.append(f"{draw(_NAMES)} = {value}")
    return "".join(parts), values


@settings(max_examples=400, deadline=None)
@given(_joined())
def test_no_name_is_paired_with_a_value_across_a_word(case: tuple[str, list[str]]) -> None:
    latex, values = case
    result = read_math(latex)
    assert [[cell.text for cell in value.cells] for value in result.named] == [[v] for v in values]
    assert all(len(value.names) == 1 for value in result.named)


_PIECES = [
    "x", "0.5", "-", "=", "&", r"\\", "(", ")", "[", "]", ",", r"\infty", "^", "_", "{", "}",
    r"\text{ and }", r"\text{if }", r"\sum", r"\int", r"\times", "10", r"\frac", r"\log",
    r"\begin{cases}", r"\end{cases}", r"\begin{aligned}", r"\end{aligned}", r"\check", r"\hat",
    r"\approx", r"\textrm{ bit}", "y_1", r"\sqrt", "2", " ",
]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_no_generated_block_raises(latex: str) -> None:
    result = read_math(latex)
    for number in [*result.free, *result.exempt, *(c for v in result.named for c in v.cells)]:
        assert 0 <= number.start < number.end <= len(latex)


# -- a corpus of formulas in the styles of public textbooks -----------------------------------
#
# tests/core/data/book_formulas.json: 365 blocks written for this project in the styles of
# public MyST and Markdown books (sums to infinity, words between equations, tuples of names,
# intervals, exact fractions, units, accents, derivations), each checked to render in MathJax 3
# without an error, with the values each block names and whether its arithmetic holds.

CORPUS = json.loads((PROJECT / "tests" / "core" / "data" / "book_formulas.json")
                    .read_text(encoding="utf-8"))
#: Slips that stay within the tolerance of one-decimal data, or where a unit stands inside the
#: sum: the arithmetic cannot tell them yet (the contract's "What the check does not see").
KNOWN_MISSES = {
    r"5\,\mathrm{kg} + 2.5\,\mathrm{kg} = 8.5\,\mathrm{kg}",
    r"\begin{aligned} \mathbb{E}[Y] &= 0.6 \times 0.4 + 0.4 \times 1 \\ &= 0.34 + 0.4 = 0.74"
    r" \end{aligned}",
}
#: Values the reader does not name: a hypothesis after a colon names no number, and a tuple
#: with a thousands separator (``5{,}000``) is no tuple of numbers.
KNOWN_UNNAMED = {(r"H_0 : \mu = 0 \quad \text{versus} \quad H_1 : \mu \neq 0", "mu"),
                 (r"(T, N) = (100, 5{,}000)", "T")}


def test_the_corpus_is_large_and_varied() -> None:
    assert len(CORPUS) >= 300
    assert sum(block["arithmetic_holds"] is False for block in CORPUS) >= 10


@pytest.mark.parametrize("block", CORPUS, ids=lambda block: block["latex"][:40])
def test_every_formula_that_mathjax_renders_is_read_without_a_problem(block: Any) -> None:
    assert read_math(block["latex"]).problems == []


@pytest.mark.parametrize("block", [b for b in CORPUS if b["names"]],
                         ids=lambda block: block["latex"][:40])
def test_every_named_value_of_the_corpus_is_read_with_its_name(block: Any) -> None:
    got: dict[str, list[str]] = {}
    for value in read_math(block["latex"]).named:
        for name in value.names:
            got.setdefault(name, []).extend(cell.text for cell in value.cells)
    for name, values in block["names"].items():
        if (block["latex"], name) in KNOWN_UNNAMED:
            continue
        assert name in got, (name, got)
        assert [Decimal(v) for v in got[name]] == [Decimal(v) for v in values], (name, got)


@pytest.mark.parametrize("block", [b for b in CORPUS if b["arithmetic_holds"] is not None],
                         ids=lambda block: block["latex"][:40])
def test_the_corpus_arithmetic_holds_where_it_holds_and_fails_where_it_slips(block: Any) -> None:
    found = mismatches(block["latex"], decimals=0)  # books of other policies: as written
    if block["arithmetic_holds"]:
        assert found == []
    elif block["latex"] not in KNOWN_MISSES:
        assert found != []
