"""Campaign loading: layout and format detection, then :func:`build_campaign`.

(Size: about 420 lines of layout and format detection; the format registry splits it into
one module per format.)

See :mod:`metrics.io` for the formats and layouts.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io import (
    conllu,  # token tagging campaigns (docs/type-level.md)
    scoretable,
    semeval,
    wide_scores,  # leaderboards, one column per metric (docs/input-safety.md)
)
from metrics.io.archive import ZipNode, open_root
from metrics.io.build import RawClustering, build_campaign, split_by_system
from metrics.io.long_table import looks_like_long, read_long

# document organisations (docs/organisation.md)
from metrics.io.organisation import (
    load_organisation_files,
    load_organisation_folder,
    looks_like_organisation,
)
from metrics.io.parquet import parquet_columns
from metrics.io.parquet_parts import is_parquet_folder, read_long_parts
from metrics.io.replab import looks_like_replab, read_replab
from metrics.io.scoretable import load_score_campaign
from metrics.io.semeval import read_semeval
from metrics.io.source import Budget, Meter, Node, as_node, node_kind
from metrics.io.testbeds import parse_testbeds
from metrics.io.text import check_encoding, strip_extensions, utf16_problem
from metrics.io.trec import (
    is_trec_folder,
    load_trec_files,
    load_trec_folder,
    looks_like_commented_trec,
    looks_like_trec,
)
from metrics.io.weps import read_weps
from metrics.model.campaign import Campaign
from metrics.model.formats import FORMATS
from metrics.model.validation import LoadNote

__all__ = ["FORMATS", "detect_format", "load", "load_files", "read_clustering"]

CONFIG_NAME = "campaign.toml"
_DATA_SUFFIXES = (".tsv", ".csv", ".txt", ".key", ".parquet", ".gz", ".conllu")


def _first_line(node: Node) -> str:
    head = node.head()
    wide = utf16_problem(head)
    if wide:
        raise CampaignFormatError(node, wide)
    text = head[:4096].decode("latin-1")
    for line in text.replace("\r", "\n").split("\n"):
        if line.strip():
            return line.lstrip("\ufeff\xef\xbb\xbf")
    raise CampaignFormatError(node, "file is empty")


def _is_weps_folder(node: Node) -> bool:
    return any(c.name.lower().endswith((".xml", ".xml.gz")) for c in node.iterdir())


def detect_format(path: object) -> str:
    """Name the format of one file (or WePS folder) from its name and first line.

    ``path`` is a path or a :class:`~metrics.io.source.Node` (a member of a zip).

    Raises
    ------
    CampaignFormatError
        When the format is none of :data:`FORMATS`.
    """
    node = as_node(path)
    if is_parquet_folder(node):  # a partitioned long table (docs/dask.md)
        return "long"
    if node.is_dir():
        if _is_weps_folder(node):
            return "weps"
        raise CampaignFormatError(node, "folder holds no campaign file (*.xml for WePS)")
    if node.name.lower().endswith(".parquet"):
        columns = parquet_columns(node)
        if wide_scores.looks_like_wide(list(map(str, columns))):
            return "wide"
        return "scores" if scoretable.looks_like_scores(",".join(map(str, columns))) else "long"
    if wide_scores.is_json_lines(node):
        return "wide"
    if node.name.lower().endswith((".xml", ".xml.gz")):
        return "weps"
    if node.name.lower().endswith((".conllu", ".conllu.gz")):
        return "conllu"
    head = node.head(4)
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        raise CampaignFormatError(node, "a zip file (truncated or corrupt, or inside a campaign): "
                                  "give the zip itself as the campaign, re-zipped if damaged")
    if head[:4] == b"PAR1":
        raise CampaignFormatError(node, "a Parquet file without the .parquet extension: rename it")
    first = _first_line(node)
    if looks_like_replab(first):
        return "replab"
    if scoretable.looks_like_scores(first):
        return "scores"
    if looks_like_organisation(first):  # topic, item, level[, cluster]
        return "organisation"
    if looks_like_long(first):
        return "long"
    if conllu.looks_like_conllu(first):
        return "conllu"
    if looks_like_trec(first) or (first.lstrip().startswith("#")  # qrels or run lines
                                  and looks_like_commented_trec(node.head())):
        return "trec"
    if semeval.looks_like_semeval(first):
        return "semeval"
    if wide_scores.looks_like_wide(first):
        return "wide"
    wide = scoretable.wide_table_problem(first)
    if wide:
        raise CampaignFormatError(path, wide, 1)
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
    path = as_node(path)
    fmt = fmt or detect_format(path)
    kw = {"encoding": encoding} if encoding else {}
    if fmt == "replab":
        return read_replab(path, **kw)
    if fmt == "long":
        return read_long_parts(path) if is_parquet_folder(path) else read_long(path, **kw)
    if fmt == "semeval":
        return read_semeval(path, **kw)
    if fmt == "weps":
        return read_weps(path)
    if fmt == "scores":
        raise CampaignFormatError(path, "a score table is not a clustering "
                                        "(give it as the campaign)")
    if fmt == "conllu":
        raise CampaignFormatError(path, "a token tagging (conllu) file is read together with its "
                                  "gold, token by token: give the campaign folder or --gold/--run")
    raise UnanimityError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


_CONFIG_TYPES = {"name": str, "format": str, "testbed_regex": str, "testbeds": str,
                 "encoding": str, "attribution": str, "licence": str, "license": str,
                 "description": str, "tail": bool, **conllu.OPTION_TYPES}


def _read_config(folder: Node) -> dict:
    cfg_node = folder.child(CONFIG_NAME)
    if cfg_node is None:
        return {}
    raw = cfg_node.read_bytes()
    try:
        cfg = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CampaignFormatError(cfg_node, f"not valid TOML ({exc})") from None
    unknown = sorted(set(cfg) - set(_CONFIG_TYPES))
    if unknown:
        raise CampaignFormatError(
            cfg_node,
            f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(_CONFIG_TYPES))}",
        )
    for key, value in cfg.items():
        want = _CONFIG_TYPES[key]
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


def _is_data_file(p: Node) -> bool:
    """A campaign file, or a folder of Parquet part files (``gold.parquet/``, docs/dask.md)."""
    return not p.name.startswith(".") and p.name.lower().endswith(
        _DATA_SUFFIXES + (".xml",)) and (p.is_file() or is_parquet_folder(p))


def _find_gold(folder: Node) -> Node:
    gold_dir = folder.child("gold")
    if gold_dir is not None and gold_dir.is_dir():
        return gold_dir
    cands = [p for p in folder.iterdir() if p.name.startswith("gold.") and _is_data_file(p)]
    if not cands:
        odd = [p for p in folder.iterdir() if p.name.startswith("gold.")
               and p.name.lower().endswith(_DATA_SUFFIXES + (".xml",))]
        if odd:  # gold.tsv is there, but as a FIFO, a folder...: say so, not "no gold"
            raise CampaignFormatError(odd[0], f"the gold is {node_kind(odd[0])}, not a regular "
                                      "file: give the gold clustering as a file")
        raise CampaignFormatError(
            folder, "no gold: expected a file gold.<ext> (or a gold/ folder of WePS XML)"
        )
    if len(cands) > 1:
        raise CampaignFormatError(
            folder, f"several gold files: {', '.join(p.name for p in cands)}; keep one"
        )
    return cands[0]


def _score_file(folder: Node, fmt: str | None) -> Node | None:
    """The score table of a score-table folder: ``scores.<ext>`` beside no gold (or with
    ``format = "scores"`` in ``campaign.toml``); None for a folder of gold and runs."""
    cands = [p for p in folder.iterdir() if p.name.startswith("scores.") and _is_data_file(p)]
    has_gold = any(p.name == "gold" or p.name.startswith("gold.") for p in folder.iterdir())
    if fmt not in (None, "scores") or (has_gold and fmt is None):
        return None
    if len(cands) > 1:
        raise CampaignFormatError(
            folder, f"several score tables: {', '.join(p.name for p in cands)}; keep one")
    if not cands:
        if fmt == "scores":
            raise CampaignFormatError(folder, "format = \"scores\" but no scores.<ext> file "
                                      "(a score table system, topic, metric, value)")
        return None
    return cands[0]


def _find_runs(folder: Node, notes: list[LoadNote]) -> list[Node]:
    runs_dir = folder.child("runs")
    single = [p for p in folder.iterdir() if p.name.startswith("runs.") and _is_data_file(p)]
    if runs_dir is not None and runs_dir.is_dir():
        found = []
        for p in runs_dir.iterdir():
            if p.is_dir() or _is_data_file(p):
                found.append(p)
            else:
                notes.append(LoadNote(str(p), "not a campaign file (unknown extension): skipped"))
        return found + single
    if single:
        return single
    raise CampaignFormatError(
        folder, "no runs: expected a runs/ folder (one file per system) or a runs.<ext> table"
    )


def _runs_from(paths: Sequence[Node], fmt: str | None, encoding: str | None,
               names: Sequence[str] | None = None) -> dict[str, RawClustering]:
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


def _testbed_rule(folder: Node, cfg: dict, testbeds):
    """The test-bed rule: the caller's, else the config's file, else the config's regex."""
    if testbeds is not None:
        return testbeds
    if cfg.get("testbeds"):
        return _testbed_file(folder, cfg["testbeds"])
    return cfg.get("testbed_regex")


