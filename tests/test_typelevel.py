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

# --- an independent route, straight from the definitions, with Python sets --------------------


def brute_score(gold: list[set], induced: list[set], h: dict) -> dict[str, float]:
    """MacroI P/R/F, MicroI, MicroC of one mapping h (cluster -> class; absent = unmapped)."""
    im = [len(a & {h[k] for k in b if k in h}) for a, b in zip(gold, induced)]
    sa, sb = sum(len(a) for a in gold), sum(len(b) for b in induced)
    p, r = sum(im) / sb, sum(im) / sa
    f = 2 * p * r / (p + r) if p + r else 0.0
    micro = sum(2 * x / (len(a) + len(b)) for x, a, b in zip(im, gold, induced)) / len(gold)
    clusters = sorted(set().union(*induced))
    members = {k: {i for i, b in enumerate(induced) if k in b} for k in clusters}
    classes = {c: {i for i, a in enumerate(gold) if c in a} for c in set().union(*gold)}
    united: dict = {}
    for k in clusters:
        if k in h:
            united.setdefault(h[k], set()).update(members[k])
    n_star = sum(len(z) for z in united.values()) + sum(len(members[k]) for k in clusters
                                                         if k not in h)
    microc = sum(len(z) * 2 * len(z & classes[c]) / (len(z) + len(classes[c]))
                 for c, z in united.items()) / n_star
    return {"macro_precision": p, "macro_recall": r, "macro_f": f, "micro_f": micro,
            "microc_f": microc}


def all_mappings(m: int, n: int, one_to_one: bool):
    """Every M-1 function, or every one-to-one partial function, from m clusters to n classes."""
    if not one_to_one:
        for combo in itertools.product(range(n), repeat=m):
            yield dict(enumerate(combo))
        return
    for size in range(min(m, n) + 1):
        for ks in itertools.combinations(range(m), size):
            for cs in itertools.permutations(range(n), size):
                yield dict(zip(ks, cs))


_VALUE = {"macro": "macro_f", "micro": "micro_f", "microc": "microc_f"}


def brute_best(gold, induced, measure, mapping) -> float:
    m = len(set().union(*induced))
    n = len(set().union(*gold))
    return max(brute_score(gold, induced, h)[_VALUE[measure]]
               for h in all_mappings(m, n, mapping == "one_to_one"))


# --- the paper's example (§3 and §4.1) -------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
def test_paper_example_type_measures_give_recall_1_and_precision_r_over_n(n):
    for r in range(1, n + 1):
        gold = [set(c) for c in itertools.combinations(range(n), r)]  # equal class sizes
        induced = [set(range(n)) for _ in gold]  # every type in every cluster, |K| = |C|
        e = TypeEntries.from_sets(gold, induced)
        for mapping in MAPPINGS:
            s = type_scores(e, mapping)
            assert s.macro_recall == pytest.approx(1.0)
            assert s.macro_precision == pytest.approx(r / n)
            assert s.micro_f == pytest.approx(2 * r / (r + n))  # per-type F with P = r/n, R = 1


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
    "type_macro_precision": 4 / 7, "type_macro_recall": 4 / 7, "type_macro_f": 4 / 7,
    # per-type weights 1/(|A|+|B|): the 1/2, dog 1/2, runs 1/4, run 1/2, fast 1/4;
    # best 1-1 sum .5 + .75 + .25 = 1.5 -> MicroI = (2/5) 1.5
    "type_micro_f": 0.6,
    # |k1| = 1, |k2| = |k3| = 3, N* = 7; |DET| = 1, |NOUN| = 3, others 1:
    # k1-DET 1/7 + k2-NOUN (3/7)(2*2/6) + k3-VERB (3/7)(2*1/4) = 9/14
    "type_microc_f": 9 / 14,
    # M-1: k2, k3 -> NOUN: IM = the 1 + dog 1 + runs 1 + run 1 = 4
    "type_macro_precision(mapping=many_to_one)": 4 / 7,
    "type_macro_recall(mapping=many_to_one)": 4 / 7,
    # M-1 MicroI: .5 + .5 + .25 + .5 = 1.75 -> (2/5) 1.75
    "type_micro_f(mapping=many_to_one)": 0.7,
    # M-1 MicroC: z_DET = {the} F = 1; z_NOUN = {dog, runs, run, fast}, 3 of them NOUN:
    # F = 6/7; N* = 5 -> (1 + 4 * 6/7) / 5
    "type_microc_f(mapping=many_to_one)": 31 / 35,
}


