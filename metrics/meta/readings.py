"""The readings of Strictness (Amigó, Gonzalo and Verdejo, SIGIR 2013, §4.1), described in
:mod:`metrics.meta.strictness` and ``docs/meta-evaluation.md``.

A module of its own, free of numpy and scipy, so that the command line builds its argument
parsers (``meta-evaluate --strictness``) without importing the meta-evaluation.
"""

from __future__ import annotations

__all__ = ["STRICTNESS_READINGS"]

#: ``per-topic``: ranks within each topic; ``all-outputs``: every (system, topic) output at once.
STRICTNESS_READINGS: tuple[str, ...] = ("per-topic", "all-outputs")
