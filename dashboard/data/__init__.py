"""The dashboard's data layer: every call from a page into ``metrics`` goes through here.

:mod:`dashboard.data.sources` (campaign sources and the cache keys), :mod:`dashboard.data.uploads`
(uploaded files, per browser session), :mod:`dashboard.data.bundles` (reopened comparison
bundles), :mod:`dashboard.data.live` (cached calls into ``metrics``: the campaign, its scores and
the one comparison every page reads), :mod:`dashboard.data.meta`, :mod:`dashboard.data.papers`,
:mod:`dashboard.data.uncertainty` and :mod:`dashboard.data.reference` (the cached calls of the
other pages), :mod:`dashboard.data.warm` (warm start of the first session).
"""
