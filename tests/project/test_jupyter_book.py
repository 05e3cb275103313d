"""The extension in Jupyter Book 1, as an adopter gets it: notebook pages check their own outputs.

A fresh environment gets the wheel and ``jupyter-book==1.0.4`` (which brings Sphinx 7.4,
myst-parser 3, MyST-NB 1 and ipykernel) from the package index. A small book has the
``_config.yml`` of the authors' guide (*Jupyter Book 1*), a MyST Markdown notebook and an
``.ipynb``; each quotes what its own cells printed (and glued) and has a ``check-numeric``
without a snippet. The free digits fail until ``verified-bind`` records them; Jupyter Book has
no ``conf.py``, so the tools run on the one ``jupyter-book config sphinx`` writes from the
``_config.yml``. Then the book builds clean, a wrong digit fails at the Markdown file's line
and at the notebook's cell, and ``verified-fix`` puts both files back exactly.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
from fresh_env import Environment, environment, run
from support import PROJECT, replace_in, strip_escape_sequences

pytestmark = pytest.mark.slow

JUPYTER_BOOK = "jupyter-book==1.0.4"

EXECUTION = """title: Demo
author: Someone
execute:
  execute_notebooks: cache
"""
TOC = """format: jb-book
root: intro
chapters:
  - file: sigmoid
  - file: softmax
"""
INTRO = "# Demo\n\nTwo notebook pages check the numbers their own cells printed.\n"
MYST_NOTEBOOK = """---
file_format: mystnb
kernelspec:
  name: python3
  display_name: Python 3
---

# Sigmoid

```{code-cell} python
import math

from myst_nb import glue

z = [-1.0, 1.0]
p = [1 / (1 + math.exp(-v)) for v in z]
print("p =", p)
glue("s", 1 / (1 + math.exp(-0.5)), display=False)
```

The sigmoid gives $p_1 = 0.2689$ and $p_2 = 0.7311$; at 0.5 it is $s = 0.6225$.

:::{check-numeric}
:::
"""
SOFTMAX = """import math

z = [1.0, 2.0]
total = sum(math.exp(v) for v in z)
p = [math.exp(v) / total for v in z]
print("p =", p)"""
PROSE = ("The softmax of $(1, 2)$ is\n$\\vec{p} = (0.2689,\\; 0.7311)$, and its larger weight "
         "is 0.7311.")


def guide_config() -> str:
    """The ``_config.yml`` lines of the authors' guide, as an adopter copies them."""
    guide = (PROJECT / "book" / "authors" / "adopting.md").read_text(encoding="utf-8")
    section = guide.split("## Jupyter Book 1", 1)[1]
    found = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert found is not None
    return found.group(1)


def write_book(root: Path) -> None:
    """The guide's configuration, a table of contents, an intro, and two notebook pages."""
    root.mkdir()
    (root / "_config.yml").write_text(EXECUTION + guide_config(), encoding="utf-8")
    (root / "_toc.yml").write_text(TOC, encoding="utf-8")
    (root / "intro.md").write_text(INTRO, encoding="utf-8")
    (root / "sigmoid.md").write_text(MYST_NOTEBOOK, encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    notebook.cells = [nbformat.v4.new_markdown_cell("# Softmax"),
                      nbformat.v4.new_code_cell(SOFTMAX),
                      nbformat.v4.new_markdown_cell(PROSE),
                      nbformat.v4.new_markdown_cell(":::{check-numeric}\n:::")]
    nbformat.write(notebook, root / "softmax.ipynb")


@pytest.fixture(scope="module")
def jupyter_book(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Environment:
    """One environment for the module: the wheel and Jupyter Book 1, nothing else."""
    return environment(tmp_path_factory.mktemp("jupyter-book") / "venv", wheel, JUPYTER_BOOK)


def build(env: Environment, root: Path) -> subprocess.CompletedProcess[str]:
    """``jupyter-book build -W --keep-going``: every warning an error, all of them said."""
    done = run([env.bin("jupyter-book"), "build", root, "-W", "--keep-going"], root)
    done.stdout, done.stderr = (strip_escape_sequences(done.stdout),
                                strip_escape_sequences(done.stderr))
    return done


def test_notebook_pages_of_a_jupyter_book_check_their_own_outputs(
    jupyter_book: Environment, tmp_path: Path
) -> None:
    versions = jupyter_book.versions()
    assert versions["sphinx"].startswith("7.4.")
    assert versions["myst-parser"].startswith("3.")
    assert versions["myst-nb"].startswith("1.")
    root = tmp_path / "book"
    write_book(root)
    page, notebook = root.resolve() / "sigmoid.md", root.resolve() / "softmax.ipynb"
    original = notebook.read_text(encoding="utf-8")

    unbound = build(jupyter_book, root)
    assert unbound.returncode != 0
    assert (f"{notebook}:cell 3, line 2: ERROR: 0.7311: bound to no printed quantity; run make "
            "bind to record the one it quotes (p[2])") in unbound.stderr
    assert "Traceback" not in unbound.stdout + unbound.stderr
    configured = run([jupyter_book.bin("jupyter-book"), "config", "sphinx", root], root)
    assert configured.returncode == 0, configured.stdout + configured.stderr
    bound = run([jupyter_book.bin("verified-bind"), ".", "--no-ask"], root)
    assert bound.returncode == 0, bound.stdout + bound.stderr
    assert "2 free digits bound, 2 records changed, 0 left for a person" in bound.stdout
    record = json.loads((root / "_bindings" / "softmax.json").read_text(encoding="utf-8"))
    assert [b["bound"] for b in record["bindings"]] == ["p[2]"]

    clean = build(jupyter_book, root)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "verified: 2 checked pages, 7 numbers" in clean.stdout

    replace_in(page, "$p_2 = 0.7311$", "$p_2 = 0.7312$")
    replace_in(page, "$s = 0.6225$", "$s = 0.6226$")
    replace_in(notebook, "(0.2689,", "(0.2698,")
    failed = build(jupyter_book, root)
    assert failed.returncode != 0
    for location in (f"{page}:21: ERROR: p[2]: prose 0.7312, printed 0.7311 (Sigmoid)",
                     f"{page}:21: ERROR: s: prose 0.6226, printed 0.6225 (Sigmoid)",
                     f"{notebook}:cell 3, line 2: ERROR: p[1]: prose 0.2698, printed 0.2689 "
                     "(Softmax)"):
        assert location in failed.stderr, failed.stderr
    fixed = run([jupyter_book.bin("verified-fix"), "."], root)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert page.read_text(encoding="utf-8") == MYST_NOTEBOOK
    assert notebook.read_text(encoding="utf-8") == original
