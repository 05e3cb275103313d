"""Problems as first-class things: a header directive, a domain of ids, references, an index.

An author declares ``:::{problem} II.3.B01`` with ``:kind:`` and ``:difficulty:`` right under a
page's title. The page renders the header of the seed (id, kind badge, ▲▲△ difficulty, the
rounding policy); ``{problem:ref}`0.NU.02``` links to it as "Log-sum-exp 0.NU.02"; and
``:::{problem-index}`` lists every problem of the book.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.domains import Domain, ObjType
from sphinx.roles import XRefRole
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

from . import nodes as vnodes
from .config import read_config
from .diagnostics import Finding, Subtype
from .numeric_directive import add_finding
from .page_check import SKIP_ATTRIBUTE

if TYPE_CHECKING:
    from docutils.nodes import Element, Node
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import OptionSpec

ID_PATTERN = re.compile(r"[0-9A-Z]+(?:\.[0-9A-Z]+)+")
MAX_DIFFICULTY = 3


class Problem(NamedTuple):
    """A problem as the domain knows it."""

    id: str
    title: str
    kind: str
    difficulty: int
    docname: str
    anchor: str
    line: int


def difficulty_marks(level: int) -> str:
    """The seed's difficulty badge: ``▲▲△`` for 2 of 3."""
    return "▲" * level + "△" * (MAX_DIFFICULTY - level)


def anchor_for(problem_id: str) -> str:
    """The HTML id of a problem's header."""
    return "problem-" + nodes.make_id(problem_id)


class ProblemDirective(SphinxDirective):
    """``problem ID`` with ``:kind:`` and ``:difficulty:``: declares the page a problem."""

    required_arguments = 0
    optional_arguments = 1
    option_spec: ClassVar[OptionSpec] = {  # type: ignore[misc]
        "kind": directives.unchanged,
        "difficulty": directives.unchanged,
        "decimals": directives.nonnegative_int,
    }

    def run(self) -> list[Node]:
        config = read_config(self.env.app)
        problem_id = self.arguments[0].strip() if self.arguments else ""
        kind = self.options.get("kind", "").strip()
        difficulty = self._difficulty()
        errors = self._errors(problem_id, kind, difficulty, config.kinds)
        for message in errors:
            add_finding(self.env.temp_data,
                        Finding(self.env.docname, self.lineno, Subtype.PROBLEM, message))
        decimals = self.options.get("decimals")
        header = vnodes.problem_header(
            problem_id=problem_id, kind=kind, difficulty=difficulty or 0,
            decimals=decimals, valid=not errors, ids=[anchor_for(problem_id)] if problem_id else [],
        )
        self.set_source_info(header)
        header += nodes.paragraph("", f"Problem {problem_id}", classes=["problem-id"])
        badges = nodes.paragraph("", "", classes=["problem-badges"])
        badges += nodes.inline(kind, kind, classes=["problem-kind"])
        if difficulty:
            marks = difficulty_marks(difficulty)
            badges += nodes.inline(marks, marks, classes=["problem-difficulty"],
                                   difficulty=difficulty)
        header += badges
        places = decimals if decimals is not None else config.policy.decimals
        policy = config.policy_text.format(decimals=places)
        header += nodes.paragraph(policy, policy, classes=["problem-policy"])
        return [header]

    def _difficulty(self) -> int | None:
        raw = self.options.get("difficulty", "").strip()
        return int(raw) if raw.isdigit() and 1 <= int(raw) <= MAX_DIFFICULTY else None

    def _errors(
        self, problem_id: str, kind: str, difficulty: int | None, kinds: tuple[str, ...]
    ) -> list[str]:
        errors = []
        if not problem_id:
            errors.append("problem without an id; write ':::{problem} II.3.B01'")
        elif not ID_PATTERN.fullmatch(problem_id):
            errors.append(
                f"problem id {problem_id!r} is malformed; use dot-separated parts of capital "
                "letters and digits, e.g. II.3.B01 or 0.NU.02"
            )
        if not kind:
            errors.append(f"problem {problem_id} has no :kind:; use one of {', '.join(kinds)}")
        elif kind not in kinds:
            errors.append(
                f"problem {problem_id} has unknown kind {kind!r}; use one of {', '.join(kinds)} "
                "(or add it to verified_kinds)"
            )
        if difficulty is None:
            raw = self.options.get("difficulty")
            said = f"{raw!r}" if raw is not None else "none"
            errors.append(
                f"problem {problem_id} has difficulty {said}; give ':difficulty:' as 1, 2 or 3"
            )
        return errors



