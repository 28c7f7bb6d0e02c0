"""Background optimization jobs: `optiml.optimize` runs `optiml_engine.optimize` for one kernel in a thread, so the
server keeps answering while the search runs (minutes on a GPU).

One job per (document, kernel) at a time; jobs on different kernels run side by side over the one shared engine.
The job works on a copy of the document's text as it was when asked (the editor may change the document meanwhile;
the result remembers that text's hash, and Apply checks it). It reports work-done progress when the client supports
it, and the client's cancel stops the search, which then ends with the best kernel found so far; so does
`optiml.cancel` (document URI, kernel), for a client that lists the jobs itself: the `optiml/jobs` notification
sends the running jobs whenever one starts or ends. An exception ends the job with a message; the server keeps
running. The budget is the client's (settings.py).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.gpu.pool import NoDevice
from optiml_engine.optimize import OptimizationResult, optimize
from optiml_engine.search.mcts import SearchBudget, SearchConfig, SearchProgress
from optiml_engine.source.parse import CudaDocument
from server.documents import Documents
from server.engine import EngineFactory
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


class OptimizationJobs:
    def __init__(self, server: LanguageServer, documents: Documents, engines: EngineFactory,
                 results: OptimizationResults, settings: ClientSettings):
        self._server = server
        self._settings = settings
        self._documents = documents
        self._engines = engines
        self._results = results
        self._running: dict[tuple[str, str], threading.Event] = {}   # each job's stop event
        self._stops_by_token: dict[types.ProgressToken, threading.Event] = {}
        self._tasks: set[asyncio.Task] = set()   # the event loop keeps only weak references to tasks
        self._silent = False   # after shutdown

    def optimize(self, uri: str, kernel: str) -> None:
        """Starts the job and returns at once; the job reports through progress, messages and `optiml/result`."""
        document = self._documents.get(uri)
        if document is None:
            return show(self._server, types.MessageType.Error, f"cannot optimize {kernel}: {uri} is not open")
        if kernel not in {k.name for k in document.cuda.model.kernels}:
            return show(self._server, types.MessageType.Error, f"cannot optimize {kernel}: no such kernel in {uri}")
        if (uri, kernel) in self._running:
            return show(self._server, types.MessageType.Info, f"optimization of {kernel} is already running")
        stop = self._running[(uri, kernel)] = threading.Event()
        self._notify_jobs()
        snapshot = CudaDocument(document.cuda.text, document.path)
        task = asyncio.ensure_future(self._run(uri, snapshot, kernel, stop))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def cancel(self, params: types.WorkDoneProgressCancelParams) -> None:
        if (stop := self._stops_by_token.get(params.token)) is not None:
            stop.set()

    def cancel_job(self, uri: str, kernel: str) -> None:
        """`optiml.cancel`: as the progress's cancel, named by document and kernel."""
        if (stop := self._running.get((uri, kernel))) is None:
            return show(self._server, types.MessageType.Info, f"no optimization of {kernel} is running")
        stop.set()

    async def stop_all(self) -> None:
        """At shutdown: stops every job and waits for them to end, so that none writes to the client after `exit`;
        one still running after STOP_WAIT_S is silenced: it reports nothing more."""
        for stop in self._running.values():
            stop.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=STOP_WAIT_S)
        self._silent = True

    async def _run(self, uri: str, document: CudaDocument, kernel: str, stop: threading.Event) -> None:
        progress = JobProgress(self._server, f"Optimizing {kernel}")
        try:
            engine = await self._engines.engine()
            if isinstance(engine, NoDevice):
                return show(self._server, types.MessageType.Error,
                            no_device_message("optimization", "optimize", uri, kernel, engine))
            budget = self._settings.jobs.budget
            await progress.begin(f"0/{budget.candidates} candidates")
            self._stops_by_token[progress.token] = stop
            loop = asyncio.get_running_loop()

            def on_progress(found: SearchProgress) -> None:   # in the job's thread: the loop sends
                if self._silent:
                    return
                percent = min(100, 100 * found.evaluated // budget.candidates)
                loop.call_soon_threadsafe(progress.report, progress_message(found, budget), percent)

            result = await asyncio.to_thread(
                optimize, document, kernel, engine.evaluator, engine.policies, budget,
                SearchConfig(parallel=engine.parallel), progress=on_progress, stop=stop)
        except Exception as error:
            logger.exception("optimization of %s in %s failed", kernel, uri)
            if self._silent:
                return
            message = f"optimization of {kernel} failed: {type(error).__name__}: {error}"
            progress.end(message)
            return show(self._server, types.MessageType.Error, message)
        finally:
            del self._running[(uri, kernel)]
            self._stops_by_token.pop(progress.token, None)
            if not self._silent:
                self._notify_jobs()
        if self._silent:
            return
        self._results.offer(uri, result)   # before the progress ends: a client may look for it then
        progress.end(outcome_message(result))

    def _notify_jobs(self) -> None:
        self._server.protocol.notify(JOBS_NOTIFICATION, {
            "jobs": [{"uri": uri, "kernel": kernel} for uri, kernel in self._running]})


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
