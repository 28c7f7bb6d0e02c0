"""The reference's program in double, for kernels that add floats with atomics (EvaluateJob.exact): which kernels
get one, that it computes their math without fp32 rounding at the benchmark size, and why it is needed (the naive
kernel's own fp32 total is further from the sum than a contract's tolerance)."""

from collections import OrderedDict
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.evaluate import float_atomic_program
from optiml_engine.gpu.data import make_inputs
from optiml_engine.ir.interpret import run_program
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
ENERGY = ROOT / "tests" / "fixtures" / "exact" / "energy.cu"


def candidate(path: Path, kernel: str | None = None):
    document = CudaDocument(path.read_text(), str(path))
    return original_candidate(document, kernel or document.model.kernels[0].name)


@pytest.mark.parametrize(("path", "has_program"), [
    ("tests/fixtures/exact/energy.cu", True),          # float atomics into one address
    ("examples/dot_atomic.cu", True),
    ("examples/histogram64.cu", False),                 # integer atomics: exact in any order
    ("examples/vector_add.cu", False),                  # no atomics
    ("examples/layernorm_rows.cu", False),
])
def test_only_kernels_that_add_floats_with_atomics_get_a_program_in_double(path, has_program):
    assert (float_atomic_program(candidate(ROOT / path)) is not None) == has_program


def test_the_program_in_double_is_the_exact_sum_where_fp32_accumulation_is_not():
    naive = candidate(ENERGY, "energy_naive")
    program = float_atomic_program(naive)
    contract = naive.contract
    resolved = resolve(contract, contract.sizes)                    # n = 2^24, the benchmark size
    inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=3)
    exact = run_program(program, resolved, contract.arrays, inputs, exact=True)["energy"]
    x = inputs["x"].astype(np.float64)
    expected = inputs["energy"].astype(np.float64) + np.sum(x * x + 1.0)
    assert exact.dtype == np.float64 and abs(exact[0] - expected[0]) <= 1e-9 * abs(expected[0])
    # One fp32 addition after another, as atomics into one address make them (in some order): far from the sum.
    sequential = np.cumsum(np.concatenate([inputs["energy"], (x * x + 1.0).astype(np.float32)]), dtype=np.float32)[-1]
    assert abs(sequential - expected[0]) > contract.tol * abs(expected[0])


def test_the_worker_reads_the_exact_outputs_in_their_storage_type_and_keeps_them():
    from optiml_engine.gpu.worker import EvaluateJob, exact_outputs

    naive, blocks = candidate(ENERGY, "energy_naive"), candidate(ENERGY, "energy_blocks")
    # exact_outputs runs on the host: NumPy stands in for CuPy's host copies (CI has no GPU).
    device = SimpleNamespace(cp=SimpleNamespace(asnumpy=np.asarray, asarray=np.asarray), references=OrderedDict())
    kernel = SimpleNamespace(key="k", contract=blocks.contract)
    job = EvaluateJob.model_construct(candidate=kernel, reference=SimpleNamespace(key="r"),
                                      exact=float_atomic_program(naive))
    binding = {"n": 1000}
    inputs = make_inputs(np, blocks.contract.arrays, resolve(blocks.contract, binding).lengths, seed=5)
    first = exact_outputs(device, job, binding, 5, inputs)
    assert first["energy"].dtype == np.float32
    x = inputs["x"].astype(np.float64)
    assert first["energy"][0] == np.float32(inputs["energy"][0] + np.sum(x * x + 1.0))
    assert exact_outputs(device, job, binding, 5, inputs) is first and len(device.references) == 1
