"""The comparison of DESIGN.md section 4, rule by rule, and against a reference on integers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from verified_problems.core import (
    Comparison,
    Policy,
    PrintedPool,
    Rounding,
    Status,
    compare,
    places_for,
    to_decimal,
)

POLICY = Policy()
HALF_UP = Policy(rounding=Rounding.HALF_UP)
BOTH = pytest.mark.parametrize("policy", [POLICY, HALF_UP], ids=["half-even", "half-up"])


def status(prose: str, printed: str, policy: Policy = POLICY) -> Status:
    return compare(prose, printed, policy).status


# --- to_decimal and places_for ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.4011", Decimal("0.4011")),
        ("-0.", Decimal("-0")),
        ("1.", Decimal("1")),
        (".5", Decimal("0.5")),
        ("1e-05", Decimal("0.00001")),
        ("-1.5E+03", Decimal("-1500")),
        ("-0.0", Decimal("-0.0")),
        ("+2", Decimal("2")),
        ("1.e+20", Decimal("1e20")),
    ],
)
def test_to_decimal_reads_numbers_as_written(text: str, expected: Decimal) -> None:
    assert to_decimal(text) == expected


def test_to_decimal_keeps_the_digits_and_the_sign_of_zero() -> None:
    assert str(to_decimal("0.4010")) == "0.4010"
    assert to_decimal("-0.").is_signed()


@pytest.mark.parametrize(
    ("text", "check"),
    [("nan", Decimal.is_nan), ("inf", Decimal.is_infinite), ("-inf", Decimal.is_signed)],
)
def test_to_decimal_reads_nan_and_inf(text: str, check: object) -> None:
    assert callable(check) and check(to_decimal(text))


@pytest.mark.parametrize(
    "text", ["", "abc", "1_000", " 1", "1 ", "1,5", "0x1F", "sNaN", "1e", "--1", ".", "1e999999"]
)
def test_to_decimal_refuses_what_is_not_a_number(text: str) -> None:
    with pytest.raises(ValueError, match=r"number|too large"):
        to_decimal(text)


@pytest.mark.parametrize(
    ("prose", "expected"),
    [
        ("0.5", 4),
        ("2", 4),
        ("0.4011", 4),
        ("0.123456", 6),
        ("1.20e-5", 7),
        ("1e-05", 5),
        ("1.2e3", -2),
        ("1.2345e-1", 5),
        ("nan", 4),
        ("-inf", 4),
    ],
)
def test_places_for(prose: str, expected: int) -> None:
    assert places_for(prose, POLICY) == expected


def test_places_for_scientific_prose_ignores_the_policy() -> None:
    assert places_for("1.5e-1", Policy(decimals=8)) == 2


def test_a_policy_needs_non_negative_decimals() -> None:
    with pytest.raises(ValueError, match="decimals"):
        Policy(decimals=-1)


# --- compare: the rules of section 4, one example each ----------------------------------------


def test_prose_is_padded_with_zeros() -> None:
    assert compare("0.5", "0.5000", POLICY) == Comparison(
        Status.MATCH, 4, "0.5000", "0.5000", False
    )


def test_integer_prose_equals_numpys_trailing_point() -> None:
    assert compare("2", "2.", POLICY) == Comparison(Status.MATCH, 4, "2.0000", "2.0000", False)


def test_short_prose_claims_zeros_it_does_not_show() -> None:
    assert compare("0.49", "0.4931", POLICY) == Comparison(
        Status.DIVERGE, 4, "0.4900", "0.4931", False
    )


def test_printed_numbers_are_taken_at_face_value() -> None:
    assert status("1.0000", "1.") is Status.MATCH
    assert status("0.1000", "0.1") is Status.MATCH
    assert status("0.1001", "0.1") is Status.DIVERGE


def test_the_printed_number_is_rounded_to_the_policy() -> None:
    assert compare("0.4011", "0.40111", POLICY).status is Status.MATCH
    assert compare("0.1978", "0.19778", POLICY).printed == "0.1978"
    assert compare("0.7518", "0.75175000001", POLICY).status is Status.MATCH


def test_a_digit_wrong_after_rounding_diverges() -> None:
    assert compare("0.1987", "0.1978", POLICY) == Comparison(
        Status.DIVERGE, 4, "0.1987", "0.1978", False
    )
    assert compare("0.7518", "0.75165", POLICY).status is Status.AMBIGUOUS
    assert compare("0.7518", "0.75166", POLICY) == Comparison(
        Status.DIVERGE, 4, "0.7518", "0.7517", False
    )


def test_zero_has_no_sign() -> None:
    assert compare("-0.0000", "0.0000", POLICY) == Comparison(
        Status.MATCH, 4, "0.0000", "0.0000", False
    )
    assert status("0", "-0.") is Status.MATCH
    assert status("0.0000", "-0.00001") is Status.MATCH
    assert status("-0.0000", "0.00004") is Status.MATCH


@pytest.mark.parametrize(("prose", "printed"), [("0.5", "-0.5"), ("-0.4931", "0.4931")])
def test_any_other_sign_matters(prose: str, printed: str) -> None:
    assert status(prose, printed) is Status.DIVERGE
    assert status(printed, prose) is Status.DIVERGE


@BOTH
@pytest.mark.parametrize("prose", ["0.1234", "0.1235", "0.9"])
def test_a_tie_is_ambiguous_whatever_the_prose_says(prose: str, policy: Policy) -> None:
    assert compare(prose, "0.12345", policy) == Comparison(
        Status.AMBIGUOUS, 4, prose.ljust(6, "0"), "0.12345", False
    )


@BOTH
@pytest.mark.parametrize("printed", ["0.00125", "0.001250000", "1.25e-3", "-0.00125"])
def test_a_tie_with_trailing_zeros_or_an_exponent_is_still_a_tie(
    printed: str, policy: Policy
) -> None:
    assert status("0.0013", printed, policy) is Status.AMBIGUOUS
    assert status("0.0012", printed, policy) is Status.AMBIGUOUS


@BOTH
def test_a_tie_is_judged_at_the_comparison_precision(policy: Policy) -> None:
    assert status("0.123", "0.1235", Policy(decimals=3, rounding=policy.rounding)) is (
        Status.AMBIGUOUS
    )
    assert status("0.1235", "0.1235", policy) is Status.MATCH


def test_rounding_only_decides_ties_so_it_never_changes_a_verdict() -> None:
    for printed in ["0.12346", "0.12344", "0.123451", "-0.12346"]:
        assert compare("0.1235", printed, POLICY) == compare("0.1235", printed, HALF_UP)


def test_rounding_shows_in_a_divergent_free_digit() -> None:
    pool = PrintedPool(["0.12345", "-0.12345"])
    assert pool.match("0.9", POLICY).printed == "0.1234"
    assert pool.match("0.9", HALF_UP).printed == "0.1235"
    assert pool.match("-0.9", HALF_UP).printed == "-0.1235"


def test_prose_with_more_decimals_than_the_policy() -> None:
    assert compare("0.123456", "0.1234564", POLICY) == Comparison(
        Status.MATCH, 6, "0.123456", "0.123456", True
    )
    assert compare("0.123456", "0.1234566", POLICY).status is Status.DIVERGE
    assert compare("0.12345", "0.12346", POLICY).status is Status.DIVERGE


def test_an_exact_value_shown_in_full_is_no_breach_of_the_policy() -> None:
    # The exact Adam moments 0.069604 and 0.001999 were warned about (fatal under -W).
    assert compare("0.069604", "0.069604", POLICY) == Comparison(
        Status.MATCH, 6, "0.069604", "0.069604", False
    )
    assert compare("0.12345", "0.123450", POLICY).over_policy is False  # the same value
    assert compare("0.12345", "0.1234501", POLICY).over_policy is True  # a rounding
    assert PrintedPool(["0.069604"]).match("0.069604", POLICY).over_policy is False
    assert PrintedPool(["0.0696041"]).match("0.069604", POLICY).over_policy is True


def test_a_longer_policy_pads_the_prose() -> None:
    assert compare("0.5", "0.5000001", Policy(decimals=6)) == Comparison(
        Status.MATCH, 6, "0.500000", "0.500000", False
    )


def test_scientific_prose_states_its_own_precision() -> None:
    assert compare("1.20e-5", "1.2e-05", POLICY) == Comparison(
        Status.MATCH, 7, "0.0000120", "0.0000120", False
    )
    assert status("1.20e-5", "1.204e-05") is Status.MATCH
    assert status("1.20e-5", "1.21e-05") is Status.DIVERGE
    assert status("1.2e3", "1249") is Status.MATCH
    assert compare("1.2e3", "1250", POLICY).status is Status.AMBIGUOUS


def test_nan_printed_diverges_from_any_number() -> None:
    assert compare("0.5", "nan", POLICY) == Comparison(Status.DIVERGE, 4, "0.5000", "nan", False)
    assert status("inf", "nan") is Status.DIVERGE


def test_nan_matches_nan() -> None:
    assert compare("nan", "nan", POLICY) == Comparison(Status.MATCH, 4, "nan", "nan", False)
    assert status("nan", "0.5") is Status.DIVERGE
    assert status("nan", "0.12345") is Status.DIVERGE


def test_inf_matches_an_inf_of_the_same_sign_only() -> None:
    assert compare("inf", "inf", POLICY) == Comparison(Status.MATCH, 4, "inf", "inf", False)
    assert status("-inf", "-inf") is Status.MATCH
    assert compare("-inf", "inf", POLICY).printed == "inf"
    assert status("-inf", "inf") is Status.DIVERGE
    assert status("inf", "1e308") is Status.DIVERGE
    assert status("1e308", "inf") is Status.DIVERGE


# --- float never enters ---------------------------------------------------------------------


def test_digits_beyond_a_float_decide_a_near_tie() -> None:
    assert status("0.1235", "0.1234500000000000000001") is Status.MATCH
    assert status("0.1234", "0.1234499999999999999999") is Status.MATCH
    assert status("0.1235", "0.12345") is Status.AMBIGUOUS
    # As floats, 0.12345 is 0.123450000000000004174438572590588591992855072021484375.
    assert status("0.1234", "0.12345", HALF_UP) is Status.AMBIGUOUS


def test_more_digits_than_a_default_decimal_context_holds() -> None:
    prose = "0." + "1234567890" * 3 + "1"
    assert compare(prose, prose + "4999999999999", POLICY).status is Status.MATCH
    assert compare(prose, prose + "5", POLICY).status is Status.AMBIGUOUS
    assert compare(prose, "1" + prose[1:], POLICY).status is Status.DIVERGE


def test_huge_and_tiny_printed_numbers_are_rounded_exactly() -> None:
    assert compare("0.0000", "5e-324", POLICY).status is Status.MATCH
    big = compare("1", "1.7976931348623157e308", POLICY)
    assert big.status is Status.DIVERGE
    assert big.printed == "17976931348623157" + "0" * 292 + ".0000"


# --- PrintedPool ----------------------------------------------------------------------------

SEED = [
    "1", "0", "1", "0.7071", "0", "0.7071", "1.4142", "-0.7071", "0.4931",
    "2.4931", "0.40111", "0.19778", "0.4011", "1.", "1.", "1.", "nan", "-inf",
]  # fmt: skip


def test_a_free_digit_printed_exactly_matches() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("0.4931", POLICY) == Comparison(Status.MATCH, 4, "0.4931", "0.4931", False)
    assert pool.match("-0.7071", POLICY).status is Status.MATCH


def test_a_free_digit_matches_a_rounded_printed_number() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("0.1978", POLICY) == Comparison(Status.MATCH, 4, "0.1978", "0.1978", False)
    assert pool.match("1.0000", POLICY).status is Status.MATCH


def test_a_free_digit_is_judged_at_the_comparison_precision() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("0.49", POLICY) == Comparison(Status.DIVERGE, 4, "0.4900", "0.4931", False)
    assert pool.match("0.49", Policy(decimals=0)).status is Status.MATCH
    assert pool.match("0.40111", POLICY) == Comparison(Status.MATCH, 5, "0.40111", "0.40111", False)
    assert pool.match("0.4011", Policy(decimals=3)).over_policy is False  # printed as such
    assert pool.match("0.4931", Policy(decimals=3)).over_policy is False
    assert pool.match("0.7072", Policy(decimals=3)).over_policy is True


def test_a_free_digit_not_printed_shows_the_nearest() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("0.7070", POLICY) == Comparison(Status.DIVERGE, 4, "0.7070", "0.7071", False)
    assert pool.match("0.3", POLICY).printed == "0.4011"
    assert pool.match("0.29", POLICY).printed == "0.1978"
    assert pool.match("9.5", POLICY).printed == "2.4931"
    assert pool.match("-5.5", POLICY).printed == "-0.7071"
    assert pool.match("0.7071", POLICY).status is Status.MATCH


def test_the_nearest_is_the_lower_one_when_two_are_as_near() -> None:
    assert PrintedPool(["0.1", "0.3"]).match("0.2", POLICY).printed == "0.1000"


def test_a_free_digit_next_to_a_tie_is_ambiguous() -> None:
    pool = PrintedPool(["0.12345", "0.5"])
    assert pool.match("0.1234", POLICY) == Comparison(
        Status.AMBIGUOUS, 4, "0.1234", "0.12345", False
    )
    assert pool.match("0.1235", HALF_UP).status is Status.AMBIGUOUS
    assert pool.match("0.1236", POLICY).status is Status.DIVERGE


def test_a_non_tie_beats_a_tie() -> None:
    pool = PrintedPool(["0.12345", "0.12351"])
    assert pool.match("0.1235", POLICY).status is Status.MATCH


def test_free_zero_has_no_sign() -> None:
    pool = PrintedPool(["-0.00001"])
    assert pool.match("0.0000", POLICY).status is Status.MATCH
    assert pool.match("-0.0000", POLICY).status is Status.MATCH


def test_free_nan_and_inf() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("nan", POLICY).status is Status.MATCH
    assert pool.match("-inf", POLICY) == Comparison(Status.MATCH, 4, "-inf", "-inf", False)
    assert pool.match("inf", POLICY) == Comparison(Status.DIVERGE, 4, "inf", None, False)
    assert PrintedPool(["1"]).match("nan", POLICY).printed is None


def test_an_empty_pool_has_nothing_to_show() -> None:
    assert PrintedPool([]).match("0.5", POLICY) == Comparison(
        Status.DIVERGE, 4, "0.5000", None, False
    )
    assert PrintedPool(["nan"]).match("0.5", POLICY).printed is None


def test_a_pool_refuses_what_is_not_a_number() -> None:
    with pytest.raises(ValueError, match="not a number"):
        PrintedPool(["0.5", "apples"])


def test_a_pool_answers_again_from_its_cache() -> None:
    pool = PrintedPool(SEED)
    assert pool.match("0.4931", POLICY) is pool.match("0.4931", POLICY)


def test_a_book_sized_pool_is_fast() -> None:
    import time

    pool = PrintedPool(f"0.{i:04d}1" for i in range(0, 10000, 7))
    start = time.perf_counter()
    results = [pool.match(f"0.{i:04d}", POLICY) for i in range(5000)]
    assert time.perf_counter() - start < 2.0
    assert sum(r.status is Status.MATCH for r in results) == len(range(0, 5000, 7))


# --- a reference on integers, never float ---------------------------------------------------


def ref_parse(text: str) -> tuple[int, int]:
    """``text`` as ``(n, e)`` with value ``n * 10**e``, from the characters alone."""
    negative = text.startswith("-")
    mantissa, _, exponent = text.lstrip("+-").lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    n = int((whole + fraction) or "0")
    return (-n if negative else n), int(exponent or "0") - len(fraction)


def ref_places(prose: str, decimals: int) -> tuple[int, bool]:
    mantissa, _, exponent = prose.lower().partition("e")
    own = len(mantissa.partition(".")[2]) - int(exponent or "0")
    if exponent:
        return own, False
    return max(decimals, own), own > decimals


def ref_round(text: str, places: int, half_up: bool) -> tuple[int, bool]:
    """The number of units of ``10**-places`` nearest ``text``, and whether it was a tie."""
    n, e = ref_parse(text)
    shift = e + places
    if shift >= 0:
        return n * 10**shift, False
    unit = 10 ** (-shift)
    quotient, remainder = divmod(abs(n), unit)
    tie = 2 * remainder == unit
    if 2 * remainder > unit or (tie and (half_up or quotient % 2 == 1)):
        quotient += 1
    return (-quotient if n < 0 else quotient), tie


def ref_show(units: int, places: int) -> str:
    sign = "-" if units < 0 else ""
    digits = str(abs(units))
    if places <= 0:
        return sign + digits + "0" * -places if units else "0"
    digits = digits.rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def ref_face(text: str) -> str:
    """A tie's own digits, written out in fixed point."""
    n, e = ref_parse(text)
    return ref_show(n * 10**e, 0) if e >= 0 else ref_show(n, -e)


