"""Injections in the core: ``\\val{…}`` found in a formula, its name read by the prose's rules,
the printed value written at the policy's places or a format, and every way it cannot be."""

from __future__ import annotations

import pytest
from verified_problems.core import (
    Injection,
    Policy,
    Rounding,
    find_requests,
    read_request,
    read_transcript,
    render_request,
    written_offset,
)

TRANSCRIPT = read_transcript(
    "p = [0.26894142 0.73105858]\n"
    "A = [[0.9 0.1]\n [0.3 0.7]]\n"
    "a_1 = [0.40111209 0.19777581 0.40111209]\n"
    "w = [[0.5]\n [0.25]]\n"
    "n = 3\n"
    "t = 0.12345\n"
    "b = nan\n"
    "alpha = -0.00001\n"
    "z_1_minus_max = [0. -0.70710678]\n"
)
MACROS = {"vec": (r"\boldsymbol{#1}", 1), "mat": (r"\mathbf{#1}", 1)}


def shown(argument: str, math: bool = True, policy: Policy | None = None) -> str:
    """What a request renders to, or its message."""
    request = read_request(argument, MACROS)
    if isinstance(request, str):
        return request
    result = render_request(request, TRANSCRIPT, policy or Policy(), math)
    return result.text if isinstance(result, Injection) else result


def test_requests_are_found_with_their_braces() -> None:
    latex = r"p_1 = \val{p_1} + \val {A_{12}:.1%} + \value{x} + \val{\vec{a}_1}"
    found = [(latex[o.start:o.end], o.argument) for o in find_requests(latex)]
    assert found == [(r"\val{p_1}", "p_1"), (r"\val {A_{12}:.1%}", "A_{12}:.1%"),
                     (r"\val{\vec{a}_1}", r"\vec{a}_1")]


def test_a_malformed_request_says_what_is_wrong() -> None:
    assert [o.problem for o in find_requests(r"\val p + \val{x")] == [
        r"\val needs its name in braces: \val{p_1}", r"\val{ has no closing brace"]


@pytest.mark.parametrize(("argument", "math", "expected"), [
    ("p_1", True, "0.2689"),
    ("p_{2}", True, "0.7311"),
    (r"A_{12}", True, "0.1000"),
    (r"[\mat{A}]_{21}", True, "0.3000"),
    (r"\vec{p}", True, r"\left(0.2689,\; 0.7311\right)"),
    (r"\vec{p}", False, "(0.2689, 0.7311)"),
    (r"\vec{a}_1", True, r"\left(0.4011,\; 0.1978,\; 0.4011\right)"),
    (r"\mat{A}", True, r"\begin{bmatrix} 0.9000 & 0.1000 \\ 0.3000 & 0.7000 \end{bmatrix}"),
    ("p_1:.2f", True, "0.27"),
    ("p_1:.1%", True, r"26.9\%"),
    ("p_1:.1%", False, "26.9%"),
    ("n", False, "3"),
    ("w", False, "(0.5000, 0.2500)"),
    ("w", True, r"\begin{bmatrix} 0.5000 \\ 0.2500 \end{bmatrix}"),
    ("w_2", True, "0.2500"),
    ("n:.2f", False, "3.00"),
    (r"\alpha", True, "0.0000"),
    ("z_1_minus_max", False, "(0.0000, -0.7071)"),  # not LaTeX: the snippet's own name
    ("A_21", True, "0.3000"),  # TeX would subscript only the 2
])
def test_a_value_is_written_at_the_policy_places_or_its_format(
        argument: str, math: bool, expected: str) -> None:
    assert shown(argument, math) == expected


def test_the_policy_decides_the_places_and_the_rounding() -> None:
    assert shown("p_1", policy=Policy(decimals=2)) == "0.27"
    assert shown("t:.4f", policy=Policy(rounding=Rounding.HALF_UP)).endswith(
        "an exact tie at 4 d.p.; print more digits so the rounding is decided")


@pytest.mark.parametrize(("argument", "math", "expected"), [
    ("q", True, "q: the snippet printed no q (it printed p, A, a_1, w, n, t, b, alpha, "
                "z_1_minus_max); print it, or write the name it was printed under"),
    ("A_{31}", True, "A_{31}: no such element, the printed A is 2×2"),
    ("p_3", True, "p_3: no such element, the printed p is 2"),
    ("A_1", True, "A_1: no such element, the printed A is 2×2"),
    (r"\mat{A}", False, r"\mat{A}: the printed A is 2×2, which has no form in a sentence; "
                        "inject it in math, or name one element"),
    ("p_1:.2g", True, "p_1:.2g: the format '.2g' does not apply; write .Nf for N decimal "
                      "places or .N% for a percentage (p_1:.2f, p_1:.1%)"),
    ("b", True, "b: b is printed nan, which has no digits to inject"),
    ("t", True, "t: t is printed 0.12345, an exact tie at 4 d.p.; print more digits so "
                  "the rounding is decided"),
    ("p + q", True, "p + q: not a name the prose reader can read (such as p_1, A_{12}, "
                    r"\vec{a}_1), nor a name as the snippet prints one (z_1_minus_max)"),
    ("zeta", False, "zeta: the snippet printed no zeta (it printed p, A, a_1, w, n, t, b, "
                    "alpha, z_1_minus_max); print it, or write the name it was printed under"),
    ("", True, r"\val needs the name of a printed quantity: \val{p_1}"),
])
def test_a_request_that_cannot_be_met_says_why(argument: str, math: bool, expected: str) -> None:
    assert shown(argument, math) == expected


def test_each_injected_number_knows_its_quantity() -> None:
    request = read_request(r"\vec{p}:.2f", MACROS)
    assert not isinstance(request, str)
    result = render_request(request, TRANSCRIPT, Policy(), True)
    assert isinstance(result, Injection)
    assert [(c.label, c.printed, c.places) for c in result.cells] == [
        ("p[1]", "0.26894142", 2), ("p[2]", "0.73105858", 2)]
    assert result.digits == ("0.27", "0.73")


def test_offsets_after_an_injection_map_back_to_the_formula_as_written() -> None:
    written = r"p = \val{p_1}, q = 0.5"
    injected = "p = 0.2689, q = 0.5"
    spans = [(4, 10, 4, 13)]
    assert written_offset(spans, injected.index("0.5")) == written.index("0.5")
    assert written_offset(spans, 6) == 4  # inside the injection: at its \val
    assert written_offset(spans, 2) == 2
