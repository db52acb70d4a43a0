"""Output benchmarks: ``compare --out`` costs what it weighs (docs/output-safety.md).

* ``compare_out_400_vs_40``: the whole ``unanimity compare SCORES --out DIR`` process (start-up,
  loading, comparison, writing the bundle) on a generated score table of 400 systems x 60 topics
  x 2 metrics against the same call on 40 systems, the two sizes in turn, best of 3 each; ratio =
  3 (the target: 400 systems at most 3 times 40) / measured ratio, so >= 1 meets the target. The
  detail adds the ratio of the processes' CPU time (user + system, medians), which the machine's
  load moves less than the wall time.
* ``bundle_write_vs_pandas_400``: writing the bundle of the 400-system comparison (every table
  through the output policy, fingerprints, Parquet twins of the two large tables, manifest)
  against pandas' ``to_csv`` of the same tables with no policy, no Parquet and no manifest;
  ratio = pandas seconds / ours.

``--quick`` (bench/run.py): 20 and 200 systems, each timing once.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import best_of, sized

from metrics.analyses import compare
from metrics.reports.bundle import write_comparison_bundle

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from score_examples import random_score_table  # noqa: E402

METRICS = "bcubed_precision,bcubed_recall"


def _compare_process(scores: Path, out: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one ``unanimity compare --out`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "metrics", "compare", str(scores), "--metrics",
                    METRICS, "--out", str(out)], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run() -> list[tuple[str, float, str]]:
    repeat = sized(3, 1)
    small, big = sized((40, 400), (20, 200))
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for n in (small, big):
            random_score_table(n, 60).to_csv(tmp / f"scores_{n}.csv", index=False)
        wall: dict[int, list[float]] = {small: [], big: []}
        cpu: dict[int, list[float]] = {small: [], big: []}
        for _ in range(repeat):  # the two sizes in turn: the load falls on both alike
            for n in (small, big):
                w, c = _compare_process(tmp / f"scores_{n}.csv", tmp / f"out_{n}")
                wall[n].append(w)
                cpu[n].append(c)
        secs = {n: min(w) for n, w in wall.items()}
        ratio = secs[big] / secs[small]
        cpu_ratio = statistics.median(cpu[big]) / statistics.median(cpu[small])
        out.append((f"compare_out_{big}_vs_{small}", 3.0 / ratio,
                    f"unanimity compare --out, whole process: {big} x 60 x 2 {secs[big]:.2f} s "
                    f"vs {small} x 60 x 2 {secs[small]:.2f} s = {ratio:.2f}x (best of {repeat}, "
                    f"sizes in turn; target <= 3x); CPU time (user + system, medians) "
                    f"{statistics.median(cpu[big]):.2f} s vs {statistics.median(cpu[small]):.2f} s"
                    f" = {cpu_ratio:.2f}x"))

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
