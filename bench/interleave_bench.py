"""Does timing a fast kernel interleaved with a much slower one change the fast kernel's time? (A check of the
timing protocol: the final measurement of a search's winner is interleaved with the naive kernel, which can be
hundreds of times slower.)

    python3 bench/interleave_bench.py OUT_DIR [EXAMPLE ...]   (on the GPU machine, after `source scripts/gpu-env.sh`)

For each example: the fastest of its templates' default instances (each timed alone once), then timed alone,
interleaved with itself, and interleaved with the naive kernel; each three times, in turns. Writes OUT_DIR/interleave.json and
OUT_DIR/interleave.md; prints the table last.
"""

from __future__ import annotations

import datetime
import json
import statistics
import sys
import time
from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.model import VerifyPolicy
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.templates import TemplatePolicy
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = 3


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    names = sys.argv[2:] or ["dot_atomic", "histogram64", "sgemm_nt"]
    rows = []
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, verify=VerifyPolicy(seed=int(time.time())), use_cache=False)
        result = {"device": pool.devices[0].model_dump(), "command": "python3 bench/interleave_bench.py $OUT "
                  + " ".join(sys.argv[2:]), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
                      timespec="seconds"), "examples": rows}
        for name in names:
            naive = original_candidate(CudaDocument((ROOT / "examples" / f"{name}.cu").read_text(),
                                                    f"examples/{name}.cu"), name)
            instances = [edit.candidate for edit in TemplatePolicy().propose(naive, PolicyContext(device=evaluator.device))]
            fast = min(instances, key=lambda candidate: evaluator.evaluate(candidate, naive).timing.median_ms)
            times: dict[str, list[float]] = {"alone": [], "with itself": [], "with naive": []}
            for _ in range(ROUNDS):
                for label, incumbent in (("alone", None), ("with itself", fast), ("with naive", naive)):
                    measurement = evaluator.evaluate(fast, naive, incumbent=incumbent)
                    times[label].append(measurement.timing.median_ms)
            rows.append({"kernel": name, "candidate": fast.description, "times_ms": times})
            print(name, {label: [round(t, 4) for t in ts] for label, ts in times.items()}, flush=True)
    lines = [f"# Interleaving check on {result['device']['name']} ({result['date']})", "",
             f"Command: `{result['command']}`. Median time of the same kernel (ms), each of {ROUNDS} rounds.", "",
             "| kernel | kernel timed | alone | interleaved with itself | interleaved with the naive kernel |",
             "|---|---|---|---|---|"]
    for row in rows:
        cells = [" / ".join(f"{t:.4f}" for t in row["times_ms"][label]) for label in row["times_ms"]]
        lines.append(f"| {row['kernel']} | {row['candidate']} | " + " | ".join(cells) + " |")
    for row in rows:
        alone = statistics.median(row["times_ms"]["alone"])
        with_naive = statistics.median(row["times_ms"]["with naive"])
        lines.append(f"\n{row['kernel']}: interleaved with the naive kernel / alone = {with_naive / alone:.3f}")
    (out / "interleave.json").write_text(json.dumps(result, indent=2))
    (out / "interleave.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
