"""The extension as an adopter installs it: the wheel a release builds, in a fresh environment.

The package tests (plain Sphinx, Jupyter Book) share these: ``run`` a real command,
:func:`build_wheel`, and :func:`environment`, a new virtual environment with the wheel and what
an adopter adds, installed from the package index.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from support import PROJECT

#: Seconds one command (an install, a build) may take.
TIMEOUT = 600


def run(command: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a command to its end and keep what it printed (the caller asserts on it)."""
    return subprocess.run([str(part) for part in command], cwd=cwd, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


def build_wheel(out: Path) -> Path:
    """The sdist and the wheel, built into ``out`` as a release would build them."""
    done = run([sys.executable, "-m", "build", "--outdir", out, PROJECT], PROJECT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(list(out.glob("*.tar.gz"))) == 1
    [built] = out.glob("*.whl")
    return built


@dataclass
class Environment:
    """A fresh virtual environment with the wheel installed."""

    folder: Path

    def bin(self, name: str) -> Path:
        return self.folder / "bin" / name

    def pip(self, *requirements: str | Path) -> None:
        done = run([self.bin("python"), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", *requirements], self.folder)
        assert done.returncode == 0, done.stdout + done.stderr

    def installed(self) -> set[str]:
        return set(self.versions())

    def versions(self) -> dict[str, str]:
        """Each installed distribution's version, by its lower-case name."""
        done = run([self.bin("python"), "-m", "pip", "list", "--format=freeze",
                    "--disable-pip-version-check"], self.folder)
        pairs = (line.partition("==") for line in done.stdout.splitlines())
        return {name.lower(): version for name, _, version in pairs}


def environment(folder: Path, wheel: Path, *requirements: str) -> Environment:
    """A new virtual environment at ``folder`` with the wheel and ``requirements``."""
    done = run([sys.executable, "-m", "venv", folder], folder.parent)
    assert done.returncode == 0, done.stderr
    env = Environment(folder)
    env.pip(wheel, *requirements)
    return env
