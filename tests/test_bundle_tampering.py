"""Bundles edited after writing are refused in one line on both routes (metrics/bundle.py,
metrics/bundle_zip.py, docs/rankings.md "Bundles"): the folder route (``unanimity info DIR``,
``unanimity dashboard DIR``, ``open_bundle``) and the zip route (the dashboard's upload,
``unpack_bundle_zip``). Every case is built here from a freshly written bundle; where the attack
keeps the fingerprints right (an attacker can rewrite the manifest too), the manifest's SHA-256 is
recomputed so that the reader's other checks are the ones tested."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from score_examples import random_score_table

from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.reports.bundle import MANIFEST, open_bundle, write_bundle
from metrics.reports.bundle_manifest import json_depth
from metrics.reports.bundle_zip import bundle_zip_manifest, unpack_bundle_zip

DEEP = 100_000


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A real ``compare --out`` bundle with a LaTeX report (6 systems x 5 topics)."""
    src = tmp_path_factory.mktemp("in") / "scores.csv"
    random_score_table(6, 5).to_csv(src, index=False)
    out = tmp_path_factory.mktemp("b") / "bundle"
    assert main(["compare", str(src), "--metrics", "bcubed_precision,bcubed_recall", "--out",
                 str(out), "--latex"]) == 0
    return out


def _manifest(root: Path) -> dict:
    return json.loads((root / MANIFEST).read_text())


def _save(root: Path, m: dict) -> None:
    (root / MANIFEST).write_text(json.dumps(m))


def _rewrite(root: Path, name: str, data: bytes) -> None:
    """Replace a listed file and its fingerprint (a tampering the hashes cannot catch)."""
    (root / name).write_bytes(data)
    m = _manifest(root)
    for entry in m["files"].values():
        if entry["file"] == name:
            entry["sha256"] = hashlib.sha256(data).hexdigest()
    _save(root, m)


def _edit_csv(root: Path, name: str, column: str, value: str) -> None:
    df = pd.read_csv(root / name, dtype=str, keep_default_na=False)
    df.loc[1, column] = value
    _rewrite(root, name, df.to_csv(index=False).encode())


def _set(path: tuple, value):
    def edit(root: Path) -> None:
        m = _manifest(root)
        node = m
        for key in path[:-1]:
            node = node[key]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        _save(root, m)
    return edit


# name -> (edit of the bundle folder, what the one-line refusal says)
CASES = {
    "manifest_nested_deep": (lambda r: (r / MANIFEST).write_text("[" * DEEP + "]" * DEEP),
                             "nested 100000 levels deep"),
    "option_nested_deep": (_set(("options", "x"), "PLACEHOLDER"), "nested"),
    "json_member_nested_deep": (lambda r: _rewrite(r, "summary.json",
                                                   ("{\"a\":" * DEEP + "1" + "}" * DEEP).encode()),
                                "summary.json: JSON nested"),
    "sha256_is_a_number": (_set(("files", "pairs", "sha256"), 12345),
                           "files.pairs.sha256 must be 64 hex digits"),
    "input_is_empty": (_set(("inputs",), [{}]), "inputs[0].path must be text"),
    "table_without_rows": (_set(("files", "pairs", "rows"), KeyError),
                           "files.pairs.rows must be a whole number"),
    "text_in_int_column": (lambda r: _edit_csv(r, "pairs.csv", "n_a_better", "many"),
                           "pairs.csv: row 2, column 'n_a_better'"),
    "text_in_list_float_column": (lambda r: _edit_csv(r, "pairs.csv", "crossings", "0.1;x"),
                                  "pairs.csv: row 2, column 'crossings'"),
    "unclosed_quote": (lambda r: _rewrite(r, "systems.csv",
                                          (r / "systems.csv").read_bytes() + b'"open,1\n'),
                       "systems.csv: cannot read as CSV"),
    "json_member_not_json": (lambda r: _rewrite(r, "summary.json", b"{not json"),
                             "summary.json: not JSON"),
    "text_member_not_utf8": (lambda r: _rewrite(r, "report.tex", b"\xff\xfe\x00bad"),
                             "report.tex: not UTF-8"),
    "name_too_long": (_set(("files", "pairs", "file"), "p" * 300 + ".csv"),
                      "file systems allow 255"),
    "unknown_column_kind": (_set(("files", "pairs", "columns", "uir"), "complex"),
                            "files.pairs.columns.uir must be one of"),
    "manifest_not_json": (lambda r: (r / MANIFEST).write_text("{oops"), "manifest.json: not JSON"),
    "manifest_not_utf8": (lambda r: (r / MANIFEST).write_bytes(b"\xff{}"),
                          "manifest.json: not UTF-8"),
    "file_in_a_folder": (_set(("files", "pairs", "file"), "../pairs.csv"),
                         "plain file name"),
    "listed_twice": (_set(("files", "systems", "file"), "pairs.csv"), "listed twice"),
    "rows_disagree": (_set(("files", "pairs", "rows"), 7), "the manifest says 7"),
    "version_is_text": (_set(("format_version",), "3"), "another version"),
    "files_is_a_list": (_set(("files",), []), "files must be an object"),
}


