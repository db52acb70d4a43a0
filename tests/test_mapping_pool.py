"""The topics of a run searched in parallel processes (metrics.measures.typelevel.mapping_pool,
docs/type-level.md "Time limit"): the same mappings as one topic after another, the pool left
alone when no time limit is asked for, one worker on request, workers' errors raised again."""

from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np
import pytest
from typelevel_bruteforce import all_mappings, brute_score

from metrics.errors import UnanimityError
from metrics.io.source import env_positive
from metrics.measures.typelevel import mapping_pool
from metrics.measures.typelevel.mapping_pool import (
    WORKERS_ENV,
    best_mappings,
    needs_search,
    pool_map,
    workers_allowed,
)
from metrics.measures.typelevel.type_entries import TopicEntries, _mappings
from metrics.measures.typelevel.type_scores import TypeEntries, best_mapping

_VALUE = {"macro": "macro_f", "micro": "micro_f", "microc": "microc_f"}


def _topic(rng: np.random.Generator, several: bool) -> tuple[list[set], list[set]]:
    """The gold and induced entries of a small random topic: 2-3 classes, 2-5 clusters, a type
    in one cluster, or (``several``) in one or two; every class and cluster occurs."""
    n, m = int(rng.integers(2, 4)), int(rng.integers(2, 6))
    n_types = int(rng.integers(m + 2, 3 * m + 3))
    gold = [set(rng.choice(n, rng.integers(1, 3), replace=False).tolist())
            for _ in range(n_types)]
    gold[:n] = [{c} for c in range(n)]
    cluster = np.concatenate((np.arange(m), rng.integers(0, m, n_types - m)))
    induced = [{int(k)} for k in cluster]
    if several:
        for i in rng.choice(n_types, max(n_types // 3, 1), replace=False):
            induced[i].add(int(rng.integers(0, m)))
    return gold, induced


def _topics(seed: int, count: int = 5) -> list[tuple[list[set], list[set]]]:
    rng = np.random.default_rng(seed)
    return [_topic(rng, several=bool(t % 2)) for t in range(count)]


def _same(a, b) -> None:
    assert [m.target.tolist() for m in a] == [m.target.tolist() for m in b]
    assert [(m.measure, m.mapping, m.method, m.exact, m.value, m.gap) for m in a] == \
        [(m.measure, m.mapping, m.method, m.exact, m.value, m.gap) for m in b]


@pytest.mark.parametrize(("seed", "measure"), [(0, "microc"), (1, "microc"), (2, "macro"),
                                               (3, "micro")])
def test_parallel_equals_serial_and_every_mapping(seed, measure, monkeypatch):
    """With a limit the searches end within, the workers give every topic's mapping, method,
    exactness, value and gap exactly as one topic after another does, in the topics' order,
    and each value is the best over every mapping."""
    topics = _topics(seed)
    entries = [TypeEntries.from_sets(g, b) for g, b in topics]
    assert sum(needs_search(e, measure, "many_to_one") for e in entries) >= 2
    used = []
    monkeypatch.setattr(mapping_pool, "pool_map",
                        lambda fn, tasks, w: used.append(w) or pool_map(fn, tasks, w))
    parallel = best_mappings(entries, measure, "many_to_one", 30.0, workers=2)
    assert used == [2]
    serial = [best_mapping(TypeEntries.from_sets(g, b), measure, "many_to_one", 30.0)
              for g, b in topics]
    _same(parallel, serial)
    for (gold, induced), found, e in zip(topics, parallel, entries, strict=True):
        best = max(brute_score(gold, induced, h)[_VALUE[measure]]
                   for h in all_mappings(e.n_clusters, e.n_classes, one_to_one=False))
        assert found.exact and found.value == pytest.approx(best, abs=1e-12)


def _no_pool(*_args):
    raise AssertionError("the pool was started")


@pytest.mark.parametrize(("seconds", "workers", "env"), [
    (0.0, None, None), (None, None, None), (5.0, 1, None), (5.0, None, "1")])
def test_no_pool_without_a_limit_or_with_one_worker(seconds, workers, env, monkeypatch):
    """seconds = 0 (the dashboard's MicroC), the default limits (None, or MacroI's 10 s given),
    workers=1 and UNANIMITY_TYPE_WORKERS=1 search in this process, with the serial route's
    results."""
    monkeypatch.setattr(mapping_pool, "pool_map", _no_pool)
    if env is None:
        monkeypatch.delenv(WORKERS_ENV, raising=False)
    else:
        monkeypatch.setenv(WORKERS_ENV, env)
    topics = _topics(4)
    entries = [TypeEntries.from_sets(g, b) for g, b in topics]
    found = best_mappings(entries, "microc", "many_to_one", seconds, workers=workers)
    _same(found, [best_mapping(TypeEntries.from_sets(g, b), "microc", "many_to_one", seconds)
                  for g, b in topics])
    for limit in (None, 10.0):  # MacroI's default, as the metric's parameters fill it in
        found = best_mappings(entries, "macro", "many_to_one", limit, workers=2)
        _same(found, [best_mapping(TypeEntries.from_sets(g, b), "macro", "many_to_one", limit)
                      for g, b in topics])


def test_no_pool_when_at_most_one_topic_needs_a_search(monkeypatch):
    """1-1 mappings, the majority mapping (MacroI when every type has one cluster) and a single
    topic do not start the pool."""
    monkeypatch.setattr(mapping_pool, "pool_map", _no_pool)
    one_each = [TypeEntries.from_sets(g, b) for g, b in _topics(5) if
                all(len(x) == 1 for x in b)]
    assert len(one_each) >= 2
    assert not any(needs_search(e, "macro", "many_to_one") for e in one_each)
    best_mappings(one_each, "macro", "many_to_one", 5.0, workers=2)
    best_mappings(one_each, "microc", "one_to_one", 5.0, workers=2)
    best_mappings(one_each[:1], "microc", "many_to_one", 5.0, workers=2)


def test_a_scorer_searches_its_topics_in_the_pool_when_seconds_is_given(monkeypatch):
    """The kernels' mappings (type_entries._mappings) go through best_mappings: the pool with
    an explicit limit, none with the measure's default."""
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1, 2})
    topics = _topics(6, count=3)
    entries = [TopicEntries(TypeEntries.from_sets(g, b), np.arange(3), np.arange(5),
                            np.arange(len(g))) for g, b in topics]
    scorer = SimpleNamespace(family_cache={"type level": {"entries": entries}})
    used = []
    monkeypatch.setattr(mapping_pool, "pool_map",
                        lambda fn, tasks, w: used.append((len(tasks), w)) or
                        [fn(t) for t in tasks])
    found = _mappings(scorer, "microc", "many_to_one", 20.0)
    assert used == [(3, 3)]
    _same(found, [best_mapping(TypeEntries.from_sets(g, b), "microc", "many_to_one", 20.0)
                  for g, b in topics])
    _mappings(scorer, "microc", "many_to_one", None)
    assert used == [(3, 3)]


