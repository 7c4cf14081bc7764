"""The process pool's handling of Ctrl-C and of a worker that dies (tarot_solver.parallel)."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import BrokenExecutor, CancelledError
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

from tarot_solver import __version__
from tarot_solver.errors import SchedulerError, WorkerError
from tarot_solver import parallel
from tarot_solver.parallel import (Progress, _check_scheduler, _check_workers, _died, _quiet_cancelled_dispatch,
                                   _workers_watched, chunks, default_jobs, map_ordered, stop_local_workers)

from conftest import default_sigint, process_state


pytestmark = pytest.mark.usefixtures("python_sigint")


def _sigint_handling(_: int) -> Tuple[bool, bool]:
    """In a worker: whether SIGINT is ignored there, and whether it is blocked."""
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, ())


def test_a_ctrl_c_while_workers_start_is_raised_once_they_are_started() -> None:
    # in a process of one thread, as the command line is then (another thread not
    # blocking SIGINT would take the signal, ignored)
    code = """if True:
        import os, signal, time
        from tarot_solver.parallel import _ctrl_c_ignored_by_new_workers
        try:
            with _ctrl_c_ignored_by_new_workers(local=True):
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.05)  # not raised here: the pool is starting
                assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        except KeyboardInterrupt:
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
            assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())
            print("raised after")
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir(), preexec_fn=default_sigint)  # (the installed package)
    assert done.returncode == 0 and done.stdout == "raised after\n", done.stderr


def test_workers_ignore_ctrl_c() -> None:
    # the terminal signals the whole group; this process stops the workers itself.  Workers
    # loky starts again after a run stopped early inherit SIGINT blocked as well (harmless:
    # ignored either way); this test met them in the suite after such a run
    for stopped_early in (False, True):
        if stopped_early:
            run = map_ordered(_sigint_handling, range(40), jobs=2)
            next(run)
            run.close()
        handling = set(map_ordered(_sigint_handling, range(4), jobs=2))
        assert {ignored for ignored, _ in handling} == {True}, handling
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())


def _dies_at_2(i: int) -> int:
    """In a worker: the task for 2 kills its process, as the system does when memory runs out."""
    if i == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return i


def test_a_worker_that_dies_ends_the_run_with_one_error() -> None:
    results = []
    with pytest.raises(WorkerError, match=r"^a worker process died \(exit codes \{SIGKILL\(-9\)\}\); if it ran out"
                                          r" of memory, fewer --jobs use less$"):
        for r in map_ordered(_dies_at_2, range(6), jobs=2):
            results.append(r)
    assert results == [0, 1][:len(results)]  # in order, up to where the pool broke
    assert list(map_ordered(_dies_at_2, [5, 6], jobs=2)) == [5, 6]  # a new pool serves the next run


def test_workers_leave_when_their_parent_is_killed(tmp_path: Path) -> None:
    # loky's workers outlived a parent killed with SIGKILL: each finished its task (a
    # search of minutes, perhaps), then waited five minutes for another
    code = """if True:
        import os, sys, time
        from tarot_solver.parallel import map_ordered
        def task(i):
            open(os.path.join(sys.argv[1], str(os.getpid())), "w").close()
            time.sleep(120)
            return i
        list(map_ordered(task, range(2), jobs=2))
    """
    parent = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], cwd=tempfile.gettempdir(),
                              stderr=subprocess.DEVNULL)  # (the installed package; loky's tracker warns)
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.iterdir())) < 2:
            assert parent.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
    finally:
        parent.kill()
        parent.wait()
    workers = [int(p.name) for p in tmp_path.iterdir()]
    try:
        deadline = time.monotonic() + 10
        while any(process_state(w) not in ("", "Z") for w in workers):
            assert time.monotonic() < deadline, "the workers outlived their parent"
            time.sleep(0.1)
    finally:
        for w in workers:
            if process_state(w) not in ("", "Z"):
                os.kill(w, signal.SIGKILL)


class _FakeClient:
    """What the watch of a Dask run reads of its client."""

    def __init__(self, workers: int, status: str = "running") -> None:
        self.workers, self.status = workers, status

    def scheduler_info(self, n_workers: int) -> Dict[str, Any]:
        return {"n_workers": self.workers, "workers": {}}


class _FrozenClient(_FakeClient):
    """The client of a scheduler that stopped answering (a hung host): a question never returns."""

    def scheduler_info(self, n_workers: int) -> Dict[str, Any]:
        threading.Event().wait()
        raise AssertionError("unreachable")


