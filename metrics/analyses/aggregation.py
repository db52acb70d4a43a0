"""Does a ranking depend on how the metrics were combined? Rankings under several aggregation
rules, their agreement, the pairs they flip, and the Pareto front (docs/uncertainty.md,
"Robustness to the aggregation rule").

Every rule works on the comparison's UIR metrics, each turned higher-is-better by its direction,
through the systems' campaign means m_s(x) (mean over the topics where the system has every
metric; docs/measures.md §1), except F_alpha which combines the precision / recall pair:

* ``f_alpha`` at the comparison's alpha, and at alpha = 0 and 1; ``f_alpha_best`` /
  ``f_alpha_worst``: the best and worst rank a system takes over alpha in [0, 1], exactly, from the
  crossing points of every pair's campaign F curves (:mod:`metrics.comparison.alpha`): a pair's
  order changes only at its crossings, and at a crossing the two systems tie (JAIR 2011 §2);
* ``mean``: the mean over metrics of m_s(x);
* ``borda``: sum over metrics of the number of systems with a lower m(x) (ties count one half);
* ``median_rank``: the median over metrics of the system's rank by m(x) (average ranks for ties;
  lower is better);
* ``min_metric``: the smallest m_s(x) over the metrics.

The rank under a rule is 1 + the number of systems strictly better (tied systems share the better
rank). Kendall's tau-b of each two rules' scores (:func:`scipy.stats.kendalltau`) measures their
agreement. A pair of systems is **flipped** when one rule puts a above b and another b above a
(F_alpha counts as one rule over all alpha: a pair with a crossing is flipped); each flipped pair
carries its UIR and whether UIR calls it robust (a improves b, or b improves a, under the
comparison's profile and threshold: :func:`metrics.comparison.reference.improves`).

**Pareto front**: a system is Pareto-optimal over means when no other system has m(x) at least as
high on every metric and higher on one; ``pareto_topics`` counts the topics on which it is
Pareto-optimal among the systems scored on that topic (Amigó et al. 2011, JAIR 42, §3: the
unanimous improvement relation).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain, combinations

import numpy as np
import pandas as pd
from scipy import stats

from metrics.analyses.common import dedupe, means, sub_cube
from metrics.comparison.curves import Curves, curves_from_arrays
from metrics.comparison.profiles import profile_of
from metrics.comparison.reference import improves
from metrics.compute_budget import chunk_rows
from metrics.model.score_table import names_at, score_cube, validate_score_table
from metrics.reports.comparison_report import CampaignComparison

__all__ = ["RULES", "AggregationRobustness", "AggregationCore", "aggregation_robustness",
           "aggregation_core", "aggregation_at", "pareto_front", "rule_ranks", "rule_scores"]

#: The aggregation rules, in the order of ``aggregation.csv``'s rank columns.
RULES: tuple[str, ...] = ("f_alpha", "f_alpha_0", "f_alpha_1", "mean", "borda", "median_rank",
                          "min_metric")


@dataclass(frozen=True, eq=False)
class AggregationRobustness:
    """Rankings under every rule (module docstring).

    Attributes
    ----------
    ranks : DataFrame
        ``system, rank_<rule>`` for every rule of :data:`RULES`, ``rank_f_alpha_best,
        rank_f_alpha_worst, pareto_means, pareto_topics`` (``aggregation.csv``).
    tau : DataFrame
        ``rule_a, rule_b, kendall_tau, pvalue`` for each two rules (``aggregation_tau.csv``).
    flips : DataFrame
        The flipped pairs, a above b under the comparison's F_alpha: ``system_a, system_b,
        f_alpha_crosses`` (the F curves cross in (0, 1)), ``order_<rule>`` (+1: a above b under
        the rule, -1: b above a, 0: tied) for every rule, ``uir`` (of a over b), ``uir_robust``
        (``aggregation_flips.csv``).
    """

    ranks: pd.DataFrame
    tau: pd.DataFrame
    flips: pd.DataFrame

    def tables(self) -> dict[str, pd.DataFrame]:
        """The bundle's tables: ``aggregation``, ``aggregation_tau``, ``aggregation_flips``."""
        return {"aggregation": self.ranks, "aggregation_tau": self.tau,
                "aggregation_flips": self.flips}


