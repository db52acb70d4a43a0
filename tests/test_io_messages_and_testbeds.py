"""Error texts a user reads (a damaged zip, a malformed CSV, a check-reported table) and test beds
for score tables (a ``scores.<ext>`` + ``campaign.toml`` folder or zip, ``--testbeds FILE``).

Every message names the file (as given), the line where there is one, and the problem in a
sentence, never the parser's own wording ("EOF inside string starting at row 3")."""

from __future__ import annotations

import argparse
import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.cli import main
from metrics.commands import dashboard
from metrics.errors import CampaignFormatError
from metrics.io import load
from metrics.io.testbeds import read_testbeds
from metrics.io.testbeds import testbeds_option as rule_of_option  # not collected as a test
from metrics.reports.reported_checks import read_reported

BEDS = {f"T{t:02d}": ("news" if t < 4 else "web") for t in range(7)}


def _error(fn, *args, **kw) -> CampaignFormatError:
    with pytest.raises(CampaignFormatError) as err:
        fn(*args, **kw)
    return err.value


def _scores(path: Path, systems=("alpha", "beta", "gamma"), topics=tuple(BEDS)) -> Path:
    rng = np.random.default_rng(3)
    rows = [(s, t, m, round(float(rng.uniform(0.1, 0.9)), 4))
            for s in systems for t in topics for m in ("bcubed_precision", "bcubed_recall")]
    pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(path, index=False)
    return path


def _score_folder(root: Path, config: str = 'name = "Three systems"\ntestbeds = "beds.tsv"\n'
                  ) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    _scores(root / "scores.csv")
    (root / "beds.tsv").write_text("# topic, test bed\n" +
                                   "".join(f"{t}\t{b}\n" for t, b in BEDS.items()))
    (root / "campaign.toml").write_text(config)
    return root


# --- damaged zips -------------------------------------------------------------------------------
def test_a_file_named_zip_that_is_not_one(tmp_path):
    z = tmp_path / "small_campaign.zip"
    z.write_bytes(b"topic,item,cluster\nt1,a,1\n")  # a CSV renamed .zip
    e = _error(load, z)
    assert e.path == str(z) and e.line is None
    assert e.problem.startswith("not a valid zip archive")
    assert "unknown format" not in e.problem


