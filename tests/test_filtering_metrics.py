"""The filtering measures as metrics of a filtering campaign (docs/providers.md, Filtering; the
R&S paper's Table 7 measures): hand-worked counts, a brute force from the definitions over
random campaigns, refusals, and ``meta-evaluate`` on a filtering campaign.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from metrics.cli import main
from metrics.errors import CampaignAlignmentError, UnanimityError
from metrics.io import load
from metrics.measures.scoring import evaluate
from metrics.model.campaign_kinds import CampaignKind, campaign_kind

ROOT = Path(__file__).resolve().parents[1]
REPLAB = ROOT / "demo_data" / "replab2013"
NAMES = ["accuracy", "filtering_precision", "filtering_recall", "filtering_f", "utility",
         "scaled_utility", "lam"]


def _write(folder: Path, gold: dict, runs: dict[str, dict]) -> Path:
    """gold / runs: {(topic, doc): level}; one TSV each."""
    (folder / "runs").mkdir(parents=True)

    def text(rows: dict) -> str:
        return "topic\titem\tlevel\n" + "".join(f"{t}\t{d}\t{lv}\n" for (t, d), lv in rows.items())
    (folder / "gold.tsv").write_text(text(gold))
    for name, rows in runs.items():
        (folder / "runs" / f"{name}.tsv").write_text(text(rows))
    return folder


def _by_definition(gold: dict, run: dict, topic: str) -> dict[str, float]:
    """Every measure of one topic from the sets, written out from its definition."""
    docs = [d for (t, d) in gold if t == topic]
    rel = {d for d in docs if gold[(topic, d)] == 1}
    acc = {d for d in docs if run.get((topic, d)) == 1}
    tp, fp = len(rel & acc), len(acc - rel)
    fn, tn = len(rel - acc), len(docs) - len(rel | acc)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    u = 2 * tp - fp
    nu = u / (2 * (tp + fn)) if tp + fn else None
    fpr, fnr = (fp + 0.5) / (fp + tn + 0.5), (fn + 0.5) / (tp + fn + 0.5)

    def logit(x: float) -> float:
        return math.log(x / (1 - x)) if x < 1 else math.inf
    z = (logit(fpr) + logit(fnr)) / 2
    return {"accuracy": (tp + tn) / len(docs), "filtering_precision": p, "filtering_recall": r,
            "filtering_f": 0.0 if p == 0 or r == 0 else 2 * p * r / (p + r), "utility": u,
            "scaled_utility": 0.0 if nu is None else (max(nu, -0.5) + 0.5) / 1.5,
            "lam": 100.0 if z == math.inf else 100 / (1 + math.exp(-z))}


def test_hand_worked(tmp_path):
    # gold: a, b relevant, c, d not; the run accepts a and c: TP = FP = FN = TN = 1
    gold = {("q", "a"): 1, ("q", "b"): 1, ("q", "c"): 2, ("q", "d"): 2}
    run = {("q", "a"): 1, ("q", "c"): 1, ("q", "b"): 2, ("q", "d"): 2}
    camp = load(_write(tmp_path / "c", gold, {"r": run}))
    assert campaign_kind(camp) is CampaignKind.FILTERING
    got = dict(zip(evaluate(camp, NAMES)["metric"], evaluate(camp, NAMES)["value"], strict=True))
    # lam: fpr = fnr = 1.5 / 2.5 = 0.6, logit⁻¹(logit 0.6) = 0.6
    assert got == pytest.approx({"accuracy": 0.5, "filtering_precision": 0.5,
                                 "filtering_recall": 0.5, "filtering_f": 0.5, "utility": 1.0,
                                 "scaled_utility": 0.5, "lam": 60.0})
    # R&S of a filtering: P+ P- and R+ R- (the paper's §4.3), here 0.5 x 0.5
    rs = evaluate(camp, "reliability,sensitivity,rs_f")["value"].tolist()
    assert rs == pytest.approx([0.25, 0.25, 0.25])


@pytest.mark.parametrize("seed", range(6))
def test_random_campaigns_equal_the_definitions(tmp_path, seed):
    rng = np.random.default_rng(seed)
    gold, runs = {}, {f"s{i}": {} for i in range(3)}
    for t in range(int(rng.integers(1, 4))):
        for d in range(int(rng.integers(1, 9))):
            gold[(f"t{t}", f"d{d}")] = int(rng.integers(1, 3))
            for run in runs.values():
                if rng.random() < 0.9:  # some documents unlisted: rejected
                    run[(f"t{t}", f"d{d}")] = int(rng.integers(1, 3))
    for run in runs.values():  # every run lists at least one document
        run.setdefault(next(iter(gold)), 1)
    camp = load(_write(tmp_path / "c", gold, runs))
    table = evaluate(camp, [*NAMES, "filtering_f(alpha=0.3)", "utility(a=3,b=2)"])
    assert campaign_kind(camp) is CampaignKind.FILTERING
    for (system, topic, metric), value in table.set_index(
            ["system", "topic", "metric"])["value"].items():
        want = _by_definition(gold, runs[system], topic)
        if metric == "filtering_f(alpha=0.3)":
            p, r = want["filtering_precision"], want["filtering_recall"]
            expected = 0.0 if p == 0 or r == 0 else 1 / (0.3 / p + 0.7 / r)
        elif metric == "utility(a=3, b=2)":
            docs = [d for (t, d) in gold if t == topic]
            acc = [d for d in docs if runs[system].get((topic, d)) == 1]
            expected = sum(3 if gold[(topic, d)] == 1 else -2 for d in acc)
        else:
            expected = want[metric]
        assert value == pytest.approx(expected, abs=1e-12), (system, topic, metric)


def test_missing_documents_are_rejected_or_refused(tmp_path):
    gold = {("q", "a"): 1, ("q", "b"): 2}
    camp = load(_write(tmp_path / "c", gold, {"r": {("q", "b"): 1}}))
    got = evaluate(camp, "accuracy,filtering_recall")["value"].tolist()
    assert got == [0.0, 0.0]  # a unlisted: rejected; b accepted though irrelevant
    with pytest.raises(CampaignAlignmentError):
        evaluate(camp, "accuracy", missing="error")


def test_refused_outside_filtering_campaigns():
    with pytest.raises(UnanimityError) as err:
        evaluate(load(REPLAB), "accuracy")
    text = str(err.value)
    assert "\n" not in text and "metric 'accuracy'" in text
    assert "(kind: clustering)" in text and "filtering metrics apply to the kinds filtering" in text


def test_meta_evaluate_a_filtering_campaign(tmp_path):
    rng = np.random.default_rng(7)
    gold = {(f"t{t}", f"d{d}"): int(rng.integers(1, 3)) for t in range(4) for d in range(12)}
    runs = {f"s{i}": {k: int(rng.integers(1, 3)) for k in gold} for i in range(5)}
    folder = _write(tmp_path / "c", gold, runs)
    assert main(["meta-evaluate", str(folder), "--metrics",
                 "accuracy,utility,lam,filtering_f,rs_f", "--reference",
                 "reliability,sensitivity", "--out", str(tmp_path / "m")]) == 0
    text = (tmp_path / "m" / "meta_evaluation.csv").read_text()
    assert all(name in text for name in ("accuracy", "utility", "lam", "filtering_f", "rs_f"))


def test_the_providers_measures_equal_the_table7_route(tmp_path):
    """The same counts, made by the filtering provider and by meta-evaluate's Table 7 view."""
    from metrics.meta.filtering_table import filtering_scores, filtering_view  # noqa: PLC0415 - the other route under comparison

    rng = np.random.default_rng(11)
    gold = {(f"t{t}", f"d{d}"): int(rng.integers(1, 3)) for t in range(3) for d in range(9)}
    runs = {f"s{i}": {k: int(rng.integers(1, 3)) for k in gold} for i in range(4)}
    camp = load(_write(tmp_path / "c", gold, runs))
    ours = evaluate(camp, "accuracy,filtering_f,utility,lam,rs_f")
    labels = {"accuracy": "accuracy", "filtering_f": "f_measure", "utility": "utility",
              "lam": "lam", "rs_f": "rs_f"}
    theirs = filtering_scores(filtering_view(camp), labels)
    key = ["system", "topic", "metric"]
    merged = ours.merge(theirs, on=key, suffixes=("", "_table7"))
    assert len(merged) == len(ours) == len(theirs)
    assert np.abs(merged["value"] - merged["value_table7"]).max() <= 1e-12


