"""Two nested loops swapped (ir/interchange.py): a multi-channel 3x3 convolution's taps walked column by column, so
that its reads move with the inner loop along y and a thread's points along y share them through a register window;
every such schedule equals the naive kernel on the CPU emulator at the contract's check sizes. Nests whose loops
read each other, or whose update is not a commutative reduction, are left as they are."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interchange import interchanged
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import ROOT, candidate_of

STENCIL = """/* @optiml
   sizes: H=512 W=512
   check: H=9 W=7; H=1 W=1
   x: in float[H*W]
   y: out {out}[H*W]
   launch: grid=(cdiv(W,16),cdiv(H,16)) block=(16,16)
   tol: 1e-5
*/
__global__ void k(const float* x, {out}* y, int H, int W)
{{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= H || c >= W) return;
    {body}
}}
"""


def test_a_convolution_walked_column_by_column_shares_its_reads_along_y() -> None:
    naive = candidate_of(ROOT / "tests/heldout/conv2d_3x3_multichan.cu")
    program = lift(naive)
    assert "y" not in shape_of(program).slid
    swapped = interchanged(program)
    shape = shape_of(swapped)
    assert "y" in shape.slid
    windows = [s for s in space(shape, "map") if s.window and s.fused_axis == "y"]
    assert windows
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=4)
        expected = run_on_cpu(naive, binding, inputs)
        for schedule in windows[::3]:
            got = run_on_cpu(emit(swapped, shape, schedule, naive), binding, inputs)
            found = compare(np, "out", got["out"], expected["out"], "float32", naive.contract.tol,
                            naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


@pytest.mark.parametrize("body, out", [
    # The inner loop's bound reads the outer loop's variable: a triangle, not a rectangle.
    ("float s = 0.f; for (int a = 0; a < 3; ++a) for (int b = 0; b < a; ++b) "
     "s += x[min(r + a, H - 1) * W + min(c + b, W - 1)]; y[r * W + c] = s;", "float"),
    # An argmax keeps the first place of the maximum: walked in another order it may keep another.
    ("float best = -1e30f; int at = 0; for (int a = 0; a < 3; ++a) for (int b = 0; b < 3; ++b) { "
     "if (x[min(r + a, H - 1) * W + min(c + b, W - 1)] > best) { best = x[min(r + a, H - 1) * W + min(c + b, W - 1)]; "
     "at = a * 3 + b; } } y[r * W + c] = at;", "int"),
    # Something beside the inner loop in the outer one's body.
    ("float s = 0.f; for (int a = 0; a < 3; ++a) { s += 1.0f; for (int b = 0; b < 3; ++b) "
     "s += x[min(r + a, H - 1) * W + min(c + b, W - 1)]; } y[r * W + c] = s;", "float"),
])
def test_loops_that_may_not_be_swapped_are_left_alone(body, out) -> None:
    program = lift(candidate_of("nest.cu", STENCIL.format(body=body, out=out)))
    assert interchanged(program) is program
