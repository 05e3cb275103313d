"""Numbers in plain prose text: only decimals, since integers there are steps, counts and ids.

DESIGN.md section 3: every decimal on the page is a free digit that the snippet must have
printed. In running text only a number with a decimal point can be such a digit ("Step 3",
"row 2", "3 tokens" are not), and only when it stands on its own: a decimal glued to letters,
digits or further dots is part of an identifier or a section number (``0.NU.02``,
``II.3.B01``, ``v1.2.3``), and ``e.g.`` or a sentence-final ``1.`` hold no decimal at all.

The rule, exactly:

* a number is ``\\d*\\.\\d+`` with an optional exponent (``1.2e-5``), or digits with an
  exponent (``8e-11``, ``3e-4``, and as typed with a times sign: ``1.20 × 10⁻⁴``,
  ``4.4 · 10^-5``; scientific notation needs no decimal point to be a decimal);
* it is not preceded by a letter, a digit or ``.``;
* it is not followed by a letter or a digit, nor by a ``.`` that a letter or a digit follows
  (so ``0.5.`` at the end of a sentence gives ``0.5``, while ``1.2.3`` gives nothing);
* a ``%`` right after it (or after one space), or the word "percent", makes it a percentage:
  it stands for its hundredth ("2.45 %" is 0.0245);
* a minus (``-`` or U+2212 ``−``) right before it is a sign, part of the number's text and
  span, when the minus is at the start of the text or follows whitespace, ``(``, ``[``, ``,``
  or ``=``. The text written to :class:`ProseNumber` always uses the ASCII ``-``.
"""

from __future__ import annotations

import re

from .values import ProseNumber

_DECIMAL = re.compile(
    r"(?<![^\W_])(?<!\.)"  # not after a letter, a digit or a dot
    r"(?:[0-9]*\.[0-9]+(?:[eE][-+−]?[0-9]+)?|[0-9]+[eE][-+−]?[0-9]+)"
    r"(?![^\W_])(?!\.[^\W_])"  # not before a letter, a digit, or a dot that continues a word
)
_MINUS = "-−"
_SPACE = "[ \u00a0\u2009\u202f]?"
#: Scientific notation as typed in text: ``1.20 × 10⁻⁴``, ``4.4·10^-5``, ``2 x 10^{-3}``.
_SCIENTIFIC = re.compile(
    r"(?<![^\W_])(?<!\.)([0-9]*\.?[0-9]+)" + _SPACE + "[×x·⋅]" + _SPACE
    + r"10(?:([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)|\^\{?([-−+]?[0-9]+)\}?)(?![^\W_])"
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
#: A percent sign after a number, with at most a space (thin or not) between: "2.45 %".
_PERCENT = re.compile(_SPACE + "%|[ \u00a0]per ?cent\\b")
_BEFORE_SIGN = "([,="


def has_sign(text: str, start: int) -> bool:
    """Whether the character before ``start`` is a unary minus that belongs to the number."""
    if start == 0 or text[start - 1] not in _MINUS:
        return False
    if start == 1:
        return True
    before = text[start - 2]
    return before.isspace() or before in _BEFORE_SIGN


def find_decimals(text: str) -> list[ProseNumber]:
    """Every free-standing decimal of ``text``, with its sign, as offsets into ``text``.

    Shared with the LaTeX reader, which reads the content of ``\\text{…}`` in math by the same
    rule as running text.
    """
    found = _scientific(text)
    taken = [(number.start, number.end) for number in found]
    for match in _DECIMAL.finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue
        start, written = _signed(text, match.start(), match.end())
        percent = _PERCENT.match(text, match.end()) is not None
        found.append(ProseNumber(written, start, match.end(), decimal=True, percent=percent))
    return sorted(found, key=lambda number: number.start)


def _scientific(text: str) -> list[ProseNumber]:
    """The numbers written in scientific notation with a times sign (``−1.20 × 10⁻⁴`` is
    ``-1.20e-4``), their spans the whole of it."""
    found: list[ProseNumber] = []
    for match in _SCIENTIFIC.finditer(text):
        start, mantissa = _signed(text, match.start(), match.end(1))
        exponent = (match.group(2) or match.group(3)).translate(_SUPERSCRIPTS).replace("−", "-")
        found.append(ProseNumber(f"{mantissa}e{exponent}", start, match.end(), decimal=True))
    return found


def _signed(text: str, start: int, end: int) -> tuple[int, str]:
    """Where a number found at ``start`` begins, its unary minus included, and its text up to
    ``end`` with an ASCII minus."""
    if has_sign(text, start):
        start -= 1
    return start, text[start:end].replace("−", "-")
