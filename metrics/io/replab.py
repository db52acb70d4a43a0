"""RepLab / EvALL clustering files: 3-column TSV with a header, quoted, Latin-1.

::

    "entity_id"	"tweet_id"	"topic"
    "RL2013D01E001"	"220520345218711553"	"Jokes"

The entity is the topic (``docs/guide.md#campaign-formats``), the tweet the item and the RepLab
topic the cluster label.
Several rows for one (entity, tweet) with different labels put the tweet in several clusters.
"""

from __future__ import annotations

from metrics.io.build import REPLAB_TESTBED_RULE, RawClustering
from metrics.io.format_registry import CampaignFormat, Probe, encoding_kw
from metrics.io.source import Node, as_node
from metrics.io.text import read_delimited, read_text
from metrics.model.validation import LoadNote

__all__ = ["read_replab", "REPLAB_COLUMNS", "REPLAB_TESTBED_RULE", "looks_like_replab",
           "FORMAT"]

REPLAB_COLUMNS = ["entity_id", "tweet_id", "topic"]


def looks_like_replab(first_line: str) -> bool:
    """True when a header line names the RepLab columns."""
    cells = [c.strip().strip('"').lower() for c in first_line.split("\t")]
    return cells[:3] == REPLAB_COLUMNS


def read_replab(path: object, encoding: str = "latin-1") -> RawClustering:
    """Read one RepLab clustering file (gold or run), gzip or plain.

    Raises
    ------
    CampaignFormatError
        Naming the file and line: empty file, wrong header, wrong number of columns,
        truncated gzip.
    """
    path = as_node(path)
    notes: list[LoadNote] = []
    text = read_text(path, notes, encoding=encoding)
    frame, lines = read_delimited(path, text, "\t", None, REPLAB_COLUMNS)
    return RawClustering(
        source=str(path), topic=frame["entity_id"].to_numpy(), item=frame["tweet_id"].to_numpy(),
        label=frame["topic"].to_numpy(), line=lines, notes=notes,
    )


class _Replab(CampaignFormat):
    """RepLab files, recognised by their header."""

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_replab(probe.first_line)

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        return read_replab(node, **encoding_kw(encoding))


FORMAT = _Replab()
