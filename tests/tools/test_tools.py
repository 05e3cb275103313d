"""The author's tools, run for real: ``verified-fix``, the reports, ``make check``, the scaffold,
the Verification page and ``make live``.

Each test works on a copy of the real book (``book/``, ``conf/``, ``scripts/snippets/``) in a
temporary folder and runs the installed commands as subprocesses, as an author or CI would;
nothing is mocked. Builds that several tests read are made once per module.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import junitparser
import pytest
import xmlschema
from support import PROJECT, soup
from verified_problems.tools import fix

#: The virtual environment's commands, beside the Python that runs the tests.
BIN = Path(sys.executable).parent
PAGE = Path("book/problems/ii-3-b01-attention-by-hand.md")
DOCNAME = "problems/ii-3-b01-attention-by-hand"
TIMEOUT = 120
T = TypeVar("T")
#: The real book's pages with a check (outside code blocks that show one), by docname: the
#: reports list exactly these.
_FENCED_CODE = re.compile(r"^(`{3,}|~{3,})[^{\n]*\n.*?^\1\s*$", re.MULTILINE | re.DOTALL)
CHECKED_PAGES = sorted(
    path.relative_to(PROJECT / "book").with_suffix("").as_posix()
    for path in (PROJECT / "book").rglob("*.md")
    if re.search(r"^:::\{check-numeric\}",
                 _FENCED_CODE.sub("", path.read_text(encoding="utf-8")), re.MULTILINE)
)


# -- a copy of the project, and the commands run on it ---------------------------------------


def new_project(target: Path) -> Path:
    """The book, its configuration, its snippets and the Makefile, copied to ``target``."""
    ignore = shutil.ignore_patterns("__pycache__", "_build")
    for part in ("book", "conf"):
        shutil.copytree(PROJECT / part, target / part, ignore=ignore)
    shutil.copytree(PROJECT / "scripts" / "snippets", target / "scripts" / "snippets",
                    ignore=ignore)
    shutil.copy2(PROJECT / "Makefile", target / "Makefile")
    return target


def run(command: list[str | Path], cwd: Path, timeout: float = TIMEOUT
        ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def make_check(project: Path) -> subprocess.CompletedProcess[str]:
    """``make check`` in the copy, with the project's own environment (``STAMP=``: no install)."""
    if shutil.which("make") is None:  # the target's command, as the Makefile writes it
        return run([BIN / "sphinx-build", "-c", "conf", "-d", "_build/doctrees", "-W",
                    "-b", "verify", "book", "_build/verify"], project)
    return run(["make", "--no-print-directory", "check", f"VENV={BIN.parent}", "STAMP="],
               project)


def verified_fix(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run([BIN / "verified-fix", "book", "--conf", "conf", "--build", "_build", *args],
               project)


def html_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


# -- the digits the tests corrupt, found in the page's text --------------------------------


@dataclass(frozen=True)
class Spot:
    """A digit string at a line (1-based) and column of the page."""

    line: int
    column: int
    text: str


def find_spot(text: str, after: str, line_text: str, digits: str, nth: int = 0) -> Spot:
    """The ``nth`` ``digits`` on the first line after ``after`` that starts with ``line_text``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(after))
    index = next(i for i in range(start, len(lines)) if lines[i].startswith(line_text))
    column = -1
    for _ in range(nth + 1):
        column = lines[index].index(digits, column + 1)
    return Spot(index + 1, column, digits)


def swap(text: str, spot: Spot, new: str) -> str:
    """``text`` with the digits at ``spot`` replaced (line endings kept)."""
    lines = text.splitlines(keepends=True)
    line = lines[spot.line - 1]
    assert line[spot.column : spot.column + len(spot.text)] == spot.text
    lines[spot.line - 1] = line[: spot.column] + new + line[spot.column + len(spot.text) :]
    return "".join(lines)


def answer_a12(text: str) -> Spot:
    """The Answer's A[1,2], 0.1978."""
    return find_spot(text, "## Answer", "0.4011 & 0.1978", "0.1978")


def answer_o31(text: str) -> Spot:
    """The Answer's O[3,1], 0.7517 (the first of the row ``0.7517 & 0.7517``)."""
    return find_spot(text, "## Answer", "0.7517 & 0.7517", "0.7517")


def free_exponential(text: str) -> Spot:
    """The free digit of ``e^{-0.7071} = 0.4931`` in Step 3."""
    return find_spot(text, "### Step 3", r"\vec{z}_1 - \max", "0.4931")


# -- shared builds -----------------------------------------------------------------------


@dataclass
class Checked:
    """A copy of the project after ``make check``."""

    project: Path
    done: subprocess.CompletedProcess[str]

    @property
    def out(self) -> Path:
        return self.project / "_build" / "verify"

    def report(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.out / "verification.json").read_text("utf-8"))
        return data

    def page(self, docname: str = DOCNAME) -> dict[str, Any]:
        found: dict[str, Any] = next(p for p in self.report()["pages"] if p["docname"] == docname)
        return found


