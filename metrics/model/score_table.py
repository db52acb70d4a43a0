"""Score tables: the one input of every comparison analysis (docs/measures.md §1, §4-6).

A **score table** is a long :class:`pandas.DataFrame` with exactly the columns
``system, topic, metric, value`` (str, str, str, float), one row per (system, topic, metric).
It is what :func:`metrics.measures.scoring.evaluate` returns and what a precomputed-scores campaign
holds,
so every analysis in :mod:`metrics.comparison.combine`, :mod:`metrics.comparison.uir`,
:mod:`metrics.comparison.significance` and
:mod:`metrics.analyses` works on scores computed elsewhere too.

The analyses themselves work on a dense :class:`ScoreCube` (systems x topics x metrics), built
once from the table with categorical codes (no pivot loops).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.measures.registry import direction

__all__ = [
    "SCORE_COLUMNS",
    "names_at",
    "ScoreCube",
    "validate_score_table",
    "score_cube",
    "campaign_means",
    "metric_directions",
]

SCORE_COLUMNS: tuple[str, ...] = ("system", "topic", "metric", "value")


def names_at(names: Sequence | np.ndarray, codes: np.ndarray):
    """``names[codes]`` as a column of a DataFrame: the column a frame built from the object
    array ``names[codes]`` would get (with pandas' text dtype, an Arrow-backed array), made by
    one ``take`` over the few distinct names instead of converting one Python string per row.
    For the pair tables, whose system columns repeat a few hundred names many times."""
    return pd.Series(np.asarray(names, dtype=object)).array.take(
        np.asarray(codes, dtype=np.int64))


def validate_score_table(df: pd.DataFrame, source: str = "score table") -> pd.DataFrame:
    """Check a score table and return a clean copy.

    Parameters
    ----------
    df : DataFrame
        Must have the columns ``system, topic, metric, value``; other columns are dropped.
    source : str
        Name of the table in error messages (e.g. a file path).

    Returns
    -------
    DataFrame
        Columns exactly ``system, topic, metric, value``; the three keys as ``str``, ``value`` as
        ``float64``. A NaN value is kept: it means "no score" and every analysis treats it as
        absent.

    Raises
    ------
    ValueError
        Naming the problem: not a DataFrame, missing columns, empty keys, non-numeric values,
        duplicate (system, topic, metric) rows.
    """
    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{source}: expected a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in SCORE_COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(
            f"{source}: missing column(s) {', '.join(missing)}; a score table has columns "
            f"{', '.join(SCORE_COLUMNS)}"
        )
    out = pd.DataFrame({c: df[c] for c in SCORE_COLUMNS}).reset_index(drop=True)
    for c in ("system", "topic", "metric"):
        col = out[c]
        if col.isna().any():
            row = int(np.flatnonzero(col.isna().to_numpy())[0])
            raise ValueError(f"{source}: empty {c} in row {row}")
        if not (pd.api.types.is_string_dtype(col) and col.dtype != object):
            out[c] = col.astype(str)
    value = out["value"]
    if value.dtype.kind in "biuf":
        numeric = value.astype(np.float64)
    else:
        numeric = pd.to_numeric(value, errors="coerce").astype(np.float64)
        bad = numeric.isna() & value.notna() & (value.astype(str).str.strip().str.lower() != "nan")
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise ValueError(
                f"{source}: non-numeric value {value.iloc[row]!r} in row {row} "
                f"(system {out['system'].iloc[row]!r}, topic {out['topic'].iloc[row]!r}, "
                f"metric {out['metric'].iloc[row]!r})"
            )
    out["value"] = numeric
    if np.isinf(numeric.to_numpy()).any():
        row = int(np.flatnonzero(np.isinf(numeric.to_numpy()))[0])
        raise ValueError(f"{source}: infinite value in row {row}")
    lin = np.zeros(len(out), dtype=np.int64)
    for c in ("system", "topic", "metric"):
        codes, uniques = pd.factorize(out[c])
        lin = lin * max(1, len(uniques)) + codes
    _, inverse, counts = np.unique(lin, return_inverse=True, return_counts=True)
    dup = counts[inverse] > 1
    if dup.any():
        first = out[dup].iloc[0]
        raise ValueError(
            f"{source}: {int(dup.sum())} duplicate rows for the same (system, topic, metric), "
            f"e.g. ({first['system']!r}, {first['topic']!r}, {first['metric']!r})"
        )
    return out


@dataclass(frozen=True, eq=False)
class ScoreCube:
    """Dense scores: ``values[s, t, m]`` is metric ``metrics[m]`` of ``systems[s]`` on
    ``topics[t]``.

    Attributes
    ----------
    systems, topics, metrics : tuple of str
    values : ndarray of float64, shape (S, T, M)
        NaN where the table has no score.
    """

    systems: tuple[str, ...]
    topics: tuple[str, ...]
    metrics: tuple[str, ...]
    values: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        s, t, m = self.values.shape
        return s, t, m

    def system_index(self, name: str) -> int:
        """Position of a system; ``ValueError`` naming the known systems if absent."""
        try:
            return self.systems.index(name)
        except ValueError:
            raise ValueError(
                f"unknown system {name!r}; known systems: {', '.join(self.systems)}"
            ) from None

    def metric(self, name: str) -> np.ndarray:
        """The (S, T) slice of one metric."""
        try:
            m = self.metrics.index(name)
        except ValueError:
            raise ValueError(
                f"unknown metric {name!r}; cube metrics: {', '.join(self.metrics)}") from None
        return self.values[:, :, m]

    def oriented(self, directions: Sequence[int]) -> np.ndarray:
        """Values with every metric turned into higher-is-better (multiplied by its direction)."""
        d = np.asarray(directions, dtype=np.float64).reshape(1, 1, -1)
        return self.values * d


def score_cube(
    table: pd.DataFrame,
    metrics: Sequence[str],
    systems: Sequence[str] | None = None,
    topics: Sequence[str] | None = None,
) -> ScoreCube:
    """Dense (systems x topics x metrics) array of a score table.

    Parameters
    ----------
    table : DataFrame
        A score table (validated here).
    metrics : sequence of str
        Metrics to keep, in this order. Each must occur in the table.
    systems, topics : sequence of str, optional
        Restrict to (and order by) these; each must occur in the table. By default every system
        and topic of the table with a score for one of ``metrics``, in order of first appearance.

    Returns
    -------
    ScoreCube
        NaN where a (system, topic, metric) has no row.
    """
    table = validate_score_table(table)
    metrics = [str(m) for m in metrics]
    if not metrics:
        raise ValueError("score_cube: no metric requested")
    if len(set(metrics)) != len(metrics):
        raise ValueError(f"score_cube: repeated metric in {metrics}")
    known = pd.unique(table["metric"])
    absent = [m for m in metrics if m not in set(known)]
    if absent:
        raise ValueError(
            f"metric(s) {', '.join(map(repr, absent))} not in the score table; "
            f"available: {', '.join(map(str, known))}"
        )
    sub = table[table["metric"].isin(metrics)]
    sys_order = _order(sub["system"], systems, "system")
    top_order = _order(sub["topic"], topics, "topic")
    s_codes = _codes_in(sub["system"], sys_order)
    t_codes = _codes_in(sub["topic"], top_order)
    m_codes = _codes_in(sub["metric"], metrics)
    keep = (s_codes >= 0) & (t_codes >= 0)
    values = np.full((len(sys_order), len(top_order), len(metrics)), np.nan)
    values[s_codes[keep], t_codes[keep], m_codes[keep]] = sub["value"].to_numpy()[keep]
    return ScoreCube(tuple(sys_order), tuple(top_order), tuple(metrics), values)


def _codes_in(column: pd.Series, order: Sequence[str]) -> np.ndarray:
    """Position of each value of ``column`` in ``order`` (-1 when absent): factorize, then map
    the few distinct values."""
    codes, uniques = pd.factorize(column)
    pos = pd.Index(list(order)).get_indexer(pd.Index(uniques))
    return np.where(codes >= 0, pos[codes], -1)


def _order(column: pd.Series, wanted: Sequence[str] | None, what: str) -> list[str]:
    present = list(pd.unique(column))
    if wanted is None:
        return present
    wanted = [str(w) for w in wanted]
    if len(set(wanted)) != len(wanted):
        raise ValueError(f"repeated {what} in the selection")
    absent = sorted(set(wanted) - set(present))
    if absent:
        raise ValueError(f"{what}(s) not in the score table: {', '.join(absent)}")
    return wanted


def campaign_means(table: pd.DataFrame) -> pd.DataFrame:
    """Macro means: one row per system, one column per metric, mean over the topics scored.

    NaN scores are skipped; systems and metrics keep their order of first appearance.
    """
    table = validate_score_table(table)
    systems = list(pd.unique(table["system"]))
    metrics = list(pd.unique(table["metric"]))
    out = table.groupby(["system", "metric"], sort=False)["value"].mean().unstack("metric")
    out = out.reindex(index=systems, columns=metrics)
    out.index.name = "system"
    out.columns.name = None
    return out


def _direction(name: str) -> int:
    """+1 when higher is better, -1 when lower is better (``metrics.measures.registry.direction``).

    Metric names the registry does not know (those of a user's score table) are +1.
    """
    try:
        d = int(direction(name))
    except (KeyError, ValueError, LookupError):
        return 1
    return -1 if d < 0 else 1


def metric_directions(metrics: Sequence[str],
                      directions: Mapping[str, int] | None = None) -> tuple[int, ...]:
    """Direction (+1 / -1) of each metric: from ``directions`` when given there, else the
    registry."""
    out = []
    for m in metrics:
        if directions is not None and m in directions:
            d = int(directions[m])
            if d not in (1, -1):
                raise ValueError(
                    f"direction of metric {m!r} must be +1 or -1, got {directions[m]!r}")
            out.append(d)
        else:
            out.append(_direction(m))
    return tuple(out)
