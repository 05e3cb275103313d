"""The engine: snippets run outside the Sphinx process, confined, limited, parallel and cached.

:class:`Runner` keeps one small fork server (:mod:`.worker`, a script with numpy preloaded)
that forks a child per snippet; :class:`RunningBatch` moves a batch of runs along while pages
are read. Successful results go into a content-addressed :class:`ResultCache`, so an unchanged
book runs no snippet. :class:`Forked` is a forked helper that does a caller's jobs on a core
the caller leaves idle (the build checks pages in one). Nothing here imports Sphinx: a build,
a benchmark or another tool asks for :class:`SnippetResult` objects with
:class:`SnippetRequest` objects.
"""

from __future__ import annotations

from .cache import CACHE_FORMAT, ResultCache, environment_fingerprint, snippet_key
from .confine import MODES as CONFINE_MODES
from .confine import landlock_abi, missing_protection, readable_beneath
from .files import write_whole
from .forked import Forked, can_fork
from .runner import (
    Confinement,
    Failure,
    Limits,
    Runner,
    RunningBatch,
    RunStats,
    SnippetRequest,
    SnippetResult,
    WorkerDied,
    worker_environment,
)

__all__ = [
    "CACHE_FORMAT",
    "CONFINE_MODES",
    "Confinement",
    "Failure",
    "Forked",
    "Limits",
    "ResultCache",
    "RunStats",
    "Runner",
    "RunningBatch",
    "SnippetRequest",
    "SnippetResult",
    "WorkerDied",
    "can_fork",
    "environment_fingerprint",
    "landlock_abi",
    "missing_protection",
    "readable_beneath",
    "snippet_key",
    "worker_environment",
    "write_whole",
]
