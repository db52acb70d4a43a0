"""TREC campaigns: graded qrels and run files, read as document organisations with a tail.

Layout: a folder with ``qrels.txt[.gz]`` (or ``qrels.*``) and ``runs/*.run[.gz]``; or loose files
(``--gold QRELS --run RUN ...``). Every file is split by :mod:`metrics.io.trec_text`, as
trec_eval 10 splits it (any run of whitespace, comment lines, fields after the run tag).

* qrels ``qid iter docid grade`` (``iter`` ignored, as trec_eval does): grade g >= 1 goes on
  level ``G + 1 - g`` (G the campaign's highest grade, so the highest grade is level 1); grade 0
  and unjudged documents are in the tail. The grade is kept as the row's weight (for the IR
  measures).
* run ``qid Q0 docid rank score tag``: a ranking, one document per level, in trec_eval's order:
  score descending, ties by document id descending (trec_eval compares ``docno`` strings).
  trec_eval holds scores in single precision, so two scores equal once rounded to float32 are a
  tie (TREC DL 2019 has such pairs 7e-7 apart); the ``rank`` column is ignored, as trec_eval
  ignores it. The full score is kept as the weight.
* The collection is unlimited: the campaign has a tail (``docs/organisation.md`` §1-2).

The files are coded once into integer ranked lists
(:mod:`metrics.measures.organisation.ranked_lists`), which make the campaign. Bad input raises
:class:`~metrics.errors.CampaignFormatError` naming the file, the line and the problem;
duplicate rows and topics the qrels do not have are skipped and reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import CampaignFormatError
from metrics.io.build import default_testbed_rule, testbeds_from_rule
from metrics.io.format_registry import CampaignFormat, FilesRequest, FolderRequest, Probe
from metrics.io.source import as_node
from metrics.io.text import strip_extensions
from metrics.io.trec_text import POOL, TrecColumns, read_trec_columns
from metrics.measures.organisation.ranked_lists import RankedCampaign, RankedList, ranking_campaign
from metrics.model.campaign import Campaign
from metrics.model.validation import ClusteringReport, LoadNote

__all__ = ["read_ranked_lists", "code_ranked_lists", "load_trec_folder", "load_trec_files",
           "looks_like_trec", "looks_like_commented_trec",
           "is_trec_folder", "trec_run_name", "trec_files", "FORMAT"]


def looks_like_trec(first_line: str) -> str | None:
    """``"qrels"`` or ``"run"`` when a first line has the shape of one, else None (a run line
    may carry fields after its tag, as trec_eval allows)."""
    cells = first_line.split()
    try:
        if len(cells) == 4:
            int(cells[3])
            return "qrels"
        if len(cells) >= 6:
            float(cells[4])
            return "run"
    except ValueError:
        return None
    return None


def looks_like_commented_trec(head: bytes) -> str | None:
    """:func:`looks_like_trec` of the first line that is not blank or a ``#`` comment."""
    for raw in head.split(b"\n")[:-1] or head.split(b"\n"):
        line = raw.decode("latin-1")
        if line.strip() and not line.lstrip().startswith("#"):
            return looks_like_trec(line)
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


_NO_IDS = pa.array([], type=pa.string())


def _columns(path: object, kind: str) -> TrecColumns:
    node = as_node(path)
    return read_trec_columns(node.read_bytes(), kind, str(node))


def _sorted_dictionary(values: pa.Array) -> tuple[np.ndarray, pa.Array]:
    """Rank of each value of a dictionary in byte order (trec_eval's ``strcmp``), and the
    dictionary sorted."""
    order = pc.array_sort_indices(values, memory_pool=POOL).to_numpy()
    rank = np.empty(order.size, dtype=np.int32)
    rank[order] = np.arange(order.size, dtype=np.int32)
    return rank, pc.take(values, order, memory_pool=POOL)


def _object(values: pa.Array) -> np.ndarray:
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=object)


