"""The readings of Strictness (Amigó, Gonzalo and Verdejo, SIGIR 2013, §4.1), described in
:mod:`metrics.meta.strictness` and ``docs/meta-evaluation.md``.

A module of its own, free of numpy and scipy, so that the command line builds its argument
parsers (``meta-evaluate --strictness``) without importing the meta-evaluation.
"""

from __future__ import annotations

__all__ = ["STRICTNESS_READINGS", "DEFAULT_MIN_DEPTH", "DEFAULT_TOPS", "DEFAULT_ACCEPT_TOP",
           "DEFAULT_RELEVANT_GRADE"]

#: ``per-topic``: ranks within each topic; ``all-outputs``: every (system, topic) output at once.
STRICTNESS_READINGS: tuple[str, ...] = ("per-topic", "all-outputs")

#: ``--table 8``: the paper keeps runs of 1,000 documents; TREC DL runs of 995-997 count as full
#: depth.
DEFAULT_MIN_DEPTH: int = 900
#: Strictness from the largest rank difference and from the mean of the 10 largest (§4.1).
DEFAULT_TOPS: tuple[int, ...] = (1, 10)
#: ``--table 7`` / ``--figure 1``: each run's top 10 accepted (the first result page).
DEFAULT_ACCEPT_TOP: int = 10
#: TREC DL's binary reading: grade >= 2 is relevant.
DEFAULT_RELEVANT_GRADE: int = 2