def ref_compare(prose: str, printed: str, decimals: int, half_up: bool) -> Comparison:
    places, over = ref_places(prose, decimals)
    wanted, _ = ref_round(prose, places, half_up)
    got, tie = ref_round(printed, places, half_up)
    shown = ref_show(wanted, places)
    over = over and ref_value(prose) != ref_value(printed)  # an exact value is no rounding
    if tie:
        return Comparison(Status.AMBIGUOUS, places, shown, ref_face(printed), over)
    status = Status.MATCH if wanted == got else Status.DIVERGE
    return Comparison(status, places, shown, ref_show(got, places), over)


DIGITS = st.text(alphabet="0123456789", max_size=7)


@st.composite
def decimal_strings(draw: st.DrawFn, scientific: bool = True) -> str:
    sign = draw(st.sampled_from(["", "", "-", "+"]))
    whole = draw(DIGITS)
    point = draw(st.sampled_from([".", ""])) if whole else "."
    fraction = draw(DIGITS) if point else ""
    if not whole and not fraction:
        whole = "0"
    exponent = ""
    if scientific and draw(st.booleans()):
        exponent = draw(st.sampled_from(["e", "E"])) + draw(st.sampled_from(["", "+", "-"]))
        exponent += str(draw(st.integers(0, 12)))
    return sign + whole + point + fraction + exponent


