"""The forked helper, for real: a forked process, real pipes, real signals; nothing mocked."""

from __future__ import annotations

import os
import signal
import threading

from verified_problems.engine import Forked


def _square_or_fail(job: int) -> int:
    if job < 0:
        raise ValueError("negative")
    return job * job


def test_every_job_is_answered_by_its_key_whatever_order_they_are_asked_in() -> None:
    helper = Forked(_square_or_fail)
    try:
        for number in range(50):
            helper.submit(f"job {number}", number)
        assert [helper.result(f"job {n}") for n in reversed(range(50))] == [
            n * n for n in reversed(range(50))]
    finally:
        helper.close()


def test_a_job_that_raises_gets_none_and_the_next_jobs_are_still_done() -> None:
    helper = Forked(_square_or_fail)
    try:
        helper.submit("bad", -1)
        helper.submit("good", 7)
        assert helper.result("bad") is None
        assert helper.result("good") == 49
    finally:
        helper.close()


def test_a_helper_that_died_answers_none_instead_of_hanging() -> None:
    helper = Forked(_square_or_fail)
    try:
        helper.submit("first", 3)
        assert helper.result("first") == 9
        os.kill(helper.pid, signal.SIGKILL)
        helper.submit("after", 4)
        assert helper.result("after") is None
    finally:
        helper.close()


def test_close_ends_the_helper_process() -> None:
    helper = Forked(_square_or_fail)
    helper.submit("one", 2)
    helper.close()
    try:
        os.kill(helper.pid, 0)
    except ProcessLookupError:
        return
    raise AssertionError(f"helper {helper.pid} still runs after close()")


def test_the_helper_yields_to_its_caller() -> None:
    helper = Forked(lambda _job: (os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)))
    try:
        helper.submit("policy", None)
        policy, niceness = helper.result("policy")
        assert policy == os.SCHED_IDLE or niceness > os.getpriority(os.PRIO_PROCESS, 0)
    finally:
        helper.close()


def test_no_helper_is_forked_from_a_process_that_runs_other_threads() -> None:
    from verified_problems.engine import can_fork

    assert can_fork()
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
    finally:
        stop.set()
        other.join()
    assert can_fork()
