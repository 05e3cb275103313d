"""Problems as first-class things: a header directive, a domain of ids, references, an index.

An author declares ``:::{problem} II.3.B01`` with ``:kind:`` and ``:difficulty:`` right under a
page's title. The page renders the header of the seed (id, kind badge, ▲▲△ difficulty, the
rounding policy); ``{problem:ref}`0.NU.02``` links to it as "Log-sum-exp 0.NU.02"; and
``:::{problem-index}`` lists every problem of the book. A problem of kind ``numeric`` needs a
``check-numeric`` on its page: without one the build fails at its header, since the page would
look verified with nothing checked.

Pages that show what other pages declare — the index, the references — are rewritten whenever
the table of problems changes, and a page with a dangling reference on every build, so its
warning is never lost to an incremental build.
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
from sphinx.util.logging import is_suppressed_warning
from sphinx.util.nodes import make_refnode

from . import nodes as vnodes
from .config import env_config
from .diagnostics import Finding, Subtype
from .numeric_directive import add_finding
from .records import pages
from .tables import link, simple_table

if TYPE_CHECKING:
    from docutils.nodes import Element, Node
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.typing import OptionSpec

ID_PATTERN = re.compile(r"[0-9A-Z]+(?:\.[0-9A-Z]+)+")
MAX_DIFFICULTY = 3
MAX_DECIMALS = 30
#: The kind of problem whose page must have a ``check-numeric``: its digits are the point.
CHECKED_KIND = "numeric"
_ROMAN = re.compile(r"(?=[IVX])(X{0,3})(IX|IV|V?I{0,3})")
_DUPLICATE = " is already declared at "


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


def difficulty_badge(level: int) -> vnodes.badge:
    """The difficulty as marks, labelled for a screen reader ("difficulty 2 of 3")."""
    marks = difficulty_marks(level)
    return vnodes.badge(marks, marks, classes=["problem-difficulty"],
                        label=f"difficulty {level} of {MAX_DIFFICULTY}")


def anchor_for(problem_id: str) -> str:
    """The HTML id of a problem's header: ``problem-0-nu-02`` (leading digits kept)."""
    return str(nodes.make_id("problem-" + problem_id))


_Part = tuple[tuple[int, int, str], ...]


def sort_key(problem_id: str) -> tuple[tuple[_Part, ...], str]:
    """Book order: parts compared as numbers where they are numbers (II < IX < X, 3 < 10)."""
    key: list[_Part] = []
    for part in problem_id.split("."):
        if _ROMAN.fullmatch(part):
            key.append(((0, _roman(part), ""),))
        else:
            runs = re.findall(r"\d+|\D+", part)
            key.append(tuple((0, int(r), "") if r.isdigit() else (1, 0, r) for r in runs))
    return tuple(key), problem_id  # B01 and B1 tie as numbers; the text decides


def _roman(numeral: str) -> int:
    values = {"I": 1, "V": 5, "X": 10}
    total = 0
    for here, after in zip(numeral, [*numeral[1:], ""], strict=True):
        value = values[here]
        total += -value if after and values[after] > value else value
    return total


