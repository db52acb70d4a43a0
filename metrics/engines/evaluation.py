"""``evaluate`` on the engine chosen by name: in memory (:mod:`metrics.measures.scoring`) or on
a Dask cluster (:mod:`metrics.engines.dask`, docs/dask.md). The same score table either way."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from metrics.engines.dask import evaluate_dask
from metrics.errors import UnanimityError
from metrics.measures.registry import MetricSpec
from metrics.measures.scoring import evaluate as evaluate_in_memory
from metrics.model.campaign import Campaign

__all__ = ["evaluate", "ENGINES"]

#: The engines :func:`evaluate` knows.
ENGINES = ("numpy", "dask")


def evaluate(
    campaign: Campaign | str | Path,
    metrics: str | Sequence[str | MetricSpec],
    missing: str = "penalize",
    systems: Sequence[str] | None = None,
    engine: str = "numpy",
    **engine_options,
) -> pd.DataFrame:
    """Score every system of a campaign on every topic (docs/measures.md §1, §3).

    Parameters
    ----------
    campaign : Campaign, or the path of a campaign folder of Parquet long tables (Dask engine)
    metrics : str or sequence of str / MetricSpec
        ``"bcubed_precision,v_measure(beta=2)"`` or a list of names or specs.
    missing : {"penalize", "singleton", "error"}
        Missing-item policy (docs/measures.md §2).
    systems : sequence of str, optional
        A subset of the campaign's systems (default: all, in campaign order).
    engine : {"numpy", "dask"}
        ``numpy`` (default): in memory (:func:`metrics.measures.scoring.evaluate`). ``dask``:
        campaigns larger than memory on a Dask cluster, same numbers (docs/dask.md; needs the
        ``dask`` extra); ``engine_options`` go to :func:`metrics.engines.dask.evaluate_dask`
        (``scheduler``, ``memory_limit``, ``client``, ``progress``, ...).

    Returns
    -------
    DataFrame ``system, topic, metric, value`` (see :func:`metrics.measures.scoring.evaluate`).
    """
    if engine not in ENGINES:
        raise UnanimityError(f"unknown engine {engine!r}; expected numpy or dask")
    if engine == "numpy":
        if engine_options:
            raise UnanimityError(f"the numpy engine takes no options, got "
                                 f"{', '.join(sorted(engine_options))}")
        if not isinstance(campaign, Campaign):
            raise UnanimityError("the numpy engine scores a loaded Campaign (metrics.load(path))")
        return evaluate_in_memory(campaign, metrics, missing, systems)
    if isinstance(campaign, Campaign):
        raise UnanimityError("engine='dask' reads a campaign folder of Parquet long tables: "
                             "give its path")
    try:
        import dask  # noqa: F401, PLC0415 - the optional extra is there
    except ImportError as exc:
        raise UnanimityError(f"engine='dask' needs the dask extra (pip install "
                             f"'unanimity[dask]'): {exc}") from None
    return evaluate_dask(campaign, metrics, missing=missing, systems=systems,
                         **engine_options).scores
