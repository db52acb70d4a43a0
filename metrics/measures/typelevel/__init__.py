"""Type-level clustering evaluation (Reichart, Abend and Rappoport, CoNLL 2010).

* :mod:`metrics.measures.typelevel.type_scores`: MacroI, MacroC, MicroI and MicroC of one topic's
  word-type entries under their best one-to-one (optimal assignment) and many-to-one (integer
  program) mappings;
* :mod:`metrics.measures.typelevel.exact_many_to_one`: the integer program of the many-to-one
  mapping (its MicroC part in :mod:`metrics.measures.typelevel.microc_program`);
  :mod:`metrics.measures.typelevel.microc_branch`: MicroC's branch and bound when every type has
  one cluster; :mod:`metrics.measures.typelevel.microc_union` when types sit in several
  clusters (its Lagrangian bound over unions in :mod:`metrics.measures.typelevel.microc_cover`);
  :mod:`metrics.measures.typelevel.hill_climbing`: its start and fallback;
* :mod:`metrics.measures.typelevel.type_entries`: the per-topic entries of a token tagging
  campaign, the kernels :mod:`metrics.measures.scoring` uses, and the cluster -> tag mapping
  export; :mod:`metrics.measures.typelevel.mapping_pool`: the topics of a run searched in
  parallel processes when a time limit is given, by the workers of
  :mod:`metrics.measures.typelevel.mapping_workers` (each running
  :mod:`metrics.measures.typelevel.mapping_worker`);
* :mod:`metrics.analyses.token_type_ranks`: token-level vs type-level rankings of the same runs.

See ``docs/type-level.md``.
"""
