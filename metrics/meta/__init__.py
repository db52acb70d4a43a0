"""Meta-evaluation of measures: formal constraints, Robustness and Strictness."""
