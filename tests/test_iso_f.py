"""The iso-F_alpha curves of the precision-recall plane (the Leaderboard's scatter)."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.comparison.curves import iso_f_points


def test_iso_f_points_lie_on_the_curve():
    # hand-worked: alpha = 0.5, F = 0.5 passes through P = 1, R = 1/3
    p, r = iso_f_points(0.5, 0.5, n=4)
    assert p[-1] == 1.0 and r[-1] == pytest.approx(1 / 3)
    for alpha in (0.0, 0.2, 0.5, 0.8, 1.0):
        for f in (0.1, 0.5, 0.9):
            p, r = iso_f_points(f, alpha)
            assert len(p) > 10 and (p <= 1).all() and (r <= 1).all()
            with np.errstate(divide="ignore"):
                got = 1 / (alpha / p + (1 - alpha) / r)
            np.testing.assert_allclose(got, f, rtol=1e-9)


def test_iso_f_curves_run_from_the_right_edge_to_the_top_edge():
    # hand-worked: alpha = 0.5, F = 0.1 meets R = 1 at P = 0.05 / 0.95 and P = 1 at R = 0.05 / 0.95
    # (the samples used to start at R = 0.54, the curve stopping short of the right edge)
    p, r = iso_f_points(0.1, 0.5)
    assert (r[0], p[0]) == pytest.approx((1.0, 1 / 19))
    assert (r[-1], p[-1]) == pytest.approx((1 / 19, 1.0))
    for alpha in (0.1, 0.5, 0.9):
        for f in (0.1, 0.5, 0.9):
            p, r = iso_f_points(f, alpha)
            assert r.max() == pytest.approx(1.0) and p.max() == pytest.approx(1.0)
