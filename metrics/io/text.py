"""Reading campaign files as text: gzip, encodings, and delimited tables with line numbers.

Every reader goes through :func:`read_text`, so truncated gzip files, undecodable bytes and
empty files get the same clear errors, and an encoding fallback is always reported.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from metrics.errors import CampaignFormatError
from metrics.io.source import Node, as_node
from metrics.model.validation import LoadNote

__all__ = [
    "read_bytes", "read_text", "read_delimited", "parser_error", "strict_utf8",
    "strip_extensions",
    "check_encoding", "utf16_problem",
]

_PANDAS_LINE = re.compile(r"line (\d+)")


def strip_extensions(path: Path | Node) -> str:
    """``runs/best.tsv.gz`` -> ``best``: the file name without data and compression suffixes."""
    name = path.name
    for suffix in (".gz", ".tsv", ".csv", ".txt", ".parquet", ".key", ".xml", ".clust"):
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
    return name


def read_bytes(path: object) -> bytes:
    """The file's bytes, decompressed when it is gzip (by magic number, not by name).

    ``path`` is a :class:`~metrics.io.source.Node` or a path; either way the read goes through
    the loader boundary (regular files only, within the decompression budget).
    """
    return as_node(path).read_bytes()


def check_encoding(where: object, encoding: object) -> str:
    """``encoding`` when it names a text encoding Python knows, else a clear error."""
    if not isinstance(encoding, str) or not encoding.strip():
        raise CampaignFormatError(where, f"encoding {encoding!r} is not an encoding name")
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise CampaignFormatError(where, f"unknown encoding {encoding!r} (e.g. utf-8, latin-1)"
                                  ) from None
    if not getattr(info, "_is_text_encoding", True):
        raise CampaignFormatError(where, f"{encoding!r} is not a text encoding (e.g. utf-8, "
                                  "latin-1)")
    return encoding


def utf16_problem(data: bytes) -> str | None:
    """The message for a UTF-16 (or UTF-32) file, which no campaign format uses; else None."""
    le = len(data) >= 4 and data[1:4:2] == b"\x00\x00" and data[0] and data[2]
    be = len(data) >= 4 and data[0:4:2] == b"\x00\x00" and data[1] and data[3]
    if data[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) or le or be:
        return "file is UTF-16 (or UTF-32) encoded; save it as UTF-8"
    return None


def strict_utf8(where: object, data: bytes) -> str:
    """``data`` decoded as UTF-8 (a byte-order mark dropped), or an error naming the first bad
    byte and its line (files that have no Latin-1 fallback: test beds, reported tables)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CampaignFormatError(where, f"not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                                  data[: exc.start].count(b"\n") + 1) from None


def read_text(path: object, notes: list[LoadNote], encoding: str = "utf-8") -> str:
    """Decode a file; when ``encoding`` fails, fall back to Latin-1 and say so in ``notes``.

    Line ends are made ``\\n`` (``\\r\\n`` and a lone ``\\r`` alike), so line numbers count
    the lines a text editor shows.

    Raises
    ------
    CampaignFormatError
        When the file is empty (after decompression), UTF-16, or the encoding is unknown.
    """
    node = as_node(path)
    check_encoding(node, encoding)
    data = node.read_bytes()
    if not data.strip():
        raise CampaignFormatError(node, "file is empty")
    wide = utf16_problem(data)
    if wide:
        raise CampaignFormatError(node, wide)
    if data[:3] == b"\xef\xbb\xbf":  # UTF-8 byte-order mark
        data = data[3:]
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        notes.append(
            LoadNote(
                str(node),
                f"not valid {encoding} (byte 0x{data[exc.start]:02x}); read as Latin-1 instead",
                line,
            )
        )
        text = data.decode("latin-1")
    else:
        if codecs.lookup(encoding).name == "iso8859-1" and not data.isascii():
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                pass
            else:
                notes.append(LoadNote(
                    str(node), "read as Latin-1 (the format's encoding) but the file is valid "
                    "UTF-8: if it is UTF-8, set encoding = \"utf-8\" in campaign.toml",
                ))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


#: a line that may be blank (pandas skips lines of only spaces and tabs, unless a tab is the
#: delimiter); only when one exists are line numbers recomputed line by line
_MAYBE_BLANK = re.compile(r"\n[ \t\r]*\n")  # two patterns: "(?:^|\n)..." scans 7x slower
_LEADING_BLANK = re.compile(r"[ \t\r]*\n")


def _line_starts(text: str, sep: str | None = None) -> np.ndarray:
    """Physical line (1-based) where each record starts: lines split on newlines outside quotes.

    A quote counts when it opens or closes a field (at a field's start or end: next to ``sep``,
    a newline or the text's ends); a newline is inside a quoted field when an odd number of such
    quotes precede it. Quotes inside a field (``j"aguar``, or doubled ``""``) do not count, as
    for pandas. ``sep=None`` ignores quotes. Vectorised over the encoded bytes.
    """
    arr = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    nl = np.flatnonzero(arr == 10)
    outside = np.ones(nl.size, dtype=bool)
    if sep is not None and '"' in text:
        q = np.flatnonzero(arr == 34)
        bounds = np.frombuffer(("\n" + sep).encode("utf-8")[:2], dtype=np.uint8)
        before = np.isin(arr[np.maximum(q - 1, 0)], bounds) | (q == 0)
        after = np.isin(arr[np.minimum(q + 1, arr.size - 1)], bounds) | (q == arr.size - 1)
        q = q[before | after]
        outside = np.searchsorted(q, nl) % 2 == 0
    return np.concatenate([[1], np.flatnonzero(outside) + 2]).astype(np.int64)


def _row_lines(text: str, sep: str, rows: int = 0) -> np.ndarray:
    """1-based line numbers of the lines pandas reads as rows (the header included).

    pandas skips blank lines: empty, or only spaces and tabs (``\r`` included) without the
    delimiter. Lines are split on ``\n`` only, as pandas does (not on form feeds); a record whose
    quoted field holds a newline starts on its first line. When quotes cannot be told apart and
    fewer than ``rows`` records are found, the quotes are ignored.
    """
    phys = text.split("\n")
    keep = np.fromiter((bool(ln.strip(" \t\r")) or sep in ln for ln in phys), bool, len(phys))
    starts = _line_starts(text, sep)
    out = starts[keep[starts - 1]]
    if out.size < rows:
        starts = _line_starts(text, None)
        out = starts[keep[starts - 1]]
    return out


def _pandas_line(text: str, message: str, sep: str) -> int | None:
    """The physical line of a pandas parser error (pandas counts records, not lines)."""
    m = _PANDAS_LINE.search(message)
    record = int(m.group(1)) if m else None
    if record is None:
        m = re.search(r"starting at row (\d+)", message)  # 0-based
        record = int(m.group(1)) + 1 if m else None
    if record is None:
        return None
    starts = _line_starts(text, sep)
    return int(starts[min(record, starts.size) - 1])


def parser_error(path: object, text: str, sep: str, exc: Exception) -> CampaignFormatError:
    """The error to raise for a pandas parser error on ``text``: a sentence naming the file, the
    physical line and the problem (never the parser's own wording, e.g. "EOF inside string
    starting at row 3", which counts records from 0 and names no file)."""
    message = str(exc)
    saw = re.search(r"Expected (\d+) fields .* saw (\d+)", message)
    if "EOF inside string" in message:
        problem = "a quoted field is never closed (a \" without its pair)"
    elif saw:
        problem = f"wrong number of columns: expected {saw.group(1)}, found {saw.group(2)}"
    else:
        problem = ("cannot be read as a table (check the separator and the quotes \" of this "
                   "line)")
    return CampaignFormatError(path, problem, _pandas_line(text, message, sep))


def _nth(lines: np.ndarray, i: int) -> int | None:
    return int(lines[i]) if i < lines.size else None


def read_delimited(
    path: object,
    text: str,
    sep: str,
    columns: list[str] | None,
    required: Sequence[str],
    optional: tuple[str, ...] = (),
) -> tuple[pd.DataFrame, np.ndarray]:
    """Parse a delimited table whose every field is text, checking its shape line by line.

    Parameters
    ----------
    path : Node or Path
        For error messages.
    text : str
        The decoded file.
    sep : str
        Field delimiter.
    columns : list of str or None
        Column names when the file has no header; None to read the header.
    required, optional : column names
        The header must hold every required column; other columns are an error.

    Returns
    -------
    frame : DataFrame of str
    lines : ndarray of int64
        Source line of each row (for later messages about rows).
    """
    header = None if columns is not None else 0
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=sep, header=header, names=columns, dtype=object,
            keep_default_na=False, na_filter=False, quotechar='"', skip_blank_lines=True,
            engine="c",
        )
    except pd.errors.ParserError as exc:
        raise parser_error(path, text, sep, exc) from None
    except pd.errors.EmptyDataError:
        raise CampaignFormatError(path, "file is empty") from None
    if columns is None:
        frame.columns = [str(c).strip().lower() for c in frame.columns]
        missing = [c for c in required if c not in frame.columns]
        unknown = [c for c in frame.columns if c not in required and c not in optional]
        if missing or unknown:
            want = ", ".join([*required, *(f"[{c}]" for c in optional)])
            raise CampaignFormatError(
                path, f"header has columns {', '.join(frame.columns)}; expected {want}",
                int(_row_lines(text, sep)[0]),
            )
    skip = 1 if header is not None else 0
    # Rows with too few fields come back with empty trailing cells: find the first one.
    if len(frame):
        short = np.zeros(len(frame), dtype=bool)
        for col in required:
            short |= (frame[col].to_numpy() == "")
        if short.any():
            row = int(np.flatnonzero(short)[0])
            empty = [c for c in required if frame[c].iat[row] == ""]
            raise CampaignFormatError(
                path,
                f"missing value for {', '.join(empty)} (wrong number of columns or empty field)",
                _nth(_row_lines(text, sep, len(frame) + skip), row + skip),
            )
    # Line numbers are a plain range for files without blank lines (the common case, fast);
    # with blank lines (leading, inside, or of spaces only) they are counted line by line.
    n_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    if _LEADING_BLANK.match(text) or _MAYBE_BLANK.search(text) or n_lines != len(frame) + skip:
        lines = np.asarray(_row_lines(text, sep, len(frame) + skip)[skip:][: len(frame)],
                           dtype=np.int64)
        if lines.size < len(frame):  # never seen; a wrong line beats a crash
            last = int(lines[-1]) if lines.size else 1
            lines = np.concatenate([lines, np.full(len(frame) - lines.size, last, np.int64)])
    else:
        lines = np.arange(1 + skip, 1 + skip + len(frame), dtype=np.int64)
    return frame, lines
