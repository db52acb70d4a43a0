"""The dashboard run headlessly with ``streamlit.testing.v1.AppTest`` on the bundled campaign.

Every page: no exception, no error box, the expected charts; widgets driven by key change the
Plotly figure specs; URL parameters restore a view; uploads (score table, bad file) and a
400-system campaign work. Streamlit's caches are process-wide, so the campaign is loaded and
scored once for the whole module.
"""

from __future__ import annotations

import io
import json
import time
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
import base64

from streamlit.testing.v1 import AppTest  # noqa: E402

from dashboard.data import live
from dashboard.page_additions import SPINNER_BOX, SPINNER_RING, SPINNER_TEXT
from dashboard.render.report_html import _CSS, _table_html
from metrics.measures.scoring import evaluate
from metrics.reports.numbers import format_p
from metrics.reports.pair_report import verdict_sentence

APP = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
PAGES = {
    "leaderboard": "views/leaderboard.py",
    "compare": "views/compare.py",
    "uir": "views/uir_analysis.py",
    "testbeds": "views/testbeds.py",
    "meta": "views/meta_evaluation.py",
    "metrics": "views/metric_defs.py",
    "export": "views/export.py",
    "data": "views/data_quality.py",
}
TIMEOUT = 120


def new_app(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    return at


def open_page(at: AppTest, page: str) -> AppTest:
    if not at._tree:  # noqa: SLF001 - first run registers the pages
        at.run()
    at.switch_page(PAGES[page]).run()
    return at


def figures(at: AppTest) -> list[dict]:
    """The Plotly figure specs on the page, in order."""
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def figure(at: AppTest, key: str) -> dict:
    for el in at.get("plotly_chart"):
        if el.proto.id and el.proto.id.endswith(key) or f"-{key}-" in (el.proto.id or ""):
            return json.loads(el.proto.spec)
    ids = [el.proto.id for el in at.get("plotly_chart")]
    raise AssertionError(f"no chart with key {key!r}; ids: {ids}")


def arr(v) -> np.ndarray:
    """A figure array, decoded from Plotly's typed-array JSON (``{dtype, bdata, shape}``)."""
    if isinstance(v, dict) and "bdata" in v:

        out = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
        shape = v.get("shape")
        if shape:
            out = out.reshape([int(x) for x in str(shape).split(",")])
        return out
    return np.asarray(v)


def axis_title(fig: dict, axis: str = "xaxis") -> str:
    t = fig["layout"].get(axis, {}).get("title", {})
    return t.get("text", "") if isinstance(t, dict) else str(t)


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@pytest.fixture(scope="module")
def app() -> AppTest:
    at = new_app()
    at.run()
    assert_clean(at)
    return at


# ------------------------------------------------------------------------------------------------
# every page
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("page, n_charts, title", [
    ("leaderboard", 2, "Leaderboard"),
    ("compare", 5, "Compare two systems"),
    ("uir", 4, "UIR analysis"),
    ("testbeds", 2, "Test beds"),
    ("metrics", 1, "Metrics"),
    ("export", 0, "Export"),
    ("data", 0, "Data"),
])
def test_every_page_renders(app, page, n_charts, title):
    open_page(app, page)
    assert_clean(app)
    assert app.title[0].value == title
    assert len(app.get("plotly_chart")) >= n_charts
    for fig in figures(app):
        if fig["layout"].get("xaxis", {}).get("visible") is False:
            continue  # an axis with no meaning, hidden (the Hasse diagram's)
        if fig["data"] and fig["data"][0].get("type") in ("scatter", "scattergl"):
            named = axis_title(fig) or fig["layout"].get("xaxis", {}).get("ticktext")
            assert named, "every line/scatter chart names its x axis"


def test_leaderboard_defaults_and_alpha_slider(app):
    open_page(app, "leaderboard")
    sel = app.session_state["_selection"]
    assert (sel.precision, sel.recall, sel.alpha, sel.threshold) == (
        "bcubed_precision", "bcubed_recall", 0.5, 0.25)
    fig = figure(app, "lb_curves")
    # both metrics named (the recall-like one on the alpha axis when the F title would be long)
    assert "bcubed_precision" in axis_title(fig)
    assert "bcubed_recall" in axis_title(fig) + axis_title(fig, "yaxis")
    assert any(a.get("text") == "\u03b1 = 0.50" for a in fig["layout"]["annotations"])
    names = [t["name"] for t in fig["data"]]
    assert names[1] == f"A: {sel.a}" and names[2] == f"B: {sel.b}"
    table = app.dataframe[0].value
    assert list(table["rank"])[:3] == [1, 2, 3] and table["system"].iloc[0] == sel.a

    app.slider(key="alpha").set_value(0.2).run()
    assert_clean(app)
    fig = figure(app, "lb_curves")
    assert any(a.get("text") == "\u03b1 = 0.20" for a in fig["layout"]["annotations"])
    moved = app.dataframe[0].value
    assert list(moved["system"]) != list(table["system"]), "the ranking depends on alpha"
    app.slider(key="alpha").set_value(0.5).run()


def test_metric_pair_changes_axis_titles(app):
    open_page(app, "leaderboard")
    app.selectbox(key="metrics").set_value("Purity/Inverse Purity").run()
    assert_clean(app)
    fig = figure(app, "lb_curves")
    assert "purity" in axis_title(fig) and "inverse_purity" in axis_title(fig, "yaxis")
    app.selectbox(key="metrics").set_value("BCubed P/R").run()
    assert "bcubed_precision" in axis_title(figure(app, "lb_curves"))


def test_compare_switch_pair_and_topic(app):
    open_page(app, "compare")
    systems = app.selectbox(key="b").options
    new_b = systems[-1]
    app.selectbox(key="b").set_value(new_b).run()
    assert_clean(app)
    curves = figure(app, "cmp_curves")
    assert any(t["name"].startswith("B: " + new_b[:20]) for t in curves["data"])
    counts = figure(app, "cmp_counts")
    assert sum(arr(t["x"])[0] for t in counts["data"]) == 61
    scatter = figure(app, "cmp_scatter")
    assert axis_title(scatter).startswith("bcubed_recall")
    assert axis_title(scatter, "yaxis").startswith("bcubed_precision")
    # per-metric tests and per-topic deltas
    tests = [d.value for d in app.dataframe if "verdict" in d.value.columns][0]
    assert set(tests["metric"]) == {"bcubed_precision", "bcubed_recall"}
    # pick a topic: both contingency tables follow
    topic = app.selectbox(key="topic").options[5]
    app.selectbox(key="topic").set_value(topic).run()
    assert_clean(app)
    for role in ("A", "B"):
        ct = figure(app, f"cmp_ct_{role}")
        assert topic in ct["layout"]["title"]["text"]
        assert axis_title(ct, "yaxis") == "gold classes"
    app.selectbox(key="test").set_value("sign").run()
    assert_clean(app)


def test_uir_page_matrix_follows_threshold(app):
    open_page(app, "uir")
    heat = figure(app, "uir_heatmap")
    n = len(arr(heat["data"][0]["z"]))
    assert n == len(app.selectbox(key="a").options)
    dots = len(arr(heat["data"][1]["x"])) if len(heat["data"]) > 1 else 0
    app.slider(key="threshold").set_value(0.6).run()
    assert_clean(app)
    heat = figure(app, "uir_heatmap")
    dots_high = len(arr(heat["data"][1]["x"])) if len(heat["data"]) > 1 else 0
    assert dots_high < dots
    dfu = figure(app, "uir_dfu")
    assert "Pearson r" in dfu["layout"]["title"]["text"]
    app.slider(key="threshold").set_value(0.25).run()


def test_testbed_filter_restricts_topics(app):
    open_page(app, "leaderboard")
    app.pills(key="beds").set_value(["D01"]).run()
    assert_clean(app)
    assert app.metric[1].value == "20"
    app.pills(key="beds").set_value(["D01", "D02", "D03", "D04"]).run()
    assert app.metric[1].value == "61"


def test_baselines_add_systems(app):
    open_page(app, "leaderboard")
    n = len(app.selectbox(key="a").options)
    app.toggle(key="baselines").set_value(True).run()
    assert_clean(app)
    assert len(app.selectbox(key="a").options) > n
    # baselines are marked, not silently counted as systems
    cards = {m.label: m.value for m in app.metric}
    assert cards["Systems"] == f"{n} + 5 baselines"
    table = next(d.value for d in app.dataframe if "role" in d.value.columns)
    marked = set(table.loc[table["role"].str.contains("baseline"), "system"])
    assert marked == {"all-in-one", "one-in-one", "combined", "random", "ultra-shaped"}
    assert "combined (baseline)" in app.selectbox(key="a").format_func("combined")
    app.toggle(key="baselines").set_value(False).run()


def test_export_page_downloads_and_report(app):
    open_page(app, "export")
    labels = [b.label for b in app.get("download_button")]
    assert {"Per-topic scores", "All pairs", "LaTeX tables (.tex)"} <= set(labels)
    app.button(key="build_report").click().run()
    assert_clean(app)
    assert "Download the report (HTML)" in [b.label for b in app.get("download_button")]
    # a download changes nothing on the page, so its click does not rerun it: a rerun would
    # recompute the page and, for a file written on the click (All pairs, the figures), can
    # replace the file the browser is about to fetch (the click then downloads nothing)
    buttons = app.get("download_button")
    assert len(buttons) >= 6
    assert [b.label for b in buttons if not b.proto.ignore_rerun] == []
    html = app.session_state["_report_html"][1]
    assert "<script src=" not in html and html.count("Plotly.newPlot") >= 5
    # the verdict first, readable headers, p-values never printed as 0.000
    sel = app.session_state["_selection"]
    assert html.index("class='verdict'") < html.index("<h2>")
    assert "robust" in html[html.index("class='verdict'"):html.index("<h2>")]
    assert "<th>Reference system</th>" in html and "<th>reference_uir</th>" not in html
    assert ">0.000<" not in html.split("Significance tests of the pair")[1].split("<h2>")[0]
    del sel


def test_p_values_have_one_format():
    # hand-worked: fixed-point down to 0.001, two significant digits below, a dash without a test
    assert format_p(0.0000123) == "1.2e-05" and format_p(0.5) == "0.500"
    assert format_p(0.0) == "0.0e+00" and format_p(0.001) == "0.001"
    assert format_p(6.22e-08) == "6.2e-08" and format_p(float("nan")) == "\u2013"


def test_compare_opens_with_the_verdict_sentence(app):

    open_page(app, "compare")
    assert_clean(app)
    sel = app.session_state["_selection"]

    expected = verdict_sentence(live.pair_report(sel, live.table(sel)), ("A", "B"))
    first = [m.value for m in app.markdown if m.value.startswith("<p class='unanimity-verdict'>")]
    assert first and expected.replace("'", "&#x27;") in first[0]


def test_data_page_shows_validation_report(app):
    open_page(app, "data")
    report = app.get("html")[0].proto.body  # an HTML table: cut names keep a hover title
    assert all(f">{c}</th>" in report for c in ("missing items", "extra items", "missing topics"))
    assert report.count("<tr>") == 36  # the header and 35 systems


def test_metrics_page_constraints_and_definitions(app):
    open_page(app, "metrics")
    fig = figure(app, "met_constraints")
    assert fig["data"][0]["type"] == "heatmap"
    defs = [d.value for d in app.dataframe if "formula" in d.value.columns][0]
    assert "bcubed_precision" in set(defs["metric"])


# ------------------------------------------------------------------------------------------------
# URL parameters restore a view
# ------------------------------------------------------------------------------------------------


def test_url_parameters_restore_a_view(app):
    systems = app.selectbox(key="a").options
    a, b = systems[3], systems[7]
    at = new_app({"a": a, "b": b, "alpha": "0.3", "threshold": "0.4",
                  "metrics": "Purity/Inverse Purity", "average": "micro"})
    at.run()
    open_page(at, "compare")
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert (sel.a, sel.b, sel.alpha, sel.threshold, sel.average) == (a, b, 0.3, 0.4, "micro")
    assert (sel.precision, sel.recall) == ("purity", "inverse_purity")
    curves = figure(at, "cmp_curves")
    assert [t["name"] for t in curves["data"][:2]] == [f"A: {a}", f"B: {b}"]
    assert "micro" in axis_title(curves, "yaxis")


def test_bad_url_parameters_fall_back_to_defaults():
    at = new_app({"a": "no-such-system", "alpha": "banana", "metrics": "nope"})
    at.run()
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert sel.alpha == 0.5 and sel.precision == "bcubed_precision"
    assert sel.a in at.selectbox(key="a").options


# ------------------------------------------------------------------------------------------------
# uploads
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def score_table_csv(demo_campaign) -> bytes:

    table = evaluate(demo_campaign, ["bcubed_precision", "bcubed_recall", "purity",
                                     "inverse_purity"])
    return table.to_csv(index=False).encode()


def upload(at: AppTest, files: list[tuple[str, bytes, str]]) -> AppTest:
    open_page(at, "data")
    at.file_uploader(key="upload").set_value(files).run()
    at.button(key="upload_load").click().run()
    return at


def test_score_table_upload_degrades_gracefully(score_table_csv):
    at = upload(new_app(), [("replab_scores.csv", score_table_csv, "text/csv")])
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert sel.source.key.startswith("up-")
    assert set(at.selectbox(key="metrics").options) >= {"BCubed P/R", "Purity/Inverse Purity"}
    open_page(at, "compare")
    assert_clean(at)
    infos = " ".join(i.value for i in at.info)
    assert "score table" in infos and "unavailable" in infos
    assert len(figure(at, "cmp_scatter")["data"]) >= 2   # per-topic view still works
    open_page(at, "leaderboard")
    assert_clean(at)


def test_zip_upload_of_a_campaign_folder(demo_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(demo_path.iterdir()):
            zf.write(p, f"replab/{p.name}")
    at = upload(new_app(), [("replab.zip", buf.getvalue(), "application/zip")])
    assert_clean(at)
    assert at.session_state["_selection"].source.key.startswith("up-")
    assert len(at.selectbox(key="a").options) == 35


def test_bad_upload_shows_a_message_not_a_traceback():
    at = upload(new_app(), [("garbage.txt", b"\x00\x01 this is not a campaign\n", "text/plain")])
    assert not at.exception
    msg = " ".join(e.value for e in at.error)
    assert "Could not load garbage.txt" in msg
    assert at.session_state["_selection"].source.key == "replab2013"


# ------------------------------------------------------------------------------------------------
# a campaign of 400 systems stays usable
# ------------------------------------------------------------------------------------------------


def test_400_systems_stay_usable():
    rng = np.random.default_rng(0)
    S, T = 400, 30
    base = rng.uniform(0.2, 0.8, size=(S, 1, 2))
    vals = np.clip(base + rng.normal(0, 0.08, size=(S, T, 2)), 0.01, 1)
    rows = [(f"system_{s:03d}_with_a_long_name", f"topic{t:02d}", m, vals[s, t, k])
            for s in range(S) for t in range(T)
            for k, m in enumerate(("bcubed_precision", "bcubed_recall"))]
    csv = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(index=False)
    at = upload(new_app(), [("big_scores.csv", csv.encode(), "text/csv")])
    assert_clean(at)
    assert len(at.selectbox(key="a").options) == S
    for page in ("leaderboard", "uir", "compare"):
        t0 = time.perf_counter()
        open_page(at, page)
        first = time.perf_counter() - t0
        assert_clean(at)
        assert first < 60, f"{page} took {first:.1f}s"
    open_page(at, "uir")
    heat = figure(at, "uir_heatmap")
    # the top 40 (a chooser) keeps every label, the A/B marks and the dots
    n = arr(heat["data"][0]["z"]).shape[0]
    assert arr(heat["data"][0]["z"]).shape == (n, n) and 40 <= n <= 42
    assert len(heat["layout"]["yaxis"]["ticktext"]) == n
    assert any("[A]" in x for x in heat["layout"]["yaxis"]["ticktext"])
    at.number_input(key="mtop").set_value(10).run()
    assert_clean(at)
    assert arr(figure(at, "uir_heatmap")["data"][0]["z"]).shape[0] <= 12
    # once computed, a slider change re-renders quickly
    t0 = time.perf_counter()
    at.slider(key="alpha").set_value(0.4).run()
    assert_clean(at)
    assert time.perf_counter() - t0 < 15


# ------------------------------------------------------------------------------------------------
# small campaigns: every page, from 4 systems down to 2 systems and 1 topic
# ------------------------------------------------------------------------------------------------


def _score_csv(S: int, T: int, seed: int = 3) -> bytes:
    rng = np.random.default_rng(seed)
    vals = rng.uniform(0.1, 0.9, size=(S, T, 2))
    rows = [(f"sys{s}", f"t{t}", m, vals[s, t, k]) for s in range(S) for t in range(T)
            for k, m in enumerate(("bcubed_precision", "bcubed_recall"))]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(
        index=False).encode()


@pytest.mark.parametrize("S, T", [(4, 12), (2, 1)])
def test_small_campaigns_on_every_page(S, T):
    at = upload(new_app(), [(f"small_{S}x{T}.csv", _score_csv(S, T), "text/csv")])
    assert_clean(at)
    assert len(at.selectbox(key="a").options) == S
    for page in PAGES:
        open_page(at, page)
        assert not at.exception, (page, [e.value for e in at.exception])
        assert not at.error, (page, [e.value for e in at.error])
    open_page(at, "leaderboard")
    top = at.number_input(key="top")
    assert top.value == S and top.max == S
    moves = figure(at, "lb_moves")
    assert len([t for t in moves["data"] if t.get("mode") == "text"][0]["text"]) == S


def test_two_uploads_with_one_name_stay_apart():
    at = upload(new_app(), [("small_campaign.csv", _score_csv(3, 5, seed=1), "text/csv")])
    first = at.session_state["_selection"].source.key
    at = upload(at, [("small_campaign.csv", _score_csv(4, 5, seed=2), "text/csv")])
    assert_clean(at)
    second = at.session_state["_selection"].source.key
    assert first != second
    labels = at.selectbox(key="campaign").options
    ours = [x for x in labels if x.startswith("small_campaign.csv (upload")]
    assert len(ours) == 2 and len(set(ours)) == 2   # told apart by their content id
    assert len(at.selectbox(key="a").options) == 4
    at.selectbox(key="campaign").set_value(first).run()
    assert_clean(at)
    assert len(at.selectbox(key="a").options) == 3


def test_improved_systems_are_counted_not_listed():
    rng = np.random.default_rng(5)
    S, T = 60, 20
    base = np.linspace(0.9, 0.1, S)[:, None, None]
    vals = np.clip(base + rng.normal(0, 0.01, size=(S, T, 2)), 0.01, 1)
    rows = [(f"s{s:02d}", f"t{t}", m, vals[s, t, k]) for s in range(S) for t in range(T)
            for k, m in enumerate(("bcubed_precision", "bcubed_recall"))]
    csv = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(index=False)
    at = upload(new_app(), [("ordered.csv", csv.encode(), "text/csv")])
    open_page(at, "leaderboard")
    assert_clean(at)
    table = next(d.value for d in at.dataframe if "n_improved" in d.value.columns)
    top = table.iloc[0]
    assert top["n_improved"] == S - 1
    # a count on the leaderboard (a list would scroll sideways at 1024 px); the UIR analysis
    # page's reference-system table lists them
    assert "improved" not in table.columns


def test_report_tables_print_only_p_values_in_scientific_notation():

    html = _table_html(pd.DataFrame({"metric": ["a", "b"], "\u0394 mean": [0.000557, np.nan],
                                     "p": [1.2e-7, 0.3], "p (holm)": [3.4e-5, np.nan]}))
    assert "0.001" in html and "5.57e-04" not in html  # a small difference stays fixed-point
    assert "1.2e-07" in html and "3.4e-05" in html and "0.300" in html
    assert html.count("\u2013") == 2  # missing values as a dash


def test_leaderboard_precision_recall_plane(app):
    # one point per system at its mean recall (x) and precision (y): the leaderboard's columns
    open_page(app, "leaderboard")
    table = next(d.value for d in app.dataframe if "n_improved" in d.value.columns)
    fig = figure(app, "lb_pr_plane")
    pts = next(t for t in fig["data"] if t.get("name") == "systems")
    assert len(arr(pts["x"])) == len(table)
    want = table.set_index("system")
    got = {c[0]: (x, y) for c, x, y in zip(pts["customdata"], arr(pts["x"]), arr(pts["y"]),
                                           strict=True)}
    for s, (x, y) in got.items():
        assert x == pytest.approx(want.loc[s, "recall"]) and y == pytest.approx(
            want.loc[s, "precision"])
    assert "\u03b1 = 0.50" in fig["layout"]["title"]["text"]


def test_report_tables_left_align_every_name_and_escape_it():
    # a name in the third column (the tie groups' "system", the leaderboard's reference system)
    df = pd.DataFrame({"rank": [1], "f": [0.5], "reference system": ["<b>x&y</b>"]})
    html = _table_html(df)
    assert '<td><span class="t">&lt;b&gt;x&amp;y&lt;/b&gt;</span></td>' in html
    assert "<b>" not in html
    assert "td:has(> .t){text-align:left}" in _CSS


def test_meta_evaluation_page_on_replab():
    """The Meta-evaluation page on the bundled clustering campaign: the metrics of its standard
    pairs, each against the others (the page's table is the library's), and the clustering
    constraints (R*S passes the overlapping size-vs-quantity case, BCubed F does not)."""
    from metrics.meta.meta_evaluation import meta_evaluate  # noqa: PLC0415 - the test's own route

    at = open_page(new_app(), "meta")
    assert_clean(at)
    shown = " ".join(h.value for h in at.get("html"))
    assert "size vs quantity overlap" in shown
    src = at.session_state["_selection"].source
    names = list(dict.fromkeys(m for pair in live.metric_pairs(src).values() for m in pair))
    want = meta_evaluate(evaluate(live.campaign(src), names), [], names).to_dataframe()
    for metric, rob in zip(want["metric"], want["robustness"], strict=True):
        assert f"{rob:.3f}" in shown and metric[:20] in shown


def test_leaderboard_ranking_cuts_long_names_in_the_middle(app):
    # the grid cut "SVM_terms_jaccard_HAC_60%" at the right to "SVM_terms_jaccard_HAC_6" in its
    # 173 px column at 1024 px: the shown names are cut in the middle to fit, the whole names
    # stay in the frame's hidden columns
    from dashboard.figures import short  # noqa: PLC0415
    open_page(app, "leaderboard")
    el = next(d for d in app.dataframe if "n_improved" in d.value.columns)
    table = el.value
    shown = list(el.proto.column_order)
    assert "name" in shown and "reference_name" in shown
    assert "system" not in shown and "reference_system" not in shown
    assert (table["name"].str.len() <= 21).all() and (table["reference_name"].str.len() <= 19).all()
    assert table["name"].tolist() == [short(s, 21) for s in table["system"]]
    long = table[table["system"].str.len() > 21].iloc[0]
    assert "\u2026" in long["name"] and long["name"].endswith(long["system"][-5:])
    assert (table.loc[table["reference_system"] == "", "reference_name"] == "").all()


def test_counts_take_the_number_of_their_noun():
    from dashboard.ui import flips_sentence  # noqa: PLC0415
    from metrics.reports.numbers import n_of  # noqa: PLC0415
    assert (n_of(1, "pair"), n_of(0, "pair"), n_of(1190, "pair")) == ("1 pair", "0 pairs",
                                                                      "1,190 pairs")
    assert n_of(2, "query", "queries") == "2 queries"
    assert flips_sentence(1, 0).startswith("1 pair is ordered")
    assert "does not call it" in flips_sentence(1, 0) and "calls it a" in flips_sentence(1, 1)
    assert flips_sentence(569, 12).startswith("569 pairs are ordered")
    assert "calls 12 of them" in flips_sentence(569, 12)


def test_compare_pairs_names_fit_their_170_px_columns(app):
    # 23 characters (the former cut) put the "%" of SVM_terms_jaccard_HAC_50% on the column's
    # border at 1024 px; a name is cut in the middle to what 170 px shows whole
    from dashboard.ui import name_chars  # noqa: PLC0415
    open_page(app, "compare")
    table = next(d.value for d in app.dataframe if "pair_class" in d.value.columns)
    assert name_chars(170) == 20
    for col in ("system_a", "system_b"):
        assert table[col].str.len().max() <= 20
    assert table["system_a"].str.contains("\u2026").any()


def test_the_spinner_is_a_cold_opens_until_a_whole_page_is_drawn():
    """The app's spinner (dashboard/app.py) carries the class ``unanimity-cold`` (shown at once)
    in a session's runs until one has drawn a whole page, then not (shown after 0.3 s, so that
    quick reruns never flash it). A script test has no browser: its first run draws the whole
    page, so the second run is the first warm one."""

    def spinner(at: AppTest) -> str:
        (html,) = [m.value for m in at.markdown if "unanimity-loading" in m.value
                   and "<div class=" in m.value]
        return html[html.index("<div class='unanimity-loading"):].split(">", 1)[0]

    at = new_app()
    at.run()
    assert_clean(at)
    assert "unanimity-cold" in spinner(at)
    # the words and look of the page's own spinner, which it takes over from
    (html,) = [m.value for m in at.markdown if "unanimity-loading" in m.value
               and "<div class=" in m.value]
    assert SPINNER_TEXT in html and SPINNER_BOX in html and SPINNER_RING in html
    at.run()
    assert "unanimity-cold" not in spinner(at)
    at.slider(key="alpha").set_value(0.6).run()
    assert "unanimity-cold" not in spinner(at)
