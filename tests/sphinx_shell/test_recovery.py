"""A build after an interrupted one gives what a clean build gives, search index included."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from support import sphinx_build
from verified_problems.sphinx_shell.recovery import marker_path


@pytest.mark.parametrize("damage", ["cut short", "missing"])
def test_a_damaged_search_index_is_rebuilt_whole(
    copy_root: Callable[[str], Path], tmp_path: Path, damage: str
) -> None:
    srcdir = copy_root("plain")
    clean = sphinx_build(srcdir)
    assert clean.returncode == 0, clean.stderr
    index = srcdir / "_build" / "html" / "searchindex.js"
    expected = index.read_bytes()
    shutil.copytree(srcdir / "_build" / "html", tmp_path / "clean-html")
    if damage == "cut short":  # as a build killed while writing it leaves it
        index.write_bytes(expected[: len(expected) // 3])
    else:
        index.unlink()
    again = sphinx_build(srcdir)
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stdout + again.stderr
    assert "reading every page again" in again.stdout
    assert index.read_bytes() == expected
    assert (srcdir / "_build" / "html" / "index.html").read_bytes() == (
        tmp_path / "clean-html" / "index.html"
    ).read_bytes()


def test_a_page_cut_short_by_an_interrupted_build_is_written_again(
    copy_root: Callable[[str], Path],
) -> None:
    srcdir = copy_root("plain")
    assert sphinx_build(srcdir).returncode == 0
    out = srcdir / "_build" / "html"
    marker = marker_path(srcdir / "_build" / "doctrees", out)
    assert not marker.exists() and not list(out.glob(".verified*"))
    page = out / "index.html"
    whole = page.read_bytes()
    # What a build killed while writing this page leaves: the page cut short, the marker there.
    page.write_bytes(whole[: len(whole) // 2])
    marker.parent.mkdir(exist_ok=True)
    marker.touch()
    again = sphinx_build(srcdir)
    assert again.returncode == 0, again.stderr
    assert "the last build did not finish; reading every page again" in again.stdout
    assert page.read_bytes() == whole
    assert not marker.exists()
