"""Catalogue of hostile and malformed inputs: one case per file, each refused (or reported) cleanly.

Every case ends in a :class:`~metrics.errors.UnanimityError` naming the file as the user knows it
(``archive.zip: member`` inside a zip), the line where there is one, and the problem; or loads
with a note in the validation report. See ``docs/input-safety.md``.
"""

from __future__ import annotations

import gzip
import os
import signal
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from io_hostile_cases import (
    GOLD,
    MIB,
    RUN,
    campaign,
    deflate_member_zip,
    gzip_bomb,
    nested_zip,
    parquet_bytes,
    patch_method,
    zip_of,
)

from metrics.cli import main
from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import load, load_files
from metrics.io.archive import open_root
from metrics.io.long_table import read_long
from metrics.io.replab import read_replab
from metrics.io.scoretable import read_score_table
from metrics.io.semeval import read_semeval
from metrics.io.source import Budget, Meter
from metrics.io.weps import read_weps


def _error(fn, *args, **kw) -> CampaignFormatError:
    with pytest.raises(CampaignFormatError) as err:
        fn(*args, **kw)
    return err.value


@pytest.fixture
def secret(tmp_path) -> Path:
    p = tmp_path / "outside" / "beds.tsv"
    p.parent.mkdir()
    p.write_text("jaguar\tSECRET-BED\n")
    return p


@pytest.fixture
def alarm():
    """Fail (instead of hanging) when a case takes more than 20 s."""
    def _timeout(*_):
        raise TimeoutError("the load did not finish within 20 s")

    old = signal.signal(signal.SIGALRM, _timeout)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


# --- paths stay inside the campaign -------------------------------------------------------------
@pytest.mark.parametrize("kind", ["absolute", "dotdot", "dev_zero"])
def test_testbeds_outside_the_zip_is_refused(tmp_path, secret, kind):
    target = {"absolute": str(secret), "dotdot": "../" * 20 + str(secret).lstrip("/"),
              "dev_zero": "/dev/zero"}[kind]
    root = campaign(tmp_path, **{"campaign.toml": f'testbeds = "{target}"\n'})
    z = zip_of(root, tmp_path / "archive.zip")
    e = _error(load, z)
    assert e.path == f"{z}: campaign.toml" and "leaves the campaign" in e.problem
    assert "SECRET" not in str(e)
    e = _error(load, root)  # the same campaign as a folder
    assert "leaves the campaign" in e.problem


def test_symlink_out_of_the_folder_is_refused(tmp_path, secret):
    root = campaign(tmp_path, **{"campaign.toml": 'testbeds = "beds.tsv"\n'})
    os.symlink(secret, root / "beds.tsv")
    e = _error(load, root)
    assert e.path == str(root / "beds.tsv") and "outside the campaign folder" in e.problem
    (root / "beds.tsv").unlink()
    (root / "campaign.toml").unlink()
    os.symlink(secret, root / "runs" / "b.tsv")
    e = _error(load, root)
    assert e.path == str(root / "runs" / "b.tsv")


def test_zip_member_paths_that_leave_the_archive(tmp_path):
    root = campaign(tmp_path)
    for bad in ("../evil.csv", "/abs/evil.csv", "runs/../../evil.csv"):
        z = zip_of(root, tmp_path / "a.zip", {bad: b"x"})
        e = _error(load, z)
        assert e.path == str(z) and "leaves the campaign" in e.problem


def test_fifo_given_as_gold_does_not_hang(tmp_path, alarm):
    fifo = tmp_path / "gold.csv"
    os.mkfifo(fifo)
    (tmp_path / "run.csv").write_text(RUN)
    e = _error(load_files, fifo, [tmp_path / "run.csv"])
    assert e.path == str(fifo) and "not a regular file" in e.problem
    root = campaign(tmp_path)
    (root / "gold.csv").unlink()
    os.mkfifo(root / "gold.csv")
    assert "gold" in str(_error(load, root))


def test_zip_symlink_member(tmp_path):
    root = campaign(tmp_path)
    z = tmp_path / "a.zip"
    zip_of(root, z)
    with zipfile.ZipFile(z, "a") as zf:
        info = zipfile.ZipInfo("runs/link.csv")
        info.external_attr = (0o120777 << 16)
        zf.writestr(info, "/etc/passwd")
    e = _error(load, z)
    assert e.path == f"{z}: runs/link.csv" and "symbolic link" in e.problem


