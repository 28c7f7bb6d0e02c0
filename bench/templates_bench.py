"""GPU evidence for the templates: for every example, every template that recognizes it, tuned by measurement
(templates/tune.py: exhaustive when the feasible space fits the budget, else a random sample then greedy moves);
each instance verified against the naive kernel and timed with a short timing policy; the best instance per
example re-timed with the default policy, interleaved with the naive kernel, for its speedup and time/SOL.

    python3 bench/templates_bench.py OUT_DIR [EXAMPLE ...]   (on the GPU machine, after `source scripts/gpu-env.sh`;
                                                             the named examples only, in that order, when given)

Writes OUT_DIR/templates.json (after each example) and OUT_DIR/templates.md; prints the table last.
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
from optiml_engine.model import Candidate, TimingPolicy, VerifyPolicy
from optiml_engine.policies.templates import matches
from optiml_engine.policies.templates.tune import best, tune
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
BUDGET = 12                   # instances measured per template and example
SEED = 0
TUNING_TIMING = TimingPolicy(min_runs=10, max_runs=30, max_seconds=0.5)


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "bench/results")
    out.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    began = time.perf_counter()
    with WorkerPool() as pool:
        device = pool.devices[0]
        verify = VerifyPolicy(seed=int(time.time()), timeout_s=60)
        tuning = Evaluator(pool, verify=verify, timing=TUNING_TIMING, use_cache=False)
        final = Evaluator(pool, verify=verify, use_cache=False)
        result = {"device": device.model_dump(), "command": "python3 bench/templates_bench.py $OUT",
                  "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "budget": BUDGET, "seed": SEED, "tuning_timing": TUNING_TIMING.model_dump(), "examples": rows}
        chosen = sys.argv[2:]
        paths = [ROOT / "examples" / f"{name}.cu" for name in chosen] or sorted((ROOT / "examples").glob("*.cu"))
        for path in paths:
            naive = original_candidate(CudaDocument(path.read_text(), f"examples/{path.name}"), path.stem)
            baseline = final.evaluate(naive)
            row = {"kernel": path.stem, "naive_ms": baseline.timing.median_ms if baseline.timing else None,
                   "naive_time_over_sol": baseline.sol.headroom if baseline.sol else None, "templates": [],
                   "best": None}
            winners: list[tuple[dict, Candidate]] = []
            for template, match in matches(naive):
                verdicts: list[dict] = []

                def evaluate(candidate: Candidate) -> float | None:
                    measurement = tuning.evaluate(candidate, reference=naive)
                    verdicts.append({"description": candidate.description, "verdict": measurement.verdict,
                                     "reason": measurement.reason[:200]})
                    return measurement.timing.median_ms if measurement.ok else None

                trials = tune(template, match, evaluate, BUDGET, SEED, device=device,
                              compile=lambda candidate: tuning.compile(candidate)[0])
                top = best(trials)
                entry = {"template": template.name, "match": match.what,
                         "space": len(template.space(match)), "feasible": len(template.feasible_space(match, device)),
                         "tried": len(trials), "compiled_feasible": sum(t.pruned is None for t in trials),
                         "verified": sum(t.time_ms is not None for t in trials),
                         "trials": [{"params": t.params, "time_ms": t.time_ms, "pruned": t.pruned} for t in trials],
                         "rejected": [v for v in verdicts if v["verdict"] != "ok"],
                         "best": {"params": top.params, "tuning_ms": top.time_ms} if top else None}
                row["templates"].append(entry)
                print(f"{path.stem} / {template.name}: {entry['verified']} of {entry['tried']} verified, best "
                      f"{top.params if top else None} {top.time_ms if top else ''}", flush=True)
                if top is not None:     # rendering is deterministic: the instance measured
                    winners.append((entry, template.render(match, top.params)))
            row["best"] = retimed_best(final, naive, winners)
            rows.append(row)
            result["seconds"] = time.perf_counter() - began
            (out / "templates.json").write_text(json.dumps(result, indent=2))   # partial results survive a time-out
    (out / "templates.md").write_text(markdown(result))
    print(markdown(result))


def retimed_best(final: Evaluator, naive: Candidate, winners: list[tuple[dict, Candidate]]) -> dict | None:
    """The fastest of the templates' winners, re-timed with the default policy interleaved with the naive kernel."""
    if not winners:
        return None
    entry, candidate = min(winners, key=lambda winner: winner[0]["best"]["tuning_ms"])
    measurement = final.evaluate(candidate, reference=naive, incumbent=naive)
    return {"template": entry["template"], "params": entry["best"]["params"], "verdict": measurement.verdict,
            "reason": measurement.reason, "median_ms": measurement.timing.median_ms if measurement.timing else None,
            "speedup": measurement.speedup.median if measurement.speedup else None,
            "time_over_sol": measurement.sol.headroom if measurement.sol else None}


def markdown(result: dict) -> str:
    lines = [f"# Templates on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}`. Each template that recognizes an example is tuned with a budget of "
             f"{result['budget']} measured instances (seed {result['seed']}; exhaustive when its feasible space is "
             f"that small, else random sampling then greedy moves), each verified against the naive kernel (3 "
             f"fresh-seed trials at every contract size) and timed with min_runs=10, max_runs=30, max 0.5 s; the "
             f"winner is re-timed with the default policy interleaved with the naive kernel. Total "
             f"{result.get('seconds', 0):.0f} s.", "",
             "| kernel | naive ms | template | best params | instances tried / feasible / verified | speedup | "
             "best time/SOL |", "|---|---|---|---|---|---|---|"]
    for row in result["examples"]:
        naive = f"{row['naive_ms']:.4f}" if row["naive_ms"] else "-"
        best_row = row["best"]
        counts = ", ".join(f"{t['template']} {t['tried']}/{t['compiled_feasible']}/{t['verified']}"
                           for t in row["templates"]) or "no template"
        if best_row and best_row["verdict"] == "ok":
            params = " ".join(f"{k}={v}" for k, v in best_row["params"].items())
            lines.append(f"| {row['kernel']} | {naive} | {best_row['template']} | {params} | {counts} | "
                         f"{best_row['speedup']:.2f}x | {best_row['time_over_sol']:.2f}x |")
        else:
            lines.append(f"| {row['kernel']} | {naive} | - | - | {counts} | - | - |")
    rejected = [(row["kernel"], t["template"], r) for row in result["examples"] for t in row["templates"]
                for r in t["rejected"]]
    if rejected:
        lines += ["", "Rejected instances (each a template bug to fix):", ""]
        lines += [f"- {kernel} / {template}: {r['description']}: {r['verdict']}: {r['reason'][:160]}"
                  for kernel, template, r in rejected]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
