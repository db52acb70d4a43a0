"""The papers' tables on demand, from a comparison (docs/rankings.md, "The papers' tables").

* **JAIR Table 5** (Amigó, Gonzalo, Artiles, Verdejo 2011): mean UIR and mean |ΔF_alpha|
  over the pairs where F_alpha increases, split by "a beats b for every alpha" vs the others.
* **JAIR Table 6** : the same means by significance class of the pair (concordant,
  opposite, none; concordant worsening where it occurs).
* **WePS Table 2** (Amigó, Artiles, Gonzalo): Wilcoxon on per-topic F_alpha at two alphas
  (0.5 and 0.2 by default) for every pair, and the pairs where a significant improvement at one
  alpha is a significant loss at the other.
* **Weakest-metric improvement over the ten pairs with the largest improvement** (JAIR
  Fig. 10; WePS Fig. 5), next to the all-pairs version of :func:`metrics.analyses.compare`.
* **Improved systems** of the comparison, under its profile's rule: the papers' strict
  ``UIR > t`` (WePS Table 5, profile ``jair2011``) or ``UIR >= t``
  (:mod:`metrics.comparison.reference`).
* **Random baselines averaged over k = 2..20** (Moreno & Dias 2015, Table 2): UniformRand and
  UltraShapedRand, ``runs`` seeds per k, campaign F_alpha (alpha = 0.9 as the paper).

Choices where the papers are silent, made here:

* Tables 5-6 take each unordered pair once, oriented so that ΔF = F_alpha(a) - F_alpha(b) > 0 at
  the comparison's alpha (pairs with ΔF = 0 are left out: nothing increases); UIR is UIR(a, b)
  of that orientation; ``mean_rel_delta_f`` is the mean of ΔF / F_alpha(b) (the paper's
  "relative increase"), NaN where F_alpha(b) = 0 is skipped.
* "The ten pairs with the largest improvement" are, among the ordered pairs that improve every
  metric on average, the ten with the largest weakest-metric improvement min_x mean(Δx)
  ("the largest improvement for both criteria"; ties by pair order).
* WePS Table 2's p-values are two-sided; a pair "reverses" when it is significant at both alphas
  with opposite signs of the mean difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from metrics.analyses.baselines import baseline_membership
from metrics.comparison.combine import f_alpha
from metrics.comparison.profiles import profile_of
from metrics.comparison.significance import pair_tests
from metrics.errors import UnanimityError
from metrics.measures.scoring import evaluate
from metrics.model.score_table import score_cube, validate_score_table
from metrics.reports.latex import latex_escape

__all__ = ["PaperTables", "jair_table5", "jair_table6", "weps_table2", "weakest_metric_top",
           "random_baselines_by_k", "paper_tables", "booktabs"]

_CLASS_ORDER = ("concordant", "opposite", "none", "worsening")


def _increasing_pairs(pairs: pd.DataFrame) -> pd.DataFrame:
    """Each unordered pair once, oriented with ΔF > 0."""
    if "delta_f" not in pairs:
        raise UnanimityError("the pairs table has no delta_f column (a CampaignComparison's pairs)")
    return pairs[pairs["delta_f"].to_numpy(dtype=np.float64) > 0]


def _means(df: pd.DataFrame, key: pd.Series, order: Sequence) -> pd.DataFrame:
    f_b = df["f_b"].to_numpy(dtype=np.float64)
    d = df["delta_f"].to_numpy(dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(f_b > 0, d / f_b, np.nan)
    g = pd.DataFrame({"key": key.to_numpy(), "uir": df["uir"].to_numpy(dtype=np.float64),
                      "abs_delta_f": np.abs(d), "rel_delta_f": rel})
    agg = g.groupby("key", sort=False).agg(n_pairs=("uir", "size"), mean_uir=("uir", "mean"),
                                          mean_abs_delta_f=("abs_delta_f", "mean"),
                                          mean_rel_delta_f=("rel_delta_f", "mean"))
    agg = agg.reindex(list(order))
    agg["n_pairs"] = agg["n_pairs"].fillna(0).astype(np.int64)
    return agg.rename_axis(None).reset_index(names="set")


def jair_table5(pairs: pd.DataFrame) -> pd.DataFrame:
    """JAIR 2011 Table 5: ``set`` (``all_alpha`` / ``other``), ``n_pairs, mean_uir,
    mean_abs_delta_f, mean_rel_delta_f`` over the pairs where F_alpha increases."""
    inc = _increasing_pairs(pairs)
    key = inc["beats_all_alpha"].astype(bool).map({True: "all_alpha", False: "other"})
    return _means(inc, key, ("all_alpha", "other"))


def jair_table6(pairs: pd.DataFrame) -> pd.DataFrame:
    """JAIR 2011 Table 6: the means of :func:`jair_table5` by pair class (``set`` = class);
    empty when the comparison ran no test."""
    inc = _increasing_pairs(pairs)
    if inc["pair_class"].isna().all():
        return _means(inc.iloc[:0], inc["pair_class"].iloc[:0], _CLASS_ORDER)
    return _means(inc, inc["pair_class"].astype(str), _CLASS_ORDER)


def weps_table2(table: pd.DataFrame, precision: str, recall: str,
                alphas: tuple[float, float] = (0.5, 0.2), correction: str = "none",
                level: float = 0.05) -> tuple[pd.DataFrame, dict]:
    """WePS Table 2: Wilcoxon on per-topic F_alpha at two alphas, for every unordered pair.

    Returns
    -------
    (DataFrame, dict)
        One row per unordered pair (system order): ``system_a, system_b`` and, for each alpha
        ``x`` (formatted ``%g``), ``f_a_x, f_b_x`` (campaign macro F), ``delta_x`` (mean per-topic
        difference), ``p_x`` (p-value after ``correction``), then ``reverses``; and the counts
        ``n_pairs, significant_<x>, reversed``.
    """
    a1, a2 = (float(a) for a in alphas)
    table = validate_score_table(table)
    cube = score_cube(table, [precision, recall])
    P, R = cube.values[:, :, 0], cube.values[:, :, 1]
    names = [f"F_{a1:g}", f"F_{a2:g}"]
    S, T = P.shape
    frames = []
    for name, a in zip(names, (a1, a2), strict=True):
        frames.append(pd.DataFrame({"system": np.repeat(cube.systems, T),
                                    "topic": np.tile(cube.topics, S), "metric": name,
                                    "value": f_alpha(P, R, a).ravel()}))
    ft = pd.concat(frames, ignore_index=True).dropna(subset=["value"])
    tests = pair_tests(ft, names, test="wilcoxon", correction=correction,
                       systems=list(cube.systems), directions={n: 1 for n in names})
    idx = {s: i for i, s in enumerate(cube.systems)}
    tests = tests[tests["system_a"].map(idx) < tests["system_b"].map(idx)]
    wide = tests.pivot(index=["system_a", "system_b"], columns="metric",
                       values=["delta", "pvalue_corrected"])
    order = pd.MultiIndex.from_frame(tests[["system_a", "system_b"]].drop_duplicates())
    wide = wide.reindex(order)
    out = pd.DataFrame({"system_a": order.get_level_values(0),
                        "system_b": order.get_level_values(1)})
    means = np.nanmean(f_alpha(P[:, :, None], R[:, :, None], np.array([a1, a2])), axis=1)
    ia = out["system_a"].map(idx).to_numpy()
    ib = out["system_b"].map(idx).to_numpy()
    sig = []
    for k, (name, a) in enumerate(zip(names, (a1, a2), strict=True)):
        tag = f"{a:g}"
        out[f"f_a_{tag}"] = means[ia, k]
        out[f"f_b_{tag}"] = means[ib, k]
        out[f"delta_{tag}"] = wide[("delta", name)].to_numpy()
        out[f"p_{tag}"] = wide[("pvalue_corrected", name)].to_numpy()
        sig.append(out[f"p_{tag}"].to_numpy() < level)
    d1 = np.sign(out[f"delta_{a1:g}"].to_numpy())
    d2 = np.sign(out[f"delta_{a2:g}"].to_numpy())
    out["reverses"] = sig[0] & sig[1] & (d1 * d2 < 0)
    counts = {"n_pairs": len(out), f"significant_{a1:g}": int(sig[0].sum()),
              f"significant_{a2:g}": int(sig[1].sum()), "reversed": int(out["reverses"].sum()),
              "correction": correction, "level": level}
    return out, counts


def _pearson(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    if x.size < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan")
    r = stats.pearsonr(x, y)
    return float(r.statistic), float(r.pvalue)


def weakest_metric_top(weakest_points: pd.DataFrame, n: int = 10) -> dict:
    """Weakest-metric improvement vs UIR over the ``n`` pairs with the largest weakest-metric
    improvement (JAIR Fig. 10): ``pearson_r, pvalue, n, points`` like the all-pairs version."""
    pts = weakest_points.sort_values("weakest_delta", ascending=False, kind="stable").head(n)
    pts = pts.reset_index(drop=True)
    r, p = _pearson(pts["weakest_delta"].to_numpy(dtype=np.float64),
                    pts["uir"].to_numpy(dtype=np.float64))
    return {"pearson_r": r, "pvalue": p, "n": len(pts), "points": pts}


def random_baselines_by_k(campaign, precision: str, recall: str, ks: Sequence[int] = range(2, 21),
                          runs: int = 10, alpha: float = 0.9, seed: int = 0,
                          missing: str = "penalize") -> pd.DataFrame:
    """Moreno & Dias (2015) Table 2: UniformRand (``random``) and UltraShapedRand
    (``ultra-shaped``) baselines with k clusters per topic, ``runs`` seeds each, scored by macro
    F_alpha of ``precision`` / ``recall``.

    Returns
    -------
    DataFrame
        ``algorithm, k, f_mean, f_sd`` (over runs), ``precision, recall`` (means over runs and
        topics); then one row per algorithm with ``k = "2-20"`` (the range given): the means over k.
    """

    ks = [int(k) for k in ks]
    if not ks or min(ks) < 1 or runs < 1:
        raise UnanimityError("random baselines need k >= 1 and at least one run")
    extra, keys = {}, []
    for algo in ("random", "ultra-shaped"):
        for k in ks:
            for r in range(runs):
                name = f"__{algo}_k{k}_r{r}"
                extra[name] = baseline_membership(campaign, algo, k=k, seed=seed + r)
                keys.append((name, algo, k, r))
    scores = evaluate(campaign.with_runs(extra), [precision, recall], missing=missing,
                      systems=list(extra))
    cube = score_cube(scores, [precision, recall], systems=list(extra))
    P, R = cube.values[:, :, 0], cube.values[:, :, 1]
    F = np.nanmean(f_alpha(P, R, alpha), axis=1)
    runs_df = pd.DataFrame(keys, columns=["name", "algorithm", "k", "run"])
    runs_df["f"] = F
    runs_df["precision"] = np.nanmean(P, axis=1)
    runs_df["recall"] = np.nanmean(R, axis=1)
    g = runs_df.groupby(["algorithm", "k"], sort=False)
    out = g.agg(f_mean=("f", "mean"), f_sd=("f", "std"), precision=("precision", "mean"),
                recall=("recall", "mean")).reset_index()
    out["f_sd"] = out["f_sd"].fillna(0.0)
    avg = out.groupby("algorithm", sort=False)[["f_mean", "precision", "recall"]].mean()
    avg = avg.reset_index().assign(k=f"{min(ks)}-{max(ks)}", f_sd=np.nan)
    out["k"] = out["k"].astype(str)
    return pd.concat([out, avg[out.columns]], ignore_index=True)


@dataclass(frozen=True, eq=False)
class PaperTables:
    """Every table of :func:`paper_tables` (names = the bundle's file names)."""

    tables: dict
    summary: dict

    def to_latex(self) -> str:
        """Booktabs tables of JAIR Tables 5-6 and the WePS Table 2 counts."""
        parts = [booktabs(self.tables["jair_table5"], "JAIR 2011 Table 5: pairs where F "
                          "increases, by whether it increases for every alpha."),
                 booktabs(self.tables["jair_table6"], "JAIR 2011 Table 6: pairs where F "
                          "increases, by significance class.")]
        return "\n".join(parts)


def booktabs(df: pd.DataFrame, caption: str, digits: int = 3) -> str:
    """A small booktabs table of a data frame (numbers with ``digits`` decimals)."""

    cols = list(df.columns)
    align = "".join("r" if pd.api.types.is_numeric_dtype(df[c]) else "l" for c in cols)
    lines = [r"\begin{table}[ht]", r"\centering", r"\small", rf"\begin{{tabular}}{{{align}}}",
             r"\toprule", " & ".join(latex_escape(c) for c in cols) + r" \\", r"\midrule"]
    for row in df.itertuples(index=False):
        cells = []
        for v in row:
            if isinstance(v, (float, np.floating)):
                cells.append("--" if np.isnan(v) else f"{v:.{digits}f}")
            else:
                cells.append(latex_escape(v))
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}",
              r"\end{table}", ""]
    return "\n".join(lines)


