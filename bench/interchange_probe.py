"""A stencil's register-window schedules along x (its loops as written) and along y (two nested loops swapped,
ir/interchange.py), every one of them verified and timed by the evaluator beside the naive kernel.

    source scripts/gpu-env.sh; python3 bench/interchange_probe.py OUT.json KERNEL.cu

Writes OUT.json (device, date, command, each schedule's time) and prints a table.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.candidate import original_candidate  # noqa: E402
from optiml_engine.evaluate import Evaluator  # noqa: E402
from optiml_engine.gpu.pool import WorkerPool  # noqa: E402
from optiml_engine.gpu.worker import Device  # noqa: E402
from optiml_engine.ir.emit import emit  # noqa: E402
from optiml_engine.ir.interchange import interchanged  # noqa: E402
from optiml_engine.ir.lift import lift  # noqa: E402
from optiml_engine.ir.schedule import shape_of, space  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402


def main() -> int:
    out, path = Path(sys.argv[1]), Path(sys.argv[2])
    document = CudaDocument(path.read_text(), str(path))
    naive = original_candidate(document, document.model.kernels[0].name)
    program = lift(naive)
    swapped = interchanged(program)
    rows = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, use_cache=False)

        def timed(label: str, candidate) -> None:
            measured = evaluator.evaluate(candidate, naive)
            rows.append({"schedule": label, "ms": round(measured.timing.median_ms, 4)
                         if measured.ok and measured.timing else measured.verdict})
            print(rows[-1], flush=True)

        timed("naive", naive)
        for chosen, axis in ((program, "x"), (swapped, "y")):
            shape = shape_of(chosen)
            for schedule in space(shape, "map"):
                if schedule.window and schedule.fused_axis == axis:
                    timed(schedule.describe(), emit(chosen, shape, schedule, naive))
    out.write_text(json.dumps({"device": Device(0).info.name,
                               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                               "command": f"python3 bench/interchange_probe.py OUT.json {path}", "rows": rows},
                              indent=1))
    print("| schedule | ms |\n|---|---|")
    for row in rows:
        print(f"| {row['schedule']} | {row['ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
