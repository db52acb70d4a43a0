"""The format registry: a new format is one module (here, a class in this file) plus one line of
registration, and then every route reads it: ``detect_format``, ``load`` of a campaign folder,
``load_files``, ``read_clustering``, the derived ``FORMATS`` and the ``--format`` help.

The toy format, ``toy``: a first line ``#toy``, then ``topic item cluster`` lines separated by
``|``. Its campaign is checked against the same campaign written as long tables (the ``long``
reader), so the registry adds a route, not a number.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pytest

from metrics.commands.campaign_args import add_campaign_args
from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import FORMATS, detect_format, load, load_files
from metrics.io.build import RawClustering
from metrics.io.format_registry import CampaignFormat, Probe, reader
from metrics.io.load import read_clustering
from metrics.io.source import Node
from metrics.io.text import read_text
from metrics.model.campaign_kinds import CampaignKind, campaign_kind
from metrics.model.formats import (
    FormatEntry,
    format_entries,
    format_help,
    register_format,
    unregister_format,
)
from metrics.model.validation import LoadNote
from tests.trec_toy import RUNS as TOY_RUNS
from tests.trec_toy import write_trec


# --- the toy format: what a contributor writes in its module ------------------------------------
class ToyFormat(CampaignFormat):
    """``#toy`` then ``topic|item|cluster`` lines."""

    def detect_line(self, probe: Probe) -> bool:
        return probe.first_line.strip() == "#toy"

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        notes: list[LoadNote] = []
        lines = read_text(node, notes, encoding or "utf-8").splitlines()[1:]
        rows = [(i + 2, line.split("|")) for i, line in enumerate(lines) if line.strip()]
        for lineno, cells in rows:
            if len(cells) != 3:
                raise CampaignFormatError(node, "expected topic|item|cluster", lineno)
        cols = np.array([cells for _, cells in rows], dtype=object).reshape(-1, 3)
        return RawClustering(source=str(node), topic=cols[:, 0], item=cols[:, 1],
                             label=cols[:, 2], line=np.array([n for n, _ in rows]), notes=notes)


TOY = FormatEntry("toy", "toy clustering, topic|item|cluster", (CampaignKind.CLUSTERING,),
                  ToyFormat())

GOLD = [("t1", "a", "x"), ("t1", "b", "x"), ("t1", "c", "y"), ("t2", "d", "z"), ("t2", "e", "z")]
RUNS = {"one": [("t1", "a", "1"), ("t1", "b", "2"), ("t1", "c", "2"), ("t2", "d", "3"),
                ("t2", "e", "4")],
        "two": [("t1", "a", "k"), ("t1", "b", "k"), ("t1", "c", "k"), ("t2", "d", "m")]}


def _toy(path, rows) -> None:
    path.write_text("#toy\n" + "".join(f"{t}|{i}|{c}\n" for t, i, c in rows), encoding="utf-8")


def _long(path, rows) -> None:
    path.write_text("topic,item,cluster\n" + "".join(f"{t},{i},{c}\n" for t, i, c in rows),
                    encoding="utf-8")


def _campaign(folder, write, ext) -> None:
    (folder / "runs").mkdir(parents=True)
    write(folder / f"gold.{ext}", GOLD)
    for name, rows in RUNS.items():
        write(folder / "runs" / f"{name}.{ext}", rows)


@pytest.fixture
def toy():
    register_format(TOY)  # the one line of registration
    try:
        yield TOY
    finally:
        unregister_format("toy")
    assert "toy" not in FORMATS


def _same(a, b) -> None:
    """Two campaigns with the same topics, items, gold and runs, item by item."""
    assert a.name == b.name and sorted(a.runs) == sorted(b.runs) == sorted(RUNS)
    np.testing.assert_array_equal(a.item_ids, b.item_ids)
    np.testing.assert_array_equal(a.topics, b.topics)
    for m, n in [(a.gold, b.gold)] + [(a.runs[s], b.runs[s]) for s in RUNS]:
        np.testing.assert_array_equal(m.item, n.item)
        np.testing.assert_array_equal(m.label_names[m.label], n.label_names[n.label])
    assert a.report.systems["two"].missing_items == 1  # the toy run left out an item


