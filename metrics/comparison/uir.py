"""Unanimous improvement and the Unanimous Improvement Ratio (docs/measures.md §5).

Parametric UIR is in :mod:`metrics.comparison.parametric`, reference and improved systems in
:mod:`metrics.comparison.reference`.

Amigó, Gonzalo, Artiles and Verdejo (2011), "Combining evaluation metrics via the unanimous
improvement ratio and its application to clustering tasks", JAIR 42, §4 and §8 (parametric
UIR); Amigó, Artiles and Gonzalo, "The unanimous improvement ratio" (WePS), §3 and §5 (reference
systems).

Definitions
-----------
For a set X of at least two metrics, each turned higher-is-better by its direction
(``metrics.measures.registry.direction``: lower-is-better metrics such as conditional entropies are
multiplied by -1), system a **unanimously improves or equals** b on topic t, ``a >=_forall b``, iff

    x(a) + tol >= x(b)   for every x in X        (i.e. x(a) >= x(b) - tol; default tol = 1e-9).

With T_{a>=b} the topics where a >=_forall b,

    UIR(a, b) = (|T_{a>=b}| - |T_{b>=a}|) / |T|,       in [-1, 1],   UIR(b, a) = -UIR(a, b).

A topic tied on every metric (within tol) is in both sets and cancels; a topic where the metrics
disagree is in neither (**metric-biased**). The three counts reported with the value are

* ``n_a_better`` = |T_{a>=b} minus T_{b>=a}|, ``n_b_better`` = |T_{b>=a} minus T_{a>=b}|,
* ``n_tied`` = |T_{a>=b} and T_{b>=a}|, and ``n_biased`` = |T| - the other three,

so that ``UIR = (n_a_better - n_b_better) / n_topics``.

Choices the papers leave open, made here
----------------------------------
* **Missing scores.** A topic where any metric of X is NaN for a or for b is left out of T for
  that pair and counted in ``n_missing`` (``n_topics`` counts the topics used). A pair with no
  usable topic has UIR NaN.
* **Reference and improved systems**: :mod:`metrics.comparison.reference` (the rule "a
  improves b" of the comparison's profile).
* **Parametric UIR**: see :mod:`metrics.comparison.parametric`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from metrics.comparison.profiles import DEFAULT_THRESHOLD, DEFAULT_TOL
from metrics.model.score_table import ScoreCube, metric_directions, names_at, score_cube

__all__ = [
    "UIRResult",
    "UIRMatrix",
    "uir",
    "uir_matrix",
    "uir_from_cube",
    "uir_matrix_cube",
    "check_tol",
    "check_metrics",
    "oriented",
    "DEFAULT_TOL",
    "DEFAULT_THRESHOLD",
]



def check_metrics(metrics: Sequence[str]) -> list[str]:
    if isinstance(metrics, str):
        raise ValueError("metrics must be a sequence of at least two metric names, got a string")
    metrics = [str(m) for m in metrics]
    if len(metrics) < 2:
        raise ValueError(f"UIR needs at least two metrics, got {metrics}")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"repeated metric in {metrics}")
    return metrics


def check_tol(tol: float) -> float:
    tol = float(tol)
    if not np.isfinite(tol) or tol < 0:
        raise ValueError(f"tol must be a non-negative number, got {tol!r}")
    return tol


def oriented(cube: ScoreCube, directions: Mapping[str, int] | None) -> np.ndarray:
    return cube.oriented(metric_directions(cube.metrics, directions))


@dataclass(frozen=True)
class UIRResult:
    """UIR of one ordered pair, with its counts (see module docstring).

    Attributes
    ----------
    system_a, system_b : str
    metrics : tuple of str
    uir : float
        In [-1, 1]; NaN when no topic is usable.
    n_a_better, n_b_better, n_tied, n_biased : int
    n_topics : int
        Topics used (|T|).
    n_missing : int
        Topics left out because a score is missing.
    """

    system_a: str
    system_b: str
    metrics: tuple[str, ...]
    uir: float
    n_a_better: int
    n_b_better: int
    n_tied: int
    n_biased: int
    n_topics: int
    n_missing: int = 0

    def to_dict(self) -> dict:
        """Plain-Python dict (JSON-serialisable; NaN as None)."""
        return {
            "system_a": self.system_a,
            "system_b": self.system_b,
            "metrics": list(self.metrics),
            "uir": None if np.isnan(self.uir) else float(self.uir),
            "n_a_better": int(self.n_a_better),
            "n_b_better": int(self.n_b_better),
            "n_tied": int(self.n_tied),
            "n_biased": int(self.n_biased),
            "n_topics": int(self.n_topics),
            "n_missing": int(self.n_missing),
        }


def _pair_flags(xa: np.ndarray, xb: np.ndarray, tol: float):
    """Per-topic (valid, a>=b, b>=a) for oriented (T, M) score arrays."""
    valid = ~(np.isnan(xa).any(axis=1) | np.isnan(xb).any(axis=1))
    with np.errstate(invalid="ignore"):
        ge_ab = np.all(xa + tol >= xb, axis=1) & valid
        ge_ba = np.all(xb + tol >= xa, axis=1) & valid
    return valid, ge_ab, ge_ba


def uir_from_cube(cube: ScoreCube, a: str, b: str, tol: float = DEFAULT_TOL,
                  directions: Mapping[str, int] | None = None) -> UIRResult:
    """:func:`uir` on a ready :class:`ScoreCube` (all its metrics are used)."""
    check_metrics(cube.metrics)
    tol = check_tol(tol)
    X = oriented(cube, directions)
    ia, ib = cube.system_index(a), cube.system_index(b)
    valid, ge_ab, ge_ba = _pair_flags(X[ia], X[ib], tol)
    n = int(valid.sum())
    tied = int((ge_ab & ge_ba).sum())
    na = int(ge_ab.sum()) - tied
    nb = int(ge_ba.sum()) - tied
    value = (na - nb) / n if n else float("nan")
    return UIRResult(a, b, tuple(cube.metrics), float(value), na, nb, tied, n - na - nb - tied, n,
                     len(cube.topics) - n)


def uir(
    table: pd.DataFrame,
    a: str,
    b: str,
    metrics: Sequence[str],
    tol: float = DEFAULT_TOL,
    directions: Mapping[str, int] | None = None,
) -> UIRResult:
    """Unanimous Improvement Ratio of system ``a`` over system ``b`` (docs/measures.md §5).

    Parameters
    ----------
    table : DataFrame
        Score table ``system, topic, metric, value``.
    a, b : str
        Systems.
    metrics : sequence of str
        At least two metrics, each compared in its own direction.
    tol : float, default 1e-9
        Absolute tolerance: x(a) >= x(b) - tol counts as "not worse".
    directions : mapping metric -> +1 / -1, optional
        Overrides :func:`metrics.measures.registry.direction` for the metrics it names.

    Returns
    -------
    UIRResult
        ``uir = (n_a_better - n_b_better) / n_topics`` with the counts; see the module docstring
        for ties, metric-biased and missing topics.
    """
    metrics = check_metrics(metrics)
    systems = [a] if a == b else [a, b]
    cube = score_cube(table, metrics, systems=systems)
    return uir_from_cube(cube, a, b, tol=tol, directions=directions)


@dataclass(frozen=True, eq=False)
class UIRMatrix:
    """UIR of every ordered pair of systems.

    Attributes
    ----------
    systems : tuple of str
    metrics : tuple of str
    uir : ndarray (S, S)
        ``uir[i, j] = UIR(systems[i], systems[j])``; antisymmetric, zero diagonal.
    n_better : ndarray of int64 (S, S)
        Topics where i >=_forall j but not j >=_forall i (``n_a_better`` of the pair (i, j)).
    n_tied : ndarray of int64 (S, S)
        Topics where both hold; symmetric.
    n_topics : ndarray of int64 (S, S)
        Topics usable for the pair (no missing score); symmetric.
    tol : float
    """

    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    uir: np.ndarray
    n_better: np.ndarray
    n_tied: np.ndarray
    n_topics: np.ndarray
    tol: float = DEFAULT_TOL
    n_all_topics: int = field(default=0)

    @property
    def n_biased(self) -> np.ndarray:
        """(S, S) metric-biased topics per pair; symmetric."""
        return self.n_topics - self.n_better - self.n_better.T - self.n_tied

    def index(self, name: str) -> int:
        try:
            return self.systems.index(name)
        except ValueError:
            raise ValueError(f"unknown system {name!r}") from None

    def result(self, a: str, b: str) -> UIRResult:
        """The :class:`UIRResult` of one ordered pair."""
        i, j = self.index(a), self.index(b)
        return UIRResult(
            a, b, self.metrics, float(self.uir[i, j]), int(self.n_better[i, j]),
            int(self.n_better[j, i]), int(self.n_tied[i, j]), int(self.n_biased[i, j]),
            int(self.n_topics[i, j]), int(self.n_all_topics - self.n_topics[i, j]),
        )

    def frame(self) -> pd.DataFrame:
        """Square DataFrame of UIR values (rows a, columns b)."""
        return pd.DataFrame(self.uir, index=pd.Index(self.systems, name="system_a"),
                            columns=pd.Index(self.systems, name="system_b"))

    def pair_indices(self, include_self: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The systems (a, b) of the rows of :meth:`to_dataframe`, as indices into
        ``systems``."""
        S = len(self.systems)
        gi, gj = np.meshgrid(np.arange(S), np.arange(S), indexing="ij")
        ii, jj = gi.ravel(), gj.ravel()
        if not include_self:
            keep = ii != jj
            ii, jj = ii[keep], jj[keep]
        return ii, jj

    def to_dataframe(self, include_self: bool = False) -> pd.DataFrame:
        """Long form: one row per ordered pair (``system_a, system_b, uir, n_a_better,
        n_b_better, n_tied, n_biased, n_topics``), row-major in system order."""
        ii, jj = self.pair_indices(include_self)
        return pd.DataFrame({
            "system_a": names_at(self.systems, ii),
            "system_b": names_at(self.systems, jj),
            "uir": self.uir[ii, jj],
            "n_a_better": self.n_better[ii, jj],
            "n_b_better": self.n_better[jj, ii],
            "n_tied": self.n_tied[ii, jj],
            "n_biased": self.n_biased[ii, jj],
            "n_topics": self.n_topics[ii, jj],
        })

    def to_dict(self) -> dict:
        return {
            "systems": list(self.systems),
            "metrics": list(self.metrics),
            "tol": self.tol,
            "uir": [[None if np.isnan(v) else float(v) for v in row] for row in self.uir],
            "n_better": self.n_better.tolist(),
            "n_tied": self.n_tied.tolist(),
            "n_topics": self.n_topics.tolist(),
        }


