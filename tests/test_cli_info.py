"""``unanimity info PATH [--json]`` and ``--gold F --run F``: output and exit codes."""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from metrics import cli
from metrics.cli import main
from metrics.commands import info
from metrics.errors import UnanimityError

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
SHARED_REPLAB = Path(__file__).resolve().parents[2] / "shared" / "campaigns" / "replab2013"
DEMO_REPLAB = ROOT / "demo_data" / "replab2013"
KEYS = ["name", "source", "kind", "topics", "systems", "gold_items", "testbeds", "per_system",
        "notes"]
SYSTEM_KEYS = {"missing_items", "extra_items", "missing_topics", "duplicate_rows",
               "overlapping_items"}


def _full_cli_available() -> bool:
    try:

        cli.build_parser()
    except ImportError:  # another sub-command is still being written
        return False
    return True


def run_info(argv: list[str]) -> int:
    """``unanimity info ...`` in process: the real CLI, or only its ``info`` sub-command.

    The fallback mirrors :func:`metrics.cli.main` (one-line error, exit code 2) for as long as
    the other sub-commands the CLI imports do not exist yet.
    """
    if _full_cli_available():

        return main(["info", *argv])

    parser = argparse.ArgumentParser(prog="unanimity")
    info.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["info", *argv])
    try:
        return int(args.run(args) or 0)
    except UnanimityError as exc:
        print(f"unanimity {args.command}: error: {exc}", file=sys.stderr)
        return 2


