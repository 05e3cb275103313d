"""The snippet runner, end to end: a real fork server, real snippets, real files, no mocks.

Nothing here is timed; timeouts are generous and only guard against a hang.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from verified_problems.engine.runner import (
    WORKER_SCRIPT,
    Confinement,
    Failure,
    Limits,
    Runner,
    SnippetRequest,
    scratch_root,
    worker_environment,
)

Write = Callable[[str, str], Path]


def request(path: Path, limits: Limits | None = None, watch: Path | None = None,
            mode: str = "on") -> SnippetRequest:
    """A request for a snippet in its own folder; ``watch``: a folder it may also write, for
    the test to observe it from outside."""
    confinement = Confinement(mode, write=(watch,) if watch is not None else ())
    return SnippetRequest(path=path, snippet_dir=path.parent, limits=limits or Limits(),
                          confinement=confinement)


def gone(pid: int, within: float = 10.0) -> bool:
    """Whether a process no longer runs (absent, or a zombie about to be reaped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_bytes()
        except FileNotFoundError:
            return True
        if stat.rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
            return True
        time.sleep(0.01)
    return False


def group_gone(pgid: int) -> bool:
    """Whether no live process is left in a process group (zombies await their reaper)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_bytes().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return False
    return True


def wait_for_int(path: Path, within: float = 10.0) -> int:
    """A pid a snippet wrote to a file."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        if text.endswith("\n"):
            return int(text)
        time.sleep(0.01)
    raise AssertionError(f"{path} was never written")


# --- what a snippet prints -------------------------------------------------------------------


def test_printed_text_is_returned(runner: Runner, write: Write) -> None:
    path = write("hello.py", 'print("x = 0.4931")\nprint("café ∑")\n')
    result = runner.run(request(path))
    assert result.ok, result.message
    assert result.stdout == "x = 0.4931\ncafé ∑\n"
    assert result.failure is None and result.message == ""
    assert result.snippet_line is None and result.crash_file is None
    assert not result.cached and len(result.key) == 64 and result.seconds > 0
    assert result.dependencies == ()


def test_numpy_snippet(runner: Runner, write: Write) -> None:
    path = write(
        "attention.py",
        """
        import numpy as np
        scores = np.array([[1.0, 2.0], [3.0, 4.0]])
        weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
        print("A =", np.round(weights, 4))
        """,
    )
    result = runner.run(request(path))
    assert result.ok, result.message
    assert result.stdout == "A = [[0.2689 0.7311]\n [0.2689 0.7311]]\n"


def test_several_snippets_answer_in_order(runner: Runner, write: Write) -> None:
    paths = [write(f"s{i}.py", f"print('n = {i}')\n") for i in range(7)]
    results = runner.run_many([request(p) for p in paths])
    assert [r.stdout for r in results] == [f"n = {i}\n" for i in range(7)]
    assert runner.stats.run == 7 and runner.stats.failed == 0


# --- crashes ---------------------------------------------------------------------------------


def test_crash_names_exception_file_and_line(runner: Runner, write: Write) -> None:
    path = write("crash.py", "print('a = 1.0')\nx = 0\nprint(1 / x)\n")
    result = runner.run(request(path))
    assert result.failure is Failure.CRASH
    assert result.message == "ZeroDivisionError: division by zero"
    assert (result.crash_file, result.snippet_line) == (path, 3)
    assert result.stdout == "a = 1.0\n"


def test_crash_inside_a_local_module(runner: Runner, write: Write) -> None:
    helper = write("helper.py", "def softmax(x):\n    raise ValueError('rows must sum to 1')\n")
    path = write("uses_helper.py", "import helper\n\nhelper.softmax([1.0])\n")
    result = runner.run(request(path))
    assert result.failure is Failure.CRASH
    assert result.message == "ValueError: rows must sum to 1"
    assert (result.crash_file, result.snippet_line) == (helper, 2)
    assert helper in result.dependencies


def test_syntax_error_points_at_its_line(runner: Runner, write: Write) -> None:
    path = write("broken.py", "print('ok')\nprint('unclosed'\n")
    result = runner.run(request(path))
    assert result.failure is Failure.CRASH
    assert result.message.startswith("SyntaxError")
    assert result.crash_file == path and result.snippet_line in (2, 3)


def test_sys_exit_nonzero_is_a_crash_and_zero_is_not(runner: Runner, write: Write) -> None:
    failing = write("exit3.py", "import sys\nprint('a = 1.0')\nsys.exit(3)\n")
    passing = write("exit0.py", "import sys\nprint('a = 1.0')\nsys.exit(0)\n")
    bad, good = runner.run_many([request(failing), request(passing)])
    assert bad.failure is Failure.CRASH and "sys.exit(3)" in bad.message
    assert bad.snippet_line == 3
    assert good.ok and good.stdout == "a = 1.0\n"


# --- limits ----------------------------------------------------------------------------------


def test_timeout_kills_the_snippet_and_its_children(
    runner: Runner, write: Write, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    path = write(
        "sleeper.py",
        f"""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        with open({str(pids)!r}, "w") as f:
            f.write(f"{{os.getpid()}} {{child.pid}}\\n")
        time.sleep(120)
        """,
    )
    result = runner.run(request(path, Limits(timeout=1.0), watch=tmp_path))
    assert result.failure is Failure.TIMEOUT
    assert result.message == "the snippet did not finish within 1 s"
    snippet_pid, child_pid = map(int, pids.read_text().split())
    assert gone(snippet_pid) and gone(child_pid)
    assert group_gone(snippet_pid)


def test_background_process_left_running_is_killed(
    runner: Runner, write: Write, tmp_path: Path
) -> None:
    pid_file = tmp_path / "orphan.pid"
    path = write(
        "orphan.py",
        f"""
        import os, time
        pid = os.fork()
        if pid == 0:
            with open({str(pid_file)!r} + ".tmp", "w") as f:
                f.write(f"{{os.getpid()}}\\n")
            os.rename({str(pid_file)!r} + ".tmp", {str(pid_file)!r})
            time.sleep(120)
            os._exit(0)
        while not os.path.exists({str(pid_file)!r}):  # the child is surely running now
            time.sleep(0.01)
        print("x = 1.0")
        """,
    )
    result = runner.run(request(path, watch=tmp_path))
    grandchild = wait_for_int(pid_file)
    assert result.failure is Failure.ORPHAN
    assert result.message == "the snippet left a background process running; it was killed"
    assert gone(grandchild)


def test_printing_nothing(runner: Runner, write: Write) -> None:
    result = runner.run(request(write("silent.py", "x = 1.0\n")))
    assert result.failure is Failure.EMPTY
    assert result.message == "the snippet printed nothing"


def test_undecodable_output_says_where(runner: Runner, write: Write) -> None:
    path = write("latin.py", "import sys\nsys.stdout.buffer.write(b'ok\\n\\xe9t\\xe9\\n')\n")
    result = runner.run(request(path))
    assert result.failure is Failure.UNDECODABLE
    assert "not UTF-8" in result.message and "byte 3" in result.message


def test_output_limit(runner: Runner, write: Write) -> None:
    path = write("flood.py", "line = 'x' * 1023\nfor _ in range(100_000):\n    print(line)\n")
    result = runner.run(request(path, Limits(max_output=64 * 1024)))
    assert result.failure is Failure.OUTPUT_LIMIT
    assert "printed more than 65536 bytes" in result.message


def test_memory_limit(runner: Runner, write: Write) -> None:
    plain = write("hog.py", "print('start = 1.0')\nblock = bytearray(2 * 1024**3)\n")
    numpy = write("nphog.py", "import numpy as np\nprint(np.ones(2**28).sum())\n")
    small = Limits(max_memory_mb=512)
    results = runner.run_many([request(plain, small), request(numpy, small)])
    for result in results:
        assert result.failure is Failure.MEMORY, result
        assert "512 MB" in result.message


def test_reading_stdin_gets_end_of_file(runner: Runner, write: Write) -> None:
    path = write("reads.py", "import sys\ndata = sys.stdin.read()\nprint('read =', len(data))\n")
    result = runner.run(request(path, Limits(timeout=20.0)))
    assert result.ok, result.message
    assert result.stdout == "read = 0\n"


# --- isolation -------------------------------------------------------------------------------


def test_working_folder_is_private_and_removed(
    runner: Runner, write: Write, folder: Path
) -> None:
    write("tool.py", "VALUE = 2.5\n")
    path = write(
        "writer.py",
        """
        import os, tool
        with open("scratch.txt", "w") as f:
            f.write("temporary")
        os.mkdir("sub")
        print(os.getcwd())
        print("v =", tool.VALUE)
        """,
    )
    before = sorted(p.name for p in folder.rglob("*"))
    result = runner.run(request(path))
    assert result.ok, result.message
    cwd = Path(result.stdout.splitlines()[0])
    assert not cwd.exists()
    assert not cwd.is_relative_to(folder)
    assert sorted(p.name for p in folder.rglob("*")) == before  # no __pycache__ either


def test_hash_seed_is_fixed_and_caller_environment_ignored(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "shadowmod.py").write_text("print('loaded from PYTHONPATH')\n")
    monkeypatch.setenv("PYTHONPATH", str(shadow))
    monkeypatch.setenv("VP_SECRET", "leaked")
    path = write(
        "env.py",
        """
        import os
        print(hash("x"))
        try:
            import shadowmod
        except ImportError:
            print("no shadow")
        print(os.environ.get("VP_SECRET"), os.environ["OPENBLAS_NUM_THREADS"])
        """,
    )
    outputs = []
    for _ in range(2):  # two runners: two workers, two interpreters
        with Runner(None, jobs=1) as runner:
            outputs.append(runner.run(request(path)).stdout)
    reference = subprocess.run(
        [sys.executable, "-c", "print(hash('x'))"],
        env={"PYTHONHASHSEED": "0", "PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert outputs[0] == outputs[1] == f"{reference}no shadow\nNone 1\n"


# --- concurrency, failures of the machinery --------------------------------------------------


def rendezvous(write: Write, flags: Path, timeout: float) -> list[SnippetRequest]:
    """Two snippets that each wait for a file the other creates: only concurrently do both end."""
    flags.mkdir()
    code = """
        import pathlib, time
        flags = pathlib.Path({flags!r})
        (flags / "{me}").touch()
        deadline = time.monotonic() + 60
        while not (flags / "{other}").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        print("met =", (flags / "{other}").exists())
        """
    paths = [
        write("meet_a.py", code.format(flags=str(flags), me="a", other="b")),
        write("meet_b.py", code.format(flags=str(flags), me="b", other="a")),
    ]
    return [request(p, Limits(timeout=timeout), watch=flags) for p in paths]


def test_run_many_runs_concurrently(write: Write, tmp_path: Path) -> None:
    with Runner(None, jobs=2) as runner:
        results = runner.run_many(rendezvous(write, tmp_path / "flags", timeout=60.0))
    assert [r.stdout for r in results] == ["met = True\n", "met = True\n"]


def test_one_job_runs_one_at_a_time(write: Write, tmp_path: Path) -> None:
    """The control for the test above: with one job the first snippet waits in vain."""
    with Runner(None, jobs=1) as runner:
        first, second = runner.run_many(rendezvous(write, tmp_path / "flags", timeout=2.0))
    assert first.failure is Failure.TIMEOUT
    assert second.ok and second.stdout == "met = True\n"


def test_a_limit_holds_a_worker_to_fewer_jobs_and_can_be_lifted(
    write: Write, tmp_path: Path
) -> None:
    """What the background runs do while a page is read: leave a core, then take it back."""
    with Runner(None, jobs=2) as runner:
        runner.limit(1)
        first, second = runner.run_many(rendezvous(write, tmp_path / "held", timeout=2.0))
        assert first.failure is Failure.TIMEOUT
        assert second.ok
        runner.limit(2)
        lifted = runner.run_many(rendezvous(write, tmp_path / "lifted", timeout=60.0))
        assert [r.stdout for r in lifted] == ["met = True\n", "met = True\n"]


def test_a_cancelled_batch_runs_nothing_more(write: Write) -> None:
    """What a failed build does with the snippets no page asked for yet."""
    paths = [write(f"nap_{i}.py", "import time\ntime.sleep(0.3)\nprint('x = 1.5')\n")
             for i in range(6)]
    with Runner(None, jobs=1) as runner:
        batch = runner.start_many([request(p) for p in paths])
        batch.result(0)
        runner.cancel()
        results = batch.finish()
    assert results[0].ok
    stopped = [r for r in results if r.failure is Failure.WORKER]
    assert stopped and all(r.message == "the build stopped before this snippet ran"
                           for r in stopped)
    assert all(r.ok or r in stopped for r in results)


def test_a_running_batch_moves_along_in_the_callers_own_thread(write: Write) -> None:
    """What a single reader does: start every snippet, ask for one, add one the prefetch did
    not see (it goes first), and take the rest at the end; no thread is started for it."""
    paths = [write(f"step_{i}.py", f"print('x = {i}.5')\n") for i in range(3)]
    paths.append(write("slow.py", "import time\ntime.sleep(0.5)\nprint('x = 9.5')\n"))
    with Runner(None, jobs=1) as runner:
        threads = threading.active_count()
        batch = runner.start_many([request(p) for p in paths])
        assert threading.active_count() == threads
        assert batch.result(1).stdout == "x = 1.5\n"
        late = batch.add(request(write("late.py", "print('x = 7.5')\n")))
        assert late == 4
        assert batch.result(late).stdout == "x = 7.5\n"
        assert not batch.done(3)  # the slow one was queued behind the late one
        results = batch.finish()
        assert [r.stdout for r in results] == [
            "x = 0.5\n", "x = 1.5\n", "x = 2.5\n", "x = 9.5\n", "x = 7.5\n"]
        assert threading.active_count() == threads
        with pytest.raises(KeyError):  # asking for what was never asked for does not hang
            batch.result(99)


@pytest.mark.parametrize("tmpdir", [False, True])
def test_the_working_folders_are_in_memory_unless_tmpdir_says_where(
    tmpdir: bool, write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    if tmpdir:
        monkeypatch.setenv("TMPDIR", str(chosen))
    else:
        monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", None)  # tempfile reads TMPDIR again
    expected = str(chosen) if tmpdir else (scratch_root() or tempfile.gettempdir())
    path = write("where.py", "import os\nprint(os.getcwd())\n")
    with Runner(None, jobs=1) as runner:
        cwd = runner.run(request(path)).stdout.strip()
    assert Path(cwd).is_relative_to(os.path.realpath(expected)), (cwd, expected)
    if not tmpdir and Path("/dev/shm").is_dir():
        assert cwd.startswith("/dev/shm/")


def test_a_worker_whose_caller_is_gone_removes_the_callers_folder(tmp_path: Path) -> None:
    """A forked reader that ended before its worker was ready leaves nobody to clean up."""
    root = tmp_path / "root"
    root.mkdir()
    command = [sys.executable, "-s", "-P", str(WORKER_SCRIPT), "--jobs", "1", "--root", str(root)]
    worker = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=worker_environment(tmp_path))
    assert worker.stdout is not None and worker.stdin is not None
    worker.stdout.close()  # the caller is gone: the worker's "ready" finds no reader
    assert worker.wait(timeout=60) == 0
    worker.stdin.close()
    assert not root.exists()


def test_missing_snippet_and_data_file(runner: Runner, write: Write, folder: Path) -> None:
    absent = SnippetRequest(folder / "absent.py", folder)
    path = write("reads_data.py", "print('x = 1.0')\n")
    no_data = SnippetRequest(path, folder, data_files=(folder / "absent.csv",))
    results = runner.run_many([absent, no_data])
    assert [r.failure for r in results] == [Failure.MISSING, Failure.MISSING]
    assert "absent.py does not exist" in results[0].message
    assert "absent.csv does not exist" in results[1].message
    assert runner.stats.run == 0 and runner.stats.failed == 2


def test_dead_worker_is_reported_and_replaced(write: Write, tmp_path: Path) -> None:
    """A snippet that kills the worker: what was in flight is WORKER, the rest still runs."""
    pid_file = tmp_path / "killer.pid"
    killer = write(
        "killer.py",
        f"""
        import os, signal, time
        with open({str(pid_file)!r}, "w") as f:
            f.write(f"{{os.getpid()}}\\n")
        os.kill(os.getppid(), signal.SIGKILL)
        time.sleep(120)
        """,
    )
    fine = write("fine.py", "print('x = 1.0')\n")
    with Runner(None, jobs=1) as runner:
        results = runner.run_many(
                [request(killer, Limits(timeout=120.0), mode="off")] + [request(fine)] * 3)
        assert results[0].failure is Failure.WORKER
        assert "worker died" in results[0].message
        assert results[-1].ok
        assert runner.run(request(fine)).ok
    assert gone(wait_for_int(pid_file))  # the orphaned snippet was killed with the worker


def test_tiny_timeout_still_kills(runner: Runner, write: Write) -> None:
    path = write("spin.py", "while True:\n    pass\n")
    result = runner.run(request(path, Limits(timeout=0.001)))
    assert result.failure is Failure.TIMEOUT


def test_close_is_idempotent_and_runner_reusable(write: Write) -> None:
    path = write("twice.py", "print('x = 1.0')\n")
    runner = Runner(None, jobs=1)
    assert runner.run(request(path)).ok
    runner.close()
    runner.close()
    assert runner.run(request(path)).ok  # a new worker, started on need
    runner.close()


def test_runner_after_fork_uses_its_own_worker(write: Write, tmp_path: Path) -> None:
    """A forked child (Sphinx's parallel readers) starts its own worker, leaving the parent's."""
    path = write("parent.py", "import os\nprint('worker =', os.getppid())\n")
    report = tmp_path / "child.json"
    with Runner(None, jobs=1) as runner:
        before = runner.run(request(path))
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child
            status = 1
            try:
                result = runner.run(request(path))
                runner.close()
                report.write_text(json.dumps([result.ok, result.stdout]))
                status = 0
            finally:
                os._exit(status)
        _, status = os.waitpid(pid, 0)
        after = runner.run(request(path))
    assert os.waitstatus_to_exitcode(status) == 0
    child_ok, child_stdout = json.loads(report.read_text())
    assert before.ok and after.ok and child_ok
    assert before.stdout == after.stdout  # the parent's worker survived, untouched
    assert child_stdout != before.stdout  # the child had a worker of its own


def test_result_reports_local_modules_and_data_files(
    runner: Runner, write: Write, folder: Path
) -> None:
    helper = write("lib_helper.py", "SCALE = 2.0\n")
    data = folder / "values.csv"
    data.write_text("1.5\n")
    path = write(
        "deps.py",
        """
        import pathlib, lib_helper
        value = float((pathlib.Path(__file__).parent / "values.csv").read_text())
        print("y =", value * lib_helper.SCALE)
        """,
    )
    result = runner.run(SnippetRequest(path, folder, data_files=(data,)))
    assert result.ok and result.stdout == "y = 3.0\n"
    assert result.dependencies == (helper, data)