def paper_tables(result, table: pd.DataFrame, weakest_top: int | None = None,
                 weps_alphas: tuple[float, float] = (0.5, 0.2), campaign=None,
                 baseline_runs: int = 10, baseline_alpha: float = 0.9) -> PaperTables:
    """All the papers' tables of a :class:`metrics.reports.comparison_report.CampaignComparison` of
    ``table``.

    ``jair_table5``, ``jair_table6``, ``weps_table2`` (correction as the comparison's),
    ``weakest_metric_top`` (the ``weakest_top`` pairs; default: the comparison's profile's, ten),
    ``improved_systems`` (the comparison's own, under its profile's rule: read from
    ``result.systems``, never recomputed) and, when a ``campaign`` with clusterings is given,
    ``random_baselines`` (k = 2..20). ``summary`` holds the counts and correlations.
    """
    p = result.parameters
    pairs = result.pairs
    profile = profile_of(p)
    weakest_top = profile.weakest_top if weakest_top is None else int(weakest_top)
    weps, weps_counts = weps_table2(table, p["precision"], p["recall"], weps_alphas,
                                    correction=p.get("correction", "none"),
                                    level=p.get("level", 0.05))
    top = weakest_metric_top(result.weakest_metric["points"], weakest_top)
    imp = result.systems[["system", "improved_systems", "n_improved"]].reset_index(drop=True)
    tables = {"jair_table5": jair_table5(pairs), "jair_table6": jair_table6(pairs),
              "weps_table2": weps, "weakest_metric_top": top["points"], "improved_systems": imp}
    if campaign is not None and getattr(campaign, "has_clusterings", False):
        tables["random_baselines"] = random_baselines_by_k(
            campaign, p["precision"], p["recall"], runs=baseline_runs, alpha=baseline_alpha)
    summary = {
        "weps_table2": weps_counts,
        "weakest_metric_all_pairs": {"pearson_r": result.weakest_metric["pearson_r"],
                                     "n": int(result.weakest_metric["n"])},
        "weakest_metric_top": {"pearson_r": top["pearson_r"], "pvalue": top["pvalue"],
                               "n": top["n"]},
        "improved_rule": (("UIR > " if profile.strict_improved else "UIR >= ")
                          + f"{p['threshold']:g}"),
        "n_improved": int(imp["n_improved"].sum()),
    }
    return PaperTables(tables, summary)
