"""The map schedules of each kernel's program and of its program with constant loops written out (ir/unroll.py),
whose fused points read the elements several of them share once (emit.py `common_reads`); one process, the
evaluator's protocol (L2 flushed, CUDA events, median)."""
import datetime, json, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.gpu.worker import Device
from optiml_engine.ir.emit import emit, EmitError
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import defaults, shape_of, space
from optiml_engine.ir.unroll import unrolled
from optiml_engine.source.parse import CudaDocument

FILES = ["tests/heldout/conv2d_3x3_multichan.cu", "tests/heldout10/depthwise_conv5x5.cu", "examples/blur3x3.cu",
         "tests/heldout/conv1d_valid.cu", "tests/heldout2/box5_1d.cu", "tests/heldout11/maxpool2d_k3s2p1.cu",
         "tests/heldout10/avgpool3d_k2.cu", "tests/heldout12/laplacian5_clamped.cu",
         "tests/heldout10/conv1d_stride_dilation.cu", "tests/heldout10/stencil3d_7pt_f64.cu", "tests/heldout/jacobi2d.cu",
         "tests/heldout/heat1d_5pt.cu", "tests/heldout/maxpool1d_k3s2.cu"]
BLOCKS = ((32, 8), (128, 2), (256, 1))


def ms(ev, cand, ref):
    m = ev.evaluate(cand, ref)
    return round(m.timing.median_ms, 4) if m.ok and m.timing else f"{m.verdict}"


def main():
    rows = []
    with WorkerPool() as pool:
        ev = Evaluator(pool, use_cache=False)
        for path in FILES:
            doc = CudaDocument((ROOT / path).read_text(), path)
            plain = original_candidate(doc, doc.model.kernels[0].name)
            kernel = plain.unit.kernel
            ref = reference_candidate(doc, plain)
            rows.append((kernel, "plain", "naive", ms(ev, plain, ref))); print(rows[-1], flush=True)
            program = lift(plain)
            written = unrolled(program)
            for label, chosen in (("program", program), ("written out", written)):
                if label == "written out" and written is program:
                    continue
                shape = shape_of(chosen)
                tried = defaults(shape, "map") if label == "program" else []
                tried += [s for s in space(shape, "map") if s.fused and s.block in BLOCKS and s not in tried]
                for s in tried:
                    try:
                        cand = emit(chosen, shape, s, plain)
                    except EmitError:
                        continue
                    rows.append((kernel, label, s.model_dump_json(exclude_defaults=True), ms(ev, cand, ref)))
                    print(rows[-1], flush=True)
    out = Path(sys.argv[1])
    out.write_text(json.dumps({"device": Device(0).info.name, "command": " ".join(sys.argv),
                               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(), "rows": rows},
                              indent=1))
    print("| kernel | naive ms | best of the program's first map schedules | ms | best written out | ms |")
    print("|---|---|---|---|---|---|")
    for kernel in dict.fromkeys(r[0] for r in rows):
        mine = [r for r in rows if r[0] == kernel and isinstance(r[3], float)]
        naive = next(r[3] for r in mine if r[1] == "plain")
        best = {label: min((r for r in mine if r[1] == label), key=lambda r: r[3], default=None)
                for label in ("program", "written out")}
        cells = [f"{b[2]} | {b[3]}" if b else "- | -" for b in best.values()]
        print(f"| {kernel} | {naive} | {' | '.join(cells)} |")


if __name__ == '__main__':
    main()
