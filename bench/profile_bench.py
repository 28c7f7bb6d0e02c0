"""GPU evidence for the profiler: every example profiled by Nsight Compute in one process, the amortized cost per
profiled kernel against a one-kernel process, and the raw CSV kept (CPU tests read it back as fixtures).

    python3 bench/profile_bench.py OUT_DIR      (on the GPU machine, after `source scripts/gpu-env.sh`)
    python3 bench/profile_bench.py --report bench/results/profile-h100.json   (anywhere: the diagnosis table
                                                                             of a recorded run, as markdown)
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.diagnosis import diagnose
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent


def examples() -> list:
    paths = sorted((ROOT / "examples").glob("*.cu"))
    return [original_candidate(CudaDocument(p.read_text(), f"examples/{p.name}"), p.stem) for p in paths]


def report(result: dict) -> str:
    """Each example's diagnosis from its recorded metrics (bytes from its contract at the benchmark size)."""
    contract_bytes = {c.unit.kernel: resolve(c.contract, c.contract.sizes).bytes for c in examples()}
    batch = result["batch"]
    lines = [f"# Nsight Compute diagnosis of the examples on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}`; ncu {result['ncu']}, `--clock-control none`. Cost: one kernel in "
             f"its own ncu process {result['single_kernel_process_s']:.2f} s; {batch['kernels']} kernels in one "
             f"process {batch['seconds']:.2f} s = **{batch['per_kernel_s']:.2f} s per profiled kernel**.", "",
             "| kernel | bound | diagnosis |", "|---|---|---|"]
    for name, metrics in result["profiles"].items():
        diagnosis = diagnose(metrics, contract_bytes[name], result["device"]["sm_count"])
        lines.append(f"| {name} | {diagnosis.bound} | {diagnosis.explanation} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["--report"]:
        print(report(json.loads(Path(sys.argv[2]).read_text())), end="")
        return
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.gpu.pool import WorkerPool
    from optiml_engine.gpu.profile import ProfileTarget, on_device, profile_kernels

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out.mkdir(parents=True, exist_ok=True)
    candidates = examples()
    with WorkerPool() as pool:
        evaluator = Evaluator(pool)
        targets = [ProfileTarget(kernel=evaluator.kernel(c), binding=c.contract.sizes) for c in candidates]
        device = pool.devices[0]
    single = profile_kernels(targets[:1], on_device(device.index))
    batch = profile_kernels(targets, on_device(device.index))
    (out / "ncu-examples.csv").write_text(batch.csv)
    result = {
        "device": device.model_dump(), "ncu": batch.ncu_version,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": "python3 bench/profile_bench.py $OUT",
        "single_kernel_process_s": single.seconds,
        "batch": {"kernels": len(targets), "seconds": batch.seconds, "per_kernel_s": batch.seconds / len(targets),
                  "counters_available": batch.counters_available, "note": batch.note},
        "profiles": {c.unit.kernel: profile.metrics for c, profile in zip(candidates, batch.profiles)},
    }
    (out / "profile.json").write_text(json.dumps(result, indent=2))
    (out / "profile.md").write_text(report(result))
    print(f"one kernel in its own ncu process: {single.seconds:.2f} s; {len(targets)} kernels in one process: "
          f"{batch.seconds:.2f} s = {batch.seconds / len(targets):.2f} s per kernel; {batch.note}")


if __name__ == "__main__":
    main()
