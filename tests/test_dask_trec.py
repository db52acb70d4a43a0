"""IR measures of a TREC campaign on the Dask engine, by groups of topics, equal the in-memory
engine's, and the campaign generator of the scale benchmark writes what it says.

The campaigns are written by ``scripts/make_trec_campaign.py`` (small sizes), with edits that
exercise the loader's rules in every group: a run line of a topic the qrels lack, a document
listed twice for a topic, a run that leaves a topic out, tied scores. The in-memory engine is
checked against pytrec_eval and trec_eval elsewhere (tests/test_io_trec.py,
tests/test_trec_reader.py); here each group of topics must give the same value, bit for bit.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("dask")
pytest.importorskip("distributed")

from metrics.engines.dask.trec_topics import evaluate_trec_dask  # noqa: E402
from metrics.errors import UnanimityError  # noqa: E402
from metrics.io import load  # noqa: E402
from metrics.measures.registry import parse_metrics  # noqa: E402
from metrics.measures.scoring import evaluate  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MEASURES = "nDCG@10,AP(rel=2),RR(rel=2),P(rel=2)@10,nDCG"


def _generator():
    spec = importlib.util.spec_from_file_location("make_trec_campaign",
                                                  ROOT / "scripts" / "make_trec_campaign.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def client(dask_client):
    return dask_client  # tests/conftest.py


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    root = _generator().write_campaign(tmp_path_factory.mktemp("trec") / "c", runs=4, topics=7,
                                       depth=30, pool=60, judged=25, seed=3)
    runs = root / "runs"
    first = (runs / "run-000.run").read_text().splitlines()
    # a topic the qrels lack, a document listed twice (the lower copy is skipped), a tie
    q, _, doc, _, score, tag = first[5].split()
    first += [f"q99 Q0 D1 1 3.0 {tag}", f"{q} Q0 {doc} 31 0.5 {tag}"]
    q2, _, doc2, _, _, _ = first[6].split()
    first[6] = f"{q2} Q0 {doc2} 7 {score} {tag}"
    (runs / "run-000.run").write_text("\n".join(first) + "\n")
    # a run that leaves topic q3 out
    lines = (runs / "run-001.run").read_text().splitlines()
    (runs / "run-001.run").write_text("\n".join(x for x in lines if not x.startswith("q3 "))
                                      + "\n")
    return root


def _numpy(path: Path, systems=None) -> pd.DataFrame:
    return evaluate(load(path), MEASURES, systems=systems)


@pytest.mark.parametrize("n_parts", [1, 3, 7])
def test_every_grouping_of_topics_gives_the_in_memory_table(client, campaign, n_parts):
    got = evaluate_trec_dask(str(campaign), parse_metrics(MEASURES), client, n_parts=n_parts)
    want = _numpy(campaign)
    assert len(want) == 4 * 7 * 5
    assert (want["value"] > 0).any() and (want["value"] == 0).any()  # not a degenerate campaign
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_a_subset_of_systems_in_the_order_given(client, campaign):
    got = evaluate_trec_dask(str(campaign), parse_metrics(MEASURES), client,
                             systems=["run-003", "run-001"], n_parts=2)
    pd.testing.assert_frame_equal(got, _numpy(campaign, ["run-003", "run-001"]),
                                  check_exact=True)


def test_measures_other_than_ir_are_refused(client, campaign):
    with pytest.raises(UnanimityError, match=r"bcubed_precision need the numpy engine"):
        evaluate_trec_dask(str(campaign), parse_metrics("nDCG@10,bcubed_precision"), client)


def test_the_command_line_writes_the_numpy_engines_table(campaign, tmp_path):
    out = {engine: tmp_path / f"{engine}.csv" for engine in ("numpy", "dask")}
    for engine, options in (("numpy", []), ("dask", ["--memory-limit", "2GB"])):
        got = subprocess.run([sys.executable, "-m", "metrics", "evaluate", str(campaign),
                              "--metrics", MEASURES, "--engine", engine, *options,
                              "--out", str(out[engine])], capture_output=True, text=True,
                             cwd=ROOT)
        assert got.returncode == 0, got.stderr
    assert "Dask LocalCluster: " in got.stderr  # the Dask engine did the work
    assert out["dask"].read_bytes() == out["numpy"].read_bytes()


def test_the_generator_is_seeded_and_writes_the_sizes_asked(tmp_path):
    gen = _generator()
    a = gen.write_campaign(tmp_path / "a", runs=2, topics=3, depth=10, pool=40, judged=12, seed=5)
    b = gen.write_campaign(tmp_path / "b", runs=2, topics=3, depth=10, pool=40, judged=12, seed=5)
    for rel in ("qrels.txt", "runs/run-000.run", "runs/run-001.run"):
        assert (a / rel).read_bytes() == (b / rel).read_bytes()
    qrels = [line.split() for line in (a / "qrels.txt").read_text().splitlines()]
    assert len(qrels) == 3 * 12 and {int(r[3]) for r in qrels} <= {0, 1, 2, 3}
    run = [line.split() for line in (a / "runs" / "run-000.run").read_text().splitlines()]
    assert len(run) == 3 * 10 and all(len(r) == 6 for r in run)
    for q in ("q1", "q2", "q3"):
        rows = [r for r in run if r[0] == q]
        scores = [float(r[4]) for r in rows]
        assert [int(r[3]) for r in rows] == list(range(1, 11))
        assert scores == sorted(scores, reverse=True) and len({r[2] for r in rows}) == 10
        assert all(len(r[4].split(".")[-1]) <= 4 and 0 < float(r[4]) < 100 for r in rows)
