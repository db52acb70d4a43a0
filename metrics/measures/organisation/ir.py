"""Standard IR measures of ranking campaigns, computed by ``ir_measures`` (equal to trec_eval).

A metric name that the project's registry does not know and that ``ir_measures`` parses
(``nDCG@10``, ``AP(rel=2)``, ``RR(rel=2)``, ``P(rel=2)@10``, ``RBP(p=0.8,rel=2)``, ...) is an IR
measure, named by its canonical ``ir_measures`` string. The project does not reimplement any of
them: the campaign is handed to ``ir_measures`` as qrels and a run.

* qrels: every gold row; the relevance is the grade a TREC gold keeps (``Membership.weight``),
  otherwise derived from the level (``L + 1 - level`` for a gold of L levels, 0 in the tail).
* run: every item a run lists, with score ``-level``; levels were assigned in trec_eval's order
  (score descending, ties by document id descending, :mod:`metrics.io.trec`), so the ranking
  ``ir_measures`` sees is exactly the one trec_eval sees on the original file.

A topic where a run lists nothing scores 0 (trec_eval ``-c``). See ``docs/organisation.md`` §6.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.model.campaign import Campaign

__all__ = ["parse_ir_measure", "ir_scores", "qrels_frame", "run_frame"]


@lru_cache(maxsize=256)
def parse_ir_measure(text: str):
    """The ``ir_measures`` measure named by ``text``, or None when it names none."""
    import ir_measures  # noqa: PLC0415  (heavy import, only when an IR measure is asked for)

    try:
        return ir_measures.parse_measure(str(text).strip())
    except (NameError, ValueError, TypeError, SyntaxError, AttributeError, KeyError):
        return None


def qrels_frame(campaign: Campaign) -> pd.DataFrame:
    """The campaign's gold as qrels ``query_id, doc_id, relevance``."""
    gold = campaign.gold
    if gold is None:
        raise UnanimityError(f"campaign {campaign.name!r} has no gold: no IR measure")
    level = (np.ones(gold.n_rows, np.int64) if gold.level is None
             else gold.level.astype(np.int64))
    if gold.weight is not None and np.all(np.isfinite(gold.weight)):
        rel = gold.weight.astype(np.int64)
    else:
        top = int(level.max(initial=1))
        rel = np.where(level >= 1, top + 1 - level, 0)
    frame = pd.DataFrame({
        "query_id": campaign.topics[campaign.item_topic[gold.item]].astype(str),
        "doc_id": campaign.item_ids[gold.item].astype(str),
        "relevance": rel,
    })
    # an item in several gold clusters: its highest relevance
    return (frame.sort_values("relevance", ascending=False, kind="stable")
            .drop_duplicates(["query_id", "doc_id"]).reset_index(drop=True))


def run_frame(campaign: Campaign, system: str) -> pd.DataFrame:
    """A run as ``query_id, doc_id, score`` with score = -level (best occurrence per item)."""
    run = campaign.runs[system]
    level = (np.ones(run.n_rows, np.int64) if run.level is None else run.level.astype(np.int64))
    frame = pd.DataFrame({
        "query_id": campaign.topics[campaign.item_topic[run.item]].astype(str),
        "doc_id": campaign.item_ids[run.item].astype(str),
        "score": -level.astype(np.float64),
    })
    return (frame.sort_values("score", ascending=False, kind="stable")
            .drop_duplicates(["query_id", "doc_id"]).reset_index(drop=True))


def ir_scores(campaign: Campaign, systems: Sequence[str], names: Sequence[str]
              ) -> dict[str, np.ndarray]:
    """Per-topic values of the IR measures ``names`` (canonical strings) for ``systems``.

    Returns
    -------
    dict name -> ndarray (n_systems, n_topics).
    """
    import ir_measures  # noqa: PLC0415 - deferred: heavy, only when an IR measure is asked for

    measures = [parse_ir_measure(n) for n in names]
    by_name = {str(m): i for i, m in enumerate(measures)}
    topic_pos = {str(t): i for i, t in enumerate(campaign.topics)}
    out = np.zeros((len(names), len(systems), campaign.n_topics))
    evaluator = ir_measures.evaluator(measures, _nested(qrels_frame(campaign), "relevance", int))
    for s, system in enumerate(systems):
        run = _nested(run_frame(campaign, system), "score", float)
        for rec in evaluator.iter_calc(run):
            t = topic_pos.get(str(rec.query_id))
            if t is not None:
                out[by_name[str(rec.measure)], s, t] = rec.value
    return {n: out[i] for i, n in enumerate(names)}


def _nested(frame: pd.DataFrame, column: str, kind: type) -> dict:
    """``{query_id: {doc_id: value}}``, the form ``ir_measures`` hands to trec_eval unchanged."""
    out: dict = {}
    q = frame["query_id"].to_numpy(dtype=object)
    d = frame["doc_id"].to_numpy(dtype=object)
    v = frame[column].to_numpy().tolist()
    if q.size == 0:
        return out
    order = np.argsort(q.astype(str), kind="stable")
    q, d, v = q[order], d[order], [v[i] for i in order]
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]]).tolist() + [q.size]
    for a, b in zip(starts[:-1], starts[1:], strict=True):
        out[str(q[a])] = dict(zip(d[a:b].tolist(), map(kind, v[a:b]), strict=True))
    return out
