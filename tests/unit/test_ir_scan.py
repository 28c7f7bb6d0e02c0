"""Scan and stream schedules over the class of loops that carry a value and write as they go: inclusive and
exclusive prefix sums, running maxima and minima, masked sums, products, a carried value read by a formula
before it is written, a thread or a block per row. Each kernel's program and every schedule of both families run on the CPU
emulator and equal the user's own kernel at several sizes (a row shorter than a warp, one not a multiple of a
stretch, a long one)."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of

ROWS = """/* @optiml
   sizes: rows=256 cols=1000
   check: rows=3 cols=5; rows=2 cols=130; rows=5 cols=1000
   x: in float[rows*cols]
   m: in uint8[rows*cols]
   y: out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   tol: 1e-4
*/
__global__ void k(const float* x, const unsigned char* m, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    %s
}
"""

BODIES = {
    "inclusive_sum": "float s = 0.0f; for (int c = 0; c < cols; c++) { s += row[c]; y[r * cols + c] = s; }",
    "exclusive_sum": "float s = 0.0f; for (int c = 0; c < cols; ++c) { y[r * cols + c] = s; s = s + row[c]; }",
    "running_max": "float best = -1e30f; for (int c = 0; c < cols; c++) { best = fmaxf(best, row[c]); "
                   "y[r * cols + c] = best; }",
    "masked_sum": "float s = 0.0f; for (int c = 0; c < cols; c++) { float v = m[r * cols + c] ? row[c] : 0.0f; "
                  "s += v; y[r * cols + c] = s; }",
    "scaled_prefix": "float s = 1.0f; for (int c = 0; c < cols; c++) { s += 0.5f * row[c]; "
                     "y[r * cols + c] = s * s - 1.0f; }",
    "running_min_after": "float lo = row[0]; for (int c = 0; c < cols; c++) { if (row[c] < lo) lo = row[c]; "
                         "y[r * cols + c] = row[c] - lo; }",
    # Reductions before the scan, shared by the warp as reduce's lanes share them: a softmax's cumulative sum (top-p
    # sampling's), a cumulative share of a row's sum.
    "softmax_cumsum": "float mx = -1e30f; for (int c = 0; c < cols; c++) if (row[c] > mx) mx = row[c]; "
                      "float d = 0.0f; for (int c = 0; c < cols; c++) d += expf(row[c] - mx); "
                      "float s = 0.0f; for (int c = 0; c < cols; c++) { s += expf(row[c] - mx) / d; "
                      "y[r * cols + c] = s; }",
    "share_cumsum": "float t = 0.0f; for (int c = 0; c < cols; c++) t += fabsf(row[c]); "
                    "float s = 0.0f; for (int c = 0; c < cols; c++) { s += fabsf(row[c]); y[r * cols + c] = s / t; }",
}

PRODUCT = """/* @optiml
   sizes: rows=256 cols=4096
   check: rows=1 cols=1; rows=3 cols=33; rows=2 cols=300
   x: in float[rows*cols] uniform(0.9,1.1)
   y: out float[rows*cols]
   launch: grid=rows block=1
   tol: 1e-4
*/
__global__ void cumprod_rows(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x;
    float p = 1.0f;
    for (int i = 0; i < cols; i++) {
        p *= x[r * cols + i];
        y[r * cols + i] = p;
    }
}
"""

KERNELS = {name: ROWS % body for name, body in BODIES.items()} | {"cumprod_block_per_row": PRODUCT}


def outputs(candidate, binding, seed):
    resolved = resolve(candidate.contract, binding)
    inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=seed)
    return inputs, run_on_cpu(candidate, binding, inputs)


@pytest.mark.parametrize("name", KERNELS)
def test_every_scan_and_stream_schedule_equals_the_users_kernel(name) -> None:
    naive = candidate_of(f"{name}.cu", KERNELS[name])
    program = lift(naive)
    shape = shape_of(program)
    assert "scan" in shape.families, (name, shape.families)
    schedules = [s for family in ("scan", "stream") if family in shape.families for s in space(shape, family)]
    for binding in naive.contract.checks:
        inputs, expected = outputs(naive, binding, seed=len(name))
        for schedule in schedules:
            got = run_on_cpu(emit(program, shape, schedule, naive), binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


def test_reductions_before_a_scan_are_shared_by_its_warp_and_never_split_across_warps() -> None:
    """A softmax then its cumulative sum: the two reductions' loops are split across the warp's lanes and combined
    before the scan; the split scan (chunks in different warps, each of which would need the whole row's
    reductions) is not offered for it."""
    program = lift(candidate_of("softmax_cumsum.cu", KERNELS["softmax_cumsum"]))
    shape = shape_of(program)
    assert [r.op for r in shape.scan.leading] == ["max", "+"] and "reduce" not in shape.families
    assert all(s.splits == 1 for s in space(shape, "scan"))
    text = emit(program, shape, space(shape, "scan")[0], candidate_of("softmax_cumsum.cu",
                                                                     KERNELS["softmax_cumsum"])).unit.text
    assert "optiml_warp_max(mx)" in text and "optiml_warp_sum(d)" in text


def test_few_long_rows_are_scanned_a_block_a_row_first_without_spilling() -> None:
    """256 rows, a warp each, leave an H100's SMs two warps apiece: the first schedule gives each row a block of 256,
    whose warps pass their totals through shared memory; it compiles without spilling (NVRTC). That it equals the
    user's kernel, the test above checks with every schedule of the space."""
    from optiml_engine.gpu.compile import compile_nvrtc
    from optiml_engine.ir.schedule import defaults
    naive = candidate_of("softmax_cumsum.cu", KERNELS["softmax_cumsum"])
    program = lift(naive)
    shape = shape_of(program)
    first = defaults(shape, "scan", points_at_sizes=256)[0]
    assert first.lanes == 256 and first.block == (256, 1), first
    emitted = emit(program, shape, first, naive)
    assert "__syncthreads()" in emitted.unit.text
    compiled = compile_nvrtc(emitted.unit)
    assert compiled.ok and compiled.resources.spill_store_bytes == 0, compiled.log
    assert defaults(shape, "scan", points_at_sizes=65536)[0].lanes == 32


