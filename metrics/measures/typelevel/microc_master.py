"""The multipliers of the exact Lagrangian bound by column generation (``docs/type-level.md``).

The Lagrangian dual of :mod:`metrics.measures.typelevel.microc_dual`, min over μ of
Σ_k μ_k + Σ_c V_c(μ), is the linear program (its dual) "give each class c a convex combination
of columns, sets T of clusters that may take c valued g_c(T) = 2 w_c(T) φ_c(s(T)), every cluster
covered once in all": maximise Σ v_t λ_t subject to Σ_{t ∋ k} λ_t = 1 for each cluster k,
Σ_{t of c} λ_t = 1 for each class c, λ ≥ 0, with duals μ_k and π_c. A column of class c prices
out when g_c(T) - μ(T) - π_c > 0, and the best such column is V_c(μ)'s set: the dynamic
program's tables are the pricing problem.

The duals of a master restricted to the columns found so far jump (it is degenerate), so the
multipliers come from its dual, the cutting-plane model min Σ μ + Σ π subject to π_c + μ(T) ≥
g_c(T) for each column, solved by HiGHS within a box |μ - μ̂| ≤ r around the multipliers μ̂ of the
least bound so far (a box-step method; one model kept across the steps, new columns added as rows
and re-solved by the dual simplex from the last basis): the bound at the box's optimum is evaluated
by the tables, whose best sets become columns; the centre moves there when the bound falls by
:data:`_SERIOUS` of the fall the model predicted (the box then grows), else the box shrinks. Before
each exact evaluation a cheap climb from the columns of positive weight may find cuts the model
lacks (:data:`_CHEAP` rounds at most). The first :data:`_WARM` of the time goes to subgradient
steps (Polyak's, towards the best score), whose sets start the master. Each master solution (each
cluster to the class of its largest weight) and each relaxed solution may replace the best mapping.
The search stops at the deadline, when the bound reaches the best score, or when the box's optimum
is within :data:`CLOSE` of the centre's bound: the centre then minimises the model, which is below
the Lagrangian bound everywhere, so it minimises that too. Any μ gives a valid bound Σ μ + Σ
V_c(μ); the tables returned are those of the centre.
"""

from __future__ import annotations

import time

import highspy
import numpy as np

from metrics.measures.typelevel.microc_dual import DualTables

__all__ = ["column_generation", "CLOSE"]

#: The search stops when the box's optimum is within this of the bound (score units Σ_c g_c).
CLOSE = 1e-7
#: Sets read from each class's table at each step (its best pairs (s(T), w_c(T))).
_TOP = 2
#: A column enters the master when its reduced cost is above this.
_PRICES_OUT = 1e-9
#: The share of the time spent on subgradient steps first (their sets start the master), the
#: steps without progress before the step halves, and the steps at most.
_WARM = 0.5
_PATIENCE = 4
_STEPS = 200
#: Moves of the cheap pricing, and its rounds before an exact one.
_CLIMB = 10
_CHEAP = 3
#: The box's first half-width, its growth after a serious step and shrinking after a null one.
_RADIUS = 0.1
_GROW = 2.0
_SHRINK = 0.5
#: A step is serious (the centre moves) when the bound falls by this share of the model's fall.
_SERIOUS = 0.1


class _Quiet(highspy.Highs):
    """HiGHS with its log off from the start (its constructor would print a banner)."""

    def enableCallbacks(self) -> None:  # noqa: N802 (HiGHS's name; its constructor calls it)
        self.setOptionValue("output_flag", False)
        super().enableCallbacks()


