"""The Compare page says what the comparison report says, for every ordered pair.

The page renders :mod:`dashboard.render.pair_view` of the report's row (``CampaignComparison.pair``);
here, for every ordered pair of a 30-topic campaign built to make the mean difference and the
Wilcoxon direction disagree, and of the bundled RepLab 2013 campaign (BCubed P/R, what the
dashboard opens on), each shown value is checked against the report's ``pairs`` / ``systems``
rows read directly. One AppTest run checks that the page itself renders those values. Also here:
float noise is a tie in the paired tests (the RepLab pair of the issue).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from dashboard.render import pair_view
from metrics.analyses import compare
from metrics.comparison.effect_size import pair_effects
from metrics.comparison.significance import pair_classes, pair_tests
from metrics.measures.scoring import evaluate
from metrics.reports.numbers import format_p, signed

P, R = "bcubed_precision", "bcubed_recall"


def thirty_topics() -> pd.DataFrame:
    """A is better than B on 29 topics by +0.01 and worse on one by -0.5 (precision); recall is
    equal; C is a third, unrelated system so that the correction has a family."""
    rng = np.random.default_rng(3)
    base = rng.uniform(0.3, 0.6, 30)
    rec = rng.uniform(0.3, 0.6, 30)
    pa = base + 0.01
    pa[7] = base[7] - 0.5
    rows = []
    for t in range(30):
        for s, p, r in (("A", pa[t], rec[t]), ("B", base[t], rec[t]),
                        ("C", base[t] + rng.normal(0, 0.05), rec[t] + rng.normal(0, 0.05))):
            rows += [(s, f"t{t:02d}", P, p), (s, f"t{t:02d}", R, r)]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


@pytest.fixture(scope="module")
def replab_bcubed(demo_campaign) -> pd.DataFrame:
    return evaluate(demo_campaign, [P, R], missing="penalize")


def _fmt(v: float) -> str:
    """Two signed decimals; a value that rounds to zero is a tie, "+0.00" (not "-0.00")."""
    text = "n/a" if np.isnan(v) else f"{v:+.2f}"
    return "+0.00" if text == "-0.00" else text


def _fmt_uir(v: float) -> str:
    """A UIR as :func:`_fmt`, but with three decimals where two would print the threshold 0.25
    for a UIR that is not 0.25 (15/61 = 0.2459: "+0.246")."""
    text = _fmt(v)
    return f"{v:+.3f}" if text.lstrip("+-") == "0.25" and abs(v) != 0.25 else text


def assert_page_equals_report(table: pd.DataFrame, test: str = "wilcoxon") -> int:
    comp = compare(table, P, R, alpha=0.5, threshold=0.25, test=test)
    pairs = comp.pairs.set_index(["system_a", "system_b"])
    systems = comp.systems.set_index("system")
    tests = comp.tests.set_index(["system_a", "system_b", "metric"])
    verdict_words = {"improves": "A better", "worsens": "B better",
                     "no significant difference": "not significant"}
    n = 0
    for (a, b), row in pairs.iterrows():
        rep = comp.pair(a, b)
        cards = pair_view.summary_cards(rep)
        assert cards[0].value == f"{systems.loc[a, 'f_alpha']:.3f}" == f"{row['f_a']:.3f}"
        assert cards[0].delta == f"rank {systems.loc[a, 'rank']}"
        assert cards[1].value == f"{systems.loc[b, 'f_alpha']:.3f}" == f"{row['f_b']:.3f}"
        assert cards[1].delta == f"rank {systems.loc[b, 'rank']}"
        assert cards[2].value == _fmt_uir(row["uir"])
        robust = "A improves B" if row["uir"] >= 0.25 else (
            "B improves A" if row["uir"] <= -0.25 else "not robust")
        assert cards[2].delta.startswith(robust)
        assert cards[3].value == _fmt(row["uir_param"])
        back = pairs.loc[(b, a)]
        assert cards[4].value == ("A" if row["beats_all_alpha"] else
                                  "B" if back["beats_all_alpha"] else "neither")
        assert (rep.n_a_better, rep.n_b_better, rep.n_tied, rep.n_biased, rep.n_topics) == (
            row["n_a_better"], row["n_b_better"], row["n_tied"], row["n_biased"], row["n_topics"])
        assert list(rep.crossings) == list(row["crossings"])
        assert rep.pair_class == row["pair_class"]
        tv = pair_view.tests_frame(rep).set_index("metric")
        assert list(tv.index) == [P, R]
        for m in (P, R):
            assert tv.loc[m, "verdict"] == verdict_words[row[f"verdict_{m}"]]
            np.testing.assert_equal(tv.loc[m, "p"], row[f"p_raw_{m}"])
            np.testing.assert_equal(tv.loc[m, "p (holm)"], row[f"p_{m}"])
            np.testing.assert_equal(tv.loc[m, pair_view.DELTA_COLUMN], row[f"delta_{m}"])
            assert tv.loc[m, "topics"] == tests.loc[(a, b, m), "n"]
        # the verdicts and the class come from one rule
        n_up = sum(row[f"verdict_{m}"] == "improves" for m in (P, R))
        n_down = sum(row[f"verdict_{m}"] == "worsens" for m in (P, R))
        assert (n_up, n_down) == (row["n_improved"], row["n_worsened"])
        n += 1
    return n


def test_thirty_topic_case_the_page_follows_the_test_not_the_mean():
    table = thirty_topics()
    comp = compare(table, P, R)
    ab = comp.pair("A", "B")
    prec = ab.metrics[0]
    # the mean oriented difference is negative, the Wilcoxon direction is an improvement
    assert prec.delta == pytest.approx((29 * 0.01 - 0.5) / 30)
    assert prec.direction == 1 and prec.p_corrected < 1e-4
    assert prec.verdict == "improves" and ab.pair_class == "concordant"
    tv = pair_view.tests_frame(ab).set_index("metric")
    assert tv.loc[P, "verdict"] == "A better"
    ba = pair_view.tests_frame(comp.pair("B", "A")).set_index("metric")
    assert ba.loc[P, "verdict"] == "B better"
    # pair_classes on the same tests agrees
    cls = pair_classes(pair_tests(table, [P, R]))
    assert cls.set_index(["system_a", "system_b"]).loc[("A", "B"), "pair_class"] == "concordant"
    assert assert_page_equals_report(table) == 6
    assert assert_page_equals_report(table, test="sign") == 6


def test_replab_every_ordered_pair(replab_bcubed):
    n_sys = replab_bcubed["system"].nunique()
    assert assert_page_equals_report(replab_bcubed) == n_sys * (n_sys - 1)


def test_float_noise_is_a_tie_in_the_paired_tests(replab_bcubed):
    a, b = "SVM_allfeatures_HAC_20%", "terms_jaccard_HAC_0%"
    sub = replab_bcubed[replab_bcubed["metric"] == P].pivot(index="topic", columns="system",
                                                            values="value")
    d = (sub[a] - sub[b]).to_numpy()
    noise = (np.abs(d) > 0) & (np.abs(d) <= 1e-9)
    assert noise.any(), "the pair has a float-noise difference (the case of the issue)"
    snapped = np.where(np.abs(d) <= 1e-9, 0.0, d)
    want = stats.wilcoxon(snapped).pvalue
    got = pair_tests(replab_bcubed, [P, R], correction="none", systems=[a, b])
    row = got[(got["system_a"] == a) & (got["metric"] == P)].iloc[0]
    assert row["pvalue"] == pytest.approx(want, rel=1e-12)
    # with tol = 0 the noise takes part, as scipy on the raw differences
    raw = pair_tests(replab_bcubed, [P, R], correction="none", systems=[a, b], tol=0.0)
    rraw = raw[(raw["system_a"] == a) & (raw["metric"] == P)].iloc[0]
    assert rraw["pvalue"] == pytest.approx(stats.wilcoxon(d).pvalue, rel=1e-12)


def test_the_page_renders_the_pair_view_of_the_report(demo_campaign, replab_bcubed):
    """The Compare page, run headlessly on the bundled campaign: its cards and its test table are
    exactly ``pair_view`` of the report's row of the selected pair."""
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest  # noqa: PLC0415 - after importorskip

    app = str(Path(__file__).resolve().parents[1] / "dashboard" / "app.py")
    at = AppTest.from_file(app, default_timeout=180)
    at.run()
    at.switch_page("views/compare.py").run()
    assert not at.exception and not at.error
    sel = at.session_state["_selection"]
    for a, b in ((sel.a, sel.b), (sel.b, sel.a)):
        at.selectbox(key="a").set_value(a)
        at.selectbox(key="b").set_value(b).run()
        assert not at.exception and not at.error
        rep = compare(replab_bcubed, P, R).pair(a, b)
        cards = pair_view.summary_cards(rep)
        shown = [(m.label, m.value) for m in at.metric]
        assert shown[:5] == [(c.label, c.value) for c in cards]
        table = [d.value for d in at.dataframe if "verdict" in d.value.columns][0]
        want = pair_view.tests_display(rep, pair_effects(replab_bcubed, a, b, [P, R]))
        assert (want["p"] == pair_view.tests_frame(rep)["p"].map(format_p)).all()
        pd.testing.assert_frame_equal(table.reset_index(drop=True), want, check_dtype=False)


