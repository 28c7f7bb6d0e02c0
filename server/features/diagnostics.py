"""Diagnostics: syntax problems, contract errors and the rules' performance lints, published after the editor pauses.

Each change re-arms a 150 ms timer for its document; when it fires, the diagnostics are computed from the text as it
is then, so a run of keystrokes is diagnosed once, on the latest text.
"""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.model import Location, OptimlError
from optiml_engine.policies.rules import all_rules, lints
from server.documents import Documents, OpenDocument, has_contract

DEBOUNCE_S = 0.15
SOURCE = "optiml"

# Knobs (block size, unrolling, fast math) leave the algorithm alone: worth a hint; the other families' findings
# (uncoalesced rows, naive tiling, contended atomics, ...) cost multiples and are shown as information.
_HINT_FAMILY = "optiml_engine.policies.rules.knobs"


class DiagnosticsPublisher:
    def __init__(self, server: LanguageServer, documents: Documents):
        self._server = server
        self._documents = documents
        self._pending: dict[str, asyncio.TimerHandle] = {}
        self._rules = all_rules()
        self._severity = {rule.name: types.DiagnosticSeverity.Hint if type(rule).__module__ == _HINT_FAMILY
                          else types.DiagnosticSeverity.Information for rule in self._rules}
        documents.on_update.append(self.schedule)
        documents.on_close.append(self.clear)

    def schedule(self, document: OpenDocument) -> None:
        uri = document.uri
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        self._pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_S, self.publish, uri)

    def publish(self, uri: str) -> None:
        self._pending.pop(uri, None)
        document = self._documents.get(uri)
        if document is None:
            return
        self._server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=document.version, diagnostics=self.diagnose(document)))

    def clear(self, uri: str) -> None:
        if (pending := self._pending.pop(uri, None)) is not None:
            pending.cancel()
        self._server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def diagnose(self, document: OpenDocument) -> list[types.Diagnostic]:
        model = document.cuda.model
        diagnostics = [self._error(document, problem.location, problem.message) for problem in model.syntax_problems]
        text = document.cuda.text
        for kernel in model.kernels:
            if has_contract(kernel):
                try:
                    document.cuda.contract(kernel.name)
                except OptimlError as error:
                    message = error.message + (f" (expected {error.expected})" if error.expected else "")
                    diagnostics.append(self._error(document, error.location, message))
            for match in lints(text, document.path, kernel.name, self._rules):
                diagnostics.append(types.Diagnostic(
                    range=document.range(match.span), message=match.message, severity=self._severity[match.rule],
                    source=SOURCE, code=match.rule))
        return diagnostics

    @staticmethod
    def _error(document: OpenDocument, location: Location, message: str) -> types.Diagnostic:
        return types.Diagnostic(range=document.location_range(location), message=message,
                                severity=types.DiagnosticSeverity.Error, source=SOURCE)
