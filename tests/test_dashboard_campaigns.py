"""The dashboard on every kind of campaign: the bundled token tagging campaign (UD English EWT,
with its Type level page) next to RepLab 2013, and ranking campaigns (document organisations
with a tail: the TREC fixture ``tests/data/trec_small``, and TREC DL 2019 when ``../shared`` is
there). Metric pairs come from ``metrics.measures.registry.default_metric_pairs``; every page
renders
without an error box, and the views that need contingency tables say why they are unavailable.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("streamlit")
import io
import zipfile

from streamlit.testing.v1 import AppTest  # noqa: E402

from dashboard.data.type_level import TOKEN_METRICS, TYPE_METRICS
from metrics.analyses.token_type_ranks import rank_comparison
from metrics.io import load  # noqa: E402
from metrics.measures.registry import METRIC_PAIRS, TYPE_LEVEL_PAIRS, default_metric_pairs  # noqa: E402
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
UD = ROOT / "demo_data" / "ud-ewt"
REPLAB = ROOT / "demo_data" / "replab2013"
TREC_SMALL = ROOT / "tests" / "data" / "trec_small"
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
PAGES = ["views/leaderboard.py", "views/compare.py", "views/uir_analysis.py",
         "views/testbeds.py", "views/metric_defs.py", "views/export.py",
         "views/data_quality.py"]
TYPE_PAGE = "views/type_level_page.py"
TIMEOUT = 300
RANKING_PAIRS = {"Reliability/Sensitivity": ("reliability", "sensitivity"),
                 "P@10/R@10": ("P@10", "R@10"), "nDCG@10/AP": ("nDCG@10", "AP"),
                 # graded judgments (trec_small has grades 1-3): the binary measures at grade >= 2
                 "P@10/R@10 (rel=2)": ("P(rel=2)@10", "R(rel=2)@10"),
                 "nDCG@10/AP(rel=2)": ("nDCG@10", "AP(rel=2)")}


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


@contextlib.contextmanager
def opened_on(campaign: Path | None):
    """The campaign given on the command line (``UNANIMITY_CAMPAIGN``) while the block runs:
    every rerun of the app reads it."""
    old = os.environ.pop("UNANIMITY_CAMPAIGN", None)
    if campaign is not None:
        os.environ["UNANIMITY_CAMPAIGN"] = str(campaign)
    try:
        yield
    finally:
        os.environ.pop("UNANIMITY_CAMPAIGN", None)
        if old is not None:
            os.environ["UNANIMITY_CAMPAIGN"] = old


def run_app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert_clean(at)
    return at


# ------------------------------------------------------------------------------------------------
# the registry's pairs
# ------------------------------------------------------------------------------------------------


def test_default_pairs_by_campaign_kind():
    ud = load(UD)
    assert ud.item_type is not None
    pairs = default_metric_pairs(ud)
    # type-level pairs first, then the token-level ones, nothing else
    assert list(pairs) == list(TYPE_LEVEL_PAIRS) + list(METRIC_PAIRS)
    assert pairs["MacroI P/R (1-1)"] == ("type_macro_precision", "type_macro_recall")
    trec = load(TREC_SMALL)
    assert trec.is_organisation and trec.tail
    assert default_metric_pairs(trec) == RANKING_PAIRS
    assert default_metric_pairs(load(REPLAB)) == METRIC_PAIRS


# ------------------------------------------------------------------------------------------------
# the campaign switch: UD English EWT next to RepLab 2013
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ud_app() -> AppTest:
    with opened_on(None):
        yield _ud_app()


def _ud_app() -> AppTest:
    at = run_app()
    assert "UD English EWT (bundled)" in at.selectbox(key="campaign").options
    # RepLab 2013 (flat clusterings) has no Type level page
    with pytest.raises(ValueError):
        at.switch_page(TYPE_PAGE)
    at.selectbox(key="campaign").set_value("ud-ewt").run()
    assert_clean(at)
    return at


def test_switch_offers_the_type_level_pairs_first(ud_app):
    options = ud_app.selectbox(key="metrics").options
    assert options[:-1] == list(default_metric_pairs(load(UD)))
    sel = ud_app.session_state["_selection"]
    assert sel.source.key == "ud-ewt"
    assert (sel.precision, sel.recall) == TYPE_LEVEL_PAIRS["MacroI P/R (1-1)"]
    assert set(sel.systems) == set(load(UD).systems)


#: words a slide should not show: a count of one with a plural noun ("1 pairs are ordered ..."
#: on UD's Leaderboard), and a missing value printed as Python or numpy writes it
_NOT_ON_A_SLIDE = re.compile(r"(?<![\d.,])1 (?:pairs|systems|topics|metrics|groups|items)\b"
                             r"|\bNone\b|\bnan\b")


def assert_slide_words(at: AppTest) -> None:
    text = [str(e.value) for kind in ("caption", "markdown", "subheader", "metric")
            for e in getattr(at, kind)]
    bad = [t for t in text if _NOT_ON_A_SLIDE.search(t)]
    assert not bad, bad


@pytest.mark.parametrize("page", PAGES)
def test_every_page_on_the_token_tagging_campaign(ud_app, page):
    ud_app.switch_page(page).run()
    assert_clean(ud_app)
    assert ud_app.session_state["_selection"].source.key == "ud-ewt"
    assert_slide_words(ud_app)


def test_type_level_page_renders_the_rank_comparison(ud_app):

    ud_app.switch_page(TYPE_PAGE).run()
    assert_clean(ud_app)
    assert len(ud_app.get("plotly_chart")) >= 3  # slope chart, Spearman heat map, mapping
    wanted = list(TOKEN_METRICS + TYPE_METRICS)
    ref = rank_comparison(evaluate(load(UD), wanted, missing="penalize"), wanted)
    # the paper's Table 1, one row per measure and one column per run: the means
    shown = ud_app.dataframe[0].value
    assert [str(c) for c in shown.columns] == [str(s) for s in ref.means.index]
    np.testing.assert_allclose(shown.to_numpy(dtype=float), ref.means.T.to_numpy(dtype=float))
    assert shown.index[0] == "accuracy_m1" and shown.index[-1].endswith("(M-1) *")
    # the mapping of another run: still clean, the page says how it was found
    runs = ud_app.selectbox(key="tl_sys").options
    ud_app.selectbox(key="tl_sys").set_value(runs[-1]).run()
    ud_app.selectbox(key="tl_map").set_value("M-1 (many-to-one search)").run()
    assert_clean(ud_app)
    assert any("Found by majority: a proven optimum" in c.value for c in ud_app.caption)
    ud_app.selectbox(key="tl_sys").set_value("ctxkm-17").run()
    ud_app.selectbox(key="tl_measure").set_value("MicroC").run()
    assert_clean(ud_app)
    assert any("Found by hill climbing" in c.value and "gap ≤" in c.value
               for c in ud_app.caption)


def test_type_level_pair_m1_on_leaderboard(ud_app):
    ud_app.selectbox(key="metrics").set_value("MacroI P/R (M-1)").run()
    ud_app.switch_page("views/leaderboard.py").run()
    assert_clean(ud_app)
    sel = ud_app.session_state["_selection"]
    assert (sel.precision, sel.recall) == TYPE_LEVEL_PAIRS["MacroI P/R (M-1)"]


# ------------------------------------------------------------------------------------------------
# ranking campaigns
# ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trec_app() -> AppTest:
    with opened_on(TREC_SMALL):
        yield run_app()


@pytest.mark.parametrize("pair", list(RANKING_PAIRS))
@pytest.mark.parametrize("page", PAGES)
def test_every_page_on_a_ranking_campaign(trec_app, pair, page):
    assert trec_app.selectbox(key="metrics").options[:-1] == list(RANKING_PAIRS)
    trec_app.selectbox(key="metrics").set_value(pair).run()
    trec_app.switch_page(page).run()
    assert_clean(trec_app)
    sel = trec_app.session_state["_selection"]
    assert (sel.precision, sel.recall) == RANKING_PAIRS[pair]
    assert_slide_words(trec_app)
    assert trec_app.toggle(key="baselines").proto.disabled  # no baselines for rankings
    if page == "views/compare.py":
        assert any("drill-down is unavailable" in i.value and "organisations" in i.value
                   for i in trec_app.info)
    if page == "views/data_quality.py":
        assert any("rankings over an unlimited collection" in c.value for c in trec_app.caption)
    if page == "views/leaderboard.py":
        # a measure at a relevance level gets a header that fits its column (P@10≥2, not
        # "P(rel=…"), which the ranking's caption explains; the other measures keep their names
        levels = {"P@10/R@10 (rel=2)": " P@10\u22652 and R@10\u22652: P(rel=2)@10 and "
                                       "R(rel=2)@10, where documents of grade 2 or more count "
                                       "as relevant.",
                  "nDCG@10/AP(rel=2)": " AP\u22652: AP(rel=2), where documents of grade 2 or "
                                       "more count as relevant."}
        ranking = [c.value for c in trec_app.caption if "Pareto-optimal on the means" in c.value]
        assert len(ranking) == 1
        if pair in levels:
            assert ranking[0].endswith(levels[pair])
        else:
            assert "count as relevant" not in ranking[0]


def test_no_type_level_page_on_a_ranking_campaign(trec_app):
    with pytest.raises(ValueError):
        trec_app.switch_page(TYPE_PAGE)


@pytest.mark.skipif(not TREC_DL.is_dir(), reason="../shared/campaigns/trec-dl-2019 is absent")
def test_trec_dl_2019_opens():
    with opened_on(TREC_DL):
        at = run_app()
        sel = at.session_state["_selection"]
        assert (sel.precision, sel.recall) == ("reliability", "sensitivity")
        assert len(sel.systems) == 37
        at.switch_page("views/uir_analysis.py").run()
        assert_clean(at)


def test_ranking_campaign_uploaded_as_a_zip():

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(TREC_SMALL.rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(TREC_SMALL).as_posix())
    with opened_on(None):
        at = run_app()
        at.switch_page("views/data_quality.py").run()
        at.file_uploader(key="upload").set_value([("trec_small.zip", buf.getvalue(),
                                                   "application/zip")]).run()
        at.button(key="upload_load").click().run()
        assert_clean(at)
        sel = at.session_state["_selection"]
        assert sel.source.key.startswith("up-")
        assert at.selectbox(key="metrics").options[:-1] == list(RANKING_PAIRS)
        for page in PAGES:
            at.switch_page(page).run()
            assert_clean(at)


def test_type_level_mapping_opens_on_system_a_with_its_macroi_scores(ud_app):
    ud_app.switch_page(TYPE_PAGE).run()
    assert_clean(ud_app)
    sel = ud_app.session_state["_selection"]
    assert ud_app.selectbox(key="tl_sys").value == sel.a
    topic = ud_app.selectbox(key="tl_topic").value
    want = evaluate(load(UD), ["type_macro_precision", "type_macro_recall", "type_macro_f"],
                    missing="penalize")
    want = want[(want["system"] == sel.a) & (want["topic"].astype(str) == topic)]
    cards = {m.label: m.value for m in ud_app.metric}
    for label, name in (("MacroI P (1-1)", "type_macro_precision"),
                        ("MacroI R (1-1)", "type_macro_recall"),
                        ("MacroI F (1-1)", "type_macro_f")):
        assert cards[label] == f"{want.loc[want['metric'] == name, 'value'].iloc[0]:.3f}"
    # the cluster -> tag mapping as a table, one row per cluster
    table = next(d.value for d in ud_app.dataframe if "shared_types" in d.value.columns)
    assert table["cluster"].is_unique and len(table) > 0
