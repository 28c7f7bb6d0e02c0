"""An output element accumulated in memory inside a point's loop held in a local (ir/promote.py): PolyBench's
`tmp[i] += A[i * n + j] * x[j]` is then a reduction, and every reduce schedule of it equals the user's kernel on the
CPU emulator; an array read or written at more than one element, at an element a loop moves, or by an atomic, is
left alone."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.promote import accumulators_held
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of

# PolyBench's gesummv: two sums of a row, each accumulated in its output, then combined in one of them.
ROWS = """/* @optiml
   sizes: n=1024
   check: n=1; n=5; n=33; n=100
   A: in float[n*n]
   B: in float[n*n]
   x: in float[n]
   tmp: inout float[n]
   y: inout float[n]
   launch: grid=cdiv(n,64) block=64
   tol: 1e-4
*/
__global__ void gesummv(const float* A, const float* B, const float* x, float* tmp, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        BODY
    }
}
"""

SUMS = ("for (int j = 0; j < n; j++) {\n            tmp[i] += A[i * n + j] * x[j];\n"
        "            y[i] += B[i * n + j] * x[j];\n        }\n        y[i] = 1.5f * tmp[i] + 0.5f * y[i];")


@pytest.mark.parametrize("body, accumulated", [
    (SUMS, ["float tmp_held = tmp[i];", "tmp_held += A[", "y_held += B[", "tmp[i] = tmp_held;", "y[i] = y_held;"]),
    # The element set first, then accumulated: the local starts with the value written.
    ("y[i] = 0.0f;\n        for (int j = 0; j < n; j++) y[i] += B[i * n + j] * x[j];\n        tmp[i] = y[i];",
     ["float y_held = 0.0f;", "y_held += B[", "tmp[i] = y_held;", "y[i] = y_held;"]),
    # Scaled in place first (PolyBench's `C[i][j] *= beta;`): the local starts with the scaled value.
    ("y[i] *= 0.5f;\n        for (int j = 0; j < n; j++) y[i] += B[i * n + j] * x[j];",
     ["float y_held = y[i] * 0.5f;", "y_held += B[", "y[i] = y_held;"]),
])
def test_an_element_accumulated_in_a_loop_is_a_reduction_every_reduce_schedule_shares(body, accumulated) -> None:
    naive = candidate_of("gesummv.cu", ROWS.replace("BODY", body))
    program = lift(naive)
    assert "reduce" not in shape_of(program).families, str(program)
    held = accumulators_held(program)
    assert all(line in str(held) for line in accumulated), str(held)
    shape = shape_of(held)
    assert "reduce" in shape.families, str(held)
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=3)
        expected = run_on_cpu(naive, binding, inputs)
        for schedule in defaults(shape, "reduce"):
            got = run_on_cpu(emit(held, shape, schedule, naive), binding, inputs)
            for array in ("tmp", "y"):
                found = compare(np, array, got[array], expected[array], "float32", naive.contract.tol,
                                naive.contract.atol)
                assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


@pytest.mark.parametrize("body", [
    # The element a loop moves: each iteration another one.
    "for (int j = 0; j < n; j++) y[j] += A[i * n + j] * x[i];",
    # Read at another element too (the neighbour's value, which another point writes).
    "for (int j = 0; j < n; j++) y[i] += A[i * n + j] * x[j] + y[(i + 1) % n];",
    # Added to by an atomic beside the loop.
    "for (int j = 0; j < n; j++) y[i] += A[i * n + j] * x[j];\n        atomicAdd(&y[i], 1.0f);",
])
def test_an_array_touched_at_more_than_one_element_or_by_an_atomic_is_left_alone(body) -> None:
    program = lift(candidate_of("moved.cu", ROWS.replace("BODY", body)))
    assert accumulators_held(program) is program, str(program)
