"""The on-disk cache of slow score tables (dashboard/data/disk_cache.py): a stored table equals a
fresh computation, and a changed campaign file, metric list, policy or code makes a new one."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest

from dashboard.data import disk_cache
from dashboard.data.typelevel_metrics import TOKEN_METRICS, TYPE_METRICS
from metrics.io import load
from metrics.measures.scoring import evaluate

NAMES = list(TOKEN_METRICS + TYPE_METRICS)


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("UNANIMITY_CACHE_DIR", str(folder))
    return folder


GOLD = """# sent_id = email-a-1
1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_
2\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_
3\thome\thome\tNOUN\tNN\t_\t2\tobj\t_\t_
4\tnow\tnow\tADV\tRB\t_\t2\tadvmod\t_\t_

# sent_id = reviews-b-1
1\tGo\tgo\tVERB\tVB\t_\t0\troot\t_\t_
2\thome\thome\tNOUN\tNN\t_\t1\tobj\t_\t_
3\tI\tI\tPRON\tPRP\t_\t1\tnsubj\t_\t_
4\tgo\tgo\tVERB\tVB\t_\t1\tconj\t_\t_

"""
TOKENS = [["I", "go", "home", "now"], ["Go", "home", "I", "go"]]


def _run(clusters: list[list[int]]) -> str:
    return "\n".join("\n".join(f"{w}\t{c}" for w, c in zip(ws, cs, strict=True)) + "\n"
                     for ws, cs in zip(TOKENS, clusters, strict=True))


@pytest.fixture
def small(tmp_path) -> Path:
    """A token tagging campaign of two runs on two topics (the tests edit its files)."""
    camp = tmp_path / "camp"
    (camp / "runs").mkdir(parents=True)
    (camp / "gold.conllu").write_text(GOLD, encoding="utf-8")
    (camp / "runs" / "a.tsv").write_text(_run([[1, 2, 3, 3], [2, 3, 1, 2]]), encoding="utf-8")
    (camp / "runs" / "b.tsv").write_text(_run([[1, 1, 2, 2], [1, 2, 1, 1]]), encoding="utf-8")
    return camp


class Counting:
    """``evaluate``, counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, campaign, names, missing):
        self.calls += 1
        return evaluate(campaign, names, missing=missing)


def test_stored_table_equals_a_fresh_computation(cache, small):
    camp = load(small)
    count = Counting()
    first = disk_cache.scores(camp, NAMES, "penalize", count)
    assert count.calls == 1 and len(list(cache.glob("scores-*.parquet"))) == 1
    assert disk_cache.stored(camp, NAMES, "penalize") is not None
    again = disk_cache.scores(load(small), NAMES, "penalize", count)  # a new server
    assert count.calls == 1  # read, not computed
    fresh = evaluate(load(small), NAMES, missing="penalize")
    pd.testing.assert_frame_equal(again, fresh)
    pd.testing.assert_frame_equal(first, fresh)
    assert set(fresh["metric"]) == set(NAMES) and fresh["value"].notna().all()


def test_an_edited_campaign_file_makes_a_new_table(cache, small):
    count = Counting()
    before = disk_cache.scores(load(small), NAMES, "penalize", count)
    runs = sorted((small / "runs").iterdir())
    shutil.copy(runs[0], runs[1])  # the second run becomes the first
    after = disk_cache.scores(load(small), NAMES, "penalize", count)
    assert count.calls == 2
    pd.testing.assert_frame_equal(after, evaluate(load(small), NAMES, missing="penalize"))
    a, b = (after[after["system"] == s]["value"].to_numpy() for s in pd.unique(after["system"]))
    assert (a == b).all() and not before["value"].equals(after["value"])
    # a new file in the folder, another policy or metric list, other code: each a new table
    (small / "README.md").write_text("notes", encoding="utf-8")
    for names, missing in ((NAMES, "penalize"), (NAMES, "singleton"), (NAMES[:3], "penalize")):
        disk_cache.scores(load(small), names, missing, count)
    assert count.calls == 5


def test_other_code_makes_a_new_table(cache, small, monkeypatch):
    camp = load(small)
    count = Counting()
    disk_cache.scores(camp, NAMES[:2], "penalize", count)
    monkeypatch.setattr(disk_cache, "code_version", lambda: "another version")
    assert disk_cache.stored(camp, NAMES[:2], "penalize") is None
    disk_cache.scores(camp, NAMES[:2], "penalize", count)
    assert count.calls == 2


def test_a_damaged_file_is_computed_again(cache, small):
    camp = load(small)
    count = Counting()
    disk_cache.scores(camp, NAMES[:2], "penalize", count)
    (path,) = cache.glob("scores-*.parquet")
    path.write_bytes(b"not parquet")
    assert disk_cache.stored(camp, NAMES[:2], "penalize") is None
    out = disk_cache.scores(camp, NAMES[:2], "penalize", count)
    assert count.calls == 2
    pd.testing.assert_frame_equal(out, evaluate(camp, NAMES[:2], missing="penalize"))
    assert disk_cache.stored(camp, NAMES[:2], "penalize") is not None  # written again


