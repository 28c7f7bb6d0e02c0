"""GPU evidence for generation from intents: every intent of tests/intents.py generated (built-in generator),
its first kernel verified against its NumPy reference oracle (3 fresh-seed trials at every contract size) and
timed, then optimized with a short budget (`optiml_engine.optimize`: the search, the final check on fresh inputs
interleaved with the first kernel, compute-sanitizer).

    source scripts/gpu-env.sh; python3 bench/generate_bench.py OUT_DIR [--minutes 8]

All intents share a wall-time budget (default 8 minutes, start-up included): each optimization gets an equal share
of what is left, and when the budget is spent the remaining kernels are verified and timed only (said in the
table). Writes OUT_DIR/kernels/*.cu, OUT_DIR/generate.json (after every intent, so a time-out keeps what was done)
and OUT_DIR/generate.md. Exit 2 without a GPU (the kernels are still generated and compile-checked first).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))   # tests/intents.py, when run from elsewhere

from optiml_engine.candidate import original_candidate, reference_candidate  # noqa: E402
from optiml_engine.generate.families import compile_check, generate_kernel  # noqa: E402
from optiml_engine.generate.intent import parse_intent  # noqa: E402
from optiml_engine.gpu.pool import NoDevice, WorkerPool  # noqa: E402
from optiml_engine.model import GeneratedKernel, Measurement  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402
from tests.intents import INTENTS  # noqa: E402

COMMAND = "source scripts/gpu-env.sh; python3 bench/generate_bench.py $OUT"
RESERVE_S = 20.0            # kept back from the optimizations' shares for the last kernels' verification
MIN_SEARCH_S = 4.0          # below this, a search cannot evaluate a candidate: the kernel is only verified


def generated_kernels(out: Path) -> list[tuple[str, GeneratedKernel, Path]]:
    """Every intent's kernel, compile-checked (NVRTC) and written to OUT/kernels; CPU only."""
    (out / "kernels").mkdir(parents=True, exist_ok=True)
    kernels = []
    for number, (intent, *_) in enumerate(INTENTS, 1):
        generated = generate_kernel(parse_intent(intent))
        compiled = compile_check(generated)
        if not compiled.ok:
            raise SystemExit(f"error: the kernel generated for '{intent}' does not compile: {compiled.log}")
        path = out / "kernels" / f"{number:02d}_{generated.kernel}.cu"
        path.write_text(generated.text)
        kernels.append((intent, generated, path))
    return kernels


def timing_fields(prefix: str, measurement: Measurement | None) -> dict:
    timed = measurement is not None and measurement.ok and measurement.timing is not None
    return {f"{prefix}_ms": measurement.timing.median_ms if timed else None,
            f"{prefix}_time_over_sol": measurement.sol.headroom if timed and measurement.sol else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--minutes", type=float, default=8.0, help="wall-time budget for all intents")
    args = parser.parse_args()
    began = time.monotonic()
    deadline = began + 60 * args.minutes
    kernels = generated_kernels(args.out)
    print(f"{len(kernels)} kernels generated and compile-checked in {time.monotonic() - began:.1f} s", flush=True)
    try:
        pool = WorkerPool()
    except NoDevice as reason:
        print(f"error: no CUDA device ({reason}): verification and optimization need an NVIDIA GPU; the generated "
              f"kernels are in {args.out / 'kernels'}", file=sys.stderr)
        return 2

    from optiml_engine.evaluate import Evaluator
    from optiml_engine.optimize import default_policies, optimize
    from optiml_engine.search.mcts import SearchBudget, SearchConfig

    rows: list[dict] = []
    with pool:
        evaluator = Evaluator(pool, use_cache=False)
        result = {"device": pool.devices[0].model_dump(), "command": COMMAND, "minutes": args.minutes,
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "intents": rows}
        policies = default_policies(False)
        for index, (intent, generated, path) in enumerate(kernels):
            started = time.monotonic()
            document = CudaDocument(path.read_text(), str(path.relative_to(args.out)))
            first = original_candidate(document, generated.kernel)
            naive = evaluator.evaluate(first, reference_candidate(document, first))
            row = {"intent": intent, "family": generated.spec.family, "operation": generated.spec.operation,
                   "kernel": generated.kernel, "sizes": generated.spec.sizes, "reference": generated.reference,
                   "verified": naive.ok, "verdict": naive.verdict, "reason": naive.reason,
                   **timing_fields("naive", naive), "optimized": False, "optimized_ms": None,
                   "optimized_time_over_sol": None, "speedup": None, "evaluated": 0, "note": ""}
            share = (deadline - time.monotonic() - RESERVE_S) / (len(kernels) - index)
            if naive.ok and share >= MIN_SEARCH_S:
                optimization = optimize(document, generated.kernel, evaluator, policies,
                                        SearchBudget(candidates=40, seconds=share), SearchConfig(parallel=len(pool.workers)),
                                        profile=False)
                row.update(evaluated=optimization.evaluated, note="; ".join(optimization.notes),
                           optimized=optimization.accepted, stop=optimization.stop_reason)
                if optimization.accepted:
                    row.update(**timing_fields("optimized", optimization.final), speedup=optimization.speedup)
            elif naive.ok:
                row["note"] = "time budget spent: verified and timed only"
            row["seconds"] = round(time.monotonic() - started, 1)
            rows.append(row)
            print(f"{generated.kernel}: {naive.verdict}, naive {row['naive_ms']}, optimized {row['optimized_ms']} "
                  f"({row['seconds']} s)", flush=True)
            (args.out / "generate.json").write_text(json.dumps(result, indent=2))
    result["seconds"] = round(time.monotonic() - began, 1)
    (args.out / "generate.json").write_text(json.dumps(result, indent=2))
    (args.out / "generate.md").write_text(markdown(result))
    print(markdown(result))
    return 0 if all(row["verified"] for row in rows) else 1


def number(value: float | None, form: str) -> str:
    return "-" if value is None else format(value, form)


def ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def markdown(result: dict) -> str:
    rows = result["intents"]
    verified = sum(row["verified"] for row in rows)
    optimized = sum(row["optimized"] for row in rows)
    lines = [f"# Generation from intents on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}` ({result['minutes']:g}-minute budget for all intents, "
             f"{result.get('seconds', 0):.0f} s taken). Each first kernel verified against its NumPy reference "
             f"oracle (3 fresh-seed trials at every contract size) and timed; then `optimize` with an equal share of "
             f"the time left (final check on fresh inputs, interleaved timing, compute-sanitizer). time/SOL: median "
             f"time over the speed-of-light floor.", "",
             f"{verified}/{len(rows)} first kernels verified; {optimized} optimized kernels accepted.", "",
             "| # | intent | family | kernel | verified | naive ms | naive time/SOL | optimized ms | optimized time/SOL "
             "| speedup |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for number_, row in enumerate(rows, 1):
        status = "yes" if row["verified"] else f"no ({row['verdict']})"
        lines.append(f"| {number_} | {row['intent']} | {row['family']} | {row['kernel']} | {status} | "
                     f"{number(row['naive_ms'], '.4f')} | {ratio(row['naive_time_over_sol'])} | "
                     f"{number(row['optimized_ms'], '.4f')} | {ratio(row['optimized_time_over_sol'])} | "
                     f"{ratio(row['speedup'])} |")
    notes = [(n, row) for n, row in enumerate(rows, 1) if row["reason"] or row["note"]]
    if notes:
        lines += ["", "Notes:", ""]
        lines += [f"- {n} {row['kernel']}: {row['reason'] or row['note']}"[:300] for n, row in notes]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