@pytest.mark.parametrize("client, reason", [
    (_FakeClient(0), "the Dask cluster has had no worker for 0.5 s"),
    (_FakeClient(2, status="connecting"), "the Dask scheduler has not answered for 0.5 s"),
    (_FrozenClient(2), "the Dask scheduler has not answered for 0.5 s"),
])
def test_a_dask_run_without_workers_is_stopped(client: _FakeClient, reason: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        with _workers_watched(client, 0.5) as lost:
            time.sleep(10)  # waiting for a worker, as Dask would forever
    assert lost == [reason]
    with _workers_watched(_FakeClient(1), 0.5) as lost:  # a worker: nothing happens
        time.sleep(2.2)
    assert lost == []


def test_a_cluster_of_one_worker_thread_does_the_work() -> None:
    # joblib runs a call whose pool has one job in the calling process: the client did the work
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                                  processes=True) as cluster:
        pids = set(map_ordered(lambda _: os.getpid(), range(3), scheduler=cluster.scheduler_address))
    assert len(pids) == 1 and os.getpid() not in pids


def test_a_dask_client_keeps_no_copy_of_the_tasks_it_sent() -> None:
    # its stream to the scheduler kept the last 1000 messages it sent (a log for developers), each
    # a batch of tasks with their items pickled: the client grew by 5 MB over a run's first games
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                                  processes=True) as cluster:
        kept = [len(distributed.default_client().scheduler_comm.recent_message_log)
                for _ in map_ordered(abs, range(20), scheduler=cluster.scheduler_address)]
    assert kept == [0] * 20


class _Versions:
    """A Dask client whose workers import these versions of tarot_solver (None: they cannot)."""

    def __init__(self, *versions: Any) -> None:
        self.versions = versions

    def run(self, probe: Callable[[], Any]) -> Dict[str, Any]:
        assert probe() == __version__  # the probe itself, here
        return {f"tcp://10.0.0.{i}:8786": v for i, v in enumerate(self.versions)}


@pytest.mark.parametrize("versions, says", [
    ((__version__, None), "the Dask worker at tcp://10.0.0.1:8786 cannot import tarot_solver"),
    (("0.0.1", __version__), "the Dask worker at tcp://10.0.0.0:8786 has tarot_solver 0.0.1"),
])
def test_workers_without_this_tarot_solver_are_named(versions: Tuple[Any, ...], says: str) -> None:
    # such a worker could not read a task and left the cluster, and the run then waited for one
    with pytest.raises(SchedulerError, match=re.escape(f"{says}: install tarot-solver {__version__} on every worker")):
        _check_workers(_Versions(*versions), "tcp://10.0.0.9:8786")
    _check_workers(_Versions(__version__, __version__), "tcp://10.0.0.9:8786")


def test_an_error_of_the_input_ends_a_parallel_run_after_the_results_before_it() -> None:
    # (not a run that just stops there and looks complete)
    run = map_ordered(abs, items_then_error(3), jobs=2)
    assert next(run) == 0 and next(run) == 1 and next(run) == 2
    with pytest.raises(ValueError, match="boom"):
        next(run)
    with pytest.raises(ValueError, match="boom"):  # before any item
        next(map_ordered(abs, items_then_error(0), jobs=2))


def items_then_error(n: int) -> Iterator[int]:
    yield from range(n)
    raise ValueError("boom")


def test_no_more_workers_than_items() -> None:
    """Each worker costs a process start: `-j 64` on three items starts three."""
    from joblib.externals.loky import reusable_executor  # type: ignore[import-untyped]

    assert list(map_ordered(abs, [-1, -2, -3], jobs=64)) == [1, 2, 3]
    assert reusable_executor._executor._max_workers == 3
    assert list(map_ordered(abs, [], jobs=64)) == []


