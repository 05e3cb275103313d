"""Printed digits injected into a page: ``\\val{NAME}`` in its math, ``{val}`NAME``` in its text.

When it happens: as the page is checked (:func:`.page_check.check_page`, from the environment
collector once the page is read), after the directives ran their snippets and before the
prose is read. That is the first moment the owning snippet's transcript is known, and it is
still the doctree that every builder writes: each math node's LaTeX has its ``\\val{…}``
replaced by the digits, so MathJax, LaTeX and the text builder all see plain digits, and each
role's placeholder becomes the digits in a span the checker skips. The page's own check then
reads the math as it now stands, so a hand-written digit beside an injected one is checked as
ever, and the prose's arithmetic around an injected value holds or fails by the usual rules;
what was injected is no hand-written digit and is never compared with itself: its verdict is
``injected`` (:func:`settle`), with its quantity and printed value as its provenance.

The math node keeps the LaTeX as written and where each injection stands in it, so the other
numbers of the formula are still placed on the author's lines and columns
(:func:`..core.injection.written_offset`). An unknown name, an element outside the printed
array, a format that does not apply: each is a located error (``verified.injection``), and the
request is shown as ``?``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from docutils import nodes

from ..core import (
    Cursor,
    InjectedCell,
    Injection,
    Outcome,
    Placed,
    Policy,
    ProseNumber,
    Transcript,
    Verdict,
    find_requests,
    offset_to_position,
    read_request,
    render_request,
    source_lines,
)
from . import nodes as vnodes
from .diagnostics import Finding, Subtype

if TYPE_CHECKING:
    from docutils.nodes import Node
    from sphinx.application import Sphinx

    from .config import VerifiedConfig

#: How a reader's tooltip begins for an injected digit.
INJECTED_TIP = "injected from the snippet's output"
#: What a request that cannot be met shows in place of its digits.
_UNMET_MATH = r"\boxed{?}"
_UNMET_TEXT = "?"


@dataclass(frozen=True)
class Feed:
    """What one check gives the injections it owns: its transcript (None when the snippet
    failed: its own error says so) and its rounding policy."""

    transcript: Transcript | None
    policy: Policy


@dataclass(frozen=True)
class TextInjection:
    """A number injected into text: the span that holds it, placed, and what it is."""

    node: nodes.inline
    placed: Placed
    cell: InjectedCell


@dataclass
class PageInjections:
    """What a page's injections left: their errors, and the text ones by owning check."""

    findings: list[Finding] = field(default_factory=list)
    text: dict[int, list[TextInjection]] = field(default_factory=dict)


Owner = Callable[["Node"], "nodes.Element | None"]
"""The check that owns where a node stands (the page check's scope rule), or None."""


def val_role(
    name: str, rawtext: str, text: str, lineno: int, inliner: Any,
    options: dict[str, Any] | None = None, content: list[str] | None = None,
) -> tuple[list[Node], list[nodes.system_message]]:
    """``{val}`NAME```: a placeholder that the page check replaces by NAME's printed value."""
    node = vnodes.injected_value(rawtext, rawtext, argument=text)
    node.line = lineno
    return [node], []


def inject_page(docname: str, doctree: nodes.document, config: VerifiedConfig,
                owner: Owner, feeds: Mapping[int, Feed]) -> PageInjections:
    """Make every injection of a page, each from the check that owns where it stands."""
    page = _Page(docname, config, owner, feeds, str(doctree.get("source", "")))
    for node in list(doctree.findall(_holds_requests)):  # one walk of the page, in order
        if isinstance(node, vnodes.injected_value):
            page.text(node)
        elif "\\val" in node.astext():
            page.math(node)
    return page.result


_HOLDS_REQUESTS = (nodes.math, nodes.math_block, vnodes.injected_value)


def _holds_requests(node: nodes.Node) -> bool:
    return isinstance(node, _HOLDS_REQUESTS)