class ProblemDirective(SphinxDirective):
    """``problem ID`` with ``:kind:`` and ``:difficulty:``: declares the page a problem."""

    required_arguments = 0
    optional_arguments = 1
    option_spec: ClassVar[OptionSpec] = {
        "kind": directives.unchanged,
        "difficulty": directives.unchanged,
        "decimals": directives.unchanged,
    }

    def run(self) -> list[Node]:
        config = env_config(self.env)
        problem_id = self.arguments[0].strip() if self.arguments else ""
        kind = self.options.get("kind", "").strip()
        difficulty = self._whole("difficulty", 1, MAX_DIFFICULTY)
        decimals = self._whole("decimals", 0, MAX_DECIMALS)
        for message in self._errors(problem_id, kind, difficulty, decimals, config.kinds):
            add_finding(self.env.temp_data,
                        Finding(self.env.docname, self.lineno, Subtype.PROBLEM, message))
        well_formed = bool(ID_PATTERN.fullmatch(problem_id))
        header = vnodes.problem_header(
            problem_id=problem_id, kind=kind, difficulty=difficulty or 0, decimals=decimals,
            declared=well_formed,
        )
        self.set_source_info(header)
        # The anchor is the id line, which the stylesheet shows above the title: a link to
        # the problem lands on "Problem II.3.B01" with the title right under it.
        header += nodes.paragraph("", f"Problem {problem_id}", classes=["problem-id"],
                                  ids=[anchor_for(problem_id)] if well_formed else [])
        badges = nodes.paragraph("", "", classes=["problem-badges"])
        if kind:
            badges += vnodes.badge(kind, kind, classes=["problem-kind"], label=f"kind: {kind}")
        if difficulty:
            badges += difficulty_badge(difficulty)
        header += badges
        places = decimals if decimals is not None else config.policy.decimals
        policy = config.policy_text.format(decimals=places)
        header += nodes.paragraph(policy, policy, classes=["problem-policy"])
        return [header]

    def _whole(self, option: str, low: int, high: int) -> int | None:
        raw = str(self.options.get(option, "")).strip()
        return int(raw) if raw.isdigit() and low <= int(raw) <= high else None

    def _errors(
        self, problem_id: str, kind: str, difficulty: int | None, decimals: int | None,
        kinds: tuple[str, ...],
    ) -> list[str]:
        errors = []
        name = f"problem {problem_id}" if problem_id else "this problem"
        if not problem_id:
            errors.append("problem without an id; write ':::{problem} II.3.B01'")
        elif not ID_PATTERN.fullmatch(problem_id):
            errors.append(
                f"problem id {problem_id!r} is malformed; use dot-separated parts of capital "
                "letters and digits, e.g. II.3.B01 or 0.NU.02"
            )
        if not kind:
            errors.append(f"{name} has no :kind:; use one of {', '.join(kinds)}")
        elif kind not in kinds:
            errors.append(
                f"{name} has unknown kind {kind!r}; use one of {', '.join(kinds)} "
                "(or add it to verified_kinds)"
            )
        if difficulty is None:
            raw = self.options.get("difficulty")
            said = f"{raw!r}" if raw is not None else "none"
            errors.append(f"{name} has difficulty {said}; give ':difficulty:' as 1, 2 or 3")
        if decimals is None and "decimals" in self.options:
            errors.append(
                f"{name} has decimals {self.options['decimals']!r}; give ':decimals:' as a "
                f"whole number from 0 to {MAX_DECIMALS}"
            )
        return errors


class ProblemRef(XRefRole):
    """``{problem:ref}`ID``` — renders as the problem's title and id, e.g. "Log-sum-exp 0.NU.02"."""

    def result_nodes(
        self, document: nodes.document, env: BuildEnvironment, node: Element, is_ref: bool
    ) -> tuple[list[Node], list[nodes.system_message]]:
        node[vnodes.SKIP_ATTRIBUTE] = True  # an id such as 1.2.03 is not a decimal to check
        domain = problem_domain(env)
        domain.data["refs"].setdefault(env.docname, set()).add(node["reftarget"].strip())
        return [node], []


class ProblemIndexDirective(SphinxDirective):
    """``problem-index``: a table of every problem, filled in when the page is written."""

    def run(self) -> list[Node]:
        problem_domain(self.env).data["index_pages"][self.env.docname] = True
        return [problem_index("")]


class problem_index(nodes.General, nodes.Element):
    """Placeholder for the problem table."""


