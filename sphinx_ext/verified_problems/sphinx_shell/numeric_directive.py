"""The ``check-numeric`` directive: run the snippet, keep what it printed on the page.

The directive only records: the snippet's result and the excerpt go into an output-neutral
:class:`~.nodes.numeric_check` node. The page's numbers are compared once the whole page is
parsed (:mod:`.page_check`), since a check owns numbers written before it.

The node keeps what it shows (excerpt, script, transcript, verdict) as attributes, and
:class:`ExpandCheck` turns them into literal blocks and paragraphs when the page is written.
Sphinx keeps every page's doctree in memory while it builds; a dozen nodes a check, each with
its attribute lists, would be a dozen more objects per page for every garbage collection to walk.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.directives.code import LiteralIncludeReader
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import parselinenos
from sphinx.util.docutils import SphinxDirective

from ..engine import Failure
from . import nodes as vnodes
from .config import env_config
from .diagnostics import Finding, Subtype
from .notebook import label_for, note_client, notebook_client
from .snippets import SnippetPathError, request_for, resolve_snippet, run_snippet

if TYPE_CHECKING:
    from docutils.nodes import Node
    from sphinx.application import Sphinx
    from sphinx.util.typing import OptionSpec

    from ..engine import SnippetResult

#: What an author can do about a failure whose message does not say it already.
_ADVICE = {
    Failure.TIMEOUT: "make it faster, or give the check a longer :timeout:",
    Failure.OUTPUT_LIMIT: "print less, or raise verified_max_output in conf.py",
    Failure.MEMORY: "use less memory, or raise verified_max_memory_mb in conf.py",
    Failure.ORPHAN: "wait for every process the snippet starts, with Popen.wait or "
    "Process.join, before it ends",
    Failure.PROCESSES: "start fewer processes at once, or raise verified_max_processes in "
    "conf.py",
}
#: What a crash that the confinement caused says, and what to do.
_DENIED = ("Permission denied", "Operation not permitted")
_CONFINED = ("a snippet may read only Python, the snippet folder and the book, write only "
             "its working folder, and open no TCP connection; verified_confine in conf.py "
             "says more")

#: Characters of a failed snippet's output kept on the page: a flood is cut, not published.
_SHOWN = 4096

#: literalinclude's selection options, passed to Sphinx's own reader.
_EXCERPT_OPTIONS: OptionSpec = {
    "lines": directives.unchanged_required,
    "start-after": directives.unchanged_required,
    "end-before": directives.unchanged_required,
    "start-at": directives.unchanged_required,
    "end-at": directives.unchanged_required,
    "pyobject": directives.unchanged_required,
    "dedent": directives.nonnegative_int,
    "emphasize-lines": directives.unchanged_required,
}


def _options(options: dict[str, Any]) -> tuple[str, float | None, int | None, list[str]]:
    """Scope, timeout and decimals, read here rather than by docutils.

    A value docutils refused would only be a warning, and the check would quietly run
    without it (or, for a missing path, not at all): here it is an error that fails the build.
    """
    errors = []
    scope = options.get("scope", "page").strip() or "page"
    if scope not in ("page", "section"):
        errors.append(f":scope: is {scope!r}; write 'page' (the default) or 'section'")
        scope = "page"
    timeout: float | None = None
    if "timeout" in options:
        try:
            timeout = float(options["timeout"])
        except ValueError:
            timeout = None
        if timeout is None or not timeout > 0:
            errors.append(f":timeout: is {options['timeout']!r}; write a positive number of "
                          "seconds")
            timeout = None
    decimals: int | None = None
    if "decimals" in options:
        raw = options["decimals"].strip()
        if raw.isdigit() and int(raw) <= 30:
            decimals = int(raw)
        else:
            errors.append(f":decimals: is {raw!r}; write a whole number from 0 to 30")
    return scope, timeout, decimals, errors


class _DocumentData(Protocol):
    """What a page's reading state offers: ``env.temp_data`` (a dict-like object in Sphinx 9)."""

    def setdefault(self, key: str, default: Any) -> Any: ...


def add_finding(env_temp: _DocumentData, finding: Finding) -> None:
    """Keep a finding of the page being read until the collector stores it with the page."""
    found = env_temp.setdefault("verified_findings", [])
    assert isinstance(found, list)
    found.append(finding)


