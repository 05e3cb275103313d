"""Shared fixtures: real Sphinx builds of small test roots copied into a temporary folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

# Sphinx colours its output when CI=true (as CI sets it); the tests read messages as text.
os.environ["NO_COLOR"] = "1"

ROOTS = Path(__file__).parent / "roots"
PROJECT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where sphinx.testing finds ``test-<name>`` roots."""
    return ROOTS


@pytest.fixture
def copy_root(tmp_path: Path) -> Callable[[str], Path]:
    """Copy a test root into a fresh folder, so a test may edit its pages and snippets."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(ROOTS / f"test-{name}", target)
        return target

    return copy


@pytest.fixture
def build(make_app: Callable[..., object]) -> Callable[..., object]:
    """Build a copied root with sphinx.testing's app; the build is real, nothing is mocked."""

    def run(srcdir: Path, buildername: str = "html", **kwargs: object) -> object:
        app = make_app(buildername, srcdir=srcdir, **kwargs)
        app.build()  # type: ignore[attr-defined]
        return app

    return run


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
