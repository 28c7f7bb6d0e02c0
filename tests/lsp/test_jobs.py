"""Background optimization jobs end to end: the real server process over stdio, its engine replaced (through the
OPTIML_TEST_ENGINE testing hook) by the unit tests' deterministic evaluator, slowed to 50 ms an evaluation. The
client sets a budget of 40 candidates in its initializationOptions, as the VS Code extension does."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.uris import to_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

from optiml_engine.optimize import optimize
from optiml_engine.search.mcts import SearchBudget, SearchConfig
from optiml_engine.source.contract import parse_contract
from optiml_engine.source.parse import CudaDocument
from tests.lsp.test_server import (
    REPO,
    UNCONTRACTED,
    add_contract_fix,
    at,
    change_document,
    copy_example,
    decode_code_actions_by_the_spec,
    open_document,
)
from tests.unit.test_optimize import SyntheticEvaluator
from tests.unit.test_search import SyntheticPolicy

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANGED_SINCE = "the document changed since the optimization started; run Optimize again"
KERNEL_LINE = 14   # `__global__ void vector_add(...)` in examples/vector_add.cu
BUDGET = {"candidates": 40, "seconds": 60}
PROGRESS = re.compile(r"^\d+/40 candidates, best \d+\.\dx, \d+% of SOL$")


def no_gpu_environment(cache: Path) -> dict[str, str]:
    """The server's environment with a cache of its own and no GPU, even on a machine with one."""
    environment = {name: value for name, value in os.environ.items() if name != "OPTIML_GPUS"}
    environment.update(OPTIML_CACHE=str(cache), CUDA_VISIBLE_DEVICES="")
    return environment


def synthetic_environment(cache: Path) -> dict[str, str]:
    """The server's environment with its engine replaced by the deterministic one, and no GPU looked for."""
    return {**no_gpu_environment(cache), "OPTIML_TEST_ENGINE": "tests.lsp.synthetic_engine:synthetic_engine"}


def server_config(environment: dict[str, str]) -> ClientServerConfig:
    return ClientServerConfig(server_command=[sys.executable, "-m", "server.app"], server_env=environment)


async def started_client(environment: dict[str, str], options: dict | None = None) -> LanguageClient:
    """The real server over stdio, initialized as an editor with progress, applyEdit and showDocument support would,
    with `options` as its initializationOptions; it records every optiml/result notification (`client.results`) and
    optiml/jobs notification (`client.job_lists`), answers every workspace/applyEdit "applied"
    (`client.applied_edits`); pytest-lsp records window/showDocument requests (`client.shown_documents`)."""
    client = await server_config(environment).start()
    decode_code_actions_by_the_spec(client)
    client.results = []
    client.job_lists = []
    client.applied_edits = []

    @client.feature("optiml/result")
    def on_result(params) -> None:
        client.results.append(params)

    @client.feature("optiml/jobs")
    def on_jobs(params) -> None:
        client.job_lists.append([(job.uri, job.kernel) for job in params.jobs])

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def on_apply_edit(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)

    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            window=types.WindowClientCapabilities(work_done_progress=True,
                                                  show_document=types.ShowDocumentClientCapabilities(support=True)),
            workspace=types.WorkspaceClientCapabilities(apply_edit=True),
            text_document=types.TextDocumentClientCapabilities(
                code_action=types.CodeActionClientCapabilities(
                    code_action_literal_support=types.ClientCodeActionLiteralOptions(
                        code_action_kind=types.ClientCodeActionKindOptions(value_set=list(types.CodeActionKind))),
                    data_support=True,    # as VS Code: the server may leave a code action's edit to resolve
                    resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"])),
                hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown])),
        ),
        root_uri=REPO.as_uri(),
        initialization_options=options,
    ))
    return client


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory):
    client = await started_client(synthetic_environment(tmp_path_factory.mktemp("cache")), {"budget": BUDGET})
    yield client
    await client.shutdown_session()
    await client.stop()


async def until(condition, seconds: float = 20):
    """Waits for `condition()` to return something true, and returns it."""
    async with asyncio.timeout(seconds):
        while not (found := condition()):
            await asyncio.sleep(0.02)
    return found


async def execute(client: LanguageClient, command: str, *arguments: str):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command=command,
                                                                            arguments=list(arguments)))


