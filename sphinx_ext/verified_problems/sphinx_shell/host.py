"""What the project that builds a page must give it, and a located message where it does not.

Without MyST's ``colon_fence`` extension, ``:::{check-numeric} softmax.py`` is no directive but a
paragraph of text: the page would build, say nothing, and have nothing checked. A paragraph
that starts like one of this extension's directives is therefore an error at its line, naming
the setting.

A macro that the page's math uses, and that neither MathJax nor the project defines (a book
macro such as ``\\mat`` missing from ``verified_macros``), renders in red while the checker,
told of it or not, reads on: a warning at its block's line says where to define it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from docutils import nodes

from . import nodes as vnodes
from .diagnostics import Finding, Subtype

#: The directives of this extension, as a ``:::`` fence would open them.
_FENCED = re.compile(
    r":{3,}\{(check-numeric|problem|problem-index|verification-report|unchecked)\}"
)


def unread_directives(docname: str, doctree: nodes.document) -> list[Finding]:
    """One finding for each of the extension's directives that the page left as text."""
    findings: list[Finding] = []
    for paragraph in doctree.findall(nodes.paragraph):
        found = _FENCED.match(paragraph.astext())
        if found is not None:
            findings.append(Finding(docname, vnodes.source_line(paragraph), Subtype.HOST, (
                f"`{found.group(0)}` is read as text here, so nothing on this page is checked:"
                " MyST reads ::: fences only with its colon_fence extension; add"
                " \"colon_fence\" to myst_enable_extensions in conf.py, or open the directive"
                f" with backticks (```{{{found.group(1)}}})")))
    return findings


#: A control word, and the macros a block defines for the blocks after it.
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)")
_DEFINED = re.compile(r"\\(?:re)?newcommand\*?\s*\{?\\([A-Za-z]+)|\\def\s*\\([A-Za-z]+)"
                      r"|\\DeclareMathOperator\*?\s*\{\\([A-Za-z]+)")


@cache
def mathjax_macros() -> frozenset[str]:
    """The control words MathJax knows with all its TeX packages (a list kept beside this)."""
    text = (Path(__file__).with_name("mathjax_macros.txt")).read_text(encoding="utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def unknown_macros(docname: str, doctree: nodes.document,
                   known: frozenset[str]) -> list[Finding]:
    """A warning for the first use on a page of each macro that is not ``known`` (MathJax's and
    the project's, :attr:`.config.VerifiedConfig.known_macros`) nor defined on the page."""
    blocks = [(block, block.astext()) for block in doctree.findall(
        lambda node: isinstance(node, nodes.math | nodes.math_block))]
    defined = {name for _, text in blocks for found in _DEFINED.finditer(text)
               for name in found.groups() if name}
    findings: list[Finding] = []
    for block, text in blocks:
        for name in dict.fromkeys(_CONTROL_WORD.findall(text)):
            if name in known or name in defined:
                continue
            defined.add(name)  # once a page
            findings.append(Finding(docname, vnodes.source_line(block), Subtype.MACRO, (
                f"`\\{name}` is a macro neither MathJax nor this project defines: the page"
                " shows it in red; define it in verified_macros in conf.py (MathJax, the LaTeX"
                " preamble and the checker then all read it)")))
    return findings
