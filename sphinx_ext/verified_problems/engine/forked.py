"""A forked helper process: one function applied to jobs in order, beside the caller.

The caller hands jobs over without waiting (:meth:`Forked.submit`) and asks for each result when
it needs it (:meth:`Forked.result`). The helper is a fork of the caller, so it has every module
and value the caller had at that moment and starts in milliseconds, not the seconds a fresh
interpreter takes to import a documentation stack. It runs in the idle scheduling class (or at
the lowest priority), so it takes only a core the caller and its snippets leave idle.

Two threads of the caller move the pickled jobs and replies through pipes, so neither side
blocks on a full pipe. A job whose function raises gets ``None`` back, and so does every job
once the helper has died: the caller then does that job itself.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import threading
from collections.abc import Callable, Hashable
from typing import Any

#: How much lower the helper's priority is than its caller's (``nice``), where the system has
#: no idle scheduling class (Linux's ``SCHED_IDLE``: run only on a core nothing else wants).
NICENESS = 19
#: Seconds :meth:`Forked.close` waits for the helper to end before it kills it.
CLOSE_TIMEOUT = 10.0

Job = Callable[[Any], Any]


def can_fork() -> bool:
    """Whether a helper can be forked safely here: the system forks (not Windows), and this
    process runs one thread (a lock another thread held at the fork would stay held forever in
    the helper: a host such as a file watcher or a test runner's may run threads)."""
    return hasattr(os, "fork") and threading.active_count() == 1


class Forked:
    """A forked process that applies ``function`` to each submitted job, in order."""

    def __init__(self, function: Job) -> None:
        to_child, from_parent = _pipe()
        to_parent, from_child = _pipe()
        pid = os.fork()
        if pid == 0:  # the helper: it never returns from here
            _keep_only(from_parent, to_parent)
            _serve(function, from_parent, to_parent)
        os.close(from_parent)
        os.close(to_parent)
        self.pid = pid
        self._jobs: queue.SimpleQueue[tuple[Hashable, Any] | None] = queue.SimpleQueue()
        self._replies: dict[Hashable, Any] = {}
        self._ready = threading.Condition()
        self._alive = True
        self._writer = threading.Thread(target=self._send, args=(to_child,), daemon=True)
        self._reader = threading.Thread(target=self._receive, args=(from_child,), daemon=True)
        self._writer.start()
        self._reader.start()

    def submit(self, key: Hashable, job: Any) -> None:
        """Queue ``job``; its result will be asked for by ``key``."""
        self._jobs.put((key, job))

    def result(self, key: Hashable) -> Any:
        """The result of the job submitted as ``key``, once it is in; None if the function
        raised or the helper died (the caller then does the job itself)."""
        with self._ready:
            self._ready.wait_for(lambda: key in self._replies or not self._alive)
            return self._replies.pop(key, None)

    def close(self) -> None:
        """Let the helper finish the jobs it has, then end it (killed if it does not end)."""
        self._jobs.put(None)
        self._writer.join()
        self._reader.join(CLOSE_TIMEOUT)
        if self._reader.is_alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, 9)
            self._reader.join()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)

    def _send(self, fd: int) -> None:
        with os.fdopen(fd, "wb") as pipe:
            while (item := self._jobs.get()) is not None:
                try:
                    pickle.dump(item, pipe, pickle.HIGHEST_PROTOCOL)
                    pipe.flush()
                except OSError:  # the helper died; the reader says so
                    break

    def _receive(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as pipe:
            try:
                while True:
                    key, reply = pickle.load(pipe)
                    with self._ready:
                        self._replies[key] = reply
                        self._ready.notify_all()
            except (EOFError, OSError, pickle.UnpicklingError):
                pass
            finally:
                with self._ready:
                    self._alive = False
                    self._ready.notify_all()


def _pipe() -> tuple[int, int]:
    """A pipe as (write end, read end), the order the two sides are handed them in."""
    read, write = os.pipe()
    return write, read


def _keep_only(*kept: int) -> None:
    """Close every file the helper inherited but its own pipes (and the standard streams).

    A pipe of the caller's kept open here would keep its other end from ever seeing the end of
    it: a snippet worker told to stop by the closing of its input would wait for the helper.
    """
    start = 3
    for fd in sorted(kept):
        os.closerange(start, fd)
        start = fd + 1
    os.closerange(start, os.sysconf("SC_OPEN_MAX"))


def _yield_to_others() -> None:
    """Run only when the caller and its snippets leave a core idle."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.nice(NICENESS)


def _serve(function: Job, jobs_fd: int, replies_fd: int) -> None:
    """The helper's whole life: answer each job in order until the caller closes the pipe."""
    status = 0
    try:
        gc.freeze()  # what the caller had is the caller's: no collection walks it here
        _yield_to_others()
        with os.fdopen(jobs_fd, "rb") as jobs, os.fdopen(replies_fd, "wb") as replies:
            while True:
                try:
                    key, job = pickle.load(jobs)
                except EOFError:
                    break
                try:
                    reply = function(job)
                except Exception:  # the caller does this job itself, and sees the error
                    reply = None
                pickle.dump((key, reply), replies, pickle.HIGHEST_PROTOCOL)
                replies.flush()
    except BaseException:
        status = 1
    finally:
        os._exit(status)  # no cleanup of the caller's state: it is the caller's
