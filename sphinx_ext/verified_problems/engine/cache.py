"""A content-addressed cache of successful snippet runs, so an unchanged book runs no snippet.

The key hashes everything known before the run that can change what a snippet prints: its
bytes and name, its limits and confinement, the bytes of the data files it declares, the
interpreter, numpy's version and this cache's format. The local modules it imports and the
files it opens are only known after a run, so an entry records them with their hashes (a
manifest, like ccache's) and is valid only while each still has that hash. Failures are never
stored: a failing snippet runs again next time.

One JSON file per key, written to a temporary file in the same folder and renamed into place,
so concurrent writers (parallel builds, several processes) never expose a half-written entry.
Each entry carries an HMAC-SHA256 of its content under a key of the cache's own (``.key``,
made at random on first use, readable by its owner only and outside anything a confined
snippet may read): an entry rewritten by hand or by a snippet, with any checksum recomputed,
fails it. An entry that fails, is corrupt, truncated, from another format or for another key
is ignored, never trusted: its snippet runs again.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import importlib.metadata
import json
import os
import platform
import sys
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

#: Bump when the key's inputs, the entry's layout or the worker's behaviour change.
CACHE_FORMAT = 5
_KEY_FILE = ".key"


def file_digest(path: Path) -> str:
    """The sha256 of a file's bytes, in hex."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


@cache
def environment_fingerprint() -> tuple[str, ...]:
    """What outside the book decides a snippet's output: interpreter and numpy versions.

    numpy's version is read from its installed metadata: importing numpy here would cost the
    Sphinx process a quarter of a second and memory that makes every later fork slower.
    """
    try:
        numpy = importlib.metadata.version("numpy")
    except importlib.metadata.PackageNotFoundError:
        numpy = "absent"
    return (str(CACHE_FORMAT), platform.python_implementation(), sys.version, numpy)


def _name(path: Path, snippet_dir: Path) -> str:
    """A path as the key sees it: relative to the snippet folder when inside it."""
    try:
        return path.relative_to(snippet_dir).as_posix()
    except ValueError:
        return str(path)


def snippet_key(
    path: Path,
    snippet_dir: Path,
    limits: Mapping[str, float | int],
    data_files: Sequence[Path] = (),
    source: bytes | None = None,
    confine: str = "on",
) -> str:
    """The hex sha256 naming a run before it happens (raises OSError if a file is unreadable).

    Names are relative to the snippet folder, so a book checked out elsewhere (a CI cache
    restored into another path) reuses its entries. ``source``: the script's bytes as they
    will run (read from ``path`` if not given).
    """
    digest = hashlib.sha256(source).hexdigest() if source is not None else file_digest(path)
    material = {
        "environment": environment_fingerprint(),
        "confine": confine,
        "snippet": [_name(path, snippet_dir), digest],
        "limits": sorted(limits.items()),
        "data": [[_name(p, snippet_dir), file_digest(p)] for p in data_files],
    }
    return hashlib.sha256(_canonical(material).encode()).hexdigest()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class CachedRun:
    """A stored successful run, valid for the snippet folder it was looked up in."""

    stdout: str
    seconds: float
    modules: tuple[Path, ...]


class ResultCache:
    """One folder of entries, one file per key; safe to share between processes."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._secret: bytes | None = None

    def secret(self) -> bytes:
        """The key entries are authenticated with: read, or made (once, race-free) if none."""
        if self._secret is None:
            path = self.directory / _KEY_FILE
            with contextlib.suppress(FileNotFoundError):
                self._secret = _valid_secret(path.read_bytes())
            if self._secret is None:
                self._secret = _make_secret(path)
        return self._secret

    def entry_path(self, key: str) -> Path:
        """Where the entry for a key lives."""
        return self.directory / f"{key}.json"

    def get(self, key: str, snippet_dir: Path) -> CachedRun | None:
        """The stored run for a key if its entry is intact and its local modules unchanged."""
        entry = self._load(key)
        if entry is None:
            return None
        modules = []
        for name, digest in entry["modules"]:
            module = Path(os.path.normpath(snippet_dir / name))
            try:
                if file_digest(module) != digest:
                    return None
            except OSError:
                return None
            modules.append(module)
        return CachedRun(entry["stdout"], entry["seconds"], tuple(modules))

    def put(
        self, key: str, snippet_dir: Path, stdout: str, seconds: float, modules: Iterable[Path],
        digests: Mapping[Path, str] | None = None,
    ) -> None:
        """Store a successful run with its dependencies (local modules and opened files, named
        relative to the snippet folder: ``../book/data.csv`` for a file of the book).

        ``digests``: their hashes as the run left them (taken by the snippet's process as it
        ended): a file changed since then does not match, and its snippet runs again.
        """
        known = digests or {}
        try:
            manifest = [
                [Path(os.path.relpath(m, snippet_dir)).as_posix(), known.get(m) or file_digest(m)]
                for m in dict.fromkeys(modules)
            ]
        except OSError:
            return  # a module vanished since the run: do not store what cannot be checked
        entry = {
            "format": CACHE_FORMAT,
            "key": key,
            "stdout": stdout,
            "seconds": seconds,
            "modules": manifest,
        }
        with contextlib.suppress(OSError):  # a cache that cannot write only makes builds slower
            self._write(key, {"mac": self._mac(entry), "entry": entry})

    def _mac(self, entry: Any) -> str:
        return hmac.new(self.secret(), _canonical(entry).encode(), "sha256").hexdigest()

    def _load(self, key: str) -> dict[str, Any] | None:
        try:
            document = json.loads(self.entry_path(key).read_bytes())
            entry = document["entry"]
            if not hmac.compare_digest(str(document["mac"]), self._mac(entry)):
                return None
        except (OSError, ValueError, KeyError, TypeError):
            return None
        return entry if _well_formed(entry, key) else None

    def _write(self, key: str, document: dict[str, Any]) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed before the rename
            "w", encoding="utf-8", dir=self.directory, prefix=f".{key[:12]}-", suffix=".tmp",
            delete=False,
        )
        try:
            with handle:
                handle.write(_canonical(document))
            os.replace(handle.name, self.entry_path(key))  # noqa: PTH105 - str from tempfile
        except BaseException:
            with contextlib.suppress(OSError):
                Path(handle.name).unlink()
            raise


def _valid_secret(data: bytes) -> bytes | None:
    return data if len(data) == 32 else None


def _make_secret(path: Path) -> bytes:
    """A new random key at ``path``, or the one another process made there first."""
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = os.urandom(32)
    temporary = path.with_name(f"{_KEY_FILE}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, secret)
    finally:
        os.close(fd)
    try:
        os.link(temporary, path)  # fails if another process made one: theirs is the key
    except FileExistsError:
        found = _valid_secret(path.read_bytes())
        if found is None:  # a damaged key: a new one (every entry fails and runs again)
            temporary.replace(path)
            return secret
        return found
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    return secret


def _well_formed(entry: Any, key: str) -> bool:
    """Whether a checksummed entry is also of this format, for this key, with sane types."""
    return (
        isinstance(entry, dict)
        and entry.get("format") == CACHE_FORMAT
        and entry.get("key") == key
        and isinstance(entry.get("stdout"), str)
        and isinstance(entry.get("seconds"), int | float)
        and isinstance(entry.get("modules"), list)
        and all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)
            for m in entry["modules"]
        )
    )
