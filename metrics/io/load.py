"""Campaign loading: layout and format detection, then :func:`build_campaign`.

See :mod:`metrics.io` for the formats and layouts.
"""

from __future__ import annotations

import gzip
import tempfile
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from metrics.campaign import Campaign
from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.build import RawClustering, build_campaign, split_by_system
from metrics.io.long_table import looks_like_long, read_long
from metrics.io import scoretable, semeval
from metrics.io.replab import looks_like_replab, read_replab
from metrics.io.scoretable import load_score_campaign
from metrics.io.semeval import read_semeval
from metrics.io.text import read_bytes, strip_extensions
from metrics.io.weps import read_weps
from metrics.report import LoadNote
# document organisations (docs/organisation.md)
from metrics.io.organisation import (load_organisation_files, load_organisation_folder,
                                     looks_like_organisation)
from metrics.io.trec import is_trec_folder, load_trec_files, load_trec_folder, looks_like_trec

__all__ = ["FORMATS", "detect_format", "load", "load_files", "read_clustering"]

FORMATS: tuple[str, ...] = ("replab", "long", "semeval", "weps", "scores",
                            "trec", "organisation")  # the last two: docs/organisation.md
CONFIG_NAME = "campaign.toml"
_DATA_SUFFIXES = (".tsv", ".csv", ".txt", ".key", ".parquet", ".gz")


def _head(path: Path, size: int = 65536) -> bytes:
    """The first ``size`` bytes of a file, decompressed when it is gzip (without inflating all)."""
    try:
        with open(path, "rb") as fh:
            magic = fh.read(2)
            fh.seek(0)
            if magic != b"\x1f\x8b":
                return fh.read(size)
            with gzip.GzipFile(fileobj=fh) as gz:
                return gz.read(size)
    except (EOFError, OSError, zlib.error):
        return read_bytes(path)  # raises the same clear error as a full read


def _first_line(path: Path) -> str:
    head = _head(path)[:4096].decode("latin-1")
    for line in head.splitlines():
        if line.strip():
            return line.lstrip("\ufeff\xef\xbb\xbf")
    raise CampaignFormatError(path, "file is empty")


def detect_format(path: Path) -> str:
    """Name the format of one file (or WePS folder) from its name and first line.

    Raises
    ------
    CampaignFormatError
        When the format is none of :data:`FORMATS`.
    """
    path = Path(path)
    if path.is_dir():
        if any(path.glob("*.xml")) or any(path.glob("*.xml.gz")):
            return "weps"
        raise CampaignFormatError(path, "folder holds no campaign file (*.xml for WePS)")
    if path.name.lower().endswith(".parquet"):
        try:
            columns = pq.read_schema(path).names
        except (pa.ArrowInvalid, OSError) as exc:
            raise CampaignFormatError(path, f"cannot read Parquet file ({exc})") from None
        return "scores" if scoretable.looks_like_scores(",".join(map(str, columns))) else "long"
    if path.name.lower().endswith((".xml", ".xml.gz")):
        return "weps"
    first = _first_line(path)
    if looks_like_replab(first):
        return "replab"
    if scoretable.looks_like_scores(first):
        return "scores"
    if looks_like_organisation(first):  # topic, item, level[, cluster]
        return "organisation"
    if looks_like_long(first):
        return "long"
    if looks_like_trec(first):  # qrels or run lines
        return "trec"
    if semeval.looks_like_semeval(first):
        return "semeval"
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


def read_clustering(path: Path, fmt: str | None = None, encoding: str | None = None) -> RawClustering:
    """Read one clustering file (or WePS folder) in ``fmt`` (detected when None)."""
    path = Path(path)
    fmt = fmt or detect_format(path)
    kw = {"encoding": encoding} if encoding else {}
    if fmt == "replab":
        return read_replab(path, **kw)
    if fmt == "long":
        return read_long(path, **kw)
    if fmt == "semeval":
        return read_semeval(path, **kw)
    if fmt == "weps":
        return read_weps(path)
    if fmt == "scores":
        raise CampaignFormatError(path, "a score table is not a clustering (give it as the campaign)")
    raise UnanimityError(f"unknown format {fmt!r}; expected one of {', '.join(FORMATS)}")


