"""Every Python example of docs/api.md runs as written (in order, in one namespace, from the
repository's root), and the front door exports what the page lists, lazily."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import metrics

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api.md"


def _blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", API.read_text(encoding="utf-8"), flags=re.M | re.S)


def test_the_examples_run(monkeypatch, capsys):
    blocks = _blocks()
    assert len(blocks) >= 6
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for i, code in enumerate(blocks):
        try:
            exec(compile(code, f"docs/api.md block {i + 1}", "exec"), namespace)  # noqa: S102
        except Exception as exc:  # pragma: no cover - the message names the block
            pytest.fail(f"docs/api.md block {i + 1} failed: {exc!r}\n{code}")
    assert "refused:" in capsys.readouterr().out


def test_every_exported_name_is_listed_and_resolves():

    text = API.read_text(encoding="utf-8")
    for name in metrics.__all__:
        assert f"`{name}" in text, f"docs/api.md does not list {name}"
        assert getattr(metrics, name) is not None


def test_import_metrics_is_light():
    code = ("import sys, metrics; heavy = [m for m in ('pandas', 'scipy', 'numpy') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.strip()
    assert out == "[]"


def test_the_readme_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"),
                        flags=re.M | re.S)
    assert blocks
    for i, code in enumerate(blocks):
        exec(compile(code, f"README.md block {i + 1}", "exec"), {})  # noqa: S102
