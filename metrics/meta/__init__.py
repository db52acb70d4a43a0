"""Meta-evaluation of measures: Robustness, Strictness, formal constraints (docs/meta-evaluation.md)."""
