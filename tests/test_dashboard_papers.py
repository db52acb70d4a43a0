"""The Papers' tables page (AppTest) on the bundled RepLab 2013 campaign: it renders
metrics.analyses.paper_tables of the page's own comparison (the values equal a direct computation
from
the score table), the jair2011 profile switches improved systems to the strict rule, and the
random baselines are scored on request."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from metrics.analyses import compare  # noqa: E402
from metrics.analyses.paper_tables import paper_tables  # noqa: E402
from metrics.io import load  # noqa: E402
from metrics.measures.scoring import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
DEMO = ROOT / "demo_data" / "replab2013"
P, R = "bcubed_precision", "bcubed_recall"


@pytest.fixture(scope="module")
def expected():
    c = load(DEMO)
    t = evaluate(c, [P, R], missing="penalize")
    beds = c.topic_testbeds()
    out = {}
    for profile, corr in (("default", "holm"), ("jair2011", "none")):
        res = compare(t, P, R, test="wilcoxon", correction=corr, testbeds=beds, profile=profile)
        out[profile] = paper_tables(res, t)
    return out


def _app(monkeypatch, query=None) -> AppTest:
    monkeypatch.delenv("UNANIMITY_CAMPAIGN", raising=False)
    at = AppTest.from_file(APP, default_timeout=180)
    if query:
        at.query_params.update(query)
    at.run()
    at.switch_page("views/papers.py").run()
    return at


def _table(at, column):
    return next(d.value for d in at.dataframe if column in d.value.columns)


@pytest.mark.parametrize("profile", ["default", "jair2011"])
def test_papers_page_equals_a_direct_computation(monkeypatch, expected, profile):
    at = _app(monkeypatch, {"profile": profile})
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.title[0].value == "Papers' tables"
    want = expected[profile]
    t5 = _table(at, "mean relative \u0394F")
    np.testing.assert_allclose(t5["mean UIR"].to_numpy(float),
                               want.tables["jair_table5"]["mean_uir"].to_numpy(float))
    assert t5["# pairs"].tolist() == want.tables["jair_table5"]["n_pairs"].tolist()
    values = {m.label: m.value for m in at.metric}
    w = want.summary["weps_table2"]
    assert values["Reverse between the two"] == f"{w['reversed']:,}"
    assert values["Significant at \u03b1 = 0.5"] == f"{w['significant_0.5']:,}"
    top = _table(at, "weakest_delta")
    assert len(top) == 10
    imp = _table(at, "improved_systems")
    assert imp["n_improved"].sum() == want.summary["n_improved"]
    heads = [s.value for s in at.subheader]
    assert any(("UIR > 0.25" if profile == "jair2011" else "UIR >= 0.25") in h for h in heads)


def test_random_baselines_on_request(monkeypatch):
    at = _app(monkeypatch)
    assert not any("k_r" in str(d.value.columns) for d in at.dataframe)
    at.number_input(key="pt_runs").set_value(1).run()
    at.button(key="pt_rb").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    rb = _table(at, "f_mean")
    assert set(rb["algorithm"]) == {"random", "ultra-shaped"}
    assert len(rb) == 2 * 19 + 2 and (rb["k"] == "2-20").sum() == 2
    assert ((rb["f_mean"] > 0) & (rb["f_mean"] < 1)).all()


def test_export_page_latex_top_and_html_report_with_tie_groups(monkeypatch):
    monkeypatch.delenv("UNANIMITY_CAMPAIGN", raising=False)
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    at.switch_page("views/export.py").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    sel = at.session_state["_selection"]
    n = len(sel.systems)
    preview = next(c.value for c in at.code if "begin{tabular}" in c.value)
    # the notes name the files the page downloads (campaign, metric pair and alpha in the name)
    board_file = (f"replab_2013_topic_detection_{sel.precision}_{sel.recall}_"
                  f"alpha{sel.alpha:.2f}_leaderboard.csv").replace("_", r"\_")
    assert f"20 of {n} systems shown; full table in {board_file}" in preview, preview[:3000]
    assert "ranking.csv" in preview and "alpha0.50" in preview
    at.number_input(key="latex_top").set_value(5).run()
    preview = next(c.value for c in at.code if "begin{tabular}" in c.value)
    assert f"5 of {n} systems shown" in preview and "Ranking with tie groups" in preview
    at.button(key="build_report").click().run()
    html = at.session_state["_report_html"][1]
    assert "<h2>Ranking with tie groups</h2>" in html
    assert "<th>Ranks</th>" in html and "<th>Systems above</th>" in html
    assert "<h2>Order of robust improvements</h2>" in html
    assert "parametric UIR = " in html and "<th>parametric UIR</th>" in html


def test_papers_tables_human_headers_and_no_none(monkeypatch):
    at = _app(monkeypatch)
    assert not at.exception and not at.error, [e.value for e in at.error]
    for d in at.dataframe:
        # a missing value (an empty class of Table 6) reads as a dash, not "None"
        assert d.proto.placeholder == "\u2013"
        labels = [json.loads(d.proto.columns).get(c, {}).get("label") or c
                  for c in d.value.columns]
        assert not any("_" in str(lab) and str(lab).islower() for lab in labels
                       if lab not in ("d_z",)), labels
