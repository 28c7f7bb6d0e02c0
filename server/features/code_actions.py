"""Code actions on a kernel: Optimize and Profile (commands), Apply and Reject when an optimization result waits for
it, and a quick fix that writes a missing contract (inferred when the user picks it, through codeAction/resolve); on a performance lint the client sends back, the quick fix that
writes its rule's rewrite (computed when asked, for the lints the request names: a few milliseconds each); on a
`// @optiml generate:` comment, Generate kernel."""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.model import Kernel
from optiml_engine.policies.rules import lint_fix
from optiml_engine.source.infer import infer_contract_text
from server.documents import Documents, OpenDocument, has_contract
from server.features.commands import OPTIMIZE, PROFILE
from server.features.diagnostics import SOURCE
from server.features.generation import GenerationJobs
from server.features.results import OptimizationResults

logger = logging.getLogger(__name__)
ADD_CONTRACT = "Add benchmark contract"
ADD_CONTRACT_DATA = "optiml.addContract"     # the action's data: [uri, kernel], for codeAction/resolve


class KernelCodeActions:
    KINDS = (types.CodeActionKind.QuickFix, types.CodeActionKind.RefactorRewrite, types.CodeActionKind.Empty)

    def __init__(self, server: LanguageServer, documents: Documents, results: OptimizationResults,
                 generation: GenerationJobs):
        self._server = server
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
        actions += [fix for diagnostic in params.context.diagnostics
                    if (fix := self._lint_fix(document, diagnostic)) is not None]
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

    def _add_contract(self, document: OpenDocument, kernel: Kernel) -> types.CodeAction:
        """Inference runs the kernel on the CPU (a second or more): a client that resolves code actions gets the
        edit only when the user picks the fix (codeAction/resolve), not on every request as the cursor moves."""
        action = types.CodeAction(title=ADD_CONTRACT, kind=types.CodeActionKind.QuickFix, is_preferred=True,
                                  data={ADD_CONTRACT_DATA: [document.uri, kernel.name]})
        if not self._client_resolves_edits():
            action.edit = self._contract_edit(document, kernel)
        return action

    async def resolve(self, action: types.CodeAction) -> types.CodeAction:
        """codeAction/resolve: the edit of an "Add benchmark contract" fix, inferred now (in a thread)."""
        target = action.data.get(ADD_CONTRACT_DATA) if isinstance(action.data, dict) else None
        document = self._documents.get(target[0]) if target else None
        kernel = document.cuda.model.kernel(target[1]) if document is not None else None
        if kernel is None or has_contract(kernel):
            return action   # closed, renamed or contracted since: nothing to write
        action.edit = await asyncio.to_thread(self._contract_edit, document, kernel)
        return action

    @staticmethod
    def _contract_edit(document: OpenDocument, kernel: Kernel) -> types.WorkspaceEdit:
        # the kernel's span starts at its template header, where the contract must stand above
        above = types.Position(line=kernel.span.start.line, character=0)
        text = infer_contract_text(document.cuda.text, document.path, kernel.name,
                                   document.cuda.model.launch_sites) + "\n"
        return types.WorkspaceEdit(changes={document.uri: [types.TextEdit(range=types.Range(start=above, end=above),
                                                                            new_text=text)]})

    def _client_resolves_edits(self) -> bool:
        capabilities = self._server.client_capabilities.text_document
        support = capabilities.code_action.resolve_support if capabilities and capabilities.code_action else None
        return support is not None and "edit" in support.properties

    @staticmethod
    def _lint_fix(document: OpenDocument, diagnostic: types.Diagnostic) -> types.CodeAction | None:
        """The rewrite of a lint's rule (its code) on the kernel the lint is in, when the rule has one there; never a
        broken one: a rewrite that fails is logged, and the lint gets no quick fix."""
        if diagnostic.source != SOURCE or not isinstance(diagnostic.code, str):
            return None   # another tool's diagnostic, or a syntax or contract error
        kernel = document.kernel_at(diagnostic.range.start)
        if kernel is None:
            return None
        try:
            fix = lint_fix(document.cuda, kernel.name, diagnostic.code)
        except Exception:
            logger.exception("the rewrite of %s on %s in %s failed", diagnostic.code, kernel.name, document.uri)
            return None
        if fix is None:
            return None
        return types.CodeAction(
            title=f"Rewrite: {fix.description} (not yet verified: Optimize measures it)",
            kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
            edit=types.WorkspaceEdit(changes={document.uri: [types.TextEdit(range=document.whole_range(),
                                                                              new_text=fix.edit.new_text)]}))
