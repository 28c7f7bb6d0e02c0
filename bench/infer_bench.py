"""Contract inference, measured (issue 18 item 1): strip the contract from every contracted kernel of `examples/`
and the held-out set, infer one (source/infer.py), and check that the kernel verifies and times as inferred.

    python bench/infer_bench.py infer OUT        # any machine with g++ (the inference runs kernels on the CPU)
    python bench/infer_bench.py check OUT        # a GPU machine: verify + time each, compute-sanitizer memcheck

`infer` writes OUT/<set>/<file>__<kernel>.cu (the file with only that kernel's contract replaced by the inferred
one; the other kernels keep theirs, so a file's helpers and references still compile) and OUT/inferred.json.
`check` writes OUT/checked.json and prints a table. A kernel counts as verified when the verifier accepts it
against itself (every output written, deterministic, no NaN where none belongs), it was timed, and memcheck is
clean; the `adjust` column counts the lines the inference marked for the user.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETS = {"examples": ROOT / "examples", "heldout": ROOT / "tests" / "heldout"}


def contracted(path: Path) -> list[str]:
    from optiml_engine.source.parse import CudaDocument

    document = CudaDocument(path.read_text(), str(path))
    return [k.name for k in document.model.kernels if k.comment is not None and "@optiml" in k.comment.text]


def infer(out: Path) -> None:
    from optiml_engine.source.infer import infer_contract_text
    from optiml_engine.source.parse import CudaDocument

    rows = []
    for set_name, folder in SETS.items():
        (out / set_name).mkdir(parents=True, exist_ok=True)
        for path in sorted(folder.glob("*.cu")):
            text = path.read_text()
            for kernel in contracted(path):
                document = CudaDocument(text, str(path))
                comment = document.model.kernel(kernel).comment.span
                source = text.encode()
                stripped = (source[:comment.start_byte] + source[comment.end_byte:]).decode()
                began = time.perf_counter()
                contract = infer_contract_text(stripped, str(path), kernel,
                                               CudaDocument(stripped, str(path)).model.launch_sites)
                seconds = time.perf_counter() - began
                inferred = (source[:comment.start_byte] + contract.encode() + source[comment.end_byte:]).decode()
                target = out / set_name / f"{path.stem}__{kernel}.cu"
                target.write_text(inferred)
                rows.append({"set": set_name, "file": str(path.relative_to(ROOT)), "kernel": kernel,
                             "inferred": str(target.relative_to(out)), "seconds": round(seconds, 2),
                             "adjust": contract.count("# adjust"), "contract": contract})
                print(f"{set_name:9} {path.name:28} {kernel:26} {seconds:5.1f}s adjust={rows[-1]['adjust']}",
                      flush=True)
    (out / "inferred.json").write_text(json.dumps(rows, indent=1))


def check(out: Path) -> None:
    from optiml_engine.candidate import original_candidate
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.gpu.pool import WorkerPool
    from optiml_engine.source.parse import CudaDocument

    rows = json.loads((out / "inferred.json").read_text())
    with WorkerPool() as pool:
        evaluator = Evaluator(pool, use_cache=False)
        for row in rows:
            path = out / row["inferred"]
            document = CudaDocument(path.read_text(), row["file"])
            try:
                candidate = original_candidate(document, row["kernel"])
                measurement = evaluator.evaluate(candidate)
                memcheck = evaluator.sanitize(candidate, tools=("memcheck",))[0] if measurement.ok else None
                row.update(verdict=measurement.verdict, reason=measurement.reason,
                           median_ms=measurement.timing.median_ms if measurement.timing else None,
                           memcheck=None if memcheck is None else ("clean" if memcheck.ok else memcheck.first_error))
            except Exception as error:  # noqa: BLE001 - a contract that does not even load counts as not verified
                row.update(verdict="error", reason=f"{type(error).__name__}: {error}", median_ms=None, memcheck=None)
            row["verified"] = row["verdict"] == "ok" and row["median_ms"] is not None and row["memcheck"] == "clean"
            print(f"{row['set']:9} {row['kernel']:26} {row['verdict']:8} memcheck={row['memcheck']} "
                  f"{(row['reason'] or '')[:90]}", flush=True)
        device = evaluator.device.name
    summary = {}
    for set_name in SETS:
        chosen = [r for r in rows if r["set"] == set_name]
        summary[set_name] = {"kernels": len(chosen), "verified": sum(r["verified"] for r in chosen),
                             "without_adjust": sum(r["verified"] and r["adjust"] == 0 for r in chosen)}
    everything = {"kernels": len(rows), "verified": sum(r["verified"] for r in rows)}
    (out / "checked.json").write_text(json.dumps({
        "device": device, "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "command": "python bench/infer_bench.py check " + str(out), "summary": summary, "all": everything,
        "kernels": rows}, indent=1))
    print(f"\n{'set':10} {'kernels':>8} {'verified':>9} {'of them unmarked':>17}")
    for set_name, counts in summary.items():
        print(f"{set_name:10} {counts['kernels']:8} {counts['verified']:9} {counts['without_adjust']:17}")
    print(f"{'all':10} {everything['kernels']:8} {everything['verified']:9}   "
          f"({100 * everything['verified'] / max(1, everything['kernels']):.0f}%) on {device}")


if __name__ == "__main__":
    action, folder = sys.argv[1], Path(sys.argv[2])
    {"infer": infer, "check": check}[action](folder)
