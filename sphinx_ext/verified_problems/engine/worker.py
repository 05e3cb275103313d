"""A small fork server that runs snippets: started once, with numpy already imported.

Run as ``python -s -P worker.py --jobs N --root DIR`` with a clean environment. It imports
nothing from the package (it is a script; ``-P`` keeps its own folder, whose ``numbers.py``
would shadow the standard library's, off ``sys.path``), preloads numpy if it can, and serves
requests as JSON lines on stdin, one reply line per event on stdout:

- request: ``{"id", "path", "source", "snippet_dir", "timeout", "max_output",
  "max_memory_mb", "max_processes", "confine", "read", "write", "project", "track"}``
  (``source``: the bytes the caller hashed, as text with ``surrogateescape``: the run never
  reads the file);
- replies: ``{"event": "ready", "landlock"}`` once (the kernel's Landlock ABI, 0 for none),
  ``{"event": "started", "id", "pid"}`` when a snippet's process exists (so the caller can
  kill its group should this server die), and
  ``{"event": "done", "id", "stdout", "failure", "message", "crash_file", "snippet_line",
  "seconds", "modules", "opened", "digests"}`` (``opened``: the files inside ``project`` the
  snippet opened; ``digests``: their sha256, and the modules', as the run ended).

The child confines itself (``confine.py``: Landlock) before the snippet's first line and
records every file the snippet opens; the server watches each snippet's whole process tree
(``tree.py``) against the memory and process caps.

Why a fork server: importing numpy is nearly all the cost of running a snippet in a fresh
interpreter; a child forked from a small process that already imported it starts in a few
milliseconds. The loop is single-threaded (forking from a threaded process is unsafe): it
waits on stdin and on one pidfd per running child, with deadlines for the timeouts.
End of input stops the server: every running snippet's process group is killed first.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import gc
import hashlib
import importlib.util
import io
import json
import linecache
import os
import resource
import runpy
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn


def _sibling(name: str) -> ModuleType:
    """A module of this folder, loaded by its path (run as a script, this has no package)."""
    spec = importlib.util.spec_from_file_location(f"_verified_{name}", Path(__file__).with_name(
        f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING or __package__:
    from . import confine, outcome, tree
else:
    confine, outcome, tree = (_sibling(name) for name in ("confine", "outcome", "tree"))

_READ_CHUNK = 1 << 16
_STDIN_HINT = (
    " (the snippet read standard input, which is empty at build time: write the values into "
    "the snippet, or read them from a data file)"
)


@dataclass(frozen=True)
class Job:
    """One request: which snippet to run and within which limits."""

    id: int
    path: str
    snippet_dir: str
    timeout: float
    max_output: int
    max_memory_mb: int
    source: str | None = None  # the script's bytes (surrogateescape); None: read the file
    max_processes: int = 64  # processes of the snippet's tree at once
    confine: str = "on"  # confine.MODES
    read: tuple[str, ...] = ()  # folders beyond Python's the snippet may read (the book)
    write: tuple[str, ...] = ()  # folders beyond its own it may write (tests observe here)
    project: tuple[str, ...] = ()  # where an opened file is a dependency
    track: bool = True  # record the files it opens

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Job:
        """The job a request asks for (fields are checked by their types)."""
        return cls(
            id=int(data["id"]),
            path=str(data["path"]),
            snippet_dir=str(data["snippet_dir"]),
            timeout=float(data["timeout"]),
            max_output=int(data["max_output"]),
            max_memory_mb=int(data["max_memory_mb"]),
            source=data["source"] if isinstance(data.get("source"), str) else None,
            max_processes=int(data.get("max_processes", 64)),
            confine=str(data.get("confine", "on")),
            read=tuple(map(str, data.get("read", ()))),
            write=tuple(map(str, data.get("write", ()))),
            project=tuple(map(str, data.get("project", ()))),
            track=bool(data.get("track", True)),
        )

    def text(self) -> str:
        """The script as the caller hashed it (or as the file now is, if it sent none), with
        universal newlines as ``read_text`` gives it (the page shows the same text)."""
        if self.source is not None:
            text = self.source.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            return text.replace("\r\n", "\n").replace("\r", "\n")
        return Path(self.path).read_text(encoding="utf-8")

    def code_bytes(self) -> bytes:
        """The script's bytes, for ``compile`` (which honours a coding declaration)."""
        if self.source is not None:
            return self.source.encode("utf-8", "surrogateescape")
        return Path(self.path).read_bytes()


