"""Formal constraints of ranking and filtering measures (Amigó, Gonzalo, Verdejo, SIGIR 2013,
§2.2-2.3).

Each constraint is a pair of outputs for one topic, ``better`` and ``worse``, where the
constraint says which must score higher; a measure *agrees* when it scores ``better``
strictly higher (lower for lower-is-better measures), a tie is a failure. The result has the
shape of :func:`metrics.meta.constraints_clustering.check_constraints` (``metric, constraint,
better, worse, agrees``) and :func:`verdict_table` turns it into the paper's Table 6. Outputs
are document organisations (:class:`Organisation`: priority levels, and for rankings an
unlimited tail of everything not listed); ``r`` documents are relevant (grade 1), ``n``
documents irrelevant.

filtering_priority_relevant
    Moving a relevant document from the rejected to the accepted set is better.
    worse  accepted {r1 r2 n1 n2} rejected {r3 r4 n3 n4 n5 n6};  better: r3 accepted too.
filtering_priority_irrelevant
    Moving an irrelevant document from the accepted to the rejected set is better.
    worse  as above;  better: n1 rejected too.
priority
    Swapping a relevant document above an irrelevant one is better (relevant: r1, r2).
    worse  n1 r1                      better  r1 n1
deepness
    A priority error deep in the ranking costs less than the same error at the top.
    worse  n1 r1 n2 .. n7 r2 n8       better  r1 n1 n2 .. n7 n8 r2
deepness_threshold
    For n large enough, one relevant document at the top beats n relevant documents after
    n irrelevant ones (relevant: r0, the one on top, and r1 .. rn: n + 1 in all).
    worse  n1 .. nn r1 .. rn          better  r0 n1 .. n(2n-1)
    Checked over a grid of n (:data:`DEEP_GRID`): it holds when ``better`` wins at the
    largest n; the cut point (smallest n from which it wins on the rest of the grid) is in
    :func:`threshold_scan`.
closeness_threshold
    For n small enough (but above 1), n relevant documents after n irrelevant ones beat one
    relevant document at the top: the pair above with the roles swapped. Holds when
    ``better`` wins for some n of :data:`CLOSE_GRID`.
confidence
    Extending a ranking with irrelevant documents is worse (relevant: r1, r2, r3).
    worse  r1 r2 n1 n2 n3             better  r1 r2

A measure is any callable ``scorer(grades, output) -> float`` where ``grades`` maps every
judged document to its relevance grade and ``output`` is an :class:`Organisation`;
:func:`filtering_scorer` and :func:`ir_measures_scorer` build them for the filtering
measures of :mod:`metrics.measures.organisation.filtering` and for IR measures through
``ir_measures`` (every
number as trec_eval computes it). :meth:`ConstraintCase.tables` gives each case as
``topic, item, level`` tables for measures that read organisation campaigns.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.measures.organisation.filtering import (
    FILTERING_DIRECTIONS,
    FILTERING_MEASURES,
    filtering_counts,
)
from metrics.measures.organisation.graded_ir import err, q_measure

__all__ = [
    "Organisation",
    "ConstraintCase",
    "Scorer",
    "FILTERING_CONSTRAINTS",
    "RANKING_CONSTRAINTS",
    "ORGANISATION_CONSTRAINTS",
    "DEEP_GRID",
    "CLOSE_GRID",
    "DEFAULT_IR_MEASURES",
    "constraint_cases",
    "gold_organisation",
    "filtering_scorer",
    "ir_measures_scorer",
    "err_scorer",
    "q_measure_scorer",
    "threshold_scan",
    "check_organisation_constraints",
    "check_filtering_measures",
    "check_ir_measures",
    "verdict_table",
]

FILTERING_CONSTRAINTS: tuple[str, ...] = ("filtering_priority_relevant",
                                          "filtering_priority_irrelevant")
RANKING_CONSTRAINTS: tuple[str, ...] = ("priority", "deepness", "deepness_threshold",
                                        "closeness_threshold", "confidence")
ORGANISATION_CONSTRAINTS: tuple[str, ...] = FILTERING_CONSTRAINTS + RANKING_CONSTRAINTS

#: n of the deepness-threshold pair (a ranking of 2n documents); the verdict is read at the end.
DEEP_GRID: tuple[int, ...] = (1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000)
#: n of the closeness-threshold pair; n = 1 is the priority constraint, hence excluded.
CLOSE_GRID: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 10)

#: IR measures of the paper's ranking study, with grade >= 1 relevant (the cases are binary);
#: nDCG without a cut-off is the paper's DCG, nDCG@10 the cut-off form TREC DL reports.
DEFAULT_IR_MEASURES: tuple[str, ...] = ("AP", "nDCG", "nDCG@10", "P@10", "RR",
                                        "RBP(p=0.8,rel=1)", "RBP(p=0.95,rel=1)")


@dataclass(frozen=True)
class Organisation:
    """One output (or gold) of one topic: priority levels of documents, first = highest.

    Attributes
    ----------
    levels : tuple of tuple of str
        The documents of each level. A ranking has one document per level; a filtering
        output two levels (accepted, rejected).
    tail : bool
        True when every document not listed is in an unlimited bottom level (rankings).
    """

    levels: tuple[tuple[str, ...], ...]
    tail: bool = False

    @classmethod
    def ranking(cls, docs: Sequence[str]) -> Organisation:
        return cls(tuple((d,) for d in docs), tail=True)

    @classmethod
    def filtering(cls, accepted: Sequence[str], rejected: Sequence[str]) -> Organisation:
        return cls((tuple(accepted), tuple(rejected)), tail=False)

    @property
    def documents(self) -> list[str]:
        return [d for level in self.levels for d in level]

    def to_frame(self, topic: str = "q") -> pd.DataFrame:
        """``topic, item, level`` (levels numbered from 1), one row per listed document."""
        rows = [(topic, d, i + 1) for i, level in enumerate(self.levels) for d in level]
        return pd.DataFrame(rows, columns=["topic", "item", "level"])


def gold_organisation(grades: Mapping[str, int], task: str) -> Organisation:
    """The gold organisation of judged documents: filtering -> (relevant, irrelevant);
    ranking -> one level per grade >= 1, highest first, with grade 0 and unjudged documents
    in the tail."""
    if task == "filtering":
        rel = [d for d, g in grades.items() if g > 0]
        return Organisation.filtering(rel, [d for d, g in grades.items() if g <= 0])
    levels = sorted({g for g in grades.values() if g > 0}, reverse=True)
    return Organisation(tuple(tuple(d for d, g in grades.items() if g == k) for k in levels),
                        tail=True)


@dataclass(frozen=True)
class ConstraintCase:
    """A pair of outputs of one topic where ``better`` must score higher than ``worse``."""

    constraint: str
    task: str
    grades: Mapping[str, int]
    better: Organisation
    worse: Organisation
    n: int | None = None

    def gold(self) -> Organisation:
        """The gold organisation of the case (:func:`gold_organisation`)."""
        return gold_organisation(self.grades, self.task)

    def tables(self, topic: str = "q") -> dict[str, pd.DataFrame]:
        """``gold``, ``better`` and ``worse`` as ``topic, item, level`` tables."""
        return {"gold": self.gold().to_frame(topic), "better": self.better.to_frame(topic),
                "worse": self.worse.to_frame(topic)}


@dataclass(frozen=True)
class Scorer:
    """A per-topic measure: ``fn(grades, output) -> float``, its direction and its task(s)."""

    name: str
    fn: Callable[[Mapping[str, int], Organisation], float]
    direction: int = 1
    tasks: tuple[str, ...] = ("filtering", "ranking")


def _docs(prefix: str, start: int, stop: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(start, stop + 1)]


def _threshold_pair(n: int) -> tuple[dict[str, int], Organisation, Organisation]:
    """(grades, one relevant at the top, n relevant after n irrelevant).

    The paper's pair, Q({r_1, ¬r_2, ..., ¬r_2n}) against Q({¬r_1, ..., ¬r_n, r_n+1, ..., r_2n}),
    marks relevance by position: the relevant document on top of the first ranking is not one
    of the n relevant documents of the second, so the topic has n + 1 relevant documents
    (r0 and r1 .. rn), each ranking missing the others'."""
    grades = ({d: 1 for d in _docs("r", 0, n)} | {d: 0 for d in _docs("n", 1, 2 * n)})
    top = Organisation.ranking(["r0"] + _docs("n", 1, 2 * n - 1))
    deep = Organisation.ranking(_docs("n", 1, n) + _docs("r", 1, n))
    return grades, top, deep


