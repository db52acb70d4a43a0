"""The sidebar: the global controls, one small ``*_ui()`` function per control group, each
returning what it selects (the pattern of Streamlit's own demo apps). :func:`sidebar_ui` draws
them in order and publishes the :class:`~dashboard.state.Selection` of this run."""

from __future__ import annotations

import streamlit as st

from dashboard import ui
from dashboard.data import live, meta, uploads
from dashboard.data.sources import DEMO_KEY, Source, sources
from dashboard.state import DEFAULT_ALPHA, DEFAULT_CORRECTION, DEFAULT_TEST, Selection, publish
from metrics.analyses.baselines import BASELINES
from metrics.comparison.bootstrap import DEFAULT_RESAMPLES
from metrics.comparison.profiles import PROFILES
from metrics.comparison.significance import CORRECTIONS, TESTS
from metrics.comparison.uir import DEFAULT_THRESHOLD
from metrics.measures.registry import PAIR_DEFAULT_ALPHA

__all__ = ["sidebar_ui", "campaign_ui", "metric_pair_ui", "weights_ui", "testbeds_ui",
           "averaging_ui", "tests_ui", "baselines_ui", "pair_ui", "export_ui", "profile_ui",
           "uncertainty_ui", "more_metrics_ui", "CUSTOM_PAIR"]

CUSTOM_PAIR = "Custom pair\u2026"


