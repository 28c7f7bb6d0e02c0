"""CPU evidence for the loop-nest program on a folder of kernels (no GPU): for each kernel, does it lift (or the
located reason it does not); does the program's NumPy interpreter agree with the kernel itself run on the CPU
emulator at every check size; which schedule families the program allows (over its digits too, and as the policy's
implicit GEMMs); and do those families' default schedules compile under NVRTC and agree with the program they were
emitted from on the CPU at the smallest check size.

    python3 bench/lift_check.py FOLDER [OUT.json]
"""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from optiml_engine.candidate import original_candidate  # noqa: E402
from optiml_engine.gpu.compare import compare  # noqa: E402
from optiml_engine.gpu.compile import compile_nvrtc  # noqa: E402
from optiml_engine.gpu.data import make_inputs  # noqa: E402
from optiml_engine.gpu.emulate import run_on_cpu  # noqa: E402
from optiml_engine.ir.delinearize import delinearized  # noqa: E402
from optiml_engine.ir.emit import EmitError, emit  # noqa: E402
from optiml_engine.ir.implicit_gemm import implicit_gemm  # noqa: E402
from optiml_engine.ir.interpret import run_program  # noqa: E402
from optiml_engine.ir.lift import lift  # noqa: E402
from optiml_engine.ir.phases import phased  # noqa: E402
from optiml_engine.ir.promote import accumulators_held  # noqa: E402
from optiml_engine.ir.program import NotLiftable  # noqa: E402
from optiml_engine.ir.schedule import defaults, shape_of  # noqa: E402
from optiml_engine.source.contract import resolve  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402


def agree(candidate, expected_of, binding) -> str | None:
    """None when the candidate run on the CPU equals `expected_of(inputs)` at `binding`, else why not."""
    contract = candidate.contract
    inputs = make_inputs(np, contract.arrays, resolve(contract, binding).lengths, seed=11)
    expected, got = expected_of(inputs), run_on_cpu(candidate, binding, inputs)
    for spec in contract.arrays:
        if spec.direction != "in":
            found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, contract.tol,
                            contract.atol)
            if not found.ok:
                return f"{spec.param} at {binding}: {found.reason[:160]}"
    return None


def check(path: Path) -> dict:
    document = CudaDocument(path.read_text(), str(path.relative_to(ROOT)))
    naive = original_candidate(document, document.model.kernels[0].name)
    row: dict = {"file": path.name, "kernel": naive.unit.kernel}
    program = lift(naive)
    if isinstance(program, NotLiftable):
        return row | {"lifted": False, "reason": str(program)}
    row |= {"lifted": True, "program": str(program)}
    contract = naive.contract
    mismatches = [why for binding in contract.checks if (why := agree(
        naive, lambda inputs, b=binding: run_program(program, resolve(contract, b), contract.arrays, inputs),
        binding)) is not None]
    row["interpreter_agrees"] = not mismatches
    row["interpreter_mismatch"] = mismatches[:1]
    smallest = min(contract.checks or [contract.sizes], key=lambda b: sum(b.values()))
    schedules = []
    digits = delinearized(program)
    # The program, over its digits, with a transposed convolution's taps by phase, with an output element its loop
    # accumulates into held in a local, and as the policy's implicit GEMMs of those (their contraction schedules
    # alone).
    by_phase = phased(program)
    versions = {"program": program, "digits": digits, "taps by phase": by_phase,
                "held": accumulators_held(program), "held over the digits": accumulators_held(digits),
                "implicit GEMM": implicit_gemm(program), "implicit GEMM over the digits": implicit_gemm(digits),
                "implicit GEMM by phase": implicit_gemm(by_phase),
                "implicit GEMM by phase over the digits": implicit_gemm(phased(digits))}
    seen: list = []
    for over, chosen in versions.items():
        if str(chosen) in seen:     # a rewrite that does not apply returns its input
            continue
        seen.append(str(chosen))
        shape = shape_of(chosen)
        for family in shape.families if not over.startswith("implicit GEMM") else \
                [f for f in shape.families if f == "contraction"]:
            for schedule in defaults(shape, family):
                entry = {"schedule": schedule.describe(), "over": over}
                try:
                    emitted = emit(chosen, shape, schedule, naive)
                except EmitError as error:
                    schedules.append(entry | {"emitted": False, "why": str(error)[:160]})
                    continue
                compiled = compile_nvrtc(emitted.unit)
                entry |= {"emitted": True, "compiles": compiled.ok}
                if compiled.ok:
                    why = agree(emitted, lambda inputs, c=chosen: run_program(c, resolve(contract, smallest),
                                                                                contract.arrays, inputs), smallest)
                    entry |= {"agrees": why is None, "why": why}
                schedules.append(entry)
    row["families"] = sorted({f for over, chosen in versions.items() for f in shape_of(chosen).families
                              if not over.startswith("implicit GEMM") or f == "contraction"})
    row["schedules"] = schedules
    return row


def main() -> int:
    folder = Path(sys.argv[1]).resolve()
    rows = []
    for path in sorted(folder.glob("*.cu")):
        try:
            rows.append(check(path))
        except Exception as error:  # noqa: BLE001 - a kernel the tooling fails on is a finding, said
            rows.append({"file": path.name, "lifted": False, "reason": f"{type(error).__name__}: {error}"[:300]})
        row = rows[-1]
        good = [s for s in row.get("schedules", []) if s.get("agrees")]
        print(f"{row['file']:28} lifted={row['lifted']!s:5} interpreter={row.get('interpreter_agrees', '-')!s:5} "
              f"families={','.join(row.get('families', []))} schedules {len(good)}/{len(row.get('schedules', []))} "
              f"agree {row.get('reason', '')[:110]}", flush=True)
    lifted = [r for r in rows if r["lifted"]]
    print(f"\n{len(lifted)} of {len(rows)} lifted; interpreter agrees on {sum(bool(r.get('interpreter_agrees')) for r in lifted)}; "
          f"default schedules agreeing: {sum(s.get('agrees', False) for r in rows for s in r.get('schedules', []))} of "
          f"{sum(len(r.get('schedules', [])) for r in rows)}")
    if len(sys.argv) > 2:
        Path(sys.argv[2]).write_text(json.dumps({
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": f"python3 bench/lift_check.py {sys.argv[1]}", "kernels": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
