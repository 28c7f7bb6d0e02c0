"""Nsight Compute profiles of compiled kernels, several per ncu process.

ncu costs seconds per process before it measures anything, so every candidate to profile goes into one target
process (`python -m optiml_engine.gpu.profile JOBFILE`) that launches each once at its benchmark size; ncu, started
with a kernel-name filter, measures exactly those launches (CuPy's own fill kernels are left out) and writes one
CSV row per launch (`--page raw`), read here with the csv module. The clocks are never touched
(`--clock-control none`).

Most of those seconds are ncu's and Python's start-up, on the CPU. The GPU is held from other jobs only for the
launches: the target process, once started and its CUDA driver initialized, says READY and waits; the caller takes a
GPU (`hold`), writes its index to GO, and releases the GPU when the target says DONE. On one GPU the search measures
its candidates during the start-up; on several, profiles need not wait for each other's.
"""

from __future__ import annotations

import csv
import io
import math
import pickle
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
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
    held_seconds: float = 0.0           # of which a GPU was kept from other jobs (the launches)
    ncu_version: str = ""
    csv: str = ""                       # ncu's raw output, kept for reports and test fixtures


class ProfileTarget(Frozen):
    kernel: CompiledKernel
    binding: dict[str, int]


def ncu_binary() -> str | None:
    return find_cuda_tool("ncu")


# The handshake's files in the run's folder (each written whole, by rename).
READY, GO, DONE = "ready", "go", "done"
POLL_S = 0.005

# `hold(work)` calls work(device_index) with that GPU kept from every other job until work returns.
Hold = Callable[[Callable[[int], None]], None]


def on_device(index: int) -> Hold:
    """The hold of a caller that owns its GPU outright (a bench, a test)."""
    return lambda work: work(index)


def ncu_command(ncu: str, names: list[str], log_file: Path, folder: Path) -> list[str]:
    pattern = "regex:^(" + "|".join(re.escape(n) for n in sorted(set(names))) + ")$"
    return [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
            "--kernel-name-base", "mangled", "--kernel-name", pattern, "--metrics", ",".join(METRICS.values()),
            "--log-file", str(log_file), sys.executable, "-m", "optiml_engine.gpu.profile", str(folder)]


def say(folder: Path, name: str, text: str = "") -> None:
    (folder / f"{name}.part").write_text(text)
    (folder / f"{name}.part").rename(folder / name)


def await_file(folder: Path, name: str, process: subprocess.Popen | None, deadline: float) -> bool:
    """Whether `name` appeared before the deadline and while `process` (if any) still ran."""
    while not (folder / name).exists():
        if (process is not None and process.poll() is not None) or time.perf_counter() > deadline:
            return (folder / name).exists()
        time.sleep(POLL_S)
    return True


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


def profile_kernels(targets: list[ProfileTarget], hold: Hold, timeout_s: float = 600) -> ProfileRun:
    """Profile every target in one ncu process, the GPU held only while they launch. Never raises for ncu's own
    failures: the run says why."""
    ncu = ncu_binary()
    if ncu is None:
        return ProfileRun(profiles=[], counters_available=False, note="Nsight Compute (ncu) not found")
    began = time.perf_counter()
    deadline = began + timeout_s
    held = 0.0

    def launch_held(device_index: int) -> None:
        nonlocal held
        taken = time.perf_counter()
        say(folder, GO, str(device_index))
        await_file(folder, DONE, process, deadline)
        held = time.perf_counter() - taken

    with tempfile.TemporaryDirectory(prefix="optiml-profile-") as name:
        folder = Path(name)
        log_file, output = folder / "ncu.csv", folder / "output.txt"
        (folder / "targets.pkl").write_bytes(pickle.dumps(targets))
        with output.open("w") as sink:
            process = subprocess.Popen(ncu_command(ncu, [t.kernel.lowered_name for t in targets], log_file, folder),
                                       stdout=sink, stderr=subprocess.STDOUT)
            try:
                if await_file(folder, READY, process, deadline):
                    hold(launch_held)
                process.wait(timeout=max(deadline - time.perf_counter(), 0.1))
            except subprocess.TimeoutExpired:
                return ProfileRun(profiles=[], counters_available=False, note=f"ncu timed out after {timeout_s:.0f} s",
                                  seconds=time.perf_counter() - began, held_seconds=held)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        log = log_file.read_text() if log_file.exists() else ""
        messages = log + output.read_text()
    seconds = time.perf_counter() - began
    if PERMISSION.search(messages):
        return ProfileRun(profiles=[], counters_available=False, seconds=seconds, held_seconds=held,
                          note="this machine refuses access to the GPU performance counters "
                               "(ERR_NVGPUCTRPERM); figures below come from timing only")
    profiles = read_csv(log)
    if len(profiles) != len(targets):
        errors = [line for line in messages.splitlines() if "==ERROR==" in line or "==WARNING==" in line]
        return ProfileRun(profiles=profiles, counters_available=bool(profiles), seconds=seconds, held_seconds=held,
                          csv=log, note=f"ncu profiled {len(profiles)} of {len(targets)} launches"
                                        + (f": {errors[0]}" if errors else f" (exit code {process.returncode})"))
    return ProfileRun(profiles=profiles, counters_available=True, seconds=seconds, held_seconds=held,
                      ncu_version=tool_version(ncu, r"Version (\S+)") or "", csv=log)


def main() -> None:
    """The profiled process: started (imports, CUDA driver) before it asks for its GPU; then each target launched
    once at its size, on fresh inputs and poisoned outputs."""
    import cupy

    from optiml_engine.gpu.data import make_inputs, poisoned
    from optiml_engine.gpu.worker import Device, launch
    from optiml_engine.source.contract import resolve

    folder = Path(sys.argv[1])
    targets: list[ProfileTarget] = pickle.loads((folder / "targets.pkl").read_bytes())
    cupy.cuda.runtime.getDeviceCount()    # initializes the driver, and ncu's hooks with it
    say(folder, READY)
    await_file(folder, GO, None, math.inf)
    device = Device(int((folder / GO).read_text()))
    for target in targets:
        contract = target.kernel.contract
        resolved = resolve(contract, target.binding)
        buffers = make_inputs(device.cp, contract.arrays, resolved.lengths, seed=1)
        buffers.update({s.param: poisoned(device.cp, s.dtype, resolved.lengths[s.param], 0)
                        for s in contract.arrays if s.direction == "out"})
        launch(device, target.kernel, resolved, buffers)
        device.cp.cuda.runtime.deviceSynchronize()
    say(folder, DONE)


if __name__ == "__main__":
    main()
