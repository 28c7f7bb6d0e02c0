"""The schedule policy's first proposals and their best neighbours for a few kernels, timed (evaluator protocol),
the naive and best three profiled with ncu; plus an L2-flush check: a 64 MiB read timed after a write flush and
after a read flush."""
import datetime, json, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.gpu.worker import Device
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.schedules import SchedulePolicy
from optiml_engine.source.parse import CudaDocument

OUT = Path(sys.argv[1]); OUT.mkdir(parents=True, exist_ok=True)
FILES = sys.argv[2:]


def flush_check():
    import cupy
    n = 16 * 2**20
    x = cupy.random.rand(n, dtype=cupy.float32)
    out = cupy.zeros(1, dtype=cupy.float32)
    k = cupy.RawKernel(r'''extern "C" __global__ void rd(const float4* x, float* out, int n4) {
      float s = 0; for (int i = blockIdx.x*blockDim.x+threadIdx.x; i < n4; i += gridDim.x*blockDim.x) { float4 v = x[i]; s += v.x+v.y+v.z+v.w; }
      if (s == 12345.f) out[0] = s; }''', "rd")
    buf = cupy.empty(2 * 128 * 2**20, dtype=cupy.uint8)
    red = cupy.zeros(1, dtype=cupy.uint64)
    res = {}
    for mode in ("write", "read", "none"):
        times = []
        for _ in range(40):
            if mode == "write":
                buf.fill(0)
            elif mode == "read":
                red[...] = buf.view(cupy.uint64).sum()
            s, e = cupy.cuda.Event(), cupy.cuda.Event()
            s.record(); k((132 * 8,), (256,), (x, out, n // 4)); e.record(); e.synchronize()
            times.append(cupy.cuda.get_elapsed_time(s, e))
        times.sort(); res[mode] = times[len(times) // 2] * 1000
    print("flush check (64 MiB read, us):", res, flush=True)
    return res


def main():
    rows, profiles = [], []
    flush = flush_check()
    with WorkerPool() as pool:
        ev = Evaluator(pool, use_cache=False)
        device = pool.devices[0]
        policy = SchedulePolicy()
        for path in FILES:
            doc = CudaDocument((ROOT / path).read_text(), path)
            plain = original_candidate(doc, doc.model.kernels[0].name)
            kernel = plain.unit.kernel
            ref = reference_candidate(doc, plain)
            base = ev.evaluate(plain, ref)
            rows.append({"kernel": kernel, "schedule": "naive", "ms": base.timing.median_ms if base.ok else None,
                         "floor_ms": base.sol.floor_ms if base.sol else None})
            print(rows[-1], flush=True)
            context = PolicyContext(device=device)
            seen, found = set(), [(base.timing.median_ms, plain, base)]

            def timed(candidates):
                got = []
                for candidate in candidates:
                    if candidate.unit.text in seen:
                        continue
                    seen.add(candidate.unit.text)
                    m = ev.evaluate(candidate, ref)
                    rows.append({"kernel": kernel, "schedule": candidate.description,
                                 "ms": round(m.timing.median_ms, 4) if m.ok and m.timing else m.verdict})
                    print(kernel, rows[-1]["ms"], candidate.description[:150], flush=True)
                    if isinstance(rows[-1]["ms"], float):
                        got.append((rows[-1]["ms"], candidate, m))
                return got

            first = sorted(timed(e.candidate for e in policy.propose(plain, context)), key=lambda f: f[0])
            found += first
            for _, candidate, _ in first[:2]:
                found += timed(e.candidate for e in policy.propose(candidate, context))
            found.sort(key=lambda f: f[0])
            chosen = [f for f in found if f[1] is not plain][:3] + [found[[f[1] is plain for f in found].index(True)]]
            for (ms, candidate, m), p in zip(chosen, ev.profile([(c, m) for _, c, m in chosen])):
                profiles.append({"kernel": kernel, "ms": ms, "schedule": candidate.description,
                                 "metrics": p.metrics.metrics if p.metrics else None,
                                 "diagnosis": p.diagnosis.model_dump(mode="json"), "source": candidate.unit.text})
                mt = p.metrics.metrics if p.metrics else {}
                print("PROFILE", kernel, ms, {k: round(mt.get(k, -1), 1) for k in ("dram_pct", "l1_pct", "l2_pct", "sm_pct", "achieved_occupancy_pct", "registers_per_thread", "stall_long_scoreboard", "stall_mio_throttle", "stall_lg_throttle", "stall_barrier", "stall_math_pipe_throttle")}, candidate.description[:90], flush=True)
    (OUT / "probe.json").write_text(json.dumps({
        "device": Device(0).info.name, "command": " ".join(sys.argv),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "flush_check_us": flush,
        "rows": rows, "profiles": profiles}, indent=1))


if __name__ == '__main__':
    main()
