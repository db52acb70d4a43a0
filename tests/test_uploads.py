"""The dashboard's upload store: per session, content-addressed, size-limited, cleaned up."""

from __future__ import annotations

import io as _io
import os
import time
import zipfile

import pytest
from io_hostile_cases import GOLD, RUN
from test_dashboard_app import new_app, upload

from dashboard.data.uploads import (
    UploadLimits,
    UploadSpace,
    safe_name,
    sweep,
    upload_key,
    user_text,
)
from metrics.errors import UnanimityError
from metrics.io import load, load_files


@pytest.mark.parametrize("given, stored", [
    ("runs.csv", "runs.csv"), ("..", "upload-3"), ("", "upload-3"), (".", "upload-3"),
    ("../../etc/passwd", "passwd"), ("a/b/c.tsv", "c.tsv"), ("C:\\x\\gold.csv", "gold.csv"),
    ("..\\..", "upload-3"), ("a\x00b.csv", "a_b.csv"), (".hidden.csv", "hidden.csv"),
    (None, "upload-3"),
])
def test_safe_names(given, stored):
    assert safe_name(given, 3) == stored


def test_content_addressed_and_idempotent(tmp_path):
    space = UploadSpace(tmp_path, UploadLimits())
    a = space.save([("gold.csv", GOLD.encode()), ("run.csv", RUN.encode())], "gold.csv")
    b = space.save([("gold.csv", GOLD.encode()), ("run.csv", RUN.encode())], "gold.csv")
    assert a == b and a.key == upload_key([("gold.csv", GOLD.encode()),
                                           ("run.csv", RUN.encode())], "gold.csv")
    c = space.save([("gold.csv", GOLD.encode()), ("run.csv", RUN.encode() + b"\n")], "gold.csv")
    d = space.save([("gold.csv", GOLD.encode()), ("run.csv", RUN.encode())], "run.csv")
    assert len({a.key, c.key, d.key}) == 3 and len({a.folder, c.folder, d.folder}) == 3
    assert a.gold.name == "gold.csv" and [p.name for p in a.runs] == ["run.csv"]
    assert a.gold.read_text() == GOLD
    assert list(load_files(a.gold, a.runs).runs) == ["run"]


def test_sessions_do_not_share_folders(tmp_path):
    one, two = UploadSpace(tmp_path), UploadSpace(tmp_path)
    files = [("gold.csv", GOLD.encode())]
    assert one.folder != two.folder
    assert one.save(files).folder.parent == one.folder
    assert two.save(files).folder.parent == two.folder


def test_dangerous_names_are_stored_inside_the_folder(tmp_path):
    space = UploadSpace(tmp_path / "root")
    up = space.save([("..", GOLD.encode()), ("", RUN.encode())], "..")
    for p in up.paths:
        assert p.parent == up.folder and p.is_file()
    assert not (tmp_path / "root" / "upload-0").exists()


def test_two_files_with_one_name_cannot_collide(tmp_path):
    space = UploadSpace(tmp_path)
    with pytest.raises(UnanimityError, match="two uploaded files are named 'a.csv'"):
        space.save([("x/a.csv", b"1"), ("y/a.csv", b"2")])
    with pytest.raises(UnanimityError, match="not one of the uploaded files"):
        space.save([("a.csv", b"1"), ("b.csv", b"2")], "c.csv")


def test_size_limits(tmp_path):
    lim = UploadLimits(upload_bytes=100, session_bytes=150, files=3)
    space = UploadSpace(tmp_path, lim)
    with pytest.raises(UnanimityError, match="at most 0 MiB|at most"):
        space.save([("a.csv", b"x" * 101)])
    space.save([("a.csv", b"x" * 90)])
    with pytest.raises(UnanimityError, match="already stores"):
        space.save([("b.csv", b"y" * 90)])
    space.save([("a.csv", b"x" * 90)])  # the same upload again costs nothing
    with pytest.raises(UnanimityError, match="at most 3"):
        space.save([(f"{i}.csv", b"") for i in range(4)])
    with pytest.raises(UnanimityError, match="no file"):
        space.save([])


def test_limits_from_the_environment(monkeypatch):
    monkeypatch.setenv("UNANIMITY_MAX_UPLOAD_MB", "2")
    monkeypatch.setenv("UNANIMITY_UPLOAD_MAX_AGE_HOURS", "0.5")
    lim = UploadLimits.from_env()
    assert lim.upload_bytes == 2 << 20 and lim.max_age_s == 1800
    monkeypatch.setenv("UNANIMITY_MAX_UPLOAD_MB", "-1")
    with pytest.raises(UnanimityError, match="must be positive"):
        UploadLimits.from_env()


def test_discard_close_and_sweep(tmp_path):
    space = UploadSpace(tmp_path)
    up = space.save([("gold.csv", GOLD.encode())])
    space.discard(up.key)
    assert not up.folder.exists() and space.folder.exists()
    space.discard("../..")  # not a key: nothing happens
    assert tmp_path.exists()
    space.close()
    assert not space.folder.exists()
    old, fresh = UploadSpace(tmp_path), UploadSpace(tmp_path)
    old.save([("gold.csv", GOLD.encode())])
    (tmp_path / "not-a-session").mkdir()
    past = time.time() - 7200
    os.utime(old.folder, (past, past))
    os.utime(tmp_path / "not-a-session", (past, past))
    assert sweep(tmp_path, 3600) == 1
    assert not old.folder.exists() and fresh.folder.exists()
    assert (tmp_path / "not-a-session").exists()
    # a session whose folder was swept can upload again
    assert old.save([("gold.csv", GOLD.encode())]).gold is None


def test_errors_name_the_files_as_uploaded(tmp_path):
    space = UploadSpace(tmp_path)
    z = tmp_path / "src.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("gold.csv", GOLD)
        zf.writestr("runs/a.csv", "topic,item,cluster\njaguar,d01\n")
    up = space.save([("archive.zip", z.read_bytes())])
    with pytest.raises(UnanimityError) as err:
        load(up.paths[0])
    assert user_text(str(err.value), tmp_path) == \
        "archive.zip: runs/a.csv, line 2: missing value for cluster (wrong number of columns " \
        "or empty field)"


# --- through the Data page (Streamlit AppTest)
# ------------------------------------------------------
def test_hostile_uploads_on_the_data_page():

    at = upload(new_app(), [("..", b"topic,item,cluster\nj,a,x\n", "text/csv")])
    assert not at.exception
    at = upload(new_app(), [("gold.csv", GOLD.encode(), "text/csv"),
                            ("gold.csv", RUN.encode(), "text/csv")])
    assert not at.exception
    assert "two uploaded files are named 'gold.csv'" in " ".join(e.value for e in at.error)

    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("gold.csv", GOLD)
        zf.writestr("runs/a.csv", "topic,item,cluster\njaguar,d01\n")
    at = upload(new_app(), [("archive.zip", buf.getvalue(), "application/zip")])
    msg = " ".join(e.value for e in at.error)
    assert "archive.zip: runs/a.csv, line 2: missing value for cluster" in msg
    assert "unanimity-uploads" not in msg
