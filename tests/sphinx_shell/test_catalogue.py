"""The catalogue of bad inputs, at the Sphinx level: one page each, one located error each.

``tests/test_check_build.py`` covers the failure paths of the first catalogue (crash, hang,
nothing printed, bad bytes, paths, transcripts, braces, ragged matrices, shapes, ties). This
module covers the rest, each on its own page of the ``test-catalogue`` root:

- a snippet that prints without end (the root sets ``verified_max_output`` to 64 KiB);
- a snippet that reads standard input, which is empty at build time;
- a snippet that forks a child that outlives it, and one that leaves a daemon behind (a
  double fork into a session of its own, which a kill of the process group does not reach);
- a snippet that writes files into its working folder: allowed, it passes, and the files
  appear neither in the snippet folder nor in the source tree;
- an unknown matrix environment in prose where a printed quantity is named.

Each bad page must fail the build with exactly one message, the one written here, with no
traceback; the rest of the page must still render; a failing snippet must leave no cache entry,
and once it is fixed the next build runs it afresh and passes.

A bad configuration value (one ``verified.config`` message at its line in ``conf.py``, exit 2,
no traceback) is covered by ``test_a_bad_configuration_value_is_one_message_without_traceback``
in ``tests/test_problems.py``; it is not repeated here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from support import Build, copy_root_to, no_traceback, rendered_check, replace_in
from support import build_root as build
from verified_problems.engine import ResultCache

#: The one message each bad page gives, in page order (the build sorts them by file).
CATALOGUE = {
    "daemon": "daemon.md:5: ERROR: snippet daemon.py failed: the snippet left a background "
    "process running; it was killed (wait for every process the snippet starts, with "
    "Popen.wait or Process.join, before it ends) [verified.snippet]",
    "environment": "environment.md:6: ERROR: unknown environment `foo`: the value of X is not "
    "read from it; write it as a bmatrix, pmatrix or another matrix environment "
    "[verified.latex]",
    "flood": "flood.md:5: ERROR: snippet flood.py failed: the snippet printed more than 65536 "
    "bytes and was stopped (print less, or raise verified_max_output in conf.py) "
    "[verified.snippet]",
    "orphan": "orphan.md:5: ERROR: snippet orphan.py failed: the snippet left a background "
    "process running; it was killed (wait for every process the snippet starts, with "
    "Popen.wait or Process.join, before it ends) [verified.snippet]",
    "stdin": "stdin.md:5: ERROR: snippet stdin.py failed at "
    "<root>/scripts/snippets/stdin.py:1: EOFError: EOF when reading a line (the snippet read "
    "standard input, which is empty at build time: write the values into the snippet, or read "
    "them from a data file) [verified.snippet]",
}

#: Pages whose snippet failed: nothing on them was checked.
FAILED_SNIPPETS = {"daemon", "flood", "orphan", "stdin"}

#: How an author puts each bad input right: edits (file in the root, text, replacement).
FIXES: dict[str, list[tuple[str, str, str]]] = {
    "daemon": [  # the daemon ends at once, and each parent waits for its child
        ("scripts/snippets/daemon.py", "        time.sleep(60)\n", ""),
        (
            "scripts/snippets/daemon.py",
            "    os._exit(0)\nos.wait()",
            "    os.wait()\n    os._exit(0)\nos.wait()",
        ),
    ],
    "environment": [
        ("environment.md", r"\begin{foo}", r"\begin{bmatrix}"),
        ("environment.md", r"\end{foo}", r"\end{bmatrix}"),
    ],
    "flood": [("scripts/snippets/flood.py", "while True:", "for _ in range(2):")],
    "orphan": [  # the child ends at once, and the snippet waits for it
        ("scripts/snippets/orphan.py", "    time.sleep(60)\n", ""),
        (
            "scripts/snippets/orphan.py",
            'print("x = 0.5")',
            'os.waitpid(child, 0)\nprint("x = 0.5")',
        ),
    ],
    "stdin": [("scripts/snippets/stdin.py", 'float(input("x? "))', "0.5")],
}


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The catalogue root, built once."""
    return build(copy_root_to("catalogue", tmp_path_factory.mktemp("catalogue") / "catalogue"))


@pytest.fixture
def root(tmp_path: Path) -> Callable[[], Path]:
    """A fresh, editable copy of the catalogue root."""
    return lambda: copy_root_to("catalogue", tmp_path / "catalogue")


def cache_entries(result: Build) -> set[str]:
    """The keys the snippet cache holds after a build."""
    folder = result.srcdir / "_build" / "doctrees" / "snippet-cache"
    return {path.stem for path in folder.glob("*.json")}


def transcript(result: Build, page: str) -> str:
    """What a check shows its snippet printed."""
    shown = result.page(page).select_one("div.verified-check details.verified-transcript pre")
    assert shown is not None
    return shown.get_text()


