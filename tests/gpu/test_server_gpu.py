"""One real job of each kind through the real server on a GPU: `optiml.profile` fills the cache that hover reads, and
`optiml.optimize` searches with the built-in rules and templates, verifies, and offers a diff that Apply sends as a
workspace edit. No testing hook: the server builds its own engine on the machine's GPUs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from optiml_engine.candidate import original_candidate
from optiml_engine.source.parse import CudaDocument
from tests.lsp.test_jobs import execute, job_end, result_for, start_job, started_client, until
from tests.lsp.test_server import at, copy_example, open_document

pytestmark = [pytest.mark.gpu, pytest.mark.asyncio(loop_scope="module")]

KERNEL_LINE = 14        # `__global__ void relu_scale(...)` in examples/relu_scale.cu
JOB_SECONDS = 480       # the optimization stops at its SOL stop, well within the default budget's 10 minutes


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory):
    environment = {name: value for name, value in os.environ.items() if name != "OPTIML_TEST_ENGINE"}
    environment["OPTIML_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    client = await started_client(environment)
    yield client
    await client.shutdown_session()
    await client.stop()


async def hover_text(client: LanguageClient, path: Path) -> str:
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(KERNEL_LINE, 18)))
    return hover.contents.value


async def test_profile_then_optimize_through_the_server(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "relu_scale.cu")
    await open_document(client, path)
    assert "not profiled yet" in await hover_text(client, path)

    profiled = await job_end(client, await start_job(client, path, "relu_scale", job="profile", seconds=120), 300)
    assert profiled.message.startswith("relu_scale: ") and "% of SOL" in profiled.message
    hover = await hover_text(client, path)
    assert "not profiled yet" not in hover and "of the speed-of-light floor" in hover

    token = await start_job(client, path, "relu_scale", seconds=120)
    end = await job_end(client, token, JOB_SECONDS)
    result = await until(lambda: result_for(client, path, "relu_scale"))
    assert result.accepted and result.speedup > 1.0, end.message
    assert end.message.startswith(f"{result.speedup:.1f}x, verified")
    assert result.diff.startswith("---") and result.trajectory

    await execute(client, "optiml.apply", path.as_uri(), "relu_scale")
    (applied,) = [edit for edit in client.applied_edits if path.as_uri() in edit.edit.changes]
    new_text = applied.edit.changes[path.as_uri()][0].new_text
    assert new_text != path.read_text()
    edited = original_candidate(CudaDocument(new_text, str(path)), "relu_scale")   # the contract still parses
    assert edited.unit.text != original_candidate(CudaDocument(path.read_text(), str(path)), "relu_scale").unit.text