def test_a_ctrl_c_while_the_pool_starts_stops_the_run() -> None:
    # A Ctrl-C in the moments the pool starts its workers (SIGINT ignored, blocked in
    # the main thread) is raised once they end.  It was lost, the run going on to its
    # end: the resource tracker multiprocessing starts there unblocked SIGINT in the
    # main thread, and numpy's BLAS thread (joblib imports numpy) took it.  A fresh
    # process: neither is running yet.
    code = """
import contextlib, os, signal, time
import tarot_solver.parallel as par
window = par._ctrl_c_ignored_by_new_workers
@contextlib.contextmanager
def ctrl_c_inside(local):
    with window(local):
        os.kill(os.getpid(), signal.SIGINT)
        yield
par._ctrl_c_ignored_by_new_workers = ctrl_c_inside
def slow(x):
    time.sleep(0.5)
    return x
try:
    print(list(par.map_ordered(slow, range(6), jobs=2)))
except KeyboardInterrupt:
    print("interrupted")
par.stop_local_workers(5.0)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=tempfile.gettempdir())
    # (loky's manager thread could print a KeyError's traceback then: see the next test;
    # its resource tracker may still warn, rarely, of a semaphore already gone)
    assert (proc.returncode, proc.stdout.strip()) == (0, "interrupted"), proc
    assert "Traceback" not in proc.stderr, proc.stderr


def test_the_dispatch_race_of_an_early_stop_prints_nothing() -> None:
    # When a run stops early, loky's executor manager thread can take a task's id while
    # the cancellation removes the task, and die of a KeyError whose traceback came after
    # the run's last line (seen in about 1 of 8 runs interrupted as the pool starts):
    # that exception alone is dropped, every other goes to the hook before
    from joblib.externals.loky.process_executor import _ExecutorManagerThread

    seen: List[Any] = []
    hook = _quiet_cancelled_dispatch(seen.append)
    manager = object.__new__(_ExecutorManagerThread)
    other = threading.Thread(target=print)
    for exc_type, thread in ((KeyError, manager), (ValueError, manager), (KeyError, other)):
        hook(SimpleNamespace(exc_type=exc_type, exc_value=exc_type(1), exc_traceback=None, thread=thread))
    assert [(a.exc_type, a.thread) for a in seen] == [(ValueError, manager), (KeyError, other)]
    assert list(map_ordered(abs, [-1, -2], jobs=2)) == [1, 2]
    assert getattr(threading.excepthook, "quiets_loky", False)  # (installed by a local pool)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads the threads' signal masks in /proc")
def test_numpy_threads_leave_ctrl_c_to_the_main_thread() -> None:
    # While a local pool starts, SIGINT is ignored and blocked in the main thread (its
    # workers inherit the ignore): a thread that did not block it took a Ctrl-C of those
    # moments and dropped it (numpy's BLAS threads), and the run went on to its end.
    code = """
import os
from tarot_solver.sampling import _numpy
_numpy()
masks = {}
for t in os.listdir("/proc/self/task"):
    status = open(f"/proc/self/task/{t}/status").read().splitlines()
    masks[int(t)] = int(next(l for l in status if l.startswith("SigBlk")).split()[1], 16) >> 1 & 1