def test_the_table7_route_counts_as_the_provider_does(tmp_path):
    """Table 7's filtering view and the filtering provider share one counting routine and one
    table of closed forms: their accuracy, F, utility and lam% are equal to the last digit
    (R*S keeps its closed form there, compared within 1e-12 above)."""
    from metrics.meta.filtering_table import filtering_scores, filtering_view  # noqa: PLC0415 - the other route under comparison

    rng = np.random.default_rng(5)
    gold = {(f"t{t}", f"d{d}"): int(rng.integers(1, 3)) for t in range(4) for d in range(7)}
    runs = {f"s{i}": {k: int(rng.integers(1, 3)) for k in gold if rng.random() < 0.9}
            for i in range(5)}
    camp = load(_write(tmp_path / "c", gold, runs))
    ours = evaluate(camp, "accuracy,filtering_f,utility,lam")
    labels = {"accuracy": "accuracy", "filtering_f": "f_measure", "utility": "utility",
              "lam": "lam"}
    theirs = filtering_scores(filtering_view(camp), labels)
    merged = ours.merge(theirs, on=["system", "topic", "metric"], suffixes=("", "_table7"))
    assert len(merged) == len(ours) == 4 * 5 * 4
    assert (merged["value"].to_numpy() == merged["value_table7"].to_numpy()).all()
