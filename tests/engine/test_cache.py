"""The result cache: real runs through the runner, real files, corruption done by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path

import pytest
from support import PROJECT
from verified_problems.engine import (
    CACHE_FORMAT,
    Failure,
    Limits,
    ResultCache,
    Runner,
    SnippetRequest,
    snippet_key,
)

Write = Callable[[str, str], Path]


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def runner(cache_dir: Path) -> Iterator[Runner]:
    with Runner(cache_dir, jobs=2) as runner:
        yield runner


def entries(cache_dir: Path) -> list[Path]:
    """The entry files, ignoring only the cache's key: a stray temporary file would show up."""
    return sorted(p for p in cache_dir.iterdir() if p.name != ".key") if cache_dir.exists() else []


def test_second_run_is_answered_from_the_cache(
    runner: Runner, write: Write, folder: Path
) -> None:
    path = write("count.py", "import numpy as np\nprint('x =', np.arange(3.0))\n")
    first = runner.run(SnippetRequest(path, folder))
    second = runner.run(SnippetRequest(path, folder))
    assert first.ok and not first.cached
    assert second.cached and second.ok
    assert (second.stdout, second.key, second.seconds) == (first.stdout, first.key, first.seconds)
    assert (runner.stats.run, runner.stats.cached) == (1, 1)


def test_cache_survives_the_runner(cache_dir: Path, write: Write, folder: Path) -> None:
    path = write("persist.py", "print('x = 1.0')\n")
    with Runner(cache_dir, jobs=1) as runner:
        assert not runner.run(SnippetRequest(path, folder)).cached
    with Runner(cache_dir, jobs=1) as runner:
        assert runner.run(SnippetRequest(path, folder)).cached


def test_editing_the_snippet_reruns_it(runner: Runner, write: Write, folder: Path) -> None:
    path = write("edit.py", "print('x = 1.0')\n")
    first = runner.run(SnippetRequest(path, folder))
    write("edit.py", "print('x = 2.0')\n")
    second = runner.run(SnippetRequest(path, folder))
    assert not second.cached and second.stdout == "x = 2.0\n" and second.key != first.key


def test_editing_a_local_module_reruns_the_snippet(
    runner: Runner, write: Write, folder: Path
) -> None:
    helper = write("consts.py", "SCALE = 2.0\n")
    path = write("scaled.py", "import consts\nprint('y =', 1.5 * consts.SCALE)\n")
    first = runner.run(SnippetRequest(path, folder))
    assert first.dependencies == (helper,)
    assert runner.run(SnippetRequest(path, folder)).cached
    write("consts.py", "SCALE = 4.0\n")
    rerun = runner.run(SnippetRequest(path, folder))
    assert not rerun.cached and rerun.stdout == "y = 6.0\n"
    again = runner.run(SnippetRequest(path, folder))
    assert again.cached and again.dependencies == (helper,)


def test_removing_a_local_module_reruns_the_snippet(
    runner: Runner, write: Write, folder: Path
) -> None:
    helper = write("gone_mod.py", "VALUE = 1.0\n")
    path = write("needs.py", "import gone_mod\nprint('v =', gone_mod.VALUE)\n")
    assert runner.run(SnippetRequest(path, folder)).ok
    helper.unlink()
    result = runner.run(SnippetRequest(path, folder))
    assert not result.cached and result.failure is Failure.CRASH
    assert "ModuleNotFoundError" in result.message


def test_editing_a_declared_data_file_reruns_the_snippet(
    runner: Runner, write: Write, folder: Path
) -> None:
    data = folder / "weights.txt"
    data.write_text("0.25\n")
    path = write(
        "data.py",
        "import pathlib\nprint('w =', (pathlib.Path(__file__).parent / 'weights.txt').read_text())",
    )
    request = SnippetRequest(path, folder, data_files=(data,))
    first = runner.run(request)
    assert runner.run(request).cached
    data.write_text("0.75\n")
    second = runner.run(request)
    assert not second.cached and second.stdout == "w = 0.75\n\n" and second.key != first.key
    assert second.dependencies == (data,)


def test_changing_the_limits_changes_the_key(runner: Runner, write: Write, folder: Path) -> None:
    path = write("limits.py", "print('x = 1.0')\n")
    first = runner.run(SnippetRequest(path, folder))
    other = runner.run(SnippetRequest(path, folder, Limits(timeout=5.0)))
    assert not other.cached and other.key != first.key


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) // 2], id="truncated"),
        pytest.param(lambda text: "", id="empty"),
        pytest.param(lambda text: text.replace("x = 1.0", "x = 9.9"), id="edited-content"),
        pytest.param(lambda text: "\x00garbage{", id="garbage"),
        pytest.param(lambda text: json.dumps({"mac": 1, "entry": []}), id="wrong-shape"),
    ],
)
def test_a_damaged_entry_is_ignored_and_rerun(
    runner: Runner, write: Write, folder: Path, cache_dir: Path, damage: Callable[[str], str]
) -> None:
    path = write("fragile.py", "print('x = 1.0')\n")
    first = runner.run(SnippetRequest(path, folder))
    (entry,) = entries(cache_dir)
    entry.write_text(damage(entry.read_text()))
    rerun = runner.run(SnippetRequest(path, folder))
    assert not rerun.cached and rerun.stdout == "x = 1.0\n"
    assert runner.run(SnippetRequest(path, folder)).cached  # the re-run repaired the entry
    assert first.key == rerun.key


