"""GPU evidence for the built-in rules: for every example, every one-rule rewrite verified against the naive
kernel and timed interleaved with it; the best verified one per example, with its speedup and time/SOL.

    python3 bench/rules_bench.py OUT_DIR      (on the GPU machine, after `source scripts/gpu-env.sh`)

Writes OUT_DIR/rules.json and OUT_DIR/rules.md; prints the table last.
"""

from __future__ import annotations

import datetime
import json
import sys
import time
from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.model import VerifyPolicy
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.rules import RulePolicy
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out.mkdir(parents=True, exist_ok=True)
    policy = RulePolicy()
    rows: list[dict] = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=int(time.time()), timeout_s=60), use_cache=False)
        result = {"device": pool.devices[0].model_dump(), "command": "python3 bench/rules_bench.py $OUT",
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "examples": rows}
        for path in sorted((ROOT / "examples").glob("*.cu")):
            naive = original_candidate(CudaDocument(path.read_text(), f"examples/{path.name}"), path.stem)
            baseline = evaluator.evaluate(naive)
            edits = policy.propose(naive, PolicyContext(device=pool.devices[0]))
            print(f"{path.stem}: {len(edits)} rewrites", flush=True)
            results = []
            for edit in edits:
                measurement = evaluator.evaluate(edit.candidate, reference=naive, incumbent=naive)
                results.append({"rule": edit.rule, "description": edit.description, "verdict": measurement.verdict,
                                "reason": measurement.reason,
                                "median_ms": measurement.timing.median_ms if measurement.timing else None,
                                "speedup": measurement.speedup.median if measurement.speedup else None,
                                "speedup_ci": [measurement.speedup.ci_low, measurement.speedup.ci_high]
                                if measurement.speedup else None,
                                "time_over_sol": measurement.sol.headroom if measurement.sol else None})
                print(f"  {edit.rule}: {measurement.verdict} {results[-1]['speedup']}", flush=True)
            verified = [r for r in results if r["verdict"] == "ok"]
            best = max(verified, key=lambda r: r["speedup"], default=None)
            rows.append({"kernel": path.stem, "naive_ms": baseline.timing.median_ms if baseline.timing else None,
                         "naive_time_over_sol": baseline.sol.headroom if baseline.sol else None,
                         "rewrites": results, "best": best})
            (out / "rules.json").write_text(json.dumps(result, indent=2))   # partial results survive a time-out
    (out / "rules.md").write_text(markdown(result))
    print(markdown(result))


def markdown(result: dict) -> str:
    lines = [f"# Built-in rules on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}`. Each rewrite verified against the naive kernel (3 fresh-seed trials at "
             f"every contract size) and timed interleaved with it; speedup = median of per-pair ratios.", "",
             "| kernel | naive ms | naive time/SOL | rewrites (verified) | best rule | speedup | best time/SOL |",
             "|---|---|---|---|---|---|---|"]
    for row in result["examples"]:
        best = row["best"]
        verified = sum(r["verdict"] == "ok" for r in row["rewrites"])
        naive = f"{row['naive_ms']:.4f}" if row["naive_ms"] else "-"
        naive_sol = f"{row['naive_time_over_sol']:.1f}x" if row["naive_time_over_sol"] else "-"
        if best:
            lines.append(f"| {row['kernel']} | {naive} | {naive_sol} | {len(row['rewrites'])} ({verified}) | "
                         f"{best['rule']} | {best['speedup']:.2f}x | {best['time_over_sol']:.2f}x |")
        else:
            lines.append(f"| {row['kernel']} | {naive} | {naive_sol} | {len(row['rewrites'])} ({verified}) | - | - | - |")
    rejected = [(row["kernel"], r) for row in result["examples"] for r in row["rewrites"] if r["verdict"] != "ok"]
    if rejected:
        lines += ["", "Rejected rewrites (each a rule bug to fix):", ""]
        lines += [f"- {kernel} / {r['rule']}: {r['verdict']}: {r['reason'][:160]}" for kernel, r in rejected]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
