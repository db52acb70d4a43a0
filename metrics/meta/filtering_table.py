"""The R&S paper's Table 7 and Figure 1: filtering measures on a filtering campaign.

Amigó, Gonzalo and Verdejo (SIGIR 2013, §4.3) meta-evaluate the filtering measures accuracy,
F (of the positive class), utility, lam% and R*S on WePS-3 (Table 7: Robustness and
Strictness), and plot R*S against each standard measure, one point per (system, topic) output
(Figure 1: a high R*S needs a high score by every standard measure).

A filtering campaign (:class:`FilteringView`) comes here from a campaign's outputs:

* a ranking campaign (a qrels file and TREC runs): each run *accepts its top k* documents of
  each topic and rejects the rest. The documents of a topic are its judged documents and every
  document some run accepts (an unjudged one is irrelevant, as trec_eval reads it); a document
  is relevant when its grade is at least ``relevant_grade`` (2 on TREC DL);
* a document organisation without a tail (a filtering gold and outputs): a document is relevant
  on the gold's first level and accepted on the run's first level; the documents are those the
  gold lists.

Per (system, topic) the confusion counts TP, FP, FN, TN give every measure of
:mod:`metrics.measures.organisation.filtering` (``docs/meta-evaluation.md`` §2); R*S is
``rs_f``, the F_0.5 of Reliability and Sensitivity, which on a filtering output equal their
closed forms (a property test checks this against the general organisation measures). The
counts are made by the routine of the filtering metrics' provider
(:func:`~metrics.measures.organisation.filtering.level_mask`,
:func:`~metrics.measures.organisation.filtering.output_counts`) and the measures by the same
closed forms (:data:`~metrics.measures.organisation.filtering.FILTERING_MEASURES`), so that
``evaluate(campaign, "accuracy,filtering_f,utility,lam")`` on a filtering campaign gives this
table's numbers (a test compares them). R*S keeps its closed form: Reliability and
Sensitivity of the general organisation route may differ from it in the last digit, which would
break the ties the table's rankings depend on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.errors import UnanimityError
from metrics.measures.organisation.filtering import (
    FILTERING_DIRECTIONS,
    FilteringCounts,
    level_mask,
    output_counts,
    score_filtering,
)
from metrics.meta.meta_evaluation import MetaEvaluation, meta_evaluate
from metrics.meta.readings import DEFAULT_ACCEPT_TOP, DEFAULT_RELEVANT_GRADE, DEFAULT_TOPS
from metrics.model.campaign import Campaign

__all__ = ["TABLE7_MEASURES", "RS_NAME", "PAPER_TABLE7",
           "FilteringView", "FilteringTable", "Figure1",
           "filtering_view", "filtering_scores", "filtering_table", "figure1"]

#: label in Table 7 -> filtering measure, the paper's order (R*S last).
TABLE7_MEASURES: dict[str, str] = {"accuracy": "accuracy", "F": "f_measure",
                                   "utility": "utility", "lam%": "lam", "R*S": "rs_f"}
RS_NAME = "R*S"
#: Robustness and Strictness the paper's text reports for Table 7 (WePS-3): R*S -0.78 and 0.70,
#: lam% -0.89, F, utility and accuracy -0.92.
PAPER_TABLE7: dict[str, tuple[float, float]] = {
    "R*S": (0.70, -0.78), "lam%": (np.nan, -0.89), "F": (np.nan, -0.92),
    "utility": (np.nan, -0.92), "accuracy": (np.nan, -0.92)}


@dataclass(frozen=True)
class FilteringView:
    """The filtering campaign of a campaign's outputs (module docstring).

    Attributes
    ----------
    systems, topics : list of str
    tp, fp, fn, tn : ndarray of float64, shape (systems, topics)
        Confusion counts of every output.
    documents : ndarray of int64, shape (topics,)
        Documents of each topic (N = TP + FP + FN + TN, the same for every system).
    accept_top : int or None
        k when the view comes from rankings (each run's top k accepted), None otherwise.
    relevant_grade : int or None
        The lowest relevant grade when the view comes from graded judgments.
    """

    systems: list[str]
    topics: list[str]
    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray
    tn: np.ndarray
    documents: np.ndarray
    accept_top: int | None
    relevant_grade: int | None

    def description(self) -> str:
        """One line: how the filtering campaign was made."""
        if self.accept_top is None:
            return "filtering outputs: the gold's and each run's first level"
        return (f"each run's top {self.accept_top} accepted, the rest rejected; relevant = "
                f"grade >= {self.relevant_grade}; documents = judged or accepted by some run")


def filtering_view(campaign: Campaign, accept_top: int = DEFAULT_ACCEPT_TOP,
                   relevant_grade: int = DEFAULT_RELEVANT_GRADE) -> FilteringView:
    """The filtering campaign of a ranking campaign (each run's top ``accept_top`` accepted) or
    of a filtering organisation (module docstring).

    Raises
    ------
    UnanimityError
        A campaign that is neither (a clustering, a score table), or ``accept_top`` < 1.
    """
    if not campaign.has_clusterings or not campaign.is_organisation:
        raise UnanimityError(f"a filtering table needs a ranking campaign or filtering "
                             f"outputs; {campaign.name!r} is neither")
    gold = campaign.gold_membership
    n_items, n_t = campaign.n_items, campaign.n_topics
    top = 1
    if campaign.tail:
        if accept_top < 1:
            raise UnanimityError(f"--accept-top must be a whole number >= 1, got {accept_top}")
        if gold.weight is None:
            raise UnanimityError(f"{campaign.name!r}: the gold keeps no relevance grades")
        top = accept_top
        relevant = np.zeros(n_items, dtype=bool)
        relevant[gold.item[gold.weight >= relevant_grade]] = True
    else:
        relevant = level_mask(gold, n_items)
    systems = list(campaign.runs)
    accepted = [level_mask(campaign.runs[s], n_items, top) for s in systems]
    documents = np.zeros(n_items, dtype=bool)
    documents[gold.item] = True
    if campaign.tail:  # the judged documents and every document some run accepts
        documents |= np.logical_or.reduce(accepted, initial=False)
    docs = np.flatnonzero(documents)
    counts = output_counts(relevant, accepted, campaign.item_topic, n_t, docs)
    return FilteringView(systems=systems, topics=[str(t) for t in campaign.topics],
                         tp=counts.tp, fp=counts.fp, fn=counts.fn, tn=counts.tn,
                         documents=np.bincount(campaign.item_topic[docs], minlength=n_t),
                         accept_top=int(accept_top) if campaign.tail else None,
                         relevant_grade=int(relevant_grade) if campaign.tail else None)


def filtering_scores(view: FilteringView,
                     measures: dict[str, str] | None = None) -> pd.DataFrame:
    """``system, topic, metric, value`` of the measures (label -> filtering measure; default
    :data:`TABLE7_MEASURES`) on every output of the view."""
    measures = dict(TABLE7_MEASURES if measures is None else measures)
    counts = FilteringCounts(tp=view.tp, fp=view.fp, fn=view.fn, tn=view.tn)
    values = score_filtering(counts, list(dict.fromkeys(measures.values())))
    n_s, n_t = view.tp.shape
    frames = [pd.DataFrame({
        "system": np.repeat(np.asarray(view.systems, dtype=object), n_t),
        "topic": np.tile(np.asarray(view.topics, dtype=object), n_s),
        "metric": label, "value": values[name].reshape(-1)})
        for label, name in measures.items()]
    return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class FilteringTable:
    """The paper's Table 7 on one filtering campaign.

    Attributes
    ----------
    table : DataFrame
        ``metric, robustness, per-topic@K, all-outputs@K, ..., paper_robustness,
        paper_strictness``: R*S first, then the standard measures.
    view : FilteringView
    meta : MetaEvaluation
        The meta-evaluation at the first K.
    """

    table: pd.DataFrame
    view: FilteringView
    meta: MetaEvaluation

    def lines(self, name: str = "") -> list[str]:
        """The printed table: a header line (how the campaign was made) and the table."""
        head = f"{name}: " if name else ""
        out = [f"{head}{len(self.view.systems)} systems, {len(self.view.topics)} topics; "
               f"{self.view.description()}"]
        return out + self.table.to_string(index=False, float_format=lambda v: f"{v:.3f}",
                                          na_rep="-").splitlines()


def filtering_table(view: FilteringView, tops: Sequence[int] = DEFAULT_TOPS) -> FilteringTable:
    """Robustness and Strictness of R*S, accuracy, F, utility and lam% (lower is better), each
    against the standard measures other than itself, Strictness under both readings for each K
    of ``tops`` (:func:`metrics.meta.meta_evaluation.meta_evaluate`)."""
    tops = tuple(int(k) for k in tops)
    if not tops or min(tops) < 1:
        raise UnanimityError(f"the K of Strictness are whole numbers >= 1, got {list(tops)}")
    scores = filtering_scores(view)
    standard = [label for label in TABLE7_MEASURES if label != RS_NAME]
    lower = {label: FILTERING_DIRECTIONS[m] for label, m in TABLE7_MEASURES.items()
             if FILTERING_DIRECTIONS[m] < 0}
    results = [meta_evaluate(scores, [RS_NAME], standard, directions=lower, strictness_top=k)
               for k in tops]
    out = results[0].to_dataframe()[["metric", "robustness"]]
    for k, res in zip(tops, results, strict=True):
        frame = res.to_dataframe()
        out[f"per-topic@{k}"] = frame["strictness_per_topic"].to_numpy() + 0.0  # no -0.000
        out[f"all-outputs@{k}"] = frame["strictness_all_outputs"].to_numpy() + 0.0
    paper = out["metric"].map(lambda m: PAPER_TABLE7.get(m, (np.nan, np.nan)))
    out["paper_robustness"] = [p[0] for p in paper]
    out["paper_strictness"] = [p[1] for p in paper]
    return FilteringTable(table=out, view=view, meta=results[0])


@dataclass(frozen=True)
class Figure1:
    """The paper's Figure 1: R*S against each standard filtering measure, one point per
    (system, topic) output.

    Attributes
    ----------
    points : DataFrame
        ``system, topic, measure, value, rs``: the output's score by the standard measure and
        its R*S (the CSV ``figure1.csv``).
    measures : list of str
        The standard measures, in the paper's order.
    description : str
        How the filtering campaign was made.
    """

    points: pd.DataFrame
    measures: list[str]
    description: str


def figure1(view: FilteringView) -> Figure1:
    """:class:`Figure1` of a filtering campaign."""
    scores = filtering_scores(view)
    rs = scores[scores["metric"] == RS_NAME]["value"].to_numpy()
    standard = [label for label in TABLE7_MEASURES if label != RS_NAME]
    frames = [scores[scores["metric"] == m].assign(rs=rs).rename(
        columns={"metric": "measure"}) for m in standard]
    points = pd.concat(frames, ignore_index=True)[["system", "topic", "measure", "value", "rs"]]
    return Figure1(points=points, measures=standard, description=view.description())
