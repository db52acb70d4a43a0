"""The dashboard on a comparison bundle (AppTest): ``unanimity dashboard DIR`` opens the stored
tables without recomputing, every bundle page renders, shown numbers equal the bundle's CSVs, the
Data page opens a bundle by path and as an uploaded zip, a tampered or old bundle shows
open_bundle's refusal (no traceback)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("streamlit")
import shutil

from streamlit.testing.v1 import AppTest  # noqa: E402
from test_bundle_tampering import CASES, _tampered
from test_bundle_tampering import _zip as zip_folder

from dashboard import bundle_app
from dashboard.data.bundles import cli_bundle
from metrics.analyses import compare  # noqa: E402
from metrics.analyses.paper_tables import paper_tables  # noqa: E402
from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.reports.bundle import BUNDLE_VERSION, MANIFEST, open_bundle, write_comparison_bundle  # noqa: E402
from metrics.reports.bundle_zip import bundle_zip_manifest, unpack_bundle_zip

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "dashboard" / "app.py")
FIXTURE = ROOT / "tests" / "data" / "replab2013_official_rs.csv.gz"
TIMEOUT = 120


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory) -> Path:
    t = pd.read_csv(FIXTURE, dtype={"system": str, "topic": str, "metric": str})
    keep = sorted(pd.unique(t["system"]))[:9]
    t = t[t["system"].isin(keep)].reset_index(drop=True)
    beds = {x: x[6:9] for x in pd.unique(t["topic"])}
    res = compare(t, "reliability", "sensitivity", testbeds=beds)
    pt = paper_tables(res, t)
    src = tmp_path_factory.mktemp("in") / "scores.csv"
    t.to_csv(src, index=False)
    out = tmp_path_factory.mktemp("b") / "results"
    write_comparison_bundle(res, out, inputs=[src], options={"alpha": 0.5, "profile": "default"},
                            extra_tables=pt.tables, extra_json={"paper_tables": pt.summary})
    return out


def _app(monkeypatch, path: Path | None) -> AppTest:
    if path is None:
        monkeypatch.delenv("UNANIMITY_CAMPAIGN", raising=False)
    else:
        monkeypatch.setenv("UNANIMITY_CAMPAIGN", str(path))
    return AppTest.from_file(APP, default_timeout=TIMEOUT)


def _errors(at: AppTest) -> list[str]:
    return [e.value for e in at.error] + [str(e.value) for e in at.exception]


def _frame(at: AppTest, column: str) -> pd.DataFrame:
    """The first table on the page with ``column``."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a column {column!r}")


@pytest.mark.parametrize("page, title", [
    ("views/leaderboard.py", "Leaderboard"), ("views/compare.py", "Compare two systems"),
    ("views/uir_analysis.py", "UIR analysis"), ("views/papers.py", "Papers' tables"),
    ("views/export.py", "Export"), ("views/bundle_data.py", "Data")])
def test_every_bundle_page_renders(monkeypatch, bundle_dir, page, title):
    at = _app(monkeypatch, bundle_dir)
    at.run()
    at.switch_page(page).run()
    assert not _errors(at), _errors(at)
    assert at.title[0].value == title
    assert at.query_params.get("bundle") in ("cli-bundle", ["cli-bundle"])


def test_leaderboard_shows_the_stored_tables(monkeypatch, bundle_dir):
    at = _app(monkeypatch, bundle_dir)
    at.run()
    assert not _errors(at), _errors(at)
    b = open_bundle(bundle_dir)
    shown = _frame(at, "reference_system")
    stored = b.systems.sort_values("rank", kind="stable").reset_index(drop=True)
    assert shown["system"].tolist() == stored["system"].tolist()
    assert shown["f"].tolist() == stored["f_alpha"].tolist()
    groups = _frame(at, "n_above")
    order = pd.read_csv(bundle_dir / "ranking.csv", dtype={"system": str})
    assert groups["system"].tolist() == order["system"].tolist()
    assert groups["group"].tolist() == order["group"].tolist()
    hasse = [json.loads(el.proto.spec) for el in at.get("plotly_chart")
             if "lb_hasse" in el.proto.id]
    assert len(hasse) == 1
    edges = pd.read_csv(bundle_dir / "ranking_hasse.csv")
    assert sum(x is not None for x in hasse[0]["data"][0]["x"]) == 2 * len(edges)


