"""Improved and reference systems are computed once, under the comparison's profile, and every
output agrees: the report (``CampaignComparison.systems`` and its ``systems.csv``), the bundle
that ``unanimity compare --out`` writes, and the dashboard's data layer.

The table is built so that UIR(a, b) = 0.25 exactly (topics 1-2: a at least as good on both
metrics; topic 3: b; topic 4: split), and c is below both on every topic. Under ``jair2011``
(the WePS paper's strict ``UIR > 0.25``) a improves only c and b has no reference system; under
the default profile (``UIR >= 0.25``) a improves b and c, and a is b's reference.
"""

from __future__ import annotations

import pandas as pd
import pytest

from metrics.analyses import compare
from metrics.cli import main
from metrics.comparison.uir import uir
from metrics.reports.bundle import open_bundle

ROWS = [  # (system, topic, p, r)
    ("a", "t1", 0.9, 0.8), ("b", "t1", 0.5, 0.5), ("c", "t1", 0.1, 0.1),
    ("a", "t2", 0.8, 0.9), ("b", "t2", 0.5, 0.5), ("c", "t2", 0.1, 0.1),
    ("a", "t3", 0.4, 0.4), ("b", "t3", 0.6, 0.6), ("c", "t3", 0.1, 0.1),
    ("a", "t4", 0.7, 0.3), ("b", "t4", 0.5, 0.5), ("c", "t4", 0.1, 0.1),
]
WANT = {  # profile -> (improved systems of a, of b, of c; reference system of a, b, c)
    "jair2011": ([["c"], ["c"], []], [None, None, "a"]),
    "default": ([["b", "c"], ["c"], []], [None, "a", "a"]),
}


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    rows = [(s, t, m, v) for s, t, p, r in ROWS for m, v in (("p", p), ("r", r))]
    return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])


def _lists(df: pd.DataFrame) -> tuple[list, list]:
    df = df.set_index("system").loc[["a", "b", "c"]]
    refs = [None if pd.isna(v) else v for v in df["reference_system"]]
    return [list(v) for v in df["improved_systems"]], refs


def test_the_table_has_uir_exactly_at_the_threshold(table):
    assert uir(table, "a", "b", ["p", "r"]).uir == 0.25


@pytest.mark.parametrize("profile", ["jair2011", "default"])
def test_report_and_bundle_agree(table, tmp_path, profile):
    result = compare(table, "p", "r", test="none", profile=profile)
    assert _lists(result.systems) == WANT[profile]
    # the report's own systems.csv
    result.write(tmp_path / "report")
    csv = pd.read_csv(tmp_path / "report" / "systems.csv", keep_default_na=False)
    assert csv["improved_systems"].tolist() == [";".join(v) for v in WANT[profile][0]]
    # the bundle of the command line, with the profile's papers' tables for jair2011
    src = tmp_path / "scores.csv"
    table.to_csv(src, index=False)
    out = tmp_path / "bundle"
    assert main(["compare", str(src), "--metrics", "p,r", "--tests", "none", "--profile",
                 profile, "--out", str(out)]) == 0
    bundle = open_bundle(out)
    assert _lists(bundle.systems) == WANT[profile]
    if profile == "jair2011":
        imp = bundle.tables["improved_systems"].set_index("system")["n_improved"]
        assert imp.loc[["a", "b", "c"]].tolist() == [1, 1, 0]
    # the pair's verdict follows the same rule
    assert result.pair("a", "b").uir_verdict == ("a" if profile == "default" else None)


@pytest.mark.parametrize("profile", ["jair2011", "default"])
def test_dashboard_data_layer_agrees(table, profile):
    pytest.importorskip("streamlit")
    from dashboard.data import live  # noqa: PLC0415 - after importorskip
    from dashboard.data.sources import Source  # noqa: PLC0415 - after importorskip
    from dashboard.state import Selection  # noqa: PLC0415 - after importorskip

    sel = Selection(source=Source("toy", "toy", "toy", f"toy-{profile}"), pair_label="p / r",
                    precision="p", recall="r", alpha=0.5, threshold=0.25, average="macro",
                    testbeds=(), all_testbeds=(), baselines=False, a="a", b="b",
                    test="none", correction="none", profile=profile)
    t = live.Table(f"toy-{profile}", table, "p", "r")
    assert _lists(live.leaderboard(sel, t)) == WANT[profile]
    assert live.pair_report(sel, t).uir_verdict == ("a" if profile == "default" else None)
    ranking = live.tie_ranking(sel, t).to_dataframe().set_index("system")
    # without tests the order is UIR alone: a above b only under the default profile's >=
    assert (ranking.loc["a", "group"] < ranking.loc["b", "group"]) == (profile == "default")
