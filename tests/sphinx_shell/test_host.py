"""What a project that adopts the extension must give it, and what it is told when it does not.

Each case is a small project built with the real ``sphinx-build``: MyST without its
``colon_fence``, a book macro missing from the configuration, and a no-op rebuild that must not
find the configuration changed by the extension itself.
"""

from __future__ import annotations

from pathlib import Path

from support import sphinx_build

PAGE = """# Softmax

The softmax of $(1, 2)$ is $\\mat{p} = (0.2689,\\; 0.7311)$.

:::{check-numeric} softmax.py
:::
"""
SNIPPET = 'print("p = [0.26894142 0.73105858]")\n'


def project(root: Path, conf: str, page: str = PAGE, name: str = "index.md") -> Path:
    (root / "snippets").mkdir(parents=True)
    (root / "snippets" / "softmax.py").write_text(SNIPPET, encoding="utf-8")
    (root / name).write_text(page, encoding="utf-8")
    (root / "conf.py").write_text(
        f'verified_snippet_dir = "snippets"\nexclude_patterns = ["_build"]\n{conf}\n',
        encoding="utf-8")
    return root


#: Free digits checked against every printed number: these projects are about their hosts,
#: bindings are tested by tests/tools/test_bind.py.
MYST = 'extensions = ["myst_parser", "verified_problems"]\nverified_unbound = "allow"\n'
MACROS = 'verified_macros = {"mat": [r"\\mathbf{#1}", 1]}\n'


def errors(done: object) -> list[str]:
    stderr: str = done.stderr  # type: ignore[attr-defined]
    return [line for line in stderr.splitlines() if "ERROR" in line or "WARNING" in line]


def test_a_check_left_as_text_without_colon_fence_is_a_located_error(tmp_path: Path) -> None:
    # The page used to build and say "verified: 0 checked pages".
    root = project(tmp_path / "demo", MYST + 'myst_enable_extensions = ["dollarmath"]\n' + MACROS)
    done = sphinx_build(root)
    assert done.returncode == 1
    assert errors(done) == [
        f"{root}/index.md:5: ERROR: `:::{{check-numeric}}` is read as text here, so nothing on"
        " this page is checked: MyST reads ::: fences only with its colon_fence extension; add"
        ' "colon_fence" to myst_enable_extensions in conf.py, or open the directive with'
        " backticks (```{check-numeric}) [verified.host]"
    ]


def test_with_colon_fence_the_same_page_builds_clean(tmp_path: Path) -> None:
    root = project(tmp_path / "demo",
                   MYST + 'myst_enable_extensions = ["dollarmath", "colon_fence"]\n' + MACROS)
    done = sphinx_build(root, "-W")
    assert done.returncode == 0, done.stderr
    assert "verified: 1 checked pages" in done.stdout


def test_a_macro_neither_mathjax_nor_the_project_defines_is_a_located_warning(
    tmp_path: Path,
) -> None:
    conf = MYST + 'myst_enable_extensions = ["dollarmath", "colon_fence"]\n'
    root = project(tmp_path / "demo", conf)
    done = sphinx_build(root)
    assert errors(done) == [
        f"{root}/index.md:3: WARNING: `\\mat` is a macro neither MathJax nor this project"
        " defines: the page shows it in red; define it in verified_macros in conf.py (MathJax,"
        " the LaTeX preamble and the checker then all read it) [verified.macro]"
    ]
    assert done.returncode == 0  # a warning: -W makes it fatal
    assert sphinx_build(root, "-E", "-W").returncode != 0


def test_macros_mathjax_knows_or_the_page_defines_are_no_warning(tmp_path: Path) -> None:
    page = PAGE.replace(
        "$\\mat{p} = (0.2689,\\; 0.7311)$",
        "$\\boldsymbol{p} = \\left(0.2689,\\; 0.7311\\right)$, $\\lVert p \\rVert_\\infty$,"
        " $\\newcommand{\\half}{\\frac12}\\half$ and $\\cancel{x} \\operatorname{KL}$")
    conf = (MYST + 'myst_enable_extensions = ["dollarmath", "colon_fence"]\n'
            "mathjax3_config = {'tex': {'macros': {'RR': r'\\mathbb{R}'}}}\n")
    root = project(tmp_path / "demo", conf, page.replace("KL}$", "KL} \\RR$"))
    done = sphinx_build(root, "-W")
    assert done.returncode == 0, done.stderr


def test_a_no_op_rebuild_finds_no_configuration_changed_by_the_extension(
    tmp_path: Path,
) -> None:
    page = ("Softmax\n=======\n\nThe first weight is :math:`p_1 = 0.2689`.\n\n"
            ".. check-numeric:: softmax.py\n")
    root = project(tmp_path / "demo", 'extensions = ["verified_problems"]\n', page, "index.rst")
    assert sphinx_build(root, "-W").returncode == 0
    again = sphinx_build(root, "-W")
    assert again.returncode == 0, again.stderr
    assert "configuration has changed" not in again.stdout  # html_static_path, every build
    assert (root / "_build" / "html" / "_static" / "verified.css").is_file()
