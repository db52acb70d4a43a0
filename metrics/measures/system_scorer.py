"""The per-topic quantities of one aligned system, computed once and shared by the metric kernels
of every family (docs/providers.md): the contingency table, entropies, pair counts, BCubed and
extended BCubed (overlapping clusterings, :mod:`metrics.measures.clustering.overlap`).

:func:`metrics.measures.provider.kernel_blocks` makes one per system; a family that keeps
quantities of its own (the type-level entries and mappings) keeps them in
:attr:`SystemScorer.family_cache`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from metrics.measures.clustering import bcubed as _bcubed
from metrics.measures.clustering import entropy as _entropy
from metrics.measures.clustering import mapping as _mapping
from metrics.measures.clustering import pairs as _pairs
from metrics.measures.clustering import purity as _purity
from metrics.measures.clustering.overlap import extended_bcubed
from metrics.model.campaign import AlignedRun, Membership
from metrics.model.contingency import Contingency, build_contingency

__all__ = ["SystemScorer"]


class SystemScorer:
    """Lazily computed, cached per-topic quantities of one aligned system.

    Every metric kernel reads what it needs from here, so that metrics of one family share one
    computation (the contingency table, the entropies, the pair counts, BCubed).
    """

    def __init__(self, gold: Membership, aligned: AlignedRun, item_topic: np.ndarray,
                 n_topics: int, item_type: np.ndarray | None = None) -> None:
        self.gold = gold
        self.item_type = item_type  # word type per item, for the type-level kernels
        self.aligned = aligned
        self.item_topic = item_topic
        self.n_topics = n_topics
        self.penalize = aligned.policy == "penalize"
        #: quantities a family keeps per system (family name -> its own cache)
        self.family_cache: dict[str, dict] = {}

    @cached_property
    def table(self) -> Contingency:
        return build_contingency(self.gold, self.aligned.membership, self.item_topic,
                                 self.n_topics, self.aligned.missing, self.penalize)

    @cached_property
    def overlapping(self) -> bool:
        return self.gold.is_overlapping or self.aligned.membership.is_overlapping

    @cached_property
    def entropies(self) -> _entropy.Entropies:
        return _entropy.entropies(self.table)

    @cached_property
    def pairs(self) -> _pairs.PairCounts:
        return _pairs.pair_counts(self.table)

    @cached_property
    def _overlap(self):
        return extended_bcubed(self.gold, self.aligned.membership, self.item_topic,
                               self.n_topics, self.aligned.missing, self.penalize)

    @cached_property
    def bcubed(self) -> tuple[np.ndarray, np.ndarray]:
        if self.overlapping:
            o = self._overlap
            return o.bcubed_precision, o.bcubed_recall
        return _bcubed.bcubed(self.table)

    @cached_property
    def purity(self) -> np.ndarray:
        return _purity.purity(self.table)

    @cached_property
    def inverse_purity(self) -> np.ndarray:
        return _purity.inverse_purity(self.table)

    @cached_property
    def fscore(self) -> np.ndarray:
        return _purity.fscore(self.table)

    @cached_property
    def accuracy_m1(self) -> np.ndarray:
        return _mapping.accuracy_m1(self.table)

    @cached_property
    def accuracy_11(self) -> np.ndarray:
        return _mapping.accuracy_11(self.table)

    def adapted_recall(self, k: int) -> np.ndarray:
        return _bcubed.adapted_recall(self.bcubed[1], k)

    @cached_property
    def reliability_sensitivity(self) -> tuple[np.ndarray, np.ndarray]:
        if self.overlapping:
            o = self._overlap
            return o.reliability, o.sensitivity
        return self.bcubed
