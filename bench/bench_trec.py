"""IR measures from TREC files, whole processes: Unanimity against its peers, in one run.

TREC DL 2019 from ``../shared`` (37 runs x 43 topics), nDCG@10, AP(rel=2), RR(rel=2),
P(rel=2)@10. Four processes, started in turn (A B C D, A B C D, ...; medians of
``BENCH_TREC_REPEAT`` rounds, default 3), each timed from start to exit with its own peak
resident memory (``VmHWM``, written by the process itself):

* ``unanimity evaluate`` (the command line, what a user runs);
* the same through the library (``load`` then ``evaluate``: no argument parser);
* a plain pytrec_eval script (reads the files line by line, two evaluators for the two
  relevance levels);
* ir_measures on the files (``read_trec_qrels`` / ``read_trec_run`` and one evaluator).

Ratios (>= 1 meets the target): ``trec_ir_vs_pytrec_eval`` = 1.5 x pytrec_eval / Unanimity
(target: at most 1.5 times the script), ``trec_ir_vs_ir_measures`` = ir_measures / Unanimity,
``trec_ir_peak_memory`` = 300 MB / Unanimity's peak. Skipped (no line) when the shared campaign
is absent. The machine may be shared: read the ratios, not the seconds. ``--quick``
(bench/run.py): one round unless ``BENCH_TREC_REPEAT`` says otherwise.

At scale (not in the quick mode): the campaign of ``scripts/make_trec_campaign.py`` (100 runs x
200 topics x 1,000 documents, 20 million run lines; written once into ``BENCH_TREC_SCALE_DIR``,
default a folder of the system's temporary directory, about 0.7 GB), the same measures:
``unanimity evaluate``, the same with ``--engine dask`` and the pytrec_eval script, in turn
(``BENCH_TREC_SCALE_REPEAT`` rounds, default 1). ``trec_scale_20M_vs_pytrec_eval`` = 1.5 x the
script's CPU time / Unanimity's (the wall times are printed beside it),
``trec_scale_20M_peak_memory`` = 2 GB / Unanimity's peak, ``trec_scale_20M_dask_vs_numpy`` =
numpy engine / Dask engine (wall time), with whether both wrote the same score table byte for
byte.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import quick, sized

ROOT = Path(__file__).resolve().parents[1]
TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"
MEASURES = "nDCG@10,AP(rel=2),RR(rel=2),P(rel=2)@10"

#: each process writes its own peak resident memory (VmHWM: this process image only; the
#: rusage of a child also counts the parent it was forked from) to the file named by argv[1]
PEAK = """
import atexit, sys
def _peak(path=sys.argv.pop(1)):
    with open("/proc/self/status") as fh:
        kb = next(line.split()[1] for line in fh if line.startswith("VmHWM:"))
    with open(path, "w") as out:
        out.write(kb)
atexit.register(_peak)
"""

CLI = """
import runpy
sys.argv = ["unanimity", *sys.argv[1:]]
runpy.run_module("metrics", run_name="__main__")
"""

PYTREC_EVAL = """
import gzip
from pathlib import Path
import pytrec_eval
root = Path(sys.argv[1])
def _open(path):  # TREC DL 2019 is gzipped, the generated campaign is not
    return gzip.open(path, "rt") if path.suffix == ".gz" else open(path)
qrels = {}
with _open(next(root.glob("qrels*"))) as fh:
    for line in fh:
        q, _, d, r = line.split()
        qrels.setdefault(q, {})[d] = int(r)
graded = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
binary = pytrec_eval.RelevanceEvaluator(qrels, {"map", "recip_rank", "P.10"}, relevance_level=2)
rows = []
for path in sorted((root / "runs").glob("*.run*")):
    run = {}
    with _open(path) as fh:
        for line in fh:
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
    a, b = graded.evaluate(run), binary.evaluate(run)
    rows += [(path.name, q, a[q]["ndcg_cut_10"], b[q]["map"], b[q]["recip_rank"], b[q]["P_10"])
             for q in a]
"""

IR_MEASURES = """
from pathlib import Path
import ir_measures
root = Path(sys.argv[1])
measures = [ir_measures.parse_measure(m) for m in sys.argv[2].split(",")[:2]] + [
    ir_measures.parse_measure("RR(rel=2)"), ir_measures.parse_measure("P(rel=2)@10")]
evaluator = ir_measures.evaluator(measures, ir_measures.read_trec_qrels(str(root / "qrels.txt.gz")))
rows = [m for p in sorted((root / "runs").glob("*.run.gz"))
        for m in evaluator.iter_calc(ir_measures.read_trec_run(str(p)))]