def info_json(capsys, argv: list[str]) -> dict:
    assert run_info([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_has_exactly_the_documented_keys(capsys):
    out = info_json(capsys, [str(DATA / "long" / "csv_campaign")])
    assert list(out) == KEYS
    assert out["topics"] == 3 and out["systems"] == 2 and out["gold_items"] == 14
    assert out["testbeds"] == {}
    assert out["per_system"] == {
        "hac": {"missing_items": 5, "extra_items": 1, "missing_topics": 1, "duplicate_rows": 0,
                "overlapping_items": 0},
        "kmeans": {"missing_items": 0, "extra_items": 0, "missing_topics": 0,
                   "duplicate_rows": 0, "overlapping_items": 1},
    }
    assert out["notes"] == [f"{DATA / 'long' / 'csv_campaign' / 'gold.csv'}: 1 gold item(s) "
                            "have several labels: the gold is an overlapping clustering"]
    assert out["kind"] == "clusterings" and out["source"].endswith("csv_campaign")


def test_json_replab_sample_has_testbeds(capsys):
    out = info_json(capsys, [str(DATA / "replab")])
    assert out["testbeds"] == {"D01": 1, "D02": 1, "D03": 1}
    assert set(out["per_system"]["best_replab"]) == SYSTEM_KEYS


def test_gold_and_run_files(capsys):
    gold = DATA / "replab" / "gold.tsv"
    run = DATA / "replab" / "runs" / "best_replab.tsv.gz"
    out = info_json(capsys, ["--gold", str(gold), "--run", str(run)])
    assert out["systems"] == 1 and out["gold_items"] == 738
    assert out["per_system"]["best_replab"]["extra_items"] == 18


def test_score_table_and_testbed_option(capsys):
    path = DATA / "scores" / "replab_sample.tsv"
    out = info_json(capsys, [str(path), "--testbeds", r"^RL\d{4}(D\d+)E"])
    assert out["topics"] == 4 and out["gold_items"] == 0
    assert out["testbeds"] == {"D01": 1, "D02": 1, "D03": 1, "D04": 1}
    assert out["per_system"]["t_twitter_LDA"]["missing_topics"] == 1


def test_text_output_lists_systems_and_notes(capsys):
    assert run_info([str(DATA / "weps" / "campaign")]) == 0
    out = capsys.readouterr().out
    assert "topics      3" in out and "cu_comsem" in out and "uned_hac" in out
    assert "discarded document(s)" in out


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["{tmp}/nope"], "no such file or folder"),
        (["{bad}/wrong_columns.tsv"], "single long file is one clustering"),
        (["--gold", "{bad}/wrong_columns.tsv", "--run", "{bad}/wrong_columns.tsv"],
         "wrong_columns.tsv, line 3: wrong number of columns: expected 3, found 4"),
        (["{bad}/conflicting_scores.csv"], "conflicting_scores.csv, line 4: system"),
        (["--gold", "{bad}/latin1.tsv"], "--gold and --run go together"),
        ([], "give a campaign PATH"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, argv, fragment):
    argv = [a.format(tmp=tmp_path, bad=DATA / "bad") for a in argv]
    assert run_info(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err.strip()
    assert "\n" not in err and err.startswith("unanimity info: error: ")
    assert fragment in err


def test_truncated_gzip_exit_2(capsys, tmp_path):
    root = tmp_path / "c"
    shutil.copytree(DATA / "replab", root)
    gz = root / "runs" / "t_twitter_LDA.tsv.gz"
    gz.write_bytes(gz.read_bytes()[:3000])
    assert run_info([str(root), "--json"]) == 2
    err = capsys.readouterr().err
    assert f"{gz}: gzip file is truncated or corrupt" in err


def test_subprocess_exit_code_and_json(tmp_path):
    if not _full_cli_available():
        pytest.skip("metrics.cli imports sub-commands that do not exist yet")
    ok = subprocess.run(
        [sys.executable, "-m", "metrics", "info", str(DATA / "semeval" / "sem2010"), "--json"],
        capture_output=True, text=True, check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert list(json.loads(ok.stdout)) == KEYS
    wrong = tmp_path / "wide_with_text.csv"
    wrong.write_text("system,topic,P\na,t1,high\n")
    bad = subprocess.run(
        [sys.executable, "-m", "metrics", "info", str(wrong)],
        capture_output=True, text=True, check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.strip().splitlines()) == 1 and "is not a number" in bad.stderr


def test_shared_and_bundled_replab_agree(capsys):
    """``unanimity info`` on the raw shared RepLab 2013 and on the bundled copy."""
    if not DEMO_REPLAB.exists():
        pytest.skip("bundled demo_data/replab2013 not found")
    demo = info_json(capsys, [str(DEMO_REPLAB)])
    assert demo["topics"] == 61 and demo["systems"] == 35 and demo["gold_items"] == 67665
    assert demo["testbeds"] == {"D01": 20, "D02": 11, "D03": 10, "D04": 20}
    if not SHARED_REPLAB.exists():
        pytest.skip(f"shared RepLab campaign not found at {SHARED_REPLAB}")
    shared = info_json(capsys, [str(SHARED_REPLAB)])
    assert {k: v for k, v in shared.items() if k not in ("source", "name")} == \
        {k: v for k, v in demo.items() if k not in ("source", "name")}


def test_json_says_everything_the_text_says(capsys):
    """UD EWT: the name, the source and the note about PUNCT are in both."""
    ud = ROOT / "demo_data" / "ud-ewt"
    assert run_info([str(ud)]) == 0
    text = capsys.readouterr().out
    out = info_json(capsys, [str(ud)])
    assert list(out) == KEYS
    assert f"campaign    {out['name']}  ({out['source']})" in text
    assert out["notes"] == [f"{ud / 'gold.conllu.gz'}: 6171 token(s) tagged PUNCT left out of "
                            "the evaluation"]
    assert all(f"  {note}" in text for note in out["notes"])
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines()
            if line.split() and line.split()[0] in out["per_system"]}
    header = next(line.split() for line in text.splitlines() if line.split()[:1] == ["system"])
    for name, row in out["per_system"].items():  # the text's table, row by row
        assert set(row) == SYSTEM_KEYS
        assert rows[name] == [str(row[c]) for c in header[1:]]


TREC_DL = ROOT.parent / "shared" / "campaigns" / "trec-dl-2019"


@pytest.mark.skipif(not TREC_DL.is_dir(), reason="../shared/campaigns/trec-dl-2019 is absent")
def test_trec_items_are_judged_plus_retrieved(capsys):
    assert run_info([str(TREC_DL)]) == 0
    text = capsys.readouterr().out
    out = info_json(capsys, [str(TREC_DL)])
    assert (out["gold_items"], out["judgments"], out["judged_items"]) == (200666, 9260, 9260)
    assert out["kind"] == "organisation"
    assert ("gold items  200666  (every judged or retrieved document: 9,260 judgment(s) in the "
            "gold, 191,406 document(s) retrieved by a run and not judged)") in text


def test_a_zipped_bundle_is_described_as_a_bundle(tmp_path, capsys):
    out = tmp_path / "results"
    assert main(["compare", str(DEMO_REPLAB), "--metrics", "bcubed_precision,bcubed_recall",
                 "--tests", "none", "--out", str(out)]) == 0
    capsys.readouterr()
    archive = tmp_path / "results.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for f in sorted(out.iterdir()):
            zf.write(f, f"results/{f.name}")
    assert run_info([str(archive)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"comparison bundle  {archive}  (format version")
    assert "pairs.csv" in text and "1190 rows" in text
    manifest = info_json(capsys, [str(archive)])
    assert manifest["format"] == "unanimity-comparison-bundle"
