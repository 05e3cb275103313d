"""Pages checked beside the writer: the build is the one an inline check gives, in every respect.

Each build here is a real ``sphinx-build`` process; ``verified_background_checks`` is 1 (every
build of an HTML builder checks its pages in the forked helper) or 0 (inline, as ``-j`` and the
other builders always do). ``SOURCE_DATE_EPOCH`` leaves out what differs from run to run.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import replace_in
from verified_problems.sphinx_shell.background import LATE_REPORTS
from verified_problems.sphinx_shell.records import pages

#: What the build says when it checks pages in the helper.
IN_BACKGROUND = "checking the pages in a second process"
ROOTS = ["styles", "derivations", "trap", "failures", "provenance", "injection", "scope",
         "code"]


def _build(srcdir: Path, out: Path, background: int, *extra: str,
           doctrees: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "sphinx", "-b", "html",
               "-d", str(doctrees or out / "doctrees"),
               "-D", f"verified_background_checks={background}", *extra,
               str(srcdir), str(out / "html")]
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}
    return subprocess.run(command, capture_output=True, text=True, timeout=300, check=False,
                          env=env)


def _pages(html: Path) -> dict[str, bytes]:
    """Every page and report the build wrote, by its path in the output folder."""
    return {path.relative_to(html).as_posix(): path.read_bytes()
            for pattern in ("**/*.html", "verification.json", "verification.xml")
            for path in html.glob(pattern)}


def _log(run: subprocess.CompletedProcess[str]) -> list[str]:
    """What the build said of the book: its warnings and errors, and its verdict (without
    the snippets it ran, which a no-op build does not run again)."""
    verdicts = [line.split("; snippets:")[0] for line in run.stdout.splitlines()
                if line.startswith("verified: ") and " checked pages, " in line]
    return [*run.stderr.splitlines(), *verdicts]


def _both(srcdir: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], ...]:
    """The book built inline and in the background (into ``inline/`` and ``background/``),
    each as it should have gone."""
    inline = _build(srcdir, tmp_path / "inline", 0)
    background = _build(srcdir, tmp_path / "background", 1)
    assert IN_BACKGROUND not in inline.stdout
    assert IN_BACKGROUND in background.stdout
    assert "Traceback" not in background.stdout + background.stderr
    assert background.returncode == inline.returncode
    return inline, background


def _extend_conf(srcdir: Path, text: str) -> None:
    """Add to the root's ``conf.py`` (a ``setup`` of its own, as a project's extension)."""
    conf = srcdir / "conf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize("root", ROOTS)
def test_a_book_checked_beside_the_writer_is_the_book_checked_inline(
    copy_root: Callable[[str], Path], tmp_path: Path, root: str
) -> None:
    inline, background = _both(copy_root(root), tmp_path)
    assert _log(background) == _log(inline)
    written = _pages(tmp_path / "background" / "html")
    assert written and written == _pages(tmp_path / "inline" / "html")


def test_a_page_written_again_from_its_doctree_is_the_checked_page(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """A page written without being read again (here: its HTML file went) comes from the
    doctree file, which must be the checked doctree, not the one Sphinx kept while reading."""
    srcdir = copy_root("trap")
    first = _build(srcdir, tmp_path / "out", 1)
    assert IN_BACKGROUND in first.stdout
    page = tmp_path / "out" / "html" / "index.html"
    written = page.read_bytes()
    page.unlink()
    again = _build(srcdir, tmp_path / "out", 1)
    assert "reading sources... [" not in again.stdout
    assert again.returncode == first.returncode == 0
    assert page.read_bytes() == written


def test_a_no_op_build_after_one_checked_beside_the_writer_keeps_every_report(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    srcdir = copy_root("trap")
    replace_in(srcdir / "index.md", "= 0.7517", "= 0.7518")
    first = _build(srcdir, tmp_path / "out", 1)
    noop = _build(srcdir, tmp_path / "out", 1)
    assert IN_BACKGROUND in first.stdout
    assert IN_BACKGROUND not in noop.stdout  # nothing read, nothing to check
    assert noop.returncode == first.returncode == 1
    assert _log(noop) == _log(first)


def test_a_page_whose_check_never_came_back_is_read_again(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """A build interrupted while it wrote (Ctrl-C: Sphinx keeps the environment it pickled
    after reading, and no ``build-finished`` comes) leaves reports unchecked; the next build
    that shares the environment (here ``make check``'s builder, which re-reads nothing for a
    missing search index or an unfinished output folder) reads those pages again."""
    srcdir = copy_root("trap")
    replace_in(srcdir / "index.md", "= 0.7517", "= 0.7518")
    _extend_conf(srcdir, (
        "\nimport os\n\n\ndef setup(app):\n"
        "    def stop(app, doctree, docname):\n"
        "        if os.path.exists(os.path.join(app.srcdir, 'stop')):\n"
        "            raise KeyboardInterrupt\n"
        "    app.connect('doctree-resolved', stop)\n"))
    clean = _build(srcdir, tmp_path / "clean", 1)
    (srcdir / "stop").touch()
    stopped = _build(srcdir, tmp_path / "stopped", 1)
    assert stopped.returncode == 2 and "Interrupted" in stopped.stdout + stopped.stderr
    (srcdir / "stop").unlink()
    after = _build(srcdir, tmp_path / "check", 1, "-b", "verify",
                   doctrees=tmp_path / "stopped" / "doctrees")
    assert "reading sources... [100%] index" in after.stdout
    assert after.returncode == clean.returncode == 1
    assert _log(after) == _log(clean)


def test_what_another_extension_does_to_a_page_after_it_is_read_is_kept(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """The helper is handed the page as the last ``doctree-read`` handler left it (as
    sphinxcontrib-programoutput, which replaces its nodes then), not as the collector saw it."""
    srcdir = copy_root("trap")
    _extend_conf(srcdir, (
        "\nfrom docutils import nodes\n\n\ndef setup(app):\n"
        "    def add(app, doctree):\n"
        "        doctree.children[-1] += nodes.paragraph('', 'Added by another extension.')\n"
        "    app.connect('doctree-read', add, priority=700)\n"))
    _both(srcdir, tmp_path)
    written = _pages(tmp_path / "background" / "html")
    assert "Added by another extension." in written["index.html"].decode("utf-8")
    assert written == _pages(tmp_path / "inline" / "html")


def test_a_page_asked_for_again_in_the_same_build_is_the_checked_page(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """Sphinx keeps in memory every doctree file it read (with ``numfig``, every page's, once
    reading ends: the unchecked one then); asked for a page again once it was written (here by
    another extension at the end of the build), it must give the checked one."""
    srcdir = copy_root("trap")
    _extend_conf(srcdir, (
        "\nnumfig = True\n"
        "\nfrom pathlib import Path\n\n\ndef setup(app):\n"
        "    def look(app, exception):\n"
        "        tree = app.env.get_doctree('index')\n"
        "        verdicts = [n.get('verdict', '') for n in tree.findall()"
        " if n.tagname == 'numeric_check']\n"
        "        (Path(app.outdir) / 'verdicts.txt').write_text(repr(verdicts))\n"
        "    app.connect('build-finished', look, priority=100)\n"))
    _both(srcdir, tmp_path)
    seen = (tmp_path / "background" / "html" / "verdicts.txt").read_text(encoding="utf-8")
    assert "Executed at build" in seen or "verified" in seen.lower(), seen
    assert seen == (tmp_path / "inline" / "html" / "verdicts.txt").read_text(encoding="utf-8")


def test_the_environment_kept_is_the_one_an_inline_check_keeps(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """The reports go beside the environment Sphinx pickled after reading, not into the one
    writing left (with a cached master doctree and titles hung into trees): a no-op build
    loads the pickle and takes the reports kept beside it, stamped with that reading."""
    _both(copy_root("styles"), tmp_path)
    doctrees = {run: tmp_path / run / "doctrees" for run in ("inline", "background")}
    kept = {run: pickle.loads((folder / "environment.pickle").read_bytes())
            for run, folder in doctrees.items()}
    assert vars(kept["background"]).keys() == vars(kept["inline"]).keys()
    assert all(title.parent is None for title in kept["background"].titles.values())
    assert not (doctrees["inline"] / LATE_REPORTS).exists()
    late = pickle.loads((doctrees["background"] / LATE_REPORTS).read_bytes())
    assert late["stamp"] == kept["background"].verified_reading
    reports = {**pages(kept["background"]), **late["reports"]}
    assert reports.keys() == pages(kept["inline"]).keys()
    assert all(report.checked and report.number_count == pages(kept["inline"])[d].number_count
               for d, report in reports.items())


def test_reports_kept_beside_an_environment_read_again_since_are_stale(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """A page corrected and read again inline (one page: too few for the helper) has the
    environment pickled anew; the reports the helper left beside the older pickle no longer
    belong to it, and the next build keeps the page's new report, not its old error."""
    srcdir = copy_root("trap")
    replace_in(srcdir / "index.md", "= 0.7517", "= 0.7518")
    out = tmp_path / "out"
    first = _build(srcdir, out, 1)
    replace_in(srcdir / "index.md", "= 0.7518", "= 0.7517")
    corrected = _build(srcdir, out, 100)
    noop = _build(srcdir, out, 100)
    assert first.returncode == 1
    assert IN_BACKGROUND not in corrected.stdout
    assert corrected.returncode == noop.returncode == 0
    assert _log(noop) == _log(corrected)


