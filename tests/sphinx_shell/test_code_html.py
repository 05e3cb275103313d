"""A check block's code in HTML is exactly what Sphinx would write for it.

:mod:`verified_problems.code_html` lexes each snippet once and cuts the excerpt from the full
script's tokens. Every code block of every check in ``tests/roots/test-code`` (a whole script, an
excerpt between markers, a dedented one, emphasized lines, Windows line ends, a docstring and a
tab) is compared, element for element, with Sphinx's own highlighting of the same block.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bs4 import BeautifulSoup, Tag
from docutils import nodes
from pygments.lexers import PythonLexer
from sphinx.testing.util import SphinxTestApp
from support import soup
from verified_problems.sphinx_shell import nodes as vnodes
from verified_problems.sphinx_shell.code_html import decode_tokens, script_tokens


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, rootdir: Path,
          make_app: Callable[..., Any]) -> Any:
    srcdir = tmp_path_factory.mktemp("code") / "code"
    shutil.copytree(rootdir / "test-code", srcdir)
    app = make_app("html", srcdir=srcdir)
    app.build()
    assert app.statuscode == 0, app._warning.getvalue()
    return app


@pytest.fixture(scope="module")
def make_app() -> Iterator[Callable[..., Any]]:
    """sphinx.testing's app, kept for the whole module (one build serves every test)."""
    apps: list[Any] = []

    def make(*args: Any, **kwargs: Any) -> Any:
        app = SphinxTestApp(*args, **kwargs)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.cleanup()


def _sphinx_html(app: Any, block: nodes.literal_block) -> BeautifulSoup:
    """What Sphinx's ``visit_literal_block`` writes for ``block`` (its highlighting call)."""
    language = block.get("language", "default")
    linenos = block.get("linenos", False)
    if linenos and app.config.html_codeblock_linenos_style:
        linenos = app.config.html_codeblock_linenos_style
    highlighted = app.builder.highlighter.highlight_block(
        block.rawsource, language, opts=app.config.highlight_options.get(language, {}),
        linenos=linenos, **block.get("highlight_args", {}),
    )
    return BeautifulSoup(highlighted, "html.parser")


def _code_divs(check: Tag) -> list[Tag]:
    return [div for div in check.select("div[class*=highlight-]")
            if any(c.startswith("highlight-") for c in div.get("class", []))]


def test_every_code_block_is_what_sphinx_would_write(built: Any) -> None:
    doctree = built.env.get_and_resolve_doctree("index", built.builder, tags=built.tags)
    checks = list(doctree.findall(vnodes.numeric_check))
    page = soup(Path(built.outdir) / "index.html")
    rendered = page.select("div.verified-check")
    assert len(checks) == len(rendered) == 5
    compared = 0
    for check, html in zip(checks, rendered, strict=True):
        blocks = list(check.findall(nodes.literal_block))
        divs = _code_divs(html)
        assert len(blocks) == len(divs) == 3
        for block, div in zip(blocks, divs, strict=True):
            assert f"highlight-{block['language']}" in div["class"]
            inner = BeautifulSoup("".join(str(child) for child in div.children), "html.parser")
            assert inner == _sphinx_html(built, block), block.rawsource
            compared += 1
    assert compared == 15


def test_script_tokens_are_read_back_against_their_own_text_only() -> None:
    """The helper's tokens of a script are Pygments' own, and cut only from that text."""
    code = "import numpy as np\nprint('x =', np.arange(3.0))  # three\n"
    made = script_tokens(code, ())
    assert made is not None
    expected = list(PythonLexer(stripnl=False).get_tokens(code))
    assert decode_tokens(made, code) == expected
    assert decode_tokens(made, code.replace("three", "thre3")) is None  # same length
    assert decode_tokens(made[:-5], code) is None
    unended = code.rstrip("\n")  # Pygments ends the last line: the tokens say so
    cut = script_tokens(unended, ())
    assert cut is not None
    assert decode_tokens(cut, unended) == list(PythonLexer(stripnl=False).get_tokens(unended))
    assert script_tokens(code, None) is None  # a custom lexer: Sphinx lexes it itself
    assert script_tokens(">>> 1 + 1\n2\n", ()) is None  # a console session


def test_the_excerpt_is_cut_from_the_script_where_it_is_a_run_of_lines(built: Any) -> None:
    """The excerpt between markers is highlighted in place: the comment after it shows so."""
    page = soup(Path(built.outdir) / "index.html")
    excerpt = page.select("div.verified-check")[1].select_one("div.verified-excerpt pre")
    assert excerpt is not None
    assert excerpt.get_text() == (
        "    out = np.asarray(v, dtype=float) * factor  # every entry\n    return out\n"
    )
    comment = excerpt.select_one("span.c1")
    assert comment is not None and comment.get_text() == "# every entry"
