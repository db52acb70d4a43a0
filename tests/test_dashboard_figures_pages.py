"""The Compare page's per-topic chart, run headlessly (``streamlit.testing.v1.AppTest``): a
campaign with many topics opens on the difference view, a switch shows the scatter, and the
bundled RepLab campaign (61 topics) opens on the scatter. The figures' numbers are the ones
``metrics.analyses.topic_differences`` computed."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("streamlit")
from score_examples import random_score_table  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402
from test_dashboard_app import APP, PAGES, TIMEOUT  # noqa: E402  (shared page map, no tests)

from dashboard.data import live
from dashboard.figures import SCATTER_MAX_TOPICS  # noqa: E402


def _run(at: AppTest, page: str) -> AppTest:
    if not at._tree:  # noqa: SLF001 - first run registers the pages
        at.run()
    at.switch_page(PAGES[page]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def _chart(at: AppTest, key: str) -> dict | None:
    for el in at.get("plotly_chart"):
        if (el.proto.id or "").endswith(key) or f"-{key}-" in (el.proto.id or ""):
            return json.loads(el.proto.spec)
    return None


def _score_csv(S: int, T: int) -> bytes:
    table = random_score_table(S, T, seed=11, spread=(0.3, 0.7), noise=0.1,
                               system_name="run_{}", topic_name="q{:03d}")
    return table.to_csv(index=False).encode()


def test_many_topics_open_on_the_difference_view_and_switch_to_the_scatter():
    T = SCATTER_MAX_TOPICS + 20
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    _run(at, "data")
    at.file_uploader(key="upload").set_value([("many_topics.csv", _score_csv(3, T),
                                               "text/csv")]).run()
    at.button(key="upload_load").click().run()
    _run(at, "compare")
    diff = _chart(at, "cmp_differences")
    assert diff is not None and _chart(at, "cmp_scatter") is None
    markers = [t for t in diff["data"] if t.get("mode") == "markers"]
    assert sum(len(t["customdata"]) for t in markers) == 2 * T  # every topic, both metrics
    # the counts above the blocks are the report's: A >=forall B + ... = T
    sel = at.session_state["_selection"]

    rep = live.pair_report(sel, live.table(sel))
    texts = " ".join(a["text"] for a in diff["layout"]["annotations"])
    for n in (rep.n_a_better, rep.n_b_better, rep.n_biased):
        if n:
            assert str(n) in texts
    at.button_group(key="topic_chart").set_value("scatter").run()
    assert not at.exception
    assert _chart(at, "cmp_scatter") is not None and _chart(at, "cmp_differences") is None


def test_replab_opens_on_the_scatter():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    _run(at, "compare")
    assert _chart(at, "cmp_scatter") is not None
    assert _chart(at, "cmp_differences") is None
