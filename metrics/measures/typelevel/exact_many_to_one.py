"""The many-to-one mapping that maximises a type-level measure, exactly (``docs/type-level.md``).

An integer program solved by HiGHS (``scipy.optimize.milp``). Binary x_kc sends cluster k to
class c, each cluster to exactly one class. A type i with one cluster k reaches class c iff
x_kc = 1, so the types with one cluster are summed per cluster into constant weights. A type
with several clusters gets y_ic = OR_{k ∈ B_i} x_kc (y_ic ≥ x_kc for each k ∈ B_i,
y_ic ≤ Σ_{k ∈ B_i} x_kc; y may stay continuous: integral x forces it to 0 or 1), which is the
set reading of h(B_i) (Reichart, Abend and Rappoport 2010, §4.1): IM_i = Σ_{c ∈ A_i} y_ic and
|h(B_i)| = Σ_c y_ic. Identical types (same A_i and B_i) are merged with their multiplicity.

* **MacroI F** = 2 Σ IM_i / (Σ |A_i| + Σ |h(B_i)|), a ratio of two linear functions:
  Dinkelbach's method maximises N - λD for λ the best ratio so far until the maximum is 0.
* **MicroI F** = (1/l) Σ_i 2 IM_i / (|A_i| + |h(B_i)|): for a type with several clusters a
  binary s_ih picks |h(B_i)| = h (1 ≤ h ≤ min(|B_i|, n)) and IM_i is split into parts IM_ih ≤
  min(h, |A_i|) s_ih, each weighted 2 / (|A_i| + h): linear, and exact at integral points.
* **MicroC F** = Σ_c 2 U_c I_c / (U_c + |c|) / N* with U_c = |z_c| (types reaching c),
  I_c = |z_c ∩ c| and N* = Σ_c U_c: :mod:`metrics.measures.typelevel.microc_program` adds
  its variables and rows (products q_c · x_kc, exact at integral x; with a zero time limit the
  quicker, looser bound of U_c in binary digits). N* is constant when every type has one
  cluster; otherwise Dinkelbach's method handles the ratio. The search adds a cutoff row: only
  mappings better than the best one by EXACT_TOL / 2 are feasible, so an infeasible program
  proves the best one exact (HiGHS does not take a starting mapping).

The start (hill climbing) gives the first λ. ``solve`` returns the best mapping seen and a
proven upper bound on the optimum: the solver's dual bound, turned into a bound on the ratio
(λ + max(bound, 0) / min D); the mapping is exact when it is within :data:`EXACT_TOL` of that
bound. At the time limit the bound still holds, so the caller can state the gap.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from scipy.sparse import coo_matrix, csr_matrix, vstack

from metrics.measures.typelevel.microc_program import add_binary_digits, add_products

__all__ = ["Solved", "solve", "EXACT_TOL", "MAX_NONZEROS"]

#: A mapping within this of the proven bound is reported as exact (HiGHS proves optimality up
#: to about 1e-6 of its objective, a count of word types: well below 1e-6 of a score).
EXACT_TOL = 1e-6
#: Integer programs with more constraint nonzeros than this are not attempted (memory).
MAX_NONZEROS = 5_000_000
#: Seconds allowed to the LP relaxation alone (a time limit of 0).
_LP_SECONDS = 10.0
#: ``scipy.optimize.milp``'s status of an infeasible program.
_INFEASIBLE = 2
#: Its statuses of a program solved, stopped at its time limit, or proven infeasible.
_SOLVED = (0, 1, 2)


@dataclass(frozen=True)
class Solved:
    """The result of :func:`solve`.

    Attributes
    ----------
    target : ndarray of int64
        The best mapping found (the start included).
    bound : float
        A proven upper bound on the measure's optimum (NaN when none is known).
    proven : bool
        True when ``target`` is within :data:`EXACT_TOL` of ``bound``.
    """

    target: np.ndarray
    bound: float
    proven: bool


class _Builder:
    """Sparse rows of a linear program, appended in blocks (vectorised)."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.lo: list[np.ndarray] = []
        self.hi: list[np.ndarray] = []
        self.n_rows = 0

    def add(self, row: np.ndarray, col: np.ndarray, val, lo, hi, n: int) -> None:
        """Add ``n`` rows; ``row`` numbers them 0..n-1 within the block."""
        row, col = np.asarray(row, dtype=np.int64), np.asarray(col, dtype=np.int64)
        self.rows.append(row + self.n_rows)
        self.cols.append(col)
        self.vals.append(np.broadcast_to(np.asarray(val, dtype=float), row.shape))
        self.lo.append(np.broadcast_to(np.asarray(lo, dtype=float), (n,)))
        self.hi.append(np.broadcast_to(np.asarray(hi, dtype=float), (n,)))
        self.n_rows += n

    @property
    def nnz(self) -> int:
        return int(sum(r.size for r in self.rows))

    def matrix(self, n_vars: int):
        a = coo_matrix((np.concatenate(self.vals), (np.concatenate(self.rows),
                                                    np.concatenate(self.cols))),
                       shape=(self.n_rows, n_vars)).tocsr()
        return a, np.concatenate(self.lo), np.concatenate(self.hi)


