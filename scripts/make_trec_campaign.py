"""Write a synthetic TREC campaign: graded qrels and run files, seeded, one run at a time.

Every topic has a pool of candidate documents with a hidden relevance grade (0 to 3, most of
them 0); the qrels judge the first ``--judged`` documents of each pool. A run has a quality q
and scores each pooled document ``q * grade + noise``, then lists its ``--depth`` best per topic,
as a retrieval system does. The default size is the scale benchmark of ``bench/bench_trec.py``::

    python scripts/make_trec_campaign.py OUT            # 100 runs x 200 topics x 1,000 documents

writes ``OUT/qrels.txt`` and ``OUT/runs/run-000.run ...`` (20 million run lines, about 0.9 GB),
the TREC layout ``unanimity evaluate OUT`` reads (``docs/organisation.md`` §2). Memory stays
bounded by one run (topics x pool scores) whatever the number of runs.

Scores are written with four decimals and stay below 100 (six significant digits at most), so
two scores that differ as written differ in single precision too, where trec_eval compares them:
every tool orders each run alike (equal scores, ties by document id, are the same ties
everywhere).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

__all__ = ["write_campaign", "GRADE_SHARES"]

#: Share of the pooled documents with relevance grade 0, 1, 2, 3.
GRADE_SHARES = (0.7, 0.15, 0.1, 0.05)
#: Document numbers are spread over a collection of this many (ids ``D00000000`` ...).
_COLLECTION = 100_000_000
#: A multiplier prime to the collection size: topic pools map to distinct document numbers.
_SPREAD = 48_271
_WRITE = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")


def _docids(n_topics: int, pool: int) -> np.ndarray:
    """Document ids (topics x pool, distinct): a bijection of ``topic * pool + k``."""
    k = np.arange(n_topics * pool, dtype=np.int64)
    return np.char.add("D", np.char.zfill(((k * _SPREAD + 7) % _COLLECTION).astype(str), 8)
                       ).reshape(n_topics, pool)


def _write(path: Path, columns: dict[str, pa.Array]) -> None:
    pacsv.write_csv(pa.table(columns), path, write_options=_WRITE)


def write_campaign(out: str | Path, runs: int = 100, topics: int = 200, depth: int = 1000,
                   pool: int = 5000, judged: int = 500, seed: int = 0,
                   say=lambda message: None) -> Path:
    """Write the campaign under ``out`` (created); returns the folder.

    Parameters
    ----------
    runs, topics, depth : int
        Run files, topics, documents each run lists per topic.
    pool, judged : int
        Candidate documents per topic (at least ``depth``) and how many of them the qrels judge.
    seed : int
        Everything is drawn from it: the same arguments write the same files.
    """
    if not 0 < depth <= pool or not 0 < judged <= pool or runs < 1 or topics < 1:
        raise ValueError("need runs, topics >= 1 and 0 < depth, judged <= pool")
    out = Path(out)
    (out / "runs").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    qids = np.char.add("q", np.arange(1, topics + 1).astype(str))
    docs = _docids(topics, pool)
    grade = rng.choice(len(GRADE_SHARES), size=(topics, pool), p=GRADE_SHARES).astype(np.int64)
    _write(out / "qrels.txt", {
        "qid": pa.array(np.repeat(qids, judged)), "iter": pa.array(np.zeros(topics * judged,
                                                                             dtype=np.int64)),
        "docid": pa.array(docs[:, :judged].ravel()), "grade": pa.array(grade[:, :judged].ravel())})
    qid_col = pa.array(np.repeat(qids, depth))
    q0 = pa.array(np.full(topics * depth, "Q0"))
    rank = pa.array(np.tile(np.arange(1, depth + 1, dtype=np.int64), topics))
    rows = np.arange(topics)[:, None]
    for r in range(runs):
        quality = rng.uniform(0.2, 1.5)
        score = np.round(np.clip(50.0 + 5.0 * (quality * grade + rng.standard_normal(grade.shape)),
                                 0.0001, 99.9999), 4)
        best = np.argsort(-score, axis=1, kind="stable")[:, :depth]
        name = f"run-{r:03d}"
        _write(out / "runs" / f"{name}.run", {
            "qid": qid_col, "q0": q0, "docid": pa.array(docs[rows, best].ravel()), "rank": rank,
            "score": pa.array(score[rows, best].ravel()),
            "tag": pa.array(np.full(topics * depth, name))})
        say(f"wrote {name} ({r + 1}/{runs})")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="folder to write (qrels.txt, runs/)")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=200)
    ap.add_argument("--depth", type=int, default=1000, help="documents per run and topic")
    ap.add_argument("--pool", type=int, default=5000, help="candidate documents per topic")
    ap.add_argument("--judged", type=int, default=500, help="judged documents per topic")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    write_campaign(args.out, args.runs, args.topics, args.depth, args.pool, args.judged,
                   args.seed, say=lambda m: print(m, file=sys.stderr, flush=True))
    print(f"{args.out}: {args.runs} runs x {args.topics} topics x {args.depth} documents "
          f"({args.runs * args.topics * args.depth:,} run lines) in "
          f"{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
