"""The papers that define the measures, cited by their providers' entries (one copy of each)."""

from __future__ import annotations

__all__ = ["AMIGO09", "RH07", "MEILA", "RR09", "HA85", "RAND", "FM", "SEMEVAL10", "ZK", "MD15",
           "AGV13", "GOLDWATER", "RAR10"]

AMIGO09 = ("Amigó, Gonzalo, Artiles, Verdejo. A comparison of extrinsic clustering evaluation "
            "metrics based on formal constraints. Information Retrieval 12(4), 2009")
RH07 = ("Rosenberg, Hirschberg. V-Measure: a conditional entropy-based external cluster "
         "evaluation measure. EMNLP-CoNLL 2007")
MEILA = "Meilă. Comparing clusterings by the variation of information. COLT 2003"
RR09 = ("Reichart, Rappoport. The NVI clustering evaluation measure. CoNLL 2009; "
         "Reichart, Abend, Rappoport. Type level clustering evaluation. 2010")
HA85 = "Hubert, Arabie. Comparing partitions. Journal of Classification 2, 1985"
RAND = "Rand. Objective criteria for the evaluation of clustering methods. JASA 66, 1971"
FM = "Fowlkes, Mallows. A method for comparing two hierarchical clusterings. JASA 78, 1983"
SEMEVAL10 = ("Manandhar, Klapaftis, Dligach, Pradhan. SemEval-2010 Task 14: word sense "
              "induction & disambiguation. 2010 (paired F-score)")
ZK = ("Zhao, Karypis. Criterion functions for document clustering. 2001; "
       "Agirre, Soroa. SemEval-2007 Task 02 (FScore)")
MD15 = ("Moreno, Dias. Adapted B-CUBED metrics to unbalanced datasets. SIGIR 2015, eq. 5")
AGV13 = ("Amigó, Gonzalo, Verdejo. A general evaluation measure for document organization "
          "tasks. SIGIR 2013")
GOLDWATER = ("Johnson. Why doesn't EM find good HMM POS-taggers? EMNLP 2007 (many-to-one, "
              "one-to-one accuracy)")
RAR10 = ("Reichart, Abend, Rappoport. Type level clustering evaluation: new measures and a POS "
          "induction case study. CoNLL 2010, §4")
