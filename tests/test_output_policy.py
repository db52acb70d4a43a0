"""The output policy of every table the product writes (metrics/reports/table_output.py,
docs/output-safety.md): no cell a spreadsheet would evaluate in any product CSV, every hostile
name back exactly from a bundle, control characters escaped on the terminal.

Names are generated here (Hypothesis, or every formula prefix crossed with payload bodies), never
copied from a fixture.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dashboard.render import downloads
from metrics.analyses import compare
from metrics.cli import main
from metrics.comparison.tie_ranking import ranking_from_comparison
from metrics.io.scoretable import read_score_table
from metrics.reports.bundle import open_bundle, write_bundle
from metrics.reports.table_input import read_csv_table
from metrics.reports.table_output import (
    column_kinds,
    neutralise,
    restore,
    table_bytes,
    unquote_read_back,
    write_table,
)
from metrics.reports.terminal_text import escape_controls

# What a spreadsheet evaluates, written from the OWASP rule (not from the module under test).
_START = ("=", "+", "-", "@", "\t", "\r")
_DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
PREFIXES = ("=", "+", "-", "@", "\t", "\r", "'", "''", " ", "")
BODIES = ("1", "1e5", "007", "2+3", 'HYPERLINK("http://x","y")', "SUM(1+1)",
          "cmd|' /C calc'!A0", "a;b", "50%3B", "x,y", 'say "hi"')


def hostile_names(limit: int | None = None) -> list[str]:
    """Every prefix crossed with every body, plus the issue's own examples."""
    names = sorted({p + b for p, b in itertools.product(PREFIXES, BODIES)}
                   | {"-1", "1e5", "007", "-2+3", "@SUM(1+1)", "+cmd|' /C calc'!A0",
                      '=HYPERLINK("http://x","y")', "'quoted"})
    return names if limit is None else names[:limit]


def evaluable(cell: str) -> bool:
    return (cell.startswith(_START) and _DECIMAL.fullmatch(cell) is None
            and cell not in ("-inf", "+inf"))  # a float column's infinity: a number


def cells(data: bytes | str) -> list[str]:
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return [c for row in csv.reader(io.StringIO(text, newline="")) for c in row]


def assert_no_formula(path_or_bytes) -> int:
    data = Path(path_or_bytes).read_bytes() if isinstance(path_or_bytes, Path) else path_or_bytes
    bad = [c for c in cells(data) if evaluable(c)]
    assert not bad, bad[:5]
    return len(cells(data))


# --- the policy itself ------------------------------------------------------------------------
names_strategy = st.text(alphabet=st.sampled_from(list("=+-@'\t\r\n;%,\" .eE0123456789abc"))
                         | st.characters(exclude_categories=("Cs",)), min_size=1, max_size=12)


@given(st.lists(names_strategy, min_size=1, max_size=30))
@settings(max_examples=200, deadline=None)
def test_neutralise_is_safe_and_exactly_reversible(names):
    safe = neutralise(names).to_pylist()
    assert not any(evaluable(c) for c in safe)
    assert restore(safe).to_pylist() == names
    # numbers are left as they are, and only a formula or a quote gains a quote
    for name, out in zip(names, safe):
        assert out == name or (out == "'" + name and (name.startswith("'") or evaluable(name)))


@given(st.lists(names_strategy, min_size=1, max_size=30))
@settings(max_examples=100, deadline=None)
def test_a_score_table_reads_back_what_the_policy_wrote(names):
    back, changed = unquote_read_back(neutralise(names))
    assert back.to_pylist() == names
    assert changed == sum(n != q for n, q in zip(names, neutralise(names).to_pylist()))


def test_the_issues_examples():
    got = dict(zip(hostile_names(), neutralise(hostile_names()).to_pylist()))
    assert got["-1"] == "-1" and got["1e5"] == "1e5" and got["007"] == "007"
    assert got["-2+3"] == "'-2+3" and got["@SUM(1+1)"] == "'@SUM(1+1)"
    assert got["'quoted"] == "''quoted" and got["=1"] == "'=1" and got["+1"] == "+1"
    assert got["\t1e5"] == "'\t1e5"


frames = st.integers(1, 12).flatmap(lambda n: st.fixed_dictionaries({
    "system": st.lists(names_strategy, min_size=n, max_size=n),
    "value": st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=n, max_size=n),
    "count": st.lists(st.integers(-2**63, 2**63 - 1), min_size=n, max_size=n),
    "flag": st.lists(st.booleans(), min_size=n, max_size=n),
    "where": st.lists(st.lists(st.floats(allow_nan=False), max_size=3), min_size=n, max_size=n),
    "who": st.lists(st.lists(names_strategy, max_size=3), min_size=n, max_size=n),
}))


