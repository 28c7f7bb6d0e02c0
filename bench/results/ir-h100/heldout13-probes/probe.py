"""Every first schedule the schedule policy proposes for a few kernels (its own proposals, emitted and compiled as
the search gets them), and for each the schedules one step away, timed beside the naive kernel; one process, the
evaluator's protocol (L2 flushed, CUDA events, median)."""
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

FILES = sys.argv[2:]


def main():
    rows = []
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
            rows.append({"kernel": kernel, "schedule": "naive", "ms": base.timing.median_ms if base.ok else None})
            print(rows[-1], flush=True)
            context = PolicyContext(device=device)
            seen = set()

            def timed(candidates):
                found = []
                for candidate in candidates:
                    if candidate.unit.text in seen:
                        continue
                    seen.add(candidate.unit.text)
                    m = ev.evaluate(candidate, ref)
                    rows.append({"kernel": kernel, "schedule": candidate.description,
                                 "ms": round(m.timing.median_ms, 4) if m.ok and m.timing else m.verdict})
                    print(kernel, rows[-1]["ms"], candidate.description[:150], flush=True)
                    if isinstance(rows[-1]["ms"], float):
                        found.append((rows[-1]["ms"], candidate))
                return found

            # The first schedules, then the neighbours of the two fastest (the search's next steps).
            first = sorted(timed(e.candidate for e in policy.propose(plain, context)), key=lambda f: f[0])
            for _, candidate in first[:2]:
                timed(e.candidate for e in policy.propose(candidate, context))
    Path(sys.argv[1]).write_text(json.dumps({"device": Device(0).info.name, "command": " ".join(sys.argv),
                                             "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                                             "rows": rows}, indent=1))
    print("| kernel | naive ms | best ms | schedule |\n|---|---|---|---|")
    for kernel in dict.fromkeys(r["kernel"] for r in rows):
        mine = [r for r in rows if r["kernel"] == kernel]
        timed = [r for r in mine[1:] if isinstance(r["ms"], float)]
        best = min(timed, key=lambda r: r["ms"]) if timed else {"ms": "-", "schedule": "-"}
        print(f"| {kernel} | {mine[0]['ms']} | {best['ms']} | {best['schedule'][:140]} |")


if __name__ == '__main__':
    main()
