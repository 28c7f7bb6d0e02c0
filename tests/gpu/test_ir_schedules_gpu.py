"""Every enumerated schedule of every lifted kernel (tests/ir_cases.py), emitted, run on the GPU: its outputs equal
the program's CPU result (the NumPy interpreter) at the contract's smallest check sizes, and it passes the verifier's
whole protocol (fresh inputs, poisons, races, every size) against the original kernel."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.source.contract import resolve
from tests.ir_cases import case_id, cases, scheduled

pytestmark = pytest.mark.gpu
CASES = cases(every=True)


@pytest.fixture(scope="module")
def device():
    from optiml_engine.gpu.worker import Device
    return Device(0)


def run_on_gpu(device, candidate, binding, inputs):
    import cupy as cp

    from optiml_engine.gpu.compile import compile_nvrtc
    from optiml_engine.gpu.worker import CompiledKernel, run_once
    compiled = compile_nvrtc(candidate.unit, arch=device.info.arch())
    assert compiled.ok, compiled.log
    kernel = CompiledKernel(key=candidate.unit.text, cubin=compiled.cubin, lowered_name=compiled.lowered_name,
                            params=candidate.params, contract=candidate.contract)
    outputs = run_once(device, kernel, resolve(candidate.contract, binding),
                       {k: cp.asarray(v) for k, v in inputs.items()}, poison=0)
    return {k: cp.asnumpy(v) for k, v in outputs.items()}


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_schedule_equals_the_program_and_verifies(case, device, verifying_evaluator) -> None:
    path, digits, schedule = case
    naive, program, shape = scheduled(path, digits)
    emitted = emit(program, shape, schedule, naive)
    binding = min(naive.contract.checks or [naive.contract.sizes], key=lambda b: sum(b.values()))
    resolved = resolve(naive.contract, binding)
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=7)
    expected = run_program(program, resolved, naive.contract.arrays, inputs)
    got = run_on_gpu(device, emitted, binding, inputs)
    for spec in naive.contract.arrays:
        if spec.direction != "in":
            found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, naive.contract.tol,
                            naive.contract.atol)
            assert found.ok, f"{found.reason}\n{emitted.unit.text}"
    measurement = verifying_evaluator.evaluate(emitted, naive)
    # suspect_fast is judged after verification passed: the timing guard, not correctness. It fires on jacobi2d,
    # whose contract counts its in/out array as read although the kernel only writes it (the floor overcounts).
    assert measurement.ok or measurement.verdict == "suspect_fast", \
        f"{measurement.verdict}: {measurement.reason}\n{emitted.unit.text}"