@given(frames, names_strategy)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_bundle_round_trips_every_name_exactly(cols, column_name):
    order = ["system", "value", "count", "flag", "where", "who"]
    df = pd.DataFrame(cols)[order].rename(columns={"system": column_name if column_name not in
                                                   order else "system"})
    with tempfile.TemporaryDirectory() as tmp:
        write_bundle(tmp, {"t": df})
        for path in Path(tmp).glob("*.csv"):
            assert_no_formula(path)
        got = open_bundle(tmp).tables["t"]
    assert list(got.columns) == list(df.columns)
    first = df.columns[0]
    assert got[first].tolist() == df[first].tolist()
    np.testing.assert_array_equal(got["value"].to_numpy(), df["value"].to_numpy())
    assert got["count"].tolist() == df["count"].tolist()
    assert got["flag"].tolist() == df["flag"].tolist()
    assert got["where"].tolist() == df["where"].tolist()
    assert got["who"].tolist() == df["who"].tolist()


def test_hostile_names_round_trip_through_csv_and_parquet(tmp_path, monkeypatch):
    names = hostile_names()
    df = pd.DataFrame({"system": names, "score": np.linspace(0, 1, len(names)),
                       "improved": [names[i:i + 3] for i in range(len(names))]})
    write_bundle(tmp_path / "csv", {"t": df})
    monkeypatch.setattr("metrics.reports.bundle.PARQUET_ROWS", 1)  # the Parquet twin, read first
    write_bundle(tmp_path / "pq", {"t": df})
    assert (tmp_path / "pq" / "t.parquet").is_file()
    for route in ("csv", "pq"):
        got = open_bundle(tmp_path / route).tables["t"]
        assert got["system"].tolist() == names
        assert got["improved"].tolist() == df["improved"].tolist()
        assert got["score"].tolist() == df["score"].tolist()
    assert_no_formula(tmp_path / "csv" / "t.csv")


def test_kinds_from_dtypes_and_same_numbers():
    df = pd.DataFrame({"s": pd.Series(["a", "b"], dtype="str"), "o": ["x", None],
                       "f": [0.1, 1.0], "i": [1, 2], "b": [True, False],
                       "lf": [[0.5], []], "ls": [["a"], []], "empty": [[], []]})
    assert column_kinds(df) == {"s": "str", "o": "str", "f": "float", "i": "int", "b": "bool",
                                "lf": "list_float", "ls": "list_str", "empty": "list_float"}
    rng = np.random.default_rng(3)
    x = rng.random(2000) * np.exp(rng.normal(0, 30, 2000))
    text = table_bytes(pd.DataFrame({"x": x}))
    assert np.array_equal(pd.read_csv(io.BytesIO(text))["x"].to_numpy(), x)
    # as pandas writes them: repr of each float, True/False, no quotes unless needed
    plain = pd.DataFrame({"s": ["a", "b"], "x": [1.0, 0.25], "ok": [True, False]})
    assert table_bytes(plain).decode() == plain.to_csv(index=False)


@pytest.mark.parametrize("rows", [1, 2, 7])
def test_the_text_is_the_same_whatever_the_batch(monkeypatch, tmp_path, rows):
    # the CSV is written a batch of rows at a time: batches of 1, 2 and 7 rows give the bytes
    # of one batch, with every kind of column, nulls, empty lists and quoting (a name holds a
    # quote); and, with plain columns, the bytes pandas writes
    names = hostile_names()
    n = len(names)
    rng = np.random.default_rng(5)
    x = rng.random(n)
    x[::4] = np.nan
    x[1::9] = 2.0
    df = pd.DataFrame({
        "system": names, "other": [None if i % 5 == 0 else names[-i] for i in range(n)],
        "x": x, "n": np.arange(n), "ok": np.arange(n) % 3 == 0,
        "cross": [None if i % 6 == 0 else list(x[i:i + i % 4]) for i in range(n)],
        "improved": [names[i:i + i % 3] for i in range(n)]})
    plain = pd.DataFrame({"s": [f"sys{i % 7}" for i in range(50)], "x": rng.random(50),
                          "k": np.arange(50), "ok": np.arange(50) % 2 == 0})
    whole = table_bytes(df)
    monkeypatch.setattr("metrics.reports.table_output.BATCH_ROWS", rows)
    assert table_bytes(df) == whole
    assert table_bytes(plain).decode() == plain.to_csv(index=False)
    monkeypatch.setattr("metrics.reports.bundle.PARQUET_ROWS", 1)
    write_bundle(tmp_path, {"t": df})
    assert (tmp_path / "t.csv").read_bytes() == whole
    got = open_bundle(tmp_path).tables["t"]  # the Parquet twin, streamed to its file
    assert got["system"].tolist() == names
    assert got["improved"].tolist() == df["improved"].tolist()


