"""A ranking that shows only what the data supports: a partial order of robust improvements,
tie groups and rank intervals (docs/rankings.md, "Ranking with tie groups").

A leaderboard sorted by F_alpha states an order between every two systems, even where no test
and no unanimous improvement separates them. Here system a is placed **above** system b only
where b -> a is a *robust improvement* in the sense of Amigó, Gonzalo, Artiles and Verdejo (JAIR
2011, pair classes of Table 6; reference and improved systems of the WePS paper, Table 5):

    a -> b (a directly above b)  iff  UIR(a, b) >= t  and  class(a, b) = "concordant",

with t the UIR threshold (default 0.25, the papers' threshold of reference / improved systems)
and class(a, b) the pair class of the comparison: at least one metric improves significantly and
none worsens significantly, on the comparison's *corrected* p-values (Holm by default; the
correction enters only through the class). Without tests (``test="none"``) the class condition
cannot be checked and the rule is UIR alone; :attr:`TieRanking.rule` says which rule was used.

UIR is not transitive (JAIR 2011, Table 4: a counter-example to transitivity), so the direct
relation may contain cycles
a -> b -> c -> a (a 2-cycle is impossible: UIR(b, a) = -UIR(a, b) < 0 < t). **Cycle rule:** the
systems of a cycle (a strongly connected component of the direct relation) are merged into one
block and ranked as tied. Reason: every linear order of a cycle places some system below one it
robustly improves on, and no member is preferred by the data over the others; merging is the
only choice that contradicts no robust improvement's direction and breaks no symmetry
arbitrarily. The order between blocks is the transitive closure of the direct relation (a is
above c when a chain of robust improvements leads from a down to c).

Derived quantities, for S systems:

* **rank interval** ``[rank_low, rank_high]``: the best and the worst position a system takes in
  the linear orders consistent with the partial order, ``rank_low = 1 + #above``,
  ``rank_high = S - #below`` (both attained: put everything incomparable after, resp. before).
  ``rank_low`` is the better (smaller) rank.
* **tie group**: the longest-chain level from the top, 1 = no system above. Two systems of one
  group are never ordered (an antichain): no robust improvement, direct or by a chain,
  separates them.
* **Hasse diagram**: the transitive reduction of the order between blocks.

Cost: S x S boolean relations (at most 24 bytes a cell, checked against the compute budget
before they exist, :mod:`metrics.compute_budget`); the closure (Warshall) and the Hasse diagram's
paths of two edges take S steps each over bit-packed rows, O(S^3 / 8) byte operations, a
fraction of a second at the systems ``compare`` allows by default, and no BLAS call (whose
worker threads spin on after a product of this size). Where the relation is already
transitive (unanimity on two averages, ``check-reported``) :mod:`metrics.comparison.rank_bounds`
counts the intervals directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from metrics.comparison.profiles import profile_of
from metrics.comparison.reference import improves
from metrics.comparison.uir import DEFAULT_THRESHOLD
from metrics.compute_budget import require
from metrics.errors import UnanimityError
from metrics.reports.latex import latex_escape, shown_note

__all__ = ["TieRanking", "tie_ranking", "ranking_from_comparison", "ranking_latex",
           "RANKING_COLUMNS", "DEFAULT_RANK_THRESHOLD"]

#: Columns of ``ranking.csv``.
RANKING_COLUMNS: tuple[str, ...] = ("system", "rank_low", "rank_high", "group")
#: Default UIR threshold of a robust improvement (:data:`metrics.comparison.uir.DEFAULT_THRESHOLD`).
DEFAULT_RANK_THRESHOLD = DEFAULT_THRESHOLD
#: Working memory per cell of the S x S relations (boolean relations, the closure and the paths
#: of two edges, the covering relation; an upper bound), checked against the compute budget
#: before they exist.
MATRIX_BYTES = 24


@dataclass(frozen=True, eq=False)
class TieRanking:
    """The partial order of robust improvements and what follows from it.

    Attributes
    ----------
    systems : tuple of str
        In the order of the input.
    direct : ndarray of bool, shape (S, S)
        ``direct[i, j]``: system i is directly above j (the rule of the module docstring).
    above : ndarray of bool, shape (S, S)
        ``above[i, j]``: i is above j in the partial order (closure over blocks; never within a
        block, never both ways).
    block : ndarray of int, shape (S,)
        Block (strongly connected component of ``direct``) of each system; systems of a cycle
        share a block.
    group : ndarray of int, shape (S,)
        Tie group, 1 = top.
    rank_low, rank_high : ndarray of int, shape (S,)
        Best and worst rank consistent with the order.
    hasse : DataFrame
        ``upper, lower``: one edge of the Hasse diagram per row, between systems (each block is
        represented by all its members: an edge per member pair of two covering blocks).
    cycles : tuple of tuple of str
        Blocks of more than one system (merged cycles).
    rule : str
        ``"uir+concordant"`` or ``"uir"`` (no pair classes in the comparison).
    threshold : float
    score : ndarray of float or None
        A score shown next to the order (campaign F_alpha), used only to list systems within a
        group; it never decides the order.
    strict : bool
        The profile's rule: a robust improvement needs ``UIR > threshold`` (else ``>=``).
    """

    systems: tuple[str, ...]
    direct: np.ndarray
    above: np.ndarray
    block: np.ndarray
    group: np.ndarray
    rank_low: np.ndarray
    rank_high: np.ndarray
    hasse: pd.DataFrame
    cycles: tuple[tuple[str, ...], ...]
    rule: str
    threshold: float
    score: np.ndarray | None = None
    strict: bool = False

    def to_dataframe(self) -> pd.DataFrame:
        """``system, rank_low, rank_high, group, n_above, n_below, block, score`` sorted by group,
        then score (descending, when given), then system order."""
        S = len(self.systems)
        df = pd.DataFrame({
            "system": list(self.systems),
            "rank_low": self.rank_low,
            "rank_high": self.rank_high,
            "group": self.group,
            "n_above": self.above.sum(axis=0),
            "n_below": self.above.sum(axis=1),
            "block": self.block,
            "score": self.score if self.score is not None else np.full(S, np.nan),
        })
        df["_pos"] = np.arange(S)
        df = df.sort_values(["group", "score", "_pos"], ascending=[True, False, True],
                            kind="stable", na_position="last")
        return df.drop(columns="_pos").reset_index(drop=True)

    def to_csv_frame(self) -> pd.DataFrame:
        """The four columns of ``ranking.csv``: ``system, rank_low, rank_high, group``."""
        return self.to_dataframe()[list(RANKING_COLUMNS)]

    def to_latex(self, caption_metric: str = "F", top: int | None = None,
                 csv_name: str = "ranking.csv") -> str:
        """:func:`ranking_latex` of this ranking."""
        return ranking_latex(self, caption_metric, top, csv_name)


def ranking_latex(ranking, caption_metric: str = "F", top: int | None = None,
                  csv_name: str = "ranking.csv") -> str:
    """A booktabs table of a ranking with tie groups (a :class:`TieRanking`, or one reopened from a
    bundle: anything with ``to_dataframe``, ``strict``, ``threshold``, ``rule``, ``cycles``):
    group, system, rank interval (needs ``\\usepackage{booktabs}``);
    with ``top``, its first ``top`` rows and the note "N of M systems shown; full table in
    ranking.csv" (``csv_name``: the file the reader downloads)."""

    sign = ">" if ranking.strict else "\\geq"
    rule = (f"UIR ${sign} {ranking.threshold:g}$" + (" and a concordant significant improvement"
                                                  if ranking.rule == "uir+concordant" else ""))
    lines = [r"\begin{table}[ht]", r"\centering", r"\small", r"\begin{tabular}{rlc}",
             r"\toprule", r"Group & System & Rank interval \\", r"\midrule"]
    prev = None
    full = ranking.to_dataframe()
    rows = full if top is None else full.head(int(top))
    for r in rows.itertuples(index=False):
        if prev is not None and r.group != prev:
            lines.append(r"\addlinespace")
        interval = (f"{r.rank_low}" if r.rank_low == r.rank_high
                    else f"{r.rank_low}--{r.rank_high}")
        lines.append(f"{r.group} & {latex_escape(r.system)} & {interval} \\\\")
        prev = r.group
    cyc = (f" {len(ranking.cycles)} cycle(s) of UIR merged into ties." if ranking.cycles else "")
    if len(rows) < len(full):
        cyc += " " + latex_escape(shown_note(len(rows), len(full), csv_name))
    lines += [r"\bottomrule", r"\end{tabular}",
              rf"\caption{{Ranking with tie groups: a system is above another only where it is "
              rf"a robust improvement over it ({rule}) or a chain of such improvements leads "
              rf"down to it; systems of one group are not separated; within a group listed by "
              rf"{latex_escape(caption_metric)}.{cyc}}}",
              r"\end{table}", ""]
    return "\n".join(lines)