def constraint_cases(deep_grid: Sequence[int] = DEEP_GRID,
                     close_grid: Sequence[int] = CLOSE_GRID) -> dict[str, list[ConstraintCase]]:
    """Every constraint's cases: one pair, or one per n for the two threshold constraints."""
    fgrades = {d: 1 for d in _docs("r", 1, 4)} | {d: 0 for d in _docs("n", 1, 6)}
    fworse = Organisation.filtering(["r1", "r2", "n1", "n2"], ["r3", "r4"] + _docs("n", 3, 6))
    out = {
        "filtering_priority_relevant": [ConstraintCase(
            "filtering_priority_relevant", "filtering", fgrades,
            Organisation.filtering(["r1", "r2", "r3", "n1", "n2"], ["r4"] + _docs("n", 3, 6)),
            fworse)],
        "filtering_priority_irrelevant": [ConstraintCase(
            "filtering_priority_irrelevant", "filtering", fgrades,
            Organisation.filtering(["r1", "r2", "n2"], ["r3", "r4", "n1"] + _docs("n", 3, 6)),
            fworse)],
    }
    g2 = {"r1": 1, "r2": 1} | {d: 0 for d in _docs("n", 1, 8)}
    out["priority"] = [ConstraintCase("priority", "ranking", g2,
                                      Organisation.ranking(["r1", "n1"]),
                                      Organisation.ranking(["n1", "r1"]))]
    mid = _docs("n", 2, 7)
    out["deepness"] = [ConstraintCase(
        "deepness", "ranking", g2,
        Organisation.ranking(["r1", "n1"] + mid + ["n8", "r2"]),
        Organisation.ranking(["n1", "r1"] + mid + ["r2", "n8"]))]
    deep, close = [], []
    for n in deep_grid:
        grades, top, late = _threshold_pair(int(n))
        deep.append(ConstraintCase("deepness_threshold", "ranking", grades, top, late, int(n)))
    for n in close_grid:
        grades, top, late = _threshold_pair(int(n))
        close.append(ConstraintCase("closeness_threshold", "ranking", grades, late, top, int(n)))
    out["deepness_threshold"], out["closeness_threshold"] = deep, close
    g3 = {"r1": 1, "r2": 1, "r3": 1} | {d: 0 for d in _docs("n", 1, 3)}
    out["confidence"] = [ConstraintCase("confidence", "ranking", g3,
                                        Organisation.ranking(["r1", "r2"]),
                                        Organisation.ranking(["r1", "r2", "n1", "n2", "n3"]))]
    return out


