"""Peak memory of a load on every bomb, with the default budget: each stays under 1 GB.

Each bomb is built in a temporary folder (never committed) and loaded in a fresh Python process,
which prints its peak resident memory (``VmHWM`` of ``/proc/self/status``: unlike
``ru_maxrss``, not inherited from the parent) and how the load ended. Run with
``pytest -m slow tests/test_io_bombs_memory.py -s`` to see the numbers.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from io_hostile_cases import GOLD, MIB, RUN, campaign, nested_zip, zip_of

ROOT = Path(__file__).resolve().parents[1]
GIB = 1 << 30
LIMIT = 1 << 30  # bytes of peak memory a load may reach on a bomb

_PROBE = """
import json, sys
from metrics.errors import UnanimityError
from metrics.io import load
try:
    load(sys.argv[1])
    outcome = "loaded"
except UnanimityError as exc:
    outcome = str(exc)
peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status")
            if line.startswith("VmHWM:"))
print(json.dumps({"rss": peak, "outcome": outcome}))
"""


def _gzip_members(block: bytes, total: int) -> bytes:
    """A multi-member gzip of ``block`` repeated up to ``total`` bytes, built in O(1) work."""
    member = gzip.compress(block, 9)
    return member * (total // len(block))


def _deflate_zip(path: Path, name: str, total: int, others: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for n, data in others.items():
            zf.writestr(n, data)
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as fh:
            block = b"jaguar,d01,animal\n" * (MIB // 18)
            fh.write(b"topic,item,cluster\n")
            for _ in range(total // len(block)):
                fh.write(block)
    return path


def _bombs(tmp: Path) -> dict[str, Path]:
    out = {}
    header, row = b"topic,item,cluster\n", b"jaguar,d01,animal\n"
    block = header + row * (MIB // len(row))
    for label, size in (("gzip_128MiB", 128 * MIB), ("gzip_1GiB", GIB)):
        root = campaign(tmp / label)
        (root / "gold.csv").unlink()
        (root / "gold.csv.gz").write_bytes(_gzip_members(block, size))
        out[label] = root
    others = {"gold.csv": GOLD.encode(), "runs/a.csv": RUN.encode()}
    out["zip_member_1GiB_read"] = _deflate_zip(tmp / "read.zip", "runs/huge.csv", GIB, others)
    out["zip_member_1GiB_unread"] = _deflate_zip(tmp / "unread.zip", "docs/huge.bin", GIB, others)
    root = campaign(tmp / "gz_in_zip")
    out["gzip_1GiB_in_zip"] = zip_of(root, tmp / "gz.zip",
                                     {"runs/b.csv.gz": _gzip_members(block, GIB)},
                                     compression=zipfile.ZIP_STORED)
    root = campaign(tmp / "devzero", **{"campaign.toml": 'testbeds = "/dev/zero"\n'})
    out["testbeds_dev_zero_zip"] = zip_of(root, tmp / "devzero.zip")
    inner = zip_of(campaign(tmp / "nest"), tmp / "inner.zip").read_bytes()
    (tmp / "deep.zip").write_bytes(nested_zip(1500, inner))
    out["zip_nested_1500"] = tmp / "deep.zip"

    n = 50_000_000
    idx = pa.array([0] * n, type=pa.int32())
    col = pa.DictionaryArray.from_arrays(idx, pa.array(["x"]))
    root = campaign(tmp / "parquet")
    (root / "gold.csv").unlink()
    pq.write_table(pa.table({"topic": col, "item": col, "cluster": col}), root / "gold.parquet",
                   compression="zstd")
    out["parquet_50M_rows"] = root
    return out


@pytest.mark.slow
def test_every_bomb_stays_under_1_gb(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for var in ("UNANIMITY_MAX_FILE_MB", "UNANIMITY_MAX_CAMPAIGN_MB", "UNANIMITY_MAX_RATIO"):
        env.pop(var, None)
    results = {}
    for label, path in _bombs(tmp_path).items():
        size = path.stat().st_size if path.is_file() else sum(
            p.stat().st_size for p in path.rglob("*") if p.is_file())
        proc = subprocess.run([sys.executable, "-c", _PROBE, str(path)], env=env,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, (label, proc.stderr[-2000:])
        res = json.loads(proc.stdout.strip().splitlines()[-1])
        results[label] = res
        print(f"{label}: {size / MIB:.2f} MiB on disk, peak {res['rss'] / MIB:.0f} MiB: "
              f"{res['outcome'][:110]}")
        assert res["rss"] < LIMIT, label
        if label == "zip_member_1GiB_unread":
            assert res["outcome"] == "loaded"
        else:
            assert res["outcome"] != "loaded", label