class _Model:
    """The integer program of one measure: variables, rows, and the score as
    (num · v + num0) / (den · v + den0)."""

    def __init__(self, t, measure: str, quick: bool = False) -> None:
        e = t.e
        m, n = e.n_clusters, e.n_classes
        self.m, self.n = m, n
        a = t.a_dense
        b_size = np.bincount(e.b_type, minlength=e.n_types)
        mono = b_size[e.b_type] == 1
        mk, mt = e.b_cluster[mono], e.b_type[mono]
        self.n_mono = int(mono.sum())
        # the types with one cluster, summed per (cluster, class)
        ksize = np.bincount(mk, minlength=m).astype(float)
        w = np.zeros((m, n))
        np.add.at(w, mk, a[mt].astype(float))
        # the types with several clusters, identical ones merged
        poly = np.flatnonzero(b_size >= 2)
        rows_b = np.zeros((poly.size, m), dtype=bool)
        pos = np.full(e.n_types, -1)
        pos[poly] = np.arange(poly.size)
        sel = pos[e.b_type] >= 0
        rows_b[pos[e.b_type[sel]], e.b_cluster[sel]] = True
        sig = np.concatenate((rows_b, a[poly]), axis=1)
        uniq, mult = (np.unique(sig, axis=0, return_counts=True) if poly.size
                      else (np.zeros((0, m + n), dtype=bool), np.zeros(0, dtype=np.int64)))
        g_b, g_a = uniq[:, :m], uniq[:, m:]
        n_g = uniq.shape[0]
        self.mult = mult.astype(float)
        nx, ny = m * n, n_g * n
        self.nx = nx
        lp = _Builder()
        k_idx = np.repeat(np.arange(m), n)
        lp.add(k_idx, np.arange(nx), 1.0, 1.0, 1.0, m)  # each cluster to one class
        gj, gk = np.nonzero(g_b)  # (group, cluster) pairs
        cc = np.tile(np.arange(n), gj.size)
        rr = np.arange(gj.size * n)
        y_of = nx + np.repeat(gj, n) * n + cc
        x_of = np.repeat(gk, n) * n + cc
        lp.add(np.concatenate((rr, rr)), np.concatenate((y_of, x_of)),  # y_jc >= x_kc
               np.concatenate((np.ones(rr.size), -np.ones(rr.size))), 0.0, np.inf, rr.size)
        r2 = np.repeat(gj, n) * n + cc  # row of (j, c) in the y <= Σ x block
        lp.add(np.concatenate((np.arange(ny), r2)),
               np.concatenate((nx + np.arange(ny), x_of)),
               np.concatenate((np.ones(ny), -np.ones(r2.size))), -np.inf, 0.0, ny)
        self.lp = lp
        self.integrality = [np.ones(nx), np.zeros(ny)]
        self.lb, self.ub = [np.zeros(nx + ny)], [np.ones(nx + ny)]
        self.n_vars = nx + ny
        y_a = (g_a * self.mult[:, None]).reshape(-1)  # weight of y_jc in IM (c ∈ A_j)
        y_1 = np.repeat(self.mult, n)  # weight of y_jc in Σ |h(B)|
        total_a = float(t.a_size.sum())
        self.num0 = 0.0
        if measure == "macro":
            self.num = np.concatenate((2 * w.reshape(-1), 2 * y_a))
            self.den = np.concatenate((np.zeros(nx), y_1))
            self.den0 = total_a + self.n_mono
        elif measure == "micro":
            mw = np.zeros((m, n))
            np.add.at(mw, mk, a[mt] * (2.0 / (t.a_size[mt] + 1.0))[:, None])
            self.num = np.concatenate((mw.reshape(-1), np.zeros(ny)))
            self.den = np.zeros(nx + ny)
            self.den0 = float(e.n_types)
            self._micro_parts(g_b, g_a)
        else:
            self.num = np.zeros(nx + ny)
            self.den = np.concatenate((np.zeros(nx), y_1))
            self.den0 = float(self.n_mono)
            (add_binary_digits if quick else add_products)(self, t, ksize, w, g_a)
        self.den_min = self.den0 + float(self.mult.sum())  # every type reaches >= 1 class

    def new_vars(self, count: int, lb, ub, integer: bool) -> np.ndarray:
        idx = np.arange(self.n_vars, self.n_vars + count)
        self.n_vars += count
        self.integrality.append(np.full(count, 1.0 if integer else 0.0))
        self.lb.append(np.broadcast_to(np.asarray(lb, dtype=float), (count,)))
        self.ub.append(np.broadcast_to(np.asarray(ub, dtype=float), (count,)))
        self.num = np.concatenate((self.num, np.zeros(count)))
        self.den = np.concatenate((self.den, np.zeros(count)))
        return idx

    def _micro_parts(self, g_b: np.ndarray, g_a: np.ndarray) -> None:
        """s_jh and IM_jh for the merged types with several clusters (module docstring)."""
        n, lp = self.n, self.lp
        a_size = g_a.sum(axis=1)
        h_max = np.minimum(g_b.sum(axis=1), n)
        gj = np.repeat(np.arange(h_max.size), h_max)  # one (group, h) per part
        h = np.arange(gj.size) - np.repeat(np.cumsum(h_max) - h_max, h_max) + 1
        s = self.new_vars(gj.size, 0.0, 1.0, True)
        cap = np.minimum(h, a_size[gj]).astype(float)
        part = self.new_vars(gj.size, 0.0, cap, False)
        self.num[part] = self.mult[gj] * 2.0 / (a_size[gj] + h)
        n_g = h_max.size
        lp.add(gj, s, 1.0, 1.0, 1.0, n_g)  # one value of |h(B_j)|
        yj = np.repeat(np.arange(n_g), n)
        y_idx = self.nx + np.arange(n_g * n)
        lp.add(np.concatenate((gj, yj)), np.concatenate((s, y_idx)),  # Σ h s = Σ_c y
               np.concatenate((h.astype(float), -np.ones(y_idx.size))), 0.0, 0.0, n_g)
        in_a = g_a.reshape(-1)
        lp.add(np.concatenate((gj, yj[in_a])), np.concatenate((part, y_idx[in_a])),
               np.concatenate((np.ones(part.size), -np.ones(int(in_a.sum())))), 0.0, 0.0, n_g)
        rr = np.arange(part.size)
        lp.add(np.concatenate((rr, rr)), np.concatenate((part, s)),  # IM_jh <= cap s_jh
               np.concatenate((np.ones(rr.size), -cap)), -np.inf, 0.0, rr.size)

    def arrays(self):
        a, lo, hi = self.lp.matrix(self.n_vars)
        return (a, lo, hi, np.concatenate(self.integrality), np.concatenate(self.lb),
                np.concatenate(self.ub))


