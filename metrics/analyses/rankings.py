"""Rankings of the systems by campaign F_alpha: at one alpha, between two alphas (JAIR 2011
Table 3) and per test bed.

Ranks are 1 = best; ties share the smaller rank and keep system order; a system without any
score ranks last. See ``docs/measures.md``, "Rankings".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.analyses.common import check_alpha, means, ranks
from metrics.comparison.curves import check_average, curves_from_arrays
from metrics.model.score_table import score_cube

__all__ = ["ranking", "rank_moves", "testbed_rankings", "TestbedRankings"]


def ranking(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    alpha: float = 0.5,
    average: str = "macro",
) -> pd.DataFrame:
    """Systems ranked by campaign F_alpha (JAIR 2011 Table 3; ``docs/measures.md``, "Rankings").

    Returns
    -------
    DataFrame
        ``system, f, precision, recall, rank`` sorted by rank (1 = best; ties share the smaller
        rank and keep system order). ``precision`` and ``recall`` are the topic means over the
        topics where the system has both.
    """
    check_average(average)
    cube = score_cube(table, [precision, recall])
    curves = curves_from_arrays(cube.values[:, :, 0], cube.values[:, :, 1], average)
    f = curves.values([float(alpha)])[:, 0]
    pr = means(cube.values)
    out = pd.DataFrame({"system": list(cube.systems), "f": f, "precision": pr[:, 0],
                        "recall": pr[:, 1], "rank": ranks(f)})
    return out.sort_values(["rank"], kind="stable").reset_index(drop=True)


def rank_moves(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    alpha1: float,
    alpha2: float,
    average: str = "macro",
) -> pd.DataFrame:
    """How ranks by campaign F_alpha move between ``alpha1`` and ``alpha2``.

    Returns
    -------
    DataFrame
        ``system, f_1, rank_1, f_2, rank_2, move`` with ``move = rank_1 - rank_2`` (positive: the
        system climbs at ``alpha2``), sorted by ``rank_1``.
    """
    check_average(average)
    cube = score_cube(table, [precision, recall])
    curves = curves_from_arrays(cube.values[:, :, 0], cube.values[:, :, 1], average)
    f = curves.values([float(alpha1), float(alpha2)])
    r1, r2 = ranks(f[:, 0]), ranks(f[:, 1])
    out = pd.DataFrame({"system": list(cube.systems), "f_1": f[:, 0], "rank_1": r1,
                        "f_2": f[:, 1], "rank_2": r2, "move": r1 - r2})
    out.attrs.update(alpha1=float(alpha1), alpha2=float(alpha2))
    return out.sort_values(["rank_1"], kind="stable").reset_index(drop=True)


@dataclass(frozen=True, eq=False)
class TestbedRankings:
    """Rank and campaign F_alpha of every system on all topics and on each test bed.

    Attributes
    ----------
    ranks, f : DataFrame
        Index ``system`` in the order of the overall rank; columns ``all`` then one per test
        bed (sorted by name).
    """

    ranks: pd.DataFrame
    f: pd.DataFrame


def testbed_rankings(
    table: pd.DataFrame,
    precision: str,
    recall: str,
    testbeds: Mapping[str, str],
    alpha: float = 0.5,
    average: str = "macro",
) -> TestbedRankings:
    """Rankings by campaign F_alpha on all topics and on each test bed (JAIR 2011 §7).

    Each test bed's ranking is :func:`ranking` of the table restricted to the topics of that bed
    (topics outside ``testbeds`` count only in ``all``).

    Returns
    -------
    TestbedRankings
    """
    check_average(average)
    alpha = check_alpha(alpha)
    cube = score_cube(table, [precision, recall])
    P, R = cube.values[:, :, 0], cube.values[:, :, 1]
    bed_of = np.asarray([str(testbeds.get(t, "")) if testbeds.get(t) is not None else ""
                         for t in cube.topics], dtype=object)
    beds = sorted({b for b in bed_of if b})
    cols_f = {"all": curves_from_arrays(P, R, average).values([alpha])[:, 0]}
    for bed in beds:
        keep = bed_of == bed
        cols_f[bed] = curves_from_arrays(P[:, keep], R[:, keep], average).values([alpha])[:, 0]
    names = pd.Index(list(cube.systems), name="system")
    f = pd.DataFrame(cols_f, index=names)
    rk = pd.DataFrame({c: ranks(f[c].to_numpy()) for c in f.columns}, index=names)
    order = rk["all"].sort_values(kind="stable").index
    return TestbedRankings(rk.reindex(order), f.reindex(order))
