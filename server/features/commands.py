"""The `optiml.optimize` and `optiml.profile` commands.

Both need a GPU. The server looks for one once, in a thread (importing CuPy and asking the driver takes a second or
more), and answers a command with one message: on a machine without a GPU, why it cannot run; with one, the command
line that runs the job, since the server does not run optimization or profiling jobs itself yet.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Awaitable, Callable

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from optiml_engine.gpu.pool import NoDevice, visible_devices

OPTIMIZE = "optiml.optimize"
PROFILE = "optiml.profile"
# the `optiml` subcommand that runs each command's job, and the job's name in messages
JOBS = {OPTIMIZE: ("optimize", "optimization"), PROFILE: ("profile", "profiling")}


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


class KernelCommands:
    def __init__(self, server: LanguageServer, gpu: GpuProbe):
        self._server = server
        self._gpu = gpu

    def handler(self, name: str) -> Callable[[str, str], Awaitable[None]]:
        """The command's handler, as pygls calls it: with the command's arguments, the URI and the kernel name."""
        async def run(uri: str, kernel: str) -> None:
            await self.run(name, uri, kernel)
        return run

    async def run(self, name: str, uri: str, kernel: str) -> None:
        subcommand, job = JOBS[name]
        command_line = f"optiml {subcommand} {shlex.quote(to_fs_path(uri) or uri)} --kernel {shlex.quote(kernel)}"
        devices = await self._gpu.devices()
        if isinstance(devices, NoDevice):
            self._show(types.MessageType.Error,
                       f"no CUDA device available: {job} of {kernel} needs an NVIDIA GPU; run `{command_line}` on a "
                       f"machine with one (GPU check: {devices})")
        else:
            self._show(types.MessageType.Info,
                       f"background {job} jobs are not implemented in the server yet: run `{command_line}` in a "
                       f"terminal ({len(devices)} CUDA device(s) here)")

    def _show(self, kind: types.MessageType, message: str) -> None:
        self._server.window_show_message(types.ShowMessageParams(type=kind, message=message))
