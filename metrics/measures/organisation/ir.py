"""Standard IR measures of ranking campaigns, computed by ``ir_measures`` (equal to trec_eval).

A metric name that the project's registry does not know and that ``ir_measures`` parses
(``nDCG@10``, ``AP(rel=2)``, ``RR(rel=2)``, ``P(rel=2)@10``, ``RBP(p=0.8,rel=2)``, ...) is an IR
measure, named by its canonical ``ir_measures`` string. The project does not reimplement any of
them: the campaign is handed to ``ir_measures`` as qrels and a run, in the nested dictionaries
``{query_id: {doc_id: value}}`` it passes to pytrec_eval unchanged.

* qrels: every gold row; the relevance is the grade a TREC gold keeps (``Membership.weight``),
  otherwise derived from the level (``L + 1 - level`` for a gold of L levels, 0 in the tail).
* run: every item a run lists, with score ``-level``; levels were assigned in trec_eval's order
  (score descending, ties by document id descending, :mod:`metrics.io.trec`), so the ranking
  ``ir_measures`` sees is exactly the one trec_eval sees on the original file.

A campaign read from TREC files hands over its ranked lists directly
(:class:`~metrics.measures.organisation.ranked_lists.RankedMemberships`): no membership is made.
A topic where a run lists nothing scores 0 (trec_eval ``-c``). Which measures an installed
provider computes is decided before any work (:mod:`metrics.measures.organisation.ir_support`).
See ``docs/organisation.md`` §6.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.organisation.ir_support import ir_provider
from metrics.measures.organisation.ranked_lists import RankedMemberships
from metrics.model.campaign import Campaign, Membership

__all__ = ["parse_ir_measure", "ir_scores", "qrels_dict", "run_dict"]


@lru_cache(maxsize=256)
def parse_ir_measure(text: str):
    """The ``ir_measures`` measure named by ``text``, or None when it names none."""
    import ir_measures  # noqa: PLC0415  (heavy import, only when an IR measure is asked for)

    try:
        return ir_measures.parse_measure(str(text).strip())
    except (NameError, ValueError, TypeError, SyntaxError, AttributeError, KeyError):
        return None


def _nested(topics: np.ndarray, topic: np.ndarray, doc: np.ndarray, value: list) -> dict:
    """``{query_id: {doc_id: value}}`` from rows grouped by topic code (``topic`` sorted)."""
    out: dict = {}
    if topic.size == 0:
        return out
    starts = np.flatnonzero(np.r_[True, topic[1:] != topic[:-1]]).tolist() + [topic.size]
    names = topics[topic[starts[:-1]]].tolist()
    docs = doc.tolist()
    for name, a, b in zip(names, starts[:-1], starts[1:], strict=True):
        out[str(name)] = dict(zip(docs[a:b], value[a:b], strict=True))
    return out


def _best_per_item(m: Membership, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ``m`` (sorted by item) reduced to one per item, the highest ``value``."""
    order = np.lexsort((-value, m.item))
    first = np.r_[True, m.item[order][1:] != m.item[order][:-1]]
    return m.item[order][first], value[order][first]


def _levels(m: Membership) -> np.ndarray:
    return np.ones(m.n_rows, np.int64) if m.level is None else m.level.astype(np.int64)


def qrels_dict(campaign: Campaign) -> dict:
    """The campaign's gold as qrels ``{query_id: {doc_id: relevance}}``."""
    gold = campaign.gold
    if gold is None:
        raise UnanimityError(f"campaign {campaign.name!r} has no gold: no IR measure")
    if isinstance(campaign.runs, RankedMemberships):
        ranked = campaign.runs.ranked
        g = ranked.gold
        return _nested(ranked.topics, g.topic, ranked.doc_ids[g.doc],
                       g.weight.astype(np.int64).tolist())
    level = _levels(gold)
    if gold.weight is not None and np.all(np.isfinite(gold.weight)):
        rel = gold.weight.astype(np.int64)
    else:
        top = int(level.max(initial=1))
        rel = np.where(level >= 1, top + 1 - level, 0)
    item, rel = _best_per_item(gold, rel)  # an item in several gold clusters: its highest
    return _nested(campaign.topics, campaign.item_topic[item], campaign.item_ids[item],
                   rel.tolist())


def run_dict(campaign: Campaign, system: str) -> dict:
    """A run as ``{query_id: {doc_id: -level}}`` (the best occurrence of each item)."""
    if isinstance(campaign.runs, RankedMemberships):
        ranked = campaign.runs.ranked
        r = ranked.runs[system]
        return _nested(ranked.topics, r.topic, ranked.doc_ids[r.doc],
                       (-r.level.astype(np.float64)).tolist())
    run = campaign.runs[system]
    item, score = _best_per_item(run, -_levels(run).astype(np.float64))
    return _nested(campaign.topics, campaign.item_topic[item], campaign.item_ids[item],
                   score.tolist())


def ir_scores(campaign: Campaign, systems: Sequence[str], names: Sequence[str]
              ) -> dict[str, np.ndarray]:
    """Per-topic values of the IR measures ``names`` (canonical strings) for ``systems``.

    Returns
    -------
    dict name -> ndarray (n_systems, n_topics).
    """
    measures = [parse_ir_measure(n) for n in names]
    by_name = {str(m): i for i, m in enumerate(measures)}
    topic_pos = {str(t): i for i, t in enumerate(campaign.topics)}
    out = np.zeros((len(names), len(systems), campaign.n_topics))
    evaluator = ir_provider().evaluator(measures, qrels_dict(campaign))
    for s, system in enumerate(systems):
        for rec in evaluator.iter_calc(run_dict(campaign, system)):
            t = topic_pos.get(str(rec.query_id))
            if t is not None:
                out[by_name[str(rec.measure)], s, t] = rec.value
    return {n: out[i] for i, n in enumerate(names)}