def test_a_registered_format_is_read_by_every_route(toy, tmp_path):
    _campaign(tmp_path / "toy", _toy, "txt")
    _campaign(tmp_path / "long", _long, "csv")
    reference = load(tmp_path / "long")
    assert detect_format(tmp_path / "toy" / "gold.txt") == "toy"
    assert read_clustering(tmp_path / "toy" / "gold.txt").topic.tolist() == [g[0] for g in GOLD]
    folder = load(tmp_path / "toy", name="long")
    _same(folder, reference)
    assert campaign_kind(folder) in toy.kinds
    loose = load_files(tmp_path / "toy" / "gold.txt",
                       [tmp_path / "toy" / "runs" / f"{n}.txt" for n in RUNS], name="long")
    _same(loose, reference)
    forced = load(tmp_path / "toy", format="toy", name="long")
    _same(forced, reference)


def test_a_registered_format_is_a_choice_of_the_command_line(toy):
    assert "toy" in FORMATS and FORMATS[-1] == "toy"
    assert "toy = toy clustering, topic|item|cluster" in format_help()
    parser = argparse.ArgumentParser()
    add_campaign_args(parser)
    assert parser.parse_args(["x", "--format", "toy"]).format == "toy"
    assert "toy = toy clustering" in parser.format_help().replace("\n", " ").replace("  ", " ")


def test_a_registered_format_reads_bad_input_as_its_own(toy, tmp_path):
    _campaign(tmp_path, _toy, "txt")
    (tmp_path / "runs" / "two.txt").write_text("#toy\nt1|a\n", encoding="utf-8")
    with pytest.raises(CampaignFormatError, match=r"two.txt, line 2: expected topic\|item"):
        load(tmp_path)


def test_without_registration_the_toy_file_is_unknown(tmp_path):
    _toy(tmp_path / "gold.txt", GOLD)
    assert "toy" not in FORMATS
    with pytest.raises(CampaignFormatError, match="unknown format"):
        detect_format(tmp_path / "gold.txt")
    with pytest.raises(UnanimityError, match="unknown format 'toy'"):
        load(tmp_path, format="toy")


def test_registration_refuses_a_second_format_of_one_name():
    with pytest.raises(ValueError, match="registered already"):
        register_format(FormatEntry("long", "again", (CampaignKind.CLUSTERING,), ToyFormat()))


def test_every_registered_reader_is_a_campaign_format_of_its_name():
    for entry in format_entries():
        fmt = reader(entry.name)
        assert isinstance(fmt, CampaignFormat) and fmt.name == entry.name
        assert entry.kinds and entry.summary


def test_the_guide_gives_the_order_of_detection_of_the_registry():
    guide = (Path(__file__).resolve().parents[1] / "docs" / "guide.md").read_text("utf-8")
    said = re.search(r"in this order: ([^\n]+(?:\n[^\n]+)?), first about", guide)
    assert said, "docs/guide.md no longer states the order of detection"
    assert re.findall(r"`(\w+)`", said.group(1)) == list(FORMATS)


def test_a_trec_folder_with_a_saved_score_table_stays_a_trec_campaign(tmp_path):
    """The folder claims are asked in the registry's order: TREC (qrels beside runs/) before a
    score-table folder (scores.<ext>, no gold), as before the registry."""
    folder = write_trec(tmp_path)
    (folder / "scores.csv").write_text("system,topic,metric,value\ngood,q1,P@10,0.5\n",
                                       encoding="utf-8")
    campaign = load(folder)
    assert campaign.scores is None and sorted(campaign.runs) == sorted(TOY_RUNS)
    assert load(folder, format="scores").scores is not None
