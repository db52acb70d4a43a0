"""WePS clustering XML: one clustering given as a folder of ``NAME.clust.xml`` files, one per topic.

::

    <clustering name="Amanda_Lentz">
      <entity id="0"><doc rank="0"/><doc rank="3"/></entity>
      <entity id="1"><doc rank="1"/></entity>
      <discarded><doc rank="7"/></discarded>
    </clustering>

The topic (a person name) is the **file name** without ``.clust.xml``, as the WePS scorers pair
gold and system files by name; when the ``name`` attribute disagrees with it, a note says so. The
item is the document ``rank`` and the label the entity ``id``. Discarded documents are ignored and
counted in a note; an ``<entity>`` without documents counts in ``empty_clusters``; a document in
several entities makes an overlapping clustering. Files may be gzip-compressed
(``NAME.clust.xml.gz``). A WePS campaign folder holds ``gold/`` and ``runs/<system>/``.
"""

from __future__ import annotations

from pathlib import Path
from xml.parsers import expat

import numpy as np

from metrics.errors import CampaignFormatError
from metrics.io.build import RawClustering
from metrics.io.format_registry import CampaignFormat, Probe
from metrics.io.source import Node, as_node
from metrics.io.text import read_bytes
from metrics.model.validation import LoadNote

__all__ = ["read_weps", "weps_files", "weps_topic", "FORMAT"]

_SUFFIXES = (".clust.xml.gz", ".clust.xml", ".xml.gz", ".xml")


def weps_topic(path: Node | Path) -> str:
    """``Amanda_Lentz.clust.xml`` -> ``Amanda_Lentz``."""
    name = path.name
    for suffix in _SUFFIXES:
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return name


def weps_files(folder: object) -> list[Node]:
    """The XML files of a WePS clustering folder (path or node), sorted by name."""
    return [
        p for p in as_node(folder).iterdir()
        if not p.name.startswith(".") and p.name.lower().endswith((".xml", ".xml.gz"))
        and p.is_file()
    ]


class _FileParser:
    """Reads one ``.clust.xml`` file with expat, which knows the line of every element."""

    def __init__(self, path: Node) -> None:
        self.path = path
        self.items: list[str] = []
        self.labels: list[str] = []
        self.lines: list[int] = []
        self.name: str | None = None
        self.discarded = 0
        self.empty_clusters = 0
        self.unknown: dict[str, int] = {}  # unknown element -> first line
        self._stack: list[str] = []
        self._entity: str | None = None
        self._entity_docs = 0
        self._seen: set[tuple[str, str]] = set()
        self.duplicates: list[int] = []  # lines of docs repeated within one entity
        self.entity_lines: dict[str, int] = {}  # entity id -> line of its first declaration
        self.repeated: list[tuple[str, int]] = []  # entity ids declared again, with the line

    def parse(self) -> None:
        parser = expat.ParserCreate()
        self._parser = parser
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        try:
            parser.Parse(read_bytes(self.path), True)
        except expat.ExpatError as exc:
            problem = expat.errors.messages.get(exc.code, str(exc)) if exc.code else str(exc)
            raise CampaignFormatError(
                self.path, f"malformed XML: {problem} (column {exc.offset + 1})", exc.lineno
            ) from None

    def _line(self) -> int:
        return int(self._parser.CurrentLineNumber)

    def _start(self, tag: str, attrs: dict[str, str]) -> None:
        parent = self._stack[-1] if self._stack else None
        self._stack.append(tag)
        if parent is None:
            if tag != "clustering":
                raise CampaignFormatError(
                    self.path, f"root element is <{tag}>; a WePS clustering file has "
                    "<clustering>", self._line(),
                )
            self.name = attrs.get("name")
            return
        if tag == "entity" and parent == "clustering":
            ident = attrs.get("id")
            if ident is None or not ident.strip():
                raise CampaignFormatError(self.path, "<entity> without an id attribute",
                                          self._line())
            self._entity = ident.strip()
            self._entity_docs = 0
            if self._entity in self.entity_lines:
                self.repeated.append((self._entity, self._line()))
            self.entity_lines.setdefault(self._entity, self._line())
            return
        if tag == "discarded" and parent == "clustering":
            return
        if tag == "doc" and self._stack[:-1] in (["clustering", "entity"],
                                                 ["clustering", "discarded"]):
            rank = attrs.get("rank")
            if rank is None or not rank.strip():
                raise CampaignFormatError(self.path, "<doc> without a rank attribute",
                                          self._line())
            if parent == "discarded":
                self.discarded += 1
                return
            entity = self._entity
            assert entity is not None  # a <doc> inside <entity>: checked by the stack above
            key = (entity, rank.strip())
            if key in self._seen:
                self.duplicates.append(self._line())
            self._seen.add(key)
            self.items.append(rank.strip())
            self.labels.append(entity)
            self.lines.append(self._line())
            self._entity_docs += 1
            return
        if tag == "doc":
            raise CampaignFormatError(
                self.path, f"<doc> inside <{parent}>; expected it inside <entity> or <discarded>",
                self._line(),
            )
        self.unknown.setdefault(f"<{tag}> in <{parent}>", self._line())

    def _end(self, tag: str) -> None:
        self._stack.pop()
        if tag == "entity" and self._stack == ["clustering"]:
            if self._entity_docs == 0:
                self.empty_clusters += 1
            self._entity = None


