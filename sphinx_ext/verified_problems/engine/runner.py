"""Running snippets outside the Sphinx process: isolated, limited, parallel and cached.

The Sphinx side builds :class:`SnippetRequest` objects and asks a :class:`Runner` for their
:class:`SnippetResult`. A fresh interpreter per snippet would spend nearly all its time
importing numpy, and forking the large Sphinx process is slow, so the runner keeps one small
fork server (``worker.py``) that imports numpy once and forks a child per snippet. Successful
results are kept in a content-addressed cache (``cache.py``); failures always run again.

Nothing here imports Sphinx.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections import deque
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import ResultCache, snippet_key
from .outcome import file_tail

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import TracebackType

#: The fork server; run as a script, it imports nothing from this package.
WORKER_SCRIPT = Path(__file__).with_name("worker.py")

#: Seconds without any word from the worker, beyond the longest running timeout, before it is
#: declared hung. The worker enforces the timeouts itself; this only guards against the worker.
_PATIENCE = 60.0
_CANCELLED = "the build stopped before this snippet ran"
_READ_CHUNK = 1 << 20


@dataclass(frozen=True)
class Limits:
    """What one snippet may use; part of the cache key, since it can change the outcome."""

    timeout: float = 30.0  # seconds of wall time
    max_output: int = 8 * 1024 * 1024  # bytes of stdout (and of any file it writes)
    #: MiB: the address space of each process, and the private resident memory of all the
    #: snippet's processes together
    max_memory_mb: int = 4096
    max_processes: int = 64  # processes of the snippet's tree at once (itself included)

    def __post_init__(self) -> None:
        # One spelling per value, so ``timeout=30`` and ``timeout=30.0`` share a cache key.
        object.__setattr__(self, "timeout", float(self.timeout))
        object.__setattr__(self, "max_output", int(self.max_output))
        object.__setattr__(self, "max_memory_mb", int(self.max_memory_mb))
        object.__setattr__(self, "max_processes", int(self.max_processes))
        if not (self.timeout > 0 and self.max_output > 0 and self.max_memory_mb > 0
                and self.max_processes > 0):
            raise ValueError(f"limits must be positive: {self}")


@dataclass(frozen=True)
class Confinement:
    """What the kernel lets a snippet touch (``confine.py`` says what each mode allows).

    The snippet folder is always readable; ``read`` adds the book (never the build's own
    folders, which hold the cache and its key); ``write`` adds folders beyond the snippet's
    own temporary one (for tests that watch a snippet from outside). Files opened inside the
    snippet folder or ``read`` are the run's dependencies.
    """

    mode: str = "on"  # "on", "network" or "off"
    read: tuple[Path, ...] = ()
    write: tuple[Path, ...] = ()
    #: Record the files the snippet opens (its dependencies); off only to measure what that
    #: costs (``make bench``): a build always records them.
    track: bool = True


@dataclass(frozen=True)
class SnippetRequest:
    """One snippet to run; hashable, so the Sphinx side can key its results by request."""

    path: Path  # absolute, already resolved and validated by the caller
    snippet_dir: Path  # the snippet folder; local modules imported from it are dependencies
    limits: Limits = field(default_factory=Limits)
    data_files: tuple[Path, ...] = ()  # files the snippet declares it reads (in the cache key)
    confinement: Confinement = field(default_factory=Confinement)


class Failure(StrEnum):
    """Why a snippet produced no transcript to check; each maps to one message for authors."""

    CRASH = "crash"  # an exception, sys.exit(non-zero) or a fatal signal
    TIMEOUT = "timeout"  # still running at the deadline; its process group was killed
    EMPTY = "empty"  # printed nothing
    UNDECODABLE = "undecodable"  # printed bytes that are not UTF-8
    OUTPUT_LIMIT = "output-limit"  # printed (or wrote) more than max_output bytes
    MEMORY = "memory"  # ran out of its address space, or its processes together of memory
    PROCESSES = "processes"  # ran more processes at once than max_processes
    ORPHAN = "orphan"  # left a background process running (killed)
    MISSING = "missing"  # the snippet or a declared data file does not exist
    WORKER = "worker"  # the fork server itself died; the snippet was not judged


@dataclass(frozen=True)
class SnippetResult:
    """What a snippet printed, or why it could not be checked, and what it depended on."""

    stdout: str  # decoded UTF-8 (best effort, with replacement characters, on UNDECODABLE)
    failure: Failure | None
    message: str  # one sentence for a book author when failure is set, '' otherwise
    snippet_line: int | None  # CRASH: line of the innermost frame inside the snippet folder
    crash_file: Path | None  # CRASH: that frame's file (the snippet or a local module)
    seconds: float  # wall time of the run (of the original run when cached)
    cached: bool
    key: str  # hex content hash the cache used ('' when the snippet is MISSING)
    #: local modules imported from snippet_dir, files it opened in the project, data_files
    dependencies: tuple[Path, ...]
    #: The script as it ran (the bytes its key hashed), for the page to show; None: MISSING.
    script: str | None = None
    #: (path, sha256) of each dependency the run found, hashed as the run ended (for the cache).
    digests: tuple[tuple[str, str], ...] = ()

    @property
    def ok(self) -> bool:
        """True when the snippet printed a transcript worth checking."""
        return self.failure is None


@dataclass
class RunStats:
    """Counters for the build's summary line (per process: a fork gets a copy)."""

    run: int = 0  # snippets executed
    cached: int = 0  # answered from the cache
    failed: int = 0  # results with a failure, MISSING included
    seconds: float = 0.0  # wall time of the executed runs