@pytest.mark.parametrize("v, digits, text", [
    (0.01234, 3, "+0.012"), (-0.01234, 3, "-0.012"), (-0.0001, 3, "+0.000"), (-0.0, 2, "+0.00"),
    (-0.004, 2, "+0.00"), (-0.006, 2, "-0.01"), (0.5, 2, "+0.50"), (float("nan"), 3, "n/a"),
    (None, 2, "n/a")])
def test_a_difference_that_rounds_to_zero_is_no_loss(v, digits, text):
    """Every signed difference on the Compare page (cards, intervals) is printed by one function;
    a tie never reads as a loss of -0.000."""
    assert signed(v, digits) == text


def test_a_mean_difference_that_rounds_to_zero_is_no_loss(replab_bcubed):
    """The tests table's mean difference is shown at four decimals: one of -0.00001 is kept as
    +0.0 (the grid prints "+0.0000", not "-0.0000"), one of -0.0002 stays negative."""
    systems = sorted(replab_bcubed["system"].unique())
    rep = compare(replab_bcubed, P, R).pair(systems[0], systems[1])
    tiny = dataclasses.replace(rep, metrics=tuple(
        dataclasses.replace(m, delta=d) for m, d in zip(rep.metrics, (-0.00001, -0.0002))))
    shown = pair_view.tests_display(tiny)[pair_view.DELTA_COLUMN].tolist()
    assert shown[0] == 0.0 and np.copysign(1.0, shown[0]) == 1.0
    assert shown[1] == -0.0002