async def start_job(client: LanguageClient, path: Path, kernel: str = "vector_add", job: str = "optimize",
                    seconds: float = 20) -> str:
    """Starts a job (`optiml.optimize` or `optiml.profile`); returns its progress token once it has begun."""
    known = set(client.progress_reports)
    await execute(client, f"optiml.{job}", path.as_uri(), kernel)
    title = {"optimize": "Optimizing", "profile": "Profiling"}[job]

    def begun() -> str | None:
        return next((token for token, reports in client.progress_reports.items() if token not in known and reports
                     and reports[0].title == f"{title} {kernel}"), None)
    return await until(begun, seconds)


async def job_end(client: LanguageClient, token: str, seconds: float = 20) -> types.WorkDoneProgressEnd:
    return await until(lambda: next((r for r in client.progress_reports[token] if r.kind == "end"), None), seconds)


def result_for(client: LanguageClient, path: Path, kernel: str = "vector_add"):
    return next((r for r in reversed(client.results) if r.uri == path.as_uri() and r.kernel == kernel), None)


def message_with(client: LanguageClient, text: str) -> types.ShowMessageParams | None:
    return next((m for m in client.messages if text in m.message), None)


async def code_action_titles(client: LanguageClient, path: Path) -> list[str]:
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(start=at(KERNEL_LINE + 2, 8), end=at(KERNEL_LINE + 2, 8)),
        context=types.CodeActionContext(diagnostics=[])))
    return [action.title for action in actions]


async def optimized(client: LanguageClient, path: Path):
    """Opens the file, optimizes vector_add to its end, and returns the optiml/result notification's params."""
    await open_document(client, path)
    await job_end(client, await start_job(client, path))
    return await until(lambda: result_for(client, path))


async def test_progress_result_and_apply(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await open_document(client, path)
    token = await start_job(client, path)
    end = await job_end(client, token)
    begin, *reports, _ = client.progress_reports[token]
    assert begin.kind == "begin" and begin.cancellable and begin.percentage == 0
    assert reports and all(PROGRESS.match(report.message) for report in reports)
    assert [report.percentage for report in reports] == sorted(report.percentage for report in reports)
    result = await until(lambda: result_for(client, path))
    assert result.accepted and result.speedup > 5 and "// edit" in result.diff and result.trajectory
    assert end.message.startswith(f"{result.speedup:.1f}x, verified")
    assert f"Apply optimized kernel ({result.speedup:.1f}x, verified)" in await code_action_titles(client, path)

    assert await execute(client, "optiml.apply", path.as_uri(), "vector_add") is True
    (applied,) = [edit for edit in client.applied_edits if path.as_uri() in edit.edit.changes]
    (text_edit,) = applied.edit.changes[path.as_uri()]
    text = path.read_text()
    assert text_edit.range == types.Range(start=at(0, 0), end=at(text.count("\n"), 0))
    assert "// edit" in text_edit.new_text and text_edit.new_text != text
    assert text_edit.new_text == result.new_text   # what a client shows in its diff view is what Apply writes
    assert not any(title.startswith("Apply") for title in await code_action_titles(client, path))


async def test_cancel_keeps_the_best_so_far(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await open_document(client, path)
    token = await start_job(client, path)
    await until(lambda: any(r.kind == "report" and r.percentage >= 10 for r in client.progress_reports[token]))
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    end = await job_end(client, token)
    assert "(cancelled)" in end.message
    last = [r for r in client.progress_reports[token] if r.kind == "report"][-1]
    assert int(last.message.split("/")[0]) < BUDGET["candidates"]
    result = await until(lambda: result_for(client, path))
    assert result.accepted and result.speedup > 1


async def test_jobs_are_listed_and_cancelled_by_kernel(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await open_document(client, path)
    listed = len(client.job_lists)
    token = await start_job(client, path)
    assert (path.as_uri(), "vector_add") in client.job_lists[listed]
    await until(lambda: any(r.kind == "report" for r in client.progress_reports[token]))
    await execute(client, "optiml.cancel", path.as_uri(), "vector_add")
    assert "(cancelled)" in (await job_end(client, token)).message
    assert (path.as_uri(), "vector_add") not in client.job_lists[-1]
    await execute(client, "optiml.cancel", path.as_uri(), "vector_add")
    assert await until(lambda: message_with(client, "no job on vector_add is running"))


async def test_the_lint_severity_setting_decides_how_findings_show(tmp_path: Path):
    client = await started_client(synthetic_environment(tmp_path), {"lints": {"severity": "warning"}})
    diagnostics = await open_document(client, copy_example(tmp_path, "row_max.cu"))
    lints = [d for d in diagnostics if d.code is not None]
    assert lints and all(d.severity == types.DiagnosticSeverity.Warning for d in lints)
    await client.shutdown_session()
    await client.stop()


async def test_invalid_settings_say_which_and_fall_back_to_the_defaults(tmp_path: Path):
    client = await server_config(synthetic_environment(tmp_path)).start()
    await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), initialization_options={"budget": {"candidates": "many"}}))
    error = await until(lambda: message_with(client, "OptiML settings: budget.candidates: "))
    assert error.type == types.MessageType.Error and error.message.endswith("; using the defaults")
    await client.shutdown_session()
    await client.stop()


