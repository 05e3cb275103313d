"""Check one parsed page: find every number in its prose, give it to the snippet that owns it.

Runs when a page has been read (from the environment collector, or in the helper beside the
writer, :mod:`.background`; both through :func:`check_now`), once the whole doctree is known:
a ``check-numeric`` in the "Check — numeric" section owns the numbers of the Solution written
above it. Scope rule: a check with ``:scope: section`` owns the section it stands in (with its
subsections); the page's one check with the default ``:scope: page`` owns the rest.

Before the prose is read, each ``\\val{NAME}`` and ``{val}`NAME``` takes the value its owning
check's snippet printed (:mod:`.injection`): the checks below see the digits as every builder
will, and treat the injected ones as injected, never as hand-written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from docutils import nodes

from ..core import (
    Binding,
    Outcome,
    Placed,
    PlacedEquation,
    PlacedValue,
    Policy,
    Transcript,
    Verdict,
    align,
    literal_places,
    place_key,
    read_transcript,
    source_assignments,
    source_values,
    verify,
)
from . import nodes as vnodes
from .diagnostics import Finding, Subtype
from .digit_marks import add_header_mark
from .host import unknown_macros, unread_directives
from .injection import Feed, TextInjection, inject_page, injected_cells, settle
from .provenance import Origin, annotate, kind_counts, verdict_text
from .records import SNIPPET_FAILED, NumberRecord, PageReport, SnippetRecord, in_context
from .regions import Region, line_of, numbers_of, offset_placer, place_number, regions

if TYPE_CHECKING:
    from .config import VerifiedConfig
    from .injection import Injected

@dataclass
class _Share:
    """What one check owns on the page."""

    check: vnodes.numeric_check
    regions: list[Region] = field(default_factory=list)
    numbers: list[NumberRecord] = field(default_factory=list)
    #: How many of its numbers hold, by the kind a reader is told (see :mod:`.provenance`).
    kinds: Counter[str] = field(default_factory=Counter)


@dataclass
class PageInput:
    """What a page's check needs besides its doctree, and what its report is completed with."""

    docname: str
    record: list[Binding]
    #: What is wrong with the page's binding record (None: nothing).
    record_problem: str | None
    #: The page's findings from before its check (its directives' and its notebook's).
    findings: list[Finding] = field(default_factory=list)
    bindings_stamp: float | None = None
    bindings_path: str = ""


def check_now(doctree: nodes.document, config: VerifiedConfig, page: PageInput) -> PageReport:
    """Check a page here, mark its header, and return its complete report (the one function
    the inline check and the helper both run). The macros are looked at once the values asked
    for by name are in (``\\val`` is no macro then)."""
    report = check_page(page.docname, doctree, config, page.record)
    report.bindings_stamp = page.bindings_stamp
    report.bindings_path = page.bindings_path
    if page.record_problem is not None and report.snippets:
        report.findings.append(Finding(page.docname, None, Subtype.BINDING, page.record_problem))
    as_text = [] if config.colon_fence else unread_directives(page.docname, doctree)
    report.findings[:0] = [*page.findings, *as_text,
                           *unknown_macros(page.docname, doctree, config.known_macros)]
    add_header_mark(doctree, report)
    return report


def check_page(docname: str, doctree: nodes.document, config: VerifiedConfig,
               record: list[Binding] | None = None) -> PageReport:
    """The report of one page: what every number on it was checked against and how it fared.

    ``record`` is the page's binding record (empty if it has none); None checks free digits
    without bindings, against every printed number.
    """
    source = str(doctree.get("source", ""))
    report = PageReport(docname=docname, source=source)
    checks = list(doctree.findall(vnodes.numeric_check))
    page_check, by_section = _scopes(docname, checks, report)
    policy = _policy(doctree, config)
    feeds = {id(c): _feed(c, policy) for c in checks}
    injections = inject_page(docname, doctree, config,
                             lambda node: _owner(node, page_check, by_section), feeds)
    report.findings.extend(injections.findings)
    if not checks:
        return report
    shares = {id(c): _Share(c) for c in checks}
    for region in regions(doctree, config, source):
        _report_latex(docname, region, report)
        owner = _owner(region.node, page_check, by_section)
        if owner is None:
            _report_unowned(docname, region, report)
        else:
            shares[id(owner)].regions.append(region)
    runs = [_check_share(docname, shares[id(c)], feeds[id(c)], report, config, record,
                         injections.text.get(id(c), [])) for c in checks]
    report.snippets.extend(runs)
    report.keep_numbers([number for c in checks for number in shares[id(c)].numbers])
    other_errors = len(report.errors) - sum(run.failed for run in runs)
    for check, run in zip(checks, runs, strict=True):
        _fill_verdict(check, run, shares[id(check)].kinds, other_errors)
        del check["stdout"]  # read; the transcript block shows it, the doctree need not keep it
    return report


