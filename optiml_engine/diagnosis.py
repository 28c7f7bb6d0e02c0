"""From Nsight Compute metrics to a diagnosis in plain words: what limits the kernel, and the evidence.

The classes: memory-bound, compute-bound, occupancy-limited (too few warps to hide latency), latency-bound (enough
warps, but they wait), launch-bound (too short for the launch to be amortized). Findings name the metric and its
value, so that the hover, the trajectory and the reward all speak in profiler terms. Pure functions: CI tests them
on ncu reports recorded on an H100.
"""

from __future__ import annotations

from typing import Literal

from optiml_engine.model import Frozen, SolReport

Bound = Literal["memory", "compute", "occupancy", "latency", "launch", "unknown"]

BUSY_PCT = 60.0           # a unit above this share of its peak is the limiter
LAUNCH_BOUND_NS = 5_000   # shorter kernels are dominated by launch overhead
IDEAL_SECTORS = 4.0       # a warp's 4-byte accesses, coalesced, touch 4 sectors of 32 bytes
UNCOALESCED_SECTORS = 8.5 # above this, most of every sector fetched is thrown away (16 is ideal for 16-byte vectors)
STALL_NAMES = {
    "long_scoreboard": "waiting for global/local memory loads",
    "short_scoreboard": "waiting for shared memory or special-function results",
    "lg_throttle": "the load/store queue is full (too many memory instructions in flight)",
    "drain": "waiting for memory writes (atomics, stores) to drain at exit",
    "barrier": "waiting at __syncthreads()",
    "membar": "waiting at memory fences",
    "mio_throttle": "the shared-memory/special-function pipe is full",
    "math_pipe_throttle": "the math pipes are busy",
    "wait": "fixed-latency dependencies between instructions",
    "not_selected": "ready but another warp was picked (plenty of parallelism)",
    "selected": "issuing",
    "no_instruction": "instruction cache misses",
    "branch_resolving": "resolving branches",
    "dispatch_stall": "dispatch stalls",
    "imc_miss": "constant cache misses",
    "misc": "miscellaneous",
    "sleeping": "sleeping",
    "tex_throttle": "the texture pipe is full",
}


class Finding(Frozen):
    kind: str                 # "uncoalesced_loads", "atomics", "excess_dram", "small_grid", ...
    message: str


class Diagnosis(Frozen):
    bound: Bound
    headline: str             # one line: "memory-bound: DRAM 80% of peak"
    explanation: str          # a short paragraph, metrics named with their values
    findings: list[Finding]
    top_stalls: list[tuple[str, float]]   # (reason, share of stall cycles in %)


def stall_shares(metrics: dict[str, float]) -> list[tuple[str, float]]:
    """Stall reasons as percentages of all stalled warp-cycles, largest first ('selected' is issuing, not a stall)."""
    stalls = {name.removeprefix("stall_"): value for name, value in metrics.items()
              if name.startswith("stall_") and name != "stall_selected" and value > 0}
    total = sum(stalls.values())
    if total <= 0:
        return []
    shares = sorted(((name, 100 * value / total) for name, value in stalls.items()), key=lambda s: -s[1])
    return [(name, share) for name, share in shares if share >= 1]


def sectors_per_request(metrics: dict[str, float], kind: str) -> float | None:
    requests = metrics.get(f"global_{kind}_requests", 0)
    return metrics.get(f"global_{kind}_sectors", 0) / requests if requests else None


def occupancy_limiter(metrics: dict[str, float]) -> str | None:
    limits = {"registers": metrics.get("limit_registers"), "shared memory": metrics.get("limit_shared_mem"),
              "block size": metrics.get("limit_warps"), "blocks per SM": metrics.get("limit_blocks")}
    known = {name: value for name, value in limits.items() if value is not None}
    return min(known, key=known.get) if known else None