class CheckNumeric(SphinxDirective):
    """``check-numeric PATH``: verify the page's digits against what PATH prints."""

    required_arguments = 0
    optional_arguments = 1
    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        **_EXCERPT_OPTIONS,
        "timeout": directives.unchanged,
        "scope": directives.unchanged,
        "decimals": directives.unchanged,
        "data": directives.unchanged_required,
        "caption": directives.unchanged,
    }

    def run(self) -> list[Node]:
        config = env_config(self.env)
        written = self.arguments[0] if self.arguments else ""
        scope, timeout, decimals, errors = _options(self.options)
        for error in errors:
            self._finding(Subtype.OPTION, f"check-numeric {written}: {error}")
        node = vnodes.numeric_check(
            snippet=written,
            scope=scope,
            decimals=decimals,
            stdout="",
            failure="",
            key="",
            # Sphinx's search skips "no-search": excerpt, script and transcript are code.
            classes=["no-search"],
        )
        self.set_source_info(node)
        if not written and (client := notebook_client(self.state.document)) is not None:
            return [self._notebook(node, client)]
        if not written:
            message = ("check-numeric names no snippet; write the file name after the "
                       "directive, as in ':::{check-numeric} ii-3-b01-attention-by-hand.py' "
                       "(only on a notebook page, MyST-NB's, does it check the page's own "
                       "cells)")
            self._finding(Subtype.SNIPPET_PATH, message)
            node["failure"] = "path"
            node += nodes.paragraph("", "No snippet was named, so nothing here was verified.")
            return [node]
        try:
            path = resolve_snippet(config.snippet_dir, written)
            data = [resolve_snippet(config.snippet_dir, d)
                    for d in self.options.get("data", "").split()]
        except SnippetPathError as err:
            self._finding(Subtype.SNIPPET_PATH, str(err))
            node["failure"] = "path"
            self.env.note_reread()  # no file to depend on: check again until the path is fixed
            node += nodes.paragraph("", f"The snippet {written} could not be run: {err}.")
            return [node]
        self.env.note_dependency(str(path))
        for extra in data:
            self.env.note_dependency(str(extra))
        result = run_snippet(
            self.env, request_for(config, path, timeout, data)
        )
        for dependency in result.dependencies:
            self.env.note_dependency(str(dependency))
        self._record(node, path, result)
        self._excerpt(node, path, written, config.snippet_dir)
        node["script"] = result.script if result.script is not None else path.read_text(
            encoding="utf-8", errors="replace")  # the bytes that ran, not the file as it is now
        node["script_path"] = _display_path(path, config.snippet_dir)
        node["transcript"] = node["stdout"] or result.message
        node["verdict"] = ""
        return [node]

    def _notebook(self, node: vnodes.numeric_check, client: object) -> vnodes.numeric_check:
        """A check of the page's own cells: filled once the page is read (:mod:`.notebook`)."""
        note_client(self.env, client)
        node["snippet"] = label_for(self.env)
        node["notebook"] = True
        node["verdict"] = ""
        return node

    def _record(self, node: vnodes.numeric_check, path: Path, result: SnippetResult) -> None:
        node["stdout"] = result.stdout if result.ok else _shown(result.stdout)
        node["key"] = result.key
        node["seconds"] = result.seconds
        node["cached"] = result.cached
        node["path"] = str(path)
        if result.failure is not None:
            node["failure"] = result.failure.value
            self._finding(Subtype.SNIPPET, self._failure_text(path, result))
            self.env.note_reread()  # failures are not cached: run it again on the next build

    def _failure_text(self, path: Path, result: SnippetResult) -> str:
        where = ""
        if result.crash_file is not None and result.snippet_line is not None:
            where = f" at {result.crash_file}:{result.snippet_line}"
        advice = _ADVICE.get(result.failure) if result.failure is not None else None
        if result.failure is Failure.CRASH and any(w in result.message for w in _DENIED):
            advice = _CONFINED
        return f"snippet {self.arguments[0]} failed{where}: {result.message}" + (
            f" ({advice})" if advice else ""
        )

    def _finding(self, subtype: Subtype, message: str) -> None:
        """Keep a finding at the directive's line, in the file it is written in (a page pulled
        in by ``{include}`` is named, not the page that includes it)."""
        source, line = self.get_source_info()
        own = str(self.env.doc2path(self.env.docname))
        elsewhere = source if source and Path(source) != Path(own) else None
        add_finding(self.env.temp_data, Finding(self.env.docname, line or self.lineno, subtype,
                                                message, elsewhere))

    def _excerpt(self, node: vnodes.numeric_check, path: Path, written: str,
                 folder: Path) -> None:
        options = {k: v for k, v in self.options.items() if k in _EXCERPT_OPTIONS}
        location = self.state_machine.get_source_and_line(self.lineno)
        try:
            text, _count = LiteralIncludeReader(path, options, self.config).read(location=location)
        except (OSError, UnicodeError, ValueError) as err:
            self._finding(Subtype.SNIPPET_PATH, f"excerpt of {written}: {err}")
            text = ""
        node["excerpt"] = text
        if "emphasize-lines" in self.options:
            lines = parselinenos(self.options["emphasize-lines"], text.count("\n") + 1)
            node["emphasize"] = [n + 1 for n in lines]
        node["caption"] = self.options.get("caption") or _relative(path, folder)