# ---- scorers ------------------------------------------------------------------------------

def filtering_scorer(measure: str) -> Scorer:
    """A filtering measure of :mod:`metrics.measures.organisation.filtering` on a two-level output.

    The first level is the accepted set; every other judged document counts as rejected.
    """
    if measure not in FILTERING_MEASURES:
        raise ValueError(f"unknown filtering measure {measure!r}")
    fn = FILTERING_MEASURES[measure]

    def score(grades: Mapping[str, int], output: Organisation) -> float:
        docs = list(grades)
        accepted = set(output.levels[0]) if output.levels else set()
        c = filtering_counts([grades[d] > 0 for d in docs], [d in accepted for d in docs])
        return float(np.asarray(fn(c)).reshape(-1)[0])

    return Scorer(measure, score, FILTERING_DIRECTIONS[measure], ("filtering",))


def ir_measures_scorer(measure: str) -> Scorer:
    """An IR measure through ``ir_measures`` (trec_eval's numbers) on a ranking output.

    The ranking's documents get descending scores (no ties), the grades are the qrels;
    ``measure`` is parsed by ``ir_measures.parse_measure`` (``"nDCG@10"``, ``"AP(rel=2)"``).
    """
    import ir_measures  # noqa: PLC0415 - optional until an IR measure is asked for

    parsed = ir_measures.parse_measure(measure)

    def score(grades: Mapping[str, int], output: Organisation) -> float:
        docs = output.documents
        run = {"q": {d: float(len(docs) - i) for i, d in enumerate(docs)}}
        qrels = {"q": {d: int(g) for d, g in grades.items()}}
        return float(ir_measures.calc_aggregate([parsed], qrels, run)[parsed])

    return Scorer(measure, score, 1, ("ranking",))


def err_scorer() -> Scorer:
    """ERR of a ranking (:func:`metrics.measures.organisation.graded_ir.err`)."""
    def score(grades: Mapping[str, int], output: Organisation) -> float:
        return err(np.array([grades.get(d, 0) for d in output.documents]),
                   max(grades.values(), default=0))
    return Scorer("ERR", score, 1, ("ranking",))


