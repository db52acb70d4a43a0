"""The Unanimity dashboard (Streamlit + Plotly) on top of the ``metrics`` package.

Run it with ``unanimity dashboard [PATH]``. Layout: :mod:`dashboard.app` (entry point and
navigation), :mod:`dashboard.bundle_app` (the same for a reopened comparison bundle),
:mod:`dashboard.sidebar` (the global controls, one ``*_ui()`` function each),
:mod:`dashboard.state` (the selection, bound to the URL), :mod:`dashboard.ui` (shared page
pieces); ``dashboard/data/`` (the data layer: sources, uploads, bundles and the cached calls into
``metrics``), ``dashboard/views/`` (one page each, and the pieces two pages share),
``dashboard/figures/`` (pure Plotly figure builders) and ``dashboard/render/`` (pure HTML, text
and file builders: the report, the downloads, the tables).
"""
