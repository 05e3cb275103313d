"""Shared fixtures: real Sphinx builds of small test roots copied into a temporary folder.

Helpers that tests import (paths, builds, reading HTML) are in ``support.py`` beside this file,
and those of the tests of the installed package (the wheel, fresh environments) in
``fresh_env.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.config import Config

pytest.register_assert_rewrite("support", "fresh_env")

from fresh_env import build_wheel  # noqa: E402
from support import ROOTS, copy_root_to  # noqa: E402


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Give each test's builds Sphinx's own default ``source_suffix``, before any fixture of
    the test (a module's shared build too) is set up.

    Sphinx merges the suffixes that extensions register into the default dict itself (its
    ``merge_source_suffix``), so in one process a project without a ``source_suffix`` of its
    own would inherit an earlier project's: ``.md`` read by MyST-NB's parser in a MyST-Parser
    project, or the reverse. A build run as a command starts from the default every time.
    """
    default = Config.config_values["source_suffix"].default
    default.clear()
    default[".rst"] = "restructuredtext"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where sphinx.testing finds ``test-<name>`` roots."""
    return ROOTS


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension's wheel, built once for every test that installs it as an adopter does."""
    return build_wheel(tmp_path_factory.mktemp("dist"))


@pytest.fixture
def copy_root(tmp_path: Path) -> Callable[[str], Path]:
    """Copy a test root into a fresh folder, so a test may edit its pages and snippets."""
    return lambda name: copy_root_to(name, tmp_path / name)


@pytest.fixture
def build(make_app: Callable[..., object]) -> Callable[..., object]:
    """Build a copied root with sphinx.testing's app; the build is real, nothing is mocked."""

    def run(srcdir: Path, buildername: str = "html", **kwargs: object) -> object:
        app = make_app(buildername, srcdir=srcdir, **kwargs)
        app.build()  # type: ignore[attr-defined]
        return app

    return run
