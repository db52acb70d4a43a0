"""The exact Lagrangian bound of the MicroC branch and bound (``docs/type-level.md``).

With one cluster per word type, MicroC under M-1 is Σ_c g_c(T_c) / N* with T_c the clusters sent
to class c, g_c(T) = 2 (W⁰_c + w_c(T)) φ_c(S⁰_c + s(T)) and φ_c(S) = S / (S + |c|)
(:mod:`metrics.measures.typelevel.microc_branch`; S⁰_c, W⁰_c the clusters already placed). For
any multipliers μ_k of "cluster k goes to one class",

    Σ_c g_c(T_c) ≤ Σ_k μ_k + Σ_c V_c(S⁰_c, W⁰_c),
    V_c(S⁰, W⁰) = max over sets T of remaining clusters of 2 (W⁰ + w_c(T)) φ_c(S⁰ + s(T)) - μ(T).

Sizes s_k and shared types w_kc are counts of word types, so V_c is found exactly by a dynamic
program over the pairs (s(T), w_c(T)): F_j,c[S, W] is the least μ(T) over the sets T of the
clusters j, j+1, ... (in the search's order) that may take c with s(T) = S and w_c(T) = W
(+inf when no set has them). The tables are built from the last cluster backwards, each from the
next by one shifted minimum, so a table holds only the sizes its clusters can reach: after the
few large clusters placed first they are small. At a node of depth j the bound of its child
"cluster j to c" reads the tables of j + 1: V_c is the largest 2 (W⁰ + W) φ_c(S⁰ + S) - F[S, W]
over a table. The classes a cluster may take are those of the root (the classes ruled out there
are ruled out for every optimum), so the tables of a node bound every completion of it that the
search may reach. The multipliers come from a subgradient search at the root on this exact
relaxation (the relaxed set of each class read back from the tables), then stay fixed.
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["DualTables", "dual_tables"]

#: Subgradient steps at the root at most, and steps without progress before the step halves.
_STEPS = 200
_PATIENCE = 4
_FIRST = 1.0


class DualTables:
    """The tables F_j,c of one set of multipliers (module docstring).

    Parameters
    ----------
    s, w : ndarray, shapes (m,), (m, n)
        Cluster sizes and shared types in the search's order (integral values).
    a : ndarray, shape (n,)
        Class sizes |c| (all > 0).
    mu : ndarray, shape (m,)
        The multipliers.
    allowed : ndarray of bool, shape (m, n)
        The classes each cluster may take (the root's).
    """

    def __init__(self, s, w, a, mu, allowed) -> None:
        self.s = s.astype(np.int64)
        self.w = w.astype(np.int64)
        self.a, self.mu, self.allowed = a, mu, allowed
        m, n = w.shape
        self.m, self.n = m, n
        self.tail = np.concatenate((np.cumsum(mu[::-1])[::-1], [0.0]))  # Σ_{k ≥ j} μ_k
        self.tables: list[list[np.ndarray]] = [[] for _ in range(m + 1)]
        for c in range(n):  # a loop over classes and clusters, each step one table at once
            f = np.zeros((1, 1))
            self.tables[m].append(f)
            for j in range(m - 1, -1, -1):
                if allowed[j, c]:
                    sk, wk = int(self.s[j]), int(self.w[j, c])
                    g = np.full((f.shape[0] + sk, f.shape[1] + wk), np.inf)
                    g[:f.shape[0], :f.shape[1]] = f
                    np.minimum(g[sk:, wk:], f + mu[j], out=g[sk:, wk:])
                    f = g
                self.tables[j].append(f)
        self._grids: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def _grid(self, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        if shape not in self._grids:
            self._grids[shape] = (np.arange(shape[0], dtype=float)[:, None],
                                  np.arange(shape[1], dtype=float)[None, :])
        return self._grids[shape]

    def value(self, j: int, c: int, s0: float, w0: float) -> float:
        """V_c(S⁰, W⁰) over the clusters j, j+1, ... (module docstring)."""
        f = self.tables[j][c]
        big_s, big_w = self._grid(f.shape)
        top = s0 + big_s
        return float(np.max(2.0 * (w0 + big_w) * top / (top + self.a[c]) - f))

    def children(self, j: int, s0: np.ndarray, w0: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The bound of each child of a node at depth j (cluster j to class c; -inf where the
        cluster may not go): Σ_{k > j} μ_k + Σ_c V_c, the child's class holding cluster j."""
        sj, wj = float(self.s[j]), self.w[j]
        stay = np.array([self.value(j + 1, c, s0[c], w0[c]) for c in range(self.n)])
        out = np.full(self.n, -np.inf)
        for c in np.flatnonzero(mask).tolist():  # a loop over classes, each one table at once
            out[c] = stay.sum() - stay[c] + self.value(j + 1, c, s0[c] + sj, w0[c] + wj[c])
        return out + self.tail[j + 1]

    def root(self) -> tuple[float, np.ndarray]:
        """The root's bound Σ_k μ_k + Σ_c V_c(0, 0) and the relaxed sets (shape (n, m), 0/1)."""
        chosen = np.zeros((self.n, self.m))
        total = self.tail[0]
        for c in range(self.n):
            f = self.tables[0][c]
            big_s, big_w = self._grid(f.shape)
            obj = 2.0 * big_w * big_s / (big_s + self.a[c]) - f
            at = np.unravel_index(int(np.argmax(obj)), obj.shape)
            total += float(obj[at])
            size, shared = int(at[0]), int(at[1])
            for j in range(self.m):  # read the set back: cluster j is in it when its table
                nxt = self.tables[j + 1][c]  # is reached from the next one through it
                here = self.tables[j][c][size, shared]
                if (self.allowed[j, c] and size >= self.s[j] and shared >= self.w[j, c]
                        and size - self.s[j] < nxt.shape[0]
                        and shared - self.w[j, c] < nxt.shape[1]
                        and here == nxt[size - self.s[j], shared - self.w[j, c]] + self.mu[j]):
                    chosen[c, j] = 1.0
                    size, shared = size - int(self.s[j]), shared - int(self.w[j, c])
        return total, chosen


def dual_tables(s, w, a, allowed, mu, keep, deadline: float):
    """Multipliers that lower the root's exact Lagrangian bound, by subgradient steps from
    ``mu`` towards the best score, until :data:`_STEPS` steps, the bound at the best score or
    ``deadline``. ``keep`` takes each relaxed solution rounded to a mapping (each cluster to a
    class whose set holds it, -1 for a cluster in none) and returns the best score (Σ_c g_c)
    so far. Returns the tables of the best multipliers seen and their bound."""
    best_tables, best_bound, step, stall = None, np.inf, _FIRST, 0
    best = keep(np.full(s.size, -1))
    for _ in range(_STEPS):
        tables = DualTables(s, w, a, mu, allowed)
        bound, chosen = tables.root()
        best = keep(np.where(chosen.max(axis=0) > 0, chosen.argmax(axis=0), -1))
        if bound < best_bound - 1e-12:
            best_tables, best_bound, stall = tables, bound, 0
        else:
            stall += 1
            if stall >= _PATIENCE:
                step, stall = step / 2.0, 0
        sub = 1.0 - chosen.sum(axis=0)
        norm = float(sub @ sub)
        if norm == 0.0 or bound <= best or time.monotonic() > deadline:
            break
        mu = mu - step * (bound - best) / norm * sub
    return best_tables, best_bound
