"""What a snippet cannot do: the kernel's confinement and the limits on its whole process tree.

Real snippets, run by the real fork server, try what a hostile pull request would: read a
file outside the project, write into the book or the build, reach a local listener, signal a
process of the build, fork past the caps. Landlock tests skip, saying why, only on a kernel
without it (this machine has ABI 7).
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from verified_problems.engine import (
    Confinement,
    Failure,
    Limits,
    ResultCache,
    Runner,
    SnippetRequest,
    landlock_abi,
)

ABI = landlock_abi()
needs_landlock = pytest.mark.skipif(ABI < 6, reason=f"the kernel's Landlock ABI is {ABI}: "
                                    "files, TCP and signals need ABI 6")

Write = Callable[[str, str], Path]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """A book beside the snippet folder: a page, and a build folder with a cache."""
    (tmp_path / "book" / "_build" / "doctrees" / "snippet-cache").mkdir(parents=True)
    (tmp_path / "book" / "page.md").write_text("# A page\n")
    (tmp_path / "book" / "_build" / "html.html").write_text("<p>built</p>\n")
    return tmp_path / "book"


#: A snippet that prints the number in the data file beside it (which it does not declare).
SCALE = """
from pathlib import Path
print("s =", (Path(__file__).parent / "scale.txt").read_text().strip())
"""


def confined(path: Path, book: Path, limits: Limits | None = None,
             mode: str = "on") -> SnippetRequest:
    """A request as a build makes it: the book readable, its build folder not."""
    readable = (book / "page.md",)  # what readable_beneath leaves of the book: not _build
    return SnippetRequest(path, path.parent, limits or Limits(),
                          confinement=Confinement(mode, read=readable))


def attempts(runner: Runner, request: SnippetRequest) -> dict[str, str]:
    """Run a snippet that prints a JSON object of what each attempt raised ('ok' if nothing)."""
    result = runner.run(request)
    assert result.ok, result.message
    return dict(json.loads(result.stdout))


TRY = """
import json, os, socket, sys
results = {}
def attempt(name, action):
    try:
        action()
        results[name] = "ok"
    except OSError as error:
        results[name] = type(error).__name__
"""


@needs_landlock
def test_a_snippet_reads_only_python_its_folder_and_the_book(
    runner: Runner, write: Write, book: Path, tmp_path: Path
) -> None:
    (tmp_path / "home").mkdir()
    secret = tmp_path / "home" / "secret.txt"
    secret.write_text("the author's own file\n")
    write("beside.txt", "0.5\n")
    path = write("reader.py", TRY + f"""
attempt("beside", lambda: open(os.path.join(os.path.dirname(__file__), "beside.txt")).read())
attempt("book", lambda: open({str(book / "page.md")!r}).read())
attempt("home", lambda: open({str(secret)!r}).read())
attempt("root_home", lambda: os.listdir("/root"))
attempt("build", lambda: open({str(book / "_build" / "html.html")!r}).read())
attempt("numpy", lambda: __import__("numpy").ones(2).sum())
print(json.dumps(results))
""")
    assert attempts(runner, confined(path, book)) == {
        "beside": "ok", "book": "ok", "numpy": "ok",
        "home": "PermissionError", "root_home": "PermissionError", "build": "PermissionError",
    }


@needs_landlock
def test_a_snippet_writes_only_its_own_folder(
    runner: Runner, write: Write, book: Path
) -> None:
    built = book / "_build" / "html.html"
    path = write("writer.py", TRY + f"""
