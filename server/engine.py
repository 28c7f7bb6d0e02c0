"""What evaluates candidates for the server's optimization jobs: built once, on the first job, and shared by all.

In production it is a WorkerPool over the machine's CUDA devices, an Evaluator over that pool and the built-in rules
and templates, plus the LLM policy only when the client's settings ask for it (`"llm": true`, see settings.py): the
server never calls an LLM on its own. Without a GPU there is no engine, and the job says why (Optimize then runs the
dry run, with the same policies: they need no GPU).

Testing hook: `OPTIML_TEST_ENGINE=module:function` names a factory returning `(evaluator, policies)` that is used
instead (no GPU looked for), so that tests drive real jobs through the real server with a deterministic evaluator on
a CPU. It is not a user setting.
"""

from __future__ import annotations

import asyncio
import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass

from optiml_engine.gpu.pool import NoDevice, visible_devices
from optiml_engine.policies.base import Policy
from server.features.settings import ClientSettings

TEST_ENGINE_VARIABLE = "OPTIML_TEST_ENGINE"


class GpuProbe:
    """The CUDA devices this machine has, or why it has none; asked of the driver once."""

    def __init__(self):
        self._probe: asyncio.Future[list[int] | NoDevice] | None = None

    async def devices(self) -> list[int] | NoDevice:
        if self._probe is None:
            self._probe = asyncio.ensure_future(asyncio.to_thread(self._detect))
        return await self._probe

    @staticmethod
    def _detect() -> list[int] | NoDevice:
        try:
            return visible_devices()
        except NoDevice as reason:
            return reason


@dataclass(frozen=True)
class Engine:
    evaluator: object        # an optiml_engine.evaluate.Evaluator, or what the testing hook stands in for it
    policies: list[Policy]
    parallel: int            # candidates in flight per job: one per GPU worker
    close: Callable[[], None]


class EngineFactory:
    """The engine, built on first use (a WorkerPool starts a process per GPU: seconds), or why there is none."""

    def __init__(self, gpu: GpuProbe, settings: ClientSettings):
        self._gpu = gpu
        self._settings = settings
        self._engine: asyncio.Future[Engine] | None = None

    async def engine(self) -> Engine | NoDevice:
        if factory := os.environ.get(TEST_ENGINE_VARIABLE):
            return await self._built(lambda: _test_engine(factory))
        devices = await self._gpu.devices()
        if isinstance(devices, NoDevice):
            return devices
        # the policies before the workers start: a missing LLM setting fails at once
        return await self._built(lambda: _gpu_engine(devices, self.policies()))

    def policies(self) -> list[Policy]:
        """The policies the search uses: the built-in ones, and the LLM's when the client's settings ask for it.
        Raises OptimlError when they ask for an LLM that is not configured."""
        from optiml_engine.optimize import default_policies

        return default_policies(self._settings.jobs.llm)

    def close(self) -> None:
        """At shutdown: ends the GPU workers, if they were started."""
        if self._engine is not None and self._engine.done() and self._engine.exception() is None:
            self._engine.result().close()

    async def _built(self, build: Callable[[], Engine]) -> Engine:
        if self._engine is None:
            self._engine = asyncio.ensure_future(asyncio.to_thread(build))
        return await self._engine


def _gpu_engine(devices: list[int], policies: list[Policy]) -> Engine:
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.gpu.pool import WorkerPool

    pool = WorkerPool(devices)
    return Engine(Evaluator(pool), policies, parallel=len(pool.workers), close=pool.close)


def _test_engine(factory: str) -> Engine:
    module, _, function = factory.partition(":")
    evaluator, policies = getattr(importlib.import_module(module), function)()
    return Engine(evaluator, policies, parallel=1, close=lambda: None)
