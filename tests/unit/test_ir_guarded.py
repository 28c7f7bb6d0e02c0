"""Guarded sums made unconditional (optiml_engine/ir/guarded.py): a masked running sum becomes a scan, the rewritten
program and its scan schedules equal the user's kernel on the CPU; ifs with more in them stay."""

from __future__ import annotations

import numpy as np

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.guarded import guarded_sums
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import LoopProgram
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

MASKED = """
/* @optiml
   sizes: rows=256 cols=4096
   check: rows=3 cols=5; rows=1 cols=1; rows=37 cols=1000; rows=2 cols=3001
   x: in float[rows*cols]
   keep: in int[rows*cols] range(0,2)
   y: out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void masked_running_sum(const float* x, const int* keep, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float running = 0.0f;
    for (int c = 0; c < cols; ++c) {
        if (keep[r * cols + c]) running += x[r * cols + c];
        y[r * cols + c] = running;
    }
}
"""


def lifted(text: str):
    document = CudaDocument(text, "user.cu")
    candidate = original_candidate(document, document.model.kernels[0].name)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    return candidate, program


def test_a_guarded_running_sum_becomes_a_scan_equal_to_the_kernel() -> None:
    candidate, program = lifted(MASKED)
    assert "scan" not in shape_of(program).families
    rewritten = guarded_sums(program)
    assert "running += keep[r * cols + c] ? x[r * cols + c] : 0;" in str(rewritten)
    shape = shape_of(rewritten)
    assert "scan" in shape.families
    scans = [emit(rewritten, shape, schedule, candidate) for schedule in defaults(shape, "scan")]
    for binding in candidate.contract.checks:
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=4)
        expected = run_on_cpu(candidate, binding, inputs)["y"]
        assert np.allclose(run_program(rewritten, resolved, candidate.contract.arrays, inputs)["y"], expected,
                           rtol=1e-5, atol=1e-5)
        for scan in scans:
            assert np.allclose(run_on_cpu(scan, binding, inputs)["y"], expected, rtol=1e-4, atol=1e-4), \
                scan.description


def test_an_if_with_more_than_the_sum_stays() -> None:
    _, with_else = lifted(MASKED.replace("running += x[r * cols + c];",
                                         "running += x[r * cols + c]; else running -= 1.0f;"))
    assert guarded_sums(with_else) is with_else
    _, two = lifted(MASKED.replace("if (keep[r * cols + c]) running += x[r * cols + c];",
                                   "if (keep[r * cols + c]) { running += x[r * cols + c]; running *= 0.5f; }"))
    assert guarded_sums(two) is two
