"""An independent, slow reference for every metric: straight from the definitions of
docs/measures.md §3.

Nothing here is shared with :mod:`metrics`: clusterings are plain Python lists of sets
(``gold[e]`` the classes of item e, ``system[e]`` its clusters), and every quantity is counted
by looping over items, item pairs or (item, class, cluster) elements. Missing items are given
as a set of item indices; they are singleton clusters, and under ``penalize`` get BCubed recall
and sensitivity 0 (docs/measures.md §2).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict

import numpy as np
from scipy.optimize import linear_sum_assignment

from metrics.io.build import RawClustering, build_campaign


def fill_missing(system, missing):
    """The system with every missing item in a fresh singleton cluster."""
    out = []
    for e, labs in enumerate(system):
        out.append({("__missing__", e)} if e in missing else set(labs))
    return out


def groups(sets):
    """label -> set of items."""
    g = defaultdict(set)
    for e, labs in enumerate(sets):
        for lab in labs:
            g[lab].add(e)
    return g


# --- BCubed and R&S -------------------------------------------------------------------------
def bcubed(gold, system, missing=frozenset(), penalize=True):
    """Extended BCubed (Amigó et al. 2009) by looping over all item pairs."""
    system = fill_missing(system, missing)
    n = len(gold)
    ps, rs = [], []
    for e in range(n):
        pn, pd, rn, rd = 0.0, 0, 0.0, 0
        for f in range(n):
            mc = len(system[e] & system[f])
            ml = len(gold[e] & gold[f])
            if mc > 0:
                pn += min(mc, ml) / mc
                pd += 1
            if ml > 0:
                if not (penalize and e in missing and f == e):
                    rn += min(mc, ml) / ml
                rd += 1
        ps.append(pn / pd)
        rs.append(rn / rd)
    return sum(ps) / n, sum(rs) / n


def reliability_sensitivity(gold, system, missing=frozenset(), penalize=True):
    """Occurrence-level R and S (Amigó, Gonzalo, Verdejo 2013), by looping over occurrences."""
    system = fill_missing(system, missing)
    clusters, classes = groups(system), groups(gold)

    def side(own_groups, own, other, is_recall):
        vals = []
        for _lab, members in own_groups.items():
            for e in members:
                tot = 0.0
                for f in members:
                    shared_own = len(own[e] & own[f])
                    shared_other = len(other[e] & other[f])
                    if is_recall and penalize and e in missing and f == e:
                        continue
                    tot += min(1.0, shared_other / shared_own)
                vals.append(tot / len(members))
        return sum(vals) / len(vals)

    return side(clusters, system, gold, False), side(classes, gold, system, True)


# --- contingency-based metrics, counted from sets ---------------------------------------------
def contingency(gold, system, missing=frozenset()):
    """n_ij counted over every (item, class, cluster) element of L(e) × C(e)."""
    system = fill_missing(system, missing)
    cnt = Counter()
    for e in range(len(gold)):
        for i in gold[e]:
            for j in system[e]:
                cnt[(i, j)] += 1
    return cnt


def set_matching(gold, system, missing=frozenset()):
    system = fill_missing(system, missing)
    clusters, classes = groups(system), groups(gold)
    pur = sum(max(len(c & l) for l in classes.values()) for c in clusters.values())  # noqa: E741 - l: a class, as in the definition
    inv = sum(max(len(c & l) for c in clusters.values()) for l in classes.values())  # noqa: E741 - as above
    f = 0.0
    for l in classes.values():  # noqa: E741 - as above
        f += len(l) * max(2 * len(l & c) / (len(l) + len(c)) for c in clusters.values())
    sc = sum(len(c) for c in clusters.values())
    sl = sum(len(l) for l in classes.values())  # noqa: E741 - as above
    return {"purity": pur / sc, "inverse_purity": inv / sl, "fscore": f / sl}


def _h(counts):
    tot = sum(counts)
    return -sum(c / tot * math.log(c / tot) for c in counts if c > 0)


def entropy_metrics(gold, system, missing=frozenset(), beta=1.0):
    cnt = contingency(gold, system, missing)
    n = sum(cnt.values())
    rows, cols = Counter(), Counter()
    for (i, j), v in cnt.items():
        rows[i] += v
        cols[j] += v
    hc, hk = _h(rows.values()), _h(cols.values())
    hc_k = -sum(v / n * math.log(v / cols[j]) for (i, j), v in cnt.items())
    hk_c = -sum(v / n * math.log(v / rows[i]) for (i, j), v in cnt.items())
    if len(rows) == 1:
        hc, hc_k = 0.0, 0.0
    if len(cols) == 1:
        hk, hk_c = 0.0, 0.0
    h = 1.0 if hc == 0 else 1 - hc_k / hc
    c = 1.0 if hk == 0 else 1 - hk_c / hk
    v = 0.0 if beta * h + c == 0 else (1 + beta) * h * c / (beta * h + c)
    vi = hc_k + hk_c
    nvi = vi / hc if hc > 0 else (vi / hk if hk > 0 else 0.0)
    return {"homogeneity": h, "completeness": c, "v_measure": v, "vi": vi, "nvi": nvi,
            "h_c_given_k": hc_k, "h_k_given_c": hk_c}


def pair_metrics(gold, system, missing=frozenset()):
    """Pair counting over pairs of (item, class, cluster) elements (= item pairs w/o overlap)."""
    system = fill_missing(system, missing)
    elems = [(i, j) for e in range(len(gold)) for i in gold[e] for j in system[e]]
    tp = fp = fn = tn = 0
    for (i1, j1), (i2, j2) in itertools.combinations(elems, 2):
        g, s = i1 == i2, j1 == j2
        tp += g and s
        fp += s and not g
        fn += g and not s
        tn += not g and not s
    t = tp + fp + fn + tn
    sa, sb = tp + fn, tp + fp
    rand = 1.0 if t == 0 else (tp + tn) / t
    exp = sa * sb / t if t else 0.0
    den = (sa + sb) / 2 - exp
    ari = 1.0 if abs(den) < 1e-12 else (tp - exp) / den
    jac = 1.0 if tp + fp + fn == 0 else tp / (tp + fp + fn)
    if sa == 0 and sb == 0:
        fm = 1.0
    elif sa == 0 or sb == 0:
        fm = 0.0
    else:
        fm = tp / math.sqrt(sa * sb)
    p = 1.0 if sb == 0 else tp / sb
    r = 1.0 if sa == 0 else tp / sa
    f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return {"rand": rand, "adjusted_rand": ari, "jaccard": jac, "fowlkes_mallows": fm,
            "pair_precision": p, "pair_recall": r, "pair_f": f}


def mapping_metrics(gold, system, missing=frozenset()):
    cnt = contingency(gold, system, missing)
    n = sum(cnt.values())
    classes = sorted({i for i, _ in cnt}, key=repr)
    clusters = sorted({j for _, j in cnt}, key=repr)
    m1 = sum(max(cnt.get((i, j), 0) for i in classes) for j in clusters) / n
    small, large = (classes, clusters) if len(classes) <= len(clusters) else (clusters, classes)
    flip = small is clusters
    best = 0
    if len(large) <= 7:
        for perm in itertools.permutations(large, len(small)):
            tot = sum(cnt.get((b, a) if flip else (a, b), 0) for a, b in zip(small, perm))
            best = max(best, tot)
    else:  # too many permutations: fall back on an assignment solver

        mat = np.array([[cnt.get((i, j), 0) for j in clusters] for i in classes], float)
        r, c = linear_sum_assignment(mat, maximize=True)
        best = mat[r, c].sum()
    return {"accuracy_m1": m1, "accuracy_11": best / n}


def all_metrics(gold, system, missing=frozenset(), penalize=True, beta=1.0, k=3):
    """Every metric of the registry, by definition."""
    p, r = bcubed(gold, system, missing, penalize)
    rel, sens = reliability_sensitivity(gold, system, missing, penalize)
    out = {"bcubed_precision": p, "bcubed_recall": r, "bcubed_adapted_recall": r ** (k - 1),
           "reliability": rel, "sensitivity": sens}
    out.update(set_matching(gold, system, missing))
    out.update(entropy_metrics(gold, system, missing, beta))
    out.update(pair_metrics(gold, system, missing))
    out.update(mapping_metrics(gold, system, missing))
    return out


# --- building a campaign from the same lists (I/O only, for the fast route) -------------------
def toy_campaign(topics, name="toy"):
    """A Campaign from ``[(gold_sets, system_sets, missing), ...]``, one tuple per topic.

    The system is named ``sys``; items of topic t are ``t{t}_{e}``; labels keep their names.
    """


    cols = {"gold": ([], [], []), "sys": ([], [], [])}
    for t, (gold, system, missing) in enumerate(topics):
        for e in range(len(gold)):
            for lab in gold[e]:
                cols["gold"][0].append(f"T{t:03d}")
                cols["gold"][1].append(f"i{e:05d}")
                cols["gold"][2].append(str(lab))
            if e in missing:
                continue
            for lab in system[e]:
                cols["sys"][0].append(f"T{t:03d}")
                cols["sys"][1].append(f"i{e:05d}")
                cols["sys"][2].append(str(lab))

    def raw(key):
        tp, it, lb = (np.asarray(c, dtype=object) for c in cols[key])
        return RawClustering(source=key, topic=tp, item=it, label=lb)

    return build_campaign(raw("gold"), {"sys": raw("sys")}, name=name)


# --- graded ranking measures: ERR and the Q-measure -----------------------------------------
def err_loop(grades_in_order, max_grade):
    """ERR (Chapelle et al. 2009) by walking down the ranking: the user reaches rank r with the
    probability of not having stopped before, stops there with (2^g - 1) / 2^g_max."""
    if max_grade <= 0:
        return 0.0
    total, reach = 0.0, 1.0
    for r, g in enumerate(grades_in_order, start=1):
        stop = (2.0 ** max(g, 0) - 1.0) / 2.0 ** max_grade
        total += reach * stop / r
        reach *= 1.0 - stop
    return total


def q_measure_loop(grades_in_order, judged_grades, beta=1.0):
    """Sakai's Q-measure: at each relevant rank r, (cg(r) + beta count(r)) / (cig(r) + beta r)
    with every cumulative quantity counted again from the start, summed over the relevant ranks
    and divided by the number of relevant documents."""
    ideal = sorted((g for g in judged_grades if g > 0), reverse=True)
    n_rel = len(ideal)
    if n_rel == 0:
        return 0.0
    total = 0.0
    for r in range(1, len(grades_in_order) + 1):
        if grades_in_order[r - 1] <= 0:
            continue
        cg = sum(max(g, 0) for g in grades_in_order[:r])
        count = sum(1 for g in grades_in_order[:r] if g > 0)
        cig = sum(ideal[:r])
        total += (cg + beta * count) / (cig + beta * r)
    return total / n_rel
