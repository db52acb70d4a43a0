"""scripts/table8_trec_dl.py on a small TREC campaign written here (qrels + three runs)."""

from __future__ import annotations

import gzip
import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest
import pytrec_eval

from metrics.meta.meta_evaluation import meta_evaluate

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def table8():
    spec = importlib.util.spec_from_file_location("table8_trec_dl",
                                                  ROOT / "scripts" / "table8_trec_dl.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["table8_trec_dl"] = module
    spec.loader.exec_module(module)
    return module


# topic -> relevant documents (grade 2); d9 (grade 1) counts as irrelevant for binary measures.
# good puts both relevant documents first, mid one of them second, bad none: every measure
# orders good > mid > bad on every topic.
RELEVANT = {"q1": ["d1", "d2"], "q2": ["d3", "d10"], "q3": ["d4", "d5", "d6"]}
RUNS = {
    "good": {"q1": "d1 d2 d7 d8", "q2": "d3 d10 d7 d8", "q3": "d4 d5 d7 d6"},
    "mid": {"q1": "d7 d1 d8 d11", "q2": "d7 d3 d8 d11", "q3": "d7 d4 d8 d11"},
    "bad": {"q1": "d7 d8 d11 d12", "q2": "d8 d7 d11 d12", "q3": "d7 d8 d11 d12"},
}


@pytest.fixture()
def campaign(tmp_path):
    lines = [f"{q} 0 {d} 2" for q, docs in RELEVANT.items() for d in docs]
    lines += [f"{q} 0 d9 1" for q in RELEVANT]
    (tmp_path / "qrels.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "runs").mkdir()
    for name, per in RUNS.items():
        rows = [f"{q} Q0 {d} {i + 1} {10 - i} {name}" for q, docs in per.items()
                for i, d in enumerate(docs.split())]
        (tmp_path / "runs" / f"{name}.run").write_text("\n".join(rows) + "\n")
    return tmp_path


def test_ir_scores_by_hand(table8, campaign):
    table, depth = table8.ir_scores(campaign)
    assert depth.to_dict() == {"bad": 4, "good": 4, "mid": 4}
    got = table.set_index(["system", "topic", "metric"])["value"]
    assert got[("good", "q1", "P@10")] == pytest.approx(2 / 10)
    assert got[("mid", "q1", "MAP")] == pytest.approx((1 / 2) / 2)
    assert got[("good", "q3", "MAP")] == pytest.approx((1 + 1 + 3 / 4) / 3)
    assert got[("mid", "q2", "MRR")] == pytest.approx(1 / 2)
    assert got[("bad", "q2", "MRR")] == 0.0
    assert got[("good", "q3", "RBP(0.8)")] == pytest.approx(0.2 * (1 + 0.8 + 0.8 ** 3))


def test_ir_only_table(table8, campaign, tmp_path, capsys):
    out = tmp_path / "out"
    assert table8.main(["--campaign", str(campaign), "--ir-only", "--min-depth", "0",
                        "--out", str(out)]) == 0
    written = pd.read_csv(out / "table8.csv")
    assert list(written["metric"]) == list(table8.IR_MEASURES)
    table, _ = table8.ir_scores(campaign)
    want = meta_evaluate(table, [], list(table8.IR_MEASURES)).to_dataframe()
    assert written["robustness"].to_numpy() == pytest.approx(want["robustness"].to_numpy())
    # every system is ordered good > mid > bad on every topic by every measure
    assert written["robustness"].to_numpy() == pytest.approx([1.0] * 6)
    assert written["strictness"].to_numpy() == pytest.approx([0.0] * 6)
    assert "3 of 3 systems" in capsys.readouterr().out


SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


def test_trec_dl_scores_equal_trec_eval(table8):
    """One real run: the table's MAP, P@10, MRR (grade >= 2) and nDCG@10 are trec_eval's,
    computed here with pytrec_eval directly (relevance_level=2)."""
    if not SHARED_DL.exists():
        pytest.skip(f"TREC DL 2019 not found at {SHARED_DL}")


    table, depth = table8.ir_scores(SHARED_DL, systems=["bm25base_p"])
    assert depth.to_dict() == {"bm25base_p": 1000.0}
    qrels, run = {}, {}
    with gzip.open(SHARED_DL / "qrels.txt.gz", "rt") as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    with gzip.open(SHARED_DL / "runs" / "bm25base_p.run.gz", "rt") as f:
        for line in f:
            q, _, d, _, score, _ = line.split()
            run.setdefault(q, {})[d] = float(score)
    binary = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P_10", "recip_rank"},
                                            relevance_level=2).evaluate(run)
    graded = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(run)
    got = table.set_index(["topic", "metric"])["value"]
    assert got.index.get_level_values(0).nunique() == 43
    for q in binary:
        assert got[(q, "MAP")] == pytest.approx(binary[q]["map"], abs=1e-12)
        assert got[(q, "P@10")] == pytest.approx(binary[q]["P_10"], abs=1e-12)
        assert got[(q, "MRR")] == pytest.approx(binary[q]["recip_rank"], abs=1e-12)
        assert got[(q, "nDCG@10")] == pytest.approx(graded[q]["ndcg_cut_10"], abs=1e-12)
