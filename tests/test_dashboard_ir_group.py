"""A ranking campaign's IR measures scored in one pass (dashboard/data/sources.py ``ir_group``,
dashboard/data/live.py ``score_table``): each pair read from the group's table equals
``evaluate`` on the pair alone."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dashboard.data import live, tables
from dashboard.data.sources import comparison_key, ir_group, path_source, rows_of, table_key
from metrics.analyses import comparison_core
from metrics.comparison.profiles import DEFAULT_CORRECTION, DEFAULT_TEST
from metrics.io import load
from metrics.measures.registry import default_metric_pairs
from metrics.measures.scoring import evaluate

TREC = Path(__file__).resolve().parent / "data" / "trec_small"
#: the IR measures of the pairs after the first, in their order (graded judgments: grade >= 2 too)
GROUP = ("P@10", "R@10", "nDCG@10", "AP", "P(rel=2)@10", "R(rel=2)@10", "AP(rel=2)")


@pytest.fixture(scope="module")
def trec():
    return load(TREC)


def test_the_group_is_the_ir_measures_of_the_later_pairs(trec):
    pairs = default_metric_pairs(trec)
    group = GROUP
    assert ir_group(pairs, ("P@10", "R@10")) == group
    assert ir_group(pairs, ("AP", "P@10")) == group  # any of them, in any order
    assert ir_group(pairs, ("reliability", "sensitivity")) is None  # the first pair: not IR
    assert ir_group(pairs, ("P@10", "reliability")) is None
    assert ir_group(pairs, group) is None  # already the whole group
    assert ir_group(pairs, ()) is None
    assert ir_group({"BCubed P/R": ("bcubed_precision", "bcubed_recall"),
                     "Purity": ("purity", "inverse_purity")}, ("purity", "inverse_purity")) is None


@pytest.mark.parametrize("names", [("P@10", "R@10"), ("nDCG@10", "AP"), ("R@10", "P@10"),
                                   ("AP",), ("AP", "nDCG@10", "P@10")])
def test_rows_of_the_group_equal_a_fresh_evaluation(trec, names):
    group = ir_group(default_metric_pairs(trec), names)
    whole = evaluate(trec, list(group), missing="penalize")
    pd.testing.assert_frame_equal(rows_of(whole, names),
                                  evaluate(trec, list(names), missing="penalize"))


def test_score_table_reads_the_pair_from_the_group(trec, monkeypatch, tmp_path):
    import metrics.measures.scoring as scoring  # noqa: PLC0415 - patched below

    monkeypatch.setenv("UNANIMITY_CACHE_DIR", str(tmp_path))

    asked = []

    def counting(campaign, names, **kw):
        asked.append(tuple(names))
        return evaluate(campaign, names, **kw)

    monkeypatch.setattr(scoring, "evaluate", counting)
    tables._evaluate.clear()  # noqa: SLF001
    src = path_source(TREC, "cli", "trec_small")
    for pair in (("P@10", "R@10"), ("nDCG@10", "AP"), ("R@10", "P@10")):
        pd.testing.assert_frame_equal(live.score_table(src, False, pair),
                                      evaluate(trec, list(pair), missing="penalize"))
    assert asked == [GROUP]  # one pass, then reads
    tables._evaluate.clear()  # noqa: SLF001 - another server: the table is read from disk
    pd.testing.assert_frame_equal(live.score_table(src, False, ("AP", "nDCG@10")),
                                  evaluate(trec, ["AP", "nDCG@10"], missing="penalize"))
    assert len(asked) == 1
    live.score_table(src, False, ("reliability", "sensitivity"))
    assert asked[1:] == [("reliability", "sensitivity")]  # not an IR pair: on its own


def test_warm_start_scores_the_group_under_the_key_the_page_reads(trec, monkeypatch, tmp_path):
    from dashboard.data import warm  # noqa: PLC0415 - the warm start's own jobs
    from dashboard.data.sources import demo_source, scores_key  # noqa: PLC0415

    monkeypatch.setattr(warm, "_futures", {})  # this test's own warm start
    monkeypatch.setattr(warm, "_optional", set())
    monkeypatch.setenv("UNANIMITY_CACHE_DIR", str(tmp_path))
    src = demo_source(TREC)
    jobs = warm._pair_jobs(src, trec)  # noqa: SLF001
    group = GROUP
    assert jobs == [(scores_key(src, False, group), src.path, "kept", list(group))]
    warm._later_or_log(src, trec)  # noqa: SLF001 - the low-priority child process computes it
    pd.testing.assert_frame_equal(warm.take(jobs[0][0]),
                                  evaluate(trec, list(group), missing="penalize"))
    # and each pair's comparison core, under the key the page asks for, as a fresh computation
    for p, r in (("P@10", "R@10"), ("nDCG@10", "AP")):  # the two pairs after the first
        core = warm.take(comparison_key(table_key(src, False, p, r), DEFAULT_TEST,
                                        DEFAULT_CORRECTION, "macro"))
        fresh = comparison_core(evaluate(trec, [p, r], missing="penalize"), p, r,
                                test=DEFAULT_TEST, correction=DEFAULT_CORRECTION,
                                average="macro", metrics=[p, r])
        pd.testing.assert_frame_equal(core.pairs, fresh.pairs)
        assert core.parameters == fresh.parameters
    # the next server finds the table on disk and publishes it at once
    monkeypatch.setattr(warm, "_futures", {})
    assert warm._pair_jobs(src, trec) == []  # noqa: SLF001
    pd.testing.assert_frame_equal(warm.take(jobs[0][0]),
                                  evaluate(trec, list(group), missing="penalize"))
