"""The metrics of the Type level page (docs/type-level.md): one owner for the view and for the
warm-up that computes its table of the bundled UD English EWT campaign."""

from __future__ import annotations

__all__ = ["TOKEN_METRICS", "TYPE_METRICS"]

#: token-level measures (the corpus tagging)
TOKEN_METRICS: tuple[str, ...] = ("accuracy_m1", "accuracy_11", "v_measure", "nvi",
                                  "h_c_given_k", "h_k_given_c")
#: type-level measures (Reichart, Abend & Rappoport 2010), under 1-1 and M-1 mappings
TYPE_METRICS: tuple[str, ...] = tuple(
    f"{m}{s}" for s in ("", "(mapping=many_to_one)")
    for m in ("type_macro_f", "type_micro_f", "type_microc_f", "type_macro_precision",
              "type_macro_recall"))
