r"""The LaTeX reader: the numbers a math block holds, with exact offsets into the block.

DESIGN.md section 3. A math block (display or inline: the LaTeX between its delimiters) is
read in passes, each on a small tree of tokens (:mod:`.tokens`) that keeps every offset into
the input, so that a number can be located, and fixed, exactly where the author wrote it:

0. :mod:`.tree`: groups, environments, macros and runs of characters (a one-pass scanner for
   plain blocks, pylatexenc for the rest).
1. and 2. :mod:`.tokenizer`: tokens and numbers; the book's MathJax macros expanded.
3. and 4. :mod:`.brackets`: brackets matched; signs, infinity and scientific notation folded
   into numbers.
5. :mod:`.grammar`: equations, chains of equalities, terms (names, literals, expressions).
6. :mod:`.blocks`: what the block names, its free digits, exempt numbers and problems, and
   its chains kept as :class:`Equation` values for the prose's arithmetic, which lives above
   this package (:mod:`..arithmetic`): the reader computes nothing.

:mod:`.vocabulary` says which control sequences are what, for every pass. Malformed input is
a :class:`~..values.SourceProblem`, never an exception.
"""

from __future__ import annotations

from .blocks import Equation, LatexReading, read_latex
from .vocabulary import EXEMPT_MACRO, MacroDef

__all__ = ["EXEMPT_MACRO", "Equation", "LatexReading", "MacroDef", "read_latex"]