def test_the_helper_has_each_script_lexed_for_the_writer(
    copy_root: Callable[[str], Path], tmp_path: Path
) -> None:
    """The helper leaves each check its script's tokens (the writer then need not lex it);
    an inline check leaves the lexing to the writer. The pages are the same either way."""
    _both(copy_root("code"), tmp_path)

    def tokens(run: str) -> list[object]:
        doctree = pickle.loads((tmp_path / run / "doctrees" / "index.doctree").read_bytes())
        return [node.get("script_tokens") for node in doctree.findall()
                if node.tagname == "numeric_check"]

    assert len(tokens("background")) == 5 and all(tokens("background"))
    assert not any(tokens("inline"))


def _small_book(srcdir: Path, pages: dict[str, tuple[str, float]]) -> Path:
    """A book of pages, each ``NAME: (MARKDOWN, PAUSE)``: the page's Markdown above its check
    of ``NAME.py``, a snippet that sleeps PAUSE seconds and prints ``x = 0.25``."""
    (srcdir / "snippets").mkdir(parents=True)
    (srcdir / "conf.py").write_text(
        'extensions = ["myst_parser", "verified_problems"]\n'
        'myst_enable_extensions = ["dollarmath", "colon_fence"]\n'
        'verified_snippet_dir = "snippets"\nverified_unbound = "allow"\n', encoding="utf-8")
    toctree = "\n".join(pages)
    (srcdir / "index.md").write_text(f"# Book\n\n```{{toctree}}\n{toctree}\n```\n",
                                     encoding="utf-8")
    for name, (text, pause) in pages.items():
        (srcdir / "snippets" / f"{name}.py").write_text(
            f"import time\ntime.sleep({pause})\nprint('x =', 0.25)\n", encoding="utf-8")
        (srcdir / f"{name}.md").write_text(
            f"# {name}\n\n{text}\n\n:::{{check-numeric}} {name}.py\n:::\n", encoding="utf-8")
    return srcdir