#: What an interrupted ``write_atomically`` leaves beside the page (see the kill test).
LEFTOVER = ".ii-3-b01-attention-by-hand.md.k7f3q2x1.tmp"


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """The book as it is, checked; with a temporary file such as a killed fixer leaves."""
    project = new_project(tmp_path_factory.mktemp("clean"))
    leftover = project / PAGE.parent / LEFTOVER
    leftover.write_text("# Half a page\n\nA wrong digit: 0.9999\n", encoding="utf-8")
    return Checked(project, make_check(project))


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Checked:
    """The book with one wrong named digit (the Answer's A[1,2] 0.1978 → 0.1987), checked."""
    project = new_project(tmp_path_factory.mktemp("broken"))
    page = project / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(swap(text, answer_a12(text), "0.1987"), encoding="utf-8")
    return Checked(project, make_check(project))


def broken_a12(broken: Checked) -> Spot:
    """Where the broken copy has its wrong digit."""
    text = (broken.project / PAGE).read_text(encoding="utf-8")
    return find_spot(text, "## Answer", "0.4011 & 0.1987", "0.1987")


# -- 1. verified-fix: --check, --diff, the fix ----------------------------------------------


def diff_lines(stdout: str, sign: str) -> list[str]:
    """The removed (``-``) or added (``+``) lines of the unified diffs in ``stdout``."""
    return [line[1:] for line in stdout.splitlines()
            if line.startswith(sign) and not line.startswith(sign * 3)]


def test_fix_check_diff_then_fix_restores_named_digits_and_lists_the_free_one(
    tmp_path: Path,
) -> None:
    project = new_project(tmp_path / "project")
    page = project / PAGE
    original = page.read_bytes()
    text = original.decode("utf-8")
    a12, o31, free = answer_a12(text), answer_o31(text), free_exponential(text)
    corrupted = swap(swap(swap(text, a12, "0.1987"), o31, "0.7518"), free, "0.4932")
    page.write_bytes(corrupted.encode("utf-8"))
    before = page.read_bytes()
    lines = text.splitlines()
    bad = corrupted.splitlines()

    # --check: exit 1, the diff of the two named digits shown, nothing written
    check = verified_fix(project, "--check")
    assert check.returncode == 1, check.stdout + check.stderr
    assert page.read_bytes() == before
    assert diff_lines(check.stdout, "-") == [bad[a12.line - 1], bad[o31.line - 1]]
    assert diff_lines(check.stdout, "+") == [lines[a12.line - 1], lines[o31.line - 1]]
    # again, on a build that changes nothing: the same answer (the report is this build's)
    again = verified_fix(project, "--check")
    assert (again.returncode, again.stdout) == (1, check.stdout), again.stderr

    # --diff: a unified diff of the page, exit 0, nothing written
    diff = verified_fix(project, "--diff")
    assert diff.returncode == 1, diff.stderr  # the free digit is left for a person
    assert f"--- {PAGE}\n+++ {PAGE}\n" in diff.stdout
    assert f"@@ -{a12.line - 3},7 +{a12.line - 3},7 @@" in diff.stdout  # 3 lines of context
    assert diff_lines(diff.stdout, "-") == diff_lines(check.stdout, "-")
    assert diff_lines(diff.stdout, "+") == diff_lines(check.stdout, "+")
    assert "2 digits would change" in diff.stdout
    assert page.read_bytes() == before

    # the fix: the named digits put back byte for byte, the free one listed at its line
    fixed = verified_fix(project)
    assert fixed.returncode == 1, fixed.stderr  # something is left to fix by hand
    assert page.read_bytes() == swap(text, free, "0.4932").encode("utf-8")
    listed = [line for line in fixed.stdout.splitlines() if "not fixed" in line]
    assert listed, fixed.stdout
    assert all(line.startswith(f"{PAGE}:{free.line}: not fixed, correct it by hand:")
               for line in listed), listed
    assert [line.split("by hand: ")[1] for line in listed] == [  # a derived digit: its sum
        "the arithmetic does not hold: e^{-0.7071} is 0.4931, not 0.4932"]
    assert f"2 digits changed, {len(listed)} listed for a person to fix" in fixed.stdout

    # the free digit is still wrong, but there is nothing left for the fixer to change
    after_fix = verified_fix(project, "--check")
    assert after_fix.returncode == 0, after_fix.stdout + after_fix.stderr
    assert f"{PAGE}:{free.line}: not fixed" in after_fix.stdout

    # put back by hand: the page is the original, byte for byte, and nothing is listed
    page.write_bytes(swap(page.read_text(encoding="utf-8"), Spot(free.line, free.column,
                                                                 "0.4932"), "0.4931").encode())
    assert page.read_bytes() == original
    final = verified_fix(project, "--check")
    assert final.returncode == 0, final.stdout + final.stderr
    assert "not fixed" not in final.stdout and "@@" not in final.stdout


