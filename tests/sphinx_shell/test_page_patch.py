"""A check's changes to a page, taken back into another copy of it (:mod:`.page_patch`).

Real doctrees, parsed by docutils; the "check" here changes them as the page check does:
a node replaced by one of another kind, a paragraph's text cut around a number, attributes
set, an attribute of the document itself.
"""

from __future__ import annotations

import pickle

from docutils import nodes
from docutils.core import publish_doctree
from verified_problems.sphinx_shell.page_patch import apply_patch, patch_between

PAGE = """\
Title
=====

Step
----

The weight is 0.25 and the bias 1.5.

.. math::

   w = 0.25

Again
-----

.. _kept:

Nothing here changes.
"""


def _copy(document: nodes.document) -> nodes.document:
    return pickle.loads(pickle.dumps(document))


def _checked(document: nodes.document) -> nodes.document:
    """A copy of the page as a check would leave it."""
    checked = _copy(document)
    paragraph = next(checked.findall(nodes.paragraph))
    text = paragraph.children[0]
    before, after = str(text).split("0.25")
    paragraph.replace(text, [nodes.Text(before), nodes.strong("0.25", "0.25"), nodes.Text(after)])
    math = next(checked.findall(nodes.math_block))
    marked = nodes.literal_block(math.rawsource, "w = 0.25", ids=["marked-1"])
    math.replace_self(marked)
    checked["verified"] = "yes"
    return checked


def _same(one: nodes.document, other: nodes.document) -> bool:
    return one.pformat() == other.pformat() and one.attributes == other.attributes


def test_a_patch_makes_the_page_read_into_the_page_checked() -> None:
    read = publish_doctree(PAGE)
    checked = _checked(read)
    expected = _copy(checked)
    patch = patch_between(_copy(read), checked)
    assert patch is not None
    assert [tag for _place, tag in patch.places] == ["paragraph", "math_block"]
    in_memory = _copy(read)
    kept = next(n for n in in_memory.findall(nodes.paragraph) if "Nothing" in n.astext())
    assert apply_patch(in_memory, patch)
    assert _same(in_memory, expected)
    assert kept in in_memory.findall(nodes.paragraph)  # what the check left alone stays
    marked = next(in_memory.findall(nodes.literal_block))
    assert in_memory.ids["marked-1"] is marked and marked.document is in_memory
    assert marked.parent is not None and marked in marked.parent.children


def test_a_patch_leaves_another_page_as_it_is() -> None:
    read = publish_doctree(PAGE)
    patch = patch_between(_copy(read), _checked(read))
    assert patch is not None
    other = publish_doctree(PAGE.replace(".. math::\n\n   w = 0.25\n", "Plain text.\n"))
    unchanged = other.pformat()
    assert not apply_patch(other, patch)
    assert other.pformat() == unchanged


def test_a_page_whose_outline_changed_has_no_patch() -> None:
    read = publish_doctree(PAGE)
    checked = _copy(read)
    checked += nodes.paragraph("", "A note at the end of the page.")
    assert patch_between(_copy(read), checked) is None
