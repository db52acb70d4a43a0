"""The compute budget: work that grows faster than its input is estimated before it starts.

A campaign's loader reads within its budget (:mod:`metrics.io.source`); what is computed from
the campaign can still grow much faster than the files: every ordered pair of systems, every
pair of occurrences of a topic, every run of a baseline. Each such analysis estimates its
working memory from the sizes it is given (systems, topics, items, occurrences) *before*
allocating, then

* computes within the budget, in chunks of at most :data:`CHUNK_BYTES` where it can, or with an
  exact algorithm whose cost does not grow as fast, or
* refuses with one line that names the size, the estimate, the limit and how to change it
  (:class:`ComputeBudgetError`, a :class:`~metrics.errors.UnanimityError`: exit code 2 on the
  command line, a one-line message in the dashboard).

The limit is one number, the working memory one analysis may take: 1 GiB by default (with the
campaign loaded and Python's own ~250 MiB, a run stays well inside 8 GB), changed with the
environment variable ``UNANIMITY_MAX_WORK_MB`` (docs/input-safety.md, "The compute budget").
"""

from __future__ import annotations

from metrics.errors import UnanimityError
from metrics.io.source import MIB, env_positive

__all__ = ["ENV", "DEFAULT_WORK_MB", "CHUNK_BYTES", "ComputeBudgetError", "work_limit",
           "require", "require_pairs", "chunk_rows", "size_text"]

#: The environment variable that sets the limit, in MiB.
ENV = "UNANIMITY_MAX_WORK_MB"
#: The default limit of one analysis's working memory, in MiB.
DEFAULT_WORK_MB = 1024
#: The memory one chunk of a chunked computation takes (fast in cache, small beside the limit).
CHUNK_BYTES = 64 * MIB


class ComputeBudgetError(UnanimityError):
    """An analysis would need more working memory than the compute budget allows."""


def work_limit() -> int:
    """The limit in bytes: ``UNANIMITY_MAX_WORK_MB`` MiB, or :data:`DEFAULT_WORK_MB`."""
    mb = env_positive(ENV)
    return int((DEFAULT_WORK_MB if mb is None else mb) * MIB)


def size_text(n_bytes: float) -> str:
    """``1.9 GiB``, ``340 MiB``: a size for a message."""
    return f"{n_bytes / 2**30:.1f} GiB" if n_bytes >= 2**30 else f"{n_bytes / MIB:.0f} MiB"


def require(what: str, size: str, need: float, limit: int | None = None) -> None:
    """Refuse ``what`` when its estimated working memory ``need`` (bytes) is over the limit.

    Parameters
    ----------
    what : str
        The analysis (``compare``, ``the combined baseline``...).
    size : str
        The sizes the estimate comes from (``1,000 systems: 999,000 ordered pairs``).
    need : float
        The estimate, in bytes.
    limit : int, optional
        Bytes; default :func:`work_limit`.

    Raises
    ------
    ComputeBudgetError
        One line: the analysis, the size, the estimate, the limit and the option to change.
    """
    limit = work_limit() if limit is None else int(limit)
    if need > limit:
        raise ComputeBudgetError(
            f"{what} on {size} would need about {size_text(need)} of memory, over the limit of "
            f"{size_text(limit)}: set {ENV} (MiB) to allow more (docs/input-safety.md, "
            f"\"The compute budget\")")


#: Working memory of a comparison of every ordered pair of systems (``compare``, WePS Table 2),
#: per pair: the pairs table and what is written from it, plus the tests' rows of each metric
#: (peaks of about 2 KB a pair measured with 2 metrics at 150-1,000 systems and 30-120 topics,
#: 0.6 KB of it the tests).
PAIR_BYTES, PAIR_BYTES_PER_METRIC = 1400, 400


def require_pairs(n_systems: int, n_metrics: int, what: str = "compare") -> None:
    """Refuse a comparison of every ordered pair of ``n_systems`` systems on ``n_metrics``
    metrics that would not fit the budget (:data:`PAIR_BYTES` a pair, plus
    :data:`PAIR_BYTES_PER_METRIC` a metric)."""
    pairs = n_systems * (n_systems - 1)
    require(what, f"{n_systems:,} systems ({pairs:,} ordered pairs, {n_metrics} metrics)",
            pairs * (PAIR_BYTES + PAIR_BYTES_PER_METRIC * n_metrics))


def chunk_rows(bytes_per_row: float, rows: int) -> int:
    """How many of ``rows`` rows of ``bytes_per_row`` bytes a chunk holds (at least one)."""
    return int(max(1, min(rows, CHUNK_BYTES // max(int(bytes_per_row), 1))))