def _rank(score: np.ndarray) -> np.ndarray:
    """1 + number of strictly higher scores; NaN last."""
    s = pd.Series(score)
    return s.rank(ascending=False, method="min", na_option="bottom").astype(np.int64).to_numpy()


def rule_scores(mean_x: np.ndarray) -> dict[str, np.ndarray]:
    """Scores (higher is better) of the metric-mean rules from the (S, M) oriented campaign means:
    ``mean``, ``borda``, ``median_rank`` (negated: a lower median rank is better),
    ``min_metric``."""
    r = np.column_stack([pd.Series(mean_x[:, m]).rank(ascending=False, method="average")
                         .to_numpy() for m in range(mean_x.shape[1])])
    S = mean_x.shape[0]
    return {"mean": mean_x.mean(axis=1), "borda": (S - r).sum(axis=1),
            "median_rank": -np.median(r, axis=1), "min_metric": mean_x.min(axis=1)}


def rule_ranks(mean_x: np.ndarray) -> dict[str, np.ndarray]:
    """Ranks under the metric-mean rules of :func:`rule_scores`."""
    return {k: _rank(v) for k, v in rule_scores(mean_x).items()}


def pareto_front(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pareto over means (S,) bool, topics on which each system is Pareto-optimal (S,) int) of
    oriented scores X (S, T, M). Blocks of rows, no loop over pairs."""
    S, T, M = X.shape
    mx = means(X)
    dominated = np.zeros(S, dtype=bool)
    dom_t = np.zeros((S, T), dtype=bool)
    valid = ~np.isnan(X).any(axis=2)
    step = chunk_rows(S * T * M * 2, S)
    with np.errstate(invalid="ignore"):
        for i0 in range(0, S, step):
            rows = slice(i0, min(S, i0 + step))
            ge = np.all(mx[None, :, :] >= mx[rows, None, :], axis=2)
            gt = np.any(mx[None, :, :] > mx[rows, None, :], axis=2)
            dominated[rows] = np.any(ge & gt, axis=1)
            a, b = X[rows, None], X[None, :]            # (r, 1, T, M) vs (1, S, T, M)
            ge_t = (b >= a).all(axis=3) & valid[None, :, :]
            gt_t = (b > a).any(axis=3)
            dom_t[rows] = (ge_t & gt_t).any(axis=1)
    return ~dominated & np.isfinite(mx).all(axis=1), (~dom_t & valid).sum(axis=1)


#: pairs x topics per block of :func:`_values_at_mid` (arrays of 2 MB, kept in the cache)
_MID_CELLS = 1 << 18


def _values_at_mid(curves: Curves, r: np.ndarray, q: np.ndarray, mid: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """F(r) and F(q) at ``mid`` for ordered pairs (r, q): each unordered pair once (its two
    orientations share their crossings, hence ``mid``; evaluated once per row otherwise), in
    blocks of pairs."""
    S = curves.U.shape[0]
    lo, hi = np.minimum(r, q), np.maximum(r, q)
    _, first, inv = np.unique(lo * S + hi, return_index=True, return_inverse=True)
    inv = inv.reshape(-1)
    if not np.array_equal(mid[first][inv], mid):
        first, inv = np.arange(mid.size), np.arange(mid.size)
    a, b, m = lo[first], hi[first], mid[first]
    f_lo, f_hi = np.empty(first.size), np.empty(first.size)
    U, V, W = curves.U, curves.V, curves.W
    step = max(1, _MID_CELLS // max(U.shape[1], 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        for s0 in range(0, first.size, step):
            sl = slice(s0, s0 + step)
            x = m[sl, None]
            f_lo[sl] = (W[a[sl]] / (U[a[sl]] + x * V[a[sl]])).sum(axis=1)
            f_hi[sl] = (W[b[sl]] / (U[b[sl]] + x * V[b[sl]])).sum(axis=1)
    f_lo, f_hi = f_lo[inv], f_hi[inv]
    up = r < q
    return np.where(up, f_lo, f_hi), np.where(up, f_hi, f_lo)


def _alpha_range(curves: Curves, f: np.ndarray, f0: np.ndarray, f1: np.ndarray,
                 crossings: pd.Series, lens: np.ndarray, ia: np.ndarray, ib: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Best and worst rank over alpha in [0, 1] (module docstring).

    For each ordered pair (a, b), whether b is above a just after alpha = 0 is read at the
    midpoint of 0 and the pair's first crossing (without one, at the comparison's alpha ``f``:
    the order is the same for every alpha but where the curves only touch); each crossing
    toggles it. The
    number of systems above a is swept over a's sorted crossing points (at a crossing the pair
    ties: systems leaving are counted out before systems entering are counted in); the exact
    ranks at alpha = 0 and 1 are added. ``lens``: the number of crossings of each pair."""
    S = f0.size
    x = np.fromiter(chain.from_iterable(crossings), dtype=np.float64, count=int(lens.sum()))
    offset = np.cumsum(lens) - lens
    has = lens > 0
    mid = x[offset[has]] / 2
    start = f[ib] > f[ia]              # no crossing: the order at the comparison's alpha holds
    r, q = ia[has], ib[has]
    fa, fb = _values_at_mid(curves, r, q, mid)
    start[has] = np.where(curves.defined[q], fb, -np.inf) > np.where(curves.defined[r], fa,
                                                                     -np.inf)
    above0 = np.bincount(ia, weights=start, minlength=S).astype(np.int64)
    k = np.arange(x.size) - np.repeat(offset, lens)                   # k-th crossing of a pair
    after = np.repeat(start, lens) ^ (k % 2 == 0)                   # b above a after it
    delta = np.where(after, 1, -1)
    sys_ = np.repeat(ia, lens)
    order = np.lexsort((delta, x, sys_))                              # leaving before entering
    sys_, delta = sys_[order], delta[order]
    run = np.cumsum(delta)
    begin = np.searchsorted(sys_, np.arange(S))
    base = np.where(begin > 0, run[np.maximum(begin - 1, 0)], 0) if run.size else np.zeros(S)
    level = above0[sys_] + run - base[sys_].astype(np.int64)
    lo, hi = above0.copy(), above0.copy()
    np.minimum.at(lo, sys_, level)
    np.maximum.at(hi, sys_, level)
    r0, r1 = _rank(f0) - 1, _rank(f1) - 1
    return 1 + np.minimum(lo, np.minimum(r0, r1)), 1 + np.maximum(hi, np.maximum(r0, r1))


