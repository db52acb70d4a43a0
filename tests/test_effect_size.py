"""Paired mean difference, its t interval and Cohen's d_z: hand-worked values, the t-test it
agrees with, and a brute-force route from the definition."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from metrics.comparison.effect_size import pair_effects, paired_effect


def test_hand_worked():
    # d = 1, 2, 3: mean 2, sd 1, t_{0.975, 2} = 4.30265 (tables), half width 4.30265 / sqrt(3)
    e = paired_effect([1.0, 2.0, 3.0], "m")
    half = 4.30265273 / math.sqrt(3)
    assert (e.n, e.mean, e.dz) == (3, 2.0, 2.0)
    assert e.low == pytest.approx(2 - half, abs=1e-8) and e.high == pytest.approx(2 + half)


def test_interval_agrees_with_the_t_test():
    rng = np.random.default_rng(3)
    for _ in range(50):
        d = rng.normal(rng.uniform(-0.1, 0.1), 0.1, size=rng.integers(3, 40))
        e = paired_effect(d)
        p = stats.ttest_1samp(d, 0.0).pvalue
        assert (e.low > 0 or e.high < 0) == (p < 0.05)


def test_pair_effects_brute_force_and_direction():
    rng = np.random.default_rng(1)
    rows = [(s, f"t{t}", m, float(rng.uniform())) for s in ("x", "y") for t in range(9)
            for m in ("bcubed_precision", "bcubed_recall")]
    table = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    table = table.drop(index=3)  # one topic without a score of x: dropped
    got = pair_effects(table, "x", "y", ["bcubed_precision", "bcubed_recall"],
                       directions={"bcubed_recall": -1})
    for e, sign in zip(got, (1, -1), strict=True):
        sx = {t: v for s, t, m, v in table.itertuples(index=False) if s == "x" and m == e.metric}
        sy = {t: v for s, t, m, v in table.itertuples(index=False) if s == "y" and m == e.metric}
        d = [sign * (sx[t] - sy[t]) for t in sx if t in sy]
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((v - mean) ** 2 for v in d) / (len(d) - 1))
        assert e.n == len(d) and e.mean == pytest.approx(mean) and e.dz == pytest.approx(mean / sd)


def test_degenerate_samples():
    one = paired_effect([0.3])
    assert one.n == 1 and one.mean == 0.3 and math.isnan(one.low) and math.isnan(one.dz)
    assert paired_effect([0.1, 0.1]).dz == math.inf
    assert paired_effect([0.0, 0.0]).dz == 0.0
    with pytest.raises(ValueError, match="confidence"):
        paired_effect([1.0, 2.0], confidence=1.0)

