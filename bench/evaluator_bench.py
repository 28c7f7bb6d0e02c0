"""GPU evidence for the evaluator: every example verified and timed against its SOL floor (twice, to show the
runs agree within their spread), every planted defect rejected with its reason, throughput in candidates per
minute, and worker replacement time after a crash.

    python3 bench/evaluator_bench.py OUT_DIR      (on the GPU machine, after `source scripts/gpu-env.sh`)

Writes OUT_DIR/evaluator.json and OUT_DIR/evaluator.md; prints the tables last.
"""

from __future__ import annotations

import datetime
import json
import re
import sys
import time
from pathlib import Path

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.model import VerifyPolicy
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
EXPECT = re.compile(r"//\s*expect:\s*([a-z_ ]+?)(?:\s*\|\s*([a-z]+))?\s*$", re.M)


def load(path: Path, kernel: str | None = None):
    document = CudaDocument(path.read_text(), str(path.relative_to(ROOT)))
    name = kernel or document.model.kernels[-1].name
    candidate = original_candidate(document, name)
    return candidate, reference_candidate(document, candidate)


def examples(evaluator: Evaluator) -> list[dict]:
    rows = []
    for path in sorted((ROOT / "examples").glob("*.cu")):
        candidate, reference = load(path, path.stem)
        print(f"example {path.stem}", flush=True)
        runs = [evaluator.evaluate(candidate, reference) for _ in range(2)]
        first, second = runs
        row = {"kernel": path.stem, "verdict": first.verdict, "reason": first.reason,
               "second_verdict": second.verdict, "second_reason": second.reason,
               "checks": [c.model_dump() for c in first.checks],
               "compile_log": first.compile.log[-2000:] if first.compile else ""}
        print(f"  {first.verdict} {first.reason[:200]}", flush=True)
        if first.ok and second.ok:
            t1, t2 = first.timing, second.timing
            row.update(
                median_ms=t1.median_ms, ci_ms=[t1.ci_low_ms, t1.ci_high_ms], iqr_ms=t1.iqr_ms, runs=t1.runs,
                second_median_ms=t2.median_ms, second_ci_ms=[t2.ci_low_ms, t2.ci_high_ms],
                # "within the reported spread": the medians differ by no more than the larger reported spread
                runs_agree=abs(t1.median_ms - t2.median_ms) <= max(t1.spread_ms, t2.spread_ms),
                spread_ms=t1.spread_ms,
                floor_ms=first.sol.floor_ms, bound=first.sol.bound, time_over_sol=first.sol.headroom,
                percent_of_sol=first.sol.percent_of_sol, gbps=first.sol.achieved_gbps,
                gflops=first.sol.achieved_gflops, bytes=first.sol.bytes, flops=first.sol.flops,
                registers=first.compile.resources.registers if first.compile and first.compile.resources else None,
            )
        rows.append(row)
    return rows


def defects(evaluator: Evaluator) -> list[dict]:
    rows = []
    for path in sorted((ROOT / "tests" / "gpu" / "defects").glob("*.cu")):
        expected, tool = EXPECT.search(path.read_text()).groups()
        candidate, reference = load(path)
        print(f"defect {path.name}", flush=True)
        began = time.perf_counter()
        measurement = evaluator.evaluate(candidate, reference)
        row = {"file": path.name, "expected": expected.split(), "verdict": measurement.verdict,
               "reason": measurement.reason, "seconds": time.perf_counter() - began}
        if tool:
            report = next(r for r in evaluator.sanitize(candidate, reference, tools=(tool,)))
            row["sanitizer"] = {"tool": tool, "errors": report.errors, "first_error": report.first_error,
                                "log_tail": report.log_tail}
        rejected = measurement.verdict != "ok" or (tool and row["sanitizer"]["errors"] != 0)
        row["rejected"] = bool(rejected)
        row["reason_as_expected"] = measurement.verdict in row["expected"] and (not tool or row["sanitizer"]["errors"] > 0)
        row["worker_replacement_s"] = evaluator.pool.workers[0].last_replacement_s
        rows.append(row)
    return rows


