"""The language server end to end: the real `python -m server.app` process over stdio, driven by pytest-lsp.

One server serves the whole module (its start, imports included, is most of the time); each test opens its own
copy of an example under a temporary directory, so no test sees another's document or writes next to examples/.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

import diskcache
import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from optiml_engine.candidate import original_candidate
from optiml_engine.diagnosis import Diagnosis
from optiml_engine.evaluate import Profile, measurement_key, profile_key
from optiml_engine.gpu.device import ceilings_key
from optiml_engine.gpu.profile import KernelProfile
from optiml_engine.model import (
    DeviceCeilings,
    DeviceInfo,
    Measurement,
    SolReport,
    SpeedupStats,
    TimingPolicy,
    TimingStats,
    VerifyPolicy,
)
from optiml_engine.optimize import OptimizationResult, source_hash
from optiml_engine.source.contract import parse_contract
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.asyncio(loop_scope="module")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REPO = EXAMPLES.parent

UNCONTRACTED = """\
__global__ void scale(const float* x, float* y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}

void run(const float* x, float* y, float a, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, y, a, n);
}
"""


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(cache_dir: Path):
    # a cache of its own, and no GPU even on a machine with one: the tests are about the server, not the device
    environment = {name: value for name, value in os.environ.items() if name != "OPTIML_GPUS"}
    environment.update(OPTIML_CACHE=str(cache_dir), CUDA_VISIBLE_DEVICES="")
    config = ClientServerConfig(server_command=[sys.executable, "-m", "server.app"], server_env=environment)
    client = await config.start()
    decode_code_actions_by_the_spec(client)
    client.initialize_result = await client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(
            text_document=types.TextDocumentClientCapabilities(
                code_action=types.CodeActionClientCapabilities(
                    code_action_literal_support=types.ClientCodeActionLiteralOptions(
                        code_action_kind=types.ClientCodeActionKindOptions(value_set=list(types.CodeActionKind)))),
                hover=types.HoverClientCapabilities(content_format=[types.MarkupKind.Markdown]),
                publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            ),
            window=types.WindowClientCapabilities(show_message=types.ShowMessageRequestClientCapabilities()),
        ),
        root_uri=REPO.as_uri(),
    ))
    yield client
    await client.shutdown_session()
    await client.stop()


def decode_code_actions_by_the_spec(client: LanguageClient) -> None:
    """lsprotocol 2025.0.0 decodes every code action with a `command` member as a Command, a CodeAction's command
    object included (the server's JSON is right); the spec tells them apart by whether `command` is a string."""
    converter = client.protocol._converter

    def command_or_code_action(item: dict, _: type) -> types.Command | types.CodeAction:
        kind = types.Command if isinstance(item.get("command"), str) else types.CodeAction
        return converter.structure(item, kind)

    converter.register_structure_hook(types.Command | types.CodeAction, command_or_code_action)


def copy_example(directory: Path, name: str) -> Path:
    return Path(shutil.copy(EXAMPLES / name, directory / name))


async def open_document(client: LanguageClient, path: Path, text: str | None = None) -> list[types.Diagnostic]:
    text = path.read_text() if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=path.as_uri(), language_id="cuda-cpp", version=1, text=text)))
    return await published(client, path.as_uri())


async def change_document(client: LanguageClient, path: Path, version: int,
                          *changes: tuple[int, int, int, int, str]) -> list[types.Diagnostic]:
    """Incremental changes, each (start line, start character, end line, end character, new text) in UTF-16."""
    client.diagnostics.pop(path.as_uri(), None)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=a, character=b), end=types.Position(line=c, character=d)),
            text=new) for a, b, c, d, new in changes]))
    return await published(client, path.as_uri())