async def test_optimize_without_a_gpu_runs_the_dry_run_and_opens_its_report(tmp_path: Path):
    """No GPU and no testing engine: Optimize writes the dry run (program, findings at file:line, first candidates
    compiled) as Markdown under the cache folder and opens it; its progress ends saying it was a dry run and why. A
    contract error ends it with the located error."""
    cache = tmp_path / "cache"
    client = await started_client(no_gpu_environment(cache))
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    end = await job_end(client, await start_job(client, path, "row_max", seconds=120))
    assert re.fullmatch(r"dry run, no search: no GPU here \(no CUDA device available .*\); (\d+) of \1 first "
                        r"candidates compiled, none verified or timed", end.message), end.message
    (shown,) = client.shown_documents
    report = Path(to_fs_path(shown.uri))
    assert report.parent.parent == cache / "dry-runs" and report.name == "row_max.cu.row_max.md"
    text = report.read_text()
    assert text.startswith(f"# Dry run of optimize on `row_max`\n\n`{path}`: no GPU here (no CUDA device")
    assert "```\nprogram row_max(float const x[], float out[], int rows, int cols)\nparallel for row" in text
    assert f"- `{path}:19`: `warp_per_row` [uncoalesced_loads]: one thread per row" in text
    assert f"- `{path}:14`: `restrict_readonly` [memory]: pointer parameters are not \\_\\_restrict\\_\\_" in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == int(end.message.split(" of ")[1].split()[0])
    assert rows[0].startswith("| 1 | `schedule_map` | memory | yes | ")   # registers, spills, shared, what it is

    await change_document(client, path, 2, (8, 24, 8, 25, "z"))   # `out float[rows]` becomes `out float[rowz]`
    end = await job_end(client, await start_job(client, path, "row_max"))
    assert re.fullmatch(rf"no dry run: {re.escape(str(path))}:9:22: error: unknown size symbol 'rowz'.*", end.message)
    assert (await until(lambda: message_with(client, f"{path}:9:22: error: unknown size symbol 'rowz'"))).type == \
        types.MessageType.Error
    assert len(client.shown_documents) == 1
    await client.shutdown_session()
    await client.stop()


