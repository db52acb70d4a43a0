"""SemEval word-sense-induction key files: ``word instance label[/weight] [label[/weight] ...]``.

One line per instance, whitespace separated, as in SemEval-2007 task 2, SemEval-2010 task 14
and SemEval-2013 task 13 (gold keys and system answers alike)::

    add.v add.v.1 add.v.1/0.8 add.v.3/0.2
    access.n access.n.1 access.n.c2
    become.v become.v.3 become%2:30:00::/4 become%2:42:01::/2

The target word is the topic, the instance the item and the sense the cluster label.
Several labels on one line (or one instance on several lines) put the instance in several
clusters: an overlapping clustering, not an error. A weight is what follows the last ``/`` of a
label (SemEval-2013 graded senses); it is kept in :attr:`RawClustering.weight` (NaN where a label
has none) and ignored by the metrics (``docs/guide.md#campaign-formats``).
"""

from __future__ import annotations

import math
import re

import numpy as np

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering
from metrics.io.format_registry import CampaignFormat, Probe, encoding_kw
from metrics.io.source import Node, as_node
from metrics.io.text import read_text
from metrics.model.validation import LoadNote

__all__ = ["looks_like_semeval", "read_semeval", "FORMAT"]

#: a SemEval target word: ``lemma.pos`` (``add.v``, ``access.n``, ``become.v``)
_LEMMA_POS = re.compile(r"^[^\s.]+\.[a-z]$")


def looks_like_semeval(first_line: str) -> bool:
    """True when a line reads like a SemEval key line.

    It must have at least three whitespace-separated fields and either a ``lemma.pos`` target
    word (``add.v``) or an instance id that starts with the word (``add.v add.v.1 ...``). The
    rule is strict on purpose: a headed table whose header is not recognised must not be read
    as a SemEval key with its header as the first instance.
    """
    fields = first_line.split()
    if len(fields) < 3:
        return False
    word, instance = fields[0], fields[1]
    return bool(_LEMMA_POS.match(word)) or (instance.startswith(word) and instance != word)


def _split_label(path: object, token: str, lineno: int) -> tuple[str, float]:
    """``sense/0.8`` -> ("sense", 0.8); ``sense`` -> ("sense", nan)."""
    if "/" not in token:
        return token, math.nan
    label, _, raw = token.rpartition("/")
    if not label:
        raise CampaignFormatError(path, f"label {token!r} has a weight but no name", lineno)
    try:
        weight = float(raw)
    except ValueError:
        raise CampaignFormatError(
            path, f"weight {raw!r} of label {token!r} is not a number", lineno
        ) from None
    if not math.isfinite(weight) or weight < 0:
        raise CampaignFormatError(
            path, f"weight {raw!r} of label {token!r} is not a finite number >= 0", lineno
        )
    return label, weight


def read_semeval(path: object, encoding: str = "utf-8") -> RawClustering:
    """Read one SemEval key file (gold or system answers), gzip or plain.

    Blank lines are skipped. ``encoding`` falls back to Latin-1 with a note.

    Raises
    ------
    CampaignFormatError
        Naming the file and line: empty file, a line with fewer than three fields, a weight
        that is not a number, truncated gzip.
    """
    path = as_node(path)
    notes: list[LoadNote] = []
    text = read_text(path, notes, encoding=encoding)
    topic: list[str] = []
    item: list[str] = []
    label: list[str] = []
    weight: list[float] = []
    line: list[int] = []
    for lineno, raw_line in enumerate(text.split("\n"), start=1):
        fields = raw_line.split()
        if not fields:
            continue
        if len(fields) < 3:
            raise CampaignFormatError(
                path,
                f"expected at least 3 fields (word instance label), found {len(fields)}",
                lineno,
            )
        word, instance = fields[0], fields[1]
        for token in fields[2:]:
            name, w = _split_label(path, token, lineno)
            topic.append(word)
            item.append(instance)
            label.append(name)
            weight.append(w)
            line.append(lineno)
    if not topic:  # pragma: no cover - read_text already refuses a blank file
        raise CampaignFormatError(path, "file is empty")
    weights = np.asarray(weight, dtype=np.float64)
    return RawClustering(
        source=str(path),
        topic=np.asarray(topic, dtype=object),
        item=np.asarray(item, dtype=object),
        label=np.asarray(label, dtype=object),
        weight=None if np.isnan(weights).all() else weights,
        line=np.asarray(line, dtype=np.int64),
        notes=notes,
    )


class _Semeval(CampaignFormat):
    """SemEval keys, recognised by the shape of their first line (asked last: the rule is the
    loosest)."""

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_semeval(probe.first_line)

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        return read_semeval(node, **encoding_kw(encoding))


FORMAT = _Semeval()
