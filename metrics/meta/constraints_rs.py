"""Reliability, Sensitivity and R*S on the ranking and filtering constraints (R&S paper, Table 6).

An adapter between :mod:`metrics.meta.constraints_organisation` (constraints as pairs of outputs of
one topic) and the document-organisation measures of :mod:`metrics.measures.organisation`: each
output
and the gold of its judged documents become, in memory, a one-topic organisation campaign
(:func:`metrics.io.organisation_build.build_organisation_campaign`; a ranking keeps its unlimited
tail, a filtering output has none), scored by the same code as every campaign.

R*S is the harmonic mean of Reliability and Sensitivity (Amigó, Gonzalo, Verdejo, SIGIR 2013,
§4.3-4.4), :func:`metrics.comparison.combine.f_alpha` with alpha = 0.5:

    R*S = 1 / (0.5 / R + 0.5 / S)

with the paper's weighting: the first n = 30 levels carry W_n = 0.8 of the weight (§3.2). R and
S alone are rows too: like precision and recall, each on its own misses constraints the pair
satisfies together (docs/meta-evaluation.md §3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import pandas as pd

from metrics.comparison.combine import f_alpha
from metrics.io.organisation_build import build_organisation_campaign
from metrics.measures.organisation.scores import organisation_rs
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W
from metrics.measures.registry import parse_metric
from metrics.meta.constraints_organisation import (
    ORGANISATION_CONSTRAINTS,
    Organisation,
    Scorer,
    check_filtering_measures,
    check_ir_measures,
    check_organisation_constraints,
    gold_organisation,
    verdict_table,
)

__all__ = ["PAPER_N", "PAPER_W", "rs_pair", "rs_scorers", "check_rs",
           "organisation_constraint_results", "organisation_verdicts"]

#: the paper's setting for the constraint analysis: the first 30 levels carry 80% of the weight
PAPER_N: int = DEFAULT_N
PAPER_W: float = DEFAULT_W


@lru_cache(maxsize=512)
def _rs_cached(grades: tuple[tuple[str, int], ...], output: Organisation, n: float,
               w: float) -> tuple[float, float]:
    task = "ranking" if output.tail else "filtering"
    gold = gold_organisation(dict(grades), task)
    campaign = build_organisation_campaign(
        gold.to_frame("q"), {"output": output.to_frame("q")}, tail=output.tail,
        name="constraint", source="constraint case", gold_source="gold", run_sources={})
    specs = [parse_metric(f"reliability(n={n:g},w={w:g})"),
             parse_metric(f"sensitivity(n={n:g},w={w:g})")]
    values = organisation_rs(campaign, ["output"], specs)
    return float(values[str(specs[0])][0, 0]), float(values[str(specs[1])][0, 0])


def rs_pair(grades: Mapping[str, int], output: Organisation, n: float = PAPER_N,
            w: float = PAPER_W) -> tuple[float, float]:
    """(Reliability, Sensitivity) of one output against the gold of ``grades``.

    The gold is :func:`~metrics.meta.constraints_organisation.gold_organisation` of the output's
    task (a ranking: relevant levels above an unlimited tail; a filtering: relevant |
    irrelevant). Results are cached, so R, S and R*S of one output build one campaign.
    """
    return _rs_cached(tuple(grades.items()), output, float(n), float(w))


def rs_scorers(n: float = PAPER_N, w: float = PAPER_W) -> tuple[Scorer, Scorer, Scorer]:
    """Scorers ``R*S(n=..,w=..)``, ``R(n=..,w=..)`` and ``S(n=..,w=..)`` for both tasks."""
    tag = f"(n={n:g},w={w:g})"

    def rs(grades: Mapping[str, int], output: Organisation) -> float:
        r, s = rs_pair(grades, output, n, w)
        return float(f_alpha(r, s, 0.5))

    return (Scorer(f"R*S{tag}", rs),
            Scorer(f"R{tag}", lambda g, o: rs_pair(g, o, n, w)[0]),
            Scorer(f"S{tag}", lambda g, o: rs_pair(g, o, n, w)[1]))


def check_rs(n: float = PAPER_N, w: float = PAPER_W, constraints: Sequence[str] | None = None
             ) -> pd.DataFrame:
    """:func:`~metrics.meta.constraints_organisation.check_organisation_constraints` for R*S, R, S
    on every ranking and filtering constraint (``metric, constraint, better, worse, agrees``)."""
    return check_organisation_constraints(rs_scorers(n, w), constraints)


def organisation_constraint_results(n: float = PAPER_N, w: float = PAPER_W) -> pd.DataFrame:
    """``metric, constraint, better, worse, agrees`` of the IR measures (through ir_measures),
    the filtering measures of :mod:`metrics.measures.organisation.filtering` and R*S, R, S with
    ``n``, ``w``."""
    return pd.concat([check_ir_measures(), check_filtering_measures(), check_rs(n, w)],
                     ignore_index=True)


def organisation_verdicts(n: float = PAPER_N, w: float = PAPER_W,
                          results: pd.DataFrame | None = None) -> pd.DataFrame:
    """The paper's Table 6 for ranking and filtering: measures x constraints, True where the
    measure satisfies the constraint, ``pd.NA`` where it does not apply to the constraint's
    task. ``results``: the output of :func:`organisation_constraint_results` if already
    computed."""
    results = organisation_constraint_results(n, w) if results is None else results
    return verdict_table(results).reindex(columns=list(ORGANISATION_CONSTRAINTS))
