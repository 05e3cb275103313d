"""Fixtures of the engine's tests: a snippet folder, a way to write snippets, a runner."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from verified_problems.engine import Runner

Write = Callable[[str, str], Path]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A snippet folder of its own, apart from the files the tests use to observe snippets."""
    path = tmp_path / "snippets"
    path.mkdir()
    return path


@pytest.fixture
def write(folder: Path) -> Write:
    """Write a snippet (or a local module, or a data file) into the snippet folder."""

    def write(name: str, code: str) -> Path:
        path = folder / name
        path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
        return path

    return write


@pytest.fixture
def runner() -> Iterator[Runner]:
    """A runner without cache, so every request really runs."""
    with Runner(None, jobs=2) as runner:
        yield runner
