"""Diagnostics: syntax problems, contract errors and the rules' performance lints, published after the editor pauses.

Each change re-arms a 150 ms timer for its document; when it fires, the diagnostics are computed from the text as it
is then, so a run of keystrokes is diagnosed once, on the latest text. They are computed in a separate process, on a
copy of that text: the lints over a file with a hundred kernels take about a second of Python, which in a thread of
the server would hold the interpreter lock against hover and code actions (p95 115 ms instead of 2 ms in
bench/lsp_bench.py). One computation per document at a time; a result for a text that changed since is dropped,
and the change's own timer diagnoses the new text when that computation has ended.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.model import Location, OptimlError
from optiml_engine.policies.base import Match
from optiml_engine.policies.rules import document_lints
from optiml_engine.source.parse import CudaDocument
from server.documents import Documents, OpenDocument, has_contract
from server.features.settings import ClientSettings

DEBOUNCE_S = 0.15
SOURCE = "optiml"

_SEVERITY = {"hint": types.DiagnosticSeverity.Hint, "information": types.DiagnosticSeverity.Information,
             "warning": types.DiagnosticSeverity.Warning}


@dataclass(frozen=True)
class Findings:
    """A text's problems, located in the engine's terms (converted to the editor's on the event loop)."""
    errors: list[tuple[Location, str]]
    lints: list[Match]


class DiagnosticsPublisher:
    def __init__(self, server: LanguageServer, documents: Documents, settings: ClientSettings):
        self._server = server
        self._documents = documents
        self._settings = settings
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._running: dict[str, asyncio.Task] = {}   # the computation in flight, per document
        self._again: set[str] = set()                 # documents whose timer fired while theirs was in flight
        self._processes: ProcessPoolExecutor | None = None    # started on the first document
        documents.on_update.append(self.schedule)
        documents.on_close.append(self.clear)

    def schedule(self, document: OpenDocument) -> None:
        uri = document.uri
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        self._pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_S, self.publish, uri)

    def publish(self, uri: str) -> None:
        self._pending.pop(uri, None)
        if uri in self._running:
            self._again.add(uri)
            return
        task = self._running[uri] = asyncio.ensure_future(self._publish(uri))
        task.add_done_callback(lambda _: self._ended(uri))

    def clear(self, uri: str) -> None:
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        self._again.discard(uri)
        self._server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    async def _publish(self, uri: str) -> None:
        document = self._documents.get(uri)
        if document is None:
            return
        version, text = document.version, document.cuda.text
        findings = await asyncio.get_running_loop().run_in_executor(self._finder(), find_problems, text,
                                                                     document.path)
        if self._documents.get(uri) is not document or document.version != version:
            return   # changed or closed meanwhile: the change re-armed the timer
        self._server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=self.diagnostics(document, findings)))

    def _ended(self, uri: str) -> None:
        del self._running[uri]
        if uri in self._again:
            self._again.discard(uri)
            self.publish(uri)

    def _finder(self) -> ProcessPoolExecutor:
        if self._processes is None:
            self._processes = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._processes

    def close(self) -> None:
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)

    def diagnostics(self, document: OpenDocument, findings: Findings) -> list[types.Diagnostic]:
        """The findings as diagnostics of `document`, whose text they were found in."""
        diagnostics = [types.Diagnostic(range=document.location_range(location), message=message,
                                        severity=types.DiagnosticSeverity.Error, source=SOURCE)
                       for location, message in findings.errors]
        diagnostics += [types.Diagnostic(
            range=document.range(match.span), message=match.message,
            severity=_SEVERITY[self._settings.jobs.lints.severity],
            source=SOURCE, code=match.rule,
            related_information=[types.DiagnosticRelatedInformation(
                location=types.Location(uri=document.uri, range=document.range(place.span)), message=place.message)
                for place in match.also] or None)
            for match in findings.lints]
        return diagnostics


def find_problems(text: str, path: str) -> Findings:
    """The problems of `text`: syntax, contracts and lints (run in the diagnostics process)."""
    document = CudaDocument(text, path)
    model = document.model
    errors = [(problem.location, problem.message) for problem in model.syntax_problems]
    for kernel in model.kernels:
        if has_contract(kernel):
            try:
                document.contract(kernel.name)
            except OptimlError as error:
                errors.append((error.location,
                               error.message + (f" (expected {error.expected})" if error.expected else "")))
    return Findings(errors, document_lints(document, grouped=True))
