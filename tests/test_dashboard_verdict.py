"""The one-sentence verdict at the top of Compare (built in metrics.analyses from the report):
hand-worked records for each case, and agreement with the report's own fields on RepLab."""

from __future__ import annotations

import dataclasses

from metrics.analyses import compare
from metrics.measures.scoring import evaluate
from metrics.reports.pair_report import PairReport, verdict_sentence


def _rep(**kw) -> PairReport:
    base = dict(system_a="x", system_b="y", alpha=0.5, threshold=0.25, f_a=0.6, f_b=0.5,
                rank_a=1, rank_b=2, delta_f=0.1, uir=0.4, n_a_better=6, n_b_better=2, n_tied=1,
                n_biased=1, n_topics=10, uir_param=0.3, uir_verdict="a",
                better_for_every_alpha="a", crossings=(), pair_class=None, test="wilcoxon",
                correction="holm", level=0.05, metrics=())
    base.update(kw)
    return PairReport(**base)


def test_robust_and_better_for_every_alpha():
    # UIR = (6 - 2) / 10 = +0.40 >= 0.25
    assert verdict_sentence(_rep()) == (
        "x improves y robustly: UIR = +0.40 \u2265 0.25 (x at least as good on every metric on "
        "6 of 10 topics, y on 2); x has the higher F\u03b1 for every \u03b1.")


def test_b_robust_but_order_flips():
    s = verdict_sentence(_rep(uir=-0.3, n_a_better=1, n_b_better=4, uir_verdict="b",
                              better_for_every_alpha=None, crossings=(0.48,)))
    assert s.startswith("y improves x robustly: UIR = +0.30 \u2265 0.25 (y at least as good on "
                        "every metric on 4 of 10 topics, x on 1)")
    assert s.endswith("; yet the F\u03b1 order flips at \u03b1 = 0.48.")


def test_not_robust_with_many_crossings():
    s = verdict_sentence(_rep(uir=0.03, uir_verdict=None, better_for_every_alpha=None,
                              crossings=(0.1, 0.2, 0.3, 0.4, 0.5)))
    assert s == ("x's UIR of +0.03 over y is not robust (|UIR| below 0.25); the F\u03b1 order "
                 "flips at \u03b1 = 0.10, 0.20, 0.30 and 2 more.")


def test_a_uir_next_to_the_threshold_is_not_printed_as_it():
    """15/61 = 0.2459 is not robust at 0.25: printed +0.246, never +0.25 (which would read as
    the threshold met); under the strict profile a UIR of exactly 0.25 is "not above" it."""
    s = verdict_sentence(_rep(uir=15 / 61, n_a_better=15, n_b_better=0, n_topics=61,
                              uir_verdict=None))
    assert s.startswith("x's UIR of +0.246 over y is not robust (|UIR| below 0.25)")
    s = verdict_sentence(_rep(uir=0.25, n_a_better=7, n_b_better=2, n_topics=20,
                              uir_verdict=None, strict=True))
    assert s.startswith("x's UIR of +0.25 over y is not robust (|UIR| not above 0.25)")
    s = verdict_sentence(_rep(uir=-0.2541, uir_verdict="b", n_a_better=1, n_b_better=4))
    assert s.startswith("y improves x robustly: UIR = +0.254 ≥ 0.25")


def test_sentence_follows_the_report_on_replab(demo_campaign):

    table = evaluate(demo_campaign, ["bcubed_precision", "bcubed_recall"])
    comp = compare(table, "bcubed_precision", "bcubed_recall", alpha=0.5, threshold=0.25)
    systems = list(comp.uir.systems)
    seen = set()
    for a, b in [(systems[0], systems[1]), (systems[0], systems[-1]), (systems[-1], systems[0]),
                 (systems[3], systems[4])]:
        rep = comp.pair(a, b)
        s = verdict_sentence(rep)
        robust = rep.uir_verdict is not None
        seen.add(robust)
        assert ("robustly" in s) == robust and ("not robust" in s) == (not robust)
        assert f"{abs(rep.uir):.2f}" in s
        if rep.crossings and not rep.better_for_every_alpha:
            assert f"{rep.crossings[0]:.2f}" in s
        flipped = dataclasses.replace(rep, uir_verdict=None)
        assert "not robust" in verdict_sentence(flipped)
    assert seen, "no pair checked"


def test_names_can_be_roles():
    s = verdict_sentence(_rep(uir=0.03, uir_verdict=None, better_for_every_alpha=None,
                              crossings=(0.48,)), ("A", "B"))
    assert s == ("A's UIR of +0.03 over B is not robust (|UIR| below 0.25); the F\u03b1 order "
                 "flips at \u03b1 = 0.48.")


def test_the_tests_caption_and_column_name_no_correction():
    """Without a correction (the jair2011 profile) the caption says so and the corrected column
    is "p (no correction)", never "after none correction" / "p (none)"."""
    from dashboard.render.pair_view import corrected_column, tests_caption  # noqa: PLC0415

    none, holm = _rep(correction="none"), _rep()
    assert "p < 0.05 without correction:" in tests_caption(none)
    assert "none correction" not in tests_caption(none)
    assert "after holm correction across all pairs:" in tests_caption(holm)
    assert corrected_column(none) == "p (no correction)"
    assert corrected_column(holm) == "p (holm)"
