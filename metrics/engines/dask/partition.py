"""The counts of one hash partition of a campaign: the map step of the Dask engine.

After the shuffle, every (topic, item) of the gold and of every run lives in exactly one
partition (docs/dask.md, "How it works"), so everything about one item is decided here:
de-duplication, alignment with the gold (extra and missing items), overlap. What leaves the
partition is a handful of small count tables keyed by codes and labels, summed over the
partitions afterwards by group-bys; no item-level row leaves it except, grouped by their
(cluster set, class set) signature, the items with several labels.

This module is plain pandas/numpy (no Dask): it is what each worker runs, and it can be tested
on its own.

Tables (``system`` and ``topic`` are integer codes; ``class``/``cluster`` the labels as read):

* ``gold_topics``  topic, items, raw_rows, rows, multi — gold items, rows before and after
  de-duplication, items with several classes;
* ``gold_classes`` topic, class, n — |L_i|;
* ``run_topics``   system, topic, raw_rows, rows, covered, extra, overlapping — per topic the
  run's rows, the gold items it assigns, its distinct extra (topic, item) pairs and its items
  with several clusters (``topic = -1``: topics the gold does not have);
* ``extra_topics`` system, topic — the codes of those topics;
* ``clusters``     system, topic, cluster, n — |C_j| over the aligned (gold) items;
* ``cells``        system, topic, class, cluster, single, n — n_ij; ``single`` marks the part
  contributed by items with one class and one cluster (the rest is the L(e) × C(e) expansion
  of the items with several labels);
* ``missing``      system, topic, class, n — gold items with one class the run does not assign;
* ``signatures``   system, topic, signature, n — items with several classes or clusters (or a
  missing item with several classes), grouped by their sorted cluster set and class set.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from metrics.model.key_counts import sorted_codes, sorted_counts

__all__ = ["partition_counts", "table_dtypes", "TABLES", "LABEL_SEP", "SIDE_SEP"]

#: separators inside a signature string: between labels, and between the cluster set and the
#: class set (control characters that do not occur in labels read from text)
LABEL_SEP, SIDE_SEP = "\x1f", "\x1e"

TABLES = ("gold_topics", "gold_classes", "run_topics", "extra_topics", "clusters", "cells",
          "missing", "signatures")


def table_dtypes(class_dtype, cluster_dtype) -> dict[str, dict[str, object]]:
    """Column dtypes of every table, given the dtypes of the gold's and the runs' labels."""
    i64, code, sys_ = np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.int16)
    return {
        "gold_topics": {"topic": code, "items": i64, "raw_rows": i64, "rows": i64,
                        "multi": i64},
        "gold_classes": {"topic": code, "class": class_dtype, "n": i64},
        "run_topics": {"system": sys_, "topic": code, "raw_rows": i64, "rows": i64,
                       "covered": i64, "extra": i64, "overlapping": i64},
        "extra_topics": {"system": sys_, "topic": code},
        "clusters": {"system": sys_, "topic": code, "cluster": cluster_dtype, "n": i64},
        "cells": {"system": sys_, "topic": code, "class": class_dtype, "cluster": cluster_dtype,
                  "single": np.dtype(bool), "n": i64},
        "missing": {"system": sys_, "topic": code, "class": class_dtype, "n": i64},
        "signatures": {"system": sys_, "topic": code, "signature": pd.StringDtype(), "n": i64},
    }


def _conform(frame: pd.DataFrame | None, dtypes: dict) -> pd.DataFrame:
    if frame is None:
        return pd.DataFrame({c: pd.Series([], dtype=d) for c, d in dtypes.items()})
    return frame[list(dtypes)].astype(dtypes).reset_index(drop=True)


def _pairs(a: np.ndarray, b: np.ndarray, n_b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct (a, b) pairs (b in [0, n_b)) with counts, as (a, b, n), sorted."""
    key, n = sorted_counts(a.astype(np.int64) * max(n_b, 1) + b)
    return key // max(n_b, 1), key % max(n_b, 1), n


