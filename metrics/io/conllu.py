"""Token tagging campaigns: a gold CoNLL-U treebank and induced taggings aligned with it.

Part-of-speech (or sense) induction is evaluated on a tagged corpus: every token has a gold tag
and an induced cluster. This reader turns such a corpus into a
:class:`~metrics.model.campaign.Campaign`
whose items are the tokens, whose gold classes are the gold tags and whose clusters are the
induced ones, and which also carries each token's **word type** (``Campaign.item_type``), so that
the type-level measures of :mod:`metrics.measures.typelevel` (Reichart, Abend and Rappoport, CoNLL
2010)
and the token-level ones work on the same campaign (``docs/type-level.md``). The campaign is
assembled by :mod:`metrics.io.conllu_campaign`.

Files
-----
* the **gold**: CoNLL-U (``ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC``, sentences
  separated by blank lines, comments start with ``#``); the tag column is ``UPOS`` or ``XPOS``
  (option ``tagset``). Multi-word token lines (``3-4``) and empty nodes (``5.1``) are not tokens
  and are skipped (counted in the report).
* a **run**: CoNLL-U with the cluster id in the same tag column, or the usual induction output,
  ``word<TAB>cluster`` one token a line with a blank line between sentences. A run must have
  exactly the gold's token sequence (same forms, same sentence breaks); the first difference is
  an error naming both files and lines.

Options (``campaign.toml`` keys, or ``reader_options`` of :func:`metrics.io.load`)
-------------------------------------------------------------------------------------
``tagset``        ``upos`` (default) or ``xpos``.
``lowercase``     word types are the lower-cased forms (default false: the forms as written).
``topic_unit``    ``corpus`` (default: one topic), ``genre`` (the part of the sentence id before
                  its first ``-``: the five genres of the English Web Treebank) or ``document``
                  (the sentence id without its trailing ``-NNNN``).
``slice_tokens``  with ``genre``: cut each genre, at document boundaries, into consecutive
                  slices of about this many tokens, topics ``genre/01``, ``genre/02``, ...
``exclude_tags``  gold tags whose tokens are left out of the evaluation (e.g. ``["PUNCT"]``,
                  as the paper leaves out punctuation); the count is in the report.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.source import as_node
from metrics.io.text import read_text
from metrics.model.validation import LoadNote

__all__ = ["ConlluOptions", "Tokens", "looks_like_conllu", "read_tokens", "np_array",
           "OPTION_KEYS", "OPTION_TYPES", "TOPIC_UNITS", "TAGSETS"]

TAGSETS: tuple[str, ...] = ("upos", "xpos")
TOPIC_UNITS: tuple[str, ...] = ("corpus", "genre", "document")
#: the campaign.toml keys this reader understands
OPTION_KEYS: tuple[str, ...] = ("tagset", "lowercase", "topic_unit", "slice_tokens",
                                "exclude_tags")
#: their TOML types, for the campaign.toml check of metrics.io.folders
OPTION_TYPES: dict[str, type] = {"tagset": str, "lowercase": bool, "topic_unit": str,
                                 "slice_tokens": int, "exclude_tags": list}
_TAG_COLUMN = {"upos": 3, "xpos": 4}


@dataclass(frozen=True)
class ConlluOptions:
    """How to read a token tagging campaign (see the module docstring)."""

    tagset: str = "upos"
    lowercase: bool = False
    topic_unit: str = "corpus"
    slice_tokens: int = 0
    exclude_tags: tuple[str, ...] = ()

    @classmethod
    def from_mapping(cls, values: Mapping[str, object] | None, source: str = "") -> ConlluOptions:
        """Options from a mapping (``campaign.toml`` keys); unknown or bad values raise."""
        values = {k: v for k, v in dict(values or {}).items() if v is not None}
        where = f"{source}: " if source else ""
        unknown = sorted(set(values) - set(OPTION_KEYS))
        if unknown:
            raise UnanimityError(f"{where}unknown conllu option(s) {', '.join(unknown)}; "
                                 f"known: {', '.join(OPTION_KEYS)}")
        tagset = str(values.get("tagset", "upos")).lower()
        if tagset not in TAGSETS:
            raise UnanimityError(f"{where}tagset {tagset!r} is none of {', '.join(TAGSETS)}")
        unit = str(values.get("topic_unit", "corpus")).lower()
        if unit not in TOPIC_UNITS:
            raise UnanimityError(f"{where}topic_unit {unit!r} is none of {', '.join(TOPIC_UNITS)}")
        lower = values.get("lowercase", False)
        if not isinstance(lower, bool):
            raise UnanimityError(f"{where}lowercase must be true or false, got {lower!r}")
        raw_slice = values.get("slice_tokens", 0)
        try:
            if not isinstance(raw_slice, (int, float, str)):
                raise TypeError(raw_slice)
            slice_tokens = int(raw_slice)
        except (TypeError, ValueError):
            raise UnanimityError(f"{where}slice_tokens must be a whole number") from None
        if slice_tokens < 0 or (slice_tokens and unit != "genre"):
            raise UnanimityError(f"{where}slice_tokens needs topic_unit = 'genre' and a "
                                 "positive number")
        excl = values.get("exclude_tags", ())
        tags = [excl] if isinstance(excl, str) else excl
        if not isinstance(tags, (list, tuple)):
            raise UnanimityError(f"{where}exclude_tags must be a tag or a list of tags")
        return cls(tagset, lower, unit, slice_tokens, tuple(str(t) for t in tags))


@dataclass
class Tokens:
    """A token stream read from one file.

    Attributes
    ----------
    source : str
        The file.
    form, tag : pyarrow string Array, shape (n_tokens,)
        Token form and tag (gold tag, or induced cluster id); ``forms()`` gives a NumPy copy.
    sent : ndarray of int64, shape (n_tokens,)
        Sentence number (0-based, in file order) of each token.
    line : ndarray of int64, shape (n_tokens,)
        1-based line of each token in the file.
    sent_ids : ndarray of object, shape (n_sentences,)
        ``# sent_id`` of each sentence, None where there is none.
    layout : str
        ``conllu`` or ``pairs`` (``word<TAB>cluster``).
    notes : list of LoadNote
        What the reader skipped.
    """

    source: str
    form: pa.Array
    tag: pa.Array
    sent: np.ndarray
    line: np.ndarray
    sent_ids: np.ndarray
    layout: str = "conllu"
    notes: list[LoadNote] = field(default_factory=list)

    @property
    def n_tokens(self) -> int:
        return len(self.form)

    def forms(self) -> np.ndarray:
        """The token forms as a NumPy object array."""
        return np_array(self.form)

    def tag_categorical(self, keep: np.ndarray | None = None) -> pd.Categorical:
        """The tags (of the tokens in ``keep``) as a pandas Categorical, coded by pyarrow."""
        tags = self.tag if keep is None else self.tag.filter(pa.array(keep))
        enc = pc.dictionary_encode(tags)
        return pd.Categorical.from_codes(np_array(enc.indices).astype(np.int64),
                                         categories=np_array(enc.dictionary))


def looks_like_conllu(first_line: str) -> bool:
    """True for a CoNLL-U comment (``# sent_id``, ``# newdoc``, ``# text``) or a 10-column token
    line."""
    s = first_line.lstrip("\ufeff")
    if s.startswith("#"):
        key = s[1:].split("=", 1)[0].strip()
        return key in ("sent_id", "newdoc id", "newdoc", "text", "newpar id", "global.columns",
                       "newpar")
    cells = s.rstrip("\r\n").split("\t")
    return len(cells) == 10 and cells[0].split("-")[0].split(".")[0].isdigit()


def np_array(arr: pa.Array) -> np.ndarray:
    """An Arrow array as numpy (copied when Arrow cannot share it)."""
    return arr.to_numpy(zero_copy_only=False)


def read_tokens(path: object, tag_column: str = "upos") -> Tokens:
    """Read a CoNLL-U file, or a ``word<TAB>tag`` file, into a :class:`Tokens` stream.

    The layout is decided by the first token line: 10 tab-separated columns make CoNLL-U (the
    tag in ``UPOS`` or ``XPOS``, per ``tag_column``), 2 make ``word<TAB>tag``. Every token line
    must then have that many columns. The lines are split and tested with ``pyarrow.compute``
    (vectorised, no Python loop over lines).

    Raises
    ------
    CampaignFormatError
        Naming the file and line, for a line with the wrong number of columns, a bad token id, an
        empty tag or a file without tokens.
    """
    path = as_node(path)
    notes: list[LoadNote] = []
    text = read_text(path, notes)
    lines = pc.list_flatten(pc.split_pattern(pa.array([text]), "\n"))
    if "\r" in text:
        lines = pc.utf8_rtrim(lines, "\r")
    lineno = np.arange(1, len(lines) + 1, dtype=np.int64)
    tabs = np_array(pc.count_substring(lines, "\t"))
    blank = np_array(pc.equal(pc.binary_length(lines), 0))
    maybe = np.flatnonzero(~blank & (tabs == 0))  # lines of spaces only are blank too
    if maybe.size:
        sub = lines.take(pa.array(maybe))
        blank[maybe] = np_array(pc.equal(pc.utf8_trim_whitespace(sub), ""))
    # a comment starts with "#"; in word<TAB>cluster files "#<TAB>7" is the token "#"
    hashed = np_array(pc.starts_with(lines, "#")) & ~blank
    candidates = np.flatnonzero(~blank & ~(hashed & (tabs == 0)))
    if candidates.size == 0:
        raise CampaignFormatError(path, "no token line (a token a line, blank lines between "
                                  "sentences)")
    first = int(tabs[candidates[0]])
    comment = hashed if first == 9 else hashed & (tabs == 0)
    is_tok = ~blank & ~comment
    sent_key = np.cumsum(blank)  # lines between two blank lines share a key
    n_tabs = tabs[is_tok]
    tok_lineno = lineno[is_tok]
    tok_sent = sent_key[is_tok]
    if first not in (1, 9):
        raise CampaignFormatError(
            path, f"expected 10 tab-separated CoNLL-U columns or 2 (word<TAB>cluster), found "
            f"{first + 1}", int(tok_lineno[0]))
    bad = np.flatnonzero(n_tabs != first)
    if bad.size:
        raise CampaignFormatError(
            path, f"expected {first + 1} tab-separated columns like the first token line, found "
            f"{int(n_tabs[bad[0]]) + 1}", int(tok_lineno[bad[0]]))
    cells = pc.split_pattern(lines.filter(pa.array(is_tok)), "\t")

    def column(j: int) -> pa.Array:
        return pc.list_element(cells, j)

    if first == 9:
        ids = column(0)
        multi = np_array(pc.match_substring(ids, "-"))
        empty = np_array(pc.match_substring(ids, "."))
        keep = ~multi & ~empty
        digits = np_array(pc.utf8_is_digit(ids))
        if np.any(keep & ~digits):
            at = int(np.flatnonzero(keep & ~digits)[0])
            raise CampaignFormatError(path, f"token id {ids[at].as_py()!r} is not a number",
                                      int(tok_lineno[at]))
        if multi.any() or empty.any():
            notes.append(LoadNote(str(path), f"{int(multi.sum())} multi-word token line(s) and "
                                  f"{int(empty.sum())} empty node(s) skipped: not tokens to tag"))
        sel = pa.array(keep)
        form_a = column(1).filter(sel)
        tag_a = column(_TAG_COLUMN[tag_column]).filter(sel)
        tok_lineno, tok_sent = tok_lineno[keep], tok_sent[keep]
    else:
        form_a, tag_a = column(0), column(1)
    no_tag = np_array(pc.is_in(tag_a, value_set=pa.array(["", "_"])))
    if no_tag.any():
        at = int(np.flatnonzero(no_tag)[0])
        raise CampaignFormatError(path, f"token {form_a[at].as_py()!r} has no tag",
                                  int(tok_lineno[at]))
    sent_codes, sent_uniq = pd.factorize(tok_sent, sort=True)
    # sentence ids: a "# sent_id = X" comment in the block of the sentence
    ids_out = np.full(sent_uniq.size, None, dtype=object)
    com_idx = np.flatnonzero(comment)
    com_lines = lines.take(pa.array(com_idx))
    sid_mask = np_array(pc.match_substring_regex(com_lines, r"^#\s*sent_id\s*="))
    is_sid = np.zeros(comment.size, dtype=bool)
    is_sid[com_idx[sid_mask]] = True
    if is_sid.any():
        sid_lines = com_lines.filter(pa.array(sid_mask))
        sid_val = np_array(pc.utf8_trim_whitespace(
            pc.replace_substring_regex(sid_lines, r"^#\s*sent_id\s*=", "")))
        sid_key = sent_key[is_sid]
        pos = np.searchsorted(sent_uniq, sid_key)
        ok = (pos < sent_uniq.size) & (sent_uniq[np.minimum(pos, sent_uniq.size - 1)] == sid_key)
        ids_out[pos[ok]] = sid_val[ok]
    return Tokens(str(path), form_a, tag_a, sent_codes.astype(np.int64), tok_lineno, ids_out,
                  "conllu" if first == 9 else "pairs", notes)
