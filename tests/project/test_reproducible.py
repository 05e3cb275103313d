"""Reproducible builds of the real book: same inputs, same bytes; -j and a killed build included.

Every build here is the real ``sphinx-build`` command in a subprocess, on a copy of ``book/``,
``conf/`` and ``scripts/snippets/``, with ``SOURCE_DATE_EPOCH`` fixed and the hash seed left
random (as on a CI machine). Every ``.html`` file is compared byte for byte; a difference is
reported with the file and the first lines that differ.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from support import PROJECT, ROOTS

EPOCH = "1767225600"  # 2026-01-01: Sphinx puts its year into the copyright line
pytestmark = pytest.mark.slow


def copy_book(root: Path) -> Path:
    """A copy of the book, its configuration and its snippets at ``root``."""
    root.mkdir(parents=True)
    shutil.copytree(PROJECT / "book", root / "book")
    shutil.copytree(PROJECT / "conf", root / "conf")
    shutil.copytree(PROJECT / "scripts" / "snippets", root / "scripts" / "snippets")
    return root


def command(root: Path, *extra: str) -> list[str]:
    """``sphinx-build -c conf -d _build/doctrees -b html book _build/html``, as ``make html``.

    A copied test root (``conf.py`` beside its pages) is built the same way from itself.
    """
    source, conf = ("book", "conf") if (root / "book").is_dir() else (".", ".")
    return [sys.executable, "-m", "sphinx", "-c", str(root / conf),
            "-d", str(root / "_build" / "doctrees"), "-b", "html", *extra,
            str(root / source), str(root / "_build" / "html")]


def environment() -> dict[str, str]:
    """The build's environment: a fixed SOURCE_DATE_EPOCH, unbuffered output."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    env["SOURCE_DATE_EPOCH"] = EPOCH
    env["PYTHONUNBUFFERED"] = "1"
    return env


def build(root: Path, *extra: str, status: int = 0) -> subprocess.CompletedProcess[str]:
    """One build of the copy at ``root``; it must exit with ``status``."""
    done = subprocess.run(command(root, *extra), capture_output=True, text=True, timeout=300,
                          env=environment(), check=False)
    assert done.returncode == status, done.stdout[-3000:] + done.stderr[-3000:]
    return done


def clean_build(root: Path, keep: Path, *extra: str, status: int = 0) -> Path:
    """Build ``root`` from nothing (no doctrees, no snippet cache) and move the HTML to ``keep``.

    The build's output is kept beside it, in ``keep.log``.
    """
    shutil.rmtree(root / "_build", ignore_errors=True)
    done = build(root, *extra, status=status)
    shutil.move(root / "_build" / "html", keep)
    keep.with_suffix(".log").write_text(done.stdout + done.stderr, encoding="utf-8")
    return keep


def html_files(folder: Path) -> dict[str, bytes]:
    """Every ``.html`` file of a build, by path relative to the output folder."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*.html"))}


def differences(first: Path, second: Path) -> list[str]:
    """What differs between the HTML files of two builds: files, and the first lines that do."""
    a, b = html_files(first), html_files(second)
    found = [f"only in the first build: {n}" for n in sorted(a.keys() - b.keys())]
    found += [f"only in the second build: {n}" for n in sorted(b.keys() - a.keys())]
    for name in sorted(a.keys() & b.keys()):
        if a[name] != b[name]:
            diff = difflib.unified_diff(
                a[name].decode("utf-8", "replace").splitlines(),
                b[name].decode("utf-8", "replace").splitlines(), lineterm="", n=0)
            lines = [line[:200] for line in list(diff)[2:12]]
            found.append(f"{name} differs:\n  " + "\n  ".join(lines))
    return found


JSON, JUNIT = "verification.json", "verification.xml"


def report(folder: Path) -> dict[str, Any]:
    """The build's ``verification.json``."""
    data: dict[str, Any] = json.loads((folder / JSON).read_text("utf-8"))
    return data


def json_differences(first: Any, second: Any, where: str = "") -> list[str]:
    """Where two JSON values differ, as paths with both values (the first ten)."""
    if isinstance(first, dict) and isinstance(second, dict):
        found = [f"{where}.{k}: only in one" for k in sorted(first.keys() ^ second.keys())]
        for key in sorted(first.keys() & second.keys()):
            found += json_differences(first[key], second[key], f"{where}.{key}")
        return found[:10]
    if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
        return [d for i, (a, b) in enumerate(zip(first, second, strict=True))
                for d in json_differences(a, b, f"{where}[{i}]")][:10]
    return [] if first == second else [f"{where}: {first!r} != {second!r}"]


