"""Reliability / Sensitivity of organisations: the fast route against the definitions, pair by pair.

The brute force below reads the definitions of ``docs/organisation.md`` (§3, §5) literally: every
occurrence, every other occurrence, every relation, its count in each output, the tail as one
element. It shares nothing with :mod:`metrics.measures.organisation.reliability` but the weights
(checked
on their own in ``tests/test_organisation.py``).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.measures.organisation.reliability import Side, directional
from metrics.measures.organisation.weights import level_weights


def _weights(occ, tail, n, w):
    """occurrence index -> weight, and the tail weight, of one topic's output."""
    if not occ:
        return {}, (1.0 if tail else 0.0)
    lw = level_weights(np.zeros(len(occ), np.int64), np.array([o[1] for o in occ]), 1, tail, n, w)
    return dict(enumerate(lw.occurrence.tolist())), float(lw.tail[0])


def _count_above(occ, d, d2, tail):
    """|d ≻ d'| in an output: occurrence pairs with d on a higher level, plus d' in the tail."""
    lv = [o[1] for o in occ if o[0] == d]
    lv2 = [o[1] for o in occ if o[0] == d2]
    n = sum(1 for a in lv for b in lv2 if a < b)
    if tail and not lv2:
        n += len(lv)
    return n


def _count_shared(occ, d, d2):
    c1 = {(o[1], o[2]) for o in occ if o[0] == d and o[2] is not None}
    c2 = {(o[1], o[2]) for o in occ if o[0] == d2 and o[2] is not None}
    return len(c1 & c2)


def brute(x, g, tail, n=30, w=0.8):
    """{"priority", "relatedness", "both"} -> precision of x's relations in g (one topic).

    x, g: lists of occurrences (item, level, cluster or None).
    """
    wx, wt = _weights(x, tail, n, w)
    out = {}
    for kind in ("priority", "relatedness", "both"):
        total = norm = 0.0
        for i, (d, lev, clu) in enumerate(x):
            num = den = 0.0
            for j, (d2, lev2, clu2) in enumerate(x):
                if kind != "relatedness" and lev != lev2:
                    hi, lo = (d, d2) if lev < lev2 else (d2, d)
                    p = min(1.0, _count_above(g, hi, lo, tail) / _count_above(x, hi, lo, tail))
                    num += wx[j] * p
                    den += wx[j]
                if kind != "priority" and clu is not None and lev == lev2 and clu == clu2:
                    p = min(1.0, _count_shared(g, d, d2) / _count_shared(x, d, d2))
                    num += wx[j] * p
                    den += wx[j]
            if kind != "relatedness" and tail:  # d above the tail
                occ_x = sum(1 for o in x if o[0] == d)
                occ_g = sum(1 for o in g if o[0] == d)
                num += wt * min(1.0, occ_g / occ_x)
                den += wt
            if den > 0:
                total += wx[i] * num / den
                norm += wx[i]
        if kind != "relatedness" and tail and x:  # the tail element, below every occurrence
            num = sum(wx[i] * min(1.0, sum(1 for o in g if o[0] == d)
                                  / sum(1 for o in x if o[0] == d))
                      for i, (d, _, _) in enumerate(x))
            den = sum(wx.values())
            total += wt * num / den
            norm += wt
        out[kind] = total / norm if norm > 0 else 0.0
    return out


def _side(topics):
    """Stack per-topic occurrence lists into a Side; item codes 100 * topic + item."""
    t, i, lv, c = [], [], [], []
    for k, occ in enumerate(topics):
        for d, lev, clu in occ:
            t.append(k)
            i.append(100 * k + d)
            lv.append(lev)
            c.append(-1 if clu is None else 1000 * k + 10 * lev + clu)
    arr = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return Side(arr(t), arr(i), arr(lv), arr(c))


@st.composite
def organisations(draw, tail):
    n_items = draw(st.integers(1, 6))
    x_clustered, g_clustered = draw(st.booleans()), draw(st.booleans())
    max_occ = draw(st.sampled_from([1, 1, 2, 3]))  # 1: no overlap

    def output(clustered):
        occ = set()
        for d in range(n_items):
            k = draw(st.integers(0 if tail else 1, max_occ))
            for _ in range(k):
                lev = draw(st.integers(1, 3))
                clu = draw(st.integers(0, 2)) if clustered else None
                if not clustered and any(o[0] == d and o[1] == lev for o in occ):
                    continue
                occ.add((d, lev, clu))
        return sorted(occ, key=lambda o: (o[0], o[1], -1 if o[2] is None else o[2]))

    return output(x_clustered), output(g_clustered), tail


@settings(max_examples=300, deadline=None)
@given(st.booleans().flatmap(lambda tail: st.lists(organisations(tail), min_size=1, max_size=3)),
       st.sampled_from([(30, 0.8), (2, 0.5), (1, 0.9), (5.5, 0.3)]))
def test_fast_route_equals_definitions(cases, nw):
    n, w = nw
    tail = cases[0][2]  # a campaign-level flag: every topic shares it
    xs = [c[0] for c in cases]
    gs = [c[1] for c in cases]
    n_items = 100 * len(cases)
    fast_r = directional(_side(xs), _side(gs), n_items, len(cases), tail, n, w)
    fast_s = directional(_side(gs), _side(xs), n_items, len(cases), tail, n, w)
    for k, (x, g, _) in enumerate(cases):
        want_r = brute(x, g, tail, n, w)
        want_s = brute(g, x, tail, n, w)
        for kind in want_r:
            assert abs(fast_r[kind][k] - want_r[kind]) < 1e-12, (kind, x, g, tail)
            assert abs(fast_s[kind][k] - want_s[kind]) < 1e-12, (kind, x, g, tail)


def test_brute_force_reads_the_handworked_example():
    # docs/organisation.md §7 (tests/test_organisation.py does the same through the loader)
    x = [(0, 1, 0), (1, 1, 0), (2, 2, 1)]
    g = [(0, 1, 0), (1, 2, 1), (2, 2, 1)]
    r = brute(x, g, True, 1, 0.5)
    s = brute(g, x, True, 1, 0.5)
    assert abs(r["priority"] - 39 / 44) < 1e-12 and abs(r["relatedness"] - 5 / 9) < 1e-12
    assert abs(r["both"] - 13 / 18) < 1e-12
    assert abs(s["priority"] - 19 / 24) < 1e-12 and abs(s["relatedness"] - 5 / 6) < 1e-12
    assert abs(s["both"] - 27 / 32) < 1e-12