def _rank_codes(x: np.ndarray, valid: np.ndarray, tol: float):
    """For one metric (S, T): integer ``rank`` and ``count`` such that, for valid a and b,
    ``x[b] <= x[a] + tol``  iff  ``rank[b] < count[a]`` (exact: the values <= q are a prefix
    of the sorted column). Invalid entries get rank S (never below a count) and count 0."""
    S, T = x.shape
    dtype = np.int16 if S < np.iinfo(np.int16).max else np.int32
    filled = np.where(valid, x, np.inf)
    order = np.argsort(filled, axis=0, kind="stable")
    rank = np.empty((S, T), dtype=dtype)
    np.put_along_axis(rank, order, np.arange(S, dtype=dtype)[:, None].repeat(T, axis=1), axis=0)
    srt = np.take_along_axis(filled, order, axis=0)
    count = np.empty((S, T), dtype=dtype)
    q = x + tol
    for t in range(T):
        count[:, t] = np.searchsorted(srt[:, t], q[:, t], side="right")
    rank[~valid] = S
    count[~valid] = 0
    return rank, count


def _count_true(block: np.ndarray) -> np.ndarray:
    """Count True along the last axis."""
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(np.packbits(block, axis=-1)).sum(axis=-1, dtype=np.int64)
    return np.count_nonzero(block, axis=-1)  # pragma: no cover - numpy < 2