def test_an_entry_under_another_key_is_not_trusted(
    runner: Runner, write: Write, folder: Path, cache_dir: Path
) -> None:
    a = write("a.py", "print('a = 1.0')\n")
    b = write("b.py", "print('b = 2.0')\n")
    first = runner.run(SnippetRequest(a, folder))
    cache = ResultCache(cache_dir)
    second_key = snippet_key(b, folder, asdict(Limits()))
    cache.entry_path(second_key).write_bytes(cache.entry_path(first.key).read_bytes())
    result = runner.run(SnippetRequest(b, folder))
    assert result.key == second_key and not result.cached and result.stdout == "b = 2.0\n"


def test_failures_are_not_cached(
    runner: Runner, write: Write, folder: Path, cache_dir: Path
) -> None:
    crash = write("crash.py", "print(1 / 0)\n")
    empty = write("empty.py", "x = 1\n")
    for _ in range(2):
        results = runner.run_many([SnippetRequest(crash, folder), SnippetRequest(empty, folder)])
        assert [r.failure for r in results] == [Failure.CRASH, Failure.EMPTY]
        assert not any(r.cached for r in results)
    assert entries(cache_dir) == []
    assert runner.stats.run == 4 and runner.stats.failed == 4


def test_no_cache_dir_means_no_cache(write: Write, folder: Path, tmp_path: Path) -> None:
    path = write("plain.py", "print('x = 1.0')\n")
    with Runner(None, jobs=1) as runner:
        results = [runner.run(SnippetRequest(path, folder)) for _ in range(2)]
    assert [r.cached for r in results] == [False, False]
    assert results[0].key == results[1].key


def test_entry_is_one_checksummed_json_file(
    runner: Runner, write: Write, folder: Path, cache_dir: Path
) -> None:
    path = write("entry.py", "print('x = 1.0')\n")
    result = runner.run(SnippetRequest(path, folder))
    (entry,) = entries(cache_dir)
    assert entry.name == f"{result.key}.json"
    document = json.loads(entry.read_text())
    assert set(document) == {"mac", "entry"}
    assert document["entry"]["format"] == CACHE_FORMAT
    assert document["entry"]["stdout"] == "x = 1.0\n"


_WRITER = """
import importlib.util, sys, time
from pathlib import Path
spec = importlib.util.spec_from_file_location("cache_under_test", {module!r})
module = sys.modules["cache_under_test"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
cache = module.ResultCache(Path({cache!r}))
stop, deadline, i = Path({stop!r}), time.monotonic() + 120, 0
while not stop.exists() and time.monotonic() < deadline:
    cache.put({key!r}, Path({folder!r}), f"{{sys.argv[1]}}-{{i}}\\n" * 2000, 0.5, [])
    i += 1
"""


def test_concurrent_writers_never_expose_a_partial_entry(tmp_path: Path) -> None:
    """Several processes keep replacing one entry while this one reads: every read is whole."""
    cache_dir, folder, key, stop = tmp_path / "cache", tmp_path, "ab" * 32, tmp_path / "stop"
    script = tmp_path / "writer.py"
    module = PROJECT / "sphinx_ext" / "verified_problems" / "engine" / "cache.py"
    script.write_text(
        _WRITER.format(
            module=str(module), cache=str(cache_dir), key=key, folder=str(folder), stop=str(stop)
        )
    )
    writers = [subprocess.Popen([sys.executable, str(script), f"w{n}"]) for n in range(3)]
    cache, hits = ResultCache(cache_dir), 0
    writers_seen: set[str] = set()
    try:
        while (len(writers_seen) < 3 or hits < 300) and any(w.poll() is None for w in writers):
            hit = cache.get(key, folder)
            if hit is not None:
                lines = set(hit.stdout.splitlines())
                assert len(lines) == 1 and hit.stdout.count("\n") == 2000
                writers_seen.add(next(iter(lines)).split("-")[0])
                hits += 1
    finally:
        stop.touch()
        codes = [w.wait(timeout=120) for w in writers]
    assert codes == [0, 0, 0]
    assert writers_seen == {"w0", "w1", "w2"} and hits >= 300
    assert [p.name for p in entries(cache_dir)] == [f"{key}.json"]  # no temporary file left
