"""The LaTeX report (CampaignComparison.to_latex) fits a page and carries the ranking with tie
groups: top-N rows with the note "N of M systems shown; full table in systems.csv", the tie-group
table with its own note, ``compare --latex-top``; the HTML report's tie-group and robust-pair
tables (dashboard/render/report_html.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.analyses import compare
from metrics.cli import main
from metrics.comparison.tie_ranking import ranking_from_comparison

FIXTURE = Path(__file__).resolve().parent / "data" / "replab2013_official_rs.csv.gz"


@pytest.fixture(scope="module")
def result():
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    return compare(t, "reliability", "sensitivity")


def _tables(tex: str) -> list[str]:
    return re.findall(r"\\begin\{table\}.*?\\end\{table\}", tex, flags=re.S)


def _rows(table: str) -> list[str]:
    body = table.split(r"\midrule")[1].split(r"\bottomrule")[0]
    return [ln for ln in body.strip().splitlines() if ln.endswith(r"\\")]


def test_default_top_20_with_the_note_and_the_ranking(result):
    n = len(result.systems)
    assert n > 20
    tex = result.to_latex()
    tables = _tables(tex)
    assert len(tables) == 3  # systems, robust pairs, ranking with tie groups
    systems, _, ranking = tables
    rows = _rows(systems)
    assert len(rows) == 20
    best = result.systems.sort_values("rank", kind="stable")["system"].head(20).tolist()
    assert [r.split(" & ")[1].replace(r"\_", "_").replace(r"\%", "%") for r in rows] == best
    assert f"20 of {n} systems shown; full table in systems.csv." in systems
    assert r"Ranking with tie groups" in ranking
    assert len(_rows(ranking)) == 20
    assert f"20 of {n} systems shown; full table in ranking.csv." in ranking
    # the ranking's rows are the tie ranking's first 20, in its order
    tr = ranking_from_comparison(result).to_dataframe().head(20)
    firsts = [r.split(" & ")[1].replace(r"\_", "_").replace(r"\%", "%") for r in _rows(ranking)]
    assert firsts == tr["system"].tolist()
    groups = [int(r.split(" & ")[0]) for r in _rows(ranking)]
    assert groups == tr["group"].tolist()


def test_every_row_and_no_note_without_a_cut(result):
    n = len(result.systems)
    tex = result.to_latex(top=None)
    systems, _, ranking = _tables(tex)
    assert len(_rows(systems)) == n and len(_rows(ranking)) == n
    assert "systems shown" not in tex
    assert "systems shown" not in result.to_latex(top=n)
    assert len(_tables(result.to_latex(ranking=False))) == 2


def test_compare_latex_top_option(tmp_path, capsys):
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    src = tmp_path / "scores.csv"
    t.to_csv(src, index=False)
    n = t["system"].nunique()
    for top, shown in (("5", 5), ("0", n)):
        out = tmp_path / f"out{top}"
        assert main(["compare", str(src), "--metrics", "reliability,sensitivity", "--out",
                     str(out), "--latex", "--latex-top", top]) == 0
        tex = (out / "report.tex").read_text()
        systems, _, ranking = _tables(tex)[:3]
        assert len(_rows(systems)) == shown and len(_rows(ranking)) == shown
        assert (f"{shown} of {n} systems shown" in tex) == (shown < n)
    with pytest.raises(SystemExit) as exc:
        main(["compare", str(src), "--metrics", "reliability,sensitivity", "--out",
              str(tmp_path / "x"), "--latex-top", "-1"])
    assert exc.value.code == 2 and "-1 is negative" in capsys.readouterr().err


def test_html_report_tables(result):
    pytest.importorskip("streamlit")
    from dashboard.render import report_html  # noqa: PLC0415 - after importorskip

    tr = ranking_from_comparison(result)
    frame = report_html.tie_groups_frame(tr.to_dataframe(), 10)
    assert list(frame.columns) == ["#", "Group", "System", "Ranks", "F\u03b1", "Systems above",
                                   "Systems below"]
    full = tr.to_dataframe()
    lo, hi = full["rank_low"].iloc[0], full["rank_high"].iloc[0]
    assert frame["Ranks"].iloc[0] == (f"{lo}" if lo == hi else f"{lo}\u2013{hi}")
    note = report_html.tie_groups_note(tr, 10)
    assert f"{len(full)} systems in {int(full['group'].max())} tie groups" in note
    assert f"The first 10 of {len(full)} systems" in note
    rob = report_html.robust_pairs_frame(result.pairs, 0.25, None)
    want = result.pairs[result.pairs["uir"] >= 0.25]
    assert len(rob) == len(want)
    assert np.all(np.diff(rob["UIR(a, b)"].to_numpy()) <= 0)
    got = dict(zip(zip(rob["a"], rob["b"]), rob["parametric UIR"]))
    for r in want.itertuples():
        assert got[(r.system_a, r.system_b)] == r.uir_param
