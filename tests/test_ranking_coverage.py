"""Coverage of a ranking campaign (metrics/analyses/ranking_coverage.py): by hand on a small
TREC campaign, and on TREC DL 2019 against counts made here from the files."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from metrics.analyses.ranking_coverage import ranking_coverage
from metrics.errors import UnanimityError
from metrics.io import load

ROOT = Path(__file__).resolve().parents[1]
SHARED_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


def test_by_hand(tmp_path):
    (tmp_path / "qrels.txt").write_text("q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 0\n")
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.run").write_text(
        "q1 Q0 d1 1 3 a\nq1 Q0 d9 2 2 a\nq1 Q0 d2 3 1 a\nq2 Q0 d8 1 5 a\n")
    (tmp_path / "runs" / "b.run").write_text("q1 Q0 d7 1 1 b\n")
    cov = ranking_coverage(load(tmp_path))
    assert (cov.topics, cov.judged_topics, cov.judgments, cov.relevant) == (2, 2, 3, 1)
    assert cov.topics_without_relevant == ["q2"]
    assert cov.unjudged_documents == 3  # (q1, d9), (q2, d8), (q1, d7)
    runs = cov.runs.set_index("system")
    assert runs.loc["a", "rows"] == 4 and runs.loc["a", "topics"] == 2
    assert runs.loc["a", "judged_at_10"] == pytest.approx(2 / 4)
    assert runs.loc["a", "unjudged_rows"] == 2
    assert (runs.loc["b", "median_depth"], runs.loc["b", "min_depth"]) == (0.5, 0)
    assert runs.loc["b", "topics"] == 1 and runs.loc["b", "judged_at_100"] == 0.0


def test_not_a_ranking_campaign():
    with pytest.raises(UnanimityError, match="is not a ranking campaign"):
        ranking_coverage(load(ROOT / "demo_data" / "replab2013"))


@pytest.mark.skipif(not SHARED_DL.exists(), reason=f"TREC DL 2019 not found at {SHARED_DL}")
def test_trec_dl_counts_from_the_files():
    cov = ranking_coverage(load(SHARED_DL))
    qrels: dict = {}
    with gzip.open(SHARED_DL / "qrels.txt.gz", "rt") as f:
        for line in f:
            q, _, d, g = line.split()
            qrels.setdefault(q, {})[d] = int(g)
    assert cov.judgments == sum(len(v) for v in qrels.values()) == 9260
    assert cov.judged_topics == cov.topics == len(qrels) == 43
    assert cov.relevant == sum(g >= 1 for v in qrels.values() for g in v.values())
    assert cov.topics_without_relevant == [q for q in sorted(qrels)
                                           if not any(g >= 1 for g in qrels[q].values())]
    runs = cov.runs.set_index("system")
    retrieved = set()
    for path in sorted((SHARED_DL / "runs").glob("*.run*")):
        name = path.name.split(".run")[0]
        per: dict = {}
        with gzip.open(path, "rt") as f:
            for line in f:
                q, _, d, _, score, _ = line.split()
                if q in qrels:
                    per.setdefault(q, []).append((float(score), d))
        depth = [len(per.get(q, [])) for q in qrels]
        rows = sum(depth)
        assert runs.loc[name, "rows"] == rows
        assert runs.loc[name, "median_depth"] == np.median(depth)
        assert runs.loc[name, "min_depth"] == min(depth)
        # trec_eval's order: score descending, then document id descending
        tops = {q: [d for _, d in sorted(v, reverse=True)] for q, v in per.items()}
        for k, col in ((10, "judged_at_10"), (100, "judged_at_100")):
            top = [(q, d) for q, docs in tops.items() for d in docs[:k]]
            assert runs.loc[name, col] == pytest.approx(
                sum(d in qrels[q] for q, d in top) / len(top))
        unjudged = {(q, d) for q, docs in tops.items() for d in docs if d not in qrels[q]}
        assert runs.loc[name, "unjudged_rows"] == len(unjudged)
        retrieved |= unjudged
    assert cov.unjudged_documents == len(retrieved)
    assert (runs["rows"] == 860).sum() == 2  # the two re-rankers of the top 20 passages
