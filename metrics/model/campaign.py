"""The campaign model: topics, a gold clustering and one clustering per system.

Everything is held in integer-coded columnar arrays (docs/measures.md §1), so that campaigns of
millions
of item assignments and hundreds of systems stay small and fast:

* a campaign's **items** are the gold items, sorted by topic then by item id; item ``i`` belongs
  to topic ``item_topic[i]`` and the items of topic ``t`` are
  ``topic_offsets[t]:topic_offsets[t+1]``;
* a clustering (the gold or a run) is a :class:`Membership`: one row per (item, label) pair, with
  label codes that belong to exactly one topic (the same label name in two topics is two labels);
* a run is already aligned with the gold (docs/measures.md §2): extra items were counted and
ignored, missing
  items are simply absent and are filled at evaluation time by :meth:`Campaign.aligned` according
  to the ``missing`` policy.

A campaign loaded from a score table (``system, topic, metric, value``) has no clusterings:
``gold`` is ``None``, ``runs`` is empty and ``scores`` holds the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from metrics.errors import CampaignAlignmentError, UnanimityError
from metrics.model.missing import MISSING_POLICIES, MissingPolicy
from metrics.model.validation import ValidationReport

__all__ = ["Membership", "Campaign", "AlignedRun", "MISSING_POLICIES"]


@dataclass(frozen=True, eq=False)
class Membership:
    """Item-to-label assignments of one clustering, over a campaign's gold items.

    Attributes
    ----------
    item : ndarray of int64, shape (n_rows,)
        Index of the item in the campaign's item arrays; rows are sorted by item, then label.
    label : ndarray of int32, shape (n_rows,)
        Label (cluster or class) code; each code belongs to one topic.
    label_names : ndarray of object, shape (n_labels,)
        The label as written in the source file.
    label_topic : ndarray of int32, shape (n_labels,)
        Topic code of each label.
    weight : ndarray of float64, shape (n_rows,), or None
        Membership weight where the source gives one (``label/0.6``), NaN where it does not;
        ``None`` when the source has no weights at all. Kept, not used by the metrics
        (docs/measures.md §1).
        A TREC gold keeps each judgment's relevance grade here, a TREC run its score.
    level : ndarray of int32, shape (n_rows,), or None
        Document organisations (``docs/organisation.md``): the priority level of each row,
        1 = highest; 0 marks an item listed in the tail (a TREC judgment of grade 0). ``None``
        for a flat clustering (every row on level 1).
    clustered : bool
        False when the output states no clusters (a ranking, a filtering): its labels are then
        one per row and carry no relatedness relation.
    """

    item: np.ndarray
    label: np.ndarray
    label_names: np.ndarray
    label_topic: np.ndarray
    weight: np.ndarray | None = None
    level: np.ndarray | None = None
    clustered: bool = True

    @property
    def n_rows(self) -> int:
        return int(self.item.size)

    @property
    def n_labels(self) -> int:
        return int(self.label_names.size)

    @property
    def is_overlapping(self) -> bool:
        """True when some item has more than one label."""
        return bool(self.item.size > 1 and np.any(self.item[1:] == self.item[:-1]))

    def overlapping_items(self) -> int:
        """Number of items with more than one label."""
        if self.item.size < 2:
            return 0
        dup = self.item[1:] == self.item[:-1]
        # count distinct items that have a duplicate: starts of runs of duplicates
        starts = dup & ~np.concatenate(([False], dup[:-1]))
        return int(starts.sum())

    def covered(self, n_items: int) -> np.ndarray:
        """Boolean mask over the campaign's items: does this clustering assign the item?"""
        mask = np.zeros(n_items, dtype=bool)
        mask[self.item] = True
        return mask

    def equals(self, other: Membership) -> bool:
        """Same assignments, label names and weights (used to compare two loads)."""
        same = (
            np.array_equal(self.item, other.item)
            and np.array_equal(self.label_names[self.label], other.label_names[other.label])
            and np.array_equal(self.label_topic[self.label], other.label_topic[other.label])
        )
        if not same:
            return False
        if (self.weight is None) != (other.weight is None):
            return False
        return (self.weight is None or other.weight is None
                or np.array_equal(self.weight, other.weight, equal_nan=True))


