"""Metric providers: one door per family of measures (docs/providers.md).

Every metric Unanimity computes belongs to one :class:`Provider` (in the manner of
``ir_measures``' providers). A provider declares

* its metrics (:class:`MetricInfo`: name, direction, range, formula, paper, parameters with
  their defaults and checks), or parses names of its own (:meth:`Provider.parse`: the IR
  measures of ``ir_measures``, the composites ``F(m1, m2, alpha=…)``);
* the campaign kinds it supports (:class:`~metrics.model.campaign_kinds.CampaignKind`), and
  :meth:`Provider.problem`, why it cannot compute a metric on a campaign (checked before any
  work: :func:`refusal` is the one line every command prints);
* :meth:`Provider.score`: the per-topic values of its metrics for every system, the score table
  ``system, topic, metric`` -> value as one array per metric
  (:func:`metrics.measures.scoring.as_table` writes the long table). Families whose metrics are
  read off one system at a time
  (:class:`~metrics.measures.system_scorer.SystemScorer`: contingency table, entropies, pair
  counts, BCubed) give each metric a *kernel*; :func:`kernel_blocks` runs the kernels of every
  family in one pass over the systems, so that families share the scorer's quantities;
* whether the Dask engine can sum its sufficient statistics (:attr:`Provider.dask`), and if
  not, why (:attr:`Provider.dask_refusal`).

The providers are registered, one line each, in :data:`metrics.measures.registry.PROVIDERS`.
This module holds no family and imports nothing heavy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from metrics.errors import UnanimityError
from metrics.model.campaign_kinds import CampaignKind, campaign_kind, describe_campaign

__all__ = ["MetricInfo", "MetricSpec", "Provider", "KNOWN", "refusal", "kernel_blocks",
           "expand_specs", "combine_composites", "refuse_for_dask",
           "UNIT", "format_value", "positive", "OWNER", "split_metric_list"]

#: the range of a metric that lies between 0 and 1
UNIT = (0.0, 1.0)


@dataclass(frozen=True)
class MetricInfo:
    """What a metric is.

    Attributes
    ----------
    name : str
        Canonical name (``bcubed_precision``).
    direction : int
        +1 when higher is better, -1 when lower is better.
    family : str
        The family's words (``bcubed``, ``entropy``, ``type level``, ``ir_measures``, ...).
    description : str
        One line in words.
    formula : str
        The formula, in the notation of docs/measures.md §3.
    reference : str
        The paper that defines it.
    params : dict
        Parameters and their defaults (``{"beta": 1.0}``).
    overlap_aware : bool
        True when the metric has a definition for overlapping clusterings (docs/measures.md §3).
    kernel : callable, optional
        ``kernel(scorer, **params) -> ndarray (n_topics,)``: the per-topic values read from a
        :class:`~metrics.measures.system_scorer.SystemScorer`; None for a metric its provider
        scores for every system at once.
    param_checks : dict
        ``{param: (predicate, message)}``: a parsed value with ``predicate(value)`` false is
        refused with ``message``.
    type_level : bool
        True for the type-level measures (a token tagging campaign, ``docs/type-level.md``).
    value_range : tuple of float
        The smallest and largest value the metric takes (``(0, inf)`` for an unbounded one).
    """

    name: str
    direction: int
    family: str
    description: str
    formula: str
    reference: str
    params: dict = field(default_factory=dict)
    overlap_aware: bool = False
    kernel: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    param_checks: dict = field(default_factory=dict, compare=False, repr=False)
    type_level: bool = False
    value_range: tuple[float, float] = UNIT


#: every statically named metric -> its info, filled by :mod:`metrics.measures.registry`
KNOWN: dict[str, MetricInfo] = {}
#: metric name -> its provider, filled by :mod:`metrics.measures.registry`
OWNER: dict[str, Provider] = {}


def format_value(v: object) -> str:
    """A parameter value as the canonical metric string writes it (``2`` for 2.0)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


