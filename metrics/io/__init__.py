"""Readers of campaign formats, all producing one :class:`~metrics.model.campaign.Campaign`.

Formats (auto-detected, or named with ``format=``):

``replab``   RepLab / EvALL 3-column TSV with header ``entity_id, tweet_id, topic`` (Latin-1).
``long``     long table ``topic, item, cluster[, weight][, system]`` in CSV, TSV or Parquet.
``semeval``  SemEval word-sense-induction keys ``word instance label[/weight] ...``.
``weps``     WePS XML: a folder of ``NAME.clust.xml`` per clustering.
``scores``   score table ``system, topic, metric, value`` (precomputed per-topic scores).

Layouts:

* a **campaign folder**: ``gold.<ext>`` (or a ``gold/`` folder of WePS XML) plus
  ``runs/<system>.<ext>`` (or ``runs/<system>/`` folders of WePS XML, or one ``runs.<ext>`` long
  table with a ``system`` column); files may be gzip-compressed; an optional ``campaign.toml``
  gives ``name``, ``format``, ``testbed_regex`` (first group = test bed) or ``testbeds`` (a
  ``topic<TAB>testbed`` file);
* a **score table** file;
* a **zip** of either;
* loose files: :func:`load_files` with a gold file and run files.

Every file is read through the loader boundary, :mod:`metrics.io.source`: paths stay inside the
campaign folder or zip, only regular files are read, zip members are read in place, and
decompression is bounded by a :class:`~metrics.io.source.Budget` (``docs/input-safety.md``).
"""

from metrics.io.load import FORMATS, detect_format, load, load_files
from metrics.io.source import Budget

__all__ = ["load", "load_files", "detect_format", "FORMATS", "Budget"]
