"""One worker process per GPU; a candidate that crashes or hangs costs its worker, never the caller.

A spare process is started alongside each worker, so that replacing a dead worker is a swap, not a cold start of
Python, CuPy and a CUDA context.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from optiml_engine.gpu.worker import CeilingsJob, EvaluateJob, EvaluateOutcome, serve
from optiml_engine.model import DeviceCeilings, DeviceInfo

START_TIMEOUT_S = 120.0


class NoDevice(RuntimeError):
    """No usable CUDA device: the caller reports it once, clearly (exit code 2 on the command line)."""


def visible_devices() -> list[int]:
    """CUDA device indices: OPTIML_GPUS="0,2" when set, else every device the driver shows."""
    chosen = os.environ.get("OPTIML_GPUS")
    if chosen:
        return [int(index) for index in chosen.split(",") if index.strip()]
    try:
        import cupy

        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # no driver, no device: CuPy raises from the runtime
        raise NoDevice(f"no CUDA device available ({exc.__class__.__name__}: {exc})") from None
    if count == 0:
        raise NoDevice("no CUDA device available (the driver reports 0 devices)")
    return list(range(count))


class WorkerProcess:
    """A started worker: its process, pipe end, and the device it announced."""

    def __init__(self, device_index: int):
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=serve, args=(child, device_index), daemon=True)
        self.process.start()
        child.close()
        self.info: DeviceInfo | None = None

    def wait_ready(self) -> DeviceInfo:
        if self.info is None:
            if not self.connection.poll(START_TIMEOUT_S):
                self.kill()
                raise NoDevice("the GPU worker did not start within 120 s")
            try:
                kind, payload = self.connection.recv()
            except EOFError:
                raise NoDevice("the GPU worker exited while starting") from None
            if kind != "ready":
                self.kill()
                raise NoDevice(payload)
            self.info = payload
        return self.info

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.connection.close()


class GpuWorker:
    """Runs jobs on one device, one at a time, replacing its process whenever a job kills or wedges it."""

    def __init__(self, device_index: int):
        self.device_index = device_index
        self.current = WorkerProcess(device_index)
        self.spare = WorkerProcess(device_index)
        self.info = self.current.wait_ready()
        self.replacements = 0
        self.last_replacement_s = 0.0

    def replace(self) -> None:
        began = time.perf_counter()
        self.current.kill()
        self.current, self.spare = self.spare, WorkerProcess(self.device_index)
        self.current.wait_ready()
        self.replacements += 1
        self.last_replacement_s = time.perf_counter() - began

    def run(self, job: EvaluateJob | CeilingsJob, timeout_s: float) -> Any:
        connection = self.current.connection
        connection.send(job)
        if not connection.poll(timeout_s):
            self.replace()
            return EvaluateOutcome(verdict="timeout", reason=f"no result within {timeout_s:.0f} s: the kernel "
                                                             f"hangs or is far too slow", context_lost=True)
        try:
            kind, payload = connection.recv()
        except (EOFError, ConnectionResetError):
            code = self.current.process.exitcode
            self.replace()
            return EvaluateOutcome(verdict="crash", reason=f"the GPU worker died (exit code {code})",
                                   context_lost=True)
        if kind == "error":
            raise RuntimeError(f"GPU worker failed on device {self.device_index}:\n{payload}")
        if isinstance(payload, EvaluateOutcome) and payload.context_lost:
            self.replace()
        return payload

    def close(self) -> None:
        self.current.kill()
        self.spare.kill()


class WorkerPool:
    """Jobs go to whichever GPU is free; `submit` returns a future, so a search keeps several in flight."""

    def __init__(self, devices: list[int] | None = None):
        indices = devices if devices is not None else visible_devices()
        self.workers = [GpuWorker(index) for index in indices]
        self.jobs: queue.Queue = queue.Queue()
        self.threads = [threading.Thread(target=self.drain, args=(w,), daemon=True) for w in self.workers]
        for thread in self.threads:
            thread.start()

    @property
    def devices(self) -> list[DeviceInfo]:
        return [w.info for w in self.workers]

    def drain(self, worker: GpuWorker) -> None:
        while True:
            item = self.jobs.get()
            if item is None:
                return
            job, timeout_s, future = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                # A callable is work that needs the device to itself (a profiler run): done here, in this worker's
                # turn, so that no timing job shares the GPU with it.
                future.set_result(job(worker.device_index) if callable(job) else worker.run(job, timeout_s))
            except Exception as exc:
                future.set_exception(exc)

    def submit(self, job: EvaluateJob | CeilingsJob, timeout_s: float) -> Future:
        future: Future = Future()
        self.jobs.put((job, timeout_s, future))
        return future

    def exclusively(self, work: Callable[[int], Any]) -> Future:
        """`work(device_index)` on whichever GPU is free, with that GPU held from every other job meanwhile."""
        future: Future = Future()
        self.jobs.put((work, None, future))
        return future

    def ceilings(self) -> DeviceCeilings:
        return self.submit(CeilingsJob(), timeout_s=300).result()

    def close(self) -> None:
        for _ in self.threads:
            self.jobs.put(None)
        for worker in self.workers:
            worker.close()

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
