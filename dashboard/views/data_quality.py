"""Data: load a campaign (upload), and the validation report of what the loader did with it."""

from __future__ import annotations

import streamlit as st

from dashboard import state, ui
from dashboard.data import live, meta, sources, uploads
from dashboard.render import quality
from dashboard.views import ranking_coverage

ui.header(
    "Data",
    "Which campaign is loaded, and what did the loader do with it? Missing and extra items, "
    "missing topics and every warning, per system. Nothing is dropped silently.",
)

with st.expander("Load another campaign", expanded=False, icon=":material/upload:"):
    st.markdown(
        "- a **zip** of a campaign folder (`gold.<ext>` + `runs/<system>.<ext>`, optional "
        "`campaign.toml`), or of a score table;\n"
        "- a **score table** (`system, topic, metric, value` as CSV / TSV / Parquet): the "
        "analyses work, the views that need the clusterings say so;\n"
        "- **loose files**: one gold file and one or more run files (RepLab TSV, long table "
        "`topic, item, cluster`, SemEval keys, WePS XML).\n\n"
        "From the command line: `unanimity dashboard PATH`."
    )
    files = st.file_uploader("Campaign files", accept_multiple_files=True, key="upload",
                             type=None, help="Several files, or one zip.")
    gold = None
    if files and len(files) > 1:
        names = [f.name for f in files]
        guess = next((i for i, n in enumerate(names) if n.lower().startswith("gold")), 0)
        gold = st.selectbox("Which file is the gold?", names, index=guess, key="upload_gold")
    if files and st.button("Load", key="upload_load", type="primary", icon=":material/upload:"):
        payload = [(f.name, f.getvalue()) for f in files]
        src = None
        loaded = False
        with ui.guard(f"Could not load {', '.join(f.name for f in files)}"), \
                uploads.as_user_sees():
            src = sources.register_upload(payload, gold)
            info = live.campaign_info(src)
            if len(info["systems"]) < 1:
                raise ValueError("no system found in the upload")
            loaded = True
        if loaded:
            state.request(campaign=src.key)
            st.rerun()
        elif src is not None:
            sources.forget_upload(src.key)

from dashboard import bundle_app  # noqa: E402 - a comparison bundle opens here too

bundle_app.open_ui()

sel = st.session_state.get("_selection")
if sel is None:
    st.stop()

info = live.campaign_info(sel.source)
c = live.campaign(sel.source)
st.subheader(info["name"], anchor=False)
kind = ("rankings over an unlimited collection (gold + runs)" if info["ranking"] else
        "document organisations (gold + runs)" if info["organisation"] else
        "token tagging (gold + induced taggings)" if info["token_tagging"] else
        "clusterings (gold + runs)" if info["has_clusterings"] else
        "score table (precomputed per-topic scores)")
summary = c.summary()
c1, c2, c3, c4 = st.columns(4)
c1.metric("Systems", f"{summary['systems']:,}")
c2.metric("Topics", f"{summary['topics']:,}")
if info["ranking"]:  # a qrels file: its judgments, not the union of judged and ranked documents
    c3.metric("Judgments", f"{meta.ranking_coverage(sel.source).judgments:,}")
else:
    c3.metric("Gold items", f"{summary['gold_items']:,}" if info["has_clusterings"] else "\u2013")
c4.metric("Test beds", f"{len(summary['testbeds']):,}" if summary["testbeds"] else "none",
          help=", ".join(f"{k}: {v:,} topics" for k, v in summary["testbeds"].items()) or None)
# an upload is named as the user uploaded it, never by its storage folder on the server
shown_source = uploads.user_text(str(info["source"] or sel.source.path))
st.caption(f"Kind: {kind} \u00b7 source: `{shown_source}`")
if not info["has_clusterings"]:
    ui.unavailable("Per-item checks",
                   "A score table has no clusterings: missing / extra items cannot be counted, and "
                   "the topic drill-down and metrics other than those of the table are "
                   "unavailable.", plural=True)

if info["ranking"]:
    st.subheader("Judgments and runs", anchor=False)
    with ui.guard("The coverage of the rankings"):
        ranking_coverage.coverage_ui(sel.source)

st.subheader("Validation report", anchor=False)
with ui.guard("The validation report"):
    notes = [uploads.user_text(str(n)) for n in c.report.all_notes()]
    cov = c.report.coverage()
    rep = c.report.to_dataframe()
    # a ranking campaign's coverage is told above; gold items and clusters mean nothing there
    for level, text in ([] if info["ranking"] else
                        quality.messages(cov, info["has_clusterings"])):
        getattr(st, level)(text, icon=quality.ICONS[level])
    if not rep.empty and not info["ranking"]:
        st.html(quality.report_html(rep, name_width=34))
        quiet = [c.replace("_", " ") for c in quality.quiet_columns(rep)]
        none = (f"No system has {', '.join(quiet[:-1]) + ' or ' if len(quiet) > 1 else ''}"
                f"{quiet[-1]} (columns not shown). " if quiet else "")
        st.caption(none + "Hover a cut name for the full one. Missing items are scored under the "
                   "`penalize` policy (precision 1, recall 0 for item-averaged metrics); extra "
                   "items are ignored (docs/measures.md \u00a72).")
    st.markdown(f"**Warnings** ({len(notes):,})")
    if notes:
        st.code("\n".join(notes[:500]) +
                (f"\n\u2026 {len(notes) - 500:,} more" if len(notes) > 500 else ""),
                language=None)
    else:
        st.caption("No warnings: the loader skipped nothing and noticed nothing.")
