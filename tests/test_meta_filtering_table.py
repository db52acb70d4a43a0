"""The R&S paper's Table 7 and Figure 1 (metrics/meta/filtering_table.py, ``meta-evaluate
--table 7 / --figure 1``): a filtering campaign made of each run's top k, counted by hand on a
small TREC campaign and by plain set loops on TREC DL 2019."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.cli import main
from metrics.comparison.combine import f_alpha
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.meta.filtering_table import (
    TABLE7_MEASURES,
    figure1,
    filtering_scores,
    filtering_table,
    filtering_view,
)
from tests.trec_toy import RUNS as TOY_RUNS
from tests.trec_toy import write_trec

ROOT = Path(__file__).resolve().parents[1]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"

#: the toy runs, with "bad" ranking only two documents of q3
RUNS = {**TOY_RUNS, "bad": {**TOY_RUNS["bad"], "q3": "d7 d8"}}


@pytest.fixture()
def folder(tmp_path):
    return write_trec(tmp_path, runs=RUNS)


def test_counts_by_hand(folder):
    view = filtering_view(load(folder), accept_top=2)
    s, t = view.systems.index("mid"), view.topics.index("q1")
    # q1: judged d1 d2 d9; accepted by some run d1 d2 (good), d7 d1 (mid), d7 d8 (bad): N = 5
    assert view.documents[t] == 5
    # mid accepts d7, d1: TP 1 (d1), FP 1 (d7), FN 1 (d2), TN 2 (d8, d9: grade 1 < 2)
    assert (view.tp[s, t], view.fp[s, t], view.fn[s, t], view.tn[s, t]) == (1, 1, 1, 2)
    scores = filtering_scores(view).set_index(["system", "topic", "metric"])["value"]
    r, sens = (1 / 2) * (2 / 3), (1 / 2) * (2 / 3)  # TP/(TP+FP) TN/(TN+FN); TP/(TP+FN) TN/(TN+FP)
    assert scores[("mid", "q1", "R*S")] == pytest.approx(f_alpha(r, sens, 0.5))
    assert scores[("mid", "q1", "accuracy")] == pytest.approx(3 / 5)
    assert scores[("mid", "q1", "utility")] == pytest.approx(2 * 1 - 1)


def test_table_and_figure(folder, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["meta-evaluate", str(folder), "--table", "7", "--figure", "1",
                 "--accept-top", "2", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 systems, 3 topics; each run's top 2 accepted" in printed
    table = pd.read_csv(out / "table7.csv")
    assert list(table["metric"]) == ["R*S", "accuracy", "F", "utility", "lam%"]
    view = filtering_view(load(folder), accept_top=2)
    assert table["robustness"].to_numpy() == pytest.approx(
        filtering_table(view).table["robustness"].to_numpy(), nan_ok=True)
    points = pd.read_csv(out / "figure1.csv", dtype={"topic": str})
    assert list(points.columns) == ["system", "topic", "measure", "value", "rs"]
    assert set(points["measure"]) == {"accuracy", "F", "utility", "lam%"}
    assert len(points) == len(figure1(view).points) == 4 * 3 * 3
    scores = filtering_scores(view).set_index(["system", "topic", "metric"])["value"]
    for row in points.itertuples():
        assert row.rs == pytest.approx(scores[(row.system, row.topic, "R*S")])
        assert row.value == pytest.approx(scores[(row.system, row.topic, row.measure)])


def test_every_run_accepting_k_ranks_alike_within_a_topic(folder):
    """When every run accepts k documents of every topic, TP + FP = k and each measure is a
    monotone function of TP on a topic: the per-topic rankings coincide, so per-topic
    Strictness is 0 for every measure (docs/meta-evaluation.md §5)."""
    table = filtering_table(filtering_view(load(folder), accept_top=2)).table
    assert table["per-topic@1"].to_numpy() == pytest.approx([0.0] * len(TABLE7_MEASURES))


@pytest.mark.parametrize("argv, words", [
    (["--table", "7", "--accept-top", "0"], "--accept-top must be a whole number >= 1"),
    (["--figure", "1"], "--figure 1 writes figure1.csv: give --out DIR"),
])
def test_bad_options(folder, argv, words, capsys):
    assert main(["meta-evaluate", str(folder), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1


def test_not_a_filtering_campaign():
    with pytest.raises(UnanimityError, match="needs a ranking campaign or filtering outputs"):
        filtering_view(load(ROOT / "demo_data" / "replab2013"))


def _read(path: Path, qrels: bool) -> dict:
    out: dict = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            p = line.split()
            if qrels:
                out.setdefault(p[0], {})[p[2]] = int(p[3])
            else:
                out.setdefault(p[0], []).append((-float(p[4]), p[2]))
    return out


@pytest.mark.skipif(not SHARED_DL.exists(), reason=f"TREC DL 2019 not found at {SHARED_DL}")
def test_trec_dl_counts_by_sets():
    """The top-10 filtering of TREC DL 2019, counted again with Python sets from the files
    (trec_eval's order: score descending, ties by document id descending)."""
    view = filtering_view(load(SHARED_DL), accept_top=10)
    qrels = _read(SHARED_DL / "qrels.txt.gz", True)
    tops = {}
    for path in sorted((SHARED_DL / "runs").glob("*.run*")):
        run = _read(path, False)
        tops[path.name.split(".run")[0]] = {
            q: {d for _, d in sorted(rows, key=lambda x: (x[0], [-ord(c) for c in x[1]]))[:10]}
            for q, rows in run.items() if q in qrels}
    assert sorted(view.systems) == sorted(tops)
    for ti, q in enumerate(view.topics):
        docs = set(qrels[q]).union(*(t.get(q, set()) for t in tops.values()))
        assert view.documents[ti] == len(docs)
        rel = {d for d, g in qrels[q].items() if g >= 2}
        for si, s in enumerate(view.systems):
            acc = tops[s].get(q, set())
            assert view.tp[si, ti] == len(acc & rel)
            assert view.fp[si, ti] == len(acc - rel)
            assert view.fn[si, ti] == len(rel - acc)
            assert view.tn[si, ti] == len(docs - acc - rel)
    # every output accepts 10 but those of the 14 runs that list 5 passages on topic 855410
    short = np.argwhere(view.tp + view.fp < 10)
    assert len(short) == 14 and {view.topics[t] for _, t in short} == {"855410"}