def _closure(adj: np.ndarray) -> np.ndarray:
    """Transitive closure of a boolean adjacency matrix (Warshall): for each k in turn, every
    row that reaches k also reaches what k reaches. Rows are bit-packed, so one step ORs
    S / 8 bytes into each row that reaches k."""
    n = adj.shape[0]
    reach = np.packbits(adj, axis=1)
    for k in range(n):
        rows = np.flatnonzero((reach[:, k >> 3] >> (7 - (k & 7))) & 1)
        if rows.size:
            reach[rows] |= reach[k]
    return np.unpackbits(reach, axis=1, count=n).astype(bool)


def _two_steps(clos: np.ndarray) -> np.ndarray:
    """``(i, j)`` joined by a path of two edges of ``clos`` (some k with ``clos[i, k]`` and
    ``clos[k, j]``): the boolean product of ``clos`` with itself, bit-packed rows."""
    n = clos.shape[0]
    packed = np.packbits(clos, axis=1)
    out = np.zeros_like(packed)
    for k in range(n):
        rows = np.flatnonzero(clos[:, k])
        if rows.size:
            out[rows] |= packed[k]
    return np.unpackbits(out, axis=1, count=n).astype(bool)


def _levels(above_blocks: np.ndarray) -> np.ndarray:
    """Longest-chain level of each block in a DAG given by its closure (1 = nothing above)."""
    B = above_blocks.shape[0]
    level = np.zeros(B, dtype=np.int64)
    left = np.ones(B, dtype=bool)
    k = 0
    while left.any():
        k += 1
        # blocks with no remaining block above them
        top = left & ~above_blocks[left].any(axis=0)
        level[top] = k
        left &= ~top
    return level