attempt("cwd", lambda: open("scratch.txt", "w").write("x"))
attempt("tempfile", lambda: __import__("tempfile").mkstemp())
attempt("book", lambda: open({str(book / "new.md")!r}, "w"))
attempt("page", lambda: open({str(book / "page.md")!r}, "a"))
attempt("built", lambda: open({str(built)!r}, "w"))
attempt("snippets", lambda: open(os.path.join(os.path.dirname(__file__), "out.txt"), "w"))
attempt("remove", lambda: os.remove({str(book / "page.md")!r}))
print(json.dumps(results))
""")
    assert attempts(runner, confined(path, book)) == {
        "cwd": "ok", "tempfile": "ok",
        "book": "PermissionError", "page": "PermissionError", "built": "PermissionError",
        "snippets": "PermissionError", "remove": "PermissionError",
    }
    assert built.read_text() == "<p>built</p>\n" and (book / "page.md").exists()
    assert not (book / "new.md").exists()


@needs_landlock
def test_a_snippet_cannot_reach_a_local_listener_or_listen(
    runner: Runner, write: Write, book: Path
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(0.5)
        port = listener.getsockname()[1]
        path = write("network.py", TRY + f"""
attempt("connect", lambda: socket.create_connection(("127.0.0.1", {port}), timeout=5))
attempt("bind", lambda: socket.create_server(("127.0.0.1", 0)))
print(json.dumps(results))
""")
        assert attempts(runner, confined(path, book)) == {
            "connect": "PermissionError", "bind": "PermissionError"}
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody came
        allowed = attempts(runner, confined(path, book, mode="network"))
        assert allowed == {"connect": "ok", "bind": "ok"}
        listener.accept()[0].close()


@needs_landlock
def test_a_snippet_cannot_signal_a_process_outside_its_tree(
    runner: Runner, write: Write, book: Path
) -> None:
    with subprocess.Popen(["sleep", "60"]) as bystander:
        try:
            path = write("signals.py", TRY + f"""
attempt("outside", lambda: os.kill({bystander.pid}, {int(signal.SIGKILL)}))
attempt("worker", lambda: os.kill(os.getppid(), {int(signal.SIGKILL)}))
pid = os.fork()
if pid == 0:
        time.sleep(60)
