"""The UIR-threshold curve (JAIR 2011 Fig. 10; WePS paper Fig. 6): for every threshold t, the
share of ordered pairs with UIR >= t and, among them, the shares of each pair class, of pairs
better for every alpha and of pairs whose F_alpha contradicts UIR.

:func:`threshold_base` is the alpha-free part (UIR sorted once), :func:`threshold_frame` adds
the alpha-dependent "F contradicts UIR" series; every share is a suffix count of the sorted UIR.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.analyses.common import THRESHOLDS

__all__ = ["threshold_curve", "threshold_base", "threshold_frame", "class_arrays", "CurveBase"]


def threshold_curve(pairs: pd.DataFrame, thresholds: Sequence[float] | None = None) -> pd.DataFrame:
    """UIR-threshold curve (JAIR 2011 Fig. 10; ``docs/measures.md``, "UIR-threshold curve") from
    a pairs frame.

    Parameters
    ----------
    pairs : DataFrame
        Ordered pairs with columns ``uir``, ``delta_f``, ``beats_all_alpha`` and ``pair_class``
        (as in :attr:`CampaignComparison.pairs`).
    thresholds : sequence of float, optional
        Default 0, 0.01, ..., 1.

    Returns
    -------
    DataFrame
        ``threshold``; ``n_pairs`` (pairs with UIR >= t); ``pairs`` = n_pairs / all ordered pairs;
        among the n_pairs: ``concordant``, ``opposite``, ``none``, ``worsening`` (pair classes,
        NaN without tests), ``beats_all_alpha`` and ``f_contradicts`` (F_alpha(a) < F_alpha(b)
        although UIR > 0).
    """
    th = THRESHOLDS if thresholds is None else np.asarray(thresholds, dtype=np.float64)
    u = pairs["uir"].to_numpy(dtype=np.float64)
    cls, has_cls = class_arrays(pairs)
    beats = pairs["beats_all_alpha"].to_numpy(dtype=bool)
    dfv = pairs["delta_f"].to_numpy(dtype=np.float64)
    with np.errstate(invalid="ignore"):
        contra = (u > 0) & (dfv < 0)
    return threshold_frame(threshold_base(u, cls, has_cls, beats, th), contra)


@dataclass(frozen=True, eq=False)
class CurveBase:
    """Everything of the threshold curve except the alpha-dependent ``f_contradicts`` series:
    UIR sorted once, the count of pairs with UIR >= t and the alpha-free columns."""

    order: np.ndarray  # non-NaN pairs by ascending UIR
    pos: np.ndarray  # per threshold: first position in ``order`` with UIR >= t
    n: np.ndarray  # pairs with UIR >= t
    columns: dict  # threshold, n_pairs, pairs, the four classes, beats_all_alpha


def _suffix_counts(mask: np.ndarray, order: np.ndarray, pos: np.ndarray) -> np.ndarray:
    h = mask[order].astype(np.int64)
    return np.concatenate([np.cumsum(h[::-1])[::-1], [0]])[pos]


def threshold_base(u: np.ndarray, cls: np.ndarray, has_cls: np.ndarray, beats: np.ndarray,
                    th: np.ndarray) -> CurveBase:
    """The pairs with UIR >= t are a suffix of the ascending order of UIR; every share is
    (count in that suffix) / n, the same float as the mean of the boolean selection.

    ``pairs`` is a share of *all* ordered pairs, those whose UIR is undefined (no
    topic scored for both systems) included: they never reach a threshold."""
    ok = np.flatnonzero(~np.isnan(u))
    total = int(u.size)
    order = ok[np.argsort(u[ok], kind="stable")]
    pos = np.searchsorted(u[order], th, side="left")
    n = ok.size - pos
    nz = n > 0
    nn = np.maximum(n, 1)
    cols = {"threshold": th.astype(np.float64), "n_pairs": n.astype(np.int64),
            "pairs": n / total if total else np.full(th.size, np.nan)}
    all_cls = nz & (_suffix_counts(~has_cls, order, pos) == 0)
    codes, names = pd.factorize(cls)  # the class texts compared once each, not once per pair
    code_of = {name: k for k, name in enumerate(names.tolist())}
    for c in ("concordant", "opposite", "none", "worsening"):
        hit = codes == code_of.get(c, -2)
        cols[c] = np.where(all_cls, _suffix_counts(hit, order, pos) / nn, np.nan)
    cols["beats_all_alpha"] = np.where(nz, _suffix_counts(beats, order, pos) / nn, np.nan)
    return CurveBase(order, pos, n, cols)


def threshold_frame(base: CurveBase, contra: np.ndarray) -> pd.DataFrame:
    out = dict(base.columns)
    n = base.n
    out["f_contradicts"] = np.where(n > 0, _suffix_counts(contra, base.order, base.pos)
                                    / np.maximum(n, 1), np.nan)
    return pd.DataFrame(out)


def class_arrays(pairs: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    if "pair_class" in pairs:
        cls = pairs["pair_class"].to_numpy(dtype=object)
        cs = pd.Series(cls, dtype=object)
        return cls, (cs.notna() & (cs != "")).to_numpy(dtype=bool)
    n = len(pairs)
    return np.full(n, None, dtype=object), np.zeros(n, dtype=bool)
