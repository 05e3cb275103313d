"""The JUnit report's text, read back by a real XML parser; the reports leave the collector be.

The JUnit XML is written as text (one test case per number); ElementTree, reading it back,
must find exactly the values that went in, whatever characters a message holds.
"""

from __future__ import annotations

import gc
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from verified_problems.sphinx_shell.diagnostics import Finding, Subtype
from verified_problems.sphinx_shell.records import NumberRecord, PageReport, SnippetRecord
from verified_problems.tools.reports import build_junit, write_reports

AWKWARD = 'a "quoted" <tag> & \'apostrophe\'\nsecond line\tand a tab\r'


def _report(docname: str, statuses: list[str]) -> PageReport:
    report = PageReport(docname=docname, source=f"/book/{docname}.md")
    report.snippets.append(SnippetRecord("s.py", 9, "k", 0.1, False, "", len(statuses), 0, 0, 0))
    report.keep_numbers([
        NumberRecord(line=3 + i, column=0, kind="named", name="A", index=(1, i + 1),
                     prose="0.5", printed="0.5", places=1, status=status, snippet="s.py",
                     context=f"Step {i} — {AWKWARD}", message=f"A[1,{i + 1}]: {AWKWARD}")
        for i, status in enumerate(statuses)
    ])
    report.findings.append(Finding(docname, 7, Subtype.LATEX, f"bad LaTeX: {AWKWARD}"))
    report.findings.append(Finding(docname, 8, Subtype.DIVERGENCE, "carried by its number"))
    return report


def test_junit_text_reads_back_as_what_went_in() -> None:
    reports = {"ch/p1": _report("ch/p1", ["match", "diverge", "exempt"]),
               "a": _report("a", []), "empty": PageReport(docname="empty", source="x")}
    root = ET.fromstring(build_junit(reports).encode())
    assert (root.tag, root.get("name"), root.get("tests"), root.get("failures")) == (
        "testsuites", "verified", "5", "3")
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["a", "ch/p1"]  # sorted; no suite for "empty"
    assert [(s.get("tests"), s.get("failures"), s.get("errors")) for s in suites] == [
        ("1", "1", "0"), ("4", "2", "0")]
    cases = suites[1].findall("testcase")
    assert [c.get("classname") for c in cases] == ["ch.p1"] * 4
    assert [c.get("name") for c in cases] == [
        "line 3: A[1,1] (s.py)", "line 4: A[1,2] (s.py)", "line 5: A[1,3] (s.py)",
        "line 7: latex"]
    assert list(cases[0]) == []
    failure = cases[1].find("failure")
    assert failure is not None
    located = f"/book/ch/p1.md:4: A[1,2]: {AWKWARD} (Step 1 — {AWKWARD})"
    assert failure.get("message") == located
    assert failure.text == located.replace("\r", "\n")  # XML text normalises a bare CR
    assert failure.get("type") == "diverge"
    skipped = cases[2].find("skipped")
    assert skipped is not None and skipped.get("message") == "exempted by the author"
    latex = cases[3].find("failure")
    assert latex is not None and latex.get("message") == f"/book/ch/p1.md:7: bad LaTeX: {AWKWARD}"


@pytest.mark.parametrize("awkward", ['"', "<", ">", "&", "\n", "\t", "\r", "'", "plain"])
def test_each_character_alone_reads_back(awkward: str) -> None:
    # A value is escaped only when it needs to be: each character that does, on its own.
    report = PageReport(docname="p", source="/book/p.md")
    report.findings.append(Finding("p", 7, Subtype.LATEX, f"x{awkward}y"))
    case = ET.fromstring(build_junit({"p": report}).encode()).find("testsuite/testcase")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None
    assert failure.get("message") == f"/book/p.md:7: x{awkward}y"


def test_no_book_is_an_empty_but_valid_report() -> None:
    root = ET.fromstring(build_junit({}).encode())
    assert (root.tag, root.get("tests"), root.get("failures"), list(root)) == (
        "testsuites", "0", "0", [])


@pytest.mark.parametrize("enabled", [True, False])
def test_writing_the_reports_leaves_the_garbage_collector_as_it_was(
    enabled: bool, tmp_path: Path
) -> None:
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        write_reports(tmp_path, {"p": _report("p", ["match"])})
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert (tmp_path / "verification.xml").is_file()