def tie_ranking(
    pairs: pd.DataFrame,
    systems: Sequence[str] | None = None,
    threshold: float = DEFAULT_RANK_THRESHOLD,
    score: Sequence[float] | None = None,
    require_concordant: bool = True,
    strict: bool = False,
) -> TieRanking:
    """Partial order, tie groups and rank intervals from a comparison's pairs table.

    Parameters
    ----------
    pairs : DataFrame
        Ordered pairs with ``system_a, system_b, uir`` and, unless ``require_concordant`` is
        False, ``pair_class`` (the pairs table of :func:`metrics.analyses.compare`). Missing
        pairs count as not robust.
    systems : sequence of str, optional
        All systems (default: those of ``pairs``, in order of appearance).
    threshold : float, default 0.25
        a is directly above b iff ``UIR(a, b) >= threshold`` (and the class is concordant).
        Meant to be > 0; at or below 0 the rule alone (without classes) relates pairs both ways
        (UIR(a, b) = UIR(b, a) = 0), and the cycle rule ties them; above 1 nothing is ordered.
    score : sequence of float, optional
        Per system (aligned with ``systems``), only to list systems within a group.
    require_concordant : bool, default True
        Also require ``pair_class == "concordant"``. When the pairs carry no class at all
        (comparison without tests) the rule falls back to UIR alone.
    strict : bool, default False
        The profile's rule (:func:`metrics.comparison.reference.improves`): ``UIR(a, b) >
        threshold`` instead of ``>=``.

    Returns
    -------
    TieRanking
    """
    threshold = float(threshold)
    if not np.isfinite(threshold):
        raise UnanimityError(f"the ranking threshold must be a finite number, got {threshold:g}")
    for col in ("system_a", "system_b", "uir"):
        if col not in pairs:
            raise UnanimityError(f"the pairs table has no column {col!r}")
    if systems is None:
        systems = pd.unique(pd.concat([pairs["system_a"], pairs["system_b"]], ignore_index=True))
    names = tuple(str(s) for s in systems)
    S = len(names)
    require("the ranking with tie groups", f"{S:,} systems", S * S * MATRIX_BYTES)
    index = pd.Index(names)
    ia = index.get_indexer(pairs["system_a"].astype(str))
    ib = index.get_indexer(pairs["system_b"].astype(str))
    if (ia < 0).any() or (ib < 0).any():
        raise UnanimityError("the pairs table names systems outside the given systems")
    u = pairs["uir"].to_numpy(dtype=np.float64)
    robust = improves(u, threshold, strict)
    rule = "uir"
    if require_concordant and "pair_class" in pairs and pairs["pair_class"].notna().any():
        robust &= (pairs["pair_class"] == "concordant").to_numpy()
        rule = "uir+concordant"
    direct = np.zeros((S, S), dtype=bool)
    direct[ia[robust], ib[robust]] = True
    np.fill_diagonal(direct, False)

    n_blocks, block = connected_components(csr_matrix(direct), directed=True, connection="strong")
    # block-level direct relation, then its closure (a DAG: cycles live inside blocks)
    bdir = np.zeros((n_blocks, n_blocks), dtype=bool)
    bi, bj = np.nonzero(direct)
    bdir[block[bi], block[bj]] = True
    np.fill_diagonal(bdir, False)
    bclos = _closure(bdir)
    above = bclos[block[:, None], block[None, :]]
    n_above = above.sum(axis=0)
    n_below = above.sum(axis=1)
    group = _levels(bclos)[block]
    # Hasse diagram: covering relation between blocks = closure minus paths of length >= 2
    cover = bclos & ~_two_steps(bclos)
    ci, cj = np.nonzero(cover[block[:, None], block[None, :]])
    hasse = pd.DataFrame({"upper": np.asarray(names, dtype=object)[ci],
                          "lower": np.asarray(names, dtype=object)[cj]})
    sizes = np.bincount(block, minlength=n_blocks)
    cycles = tuple(tuple(names[i] for i in np.flatnonzero(block == b))
                   for b in np.flatnonzero(sizes > 1))
    sc = None if score is None else np.asarray(score, dtype=np.float64)
    if sc is not None and sc.shape != (S,):
        raise UnanimityError(f"score has {sc.size} values for {S} systems")
    return TieRanking(names, direct, above, block.astype(np.int64), group,
                      1 + n_above, S - n_below, hasse, cycles, rule, threshold, sc, strict)


def ranking_from_comparison(result, threshold: float | None = None,
                            require_concordant: bool = True) -> TieRanking:
    """:func:`tie_ranking` of a :class:`metrics.reports.comparison_report.CampaignComparison` (its
    pairs, its
    systems in order, its campaign F_alpha as the listing score, its UIR threshold unless
    ``threshold`` is given, its profile's rule of improvement)."""
    thr = (result.parameters.get("threshold", DEFAULT_RANK_THRESHOLD) if threshold is None
           else threshold)
    systems = result.systems
    strict = profile_of(result.parameters).strict_improved
    return tie_ranking(result.pairs, systems["system"].tolist(), thr,
                       score=systems["f_alpha"].to_numpy(dtype=np.float64),
                       require_concordant=require_concordant, strict=strict)
