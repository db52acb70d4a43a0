"""Output benchmarks: ``compare --out`` costs what it weighs (docs/output-safety.md).

* ``compare_out_400_vs_40``: the whole ``unanimity compare SCORES --out DIR`` process (start-up,
  loading, comparison, writing the bundle) on a generated score table of 400 systems x 60 topics
  x 2 metrics against the same call on 40 systems; ratio = 3 (the target: 400 systems at most 3
  times 40) / measured ratio, so >= 1 meets the target.
* ``bundle_write_vs_pandas_400``: writing the bundle of the 400-system comparison (every table
  through the output policy, fingerprints, Parquet twins of the two large tables, manifest)
  against pandas' ``to_csv`` of the same tables with no policy, no Parquet and no manifest;
  ratio = pandas seconds / ours.

``--quick`` (bench/run.py): 20 and 200 systems, each timing once.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from timing import best_of, sized

from metrics.analyses import compare
from metrics.reports.bundle import write_comparison_bundle

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from score_examples import random_score_table  # noqa: E402

METRICS = "bcubed_precision,bcubed_recall"


def _compare_process(scores: Path, out: Path) -> None:
    subprocess.run([sys.executable, "-m", "metrics", "compare", str(scores), "--metrics",
                    METRICS, "--out", str(out)], check=True, stdout=subprocess.DEVNULL)


def run() -> list[tuple[str, float, str]]:
    repeat = sized(3, 1)
    small, big = sized((40, 400), (20, 200))
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        secs = {}
        for n in (small, big):
            scores = tmp / f"scores_{n}.csv"
            random_score_table(n, 60).to_csv(scores, index=False)
            secs[n] = best_of(lambda scores=scores, n=n: _compare_process(scores, tmp / f"out_{n}"),
                              repeat=repeat)
        ratio = secs[big] / secs[small]
        out.append((f"compare_out_{big}_vs_{small}", 3.0 / ratio,
                    f"unanimity compare --out, whole process: {big} x 60 x 2 {secs[big]:.2f} s "
                    f"vs {small} x 60 x 2 {secs[small]:.2f} s = {ratio:.2f}x (target <= 3x)"))

        table = random_score_table(big, 60)
        result = compare(table, "bcubed_precision", "bcubed_recall", metrics=METRICS.split(","))
        ours = best_of(lambda: write_comparison_bundle(result, tmp / "bundle"), repeat=repeat)
        frames = result.csv_tables()

        def plain() -> None:
            for name, df in frames.items():
                df.to_csv(tmp / "plain" / f"{name}.csv", index=False)

        (tmp / "plain").mkdir()
        theirs = best_of(plain, repeat=repeat)
        size = sum(f.stat().st_size for f in (tmp / "plain").iterdir()) / 1e6
        out.append((f"bundle_write_vs_pandas_{big}", theirs / ours,
                    f"bundle of {big} systems ({big * (big - 1):,} pairs) written in {ours:.2f} s "
                    f"(CSV with "
                    f"formulas neutralised + Parquet twins + fingerprints + ranking tables) vs "
                    f"pandas to_csv of the comparison's tables alone {theirs:.2f} s "
                    f"({size:.0f} MB)"))
    return out


if __name__ == "__main__":
    for name, ratio, detail in run():
        print(f"RATIO {name} {ratio:.2f}    # {detail}")