def _gold(cols: TrecColumns, doc: np.ndarray, topic: np.ndarray, doc_ids: np.ndarray,
          topics: np.ndarray) -> RankedList:
    """The qrels coded: one row per judged (topic, document); a grade on a level."""
    grade = cols.value
    key = topic.astype(np.int64) * max(doc_ids.size, 1) + doc
    order = np.argsort(key, kind="stable")
    same = np.flatnonzero(key[order][1:] == key[order][:-1])
    clash = same[grade[order][same + 1] != grade[order][same]]
    if clash.size:
        a, b = order[clash[0]], order[clash[0] + 1]
        raise CampaignFormatError(
            cols.source, f"document {doc_ids[doc[b]]!r} of topic {topics[topic[b]]!r} judged "
            f"twice with different grades ({grade[a]} on line {cols.line(a)}, {grade[b]})",
            cols.line(b))
    notes = list(cols.notes)
    if same.size:
        notes.append(LoadNote(cols.source, f"{same.size} duplicate row(s) of the gold skipped "
                              "(same topic, item, level)", cols.line(int(order[same + 1].min()))))
    keep = np.ones(order.size, dtype=bool)
    keep[same + 1] = False
    order = order[keep]
    top = int(grade.max(initial=0))
    g = grade[order]
    report = ClusteringReport(name="gold", sources=[cols.source], rows=cols.n_rows,
                              duplicate_rows=int(same.size), notes=notes)
    return RankedList(topic=topic[order].astype(np.int32), doc=doc[order],
                      level=np.where(g >= 1, top + 1 - g, 0).astype(np.int32),
                      weight=g.astype(np.float64), report=report)


def _trec_order(topic: np.ndarray, score: np.ndarray, doc: np.ndarray, n_docs: int
                ) -> np.ndarray:
    """Row order by topic, then score descending compared in single precision, then document
    code descending: one sort of a composite integer key (ranks of the distinct scores), or a
    three-key lexsort when the key would not fit in 63 bits."""
    neg = -score.astype(np.float32)
    distinct = np.sort(neg)
    distinct = distinct[np.r_[True, distinct[1:] != distinct[:-1]]] if neg.size else distinct
    n_topics = int(topic.max(initial=-1)) + 2  # codes from -1 (a topic the qrels lack)
    if n_topics * max(distinct.size, 1) * n_docs >= 2 ** 63:
        return np.lexsort((-doc, neg, topic))
    key = (topic.astype(np.int64) + 1) * distinct.size + np.searchsorted(distinct, neg)
    return np.argsort(key * n_docs + (n_docs - 1 - doc.astype(np.int64)), kind="stable")


def _extra_topics(cols: TrecColumns, topic: np.ndarray) -> list[str]:
    """The topics of a run that the qrels lack (their rows are ignored, with a note)."""
    known = topic >= 0
    if known.all():
        return []
    return sorted(map(str, pc.unique(pc.filter(cols.qid, pa.array(~known))).to_pylist()))


