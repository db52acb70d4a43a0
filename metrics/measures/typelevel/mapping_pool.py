"""The best mapping of every topic of a run, the topics searched in parallel processes.

``seconds`` limits the exact many-to-one search of one (topic, measure)
(:func:`metrics.measures.typelevel.type_scores.best_mapping`, ``docs/type-level.md``, "Time
limit"). One topic after another, a run of 23 topics given 60 s would leave 2.6 s a topic on a
machine with a second core idle; here the topics whose search can take its time are handed to
worker processes, one topic at a time, so that with w workers each topic can have
60 s · w / 23 in the same wall-clock minute.

The pool is used only when a longer search than the measure's default is asked for (``seconds``
above :data:`DEFAULT_SECONDS`, 0 s for MicroC, 10 s for MacroI and MicroI: the defaults stay
serial, so that the dashboard's table starts no process), at least two topics need a
search (the others are solved at once in the caller: the 1-1 assignment, the majority mapping)
and more than one worker is allowed (none in a daemonic process, the worker of another pool
that shares the cores out already, nor without ``sys.executable``, in an embedded interpreter):
:func:`workers_allowed`, the usable cores (``os.sched_getaffinity``) unless the parameter
``workers`` or the environment variable :data:`WORKERS_ENV` says fewer (1: serial). The
workers (:mod:`metrics.measures.typelevel.mapping_workers`) are processes of their own, ``python
-m`` of :mod:`metrics.measures.typelevel.mapping_worker`, that import only the search, never the
caller's main module (a script needs no ``if __name__ == "__main__":``), with the numerical
libraries' threads capped at one; they start on the first search that needs them and are kept
until the process exits. They receive only the integer arrays of a topic's entries and return
the mapping's arrays and numbers; the results are those of the serial route, in the topics'
order. An exception in a worker is raised again in the caller (the same type and message); a
worker that dies raises a :class:`UnanimityError`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from multiprocessing import current_process

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.typelevel.mapping_settings import DEFAULT_SECONDS, MAPPINGS, MEASURES
from metrics.measures.typelevel.mapping_workers import pool_map
from metrics.measures.typelevel.type_scores import (
    TypeEntries,
    TypeMapping,
    best_mapping,
    majority_decides,
)

__all__ = ["WORKERS_ENV", "best_mappings", "workers_allowed", "needs_search", "pool_map"]

#: The environment variable that caps the worker processes (1: the topics one after another).
WORKERS_ENV = "UNANIMITY_TYPE_WORKERS"


def _cores() -> int:
    """The cores this process may run on (all of them where the system cannot say)."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; not on macOS or Windows
    return max(len(affinity(0)) if affinity else os.cpu_count() or 1, 1)


def workers_allowed(workers: int | None = None) -> int:
    """The worker processes allowed: ``workers`` when given, else :data:`WORKERS_ENV` when set,
    else the cores this process may run on.

    Raises
    ------
    UnanimityError
        When either is not a positive whole number.
    """
    if workers is None:
        raw = os.environ.get(WORKERS_ENV, "").strip()
        if not raw:
            return _cores()
        if not raw.isdigit() or int(raw) < 1:
            raise UnanimityError(f"{WORKERS_ENV}={raw!r} must be a positive whole number "
                                 "(1: the topics one after another)")
        return int(raw)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise UnanimityError(f"workers={workers!r} must be a positive whole number")
    return workers


def needs_search(entries: TypeEntries, measure: str, mapping: str) -> bool:
    """Whether the M-1 mapping of ``measure`` on ``entries`` is searched (can take its time):
    not for 1-1 (an assignment), nor where the majority mapping is the answer
    (:func:`metrics.measures.typelevel.type_scores.majority_decides`, as
    :func:`~metrics.measures.typelevel.type_scores.best_mapping` decides)."""
    return mapping == "many_to_one" and not majority_decides(entries, measure)


def _arrays(e: TypeEntries) -> tuple:
    """What a worker receives of a topic: its four integer arrays and three sizes."""
    return (e.a_type, e.a_class, e.b_type, e.b_cluster, e.n_types, e.n_classes, e.n_clusters)


def _search(task: tuple) -> tuple:
    """A worker's job: the best mapping of one topic, as (target, method, exact, value, gap)."""
    *arrays, measure, mapping, seconds = task
    found = best_mapping(TypeEntries(*arrays), measure, mapping, seconds)
    return found.target, found.method, bool(found.exact), float(found.value), float(found.gap)


def best_mappings(entries: Iterable[TypeEntries], measure: str, mapping: str,
                  seconds: float | None = None, workers: int | None = None) -> list[TypeMapping]:
    """The best mapping of ``measure`` under ``mapping`` on each topic, in the topics' order:
    ``[best_mapping(e, measure, mapping, seconds) for e in entries]``, the topics that need a
    search computed in parallel processes (module docstring).

    Parameters
    ----------
    entries : iterable of TypeEntries
        One per topic.
    measure : {"macro", "micro", "microc"}
    mapping : {"one_to_one", "many_to_one"}
    seconds : float, optional
        Time limit of each topic's search (None: the measure's default); up to the default
        the topics are searched in this process.
    workers : int, optional
        The most worker processes (default :func:`workers_allowed`; 1: serial).

    Returns
    -------
    list of TypeMapping
        Equal to the serial route's whenever the searches end within their limit.
    """
    entries = list(entries)
    if measure not in MEASURES or mapping not in MAPPINGS:
        raise ValueError(f"measure must be one of {MEASURES}, mapping one of {MAPPINGS}")
    # the measure's default limit (None) stays serial: the dashboard's table starts no process
    limit = DEFAULT_SECONDS[measure] if seconds is None else float(seconds)
    searched = ([i for i, e in enumerate(entries) if needs_search(e, measure, mapping)]
                if limit > max(DEFAULT_SECONDS[measure], 0.0) else [])
    n_workers = min(workers_allowed(workers), len(searched)) if len(searched) > 1 else 1
    if current_process().daemon or not sys.executable:  # another pool's worker (that pool
        n_workers = 1  # shares the cores out), or an embedded interpreter that cannot start one
    if n_workers <= 1:
        return [best_mapping(e, measure, mapping, seconds) for e in entries]
    tasks = [(*_arrays(entries[i]), measure, mapping, limit) for i in searched]
    found = dict(zip(searched, pool_map(_search, tasks, n_workers), strict=True))
    return [TypeMapping(np.asarray(found[i][0], dtype=np.int64), measure, mapping, *found[i][1:])
            if i in found else best_mapping(e, measure, mapping, seconds)
            for i, e in enumerate(entries)]
