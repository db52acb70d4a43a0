"""Analysis profiles: one name for a set of conventions (docs/rankings.md, "Profiles").

A profile is part of the computation: :func:`metrics.analyses.compare` takes ``profile=`` and
it decides the paired test and correction (unless given), the improved-systems rule and the
weakest-metric pair selection of the papers' tables; every view and file reads the result.

``default``
    Wilcoxon with Holm correction across the pairs of each metric; improved systems
    ``UIR >= t``; the weakest-metric analysis over every pair that improves all metrics.
``jair2011``
    The conventions of Amigó, Gonzalo, Artiles and Verdejo (JAIR 2011) and the WePS paper:
    Wilcoxon at p < 0.05 *without* correction (JAIR 2011 §6.1, Table 6), improved systems with the
    strict ``UIR > 0.25`` (WePS Table 5), the weakest-metric analysis over "the ten system pairs
    with the largest improvement" (JAIR 2011, Fig. 7), and the papers' tables written by
    ``compare``.

This module owns the default paired test and correction (:data:`DEFAULT_TEST`,
:data:`DEFAULT_CORRECTION`): the functions of :mod:`metrics.comparison.significance`, the
comparison and the dashboard take them from here. It also owns the names a comparison chooses
among (:data:`TESTS`, :data:`CORRECTIONS`, :data:`AVERAGES`) and the UIR threshold and tolerance
(:data:`DEFAULT_THRESHOLD`, :data:`DEFAULT_TOL`), re-exported by the modules that use them: it
imports neither numpy nor scipy, so the command line builds its argument parsers from it
without importing the computation (``unanimity --help`` stays fast).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from metrics.errors import UnanimityError

__all__ = ["Profile", "PROFILES", "DEFAULT_PROFILE", "DEFAULT_TEST", "DEFAULT_CORRECTION",
           "get_profile", "profile_of", "TESTS", "CORRECTIONS", "AVERAGES", "DEFAULT_TOL",
           "DEFAULT_THRESHOLD", "DEFAULT_CONFIDENCE", "improves_symbol"]

#: The paired tests (:func:`metrics.comparison.paired.paired_test`) and the multiple-comparison
#: corrections (:func:`metrics.comparison.significance.correct_pvalues`).
TESTS: tuple[str, ...] = ("wilcoxon", "t", "sign", "randomization")
CORRECTIONS: tuple[str, ...] = ("holm", "bonferroni", "bh", "none")
#: Campaign F_alpha: mean of the per-topic F (macro) or F of the mean P and R (micro)
#: (:mod:`metrics.comparison.curves`).
AVERAGES: tuple[str, ...] = ("macro", "micro")
#: Differences within this tolerance are ties, in UIR and the paired tests.
DEFAULT_TOL = 1e-9
#: The UIR threshold of a robust improvement (the papers' 0.25): improved and reference systems,
#: the robust verdict of a pair, the tie ranking and the papers' tables all default to it.
DEFAULT_THRESHOLD = 0.25
#: Confidence of the bootstrap intervals and rank sets (docs/uncertainty.md).
DEFAULT_CONFIDENCE = 0.95

#: The paired test and the multiple-comparison correction of the default profile.
DEFAULT_TEST = "wilcoxon"
DEFAULT_CORRECTION = "holm"
#: The profile of a comparison that names none.
DEFAULT_PROFILE = "default"


@dataclass(frozen=True)
class Profile:
    """Conventions of a profile.

    Attributes
    ----------
    name : str
    test, correction : str
        Paired test and multiple-comparison correction of :func:`metrics.analyses.compare`.
    strict_improved : bool
        A system improves another when ``UIR > t`` (else ``UIR >= t``): improved and reference
        systems, the robust verdict of a pair and the tie ranking follow this rule
        (:func:`metrics.comparison.reference.improves`).
    paper_tables : bool
        ``compare --out`` writes the papers' tables (:mod:`metrics.analyses.paper_tables`).
    weakest_top : int
        The papers' weakest-metric table takes the ``weakest_top`` pairs with the largest
        weakest-metric improvement (JAIR 2011, Fig. 7: ten).
    """

    name: str
    test: str
    correction: str
    strict_improved: bool
    paper_tables: bool
    weakest_top: int = 10


PROFILES: dict[str, Profile] = {
    "default": Profile("default", DEFAULT_TEST, DEFAULT_CORRECTION, False, False),
    "jair2011": Profile("jair2011", DEFAULT_TEST, "none", True, True),
}


def get_profile(name: str) -> Profile:
    """The profile called ``name``; :class:`UnanimityError` listing the known ones otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        raise UnanimityError(f"unknown profile {name!r}; known: {', '.join(PROFILES)}") from None


def profile_of(parameters: Mapping) -> Profile:
    """The profile a comparison (or a reopened bundle) was computed under, from its
    ``parameters``; the default profile for one written before comparisons recorded it."""
    return get_profile(str(parameters.get("profile", DEFAULT_PROFILE)))


def improves_symbol(strict: bool) -> str:
    """How a view writes the rule of "a improves b" against the threshold t: ``>`` under a
    strict profile (UIR > t, ``jair2011``), else ``≥``
    (:func:`metrics.comparison.reference.improves`)."""
    return ">" if strict else "\u2265"
