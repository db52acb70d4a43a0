"""The hook of :func:`metrics.measures.scoring.evaluate` for organisations and IR measures.

:func:`organisation_blocks` fills, for every system at once, the metrics this package computes:

* ``ir_measures`` names (``nDCG@10``, ``AP(rel=2)``, ...) on any campaign with a gold;
* the six Reliability / Sensitivity names on a document-organisation campaign (levels or a
  tail), and the four priority / relatedness ones on any campaign. On a flat clustering
  ``reliability`` and ``sensitivity`` stay with the clustering kernels (the same numbers: the
  weights are then all equal, ``docs/organisation.md`` §5).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from metrics.errors import UnanimityError
from metrics.measures.organisation.ir import ir_scores
from metrics.measures.organisation.scores import RS_METRICS, organisation_rs
from metrics.measures.registry import MetricSpec, is_ir_measure
from metrics.model.campaign import Campaign

__all__ = ["organisation_blocks"]


def organisation_blocks(campaign: Campaign, systems: Sequence[str], specs: Sequence[MetricSpec],
                        missing: str, blocks: np.ndarray) -> set[int]:
    """Write the scores this package owns into ``blocks[system, topic, metric]``.

    Returns the set of metric positions it filled.
    """
    done: set[int] = set()
    if campaign.tail:
        other = [str(s) for s in specs if not is_ir_measure(s) and s.name not in RS_METRICS]
        if other:
            raise UnanimityError(
                f"campaign {campaign.name!r} ranks items over an unlimited collection: clustering "
                f"metrics ({', '.join(other)}) do not apply; use reliability, sensitivity (and "
                "their _priority / _relatedness parts) or IR measures such as nDCG@10, AP(rel=2)")
    ir = [i for i, s in enumerate(specs) if is_ir_measure(s)]
    if ir:
        values = ir_scores(campaign, systems, [str(specs[i]) for i in ir])
        for i in ir:
            blocks[:, :, i] = values[str(specs[i])]
            done.add(i)
    rs = [i for i, s in enumerate(specs) if s.name in RS_METRICS
          and (campaign.is_organisation or s.name not in ("reliability", "sensitivity"))]
    if rs:
        values = organisation_rs(campaign, systems, [specs[i] for i in rs], missing)
        for i in rs:
            blocks[:, :, i] = values[str(specs[i])]
            done.add(i)
    return done
