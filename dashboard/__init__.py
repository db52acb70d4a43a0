"""The Unanimity dashboard (Streamlit + Plotly) on top of the ``metrics`` package.

Run it with ``unanimity dashboard [PATH]``. Modules: :mod:`dashboard.app` (entry point and
navigation), :mod:`dashboard.sidebar` (the global controls, one ``*_ui()`` function each),
:mod:`dashboard.state` (the selection, bound to the URL), :mod:`dashboard.sources` (campaign
sources, uploads and cache keys), :mod:`dashboard.data` (cached calls into ``metrics``: the one
comparison every page reads), :mod:`dashboard.pair_view` (what the Compare page shows of the
report's row), :mod:`dashboard.figures` (pure Plotly figure builders),
:mod:`dashboard.report_html` (self-contained HTML report), :mod:`dashboard.warm` (warm start) and
``dashboard/views/`` (one page each).
"""
