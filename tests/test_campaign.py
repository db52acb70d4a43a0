"""The campaign model: coding, alignment with the gold and the missing-item policies
(docs/measures.md §1-2)."""

from __future__ import annotations

import numpy as np
import pytest

from metrics.errors import CampaignAlignmentError, UnanimityError
from metrics.io import load

GOLD = """topic,item,cluster
t1,a,x
t1,b,x
t1,c,y
t2,d,p
t2,e,q
t2,f,q
"""
# run1: misses t1/c, adds an extra item t1/z and a whole extra topic t9, one exact duplicate
RUN1 = """topic,item,cluster
t1,a,1
t1,b,2
t1,z,2
t2,d,1
t2,e,1
t2,f,1
t2,f,1
t9,k,5
"""
# run3: lists only extra items for t2, so every t2 gold item is missing: a missing topic
RUN3 = """topic,item,cluster
t1,a,1
t1,b,1
t1,c,1
t2,zz,9
"""
# run2: nothing for t2 (missing topic); item b in two clusters (overlap)
RUN2 = """topic,item,cluster
t1,a,1
t1,b,1
t1,b,2
t1,c,2
"""


@pytest.fixture()
def tiny(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "gold.csv").write_text(GOLD)
    (tmp_path / "runs" / "run1.csv").write_text(RUN1)
    (tmp_path / "runs" / "run2.csv").write_text(RUN2)
    (tmp_path / "runs" / "run3.csv").write_text(RUN3)
    return load(tmp_path)


def test_items_topics_and_labels_are_coded(tiny):
    assert tiny.topics.tolist() == ["t1", "t2"]
    assert tiny.item_ids.tolist() == ["a", "b", "c", "d", "e", "f"]
    assert tiny.item_topic.tolist() == [0, 0, 0, 1, 1, 1]
    assert tiny.topic_offsets.tolist() == [0, 3, 6]
    g = tiny.gold
    assert g.label_names[g.label].tolist() == ["x", "x", "y", "p", "q", "q"]
    assert g.label_topic[g.label].tolist() == [0, 0, 0, 1, 1, 1]
    assert tiny.systems == ["run1", "run2", "run3"]


def test_same_label_name_in_two_topics_is_two_labels(tiny):
    r1 = tiny.runs["run1"]
    # label "1" is used in t1 and in t2: two codes
    names = r1.label_names[r1.label]
    codes_named_1 = np.unique(r1.label[names == "1"])
    assert codes_named_1.size == 2
    assert sorted(r1.label_topic[codes_named_1].tolist()) == [0, 1]


def test_report_counts_missing_extra_duplicates_and_overlap(tiny):
    r1 = tiny.report.systems["run1"]
    assert (r1.missing_items, r1.extra_items, r1.missing_topics) == (1, 2, 0)
    assert r1.extra_topics == ["t9"]
    assert r1.duplicate_rows == 1
    assert any("duplicate" in str(n) and "line 8" in str(n) for n in r1.notes)
    r2 = tiny.report.systems["run2"]
    assert (r2.missing_items, r2.extra_items, r2.missing_topics) == (3, 0, 1)
    assert r2.missing_topic_names == ["t2"]
    assert r2.overlapping_items == 1
    assert tiny.runs["run2"].is_overlapping and not tiny.runs["run1"].is_overlapping
    r3 = tiny.report.systems["run3"]
    assert (r3.missing_items, r3.extra_items, r3.missing_topics) == (3, 1, 1)
    assert r3.missing_topic_names == ["t2"]
    assert tiny.summary()["per_system"] == {
        "run1": {"missing_items": 1, "extra_items": 2, "missing_topics": 0},
        "run2": {"missing_items": 3, "extra_items": 0, "missing_topics": 1},
        "run3": {"missing_items": 3, "extra_items": 1, "missing_topics": 1},
    }


def test_penalize_and_singleton_fill_missing_items_with_singletons(tiny):
    for policy in ("penalize", "singleton"):
        aligned = tiny.aligned("run1", missing=policy)
        m = aligned.membership
        assert aligned.missing.tolist() == [False, False, True, False, False, False]
        assert np.array_equal(np.unique(m.item), np.arange(6))
        c_label = m.label[m.item == 2]
        assert c_label.size == 1
        assert np.sum(m.label == c_label[0]) == 1  # a singleton
        assert m.label_topic[c_label[0]] == 0


def test_missing_error_policy_raises(tiny):
    with pytest.raises(CampaignAlignmentError, match="run2.*3 gold item"):
        tiny.aligned("run2", missing="error")
    with pytest.raises(UnanimityError, match="unknown missing policy"):
        tiny.aligned("run1", missing="drop")
    with pytest.raises(UnanimityError, match="unknown system"):
        tiny.aligned("nope")


def test_with_runs_adds_and_refuses_clashes(tiny):
    more = tiny.with_runs({"copy": tiny.runs["run1"]})
    assert more.systems == ["run1", "run2", "run3", "copy"]
    assert tiny.systems == ["run1", "run2", "run3"]
    with pytest.raises(UnanimityError, match="already"):
        tiny.with_runs({"run1": tiny.runs["run1"]})
