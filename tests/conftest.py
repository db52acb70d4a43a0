"""Shared fixtures: the bundled RepLab 2013 campaign and, when present, the raw shared copy; a
Dask client of two in-process workers for the Dask engine's tests."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from metrics.io import load

# In CI the property-based tests run a fixed sequence of examples, so a run can be reproduced;
# on a developer's machine they explore new examples every run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

# the tables the dashboard keeps on disk between servers (dashboard/data/disk_cache.py): a test
# run's own folder, never the user's (the browser tests' servers inherit it)
os.environ.setdefault("UNANIMITY_CACHE_DIR", tempfile.mkdtemp(prefix="unanimity-test-cache-"))

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "demo_data" / "replab2013"
SHARED_REPLAB = ROOT.parent / "shared" / "campaigns" / "replab2013"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def demo_path() -> Path:
    return DEMO


@pytest.fixture(scope="session")
def demo_campaign():

    return load(DEMO)


@pytest.fixture(scope="session")
def shared_replab() -> Path:
    if not SHARED_REPLAB.exists():
        pytest.skip(f"shared RepLab campaign not found at {SHARED_REPLAB}")
    return SHARED_REPLAB


@pytest.fixture(scope="session")
def raw_campaign(shared_replab):

    return load(shared_replab)


@pytest.fixture(scope="module")
def dask_client():
    """A ``distributed.Client`` of a LocalCluster of 2 in-process single-threaded workers, one
    per test module (skipped without the dask extra)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as cl:
        yield cl