# --- regular expressions -------------------------------------------------------------------------
def test_catastrophic_regex_is_linear(tmp_path, alarm):
    topic = "a" * 40 + "!"
    gold = f"topic,item,cluster\n{topic},d1,x\n"
    root = campaign(tmp_path, **{"gold.csv": gold, "runs__a.csv": gold,
                                 "campaign.toml": "testbed_regex = '^(a+)+$'\n"})
    c = load(root)  # RE2: no backtracking, so this returns at once
    assert any("no test bed" in n.problem for n in c.report.notes)
    z = zip_of(root, tmp_path / "up.zip")
    load(z, testbeds=r"^(a+)+$")


def test_regex_re2_cannot_run_is_a_clear_error(tmp_path):
    root = campaign(tmp_path, **{"campaign.toml": "testbed_regex = '(a)\\1'\n"})
    with pytest.raises(UnanimityError, match=r"bad test-bed regular expression.*backreferences"):
        load(root)


# --- decompression budget -------------------------------------------------------------------------
def test_gzip_bomb_gold_is_refused(tmp_path):
    bomb = gzip_bomb(b"topic,item,cluster\n", b"jaguar,d01,animal\n", 128 * MIB)
    assert len(bomb) < 1 * MIB
    root = campaign(tmp_path, **{"gold.csv": b""})
    (root / "gold.csv").unlink()
    (root / "gold.csv.gz").write_bytes(bomb)
    e = _error(load, root)
    assert e.path == str(root / "gold.csv.gz") and "decompression bomb" in e.problem


def test_zip_member_bomb_is_refused_and_a_member_never_read_costs_nothing(tmp_path):
    root = campaign(tmp_path)
    others = {"gold.csv": GOLD.encode(), "runs/a.csv": RUN.encode()}
    z = deflate_member_zip(tmp_path / "b.zip", "runs/huge.csv", 64 * MIB, others)
    e = _error(load, z)
    assert e.path == f"{z}: runs/huge.csv" and "decompression bomb" in e.problem
    z2 = deflate_member_zip(tmp_path / "c.zip", "notes/huge.bin", 64 * MIB, others)
    meter = Meter(Budget())
    node = open_root(z2, meter)
    assert node.child("notes/huge.bin").is_file()  # listed, never inflated
    c = load(z2)
    assert list(c.runs) == ["a"]
    del root


def test_budget_is_configurable(tmp_path, monkeypatch):
    root = campaign(tmp_path)
    e = _error(load, root, budget=Budget(file_bytes=10))
    assert "larger than 10 bytes" in e.problem
    e = _error(load, root, budget=Budget(campaign_bytes=100))
    assert "the campaign is larger" in e.problem
    monkeypatch.setenv("UNANIMITY_MAX_FILE_MB", "0.00001")
    assert "larger than" in _error(load, root).problem
    monkeypatch.setenv("UNANIMITY_MAX_FILE_MB", "lots")
    with pytest.raises(UnanimityError, match="UNANIMITY_MAX_FILE_MB"):
        load(root)


def test_ratio_applies_to_the_campaign_total(tmp_path):
    rows = b"".join(b"jaguar,d%02d,a\n" % i for i in range(3))
    gz = gzip.compress(b"topic,item,cluster\n" + rows * 2000)
    root = campaign(tmp_path)
    for i in range(6):
        (root / "runs" / f"r{i}.csv.gz").write_bytes(gz)
    small = Budget(ratio=50, ratio_after=100_000)
    e = _error(load, root, budget=small)
    assert "campaign decompresses more than 50 times" in e.problem
    assert load(root).runs  # the default budget admits it


# --- zips ------------------------------------------------------------------------------------------
def test_corrupt_deflate_member(tmp_path):
    root = campaign(tmp_path)
    z = zip_of(root, tmp_path / "a.zip", {"runs/b.csv": RUN.encode() * 50})
    data = bytearray(z.read_bytes())
    i = data.find(b"runs/b.csv") + len("runs/b.csv")
    data[i + 5: i + 25] = b"\xff" * 20
    z.write_bytes(bytes(data))
    e = _error(load, z)
    assert e.path == f"{z}: runs/b.csv" and "corrupt zip member" in e.problem


