"""`optiml optimize-all`: every contracted kernel of a tree, one search each, spread over workers on Ray.

The driver finds the jobs (a kernel with a contract, in a file of the tree), skips those whose result file already
holds a search of the same source text (a finished kernel is not searched again: an interrupted batch resumes where
it stopped), and hands the rest to Ray actors, one per GPU (`num_gpus=1`, so Ray places each on its own device, on
this host or, with `--cluster ADDRESS`, on any host of an existing cluster). Each actor owns one evaluator over its
GPU and runs whole searches, one at a time; the driver writes each result the moment it arrives (a temporary file
renamed into place), so a worker lost mid-run loses only its search in progress, which goes back to the queue for
another worker. The summary (JSON and one HTML page) is rewritten after every result.

Kernel Tuner uses Ray the same way for its parallel runner; Ray's scheduler, placement and failure detection are
not rewritten here.
"""

from __future__ import annotations

import datetime
import html
import importlib
import json
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

from optiml_engine.model import Frozen, Location, OptimlError
from optiml_engine.optimize import OptimizationResult, source_hash
from optiml_engine.source.parse import CudaDocument

# The testing hook the language server also reads (server/engine.py): `module:function` returning
# (evaluator, policies), so that CI runs real batches on CPU-only workers without a GPU. Not a user setting.
TEST_ENGINE_VARIABLE = "OPTIML_TEST_ENGINE"
RESULT_SUFFIX = ".optiml.json"


class BatchJob(Frozen):
    file: str                      # as given on the command line, relative where it was
    kernel: str
    text: str                      # the file's text: the worker may be on a host without the tree
    source_sha256: str


class BatchRow(Frozen):
    """One kernel's line of the summary."""

    file: str
    kernel: str
    result_file: str
    accepted: bool
    verdict: str                   # the final check's (the original's when nothing was offered)
    speedup: float | None
    original_over_sol: float | None
    offered_over_sol: float | None
    evaluated: int
    rejected: int
    stop_reason: str
    tried: list[str]               # the rules of the offered kernel's trajectory, then those of rejected candidates
    notes: list[str]
    worker: str
    resumed: bool = False          # found finished on disk, not searched in this run


class BatchBudget(Frozen):
    candidates: int = 60
    seconds: float = 600.0
    llm: bool = False
    seed: int = 0


def find_jobs(files: list[Path]) -> tuple[list[BatchJob], list[str]]:
    """Every kernel with a contract in `files`, and what was skipped and why (a file that does not parse, a
    kernel without a contract)."""
    jobs, skipped = [], []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            skipped.append(f"{path}: not read ({error})")
            continue
        document = CudaDocument(text, str(path))
        for kernel in document.model.kernels:
            try:
                document.contract(kernel.name)
            except OptimlError as error:
                skipped.append(str(error).splitlines()[0])      # located: FILE:LINE:COL: error: ...
                continue
            jobs.append(BatchJob(file=str(path), kernel=kernel.name, text=text, source_sha256=source_hash(text)))
    return jobs, skipped


def result_file(out: Path, job: BatchJob) -> Path:
    """One file per kernel, named after its file and kernel so that the tree's kernels never collide."""
    stem = re.sub(r"[^\w.-]+", "_", job.file.strip("./")).strip("_")
    return out / f"{stem}__{job.kernel}{RESULT_SUFFIX}"


def finished(out: Path, job: BatchJob) -> OptimizationResult | None:
    """The result on disk of a search of this very source text, if there is one."""
    path = result_file(out, job)
    try:
        result = OptimizationResult.model_validate_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return result if result.source_sha256 == job.source_sha256 and result.kernel == job.kernel else None


def summary_row(out: Path, job: BatchJob, result: OptimizationResult, worker: str, resumed: bool) -> BatchRow:
    final = result.final if result.accepted else result.original
    return BatchRow(
        file=job.file, kernel=job.kernel, result_file=result_file(out, job).name, accepted=result.accepted,
        verdict=final.verdict, speedup=result.speedup if result.accepted else None,
        original_over_sol=result.original.sol.headroom if result.original.sol else None,
        offered_over_sol=final.sol.headroom if final.sol else None, evaluated=result.evaluated,
        rejected=result.rejected, stop_reason=result.stop_reason,
        tried=list(dict.fromkeys([step.rule for step in result.trajectory] + [r.rule for r in result.rejections])),
        notes=result.notes, worker=worker, resumed=resumed)


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def write_summary(out: Path, rows: list[BatchRow], pending: list[BatchJob], skipped: list[str]) -> None:
    stamp = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    write_atomically(out / "summary.json", json.dumps({
        "date": stamp, "kernels": [row.model_dump() for row in rows],
        "pending": [f"{job.file}:{job.kernel}" for job in pending], "skipped": skipped}, indent=1))
    write_atomically(out / "summary.html", summary_html(rows, pending, skipped, stamp))


