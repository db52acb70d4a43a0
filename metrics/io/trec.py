"""TREC campaigns: graded qrels and run files, read as document organisations with a tail.

Layout: a folder with ``qrels.txt[.gz]`` (or ``qrels.*``) and ``runs/*.run[.gz]``; or loose files
(``--gold QRELS --run RUN ...``).

* qrels ``qid iter docid grade`` (whitespace-separated; ``iter`` ignored, as trec_eval does):
  grade g >= 1 goes on level ``G + 1 - g`` (G the campaign's highest grade, so the highest grade
  is level 1); grade 0 and unjudged documents are in the tail. The grade is kept as the row's
  weight (for the IR measures).
* run ``qid Q0 docid rank score tag``: a ranking, one document per level, in trec_eval's order:
  score descending, ties by document id descending (trec_eval compares ``docno`` strings).
  trec_eval holds scores in single precision, so two scores equal once rounded to float32 are a
  tie (TREC DL 2019 has such pairs 7e-7 apart); the ``rank`` column is ignored, as trec_eval
  ignores it. The full score is kept as the weight.
* The collection is unlimited: the campaign has a tail (``docs/organisation.md`` §1-2).

Bad input raises :class:`~metrics.errors.CampaignFormatError` naming the file, the line and the
problem; duplicate rows and topics the qrels do not have are skipped and reported.
"""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from metrics.errors import CampaignFormatError
from metrics.io.organisation_build import build_organisation_campaign
from metrics.io.source import as_node
from metrics.io.text import strip_extensions
from metrics.model.campaign import Campaign
from metrics.model.validation import LoadNote

__all__ = ["read_qrels", "read_run", "load_trec_folder", "load_trec_files", "looks_like_trec",
           "is_trec_folder", "trec_run_name"]

_QRELS = ("qid", "iter", "docid", "grade")
_RUN = ("qid", "q0", "docid", "rank", "score", "tag")


def _fields(line: str) -> list[str]:
    return line.split()


def looks_like_trec(first_line: str) -> str | None:
    """``"qrels"`` or ``"run"`` when a first line has the shape of one, else None."""
    cells = _fields(first_line)
    try:
        if len(cells) == 4:
            int(cells[3])
            return "qrels"
        if len(cells) == 6:
            float(cells[4])
            return "run"
    except ValueError:
        return None
    return None


def is_trec_folder(folder: object) -> bool:
    """A folder (path or node) holding ``qrels.*`` and a ``runs/`` folder."""
    folder = as_node(folder)
    runs = folder.child("runs")
    return (any(c.name.startswith("qrels") for c in folder.iterdir())
            and runs is not None and runs.is_dir())


def trec_run_name(path: object) -> str:
    """``runs/bm25.run.gz`` -> ``bm25``."""
    name = strip_extensions(as_node(path))
    return name[:-4] if name.lower().endswith(".run") else name


def _scan_problem(path: object, text: str, kind: str) -> CampaignFormatError:
    """The first bad line of a file the fast parser rejected (slow, only on bad input)."""
    want = len(_QRELS) if kind == "qrels" else len(_RUN)
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        cells = _fields(line)
        if len(cells) != want:
            return CampaignFormatError(
                path, f"expected {want} whitespace-separated fields "
                f"({' '.join(_QRELS if kind == 'qrels' else _RUN)}), found {len(cells)}", lineno)
        if kind == "qrels":
            try:
                int(cells[3])
            except ValueError:
                return CampaignFormatError(path, f"relevance grade {cells[3]!r} is not a whole "
                                           "number", lineno)
        else:
            try:
                float(cells[4])
            except ValueError:
                return CampaignFormatError(path, f"score {cells[4]!r} is not a number", lineno)
    return CampaignFormatError(path, f"cannot read the file as TREC {kind}")