class _Page:
    """One page's injections as they are made: its owners and feeds, what they left."""

    def __init__(self, docname: str, config: VerifiedConfig, owner: Owner,
                 feeds: Mapping[int, Feed], source: str) -> None:
        self.docname, self.config, self.owner, self.feeds = docname, config, owner, feeds
        self.source = source
        self.result = PageInjections()
        self.cursors: dict[tuple[str, int], Cursor] = {}

    def math(self, node: nodes.Element) -> None:
        written = node.astext()
        found = find_requests(written)
        if not found:
            return
        pieces: list[str] = []
        spans: list[tuple[int, int, int, int, tuple[InjectedCell, ...]]] = []
        position = 0
        for occurrence in found:
            pieces.append(written[position:occurrence.start])
            start = sum(map(len, pieces))
            rendered = occurrence.problem or self._rendered(node, occurrence.argument, True)
            if isinstance(rendered, Injection):
                pieces.append(rendered.text)
                spans.append((start, start + len(rendered.text), occurrence.start,
                              occurrence.end, rendered.cells))
            else:
                self._error(partial(_line_in, node, written, occurrence.start, self.source),
                            rendered)
                pieces.append(_UNMET_MATH)
            position = occurrence.end
        pieces.append(written[position:])
        node[:] = [nodes.Text("".join(pieces))]
        node[vnodes.WRITTEN_ATTRIBUTE] = written
        node[vnodes.INJECTED_ATTRIBUTE] = spans

    def text(self, placeholder: vnodes.injected_value) -> None:
        rendered = self._rendered(placeholder, placeholder["argument"], False)
        line = self._role_line(placeholder)
        shown = rendered.text if isinstance(rendered, Injection) else _UNMET_TEXT
        span = nodes.inline(shown, shown, classes=["verified-val"])
        span[vnodes.SKIP_ATTRIBUTE] = True  # no prose to check: the printed digits themselves
        placeholder.replace_self(span)
        if not isinstance(rendered, Injection):
            self._error(lambda: line, rendered)
            return
        check = self.owner(span)
        assert check is not None  # a request with no owner was not rendered
        section = vnodes.enclosing_section(span)
        context = section[0].astext() if section is not None and section.children else ""
        at = 0
        for cell, digits in zip(rendered.cells, rendered.digits, strict=True):
            start = shown.index(digits, at)
            at = start + len(digits)
            number = ProseNumber(digits, start, at, True, percent=shown[at:at + 1] == "%")
            placed = Placed(number, line, None, context)
            self.result.text.setdefault(id(check), []).append(TextInjection(span, placed, cell))

    def _role_line(self, placeholder: vnodes.injected_value) -> int | None:
        """The line a role stands on: MyST gives a role its paragraph's first line, so the
        role is found in the file from there (forward, for the next role of a paragraph)."""
        line = vnodes.source_line(placeholder)
        if line is None:
            return None
        path = getattr(placeholder, "source", None) or self.source
        cursor = self.cursors.get((path, line))
        if cursor is None:
            cursor = self.cursors[(path, line)] = Cursor(source_lines(path), line - 1)
        found = cursor.place_block(f"`{placeholder['argument']}`")[0]
        return found[0] + 1 if found is not None else line

    def _rendered(self, node: Node, argument: str, math: bool) -> Injection | str | None:
        """The value a request asks for; what is wrong with it; or None where its snippet
        failed (that is reported already)."""
        request = read_request(argument, self.config.macros)
        if isinstance(request, str):
            return request
        check = self.owner(node)
        if check is None and not self.feeds:
            return (f"{request.written}: this page has no check-numeric, so no snippet gives "
                    "its value; add one, or write the digits by hand")
        if check is None:
            return (f"{request.written}: outside the scope of every check-numeric on this "
                    "page, so no snippet gives its value; move it into a checked section")
        feed = self.feeds[id(check)]
        if feed.transcript is None:
            return None
        return render_request(request, feed.transcript, feed.policy, math)

    def _error(self, line: Callable[[], int | None], message: str | None) -> None:
        """Report a request that cannot be met (None: its snippet failed, reported already);
        its line is found only then."""
        if message is not None:
            self.result.findings.append(Finding(self.docname, line(), Subtype.INJECTION,
                                                message))


def _line_in(node: nodes.Element, written: str, offset: int, source: str) -> int | None:
    """The line of an offset into a formula as written, found in the page's file."""
    line = vnodes.source_line(node)
    if line is None:
        return None
    path = getattr(node, "source", None) or source
    placed = Cursor(source_lines(path), line - 1).place_block(written)
    position = offset_to_position(written, placed, offset)
    return position[0] + 1 if position is not None else line


Injected = dict[int, tuple[Placed, InjectedCell]]
"""Injected numbers by the ``id`` of each placed one, with what each is."""


def injected_cells(node: nodes.Node, placed: Mapping[int, Placed]) -> Injected:
    """The placed numbers of a math node that were injected (by the ``id`` of each), with
    what each one is: the numbers inside an injection are its cells, in order."""
    spans = node.get(vnodes.INJECTED_ATTRIBUTE) if isinstance(node, nodes.Element) else None
    found: Injected = {}
    for start, end, _old_start, _old_end, cells in spans or ():
        inside = sorted((at, number) for at, number in placed.items() if start <= at < end)
        for (_at, number), cell in zip(inside, cells, strict=False):
            found[id(number)] = (number, cell)
    return found


def injected_verdict(placed: Placed, cell: InjectedCell) -> Verdict:
    """An injected number's verdict: it holds, and says which printed quantity it is."""
    provenance = f"{INJECTED_TIP}: {cell.label}, printed {cell.printed}"
    return Verdict("injected", cell.name, cell.index, placed, Outcome.MATCH, cell.printed,
                   cell.places, False, "", provenance=provenance)


def settle(verdicts: Iterable[Verdict], injected: Injected) -> list[Verdict]:
    """The share's verdicts with each injected number's replaced by its ``injected`` one (an
    arithmetic failure at it stays: the prose's arithmetic around it is the author's)."""
    kept = [v for v in verdicts
            if id(v.placed) not in injected or v.outcome is Outcome.ARITHMETIC]
    kept += [injected_verdict(placed, cell) for placed, cell in injected.values()]
    kept.sort(key=lambda v: (v.placed.line or 0, v.placed.column or 0))
    return kept


def setup_injection(app: Sphinx) -> None:
    """Register the role (the math macro needs no registration: it is gone before MathJax)."""
    app.add_role("val", val_role)