def _nest_option(root: Path) -> None:
    text = (root / MANIFEST).read_text().replace('"PLACEHOLDER"', "[" * DEEP + "]" * DEEP)
    (root / MANIFEST).write_text(text)


def _tampered(pristine: Path, tmp: Path, case: str) -> Path:
    root = tmp / "bundle"
    shutil.copytree(pristine, root)
    edit, _ = CASES[case]
    edit(root)
    if case == "option_nested_deep":
        _nest_option(root)
    return root


def _zip(root: Path, extra: list[tuple[zipfile.ZipInfo | str, bytes]] = ()) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in sorted(root.iterdir()):
            z.writestr(f"results/{f.name}", f.read_bytes())
        for info, data in extra:
            z.writestr(info, data)
    return buf.getvalue()


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_folder_route_refuses_in_one_line(pristine, tmp_path, capsys, monkeypatch, case):
    root = _tampered(pristine, tmp_path, case)
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("the dashboard was started"))
    capsys.readouterr()
    for command in ("info", "dashboard"):
        assert main([command, str(root)]) == 2, command
        out, err = capsys.readouterr()
        line = _one_line(err)
        assert line.startswith(f"unanimity {command}: error: ") and CASES[case][1] in line, line
    with pytest.raises(UnanimityError):
        open_bundle(root)


@pytest.mark.parametrize("case", sorted(CASES))
def test_zip_route_refuses_in_one_line(pristine, tmp_path, case):
    data = _zip(_tampered(pristine, tmp_path, case))
    try:  # the upload's first look (is it a bundle?) raises nothing but a refusal either
        bundle_zip_manifest(data, "b.zip")
    except UnanimityError:
        pass
    with pytest.raises(UnanimityError) as err:
        unpack_bundle_zip(data, tmp_path / "unpacked", "b.zip")
    msg = str(err.value)
    assert "\n" not in msg and msg.startswith("b.zip"), msg
    assert CASES[case][1].split(": ")[-1] in msg, msg
    assert str(tmp_path) not in msg  # the upload's storage folder is not shown


def test_symlinked_member_is_refused_even_with_its_hash(pristine, tmp_path, capsys):
    root = tmp_path / "bundle"
    shutil.copytree(pristine, root)
    outside = tmp_path / "elsewhere.csv"
    shutil.copy(root / "pairs.csv", outside)  # same bytes, same SHA-256
    (root / "pairs.csv").unlink()
    os.symlink(outside, root / "pairs.csv")
    with pytest.raises(UnanimityError, match=r"pairs\.csv: is a symbolic link"):
        open_bundle(root)
    assert main(["info", str(root)]) == 2
    assert "symbolic link" in _one_line(capsys.readouterr().err)
    # the manifest itself through a link, and a listed file that is a FIFO or a folder
    (root / "pairs.csv").unlink()
    shutil.copy(outside, root / "pairs.csv")
    shutil.move(root / MANIFEST, tmp_path / "m.json")
    os.symlink(tmp_path / "m.json", root / MANIFEST)
    with pytest.raises(UnanimityError, match=r"manifest\.json: is a symbolic link"):
        open_bundle(root)
    (root / MANIFEST).unlink()
    shutil.move(tmp_path / "m.json", root / MANIFEST)
    open_bundle(root)
    (root / "report.tex").unlink()
    os.mkfifo(root / "report.tex")
    with pytest.raises(UnanimityError, match=r"report\.tex: is a FIFO \(named pipe\)"):
        open_bundle(root)
    (root / "report.tex").unlink()
    (root / "report.tex").mkdir()
    with pytest.raises(UnanimityError, match=r"report\.tex: is a folder"):
        open_bundle(root)


