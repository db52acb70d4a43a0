"""Benchmarks of the type-level measures (``docs/type-level.md``).

``run()`` returns ``(name, ratio, detail)`` tuples; ratio = target seconds / measured seconds
(>= 1 meets the target):

* ``typelevel_ud_ewt_all``: every type-level measure under 1-1 (MacroI P/R/F, MacroC, MicroI
  P/R/F, MicroC P/R/F) and the token-level ones of the paper (M-1 and 1-1 accuracy, V, NVI,
  H(C|K), H(K|C)) for all runs of the bundled UD EWT campaign, after loading; target 2 s. The
  load itself is timed too (target: well under a second).
* ``typelevel_ud_ewt_many_to_one``: the same type-level measures under M-1, with their default
  time limits: MacroI, MacroC and MicroI exact (integer programs for the polysemous runs),
  MicroC by hill climbing with the LP bound of its exact program (docs/type-level.md: proving
  MicroC exact takes seconds to a minute a topic); target 60 s, the budget for an exact M-1
  evaluation of the nine runs.
* ``typelevel_ud_ewt_microc_exact``: MicroC under M-1 searched to proof for each of the nine
  runs, the topics in parallel processes (one per usable core, ``UNANIMITY_TYPE_WORKERS``
  caps them), every topic with an equal share of the run's 60 s of wall-clock time
  (60 s x workers / 23): per run the topics proven exact, CPU seconds (this process and its
  workers) and wall seconds, the largest gap left; ratio 60 s / the slowest run's wall time
  when every run is exact (0 otherwise).
* ``typelevel_macro11_1M``: 1-1 MacroI (with MicroI and MicroC, which share the work) on one
  topic of 1,000,000 tokens, 50 gold tags and 200 clusters over 60,000 Zipf-distributed word
  types (a third of the tokens tagged away from their type's main tag), from the token arrays
  to the scores; target 5 s.

``--quick`` (bench/run.py): 200,000 tokens.
"""

from __future__ import annotations

import math
import resource
import time
from pathlib import Path

import numpy as np
import pandas as pd
from timing import best_of, sized

from metrics.io import load
from metrics.measures.scoring import evaluate
from metrics.measures.typelevel.mapping_pool import best_mappings, workers_allowed
from metrics.measures.typelevel.mapping_workers import end_workers
from metrics.measures.typelevel.type_entries import (
    exactness_summary,
    topic_entries,
    type_level_table,
)
from metrics.model.campaign import Membership

ROOT = Path(__file__).resolve().parents[1]

TYPE_NAMES = ["type_macro_precision", "type_macro_recall", "type_macro_f", "type_macroc_f",
              "type_micro_precision", "type_micro_recall", "type_micro_f",
              "type_microc_precision", "type_microc_recall", "type_microc_f"]
TYPE_METRICS = TYPE_NAMES
TOKEN_METRICS = ["accuracy_m1", "accuracy_11", "v_measure", "nvi", "h_c_given_k", "h_k_given_c"]


def bench_ud_ewt() -> tuple[str, float, str]:

    path = ROOT / "demo_data" / "ud-ewt"
    t_load = best_of(lambda: load(path), repeat=3)
    camp = load(path)
    t = best_of(lambda: evaluate(camp, TYPE_METRICS + TOKEN_METRICS), repeat=3)
    return ("typelevel_ud_ewt_all", 2.0 / t,
            f"{len(TYPE_METRICS) + len(TOKEN_METRICS)} metrics x {len(camp.systems)} runs x "
            f"{camp.n_topics} topics ({camp.n_items} tokens): {t:.3f} s (target 2 s); "
            f"load {t_load:.3f} s")


def bench_ud_ewt_many_to_one() -> tuple[str, float, str]:
    camp = load(ROOT / "demo_data" / "ud-ewt")
    names = [f"{n}(mapping=many_to_one)" for n in TYPE_NAMES]
    maps: list = []
    t = best_of(lambda: (maps.clear(), evaluate(camp, names, mappings_out=maps)), repeat=1)
    notes = exactness_summary(pd.concat(maps, ignore_index=True))
    return ("typelevel_ud_ewt_many_to_one", 60.0 / t,
            f"{len(names)} M-1 type-level metrics x {len(camp.systems)} runs x {camp.n_topics} "
            f"topics: {t:.1f} s (target 60 s); not exact: {'; '.join(notes) or 'none'}")


