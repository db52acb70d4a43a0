"""Type-level clustering evaluation (Reichart, Abend and Rappoport, CoNLL 2010).

* :mod:`metrics.measures.typelevel.type_scores`: MacroI, MicroI and MicroC of one topic's word-type
entries
  under their best one-to-one (optimal assignment) and many-to-one (majority start plus hill
  climbing) mappings;
* :mod:`metrics.measures.typelevel.type_entries`: the per-topic entries of a token tagging campaign,
the
  kernels :mod:`metrics.measures.scoring` uses, and the cluster -> tag mapping export;
* :mod:`metrics.analyses.token_type_ranks`: token-level vs type-level rankings of the same runs.

See ``docs/type-level.md``.
"""
