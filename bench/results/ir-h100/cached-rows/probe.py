"""Every map schedule of the space (the neighbour windows among them) beside the hand-written shuffle stencil, one process, the evaluator's protocol."""
import datetime, json, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.gpu.worker import Device
from optiml_engine.ir.emit import emit, EmitError
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.model import LaunchRule
from optiml_engine.policies.kernel_view import derived
from optiml_engine.source.parse import CudaDocument

HERE = Path(__file__).parent
KERNELS = HERE
CASES = {
    "examples/cross_entropy_rows.cu": ("cross_entropy_rows", [
        ("ce_cached.cu", LaunchRule(grid=["cdiv(rows,8)"], block=["32", "8"]))]),
    "tests/heldout/softmax_rows.cu": ("softmax_rows", [
        ("softmax_cached.cu", LaunchRule(grid=["n_rows"], block=["128"]))]),
}
only = sys.argv[2:]

def ms(ev, cand, ref):
    m = ev.evaluate(cand, ref)
    return round(m.timing.median_ms, 4) if m.ok and m.timing else f"{m.verdict}: {str(getattr(m, 'detail', ''))[:200]}"

def main():
    rows = []
    with WorkerPool() as pool:
        ev = Evaluator(pool, use_cache=False)
        for path, (kernel, hands) in CASES.items():
            if only and kernel not in only:
                continue
            doc = CudaDocument((ROOT / path).read_text(), path)
            plain = original_candidate(doc, kernel)
            ref = reference_candidate(doc, plain)
            rows.append((kernel, "plain", ms(ev, plain, ref))); print(rows[-1], flush=True)
            for name, launch in hands:
                cand = derived(plain, (KERNELS / name).read_text(), name, launch)
                rows.append((kernel, name, ms(ev, cand, ref))); print(rows[-1], flush=True)
            program = lift(plain); shape = shape_of(program)
            family = "reduce"
            for s in space(shape, family):
                if s.splits > 1 or s.vector == 1 or s.lanes_axis != "x":
                    continue
                try:
                    cand = emit(program, shape, s, plain)
                except EmitError as e:
                    continue
                rows.append((kernel, s.describe(), ms(ev, cand, ref))); print(rows[-1], flush=True)
    out = Path(sys.argv[1])
    out.write_text(json.dumps({"device": Device(0).info.name, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                               "rows": rows}, indent=1))
    best = {}
    for k, name, t in rows:
        if isinstance(t, float) and (k not in best or t < best[k][1]): best[k] = (name, t)
    for k, name, t in rows:
        if not name.startswith(("reduce",)) or best[k][0] == name: print(f"| {k} | {name[:90]} | {t} |")


if __name__ == '__main__':
    main()