def test_pairs_page_words_the_stored_row(monkeypatch, bundle_dir):
    b = open_bundle(bundle_dir)
    pairs = b.pairs
    row = pairs.loc[pairs["uir"].idxmax()]
    at = _app(monkeypatch, bundle_dir)
    at.query_params.update({"ba": row["system_a"], "bb": row["system_b"]})
    at.run()
    at.switch_page("views/compare.py").run()
    assert not _errors(at), _errors(at)
    text = " ".join(m.value for m in at.markdown)
    robust = "A improves B robustly" if row["uir"] >= 0.25 else "is not robust"
    assert robust in text and f"{row['uir']:+.2f}" in text
    tests = _frame(at, "verdict")
    for m in ("reliability", "sensitivity"):
        verdict = {"improves": "A better", "worsens": "B better",
                   "no significant difference": "not significant"}[row[f"verdict_{m}"]]
        assert tests.set_index("metric").loc[m, "verdict"] == verdict
    assert "per-topic scores" in " ".join(c.value for c in at.caption)


def test_data_page_shows_the_manifest(monkeypatch, bundle_dir):
    at = _app(monkeypatch, bundle_dir)
    at.run()
    at.switch_page("views/bundle_data.py").run()
    m = json.loads((bundle_dir / MANIFEST).read_text())
    inputs = _frame(at, "bytes")
    assert inputs["SHA-256"].tolist() == [m["inputs"][0]["sha256"]]
    files = _frame(at, "rows")
    assert sorted(files["file"]) == sorted(e["file"] for e in m["files"].values())


def test_tampered_bundle_shows_the_refusal(monkeypatch, bundle_dir, tmp_path):

    bad = tmp_path / "bad"
    shutil.copytree(bundle_dir, bad)
    with open(bad / "systems.csv", "a") as fh:
        fh.write("\n")
    at = _app(monkeypatch, bad)
    at.run()
    assert not at.exception
    msgs = [e.value for e in at.error]
    assert any("refusing a tampered bundle" in e for e in msgs), msgs


def test_old_bundle_shows_the_refusal(monkeypatch, bundle_dir, tmp_path):

    old = tmp_path / "old"
    shutil.copytree(bundle_dir, old)
    m = json.loads((old / MANIFEST).read_text())
    m["format_version"] = 1
    (old / MANIFEST).write_text(json.dumps(m))
    at = _app(monkeypatch, old)
    at.run()
    assert not at.exception
    assert any("older version" in e.value and "rerun" in e.value for e in at.error)


def test_campaign_data_page_opens_a_bundle_by_path(monkeypatch, bundle_dir):
    at = _app(monkeypatch, None)
    at.run()
    at.switch_page("views/data_quality.py").run()
    at.text_input(key="_bundle_path").input(str(bundle_dir)).run()
    at.button(key="_bundle_open").click().run()
    assert not _errors(at), _errors(at)
    assert str(at.query_params.get("bundle", "")).strip("[]'").startswith("bd-")
    assert at.title[0].value in ("Leaderboard", "Data")
    at.sidebar.button(key="_bundle_leave").click().run()
    assert "bundle" not in at.query_params


def test_zipped_bundle_unpacks_and_opens(bundle_dir, tmp_path):
    """The zip route of the Data page's uploader (metrics.reports.bundle_zip), in one top folder."""

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in bundle_dir.iterdir():
            z.write(f, f"results/{f.name}")
        z.writestr("results/extra.txt", "not listed: never written")
    data = buf.getvalue()
    assert bundle_zip_manifest(data, "r.zip")["format_version"] == BUNDLE_VERSION
    b = unpack_bundle_zip(data, tmp_path / "u", "r.zip")
    assert not (tmp_path / "u" / "extra.txt").exists()
    pd.testing.assert_frame_equal(b.tables["ranking"], open_bundle(bundle_dir).tables["ranking"])
    # a member changed inside the zip: open_bundle refuses it
    buf2 = io.BytesIO()
    with zipfile.ZipFile(buf2, "w") as z:
        for f in bundle_dir.iterdir():
            z.writestr(f.name, f.read_bytes() + (b"\n" if f.name == "pairs.csv" else b""))
    with pytest.raises(UnanimityError, match="tampered"):
        unpack_bundle_zip(buf2.getvalue(), tmp_path / "v", "r.zip")
    # a manifest naming a file outside the folder
    m = json.loads((bundle_dir / MANIFEST).read_text())
    m["files"]["pairs"]["file"] = "../pairs.csv"
    buf3 = io.BytesIO()
    with zipfile.ZipFile(buf3, "w") as z:
        z.writestr(MANIFEST, json.dumps(m))
    with pytest.raises(UnanimityError, match="plain file name"):
        unpack_bundle_zip(buf3.getvalue(), tmp_path / "w", "r.zip")
    plain = io.BytesIO()
    with zipfile.ZipFile(plain, "w") as z:
        z.writestr("gold.csv", "topic,item,cluster\n")
    assert bundle_zip_manifest(plain.getvalue(), "c.zip") is None
    # a manifest that is not JSON: both routes name the zip and say so
    broken = io.BytesIO()
    with zipfile.ZipFile(broken, "w") as z:
        z.writestr(MANIFEST, "{not json")
    for read in (lambda d: bundle_zip_manifest(d, "b.zip"),
                 lambda d: unpack_bundle_zip(d, tmp_path / "x", "b.zip")):
        with pytest.raises(UnanimityError, match=r"^b\.zip: manifest\.json: not JSON"):
            read(broken.getvalue())


