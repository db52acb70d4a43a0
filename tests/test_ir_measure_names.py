"""Every IR measure name either works or ends in one line (docs/organisation.md §6).

The names are those ``ir_measures`` parses but no installed provider computes as written; each
must be refused before any work with the measure, the campaign, why, and what would serve it.
Score tables keep their metric names as the user's labels (``MAP`` is not ``AP`` there).
"""

from __future__ import annotations

from pathlib import Path

import ir_measures
import pandas as pd
import pytest

from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.measures.scoring import evaluate

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "trec_small"
HANDWORKED = ROOT / "tests" / "data" / "organisation" / "handworked"

REFUSED = [  # name, what the line must say
    ("RBP(p=0.8)", "cwl_eval computes RBP with rel"),
    ("ERR", "only with gdeval"),
    ("ERR@10", "only with gdeval"),
    ("ERR@20", "only with gdeval"),
    ("alpha_nDCG@20", "pip install ir-measures[pyndeval]"),
    ("SDCG@10", "it needs max_rel (maximum relevance score), e.g. SDCG(max_rel=3)@10"),
    ("INSQ", "it needs max_rel"),
    ("BPM(T=1000,min_rel=2)@10", "T=1000 must be a decimal number"),
    ("P", "it needs cutoff (ranking cutoff threshold), e.g. P@10"),
    ("R", "e.g. R@10"),
]


@pytest.fixture(autouse=True)
def _no_perl(monkeypatch):
    """gdeval (a Perl script) must never be started."""
    def refuse(*args, **kwargs):
        raise AssertionError("gdeval was run")
    monkeypatch.setattr(ir_measures.gdeval, "_evaluator", refuse)


@pytest.mark.parametrize("path, kind", [(SMALL, "a ranking campaign"),
                                        (HANDWORKED, "a document organisation")])
@pytest.mark.parametrize("name, says", REFUSED)
def test_unservable_measures_end_in_one_line(path, kind, name, says):
    camp = load(path)
    with pytest.raises(UnanimityError) as err:
        evaluate(camp, f"reliability,{name}")
    text = str(err.value)
    canonical = str(ir_measures.parse_measure(name))
    assert "\n" not in text and f"metric {canonical!r}" in text
    assert f"campaign {camp.name!r}, {kind}" in text and says in text, text


@pytest.mark.parametrize("metrics", ["P,R", "ERR@10", "alpha_nDCG@20"])
def test_the_command_line_exits_2_with_one_line(capsys, metrics):
    assert main(["evaluate", str(HANDWORKED), "--metrics", metrics]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be computed on campaign" in err


def _direct(run: str, names: list[str]) -> dict:
    """ir_measures on the original files (the run has no tied scores)."""
    qrels = list(ir_measures.read_trec_qrels(str(SMALL / "qrels.txt")))
    rows = list(ir_measures.read_trec_run(str(SMALL / "runs" / f"{run}.run")))
    measures = [ir_measures.parse_measure(n) for n in names]
    return {(r.query_id, str(r.measure)): r.value
            for r in ir_measures.iter_calc(measures, qrels, rows)}


def test_the_fixed_spellings_work_and_equal_ir_measures():
    names = ["SDCG(max_rel=3)@10", "INSQ(max_rel=3)", "BPM(T=1000.0,min_rel=2,max_rel=3)@10",
             "RBP(p=0.8,rel=1)", "MAP", "MRR"]
    table = evaluate(load(SMALL), names, systems=["ranked"])
    ours = table.set_index(["topic", "metric"])["value"]
    ref = _direct("ranked", names)
    assert set(table["metric"]) == {str(ir_measures.parse_measure(n)) for n in names}
    for (topic, metric), value in ref.items():
        assert ours[(topic, metric)] == pytest.approx(value, abs=1e-12), (topic, metric)


def _score_table(path: Path) -> Path:
    rows = [(s, f"t{t}", m, v) for s, base in (("a", 0.6), ("b", 0.3), ("c", 0.1))
            for t in range(6) for m, v in (("MAP", base + 0.01 * t), ("MRR", base - 0.02 * t))]
    pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(path, index=False)
    return path


def test_score_table_names_are_labels_not_aliases(tmp_path):
    table = _score_table(tmp_path / "scores.csv")
    assert main(["compare", str(table), "--metrics", "MAP,MRR", "--out", str(tmp_path / "c")]) == 0
    assert main(["meta-evaluate", str(table), "--metrics", "MAP", "--reference", "MRR",
                 "--out", str(tmp_path / "m")]) == 0
    systems = pd.read_csv(tmp_path / "c" / "systems.csv").set_index("system")
    assert systems.loc["a", "precision"] == pytest.approx(0.6 + 0.01 * 2.5)  # mean MAP


def test_an_alias_asked_of_a_campaign_keeps_its_spelling(tmp_path):
    out = tmp_path / "c"
    assert main(["compare", str(SMALL), "--metrics", "MAP,MRR", "--out", str(out)]) == 0
    scores = evaluate(load(SMALL), "AP,RR").groupby(["system", "metric"])["value"].mean()
    systems = pd.read_csv(out / "systems.csv").set_index("system")
    for system in systems.index:
        assert systems.loc[system, "precision"] == pytest.approx(scores[(system, "AP")])
        assert systems.loc[system, "recall"] == pytest.approx(scores[(system, "RR")])
    assert main(["compare", str(SMALL), "--metrics", "MAP,AP", "--out", str(tmp_path / "d")]) == 2