class _Model:
    """The cutting-plane model min Σ μ + Σ π subject to π_c + μ(T) ≥ g_c(T), one row a column
    of the master, variables (μ, π) (m + n of them), kept in one HiGHS model: rows are only
    added and the box changes the bounds of μ, so the last basis stays dual feasible and the
    dual simplex restarts from it."""

    def __init__(self, m: int, n: int) -> None:
        self.m, self.n, self.rows = m, n, 0
        self.highs = _Quiet()
        for key, value in (("output_flag", False), ("presolve", "off"), ("threads", 1)):
            self.highs.setOptionValue(key, value)
        free = np.full(m + n, highspy.kHighsInf)
        self.highs.addCols(m + n, np.ones(m + n), -free, free, 0, np.zeros(0, dtype=np.int32),
                           np.zeros(0, dtype=np.int32), np.zeros(0))

    def add(self, sets: np.ndarray, cls: np.ndarray, val: np.ndarray) -> None:
        """Rows π_c + μ(T) ≥ g_c(T) for the sets (0/1, shape (k, m)) of classes ``cls``."""
        if not val.size:
            return
        matrix = np.hstack((sets, np.eye(self.n)[cls]))
        row, col = np.nonzero(matrix)
        starts = np.searchsorted(row, np.arange(val.size)).astype(np.int32)
        self.highs.addRows(val.size, val, np.full(val.size, highspy.kHighsInf), row.size, starts,
                           col.astype(np.int32), matrix[row, col])
        self.rows += val.size

    def lower(self, val: np.ndarray) -> None:
        """New right-hand sides g_c(T) of every row, in the order they were added (the basis
        stays dual feasible: the costs do not change)."""
        # HiGHS has the method; the package's type stubs lack it
        self.highs.changeRowsBounds(  # type: ignore[attr-defined]
            self.rows, np.arange(self.rows, dtype=np.int32), val,
            np.full(self.rows, highspy.kHighsInf))

    def solve(self, center: np.ndarray, radius: float):
        """The model's least value within |μ - center| ≤ radius: (value, μ, π, λ), λ the
        rows' duals; value -inf when HiGHS does not end optimal, even from scratch."""
        self.highs.changeColsBounds(self.m, np.arange(self.m, dtype=np.int32), center - radius,
                                    center + radius)
        for _ in range(2):
            self.highs.run()
            if self.highs.getModelStatus() == highspy.HighsModelStatus.kOptimal:
                sol = self.highs.getSolution()
                x = np.array(sol.col_value)
                return (float(self.highs.getInfo().objective_function_value), x[:self.m],
                        x[self.m:], np.array(sol.row_dual))
            self.highs.clearSolver()  # not expected: once more without the basis
        return -np.inf, center, np.zeros(self.n), np.zeros(self.rows)


class _Columns:
    """The master's columns: their sets (0/1, shape (t, m)), classes and values g_c(T)."""

    def __init__(self, s, w, a) -> None:
        self.s, self.w, self.a = s, w, a
        self.sets: list[np.ndarray] = []
        self.cls: list[int] = []
        self.val: list[float] = []
        self.seen: set[tuple[int, bytes]] = set()
        self.lp: _Model | None = None

    def add(self, c: int, t: np.ndarray) -> bool:
        """Add the set ``t`` (0/1) of class c unless already there."""
        key = (c, np.packbits(t.astype(bool)).tobytes())
        if key in self.seen:
            return False
        self.seen.add(key)
        big_s, big_w = float(t @ self.s), float(t @ self.w[:, c])
        self.sets.append(t.astype(float))
        self.cls.append(c)
        self.val.append(2.0 * big_w * big_s / (big_s + self.a[c]) if big_s else 0.0)
        return True

    def solve(self, center: np.ndarray, radius: float):
        """The cutting-plane model's least value within the box |μ - center| ≤ radius: the
        dual of the master over these columns, min Σ μ + Σ π subject to π_c + μ(T) ≥ g_c(T)
        for each column. Returns (value, μ, π, λ: the columns' weights in the master).

        One HiGHS model lives across the calls: the columns added since the last call become
        its rows, the box its bounds, and the dual simplex starts from the last basis (still
        dual feasible: the costs do not change), a few milliseconds a step where a linear
        program from scratch took 11-15 ms on brown-100 (:class:`_Model`)."""
        if self.lp is None:
            self.lp = _Model(*self.w.shape)
        fresh = slice(self.lp.rows, len(self.val))
        self.lp.add(np.array(self.sets[fresh]).reshape(-1, self.w.shape[0]),
                    np.array(self.cls[fresh], dtype=np.int64), np.array(self.val[fresh]))
        return self.lp.solve(center, radius)

    def climb(self, t, of, allowed, mu, pi) -> int:
        """Columns that price out at (μ, π), found cheaply: from each set ``t`` (0/1, shape
        (p, m)) of class ``of``, the best single cluster added or removed while g_c(T) - μ(T)
        rises, for at most :data:`_CLIMB` moves. Adds them; returns how many."""
        t = t.copy()
        ok, wc, ac = allowed.T[of], self.w.T[of], self.a[of]
        rows = np.arange(of.size)
        for _ in range(_CLIMB):  # a loop over moves, each for every column at once
            big_s, big_w = t @ self.s, (t * wc).sum(axis=1)
            here = 2.0 * big_w * big_s / np.maximum(big_s + ac, 1e-300)
            sign = 1.0 - 2.0 * t
            s2, w2 = big_s[:, None] + sign * self.s, big_w[:, None] + sign * wc
            gain = 2.0 * w2 * s2 / np.maximum(s2 + ac[:, None], 1e-300) - sign * mu - here[:, None]
            gain = np.where(ok, gain, -np.inf)
            k = gain.argmax(axis=1)
            up = gain[rows, k] > _PRICES_OUT
            if not up.any():
                break
            t[rows[up], k[up]] = 1.0 - t[rows[up], k[up]]
        big_s, big_w = t @ self.s, (t * wc).sum(axis=1)
        reduced = 2.0 * big_w * big_s / np.maximum(big_s + ac, 1e-300) - t @ mu - pi[of]
        return sum(self.add(int(c), x) for c, x, r in zip(of, t, reduced, strict=True)
                   if r > _PRICES_OUT)