"""

LIBRARY = """
from metrics.measures.scoring import evaluate
from metrics.io import load
evaluate(load(sys.argv[1]), sys.argv[2])
"""


def _measure(code: str, args: list[str], peak_file: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one process running ``code``."""
    wall, _, peak = _measure_cpu(code, args, peak_file)
    return wall, peak


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _measure_cpu(code: str, args: list[str], peak_file: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system, with the processes it waited for: a Dask
    local cluster's workers) and peak resident MB of one process running ``code``."""
    t0, c0 = time.perf_counter(), _cpu_of_children()
    proc = subprocess.run([sys.executable, "-c", PEAK + code, str(peak_file), *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    wall, cpu = time.perf_counter() - t0, _cpu_of_children() - c0
    if proc.returncode:
        raise RuntimeError(f"{args[:2]} failed: {proc.stderr.decode()[-500:]}")
    return wall, cpu, int(peak_file.read_text()) / 1024


def run() -> list[tuple[str, float, str]]:
    return _trec_dl() + _trec_scale()


def _trec_dl() -> list[tuple[str, float, str]]:
    if not TREC_DL.is_dir():
        return []
    repeat = int(os.environ.get("BENCH_TREC_REPEAT", sized(3, 1)))
    with tempfile.TemporaryDirectory() as tmp:
        commands = {
            "unanimity": (CLI, ["evaluate", str(TREC_DL), "--metrics", MEASURES,
                                "--out", str(Path(tmp) / "scores.csv")]),
            "library": (LIBRARY, [str(TREC_DL), MEASURES]),
            "pytrec_eval": (PYTREC_EVAL, [str(TREC_DL)]),
            "ir_measures": (IR_MEASURES, [str(TREC_DL), MEASURES]),
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        peaks: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(repeat):
            for name, (code, args) in commands.items():
                wall, peak = _measure(code, args, Path(tmp) / "peak")
                times[name].append(wall)
                peaks[name].append(peak)
    t = {k: statistics.median(v) for k, v in times.items()}
    m = {k: statistics.median(v) for k, v in peaks.items()}
    seen = ", ".join(f"{k} {t[k]:.2f} s / {m[k]:.0f} MB" for k in commands)
    return [
        ("trec_ir_vs_pytrec_eval", 1.5 * t["pytrec_eval"] / t["unanimity"],
         f"unanimity evaluate {t['unanimity'] / t['pytrec_eval']:.2f}x a pytrec_eval script "
         f"(library route {t['library'] / t['pytrec_eval']:.2f}x); target <= 1.5x; {seen}"),
        ("trec_ir_vs_ir_measures", t["ir_measures"] / t["unanimity"],
         f"ir_measures on the files {t['ir_measures']:.2f} s vs {t['unanimity']:.2f} s"),
        ("trec_ir_peak_memory", 300.0 / m["unanimity"],
         f"peak {m['unanimity']:.0f} MB (library route {m['library']:.0f} MB, pytrec_eval "
         f"{m['pytrec_eval']:.0f} MB, ir_measures {m['ir_measures']:.0f} MB); target < 300 MB"),
    ]


def _scale_campaign() -> Path:
    """The generated 100 x 200 x 1,000 campaign (written once, then reused)."""
    folder = Path(os.environ.get("BENCH_TREC_SCALE_DIR", Path(tempfile.gettempdir())
                                 / "unanimity-trec-scale-100x200x1000-seed0"))
    if not (folder / "runs" / "run-099.run").is_file():
        subprocess.run([sys.executable, str(ROOT / "scripts" / "make_trec_campaign.py"),
                        str(folder)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return folder


def _trec_scale() -> list[tuple[str, float, str]]:
    """20 million run lines: ``unanimity evaluate`` (numpy and Dask engines) vs the pytrec_eval
    script, whole processes in turn (medians of ``BENCH_TREC_SCALE_REPEAT`` rounds, default 1);
    not in the quick mode (the campaign alone takes about 80 s to write)."""
    if quick():
        return []
    camp = _scale_campaign()
    repeat = int(os.environ.get("BENCH_TREC_SCALE_REPEAT", 1))
    with tempfile.TemporaryDirectory() as tmp:
        out = {e: Path(tmp) / f"{e}.csv" for e in ("numpy", "dask")}
        commands = {
            "numpy": (CLI, ["evaluate", str(camp), "--metrics", MEASURES, "--out",
                            str(out["numpy"])]),
            "dask": (CLI, ["evaluate", str(camp), "--metrics", MEASURES, "--engine", "dask",
                           "--out", str(out["dask"])]),
            "pytrec_eval": (PYTREC_EVAL, [str(camp)]),
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        peaks: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(repeat):
            for name, (code, args) in commands.items():
                wall, cpu, peak = _measure_cpu(code, args, Path(tmp) / "peak")
                times[name].append(wall)
                cpus[name].append(cpu)
                peaks[name].append(peak)
        same = out["numpy"].read_bytes() == out["dask"].read_bytes()
    t = {k: statistics.median(v) for k, v in times.items()}
    c = {k: statistics.median(v) for k, v in cpus.items()}
    m = {k: statistics.median(v) for k, v in peaks.items()}
    seen = ", ".join(f"{k} {t[k]:.1f} s wall / {c[k]:.1f} s CPU / {m[k]:.0f} MB"
                     for k in commands)
    return [
        # CPU time: on a shared machine the wall time of minute-long processes started in turn
        # swings with the load more than the ratio under test
        ("trec_scale_20M_vs_pytrec_eval", 1.5 * c["pytrec_eval"] / c["numpy"],
         f"unanimity evaluate {c['numpy'] / c['pytrec_eval']:.2f}x the CPU time of a pytrec_eval "
         f"script ({t['numpy'] / t['pytrec_eval']:.2f}x its wall time) on 100 runs x 200 topics "
         f"x 1,000 documents; target <= 1.5x; {seen}"),
        ("trec_scale_20M_peak_memory", 2048.0 / m["numpy"],
         f"peak {m['numpy']:.0f} MB (Dask client {m['dask']:.0f} MB, without its workers); "
         "target < 2 GB"),
        ("trec_scale_20M_dask_vs_numpy", t["numpy"] / t["dask"],
         f"--engine dask (local cluster, by groups of topics) {t['dask']:.1f} s vs "
         f"{t['numpy']:.1f} s; the same score table byte for byte: {'yes' if same else 'NO'}"),
    ]
