"""One math block checked against a transcript through the core's public API, as the tests
of the prose's arithmetic need it: a number's column is its offset in the block."""

from __future__ import annotations

from collections.abc import Sequence

from verified_problems.core import (
    Outcome,
    Placed,
    PlacedEquation,
    PlacedValue,
    Policy,
    ProseNumber,
    Verdict,
    read_math,
    read_transcript,
    source_values,
    verify,
)


def check(latex: str, printed: str = "", *, log_base: int | None = None,
          macros: dict[str, tuple[str, int]] | None = None,
          given: Sequence[str] = (), given_names: dict[str, str] | None = None,
          source: str = "", decimals: int = 4) -> list[Verdict]:
    """Every verdict on one block against a transcript; a number's column is its offset.
    ``source`` is a snippet's source: the arrays it writes out by name are given."""
    extract = read_math(latex, macros or {})
    numbers = [c for v in extract.named for c in v.cells] + extract.free
    placed = {n.start: Placed(n, 1, n.start, "") for n in numbers}

    def place(offset: int) -> Placed:
        return Placed(ProseNumber("", offset, offset, False), 1, offset, "")

    equations = [PlacedEquation(e, latex, placed, place) for e in extract.equations]
    named = [PlacedValue(v, tuple(placed[c.start] for c in v.cells)) for v in extract.named]
    free = [placed[n.start] for n in extract.free]
    return verify(read_transcript(printed), named, free, [], Policy(decimals), equations=equations,
                  given=given, given_names=given_names, log_base=log_base,
                  given_values=source_values(source))


def arithmetic(latex: str, printed: str = "", **options: object) -> list[Verdict]:
    return [v for v in check(latex, printed, **options)  # type: ignore[arg-type]
            if v.outcome is Outcome.ARITHMETIC]


def mismatches(latex: str, printed: str = "", **options: object) -> list[str]:
    return [v.message for v in arithmetic(latex, printed, **options)]


def failures(latex: str, printed: str = "", **options: object) -> list[str]:
    return [v.message for v in check(latex, printed, **options)  # type: ignore[arg-type]
            if v.failed]


def where(latex: str, verdict: Verdict) -> str:
    assert verdict.placed.column is not None
    return latex[verdict.placed.column:]
