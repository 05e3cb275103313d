"""Finding and running the book's snippets from Sphinx: path rules, one runner, prefetching.

On a build without a saved environment (every page will be read) the worker starts as soon as
the configuration is known, so that its start overlaps Sphinx's own set-up. All snippets a build
needs are started together when Sphinx is about to read pages (``env-before-read-docs``), in the
order the pages are read. With one reading process they run while it reads: each page that asks
for its snippet's result moves the batch along (:class:`~.runner.RunningBatch`, no thread) and
waits only if that snippet has not finished yet. The snippets leave one core to the reader, and
take it too while the reader waits for one of them. Before Sphinx forks parallel readers they
are run to the end first, so that each fork has the results. Either way the directive finds its
result in memory or in the cache.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from sphinx.application import ENV_PICKLE_FILENAME
from sphinx.util import logging
from sphinx.util.display import progress_message

from ..engine import (
    Limits,
    Runner,
    RunningBatch,
    SnippetRequest,
    SnippetResult,
    WorkerDied,
    environment_fingerprint,
    landlock_abi,
    missing_protection,
)
from .config import VerifiedConfig, config_location, early_config, env_config, read_config
from .diagnostics import TYPE, Subtype
from .records import pages

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)

_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})\{check-numeric\}[ \t]+(?P<path>\S+)[ \t]*$"
    r"(?P<options>(?:\n(?P=indent)[ \t]*:[\w-]+:.*$)*)",
    re.MULTILINE,
)
_OPTION = re.compile(r"^[ \t]*:(?P<name>[\w-]+):[ \t]*(?P<value>.*?)[ \t]*$", re.MULTILINE)


class SnippetPathError(ValueError):
    """A snippet path an author wrote that cannot be used; the message says why and what to do."""


def resolve_snippet(snippet_dir: Path, written: str) -> Path:
    """The snippet file a directive names, refused if it is not a file inside the folder.

    ``snippet_dir`` is the configured folder, already resolved (``verified_snippet_dir``).

    Absolute paths, ``..`` and symbolic links that lead out of the snippet folder are refused,
    so a page cannot run or reveal a file elsewhere on the machine.
    """
    pure = PurePosixPath(written)
    if pure.is_absolute() or Path(written).is_absolute():
        raise SnippetPathError(
            f"snippet path {written!r} is absolute; write it relative to {snippet_dir}"
        )
    if ".." in pure.parts:
        raise SnippetPathError(
            f"snippet path {written!r} climbs out with '..'; snippets live in {snippet_dir}"
        )
    root = snippet_dir  # resolved when the configuration was read
    path = (root / pure).resolve()
    if not path.is_relative_to(root):
        raise SnippetPathError(
            f"snippet {written!r} leads outside the snippet folder {root} "
            "(a symbolic link?); put the script itself in that folder"
        )
    if not path.is_file():
        raise SnippetPathError(
            f"snippet {written!r} not found in {root}; create it or fix the name"
        )
    return path


def limits_for(config: VerifiedConfig, timeout: float | None) -> Limits:
    """The limits one snippet runs under: the book's, with the directive's timeout if given."""
    return Limits(
        timeout=timeout if timeout is not None else config.timeout,
        max_output=config.max_output,
        max_memory_mb=config.max_memory_mb,
        max_processes=config.max_processes,
    )


def request_for(
    config: VerifiedConfig, path: Path, timeout: float | None, data: Iterable[Path] = ()
) -> SnippetRequest:
    """The request the directive and the prefetch both make, so their results are shared."""
    return SnippetRequest(
        path=path,
        snippet_dir=config.snippet_dir,
        limits=limits_for(config, timeout),
        data_files=tuple(data),
        confinement=config.confinement,
    )


@dataclass
class _State:
    runner: Runner
    results: dict[SnippetRequest, SnippetResult]
    #: The snippets started before a single reader reads, moved along as pages ask for them.
    batch: RunningBatch | None = None
    indices: dict[SnippetRequest, int] = field(default_factory=dict)


#: One runner per build environment (and so per process: a forked reader gets its own worker).
_STATES: WeakKeyDictionary[BuildEnvironment, _State] = WeakKeyDictionary()
#: Runners started before their build's environment existed (see :func:`start_early`).
_EARLY: WeakKeyDictionary[Config, Runner] = WeakKeyDictionary()
#: Environments made afresh over a saved one (``sphinx-build -E``): no result from the cache.
_AFRESH: WeakKeyDictionary[BuildEnvironment, bool] = WeakKeyDictionary()


def _state(env: BuildEnvironment) -> _State:
    """The runner of this environment: ``verified_jobs`` snippets at once, or one per core."""
    state = _STATES.get(env)
    if state is None:
        runner = _EARLY.pop(env.config, None) or _new_runner(env_config(env),
                                                            not _AFRESH.get(env, False))
        state = _STATES[env] = _State(runner, {})
    return state


def _new_runner(config: VerifiedConfig, read_cache: bool = True) -> Runner:
    return Runner(config.cache_dir, jobs=config.jobs or (os.cpu_count() or 1),
                  read_cache=read_cache)


def note_afresh(app: Sphinx) -> None:
    """At ``builder-inited``: an empty environment beside a saved one is ``-E``, which must
    run every snippet rather than trust the cache (a first build may use a restored cache)."""
    if (Path(app.doctreedir) / ENV_PICKLE_FILENAME).exists() and not app.env.all_docs:
        _AFRESH[app.env] = True


def warn_unconfined(app: Sphinx, config: Config) -> None:
    """One warning at the start of a build whose kernel cannot confine snippets as asked."""
    gap = missing_protection(landlock_abi(), early_config(app).confinement.mode)
    if gap is not None:
        where = config_location(Path(app.confdir), "verified_confine")
        logger.warning("%s; set verified_confine = 'off' to say that this is meant", gap,
                       location=where or f"{Path(app.confdir) / 'conf.py'}:1", type=TYPE,
                       subtype=Subtype.CONFINE.value)


def start_early(app: Sphinx, config: Config) -> None:
    """Start the worker at ``config-inited`` when the build will read every page.

    Its start (an interpreter importing numpy, about 0.1 s on its own core) then overlaps
    Sphinx's set-up instead of holding up the first checked page. A build with a saved
    environment may read nothing at all, and a book without a snippet folder has no snippet to
    run: their worker starts when a snippet is first needed, if ever.
    """
    if (Path(app.doctreedir) / ENV_PICKLE_FILENAME).exists():
        return
    verified = early_config(app)
    if not verified.snippet_dir.is_dir():
        return
    runner = _new_runner(verified)
    with contextlib.suppress(WorkerDied):  # the first snippet's run reports it, on its page
        runner.start()
    _EARLY[config] = runner


def run_snippet(env: BuildEnvironment, request: SnippetRequest) -> SnippetResult:
    """The result for one request: prefetched, cached, or run now."""
    state = _state(env)
    result = state.results.get(request)
    if result is not None:
        return result
    if state.batch is None:
        result = state.runner.run(request)
    else:
        index = state.indices.get(request)
        if index is None:  # a request the prefetch did not see: it goes first
            index = state.indices[request] = state.batch.add(request)
        result = _result_of(state.runner, state.batch, index)
    state.results[request] = result
    return result


def snippets_running(env: BuildEnvironment) -> bool:
    """Whether snippets started for the pages being read are still running (they have the
    core that reading leaves)."""
    state = _STATES.get(env)
    return state is not None and state.batch is not None and state.batch.running


def _result_of(runner: Runner, batch: RunningBatch, index: int) -> SnippetResult:
    """A result of the running batch; while the reader waits for it, snippets have its core."""
    batch.poll()
    if batch.done(index):
        return batch.result(index)
    runner.limit(runner.jobs)
    try:
        return batch.result(index)
    finally:
        runner.limit(_beside_reader(runner.jobs))


def _beside_reader(jobs: int) -> int:
    """Snippets to run at once while the reader is busy: one core is the reader's."""
    return max(1, jobs - 1)


