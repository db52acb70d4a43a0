"""Can a paired test be significant at all on this many topics? (docs/measures.md §6)

A rank or sign test over n topics has a floor under its p-value: the most extreme sample, every
topic favouring the same system, has the two-sided p-value

    p_min(n) = 2 / 2^n = 2^(1 - n)

for the exact Wilcoxon signed-rank test (R+ = n(n+1)/2 is one of 2^n equally likely sign
patterns, and so is its mirror), the sign test (binomial: 2 * 0.5^n) and the exact
randomisation test (two of the 2^n sign flips reach the observed |mean|). With a random sample
of R sign flips instead (2^n > R) the floor is 1 / (1 + R). The paired t-test has no floor
(p -> 0 as the spread of the differences shrinks). With p_min(n) >= the level no pair of the
campaign can be significant, whatever the scores: 5 topics or fewer at 0.05 (p_min(5) = 0.0625).
The tie-group ranking (docs/rankings.md) places a system above another only on a significant,
concordant improvement, so on such a campaign it has one group (or the groups of UIR cycles)
even where UIR orders the systems.
"""

from __future__ import annotations

from dataclasses import dataclass

from metrics.comparison.paired import DEFAULT_RESAMPLES, TESTS, check_test

__all__ = ["smallest_p", "SmallSample", "small_sample"]


def smallest_p(test: str, n_topics: int, n_resamples: int = DEFAULT_RESAMPLES) -> float:
    """The smallest two-sided p-value ``test`` can return on ``n_topics`` paired topics.

    ``2^(1 - n)`` for ``wilcoxon``, ``sign`` and the exact ``randomization`` test; ``1 / (1 +
    n_resamples)`` for the randomisation test with sampled sign flips; 0 for ``t`` (n >= 2);
    1 without a topic (or one topic for ``t``).
    """
    check_test(test)
    n = int(n_topics)
    if n < 1 or (test == "t" and n < 2):
        return 1.0
    if test == "t":
        return 0.0
    if test == "randomization" and not (n <= 20 and 2 ** n <= n_resamples):
        return 1.0 / (1.0 + n_resamples)
    return min(1.0, 2.0 ** (1 - n))


@dataclass(frozen=True)
class SmallSample:
    """Whether ``test`` can reach ``p < level`` on ``n_topics`` topics.

    Attributes
    ----------
    test, n_topics, level
        The test, the topics it is run on and the significance level.
    p_min : float
        :func:`smallest_p` of the test on that many topics.
    can_be_significant : bool
        ``p_min < level`` (before any correction, which only raises p-values).
    """

    test: str
    n_topics: int
    level: float
    p_min: float
    can_be_significant: bool

    def sentence(self) -> str:
        """The verdict in words, or "" when the test can be significant: e.g. "With 3 topics no
        paired wilcoxon test can reach p < 0.05: its smallest two-sided p-value is 0.25 (every
        topic favouring the same system), so no pair is significant and the tie groups, which
        need a significant improvement, put every system in one group (docs/measures.md §6)."."""
        if self.can_be_significant:
            return ""
        topics = "1 topic" if self.n_topics == 1 else f"{self.n_topics} topics"
        return (f"With {topics} no paired {self.test} test can reach p < {self.level:g}: its "
                f"smallest two-sided p-value is {self.p_min:.3g} (every topic favouring the same "
                "system), so no pair is significant and the tie groups, which need a significant "
                "improvement, put every system in one group (docs/measures.md \u00a76).")


def small_sample(test: str, n_topics: int, level: float,
                 n_resamples: int = DEFAULT_RESAMPLES) -> SmallSample:
    """:class:`SmallSample` of ``test`` on ``n_topics`` topics at ``level``; with no test
    (``"none"``) there is nothing to flag (``can_be_significant`` True, ``p_min`` NaN)."""
    if test not in TESTS:
        return SmallSample(test=test, n_topics=int(n_topics), level=float(level),
                           p_min=float("nan"), can_be_significant=True)
    p_min = smallest_p(test, n_topics, n_resamples)
    return SmallSample(test=test, n_topics=int(n_topics), level=float(level), p_min=p_min,
                       can_be_significant=p_min < level)
