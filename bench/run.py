"""Run every benchmark and print one ``RATIO <name> <value>`` line per benchmark.

A ratio compares a figure with its peer measured in the same run: how many times faster
Unanimity is than what a user would otherwise use (scikit-learn, SciPy, the ``bcubed``
package, a straightforward loop, a single ``np.bincount`` pass), or than the same call on a
smaller problem; for the benchmarks with an absolute target it is target seconds / measured
seconds (so >= 1 meets the target). Absolute timings and the target follow each line; the
machine's load average is printed before and after.

Usage: ``python bench/run.py [--quick] [MODULE_SUBSTRING ...]`` (runs the ``bench/bench_*.py``
modules). ``--quick``: smaller sizes and no browser, about a minute in all, for a contributor's
loop (its figures are not the README's).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the bench modules share bench/timing.py

from timing import QUICK_ENV  # noqa: E402


def _load() -> str:
    try:
        return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:  # pragma: no cover - not on every platform
        return "load average unknown"


def main(argv: list[str]) -> int:
    if "--quick" in argv:
        argv = [a for a in argv if a != "--quick"]
        os.environ[QUICK_ENV] = "1"
    print(f"# {'quick mode; ' if os.environ.get(QUICK_ENV) == '1' else ''}{_load()}", flush=True)
    for path in sorted(HERE.glob("bench_*.py")):
        if argv and not any(a in path.stem for a in argv):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        for name, ratio, detail in module.run():
            print(f"RATIO {name} {ratio:.2f}    # {detail}", flush=True)
    print(f"# {_load()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
