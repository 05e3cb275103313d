"""Output-neutral nodes: the doctree says what a block is; each builder decides how it looks.

The children of these nodes are ordinary docutils nodes (literal blocks, paragraphs), so a
builder that knows nothing of them still renders their content; HTML gets its markup late,
in :mod:`.render`.
"""

from __future__ import annotations

from docutils import nodes

#: Attributes the extension sets on ordinary nodes, read when the page is checked or written.
SKIP_ATTRIBUTE = "verified_skip"
"""On an element whose text is no prose to check (a problem id such as ``1.2.03``)."""
EXEMPT_ATTRIBUTE = "verified_exempt"
"""On an element whose numbers the author exempted (``{unchecked}``, ``:::{unchecked}``)."""
SPANS_ATTRIBUTE = "verified_spans"
"""On a math node: which of its numbers were checked, and how, for the reader's view."""
TEXT_SPANS_ATTRIBUTE = "verified_text_spans"
"""On an element: which numbers of its text children were checked, and how (see
:func:`.provenance.annotate`)."""
INJECTED_ATTRIBUTE = "verified_injected"
"""On a math node: where its ``\\val{…}`` were injected, as (start, end) now, (start, end) as
written, and the :class:`~..core.injection.Cell` of each number (see :mod:`.injection`)."""
WRITTEN_ATTRIBUTE = "verified_written"
"""On a math node with injections: its LaTeX as the author wrote it."""


class numeric_check(nodes.General, nodes.Element):
    """A ``check-numeric`` block: the excerpt, the full script, the transcript, the verdict.

    Attributes: ``snippet`` (path relative to the snippet folder), ``scope`` (``page`` or
    ``section``), ``decimals`` (an override or None), ``stdout`` (until the page is checked),
    ``failure``, ``key``.
    """


class collapsible(nodes.General, nodes.Element):
    """Content a reader opens on demand (``<details>`` in HTML, shown in full elsewhere).

    The first child is a :class:`summary`.
    """


class summary(nodes.General, nodes.TextElement):
    """The always-visible line of a :class:`collapsible` (``<summary>`` in HTML)."""


#: The class of the paragraph that says what the build checked, filled in after the check.
VERDICT_CLASS = "verified-verdict"


class problem_header(nodes.General, nodes.Element):
    """A problem's header: id, kind, difficulty and rounding policy, above its sections."""


class badge(nodes.Inline, nodes.TextElement):
    """A short mark whose meaning is in ``label``: ``▲▲△`` is "difficulty 2 of 3".

    HTML gives it the label as its accessible name; other builders show the text.
    """


class verified_mark(nodes.General, nodes.Inline, nodes.TextElement):
    """The mark in a problem header that its digits were checked; ``tip`` says by what."""


class marked_math(nodes.math):
    """Inline math whose HTML shows its checked digits marked (from its ``verified_spans``).

    The node keeps the author's LaTeX as its text, so Sphinx's search index reads the formula
    and not the marks (their tooltips would make every checked page match "checked").
    """


class marked_math_block(nodes.math_block):
    """Display math whose HTML shows its checked digits marked, as :class:`marked_math`."""


class marked_text(nodes.Inline, nodes.TextElement):
    """A checked number of plain text, marked in HTML with what it is (``state``, ``tip``).

    Made only when HTML is written (see :mod:`.digit_marks`); its one child is the number's
    own text, so Sphinx's search index reads the number and not its tooltip.
    """


class injected_value(nodes.Inline, nodes.TextElement):
    """A ``{val}`NAME``` of text until the page is checked, when the printed value takes its
    place (see :mod:`.injection`); ``argument`` is NAME (and its format) as written."""


def source_line(node: nodes.Node | None) -> int | None:
    """The line a node stands on, or its nearest ancestor's: docutils gives only some a line."""
    while node is not None:
        line = getattr(node, "line", None)
        if line:
            return int(line)
        node = node.parent
    return None


def enclosing_section(node: nodes.Node) -> nodes.section | None:
    """The section a node stands in: a problem takes its title from it, a check its scope."""
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.section):
        parent = parent.parent
    return parent
