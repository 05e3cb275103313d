"""What a page's check changed in its doctree, made again to another copy of the same page.

The helper that checks pages beside the writer (:mod:`.background`) has the page as Sphinx
wrote it and the page as the check left it; the writer has its own copy of the first, in
memory since it was read. Unpickling the whole checked page into the writer would make every
node of it anew while pages are written, and those young nodes, alive while their page is
written, are what sets off Python's full collections of everything the build holds (two more
for 200 pages, 0.15 s each). A patch carries only the subtrees the check replaced (a quarter
of a page's nodes: its marked math and text, its check, its header), each with its place.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any

from docutils import nodes

#: Where a subtree stands: the index of each node on the way down from the document.
Place = tuple[int, ...]


@dataclass(frozen=True)
class Patch:
    """The subtrees a check replaced, each with its place and the tag of what stood there."""

    places: tuple[tuple[Place, str], ...]
    #: The new subtrees, in the order of ``places``, pickled without their parents.
    subtrees: bytes
    #: The document's own attributes, as the check left them.
    attributes: dict[str, Any]


def patch_between(before: nodes.document, after: nodes.document) -> Patch | None:
    """The patch that makes ``before`` into ``after`` (a copy of it that a check changed);
    None if the document itself changed shape. Takes the replaced subtrees out of ``after``."""
    if len(before.children) != len(after.children):
        return None
    places: list[tuple[Place, str]] = []
    subtrees: list[nodes.Node] = []
    for index, (old, new) in enumerate(zip(before.children, after.children, strict=True)):
        _differences(old, new, (index,), places, subtrees)
    for subtree in subtrees:
        subtree.parent = None
        for node in subtree.findall():
            node.document = None
    return Patch(tuple(places), pickle.dumps(subtrees, pickle.HIGHEST_PROTOCOL),
                 dict(after.attributes))


def _differences(old: nodes.Node, new: nodes.Node, place: Place,
                 places: list[tuple[Place, str]], subtrees: list[nodes.Node]) -> None:
    """Find the outermost nodes under ``place`` that the check changed."""
    if not _alike(old, new):
        places.append((place, old.tagname))
        subtrees.append(new)
        return
    for index, (child, changed) in enumerate(zip(old.children, new.children, strict=True)):
        _differences(child, changed, (*place, index), places, subtrees)


def _alike(old: nodes.Node, new: nodes.Node) -> bool:
    """The same node but for its children (which have the same count)."""
    if type(old) is not type(new):
        return False
    if isinstance(old, nodes.Text):
        return str(old) == str(new)
    return len(old.children) == len(new.children) and _own(old) == _own(new)


#: What a node is, besides its children: a check changes these or puts a new node in its place.
#: (Other instance variables are docutils' bookkeeping of the parse, ``expect_referenced_by_id``
#: and the like, whose values are other nodes: they are compared by name only.)
_OWN = ("rawsource", "attributes", "source", "line", "tagname")


def _own(node: nodes.Node) -> tuple[Any, ...]:
    own = vars(node)
    return (*(own.get(name) for name in _OWN), sorted(own.keys() - _OWN))


def apply_patch(document: nodes.document, patch: Patch) -> bool:
    """Make the check's changes to ``document``; False (and nothing changed) if it is not the
    page the patch was made from."""
    parents = [_node_at(document, place[:-1]) for place, _tag in patch.places]
    for parent, (place, tag) in zip(parents, patch.places, strict=True):
        if parent is None or place[-1] >= len(parent.children) \
                or parent.children[place[-1]].tagname != tag:
            return False
    for parent, (place, _tag), subtree in zip(parents, patch.places,
                                              pickle.loads(patch.subtrees), strict=True):
        assert parent is not None
        parent.children[place[-1]] = subtree
        subtree.parent = parent
        for node in subtree.findall():
            node.document = document
            if isinstance(node, nodes.Element):
                document.ids.update(dict.fromkeys(node["ids"], node))
    document.attributes = patch.attributes
    return True


def _node_at(document: nodes.document, place: Place) -> nodes.Node | None:
    node: nodes.Node = document
    for index in place:
        if index >= len(node.children):
            return None
        node = node.children[index]
    return node