class ProblemDomain(Domain):
    """Problem ids: where each is declared, for references, the index and duplicates.

    ``declared`` keeps every declaration of an id in page order, so the first one wins and
    the others are duplicates however the pages were read (in any order, or in parallel).
    ``pages`` keeps the ids each page declares, so that forgetting a page touches its own ids
    and not every id of the book (Sphinx forgets every page it reads, which made a full read
    quadratic). ``refs`` keeps the ids each page references, ``published`` the table the
    pages were last written with.
    """

    name = "problem"
    label = "Problem"
    object_types: ClassVar[dict[str, ObjType]] = {"problem": ObjType("problem", "ref")}
    roles: ClassVar[dict[str, Any]] = {"ref": ProblemRef(warn_dangling=True)}
    initial_data: ClassVar[dict[str, Any]] = {
        "declared": {}, "pages": {}, "refs": {}, "index_pages": {}, "published": {},
    }
    data_version = 3

    @property
    def declared(self) -> dict[str, list[Problem]]:
        """Every declaration of every id, the first (by page, then line) first."""
        return self.data["declared"]  # type: ignore[no-any-return]

    @property
    def problems(self) -> dict[str, Problem]:
        """Every declared problem by id (its first declaration)."""
        return {key: found[0] for key, found in self.declared.items()}

    def get(self, problem_id: str) -> Problem | None:
        """The problem with this id, if any page declares it."""
        found = self.declared.get(problem_id)
        return found[0] if found else None

    def add(self, problem: Problem) -> None:
        """Declare a problem; later declarations of its id are kept for the error."""
        found = self.declared.setdefault(problem.id, [])
        found.append(problem)
        found.sort(key=lambda p: (p.docname, p.line))
        self.data["pages"].setdefault(problem.docname, set()).add(problem.id)

    def clear_doc(self, docname: str) -> None:
        for key in self.data["pages"].pop(docname, ()):
            kept = [p for p in self.declared.get(key, ()) if p.docname != docname]
            if kept:
                self.declared[key] = kept
            else:
                self.declared.pop(key, None)
        self.data["refs"].pop(docname, None)
        self.data["index_pages"].pop(docname, None)

    def merge_domaindata(self, docnames: Set[str], otherdata: dict[str, Any]) -> None:
        for found in otherdata["declared"].values():
            for problem in found:
                if problem.docname in docnames:
                    self.add(problem)
        for docname in docnames:
            if docname in otherdata["refs"]:
                self.data["refs"][docname] = otherdata["refs"][docname]
            if docname in otherdata["index_pages"]:
                self.data["index_pages"][docname] = True

    def resolve_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
        target: str, node: pending_xref, contnode: Element,
    ) -> nodes.reference | None:
        problem = self.get(target.strip())
        if problem is None:
            return None
        text = f"{problem.title} {problem.id}".strip()
        if not node.get("refexplicit"):
            contnode = nodes.inline(text, text, classes=["problem-ref"])
        return make_refnode(builder, fromdocname, problem.docname, problem.anchor, contnode, text)

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


def problem_domain(env: BuildEnvironment) -> ProblemDomain:
    """The book's problem domain, typed."""
    domain = env.domains["problem"]
    assert isinstance(domain, ProblemDomain)
    return domain


def _register(app: Sphinx, doctree: nodes.document) -> None:
    """Declare the page's problems once the page is parsed, titled by their section.

    A problem with a well-formed id is declared even when its kind or difficulty is wrong: that
    error is reported once, at the problem, and not again at every reference to it.
    """
    domain = problem_domain(app.env)
    for header in doctree.findall(vnodes.problem_header):
        header["title"] = title = _section_title(header)
        if header["declared"]:
            domain.add(Problem(header["problem_id"], title, header["kind"], header["difficulty"],
                               app.env.docname, anchor_for(header["problem_id"]),
                               header.line or 0))


def _require_a_check(app: Sphinx, doctree: nodes.document) -> None:
    """A numeric problem on a page without a ``check-numeric`` is an error at its header.

    Such a page would show its kind and the rounding policy and pass, with not one digit
    checked: a check that was forgotten, or commented out (``%`` or ``<!-- -->`` in MyST,
    ``..`` in reST), leaves no trace but this. A check whose snippet fails is reported as
    such, not here. Run before the collector stores the page's findings (a lower priority
    than its 500).
    """
    kinds = env_config(app.env).kinds
    if CHECKED_KIND not in kinds or next(doctree.findall(vnodes.numeric_check), None) is not None:
        return
    change = _other_kinds(kinds)
    for header in doctree.findall(vnodes.problem_header):
        if header["kind"] != CHECKED_KIND:
            continue
        name = f"problem {header['problem_id']}" if header["problem_id"] else "this problem"
        message = (
            f"{name} is of kind {CHECKED_KIND}, but its page has no check-numeric, so none of "
            "its digits is checked: add a check-numeric directive under the problem "
            f"(':::{{check-numeric}} snippet.py' and ':::', not commented out), or change its "
            f":kind:{change}"
        )
        add_finding(app.env.temp_data,
                    Finding(app.env.docname, header.line, Subtype.NO_CHECK, message))


