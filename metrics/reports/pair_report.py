"""One ordered pair's row of the comparison report, as a typed record: what a reader of the
report (the dashboard's Compare page, a script) says about "a against b"."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import pandas as pd

from metrics.comparison.profiles import improves_symbol, profile_of
from metrics.comparison.reference import improves
from metrics.reports.numbers import signed_uir

__all__ = ["PairReport", "MetricVerdict", "pair_report", "verdict_sentence", "ComparisonTables"]


class ComparisonTables(Protocol):
    """What :func:`pair_report` reads of a comparison: the tables of a
    :class:`~metrics.reports.comparison_report.CampaignComparison` or of a reopened
    :class:`~metrics.reports.bundle.Bundle`."""

    @property
    def parameters(self) -> dict: ...
    @property
    def pairs(self) -> pd.DataFrame: ...
    @property
    def systems(self) -> pd.DataFrame: ...
    @property
    def tests(self) -> pd.DataFrame | None: ...
    @property
    def uir_metrics(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class MetricVerdict:
    """The paired test of one metric for the ordered pair (a, b).

    Attributes
    ----------
    metric : str
    delta : float
        Mean oriented per-topic difference a - b (a lower-is-better metric is negated first, so
        > 0 always means a is better).
    direction : int
        +1 improvement, -1 worsening, 0 none: the sign of the test's location statistic turned by
        the metric's direction.
    p_raw, p_corrected : float
        The test's p-value, and after the correction across all pairs (NaN without a test).
    verdict : str or None
        ``"improves"``, ``"worsens"`` or ``"no significant difference"``
        (:func:`metrics.comparison.significance.metric_verdicts`); None without a test.
    n : int or None
        Topics the test used (None without a test).
    """

    metric: str
    delta: float
    direction: int
    p_raw: float
    p_corrected: float
    verdict: str | None
    n: int | None


@dataclass(frozen=True)
class PairReport:
    """Everything the report says about the ordered pair (a, b) at its alpha and threshold.

    ``uir_verdict`` is ``"a"`` when a improves b robustly (UIR(a, b) >= threshold, or > under
    a profile with the strict rule: ``strict``, :func:`metrics.comparison.reference.improves`),
    ``"b"`` when b improves a, else None. ``better_for_every_alpha`` is ``"a"`` when
    F_alpha(a) > F_alpha(b) for every alpha, ``"b"`` for the reverse, else None.
    """

    system_a: str
    system_b: str
    alpha: float
    threshold: float
    f_a: float
    f_b: float
    rank_a: int
    rank_b: int
    delta_f: float
    uir: float
    n_a_better: int
    n_b_better: int
    n_tied: int
    n_biased: int
    n_topics: int
    uir_param: float
    uir_verdict: str | None
    better_for_every_alpha: str | None
    crossings: tuple[float, ...]
    pair_class: str | None
    test: str
    correction: str
    level: float
    metrics: tuple[MetricVerdict, ...]
    strict: bool = False


def _none_if_nan(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return v


def pair_report(comp: ComparisonTables, a: str, b: str) -> PairReport:
    """The row (a, b) of ``comp.pairs`` with the systems' F and ranks and the per-metric tests.

    Raises
    ------
    KeyError
        When (a, b) is not an ordered pair of two different systems of the comparison.
    """
    pairs = comp.pairs
    hit = pairs.index[(pairs["system_a"] == a) & (pairs["system_b"] == b)]
    back = pairs.index[(pairs["system_a"] == b) & (pairs["system_b"] == a)]
    if len(hit) != 1 or len(back) != 1:
        raise KeyError(f"({a!r}, {b!r}) is not an ordered pair of two systems of the comparison")
    row = pairs.loc[hit[0]]
    rev = pairs.loc[back[0]]
    sysf = comp.systems.set_index("system")
    p = comp.parameters
    thr = float(p["threshold"])
    u = float(row["uir"])
    strict = profile_of(p).strict_improved
    uir_verdict = ("a" if improves(u, thr, strict) else
                   ("b" if improves(-u, thr, strict) else None))
    better = ("a" if bool(row["beats_all_alpha"])
              else ("b" if bool(rev["beats_all_alpha"]) else None))
    n_used: dict[str, int] = {}
    if comp.tests is not None:
        t = comp.tests
        sub = t[(t["system_a"] == a) & (t["system_b"] == b)]
        n_used = dict(zip(sub["metric"], (int(v) for v in sub["n"]), strict=True))
    verdicts = tuple(
        MetricVerdict(
            metric=m,
            delta=float(row[f"delta_{m}"]),
            direction=int(row[f"direction_{m}"]),
            p_raw=float(row[f"p_raw_{m}"]),
            p_corrected=float(row[f"p_{m}"]),
            verdict=_none_if_nan(row[f"verdict_{m}"]),
            n=n_used.get(m),
        )
        for m in comp.uir_metrics
    )
    return PairReport(
        system_a=a, system_b=b, alpha=float(p["alpha"]), threshold=thr,
        f_a=float(row["f_a"]), f_b=float(row["f_b"]),
        rank_a=int(sysf.loc[a, "rank"]), rank_b=int(sysf.loc[b, "rank"]),
        delta_f=float(row["delta_f"]), uir=u,
        n_a_better=int(row["n_a_better"]), n_b_better=int(row["n_b_better"]),
        n_tied=int(row["n_tied"]), n_biased=int(row["n_biased"]), n_topics=int(row["n_topics"]),
        uir_param=float(row["uir_param"]), uir_verdict=uir_verdict,
        better_for_every_alpha=better, crossings=tuple(float(x) for x in row["crossings"]),
        pair_class=_none_if_nan(row["pair_class"]), test=str(p["test"]),
        correction=str(p["correction"]), level=float(p["level"]), metrics=verdicts,
        strict=strict,
    )


def _alphas(xs: tuple[float, ...], most: int = 3) -> str:
    shown = ", ".join(f"{x:.2f}" for x in xs[:most])
    return shown + (f" and {len(xs) - most} more" if len(xs) > most else "")


def verdict_sentence(rep: PairReport, names: tuple[str, str] | None = None) -> str:
    """The report's verdict on the pair in one sentence (the first line of the Compare page and
    of the HTML report).

    Robust when ``|UIR(a, b)| >= threshold`` (Amigó et al., JAIR 2011: UIR counts the topics
    where one system is at least as good on every metric); the F_alpha clause says whether the
    order of the two F_alpha curves holds for every alpha or flips (at the crossings).

    Examples: ``"x improves y robustly: UIR = +0.40 >= 0.25 (x at least as good on every metric
    on 6 of 10 topics, y on 2); x has the higher F_alpha for every alpha."`` and ``"x's UIR of
    +0.03 over y is not robust (below 0.25); the F_alpha order flips at alpha = 0.48."``
    ``names`` replaces the two system names (the Compare page says "A" and "B", named above).
    """
    a, b = names or (rep.system_a, rep.system_b)
    u, t = rep.uir, rep.threshold
    if rep.uir_verdict in ("a", "b"):
        win, lose = (a, b) if rep.uir_verdict == "a" else (b, a)
        nw, nl = ((rep.n_a_better, rep.n_b_better) if rep.uir_verdict == "a"
                  else (rep.n_b_better, rep.n_a_better))
        sign = improves_symbol(rep.strict)
        head = (f"{win} improves {lose} robustly: UIR = {signed_uir(abs(u), t)} {sign} {t:.2f} "
                f"({win} at least as good on every metric on {nw} of {rep.n_topics} topics, "
                f"{lose} on {nl})")
    elif u is None or math.isnan(u):
        head = f"UIR of {a} over {b} is undefined (no topic)"
    else:
        head = (f"{a}'s UIR of {signed_uir(u, t)} over {b} is not robust (|UIR| "
                f"{'not above' if rep.strict else 'below'} {t:.2f})")
    if rep.better_for_every_alpha in ("a", "b"):
        best = a if rep.better_for_every_alpha == "a" else b
        tail = f"{best} has the higher F\u03b1 for every \u03b1"
    elif rep.crossings:
        tail = f"the F\u03b1 order flips at \u03b1 = {_alphas(rep.crossings)}"
    else:
        tail = "the two F\u03b1 curves touch without crossing"
    sep = "; yet " if rep.uir_verdict and rep.crossings and not rep.better_for_every_alpha else "; "
    return f"{head}{sep}{tail}."
