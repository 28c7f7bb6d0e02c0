"""The server's command names and the messages its commands share; the jobs behind them are in `jobs.py`."""

from __future__ import annotations

import shlex

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from optiml_engine.gpu.pool import NoDevice

OPTIMIZE = "optiml.optimize"
PROFILE = "optiml.profile"
APPLY = "optiml.apply"
REJECT = "optiml.reject"
OPEN_RESULT = "optiml.openResult"
GENERATE = "optiml.generate"
CANCEL = "optiml.cancel"


def command_line(subcommand: str, uri: str, kernel: str) -> str:
    """The `optiml` command line that runs a job on the file at `uri` in a terminal."""
    return f"optiml {subcommand} {shlex.quote(to_fs_path(uri) or uri)} --kernel {shlex.quote(kernel)}"


def no_device_message(job: str, subcommand: str, uri: str, kernel: str, reason: NoDevice) -> str:
    return (f"no CUDA device available: {job} of {kernel} needs an NVIDIA GPU; run "
            f"`{command_line(subcommand, uri, kernel)}` on a machine with one (GPU check: {reason})")


def show(server: LanguageServer, kind: types.MessageType, message: str) -> None:
    server.window_show_message(types.ShowMessageParams(type=kind, message=message))
