"""Document organisations: priority levels of clusters, optionally followed by an unlimited tail.

Reliability and Sensitivity for the general document-organisation task (Amigó, Gonzalo, Verdejo,
"A general evaluation measure for document organization tasks", SIGIR 2013), the standard IR
measures of ranking campaigns through ``ir_measures``, and the metric pairs that fit each kind
of campaign. See ``docs/organisation.md``.
"""
