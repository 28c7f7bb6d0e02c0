"""The search's reward for one evaluated candidate (the README's "Reward" section writes the formula down).

    reward = ln(t_original / t)                                  log speedup over the original
           + W_BOTTLENECK * (u - u_parent) / 100                 the limiting unit's utilization moving to its peak
           - W_REGRESSION * max(0, ln(t / t_parent))             slower than the node it was made from
           - SPILL_PENALTY   if the compile report shows spills or local-memory stack
           - SPREAD_PENALTY  if the timing spread exceeds SPREAD_LIMIT of the median
    rejected candidates (wrong, crash, timeout, suspect_fast, ...) get REJECTED.

u is max(DRAM, L2, SM throughput % of peak) from the profile, used only when both the candidate and its parent
were profiled. Times are medians measured in the same process.
"""

from __future__ import annotations

import math

from optiml_engine.model import Frozen, Measurement

REJECTED = -1.0
W_BOTTLENECK = 0.2
W_REGRESSION = 0.5
SPILL_PENALTY = 0.05
SPREAD_PENALTY = 0.05
SPREAD_LIMIT = 0.05


class Reward(Frozen):
    total: float
    log_speedup: float = 0.0
    bottleneck: float = 0.0
    regression: float = 0.0
    spills: float = 0.0
    spread: float = 0.0


def utilization(metrics: dict[str, float] | None) -> float | None:
    if not metrics:
        return None
    return max(metrics.get("dram_pct", 0.0), metrics.get("l2_pct", 0.0), metrics.get("sm_pct", 0.0))


def reward(measurement: Measurement, original_ms: float, parent: Measurement | None = None,
           metrics: dict[str, float] | None = None, parent_metrics: dict[str, float] | None = None) -> Reward:
    if not measurement.ok or measurement.timing is None:
        return Reward(total=REJECTED)
    time_ms = measurement.timing.median_ms
    log_speedup = math.log(original_ms / time_ms)
    child_u, parent_u = utilization(metrics), utilization(parent_metrics)
    bottleneck = W_BOTTLENECK * (child_u - parent_u) / 100 if child_u is not None and parent_u is not None else 0.0
    regression = 0.0
    if parent is not None and parent.timing is not None and time_ms > parent.timing.median_ms:
        regression = W_REGRESSION * math.log(time_ms / parent.timing.median_ms)
    usage = measurement.compile.resources if measurement.compile else None
    spills = SPILL_PENALTY if usage and (usage.spill_store_bytes or usage.spill_load_bytes) else 0.0
    spread = SPREAD_PENALTY if measurement.timing.spread_ms > SPREAD_LIMIT * time_ms else 0.0
    return Reward(total=log_speedup + bottleneck - regression - spills - spread, log_speedup=log_speedup,
                  bottleneck=bottleneck, regression=regression, spills=spills, spread=spread)
