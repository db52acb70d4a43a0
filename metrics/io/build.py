"""From raw rows to a :class:`~metrics.model.campaign.Campaign`: coding, de-duplication, alignment.

Readers of every format produce :class:`RawClustering` objects (string columns, one row per
(topic, item, label)); :func:`build_campaign` codes them as integers, aligns each run with the
gold (``docs/guide.md#validation``) and writes the validation report. All of it is vectorised over
rows: no Python
loop over items.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import re2

from metrics.errors import CampaignFormatError, UnanimityError
from metrics.model.campaign import Campaign, Membership
from metrics.model.validation import ClusteringReport, LoadNote, ValidationReport

__all__ = [
    "RawClustering", "build_campaign", "testbeds_from_rule", "split_by_system",
    "default_testbed_rule", "REPLAB_TESTBED_RULE", "check_weights", "compile_user_regex",
]


@dataclass
class RawClustering:
    """A clustering as read from a file, before coding.

    Attributes
    ----------
    source : str
        File (or folder) it came from.
    topic, item, label : array-like of str, shape (n_rows,)
        One row per (topic, item, label); an item with several labels has several rows.
    weight : ndarray of float64 or None
        Per-row weight, NaN where none was given.
    line : ndarray of int64 or None
        Source line of each row, for messages.
    system : array-like of str or None
        System of each row, for files that hold several systems.
    notes : list of LoadNote
        What the reader noticed.
    empty_clusters : int
        Clusters declared without items (ignored).
    """

    source: str
    topic: object
    item: object
    label: object
    weight: np.ndarray | None = None
    line: np.ndarray | None = None
    system: object | None = None
    notes: list[LoadNote] = field(default_factory=list)
    empty_clusters: int = 0

    def __len__(self) -> int:
        return len(self.topic)  # type: ignore[arg-type]

    def take(self, rows: np.ndarray) -> RawClustering:
        """The rows at ``rows`` (integer indices)."""

        def pick(col):
            if col is None:
                return None
            if isinstance(col, pd.Categorical):
                return col.take(rows)
            return np.asarray(col)[rows]

        return RawClustering(
            self.source, pick(self.topic), pick(self.item), pick(self.label),
            pick(self.weight), pick(self.line), None, [], 0,
        )


def check_weights(where: object, weight: np.ndarray, lines: np.ndarray | None) -> None:
    """Refuse weights that are infinite or negative (NaN means "no weight" and passes).

    A weight is a degree of membership (SemEval-2013 graded senses): a finite number >= 0.
    """
    bad = np.isinf(weight) | (weight < 0)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        if lines is None:
            raise CampaignFormatError(where, f"weight {weight[row]!r} is not a finite number "
                                      f">= 0 (row {row + 1})")
        raise CampaignFormatError(where, f"weight {weight[row]!r} is not a finite number >= 0",
                                  int(lines[row]))


def _categorical(values: object) -> pd.Categorical:
    if isinstance(values, pd.Categorical):
        return values
    if isinstance(values, pd.Series) and isinstance(values.dtype, pd.CategoricalDtype):
        return values.array
    return pd.Categorical(np.asarray(values, dtype=object))


def split_by_system(raw: RawClustering) -> dict[str, RawClustering]:
    """Split a multi-system table into one raw clustering per system (in order of appearance)."""
    systems = _categorical(raw.system)
    codes = systems.codes
    order = np.argsort(codes, kind="stable")
    bounds = np.flatnonzero(np.diff(codes[order])) + 1
    out: dict[str, RawClustering] = {}
    first_seen = {}
    for chunk in np.split(order, bounds):
        if chunk.size == 0:
            continue
        name = str(systems.categories[codes[chunk[0]]])
        first_seen[name] = chunk[0]
        part = raw.take(np.sort(chunk))
        part.source = f"{raw.source} (system {name})"
        out[name] = part
    return {k: out[k] for k in sorted(out, key=lambda k: first_seen[k])}


def _dedupe(
    keys: Sequence[np.ndarray], raw: RawClustering, name: str, notes: list[LoadNote]
) -> tuple[np.ndarray, int]:
    """Indices of the rows to keep (first of each exact duplicate) and the duplicate count.

    ``keys`` are non-negative integer code columns; a row is a duplicate when every key equals
    that of an earlier row.
    """
    n = keys[0].size
    if n == 0:
        return np.arange(0), 0
    combined = np.zeros(n, dtype=np.int64)
    span = 1
    for k in keys:
        size = int(k.max()) + 1 if k.size else 1
        if span * size >= 2**62:  # too many codes to combine: hash the columns instead
            dup = pd.DataFrame({i: k for i, k in enumerate(keys)}).duplicated().to_numpy()
            break
        combined += k.astype(np.int64) * span
        span *= size
    else:
        dup = pd.Series(combined).duplicated().to_numpy()
    n_dup = int(dup.sum())
    if n_dup == 0:
        return np.arange(n), 0
    first = int(np.flatnonzero(dup)[0])
    where = f" (first at line {int(raw.line[first])})" if raw.line is not None else ""
    notes.append(
        LoadNote(raw.source, f"{n_dup} exact duplicate row(s) of {name} ignored{where}")
    )
    return np.flatnonzero(~dup), n_dup


def _label_codes(
    topic_code: np.ndarray, label_cat: pd.Categorical
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Label codes unique per (topic, label name): codes, names, topic of each label."""
    n_names = max(len(label_cat.categories), 1)
    key = topic_code.astype(np.int64) * n_names + label_cat.codes.astype(np.int64)
    inverse, uniq = pd.factorize(key, sort=True)
    names = np.asarray(label_cat.categories, dtype=object)[uniq % n_names]
    return inverse.astype(np.int32), names, (uniq // n_names).astype(np.int32)


def _membership(
    item: np.ndarray, topic_code: np.ndarray, label_cat: pd.Categorical, weight
) -> Membership:
    label, names, label_topic = _label_codes(topic_code, label_cat)
    order = np.lexsort((label, item))
    return Membership(
        item=item[order].astype(np.int64),
        label=label[order],
        label_names=names,
        label_topic=label_topic,
        weight=None if weight is None else np.asarray(weight, dtype=np.float64)[order],
    )


def compile_user_regex(pattern: object, source: str):
    """Compile a regular expression a user gave, with RE2: matching time is linear in the text.

    RE2 has no backreferences nor look-arounds, so no pattern can take exponential time (such as
    ``^(a+)+$``, which hangs Python's ``re``); a pattern using them gets a clear error.

    Raises
    ------
    UnanimityError
        When ``pattern`` is not a string or not a valid RE2 expression.
    """
    if not isinstance(pattern, str):
        raise UnanimityError(f"{source}: the test-bed regular expression {pattern!r} is not text")
    options = re2.Options()
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        why = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(
            exc.args[0], bytes) else str(exc)
        raise UnanimityError(
            f"{source}: bad test-bed regular expression {pattern!r}: {why} (RE2 syntax: no "
            "backreferences nor look-arounds)") from None


def testbeds_from_rule(
    topics: np.ndarray, rule: str | Mapping[str, str] | Callable[[str], str] | None,
    notes: list[LoadNote], source: str,
) -> np.ndarray | None:
    """Test bed of each topic from a rule.

    Parameters
    ----------
    rule : str, mapping, callable or None
        A regular expression whose first group (or whole match) is the test bed; a mapping
        topic -> test bed; or a function. Topics the rule does not cover get no test bed
        (None) and a note: they count in every analysis of the whole campaign but in none of
        the per-test-bed ones (a made-up bed would distort the cross-test-bed prediction).
    """
    if rule is None:
        return None
    fn: Callable[[str], object]
    if isinstance(rule, str):
        rx = compile_user_regex(rule, source)

        def fn(t: str) -> str | None:
            m = rx.search(t)
            if not m:
                return None
            return m.group(1) if m.groups() else m.group(0)
    elif isinstance(rule, Mapping):
        fn = rule.get
    else:
        fn = rule
    beds = np.array([fn(str(t)) for t in topics], dtype=object)  # one call per topic
    unmatched = [str(t) for t, b in zip(topics, beds, strict=True) if b is None]
    if unmatched:
        notes.append(
            LoadNote(source, f"{len(unmatched)} topic(s) have no test bed, e.g. {unmatched[0]!r}; "
                     "they are left out of the per-test-bed analyses")
        )
    return beds


#: RepLab entity ids ``RL2013DxxEyyy`` carry their domain ``Dxx``: the campaign's test beds.
REPLAB_TESTBED_RULE = r"^RL\d{4}(D\d+)E"


def default_testbed_rule(topics: Sequence[object] | np.ndarray) -> str | None:
    """The rule to use when none is given: RepLab domains when every topic is a RepLab entity id.

    A campaign whose topic ids all look like ``RL2013D01E001`` (RepLab 2013) is split into its
    domains; any other campaign has no test beds unless a rule is given.
    """
    rx = re.compile(REPLAB_TESTBED_RULE)
    uniq = pd.unique(pd.Series(np.asarray(topics, dtype=object)))
    if len(uniq) and all(rx.search(str(t)) for t in uniq):
        return REPLAB_TESTBED_RULE
    return None


def build_campaign(
    gold: RawClustering,
    runs: Mapping[str, RawClustering],
    name: str,
    source: str = "",
    testbed_rule: str | Mapping[str, str] | Callable[[str], str] | None = None,
    notes: list[LoadNote] | None = None,
) -> Campaign:
    """Code, de-duplicate and align raw clusterings into a campaign (``docs/guide.md#validation``).

    The gold defines the items of each topic. For each run: rows whose (topic, item) is not in
    the gold are extra (counted, ignored); gold items without a row are missing (counted; filled
    at evaluation time by the missing policy); exact duplicate rows are counted and ignored;
    several rows with different labels for one item make an overlapping clustering.

    Raises
    ------
    CampaignFormatError
        When the gold has no row, or a run shares no topic with the gold.
    """
    notes = list(notes or [])
    if len(gold) == 0:
        raise CampaignFormatError(gold.source, "the gold has no item")

    # --- gold ----------------------------------------------------------------------------------
    g_topic = _categorical(gold.topic)
    g_item = _categorical(gold.item)
    g_label = _categorical(gold.label)
    gold_notes = list(gold.notes)
    keep, g_dups = _dedupe([g_topic.codes, g_item.codes, g_label.codes], gold, "the gold",
                           gold_notes)
    topics = np.asarray(g_topic.categories, dtype=object)  # sorted by pd.Categorical
    item_vocab = pd.Index(g_item.categories)
    n_vocab = max(len(item_vocab), 1)
    t_code = g_topic.codes[keep].astype(np.int64)
    key = t_code * n_vocab + g_item.codes[keep].astype(np.int64)
    gold_keys, g_item_idx = np.unique(key, return_inverse=True)
    item_topic = (gold_keys // n_vocab).astype(np.int32)
    item_ids = np.asarray(item_vocab, dtype=object)[gold_keys % n_vocab]
    g_weight = None if gold.weight is None else gold.weight[keep]
    gold_m = _membership(g_item_idx, t_code, g_label[keep] if len(keep) else g_label, g_weight)
    g_overlap = gold_m.overlapping_items()
    if g_overlap:
        gold_notes.append(LoadNote(gold.source, f"{g_overlap} gold item(s) have several labels: "
                                   "the gold is an overlapping clustering"))
    gold_rep = ClusteringReport(
        name="gold", sources=[gold.source], rows=len(gold), items=int(gold_keys.size),
        topics=int(topics.size), duplicate_rows=g_dups, empty_clusters=gold.empty_clusters,
        overlapping_items=g_overlap, notes=gold_notes,
    )

    topic_index = pd.Index(topics)
    item_lookup = pd.Index(item_vocab)
    memberships: dict[str, Membership] = {}
    reports: dict[str, ClusteringReport] = {}
    for system, raw in runs.items():
        r_notes = list(raw.notes)
        r_topic = _categorical(raw.topic)
        r_item = _categorical(raw.item)
        r_label = _categorical(raw.label)
        keep, dups = _dedupe([r_topic.codes, r_item.codes, r_label.codes], raw, system, r_notes)
        # map this run's categories onto the gold's, then its codes through that map
        t_map = topic_index.get_indexer(r_topic.categories)
        i_map = item_lookup.get_indexer(r_item.categories)
        rt = t_map[r_topic.codes[keep]] if t_map.size else np.full(keep.size, -1)
        ri = i_map[r_item.codes[keep]] if i_map.size else np.full(keep.size, -1)
        known = (rt >= 0) & (ri >= 0)
        rkey = rt.astype(np.int64) * n_vocab + ri.astype(np.int64)
        pos = np.searchsorted(gold_keys, rkey)
        pos[pos >= gold_keys.size] = 0
        matched = known & (gold_keys[pos] == rkey)
        # extra items: distinct (topic, item) of unmatched rows
        un = ~matched
        extra_pairs = np.unique(
            r_topic.codes[keep][un].astype(np.int64) * max(len(r_item.categories), 1)
            + r_item.codes[keep][un].astype(np.int64)
        )
        present = np.zeros(len(r_topic.categories), dtype=bool)
        present[r_topic.codes[keep]] = True
        extra_topics = sorted(str(t) for t in np.asarray(r_topic.categories)[(t_map < 0) & present])
        if extra_topics:
            r_notes.append(LoadNote(raw.source, f"{len(extra_topics)} topic(s) not in the gold "
                                    f"ignored, e.g. {extra_topics[0]!r}"))
        rows = keep[matched]
        item_idx = pos[matched]
        if rows.size == 0 and len(raw) > 0:
            raise CampaignFormatError(
                raw.source, f"system {system!r} has no (topic, item) in common with the gold"
            )
        weight = None if raw.weight is None else raw.weight[rows]
        m = _membership(item_idx, item_topic[item_idx].astype(np.int64), r_label[rows], weight)
        covered_topics = np.zeros(topics.size, dtype=bool)
        covered_topics[rt[rt >= 0]] = True
        # a missing topic is one where the system assigns none of the gold's items,
        # even if it lists items of its own there (extra items, ignored)
        answered = np.zeros(topics.size, dtype=bool)
        answered[item_topic[item_idx]] = True
        missing_topic_names = [str(t) for t in topics[~answered]]
        covered = np.zeros(gold_keys.size, dtype=bool)
        covered[item_idx] = True
        n_covered = int(covered.sum())
        rep = ClusteringReport(
            name=system, sources=[raw.source], rows=len(raw),
            items=n_covered + int(extra_pairs.size),
            topics=int(covered_topics.sum()) + len(extra_topics),
            missing_items=int(gold_keys.size - n_covered), extra_items=int(extra_pairs.size),
            extra_topics=extra_topics, missing_topics=len(missing_topic_names),
            missing_topic_names=missing_topic_names, duplicate_rows=dups,
            empty_clusters=raw.empty_clusters, overlapping_items=m.overlapping_items(),
            notes=r_notes,
        )
        memberships[system] = m
        reports[system] = rep

    if testbed_rule is None:
        testbed_rule = default_testbed_rule(topics)
    testbeds = testbeds_from_rule(topics, testbed_rule, notes, source or gold.source)
    return Campaign(
        name=name, topics=topics, testbeds=testbeds, item_topic=item_topic, item_ids=item_ids,
        gold=gold_m, runs=memberships,
        report=ValidationReport(gold=gold_rep, systems=reports, notes=notes), source=source,
    )
