"""The build's reports: ``verification.json`` for tools, ``verification.xml`` (JUnit) for CI.

Written from the environment's page reports at the end of every build, so they describe the
whole book whether or not a page was re-read. Both are deterministic: pages, numbers and
snippets in a fixed order, no timestamps.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from sphinx.util import logging

from ..core import index_label, located
from ..engine import write_whole
from ..sphinx_shell.config import read_config
from ..sphinx_shell.diagnostics import Subtype
from ..sphinx_shell.outputs import written_before
from ..sphinx_shell.records import NUMBER_FIELDS, PageReport, in_context, pages

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

JSON_NAME = "verification.json"
JUNIT_NAME = "verification.xml"
FORMAT_VERSION = 1

#: Findings that are about one number: the number's own test case carries them.
NUMBER_SUBTYPES = frozenset({Subtype.DIVERGENCE, Subtype.AMBIGUOUS, Subtype.SHAPE, Subtype.RANGE,
                             Subtype.ARITHMETIC, Subtype.UNBOUND})


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


def build_junit(reports: Mapping[str, PageReport], srcdir: Path | None = None) -> str:
    """One test case per checked number and per other finding; failures carry the location
    (the page relative to ``srcdir``, as in the JSON report), a number that holds its
    provenance.

    The XML is written as text: a book has a test case per number, and a tree of elements
    for tens of thousands of them cost more than the rest of the reports together.
    """
    suites: list[str] = []
    tests = failures = 0
    for docname in sorted(reports):
        report = reports[docname]
        if not (report.snippets or report.findings):
            continue
        cases = list(_cases(report, srcdir))
        failed = sum(failing for _xml, failing in cases)
        tests, failures = tests + len(cases), failures + failed
        suites.append(_element(
            "testsuite", {"name": docname, "tests": len(cases), "failures": failed, "errors": 0},
            [xml for xml, _failing in cases], depth=1,
        ))
    totals = {"name": "verified", "tests": tests, "failures": failures}
    return '<?xml version="1.0" encoding="utf-8"?>\n' + _element("testsuites", totals, suites)


def _cases(report: PageReport, srcdir: Path | None) -> Iterable[tuple[str, bool]]:
    """Each test case of a page as XML, and whether it fails."""
    source = report.relative_source(srcdir)
    classname = report.docname.replace("/", ".")
    for row in report.number_rows():
        number = dict(zip(NUMBER_FIELDS, row, strict=True))
        label = (number["name"] + index_label(number["index"]) if number["name"]
                 else f"free {number['prose']}")
        name = f"line {number['line']}: {label} ({number['snippet']})"
        status = number["status"]
        if status == "exempt":
            inside = [_element("skipped", {"message": "exempted by the author"}, depth=3)]
        elif status != "match":
            message = in_context(number["message"], number["context"])
            inside = [_failure(f"{located(source, number['line'])}: {message}", status)]
        else:
            inside = [_element("system-out", {}, depth=3, text=number["provenance"])] \
                if number["provenance"] else []
        yield _element("testcase", {"classname": classname, "name": name}, inside, depth=2), \
            status not in ("match", "exempt")
    for finding in report.findings:
        if finding.subtype in NUMBER_SUBTYPES or not finding.is_error:
            continue
        where = located(report.finding_source(finding, srcdir), finding.line)
        name = f"line {finding.line}: {finding.subtype.value}"
        yield _element("testcase", {"classname": classname, "name": name},
                       [_failure(f"{where}: {finding.message}", finding.subtype.value)],
                       depth=2), True


def _failure(located: str, kind: str) -> str:
    return _element("failure", {"message": located, "type": kind}, depth=3, text=located)


def _element(tag: str, attributes: Mapping[str, object], children: Sequence[str] = (),
             depth: int = 0, text: str = "") -> str:
    """One element and its children (or text), indented two spaces a level, a line each."""
    indent = "  " * depth
    start = indent + "<" + tag + "".join(
        f" {key}={_attribute(str(value))}" for key, value in attributes.items()
    )
    if text:
        return f"{start}>{escape(text)}</{tag}>\n"
    if not children:
        return start + " />\n"
    return start + ">\n" + "".join(children) + f"{indent}</{tag}>\n"


_ATTRIBUTE_ESCAPES = {'"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#09;"}
#: A character that an attribute value must escape (most values, names and numbers, have none).
_NEEDS_ESCAPE = re.compile(r'[&<>"\n\r\t]')


def _attribute(value: str) -> str:
    if _NEEDS_ESCAPE.search(value) is None:
        return f'"{value}"'
    return f'"{escape(value, _ATTRIBUTE_ESCAPES)}"'


def write_reports(
    outdir: Path, reports: Mapping[str, PageReport], srcdir: Path | None = None
) -> tuple[Path, Path]:
    """Write both reports atomically into ``outdir``."""
    outdir.mkdir(parents=True, exist_ok=True)
    json_path = outdir / JSON_NAME
    junit_path = outdir / JUNIT_NAME
    with _collector_paused():
        text = json.dumps(build_json(reports, srcdir), ensure_ascii=False, separators=(",", ":"))
        write_whole(json_path, (text + "\n").encode("utf-8"))
        write_whole(junit_path, build_junit(reports, srcdir).encode("utf-8"))
    return json_path, junit_path


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while the reports are built.

    They make a few objects per number of the book, all freed by reference counting as soon as
    the text is written (none is in a cycle). Allocated with the collector on, they would set
    off a full collection of everything the build holds, every page's doctree included, which
    costs more than building the reports (0.13 s at 200 pages).
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# -- in a build ----------------------------------------------------------------------------


def _write_at_end(app: Sphinx, exception: BaseException | None) -> None:
    """Write the reports after the verdict, unless this output folder has them from the very
    state the pages are in: a no-op rebuild does not pay for them."""
    if exception is not None:
        return
    outdir = Path(app.outdir)
    if read_config(app).reports and (not written_before(app, "reports") or not _written(outdir)):
        json_path, _junit = write_reports(outdir, pages(app.env), Path(app.srcdir))
        logger.info(f"verified: reports written to {json_path.parent}")


def _written(outdir: Path) -> bool:
    return (outdir / JSON_NAME).is_file() and (outdir / JUNIT_NAME).is_file()


def setup_reports(app: Sphinx) -> None:
    """Write ``verification.json`` and ``verification.xml`` at the end of every build."""
    app.connect("build-finished", _write_at_end, priority=450)  # after the verdict (400)
