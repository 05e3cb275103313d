"""What a checked page leaves in the environment: plain, picklable records.

They outlive the doctree: an incremental build that does not re-read a page still reports and
counts that page's findings, and the reports (JSON, JUnit) are written from them. They are
stored in the environment by docname (:func:`pages`), filled by the collector, safe under
``sphinx-build -j``.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import cell_of_line
from .diagnostics import Finding

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment


def pages(env: BuildEnvironment) -> dict[str, PageReport]:
    """The stored reports of every page, by docname."""
    store: dict[str, PageReport] | None = getattr(env, "verified_pages", None)
    if store is None:
        store = {}
        env.verified_pages = store  # type: ignore[attr-defined]
    return store


def in_context(message: str, context: str) -> str:
    """A message as the build log prints it: with the heading it stands under, if any."""
    return f"{message} ({context})" if context else message


@dataclass(frozen=True)
class NumberRecord:
    """One prose number and what became of it (a row of ``verification.json``)."""

    line: int | None
    column: int | None
    kind: str  # named, derived, bound, given, free (unbound), exempt, injected
    name: str | None
    index: tuple[int, ...] | None
    prose: str
    printed: str | None
    places: int | None
    status: str  # an Outcome value, or SNIPPET_FAILED
    snippet: str
    context: str
    message: str
    #: Where the number comes from, as the reader's tooltip says it (empty when it fails).
    provenance: str = ""
    #: A free digit's binding (``E[1,2]``), and every quantity its digits match.
    bound: str | None = None
    candidates: tuple[tuple[str, str], ...] = ()
    #: The text around a free digit, its numbers masked: how its binding finds it again.
    near: str = ""


@dataclass(frozen=True)
class SnippetRecord:
    """One ``check-numeric`` on a page and its run."""

    snippet: str
    line: int | None
    key: str
    seconds: float
    cached: bool
    failure: str
    named: int
    free: int
    exempt: int
    failed: int
    #: Of the free digits: derived by the prose's arithmetic, bound (or given), and unbound.
    derived: int = 0
    bound: int = 0
    unbound: int = 0
    #: Numbers the build wrote from the snippet's output (``\\val``, ``{val}``).
    injected: int = 0


#: The status of a number whose snippet failed: nothing checked it, and it counts as failed.
SNIPPET_FAILED = "snippet-failed"

#: The fields of a :class:`NumberRecord`, in the order of its packed rows.
NUMBER_FIELDS = tuple(f.name for f in fields(NumberRecord))


@dataclass
class PageReport:
    """Everything the check found on one page."""

    docname: str
    source: str
    findings: list[Finding] = field(default_factory=list)
    snippets: list[SnippetRecord] = field(default_factory=list)
    #: When the page's binding record was last changed as it was read (None: it had none), so
    #: that a record written or removed later has the page read again.
    bindings_stamp: float | None = None
    #: The page's binding record, relative to the source folder (whether or not it exists).
    bindings_path: str = ""
    #: How many numbers the page holds; their records are packed (see :meth:`keep_numbers`).
    number_count: int = 0
    #: False while the page's check runs beside the writer (:mod:`.background`).
    checked: bool = True
    _packed_numbers: bytes = field(default=b"", repr=False)

    @property
    def numbers(self) -> list[NumberRecord]:
        """Every number of the page and what became of it, unpacked when asked for."""
        return [NumberRecord(*row) for row in self.number_rows()]

    def number_rows(self) -> list[tuple[Any, ...]]:
        """The numbers as rows of :data:`NUMBER_FIELDS` values, without an object for each."""
        return pickle.loads(self._packed_numbers) if self._packed_numbers else []

    def keep_numbers(self, records: Sequence[NumberRecord]) -> None:
        """Keep the page's number records as one packed value.

        A book has tens of thousands of numbers. As objects they would be walked by every
        garbage collection of the build and by every pickling and unpickling of the
        environment, a no-op build included, which needs only their count.
        """
        rows = [tuple(getattr(record, name) for name in NUMBER_FIELDS) for record in records]
        self._packed_numbers = pickle.dumps(rows, protocol=pickle.HIGHEST_PROTOCOL)
        self.number_count = len(records)

    @property
    def errors(self) -> list[Finding]:
        """The findings that fail the build."""
        return [f for f in self.findings if f.is_error]

    def relative_source(self, srcdir: Path | None) -> str:
        """The page's file as the reports name it: relative to ``srcdir`` if inside it, so
        that a report is the same whichever folder the book was checked out in."""
        return _relative(self.source, srcdir)

    def finding_source(self, finding: Finding, srcdir: Path | None) -> str:
        """The file a finding is in, as the reports name it: the page's own, or the file it
        pulled in with ``{include}`` where the finding's line is."""
        return _relative(finding.source, srcdir) if finding.source else self.relative_source(
            srcdir)

    def to_json(self, srcdir: Path | None = None) -> dict[str, Any]:
        """The page as the JSON report writes it; ``source`` relative to ``srcdir`` if inside.

        On an ``.ipynb``, ``line`` is MyST-NB's (the one its own messages give) and ``cell``
        the cell and its line, both counted from 1, as a person finds them.
        """
        numbers = [dict(zip(NUMBER_FIELDS, row, strict=True)) for row in self.number_rows()]
        findings = [
            {"line": f.line, "subtype": f.subtype.value, "message": f.message,
             "error": f.is_error, **({"file": _relative(f.source, srcdir)} if f.source else {})}
            for f in self.findings
        ]
        if self.source.endswith(".ipynb"):
            for item in [*numbers, *findings]:
                found = cell_of_line(item["line"]) if item["line"] and "file" not in item else None
                if found is not None:
                    item["cell"] = [found[0] + 1, found[1]]
        return {
            "docname": self.docname,
            "source": self.relative_source(srcdir),
            "bindings": self.bindings_path,
            "numbers": numbers,
            "snippets": [_plain(s, _run_facts()) for s in self.snippets],
            "findings": findings,
        }


def _relative(path: str, srcdir: Path | None) -> str:
    """A path relative to ``srcdir`` if inside it, so that a report is the same whichever
    folder the book was checked out in."""
    source = Path(path)
    if srcdir is not None and source.is_relative_to(srcdir):
        source = source.relative_to(srcdir)
    return source.as_posix()


def _plain(record: SnippetRecord, leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A flat record as a dict (cheaper than ``dataclasses.asdict``, which deep-copies)."""
    return {f.name: getattr(record, f.name) for f in fields(record) if f.name not in leave_out}


def _run_facts() -> frozenset[str]:
    """What varies from run to run: left out when ``SOURCE_DATE_EPOCH`` asks for reproducibility."""
    return frozenset({"seconds", "cached"}) if os.environ.get("SOURCE_DATE_EPOCH") else frozenset()