def prefetch(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Start every snippet the pages about to be read will ask for, in reading order."""
    config = read_config(app)
    requests: list[SnippetRequest] = []
    for docname in docnames:
        requests.extend(_requests_in(config, Path(env.doc2path(docname))))
    forked_readers = app.parallel > 1
    state = _state(env)
    todo = list(dict.fromkeys(r for r in requests if r not in state.results))
    if not todo:
        return
    if forked_readers:  # Sphinx may fork readers: finish here, so each fork has the results
        with progress_message(f"running {len(todo)} snippets (or taking them from the cache)"):
            results = state.runner.run_many(todo)
        state.results.update(zip(todo, results, strict=True))
        return
    logger.info("running %d snippets (or taking them from the cache) while pages are read",
                len(todo))
    state.runner.limit(_beside_reader(state.runner.jobs))
    state.batch = state.runner.start_many(todo)
    state.indices = {request: index for index, request in enumerate(todo)}


def finish_prefetch(app: Sphinx, env: BuildEnvironment) -> None:
    """After reading: run what no page asked for, on every core, so that the summary counts
    every snippet and nothing runs while Sphinx writes."""
    state = _STATES.get(env)
    if state is not None and state.batch is not None:
        batch, state.batch, state.indices = state.batch, None, {}
        state.runner.limit(state.runner.jobs)
        batch.finish()


def outdated_by_runtime(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """Re-read every checked page when Python or numpy changed: their output may differ.

    The cache key already holds both versions; this makes the pages ask again.
    """
    now = environment_fingerprint()
    before = getattr(env, "verified_runtime", None)
    env.verified_runtime = now  # type: ignore[attr-defined]
    if before is None or before == now:
        return []
    return sorted(d for d, report in pages(env).items() if report.snippets and d not in changed)


def _requests_in(config: VerifiedConfig, source: Path) -> list[SnippetRequest]:
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return []
    requests = []
    for match in _DIRECTIVE.finditer(text):
        options = {m["name"]: m["value"] for m in _OPTION.finditer(match["options"])}
        try:
            path = resolve_snippet(config.snippet_dir, match["path"])
            timeout = float(options["timeout"]) if "timeout" in options else None
            data = [resolve_snippet(config.snippet_dir, d) for d in options.get("data", "").split()]
        except (SnippetPathError, ValueError):
            continue  # the directive itself reports it, with its line
        requests.append(request_for(config, path, timeout, data))
    return requests


def close(app: Sphinx, exception: BaseException | None) -> None:
    """Stop the worker at the end of the build, once the running batch (if any) has ended.

    A build that failed does not wait for the snippets no page asked for yet.
    """
    early = _EARLY.pop(app.config, None)  # a build that never ran a snippet
    if early is not None:
        early.close()
    state = _STATES.pop(app.env, None)
    if state is not None:
        if state.batch is not None:
            if exception is not None:
                state.runner.cancel()
            state.batch.finish()
        state.runner.close()


def setup_snippets(app: Sphinx) -> None:
    """Start the worker early, run the snippets of the pages to read at once, stop it at the end."""
    app.connect("config-inited", start_early, priority=900)  # once the configuration is valid
    app.connect("config-inited", warn_unconfined, priority=900)
    app.connect("builder-inited", note_afresh)
    app.connect("env-before-read-docs", prefetch)
    app.connect("env-updated", finish_prefetch)
    app.connect("env-get-outdated", outdated_by_runtime)
    app.connect("build-finished", close, priority=900)


#: The summary line's counts, as :func:`stats_line` writes them (the bench and mutation
#: scripts read them back from a build's log).
STATS_PATTERN = re.compile(r"snippets: (?P<run>\d+) run, (?P<cached>\d+) cached, "
                           r"(?P<failed>\d+) failed")


def stats_line(app: Sphinx) -> str | None:
    """The runner's counters for the summary line, or None if nothing ran in this build."""
    state = _STATES.get(app.env)
    if state is None:
        return None
    s = state.runner.stats
    return f"snippets: {s.run} run, {s.cached} cached, {s.failed} failed, {s.seconds:.2f} s"