def _load_folder(folder: Node, fmt: str | None, testbeds, name: str | None,
                 reader_options: Mapping[str, object] | None = None) -> Campaign:
    cfg = _read_config(folder)
    fmt = fmt or cfg.get("format")
    encoding = cfg.get("encoding")
    notes: list[LoadNote] = []
    if fmt == "trec" or (fmt is None and is_trec_folder(folder)):
        return load_trec_folder(folder, name=name or cfg.get("name"),
                                testbed_rule=_testbed_rule(folder, cfg, testbeds))
    table = _score_file(folder, fmt)
    if table is not None:  # scores.<ext> (+ campaign.toml): a score table with its test beds
        return load_score_campaign(table, name=name or cfg.get("name") or folder.name,
                                   testbeds=_testbed_rule(folder, cfg, testbeds))
    gold_path = _find_gold(folder)
    gold_fmt = fmt or detect_format(gold_path)
    if gold_fmt == "conllu":  # token tagging: runs are aligned with the gold token by token
        opts = {k: cfg[k] for k in conllu.OPTION_KEYS if k in cfg}
        opts.update({k: v for k, v in dict(reader_options or {}).items() if v is not None})
        return conllu.load_conllu_campaign(
            gold_path, _find_runs(folder, notes), opts, name=name or cfg.get("name") or folder.name,
            source=str(folder), testbed_rule=_testbed_rule(folder, cfg, testbeds), notes=notes)
    if gold_fmt == "organisation":
        return load_organisation_folder(
            folder, gold_path, _find_runs(folder, notes), cfg.get("tail", False),
            name or cfg.get("name") or folder.name, notes, _testbed_rule(folder, cfg, testbeds),
            encoding or "utf-8")
    if gold_fmt == "scores":
        raise CampaignFormatError(gold_path, "the gold is a score table; give the file itself")
    gold = read_clustering(gold_path, gold_fmt, encoding)
    if gold.system is not None:
        raise CampaignFormatError(gold_path, "the gold has a system column; remove it")
    runs = _runs_from(_find_runs(folder, notes), fmt, encoding)
    return build_campaign(
        gold, runs, name=name or cfg.get("name") or folder.name, source=str(folder),
        testbed_rule=_testbed_rule(folder, cfg, testbeds), notes=notes,
    )


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
    if format is not None and format not in FORMATS:
        raise UnanimityError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
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
        if format in (None, "weps") and not any(c.name.startswith("gold") for c in node.iterdir()) \
                and _is_weps_folder(node):
            raise CampaignFormatError(
                node, "a WePS campaign folder needs gold/ and runs/<system>/ sub-folders"
            )
        return _load_folder(node, format, testbeds, name, reader_options)
    fmt = format or detect_format(node)
    if fmt == "scores":
        return load_score_campaign(node, name=name, testbeds=testbeds)
    if fmt == "wide":
        return wide_scores.load_wide_campaign(node, name=name, testbeds=testbeds)
    raise CampaignFormatError(
        node,
        f"a single {fmt} file is one clustering, not a campaign: give a campaign folder "
        "(gold + runs/), or the gold and runs separately (--gold FILE --run FILE)",
    )


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
    if format is not None and format not in FORMATS:
        raise UnanimityError(f"unknown format {format!r}; expected one of {', '.join(FORMATS)}")
    meter = Meter(budget or Budget.from_env())
    nodes = [as_node(f, meter) for f in [gold_path, *map(Path, runs)]]
    fmt = format or detect_format(nodes[0])
    default_name = name or gold_path.parent.name or "campaign"
    if fmt == "conllu":
        return conllu.load_conllu_campaign(
            nodes[0], nodes[1:], reader_options, name=default_name, source=str(gold_path),
            testbed_rule=testbeds, run_names=run_names)
    if fmt == "trec":
        return load_trec_files(nodes[0], nodes[1:], name=default_name, testbed_rule=testbeds)
    if fmt == "organisation":
        return load_organisation_files(nodes[0], nodes[1:], name=default_name,
                                       testbed_rule=testbeds)
    g = read_clustering(nodes[0], format)
    if g.system is not None:
        raise CampaignFormatError(gold_path, "the gold has a system column; remove it")
    raws = _runs_from(nodes[1:], format, None, run_names)
    return build_campaign(
        g, raws, name=name or gold_path.parent.name or "campaign", source=str(gold_path),
        testbed_rule=testbeds,
    )
