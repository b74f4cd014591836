"""Model work runs on the app's bounded, low-priority worker threads, inline without one."""

from __future__ import annotations

import contextvars
import os
import sys
import threading
import time

import pytest

from vigia.kit import model_work
from vigia.kit.model_work import ModelWorkers


def _thread() -> str:
    return threading.current_thread().name


def test_without_workers_the_work_runs_inline() -> None:
    assert model_work.run(_thread) == threading.current_thread().name


def test_served_work_runs_on_a_worker_and_nested_work_stays_there() -> None:
    workers = ModelWorkers(workers=1, queue=1)

    def served() -> tuple[str, str]:
        workers.serve_here()
        return model_work.run(lambda: (_thread(), model_work.run(_thread)))

    try:
        outer, nested = contextvars.copy_context().run(served)
    finally:
        workers.shutdown()
    assert outer.startswith("vigia-model") and nested == outer


def test_errors_of_the_work_reach_the_caller() -> None:
    workers = ModelWorkers(workers=1, queue=1)

    def fail() -> None:
        raise ValueError("bad text")

    try:
        with pytest.raises(ValueError, match="bad text"):
            workers.run(fail)
    finally:
        workers.shutdown()


def test_at_most_workers_calls_run_at_once() -> None:
    workers = ModelWorkers(workers=2, queue=8)
    running, most = 0, 0
    lock = threading.Lock()

    def work() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        time.sleep(0.05)
        with lock:
            running -= 1

    callers = [threading.Thread(target=workers.run, args=(work,)) for _ in range(6)]
    try:
        for caller in callers:
            caller.start()
        for caller in callers:
            caller.join(timeout=10)
    finally:
        workers.shutdown()
    assert most == 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")
def test_workers_run_at_a_lower_priority_than_the_caller() -> None:
    workers = ModelWorkers(workers=1, queue=1, nice=7)
    try:
        nice = workers.run(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    finally:
        workers.shutdown()
    assert nice == max(7, os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
