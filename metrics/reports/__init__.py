"""Reports of a comparison: the report object, pair rows, LaTeX, bundles, reported checks."""
