"""Campaign loading: the layout of the campaign, then its format's reader (loops over the registry).

Which format a file is, and how a format reads a folder, loose files or a single file, is the
format's own (:mod:`metrics.io.format_registry`, registered in :mod:`metrics.model.formats`);
the folder's layout is :mod:`metrics.io.folders`. See :mod:`metrics.io` for the formats and
layouts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.archive import ZipNode, open_root
from metrics.io.folders import find_gold, find_runs, read_config, testbed_rule
from metrics.io.format_registry import (
    FilesRequest,
    FolderRequest,
    detect_format,
    read_clustering,
    reader,
    readers,
)
from metrics.io.source import Budget, Meter, Node, as_node
from metrics.model.campaign import Campaign
from metrics.model.formats import FORMATS
from metrics.model.validation import LoadNote

__all__ = ["FORMATS", "detect_format", "load", "load_files", "read_clustering"]


def _check_format(format: str | None) -> None:
    if format is not None and format not in FORMATS:
        raise UnanimityError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")


def _load_folder(folder: Node, fmt: str | None, testbeds, name: str | None,
                 reader_options: Mapping[str, object] | None = None) -> Campaign:
    cfg = read_config(folder)
    fmt = fmt or cfg.get("format")
    notes: list[LoadNote] = []
    request = FolderRequest(
        folder=folder, config=cfg, format=fmt, name=name or cfg.get("name") or folder.name,
        notes=notes, encoding=cfg.get("encoding"), reader_options=dict(reader_options or {}),
        runs=lambda: find_runs(folder, notes),
        testbed_rule=lambda: testbed_rule(folder, cfg, testbeds))
    for r in readers(fmt):  # a layout of the format's own (TREC qrels, a score table)
        campaign = r.claim_folder(request, forced=fmt is not None)
        if campaign is not None:
            return campaign
    gold = find_gold(folder)
    return reader(fmt or detect_format(gold)).load_folder(request, gold)


def load(
    path: str | Path,
    format: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
    name: str | None = None,
    budget: Budget | None = None,
    reader_options: Mapping[str, object] | None = None,
) -> Campaign:
    """Load a campaign from a folder, a score table or a zip of either.

    Every file is read through the loader boundary (:mod:`metrics.io.source`): paths stay inside
    the folder or archive, only regular files are read, and decompression is bounded by
    ``budget`` (``docs/input-safety.md``).

    Parameters
    ----------
    path : str or Path
        Campaign folder, score-table file, or ``.zip``.
    format : str, optional
        Force a format (one of :data:`FORMATS`) instead of detecting it.
    testbeds : regex, mapping or callable, optional
        Test-bed rule, overriding the folder's config (see :func:`testbeds_from_rule`).
    name : str, optional
        Campaign name, overriding the config.
    budget : Budget, optional
        Read limits; default :meth:`Budget.from_env`.
    reader_options : mapping, optional
        Options of the ``conllu`` reader (``tagset``, ``lowercase``, ...; see
        :mod:`metrics.io.conllu`), overriding the config.

    Raises
    ------
    CampaignFormatError
        Naming the file, line and problem, for any input that cannot be read.
    """
    path = Path(path)
    _check_format(format)
    root = open_root(path, Meter(budget or Budget.from_env()))
    if isinstance(root, ZipNode):
        kids = [c for c in root.iterdir() if not c.name.startswith(("__MACOSX", "."))]
        if len(kids) == 1 and kids[0].is_dir():
            root = kids[0]
        elif len(kids) == 1:
            campaign = _load_node(kids[0], format, testbeds, name or path.stem, reader_options)
            campaign.source = str(path)
            return campaign
        elif not kids:
            raise CampaignFormatError(root, "the zip is empty")
        campaign = _load_node(root, format, testbeds, name, reader_options)
        if name is None and campaign.name in (root.name,):
            campaign.name = path.stem  # no configured name: the zip's
        campaign.source = str(path)
        return campaign
    return _load_node(root, format, testbeds, name, reader_options)


def _load_node(node: Node, format, testbeds, name, reader_options=None) -> Campaign:
    if node.is_dir():
        for r in readers(format):  # a folder of the format's files that is no campaign folder
            problem = r.folder_problem(node)
            if problem:
                raise CampaignFormatError(node, problem)
        return _load_folder(node, format, testbeds, name, reader_options)
    return reader(format or detect_format(node)).load_file(node, name, testbeds)


def load_files(
    gold: str | Path,
    runs: Sequence[str | Path],
    format: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
    name: str | None = None,
    run_names: Sequence[str] | None = None,
    budget: Budget | None = None,
    reader_options: Mapping[str, object] | None = None,
) -> Campaign:
    """Load a campaign from loose files: one gold file and one or more run files.

    Each run is named after its file (``best.tsv.gz`` -> ``best``) unless ``run_names`` is
    given; a run file with a ``system`` column gives one run per system. The files are read
    within one ``budget`` (``docs/input-safety.md``).
    """
    gold_path = Path(gold)
    if not runs:
        raise UnanimityError("give at least one run file")
    _check_format(format)
    meter = Meter(budget or Budget.from_env())
    nodes = [as_node(f, meter) for f in [gold_path, *map(Path, runs)]]
    fmt = format or detect_format(nodes[0])
    return reader(fmt).load_files(FilesRequest(
        gold=nodes[0], runs=nodes[1:], format=format, name=name or gold_path.parent.name
        or "campaign", source=str(gold_path), testbed_rule=testbeds, run_names=run_names,
        reader_options=reader_options))