async def published(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    async with asyncio.timeout(10):
        while uri not in client.diagnostics:
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


def at(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def errors(diagnostics: list[types.Diagnostic]) -> list[types.Diagnostic]:
    return [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]


async def test_initialize_advertises_the_features(client: LanguageClient):
    capabilities = client.initialize_result.capabilities
    assert capabilities.hover_provider
    assert capabilities.code_lens_provider is not None
    assert capabilities.code_action_provider is not None
    assert set(capabilities.execute_command_provider.commands) == {
        "optiml.optimize", "optiml.profile", "optiml.apply", "optiml.reject", "optiml.openResult", "optiml.generate",
        "optiml.cancel"}


async def test_example_has_lints_and_no_contract_errors(client: LanguageClient, tmp_path: Path):
    diagnostics = await open_document(client, copy_example(tmp_path, "row_max.cu"))
    assert errors(diagnostics) == []
    lints = {d.code: d for d in diagnostics}
    assert {"warp_per_row", "restrict_readonly"} <= lints.keys()
    warp_per_row = lints["warp_per_row"]
    assert warp_per_row.source == "optiml"
    assert warp_per_row.severity == types.DiagnosticSeverity.Hint      # unless the settings say otherwise
    assert warp_per_row.range.start == at(18, 8)   # the `for` over the row
    assert "32 sectors" in warp_per_row.message
    assert lints["unroll"].severity == types.DiagnosticSeverity.Hint


async def test_one_lint_per_kernel_and_symptom_with_the_other_places_related(client: LanguageClient, tmp_path: Path):
    """Three loops of a layernorm, each a `#pragma unroll 4` candidate: one diagnostic at the first, the other two
    as its related information (lines 16 and 18 of the fixture, 0-based 15 and 17)."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "layernorm_three_loops.cu"
    path = Path(shutil.copy(fixture, tmp_path / fixture.name))
    diagnostics = [d for d in await open_document(client, path) if d.source == "optiml"]
    codes = [d.code for d in diagnostics]
    assert len(codes) == len(set(codes)) and "unroll" in codes
    unroll = next(d for d in diagnostics if d.code == "unroll")
    assert unroll.range.start.line == 12 and "2 more places" in unroll.message
    assert [r.location.range.start.line for r in unroll.related_information] == [15, 17]
    assert all(r.location.uri == path.as_uri() and "#pragma unroll 4" in r.message
               for r in unroll.related_information)


async def test_breaking_the_contract_gives_a_located_error(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    # line 9 of the file: `   out:    out float[rows]`; `rows` becomes `rowz`
    diagnostics = await change_document(client, path, 2, (8, 24, 8, 25, "z"))
    (error,) = errors(diagnostics)
    assert "unknown size symbol 'rowz'" in error.message
    assert error.range == types.Range(start=at(8, 21), end=at(8, 25))
    repaired = await change_document(client, path, 3, (8, 24, 8, 25, "s"))
    assert errors(repaired) == []


async def test_changes_after_non_ascii_text_are_counted_in_utf16(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    # before `for` (line 19, column 8): a comment of an astral and a two-byte character, 5 UTF-16 units with the
    # space after them (7 UTF-8 bytes), then two more characters at the UTF-16 column right after that comment
    await change_document(client, path, 2, (18, 8, 18, 8, "/*😀é*/ "))
    diagnostics = await change_document(client, path, 3, (18, 16, 18, 16, "  "))
    loop_lints = [d for d in diagnostics if d.code == "warp_per_row"]
    assert [d.range.start for d in loop_lints] == [at(18, 18)]
    assert errors(diagnostics) == []


async def test_code_actions_on_a_kernel(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(start=at(20, 12), end=at(20, 12)), context=types.CodeActionContext(diagnostics=[])))
    commands = {action.command.command: list(action.command.arguments) for action in actions if action.command}
    assert commands == {"optiml.optimize": [path.as_uri(), "row_max"], "optiml.profile": [path.as_uri(), "row_max"]}
    assert "Add benchmark contract" not in [action.title for action in actions]   # it has one
    outside = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(start=at(30, 4), end=at(30, 4)), context=types.CodeActionContext(diagnostics=[])))
    assert outside is None   # in main()


async def add_contract_fix(client: LanguageClient, tmp_path: Path) -> tuple[Path, types.CodeAction]:
    """UNCONTRACTED opened, and the one quick fix asked for inside its kernel."""
    path = tmp_path / "scale.cu"
    path.write_text(UNCONTRACTED)
    await open_document(client, path)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        range=types.Range(start=at(3, 10), end=at(3, 10)),
        context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix])))
    (fix,) = actions
    assert fix.title == "Add benchmark contract"
    return path, fix


async def test_add_benchmark_contract_quick_fix(client: LanguageClient, tmp_path: Path):
    path, fix = await add_contract_fix(client, tmp_path)   # this client does not resolve: the edit comes at once
    (edit,) = fix.edit.changes[path.as_uri()]
    assert edit.range == types.Range(start=at(0, 0), end=at(0, 0))
    fixed = edit.new_text + UNCONTRACTED
    document = CudaDocument(fixed, str(path))
    contract = parse_contract(document.model.kernel("scale"), str(path))
    assert contract.launch.grid == ["cdiv(n,256)"]   # taken from the launch site
    diagnostics = await change_document(client, path, 2, (0, 0, 0, 0, edit.new_text))
    assert errors(diagnostics) == []


async def quick_fixes(client: LanguageClient, path: Path, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    """The quick fixes for `diagnostic`, asked as an editor does: at its range, with it in the context."""
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
    return actions or []


@pytest.mark.parametrize("rule, rewritten", [("unroll", "#pragma unroll 4"), ("warp_per_row", "__shfl_xor_sync")])
async def test_a_lint_quick_fix_writes_its_rules_rewrite(client: LanguageClient, tmp_path: Path, rule: str,
                                                         rewritten: str):
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "layernorm_three_loops.cu"
    path = Path(shutil.copy(fixture, tmp_path / fixture.name))
    text = path.read_text()
    lint = next(d for d in await open_document(client, path) if d.code == rule)
    (fix,) = [action for action in await quick_fixes(client, path, lint) if action.title.startswith("Rewrite: ")]
    assert fix.title.endswith("(not yet verified: Optimize measures it)")
    assert fix.kind == types.CodeActionKind.QuickFix and list(fix.diagnostics) == [lint]
    (edit,) = fix.edit.changes[path.as_uri()]
    assert edit.range == types.Range(start=at(0, 0), end=at(text.count("\n"), 0))
    assert edit.new_text != text and rewritten in edit.new_text and rewritten not in text
    fixed = CudaDocument(edit.new_text, str(path))
    assert [k.name for k in fixed.model.kernels] == ["layernorm"] and not fixed.model.syntax_problems
    original = original_candidate(CudaDocument(text, str(path)), "layernorm")
    candidate = original_candidate(fixed, "layernorm")   # its contract holds
    assert (candidate.contract.launch != original.contract.launch) == (rule == "warp_per_row")
    diagnostics = await change_document(client, path, 2, (0, 0, text.count("\n"), 0, edit.new_text))
    assert errors(diagnostics) == [] and rule not in {d.code for d in diagnostics}


async def test_no_rewrite_quick_fix_without_a_contract(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "scale.cu"
    path.write_text(UNCONTRACTED)
    lints = [d for d in await open_document(client, path) if d.code is not None]
    assert lints
    for lint in lints:
        titles = [action.title for action in await quick_fixes(client, path, lint)]
        assert titles == ["Add benchmark contract"]


async def test_code_lenses_and_the_result_file(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    request = types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()))
    lenses = await client.text_document_code_lens_async(request)
    assert [(lens.range.start, lens.command.title) for lens in lenses] == [(at(13, 0), "Optimize"),
                                                                           (at(13, 0), "Profile")]
    path.with_name("row_max.cu.optiml.json").write_text(optimization_result(path).model_dump_json())
    titles = [lens.command.title for lens in await client.text_document_code_lens_async(request)]
    assert titles == ["Optimize", "Profile", "3.4x faster available", "91% of SOL"]


async def test_hover_on_a_kernel_name_not_profiled(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(13, 18)))
    assert "not profiled yet" in hover.contents.value
    assert f"optiml profile {path} --kernel row_max" in hover.contents.value
    # The kernel's loop-nest program, and the schedules the search takes for it, need no GPU.
    assert "parallel for row in [0, rows):" in hover.contents.value
    assert "reduce (a thread group per point along its loops, lanes along x)" in hover.contents.value
    assert hover.range == types.Range(start=at(13, 16), end=at(13, 23))


async def test_hover_shows_a_cached_profile_fast(client: LanguageClient, tmp_path: Path, cache_dir: Path):
    path = copy_example(tmp_path, "row_max.cu")
    await open_document(client, path)
    store_profile(cache_dir, path)
    request = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri()), position=at(13, 18))
    await client.text_document_hover_async(request)   # the first hover after the cache grew looks for its devices
    began = time.perf_counter()
    hover = await client.text_document_hover_async(request)
    elapsed = time.perf_counter() - began
    assert hover.contents.value.startswith("**row_max**: memory-bound: DRAM 92% of peak")
    assert "91% of the speed-of-light floor" in hover.contents.value
    assert elapsed < 0.05


async def job_message(client: LanguageClient, path: Path, command: str, seconds: float) -> types.ShowMessageParams:
    """Opens the file, runs `optiml.<command>` on its row_max, and returns the first message the server shows."""
    await open_document(client, path)
    shown = client.protocol.wait_for_notification_async(types.WINDOW_SHOW_MESSAGE)
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=f"optiml.{command}", arguments=[path.as_uri(), "row_max"]))
    async with asyncio.timeout(seconds):
        return await shown


async def test_profile_without_a_gpu_says_so(client: LanguageClient, tmp_path: Path):
    path = copy_example(tmp_path, "row_max.cu")
    message = await job_message(client, path, "profile", 20)
    assert message.type == types.MessageType.Error
    assert message.message.startswith("no CUDA device available: profiling of row_max needs an NVIDIA GPU")
    assert f"optiml profile {path} --kernel row_max" in message.message


async def test_optimize_without_a_gpu_names_its_dry_run_report_to_a_client_that_cannot_open_it(
        client: LanguageClient, tmp_path: Path, cache_dir: Path):
    """This client supports neither progress nor window/showDocument: a message says what the dry run did and where
    its report is (tests/lsp/test_jobs.py has the client that opens it)."""
    message = await job_message(client, copy_example(tmp_path, "row_max.cu"), "optimize", 120)
    assert message.type == types.MessageType.Info
    assert message.message.startswith("dry run, no search: no GPU here (no CUDA device available")
    report = Path(message.message.split("; the report: ")[1])
    assert report.parent.parent == cache_dir / "dry-runs" and report.name == "row_max.cu.row_max.md"
    assert "parallel for row in [0, rows):" in report.read_text()


def measured(ms: float, speedup: float | None) -> Measurement:
    """A verified row_max timed at `ms`, against a floor of 0.091 ms."""
    timing = TimingStats(median_ms=ms, ci_low_ms=ms, ci_high_ms=ms, iqr_ms=0, spread_ms=0, min_ms=ms, max_ms=ms,
                         runs=20)
    sol = SolReport(bytes=1, flops=0, floor_ms=0.091, bound="memory", headroom=ms / 0.091,
                    percent_of_sol=100 * 0.091 / ms, achieved_gbps=1, achieved_gflops=0, suspect=False)
    return Measurement(kernel="row_max", candidate_key="k", description="", verdict="ok", timing=timing, sol=sol,
                       speedup=speedup and SpeedupStats(median=speedup, ci_low=speedup, ci_high=speedup, pairs=20))


def optimization_result(path: Path) -> OptimizationResult:
    """What `optiml optimize` would write after a 3.4x win at 91% of the floor (no GPU ran it)."""
    final = measured(0.1, 3.4)
    return OptimizationResult(path=str(path), kernel="row_max", date="2025-01-01", device=None,
                              source_sha256=source_hash(path.read_text()), original=measured(0.34, None), best=final,
                              final=final, accepted=True)


def store_profile(cache_dir: Path, path: Path) -> None:
    """What `optiml profile FILE` leaves in the cache on an H100, for the file as it is now (no GPU ran it)."""
    device = DeviceInfo(index=0, name="NVIDIA H100 80GB HBM3", compute_capability="9.0", sm_count=132,
                        l2_bytes=50 << 20, memory_bytes=80 << 30, sm_clock_mhz=1980, memory_clock_mhz=2619,
                        driver="13.0", runtime="13.0")
    candidate = original_candidate(CudaDocument(path.read_text(), str(path)), "row_max")
    measurement = measured(0.1, None).model_copy(update={"device": device})
    diagnosis = Diagnosis(bound="memory", headline="memory-bound: DRAM 92% of peak", explanation="DRAM 92% of peak.",
                          findings=[], top_stalls=[])
    profile = Profile(metrics=KernelProfile(kernel="row_max", metrics={"dram_pct": 92.0}), diagnosis=diagnosis)
    with diskcache.Cache(str(cache_dir)) as cache:
        cache.set(ceilings_key(device), DeviceCeilings(device=device, copy_gbps=3000, fp32_tflops=50,
                                                       measured_at="2025-01-01").model_dump_json())
        cache.set(measurement_key(candidate, candidate, None, device, VerifyPolicy(), TimingPolicy()),
                  measurement.model_dump_json())
        cache.set(profile_key(candidate, device), profile.model_dump_json())
