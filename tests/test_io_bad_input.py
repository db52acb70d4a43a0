"""Bad input: every error (or note) names the file, the line and the problem (docs/measures.md
§2)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import load, load_files
from metrics.io.long_table import read_long
from metrics.io.replab import read_replab

DATA = Path(__file__).resolve().parent / "data"
BAD = DATA / "bad"
LONG = DATA / "long" / "csv_campaign"
REPLAB = DATA / "replab"


def _campaign(tmp_path: Path, src: Path = LONG) -> Path:
    root = tmp_path / "campaign"
    shutil.copytree(src, root)
    return root


def _error(fn, *args, **kw) -> CampaignFormatError:
    with pytest.raises(CampaignFormatError) as err:
        fn(*args, **kw)
    return err.value


# --- shape of the file --------------------------------------------------------------------------
def test_too_many_columns():
    e = _error(read_long, BAD / "wrong_columns.tsv")
    assert e.path == str(BAD / "wrong_columns.tsv") and e.line == 3
    assert e.problem == "wrong number of columns: expected 3, found 4"
    assert str(e).startswith(f"{BAD / 'wrong_columns.tsv'}, line 3: ")


def test_too_few_columns_after_a_blank_line():
    e = _error(read_long, BAD / "short_row_after_blank.csv")
    assert e.line == 4 and "missing value for cluster" in e.problem


def test_line_numbers_after_blank_and_space_only_lines(tmp_path):
    p = tmp_path / "run.csv"
    p.write_text("\ntopic,item,cluster\njaguar,d01,a\n   \njaguar,d02,b\n\njaguar,d01,a\n")
    raw = read_long(p)
    assert raw.line.tolist() == [3, 5, 7]
    root = _campaign(tmp_path)
    shutil.copy(p, root / "runs" / "dup.csv")
    rep = load(root).report.systems["dup"]
    assert rep.duplicate_rows == 1
    assert any("(first at line 7)" in n.problem for n in rep.notes)
    p.write_text("\n\ntopic,item,cluster,colour\n")
    assert _error(read_long, p).line == 3  # the header's line


def test_wrong_column_count_in_a_run_of_a_campaign(tmp_path):
    root = _campaign(tmp_path)
    (root / "runs" / "hac.csv").write_text("topic,item,cluster\njaguar,d01,k0\njaguar,d02,k1,x\n")
    e = _error(load, root)
    assert e.path == str(root / "runs" / "hac.csv") and e.line == 3
    assert "expected 3, found 4" in e.problem


def test_empty_file(tmp_path):
    root = _campaign(tmp_path)
    (root / "runs" / "hac.csv").write_text("")
    e = _error(load, root)
    assert e.path == str(root / "runs" / "hac.csv") and e.problem == "file is empty"
    p = tmp_path / "empty.tsv.gz"
    p.write_bytes(gzip.compress(b"\n\n"))
    e = _error(read_replab, p)
    assert e.problem == "file is empty"


def test_header_only_gold(tmp_path):
    root = _campaign(tmp_path, REPLAB)
    (root / "gold.tsv").write_text('"entity_id"\t"tweet_id"\t"topic"\n')
    e = _error(load, root)
    assert e.path == str(root / "gold.tsv") and "no item" in e.problem


def test_bad_header(tmp_path):
    p = tmp_path / "gold.csv"
    p.write_text("topic,item,cluster,colour\nq,d,a,red\n")
    e = _error(read_long, p)
    assert e.line == 1 and "header has columns topic, item, cluster, colour" in e.problem


def test_unknown_format(tmp_path):
    root = _campaign(tmp_path)
    (root / "runs" / "hac.csv").write_text("a;b;c\n1;2;3\n")
    e = _error(load, root)
    assert e.line == 1 and "unknown format" in e.problem and e.path.endswith("hac.csv")


# --- encodings ----------------------------------------------------------------------------------
def test_latin1_fallback_is_a_note():
    raw = read_long(BAD / "latin1.tsv")
    assert "Café opening" in set(raw.label)
    (note,) = raw.notes
    assert note.path == str(BAD / "latin1.tsv") and note.line == 3
    assert "not valid utf-8 (byte 0xe9)" in note.problem and "Latin-1" in note.problem


def test_latin1_note_reaches_the_report(tmp_path):
    root = tmp_path / "c"
    (root / "runs").mkdir(parents=True)
    shutil.copy(BAD / "latin1.tsv", root / "gold.tsv")
    shutil.copy(BAD / "latin1.tsv", root / "runs" / "copy.tsv")
    c = load(root)
    notes = c.report.all_notes()
    assert sum("read as Latin-1" in n.problem for n in notes) == 2
    assert c.report.systems["copy"].notes[0].line == 3


# --- gzip ---------------------------------------------------------------------------------------
def test_truncated_gzip(tmp_path):
    root = _campaign(tmp_path, REPLAB)
    real = root / "runs" / "best_replab.tsv.gz"
    data = real.read_bytes()
    real.write_bytes(data[: len(data) * 2 // 3])  # cut a real .gz file
    e = _error(load, root)
    assert e.path == str(real)
    assert "gzip file is truncated or corrupt" in e.problem


def test_truncated_gzip_gold(tmp_path):
    root = _campaign(tmp_path, REPLAB)
    gz = root / "gold.tsv.gz"
    data = gzip.compress((root / "gold.tsv").read_bytes())
    (root / "gold.tsv").unlink()
    gz.write_bytes(data[:100])
    e = _error(load, root)
    assert e.path == str(gz) and "truncated" in e.problem


def test_truncated_gzip_whose_start_is_readable(tmp_path):
    # the format is detected from the intact start; the full read then finds the cut
    rows = "".join(f"jaguar,d{i:05d},c{i % 7}\n" for i in range(40000))
    data = gzip.compress(("topic,item,cluster\n" + rows).encode())
    root = _campaign(tmp_path)
    gz = root / "runs" / "big.csv.gz"
    gz.write_bytes(data[: len(data) * 3 // 4])
    e = _error(load, root)
    assert e.path == str(gz) and "truncated or corrupt" in e.problem


# --- alignment with the gold -------------------------------------------------------------------
def test_system_with_no_topic_in_common(tmp_path):
    root = _campaign(tmp_path)
    (root / "runs" / "hac.csv").write_text("topic,item,cluster\nmercury,d01,k0\nmercury,d02,k1\n")
    e = _error(load, root)
    assert e.path == str(root / "runs" / "hac.csv")
    assert "'hac' has no (topic, item) in common with the gold" in e.problem


def test_extra_topic_is_counted_and_noted(tmp_path):
    root = _campaign(tmp_path)
    with open(root / "runs" / "hac.csv", "a") as fh:
        fh.write("mercury,d01,k0\nmercury,d02,k0\n")
    rep = load(root).report.systems["hac"]
    assert rep.extra_topics == ["mercury"]
    assert rep.extra_items == 3  # jaguar/d09 and the two mercury documents
    assert rep.topics == 3  # jaguar, python and the extra mercury
    assert any("1 topic(s) not in the gold" in n.problem and "'mercury'" in n.problem
               for n in rep.notes)


def test_missing_and_extra_items_and_missing_topics_per_system():
    c = load(LONG)
    hac = c.report.systems["hac"]
    assert hac.missing_items == 5  # jaguar/d05 and the 4 apple documents
    assert hac.extra_items == 1  # jaguar/d09
    assert hac.missing_topics == 1 and hac.missing_topic_names == ["apple"]
    frame = c.report.to_dataframe().set_index("system")
    assert frame.loc["hac", "missing_items"] == 5 and frame.loc["kmeans", "missing_items"] == 0


def test_exact_duplicate_rows_noted_counted_first_kept(tmp_path):
    root = _campaign(tmp_path)
    shutil.copy(BAD / "duplicate_rows.csv", root / "runs" / "dups.csv")
    c = load(root)
    rep = c.report.systems["dups"]
    assert rep.rows == 5 and rep.duplicate_rows == 2
    (note,) = [n for n in rep.notes if "duplicate" in n.problem]
    assert note.path == str(root / "runs" / "dups.csv")
    assert "2 exact duplicate row(s) of dups ignored (first at line 4)" in note.problem
    m = c.runs["dups"]
    assert m.n_rows == 3 and not m.is_overlapping


def test_exact_duplicates_in_the_gold(tmp_path):
    root = _campaign(tmp_path)
    with open(root / "gold.csv", "a") as fh:
        fh.write("apple,d01,company\n")
    c = load(root)
    assert c.report.gold.duplicate_rows == 1 and c.n_items == 14
    assert "line 17" in c.report.gold.notes[0].problem


def test_several_labels_for_one_item_is_overlap_not_error(tmp_path):
    root = _campaign(tmp_path)
    with open(root / "runs" / "hac.csv", "a") as fh:
        fh.write("jaguar,d01,k1\njaguar,d01,k2\n")
    c = load(root)
    rep = c.report.systems["hac"]
    assert rep.overlapping_items == 1 and rep.duplicate_rows == 0
    m = c.runs["hac"]
    assert m.is_overlapping and m.overlapping_items() == 1


# --- weights ------------------------------------------------------------------------------------
def test_weight_not_a_number_long(tmp_path):
    p = tmp_path / "run.csv"
    p.write_text("topic,item,cluster,weight\nq,d1,a,0.5\nq,d2,a,\nq,d3,b,heavy\n")
    e = _error(read_long, p)
    assert e.line == 4 and e.problem == "weight 'heavy' is not a number"


def test_weight_not_a_number_semeval(tmp_path):
    root = _campaign(tmp_path, DATA / "semeval" / "sem2007")
    shutil.copy(BAD / "bad_weight.key", root / "runs" / "bad.key")
    e = _error(load, root)
    assert e.path == str(root / "runs" / "bad.key") and e.line == 2
    assert "weight 'high' of label 'add.v.c0/high' is not a number" == e.problem


# --- loose files --------------------------------------------------------------------------------
def test_load_files_without_runs_and_missing_file(tmp_path):

    with pytest.raises(UnanimityError, match="at least one run"):
        load_files(LONG / "gold.csv", [])
    e = _error(load_files, LONG / "gold.csv", [tmp_path / "nope.csv"])
    assert "cannot read file" in e.problem
    e = _error(load, tmp_path / "nope")
    assert e.problem == "no such file or folder"
