"""Nsight Compute profiles of compiled kernels, several per ncu process.

ncu costs seconds per process before it measures anything, so every candidate to profile goes into one target
process (`python -m optiml_engine.gpu.profile JOBFILE`) that launches each once at its benchmark size; ncu, started
with a kernel-name filter, measures exactly those launches (CuPy's own fill kernels are left out) and writes one
CSV row per launch (`--page raw`), read here with the csv module. The clocks are never touched
(`--clock-control none`).
"""

from __future__ import annotations

import csv
import io
import pickle
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from optiml_engine.gpu.tools import find_cuda_tool, tool_version
from optiml_engine.gpu.worker import CompiledKernel
from optiml_engine.model import Frozen

# One metric per question the diagnosis asks; each extra metric can cost extra replay passes.
THROUGHPUT = {
    "duration_ns": "gpu__time_duration.sum",
    "dram_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "l2_pct": "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1_pct": "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "sm_pct": "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram_read_bytes": "dram__bytes_read.sum",
    "dram_write_bytes": "dram__bytes_write.sum",
}
OCCUPANCY = {
    "achieved_occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "theoretical_occupancy_pct": "sm__maximum_warps_per_active_cycle_pct",
    "limit_registers": "launch__occupancy_limit_registers",
    "limit_shared_mem": "launch__occupancy_limit_shared_mem",
    "limit_warps": "launch__occupancy_limit_warps",
    "limit_blocks": "launch__occupancy_limit_blocks",
    "registers_per_thread": "launch__registers_per_thread",
    "block_size": "launch__block_size",
    "grid_size": "launch__grid_size",
    "waves_per_sm": "launch__waves_per_multiprocessor",
}
MEMORY = {
    "global_load_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "global_load_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "global_store_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "global_store_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "shared_load_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "shared_store_bank_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
}
INSTRUCTIONS = {
    "instructions": "smsp__inst_executed.sum",
    "atomic_instructions": "smsp__sass_inst_executed_op_global_atom.sum",
    "reduction_instructions": "smsp__sass_inst_executed_op_global_red.sum",
    "fp32_instructions": "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum",
}
STALL_REASONS = (
    "barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss", "lg_throttle", "long_scoreboard",
    "math_pipe_throttle", "membar", "mio_throttle", "misc", "no_instruction", "not_selected", "selected",
    "short_scoreboard", "sleeping", "tex_throttle", "wait",
)
STALLS = {f"stall_{reason}": f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio"
          for reason in STALL_REASONS}
METRICS = {**THROUGHPUT, **OCCUPANCY, **MEMORY, **INSTRUCTIONS, **STALLS}

PERMISSION = re.compile(r"ERR_NVGPUCTRPERM|permission to access NVIDIA GPU Performance Counters", re.I)


class KernelProfile(Frozen):
    kernel: str
    metrics: dict[str, float]           # keyed by the short names above


class ProfileRun(Frozen):
    """What one ncu process gave: a profile per launched kernel, or the reason there are none."""

    profiles: list[KernelProfile]
    counters_available: bool
    note: str = ""
    seconds: float = 0.0
    ncu_version: str = ""
    csv: str = ""                       # ncu's raw output, kept for reports and test fixtures


class ProfileTarget(Frozen):
    kernel: CompiledKernel
    binding: dict[str, int]


def ncu_binary() -> str | None:
    return find_cuda_tool("ncu")


def ncu_command(ncu: str, names: list[str], log_file: Path, target_file: Path, device_index: int) -> list[str]:
    pattern = "regex:^(" + "|".join(re.escape(n) for n in sorted(set(names))) + ")$"
    return [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
            "--kernel-name-base", "mangled", "--kernel-name", pattern, "--metrics", ",".join(METRICS.values()),
            "--log-file", str(log_file), sys.executable, "-m", "optiml_engine.gpu.profile", str(target_file),
            str(device_index)]


def parse_number(text: str) -> float | None:
    cleaned = text.replace(",", "").strip()
    if not cleaned or cleaned in ("n/a", "N/A"):
        return None
    try:
        return float(cleaned)
    except ValueError:
        return None


def read_csv(text: str) -> list[KernelProfile]:
    """ncu's raw-page CSV (header row, units row, one row per profiled launch) -> profiles in launch order."""
    lines = [line for line in text.splitlines() if line.startswith('"')]
    if not lines:
        return []
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header, data = rows[0], [r for r in rows[1:] if r and r[0].isdigit()]
    by_metric = {name: index for index, name in enumerate(header)}
    short_of = {metric: short for short, metric in METRICS.items()}
    profiles = []
    for row in data:
        metrics = {}
        for metric, index in by_metric.items():
            if metric in short_of and index < len(row):
                value = parse_number(row[index])
                if value is not None:
                    metrics[short_of[metric]] = value
        profiles.append(KernelProfile(kernel=row[by_metric["Kernel Name"]], metrics=metrics))
    return profiles


def profile_kernels(targets: list[ProfileTarget], device_index: int, timeout_s: float = 600) -> ProfileRun:
    """Profile every target in one ncu process. Never raises for ncu's own failures: the run says why."""
    ncu = ncu_binary()
    if ncu is None:
        return ProfileRun(profiles=[], counters_available=False, note="Nsight Compute (ncu) not found")
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="optiml-profile-") as folder:
        target_file, log_file = Path(folder) / "targets.pkl", Path(folder) / "ncu.csv"
        target_file.write_bytes(pickle.dumps(targets))
        command = ncu_command(ncu, [t.kernel.lowered_name for t in targets], log_file, target_file, device_index)
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return ProfileRun(profiles=[], counters_available=False, note=f"ncu timed out after {timeout_s:.0f} s",
                              seconds=time.perf_counter() - began)
        log = log_file.read_text() if log_file.exists() else ""
    seconds = time.perf_counter() - began
    messages = log + run.stdout + run.stderr
    if PERMISSION.search(messages):
        return ProfileRun(profiles=[], counters_available=False, seconds=seconds,
                          note="this machine refuses access to the GPU performance counters "
                               "(ERR_NVGPUCTRPERM); figures below come from timing only")
    profiles = read_csv(log)
    if len(profiles) != len(targets):
        errors = [line for line in messages.splitlines() if "==ERROR==" in line or "==WARNING==" in line]
        return ProfileRun(profiles=profiles, counters_available=bool(profiles), seconds=seconds, csv=log,
                          note=f"ncu profiled {len(profiles)} of {len(targets)} launches"
                               + (f": {errors[0]}" if errors else f" (exit code {run.returncode})"))
    return ProfileRun(profiles=profiles, counters_available=True, seconds=seconds, ncu_version=tool_version(ncu, r"Version (\S+)") or "",
                      csv=log)


def main() -> None:
    """The profiled process: each target launched once at its size, on fresh inputs and poisoned outputs."""
    from optiml_engine.gpu.data import make_inputs, poisoned
    from optiml_engine.gpu.worker import Device, launch
    from optiml_engine.source.contract import resolve

    targets: list[ProfileTarget] = pickle.loads(Path(sys.argv[1]).read_bytes())
    device = Device(int(sys.argv[2]))
    for target in targets:
        contract = target.kernel.contract
        resolved = resolve(contract, target.binding)
        buffers = make_inputs(device.cp, contract.arrays, resolved.lengths, seed=1)
        buffers.update({s.param: poisoned(device.cp, s.dtype, resolved.lengths[s.param], 0)
                        for s in contract.arrays if s.direction == "out"})
        launch(device, target.kernel, resolved, buffers)
        device.cp.cuda.runtime.deviceSynchronize()


if __name__ == "__main__":
    main()
