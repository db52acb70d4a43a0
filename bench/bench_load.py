"""Loading benchmarks: the bundled campaign must load in under a second (issue: foundation).

``--quick`` (bench/run.py): the raw TSV folder is not loaded.
"""

from __future__ import annotations

from pathlib import Path

from timing import best_of, quick

from metrics.io import load

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"
SHARED = ROOT.parent / "shared" / "campaigns" / "replab2013"



def run() -> list[tuple[str, float, str]]:
    out = []
    demo = best_of(lambda: load(DEMO))
    out.append(("load_demo_replab", 1.0 / demo,
                f"bundled RepLab 2013 (2.4M assignments) {demo:.3f} s; target <= 1 s"))
    if SHARED.exists() and not quick():
        raw = best_of(lambda: load(SHARED), repeat=1)
        out.append(("load_raw_vs_demo_replab", raw / demo,
                    f"raw gzip TSV folder {raw:.2f} s vs bundled Parquet {demo:.3f} s"))
    return out
