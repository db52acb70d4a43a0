"""``unanimity info PATH [--json]``: what a campaign holds and what the loader did with it."""

from __future__ import annotations

import argparse
import json

from metrics.commands.campaign_args import add_campaign_args, campaign_from_args
from metrics.reports.bundle import bundle_info, is_bundle

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("info", help="topics, test beds, systems and the validation report "
                       "(or, for a compare --out folder, the bundle's manifest)")
    add_campaign_args(p)
    p.add_argument("--json", action="store_true",
                   help="print topics, systems, gold_items, testbeds and per_system as JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # a comparison bundle (compare --out DIR) is described, not loaded as a campaign
    if args.path and not (args.gold or args.runs) and is_bundle(args.path):
        return bundle_info(args.path, as_json=args.json)
    campaign = campaign_from_args(args)
    summary = campaign.summary()
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    print(f"campaign    {campaign.name}  ({campaign.source})")
    if not campaign.has_clusterings:
        print("kind        score table (precomputed per-topic scores)")
    print(f"topics      {summary['topics']}")
    beds = summary["testbeds"]
    print("test beds   " + (", ".join(f"{k} ({v})" for k, v in beds.items()) if beds else "none"))
    print(f"systems     {summary['systems']}")
    print(f"gold items  {summary['gold_items']}")
    if campaign.has_clusterings:
        frame = campaign.report.to_dataframe()
        cols = ["system", "missing_items", "extra_items", "missing_topics", "duplicate_rows",
                "overlapping_items"]
        print()
        print(frame[cols].to_string(index=False))
    notes = campaign.report.all_notes()
    if notes:
        print(f"\n{len(notes)} note(s):")
        for note in notes:
            print(f"  {note}")
    return 0
