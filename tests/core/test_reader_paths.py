"""A comment changes nothing: the fast path and pylatexenc's path read every block alike.

The LaTeX reader reads a plain block with its own one-pass scanner and hands anything else (a
``%`` comment, math inside ``\\text``, unbalanced input) to pylatexenc. A scanner that
disagreed with pylatexenc on a block it accepted would change what the checker reads. So each
block is read as written (the scanner's path, for a plain block) and with a comment after it
(always pylatexenc's), and the two readings must be the same: every number, name, offset and
problem. An author may put a comment in any block; it must not change the verdict either.
(Malformed input is read by pylatexenc either way; there both readings must find it malformed.)
"""

from __future__ import annotations

import ast
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import PROJECT
from verified_problems.core import read_math

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE = re.compile(r"(?<![$\\])\$([^$\n]+?)\$(?!\$)")
_AMSMATH = re.compile(r"(\\begin\{(align|equation|gather|multline)\*?\}.*?\\end\{\2\*?\})",
                      re.DOTALL)
_MACROS = {"mat": (r"\mathbf{#1}", 1), "vec": (r"\boldsymbol{#1}", 1), "dk": (r"d_k", 0)}
_TRAILING_BACKSLASHES = re.compile(r"(?<!\\)(?:\\\\)*\\$")


def _commented(source: str) -> str | None:
    """The block with a comment after it, or None where a comment would change its meaning
    (after a lone backslash, the line break would become a control space)."""
    if _TRAILING_BACKSLASHES.search(source):
        return None
    return source + "\n% a comment"


def _alike(source: str) -> None:
    """Read alike, or (malformed input, which only pylatexenc reads) both found malformed."""
    commented = _commented(source)
    if commented is None:
        return
    plain, with_comment = read_math(source, _MACROS), read_math(commented, _MACROS)
    if plain.problems:
        assert with_comment.problems, source
    else:
        assert plain == with_comment, source


def _book_blocks() -> list[str]:
    pages = [*(PROJECT / "book").rglob("*.md"), *(PROJECT / "tests" / "roots").rglob("*.md")]
    blocks: list[str] = []
    for page in sorted(pages):
        text = page.read_text(encoding="utf-8")
        blocks += _DISPLAY.findall(text) + _INLINE.findall(text)
        blocks += [match[0] for match in _AMSMATH.findall(text)]
    return blocks


def _test_strings() -> list[str]:
    """Every string constant of the math reader's tests that looks like LaTeX."""
    strings: set[str] = set()
    for name in ("test_math.py", "test_arithmetic.py"):
        path = PROJECT / "tests" / "core" / name
        tree = ast.parse(path.read_text(encoding="utf-8"))
        strings |= {node.value for node in ast.walk(tree)
                    if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and re.search(r"[\\{}0-9]", node.value)}
    return sorted(strings)


def test_every_block_of_the_book_is_read_alike() -> None:
    blocks = _book_blocks()
    assert len(blocks) > 100
    for block in blocks:
        _alike(block)


def test_every_string_of_the_reader_tests_is_read_alike() -> None:
    strings = _test_strings()
    assert len(strings) > 100
    for source in strings:
        _alike(source)


@pytest.mark.parametrize(
    "source",
    [r"\text{for $x$} = 0.5", r"\(x = 0.5\)", "{x = 0.5", "x = 0.5}", r"\begin{a}x\end{b}",
     r"\end{a} 0.5", r"\begin x = 0.5", "\\alpha\u00b2 = 0.5"],
)
def test_what_only_pylatexenc_reads_is_read_alike(source: str) -> None:
    _alike(source)


def test_a_block_the_scanner_declines_still_gives_its_numbers_and_its_problem() -> None:
    extract = read_math(r"\mathbf{x} = {1.5")
    assert [(value.names, [cell.text for cell in value.cells]) for value in extract.named] == [
        (("x",), ["1.5"])
    ]
    assert [problem.message for problem in extract.problems] == [
        "unbalanced braces: the `{` at this point is never closed; close it with `}`, or write"
        " `\\{` for a brace the formula shows"
    ]


_PIECES = [
    "x", "1", "0.5", "-", "=", "&", "\\\\", "\\\\[2pt]", " ", "  ", "\n", "\n\n", "\t",
    "\u00a0", "~", "*", "[", "]", "(", ")", "{", "}", "\\{", "\\}", "\\,", "\\;", "\\ ",
    "\\alpha", "\\mathbf", "\\text", "\\tag", "\\left", "\\right", "\\begin{bmatrix}",
    "\\end{bmatrix}", "\\begin {aligned}", "\\end{aligned}", "\\begin{", "\\end", "é",
    "\\é", "\u00b2", "\\1", "$", "%", "\\(", "\\[", "_", "^", "\\mat", "\\dk",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_generated_blocks_are_read_alike(source: str) -> None:
    _alike(source)
