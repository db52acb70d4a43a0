"""The clustering metrics Unanimity knows: names, parameters, direction, formula, reference.

(Size: about 530 lines, most of them the one table of metric entries; the metric providers
split it by family.)

Metrics are small declarative records registered by a canonical name (the ir_measures way):
``parse_metric("v_measure(beta=2)")`` gives a :class:`MetricSpec` whose canonical string is
``v_measure(beta=2)``; an unknown name is a :class:`~metrics.errors.UnanimityError` listing the
known ones. Each metric is one entry of ``_INFOS``: its name, direction, family, description,
formula,
paper, parameters with their defaults and checks, and its kernel (a function of a
:class:`metrics.measures.scoring.SystemScorer`, whose cached quantities come from
:mod:`metrics.measures.clustering`).
Adding a metric is adding one entry; a new family adds its shared quantity to ``SystemScorer``.

Every metric is per topic (docs/measures.md §3); averaging over topics is a separate step.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from metrics.errors import UnanimityError
from metrics.measures.organisation.ir import parse_ir_measure
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W
from metrics.measures.typelevel.type_options import DEFAULT_SECONDS, MAPPINGS

__all__ = [
    "MetricInfo",
    "MetricSpec",
    "METRIC_PAIRS",
    "available_metrics",
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
        ``set matching``, ``bcubed``, ``reliability/sensitivity``, ``entropy``,
        ``pair counting`` or ``mapping``.
    description : str
        One line in words.
    formula : str
        The formula, in the notation of docs/measures.md §3 (n_ij = |L_i ∩ C_j|, classes L, clusters
        C).
    reference : str
        The paper that defines it.
    params : dict
        Parameters and their defaults (``{"beta": 1.0}``).
    overlap_aware : bool
        True when the metric has a definition for overlapping clusterings (docs/measures.md §3);
        False when
        it is computed on the (item, class, cluster) expansion of the contingency table, which
        equals the plain definition without overlap (see :mod:`metrics.model.contingency`).
    kernel : callable
        ``kernel(scorer, **params) -> ndarray (n_topics,)``: the per-topic values, read from a
        :class:`metrics.measures.scoring.SystemScorer` (which computes each family's shared
        quantities
        once: contingency table, entropies, pair counts, BCubed).
    param_checks : dict
        ``{param: (predicate, message)}``: a parsed value with ``predicate(value)`` false is
        refused with ``message``.
    type_level : bool
        True for the type-level measures, which need the word type of every item (a token
        tagging campaign, ``docs/type-level.md``).
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


_AMIGO09 = ("Amigó, Gonzalo, Artiles, Verdejo. A comparison of extrinsic clustering evaluation "
            "metrics based on formal constraints. Information Retrieval 12(4), 2009")
_RH07 = ("Rosenberg, Hirschberg. V-Measure: a conditional entropy-based external cluster "
         "evaluation measure. EMNLP-CoNLL 2007")
_MEILA = "Meilă. Comparing clusterings by the variation of information. COLT 2003"
_RR09 = ("Reichart, Rappoport. The NVI clustering evaluation measure. CoNLL 2009; "
         "Reichart, Abend, Rappoport. Type level clustering evaluation. 2010")
_HA85 = "Hubert, Arabie. Comparing partitions. Journal of Classification 2, 1985"
_RAND = "Rand. Objective criteria for the evaluation of clustering methods. JASA 66, 1971"
_FM = "Fowlkes, Mallows. A method for comparing two hierarchical clusterings. JASA 78, 1983"
_SEMEVAL10 = ("Manandhar, Klapaftis, Dligach, Pradhan. SemEval-2010 Task 14: word sense "
              "induction & disambiguation. 2010 (paired F-score)")
_ZK = ("Zhao, Karypis. Criterion functions for document clustering. 2001; "
       "Agirre, Soroa. SemEval-2007 Task 02 (FScore)")
_MD15 = ("Moreno, Dias. Adapted B-CUBED metrics to unbalanced datasets. SIGIR 2015, eq. 5")
_AGV13 = ("Amigó, Gonzalo, Verdejo. A general evaluation measure for document organization "
          "tasks. SIGIR 2013")
_GOLDWATER = ("Johnson. Why doesn't EM find good HMM POS-taggers? EMNLP 2007 (many-to-one, "
              "one-to-one accuracy)")


def _positive(v: float) -> bool:
    return v > 0 and math.isfinite(v)


#: the weighting parameters of Reliability and Sensitivity (docs/organisation.md)
#: Parameters of every Reliability / Sensitivity entry: the paper's ranking setting
#: (:data:`~metrics.measures.organisation.weights.DEFAULT_N`, ``DEFAULT_W``).
_RS_PARAMS = {"n": DEFAULT_N, "w": DEFAULT_W}
_RS_CHECKS = {"n": (lambda v: v > 0, "n must be positive"),
              "w": (lambda v: 0 < v < 1, "w must lie strictly between 0 and 1")}

_INFOS: tuple[MetricInfo, ...] = (
    MetricInfo("purity", 1, "set matching", "share of items in their cluster's majority class",
               "(1/n) Σ_j max_i n_ij; with overlap Σ_j max_i n_ij / Σ_j |C_j|", _AMIGO09,
               overlap_aware=True,
               kernel=lambda s: s.purity),
    MetricInfo("inverse_purity", 1, "set matching",
               "share of items in their class's majority cluster",
               "(1/n) Σ_i max_j n_ij; with overlap Σ_i max_j n_ij / Σ_i |L_i|", _AMIGO09,
               overlap_aware=True,
               kernel=lambda s: s.inverse_purity),
    MetricInfo("fscore", 1, "set matching",
               "clustering F (FScore): best-matching cluster per class",
               "Σ_i (|L_i|/n) max_j 2 n_ij / (|L_i| + |C_j|); with overlap n → Σ_i |L_i|", _ZK,
               overlap_aware=True,
               kernel=lambda s: s.fscore),
    MetricInfo("bcubed_precision", 1, "bcubed",
               "per item, share of its cluster mates that share its class (extended with overlap)",
               "(1/n) Σ_ij n_ij² / |C_j|; with overlap mean_e mean_{e': C(e)∩C(e')≠∅} "
               "min(|C∩C'|, |L∩L'|) / |C∩C'|", _AMIGO09, overlap_aware=True,
               kernel=lambda s: s.bcubed[0]),
    MetricInfo("bcubed_recall", 1, "bcubed",
               "per item, share of its class mates that share its cluster (extended with overlap)",
               "(1/n) Σ_ij n_ij² / |L_i|; with overlap mean_e mean_{e': L(e)∩L(e')≠∅} "
               "min(|C∩C'|, |L∩L'|) / |L∩L'|", _AMIGO09, overlap_aware=True,
               kernel=lambda s: s.bcubed[1]),
    MetricInfo("bcubed_adapted_recall", 1, "bcubed",
               "BCubed recall for k-tuples of items (Moreno & Dias): R^(k-1)",
               "R_mod = R_b3^(k-1)", _MD15, params={"k": 3}, overlap_aware=True,
               kernel=lambda s, k=3: s.adapted_recall(k),
               param_checks={"k": (lambda v: v >= 2, "k must be at least 2")}),
    # --- Reliability & Sensitivity (flat clusterings and document organisations,
    # docs/organisation.md); n and w weigh ranked positions and have no effect without a tail
    MetricInfo("reliability", 1, "reliability/sensitivity",
               "Reliability: weighted precision of the priority and relatedness relations an "
               "output states (a flat clustering: BCubed precision, occurrence-level with overlap)",
               "Σ_e w(e) R(e), R(e) = Σ_{e' related to e in X} w(e') P(r(e,e') ∈ G) / "
               "Σ_{e'} w(e'), P = min(1, |r in G| / |r in X|); the first n positions carry W_n = w "
               "of the weight when the collection has a tail", _AGV13,
               params=dict(_RS_PARAMS), overlap_aware=True,
               kernel=lambda s, n=DEFAULT_N, w=DEFAULT_W: s.reliability_sensitivity[0],
               param_checks=_RS_CHECKS),
    MetricInfo("sensitivity", 1, "reliability/sensitivity",
               "Sensitivity: Reliability with the output and the gold swapped (a flat clustering: "
               "BCubed recall, occurrence-level with overlap)",
               "as reliability, with X and G exchanged", _AGV13,
               params=dict(_RS_PARAMS), overlap_aware=True,
               kernel=lambda s, n=DEFAULT_N, w=DEFAULT_W: s.reliability_sensitivity[1],
               param_checks=_RS_CHECKS),
    # --- end Reliability & Sensitivity -------------------------------------------------------
    MetricInfo("homogeneity", 1, "entropy", "each cluster holds items of one class",
               "1 - H(C|K)/H(C) (1 when H(C) = 0); C = gold classes, K = clusters", _RH07,
               kernel=lambda s: s.entropies.homogeneity),
    MetricInfo("completeness", 1, "entropy", "each class lies in one cluster",
               "1 - H(K|C)/H(K) (1 when H(K) = 0)", _RH07,
               kernel=lambda s: s.entropies.completeness),
    MetricInfo("v_measure", 1, "entropy", "weighted harmonic mean of homogeneity and completeness",
               "(1+β) h c / (β h + c) (0 when β h + c = 0)", _RH07, params={"beta": 1.0},
               kernel=lambda s, beta=1.0: s.entropies.v_measure(beta),
               param_checks={"beta": (_positive, "beta must be a positive number")}),
    MetricInfo("vi", -1, "entropy", "variation of information (nats); lower is better",
               "H(C|K) + H(K|C)", _MEILA,
               kernel=lambda s: s.entropies.vi),
    MetricInfo("nvi", -1, "entropy", "normalised variation of information; lower is better",
               "VI / H(C), C the gold classes; VI / H(K) when H(C) = 0; 0 when both are 0", _RR09,
               kernel=lambda s: s.entropies.nvi),
    MetricInfo("h_c_given_k", -1, "entropy",
               "conditional entropy of the classes given the clusters (nats); lower is better",
               "H(C|K) = -Σ_ij (n_ij/n) log(n_ij/|C_j|)", _RH07,
               kernel=lambda s: s.entropies.h_c_given_k),
    MetricInfo("h_k_given_c", -1, "entropy",
               "conditional entropy of the clusters given the classes (nats); lower is better",
               "H(K|C) = -Σ_ij (n_ij/n) log(n_ij/|L_i|)", _RH07,
               kernel=lambda s: s.entropies.h_k_given_c),
    MetricInfo("rand", 1, "pair counting", "share of item pairs on which both clusterings agree",
               "(TP + TN) / C(n,2) (1 when n < 2)", _RAND,
               kernel=lambda s: s.pairs.rand),
    MetricInfo("adjusted_rand", 1, "pair counting", "Rand index corrected for chance",
               "(S - SA·SB/T) / ((SA+SB)/2 - SA·SB/T), S = Σ C(n_ij,2), SA = Σ C(|L_i|,2), "
               "SB = Σ C(|C_j|,2), T = C(n,2); 1 when the denominator is 0", _HA85,
               kernel=lambda s: s.pairs.adjusted_rand),
    MetricInfo("jaccard", 1, "pair counting", "Jaccard coefficient over co-clustered pairs",
               "TP / (TP + FP + FN) (1 when no pair is together in either)", _AMIGO09,
               kernel=lambda s: s.pairs.jaccard),
    MetricInfo("fowlkes_mallows", 1, "pair counting", "geometric mean of pair precision and recall",
               "TP / sqrt((TP+FP)(TP+FN)) (1 when both are all singletons)", _FM,
               kernel=lambda s: s.pairs.fowlkes_mallows),
    MetricInfo("pair_precision", 1, "pair counting", "share of system pairs that are gold pairs",
               "TP / (TP + FP) (1 when the system forms no pair)", _SEMEVAL10,
               kernel=lambda s: s.pairs.precision),
    MetricInfo("pair_recall", 1, "pair counting", "share of gold pairs the system forms",
               "TP / (TP + FN) (1 when the gold has no pair)", _SEMEVAL10,
               kernel=lambda s: s.pairs.recall),
    MetricInfo("pair_f", 1, "pair counting", "paired F-score (SemEval-2010)",
               "2 P R / (P + R) (0 when P + R = 0)", _SEMEVAL10,
               kernel=lambda s: s.pairs.f),
    MetricInfo("accuracy_m1", 1, "mapping",
               "many-to-one accuracy: each cluster → its majority class",
               "(1/n) Σ_j max_i n_ij", _GOLDWATER,
               kernel=lambda s: s.accuracy_m1),
    MetricInfo("accuracy_11", 1, "mapping",
               "one-to-one accuracy: optimal assignment of clusters to classes",
               "(1/n) max_σ Σ_j n_σ(j) j (scipy.optimize.linear_sum_assignment)", _GOLDWATER,
               kernel=lambda s: s.accuracy_11),
)

# --- type-level measures (Reichart, Abend, Rappoport 2010; docs/type-level.md) ----------------
_RAR10 = ("Reichart, Abend, Rappoport. Type level clustering evaluation: new measures and a POS "
          "induction case study. CoNLL 2010, §4")
_MAPPING_CHECKS = {
    "mapping": (lambda v: v in MAPPINGS, f"mapping is none of {', '.join(MAPPINGS)}"),
    "seconds": (lambda v: 0 <= v < math.inf, "seconds must be a number >= 0")}
_H = "h(B_i) = {h(k) : k ∈ B_i}, a set; under 1-1 an unmapped cluster counts in |h(B_i)|"


def _type_kernel(name: str) -> Callable[..., Any]:
    """The type-level kernel ``name`` of
    :data:`metrics.measures.typelevel.type_entries.TYPE_KERNELS`, imported on its first call
    (scipy.sparse and the mapping searches stay out of the start-up of every other metric)."""

    def kernel(scorer: Any, **params: Any) -> Any:
        from metrics.measures.typelevel.type_entries import TYPE_KERNELS  # noqa: PLC0415 - deferred: scipy.sparse at start-up

        return TYPE_KERNELS[name](scorer, **params)

    return kernel


def _type_info(name: str, description: str, formula: str, measure: str) -> MetricInfo:
    """A type-level entry: parameters ``mapping`` (one_to_one, many_to_one) and ``seconds``
    (time limit of the exact many-to-one search per topic, default by measure)."""
    return MetricInfo(name, 1, "type level", description, formula, _RAR10,
                      params={"mapping": "one_to_one", "seconds": DEFAULT_SECONDS[measure]},
                      type_level=True, kernel=_type_kernel(name), param_checks=_MAPPING_CHECKS)


_TYPE_INFOS: tuple[MetricInfo, ...] = (
    _type_info("type_macro_precision",
               "MacroI precision: gold tags of word types reached by their mapped clusters, per "
               "tag reached", f"Σ_i |A_i ∩ h(B_i)| / Σ_i |h(B_i)|; {_H}", "macro"),
    _type_info("type_macro_recall",
               "MacroI recall: share of the word types' gold tags reached by the mapping",
               "Σ_i |A_i ∩ h(B_i)| / Σ_i |A_i|", "macro"),
    _type_info("type_macro_f", "MacroI F: harmonic mean of MacroI P/R",
               "2 P R / (P + R) = 2 Σ_i |A_i ∩ h(B_i)| / (Σ_i |A_i| + Σ_i |h(B_i)|), h "
               "maximising it", "macro"),
    _type_info("type_macroc_f",
               "MacroC F: cluster-based macro F over the united clusters (equals MacroI F)",
               "2 Σ_z |z ∩ h(z)| / (Σ_c |c| + Σ_z |z|), z ∈ K_h (clusters mapped to one tag "
               "united), h of MacroI", "macro"),
    _type_info("type_micro_precision",
               "MicroI precision: mean over word types of the share of tags reached that are "
               "gold", "(1/l) Σ_i |A_i ∩ h(B_i)| / |h(B_i)|, h of MicroI", "micro"),
    _type_info("type_micro_recall",
               "MicroI recall: mean over word types of the share of gold tags reached",
               "(1/l) Σ_i |A_i ∩ h(B_i)| / |A_i|, h of MicroI", "micro"),
    _type_info("type_micro_f", "MicroI: mean over word types of the per-type F",
               f"(1/l) Σ_i 2 |A_i ∩ h(B_i)| / (|A_i| + |h(B_i)|); {_H}", "micro"),
    _type_info("type_microc_precision",
               "MicroC precision: per united cluster precision, weighted by cluster size",
               "Σ_z (|z| / N*) |z ∩ h(z)| / |z|, N* = Σ_z |z|, h of MicroC", "microc"),
    _type_info("type_microc_recall",
               "MicroC recall: per united cluster recall, weighted by cluster size",
               "Σ_z (|z| / N*) |z ∩ h(z)| / |h(z)|, h of MicroC", "microc"),
    _type_info("type_microc_f",
               "MicroC: per mapped (united) cluster F, weighted by cluster size",
               "Σ_z (|z| / N*) 2 |z ∩ h(z)| / (|z| + |h(z)|), z ∈ K_h", "microc"),
)
_INFOS = _INFOS + _TYPE_INFOS

#: Reliability / Sensitivity restricted to one kind of relation: document organisations
#: (docs/organisation.md), kept out of :func:`available_metrics` (the clustering metrics)
_ORGANISATION_INFOS: tuple[MetricInfo, ...] = (
    MetricInfo("reliability_priority", 1, "reliability/sensitivity",
               "Reliability over priority relations only (d above d')",
               "reliability restricted to d ≻ d' (a higher level, or prioritised vs the tail)",
               _AGV13, params=dict(_RS_PARAMS), overlap_aware=True,
               param_checks=_RS_CHECKS),
    MetricInfo("sensitivity_priority", 1, "reliability/sensitivity",
               "Sensitivity over priority relations only",
               "sensitivity restricted to d ≻ d'", _AGV13, params=dict(_RS_PARAMS),
               overlap_aware=True, param_checks=_RS_CHECKS),
    MetricInfo("reliability_relatedness", 1, "reliability/sensitivity",
               "Reliability over relatedness relations only (same cluster)",
               "reliability restricted to d ∼ d'", _AGV13, params=dict(_RS_PARAMS),
               overlap_aware=True, param_checks=_RS_CHECKS),
    MetricInfo("sensitivity_relatedness", 1, "reliability/sensitivity",
               "Sensitivity over relatedness relations only (same cluster)",
               "sensitivity restricted to d ∼ d'", _AGV13, params=dict(_RS_PARAMS),
               overlap_aware=True, param_checks=_RS_CHECKS),
)

_REGISTRY: dict[str, MetricInfo] = {m.name: m for m in _INFOS + _ORGANISATION_INFOS}

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
    """Every registered clustering metric, in registry order; with ``type_level`` the type-level
    ones too (they need a token tagging campaign, ``docs/type-level.md``), with ``organisation``
    the priority / relatedness parts of Reliability and Sensitivity (``docs/organisation.md``)."""
    return ([m for m in _INFOS if type_level or not m.type_level]
            + (list(_ORGANISATION_INFOS) if organisation else []))


def metric_info(name: str) -> MetricInfo:
    """The :class:`MetricInfo` of a canonical name (parameters allowed: ``v_measure(beta=2)``)."""
    return _REGISTRY[parse_metric(name).name]


def direction(name: str) -> int:
    """+1 when higher is better, -1 when lower is better.

    Accepts parameterised names (``v_measure(beta=2)``). Unknown names give +1: this is used
    on user score tables with arbitrary metric names.
    """
    base = str(name).split("(", 1)[0].strip()
    info = _REGISTRY.get(base)
    return info.direction if info is not None else 1


def _format_value(v: object) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


@dataclass(frozen=True, eq=False)
class MetricSpec:
    """A metric with its parameters, as parsed from ``name(p=v, ...)``.

    ``params`` holds every parameter of the metric, defaults filled in. ``str(spec)`` is the
    canonical string: the name, followed by the parameters that differ from their default
    (``v_measure`` for beta=1, ``v_measure(beta=2)`` otherwise). Two specs are equal when their
    canonical strings are.
    """

    name: str
    params: dict = field(default_factory=dict)

    def __str__(self) -> str:
        defaults = _REGISTRY[self.name].params if self.name in _REGISTRY else {}
        shown = [(k, v) for k, v in self.params.items() if defaults.get(k, object()) != v]
        if not shown:
            return self.name
        return f"{self.name}({', '.join(f'{k}={_format_value(v)}' for k, v in shown)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MetricSpec) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    @property
    def info(self) -> MetricInfo:
        return _REGISTRY[self.name]

    @property
    def direction(self) -> int:
        return self.info.direction


_NAME_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


def _unknown(name: str) -> UnanimityError:
    return UnanimityError(
        f"unknown metric {name!r}; known metrics: {', '.join(_REGISTRY)}"
    )


def _coerce(metric: str, key: str, raw: str, default: object) -> object:
    raw = raw.strip()
    if isinstance(default, str):  # a word, checked by the metric's param_checks below
        value: object = raw.strip("'\"")
    else:
        value = _number(metric, key, raw, default)
    check = _REGISTRY[metric].param_checks.get(key)
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

    Raises
    ------
    UnanimityError
        For an unknown name (the message lists the known ones), an unknown parameter or a value
        of the wrong type.
    """
    if isinstance(text, MetricSpec):
        return text
    m = _NAME_RE.match(str(text))
    if not m or m.group(1) not in _REGISTRY or _REGISTRY[m.group(1)].family == "ir_measures":
        ir = _ir_measure_spec(str(text))  # nDCG@10, AP(rel=2), ... through ir_measures
        if ir is not None:
            return ir
    if not m:
        raise UnanimityError(f"cannot read metric {text!r}; expected name or name(param=value)")
    name, args = m.group(1), m.group(2)
    if name not in _REGISTRY:
        raise _unknown(name)
    defaults = _REGISTRY[name].params
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


