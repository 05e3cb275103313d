"""Milliseconds per snippet through the runner: cold (worker start included) and warm.

Usage: ``python scripts/bench_runner.py [--snippets 40] [--repeats 5]``. The snippet is the
baseline's: a 3x3 softmax attention with numpy, printing four matrices. No cache is used, so
every snippet really runs; a fresh interpreter per snippet is measured alongside for scale.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from verified_problems.engine import Confinement, Runner, SnippetRequest, worker_environment

SNIPPET = """\
import numpy as np
X = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 0.0]])
W = np.array([[0.5, -0.2, 0.1], [0.3, 0.8, -0.5], [-0.1, 0.4, 0.9]])
Q, K, V = X @ W, X @ W.T, X
S = Q @ K.T / np.sqrt(3)
A = np.exp(S - S.max(axis=1, keepdims=True))
A = A / A.sum(axis=1, keepdims=True)
np.set_printoptions(precision=4, suppress=True)
print("S =", S)
print("A =", A)
print("rowsums =", A.sum(axis=1))
print("Y =", A @ V)
"""


def requests(folder: Path, count: int) -> list[SnippetRequest]:
    """``count`` copies of the snippet under different names."""
    paths = []
    for i in range(count):
        path = folder / f"attention_{i}.py"
        path.write_text(SNIPPET, encoding="utf-8")
        paths.append(path)
    return [SnippetRequest(p, folder) for p in paths]


#: The two sides of the confinement measure: as a build runs snippets (confined by Landlock,
#: every opened file recorded), and with neither.
CONFINED = Confinement("on", track=True)
BARE = Confinement("off", track=False)


def confinement_cost(folder: Path, count: int = 40, rounds: int = 7) -> tuple[float, float]:
    """Warm milliseconds per snippet, confined and tracked against bare: the median runs.

    One worker, one snippet at a time, confined and bare runs alternating within each batch,
    so that each pair shares the machine's noise (on a shared machine a batch's time moves by
    more than the difference). Each run is timed by the worker, from its fork to its end (the
    confinement is set up in the fork); the figures are the median of the confined runs and
    that median less the median of the pairs' differences.
    """
    plain = requests(folder, count)
    batch = [dataclasses.replace(r, confinement=c) for r in plain for c in (CONFINED, BARE)]
    confined: list[float] = []
    differences: list[float] = []
    with Runner(None, jobs=1) as runner:
        runner.run_many(batch[:8])  # warm: the worker, and each kind's ruleset
        for _ in range(rounds):
            results = runner.run_many(batch)
            assert all(r.ok for r in results), [r.message for r in results if not r.ok]
            times = [r.seconds * 1000 for r in results]
            confined += times[::2]
            differences += [c - b for c, b in zip(times[::2], times[1::2], strict=True)]
    median = statistics.median(confined)
    return median, median - statistics.median(differences)


def per_snippet_ms(batch: list[SnippetRequest], jobs: int, warm: bool) -> float:
    """Wall time of one batch divided by its size; ``warm`` starts the worker beforehand."""
    with Runner(None, jobs=jobs) as runner:
        if warm:
            runner.run(batch[0])
        start = time.perf_counter()
        results = runner.run_many(batch)
        elapsed = time.perf_counter() - start
    assert all(r.ok for r in results), [r.message for r in results if not r.ok]
    return elapsed * 1000 / len(batch)


def fresh_interpreter_ms(path: Path, folder: Path, runs: int) -> float:
    """One ``python snippet.py`` at a time, in the worker's environment, for scale."""
    env = worker_environment(folder)
    start = time.perf_counter()
    for _ in range(runs):
        subprocess.run([sys.executable, str(path)], env=env, check=True, capture_output=True)
    return (time.perf_counter() - start) * 1000 / runs


def main() -> None:
    """Print a small table of medians."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--snippets", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        batch = requests(folder, args.snippets)
        print(f"{args.snippets} snippets a batch, median of {args.repeats} batches")
        for jobs in (1, 2):
            for warm in (False, True):
                samples = [per_snippet_ms(batch, jobs, warm) for _ in range(args.repeats)]
                label = "warm" if warm else "cold"
                print(f"jobs={jobs} {label}: {statistics.median(samples):6.2f} ms per snippet")
        cold = [per_snippet_ms(batch[:1], 1, False) for _ in range(args.repeats)]
        print(f"one snippet alone, cold worker: {statistics.median(cold):6.1f} ms")
        fresh = fresh_interpreter_ms(batch[0].path, folder, args.repeats * 2)
        print(f"fresh interpreter, one at a time: {fresh:6.1f} ms per snippet")
        confined, bare = confinement_cost(folder, args.snippets, args.repeats)
        print(f"confined and tracked: {confined:6.2f} ms, bare: {bare:6.2f} ms per snippet "
              f"(+{confined - bare:.2f} ms)")


if __name__ == "__main__":
    main()
