"""The compute budget (:mod:`metrics.compute_budget`): analyses whose cost grows faster than
their input are estimated before they allocate, computed in chunks where they can, refused in
one line (size, estimate, limit, option) where they cannot; baselines refused where they mean
nothing.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from score_examples import random_score_table

import metrics.analyses.paper_tables as pt
import metrics.measures.organisation.reliability as rel
from metrics.analyses.baselines import add_baselines
from metrics.cli import main
from metrics.comparison.tie_ranking import tie_ranking
from metrics.compute_budget import ENV, ComputeBudgetError, require, work_limit
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
PR = "bcubed_precision,bcubed_recall"


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


# --- the budget ---------------------------------------------------------------------------------
def test_the_limit_and_its_message(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    assert work_limit() == 1024 * 2**20
    require("x", "y", 1024 * 2**20)  # at the limit: allowed
    with pytest.raises(ComputeBudgetError) as exc:
        require("compare", "9 systems", 3 * 2**30)
    assert str(exc.value) == ("compare on 9 systems would need about 3.0 GiB of memory, over the "
                              "limit of 1.0 GiB: set UNANIMITY_MAX_WORK_MB (MiB) to allow more "
                              "(docs/input-safety.md, \"The compute budget\")")
    monkeypatch.setenv(ENV, "4096")
    require("compare", "9 systems", 3 * 2**30)
    monkeypatch.setenv(ENV, "lots")
    with pytest.raises(UnanimityError, match="UNANIMITY_MAX_WORK_MB='lots' is not a number"):
        work_limit()


# --- compare: every ordered pair -----------------------------------------------------------------
def _scores(tmp_path, systems: int, topics: int = 6) -> Path:
    path = tmp_path / f"scores{systems}.csv"
    random_score_table(systems, topics, seed=systems).to_csv(path, index=False)
    return path


def test_compare_is_refused_before_it_allocates(tmp_path, capsys):
    path = _scores(tmp_path, 1500)  # 2.2 million ordered pairs: about 3.9 GiB
    tracemalloc.start()
    assert main(["compare", str(path), "--metrics", PR, "--out",
                 str(tmp_path / "out")]) == 2
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    err = _one_line(capsys)
    assert "compare on 1,500 systems (2,248,500 ordered pairs, 2 metrics)" in err
    assert "over the limit of 1.0 GiB: set UNANIMITY_MAX_WORK_MB" in err
    assert peak < 100 * 2**20  # the table, not the pairs
    assert not (tmp_path / "out").exists()


def test_compare_runs_within_a_raised_limit_and_refuses_under_a_low_one(tmp_path, monkeypatch,
                                                                       capsys):
    path = _scores(tmp_path, 12)
    assert main(["compare", str(path), "--metrics", PR, "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    monkeypatch.setenv(ENV, "0.1")  # 100 kB: 132 ordered pairs need about 290 kB
    assert main(["compare", str(path), "--metrics", PR, "--out", str(tmp_path / "b")]) == 2
    assert "compare on 12 systems (132 ordered pairs, 2 metrics)" in _one_line(capsys)


def test_the_ranking_with_tie_groups_is_guarded(monkeypatch):
    pairs = pd.DataFrame({"system_a": ["a", "b"], "system_b": ["b", "c"], "uir": [0.5, 0.5]})
    assert tie_ranking(pairs, require_concordant=False).rank_low.tolist() == [1, 2, 3]
    monkeypatch.setenv(ENV, "1")  # 1 MiB: 300 systems need 2 MiB of relations
    names = [f"s{i}" for i in range(297)]
    with pytest.raises(ComputeBudgetError, match=r"the ranking with tie groups on 300 systems"):
        tie_ranking(pairs, ["a", "b", "c"] + names, require_concordant=False)


# --- baselines ----------------------------------------------------------------------------------
def test_baselines_are_refused_on_a_ranking_over_an_unlimited_collection():
    c = load(DATA / "organisation" / "handworked")
    assert c.tail
    for names in ("all-in-one", "combined", "all"):
        with pytest.raises(UnanimityError, match=r"refused on 'handworked organisation', a "
                           r"ranking over an unlimited collection: its \d+ items are the judged "
                           r"or retrieved documents"):
            add_baselines(c, names)


@pytest.mark.skipif(not TREC_DL.is_dir(), reason="../shared/campaigns/trec-dl-2019 is absent")
@pytest.mark.parametrize("argv", [
    ["evaluate", str(TREC_DL), "--metrics", "reliability,sensitivity", "--baselines", "combined"],
    ["evaluate", str(TREC_DL), "--metrics", "reliability,sensitivity", "--baselines", "all"],
    ["compare", str(TREC_DL), "--metrics", "reliability,sensitivity", "--random-baselines",
     "--out", "unused"],
])
def test_the_issue_commands_on_trec_end_in_one_line(argv, capsys):
    assert main(argv) == 2
    err = _one_line(capsys)
    assert "refused on 'trec-dl-2019', a ranking over an unlimited collection" in err
    assert not Path("unused").exists()


def _filtering(tmp_path, n: int) -> Path:
    """An organisation campaign without a tail: one topic of n items on two levels."""
    rng = np.random.default_rng(n)
    folder = tmp_path / f"filtering{n}"
    (folder / "runs").mkdir(parents=True)
    for path in (folder / "gold.csv", folder / "runs" / "r1.csv"):
        pd.DataFrame({"topic": "t1", "item": [f"i{i}" for i in range(n)],
                      "level": rng.integers(1, 3, n)}).to_csv(path, index=False)
    return folder


def test_combined_on_an_organisation_is_counted_then_refused(tmp_path, monkeypatch):
    """The pairs the overlap pass would enumerate are counted exactly before it starts."""
    c = add_baselines(load(_filtering(tmp_path, 40)), "combined,all-in-one")
    seen = []
    real = rel._pair_table

    def counting(side, rows, is_multi, n_items):
        out = real(side, rows, is_multi, n_items)
        seen.append(out[0].size)
        return out

    estimated = []
    real_check = rel._check_pair_budget

    def spy(own, other, is_multi, n_groups):
        estimated.append(int((rel._pairs_per_group(own, is_multi, n_groups)
                              + rel._pairs_per_group(other, is_multi, n_groups)).max()))
        return real_check(own, other, is_multi, n_groups)

    monkeypatch.setattr(rel, "_pair_table", counting)
    monkeypatch.setattr(rel, "_check_pair_budget", spy)
    scores = evaluate(c, ["reliability", "sensitivity"], systems=["combined", "all-in-one"])
    assert scores["value"].notna().all()
    # one group of the combined run (80 occurrences) with the gold (40): 80 * 80 + 40 * 40
    assert max(estimated) == 80 * 80 + 40 * 40 == max(a + b for a, b in zip(seen[::2], seen[1::2]))
    monkeypatch.setenv(ENV, "0.5")  # 512 kB: 8,000 pairs need about 800 kB
    with pytest.raises(ComputeBudgetError, match=r"overlapping outputs on a topic with 8,000 "
                       r"pairs of occurrences would need about 1 MiB"):
        evaluate(c, ["reliability", "sensitivity"], systems=["combined"])


# --- random baselines, a chunk at a time ---------------------------------------------------------
def test_random_baselines_in_chunks_equal_one_pass(monkeypatch):
    c = load(DATA / "replab")
    whole = pt.random_baselines_by_k(c, "bcubed_precision", "bcubed_recall", ks=range(2, 5),
                                     runs=3)
    monkeypatch.setattr(pt, "chunk_rows", lambda _b, rows: 1)  # one run per chunk
    one_by_one = pt.random_baselines_by_k(c, "bcubed_precision", "bcubed_recall",
                                          ks=range(2, 5), runs=3)
    pd.testing.assert_frame_equal(whole, one_by_one)
    monkeypatch.setenv(ENV, "0.01")
    with pytest.raises(ComputeBudgetError, match=r"random baselines on [\d,]+ items"):
        pt.random_baselines_by_k(c, "bcubed_precision", "bcubed_recall", ks=range(2, 5), runs=3)