@dataclass(frozen=True, eq=False)
class AlignedRun:
    """A run aligned with the gold under a missing-item policy (docs/measures.md §2).

    Attributes
    ----------
    membership : Membership
        Every gold item has at least one label: missing items were given a singleton label of
        their own (for both ``penalize`` and ``singleton``).
    missing : ndarray of bool, shape (n_items,)
        Items the system did not assign. Under ``penalize`` item-averaged metrics (BCubed,
        Reliability/Sensitivity) give these precision 1 and recall 0; set-matching metrics treat
        them as the singletons they were given.
    policy : str
        The policy applied.
    """

    membership: Membership
    missing: np.ndarray
    policy: str


@dataclass(eq=False)
class Campaign:
    """A shared evaluation: topics, gold, systems (docs/measures.md §1).

    Attributes
    ----------
    name : str
        Campaign name (from the config file, or the folder name).
    topics : ndarray of object, shape (n_topics,)
        Topic ids, sorted.
    testbeds : ndarray of object, shape (n_topics,), or None
        Test-bed label of each topic (e.g. RepLab domains ``D01..D04``); None for a topic the
        test-bed rule does not cover.
    item_topic : ndarray of int32, shape (n_items,)
        Topic code of each gold item (non-decreasing).
    item_ids : ndarray of object, shape (n_items,)
        Item ids as written in the gold.
    gold : Membership or None
        The gold clustering; None for a score-table campaign.
    runs : dict of str to Membership
        One aligned clustering per system, in load order.
    report : ValidationReport
        What the loader found and did, per file and system.
    scores : DataFrame or None
        Score table ``system, topic, metric, value`` for a campaign given as precomputed scores.
    source : str
        Where the campaign was loaded from.
    tail : bool
        Document organisations: True when the collection is unlimited, so every item an output
        does not list is in its tail (``docs/organisation.md``); runs then miss no item.
    item_type : ndarray of int32, shape (n_items,), or None
        Word type code of each item, for token tagging campaigns (format ``conllu``): the
        type-level measures read it (``docs/type-level.md``); None otherwise.
    type_names : ndarray of object, shape (n_types,), or None
        The word type of each code.
    """

    name: str
    topics: np.ndarray
    testbeds: np.ndarray | None
    item_topic: np.ndarray
    item_ids: np.ndarray
    gold: Membership | None
    runs: dict[str, Membership]
    report: ValidationReport
    scores: pd.DataFrame | None = None
    source: str = ""
    tail: bool = False
    _offsets: np.ndarray | None = field(default=None, repr=False)
    # --- token tagging campaigns (type-level evaluation, docs/type-level.md) ---
    item_type: np.ndarray | None = field(default=None, repr=False)
    type_names: np.ndarray | None = field(default=None, repr=False)

    # --- shape ---------------------------------------------------------------------------------
    @property
    def systems(self) -> list[str]:
        """System names: runs in load order, or those of the score table."""
        if self.runs:
            return list(self.runs)
        if self.scores is not None:
            return list(pd.unique(self.scores["system"]))
        return []

    @property
    def is_organisation(self) -> bool:
        """True when the outputs carry priority levels or the collection has a tail."""
        return self.tail or (self.gold is not None and (
            self.gold.level is not None or any(r.level is not None for r in self.runs.values())))

    @property
    def has_clusterings(self) -> bool:
        """False for a campaign loaded from a score table only."""
        return self.gold is not None

    @property
    def gold_membership(self) -> Membership:
        """The gold of a campaign with clusterings; :class:`UnanimityError` for a campaign of
        precomputed scores."""
        if self.gold is None:
            raise UnanimityError(
                f"campaign {self.name!r} holds precomputed scores only: it has no gold")
        return self.gold

    @property
    def n_topics(self) -> int:
        return int(self.topics.size)

    @property
    def n_items(self) -> int:
        return int(self.item_ids.size)

    @property
    def topic_offsets(self) -> np.ndarray:
        """Start of each topic's items, shape (n_topics + 1,)."""
        if self._offsets is None:
            counts = np.bincount(self.item_topic, minlength=self.n_topics)
            self._offsets = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        return self._offsets

    def topic_testbeds(self) -> dict[str, str] | None:
        """Mapping topic -> test bed (topics without one left out), or None without test beds."""
        if self.testbeds is None:
            return None
        return {t: b for t, b in zip(self.topics.tolist(), self.testbeds.tolist(), strict=True)
                if b is not None}

    def testbed_counts(self) -> dict[str, int]:
        """Number of topics per test bed (empty when there are none)."""
        if self.testbeds is None:
            return {}
        beds = self.testbeds[[b is not None for b in self.testbeds]]
        names, counts = np.unique(beds.astype(str), return_counts=True)
        return {str(n): int(c) for n, c in zip(names, counts, strict=True)}

    # --- alignment -----------------------------------------------------------------------------
    def aligned(self, system: str, missing: MissingPolicy | str = "penalize") -> AlignedRun:
        """The run of ``system`` with every gold item assigned, per the missing policy
        (docs/measures.md §2).

        Parameters
        ----------
        system : str
            A system of this campaign.
        missing : {"penalize", "singleton", "error"}
            ``penalize`` (default, what the UNED scorers of WePS and RepLab do): missing items
            become singletons flagged in ``AlignedRun.missing`` so item-averaged metrics give them
            precision 1 and recall 0; ``singleton``: missing items become their own clusters;
            ``error``: raise :class:`CampaignAlignmentError` if any item is missing.
        """
        if missing not in MISSING_POLICIES:
            raise UnanimityError(
                f"unknown missing policy {missing!r}; expected one of {', '.join(MISSING_POLICIES)}"
            )
        if self.gold is None:
            raise UnanimityError(
                f"campaign {self.name!r} holds precomputed scores only: no clustering to align"
            )
        try:
            run = self.runs[system]
        except KeyError:
            raise UnanimityError(
                f"unknown system {system!r}; known: {', '.join(self.runs) or '(none)'}"
            ) from None
        return align_membership(run, self.item_topic, missing, system=system)

    def with_runs(self, extra: Mapping[str, Membership]) -> Campaign:
        """A copy of this campaign with more runs (e.g. baselines); names must be new."""
        clash = sorted(set(extra) & set(self.runs))
        if clash:
            raise UnanimityError(f"system names already in the campaign: {', '.join(clash)}")
        return replace(self, runs={**self.runs, **dict(extra)})

    def summary(self) -> dict:
        """The facts ``unanimity info --json`` prints (docs/measures.md §2 report, per system)."""
        per_system = {}
        for name in self.systems:
            rep = self.report.systems.get(name)
            per_system[name] = {
                "missing_items": rep.missing_items if rep else 0,
                "extra_items": rep.extra_items if rep else 0,
                "missing_topics": rep.missing_topics if rep else 0,
            }
        return {
            "topics": self.n_topics,
            "systems": len(self.systems),
            "gold_items": self.n_items,
            "testbeds": self.testbed_counts(),
            "per_system": per_system,
        }


