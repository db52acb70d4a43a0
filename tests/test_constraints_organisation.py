"""Ranking and filtering formal constraints (R&S paper §2.2-2.3, its Table 6;
docs/meta-evaluation.md): the verdicts the paper states for the standard measures, computed
through ir_measures (trec_eval's numbers) and metrics.measures.organisation.filtering, plus
hand-worked scores."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.measures.organisation import filtering as flt
from metrics.meta.constraints_organisation import (
    CLOSE_GRID,
    DEEP_GRID,
    FILTERING_CONSTRAINTS,
    RANKING_CONSTRAINTS,
    Organisation,
    Scorer,
    check_filtering_measures,
    check_ir_measures,
    check_organisation_constraints,
    constraint_cases,
    filtering_scorer,
    ir_measures_scorer,
    threshold_scan,
    verdict_table,
)

Y, N = True, False
# priority, deepness, deepness_threshold, closeness_threshold, confidence
PAPER = {
    "AP": (Y, Y, N, Y, N),            # MAP, DCG, Q-measure: "4 4 7 4 7" in Table 6
    "nDCG": (Y, Y, N, Y, N),
    "P@10": (N, N, Y, Y, N),          # blind to reorderings inside the top ten
    "RR": (Y, Y, Y, N, N),            # like ERR: one document on top always outweighs
    "RBP(p=0.8,rel=1)": (Y, Y, Y, Y, N),   # RBP satisfies all but confidence
    "RBP(p=0.95,rel=1)": (Y, Y, Y, Y, N),
}


@pytest.fixture(scope="module")
def ir_table():
    return check_ir_measures(tuple(PAPER) + ("nDCG@10",))


def test_ir_measures_verdicts_are_the_papers(ir_table):
    verdicts = verdict_table(ir_table)
    assert list(verdicts.columns) == list(RANKING_CONSTRAINTS)
    for measure, want in PAPER.items():
        assert tuple(bool(v) for v in verdicts.loc[measure]) == want, measure
    # the cut-off at 10 makes nDCG@10 pass the deepness threshold that full nDCG fails
    assert bool(verdicts.loc["nDCG@10", "deepness_threshold"])


def test_hand_worked_ir_scores(ir_table):
    def row(metric, constraint):
        r = ir_table[(ir_table["metric"] == metric) & (ir_table["constraint"] == constraint)]
        return float(r["better"].iloc[0]), float(r["worse"].iloc[0])

    # priority, 2 relevant: AP [r1 n1] = (1/1)/2, [n1 r1] = (1/2)/2
    assert row("AP", "priority") == pytest.approx((0.5, 0.25))
    # deepness: relevant at 1 and 10 vs at 2 and 9
    assert row("AP", "deepness") == pytest.approx(((1 + 2 / 10) / 2, (1 / 2 + 2 / 9) / 2))
    # P@10 ties on a reordering inside the top ten
    assert row("P@10", "priority") == pytest.approx((0.1, 0.1))
    # RBP(p) = (1 - p) sum_i rel_i p^(i-1)
    assert row("RBP(p=0.8,rel=1)", "priority") == pytest.approx((0.2, 0.2 * 0.8))
    # deepness threshold read at the largest n: AP = 1/n vs (sum_k k/(n+k))/n
    n = DEEP_GRID[-1]
    k = np.arange(1, n + 1)
    assert row("AP", "deepness_threshold") == pytest.approx((1 / n, np.sum(k / (n + k)) / n))
    # confidence: trailing irrelevant documents change nothing
    b, w = row("AP", "confidence")
    assert b == w == pytest.approx((1 + 1) / 3)


def test_closeness_cut_points():
    cases = constraint_cases()["closeness_threshold"]
    # P@10 with n relevant after n irrelevant: min(n, 10 - n)/10 vs 1/10 -> holds up to n = 8
    scan = threshold_scan(ir_measures_scorer("P@10"), cases)
    assert scan["n"].tolist() == list(CLOSE_GRID)
    assert scan.set_index("n")["agrees"].to_dict() == {2: Y, 3: Y, 4: Y, 5: Y, 6: Y, 8: Y, 10: N}
    # AP: sum_{k<=n} k/(n+k) > 1 first at n = 3 (n = 2: 1/3 + 2/4 < 1)
    scan = threshold_scan(ir_measures_scorer("AP"), cases)
    assert scan["agrees"].tolist()[:2] == [N, Y]


def test_filtering_measures_satisfy_priority():
    verdicts = verdict_table(check_filtering_measures())
    assert list(verdicts.columns) == list(FILTERING_CONSTRAINTS)
    for m in ("accuracy", "f_measure", "utility", "scaled_utility", "lam", "reliability",
              "sensitivity", "rs_f"):
        assert verdicts.loc[m].all(), m
    # the single halves: recall cannot see an irrelevant document leave the accepted set
    assert not bool(verdicts.loc["recall", "filtering_priority_irrelevant"])
    assert bool(verdicts.loc["precision", "filtering_priority_irrelevant"])


def test_filtering_scorer_counts():
    case = constraint_cases()["filtering_priority_relevant"][0]
    # worse: TP 2, FP 2, FN 2, TN 4 -> accuracy 6/10; better: TP 3, FN 1 -> 7/10
    acc = filtering_scorer("accuracy")
    assert acc.fn(case.grades, case.worse) == pytest.approx(0.6)
    assert acc.fn(case.grades, case.better) == pytest.approx(0.7)
    lam = filtering_scorer("lam")
    assert lam.direction == -1
    c = flt.FilteringCounts.of(2, 2, 2, 4)
    assert lam.fn(case.grades, case.worse) == pytest.approx(float(flt.lam(c)[()]))


def test_any_callable_and_tables():
    # a measure that only counts retrieved relevant documents: blind to order and to length
    def relevant_retrieved(grades, output):
        return float(sum(grades.get(d, 0) > 0 for d in output.documents))

    res = check_organisation_constraints(
        [Scorer("rel_retrieved", relevant_retrieved, 1, ("ranking",))])
    got = dict(zip(res["constraint"], res["agrees"]))
    assert got == {"priority": N, "deepness": N, "deepness_threshold": N,
                   "closeness_threshold": Y, "confidence": N}
    case = constraint_cases()["deepness"][0]
    t = case.tables("t")
    assert list(t["better"].columns) == ["topic", "item", "level"]
    assert t["better"]["level"].tolist() == list(range(1, 11))
    assert t["gold"]["item"].tolist() == ["r1", "r2"] and case.gold().tail
    f = constraint_cases()["filtering_priority_relevant"][0]
    assert f.gold().levels[0] == ("r1", "r2", "r3", "r4") and not f.gold().tail
    assert Organisation.filtering(["a"], ["b"]).to_frame()["level"].tolist() == [1, 2]


def test_cases_hold_the_same_documents():
    for name, family in constraint_cases().items():
        for case in family:
            if name == "confidence":
                assert set(case.better.documents) < set(case.worse.documents)
            elif not name.endswith("threshold"):
                assert sorted(case.better.documents) == sorted(case.worse.documents), name
            assert set(case.better.documents) <= set(case.grades), name


def test_non_informative_behaviour():
    scores, behaviour = flt.non_informative_profile()
    assert behaviour["f_measure"] == "increasing"  # returning all beats removing at random
    assert behaviour["reliability"] == "constant"
    assert scores["rs_f"][0] == scores["rs_f"][-1] == 0.0
    raw = flt.lam(flt.non_informative_counts(100, 20, [10, 50, 90]), smoothing=0.0)
    assert raw == pytest.approx([50.0, 50.0, 50.0])  # lam%: constant without smoothing


def test_unknown_names():
    with pytest.raises(ValueError, match="unknown constraint"):
        check_organisation_constraints([], ["nope"])
    with pytest.raises(ValueError, match="unknown filtering measure"):
        filtering_scorer("nope")
