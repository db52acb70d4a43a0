"""Test-bed files: ``topic<TAB>test bed`` lines, named by ``campaign.toml`` (``testbeds``) or given
on the command line (``--testbeds FILE``); blank lines and ``#`` comments are skipped. See
``docs/guide.md`` (campaign formats) for the rule's other form, a regex."""

from __future__ import annotations

from pathlib import Path

from metrics.errors import CampaignFormatError
from metrics.io.archive import ZipNode, open_root
from metrics.io.source import Budget, Meter, Node
from metrics.io.text import strict_utf8

__all__ = ["read_testbeds", "testbeds_option", "parse_testbeds"]


def read_testbeds(path: str | Path, budget: Budget | None = None) -> dict[str, str]:
    """A test-bed file given by path (``--testbeds FILE``): ``topic<TAB>test bed`` lines, blank
    lines and ``#`` comments skipped, as the ``testbeds`` file of ``campaign.toml``.

    Raises
    ------
    CampaignFormatError
        Naming the file and line of a line without two tab-separated columns, or of a topic
        given two test beds.
    """
    node = open_root(Path(path), Meter(budget or Budget.from_env()))
    if not node.is_file() or isinstance(node, ZipNode):
        raise CampaignFormatError(path, "a test-bed file is a text file of topic<TAB>test bed "
                                  "lines")
    return parse_testbeds(node)


def testbeds_option(value: str | None) -> str | dict[str, str] | None:
    """The test-bed rule of a ``--testbeds`` option: the ``topic<TAB>test bed`` file it names
    when it names an existing file (:func:`read_testbeds`), else a regex (first group = bed)."""
    if value is None or value == "":
        return None
    if Path(value).expanduser().is_file():
        return read_testbeds(Path(value).expanduser())
    return value


def parse_testbeds(node: Node) -> dict[str, str]:
    """The topic -> test bed map of a test-bed file (a path or a zip member), checked line by
    line: two tab-separated columns, one bed per topic."""
    out: dict[str, str] = {}
    first_line: dict[str, int] = {}
    text = strict_utf8(node, node.read_bytes())
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 2 or not cells[0].strip() or not cells[1].strip():
            raise CampaignFormatError(node, "expected 2 tab-separated columns: topic, test bed",
                                      lineno)
        topic, bed = cells[0].strip(), cells[1].strip()
        if topic in out and out[topic] != bed:
            raise CampaignFormatError(
                node, f"topic {topic!r} is given test bed {out[topic]!r} (line "
                f"{first_line[topic]}) and {bed!r}", lineno)
        first_line.setdefault(topic, lineno)
        out[topic] = bed
    return out
