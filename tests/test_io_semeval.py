"""SemEval word-sense-induction keys (2007 task 2, 2010 task 14, 2013 task 13)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from metrics.errors import CampaignFormatError
from metrics.io import detect_format, load
from metrics.io.semeval import looks_like_semeval, read_semeval

DATA = Path(__file__).resolve().parent / "data"
SEM = DATA / "semeval"


@pytest.mark.parametrize(
    "line, expected",
    [
        ("add.v add.v.1 add.v.1/0.8 add.v.3/0.2", True),
        ("access.n access.n.1 access.n.c2", True),
        ("become.v become.v.3 become%2:30:00::/4", True),
        ("bank bank_17 sense2", True),  # instance id starts with the word
        ("word instance", False),  # two fields only
        ("entity\ttweet\tlabel", False),  # an unknown header is not a key line
        ("topic,item,cluster", False),
        ("", False),
    ],
)
def test_looks_like_semeval(line, expected):
    assert looks_like_semeval(line) is expected


def test_2007_keys_with_weights_and_overlap():
    raw = read_semeval(SEM / "sem2007" / "runs" / "topic_model.key")
    assert len(raw) == 12  # 10 lines, two of them with two labels
    assert list(raw.topic[:2]) == ["add.v", "add.v"]
    assert list(raw.item[:2]) == ["add.v.1", "add.v.1"]
    assert list(raw.label[:2]) == ["add.v.c0", "add.v.c2"]
    assert raw.weight[:2].tolist() == [0.8, 0.2]
    assert np.isnan(raw.weight[2])  # a label without weight
    assert raw.line[:4].tolist() == [1, 1, 2, 3]


def test_2007_campaign():
    c = load(SEM / "sem2007")
    assert detect_format(SEM / "sem2007" / "gold.key") == "semeval"
    assert list(c.topics) == ["add.v", "care.n"]
    assert c.n_items == 11
    assert c.systems == ["one_sense", "topic_model"]
    rep = c.report.systems["topic_model"]
    assert rep.overlapping_items == 2  # add.v.1 and add.v.4 carry two senses
    assert rep.missing_items == 1  # add.v.6 has no answer
    assert c.runs["topic_model"].is_overlapping
    assert c.runs["one_sense"].weight is None  # no weight anywhere: no weight column


def test_2010_campaign_missing_extra_and_blank_line():
    c = load(SEM / "sem2010")
    assert c.n_topics == 3 and c.n_items == 11
    rep = c.report.systems["hermit"]
    assert rep.missing_topics == 1 and rep.missing_topic_names == ["shape.v"]
    assert rep.missing_items == 2  # the two shape.v instances
    assert rep.extra_items == 1  # cheat.v.7 is not in the gold
    gold = read_semeval(SEM / "sem2010" / "gold.key")
    # the blank line 6 is skipped, so cheat.v.1 is on line 7
    assert int(gold.line[list(gold.item).index("cheat.v.1")]) == 7


def test_2013_graded_senses_keep_weights():
    c = load(SEM / "sem2013")
    assert c.gold.weight is not None
    names = c.gold.label_names[c.gold.label]
    # WordNet sense keys contain ':' and end with the weight after the last '/'
    assert "become%2:30:00::" in set(names)
    assert c.gold.overlapping_items() == 2
    assert c.report.systems["ai-ku"].overlapping_items == 3
    w = dict(zip(names, c.gold.weight))
    assert w["dark%5:00:00:black:00"] in (4.0, 5.0)


def test_gzip_key(tmp_path):

    data = (SEM / "sem2010" / "gold.key").read_bytes()
    (tmp_path / "gold.key.gz").write_bytes(gzip.compress(data))
    raw = read_semeval(tmp_path / "gold.key.gz")
    assert len(raw) == 11


def test_bad_weight_names_file_line_and_label():
    path = DATA / "bad" / "bad_weight.key"
    with pytest.raises(CampaignFormatError) as err:
        read_semeval(path)
    e = err.value
    assert e.path == str(path) and e.line == 2
    assert "'high'" in e.problem and "not a number" in e.problem


def test_short_line_names_file_and_line():
    path = DATA / "bad" / "short_line.key"
    with pytest.raises(CampaignFormatError) as err:
        read_semeval(path)
    assert err.value.line == 3
    assert "at least 3 fields" in err.value.problem and "found 2" in err.value.problem


def test_weight_without_label_and_infinite_weight(tmp_path):
    p = tmp_path / "k.key"
    p.write_text("add.v add.v.1 /0.5\n")
    with pytest.raises(CampaignFormatError, match="no name"):
        read_semeval(p)
    p.write_text("add.v add.v.1 add.v.c0/inf\n")
    with pytest.raises(CampaignFormatError, match="finite"):
        read_semeval(p)


def test_empty_key_file(tmp_path):
    p = tmp_path / "empty.key"
    p.write_text("\n  \n")
    with pytest.raises(CampaignFormatError, match="empty"):
        read_semeval(p)
