"""A disagreement with a reference that adds floats with atomics, judged against its program in double
(EvaluateJob.exact), on a real GPU: the per-block sum that the naive kernel's fp32 total is 10% from (an H200) passes,
in verification and in the timed launches, and says so; a per-block sum that drops an element is still rejected.
Skipped without a CUDA device."""

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import VerifyPolicy
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ENERGY = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "exact" / "energy.cu"


@pytest.fixture(scope="module")
def evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23), use_cache=False)


def kernels(*names):
    document = CudaDocument(ENERGY.read_text(), str(ENERGY))
    return [original_candidate(document, name) for name in names]


def test_a_more_accurate_sum_passes_against_the_program_in_double(evaluator):
    naive, blocks = kernels("energy_naive", "energy_blocks")
    measured = evaluator.evaluate(blocks, naive, incumbent=naive)
    assert measured.ok, measured.reason
    benchmark = measured.checks[0]
    assert benchmark.binding == {"n": 16777216} and benchmark.against_exact
    assert measured.speedup is not None and measured.speedup.median > 5


def test_a_sum_that_drops_an_element_is_still_rejected(evaluator):
    naive, wrong = kernels("energy_naive", "energy_blocks_drops_last")
    measured = evaluator.evaluate(wrong, naive)
    assert measured.verdict == "wrong", measured.reason
