"""The metrics Unanimity knows, one provider per family (docs/providers.md).

:data:`PROVIDERS` lists the metric providers (:mod:`metrics.measures.provider`), one line each:
the flat clustering metrics, extended BCubed, adapted BCubed, the type-level measures,
Reliability & Sensitivity, the filtering measures, the IR measures of ``ir_measures`` and the
composite measures. ``parse_metric("v_measure(beta=2)")`` gives a
:class:`~metrics.measures.provider.MetricSpec` whose canonical string is ``v_measure(beta=2)``:
a statically named metric with its parameters checked, else a name a provider parses itself
(``nDCG@10``, ``F(purity,inverse_purity,alpha=0.3)``); an unknown name is a
:class:`~metrics.errors.UnanimityError` listing the known ones. :func:`check_metrics` refuses,
before any work, a metric whose provider cannot compute it on a campaign
(:func:`~metrics.measures.provider.refusal`); :func:`metrics_for` lists what fits a campaign's
kind (the dashboard's pickers).

Every metric is per topic (docs/measures.md §3); averaging over topics is a separate step.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.provider import (
    KNOWN,
    OWNER,
    MetricInfo,
    MetricSpec,
    Provider,
    refusal,
    split_metric_list,
)
from metrics.measures.providers.adapted_bcubed_family import AdaptedBCubedProvider
from metrics.measures.providers.bcubed_family import BCubedProvider
from metrics.measures.providers.clustering_family import ClusteringProvider, SetMatchingProvider
from metrics.measures.providers.composite_family import CompositeProvider
from metrics.measures.providers.filtering_family import FilteringProvider
from metrics.measures.providers.ir_family import IRMeasuresProvider
from metrics.measures.providers.rs_family import RS_PARTS, ReliabilitySensitivityProvider
from metrics.measures.providers.typelevel_family import TypeLevelProvider
from metrics.model.campaign_kinds import CampaignKind, campaign_kind

__all__ = [
    "MetricInfo",
    "MetricSpec",
    "PROVIDERS",
    "register",
    "METRIC_PAIRS",
    "available_metrics",
    "metrics_for",
    "check_metrics",
    "direction",
    "metric_info",
    "parse_metric",
    "parse_metrics",
    "split_metric_list",
    "TYPE_LEVEL_PAIRS",
    "default_metric_pairs",
    "PAIR_DEFAULT_ALPHA",
    "is_ir_measure",
    "label_name",
]

#: The metric providers, in the order ``evaluate --list-metrics`` shows them; a name is looked
#: up in their statically named metrics first, then offered to each provider's own parser.
PROVIDERS: list[Provider] = []


def register(provider: Provider) -> Provider:
    """Add a provider (and its statically named metrics) to the registry; returns it.

    Raises
    ------
    ValueError
        When one of its names is already registered.
    """
    taken = [m.name for m in provider.infos if m.name in KNOWN]
    if taken:
        raise ValueError(f"metric name(s) {', '.join(taken)} already registered")
    PROVIDERS.append(provider)
    for m in provider.infos:
        KNOWN[m.name] = m
        OWNER[m.name] = provider
    return provider


register(SetMatchingProvider())
register(BCubedProvider())
register(AdaptedBCubedProvider())
register(ReliabilitySensitivityProvider())
register(ClusteringProvider())
register(TypeLevelProvider())
register(FilteringProvider())
register(CompositeProvider())
register(IRMeasuresProvider())


#: The type-level precision / recall pair, for token tagging campaigns.
TYPE_LEVEL_PAIRS: dict[str, tuple[str, str]] = {
    "MacroI P/R (1-1)": ("type_macro_precision", "type_macro_recall"),
    "MacroI P/R (M-1)": ("type_macro_precision(mapping=many_to_one)",
                         "type_macro_recall(mapping=many_to_one)"),
    "MicroI P/R (1-1)": ("type_micro_precision", "type_micro_recall"),
    "MicroI P/R (M-1)": ("type_micro_precision(mapping=many_to_one)",
                         "type_micro_recall(mapping=many_to_one)"),
    "MicroC P/R (1-1)": ("type_microc_precision", "type_microc_recall"),
    "MicroC P/R (M-1)": ("type_microc_precision(mapping=many_to_one)",
                         "type_microc_recall(mapping=many_to_one)"),
}

#: The standard precision-like / recall-like pairs (for the dashboard and the F_α combination).
METRIC_PAIRS: dict[str, tuple[str, str]] = {
    "BCubed P/R": ("bcubed_precision", "bcubed_recall"),
    "Reliability/Sensitivity": ("reliability", "sensitivity"),
    "Purity/Inverse Purity": ("purity", "inverse_purity"),
    "Pair P/R": ("pair_precision", "pair_recall"),
    "Homogeneity/Completeness": ("homogeneity", "completeness"),
    "Adapted BCubed P/R": ("bcubed_precision", "bcubed_adapted_recall"),
}


#: Default alpha of F_alpha for a pair, where its paper uses another than 0.5: the adapted BCubed
#: pair is combined with alpha = 0.9 (Moreno and Dias, SIGIR 2015, §3.3).
PAIR_DEFAULT_ALPHA: dict[str, float] = {"Adapted BCubed P/R": 0.9}


def available_metrics(type_level: bool = False, organisation: bool = False) -> list[MetricInfo]:
    """The statically named metrics of clusterings, in registry order; with ``type_level`` the
    type-level ones too (they need a token tagging campaign, ``docs/type-level.md``), with
    ``organisation`` the priority / relatedness parts of Reliability and Sensitivity
    (``docs/organisation.md``). The metrics that fit one campaign: :func:`metrics_for`."""
    out = []
    for p in PROVIDERS:
        wanted = not p.composite and (CampaignKind.CLUSTERING in p.kinds or (
            type_level and CampaignKind.TOKEN_TAGGING in p.kinds))
        if wanted:
            out += [m for m in p.infos if (type_level or not m.type_level)
                    and (organisation or m.name not in RS_PARTS)]
    return out


def metrics_for(campaign) -> list[MetricInfo]:
    """Every statically named metric whose provider computes it on ``campaign`` (its kind, and
    the provider's own checks), in registry order: what a picker offers."""
    kind = campaign_kind(campaign)
    out = []
    for p in PROVIDERS:
        for m in p.infos if kind in p.kinds else ():
            spec = MetricSpec(m.name, dict(m.params))
            if all(refusal(s, campaign) is None for s in (*p.components(spec), spec)):
                out.append(m)
    return out


def check_metrics(campaign, specs: Sequence[MetricSpec]) -> None:
    """Refuse, before any work, the first metric (or composite part) that cannot be computed on
    ``campaign``: one line naming the metric, the campaign's kind and the kinds its provider
    supports (:func:`metrics.measures.provider.refusal`)."""
    kind = campaign_kind(campaign)
    for spec in specs:
        for part in (*spec.provider.components(spec), spec):
            problem = refusal(part, campaign)
            if problem:
                if kind not in part.provider.kinds:
                    fit = [p.family for p in PROVIDERS if kind in p.kinds]
                    problem += f"; on {kind.value} campaigns: {', '.join(fit) or 'none'}"
                raise UnanimityError(problem)


def metric_info(name: str) -> MetricInfo:
    """The :class:`MetricInfo` of a metric name (parameters allowed: ``v_measure(beta=2)``)."""
    return parse_metric(name).info


def direction(name: str) -> int:
    """+1 when higher is better, -1 when lower is better.

    Accepts parameterised names (``v_measure(beta=2)``). Unknown names give +1: this is used
    on user score tables with arbitrary metric names.
    """
    base = str(name).split("(", 1)[0].strip()
    info = KNOWN.get(base)
    return info.direction if info is not None else 1


_NAME_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


def _unknown(name: str) -> UnanimityError:
    return UnanimityError(
        f"unknown metric {name!r}; known metrics: {', '.join(KNOWN)}"
        + "".join(f"; {p.family}: {pattern}" for p in PROVIDERS for pattern, _, _ in p.patterns)
    )


def _coerce(metric: str, key: str, raw: str, default: object) -> object:
    raw = raw.strip()
    if isinstance(default, str):  # a word, checked by the metric's param_checks below
        value: object = raw.strip("'\"")
    else:
        value = _number(metric, key, raw, default)
    check = KNOWN[metric].param_checks.get(key)
    if check is not None and not check[0](value):
        raise UnanimityError(f"metric {metric!r}: {check[1]}, got {raw}")
    return value


def _number(metric: str, key: str, raw: str, default: object) -> float | int:
    value: float | int
    try:
        if isinstance(default, int) and not isinstance(default, bool):
            value = int(raw)
        else:
            value = float(raw)
    except ValueError:
        raise UnanimityError(
            f"metric {metric!r}: parameter {key}={raw!r} is not a "
            f"{'whole number' if isinstance(default, int) else 'number'}"
        ) from None
    return value


def parse_metric(text: str | MetricSpec) -> MetricSpec:
    """Parse ``name`` or ``name(p=v, ...)`` into a :class:`MetricSpec`.

    A statically named metric first; otherwise each provider's own parser (composites, the IR
    measures of ``ir_measures``).

    Raises
    ------
    UnanimityError
        For an unknown name (the message lists the known ones), an unknown parameter or a value
        of the wrong type.
    """
    if isinstance(text, MetricSpec):
        return text
    m = _NAME_RE.match(str(text))
    if not m or m.group(1) not in KNOWN:
        for provider in PROVIDERS:
            spec = provider.parse(str(text), parse_metric)
            if spec is not None:
                return spec
    if not m:
        raise UnanimityError(f"cannot read metric {text!r}; expected name or name(param=value)")
    name, args = m.group(1), m.group(2)
    if name not in KNOWN:
        raise _unknown(name)
    defaults = KNOWN[name].params
    params = dict(defaults)
    if args is not None and args.strip():
        for part in args.split(","):
            if "=" not in part:
                raise UnanimityError(
                    f"metric {name!r}: parameter {part.strip()!r} must be written key=value"
                )
            key, raw = (s.strip() for s in part.split("=", 1))
            if key not in defaults:
                known = ", ".join(defaults) or "none"
                raise UnanimityError(
                    f"metric {name!r} has no parameter {key!r}; its parameters: {known}"
                )
            params[key] = _coerce(name, key, raw, defaults[key])
    return MetricSpec(name, params)


def label_name(text: str) -> str:
    """A metric name as a label of a score table: a statically named metric in its canonical
    spelling (``v_measure(beta=2.0)`` -> ``v_measure(beta=2)``, as ``evaluate`` writes it), any
    other name exactly as given (stripped). ``ir_measures``' aliases are not applied: in a
    score table ``MAP`` and ``MRR`` are the user's own labels, not ``AP``, ``RR``.
    """
    m = _NAME_RE.match(str(text))
    if m and m.group(1) in KNOWN:
        try:
            return str(parse_metric(text))
        except UnanimityError:
            pass
    return str(text).strip()


def is_ir_measure(spec: MetricSpec) -> bool:
    """True for a measure computed by ``ir_measures``."""
    return isinstance(spec.provider, IRMeasuresProvider)


def _highest_grade(campaign) -> float:
    """The highest relevance grade of a campaign's gold (its rows' weights: a TREC gold keeps
    each judgment's grade there), 0 without any."""
    weight = campaign.gold_membership.weight
    if weight is None or not np.isfinite(weight).any():
        return 0.0
    return float(np.nanmax(weight))


def default_metric_pairs(campaign) -> dict[str, tuple[str, str]]:
    """The precision-like / recall-like pairs that fit a campaign's task, best first.

    Organisations with a tail (rankings): Reliability/Sensitivity, P@10/R@10 and nDCG@10/AP
    (``ir_measures`` names: a binary measure counts grade >= 1 as relevant, trec_eval's
    default), and where the judgments are graded (a grade of 2 or more) the same binary
    measures at grade >= 2, "P@10/R@10 (rel=2)" and "nDCG@10/AP(rel=2)" (TREC DL counts grade
    >= 2 as relevant); other organisations: Reliability/Sensitivity and their priority and
    relatedness parts; token tagging campaigns (``campaign.item_type`` set):
    :data:`TYPE_LEVEL_PAIRS` first, then the token-level :data:`METRIC_PAIRS`; flat clusterings:
    :data:`METRIC_PAIRS`; a score table: none.
    """
    if not campaign.has_clusterings:
        return {}
    if getattr(campaign, "item_type", None) is not None:
        return {**TYPE_LEVEL_PAIRS, **METRIC_PAIRS}
    if campaign.tail:
        pairs = {"Reliability/Sensitivity": ("reliability", "sensitivity"),
                 "P@10/R@10": ("P@10", "R@10"),
                 "nDCG@10/AP": ("nDCG@10", "AP")}
        if _highest_grade(campaign) >= 2:  # graded judgments: the binary measures at grade >= 2
            pairs |= {"P@10/R@10 (rel=2)": ("P(rel=2)@10", "R(rel=2)@10"),
                      "nDCG@10/AP(rel=2)": ("nDCG@10", "AP(rel=2)")}
        return pairs
    if campaign.is_organisation:
        return {"Reliability/Sensitivity": ("reliability", "sensitivity"),
                "Priority R/S": ("reliability_priority", "sensitivity_priority"),
                "Relatedness R/S": ("reliability_relatedness", "sensitivity_relatedness")}
    return dict(METRIC_PAIRS)


def parse_metrics(text: str | list | tuple) -> list[MetricSpec]:
    """Parse a comma-separated list (``"a,b(k=2),c"``; commas inside parentheses are kept).

    A list or tuple of strings / specs is accepted too. Duplicates are dropped, order kept.
    """
    parts = list(text) if isinstance(text, (list, tuple)) else split_metric_list(text)
    if not parts:
        raise UnanimityError("no metric given")
    out: list[MetricSpec] = []
    for p in parts:
        spec = parse_metric(p)
        if spec not in out:
            out.append(spec)
    return out
