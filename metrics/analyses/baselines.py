"""Baseline systems that can be added to any campaign (docs/measures.md §7).

* ``all-in-one``: one cluster per topic holding all its items (label ``all``).
* ``one-in-one``: every item alone (label = the item id).
* ``combined``: every item in its own singleton *and* in the topic's single cluster
  (overlapping; Amigó et al. 2009 use it to show what extended BCubed does with overlap).
* ``random``: uniform random clustering into k clusters of equal size (sizes differ by at most
  one): the topic's items are shuffled and dealt round-robin (Moreno & Dias 2015 "UniformRand").
* ``ultra-shaped``: k-1 randomly chosen items are singletons, all other items form one cluster
  (Moreno & Dias 2015 "UltraShapedRand").

Choices: k defaults to the number of gold classes of each topic (as Moreno & Dias compare at
the gold's number of clusters); a given ``k`` applies to every topic; k is capped at the
topic's number of items (and is at least 1). Randomness comes from
``numpy.random.default_rng((seed, i))`` with i the baseline's index in :data:`BASELINES`, so a
baseline does not change when others are requested with it. Baselines cover every gold item:
they have no missing items. The system name is the baseline's name.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.errors import UnanimityError
from metrics.model.campaign import Campaign, Membership

__all__ = ["BASELINES", "add_baselines", "baseline_membership"]

BASELINES: tuple[str, ...] = ("all-in-one", "one-in-one", "combined", "random", "ultra-shaped")


def _parse(names: str | Sequence[str]) -> list[str]:
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    out: list[str] = []
    for n in names:
        if n == "all":
            out.extend(b for b in BASELINES if b not in out)
            continue
        if n not in BASELINES:
            raise UnanimityError(f"unknown baseline {n!r}; known: {', '.join(BASELINES)} (or all)")
        if n not in out:
            out.append(n)
    return out


def _membership(item: np.ndarray, label: np.ndarray, names: np.ndarray,
                label_topic: np.ndarray) -> Membership:
    order = np.lexsort((label, item))
    return Membership(item=item[order].astype(np.int64), label=label[order].astype(np.int32),
                      label_names=np.asarray(names, dtype=object),
                      label_topic=np.asarray(label_topic, dtype=np.int32))


def _ranks_within_topic(campaign: Campaign, rng: np.random.Generator) -> np.ndarray:
    """A random rank 0..n_t-1 of every item within its topic."""
    key = rng.random(campaign.n_items)
    order = np.lexsort((key, campaign.item_topic))
    ranks = np.empty(campaign.n_items, dtype=np.int64)
    ranks[order] = np.arange(campaign.n_items) - campaign.topic_offsets[
        campaign.item_topic[order]]
    return ranks


def _k_per_topic(campaign: Campaign, k: int | None) -> np.ndarray:
    n_t = np.diff(campaign.topic_offsets)
    if k is None:
        gold = campaign.gold_membership
        used = np.zeros(gold.n_labels, dtype=bool)
        used[gold.label] = True
        kt = np.bincount(gold.label_topic[used], minlength=campaign.n_topics)
    else:
        if int(k) < 1:
            raise UnanimityError(f"baseline k must be at least 1, got {k}")
        kt = np.full(campaign.n_topics, int(k))
    return np.clip(kt, 1, np.maximum(n_t, 1)).astype(np.int64)


def baseline_membership(campaign: Campaign, name: str, k: int | None = None,
                        seed: int = 0) -> Membership:
    """The clustering of one baseline over all gold items of the campaign."""
    if not campaign.has_clusterings:
        raise UnanimityError("baselines need a campaign with a gold clustering")
    (name,) = _parse([name])
    n, topic = campaign.n_items, campaign.item_topic.astype(np.int64)
    items = np.arange(n, dtype=np.int64)
    ids = np.asarray(campaign.item_ids, dtype=object).astype(str)
    if name == "all-in-one":
        return _membership(items, topic, np.full(campaign.n_topics, "all", dtype=object),
                           np.arange(campaign.n_topics))
    if name == "one-in-one":
        return _membership(items, items, ids, topic)
    if name == "combined":
        names = np.concatenate((ids, np.full(campaign.n_topics, "all", dtype=object)))
        return _membership(np.concatenate((items, items)), np.concatenate((items, n + topic)),
                           names, np.concatenate((topic, np.arange(campaign.n_topics))))
    rng = np.random.default_rng((int(seed), BASELINES.index(name)))
    ranks = _ranks_within_topic(campaign, rng)
    kt = _k_per_topic(campaign, k)
    k_item = kt[topic]
    if name == "random":
        local = ranks % k_item
    else:  # ultra-shaped: ranks 0..k-2 are singletons, the rest is cluster k-1
        local = np.minimum(ranks, k_item - 1)
    offsets = np.concatenate(([0], np.cumsum(kt)))
    label = offsets[topic] + local
    names = np.concatenate([[f"c{j}" for j in range(int(x))] for x in kt]).astype(object)
    label_topic = np.repeat(np.arange(campaign.n_topics), kt)
    return _membership(items, label, names, label_topic)


def add_baselines(campaign: Campaign, names: str | Sequence[str], k: int | None = None,
                  seed: int = 0) -> Campaign:
    """A copy of ``campaign`` with the named baselines added as systems.

    Parameters
    ----------
    campaign : Campaign
    names : str or sequence of str
        Baseline names from :data:`BASELINES` (comma-separated string accepted; ``all`` for
        every baseline).
    k : int, optional
        Number of clusters of ``random`` and ``ultra-shaped`` (default: the topic's number of
        gold classes).
    seed : int
        Seed of the random baselines.

    Raises
    ------
    UnanimityError
        For an unknown baseline or a name already used by a system.
    """
    extra = {name: baseline_membership(campaign, name, k=k, seed=seed) for name in _parse(names)}
    return campaign.with_runs(extra)
