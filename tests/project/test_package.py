"""The extension as an adopter gets it: a wheel, a fresh environment, the README's quick start.

The wheel is built with ``python -m build`` and installed into new virtual environments with
nothing else but myst-parser: the newest Sphinx here, and the oldest one the extension
supports. A ``sphinx-quickstart`` project (alabaster) gets the README's configuration, one MyST
and one reST page with a check; a correct page passes, a wrong digit fails at its line,
``verified-fix`` repairs it, epub and LaTeX build clean. Below the oldest Sphinx, the build
stops with one message. Everything is installed from the package index, as a user would.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from fresh_env import Environment, environment, run
from support import PROJECT

pytestmark = pytest.mark.slow

OLDEST = ("sphinx==7.4.7", "myst-parser==3.0.1")
BELOW = "sphinx==7.3.7"

SNIPPET = """import math

z = [1.0, 2.0]
total = sum(math.exp(v) for v in z)
p = [math.exp(v) / total for v in z]
print("p =", p)
"""
MYST_PAGE = """# Softmax

:::{problem} I.1.A01
:kind: numeric
:difficulty: 1
:::

The softmax of $(1, 2)$ is $\\vec{p} = (0.2689,\\; 0.7311)$.

:::{check-numeric} softmax.py
:::
"""
REST_PAGE = """Softmax in reST
===============

The first weight is :math:`p_1 = 0.2689`, and the second one is 0.7311.

.. check-numeric:: softmax.py
"""


def quick_start() -> str:
    """The conf.py lines of the README's quick start, as an adopter copies them."""
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Using the extension in your own Sphinx project", 1)[1]
    found = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert found is not None
    return found.group(1)


def quickstart_project(env: Environment, root: Path) -> Path:
    """``sphinx-quickstart``, then the README's configuration and two checked pages."""
    done = run([env.bin("sphinx-quickstart"), "-q", "-p", "Demo", "-a", "Someone", "-v", "0.1",
                "-r", "0.1", "--no-sep", "--no-makefile", "--no-batchfile", root], root.parent)
    assert done.returncode == 0, done.stdout + done.stderr
    with (root / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("\n" + quick_start())
    (root / "snippets").mkdir()
    (root / "snippets" / "softmax.py").write_text(SNIPPET, encoding="utf-8")
    (root / "softmax.md").write_text(MYST_PAGE, encoding="utf-8")
    (root / "rest.rst").write_text(REST_PAGE, encoding="utf-8")
    index = root / "index.rst"
    index.write_text(index.read_text(encoding="utf-8").replace(
        ":caption: Contents:\n", ":caption: Contents:\n\n   softmax\n   rest\n"), encoding="utf-8")
    unbound = build(env, root)  # the free digits are not bound yet: the README's next step
    assert unbound.returncode != 0 and "run make bind" in unbound.stderr
    bound = run([env.bin("verified-bind"), ".", "--no-ask"], root)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    return root


def build(env: Environment, root: Path, builder: str = "html") -> subprocess.CompletedProcess[str]:
    """``sphinx-build -M``, as the quickstart's Makefile runs it (doctrees in _build/doctrees)."""
    return run([env.bin("sphinx-build"), "-M", builder, root, root / "_build", "-W"], root)


def test_the_wheel_brings_only_what_the_code_imports(wheel: Path, tmp_path: Path) -> None:
    env = environment(tmp_path / "venv", wheel)
    installed = env.installed()
    assert {"verified-problems", "sphinx", "docutils", "pylatexenc", "pygments"} <= installed
    book_stack = {"sphinx-book-theme", "pydata-sphinx-theme", "sphinx-proof", "sphinx-design",
                  "sphinx-mathjax-offline", "myst-parser", "numpy"}
    assert installed & book_stack == set()


def test_a_quickstart_project_with_the_readme_configuration(wheel: Path, tmp_path: Path) -> None:
    env = environment(tmp_path / "venv", wheel, "myst-parser")
    root = quickstart_project(env, tmp_path / "demo")
    done = build(env, root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified: 2 checked pages" in done.stdout

    page = root / "softmax.md"
    page.write_text(MYST_PAGE.replace("0.7311)", "0.7312)"), encoding="utf-8")
    failed = build(env, root)
    assert failed.returncode != 0
    assert (f"{page}:8: ERROR: p[2]: prose 0.7312, printed 0.7311 (Softmax)"
            " [verified.divergence]") in failed.stderr
    fixed = run([env.bin("verified-fix"), "."], root)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert page.read_text(encoding="utf-8") == MYST_PAGE
    assert build(env, root).returncode == 0

    rest = root / "rest.rst"
    rest.write_text(REST_PAGE.replace("p_1 = 0.2689", "p_1 = 0.2698"), encoding="utf-8")
    failed = build(env, root)
    assert f"{rest}:4: ERROR: p[1]: prose 0.2698, printed 0.2689" in failed.stderr
    rest.write_text(REST_PAGE, encoding="utf-8")

    for builder in ("epub", "latex"):
        other = build(env, root, builder)
        assert other.returncode == 0, other.stdout + other.stderr
    [tex] = (root / "_build" / "latex").glob("*.tex")
    assert "\\DeclareUnicodeCharacter{25B2}" in tex.read_text(encoding="utf-8")


def test_the_oldest_supported_sphinx_builds_it_and_an_older_one_is_told(
    wheel: Path, tmp_path: Path
) -> None:
    env = environment(tmp_path / "venv", wheel, *OLDEST)
    root = quickstart_project(env, tmp_path / "demo")
    done = build(env, root)
    assert done.returncode == 0, done.stdout + done.stderr
    page = root / "softmax.md"
    page.write_text(MYST_PAGE.replace("0.7311)", "0.7312)"), encoding="utf-8")
    failed = build(env, root)
    assert failed.returncode != 0
    assert "p[2]: prose 0.7312, printed 0.7311" in failed.stderr
    assert "Traceback" not in failed.stdout + failed.stderr

    env.pip(BELOW)
    older = build(env, root)
    assert older.returncode != 0
    assert "needs at least Sphinx v7.4" in older.stderr
    assert "Traceback" not in older.stdout + older.stderr