@dataclass(frozen=True, eq=False)
class AggregationCore:
    """The alpha- and threshold-free part of :func:`aggregation_robustness` of a comparison's
    table (one per table, metrics and average; :func:`aggregation_at` adds the rest).

    ``names`` is the system order of every array: the means' rule scores ``scores`` (every rule
    of :data:`RULES` but the three F_alpha ones), ``f0`` / ``f1`` (F_alpha at 0 and 1), the
    Pareto flags ``pareto_m`` / ``pareto_t`` and the campaign F curves ``curves``."""

    names: tuple[str, ...]
    scores: dict[str, np.ndarray]
    f0: np.ndarray
    f1: np.ndarray
    pareto_m: np.ndarray
    pareto_t: np.ndarray
    curves: Curves

    def reordered(self, names: list[str]) -> AggregationCore:
        """The same core in the system order ``names`` (a permutation of :attr:`names`)."""
        if list(self.names) == list(names):
            return self
        pos = {s: i for i, s in enumerate(self.names)}
        perm = np.array([pos[s] for s in names], dtype=np.int64)
        c = self.curves
        return AggregationCore(tuple(names), {k: v[perm] for k, v in self.scores.items()},
                               self.f0[perm], self.f1[perm], self.pareto_m[perm],
                               self.pareto_t[perm],
                               Curves(c.U[perm], c.V[perm], c.W[perm], c.defined[perm]))


def aggregation_core(table: pd.DataFrame, result: CampaignComparison) -> AggregationCore:
    """The part of :func:`aggregation_robustness` that neither alpha nor the UIR threshold
    changes: the score cube of the comparison's metrics, the rules on the means, F_alpha at
    alpha = 0 and 1 and the Pareto front (module docstring). Same parameters."""
    p = result.parameters
    names = list(result.systems["system"])
    uir_metrics = list(result.uir_metrics or p["metrics"])
    cube = score_cube(validate_score_table(table),
                      dedupe(uir_metrics + [p["precision"], p["recall"]]), systems=names)
    X = sub_cube(cube, uir_metrics).oriented([int(p["directions"].get(m, 1))
                                              for m in uir_metrics])
    pr = sub_cube(cube, [p["precision"], p["recall"]]).values
    curves = curves_from_arrays(pr[:, :, 0], pr[:, :, 1], p["average"])
    f0, f1 = curves.values([0.0, 1.0]).T
    pareto_m, pareto_t = pareto_front(X)
    return AggregationCore(tuple(names), rule_scores(means(X)), f0, f1, pareto_m, pareto_t,
                           curves)