def same_reports(first: Path, second: Path) -> list[str]:
    """What differs between the reports of two builds: ``verification.json`` and ``.xml``.

    Both are compared byte for byte; for the JSON, the differing fields are named.
    """
    found = []
    if (first / JSON).read_bytes() != (second / JSON).read_bytes():
        found.append(f"{JSON} differs: {json_differences(report(first), report(second))}")
    if (first / JUNIT).read_bytes() != (second / JUNIT).read_bytes():
        found.append(f"{JUNIT} differs")
    return found


def checked_pages(folder: Path) -> list[str]:
    """The HTML files of the pages that hold a check-numeric."""
    return [f"{page['docname']}.html" for page in report(folder)["pages"] if page["snippets"]]


def test_differences_name_the_file_and_the_lines(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for folder, word in ((first, "one"), (second, "two")):
        (folder / "sub").mkdir(parents=True)
        (folder / "sub" / "page.html").write_text(f"<p>\n{word}\n</p>\n", encoding="utf-8")
        (folder / "same.html").write_text("<p>same</p>", encoding="utf-8")
    (first / "extra.html").write_text("", encoding="utf-8")
    assert differences(first, second) == [
        "only in the first build: extra.html",
        "sub/page.html differs:\n  @@ -2 +2 @@\n  -one\n  +two",
    ]


# -- two clean builds ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def clean_twice(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two clean builds of one copy, in the same folder, one after the other."""
    base = tmp_path_factory.mktemp("clean")
    root = copy_book(base / "copy")
    return clean_build(root, base / "first"), clean_build(root, base / "second")


def test_two_clean_builds_give_identical_html(clean_twice: tuple[Path, Path]) -> None:
    first, second = clean_twice
    assert len(html_files(first)) >= 7
    assert differences(first, second) == []


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean build of another copy, in another folder."""
    base = tmp_path_factory.mktemp("elsewhere")
    return clean_build(copy_book(base / "another" / "checkout"), base / "html")


def test_two_clean_builds_in_other_folders_give_identical_html(
    elsewhere: Path, clean_twice: tuple[Path, Path]
) -> None:
    assert differences(clean_twice[0], elsewhere) == []
    assert (elsewhere / JUNIT).read_bytes() == (clean_twice[0] / JUNIT).read_bytes()


def test_the_report_does_not_depend_on_the_folder(
    elsewhere: Path, clean_twice: tuple[Path, Path]
) -> None:
    assert same_reports(clean_twice[0], elsewhere) == []


def test_two_clean_builds_give_the_same_verdict(clean_twice: tuple[Path, Path]) -> None:
    first, second = clean_twice
    assert report(first)["summary"]["failed"] == 0
    assert same_reports(first, second) == []


# -- -j 2 against -j 1 ------------------------------------------------------------------------


@pytest.fixture(scope="module", params=["book", "styles"])
def serial_and_parallel(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """A clean ``-j 1`` and a clean ``-j 2`` build of one copy, in the same folder.

    ``book``: the real book. Its configuration makes Sphinx read serially whatever ``-j``
    says (sphinx-mathjax-offline does not declare itself safe for parallel reading), so only
    the writing is parallel. ``styles``: the styles test root with one wrong digit, which
    Sphinx does read in parallel: the pages are checked in two processes and their reports
    merged, a failing one among them.
    """
    base = tmp_path_factory.mktemp(f"parallel-{request.param}")
    if request.param == "book":
        root, status = copy_book(base / "copy"), 0
    else:
        root, status = base / "copy", 1
        shutil.copytree(ROOTS / "test-styles", root)
        page = root / "vectors.md"
        page.write_text(page.read_text("utf-8").replace("P_{22} = 0.5875", "P_{22} = 0.5876"),
                        encoding="utf-8")
    return (clean_build(root, base / "serial", "-j", "1", status=status),
            clean_build(root, base / "parallel", "-j", "2", status=status))


def log(build_output: Path) -> str:
    """What a build kept by :func:`clean_build` printed."""
    return build_output.with_suffix(".log").read_text(encoding="utf-8")


def test_parallel_build_writes_the_same_html(serial_and_parallel: tuple[Path, Path]) -> None:
    serial, parallel = serial_and_parallel
    pages = checked_pages(serial)
    assert len(pages) >= 2
    assert all((parallel / page).read_bytes() == (serial / page).read_bytes() for page in pages)
    assert differences(serial, parallel) == []


def test_parallel_build_reaches_the_same_verdict(serial_and_parallel: tuple[Path, Path]) -> None:
    serial, parallel = serial_and_parallel
    assert checked_pages(parallel) == checked_pages(serial)
    assert same_reports(serial, parallel) == []
    errors = [line for line in log(parallel).splitlines() if ": ERROR: " in line]
    assert errors == [line for line in log(serial).splitlines() if ": ERROR: " in line]


def test_what_runs_in_parallel(serial_and_parallel: tuple[Path, Path]) -> None:
    serial, parallel = serial_and_parallel
    output = log(parallel)
    chunked = [line for line in output.splitlines() if " .. " in line]  # a chunk per process
    # The real book reads in parallel too: conf.py declares sphinx-mathjax-offline safe and
    # gives sphinx-proof's domain the merge it lacks.
    assert "doing serial" not in output
    assert any(line.startswith("reading sources") for line in chunked)
    assert any(line.startswith("writing output") for line in chunked)
    if "book" not in str(parallel.parent.name):
        assert "vectors.md:12: ERROR: P[2,2]: prose 0.5876, printed 0.5875" in output
    assert "doing serial" not in log(serial)


# -- a build killed half-way ------------------------------------------------------------------


def kill_after(root: Path, trigger: str | float) -> str:
    """Start a build, SIGKILL it when a line matches ``trigger`` (or after so many seconds).

    Returns the output seen before the kill. The build's own children (the snippet worker)
    are killed with it, as a CI runner's timeout would.
    """
    process = subprocess.Popen(command(root), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env=environment(), text=True, start_new_session=True)
    assert process.stdout is not None
    seen: list[str] = []
    deadline = time.monotonic() + 120
    try:
        if isinstance(trigger, float):
            time.sleep(trigger)
        else:
            for line in process.stdout:
                seen.append(line)
                if re.search(trigger, line) or time.monotonic() > deadline:
                    break
    finally:
        with contextlib.suppress(ProcessLookupError):  # the build and its snippet worker
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=60)
        process.stdout.close()
    assert process.returncode == -signal.SIGKILL, f"the build ended before the kill: {seen}"
    return "".join(seen)


#: A wrong digit for the failing book: A[1,1] of the Answer of II.3.B01.
WRONG = ("problems/ii-3-b01-attention-by-hand.md", "0.4011 & 0.1978 & 0.4011 \\\\\n0.1978",
         "0.4012 & 0.1978 & 0.4011 \\\\\n0.1978")
#: Where a page is started, named by the page, not by a percentage: the book grows.
READING = r"reading sources\.\.\. \[ *\d+%\] numerics/log-sum-exp"
WRITING = r"writing output\.\.\. \[ *\d+%\] index"
KILLS = [
    ("updating environment", 0),  # the snippets are about to run (before any page is read)
    (READING, 0),  # some pages read and checked (not II.3.B01), none pickled
    ("pickling environment", 0),  # every page read and pickled, nothing written yet
    (WRITING, 0),  # part of the HTML written
    ("dumping search index", 0),  # all HTML written, the reports and the verdict not yet
    (0.5, 0),  # halfway through a build as long as the clean one, whatever phase that is
    # The same with a wrong digit: the resumed build must fail as the clean one does.
    (READING, 1),
    ("pickling environment", 1),
    ("dumping search index", 1),
]


@pytest.mark.parametrize(("trigger", "status"), KILLS)
def test_a_killed_build_then_a_build_equals_one_clean_build(
    tmp_path: Path, trigger: str | float, status: int
) -> None:
    root = copy_book(tmp_path / "copy")
    if status:
        page = root / "book" / WRONG[0]
        text = page.read_text(encoding="utf-8")
        assert text.count(WRONG[1]) == 1
        page.write_text(text.replace(WRONG[1], WRONG[2]), encoding="utf-8")
    started = time.monotonic()
    clean = clean_build(root, tmp_path / "clean", status=status)
    took = time.monotonic() - started
    shutil.rmtree(root / "_build")
    # A number is a fraction of the clean build's time: a fixed delay could outlast a build.
    kill_after(root, trigger * took if isinstance(trigger, float) else trigger)
    done = build(root, status=status)
    resumed = root / "_build" / "html"
    assert differences(clean, resumed) == []
    # With SOURCE_DATE_EPOCH the reports leave out the run facts (seconds, cached): the
    # resumed build took its snippet results from the cache the killed one filled.
    assert same_reports(clean, resumed) == []
    if status:
        assert f"{WRONG[0]}:110: ERROR: A[1,1]: prose 0.4012, printed 0.4011" in done.stderr
        assert report(resumed)["summary"]["errors"] == 1
    else:
        assert "build succeeded" in done.stdout + done.stderr