def test_encrypted_member(tmp_path):
    root = campaign(tmp_path)
    z = zip_of(root, tmp_path / "a.zip", compression=zipfile.ZIP_STORED)
    data = bytearray(z.read_bytes())
    for sig, off in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        start = 0
        while (i := data.find(sig, start)) >= 0:
            data[i + off] |= 1
            start = i + 4
    z.write_bytes(bytes(data))
    e = _error(load, z)
    assert e.path.startswith(f"{z}: ") and "encrypted" in e.problem


def test_unsupported_compression_method(tmp_path):
    root = campaign(tmp_path)
    z = zip_of(root, tmp_path / "a.zip", compression=zipfile.ZIP_STORED)
    z.write_bytes(patch_method(z.read_bytes(), 99))
    e = _error(load, z)
    assert e.path.startswith(f"{z}: ") and "unsupported compression" in e.problem


def test_deeply_nested_zips(tmp_path):
    root = campaign(tmp_path)
    inner = zip_of(root, tmp_path / "inner.zip").read_bytes()
    (tmp_path / "deep.zip").write_bytes(nested_zip(1500, inner))
    e = _error(load, tmp_path / "deep.zip")
    assert "nested more than 3 deep" in e.problem
    (tmp_path / "two.zip").write_bytes(nested_zip(1, inner))
    assert list(load(tmp_path / "two.zip").runs) == ["a"]


def test_truncated_zip_and_utf16_get_a_hint(tmp_path):
    root = campaign(tmp_path)
    z = zip_of(root, tmp_path / "a.zip")
    z.write_bytes(z.read_bytes()[:-30])
    e = _error(load, z)
    assert e.path == str(z) and "truncated or corrupt zip" in e.problem
    (root / "runs" / "a.csv").write_bytes(RUN.encode("utf-16"))
    e = _error(load, root)
    assert e.path == str(root / "runs" / "a.csv") and "UTF-16" in e.problem


def test_errors_inside_a_zip_name_archive_and_member(tmp_path):
    root = campaign(tmp_path, **{"runs__bad.csv": "topic,item,cluster\njaguar,d01\n"})
    z = zip_of(root, tmp_path / "archive.zip")
    e = _error(load, z)
    assert str(e) == f"{z}: runs/bad.csv, line 2: missing value for cluster (wrong number of " \
        "columns or empty field)"


# --- campaign.toml --------------------------------------------------------------------------------
@pytest.mark.parametrize("toml, problem", [
    ('encoding = "no-such-codec"', "unknown encoding"),
    ('encoding = "hex"', "not a text encoding"),
    ("testbed_regex = 5", "is not a text string"),
    ("testbeds = 5", "is not a text string"),
    ('testbeds = "nope.tsv"', "no such file in the campaign"),
])
def test_bad_config_values(tmp_path, toml, problem):
    root = campaign(tmp_path, **{"campaign.toml": toml + "\n"})
    e = _error(load, root)
    assert e.path == str(root / "campaign.toml") and problem in e.problem


def test_topic_twice_in_testbeds_file(tmp_path):
    root = campaign(tmp_path, **{"campaign.toml": 'testbeds = "beds.tsv"\n',
                                 "beds.tsv": "jaguar\tA\njaguar\tB\n"})
    e = _error(load, root)
    assert e.path == str(root / "beds.tsv") and e.line == 2 and "(line 1)" in e.problem
    (root / "beds.tsv").write_text("jaguar\tA\njaguar\tA\n")
    assert load(root).testbeds.tolist() == ["A"]


# --- Parquet --------------------------------------------------------------------------------------
@pytest.mark.parametrize("column", ["topic", "item", "cluster"])
def test_parquet_nulls_are_refused(tmp_path, column):
    cols = {"topic": ["j", "j", "j"], "item": ["a", "b", "c"], "cluster": ["x", "y", "x"]}
    cols[column] = [cols[column][0], None, cols[column][2]]
    root = campaign(tmp_path, **{"gold.csv": b""})
    (root / "gold.csv").unlink()
    (root / "gold.parquet").write_bytes(parquet_bytes(cols))
    e = _error(load, root)
    assert e.path == str(root / "gold.parquet") and e.problem == f"empty {column} (null) in row 2"


