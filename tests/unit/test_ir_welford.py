"""Shifted sums for a Welford mean and M2 (optiml_engine/ir/welford.py): the guess is kept only where the
interpreter finds it equal to the original, and then the row loop is a reduction a thread group shares, whose
emitted schedules compute the original's result on the CPU."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.ir.welford import shifted_sums
from optiml_engine.policies.schedules import agrees_at_checks
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of

CONTRACT = """/* @optiml
   sizes:  rows=4096 cols=1024
   check:  rows=7 cols=100; rows=1 cols=1; rows=5 cols=3; rows=3 cols=257
   x:      in  float[rows*cols]
   y:      out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
"""
BY_LOOP_VARIABLE = CONTRACT + """__global__ void standardize(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float mean = 0.0f, m2 = 0.0f;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        float delta = v - mean;
        mean += delta / (c + 1);
        m2 += delta * (v - mean);
    }
    float inv = rsqrtf(m2 / cols + 1e-5f);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = (x[r * cols + c] - mean) * inv;
}
"""
BY_COUNTER = BY_LOOP_VARIABLE.replace("""    float mean = 0.0f, m2 = 0.0f;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        float delta = v - mean;
        mean += delta / (c + 1);""", """    float mean = 0.0f, m2 = 0.0f;
    int n = 0;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        n += 1;
        float delta = v - mean;
        mean = mean + delta / n;""")
# A float counter (`n += 1.0f`), as PyTorch's batch norm statistics count.
BY_FLOAT_COUNTER = BY_COUNTER.replace("int n = 0;", "float n = 0.0f;").replace("n += 1;", "n += 1.0f;")
# Not Welford: the "mean" divides by a constant (an exponential moving average); the guess must be refused.
MOVING_AVERAGE = BY_LOOP_VARIABLE.replace("mean += delta / (c + 1);", "mean += delta / 4.0f;")


@pytest.mark.parametrize("source", [BY_LOOP_VARIABLE, BY_COUNTER, BY_FLOAT_COUNTER],
                         ids=["loop variable", "counter", "float counter"])
def test_a_welford_loop_becomes_shifted_sums_that_a_thread_group_shares(source):
    naive = candidate_of("user.cu", source)
    program = lift(naive)
    assert "reduce" not in shape_of(program).families          # the running form cannot be shared
    rewritten = shifted_sums(program, agrees_at_checks(program, naive.contract))
    assert rewritten is not program and "reduce" in (shape := shape_of(rewritten)).families
    schedules = defaults(shape, "reduce")
    assert schedules
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=4)
        expected = run_on_cpu(naive, binding, inputs)["y"]
        for schedule in schedules:
            got = run_on_cpu(emit(rewritten, shape, schedule, naive), binding, inputs)["y"]
            found = compare(np, "y", got, expected, "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, (schedule.describe(), binding, found.reason)


def test_a_loop_that_only_looks_like_welford_is_left_as_it_is():
    naive = candidate_of("user.cu", MOVING_AVERAGE)
    program = lift(naive)
    assert shifted_sums(program, agrees_at_checks(program, naive.contract)) is program


def test_a_welford_loop_over_a_collapsed_nest_becomes_shifted_sums():
    """Batch norm's statistics per channel, a Welford loop over the batch and each plane (the fortieth held-out set's
    block of a channel, read as its one point): made one loop (ir/collapse.py), its element read through the nest's
    digits, then two shifted sums a thread group shares."""
    from optiml_engine.ir.collapse import collapsed
    from tests.ir_cases import ROOT
    naive = candidate_of("user.cu", (ROOT / "tests" / "heldout40" / "batchnorm_stats_welford.cu").read_text())
    program = lift(naive)
    flat = collapsed(program)
    assert flat is not program
    rewritten = shifted_sums(flat, agrees_at_checks(program, naive.contract))
    assert rewritten is not flat and "reduce" in shape_of(rewritten).families, str(rewritten)