attempt("own_child", lambda: os.kill(pid, {int(signal.SIGKILL)}))
os.waitpid(pid, 0)
print(json.dumps(results))
""")
            assert attempts(runner, confined(path, book)) == {
                "outside": "PermissionError", "worker": "PermissionError", "own_child": "ok"}
            assert bystander.poll() is None
        finally:
            bystander.kill()


def test_the_memory_cap_holds_for_all_the_processes_together(
    runner: Runner, write: Write, book: Path
) -> None:
    """Three children of 160 MB each: each is within the 300 MB cap, together they are not."""
    path = write("forks.py", """
        import os, time
        children = []
        for _ in range(3):
            pid = os.fork()
            if pid == 0:
                block = bytearray(160 * 1024 * 1024)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                time.sleep(30)
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
        print("done = 1.0")
        """)
    result = runner.run(confined(path, book, Limits(timeout=60.0, max_memory_mb=300)))
    assert result.failure is Failure.MEMORY, result
    assert result.message == ("the snippet's processes together used more than the 300 MB "
                              "memory limit and were stopped")


def test_the_process_cap_holds_for_the_tree(
    runner: Runner, write: Write, book: Path
) -> None:
    path = write("spawn.py", """
        import os, time
        for _ in range(12):
            if os.fork() == 0:
                time.sleep(30)
                os._exit(0)
        time.sleep(30)
        print("done = 1.0")
        """)
    result = runner.run(confined(path, book, Limits(timeout=60.0, max_processes=8)))
    assert result.failure is Failure.PROCESSES, result
    assert result.message == "the snippet ran more than 8 processes at once and was stopped"
    assert result.seconds < 20


def test_an_undeclared_file_it_opens_is_a_dependency_and_reruns_it(
    write: Write, book: Path, tmp_path: Path
) -> None:
    data = write("scale.txt", "0.7071\n")
    page = book / "page.md"
    path = write("scale.py", SCALE + f"print('page =', len(open({str(page)!r}).read()))\n")
    with Runner(tmp_path / "cache", jobs=1) as runner:
        first = runner.run(confined(path, book))
        assert first.ok, first.message
        assert set(first.dependencies) == {data, page}
        assert runner.run(confined(path, book)).cached
        data.write_text("0.5\n")
        second = runner.run(confined(path, book))
    assert not second.cached
    assert second.stdout.startswith("s = 0.5\n")


def test_a_file_changed_before_the_result_is_stored_does_not_go_stale(
    write: Write, book: Path, tmp_path: Path
) -> None:
    """Results are stored when their batch ends; the data file's hash is the run's own."""
    data = write("scale.txt", "0.7071\n")
    reader = write("reader.py", SCALE)
    slow = write("slow.py", "import time\ntime.sleep(1.0)\nprint('slow = 1.0')\n")
    with Runner(tmp_path / "cache", jobs=1) as runner:
        batch = runner.start_many([confined(reader, book), confined(slow, book)])
        assert batch.result(0).stdout == "s = 0.7071\n"
        data.write_text("0.5\n")  # saved while the batch still runs
        batch.finish()
        again = runner.run(confined(reader, book))
    assert not again.cached and again.stdout == "s = 0.5\n"


def test_the_run_uses_the_bytes_that_were_hashed(write: Write, book: Path) -> None:
    """A snippet saved while it waits in the queue runs as it was when its key was made."""
    slow = write("slow.py", "import time\ntime.sleep(1.0)\nprint('slow = 1.0')\n")
    path = write("edited.py", "print('v = 0.7071')\n")
    with Runner(None, jobs=1) as runner:
        batch = runner.start_many([confined(slow, book), confined(path, book)])
        path.write_text("print('v = 0.5')\n")  # saved while the first one runs
        result = batch.finish()[1]
    assert result.stdout == "v = 0.7071\n"
    assert result.script == "print('v = 0.7071')\n"


def test_a_forged_cache_entry_is_run_again(write: Write, book: Path, tmp_path: Path) -> None:
    """An entry rewritten with its sha256 recomputed, under any field name, is not trusted."""
    import hashlib

    path = write("honest.py", "print('x = 1.0')\n")
    with Runner(tmp_path / "cache", jobs=1) as runner:
        first = runner.run(confined(path, book))
        entry_path = ResultCache(tmp_path / "cache").entry_path(first.key)
        document = json.loads(entry_path.read_text())
        entry = document["entry"]
        entry["stdout"] = "x = 9.9\n"
        canonical = json.dumps(entry, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        forged = hashlib.sha256(canonical.encode()).hexdigest()
        entry_path.write_text(json.dumps({"checksum": forged, "mac": forged, "entry": entry}))
        again = runner.run(confined(path, book))
    assert not again.cached and again.stdout == "x = 1.0\n"


@needs_landlock
def test_a_snippet_cannot_read_the_cache_key(write: Write, book: Path) -> None:
    cache_dir = book / "_build" / "doctrees" / "snippet-cache"
    path = write("thief.py", TRY + f"""
attempt("key", lambda: open({str(cache_dir / ".key")!r}, "rb").read())
print(json.dumps(results))
""")
    with Runner(cache_dir, jobs=1) as runner:
        runner.run(confined(write("first.py", "print('x = 1.0')\n"), book))
        assert (cache_dir / ".key").stat().st_mode & 0o077 == 0
        assert attempts(runner, confined(path, book)) == {"key": "PermissionError"}


def test_read_cache_false_runs_again_and_stores(write: Write, book: Path, tmp_path: Path) -> None:
    path = write("once.py", "print('x = 1.0')\n")
    with Runner(tmp_path / "cache", jobs=1) as runner:
        runner.run(confined(path, book))
    with Runner(tmp_path / "cache", jobs=1, read_cache=False) as runner:
        assert not runner.run(confined(path, book)).cached


def test_matplotlib_with_agg_draws_under_confinement(
    runner: Runner, write: Write, book: Path
) -> None:
    pytest.importorskip("matplotlib")
    path = write("plot.py", """
        import io
        import matplotlib.pyplot as plt
        figure, axes = plt.subplots()
        axes.plot([0, 1], [0, 1])
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        figure.savefig("figure.png")
        print("bytes =", len(buffer.getvalue()) > 1000)
        """)
    result = runner.run(confined(path, book, Limits(timeout=120.0)))
    assert result.ok, result.message
    assert result.stdout == "bytes = True\n"

