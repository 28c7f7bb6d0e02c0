"""GPU evidence for the search: each example optimized by `optimize` with the built-in rules and templates (no LLM)
under a wall-time budget, against the best single edit measured in the same run.

    python3 bench/search_bench.py OUT_DIR --seconds S [EXAMPLE ...]   (on the GPU machine, after
                                                                      `source scripts/gpu-env.sh`)
    python3 bench/search_bench.py --table RUN.json [RUN.json ...]     (the tables again, and their union: a kernel
                                                                      run again counts with its last row)

For each example, in one process on one device:
1. the best single edit: every one-rule rewrite of the naive kernel, and every template that recognizes it tuned
   with 12 measured instances (as bench/rules_bench.py and bench/templates_bench.py), each verified against the
   naive kernel; the fastest by a short timing policy;
2. the search: `optimize` (MCTS, Nsight Compute diagnosis at each expanded node, the best re-verified on fresh inputs,
   timed interleaved with the naive kernel, compute-sanitizer memcheck and racecheck), budget S seconds of search;
3. the kernel the user would get: the result's new file text parsed again (its contract's launch line included),
   verified against the naive kernel and timed interleaved with the best single edit: the search's gain over it.

Writes OUT_DIR/search.json after each example and OUT_DIR/search.md at the end; prints the table last.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import time
from pathlib import Path

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.model import Candidate, Measurement, TimingPolicy, VerifyPolicy
from optiml_engine.optimize import OptimizationResult, default_policies, optimize
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.rules import RulePolicy
from optiml_engine.policies.templates import matches
from optiml_engine.policies.templates.tune import best, tune
from optiml_engine.search.mcts import SearchBudget, SearchConfig
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_BUDGET = 12
SHORT_TIMING = TimingPolicy(min_runs=10, max_runs=30, max_seconds=0.5)
UNLIMITED_CANDIDATES = 100_000   # the time budget decides


def best_single_edit(naive: Candidate, reference: Candidate, short: Evaluator) -> dict:
    """Every one-rule rewrite and every tuned template instance of the naive kernel; the fastest verified one."""
    began = time.perf_counter()
    measured: list[tuple[str, str, Candidate, float]] = []    # (rule, description, candidate, ms)
    rejected = 0

    def timed(candidate: Candidate) -> float | None:
        nonlocal rejected
        measurement = short.evaluate(candidate, reference)
        rejected += not measurement.ok
        return measurement.timing.median_ms if measurement.ok else None

    for edit in RulePolicy().propose(naive, PolicyContext(device=short.device)):
        if (ms := timed(edit.candidate)) is not None:
            measured.append((edit.rule, edit.description, edit.candidate, ms))
    for template, match in matches(naive):
        trials = tune(template, match, timed, TEMPLATE_BUDGET, 0, device=short.device,
                      compile=lambda candidate: short.compile(candidate)[0])
        if (top := best(trials)) is not None:
            candidate = template.render(match, top.params)
            measured.append((template.name, candidate.description, candidate, top.time_ms))
    found = {"evaluated": len(measured) + rejected, "rejected": rejected, "seconds": time.perf_counter() - began}
    if measured:
        rule, description, candidate, ms = min(measured, key=lambda m: m[3])
        found.update(rule=rule, description=description, short_ms=ms, candidate=candidate)
    return found


def time_to_fraction(result: OptimizationResult, fraction: float = 0.9) -> float | None:
    """Seconds of search until the best speedup so far reached `fraction` of the search's final best speedup."""
    if not result.history:
        return None
    original_ms = result.original.timing.median_ms
    final = original_ms / min(ms for _, _, ms in result.history)
    return next(elapsed for _, elapsed, ms in result.history if original_ms / ms >= fraction * final)


def summary(measurement: Measurement) -> dict:
    return {"verdict": measurement.verdict, "reason": measurement.reason[:300],
            "median_ms": measurement.timing.median_ms if measurement.timing else None,
            "spread_ms": measurement.timing.spread_ms if measurement.timing else None,
            "speedup": measurement.speedup.median if measurement.speedup else None,
            "speedup_ci": [measurement.speedup.ci_low, measurement.speedup.ci_high] if measurement.speedup else None,
            "time_over_sol": measurement.sol.headroom if measurement.sol else None}


