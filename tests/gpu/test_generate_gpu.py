"""Generated kernels on a real GPU: each intent's first kernel (its program's first schedule, as generate writes it;
the plain kernel too) verifies against its NumPy reference oracle at every contract size, and a kernel that
disagrees with the oracle is rejected as wrong. Skipped without a CUDA device
(bench/generate_bench.py adds timing and optimization)."""

import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.algorithm import first_kernel
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import parse_intent
from optiml_engine.model import TimingPolicy, VerifyPolicy
from optiml_engine.source.parse import CudaDocument
from tests.intents import INTENTS

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23, timeout_s=60), timing=TimingPolicy(max_seconds=0.5),
                     use_cache=False)


def generated(intent: str, edit=None, scheduled=False):
    kernel = generate_kernel(parse_intent(intent))
    kernel = first_kernel(kernel) if scheduled else kernel
    text = kernel.text if edit is None else edit(kernel.text)
    document = CudaDocument(text, f"<{kernel.kernel}>")
    candidate = original_candidate(document, kernel.kernel)
    return candidate, reference_candidate(document, candidate)


@pytest.mark.parametrize("scheduled", [True, False], ids=["first", "plain"])
@pytest.mark.parametrize("intent", [case[0] for case in INTENTS], ids=[case[0][:40] for case in INTENTS])
def test_generated_kernel_verifies_against_its_oracle(evaluator, intent, scheduled):
    candidate, oracle = generated(intent, scheduled=scheduled)
    measurement = evaluator.evaluate(candidate, oracle)
    assert measurement.ok, f"{measurement.verdict}: {measurement.reason}"
    assert len(measurement.checks) == 1 + len(candidate.contract.checks)


def test_a_kernel_that_disagrees_with_the_oracle_is_rejected(evaluator):
    # softmax without the division by the row's total: every element written, none right
    candidate, oracle = generated("row-wise softmax of x (rows x cols) into y",
                                  lambda text: text.replace(" / total;", ";"))
    measurement = evaluator.evaluate(candidate, oracle)
    assert measurement.verdict == "wrong" and "relative L2 error" in measurement.reason
