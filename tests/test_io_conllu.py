"""The conllu token tagging reader, the bundled UD EWT campaign, and the CLI on it."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import detect_format, load, load_files
from metrics.io.conllu import read_tokens
from metrics.measures.scoring import evaluate, score_clusterings
from metrics.measures.typelevel.type_entries import type_mappings

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "ud-ewt"
SHARED = ROOT.parent / "shared" / "campaigns" / "ud-english-ewt"

GOLD = """# newdoc id = email-doc_a
# sent_id = email-doc_a-0001
# text = I can't go.
1\tI\tI\tPRON\tPRP\t_\t3\tnsubj\t_\t_
2-3\tcan't\t_\t_\t_\t_\t_\t_\t_\t_
2\tca\tcan\tAUX\tMD\t_\t3\taux\t_\t_
3\tn't\tnot\tPART\tRB\t_\t4\tadvmod\t_\t_
4\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_
5\t.\t.\tPUNCT\t.\t_\t4\tpunct\t_\t_

# sent_id = reviews-doc_b-0001
1\tGo\tgo\tVERB\tVB\t_\t0\troot\t_\t_
1.1\tgo\tgo\tVERB\tVB\t_\t_\t_\t_\t_
2\t#\t#\tSYM\tNFP\t_\t1\tpunct\t_\t_