@dataclass(frozen=True, eq=False)
class MetricSpec:
    """A metric with its parameters, as parsed from ``name(p=v, ...)``.

    ``params`` holds every parameter of the metric, defaults filled in. ``str(spec)`` is the
    canonical string: the name, followed by the parameters that differ from their default
    (``v_measure`` for beta=1, ``v_measure(beta=2)`` otherwise); a metric a provider parses
    itself (an IR measure, a composite) carries its canonical string as ``label``. Two specs
    are equal when their canonical strings are. ``parts`` are the metrics a composite combines.
    """

    name: str
    params: dict = field(default_factory=dict)
    label: str | None = None
    meta: MetricInfo | None = field(default=None, repr=False)
    parts: tuple[MetricSpec, ...] = field(default=(), repr=False)
    source: Provider | None = field(default=None, repr=False)

    def __str__(self) -> str:
        if self.label is not None:
            return self.label
        defaults = KNOWN[self.name].params if self.name in KNOWN else {}
        shown = [(k, v) for k, v in self.params.items() if defaults.get(k, object()) != v]
        if not shown:
            return self.name
        return f"{self.name}({', '.join(f'{k}={format_value(v)}' for k, v in shown)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MetricSpec) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    @property
    def info(self) -> MetricInfo:
        return self.meta if self.meta is not None else KNOWN[self.name]

    @property
    def provider(self) -> Provider:
        return self.source if self.source is not None else OWNER[self.name]

    @property
    def direction(self) -> int:
        return self.info.direction


class Provider:
    """A family of metrics (see the module docstring); subclasses set the class attributes.

    Attributes
    ----------
    family : str
        The family's name, as ``evaluate --list-metrics`` and the docs show it.
    kinds : frozenset of CampaignKind
        The campaign kinds whose outputs the family is defined on.
    infos : tuple of MetricInfo
        Its statically named metrics (empty for a provider that parses names itself).
    patterns : tuple
        The names it parses itself, as (pattern, parameters, description) for the catalogue.
    dask : bool
        True when the Dask engine computes the family (its statistics add up over partitions).
    dask_refusal : str
        Why the Dask engine does not, in words.
    """

    family: str = ""
    kinds: frozenset[CampaignKind] = frozenset()
    infos: tuple[MetricInfo, ...] = ()
    dask: bool = False
    dask_refusal: str = "its statistics do not add up over partitions"
    #: True for a family of composites (computed from other metrics, :meth:`components`)
    composite: bool = False
    #: the names the provider parses itself, for the catalogue (``evaluate --list-metrics``):
    #: (pattern, parameters, description) rows
    patterns: tuple[tuple[str, str, str], ...] = ()

    def parse(self, text: str, parse_metric: Callable[[str], MetricSpec]) -> MetricSpec | None:
        """A spec for a name this provider reads itself (not one of :attr:`infos`), or None.
        ``parse_metric`` parses any registered name (the composites' parts)."""
        return None

    def problem(self, spec: MetricSpec, campaign) -> str | None:
        """Why ``spec`` cannot be computed on ``campaign`` beyond its kind (one line), or None."""
        return None

    def kernel(self, spec: MetricSpec, campaign) -> Callable[..., np.ndarray] | None:
        """The per-system kernel of ``spec`` on ``campaign``, or None when :meth:`score` computes
        it for every system at once."""
        return spec.info.kernel

    def dask_problem(self, spec: MetricSpec) -> str | None:
        """Why the Dask engine cannot compute ``spec`` (one line), or None when it can."""
        return None if self.dask else self.dask_refusal

    def components(self, spec: MetricSpec) -> tuple[MetricSpec, ...]:
        """The metrics ``spec`` is computed from (a composite's parts); empty otherwise."""
        return spec.parts

    def combine(self, spec: MetricSpec, parts: Sequence[np.ndarray]) -> np.ndarray:
        """A composite's values from its parts' values (same shapes)."""
        raise NotImplementedError(f"{self.family} has no composite metrics")

    def score(self, campaign, specs: Sequence[MetricSpec], systems: Sequence[str],
              missing: str = "penalize") -> dict[str, np.ndarray]:
        """The per-topic values of ``specs`` for ``systems``: canonical name -> ndarray
        (n_systems, n_topics) (:func:`metrics.measures.scoring.as_table` makes the score
        table). The default runs the metrics' kernels (:func:`kernel_blocks`)."""
        jobs = [(s, self.kernel(s, campaign)) for s in specs]
        missing_kernel = [str(s) for s, k in jobs if k is None]
        if missing_kernel:
            raise UnanimityError(f"{self.family}: no kernel for {', '.join(missing_kernel)}")
        blocks = kernel_blocks(campaign, [(s, k) for s, k in jobs if k is not None], systems,
                               missing)
        return {str(s): blocks[:, :, i] for i, s in enumerate(specs)}


