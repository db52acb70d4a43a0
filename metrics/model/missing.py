"""The policies for gold items a run leaves out (docs/measures.md §2).

A module of its own, free of numpy and pandas, so that the command line builds its argument
parsers (``--missing``) without importing the campaign model.

``penalize`` (default)
    For the item-averaged metrics (BCubed, Reliability / Sensitivity) a missing item contributes
    precision 1 and recall 0; for the other metrics it is a singleton cluster.
``singleton``
    A missing item is a cluster of its own for every metric.
``error``
    Loading stops with an error naming the system, topic and item.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["MISSING_POLICIES", "MissingPolicy"]

MissingPolicy = Literal["penalize", "singleton", "error"]
MISSING_POLICIES: tuple[str, ...] = ("penalize", "singleton", "error")
