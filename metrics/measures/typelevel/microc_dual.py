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
search may reach. The multipliers that minimise the root's bound come from column generation
(:mod:`metrics.measures.typelevel.microc_master`: the tables price its columns, the sets of the
best pairs read back from them), then stay fixed.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["DualTables", "gain_bound"]


def gain_bound(s: np.ndarray, w: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The most adding cluster k to any set of class c can raise g_c, shape (m, n).

    g_c(T + k) - g_c(T) = 2 w_kc φ_c(S + s_k) + 2 W (φ_c(S + s_k) - φ_c(S)) with S, W the set's
    (placed clusters included; W ≤ S, since w_kc ≤ s_k). The first term is below 2 w_kc; the
    second is at most 2 S (φ_c(S + s_k) - φ_c(S)) = 2 S s_k |c| / ((S + |c|)(S + s_k + |c|)),
    largest at S = sqrt(|c| (|c| + s_k)). A cluster whose μ_k is at least their sum never
    raises g_c - μ(T) (the set without it does as well): the tables of class c leave it out,
    and V_c stays exact.
    """
    sk = s[:, None]
    at = np.sqrt(a * (a + sk))
    return 2.0 * w + 2.0 * at * sk * a / ((at + a) * (at + sk + a))


@functools.lru_cache(maxsize=512)
def _values(a: float, shape: tuple[int, int]) -> np.ndarray:
    """2 W φ(S) = 2 W S / (S + |c|) over a table's pairs (S, W), ``a`` = |c| (read only)."""
    big_s = np.arange(shape[0], dtype=float)[:, None]
    out = 2.0 * np.arange(shape[1], dtype=float)[None, :] * big_s / (big_s + a)
    out.flags.writeable = False
    return out


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
        The classes each cluster may take (the root's). The attribute ``allowed`` keeps those
        of them where μ_k is below :func:`gain_bound`: the clusters the tables hold.
    """

    def __init__(self, s, w, a, mu, allowed) -> None:
        self.s = s.astype(np.int64)
        self.w = w.astype(np.int64)
        self.a, self.mu = a, mu
        self.allowed = allowed & (mu[:, None] < gain_bound(s, w, a))  # the others never pay
        allowed = self.allowed
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

    def read_set(self, c: int, size: int, shared: int) -> np.ndarray:
        """The set T of least μ(T) reaching (s(T), w_c(T)) = (``size``, ``shared``) in class
        c's table of the root, 0/1 over the clusters: cluster j is in it when its table is
        reached from the next one through it."""
        chosen = np.zeros(self.m)
        s, w, mu, tables = self.s.tolist(), self.w[:, c].tolist(), self.mu.tolist(), self.tables
        for j in np.flatnonzero(self.allowed[:, c]).tolist():  # a loop over clusters, scalars
            if size == 0:
                break
            nxt = tables[j + 1][c]
            rs, rw = size - s[j], shared - w[j]
            if (0 <= rs < nxt.shape[0] and 0 <= rw < nxt.shape[1]
                    and tables[j][c][size, shared] == nxt[rs, rw] + mu[j]):
                chosen[j] = 1.0
                size, shared = rs, rw
        return chosen

    def root(self, top: int = 1) -> tuple[float, np.ndarray]:
        """The root's bound Σ_k μ_k + Σ_c V_c(0, 0) and the relaxed sets, shape (top, n, m),
        0/1: those of the ``top`` best pairs (s(T), w_c(T)) of each class, the first the
        relaxed one (an empty set where a table has fewer pairs)."""
        chosen = np.zeros((top, self.n, self.m))
        total = self.tail[0]
        for c in range(self.n):  # a loop over classes, each table at once
            f = self.tables[0][c]
            obj = (_values(float(self.a[c]), f.shape) - f).ravel()
            best = []
            for _ in range(min(top, obj.size)):  # the best pairs, one maximum at a time
                best.append(int(np.argmax(obj)))
                if len(best) == 1:
                    total += float(obj[best[0]])
                if not np.isfinite(obj[best[-1]]):
                    best.pop()
                    break
                obj[best[-1]] = -np.inf
            size, shared = np.unravel_index(best, f.shape)
            for i, (z, y) in enumerate(zip(size.tolist(), shared.tolist(), strict=True)):
                chosen[i, c] = self.read_set(c, z, y)
        return total, chosen
