"""Times a kernel naive and as each fused map schedule (2 and 4 points a thread, along x and along y): `python bench/fused_points_probe.py FILE...`
on the GPU machine, from the repository root with it on PYTHONPATH (bench/results/ir-h100/fused-points/)."""
import sys
from tests.ir_cases import ROOT, scheduled
from optiml_engine.ir.schedule import space
from optiml_engine.ir.emit import emit
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
def main():
    with WorkerPool() as pool:
        ev = Evaluator(pool, use_cache=False)
        for f in sys.argv[1:]:
            naive, program, shape = scheduled(ROOT / f, False)
            base = ev.evaluate(naive)
            print(f, "naive", round(base.timing.median_ms, 4), flush=True)
            for s in space(shape, "map"):
                if not s.fused or s.block not in ((256, 1), (32, 8), (64, 4)):
                    continue
                m = ev.evaluate(emit(program, shape, s, naive), naive)
                print("  ", s.fused_axis, s.items, s.block, m.verdict, round(m.timing.median_ms, 4) if m.timing else None,
                  flush=True)


if __name__ == '__main__':
    main()