def summary_html(rows: list[BatchRow], pending: list[BatchJob], skipped: list[str], stamp: str) -> str:
    def number(value: float | None, suffix: str = "x") -> str:
        return "-" if value is None else f"{value:.2f}{suffix}"

    def link(name: str) -> str:
        return f'<a href="{html.escape(name)}">result</a>' if name else ""   # a failed search wrote none

    cells = "".join(
        f"<tr><td>{html.escape(r.file)}</td><td>{html.escape(r.kernel)}</td>"
        f"<td>{'yes' if r.accepted else 'no'}</td><td>{html.escape(r.verdict)}</td><td>{number(r.speedup)}</td>"
        f"<td>{number(r.original_over_sol)}</td><td>{number(r.offered_over_sol)}</td>"
        f"<td>{r.evaluated} ({r.rejected} rejected)</td><td>{html.escape(', '.join(r.tried))}</td>"
        f"<td>{html.escape('; '.join([r.stop_reason, *r.notes]))}{'; resumed' if r.resumed else ''}</td>"
        f"<td>{link(r.result_file)}</td></tr>" for r in rows)
    accepted = [r for r in rows if r.accepted]
    waiting = "".join(f"<li>{html.escape(f'{job.file}: {job.kernel}')}</li>" for job in pending)
    passed = "".join(f"<li>{html.escape(line)}</li>" for line in skipped)
    return (
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>OptiML batch</title><style>"
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:4px 8px;text-align:left}</style></head><body>"
        f"<h1>OptiML: {len(rows)} kernels searched</h1><p>{stamp}. Offered (verified, sanitizer-clean, faster than the "
        f"original): {len(accepted)} of {len(rows)}. time/SOL: median time over the speed-of-light floor.</p>"
        "<table><tr><th>file</th><th>kernel</th><th>offered</th><th>final check</th><th>speedup</th>"
        "<th>original x SOL</th><th>offered x SOL</th><th>candidates</th><th>what was tried</th><th>stop, notes</th>"
        f"<th></th></tr>{cells}</table>"
        + (f"<h2>Not searched yet</h2><ul>{waiting}</ul>" if waiting else "")
        + (f"<h2>Skipped</h2><ul>{passed}</ul>" if passed else "") + "</body></html>")


class SearchWorker:
    """A Ray actor: one evaluator (over the GPU Ray gave it, or the testing engine) and whole searches on it."""

    def __init__(self, budget: BatchBudget, engine: str | None):
        from optiml_engine.optimize import default_policies

        self.budget = budget
        if engine:
            module, _, function = engine.partition(":")
            self.evaluator, self.policies = getattr(importlib.import_module(module), function)()
            self.parallel = 1
        else:
            import ray

            from optiml_engine.evaluate import Evaluator
            from optiml_engine.gpu.pool import WorkerPool

            # Ray sets CUDA_VISIBLE_DEVICES to the actor's GPU: device 0 is it.
            pool = WorkerPool([0] if ray.get_gpu_ids() else None)
            self.evaluator, self.policies, self.parallel = Evaluator(pool), default_policies(budget.llm), 1

    def name(self) -> str:
        import ray

        gpus = ray.get_gpu_ids()
        return f"{ray.util.get_node_ip_address()} pid {os.getpid()}" + (f" GPU {gpus[0]}" if gpus else "")

    def search(self, job: BatchJob) -> str:
        from optiml_engine.optimize import optimize
        from optiml_engine.search.mcts import SearchBudget, SearchConfig

        result = optimize(CudaDocument(job.text, job.file), job.kernel, self.evaluator, self.policies,
                          SearchBudget(candidates=self.budget.candidates, seconds=self.budget.seconds),
                          SearchConfig(parallel=self.parallel, seed=self.budget.seed))
        return result.model_dump_json()


