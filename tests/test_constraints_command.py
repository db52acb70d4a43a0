"""``unanimity constraints`` (metrics/meta/constraint_check.py): verdicts of any measure, the
smallest failing case, ERR and the Q-measure on the ranking constraints, the overlapping
size-vs-quantity case where R&S and extended BCubed differ (R&S paper §4.2)."""

from __future__ import annotations

import pandas as pd
import pytest

from metrics.cli import main
from metrics.comparison.combine import f_alpha
from metrics.meta.constraint_check import (
    OVERLAP_CASE,
    OVERLAP_CONSTRAINT,
    check_measures,
)
from metrics.meta.constraints_organisation import constraint_cases, err_scorer, q_measure_scorer
from tests.bruteforce import bcubed, err_loop, q_measure_loop, reliability_sensitivity


def _holds(names):
    d = check_measures(names).to_dataframe()
    return {(m, c): h for m, c, h in zip(d["metric"], d["constraint"], d["holds"], strict=True)}


def test_err_and_q_measure_rows():
    """The paper's §2.3: the Q-measure like MAP (all but the deepness threshold and
    confidence), ERR like MRR (one document on top beats any n after it; not the closeness
    threshold)."""
    got = _holds(["ERR", "Q-measure", "AP", "RR"])
    for m in ("Q-measure", "AP"):
        assert [got[(m, c)] for c in ("priority", "deepness", "deepness_threshold",
                                      "closeness_threshold", "confidence")] == [
            True, True, False, True, False]
    for m in ("ERR", "RR"):
        assert [got[(m, c)] for c in ("priority", "deepness", "deepness_threshold",
                                      "closeness_threshold", "confidence")] == [
            True, True, True, False, False]


def test_graded_scorers_on_the_cases_equal_the_loops():
    for family in constraint_cases().values():
        for case in family:
            for out in (case.better, case.worse):
                order = [case.grades.get(d, 0) for d in out.documents]
                assert err_scorer().fn(case.grades, out) == pytest.approx(
                    err_loop(order, max(case.grades.values())))
                assert q_measure_scorer().fn(case.grades, out) == pytest.approx(
                    q_measure_loop(order, list(case.grades.values())))


def test_overlap_case_by_hand_and_brute_force():
    gold, worse, better = ([set(x) for x in c] for c in OVERLAP_CASE)
    # extended BCubed recall: worse 6/7 (x, y get 1/2), better (1/5 + 4 * 4/5 + 2) / 7
    assert bcubed(gold, worse)[1] == pytest.approx(6 / 7)
    assert bcubed(gold, better)[1] == pytest.approx((1 / 5 + 16 / 5 + 2) / 7)
    # Sensitivity over 13 occurrences: worse (5 + 8 / 2) / 13, better (1/5 + 16/5 + 8) / 13
    assert reliability_sensitivity(gold, worse)[1] == pytest.approx(9 / 13)
    assert reliability_sensitivity(gold, better)[1] == pytest.approx((1 / 5 + 16 / 5 + 8) / 13)
    d = check_measures(["R*S", "F(bcubed_precision,bcubed_recall)"]).to_dataframe()
    row = d[d["constraint"] == OVERLAP_CONSTRAINT].set_index("metric")
    assert row.loc["R*S", "better"] == pytest.approx(f_alpha(1.0, 11.4 / 13, 0.5))
    assert row.loc["R*S", "worse"] == pytest.approx(f_alpha(1.0, 9 / 13, 0.5))
    assert bool(row.loc["R*S", "holds"])
    assert row.loc["F(bcubed_precision,bcubed_recall)", "worse"] == pytest.approx(
        f_alpha(1.0, 6 / 7, 0.5))
    assert not bool(row.loc["F(bcubed_precision,bcubed_recall)", "holds"])
    # without overlap the two agree on the plain size-vs-quantity case
    plain = d[d["constraint"] == "size_vs_quantity"].set_index("metric")["better"]
    assert plain["R*S"] == pytest.approx(plain["F(bcubed_precision,bcubed_recall)"])


def test_command_prints_verdicts_and_smallest_failing_case(tmp_path, capsys):
    out = tmp_path / "v.csv"
    assert main(["constraints", "--metrics", "AP,accuracy,purity", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "AP (ranking constraints)" in printed
    assert "accuracy (filtering constraints)" in printed
    assert "purity (clustering constraints)" in printed
    # AP wins the deepness-threshold pair at n = 1, 2 and loses from n = 3 on
    line = next(x for x in printed.splitlines() if "deepness_threshold" in x)
    assert "no" in line and "fails on n = 3: worse n1..n3 r1..r3 | better r0 n1..n5" in line
    written = pd.read_csv(out)
    assert list(written.columns) == ["metric", "family", "constraint", "holds", "better",
                                     "worse", "case"]
    assert len(written) == 5 + 2 + 6


@pytest.mark.parametrize("name, words", [
    ("foo", "'foo' is not a measure the constraint checker knows"),
    ("type_macro_f", "is a type-level metric"),
    ("F(AP,RR)", "does not combine two higher-is-better clustering metrics"),
])
def test_unknown_measures_are_one_line(name, words, capsys):
    assert main(["constraints", "--metrics", name]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
