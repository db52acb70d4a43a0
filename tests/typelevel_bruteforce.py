"""An independent route to the type-level measures, for the tests: every score of one mapping
from the definitions with Python sets (Reichart, Abend and Rappoport 2010, §4; h(B_i) a set),
the best score over every mapping, MicroC's search checked against every mapping, a Hypothesis
strategy of tiny entries, and a writer of small tagged corpora."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import strategies as st

from metrics.measures.typelevel import exact_many_to_one, microc_union
from metrics.measures.typelevel.type_scores import best_mapping


def brute_score(gold: list[set], induced: list[set], h: dict) -> dict[str, float]:
    """Every type-level score of one mapping h (cluster -> class; absent = unmapped), read from
    the paper's definitions: h(B_i) is a set; under 1-1 each unmapped cluster of B_i counts
    once in |h(B_i)|; MacroC and MicroC through the united clusters K_h."""
    reached = [{h[k] for k in b if k in h} for b in induced]
    h_size = [len(r) + sum(1 for k in b if k not in h) for r, b in zip(reached, induced)]
    im = [len(a & r) for a, r in zip(gold, reached)]
    sa, sh = sum(len(a) for a in gold), sum(h_size)
    p, r = sum(im) / sh, sum(im) / sa
    f = 2 * p * r / (p + r) if p + r else 0.0

    def mean(xs):
        return sum(xs) / len(xs)

    micro = [mean([x / hs if hs else 0.0 for x, hs in zip(im, h_size)]),
             mean([x / len(a) if a else 0.0 for x, a in zip(im, gold)]),
             mean([2 * x / (len(a) + hs) for x, a, hs in zip(im, gold, h_size)])]
    clusters = sorted(set().union(*induced))
    members = {k: {i for i, b in enumerate(induced) if k in b} for k in clusters}
    classes = {c: {i for i, a in enumerate(gold) if c in a} for c in set().union(*gold)}
    united: dict = {}
    for k in clusters:
        if k in h:
            united.setdefault(h[k], set()).update(members[k])
    # (|z|, CM_z, |c|) of every united cluster, and of every unmapped cluster (CM 0, no class)
    # (a class no gold entry holds is empty: |c| = 0)
    zs = [(len(z), len(z & classes.get(c, set())), len(classes.get(c, set())))
          for c, z in united.items()]
    zs += [(len(members[k]), 0, 0) for k in clusters if k not in h]
    n_star = sum(size for size, _, _ in zs)
    cm = sum(x for _, x, _ in zs)
    mc_p, mc_r = cm / n_star, cm / sum(len(c) for c in classes.values())
    macroc = 2 * mc_p * mc_r / (mc_p + mc_r) if mc_p + mc_r else 0.0
    microc = [sum(size * x / size for size, x, _ in zs if size) / n_star,
              sum(size * x / c for size, x, c in zs if c) / n_star,
              sum(size * 2 * x / (size + c) for size, x, c in zs) / n_star]
    return {"macro_precision": p, "macro_recall": r, "macro_f": f, "macroc_f": macroc,
            "micro_precision": micro[0], "micro_recall": micro[1], "micro_f": micro[2],
            "microc_precision": microc[0], "microc_recall": microc[1], "microc_f": microc[2]}


def all_mappings(m: int, n: int, one_to_one: bool):
    """Every M-1 function (all n^m), or every one-to-one partial function, from m clusters to
    n classes."""
    if not one_to_one:
        for combo in itertools.product(range(n), repeat=m):
            yield dict(enumerate(combo))
        return
    for size in range(min(m, n) + 1):
        for ks in itertools.combinations(range(m), size):
            for cs in itertools.permutations(range(n), size):
                yield dict(zip(ks, cs))


VALUE_OF = {"macro": "macro_f", "micro": "micro_f", "microc": "microc_f"}
#: the measure whose mapping each score is read at
MEASURE_OF = {"macro_precision": "macro", "macro_recall": "macro", "macro_f": "macro",
            "macroc_f": "macro", "micro_precision": "micro", "micro_recall": "micro",
            "micro_f": "micro", "microc_precision": "microc", "microc_recall": "microc",
            "microc_f": "microc"}


def brute_best(gold, induced, measure, mapping) -> float:
    m = len(set().union(*induced))
    n = len(set().union(*gold))
    return max(brute_score(gold, induced, h)[VALUE_OF[measure]]
               for h in all_mappings(m, n, mapping == "one_to_one"))


def microc_every_mapping(gold, induced, e) -> dict[tuple, tuple[float, int]]:
    """MicroC's F and N* = Σ_i |h(B_i)| of every M-1 mapping h of the entries ``e`` (built from
    ``gold`` and ``induced``), keyed by (h(0), ..., h(m - 1))."""
    out = {}
    for h in all_mappings(e.n_clusters, e.n_classes, one_to_one=False):
        n_star = sum(len({h[k] for k in b}) for b in induced)
        out[tuple(h[k] for k in range(e.n_clusters))] = (
            brute_score(gold, induced, h)["microc_f"], n_star)
    return out


def _unproven(t, measure, start, seconds):
    """An integer program that helps nothing: the start, no bound, not exact."""
    return exact_many_to_one.Solved(start, float("nan"), False)


def check_search_against_every_mapping(gold, induced, e, **union_patches) -> None:
    """MicroC's M-1 search on ``e`` with no time for the node search and no help from the integer
    program (microc_union's other names replaced by ``union_patches``): its value is never above
    the best of every mapping, value + gap never below it, and a mapping it proves exact is that
    best, by branch and bound."""
    top = max(f for f, _ in microc_every_mapping(gold, induced, e).values())
    with pytest.MonkeyPatch.context() as mp:
        for name, value in {"SEARCH_SHARE": 0.0, "SEARCH_ALONE": 0.0, "_CLOCK_EVERY": 1,
                             **union_patches}.items():
            mp.setattr(microc_union, name, value)
        mp.setattr(exact_many_to_one, "solve", _unproven)
        found = best_mapping(e, "microc", "many_to_one", time_limit=30)
    assert found.value <= top + 1e-12
    assert found.value + found.gap >= top - 1e-9
    if found.exact:
        assert found.method == "branch and bound"
        assert found.value == pytest.approx(top, abs=1e-9)


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


def write_token_corpus(folder: Path, tokens: list[tuple[str, str, str]],
                       sent_id: str = "s-0001") -> tuple[Path, Path]:
    """``gold.conllu`` and ``run.tsv`` of one sentence of (word, gold tag, cluster) tokens."""
    gold, run = folder / "gold.conllu", folder / "run.tsv"
    gold.write_text(f"# sent_id = {sent_id}\n" + "".join(
        f"{i}\t{w}\t_\t{g}\t{g}\t_\t0\tdep\t_\t_\n" for i, (w, g, _) in enumerate(tokens, 1))
        + "\n", encoding="utf-8")
    run.write_text("".join(f"{w}\t{k}\n" for w, _, k in tokens) + "\n", encoding="utf-8")
    return gold, run
