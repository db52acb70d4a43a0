"""Type-level clustering evaluation (Reichart, Abend and Rappoport, CoNLL 2010).

* :mod:`metrics.typelevel.measures`: MacroI, MacroC, MicroI and MicroC of one topic's word-type
  entries under their best one-to-one (optimal assignment) and many-to-one (integer program,
  :mod:`metrics.measures.typelevel.exact_many_to_one`) mappings;
* :mod:`metrics.typelevel.campaign`: the per-topic entries of a token tagging campaign, the
  kernels :mod:`metrics.evaluate` uses, and the cluster -> tag mapping export;
* :mod:`metrics.typelevel.ranking`: token-level vs type-level rankings of the same runs.

See ``docs/type-level.md``.
"""
