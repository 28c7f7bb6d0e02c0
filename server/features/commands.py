"""The server's command names, and `optiml.profile`.

Profiling needs a GPU. The server looks for one once, in a thread (importing CuPy and asking the driver takes a second
or more), and answers with one message: on a machine without a GPU, why it cannot run; with one, the command line
that runs the job, since the server does not run profiling jobs itself yet. Optimization jobs are in `jobs.py`.
"""

from __future__ import annotations

import shlex

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from optiml_engine.gpu.pool import NoDevice
from server.engine import GpuProbe

OPTIMIZE = "optiml.optimize"
PROFILE = "optiml.profile"
APPLY = "optiml.apply"
REJECT = "optiml.reject"
OPEN_RESULT = "optiml.openResult"
CANCEL = "optiml.cancel"


def command_line(subcommand: str, uri: str, kernel: str) -> str:
    """The `optiml` command line that runs a job on the file at `uri` in a terminal."""
    return f"optiml {subcommand} {shlex.quote(to_fs_path(uri) or uri)} --kernel {shlex.quote(kernel)}"


def no_device_message(job: str, subcommand: str, uri: str, kernel: str, reason: NoDevice) -> str:
    return (f"no CUDA device available: {job} of {kernel} needs an NVIDIA GPU; run "
            f"`{command_line(subcommand, uri, kernel)}` on a machine with one (GPU check: {reason})")


def show(server: LanguageServer, kind: types.MessageType, message: str) -> None:
    server.window_show_message(types.ShowMessageParams(type=kind, message=message))


class ProfileCommand:
    def __init__(self, server: LanguageServer, gpu: GpuProbe):
        self._server = server
        self._gpu = gpu

    async def profile(self, uri: str, kernel: str) -> None:
        devices = await self._gpu.devices()
        if isinstance(devices, NoDevice):
            show(self._server, types.MessageType.Error, no_device_message("profiling", "profile", uri, kernel, devices))
        else:
            show(self._server, types.MessageType.Info,
                 f"background profiling jobs are not implemented in the server yet: run "
                 f"`{command_line('profile', uri, kernel)}` in a terminal ({len(devices)} CUDA device(s) here)")
