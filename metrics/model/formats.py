"""The names of the campaign formats (``--format``, ``format=``; described in :mod:`metrics.io`).

A module of its own, free of numpy and pandas and outside :mod:`metrics.io` (whose package
imports every reader), so that the command line builds its argument parsers without importing
the readers (``unanimity --help`` stays fast).
"""

from __future__ import annotations

__all__ = ["FORMATS"]

#: Every format :func:`metrics.io.load.load` reads; ``trec`` and ``organisation``:
#: docs/organisation.md; ``wide``: docs/input-safety.md, "Wide score tables".
FORMATS: tuple[str, ...] = ("replab", "long", "semeval", "weps", "scores", "conllu",
                            "trec", "organisation", "wide")