def _other_kinds(kinds: tuple[str, ...]) -> str:
    """What to change a numeric problem's kind to: " to one of derivation, proof, concept"."""
    others = [kind for kind in kinds if kind != CHECKED_KIND]
    if len(others) > 1:
        return f" to one of {', '.join(others)}"
    return f" to {others[0]}" if others else ""


def _section_title(node: nodes.Node) -> str:
    parent = vnodes.enclosing_section(node)
    if parent is not None and parent.children and isinstance(parent[0], nodes.title):
        return str(parent[0].astext())
    return ""


def _duplicate_findings(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Report each later declaration of an id at its own page and line, on every build.

    The findings are recomputed from the domain each time: a duplicate fixed on either page
    disappears even though the other page is not re-read.
    """
    reports = pages(env)
    for report in reports.values():
        report.findings[:] = [f for f in report.findings if not _is_duplicate(f)]
    for problem_id, found in problem_domain(env).declared.items():
        first = found[0]
        where = f"{env.doc2path(first.docname, False)}:{first.line}"
        for problem in found[1:]:
            message = f"problem id {problem_id}{_DUPLICATE}{where}; give each problem its own id"
            page = reports.get(problem.docname)
            if page is not None:
                page.findings.append(
                    Finding(problem.docname, problem.line, Subtype.PROBLEM, message))
    return []


def _is_duplicate(finding: Finding) -> bool:
    return finding.subtype is Subtype.PROBLEM and _DUPLICATE in finding.message


def _pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Pages that show other pages' problems: rewrite them when the table of problems changed.

    The index and every page referring to a problem that came, went or changed its title are
    rewritten (not re-read); a page with a dangling reference is rewritten on every build, so
    Sphinx warns about it again.
    """
    domain = problem_domain(env)
    table = {key: tuple(p._replace(line=0)) for key, p in domain.problems.items()}
    # What each output folder was last written with: `make check` then `make html` share an
    # environment, and the HTML must not keep the index the check build saw changed.
    by_output: dict[str, dict[str, tuple[Any, ...]]] = domain.data["published"]
    published = by_output.get(str(app.outdir), {})
    changed = {k for k in table.keys() | published.keys() if table.get(k) != published.get(k)}
    by_output[str(app.outdir)] = table
    rewrite = set(domain.data["index_pages"]) if changed else set()
    for docname, targets in domain.data["refs"].items():
        if targets & changed or targets - table.keys():
            rewrite.add(docname)
    return sorted(rewrite)


def _note_dangling(app: Sphinx, domain: Domain | None, node: pending_xref) -> None:
    """Fail the build on a dangling problem reference, with Sphinx's own warning as its message."""
    if domain is None or domain.name != "problem":
        return
    if not is_suppressed_warning("ref", node["reftype"], app.config.suppress_warnings):
        app._problem_dangling = True  # type: ignore[attr-defined]


def _fail_on_dangling(app: Sphinx, exception: BaseException | None) -> None:
    if exception is None and getattr(app, "_problem_dangling", False):
        app.statuscode = 1


def _fill_index(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    domain = problem_domain(app.env)
    for placeholder in list(doctree.findall(problem_index)):
        placeholder.replace_self(_index_table(app, domain, docname))


def _index_table(app: Sphinx, domain: ProblemDomain, docname: str) -> nodes.table:
    rows = [
        [link(app.builder, docname, problem.docname, problem.anchor, nodes.Text(problem.id)),
         nodes.Text(problem.title), nodes.Text(problem.kind),
         difficulty_badge(problem.difficulty)]
        for problem in sorted(domain.problems.values(), key=lambda p: sort_key(p.id))
    ]
    return simple_table(("Id", "Title", "Kind", "Difficulty"), rows, "problem-index")


def setup_problems(app: Sphinx) -> None:
    """Register the problem directive, domain, index and their events."""
    app.add_domain(ProblemDomain)
    app.add_directive("problem", ProblemDirective)
    app.add_directive("problem-index", ProblemIndexDirective)
    app.add_node(problem_index)
    app.connect("doctree-read", _register)
    app.connect("doctree-read", _require_a_check, priority=400)
    app.connect("env-updated", _duplicate_findings)
    app.connect("env-get-updated", _pages_to_rewrite)
    app.connect("warn-missing-reference", _note_dangling)
    app.connect("doctree-resolved", _fill_index)
    app.connect("build-finished", _fail_on_dangling)
