"""Unanimity: clustering evaluation and the robustness of system comparisons (UIR).

Data flows one way: files -> :mod:`metrics.io` -> :class:`~metrics.campaign.Campaign` ->
score tables -> comparisons and analyses -> report objects -> dashboard / CLI.

The names below are imported on first use, so that ``import metrics`` (and
``unanimity --version``) does not load numpy and pandas.
"""

from __future__ import annotations

import importlib

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.version import package_version

__all__ = ["Campaign", "Membership", "CampaignFormatError", "UnanimityError", "load", "load_files"]
__version__ = package_version()

_LAZY = {"Campaign": "metrics.campaign", "Membership": "metrics.campaign",
         "load": "metrics.io", "load_files": "metrics.io"}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'metrics' has no attribute {name!r}")
