"""How the extension's nodes look, per builder; HTML gets its markup here and nowhere else."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from . import nodes as vnodes
from .code_html import render_check_code
from .digit_marks import mark_class, wrap_digits

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def _skip(self: Any, node: nodes.Element) -> None:
    pass


def _visit_check_html(self: Any, node: vnodes.numeric_check) -> None:
    render_check_code(self, node)
    classes = ["verified-check"] + (["verified-failed"] if node.get("failure") else [])
    self.body.append(self.starttag(node, "div", CLASS=" ".join(classes)))


def _visit_header_html(self: Any, node: vnodes.problem_header) -> None:
    self.body.append(self.starttag(node, "div", CLASS="problem-header"))


def _visit_badge_html(self: Any, node: vnodes.badge) -> None:
    label = node.get("label") or node.astext()
    attributes = {"role": "img", "title": label, "aria-label": label}
    self.body.append(self.starttag(node, "span", "", **attributes))


def _depart_badge_html(self: Any, node: vnodes.badge) -> None:
    self.body.append("</span>")


def _depart_div(self: Any, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def _visit_collapsible_html(self: Any, node: vnodes.collapsible) -> None:
    attributes = {"open": "open"} if node.get("open") else {}
    self.body.append(self.starttag(node, "details", **attributes))


def _depart_collapsible_html(self: Any, node: vnodes.collapsible) -> None:
    self.body.append("</details>\n")


def _visit_summary_html(self: Any, node: vnodes.summary) -> None:
    self.body.append(self.starttag(node, "summary"))


def _depart_summary_html(self: Any, node: vnodes.summary) -> None:
    self.body.append("</summary>\n")


def _visit_summary_paragraph(self: Any, node: vnodes.summary) -> None:
    self.visit_paragraph(node)


def _depart_summary_paragraph(self: Any, node: vnodes.summary) -> None:
    self.depart_paragraph(node)


def _visit_mark_html(self: Any, node: vnodes.verified_mark) -> None:
    self.verified_tips = getattr(self, "verified_tips", 0) + 1
    node["tip_id"] = tip_id = f"verified-tip-{self.verified_tips}"
    css = "verified-mark" + ("" if node.get("ok") else " verified-mark-failed")
    self.body.append(self.starttag(node, "span", "", CLASS=css, tabindex="0",
                                   **{"aria-describedby": tip_id}))


def _depart_mark_html(self: Any, node: vnodes.verified_mark) -> None:
    tip = self.encode(node.get("tip", ""))
    self.body.append(
        f'<span class="verified-tip" role="tooltip" id="{node["tip_id"]}">{tip}</span></span>'
    )


def _visit_marked_math_html(self: Any, node: vnodes.marked_math) -> None:
    """Write the math with its checked digits wrapped, through the book's math renderer."""
    kind = nodes.math_block if isinstance(node, nodes.math_block) else nodes.math
    marked = wrap_digits(node.astext(), node[vnodes.SPANS_ATTRIBUTE])
    stand_in = kind(node.rawsource, marked, **node.attributes)
    stand_in.parent, stand_in.document = node.parent, node.document
    stand_in.source, stand_in.line = node.source, node.line
    stand_in.walkabout(self)
    raise nodes.SkipNode


def _visit_marked_text_html(self: Any, node: vnodes.marked_text) -> None:
    """A checked number of text: focusable, its provenance its title and its description
    (shown on focus by the stylesheet, from the attribute: no text is added to the page)."""
    tip = node.get("tip", "")
    attributes = {"tabindex": "0", "title": tip, "aria-description": tip}
    css = f"verified-digit {mark_class(node.get('state', 'bad'))}"
    self.body.append(self.starttag(node, "span", "", CLASS=css, **attributes))


def _depart_marked_text_html(self: Any, node: vnodes.marked_text) -> None:
    self.body.append("</span>")


_PASS = (_skip, _skip)


def _visit_spaced(self: Any, node: nodes.Element) -> None:
    """Other builders: the text alone, so a badge after another is set a space apart from it.

    (HTML spaces its badges with CSS; in text or LaTeX ``numeric▲▲△✓ verified`` would run
    together.)
    """
    if node.parent is not None and node.parent.index(node) > 0:
        space = nodes.Text(" ")
        self.visit_Text(space)
        self.depart_Text(space)


_SPACED = (_visit_spaced, _skip)


def _add(app: Sphinx, node: type[nodes.Element], html: Any, others: Any = _PASS) -> None:
    """Register a node with its HTML rendering and one rendering for every other builder."""
    app.add_node(node, html=html, latex=others, text=others, man=others, texinfo=others)


def _single_page_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """singlehtml: make ``#document-DOC#ID`` links, two fragments that lead nowhere, work.

    Sphinx 9.0 no longer rewrites them (sphinx-doc/sphinx#14221), so every cross-reference of
    the one-page book, ``{problem:ref}`` included, is dead. A link to an id that is unique on the
    page becomes ``#ID``; one to an id several pages share (each problem's "Answer") leads to
    the start of its page, ``#document-DOC``.
    """
    if app.builder.name != "singlehtml":
        return
    ids = Counter(i for node in doctree.findall(nodes.Element) for i in node["ids"])
    for reference in doctree.findall(nodes.reference):
        uri = reference.get("refuri", "")
        page, double, target = uri[1:].partition("#")
        if uri.startswith("#document-") and double:
            reference["refuri"] = "#" + (target if ids[target] == 1 else page)


def _add_static(app: Sphinx, config: Config) -> None:
    """Serve the stylesheet: set once the configuration is read, before Sphinx compares it
    with the last build's, so that a no-op build finds no change of configuration."""
    static = str(Path(__file__).parent / "static")
    if static not in config.html_static_path:
        config.html_static_path = [*config.html_static_path, static]


def setup_render(app: Sphinx) -> None:
    """Register the nodes with a rendering for every builder Sphinx ships, and the stylesheet."""
    _add(app, vnodes.numeric_check, (_visit_check_html, _depart_div))
    _add(app, vnodes.problem_header, (_visit_header_html, _depart_div))
    _add(app, vnodes.badge, (_visit_badge_html, _depart_badge_html), _SPACED)
    _add(app, vnodes.verified_mark, (_visit_mark_html, _depart_mark_html), _SPACED)
    _add(app, vnodes.collapsible, (_visit_collapsible_html, _depart_collapsible_html))
    _add(app, vnodes.summary, (_visit_summary_html, _depart_summary_html),
         (_visit_summary_paragraph, _depart_summary_paragraph))
    for marked in (vnodes.marked_math, vnodes.marked_math_block):
        app.add_node(marked, html=(_visit_marked_math_html, _skip))
    app.add_node(vnodes.marked_text, html=(_visit_marked_text_html, _depart_marked_text_html))
    app.add_css_file("verified.css")
    app.connect("config-inited", _add_static)
    app.connect("doctree-resolved", _single_page_links, priority=900)  # after the tables' links
