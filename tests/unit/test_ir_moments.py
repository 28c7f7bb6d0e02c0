"""One pass for a centered second moment (optiml_engine/ir/moments.py): the rewritten program computes what the
two-pass one does, its reductions split across blocks, and programs without the pattern are left alone."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.collapse import collapsed
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.moments import one_pass_moments
from optiml_engine.ir.program import For
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import ROOT, candidate_of

# A column's standard deviation, written another way than any kernel of the repository: the squares inline,
# a double accumulator, the mean's divisor a float.
COLUMN_STD = """
/* @optiml
   sizes:  rows=4096 cols=512
   check:  rows=1000 cols=37; rows=1 cols=5; rows=129 cols=1
   a:      in  float[rows*cols]
   sd:     out float[cols]
   launch: grid=cdiv(cols,128) block=128
   tol:    1e-5
*/
__global__ void column_std(const float* a, float* sd, int rows, int cols)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= cols) return;
    double total = 0.0;
    for (int i = 0; i < rows; i++) total += a[i * cols + j];
    float mu = (float)(total / (float)rows);
    double acc = 0.0;
    for (int i = 0; i < rows; i++) acc += (a[i * cols + j] - mu) * (a[i * cols + j] - mu);
    sd[j] = sqrtf((float)(acc / rows));
}
"""


def agrees(candidate, original, rewritten, binding, offset: float, seed=3) -> None:
    resolved = resolve(candidate.contract, binding)
    inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed)
    inputs = {name: (values + np.float32(offset)).astype(values.dtype) for name, values in inputs.items()}
    expected = run_program(original, resolved, candidate.contract.arrays, inputs)
    got = run_program(rewritten, resolved, candidate.contract.arrays, inputs)
    for spec in candidate.contract.arrays:
        if spec.direction != "in":
            found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, 1e-4, 1e-6)
            assert found.ok, f"{binding}: {found.reason}\n{rewritten}"


@pytest.mark.parametrize("source, kernel, offset", [
    # Data far from zero (the original's double sums are exact enough to compare with): the shift must remove the
    # offset before squaring, where E[x^2] - m^2 would lose the variance.
    (COLUMN_STD, "column_std", 1000.0),
    # A float original accumulates a sum of large values less exactly than the shifted sums: data near zero.
    ((ROOT / "examples/layernorm_rows.cu").read_text(), "layernorm_rows", 0.0),
    # The mean is the sum scaled in place (`mean /= hw`), the squares' difference a local of their loop.
    ((ROOT / "tests/heldout19/instance_norm.cu").read_text(), "instance_norm2d", 0.0)])
def test_two_passes_become_one_and_compute_the_same(source, kernel, offset):
    candidate = candidate_of("k.cu", source, kernel)
    program = lift(candidate)
    rewritten = one_pass_moments(program)
    assert rewritten is not program
    loops = [stmt for stmt in program.body if isinstance(stmt, For)]
    assert len([s for s in rewritten.body if isinstance(s, For)]) == len(loops) - 1
    for binding in candidate.contract.checks:
        agrees(candidate, program, rewritten, binding, offset)


@pytest.mark.parametrize("example", ["row_max", "col_sum", "cross_entropy_rows", "gemv_rowmajor"])
def test_programs_without_the_pattern_are_left_alone(example):
    program = lift(candidate_of(ROOT / f"examples/{example}.cu"))
    assert one_pass_moments(program) is program


def test_a_difference_from_another_value_than_a_name_is_left_alone():
    """instance_norm's squares of `in[i] - mean * 1.0f`: the centre is not a name the rewrite can shift by."""
    source = (ROOT / "tests/heldout19/instance_norm.cu").read_text().replace("float d = in[i] - mean;",
                                                                             "float d = in[i] - mean * 1.0f;")
    program = lift(candidate_of("k.cu", source, "instance_norm2d"))
    assert one_pass_moments(program) is program


@pytest.mark.parametrize("change", [
    ("for (int i = 0; i < rows; i++) acc += (a[i * cols + j] - mu)", "for (int i = 1; i < rows; i++) acc += (a[i * cols + j] - mu)"),
    ("(a[i * cols + j] - mu) * (a[i * cols + j] - mu)", "(a[i * cols + j] - mu) * (a[i * cols + j] + mu)"),
    ("acc += (a[i * cols + j] - mu) * (a[i * cols + j] - mu)", "acc += (a[i * cols + j] - mu) * (a[i * cols + j] - mu) + total"),
])
def test_near_misses_are_left_alone(change):
    """Another range, not a square, a second loop that reads the first sum: not the moment the rewrite knows."""
    candidate = candidate_of("k.cu", COLUMN_STD.replace(*change), "column_std")
    program = lift(candidate)
    assert one_pass_moments(program) is program


@pytest.mark.parametrize("path", ["tests/heldout19/batchnorm_train.cu", "tests/heldout21/batchnorm_backward.cu"])
def test_a_collapsed_nests_two_passes_become_one_and_compute_the_same(path):
    """A batch norm's statistics over N x H x W, its nests made one loop (ir/collapse.py) whose digits are locals
    (`n = n_i / HW`): the loops are compared with their locals read through, and the one loop keeps them."""
    candidate = candidate_of(ROOT / path)
    flat = collapsed(lift(candidate))
    rewritten = one_pass_moments(flat)
    assert rewritten is not flat
    loops = [stmt for stmt in flat.body if isinstance(stmt, For)]
    assert len([stmt for stmt in rewritten.body if isinstance(stmt, For)]) == len(loops) - 1
    for binding in candidate.contract.checks:
        agrees(candidate, flat, rewritten, binding, 0.0)


def test_the_one_pass_program_splits_across_blocks_on_the_cpu():
    """The rewritten column statistic, split across blocks (the schedule the two-pass program could not have),
    emitted, compiled by g++ and run by the emulator, equals the original program."""
    candidate = candidate_of("k.cu", COLUMN_STD, "column_std")
    program = lift(candidate)
    one_pass = one_pass_moments(program)
    shape = shape_of(one_pass)
    assert shape.splittable and not shape_of(program).splittable
    split = next(s for s in defaults(shape, "reduce", points_at_sizes=1) if s.splits > 1)
    emitted = emit(one_pass, shape, split, candidate)
    for binding in candidate.contract.checks:
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=7)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)
        got = run_on_cpu(emitted, binding, inputs)
        found = compare(np, "sd", got["sd"], expected["sd"], "float32", 1e-4, 1e-6)
        assert found.ok, f"{binding}: {found.reason}\n{emitted.unit.text}"
