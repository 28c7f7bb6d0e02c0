"""The evaluator on a real GPU: examples verify, planted defects are rejected with the right reason, the caller
survives crashes and hangs. Skipped without a CUDA device."""

import re
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.model import VerifyPolicy
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
DEFECTS = sorted((ROOT / "tests" / "gpu" / "defects").glob("*.cu"))
EXPECT = re.compile(r"//\s*expect:\s*([a-z_ ]+?)(?:\s*\|\s*([a-z]+))?\s*$", re.M)


@pytest.fixture(scope="module")
def evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=11), use_cache=False)


@pytest.fixture(scope="module")
def impatient(gpu_pool):
    """For the planted hang: a short timeout keeps the test short (the default's 60 s would also catch it)."""
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=11, timeout_s=20), use_cache=False)


def load(path: Path, kernel: str | None = None):
    document = CudaDocument(path.read_text(), str(path))
    candidate = original_candidate(document, kernel or document.model.kernels[-1].name)
    return candidate, reference_candidate(document, candidate)


def test_vector_add_verifies_and_is_timed(evaluator):
    candidate, reference = load(ROOT / "examples" / "vector_add.cu", "vector_add")
    measurement = evaluator.evaluate(candidate, reference)
    assert measurement.ok, measurement.reason
    assert len(measurement.checks) == 1 + len(candidate.contract.checks)
    assert measurement.timing.runs >= 20 and measurement.timing.median_ms > 0
    assert 1.0 <= measurement.sol.headroom < 10


@pytest.mark.parametrize("path", DEFECTS, ids=[p.stem for p in DEFECTS])
def test_planted_defect_is_rejected_with_its_reason(evaluator, impatient, path):
    expected, tool = EXPECT.search(path.read_text()).groups()
    candidate, reference = load(path)
    measurement = (impatient if expected == "timeout" else evaluator).evaluate(candidate, reference)
    assert measurement.verdict in expected.split(), measurement.reason
    if tool:
        (report,) = evaluator.sanitize(candidate, reference, tools=(tool,))
        assert report.errors > 0, report.log_tail


def test_caller_survives_crash_and_next_candidate_runs(evaluator):
    crash, reference = load(ROOT / "tests" / "gpu" / "defects" / "crash.cu")
    assert evaluator.evaluate(crash, reference).verdict == "crash"
    assert evaluator.pool.workers[0].last_replacement_s < 3
    good, _ = load(ROOT / "examples" / "relu_scale.cu", "relu_scale")
    assert evaluator.evaluate(good).ok


def test_resource_report_survives_the_drivers_compute_cache():
    """With a driver present, NVRTC may serve a repeated compile from the compute cache and skip ptxas' report."""
    import cupy

    from optiml_engine.gpu.compile import compile_nvrtc

    cupy.zeros(1).sum()          # a live context, as in the evaluator's own process
    candidate, _ = load(ROOT / "examples" / "row_max.cu", "row_max")
    first, second = (compile_nvrtc(candidate.unit, arch="sm_90") for _ in range(2))
    assert first.ok and second.ok, second.diagnostics
    assert first.resources == second.resources and first.resources.registers > 0


def test_profile_diagnoses_a_streaming_kernel_as_memory_bound(evaluator):
    candidate, _ = load(ROOT / "examples" / "vector_add.cu", "vector_add")
    measurement = evaluator.evaluate(candidate)
    (profile,) = evaluator.profile([(candidate, measurement)])
    assert profile.metrics is not None, profile.note
    assert profile.diagnosis.bound == "memory", profile.diagnosis.explanation
    assert profile.metrics.metrics["dram_pct"] > 50
