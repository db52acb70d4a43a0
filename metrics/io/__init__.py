"""Readers of campaign formats, all producing one :class:`~metrics.model.campaign.Campaign`.

Formats (auto-detected, or named with ``format=``), in the order of detection:

================  ==============================================================================
``conllu``        CoNLL-U token tagging, :mod:`metrics.io.conllu_campaign`.
``trec``          TREC qrels and runs, :mod:`metrics.io.trec`.
``replab``        RepLab / EvALL 3-column TSV with header ``entity_id, tweet_id, topic``
                  (Latin-1), :mod:`metrics.io.replab`.
``scores``        score table ``system, topic, metric, value`` (precomputed per-topic scores),
                  :mod:`metrics.io.scoretable`.
``wide``          a leaderboard, one column per metric, :mod:`metrics.io.wide_scores`.
``organisation``  priority levels ``topic, item, level[, cluster]``, :mod:`metrics.io.organisation`.
``long``          long table ``topic, item, cluster[, weight][, system]`` in CSV, TSV or Parquet
                  (or a folder of Parquet part files), :mod:`metrics.io.long_table`.
``semeval``       SemEval word-sense-induction keys ``word instance label[/weight] ...``,
                  :mod:`metrics.io.semeval`.
``weps``          WePS XML: a folder of ``NAME.clust.xml`` per clustering, :mod:`metrics.io.weps`.
================  ==============================================================================

The registry (:mod:`metrics.model.formats`) names each format, its summary, the campaign kinds it
yields and its reader module; the reader (a
:class:`~metrics.io.format_registry.CampaignFormat` named ``FORMAT`` in that module) says how it
recognises a file (by name or folder, then by first line) and how it reads a clustering file, a
campaign folder, loose files or a single-file campaign. :mod:`metrics.io.load` only loops over
the registry; the folder layout below is :mod:`metrics.io.folders`, shared with the Dask engine.
A new format is one reader module and one line in the registry (or one call to
:func:`metrics.model.formats.register_format`).

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
