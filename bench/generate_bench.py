"""GPU evidence for generation from intents: every intent of tests/intents.py generated (built-in generator),
its first kernel verified against its NumPy reference oracle (3 fresh-seed trials at every contract size) and
timed, then optimized with a short budget (`optiml_engine.optimize`: the search, the final check on fresh inputs
interleaved with the first kernel, compute-sanitizer).

    source scripts/gpu-env.sh; python3 bench/generate_bench.py OUT_DIR [--minutes 8] [--only 1-20]
    python3 bench/generate_bench.py --table RUN.json [RUN.json ...]   (one table of the runs' intents, by number)

All intents share a wall-time budget (default 8 minutes, start-up included): each search gets an equal share of what
is left after what every kernel still to come needs besides its search (`search_seconds`); when the budget is spent
the remaining kernels are verified and timed only (said in the table). Timed launches stop after 1 s. Writes OUT_DIR/kernels/*.cu, OUT_DIR/generate.json (after every intent, so a time-out keeps what was done)
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
from optiml_engine.model import GeneratedKernel, Measurement, TimingPolicy  # noqa: E402
from optiml_engine.source.parse import CudaDocument  # noqa: E402
from tests.intents import INTENTS  # noqa: E402

COMMAND = "source scripts/gpu-env.sh; python3 bench/generate_bench.py $OUT"
# Seconds an optimization spends outside its search (the first kernel verified and timed, the best verified again
# on fresh inputs interleaved with it, compute-sanitizer memcheck and racecheck), and a kernel verified and timed
# alone: what the budget keeps back for each kernel still to come.
OVERHEAD_S = 14.0
VERIFY_S = 5.0
MIN_SEARCH_S = 4.0          # below this a search evaluates hardly a candidate: the kernel is verified and timed only
MAX_SEARCH_S = 20.0
RESERVE_S = 10.0
# Timed launches stop after 1 s (3 s by default): the budget goes to candidates rather than to tighter intervals.
TIMING = TimingPolicy(max_seconds=1.0)


def search_seconds(now: float, deadline: float, remaining: int) -> float | None:
    """This kernel's search time: an equal share of what the kernels still to come leave for searching, at least
    MIN_SEARCH_S while the budget allows the others to be verified; None when only verification fits."""
    left = deadline - now - RESERVE_S
    share = left / remaining - OVERHEAD_S
    if share >= MIN_SEARCH_S:
        return min(share, MAX_SEARCH_S)
    if left - VERIFY_S * (remaining - 1) >= OVERHEAD_S + MIN_SEARCH_S:
        return MIN_SEARCH_S
    return None


def generated_kernels(out: Path, numbers: set[int] | None = None) -> list[tuple[int, str, GeneratedKernel, Path]]:
    """Every intent's kernel (those numbered in `numbers`, 1-based, when given), compile-checked (NVRTC) and written
    to OUT/kernels; CPU only. In the order they are measured: one kernel of each family, then a second of each, ...:
    when the budget runs out, the kernels left only verified are spread over the families."""
    (out / "kernels").mkdir(parents=True, exist_ok=True)
    kernels = []
    for number, (intent, *_) in enumerate(INTENTS, 1):
        if numbers is not None and number not in numbers:
            continue
        generated = generate_kernel(parse_intent(intent))
        compiled = compile_check(generated)
        if not compiled.ok:
            raise SystemExit(f"error: the kernel generated for '{intent}' does not compile: {compiled.log}")
        path = out / "kernels" / f"{number:02d}_{generated.kernel}.cu"
        path.write_text(generated.text)
        kernels.append((number, intent, generated, path))
    per_family: dict[str, int] = {}
    order = []
    for position, (_, _, generated, _) in enumerate(kernels):
        per_family[generated.spec.family] = per_family.get(generated.spec.family, 0) + 1
        order.append((per_family[generated.spec.family], position))
    return [kernels[position] for _, position in sorted(order)]


def intent_numbers(text: str) -> set[int]:
    numbers: set[int] = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        if not first.strip().isdigit() or (last and not last.strip().isdigit()):
            raise argparse.ArgumentTypeError(f"'{text}' is not a list of intent numbers (expected e.g. 1-20 or 3,7)")
        numbers.update(range(int(first), int(last or first) + 1))
    return numbers


def timing_fields(prefix: str, measurement: Measurement | None) -> dict:
    timed = measurement is not None and measurement.ok and measurement.timing is not None
    return {f"{prefix}_ms": measurement.timing.median_ms if timed else None,
            f"{prefix}_time_over_sol": measurement.sol.headroom if timed and measurement.sol else None}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--minutes", type=float, default=8.0, help="wall-time budget for all intents")
    parser.add_argument("--only", type=intent_numbers, help="these intents only, e.g. 1-20 or 3,7,21-25 (numbers "
                                                             "of tests/intents.py, from 1), to split a run over calls")
    parser.add_argument("--table", nargs="+", type=Path, help="print one table of these generate.json files")
    args = parser.parse_args()
    if args.table:
        print(markdown(merged([json.loads(path.read_text()) for path in args.table])))
        return 0
    if args.out is None:
        parser.error("OUT_DIR is required")
    began = time.monotonic()
    deadline = began + 60 * args.minutes
    kernels = generated_kernels(args.out, args.only)
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
        evaluator = Evaluator(pool, timing=TIMING, use_cache=False)
        result = {"device": pool.devices[0].model_dump(), "command": " ".join([COMMAND, *sys.argv[2:]]),
                  "minutes": args.minutes,
                  "timing": TIMING.model_dump(),
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "intents": rows}
        policies = default_policies(False)
        for index, (number_, intent, generated, path) in enumerate(kernels):
            started = time.monotonic()
            document = CudaDocument(path.read_text(), str(path.relative_to(args.out)))
            row = {"number": number_, "intent": intent, "family": generated.spec.family, "operation": generated.spec.operation,
                   "kernel": generated.kernel, "sizes": generated.spec.sizes, "reference": generated.reference,
                   "optimized": False, "optimized_ms": None, "optimized_time_over_sol": None, "speedup": None,
                   "evaluated": 0, "search_s": None, "note": ""}
            seconds = search_seconds(started, deadline, len(kernels) - index)
            if seconds is None:
                first = original_candidate(document, generated.kernel)
                naive = evaluator.evaluate(first, reference_candidate(document, first))
                row["note"] = "time budget spent: verified and timed only"
            else:
                optimization = optimize(document, generated.kernel, evaluator, policies,
                                        SearchBudget(candidates=40, seconds=seconds),
                                        SearchConfig(parallel=len(pool.workers)), profile=False)
                naive = optimization.original
                row.update(evaluated=optimization.evaluated, note="; ".join(optimization.notes),
                           optimized=optimization.accepted, stop=optimization.stop_reason, search_s=round(seconds, 1))
                if optimization.accepted:
                    row.update(**timing_fields("optimized", optimization.final), speedup=optimization.speedup)
            row.update(verified=naive.ok, verdict=naive.verdict, reason=naive.reason, **timing_fields("naive", naive),
                       seconds=round(time.monotonic() - started, 1))
            rows.append(row)
            print(f"{generated.kernel}: {naive.verdict}, naive {row['naive_ms']}, optimized {row['optimized_ms']} "
                  f"({row['seconds']} s)", flush=True)
            (args.out / "generate.json").write_text(json.dumps(result, indent=2))
    result["seconds"] = round(time.monotonic() - began, 1)
    (args.out / "generate.json").write_text(json.dumps(result, indent=2))
    (args.out / "generate.md").write_text(markdown(result))
    print(markdown(result))
    return 0 if all(row["verified"] for row in rows) else 1


def merged(results: list[dict]) -> dict:
    """The runs of one split run (`--only`) as one: their intents by number, their commands and budgets listed."""
    if len(results) == 1:
        return results[0]
    return {"device": results[0]["device"], "date": results[0]["date"],
            "command": "; ".join(result["command"] for result in results),
            "minutes": sum(result["minutes"] for result in results),
            "seconds": sum(result.get("seconds", 0) for result in results),
            "intents": sorted((row for result in results for row in result["intents"]), key=lambda row: row["number"])}


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
             f"oracle (3 fresh-seed trials at every contract size) and timed (cold L2, CUDA events, at most 1 s of "
             f"launches); then `optimize` with a share of the time left (final check on fresh inputs, interleaved "
             f"timing, compute-sanitizer). time/SOL: median time over the speed-of-light floor.", "",
             f"{verified}/{len(rows)} first kernels verified; {optimized} optimized kernels accepted.", "",
             "| # | intent | family | kernel | verified | naive ms | naive time/SOL | optimized ms | optimized time/SOL "
             "| speedup |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for position, row in enumerate(rows, 1):
        number_ = row.get("number", position)
        status = "yes" if row["verified"] else f"no ({row['verdict']})"
        lines.append(f"| {number_} | {row['intent']} | {row['family']} | {row['kernel']} | {status} | "
                     f"{number(row['naive_ms'], '.4f')} | {ratio(row['naive_time_over_sol'])} | "
                     f"{number(row['optimized_ms'], '.4f')} | {ratio(row['optimized_time_over_sol'])} | "
                     f"{ratio(row['speedup'])} |")
    notes = [(row.get("number", n), row) for n, row in enumerate(rows, 1) if row["reason"] or row["note"]]
    if notes:
        lines += ["", "Notes:", ""]
        lines += [f"- {n} {row['kernel']}: {row['reason'] or row['note']}"[:300] for n, row in notes]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
