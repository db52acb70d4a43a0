"""Type-level measures (Reichart, Abend, Rappoport 2010): the paper's example, hand-worked
values, brute force over every mapping of tiny cases, monosemous sanity."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typelevel_bruteforce import (
    MEASURE_OF,
    VALUE_OF,
    brute_best,
    brute_score,
    tiny_entries,
    write_token_corpus,
)

from metrics.errors import UnanimityError
from metrics.io import load_files
from metrics.measures.registry import available_metrics, direction, parse_metric
from metrics.measures.scoring import evaluate
from metrics.measures.typelevel.type_scores import (
    MAPPINGS,
    MEASURES,
    TypeEntries,
    best_mapping,
    score_mapping,
    type_scores,
)

# --- the paper's example (§3 and §4.1) -------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
def test_paper_example_type_measures_give_recall_1_and_precision_r_over_n(n):
    for r in range(1, n + 1):
        gold = [set(c) for c in itertools.combinations(range(n), r)]  # equal class sizes
        induced = [set(range(n)) for _ in gold]  # every type in every cluster, |K| = |C|
        e = TypeEntries.from_sets(gold, induced)
        for mapping in MAPPINGS:  # §4.1: "This is true both for 1-1 and M-1 mappings."
            s = type_scores(e, mapping)
            assert s.macro_recall == pytest.approx(1.0)
            assert s.macro_precision == pytest.approx(r / n)
            assert s.macroc_f == pytest.approx(s.macro_f)
            assert s.micro_recall == pytest.approx(1.0)
            assert s.micro_precision == pytest.approx(r / n)
            assert s.micro_f == pytest.approx(2 * r / (r + n))  # per-type F with P = r/n, R = 1
            for measure in ("macro", "micro"):
                assert s.mappings[measure].exact, (mapping, measure)


def _write_example_corpus(folder: Path, n: int, r: int) -> tuple[Path, Path]:
    """A token corpus for the example: each type has one token per (gold tag, cluster) pair."""
    gold_lines, run_lines = [], []
    for ti, tags in enumerate(itertools.combinations(range(n), r)):
        word = f"w{ti}"
        tid = 0
        for c in tags:
            for k in range(n):
                tid += 1
                gold_lines.append(f"{tid}\t{word}\t_\tT{c}\tT{c}\t_\t0\tdep\t_\t_")
                run_lines.append(f"{word}\tk{k}")
        gold_lines.append("")
        run_lines.append("")
    gold, run = folder / "gold.conllu", folder / "all.tsv"
    gold.write_text("\n".join(gold_lines) + "\n", encoding="utf-8")
    run.write_text("\n".join(run_lines) + "\n", encoding="utf-8")
    return gold, run


def test_paper_example_token_measures_ignore_r(tmp_path):
    """Token-level V, NVI and accuracies are the same for every r (the paper's criticism), while
    type-level MacroI precision is r/n."""
    n = 4
    rows = []
    for r in range(1, n + 1):
        d = tmp_path / f"r{r}"
        d.mkdir()
        gold, run = _write_example_corpus(d, n, r)
        camp = load_files(gold, [run])
        table = evaluate(camp, "v_measure,nvi,accuracy_m1,accuracy_11,type_macro_precision,"
                         "type_macro_recall,type_macro_precision(mapping=many_to_one)")
        rows.append(dict(zip(table["metric"], table["value"])))
    for r, row in enumerate(rows, start=1):
        assert row["v_measure"] == pytest.approx(0.0, abs=1e-12)  # the worst value
        assert row["nvi"] == pytest.approx(rows[0]["nvi"])
        assert row["accuracy_m1"] == pytest.approx(1 / n)
        assert row["accuracy_11"] == pytest.approx(1 / n)
        assert row["type_macro_recall"] == pytest.approx(1.0)
        assert row["type_macro_precision"] == pytest.approx(r / n)
        assert row["type_macro_precision(mapping=many_to_one)"] == pytest.approx(r / n)


# --- hand-worked values on a small tagged corpus ---------------------------------------------
#   token  gold  cluster          types: the {DET}/{1}, dog {NOUN}/{2}, runs {VERB,NOUN}/{3,2},
#   the    DET   1                       run {NOUN}/{3}, fast {ADV,ADJ}/{3,2}
#   dog    NOUN  2                W (types shared) k1: DET 1; k2: NOUN 2 (dog, runs), VERB 1,
#   runs   VERB  3                ADV 1, ADJ 1; k3: NOUN 2 (runs, run), VERB 1, ADV 1, ADJ 1
#   the    DET   1                Σ|A_i| = Σ|B_i| = 7
#   run    NOUN  3
#   runs   NOUN  2
#   fast   ADV   3
#   fast   ADJ   2
HAND = [("the", "DET", "1"), ("dog", "NOUN", "2"), ("runs", "VERB", "3"), ("the", "DET", "1"),
        ("run", "NOUN", "3"), ("runs", "NOUN", "2"), ("fast", "ADV", "3"), ("fast", "ADJ", "2")]
HAND_EXPECTED = {
    # 1-1: k1->DET, k2->NOUN, k3->VERB: IM = 1 + 2 + 1 = 4 of 7 gold and 7 induced entries
    # (under 1-1 |h(B_i)| = |B_i|)
    "type_macro_precision": 4 / 7, "type_macro_recall": 4 / 7, "type_macro_f": 4 / 7,
    "type_macroc_f": 4 / 7,
    # per-type weights 1/(|A|+|B|): the 1/2, dog 1/2, runs 1/4, run 1/2, fast 1/4;
    # best 1-1 sum .5 + .75 + .25 = 1.5 -> MicroI = (2/5) 1.5; here |A_i| = |B_i| for every
    # type, so P_i = R_i = F_i
    "type_micro_f": 0.6, "type_micro_precision": 0.6, "type_micro_recall": 0.6,
    # |k1| = 1, |k2| = |k3| = 3, N* = 7; |DET| = 1, |NOUN| = 3, others 1:
    # k1-DET 1/7 + k2-NOUN (3/7)(2*2/6) + k3-VERB (3/7)(2*1/4) = 9/14; P_z = 1, 2/3, 1/3 and
    # R_z = 1, 2/3, 1 weighted 1/7, 3/7, 3/7
    "type_microc_f": 9 / 14, "type_microc_precision": 4 / 7, "type_microc_recall": 6 / 7,
    # M-1 (the best mapping of every measure, the only one): k1 -> DET, k2, k3 -> NOUN.
    # h(B_runs) = {NOUN} (a set): IM = the 1 + dog 1 + runs 1 + run 1 + fast 0 = 4,
    # Σ|h(B_i)| = 5, Σ|A_i| = 7: P = 4/5, R = 4/7, F = 8/12
    "type_macro_precision(mapping=many_to_one)": 4 / 5,
    "type_macro_recall(mapping=many_to_one)": 4 / 7,
    "type_macro_f(mapping=many_to_one)": 2 / 3,
    "type_macroc_f(mapping=many_to_one)": 2 / 3,
    # M-1 MicroI: F_i = 1, 1, 2/3 (runs: 2*1/(2+1)), 1, 0 -> 11/15; P_i = 1, 1, 1, 1, 0;
    # R_i = 1, 1, 1/2, 1, 0
    "type_micro_f(mapping=many_to_one)": 11 / 15,
    "type_micro_precision(mapping=many_to_one)": 4 / 5,
    "type_micro_recall(mapping=many_to_one)": 7 / 10,
    # M-1 MicroC: z_DET = {the} F = 1; z_NOUN = {dog, runs, run, fast}, 3 of them NOUN:
    # F = 6/7, P = 3/4, R = 1; N* = 5 -> (1 + 4 * 6/7) / 5, (1 + 3) / 5, (1 + 4) / 5
    "type_microc_f(mapping=many_to_one)": 31 / 35,
    "type_microc_precision(mapping=many_to_one)": 4 / 5,
    "type_microc_recall(mapping=many_to_one)": 1.0,
}


def test_hand_worked_corpus(tmp_path):
    gold, run = write_token_corpus(tmp_path, HAND, "hand-0001")
    camp = load_files(gold, [run])
    # MicroC M-1 with a search long enough to be exact (by default only its LP bound)
    names = [n.replace("mapping=many_to_one)", "mapping=many_to_one,seconds=30)")
             if n.startswith("type_microc") else n for n in HAND_EXPECTED]
    table = evaluate(camp, names)
    table["metric"] = table["metric"].str.replace(", seconds=30", "")
    got = dict(zip(table["metric"], table["value"]))
    for name, value in HAND_EXPECTED.items():
        assert got[name] == pytest.approx(value, abs=1e-12), name


def test_hand_worked_corpus_equals_brute_force():
    types = list(dict.fromkeys(w for w, _, _ in HAND))
    gold = [{g for w2, g, _ in HAND if w2 == w} for w in types]
    induced = [{k for w2, _, k in HAND if w2 == w} for w in types]
    codes_c = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    codes_k = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    g = [{codes_c[c] for c in s} for s in gold]
    b = [{codes_k[k] for k in s} for s in induced]
    assert brute_best(g, b, "macro", "one_to_one") == pytest.approx(4 / 7)
    assert brute_best(g, b, "micro", "one_to_one") == pytest.approx(0.6)
    assert brute_best(g, b, "microc", "one_to_one") == pytest.approx(9 / 14)
    assert brute_best(g, b, "macro", "many_to_one") == pytest.approx(2 / 3)
    assert brute_best(g, b, "micro", "many_to_one") == pytest.approx(11 / 15)
    assert brute_best(g, b, "microc", "many_to_one") == pytest.approx(31 / 35)
    for mapping in MAPPINGS:
        e = TypeEntries.from_sets(g, b)
        for measure in MEASURES:
            best = best_mapping(e, measure, mapping, time_limit=30)
            h = {k: int(c) for k, c in enumerate(best.target) if c >= 0}
            scores = brute_score(g, b, h)
            suffix = "" if mapping == "one_to_one" else "(mapping=many_to_one)"
            for name, value in scores.items():
                if MEASURE_OF[name] == measure:
                    assert value == pytest.approx(HAND_EXPECTED[f"type_{name}{suffix}"]), name


# --- brute force over every mapping of tiny cases (Hypothesis) --------------------------------

@settings(max_examples=150, deadline=None)
@given(tiny_entries(), st.data())
def test_score_of_a_mapping_equals_the_definition(case, data):
    gold, induced = case
    e = TypeEntries.from_sets(gold, induced)
    target = np.array([data.draw(st.integers(-1, e.n_classes - 1)) for _ in range(e.n_clusters)])
    h = {k: int(c) for k, c in enumerate(target) if c >= 0}
    fast = score_mapping(e, target)
    slow = brute_score(gold, induced, h)
    assert set(fast) == set(slow)
    for key, value in slow.items():
        assert fast[key] == pytest.approx(value, abs=1e-12), key


@settings(max_examples=150, deadline=None)
@given(tiny_entries())
def test_best_mapping_against_every_mapping(case):
    """The exact solvers (assignment for 1-1, integer program for M-1) against every mapping:
    all n^m functions for M-1, every one-to-one partial function for 1-1."""
    gold, induced = case
    e = TypeEntries.from_sets(gold, induced)
    for mapping in MAPPINGS:
        for measure in MEASURES:
            best = best_mapping(e, measure, mapping, time_limit=60)
            truth = brute_best(gold, induced, measure, mapping)
            h = {k: int(c) for k, c in enumerate(best.target) if c >= 0}
            assert best.exact and best.gap == 0.0 and best.exactness == "exact"
            assert best.value == pytest.approx(truth, abs=1e-12), (measure, mapping)
            # the value reported is the value of the mapping returned
            assert best.value == pytest.approx(brute_score(gold, induced, h)[VALUE_OF[measure]])
            if mapping == "one_to_one":
                assert best.method == "assignment"
                assert len(set(h.values())) == len(h)  # one-to-one
            else:
                assert len(h) == e.n_clusters  # every cluster mapped
        # every score is read at its measure's mapping
        s = type_scores(e, mapping, time_limit=60)
        for name, measure in MEASURE_OF.items():
            h = {k: int(c) for k, c in enumerate(s.mappings[measure].target) if c >= 0}
            assert getattr(s, name) == pytest.approx(brute_score(gold, induced, h)[name]), name


@settings(max_examples=100, deadline=None)
@given(tiny_entries())
def test_many_to_one_is_the_majority_when_each_type_has_one_cluster(case):
    gold, induced = case
    induced = [{min(s)} for s in induced]
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    induced = [{kmap[k] for k in s} for s in induced]
    e = TypeEntries.from_sets(gold, induced)
    for measure in ("macro", "micro"):
        best = best_mapping(e, measure, "many_to_one")
        assert best.exact and best.method in ("majority", "integer program")
        assert best.value == pytest.approx(brute_best(gold, induced, measure, "many_to_one"))


# --- monosemous sanity ------------------------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=12))
def test_monosemous_macro_recall_is_type_level_many_to_one_accuracy(pairs):
    """One gold tag and one cluster per type: MacroI recall (M-1) = the share of types whose
    cluster's majority tag (over types) is their own tag."""
    frame = pd.DataFrame(pairs, columns=["tag", "cluster"])
    cmap = {c: i for i, c in enumerate(sorted(frame["tag"].unique()))}
    kmap = {k: i for i, k in enumerate(sorted(frame["cluster"].unique()))}
    gold = [{cmap[t]} for t in frame["tag"]]
    induced = [{kmap[k]} for k in frame["cluster"]]
    direct = pd.crosstab(frame["cluster"], frame["tag"]).max(axis=1).sum() / len(frame)
    s = type_scores(TypeEntries.from_sets(gold, induced), "many_to_one")
    assert s.macro_recall == pytest.approx(direct)
    assert s.macro_precision == pytest.approx(direct)  # |A_i| = |B_i| = 1


def test_metric_names_with_a_mapping():

    assert str(parse_metric("type_macro_f")) == "type_macro_f"
    assert str(parse_metric("type_macro_f(mapping=one_to_one)")) == "type_macro_f"
    spec = parse_metric("type_microc_f(mapping=many_to_one)")
    assert spec.params == {"mapping": "many_to_one", "seconds": 0.0}
    assert str(spec) == "type_microc_f(mapping=many_to_one)"
    assert str(parse_metric("type_micro_f(mapping=many_to_one,seconds=10)")) == \
        "type_micro_f(mapping=many_to_one)"
    assert str(parse_metric("type_microc_f(mapping=many_to_one, seconds=2.5)")) == \
        "type_microc_f(mapping=many_to_one, seconds=2.5)"
    with pytest.raises(UnanimityError, match="seconds must be a number >= 0"):
        parse_metric("type_macro_f(seconds=-1)")
    assert direction(str(spec)) == 1 and spec.info.type_level
    with pytest.raises(UnanimityError, match="none of one_to_one, many_to_one"):
        parse_metric("type_micro_f(mapping=greedy)")
    names = {m.name for m in available_metrics()}
    assert "type_macro_f" not in names  # clustering campaigns have no word types
    typed = [m.name for m in available_metrics(type_level=True) if m.type_level]
    assert typed == ["type_macro_precision", "type_macro_recall", "type_macro_f",
                     "type_macroc_f", "type_micro_precision", "type_micro_recall",
                     "type_micro_f", "type_microc_precision", "type_microc_recall",
                     "type_microc_f"]
    for name in typed:  # each with its formula, the paper and the mapping parameter
        info = parse_metric(name).info
        assert "Reichart" in info.reference and info.formula and info.kernel is not None
        assert info.params["mapping"] == "one_to_one"