# --- IR measures (ir_measures) and the metric pairs of a campaign's task ----------------------
_IR_REFERENCE = ("MacAvaney, Macdonald, Ounis. Streamlining evaluation with ir-measures. ECIR "
                 "2022; computed by pytrec_eval / trec_eval")


def _ir_measure_spec(text: str) -> MetricSpec | None:
    """A spec for an ``ir_measures`` name (registered on first use), or None."""

    measure = parse_ir_measure(text)
    if measure is None:
        return None
    name = str(measure)
    if name not in _REGISTRY:
        _REGISTRY[name] = MetricInfo(name, 1, "ir_measures", f"IR measure {name} (trec_eval)",
                                     f"{name} as ir_measures and trec_eval define it",
                                     _IR_REFERENCE)
    return MetricSpec(name, {})


def label_name(text: str) -> str:
    """A metric name as a label of a score table: a name of the project's registry in its
    canonical spelling (``v_measure(beta=2.0)`` -> ``v_measure(beta=2)``, as ``evaluate``
    writes it), any other name exactly as given (stripped). ``ir_measures``' aliases are not
    applied: in a score table ``MAP`` and ``MRR`` are the user's own labels, not ``AP``, ``RR``.
    """
    m = _NAME_RE.match(str(text))
    if m and m.group(1) in _REGISTRY and _REGISTRY[m.group(1)].family != "ir_measures":
        try:
            return str(parse_metric(text))
        except UnanimityError:
            pass
    return str(text).strip()


