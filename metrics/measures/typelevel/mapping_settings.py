"""The settings of the type-level mappings (Reichart, Abend, Rappoport, CoNLL 2010, §4): the
measures whose best mapping is searched, the kinds of mapping and the time limit of the exact
many-to-one search (docs/type-level.md). A module of its own so that the metric registry reads
them without loading the search (scipy)."""

from __future__ import annotations

__all__ = ["MEASURES", "MAPPINGS", "DEFAULT_SECONDS"]

#: The measures a mapping maximises: MacroI (= MacroC), MicroI, MicroC.
MEASURES: tuple[str, ...] = ("macro", "micro", "microc")
MAPPINGS: tuple[str, ...] = ("one_to_one", "many_to_one")
#: Default seconds of the exact M-1 search of one (topic, measure). MacroI and MicroI are
#: solved in well under a second on the bundled campaign; MicroC's search (its term
#: 2 U_c I_c / (U_c + |c|) is not concave) proves the small runs in seconds but not every run in
#: a minute, so by default it stops at a quick bound: the branch and bound's root bound when
#: every type has one cluster, else an LP relaxation's (docs/type-level.md).
DEFAULT_SECONDS: dict[str, float] = {"macro": 10.0, "micro": 10.0, "microc": 0.0}
