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
    The measure and each m' in M' other than m rank the system outputs (average ranks for
    ties, direction-aware), scaled to [0, 1], 1 = best: ``(r - 1) / (|O| - 1)`` for the r-th
    worst of |O|. Strictness(m) = -max over outputs o and references m' of
    ``rank_m(o) - rank_{m'}(o)``: the largest amount by which m puts an output above where a
    reference puts it, negated; or minus the mean of the ``top`` largest. The outputs are
    ranked within each topic (``per-topic``, the default) or all at once (``all-outputs``);
    both readings are computed (:mod:`metrics.meta.strictness`). Range [-1, 0]; 0 means m
    never ranks an output higher than a reference does.

Everything is vectorised: ranks of all topics at once (``scipy.stats.rankdata`` along the
system axis), all Spearman correlations of a measure as matrix products of ranks
(:mod:`metrics.meta.topic_correlation`), Strictness as one array pass per (measure, reference).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.meta.strictness import (
    STRICTNESS_READINGS,
    Strictness,
    output_ranks,
    scaled_ranks,
    strictness,
)
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
    "STRICTNESS_READINGS",
]

#: Columns of the campaign-level result (``meta_evaluation.csv``): ``strictness`` under the
#: reading asked for, then under each reading.
RESULT_COLUMNS: tuple[str, ...] = ("metric", "robustness", "strictness", "strictness_per_topic",
                                   "strictness_all_outputs")


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
class MetricMetaEvaluation:
    """Robustness and Strictness of one measure on a campaign.

    ``strictness`` is under the reading asked for, ``strictness_per_topic`` and
    ``strictness_all_outputs`` under each; the worst case is the asked reading's;
    ``strictness_note`` says why Strictness is NaN when it is (empty otherwise).
    """

    metric: str
    robustness: float
    strictness: float
    strictness_per_topic: float
    strictness_all_outputs: float
    topic_pairs: int
    undefined_pairs: int
    worst_topic: str | None
    worst_system: str | None
    worst_reference: str | None
    strictness_note: str = ""


@dataclass(frozen=True)
class MetaEvaluation:
    """The meta-evaluation of a set of measures against reference measures.

    Attributes
    ----------
    results : tuple of MetricMetaEvaluation
        One per measure: those evaluated first, then the references not among them.
    reference : tuple of str
        The reference measures M'.
    strictness_reading : str
        The reading of ``strictness`` and of the per-topic and worst-case views.
    strictness_top : int
        How many of the largest rank differences Strictness averages (1: the largest).
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
    strictness_reading: str = "per-topic"
    strictness_top: int = 1

    def to_dataframe(self, details: bool = False) -> pd.DataFrame:
        """:data:`RESULT_COLUMNS` (plus the counts, the worst case and the note with
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


def meta_evaluate(
    table: pd.DataFrame,
    metrics: Sequence[str],
    reference: Sequence[str],
    directions: Mapping[str, int] | None = None,
    systems: Sequence[str] | None = None,
    strictness_reading: str = "per-topic",
    strictness_top: int = 1,
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
    strictness_reading : {"per-topic", "all-outputs"}
        The reading of ``strictness`` (both are computed): rank the systems within each topic,
        or every (system, topic) output at once (:mod:`metrics.meta.strictness`).
    strictness_top : int
        Average the k largest rank differences instead of taking the largest.

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
    if strictness_reading not in STRICTNESS_READINGS:
        raise ValueError(f"meta_evaluate: strictness reading must be one of "
                         f"{', '.join(STRICTNESS_READINGS)}, got {strictness_reading!r}")
    names = list(dict.fromkeys(metrics + reference))
    cube = score_cube(table, names, systems=systems)
    signs = np.asarray(metric_directions(names, directions), dtype=np.float64)
    oriented = cube.values * signs.reshape(1, 1, -1)
    ref_idx = [names.index(r) for r in dict.fromkeys(reference)]
    all_ranks = np.stack([scaled_ranks(oriented[:, :, k]) for k in range(len(names))], axis=2)
    out_ranks = np.stack([output_ranks(oriented[:, :, k]) for k in range(len(names))], axis=2)
    by_reading = {"per-topic": all_ranks, "all-outputs": out_ranks}
    results, topic_frames, rank_frames = [], [], []
    topics = np.asarray(cube.topics, dtype=object)
    sys_names = np.asarray(cube.systems, dtype=object)
    for mi, name in enumerate(names):
        vals = oriented[:, :, mi]
        rob = robustness(vals)
        others = [j for j in ref_idx if j != mi]
        strict = {reading: strictness(vals, oriented[:, :, others],
                                      ranks=(rk[:, :, mi], rk[:, :, others]),
                                      reading=reading, top=strictness_top)
                  for reading, rk in by_reading.items()}
        main = strict[strictness_reading]
        worst: tuple[str | None, str | None, str | None] = (None, None, None)
        if main.worst is not None:
            s, t, j = main.worst
            worst = (str(cube.topics[t]), str(cube.systems[s]), names[others[j]])
        results.append(MetricMetaEvaluation(
            name, rob.value, main.value, strict["per-topic"].value,
            strict["all-outputs"].value, rob.pairs, rob.undefined_pairs, *worst,
            _strictness_note(name, others, main)))
        topic_frames.append(pd.DataFrame({
            "metric": name, "topic": topics,
            "systems": np.sum(~np.isnan(vals), axis=0).astype(np.int64),
            "robustness": rob.per_topic, "strictness": main.per_topic}))
        ranks = all_ranks[:, :, mi]
        rank_frames.append(pd.DataFrame({
            "system": np.repeat(sys_names, len(topics)), "topic": np.tile(topics, len(sys_names)),
            "metric": name, "scaled_rank": ranks.reshape(-1)}))
    return MetaEvaluation(tuple(results), tuple(reference),
                          pd.concat(topic_frames, ignore_index=True),
                          pd.concat(rank_frames, ignore_index=True),
                          strictness_reading, int(strictness_top))


def _strictness_note(name: str, others: list[int], result: Strictness) -> str:
    """Why Strictness is NaN, in words (empty when it is defined)."""
    if not np.isnan(result.value):
        return ""
    if not others:
        return (f"{name} has no reference other than itself (a measure is not judged against "
                "itself): give at least two reference measures")
    return (f"{name} and its references never both rank two outputs (too few systems scored "
            "by both)")
