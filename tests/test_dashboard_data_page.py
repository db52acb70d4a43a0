"""The Data page and the messages a dashboard user reads about a load.

- :mod:`dashboard.render.quality`: the level of each message follows the validation report (missing and
  extra items are info, the loader's notes are the warnings, counted as the Warnings section
  counts them), the report table cuts long names in the middle with the full name as hover title
  and writes counts with thousands separators;
- uploads: a damaged zip, a malformed CSV and notes of an uploaded campaign name the user's file,
  never the server's storage folder;
- score tables with test beds: an uploaded zip of ``scores.csv`` + ``campaign.toml``, and a
  command-line table with ``--testbeds`` (``UNANIMITY_CAMPAIGN`` / ``UNANIMITY_TESTBEDS``);
- after an upload the sidebar shows the new campaign's A and B.
"""

from __future__ import annotations

import io
import re
import zipfile

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402
from test_dashboard_app import APP, TIMEOUT, assert_clean, open_page, upload  # noqa: E402

from dashboard.data import sources  # noqa: E402
from dashboard.data.uploads import upload_root  # noqa: E402
from dashboard.render import quality  # noqa: E402
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport  # noqa: E402

# the server's storage folder of an upload (wherever the temporary folder is), never the clone's
# own path, which the Data page rightly shows as the bundled campaign's source
STORAGE = re.compile(re.escape(str(upload_root())) +
                     r"|unanimity-uploads|session-[a-z0-9_]+|up-[0-9a-f]{16}/")


def _report(*systems: dict, notes: int = 0) -> ValidationReport:
    rep = ValidationReport(gold=ClusteringReport("gold"))
    for kw in systems:
        rep.systems[kw["name"]] = ClusteringReport(**kw)
    rep.notes = [LoadNote("gold.csv", f"note {i}", i + 1) for i in range(notes)]
    return rep


# --- messages: hand-worked reports --------------------------------------------------------------
def test_coverage_counts_by_hand():
    rep = _report({"name": "a", "missing_items": 2, "extra_items": 1},
                  {"name": "b", "missing_items": 137},
                  {"name": "c", "extra_items": 5, "duplicate_rows": 3,
                   "notes": [LoadNote("runs/c.csv", "3 exact duplicate rows ignored")]},
                  {"name": "d", "missing_topics": 1, "missing_items": 40},
                  {"name": "e"})
    cov = rep.coverage()
    assert (cov.systems, cov.with_missing_items, cov.with_extra_items) == (5, 3, 2)
    assert (cov.with_missing_or_extra, cov.max_missing_items, cov.max_extra_items) == (4, 137, 5)
    assert (cov.with_missing_topics, cov.with_duplicate_rows, cov.warnings) == (1, 1, 1)
    assert not cov.complete


def test_missing_items_alone_are_info_not_a_warning():
    rep = _report(*({"name": f"s{i}", "missing_items": 2, "extra_items": 1} for i in range(35)))
    msgs = quality.messages(rep.coverage(), has_clusterings=True)
    assert [lvl for lvl, _ in msgs] == ["info"]
    assert msgs[0][1].startswith("35 of 35 systems have missing or extra items (at most 2 "
                                 "missing and 1 extra in one system)")


def test_the_warning_counts_what_the_warnings_section_lists():
    rep = _report({"name": "a", "missing_items": 1}, {"name": "b"}, notes=3)
    msgs = dict(quality.messages(rep.coverage(), has_clusterings=True))
    assert msgs["warning"].startswith("3 warnings from the loader")
    assert len(rep.all_notes()) == 3
    one = dict(quality.messages(_report({"name": "a"}, notes=1).coverage(), True))
    assert one["warning"].startswith("1 warning from the loader") and "success" not in one


def test_complete_campaign_is_a_success():
    msgs = quality.messages(_report({"name": "a"}, {"name": "b"}).coverage(), True)
    assert msgs == [("success", "All 2 systems cover every gold item of every topic; no "
                                "duplicates, no extra items.")]


def test_report_html_cuts_names_in_the_middle_with_a_hover_title():
    long_a, long_b = "SVM_terms_jaccard_HAC_10%_with_a_long_tail", "SVM_terms_jaccard_HAC_100%_x"
    rep = _report({"name": long_a, "rows": 67664, "items": 67664, "missing_items": 2},
                  {"name": long_b, "rows": 1234567}, {"name": "short"}).to_dataframe()
    html = quality.report_html(rep, name_width=20)
    assert 'title="SVM_terms_jaccard_HAC_10%_with_a_long_tail"' in html
    assert "SVM_terms_\u2026long_tail" in html         # both ends kept
    assert "SVM_terms_\u2026AC_100%_x" in html
    assert 'title="short"' not in html                  # not cut: no title needed
    assert ">67,664<" in html and ">1,234,567<" in html and ">67664<" not in html
    assert "#FBE3D6" in html                            # the non-zero missing items highlighted