def _write_hand(folder: Path) -> tuple[Path, Path]:
    gold = folder / "gold.conllu"
    run = folder / "run.tsv"
    gold.write_text("# sent_id = hand-0001\n" + "".join(
        f"{i}\t{w}\t_\t{g}\t{g}\t_\t0\tdep\t_\t_\n" for i, (w, g, _) in enumerate(HAND, 1))
        + "\n", encoding="utf-8")
    run.write_text("".join(f"{w}\t{k}\n" for w, _, k in HAND) + "\n", encoding="utf-8")
    return gold, run


def test_hand_worked_corpus(tmp_path):
    gold, run = _write_hand(tmp_path)
    camp = load_files(gold, [run])
    table = evaluate(camp, list(HAND_EXPECTED))
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
    assert brute_best(g, b, "micro", "many_to_one") == pytest.approx(0.7)
    assert brute_best(g, b, "microc", "many_to_one") == pytest.approx(31 / 35)


# --- brute force over every mapping of tiny cases (Hypothesis) --------------------------------

@st.composite
def tiny_entries(draw):
    n = draw(st.integers(1, 3))
    m = draw(st.integers(1, 4))
    n_types = draw(st.integers(1, 5))
    subset = lambda k: st.sets(st.integers(0, k - 1), min_size=1, max_size=k)  # noqa: E731
    gold = [draw(subset(n)) for _ in range(n_types)]
    induced = [draw(subset(m)) for _ in range(n_types)]
    # recode so that every class and cluster occurs (as a campaign's codes would)
    cmap = {c: i for i, c in enumerate(sorted(set().union(*gold)))}
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    return [{cmap[c] for c in s} for s in gold], [{kmap[k] for k in s} for s in induced]


@settings(max_examples=150, deadline=None)
@given(tiny_entries(), st.data())
def test_score_of_a_mapping_equals_the_definition(case, data):
    gold, induced = case
    e = TypeEntries.from_sets(gold, induced)
    target = np.array([data.draw(st.integers(-1, e.n_classes - 1)) for _ in range(e.n_clusters)])
    h = {k: int(c) for k, c in enumerate(target) if c >= 0}
    fast = score_mapping(e, target)
    slow = brute_score(gold, induced, h)
    for key, value in slow.items():
        assert fast[key] == pytest.approx(value, abs=1e-12), key


@settings(max_examples=150, deadline=None)
@given(tiny_entries())
def test_best_mapping_against_every_mapping(case):
    gold, induced = case
    e = TypeEntries.from_sets(gold, induced)
    for mapping in MAPPINGS:
        for measure in MEASURES:
            best = best_mapping(e, measure, mapping)
            truth = brute_best(gold, induced, measure, mapping)
            h = {k: int(c) for k, c in enumerate(best.target) if c >= 0}
            # the value reported is the value of the mapping returned
            assert best.value == pytest.approx(brute_score(gold, induced, h)[_VALUE[measure]])
            assert best.value <= truth + 1e-12
            if mapping == "one_to_one":
                assert best.exact and best.method == "assignment"
                assert len(set(h.values())) == len(h)  # one-to-one
            if best.exact:
                assert best.value == pytest.approx(truth, abs=1e-12), (measure, mapping)


@settings(max_examples=100, deadline=None)
@given(tiny_entries())
def test_many_to_one_is_exact_and_optimal_when_each_type_has_one_cluster(case):
    gold, induced = case
    induced = [{min(s)} for s in induced]
    kmap = {k: i for i, k in enumerate(sorted(set().union(*induced)))}
    induced = [{kmap[k] for k in s} for s in induced]
    e = TypeEntries.from_sets(gold, induced)
    for measure in ("macro", "micro"):
        best = best_mapping(e, measure, "many_to_one")
        assert best.exact and best.method == "majority"
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
    assert spec.params == {"mapping": "many_to_one"}
    assert str(spec) == "type_microc_f(mapping=many_to_one)"
    assert direction(str(spec)) == 1 and spec.info.type_level
    with pytest.raises(UnanimityError, match="none of one_to_one, many_to_one"):
        parse_metric("type_micro_f(mapping=greedy)")
    names = {m.name for m in available_metrics()}
    assert "type_macro_f" not in names  # clustering campaigns have no word types
    assert "type_macro_f" in {m.name for m in available_metrics(type_level=True)}