def test_a_scan_is_emitted_unaliased() -> None:
    """A lane's stretch is read twice (its total, then the loop's own code); `__restrict__` lets the compiler keep the
    first read. The contract's arrays are buffers of their own, as every schedule assumes."""
    naive = candidate_of("scan.cu", KERNELS["inclusive_sum"])
    program = lift(naive)
    shape = shape_of(program)
    text = emit(program, shape, space(shape, "scan")[0], naive).unit.text
    signature = text[text.index("__global__"):].split("{")[0]
    assert "const float* __restrict__ x" in signature and "float* __restrict__ y" in signature
    assert "const unsigned char* __restrict__ m" in signature


def test_a_loop_carrying_two_values_is_not_a_scan() -> None:
    """A running sum and a running count that feed each other's writes: no single carried value."""
    body = ("float s = 0.0f; int n = 0; for (int c = 0; c < cols; c++) { if (m[r * cols + c]) { s += row[c]; "
            "n += 1; } y[r * cols + c] = n > 0 ? s / n : 0.0f; }")
    program = lift(candidate_of("two.cu", ROWS % body))
    assert "scan" not in shape_of(program).families


@pytest.mark.parametrize("form", ["y = cumsum(x, axis=1); x: float32[128, 4000]",
                                  "y = cumsum(x * m, axis=1); x: float32[128, 4000]; m: float32[128, 4000]",
                                  "y = cumprod(x, axis=1, reverse=True); x: float32[64, 300]",
                                  "y = cumsum(x, axis=1, exclusive=True); x: float32[64, 300]"])
def test_a_generated_scan_writing_through_a_local_index_is_a_scan(form) -> None:
    """The generated row scans write at `const size_t at = (size_t)row * cols + i`: the write's index is read
    through the local. Every scan schedule of them equals the generated kernel on the CPU."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.generate.families import generate_kernel
    from optiml_engine.generate.intent import parse_intent
    from optiml_engine.source.parse import CudaDocument
    generated = generate_kernel(parse_intent(form))
    naive = original_candidate(CudaDocument(generated.text, "generated.cu"), generated.kernel)
    program = lift(naive)
    shape = shape_of(program)
    assert "scan" in shape.families, shape.families
    for binding in naive.contract.checks:
        inputs, expected = outputs(naive, binding, seed=3)
        for schedule in space(shape, "scan"):
            got = run_on_cpu(emit(program, shape, schedule, naive), binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


@pytest.mark.parametrize("warps, items, splits", [(4, 4, 64), (1, 8, 512), (4, 8, 4096)])
def test_a_few_long_rows_are_cut_into_chunks_that_look_back(warps, items, splits) -> None:
    """examples/prefix_sum_rows: a thread per row, 4 rows of 2^22. Few points: the split scans come first. At a
    check size of 100003 columns a row has 25-100 chunks, each finding the value before it from the chunks before
    it, more than a warp's 32 of them at a time where there are; a second launch of the same module (its workspace
    reset by the first's last warp) is right again. (The emulator runs blocks in order: a window of chunks none of
    which has its prefix yet happens on a GPU only, tests/gpu.)"""
    from tests.unit.test_ir_lift import ROOT
    from optiml_engine.ir.schedule import Schedule, defaults
    naive = candidate_of(ROOT / "examples/prefix_sum_rows.cu")
    program = lift(naive)
    shape = shape_of(program)
    assert all(s.splits > 1 for s in defaults(shape, "scan", points_at_sizes=4)[:2])
    emitted = emit(program, shape, Schedule(family="scan", block=(32, warps), lanes=32, items=items,
                                            splits=splits), naive)
    for binding in naive.contract.checks:
        inputs, expected = outputs(naive, binding, seed=9)
        for launch in range(2):
            got = run_on_cpu(emitted, binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"launch {launch} at {binding}: {found.reason}"
