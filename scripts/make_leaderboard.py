"""Convert the official RepLab 2013 scores into the bundled wide leaderboard
``demo_data/leaderboards/replab2013_official.csv``.

Usage: ``python scripts/make_leaderboard.py [SHARED_CAMPAIGN_FOLDER]``

The source is ``official_scores/NAME.tsv`` of the shared RepLab 2013 campaign (the official
scorer's Reliability, Sensitivity and F per entity, and their average): one row per system and
entity, one column per metric, as a leaderboard is published. Changes: the system path prefix is
cut to the run name, the ``entity`` column is named ``topic``, the ``average`` rows are left out
(the comparison computes its own means); every score is kept exactly as written.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "campaigns" / "replab2013"
TARGET = ROOT / "demo_data" / "leaderboards" / "replab2013_official.csv"


def main(source: Path = DEFAULT_SOURCE) -> None:
    frames = []
    for path in sorted((source / "official_scores").glob("*.tsv")):
        raw = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        raw = raw[raw["entity"] != "average"]
        frames.append(pd.DataFrame({
            "system": raw["system"].str.rsplit("/", n=1).str[-1], "topic": raw["entity"],
            "Reliability": raw["Reliability"], "Sensitivity": raw["Sensitivity"],
            "F": raw["F measure"]}))
    table = pd.concat(frames, ignore_index=True)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(TARGET, index=False)
    print(f"wrote {TARGET}: {len(table)} rows, {table['system'].nunique()} systems")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_SOURCE)