def _run(cols: TrecColumns, system: str, doc: np.ndarray, topic: np.ndarray,
         extra_topics: list[str], n_docs: int) -> RankedList:
    """A run coded: levels in trec_eval's order (score descending, compared in single
    precision as trec_eval holds scores; ties by document id descending), 1, 2, ... per topic;
    rows then kept in (topic, document) order."""
    notes = list(cols.notes)
    known = topic >= 0
    if extra_topics:
        notes.append(LoadNote(cols.source, f"{len(extra_topics)} topic(s) not in the gold "
                              f"ignored ({int((~known).sum())} rows), e.g. {extra_topics[0]!r}"))
    ranked = _trec_order(topic, cols.value, doc, n_docs)
    ranked = ranked[known[ranked]]
    t = topic[ranked]
    key = t.astype(np.int64) * n_docs + doc[ranked]
    by_key = np.argsort(key, kind="stable")  # stable: a better-ranked copy comes first
    repeat = np.zeros(by_key.size, dtype=bool)
    repeat[1:] = key[by_key][1:] == key[by_key][:-1]
    kept = np.ones(ranked.size, dtype=bool)
    kept[by_key[repeat]] = False
    if not kept.all():
        first = int(cols.line_numbers()[ranked[~kept]].min())
        notes.append(LoadNote(cols.source, f"{int((~kept).sum())} document(s) listed twice for a "
                              "topic: the lower-ranked copy skipped", first))
    tk = t[kept]
    starts = np.flatnonzero(np.r_[True, tk[1:] != tk[:-1]]) if tk.size else tk.astype(np.int64)
    level = np.zeros(ranked.size, dtype=np.int32)
    level[kept] = np.arange(tk.size) - np.repeat(starts, np.diff(np.r_[starts, tk.size])) + 1
    rows = ranked[by_key[~repeat]]
    report = ClusteringReport(name=system, sources=[cols.source], rows=cols.n_rows,
                              duplicate_rows=int((~kept).sum()), extra_topics=extra_topics,
                              notes=notes)
    return RankedList(topic=topic[rows].astype(np.int32, copy=False), doc=doc[rows],
                      level=level[by_key[~repeat]], weight=cols.value[rows], report=report)


def read_ranked_lists(qrels_path: object, run_paths: Mapping[str, object]) -> RankedCampaign:
    """A qrels file and run files (system name -> path or node) coded as ranked lists.

    Every file goes through :func:`~metrics.io.trec_text.read_trec_columns`, one run at a
    time, then :func:`code_ranked_lists`.
    """
    return code_ranked_lists(_columns(qrels_path, "qrels"),
                             ((name, _columns(path, "run")) for name, path in run_paths.items()))


def code_ranked_lists(qrels: TrecColumns, runs: Iterable[tuple[str, TrecColumns]]
                      ) -> RankedCampaign:
    """The rows of a qrels file and of runs (system name, rows; consumed one at a time) coded
    as ranked lists: the topics of the qrels sorted, the document ids of all rows coded over one
    dictionary sorted in byte order (trec_eval's ``strcmp``), which orders each run. Rows of a
    run's topics the qrels lack are ignored with a note.
    """
    _, topic_ids = _sorted_dictionary(pc.unique(qrels.qid))
    topics = _object(topic_ids)

    def topic_code(cols: TrecColumns) -> np.ndarray:
        found = pc.index_in(cols.qid, value_set=topic_ids, memory_pool=POOL)
        return pc.fill_null(found, -1).to_numpy()

    # every file read once, its topics coded at once; its document ids kept as Arrow strings
    gold_cols, gold_topic = _without_qid(qrels), topic_code(qrels)
    read: dict[str, tuple[TrecColumns, np.ndarray, list[str]]] = {}
    for name, cols in runs:
        topic = topic_code(cols)
        read[name] = (_without_qid(cols), topic, _extra_topics(cols, topic))
        del cols
    # one dictionary of every document id, sorted once: codes follow trec_eval's strcmp
    encoded = pc.dictionary_encode(
        pa.chunked_array([gold_cols.docid] + [r[0].docid for r in read.values()],
                         type=pa.string()), memory_pool=POOL)
    gold_cols = replace(gold_cols, docid=_NO_IDS)  # the ids are coded now
    read = {n: (replace(c, docid=_NO_IDS), t, e) for n, (c, t, e) in read.items()}
    rank, doc_sorted = _sorted_dictionary(encoded.chunk(0).dictionary)
    doc_ids = _object(doc_sorted)
    n_docs = max(doc_ids.size, 1)
    # the encoding drops empty chunks (a run with no row of these topics): walk the others
    chunks = (c for c in encoded.chunks if len(c))
    gold = _gold(gold_cols, rank[next(chunks).indices.to_numpy()], gold_topic, doc_ids, topics)
    coded: dict[str, RankedList] = {}
    for name in list(read):
        cols, topic, extra = read.pop(name)  # its arrays go as its list is made
        doc = rank[next(chunks).indices.to_numpy()] if cols.n_rows else np.zeros(0, np.int32)
        coded[name] = _run(cols, name, doc, topic, extra, n_docs)
    return RankedCampaign(topics=topics, doc_ids=doc_ids, gold=gold, runs=coded)


