"""Campaign kinds and metric providers (docs/providers.md): every family through one door.

* the kind of every bundled campaign, and of small filtering, ranking and overlapping ones;
* every metric name either works or gives one line naming the metric, the campaign's kind and
  the kinds its provider supports, before any work, on ``evaluate``, ``compare`` and
  ``meta-evaluate``;
* the pickers offer only what the kind supports (no clustering metric on a ranking);
* the Dask engine refuses by the provider's word;
* a new family takes one module (here: a class in this test) and one line of registration.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from metrics.cli import main
from metrics.errors import UnanimityError
from metrics.io import load
from metrics.io.build import RawClustering, build_campaign
from metrics.measures import registry
from metrics.measures.provider import (
    KNOWN,
    OWNER,
    MetricInfo,
    MetricSpec,
    Provider,
    refuse_for_dask,
)
from metrics.measures.registry import check_metrics, metrics_for, parse_metric, register
from metrics.measures.scoring import evaluate, score_clusterings
from metrics.model.campaign_kinds import ALL_KINDS, CampaignKind, campaign_kind

ROOT = Path(__file__).resolve().parents[1]
REPLAB = ROOT / "demo_data" / "replab2013"
UD = ROOT / "demo_data" / "ud-ewt"
SMALL = ROOT / "tests" / "data" / "trec_small"
HAND = ROOT / "tests" / "data" / "organisation" / "handworked"
SCORES = ROOT / "tests" / "data" / "scores"


def _folder(tmp_path: Path, gold: str, runs: dict[str, str], toml: str | None = None) -> Path:
    folder = tmp_path / "camp"
    (folder / "runs").mkdir(parents=True)
    (folder / "gold.tsv").write_text(gold)
    for name, text in runs.items():
        (folder / "runs" / f"{name}.tsv").write_text(text)
    if toml is not None:
        (folder / "campaign.toml").write_text(toml)
    return folder


FILTER_GOLD = "topic\titem\tlevel\nq\ta\t1\nq\tb\t1\nq\tc\t2\nq\td\t2\n"
FILTER_RUN = "topic\titem\tlevel\nq\ta\t1\nq\tc\t1\nq\tb\t2\nq\td\t2\n"


def filtering_campaign(tmp_path: Path):
    return load(_folder(tmp_path, FILTER_GOLD, {"r": FILTER_RUN}))


def test_kinds_of_the_bundled_campaigns(tmp_path):
    assert campaign_kind(load(REPLAB)) is CampaignKind.CLUSTERING
    assert campaign_kind(load(UD)) is CampaignKind.TOKEN_TAGGING
    assert campaign_kind(load(SMALL)) is CampaignKind.RANKING
    assert campaign_kind(load(HAND)) is CampaignKind.ORGANISATION_MIXTURE
    table = next(p for p in sorted(SCORES.iterdir()) if p.suffix == ".csv")
    assert campaign_kind(load(table)) is CampaignKind.SCORE_TABLE
    assert campaign_kind(filtering_campaign(tmp_path)) is CampaignKind.FILTERING


def test_kinds_of_rankings_without_tail_and_of_overlap(tmp_path):
    three = "topic\titem\tlevel\nq\ta\t1\nq\tb\t2\nq\tc\t3\n"
    assert campaign_kind(load(_folder(tmp_path, three, {"r": three}))) is CampaignKind.RANKING
    # an item in two clusters: the overlapping kind
    def raw(rows, source):
        t, i, lab = zip(*rows, strict=True)
        return RawClustering(source=source, topic=np.asarray(t, dtype=object),
                             item=np.asarray(i, dtype=object), label=np.asarray(lab, dtype=object))
    gold = raw([("t", "a", "x"), ("t", "a", "y"), ("t", "b", "y")], "gold")
    camp = build_campaign(gold, {"s": raw([("t", "a", "1"), ("t", "b", "1")], "s")}, name="o")
    assert campaign_kind(camp) is CampaignKind.OVERLAPPING_CLUSTERING


def test_every_provider_declares_kinds_and_every_metric_a_range_and_direction():
    for provider in registry.PROVIDERS:
        assert provider.kinds and provider.kinds <= ALL_KINDS | {CampaignKind.SCORE_TABLE}
        assert provider.infos or provider.patterns, provider.family
        for m in provider.infos:
            lo, hi = m.value_range
            assert m.direction in (1, -1) and lo < hi and OWNER[m.name] is provider


@pytest.mark.parametrize("path, metric, kind, supported", [
    (SMALL, "bcubed_precision", "ranking", "clustering, overlapping clustering"),
    (SMALL, "purity", "ranking", "clustering, overlapping clustering"),
    (SMALL, "type_macro_f", "ranking", "token tagging"),
    (REPLAB, "nDCG@10", "clustering", "ranking, filtering, organisation mixture"),
    (REPLAB, "type_micro_f", "clustering", "token tagging"),
])
def test_a_metric_outside_its_kinds_is_refused_in_one_line(path, metric, kind, supported):
    camp = load(path)
    with pytest.raises(UnanimityError) as err:
        evaluate(camp, ["reliability", metric])
    text = str(err.value)
    assert "\n" not in text and f"metric {metric!r}" in text
    assert f"(kind: {kind})" in text and f"apply to the kinds {supported}" in text, text


def test_refused_before_any_work(monkeypatch):
    """No kernel runs and no system is aligned when one metric of the list is refused."""
    camp = load(REPLAB)

    def boom(*args, **kwargs):
        raise AssertionError("work was done")
    monkeypatch.setattr(type(camp), "aligned", boom)
    with pytest.raises(UnanimityError, match="type_macro_f"):
        evaluate(camp, "purity,type_macro_f")


@pytest.mark.parametrize("command", ["evaluate", "compare", "meta-evaluate"])
@pytest.mark.parametrize("path, metrics", [(HAND, "P,R"), (SMALL, "ERR@10,AP"),
                                           (SMALL, "purity,AP"), (REPLAB, "nDCG@10,purity")])
def test_every_command_ends_in_one_line(capsys, tmp_path, command, path, metrics):
    argv = [command, str(path), "--metrics", metrics]
    if command == "meta-evaluate":
        argv += ["--reference", "reliability"]
    if command != "evaluate":
        argv += ["--out", str(tmp_path / "out")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ("cannot be computed on campaign" in err), err


def test_pickers_offer_only_what_the_kind_supports(tmp_path):
    ranking = {m.name for m in metrics_for(load(SMALL))}
    clustering = {m.name for m in registry.available_metrics()} - {"reliability", "sensitivity"}
    assert ranking and not ranking & clustering
    assert {"reliability", "sensitivity", "reliability_priority"} <= ranking
    flat = {m.name for m in metrics_for(load(REPLAB))}
    assert "purity" in flat and not any(n.startswith("type_") for n in flat)
    assert {m.name for m in metrics_for(load(UD))} >= {"type_macro_f", "purity"}


def test_the_dashboard_custom_pair_lists_no_clustering_metric_on_a_ranking():
    pytest.importorskip("streamlit")
    from dashboard.data import live  # noqa: PLC0415 - after importorskip
    from dashboard.state import Source  # noqa: PLC0415 - after importorskip

    names = live.metric_names(Source("trec_small", "trec_small", str(SMALL), "t", ()))
    assert "nDCG@10" in names and "reliability" in names
    assert not {"purity", "inverse_purity", "rand", "accuracy_m1", "bcubed_precision"} & set(names)


def test_dask_refuses_by_the_providers_word():
    refuse_for_dask(registry.parse_metrics("purity,bcubed_precision,reliability"))
    for name, says in [("type_macro_f", "type level: a type-level mapping is searched"),
                       ("reliability_priority", "reliability/sensitivity: the priority"),
                       ("nDCG@10", "ir_measures: ir_measures scores whole ranked lists")]:
        with pytest.raises(UnanimityError, match="the Dask engine cannot compute") as err:
            refuse_for_dask([parse_metric(name)])
        assert says in str(err.value) and "\n" not in str(err.value)


class GoldItemsProvider(Provider):
    """A toy family: the number of gold items of each topic, the same for every system."""

    family = "toy"
    kinds = frozenset({CampaignKind.CLUSTERING, CampaignKind.RANKING})
    infos = (MetricInfo("toy_gold_items", 1, "toy", "gold items per topic", "|G_t|", "a test",
                        value_range=(0.0, float("inf"))),)

    def kernel(self, spec, campaign):
        return None

    def score(self, campaign, specs, systems, missing="penalize"):
        per_topic = np.diff(campaign.topic_offsets).astype(float)
        return {str(s): np.tile(per_topic, (len(systems), 1)) for s in specs}


@pytest.fixture
def toy_family():
    provider = register(GoldItemsProvider())  # the one line a new family needs
    yield provider
    registry.PROVIDERS.remove(provider)
    for m in provider.infos:
        del KNOWN[m.name], OWNER[m.name]


def test_a_new_family_is_one_class_and_one_line(toy_family):
    camp = load(REPLAB)
    table = evaluate(camp, "purity,toy_gold_items", systems=[camp.systems[0]])
    got = table[table["metric"] == "toy_gold_items"]["value"].to_numpy()
    assert np.array_equal(got, np.diff(camp.topic_offsets))
    assert "toy_gold_items" in {m.name for m in metrics_for(camp)}
    with pytest.raises(UnanimityError, match="toy metrics apply to the kinds clustering, ranking"):
        check_metrics(load(HAND), [parse_metric("toy_gold_items")])
    with pytest.raises(UnanimityError, match="the Dask engine cannot compute toy_gold_items"):
        refuse_for_dask([parse_metric("toy_gold_items")])
    with pytest.raises(ValueError, match="already registered"):
        register(GoldItemsProvider())


def test_one_topic_wrapper_and_specs_keep_their_numbers():
    got = score_clusterings(["a", "a", "b"], ["x", "y", "y"],
                            "bcubed_precision,bcubed_recall,reliability,purity")
    # BCubed by hand: precision (1 + 1/2 + 1/2) / 3, recall (1/2 + 1/2 + 1) / 3
    assert got["bcubed_precision"] == pytest.approx(2 / 3)
    assert got["bcubed_recall"] == pytest.approx(2 / 3)
    assert got["reliability"] == got["bcubed_precision"]
    assert got["purity"] == pytest.approx(2 / 3)
    assert isinstance(parse_metric("nDCG@10"), MetricSpec)
    assert parse_metric("nDCG@10").provider.family == "ir_measures"