def run_example(path: Path, evaluator: Evaluator, short: Evaluator, seconds: float, workers: int) -> dict:
    document = CudaDocument(path.read_text(), f"examples/{path.name}")
    naive = original_candidate(document, path.stem)
    reference = reference_candidate(document, naive) or naive
    single = best_single_edit(naive, reference, short)
    print(f"{path.stem}: best single edit {single.get('rule')} ({single['evaluated']} evaluated, "
          f"{single['seconds']:.0f} s)", flush=True)
    began = time.perf_counter()
    result = optimize(document, path.stem, evaluator, default_policies(False),
                      SearchBudget(candidates=UNLIMITED_CANDIDATES, seconds=seconds),
                      SearchConfig(parallel=workers, seed=0))
    job_seconds = time.perf_counter() - began
    search_seconds = result.history[-1][1] if result.history else 0.0
    row = {"kernel": path.stem, "naive": summary(result.original), "job_seconds": job_seconds,
           "search_seconds": search_seconds, "evaluated": result.evaluated, "rejected": result.rejected,
           "candidates_per_minute": 60 * result.evaluated / search_seconds if search_seconds else None,
           "time_to_90_percent_s": time_to_fraction(result), "stop_reason": result.stop_reason,
           "accepted": result.accepted, "notes": result.notes, "final": summary(result.final),
           "sanitizer": [r.model_dump() for r in result.sanitizer],
           "trajectory": [f"{step.rule}: {step.description}" for step in result.trajectory],
           "search_best": summary(result.best),
           "rejections": [r.model_dump() for r in result.rejections],
           "single": {k: v for k, v in single.items() if k != "candidate"}, "versus_single": None, "applied": None}
    if result.accepted:
        # The kernel the diff gives the user, not the search's in-memory candidate.
        applied = original_candidate(CudaDocument(result.new_text, f"examples/{path.name}"), path.stem)
        row["applied"] = summary(evaluator.evaluate(applied, reference, incumbent=naive,
                                                    fresh_seed=evaluator.verify.seed + 104729))
        if "candidate" in single:
            row["versus_single"] = summary(evaluator.evaluate(applied, reference, incumbent=single["candidate"]))
    print(f"{path.stem}: {result.stop_reason}; {result.evaluated} candidates in {search_seconds:.0f} s; "
          f"time/SOL {offered_time_over_sol(row):.2f}", flush=True)
    return row


def offered_time_over_sol(row: dict) -> float:
    """The offered kernel's time over its floor, from its timing beside the best single edit (a kernel of like speed)
    where there is one: beside the naive kernel, up to hundreds of times slower, a fast kernel's runs can spread by a
    third (dot_atomic: 0.109 ms +- 0.044 there, +- 0.0006 beside its peer; bench/results/interleave-h100.md); else
    beside the naive kernel; the naive kernel's own where nothing was offered."""
    for measured in (row["versus_single"], row["applied"], row["naive"]):
        if measured and measured["time_over_sol"] is not None:
            return measured["time_over_sol"]
    raise ValueError(f"{row['kernel']}: no time over SOL")


def ratio(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}x"


