"""Cached reference material of the Metrics page: the measure reference (``docs/measures.md``),
the formal-constraint table (``metrics.meta.constraints_clustering``) and the registry's metric
definitions.
Nothing is computed here: each function is one cached call into ``metrics`` or a file read."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.bundled import doc_path

__all__ = ["constraints", "measure_reference", "metric_infos", "MEASURES_DOC"]


@st.cache_data(show_spinner="Checking the formal constraints\u2026")
def constraints() -> pd.DataFrame:
    from metrics.meta.constraints_clustering import check_constraints  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return check_constraints()


MEASURES_DOC = doc_path("measures.md")  # docs/, in a checkout or in the installed package


@st.cache_data(show_spinner=False)
def measure_reference() -> list[tuple[str, str]]:
    """``docs/measures.md`` split at its ``## `` headings: ``[(title, markdown), ...]``, the
    first item being the introduction (title ""); [] when the file is absent."""
    if not MEASURES_DOC.exists():
        return []
    text = MEASURES_DOC.read_text(encoding="utf-8")
    parts = text.split("\n## ")
    out = [("", parts[0].split("\n", 1)[1] if "\n" in parts[0] else "")]
    for part in parts[1:]:
        title, _, body = part.partition("\n")
        out.append((title.strip(), body))
    return out


@st.cache_data(show_spinner=False)
def metric_infos() -> pd.DataFrame:
    from metrics.measures.registry import available_metrics  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    rows = [{"metric": m.name, "family": m.family,
             "direction": "higher is better" if m.direction > 0 else "lower is better",
             "description": m.description, "formula": m.formula, "reference": m.reference}
            for m in available_metrics()]
    return pd.DataFrame(rows)
