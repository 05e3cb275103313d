"""What a reader sees of the verification: a verified mark in the header, marked digits in math.

The header of a checked problem gets a mark that says, on hover or keyboard focus, which
snippet printed the page's digits, its content hash and the build date (``SOURCE_DATE_EPOCH``
when set, so builds stay reproducible). In HTML, every checked number in the page's math is
wrapped in MathJax's ``\\class`` and ``\\texttip``: a reader can point at ``0.4011`` and see what
it was checked against; exempted digits carry another class and look different.
"""

from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING, Any

from docutils import nodes

from . import nodes as vnodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from .records import PageReport

_CLASS = {"match": "verified-ok", "exempt": "verified-exempt"}
_UNSAFE = re.compile(r"[{}\\#$%&^_~]")


def setup_digit_marks(app: Sphinx) -> None:
    """Mark the checked digits of a page's math as it is written."""
    app.connect("doctree-resolved", mark_digits)


def build_date() -> str:
    """The date a reader is told the page was built: ``SOURCE_DATE_EPOCH`` if set, else today."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    seconds = int(epoch) if epoch and epoch.isdigit() else time.time()
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def add_header_mark(doctree: nodes.document, report: PageReport) -> None:
    """Put the verified mark (or the count of failures) next to the kind and difficulty."""
    if not report.snippets:
        return
    for header in doctree.findall(vnodes.problem_header):
        badges = next((p for p in header.findall(nodes.paragraph)
                       if "problem-badges" in p["classes"]), None)
        if badges is not None:
            badges += _mark(report)


def _mark(report: PageReport) -> vnodes.verified_mark:
    named = [f"{r.snippet} (sha256 {r.key[:12]})" if r.key else r.snippet
             for r in report.snippets]
    runs = " and ".join(named) if len(named) < 3 else ", ".join(named[:-1]) + " and " + named[-1]
    errors = len(report.errors)
    if errors:
        label = f"✗ {errors} check{'s' if errors != 1 else ''} failed"
        tip = f"This page's digits do not all match the output of {runs}."
    else:
        label = "✓ verified"
        tip = (f"Every number on this page was checked against the output of {runs}, "
               f"executed at build on {build_date()}.")
    mark: vnodes.verified_mark = vnodes.verified_mark(label, tip=tip, ok=not errors)
    mark += nodes.Text(label)
    return mark


def mark_digits(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Wrap each checked number of the page's math in a MathJax class with a tooltip (HTML only).

    Each such node becomes a marked node, which only the HTML writer wraps (see
    :mod:`.render`); the search index still sees the formula as written.
    """
    if app.builder.format != "html":
        return
    found = doctree.findall(lambda n: isinstance(n, nodes.math | nodes.math_block))
    for node in [n for n in found if n.get(vnodes.SPANS_ATTRIBUTE)]:
        kind = vnodes.marked_math_block if isinstance(node, nodes.math_block) \
            else vnodes.marked_math
        marked = kind(node.rawsource, *node.children, **node.attributes)
        marked.source, marked.line = node.source, node.line
        node.replace_self(marked)


def wrap_digits(latex: str, spans: list[Any]) -> str:
    """The LaTeX with each span wrapped; a number checked against several names is wrapped once."""
    merged: dict[tuple[int, int], tuple[str, list[str]]] = {}
    for start, end, outcome, label, snippet, printed in spans:
        kept = merged.setdefault((start, end), (outcome, []))
        kept[1].append(_tooltip(outcome, label, snippet, printed))
    out: list[str] = []
    position = 0
    for (start, end), (outcome, tips) in sorted(merged.items()):
        if start < position:
            continue
        css = _CLASS.get(outcome, "verified-bad")
        tip = _UNSAFE.sub("", "; ".join(dict.fromkeys(tips)))
        out.append(latex[position:start])
        out.append(f"\\class{{{css}}}{{\\texttip{{{latex[start:end]}}}{{{tip}}}}}")
        position = end
    out.append(latex[position:])
    return "".join(out)


def _tooltip(outcome: str, label: str, snippet: str, printed: str | None) -> str:
    if outcome == "exempt":
        return "not checked: exempted by the author"
    if outcome == "match":
        return f"{label or 'free digit'}: checked against {snippet}, printed {printed}"
    return f"{label or 'free digit'}: differs from {snippet}, printed {printed}"