def test_missing_elements_and_one_column_blanks_are_not_lost(tmp_path):
    # a NaN in a list of numbers or a missing name in a list of names used to empty the whole
    # list (an Arrow join with a null is null); an empty cell of a one-column table used to be
    # a blank line, which pandas' reader skips
    df = pd.DataFrame({"system": ["a", "b", "c"],
                       "cross": [[0.5, np.nan, 0.25], [np.nan], []],
                       "improved": [["x", None], [None], ["y;z"]]})
    kinds = column_kinds(df)
    text = table_bytes(df, kinds).decode()
    assert text.splitlines()[1:] == ["a,0.5;nan;0.25,x;", "b,nan,", "c,,y%3Bz"]
    back = read_csv_table(text.encode(), kinds, "t")
    assert [[(v if v == v else "nan") for v in c] for c in back["cross"]] == [
        [0.5, "nan", 0.25], ["nan"], []]
    # a missing name is an empty one; a list of one empty name is an empty cell, read as []
    assert back["improved"].tolist() == [["x", ""], [], ["y;z"]]
    for one in (pd.DataFrame({"s": ["a", None, "", "b"]}),
                pd.DataFrame({"f": [1.0, np.nan, 2.0]}),
                pd.DataFrame({"i": pd.array([1, None, 3], dtype="Int64")}),
                pd.DataFrame({"l": [["p"], [], None]})):
        raw = table_bytes(one)
        assert b"\n\n" not in raw
        assert len(pd.read_csv(io.BytesIO(raw))) == len(one)
        assert len(read_csv_table(raw, column_kinds(one), "t")) == len(one)
    full = pd.DataFrame({"s": ["a", "b"]})
    assert table_bytes(full) == b"s\na\nb\n"  # no empty cell: no quotes
    write_bundle(tmp_path, {"t": df})
    got = open_bundle(tmp_path).tables["t"]
    assert [len(c) for c in got["cross"]] == [3, 1, 0]


def test_bad_cells_named_by_row_and_column():
    kinds = {"system": "str", "n": "int", "x": "float", "c": "list_float", "ok": "bool"}
    good = "system,n,x,c,ok\na,1,0.5,0.1;0.2,True\n"
    read_csv_table(good.encode(), kinds, "t.csv")
    for row, pattern in [("b,x1,0.5,,True", r"row 2, column 'n'.*whole number"),
                         ("b,2,abc,,True", r"row 2, column 'x'.*not a number"),
                         ("b,2,0.5,0.1;zz,True", r"row 2, column 'c'.*list of numbers"),
                         ("b,2,0.5,,maybe", r"row 2, column 'ok'.*True or False"),
                         ('"b,2,0.5,,True', r"cannot read as CSV")]:
        with pytest.raises(ValueError, match=r"^t\.csv: " + pattern):
            read_csv_table((good + row + "\n").encode(), kinds, "t.csv")


