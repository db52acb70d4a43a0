"""Score tables ``system, topic, metric, value`` and score-table campaigns."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.errors import CampaignFormatError
from metrics.io import detect_format, load
from metrics.io.scoretable import load_score_campaign, looks_like_scores, read_score_table

DATA = Path(__file__).resolve().parent / "data"
SCORES = DATA / "scores"
BAD = DATA / "bad"
RULE = r"^RL\d{4}(D\d+)E"


@pytest.mark.parametrize(
    "line, expected",
    [
        ("system,topic,metric,value", True),
        ('"system"\t"topic"\t"metric"\t"value"', True),
        ("value\tmetric\ttopic\tsystem", True),
        ("system,topic,reliability,sensitivity", False),
        ("topic,item,cluster", False),
    ],
)
def test_looks_like_scores(line, expected):
    assert looks_like_scores(line) is expected


@pytest.mark.parametrize("suffix", ["csv", "tsv", "csv.gz", "parquet"])
def test_every_encoding_reads_the_same_table(suffix):
    path = SCORES / f"replab_sample.{suffix}"
    assert detect_format(path) == "scores"
    table = read_score_table(path)
    assert list(table.columns) == ["system", "topic", "metric", "value"]
    assert table["value"].dtype == np.float64
    assert len(table) == 33
    ref = read_score_table(SCORES / "replab_sample.csv")
    pd.testing.assert_frame_equal(table, ref)
    row = table[(table.system == "best_replab") & (table.topic == "RL2013D01E025")
                & (table.metric == "reliability")]
    assert row["value"].iat[0] == pytest.approx(0.474865876764686)


def test_score_campaign():
    c = load(SCORES / "replab_sample.csv", testbeds=RULE)
    assert not c.has_clusterings and c.gold is None and c.runs == {}
    assert c.name == "replab_sample"
    assert list(c.topics) == sorted(c.topics)
    assert c.n_topics == 4 and c.n_items == 0
    assert c.item_topic.dtype == np.int32 and c.item_ids.dtype == object
    assert c.systems == ["best_replab", "t_twitter_LDA", "terms_jaccard_HAC_50%"]
    assert c.testbed_counts() == {"D01": 1, "D02": 1, "D03": 1, "D04": 1}
    lda = c.report.systems["t_twitter_LDA"]
    assert lda.rows == 9 and lda.topics == 3
    assert lda.missing_topics == 1 and lda.missing_topic_names == ["RL2013D04E198"]
    assert c.report.systems["best_replab"].missing_topics == 0
    assert c.summary()["per_system"]["t_twitter_LDA"] == {
        "missing_items": 0, "extra_items": 0, "missing_topics": 1}
    assert c.scores.attrs == {}


def test_score_campaign_name_and_replab_testbeds():
    # RepLab entity ids carry their domain: a score table of them gets the domains as test beds
    c = load_score_campaign(SCORES / "replab_sample.parquet", name="official")
    assert c.name == "official"
    assert set(c.testbeds) <= {"D01", "D02", "D03", "D04"}
    assert c.testbed_counts() == {
        bed: sum(1 for t in c.topics if t[6:9] == bed) for bed in set(c.testbeds)
    }
    flat = load_score_campaign(SCORES / "replab_sample.parquet", testbeds=r"^(RL)")
    assert flat.testbed_counts() == {"RL": c.n_topics}


def test_nonnumeric_value_names_line():
    path = BAD / "nonnumeric_scores.csv"
    with pytest.raises(CampaignFormatError) as err:
        read_score_table(path)
    assert err.value.path == str(path) and err.value.line == 3
    assert "'n/a' is not a number" in err.value.problem


def test_conflicting_duplicates_name_both_lines():
    path = BAD / "conflicting_scores.csv"
    with pytest.raises(CampaignFormatError) as err:
        read_score_table(path)
    assert err.value.line == 4
    assert "(line 2)" in err.value.problem and "(line 4)" in err.value.problem
    assert "0.47" in err.value.problem and "0.52" in err.value.problem


def test_exact_duplicates_are_noted_counted_and_dropped(tmp_path):
    p = tmp_path / "s.tsv"
    p.write_text("system\ttopic\tmetric\tvalue\n"
                 "a\tt1\tP\t0.5\n"
                 "a\tt1\tR\t0.25\n"
                 "a\tt1\tP\t0.50\n"  # the same number written differently
                 "b\tt1\tP\t0.1\n")
    c = load(p)
    assert len(c.scores) == 3
    assert c.report.systems["a"].duplicate_rows == 1
    assert c.report.systems["b"].duplicate_rows == 0
    note = c.report.notes[0]
    assert note.line == 4 and "1 exact duplicate row(s)" in note.problem


def test_nan_is_kept_and_noted(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("system,topic,metric,value\na,t1,P,nan\na,t1,R,0.5\n")
    table = read_score_table(p)
    assert np.isnan(table["value"].iat[0])
    assert "1 value(s) are NaN" in table.attrs["notes"][0].problem


def test_incomplete_grid_is_noted(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("system,topic,metric,value\na,t1,P,0.5\na,t1,R,0.5\nb,t1,P,0.4\n")
    c = load(p)
    notes = [n.problem for n in c.report.systems["b"].notes]
    assert any("1 missing (topic, metric)" in n and "'R'" in n for n in notes)


def test_wide_table_is_refused_with_a_clear_message():
    path = BAD / "wide_scores.csv"
    with pytest.raises(CampaignFormatError) as err:
        read_score_table(path)
    assert err.value.line == 1 and "wide score table" in err.value.problem
    # detection reads it with the wide reader instead (metrics/io/wide_scores.py)
    assert set(load(path).scores["metric"]) == {"reliability", "sensitivity"}


def test_unknown_header_and_extra_column(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("system,topic,metric,value,comment\na,t1,P,0.5,x\n")
    with pytest.raises(CampaignFormatError, match="unknown comment"):
        read_score_table(p)
    p.write_text("run,query,measure,score\na,t1,P,0.5\n")
    with pytest.raises(CampaignFormatError, match="missing system, topic, metric, value"):
        read_score_table(p)


def test_empty_and_header_only(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("")
    with pytest.raises(CampaignFormatError, match="empty"):
        read_score_table(p)
    p.write_text("system,topic,metric,value\n")
    with pytest.raises(CampaignFormatError, match="no row"):
        read_score_table(p)


def test_wrong_column_count_names_line(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("system,topic,metric,value\na,t1,P,0.5\na,t1,R\n")
    with pytest.raises(CampaignFormatError) as err:
        read_score_table(p)
    assert err.value.line == 3 and "missing value for value" in err.value.problem


def test_parquet_errors_name_the_row(tmp_path):
    p = tmp_path / "s.parquet"
    pd.DataFrame({"system": ["a", "a"], "topic": ["t", "t"], "metric": ["P", "P"],
                  "value": [0.1, 0.2]}).to_parquet(p)
    with pytest.raises(CampaignFormatError, match=r"\(row 1\) and 0.2 \(row 2\)"):
        read_score_table(p)
    pd.DataFrame({"system": ["a"], "topic": ["t"], "metric": ["P"],
                  "value": ["x"]}).to_parquet(p)
    with pytest.raises(CampaignFormatError, match=r"'x' is not a number \(row 1\)"):
        read_score_table(p)


def test_truncated_gzip_score_table(tmp_path):
    data = gzip.compress((SCORES / "replab_sample.csv").read_bytes() * 20)
    p = tmp_path / "s.csv.gz"
    p.write_bytes(data[: len(data) // 2])
    with pytest.raises(CampaignFormatError, match="truncated or corrupt") as err:
        load(p)
    assert err.value.path == str(p)


# --- every message names the file's line (blank lines anywhere) or, in Parquet, the row ---------
_BAD_ROWS = {  # the bad row, what the message or note says about it
    "not a number": (("s1", "T9", "p", "high"), "value 'high' is not a number"),
    "infinite": (("s1", "T9", "p", "-inf"), "value '-inf' is infinite"),
    "conflicting duplicate": (("s0", "T0", "p", "0.99"), "has two values"),
    "exact duplicate": (("s0", "T0", "p", None), "exact duplicate row(s) ignored"),
    "outside [0, 1]": (("s1", "T9", "purity", "1.5"), "outside [0, 1]"),
    "missing field": (("s1", "T9", "p", ""), "missing value for value"),
}


def _scores_with_blank_lines(rng, bad, sep: str) -> tuple[str, int, list[tuple]]:
    """A score table in text with blank lines here and there, the bad row at a random place;
    returns the text, the bad row's line and the rows (header excluded) in order."""
    rows = [(f"s{s}", f"T{t}", "p", f"{rng.uniform(0, 1):.4f}") for s in range(3)
            for t in range(5)]
    rows.insert(int(rng.integers(1, len(rows))), bad)
    lines, bad_line = ["" for _ in range(int(rng.integers(0, 3)))], None
    lines.append(sep.join(("system", "topic", "metric", "value")))
    for row in rows:
        lines += ["" if rng.random() < 0.5 else "   " for _ in range(int(rng.integers(0, 3)))]
        lines.append(sep.join(row))
        if row is bad:
            bad_line = len(lines)
    return "\n".join(lines) + "\n", bad_line, rows


