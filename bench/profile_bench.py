"""GPU evidence for the profiler: every example profiled by Nsight Compute in one process, the amortized cost per
profiled kernel against a one-kernel process, and the raw CSV kept (CPU tests read it back as fixtures).

    python3 bench/profile_bench.py OUT_DIR      (on the GPU machine, after `source scripts/gpu-env.sh`)
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.gpu.profile import ProfileTarget, profile_kernels
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out.mkdir(parents=True, exist_ok=True)
    paths = sorted((ROOT / "examples").glob("*.cu"))
    with WorkerPool() as pool:
        evaluator = Evaluator(pool)
        targets = []
        for path in paths:
            candidate = original_candidate(CudaDocument(path.read_text(), f"examples/{path.name}"), path.stem)
            targets.append(ProfileTarget(kernel=evaluator.kernel(candidate), binding=candidate.contract.sizes))
        device = pool.devices[0]
    single = profile_kernels(targets[:1], device.index)
    batch = profile_kernels(targets, device.index)
    (out / "ncu-examples.csv").write_text(batch.csv)
    result = {
        "device": device.model_dump(), "ncu": batch.ncu_version,
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "command": "python3 bench/profile_bench.py $OUT",
        "single_kernel_process_s": single.seconds,
        "batch": {"kernels": len(targets), "seconds": batch.seconds, "per_kernel_s": batch.seconds / len(targets),
                  "counters_available": batch.counters_available, "note": batch.note},
        "profiles": {path.stem: profile.metrics for path, profile in zip(paths, batch.profiles)},
    }
    (out / "profile.json").write_text(json.dumps(result, indent=2))
    print(f"one kernel in its own ncu process: {single.seconds:.2f} s; {len(targets)} kernels in one process: "
          f"{batch.seconds:.2f} s = {batch.seconds / len(targets):.2f} s per kernel; {batch.note}")


if __name__ == "__main__":
    main()
