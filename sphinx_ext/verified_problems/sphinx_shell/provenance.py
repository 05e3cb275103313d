"""What a reader is told about each checked number: its provenance, and the counts by kind.

The page check (:mod:`.page_check`) places every number in the doctree; this module remembers
which node each one stands in (:class:`Origin`) and, once the snippet's verdicts are in,
records on that node what the reader's view shows (:func:`annotate`): for each number a state
(``ok``, ``unbound``, ``exempt`` or ``bad``), what it is (its provenance, verbatim, or what is
wrong with it) and the snippet that owns it. :mod:`.digit_marks` turns them into marks when
HTML is written. The verdict line under a transcript counts the numbers by kind
(:func:`verdict_text`), in the words of :data:`KIND_WORDS`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docutils import nodes

from ..core import Placed, ProseNumber, Verdict
from . import nodes as vnodes

if TYPE_CHECKING:
    from .records import SnippetRecord

#: What a number that matched a printed one, but is bound to none, tells the reader.
UNBOUND_TIP = "matched a printed number but not bound to one"
EXEMPT_TIP = "not checked: exempted by the author"

#: How the reader is told how many numbers of each kind a check holds, in order.
KIND_WORDS = {
    "named": "checked by name",
    "derived": "derived by the page's own arithmetic",
    "bound": "bound to a printed number",
    "given": "given in the snippet's source",
    "injected": "injected from its output",
    "unbound": UNBOUND_TIP,
    "exempt": "exempted by the author",
}


def reader_kind(verdict: Verdict) -> str:
    """The kind a reader is told of a number that holds: ``unbound`` for a digit with no
    provenance (a free digit, or a match that says where from nowhere), never "checked"."""
    if verdict.kind == "exempt":
        return "exempt"
    if verdict.kind == "free" or not verdict.provenance:
        return "unbound"
    return verdict.kind


def state_of(verdict: Verdict) -> str:
    """How a number looks to a reader: ``bad``, ``exempt``, ``unbound``, ``injected`` (the
    build wrote it, from the snippet's output) or ``ok``."""
    if verdict.failed:
        return "bad"
    kind = reader_kind(verdict)
    return kind if kind in ("unbound", "exempt", "injected") else "ok"


def tip_of(verdict: Verdict) -> str:
    """What a number is, as its tooltip says it (the snippet is added by the mark)."""
    state = state_of(verdict)
    if state == "bad":
        return verdict.message or "differs from what the snippet printed"
    if state == "exempt":
        return EXEMPT_TIP
    if state == "unbound":
        return f"{UNBOUND_TIP}: {verdict.provenance}" if verdict.provenance else UNBOUND_TIP
    return verdict.provenance


@dataclass(frozen=True)
class _Target:
    """Where a placed number stands: a math node, or the ``child``-th child (a text) of one."""

    node: nodes.Element
    child: int | None = None


class Origin:
    """Which node each placed number stands in, so that its verdict can be shown there.

    Keyed by the placed number, made once per region: two math blocks with the same LaTeX
    may share their extract (see :func:`..core.read_math`), so the prose number alone
    does not say which node it came from. The key is the placed number's ``id``: the share's
    lists hold every placed number until its verdicts are annotated, so no key is reused.
    """

    def __init__(self) -> None:
        self.targets: dict[int, _Target] = {}

    def placer(self, node: nodes.Node, text: nodes.Text | None,
               place: Callable[[ProseNumber], Placed]) -> Callable[[ProseNumber], Placed]:
        """``place`` that also remembers the node of what it places (math, or a text node)."""
        target = _target(node, text)
        if target is None:
            return place

        def placed_here(number: ProseNumber) -> Placed:
            placed = place(number)
            self.targets[id(placed)] = target
            return placed

        return placed_here

    def remember(self, placed: Placed, node: nodes.Element, child: int) -> None:
        """Where a number no region placed stands: the ``child``-th child (a text) of
        ``node`` (an injected number of text, see :mod:`.injection`)."""
        self.targets[id(placed)] = _Target(node, child)


def _target(node: nodes.Node, text: nodes.Text | None) -> _Target | None:
    if isinstance(node, nodes.math | nodes.math_block):
        return _Target(node)
    if text is None or not isinstance(text.parent, nodes.Element):
        return None
    child = next(i for i, c in enumerate(text.parent.children) if c is text)
    return _Target(text.parent, child)


def annotate(origin: Origin, verdicts: Iterable[Verdict], snippet: str) -> None:
    """Record on each node which of its numbers were checked, and what each one is.

    A math node gets ``(start, end, state, tip, snippet)`` spans in its LaTeX; an element
    with checked numbers in its text children gets ``(child, start, end, written, state, tip,
    snippet)``, ``written`` being the number as it stands there (the mark is made only if it
    still does when the page is written).
    """
    for verdict in verdicts:
        target = origin.targets.get(id(verdict.placed))
        if target is None:
            continue
        number = verdict.placed.number
        shown = (state_of(verdict), tip_of(verdict), "" if verdict.kind == "exempt" else snippet)
        if target.child is None:
            target.node.setdefault(vnodes.SPANS_ATTRIBUTE, []).append(
                (number.start, number.end, *shown))
        else:
            written = str(target.node[target.child])[number.start:number.end]
            target.node.setdefault(vnodes.TEXT_SPANS_ATTRIBUTE, []).append(
                (target.child, number.start, number.end, written, *shown))


def kind_counts(verdicts: Iterable[Verdict]) -> Counter[str]:
    """How many of a check's numbers hold, by the kind a reader is told."""
    return Counter(reader_kind(v) for v in verdicts if not v.failed)


def counts_text(kinds: Counter[str]) -> str:
    """The counts in plain words: ``9 checked by name and 2 derived by …``."""
    words = {**KIND_WORDS, **{kind: kind for kind in kinds if kind not in KIND_WORDS}}
    parts = [f"{kinds[kind]} {said}" for kind, said in words.items() if kinds[kind]]
    if not parts:
        return "no number checked"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def verdict_text(record: SnippetRecord, kinds: Counter[str], other_errors: int) -> str:
    """The verdict line under a check's transcript: what the build checked, and the result."""
    if record.failure:
        return "The snippet failed at build time: nothing on this page was verified."
    counts = counts_text(kinds)
    if record.failed:
        fails = "fails its check" if record.failed == 1 else "fail their check"  # a shape, a
        # step or a binding as well as a digit: the build log says which
        return (f"Executed at build. {record.failed} of the numbers above {fails}; the build "
                f"log says why ({counts}).")
    if other_errors:
        errors = f"{other_errors} error{'s' if other_errors != 1 else ''}"
        return (f"Executed at build, but this page does not pass: {errors} in the build log "
                f"({counts}).")
    return f"Executed at build. The digits above are the digits it printed ({counts})."


__all__ = ["EXEMPT_TIP", "KIND_WORDS", "UNBOUND_TIP", "Origin", "annotate",
           "counts_text", "kind_counts", "reader_kind", "state_of", "tip_of", "verdict_text"]
