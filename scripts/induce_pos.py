"""Unsupervised part-of-speech induction over the UD English EWT tokens -> demo_data/ud-ewt/.

Reads the gold treebank (dev + test, ``shared/campaigns/ud-english-ewt/``, CC BY-SA 4.0), runs
two real induction methods at several cluster counts over its token forms (the gold tags are
never looked at), and writes a token tagging campaign (``docs/type-level.md``):

* ``gold.conllu.gz``: the gold, CoNLL-U, sentences in treebank order (dev, then test), keeping
  ``# sent_id``, ID, FORM, LEMMA, UPOS and XPOS (the other columns are ``_``; multi-word token
  lines and empty nodes, which are not tokens to tag, are left out);
* ``runs/<method>-<k>.tsv.gz``: one induced tagging per run, ``word<TAB>cluster`` one token a
  line, a blank line between sentences;
* ``campaign.toml`` and ``README.md`` (attribution, licence, the runs with their seeds).

Methods
-------
``brown-K``   Brown et al. (1992) class-based bigram clustering with K classes
              (package ``brown_clustering``; deterministic, no seed): one cluster per type.
              Types seen once are trained as one ``<unk>`` word (the usual minimum count of
              Brown clustering implementations) and share its class.
``svdkm-K``   distributional type clustering: each type's left- and right-neighbour counts over
              the 500 most frequent words (plus sentence boundaries), log-scaled, reduced to 50
              dimensions by truncated SVD, then k-means with K clusters (weighted by frequency):
              one cluster per type.
``ctxkm-K``   distributional token clustering: each token is its own type vector and those of its
              neighbours (half weight), k-means with K clusters; tokens of one type may land in
              different clusters, so the lexicon it induces is polysemous.

Usage: ``python scripts/induce_pos.py [--shared PATH] [--out demo_data/ud-ewt] [--ks 17,45,100]``
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix, hstack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from metrics.io.conllu import read_tokens  # noqa: E402

FILES = ("en_ewt-ud-dev.conllu.gz", "en_ewt-ud-test.conllu.gz")
SEED = 20101
N_CONTEXT = 500
N_DIMS = 50


def write_gold(shared: Path, out: Path) -> None:
    """The reduced gold CoNLL-U (see the module docstring)."""
    lines_out: list[str] = []
    for f in FILES:
        with gzip.open(shared / "campaigns" / "ud-english-ewt" / f, "rt", encoding="utf-8") as fh:
            for line in fh:
                line = line.rstrip("\n")
                if not line:
                    lines_out.append("")
                elif line.startswith("#"):
                    if line.startswith("# sent_id") or line.startswith("# newdoc id"):
                        lines_out.append(line)
                else:
                    c = line.split("\t")
                    if "-" in c[0] or "." in c[0]:
                        continue
                    lines_out.append("\t".join(c[:5] + ["_"] * 5))
    text = "\n".join(lines_out).rstrip("\n") + "\n\n"
    with gzip.open(out / "gold.conllu.gz", "wt", encoding="utf-8", compresslevel=9) as fh:
        fh.write(text)


def write_run(out: Path, name: str, form: np.ndarray, sent: np.ndarray, cluster: np.ndarray):
    """``word<TAB>cluster`` lines, a blank line between sentences."""
    body = pd.Series(form, dtype=object) + "\t" + pd.Series(cluster).astype(str)
    brk = np.r_[sent[1:] != sent[:-1], True]
    text = "\n".join(np.where(brk, body + "\n", body)) + "\n"
    with gzip.open(out / "runs" / f"{name}.tsv.gz", "wt", encoding="utf-8",
                   compresslevel=9) as fh:
        fh.write(text)


def brown(sentences: list[list[str]], k: int) -> dict[str, int]:
    """Brown clustering into ``k`` classes: word -> class."""
    from brown_clustering import BigramCorpus, BrownClustering  # noqa: PLC0415

    corpus = BigramCorpus(sentences, alpha=0.5, min_count=0)
    clusters = BrownClustering(corpus, m=k).train()
    return {w: ci for ci, words in enumerate(clusters) for w in words}


def type_vectors(type_code: np.ndarray, sent: np.ndarray, n_types: int) -> np.ndarray:
    """Left/right neighbour counts over the most frequent words, log-scaled, SVD-reduced."""
    from sklearn.decomposition import TruncatedSVD  # noqa: PLC0415
    from sklearn.preprocessing import normalize  # noqa: PLC0415

    freq = np.bincount(type_code, minlength=n_types)
    top = np.argsort(-freq, kind="stable")[:N_CONTEXT]
    ctx_id = np.full(n_types, N_CONTEXT, dtype=np.int64)  # N_CONTEXT = "other word"
    ctx_id[top] = np.arange(top.size)
    boundary = N_CONTEXT + 1
    n = type_code.size
    same_prev = np.r_[False, sent[1:] == sent[:-1]]
    same_next = np.r_[sent[1:] == sent[:-1], False]
    left = np.where(same_prev, ctx_id[np.r_[0, type_code[:-1]]], boundary)
    right = np.where(same_next, ctx_id[np.r_[type_code[1:], 0]], boundary)
    width = N_CONTEXT + 2
    ones = np.ones(n)
    lmat = csr_matrix((ones, (type_code, left)), shape=(n_types, width))
    rmat = csr_matrix((ones, (type_code, right)), shape=(n_types, width))
    feats = hstack([lmat, rmat]).tocsr()
    feats.data = np.log1p(feats.data)
    feats = normalize(feats)
    svd = TruncatedSVD(n_components=N_DIMS, random_state=SEED)
    return normalize(svd.fit_transform(feats))


def svd_kmeans(vecs: np.ndarray, freq: np.ndarray, k: int, seed: int) -> np.ndarray:
    """k-means over type vectors, weighted by type frequency: type -> cluster."""
    from sklearn.cluster import KMeans  # noqa: PLC0415

    km = KMeans(n_clusters=k, n_init=4, random_state=seed)
    return km.fit_predict(vecs, sample_weight=freq.astype(float))


def ctx_kmeans(vecs: np.ndarray, type_code: np.ndarray, sent: np.ndarray, k: int,
               seed: int) -> np.ndarray:
    """k-means over token vectors (own type vector + half of each neighbour's): token -> cluster."""
    from sklearn.cluster import MiniBatchKMeans  # noqa: PLC0415

    zero = np.zeros((1, vecs.shape[1]))
    padded = np.vstack([vecs, zero])
    none = vecs.shape[0]
    same_prev = np.r_[False, sent[1:] == sent[:-1]]
    same_next = np.r_[sent[1:] == sent[:-1], False]
    left = np.where(same_prev, np.r_[none, type_code[:-1]], none)
    right = np.where(same_next, np.r_[type_code[1:], none], none)
    x = np.hstack([padded[type_code], 0.5 * padded[left], 0.5 * padded[right]])
    km = MiniBatchKMeans(n_clusters=k, n_init=3, random_state=seed, batch_size=4096,
                         max_iter=200)
    return km.fit_predict(x)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--out", type=Path, default=ROOT / "demo_data" / "ud-ewt")
    ap.add_argument("--ks", default="17,45,100")
    args = ap.parse_args(argv)
    ks = [int(k) for k in args.ks.split(",")]
    out: Path = args.out
    (out / "runs").mkdir(parents=True, exist_ok=True)
    for old in (out / "runs").glob("*.tsv.gz"):
        old.unlink()
    write_gold(args.shared, out)
    gold = read_tokens(out / "gold.conllu.gz", "upos")
    form, sent = gold.forms(), gold.sent
    type_code, type_names = pd.factorize(pd.Series(form, dtype=object))
    n_types = len(type_names)
    freq = np.bincount(type_code, minlength=n_types)
    print(f"{gold.n_tokens} tokens, {sent.max() + 1} sentences, {n_types} types", flush=True)
    bounds = np.flatnonzero(np.r_[True, sent[1:] != sent[:-1], True])
    brown_form = np.where(freq[type_code] >= 2, form, "<unk>")
    sentences = [brown_form[a:b].tolist() for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    runs: list[dict] = []
    for k in ks:
        t0 = time.perf_counter()
        word_cluster = brown(sentences, k)
        clusters = pd.Series(brown_form, dtype=object).map(word_cluster).to_numpy()
        write_run(out, f"brown-{k}", form, sent, clusters)
        runs.append({"system": f"brown-{k}", "method": "Brown clustering (brown_clustering "
                     "0.1.6, alpha=0.5, types seen once as <unk>)", "clusters": k, "seed": None,
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(runs[-1], flush=True)
    vecs = type_vectors(type_code, sent, n_types)
    for k in ks:
        t0 = time.perf_counter()
        per_type = svd_kmeans(vecs, freq, k, SEED + k)
        write_run(out, f"svdkm-{k}", form, sent, per_type[type_code])
        runs.append({"system": f"svdkm-{k}", "method": "k-means over SVD context vectors of "
                     "types (scikit-learn KMeans, n_init=4)", "clusters": k, "seed": SEED + k,
                     "seconds": round(time.perf_counter() - t0, 1)})
        print(runs[-1], flush=True)
    for k in ks:
        t0 = time.perf_counter()
        per_token = ctx_kmeans(vecs, type_code, sent, k, SEED + 1000 + k)
        write_run(out, f"ctxkm-{k}", form, sent, per_token)
        runs.append({"system": f"ctxkm-{k}", "method": "k-means over token context vectors "
                     "(scikit-learn MiniBatchKMeans, n_init=3)", "clusters": k,
                     "seed": SEED + 1000 + k, "seconds": round(time.perf_counter() - t0, 1)})
        print(runs[-1], flush=True)
    (out / "induction.json").write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
