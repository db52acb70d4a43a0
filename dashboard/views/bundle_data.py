"""Bundle Data: the manifest of the bundle shown (inputs with their fingerprints, options,
package version, files) and opening another bundle, or going back to the campaigns."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard import bundle_app, ui
from dashboard.data import view

src, b = bundle_app.current()
ui.header("Data", f"{view.bundle_title(src)}: what it was computed from, with which options "
                  "and which package version, and every file it holds (fingerprints verified).")
if b is not None and bundle_app.just_opened():
    st.success(f"Opened {src.label}: every file matches its fingerprint.",
               icon=":material/check_circle:")
    st.page_link("views/leaderboard.py", label="Go to its Leaderboard",
                 icon=":material/leaderboard:")
bundle_app.open_ui(expanded=b is None)

if b is None:
    st.info("This bundle cannot be shown: see the message above. Open another bundle, or go "
            "back to the campaigns (sidebar).", icon=":material/info:")
    st.stop()

m = b.manifest
c1, c2, c3 = st.columns(3)
c1.metric("Format version", m.get("format_version"))
c2.metric("Written by unanimity", m.get("package_version", "?"))
c3.metric("Files", len(m.get("files", {})))
written = str(m.get("created", "?")).replace("T", " ").split("+")[0]
st.caption(f"Written at {written} UTC. " + (
    f"Folder: `{src.path}`" if not src.cid.startswith("upload:") else
    "Uploaded as a zip in this browser session (deleted when the session ends)."))

st.subheader("Inputs", anchor=False)
inputs = pd.DataFrame([{"path": i.get("path"), "kind": i.get("kind"), "files": i.get("files"),
                        "bytes": i.get("bytes"), "SHA-256": i.get("sha256")} for i in b.inputs])
# column widths that add up to less than the page at 1024 px: no table scrolls sideways (a
# fingerprint is cut at the right; the cell shows it whole)
st.dataframe(inputs, hide_index=True, width="stretch", key="bd_inputs",
             column_config={"path": st.column_config.TextColumn(width=290),
                            "kind": st.column_config.TextColumn(width=55),
                            "files": st.column_config.NumberColumn(width=50),
                            "bytes": st.column_config.NumberColumn(format="localized", width=95),
                            "SHA-256": st.column_config.TextColumn(width=200)})
if b.inputs:
    first = b.inputs[0]["path"]
    st.caption("The per-topic views (F\u03b1 curves, per-topic scatter, contingency tables, rank "
               "moves) need the campaign itself: open it with "
               f"`unanimity dashboard {first}` (the SHA-256 above tells whether it is still the "
               "same).")

st.subheader("Options", anchor=False)
opts = {k: v for k, v in b.options.items() if v is not None}
st.dataframe(pd.DataFrame({"option": list(opts), "value": [str(v) for v in opts.values()]}),
             hide_index=True, width="stretch", key="bd_options")

st.subheader("Files", anchor=False)
st.download_button("Download the bundle (zip)", bundle_app.zipped(src, b),
                   file_name=f"{src.label.split(' (')[0] or 'bundle'}.zip",
                   mime="application/zip", key="bd_zip", icon=":material/download:",
                   on_click="ignore",
                   help="Every file of the manifest and the manifest: opens again here or with "
                        "`unanimity dashboard` once unzipped.")
files = pd.DataFrame([{"name": name, "file": e["file"], "kind": e["kind"],
                       "rows": e.get("rows"), "SHA-256": e["sha256"],
                       "Parquet twin": (e.get("parquet") or {}).get("file")}
                      for name, e in m["files"].items()])
st.dataframe(files, hide_index=True, width="stretch", key="bd_files",
             column_config={"name": st.column_config.TextColumn(width=130),
                            "file": st.column_config.TextColumn(width=150),
                            "kind": st.column_config.TextColumn(width=50),
                            "rows": st.column_config.NumberColumn(width=55),
                            "SHA-256": st.column_config.TextColumn(width=190),
                            "Parquet twin": st.column_config.TextColumn(width=110)})
st.caption(f"{len(files)} files, each checked against its SHA-256 when the bundle was opened.")
