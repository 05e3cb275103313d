"""Per-page verification state, kept in the environment and safe under ``sphinx-build -j``.

A page is checked when it is read (or, on a large serial HTML build, beside the writer: see
:mod:`.background`); its :class:`~.records.PageReport` is stored by docname, cleared when the
page is re-read or removed, and merged back from parallel readers.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sphinx.environment.collectors import EnvironmentCollector

from ..core import Binding, RecordError, read_record
from .background import defer
from .config import VerifiedConfig, read_config
from .notebook import fill_checks
from .outputs import note_change
from .page_check import PageInput, check_now
from .records import pages

if TYPE_CHECKING:
    from collections.abc import Set

    from docutils import nodes
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


class VerifiedCollector(EnvironmentCollector):
    """Checks each page as it is read and keeps the result with the environment."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        pages(env).pop(docname, None)
        note_change(env)

    def merge_other(
        self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment
    ) -> None:
        theirs = pages(other)
        for docname in docnames:
            if docname in theirs:
                pages(env)[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        env = app.env
        config = read_config(app)
        path = record_path(Path(app.srcdir), config, env.docname)
        record, problem = _read_record(path)
        ran = fill_checks(env, doctree)
        early: list[Any] = env.temp_data.pop("verified_findings", None) or []
        stamp = _stamp(path)
        if stamp is not None:
            env.note_dependency(str(path))
        page = PageInput(env.docname, record, problem, [*early, *ran], stamp,
                         path.relative_to(app.srcdir).as_posix())
        if not defer(env, doctree, page):
            pages(env)[env.docname] = check_now(doctree, config, page)


def record_path(srcdir: Path, config: VerifiedConfig, docname: str) -> Path:
    """Where a page's binding record is kept: ``<srcdir>/_bindings/<docname>.json``."""
    return srcdir / config.bindings_dir / f"{docname}.json"


def _read_record(path: Path) -> tuple[list[Binding], str | None]:
    """A page's bindings (none if it has no record), and what is wrong with the record."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], None
    except (OSError, UnicodeDecodeError) as error:
        return [], f"binding record {path} cannot be read ({error}); run make bind"
    try:
        return read_record(text), None
    except RecordError as error:
        return [], f"binding record {path}: {error}"


def _stamp(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def _records_changed(app: Sphinx, env: BuildEnvironment, added: Set[str], changed: Set[str],
                     removed: Set[str]) -> list[str]:
    """Pages whose binding record appeared, changed or went since they were read (a record
    that did not exist is no dependency Sphinx can watch)."""
    config = read_config(app)
    srcdir = Path(app.srcdir)
    return [docname for docname, report in pages(env).items()
            if report.snippets and docname not in changed and docname not in removed
            and report.bindings_stamp != _stamp(record_path(srcdir, config, docname))]


#: When each build's reading began (per environment, in the process that reads or merges).
_READING_SINCE: WeakKeyDictionary[BuildEnvironment, tuple[int, frozenset[str]]] = (
    WeakKeyDictionary())


def _reading_starts(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Note the time before any page is read, in Sphinx's unit (µs since the epoch)."""
    _READING_SINCE[env] = (time.time_ns() // 1_000, frozenset(docnames))


def _stamp_reads(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Date each page read in this build from when reading began, not when it ended.

    Sphinx stamps a page with the time its parsing ended; a page, snippet or data file saved
    while the page waited for its snippet is older than that stamp, and the next build would
    never read the page again. Dated from the start, anything saved during the build is newer,
    and its page is read again next time (a page saved before it was read is merely read twice).
    """
    since, docnames = _READING_SINCE.pop(env, (None, frozenset()))
    if since is not None:
        for docname in docnames & env.all_docs.keys():
            env.all_docs[docname] = min(env.all_docs[docname], since)
    return []


def setup_collector(app: Sphinx) -> None:
    """Register the collector, re-read a page whose binding record changed, and date the
    pages read from the start of reading."""
    app.add_env_collector(VerifiedCollector)
    app.connect("env-get-outdated", _records_changed)
    app.connect("env-before-read-docs", _reading_starts, priority=100)
    app.connect("env-updated", _stamp_reads)
