"""Optimization results waiting for the user: kept per (document URI, kernel) until applied or rejected.

A result comes from a job that just ended, or from a result file `optiml optimize --result` wrote elsewhere
(`optiml.openResult`). Either way the client gets an `optiml/result` notification (for clients with their own diff
view: it carries the optimized file's text), and the kernel gets an "Apply optimized kernel" code action. Applying replaces the whole document with the
result's text, and only when the document is still the text the job started from: the result's diff was computed
against that text, and anything typed since would be lost.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pydantic import ValidationError
from pygls.lsp.server import LanguageServer

from optiml_engine.optimize import OptimizationResult, source_hash
from server.documents import Documents
from server.features.commands import APPLY, REJECT, show

RESULT_NOTIFICATION = "optiml/result"
CHANGED_SINCE = "the document changed since the optimization started; run Optimize again"


def apply_title(result: OptimizationResult) -> str:
    return f"Apply optimized kernel ({result.speedup:.1f}x, verified)"


class OptimizationResults:
    def __init__(self, server: LanguageServer, documents: Documents):
        self._server = server
        self._documents = documents
        self._kept: dict[tuple[str, str], OptimizationResult] = {}
        documents.on_close.append(self._closed)

    def get(self, uri: str, kernel: str) -> OptimizationResult | None:
        return self._kept.get((uri, kernel))

    def offer(self, uri: str, result: OptimizationResult) -> None:
        """Keeps the result for its kernel in the document at `uri` (replacing an older one) and tells the client."""
        self._kept[(uri, result.kernel)] = result
        self._server.protocol.notify(RESULT_NOTIFICATION, {
            "uri": uri, "kernel": result.kernel, "accepted": result.accepted, "speedup": result.speedup,
            "diff": result.diff, "new_text": result.new_text, "trajectory": [step.model_dump(mode="json") for step in result.trajectory]})

    def code_actions(self, uri: str, kernel: str) -> list[types.CodeAction]:
        result = self.get(uri, kernel)
        if result is None or not result.accepted:
            return []
        arguments = [uri, kernel]
        return [types.CodeAction(title=apply_title(result), kind=types.CodeActionKind.RefactorRewrite,
                                 is_preferred=True,
                                 command=types.Command(title="Apply", command=APPLY, arguments=arguments)),
                types.CodeAction(title=f"Reject optimized kernel {kernel}", kind=types.CodeActionKind.RefactorRewrite,
                                 command=types.Command(title="Reject", command=REJECT, arguments=arguments))]

    async def apply(self, uri: str, kernel: str) -> bool:
        """Whether the editor applied the result; when not, a message said why."""
        result = self.get(uri, kernel)
        document = self._documents.get(uri)
        if result is None or document is None:
            return self._error(f"no optimization result for {kernel} in {uri}: run Optimize first")
        if not result.accepted:
            return self._error(f"nothing to apply for {kernel}: {'; '.join(result.notes) or 'no verified kernel'}")
        if source_hash(document.cuda.text) != result.source_sha256:
            return self._error(f"{kernel} not applied: {CHANGED_SINCE}")
        edit = types.WorkspaceEdit(changes={uri: [types.TextEdit(range=document.whole_range(),
                                                                  new_text=result.new_text)]})
        answer = await self._server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=edit, label=f"Apply optimized {kernel} ({result.speedup:.1f}x)"))
        if answer.applied:
            self._kept.pop((uri, kernel), None)
        else:
            self._error(f"the editor did not apply the optimized {kernel}: {answer.failure_reason or 'no reason given'}")
        return answer.applied

    def reject(self, uri: str, kernel: str) -> None:
        self._kept.pop((uri, kernel), None)

    def open_result(self, path: str) -> None:
        """Offers a saved result (from `optiml optimize --result`) for the open document it names."""
        try:
            result = OptimizationResult.model_validate_json(Path(path).read_bytes())
        except OSError as error:
            return self._error(f"cannot read the result file {path}: {error.strerror or error}")
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the file"
            return self._error(f"{path} is not an OptiML optimization result: {where}: {first['msg']}")
        document = self._documents.find_path(result.path)
        if document is None:
            return self._error(f"{path} is a result for {result.path}, which is not open: open it, then open the "
                               f"result again")
        self.offer(document.uri, result)
        verdict = apply_title(result) if result.accepted else "no verified faster kernel"
        show(self._server, types.MessageType.Info,
             f"result for {result.kernel} in {document.path}: {verdict}; see the code actions on the kernel")

    def _closed(self, uri: str) -> None:
        for key in [key for key in self._kept if key[0] == uri]:
            del self._kept[key]

    def _error(self, message: str) -> bool:
        show(self._server, types.MessageType.Error, message)
        return False   # what `apply` answers when it applies nothing
