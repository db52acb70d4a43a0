"""A token tagging campaign: the CoNLL-U gold and the runs aligned with it token by token.

The files, the options and the reader of one file are :mod:`metrics.io.conllu`
(``docs/type-level.md``); this module checks that every run has the gold's tokens, cuts the
corpus into topics and builds the :class:`~metrics.model.campaign.Campaign` with each token's
word type. It also declares the ``conllu`` format (:mod:`metrics.model.formats`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.io.build import RawClustering, build_campaign
from metrics.io.conllu import (
    OPTION_KEYS,
    OPTION_TYPES,
    ConlluOptions,
    Tokens,
    looks_like_conllu,
    np_array,
    read_tokens,
)
from metrics.io.format_registry import CampaignFormat, FilesRequest, FolderRequest, Probe
from metrics.io.source import Node, as_node
from metrics.io.text import strip_extensions
from metrics.model.campaign import Campaign
from metrics.model.validation import LoadNote

__all__ = ["load_conllu_campaign", "FORMAT"]


def _check_aligned(gold: Tokens, run: Tokens, lowercase: bool) -> None:
    """Raise at the first token where ``run`` differs from ``gold`` (form or sentence break)."""
    n = min(gold.n_tokens, run.n_tokens)
    g, r = gold.form.slice(0, n), run.form.slice(0, n)
    if lowercase:
        g, r = pc.utf8_lower(g), pc.utf8_lower(r)
    differ = ~np_array(pc.equal(g, r))
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
        keep = ~np_array(pc.is_in(gold.tag, value_set=pa.array(list(opts.exclude_tags))))
        gold.notes.append(LoadNote(gold.source, f"{int((~keep).sum())} token(s) tagged "
                                   f"{', '.join(opts.exclude_tags)} left out of the evaluation"))
    sent_topic = _sentence_topics(gold, opts)
    kept = np.flatnonzero(keep)
    pos_in_sent = kept - np.searchsorted(gold.sent, gold.sent[kept])
    # ids "SSSSS-TTT": zero-padded, so sorted ids are in corpus order (categories made sorted)
    item_ids = np_array(pc.binary_join_element_wise(
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
    type_codes = np_array(enc.indices).astype(np.int32)
    # the campaign sorts items by topic, then id; ids sort in corpus order
    where = np.argsort(topic.codes, kind="stable")
    if not np.array_equal(camp.item_ids, item_ids[where]):  # guards the order assumed here
        raise UnanimityError(f"{gold.source}: internal error: items out of corpus order")
    camp.item_type = type_codes[where]
    camp.type_names = np_array(enc.dictionary).astype(object)
    return camp


class _Conllu(CampaignFormat):
    """CoNLL-U by name (``*.conllu[.gz]``) or first line; runs are read with the gold."""

    config_types = OPTION_TYPES

    def detect_path(self, probe: Probe) -> bool:
        return not probe.is_dir and probe.name.endswith((".conllu", ".conllu.gz"))

    def detect_line(self, probe: Probe) -> bool:
        return looks_like_conllu(probe.first_line)

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        raise CampaignFormatError(node, "a token tagging (conllu) file is read together with its "
                                  "gold, token by token: give the campaign folder or --gold/--run")

    def load_folder(self, request: FolderRequest, gold: Node) -> Campaign:
        opts = {k: request.config[k] for k in OPTION_KEYS if k in request.config}
        opts.update({k: v for k, v in request.reader_options.items() if v is not None})
        return load_conllu_campaign(
            gold, request.runs(), opts, name=request.name, source=str(request.folder),
            testbed_rule=request.testbed_rule(), notes=request.notes)

    def load_files(self, request: FilesRequest) -> Campaign:
        return load_conllu_campaign(
            request.gold, request.runs, request.reader_options, name=request.name,
            source=request.source, testbed_rule=request.testbed_rule,
            run_names=request.run_names)


FORMAT = _Conllu()