@pytest.mark.parametrize("weight, problem", [
    (["1", "abc", "1"], "weight 'abc' is not a number (row 2)"),
    ([1.0, float("inf"), 1.0], "is not a finite number >= 0 (row 2)"),
    ([1.0, -1.0, 1.0], "is not a finite number >= 0 (row 2)"),
])
def test_parquet_weights(tmp_path, weight, problem):
    p = tmp_path / "g.parquet"
    p.write_bytes(parquet_bytes({"topic": ["j"] * 3, "item": ["a", "b", "c"],
                                 "cluster": ["x"] * 3, "weight": weight}))
    assert problem in _error(read_long, p).problem


def test_parquet_list_column(tmp_path):
    p = tmp_path / "g.parquet"
    p.write_bytes(parquet_bytes({"topic": ["j"], "item": ["a"], "cluster": [["x", "y"]]}))
    assert "column cluster holds list" in _error(read_long, p).problem


def test_parquet_bomb_by_rows(tmp_path):
    p = tmp_path / "g.parquet"

    n = 3_000_000
    t = pa.table({"topic": pa.array(["j"] * n).dictionary_encode(),
                  "item": pa.array(["a"] * n).dictionary_encode(),
                  "cluster": pa.array(["x"] * n).dictionary_encode()})
    pq.write_table(t, p, compression="zstd")
    assert p.stat().st_size < MIB
    assert "decompression bomb" in _error(read_long, p).problem


# --- text tables ----------------------------------------------------------------------------------
def test_cr_only_line_ends_with_a_short_row(tmp_path):
    p = tmp_path / "g.csv"
    p.write_bytes(b"topic,item,cluster\rj,a,x\rj,b\r")
    e = _error(read_long, p)
    assert e.line == 3 and "missing value for cluster" in e.problem


