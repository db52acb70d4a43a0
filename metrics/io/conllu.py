"""Token tagging campaigns: a gold CoNLL-U treebank and induced taggings aligned with it.

(Size: about 400 lines: one format's reader, its alignment of runs with the treebank and
its messages.)

Part-of-speech (or sense) induction is evaluated on a tagged corpus: every token has a gold tag
and an induced cluster. This reader turns such a corpus into a
:class:`~metrics.model.campaign.Campaign`
whose items are the tokens, whose gold classes are the gold tags and whose clusters are the
induced ones, and which also carries each token's **word type** (``Campaign.item_type``), so that
the type-level measures of :mod:`metrics.measures.typelevel` (Reichart, Abend and Rappoport, CoNLL
2010)
and the token-level ones work on the same campaign (``docs/type-level.md``).

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.build import RawClustering, build_campaign
from metrics.io.source import as_node
from metrics.io.text import read_text, strip_extensions
from metrics.model.campaign import Campaign
from metrics.model.validation import LoadNote

__all__ = ["ConlluOptions", "Tokens", "looks_like_conllu", "read_tokens", "load_conllu_campaign",
           "OPTION_KEYS", "OPTION_TYPES", "TOPIC_UNITS", "TAGSETS"]

TAGSETS: tuple[str, ...] = ("upos", "xpos")
TOPIC_UNITS: tuple[str, ...] = ("corpus", "genre", "document")
#: the campaign.toml keys this reader understands
OPTION_KEYS: tuple[str, ...] = ("tagset", "lowercase", "topic_unit", "slice_tokens",
                                "exclude_tags")
#: their TOML types, for the campaign.toml check of metrics.io.load
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
        return _np(self.form)

    def tag_categorical(self, keep: np.ndarray | None = None) -> pd.Categorical:
        """The tags (of the tokens in ``keep``) as a pandas Categorical, coded by pyarrow."""
        tags = self.tag if keep is None else self.tag.filter(pa.array(keep))
        enc = pc.dictionary_encode(tags)
        return pd.Categorical.from_codes(_np(enc.indices).astype(np.int64),
                                         categories=_np(enc.dictionary))


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


def _np(arr: pa.Array) -> np.ndarray:
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
    tabs = _np(pc.count_substring(lines, "\t"))
    blank = _np(pc.equal(pc.binary_length(lines), 0))
    maybe = np.flatnonzero(~blank & (tabs == 0))  # lines of spaces only are blank too
    if maybe.size:
        sub = lines.take(pa.array(maybe))
        blank[maybe] = _np(pc.equal(pc.utf8_trim_whitespace(sub), ""))
    # a comment starts with "#"; in word<TAB>cluster files "#<TAB>7" is the token "#"
    hashed = _np(pc.starts_with(lines, "#")) & ~blank
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
        multi = _np(pc.match_substring(ids, "-"))
        empty = _np(pc.match_substring(ids, "."))
        keep = ~multi & ~empty
        digits = _np(pc.utf8_is_digit(ids))
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
    no_tag = _np(pc.is_in(tag_a, value_set=pa.array(["", "_"])))
    if no_tag.any():
        at = int(np.flatnonzero(no_tag)[0])
        raise CampaignFormatError(path, f"token {form_a[at].as_py()!r} has no tag",
                                  int(tok_lineno[at]))
    sent_codes, sent_uniq = pd.factorize(tok_sent, sort=True)
    # sentence ids: a "# sent_id = X" comment in the block of the sentence
    ids_out = np.full(sent_uniq.size, None, dtype=object)
    com_idx = np.flatnonzero(comment)
    com_lines = lines.take(pa.array(com_idx))
    sid_mask = _np(pc.match_substring_regex(com_lines, r"^#\s*sent_id\s*="))
    is_sid = np.zeros(comment.size, dtype=bool)
    is_sid[com_idx[sid_mask]] = True
    if is_sid.any():
        sid_lines = com_lines.filter(pa.array(sid_mask))
        sid_val = _np(pc.utf8_trim_whitespace(
            pc.replace_substring_regex(sid_lines, r"^#\s*sent_id\s*=", "")))
        sid_key = sent_key[is_sid]
        pos = np.searchsorted(sent_uniq, sid_key)
        ok = (pos < sent_uniq.size) & (sent_uniq[np.minimum(pos, sent_uniq.size - 1)] == sid_key)
        ids_out[pos[ok]] = sid_val[ok]
    return Tokens(str(path), form_a, tag_a, sent_codes.astype(np.int64), tok_lineno, ids_out,
                  "conllu" if first == 9 else "pairs", notes)


def _check_aligned(gold: Tokens, run: Tokens, lowercase: bool) -> None:
    """Raise at the first token where ``run`` differs from ``gold`` (form or sentence break)."""
    n = min(gold.n_tokens, run.n_tokens)
    g, r = gold.form.slice(0, n), run.form.slice(0, n)
    if lowercase:
        g, r = pc.utf8_lower(g), pc.utf8_lower(r)
    differ = ~_np(pc.equal(g, r))
    diff = np.flatnonzero(differ | (gold.sent[:n] != run.sent[:n]))
    if diff.size:
        k = int(diff[0])
        rf, gf = run.form[k].as_py(), gold.form[k].as_py()
        what = (f"run has {rf!r}, the gold has {gf!r}" if differ[k]
                else f"sentence break differs at {rf!r}")
        raise CampaignFormatError(
            run.source, f"token {k + 1} does not match the gold: {what} ({gold.source}, line "
            f"{int(gold.line[k])})", int(run.line[k]))
    if run.n_tokens != gold.n_tokens:
        if run.n_tokens < gold.n_tokens:
            raise CampaignFormatError(
                run.source, f"run ends after {run.n_tokens} tokens; the gold has "
                f"{gold.n_tokens} (next gold token {gold.form[n].as_py()!r}, {gold.source}, line "
                f"{int(gold.line[n])})")
        raise CampaignFormatError(
            run.source, f"run has {run.n_tokens} tokens, the gold {gold.n_tokens}: extra token "
            f"{run.form[n].as_py()!r}", int(run.line[n]))


def _sentence_topics(gold: Tokens, opts: ConlluOptions) -> np.ndarray:
    """Topic id of each sentence, per ``opts.topic_unit``."""
    n_sent = gold.sent_ids.size
    if opts.topic_unit == "corpus":
        return np.full(n_sent, "corpus", dtype=object)
    missing = np.flatnonzero(pd.isna(gold.sent_ids))
    if missing.size:
        first_tok = np.searchsorted(gold.sent, missing[0])
        raise CampaignFormatError(
            gold.source, f"sentence without a '# sent_id' comment; topic_unit = "
            f"{opts.topic_unit!r} reads the topic from it", int(gold.line[first_tok]))
    ids = pd.Series(gold.sent_ids, dtype=object)
    doc = ids.str.replace(r"-\d+$", "", regex=True)
    if opts.topic_unit == "document":
        return doc.to_numpy(dtype=object)
    genre = ids.str.split("-", n=1).str[0]
    if not opts.slice_tokens:
        return genre.to_numpy(dtype=object)
    # cut each genre, at document boundaries, into slices of about slice_tokens tokens
    sent_len = np.bincount(gold.sent, minlength=n_sent)
    frame = pd.DataFrame({"genre": genre, "doc": doc, "n": sent_len})
    docs = frame.groupby(["genre", "doc"], sort=False)["n"].sum().reset_index()
    before = docs.groupby("genre", sort=False)["n"].cumsum() - docs["n"]
    docs["slice"] = (before // opts.slice_tokens + 1).astype(int)
    docs["topic"] = docs["genre"] + "/" + docs["slice"].map("{:02d}".format)
    lookup = dict(zip(zip(docs["genre"], docs["doc"], strict=True), docs["topic"], strict=True))
    # once per sentence
    return np.array([lookup[k] for k in zip(genre, doc, strict=True)], dtype=object)


def load_conllu_campaign(
    gold_path: object,
    run_paths: Sequence[object],
    options: ConlluOptions | Mapping[str, object] | None = None,
    name: str | None = None,
    source: str = "",
    testbed_rule=None,
    notes: list[LoadNote] | None = None,
    run_names: Sequence[str] | None = None,
) -> Campaign:
    """Load a token tagging campaign: a CoNLL-U gold and runs aligned with it token by token.

    Items are the (kept) tokens, with ids ``SSSSS-TTT`` (sentence, token position, zero-padded:
    sorted ids are in corpus order); ``Campaign.item_type`` codes each token's word type
    (``Campaign.type_names``). With ``topic_unit = "genre"`` and no test-bed rule, the genre of
    each topic is its test bed.

    Raises
    ------
    CampaignFormatError
        For a file that cannot be read, or a run whose tokens differ from the gold's.
    """
    opts = options if isinstance(options, ConlluOptions) else ConlluOptions.from_mapping(
        options, str(gold_path))
    notes = list(notes or [])
    gold = read_tokens(gold_path, opts.tagset)
    if gold.layout != "conllu":
        raise CampaignFormatError(gold_path, "the gold must be CoNLL-U (10 tab-separated columns)")
    keep = np.ones(gold.n_tokens, dtype=bool)
    if opts.exclude_tags:
        keep = ~_np(pc.is_in(gold.tag, value_set=pa.array(list(opts.exclude_tags))))
        gold.notes.append(LoadNote(gold.source, f"{int((~keep).sum())} token(s) tagged "
                                   f"{', '.join(opts.exclude_tags)} left out of the evaluation"))
    sent_topic = _sentence_topics(gold, opts)
    kept = np.flatnonzero(keep)
    pos_in_sent = kept - np.searchsorted(gold.sent, gold.sent[kept])
    # ids "SSSSS-TTT": zero-padded, so sorted ids are in corpus order (categories made sorted)
    item_ids = _np(pc.binary_join_element_wise(
        pc.utf8_lpad(pc.cast(pa.array(gold.sent[kept]), pa.string()), 5, "0"),
        pc.utf8_lpad(pc.cast(pa.array(pos_in_sent), pa.string()), 3, "0"), "-"))
    item = pd.Categorical.from_codes(np.arange(kept.size), categories=item_ids)
    types = pc.utf8_lower(gold.form) if opts.lowercase else gold.form
    s_codes, s_names = pd.factorize(sent_topic, sort=True)
    topic = pd.Categorical.from_codes(s_codes[gold.sent[kept]], categories=s_names)
    counts = np.bincount(topic.codes, minlength=len(s_names))
    empty = [str(t) for t in topic.categories[counts == 0]]
    if empty:  # every token excluded: no word type to evaluate, so no topic (not a perfect one)
        topic = topic.remove_unused_categories()
        gold.notes.append(LoadNote(gold.source, f"{len(empty)} topic(s) with no token left after "
                                   f"excluding {', '.join(opts.exclude_tags)} dropped: "
                                   f"{', '.join(empty[:5])}{' ...' if len(empty) > 5 else ''}"))
    line = gold.line[kept]
    raw_gold = RawClustering(gold.source, topic, item, gold.tag_categorical(keep), line=line,
                             notes=gold.notes)
    raws: dict[str, RawClustering] = {}
    for i, p in enumerate(run_paths):
        run = read_tokens(p, opts.tagset)
        _check_aligned(gold, run, opts.lowercase)
        sys_name = run_names[i] if run_names else strip_extensions(as_node(p))
        sys_name = sys_name[: -len(".conllu")] if sys_name.endswith(".conllu") else sys_name
        if sys_name in raws:
            raise CampaignFormatError(p, f"system {sys_name!r} is given twice")
        raws[sys_name] = RawClustering(run.source, topic, item, run.tag_categorical(keep),
                                       line=run.line[keep], notes=run.notes)
    if not raws:
        raise UnanimityError("give at least one run file")
    if testbed_rule is None and opts.topic_unit == "genre":
        testbed_rule = r"^([^/]+)"
    camp = build_campaign(raw_gold, raws, name=name or "campaign",
                          source=source or str(gold_path), testbed_rule=testbed_rule, notes=notes)
    # word type of each campaign item (items are sorted by topic, then id)
    enc = pc.dictionary_encode(types.filter(pa.array(keep)))
    type_codes = _np(enc.indices).astype(np.int32)
    # the campaign sorts items by topic, then id; ids sort in corpus order
    where = np.argsort(topic.codes, kind="stable")
    if not np.array_equal(camp.item_ids, item_ids[where]):  # guards the order assumed here
        raise UnanimityError(f"{gold.source}: internal error: items out of corpus order")
    camp.item_type = type_codes[where]
    camp.type_names = _np(enc.dictionary).astype(object)
    return camp