def findings_of(metrics: dict[str, float], contract_bytes: int | None, sm_count: int | None) -> list[Finding]:
    found = []
    for kind, verb in (("load", "loads"), ("store", "stores")):
        ratio = sectors_per_request(metrics, kind)
        if ratio is not None and ratio >= UNCOALESCED_SECTORS:
            found.append(Finding(kind=f"uncoalesced_{verb}", message=(
                f"global {verb} are uncoalesced: {ratio:.1f} sectors per request where {IDEAL_SECTORS:.0f} is "
                f"ideal for 4-byte accesses, so about {100 * IDEAL_SECTORS / ratio:.0f}% of each fetched sector "
                f"is used")))
    atomics = metrics.get("atomic_instructions", 0) + metrics.get("reduction_instructions", 0)
    if atomics and atomics >= 0.01 * metrics.get("instructions", 0):
        found.append(Finding(kind="atomics", message=(
            f"{atomics:,.0f} warp-level atomic instructions on global memory "
            f"({100 * atomics / max(metrics.get('instructions', 1), 1):.0f}% of all instructions): atomics on "
            f"few addresses serialize in L2")))
    dram = metrics.get("dram_read_bytes", 0) + metrics.get("dram_write_bytes", 0)
    if contract_bytes and dram > 1.5 * contract_bytes:
        found.append(Finding(kind="excess_dram", message=(
            f"moves {dram / contract_bytes:.1f}x the bytes the contract needs ({dram / 1e6:,.0f} MB of DRAM "
            f"traffic for {contract_bytes / 1e6:,.0f} MB): data is fetched from DRAM more than once")))
    waves = metrics.get("waves_per_sm")
    if waves is not None and waves < 1:
        grid, block = metrics.get("grid_size", 0), metrics.get("block_size", 0)
        on = f" on {sm_count} SMs" if sm_count else ""
        found.append(Finding(kind="small_grid", message=(
            f"the grid fills {waves:.2f} of one wave ({grid:,.0f} blocks of {block:.0f} threads{on}): "
            f"most of the GPU idles")))
    theoretical = metrics.get("theoretical_occupancy_pct")
    if theoretical is not None and theoretical < 100:
        found.append(Finding(kind="occupancy_limit", message=(
            f"theoretical occupancy {theoretical:.0f}%, limited by {occupancy_limiter(metrics)} "
            f"({metrics.get('registers_per_thread', 0):.0f} registers per thread)")))
    conflicts = metrics.get("shared_load_bank_conflicts", 0) + metrics.get("shared_store_bank_conflicts", 0)
    if conflicts:
        found.append(Finding(kind="bank_conflicts", message=f"{conflicts:,.0f} shared-memory bank conflicts"))
    return found


def diagnose(metrics: dict[str, float], contract_bytes: int | None = None, sm_count: int | None = None) -> Diagnosis:
    findings = findings_of(metrics, contract_bytes, sm_count)
    stalls = stall_shares(metrics)[:3]
    dram, l2, sm = metrics.get("dram_pct", 0), metrics.get("l2_pct", 0), metrics.get("sm_pct", 0)
    achieved = metrics.get("achieved_occupancy_pct", 0)
    duration = metrics.get("duration_ns", 0)
    kinds = {f.kind for f in findings}
    if duration and duration < LAUNCH_BOUND_NS:
        bound: Bound = "launch"
        headline = f"launch-bound: the kernel runs {duration / 1000:.1f} µs, close to the cost of launching it"
    elif max(dram, l2) >= BUSY_PCT:
        bound = "memory"
        unit, value = ("DRAM", dram) if dram >= l2 else ("L2", l2)
        headline = f"memory-bound: {unit} throughput {value:.0f}% of peak"
    elif sm >= BUSY_PCT:
        bound = "compute"
        headline = f"compute-bound: SM throughput {sm:.0f}% of peak"
    elif "small_grid" in kinds or achieved < 30:
        bound = "occupancy"
        headline = (f"occupancy-limited: {achieved:.0f}% of the SMs' warp slots are active, too few warps to hide "
                    f"memory latency (DRAM {dram:.0f}%, SM {sm:.0f}% of peak)")
    else:
        bound = "latency"
        reason = STALL_NAMES.get(stalls[0][0], stalls[0][0]) if stalls else "unknown"
        headline = (f"latency-bound: DRAM {dram:.0f}% and SM {sm:.0f}% of peak while warps stall, mostly "
                    f"{reason}")
    sentences = [headline[0].upper() + headline[1:] + "."]
    if stalls:
        described = ", ".join(f"{share:.0f}% {STALL_NAMES.get(name, name)}" for name, share in stalls)
        sentences.append(f"Stalled warp-cycles: {described}.")
    sentences += [f.message[0].upper() + f.message[1:] + "." for f in findings]
    return Diagnosis(bound=bound, headline=headline, explanation=" ".join(sentences), findings=findings,
                     top_stalls=stalls)


def timing_only(sol: SolReport, note: str) -> Diagnosis:
    """Without counters: what the time and the speed-of-light floor alone say."""
    headline = (f"{sol.percent_of_sol:.0f}% of the speed-of-light floor ({sol.bound}-bound floor "
                f"{sol.floor_ms:.4f} ms): {sol.achieved_gbps:,.0f} GB/s, {sol.achieved_gflops:,.0f} GFLOP/s")
    return Diagnosis(bound="unknown", headline=headline, explanation=f"{note}. {headline[0].upper()}{headline[1:]}.",
                     findings=[], top_stalls=[])