# --- every product CSV ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hostile_scores(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    """A score table whose system, topic and metric names are all hostile, written as
    ``evaluate --out`` writes one (through the output policy), and the table itself."""
    usable = [n for n in hostile_names() if n == n.strip()]  # the readers strip whitespace
    names, topics = usable[::6], usable[1::9]
    rng = np.random.default_rng(0)
    rows = [(s, t, m, float(rng.uniform(0.1, 0.9)))
            for s in names for t in topics for m in ("=p", "@r")]
    path = tmp_path_factory.mktemp("scores") / "scores.csv"
    table = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"])
    write_table(table, path)
    assert_no_formula(path)
    back = read_score_table(path)  # read back exactly, the quotes of the policy undone
    assert back[["system", "topic", "metric"]].equals(table[["system", "topic", "metric"]]
                                                      .astype("str"))
    return path, table


def test_compare_out_has_no_formula_and_reopens_exactly(hostile_scores, tmp_path, capsys):
    path, table = hostile_scores
    out = tmp_path / "out"
    assert main(["compare", str(path), "--metrics", "=p,@r", "--out", str(out),
                 "--paper-tables"]) == 0
    assert sum(assert_no_formula(p) for p in out.glob("*.csv")) > 1000
    b = open_bundle(out)
    sent = set(table["system"])
    assert set(b.tables["systems"]["system"]) == sent
    assert set(b.tables["pairs"]["system_a"]) == sent
    assert {"p_=p", "delta_@r"} <= set(b.tables["pairs"].columns)
    assert set(b.tables["tests"]["metric"]) == {"=p", "@r"}


def test_meta_evaluate_and_evaluate_out_have_no_formula(hostile_scores, tmp_path, capsys):
    out = tmp_path / "meta"
    assert main(["meta-evaluate", str(hostile_scores[0]), "--metrics", "=p", "--reference", "@r",
                 "--out", str(out)]) == 0
    assert all(assert_no_formula(p) for p in out.glob("*.csv"))
    assert "'=p" in (out / "meta_evaluation.csv").read_text()
    # evaluate: a long-table campaign whose run has hostile system, topic and cluster names
    names = [n for n in hostile_names() if n == n.strip()][::5]
    root = tmp_path / "campaign"
    (root / "runs").mkdir(parents=True)
    gold = pd.DataFrame({"topic": "=t", "item": [f"d{i}" for i in range(6)],
                         "cluster": ["=a", "=a", "@b", "@b", "+c", "+c"]})
    gold.to_csv(root / "gold.csv", index=False)
    runs = pd.concat([gold.assign(system=s, cluster=[f"{s}{i % 2}" for i in range(6)])
                      for s in names[:10]])
    runs.to_csv(root / "runs.csv", index=False)
    target = tmp_path / "scores.csv"
    assert main(["evaluate", str(root), "--metrics", "purity", "--out", str(target)]) == 0
    assert assert_no_formula(target) > 10
    back = pd.read_csv(target, dtype=str, keep_default_na=False)
    assert set(restore(back["system"]).to_pylist()) == set(names[:10])
    assert set(read_score_table(target)["system"]) == set(names[:10])  # evaluate -> compare
    capsys.readouterr()
    assert main(["evaluate", str(root), "--metrics", "purity", "--out", "-"]) == 0
    assert_no_formula(capsys.readouterr().out.encode())


def test_dashboard_export_downloads_have_no_formula(hostile_scores):

    table = hostile_scores[1]
    comp = compare(table, "=p", "@r")
    board = comp.systems.rename(columns={"f_alpha": "f"}).sort_values("rank")  # as data.leaderboard
    for data in (downloads.scores_csv(table), downloads.pairs_csv(comp),
                 downloads.leaderboard_csv(board),
                 downloads.ties_csv(ranking_from_comparison(comp)),
                 downloads.mapping_csv(table.rename(columns={"metric": "tag"}))):
        assert assert_no_formula(data) > 10
    pairs = pd.read_csv(io.BytesIO(downloads.pairs_csv(comp)), dtype=str, keep_default_na=False)
    assert set(restore(pairs["system_a"]).to_pylist()) == set(table["system"])


# --- the terminal -----------------------------------------------------------------------------
CONTROL_NAMES = ["\x1b[2J\x1b[Hclear", "\x1b]8;;http://x\x07link\x1b]8;;\x07", "bell\x07",
                 "over\rwrite", "\u202eright-to-left", "c1\x9b31m"]


@pytest.mark.parametrize("text", CONTROL_NAMES)
def test_escape_controls_leaves_no_control(text):
    out = escape_controls(text)
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", out)
    assert escape_controls("tab\tand\nnewline") == "tab\tand\nnewline"


def test_info_and_check_reported_print_no_raw_control(tmp_path, capsys):
    scores = pd.DataFrame([(s, t, m, v) for s in CONTROL_NAMES for t in ("t1", "t2")
                           for m, v in (("precision", 0.5), ("recall", 0.4), ("f", 0.4444))],
                          columns=["system", "topic", "metric", "value"])
    path = tmp_path / "scores.csv"
    scores.to_csv(path, index=False)
    reported = tmp_path / "reported.csv"
    pd.DataFrame({"system": CONTROL_NAMES, "precision": 0.5, "recall": 0.4,
                  "f": 0.4444}).to_csv(reported, index=False)
    out_dir = tmp_path / "bundle"
    capsys.readouterr()
    for argv in (["info", str(path)], ["check-reported", str(reported)],
                 ["compare", str(path), "--metrics", "precision,recall", "--out", str(out_dir)],
                 ["info", str(out_dir)], ["info", str(tmp_path / "no\x1b[2Jsuch")]):
        main(argv)
        both = "".join(capsys.readouterr())
        assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", both), (argv, both)
    assert "\\x1b[2J" in both  # the error line names the path, escaped
