"""Code actions on a kernel: Optimize and Profile (commands), Apply and Reject when an optimization result waits for
it, and a quick fix that writes a missing contract; on a `// @optiml generate:` comment, Generate kernel."""

from __future__ import annotations

from lsprotocol import types

from optiml_engine.model import Kernel
from optiml_engine.source.infer import infer_contract_text
from server.documents import Documents, OpenDocument, has_contract
from server.features.commands import OPTIMIZE, PROFILE
from server.features.generation import GenerationJobs
from server.features.results import OptimizationResults

ADD_CONTRACT = "Add benchmark contract"


class KernelCodeActions:
    KINDS = (types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, types.CodeActionKind.Empty)

    def __init__(self, documents: Documents, results: OptimizationResults, generation: GenerationJobs):
        self._documents = documents
        self._results = results
        self._generation = generation

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        document = self._documents.get(params.text_document.uri)
        if document is None:
            return None
        actions = self._generation.code_actions(document, params.range.start.line)
        kernel = document.kernel_at(params.range.start)
        if kernel is not None:
            actions += self._kernel_actions(document, kernel)
        wanted = params.context.only
        if wanted:   # kinds are hierarchical: asking for `refactor` gets `refactor.rewrite`
            actions = [action for action in actions
                       if any(action.kind == kind or action.kind.startswith(f"{kind}.") for kind in wanted)]
        return actions or None

    def _kernel_actions(self, document: OpenDocument, kernel: Kernel) -> list[types.CodeAction]:
        arguments = [document.uri, kernel.name]
        actions = [
            types.CodeAction(title=f"Optimize kernel {kernel.name}", kind=types.CodeActionKind.RefactorRewrite,
                             command=types.Command(title="Optimize", command=OPTIMIZE, arguments=arguments)),
            types.CodeAction(title=f"Profile kernel {kernel.name}", kind=types.CodeActionKind.Empty,
                             command=types.Command(title="Profile", command=PROFILE, arguments=arguments)),
            *self._results.code_actions(document.uri, kernel.name),
        ]
        if not has_contract(kernel):
            actions.append(self._add_contract(document, kernel))
        return actions

    @staticmethod
    def _add_contract(document: OpenDocument, kernel: Kernel) -> types.CodeAction:
        # the kernel's span starts at its template header, where the contract must stand above
        above = types.Position(line=kernel.span.start.line, character=0)
        text = infer_contract_text(document.cuda.text, document.path, kernel.name,
                                   document.cuda.model.launch_sites) + "\n"
        return types.CodeAction(
            title=ADD_CONTRACT, kind=types.CodeActionKind.QuickFix, is_preferred=True,
            edit=types.WorkspaceEdit(changes={document.uri: [types.TextEdit(range=types.Range(start=above, end=above),
                                                                              new_text=text)]}))