def test_dashboard_command_refuses_a_tampered_bundle_before_serving(bundle_dir, tmp_path, capsys):


    bad = tmp_path / "bad"
    shutil.copytree(bundle_dir, bad)
    (bad / "pairs.csv").write_text("edited\n")
    assert main(["dashboard", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "tampered" in err and "Traceback" not in err


def _zip(folder: Path, edit: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for f in sorted(folder.iterdir()):
            z.writestr(f"results/{f.name}", f.read_bytes() + (b"x" if f.name == edit else b""))
    return buf.getvalue()


def test_data_page_opens_an_uploaded_bundle_zip(monkeypatch, bundle_dir):
    at = _app(monkeypatch, None)
    at.run()
    at.switch_page("views/data_quality.py").run()
    at.toggle(key="_bundle_zip_on").set_value(True).run()
    at.file_uploader(key="_bundle_zip").set_value(
        [("results.zip", _zip(bundle_dir), "application/zip")]).run()
    at.button(key="_bundle_open").click().run()
    assert not _errors(at), _errors(at)
    key = str(at.query_params.get("bundle", "")).strip("[]'")
    assert key.startswith("bz-")
    assert at.title[0].value == "Data" and "Opened results.zip" in at.success[0].value
    at.switch_page("views/leaderboard.py").run()
    shown = _frame(at, "reference_system")
    stored = pd.read_csv(bundle_dir / "systems.csv").sort_values("rank", kind="stable")
    assert shown["f"].tolist() == stored["f_alpha"].tolist()


def test_an_uploaded_tampered_zip_is_refused_with_the_message(monkeypatch, bundle_dir):
    at = _app(monkeypatch, None)
    at.run()
    at.switch_page("views/data_quality.py").run()
    at.toggle(key="_bundle_zip_on").set_value(True).run()
    at.file_uploader(key="_bundle_zip").set_value(
        [("results.zip", _zip(bundle_dir, edit="pairs.csv"), "application/zip")]).run()
    at.button(key="_bundle_open").click().run()
    assert not at.exception
    msg = " ".join(e.value for e in at.error)
    assert "Could not open the bundle" in msg and "tampered" in msg
    assert "/session-" not in msg  # the storage folder is not shown
    assert "bundle" not in at.query_params


@pytest.mark.parametrize("page", ["views/bundle_unavailable.py", "views/check_reported.py"])
def test_campaign_only_pages_say_why_and_check_reported_works(monkeypatch, bundle_dir, page):
    at = _app(monkeypatch, bundle_dir)
    at.run()
    at.switch_page(page).run()
    assert not _errors(at), _errors(at)
    if page.endswith("unavailable.py"):
        text = " ".join(i.value for i in at.info)
        assert "per-topic scores" in text and "unanimity dashboard" in text


def test_downloaded_bundle_zip_reopens(monkeypatch, bundle_dir, tmp_path):

    at = _app(monkeypatch, bundle_dir)
    at.run()
    at.switch_page("views/bundle_data.py").run()

    data = bundle_app.zipped(cli_bundle(), open_bundle(bundle_dir))
    b = unpack_bundle_zip(data, tmp_path / "again", "results.zip")
    pd.testing.assert_frame_equal(b.tables["pairs"], open_bundle(bundle_dir).tables["pairs"])
    assert "Download the bundle (zip)" in [d.label for d in at.get("download_button")]


@pytest.mark.parametrize("case", ["manifest_nested_deep", "sha256_is_a_number",
                                  "text_in_int_column", "unknown_column_kind"])
def test_an_uploaded_edited_zip_gets_an_error_box(monkeypatch, bundle_dir, tmp_path, case):
    """Bundles edited with their fingerprints rewritten (tests/test_bundle_tampering.py): the
    upload shows the one-line refusal in an error box, never a traceback or a crash summary."""

    data = zip_folder(_tampered(bundle_dir, tmp_path, case))
    at = _app(monkeypatch, None)
    at.run()
    at.switch_page("views/data_quality.py").run()
    at.toggle(key="_bundle_zip_on").set_value(True).run()
    at.file_uploader(key="_bundle_zip").set_value(
        [("results.zip", data, "application/zip")]).run()
    at.button(key="_bundle_open").click().run()
    assert not at.exception
    msg = " ".join(e.value for e in at.error)
    assert "Could not open the bundle: results.zip" in msg, msg
    assert CASES[case][1].split(": ")[-1] in msg and " failed: " not in msg, msg
    assert "bundle" not in at.query_params
