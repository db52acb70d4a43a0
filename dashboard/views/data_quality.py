"""Data: load a campaign (upload), and the validation report of what the loader did with it."""

from __future__ import annotations

import streamlit as st

from dashboard import data, sources, state, ui, uploads

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
            info = data.campaign_info(src)
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

info = data.campaign_info(sel.source)
c = data.campaign(sel.source)
st.subheader(info["name"], anchor=False)
kind = ("rankings over an unlimited collection (gold + runs)" if info["ranking"] else
        "document organisations (gold + runs)" if info["organisation"] else
        "token tagging (gold + induced taggings)" if info["token_tagging"] else
        "clusterings (gold + runs)" if info["has_clusterings"] else
        "score table (precomputed per-topic scores)")
summary = c.summary()
c1, c2, c3, c4 = st.columns(4)
c1.metric("Systems", summary["systems"])
c2.metric("Topics", summary["topics"])
c3.metric("Gold items", f"{summary['gold_items']:,}" if info["has_clusterings"] else "\u2013")
c4.metric("Test beds", len(summary["testbeds"]) or "none",
          help=", ".join(f"{k}: {v} topics" for k, v in summary["testbeds"].items()) or None)
st.caption(f"Kind: {kind} \u00b7 source: `{info['source'] or sel.source.path}`")
if not info["has_clusterings"]:
    ui.unavailable("Per-item checks",
                   "A score table has no clusterings: missing / extra items cannot be counted, and "
                   "the topic drill-down and metrics other than those of the table are "
                   "unavailable.")

st.subheader("Validation report", anchor=False)
with ui.guard("The validation report"):
    rep = c.report.to_dataframe()
    if rep.empty:
        st.success("Nothing to report.")
    else:
        flag_cols = [col for col in ("missing_items", "extra_items", "missing_topics",
                                     "duplicate_rows", "empty_clusters") if col in rep.columns]
        n_flagged = int((rep[flag_cols].sum(axis=1) > 0).sum()) if flag_cols else 0
        if n_flagged:
            st.warning(f"{n_flagged} of {len(rep)} rows have missing or extra items, missing "
                       "topics, duplicates or empty clusters: see the highlighted columns.")
        else:
            st.success(f"All {len(rep)} clusterings cover every gold item of every topic; "
                       "no duplicates, no extra items.")
        pretty = {c: c.replace("_", " ") for c in rep.columns}
        rep = rep.rename(columns=pretty)
        flag_cols = [pretty[c] for c in flag_cols]
        st.dataframe(
            rep.style.map(lambda v: "background-color: #FBE3D6" if isinstance(v, (int, float))
                          and v > 0 else "", subset=flag_cols),
            hide_index=True, width="stretch", height=min(36 * len(rep) + 40, 520),
            key="dq_report")
        st.caption("missing items are scored under the `penalize` policy (precision 1, "
                   "recall 0 for item-averaged metrics); extra items are ignored.")
    notes = c.report.all_notes()
    st.markdown(f"**Loader notes** ({len(notes)})")
    if notes:
        st.code("\n".join(str(n) for n in notes[:500]) +
                (f"\n\u2026 {len(notes) - 500} more" if len(notes) > 500 else ""), language=None)
    else:
        st.caption("No warnings.")
