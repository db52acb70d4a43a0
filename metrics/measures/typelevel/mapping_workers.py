"""The worker processes of the type-level search, kept for the life of the process.

A worker is ``python -P -m metrics.measures.typelevel.mapping_worker`` (the same interpreter,
``sys.executable``; ``-P``: the caller's path, not the working directory, comes first), talked
to over its standard input and output
(:mod:`metrics.measures.typelevel.mapping_worker`): it imports only the modules of the jobs it
is sent, never the caller's main module, so that the caller's ``__main__`` need not be
importable (a script without ``if __name__ == "__main__":``, a ``__main__`` whose file is gone
or that a test harness replaced). It takes the caller's module search path and environment
with each job, the latter with ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and
``MKL_NUM_THREADS`` set to 1 (:data:`THREAD_CAPS`, from its start, before numpy loads): the
workers already use the cores, one each.

The workers are started on the first :func:`pool_map` that needs them and kept for the next
ones (each start costs CPU: a fresh interpreter that imports the search); they end when the
process exits (their input closes). One call at a time uses them: a call made while another
thread's call holds them starts its own workers and ends them on return. A worker that dies,
or whose call is interrupted, is ended and replaced at the next call; a process forked from
the caller starts its own (``docs/type-level.md``, "The topics in parallel").
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from metrics.errors import UnanimityError
from metrics.measures.typelevel.mapping_worker import receive, send_bytes

__all__ = ["THREAD_CAPS", "WORKER_MODULE", "end_workers", "pool_map"]

#: The module a worker runs (``python -m``).
WORKER_MODULE = "metrics.measures.typelevel.mapping_worker"
#: The numerical libraries' thread counts, set to 1 in every worker's environment.
THREAD_CAPS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker (the ``__cause__`` of the one raised
    again in the caller)."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]) if self.args else ""


def _caller_path() -> list[str]:
    """The caller's module search path (its text entries, without repeats)."""
    return list(dict.fromkeys(p for p in sys.path if isinstance(p, str)))


def _caller_env() -> dict[str, str]:
    """The caller's environment, the numerical libraries' threads capped (:data:`THREAD_CAPS`)."""
    return dict(os.environ, **dict.fromkeys(THREAD_CAPS, "1"))


