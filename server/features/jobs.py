"""Background jobs: `optiml.optimize` runs `optiml_engine.optimize` for one kernel, `optiml.profile` verifies, times
and profiles it with Nsight Compute; each in a thread, so that the server keeps answering (minutes on a GPU).

One job of a kind per (document, kernel) at a time; other jobs run side by side over the one shared engine. A job
works on a copy of the document's text as it was when asked (the editor may change the document meanwhile; an
optimization result remembers that text's hash, and Apply checks it). It reports work-done progress when the client
supports it, and the client's cancel stops it: the search then ends with the best kernel found so far, profiling
before Nsight Compute; so does `optiml.cancel` (document URI, kernel), for a client that lists the jobs itself: the
`optiml/jobs` notification sends the running jobs whenever one starts or ends. An exception ends the job with a
message; the server keeps running. The optimization budget is the client's (settings.py).

Without a GPU, Optimize does what it can: the dry run (dry_run.py: the loop-nest program, the static findings, the
first candidates compiled with their resource reports), written as Markdown under the cache folder and opened in the
client with window/showDocument; its progress ends saying it was a dry run and why. Profile says it needs a GPU.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.cache import cache_dir
from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.dry_run import DryRun, dry_run, dry_run_markdown, without_gpu
from optiml_engine.gpu.pool import NoDevice
from optiml_engine.model import OptimlError
from optiml_engine.optimize import OptimizationResult, optimize
from optiml_engine.search.mcts import SearchBudget, SearchConfig, SearchProgress
from optiml_engine.source.parse import CudaDocument
from server.documents import Documents
from server.engine import Engine, EngineFactory
from server.features.commands import no_device_message, show
from server.features.results import OptimizationResults
from server.features.settings import ClientSettings

logger = logging.getLogger(__name__)
JOBS_NOTIFICATION = "optiml/jobs"
STOP_WAIT_S = 10.0        # at shutdown, how long the stopped jobs get to end (each ends after its current candidate)


def progress_message(progress: SearchProgress, budget: SearchBudget) -> str:
    sol = "" if progress.best_percent_of_sol is None else f", {progress.best_percent_of_sol:.0f}% of SOL"
    return f"{progress.evaluated}/{budget.candidates} candidates, best {progress.best_speedup:.1f}x{sol}"


def outcome_message(result: OptimizationResult) -> str:
    if result.accepted:
        return f"{result.speedup:.1f}x, verified ({result.stop_reason})"
    return f"no verified faster kernel ({result.stop_reason or '; '.join(result.notes)})"


@dataclass(frozen=True)
class JobKind:
    noun: str            # "optimization": in messages
    title: str           # "Optimizing": the progress title, before the kernel's name
    subcommand: str      # the `optiml` subcommand that runs the same job in a terminal


OPTIMIZATION = JobKind("optimization", "Optimizing", "optimize")
PROFILING = JobKind("profiling", "Profiling", "profile")

# What a job does once its engine exists: returns the message that ends its progress.
Work = Callable[[Engine, str, CudaDocument, str, "JobProgress", threading.Event], Awaitable[str]]


class Jobs:
    def __init__(self, server: LanguageServer, documents: Documents, engines: EngineFactory,
                 results: OptimizationResults, settings: ClientSettings):
        self._server = server
        self._settings = settings
        self._documents = documents
        self._engines = engines
        self._results = results
        self._running: dict[tuple[JobKind, str, str], threading.Event] = {}   # each job's stop event
        self._stops_by_token: dict[types.ProgressToken, threading.Event] = {}
        self._tasks: set[asyncio.Task] = set()   # the event loop keeps only weak references to tasks
        self._silent = False   # after shutdown

    def optimize(self, uri: str, kernel: str) -> None:
        """Starts the job and returns at once; the job reports through progress, messages and `optiml/result`."""
        self._start(OPTIMIZATION, uri, kernel, self._optimize)

    def profile(self, uri: str, kernel: str) -> None:
        """Starts the job and returns at once; the profile lands in the cache that hover reads, and a message says
        its diagnosis."""
        self._start(PROFILING, uri, kernel, self._profile)

    def cancel(self, params: types.WorkDoneProgressCancelParams) -> None:
        if (stop := self._stops_by_token.get(params.token)) is not None:
            stop.set()

    def cancel_job(self, uri: str, kernel: str) -> None:
        """`optiml.cancel`: as the progress's cancel, for every job on that document's kernel."""
        stops = [stop for (_, on, name), stop in self._running.items() if (on, name) == (uri, kernel)]
        if not stops:
            return show(self._server, types.MessageType.Info, f"no job on {kernel} is running")
        for stop in stops:
            stop.set()

    async def stop_all(self) -> None:
        """At shutdown: stops every job and waits for them to end, so that none writes to the client after `exit`;
        one still running after STOP_WAIT_S is silenced: it reports nothing more."""
        for stop in self._running.values():
            stop.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=STOP_WAIT_S)
        self._silent = True

    def _start(self, kind: JobKind, uri: str, kernel: str, work: Work) -> None:
        document = self._documents.get(uri)
        if document is None:
            return show(self._server, types.MessageType.Error, f"cannot {kind.subcommand} {kernel}: {uri} is not open")
        if kernel not in {k.name for k in document.cuda.model.kernels}:
            return show(self._server, types.MessageType.Error,
                        f"cannot {kind.subcommand} {kernel}: no such kernel in {uri}")
        if (kind, uri, kernel) in self._running:
            return show(self._server, types.MessageType.Info, f"{kind.noun} of {kernel} is already running")
        stop = self._running[(kind, uri, kernel)] = threading.Event()
        self._notify_jobs()
        snapshot = CudaDocument(document.cuda.text, document.path)
        task = asyncio.ensure_future(self._run(kind, uri, snapshot, kernel, stop, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, kind: JobKind, uri: str, document: CudaDocument, kernel: str, stop: threading.Event,
                   work: Work) -> None:
        progress = JobProgress(self._server, f"{kind.title} {kernel}")
        try:
            engine = await self._engines.engine()
            if isinstance(engine, NoDevice) and kind is OPTIMIZATION:
                message = await self._dry_run(document, kernel, progress, engine)
            elif isinstance(engine, NoDevice):
                return show(self._server, types.MessageType.Error,
                            no_device_message(kind.noun, kind.subcommand, uri, kernel, engine))
            else:
                self._stops_by_token[progress.token] = stop
                message = await work(engine, uri, document, kernel, progress, stop)
        except Exception as error:
            logger.exception("%s of %s in %s failed", kind.noun, kernel, uri)
            if self._silent:
                return
            message = f"{kind.noun} of {kernel} failed: {type(error).__name__}: {error}"
            progress.end(message)
            return show(self._server, types.MessageType.Error, message)
        finally:
            del self._running[(kind, uri, kernel)]
            self._stops_by_token.pop(progress.token, None)
            if not self._silent:
                self._notify_jobs()
        if not self._silent:
            progress.end(message)

    async def _optimize(self, engine: Engine, uri: str, document: CudaDocument, kernel: str, progress: JobProgress,
                        stop: threading.Event) -> str:
        budget = self._settings.jobs.budget
        await progress.begin(f"0/{budget.candidates} candidates")
        loop = asyncio.get_running_loop()

        def on_progress(found: SearchProgress) -> None:   # in the job's thread: the loop sends
            if self._silent:
                return
            percent = min(100, 100 * found.evaluated // budget.candidates)
            loop.call_soon_threadsafe(progress.report, progress_message(found, budget), percent)

        result = await asyncio.to_thread(
            optimize, document, kernel, engine.evaluator, engine.policies, budget,
            SearchConfig(parallel=engine.parallel), progress=on_progress, stop=stop)
        if not self._silent:
            self._results.offer(uri, result)   # before the progress ends: a client may look for it then
        return outcome_message(result)

    async def _dry_run(self, document: CudaDocument, kernel: str, progress: JobProgress, no_device: NoDevice) -> str:
        """Optimize without a GPU; returns the message that ends its progress."""
        reason = " ".join(str(no_device).split())   # one line: it ends the progress
        why = without_gpu(reason)
        await progress.begin(f"dry run: {why}")
        try:
            report, found = await asyncio.to_thread(self._dry_run_report, document, kernel, why)
        except OptimlError as error:
            show(self._server, types.MessageType.Error, str(error))
            return f"no dry run: {error}"
        compiled = sum(candidate.compiled for candidate in found.candidates)
        message = (f"dry run, no search: no GPU here ({reason}); {compiled} of {len(found.candidates)} first "
                   f"candidates compiled, none verified or timed")
        if self._silent:
            return message
        window = self._server.client_capabilities.window
        if window and window.show_document and window.show_document.support:
            await self._server.window_show_document_async(types.ShowDocumentParams(uri=report.as_uri()))
        else:
            show(self._server, types.MessageType.Info, f"{message}; the report: {report}")
        return message

    def _dry_run_report(self, document: CudaDocument, kernel: str, why: str) -> tuple[Path, DryRun]:
        """The dry run, written to `<cache>/dry-runs/<hash of the file's path>/<file>.<kernel>.md` (a folder per
        source file: two files of one name in different folders keep their own reports)."""
        found = dry_run(document, kernel, self._engines.policies())
        folder = cache_dir().resolve() / "dry-runs" / hashlib.sha256(document.model.path.encode()).hexdigest()[:16]
        folder.mkdir(parents=True, exist_ok=True)
        report = folder / f"{Path(document.model.path).name}.{kernel}.md"
        report.write_text(dry_run_markdown(found, document.model.path, why), encoding="utf-8")
        return report, found

    async def _profile(self, engine: Engine, uri: str, document: CudaDocument, kernel: str, progress: JobProgress,
                       stop: threading.Event) -> str:
        candidate = original_candidate(document, kernel)
        reference = reference_candidate(document, candidate)
        await progress.begin("verifying and timing")
        measurement = await asyncio.to_thread(engine.evaluator.evaluate, candidate, reference)
        if not measurement.ok:
            message = f"{kernel} rejected ({measurement.verdict}): {measurement.reason}"
            show(self._server, types.MessageType.Error, message)
            return message
        if stop.is_set():
            return f"{measurement.timing.median_ms:.4f} ms; not profiled (cancelled)"
        progress.report("profiling with Nsight Compute", 50)
        (found,) = await asyncio.to_thread(engine.evaluator.profile, [(candidate, measurement)])
        sol = f", {measurement.sol.percent_of_sol:.0f}% of SOL" if measurement.sol else ""
        message = f"{kernel}: {found.diagnosis.headline} ({measurement.timing.median_ms:.4f} ms{sol})"
        show(self._server, types.MessageType.Info, f"{message}; hover the kernel's name for the metrics")
        return message

    def _notify_jobs(self) -> None:
        self._server.protocol.notify(JOBS_NOTIFICATION, {"jobs": [
            {"uri": uri, "kernel": kernel, "kind": kind.subcommand} for kind, uri, kernel in self._running]})


class JobProgress:
    """Work-done progress for one job, sent only when the client supports server-initiated progress."""

    def __init__(self, server: LanguageServer, title: str):
        self._server = server
        self.title = title
        self.token = f"optiml-{uuid.uuid4()}"
        self._begun = False

    async def begin(self, message: str) -> None:
        window = self._server.client_capabilities.window
        if not (window and window.work_done_progress):
            return
        await self._server.work_done_progress.create_async(self.token)
        self._server.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
            title=self.title, cancellable=True, message=message, percentage=0))
        self._begun = True

    def report(self, message: str, percentage: int) -> None:
        if self._begun:
            self._server.work_done_progress.report(self.token, types.WorkDoneProgressReport(
                message=message, percentage=percentage))

    def end(self, message: str) -> None:
        if self._begun:
            self._server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self._begun = False
