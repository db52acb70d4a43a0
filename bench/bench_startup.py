"""Start-up of the command line, whole processes: ``unanimity --help`` against
``python -c "import pandas"``, in one run.

Two processes started in turn (A B, A B, ...; medians of ``BENCH_STARTUP_REPEAT`` rounds,
default 11, 5 in the quick mode), each timed from start to exit: the ``unanimity`` entry point
with ``--help`` (it builds every sub-command's parser) and a Python that imports pandas. A third,
``unanimity --version``, is reported beside them.

Ratio (>= 1 meets the target): ``startup_help_vs_import_pandas`` = 1.2 x the pandas import /
``unanimity --help`` (target: at most 1.2 times the import). The machine may be shared: read the
ratio, not the seconds.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from timing import sized

ROOT = Path(__file__).resolve().parents[1]


def _unanimity() -> list[str]:
    """The installed entry point beside this Python (what a user runs), else ``-m metrics``."""
    script = Path(sys.executable).with_name("unanimity")
    found = str(script) if script.is_file() else shutil.which("unanimity")
    return [found] if found else [sys.executable, "-m", "metrics"]


def _wall(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    return time.perf_counter() - t0


def run() -> list[tuple[str, float, str]]:
    repeat = int(os.environ.get("BENCH_STARTUP_REPEAT", sized(11, 5)))
    commands = {
        "help": [*_unanimity(), "--help"],
        "import pandas": [sys.executable, "-c", "import pandas"],
        "version": [*_unanimity(), "--version"],
    }
    times: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(repeat):
        for name, cmd in commands.items():
            times[name].append(_wall(cmd))
    t = {k: statistics.median(v) for k, v in times.items()}
    return [
        ("startup_help_vs_import_pandas", 1.2 * t["import pandas"] / t["help"],
         f"unanimity --help {t['help']:.3f} s = {t['help'] / t['import pandas']:.2f}x "
         f"python -c 'import pandas' {t['import pandas']:.3f} s (--version {t['version']:.3f} s;"
         f" medians of {repeat}); target <= 1.2x"),
    ]
