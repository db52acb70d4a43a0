"""Analysis profiles: one name for a set of conventions (docs/rankings.md, "Profiles").

``default``
    Wilcoxon with Holm correction across the pairs of each metric; improved systems
    ``UIR >= t``; the weakest-metric analysis over every pair that improves all metrics.
``jair2011``
    The conventions of Amigó, Gonzalo, Artiles and Verdejo (JAIR 2011) and the WePS paper:
    Wilcoxon at p < 0.05 *without* correction (JAIR 2011 §6.1, Table 6), improved systems with
    the strict ``UIR > 0.25`` (WePS Table 5), the weakest-metric analysis over "the ten system
    pairs with the largest improvement" (JAIR 2011, Fig. 7), and the papers' tables written by
    ``compare``.
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.errors import UnanimityError

__all__ = ["Profile", "PROFILES", "get_profile"]


@dataclass(frozen=True)
class Profile:
    """Conventions of a profile.

    Attributes
    ----------
    name : str
    test, correction : str
        Paired test and multiple-comparison correction of :func:`metrics.analyses.compare`.
    strict_improved : bool
        Improved systems need ``UIR > t`` (else ``UIR >= t``).
    paper_tables : bool
        ``compare --out`` writes the papers' tables (:mod:`metrics.paper_tables`), among them
        the weakest-metric analysis over the ten pairs with the largest improvement.
    """

    name: str
    test: str
    correction: str
    strict_improved: bool
    paper_tables: bool


PROFILES: dict[str, Profile] = {
    "default": Profile("default", "wilcoxon", "holm", False, False),
    "jair2011": Profile("jair2011", "wilcoxon", "none", True, True),
}


def get_profile(name: str) -> Profile:
    """The profile called ``name``; :class:`UnanimityError` listing the known ones otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        raise UnanimityError(f"unknown profile {name!r}; known: {', '.join(PROFILES)}") from None