def throughput(pool: WorkerPool) -> dict:
    """Fresh candidates (a distinct comment per copy defeats every cache) through compile + verify + time."""
    evaluator = Evaluator(pool, use_cache=False)
    paths = sorted((ROOT / "examples").glob("*.cu"))
    began = time.perf_counter()
    count = 0
    failures: list[str] = []
    while time.perf_counter() - began < 60:
        path = paths[count % len(paths)]
        candidate, reference = load(path, path.stem)
        unit = candidate.unit.model_copy(update={"text": candidate.unit.text + f"\n// bench variant {count}\n"})
        variant = candidate.model_copy(update={"unit": unit})
        measurement = evaluator.evaluate(variant, reference)
        if not measurement.ok:
            failures.append(f"{path.name}: {measurement.reason}")
        count += 1
    minutes = (time.perf_counter() - began) / 60
    return {"candidates": count, "minutes": minutes, "per_minute": count / minutes, "failures": failures}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out.mkdir(parents=True, exist_ok=True)
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=int(time.time()), timeout_s=20), use_cache=False)
        result = {
            "device": pool.devices[0].model_dump(),
            "ceilings": evaluator.ceilings.model_dump(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "command": "python3 bench/evaluator_bench.py $OUT",
        }
        for section, measure in (("examples", lambda: examples(evaluator)), ("defects", lambda: defects(evaluator)),
                                 ("throughput", lambda: throughput(pool))):
            result[section] = measure()
            print(f"section {section} done", flush=True)
            (out / "evaluator.json").write_text(json.dumps(result, indent=2, default=str))
    (out / "evaluator.md").write_text(markdown(result))
    print(markdown(result))


def markdown(result: dict) -> str:
    device, ceilings = result["device"], result["ceilings"]
    lines = [f"# Evaluator on {device['name']} ({result['date']})", "",
             f"Command: `{result['command']}`; driver {device['driver']}, runtime {device['runtime']}; "
             f"ceilings: copy {ceilings['copy_gbps']:.0f} GB/s, fp32 GEMM {ceilings['fp32_tflops']:.1f} TFLOP/s.",
             "", "| kernel | verdict | naive ms (95% CI) | spread ms | 2nd run ms | agree | SOL floor ms | bound | time/SOL | GB/s |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in result["examples"]:
        if "median_ms" in r:
            lines.append(f"| {r['kernel']} | {r['verdict']} | {r['median_ms']:.4f} ({r['ci_ms'][0]:.4f}-"
                         f"{r['ci_ms'][1]:.4f}) | {r['spread_ms']:.4f} | {r['second_median_ms']:.4f} | {'yes' if r['runs_agree'] else 'NO'} | "
                         f"{r['floor_ms']:.4f} | {r['bound']} | {r['time_over_sol']:.1f}x | {r['gbps']:.0f} |")
        else:
            lines.append(f"| {r['kernel']} | {r['verdict']} {r['reason'][:60]}; 2nd run {r['second_verdict']} "
                         f"{r['second_reason'][:60]} | | | | | | | | |")
    lines += ["", "| planted defect | expected | verdict | sanitizer | rejected | reason |", "|---|---|---|---|---|---|"]
    for r in result["defects"]:
        sanitizer = f"{r['sanitizer']['tool']}: {r['sanitizer']['errors']} errors" if "sanitizer" in r else ""
        lines.append(f"| {r['file']} | {' or '.join(r['expected'])} | {r['verdict']} | {sanitizer} | "
                     f"{'yes' if r['rejected'] else 'NO'} | {r['reason'][:90]} |")
    t = result["throughput"]
    replacements = [r["worker_replacement_s"] for r in result["defects"] if r["verdict"] in ("crash", "timeout")]
    lines += ["", f"Throughput: {t['candidates']} candidates in {t['minutes']:.2f} min = {t['per_minute']:.0f} "
                  f"per minute (compile + verify + time, no profiler).",
              f"Worker replacement after crash/timeout: {', '.join(f'{s:.2f} s' for s in replacements)}."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