def test_off_and_unwritable(small, tmp_path, monkeypatch):
    camp = load(small)
    count = Counting()
    monkeypatch.setenv("UNANIMITY_CACHE_DIR", "off")
    disk_cache.scores(camp, NAMES[:2], "penalize", count)
    assert disk_cache.stored(camp, NAMES[:2], "penalize") is None
    blocker = tmp_path / "a file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("UNANIMITY_CACHE_DIR", str(blocker / "cache"))  # cannot be created
    out = disk_cache.scores(camp, NAMES[:2], "penalize", count)
    assert count.calls == 2
    pd.testing.assert_frame_equal(out, evaluate(camp, NAMES[:2], missing="penalize"))


def test_a_campaign_not_read_from_a_folder_is_not_kept(cache, small):
    camp = load(small)
    camp.source = str(small / "gold.conllu.gz")
    disk_cache.scores(camp, NAMES[:2], "penalize", Counting())
    assert not cache.exists() or not list(cache.iterdir())


def test_the_warm_start_publishes_a_stored_type_level_table(monkeypatch):
    """A stored table of the bundled UD campaign is published at once, not computed again."""
    from dashboard.data import warm  # noqa: PLC0415 - the warm start's own jobs
    from dashboard.data.sources import UD_PATH, campaign_key, mapping_key, typelevel_key, ud_source  # noqa: PLC0415
    from metrics.measures.typelevel.type_entries import type_mappings  # noqa: PLC0415

    monkeypatch.setattr(warm, "_futures", {})  # this test's own warm start
    monkeypatch.setattr(warm, "_optional", set())
    ud = warm.submit(campaign_key(ud_source()), load, str(UD_PATH)).result()
    table = pd.DataFrame({"system": ["a"], "topic": ["t"], "metric": ["nvi"], "value": [0.5]})
    asked = []
    monkeypatch.setattr(disk_cache, "stored",
                        lambda c, names, missing: asked.append((c, tuple(names))) or table)
    jobs = warm._ud_jobs()  # noqa: SLF001
    assert asked == [(ud, tuple(NAMES))]
    assert warm.take(typelevel_key(ud.source, ud.name, len(ud.systems), "penalize")) is table
    # left: each run's mappings the page opens on (1-1, MacroI), computed by the child process
    assert [job[2:] for job in jobs] == [("mapping", [s, "one_to_one", "macro"])
                                         for s in ud.systems]
    warm._later(jobs[:1])  # noqa: SLF001
    system = ud.systems[0]
    pd.testing.assert_frame_equal(
        warm.take(mapping_key(ud.source, ud.name, len(ud.systems), system, "one_to_one",
                              "macro", "penalize")),
        type_mappings(ud, system, mapping="one_to_one", measure="macro", missing="penalize"))


def test_the_code_version_follows_every_source_file(tmp_path, monkeypatch):
    src = tmp_path / "metrics"
    (src / "measures").mkdir(parents=True)
    (src / "__init__.py").write_text("", encoding="utf-8")
    (src / "measures" / "f.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(disk_cache, "_METRICS", src)
    versions = []
    for edit in ("X = 1\n", "X = 2\n"):
        (src / "measures" / "f.py").write_text(edit, encoding="utf-8")
        disk_cache.code_version.cache_clear()
        versions.append(disk_cache.code_version())
    (src / "measures" / "g.py").write_text("", encoding="utf-8")  # a new module
    disk_cache.code_version.cache_clear()
    versions.append(disk_cache.code_version())
    disk_cache.code_version.cache_clear()
    assert len(set(versions)) == 3



def _aged(path: Path, days: float) -> Path:
    """``path`` (created empty if absent), last modified ``days`` days ago."""
    if not path.exists():
        path.write_bytes(b"")
    t = time.time() - days * 86400
    os.utime(path, (t, t))
    return path


def test_prune_keeps_the_tables_used_most_recently(tmp_path):
    """Beyond ``keep`` tables the least recently used go, so do tables unused for ``days`` days
    and a stopped writer's temporary files older than a day; other files are left alone."""
    folder = tmp_path / "c"
    folder.mkdir()
    for i in range(6):  # scores-00 used most recently, scores-05 least
        _aged(folder / f"scores-{i:02d}.parquet", i + 0.5)
    _aged(folder / ".scores-old.tmp", 2)
    _aged(folder / ".scores-new.tmp", 0.1)
    _aged(folder / "notes.txt", 400)
    removed = disk_cache.prune(folder, keep=4, days=3)
    assert sorted(p.name for p in removed) == [".scores-old.tmp", "scores-03.parquet",
                                               "scores-04.parquet", "scores-05.parquet"]
    assert sorted(p.name for p in folder.iterdir()) == [
        ".scores-new.tmp", "notes.txt", "scores-00.parquet", "scores-01.parquet",
        "scores-02.parquet"]
    assert disk_cache.prune(folder, keep=4, days=3) == []


def test_reading_a_table_renews_it_and_writing_prunes(cache, small, monkeypatch):
    """A table read back counts as used (its time renewed), and each write prunes the folder:
    with room for one table, the one just written stays and the older one goes."""
    camp = load(small)
    first = disk_cache.scores(camp, NAMES)
    (path,) = cache.glob("scores-*.parquet")
    _aged(path, 10)
    pd.testing.assert_frame_equal(disk_cache.scores(camp, NAMES), first)
    assert path.stat().st_mtime > time.time() - 60
    monkeypatch.setattr(disk_cache, "KEEP_FILES", 1)
    disk_cache.scores(camp, NAMES[:1])
    (kept,) = cache.glob("scores-*.parquet")
    assert kept != path and not path.exists()
