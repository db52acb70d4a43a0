"""The IR measures of ``ir_measures`` (nDCG@10, AP(rel=2), P@10, RR, ...; docs/organisation.md §6).

A name the project's registry does not know and that ``ir_measures`` parses is an IR measure,
named by its canonical ``ir_measures`` string; the campaign is handed to ``ir_measures`` as
qrels and runs (:mod:`metrics.measures.organisation.ir`), never reimplemented. Which names an
installed provider computes is asked of ``ir_measures``' declarations before any work
(:func:`metrics.measures.organisation.ir_support.ir_measure_problem`). They apply to outputs
with priority levels: rankings, filterings and their mixtures with clusters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from metrics.measures.organisation.ir import ir_scores, parse_ir_measure
from metrics.measures.organisation.ir_support import ir_measure_problem
from metrics.measures.provider import MetricInfo, MetricSpec, Provider
from metrics.model.campaign_kinds import ORGANISATION_KINDS

__all__ = ["IRMeasuresProvider", "IR_REFERENCE"]

IR_REFERENCE = ("MacAvaney, Macdonald, Ounis. Streamlining evaluation with ir-measures. ECIR "
                "2022; computed by pytrec_eval / trec_eval")


class IRMeasuresProvider(Provider):
    """Every measure ``ir_measures`` computes in the process, by its own names."""

    family = "ir_measures"
    kinds = ORGANISATION_KINDS
    dask_refusal = "ir_measures scores whole ranked lists in memory"
    patterns = (("<IR measure>", "as ir_measures", "any measure ir_measures computes in the "
                 "process, by its name: nDCG@10, AP(rel=2), P@10, R@100, RR, ..."),)

    def parse(self, text: str, parse_metric: Callable[[str], MetricSpec]) -> MetricSpec | None:
        measure = parse_ir_measure(text)
        if measure is None:
            return None
        name = str(measure)
        info = MetricInfo(name, 1, self.family, f"IR measure {name} (trec_eval)",
                          f"{name} as ir_measures and trec_eval define it", IR_REFERENCE)
        return MetricSpec(name, {}, label=name, meta=info, source=self)

    def problem(self, spec: MetricSpec, campaign) -> str | None:
        return ir_measure_problem(str(spec))

    def kernel(self, spec: MetricSpec, campaign) -> Callable[..., np.ndarray] | None:
        return None

    def score(self, campaign, specs: Sequence[MetricSpec], systems: Sequence[str],
              missing: str = "penalize") -> dict[str, np.ndarray]:
        return ir_scores(campaign, systems, [str(s) for s in specs])