@st.composite
def near(draw: st.DrawFn, prose: str) -> str:
    """A printed number close to ``prose``: the prose with digits appended, often a tie."""
    base = prose.lower().partition("e")[0]
    if "e" in prose.lower():
        return prose
    tail = draw(st.sampled_from(["5", "50", "4999", "5001", "", "1", "9"]))
    extra = draw(st.text(alphabet="0123456789", max_size=2))
    return base + ("" if "." in base else ".") + extra + tail


@settings(max_examples=2000, deadline=None)
@given(
    data=st.data(),
    prose=decimal_strings(),
    decimals=st.integers(0, 8),
    half_up=st.booleans(),
)
def test_compare_agrees_with_a_reference_on_integers(
    data: st.DataObject, prose: str, decimals: int, half_up: bool
) -> None:
    printed = data.draw(st.one_of(decimal_strings(), near(prose)), label="printed")
    policy = Policy(decimals, Rounding.HALF_UP if half_up else Rounding.HALF_EVEN)
    assert compare(prose, printed, policy) == ref_compare(prose, printed, decimals, half_up)


def ref_value(text: str) -> Fraction:
    n, e = ref_parse(text)
    return Fraction(n) * Fraction(10) ** e


def ref_pool_match(pool: list[str], prose: str, decimals: int, half_up: bool) -> Comparison:
    places, over = ref_places(prose, decimals)
    finite = [t for t in pool if any(c.isdigit() for c in t) and "inf" not in t.lower()]
    if any(c.isdigit() for c in prose) and "inf" not in prose.lower():
        over = over and all(ref_value(t) != ref_value(prose) for t in finite)
    target, _ = ref_round(prose, places, half_up)
    shown = ref_show(target, places)
    rounded = [(text, *ref_round(text, places, half_up)) for text in pool]
    if any(units == target and not tie for _, units, tie in rounded):
        return Comparison(Status.MATCH, places, shown, shown, over)
    unit = Fraction(10) ** -places
    half, prose_value = unit / 2, target * unit
    ties = [t for t, _, tie in rounded if tie and abs(ref_value(t) - prose_value) == half]
    if ties:
        lowest = min(ties, key=ref_value)
        return Comparison(Status.AMBIGUOUS, places, shown, ref_face(lowest), over)
    if not pool:
        return Comparison(Status.DIVERGE, places, shown, None, over)
    nearest = min(pool, key=lambda t: (abs(ref_value(t) - prose_value), ref_value(t)))
    return Comparison(
        Status.DIVERGE,
        places,
        shown,
        ref_show(ref_round(nearest, places, half_up)[0], places),
        over,
    )


