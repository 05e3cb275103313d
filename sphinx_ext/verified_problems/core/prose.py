"""What a piece of prose holds: :func:`read_math` for a math block, :func:`read_text` for text.

The two entry points a page check calls for every piece of its prose. A math block is read by
the LaTeX reader (:mod:`.latex`), which keeps its chains of equalities for the prose's
arithmetic (:mod:`.derivations`, once the transcript is known); running text holds only free
decimals (:mod:`.text`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from .latex import MacroDef, read_latex
from .text import find_decimals
from .values import ProseExtract

_NO_MACROS: Mapping[str, MacroDef] = MappingProxyType({})


def read_math(latex: str, macros: Mapping[str, MacroDef] = _NO_MACROS) -> ProseExtract:
    r"""The named values, free digits, exempt numbers, problems and equations of a math block.

    ``latex`` is the math as written between its delimiters (``$…$``, ``$$…$$``, a
    ``{math}`` directive, an amsmath environment); ``macros`` are the book's MathJax macros
    (``{"mat": (r"\mathbf{#1}", 1)}``, the backslash optional). Every offset in the result is
    into ``latex``, and every problem with the block (malformed LaTeX) is a
    :class:`~.values.SourceProblem` in the result: this never raises on an author's input.

    A book repeats much of its inline math (``$\mat{A}$``, ``$\sqrt{d_k}$``) page after page,
    so results are remembered by block and macros. Each call gets lists of its own; the frozen
    numbers in them may be shared with another call's.
    """
    extract = _remembered(latex, tuple(macros.items()))
    return ProseExtract(list(extract.named), list(extract.free), list(extract.exempt),
                        list(extract.problems), list(extract.equations))


@lru_cache(maxsize=256)  # what recurs stays; a page's one-off blocks soon make room
def _remembered(latex: str, macros: tuple[tuple[str, MacroDef], ...]) -> ProseExtract:
    reading = read_latex(latex, dict(macros))
    reading.extract.equations = reading.equations
    return reading.extract


def read_text(text: str) -> ProseExtract:
    """The free digits of a run of plain text (a docutils ``Text`` node's content).

    Text names nothing and cannot be malformed: every decimal found (by the rules of
    :mod:`.text`) is a free digit, with its offsets into ``text``.
    """
    return ProseExtract(free=find_decimals(text))