def _read_config(folder: Path) -> dict:
    cfg_path = folder / CONFIG_NAME
    if not cfg_path.exists():
        return {}
    try:
        cfg = tomllib.loads(cfg_path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CampaignFormatError(cfg_path, f"not valid TOML ({exc})") from None
    known = {"name", "format", "testbed_regex", "testbeds", "encoding", "attribution", "licence",
             "license", "description", "tail"}
    unknown = sorted(set(cfg) - known)
    if unknown:
        raise CampaignFormatError(
            cfg_path, f"unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )
    if cfg.get("format") is not None and cfg["format"] not in FORMATS:
        raise CampaignFormatError(
            cfg_path, f"format {cfg['format']!r} is none of {', '.join(FORMATS)}"
        )
    return cfg


def _testbed_file(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    text = read_bytes(path).decode("utf-8", errors="replace")
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) != 2:
            raise CampaignFormatError(path, "expected 2 tab-separated columns: topic, test bed", lineno)
        out[cells[0].strip()] = cells[1].strip()
    return out


def _is_data_file(p: Path) -> bool:
    return p.is_file() and not p.name.startswith(".") and p.name.lower().endswith(
        _DATA_SUFFIXES + (".xml",)
    )


def _find_gold(folder: Path) -> Path:
    if (folder / "gold").is_dir():
        return folder / "gold"
    cands = sorted(p for p in folder.glob("gold.*") if _is_data_file(p))
    if not cands:
        raise CampaignFormatError(
            folder, "no gold: expected a file gold.<ext> (or a gold/ folder of WePS XML)"
        )
    if len(cands) > 1:
        raise CampaignFormatError(
            folder, f"several gold files: {', '.join(p.name for p in cands)}; keep one"
        )
    return cands[0]


def _find_runs(folder: Path, notes: list[LoadNote]) -> list[Path]:
    runs_dir = folder / "runs"
    single = sorted(p for p in folder.glob("runs.*") if _is_data_file(p))
    if runs_dir.is_dir():
        found = []
        for p in sorted(runs_dir.iterdir()):
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


def _runs_from(paths: Sequence[Path], fmt: str | None, encoding: str | None,
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


def _testbed_rule(folder: Path, cfg: dict, testbeds):
    if testbeds is not None:
        return testbeds
    if cfg.get("testbeds"):
        return _testbed_file(folder / cfg["testbeds"])
    return cfg.get("testbed_regex")


def _load_folder(folder: Path, fmt: str | None, testbeds, name: str | None) -> Campaign:
    cfg = _read_config(folder)
    fmt = fmt or cfg.get("format")
    encoding = cfg.get("encoding")
    notes: list[LoadNote] = []
    if fmt == "trec" or (fmt is None and is_trec_folder(folder)):
        return load_trec_folder(folder, name=name or cfg.get("name"),
                                testbed_rule=_testbed_rule(folder, cfg, testbeds))
    gold_path = _find_gold(folder)
    gold_fmt = fmt or detect_format(gold_path)
    if gold_fmt == "organisation":
        tail = cfg.get("tail", False)
        if not isinstance(tail, bool):
            raise CampaignFormatError(folder / CONFIG_NAME, f"tail must be true or false, "
                                      f"got {tail!r}")
        return load_organisation_folder(
            folder, gold_path, _find_runs(folder, notes), tail, name or cfg.get("name")
            or folder.name, notes, _testbed_rule(folder, cfg, testbeds), encoding or "utf-8")
    if gold_fmt == "scores":
        raise CampaignFormatError(gold_path, "the gold is a score table; give the file itself")
    gold = read_clustering(gold_path, gold_fmt, encoding)
    if gold.system is not None:
        raise CampaignFormatError(gold_path, "the gold has a system column; remove it")
    runs = _runs_from(_find_runs(folder, notes), fmt, encoding)
    rule = testbeds
    if rule is None and cfg.get("testbeds"):
        rule = _testbed_file(folder / cfg["testbeds"])
    if rule is None and cfg.get("testbed_regex"):
        rule = cfg["testbed_regex"]
    return build_campaign(
        gold, runs, name=name or cfg.get("name") or folder.name, source=str(folder),
        testbed_rule=rule, notes=notes,
    )


def load(
    path: str | Path,
    format: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
    name: str | None = None,
) -> Campaign:
    """Load a campaign from a folder, a score table or a zip of either.

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

    Raises
    ------
    CampaignFormatError
        Naming the file, line and problem, for any input that cannot be read.
    """
    path = Path(path)
    if not path.exists():
        raise CampaignFormatError(path, "no such file or folder")
    if path.is_file() and zipfile.is_zipfile(path):
        return _load_zip(path, format, testbeds, name)
    if path.is_dir():
        if format in (None, "weps") and not list(path.glob("gold*")) and any(path.glob("*.xml")):
            raise CampaignFormatError(
                path, "a WePS campaign folder needs gold/ and runs/<system>/ sub-folders"
            )
        return _load_folder(path, format, testbeds, name)
    fmt = format or detect_format(path)
    if fmt == "scores":
        return load_score_campaign(path, name=name, testbeds=testbeds)
    raise CampaignFormatError(
        path,
        f"a single {fmt} file is one clustering, not a campaign: give a campaign folder "
        "(gold + runs/), or the gold and runs separately (--gold FILE --run FILE)",
    )


def _load_zip(path: Path, fmt, testbeds, name) -> Campaign:
    with tempfile.TemporaryDirectory(prefix="unanimity-") as tmp:
        try:
            with zipfile.ZipFile(path) as zf:
                for member in zf.namelist():
                    target = (Path(tmp) / member).resolve()
                    if not str(target).startswith(str(Path(tmp).resolve())):
                        raise CampaignFormatError(path, f"unsafe path in zip: {member!r}")
                zf.extractall(tmp)
        except zipfile.BadZipFile as exc:
            raise CampaignFormatError(path, f"corrupt zip file ({exc})") from None
        root = Path(tmp)
        entries = [p for p in root.iterdir() if not p.name.startswith(("__MACOSX", "."))]
        if len(entries) == 1 and entries[0].is_dir():
            root = entries[0]
        if len(entries) == 1 and entries[0].is_file():
            campaign = load(entries[0], fmt, testbeds, name)
        else:
            campaign = load(root, fmt, testbeds, name)
        if name is None and campaign.name in (Path(tmp).name, strip_extensions(entries[0])):
            campaign.name = path.stem  # no configured name: the zip's, not a temporary folder's
        campaign.source = str(path)
        return campaign


def load_files(
    gold: str | Path,
    runs: Sequence[str | Path],
    format: str | None = None,
    testbeds: str | Mapping[str, str] | Callable[[str], str] | None = None,
    name: str | None = None,
    run_names: Sequence[str] | None = None,
) -> Campaign:
    """Load a campaign from loose files: one gold file and one or more run files.

    Each run is named after its file (``best.tsv.gz`` -> ``best``) unless ``run_names`` is
    given; a run file with a ``system`` column gives one run per system.
    """
    gold_path = Path(gold)
    if not runs:
        raise UnanimityError("give at least one run file")
    fmt = format or detect_format(gold_path)
    if fmt == "trec":
        return load_trec_files(gold_path, [Path(r) for r in runs], name=name,
                               testbed_rule=testbeds)
    if fmt == "organisation":
        return load_organisation_files(gold_path, [Path(r) for r in runs], name=name,
                                       testbed_rule=testbeds)
    g = read_clustering(gold_path, format)
    if g.system is not None:
        raise CampaignFormatError(gold_path, "the gold has a system column; remove it")
    raws = _runs_from([Path(r) for r in runs], format, None, run_names)
    return build_campaign(
        g, raws, name=name or gold_path.parent.name or "campaign", source=str(gold_path),
        testbed_rule=testbeds,
    )