@pytest.mark.parametrize("kind", list(_BAD_ROWS))
@pytest.mark.parametrize("sep", [",", "\t"])
@pytest.mark.parametrize("seed", range(4))
def test_every_score_table_message_names_the_line(tmp_path, kind, sep, seed):
    row, said = _BAD_ROWS[kind]
    rng = np.random.default_rng(seed)
    if row[3] is None:  # an exact copy of the first row
        row = None
    text, line, rows = _scores_with_blank_lines(rng, row or ("s0", "T0", "p", "x"), sep)
    if row is None:
        first = rows[0]
        text = text.replace(sep.join(("s0", "T0", "p", "x")), sep.join(first))
    path = tmp_path / ("scores.csv" if sep == "," else "scores.tsv")
    path.write_text(text, encoding="utf-8")
    if kind in ("exact duplicate", "outside [0, 1]"):  # kept, with a note naming the line
        notes = [n for n in read_score_table(path).attrs["notes"] if said in n.problem]
        assert len(notes) == 1 and notes[0].line == line, (notes, line)
        return
    with pytest.raises(CampaignFormatError) as exc:
        read_score_table(path)
    assert said in exc.value.problem and exc.value.line == line, (str(exc.value), line)


@pytest.mark.parametrize("kind", ["infinite", "outside [0, 1]"])
def test_parquet_messages_name_the_row(tmp_path, kind):
    row, said = _BAD_ROWS[kind]
    frame = pd.DataFrame([("s0", "T0", "p", 0.5), ("s0", "T1", "p", 0.25),
                          (*row[:3], float(row[3]))], columns=["system", "topic", "metric",
                                                               "value"])
    path = tmp_path / "scores.parquet"
    frame.to_parquet(path)
    if kind == "infinite":
        with pytest.raises(CampaignFormatError, match=r"is infinite \(row 3\)$"):
            read_score_table(path)
    else:
        (note,) = [n for n in read_score_table(path).attrs["notes"] if said in n.problem]
        assert note.problem.endswith("(row 3)")
