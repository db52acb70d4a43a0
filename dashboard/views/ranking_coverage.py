"""The Data page's story of a ranking campaign: what the qrels judge, how deep each run ranks
and how much of its top 10 and top 100 is judged (:mod:`metrics.analyses.ranking_coverage`,
cached in :mod:`dashboard.data.meta`). Clustering words (missing gold items, the ``penalize``
policy, empty clusters) have no meaning here and are not used."""

from __future__ import annotations

import streamlit as st

from dashboard.data import meta
from dashboard.data.sources import Source
from dashboard.render.html_tables import html_table

__all__ = ["coverage_ui"]


def coverage_ui(src: Source) -> None:
    """The coverage numbers and the per-run table of a ranking campaign."""
    cov = meta.ranking_coverage(src)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Judged topics", f"{cov.judged_topics:,} of {cov.topics:,}")
    c2.metric("Relevant judgments", f"{cov.relevant:,}",
              help=f"Judgments of grade \u2265 {cov.relevant_grade}.")
    c3.metric("Unjudged documents", f"{cov.unjudged_documents:,}",
              help="(topic, document) pairs some run ranks and the qrels do not judge: every "
                   "measure counts them as irrelevant.")
    c4.metric("Topics without relevant", f"{len(cov.topics_without_relevant):,}",
              help=", ".join(cov.topics_without_relevant) or "Every topic has a relevant "
                   "document.")
    if cov.topics_without_relevant:
        st.info(f"{len(cov.topics_without_relevant):,} topics have no relevant document "
                f"(grade \u2265 {cov.relevant_grade}): every measure scores 0 there. "
                f"{', '.join(cov.topics_without_relevant[:20])}", icon=":material/info:")
    runs = cov.runs.drop(columns=["max_depth"]).rename(columns={
        "median_depth": "median depth", "min_depth": "min depth", "judged_at_10": "judged @10",
        "judged_at_100": "judged @100", "unjudged_rows": "unjudged rows"})
    st.html(html_table(runs, formats={"judged @10": ".1%", "judged @100": ".1%",
                                      "median depth": ",.0f"}, height_px=520, name_width=22))
    st.caption("Depth: documents a run ranks per judged topic (median, smallest). "
               "Judged in top k: the share of the documents a run ranks in its first k that "
               "the qrels judge; deeper cut-offs of a shallow pool count many unjudged "
               "documents as irrelevant.")
