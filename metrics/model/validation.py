"""The validation report: what a load found and did, per file and per system.

See ``docs/guide.md#validation``.

Nothing is dropped silently: every skipped row, ignored item, fallback and anomaly is counted
here, and the notes name the file and, where there is one, the line.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import pandas as pd

__all__ = ["LoadNote", "ClusteringReport", "ValidationReport", "Coverage"]


@dataclass(frozen=True)
class LoadNote:
    """One thing a reader noticed: a warning about a file, with the line where there is one."""

    path: str
    problem: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}, line {self.line}" if self.line is not None else self.path
        return f"{where}: {self.problem}"


@dataclass
class ClusteringReport:
    """What was found in the clustering of the gold or of one system.

    Attributes
    ----------
    name : str
        ``"gold"`` or the system name.
    sources : list of str
        Files the clustering was read from.
    rows : int
        (topic, item, label) rows read.
    items : int
        Distinct (topic, item) pairs read.
    topics : int
        Distinct topics read.
    missing_items : int
        Gold items the system did not assign (includes the items of missing topics).
    extra_items : int
        Items the system assigned that are not in the gold for that topic: ignored.
    extra_topics : list of str
        Topics of the system that the gold does not have: all their items are extra.
    missing_topics : int
        Gold topics without any row in the system's output.
    missing_topic_names : list of str
        Their ids.
    duplicate_rows : int
        Exact duplicate (topic, item, label) rows: the first one was kept.
    empty_clusters : int
        Clusters declared with no item (formats that can declare one, e.g. WePS XML): ignored.
    overlapping_items : int
        Items with more than one label (an overlapping clustering, not an error).
    notes : list of LoadNote
        Warnings with file and line.
    """

    name: str
    sources: list[str] = field(default_factory=list)
    rows: int = 0
    items: int = 0
    topics: int = 0
    missing_items: int = 0
    extra_items: int = 0
    extra_topics: list[str] = field(default_factory=list)
    missing_topics: int = 0
    missing_topic_names: list[str] = field(default_factory=list)
    duplicate_rows: int = 0
    empty_clusters: int = 0
    overlapping_items: int = 0
    notes: list[LoadNote] = field(default_factory=list)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["notes"] = [str(n) for n in self.notes]
        return out


@dataclass(frozen=True)
class Coverage:
    """How the systems of a load cover the gold, in counts of systems (one summary of a
    :class:`ValidationReport`, read by ``unanimity info`` and the dashboard's Data page).

    Missing and extra items are expected in real runs and are handled by the stated policy
    (``docs/measures.md`` §2): they are facts, not warnings. Warnings are the loader's notes.

    Attributes
    ----------
    systems : int
        Systems in the report.
    with_missing_items, with_extra_items, with_missing_topics, with_duplicate_rows, \
with_empty_clusters : int
        Systems with at least one of each.
    max_missing_items, max_extra_items : int
        The most missing / extra items of one system.
    warnings : int
        Loader notes (``ValidationReport.all_notes``).
    with_missing_or_extra : int
        Systems with missing or extra items (at least one of either).
    """

    systems: int
    with_missing_items: int
    with_extra_items: int
    with_missing_topics: int
    with_duplicate_rows: int
    with_empty_clusters: int
    max_missing_items: int
    max_extra_items: int
    warnings: int
    with_missing_or_extra: int

    @property
    def complete(self) -> bool:
        """Every system covers every gold item of every topic, with nothing extra or repeated."""
        return not (self.with_missing_items or self.with_extra_items or self.with_missing_topics
                    or self.with_duplicate_rows or self.with_empty_clusters)


@dataclass
class ValidationReport:
    """The report of one campaign load.

    Attributes
    ----------
    gold : ClusteringReport or None
        The gold's report (None for a score-table campaign).
    systems : dict of str to ClusteringReport
        One report per system, in load order.
    notes : list of LoadNote
        Campaign-level notes (format detection, encoding fallbacks, skipped files).
    """

    gold: ClusteringReport | None = None
    systems: dict[str, ClusteringReport] = field(default_factory=dict)
    notes: list[LoadNote] = field(default_factory=list)

    def all_notes(self) -> list[LoadNote]:
        """Every note, campaign-level first, then the gold's, then each system's."""
        out = list(self.notes)
        if self.gold is not None:
            out += self.gold.notes
        for rep in self.systems.values():
            out += rep.notes
        return out

    def coverage(self) -> Coverage:
        """The counts of :class:`Coverage` over the systems of this report."""
        reps = list(self.systems.values())

        def count(attr: str) -> int:
            return sum(1 for r in reps if getattr(r, attr) > 0)

        return Coverage(
            systems=len(reps), with_missing_items=count("missing_items"),
            with_extra_items=count("extra_items"), with_missing_topics=count("missing_topics"),
            with_duplicate_rows=count("duplicate_rows"),
            with_empty_clusters=count("empty_clusters"),
            max_missing_items=max((r.missing_items for r in reps), default=0),
            max_extra_items=max((r.extra_items for r in reps), default=0),
            warnings=len(self.all_notes()),
            with_missing_or_extra=sum(1 for r in reps if r.missing_items > 0 or r.extra_items > 0),
        )

    def to_dataframe(self) -> pd.DataFrame:
        """One row per system with the counts a user checks first."""
        cols = [
            "system", "rows", "items", "topics", "missing_items", "extra_items",
            "missing_topics", "duplicate_rows", "empty_clusters", "overlapping_items", "notes",
        ]
        rows = [
            {
                "system": r.name, "rows": r.rows, "items": r.items, "topics": r.topics,
                "missing_items": r.missing_items, "extra_items": r.extra_items,
                "missing_topics": r.missing_topics, "duplicate_rows": r.duplicate_rows,
                "empty_clusters": r.empty_clusters, "overlapping_items": r.overlapping_items,
                "notes": len(r.notes),
            }
            for r in self.systems.values()
        ]
        return pd.DataFrame(rows, columns=cols)

    def to_dict(self) -> dict:
        return {
            "gold": self.gold.to_dict() if self.gold else None,
            "systems": {k: v.to_dict() for k, v in self.systems.items()},
            "notes": [str(n) for n in self.notes],
        }
