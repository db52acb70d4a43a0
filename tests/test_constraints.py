"""The formal-constraint checker (docs/measures.md §8) gives what each definition implies."""

from __future__ import annotations

import pytest

from metrics.measures.registry import available_metrics
from metrics.meta.constraints_clustering import CONSTRAINTS, check_constraints, constraint_examples

H, C, R, S, U = CONSTRAINTS


@pytest.fixture(scope="module")
def table():
    return check_constraints()


def _agrees(table, metric):
    rows = table[table["metric"] == metric]
    return {c: bool(a) for c, a in zip(rows["constraint"], rows["agrees"])}


def test_shape(table):
    assert list(table.columns) == ["metric", "constraint", "better", "worse", "agrees"]
    names = [m.name for m in available_metrics()]
    assert set(names) <= set(table["metric"])
    assert (table.groupby("metric").size() == len(CONSTRAINTS)).all()


def test_examples_hold_the_same_items():
    for name, (gold, worse, better) in constraint_examples().items():
        assert len(gold) == len(worse) == len(better), name


def test_bcubed_f_satisfies_the_four_constraints_of_amigo_2009(table):
    got = _agrees(table, "F0.5(bcubed_precision,bcubed_recall)")
    assert got == {H: True, C: True, R: True, S: True, U: False}
    # the same for Reliability/Sensitivity (= BCubed without overlap)
    assert _agrees(table, "F0.5(reliability,sensitivity)") == got


def test_adapted_bcubed_satisfies_all_five(table):
    # Moreno & Dias 2015, Table 1: F_0.9 of P and the adapted recall (k = 3)
    assert all(_agrees(table, "F0.9(bcubed_precision,bcubed_adapted_recall)").values())


def test_single_metrics_follow_their_definitions(table):
    # Moreno & Dias 2015, Table 1 pattern
    assert _agrees(table, "purity") == {H: True, C: False, R: False, S: False, U: False}
    assert _agrees(table, "inverse_purity") == {H: False, C: False, R: False, S: True, U: False}
    assert _agrees(table, "bcubed_precision") == {H: True, C: False, R: True, S: False, U: True}
    assert _agrees(table, "bcubed_recall") == {H: False, C: True, R: False, S: True, U: False}
    assert _agrees(table, "bcubed_adapted_recall") == _agrees(table, "bcubed_recall")
    for m in ("rand", "adjusted_rand", "jaccard", "fowlkes_mallows"):
        assert _agrees(table, m) == {H: True, C: True, R: False, S: False, U: False}, m
    # entropy: homogeneity sees only homogeneity-type errors, completeness only completeness
    assert _agrees(table, "homogeneity")[H] and not _agrees(table, "homogeneity")[C]
    assert _agrees(table, "completeness")[C] and not _agrees(table, "completeness")[H]
    # and no entropy measure sees the rag bag (both partitions have the same H(C,K), H(K))
    for m in ("homogeneity", "completeness", "v_measure", "vi", "nvi"):
        assert not _agrees(table, m)[R], m


def test_lower_is_better_metrics_respect_direction(table):
    rows = table[(table["metric"] == "vi") & (table["constraint"] == H)].iloc[0]
    assert rows["better"] < rows["worse"] and rows["agrees"]


def test_subset():
    t = check_constraints(["purity", "v_measure(beta=2)"], combinations=None)
    assert sorted(set(t["metric"])) == ["purity", "v_measure(beta=2)"]
