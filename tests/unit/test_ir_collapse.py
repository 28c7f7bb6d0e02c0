"""Nested loops made one (ir/collapse.py): a reduction over several axes of each point, written as a nest (batch
norm's statistics over the batch and a channel's pixels, a per-channel sum over N x H x W), becomes one loop a
thread group shares; every reduce schedule of it equals the user's kernel on the CPU emulator. A nest whose writes
repeat an element, or whose inner bound moves with the outer loop, is left alone."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.collapse import collapsed
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import For
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of

CHANNELS = """/* @optiml
   sizes: n=16 c=64 hw=16384
   check: n=2 c=3 hw=37; n=1 c=1 hw=1; n=3 c=5 hw=100
   x: in float[n*c*hw]
   y: out float[n*c*hw]
   launch: grid=cdiv(c,128) block=128
   tol: 1e-4
*/
__global__ void k(const float* x, float* y, int n, int c, int hw)
{
    int ch = blockIdx.x * blockDim.x + threadIdx.x;
    if (ch >= c) return;
    %s
}
"""

CENTERED = ("float s = 0.0f; for (int b = 0; b < n; ++b) for (int p = 0; p < hw; ++p) s += x[(b * c + ch) * hw + p]; "
            "float m = s / (n * hw); for (int b = 0; b < n; b++) { for (int p = 0; p < hw; p++) { "
            "y[((size_t)b * c + ch) * hw + p] = x[((size_t)b * c + ch) * hw + p] - m; } }")


# Batch norm's backward as it is often written: each pass's row offset a local of the outer loop.
OFFSETS = ("float s = 0.0f; for (int b = 0; b < n; ++b) { long off = ((long)b * c + ch) * hw; "
           "for (int p = 0; p < hw; ++p) s += x[off + p]; } float m = s / (n * hw); "
           "for (int b = 0; b < n; ++b) { const long off = ((long)b * c + ch) * hw; float shift = m * 0.5f; "
           "for (int p = 0; p < hw; ++p) y[off + p] = x[off + p] - shift; }")


@pytest.mark.parametrize("body", [
    CENTERED,
    OFFSETS,        # the locals the outer loop defines for its inner loop computed in the one loop
])
def test_a_reduction_over_two_axes_is_one_loop_every_reduce_schedule_shares(body) -> None:
    naive = candidate_of("centered.cu", CHANNELS % body)
    program = lift(naive)
    assert "reduce" not in shape_of(program).families
    flat = collapsed(program)
    loops = [s for s in flat.body if isinstance(s, For)]
    assert len(loops) == 2 and not any(isinstance(s, For) for loop in loops for s in loop.body)
    shape = shape_of(flat)
    assert "reduce" in shape.families
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=3)
        expected = run_on_cpu(naive, binding, inputs)
        for schedule in space(shape, "reduce"):
            got = run_on_cpu(emit(flat, shape, schedule, naive), binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


def test_a_collapsed_nests_lanes_read_chunks_of_a_row_as_vectors() -> None:
    """A lane's 4 consecutive iterations of the one loop lie in one row of the nest (the pixels of one image and
    channel) where they do not cross a multiple of its length: they read (and write) as one vector each, the
    quotient by the row's length divided once a chunk, in every vector schedule (each equal to the user's kernel at
    every check size above: at hw = 100 chunks take the vector path, at hw = 37 row starts are misaligned and at
    hw = 1 every chunk crosses rows, which go iteration by iteration)."""
    naive = candidate_of("offsets.cu", CHANNELS % OFFSETS)
    flat = collapsed(lift(naive))
    shape = shape_of(flat)
    vectors = [s for s in space(shape, "reduce") if s.vector == 4 and s.lanes_axis == "x"]
    assert vectors
    for schedule in vectors:
        text = emit(flat, shape, schedule, naive).unit.text
        assert "x_lanes = *reinterpret_cast" in text and "y_lanes" in text, text


@pytest.mark.parametrize("body", [
    # The outer local is changed by the inner loop: its value differs between inner iterations.
    "float s = 0.0f; for (int b = 0; b < n; ++b) { long off = ((long)b * c + ch) * hw; "
    "for (int p = 0; p < hw; ++p) { s += x[off + p]; if (s > 1.0f) off = 0; } } y[ch] = s;",
    # The outer local has the inner loop variable's name (the loop's shadows it): one scope cannot hold both.
    "float s = 0.0f; for (int b = 0; b < n; ++b) { long p = (long)b * 2; "
    "for (int p = 0; p < hw; ++p) s += x[(b * c + ch) * hw + p]; } y[ch] = s;",
    # The outer local reads what the inner loop writes.
    "float s = 0.0f; for (int b = 0; b < n; ++b) { float t = s; "
    "for (int p = 0; p < hw; ++p) s += x[(b * c + ch) * hw + p] * t; } y[ch] = s;",
])
def test_an_outer_local_the_inner_loop_changes_or_depends_on_stays_outside(body) -> None:
    program = lift(candidate_of("outer_local.cu", CHANNELS % body))
    assert collapsed(program) is program


@pytest.mark.parametrize("body", [
    # Each iteration of the inner loop writes the same element: not distinct per iteration of the one loop.
    "for (int b = 0; b < n; ++b) for (int p = 0; p < hw; ++p) y[b * c + ch] = x[(b * c + ch) * hw + p];",
    # A quotient step shorter than the remainder's range: (b, p) and (b + 1, p - hw / 2) meet.
    "for (int b = 0; b < n; ++b) for (int p = 0; p < hw; ++p) y[(b * c + ch) * 2 + p] = x[(b * c + ch) * hw + p];",
])
def test_a_collapsed_nest_whose_writes_meet_is_not_shared(body) -> None:
    flat = collapsed(lift(candidate_of("meet.cu", CHANNELS % body)))
    assert "reduce" not in shape_of(flat).families


def test_a_triangular_nest_is_left_alone() -> None:
    body = "float s = 0.0f; for (int b = 0; b < n; ++b) for (int p = 0; p < b; ++p) s += x[(b * c + ch) * hw + p]; " \
           "y[ch] = s;"
    program = lift(candidate_of("triangle.cu", CHANNELS % body))
    assert collapsed(program) is program
