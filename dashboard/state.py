"""Shared state of the dashboard: the current :class:`Selection` and requested changes.

Every control worth sharing is a widget with ``key=`` and ``bind="query-params"``: its value
lives in the URL (``?campaign=...&a=...&b=...&alpha=...&metrics=...&threshold=...``), so a pasted
link reproduces the view and the browser's back / forward buttons move between views. The page
itself is the URL path (``/compare``, ``/uir``, ...), set by ``st.navigation``.

The sidebar (:mod:`dashboard.sidebar`) builds the selection; pages read it with
:func:`selection`; a page that wants to change a
sidebar control (a click on a pair of the UIR page opens that pair) calls :func:`request` and
reruns: pending values are applied before the widgets are drawn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from dashboard.data.sources import Source
from metrics.comparison.profiles import (
    DEFAULT_CORRECTION,
    DEFAULT_PROFILE,
    DEFAULT_TEST,
    get_profile,
    improves_symbol,
)

__all__ = ["Selection", "selection", "improved_sign", "request", "apply_requests", "publish",
           "DEFAULT_ALPHA", "DEFAULT_TEST", "DEFAULT_CORRECTION"]  # the last two: profiles.py's


DEFAULT_ALPHA = 0.5
_PENDING = "_pending_state"
_SELECTION = "_selection"


@dataclass(frozen=True)
class Selection:
    """Everything the sidebar selects; pages compute from this and nothing else global."""

    source: Source
    pair_label: str
    precision: str
    recall: str
    alpha: float
    threshold: float
    average: str
    testbeds: tuple[str, ...]
    all_testbeds: tuple[str, ...]
    baselines: bool
    a: str
    b: str
    systems: tuple[str, ...] = field(default=())
    image_format: str = "png"
    test: str = DEFAULT_TEST
    correction: str = DEFAULT_CORRECTION
    profile: str = DEFAULT_PROFILE
    bootstrap: int = 0        # resamples of the bootstrap over topics; 0 = off
    bootstrap_seed: int = 0
    extra_metrics: tuple[str, ...] = ()  # more metrics for UIR beyond the pair (JAIR 2011 §3)

    @property
    def strict_improved(self) -> bool:
        """Improved systems need ``UIR > threshold`` (the profile's convention, e.g. jair2011)."""
        return get_profile(self.profile).strict_improved

    @property
    def improved_sign(self) -> str:
        return improved_sign(self.profile)

    @property
    def metrics(self) -> tuple[str, str]:
        return (self.precision, self.recall)

    @property
    def uir_metrics(self) -> tuple[str, ...]:
        """The metrics of UIR, the tie groups and the aggregation rules: the pair and the extra
        metrics (F_alpha stays on the pair)."""
        return (self.precision, self.recall, *self.extra_metrics)

    @property
    def bed_filter(self) -> tuple[str, ...]:
        """The selected test beds, or () when all are selected (no filter)."""
        if not self.testbeds or set(self.testbeds) == set(self.all_testbeds):
            return ()
        return tuple(sorted(self.testbeds))


def improved_sign(profile: str) -> str:
    """``>`` or ``≥``: how the profile's improved systems compare UIR with the threshold."""
    return improves_symbol(get_profile(profile).strict_improved)


def request(**values) -> None:
    """Ask for sidebar values to change on the next run (e.g. a click on a pair)."""
    pending = dict(st.session_state.get(_PENDING, {}))
    pending.update(values)
    st.session_state[_PENDING] = pending


def apply_requests() -> None:
    """Apply requested values before the widgets are created (called first by the app)."""
    pending = st.session_state.pop(_PENDING, None)
    if pending:
        for k, v in pending.items():
            st.session_state[k] = v


def selection() -> Selection:
    """The current selection (set by the sidebar on this run)."""
    return st.session_state[_SELECTION]


def publish(sel: Selection) -> Selection:
    """Make ``sel`` the selection of this run (called by the sidebar)."""
    st.session_state[_SELECTION] = sel
    return sel