class ProblemRef(XRefRole):
    """``{problem:ref}`ID``` — renders as the problem's title and id, e.g. "Log-sum-exp 0.NU.02"."""

    def result_nodes(
        self, document: nodes.document, env: BuildEnvironment, node: Element, is_ref: bool
    ) -> tuple[list[Node], list[nodes.system_message]]:
        node[SKIP_ATTRIBUTE] = True  # an id such as 1.2.03 is not a decimal to check
        return [node], []


class ProblemIndexDirective(SphinxDirective):
    """``problem-index``: a table of every problem, filled in when the page is written."""

    def run(self) -> list[Node]:
        domain = self.env.domains["problem"]
        assert isinstance(domain, ProblemDomain)
        domain.data["index_pages"][self.env.docname] = True
        return [problem_index("")]


class problem_index(nodes.General, nodes.Element):
    """Placeholder for the problem table."""


class ProblemDomain(Domain):
    """Problem ids: where each is declared, for references, the index and duplicates."""

    name = "problem"
    label = "Problem"
    object_types: ClassVar[dict[str, ObjType]] = {"problem": ObjType("problem", "ref")}
    roles: ClassVar[dict[str, Any]] = {"ref": ProblemRef(warn_dangling=True)}
    initial_data: ClassVar[dict[str, Any]] = {"problems": {}, "duplicates": {}, "index_pages": {}}
    data_version = 1

    @property
    def problems(self) -> dict[str, Problem]:
        """Every declared problem by id."""
        return self.data["problems"]  # type: ignore[no-any-return]

    def add(self, problem: Problem) -> None:
        """Declare a problem; a second declaration of an id is kept for the error."""
        first = self.problems.get(problem.id)
        if first is not None and first.docname != problem.docname:
            self.data["duplicates"].setdefault(problem.id, []).append(problem)
            return
        self.problems[problem.id] = problem

    def clear_doc(self, docname: str) -> None:
        for key, problem in list(self.problems.items()):
            if problem.docname == docname:
                del self.problems[key]
        for key, extra in list(self.data["duplicates"].items()):
            kept = [p for p in extra if p.docname != docname]
            if kept:
                self.data["duplicates"][key] = kept
            else:
                del self.data["duplicates"][key]
        self.data["index_pages"].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for problem in otherdata["problems"].values():
            if problem.docname in docnames:
                self.add(problem)
        for extra in otherdata["duplicates"].values():
            for problem in extra:
                if problem.docname in docnames:
                    self.add(problem)
        for docname in otherdata["index_pages"]:
            if docname in docnames:
                self.data["index_pages"][docname] = True

    def resolve_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
        target: str, node: pending_xref, contnode: Element,
    ) -> nodes.reference | None:
        problem = self.problems.get(target.strip())
        if problem is None:
            return None
        if not node.get("refexplicit"):
            text = f"{problem.title} {problem.id}".strip()
            contnode = nodes.inline(text, text, classes=["problem-ref"])
        return make_refnode(builder, fromdocname, problem.docname, problem.anchor, contnode,
                            f"{problem.title} {problem.id}")

    def resolve_any_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
        node: pending_xref, contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        ref = self.resolve_xref(env, fromdocname, builder, "ref", target, node, contnode)
        return [("problem:ref", ref)] if ref is not None else []

    def get_objects(self) -> Iterable[tuple[str, str, str, str, str, int]]:
        for problem in self.problems.values():
            yield (problem.id, f"{problem.title} {problem.id}", "problem", problem.docname,
                   problem.anchor, 1)