@st.composite
def quoted_from(draw: st.DrawFn, pool: list[str]) -> str:
    """A prose number cut from a pool number: its digits up to some place, maybe one more."""
    printed = draw(st.sampled_from(pool))
    mantissa, _, exponent = printed.lower().partition("e")
    if exponent or "." not in mantissa:
        return printed
    cut = mantissa[: mantissa.index(".") + 1 + draw(st.integers(0, 6))]
    if not any(c.isdigit() for c in cut):
        return printed
    if cut.endswith(".") or not draw(st.booleans()):
        return cut
    bumped = str(int(cut[-1]) + 1) if cut[-1] != "9" else "0"
    return cut[:-1] + bumped


@settings(max_examples=1000, deadline=None)
@given(
    data=st.data(),
    pool=st.lists(st.one_of(decimal_strings(), near("0.125")), max_size=12),
    decimals=st.integers(0, 6),
    half_up=st.booleans(),
)
def test_pool_agrees_with_a_brute_force_reference(
    data: st.DataObject, pool: list[str], decimals: int, half_up: bool
) -> None:
    quoted = [quoted_from(pool)] if pool else []
    prose = data.draw(st.one_of(decimal_strings(), *quoted), label="prose")
    policy = Policy(decimals, Rounding.HALF_UP if half_up else Rounding.HALF_EVEN)
    expected = ref_pool_match(pool, prose, decimals, half_up)
    got = PrintedPool(pool).match(prose, policy)
    if expected.status is Status.AMBIGUOUS:
        # Two ties of equal value may be written differently ("0.125", "0.1250"): same value.
        assert got.printed is not None and expected.printed is not None
        assert ref_value(got.printed) == ref_value(expected.printed)
        got = Comparison(got.status, got.places, got.prose, expected.printed, got.over_policy)
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(pool=st.lists(decimal_strings(), max_size=12), prose=decimal_strings())
def test_a_pool_of_one_agrees_with_compare(pool: list[str], prose: str) -> None:
    for printed in pool:
        if compare(prose, printed, POLICY).status is Status.MATCH:
            assert PrintedPool(pool).match(prose, POLICY).status is Status.MATCH
