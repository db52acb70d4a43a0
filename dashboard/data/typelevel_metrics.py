"""The metrics of the Type level page (docs/type-level.md): one owner for the view and for the
warm-up that computes its table of the bundled UD English EWT campaign."""

from __future__ import annotations

__all__ = ["TOKEN_METRICS", "TYPE_METRICS", "MEASURES", "MAPPINGS"]

#: token-level measures (the corpus tagging)
TOKEN_METRICS: tuple[str, ...] = ("accuracy_m1", "accuracy_11", "v_measure", "nvi",
                                  "h_c_given_k", "h_k_given_c")
#: type-level measures (Reichart, Abend & Rappoport 2010), under 1-1 and M-1 mappings
TYPE_METRICS: tuple[str, ...] = tuple(
    f"{m}{s}" for s in ("", "(mapping=many_to_one)")
    for m in ("type_macro_f", "type_micro_f", "type_microc_f", "type_macro_precision",
              "type_macro_recall"))

#: the mapping section's choices, the first of each the page opens on (and the warm-up computes)
MEASURES: dict[str, str] = {"MacroI (P, R, F)": "macro", "MicroI": "micro", "MicroC": "microc"}
MAPPINGS: dict[str, str] = {"1-1 (optimal assignment)": "one_to_one",
                            "M-1 (many-to-one search)": "many_to_one"}