def _dedupe(owner: np.ndarray, label: np.ndarray, n_label: int):
    """Rows (owner, label) without exact duplicates, sorted by owner then label. The rows of
    owners with a single row are placed by owner (no sort); only the owners with several rows
    (several labels, or duplicate rows) are sorted."""
    owner = owner.astype(np.int64, copy=False)
    label = label.astype(np.int64, copy=False)
    per = np.bincount(owner) if owner.size else np.zeros(0, dtype=np.int64)
    multi = per[owner] >= 2
    mo, ml, _ = _pairs(owner[multi], label[multi], n_label)
    so, sl = owner[~multi], label[~multi]
    # merge by owner (the two sets of owners are disjoint): each owner's slot, then its rank
    k = np.bincount(so, minlength=per.size) + np.bincount(mo, minlength=per.size)
    start = np.cumsum(k) - k
    out_o = np.empty(so.size + mo.size, dtype=np.int64)
    out_l = np.empty(so.size + mo.size, dtype=np.int64)
    out_o[start[so]], out_l[start[so]] = so, sl
    pos = start[mo] + np.arange(mo.size) - np.searchsorted(mo, mo, side="left")
    out_o[pos], out_l[pos] = mo, ml
    return out_o, out_l


def _joined(owner: np.ndarray, labels: np.ndarray) -> pd.Series:
    """Per owner, its labels (as text) sorted and joined with LABEL_SEP."""
    frame = pd.DataFrame({"o": owner, "l": pd.Series(labels).astype(str).to_numpy(object)})
    frame = frame.sort_values(["o", "l"], kind="stable")
    return frame.groupby("o", sort=True)["l"].agg(LABEL_SEP.join)


def _gold(gold: pd.DataFrame, n_t: int, icode: np.ndarray, n_i: int):
    gt = gold["topic"].to_numpy(np.int64)
    g_key = gt * n_i + icode
    items, g_inv = sorted_codes(g_key)
    gl, g_names = pd.factorize(gold["class"], use_na_sentinel=False)
    gi, gl = _dedupe(g_inv.reshape(-1), gl, len(g_names))
    item_topic = items // n_i
    kg = np.bincount(gi, minlength=items.size)
    topics = pd.DataFrame({
        "topic": np.arange(n_t, dtype=np.int32),
        "items": np.bincount(item_topic, minlength=n_t),
        "raw_rows": np.bincount(gt, minlength=n_t),
        "rows": np.bincount(item_topic[gi], minlength=n_t),
        "multi": np.bincount(item_topic[kg >= 2], minlength=n_t),
    })
    topics = topics[topics["raw_rows"] > 0]
    t, c, n = _pairs(item_topic[gi], gl, len(g_names))
    classes = pd.DataFrame({"topic": t.astype(np.int32),
                            "class": np.asarray(g_names)[c] if c.size else g_names[:0],
                            "n": n})
    return items, item_topic, gi, gl, np.asarray(g_names), kg, topics, classes


