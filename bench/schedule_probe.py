"""The schedule policy's first proposals for each kernel and the neighbours of the two fastest (its own proposals,
emitted and compiled as the search gets them), each timed and verified by the evaluator's protocol in one process;
the naive kernel and the fastest three profiled with Nsight Compute. First, an L2-flush check: a 64 MiB read timed
after a write flush (the timing protocol's), after a read flush and after none.

    python3 bench/schedule_probe.py OUT_DIR FILE...

Writes OUT_DIR/probe.json (device, date, command, the flush check, every timed schedule, the profiles with their
sources); prints each schedule's time as it goes.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from optiml_engine.candidate import original_candidate, reference_candidate  # noqa: E402
from optiml_engine.evaluate import Evaluator  # noqa: E402
from optiml_engine.gpu.pool import WorkerPool  # noqa: E402
from optiml_engine.gpu.worker import Device  # noqa: E402
from optiml_engine.policies.base import PolicyContext  # noqa: E402
from optiml_engine.policies.schedules import SchedulePolicy  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402

SHOWN = ("dram_pct", "l1_pct", "l2_pct", "sm_pct", "achieved_occupancy_pct", "registers_per_thread",
         "stall_long_scoreboard", "stall_mio_throttle", "stall_lg_throttle", "stall_barrier",
         "stall_math_pipe_throttle")


def flush_check() -> dict[str, float]:
    """Median microseconds of a 64 MiB read after each kind of flush (a written flush leaves dirty L2 lines that the
    read then writes back)."""
    import cupy
    n = 16 * 2 ** 20
    x = cupy.random.rand(n, dtype=cupy.float32)
    out = cupy.zeros(1, dtype=cupy.float32)
    read = cupy.RawKernel(r'''extern "C" __global__ void rd(const float4* x, float* out, int n4) {
      float s = 0;
      for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 v = x[i]; s += v.x + v.y + v.z + v.w;
      }
      if (s == 12345.f) out[0] = s; }''', "rd")
    buffer = cupy.empty(2 * 128 * 2 ** 20, dtype=cupy.uint8)
    total = cupy.zeros(1, dtype=cupy.uint64)
    found = {}
    for mode in ("write", "read", "none"):
        times = []
        for _ in range(40):
            if mode == "write":
                buffer.fill(0)
            elif mode == "read":
                total[...] = buffer.view(cupy.uint64).sum()
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            read((132 * 8,), (256,), (x, out, n // 4))
            stop.record()
            stop.synchronize()
            times.append(cupy.cuda.get_elapsed_time(start, stop))
        times.sort()
        found[mode] = times[len(times) // 2] * 1000
    print("flush check (64 MiB read, us):", found, flush=True)
    return found


def probe(path: str, evaluator: Evaluator, policy: SchedulePolicy, context: PolicyContext,
          rows: list[dict], profiles: list[dict]) -> None:
    document = CudaDocument((ROOT / path).read_text(), path)
    plain = original_candidate(document, document.model.kernels[0].name)
    kernel = plain.unit.kernel
    reference = reference_candidate(document, plain)
    base = evaluator.evaluate(plain, reference)
    rows.append({"kernel": kernel, "schedule": "naive", "ms": base.timing.median_ms if base.ok else None,
                 "floor_ms": base.sol.floor_ms if base.sol else None})
    print(rows[-1], flush=True)
    seen: set[str] = set()
    found = [(base.timing.median_ms, plain, base)]

    def timed(candidates) -> list:
        measured = []
        for candidate in candidates:
            if candidate.unit.text in seen:
                continue
            seen.add(candidate.unit.text)
            result = evaluator.evaluate(candidate, reference)
            ms = round(result.timing.median_ms, 4) if result.ok and result.timing else result.verdict
            rows.append({"kernel": kernel, "schedule": candidate.description, "ms": ms})
            print(kernel, ms, candidate.description[:150], flush=True)
            if isinstance(ms, float):
                measured.append((ms, candidate, result))
        return measured

    first = sorted(timed(edit.candidate for edit in policy.propose(plain, context)), key=lambda f: f[0])
    found += first
    for _, candidate, _ in first[:2]:
        found += timed(edit.candidate for edit in policy.propose(candidate, context))
    found.sort(key=lambda f: f[0])
    chosen = [f for f in found if f[1] is not plain][:3] + [next(f for f in found if f[1] is plain)]
    for (ms, candidate, _), profile in zip(chosen, evaluator.profile([(c, m) for _, c, m in chosen])):
        metrics = profile.metrics.metrics if profile.metrics else {}
        profiles.append({"kernel": kernel, "ms": ms, "schedule": candidate.description,
                         "metrics": metrics or None, "diagnosis": profile.diagnosis.model_dump(mode="json"),
                         "source": candidate.unit.text})
        print("PROFILE", kernel, ms, {k: round(metrics.get(k, -1), 1) for k in SHOWN}, candidate.description[:90],
              flush=True)


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    profiles: list[dict] = []
    flush = flush_check()
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, use_cache=False)
        context = PolicyContext(device=pool.devices[0])
        policy = SchedulePolicy()
        for path in sys.argv[2:]:
            probe(path, evaluator, policy, context, rows, profiles)
    (out / "probe.json").write_text(json.dumps({
        "device": Device(0).info.name, "command": " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "flush_check_us": flush,
        "rows": rows, "profiles": profiles}, indent=1))


if __name__ == "__main__":
    main()
