"""ruff and mypy, configured in pyproject.toml, are clean: run for real, as a developer would."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from support import PROJECT


def _tool(name: str) -> str:
    path = shutil.which(name, path=str(PROJECT / ".venv" / "bin")) or shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (make test installs it)")
    return path


def test_ruff_is_clean() -> None:
    done = subprocess.run([_tool("ruff"), "check", "sphinx_ext", "tests", "scripts"],
                          cwd=PROJECT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=PROJECT, capture_output=True,
                          text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
