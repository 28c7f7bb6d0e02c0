"""Two passes for an online softmax normalizer (optiml_engine/ir/online.py): the guess is kept only where the
interpreter finds it equal to the original, and a thread group's schedule of it computes the original's result."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.online import two_pass_normalizer
from optiml_engine.ir.program import For
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.policies.schedules import agrees_at_checks
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of

CONTRACT = """/* @optiml
   sizes:  rows=4096 cols=1024
   check:  rows=37 cols=100; rows=1 cols=3; rows=5 cols=1; rows=9 cols=67
   x:      in  float[rows*cols]
   out:    out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-5
*/
"""
ELEMENTWISE = CONTRACT + """__global__ void row_lse(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float m = -INFINITY, s = 0.0f;
    for (int c = 0; c < cols; c++) {
        float v = x[(size_t)r * cols + c];
        float m_new = fmaxf(m, v);
        s = s * __expf(m - m_new) + __expf(v - m_new);
        m = m_new;
    }
    out[r] = m + logf(s);
}
"""
CHUNKED = CONTRACT + """__global__ void row_lse_chunks(const float* x, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float best = -1e30f, total = 0.0f;
        for (int c0 = 0; c0 < cols; c0 += 4) {
            int c1 = min(c0 + 4, cols);
            float chunk_max = -1e30f;
            for (int c = c0; c < c1; c++) chunk_max = fmaxf(chunk_max, x[r * cols + c]);
            float grown = fmaxf(best, chunk_max);
            float part = 0.0f;
            for (int c = c0; c < c1; c++) part += expf(x[r * cols + c] - grown);
            total = total * expf(best - grown) + part;
            best = grown;
        }
        out[r] = best + logf(total);
    }
}
"""


@pytest.mark.parametrize("source, kernel", [(ELEMENTWISE, "row_lse"), (CHUNKED, "row_lse_chunks")])
def test_online_normalizers_become_a_maximum_and_a_sum(source, kernel):
    candidate = candidate_of("k.cu", source, kernel)
    program = lift(candidate)
    two_pass = two_pass_normalizer(program, agrees_at_checks(program, candidate.contract))
    assert two_pass is not program
    top_loops = [s for s in two_pass.body if isinstance(s, For)]
    assert len(top_loops) == 2 and all(not any(isinstance(t, For) for t in loop.body) for loop in top_loops)
    shape = shape_of(two_pass)
    assert "reduce" in shape.families
    schedule = defaults(shape, "reduce")[0]
    emitted = emit(two_pass, shape, schedule, candidate)
    for seed, binding in enumerate(candidate.contract.checks):
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)
        got = run_on_cpu(emitted, binding, inputs)
        found = compare(np, "out", got["out"], expected["out"], "float32", 1e-5, None)
        assert found.ok, f"{binding}: {found.reason}\n{emitted.unit.text}"


def test_a_wrong_guess_is_not_kept():
    """Twice the rescaled sum is no normalizer: the guess reads like one, the interpreter says otherwise."""
    source = ELEMENTWISE.replace("s * __expf(m - m_new) + __expf(v - m_new)", "s * __expf(m - m_new) + 2.0f * __expf(v - m_new)")
    candidate = candidate_of("k.cu", source, "row_lse")
    program = lift(candidate)
    assert two_pass_normalizer(program, agrees_at_checks(program, candidate.contract)) is program


def test_loops_that_carry_something_else_are_left_alone():
    """A running maximum and its position: two carried values, no rescaled exponential."""
    source = CONTRACT.replace("out:    out float[rows]", "out:    out int[rows]") + """
__global__ void row_argmax(const float* x, int* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float best = -INFINITY;
    int at = 0;
    for (int c = 0; c < cols; c++) {
        float v = x[r * cols + c];
        at = v > best ? c : at;
        best = fmaxf(best, v);
    }
    out[r] = at;
}
"""
    candidate = candidate_of("k.cu", source, "row_argmax")
    program = lift(candidate)

    def never_asked(_):
        raise AssertionError("not a normalizer: nothing to check")

    assert two_pass_normalizer(program, never_asked) is program