def test_fix_in_a_folder_without_a_project_says_so_without_a_traceback(tmp_path: Path) -> None:
    # With its old defaults (book/, conf/) it printed Sphinx's "Application error!" traceback.
    done = run([BIN / "verified-fix"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == (f"verified-fix: no conf.py in {Path()}; give the folder that"
                           " holds it with --conf (as sphinx-build's -c)\n")
    missing = run([BIN / "verified-fix", "docs"], tmp_path)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert missing.stderr.startswith("verified-fix: no source folder docs;")


def test_fix_keeps_crlf_line_endings_and_non_ascii_text(tmp_path: Path) -> None:
    project = new_project(tmp_path / "project")
    page = project / PAGE
    text = page.read_text(encoding="utf-8")
    # non-ASCII text before a named digit on its own line, and elsewhere; CRLF throughout
    text = text.replace("Take row 1, $\\vec{z}_1", "Take row 1 (naïve café ☕, 𝔼), $\\vec{z}_1")
    text = text.replace("Three tokens attend", "Trois « jetons » — three tokens — attend")
    reference = text.replace("\n", "\r\n").encode("utf-8")
    assert b"\r\n" in reference and "☕".encode() in reference
    z13 = find_spot(text, "Take row 1", "Take row 1", "0.7071", nth=1)
    corrupted = swap(swap(text, z13, "0.7017"), answer_a12(text), "0.1987")
    page.write_bytes(corrupted.replace("\n", "\r\n").encode("utf-8"))

    fixed = verified_fix(project)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "2 digits changed, 0 listed" in fixed.stdout
    assert page.read_bytes() == reference
    assert verified_fix(project, "--check").returncode == 0


def test_write_atomically_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"O = 0.7518, edited by the author meanwhile\n")
    with pytest.raises(fix.FileChanged, match="changed on disk"):
        fix.write_atomically(page, b"O = 0.7518\n", "O = 0.7517\n")
    assert page.read_bytes() == b"O = 0.7518, edited by the author meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]  # no temporary file left

    page.chmod(0o640)  # an unchanged file is replaced, keeping its permissions
    fix.write_atomically(page, page.read_bytes(), "O = 0.7517\n")
    assert page.read_bytes() == b"O = 0.7517\n"
    assert page.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_fix_from_a_stale_report_changes_nothing(broken: Checked) -> None:
    """The page moved on after the check build: every planned edit is refused."""
    edits, _unfixable = fix.plan(broken.report(), broken.project / "book")
    assert [(e.old, e.new, e.label) for e in edits] == [
        ("0.1987", "0.1978", "A[1,2]: prose 0.1987, printed 0.1978")]
    text = (broken.project / PAGE).read_text(encoding="utf-8")
    moved = "An author's new first line.\n" + text
    result, misplaced = fix.apply(moved, edits)
    assert (result, misplaced) == (moved, edits)
    result, misplaced = fix.apply(text, edits)  # the page the report was made from
    assert misplaced == [] and result == text.replace("0.4011 & 0.1987", "0.4011 & 0.1978")


# -- 2. a fixer killed while writing ----------------------------------------------------------

WRITER = """
import sys
from pathlib import Path
from verified_problems.tools.fix import write_atomically
page, new = Path(sys.argv[1]), Path(sys.argv[2]).read_text(encoding="utf-8")
original = page.read_bytes()
print("ready", flush=True)
sys.stdin.readline()
write_atomically(page, original, new)
print("done", flush=True)
"""


def test_a_fixer_killed_at_any_moment_leaves_the_old_or_the_new_page(tmp_path: Path) -> None:
    """SIGKILL ``write_atomically`` on a large page, ever later: before, during, after the write.

    The delays grow geometrically from 0.5 ms, so however long the write and its ``fsync`` take
    on this machine, several kills land inside it; the loop stops once the kills land after it.
    """
    work = tmp_path / "book"
    work.mkdir()
    text = (PROJECT / PAGE).read_text(encoding="utf-8")
    old = (text * 700).encode("utf-8")  # about 6 MB, so the write takes a while
    new_text = text.replace("0.1978", "0.1987") * 700
    new = new_text.encode("utf-8")
    source = tmp_path / "new.md"
    source.write_text(new_text, encoding="utf-8")
    page = work / "ii-3-b01-attention-by-hand.md"
    leftover = re.compile(rf"\.{re.escape(page.name)}\.\w+\.tmp")

    seen: list[str] = []
    deadline = time.monotonic() + 45
    for attempt in range(28):
        page.write_bytes(old)
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(page), str(source)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert writer.stdin is not None and writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
        writer.stdin.write("go\n")
        writer.stdin.flush()
        time.sleep(0 if attempt == 0 else 0.0005 * 1.4 ** (attempt - 1))
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        content = page.read_bytes()
        assert content in (old, new), f"a torn page after kill {attempt}: {len(content)} bytes"
        seen.append("new" if content == new else "old")
        for left in work.iterdir():  # nothing a later build or fix would take for the page
            if left != page:
                assert leftover.fullmatch(left.name) and left.suffix == ".tmp", left.name
                left.unlink()
        if seen[-3:] == ["new"] * 3 or time.monotonic() > deadline:
            break
    assert seen[0] == "old" and seen[-1] == "new", seen  # the kills spanned the write

    stale = work / f".{page.name}.k7f3q2x1.tmp"  # what a killed writer leaves in the way
    stale.write_bytes(old[:1000])
    fix.write_atomically(page, page.read_bytes(), new_text)
    assert page.read_bytes() == new


def test_a_leftover_temporary_file_is_not_a_page(clean: Checked) -> None:
    assert clean.done.returncode == 0, clean.done.stdout + clean.done.stderr
    assert (clean.project / PAGE.parent / LEFTOVER).is_file()
    docnames = [p["docname"] for p in clean.report()["pages"]]
    assert docnames == CHECKED_PAGES and DOCNAME in docnames


# -- 3. the reports: JUnit and JSON ---------------------------------------------------------

#: The structure of Jenkins' ``junit-10.xsd`` (xunit-plugin, MIT, © 2014 Gregory Boissinot),
#: the schema pytest validates its own JUnit files against. No package on PyPI ships a JUnit
#: schema (junitparser reads the format but carries none), so it is written out here.
JUNIT_XSD = """<?xml version="1.0" encoding="UTF-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:simpleType name="SUREFIRE_TIME">
    <xs:restriction base="xs:string">
      <xs:pattern value="(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\\.[0-9]{0,3})?"/>
    </xs:restriction>
  </xs:simpleType>
  <xs:complexType name="rerunType" mixed="true">
    <xs:sequence>
      <xs:element name="stackTrace" type="xs:string" minOccurs="0"/>
      <xs:element name="system-out" type="xs:string" minOccurs="0"/>
      <xs:element name="system-err" type="xs:string" minOccurs="0"/>
    </xs:sequence>
    <xs:attribute name="message" type="xs:string"/>
    <xs:attribute name="type" type="xs:string" use="required"/>
  </xs:complexType>
  <xs:complexType name="outcome" mixed="true">
    <xs:attribute name="type" type="xs:string"/>
    <xs:attribute name="message" type="xs:string"/>
  </xs:complexType>
  <xs:element name="failure" type="outcome"/>
  <xs:element name="errors" type="outcome"/>
  <xs:element name="skipped" type="outcome"/>
  <xs:element name="properties">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="property" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
    </xs:complexType>
  </xs:element>
  <xs:element name="property">
    <xs:complexType>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="value" type="xs:string" use="required"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="system-err" type="xs:string"/>
  <xs:element name="system-out" type="xs:string"/>
  <xs:element name="rerunFailure" type="rerunType"/>
  <xs:element name="rerunError" type="rerunType"/>
  <xs:element name="flakyFailure" type="rerunType"/>
  <xs:element name="flakyError" type="rerunType"/>
  <xs:element name="testcase">
    <xs:complexType>
      <xs:sequence>
        <xs:choice minOccurs="0" maxOccurs="unbounded">
          <xs:element ref="skipped"/>
          <xs:element ref="errors"/>
          <xs:element ref="failure"/>
          <xs:element ref="rerunFailure" minOccurs="0" maxOccurs="unbounded"/>
          <xs:element ref="rerunError" minOccurs="0" maxOccurs="unbounded"/>
          <xs:element ref="flakyFailure" minOccurs="0" maxOccurs="unbounded"/>
          <xs:element ref="flakyError" minOccurs="0" maxOccurs="unbounded"/>
          <xs:element ref="system-out"/>
          <xs:element ref="system-err"/>
        </xs:choice>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="time" type="xs:string"/>
      <xs:attribute name="classname" type="xs:string"/>
      <xs:attribute name="group" type="xs:string"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuite">
    <xs:complexType>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element ref="testsuite"/>
        <xs:element ref="properties"/>
        <xs:element ref="testcase"/>
        <xs:element ref="system-out"/>
        <xs:element ref="system-err"/>
      </xs:choice>
      <xs:attribute name="name" type="xs:string" use="required"/>
      <xs:attribute name="tests" type="xs:string" use="required"/>
      <xs:attribute name="failures" type="xs:string" use="required"/>
      <xs:attribute name="errors" type="xs:string" use="required"/>
      <xs:attribute name="group" type="xs:string"/>
      <xs:attribute name="time" type="SUREFIRE_TIME"/>
      <xs:attribute name="skipped" type="xs:string"/>
      <xs:attribute name="timestamp" type="xs:string"/>
      <xs:attribute name="hostname" type="xs:string"/>
      <xs:attribute name="id" type="xs:string"/>
      <xs:attribute name="package" type="xs:string"/>
      <xs:attribute name="file" type="xs:string"/>
      <xs:attribute name="log" type="xs:string"/>
      <xs:attribute name="url" type="xs:string"/>
      <xs:attribute name="version" type="xs:string"/>
    </xs:complexType>
  </xs:element>
  <xs:element name="testsuites">
    <xs:complexType>
      <xs:sequence>
        <xs:element ref="testsuite" minOccurs="0" maxOccurs="unbounded"/>
      </xs:sequence>
      <xs:attribute name="name" type="xs:string"/>
      <xs:attribute name="time" type="SUREFIRE_TIME"/>
      <xs:attribute name="tests" type="xs:string"/>
      <xs:attribute name="failures" type="xs:string"/>
      <xs:attribute name="errors" type="xs:string"/>
    </xs:complexType>
  </xs:element>
</xs:schema>
"""


@pytest.fixture(scope="module")
def junit_schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(JUNIT_XSD)


@pytest.mark.parametrize("which", ["clean", "broken"])
def test_junit_report_validates_against_the_junit_schema(
    which: str, request: pytest.FixtureRequest, junit_schema: xmlschema.XMLSchema
) -> None:
    checked: Checked = request.getfixturevalue(which)
    junit_schema.validate(str(checked.out / "verification.xml"))  # raises if it is not JUnit
    # the schema does bite: a suite without its counts, a case without a name are refused
    assert not junit_schema.is_valid('<testsuites><testsuite name="x"/></testsuites>')
    assert not junit_schema.is_valid('<testsuite name="x" tests="1" failures="0" errors="0">'
                                     '<testcase classname="c"/></testsuite>')


def test_junit_report_names_the_failing_check_with_its_location(broken: Checked) -> None:
    xml = junitparser.JUnitXml.fromfile(str(broken.out / "verification.xml"))
    suites = list(xml)
    assert [s.name for s in suites] == CHECKED_PAGES
    numbers = {p["docname"]: len(p["numbers"]) for p in broken.report()["pages"]}
    for suite in suites:
        cases = list(suite)
        failing = [c for c in cases if not c.is_passed and not c.is_skipped]
        assert suite.tests == len(cases) == numbers[suite.name]
        assert suite.failures == len(failing) and suite.errors == 0
    assert xml.tests == sum(numbers.values()) and xml.failures == 1

    page = next(s for s in suites if s.name == DOCNAME)
    (case,) = [c for c in page if not c.is_passed]
    source = broken.project / PAGE
    line = broken_a12(broken).line
    assert case.classname == "problems.ii-3-b01-attention-by-hand"
    assert case.name == f"line {line}: A[1,2] (ii-3-b01-attention-by-hand.py)"
    (failure,) = case.result
    assert isinstance(failure, junitparser.Failure)
    # the page as the JSON report names it, relative to the book: the same in every checkout
    located = f"{PAGE.relative_to('book')}:{line}: A[1,2]: prose 0.1987, printed 0.1978 (Answer)"
    assert failure.message == located and failure.text == located
    assert failure.type == "diverge"
    # the build printed the same message at the same place
    assert f"{source}:{line}: ERROR: A[1,2]: prose 0.1987, printed 0.1978 (Answer)" in (
        broken.done.stdout + broken.done.stderr)
    # a number that holds says where it comes from, as its tooltip does
    said = [c.system_out for c in page if c.is_passed and " O[1,1] " in c.name]
    assert said and all(out.startswith("O[1,1], printed ") for out in said), said


#: A decimal of the page's source, without its sign.
DECIMAL = re.compile(r"(?<![\w.])\d+\.\d+(?!\w)")


def test_json_report_lists_every_decimal_of_the_page(broken: Checked) -> None:
    page = broken.page()
    assert page["source"] == "problems/ii-3-b01-attention-by-hand.md"
    source = (broken.project / PAGE).read_text(encoding="utf-8").splitlines()
    in_source = {(i + 1, m.start(), m.group()) for i, line in enumerate(source)
                 for m in DECIMAL.finditer(line)}
    keys = {"line", "column", "kind", "name", "index", "prose", "printed", "places", "status",
            "snippet", "context", "message", "provenance", "bound", "candidates", "near"}
    reported = set()
    for number in page["numbers"]:
        assert set(number) == keys
        line, column, prose = number["line"], number["column"], number["prose"]
        assert source[line - 1][column : column + len(prose)] == prose, number  # exact place
        digits = prose.lstrip("-")
        if "." in digits:
            reported.add((line, column + len(prose) - len(digits), digits))
        if number["kind"] == "named":
            assert number["name"] and number["printed"] is not None, number
        else:  # derived by the page's arithmetic, or bound by the page's record
            assert number["name"] is None and number["index"] is None, number
            assert number["kind"] in ("derived", "bound", "given"), number
        assert number["provenance"] or number["status"] != "match", number
        assert number["snippet"].endswith(".py"), number
    assert reported == in_source  # every decimal, named, derived or bound, and nothing else

    a12 = broken_a12(broken)
    wrong = [n for n in page["numbers"] if n["status"] != "match"]
    assert [(n["line"], n["column"], n["name"], n["index"], n["prose"], n["printed"],
             n["status"]) for n in wrong] == [
        (a12.line, a12.column, "A", [1, 2], "0.1987", "0.1978", "diverge")]
    summary = broken.report()["summary"]
    assert summary["failed"] == 1 and summary["errors"] == 1
    assert summary["numbers"] == sum(len(p["numbers"]) for p in broken.report()["pages"])


def test_reports_are_readable_like_any_other_output(clean: Checked) -> None:
    umask = os.umask(0o022)
    os.umask(umask)
    for name in ("verification.json", "verification.xml"):
        assert (clean.out / name).stat().st_mode & 0o777 == 0o666 & ~umask, name


# -- 4. make check: the verify builder ------------------------------------------------------


def test_make_check_passes_on_the_book_and_writes_no_html(clean: Checked) -> None:
    assert clean.done.returncode == 0, clean.done.stdout + clean.done.stderr
    assert f"verified: {len(CHECKED_PAGES)} checked pages" in clean.done.stdout
    assert (clean.out / "verification.json").is_file()
    assert (clean.out / "verification.xml").is_file()
    assert html_files(clean.project / "_build") == []
    assert clean.report()["summary"]["failed"] == 0


def test_make_check_fails_on_a_wrong_digit_and_writes_no_html(broken: Checked) -> None:
    assert broken.done.returncode != 0
    assert "A[1,2]: prose 0.1987, printed 0.1978 (Answer) [verified.divergence]" in (
        broken.done.stdout + broken.done.stderr)
    assert html_files(broken.project / "_build") == []
    again = make_check(broken.project)  # nothing changed: it still fails, still no HTML
    assert again.returncode != 0
    assert "A[1,2]: prose 0.1987" in again.stdout + again.stderr
    assert html_files(broken.project / "_build") == []


# -- 5, 6. the scaffold, and the Verification page ---------------------------------------------


@dataclass
class Scaffolded:
    project: Path
    created: subprocess.CompletedProcess[str]
    html: subprocess.CompletedProcess[str]
    check: subprocess.CompletedProcess[str]


NEW_ID, NEW_TITLE, NEW_SLUG = "II.3.B02", "Masked attention", "ii-3-b02-masked-attention"


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Scaffolded:
    """A copy with a new problem from ``verified-new-problem``, built with -W and checked."""
    project = new_project(tmp_path_factory.mktemp("scaffold"))
    created = run([BIN / "verified-new-problem", NEW_ID, NEW_TITLE, "--book", "book",
                   "--snippets", "scripts/snippets"], project)
    html = run([BIN / "sphinx-build", "-W", "-b", "html", "-c", "conf", "-d", "_build/doctrees",
                "book", "_build/html"], project)
    return Scaffolded(project, created, html, make_check(project))


def test_new_problem_builds_with_w_and_checks_unchanged(scaffolded: Scaffolded) -> None:
    project = scaffolded.project
    assert scaffolded.created.returncode == 0, scaffolded.created.stderr
    page = project / "book" / "problems" / f"{NEW_SLUG}.md"
    snippet = project / "scripts" / "snippets" / f"{NEW_SLUG}.py"
    assert scaffolded.created.stdout.splitlines()[:2] == [
        f"created {page.relative_to(project)}", f"created {snippet.relative_to(project)}"]
    assert scaffolded.html.returncode == 0, scaffolded.html.stdout + scaffolded.html.stderr
    assert scaffolded.check.returncode == 0, scaffolded.check.stdout + scaffolded.check.stderr
    assert (project / "_build" / "html" / "problems" / f"{NEW_SLUG}.html").is_file()
    report = Checked(project, scaffolded.check).page(f"problems/{NEW_SLUG}")
    assert report["findings"] == []
    kinds = {(n["kind"], n["name"], n["status"]) for n in report["numbers"]}
    assert kinds == {("named", "x", "match"), ("named", "m", "match"), ("derived", None, "match")}
    # the snippet runs on its own, as the README promises
    alone = run([sys.executable, snippet], project)
    assert alone.returncode == 0 and "m = 2.3333333333333335" in alone.stdout


@pytest.mark.parametrize("problem_id", ["ii.3.b02", "II-3-B02", "II.3.", "B02", "II.3.B02 x"])
def test_new_problem_refuses_a_malformed_id(problem_id: str, tmp_path: Path) -> None:
    done = run([BIN / "verified-new-problem", problem_id, "Title", "--book", "book",
                "--snippets", "snippets"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == (f"verified-new-problem: {problem_id!r} is not a problem id; "
                           "use e.g. II.3.B02 or 0.NU.03\n")
    assert list(tmp_path.iterdir()) == []


def test_new_problem_refuses_an_existing_file_or_id(tmp_path: Path) -> None:
    command: list[str | Path] = [BIN / "verified-new-problem", NEW_ID, NEW_TITLE,
                                 "--book", "book", "--snippets", "snippets"]
    assert run(command, tmp_path).returncode == 0
    page = tmp_path / "book" / "problems" / f"{NEW_SLUG}.md"
    page.write_text("the author's work\n", encoding="utf-8")
    again = run(command, tmp_path)
    assert again.returncode == 2
    assert again.stderr == (f"verified-new-problem: {page.relative_to(tmp_path)} exists "
                            "already; choose another id or title\n")
    assert page.read_text(encoding="utf-8") == "the author's work\n"

    snippet = tmp_path / "snippets" / f"{NEW_SLUG}.py"  # the snippet alone is enough
    page.unlink()
    again = run(command, tmp_path)
    assert again.returncode == 2 and f"{snippet.relative_to(tmp_path)} exists" in again.stderr
    assert not page.exists()

    shutil.copytree(PROJECT / "book", tmp_path / "real")  # an id the book declares already
    taken = run([BIN / "verified-new-problem", "II.3.B01", "Another title", "--book", "real",
                 "--snippets", "snippets"], tmp_path)
    assert taken.returncode == 2
    assert taken.stderr == ("verified-new-problem: II.3.B01 is already declared in "
                            f"{Path('real') / PAGE.relative_to('book')}; choose another id\n")
    assert not (tmp_path / "real" / "problems" / "ii-3-b01-another-title.md").exists()


def test_a_declaration_shown_in_a_code_block_declares_nothing(tmp_path: Path) -> None:
    # A page that documents the syntax (the authors' guide does) used to block the id it shows.
    guide = tmp_path / "book" / "guide.md"
    guide.parent.mkdir()
    guide.write_text("# Guide\n\n````md\n:::{problem} II.3.B02\n:::\n````\n\n"
                     "~~~\n```{problem} II.3.B02\n```\n~~~\n", encoding="utf-8")
    created = run([BIN / "verified-new-problem", NEW_ID, NEW_TITLE, "--book", "book",
                   "--snippets", "snippets"], tmp_path)
    assert created.returncode == 0, created.stderr
    page = tmp_path / "book" / "problems" / f"{NEW_SLUG}.md"
    again = run([BIN / "verified-new-problem", NEW_ID, "Other title", "--book", "book",
                 "--snippets", "snippets"], tmp_path)  # the real declaration still counts
    assert again.returncode == 2
    assert f"{NEW_ID} is already declared in {page.relative_to(tmp_path)}" in again.stderr


def test_a_new_problem_checked_then_built_is_in_the_index_and_the_verification_page(
    tmp_path: Path,
) -> None:
    # make check read the new page; make html, sharing its environment, then found nothing new
    # and kept the Problem index and the Verification page as they were.
    project = new_project(tmp_path / "project")

    def sphinx(builder: str) -> subprocess.CompletedProcess[str]:
        return run([BIN / "sphinx-build", "-q", "-b", builder, "-c", "conf", "-d",
                    "_build/doctrees", "book", f"_build/{builder}"], project)

    assert sphinx("html").returncode == 0
    assert run([BIN / "verified-new-problem", NEW_ID, NEW_TITLE, "--book", "book",
                "--snippets", "scripts/snippets"], project).returncode == 0
    assert make_check(project).returncode == 0
    assert sphinx("html").returncode == 0
    html = project / "_build" / "html"
    index = soup(html / "problem-index.html").select_one("table.problem-index")
    report = soup(html / "verification.html").select_one("table.verification-report")
    assert index is not None and NEW_ID in index.get_text()
    assert report is not None and NEW_ID in report.get_text()


def test_the_html_reports_follow_a_page_the_check_build_read(tmp_path: Path) -> None:
    # make check read the edited page and wrote its own reports; make html, reading nothing,
    # kept the HTML folder's verification.json of the page as it was.
    project = new_project(tmp_path / "project")

    def sphinx(builder: str) -> subprocess.CompletedProcess[str]:
        return run([BIN / "sphinx-build", "-b", builder, "-c", "conf", "-d",
                    "_build/doctrees", "book", f"_build/{builder}"], project)

    def lines(builder: str) -> list[int]:
        report = json.loads((project / "_build" / builder / "verification.json").read_text())
        return [n["line"] for p in report["pages"] if p["docname"] == DOCNAME
                for n in p["numbers"]]

    assert sphinx("html").returncode == 0
    before = lines("html")
    page = project / PAGE
    page.write_text(page.read_text(encoding="utf-8").replace(
        "## Statement", "A sentence the author added.\n\n## Statement", 1), encoding="utf-8")
    assert sphinx("verify").returncode == 0
    again = sphinx("html")
    assert again.returncode == 0, again.stderr
    assert lines("html") == lines("verify") == [line + 2 for line in before]
    assert "reports written" in again.stdout
    assert "reports written" not in sphinx("html").stdout  # a no-op does not pay for them


def test_verification_page_lists_every_problem_as_verified(scaffolded: Scaffolded) -> None:
    assert scaffolded.html.returncode == 0, scaffolded.html.stderr
    page = soup(scaffolded.project / "_build" / "html" / "verification.html")
    table = page.select_one("table.verification-report")
    assert table is not None
    headers = [th.get_text(" ", strip=True) for th in table.select("thead th")]
    assert headers[:5] == ["Problem", "Page", "Snippet", "Checked", "Status"]
    rows = [[td.get_text(" ", strip=True) for td in tr.select("td")]
            for tr in table.select("tbody tr")]
    status = {(row[0], row[2]): row[4] for row in rows if row[0]}  # pages with problems
    assert status == {
        ("0.NU.02", "0-nu-02-log-sum-exp.py"): "verified",
        ("II.3.B01", "ii-3-b01-attention-by-hand.py"): "verified",
        ("II.3.B01", "ii-3-b01-variation.py"): "verified",
        (NEW_ID, f"{NEW_SLUG}.py"): "verified",
    }
    links = {a.get_text(strip=True): a["href"] for a in table.select("tbody a")}
    assert links["II.3.B01"] == "problems/ii-3-b01-attention-by-hand.html#problem-ii-3-b01"
    assert links["0.NU.02"] == "numerics/log-sum-exp.html#problem-0-nu-02"


# -- 7. make live ----------------------------------------------------------------------------


def fetch(url: str) -> str | None:
    """The page as served, or None while it cannot be had (a page cut short while the preview
    rewrites it is read again)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode("utf-8"))
    except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.IncompleteRead):
        return None


def wait_for(condition: Callable[[], T | None], seconds: float, what: str, log: Path) -> T:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    pytest.fail(f"sphinx-autobuild: {what} within {seconds} s; its log:\n"
                + log.read_text(encoding="utf-8", errors="replace")[-4000:])


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[Path, Path, subprocess.Popen[bytes]]]:
    """``make live``'s command on a copy of the book, served on a free port of 127.0.0.1."""
    autobuild = BIN / "sphinx-autobuild"
    if not autobuild.is_file():
        pytest.skip("sphinx-autobuild is not installed (the project's `live` extra)")
    project = new_project(tmp_path / "project")
    log = tmp_path / "live.log"
    command = [autobuild, "-c", "conf", "-d", "_build/live-doctrees", "--watch",
               "scripts/snippets", "--host", "127.0.0.1", "--port", "0", "book", "_build/live"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with log.open("wb") as output:
        server = subprocess.Popen([str(c) for c in command], cwd=project, stdout=output,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                  start_new_session=True)
    try:
        yield project, log, server
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # the server and the build it may be running
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(timeout=15)


def test_make_live_serves_the_page_and_rechecks_on_save(
    live: tuple[Path, Path, subprocess.Popen[bytes]],
) -> None:
    project, log, server = live

    def served() -> str | None:
        found = re.search(r"Serving on (http://127\.0\.0\.1:\d+)",
                          log.read_text(encoding="utf-8", errors="replace"))
        return found.group(1) if found else None

    base = wait_for(served, 90, "no 'Serving on http://127.0.0.1:PORT'", log)
    url = f"{base}/{DOCNAME}.html"
    first = wait_for(lambda: fetch(url), 30, f"{url} not served", log)
    assert "Attention on three tokens, by hand" in first and "II.3.B01" in first
    assert server.poll() is None

    # saving the snippet re-runs it and re-reads the page: the served excerpt changes
    snippet = project / "scripts" / "snippets" / "ii-3-b01-attention-by-hand.py"
    code = snippet.read_text(encoding="utf-8")
    marker = "# the four steps, checked live"
    snippet.write_text(code.replace("# -- excerpt\n", f"# -- excerpt\n{marker}\n"), "utf-8")
    wait_for(lambda: marker in (fetch(url) or ""), 60, "the edited snippet not served", log)

    # saving the page with a wrong digit re-checks it: the build reports the divergence
    page = project / PAGE
    text = page.read_text(encoding="utf-8")
    page.write_text(swap(text, answer_a12(text), "0.1987"), encoding="utf-8")
    wait_for(lambda: "A[1,2]: prose 0.1987, printed 0.1978" in log.read_text(
        encoding="utf-8", errors="replace"), 60, "no divergence reported after the save", log)
    assert "Rebuilding" in log.read_text(encoding="utf-8", errors="replace")
    assert server.poll() is None  # a failing check does not stop the preview


# -- verified-fix --inject: hand-written named digits become injections -----------------------


def test_fix_inject_turns_named_digits_into_injections_that_build(tmp_path: Path) -> None:
    root = shutil.copytree(PROJECT / "tests" / "roots" / "test-injection", tmp_path / "root")
    page = root / "index.md"
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("The count is {val}`n`.",
                                 "The count is {val}`n`, the last weight $p_3 = 0.6652$."),
                    encoding="utf-8")
    command = [BIN / "verified-fix", root, "--build", root / "_build", "--inject"]
    done = run(command, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 digits changed, 0 listed" in done.stdout
    lines = page.read_text(encoding="utf-8").split("\n")
    assert lines[11] == ("Inline, $p_2 = \\val{p_2}$ and $q = \\val{q:.1f}$, the whole row "
                         "$\\vec{p} = \\val{\\vec{p}}$.")
    assert lines[14] == ("\\mat{A} = \\begin{bmatrix} \\val{A_{11}:.1f} & \\val{A_{12}} \\\\ "
                         "\\val{A_{21}:.1f} & \\val{A_{22}:.1f} \\end{bmatrix}, \\qquad")
    assert lines[15] == "s = \\val{s:.2f}, \\quad q = \\val{q:.1f}"
    assert lines[18] == "The first two weights add up: $\\val{p_1} + \\val{p_2} = 0.3348$."
    assert lines[25] == "The count is {val}`n`, the last weight $p_3 = \\val{p_{3}}$."
    again = run(command, tmp_path)  # nothing named is left by hand: nothing changes
    assert again.returncode == 0 and "0 digits changed" in again.stdout, again.stdout
    built = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q",
                            str(root), str(root / "_build" / "html")],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    html = (root / "_build" / "html" / "index.html").read_text(encoding="utf-8")
    assert "\\texttip{0.5}{injected from the snippet" in html
    assert "\\texttip{0.6652}{injected from the snippet" in html
