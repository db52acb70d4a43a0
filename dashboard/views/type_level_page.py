"""Type level (token tagging campaigns): token- vs type-level rankings and one run's mapping.

The page of :mod:`dashboard.views.type_level` for the selected campaign; every number comes from
:mod:`metrics` (see that module)."""

from __future__ import annotations

from dashboard import state, ui
from dashboard.data import live
from dashboard.views import type_level

sel = state.selection()
with ui.guard("The type-level view"):
    type_level.render(live.campaign(sel.source), missing="penalize", run=sel.a)
