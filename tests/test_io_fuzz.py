"""Fuzzing every reader and format: the only exception a load may raise is UnanimityError.

Hypothesis feeds each reader arbitrary bytes and *near-valid* files (a valid file with bytes
inserted, deleted or replaced, line ends changed, cut short, gzip-compressed and then damaged),
as loose files, inside a campaign folder and inside a zip. In CI the examples are derandomised
(the ``ci`` profile of ``tests/conftest.py``).
"""

from __future__ import annotations

import gzip
import io
import os
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from io_hostile_cases import GOLD, RUN, parquet_bytes

from metrics.errors import UnanimityError
from metrics.io import detect_format, load, load_files
from metrics.io.long_table import read_long
from metrics.io.replab import read_replab
from metrics.io.scoretable import read_score_table
from metrics.io.semeval import read_semeval
from metrics.io.weps import read_weps

#: examples per test; raise UNANIMITY_FUZZ_EXAMPLES for a longer hunt
SETTINGS = settings(max_examples=int(os.environ.get("UNANIMITY_FUZZ_EXAMPLES", 60)), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

VALID = {
    "long.csv": GOLD.encode(),
    "long.tsv": GOLD.replace(",", "\t").encode(),
    "long_w.csv": b"topic,item,cluster,weight,system\nj,a,x,0.5,s\nj,b,y,,s\n",
    "replab.tsv": b'"entity_id"\t"tweet_id"\t"topic"\n"RL2013D01E001"\t"1"\t"Jokes"\n'
                  b'"RL2013D01E001"\t"2"\t"Other"\n',
    "semeval.key": b"add.v add.v.1 add.v.s1/0.8 add.v.s2/0.2\nadd.v add.v.2 add.v.s1\n",
    "weps.clust.xml": b'<clustering name="A"><entity id="0"><doc rank="0"/><doc rank="3"/>'
                      b'</entity><discarded><doc rank="7"/></discarded></clustering>\n',
    "scores.csv": b"system,topic,metric,value\na,t1,reliability,0.5\nb,t1,reliability,nan\n",
    "long.parquet": parquet_bytes({"topic": ["j", "j"], "item": ["a", "b"],
                                   "cluster": ["x", "y"]}),
    "scores.parquet": parquet_bytes({"system": ["a"], "topic": ["t"], "metric": ["m"],
                                     "value": [0.5]}),
}
READERS = {
    "long.csv": read_long, "long.tsv": read_long, "long_w.csv": read_long,
    "replab.tsv": read_replab, "semeval.key": read_semeval, "weps.clust.xml": read_weps,
    "scores.csv": read_score_table, "long.parquet": read_long, "scores.parquet": read_score_table,
}
NASTY = [b"\r", b"\n", b"\r\n", b'"', b",", b"\t", b"\x00", b"\x1e", b"\xff", b"\xef\xbb\xbf",
         b"\\", b"nan", b"inf", b"-1", b" ", b"/", b"<", b">", b"\xc3", b"\x85", "\u2028".encode()]


@st.composite
def mutated(draw, data: bytes) -> bytes:
    """``data`` with a few random edits (or cut, or gzip-compressed and possibly damaged)."""
    buf = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "cut", "eol"]))
        pos = draw(st.integers(0, len(buf)))
        piece = draw(st.one_of(st.sampled_from(NASTY), st.binary(min_size=1, max_size=4)))
        if kind == "insert":
            buf[pos:pos] = piece
        elif kind == "delete":
            del buf[pos: pos + draw(st.integers(1, 8))]
        elif kind == "replace":
            buf[pos: pos + len(piece)] = piece
        elif kind == "cut":
            del buf[pos:]
        else:
            buf = bytearray(bytes(buf).replace(b"\n", draw(st.sampled_from([b"\r", b"\r\n"]))))
    out = bytes(buf)
    if draw(st.booleans()) and draw(st.booleans()):
        out = gzip.compress(out)
        if draw(st.booleans()):
            out = out[: draw(st.integers(0, len(out)))]
    return out


def _only_our_errors(fn, *args, **kw) -> None:
    try:
        fn(*args, **kw)
    except UnanimityError:
        pass


@pytest.mark.parametrize("name", sorted(VALID))
@SETTINGS
@given(data=st.data())
def test_reader_on_near_valid_files(name, data):
    content = data.draw(mutated(VALID[name]))
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / name
        p.write_bytes(content)
        _only_our_errors(READERS[name], p)
        _only_our_errors(detect_format, p)


@pytest.mark.parametrize("name", sorted(VALID))
@SETTINGS
@given(content=st.binary(max_size=300))
def test_reader_on_arbitrary_bytes(name, content):
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / name
        p.write_bytes(content)
        _only_our_errors(READERS[name], p)
        _only_our_errors(detect_format, p)


@pytest.mark.parametrize("where", ["gold.csv", "runs/a.csv", "campaign.toml", "runs.csv",
                                   "beds.tsv", "gold.parquet"])
@SETTINGS
@given(data=st.data())
def test_campaign_folder_and_zip(where, data):
    base = {"gold.csv": GOLD.encode(), "runs/a.csv": RUN.encode()}
    if where == "beds.tsv":
        base["campaign.toml"] = b'testbeds = "beds.tsv"\n'
        seed = b"jaguar\tA\n"
    elif where == "campaign.toml":
        seed = b'name = "x"\ntestbed_regex = "^(j)"\nencoding = "utf-8"\nformat = "long"\n'
    elif where == "runs.csv":
        seed = b"topic,item,cluster,system\njaguar,d01,a,s\njaguar,d02,b,t\n"
    elif where == "gold.parquet":
        del base["gold.csv"]
        seed = VALID["long.parquet"]
    else:
        seed = base[where]
    base[where] = data.draw(st.one_of(mutated(seed), st.binary(max_size=200)))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "c"
        for rel, content in base.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(content)
        _only_our_errors(load, root)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for rel, content in base.items():
                zf.writestr(rel, content)
        z = Path(tmp) / "c.zip"
        z.write_bytes(buf.getvalue())
        _only_our_errors(load, z)
        _only_our_errors(load_files, root / "runs" / "a.csv", [root / "runs" / "a.csv"])


@SETTINGS
@given(data=st.data())
def test_damaged_zip_archives(data):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("gold.csv", GOLD * 20)
        zf.writestr("runs/a.csv", RUN * 20)
    content = data.draw(mutated(buf.getvalue()))
    with tempfile.TemporaryDirectory() as tmp:
        z = Path(tmp) / "c.zip"
        z.write_bytes(content)
        _only_our_errors(load, z)


@SETTINGS
@given(rule=st.text(max_size=30), topic=st.text(max_size=50))
def test_user_regexes(rule, topic):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "c"
        (root / "runs").mkdir(parents=True)
        row = "topic,item,cluster\n" + '"' + topic.replace('"', '""') + '",d1,x\n'
        (root / "gold.csv").write_text(row, encoding="utf-8", errors="surrogatepass")
        (root / "runs" / "a.csv").write_text(row, encoding="utf-8", errors="surrogatepass")
        _only_our_errors(load, root, testbeds=rule)
