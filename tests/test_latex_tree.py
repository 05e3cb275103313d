"""The fast reader of plain math blocks gives exactly pylatexenc's tree, or declines.

:mod:`verified_problems.latex_tree` reads most blocks with its own one-pass scanner and hands
the rest to pylatexenc. A scanner that disagreed with pylatexenc on a block it accepted would
change what the checker reads, so the two are compared on every math block of the book and of
the test roots, on every LaTeX string the extractor's tests use, and on generated blocks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pylatexenc import latexwalker
from verified_problems.latex_tree import Node, _convert, _pylatexenc_nodes, _scan, parse

PROJECT = Path(__file__).resolve().parent.parent
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)
_INLINE = re.compile(r"(?<![$\\])\$([^$\n]+?)\$(?!\$)")
_AMSMATH = re.compile(r"(\\begin\{(align|equation|gather|multline)\*?\}.*?\\end\{\2\*?\})",
                      re.DOTALL)


def _pylatexenc(source: str) -> list[Node] | None:
    try:
        return _convert(_pylatexenc_nodes(source, tolerant=False))
    except latexwalker.LatexWalkerError:
        return None


def _agrees(source: str) -> bool:
    """The scanner's tree is pylatexenc's; True if the scanner read the block itself."""
    fast = _scan(source)
    if fast is not None:
        assert fast == _pylatexenc(source), source
    return fast is not None


def _book_blocks() -> list[str]:
    pages = [*(PROJECT / "book").rglob("*.md"), *(PROJECT / "tests" / "roots").rglob("*.md")]
    blocks: list[str] = []
    for page in sorted(pages):
        text = page.read_text(encoding="utf-8")
        blocks += _DISPLAY.findall(text) + _INLINE.findall(text)
        blocks += [match[0] for match in _AMSMATH.findall(text)]
    return blocks


def _test_strings() -> list[str]:
    """Every string constant of the extractor's tests that looks like LaTeX."""
    tree = ast.parse((PROJECT / "tests" / "test_latex.py").read_text(encoding="utf-8"))
    return sorted({
        node.value for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and re.search(r"[\\{}0-9]", node.value)
    })


def test_every_block_of_the_book_is_read_alike() -> None:
    blocks = _book_blocks()
    assert len(blocks) > 100
    fast = [block for block in blocks if _agrees(block)]
    # The point of the scanner: nearly every real block is read without pylatexenc.
    assert len(fast) >= 0.9 * len(blocks)


def test_every_string_of_the_extractor_tests_is_read_alike() -> None:
    strings = _test_strings()
    assert len(strings) > 100
    for source in strings:
        _agrees(source)


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("x % a comment", "a comment"),
        (r"\text{for $x$}", "math inside text"),
        (r"\(x\)", "inline math delimiters"),
        ("{x", "an unclosed group"),
        ("x}", "a stray closing brace"),
        (r"\begin{a}x\end{b}", "environments that do not pair"),
        (r"\end{a}", "a stray end"),
        (r"\begin x", "a begin without a name"),
        ("x\\", "a lone backslash"),
        ("\\alpha\u00b2", "a macro name with a digit-like letter"),
    ],
)
def test_the_scanner_declines_what_it_does_not_read(source: str, reason: str) -> None:
    assert _scan(source) is None, reason


def test_a_declined_block_still_gets_a_tree_and_its_problem() -> None:
    problems: list = []
    tree = parse(r"\mathbf{x} = {1.5", problems)
    assert [node.kind for node in tree] == ["macro", "group", "chars", "group"]
    assert [problem.message for problem in problems] == [
        "unbalanced braces: the `{` at this point is never closed"
    ]


_PIECES = [
    "x", "1", "0.5", "-", "=", "&", "\\\\", "\\\\[2pt]", " ", "  ", "\n", "\n\n", "\t",
    "\u00a0", "~", "*", "[", "]", "(", ")", "{", "}", "\\{", "\\}", "\\,", "\\;", "\\ ",
    "\\alpha", "\\mathbf", "\\text", "\\tag", "\\left", "\\right", "\\begin{bmatrix}",
    "\\end{bmatrix}", "\\begin {aligned}", "\\end{aligned}", "\\begin{", "\\end", "é",
    "\\é", "\u00b2", "\\1", "$", "%", "\\(", "\\[", "_", "^",
]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_generated_blocks_are_read_alike(source: str) -> None:
    _agrees(source)
