"""The text extractor: only free-standing decimals, with their sign, at exact offsets."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verified_problems.core import ProseExtract, read_text


def found(text: str) -> list[tuple[str, str]]:
    """(text, written span) of every number found."""
    result = read_text(text)
    assert result.named == [] and result.exempt == [] and result.problems == []
    assert all(n.decimal and not n.exempt for n in result.free)
    return [(n.text, text[n.start : n.end]) for n in result.free]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("exponentials 0.4931, 0.4931, 1 , denominator", [("0.4931", "0.4931")] * 2),
        ("is 0.5.", [("0.5", "0.5")]),
        ("(0.25)", [("0.25", "0.25")]),
        ("[0.25, 0.5]", [("0.25", "0.25"), ("0.5", "0.5")]),
        ("a .5 b", [(".5", ".5")]),
        ("rate 1.2e-5 per step", [("1.2e-5", "1.2e-5")]),
        ("rate 1.2E+5", [("1.2E+5", "1.2E+5")]),
        # scientific notation needs no decimal point: 8e-11 used to go unread, unchecked
        ("it is 8e-11, or 3E+4", [("8e-11", "8e-11"), ("3E+4", "3E+4")]),
        ("eps = -1e-8", [("-1e-8", "-1e-8")]),
        ("ids 2e5x, 0x3e4, v1e3 and 3e", []),
        ("x = -0.7071", [("-0.7071", "-0.7071")]),
        ("-0.7071 first", [("-0.7071", "-0.7071")]),
        ("(−0.7071)", [("-0.7071", "−0.7071")]),
        ("(1,-0.5)", [("-0.5", "-0.5")]),
        ("x=-0.5", [("-0.5", "-0.5")]),
        ("1-0.5", [("0.5", "0.5")]),
        ("a -0.5", [("-0.5", "-0.5")]),
        ("a-0.5", [("0.5", "0.5")]),
        ("e.g. the value", []),
        ("Log-sum-exp 0.NU.02", []),
        ("problem II.3.B01", []),
        ("release v1.2.3", []),
        ("version 1.2.3 of it", []),
        ("Step 1. Then", []),
        ("Step 3 — the softmax, row 2", []),
        ("4 d.p.", []),
        ("0.5ms", []),
        ("x0.5", []),
        ("1.5e", []),
        ("...0.5", []),
        ("1.0000 and 2.4931", [("1.0000", "1.0000"), ("2.4931", "2.4931")]),
        # scientific notation as typed, with a times sign: one number, the whole of it
        ("| −1.20 × 10⁻⁴ | 4.44 × 10⁻⁵ |", [("-1.20e-4", "−1.20 × 10⁻⁴"),
                                             ("4.44e-5", "4.44 × 10⁻⁵")]),
        ("step 4.4·10^-5, then 2 x 10^{-3}", [("4.4e-5", "4.4·10^-5"), ("2e-3", "2 x 10^{-3}")]),
        ("6.9 × 10¹⁰ and 0.5", [("6.9e10", "6.9 × 10¹⁰"), ("0.5", "0.5")]),
        ("a 3 x 10 grid, v1.2 × 10⁻⁴", []),
    ],
)
def test_decimals_in_text(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


def test_seed_page_sentences() -> None:
    text = (
        "All values rounded to 4 d.p. Intermediate quantities carry full precision. "
        "Subtract the row maximum first (Log-sum-exp 0.NU.02): "
        "Problem II.3.B01, Step 2 — the scaling. Token 3’s query."
    )
    assert read_text(text) == ProseExtract()


def test_offsets_are_exact() -> None:
    text = "first 0.25, then −1.5 and (−.5)"
    numbers = read_text(text).free
    assert [(n.start, n.end) for n in numbers] == [(6, 10), (17, 21), (27, 30)]
    assert [n.text for n in numbers] == ["0.25", "-1.5", "-.5"]


_WORDS = st.sampled_from(["the", "row", "Step", "3", "II.3.B01", "e.g.", "(", ")", ",", "—"])
_DECIMAL = st.from_regex(r"-?[0-9]{0,3}\.[0-9]{1,5}", fullmatch=True)


@given(st.lists(st.one_of(_WORDS.map(lambda w: (w, False)), _DECIMAL.map(lambda d: (d, True)))))
@settings(max_examples=200, deadline=None)
def test_spaced_decimals_are_all_found_and_nothing_else(parts: list[tuple[str, bool]]) -> None:
    text = " ".join(part for part, _ in parts)
    expected = [part for part, decimal in parts if decimal]
    assert [text[n.start : n.end] for n in read_text(text).free] == expected
    assert [n.text for n in read_text(text).free] == expected
