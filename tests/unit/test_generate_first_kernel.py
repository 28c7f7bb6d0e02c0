"""The kernel generate writes is the first schedule of its spec's loop-nest program (generate/algorithm.py): for
every intent of the test list and every spec form of the GPU bench, that kernel run on the CPU emulator equals the
contract's NumPy oracle at every check size; the program of a generated file is its spec's, so the search still
schedules a kernel that is already a schedule; a second schedule accepted into the file leaves a file nvcc
compiles, with two generated kernels in it; a spec that does not fit its kernel is refused at the contract."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.algorithm import algorithm, first_kernel
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import parse_intent
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import LoopProgram
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.model import OptimlError
from optiml_engine.oracle import oracle_outputs
from optiml_engine.source.contract import resolve
from optiml_engine.source.edit import apply_candidate
from optiml_engine.source.parse import CudaDocument
from tests.intents import INTENTS

SPEC_BENCH = Path(__file__).resolve().parents[2] / "bench" / "spec_bench.py"


def bench_cases() -> list[str]:
    """The bench's cases, read from its syntax tree (the bench imports torch, which CI does not install)."""
    tree = ast.parse(SPEC_BENCH.read_text())
    lists = [node.value for node in tree.body if isinstance(node, ast.Assign) and
             any(isinstance(target, ast.Name) and target.id in ("CASES", "WORD_CASES") for target in node.targets)]
    return [case.elts[0].value for listed in lists for case in listed.elts]


SPEC_CASES = bench_cases()
CASES = list(dict.fromkeys([case[0] for case in INTENTS] + SPEC_CASES))


def first(intent: str):
    try:
        spec = parse_intent(intent)
    except OptimlError:
        pytest.skip("refused by the readers (their tests say why)")
    return first_kernel(generate_kernel(spec))


@pytest.mark.parametrize("intent", CASES, ids=[case[:50] for case in CASES])
def test_the_first_kernel_equals_its_oracle_on_the_cpu(intent) -> None:
    generated = first(intent)
    document = CudaDocument(generated.text, "first.cu")
    candidate = original_candidate(document, generated.kernel)
    oracle = reference_candidate(document, candidate)
    contract = candidate.contract
    for binding in contract.checks:
        resolved = resolve(contract, binding)
        inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=7)
        expected = oracle_outputs(np, oracle, contract, resolved, inputs)
        got = run_on_cpu(candidate, binding, inputs)
        for spec in contract.arrays:
            if spec.direction != "in":
                found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, contract.tol,
                                contract.atol)
                assert found.ok, f"{generated.strategy} at {binding}: {found.reason}"


@pytest.mark.parametrize("intent, family", [
    ("y = softmax(x, axis=1); x: float32[4096, 1000]", "reduce"),
    ("C = A @ B; A: float32[1024, 512]; B: float32[512, 768]", "contraction"),
    ("y = cumsum(x, axis=1); x: float32[4, 1000000]", "scan"),
    ("s = sum(x); x: float32[16777216]", "privatize"),
    ("y = x.T; x: float32[4096, 8192]", "stage"),
    ("y = batch_norm(x); x: float32[16, 64, 128, 128]", "reduce"),
    ("l = cross_entropy(x, t); x: float32[4096, 1000]; t: int32[4096]", "reduce"),
    ("y = avg_pool2d(x, kernel_size=3, stride=2, padding=1); x: float32[16, 32, 64, 64]", None),
    ("y = conv2d(x, w, padding=1); x: float32[8, 64, 56, 56]; w: float32[128, 64, 3, 3]", "contraction"),
    ("y = conv2d(x, w, padding=1, groups=64); x: float32[8, 64, 56, 56]; w: float32[64, 1, 3, 3]", None),
])
def test_the_first_kernel_is_a_schedule_of_the_family_that_fits(intent, family) -> None:
    """A product tiled, a long row's scan cut into chunks, a sum privatized, a transpose staged, a row reduced by a
    thread group (batch norm's nest over the batch and the pixels made one loop first; cross entropy's rows by a
    group each, not privatized a thread a row), a convolution tiled as a matrix product of its weights and its
    input windows; a pooling window's few taps, or a depthwise convolution's (its input read by the output channel
    too: no product), stay the plain kernel, which is their program's map already."""
    generated = first(intent)
    if family is None:
        assert generated.strategy.startswith("built-in, plain (a thread per output"), generated.strategy
        assert "OptiML schedule" not in generated.text
        return
    assert generated.strategy.startswith(f"built-in, {family}:"), generated.strategy
    assert "OptiML schedule of the loop-nest program" in generated.text


def schedule_policy_program(text: str, kernel: str) -> LoopProgram:
    candidate = original_candidate(CudaDocument(text, "first.cu"), kernel)
    assert not isinstance(lift(candidate), LoopProgram)      # a schedule: not a program the lifter reads
    program = lift(algorithm(candidate))
    assert isinstance(program, LoopProgram)
    return program


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_a_second_schedule_accepted_into_a_file_of_two_generated_kernels_compiles(tmp_path) -> None:
    """Two generated kernels in one file share the warp helpers (written once); the first's next schedule, made
    from its spec's program (not from the schedule in the file) and applied as optimize applies it, replaces the
    kernel, keeps its contract its own, and the whole file compiles with nvcc."""
    softmax = first("y = softmax(x, axis=1); x: float32[4096, 1000]")
    norms = first("n = norm(x, axis=1); x: float32[256, 333]")
    text = softmax.text + "\n" + norms.text
    assert text.count("#define OPTIML_WARP_SUM_DEFINED\n") == 2
    program = schedule_policy_program(text, softmax.kernel)
    document = CudaDocument(text, "first.cu")
    original = original_candidate(document, softmax.kernel)
    base = algorithm(original)
    shape = shape_of(program)
    other = next(s for s in defaults(shape, "reduce") if s.describe() not in original.unit.text)
    edited = apply_candidate(text, document.model, original, emit(program, shape, other, base)).new_text
    assert other.describe() in edited and edited.count("#define OPTIML_WARP_SUM_DEFINED\n") == 2
    assert original_candidate(CudaDocument(edited, "first.cu"), softmax.kernel).contract.spec is not None
    source = tmp_path / "first.cu"
    source.write_text(edited)
    run = subprocess.run(["nvcc", "-arch=sm_90", "-c", "-o", str(tmp_path / "first.o"), str(source)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_a_spec_that_does_not_fit_its_kernel_is_refused_at_the_contract() -> None:
    generated = first("y = softmax(x, axis=1); x: float32[4096, 1000]")
    text = generated.text.replace("spec:      y = softmax(x, axis=-1); x: float32[4096, 1000]",
                                  "spec:      y = softmax(z, axis=-1); z: float32[4096, 1000]")
    candidate = original_candidate(CudaDocument(text, "first.cu"), generated.kernel)
    with pytest.raises(OptimlError, match=r"first\.cu:\d+:\d+: error: the contract's spec .* parameters"):
        algorithm(candidate)
    broken = generated.text.replace("softmax(x, axis=-1)", "softmax(x, axis=7)")
    candidate = original_candidate(CudaDocument(broken, "first.cu"), generated.kernel)
    with pytest.raises(OptimlError, match=r"first\.cu:\d+:\d+: error: the contract's spec does not parse"):
        algorithm(candidate)