# -- every bad input: exactly one located error, no traceback ---------------------------------


def test_the_catalogue_fails_with_one_message_per_bad_page(catalogue: Build) -> None:
    assert catalogue.statuscode == 1
    assert catalogue.messages() == list(CATALOGUE.values())
    assert f"{len(CATALOGUE)} errors on {len(CATALOGUE)} pages" in catalogue.summary()
    no_traceback(catalogue)


@pytest.mark.parametrize("page", CATALOGUE)
def test_a_bad_input_is_one_located_error(catalogue: Build, page: str) -> None:
    mine = [m for m in catalogue.messages() if m.startswith(f"{page}.md:")]
    assert mine == [CATALOGUE[page]]
    [finding] = catalogue.reports[page].findings
    assert finding.line == int(CATALOGUE[page].split(":")[1])


@pytest.mark.parametrize("page", CATALOGUE)
def test_the_rest_of_a_bad_page_is_still_rendered(catalogue: Build, page: str) -> None:
    check = rendered_check(catalogue, page)
    assert ("verified-failed" in check["class"]) == (page in FAILED_SNIPPETS)
    verdict = check.select_one("p.verified-verdict")
    assert verdict is not None
    if page in FAILED_SNIPPETS:
        assert verdict.get_text() == (
            "The snippet failed at build time: nothing on this page was verified."
        )
    else:
        assert verdict.get_text() == (
            "Executed at build, but this page does not pass: 1 error in the build log "
            "(4 matched a printed number but not bound to one)."
        )


# -- what each bad input leaves behind ----------------------------------------------------------


def test_a_flood_of_output_is_stopped_and_only_its_beginning_shown(catalogue: Build) -> None:
    shown = transcript(catalogue, "flood")
    assert shown.startswith("x = 0.5\n0123456789")
    assert len(shown) < 4200, "the page shows the beginning, not 64 KiB of digits"
    assert re.search(r"\n… \(\d+ more characters not shown\)\n$", shown)


def test_reading_standard_input_gets_end_of_file(catalogue: Build) -> None:
    assert transcript(catalogue, "stdin") == "x? \n"  # the prompt input() printed


@pytest.mark.parametrize(("page", "name"), [("orphan", "child"), ("daemon", "daemon")])
def test_a_process_left_running_is_killed(catalogue: Build, page: str, name: str) -> None:
    """The snippet printed its leftover's pid; after the build that process is gone."""
    match = re.search(rf"^{name} = (\d+)$", transcript(catalogue, page), re.MULTILINE)
    assert match is not None
    assert not Path("/proc", match[1]).exists()


def test_writing_files_in_the_working_folder_is_allowed(catalogue: Build) -> None:
    assert not [m for m in catalogue.messages() if m.startswith("files.md")]
    assert catalogue.reports["files"].findings == []
    assert transcript(catalogue, "files") == "x = 0.5\n"
    written = {"result.txt", "out", "table.csv"}
    assert not [p for p in catalogue.srcdir.rglob("*") if p.name in written]
    assert not [p for p in (Path.cwd() / name for name in written) if p.exists()]


# -- no stale cache: a failing snippet is never stored, a fixed one runs afresh -----------------


def test_no_cache_entry_for_a_failing_snippet(catalogue: Build) -> None:
    keys = {page: catalogue.reports[page].snippets[0].key for page in [*CATALOGUE, "files"]}
    assert all(keys.values())
    passed = {keys["files"], keys["environment"]}  # environment's snippet itself is fine
    assert cache_entries(catalogue) == passed
    cache = ResultCache(catalogue.srcdir / "_build" / "doctrees" / "snippet-cache")
    for page in FAILED_SNIPPETS:
        assert not cache.entry_path(keys[page]).exists()


@pytest.mark.parametrize("page", CATALOGUE)
def test_a_fixed_input_runs_afresh_and_passes(root: Callable[[], Path], page: str) -> None:
    srcdir = root()
    first = build(srcdir)
    assert CATALOGUE[page] in first.messages()
    again = build(srcdir)  # unchanged: a failing snippet fails again, never from a cache
    assert CATALOGUE[page] in again.messages()
    if page in FAILED_SNIPPETS:
        assert again.reports[page].snippets[0].cached is False

    for name, text, replacement in FIXES[page]:
        replace_in(srcdir / name, text, replacement)
    fixed = build(srcdir)
    assert page in fixed.read
    assert not [m for m in fixed.messages() if m.startswith(f"{page}.md")]
    assert fixed.reports[page].findings == []
    [snippet] = fixed.reports[page].snippets
    assert snippet.failure == ""
    assert snippet.named + snippet.free > 0
    assert snippet.key in cache_entries(fixed)
    if page in FAILED_SNIPPETS:
        assert snippet.cached is False  # run now, not answered from an entry of the failure
    no_traceback(fixed)