def _scopes(
    docname: str, checks: list[vnodes.numeric_check], report: PageReport
) -> tuple[vnodes.numeric_check | None, dict[int, vnodes.numeric_check]]:
    page_check: vnodes.numeric_check | None = None
    by_section: dict[int, vnodes.numeric_check] = {}
    for check in checks:
        if check["scope"] == "section":
            section = vnodes.enclosing_section(check)
            if section is None:
                _add(report, docname, check.line, Subtype.SCOPE,
                     f"check-numeric {check['snippet']} has ':scope: section' but stands in no "
                     "section; put it under a heading or drop the option")
            elif id(section) in by_section:
                _add(report, docname, check.line, Subtype.SCOPE,
                     "two section-scoped checks in one section; give each its own section")
            else:
                by_section[id(section)] = check
        elif page_check is None:
            page_check = check
        else:
            _add(report, docname, check.line, Subtype.SCOPE,
                 f"a second page-wide check ({check['snippet']}) on this page; give it "
                 "':scope: section' so it owns only its section")
    return page_check, by_section


def _owner(
    node: nodes.Node,
    page_check: vnodes.numeric_check | None,
    by_section: dict[int, vnodes.numeric_check],
) -> vnodes.numeric_check | None:
    parent: nodes.Node | None = node
    while parent is not None:
        if isinstance(parent, nodes.section) and id(parent) in by_section:
            return by_section[id(parent)]
        parent = parent.parent
    return page_check


def _policy(doctree: nodes.document, config: VerifiedConfig) -> Policy:
    for header in doctree.findall(vnodes.problem_header):
        if header.get("decimals") is not None:
            return replace(config.policy, decimals=header["decimals"])
    return config.policy


def _feed(check: vnodes.numeric_check, policy: Policy) -> Feed:
    """What a check's share is checked (and injected) with: its transcript, its policy."""
    if check.get("decimals") is not None:
        policy = replace(policy, decimals=check["decimals"])
    return Feed(None if check["failure"] else read_transcript(check["stdout"]), policy)


# -- checking and reporting -----------------------------------------------------------------


def _report_latex(docname: str, region: Region, report: PageReport) -> None:
    for problem in region.extract.problems:
        _add(report, docname, line_of(region, problem.where), Subtype.LATEX, problem.message)


def _report_unowned(docname: str, region: Region, report: PageReport) -> None:
    if region.exempt:
        return
    decimals = [c for v in region.extract.named for c in v.cells if c.decimal]
    for number in sorted(region.extract.free + decimals, key=lambda n: n.start):
        placed = place_number(region, number)
        _add(report, docname, placed.line, Subtype.UNOWNED,
             f"{number.text} is outside the scope of every check-numeric on this page; "
             "move it into a checked section, or mark it {unchecked} if it is quoted data")


def _check_share(
    docname: str, share: _Share, feed: Feed, report: PageReport, config: VerifiedConfig,
    record: list[Binding] | None, text_injections: list[TextInjection],
) -> SnippetRecord:
    """Check what one snippet owns; its numbers and findings go into the page's report.

    Numbers it injected are no hand-written digits: none is checked as one (:func:`settle`).
    """
    check = share.check
    named: list[PlacedValue] = []
    free: list[Placed] = []
    exempt: list[Placed] = []
    equations: list[PlacedEquation] = []
    origin = Origin()
    injected: Injected = {}
    for item in text_injections:
        origin.remember(item.placed, item.node, 0)
        injected[id(item.placed)] = (item.placed, item.cell)
    for region in share.regions:
        place = origin.placer(region.node, region.text_node, partial(place_number, region))
        if region.exempt:
            numbers = [c for v in region.extract.named for c in v.cells] + region.extract.free
            exempt += [place(n) for n in numbers if n.decimal]
        else:
            placed = {n.start: place(n) for n in numbers_of(region.extract)}
            injected.update(injected_cells(region.node, placed))
            named += [PlacedValue(v, tuple(placed[c.start] for c in v.cells))
                      for v in region.extract.named]
            free += [placed[n.start] for n in region.extract.free]
            equations += [PlacedEquation(equation, region.latex, placed,
                                         offset_placer(region))
                          for equation in region.extract.equations]
        exempt += [place(n) for n in region.extract.exempt]
    named = [v for v in named if not (v.cells and all(id(c) in injected for c in v.cells))]
    free = [cell for cell in free if id(cell) not in injected]
    if feed.transcript is None:
        share.numbers.extend(_not_run(check, named, free))
        return _snippet_record(check, [])
    transcript = feed.transcript
    _report_transcript(docname, check, transcript, report)
    script = check.get("script", "")
    bindings = None if record is None else _bindings(check["snippet"], named, free, record)
    verdicts = verify(transcript, named, free, exempt, feed.policy, equations=equations,
                      given_names=source_assignments(script),
                      given_values=source_values(script), log_base=config.log_base,
                      literals=literal_places(script), bindings=bindings,
                      strict=config.strict_bindings)
    verdicts = settle(verdicts, injected)
    share.numbers.extend(_record(docname, check, verdict, report) for verdict in verdicts)
    share.kinds = kind_counts(verdicts)
    annotate(origin, verdicts, check["snippet"])
    return _snippet_record(check, verdicts)


