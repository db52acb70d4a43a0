"""The dashboard's CSV downloads, each built by the one output policy of every table the
product writes (:mod:`metrics.reports.table_output`, docs/output-safety.md): names a spreadsheet
would evaluate are neutralised, lists are ``;``-separated, floats at full precision."""

from __future__ import annotations

import io
import re
import threading
import warnings
import zipfile
from collections.abc import Sequence

import pandas as pd
import plotly.graph_objects as go

from metrics.reports.table_output import table_bytes

__all__ = ["scores_csv", "pairs_csv", "leaderboard_csv", "ties_csv", "mapping_csv",
           "figures_zip"]

_KALEIDO = threading.Lock()
_KALEIDO_STARTED = False


def scores_csv(scores: pd.DataFrame) -> bytes:
    """Export "Per-topic scores": the score table ``system, topic, metric, value``."""
    return table_bytes(scores)


def pairs_csv(comparison) -> bytes:
    """Export "All pairs": the comparison's pairs table (``pairs.csv`` of ``compare --out``; a
    live comparison's or a reopened bundle's)."""
    return table_bytes(comparison.pairs)


def leaderboard_csv(board: pd.DataFrame) -> bytes:
    """Export "Leaderboard": the ranking at alpha with reference and improved systems."""
    return table_bytes(board)


def ties_csv(ranking) -> bytes:
    """Export "Tie groups": ``system, rank_low, rank_high, group`` (``ranking.csv``)."""
    return table_bytes(ranking.to_csv_frame())


def mapping_csv(maps: pd.DataFrame) -> bytes:
    """Type level "Mapping as CSV": the cluster -> tag mapping of every topic."""
    return table_bytes(maps)


def _static_export_server() -> None:
    """One headless browser for every static export of this process (kaleido starts one per
    figure otherwise: seconds each)."""
    global _KALEIDO_STARTED  # noqa: PLW0603 - one browser per server process
    if not _KALEIDO_STARTED:
        import kaleido  # noqa: PLC0415 - deferred: only the "all figures" download needs it

        kaleido.start_sync_server(silence_warnings=True)
        _KALEIDO_STARTED = True


def figures_zip(figures: Sequence[tuple[str, go.Figure]], scale: int = 2) -> bytes:
    """Export "All figures": every figure as ``NN_<name>.png`` (``scale`` x) and ``.svg`` in one
    zip; file names ASCII (anything else becomes ``_``)."""
    buf = io.BytesIO()
    with _KALEIDO, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf, \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "kopts is ignored if using a server"
        _static_export_server()
        for k, (name, fig) in enumerate(figures, start=1):
            stem = f"{k:02d}_" + (re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "figure")
            zf.writestr(f"{stem}.png", fig.to_image(format="png", scale=scale))
            zf.writestr(f"{stem}.svg", fig.to_image(format="svg"))
    return buf.getvalue()
