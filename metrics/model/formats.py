"""The registry of campaign formats: names, one-line summaries, kinds, and where each reader is.

A module of its own, free of numpy and pandas and outside :mod:`metrics.io` (whose readers
import them), so that the command line builds its argument parsers from it without importing a
reader (``unanimity --help`` stays fast; tests/test_startup.py). Each entry names the module of
its reader by a dotted path; :mod:`metrics.io.format_registry` imports it when a file is read.

The order of the entries is the order of detection (``docs/guide.md``, "Campaign formats"):
:func:`metrics.io.load.detect_format` asks each format in turn about a file's name, then about
its first line, and the first that recognises the file names its format. A format is added by
one module (a :class:`metrics.io.format_registry.CampaignFormat` named ``FORMAT``) and one line
here, or at run time by one call to :func:`register_format`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from metrics.model.campaign_kinds import CampaignKind

__all__ = ["FORMATS", "FormatEntry", "format_entries", "format_entry", "format_help",
           "register_format", "unregister_format"]


@dataclass(frozen=True)
class FormatEntry:
    """One campaign format of the registry.

    Attributes
    ----------
    name : str
        The format's name (``--format NAME``, ``format = "NAME"`` in ``campaign.toml``).
    summary : str
        A few words for ``--format``'s help.
    kinds : tuple of CampaignKind
        The kinds of campaign the format yields (:mod:`metrics.model.campaign_kinds`).
    reader : str or object
        The dotted path of the module whose ``FORMAT`` reads the format (imported when a file is
        read), or the reader itself.
    """

    name: str
    summary: str
    kinds: tuple[CampaignKind, ...]
    reader: object


_C, _O = CampaignKind.CLUSTERING, CampaignKind.OVERLAPPING_CLUSTERING
_ENTRIES: list[FormatEntry] = [
    FormatEntry("conllu", "CoNLL-U token tagging", (CampaignKind.TOKEN_TAGGING,),
                "metrics.io.conllu_campaign"),
    FormatEntry("trec", "TREC qrels and runs", (CampaignKind.RANKING,), "metrics.io.trec"),
    FormatEntry("replab", "RepLab / EvALL TSV", (_C, _O), "metrics.io.replab"),
    FormatEntry("scores", "score table system, topic, metric, value",
                (CampaignKind.SCORE_TABLE,), "metrics.io.scoretable"),
    FormatEntry("wide", "leaderboard, one column per metric", (CampaignKind.SCORE_TABLE,),
                "metrics.io.wide_scores"),
    FormatEntry("organisation", "priority levels topic, item, level[, cluster]",
                (CampaignKind.RANKING, CampaignKind.FILTERING, CampaignKind.ORGANISATION_MIXTURE),
                "metrics.io.organisation"),
    FormatEntry("long", "long table topic, item, cluster", (_C, _O), "metrics.io.long_table"),
    FormatEntry("semeval", "SemEval sense-induction keys", (_C, _O), "metrics.io.semeval"),
    FormatEntry("weps", "WePS XML folders", (_C, _O), "metrics.io.weps"),
]


def register_format(entry: FormatEntry, before: str | None = None) -> None:
    """Add a format to the registry, last in the order of detection or just ``before`` another.

    Raises
    ------
    ValueError
        When a format of that name is registered already, or ``before`` is none.
    """
    if any(e.name == entry.name for e in _ENTRIES):
        raise ValueError(f"format {entry.name!r} is registered already")
    names = [e.name for e in _ENTRIES]
    if before is not None and before not in names:
        raise ValueError(f"no format {before!r} to register {entry.name!r} before")
    _ENTRIES.insert(names.index(before) if before else len(_ENTRIES), entry)


def unregister_format(name: str) -> None:
    """Remove a format from the registry (a format a test registered)."""
    _ENTRIES[:] = [e for e in _ENTRIES if e.name != name]


def format_entries() -> tuple[FormatEntry, ...]:
    """Every registered format, in the order of detection."""
    return tuple(_ENTRIES)


def format_entry(name: str) -> FormatEntry:
    """The entry of the format ``name``.

    Raises
    ------
    KeyError
        When no format has that name.
    """
    for e in _ENTRIES:
        if e.name == name:
            return e
    raise KeyError(name)


def format_help() -> str:
    """The ``--format`` help: every format with its summary, in the order of detection."""
    return ("file format (default: detected): "
            + "; ".join(f"{e.name} = {e.summary}" for e in _ENTRIES))


class _FormatNames(Sequence[str]):
    """The names of the registered formats, read from the registry at each use (so that a
    format registered later is a valid ``--format`` choice)."""

    def _names(self) -> tuple[str, ...]:
        return tuple(e.name for e in _ENTRIES)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._names()[index]

    def __len__(self) -> int:
        return len(_ENTRIES)

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __repr__(self) -> str:
        return repr(self._names())


#: Every format :func:`metrics.io.load.load` reads, in the order of detection; ``trec`` and
#: ``organisation``: docs/organisation.md; ``wide``: docs/input-safety.md, "Wide score tables".
FORMATS: Sequence[str] = _FormatNames()
