"""Every one-block-per-tile contraction schedule of a convolution's implicit GEMM (ir/implicit_gemm.py), emitted with
its staging slots' index digits computed once before the loop (emit.py `_point_digits`) and recomputed each step,
verified against the spec's oracle and timed by the evaluator, beside the plain kernel (a thread per output).

    source scripts/gpu-env.sh; python3 bench/implicit_gemm_probe.py OUT.json SPEC [SPEC ...]

Writes OUT.json (device, date, command, every schedule's two times) and prints a table.
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.candidate import original_candidate, reference_candidate  # noqa: E402
from optiml_engine.evaluate import Evaluator  # noqa: E402
from optiml_engine.generate.families import generate_kernel  # noqa: E402
from optiml_engine.generate.spec import parse_spec  # noqa: E402
from optiml_engine.gpu.pool import WorkerPool  # noqa: E402
from optiml_engine.gpu.worker import Device  # noqa: E402
from optiml_engine.ir import emit as emit_module  # noqa: E402
from optiml_engine.ir.implicit_gemm import implicit_gemm  # noqa: E402
from optiml_engine.ir.lift import lift  # noqa: E402
from optiml_engine.ir.schedule import shape_of, space  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402


def milliseconds(evaluator: Evaluator, candidate, reference) -> float | str:
    measured = evaluator.evaluate(candidate, reference)
    return round(measured.timing.median_ms, 4) if measured.ok and measured.timing else measured.verdict


def main() -> int:
    out, specs = Path(sys.argv[1]), sys.argv[2:]
    rows = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, use_cache=False)
        for spec in specs:
            parsed = parse_spec(spec)
            document = CudaDocument(generate_kernel(parsed).text, "spec.cu")
            plain = original_candidate(document, parsed.kernel)
            reference = reference_candidate(document, plain)
            program = implicit_gemm(lift(plain))
            shape = shape_of(program)
            rows.append({"spec": spec, "schedule": "plain (a thread per output)",
                         "hoisted_ms": milliseconds(evaluator, plain, reference), "recomputed_ms": None})
            for schedule in (s for s in space(shape, "contraction") if s.splits == 1):
                hoisted = emit_module.emit(program, shape, schedule, plain)
                with mock.patch.object(emit_module, "_point_digits", lambda *args: []):
                    recomputed = emit_module.emit(program, shape, schedule, plain)
                rows.append({"spec": spec, "schedule": schedule.describe(),
                             "hoisted_ms": milliseconds(evaluator, hoisted, reference),
                             "recomputed_ms": milliseconds(evaluator, recomputed, reference)})
                print(rows[-1], flush=True)
    out.write_text(json.dumps({"device": Device(0).info.name,
                               "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                               "command": "python3 bench/implicit_gemm_probe.py OUT.json " + " ".join(
                                   repr(s) for s in specs), "rows": rows}, indent=1))
    print("| spec | schedule | digits hoisted ms | recomputed ms |\n|---|---|---|---|")
    for row in rows:
        print(f"| `{row['spec']}` | {row['schedule']} | {row['hoisted_ms']} | {row['recomputed_ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
