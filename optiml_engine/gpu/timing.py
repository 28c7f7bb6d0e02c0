"""Timing statistics: medians with distribution-free confidence intervals, and the adaptive stopping rule.

Pure functions over samples in milliseconds, so that CI can test them without a device. The interval of a median
comes from order statistics (the binomial argument), which holds for any distribution of launch times, skewed
and heavy-tailed ones included, unlike mean +- 1.96 sigma.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from optiml_engine.model import SpeedupStats, TimingPolicy, TimingStats

Z95 = 1.959964
# Medians of separate processes differ by more than one run's samples show for long, steady kernels (buffers land
# elsewhere, clocks settle differently): up to 0.2% on the H100 with buffer rotation, 0.7% without
# (bench/results/evaluator-h100.md). The reported spread is never less than this fraction of the median.
SPREAD_FLOOR = 0.005


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    mid = n // 2
    return ordered[mid] if n % 2 else 0.5 * (ordered[mid - 1] + ordered[mid])


def median_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% confidence interval of the median: the order statistics at n/2 -+ 1.96 sqrt(n)/2."""
    ordered = sorted(values)
    n = len(ordered)
    half_width = Z95 * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half_width) - 1)
    high = min(n - 1, math.ceil(n / 2 + half_width) - 1)
    return ordered[low], ordered[high]


def summarize(samples_ms: Sequence[float]) -> TimingStats:
    if not samples_ms:
        raise ValueError("no timing samples")
    mid = median(samples_ms)
    low, high = median_interval(samples_ms)
    ordered = sorted(samples_ms)
    q1, q3 = ordered[len(ordered) // 4], ordered[(3 * len(ordered)) // 4]
    return TimingStats(
        median_ms=mid, ci_low_ms=low, ci_high_ms=high, iqr_ms=q3 - q1, spread_ms=max(q3 - q1, SPREAD_FLOOR * mid),
        min_ms=ordered[0], max_ms=ordered[-1], runs=len(ordered),
    )


def relative_half_width(samples_ms: Sequence[float]) -> float:
    """Half the 95% interval of the median, as a fraction of the median."""
    low, high = median_interval(samples_ms)
    mid = median(samples_ms)
    return (high - low) / (2 * mid) if mid > 0 else math.inf


def enough_samples(samples_ms: Sequence[float], policy: TimingPolicy, elapsed_s: float) -> bool:
    """Stop when the median is known to the target precision, or when a cap is reached."""
    n = len(samples_ms)
    if n < policy.min_runs:
        return False
    if n >= policy.max_runs or elapsed_s >= policy.max_seconds:
        return True
    return relative_half_width(samples_ms) <= policy.target_half_width


def speedup_stats(candidate_ms: Sequence[float], incumbent_ms: Sequence[float]) -> SpeedupStats:
    """Per-pair incumbent/candidate ratios of interleaved runs (A B A B ...): drift common to a pair cancels."""
    if len(candidate_ms) != len(incumbent_ms) or not candidate_ms:
        raise ValueError("interleaved samples must come in non-empty pairs")
    ratios = [inc / cand for cand, inc in zip(candidate_ms, incumbent_ms)]
    low, high = median_interval(ratios)
    return SpeedupStats(median=median(ratios), ci_low=low, ci_high=high, pairs=len(ratios))
