"""The Leaderboard's ranking with tie groups, the profile switch, the adapted-BCubed alpha and
the Check reported page, run headlessly with ``AppTest`` on the bundled RepLab 2013 campaign.

What the pages show is checked against ``metrics`` called directly (the one source of every
number) and, for the improved-system counts under each profile, against a count straight from
the comparison's UIR column (``>=`` for the default profile, ``>`` for jair2011).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from metrics.analyses import compare  # noqa: E402
from metrics.comparison.tie_ranking import ranking_from_comparison  # noqa: E402
from metrics.io import load  # noqa: E402
from metrics.measures.scoring import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
REPLAB = ROOT / "demo_data" / "replab2013"
TIMEOUT = 300


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def new_app(query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    if query:
        at.query_params.update(query)
    at.run()
    assert_clean(at)
    return at


@pytest.fixture(scope="module")
def replab_table() -> pd.DataFrame:
    return evaluate(load(REPLAB), ["bcubed_precision", "bcubed_recall"], missing="penalize")


def direct_comparison(table, sel):
    return compare(table, sel.precision, sel.recall, alpha=sel.alpha, threshold=sel.threshold,
                   test=sel.test, correction=sel.correction, average=sel.average,
                   profile=sel.profile)


def shown(at: AppTest, n: int) -> pd.DataFrame:
    return at.dataframe[n].value.reset_index(drop=True)


# ------------------------------------------------------------------------------------------------
# Leaderboard: the ranking with tie groups
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", [{}, {"threshold": "0.1", "alpha": "0.3"},
                                   {"profile": "jair2011"}])
def test_tie_groups_and_hasse_are_the_comparisons(replab_table, query):
    at = new_app(query)
    assert_clean(at)
    sel = at.session_state["_selection"]
    ref = ranking_from_comparison(direct_comparison(replab_table, sel)).to_dataframe()
    groups = shown(at, 1)  # the second table of the page
    assert groups["system"].tolist() == ref["system"].tolist()
    assert groups["group"].tolist() == ref["group"].tolist()
    want = [f"{lo}" if lo == hi else f"{lo}\u2013{hi}"
            for lo, hi in zip(ref["rank_low"], ref["rank_high"])]
    assert groups["interval"].tolist() == want
    np.testing.assert_allclose(groups["score"], ref["score"])
    # the Hasse diagram: one node per system, on as many levels as tie groups
    hasse = [el for el in at.get("plotly_chart") if "lb_hasse" in (el.proto.id or "")]
    assert len(hasse) == 1
    assert ref["group"].nunique() >= 2  # RepLab 2013 separates some systems


def test_tie_ranking_is_cached_with_the_comparison(replab_table):
    at = new_app()
    before = shown(at, 1)
    at.slider(key="alpha2").set_value(0.9).run()  # a control the comparison does not read
    assert_clean(at)
    pd.testing.assert_frame_equal(shown(at, 1), before)


# ------------------------------------------------------------------------------------------------
# Profiles
# ------------------------------------------------------------------------------------------------


def _improved_counts(result, threshold: float, strict: bool) -> dict[str, int]:
    p = result.pairs
    u = p["uir"].to_numpy(dtype=float)
    keep = (u > threshold) if strict else (u >= threshold)
    counts = p.loc[keep].groupby("system_a").size()
    return {s: int(counts.get(s, 0)) for s in result.systems["system"]}


@pytest.mark.parametrize("profile, correction, strict", [("default", "holm", False),
                                                         ("jair2011", "none", True)])
def test_profile_from_the_link_sets_test_correction_and_rule(replab_table, profile, correction,
                                                             strict):
    at = new_app({"profile": profile})
    sel = at.session_state["_selection"]
    assert (sel.profile, sel.test, sel.correction, sel.strict_improved) == (
        profile, "wilcoxon", correction, strict)
    result = direct_comparison(replab_table, sel)
    board = shown(at, 0)
    want = _improved_counts(result, sel.threshold, strict)
    assert dict(zip(board["system"], board["n_improved"].astype(int))) == want
    assert ("UIR >" if strict else "UIR \u2265") in at.markdown[0].value + " ".join(
        c.value for c in at.caption)
    # the UIR page's reference-system table reads the same improved systems
    at.switch_page("views/uir_analysis.py").run()
    assert_clean(at)
    refs = [d.value for d in at.dataframe if any("improved systems" in c for c in d.value.columns)]
    assert refs and f"improved systems (UIR {'>' if strict else chr(0x2265)} t)" in refs[0].columns
    n_listed = refs[0].iloc[:, 3].map(lambda v: len(v.split()) if v else 0)
    assert int(n_listed.sum()) == sum(want.values())


def test_strict_rule_differs_where_a_uir_equals_the_threshold(replab_table):
    """At a threshold equal to a UIR the campaign reaches, ``>`` drops the pairs ``>=`` keeps."""
    base = new_app()
    result = direct_comparison(replab_table, base.session_state["_selection"])
    u = result.pairs["uir"].to_numpy(dtype=float)
    steps = [t for t in np.round(np.arange(0, 1, 0.01), 2) if np.any(np.abs(u - t) < 1e-12)]
    assert steps, "some UIR equals a slider threshold (UIR = 0 at least)"
    thr = float(steps[-1])
    hits = np.abs(u - thr) < 1e-12
    counts = {}
    for profile in ("default", "jair2011"):
        at = new_app({"profile": profile, "threshold": str(thr)})
        counts[profile] = int(shown(at, 0)["n_improved"].sum())
    assert counts["default"] - counts["jair2011"] == int(hits.sum())


def test_switching_the_profile_switches_the_correction():
    at = new_app()
    assert at.session_state["_selection"].correction == "holm"
    at.button_group(key="profile").set_value("jair2011").run()
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert (sel.profile, sel.correction) == ("jair2011", "none")
    # the correction can still be changed under the profile
    at.selectbox(key="correction").set_value("bh").run()
    assert at.session_state["_selection"].correction == "bh"
    at.button_group(key="profile").set_value("default").run()
    assert at.session_state["_selection"].correction == "holm"


def test_link_correction_wins_over_the_profile():
    sel = new_app({"profile": "jair2011", "correction": "bh"}).session_state["_selection"]
    assert (sel.profile, sel.correction) == ("jair2011", "bh")


# ------------------------------------------------------------------------------------------------
# the adapted-BCubed pair's alpha
# ------------------------------------------------------------------------------------------------


def test_adapted_bcubed_pair_defaults_to_alpha_09():
    assert new_app({"metrics": "Adapted BCubed P/R"}).session_state["_selection"].alpha == 0.9
    # a link's own alpha wins
    assert new_app({"metrics": "Adapted BCubed P/R",
                    "alpha": "0.3"}).session_state["_selection"].alpha == 0.3
    at = new_app()
    assert at.session_state["_selection"].alpha == 0.5
    at.selectbox(key="metrics").set_value("Adapted BCubed P/R").run()
    assert at.session_state["_selection"].alpha == 0.9
    at.selectbox(key="metrics").set_value("Purity/Inverse Purity").run()
    assert at.session_state["_selection"].alpha == 0.5


# ------------------------------------------------------------------------------------------------
# Check reported
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def check_app() -> AppTest:
    at = new_app()
    at.switch_page("views/check_reported.py").run()
    assert_clean(at)
    return at


def _rows(at: AppTest) -> pd.DataFrame:
    return shown(at, 0).set_index("system")


def test_check_reported_example(check_app):
    rows = _rows(check_app)
    # hand-worked: F1(0.81, 0.62) = 0.7024 -> "0.70" fits; F1(0.55, 0.90) = 0.6828, not 0.79,
    # but 0.79 lies between P and R, so another alpha fits; 0.70 > max(0.60, 0.65) is impossible
    assert rows.loc["ours", "status"] == "consistent"
    assert rows.loc["baseline", "status"] == "consistent"
    assert rows.loc["prior work", "status"] == "fits another \u03b1"
    assert rows.loc["prior work", "fits"] != "none"
    assert rows.loc["broken", "status"].startswith("impossible: F above max")
    assert rows.loc["broken", "fits"] == "none"
    assert abs(rows.loc["ours", "f_at_alpha"] - 2 * 0.81 * 0.62 / 1.43) < 1e-9


def test_check_reported_beta_and_pasted_tsv(check_app):
    text = "system\tP\tR\tF1\nx\t0.5\t1.0\t0.6\ny\t0.9\t0.3\t0.45\n"
    check_app.text_area(key="reported_text").set_value(text).run()
    check_app.radio(key="reported_weight").set_value("\u03b2 (F\u03b2)").run()
    check_app.number_input(key="reported_beta").set_value(2.0).run()
    assert_clean(check_app)
    rows = _rows(check_app)
    # beta = 2 is alpha = 1/5: F(0.5, 1.0) = 1 / (0.2/0.5 + 0.8/1.0) = 0.8333
    assert abs(rows.loc["x", "alpha"] - 0.2) < 1e-12
    assert abs(rows.loc["x", "f_at_alpha"] - 1 / (0.2 / 0.5 + 0.8)) < 1e-9
    assert rows.loc["x", "status"] == "fits another \u03b1"


def test_check_reported_bad_table_names_the_problem(check_app):
    check_app.text_area(key="reported_text").set_value("system,precision,recall\na,1,1\n").run()
    assert not check_app.exception
    msgs = [e.value for e in check_app.error]
    assert msgs and "the pasted table" in msgs[0] and "F" in msgs[0]
    assert tempfile.gettempdir() not in msgs[0]  # no server path of the pasted text


def test_export_offers_the_ranking_csv(replab_table):
    at = new_app()
    at.switch_page("views/export.py").run()
    assert_clean(at)
    sel = at.session_state["_selection"]
    ref = ranking_from_comparison(direct_comparison(replab_table, sel)).to_csv_frame()
    btn = [b for b in at.get("download_button") if "dl_ties" in (b.proto.id or "")]
    assert len(btn) == 1
    assert list(ref.columns) == ["system", "rank_low", "rank_high", "group"]


def test_a_failing_ranking_section_is_the_pages_last_word(monkeypatch):
    """When the section under the curves fails (here its precision-recall plane), the page says
    so once, and the sections that read its results (rank sets, aggregation rules) are not
    drawn, rather than each failing on a name the first never set."""
    from dashboard.figures import pr_plane  # noqa: PLC0415 - patched for this test only

    def broken(*args, **kwargs):
        raise ValueError("no plane today")

    monkeypatch.setattr(pr_plane, "pr_plane_figure", broken)
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    errors = [e.value for e in at.error]
    assert errors == ["The leaderboard: no plane today"], errors
    assert not at.exception
    assert not [h for h in at.subheader if "aggregation" in h.value or "How sure" in h.value]