class ExpandCheck(SphinxPostTransform):
    """Build a check's visible parts from its attributes, for every builder, as pages are written.

    The caption and excerpt, the full script in a collapsible, the transcript in another, and
    the verdict line: ordinary docutils nodes, so a builder that knows nothing of checks still
    shows them.
    """

    default_priority = 5  # before Sphinx's own post-transforms

    def run(self, **kwargs: Any) -> None:
        for check in self.document.findall(vnodes.numeric_check):
            if check.get("notebook"):
                check += _notebook_parts(check)
            elif "script" in check:
                check += _parts(check)


def _parts(check: vnodes.numeric_check) -> list[Node]:
    caption = check["caption"]
    excerpt = nodes.literal_block(check["excerpt"], check["excerpt"], language="python",
                                  classes=["verified-excerpt"])
    if check.get("emphasize"):
        excerpt["highlight_args"] = {"hl_lines": check["emphasize"]}
    script = check["script"]
    count = len(script.splitlines())
    return [
        nodes.paragraph(caption, caption, classes=["verified-caption"]),
        excerpt,
        _collapsible(["verified-script"], f"The full {count}-line script, {check['script_path']}",
                     nodes.literal_block(script, script, language="python", linenos=True,
                                         verified_tokens=check.get("script_tokens"))),
        *_outcome(check, "What it printed at build time", opened=True),
    ]


def _notebook_parts(check: vnodes.numeric_check) -> list[Node]:
    """A notebook's check shows what its cells printed and glued (closed: the cells' outputs
    are on the page already) and the verdict; its code is the page's own."""
    return _outcome(check, "What its cells printed and glued at build time", opened=False)


def _outcome(check: vnodes.numeric_check, title: str, opened: bool) -> list[Node]:
    """The transcript in a collapsible, and the verdict line under it."""
    shown, verdict = check.get("transcript", ""), check["verdict"]
    return [
        _collapsible(["verified-transcript"], title,
                     nodes.literal_block(shown, shown, language="text"), opened=opened),
        nodes.paragraph(verdict, verdict, classes=[vnodes.VERDICT_CLASS]),
    ]


def _collapsible(classes: list[str], title: str, body: Node, *,
                 opened: bool = False) -> vnodes.collapsible:
    box = vnodes.collapsible("", vnodes.summary("", title), body, classes=classes)
    if opened:
        box["open"] = True
    return box


def _shown(stdout: str) -> str:
    """A failed snippet's output as the page shows it: its beginning, if it is long."""
    if len(stdout) <= _SHOWN:
        return stdout
    head = stdout[:_SHOWN]
    head = head[: head.rfind("\n") + 1] or head
    return f"{head}… ({len(stdout) - len(head)} more characters not shown)\n"


def _relative(path: Path, folder: Path) -> str:
    return path.relative_to(folder).as_posix()  # the configured folder: already resolved


def _display_path(path: Path, folder: Path) -> str:
    return f"{folder.parent.name}/{folder.name}/{_relative(path, folder)}"


def setup_numeric_directive(app: Sphinx) -> None:
    """Register ``check-numeric``."""
    app.add_directive("check-numeric", CheckNumeric)
    app.add_post_transform(ExpandCheck)