async def test_two_kernels_at_once_and_one_job_per_kernel(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    text = path.read_text()
    second = text[text.index("/* @optiml"):text.index("int main()")].replace("vector_add", "vector_add_again")
    path.write_text(text.replace("int main()", second + "int main()"))
    await open_document(client, path)
    first = await start_job(client, path, "vector_add")
    again = await start_job(client, path, "vector_add_again")
    assert not any(r.kind == "end" for r in client.progress_reports[first])   # both run at once
    await execute(client, "optiml.optimize", path.as_uri(), "vector_add")
    assert await until(lambda: message_with(client, "optimization of vector_add is already running"))
    for token in (first, again):
        assert ", verified (" in (await job_end(client, token)).message
    assert (await until(lambda: result_for(client, path, "vector_add"))).accepted
    assert (await until(lambda: result_for(client, path, "vector_add_again"))).accepted


async def test_a_change_before_apply_refuses_it(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await optimized(client, path)
    await change_document(client, path, 2, (0, 0, 0, 0, "// touched\n"))
    assert await execute(client, "optiml.apply", path.as_uri(), "vector_add") is False
    refusal = await until(lambda: message_with(client, f"vector_add not applied: {CHANGED_SINCE}"))
    assert refusal.type == types.MessageType.Error
    assert not any(path.as_uri() in edit.edit.changes for edit in client.applied_edits)


async def test_reject_drops_the_apply_action(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await optimized(client, path)
    assert any(title.startswith("Apply optimized kernel") for title in await code_action_titles(client, path))
    await execute(client, "optiml.reject", path.as_uri(), "vector_add")
    assert not any(title.startswith("Apply optimized kernel") for title in await code_action_titles(client, path))


async def test_open_a_saved_result_and_apply_it(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    saved = optimize(CudaDocument(path.read_text(), str(path)), "vector_add", SyntheticEvaluator(),
                     [SyntheticPolicy()], SearchBudget(candidates=30, seconds=60, sol_stop=1.0), SearchConfig(seed=1))
    result_file = tmp_path / "elsewhere.json"
    result_file.write_text(saved.model_dump_json())
    await open_document(client, path)
    await execute(client, "optiml.openResult", str(result_file))
    offered = await until(lambda: result_for(client, path))
    assert offered.diff == saved.diff
    assert f"Apply optimized kernel ({saved.speedup:.1f}x, verified)" in await code_action_titles(client, path)
    await execute(client, "optiml.apply", path.as_uri(), "vector_add")
    (applied,) = [edit for edit in client.applied_edits if path.as_uri() in edit.edit.changes]
    assert applied.edit.changes[path.as_uri()][0].new_text == saved.new_text


async def test_a_bad_result_file_says_why(client: LanguageClient, tmp_path: Path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"kernel": "vector_add"')
    await execute(client, "optiml.openResult", str(broken))
    error = await until(lambda: message_with(client, f"{broken} is not an OptiML optimization result"))
    assert error.type == types.MessageType.Error
    await execute(client, "optiml.openResult", str(tmp_path / "missing.json"))
    assert await until(lambda: message_with(client, f"cannot read the result file {tmp_path / 'missing.json'}"))


async def test_hover_and_code_actions_stay_fast_while_a_job_runs(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await open_document(client, path)
    token = await start_job(client, path)
    await until(lambda: any(r.kind == "report" for r in client.progress_reports[token]))
    for _ in range(5):
        began = time.perf_counter()
        await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(KERNEL_LINE, 18)))
        await code_action_titles(client, path)
        assert time.perf_counter() - began < 0.1
    assert not any(r.kind == "end" for r in client.progress_reports[token])   # measured while it ran
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    await job_end(client, token)


async def test_a_failing_job_ends_with_a_message_and_the_server_keeps_running(client: LanguageClient,
                                                                             tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    path.write_text(path.read_text().replace("vector_add", "exploding_add"))
    await open_document(client, path)
    end = await job_end(client, await start_job(client, path, "exploding_add"))
    expected = "optimization of exploding_add failed: RuntimeError: the synthetic evaluator fails on purpose"
    assert end.message == expected
    assert (await until(lambda: message_with(client, expected))).type == types.MessageType.Error
    assert await code_action_titles(client, path)   # still answering


async def test_profile_runs_as_a_job_beside_an_optimization(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "vector_add.cu")
    await open_document(client, path)
    optimizing = await start_job(client, path)
    profiling = await start_job(client, path, job="profile")
    end = await job_end(client, profiling)
    assert re.fullmatch(r"vector_add: memory-bound \(\d+\.\d{4} ms, \d+% of SOL\)", end.message), end.message
    assert [r.message for r in client.progress_reports[profiling] if r.kind == "report"] == [
        "profiling with Nsight Compute"]
    said = await until(lambda: message_with(client, end.message))
    assert said.type == types.MessageType.Info and "hover the kernel's name" in said.message
    assert not any(r.kind == "end" for r in client.progress_reports[optimizing])   # both at once
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=optimizing))
    await job_end(client, optimizing)


async def test_add_benchmark_contract_is_inferred_when_picked(client: LanguageClient, tmp_path: Path):
    """A client that resolves code actions gets the fix without its edit (inference runs the kernel on the CPU:
    not on every request as the cursor moves), and the edit when it resolves the fix."""
    path, fix = await add_contract_fix(client, tmp_path)
    assert fix.edit is None
    resolved = await client.code_action_resolve_async(fix)
    (edit,) = resolved.edit.changes[path.as_uri()]
    assert edit.range == types.Range(start=at(0, 0), end=at(0, 0))
    contract = parse_contract(CudaDocument(edit.new_text + UNCONTRACTED, str(path)).model.kernel("scale"), str(path))
    assert contract.launch.grid == ["cdiv(n,256)"] and [a.direction for a in contract.arrays] == ["in", "out"]
