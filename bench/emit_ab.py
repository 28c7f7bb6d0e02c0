"""A/B of two engines' emission, in one process on one GPU: the contraction schedules the schedule policy starts
from (the defaults of the program, else of its implicit GEMM with a transposed convolution's taps by phase, else of
its implicit GEMM, else over its digits) emitted by this engine and by
another (an older commit's `optiml_engine`, extracted into a folder), each pair verified and timed interleaved by
the evaluator (candidate = this engine's, incumbent = the other's). The same schedules; each kernel's text and
launch rule its engine's. Rows are written as they come, so a run cut short keeps what it measured.

    git archive BASE optiml_engine | tar -x -C OLD       # the other engine, once
    python3 bench/emit_ab.py OUT_DIR --old-engine OLD FILE.cu ...
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def emitted(files: list[str]) -> dict[str, list]:
    """{file: [(schedule, candidate), ...]} as the `optiml_engine` on the path emits them."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.ir.analysis import extents_at_sizes, longest_loop_at_sizes, points_at_sizes
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.ir.emit import emit
    from optiml_engine.ir.implicit_gemm import implicit_gemm
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.phases import phased
    from optiml_engine.ir.schedule import defaults, shape_of
    from optiml_engine.source.parse import CudaDocument
    out = {}
    for f in files:
        document = CudaDocument(Path(f).read_text(), f)
        naive = original_candidate(document, document.model.kernels[0].name)
        program = lift(naive)
        for chosen in (program, implicit_gemm(phased(program)), implicit_gemm(program),
                       implicit_gemm(delinearized(program))):
            shape = shape_of(chosen)
            if "contraction" in shape.families:
                break
        else:
            continue
        out[f] = [(s.describe(), emit(chosen, shape, s, naive)) for s in defaults(
            shape, "contraction", points_at_sizes(chosen, naive.contract), extents_at_sizes(chosen, naive.contract),
            longest_loop_at_sizes(chosen, naive.contract))]
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--old-engine", type=Path)
    parser.add_argument("--emit-only", action="store_true", help=argparse.SUPPRESS)   # the other engine's side
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.emit_only:
        import optiml_engine
        if Path(optiml_engine.__file__).resolve().is_relative_to(ROOT / "optiml_engine"):
            sys.exit("--emit-only: this engine is on the path, not the other one")
        args.out.write_text(json.dumps({f: [[schedule, candidate.unit.text, candidate.contract.model_dump(mode="json")]
                                             for schedule, candidate in pairs]
                                        for f, pairs in emitted(args.files).items()}))
        return 0
    sys.path.insert(0, str(ROOT))
    from optiml_engine.candidate import original_candidate
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.gpu.pool import WorkerPool
    from optiml_engine.model import VerifyPolicy
    from optiml_engine.source.parse import CudaDocument
    args.out.mkdir(parents=True, exist_ok=True)
    theirs_file = args.out / "old_emitted.json"
    path = os.pathsep.join([str(args.old_engine.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])
    subprocess.run([sys.executable, __file__, str(theirs_file), "--emit-only", *args.files], check=True,
                   env={**os.environ, "PYTHONPATH": path}, cwd=ROOT)
    theirs, ours = json.loads(theirs_file.read_text()), emitted(args.files)
    rows: list[dict] = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=7), use_cache=False)
        for f, schedules in ours.items():
            document = CudaDocument(Path(f).read_text(), f)
            naive = original_candidate(document, document.model.kernels[0].name)
            for (schedule, new), (their_schedule, their_text, their_contract) in zip(schedules, theirs.get(f, [])):
                if schedule != their_schedule:
                    continue
                text = new.unit.text
                old = new.model_copy(update={"unit": new.unit.model_copy(update={"text": their_text}),
                                             "contract": type(new.contract).model_validate(their_contract)})
                measured = evaluator.evaluate(new, reference=naive, incumbent=old)
                rows.append({"file": f, "schedule": schedule,
                             "same_text": text == their_text and new.contract == old.contract,
                             "verdict": measured.verdict,
                             "new_ms": measured.timing.median_ms if measured.timing else None,
                             "old_ms": measured.incumbent_timing.median_ms if measured.incumbent_timing else None})
                print(f"{Path(f).stem:30} {schedule[13:60]:48} {measured.verdict:8} new {rows[-1]['new_ms']} "
                      f"old {rows[-1]['old_ms']}", flush=True)
                (args.out / "emit_ab.json").write_text(json.dumps({
                    "device": pool.devices[0].model_dump(),
                    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                    "command": "python3 bench/emit_ab.py " + " ".join(sys.argv[1:]), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
