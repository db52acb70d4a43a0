"""What a campaign format declares, and the loops over the registry that detect and read one.

The registry itself (names, summaries, kinds, the module of each reader, the order of
detection) is :mod:`metrics.model.formats`; this module imports a format's reader when a file of
it is read. A reader is a :class:`CampaignFormat`: how it recognises a file (by its name or
folder, then by its first line), how it reads one clustering file, a campaign folder, loose
files or a single-file campaign. The defaults are those of a clustering format: a folder of
``gold.<ext>`` and ``runs/`` read with :meth:`CampaignFormat.read_clustering`, then
:func:`metrics.io.build.build_campaign`. See :mod:`metrics.io` for the formats and layouts.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.build import RawClustering, build_campaign, split_by_system
from metrics.io.parquet import parquet_columns
from metrics.io.source import Node, as_node
from metrics.io.text import strip_extensions, utf16_problem
from metrics.model.campaign import Campaign
from metrics.model.formats import FORMATS, format_entries, format_entry
from metrics.model.validation import LoadNote

#: a test-bed rule: a regex, a topic -> test bed mapping or function (docs/guide.md §1)
TestbedRule = str | Mapping[str, str] | Callable[[str], str] | None

__all__ = ["TestbedRule", "CampaignFormat", "Probe", "FolderRequest", "FilesRequest", "reader",
           "readers", "detect_format", "read_clustering", "runs_from", "encoding_kw"]


def encoding_kw(encoding: str | None) -> dict[str, str]:
    """``{"encoding": encoding}`` when one is given, else nothing (the reader's default)."""
    return {"encoding": encoding} if encoding else {}


class Probe:
    """What detection reads of one file or folder, each read at most once."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.name = node.name.lower()

    @cached_property
    def is_dir(self) -> bool:
        return self.node.is_dir()

    @cached_property
    def columns(self) -> list[str]:
        """The column names of a Parquet file."""
        return list(map(str, parquet_columns(self.node)))

    def is_parquet_file(self) -> bool:
        return self.name.endswith(".parquet") and not self.is_dir

    @cached_property
    def first_line(self) -> str:
        """The first non-blank line (Latin-1, without a byte-order mark)."""
        head = self.node.head()
        wide = utf16_problem(head)
        if wide:
            raise CampaignFormatError(self.node, wide)
        text = head[:4096].decode("latin-1")
        for line in text.replace("\r", "\n").split("\n"):
            if line.strip():
                return line.lstrip("\ufeff\xef\xbb\xbf")
        raise CampaignFormatError(self.node, "file is empty")


@dataclass
class FolderRequest:
    """A campaign folder being loaded: what :func:`metrics.io.load.load` found and was given.

    ``runs`` and ``testbed_rule`` are called when the format needs them (so that a problem
    with the gold is reported before one with the runs or the test beds).
    """

    folder: Node
    config: dict
    format: str | None  #: the format given (argument or ``campaign.toml``), None = detected
    name: str
    notes: list[LoadNote]
    encoding: str | None
    reader_options: Mapping[str, object]
    runs: Callable[[], list[Node]]
    testbed_rule: Callable[[], TestbedRule]


@dataclass
class FilesRequest:
    """Loose files being loaded (:func:`metrics.io.load.load_files`)."""

    gold: Node
    runs: list[Node]
    format: str | None  #: the format given, None = each file's detected
    name: str
    source: str
    testbed_rule: TestbedRule = None
    run_names: Sequence[str] | None = None
    reader_options: Mapping[str, object] | None = None


class CampaignFormat:
    """A campaign format's reader; the defaults are those of a clustering format.

    A subclass overrides what its format does differently; its module names an instance
    ``FORMAT``, and the registry (:mod:`metrics.model.formats`) gives its name, summary and
    kinds.
    """

    #: the format's name, set from the registry by :func:`reader`
    name: str = ""
    #: keys of ``campaign.toml`` the format reads, with their types
    config_types: Mapping[str, type] = {}

    def detect_path(self, probe: Probe) -> bool:
        """True when the file's name (or the folder) is this format's (first pass)."""
        return False

    def detect_line(self, probe: Probe) -> bool:
        """True when the file's first line is this format's (second pass)."""
        return False

    def line_problem(self, probe: Probe) -> str | None:
        """A message for a first line no format recognised but this one nearly does."""
        return None

    def folder_problem(self, folder: Node) -> str | None:
        """A message for a folder that is this format's but not a campaign folder."""
        return None

    def claim_folder(self, request: FolderRequest, forced: bool) -> Campaign | None:
        """The campaign, when the folder's layout is this format's own (not gold + runs)."""
        return None

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        """One clustering file (a gold or a run)."""
        raise CampaignFormatError(node, f"a {self.name} file is not a clustering: give the "
                                  "campaign folder, or the gold and runs (--gold/--run)")

    def load_folder(self, request: FolderRequest, gold: Node) -> Campaign:
        """A campaign folder whose gold is ``gold``."""
        raw = self.read_clustering(gold, request.encoding)
        if raw.system is not None:
            raise CampaignFormatError(gold, "the gold has a system column; remove it")
        runs = runs_from(request.runs(), request.format, request.encoding)
        return build_campaign(raw, runs, name=request.name, source=str(request.folder),
                              testbed_rule=request.testbed_rule(), notes=request.notes)

    def load_files(self, request: FilesRequest) -> Campaign:
        """Loose files: one gold and runs."""
        g = read_clustering(request.gold, request.format)
        if g.system is not None:
            raise CampaignFormatError(request.source, "the gold has a system column; remove it")
        raws = runs_from(request.runs, request.format, None, request.run_names)
        return build_campaign(g, raws, name=request.name, source=request.source,
                              testbed_rule=request.testbed_rule)

    def load_file(self, node: Node, name: str | None, testbeds: TestbedRule) -> Campaign:
        """A campaign that is one file (a score table)."""
        raise CampaignFormatError(
            node,
            f"a single {self.name} file is one clustering, not a campaign: give a campaign "
            "folder (gold + runs/), or the gold and runs separately (--gold FILE --run FILE)",
        )



def reader(name: str) -> CampaignFormat:
    """The reader of the format ``name`` (its module imported on first use).

    Raises
    ------
    UnanimityError
        When no format has that name.
    """
    try:
        target = format_entry(name).reader
    except KeyError:
        raise UnanimityError(f"unknown format {name!r}; expected one of "
                             f"{', '.join(FORMATS)}") from None
    if isinstance(target, str):
        target = importlib.import_module(target).FORMAT
    if not isinstance(target, CampaignFormat):
        raise UnanimityError(f"format {name!r}: its reader is not a CampaignFormat")
    target.name = name
    return target


def readers(only: str | None = None) -> list[CampaignFormat]:
    """Every format's reader in the order of detection, or only the one named ``only``."""
    return [reader(only)] if only else [reader(e.name) for e in format_entries()]


def detect_format(path: object) -> str:
    """Name the format of one file (or folder) from its name, then its first line.

    ``path`` is a path or a :class:`~metrics.io.source.Node` (a member of a zip). Each format
    of the registry is asked in its order (:mod:`metrics.model.formats`).

    Raises
    ------
    CampaignFormatError
        When the format is none of :data:`~metrics.model.formats.FORMATS`.
    """
    node = as_node(path)
    probe = Probe(node)
    entries = format_entries()
    for e in entries:
        if reader(e.name).detect_path(probe):
            return e.name
    if probe.is_dir:
        raise CampaignFormatError(node, "folder holds no campaign file (*.xml for WePS)")
    head = node.head(4)
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        raise CampaignFormatError(node, "a zip file (truncated or corrupt, or inside a campaign): "
                                  "give the zip itself as the campaign, re-zipped if damaged")
    if head[:4] == b"PAR1":
        raise CampaignFormatError(node, "a Parquet file without the .parquet extension: rename it")
    for e in entries:
        if reader(e.name).detect_line(probe):
            return e.name
    for e in entries:
        problem = reader(e.name).line_problem(probe)
        if problem:
            raise CampaignFormatError(path, problem, 1)
    raise CampaignFormatError(
        path,
        "unknown format: first line is neither a RepLab header (entity_id, tweet_id, topic), "
        "a long-table header (topic, item, cluster), a score-table header "
        "(system, topic, metric, value) nor a SemEval key line (word instance label)",
        1,
    )


def read_clustering(path: object, fmt: str | None = None, encoding: str | None = None
                    ) -> RawClustering:
    """Read one clustering file (or WePS folder, path or node) in ``fmt`` (detected when None)."""
    node = as_node(path)
    return reader(fmt or detect_format(node)).read_clustering(node, encoding)


def runs_from(paths: Sequence[Node], fmt: str | None, encoding: str | None,
              names: Sequence[str] | None = None) -> dict[str, RawClustering]:
    """The runs of clustering files: one per file (named after it, or ``names``), or one per
    system of a file with a ``system`` column."""
    runs: dict[str, RawClustering] = {}
    for i, p in enumerate(paths):
        raw = read_clustering(p, fmt, encoding)
        if raw.system is not None:
            parts = split_by_system(raw)
        else:
            parts = {names[i] if names else strip_extensions(p): raw}
        for name, part in parts.items():
            if name in runs:
                raise CampaignFormatError(p, f"system {name!r} is given twice")
            runs[name] = part
    return runs