"""
RUN_PAIRS = "I\t1\nca\t2\nn't\t2\ngo\t3\n.\t4\n\nGo\t3\n#\t4\n"
RUN_CONLLU = GOLD.replace("\tPRON\t", "\tc1\t").replace("\tAUX\t", "\tc2\t") \
    .replace("\tPART\t", "\tc2\t").replace("\tVERB\t", "\tc3\t").replace("\tPUNCT\t", "\tc4\t") \
    .replace("\tSYM\t", "\tc4\t")


@pytest.fixture
def small(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "gold.conllu").write_text(GOLD, encoding="utf-8")
    (tmp_path / "runs" / "pairs.tsv").write_text(RUN_PAIRS, encoding="utf-8")
    (tmp_path / "runs" / "tagged.conllu").write_text(RUN_CONLLU, encoding="utf-8")
    return tmp_path


def test_read_tokens_skips_multiword_lines_and_empty_nodes(small):
    tk = read_tokens(small / "gold.conllu")
    assert tk.forms().tolist() == ["I", "ca", "n't", "go", ".", "Go", "#"]
    assert np.asarray(tk.tag).tolist() == ["PRON", "AUX", "PART", "VERB", "PUNCT", "VERB", "SYM"]
    assert tk.sent.tolist() == [0, 0, 0, 0, 0, 1, 1]
    assert tk.sent_ids.tolist() == ["email-doc_a-0001", "reviews-doc_b-0001"]
    assert tk.line[0] == 4
    assert "1 multi-word token line(s) and 1 empty node(s)" in tk.notes[0].problem
    xpos = read_tokens(small / "gold.conllu", "xpos")
    assert np.asarray(xpos.tag).tolist()[:2] == ["PRP", "MD"]
    pairs = read_tokens(small / "runs" / "pairs.tsv")
    assert pairs.layout == "pairs" and pairs.forms().tolist()[-1] == "#"  # "#<TAB>4" is a token


def test_detect_format(small):
    assert detect_format(small / "gold.conllu") == "conllu"
    plain = small / "gold.txt"
    plain.write_text(GOLD, encoding="utf-8")
    assert detect_format(plain) == "conllu"  # by its first line


def test_folder_campaign_with_both_run_layouts(small):
    camp = load(small)
    assert camp.systems == ["pairs", "tagged"]
    assert camp.n_items == 7 and camp.n_topics == 1
    assert camp.type_names[camp.item_type].tolist() == ["I", "ca", "n't", "go", ".", "Go", "#"]
    table = evaluate(camp, "accuracy_m1,type_macro_f")
    a = table[table.system == "pairs"]["value"].to_numpy()
    b = table[table.system == "tagged"]["value"].to_numpy()
    assert np.allclose(a, b)  # the same clusters, written two ways


def test_options_tagset_lowercase_topics_exclude(small):
    camp = load(small, reader_options={"lowercase": True, "tagset": "xpos"})
    names = camp.type_names[camp.item_type].tolist()
    assert names.count("go") == 2  # "go" and "Go" are one type
    assert "PRP" in set(camp.gold.label_names)
    (small / "campaign.toml").write_text(
        'format = "conllu"\ntopic_unit = "genre"\nexclude_tags = ["PUNCT", "SYM"]\n',
        encoding="utf-8")
    camp = load(small)
    assert camp.topics.tolist() == ["email", "reviews"]
    assert camp.testbed_counts() == {"email": 1, "reviews": 1}
    assert camp.n_items == 5
    assert any("2 token(s) tagged PUNCT, SYM" in n.problem for n in camp.report.gold.notes)
    camp = load(small, reader_options={"topic_unit": "document"})
    assert camp.topics.tolist() == ["email-doc_a", "reviews-doc_b"]


def test_mismatch_names_file_line_and_token(small):
    (small / "runs" / "pairs.tsv").write_text(RUN_PAIRS.replace("go\t3", "went\t3"),
                                              encoding="utf-8")
    with pytest.raises(CampaignFormatError) as err:
        load(small)
    msg = str(err.value)
    assert "pairs.tsv, line 4" in msg and "'went'" in msg and "'go'" in msg
    assert "gold.conllu, line 8" in msg


def test_short_run_and_sentence_break(small):
    (small / "runs" / "pairs.tsv").write_text("I\t1\nca\t2\n", encoding="utf-8")
    with pytest.raises(CampaignFormatError, match="run ends after 2 tokens; the gold has 7"):
        load(small)
    (small / "runs" / "pairs.tsv").write_text(RUN_PAIRS.replace("go\t3\n", "go\t3\n\n"),
                                              encoding="utf-8")
    with pytest.raises(CampaignFormatError, match="sentence break"):
        load(small)


@pytest.mark.parametrize("text, problem", [
    ("I\t1\textra\n", "expected 10 tab-separated CoNLL-U columns or 2"),
    ("I\t1\nca\n", "line 2: expected 2 tab-separated columns"),
    ("I\t_\n", "line 1: token 'I' has no tag"),
])
def test_bad_run_lines(small, text, problem):
    (small / "runs" / "pairs.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(CampaignFormatError, match=problem):
        load(small)


def test_bad_options(small):
    with pytest.raises(UnanimityError, match="tagset 'lemma'"):
        load(small, reader_options={"tagset": "lemma"})
    (small / "campaign.toml").write_text('format = "conllu"\nslice_tokens = 10\n', encoding="utf-8")
    with pytest.raises(UnanimityError, match="slice_tokens needs topic_unit"):
        load(small)


def test_type_metrics_on_a_campaign_without_types():

    with pytest.raises(UnanimityError, match="type level metrics apply to the kinds token tagging"):
        score_clusterings(["a", "b"], ["x", "x"], "type_macro_f")


def test_loose_files(small):
    camp = load_files(small / "gold.conllu", [small / "runs" / "pairs.tsv"])
    assert camp.systems == ["pairs"] and camp.item_type is not None


# --- the bundled campaign ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def ewt():
    return load(DEMO)


def test_bundled_campaign(ewt):
    assert ewt.name == "UD English EWT part-of-speech induction"
    assert len(ewt.systems) == 9
    assert {s.split("-")[0] for s in ewt.systems} == {"brown", "svdkm", "ctxkm"}
    assert set(ewt.testbed_counts()) == {"answers", "email", "newsgroup", "reviews", "weblog"}
    assert ewt.n_topics >= 15
    assert not set(ewt.gold.label_names) & {"PUNCT"}
    for rep in ewt.report.systems.values():
        assert rep.missing_items == 0 and rep.extra_items == 0
    info = json.loads((DEMO / "induction.json").read_text())
    assert {r["system"] for r in info} == set(ewt.systems)


@pytest.mark.skipif(not SHARED.exists(), reason="shared UD EWT campaign not available")
def test_bundled_gold_is_the_treebank(ewt):
    """Every UPOS of dev + test is in the bundled gold, in order (punctuation left out)."""
    tags = []
    for f in ("en_ewt-ud-dev.conllu.gz", "en_ewt-ud-test.conllu.gz"):
        tags.extend(np.asarray(read_tokens(SHARED / f).tag).tolist())
    tags = [t for t in tags if t != "PUNCT"]
    g = ewt.gold
    order = np.argsort(ewt.item_ids[g.item], kind="stable")  # ids sort in corpus order
    assert g.label_names[g.label[order]].tolist() == tags


def test_bundled_token_and_type_measures(ewt):
    metrics = ("accuracy_m1,accuracy_11,v_measure,nvi,h_c_given_k,h_k_given_c,"
               "type_macro_precision,type_macro_recall,type_macro_f,type_micro_f,type_microc_f,"
               "type_macro_f(mapping=many_to_one),type_microc_f(mapping=many_to_one)")
    table = evaluate(ewt, metrics, systems=["brown-17", "svdkm-100"])
    assert table["value"].notna().all()
    wide = table.groupby(["system", "metric"])["value"].mean().unstack()
    assert ((wide.drop(columns=["nvi", "h_c_given_k", "h_k_given_c"]) >= 0)
            & (wide.drop(columns=["nvi", "h_c_given_k", "h_k_given_c"]) <= 1)).all().all()
    # the paper's point on real data: with 100 clusters token M-1 accuracy rises, while the
    # 1-1 type-level MacroI F falls
    assert wide.loc["svdkm-100", "accuracy_m1"] > wide.loc["brown-17", "accuracy_m1"]
    assert wide.loc["svdkm-100", "type_macro_f"] < wide.loc["brown-17", "type_macro_f"]


def test_bundled_mapping_export(ewt):
    maps = type_mappings(ewt, "brown-17", mapping="one_to_one")
    assert set(maps["method"]) == {"assignment"} and maps["exact"].all()
    per_topic = maps.groupby("topic")
    assert (per_topic["tag"].apply(lambda s: s[s != ""].is_unique)).all()  # 1-1
    m1 = type_mappings(ewt, "ctxkm-45", mapping="many_to_one", measure="microc")
    assert (m1["tag"] != "").all() and set(m1["method"]) == {"hill climbing"}


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "metrics", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def test_cli_info_evaluate_compare(tmp_path):
    res = _cli("info", str(DEMO), "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["systems"] == 9
    out = tmp_path / "scores.csv"
    maps = tmp_path / "maps.csv"
    res = _cli("evaluate", str(DEMO), "--metrics", "type_macro_precision,type_macro_recall,"
               "accuracy_m1", "--systems", "brown-17,svdkm-17", "--out", str(out),
               "--export-mapping", str(maps))
    assert res.returncode == 0, res.stderr
    table = pd.read_csv(out)
    assert set(table["metric"]) == {"type_macro_precision", "type_macro_recall", "accuracy_m1"}
    m = pd.read_csv(maps, keep_default_na=False)
    assert set(m["system"]) == {"brown-17", "svdkm-17"} and set(m["measure"]) == {"macro"}
    res = _cli("compare", str(DEMO), "--metrics", "type_macro_precision,type_macro_recall",
               "--out", str(tmp_path / "cmp"))
    assert res.returncode == 0, res.stderr
    assert any((tmp_path / "cmp").iterdir())
    res = _cli("evaluate", str(DEMO), "--metrics", "type_macro_f(mapping=sideways)")
    assert res.returncode == 2 and "sideways" in res.stderr


def test_bundled_files_are_compact():
    size = sum(p.stat().st_size for p in DEMO.rglob("*") if p.is_file())
    assert size < 3_000_000
    with gzip.open(DEMO / "gold.conllu.gz", "rt", encoding="utf-8") as fh:
        assert fh.readline().startswith("# ")


def test_topic_with_every_token_excluded_is_dropped_not_perfect(tmp_path):
    # found by an independent audit: a punctuation-only document scored 1.0 on every measure
    gold = ("# sent_id = dA-0000\n1\ta\ta\tNOUN\tNN\t_\t0\troot\t_\t_\n"
            "2\tb\tb\tVERB\tVB\t_\t1\tdep\t_\t_\n3\ta\ta\tVERB\tVB\t_\t1\tdep\t_\t_\n\n"
            "# sent_id = dB-0000\n1\t,\t,\tPUNCT\t,\t_\t0\troot\t_\t_\n\n")
    folder = tmp_path / "camp"
    (folder / "runs").mkdir(parents=True)
    (folder / "gold.conllu").write_text(gold, encoding="utf-8")
    (folder / "runs" / "one.tsv").write_text("a\t1\nb\t1\na\t1\n\n,\t2\n\n", encoding="utf-8")
    (folder / "campaign.toml").write_text(
        'format = "conllu"\ntopic_unit = "document"\nexclude_tags = ["PUNCT"]\n', encoding="utf-8")
    camp = load(folder)
    assert camp.topics.tolist() == ["dA"]
    assert any("1 topic(s) with no token left" in n.problem for n in camp.report.gold.notes)
    scores = evaluate(camp, ["type_macro_precision", "type_macro_recall", "type_macro_f"])
    got = dict(zip(scores["metric"], scores["value"]))
    assert got["type_macro_precision"] == pytest.approx(1.0)
    assert got["type_macro_recall"] == pytest.approx(2 / 3)
    assert got["type_macro_f"] == pytest.approx(0.8)
