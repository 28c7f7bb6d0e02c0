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
    "tests/heldout/conv2d_3x3_multichan.cu": ("conv2d_3x3", [
        ("conv2d_interior.cu", LaunchRule(grid=["cdiv(W,16)", "cdiv(H,16)"], block=["16", "16"])),
        ("conv2d_interior.cu", LaunchRule(grid=["cdiv(W,32)", "cdiv(H,8)"], block=["32", "8"]))]),
    "tests/heldout10/depthwise_conv5x5.cu": ("depthwise_conv5x5", [
        ("depthwise_interior.cu", LaunchRule(grid=["cdiv(W,32)", "cdiv(H,8)", "N*C"], block=["32", "8"]))]),
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
                rows.append((kernel, name + ' ' + str(launch.block), ms(ev, cand, ref))); print(rows[-1], flush=True)
            program = lift(plain); shape = shape_of(program)
            family = "map"
            for s in space(shape, family):
                if s.threads() != 256 or s.items > 4 or s.vector > 1 or s.fused and s.items == 2:
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
        if not name.startswith(("map",)) or best[k][0] == name: print(f"| {k} | {name[:90]} | {t} |")


if __name__ == '__main__':
    main()
