"""What the command line says to a newcomer: ``--version``, a description in every sub-command's
``--help``, an aligned ``--list-metrics``, one line for ``evaluate --out`` and the counts of
the papers' improved systems."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pandas as pd
import pytest

from metrics.cli import COMMANDS, build_parser, main
from metrics.comparison.reference import improved_systems

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"


@pytest.mark.parametrize("argv", [["-m", "metrics", "--version"],
                                  ["-c", "from metrics.cli import main; main()", "--version"]])
def test_version_is_the_installed_one_without_numpy_or_pandas(argv):
    code = ("import sys, runpy; sys.argv = ['unanimity', '--version']; "
            "from metrics.cli import main; rc = main(); "
            "assert not {'numpy', 'pandas'} & set(sys.modules), 'heavy import'; sys.exit(rc)")
    got = subprocess.run([sys.executable, "-c", code] if argv[0] == "-c" else
                         [sys.executable, *argv], capture_output=True, text=True, cwd=ROOT)
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == f"unanimity {metadata.version('unanimity')}"


def test_version_is_listed_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--version" in capsys.readouterr().out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_sub_command_help_has_a_description(command):
    sub = build_parser()._subparsers._group_actions[0].choices[command]  # noqa: SLF001
    assert sub.description and len(sub.description) > 40, command


def test_list_metrics_columns_line_up(capsys):
    assert main(["evaluate", "--list-metrics"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["metric", "better", "family", "parameters", "description"]
    starts = {name: lines[0].index(name) for name in ("better", "family", "parameters",
                                                       "description")}
    for line in lines[1:]:  # each column starts where its header starts, after two spaces
        for name, at in starts.items():
            assert line[at - 2:at] == "  " and line[at] != " ", (name, line)
    assert any(line.startswith("reliability ") and "n=30, w=0.8" in line for line in lines)


def test_evaluate_out_says_what_it_wrote(tmp_path, capsys):
    out = tmp_path / "scores.csv"
    assert main(["evaluate", str(DEMO), "--metrics", "purity,inverse_purity", "--systems",
                 "best_replab,t_twitter_LDA", "--out", str(out)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    assert printed == [f"wrote {out}: 244 rows (2 systems, 61 topics, 2 metrics)"]
    assert len(pd.read_csv(out)) == 244


def test_improved_systems_counts_pairs_and_systems():
    # a improves b and c, b improves c: three pairs, two improving systems
    pairs = pd.DataFrame({"system_a": ["a", "a", "b", "b", "c", "c"],
                          "system_b": ["b", "c", "a", "c", "a", "b"],
                          "uir": [0.5, 0.3, -0.5, 0.26, -0.3, -0.26]})
    imp = improved_systems(pairs, ["a", "b", "c"], 0.25, strict=True)
    assert imp["n_improved"].tolist() == [2, 1, 0]
    assert (int(imp["n_improved"].sum()), int((imp["n_improved"] > 0).sum())) == (3, 2)


def test_compare_says_pairs_and_systems(tmp_path, capsys):
    assert main(["compare", str(DEMO), "--metrics", "bcubed_precision,bcubed_recall", "--out",
                 str(tmp_path / "c"), "--profile", "jair2011", "--tests", "none"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("papers'"))
    imp = pd.read_csv(tmp_path / "c" / "improved_systems.csv")
    pairs, systems = int(imp["n_improved"].sum()), int((imp["n_improved"] > 0).sum())
    assert pairs > systems > 0
    assert f"UIR > 0.25: {pairs} pairs, {systems} systems improve another;" in line
