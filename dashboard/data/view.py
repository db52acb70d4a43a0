"""One interface for the pages of a comparison, served by a live campaign or a reopened bundle.

The Leaderboard, Compare, UIR analysis, Papers and Export pages render a :class:`ComparisonView`
and nothing else: :class:`LiveView` serves the sidebar's selection (every number a cached call
into ``metrics`` of :mod:`dashboard.data.live`, :mod:`dashboard.data.uncertainty` and
:mod:`dashboard.data.papers`), :class:`StoredView` a bundle reopened by
:func:`metrics.reports.bundle.open_bundle` (every number read back from its tables: the bundle
gives what a live :class:`~metrics.reports.comparison_report.CampaignComparison` gives, see
:mod:`metrics.reports.stored_comparison`). Both provide the leaderboard table, the ranking with
tie groups and its Hasse edges, each pair's verdicts and tests, the UIR analysis, the papers'
tables, the bootstrap intervals and the rankings under each aggregation rule. What a bundle
cannot serve (:data:`NEEDS_SCORES`: views computed from per-topic scores) it says with
:meth:`ComparisonView.cannot`, one sentence with the command that opens the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd
import streamlit as st

from dashboard import state
from dashboard.data import live, papers, uncertainty
from dashboard.data.bundles import BundleSource
from dashboard.state import Selection
from metrics.comparison.profiles import get_profile
from metrics.comparison.significance import DEFAULT_LEVEL
from metrics.comparison.small_sample import small_sample
from metrics.reports.bundle import Bundle

__all__ = ["Settings", "ComparisonView", "LiveView", "StoredView", "current", "show_bundle",
           "NEEDS_SCORES", "BUNDLE_A", "BUNDLE_B"]

#: The session key of the bundle shown on this run (set by :mod:`dashboard.bundle_app`).
_SHOWN = "_shown_bundle"
#: The widget keys (and URL parameters) of a bundle's systems A and B.
BUNDLE_A, BUNDLE_B = "ba", "bb"
#: Views computed from per-topic scores, which a bundle does not hold: what each one is.
NEEDS_SCORES = {
    "curves": "The F\u03b1 curves",
    "rank_moves": "How ranks move with \u03b1",
    "per_topic": "The per-topic view",
    "effects": "The effect sizes (t intervals, Cohen's d_z)",
    "contingency": "The contingency tables",
    "scores": "The per-topic scores",
    "random_baselines": "The random baselines",
}


@dataclass(frozen=True)
class Settings:
    """What the pages word: the comparison's name, metric pair, alpha, threshold, test,
    correction, average, profile and the pair A, B on show."""

    title: str
    precision: str
    recall: str
    alpha: float
    threshold: float
    average: str
    test: str
    correction: str
    profile: str
    a: str
    b: str

    @property
    def strict_improved(self) -> bool:
        """Improved systems need ``UIR > threshold`` (the profile's rule, e.g. jair2011)."""
        return get_profile(self.profile).strict_improved

    @property
    def improved_sign(self) -> str:
        return state.improved_sign(self.profile)


class ComparisonView:
    """The interface of a comparison's pages (module docstring); subclasses serve it."""

    #: the sidebar's selection of a live campaign (None for a bundle)
    sel: Selection | None = None

    @property
    def settings(self) -> Settings:
        raise NotImplementedError

    def comparison(self):
        """The comparison: ``parameters, pairs, systems, tests, uir_metrics, threshold_curve,
        delta_f_vs_uir, weakest_metric, cross_testbed``, ``pair(a, b)`` and ``to_latex``."""
        raise NotImplementedError

    def ranking(self):
        """The ranking with tie groups: ``to_dataframe()``, ``to_csv_frame()``, ``hasse``,
        ``rule``, ``cycles``, ``threshold``."""
        raise NotImplementedError

    def bootstrap(self):
        """The comparison with bootstrap intervals (``pairs``: ``uir_low`` ...; ``systems``:
        ``rank_ci_low, rank_ci_high``; ``parameters["bootstrap"]``), or None."""
        raise NotImplementedError

    def aggregation(self):
        """:class:`metrics.analyses.aggregation.AggregationRobustness`, or None."""
        raise NotImplementedError

    def paper_tables(self) -> tuple[dict, dict] | None:
        """The papers' tables and their summary, or None when there are none."""
        raise NotImplementedError

    def n_topics(self) -> int:
        raise NotImplementedError

    @property
    def table(self) -> live.Table:
        """The live score table: only for the views :meth:`cannot` does not refuse."""
        raise NotImplementedError

    def small_sample(self, n_topics: int | None = None):
        """:func:`metrics.comparison.small_sample.small_sample` of the comparison's test and
        level on ``n_topics`` topics (default: the campaign's): can a pair reach significance?"""
        p = self.comparison().parameters
        return small_sample(str(p.get("test", "none")),
                            self.n_topics() if n_topics is None else int(n_topics),
                            float(p.get("level", DEFAULT_LEVEL)))

    def cannot(self, view: str) -> str | None:
        """Why this source cannot serve ``view`` (a key of :data:`NEEDS_SCORES`), or None."""
        raise NotImplementedError

    def choose(self, a: str, b: str) -> None:
        """Make (a, b) the pair on show from the next run on."""
        raise NotImplementedError

    def leaderboard(self) -> pd.DataFrame:
        """The comparison's systems table by rank, with ``f`` the campaign F_alpha."""
        systems = self.comparison().systems.rename(columns={"f_alpha": "f"})
        return systems.sort_values("rank", kind="stable").reset_index(drop=True)

    def pair(self, a: str, b: str):
        """The comparison's row of the ordered pair (a, b) as a
        :class:`metrics.reports.pair_report.PairReport`."""
        return self.comparison().pair(a, b)

    def uir_matrix(self, systems: list[str]) -> np.ndarray:
        """UIR(row, column) of ``systems``: the comparison's ``uir`` column laid out."""
        p = self.comparison().pairs
        return (p.pivot(index="system_a", columns="system_b", values="uir")
                .reindex(index=systems, columns=systems).to_numpy(dtype=np.float64))


class LiveView(ComparisonView):
    """The sidebar's selection on a live campaign."""

    def __init__(self, sel: Selection):
        self.sel = sel

    @cached_property
    def table(self) -> live.Table:
        assert self.sel is not None
        return live.table(self.sel)

    @property
    def settings(self) -> Settings:
        s = self.sel
        assert s is not None
        return Settings(live.campaign_info(s.source)["name"], s.precision, s.recall, s.alpha,
                        s.threshold, s.average, s.test, s.correction, s.profile, s.a, s.b)

    def comparison(self):
        assert self.sel is not None
        return live.comparison(self.sel, self.table)

    def leaderboard(self) -> pd.DataFrame:
        assert self.sel is not None
        return live.leaderboard(self.sel, self.table)

    def ranking(self):
        assert self.sel is not None
        return live.tie_ranking(self.sel, self.table)

    def bootstrap(self):
        assert self.sel is not None
        return uncertainty.bootstrap(self.sel, self.table)

    def aggregation(self):
        assert self.sel is not None
        return uncertainty.aggregation(self.sel, self.table)

    def paper_tables(self) -> tuple[dict, dict] | None:
        assert self.sel is not None
        pt = papers.paper_tables(self.sel, self.table)
        return pt.tables, pt.summary

    def n_topics(self) -> int:
        return int(self.table.frame["topic"].nunique())

    def cannot(self, view: str) -> str | None:
        return None

    def choose(self, a: str, b: str) -> None:
        state.request(a=a, b=b)

    def uir_matrix(self, systems: list[str]) -> np.ndarray:
        mat = self.comparison().uir
        idx = [mat.systems.index(s) for s in systems]
        return np.asarray(mat.uir)[np.ix_(idx, idx)]


class StoredView(ComparisonView):
    """A reopened comparison bundle: its stored tables, nothing recomputed."""

    def __init__(self, src: BundleSource, bundle: Bundle):
        self.src, self.bundle = src, bundle

    def systems(self) -> list[str]:
        """The bundle's systems by rank."""
        return self.bundle.systems.sort_values("rank", kind="stable")["system"].astype(
            str).tolist()

    @property
    def settings(self) -> Settings:
        p = self.bundle.parameters
        names = self.systems()
        a = st.session_state.get(BUNDLE_A)
        b = st.session_state.get(BUNDLE_B)
        a = a if a in names else names[0]
        b = b if b in names else names[min(1, len(names) - 1)]
        return Settings(bundle_title(self.src), str(p["precision"]), str(p["recall"]),
                        float(p["alpha"]), float(p["threshold"]), str(p.get("average", "macro")),
                        str(p.get("test", "none")), str(p.get("correction", "none")),
                        str(p.get("profile", "default")), a, b)

    def comparison(self):
        return self.bundle

    def ranking(self):
        return self.bundle.ranking()

    def bootstrap(self):
        return self.bundle if "bootstrap" in self.bundle.parameters else None

    def aggregation(self):
        return self.bundle.aggregation()

    def paper_tables(self) -> tuple[dict, dict] | None:
        if not any(n in self.bundle.tables for n in ("jair_table5", "weps_table2")):
            return None
        return self.bundle.tables, self.bundle.json.get("paper_tables", {})

    def n_topics(self) -> int:
        return int(self.bundle.parameters.get("n_topics", 0) or 0)

    def open_command(self) -> str:
        """The command that opens the campaign the bundle was computed from."""
        inputs = self.bundle.inputs
        return f"unanimity dashboard {inputs[0]['path'] if inputs else 'PATH'}"

    def cannot(self, view: str) -> str | None:
        what = NEEDS_SCORES.get(view)
        if what is None:
            return None
        return (f"{what}: not in a comparison bundle, which holds no per-topic scores; open "
                f"the campaign with `{self.open_command()}`.")

    def choose(self, a: str, b: str) -> None:
        state.request(**{BUNDLE_A: a, BUNDLE_B: b})


def bundle_title(src: BundleSource) -> str:
    """How page headers name a bundle: its folder's name (or the uploaded zip's)."""
    return f"Stored comparison \u201c{src.label.split(' (')[0] or Path(src.path).name}\u201d"


def show_bundle(src: BundleSource | None, bundle: Bundle | None) -> None:
    """Make the bundle the source of this run's pages (None: the live campaign)."""
    if src is None or bundle is None:
        st.session_state.pop(_SHOWN, None)
    else:
        st.session_state[_SHOWN] = (src, bundle)


def current() -> ComparisonView:
    """The comparison the pages of this run show: the bundle :mod:`dashboard.bundle_app` opened,
    else the sidebar's selection on the live campaign."""
    shown = st.session_state.get(_SHOWN)
    if shown is not None:
        return StoredView(*shown)
    return LiveView(state.selection())
