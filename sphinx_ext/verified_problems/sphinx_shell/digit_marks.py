"""What a reader sees of the verification: a verified mark in the header, marked digits.

The header of a checked problem gets a mark that says, on hover or keyboard focus, which
snippet printed the page's digits, its content hash and the build date (``SOURCE_DATE_EPOCH``
when set, so builds stay reproducible), and no more than holds: how many numbers are only
matched, not bound, and how many the author exempted. In HTML, every checked number of the
page's math is wrapped in MathJax's ``\\class`` and ``\\texttip``, and every one of its text
(paragraphs, lists, tables, admonitions) in a focusable span with a ``title``: a reader can
point at ``0.4011`` and see what it is, its provenance verbatim (see :mod:`.provenance`). A
number with no provenance never looks checked; exempted digits look different too.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from docutils import nodes

from . import nodes as vnodes
from .records import NUMBER_FIELDS

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from .records import PageReport

#: The class of a marked number, by its state (see :func:`.provenance.state_of`).
_CLASS = {"ok": "verified-ok", "injected": "verified-injected", "unbound": "verified-unbound",
          "exempt": "verified-exempt", "bad": "verified-bad"}
#: The states from the best to the worst: a number checked against several names shows the
#: worst of its verdicts.
_WORST = ("ok", "injected", "exempt", "unbound", "bad")
_TEX_SPECIAL = re.compile(r"[\\{}$]")


def mark_class(state: str) -> str:
    """The class a marked number has in HTML, by its state; anything unknown looks wrong."""
    return _CLASS.get(state, _CLASS["bad"])


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
        tip = _claim(_page_counts(report), f"the output of {runs}, executed at build on "
                                           f"{build_date()}")
    mark: vnodes.verified_mark = vnodes.verified_mark(label, tip=tip, ok=not errors)
    mark += nodes.Text(label)
    return mark


def _page_counts(report: PageReport) -> Counter[str]:
    """The page's numbers as the mark counts them: checked (of them, injected: written by the
    build from the output), unbound (matched a printed number but bound to none) and exempt."""
    counts: Counter[str] = Counter()
    kind, status = NUMBER_FIELDS.index("kind"), NUMBER_FIELDS.index("status")
    for row in report.number_rows():
        if row[kind] == "exempt":
            counts["exempt"] += 1
        elif row[status] == "match":
            counts["unbound" if row[kind] == "free" else "checked"] += 1
            counts["injected"] += row[kind] == "injected"
    return counts


def _claim(counts: Counter[str], against: str) -> str:
    """What the mark claims of a page that passed: no more than holds (see DESIGN.md §5)."""
    exempt, unbound = counts["exempt"], counts["unbound"]
    injected = counts["injected"]
    against += f", or injected from it ({_numbers(injected)})" if injected else ""
    if not unbound:
        claim = f"Every number on this page was checked against {against}"
        if not counts["checked"]:
            claim = f"No number on this page was checked against {against}"
        return claim + (f", except {_numbers(exempt)} exempted by the author." if exempt else ".")
    checked = counts["checked"]
    claim = (f"{_numbers(checked).capitalize()} on this page {_were(checked)} checked against "
             f"{against}; {unbound} more matched a printed number but "
             f"{'is' if unbound == 1 else 'are'} not bound to one")
    return claim + (f", and {exempt} {_were(exempt)} exempted by the author." if exempt else ".")


def _numbers(count: int) -> str:
    return f"{count} number{'' if count == 1 else 's'}"


def _were(count: int) -> str:
    return "was" if count == 1 else "were"


def mark_digits(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Mark each checked number of the page's math and text with what it is (HTML only).

    A math node becomes a marked node, which only the HTML writer wraps (see :mod:`.render`);
    a number in text becomes a :class:`~.nodes.marked_text` holding the number alone. The
    search index still sees the formula and the sentence as written.
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
    for element in list(doctree.findall(_has_text_spans)):
        mark_text(element)


def _has_text_spans(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Element) and bool(node.get(vnodes.TEXT_SPANS_ATTRIBUTE))


def mark_text(element: nodes.Element) -> None:
    """Split each text child of ``element`` that holds checked numbers around them, each
    number in a :class:`~.nodes.marked_text`; a number no longer where it was is left as is."""
    by_child: dict[int, list[tuple[int, int, str, str, str]]] = {}
    for child, start, end, written, *shown in element[vnodes.TEXT_SPANS_ATTRIBUTE]:
        text = element[child] if child < len(element) else None
        if isinstance(text, nodes.Text) and str(text)[start:end] == written:
            by_child.setdefault(child, []).append((start, end, *shown))
    for child in sorted(by_child, reverse=True):
        pieces = list(_pieces(str(element[child]), by_child[child]))
        element[child:child + 1] = pieces


def _pieces(text: str, spans: list[tuple[int, int, str, str, str]]) -> Iterator[nodes.Node]:
    position = 0
    for (start, end), (state, tip) in _merged(spans):
        if start < position:
            continue
        if start > position:
            yield nodes.Text(text[position:start])
        yield vnodes.marked_text(text[start:end], text[start:end], state=state, tip=tip)
        position = end
    if position < len(text):
        yield nodes.Text(text[position:])


def wrap_digits(latex: str, spans: list[Any]) -> str:
    """The LaTeX with each span wrapped; a number checked against several names is wrapped once."""
    out: list[str] = []
    position = 0
    for (start, end), (state, tip) in _merged(spans):
        if start < position:
            continue
        out.append(latex[position:start])
        out.append(f"\\class{{{mark_class(state)}}}{{\\texttip{{{latex[start:end]}}}"
                   f"{{{tex_text(tip)}}}}}")
        position = end
    out.append(latex[position:])
    return "".join(out)


def _merged(spans: Iterable[Any]) -> list[tuple[tuple[int, int], tuple[str, str]]]:
    """One mark a number, in reading order: the worst state of its verdicts, and their tips
    (each said once) followed by the snippets that own it."""
    grouped: dict[tuple[int, int], list[tuple[str, str, str]]] = {}
    for start, end, state, tip, snippet in spans:
        grouped.setdefault((start, end), []).append((state, tip, snippet))
    merged = []
    for where, shown in sorted(grouped.items()):
        state = max((s for s, _, _ in shown), key=_WORST.index)
        tips = "; ".join(dict.fromkeys(t for _, t, _ in shown if t))
        snippets = ", ".join(dict.fromkeys(s for _, _, s in shown if s))
        merged.append((where, (state, f"{tips} ({snippets})" if snippets else tips)))
    return merged


def tex_text(text: str) -> str:
    """``text`` as MathJax's text mode (``\\text{…}``, inside ``\\texttip``) shows it verbatim.

    There, only a backslash, braces and ``$`` are special, each escaped with a backslash
    (``_``, ``^``, ``#``, ``%``, ``&`` and ``~`` stand for themselves): ``z_1_minus_max`` keeps
    its underscores, and ``derived: e^{0.3}`` its braces.
    """
    return _TEX_SPECIAL.sub(r"\\\g<0>", text)
