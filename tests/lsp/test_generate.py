"""Generate from comment end to end: the real server over stdio offers "Generate kernel" on a
`// @optiml generate:` line, runs the job with progress, inserts kernel + contract + oracle below the comment through
workspace/applyEdit, offers Optimize (which starts an optimization job on the new kernel), and answers an intent
outside the families with what is supported. The optimization engine is the unit tests' synthetic one (no GPU)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.test_jobs import execute, job_end, message_with, started_client, synthetic_environment, until
from tests.lsp.test_server import at, open_document
from tests.unit.test_generate_llm import WARP_SUM, WRONG_SIGNATURE
from tests.unit.test_llm_policy import API_KEY, MODEL, Scripted, server  # noqa: F401 (the endpoint fixture)

pytestmark = pytest.mark.asyncio(loop_scope="module")

INTENT = "row-wise softmax of x (rows x cols, float) into y"
FILE = f"#include <cuda_runtime.h>\n\n// @optiml generate: {INTENT}\n\nint main() {{ return 0; }}\n"
INTENT_LINE = 2


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory):
    client = await started_client(synthetic_environment(tmp_path_factory.mktemp("cache")))
    client.message_requests = []
    client.choice = None   # the action the user picks when the server asks

    @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def on_message_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        client.message_requests.append(params)
        if client.choice is not None:   # as an editor does: the applied edit reaches the server as a change
            (uri, (edit,)), = client.applied_edits[-1].edit.changes.items()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)]))
        return client.choice

    yield client
    await client.shutdown_session()
    await client.stop()


async def actions_at(client: LanguageClient, path: Path, line: int) -> list[types.CodeAction]:
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(start=at(line, 5), end=at(line, 5)),
        context=types.CodeActionContext(diagnostics=[]))) or []


def generation_token(client: LanguageClient, known: set) -> str | None:
    return next((token for token, reports in client.progress_reports.items() if token not in known and reports
                 and reports[0].title == "Generating kernel"), None)


async def test_generate_inserts_kernel_below_the_comment_and_offers_optimize(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "generated.cu"
    path.write_text(FILE)
    await open_document(client, path)
    (action,) = await actions_at(client, path, INTENT_LINE)
    # The reading shows before anything is inserted: in the action's title, and in a hover on the comment.
    assert action.title == "Generate kernel, read as: y = softmax(x, axis=-1); x: float32[16384, 1024]"
    assert await actions_at(client, path, INTENT_LINE + 2) == []
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(INTENT_LINE, 8)))
    assert "reads this as" in hover.contents.value and "y = softmax(x, axis=-1)" in hover.contents.value
    assert "rows=16384 (benchmark size for 'rows')" in hover.contents.value

    known = set(client.progress_reports)
    client.choice = types.MessageActionItem(title="Optimize")
    await execute(client, action.command.command, *action.command.arguments)
    token = await until(lambda: generation_token(client, known))
    end = await job_end(client, token)
    assert end.message == "softmax_rows_x inserted"
    reports = [r.message for r in client.progress_reports[token] if r.kind == "report"]
    assert reports == ["row normalization softmax_rows_x: writing and compiling (NVRTC)",
                       "softmax_rows_x compiles: inserting it"]

    (applied,) = [e for e in client.applied_edits if path.as_uri() in e.edit.changes]
    (edit,) = applied.edit.changes[path.as_uri()]
    assert edit.range.start == edit.range.end == at(INTENT_LINE + 1, 0)
    # The first schedule's helpers, then the kernel's comment, contract (with its spec) and the kernel.
    assert edit.new_text.startswith("\n#ifndef OPTIML_") and "\n// y[r,:] = softmax" in edit.new_text
    assert "// Read as: y = softmax(x, axis=-1); x: float32[16384, 1024]\n" in edit.new_text
    assert "reference: y = softmax(reshape(x, rows, cols), 1)" in edit.new_text
    assert "spec:      y = softmax(x, axis=-1); x: float32[16384, 1024]" in edit.new_text
    assert re.search(r"__global__ void __launch_bounds__\(\d+\) softmax_rows_x\(const float\* x, float\* y, int rows, "
                     r"int cols\)", edit.new_text)

    request = await until(lambda: client.message_requests and client.message_requests[-1])
    assert [item.title for item in request.actions] == ["Optimize"]
    assert "softmax_rows_x generated" in request.message and "rows=16384" in request.message
    optimizing = await until(lambda: next((t for t, r in client.progress_reports.items()
                                           if r and r[0].title == "Optimizing softmax_rows_x"), None))
    assert ", verified (" in (await job_end(client, optimizing)).message


async def test_generated_kernel_has_the_kernel_actions_once_inserted(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "inserted.cu"
    path.write_text(FILE)
    await open_document(client, path)
    known = set(client.progress_reports)
    client.choice = None
    await execute(client, "optiml.generate", path.as_uri(), INTENT_LINE)
    await job_end(client, await until(lambda: generation_token(client, known)))
    (applied,) = [e for e in client.applied_edits if path.as_uri() in e.edit.changes]
    (edit,) = applied.edit.changes[path.as_uri()]
    lines = FILE.split("\n")
    text = "\n".join(lines[:INTENT_LINE + 1]) + "\n" + edit.new_text + "\n".join(lines[INTENT_LINE + 1:])
    diagnostics = await open_document(client, path, text)
    assert not [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]
    kernel_line = next(n for n, line in enumerate(text.split("\n")) if "softmax_rows_x(const float* x" in line)
    titles = [a.title for a in await actions_at(client, path, kernel_line + 3)]
    assert "Optimize kernel softmax_rows_x" in titles


async def test_an_intent_outside_the_families_says_what_is_supported(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "unsupported.cu"
    path.write_text("// @optiml generate: sort 1M floats descending\n")
    await open_document(client, path)
    edits_before = len(client.applied_edits)
    await execute(client, "optiml.generate", path.as_uri(), 0)
    message = await until(lambda: message_with(client, "cannot generate from 'sort 1M floats descending'"))
    assert message.type == types.MessageType.Error
    assert "'sort' is not an operation OptiML generates" in message.message and "softmax" in message.message
    assert len(client.applied_edits) == edits_before
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(0, 5)))
    assert "not understood: 'sort' is not an operation OptiML generates" in hover.contents.value


async def test_generating_a_kernel_the_document_has_says_so(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "twice.cu"
    path.write_text(FILE)
    await open_document(client, path)
    known = set(client.progress_reports)
    await execute(client, "optiml.generate", path.as_uri(), INTENT_LINE)
    await job_end(client, await until(lambda: generation_token(client, known)))
    (applied,) = [e for e in client.applied_edits if path.as_uri() in e.edit.changes]
    (edit,) = applied.edit.changes[path.as_uri()]
    lines = FILE.split("\n")
    await open_document(client, path, "\n".join(lines[:INTENT_LINE + 1]) + "\n" + edit.new_text
                        + "\n".join(lines[INTENT_LINE + 1:]))
    await execute(client, "optiml.generate", path.as_uri(), INTENT_LINE)
    message = await until(lambda: message_with(client, "cannot generate softmax_rows_x: the document already has"))
    assert message.type == types.MessageType.Error
    assert len([e for e in client.applied_edits if path.as_uri() in e.edit.changes]) == 1


async def generated_with_llm_on(tmp_path: Path, environment: dict[str, str]) -> tuple[LanguageClient, str]:
    """A server with the LLM on in its settings generates the row sum below its intent comment (declining to
    optimize it); the client, to stop, and the inserted text."""
    client = await started_client(environment, {"llm": True})
    client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)(lambda params: None)   # "optimize it?": not now
    path = tmp_path / "rows.cu"
    path.write_text("// @optiml generate: sum of each row of x (rows x cols)\n")
    await open_document(client, path)
    await execute(client, "optiml.generate", path.as_uri(), 0)
    (edit,) = (await until(lambda: client.applied_edits, 60))[0].edit.changes[path.as_uri()]
    return client, edit.new_text


async def stopped(client: LanguageClient) -> None:
    await client.shutdown_session()
    await client.stop()


async def test_with_the_llm_on_its_fastest_verified_kernel_is_inserted(tmp_path: Path, server):  # noqa: F811
    """The client turns the LLM on; the endpoint (a scripted one on 127.0.0.1) answers the three strategies: a
    faster kernel (the synthetic engine times it at 0.4 of the built-in one), one with the wrong signature, one no
    faster. The faster one, verified, is inserted in place of the built-in kernel."""
    faster = WARP_SUM.replace("    float acc = 0.0f;\n", "// edit coalesce\n    float acc = 0.0f;\n")
    server.script = [Scripted(faster), Scripted(WRONG_SIGNATURE), Scripted(WARP_SUM)]
    environment = {name: value for name, value in synthetic_environment(tmp_path / "cache").items()
                   if name.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    environment.update(OPTIML_LLM_BASE_URL=server.url, OPTIML_LLM_MODEL=MODEL, OPTIML_LLM_API_KEY=API_KEY,
                       OPTIML_LLM_MAX_RETRIES="0")
    client, inserted = await generated_with_llm_on(tmp_path, environment)
    try:
        assert "__shfl_xor_sync" in inserted and "// edit coalesce" in inserted
        assert re.search(r"launch:\s+grid=cdiv\(rows,8\) block=256", inserted)   # its launch line came too
        said = await until(lambda: message_with(client, "sum_rows_x: the LLM's"))
        assert "kernel is inserted" in said.message and "2.50x the built-in kernel" in said.message
        assert len(server.received) == 3
    finally:
        await stopped(client)


async def test_with_the_llm_on_and_no_gpu_the_built_in_kernel_is_inserted(tmp_path: Path, server):  # noqa: F811
    environment = {name: value for name, value in synthetic_environment(tmp_path / "cache").items()
                   if name != "OPTIML_TEST_ENGINE"}
    environment.update(OPTIML_LLM_BASE_URL=server.url, OPTIML_LLM_MODEL=MODEL, OPTIML_LLM_API_KEY=API_KEY)
    client, inserted = await generated_with_llm_on(tmp_path, environment)
    try:
        assert "OptiML schedule of the loop-nest program: reduce" in inserted   # the built-in first kernel
        assert await until(lambda: message_with(client, "verified on a GPU before one is used, and there is none"))
        assert server.received == []                                   # the endpoint was not asked
    finally:
        await stopped(client)


async def test_with_the_llm_on_an_intent_the_readers_refuse_is_read_by_the_llm(tmp_path: Path, server):  # noqa: F811
    """The built-in readers refuse the intent; the LLM's three reading strategies agree on a spec form: the kernel
    built from it is inserted, its comment saying the LLM read it, and a message says so. (No GPU: the built-in
    kernel of that spec, the LLM's kernels not asked for.)"""
    from tests.unit.test_generate_llm import REFUSED, SQUARED_DIFFERENCES
    server.script = [Scripted(SQUARED_DIFFERENCES)] * 3
    environment = {name: value for name, value in synthetic_environment(tmp_path / "cache").items()
                   if name != "OPTIML_TEST_ENGINE"}
    environment.update(OPTIML_LLM_BASE_URL=server.url, OPTIML_LLM_MODEL=MODEL, OPTIML_LLM_API_KEY=API_KEY,
                       OPTIML_LLM_MAX_RETRIES="0")
    client = await started_client(environment, {"llm": True})
    client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)(lambda params: None)
    path = tmp_path / "sq.cu"
    path.write_text(f"// @optiml generate: {REFUSED}\n")
    try:
        await open_document(client, path)
        await execute(client, "optiml.generate", path.as_uri(), 0)
        (edit,) = (await until(lambda: client.applied_edits, 60))[0].edit.changes[path.as_uri()]
        assert f"// Read by the LLM ({MODEL}, 3 of 3 strategies agree), not by OptiML's readers" in edit.new_text
        assert "spec:      s = sum(((a - b) * (a - b)));" in edit.new_text and "atomicAdd(&s[0], " in edit.new_text
        said = await until(lambda: message_with(client, "read by the LLM"))
        assert "check it" in said.message and len(server.received) == 3
    finally:
        await stopped(client)