def align_membership(
    run: Membership, item_topic: np.ndarray, missing: str, system: str = "run"
) -> AlignedRun:
    """Fill the gold items a run did not assign (see :meth:`Campaign.aligned`)."""
    n_items = item_topic.size
    absent = ~run.covered(n_items)
    n_absent = int(absent.sum())
    if n_absent == 0:
        return AlignedRun(run, absent, missing)
    if missing == "error":
        raise CampaignAlignmentError(
            f"system {system!r} misses {n_absent} gold item(s) and missing='error'"
        )
    idx = np.flatnonzero(absent)
    new_labels = run.n_labels + np.arange(n_absent, dtype=np.int32)
    item = np.concatenate((run.item, idx))
    label = np.concatenate((run.label, new_labels)).astype(np.int32)
    order = np.lexsort((label, item))
    weight = None
    if run.weight is not None:
        weight = np.concatenate((run.weight, np.full(n_absent, np.nan)))[order]
    filled = Membership(
        item=item[order],
        label=label[order],
        label_names=np.concatenate(
            (run.label_names, np.array([f"(missing {i})" for i in idx], dtype=object))
        ),
        label_topic=np.concatenate((run.label_topic, item_topic[idx])).astype(np.int32),
        weight=weight,
    )
    return AlignedRun(filled, absent, missing)
