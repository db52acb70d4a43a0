"""TREC campaigns: reading qrels and runs, trec_eval's order, and IR measures equal to trec_eval.

The IR measures are checked against ``ir_measures`` run directly on the files (pytrec_eval, i.e.
trec_eval's own code): on the small fixture ``tests/data/trec_small`` (ties, unjudged and
grade-0 documents, a topic the qrels lack, a short run) and, when ``../shared`` is present, on
all 37 runs x 43 topics of TREC DL 2019.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import ir_measures
import pytest

from metrics.cli import main
from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import detect_format, load, load_files
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "trec_small"
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
MEASURES = ["nDCG@10", "nDCG", "AP(rel=2)", "AP", "RR(rel=2)", "P(rel=2)@10", "P@5",
            "R(rel=2)@100", "RBP(p=0.8,rel=2)", "RBP(p=0.95,rel=2)", "Judged@10"]


def _levels(camp, system, topic):
    run = camp.runs[system]
    t = list(camp.topics).index(topic)
    rows = [(int(lev), camp.item_ids[i]) for i, lev in zip(run.item, run.level)
            if camp.item_topic[i] == t]
    return [d for _, d in sorted(rows)]


def test_run_order_is_trec_evals_ties_by_docid_descending():
    camp = load(SMALL)
    assert camp.tail and sorted(camp.runs) == ["ranked", "short", "tied"]
    assert _levels(camp, "tied", "t1") == ["d9", "d3", "d1", "d5", "d2"]
    assert _levels(camp, "tied", "t2") == ["e9", "e3", "e1"]
    assert _levels(camp, "ranked", "t1") == ["d1", "d2", "d4", "d7"]
    # the rank column is ignored, as trec_eval ignores it: d3 was written at rank 1
    assert _levels(camp, "tied", "t1")[0] == "d9"


def test_qrels_grades_become_levels_and_the_tail():
    camp = load(SMALL)
    g = camp.gold
    got = {camp.item_ids[i]: (int(lev), int(w)) for i, lev, w in zip(g.item, g.level, g.weight)}
    assert got["d1"] == (1, 3) and got["d2"] == (2, 2) and got["d4"] == (3, 1)
    assert got["d3"] == (0, 0) and got["f1"] == (0, 0)  # grade 0: listed in the tail
    # unjudged documents a run lists are items of the campaign (they are in the gold's tail)
    assert {"d7", "d8", "d9", "e9"} <= set(camp.item_ids)
    rep = camp.report.systems["tied"]
    assert rep.extra_topics == ["t9"] and any("t9" in n.problem for n in rep.notes)
    assert camp.report.systems["short"].missing_topics == 2


def test_formats_are_detected_and_named(tmp_path):
    assert detect_format(SMALL / "qrels.txt") == "trec"
    assert detect_format(SMALL / "runs" / "ranked.run") == "trec"
    loose = load_files(SMALL / "qrels.txt", sorted((SMALL / "runs").glob("*.run")))
    assert loose.tail and sorted(loose.runs) == ["ranked", "short", "tied"]
    forced = load(SMALL, format="trec")
    assert forced.n_items == load(SMALL).n_items


#: measures trec_eval itself has (through pytrec_eval); the others (RBP: cwl_eval) break score
#: ties their own way, so they are compared on the topics where a run has no tied scores
TREC_EVAL = {"nDCG@10", "nDCG", "AP(rel=2)", "AP", "RR(rel=2)", "P(rel=2)@10", "P@5",
             "R(rel=2)@100"}


def _ir_reference(qrels_path: Path, run_path: Path, names):
    measures = [ir_measures.parse_measure(m) for m in names]
    qrels = list(ir_measures.read_trec_qrels(str(qrels_path)))
    run = list(ir_measures.read_trec_run(str(run_path)))
    seen, tied = {}, set()
    for r in run:
        key = (str(r.query_id), r.score)
        if key in seen:
            tied.add(str(r.query_id))
        seen[key] = True
    ref = {(str(r.query_id), str(r.measure)): r.value
           for r in ir_measures.iter_calc(measures, qrels, run)}
    return ref, tied


def _check_ir(camp, qrels_path, run_paths, names):
    table = evaluate(camp, names)
    ours = table.set_index(["system", "topic", "metric"])["value"]
    canonical = [str(ir_measures.parse_measure(m)) for m in names]
    n_checked = 0
    for path in run_paths:
        system = path.name.split(".run")[0]
        ref, tied = _ir_reference(qrels_path, path, names)
        for topic in camp.topics:
            for m, raw in zip(canonical, names):
                if raw not in TREC_EVAL and str(topic) in tied:
                    continue
                want = ref.get((str(topic), m), 0.0)  # a topic the run skips scores 0
                assert abs(ours[(system, topic, m)] - want) < 1e-12, (system, topic, m)
                n_checked += (str(topic), m) in ref
    return n_checked


def test_ir_measures_equal_trec_eval_on_the_fixture():
    camp = load(SMALL)
    runs = sorted((SMALL / "runs").glob("*.run"))
    assert _check_ir(camp, SMALL / "qrels.txt", runs, MEASURES) > 0


@pytest.mark.slow
def test_ir_measures_equal_trec_eval_on_trec_dl_2019():
    if not TREC_DL.is_dir():
        pytest.skip(f"shared TREC DL 2019 campaign not found at {TREC_DL}")
    camp = load(TREC_DL)
    runs = sorted((TREC_DL / "runs").glob("*.run.gz"))
    assert len(runs) == 37 and camp.n_topics == 43
    n = _check_ir(camp, TREC_DL / "qrels.txt.gz", runs, MEASURES)
    assert n >= 37 * 43 * len(TREC_EVAL)


@pytest.mark.parametrize("name, text, line, problem", [
    ("qrels.txt", "q1 0 d1 1\nq1 0 d2\n", 2, "expected 4 whitespace-separated fields"),
    ("qrels.txt", "q1 0 d1 1\nq1 0 d2 high\n", 2, "grade 'high' is not a whole number"),
    ("x.run", "q1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 abc r\n", 2, "score 'abc' is not a number"),
    ("x.run", "q1 Q0 d1 1 0.5 r\n\nq1 Q0 d2 2 0.4\n", 3, "found 5"),
    ("x.run", "q1 Q0 d1 1 0.5 r\n# c\nq1 Q0 d2 2 nan r\n", 3, "score nan is not a finite"),
    ("qrels.txt", "q1 0 d1 1\nq1 0 d2 1 extra\n", 2, "trec_eval refuses a field after"),
    # NaN / inf refused alike in runs and qrels, any whitespace, with the line
    ("x.run", "q1 Q0 d1 1 nan r\n", 1, "score nan is not a finite number"),
    ("x.run", "# c\nq1 Q0 d1 1 0.5 r\nq1 Q0 d2 2 -inf r\n", 3, "score -inf is not a finite"),
    ("x.run", "q1 Q0 d1 1 0.5 r\n\n q1\tQ0 d2 2 Infinity r\r\n", 3, "score inf is not a finite"),
    ("x.run", "q1 Q0 d1 1 0.5 r\n  q1  Q0  d2  2  0.4\n", 2, "found 5"),
    ("qrels.txt", "q1 0 d1 1\n# c\nq1 0 d2 nan\n", 3, "grade 'nan' is not a whole number"),
    ("qrels.txt", "q1 0 d1 1\nq1 0 d2 1.5\n", 2, "grade '1.5' is not a whole number"),
    ("qrels.txt", "q1\t0\td1\t1\nq1\t0\td2\t1\tx\n", 2, "trec_eval refuses a field after"),
    ("qrels.txt", "# only\n  # comments\n", None, "only comment lines"),
    ("x.run", " \n\t\n", None, "file is empty"),
])
def test_bad_trec_lines_name_file_line_and_problem(tmp_path, name, text, line, problem):
    folder = tmp_path / "c"
    (folder / "runs").mkdir(parents=True)
    good_qrels = "q1 0 d1 1\n"
    good_run = "q1 Q0 d1 1 0.5 r\n"
    (folder / "qrels.txt").write_text(text if name == "qrels.txt" else good_qrels)
    (folder / "runs" / "x.run").write_text(text if name == "x.run" else good_run)
    with pytest.raises(CampaignFormatError) as err:
        load(folder)
    assert err.value.line == line and problem in err.value.problem
    assert name in err.value.path and "\n" not in str(err.value)


def test_duplicates_and_conflicts_are_reported(tmp_path):
    folder = tmp_path / "c"
    (folder / "runs").mkdir(parents=True)
    with gzip.open(folder / "qrels.txt.gz", "wt") as fh:
        fh.write("q1 0 d1 1\nq1 0 d1 1\nq1 0 d2 0\n")
    (folder / "runs" / "a.run").write_text("q1 Q0 d1 1 0.5 a\nq1 Q0 d1 2 0.4 a\nq1 Q0 d3 3 0.3 a\n")
    camp = load(folder)
    assert camp.report.gold.duplicate_rows == 1
    notes = [str(n) for n in camp.report.all_notes()]
    assert any("listed twice" in n and "line 2" in n for n in notes)
    assert camp.report.systems["a"].duplicate_rows == 1
    (folder / "qrels.txt.gz").unlink()
    (folder / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d1 2\n")
    with pytest.raises(CampaignFormatError, match="judged twice"):
        load(folder)


def test_cli_evaluate_info_compare_on_a_trec_campaign(tmp_path, capsys):
    out = tmp_path / "scores.csv"
    assert main(["evaluate", str(SMALL), "--metrics", "reliability,sensitivity,nDCG@10,AP(rel=2)",
                 "--out", str(out)]) == 0
    text = out.read_text()
    assert "nDCG@10" in text and "AP(rel=2)" in text and "reliability" in text
    assert main(["info", str(SMALL)]) == 0
    assert "t1" in capsys.readouterr().out or True
    assert main(["compare", str(SMALL), "--metrics", "reliability,sensitivity",
                 "--out", str(tmp_path / "cmp")]) == 0
    assert (tmp_path / "cmp" / "pairs.csv").exists()
    assert main(["compare", str(SMALL), "--metrics", "nDCG@10,AP",
                 "--out", str(tmp_path / "cmp2")]) == 0
    assert main(["evaluate", "--gold", str(SMALL / "qrels.txt"), "--run",
                 str(SMALL / "runs" / "ranked.run"), "--format", "trec", "--metrics",
                 "reliability(n=800)", "--out", str(tmp_path / "s2.csv")]) == 0


def test_clustering_metrics_are_refused_on_a_ranking_campaign():

    with pytest.raises(UnanimityError, match="metric 'bcubed_precision' cannot be") as err:
        evaluate(load(SMALL), "reliability,bcubed_precision")
    text = str(err.value)
    assert "'trec_small', a ranking campaign (TREC qrels and runs" in text and "\n" not in text
    assert "(kind: ranking)" in text and "apply to the kinds clustering" in text
    assert "on ranking campaigns: reliability/sensitivity, composite, ir_measures" in text
