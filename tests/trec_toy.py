"""A toy TREC campaign written for a test: qrels (grade 2 relevant documents, one grade-1
document ``d9`` per topic) and runs given as space-separated documents in rank order."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

#: topic -> relevant documents (grade 2); d9 (grade 1) counts as irrelevant for binary measures.
#: good puts both relevant documents first, mid one of them second, bad none: every measure
#: orders good > mid > bad on every topic.
RELEVANT = {"q1": ["d1", "d2"], "q2": ["d3", "d10"], "q3": ["d4", "d5", "d6"]}
RUNS = {
    "good": {"q1": "d1 d2 d7 d8", "q2": "d3 d10 d7 d8", "q3": "d4 d5 d7 d6"},
    "mid": {"q1": "d7 d1 d8 d11", "q2": "d7 d3 d8 d11", "q3": "d7 d4 d8 d11"},
    "bad": {"q1": "d7 d8 d11 d12", "q2": "d8 d7 d11 d12", "q3": "d7 d8 d11 d12"},
}


def write_trec(folder: Path, relevant: Mapping[str, list[str]] = RELEVANT,
               runs: Mapping[str, Mapping[str, str]] = RUNS) -> Path:
    """``folder/qrels.txt`` and ``folder/runs/<system>.run``; returns ``folder``."""
    lines = [f"{q} 0 {d} 2" for q, docs in relevant.items() for d in docs]
    lines += [f"{q} 0 d9 1" for q in relevant]
    (folder / "qrels.txt").write_text("\n".join(lines) + "\n")
    (folder / "runs").mkdir()
    for name, per in runs.items():
        rows = [f"{q} Q0 {d} {i + 1} {10 - i} {name}" for q, docs in per.items()
                for i, d in enumerate(docs.split())]
        (folder / "runs" / f"{name}.run").write_text("\n".join(rows) + "\n")
    return folder
