"""Confinement of a snippet's process by the kernel (Landlock), and the files it opens.

Imported by the fork server (``worker.py``, a script that loads this file by its path) and by
the package, so it imports nothing from the package. Everything in it that runs in a forked
child runs before the snippet's first line, and cannot be undone by the snippet: a Landlock
domain only ever narrows, for the process and every process it starts.

What a confined snippet may do (``confine="on"``):

- read (and execute) the Python installation and the system's software (``/usr``, ``/lib``,
  ``/bin``, a few files of ``/etc``, ``/dev/null`` and the random devices, its own ``/proc``
  folder), and read the snippet folder and the book (minus the build's own folders);
- write, create and remove files only in its own temporary folder (its working folder);
- no TCP: neither connect (to a local listener either) nor bind (Landlock ABI 4);
- no signals to processes outside its own tree, no abstract Unix sockets outside it (ABI 6).

``confine="network"`` keeps the file rules and allows TCP; ``"off"`` confines nothing (only
the resource limits hold). Where the kernel has no Landlock, :func:`landlock_abi` is 0 and
nothing is confined: the build warns once (``sphinx_shell.snippets``).
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from collections.abc import Iterable

#: The settings of ``verified_confine``, and what each allows (the authors' guide repeats it).
MODES = {
    "on": "files: read the Python installation, the snippet folder and the book; write only "
          "its own temporary folder; no TCP connect or bind; no signals outside its processes",
    "network": "the file rules of 'on', but TCP connections and listening are allowed",
    "off": "no confinement: only the time, output, memory and process limits",
}

# linux/landlock.h
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every architecture
_VERSION = 1 << 0
_RULE_PATH_BENEATH, _PR_SET_NO_NEW_PRIVS = 1, 38
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
_READ = _EXECUTE | _READ_FILE | _READ_DIR
_BIND_TCP, _CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1

#: What a Python program and the libraries it loads read on every system.
SYSTEM_READ = (
    "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt",
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
    "/etc/fonts", "/etc/matplotlibrc", "/etc/mime.types", "/etc/os-release",
    "/dev/urandom", "/dev/random", "/dev/zero", "/dev/null", "/dev/full",
    "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/sys/devices/system/cpu",
)
#: Devices a snippet may also write to.
SYSTEM_WRITE = ("/dev/null", "/dev/full", "/dev/zero")


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    libc.syscall.argtypes = [ctypes.c_long] * 5  # every argument a number (or an address)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                           ctypes.c_ulong]
    return libc


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where it has none (or it is disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        found = _libc().syscall(_CREATE_RULESET, 0, 0, _VERSION, 0)
    except (OSError, AttributeError):
        return 0
    return max(0, int(found))


def missing_protection(abi: int, mode: str) -> str | None:
    """What this kernel cannot enforce of ``mode``, in words; None if it enforces it all."""
    if mode == "off":
        return None
    if abi < 1:
        return "the kernel has no Landlock: snippets are not confined, only limited"
    gaps = [gap for need, gap in ((4, "TCP"), (6, "signals")) if abi < need
            and (gap != "TCP" or mode == "on")]
    if gaps:
        return f"Landlock ABI {abi} cannot confine {' or '.join(gaps)} (needs 4 and 6)"
    return None


def _fs_rights(abi: int) -> int:
    rights = (1 << 13) - 1
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    if abi >= 5:
        rights |= _IOCTL_DEV
    return rights


class Ruleset:
    """The rules of one confinement, made ready in the server, enforced in each child.

    The paths are opened (``O_PATH``) and the kernel's structures packed once; for each job the
    server makes the kernel's ruleset from them, with the job's own folder writable
    (:meth:`prepare`), and the forked child adds its own ``/proc`` folder and enforces it
    (:meth:`enforce`). Anything a fresh fork does costs it the first touches of memory it
    shares with the server, so the child does as little as it can.
    """

    def __init__(self, abi: int, mode: str, read: Iterable[str], write: Iterable[str]) -> None:
        self.abi = abi if mode != "off" else 0
        self.handled = _fs_rights(abi)
        self.fds: list[int] = []
        self.rules: list[ctypes.Array[ctypes.c_char]] = []
        for paths, rights in ((read, _READ), (write, self.handled)):
            for path in outermost(paths):
                rule = _open_rule(path, rights & self.handled)
                if rule is not None:
                    self.fds.append(rule[0])
                    self.rules.append(_packed(*rule))
        net = _BIND_TCP | _CONNECT_TCP if abi >= 4 and mode == "on" else 0  # and no port rule
        scoped = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0
        self.size = 24 if abi >= 6 else 16 if abi >= 4 else 8
        self.attr = ctypes.create_string_buffer(struct.pack("<QQQ", self.handled, net, scoped))
        self.libc = _libc() if self.abi else None

    def close(self) -> None:
        """Close the opened paths (in the server, once no child will apply the rules)."""
        for fd in self.fds:
            os.close(fd)
        self.fds, self.rules = [], []

    def prepare(self, private: str) -> int | None:
        """In the server: the kernel's ruleset for one job, ``private`` writable; its file
        descriptor (the child inherits it; the server closes it once the child exists), or
        None when nothing is confined. Raises OSError if the kernel refuses."""
        libc = self.libc
        if not self.abi or libc is None:
            return None
        own = _open_rule(private, self.handled)
        try:
            return self._kernel_ruleset([*self.rules, *([_packed(*own)] if own else [])])
        finally:
            if own is not None:
                os.close(own[0])

    def _kernel_ruleset(self, rules: list[ctypes.Array[ctypes.c_char]]) -> int:
        assert self.libc is not None
        call = self.libc.syscall
        ruleset = _check(call(_CREATE_RULESET, ctypes.addressof(self.attr), self.size, 0, 0))
        try:
            for rule in rules:
                _check(call(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.addressof(rule), 0))
        except BaseException:
            os.close(ruleset)
            raise
        return ruleset

    def enforce(self, ruleset: int | OSError | None) -> None:
        """In the child: add its own ``/proc`` folder, and restrict it (and all it starts).

        Raises OSError if the kernel refused a step, here or in :meth:`prepare` (the caller
        reports it as the server's fault, and the snippet never runs unconfined).
        """
        if isinstance(ruleset, OSError):
            raise ruleset
        libc = self.libc
        if ruleset is None or libc is None:
            return
        call = libc.syscall
        proc = _open_rule("/proc/self", _READ & self.handled)  # this child's own folder
        if proc is not None:
            rule = _packed(*proc)
            _check(call(_ADD_RULE, ruleset, _RULE_PATH_BENEATH, ctypes.addressof(rule), 0))
            os.close(proc[0])
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
        _check(call(_RESTRICT_SELF, ruleset, 0, 0, 0))
        os.close(ruleset)


def _packed(fd: int, rights: int) -> ctypes.Array[ctypes.c_char]:
    """A ``landlock_path_beneath_attr``: the rights, then the folder's descriptor (packed)."""
    return ctypes.create_string_buffer(struct.pack("<Qi", rights, fd))


def outermost(paths: Iterable[str]) -> list[str]:
    """The paths without those inside another of them (one rule covers what is beneath)."""
    kept: list[str] = []
    for path in sorted({os.path.normpath(p) for p in paths}):
        if not any(path.startswith(k.rstrip(os.sep) + os.sep) for k in kept):
            kept.append(path)
    return kept


def _open_rule(path: str, rights: int) -> tuple[int, int] | None:
    """An opened path and the rights beneath it (a file: only those a file can have)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return None  # a path this system does not have
    if not os.path.isdir(path):
        rights &= _FILE_RIGHTS
    return fd, rights


def _check(result: int) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"Landlock: {os.strerror(errno)}")
    return int(result)


def readable_beneath(root: str, private: Iterable[str]) -> list[str]:
    """``root``, or if a ``private`` path lies inside it, what of it lies outside them all.

    A Landlock rule grants a whole hierarchy: a book whose build folder is inside it (Sphinx's
    test projects, ``book/_build``) is granted entry by entry, so that the build's own files,
    the cache and its key among them, are never beneath a rule.
    """
    hidden = [os.path.normpath(p) for p in private]
    root = os.path.normpath(root)
    if root in hidden:
        return []
    if not any(h.startswith(root + os.sep) for h in hidden):
        return [root]
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    return [kept for name in names for kept in readable_beneath(os.path.join(root, name), hidden)]


def python_read_roots() -> list[str]:
    """The folders of this Python installation and its environment (venv, site-packages)."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable))}
    roots.update(p for p in sys.path if p and os.path.isabs(p))
    return sorted(roots)


class OpenedFiles:
    """Every file the snippet opens (``open``, ``os.open``, ``io.open_code``, numpy's loaders,
    all that raise Python's ``open`` audit event), for its cache key and its page's dependencies.

    The hook only appends to a list: it runs for every audited event of the snippet.
    """

    def __init__(self) -> None:
        self.paths: list[str] = []

    def install(self) -> None:
        """Start recording (in the child: an audit hook cannot be removed)."""
        paths = self.paths
        abspath = os.path.abspath

        def hook(event: str, args: tuple[object, ...]) -> None:
            if event == "open" and isinstance(args[0], str | bytes):
                paths.append(abspath(os.fsdecode(args[0])))

        sys.addaudithook(hook)

    def inside(self, roots: Iterable[str], leave_out: Iterable[str]) -> list[str]:
        """The opened files that exist and lie in one of ``roots``, real paths, sorted."""
        exact = {root.rstrip(os.sep) for root in roots}
        folders = tuple(root + os.sep for root in exact)
        skip = set(leave_out)
        found = set()
        for path in set(self.paths):
            real = os.path.realpath(path)
            if real not in skip and (real in exact or real.startswith(folders)) \
                    and os.path.isfile(real):
                found.add(real)
        return sorted(found)
