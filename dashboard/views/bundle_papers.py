"""Bundle Papers' tables: the stored JAIR Tables 5-6, WePS Table 2, ten-pairs weakest metric and
random baselines (:mod:`metrics.analyses.paper_tables`), rendered by
:mod:`dashboard.views.papers_view`."""

from __future__ import annotations

from dashboard import bundle_app, ui
from dashboard.views import papers_view

src, b = bundle_app.opened()
ui.header("Papers' tables", f"{bundle_app.title(src)}: the analyses of Amig\u00f3 et al. "
                            "(JAIR 2011; WePS) and Moreno & Dias (2015) on this comparison.")
with ui.guard("The stored papers' tables"):
    papers_view.render(b.tables, b.json.get("paper_tables", {}), b.parameters,
                       all_pairs=b.tables.get("weakest_metric"), key="bpt")
