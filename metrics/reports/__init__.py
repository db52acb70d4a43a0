"""Outputs: the tables, bundles and terminal text the product writes (docs/output-safety.md)."""