def markdown(result: dict) -> str:
    lines = [f"# Search on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}`. No LLM; rules and templates only; "
             f"{result.get('workers', 1)} GPU worker{'s' if result.get('workers', 1) > 1 else ''} (candidates in "
             f"flight at once); seed 0. "
             "Naive and search times are this run's; 'vs best single edit' times the kernel the diff gives "
             "(re-parsed from the result's file text) interleaved with the best one-rule or tuned-template rewrite "
             "of the same run (median of per-pair ratios, 95% interval).", "",
             "| kernel | naive time/SOL | offered time/SOL | speedup vs naive | best single edit | vs best single edit | "
             "candidates (rejected) | cand/min | time to 90% | search s | stop | sanitizer |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in result["examples"]:
        applied, versus, single = row["applied"], row["versus_single"], row["single"]
        against = "-" if versus is None or versus["speedup"] is None else (
            f"{versus['speedup']:.2f}x ({versus['speedup_ci'][0]:.2f}-{versus['speedup_ci'][1]:.2f})")
        clean = "clean" if row["sanitizer"] and all(r["ok"] for r in row["sanitizer"]) else (
            "-" if not row["sanitizer"] else "errors")
        lines.append(
            f"| {row['kernel']} | {ratio(row['naive']['time_over_sol'])} | {ratio(offered_time_over_sol(row))} | "
            f"{ratio(applied['speedup'] if applied else 1.0)} | {single.get('rule', '-')} | {against} | "
            f"{row['evaluated']} ({row['rejected']}) | {row['candidates_per_minute'] or 0:.0f} | "
            f"{'-' if row['time_to_90_percent_s'] is None else format(row['time_to_90_percent_s'], '.0f') + ' s'} | "
            f"{row['search_seconds']:.0f} | {row['stop_reason']} | {clean} |")
    return "\n".join(lines) + "\n"


def union(results: list[dict]) -> str:
    """The must-hold figures over every example of the given runs; an example run again in a later file counts
    with its later row only (the runs given in the order made)."""
    rows = list({row["kernel"]: row for result in results for row in result["examples"]}.values())
    if not rows:
        return ""
    finals = [offered_time_over_sol(row) for row in rows]
    beaten = [row["kernel"] for row in rows if row["versus_single"] and row["versus_single"]["speedup_ci"]
              and row["versus_single"]["speedup_ci"][0] > 1.0]
    slower = [row["kernel"] for row in rows if row["applied"] and row["applied"]["speedup"] < 1.0]
    unverified = [row["kernel"] for row in rows if row["accepted"] and row["applied"]["verdict"] != "ok"]
    evaluated = sum(row["evaluated"] for row in rows)
    searched = sum(row["search_seconds"] for row in rows)
    return "\n".join([
        f"## Over {len(rows)} examples ({len(results)} run(s))", "",
        f"- geomean time/SOL of the kernel offered (the naive one where nothing was accepted; see "
        f"offered_time_over_sol in bench/search_bench.py for which timing): "
        f"{math.exp(sum(math.log(f) for f in finals) / len(finals)):.3f}x",
        f"- faster than the best single edit (95% interval above 1): {len(beaten)} of {len(rows)}: "
        f"{', '.join(beaten) or 'none'}",
        f"- slower than naive: {', '.join(slower) or 'none'}; offered but failing re-verification: "
        f"{', '.join(unverified) or 'none'}",
        f"- candidates evaluated per minute of search, over all examples: {60 * evaluated / searched:.0f}",
        f"- longest job: {max(row['job_seconds'] for row in rows):.0f} s", ""])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("examples", nargs="*")
    parser.add_argument("--seconds", type=float, default=120.0, help="search budget per example")
    parser.add_argument("--table", nargs="+", type=Path, help="print the tables of these search.json files")
    args = parser.parse_intermixed_args()
    if args.table:
        results = [json.loads(path.read_text()) for path in args.table]
        print("\n".join(markdown(result) for result in results) + "\n" + union(results))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    paths = [ROOT / "examples" / f"{name}.cu" for name in args.examples] or sorted((ROOT / "examples").glob("*.cu"))
    with WorkerPool() as pool:
        verify = VerifyPolicy(seed=int(time.time()), timeout_s=60)
        evaluator = Evaluator(pool, verify=verify, use_cache=False)
        short = Evaluator(pool, verify=verify, timing=SHORT_TIMING, use_cache=False)
        result = {"device": pool.devices[0].model_dump(),
                  "command": f"python3 bench/search_bench.py $OUT --seconds {args.seconds:g} "
                             + " ".join(args.examples),
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "seconds_per_example": args.seconds, "workers": len(pool.workers), "examples": []}
        for path in paths:
            result["examples"].append(run_example(path, evaluator, short, args.seconds, len(pool.workers)))
            (args.out / "search.json").write_text(json.dumps(result, indent=2))   # partial results survive a time-out
    table = markdown(result) + "\n" + union([result])
    (args.out / "search.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