def _register(app: Sphinx, doctree: nodes.document) -> None:
    """Declare the page's problems once the page is parsed, titled by their section."""
    domain = app.env.domains["problem"]
    assert isinstance(domain, ProblemDomain)
    for header in doctree.findall(vnodes.problem_header):
        header["title"] = title = _section_title(header)
        if header["valid"]:
            domain.add(Problem(header["problem_id"], title, header["kind"], header["difficulty"],
                               app.env.docname, anchor_for(header["problem_id"]),
                               header.line or 0))


def _section_title(node: nodes.Node) -> str:
    parent = node.parent
    while parent is not None and not isinstance(parent, nodes.section):
        parent = parent.parent
    if parent is not None and parent.children and isinstance(parent[0], nodes.title):
        return parent[0].astext()
    return ""


def _duplicate_findings(app: Sphinx, env: BuildEnvironment) -> None:
    """Report an id declared on two pages, at the second page."""
    from .collector import pages

    domain = env.domains["problem"]
    assert isinstance(domain, ProblemDomain)
    for problem_id, extra in domain.data["duplicates"].items():
        first = domain.problems.get(problem_id)
        for problem in extra:
            report = pages(env).get(problem.docname)
            message = (f"problem id {problem_id} is already declared in "
                       f"{first.docname if first else '?'}; give each problem its own id")
            finding = Finding(problem.docname, problem.line, Subtype.PROBLEM, message)
            if report is not None and finding not in report.findings:
                report.findings.append(finding)


def _outdated_index_pages(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Re-read the index pages whenever any page changed: a problem may have come or gone."""
    domain = env.domains["problem"]
    if not (added or changed or removed):
        return []
    return [d for d in domain.data["index_pages"] if d not in changed]


def _fill_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    domain = app.env.domains["problem"]
    assert isinstance(domain, ProblemDomain)
    for placeholder in list(doctree.findall(problem_index)):
        placeholder.replace_self(_index_table(app, domain, docname))


def _index_table(app: Sphinx, domain: ProblemDomain, docname: str) -> nodes.table:
    headers = ("Id", "Title", "Kind", "Difficulty")
    table = nodes.table(classes=["problem-index"])
    group = nodes.tgroup(cols=len(headers))
    table += group
    for _ in headers:
        group += nodes.colspec(colwidth=1)
    head = nodes.thead()
    head += _row([nodes.Text(h) for h in headers])
    group += head
    body = nodes.tbody()
    for problem in sorted(domain.problems.values(), key=lambda p: p.id):
        link = make_refnode(app.builder, docname, problem.docname, problem.anchor,
                            nodes.Text(problem.id))
        marks = difficulty_marks(problem.difficulty)
        body += _row([link, nodes.Text(problem.title), nodes.Text(problem.kind), nodes.Text(marks)])
    group += body
    return table


def _row(cells: list[Node]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        entry += nodes.paragraph("", "", cell)
        row += entry
    return row


def setup_problems(app: Sphinx) -> None:
    """Register the problem directive, domain, index and their events."""
    app.add_domain(ProblemDomain)
    app.add_directive("problem", ProblemDirective)
    app.add_directive("problem-index", ProblemIndexDirective)
    app.add_node(problem_index)
    app.connect("doctree-read", _register)
    app.connect("env-updated", _duplicate_findings_hook)
    app.connect("env-get-outdated", _outdated_index_pages)
    app.connect("doctree-resolved", _fill_index)


def _duplicate_findings_hook(app: Sphinx, env: BuildEnvironment) -> list[str]:
    _duplicate_findings(app, env)
    return []