def _without_qid(cols: TrecColumns) -> TrecColumns:
    """The columns once their topics are coded (the topic ids are no longer needed; the
    document ids go once they are coded too)."""
    return replace(cols, qid=_NO_IDS)


def _build(qrels_path: object, run_paths: list, name: str, source: str,
           notes: list[LoadNote], testbed_rule=None) -> Campaign:
    named: dict[str, object] = {}
    for p in run_paths:
        sys_name = trec_run_name(p)
        if sys_name in named:
            raise CampaignFormatError(p, f"system {sys_name!r} is given twice")
        named[sys_name] = p
    if not named:
        raise CampaignFormatError(source, "no run files (runs/*.run[.gz])")
    ranked = read_ranked_lists(qrels_path, named)
    rule = default_testbed_rule(ranked.topics.tolist()) if testbed_rule is None else testbed_rule
    testbeds = testbeds_from_rule(ranked.topics, rule, notes, source or str(qrels_path))
    return ranking_campaign(ranked, name=name, source=source, notes=notes, testbeds=testbeds)


def trec_files(folder: object, notes: list[LoadNote] | None = None) -> tuple[object, list]:
    """The qrels file and the run files (nodes, by name) of a TREC folder (path or node); what
    else ``runs/`` holds is noted in ``notes``."""
    folder = as_node(folder)
    cands = [p for p in folder.iterdir() if p.name.startswith("qrels") and p.is_file()]
    if len(cands) != 1:
        raise CampaignFormatError(folder, "expected one qrels file (qrels.txt or qrels.txt.gz), "
                                  f"found {len(cands)}")
    run_paths = []
    runs = folder.child("runs")
    if runs is None or not runs.is_dir():
        raise CampaignFormatError(folder, "no runs/ folder")
    for p in runs.iterdir():
        if p.is_file() and not p.name.startswith("."):
            run_paths.append(p)
        elif not p.name.startswith(".") and notes is not None:
            notes.append(LoadNote(str(p), "not a run file: skipped"))
    return cands[0], run_paths


def load_trec_folder(folder: object, name: str | None = None, testbed_rule=None) -> Campaign:
    """A folder (path or node) with ``qrels.txt[.gz]`` and ``runs/*.run[.gz]``."""
    folder = as_node(folder)
    notes: list[LoadNote] = []
    qrels, run_paths = trec_files(folder, notes)
    return _build(qrels, run_paths, name or folder.name, str(folder), notes, testbed_rule)


def load_trec_files(qrels: object, runs: list, name: str | None = None,
                    testbed_rule=None) -> Campaign:
    """Loose files (paths or nodes): one qrels file and run files (each named after its file)."""
    qrels = as_node(qrels)
    return _build(qrels, [as_node(r) for r in runs], name or "trec", str(qrels), [],
                  testbed_rule)


class _Trec(CampaignFormat):
    """TREC qrels and runs: a folder ``qrels.*`` + ``runs/``, or files by their first line."""

    def detect_line(self, probe: Probe) -> bool:
        first = probe.first_line
        return bool(looks_like_trec(first) or (first.lstrip().startswith("#")  # qrels or run
                                               and looks_like_commented_trec(probe.node.head())))

    def claim_folder(self, request: FolderRequest, forced: bool) -> Campaign | None:
        if not (forced or is_trec_folder(request.folder)):
            return None
        return load_trec_folder(request.folder, name=request.name,
                                testbed_rule=request.testbed_rule())

    def load_files(self, request: FilesRequest) -> Campaign:
        return load_trec_files(request.gold, request.runs, name=request.name,
                               testbed_rule=request.testbed_rule)


FORMAT = _Trec()
