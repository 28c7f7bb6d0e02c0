"""Candidates per minute on one GPU against several: the same search (same kernel, seed, policies, candidate budget)
run once on every visible GPU and once on the first alone, in one process on one host.

    python3 bench/scaling_bench.py OUT_DIR [--candidates N] [EXAMPLE ...]   (on a host with 2 or more GPUs, after
                                                                            `source scripts/gpu-env.sh`)

Each search evaluates exactly N candidates: the speed-of-light stop is off (it would end a search at a different
candidate on each run) and the time budget is far away. No result cache: every candidate is compiled, verified,
timed and, where it improved on its parent, profiled with Nsight Compute in both runs. Each search runs in a process
of its own: a second search in the same process would find the first one's compiles (gpu/compile.py keeps them) and
its lifts already made, which on a CPU cut a 40-candidate search's proposing from 5 s to 0.3 s.

Writes OUT_DIR/scaling.json after each search and OUT_DIR/scaling.md at the end; prints the table last.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import time
from pathlib import Path

from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool, visible_devices
from optiml_engine.model import VerifyPolicy
from optiml_engine.optimize import default_policies, optimize
from optiml_engine.search.mcts import SearchBudget, SearchConfig
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_EXAMPLES = ["layernorm_rows", "sgemm_nt"]
NO_FLOOR_STOP = 0.0      # no kernel is within 0x of its floor: the candidate budget ends every search


def search(example: str, devices: list[int], candidates: int) -> dict:
    path = ROOT / "examples" / f"{example}.cu"
    document = CudaDocument(path.read_text(), f"examples/{path.name}")
    with WorkerPool(devices) as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=int(time.time()), timeout_s=60), use_cache=False)
        began = time.perf_counter()
        result = optimize(document, example, evaluator, default_policies(False),
                          SearchBudget(candidates=candidates, seconds=3600.0, sol_stop=NO_FLOOR_STOP),
                          SearchConfig(parallel=len(devices), seed=0))
        job_seconds = time.perf_counter() - began
        device = pool.devices[0].name
    seconds = result.seconds
    return {"example": example, "gpus": len(devices), "device": device, "evaluated": result.evaluated,
            "rejected": result.rejected, "search_seconds": seconds.total,
            "candidates_per_minute": 60 * result.evaluated / seconds.total if seconds.total else None,
            "seconds": seconds.model_dump(), "job_seconds": job_seconds, "stop_reason": result.stop_reason,
            "speedup": result.final.speedup.median if result.accepted and result.final.speedup else None}


def markdown(result: dict) -> str:
    lines = [f"# Candidates per minute, {result['gpus']} GPUs against 1 ({result['device']}, {result['date']})", "",
             f"Command: `{result['command']}`. No LLM; the same search (seed 0, rules, templates and schedules, "
             f"{result['candidates']} candidates, no speed-of-light stop, no cache) on all GPUs, then on GPU 0 alone. "
             "Each search in a fresh process. Seconds are the search loop's (SearchSeconds: cand/min is over them): "
             "beside, the Nsight Compute runs beside the loop (summed over profiler threads); after, the wait for "
             "the profiles still running once the loop ended, past the final check; job, optimize's whole call "
             "(the original's measurement, the loop, the final check and compute-sanitizer).", "",
             "| kernel | GPUs | candidates (rejected) | search s | cand/min | proposing s | measuring s | "
             "profiling beside s | profiling after s | job s | scaling |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in result["rows"]:
        one = next((r for r in result["rows"] if r["example"] == row["example"] and r["gpus"] == 1), None)
        scaling = (f"{row['candidates_per_minute'] / one['candidates_per_minute']:.2f}x"
                   if one and row["gpus"] > 1 else "-")
        spent = row["seconds"]
        lines.append(f"| {row['example']} | {row['gpus']} | {row['evaluated']} ({row['rejected']}) | "
                     f"{row['search_seconds']:.1f} | {row['candidates_per_minute']:.0f} | {spent['proposing']:.1f} | "
                     f"{spent['measuring']:.1f} | {spent['profiling_beside']:.1f} | {spent['profiling']:.1f} | "
                     f"{row['job_seconds']:.1f} | {scaling} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    if sys.argv[1:2] == ["--one"]:     # one search, in this fresh process: its row as JSON on the last line
        example, devices, candidates = sys.argv[2], sys.argv[3], int(sys.argv[4])
        print(json.dumps(search(example, [int(d) for d in devices.split(",")], candidates)))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("examples", nargs="*", default=DEFAULT_EXAMPLES)
    parser.add_argument("--candidates", type=int, default=60)
    args = parser.parse_intermixed_args()
    devices = visible_devices()
    if len(devices) < 2:
        raise SystemExit(f"error: scaling needs 2 or more GPUs; this host shows {len(devices)}")
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"command": f"python3 bench/scaling_bench.py $OUT --candidates {args.candidates} "
                         + " ".join(args.examples),
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "gpus": len(devices), "candidates": args.candidates, "device": None, "rows": []}
    for example in args.examples:
        for chosen in (devices, devices[:1]):
            run = subprocess.run([sys.executable, __file__, "--one", example, ",".join(map(str, chosen)),
                                  str(args.candidates)], capture_output=True, text=True)
            if run.returncode != 0:
                raise SystemExit(f"error: the search of {example} on GPUs {chosen} failed:\n{run.stderr[-3000:]}")
            row = json.loads(run.stdout.splitlines()[-1])
            result["device"] = row["device"]
            result["rows"].append(row)
            print(f"{example} on {len(chosen)} GPU(s): {row['evaluated']} candidates in {row['search_seconds']:.1f} s "
                  f"({row['candidates_per_minute']:.0f}/min)", flush=True)
            (args.out / "scaling.json").write_text(json.dumps(result, indent=2))
    table = markdown(result)
    (args.out / "scaling.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