class _Worker:
    """One worker process and its two pipes."""

    def __init__(self) -> None:
        env = _caller_env()
        # the caller's path, so that the worker finds this package as the caller does
        env["PYTHONPATH"] = os.pathsep.join(_caller_path())
        self.process = subprocess.Popen([sys.executable, "-P", "-m", WORKER_MODULE],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.broken = False

    def run(self, job: bytes) -> tuple[bool, Any]:
        """The worker's answer to ``job`` (a pickled ``(fn, argument)``).

        Raises
        ------
        EOFError, OSError, pickle.UnpicklingError
            When the worker died (then :attr:`broken`).
        """
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            message = pickle.dumps((_caller_path(), _caller_env(), job),
                                   protocol=pickle.HIGHEST_PROTOCOL)
            send_bytes(self.process.stdin, message)
            return receive(self.process.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            self.broken = True
            raise

    def usable(self) -> bool:
        """Neither broken nor ended."""
        return not self.broken and self.process.poll() is None

    def end(self, kill: bool = False) -> None:
        """Close its input (an idle worker then ends), or kill it (first: a thread blocked
        reading its answer then returns, and its pipe can close); reap it (a second at most
        before a kill)."""
        if kill:
            self.process.kill()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class _Crew:
    """The workers kept for the process (:data:`_CREW`); ``lock`` held by the call using them."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.workers: list[_Worker] = []


_CREW = _Crew()
#: In a forked child, its parent's workers: kept as they are (never written to, never closed
#: here, so that no copy of a buffer reaches them), the child starting its own.
_PARENTS_WORKERS: list[_Worker] = []


def _forget_crew() -> None:
    """In a forked child: a new, empty crew (its lock free whatever the parent's threads held)."""
    global _CREW
    _PARENTS_WORKERS.extend(_CREW.workers)
    _CREW = _Crew()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_forget_crew)


@atexit.register
def end_workers() -> None:
    """End the kept workers now (their input closes, they end; they are reaped, so their CPU
    time counts among the ended children's); the next call starts others. Called at exit."""
    workers, _CREW.workers = _CREW.workers, []
    for worker in workers:
        worker.end()


def _raised_again(failure: tuple) -> BaseException:
    """The exception a worker reported (:func:`~.mapping_worker._failure`), its traceback as
    its cause; an exception that could not travel becomes a UnanimityError naming it."""
    if isinstance(failure[0], BaseException):
        err, text = failure
    else:
        name, message, text = failure
        err = UnanimityError(f"{name} in a worker process of the type-level search: {message}")
    err.__cause__ = RemoteTraceback(text)
    return err


def _serve(worker: _Worker, fn: Callable, tasks: Sequence, state: dict) -> None:
    """A thread's loop: send ``worker`` the next task until none is left or one failed."""
    while True:
        with state["lock"]:
            if state["stop"] or state["next"] >= len(tasks):
                return
            i = state["next"]
            state["next"] += 1
        try:
            job = pickle.dumps((fn, tasks[i]), protocol=pickle.HIGHEST_PROTOCOL)
            ok, value = worker.run(job)
        except BaseException as err:  # noqa: BLE001 - raised again by the caller's thread
            ok, value = False, err
        if ok:
            state["results"][i] = value
            continue
        with state["lock"]:
            state["failures"][i] = value
            state["stop"] = True
        if worker.broken:
            return


def _died(worker: _Worker) -> UnanimityError:
    """The error of a worker that ended unexpectedly."""
    code = worker.process.poll()
    return UnanimityError(
        "a worker process of the type-level search ended unexpectedly"
        f"{'' if code is None else f' (exit code {code})'}; set "
        "UNANIMITY_TYPE_WORKERS=1 to search the topics one after another")


def _map(fn: Callable, tasks: Sequence, workers: list[_Worker]) -> list:
    """``[fn(t) for t in tasks]`` on ``workers``, each taking the next task when it is free."""
    state: dict[str, Any] = {"lock": threading.Lock(), "stop": False, "next": 0,
                             "results": {}, "failures": {}}
    threads = [threading.Thread(target=_serve, args=(w, fn, tasks, state), daemon=True)
               for w in workers]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException:  # interrupted: the workers' state is unknown
        for worker in workers:
            worker.broken = True
            worker.end(kill=True)
        raise
    if state["failures"]:  # the first failing task's, as one task after another would
        first = state["failures"][min(state["failures"])]
        if isinstance(first, tuple):
            raise _raised_again(first)
        broken = [w for w in workers if w.broken]
        if broken and isinstance(first, (EOFError, OSError, pickle.UnpicklingError)):
            for worker in broken:
                worker.end(kill=True)
            raise _died(broken[0]) from None
        raise first
    return [state["results"][i] for i in range(len(tasks))]


def pool_map(fn: Callable[[Any], Any], tasks: Sequence, workers: int) -> list:
    """``[fn(t) for t in tasks]`` computed by at most ``workers`` worker processes, in order.

    ``fn`` must be a module-level function of an importable module (not of ``__main__``): the
    workers import it, and nothing of the caller's main module. An exception of ``fn`` is raised
    again here with its type and message (its traceback in the worker as its cause); a worker
    that dies raises a :class:`UnanimityError`.
    """
    if getattr(fn, "__module__", None) == "__main__":
        raise ValueError(f"{fn!r} must be defined in an importable module, not in __main__ "
                         "(the workers do not import the caller's main module)")
    tasks = list(tasks)
    if not tasks:
        return []
    crew = _CREW
    shared = crew.lock.acquire(blocking=False)  # else another thread's call uses them
    workers_here = crew.workers if shared else []
    try:
        for worker in [w for w in workers_here if not w.usable()]:
            worker.end(kill=True)
            workers_here.remove(worker)
        while len(workers_here) < min(workers, len(tasks)):
            try:
                workers_here.append(_Worker())
            except OSError as err:
                raise UnanimityError(f"could not start a worker process of the type-level "
                                     f"search ({err}); set UNANIMITY_TYPE_WORKERS=1 to search "
                                     "the topics one after another") from err
        return _map(fn, tasks, workers_here[:min(workers, len(tasks))])
    finally:
        if shared:
            crew.lock.release()
        else:
            for worker in workers_here:
                worker.end()