def test_line_numbers_after_a_quoted_newline(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text('topic,item,cluster\nj,"a\nb",x\nj,c,x,extra\n')
    assert _error(read_long, p).line == 4
    p.write_text('topic,item,cluster\nj,"a\nb",x\nj,c,\n')
    assert _error(read_long, p).line == 4
    p.write_text('topic,item,cluster\nj,"a\nb",x\nj,c,y\n')
    assert read_long(p).line.tolist() == [2, 4]


def test_unclosed_quote_names_its_line(tmp_path):
    p = tmp_path / "g.csv"
    p.write_text('topic,item,cluster\nj,a,x\nj,"b,x\nj,c,x\n')
    e = _error(read_long, p)
    assert e.line == 3 and "never closed" in e.problem


def test_empty_system_is_refused(tmp_path):
    root = campaign(tmp_path, **{"runs.csv": "topic,item,cluster,system\njaguar,d01,a,s1\n"
                                 "jaguar,d02,a,\n"})
    (root / "runs" / "a.csv").unlink()
    (root / "runs").rmdir()
    e = _error(load, root)
    assert e.path == str(root / "runs.csv") and e.line == 3 and e.problem == "empty system"


@pytest.mark.parametrize("weight", ["inf", "-1", "-0.5"])
def test_infinite_or_negative_csv_weights(tmp_path, weight):
    p = tmp_path / "g.csv"
    p.write_text(f"topic,item,cluster,weight\nj,a,x,1\nj,b,x,{weight}\n")
    e = _error(read_long, p)
    assert e.line == 3 and ">= 0" in e.problem
    s = tmp_path / "k.key"
    s.write_text(f"add.v add.v.1 s1/1\nadd.v add.v.2 s1/{weight}\n")
    assert _error(read_semeval, s).line == 2


def test_record_separator_score_table(tmp_path):
    p = tmp_path / "s.csv"
    p.write_bytes(b"\x1e")
    e = _error(load, p, format="scores")
    assert e.path == str(p)
    e = _error(read_score_table, p)
    assert e.path == str(p)


# --- what loads, with a note ----------------------------------------------------------------------
def test_gold_item_with_two_labels_is_noted(tmp_path):
    root = campaign(tmp_path, **{"gold.csv": GOLD + "jaguar,d01,car\n"})
    c = load(root)
    assert any("1 gold item(s) have several labels" in n.problem for n in c.report.all_notes())


def test_scores_outside_the_unit_interval_are_noted(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("system,topic,metric,value\na,t,reliability,1.5\na,t,vi,3.2\n")
    c = load(p)
    notes = [n for n in c.report.notes if "outside [0, 1]" in n.problem]
    assert len(notes) == 1 and notes[0].line == 2 and "reliability = 1.5" in notes[0].problem


def test_utf8_read_as_latin1_in_replab_is_noted(tmp_path):
    p = tmp_path / "g.tsv"
    p.write_text('"entity_id"\t"tweet_id"\t"topic"\n"RL2013D01E001"\t"1"\t"Café"\n',
                 encoding="utf-8")

    raw = read_replab(p)
    assert any("valid UTF-8" in n.problem for n in raw.notes)


# --- the command line: exit 2, one line naming the file
# --------------------------------------------
def _cases(tmp: Path) -> dict[str, tuple[Path, str]]:
    """Hostile campaigns for the CLI: case -> (path, what the message must name)."""
    out = {}
    root = campaign(tmp / "c1", **{"campaign.toml": 'testbeds = "/etc/passwd"\n'})
    z = zip_of(root, tmp / "c1" / "archive.zip")
    out["testbeds_outside"] = (z, f"{z}: campaign.toml")
    r2 = campaign(tmp / "c2")
    (r2 / "gold.csv").unlink()
    (r2 / "gold.parquet").write_bytes(parquet_bytes({"topic": ["j", None], "item": ["a", "b"],
                                                     "cluster": ["x", "y"]}))
    out["parquet_null"] = (r2, str(r2 / "gold.parquet"))
    r3 = campaign(tmp / "c3", **{"runs__b.csv": b"topic,item,cluster\rjaguar,d01,a\rjaguar\r"})
    out["cr_short_row"] = (r3, f"{r3 / 'runs' / 'b.csv'}, line 3")
    r4 = campaign(tmp / "c4", **{"campaign.toml": 'encoding = "hex"\n'})
    out["hex_encoding"] = (r4, str(r4 / "campaign.toml"))
    r5 = campaign(tmp / "c5")
    (r5 / "gold.csv").unlink()
    (r5 / "gold.csv.gz").write_bytes(gzip_bomb(b"topic,item,cluster\n", b"j,a,x\n", 64 * MIB))
    out["gzip_bomb"] = (r5, str(r5 / "gold.csv.gz"))
    return out


@pytest.mark.parametrize("command", [["info"], ["info", "--json"], ["evaluate"],
                                     ["compare", "--metrics", "reliability,sensitivity"]])
def test_cli_exit_2_with_one_line(tmp_path, capsys, command):

    for case, (path, named) in _cases(tmp_path).items():
        argv = [command[0], str(path), *command[1:]]
        if command[0] == "compare":
            argv += ["--out", str(tmp_path / "out")]
        assert main(argv) == 2, case
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and named in err, (case, err)


def test_cli_compare_out_is_a_file(tmp_path, capsys):

    root = campaign(tmp_path)
    (tmp_path / "taken").write_text("x")
    assert main(["compare", str(root), "--metrics", "reliability,sensitivity",
                 "--out", str(tmp_path / "taken")]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err


def test_unreadable_runs_folder(tmp_path, monkeypatch):
    root = campaign(tmp_path)
    real = Path.iterdir

    def iterdir(self):
        if self.name == "runs":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    e = _error(load, root)
    assert e.path == str(root / "runs") and e.problem == "cannot list folder (Permission denied)"


def test_xml_entity_expansion_bomb(tmp_path):

    ents = "".join(f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">' for i in range(9))
    p = tmp_path / "A.clust.xml"
    p.write_text(f'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaaaaaaaa">{ents}]>'
                 '<clustering name="&j;"><entity id="0"><doc rank="1"/></entity></clustering>')
    e = _error(read_weps, p)
    assert e.path == str(p) and e.line == 1 and "amplification" in e.problem


def test_testbeds_file_with_bom_and_cr_line_ends(tmp_path):
    root = campaign(tmp_path, **{"campaign.toml": 'testbeds = "./beds.tsv"\n',
                                 "beds.tsv": b"\xef\xbb\xbfjaguar\tA\r# note\r"})
    assert load(root).testbeds.tolist() == ["A"]
    (root / "beds.tsv").write_bytes(b"jaguar\t\xff\n")
    e = _error(load, root)
    assert e.path == str(root / "beds.tsv") and e.line == 1 and "not valid UTF-8" in e.problem
