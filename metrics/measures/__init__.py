"""Measures: the registry, the scoring of campaigns and the measure families (docs/measures.md)."""
