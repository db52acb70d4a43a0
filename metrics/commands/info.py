"""``unanimity info PATH [--json]``: what a campaign holds and what the loader did with it."""

from __future__ import annotations

import argparse
import json
import tempfile
import zipfile
from pathlib import Path

from metrics.commands.campaign_args import add_campaign_args, campaign_from_args

__all__ = ["add_parser", "run"]


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "info", help="topics, test beds, systems and the validation report "
        "(or, for a compare --out folder, the bundle's manifest)",
        description="Describe a campaign: its topics, test beds, systems and gold items, and "
        "what the loader found and did with each file (missing and extra items, duplicate "
        "rows, notes); for a comparison bundle (compare --out DIR, or its zip), the manifest.")
    add_campaign_args(p)
    p.add_argument("--json", action="store_true",
                   help="print the same as JSON: name, source, kind, topics, systems, "
                        "gold_items, testbeds, per_system, notes (and judgments on a ranking)")
    p.set_defaults(run=run)


def _zipped_bundle_info(path: str, as_json: bool) -> int | None:
    """``info`` on a zipped comparison bundle (unpacked as the dashboard unpacks an upload);
    None when the zip is not a bundle (then it is a campaign)."""
    from metrics.reports.bundle_info import bundle_info  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help
    from metrics.reports.bundle_zip import bundle_zip_manifest, unpack_bundle_zip  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    with open(path, "rb") as fh:
        if bundle_zip_manifest(fh, path) is None:
            return None
        fh.seek(0)
        with tempfile.TemporaryDirectory(prefix="unanimity-bundle-") as tmp:
            unpack_bundle_zip(fh, tmp, path)
            return bundle_info(tmp, as_json=as_json, shown_as=path)


def run(args: argparse.Namespace) -> int:
    from metrics.reports.bundle_manifest import is_bundle  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    # a comparison bundle (compare --out DIR) is described, not loaded as a campaign
    if args.path and not (args.gold or args.runs) and is_bundle(args.path):
        from metrics.reports.bundle_info import bundle_info  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

        return bundle_info(args.path, as_json=args.json)
    if args.path and not (args.gold or args.runs) and Path(args.path).is_file() \
            and zipfile.is_zipfile(args.path):  # a regular file only: a FIFO would block
        code = _zipped_bundle_info(args.path, args.json)
        if code is not None:
            return code
    import pandas as pd  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    from metrics.model.campaign_info import campaign_info, items_line  # noqa: PLC0415 - deferred: every sub-command's parser is built for --help

    campaign = campaign_from_args(args)
    info = campaign_info(campaign)
    if args.json:
        print(json.dumps(info, indent=2))
        return 0
    print(f"campaign    {info['name']}  ({info['source']})")
    if info["kind"] == "score table":
        print("kind        score table (precomputed per-topic scores)")
    print(f"topics      {info['topics']}")
    beds = info["testbeds"]
    print("test beds   " + (", ".join(f"{k} ({v})" for k, v in beds.items()) if beds else "none"))
    print(f"systems     {info['systems']}")
    print(f"gold items  {items_line(info)}")
    if info["kind"] != "score table":
        cols = ["missing_items", "extra_items", "missing_topics", "duplicate_rows",
                "overlapping_items"]
        frame = pd.DataFrame([{"system": s, **{c: row[c] for c in cols}}
                              for s, row in info["per_system"].items()])
        print()
        print(frame.to_string(index=False))
    if info["notes"]:
        print(f"\n{len(info['notes'])} note(s):")
        for note in info["notes"]:
            print(f"  {note}")
    return 0
