"""The Sphinx side of confinement: dependencies found by running, stamps, locations, -E.

Real builds of ``tests/roots/test-confine``: a page whose snippet reads a data file it does not
declare, and a page that pulls in another file with ``{include}`` whose snippet fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import PROJECT, build_root, soup, sphinx_build

DATA_TRANSCRIPT = "details.verified-transcript pre"


def transcript(build_dir: Path) -> str:
    shown = soup(build_dir / "data.html").select_one(DATA_TRANSCRIPT)
    assert shown is not None
    return shown.get_text()


def test_an_undeclared_data_file_reruns_its_snippet_and_rereads_its_page(copy_root) -> None:
    root = copy_root("confine")
    first = build_root(root)
    assert transcript(root / "_build" / "html") == "s = 0.7071\n"
    assert not [m for m in first.messages() if m.startswith("data.md")]
    (root / "scripts" / "snippets" / "scale.txt").write_text("0.5\n")
    second = build_root(root)
    assert "data" in second.read
    assert transcript(root / "_build" / "html") == "s = 0.5000\n"
    assert any(m.startswith("data.md:3: ERROR") for m in second.messages()), second.messages()


def test_an_error_in_an_included_file_names_that_file_and_its_line(copy_root) -> None:
    root = copy_root("confine")
    result = build_root(root)
    failed = [m for m in result.messages() if "snippet crash.py failed" in m]
    assert len(failed) == 1, result.messages()
    assert failed[0].startswith("parts/part.md:5: ERROR: snippet crash.py failed at "), failed
    report = json.loads((root / "_build" / "html" / "verification.json").read_text())
    (page,) = [p for p in report["pages"] if p["docname"] == "included"]
    (finding,) = page["findings"]
    assert (finding["file"], finding["line"]) == ("parts/part.md", 5)
    junit = (root / "_build" / "html" / "verification.xml").read_text()
    assert "parts/part.md:5: snippet crash.py failed" in junit


def test_a_page_saved_during_the_build_is_read_again_by_the_next(copy_root) -> None:
    """The snippet plays the author who saves the page while it waits for the snippet (so
    this one runs unconfined: a confined snippet cannot write the book)."""
    root = copy_root("confine")
    page = root / "data.md"
    (root / "scripts" / "snippets" / "scale.py").write_text(textwrap.dedent(f"""
        from pathlib import Path
        page = Path({str(page)!r})
        page.write_text(page.read_text().replace("0.7071", "0.9137"))
        print("s = 0.7071")
        """))
    first = build_root(root, confoverrides={"verified_confine": "off"})
    assert "data" in first.read and "0.9137" in page.read_text()
    second = build_root(root, confoverrides={"verified_confine": "off"})
    assert "data" in second.read
    assert any(m.startswith("data.md:3: ERROR") and "0.9137" in m
               for m in second.messages()), second.messages()


def test_minus_e_does_not_read_the_cache(copy_root) -> None:
    root = copy_root("confine")
    build_root(root)
    again = build_root(root, freshenv=True)
    assert "snippets: 2 run, 0 cached" in again.summary(), again.summary()


#: Runs sphinx-build in a process whose kernel, as far as it can tell, has no Landlock: a
#: seccomp filter answers landlock_create_ruleset with ENOSYS (the worker inherits it).
WITHOUT_LANDLOCK = """
import ctypes, struct, sys
filters = [
    (0x20, 0, 0, 0),                    # load the system call's number
    (0x15, 0, 1, 444),                  # landlock_create_ruleset?
    (0x06, 0, 0, 0x00050000 | 38),      # then fail with ENOSYS
    (0x06, 0, 0, 0x7FFF0000),           # else allow
]
program = b"".join(struct.pack("HBBI", *f) for f in filters)
buffer = ctypes.create_string_buffer(program)
fprog = struct.pack("HxxxxxxQ", len(filters), ctypes.addressof(buffer))
libc = ctypes.CDLL(None, use_errno=True)
assert libc.prctl(38, 1, 0, 0, 0) == 0
assert libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0) == 0, ctypes.get_errno()
from sphinx.cmd.build import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"),
                    reason="the seccomp filter knows these architectures' numbers")
def test_without_landlock_the_build_warns_once_and_runs_its_snippets(copy_root) -> None:
    root = copy_root("confine")
    (root / "included.md").write_text("# Nothing included\n")
    command = [sys.executable, "-c", WITHOUT_LANDLOCK, "-b", "html", "-d",
               str(root / "_build" / "doctrees"), str(root), str(root / "_build" / "html")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False,
                          cwd=PROJECT)
    warned = [line for line in done.stderr.splitlines() if "has no Landlock" in line]
    assert len(warned) == 1, done.stderr
    assert warned[0].startswith(f"{root / 'conf.py'}:1: WARNING: the kernel has no Landlock")
    assert "[verified.confine]" in warned[0]
    assert done.returncode == 0, done.stderr
    assert transcript(root / "_build" / "html") == "s = 0.7071\n"



def test_a_confinement_the_extension_does_not_know_is_one_located_error(copy_root) -> None:
    root = copy_root("confine")
    with (root / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('verified_confine = "sometimes"\n')
    done = sphinx_build(root)
    assert done.returncode == 2
    assert [line for line in done.stderr.splitlines() if line] == [
        f"{root}/conf.py:6: ERROR: verified_confine must be 'on', 'network' or 'off', "
        "not 'sometimes' (set it in conf.py) [verified.config]"
    ]
