"""The project documents itself, and its modules stay findable.

* ``docs/measures.md`` has an entry for every registered metric, and every ``docs/measures.md §n``
  cited in the code names a section that exists;
* no file of the project cites the internal reference the docs replaced;
* the warm-up publishes its results under the cache keys the dashboard asks for.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from metrics.measures.registry import available_metrics

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ROOT / "docs" / "measures.md"


def _sections() -> set[str]:
    return set(re.findall(r"^## §(\d+)", MEASURES.read_text(encoding="utf-8"), flags=re.M))


def test_every_registered_metric_is_in_the_reference():
    text = MEASURES.read_text(encoding="utf-8")
    missing = [m.name for m in available_metrics() if f"`{m.name}" not in text]
    assert not missing, f"docs/measures.md lacks {missing}"


def _tracked(suffixes=(".py", ".md", ".toml", ".cfg", ".txt")) -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [ROOT / f for f in out if f.endswith(suffixes)]


def test_cited_sections_exist():
    have = _sections()
    assert have == {str(i) for i in range(1, 9)}
    for path in _tracked((".py",)):
        for sec in re.findall(r"docs/measures\.md §(\d+)", path.read_text(encoding="utf-8")):
            assert sec in have, f"{path.relative_to(ROOT)} cites docs/measures.md §{sec}"


def test_no_citation_of_the_internal_reference():
    word = "SP" + "EC"
    bad = [str(p.relative_to(ROOT)) for p in _tracked()
           if re.search(rf"\b{word}\b", p.read_text(encoding="utf-8", errors="replace"))]
    assert not bad, bad


def test_warm_start_publishes_under_the_dashboards_cache_keys():
    pytest.importorskip("streamlit")
    from dashboard.data import warm  # noqa: PLC0415 - after importorskip
    from dashboard.data.sources import (  # noqa: PLC0415 - after importorskip
        DEMO_KEY,
        campaign_key,
        comparison_key,
        scores_key,
        sources,
        table_key,
    )
    from metrics.analyses import ComparisonCore  # noqa: PLC0415 - after importorskip
    from metrics.measures.registry import METRIC_PAIRS  # noqa: PLC0415 - after importorskip

    warm._warm(None)
    src = sources()[DEMO_KEY]
    assert warm.take(campaign_key(src)) is not None
    pair = tuple(next(iter(METRIC_PAIRS.values())))
    scores = warm.take(scores_key(src, False, pair))
    assert scores is not None and set(scores["metric"]) == set(pair)
    core = warm.take(comparison_key(table_key(src, False, *pair), "wilcoxon", "holm", "macro"))
    assert isinstance(core, ComparisonCore) and core.beds is not None