def _uir_counts(X: np.ndarray, tol: float):
    """(n_ge, n_tied, n_topics) for oriented (S, T, M) scores, all pairs, no loop over pairs.

    Each metric is reduced to integer ranks and prefix counts (:func:`_rank_codes`), then blocks
    of rows are compared against all later rows by broadcasting; both directions come out of
    one block, so each unordered pair is handled once.
    """
    S, T, M = X.shape
    valid = ~np.isnan(X).any(axis=2)
    codes = [_rank_codes(X[:, :, m], valid, tol) for m in range(M)]
    # topics both systems have; an integer product, not a BLAS call (whose worker threads spin
    # on after a product of this size)
    if valid.all():
        n_topics = np.full((S, S), T, dtype=np.int64)
    else:
        vi = valid.astype(np.int64)
        n_topics = vi @ vi.T
    n_ge = np.zeros((S, S), dtype=np.int64)
    n_tied = np.zeros((S, S), dtype=np.int64)
    k = int(max(1, min(S, 4_000_000 // max(1, S * T))))
    for i0 in range(0, S, k):
        i1 = min(S, i0 + k)
        A, B = slice(i0, i1), slice(i0, S)
        rank, count = codes[0]
        gab = rank[None, B] < count[A, None]  # a >= b on metric 0: x_b <= x_a + tol
        gba = rank[A, None] < count[None, B]
        for rank, count in codes[1:]:
            gab &= rank[None, B] < count[A, None]
            gba &= rank[A, None] < count[None, B]
        n_ge[A, B] = _count_true(gab)
        n_ge[B, A] = _count_true(gba).T
        gab &= gba
        tied = _count_true(gab)
        n_tied[A, B] = tied
        n_tied[B, A] = tied.T
    return n_ge, n_tied, n_topics


def uir_matrix_cube(cube: ScoreCube, tol: float = DEFAULT_TOL,
                    directions: Mapping[str, int] | None = None) -> UIRMatrix:
    """:func:`uir_matrix` on a ready :class:`~metrics.model.score_table.ScoreCube`."""
    X = oriented(cube, directions)
    n_ge, n_tied, n_topics = _uir_counts(X, tol)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (n_ge - n_ge.T) / n_topics
    value = np.where(n_topics > 0, value, np.nan)
    return UIRMatrix(tuple(cube.systems), tuple(cube.metrics), value, n_ge - n_tied, n_tied,
                     n_topics, tol, len(cube.topics))


def uir_matrix(
    table: pd.DataFrame,
    metrics: Sequence[str],
    tol: float = DEFAULT_TOL,
    systems: Sequence[str] | None = None,
    directions: Mapping[str, int] | None = None,
) -> UIRMatrix:
    """UIR of every ordered pair of systems, fully vectorised (docs/measures.md §5).

    Same definitions as :func:`uir`. Cost O(S^2 T M) integer comparisons in blocks of rows
    (no Python loop over pairs); memory O(S T M + block).

    Parameters
    ----------
    table : DataFrame
        Score table.
    metrics : sequence of str
        At least two metrics.
    tol : float, default 1e-9
    systems : sequence of str, optional
        Restrict to and order by these systems (default: all, in order of first appearance).
    directions : mapping metric -> +1 / -1, optional

    Returns
    -------
    UIRMatrix
    """
    metrics = check_metrics(metrics)
    tol = check_tol(tol)
    cube = score_cube(table, metrics, systems=systems)
    return uir_matrix_cube(cube, tol, directions)