def aggregation_robustness(table: pd.DataFrame,
                           result: CampaignComparison) -> AggregationRobustness:
    """Rankings of ``result``'s systems under every rule of :data:`RULES`, their Kendall tau,
    the flipped pairs and the Pareto front (module docstring).

    Parameters
    ----------
    table : DataFrame
        The score table of the comparison.
    result : CampaignComparison
        Its UIR metrics, directions, F_alpha pair, alpha, average, crossings, UIR, threshold and
        profile are used.
    """
    return aggregation_at(aggregation_core(table, result), result)


def aggregation_at(core: AggregationCore, result: CampaignComparison) -> AggregationRobustness:
    """:func:`aggregation_robustness` from its alpha-free ``core`` (:func:`aggregation_core` of
    the same table and metrics) and the comparison ``result`` at its alpha and threshold."""
    p = result.parameters
    names = list(result.systems["system"])
    core = core.reordered(names)
    f = result.systems["f_alpha"].to_numpy(dtype=np.float64)
    f0, f1 = core.f0, core.f1
    pairs = result.pairs
    index = pd.Index(names)
    ia = index.get_indexer(pairs["system_a"]).astype(np.int64, copy=False)
    ib = index.get_indexer(pairs["system_b"]).astype(np.int64, copy=False)
    lens = np.fromiter(map(len, pairs["crossings"]), dtype=np.int64, count=len(pairs))
    best, worst = _alpha_range(core.curves, f, f0, f1, pairs["crossings"], lens, ia, ib)

    scores = {"f_alpha": f, "f_alpha_0": f0, "f_alpha_1": f1, **core.scores}
    pareto_m, pareto_t = core.pareto_m, core.pareto_t
    ranks = pd.DataFrame({"system": names})
    for rule in RULES:
        ranks[f"rank_{rule}"] = _rank(scores[rule])
    ranks["rank_f_alpha_best"], ranks["rank_f_alpha_worst"] = best, worst
    ranks["pareto_means"], ranks["pareto_topics"] = pareto_m, pareto_t

    tau_rows = []
    for a, b in combinations(RULES, 2):
        ok = np.isfinite(scores[a]) & np.isfinite(scores[b])
        res = stats.kendalltau(scores[a][ok], scores[b][ok])
        tau_rows.append((a, b, float(res.statistic), float(res.pvalue)))
    tau = pd.DataFrame(tau_rows, columns=["rule_a", "rule_b", "kendall_tau", "pvalue"])

    # flipped pairs: unordered, a above b under F_alpha at the comparison's alpha (ties: order)
    iu, ju = np.triu_indices(len(names), k=1)
    swap = f[ju] > f[iu]
    a_i, b_i = np.where(swap, ju, iu), np.where(swap, iu, ju)
    order = {r: np.sign(scores[r][a_i] - scores[r][b_i]) for r in RULES}
    crossing = np.zeros((len(names), len(names)), dtype=bool)
    crossing[ia, ib] = lens > 0
    crosses = crossing[a_i, b_i]
    signs = np.column_stack([np.nan_to_num(order[r]) for r in RULES])
    flip = np.flatnonzero(((signs > 0).any(axis=1) | crosses)
                          & ((signs < 0).any(axis=1) | crosses))
    u = result.uir.uir[a_i[flip], b_i[flip]]
    thr, strict = float(p["threshold"]), profile_of(p).strict_improved
    robust = np.asarray(improves(pd.Series(u), thr, strict)) | np.asarray(
        improves(pd.Series(-u), thr, strict))
    flips = pd.DataFrame({"system_a": names_at(names, a_i[flip]),
                          "system_b": names_at(names, b_i[flip]),
                          "f_alpha_crosses": crosses[flip]})
    for r in RULES:
        flips[f"order_{r}"] = np.nan_to_num(order[r][flip]).astype(np.int64)
    flips["uir"], flips["uir_robust"] = u, robust
    return AggregationRobustness(ranks, tau, flips)