def partition_counts(gold: pd.DataFrame, run: pd.DataFrame, n_t: int,
                     systems: np.ndarray) -> dict[str, pd.DataFrame]:
    """The count tables (module docstring) of one partition.

    Parameters
    ----------
    gold : DataFrame with columns topic, item, class
        The gold rows of this partition (every row of a (topic, item) is here); ``topic`` an
        integer code in [0, n_t).
    run : DataFrame with columns topic, item, cluster, system
        The rows of every run for the same (topic, item)s; ``system`` an integer code,
        ``topic`` a code, n_t or more for a topic the gold does not have.
    n_t : int
        Number of gold topics.
    systems : ndarray of int
        The codes of the systems to count (also those without a row here: their missing
        items are here).
    """
    n_g = len(gold)
    icode, _ = pd.factorize(pd.concat([gold["item"], run["item"]], ignore_index=True),
                            use_na_sentinel=False)
    n_i = int(icode.max()) + 1 if icode.size else 1
    items, item_topic, gi, gl, g_names, kg, g_topics, g_classes = _gold(
        gold, n_t, icode[:n_g], n_i)
    n_items = items.size
    g_label_of_item = np.zeros(n_items, dtype=np.int64)
    g_label_of_item[gi] = gl
    acc: dict[str, list] = {k: [] for k in TABLES[2:]}
    r_sys = run["system"].to_numpy()
    r_topic_code = run["topic"].to_numpy(np.int64)
    r_topic_all = np.where(r_topic_code < n_t, r_topic_code, -1)
    r_icode = icode[n_g:]
    r_lab_all, r_names = pd.factorize(run["cluster"], use_na_sentinel=False)
    r_names = np.asarray(r_names)
    for s in systems:   # a loop over the systems, not over items
        sel = np.flatnonzero(r_sys == s)
        rt = r_topic_all[sel]
        rl = r_lab_all[sel]
        key_all = (rt + 1) * n_i + r_icode[sel]          # topic -1 (not in the gold) -> 0
        rk_u, rk_inv = sorted_codes(key_all)
        ri, rlab = _dedupe(rk_inv.reshape(-1), rl, len(r_names))
        rk = rk_u[ri]
        pos = np.searchsorted(items, rk - n_i)
        pos[pos >= n_items] = 0
        ok = (rk >= n_i) & (items[pos] == rk - n_i) if n_items else np.zeros(rk.size, bool)
        m_item, m_lab = pos[ok], rlab[ok]
        kc = np.bincount(m_item, minlength=n_items)
        extra_t = np.unique(rk[~ok]) // n_i - 1
        row_t = rk // n_i - 1
        frame = pd.DataFrame({
            "system": s, "topic": np.arange(-1, n_t, dtype=np.int32),
            "raw_rows": np.bincount(rt + 1, minlength=n_t + 1),
            "rows": np.bincount(row_t + 1, minlength=n_t + 1),
            "covered": np.r_[0, np.bincount(item_topic[kc > 0], minlength=n_t)],
            "extra": np.bincount(extra_t + 1, minlength=n_t + 1),
            "overlapping": np.r_[0, np.bincount(item_topic[kc >= 2], minlength=n_t)],
        })
        acc["run_topics"].append(frame[frame["raw_rows"] > 0])
        if (rt < 0).any():
            codes = np.unique(r_topic_code[sel[rt < 0]])
            acc["extra_topics"].append(pd.DataFrame({"system": s, "topic": codes}))
        t, c, n = _pairs(item_topic[m_item], m_lab, len(r_names))
        acc["clusters"].append(pd.DataFrame({"system": s, "topic": t.astype(np.int32),
                                             "cluster": r_names[c], "n": n}))
        # items with one class and one cluster: one cell each
        r_label_of_item = np.zeros(n_items, dtype=np.int64)
        r_label_of_item[m_item] = m_lab
        one = np.flatnonzero((kg == 1) & (kc == 1))
        tg, tg_inv = sorted_codes(item_topic[one] * max(len(g_names), 1) + g_label_of_item[one])
        a, b, n = _pairs(tg_inv.reshape(-1), r_label_of_item[one], len(r_names))
        n_g = max(len(g_names), 1)
        cells = [pd.DataFrame({"t": tg[a] // n_g, "c": tg[a] % n_g,
                               "k": b, "single": True, "n": n})]
        # items with several labels: the L(e) x C(e) expansion, and their signatures
        multi = (kc >= 1) & ((kg >= 2) | (kc >= 2))
        if multi.any():
            gsel, rsel = multi[gi], multi[m_item]
            x = pd.DataFrame({"e": gi[gsel], "c": gl[gsel]}).merge(
                pd.DataFrame({"e": m_item[rsel], "k": m_lab[rsel]}), on="e")
            x["t"] = item_topic[x["e"].to_numpy()]
            x = x.groupby(["t", "c", "k"], sort=False).size().rename("n").reset_index()
            x["single"] = False
            cells.append(x)
        cells = pd.concat(cells, ignore_index=True)
        acc["cells"].append(pd.DataFrame({
            "system": s, "topic": cells["t"].to_numpy(np.int32),
            "class": g_names[cells["c"].to_numpy()], "cluster": r_names[cells["k"].to_numpy()],
            "single": cells["single"].to_numpy(bool), "n": cells["n"].to_numpy(np.int64)}))
        lone = np.flatnonzero((kc == 0) & (kg == 1))
        t, c, n = _pairs(item_topic[lone], g_label_of_item[lone], len(g_names))
        acc["missing"].append(pd.DataFrame({"system": s, "topic": t.astype(np.int32),
                                            "class": g_names[c], "n": n}))
        sig_items = multi | ((kc == 0) & (kg >= 2))
        if sig_items.any():
            classes = _joined(gi[sig_items[gi]], g_names[gl[sig_items[gi]]])
            clusters = _joined(m_item[sig_items[m_item]], r_names[m_lab[sig_items[m_item]]])
            clusters = clusters.reindex(classes.index, fill_value="")
            sig = clusters + SIDE_SEP + classes
            t_of = item_topic[classes.index.to_numpy()]
            sg = pd.DataFrame({"topic": t_of.astype(np.int32), "signature": sig.to_numpy()})
            sg = sg.groupby(["topic", "signature"], sort=False).size().rename("n").reset_index()
            sg.insert(0, "system", s)
            acc["signatures"].append(sg)
    out = {"gold_topics": g_topics, "gold_classes": g_classes}
    for name, parts in acc.items():
        out[name] = pd.concat(parts, ignore_index=True) if parts else None
    dtypes = table_dtypes(gold["class"].dtype, run["cluster"].dtype)
    return {name: _conform(out[name], dtypes[name]) for name in TABLES}
