"""Comparison primitives: F_alpha, UIR and parametric UIR, paired tests, tie rankings, profiles."""