# --- the Data page ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    return open_page(at, "data")


def test_replab_data_page_agrees_with_itself(data_page):
    at = data_page
    assert_clean(at)
    assert not at.warning  # RepLab's loader leaves no note: no warning anywhere
    assert any(i.value.startswith("35 of 35 systems have missing or extra items")
               for i in at.info)
    assert [m.value for m in at.markdown if m.value.startswith("**Warnings**")] == \
        ["**Warnings** (0)"]
    assert [m.value for m in at.metric] == ["35", "61", "67,665", "4"]
    table = at.get("html")[0].proto.body
    assert ">67,664<" in table and ">67664<" not in table


def _zip(files: dict[str, bytes | str], top: str = "") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, content in files.items():
            zf.writestr(top + name, content)
    return buf.getvalue()


def _no_storage_path(at: AppTest) -> str:
    shown = " ".join([e.value for e in at.error] + [c.value for c in at.caption] +
                     [c.value for c in at.code] + [w.value for w in at.warning] +
                     [i.value for i in at.info])
    assert not STORAGE.search(shown), shown
    return shown


def test_corrupt_zip_upload_says_what_is_wrong():
    at = upload(AppTest.from_file(APP, default_timeout=TIMEOUT),
                [("small_campaign.zip", b"PK\x03\x04" + b"\x00" * 64, "application/zip")])
    shown = _no_storage_path(at)
    assert "small_campaign.zip: not a valid zip archive" in shown
    assert "unknown format" not in shown
    at = upload(at, [("renamed.zip", b"topic,item,cluster\n", "application/zip")])
    shown = _no_storage_path(at)
    assert "renamed.zip: not a valid zip archive" in shown


def test_malformed_csv_upload_is_a_sentence():
    gold = 'topic,item,cluster\nt1,a,1\nt1,"b,2\nt1,c,3\n'
    at = upload(AppTest.from_file(APP, default_timeout=TIMEOUT),
                [("gold.csv", gold.encode(), "text/csv"),
                 ("run1.csv", b"topic,item,cluster\nt1,a,1\n", "text/csv")])
    shown = _no_storage_path(at)
    assert 'gold.csv, line 3: a quoted field is never closed (a " without its pair)' in shown
    assert "EOF" not in shown


def test_uploaded_campaign_notes_name_the_users_files():
    gold = "topic,item,cluster\nt1,a,1\nt1,b,2\nt2,c,1\n"
    run = "topic,item,cluster\nt1,a,1\nt1,b,1\nt2,c,1\nt9,z,1\n"  # t9: a topic not in the gold
    at = upload(AppTest.from_file(APP, default_timeout=TIMEOUT),
                [("noted.zip", _zip({"gold.csv": gold, "runs/s1.csv": run,
                                     "runs/s2.csv": run}), "application/zip")])
    assert_clean(at)
    shown = _no_storage_path(at)
    notes = at.code[0].value.splitlines()
    assert len(notes) == 2 and all(n.startswith("noted.zip: runs/s") for n in notes)
    assert "topic(s) not in the gold" in notes[0]
    assert [w.value for w in at.warning][0].startswith("2 warnings from the loader")
    assert "**Warnings** (2)" in [m.value for m in at.markdown]
    assert "noted.zip" in shown  # the source caption


def _score_zip(top: str = "") -> bytes:
    rng = np.random.default_rng(5)
    topics = [f"T{t:02d}" for t in range(8)]
    rows = [(s, t, m, round(float(rng.uniform(0.1, 0.9)), 4)) for s in ("alpha", "beta", "gamma")
            for t in topics for m in ("bcubed_precision", "bcubed_recall")]
    csv = pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(index=False)
    beds = "".join(f"{t}\t{'news' if i < 5 else 'web'}\n" for i, t in enumerate(topics))
    return _zip({"scores.csv": csv, "beds.tsv": beds,
                 "campaign.toml": 'name = "Three systems"\ntestbeds = "beds.tsv"\n'}, top)