def test_a_truncated_zip(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("gold.csv", "topic,item,cluster\n" + "t1,a,1\n" * 50)
    z = tmp_path / "cut.zip"
    z.write_bytes(buf.getvalue()[:40])
    e = _error(load, z)
    assert e.path == str(z) and e.problem.startswith("not a valid zip archive: truncated")


def test_the_cli_says_it_in_one_line(tmp_path, capsys):
    z = tmp_path / "bad.zip"
    z.write_bytes(b"\x00garbage")
    assert main(["info", str(z)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{z}: not a valid zip archive" in err[0]


# --- malformed CSV ------------------------------------------------------------------------------
REPORTED_OPEN_QUOTE = ('system,precision,recall,f\nours,0.5,0.5,0.5\n"theirs,0.4,0.4,0.4\n'
                       "other,0.1,0.1,0.1\n")


def test_reported_table_with_an_open_quote(tmp_path):
    p = tmp_path / "reported.csv"
    p.write_text(REPORTED_OPEN_QUOTE)
    e = _error(read_reported, p)
    # the quote opens on line 3 (the parser's "row 2" counts from 0 after the header)
    assert (e.path, e.line) == (str(p), 3)
    assert e.problem == 'a quoted field is never closed (a " without its pair)'
    assert "EOF" not in str(e) and "row" not in str(e)


def test_reported_row_with_a_field_too_many(tmp_path):
    p = tmp_path / "reported.csv"
    p.write_text("system,precision,recall,f\nours,0.5,0.5,0.5,9\nb,1,1,1\n")
    e = _error(read_reported, p)
    assert e.line == 2 and "wrong number of columns" in e.problem


def test_reported_table_not_utf8_or_empty(tmp_path):
    p = tmp_path / "reported.csv"
    p.write_bytes("system,precision,recall,f\nK\xf6ln,0.5,0.5,0.5\n".encode("latin-1"))
    e = _error(read_reported, p)
    assert e.line == 2 and "not valid UTF-8" in e.problem
    p.write_text("\n\n")
    assert "empty" in _error(read_reported, p).problem


def test_check_reported_cli_message(tmp_path, capsys):
    p = tmp_path / "reported.csv"
    p.write_text(REPORTED_OPEN_QUOTE)
    assert main(["check-reported", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}, line 3: a quoted field is never closed" in err and "EOF" not in err


def test_campaign_csv_with_an_open_quote(tmp_path):
    root = tmp_path / "c"
    (root / "runs").mkdir(parents=True)
    (root / "gold.csv").write_text('topic,item,cluster\nt1,a,1\nt1,"b,2\nt1,c,3\n')
    (root / "runs" / "s.csv").write_text("topic,item,cluster\nt1,a,1\n")
    e = _error(load, root)
    assert e.path.endswith("gold.csv") and e.line == 3 and "never closed" in e.problem


# --- score tables with test beds ----------------------------------------------------------------
def test_score_folder_with_campaign_toml_has_its_test_beds(tmp_path):
    c = load(_score_folder(tmp_path / "sc"))
    assert c.name == "Three systems" and not c.has_clusterings
    assert c.systems == ["alpha", "beta", "gamma"]
    assert c.topic_testbeds() == BEDS
    assert c.testbed_counts() == {"news": 4, "web": 3}


def test_score_folder_with_a_regex_rule(tmp_path):
    c = load(_score_folder(tmp_path / "sc", 'testbed_regex = "^T0([0-3])"\n'))
    beds = c.topic_testbeds()
    assert beds["T00"] == "0" and beds["T03"] == "3" and beds.get("T05") is None
    assert any("have no test bed" in n.problem for n in c.report.all_notes())


def test_zip_of_a_score_folder(tmp_path):
    root = _score_folder(tmp_path / "sc")
    for top in ("", "campaign/"):
        z = tmp_path / f"scores{len(top)}.zip"
        with zipfile.ZipFile(z, "w") as zf:
            for p in sorted(root.iterdir()):
                zf.write(p, top + p.name)
        c = load(z)
        assert c.topic_testbeds() == BEDS and c.name == "Three systems"


def test_score_folder_problems(tmp_path):
    root = _score_folder(tmp_path / "sc")
    _scores(root / "scores.tsv")  # two score tables: which one?
    e = _error(load, root)
    assert "several score tables" in e.problem
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "campaign.toml").write_text('format = "scores"\n')
    assert "no scores.<ext> file" in _error(load, empty).problem
    (empty / "campaign.toml").write_text("")
    assert "no gold" in _error(load, empty).problem  # a folder of neither kind


def test_folder_with_gold_and_a_scores_file_stays_a_clustering_campaign(tmp_path):
    root = tmp_path / "c"
    (root / "runs").mkdir(parents=True)
    (root / "gold.csv").write_text("topic,item,cluster\nt1,a,1\nt1,b,2\n")
    (root / "runs" / "s.csv").write_text("topic,item,cluster\nt1,a,1\nt1,b,1\n")
    _scores(root / "scores.csv")  # e.g. an earlier evaluate --out beside the campaign
    assert load(root).has_clusterings


def test_read_testbeds_and_the_option(tmp_path):
    f = tmp_path / "beds.tsv"
    f.write_text("\ufeff# comment\nT00\tnews\n\nT01\tweb\r\n")
    assert read_testbeds(f) == {"T00": "news", "T01": "web"}
    assert rule_of_option(str(f)) == {"T00": "news", "T01": "web"}
    assert rule_of_option(r"^T(\d)") == r"^T(\d)"  # not a file: a regex
    assert rule_of_option(None) is None and rule_of_option("") is None
    f.write_text("T00\tnews\nT01 web\n")
    e = _error(read_testbeds, f)
    assert (e.path, e.line) == (str(f), 2) and "2 tab-separated columns" in e.problem
    f.write_text("T00\tnews\nT00\tweb\n")
    assert _error(read_testbeds, f).line == 2


def test_cli_testbeds_file_for_a_score_table(tmp_path, capsys):
    table = _scores(tmp_path / "scores.csv")
    beds = tmp_path / "beds.tsv"
    beds.write_text("".join(f"{t}\t{b}\n" for t, b in BEDS.items()))
    assert main(["info", str(table), "--testbeds", str(beds)]) == 0
    out = capsys.readouterr().out
    assert "news (4), web (3)" in out


def test_dashboard_command_passes_the_testbeds(tmp_path, capsys):
    table = _scores(tmp_path / "scores.csv")
    beds = tmp_path / "beds.tsv"
    beds.write_text("T00\tnews\n")
    args = argparse.Namespace(path=str(table), port=8765, address="localhost",
                              testbeds=str(beds))
    cmd = dashboard.streamlit_command(args)
    assert cmd[-4:] == ["--", str(table.resolve()), "--testbeds", str(beds.resolve())]
    args.testbeds = r"^T0(\d)"
    assert dashboard.streamlit_command(args)[-2:] == ["--testbeds", r"^T0(\d)"]
    beds.write_text("T00 news\n")
    assert main(["dashboard", str(table), "--testbeds", str(beds)]) == 2
    assert f"{beds}, line 1" in capsys.readouterr().err
    assert main(["dashboard", "--testbeds", str(beds)]) == 2
    assert "--testbeds needs a campaign PATH" in capsys.readouterr().err
