"""The ``organisation`` format: long tables ``topic,item,level[,cluster]`` and ``tail``."""

from __future__ import annotations

from pathlib import Path

import pytest

from metrics.errors import CampaignFormatError
from metrics.io import detect_format, load, load_files
from metrics.measures.scoring import evaluate

HAND = Path(__file__).resolve().parent / "data" / "organisation" / "handworked"


def _folder(tmp_path, gold, runs, toml=None, ext="csv"):
    folder = tmp_path / "camp"
    (folder / "runs").mkdir(parents=True)
    (folder / f"gold.{ext}").write_text(gold)
    for name, text in runs.items():
        (folder / "runs" / f"{name}.{ext}").write_text(text)
    if toml is not None:
        (folder / "campaign.toml").write_text(toml)
    return folder


def test_detected_from_the_header_and_loose_files():
    assert detect_format(HAND / "gold.csv") == "organisation"
    loose = load_files(HAND / "gold.csv", [HAND / "runs" / "sys.csv"])
    assert not loose.tail  # loose files: the gold's items are the collection
    assert load(HAND).tail  # campaign.toml: tail = true


def test_filtering_without_tail_and_a_missing_item(tmp_path):
    # gold: a, b positive; c, d negative. Run: a, c positive; b negative; d not listed.
    gold = "topic\titem\tlevel\nq\ta\t1\nq\tb\t1\nq\tc\t2\nq\td\t2\n"
    run = "topic\titem\tlevel\nq\ta\t1\nq\tc\t1\nq\tb\t2\nq\tx\t2\n"
    camp = load(_folder(tmp_path, gold, {"r": run}, ext="tsv"))
    rep = camp.report.systems["r"]
    assert rep.missing_items == 1 and rep.extra_items == 1  # d missing, x extra
    # missing='singleton': d joins the run's last level (negative): P+ = 1/2, P- = 1/2
    got = evaluate(camp, "reliability,sensitivity", missing="singleton")
    r, s = got["value"].tolist()
    assert r == pytest.approx(0.5 * 0.5) and s == pytest.approx(0.5 * 0.5)
    with pytest.raises(Exception, match="misses 1 gold item"):
        evaluate(camp, "reliability", missing="error")


@pytest.mark.parametrize("gold, problem, line", [
    ("topic,item,level\nq,a,1\nq,b,0\n", "level '0' is not a whole number >= 1", 3),
    ("topic,item,level\nq,a,1\nq,b,high\n", "level 'high'", 3),
    ("topic,item,level\nq,a,1\nq,b\n", "missing value for level", 3),
    ("topic,item,level,cluster,extra\nq,a,1,c,x\n", "header has columns", 1),
])
def test_bad_organisation_files(tmp_path, gold, problem, line):
    folder = _folder(tmp_path, gold, {"r": "topic,item,level\nq,a,1\n"})
    with pytest.raises(CampaignFormatError) as err:
        load(folder)
    assert problem in err.value.problem and err.value.line == line
    assert err.value.path.endswith("gold.csv")


def test_bad_tail_value(tmp_path):
    folder = _folder(tmp_path, "topic,item,level\nq,a,1\n", {"r": "topic,item,level\nq,a,1\n"},
                     toml='format = "organisation"\ntail = "yes"\n')
    with pytest.raises(CampaignFormatError, match="tail must be true or false"):
        load(folder)


def test_duplicates_are_skipped_and_reported(tmp_path):
    gold = "topic,item,level,cluster\nq,a,1,x\nq,a,1,x\nq,b,2,y\n"
    camp = load(_folder(tmp_path, gold, {"r": "topic,item,level,cluster\nq,a,1,x\nq,b,1,x\n"}))
    assert camp.report.gold.duplicate_rows == 1
    assert any("duplicate" in str(n) and "line 3" in str(n) for n in camp.report.all_notes())
