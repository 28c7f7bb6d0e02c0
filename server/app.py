"""The language server: `optiml-lsp` over stdio, or `optiml-lsp --tcp HOST:PORT` to attach a debugging client."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from server.documents import Documents
from server.engine import EngineFactory, GpuProbe
from server.features.code_actions import KernelCodeActions
from server.features.codelens import KernelLenses, ResultFiles
from server.features.commands import (
    APPLY,
    CANCEL,
    GENERATE,
    OPEN_RESULT,
    OPTIMIZE,
    PROFILE,
    REJECT,
)
from server.features.diagnostics import DiagnosticsPublisher
from server.features.generation import GenerationJobs
from server.features.hover import ProfileHover
from server.features.jobs import Jobs
from server.features.results import OptimizationResults
from server.features.settings import ClientSettings


def register(server: LanguageServer, feature: str, handler: Callable, options: Any = None) -> None:
    # pygls marks what it registers with attributes, which a bound method cannot hold; a partial can
    server.feature(feature, options)(functools.partial(handler))


def create_server() -> LanguageServer:
    server = LanguageServer("optiml-lsp", version("optiml"))
    settings = ClientSettings(server)
    register(server, types.INITIALIZE, settings.initialize)
    documents = Documents(server)
    register(server, types.TEXT_DOCUMENT_DID_OPEN, documents.did_open)
    register(server, types.TEXT_DOCUMENT_DID_CHANGE, documents.did_change)
    register(server, types.TEXT_DOCUMENT_DID_CLOSE, documents.did_close)
    diagnostics = DiagnosticsPublisher(server, documents, settings)
    results = OptimizationResults(server, documents)
    engines = EngineFactory(GpuProbe(), settings)
    jobs = Jobs(server, documents, engines, results, settings)
    generation = GenerationJobs(server, documents, jobs, engines, settings)
    code_actions = KernelCodeActions(server, documents, results, generation)
    register(server, types.TEXT_DOCUMENT_CODE_ACTION, code_actions.code_actions,
             types.CodeActionOptions(code_action_kinds=KernelCodeActions.KINDS, resolve_provider=True))
    register(server, types.CODE_ACTION_RESOLVE, code_actions.resolve)
    register(server, types.TEXT_DOCUMENT_CODE_LENS, KernelLenses(documents, ResultFiles()).code_lens,
             types.CodeLensOptions(resolve_provider=False))
    kernel_hover = ProfileHover(documents)
    register(server, types.TEXT_DOCUMENT_HOVER, lambda params: generation.hover(params) or kernel_hover.hover(params))
    register(server, types.WINDOW_WORK_DONE_PROGRESS_CANCEL, jobs.cancel)

    async def shutdown(_: None) -> None:
        await jobs.stop_all()
        engines.close()
        diagnostics.close()

    register(server, types.SHUTDOWN, shutdown)
    for name, handler in ((OPTIMIZE, jobs.optimize), (PROFILE, jobs.profile), (CANCEL, jobs.cancel_job),
                          (APPLY, results.apply), (REJECT, results.reject), (OPEN_RESULT, results.open_result),
                          (GENERATE, generation.generate)):
        server.command(name)(functools.partial(handler))
    return server


def host_and_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit():
        raise argparse.ArgumentTypeError(f"'{text}' is not HOST:PORT (expected e.g. 127.0.0.1:2087)")
    return host or "127.0.0.1", int(port)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="optiml-lsp", description=__doc__)
    parser.add_argument("--tcp", metavar="HOST:PORT", type=host_and_port,
                        help="listen on a TCP port instead of stdio")
    args = parser.parse_args(argv)
    server = create_server()
    if args.tcp:
        server.start_tcp(*args.tcp)
    else:
        server.start_io()


if __name__ == "__main__":
    main()
