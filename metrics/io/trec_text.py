"""TREC qrels and run text, split into columns the way trec_eval 10 splits it.

trec_eval (``get_qrels.c``, ``get_trec_results.c``) reads a file line by line:

* fields are separated by any run of ASCII whitespace (space, tab, ``\\r``, ``\\v``, ``\\f``), so
  tabs, spaces, mixes of both and CRLF line ends all read alike; leading and trailing
  whitespace is ignored;
* blank lines are skipped, and so are comment lines, whose first non-blank character is ``#``
  (trec_eval 10 only looks at the first column of a qrels line; Unanimity uses the run rule for
  both, so an indented comment is a comment everywhere);
* a run line is ``qid iter docno rank sim run_id``: anything after ``run_id`` is ignored; a
  qrels line is exactly ``qid iter docno rel`` (trec_eval refuses a fifth field, and so does
  Unanimity).

Unanimity is stricter than trec_eval where trec_eval reads garbage silently: a score that is not
a number (``atof`` would read 0), a relevance that is not a whole number (``atol`` would read a
prefix), and a score or relevance that is NaN or infinite (trec_eval's sort is then undefined)
are refused with the file and the line. Skipped comment lines and ignored trailing fields are
counted in a note. ``docs/organisation.md`` §2.

Speed: every file is first read by pyarrow's CSV reader with one separator (a tab, else a
space); when the result is the file line for line (what every TREC tool writes: one tab or one
space between fields, LF or CRLF ends, no blank, comment or indented line), that is the answer.
Any other file is normalised line by line into that shape (keeping its line numbers), then read
the same way. Text columns stay Arrow strings: no Python object per row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from metrics.errors import CampaignFormatError
from metrics.model.validation import LoadNote

__all__ = ["TrecColumns", "read_trec_columns", "RUN_FIELDS", "QRELS_FIELDS", "POOL"]

#: the allocator of every Arrow buffer the TREC readers make: the C library's, which hands back
#: the pages of the many short-lived buffers of a campaign's files, where pyarrow's default
#: pool keeps them (about 25 MB less at the peak of reading TREC DL 2019)
POOL = pa.system_memory_pool()

RUN_FIELDS = ("qid", "iter", "docid", "rank", "score", "tag")
QRELS_FIELDS = ("qid", "iter", "docid", "grade")


@dataclass(frozen=True, eq=False)
class TrecColumns:
    """The rows of one qrels or run file.

    Attributes
    ----------
    source : str
        The file, as named to the user.
    qid, docid : pyarrow.StringArray, shape (n_rows,)
        Topic and document ids, as written.
    value : ndarray, shape (n_rows,)
        The run's scores (float64) or the qrels' relevance grades (int64); all finite.
    lines : ndarray of int64, shape (n_rows,), or None
        Source line of each row; None when row ``i`` is line ``i + 1``.
    notes : list of LoadNote
        What was skipped or ignored (comment lines, fields after the run tag).
    """

    source: str
    qid: pa.Array
    docid: pa.Array
    value: np.ndarray
    lines: np.ndarray | None = None
    notes: list[LoadNote] = field(default_factory=list)

    @property
    def n_rows(self) -> int:
        return len(self.value)

    def line(self, row: int) -> int:
        """The source line of row ``row``."""
        return int(row) + 1 if self.lines is None else int(self.lines[row])

    def line_numbers(self) -> np.ndarray:
        """The source line of every row."""
        if self.lines is None:
            return np.arange(1, self.n_rows + 1, dtype=np.int64)
        return self.lines


def _separator(data: bytes) -> bytes | None:
    """The separator to try the fast path with (a tab, else a space), or None when the bytes
    hold whitespace that only the line-by-line path reads right (``\v``, ``\f``, both tabs and
    spaces, a ``\r`` that does not end a line). Single-byte searches: memchr speed."""
    if b"\x0b" in data or b"\x0c" in data:
        return None
    if b"\t" in data:
        if b" " in data:
            return None
        sep = b"\t"
    else:
        sep = b" "
    if b"\r" in data and data.count(b"\r") != data.count(b"\r\n"):
        return None
    return sep


def _fast_shape(table: pa.Table, data: bytes) -> bool:
    """True when the table parsed with one separator is the file line for line: one row per
    line (pyarrow skips blank lines), no empty field (doubled, leading or trailing
    separators), no comment line that happened to have the right number of fields."""
    lines = data.count(b"\n") + (not data.endswith(b"\n"))
    if table.num_rows != lines:
        return False
    for name in table.column_names:
        column = table.column(name)
        if column.type not in (pa.string(), pa.binary()):
            continue
        if pc.min(pc.binary_length(column, memory_pool=POOL)).as_py() == 0:
            return False
    return not pc.any(pc.starts_with(table.column("qid"), "#", memory_pool=POOL)).as_py()


def _normalise(data: bytes, want: int, kind: str, source: str
               ) -> tuple[bytes, np.ndarray, list[LoadNote]]:
    """Any file trec_eval reads -> tab-separated rows of ``want`` fields, their source lines,
    and notes on what was skipped. Raises on a line with too few fields (or, in qrels, too
    many)."""
    rows: list[bytes] = []
    lines: list[int] = []
    comments = extra = 0
    first_comment = first_extra = 0
    for number, raw in enumerate(data.split(b"\n"), start=1):
        cells = raw.split()
        if not cells:
            continue
        if cells[0][:1] == b"#":
            comments += 1
            first_comment = first_comment or number
            continue
        if len(cells) != want:
            if len(cells) < want or kind == "qrels":
                names = " ".join(RUN_FIELDS if kind == "run" else QRELS_FIELDS)
                more = " (trec_eval refuses a field after the relevance too)" \
                    if kind == "qrels" and len(cells) > want else ""
                raise CampaignFormatError(
                    source, f"expected {want} whitespace-separated fields ({names}), found "
                    f"{len(cells)}{more}", number)
            extra += 1
            first_extra = first_extra or number
            cells = cells[:want]
        if kind == "qrels" and cells[3][:1] == b"+":  # +2 is 2 (pyarrow's integers take no +)
            cells[3] = cells[3][1:]
        rows.append(b"\t".join(cells))
        lines.append(number)
    notes = []
    if comments:
        notes.append(LoadNote(source, f"{comments} comment line(s) (starting with #) skipped",
                              first_comment))
    if extra:
        notes.append(LoadNote(source, f"{extra} line(s) with fields after the run tag: the "
                              "extra fields ignored, as trec_eval ignores them", first_extra))
    return b"\n".join(rows), np.asarray(lines, dtype=np.int64), notes


def _parse(data: bytes, sep: bytes, kind: str) -> pa.Table:
    """pyarrow's CSV reader with one separator and no quoting: ids as strings, the score
    (float64) or grade (int64) as numbers, the other fields as raw bytes (checked, not kept)."""
    names = list(RUN_FIELDS if kind == "run" else QRELS_FIELDS)
    types = {n: pa.binary() for n in names}
    types.update({"qid": pa.string(), "docid": pa.string()})
    types.update({"score": pa.float64()} if kind == "run" else {"grade": pa.int64()})
    return pacsv.read_csv(
        pa.BufferReader(data),  # the bytes read in place, as one block: no copy, one chunk
        read_options=pacsv.ReadOptions(column_names=names, use_threads=False,
                                       block_size=min(max(len(data), 1 << 20), 1 << 30)),
        parse_options=pacsv.ParseOptions(delimiter=sep.decode(), quote_char=False,
                                         double_quote=False, escape_char=False),
        convert_options=pacsv.ConvertOptions(
            column_types=types, null_values=[], strings_can_be_null=False,
            quoted_strings_can_be_null=False),
        memory_pool=POOL)


#: what pyarrow reads as a number (Python's float() and int() also take ``1_000``)
_NUMBER = {"run": re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan|infinity)",
                             re.IGNORECASE),
           "qrels": re.compile(r"-?\d+")}


def _bad_value(text: bytes, lines: np.ndarray, kind: str, source: str) -> CampaignFormatError:
    """The first row whose score / grade is not a number (only on bad input)."""
    col = 4 if kind == "run" else 3
    for row, raw in enumerate(text.split(b"\n")):
        cell = raw.split(b"\t")[col].decode("utf-8", errors="replace")
        if not _NUMBER[kind].fullmatch(cell):
            what = (f"score {cell!r} is not a number" if kind == "run"
                    else f"relevance grade {cell!r} is not a whole number")
            return CampaignFormatError(source, what, int(lines[row]))
    return CampaignFormatError(source, f"cannot read the file as TREC {kind}")


def read_trec_columns(data: bytes, kind: str, source: str) -> TrecColumns:
    """The rows of a qrels (``kind="qrels"``) or run (``kind="run"``) file's bytes.

    Raises
    ------
    CampaignFormatError
        Naming ``source`` and the line: an empty file (or only comments), a line with too few
        fields (a qrels line with too many), a score that is not a finite number, a grade that
        is not a whole number.
    """
    want = len(RUN_FIELDS if kind == "run" else QRELS_FIELDS)
    sep = _separator(data)
    table = None
    lines: np.ndarray | None = None
    notes: list[LoadNote] = []
    if sep is not None:
        try:
            table = _parse(data, sep, kind)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            table = None  # a field count, a number or the encoding: the slow path names it
        if table is not None and not _fast_shape(table, data):
            table = None
    if table is None:
        text, lines, notes = _normalise(data, want, kind, source)
        if not text:
            raise CampaignFormatError(source, "file is empty" if not notes else
                                      "file holds only comment lines")
        try:
            text.decode("utf-8")
        except UnicodeDecodeError:
            text = text.decode("utf-8", errors="replace").encode()
            notes.append(LoadNote(source, "bytes that are not UTF-8 read as U+FFFD"))
        try:
            table = _parse(text, b"\t", kind)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            raise _bad_value(text, lines, kind, source) from None
    if table.num_rows == 0:
        raise CampaignFormatError(source, "file is empty")
    value = table.column("score" if kind == "run" else "grade").to_numpy()
    if kind == "run":
        bad = ~np.isfinite(value)
        if bad.any():
            row = int(np.flatnonzero(bad)[0])
            raise CampaignFormatError(
                source, f"score {float(value[row])} is not a finite number ({int(bad.sum())} "
                "such line(s); trec_eval cannot order them)",
                row + 1 if lines is None else int(lines[row]))
    return TrecColumns(source=source, qid=table.column("qid").combine_chunks(POOL),
                       docid=table.column("docid").combine_chunks(POOL), value=value, lines=lines,
                       notes=notes)
