"""Generate from comment: on a `// @optiml generate: <intent>` line, the "Generate kernel" code action runs
`optiml.generate`, a job with work-done progress that parses the intent, writes the first kernel with its contract
and NumPy oracle, compile-checks it (NVRTC), inserts it below the comment (workspace/applyEdit) and then offers to
optimize it. An intent outside the families ends the job with a message saying what is supported. With the LLM on
in the client's settings (and an endpoint in the environment), an intent the built-in readers refuse is read by the
LLM's reading strategies when they agree (generate/llm.py; said, and written beside the kernel, as the LLM's), and
the LLM strategies' kernels are verified against the oracle on the engine's GPU first, the fastest verified one
inserted instead of the built-in kernel.
"""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from optiml_engine.generate.algorithm import first_kernel
from optiml_engine.generate.families import compile_check, generate_kernel
from optiml_engine.generate.llm import GenerationLlm, llm_reading, llm_seed
from optiml_engine.gpu.pool import NoDevice
from optiml_engine.policies.llm import LlmPolicy, LlmSettings
from optiml_engine.generate.intent import IntentComment, intent_comments, parse_intent
from optiml_engine.generate.spec import spec_form
from optiml_engine.model import GeneratedKernel, KernelSpec, OptimlError
from server.documents import Documents, OpenDocument
from server.features.commands import GENERATE, show
from server.engine import EngineFactory
from server.features.jobs import JobProgress, Jobs
from server.features.settings import ClientSettings

logger = logging.getLogger(__name__)
OPTIMIZE_CHOICE = "Optimize"
INSERTED_WAIT_S = 5.0   # how long Optimize waits for the editor's change notification that holds the new kernel


def intent_at(document: OpenDocument, line: int) -> IntentComment | None:
    return next((c for c in intent_comments(document.line(line)) if c.line == 0), None)


