"""What the tests share: the project's paths, real builds of test roots, reading their output."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

from bs4 import BeautifulSoup, Tag
from sphinx.testing.util import SphinxTestApp
from verified_problems.sphinx_shell.records import PageReport, pages

# Sphinx colours its output when CI=true (as CI sets it); the tests read messages as text.
os.environ["NO_COLOR"] = "1"

ROOTS = Path(__file__).parent / "roots"
PROJECT = Path(__file__).parent.parent
SEED = Path(__file__).parent / "data" / "problem-II.3.B01.txt"


def copy_root_to(name: str, target: Path) -> Path:
    """A fresh copy of ``tests/roots/test-NAME`` at ``target``, for a test to build or edit."""
    shutil.copytree(ROOTS / f"test-{name}", target)
    return target


def sphinx_build(
    srcdir: Path, *extra: str, builder: str = "html"
) -> subprocess.CompletedProcess[str]:
    """Run the real ``sphinx-build`` command on a folder, as an author or CI would."""
    doctrees = str(srcdir / "_build" / "doctrees")
    command = [sys.executable, "-m", "sphinx", "-b", builder, "-d", doctrees,
               *extra, str(srcdir), str(srcdir / "_build" / builder)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)


def soup(path: Path) -> BeautifulSoup:
    """Parse a built HTML page."""
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def replace_in(path: Path, old: str, new: str, count: int = 1) -> None:
    """Edit a file of a copied root, insisting that the text to change is there."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


# -- one build of a root, as the build and problem tests read it ----------------------------------

_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def strip_escape_sequences(text: str) -> str:
    """The text without terminal colours (the test app's streams may be coloured)."""
    return _COLOUR.sub("", text)


@dataclass
class Build:
    """One finished build: its exit status, what it printed, what it read and wrote."""

    srcdir: Path
    statuscode: int
    status: str
    warning: str
    read: list[str]
    written: list[str]
    reports: dict[str, PageReport]
    parallel_read: bool

    def messages(self) -> list[str]:
        """The warning stream's lines, each page path relative to the root (``<root>`` else)."""
        return [_relative(line, self.srcdir) for line in self.warning.splitlines() if line]

    def summary(self) -> str:
        """The extension's one-line summary of the build (``verified: …``)."""
        lines = [line for line in self.status.splitlines()
                 if line.startswith("verified: ") and " checked pages, " in line]
        assert lines, self.status
        return lines[0]

    def page(self, docname: str) -> BeautifulSoup:
        """The built HTML of one page."""
        return soup(self.srcdir / "_build" / "html" / f"{docname}.html")

    def html(self, docname: str) -> str:
        """The built HTML of one page as text, with the root's path taken out."""
        text = (self.srcdir / "_build" / "html" / f"{docname}.html").read_text(encoding="utf-8")
        return text.replace(str(self.srcdir), "<root>")


def _relative(line: str, srcdir: Path) -> str:
    for root in {str(srcdir.resolve()), str(srcdir)}:
        if line.startswith(root + "/"):
            line = line[len(root) + 1 :]
        line = line.replace(root, "<root>")
    return line


def build_root(srcdir: Path, buildername: str = "html", **kwargs: Any) -> Build:
    """Build a root with sphinx.testing's app, as ``sphinx-build`` would (no fresh env)."""
    status, warning = StringIO(), StringIO()
    app = SphinxTestApp(buildername, srcdir=srcdir, status=status, warning=warning, **kwargs)
    read: list[str] = []
    written: list[str] = []
    app.connect("env-before-read-docs", lambda _app, _env, docnames: read.extend(docnames))
    app.connect("doctree-resolved", lambda _app, _doctree, docname: written.append(docname))
    try:
        app.build()
    finally:
        app.cleanup()
    return Build(
        srcdir=srcdir,
        statuscode=app.statuscode,
        status=strip_escape_sequences(status.getvalue()),
        warning=strip_escape_sequences(warning.getvalue()),
        read=sorted(read),
        written=sorted(written),
        reports=dict(pages(app.env)),
        parallel_read=app.parallel > 1 and app.is_parallel_allowed("read"),
    )


def no_traceback(result: Build) -> None:
    """Whatever failed, the author sees messages, not a Python traceback."""
    for stream in (result.status, result.warning):
        assert "Traceback" not in stream
        assert "Exception occurred" not in stream


def rendered_check(result: Build, page: str) -> Tag:
    """A page whose check failed, checked to be rendered around it; its check block."""
    body = result.page(page).select_one("div.body")
    assert body is not None
    assert body.select_one("h1") is not None
    assert body.select(".math"), "the prose math before the check"
    assert body.select("p")[-1].get_text().startswith("After the check the page goes on: ")
    check = body.select_one("div.verified-check")
    assert check is not None
    return check


# -- the reader's view of provenance, as the HTML writes it --------------------------------------

#: A marked number of math: its class, its text and its tooltip (braces escaped in it).
MARK = re.compile(r"\\class\{([^{}]*)\}\{\\texttip\{([^{}]*)\}\{((?:[^{}\\]|\\.)*)\}\}")


def math_marks(tag: Tag) -> list[tuple[str, str, str]]:
    """Every marked number of the math in ``tag``: (class, number, tooltip as shown)."""
    found = MARK.findall("".join(m.get_text() for m in tag.select(".math")))
    return [(css, number, re.sub(r"\\(.)", r"\1", tip)) for css, number, tip in found]


def text_marks(tag: Tag) -> list[tuple[str, str, str]]:
    """Every marked number of the text in ``tag``: (class, number, title)."""
    return [(" ".join(c for c in span["class"] if c != "verified-digit"), span.get_text(),
             str(span["title"]))
            for span in tag.select("span.verified-digit")]


def paragraph(page: BeautifulSoup, starts: str) -> Tag:
    """The first paragraph of a page whose text starts so."""
    found = next(p for p in page.select("p") if p.get_text().startswith(starts))
    assert isinstance(found, Tag)
    return found