@pytest.mark.filterwarnings("ignore:Duplicate name")  # the duplicate is the point
def test_zip_symlink_and_duplicate_members_are_refused(pristine, tmp_path):
    link = zipfile.ZipInfo("results/pairs.csv")
    link.external_attr = 0o120777 << 16
    dup = _zip(pristine, extra=[("results/pairs.csv", (pristine / "pairs.csv").read_bytes())])
    with pytest.raises(UnanimityError, match=r"^b\.zip: results/pairs\.csv is in the zip twice"):
        unpack_bundle_zip(dup, tmp_path / "a", "b.zip")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in sorted(pristine.iterdir()):
            if f.name != "pairs.csv":
                z.writestr(f"results/{f.name}", f.read_bytes())
        z.writestr(link, "/etc/passwd")
    with pytest.raises(UnanimityError, match=r"^b\.zip: results/pairs\.csv: member is a symbolic"):
        unpack_bundle_zip(buf.getvalue(), tmp_path / "b", "b.zip")


@pytest.mark.parametrize("command", ["info", "dashboard", "compare"])
def test_a_bundle_path_too_long_for_the_file_system(tmp_path, capsys, monkeypatch, command):
    monkeypatch.setattr(os, "execve", lambda *a: pytest.fail("the dashboard was started"))
    long = str(tmp_path / ("b" * 300))
    extra = ["--metrics", "p,r", "--out", str(tmp_path / "o")] if command == "compare" else []
    assert main([command, long, *extra]) == 2
    assert "too long" in _one_line(capsys.readouterr().err)


def test_parquet_twin_is_fingerprinted_and_checked(tmp_path, monkeypatch):
    monkeypatch.setattr("metrics.reports.bundle.PARQUET_ROWS", 3)
    df = pd.DataFrame({"system": ["=a", "b", "'c"], "x": [0.5, np.nan, 1.0],
                       "l": [[0.1], [], [0.2, 0.3]]})
    write_bundle(tmp_path / "b", {"t": df, "small": df.head(2)})
    m = _manifest(tmp_path / "b")
    assert m["files"]["t"]["parquet"]["file"] == "t.parquet" and "parquet" not in m["files"]["small"]
    got = open_bundle(tmp_path / "b").tables["t"]
    assert got["system"].tolist() == df["system"].tolist() and got["l"].tolist() == df["l"].tolist()
    data = (tmp_path / "b" / "t.parquet").read_bytes()
    (tmp_path / "b" / "t.parquet").write_bytes(data[:-20] + b"\0" * 20)
    with pytest.raises(UnanimityError, match=r"t\.parquet: contents changed"):
        open_bundle(tmp_path / "b")
    # a Parquet whose column types break the declared kinds, with its hash recomputed

    sink = pa.BufferOutputStream()
    pq.write_table(pa.table({"system": [1, 2, 3], "x": [0.5, 0.1, 1.0],
                             "l": [[0.1], [], [0.2]]}), sink)
    _rewrite(tmp_path / "b", "t.parquet", sink.getvalue().to_pybytes())
    m = _manifest(tmp_path / "b")
    m["files"]["t"]["parquet"]["sha256"] = hashlib.sha256(
        (tmp_path / "b" / "t.parquet").read_bytes()).hexdigest()
    _save(tmp_path / "b", m)
    with pytest.raises(UnanimityError, match=r"t\.parquet: column 'system' holds int64"):
        open_bundle(tmp_path / "b")


def test_version_2_bundles_are_still_read(tmp_path):
    """Format 2 wrote text cells raw (no quote added): read as they are."""
    root = tmp_path / "v2"
    write_bundle(root, {"t": pd.DataFrame({"system": ["plain", "x"], "n": [1, 2]})})
    (root / "t.csv").write_text("system,n\n'quoted,1\n=raw,2\n")
    m = _manifest(root)
    m["format_version"] = 2
    m["files"]["t"]["sha256"] = hashlib.sha256((root / "t.csv").read_bytes()).hexdigest()
    _save(root, m)
    assert open_bundle(root).tables["t"]["system"].tolist() == ["'quoted", "=raw"]


def _depth(obj) -> int:
    if isinstance(obj, dict):
        return 1 + max(map(_depth, obj.values()), default=0)
    if isinstance(obj, list):
        return 1 + max(map(_depth, obj), default=0)
    return 0


_texts = st.text(alphabet=st.sampled_from(list('[]{}"\\ab,:')), max_size=8)
_json = st.recursive(st.none() | st.integers() | _texts,
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(_texts, inner, max_size=3), max_leaves=20)


@given(_json, st.booleans())
@settings(max_examples=300, deadline=None)
def test_the_bracket_scan_measures_the_nesting_json_parses(obj, ascii_only):
    """The pre-scan that refuses deep JSON before parsing agrees with the parsed nesting,
    brackets, quotes and backslashes inside strings included."""
    data = json.dumps(obj, ensure_ascii=ascii_only).encode("utf-8")
    assert json_depth(data) == _depth(obj)
