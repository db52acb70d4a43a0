"""The metric registry: names, parameters, directions, errors."""

from __future__ import annotations

import pytest

from metrics.errors import UnanimityError
from metrics.measures.registry import (
    METRIC_PAIRS,
    MetricInfo,
    MetricSpec,
    available_metrics,
    direction,
    metric_info,
    parse_metric,
    parse_metrics,
)

CANONICAL = ["purity", "inverse_purity", "fscore", "bcubed_precision", "bcubed_recall",
             "bcubed_adapted_recall", "reliability", "sensitivity", "homogeneity",
             "completeness", "v_measure", "vi", "nvi", "h_c_given_k", "h_k_given_c", "rand",
             "adjusted_rand", "jaccard", "fowlkes_mallows", "pair_precision", "pair_recall",
             "pair_f", "accuracy_m1", "accuracy_11"]


def test_every_canonical_metric_is_registered_with_metadata():
    infos = available_metrics()
    assert [m.name for m in infos] == CANONICAL
    for m in infos:
        assert isinstance(m, MetricInfo)
        assert m.direction in (1, -1)
        assert m.family and m.description and m.formula and m.reference


def test_directions():
    lower = {"vi", "nvi", "h_c_given_k", "h_k_given_c"}
    for name in CANONICAL:
        assert direction(name) == (-1 if name in lower else 1), name
    assert direction("v_measure(beta=2)") == 1
    assert direction("nvi") == -1
    assert direction("some_user_metric") == 1   # unknown names: higher is better


def test_parse_with_parameters_and_canonical_strings():
    spec = parse_metric("v_measure(beta=2)")
    assert spec.name == "v_measure" and spec.params == {"beta": 2.0}
    assert str(spec) == "v_measure(beta=2)"
    assert str(parse_metric("v_measure")) == "v_measure"
    assert str(parse_metric("v_measure(beta=1)")) == "v_measure"      # default omitted
    assert str(parse_metric(" v_measure( beta = 0.5 ) ")) == "v_measure(beta=0.5)"
    assert parse_metric("bcubed_adapted_recall").params == {"k": 3}
    assert str(parse_metric("bcubed_adapted_recall(k=4)")) == "bcubed_adapted_recall(k=4)"
    assert parse_metric("v_measure(beta=2)") == parse_metric("v_measure(beta=2.0)")
    assert hash(parse_metric("vi")) == hash(parse_metric("vi"))
    assert isinstance(spec, MetricSpec)
    assert metric_info("v_measure(beta=3)").name == "v_measure"


def test_parse_metrics_keeps_commas_inside_parentheses():
    specs = parse_metrics("purity, bcubed_adapted_recall(k=2),v_measure(beta=2),purity")
    assert [str(s) for s in specs] == ["purity", "bcubed_adapted_recall(k=2)", "v_measure(beta=2)"]
    assert [str(s) for s in parse_metrics(["vi", parse_metric("nvi")])] == ["vi", "nvi"]


@pytest.mark.parametrize("bad, match", [
    ("entropy", "known metrics: purity, inverse_purity"),
    ("v_measure(alpha=2)", "no parameter 'alpha'"),
    ("v_measure(beta=x)", "not a number"),
    ("v_measure(beta=0)", "positive"),
    ("bcubed_adapted_recall(k=1)", "at least 2"),
    ("bcubed_adapted_recall(k=2.5)", "whole number"),
    ("purity(", "cannot read"),
])
def test_errors(bad, match):
    with pytest.raises(UnanimityError, match=match):
        parse_metric(bad)


def test_list_errors():
    with pytest.raises(UnanimityError, match="unbalanced"):
        parse_metrics("v_measure(beta=2")
    with pytest.raises(UnanimityError, match="no metric"):
        parse_metrics(" , ")
    with pytest.raises(UnanimityError, match="known metrics"):
        parse_metrics("purity,nope")


def test_metric_pairs():
    assert METRIC_PAIRS["BCubed P/R"] == ("bcubed_precision", "bcubed_recall")
    assert METRIC_PAIRS["Purity/Inverse Purity"] == ("purity", "inverse_purity")
    assert METRIC_PAIRS["Reliability/Sensitivity"] == ("reliability", "sensitivity")
    assert METRIC_PAIRS["Pair P/R"] == ("pair_precision", "pair_recall")
    assert METRIC_PAIRS["Homogeneity/Completeness"] == ("homogeneity", "completeness")
    for p, r in METRIC_PAIRS.values():
        parse_metric(p), parse_metric(r)
