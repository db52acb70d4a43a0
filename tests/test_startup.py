"""Start-up: the command line loads only what a call uses (docs/guide.md, CONTRIBUTING.md).

Each check runs a fresh interpreter (an import already made by another test would hide one) and
reads ``sys.modules`` at its end: building every sub-command's parser (``unanimity --help``),
``--version``, ``info`` on a campaign and an IR evaluation leave out the heavy modules they do
not use. Timings are the benchmark's (``bench/bench_startup.py``), not asserted here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "pandas", "pyarrow", "scipy", "ir_measures", "pytrec_eval", "dask")

#: runs the command line with sys.argv[1:], then prints the heavy top-level modules it imported
PROBE = """
import contextlib, io, json, sys
from metrics.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:  # --help exits from argparse
        code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in HEAVY)
print(json.dumps({"code": code, "modules": heavy}))
"""


def loaded(*argv: str) -> set[str]:
    """The heavy modules (and submodules) a fresh ``unanimity ARGV`` imported."""
    proc = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + PROBE, *argv], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["code"] == 0, proc.stderr
    return set(out["modules"])


def test_importing_the_command_line_imports_nothing_heavy():
    code = (f"import sys, metrics.cli; print(sorted(m for m in sys.modules "
            f"if m.split('.')[0] in {HEAVY!r}))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("argv", [("--help",), ("--version",), ("compare", "--help"),
                                  ("evaluate", "--help"), ("meta-evaluate", "--help")])
def test_help_and_version_import_no_heavy_module(argv):
    assert loaded(*argv) == set()


def test_info_on_a_campaign_imports_no_scipy():
    mods = loaded("info", str(ROOT / "demo_data" / "replab2013"))
    assert "pandas" in mods  # the campaign was read (the probe is not vacuous)
    assert not {m for m in mods if m.split(".")[0] in ("scipy", "ir_measures", "dask")}


def test_an_ir_evaluation_imports_no_scipy(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\n")
    (tmp_path / "runs" / "a.run").write_text("q1 Q0 d1 1 2.0 a\nq1 Q0 d2 2 1.0 a\n"
                                             "q2 Q0 d3 1 5.0 a\n")
    out = tmp_path / "scores.csv"
    mods = loaded("evaluate", str(tmp_path), "--metrics", "nDCG@10,AP", "--out", str(out))
    assert "ir_measures" in mods and out.is_file()  # the IR route ran
    assert not {m for m in mods if m.split(".")[0] in ("scipy", "dask")}