def test_workers_allowed(monkeypatch):
    """The parameter, else the environment variable, else the usable cores; anything but a
    positive whole number is a UnanimityError."""
    monkeypatch.delenv(WORKERS_ENV, raising=False)
    assert workers_allowed() == len(os.sched_getaffinity(0))
    monkeypatch.setenv(WORKERS_ENV, "3")
    assert workers_allowed() == 3
    assert workers_allowed(1) == 1
    for bad in ("0", "-2", "two", "1.5"):
        monkeypatch.setenv(WORKERS_ENV, bad)
        with pytest.raises(UnanimityError, match=WORKERS_ENV):
            workers_allowed()
    for bad_arg in (0, -1, 2.0, True):
        with pytest.raises(UnanimityError, match="workers"):
            workers_allowed(bad_arg)  # type: ignore[arg-type]


def test_a_workers_error_is_raised_again(monkeypatch):
    """A UnanimityError raised in a worker reaches the caller with its type and message; a
    worker that dies becomes a UnanimityError that names the way to search serially."""
    monkeypatch.setenv("UNANIMITY_MAX_RATIO", "many")  # inherited by the spawned workers
    with pytest.raises(UnanimityError) as serial:
        env_positive("UNANIMITY_MAX_RATIO")
    with pytest.raises(UnanimityError) as parallel:
        pool_map(env_positive, ["UNANIMITY_MAX_RATIO"] * 2, 2)
    assert type(parallel.value) is type(serial.value)
    assert str(parallel.value) == str(serial.value)
    with pytest.raises(UnanimityError, match=f"{WORKERS_ENV}=1"):
        pool_map(os._exit, [3, 3], 2)


@pytest.mark.parametrize("where", ["daemonic", "embedded"])
def test_no_pool_in_a_daemonic_process_or_without_an_executable(where, monkeypatch):
    """A daemonic process (a worker of another pool, which shares the cores out) and an
    interpreter that does not know its executable (embedded) search serially."""
    monkeypatch.setattr(mapping_pool, "pool_map", _no_pool)
    if where == "daemonic":
        monkeypatch.setattr(mapping_pool, "current_process", lambda: SimpleNamespace(daemon=True))
    else:
        monkeypatch.setattr(mapping_pool.sys, "executable", "")
    topics = _topics(7)
    found = best_mappings([TypeEntries.from_sets(g, b) for g, b in topics], "microc",
                          "many_to_one", 5.0, workers=2)
    _same(found, [best_mapping(TypeEntries.from_sets(g, b), "microc", "many_to_one", 5.0)
                  for g, b in topics])
