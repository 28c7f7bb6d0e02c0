"""A point's index digits held in locals before its loops (ir/hoist.py): a convolution written over a flat index
(each output's batch, channel, row and column taken apart with / and %, as generate writes it and as naive kernels
are written) keeps the channel and batch digits out of its loops in every map schedule with a point a thread (held
in the kernel's own locals where it names them, `const int co = i / width / height % cout;`, else in hoisted ones),
and each such schedule equals the plain kernel on the CPU emulator."""

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
from optiml_engine.ir.lift import lift
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