def is_ir_measure(spec: MetricSpec) -> bool:
    """True for a measure computed by ``ir_measures``."""
    return spec.name in _REGISTRY and _REGISTRY[spec.name].family == "ir_measures"


def default_metric_pairs(campaign) -> dict[str, tuple[str, str]]:
    """The precision-like / recall-like pairs that fit a campaign's task, best first.

    Organisations with a tail (rankings): Reliability/Sensitivity, P@10/R@10 and nDCG@10/AP
    (``ir_measures`` names); other organisations: Reliability/Sensitivity and their priority and
    relatedness parts; token tagging campaigns (``campaign.item_type`` set):
    :data:`TYPE_LEVEL_PAIRS` first, then the token-level :data:`METRIC_PAIRS`; flat clusterings:
    :data:`METRIC_PAIRS`; a score table: none.
    """
    if not campaign.has_clusterings:
        return {}
    if getattr(campaign, "item_type", None) is not None:
        return {**TYPE_LEVEL_PAIRS, **METRIC_PAIRS}
    if campaign.tail:
        return {"Reliability/Sensitivity": ("reliability", "sensitivity"),
                "P@10/R@10": ("P@10", "R@10"),
                "nDCG@10/AP": ("nDCG@10", "AP")}
    if campaign.is_organisation:
        return {"Reliability/Sensitivity": ("reliability", "sensitivity"),
                "Priority R/S": ("reliability_priority", "sensitivity_priority"),
                "Relatedness R/S": ("reliability_relatedness", "sensitivity_relatedness")}
    return dict(METRIC_PAIRS)
# --- end IR measures ------------------------------------------------------------------------


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
