"""The layout of a campaign folder: its ``campaign.toml``, its gold, its runs, its test beds.

Shared by every format that reads a folder of ``gold.<ext>`` and ``runs/`` (the in-memory
loader :mod:`metrics.io.load` and the Dask engine, :mod:`metrics.engines.dask.layout`). See
:mod:`metrics.io` for the layouts and ``docs/input-safety.md`` for the rules.
"""

from __future__ import annotations

import tomllib

from metrics.errors import CampaignFormatError
from metrics.io.format_registry import TestbedRule, readers
from metrics.io.long_table import is_parquet_folder
from metrics.io.source import Node, node_kind
from metrics.io.testbeds import parse_testbeds
from metrics.io.text import check_encoding
from metrics.model.formats import FORMATS
from metrics.model.validation import LoadNote

__all__ = ["CONFIG_NAME", "DATA_SUFFIXES", "read_config", "is_data_file", "find_gold",
           "find_runs", "testbed_rule", "NO_GOLD"]

CONFIG_NAME = "campaign.toml"
DATA_SUFFIXES = (".tsv", ".csv", ".txt", ".key", ".parquet", ".gz", ".conllu")
#: the message for a folder without a gold
NO_GOLD = "no gold: expected a file gold.<ext> (or a gold/ folder of WePS XML)"

_CONFIG_TYPES: dict[str, type] = {"name": str, "format": str, "testbed_regex": str, "testbeds": str,
                 "encoding": str, "attribution": str, "licence": str, "license": str,
                 "description": str}


def _config_types() -> dict[str, type]:
    """The keys of ``campaign.toml``: the common ones and each format's own."""
    out = dict(_CONFIG_TYPES)
    for r in readers():
        out.update(r.config_types)
    return out


def read_config(folder: Node) -> dict:
    """The folder's ``campaign.toml`` (empty when there is none), checked key by key."""
    cfg_node = folder.child(CONFIG_NAME)
    if cfg_node is None:
        return {}
    raw = cfg_node.read_bytes()
    try:
        cfg = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CampaignFormatError(cfg_node, f"not valid TOML ({exc})") from None
    types = _config_types()
    unknown = sorted(set(cfg) - set(types))
    if unknown:
        raise CampaignFormatError(
            cfg_node,
            f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(types))}",
        )
    for key, value in cfg.items():
        want = types[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            kind = {str: "a text string", bool: "true or false", int: "a whole number",
                    list: "a list"}[want]
            raise CampaignFormatError(cfg_node, f"{key} = {value!r} is not {kind}: {key} must be "
                                      f"{kind}")
    if cfg.get("format") is not None and cfg["format"] not in FORMATS:
        raise CampaignFormatError(
            cfg_node, f"format {cfg['format']!r} is none of {', '.join(FORMATS)}"
        )
    if "encoding" in cfg:
        check_encoding(cfg_node, cfg["encoding"])
    return cfg


def _testbed_file(folder: Node, rel: str) -> dict[str, str]:
    """The ``testbeds`` file the config names: ``topic<TAB>test bed`` lines, inside ``folder``."""
    cfg_node = folder.child(CONFIG_NAME)
    try:
        node = folder.child(rel)
    except CampaignFormatError as exc:
        raise CampaignFormatError(cfg_node, f"testbeds = {rel!r}: {exc.problem}") from None
    if node is None or not node.is_file():
        raise CampaignFormatError(cfg_node, f"testbeds = {rel!r}: no such file in the campaign")
    return parse_testbeds(node)


def testbed_rule(folder: Node, cfg: dict, testbeds: TestbedRule) -> TestbedRule:
    """The test-bed rule: the caller's, else the config's file, else the config's regex."""
    if testbeds is not None:
        return testbeds
    if cfg.get("testbeds"):
        return _testbed_file(folder, cfg["testbeds"])
    return cfg.get("testbed_regex")


def is_data_file(p: Node) -> bool:
    """A campaign file, or a folder of Parquet part files (``gold.parquet/``, docs/dask.md)."""
    return not p.name.startswith(".") and p.name.lower().endswith(
        DATA_SUFFIXES + (".xml",)) and (p.is_file() or is_parquet_folder(p))


def find_gold(folder: Node, missing: str = NO_GOLD) -> Node:
    """The gold of a campaign folder: ``gold/`` or the one ``gold.<ext>``.

    Raises
    ------
    CampaignFormatError
        With ``missing`` when there is none; when there are several, or the gold is not a
        regular file.
    """
    gold_dir = folder.child("gold")
    if gold_dir is not None and gold_dir.is_dir():
        return gold_dir
    cands = [p for p in folder.iterdir() if p.name.startswith("gold.") and is_data_file(p)]
    if not cands:
        odd = [p for p in folder.iterdir() if p.name.startswith("gold.")
               and p.name.lower().endswith(DATA_SUFFIXES + (".xml",))]
        if odd:  # gold.tsv is there, but as a FIFO, a folder...: say so, not "no gold"
            raise CampaignFormatError(odd[0], f"the gold is {node_kind(odd[0])}, not a regular "
                                      "file: give the gold clustering as a file")
        raise CampaignFormatError(folder, missing)
    if len(cands) > 1:
        raise CampaignFormatError(
            folder, f"several gold files: {', '.join(p.name for p in cands)}; keep one"
        )
    return cands[0]


def find_runs(folder: Node, notes: list[LoadNote]) -> list[Node]:
    """The runs of a campaign folder: what ``runs/`` holds (sorted by name), then
    ``runs.<ext>``; a file of ``runs/`` with an unknown extension is skipped with a note.

    Raises
    ------
    CampaignFormatError
        When there is neither a ``runs/`` folder nor a ``runs.<ext>`` table.
    """
    runs_dir = folder.child("runs")
    single = [p for p in folder.iterdir() if p.name.startswith("runs.") and is_data_file(p)]
    if runs_dir is not None and runs_dir.is_dir():
        found = []
        for p in runs_dir.iterdir():
            if p.is_dir() or is_data_file(p):
                found.append(p)
            else:
                notes.append(LoadNote(str(p), "not a campaign file (unknown extension): skipped"))
        return found + single
    if single:
        return single
    raise CampaignFormatError(
        folder, "no runs: expected a runs/ folder (one file per system) or a runs.<ext> table"
    )