@dataclass
class Running:
    """A forked child and what the server needs to finish it."""

    job: Job
    pid: int
    pidfd: int
    folder: Path
    started: float
    deadline: float
    timed_out: bool = False
    next_check: float = 0.0  # when its tree is measured next
    over: str | None = None  # MEMORY or PROCESSES: the tree went past that cap and was killed


# ---------------------------------------------------------------------------------------------
# The child: everything below runs in the forked process, which always ends in os._exit.


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _real(path: str) -> str:
    return os.path.realpath(path)


def child_main(
    job: Job, folder: Path, inherited: list[int], before: frozenset[str],
    rules: tuple[Any, int | OSError | None],
) -> NoReturn:
    """Run one snippet in this fresh fork and exit with its status; never returns.

    ``before`` names the modules imported when the server forked: any other module is one
    the snippet imported.
    """
    status = 70
    try:
        status = _child_run(job, folder, inherited, before, rules)
    except BaseException:  # the server's own fault; stderr says what
        with contextlib.suppress(BaseException):
            traceback.print_exc()
            sys.stderr.flush()
    finally:
        os._exit(status)


def _child_run(
    job: Job, folder: Path, inherited: list[int], before: frozenset[str],
    confinement: tuple[Any, int | OSError | None],
) -> int:
    """Set the process up (session, streams, limits, confinement), run, record the side."""
    rules, ruleset = confinement
    os.setsid()
    tree.become_subreaper()  # a descendant that leaves the session is still adopted, and found
    for fd in inherited:
        with contextlib.suppress(OSError):
            os.close(fd)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # Python ignores it; a big print must stop
    _redirect(folder)
    os.chdir(folder / "cwd")
    os.environ["TMPDIR"] = str(folder / "cwd")  # the one folder it may write
    tempfile.tempdir = None
    _limit(resource.RLIMIT_FSIZE, job.max_output)
    _limit(resource.RLIMIT_AS, job.max_memory_mb * 1024 * 1024)
    code = _compiled(job)
    rules.enforce(ruleset)
    rules.close()
    opened = confine.OpenedFiles()
    if job.track:
        opened.install()
    sys.argv = [job.path]
    sys.path.insert(0, str(Path(job.path).parent))
    side = _execute(job, code)
    with contextlib.suppress(ValueError):  # a snippet may have closed them
        sys.stdout.flush()  # may raise SIGXFSZ: the parent sees the signal
        sys.stderr.flush()
    side["modules"] = _local_modules(before, job)
    side["opened"] = opened.inside(job.project, [_real(job.path), *side["modules"]])
    side["digests"] = _digests([*side["modules"], *side["opened"]])
    if tree.kill_children():
        side["orphan"] = True
    if side != {"status": 0, "modules": [], "opened": [], "digests": {}}:  # no side file: faster
        _write_side(folder, side)
    return int(side["status"])


