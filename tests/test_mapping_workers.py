"""The worker processes of the type-level search (metrics.measures.typelevel.mapping_workers,
docs/type-level.md "The topics in parallel"): they never import the caller's main module (a
replaced ``__main__`` whose file is gone, a script without the main guard), see the numerical
libraries' threads capped, are kept between calls and ended at exit, and serve threaded callers
with the serial route's results."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import types
from pathlib import Path

import numpy as np
import pytest

from metrics.errors import UnanimityError
from metrics.measures.typelevel import mapping_workers
from metrics.measures.typelevel.mapping_pool import best_mappings, needs_search
from metrics.measures.typelevel.mapping_workers import THREAD_CAPS, pool_map
from metrics.measures.typelevel.type_scores import TypeEntries, best_mapping

_ROOT = Path(__file__).resolve().parents[1]


def _entries(seed: int, count: int = 4) -> list[TypeEntries]:
    """Random topics, 3 classes and 4 clusters, each type in one or two clusters (MicroC's M-1
    mapping then needs a search)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        gold = [{c} for c in range(3)] + [{int(c)} for c in rng.integers(0, 3, 9)]
        induced = [{k} for k in range(4)] + [set(rng.integers(0, 4, 2).tolist()) for _ in range(8)]
        out.append(TypeEntries.from_sets(gold, induced))
    return out


def _rows(found) -> list:
    return [(m.target.tolist(), m.method, m.exact, m.value, m.gap) for m in found]


def _serial(entries: list[TypeEntries]) -> list:
    return _rows([best_mapping(e, "microc", "many_to_one", 20.0) for e in entries])


def _pid(_task) -> int:
    """The worker's process id (a job for the pool that takes a quarter of a second, so that
    each worker has some of a call's jobs)."""
    time.sleep(0.25)
    return os.getpid()


class _TwoPartError(Exception):
    """An exception that pickles but cannot be rebuilt (its constructor takes two arguments)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")


def _raise_two_part(what: str) -> None:
    raise _TwoPartError(what, "cannot travel")


def _raise_value_error(what: str) -> None:
    raise ValueError(what)


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _library_threads(_task) -> list[int]:
    """The thread counts of the numerical libraries numpy loaded in the worker (a job)."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    return [info["num_threads"] for info in threadpoolctl.threadpool_info()]


def _env(name: str) -> str | None:
    """A variable of the worker's environment (a job for the pool)."""
    return os.environ.get(name)


def test_a_replaced_main_whose_file_is_gone(monkeypatch, tmp_path):
    """With ``sys.modules['__main__']`` a module whose file does not exist (as a test harness
    leaves it), freshly started workers search the topics, with the serial route's results."""
    mapping_workers.end_workers()
    gone = types.ModuleType("__main__")
    gone.__file__ = str(tmp_path / "deleted_script.py")
    monkeypatch.setitem(sys.modules, "__main__", gone)
    entries = _entries(0)
    assert sum(needs_search(e, "microc", "many_to_one") for e in entries) >= 2
    assert _rows(best_mappings(entries, "microc", "many_to_one", 20.0, workers=2)) == \
        _serial(entries)


_SCRIPT = """
import json, os, sys
sys.path.insert(0, {tests!r})
from test_mapping_workers import _entries, _pid
from metrics.measures.typelevel.mapping_pool import best_mappings
from metrics.measures.typelevel.mapping_workers import pool_map

found = best_mappings(_entries(1), "microc", "many_to_one", 20.0, workers=2)
print(json.dumps({{"rows": [[m.target.tolist(), m.method, m.exact, m.value, m.gap]
                            for m in found],
                  "pids": sorted(set(pool_map(_pid, range(8), 2)))}}))
"""


def test_a_script_without_the_main_guard(tmp_path):
    """A script that starts a parallel search at its top level (no ``if __name__ ==
    "__main__":``) gets the serial route's mappings, and its workers end when it exits; the
    workers find the package where the script does, not in the working directory (which holds
    another ``metrics`` here)."""
    (tmp_path / "script").mkdir()
    script = tmp_path / "script" / "search.py"
    script.write_text(textwrap.dedent(_SCRIPT.format(tests=str(_ROOT / "tests"))))
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "__init__.py").write_text("raise ImportError('not this one')\n")
    env = dict(os.environ, PYTHONPATH=str(_ROOT))
    env.pop("UNANIMITY_TYPE_WORKERS", None)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [tuple(r) for r in out["rows"]] == _serial(_entries(1))
    assert len(out["pids"]) == 2 and os.getpid() not in out["pids"]
    if sys.platform == "linux":  # ended and reaped by the script: no such process any more
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in out["pids"]) and \
                time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(Path(f"/proc/{pid}").exists() for pid in out["pids"])