def q_measure_scorer() -> Scorer:
    """Sakai's Q-measure, beta = 1 (:func:`metrics.measures.organisation.graded_ir.q_measure`)."""
    def score(grades: Mapping[str, int], output: Organisation) -> float:
        return q_measure(np.array([grades.get(d, 0) for d in output.documents]),
                         np.array(list(grades.values())))
    return Scorer("Q-measure", score, 1, ("ranking",))


# ---- the checker --------------------------------------------------------------------------

def threshold_scan(scorer: Scorer, cases: Sequence[ConstraintCase],
                   tol: float = 1e-12) -> pd.DataFrame:
    """Scores of ``better`` and ``worse`` for each case of a family: ``n, better, worse,
    agrees``."""
    rows = []
    for case in cases:
        b = scorer.fn(case.grades, case.better)
        w = scorer.fn(case.grades, case.worse)
        rows.append((case.n, b, w, bool(scorer.direction * (b - w) > tol)))
    return pd.DataFrame(rows, columns=["n", "better", "worse", "agrees"])


def _verdict(constraint: str, scan: pd.DataFrame) -> tuple[float, float, bool]:
    """(better, worse, agrees) of a constraint from its scan over cases."""
    if constraint == "closeness_threshold":  # exists n: the first n where it holds, else the first
        hits = np.flatnonzero(scan["agrees"].to_numpy())
        row = scan.iloc[int(hits[0]) if hits.size else 0]
    else:  # one case, or deepness_threshold: read at the largest n
        row = scan.iloc[-1]
    return float(row["better"]), float(row["worse"]), bool(row["agrees"])


def check_organisation_constraints(
    scorers: Sequence[Scorer],
    constraints: Sequence[str] | None = None,
    cases: Mapping[str, list[ConstraintCase]] | None = None,
    tol: float = 1e-12,
) -> pd.DataFrame:
    """Score each measure on the cases of each constraint of its task(s).

    Parameters
    ----------
    scorers : sequence of Scorer
        The measures; each is checked on the constraints of the tasks in ``Scorer.tasks``.
    constraints : sequence of str, optional
        A subset of :data:`ORGANISATION_CONSTRAINTS` (default: all).
    cases : mapping, optional
        The cases (default :func:`constraint_cases`).
    tol : float
        A difference within ``tol`` is a tie (the measure does not agree).

    Returns
    -------
    DataFrame with columns ``metric, constraint, better, worse, agrees``: the scores of the
    better and the worse output (for the threshold constraints at the deciding n) and whether
    ``direction x (better - worse) > tol``.
    """
    names = list(ORGANISATION_CONSTRAINTS if constraints is None else constraints)
    unknown = [c for c in names if c not in ORGANISATION_CONSTRAINTS]
    if unknown:
        raise ValueError(f"unknown constraint(s) {', '.join(unknown)}")
    cases = constraint_cases() if cases is None else cases
    rows = []
    for scorer in scorers:
        for name in names:
            family = cases[name]
            if family[0].task not in scorer.tasks:
                continue
            rows.append((scorer.name, name, *_verdict(name, threshold_scan(scorer, family, tol))))
    return pd.DataFrame(rows, columns=["metric", "constraint", "better", "worse", "agrees"])


def check_filtering_measures(measures: Sequence[str] | None = None) -> pd.DataFrame:
    """:func:`check_organisation_constraints` for the measures of
    :mod:`metrics.measures.organisation.filtering`."""
    names = list(FILTERING_MEASURES) if measures is None else list(measures)
    return check_organisation_constraints([filtering_scorer(m) for m in names],
                                          FILTERING_CONSTRAINTS)


def check_ir_measures(measures: Sequence[str] = DEFAULT_IR_MEASURES,
                      graded: bool = True) -> pd.DataFrame:
    """:func:`check_organisation_constraints` for IR measures computed by ``ir_measures``, and
    with ``graded`` ERR and the Q-measure (:mod:`metrics.measures.organisation.graded_ir`)."""
    scorers = [ir_measures_scorer(m) for m in measures]
    if graded:
        scorers += [err_scorer(), q_measure_scorer()]
    return check_organisation_constraints(scorers, RANKING_CONSTRAINTS)


def verdict_table(results: pd.DataFrame) -> pd.DataFrame:
    """Measures x constraints, True where the measure satisfies the constraint (the paper's
    Table 6); constraints a measure was not checked on are missing (``pd.NA``)."""
    table = results.pivot(index="metric", columns="constraint", values="agrees")
    cols = [c for c in ORGANISATION_CONSTRAINTS if c in table.columns]
    order = list(dict.fromkeys(results["metric"]))
    return table.reindex(index=order, columns=cols).astype("boolean")
