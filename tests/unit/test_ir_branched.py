"""A branch's loop run for every point (optiml_engine/ir/branched.py): a product of lower-triangular matrices whose
upper triangle is written apart becomes a ranged contraction, the rewritten program and its contraction schedules
equal the user's kernel on the CPU; a rewrite that would read out of bounds for the other branch's points, or a
branch whose loop writes memory, is not made."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.branched import loop_hoisted
from optiml_engine.ir.emit import emit
from optiml_engine.ir.program import If
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.policies.schedules import agrees_at_checks
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_guarded import lifted

TRIANGLES = """
/* @optiml
   sizes: N=512
   check: N=1; N=7; N=45; N=70
   A: in float[N*N]
   B: in float[N*N]
   C: out float[N*N]
   launch: grid=(cdiv(N,16),cdiv(N,16)) block=(16,16)
   tol: 1e-5
*/
__global__ void lower_product(const float* A, const float* B, float* C, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N || col >= N) return;
    if (col > row) {
        C[row * N + col] = 0.0f;
        return;
    }
    float sum = 0.0f;
    for (int k = col; k <= row; k++)
        sum += A[row * N + k] * B[k * N + col];
    C[row * N + col] = sum;
}
"""


def test_a_triangular_product_written_apart_above_the_diagonal_becomes_a_ranged_contraction() -> None:
    candidate, program = lifted(TRIANGLES)
    assert "contraction" not in shape_of(program).families
    hoisted = loop_hoisted(program, agrees_at_checks(program, candidate.contract))
    assert hoisted is not program and isinstance(hoisted.body[-1], If)
    shape = shape_of(hoisted)
    assert shape.contraction is not None and shape.contraction.ranged
    emitted = [emit(hoisted, shape, schedule, candidate) for schedule in defaults(shape, "contraction")]
    for binding in candidate.contract.checks:
        inputs = make_inputs(np, candidate.contract.arrays, resolve(candidate.contract, binding).lengths, seed=4)
        expected = run_on_cpu(candidate, binding, inputs)["C"]
        for made in emitted:
            np.testing.assert_allclose(run_on_cpu(made, binding, inputs)["C"], expected, rtol=1e-5, atol=1e-5,
                                       err_msg=f"{made.description} at {binding}")


FLAT_TRIANGLES = TRIANGLES.replace("launch: grid=(cdiv(N,16),cdiv(N,16)) block=(16,16)",
                                   "launch: grid=cdiv(N*N,128) block=128").replace(
    """    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= N || col >= N) return;""", """    long idx = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (long)N * N) return;
    int row = (int)(idx / N), col = (int)(idx % N);""")


def test_the_schedule_policy_proposes_a_flat_triangular_products_tiles_over_its_digits() -> None:
    """The same product over a flat index: a 2-D product only once the index is taken apart (ir/delinearize.py), its
    loop then hoisted; the policy's contraction schedules compute the kernel."""
    from optiml_engine.policies.base import PolicyContext
    from optiml_engine.policies.schedules import HOISTED, SchedulePolicy
    candidate, _ = lifted(FLAT_TRIANGLES)
    edits = [edit for edit in SchedulePolicy().propose(candidate, PolicyContext())
             if edit.rule == "schedule_contraction" and edit.description.endswith(f"({HOISTED})")]
    assert edits
    for binding in candidate.contract.checks:
        inputs = make_inputs(np, candidate.contract.arrays, resolve(candidate.contract, binding).lengths, seed=4)
        expected = run_on_cpu(candidate, binding, inputs)["C"]
        for edit in edits:
            np.testing.assert_allclose(run_on_cpu(edit.candidate, binding, inputs)["C"], expected, rtol=1e-5,
                                       atol=1e-5, err_msg=f"{edit.description} at {binding}")


@pytest.mark.parametrize("old, new", [
    # The other branch's points would read A at a negative row.
    ("for (int k = col; k <= row; k++)\n        sum += A[row * N + k]",
     "for (int k = 0; k <= row; k++)\n        sum += A[(row - col) * N + k]"),
    # The loop writes memory: running it for every point would write what the kernel does not.
    ("sum += A[row * N + k] * B[k * N + col];", "{ sum += A[row * N + k]; C[row * N + k] = 1.0f; }"),
])
def test_a_loop_that_must_stay_behind_its_branch_is_not_hoisted(old, new) -> None:
    assert old in TRIANGLES
    candidate, program = lifted(TRIANGLES.replace(old, new))
    assert loop_hoisted(program, agrees_at_checks(program, candidate.contract)) is program


def test_a_loop_adding_to_a_local_the_other_branch_reads_is_not_hoisted() -> None:
    """`count` is declared before the branch and the loop adds to it: run for the upper triangle's points too, it
    would change the count that branch writes."""
    text = TRIANGLES.replace("    if (col > row) {", "    float count = 0.0f;\n    if (col > row) {").replace(
        "C[row * N + col] = 0.0f;", "C[row * N + col] = count;").replace(
        "sum += A[row * N + k] * B[k * N + col];", "{ sum += A[row * N + k] * B[k * N + col]; count += 1.0f; }")
    candidate, program = lifted(text)
    assert "count += 1.0f" in str(program)
    assert loop_hoisted(program, lambda rewritten: True) is program
