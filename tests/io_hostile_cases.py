"""Builders of malformed and hostile campaigns, one per case of the catalogue.

Every builder writes its input under a temporary folder and returns the path to give to
:func:`metrics.io.load` (or the CLI). Bombs are generated here, never committed.
"""

from __future__ import annotations

import io
import shutil
import struct
import zipfile
import zlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

DATA = Path(__file__).resolve().parent / "data"
LONG = DATA / "long" / "csv_campaign"
GOLD = "topic,item,cluster\njaguar,d01,animal\njaguar,d02,car\njaguar,d03,animal\n"
RUN = "topic,item,cluster\njaguar,d01,a\njaguar,d02,b\njaguar,d03,a\n"
MIB = 1 << 20


def campaign(tmp: Path, name: str = "campaign", **files: str | bytes) -> Path:
    """A small long-table campaign folder, with ``files`` (relative path -> content) added."""
    root = tmp / name
    (root / "runs").mkdir(parents=True, exist_ok=True)
    (root / "gold.csv").write_text(GOLD)
    (root / "runs" / "a.csv").write_text(RUN)
    for rel, content in files.items():
        p = root / rel.replace("__", "/")
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
    return root


def zip_of(folder: Path, out: Path, extra: dict[str, bytes] | None = None,
           compression: int = zipfile.ZIP_DEFLATED) -> Path:
    """Zip a folder (members relative to it) plus ``extra`` members given as bytes."""
    with zipfile.ZipFile(out, "w", compression) as zf:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                zf.write(p, p.relative_to(folder).as_posix())
        for name, data in (extra or {}).items():
            zf.writestr(name, data)
    return out


def gzip_bomb(header: bytes, row: bytes, size: int) -> bytes:
    """A gzip stream of ``header`` then ``row`` repeated to ``size`` bytes, written in chunks."""
    comp = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [comp.compress(header)]
    block = row * (MIB // len(row))
    done = len(header)
    while done < size:
        parts.append(comp.compress(block))
        done += len(block)
    parts.append(comp.flush())
    return b"".join(parts)


def deflate_member_zip(out: Path, name: str, size: int, others: dict[str, bytes]) -> Path:
    """A zip whose member ``name`` inflates to ``size`` bytes of one CSV row repeated."""
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in others.items():
            zf.writestr(n, data)
        info = zipfile.ZipInfo(name)
        info.compress_type = zipfile.ZIP_DEFLATED
        with zf.open(info, "w", force_zip64=True) as fh:
            fh.write(b"topic,item,cluster\n")
            block = b"jaguar,d01,animal\n" * (MIB // 18)
            for _ in range(size // len(block)):
                fh.write(block)
    return out


def patch_method(data: bytes, method: int) -> bytes:
    """Set the compression method of every member (local and central headers) to ``method``."""
    buf = bytearray(data)
    for sig, off in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (i := buf.find(sig, start)) >= 0:
            struct.pack_into("<H", buf, i + off, method)
            start = i + 4
    return bytes(buf)


def nested_zip(depth: int, inner: bytes) -> bytes:
    """``inner`` zipped ``depth`` times, each zip holding only the previous one."""
    data = inner
    for level in range(depth):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
            zf.writestr(f"level{level}.zip", data)
        data = buf.getvalue()
    return data


def parquet_bytes(columns: dict[str, list]) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.table(columns), buf)
    return buf.getvalue()


def copy_long(tmp: Path) -> Path:
    root = tmp / "long"
    shutil.copytree(LONG, root)
    return root