Progress = Callable[[BatchRow | None, int, int], None]    # (row just finished or None, done, total)


def run_batch(jobs: list[BatchJob], skipped: list[str], out: Path, budget: BatchBudget, address: str | None = None,
              workers: int | None = None, progress: Progress | None = None,
              stop: threading.Event | None = None) -> list[BatchRow]:
    """Search every job not finished on disk; returns the summary rows (finished before and now). `workers`: how
    many actors (default: one per GPU of the cluster; with the testing engine, one per CPU)."""
    import ray

    out.mkdir(parents=True, exist_ok=True)
    rows: list[BatchRow] = []
    queue: list[BatchJob] = []
    for job in jobs:
        done = finished(out, job)
        if done is not None:
            rows.append(summary_row(out, job, done, "earlier run", resumed=True))
        else:
            queue.append(job)
    total = len(jobs)
    if progress is not None:
        progress(None, len(rows), total)
    engine = os.environ.get(TEST_ENGINE_VARIABLE)
    if not queue:
        write_summary(out, rows, [], skipped)
        return rows
    # The workers see this process's OptiML settings (the LLM endpoint, the testing hook) and import path.
    forwarded = {k: v for k, v in os.environ.items() if k.startswith("OPTIML_") or k == "PYTHONPATH"}
    ray.init(address=address, include_dashboard=False, logging_level="ERROR", log_to_driver=False,
             ignore_reinit_error=True, runtime_env={"env_vars": forwarded})
    try:
        resources = ray.cluster_resources()
        gpus = int(resources.get("GPU", 0))
        if engine is None and gpus == 0:
            raise OptimlError(Location(file=address or "<this host>", line=1),
                              f"the Ray cluster{' at ' + address if address else ''} has no GPU",
                              "a cluster whose nodes were started with GPUs (ray start --num-gpus=N)")
        # A GPU worker holds its GPU for life: more of them than GPUs would wait forever.
        count = min(workers or gpus, gpus) if engine is None else workers or max(int(resources.get("CPU", 1)), 1)
        actor = ray.remote(num_gpus=0 if engine else 1, num_cpus=1 if engine else 0, max_restarts=0)(SearchWorker)
        idle = [actor.remote(budget, engine) for _ in range(min(count, len(queue)))]
        running: dict = {}
        while (queue or running) and not (stop is not None and stop.is_set()):
            while queue and idle:
                worker = idle.pop()
                job = queue.pop(0)
                running[worker.search.remote(job)] = (job, worker)
            ready, _ = ray.wait(list(running), num_returns=1, timeout=0.5)
            for ref in ready:
                job, worker = running.pop(ref)
                try:
                    result = OptimizationResult.model_validate_json(ray.get(ref))
                except ray.exceptions.RayActorError:
                    # The worker died (its process or its host): the search goes back to the queue, and a new
                    # worker takes its place.
                    queue.insert(0, job)
                    idle.append(actor.remote(budget, engine))
                    continue
                except ray.exceptions.RayTaskError as error:
                    rows.append(failed_row(out, job, error))
                    idle.append(worker)
                    continue
                write_atomically(result_file(out, job), result.model_dump_json(indent=2))
                rows.append(summary_row(out, job, result, ray.get(worker.name.remote()), resumed=False))
                idle.append(worker)
                write_summary(out, rows, queue + [j for j, _ in running.values()], skipped)
                if progress is not None:
                    progress(rows[-1], len(rows), total)
        for worker in idle + [w for _, w in running.values()]:
            ray.kill(worker)
        write_summary(out, rows, queue + [j for j, _ in running.values()], skipped)
    finally:
        ray.shutdown()
    return rows


def failed_row(out: Path, job: BatchJob, error: Exception) -> BatchRow:
    """A search that raised (not a lost worker): said in the summary, no result file written."""
    first = str(error).strip().splitlines()[-1][:300] if str(error).strip() else type(error).__name__
    return BatchRow(file=job.file, kernel=job.kernel, result_file="", accepted=False, verdict="error", speedup=None,
                    original_over_sol=None, offered_over_sol=None, evaluated=0, rejected=0, stop_reason="failed",
                    tried=[], notes=[first], worker="")
