"""Speed of light: the floor no implementation can beat by much, and how far a measured time is from it.

floor = max(bytes / copy bandwidth, flops / fp32 rate), with the device's measured ceilings. A time under
SUSPECT_FRACTION of the floor is not believed: the kernel skips work or the measurement is wrong.
"""

from __future__ import annotations

from optiml_engine.model import DeviceCeilings, ResolvedContract, SolReport

SUSPECT_FRACTION = 0.9


def sol_report(resolved: ResolvedContract, ceilings: DeviceCeilings, time_ms: float) -> SolReport:
    memory_ms = resolved.bytes / (ceilings.copy_gbps * 1e9) * 1e3
    flops = resolved.flops or 0.0
    compute_ms = flops / (ceilings.fp32_tflops * 1e12) * 1e3
    floor_ms = max(memory_ms, compute_ms)
    seconds = time_ms * 1e-3
    return SolReport(
        bytes=resolved.bytes, flops=flops, floor_ms=floor_ms,
        bound="memory" if memory_ms >= compute_ms else "compute",
        headroom=time_ms / floor_ms if floor_ms > 0 else float("inf"),
        percent_of_sol=100 * floor_ms / time_ms if time_ms > 0 else 0.0,
        achieved_gbps=resolved.bytes / seconds / 1e9 if seconds > 0 else 0.0,
        achieved_gflops=flops / seconds / 1e9 if seconds > 0 else 0.0,
        suspect=time_ms < SUSPECT_FRACTION * floor_ms,
    )
