"""Running independent tasks on local processes or on a Dask cluster.

One function, :func:`map_ordered`, serves the Monte Carlo advice (one task per
batch of worlds) and the batch analysis (one task per game).  Results come back
lazily and in input order, so the output never depends on the number of
workers, and at most a few tasks per worker are in flight, so memory stays flat
however many tasks there are.

* locally: joblib's loky process pool (``jobs`` workers, 0 means all cores; 1
  runs in this process, which keeps tracebacks and profiles simple);
* on a cluster: joblib's Dask backend against ``scheduler`` (``tcp://HOST:PORT``),
  which needs the optional ``dask[distributed]`` extra here and this version of
  tarot_solver on every worker (checked before any task is sent); the tasks run on
  the workers, even where the cluster has a single thread.

Progress goes to stderr: on a terminal a bar redrawn in place once a run has
lasted a second; elsewhere (a log file, a pipe) one line a minute, and the last
count at the end, so a run left to itself says how far it got.  Ctrl-C stops
the workers and propagates ``KeyboardInterrupt`` after the results already
yielded, so a caller that writes each result as it arrives leaves valid output;
a worker that dies under a task (killed by the system) ends the run so too, with
a :class:`~tarot_solver.errors.WorkerError`; and local workers whose parent is
killed (SIGKILL) stop within a second instead of finishing their tasks.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import os
import re
import signal
import socket
import sys
import threading
import time
import warnings
from concurrent.futures import BrokenExecutor, CancelledError
from multiprocessing import resource_tracker
from typing import IO, Any, Callable, Generic, Iterable, Iterator, List, Optional, Tuple, Type, TypeVar

from .errors import SchedulerError, WorkerError, one_line

T = TypeVar("T")
R = TypeVar("R")

#: whether this process has started local workers (joblib's reusable loky pool)
_local_pool_started = False


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Progress:
    """A counter on stderr.  On a terminal it is redrawn in place once the run has
    lasted ``DELAY`` seconds (a short run draws nothing); elsewhere (stderr a log
    file or a pipe, where a redrawn line would pile up) it is one line every
    ``LOG_EVERY`` seconds, and the last count when the run ends, if any line was
    written; nothing where stderr is stdout's file (``2>&1``), whose output its lines
    would break.  ``clock``: where the time comes from (seconds, monotonic)."""

    DELAY = 1.0
    LOG_EVERY = 60.0

    def __init__(self, label: Optional[str], total: Optional[int],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label = label
        self.total = total
        self.clock = clock
        self.start = clock()
        self.done = 0
        self.shown = False
        self.width = 0
        self.tty = sys.stderr.isatty()
        self.quiet = not self.tty and _same_file(sys.stdout, sys.stderr)
        self.logged = 0.0  # (when the last line was written, off a terminal)
        self.pending: Optional[str] = None  # (a line not written yet, off a terminal)

    @property
    def elapsed(self) -> float:
        return self.clock() - self.start

    def step(self) -> None:
        self.done += 1
        if self.total:
            total = max(self.total, self.done)  # (a total may be an estimate)
            width = 30
            filled = width * self.done // total
            bar = "#" * filled + "-" * (width - filled)
            self.show(f"[{bar}] {self.done}/{total} {self.elapsed:.0f}s")
        else:
            self.show(f"{self.done} done {self.elapsed:.0f}s")

    def show(self, text: str) -> None:
        """Draw ``text`` after the label, over the previous line on a terminal, or as a
        line of its own when ``LOG_EVERY`` seconds have passed since the last."""
        if self.label is None or self.quiet:
            return
        line = f"{self.label} {text}"
        elapsed = self.elapsed
        if not self.tty:
            self.pending = line
            if elapsed - self.logged >= self.LOG_EVERY:
                self.logged = elapsed
                self._write(line + "\n")
            return
        if elapsed < self.DELAY:
            return
        pad = " " * max(0, self.width - len(line))
        self.width = len(line)
        self._write("\r" + line + pad)

    def _write(self, text: str) -> None:
        self.shown = True
        self.pending = None
        sys.stderr.write(text)
        sys.stderr.flush()

    def close(self) -> None:
        """End the line drawn on a terminal; elsewhere, write the count not written yet."""
        if self.shown:
            self.shown = False
            if self.tty:
                sys.stderr.write("\n")
            elif self.pending is not None:
                sys.stderr.write(self.pending + "\n")
            sys.stderr.flush()


def _same_file(one: IO[str], other: IO[str]) -> bool:
    """Whether two streams write to the same file; False for a stream that is none."""
    try:
        a, b = os.fstat(one.fileno()), os.fstat(other.fileno())
    except (OSError, ValueError):  # (io.UnsupportedOperation is both)
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _connect_timeout() -> float:
    """Dask's connect timeout (``distributed.comm.timeouts.connect``, 30 s by default;
    set ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT`` to change it), in seconds."""
    import dask.config
    from dask.utils import parse_timedelta

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="seconds"))


def _check_scheduler(address: str, timeout: float) -> None:
    """Raise :class:`SchedulerError` unless a Dask scheduler answers Dask's handshake at
    ``address`` within ``timeout`` seconds.  Dask's client bounds the connection but not
    the handshake, so something that accepts and stays silent made it wait forever, and
    one that answers something else (an HTTP server) made it read a bogus frame length
    and fail to allocate exabytes.  A refused connection or an unknown host is tried
    again until the timeout, as Dask's client does (a scheduler may be starting), with
    a note on stderr saying so."""
    import asyncio

    from distributed.comm import connect
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme = "tcp"  # (without one)
    try:
        scheme, location = parse_address(address)
        if scheme in ("tcp", "tls"):
            host, port = parse_host_port(location)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
    except (ValueError, TypeError) as e:  # (Dask's own words but for a port that is not a number)
        why = str(e) if isinstance(e, ValueError) and "int()" not in str(e) else f"expected {scheme}://HOST:PORT"
        raise SchedulerError(f"bad address: {why}", key="scheduler", token=address) from None
    if scheme in ("tcp", "tls"):
        _note_unreachable(address, host, port, timeout)

    async def handshake() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)
        await comm.close()

    try:
        asyncio.run(handshake())
    except (ValueError, TypeError) as e:  # not an address
        raise SchedulerError(f"bad address: {e}", key="scheduler", token=address) from None
    except (asyncio.TimeoutError, TimeoutError):
        raise SchedulerError(f"no Dask scheduler answered within {timeout:g} s", key="scheduler",
                             token=address) from None
    except MemoryError:  # a bogus frame length: something else answered
        raise SchedulerError("no Dask scheduler answers there (the reply is not Dask's protocol)",
                             key="scheduler", token=address) from None
    except Exception as e:  # refused, reset, or not Dask's protocol either
        reason = str(e) or type(e).__name__
        raise SchedulerError(f"no Dask scheduler answers there ({reason})", key="scheduler",
                             token=address) from None


def _note_unreachable(address: str, host: str, port: int, timeout: float) -> None:
    """Say on stderr why the wait may be long if the TCP or TLS ``address`` (at ``host``
    and ``port``) has a host that is unknown or refuses a connection to its port: Dask's
    client keeps trying until its timeout without a word (other errors say nothing)."""
    try:
        with socket.create_connection((host, port), timeout=min(timeout, 2.0)):
            return
    except ConnectionRefusedError:
        reason = "connection refused"
    except socket.gaierror as e:
        reason = f"host '{host}' not found: {e.strerror}"
    except OSError:
        return
    sys.stderr.write(f"tarot-solve: note: no Dask scheduler at {address} yet ({reason}); trying until"
                     f" Dask's connect timeout, {timeout:g} s\n")
    sys.stderr.flush()


def _leave_with_parent(parent: int) -> None:
    """In a local worker, as it starts: end it within a second of the death of its
    parent, process ``parent``.  loky's workers outlive a parent killed with SIGKILL
    (or by the system's OOM killer): each one finishes its task, a search of minutes
    perhaps, then waits five minutes for another, holding its table."""
    def watch() -> None:
        while os.getppid() == parent:  # (an orphan's parent becomes init, or a subreaper)
            time.sleep(1.0)
        os._exit(1)
    threading.Thread(target=watch, name="tarot-solver-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _backend(scheduler: Optional[str]) -> Iterator[None]:
    import joblib  # type: ignore[import-untyped]

    if scheduler is None:
        with joblib.parallel_config(backend="loky", initializer=_leave_with_parent, initargs=(os.getpid(),)):
            yield
        return

    try:
        from dask.distributed import Client
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise RuntimeError(
            "--scheduler needs the optional Dask extra: pip install 'tarot-solver[dask]'"
        ) from e
    import asyncio

    import dask.config

    timeout = _connect_timeout()
    _check_scheduler(scheduler, timeout)  # (the address too: it is parsed as the client parses it)
    # The client's stream to the scheduler keeps the last messages it sent, for developers
    # (distributed.admin.low-level-log-length, 1000): each a batch of tasks with their games
    # pickled, so the client grew over the first thousands of games (5 MB at --nodes 100);
    # none are kept now (its connections made during the run too)
    with _client_reconnect_log_dropped(), dask.config.set({"distributed.admin.low-level-log-length": 0}), \
            Client(scheduler, timeout=timeout) as client:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (asyncio.TimeoutError, TimeoutError):
            raise SchedulerError(f"the Dask scheduler has no worker (waited {timeout:g} s)",
                                 key="scheduler", token=scheduler) from None
        _check_workers(client, scheduler)
        with joblib.parallel_config(backend=_cluster_backend()), _workers_watched(client, timeout) as lost:
            try:
                yield
            except KeyboardInterrupt:
                if lost:
                    raise WorkerError(lost[0]) from None
                raise


def _check_workers(client: Any, scheduler: str) -> None:
    """Raise :class:`SchedulerError` unless every worker of the cluster imports this
    version of tarot_solver (installed or on its path: asked of the module, not of the
    installed packages' metadata).  A worker without it cannot read a task: it left
    the cluster at the first one, and the run waited for a worker until Dask's connect
    timeout and said the cluster had none; one of another version could answer
    otherwise than this one."""
    from . import __version__

    def version() -> Optional[str]:  # (nested: sent by value, for a worker without the package)
        import importlib

        try:
            return str(importlib.import_module("tarot_solver").__version__)
        except ImportError:  # (the compiled core missing too)
            return None

    for address, found in sorted(client.run(version).items()):
        if found != __version__:
            has = "cannot import tarot_solver" if found is None else f"has tarot_solver {found}"
            raise SchedulerError(f"the Dask worker at {address} {has}: install tarot-solver {__version__}"
                                 " on every worker", key="scheduler", token=scheduler)


def _cluster_backend() -> Any:
    """joblib's Dask backend for the client of the context, but one that never runs the
    tasks in this process: joblib runs a call whose pool has one job here, so on a
    cluster of one worker thread the work was done by the client, not the cluster."""
    from joblib._dask import DaskDistributedBackend  # type: ignore[import-untyped]

    class Cluster(DaskDistributedBackend):  # type: ignore[misc]
        def effective_n_jobs(self, n_jobs: int) -> int:
            return max(2, int(super().effective_n_jobs(n_jobs)))

    return Cluster()


@contextlib.contextmanager
def _client_reconnect_log_dropped() -> Iterator[None]:
    """Drop the Dask client's log lines on a lost scheduler: on giving it up, and the
    traceback of its attempts to reconnect, cancelled when the run closes the client.
    The run ends with its own one-line error saying so (:func:`map_ordered`,
    :func:`_workers_watched`); the log's timestamped lines before it were more
    messages for one event."""
    import asyncio

    def keep(record: logging.LogRecord) -> bool:
        cancelled = record.exc_info is not None and record.exc_info[0] is asyncio.CancelledError
        return not (cancelled or str(record.msg).startswith("Failed to reconnect to scheduler"))

    log = logging.getLogger("distributed.client")
    log.addFilter(keep)
    try:
        yield
    finally:
        log.removeFilter(keep)


@contextlib.contextmanager
def _workers_watched(client: Any, timeout: float) -> Iterator[List[str]]:
    """While a run is on a Dask cluster, check every second that its scheduler answers
    and still has a worker; after ``timeout`` seconds without one, interrupt the main
    thread, whose ``KeyboardInterrupt`` the caller turns into a :class:`WorkerError`
    with the reason left in the list yielded.  Dask would wait for a worker, or for
    the scheduler to come back, forever and silently."""
    lost: List[str] = []
    stop = threading.Event()
    main = threading.main_thread().ident
    assert main is not None
    silent = f"the Dask scheduler has not answered for {timeout:g} s"
    # when the scheduler last answered, and what was wrong then (None: nothing)
    answer: List[Tuple[float, Optional[str]]] = [(time.monotonic(), None)]

    def trouble() -> Optional[str]:
        try:
            info = client.scheduler_info(n_workers=1)  # (a fresh fetch; the count of all, details of one)
        except Exception:
            info = None
        if info is None or client.status != "running":  # (a client that lost its scheduler keeps its last answer)
            return silent
        if not int(info.get("n_workers", len(info.get("workers", ())))):
            return f"the Dask cluster has had no worker for {timeout:g} s"
        return None

    def probe() -> None:
        """Ask the scheduler every second, in a thread of its own: the question has no
        timeout, and a scheduler that stops answering (a hung host, a network split)
        holds it for good."""
        while not stop.wait(1.0):
            reason = trouble()
            answer[0] = (time.monotonic(), reason)

    def watch() -> None:
        since: Optional[float] = None
        while not stop.wait(1.0):
            at, reason = answer[0]
            if time.monotonic() - at > 3.0:  # (an answer takes milliseconds; the probe asks every second)
                reason = silent
            if reason is None:
                since = None
                continue
            since = time.monotonic() if since is None else since
            if time.monotonic() - since >= timeout and not stop.is_set():
                lost.append(reason)
                signal.pthread_kill(main, signal.SIGINT)  # (a real signal: it ends a blocking wait)
                return

    for target in (probe, watch):
        threading.Thread(target=target, daemon=True).start()
    try:
        yield lost
    finally:
        stop.set()


def import_holding_ctrl_c(name: str) -> Any:
    """Module ``name``, imported with SIGINT blocked in this thread meanwhile, so that
    the threads it starts on import (numpy's BLAS threads; joblib imports numpy) block
    it too.  A Ctrl-C then always reaches a thread that takes it: while a local pool
    starts, SIGINT is ignored and blocked in the main thread
    (:func:`_ctrl_c_ignored_by_new_workers`), and the kernel handed a Ctrl-C of those
    moments to a BLAS thread, which dropped it: the run went on to its end."""
    if name in sys.modules or not hasattr(signal, "pthread_sigmask"):
        return importlib.import_module(name)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return importlib.import_module(name)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@contextlib.contextmanager
def _ctrl_c_ignored_by_new_workers(local: bool) -> Iterator[None]:
    """Ignore Ctrl-C while the pool starts its workers (joblib starts them as the first
    tasks are dispatched, in this thread).  A worker inherits the ignored SIGINT and
    Python leaves it so, so a Ctrl-C at the terminal, which signals every process of
    the group, no longer prints a KeyboardInterrupt traceback from a worker still
    importing; this process stops the workers itself.

    SIGINT is also blocked in this thread meanwhile (and in the threads the pool
    starts here), and Linux keeps a blocked signal pending even while it is ignored:
    a Ctrl-C in these milliseconds is raised once they end, unless another thread
    that does not block SIGINT takes it: numpy's BLAS threads, started on its import,
    took it and dropped it, so numpy and joblib (which imports numpy) are imported with
    SIGINT blocked (:func:`import_holding_ctrl_c`), and the threads they start inherit
    that.
    Ignored only, it was lost and the run went on.  (Workers that loky starts again after
    a run stopped early keep SIGINT blocked too: harmless, since they ignore it.)"""
    if not local or threading.current_thread() is not threading.main_thread():
        yield
        return
    # multiprocessing's resource tracker, which the pool starts if it is not running,
    # unblocks SIGINT in this thread once it has started it (Python 3.11: SIG_UNBLOCK,
    # not the mask it found), and a Ctrl-C then was ignored and lost: started first
    resource_tracker.ensure_running()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class _Feed(Generic[T]):
    """The items, read by the pool; an error raised by their iterator ends them and
    is kept for :func:`map_ordered` to raise once the results of the items before it
    are out (joblib raised it at once, and those results were lost)."""

    def __init__(self, items: Iterable[T]) -> None:
        self.items = iter(items)
        self.error: Optional[Exception] = None

    def __iter__(self) -> Iterator[T]:
        while True:
            try:
                item = next(self.items)
            except StopIteration:
                return
            except Exception as e:
                self.error = e
                return
            yield item


def _lost_workers(scheduler: Optional[str]) -> Tuple[Type[BaseException], ...]:
    """The errors a pool raises when its workers are gone with tasks in flight: loky's
    broken pool, and on Dask a KilledWorker (a task that took down its workers again
    and again) or a cancelled task (the client lost its scheduler, and the tasks with it)."""
    if scheduler is None:
        return (BrokenExecutor,)
    from distributed import KilledWorker

    return (BrokenExecutor, KilledWorker, CancelledError)


def _died(e: BaseException) -> str:
    """One line for a worker's death (with loky's exit codes when it gives them), or
    for Dask's tasks cancelled under the run."""
    if isinstance(e, CancelledError):
        reason = getattr(e, "reason", "")
        if reason == "scheduler-connection-lost":
            return "the connection to the Dask scheduler was lost"
        return f"the Dask cluster cancelled a task{f' ({reason})' if reason else ''}"
    codes = re.search(r"exit codes of the workers are (\{[^}]*\})", str(e))
    how = f" (exit codes {codes.group(1)})" if codes else f" ({one_line(str(e))})" if str(e) else ""
    return f"a worker process died{how}; if it ran out of memory, fewer --jobs use less"


def map_ordered(
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    jobs: int = 0,
    scheduler: Optional[str] = None,
    progress: Optional[str] = None,
    total: Optional[int] = None,
) -> Iterator[R]:
    """Yield ``fn(item)`` for each item, in input order, computed in parallel.

    ``fn`` and the items must be picklable (a module-level function).  With
    ``jobs == 1`` and no scheduler everything runs in this process.
    """
    bar = Progress(progress, total)
    try:
        if scheduler is None and jobs == 1:
            for item in items:
                yield fn(item)
                bar.step()
            return
        # joblib (and numpy with it) imported only here: at module level it
        # added 0.15 s to every command's start, those that run nothing in
        # parallel too
        joblib = import_holding_ctrl_c("joblib")

        feed: _Feed[T] = _Feed(items)
        queue: Iterator[T] = iter(feed)
        if scheduler is None:
            # no more workers than items: each costs a process start (about 0.4 s), and
            # `-j 64` on a run of three items would spend seconds starting idle ones
            # (joblib reads twice as many items ahead anyway)
            ahead = list(itertools.islice(queue, jobs if jobs > 0 else default_jobs()))
            if not ahead:
                if feed.error is not None:
                    raise feed.error
                return
            n_jobs = len(ahead)
            queue = itertools.chain(ahead, queue)
        else:
            n_jobs = -1
        global _local_pool_started
        _local_pool_started = _local_pool_started or scheduler is None
        if scheduler is None and not getattr(threading.excepthook, "quiets_loky", False):
            threading.excepthook = _quiet_cancelled_dispatch(threading.excepthook)
        with _backend(scheduler):
            runner = joblib.Parallel(n_jobs=n_jobs, return_as="generator", pre_dispatch="2*n_jobs")
            results = None
            try:
                with _ctrl_c_ignored_by_new_workers(local=scheduler is None):
                    results = runner(joblib.delayed(fn)(item) for item in queue)
                for result in results:
                    yield result
                    bar.step()
                if feed.error is not None:
                    raise feed.error
            except _lost_workers(scheduler) as e:
                raise WorkerError(_died(e)) from None
            finally:
                # a caller that stops early (Ctrl-C, `| head`) cancels the tasks in flight,
                # which joblib would report as computation wasted
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", message=r".*adjusting the input task iterator",
                                            category=UserWarning)
                    if results is not None:
                        results.close()
    finally:
        bar.close()


def _quiet_cancelled_dispatch(previous: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``threading.excepthook`` that drops the ``KeyError`` loky's executor manager thread
    can die of when a run stops early (Ctrl-C, ``| head``, an error), else calls
    ``previous``.  The thread takes a task's id from its queue while the cancellation
    removes the task (loky's race, in ``add_call_item_to_queue``), and its traceback
    was printed after the run's one last line, now and then; the results it was
    dispatching are not wanted, and the next run gets a working pool."""
    from joblib.externals.loky.process_executor import _ExecutorManagerThread  # type: ignore[import-untyped]

    def hook(args: Any) -> None:
        if not (args.exc_type is KeyError and isinstance(args.thread, _ExecutorManagerThread)):
            previous(args)
    hook.quiets_loky = True  # type: ignore[attr-defined]
    return hook


def stop_local_workers(timeout: float = 5.0) -> bool:
    """Shut down this process's local workers, if it started any, waiting at most
    ``timeout`` seconds; False if they did not stop in time.

    After a Ctrl-C, loky's teardown at interpreter exit could deadlock (about one run
    in a hundred with two workers): its executor's weakref callback, run by the
    garbage collector, waited on a lock left held.  Shutting the pool down first,
    while the interpreter still runs normally, leaves nothing for that teardown;
    if even this does not finish, the caller must leave with ``os._exit``."""
    if not _local_pool_started:
        return True
    from joblib.externals.loky import reusable_executor  # type: ignore[import-untyped]

    executor = reusable_executor._executor
    if executor is None:
        return True
    stopper = threading.Thread(target=executor.shutdown, kwargs={"wait": True, "kill_workers": True}, daemon=True)
    stopper.start()
    stopper.join(timeout)
    return not stopper.is_alive()


def chunks(seq: Any, size: int) -> Iterator[Any]:
    """Consecutive slices of ``seq`` of at most ``size`` items."""
    for i in range(0, len(seq), size):
        yield seq[i: i + size]
