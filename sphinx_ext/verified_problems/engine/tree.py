"""A snippet's process tree: finding it, measuring it, killing it (Linux ``/proc``).

Imported by the fork server (``worker.py``, which loads this file by its path) and so
importing nothing from the package. The kernel gives no limit for a tree of processes that an
unprivileged process can set on this machine (its cgroup v2 has no ``memory`` or ``pids``
controller, and ``RLIMIT_NPROC`` counts every process of the user, or nothing for root), so the
server measures each snippet's tree itself: every :data:`CHECK_EVERY` seconds it counts the
tree's processes and sums their private resident memory, and kills the tree past either cap.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from pathlib import Path

_ORPHAN_GRACE = 2.0  # seconds to wait for killed leftovers to disappear
_PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
#: Seconds between two measures of a running snippet's tree (the first after as long: most
#: snippets are done before, and cost nothing to watch).
CHECK_EVERY = 0.005
_PAGE = os.sysconf("SC_PAGE_SIZE")


def group_alive(pgid: int) -> bool:
    """Whether a process group still has a member that is not a zombie."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    processes = (entry for entry in Path("/proc").iterdir() if entry.name.isdigit())
    return any(_live_member(entry, pgid) for entry in processes)


def _live_member(entry: Path, pgid: int) -> bool:
    try:
        fields = (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return False
    return int(fields[2]) == pgid and fields[0] not in (b"Z", b"X")


def kill_group(pgid: int) -> bool:
    """Kill whatever is left in the group; True if something was alive. Waits briefly."""
    if not group_alive(pgid):
        return False
    deadline = time.monotonic() + _ORPHAN_GRACE
    while True:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
        if not group_alive(pgid) or time.monotonic() > deadline:
            return True
        time.sleep(0.002)


def become_subreaper() -> None:
    """Adopt every orphaned descendant (Linux), even one that left the session with setsid.

    A process that double-forks into a session of its own escapes a kill of the snippet's
    process group; adopted, it is still this process's child, and ``kill_children`` finds it.
    """
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def _children() -> set[int]:
    """The pids of this process's children, zombies included."""
    try:
        return {
            int(pid)
            for task in Path("/proc/self/task").iterdir()
            for pid in (task / "children").read_bytes().split()
        }
    except OSError:  # no /proc/PID/task/TID/children (or a thread ended): read every parent
        me = os.getpid()
        return {
            int(entry.name)
            for entry in Path("/proc").iterdir()
            if entry.name.isdigit() and _stat(entry)[1:2] == [str(me).encode()]
        }


def _stat(entry: Path) -> list[bytes]:
    """The fields of ``/proc/PID/stat`` after the command name: state, ppid, pgrp, …"""
    try:
        return (entry / "stat").read_bytes().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return []


def kill_children(keep: frozenset[int] = frozenset()) -> bool:
    """Kill and reap every child but ``keep``, adopted ones too; True if one was alive."""
    alive = False
    while children := _children() - keep:
        for pid in children:
            alive |= _running(pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for pid in children:  # a killed child's own children are adopted: the loop goes on
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
    return alive


def _running(pid: int) -> bool:
    """Whether a child of this process has not exited yet (asked of the kernel, not of
    ``/proc``, which a confined snippet can read only its own folder of)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None
    except ChildProcessError:
        return False


def tree(root: int) -> list[int]:
    """``root`` and every process below it (a snippet's child is a subreaper: even one that
    left the session with ``setsid`` stays below it while it runs)."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                    todo.extend(int(child) for child in handle.read().split())
    return found


def private_memory(pids: list[int]) -> int:
    """Bytes of private resident memory of the processes together (resident minus shared).

    Pages still shared with the server after the fork (numpy's code and data) count in neither
    process; each page a process wrote counts once for it.
    """
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/statm", "rb") as handle:
                fields = handle.read().split()
            total += (int(fields[1]) - int(fields[2])) * _PAGE
    return total


def kill_tree(pids: list[int]) -> None:
    """SIGKILL each process of a measured tree (the group is killed by the caller too)."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