def expand_specs(specs: Sequence[MetricSpec]) -> list[MetricSpec]:
    """``specs`` with the metrics composites are computed from, each part before its composite,
    every metric once."""
    needed: list[MetricSpec] = []

    def add(spec: MetricSpec) -> None:
        for part in spec.provider.components(spec):
            add(part)
        if spec not in needed:
            needed.append(spec)
    for spec in specs:
        add(spec)
    return needed


def combine_composites(needed: Sequence[MetricSpec], values: dict[str, np.ndarray]) -> None:
    """Fill ``values`` (canonical name -> array) with the composites of ``needed`` (as
    :func:`expand_specs` orders them), from their parts' values."""
    for s in needed:
        parts = s.provider.components(s)
        if parts:
            values[str(s)] = s.provider.combine(s, [values[str(p)] for p in parts])


def refuse_for_dask(specs: Sequence[MetricSpec]) -> None:
    """Refuse, before any work, a metric (or composite part) the Dask engine cannot compute, by
    its provider's word (:meth:`Provider.dask_problem`)."""
    for spec in expand_specs(specs):
        problem = spec.provider.dask_problem(spec)
        if problem:
            raise UnanimityError(f"the Dask engine cannot compute {spec} ({spec.provider.family}:"
                                 f" {problem}); use the numpy engine (--engine numpy)")


def refusal(spec: MetricSpec, campaign) -> str | None:
    """The one line that refuses ``spec`` on ``campaign`` before any work, or None.

    It names the metric, the campaign and its kind, and the kinds the metric's provider
    supports (or the provider's own reason, :meth:`Provider.problem`).
    """
    provider = spec.provider
    kind = campaign_kind(campaign)
    if kind not in provider.kinds:
        kinds = ", ".join(k.value for k in CampaignKind if k in provider.kinds)
        return (f"metric {str(spec)!r} cannot be computed on campaign {campaign.name!r}, "
                f"{describe_campaign(campaign)} (kind: {kind.value}): {provider.family} "
                f"metrics apply to the kinds {kinds}")
    problem = provider.problem(spec, campaign)
    if problem:
        return (f"metric {str(spec)!r} cannot be computed on campaign {campaign.name!r}, "
                f"{describe_campaign(campaign)}: {problem}")
    return None


def kernel_blocks(campaign, jobs: Sequence[tuple[MetricSpec, Callable[..., np.ndarray]]],
                  systems: Sequence[str], missing: str = "penalize",
                  on_scorer: Callable[[Any, str], None] | None = None) -> np.ndarray:
    """Run per-system kernels: one :class:`~metrics.measures.system_scorer.SystemScorer` per
    system, shared by every job, so that the metrics of several families share its quantities.

    Returns
    -------
    ndarray (n_systems, n_topics, n_jobs).
    """
    from metrics.measures.system_scorer import SystemScorer  # noqa: PLC0415 - deferred: the clustering kernels (scipy) load when a metric is scored

    out = np.empty((len(systems), campaign.n_topics, len(jobs)))
    if not jobs:  # no system is aligned (a ranking campaign's runs stay ranked lists)
        return out
    for si, system in enumerate(systems):
        aligned = campaign.aligned(system, missing)
        scorer = SystemScorer(campaign.gold_membership, aligned, campaign.item_topic,
                              campaign.n_topics, item_type=campaign.item_type)
        for ji, (spec, kernel) in enumerate(jobs):
            out[si, :, ji] = kernel(scorer, **spec.params)
        if on_scorer is not None:
            on_scorer(scorer, system)
    return out


def positive(v: float) -> bool:
    """A parameter check: a positive finite number."""
    return v > 0 and math.isfinite(v)


def split_metric_list(text: str) -> list[str]:
    """Split ``"a,b(k=2,x=1),c"`` at the commas outside parentheses; empty parts dropped."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in str(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise UnanimityError(f"unbalanced parentheses in metric list {text!r}")
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth != 0:
        raise UnanimityError(f"unbalanced parentheses in metric list {text!r}")
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]
