"""Finding and running the book's snippets from Sphinx: path rules, one runner, prefetching.

All snippets a build needs are run together, in parallel, before any page is read
(``env-before-read-docs``); the directive then finds its result in memory or in the cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from sphinx.util import logging
from sphinx.util.display import progress_message

from .cache import environment_fingerprint
from .collector import pages
from .config import VerifiedConfig, env_config, read_config
from .runner import Limits, Runner, SnippetRequest, SnippetResult

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.application import Sphinx
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
    root = snippet_dir.resolve()
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
    )


@dataclass
class _State:
    runner: Runner
    results: dict[SnippetRequest, SnippetResult]


#: One runner per build environment (and so per process: a forked reader gets its own worker).
_STATES: WeakKeyDictionary[BuildEnvironment, _State] = WeakKeyDictionary()


def _state(env: BuildEnvironment) -> _State:
    state = _STATES.get(env)
    if state is None:
        config = env_config(env)
        state = _State(Runner(config.cache_dir, jobs=config.jobs), {})
        _STATES[env] = state
    return state


def run_snippet(env: BuildEnvironment, request: SnippetRequest) -> SnippetResult:
    """The result for one request: prefetched, cached, or run now."""
    state = _state(env)
    result = state.results.get(request)
    if result is None:
        result = state.runner.run(request)
        state.results[request] = result
    return result


def prefetch(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Run every snippet the pages about to be read will ask for, all at once."""
    config = read_config(app)
    requests: list[SnippetRequest] = []
    for docname in docnames:
        requests.extend(_requests_in(config, env.doc2path(docname)))
    state = _state(env)
    todo = list(dict.fromkeys(r for r in requests if r not in state.results))
    if not todo:
        return
    with progress_message(f"running {len(todo)} snippets (or taking them from the cache)"):
        results = state.runner.run_many(todo)
    state.results.update(zip(todo, results, strict=True))


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
    """Stop the worker at the end of the build."""
    state = _STATES.pop(app.env, None)
    if state is not None:
        state.runner.close()


def stats_line(app: Sphinx) -> str | None:
    """The runner's counters for the summary line, or None if nothing ran in this build."""
    state = _STATES.get(app.env)
    if state is None:
        return None
    s = state.runner.stats
    return f"snippets: {s.run} run, {s.cached} cached, {s.failed} failed, {s.seconds:.2f} s"