def worker_environment(home: Path) -> dict[str, str]:
    """The worker's whole environment: reproducible, single-threaded BLAS, nothing inherited.

    PYTHONPATH and the rest of the caller's variables are left out on purpose: a snippet must
    behave as it does when an author runs ``python snippet.py`` in a clean shell.
    """
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "LANG": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONUTF8": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
        "HOME": str(home),
    }


#: Memory-backed (tmpfs) on Linux; see :func:`scratch_root`.
_SHARED_MEMORY = Path("/dev/shm")


def scratch_root() -> str | None:
    """Where the worker's folder goes: in memory if it can be, else the temporary folder.

    Every snippet gets a folder of its own with three files, made and removed around its run.
    On a disk each of those changes goes through the file system's journal, beside the build's
    own files; in memory a snippet's run costs ~0.9 ms less (5.3 against 6.2 ms, measured on
    its own). A ``TMPDIR`` that is set is used as it is.
    """
    if os.environ.get("TMPDIR"):
        return None
    if _SHARED_MEMORY.is_dir() and os.access(_SHARED_MEMORY, os.W_OK | os.X_OK):
        return str(_SHARED_MEMORY)
    return None


class WorkerDied(RuntimeError):
    """The fork server exited, broke the protocol or stopped answering."""


class _Worker:
    """One running fork server and its pipes, owned by the process that started it."""

    def __init__(self, jobs: int) -> None:
        self.owner = os.getpid()
        self.concurrency = jobs  # snippets the worker runs at once, as last told
        self.folder = Path(tempfile.mkdtemp(prefix="verified-problems-", dir=scratch_root()))
        home = self.folder / "home"
        home.mkdir()
        command = [sys.executable, "-s", "-P", str(WORKER_SCRIPT)]
        command += ["--jobs", str(jobs), "--root", str(self.folder)]
        try:
            with (self.folder / "worker.log").open("wb") as log:
                # -s -P and a clean environment isolate like -I, which would also drop
                # PYTHONHASHSEED (it implies -E) and so make hash() differ between builds.
                self.process = subprocess.Popen(
                    command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    env=worker_environment(home),
                    cwd=home,
                    bufsize=0,
                    start_new_session=True,  # a Ctrl-C in the terminal is the build's
                )
        except OSError as error:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise WorkerDied(f"the snippet runner's worker could not start: {error}") from error
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        os.set_blocking(self.stdin.fileno(), False)
        self.outgoing = bytearray()
        self.incoming = bytearray()
        self.groups: dict[int, int] = {}  # request id -> the snippet's process group
        self.heard = time.monotonic()

    def submit(self, request_id: int, pending: _Pending) -> None:
        """Queue a request line; it is written as the pipe accepts it, in ``exchange``."""
        request = pending.request
        confinement = request.confinement
        message = {
            "id": request_id,
            "path": str(request.path),
            "source": pending.source.decode("utf-8", "surrogateescape"),
            "snippet_dir": str(pending.snippet_dir),
            **asdict(request.limits),
            "confine": confinement.mode,
            "read": [str(pending.snippet_dir), *map(str, confinement.read)],
            "write": list(map(str, confinement.write)),
            "project": [str(pending.snippet_dir), *map(str, confinement.read)],
            "track": confinement.track,
        }
        if not self.outgoing and not self.groups:
            self.heard = time.monotonic()  # patience counts from now, not from the last batch
        self.outgoing += (json.dumps(message) + "\n").encode()

    def limit(self, jobs: int) -> None:
        """Ask the worker to run at most ``jobs`` snippets at once from now on."""
        self.concurrency = jobs
        self.outgoing += (json.dumps({"jobs": jobs}) + "\n").encode()

    def exchange(self, patience: float, wait: bool = True) -> list[dict[str, Any]]:
        """Write what is pending and read what has arrived, never blocking on either pipe;
        ``wait``: until something arrives (within ``patience``), else not at all."""
        poller = select.poll()
        poller.register(self.stdout.fileno(), select.POLLIN)
        if self.outgoing:
            poller.register(self.stdin.fileno(), select.POLLOUT)
        timeout = max(0, int((self.heard + patience - time.monotonic()) * 1000)) + 1
        ready = dict(poller.poll(timeout if wait else 0))
        if self.stdin.fileno() in ready:
            self._write()
        if self.stdout.fileno() in ready:
            self._read()
        elif time.monotonic() - self.heard > patience:
            raise WorkerDied("the snippet runner's worker stopped answering and was stopped")
        return self._events()

    def _write(self) -> None:
        try:
            written = os.write(self.stdin.fileno(), self.outgoing)
        except BlockingIOError:
            return
        except OSError as error:
            raise WorkerDied(self.epitaph()) from error
        del self.outgoing[:written]

    def _read(self) -> None:
        chunk = os.read(self.stdout.fileno(), _READ_CHUNK)
        if not chunk:
            raise WorkerDied(self.epitaph())
        self.incoming += chunk
        self.heard = time.monotonic()

    def _events(self) -> list[dict[str, Any]]:
        end = self.incoming.rfind(b"\n")
        if end < 0:
            return []
        lines = self.incoming[:end].split(b"\n")
        del self.incoming[: end + 1]
        try:
            events = [json.loads(line) for line in lines if line.strip()]
        except ValueError as error:
            raise WorkerDied("the snippet runner's worker broke its protocol") from error
        return [e for e in events if isinstance(e, dict)]

    def epitaph(self) -> str:
        """One sentence on how the worker ended, with the last line it wrote to stderr."""
        try:
            status: int | None = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            status = None
        lines = file_tail(self.folder / "worker.log").strip().splitlines()
        last = f": {lines[-1]}" if lines else ""
        return f"the snippet runner's worker died (status {status}) before it finished{last}"

    def kill(self) -> None:
        """Stop everything at once: the worker, then its snippets' groups, then its folder.

        The worker goes first so that it forks nothing more; what it said before dying is read
        for the groups of snippets it started, which would otherwise run on as orphans.
        """
        with contextlib.suppress(OSError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._drain()
        for group in self.groups.values():
            with contextlib.suppress(OSError):
                os.killpg(group, signal.SIGKILL)
        self._finish(timeout=10)

    def _drain(self) -> None:
        """Read the dead worker's last lines, noting the snippets it started."""
        poller = select.poll()
        poller.register(self.stdout.fileno(), select.POLLIN)
        with contextlib.suppress(OSError):
            while poller.poll(1000):
                chunk = os.read(self.stdout.fileno(), _READ_CHUNK)
                if not chunk:
                    break
                self.incoming += chunk
        for line in self.incoming.split(b"\n"):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                event = json.loads(line)
                if event["event"] == "started":
                    self.groups[int(event["id"])] = int(event["pid"])
                elif event["event"] == "done":
                    self.groups.pop(int(event["id"]), None)
        self.incoming.clear()

    def close(self) -> None:
        """End of input stops the worker, which kills its running snippets; else kill it."""
        if os.getpid() != self.owner:
            self.abandon()
            return
        with contextlib.suppress(OSError):
            self.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
            return
        self._finish(timeout=10)

    def abandon(self) -> None:
        """In a forked child: close our copies of the parent's pipes, never write or signal."""
        for pipe in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                pipe.close()  # unbuffered: closing writes nothing

    def _finish(self, timeout: float) -> None:
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            self.process.wait(timeout=timeout)
        for pipe in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                pipe.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class _Slot:
    """Holds the current worker, so a finalizer can stop it without holding the Runner."""

    def __init__(self) -> None:
        self.worker: _Worker | None = None

    def close(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.close()

    def discard(self) -> None:
        worker, self.worker = self.worker, None
        if worker is not None:
            if worker.owner == os.getpid():
                worker.kill()
            else:
                worker.abandon()


@dataclass(frozen=True)
class _Pending:
    index: int
    request: SnippetRequest
    snippet_dir: Path  # resolved
    key: str
    source: bytes  # the script's bytes the key hashed: the worker runs these


class Runner:
    """Runs snippets through one fork server per process, answering from the cache first.

    The worker starts on first need. If the process that uses the runner is a fork of the one
    that created it (Sphinx's parallel readers fork), it starts its own worker and leaves the
    parent's pipes alone.
    """

    def __init__(self, cache_dir: Path | None, jobs: int = 0, read_cache: bool = True) -> None:
        self.jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
        #: False: every snippet runs (``sphinx-build -E``); its results are still stored.
        self.read_cache = read_cache
        #: Snippets to run at once for now, at most ``jobs`` (see :meth:`limit`).
        self.concurrency = self.jobs
        self.cancelled = False  # see :meth:`cancel`
        self.cache = ResultCache(cache_dir) if cache_dir is not None else None
        self.stats = RunStats()
        self._slot = _Slot()
        self._ids = itertools.count(1)
        self._finalizer = weakref.finalize(self, self._slot.close)

    def __enter__(self) -> Runner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker (it kills any snippet still running); safe to call twice."""
        self._slot.close()

    @property
    def worker_pid(self) -> int | None:
        """The process id of this runner's worker while it runs (None before it starts and
        once it is closed): a build's end can be seen to stop it."""
        worker = self._slot.worker
        return worker.process.pid if worker is not None else None

    def start(self) -> None:
        """Start the worker now rather than at the first run, so that its start overlaps other
        work; a worker that cannot start raises :class:`WorkerDied` here."""
        self._worker()

    def cancel(self) -> None:
        """From now on, run nothing that is not running yet: it fails as not run.

        For a build that stopped: final for this runner; a running batch fails what it has
        not handed to the worker yet.
        """
        self.cancelled = True

    def limit(self, concurrency: int) -> None:
        """Run at most ``concurrency`` snippets at once (within ``jobs``), from the next one on.

        Safe to call from another thread than the one running ``run_many``: it only sets a
        number, which that thread passes on to the worker.
        """
        self.concurrency = max(1, min(self.jobs, concurrency))

    def run(self, request: SnippetRequest) -> SnippetResult:
        """The result of one snippet: cached, or run now."""
        return self.run_many([request])[0]

    def run_many(self, requests: Sequence[SnippetRequest]) -> list[SnippetResult]:
        """Results in the order asked: cached ones at once, the rest run up to ``jobs`` at once."""
        return self.start_many(requests).finish()

    def start_many(self, requests: Sequence[SnippetRequest]) -> RunningBatch:
        """Start the requests and return at once: the caller goes on with its own work and
        moves the batch along (:meth:`RunningBatch.poll`) until it asks for a result."""
        return RunningBatch(self, requests)

    def _prepare(self, index: int, request: SnippetRequest) -> SnippetResult | _Pending:
        """A MISSING or cached result, or the pending run with its key."""
        for path in (request.path, *request.data_files):
            if not path.is_file():
                what = "snippet" if path == request.path else "data file the snippet declares"
                return _missing(f"the {what} {path} does not exist")
        snippet_dir = request.snippet_dir.resolve()
        try:
            source = request.path.read_bytes()
            key = snippet_key(
                request.path, snippet_dir, asdict(request.limits), request.data_files,
                source=source, confine=request.confinement.mode,
            )
        except OSError as error:
            return _missing(f"could not read {error.filename}: {error.strerror}")
        hit = None
        if self.cache is not None and self.read_cache:
            hit = self.cache.get(key, snippet_dir)
        if hit is None:
            return _Pending(index, request, snippet_dir, key, source)
        return SnippetResult(
            stdout=hit.stdout,
            failure=None,
            message="",
            snippet_line=None,
            crash_file=None,
            seconds=hit.seconds,
            cached=True,
            key=key,
            dependencies=_dependencies(hit.modules, request),
            script=_text(source),
        )

    def _worker(self) -> _Worker:
        """The worker of this process, started now if needed (also after a fork)."""
        worker = self._slot.worker
        if worker is not None and worker.owner != os.getpid():
            self._slot.discard()  # the parent's: abandoned, not touched
            worker = None
        if worker is None:
            worker = self._slot.worker = _Worker(self.jobs)
        return worker

    def _remember(self, pending: _Pending, result: SnippetResult) -> None:
        if self.cache is None or not result.ok:
            return
        modules = [p for p in result.dependencies if p not in pending.request.data_files]
        self.cache.put(pending.key, pending.snippet_dir, result.stdout, result.seconds, modules,
                       {Path(p): d for p, d in result.digests})

    def _count(self, result: SnippetResult) -> None:
        executed = not result.cached and result.failure is not Failure.MISSING
        self.stats.run += executed
        self.stats.cached += result.cached
        self.stats.failed += not result.ok
        self.stats.seconds += result.seconds if executed else 0.0


class RunningBatch:
    """Snippets that run while their caller does other work, in the caller's own thread.

    Nothing runs in the background here: each :meth:`poll` hands the worker what it has room
    for and takes the results it finished, without waiting, and :meth:`result` waits for one.
    The worker keeps a few requests queued, so it runs on between polls. (A thread of the
    caller's would have to take Python's interpreter lock for every result, and every time the
    caller let it go, for a file read or written, the caller would wait to get it back.)
    """

    def __init__(self, runner: Runner, requests: Sequence[SnippetRequest]) -> None:
        self.runner = runner
        self.size = len(requests)
        self.results: dict[int, SnippetResult] = {}
        #: Runs to put into the cache when the batch ends (see :meth:`_save`).
        self.unsaved: list[tuple[_Pending, SnippetResult]] = []
        self.queue: deque[_Pending] = deque()
        self.inflight: dict[int, _Pending] = {}
        for index, request in enumerate(requests):
            prepared = runner._prepare(index, request)
            if isinstance(prepared, SnippetResult):
                self._record(index, prepared)
            else:
                self.queue.append(prepared)
        self.poll()

    def add(self, request: SnippetRequest) -> int:
        """Ask for one more snippet, ahead of those queued (it is wanted now); its index."""
        index = self.size
        self.size += 1
        prepared = self.runner._prepare(index, request)
        if isinstance(prepared, SnippetResult):
            self._record(index, prepared)
        else:
            self.queue.appendleft(prepared)
        return index

    def done(self, index: int) -> bool:
        """Whether the result of the ``index``-th request is known."""
        return index in self.results

    @property
    def running(self) -> bool:
        """Whether some request is still queued or running (as of the last poll)."""
        return bool(self.queue or self.inflight)

    def poll(self) -> None:
        """Move the batch along without waiting."""
        self._step(wait=False)

    def result(self, index: int) -> SnippetResult:
        """The result of the ``index``-th request, waiting for it if it is not known yet."""
        while index not in self.results:
            if not (self.queue or self.inflight):
                raise KeyError(f"no request {index} in this batch")
            self._step(wait=True)
        return self.results[index]

    def finish(self) -> list[SnippetResult]:
        """Every result, in the order asked, once all have run (and are cached)."""
        while self.queue or self.inflight:
            self._step(wait=True)
        self._save()
        return [self.results[i] for i in range(self.size)]

    def _step(self, wait: bool) -> None:
        """Submit what the worker has room for, then handle what it said (or wait for it)."""
        runner = self.runner
        while runner.cancelled and self.queue:
            pending = self.queue.popleft()
            self._record(pending.index, _failed(pending, Failure.WORKER, _CANCELLED),
                              pending)
        if not (self.queue or self.inflight):
            return
        try:
            worker = runner._worker()
        except WorkerDied as death:
            while self.queue:  # no worker to be had: every request fails, none waits forever
                pending = self.queue.popleft()
                self._record(pending.index, _failed(pending, Failure.WORKER, str(death)),
                                  pending)
            return
        try:
            if worker.concurrency != runner.concurrency:
                worker.limit(runner.concurrency)
            window = 2 * runner.jobs  # keeps the worker busy without flooding its pipe
            while self.queue and len(self.inflight) < window:
                pending = self.queue.popleft()
                request_id = next(runner._ids)
                self.inflight[request_id] = pending
                worker.submit(request_id, pending)
            patience = _PATIENCE + max(p.request.limits.timeout for p in self.inflight.values())
            for event in worker.exchange(patience, wait=wait):
                self._handle(event, worker)
        except WorkerDied as death:
            runner._slot.discard()
            for pending in self.inflight.values():
                self._record(pending.index, _failed(pending, Failure.WORKER, str(death)),
                                  pending)
            self.inflight.clear()

    def _record(self, index: int, result: SnippetResult, pending: _Pending | None = None) -> None:
        """Keep one result and count it (``pending``: it was run, to be cached)."""
        if pending is not None:
            self.unsaved.append((pending, result))
        self.runner._count(result)
        self.results[index] = result

    def _save(self) -> None:
        """Put the batch's runs into the cache.

        Not as each comes: creating a file while snippets run costs many times what it costs
        once they are done (the file system is busy with their folders), and the reader, who
        moves the batch along, would wait for it.
        """
        for pending, result in self.unsaved:
            self.runner._remember(pending, result)
        self.unsaved.clear()

    def _handle(self, event: dict[str, Any], worker: _Worker) -> None:
        kind, request_id = event.get("event"), event.get("id")
        if kind == "started" and isinstance(request_id, int):
            worker.groups[request_id] = int(event["pid"])
        elif kind == "done" and isinstance(request_id, int) and request_id in self.inflight:
            worker.groups.pop(request_id, None)
            pending = self.inflight.pop(request_id)
            self._record(pending.index, _from_reply(pending, event), pending)


def _dependencies(modules: Sequence[Path], request: SnippetRequest) -> tuple[Path, ...]:
    return tuple(dict.fromkeys((*modules, *request.data_files)))


def _text(source: bytes) -> str:
    """The script as text, as ``Path.read_text`` gives it (universal newlines), for the page."""
    return source.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n")


def _missing(message: str) -> SnippetResult:
    return SnippetResult("", Failure.MISSING, message, None, None, 0.0, False, "", ())


def _failed(pending: _Pending, failure: Failure, message: str) -> SnippetResult:
    return SnippetResult(
        "", failure, message, None, None, 0.0, False, pending.key, pending.request.data_files,
        script=_text(pending.source),
    )


def _from_reply(pending: _Pending, reply: dict[str, Any]) -> SnippetResult:
    """The result a worker's ``done`` line describes."""
    failure = reply.get("failure")
    crash_file = reply.get("crash_file")
    modules = [Path(m) for m in (*reply.get("modules", []), *reply.get("opened", []))]
    return SnippetResult(
        stdout=str(reply.get("stdout", "")),
        failure=Failure(failure) if failure else None,
        message=str(reply.get("message", "")),
        snippet_line=reply.get("snippet_line"),
        crash_file=Path(crash_file) if crash_file else None,
        seconds=float(reply.get("seconds", 0.0)),
        cached=False,
        key=pending.key,
        dependencies=_dependencies(modules, pending.request),
        script=_text(pending.source),
        digests=tuple((str(p), str(d)) for p, d in dict(reply.get("digests", {})).items()),
    )
