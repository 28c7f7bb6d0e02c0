"""A point's index digits held in locals before its loops (ir/hoist.py): a convolution written over a flat index
(each output's batch, channel, row and column taken apart with / and %, as generate writes it and as naive kernels
are written) keeps the channel and batch digits out of its loops in every map schedule with a point a thread (held
in the kernel's own locals where it names them, `const int co = i / width / height % cout;`, else in hoisted ones),
and each such schedule equals the plain kernel on the CPU emulator. A row op's reads after its loops (a cross
entropy's label and the logit it picks) are issued before the loops in every reduce schedule, a read under a
condition or of an array the kernel writes stays where it is, and each schedule still equals the kernel."""

from __future__ import annotations

import re

import numpy as np

from optiml_engine.candidate import original_candidate
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import parse_intent
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.hoist import hoisted_reads
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import Let
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

CONVOLUTION = "y = conv2d(x, w, padding=1); x: float32[8, 16, 20, 20]; w: float32[8, 16, 3, 3]"


def test_a_flat_index_convolutions_digits_leave_its_loops_and_it_still_computes_the_same() -> None:
    generated = generate_kernel(parse_intent(CONVOLUTION))
    plain = original_candidate(CudaDocument(generated.text, "conv.cu"), generated.kernel)
    program = lift(plain)
    shape = shape_of(program)
    schedules = [s for s in space(shape, "map") if not s.fused and s.vector == 1]
    assert schedules
    for schedule in schedules:
        text = emit(program, shape, schedule, plain).unit.text
        loops = text[text.index("for (int c = 0;"):]
        assert not re.search(r"\bi / ", loops), schedule.describe()
    for binding in plain.contract.checks:
        inputs = make_inputs(np, plain.contract.arrays, resolve(plain.contract, binding).lengths, seed=5)
        expected = run_on_cpu(plain, binding, inputs)
        for schedule in schedules[:3]:
            got = run_on_cpu(emit(program, shape, schedule, plain), binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", plain.contract.tol, plain.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


ROW_PICK = """/* @optiml
   sizes:  rows=1024 cols=1000
   check:  rows=5 cols=7; rows=1 cols=1; rows=3 cols=33
   x:      in  float[rows*cols]
   pick:   in  int[rows] range(0,1)
   scale:  inout float[rows]
   out:    out float[rows]
   launch: grid=cdiv(rows,128) block=128
   tol:    1e-4
*/
__global__ void row_pick(const float* x, const int* pick, float* scale, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) s += x[r * cols + c];
        int p = pick[r];
        float guarded = s > 0.0f ? x[r * cols + p + 1 < r * cols + cols ? r * cols + p + 1 : r * cols] : 0.0f;
        out[r] = s - x[r * cols + p] + guarded * scale[r];
        scale[r] = s;
    }
}
"""


def test_reads_after_a_row_ops_loops_are_issued_before_them_and_it_still_computes_the_same() -> None:
    plain = original_candidate(CudaDocument(ROW_PICK, "row_pick.cu"), "row_pick")
    program = lift(plain)
    written = {"scale", "out"}
    early, body = hoisted_reads(program.body, {"r", "rows", "cols"},
                                {a.name for a in program.arrays if a.name not in written}, lambda n: n + "_early",
                                program.element_type)
    # The pick and the element it picks move; the read under ?: and the read of `scale` (written) stay.
    assert [stmt.name for stmt in early] == ["p", "x_read_early"]
    assert not any(isinstance(stmt, Let) and stmt.name == "p" for stmt in body)
    rest = str(body[-2:])
    assert "scale" in rest and "x_read_early" in rest and "guarded" in str(body)
    shape = shape_of(program)
    schedules = [s for s in space(shape, "reduce") if s.lanes_axis == "x" and not s.held][:6]
    assert schedules
    for schedule in schedules:
        text = emit(program, shape, schedule, plain).unit.text
        kernel = text[text.index("__global__"):]
        assert kernel.index("= pick[") < kernel.index("for ("), schedule.describe()
        for binding in plain.contract.checks:
            inputs = make_inputs(np, plain.contract.arrays, resolve(plain.contract, binding).lengths, seed=7)
            want = run_on_cpu(plain, binding, inputs)
            got = run_on_cpu(emit(program, shape, schedule, plain), binding, inputs)
            for spec in plain.contract.arrays:
                if spec.direction != "in":
                    found = compare(np, spec.param, got[spec.param], want[spec.param], spec.dtype,
                                    plain.contract.tol, plain.contract.atol)
                    assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"
