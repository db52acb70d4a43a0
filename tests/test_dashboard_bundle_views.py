"""One page per view (AppTest): a bundle written by ``unanimity compare ... --out DIR`` and the
campaign it was computed from, opened in the dashboard with the same settings, show the same
numbers on the Leaderboard, Compare, UIR analysis, Papers and Export pages (the rendered tables,
verdict and LaTeX, compared as shown); the bundle's Export page downloads the LaTeX and the HTML
report; the bundle's bootstrap intervals and aggregation rules are drawn; what a bundle cannot
serve is said in one sentence with the command that opens the campaign."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("streamlit")
from compare_cli import run_compare  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from metrics.reports.bundle import open_bundle  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
FIXTURE = ROOT / "tests" / "data" / "replab2013_official_rs.csv.gz"
TIMEOUT = 180
P, R = "reliability", "sensitivity"
VERDICT = "<p class='unanimity-verdict'>"


@pytest.fixture(scope="module")
def campaign_and_bundle(tmp_path_factory) -> tuple[Path, Path, Path]:
    """A 9-system score table (one robust pair), its bundle (papers' tables), and a bundle with
    the bootstrap."""
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    keep = sorted(pd.unique(t["system"]))[::3][:9]
    src = tmp_path_factory.mktemp("in") / "scores.csv"
    t[t["system"].isin(keep)].to_csv(src, index=False)
    out = tmp_path_factory.mktemp("b") / "results"
    assert run_compare([str(src), "--metrics", f"{P},{R}", "--paper-tables",
                        "--out", str(out)]) == 0
    boot = tmp_path_factory.mktemp("b") / "with_bootstrap"
    assert run_compare([str(src), "--metrics", f"{P},{R}", "--bootstrap", "60",
                        "--out", str(boot)]) == 0
    return src, out, boot


def _app(monkeypatch, path: Path, page: str, **params) -> AppTest:
    monkeypatch.setenv("UNANIMITY_CAMPAIGN", str(path))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params.update(params)
    at.run()
    at.switch_page(page).run()
    errors = [e.value for e in at.error] + [str(e.value) for e in at.exception]
    assert not errors, errors
    return at


def _campaign(monkeypatch, src: Path, page: str, a: str, b: str) -> AppTest:
    at = _app(monkeypatch, src, page, a=a, b=b)
    sel = at.session_state["_selection"]
    assert (sel.precision, sel.recall, sel.a, sel.b) == (P, R, a, b)
    return at


def _bundle(monkeypatch, out: Path, page: str, a: str, b: str) -> AppTest:
    at = _app(monkeypatch, out, page, ba=a, bb=b)
    assert at.query_params.get("bundle") in ("cli-bundle", ["cli-bundle"])
    return at


def _tables(at: AppTest) -> list[pd.DataFrame]:
    """Every table on the page, in page order."""
    return [d.value.reset_index(drop=True) for d in at.dataframe]


def _same_tables(live: AppTest, stored: AppTest, where: str) -> int:
    """The two pages show the same tables (the columns both have: a live page can add the
    columns computed from per-topic scores); returns how many."""
    a, b = _tables(live), _tables(stored)
    assert len(a) == len(b), (where, [list(t.columns) for t in a], [list(t.columns) for t in b])
    for k, (x, y) in enumerate(zip(a, b, strict=True)):
        common = [c for c in x.columns if c in y.columns]
        assert len(common) >= max(1, len(x.columns) - 2), (where, k, list(x.columns))
        pd.testing.assert_frame_equal(x[common], y[common], obj=f"{where} table {k}",
                                      check_dtype=False)
    return len(a)


def _pair(out: Path) -> tuple[str, str]:
    """The pair with the largest UIR (a robust improvement, on every page)."""
    pairs = open_bundle(out).pairs
    row = pairs.loc[pairs["uir"].idxmax()]
    return str(row["system_a"]), str(row["system_b"])


def test_leaderboard_same_numbers(monkeypatch, campaign_and_bundle):
    src, out, _ = campaign_and_bundle
    a, b = _pair(out)
    live = _campaign(monkeypatch, src, "views/leaderboard.py", a, b)
    stored = _bundle(monkeypatch, out, "views/leaderboard.py", a, b)
    # ranking, tie groups, the aggregation rules' agreement and flipped pairs
    assert _same_tables(live, stored, "Leaderboard") == 4
    board = _tables(stored)[0]
    csv = open_bundle(out).systems.sort_values("rank", kind="stable")
    assert board["system"].tolist() == csv["system"].tolist()
    assert board["f"].tolist() == csv["f_alpha"].tolist()
    assert [(m.label, m.value) for m in live.metric] == [(m.label, m.value) for m in stored.metric]


def test_compare_same_verdict_and_tests(monkeypatch, campaign_and_bundle):
    src, out, _ = campaign_and_bundle
    a, b = _pair(out)
    at_live = _campaign(monkeypatch, src, "views/compare.py", a, b)
    at_b = _bundle(monkeypatch, out, "views/compare.py", a, b)
    verdict = [m.value for m in at_live.markdown if m.value.startswith(VERDICT)]
    assert verdict and verdict == [m.value for m in at_b.markdown if m.value.startswith(VERDICT)]
    assert [(m.label, m.value) for m in at_live.metric] == \
        [(m.label, m.value) for m in at_b.metric]
    # the live page adds the per-topic deltas table; the tests and all pairs are on both
    tl, tb = _tables(at_live), _tables(at_b)
    assert len(tb) == 2 and len(tl) == 3
    common = [c for c in tl[0].columns if c in tb[0].columns]
    assert {"metric", "p", "verdict"} <= set(common)
    pd.testing.assert_frame_equal(tl[0][common], tb[0][common], check_dtype=False)
    pd.testing.assert_frame_equal(tl[-1], tb[-1], check_dtype=False)
    assert "A improves B robustly" in verdict[0] and len(tb[-1]) >= 1
    # the per-topic views: one sentence with the command that opens the campaign
    said = " ".join(c.value for c in at_b.caption)
    assert "per-topic scores" in said and f"unanimity dashboard {src}" in said


def test_uir_and_papers_same_numbers(monkeypatch, campaign_and_bundle):
    src, out, _ = campaign_and_bundle
    a, b = _pair(out)
    live = _campaign(monkeypatch, src, "views/uir_analysis.py", a, b)
    stored = _bundle(monkeypatch, out, "views/uir_analysis.py", a, b)
    # the reference systems; the bundle adds the cross-test-bed table (the campaign's is on its
    # Test beds page)
    pd.testing.assert_frame_equal(_tables(live)[0], _tables(stored)[0], check_dtype=False)
    live = _campaign(monkeypatch, src, "views/papers.py", a, b)
    stored = _bundle(monkeypatch, out, "views/papers.py", a, b)
    assert _same_tables(live, stored, "Papers") >= 4


def test_export_from_a_bundle(monkeypatch, campaign_and_bundle):
    src, out, _ = campaign_and_bundle
    a, b = _pair(out)
    at_live = _campaign(monkeypatch, src, "views/export.py", a, b)
    at_b = _bundle(monkeypatch, out, "views/export.py", a, b)
    tex = [c.value for c in at_b.code if "begin{tabular}" in c.value]
    assert tex and tex == [c.value for c in at_live.code if "begin{tabular}" in c.value]
    labels = [d.label for d in at_b.get("download_button")]
    assert {"All pairs", "Leaderboard", "Tie groups", "LaTeX tables (.tex)",
            "All figures (PNG + SVG, zip)"} <= set(labels)
    assert "Per-topic scores" not in labels
    assert "per-topic scores" in " ".join(c.value for c in at_b.caption)
    at_b.button(key="build_report").click().run()
    assert "Download the report (HTML)" in [d.label for d in at_b.get("download_button")]
    html = at_b.session_state["_report_html"][1]
    assert "<h2>Ranking with tie groups</h2>" in html and "<h2>UIR matrix</h2>" in html
    assert "per-topic scores" in html  # the sections a bundle cannot draw say why
    stored = open_bundle(out)
    row = stored.pairs[(stored.pairs["system_a"] == a) & (stored.pairs["system_b"] == b)].iloc[0]
    assert f"UIR(A, B) = {row['uir']:+.3f}" in html


def test_bundle_draws_its_intervals_and_aggregation(monkeypatch, campaign_and_bundle):
    _, _, boot = campaign_and_bundle
    a, b = _pair(boot)
    at = _bundle(monkeypatch, boot, "views/leaderboard.py", a, b)
    charts = [el.proto.id for el in at.get("plotly_chart")]
    assert any("lb_rank_ci" in c for c in charts) and any("lb_aggregation" in c for c in charts)
    sets = json.loads(next(el.proto.spec for el in at.get("plotly_chart")
                           if "lb_rank_ci" in el.proto.id))
    assert sets["data"]
    at = _bundle(monkeypatch, boot, "views/compare.py", a, b)
    stored = open_bundle(boot).pairs
    row = stored[(stored["system_a"] == a) & (stored["system_b"] == b)].iloc[0]
    shown = {m.label: m.delta for m in at.metric}
    assert shown["UIR(A, B)"] == f"[{row['uir_low']:+.2f}, {row['uir_high']:+.2f}]"
    assert shown["\u0394F\u03b1 (A \u2212 B)"] == \
        f"[{row['delta_f_low']:+.3f}, {row['delta_f_high']:+.3f}]"