def _cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its ended child processes (the
    workers of :func:`best_mappings`, reaped by :func:`end_workers`)."""
    own, children = (resource.getrusage(w) for w in (resource.RUSAGE_SELF,
                                                       resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bench_ud_ewt_microc_exact(seconds_per_run: float = 60.0, workers: int | None = None,
                              systems: list[str] | None = None) -> tuple[str, float, str]:
    """MicroC under M-1, searched to proof, run by run, the topics in parallel processes
    (:func:`best_mappings`, ``workers`` of them, default the usable cores): each topic gets
    60 s x workers / topics, so that a run whose every topic takes its whole limit ends in
    about its minute; per run the topics proven exact, the CPU seconds (all processes) and
    wall seconds, the largest gap left (docs/type-level.md); ``systems``: those runs only."""
    camp = load(ROOT / "demo_data" / "ud-ewt")
    n_workers = min(workers_allowed(workers), camp.n_topics)
    share = seconds_per_run * n_workers / camp.n_topics
    parts, worst = [], 0.0
    for system in sorted(camp.systems) if systems is None else systems:
        run = camp.aligned(system, "penalize").membership
        entries = topic_entries(camp.gold_membership, run, camp.item_type, camp.item_topic,
                                camp.n_topics)
        cpu0, wall0 = _cpu_seconds(), time.perf_counter()
        found = best_mappings([te.entries for te in entries], "microc", "many_to_one", share,
                              workers=n_workers)
        end_workers()  # reaped: their CPU counts, and each run starts its own as it did
        cpu, wall = _cpu_seconds() - cpu0, time.perf_counter() - wall0
        exact = sum(f.exact for f in found)
        gaps = [f.gap for f in found if not f.exact]
        gap = max((g for g in gaps if math.isfinite(g)), default=0.0)
        unknown = sum(not math.isfinite(g) for g in gaps)  # the solver gave no bound in time
        worst = max(worst, wall if exact == len(found) else math.inf)
        parts.append(f"{system} {exact}/{len(found)} exact, cpu {cpu:.1f} s, wall {wall:.1f} s"
                     + (f", gap <= {gap:.4f}" if exact < len(found) else "")
                     + (f" ({unknown} without a bound)" if unknown else ""))
    return ("typelevel_ud_ewt_microc_exact", seconds_per_run / worst if worst else math.inf,
            f"{share:.2f} s a topic, {n_workers} workers: " + "; ".join(parts))


def _synthetic(n_tokens=1_000_000, n_types=60_000, n_tags=50, n_clusters=200, seed=7):
    rng = np.random.default_rng(seed)
    item_type = (rng.zipf(1.3, n_tokens) - 1) % n_types
    main_tag = rng.integers(0, n_tags, n_types)
    main_cluster = (main_tag * 4 + rng.integers(0, 4, n_types)) % n_clusters
    tag = np.where(rng.random(n_tokens) < 0.67, main_tag[item_type],
                   rng.integers(0, n_tags, n_tokens))
    cluster = np.where(rng.random(n_tokens) < 0.67, main_cluster[item_type],
                       rng.integers(0, n_clusters, n_tokens))
    return item_type, tag, cluster


def bench_macro11_1m() -> tuple[str, float, str]:

    item_type, tag, cluster = _synthetic(sized(1_000_000, 200_000))
    n = item_type.size
    items = np.arange(n, dtype=np.int64)

    def member(labels, k):
        return Membership(items, labels.astype(np.int32), np.arange(k).astype(str).astype(object),
                          np.zeros(k, dtype=np.int32))

    gold, run = member(tag, 50), member(cluster, 200)
    topic = np.zeros(n, dtype=np.int32)

    def go():
        entries = topic_entries(gold, run, item_type.astype(np.int32), topic, 1)
        return type_level_table(entries, "one_to_one")

    t = best_of(go, repeat=2)
    s = go()[0]
    n_pairs = topic_entries(gold, run, item_type.astype(np.int32), topic, 1)[0].entries
    return (f"typelevel_macro11_{n / 10**6:g}M", 5.0 / t,
            f"{n:,} tokens, {n_pairs.n_types} types, 50 tags, 200 clusters: {t:.3f} s (target 5 s);"
            f" MacroI F {s.macro_f:.3f}")


def run() -> list[tuple[str, float, str]]:
    """Run every benchmark; (name, ratio, detail) each, ratio >= 1 meets the target."""
    return [bench_ud_ewt(), bench_ud_ewt_many_to_one(), bench_ud_ewt_microc_exact(),
            bench_macro11_1m()]


if __name__ == "__main__":
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}  # {detail}")