def test_pages_wait_for_the_helper_while_snippets_run(tmp_path: Path) -> None:
    """While snippets run they have the core reading leaves: a page read meanwhile is handed
    to the helper only once they are done (here: when the slow snippet of the last page is)."""
    srcdir = _small_book(tmp_path / "book", {"fast": ("$x = 0.25$", 0),
                                             "slow": ("$x = 0.25$", 1.5)})
    run = _build(srcdir, tmp_path / "out", 1)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    handed = next(i for i, line in enumerate(lines) if IN_BACKGROUND in line)
    slow_read = next(i for i, line in enumerate(lines) if line.endswith("] slow"))
    assert handed > slow_read


def test_the_helper_checks_the_page_after_its_last_transform(tmp_path: Path) -> None:
    """Two sections titled alike leave docutils' note of a duplicate target in the doctree,
    which Sphinx's last transform filters out once every ``doctree-read`` handler is done:
    the page the helper checks is the filtered one, as an inline check's page is."""
    text = "## Step\n\n$x = 0.25$\n\n## Step\n\nAgain, $x = 0.25$."
    srcdir = _small_book(tmp_path / "book", {"twice": (text, 0)})
    inline, _background = _both(srcdir, tmp_path)
    assert inline.returncode == 0
    page = (tmp_path / "background" / "html" / "twice.html").read_text(encoding="utf-8")
    assert "Duplicate implicit target" not in page
    assert _pages(tmp_path / "background" / "html") == _pages(tmp_path / "inline" / "html")