def test_the_workers_see_the_thread_caps(monkeypatch):
    """OMP_NUM_THREADS, OPENBLAS_NUM_THREADS and MKL_NUM_THREADS are 1 in the workers, whatever
    the caller's; the caller's other variables reach them as they are at the call."""
    for name in THREAD_CAPS:
        monkeypatch.setenv(name, "4")
    monkeypatch.setenv("UNANIMITY_TEST_MARK", "at the call")
    assert pool_map(_env, [*THREAD_CAPS, "UNANIMITY_TEST_MARK"], 2) == \
        ["1", "1", "1", "at the call"]
    assert [os.environ[name] for name in THREAD_CAPS] == ["4"] * 3
    pytest.importorskip("threadpoolctl")
    found = pool_map(_library_threads, [0, 1], 2)  # numpy's BLAS and the like: one thread
    assert all(threads and set(threads) == {1} for threads in found), found


def test_the_workers_are_kept_and_replaced_when_they_die():
    """Two calls use the same worker processes; after a worker dies the next call starts
    another and gives its results."""
    first = set(pool_map(_pid, range(6), 2))
    assert len(first) == 2 and os.getpid() not in first
    assert set(pool_map(_pid, range(6), 2)) == first
    with pytest.raises(UnanimityError, match="UNANIMITY_TYPE_WORKERS=1"):
        pool_map(os._exit, [3], 1)
    again = set(pool_map(_pid, range(6), 2))
    assert len(again) == 2 and len(again & first) == 1
    assert pool_map(abs, [-3, 2, -1], 2) == [3, 2, 1]


def test_what_a_job_prints_leaves_the_answers_alone():
    """A job that writes to its standard output does not break the answers."""
    assert pool_map(print, ["a line a worker prints"] * 3, 2) == [None] * 3


def test_threaded_callers_get_the_serial_results():
    """Callers in several threads at once each get the serial route's mappings (one uses the
    kept workers, the others start their own for the call)."""
    entries = [_entries(seed) for seed in (2, 3, 4)]
    found: dict[int, list] = {}

    def search(i: int) -> None:
        found[i] = _rows(best_mappings(entries[i], "microc", "many_to_one", 20.0, workers=2))

    threads = [threading.Thread(target=search, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [found[i] for i in range(3)] == [_serial(e) for e in entries]


def test_a_function_of_main_is_refused(monkeypatch):
    """A function defined in the caller's main module cannot reach the workers: said at once."""
    def local(x):
        return x

    monkeypatch.setattr(local, "__module__", "__main__")
    with pytest.raises(ValueError, match="__main__"):
        pool_map(local, [1, 2], 2)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_a_forked_child_starts_its_own_workers():
    """A process forked from a caller that holds workers starts its own and gets its results;
    the parent's are still its own afterwards."""
    parents = set(pool_map(_pid, range(4), 2))
    child = os.fork()
    if child == 0:  # the child: exit 0 only if its workers are new and answer
        code = 1
        try:
            ours = set(pool_map(_pid, range(4), 2))
            code = 0 if len(ours) == 2 and not ours & parents else 3
            mapping_workers.end_workers()
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert set(pool_map(_pid, range(4), 2)) == parents


def test_an_error_raised_again_carries_the_workers_traceback():
    """The exception raised again is the first task's to fail, as one task after another would
    raise it, with the worker's traceback as its cause; one that cannot be rebuilt in the
    caller becomes a UnanimityError with its type's name and message."""
    with pytest.raises(ValueError, match="^first$") as raised:
        pool_map(_raise_value_error, ["first", "second", "third"], 2)
    assert isinstance(raised.value.__cause__, mapping_workers.RemoteTraceback)
    assert "_raise_value_error" in str(raised.value.__cause__)
    with pytest.raises(UnanimityError, match="_TwoPartError.*x: cannot travel"):
        pool_map(_raise_two_part, ["x"], 1)
    assert pool_map(abs, [-1], 1) == [1]  # the worker still answers


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="no pthread_kill here")
def test_an_interrupted_call_ends_its_workers():
    """Ctrl-C while the workers search: KeyboardInterrupt at once (not after the jobs), the busy
    workers ended, and the next call starts others and answers."""
    before = set(pool_map(_pid, range(4), 2))
    timer = threading.Timer(0.5, signal.pthread_kill,
                            (threading.main_thread().ident, signal.SIGINT))
    started = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pool_map(_sleep, [30.0, 30.0], 2)
    assert time.monotonic() - started < 10
    after = set(pool_map(_pid, range(4), 2))
    assert len(after) == 2 and not after & before
    for pid in before if sys.platform == "linux" else ():
        assert not Path(f"/proc/{pid}").exists()


def test_a_worker_that_cannot_start(monkeypatch, tmp_path):
    """A worker that cannot be started is a UnanimityError naming the way to search serially."""
    mapping_workers.end_workers()
    monkeypatch.setattr(mapping_workers.sys, "executable", str(tmp_path / "no-python"))
    with pytest.raises(UnanimityError, match="could not start.*UNANIMITY_TYPE_WORKERS=1"):
        pool_map(abs, [-1, -2], 2)
    monkeypatch.undo()
    assert pool_map(abs, [-1, -2], 2) == [1, 2]
