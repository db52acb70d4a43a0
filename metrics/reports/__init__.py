"""Reports and outputs: the comparison report, pair rows, LaTeX, bundles, reported checks, and
the tables and terminal text the product writes (docs/output-safety.md)."""