#: One solve at a time holds file descriptor 1 (threads of a dashboard would otherwise save and
#: restore each other's redirection).
_STDOUT_LOCK = threading.Lock()


@contextlib.contextmanager
def _stdout_silenced() -> Iterator[None]:
    """Standard output (file descriptor 1) sent to the null device for the duration.

    The HiGHS that scipy bundles prints a debug line (``HighsMipSolverData::
    transformNewIntegerFeasibleSolution tmpSolver.run();``) straight to file descriptor 1 when
    it re-solves the continuous part of a solution it found; it would land in a CSV written to
    standard output. Solves are serialised by a lock; output of other threads in that window
    is lost too.
    """
    with _STDOUT_LOCK:
        sys.stdout.flush()
        try:
            saved = os.dup(1)
        except OSError:  # no standard output to protect
            yield
            return
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def _milp(c: np.ndarray, arrays, time_limit: float, relax: bool = False):
    # imported here: scipy.optimize takes a noticeable share of the package's start-up time
    from scipy.optimize import Bounds, LinearConstraint, milp  # noqa: PLC0415

    a, lo, hi, integrality, lb, ub = arrays
    options = {"time_limit": max(time_limit, 0.01), "mip_rel_gap": 0.0, "mip_abs_gap": 1e-9}
    with warnings.catch_warnings(), _stdout_silenced():
        # mip_abs_gap goes to HiGHS verbatim, with a warning
        warnings.filterwarnings("ignore", message="Unrecognized options", category=RuntimeWarning)
        return milp(-c, integrality=np.zeros_like(integrality) if relax else integrality,
                    bounds=Bounds(lb, ub), constraints=LinearConstraint(a, lo, hi),
                    options=options)