def column_generation(s, w, a, allowed, mu, target, keep, deadline: float):
    """Multipliers that minimise the root's exact Lagrangian bound (module docstring).

    Parameters
    ----------
    s, w, a, allowed : ndarray
        As :class:`metrics.measures.typelevel.microc_dual.DualTables` (the search's order).
    mu : ndarray, shape (m,)
        Starting multipliers (the first tables are built there).
    target : ndarray of int64, shape (m,)
        The best mapping (its sets are the first columns; a cluster on a class it may not take
        goes to its first allowed one).
    keep : callable
        Takes a mapping (each cluster to a class, -1 for none) and returns the best score
        (Σ_c g_c) so far.
    deadline : float
        ``time.monotonic()`` at which the search stops.

    Returns
    -------
    tables : DualTables
        The tables of the multipliers of the least bound seen.
    bound : float
        That bound.
    share : ndarray, shape (n, m)
        The last master solution's share of each cluster in each class.
    """
    m, n = w.shape
    cols = _Columns(s, w, a)
    rows = np.arange(m)
    target = np.where(allowed[rows, target], target, np.argmax(allowed, axis=1))
    for c in range(n):
        cols.add(c, (target == c).astype(float))
        cols.add(c, np.zeros(m))
    order = np.argsort(-s, kind="stable")  # the tables are smallest largest first

    def price(at: np.ndarray):
        """The bound at ``at`` and the relaxed sets (n, m); the sets of the best pairs of each
        class become columns."""
        tables = DualTables(s[order], w[order], a, at[order], allowed[order])
        bound, sets = tables.root(_TOP)
        found = np.zeros_like(sets)
        found[..., order] = sets
        for c, t in zip(np.tile(np.arange(n), _TOP), found.reshape(-1, m), strict=True):
            cols.add(int(c), t)
        return bound, found[0]

    best_bound, center, best = np.inf, mu, keep(target)
    step, stall, at = 1.0, 0, mu
    now = time.monotonic()
    warm = now + _WARM * (deadline - now) if _WARM > 0 else now
    for _ in range(_STEPS):  # subgradient steps (Polyak's, towards the best score)
        bound, chosen = price(at)
        best = keep(np.where(chosen.max(axis=0) > 0, chosen.argmax(axis=0), -1))
        if bound < best_bound - 1e-12:
            best_bound, center, stall = bound, at, 0
        else:
            stall += 1
            if stall >= _PATIENCE:
                step, stall = step / 2.0, 0
        sub = 1.0 - chosen.sum(axis=0)
        norm = float(sub @ sub)
        if norm == 0.0 or best_bound <= best or time.monotonic() > warm:
            break
        at = at - step * (bound - best) / norm * sub
    radius, cheap = _RADIUS, 0
    share = np.zeros((n, m))
    while best_bound > best and time.monotonic() <= deadline:
        model, at, pi, lam = cols.solve(center, radius)
        share = np.zeros((n, m))
        used = lam > _PRICES_OUT
        sets, of = np.array(cols.sets)[used], np.array(cols.cls)[used]
        np.add.at(share, of, sets * lam[used, None])
        best = keep(share.argmax(axis=0))
        drop = best_bound - model
        if drop <= CLOSE or not np.isfinite(drop):
            break
        if cheap < _CHEAP and cols.climb(sets, of, allowed, at, pi):
            cheap += 1  # the model is wrong at μ: solve it again before the exact pricing
            continue
        cheap = 0
        bound, chosen = price(at)
        if bound <= best_bound - _SERIOUS * drop:
            best_bound, center = bound, at
            radius *= _GROW
        else:
            radius *= _SHRINK
    return DualTables(s, w, a, center, allowed), best_bound, share