class GenerationJobs:
    def __init__(self, server: LanguageServer, documents: Documents, optimizations: Jobs, engines: EngineFactory,
                 settings: ClientSettings):
        self._server = server
        self._documents = documents
        self._optimizations = optimizations
        self._engines = engines
        self._settings = settings
        self._tasks: set[asyncio.Task] = set()

    def code_actions(self, document: OpenDocument, line: int) -> list[types.CodeAction]:
        """"Generate kernel", its title saying how the intent is read (the spec form) before anything is inserted;
        the intent itself when it is not understood (running the action then says why)."""
        comment = intent_at(document, line)
        if comment is None:
            return []
        try:
            reading = spec_form(parse_intent(comment.intent))
        except OptimlError:
            reading = None
        title = f"Generate kernel, read as: {reading}" if reading else f"Generate kernel: {comment.intent}"
        return [types.CodeAction(
            title=title, kind=types.CodeActionKind.RefactorRewrite, is_preferred=True,
            command=types.Command(title="Generate kernel", command=GENERATE, arguments=[document.uri, line]))]

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        """On a `// @optiml generate:` line: how the intent is read, and what was assumed, or why it is refused."""
        document = self._documents.get(params.text_document.uri)
        comment = document and intent_at(document, params.position.line)
        if comment is None:
            return None
        try:
            spec = parse_intent(comment.intent)
        except OptimlError as error:
            text = (f"**OptiML generate**: not understood: {error.message}\n\nexpected {error.expected}")
        else:
            reading = spec_form(spec)
            text = (f"**OptiML generate** reads this as\n\n```python\n{reading}\n```\n\n" if reading else
                    f"**OptiML generate**: {spec.family.replace('_', ' ')} `{spec.kernel}` with sizes "
                    f"{spec.sizes}\n\n")
            text += "Assumed: " + "; ".join(spec.assumed) if spec.assumed else "Nothing assumed."
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    def generate(self, uri: str, line: int) -> None:
        """Starts the job and returns at once."""
        task = asyncio.ensure_future(self._run(uri, int(line)))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, uri: str, line: int) -> None:
        document = self._documents.get(uri)
        comment = document and intent_at(document, line)
        if comment is None:
            return show(self._server, types.MessageType.Error,
                        f"cannot generate: line {line + 1} of {uri} holds no `// @optiml generate:` comment")
        progress = JobProgress(self._server, "Generating kernel")
        await progress.begin("reading the intent")
        try:
            spec = parse_intent(comment.intent)
        except OptimlError as error:
            spec = await self._llm_read(comment.intent, error, progress)
            if spec is None:
                progress.end("not generated")
                return
        if document.cuda.model.kernel(spec.kernel) is not None:
            progress.end("not generated")
            return show(self._server, types.MessageType.Error, f"cannot generate {spec.kernel}: the document already "
                                                                f"has a kernel of that name")
        progress.report(f"{spec.family.replace('_', ' ')} {spec.kernel}: writing and compiling (NVRTC)", 30)
        try:
            generated, compiled = await asyncio.to_thread(self._generated, spec)
        except Exception as error:   # a generator defect: reported, the server keeps running
            logger.exception("generation from %r failed", comment.intent)
            progress.end("failed")
            return show(self._server, types.MessageType.Error, f"generation failed: {type(error).__name__}: {error}")
        if not compiled:
            progress.end("failed")
            return show(self._server, types.MessageType.Error,
                        f"the generated kernel {generated.kernel} does not compile (a generator defect)")
        if self._settings.jobs.llm:
            generated = await self._llm_seeded(generated, progress)
        progress.report(f"{generated.kernel} compiles: inserting it", 80)
        if self._documents.get(uri) is None or intent_at(self._documents.get(uri), line) != comment:
            progress.end("not inserted")
            return show(self._server, types.MessageType.Error,
                        f"{generated.kernel} not inserted: the intent comment moved; run Generate again")
        answer = await self._server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(
            edit=self._insertion(document, line, generated), label=f"Generate {generated.kernel}"))
        if not answer.applied:
            progress.end("not inserted")
            return show(self._server, types.MessageType.Error,
                        f"the editor did not insert {generated.kernel}: {answer.failure_reason or 'no reason given'}")
        assumed = f" (assumed: {'; '.join(spec.assumed)})" if spec.assumed else ""
        progress.end(f"{generated.kernel} inserted")
        choice = await self._server.window_show_message_request_async(types.ShowMessageRequestParams(
            type=types.MessageType.Info, actions=[types.MessageActionItem(title=OPTIMIZE_CHOICE)],
            message=f"{generated.kernel} generated with its contract and NumPy reference{assumed}; optimize it?"))
        if choice is not None and choice.title == OPTIMIZE_CHOICE:
            try:
                await self._inserted(uri, generated.kernel)
            except TimeoutError:
                return show(self._server, types.MessageType.Error, f"{generated.kernel} is not in the document yet: "
                                                                    f"optimize it from its code action")
            self._optimizations.optimize(uri, generated.kernel)

    async def _llm_read(self, intent: str, refused: OptimlError, progress: JobProgress) -> KernelSpec | None:
        """With the LLM on and an endpoint configured, the spec the LLM's reading strategies agree on for an intent
        the built-in readers refused (said, with the reading, as the LLM's); otherwise None, the refusal said."""
        refusal = f"cannot generate from '{intent}': {refused.message} (expected {refused.expected})"
        settings = LlmSettings.from_env() if self._settings.jobs.llm else None
        if settings is None:
            show(self._server, types.MessageType.Error, refusal)
            return None
        progress.report("the built-in readers refused the intent: asking the LLM for its spec form", 10)
        policy = LlmPolicy(settings)
        try:
            reading = await asyncio.to_thread(llm_reading, intent, refused.message, policy)
        finally:
            policy.close()
        readings = "; ".join(f"{strategy}: {said}" for strategy, said in reading.readings)
        if reading.spec is None:
            show(self._server, types.MessageType.Error,
                 f"{refusal}; the LLM's readings do not stand either ({reading.reason}): {readings}")
            return None
        show(self._server, types.MessageType.Info,
             f"read by {reading.spec.read_by} as `{reading.form}`: check it (the kernel's comment says so too)")
        return reading.spec

    async def _llm_seeded(self, generated: GeneratedKernel, progress: JobProgress) -> GeneratedKernel:
        """The fastest LLM kernel verified against the oracle in place of the built-in one, when one is faster; the
        built-in kernel, with a message saying why, when no endpoint is configured or no GPU can verify."""
        settings = LlmSettings.from_env()
        if settings is None:
            show(self._server, types.MessageType.Warning,
                 "the LLM is on but no endpoint is configured (OPTIML_LLM_BASE_URL, OPTIML_LLM_MODEL and "
                 "OPTIML_LLM_API_KEY in the server's environment): the built-in kernel is inserted")
            return generated
        engine = await self._engines.engine()
        if isinstance(engine, NoDevice):
            show(self._server, types.MessageType.Info,
                 f"the LLM's kernels are verified on a GPU before one is used, and there is none here ({engine}): "
                 f"the built-in kernel is inserted")
            return generated
        progress.report(f"{generated.kernel}: asking the LLM and verifying its kernels against the reference", 50)
        seeded, trials = await asyncio.to_thread(llm_seed, generated, engine.evaluator,
                                                 GenerationLlm(settings, generated))
        outcomes = "; ".join(f"{trial.strategy}: {trial.outcome}"
                             + (f" ({trial.speedup:.2f}x the built-in kernel)" if trial.speedup else "")
                             for trial in trials)
        chosen = f"the LLM's {seeded.strategy.removeprefix('llm:')} kernel" if seeded is not generated else \
            "the built-in kernel (no LLM kernel verified faster)"
        show(self._server, types.MessageType.Info, f"{generated.kernel}: {chosen} is inserted; {outcomes}")
        return seeded

    async def _inserted(self, uri: str, kernel: str) -> None:
        """Until the server's copy of the document holds `kernel`: the editor applies an edit and reports the change
        in a notification of its own, in no set order with its answers."""
        async with asyncio.timeout(INSERTED_WAIT_S):
            while (document := self._documents.get(uri)) is not None and \
                    document.cuda.model.kernel(kernel) is None:
                await asyncio.sleep(0.05)

    @staticmethod
    def _generated(spec) -> tuple[GeneratedKernel, bool]:
        generated = first_kernel(generate_kernel(spec))
        return generated, compile_check(generated).ok

    @staticmethod
    def _insertion(document: OpenDocument, line: int, generated: GeneratedKernel) -> types.WorkspaceEdit:
        """Below the comment, after a blank line: directly under it, the contract would join its comment run."""
        below = types.Position(line=line + 1, character=0)
        text = "\n" + generated.text
        if line == document.cuda.text.count("\n"):   # the comment is the last line, with no line break after it
            below = types.Position(line=line, character=len(document.line(line).encode("utf-16-le")) // 2)
            text = "\n\n" + generated.text
        return types.WorkspaceEdit(changes={document.uri: [
            types.TextEdit(range=types.Range(start=below, end=below), new_text=text)]})
