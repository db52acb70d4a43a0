"""What a metric pair is: its words, and whether its two metrics carry two signals.

Words (:func:`pair_words`). F_alpha, UIR and the pair views read any two metrics, but
"precision-like / recall-like" is only true of a pair built as one: a metric that rewards
keeping wrong things out (precision, purity, BCubed precision, Reliability, ...) and its
counterpart that rewards finding every right thing (recall, inverse purity, BCubed recall,
Sensitivity, ...), :data:`PR_PAIRS`, and the IR pairs ``P@k`` / ``R@k`` of the same cut-off.
Any other pair (``nDCG@10`` / ``AP``, two clustering metrics picked by hand) is a *first* and
a *second* metric.

One signal (:func:`pair_agreement`). On each topic both metrics rank the systems (higher is
better, each in its own direction; equal scores tie). A topic where the two rankings are the
same ranking is *concordant*: there no two systems are metric-biased (docs/measures.md §5,
one metric prefers a, the other b), so UIR and F_alpha add nothing to either metric alone. A
pair concordant on at least :data:`ONE_SIGNAL_SHARE` of its topics carries one signal; on TREC
DL 2019, ``P@10`` / ``R@10`` are concordant on every topic (both count the relevant documents
in the top 10: P@10 = n / 10, R@10 = n / R_t).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from metrics.measures.registry import METRIC_PAIRS, TYPE_LEVEL_PAIRS
from metrics.model.score_table import metric_directions, score_cube

__all__ = ["PR_PAIRS", "ONE_SIGNAL_SHARE", "PairWords", "PairAgreement", "pair_words",
           "pair_agreement"]

#: (precision-like, recall-like) base names (parameters dropped): the standard pairs of the
#: registry, the document-organisation parts and the filtering measures.
PR_PAIRS: frozenset[tuple[str, str]] = frozenset(
    [(re.sub(r"\(.*\)$", "", p), re.sub(r"\(.*\)$", "", r))
     for p, r in (*METRIC_PAIRS.values(), *TYPE_LEVEL_PAIRS.values())]
    + [("reliability_priority", "sensitivity_priority"),
       ("reliability_relatedness", "sensitivity_relatedness"), ("precision", "recall")])
#: share of concordant topics from which a pair carries one signal (most topics).
ONE_SIGNAL_SHARE: float = 0.9
_IR_PR = re.compile(r"^(P|R)(\(.*\))?@(\d+)$")


def _base(name: str) -> str:
    return re.sub(r"\(.*\)$", "", str(name).strip())


@dataclass(frozen=True)
class PairWords:
    """How the views name the two metrics of a pair.

    Attributes
    ----------
    pr_like : bool
        True for a precision-like / recall-like pair.
    first, second : str
        ``precision-like`` / ``recall-like``, or ``first metric`` / ``second metric``.
    """

    pr_like: bool
    first: str
    second: str

    @property
    def alpha_caption(self) -> str:
        """The caption of the alpha slider: alpha weighs the first metric."""
        return (f"\u03b1, weight of the {self.first} metric" if self.pr_like
                else "\u03b1, weight of the first metric")


def pair_words(first: str, second: str) -> PairWords:
    """:class:`PairWords` of the pair (``first``, ``second``) (module docstring)."""
    ir1, ir2 = _IR_PR.match(str(first).strip()), _IR_PR.match(str(second).strip())
    pr = ((_base(first), _base(second)) in PR_PAIRS
          or bool(ir1 and ir2 and ir1.group(1) == "P" and ir2.group(1) == "R"
                  and ir1.group(3) == ir2.group(3) and ir1.group(2) == ir2.group(2)))
    if pr:
        return PairWords(True, "precision-like", "recall-like")
    return PairWords(False, "first metric", "second metric")


@dataclass(frozen=True)
class PairAgreement:
    """Do two metrics rank the systems alike, topic by topic?

    Attributes
    ----------
    first, second : str
    n_topics : int
        Topics with at least two systems.
    concordant : int
        Topics where the two metrics rank the systems identically (ties included).
    one_signal : bool
        ``concordant >= ONE_SIGNAL_SHARE * n_topics`` (and at least one topic).
    """

    first: str
    second: str
    n_topics: int
    concordant: int
    one_signal: bool

    @property
    def message(self) -> str:
        """The verdict in words ('' when the pair carries two signals)."""
        if not self.one_signal:
            return ""
        return (f"{self.first} and {self.second} rank the systems identically on "
                f"{self.concordant:,} of {self.n_topics:,} topics: no topic is metric-biased "
                "there, so the pair carries one signal and F\u03b1 or UIR add little to either "
                "metric alone.")


def pair_agreement(table: pd.DataFrame, first: str, second: str,
                   decimals: int = 12) -> PairAgreement:
    """Per topic, do ``first`` and ``second`` rank the systems identically?

    Scores are rounded to ``decimals`` (float noise is not a difference), oriented by each
    metric's direction, and ranked within each topic (average ranks for ties, a missing score
    ranked last); a topic is concordant when both rank vectors are equal. Vectorised over all
    topics at once (``scipy.stats.rankdata`` along the system axis).
    """
    cube = score_cube(table, [first, second])
    v = np.round(cube.values, decimals) * np.asarray(metric_directions(cube.metrics))
    v = np.where(np.isnan(v), -np.inf, v)
    scored = (~np.isnan(cube.values)).any(axis=2).sum(axis=0)  # systems scored per topic
    usable = scored >= 2
    ranks = rankdata(v, axis=0)
    same = np.all(ranks[:, :, 0] == ranks[:, :, 1], axis=0) & usable
    n, k = int(usable.sum()), int(same.sum())
    return PairAgreement(str(first), str(second), n, k,
                         bool(n > 0 and k >= ONE_SIGNAL_SHARE * n))
