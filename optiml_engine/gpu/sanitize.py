"""compute-sanitizer memcheck and racecheck for finalists: the candidate run once at its check sizes under the tool.

The job travels to a fresh Python process by a pickle file; that process runs the worker's verification (one
trial, no timing) while compute-sanitizer watches every access.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Literal

from optiml_engine.gpu.tools import find_cuda_tool
from optiml_engine.gpu.worker import EvaluateJob
from optiml_engine.model import Frozen, VerifyPolicy

Tool = Literal["memcheck", "racecheck"]
# memcheck ends with "ERROR SUMMARY: N errors"; racecheck with "RACECHECK SUMMARY: N hazards displayed (E errors, ...".
SUMMARY = re.compile(r"ERROR SUMMARY:\s*(\d+) error|RACECHECK SUMMARY:.*?\((\d+) error")


class SanitizerReport(Frozen):
    tool: Tool
    ok: bool
    errors: int
    first_error: str = ""
    log_tail: str = ""


def small_job(job: EvaluateJob) -> EvaluateJob:
    """The check sizes only (the benchmark size when there are none), one trial, no timing."""
    checks = job.bindings[1:] or job.bindings[:1]
    return job.model_copy(update={"bindings": checks, "time_it": False,
                                  "verify": VerifyPolicy(trials=1, seed=job.verify.seed)})


def sanitize(job: EvaluateJob, tool: Tool, device_index: int, timeout_s: float = 600) -> SanitizerReport:
    binary = find_cuda_tool("compute-sanitizer")
    if binary is None:
        return SanitizerReport(tool=tool, ok=False, errors=-1, first_error="compute-sanitizer not found")
    with tempfile.TemporaryDirectory(prefix="optiml-sanitize-") as folder:
        job_file = Path(folder) / "job.pkl"
        job_file.write_bytes(pickle.dumps(small_job(job)))
        command = [binary, "--tool", tool, "--error-exitcode", "99", sys.executable, "-m",
                   "optiml_engine.gpu.sanitize", str(job_file), str(device_index)]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=dict(os.environ))
        except subprocess.TimeoutExpired:
            return SanitizerReport(tool=tool, ok=False, errors=-1, first_error=f"timed out after {timeout_s:.0f} s")
    return read_report(tool, run.stdout + run.stderr, run.returncode)


def read_report(tool: Tool, log: str, returncode: int) -> SanitizerReport:
    """compute-sanitizer's text output -> error count and the first finding."""
    summary = SUMMARY.search(log)
    errors = int(summary.group(1) or summary.group(2)) if summary else -1
    findings = [line.removeprefix("========= ").strip() for line in log.splitlines()
                if line.startswith("=========") and "SUMMARY" not in line
                and "COMPUTE-SANITIZER" not in line and line.strip("= ").strip()]
    ok = errors == 0 and returncode == 0
    first = findings[0] if findings else ("" if ok else f"exit code {returncode}")
    return SanitizerReport(tool=tool, ok=ok, errors=errors, first_error=first, log_tail=log[-4000:])


def main() -> None:
    import cupy

    from optiml_engine.gpu.worker import Device, Rejected, verify_candidate

    # One cudaMalloc per array: memcheck knows allocation bounds, not the sub-allocations of CuPy's pool, so an
    # access just past an array's end is only caught without the pool.
    cupy.cuda.set_allocator(None)
    job = pickle.loads(Path(sys.argv[1]).read_bytes())
    try:
        verify_candidate(Device(int(sys.argv[2])), job)
    except Rejected as rejected:
        sys.exit(f"rejected ({rejected.verdict}): {rejected.reason}")


if __name__ == "__main__":
    main()
