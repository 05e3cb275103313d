"""Pages checked beside the writer: a forked process checks each page while Sphinx goes on.

On a serial HTML build the check of a page (:func:`.page_check.check_page`) is most of what
verification costs Sphinx's one busy process, while the second core runs snippets during
reading and idles while the pages are written, which takes Sphinx longer than reading them. So
each page with a check is left to a forked helper (:class:`~verified_problems.engine.Forked`):
once Sphinx has written the page's doctree file, and no snippet runs any more, the helper
reads that file, checks the page, lexes its scripts (:func:`.code_html.lex_scripts`) and
writes the checked doctree back into the file; the checked doctree and the report are taken
back just before the page is written (:class:`AdoptCheckedPage`, the first post-transform),
or at the end of the build for a page that is not written (:func:`finish_checks`).

The result is the one an inline check gives, node for node: the helper runs the same
function (:func:`.page_check.check_now`) on the page as Sphinx keeps it, and a job the helper
cannot do is done inline. Sphinx pickled its environment before writing, so the reports are
kept beside that pickle once every one is in (:data:`LATE_REPORTS`), and the next build takes
them into the environment it loads; a build stopped before that leaves reports marked
unchecked, and their pages are read again on the next build (:func:`_unchecked`).

Only where it pays and is safe: a serial build (``-j`` forks readers, which check their own
pages), a builder that writes each page from its own doctree (``html``, ``dirhtml``), at least
``verified_background_checks`` pages to read, and a process that can fork safely (one thread,
on a system with ``fork``).
"""

from __future__ import annotations

import pickle
import uuid
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from ..engine import Forked, can_fork, write_whole
from . import nodes as vnodes
from .code_html import lex_scripts
from .config import VerifiedConfig, read_config
from .page_check import PageInput, check_now
from .page_patch import Patch, apply_patch, patch_between
from .records import PageReport, pages
from .snippets import snippets_running

if TYPE_CHECKING:
    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

#: The builders that write each page from its own doctree, once.
PAGE_BUILDERS = frozenset({"html", "dirhtml"})
#: Beside Sphinx's environment pickle: the reports that came in after it was written, with the
#: stamp of the reading they belong to (:data:`_STAMP`).
LATE_REPORTS = "verified-late-reports.pickle"
#: The environment's attribute that names its last reading (pickled with it).
_STAMP = "verified_reading"


@dataclass
class _Background:
    """One build's helper and the pages it has not answered for yet."""

    config: VerifiedConfig
    forked: Forked | None = None
    #: Each page handed over, and how many of its findings so far the helper was given.
    waiting: dict[str, tuple[PageInput, int]] = field(default_factory=dict)
    #: The pages whose reports came in after Sphinx pickled the environment.
    adopted: list[str] = field(default_factory=list)
    #: Pages left to the helper and not handed to it yet, in reading order (:func:`_release`).
    unsent: list[str] = field(default_factory=list)


_STATES: WeakKeyDictionary[BuildEnvironment, _Background] = WeakKeyDictionary()
#: Where the collector leaves a page for :func:`_hand_over`, while the page is read.
_DEFERRED = "verified_deferred_check"


def defer(env: BuildEnvironment, doctree: nodes.document, page: PageInput) -> bool:
    """Leave the page's check to the helper (False: this build, or this page with no check,
    is checked inline). The page is handed over once every other handler of its reading is
    done (:func:`_hand_over`); until its check is in, its report holds its findings so far."""
    state = _STATES.get(env)
    if state is None or next(doctree.findall(vnodes.numeric_check), None) is None:
        return False
    env.temp_data[_DEFERRED] = page
    pages(env)[page.docname] = PageReport(docname=page.docname,
                                          source=str(doctree.get("source", "")),
                                          findings=page.findings, checked=False)
    return True


