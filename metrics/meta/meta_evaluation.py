"""Meta-evaluation of measures: Robustness and Strictness (Amigó, Gonzalo, Verdejo, SIGIR 2013).

The paper's §4.1 defines both criteria.

Both criteria read a per-topic score table ``system, topic, metric, value`` (what
:func:`metrics.measures.scoring.evaluate` returns, or a score-table campaign) and say how a measure
behaves across the systems of a campaign; the definitions are in ``docs/meta-evaluation.md``.

Robustness(m)
    Mean over pairs of distinct topics (t_i, t_j) of the Spearman correlation between the
    systems' scores by m on t_i and on t_j, over the systems scored on both. A pair where the
    correlation is undefined (fewer than two common systems, or every system tied on a topic)
    is left out and counted. Range [-1, 1]; higher means the measure ranks systems alike on
    every topic.
Strictness(m) against reference measures M'
    On each topic, every measure ranks the systems (average ranks for ties, direction-aware)
    and the rank is scaled to [0, 1], 1 = best: ``(r - 1) / (|O| - 1)`` for the r-th worst of
    |O| systems. Strictness(m) = -max over topics t, systems o and m' in M' other than m of
    ``rank_{m,t}(o) - rank_{m',t}(o)``: the largest amount by which m puts a system above
    where a reference measure puts it, negated. |O| on a topic counts the systems scored by
    both m and m' there. Range [-1, 0]; 0 means m never ranks a system higher than a
    reference does.

Everything is vectorised: ranks of all topics at once (``scipy.stats.rankdata`` along the
system axis), all Spearman correlations of a measure as matrix products of ranks
(:mod:`metrics.meta.topic_correlation`), Strictness as one array pass per (measure, reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from metrics.meta.topic_correlation import topic_correlations
from metrics.model.score_table import metric_directions, score_cube

__all__ = [
    "MetricMetaEvaluation",
    "MetaEvaluation",
    "Robustness",
    "Strictness",
    "meta_evaluate",
    "robustness",
    "strictness",
    "scaled_ranks",
    "RESULT_COLUMNS",
]

#: Columns of the campaign-level result (``meta_evaluation.csv``).
RESULT_COLUMNS: tuple[str, ...] = ("metric", "robustness", "strictness")


@dataclass(frozen=True)
class Robustness:
    """Robustness of one measure from its (systems x topics) scores.

    Attributes
    ----------
    value : float
        Mean Spearman correlation over the topic pairs where it is defined (NaN if none).
    per_topic : ndarray, shape (T,)
        Mean correlation of each topic with the other topics (NaN if none defined).
    pairs : int
        Topic pairs with a defined correlation.
    undefined_pairs : int
        Topic pairs left out (fewer than two common systems, or a topic where all tie).
    """

    value: float
    per_topic: np.ndarray
    pairs: int
    undefined_pairs: int


@dataclass(frozen=True)
class Strictness:
    """Strictness of one measure against reference measures.

    Attributes
    ----------
    value : float
        ``-max`` of the scaled-rank difference over topics, systems and references (NaN when
        no reference other than the measure itself ranks two systems on some topic).
    per_topic : ndarray, shape (T,)
        The same maximum taken on each topic alone, negated.
    worst : tuple (system index, topic index, reference index) or None
        Where the maximum is reached (first in system, topic, reference order).
    """

    value: float
    per_topic: np.ndarray
    worst: tuple[int, int, int] | None


@dataclass(frozen=True)
class MetricMetaEvaluation:
    """Robustness and Strictness of one measure on a campaign."""

    metric: str
    robustness: float
    strictness: float
    topic_pairs: int
    undefined_pairs: int
    worst_topic: str | None
    worst_system: str | None
    worst_reference: str | None


@dataclass(frozen=True)
class MetaEvaluation:
    """The meta-evaluation of a set of measures against reference measures.

    Attributes
    ----------
    results : tuple of MetricMetaEvaluation
        One per measure: those evaluated first, then the references not among them.
    reference : tuple of str
        The reference measures M'.
    per_topic : DataFrame
        Figure-ready per-topic view, columns ``metric, topic, systems, robustness,
        strictness``: the systems scored, the topic's mean Spearman correlation with the
        other topics, and -max of the scaled-rank difference on that topic.
    ranks : DataFrame
        Columns ``system, topic, metric, scaled_rank`` (1 = best on the topic, 0 = worst).
    """

    results: tuple[MetricMetaEvaluation, ...]
    reference: tuple[str, ...]
    per_topic: pd.DataFrame
    ranks: pd.DataFrame

    def to_dataframe(self, details: bool = False) -> pd.DataFrame:
        """``metric, robustness, strictness`` (plus the counts and the worst case with
        ``details``)."""
        frame = pd.DataFrame([r.__dict__ for r in self.results])
        if frame.empty:
            frame = pd.DataFrame(columns=list(MetricMetaEvaluation.__dataclass_fields__))
        return frame if details else frame[list(RESULT_COLUMNS)]

    def __getitem__(self, metric: str) -> MetricMetaEvaluation:
        for r in self.results:
            if r.metric == metric:
                return r
        raise KeyError(metric)


def scaled_ranks(values: np.ndarray) -> np.ndarray:
    """Per-topic ranks of the systems scaled to [0, 1], 1 = best.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Higher-is-better scores (orient lower-is-better measures first); NaN = not scored.

    Returns
    -------
    ndarray, shape (S, T)
        ``(r - 1) / (n_t - 1)`` with r the average rank (1 = worst) among the n_t systems
        scored on topic t; NaN where not scored or where n_t < 2.
    """
    v = np.asarray(values, dtype=np.float64)
    r = rankdata(v, axis=0, nan_policy="omit") if v.size else v.copy()
    n = np.sum(~np.isnan(v), axis=0).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = (r - 1.0) / (n - 1.0)
    return np.where(n >= 2, out, np.nan)


def robustness(values: np.ndarray, method: str = "auto") -> Robustness:
    """Robustness: mean Spearman correlation of the system scores over pairs of topics.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Scores of S systems on T topics; NaN = not scored. The direction of the measure does
        not matter (a correlation is unchanged when both rankings are reversed).
    method : {"auto", "patterns", "masked"}
        The route of :func:`metrics.meta.topic_correlation.topic_correlations` (same numbers).

    Returns
    -------
    Robustness

    Notes
    -----
    Spearman(t_i, t_j) is the Pearson correlation of the average ranks of the systems scored
    on both topics, as ``scipy.stats.spearmanr``.
    """
    v = np.asarray(values, dtype=np.float64)
    corr = topic_correlations(v, method)
    n_t = v.shape[1]
    np.fill_diagonal(corr, np.nan)
    ok = ~np.isnan(corr)
    per_cnt = ok.sum(axis=1)
    per_sum = np.where(ok, corr, 0.0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_topic = np.where(per_cnt > 0, per_sum / np.maximum(per_cnt, 1), np.nan)
    iu = np.triu_indices(n_t, 1)
    upper = corr[iu]
    defined = upper[~np.isnan(upper)]
    value = float(defined.mean()) if defined.size else float("nan")
    return Robustness(value, per_topic, int(defined.size), len(upper) - int(defined.size))


def strictness(values: np.ndarray, references: np.ndarray,
               ranks: tuple[np.ndarray, np.ndarray] | None = None) -> Strictness:
    """Strictness of a measure against reference measures.

    Parameters
    ----------
    values : ndarray, shape (S, T)
        Higher-is-better scores of the measure (NaN = not scored).
    references : ndarray, shape (S, T, K)
        Higher-is-better scores of the K reference measures other than this one.
    ranks : (ndarray (S, T), ndarray (S, T, K)), optional
        :func:`scaled_ranks` of ``values`` and of each reference over all the systems each
        scores, when already computed; they serve wherever both measures score the same
        systems of a topic (no re-ranking needed).

    Returns
    -------
    Strictness
        ``-max_{t, o, m'} (rank_{m,t}(o) - rank_{m',t}(o))`` with the scaled ranks of
        :func:`scaled_ranks`, each pair (m, m') ranked over the systems scored by both.
    """
    v = np.asarray(values, dtype=np.float64)
    refs = np.asarray(references, dtype=np.float64)
    n_s, n_t = v.shape
    k = refs.shape[2] if refs.ndim == 3 else 0
    diff = np.full((n_s, n_t, max(k, 1)), np.nan)
    valid = ~np.isnan(v)
    rank_v = scaled_ranks(v) if ranks is None else ranks[0]
    for j in range(k):  # one pass per reference measure: a handful
        ref = refs[:, :, j]
        both = valid & ~np.isnan(ref)
        same = np.all(both == valid, axis=0) & np.all(both == ~np.isnan(ref), axis=0)
        rank_r = scaled_ranks(ref) if ranks is None else ranks[1][:, :, j]
        if not same.all():  # topics where the two score different systems: rank over both
            cols = ~same
            rank_v_j, rank_r = rank_v.copy(), rank_r.copy()
            rank_v_j[:, cols] = scaled_ranks(np.where(both, v, np.nan)[:, cols])
            rank_r[:, cols] = scaled_ranks(np.where(both, ref, np.nan)[:, cols])
        else:
            rank_v_j = rank_v
        diff[:, :, j] = rank_v_j - rank_r
    if k == 0 or np.all(np.isnan(diff)):
        return Strictness(float("nan"), np.full(n_t, np.nan), None)
    flat = np.where(np.isnan(diff), -np.inf, diff)
    per_topic = flat.max(axis=(0, 2))
    per_topic = np.where(np.isfinite(per_topic), -per_topic, np.nan)
    s, t, j = (int(i) for i in np.unravel_index(int(np.argmax(flat)), flat.shape))
    return Strictness(float(-flat[s, t, j]), per_topic, (s, t, j))


def meta_evaluate(
    table: pd.DataFrame,
    metrics: Sequence[str],
    reference: Sequence[str],
    directions: Mapping[str, int] | None = None,
    systems: Sequence[str] | None = None,
) -> MetaEvaluation:
    """Robustness and Strictness of ``metrics`` and ``reference`` on a campaign's score table.

    Parameters
    ----------
    table : DataFrame
        Score table ``system, topic, metric, value`` holding every measure named.
    metrics : sequence of str
        Measures to meta-evaluate.
    reference : sequence of str
        Reference measures M'. Each is meta-evaluated too, against the other references.
    directions : mapping str -> {+1, -1}, optional
        Direction of measures the registry does not know (default +1, higher is better).
    systems : sequence of str, optional
        Only these systems (e.g. those returning full-depth rankings).

    Returns
    -------
    MetaEvaluation
    """
    metrics = [str(m) for m in metrics]
    reference = [str(m) for m in reference]
    if not metrics and not reference:
        raise ValueError("meta_evaluate: no measure given")
    if not reference:
        raise ValueError("meta_evaluate: Strictness needs at least one reference measure")
    names = list(dict.fromkeys(metrics + reference))
    cube = score_cube(table, names, systems=systems)
    signs = np.asarray(metric_directions(names, directions), dtype=np.float64)
    oriented = cube.values * signs.reshape(1, 1, -1)
    ref_idx = [names.index(r) for r in dict.fromkeys(reference)]
    all_ranks = np.stack([scaled_ranks(oriented[:, :, k]) for k in range(len(names))], axis=2)
    results, topic_frames, rank_frames = [], [], []
    topics = np.asarray(cube.topics, dtype=object)
    sys_names = np.asarray(cube.systems, dtype=object)
    for mi, name in enumerate(names):
        vals = oriented[:, :, mi]
        rob = robustness(vals)
        others = [j for j in ref_idx if j != mi]
        strict = strictness(vals, oriented[:, :, others],
                            ranks=(all_ranks[:, :, mi], all_ranks[:, :, others]))
        worst: tuple[str | None, str | None, str | None] = (None, None, None)
        if strict.worst is not None:
            s, t, j = strict.worst
            worst = (str(cube.topics[t]), str(cube.systems[s]), names[others[j]])
        results.append(MetricMetaEvaluation(name, rob.value, strict.value, rob.pairs,
                                            rob.undefined_pairs, *worst))
        topic_frames.append(pd.DataFrame({
            "metric": name, "topic": topics,
            "systems": np.sum(~np.isnan(vals), axis=0).astype(np.int64),
            "robustness": rob.per_topic, "strictness": strict.per_topic}))
        ranks = all_ranks[:, :, mi]
        rank_frames.append(pd.DataFrame({
            "system": np.repeat(sys_names, len(topics)), "topic": np.tile(topics, len(sys_names)),
            "metric": name, "scaled_rank": ranks.reshape(-1)}))
    return MetaEvaluation(tuple(results), tuple(reference),
                          pd.concat(topic_frames, ignore_index=True),
                          pd.concat(rank_frames, ignore_index=True))