def _with_row(arrays, c: np.ndarray, level: float):
    """``arrays`` with the row c·v >= level (a cutoff: only mappings better than a level)."""
    a, lo, hi, integrality, lb, ub = arrays
    return (vstack((a, csr_matrix(c[None, :]))).tocsr(), np.append(lo, level),
            np.append(hi, np.inf), integrality, lb, ub)


def _upper(res, c: np.ndarray, arrays, time_left: float) -> float:
    """An upper bound on max c·v: the solver's dual bound, else the LP relaxation's optimum
    (-inf when even the relaxation is infeasible: no v at all)."""
    bound = getattr(res, "mip_dual_bound", None)
    if bound is not None and np.isfinite(bound):
        return -float(bound)
    if res.status == 0 and res.fun is not None:
        return -float(res.fun)
    lp = _milp(c, arrays, max(time_left, 1.0), relax=True)
    if lp.status == _INFEASIBLE:
        return -math.inf
    return -float(lp.fun) if lp.status == 0 else math.inf


def solve(t, measure: str, start: np.ndarray, time_limit: float) -> Solved:
    """The M-1 mapping that maximises ``measure`` (``macro``, ``micro``, ``microc``).

    Parameters
    ----------
    t : tables of :mod:`metrics.measures.typelevel.type_scores`
        Per-topic quantities (entries, ``a_dense``, ``a_size``, ``class_size``, ``value``).
    measure : {"macro", "micro", "microc"}
    start : ndarray of int64
        A mapping to start from (hill climbing's), the first λ of Dinkelbach's method.
    time_limit : float
        Seconds for the whole solve; at the limit the best mapping and the bound are returned.
        With 0 only the LP relaxation is solved, for its bound.

    Returns
    -------
    Solved
    """
    best = np.asarray(start, dtype=np.int64)
    best_value = t.value(measure, best)
    model = _Model(t, measure, quick=time_limit <= 0)
    if model.den_min <= 0:  # no type has a cluster: every mapping scores the same
        return Solved(best, best_value, True)
    if model.lp.nnz > MAX_NONZEROS:
        return Solved(best, math.nan, False)
    arrays = model.arrays()
    deadline = time.monotonic() + time_limit
    ratio = bool(np.any(model.den))
    lam = best_value if ratio else 0.0
    cutoff = measure == "microc" and time_limit > 0
    bound = math.inf
    while True:
        c = model.num - lam * model.den
        const = model.num0 - lam * model.den0
        left = deadline - time.monotonic()
        # MicroC: only mappings better than the best one by half the tolerance (module docstring)
        level = ((best_value + EXACT_TOL / 2) * model.den0 if not ratio
                 else EXACT_TOL / 2 * model.den_min) if cutoff else -math.inf
        run = _with_row(arrays, c, level - const) if cutoff else arrays
        res = _milp(c, run, left if time_limit > 0 else _LP_SECONDS, relax=time_limit <= 0)
        if cutoff and res.status not in _SOLVED:  # HiGHS may fail on the cutoff: solve without
            level, run = -math.inf, arrays
            res = _milp(c, run, deadline - time.monotonic())
        if res.x is not None and time_limit > 0:
            cand = np.argmax(res.x[:model.nx].reshape(model.m, model.n), axis=1).astype(np.int64)
            value = t.value(measure, cand)
            if value > best_value:
                best, best_value = cand, value
        upper = level if res.status == _INFEASIBLE else max(
            _upper(res, c, run, deadline - time.monotonic()) + const, level)
        if ratio:  # N - λ D <= upper for every mapping, so N / D <= λ + max(upper, 0) / min D
            bound = min(bound, lam + max(upper, 0.0) / model.den_min)
        else:
            bound = min(bound, upper / model.den0)
        if best_value >= bound - EXACT_TOL:
            return Solved(best, bound, True)
        if not ratio or best_value <= lam + 1e-12 or time.monotonic() >= deadline:
            return Solved(best, bound, False)
        lam = best_value  # Dinkelbach's step