def _valid(key: str, options: list, default):
    """Drop a session value no longer among the options (e.g. after a campaign switch)."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return options.index(default) if default in options else 0


def campaign_ui(sb) -> tuple[Source, dict]:
    """The campaign selector: the source and its facts (the bundled campaign if it fails)."""
    srcs = sources()
    keys = list(srcs)
    asked = st.query_params.get("campaign")
    # the URL carries the selector's label (Streamlit binds a selectbox by its shown text)
    known = set(keys) | {s.label for s in srcs.values()}
    if asked and asked not in known and ui.say_once("_gone_campaign", asked):
        # said once; the selector then falls back
        sb.warning(f"The link names the campaign \u201c{asked}\u201d, which is not available "
                   "here: uploads belong to the browser session that made them and are removed "
                   "when it ends. Showing the bundled campaign; load the file again on the "
                   "**Data** page.", icon=":material/link_off:")
    _valid("campaign", keys, keys[0])
    key = sb.selectbox("Campaign", keys, format_func=lambda k: srcs[k].label if k in srcs else k,
                       key="campaign", bind="query-params")
    src = srcs[key]
    try:
        return src, live.campaign_info(src)
    except Exception as exc:  # noqa: BLE001 - a bad campaign must not break the app
        sb.error(f"Could not load {src.label}: {uploads.user_text(str(exc))}")
        src = srcs[DEMO_KEY]
        return src, live.campaign_info(src)


def metric_pair_ui(sb, src: Source, info: dict) -> tuple[str, str, str]:
    """The metric pair: ``(label, precision, recall)``."""
    pairs = live.metric_pairs(src)
    labels = list(pairs) + [CUSTOM_PAIR]
    if st.session_state.get("_pairs_of", src.key) != src.key:
        # another campaign: its own best pair (a token tagging campaign's type-level pair)
        st.session_state["metrics"] = labels[0]
    st.session_state["_pairs_of"] = src.key
    _valid("metrics", labels, labels[0])
    label = sb.selectbox("Metric pair", labels, key="metrics", bind="query-params",
                         help="Two metrics (for the standard pairs a precision-like and a "
                              "recall-like one). F\u03b1 weighs them by "
                              "\u03b1; UIR needs no weight.")
    if label == CUSTOM_PAIR:
        names = live.metric_names(src)
        c1, c2 = sb.columns(2)
        _valid("p", names, names[0])
        _valid("r", names, names[min(1, len(names) - 1)])
        precision = c1.selectbox("First metric", names, index=0, key="p", bind="query-params")
        recall = c2.selectbox("Second metric", names, index=min(1, len(names) - 1), key="r",
                              bind="query-params")
        if precision == recall:
            sb.warning("Pick two different metrics.")
            label = labels[0]
            precision, recall = pairs[label]
    else:
        precision, recall = pairs[label]
    _pair_alpha(label)
    if not info["has_clusterings"]:
        sb.caption("Score-table campaign: only the metrics of the table.")
    return label, precision, recall


def more_metrics_ui(sb, src: Source, precision: str, recall: str) -> tuple[str, ...]:
    """More metrics for UIR (a set of three or more): the unanimity views (UIR matrix, threshold
    curve, tie groups, the pair's UIR) take the pair and these; F\u03b1 stays on the pair."""
    options = [m for m in live.metric_names(src) if m not in (precision, recall)]
    if not options:
        return ()
    if any(m not in options for m in st.session_state.get("more", [])):
        st.session_state["more"] = [m for m in st.session_state["more"] if m in options]
    chosen = sb.multiselect("More metrics for UIR", options, key="more", bind="query-params",
                            help="UIR over three or more metrics: a system improves another on "
                                 "a topic when it is at least as good on every one of them "
                                 "(docs/measures.md \u00a75). F\u03b1 and its curves stay on "
                                 "the pair.")
    return tuple(chosen)


def _pair_alpha(label: str) -> None:
    """A pair's own default alpha (the adapted BCubed pair: 0.9, ``PAIR_DEFAULT_ALPHA``): set
    when the pair is chosen, or on the first run when the link names no alpha."""
    default = PAIR_DEFAULT_ALPHA.get(label, DEFAULT_ALPHA)
    last = st.session_state.get("_alpha_pair")
    st.session_state["_alpha_pair"] = label
    if last is None:
        if "alpha" not in st.query_params and "alpha" not in st.session_state:
            st.session_state["alpha"] = default
    elif last != label and (label in PAIR_DEFAULT_ALPHA or last in PAIR_DEFAULT_ALPHA):
        st.session_state["alpha"] = default


def weights_ui(sb, caption: str) -> tuple[float, float]:
    """Alpha of F_alpha (``caption``: the pair's words, ``metrics.analyses.metric_pair``) and the
    UIR threshold."""
    alpha = sb.slider(caption, 0.0, 1.0,
                      None if "alpha" in st.session_state else DEFAULT_ALPHA,
                      0.01, key="alpha", bind="query-params",
                      help="F\u03b1 = 1 / (\u03b1/P + (1\u2212\u03b1)/R); "
                           "0.5 is the harmonic mean.")
    threshold = sb.slider("UIR threshold", 0.0, 1.0, DEFAULT_THRESHOLD, 0.01, key="threshold",
                          bind="query-params",
                          help="UIR(a, b) \u2265 threshold counts as a robust improvement "
                               "(0.25 in Amig\u00f3 et al.).")
    return float(alpha), float(threshold)


def testbeds_ui(sb, info: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The test-bed filter: ``(selected beds, all beds)``."""
    all_beds = tuple(info["testbeds"])
    if not all_beds:
        return (), ()
    chosen = sb.pills("Test beds", list(all_beds), selection_mode="multi",
                      default=list(all_beds), key="beds", bind="query-params",
                      help="Restrict every view to the topics of these test beds.")
    if not chosen:
        sb.caption("No test bed selected: showing all.")
    return (tuple(chosen) if chosen else all_beds), all_beds


def averaging_ui(sb) -> str:
    """Macro or micro averaging over topics."""
    return sb.segmented_control(
        "Averaging over topics", ["macro", "micro"], default="macro", key="average",
        bind="query-params",
        help="macro: mean of per-topic F\u03b1; micro: F\u03b1 of the mean precision and "
             "recall.") or "macro"


def profile_ui(sb) -> str:
    """The analysis profile (``metrics.comparison.profiles``): its paired test and correction become
    the
    test controls' values when it is chosen (they can still be changed), and it says whether
    improved systems need ``UIR > threshold`` (jair2011) or ``UIR >= threshold``."""
    names = list(PROFILES)
    _valid("profile", names, "default")
    name = sb.segmented_control(
        "Profile", names, default="default", key="profile", bind="query-params",
        help="default: Wilcoxon with Holm correction, improved systems UIR \u2265 threshold. "
             "jair2011: the papers' conventions, Wilcoxon without correction and improved "
             "systems UIR > threshold (docs/rankings.md, \u201cProfiles\u201d).") or "default"
    last = st.session_state.get("_profile_of")
    st.session_state["_profile_of"] = name
    prof = PROFILES[name]
    if last is None:  # first run: the link's own test / correction win over the profile's
        for key, value in (("test", prof.test), ("correction", prof.correction)):
            if key not in st.query_params and key not in st.session_state:
                st.session_state[key] = value
    elif last != name:
        st.session_state["test"] = prof.test
        st.session_state["correction"] = prof.correction
    return name


def tests_ui(sb, profile: str = "default") -> tuple[str, str]:
    """The paired test and its correction across pairs (every page's verdicts use them); a
    cleared box means the profile's own choice."""
    c1, c2 = sb.columns(2)
    test = c1.selectbox("Paired test", list(TESTS),
                        index=None if "test" in st.session_state else TESTS.index(DEFAULT_TEST),
                        key="test",
                        bind="query-params", help="Per metric, over topics (docs/measures.md, "
                                                  "\u201cPaired tests\u201d).")
    corr = c2.selectbox("Correction", list(CORRECTIONS),
                        index=(None if "correction" in st.session_state
                               else CORRECTIONS.index(DEFAULT_CORRECTION)),
                        key="correction", bind="query-params",
                        help="Across all pairs of the campaign, per metric.")
    prof = PROFILES.get(profile, PROFILES["default"])
    return (str(test) if test in TESTS else prof.test,
            str(corr) if corr in CORRECTIONS else prof.correction)


def baselines_ui(sb, info: dict) -> bool:
    """Whether to add the baseline systems (clustering campaigns only)."""
    usable = info["has_clusterings"] and not info.get("organisation")
    on = sb.toggle("Add baselines", value=False, key="baselines", bind="query-params",
                   disabled=not usable,
                   help="all-in-one, one-in-one, combined, random and ultra-shaped "
                        "random baselines (flat clustering campaigns only).")
    return bool(on and usable)


def pair_ui(box, systems: list[str], default_a: str, default_b: str,
            campaign: str | None = None) -> tuple[str, str]:
    """Systems A and B.

    The widgets have no default of their own (``index=None``): the default pair depends on the
    metric pair and the test-bed filter, so it is written into the session state and from there
    into the URL like any chosen value, and a shared link always names A and B. When the
    campaign changes (another one picked, or an upload just loaded) A and B become the new
    campaign's default pair, even where the old names exist in it too.
    """
    last = st.session_state.get("_pair_of")
    st.session_state["_pair_of"] = campaign
    if last is not None and campaign is not None and last != campaign:
        st.session_state["a"], st.session_state["b"] = default_a, default_b
    _valid("a", systems, default_a)
    _valid("b", systems, default_b)
    for key, default in (("a", default_a), ("b", default_b)):
        if key in st.query_params:
            continue
        # Seed the default on the first run; on later runs re-assign the value: Streamlit writes
        # a programmatic set of a bound widget to the URL once the widget exists, so from the
        # first interaction on the link names A and B (before it, the link without them opens
        # the same default pair: it depends only on what the URL carries).
        value = st.session_state.get(key)
        st.session_state[key] = default if value is None else value
    with box:
        fmt = (lambda s: f"{s} (baseline)" if s in BASELINES else s)  # noqa: E731
        a = st.selectbox("System A", systems, index=None, key="a", bind="query-params",
                         format_func=fmt)
        b = st.selectbox("System B", systems, index=None, key="b", bind="query-params",
                         format_func=fmt)
        a = a if a in systems else default_a
        b = b if b in systems else default_b
        if a == b:
            st.warning("A and B are the same system: pick two.")
    return a, b


def uncertainty_ui(sb) -> tuple[int, int]:
    """The bootstrap over topics: ``(resamples, seed)``, (0, seed) while off (the default, so
    that a cold open stays fast)."""
    with sb.expander("Bootstrap intervals"):
        on = st.toggle("Bootstrap over topics", value=False, key="boot", bind="query-params",
                       help="Intervals of UIR, parametric UIR and ΔF for the pair, and rank "
                            "confidence sets on the Leaderboard: paired resamples of the "
                            "topics, within each test bed (docs/uncertainty.md).")
        c1, c2 = st.columns(2)
        n = c1.number_input("Resamples", 100, 10_000, DEFAULT_RESAMPLES, 100, key="boot_n",
                            bind="query-params", disabled=not on)
        seed = c2.number_input("Seed", 0, 2**31 - 1, 0, 1, key="boot_seed",
                               bind="query-params", disabled=not on)
    return (int(n) if on else 0), int(seed)


def export_ui(sb) -> str:
    """Image format of the charts' camera button; below it, the slot of the page's "all
    figures" download (:func:`dashboard.ui.page_figures_download`)."""
    with sb.expander("Chart export"):
        fmt = st.radio("Toolbar camera saves", ["png", "svg"], horizontal=True, key="imgfmt",
                       persist_state="session")
    ui.page_figures_start(sb.container())  # the page's "all figures" zip, once it has run
    return fmt


def _pair_words(precision: str, recall: str):
    from metrics.analyses.metric_pair import pair_words  # noqa: PLC0415 - deferred: metrics loads after the page's first paint

    return pair_words(precision, recall)


def _one_signal_note(box, sel: Selection) -> None:
    """Under the metric pair: the verdict of ``metrics.analyses.metric_pair.pair_agreement``
    when the two metrics rank the systems identically on most topics."""
    try:
        verdict = meta.pair_agreement(live.table(sel))
    except Exception:  # noqa: BLE001 - the pages say what is wrong with the table
        return
    if verdict.one_signal:
        box.warning(verdict.message, icon=":material/link:")


def sidebar_ui() -> Selection:
    """Draw the global controls in the sidebar and publish the selection.

    The sidebar shows: campaign, the pair of systems (A, B), metric pair, more metrics for UIR,
    alpha, UIR threshold,
    test beds, averaging, baselines, the profile, the paired test and its correction, the
    bootstrap intervals (off by default).
    """
    sb = st.sidebar
    src, info = campaign_ui(sb)
    pair_box = sb.container()
    label, precision, recall = metric_pair_ui(sb, src, info)
    pair_note = sb.container()  # the pair's one-signal verdict, under the pair
    more = more_metrics_ui(sb, src, precision, recall)
    alpha, threshold = weights_ui(sb, _pair_words(precision, recall).alpha_caption)
    beds, all_beds = testbeds_ui(sb, info)
    average = averaging_ui(sb)
    baselines = baselines_ui(sb, info)
    profile = profile_ui(sb)
    with sb.expander("Significance tests"):
        test, corr = tests_ui(st, profile)
    sel0 = Selection(src, label, precision, recall, alpha, threshold, average, beds, all_beds,
                     baselines, "", "", extra_metrics=more)
    systems, default_a, default_b = live.default_pair(sel0)
    _one_signal_note(pair_note, sel0)
    a, b = pair_ui(pair_box, systems, default_a, default_b, src.key)
    n_boot, boot_seed = uncertainty_ui(sb)
    fmt = export_ui(sb)
    return publish(Selection(src, label, precision, recall, alpha, threshold, average, beds,
                             all_beds, baselines, a, b, tuple(systems), fmt, test, corr,
                             profile, n_boot, boot_seed, more))
