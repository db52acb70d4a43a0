"""Composite measures: F_alpha of any two metrics, and R*S (docs/providers.md, Composites).

* ``F(m1, m2, alpha=0.5)``: van Rijsbergen's F_alpha of two registered metrics, topic by topic,

      F_alpha(m1, m2) = 1 / (alpha / m1 + (1 - alpha) / m2),    0 when m1 or m2 is 0

  (:func:`metrics.comparison.van_rijsbergen.f_alpha`; Amigó, Gonzalo, Artiles, Verdejo, JAIR 42,
  2011, §2). Both parts must lie in [0, 1] with higher better (their declared range and
  direction are checked when the name is read); ``alpha`` in [0, 1] weighs the first.
* ``rs_f``: R*S, the harmonic mean of Reliability and Sensitivity (alpha = 0.5; Amigó, Gonzalo,
  Verdejo, SIGIR 2013), with their ``n`` and ``w``.

A composite is computed from its parts' per-topic values (each part scored by its own
provider, once, however many composites share it), so it applies wherever its parts do, and
the Dask engine computes it when it computes both parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from metrics.comparison.van_rijsbergen import f_alpha
from metrics.errors import UnanimityError
from metrics.measures.citations import AGV13
from metrics.measures.organisation.weights import DEFAULT_N, DEFAULT_W
from metrics.measures.provider import (
    UNIT,
    MetricInfo,
    MetricSpec,
    Provider,
    format_value,
    split_metric_list,
)
from metrics.model.campaign_kinds import ALL_KINDS

__all__ = ["CompositeProvider", "DEFAULT_COMPOSITE_ALPHA", "composite_of_labels"]

#: alpha of ``F(m1, m2)`` when none is given: the harmonic mean
DEFAULT_COMPOSITE_ALPHA = 0.5
_JAIR11 = ("Amigó, Gonzalo, Artiles, Verdejo. Combining evaluation metrics via the unanimous "
           "improvement ratio and its application to clustering tasks. JAIR 42, 2011, §2")
_F_RE = re.compile(r"^\s*F\s*\((.*)\)\s*$", re.S)
_RS_CHECKS = {"n": (lambda v: v > 0, "n must be positive"),
              "w": (lambda v: 0 < v < 1, "w must lie strictly between 0 and 1")}


def _check_part(text: str, spec: MetricSpec) -> None:
    info = spec.info
    if info.direction != 1 or tuple(info.value_range) != UNIT:
        better = "higher" if info.direction > 0 else "lower"
        lo, hi = info.value_range
        raise UnanimityError(
            f"metric {text!r}: F combines two metrics in [0, 1] where higher is better; "
            f"{spec} lies in [{format_value(lo)}, {format_value(hi)}] and {better} is better")


def _split_f(text: str) -> tuple[list[str], float] | None:
    """The two part names and alpha of ``F(m1, m2[, alpha=a])``, or None for another name."""
    m = _F_RE.match(text)
    if not m:
        return None
    args = split_metric_list(m.group(1))
    alpha = DEFAULT_COMPOSITE_ALPHA
    if args and args[-1].replace(" ", "").startswith("alpha="):
        raw = args.pop().split("=", 1)[1].strip()
        try:
            alpha = float(raw)
        except ValueError:
            raise UnanimityError(f"metric {text!r}: alpha={raw!r} is not a number") from None
        if not 0 <= alpha <= 1:
            raise UnanimityError(f"metric {text!r}: alpha must lie in [0, 1], got {raw}")
    if len(args) != 2:
        raise UnanimityError(f"metric {text!r}: F takes two metrics and an optional "
                             "alpha, e.g. F(bcubed_precision,bcubed_recall,alpha=0.5)")
    return args, alpha


def composite_of_labels(text: str) -> tuple[tuple[str, str], float] | None:
    """A composite over a score table's own labels: the two labels (as written, not re-read as
    registered names: ``MAP`` stays ``MAP``) and alpha of ``F(m1, m2, alpha=…)``, or of ``rs_f``
    (``reliability``, ``sensitivity``, 0.5); None for any other name."""
    if text.strip() == "rs_f":
        return ("reliability", "sensitivity"), DEFAULT_COMPOSITE_ALPHA
    split = _split_f(text)
    if split is None:
        return None
    (a, b), alpha = split
    return (a, b), alpha


class CompositeProvider(Provider):
    """F_alpha of any two metrics, and R*S."""

    family = "composite"
    kinds = ALL_KINDS
    dask = True
    composite = True
    patterns = (("F(m1,m2)", "alpha=0.5", "F_alpha of two metrics in [0, 1], higher better: "
                 "1 / (alpha / m1 + (1 - alpha) / m2), e.g. F(nDCG@10,AP(rel=2),alpha=0.3)"),)
    infos: tuple[MetricInfo, ...] = (
        MetricInfo("rs_f", 1, "composite",
                   "R*S: the harmonic mean of Reliability and Sensitivity",
                   "2 R S / (R + S) (0 when R or S is 0)", AGV13,
                   params={"n": DEFAULT_N, "w": DEFAULT_W}, overlap_aware=True,
                   param_checks=_RS_CHECKS),
    )

    def parse(self, text: str, parse_metric: Callable[[str], MetricSpec]) -> MetricSpec | None:
        split = _split_f(text)
        if split is None:
            return None
        args, alpha = split
        parts = tuple(parse_metric(a) for a in args)
        for part in parts:
            _check_part(text, part)
        if parts[0] == parts[1]:
            raise UnanimityError(f"metric {text!r}: F needs two different metrics")
        shown = "" if alpha == DEFAULT_COMPOSITE_ALPHA else f",alpha={format_value(alpha)}"
        label = f"F({parts[0]},{parts[1]}{shown})"
        info = MetricInfo(label, 1, self.family,
                          f"F_alpha of {parts[0]} and {parts[1]} (alpha = {alpha:g})",
                          f"1 / ({alpha:g} / m1 + {1 - alpha:g} / m2), 0 when m1 or m2 is 0",
                          _JAIR11, params={"alpha": alpha}, value_range=UNIT)
        return MetricSpec("F", {"alpha": alpha}, label=label, meta=info, parts=parts,
                          source=self)

    def components(self, spec: MetricSpec) -> tuple[MetricSpec, ...]:
        if spec.name == "rs_f":
            params = {"n": spec.params["n"], "w": spec.params["w"]}
            return (MetricSpec("reliability", dict(params)),
                    MetricSpec("sensitivity", dict(params)))
        return spec.parts

    def kernel(self, spec: MetricSpec, campaign) -> None:
        return None

    def combine(self, spec: MetricSpec, parts: Sequence[np.ndarray]) -> np.ndarray:
        alpha = spec.params.get("alpha", DEFAULT_COMPOSITE_ALPHA)
        return np.asarray(f_alpha(parts[0], parts[1], alpha), dtype=np.float64)
