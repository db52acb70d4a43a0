"""Reviewer checks of reported precision, recall and F (docs/rankings.md, "Checking reported
scores").

Given per-system P, R and F as a paper reports them, with the paper's alpha:

* **consistent at alpha**: F is van Rijsbergen's F_alpha(P, R) = 1 / (alpha/P + (1-alpha)/R)
  within reporting rounding. A value written with d decimals stands for the interval
  [v - 0.5 * 10^-d, v + 0.5 * 10^-d] (percentages, detected when any value exceeds 1, are
  divided by 100 with the interval scaled alike). Since F_alpha is increasing in P and R, the
  row is consistent iff [F_alpha(P_lo, R_lo), F_alpha(P_hi, R_hi)] meets [F_lo, F_hi].
* **which alphas**: 1/F_alpha is linear in alpha, so each of the two inequalities above holds on
  a half-line of alpha and the consistent alphas form one interval ``[alpha_low, alpha_high]``
  (empty: no alpha). ``alpha_implied`` is the alpha of the values as written,
  (1/F - 1/R) / (1/P - 1/R) (NaN when P = R).
* **impossible rows**: F_alpha lies between min(P, R) and max(P, R) for every alpha, so a row
  with F_lo > max(P_hi, R_hi) (or F_hi < min(P_lo, R_lo)) fits no alpha at all.
* **ranking**: the reported ranking by F against (i) the best and worst rank of each system by
  F_alpha(P, R) over alpha in [0, 1] (exact: ranks change only at the pairwise crossing points,
  evaluated at and between them) and (ii) unanimity on the reported averages: a above b iff
  P_a >= P_b and R_a >= R_b with one strict, the rank interval of
  :mod:`metrics.comparison.tie_ranking`; both in O(S^2 log S) time and bounded memory
  (:mod:`metrics.comparison.rank_bounds`).
  With only system-level averages UIR cannot be computed (it needs per-topic scores); dominance
  on both averages is its system-level counterpart (JAIR 2011: the unanimous improvement relation).
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.comparison.combine import f_alpha
from metrics.comparison.rank_bounds import alpha_rank_range, dominance_rank_interval
from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.text import parser_error, strict_utf8

__all__ = ["ReportedCheck", "check_reported", "read_reported", "alpha_of_beta", "STATUSES",
           "STATUS_WORDS"]

#: Row statuses: F fits the stated alpha, only other alphas, or no alpha.
STATUSES: tuple[str, ...] = ("consistent", "other_alpha", "impossible")
#: The words a reader sees for each status (the dashboard's Check reported page).
STATUS_WORDS: dict[str, str] = {"consistent": "consistent", "other_alpha": "fits another \u03b1",
                                "impossible": "impossible"}
_P_NAMES = ("precision", "p", "prec")
_R_NAMES = ("recall", "r", "rec")
_F_NAMES = ("f", "f1", "fscore", "f_score", "f-measure", "f_measure", "f_alpha", "f-score")
_SYSTEM_LEVEL_TOPICS = ("", "all", "average", "mean", "*")


@dataclass(frozen=True, eq=False)
class ReportedCheck:
    """Result of :func:`check_reported`.

    Attributes
    ----------
    rows : DataFrame
        One row per system: ``system, precision, recall, f, alpha, decimals, f_at_alpha,
        consistent, status, side, alpha_low, alpha_high, alpha_implied, rank_reported,
        rank_best_alpha, rank_worst_alpha, rank_low_unanimity, rank_high_unanimity``
        (values on the 0-1 scale; ``side`` is ``above_max`` / ``below_min`` for impossible rows).
    percent : bool
        The input was on a 0-100 scale.
    ranking_changes_with_alpha : bool
        Some system's rank by F_alpha differs between two alphas in [0, 1].
    unanimity_ties : int
        Systems whose rank interval under unanimity is wider than one position.
    """

    rows: pd.DataFrame
    percent: bool
    ranking_changes_with_alpha: bool
    unanimity_ties: int


def alpha_of_beta(beta: float) -> float:
    """The alpha of van Rijsbergen's F_beta: F_beta = F_alpha with alpha = 1 / (1 + beta^2)
    (so F_0.5 in the beta convention, which favours precision, is F_alpha at alpha = 0.8)."""
    beta = float(beta)
    if not (np.isfinite(beta) and beta >= 0):
        raise UnanimityError(f"beta must be a finite number >= 0, got {beta:g}")
    return 1.0 / (1.0 + beta * beta)


def _decimals(text: str) -> int:
    t = text.strip().lower()
    if "e" in t:  # 1.5e-3: the mantissa's decimals shifted by the exponent
        mant, exp = t.split("e", 1)
        return max(0, _decimals(mant) - int(exp))
    return len(t.split(".", 1)[1]) if "." in t else 0


def _number(text: str, path: str, line: int, column: str) -> tuple[float, int]:
    try:
        value = float(Decimal(text.strip()))
    except (InvalidOperation, ValueError):
        raise CampaignFormatError(path, f"{column} {text!r} is not a number", line) from None
    if not np.isfinite(value) or value < 0:
        raise CampaignFormatError(path, f"{column} {text!r} must be a finite non-negative number",
                                  line)
    return value, _decimals(text)


def _pick(columns: list[str], names: tuple[str, ...], path: str, what: str) -> str:
    low = {c.strip().lower(): c for c in columns}
    for n in names:
        if n in low:
            return low[n]
    if what == "F":  # F0.5, F_2, f-beta ...
        for c in columns:
            if re.fullmatch(r"f[-_ ]?(beta|\d+(\.\d+)?)", c.strip().lower()):
                return c
    raise CampaignFormatError(path, f"no {what} column (one of {', '.join(names)}); columns: "
                              f"{', '.join(columns)}", 1)


def read_reported(path: str | Path, metrics: tuple[str, str, str] | None = None) -> pd.DataFrame:
    """Reported scores as text: ``system, precision, recall, f[, alpha]`` with ``line``.

    Accepts a small CSV / TSV with a header ``system, precision, recall, f`` (also ``P, R, F1``
    and similar; an ``alpha`` column gives a per-row alpha) or a score table ``system[, topic],
    metric, value`` whose system-level rows (no topic, or topic ``all`` / ``average`` / ``mean``)
    hold the three metrics named by ``metrics`` (default ``precision, recall, f``).
    """
    path = Path(path)
    src = str(path)
    if not path.is_file():
        raise UnanimityError(f"{src}: file not found")
    sep = "\t" if path.suffix.lower() in (".tsv", ".tab") else ","
    text = strict_utf8(src, path.read_bytes())
    if not text.strip():
        raise CampaignFormatError(src, "the table is empty")
    try:
        raw = pd.read_csv(io.StringIO(text), sep=sep, dtype=str, keep_default_na=False,
                          skipinitialspace=True)
    except pd.errors.ParserError as exc:
        raise parser_error(src, text, sep, exc) from None
    except pd.errors.EmptyDataError:
        raise CampaignFormatError(src, "the table is empty") from None
    if not isinstance(raw.index, pd.RangeIndex):  # pandas took a longer first row's extra field
        raise CampaignFormatError(src, f"wrong number of columns: the header has "
                                  f"{len(raw.columns)}, this line one more", 2)
    raw.columns = [str(c).strip() for c in raw.columns]
    raw["line"] = np.arange(len(raw)) + 2
    cols = list(raw.columns[:-1])
    sys_col = _pick(cols, ("system", "run", "model", "name"), src, "system")
    if "metric" in [c.lower() for c in cols] and "value" in [c.lower() for c in cols]:
        m_col = _pick(cols, ("metric",), src, "metric")
        v_col = _pick(cols, ("value",), src, "value")
        if any(c.lower() == "topic" for c in cols):
            t_col = _pick(cols, ("topic",), src, "topic")
            raw = raw[raw[t_col].str.strip().str.lower().isin(_SYSTEM_LEVEL_TOPICS)]
        names = metrics or ("precision", "recall", "f")
        raw = raw[raw[m_col].isin(names)]
        dup = raw.duplicated([sys_col, m_col], keep="first")
        if dup.any():
            r = raw[dup].iloc[0]
            raise CampaignFormatError(src, f"system {r[sys_col]!r} has metric {r[m_col]!r} twice",
                                      int(r["line"]))
        wide = raw.pivot(index=sys_col, columns=m_col, values=v_col)
        lines = raw.groupby(sys_col)["line"].min()
        missing = [n for n in names if n not in wide.columns]
        if missing or wide.isna().any().any():
            raise CampaignFormatError(src, f"system-level rows of metrics {', '.join(names)} "
                                      f"needed for every system; missing: "
                                      f"{', '.join(missing) or 'some systems lack one'}")
        out = pd.DataFrame({"system": wide.index.astype(str), "precision": wide[names[0]].values,
                            "recall": wide[names[1]].values, "f": wide[names[2]].values,
                            "line": lines.reindex(wide.index).to_numpy()})
        return out.sort_values("line", kind="stable").reset_index(drop=True)
    p_col = _pick(cols, _P_NAMES, src, "precision")
    r_col = _pick(cols, _R_NAMES, src, "recall")
    f_col = _pick(cols, _F_NAMES, src, "F")
    out = pd.DataFrame({"system": raw[sys_col].str.strip(), "precision": raw[p_col],
                        "recall": raw[r_col], "f": raw[f_col], "line": raw["line"]})
    a_cols = [c for c in cols if c.lower() == "alpha"]
    if a_cols:
        out["alpha"] = raw[a_cols[0]]
    dup = out["system"].duplicated()
    if dup.any():
        r = out[dup].iloc[0]
        raise CampaignFormatError(src, f"system {r['system']!r} appears twice", int(r["line"]))
    empty = out["system"] == ""
    if empty.any():
        raise CampaignFormatError(src, "empty system name", int(out[empty]["line"].iloc[0]))
    return out.reset_index(drop=True)


def _half_line(c0: np.ndarray, c1: np.ndarray, k: np.ndarray, ge: bool):
    """Alphas in [0, 1] with h(alpha) = c0 + alpha (c1 - c0) >= k (``ge``) or <= k: (lo, hi)."""
    slope = c1 - c0
    lo = np.zeros_like(c0)
    hi = np.ones_like(c0)
    with np.errstate(divide="ignore", invalid="ignore"):
        root = (k - c0) / slope
    rising = slope > 0
    falling = slope < 0
    flat = slope == 0
    ok_flat = (c0 >= k) if ge else (c0 <= k)
    # h >= k: rising -> alpha >= root, falling -> alpha <= root (reverse for <=)
    lo = np.where(rising if ge else falling, np.maximum(lo, root), lo)
    hi = np.where(falling if ge else rising, np.minimum(hi, root), hi)
    lo = np.where(flat & ~ok_flat, np.inf, lo)
    return lo, hi


def _consistent_alphas(p_lo, p_hi, r_lo, r_hi, f_lo, f_hi):
    """Interval of alphas where [F(P_lo, R_lo), F(P_hi, R_hi)] meets [F_lo, F_hi] (NaN: none)."""
    n = p_lo.size
    lo, hi = np.zeros(n), np.ones(n)
    with np.errstate(divide="ignore"):
        # F(P_lo, R_lo) <= F_hi  <=>  alpha/P_lo + (1-alpha)/R_lo >= 1/F_hi (always if a bound is 0)
        pos = (p_lo > 0) & (r_lo > 0)
        l1, h1 = _half_line(1 / np.where(pos, r_lo, 1), 1 / np.where(pos, p_lo, 1), 1 / f_hi, True)
        lo = np.where(pos, np.maximum(lo, l1), lo)
        hi = np.where(pos, np.minimum(hi, h1), hi)
        # F(P_hi, R_hi) >= F_lo  <=>  alpha/P_hi + (1-alpha)/R_hi <= 1/F_lo (always if F_lo <= 0)
        need = f_lo > 0
        l2, h2 = _half_line(1 / r_hi, 1 / p_hi, 1 / np.where(need, f_lo, 1), False)
        lo = np.where(need, np.maximum(lo, l2), lo)
        hi = np.where(need, np.minimum(hi, h2), hi)
    empty = lo > hi
    return np.where(empty, np.nan, lo), np.where(empty, np.nan, hi)


def check_reported(table: pd.DataFrame, alpha: float = 0.5) -> ReportedCheck:
    """Check reported P, R and F per system (see the module docstring for the rules).

    Parameters
    ----------
    table : DataFrame
        :func:`read_reported` output: text columns ``system, precision, recall, f`` (decimals
        matter), optional ``alpha`` and ``line``; numbers are accepted too (then their shortest
        ``repr`` gives the decimals).
    alpha : float, default 0.5
        The stated alpha (weight of precision) for rows without their own.

    Returns
    -------
    ReportedCheck
    """
    if not 0 <= float(alpha) <= 1:
        raise UnanimityError(f"alpha must be in [0, 1], got {alpha}")
    src = str(table.attrs.get("source", "reported scores"))
    lines = table["line"].to_numpy() if "line" in table else np.arange(len(table)) + 2
    if len(table) == 0:
        raise UnanimityError(f"{src}: no systems")
    vals, decs = {}, {}
    for c in ("precision", "recall", "f"):
        parsed = [_number(str(v), src, int(ln), c) for v, ln in zip(table[c], lines, strict=True)]
        vals[c] = np.array([v for v, _ in parsed])
        decs[c] = np.array([d for _, d in parsed])
    alphas = np.full(len(table), float(alpha))
    if "alpha" in table:
        alphas = np.array([_number(str(v), src, int(ln), "alpha")[0] if str(v).strip() else alpha
                           for v, ln in zip(table["alpha"], lines, strict=True)])
        bad = alphas > 1
        if bad.any():
            raise CampaignFormatError(src, f"alpha {alphas[bad][0]:g} outside [0, 1]",
                                      int(lines[np.flatnonzero(bad)[0]]))
    percent = bool(max(v.max() for v in vals.values()) > 1)
    scale = 100.0 if percent else 1.0
    lo, hi, mid = {}, {}, {}
    for c in vals:
        over = vals[c] > scale
        if over.any():
            i = int(np.flatnonzero(over)[0])
            raise CampaignFormatError(src, f"{c} {table[c].iloc[i]} is above {scale:g}",
                                      int(lines[i]))
        half = 0.5 * 10.0 ** (-decs[c].astype(np.float64)) / scale
        mid[c] = vals[c] / scale
        lo[c] = np.clip(mid[c] - half, 0, 1)
        hi[c] = np.clip(mid[c] + half, 0, 1)
    P, R, F = mid["precision"], mid["recall"], mid["f"]
    f_at = f_alpha(P, R, alphas)
    consistent = ((f_alpha(lo["precision"], lo["recall"], alphas) <= hi["f"])
                  & (f_alpha(hi["precision"], hi["recall"], alphas) >= lo["f"]))
    a_lo, a_hi = _consistent_alphas(lo["precision"], hi["precision"], lo["recall"], hi["recall"],
                                    lo["f"], hi["f"])
    none = np.isnan(a_lo) & ~consistent
    status = np.where(consistent, "consistent", np.where(none, "impossible", "other_alpha"))
    above = lo["f"] > np.maximum(hi["precision"], hi["recall"])
    side = pd.Series([("above_max" if up else "below_min") if bad else None
                      for bad, up in zip(none, above, strict=True)], dtype=object)
    with np.errstate(divide="ignore", invalid="ignore"):
        implied = (1 / F - 1 / R) / (1 / P - 1 / R)
    implied = np.where(P == R, np.nan, implied)
    rank_rep = 1 + F.size - np.searchsorted(np.sort(F), F, side="right")  # 1 + #greater
    best, worst = alpha_rank_range(P, R)
    low, high = dominance_rank_interval(P, R)
    names = table["system"].astype(str).tolist()
    rows = pd.DataFrame({
        "system": names, "precision": P, "recall": R, "f": F, "alpha": alphas,
        "decimals": np.minimum(np.minimum(decs["precision"], decs["recall"]), decs["f"]),
        "f_at_alpha": f_at, "consistent": consistent, "status": status, "side": side,
        "alpha_low": a_lo, "alpha_high": a_hi, "alpha_implied": implied,
        "rank_reported": rank_rep, "rank_best_alpha": best, "rank_worst_alpha": worst,
        "rank_low_unanimity": low, "rank_high_unanimity": high,
    })
    return ReportedCheck(rows, percent, bool((best != worst).any()), int((low != high).sum()))
