"""The build's reports: ``verification.json`` for tools, ``verification.xml`` (JUnit) for CI.

Written from the environment's page reports at the end of every build, so they describe the
whole book whether or not a page was re-read. Both are deterministic: pages, numbers and
snippets in a fixed order, no timestamps.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from .diagnostics import Subtype
from .records import PageReport, in_context
from .verify import index_label

JSON_NAME = "verification.json"
JUNIT_NAME = "verification.xml"
FORMAT_VERSION = 1

#: Findings that are about one number: the number's own test case carries them.
NUMBER_SUBTYPES = frozenset({Subtype.DIVERGENCE, Subtype.AMBIGUOUS, Subtype.SHAPE, Subtype.RANGE})


def build_json(reports: Mapping[str, PageReport], srcdir: Path | None = None) -> dict[str, Any]:
    """Every page, every number with its status, every snippet run (sources relative to srcdir)."""
    pages = [reports[d].to_json(srcdir) for d in sorted(reports) if reports[d].snippets
             or reports[d].findings]
    numbers = [n for page in pages for n in page["numbers"]]
    return {
        "format": FORMAT_VERSION,
        "summary": {
            "pages": len(pages),
            "numbers": len(numbers),
            "failed": sum(n["status"] not in ("match", "exempt") for n in numbers),
            "errors": sum(f["error"] for page in pages for f in page["findings"]),
        },
        "pages": pages,
    }


def build_junit(reports: Mapping[str, PageReport]) -> ET.Element:
    """One test case per checked number and per other finding; failures carry the location."""
    suites = ET.Element("testsuites", name="verified")
    for docname in sorted(reports):
        report = reports[docname]
        if not (report.snippets or report.findings):
            continue
        suite = ET.SubElement(suites, "testsuite", name=docname)
        cases = list(_cases(report))
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for c in cases if c.find("failure") is not None)))
        suite.set("errors", "0")
        suite.extend(cases)
    total = suites.findall("testsuite")
    suites.set("tests", str(sum(int(s.get("tests", "0")) for s in total)))
    suites.set("failures", str(sum(int(s.get("failures", "0")) for s in total)))
    return suites


def _cases(report: PageReport) -> Iterable[ET.Element]:
    classname = report.docname.replace("/", ".")
    for number in report.numbers:
        label = number.name + index_label(number.index) if number.name else f"free {number.prose}"
        case = ET.Element("testcase", classname=classname,
                          name=f"line {number.line}: {label} ({number.snippet})")
        if number.status == "exempt":
            ET.SubElement(case, "skipped", message="exempted by the author")
        elif number.status != "match":
            located = f"{report.source}:{number.line}: {in_context(number.message, number.context)}"
            failure = ET.SubElement(case, "failure", message=located, type=number.status)
            failure.text = located
        yield case
    for finding in report.findings:
        if finding.subtype in NUMBER_SUBTYPES or not finding.is_error:
            continue
        case = ET.Element("testcase", classname=classname,
                          name=f"line {finding.line}: {finding.subtype.value}")
        located = f"{report.source}:{finding.line}: {finding.message}"
        failure = ET.SubElement(case, "failure", message=located, type=finding.subtype.value)
        failure.text = located
        yield case


def write_reports(
    outdir: Path, reports: Mapping[str, PageReport], srcdir: Path | None = None
) -> tuple[Path, Path]:
    """Write both reports atomically into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    json_path = outdir / JSON_NAME
    junit_path = outdir / JUNIT_NAME
    text = json.dumps(build_json(reports, srcdir), ensure_ascii=False, separators=(",", ":"))
    _atomic_write(json_path, text + "\n")
    tree = build_junit(reports)
    ET.indent(tree)
    _atomic_write(junit_path, '<?xml version="1.0" encoding="utf-8"?>\n'
                  + ET.tostring(tree, encoding="unicode") + "\n")
    return json_path, junit_path


def _atomic_write(path: Path, text: str) -> None:
    """Write through a temporary file beside ``path``, created like any output file.

    Not ``mkstemp``: its files are private (0600), and a report published with the HTML must
    be readable by the web server, like every other file of the build (the umask decides).
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with temporary.open("x", encoding="utf-8") as stream:
            stream.write(text)
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