def _not_run(check: vnodes.numeric_check, named: list[PlacedValue],
             free: list[Placed]) -> list[NumberRecord]:
    """The numbers a failed snippet owns: none was checked, and each counts as failed in the
    reports (the snippet's own error says why) instead of vanishing from their totals."""
    message = f"not checked: {check['snippet']} failed at build time"
    owned = [*((v.value.names[0] if v.value.names else None, cell)
               for v in named for cell in v.cells), *((None, cell) for cell in free)]
    return [NumberRecord(
        line=cell.line, column=cell.column, kind="named" if name else "free", name=name,
        index=None, prose=cell.number.text, printed=None, places=None, status=SNIPPET_FAILED,
        snippet=check["snippet"], context=cell.context, message=message, near=cell.near)
        for name, cell in sorted(owned, key=lambda pair: (pair[1].line or 0,
                                                          pair[1].column or 0))]


def _bindings(snippet: str, named: list[PlacedValue], free: list[Placed],
              record: list[Binding]) -> dict[int, Binding]:
    """The record's bindings of a snippet, matched to the share's digits that may be bound
    (by the ``id`` of each placed number), as a diff matches lines: free digits, and the cells
    of named values (those of a value the snippet did not print are bound to its literals)."""
    cells = [*free, *(cell for value in named for cell in value.cells)]
    cells.sort(key=lambda cell: (cell.line or 0, cell.column or 0))
    mine = [binding for binding in record if binding.snippet == snippet]
    keys = [(*place_key(snippet, cell.context, cell.near), cell.number.text) for cell in cells]
    paired = align(keys, [(*binding.key, binding.prose) for binding in mine])
    return {id(cells[p]): mine[r] for p, r in paired.items()}


def _report_transcript(
    docname: str, check: vnodes.numeric_check, transcript: Transcript, report: PageReport
) -> None:
    for problem in transcript.problems:
        _add(report, docname, check.line, Subtype.TRANSCRIPT,
             f"output of {check['snippet']}, line {problem.where}: {problem.message}")


_SUBTYPES = {
    Outcome.ARITHMETIC: Subtype.ARITHMETIC,
    Outcome.UNBOUND: Subtype.UNBOUND,
    Outcome.DIVERGE: Subtype.DIVERGENCE,
    Outcome.AMBIGUOUS: Subtype.AMBIGUOUS,
    Outcome.SHAPE: Subtype.SHAPE,
    Outcome.RANGE: Subtype.RANGE,
}


def _record(
    docname: str, check: vnodes.numeric_check, verdict: Verdict, report: PageReport
) -> NumberRecord:
    placed = verdict.placed
    if verdict.failed:
        _add(report, docname, placed.line, _SUBTYPES[verdict.outcome],
             in_context(verdict.message + _variation_hint(check, verdict), placed.context))
    elif verdict.over_policy:
        message = (f"{placed.number.text} shows more decimals than the rounding policy; it was "
                   f"compared at its own {verdict.places} d.p.")
        _add(report, docname, placed.line, Subtype.PRECISION,
             in_context(message, placed.context))
    return NumberRecord(
        line=placed.line, column=placed.column, kind=verdict.kind, name=verdict.name,
        index=verdict.index, prose=placed.number.text, printed=verdict.printed,
        places=verdict.places, status=verdict.outcome.value, snippet=check["snippet"],
        context=placed.context, message=verdict.message, provenance=verdict.provenance,
        bound=verdict.bound, candidates=verdict.candidates, near=placed.near,
    )


def _variation_hint(check: vnodes.numeric_check, verdict: Verdict) -> str:
    """What to do about a wrong value in a Variation that the page's own check owns: it most
    often works with other data than the page's snippet."""
    if (check["scope"] == "page" and verdict.outcome is Outcome.DIVERGE
            and verdict.placed.context.lower().startswith("variation")):
        return ("; if this section works with other data than the page's snippet, give it a "
                "check-numeric of its own (:scope: section)")
    return ""


def _snippet_record(check: vnodes.numeric_check, verdicts: list[Verdict]) -> SnippetRecord:
    return SnippetRecord(
        snippet=check["snippet"], line=check.line, key=check.get("key", ""),
        seconds=float(check.get("seconds", 0.0)), cached=bool(check.get("cached", False)),
        failure=check["failure"],
        named=sum(v.kind == "named" for v in verdicts),
        free=sum(v.kind in ("free", "bound") for v in verdicts),
        exempt=sum(v.kind == "exempt" for v in verdicts),
        failed=sum(v.failed for v in verdicts),
        derived=sum(v.kind == "derived" for v in verdicts),
        bound=sum(v.kind in ("bound", "given") and v.bound is not None for v in verdicts),
        unbound=sum(v.kind == "free" for v in verdicts),
        injected=sum(v.kind == "injected" for v in verdicts),
    )


def _fill_verdict(check: vnodes.numeric_check, record: SnippetRecord, kinds: Counter[str],
                  other_errors: int) -> None:
    """Say on the page what the build checked, and whether the page passed."""
    if "verdict" in check:
        check["verdict"] = verdict_text(record, kinds, other_errors)


def _add(
    report: PageReport, docname: str, line: int | None, subtype: Subtype, message: str
) -> None:
    report.findings.append(Finding(docname, line, subtype, message))