print(masks.pop(os.getpid()), sorted(set(masks.values())))
"""
    # without the thread limits a Dask LocalCluster leaves in os.environ (the tests above start
    # one): numpy then started no BLAS thread, and the test passed with nothing to check
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir(), env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() in ("0 [1]", "0 []"), proc.stdout  # (the main thread's, then the others')


def _pid(_: int) -> int:
    return os.getpid()


def test_jobs_0_runs_in_a_worker_per_core() -> None:
    # 0 means all cores (1 alone runs in this process): it returned no result at all when
    # the items read ahead were `jobs` of them, and ran here when 0 was taken as 1
    if default_jobs() < 2:
        pytest.skip("one core: joblib runs a pool of one job in this process")
    pids = list(map_ordered(_pid, range(4), jobs=0))
    assert len(pids) == 4 and os.getpid() not in pids
    assert list(map_ordered(_pid, range(2), jobs=1)) == [os.getpid()] * 2


def _slow_first(i: int) -> int:
    time.sleep(0.5 if i == 0 else 0.0)
    return i


def test_results_come_in_input_order_whatever_finishes_first() -> None:
    assert list(map_ordered(_slow_first, range(6), jobs=2)) == list(range(6))


def _nap(i: int) -> int:
    time.sleep(0.05)
    return i


def test_items_are_read_as_the_workers_need_them() -> None:
    # a few tasks per worker in flight: a run over many games does not hold them all at once
    read: List[int] = []

    def items() -> Iterator[int]:
        for i in range(400):
            read.append(i)
            yield i

    run = map_ordered(_nap, items(), jobs=2)
    assert next(run) == 0
    assert len(read) < 100, len(read)
    run.close()


def test_stop_local_workers_stops_the_pool_this_process_started(monkeypatch: pytest.MonkeyPatch) -> None:
    from joblib.externals.loky import reusable_executor  # type: ignore[import-untyped]

    monkeypatch.setattr(parallel, "_local_pool_started", False)
    pids = set(map_ordered(_pid, range(4), jobs=2))
    executor = reusable_executor._executor
    monkeypatch.setattr(executor, "shutdown", lambda **kwargs: time.sleep(1.0))  # a teardown that hangs
    assert stop_local_workers(0.1) is False
    monkeypatch.undo()
    monkeypatch.setattr(parallel, "_local_pool_started", True)
    assert stop_local_workers(10.0) is True
    for pid in pids:  # (joined: not even zombies)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


class _Clock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_over_one_line_once_a_second_has_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    clock = _Clock()
    bar = Progress("solving:", 3, clock=clock)
    clock.now += 0.5
    bar.step()
    bar.close()
    assert err.getvalue() == ""  # a short run draws nothing
    clock.now += 6.7  # (7.2 s in)
    for _ in range(3):  # the total was an estimate: the bar ends full, at 4/4
        bar.step()
    bar.show("end")  # a shorter line blanks the rest of the longer one
    bar.close()
    assert err.getvalue() == ("\rsolving: [####################----------] 2/3 7s"
                              "\rsolving: [##############################] 3/3 7s"
                              "\rsolving: [##############################] 4/4 7s"
                              "\rsolving: end" + " " * 36 + "\n")
    err.truncate(0)
    err.seek(0)
    count = Progress("analyzing:", None, clock=clock)
    clock.now += 7.2
    count.step()
    count.close()
    assert err.getvalue() == "\ranalyzing: 1 done 7s\n"
    Progress(None, 3, clock=clock).step()  # no label: no bar
    assert err.getvalue() == "\ranalyzing: 1 done 7s\n"
    monkeypatch.setattr(err, "isatty", lambda: False)
    quiet = Progress("solving:", 3, clock=clock)  # not a terminal: no bar (a line a minute, below)
    clock.now += 7.2
    quiet.step()
    quiet.close()
    assert err.getvalue() == "\ranalyzing: 1 done 7s\n"


def test_a_lost_run_says_why() -> None:
    lost = CancelledError()
    lost.reason = "scheduler-connection-lost"  # type: ignore[attr-defined]
    assert _died(lost) == "the connection to the Dask scheduler was lost"
    other = CancelledError()
    other.reason = "stimulus"  # type: ignore[attr-defined]
    assert _died(other) == "the Dask cluster cancelled a task (stimulus)"
    assert _died(CancelledError()) == "the Dask cluster cancelled a task"
    assert _died(BrokenExecutor("A task has failed to un-serialize.\nDetails")) == (
        "a worker process died (A task has failed to un-serialize. Details); if it ran out of memory,"
        " fewer --jobs use less")


def test_chunks_cover_the_sequence_in_order() -> None:
    assert list(chunks(range(7), 3)) == [range(0, 3), range(3, 6), range(6, 7)]
    assert list(chunks([5], 4)) == [[5]] and list(chunks([], 4)) == []


@pytest.mark.parametrize("port", [0, 65536])
def test_a_scheduler_port_out_of_range_is_named(port: int) -> None:
    pytest.importorskip("distributed")
    with pytest.raises(SchedulerError, match=f"^key 'scheduler': bad address: port {port} is not in 1..65535"):
        _check_scheduler(f"tcp://127.0.0.1:{port}", 1.0)


def test_progress_off_a_terminal_is_a_line_a_minute_and_the_last_count(capsys: pytest.CaptureFixture) -> None:
    # (stderr here is pytest's capture, no terminal): a redrawn bar would pile up in a
    # log file, so a line each minute, none before the first minute, the last at the end
    clock = _Clock()
    bar = Progress("analyze", 4, clock=clock)
    for seconds in (30, 61, 90, 100):
        clock.now = 100.0 + seconds
        bar.step()
    bar.close()
    assert capsys.readouterr().err.splitlines() == [
        "analyze [###############---------------] 2/4 61s",
        "analyze [##############################] 4/4 100s",  # (written as the run ends)
    ]
    short = Progress("analyze", 4, clock=clock)
    short.step()
    short.close()
    assert capsys.readouterr().err == ""  # (a run of under a minute writes nothing)
    clock.now += 200
    told = Progress("analyze", 4, clock=clock)
    clock.now += 61
    told.step()
    told.close()  # (the last count was written already)
    assert capsys.readouterr().err == "analyze [#######-----------------------] 1/4 61s\n"