def _redirect(folder: Path) -> None:
    """stdin from /dev/null; stdout and stderr to files (never pipes: no deadlock)."""
    targets = (
        (0, os.devnull, os.O_RDONLY),
        (1, str(folder / "stdout"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, str(folder / "stderr"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    )
    for target, name, flags in targets:
        fd = os.open(name, flags, 0o600)
        os.dup2(fd, target)
        os.close(fd)
    out_errors = sys.stdout.errors if sys.stdout is not None else "strict"
    streams = {
        "stdin": io.TextIOWrapper(io.BufferedReader(_Stdin(0, closefd=False)), encoding="utf-8"),
        "stdout": open(1, "w", encoding="utf-8", errors=out_errors, closefd=False),  # noqa: SIM115
        "stderr": open(  # noqa: SIM115
            2, "w", encoding="utf-8", errors="backslashreplace", closefd=False
        ),
    }
    for name, stream in streams.items():  # fresh objects: nothing buffered by the server
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


class _Stdin(io.FileIO):
    """Standard input (``/dev/null``) that remembers being read, to explain a crash after it.

    Every read through ``sys.stdin`` (``input()``, ``read``, iteration, ``.buffer``) ends here.
    """

    was_read = False

    def readinto(self, buffer: Any, /) -> int:
        _Stdin.was_read = True
        return super().readinto(buffer)

    def read(self, size: int | None = -1, /) -> bytes:
        _Stdin.was_read = True
        return super().read(size)

    def readall(self) -> bytes:
        _Stdin.was_read = True
        return super().readall()


def _limit(which: int, value: int) -> None:
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, hard))


def _compiled(job: Job) -> Any:
    """The snippet's code from the bytes the caller hashed (a SyntaxError is the snippet's).

    Its lines go into ``linecache`` too, so that a traceback quotes the script that ran.
    """
    text = job.text()
    linecache.cache[job.path] = (len(text), None, text.splitlines(keepends=True), job.path)
    try:
        return compile(job.code_bytes(), job.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        return error


def _execute(job: Job, code: Any) -> dict[str, Any]:
    """Run the snippet as ``__main__``; the side record says how it ended."""
    atexit._clear()
    record: dict[str, Any] = {"status": 0}
    try:
        if isinstance(code, BaseException):
            raise code
        runpy._run_module_code(code, None, "__main__", None, "", job.path)  # type: ignore[attr-defined]
    except SystemExit as stop:
        record = _exit_record(stop, job)
    except BaseException as error:  # the snippet's own failure, reported
        _print_traceback(error, job.path)
        record = _crash_record(error, job, _exception_line(error))
    _finalize()
    if record["status"] != 0 and _Stdin.was_read:
        record["message"] += _STDIN_HINT
    return record


def _finalize() -> None:
    """What the interpreter does at exit: wait for non-daemon threads, run atexit handlers."""
    threading = sys.modules.get("threading")
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        with contextlib.suppress(BaseException):
            shutdown()
    atexit._run_exitfuncs()  # errors are printed, not raised


def _exit_record(stop: SystemExit, job: Job) -> dict[str, Any]:
    code = stop.code
    if code is None or code == 0:
        return {"status": 0}
    if isinstance(code, int):
        return _crash_record(stop, job, f"the snippet called sys.exit({code})", status=code)
    print(code, file=sys.stderr)
    return _crash_record(stop, job, f"the snippet called sys.exit({code!r})")


def _crash_record(error: BaseException, job: Job, message: str, status: int = 1) -> dict[str, Any]:
    crash_file, line = _last_local_frame(error, _real(job.snippet_dir))
    return {
        "status": status & 0xFF or 1,
        "message": message,
        "crash_file": crash_file,
        "snippet_line": line,
        "memory": isinstance(error, MemoryError),
        "too_big": isinstance(error, OSError) and error.errno == errno.EFBIG,
    }


def _exception_line(error: BaseException) -> str:
    """``ZeroDivisionError: division by zero``: the line a traceback ends with."""
    text = "".join(traceback.format_exception_only(type(error), error))
    lines = [line for line in text.splitlines() if line and not line[0].isspace()]
    return lines[0] if lines else type(error).__name__


def _last_local_frame(error: BaseException, snippet_dir: str) -> tuple[str | None, int | None]:
    """File and line of the innermost traceback frame inside the snippet folder."""
    if isinstance(error, SyntaxError) and error.filename and error.lineno:
        where = _real(error.filename)
        if _inside(where, snippet_dir):
            return where, error.lineno
    found: tuple[str | None, int | None] = (None, None)
    for frame in traceback.extract_tb(error.__traceback__):
        where = _real(frame.filename)
        if _inside(where, snippet_dir):
            found = (where, frame.lineno)
    return found


def _print_traceback(error: BaseException, path: str) -> None:
    """The traceback as ``python snippet.py`` prints it: the server's frames left out."""
    tb = error.__traceback__
    target = _real(path)
    while tb is not None and _real(tb.tb_frame.f_code.co_filename) != target:
        tb = tb.tb_next
    traceback.print_exception(type(error), error, tb, file=sys.stderr)


def _local_modules(before: frozenset[str], job: Job) -> list[str]:
    """Files of the modules the snippet imported from inside the snippet folder.

    Only the new names are looked up: touching every module object would copy its memory
    page from the server (copy-on-write), which is most of what a fork costs.
    """
    folder, own = _real(job.snippet_dir), _real(job.path)
    found = set()
    for name in [name for name in sys.modules if name not in before]:
        where = getattr(sys.modules.get(name), "__file__", None)
        if not isinstance(where, str):
            continue
        where = _real(where)
        if _inside(where, folder) and where != own:
            found.add(where)
    return sorted(found)


def _digests(paths: list[str]) -> dict[str, str]:
    """The sha256 of each file as the run leaves it: what the cached result was computed from
    (a file changed later does not match, where hashing it when the result is stored would)."""
    found = {}
    for path in paths:
        with contextlib.suppress(OSError), Path(path).open("rb") as handle:
            found[path] = hashlib.file_digest(handle, "sha256").hexdigest()
    return found


def _write_side(folder: Path, side: dict[str, Any]) -> None:
    fd = os.open(folder / "side.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, json.dumps(side).encode())
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------
# The server: reading what happened to a child and telling the caller.


class Server:
    """The event loop: a queue of jobs, up to ``jobs`` children, one reply per event."""

    def __init__(self, jobs: int, root: Path, requests: int, replies: int) -> None:
        self.jobs = max(1, jobs)
        self.root = root
        self.requests = requests
        self.replies = replies
        self.queue: deque[Job] = deque()
        self.running: dict[int, Running] = {}  # by pidfd
        self.buffer = bytearray()
        self.open = True
        self.landlock = confine.landlock_abi()
        self.rulesets: dict[tuple[str, tuple[str, ...], tuple[str, ...]], Any] = {}

    def serve(self) -> None:
        """Run until the caller closes stdin (or stops reading), then kill what is left.

        A caller gone before the worker was ready (a forked reader that ended) is a clean end
        too: nobody else would remove the caller's folder.
        """
        try:
            self.send({"event": "ready", "pid": os.getpid(), "landlock": self.landlock})
            while self.open:
                self.start_queued()
                self.step()
        except BrokenPipeError:
            pass
        finally:
            self.shutdown()

    def step(self) -> None:
        """Wait for a request, a child's exit or a deadline, and handle what happened."""
        poller = select.poll()
        poller.register(self.requests, select.POLLIN)
        for fd in self.running:
            poller.register(fd, select.POLLIN)
        for fd, _mask in poller.poll(self.wait_ms()):
            if fd == self.requests:
                self.read_requests()
            elif fd in self.running:
                self.finish(self.running.pop(fd))
        self.enforce_deadlines()

    def wait_ms(self) -> int | None:
        """Milliseconds until the nearest deadline or measure (None: wait for input or an exit)."""
        deadlines = [t for r in self.running.values() if not r.timed_out and r.over is None
                     for t in (r.deadline, r.next_check)]
        if not deadlines:
            return None
        return max(0, int((min(deadlines) - time.monotonic()) * 1000) + 1)

    def read_requests(self) -> None:
        """Take what stdin has (it never blocks: poll said so); end of input stops us."""
        chunk = os.read(self.requests, _READ_CHUNK)
        if not chunk:
            self.open = False
            return
        self.buffer += chunk
        *lines, rest = self.buffer.split(b"\n")
        self.buffer = bytearray(rest)
        for line in lines:
            if line.strip():
                self.accept(bytes(line))

    def accept(self, line: bytes) -> None:
        """Queue one request, or take ``{"jobs": N}``; a malformed line is logged, never fatal."""
        try:
            data = json.loads(line)
            if "jobs" in data:
                self.jobs = max(1, int(data["jobs"]))
            else:
                self.queue.append(Job.parse(data))
        except (ValueError, KeyError, TypeError) as bad:
            print(f"worker: ignored a bad request {line[:200]!r}: {bad}", file=sys.stderr)

    def start_queued(self) -> None:
        """Fork queued jobs while fewer than ``jobs`` children run."""
        while self.queue and len(self.running) < self.jobs:
            self.launch(self.queue.popleft())

    def launch(self, job: Job) -> None:
        """Fork a child for the job; it runs in its own process group and folder."""
        folder = Path(tempfile.mkdtemp(prefix=f"job{job.id}-", dir=self.root))
        (folder / "cwd").mkdir()
        inherited = [self.requests, self.replies, *self.running]
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        before = frozenset(sys.modules)
        rules = self.ruleset(job)
        started = time.monotonic()
        try:
            ruleset: int | OSError | None = rules.prepare(str(folder))
        except OSError as refused:  # the child reports it, and runs nothing unconfined
            ruleset = refused
        pid = os.fork()
        if pid == 0:
            child_main(job, folder, inherited, before, (rules, ruleset))
        if isinstance(ruleset, int):
            os.close(ruleset)
        pidfd = os.pidfd_open(pid)
        run = Running(job, pid, pidfd, folder, started, started + job.timeout,
                      next_check=started + tree.CHECK_EVERY)
        self.running[pidfd] = run
        self.send({"event": "started", "id": job.id, "pid": pid})

    def ruleset(self, job: Job) -> Any:
        """The Landlock rules of a job's confinement, made once per kind of job."""
        key = (job.confine, job.read, job.write)
        rules = self.rulesets.get(key)
        if rules is None:
            read = [*confine.SYSTEM_READ, *confine.python_read_roots(), *job.read]
            rules = confine.Ruleset(self.landlock, job.confine, read,
                                    [*confine.SYSTEM_WRITE, *job.write])
            self.rulesets[key] = rules
        return rules

    def enforce_deadlines(self) -> None:
        """Kill the groups of children past their deadline or their tree's caps; their exit is
        handled as usual."""
        now = time.monotonic()
        for run in self.running.values():
            if run.timed_out or run.over is not None:
                continue
            if now >= run.deadline:
                _kill(run)
                run.timed_out = True
            elif now >= run.next_check:
                self.measure(run)
                run.next_check = time.monotonic() + tree.CHECK_EVERY

    def measure(self, run: Running) -> None:
        """Kill a snippet's tree that has more processes, or more memory, than it may."""
        pids = tree.tree(run.pid)
        if len(pids) > run.job.max_processes:
            run.over = outcome.PROCESSES
        elif tree.private_memory(pids) > run.job.max_memory_mb * 1024 * 1024:
            run.over = outcome.MEMORY
        else:
            return
        _kill(run)
        tree.kill_tree(pids)

    def finish(self, run: Running) -> None:
        """Reap the child, kill its leftovers, classify, reply, and clean up its folder."""
        _pid, status = os.waitpid(run.pid, 0)
        seconds = time.monotonic() - run.started
        os.close(run.pidfd)
        orphan = tree.kill_group(run.pid)
        # What the snippet's process left when it died without cleaning up (os._exit, a
        # signal) was adopted by this server: every child that is not a running snippet.
        orphan |= tree.kill_children(keep=frozenset(r.pid for r in self.running.values()))
        out = outcome.read_bytes(run.folder / "stdout")
        side = outcome.read_side(run.folder)
        verdict = outcome.classify(run, status, orphan, out, side)
        _remove(run.folder)  # before replying: the caller may look for it at once
        self.send(
            {
                "event": "done",
                "id": run.job.id,
                "stdout": out.decode("utf-8", "replace"),
                "failure": verdict.failure,
                "message": verdict.message,
                "crash_file": verdict.crash_file,
                "snippet_line": verdict.snippet_line,
                "seconds": seconds,
                "modules": side.get("modules", []),
                "opened": side.get("opened", []),
                "digests": side.get("digests", {}),
            }
        )

    def send(self, message: dict[str, Any]) -> None:
        """Write one reply line, whole (the caller always reads, so this cannot deadlock)."""
        data = memoryview((json.dumps(message) + "\n").encode())
        while data:
            data = data[os.write(self.replies, data) :]

    def shutdown(self) -> None:
        """Kill every running snippet's group and remove the job folders."""
        for run in self.running.values():
            _kill(run)
        for run in self.running.values():
            with contextlib.suppress(ChildProcessError):
                os.waitpid(run.pid, 0)
            os.close(run.pidfd)
            _remove(run.folder)
        self.running.clear()
        tree.kill_children()
        for rules in self.rulesets.values():
            rules.close()


def _kill(run: Running) -> None:
    """SIGKILL a child's process group, and the child itself in case it had not made it yet.

    The child is not reaped yet, so neither its pid nor its pidfd can name another process.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(run.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        signal.pidfd_send_signal(run.pidfd, signal.SIGKILL)


def _remove(folder: Path) -> None:
    """Remove a job folder, even one the snippet made read-only."""

    def retry(function: Any, path: str, _info: Any) -> None:
        with contextlib.suppress(OSError):
            Path(path).parent.chmod(0o700)
            Path(path).chmod(0o700)
            function(path)

    shutil.rmtree(folder, onerror=retry)


def preload() -> None:
    """Import numpy (if it is installed) so every child starts with it; warm its printing.

    ``pkgutil`` is what ``runpy.run_path`` imports on each call: imported here, once.
    """
    import pkgutil  # noqa: F401

    try:
        import numpy
    except ImportError:
        return
    with contextlib.suppress(Exception):
        str(numpy.arange(3.0).reshape(1, 3))


def main(argv: list[str] | None = None) -> None:
    """Entry point: keep the protocol's pipes private, preload, serve."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", type=Path, required=True, help="the caller's temporary folder")
    args = parser.parse_args(argv)
    requests, replies = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)  # a stray print in the server cannot corrupt the protocol
    os.close(null)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.dont_write_bytecode = True  # importing a local module leaves no __pycache__
    jobs_folder = args.root / "jobs"
    jobs_folder.mkdir(parents=True, exist_ok=True)
    tree.become_subreaper()
    preload()
    gc.collect()
    gc.freeze()  # children need not copy the preloaded objects to collect them
    Server(args.jobs, jobs_folder, requests, replies).serve()
    # A clean end (input closed): the caller's folder goes too, even if the caller exited
    # without cleaning up (a forked Sphinx reader ends with os._exit). On a crash it stays,
    # with this server's last words in its log.
    shutil.rmtree(args.root, ignore_errors=True)


if __name__ == "__main__":
    main()
    # Nothing is left to flush or clean up (replies go straight to a file descriptor), and
    # tearing down an interpreter that imported numpy takes longer than all of this build's
    # wait for the worker to end: the caller waits for this exit.
    sys.stderr.flush()
    os._exit(0)

