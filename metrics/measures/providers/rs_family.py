"""Reliability and Sensitivity (Amigó, Gonzalo, Verdejo, SIGIR 2013; docs/organisation.md).

One family for every kind of output: on a flat or overlapping clustering (no levels) they are
BCubed precision and recall (extended BCubed, occurrence-level, with overlap), read off the
shared :class:`~metrics.measures.system_scorer.SystemScorer`; on a document organisation
(rankings, filterings, mixtures: levels, perhaps a tail) every system is scored at once by
:func:`metrics.measures.organisation.scores.organisation_rs`, as are the priority and
relatedness parts on any campaign. ``n`` and ``w`` weigh ranked positions (the paper's ranking
setting, :mod:`metrics.measures.organisation.weights`) and change nothing without a tail.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from metrics.measures.citations import AGV13
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W
from metrics.measures.provider import MetricInfo, MetricSpec, Provider, kernel_blocks
from metrics.model.campaign_kinds import ALL_KINDS, ORGANISATION_KINDS, campaign_kind

__all__ = ["ReliabilitySensitivityProvider", "RS_PARTS"]

#: Parameters of every Reliability / Sensitivity entry: the paper's ranking setting
#: (:data:`~metrics.measures.organisation.weights.DEFAULT_N`, ``DEFAULT_W``).
_RS_PARAMS = {"n": DEFAULT_N, "w": DEFAULT_W}
_RS_CHECKS = {"n": (lambda v: v > 0, "n must be positive"),
              "w": (lambda v: 0 < v < 1, "w must lie strictly between 0 and 1")}

#: the parts of Reliability / Sensitivity restricted to one kind of relation
RS_PARTS = ("reliability_priority", "sensitivity_priority", "reliability_relatedness",
            "sensitivity_relatedness")


class ReliabilitySensitivityProvider(Provider):
    """Reliability, Sensitivity and their priority / relatedness parts."""

    family = "reliability/sensitivity"
    kinds = ALL_KINDS
    dask = True
    dask_refusal = ("the priority and relatedness parts need the levels of a document "
                    "organisation, which the Dask engine does not read")
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("reliability", 1, "reliability/sensitivity",
                   "Reliability: weighted precision of the priority and relatedness relations an "
                   "output states (a flat clustering: BCubed precision, occurrence-level with "
                   "overlap)",
                   "Σ_e w(e) R(e), R(e) = Σ_{e' related to e in X} w(e') P(r(e,e') ∈ G) / "
                   "Σ_{e'} w(e'), P = min(1, |r in G| / |r in X|); the first n positions carry "
                   "W_n = w "
                   "of the weight when the collection has a tail", AGV13,
                   params=dict(_RS_PARAMS), overlap_aware=True,
                   kernel=lambda s, n=DEFAULT_N, w=DEFAULT_W: s.reliability_sensitivity[0],
                   param_checks=_RS_CHECKS),
        MetricInfo("sensitivity", 1, "reliability/sensitivity",
                   "Sensitivity: Reliability with the output and the gold swapped (a flat "
                   "clustering: "
                   "BCubed recall, occurrence-level with overlap)",
                   "as reliability, with X and G exchanged", AGV13,
                   params=dict(_RS_PARAMS), overlap_aware=True,
                   kernel=lambda s, n=DEFAULT_N, w=DEFAULT_W: s.reliability_sensitivity[1],
                   param_checks=_RS_CHECKS),
        MetricInfo("reliability_priority", 1, "reliability/sensitivity",
                   "Reliability over priority relations only (d above d')",
                   "reliability restricted to d ≻ d' (a higher level, or prioritised vs the "
                   "tail)", AGV13, params=dict(_RS_PARAMS), overlap_aware=True,
                   param_checks=_RS_CHECKS),
        MetricInfo("sensitivity_priority", 1, "reliability/sensitivity",
                   "Sensitivity over priority relations only",
                   "sensitivity restricted to d ≻ d'", AGV13, params=dict(_RS_PARAMS),
                   overlap_aware=True, param_checks=_RS_CHECKS),
        MetricInfo("reliability_relatedness", 1, "reliability/sensitivity",
                   "Reliability over relatedness relations only (same cluster)",
                   "reliability restricted to d ∼ d'", AGV13, params=dict(_RS_PARAMS),
                   overlap_aware=True, param_checks=_RS_CHECKS),
        MetricInfo("sensitivity_relatedness", 1, "reliability/sensitivity",
                   "Sensitivity over relatedness relations only (same cluster)",
                   "sensitivity restricted to d ∼ d'", AGV13, params=dict(_RS_PARAMS),
                   overlap_aware=True, param_checks=_RS_CHECKS),
    )

    def dask_problem(self, spec: MetricSpec) -> str | None:
        return self.dask_refusal if spec.name in RS_PARTS else None

    def kernel(self, spec: MetricSpec, campaign) -> Callable[..., np.ndarray] | None:
        """The BCubed kernels on clusterings; None (every system at once) on organisations and
        for the parts."""
        if campaign_kind(campaign) in ORGANISATION_KINDS:
            return None
        return spec.info.kernel

    def score(self, campaign, specs: Sequence[MetricSpec], systems: Sequence[str],
              missing: str = "penalize") -> dict[str, np.ndarray]:
        from metrics.measures.organisation.scores import organisation_rs  # noqa: PLC0415 - deferred: it loads the compute budget and so metrics.io, which reads this registry

        kernels = [(s, k) for s in specs if (k := self.kernel(s, campaign)) is not None]
        out: dict[str, np.ndarray] = {}
        if kernels:
            blocks = kernel_blocks(campaign, kernels, systems, missing)
            out.update({str(s): blocks[:, :, i] for i, (s, _) in enumerate(kernels)})
        rest = [s for s in specs if str(s) not in out]
        if rest:
            out.update(organisation_rs(campaign, systems, rest, missing))
        return out