def test_score_table_zip_with_campaign_toml_has_test_beds():
    at = upload(AppTest.from_file(APP, default_timeout=TIMEOUT),
                [("three.zip", _score_zip("three/"), "application/zip")])
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert sel.all_testbeds == ("news", "web")
    open_page(at, "testbeds")
    assert_clean(at)
    assert at.get("plotly_chart")  # the per-bed rankings and the cross-bed prediction
    open_page(at, "data")
    assert_clean(at)
    assert any(i.value.startswith("**Per-item checks are unavailable.** A score table has no "
                                  "clusterings") for i in at.info)


def test_command_line_score_table_with_testbeds_file(tmp_path, monkeypatch):
    z = tmp_path / "three.zip"
    z.write_bytes(_score_zip())
    with zipfile.ZipFile(z) as zf:
        (tmp_path / "scores.csv").write_bytes(zf.read("scores.csv"))
        (tmp_path / "beds.tsv").write_bytes(zf.read("beds.tsv"))
    monkeypatch.setenv("UNANIMITY_CAMPAIGN", str(tmp_path / "scores.csv"))
    monkeypatch.setenv("UNANIMITY_TESTBEDS", str(tmp_path / "beds.tsv"))
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert_clean(at)
    sel = at.session_state["_selection"]
    assert sel.source.key == "cli" and sel.all_testbeds == ("news", "web")
    at.pills(key="beds").set_value(["web"]).run()
    assert_clean(at)
    assert at.session_state["_selection"].bed_filter == ("web",)


def test_after_an_upload_the_sidebar_shows_the_new_campaigns_pair():
    def csv(names, seed):
        rng = np.random.default_rng(seed)
        rows = [(s, f"t{t}", m, float(rng.uniform(0.1, 0.9))) for s in names for t in range(6)
                for m in ("bcubed_precision", "bcubed_recall")]
        return pd.DataFrame(rows, columns=["system", "topic", "metric", "value"]).to_csv(
            index=False).encode()

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    old = at.session_state["_selection"]
    assert (old.a, old.b) == (at.selectbox(key="a").value, at.selectbox(key="b").value)
    # the new campaign has systems of the old names too: they must not stay selected
    new_names = [old.b, old.a, "x1", "x2"]
    at = upload(at, [("mixed.csv", csv(new_names, 11), "text/csv")])
    assert_clean(at)
    sel = at.session_state["_selection"]
    first_two = list(sel.systems[:2])  # the new campaign's default pair: its two best
    assert [sel.a, sel.b] == first_two
    assert [at.selectbox(key="a").value, at.selectbox(key="b").value] == first_two


def test_app_arguments_path_and_testbeds(tmp_path, monkeypatch):
    """``streamlit run app.py -- PATH --testbeds RULE``: the path, the rule, and cache ids that
    tell apart one table with and without (or with other) test beds."""

    app = str(sources.Path(sources.__file__).resolve().parents[1] / "app.py")
    table, beds = tmp_path / "scores.csv", tmp_path / "beds.tsv"
    table.write_text("system,topic,metric,value\n")
    beds.write_text("t1\tnews\n")
    monkeypatch.delenv("UNANIMITY_CAMPAIGN", raising=False)
    monkeypatch.delenv("UNANIMITY_TESTBEDS", raising=False)
    monkeypatch.setattr(sources.sys, "argv", [app, "--testbeds", str(beds), str(table)])
    assert sources.cli_path() == table.resolve() and sources.cli_testbeds() == str(beds)
    monkeypatch.setattr(sources.sys, "argv", [app, str(table)])
    assert sources.cli_path() == table.resolve() and sources.cli_testbeds() is None
    plain = sources.path_source(table, "cli", "t")
    with_file = sources.path_source(table, "cli", "t", str(beds))
    with_regex = sources.path_source(table, "cli", "t", r"^t(\d)")
    assert len({plain.cid, with_file.cid, with_regex.cid}) == 3
    assert sources.campaign_key(plain) != sources.campaign_key(with_file)
    assert with_file.testbeds == str(beds) and plain.testbeds is None


def test_all_zero_columns_are_left_out_and_said():
    rep = _report({"name": "a", "missing_items": 1}, {"name": "b", "duplicate_rows": 2}
                  ).to_dataframe()
    assert quality.quiet_columns(rep) == ["empty_clusters", "overlapping_items", "notes"]
    html = quality.report_html(rep)
    assert ">duplicate rows</th>" in html and ">missing topics</th>" in html  # always shown
    assert "overlapping items" not in html and ">notes</th>" not in html


def test_data_page_says_which_columns_it_leaves_out(data_page):
    captions = " ".join(c.value for c in data_page.caption)
    assert ("No system has duplicate rows, empty clusters, overlapping items or notes "
            "(columns not shown).") in captions
