"""Formal constraints for any measure a user names: each verdict with its smallest failing case.

``unanimity constraints --metrics ...`` (``docs/meta-evaluation.md`` §3) reads a measure's name,
finds the family of constraints that applies to it and checks it on the toy cases of that
family:

* a registered clustering metric: the clustering constraints of
  :mod:`metrics.meta.constraints_clustering` (Amigó et al. 2009; the unbalanced-classes
  constraint of the adapted BCubed, Moreno & Dias 2015) and :data:`OVERLAP_CASE`, the
  overlapping form of "cluster size vs quantity" (the R&S paper, Amigó, Gonzalo, Verdejo,
  SIGIR 2013, §4.2);
* an IR measure (``ir_measures`` names: ``AP``, ``nDCG@10``, ``RBP(p=0.8)``, ...), ``ERR`` or
  ``Q-measure`` (:mod:`metrics.measures.organisation.graded_ir`): the ranking constraints of
  :mod:`metrics.meta.constraints_organisation`;
* a filtering measure of :mod:`metrics.measures.organisation.filtering` (``accuracy``,
  ``utility``, ``lam``, ...): the two filtering constraints;
* ``reliability`` / ``sensitivity`` (with their ``n``, ``w``) and ``R*S``: clustering (R and S
  alone), ranking and filtering;
* ``F(m1,m2)`` or ``F(m1,m2,alpha=a)`` of two clustering metrics: the clustering constraints of
  their F_alpha = 1 / (alpha / m1 + (1 - alpha) / m2).

A verdict holds when the measure scores the constraint's ``better`` output strictly better
than ``worse``. When it fails, the case shown is the smallest that fails: the constraint's one
pair, or for the threshold constraints the smallest n of the grid where ``better`` does not win.

The overlapping size-vs-quantity case: a gold cluster of five items (A) and two items x, y
that share four gold classes. ``worse`` separates x and y in all four (many small errors),
``better`` takes one item out of the big cluster (one small error in a big cluster). Extended
BCubed counts x and y once however many classes they share, so its F prefers ``worse``
(0.923 against 0.871); Reliability and Sensitivity count each occurrence of x and y as a
document and prefer ``better`` (0.934 against 0.818), as the R&S paper states.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from metrics.comparison.combine import f_alpha
from metrics.errors import UnanimityError
from metrics.measures.organisation.filtering import FILTERING_MEASURES
from metrics.measures.registry import is_ir_measure, parse_metric
from metrics.measures.scoring import score_clusterings
from metrics.meta.constraints_clustering import _EXAMPLES, CONSTRAINTS, constraint_examples
from metrics.meta.constraints_organisation import (
    FILTERING_CONSTRAINTS,
    RANKING_CONSTRAINTS,
    ConstraintCase,
    Organisation,
    Scorer,
    constraint_cases,
    err_scorer,
    filtering_scorer,
    ir_measures_scorer,
    q_measure_scorer,
    threshold_scan,
)
from metrics.meta.constraints_rs import PAPER_N, PAPER_W, rs_pair

__all__ = ["ConstraintVerdict", "ConstraintReport", "OVERLAP_CASE", "OVERLAP_CONSTRAINT",
           "CONSTRAINT_ONLY_MEASURES", "check_measures"]

#: the overlapping form of "cluster size vs quantity" (module docstring): per item, its gold
#: classes, its clusters in ``worse`` and in ``better``; items a0-a4, then x and y.
OVERLAP_CONSTRAINT = "size_vs_quantity_overlap"
_SHARED = [f"G{i}" for i in range(4)]
OVERLAP_CASE: tuple[list[list[str]], list[list[str]], list[list[str]]] = (
    [["A"]] * 5 + [_SHARED] * 2,
    [["A"]] * 5 + [[f"X{i}" for i in range(4)], [f"Y{i}" for i in range(4)]],
    [["A2"]] + [["A"]] * 4 + [_SHARED] * 2,
)
_OVERLAP_PICTURE = ("[a0..a4] x,y apart in all four classes they share",
                    "[a0] [a1..a4] x,y together in the four classes")

#: measures the checker knows besides registered metrics and IR measures.
CONSTRAINT_ONLY_MEASURES: tuple[str, ...] = ("ERR", "Q-measure", "R*S",
                                             *[m for m in FILTERING_MEASURES
                                               if m not in ("reliability", "sensitivity")])


#: ``F(m1,m2)`` or ``F(m1,m2,alpha=a)``: the F_alpha of two clustering metrics.
_F_PAIR = re.compile(r"F\(\s*([^,()]+(?:\([^()]*\))?)\s*,\s*([^,()]+(?:\([^()]*\))?)\s*"
                     r"(?:,\s*alpha\s*=\s*([0-9.]+)\s*)?\)")


@dataclass(frozen=True)
class ConstraintVerdict:
    """One measure on one constraint.

    Attributes
    ----------
    metric, family, constraint : str
        The measure, the family of constraints checked (``clustering``, ``ranking``,
        ``filtering``) and the constraint.
    holds : bool
        True when the measure scores ``better`` strictly better than ``worse``.
    better, worse : float
        The scores of the case shown.
    case : str
        The case shown: the smallest failing one, or the deciding one when it holds.
    """

    metric: str
    family: str
    constraint: str
    holds: bool
    better: float
    worse: float
    case: str


@dataclass(frozen=True)
class ConstraintReport:
    """Every verdict of :func:`check_measures`, in the order of the measures asked for."""

    verdicts: list[ConstraintVerdict]

    def to_dataframe(self) -> pd.DataFrame:
        """``metric, family, constraint, holds, better, worse, case``."""
        cols = ["metric", "family", "constraint", "holds", "better", "worse", "case"]
        return pd.DataFrame([[getattr(v, c) for c in cols] for v in self.verdicts], columns=cols)


def _rs_scorer(name: str, part: int | None, n: float, w: float) -> Scorer:
    """R (``part`` 0), S (1) or their F_0.5 (None) on ranking and filtering outputs."""
    def score(grades: Mapping[str, int], output: Organisation) -> float:
        r, s = rs_pair(grades, output, n, w)
        return float(f_alpha(r, s, 0.5)) if part is None else (r, s)[part]
    return Scorer(name, score, 1, ("ranking", "filtering"))


def _short(docs: Sequence[str]) -> str:
    """``n1 n2 n3 r1`` -> ``n1..n3 r1``: runs of consecutive numbers of one letter joined."""
    out: list[str] = []
    i = 0
    while i < len(docs):
        j = i
        while (j + 1 < len(docs) and docs[j + 1][0] == docs[i][0]
               and int(docs[j + 1][1:]) == int(docs[j][1:]) + 1):
            j += 1
        out.append(docs[i] if j - i < 2 else f"{docs[i]}..{docs[j]}")
        if j - i == 1:
            out.append(docs[j])
        i = j + 1
    return " ".join(out)


def _picture(o: Organisation) -> str:
    if o.tail:
        return _short(o.documents)
    return f"accepted {{{_short(list(o.levels[0]))}}} rejected {{{_short(list(o.levels[1]))}}}"


def _organisation_verdicts(scorer: Scorer, family: str,
                           cases: Mapping[str, list[ConstraintCase]]) -> list[ConstraintVerdict]:
    names = RANKING_CONSTRAINTS if family == "ranking" else FILTERING_CONSTRAINTS
    out = []
    for name in names:
        family_cases = cases[name]
        scan = threshold_scan(scorer, family_cases)
        agrees = scan["agrees"].to_numpy()
        if name == "closeness_threshold":  # exists n: holds when some n wins
            holds = bool(agrees.any())
            at = int(np.flatnonzero(agrees)[0]) if holds else 0
        else:  # one case, or deepness_threshold read at the largest n
            holds = bool(agrees[-1])
            at = len(agrees) - 1 if holds else int(np.flatnonzero(~agrees)[0])
        case = family_cases[at]
        where = f"n = {case.n}: " if case.n is not None else ""
        out.append(ConstraintVerdict(
            scorer.name, family, name, holds, float(scan["better"].iloc[at]),
            float(scan["worse"].iloc[at]),
            f"{where}worse {_picture(case.worse)} | better {_picture(case.better)}"))
    return out


def _clustering_verdicts(label: str, key: str | None, pair: tuple[str, str] | None,
                         sign: int, alpha: float = 0.5) -> list[ConstraintVerdict]:
    """A registered metric (``key``) or the F_alpha of a pair on the clustering cases."""
    needed = [key] if key else list(pair or ())
    cases: dict[str, tuple[list, list, list]] = {name: constraint_examples()[name]
                                                 for name in CONSTRAINTS}
    pictures = dict(_EXAMPLES)
    cases[OVERLAP_CONSTRAINT] = OVERLAP_CASE
    pictures[OVERLAP_CONSTRAINT] = _OVERLAP_PICTURE
    out = []
    for name, (gold, worse, better) in cases.items():
        sw, sb = score_clusterings(gold, worse, needed), score_clusterings(gold, better, needed)
        if key:
            b, w = sb[key], sw[key]
        else:
            p, r = needed
            b, w = float(f_alpha(sb[p], sb[r], alpha)), float(f_alpha(sw[p], sw[r], alpha))
        wp, bp = pictures[name]
        out.append(ConstraintVerdict(label, "clustering", name, bool(sign * (b - w) > 1e-12),
                                     float(b), float(w), f"worse {wp} | better {bp}"))
    return out


def _unknown(name: str, why: str) -> UnanimityError:
    return UnanimityError(f"{name!r} {why}; a measure is a registered clustering "
                          f"metric (unanimity evaluate --list-metrics), an IR measure "
                          f"(AP, nDCG@10, RBP(p=0.8), ...) or one of "
                          f"{', '.join(CONSTRAINT_ONLY_MEASURES)}")


def check_measures(names: Sequence[str]) -> ConstraintReport:
    """Check each named measure on every constraint of its family (module docstring).

    Raises
    ------
    UnanimityError
        A one-line error for a name that is none of the measures the checker knows, or a
        metric with no formal constraints (type-level metrics).
    """
    cases = constraint_cases()
    verdicts: list[ConstraintVerdict] = []
    for raw in names:
        name = raw.strip()
        if name == "ERR":
            verdicts += _organisation_verdicts(err_scorer(), "ranking", cases)
        elif name in ("Q-measure", "Q"):
            verdicts += _organisation_verdicts(q_measure_scorer(), "ranking", cases)
        elif name == "R*S":
            verdicts += _clustering_verdicts(name, None, ("reliability", "sensitivity"), 1)
            for family in ("ranking", "filtering"):
                verdicts += _organisation_verdicts(_rs_scorer(name, None, PAPER_N, PAPER_W),
                                                   family, cases)
        elif (pair := _F_PAIR.fullmatch(name)) is not None:
            verdicts += _pair_verdicts(name, pair)
        elif name in FILTERING_MEASURES and name not in ("reliability", "sensitivity"):
            verdicts += _organisation_verdicts(filtering_scorer(name), "filtering", cases)
        else:
            verdicts += _registered(name, cases)
    return ConstraintReport(verdicts)


def _pair_verdicts(name: str, match: re.Match) -> list[ConstraintVerdict]:
    """``F(m1,m2)`` / ``F(m1,m2,alpha=a)`` of two clustering metrics on the clustering cases."""
    try:
        p, r = (parse_metric(m.strip()) for m in (match.group(1), match.group(2)))
        alpha = float(match.group(3)) if match.group(3) else 0.5
    except (UnanimityError, ValueError):
        raise _unknown(name, "does not combine two clustering metrics") from None
    if (not 0 <= alpha <= 1 or is_ir_measure(p) or is_ir_measure(r) or not p.info.kernel
            or not r.info.kernel or p.info.type_level or r.info.type_level
            or p.direction < 0 or r.direction < 0):
        raise _unknown(name, "does not combine two higher-is-better clustering metrics with "
                             "0 <= alpha <= 1")
    return _clustering_verdicts(name, None, (str(p), str(r)), 1, alpha)


def _registered(name: str, cases: Mapping[str, list[ConstraintCase]]) -> list[ConstraintVerdict]:
    try:
        spec = parse_metric(name)
    except UnanimityError:
        raise _unknown(name, "is not a measure the constraint checker knows") from None
    key = str(spec)
    if is_ir_measure(spec):
        return _organisation_verdicts(ir_measures_scorer(key), "ranking", cases)
    info = spec.info
    if info.type_level:
        raise _unknown(name, "is a type-level metric, which has no formal constraints here")
    out = _clustering_verdicts(key, key, None, spec.direction) if info.kernel else []
    if spec.name in ("reliability", "sensitivity"):
        n = float(spec.params.get("n", PAPER_N))
        w = float(spec.params.get("w", PAPER_W))
        part = 0 if spec.name == "reliability" else 1
        for family in ("ranking", "filtering"):
            out += _organisation_verdicts(_rs_scorer(key, part, n, w), family, cases)
    if not out:
        raise _unknown(name, "has no constraints the checker can run")
    return out