def _read_arrow(data: bytes, names: list[str], kind: str, sep: str) -> pd.DataFrame | None:
    """The fast path: pyarrow's CSV reader on one-character delimiters; None on any problem
    (the pandas path then finds and names the bad line)."""
    types = {n: pa.string() for n in names}
    types.update({"grade": pa.int64()} if kind == "qrels" else {"score": pa.float64()})
    try:
        table = pacsv.read_csv(
            io.BytesIO(data), read_options=pacsv.ReadOptions(column_names=names),
            parse_options=pacsv.ParseOptions(delimiter="\t" if sep == "\t" else " "),
            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
        return None
    used = ("qid", "docid", "grade") if kind == "qrels" else ("qid", "docid", "score")
    return pd.DataFrame({n: _obj(table.column(n).to_numpy(zero_copy_only=False))
                         if types[n] == pa.string() else table.column(n).to_numpy()
                         for n in used})  # the other columns are read (checked), not kept


def _obj(values) -> pd.Series:
    """A column of Python strings kept as such (no conversion to pandas' Arrow strings)."""
    return pd.Series(np.asarray(values, dtype=object), dtype=object, copy=False)


def _read(path: object, kind: str) -> pd.DataFrame:
    path = as_node(path)
    data = path.read_bytes()
    if not data.strip():
        raise CampaignFormatError(path, "file is empty")
    text = data.decode("utf-8", errors="replace")
    names = list(_QRELS if kind == "qrels" else _RUN)
    dtypes = {n: object for n in names}
    dtypes.update({"grade": np.int64} if kind == "qrels" else {"score": np.float64})
    first = text[: text.find("\n") if "\n" in text else len(text)]
    sep = "\t" if first.count("\t") == len(names) - 1 and "  " not in text[:65536] else r"\s+"
    frame = _read_arrow(data, names, kind, sep) if sep == "\t" or " " in first else None
    if frame is None:
        try:
            frame = pd.read_csv(io.StringIO(text), sep=sep, header=None, names=names,
                                dtype=dtypes, engine="c", na_filter=False)
        except (ValueError, pd.errors.ParserError):
            raise _scan_problem(path, text, kind) from None
    if any((frame[c].to_numpy() == "").any() for c in ("qid", "docid")) or \
            frame.isna().to_numpy().any():
        raise _scan_problem(path, text, kind)
    if re.search(r"\n[ \t\r]*\n", text):
        lines = [i for i, ln in enumerate(text.split("\n"), start=1) if ln.strip()]
        frame["line"] = np.asarray(lines[: len(frame)], dtype=np.int64)
    else:
        frame["line"] = np.arange(1, len(frame) + 1, dtype=np.int64)
    return frame


def _string_rank(values: np.ndarray) -> np.ndarray:
    """Codes of strings that follow their sorted order (hash first, sort the distinct only)."""
    codes, uniq = pd.factorize(values)
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[np.argsort(np.asarray(uniq, dtype=str), kind="stable")] = np.arange(len(uniq))
    return rank[codes]


def read_qrels(path: object) -> pd.DataFrame:
    """qrels -> ``topic, item, grade, line`` (grade may be 0 or negative: not relevant)."""
    f = _read(path, "qrels")
    return pd.DataFrame({"topic": _obj(f["qid"].to_numpy(dtype=object)),
                         "item": _obj(f["docid"].to_numpy(dtype=object)),
                         "grade": f["grade"], "line": f["line"]})


def read_run(path: object, notes: list[LoadNote] | None = None) -> pd.DataFrame:
    """A run -> ``topic, item, level, weight, line``: levels 1, 2, ... in trec_eval's order."""
    f = _read(path, "run")
    qid = f["qid"].to_numpy(dtype=object)
    doc = f["docid"].to_numpy(dtype=object)
    q_code = _string_rank(qid)
    d_code = _string_rank(doc)  # string order, as trec_eval's strcmp
    # trec_eval keeps a run's scores in single precision: scores equal as float32 are ties
    score32 = f["score"].to_numpy(np.float64).astype(np.float32)
    order = np.lexsort((-d_code, -score32, q_code))
    q_sorted = q_code[order]
    starts = np.flatnonzero(np.r_[True, q_sorted[1:] != q_sorted[:-1]])
    level = np.arange(order.size) - np.repeat(starts, np.diff(np.r_[starts, order.size])) + 1
    # a document listed twice for a topic (trec_eval refuses it): keep the better-ranked copy
    key = q_code[order] * (int(d_code.max(initial=0)) + 1) + d_code[order]
    dup = pd.Series(key).duplicated(keep="first").to_numpy()
    if dup.any():
        first = int(f["line"].to_numpy()[order][dup].min())
        if notes is not None:
            notes.append(LoadNote(str(path), f"{int(dup.sum())} document(s) listed twice for a "
                                  "topic: the lower-ranked copy skipped", first))
        order = order[~dup]
        q_sorted = q_code[order]
        starts = np.flatnonzero(np.r_[True, q_sorted[1:] != q_sorted[:-1]])
        level = np.arange(order.size) - np.repeat(starts, np.diff(np.r_[starts, order.size])) + 1
    out = pd.DataFrame({"topic": _obj(qid[order]), "item": _obj(doc[order]), "level": level,
                        "weight": f["score"].to_numpy()[order],
                        "line": f["line"].to_numpy()[order]})
    out.attrs["duplicate_rows"] = int(dup.sum())
    return out


def _gold_levels(qrels: pd.DataFrame) -> pd.DataFrame:
    grade = qrels["grade"].to_numpy(np.int64)
    top = int(grade.max(initial=0))
    level = np.where(grade >= 1, top + 1 - grade, 0)
    return pd.DataFrame({"topic": _obj(qrels["topic"].to_numpy(dtype=object)),
                         "item": _obj(qrels["item"].to_numpy(dtype=object)), "level": level,
                         "weight": grade.astype(np.float64), "line": qrels["line"]})


def _build(qrels_path: object, run_paths: list, name: str, source: str,
           notes: list[LoadNote], testbed_rule=None) -> Campaign:
    qrels = read_qrels(qrels_path)
    gold = _gold_levels(qrels)
    conflict = gold.duplicated(["topic", "item"], keep=False) & ~gold.duplicated(
        ["topic", "item", "level"], keep=False)
    if conflict.any():
        row = int(np.flatnonzero(conflict.to_numpy())[-1])
        raise CampaignFormatError(qrels_path, "document judged twice with different grades",
                                  int(gold["line"].iat[row]))
    runs, sources = {}, {}
    for p in run_paths:
        sys_name = trec_run_name(p)
        if sys_name in runs:
            raise CampaignFormatError(p, f"system {sys_name!r} is given twice")
        r_notes: list[LoadNote] = []
        runs[sys_name] = read_run(p, r_notes)
        notes.extend(r_notes)
        sources[sys_name] = str(p)
    if not runs:
        raise CampaignFormatError(source, "no run files (runs/*.run[.gz])")
    return build_organisation_campaign(gold, runs, tail=True, name=name, source=source,
                                       gold_source=str(qrels_path), run_sources=sources,
                                       notes=notes, testbed_rule=testbed_rule,
                                       runs_deduplicated=True)


def load_trec_folder(folder: object, name: str | None = None, testbed_rule=None) -> Campaign:
    """A folder (path or node) with ``qrels.txt[.gz]`` and ``runs/*.run[.gz]``."""
    folder = as_node(folder)
    cands = [p for p in folder.iterdir() if p.name.startswith("qrels") and p.is_file()]
    if len(cands) != 1:
        raise CampaignFormatError(folder, "expected one qrels file (qrels.txt or qrels.txt.gz), "
                                  f"found {len(cands)}")
    notes: list[LoadNote] = []
    run_paths = []
    runs = folder.child("runs")
    assert runs is not None  # the layout detection found the runs/ folder
    for p in runs.iterdir():
        if p.is_file() and not p.name.startswith("."):
            run_paths.append(p)
        elif not p.name.startswith("."):
            notes.append(LoadNote(str(p), "not a run file: skipped"))
    return _build(cands[0], run_paths, name or folder.name, str(folder), notes, testbed_rule)


def load_trec_files(qrels: object, runs: list, name: str | None = None,
                    testbed_rule=None) -> Campaign:
    """Loose files (paths or nodes): one qrels file and run files (each named after its file)."""
    qrels = as_node(qrels)
    return _build(qrels, [as_node(r) for r in runs], name or "trec", str(qrels), [],
                  testbed_rule)