def read_weps(folder: object) -> RawClustering:
    """Read one WePS clustering: a folder of ``NAME.clust.xml`` (or a single such file).

    Returns
    -------
    RawClustering
        One row per (topic, document, entity). ``line`` (the row's line) is only set when a
        single file is read: with several files a line number alone would not say which file;
        the per-file notes name file and line instead.

    Raises
    ------
    CampaignFormatError
        Naming the file and line: malformed XML, a root other than ``<clustering>``, an entity
        without id, a document without rank, a folder without XML files, truncated gzip.
    """
    if not isinstance(folder, Node) and not Path(folder).exists():  # type: ignore[arg-type]
        raise CampaignFormatError(folder, "no such file or folder")
    folder = as_node(folder)
    if folder.is_dir():
        files = weps_files(folder)
        if not files:
            raise CampaignFormatError(folder, "folder holds no WePS clustering file (*.clust.xml)")
    else:
        files = [folder]
    notes: list[LoadNote] = []
    topic: list[np.ndarray] = []
    item: list[str] = []
    label: list[str] = []
    line: list[int] = []
    discarded = 0
    discarded_files = 0
    empty = 0
    renamed: list[tuple[str, str]] = []
    seen_topics: dict[str, Node] = {}
    for path in files:
        name = weps_topic(path)
        if name in seen_topics:
            raise CampaignFormatError(
                path, f"topic {name!r} is also given by {seen_topics[name].name}; keep one file"
            )
        seen_topics[name] = path
        fp = _FileParser(path)
        fp.parse()
        if fp.name is not None and fp.name != name:
            renamed.append((path.name, fp.name))
        if fp.discarded:
            discarded += fp.discarded
            discarded_files += 1
        empty += fp.empty_clusters
        for where, lineno in fp.unknown.items():
            notes.append(LoadNote(str(path), f"unknown element {where} ignored", lineno))
        if fp.repeated:
            ident, lineno = fp.repeated[0]
            notes.append(LoadNote(
                str(path), f"{len(fp.repeated)} entity id(s) declared again, e.g. {ident!r} "
                f"(first at line {fp.entity_lines[ident]}): their documents form one cluster",
                lineno,
            ))
        if fp.duplicates:
            notes.append(LoadNote(
                str(path), f"{len(fp.duplicates)} document(s) repeated within one entity",
                fp.duplicates[0],
            ))
        if not fp.items:
            notes.append(LoadNote(str(path), f"no document in any entity: topic {name!r} has no "
                                  "item in this clustering"))
        topic.append(np.full(len(fp.items), name, dtype=object))
        item += fp.items
        label += fp.labels
        line += fp.lines
    if discarded:
        notes.append(LoadNote(str(folder), f"{discarded} discarded document(s) in "
                              f"{discarded_files} file(s) ignored"))
    if renamed:
        file_name, attr = renamed[0]
        notes.append(LoadNote(
            str(folder), f"{len(renamed)} file(s) whose clustering name differs from the file "
            f"name, e.g. {file_name} has name={attr!r}; the topic is the file name",
        ))
    if empty:
        notes.append(LoadNote(str(folder), f"{empty} entity(ies) without documents ignored"))
    return RawClustering(
        source=str(folder),
        topic=np.concatenate(topic) if topic else np.zeros(0, dtype=object),
        item=np.asarray(item, dtype=object),
        label=np.asarray(label, dtype=object),
        line=np.asarray(line, dtype=np.int64) if len(files) == 1 else None,
        notes=notes,
        empty_clusters=empty,
    )


def _is_weps_folder(node: Node) -> bool:
    return any(c.name.lower().endswith((".xml", ".xml.gz")) for c in node.iterdir())


class _Weps(CampaignFormat):
    """WePS XML: a folder of ``*.xml`` files, or one such file."""

    def detect_path(self, probe: Probe) -> bool:
        if probe.is_dir:
            return _is_weps_folder(probe.node)
        return probe.name.endswith((".xml", ".xml.gz"))

    def folder_problem(self, folder: Node) -> str | None:
        if not any(c.name.startswith("gold") for c in folder.iterdir()) \
                and _is_weps_folder(folder):
            return "a WePS campaign folder needs gold/ and runs/<system>/ sub-folders"
        return None

    def read_clustering(self, node: Node, encoding: str | None) -> RawClustering:
        return read_weps(node)


FORMAT = _Weps()