def _hand_over(app: Sphinx, doctree: nodes.document) -> None:
    """Leave a page to the helper once every ``doctree-read`` handler is done with it (another
    extension's may still change it after the collector's), and hand it the pages read before,
    unless snippets still run."""
    page: PageInput | None = app.env.temp_data.pop(_DEFERRED, None)
    state = _STATES.get(app.env)
    if page is None or state is None:
        return
    if not snippets_running(app.env):
        _release(app.env, state)
    state.unsent.append(page.docname)
    state.waiting[page.docname] = (page, len(page.findings))


def _release(env: BuildEnvironment, state: _Background) -> None:
    """Hand the helper the pages left to it so far; it reads each from its doctree file.

    A page is handed over once Sphinx has written that file (after the page's last transform,
    so the helper checks the very doctree an inline check would leave to those transforms:
    Sphinx's filtering of system messages, say), not while its ``doctree-read`` runs. While
    snippets run, they have the core that reading leaves, and a check beside them, even in the
    idle class, slows them by more than it gains (the reader then waits for a snippet): the
    pages wait until the snippets are done, or until reading ends.
    """
    if not state.unsent:
        return
    if state.forked is None:
        config = state.config
        state.forked = Forked(lambda job: _check_file(config, *job))
        logger.info("verified: checking the pages in a second process while Sphinx reads and "
                    "writes them")
    for docname in state.unsent:
        state.forked.submit(docname, (_doctree_file(env, docname), state.waiting[docname][0]))
    state.unsent.clear()


def _reading_ended(app: Sphinx, env: BuildEnvironment) -> None:
    state = _STATES.get(env)
    if state is not None:
        _release(env, state)


def _doctree_file(env: BuildEnvironment, docname: str) -> Path:
    return Path(env.doctreedir) / f"{docname}.doctree"


def _check_file(config: VerifiedConfig, path: Path, page: PageInput) -> tuple[Patch | None,
                                                                             Any]:
    """The helper's job: check the page of a doctree file, write the checked doctree back into
    it, and return what the check changed (:mod:`.page_patch`) and the page's report."""
    read = path.read_bytes()
    doctree = pickle.loads(read)
    report = check_now(doctree, config, page)
    lex_scripts(doctree, config.lexer)  # so the writer need not (see .code_html)
    write_whole(path, pickled(doctree))
    return patch_between(pickle.loads(read), doctree), report


def pickled(doctree: nodes.document) -> bytes:
    """A doctree pickled as Sphinx writes it: without its reporter, transformer and the
    environment its settings point to (restored afterwards: the doctree is still in use)."""
    saved = doctree.reporter, doctree.transformer, doctree.settings
    settings = doctree.settings.copy()
    settings.env = None
    settings.warning_stream = None
    settings.record_dependencies = None
    doctree.reporter, doctree.transformer, doctree.settings = None, None, settings
    try:
        return pickle.dumps(doctree, pickle.HIGHEST_PROTOCOL)
    finally:
        doctree.reporter, doctree.transformer, doctree.settings = saved


def _take(document: nodes.document, checked: nodes.document) -> None:
    """Make ``document`` the checked doctree, keeping what the writer gave it to write with."""
    kept = {k: vars(document)[k] for k in ("reporter", "transformer", "settings")}
    vars(document).update(vars(checked))
    vars(document).update(kept, _document=document)
    for child in document.children:
        child.parent = document


def _adopt(env: BuildEnvironment, docname: str, document: nodes.document | None) -> None:
    """Take a page's check back from the helper (or do it here), into its doctree, the
    doctree's file and the environment; ``document`` is the page being written, if it is."""
    state = _STATES.get(env)
    waiting = state.waiting.pop(docname, None) if state is not None else None
    if state is None or waiting is None:
        return
    _release(env, state)
    assert state.forked is not None
    page, given = waiting
    reply = state.forked.result(docname)
    path = _doctree_file(env, docname)
    if reply is None:  # the helper could not: check here, where an error shows as it always did
        doctree = document if document is not None else env.get_doctree(docname)
        report = check_now(doctree, state.config, page)
        write_whole(path, pickled(doctree))
    else:
        patch, report = reply
        report.findings[:given] = page.findings  # as the end of reading left them
        if document is not None and (patch is None or not apply_patch(document, patch)):
            _take(document, pickle.loads(path.read_bytes()))  # not the page as it was read
    _keep_in_memory(env, docname, path)
    pages(env)[docname] = report
    state.adopted.append(docname)


