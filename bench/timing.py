"""Timing helpers shared by the benchmark modules, and the quick mode."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

#: set to "1" by ``python bench/run.py --quick``
QUICK_ENV = "UNANIMITY_BENCH_QUICK"


def quick() -> bool:
    """True in the quick mode (``bench/run.py --quick``): smaller sizes, the whole run in about
    a minute, for a contributor's loop. The figures are then not the README's."""
    return os.environ.get(QUICK_ENV) == "1"


def sized(full, small):
    """``small`` in the quick mode, ``full`` otherwise."""
    return small if quick() else full


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """Smallest wall-clock time of ``repeat`` calls of ``fn``, in seconds (least disturbed by
    load)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def rounds_of_each(fns: dict[str, Callable[[], object]], repeat: int = 3
                   ) -> dict[str, list[float]]:
    """Wall-clock time of each function in each of ``repeat`` rounds, the functions taking
    turns within every round, so that the machine's load falls on a figure and on its peer
    alike."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def best_of_each(fns: dict[str, Callable[[], object]], repeat: int = 3) -> dict[str, float]:
    """Smallest wall-clock time of each function over ``repeat`` rounds of
    :func:`rounds_of_each`."""
    return {name: min(t) for name, t in rounds_of_each(fns, repeat).items()}


def median_ratio(times: dict[str, list[float]], name: str, peer: str) -> float:
    """Median over the rounds of ``name``'s time / ``peer``'s time in the same round."""
    return statistics.median(a / b for a, b in zip(times[name], times[peer], strict=True))
