"""``pip install .`` gives a working tool: the wheel carries the bundled campaigns and the
documents the dashboard shows, and opens the dashboard's default campaign from any folder.

The wheel is built from a copy of the sources (nothing is written into the checkout) without
build isolation, installed with ``--no-deps`` into a fresh virtual environment that borrows the
dependencies of this one through a ``.pth`` file, and used from a folder outside the clone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_SKIP = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__",
                               ".hypothesis", ".pytest_cache", "test-output", "tests", "bench")

pytestmark = pytest.mark.slow


def _run(argv: list, **kw) -> subprocess.CompletedProcess:
    got = subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kw)
    assert got.returncode == 0, f"{argv}: {got.stdout}\n{got.stderr}"
    return got


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(python, unanimity, an empty folder) of a fresh venv holding the built wheel only."""
    pytest.importorskip("setuptools", minversion="77")
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=_SKIP)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
          "-w", base / "dist", src])
    (wheel,) = (base / "dist").glob("unanimity-*.whl")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    py = venv / "bin" / "python"
    site = Path(_run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"])
                .stdout.strip())
    # every site-packages folder this interpreter sees (its own, and those its .pth files add)
    borrowed = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")
                and Path(p).is_dir()]
    (site / "zz_borrowed_dependencies.pth").write_text("\n".join(borrowed) + "\n")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "-q", wheel])
    away = base / "elsewhere"
    away.mkdir()
    return py, venv / "bin" / "unanimity", away


def test_the_wheel_opens_the_default_campaign_from_any_folder(installed):
    py, unanimity, away = installed
    code = (
        "import json, metrics, dashboard\n"
        "from dashboard.data.sources import demo_source, UD_PATH\n"
        "from dashboard.data.live import campaign\n"
        "from dashboard.data.reference import MEASURES_DOC, measure_reference\n"
        "src = demo_source()\n"
        "c = campaign(src)\n"  # the dashboard's own loading route
        "print(json.dumps({'metrics': metrics.__file__, 'path': src.path, 'name': c.name,\n"
        "    'systems': len(c.systems), 'topics': c.n_topics, 'ud': UD_PATH.is_dir(),\n"
        "    'doc': str(MEASURES_DOC), 'sections': len(measure_reference())}))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    got = json.loads(_run([py, "-c", code], cwd=away, env=env).stdout.strip().splitlines()[-1])
    venv = py.parents[1]
    for key in ("metrics", "path", "doc"):  # everything comes from the installed package
        assert Path(got[key]).is_relative_to(venv) and not Path(got[key]).is_relative_to(ROOT)
    assert (got["name"], got["systems"], got["topics"]) == ("RepLab 2013 topic detection", 35, 61)
    assert got["ud"] and got["sections"] >= 8
    info = _run([unanimity, "info", got["path"], "--json"], cwd=away, env=env)
    assert json.loads(info.stdout)["gold_items"] == 67665
    version = _run([unanimity, "--version"], cwd=away, env=env)
    assert version.stdout.startswith("unanimity ")
