"""TREC files read as trec_eval 10 reads them (docs/organisation.md §2).

Every check starts from clean lines generated here and rewrites them the ways trec_eval accepts
(any run of whitespace, CRLF, indentation, blank and ``#`` comment lines, fields after the run
tag): the campaign and every score must stay those of the clean files. The campaign made from the
coded ranked lists is checked against the generic organisation builder fed with a ranking ordered
here in plain Python (score descending in single precision, ties by document id descending).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.errors import CampaignFormatError
from metrics.io import detect_format, load, load_files
from metrics.io.organisation_build import build_organisation_campaign
from metrics.io.trec_text import read_trec_columns
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
IR = ["nDCG@10", "nDCG", "AP", "AP(rel=2)", "RR(rel=2)", "P(rel=2)@10", "P@5", "R@100",
      "RBP(p=0.8,rel=2)"]
RS = ["reliability", "sensitivity", "reliability_priority"]
SEPARATORS = ["\t", " ", "\t ", " \t", "  ", "\t\t", " \t ", "\x0b", "\x0c ", "\t\r"]


def _clean(seed: int) -> tuple[list[list[str]], dict[str, list[list[str]]]]:
    """Fields of a qrels and three runs: grades 0-3, tied scores, unjudged documents, a topic
    the qrels lack, a topic a run skips, a document listed twice."""
    rng = random.Random(seed)
    topics = [f"q{t}" for t in range(1, 6)]
    qrels = [[t, "0", f"d{d}", str(rng.choice([0, 0, 1, 2, 3]))]
             for t in topics for d in rng.sample(range(40), 12)]
    runs = {}
    for name in ("alpha", "beta", "gamma"):
        rows = []
        for t in topics[: 4 if name == "beta" else 5] + (["q9"] if name == "gamma" else []):
            for rank, d in enumerate(rng.sample(range(40), 25), start=1):
                # 0.3 and 0.30000001 differ in double precision, not in single: a tie
                score = rng.choice(["1.0", "0.5", "0.3", "0.30000001", str(round(rng.random(), 3))])
                rows.append([t, "Q0", f"d{d}", str(rank), score, name])
        rows.append(list(rows[3][:4]) + ["-1.0", name])  # document listed twice: worse copy
        runs[name] = rows
    return qrels, runs


def _write(folder: Path, qrels, runs, text=lambda rows, kind: "\n".join(map(" ".join, rows)) + "\n"
           ) -> Path:
    (folder / "runs").mkdir(parents=True)
    (folder / "qrels.txt").write_bytes(text(qrels, "qrels").encode())
    for name, rows in runs.items():
        (folder / "runs" / f"{name}.run").write_bytes(text(rows, "run").encode())
    return folder


def _dirty(seed: int):
    """A writer of rows as trec_eval reads them, whitespace and all."""
    rng = random.Random(seed)

    def text(rows, kind):
        lines = [rng.choice(["# written by a test", "   # indented comment", "", " \t "])]
        for fields in rows:
            line = rng.choice(["", " ", "\t", " \t"]) + fields[0]
            for f in fields[1:]:
                line += rng.choice(SEPARATORS).replace("\r", "") + f
            if kind == "run" and rng.random() < 0.3:
                line += rng.choice([" extra", "\tx y z", " # not a comment"])
            lines.append(line + rng.choice(["", " ", "\t"]))
            if rng.random() < 0.1:
                lines.append(rng.choice(["", "#", "# q1 Q0 d1 1 2.0 six_fields", "\t"]))
        eol = rng.choice(["\n", "\r\n"])
        return eol.join(lines) + rng.choice([eol, ""])
    return text


def _table(camp, metrics):
    return evaluate(camp, metrics).set_index(["system", "topic", "metric"])["value"]


@pytest.mark.parametrize("seed", range(4))
def test_any_whitespace_comments_and_extra_fields_give_the_clean_scores(tmp_path, seed):
    qrels, runs = _clean(seed)
    clean = load(_write(tmp_path / "clean", qrels, runs))
    dirty = load(_write(tmp_path / "dirty", qrels, runs, _dirty(seed)))
    assert np.array_equal(clean.item_ids, dirty.item_ids)
    assert clean.gold.equals(dirty.gold)
    assert all(clean.runs[s].equals(dirty.runs[s]) for s in clean.runs)
    pd.testing.assert_series_equal(_table(clean, IR + RS), _table(dirty, IR + RS))
    notes = " ".join(str(n) for n in dirty.report.all_notes())
    assert "comment line(s) (starting with #) skipped" in notes
    assert "fields after the run tag" in notes


def test_fast_and_line_by_line_paths_read_the_same_columns():
    _, runs = _clean(7)
    rows = runs["alpha"]
    clean = read_trec_columns(("\n".join("\t".join(r) for r in rows) + "\n").encode(), "run", "c")
    assert clean.lines is None  # one tab between fields: pyarrow straight away
    crlf = read_trec_columns(("\r\n".join(" ".join(r) for r in rows)).encode(), "run", "c")
    assert crlf.lines is None
    # a comment line that has six fields, in an otherwise clean file
    commented = read_trec_columns(("\t".join(rows[0]) + "\n#\tQ0\td1\t1\t2.0\tr\n"
                                   + "".join("\t".join(r) + "\n" for r in rows[1:])).encode(),
                                  "run", "c")
    text = _dirty(7)(rows, "run")
    dirty = read_trec_columns(text.encode(), "run", "d")
    assert dirty.lines is not None and commented.lines is not None
    for other in (crlf, dirty, commented):
        assert other.qid.equals(clean.qid) and other.docid.equals(clean.docid)
        assert np.array_equal(other.value, clean.value)
    # each row keeps its own line: that line of the text holds the row's document
    lines = text.replace("\r\n", "\n").split("\n")
    for row in (0, 10, len(rows) - 1):
        assert rows[row][2] in lines[dirty.line(row) - 1].split()
    assert commented.line(1) == 3


@pytest.mark.parametrize("separator", ["\t", " ", "\t ", " \t ", "\t\t"])
def test_the_issue_example_scores_as_with_spaces(tmp_path, separator):
    qrels = [["q1", "0", "d0", "1"], ["q1", "0", "d1", "1"]]
    run = [["q1", "Q0", f"d{i}", str(i + 1), str(10 - i), "r"] for i in range(10)]
    folder = _write(tmp_path / "c", qrels, {"r": run},
                    lambda rows, kind: "".join(separator.join(r) + "\n" for r in rows))
    got = _table(load(folder), ["P@10", "AP"])
    assert got[("r", "q1", "P@10")] == pytest.approx(0.2)
    assert got[("r", "q1", "AP")] == 1.0


@pytest.mark.parametrize("seed", [11, 12])
def test_campaign_equals_the_generic_builder_on_a_ranking_ordered_by_hand(tmp_path, seed):
    qrels, runs = _clean(seed)
    camp = load(_write(tmp_path / "c", qrels, runs))
    top = max(int(r[3]) for r in qrels)
    gold = pd.DataFrame({"topic": [r[0] for r in qrels], "item": [r[2] for r in qrels],
                         "level": [top + 1 - int(r[3]) if int(r[3]) >= 1 else 0 for r in qrels],
                         "weight": [float(r[3]) for r in qrels]})
    frames = {}
    for name, rows in runs.items():
        order = sorted(rows, key=lambda r: (r[0], -float(np.float32(float(r[4]))),
                                            [-b for b in r[2].encode()] + [1]))
        seen, out = set(), []
        for r in order:  # trec_eval order; a repeated document keeps its better rank
            if (r[0], r[2]) not in seen:
                seen.add((r[0], r[2]))
                out.append(r)
        level = [sum(1 for o in out[: i + 1] if o[0] == r[0]) for i, r in enumerate(out)]
        frames[name] = pd.DataFrame({"topic": [r[0] for r in out], "item": [r[2] for r in out],
                                     "level": level, "weight": [float(r[4]) for r in out]})
        frames[name] = frames[name][frames[name]["topic"].isin(gold["topic"])]
    ref = build_organisation_campaign(gold, frames, tail=True, name="ref", source="ref",
                                      gold_source="qrels", run_sources={})
    assert np.array_equal(camp.item_ids, ref.item_ids)
    assert np.array_equal(camp.item_topic, ref.item_topic)
    assert camp.gold.equals(ref.gold)
    for name in runs:
        assert camp.runs[name].equals(ref.runs[name])
        assert np.array_equal(camp.runs[name].level, ref.runs[name].level)
    # IR measures from the coded lists = from the memberships (the generic route)
    generic = replace(camp, runs=dict(camp.runs))
    pd.testing.assert_series_equal(_table(camp, IR), _table(generic, IR))


def test_notes_count_comments_and_ignored_fields_with_their_first_line(tmp_path):
    folder = _write(tmp_path / "c", [["q1", "0", "d1", "1"]],
                    {"r": [["q1", "Q0", "d1", "1", "2", "r"], ["q1", "Q0", "d2", "2", "1", "r"]]},
                    lambda rows, kind: "# head\n" + "\n".join(
                        " ".join(r) + (" more fields" if kind == "run" else "") for r in rows))
    notes = {n.problem: n.line for n in load(folder).report.all_notes()}
    assert notes["1 comment line(s) (starting with #) skipped"] == 1
    assert notes["2 line(s) with fields after the run tag: the extra fields ignored, as "
                 "trec_eval ignores them"] == 2


def test_bytes_that_are_not_utf8_are_read_and_noted(tmp_path):
    folder = tmp_path / "c"
    (folder / "runs").mkdir(parents=True)
    (folder / "qrels.txt").write_bytes(b"q1 0 d\xff 1\n")
    (folder / "runs" / "r.run").write_bytes(b"q1 Q0 d\xff 1 1.0 r\n")
    camp = load(folder)
    assert list(camp.item_ids) == ["d\ufffd"]
    assert any("not UTF-8" in str(n) for n in camp.report.all_notes())


def test_numbers_as_trec_eval_writes_them_and_garbage_with_its_line():
    got = read_trec_columns(b"q1 0 d1 +2\nq1 0 d2 -1\n", "qrels", "q")
    assert list(got.value) == [2, -1]
    run = read_trec_columns(b"q1 Q0 d1 1 1e5 r\nq1  Q0 d2 2 +.5 r\n", "run", "r")
    assert list(run.value) == [1e5, 0.5]
    for data, kind, says in [(b"q1 Q0 d\xff 1 abc r\n", "run", "score 'abc' is not a number"),
                             (b"q1 Q0 d1 1 2 r\nq1 Q0 d1 1 1_0 r\n", "run", "'1_0'"),
                             (b"q1 0 d1 1\nq1 0 d1 1.0\n", "qrels", "grade '1.0' is not")]:
        with pytest.raises(CampaignFormatError) as err:
            read_trec_columns(data, kind, "f")
        assert says in str(err.value) and err.value.line == data.count(b"\n")


def test_loose_files_that_start_with_a_comment_are_detected(tmp_path):
    (tmp_path / "qrels.txt").write_text("# judged by hand\nq1 0 d1 1\n")
    (tmp_path / "a.run").write_text("# run a\nq1 Q0 d1 1 0.5 a extra\n")
    assert detect_format(tmp_path / "qrels.txt") == "trec"
    camp = load_files(tmp_path / "qrels.txt", [tmp_path / "a.run"])
    assert _table(camp, ["P@1"])[("a", "q1", "P@1")] == 1.0


def _dirty_copy(src: Path, dst: Path, seed: int) -> Path:
    """TREC DL 2019 rewritten with mixed whitespace, CRLF, comments and extra fields."""
    import gzip  # noqa: PLC0415

    writer = _dirty(seed)
    (dst / "runs").mkdir(parents=True)
    rows = [ln.split() for ln in gzip.decompress((src / "qrels.txt.gz").read_bytes())
            .decode().splitlines() if ln.strip()]
    (dst / "qrels.txt").write_text(writer(rows, "qrels"))
    for path in sorted((src / "runs").glob("*.run.gz")):
        rows = [ln.split() for ln in gzip.decompress(path.read_bytes()).decode().splitlines()]
        (dst / "runs" / path.name.removesuffix(".gz")).write_text(writer(rows, "run"))
    return dst


@pytest.mark.slow
def test_trec_dl_2019_rewritten_any_way_scores_as_the_original(tmp_path):
    if not TREC_DL.is_dir():
        pytest.skip(f"shared TREC DL 2019 campaign not found at {TREC_DL}")
    metrics = ["nDCG@10", "AP(rel=2)", "RR(rel=2)", "P(rel=2)@10"]
    clean = _table(load(TREC_DL), metrics)
    dirty = _table(load(_dirty_copy(TREC_DL, tmp_path / "dl", 3)), metrics)
    assert len(clean) == 37 * 43 * len(metrics)
    pd.testing.assert_series_equal(clean, dirty)


def test_trec_order_by_one_key_equals_the_three_key_sort():
    from metrics.io.trec import _trec_order  # noqa: PLC0415

    rng = np.random.default_rng(5)
    topic = rng.integers(-1, 4, 500).astype(np.int32)
    score = rng.choice([0.3, 0.30000001, -0.0, 0.0, 2.5, -1.0], 500)
    doc = rng.permutation(500).astype(np.int32)
    want = np.lexsort((-doc, -score.astype(np.float32), topic))
    assert np.array_equal(_trec_order(topic, score, doc, 500), want)
    assert np.array_equal(_trec_order(topic, score, doc, 2 ** 62), want)  # the lexsort route