def _keep_in_memory(env: BuildEnvironment, docname: str, path: Path) -> None:
    """Give Sphinx's memory of the page's doctree file the checked one: it read every page's
    file once reading ended (the unchecked doctree then) and reads from memory if asked again."""
    remembered = getattr(env, "_pickled_doctree_cache", None)
    if isinstance(remembered, dict) and docname in remembered:
        remembered[docname] = path.read_bytes()


class AdoptCheckedPage(SphinxPostTransform):
    """Before anything resolves a page being written, make it the page its check returned."""

    default_priority = 1

    def run(self, **kwargs: Any) -> None:
        _adopt(self.env, self.env.docname, self.document)


def finish_checks(app: Sphinx) -> None:
    """Take every check still out back now (for a table of every page's report)."""
    state = _STATES.get(app.env)
    for docname in list(state.waiting if state is not None else ()):
        _adopt(app.env, docname, None)


def _start(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Check this build's pages in the background if it pays and is safe (see above)."""
    setattr(env, _STAMP, uuid.uuid4().hex)  # reports kept of an earlier reading are stale now
    config = read_config(app)
    wanted = config.background_checks
    if (wanted and len(docnames) >= wanted and app.parallel <= 1 and can_fork()
            and app.builder.name in PAGE_BUILDERS):
        _STATES[env] = _Background(config)


def _finish(app: Sphinx, exception: BaseException | None) -> None:
    """Take the last checks back, end the helper, and keep the reports with the environment."""
    state = _STATES.get(app.env)
    if state is None:
        return
    try:
        if exception is None:
            finish_checks(app)
    finally:
        _STATES.pop(app.env, None)
        if state.forked is not None:
            state.forked.close()
    if exception is None and state.adopted:
        _keep_reports(app, state.adopted)


def _keep_reports(app: Sphinx, docnames: list[str]) -> None:
    """Keep the reports that came in while Sphinx wrote beside the environment it pickled
    after reading (not in it: rewriting that pickle costs as much as loading it, and the
    environment writing left is not the one to keep, since Sphinx changes it while it
    writes)."""
    reports = pages(app.env)
    late = {"stamp": getattr(app.env, _STAMP, None),
            "reports": {docname: reports[docname] for docname in docnames}}
    write_whole(Path(app.doctreedir) / LATE_REPORTS, pickle.dumps(late, pickle.HIGHEST_PROTOCOL))


def _take_late_reports(app: Sphinx) -> None:
    """Put the reports kept beside the loaded environment into it, if they belong to the
    reading it was pickled after (a later reading, pickled again, makes them stale)."""
    stamp = getattr(app.env, _STAMP, None)
    try:
        late = pickle.loads((Path(app.doctreedir) / LATE_REPORTS).read_bytes())
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return  # none, or not readable by this version: their pages are read again
    if stamp is not None and isinstance(late, dict) and late.get("stamp") == stamp:
        pages(app.env).update(late["reports"])


def _unchecked(app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str],
               removed: Set[str]) -> list[str]:
    """Pages whose check never came back (a build stopped while it ran): read them again."""
    return sorted(d for d, report in pages(env).items()
                  if not report.checked and d not in changed and d not in removed)


def setup_background(app: Sphinx) -> None:
    """Decide per build whether pages are checked in the background, and take them back."""
    app.add_post_transform(AdoptCheckedPage)
    app.connect("builder-inited", _take_late_reports)
    app.connect("env-before-read-docs", _start)
    app.connect("doctree-read", _hand_over, priority=999)  # after every other reader
    app.connect("env-get-outdated", _unchecked)
    app.connect("env-updated", _reading_ended)
    app.connect("build-finished", _finish, priority=100)  # before the verdict (400)
