"""Every rewrite of the row-reduction rules (warp_per_row, block_per_row), on every example and test kernel they fire
on, verifies against its original on a GPU: all check sizes, fresh inputs, poisoned outputs. Skipped without a CUDA
device."""

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import TimingPolicy, VerifyPolicy
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.row_reduction import RULES
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
KERNELS = [ROOT / "examples" / f"{name}.cu" for name in ("row_max", "layernorm_rows", "cross_entropy_rows",
                                                         "gemv_rowmajor")]
KERNELS += sorted((ROOT / "tests" / "rules" / "row_reduction").glob("*.cu"))


@pytest.fixture(scope="module")
def row_reduction_evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    # Verification is the point here; a short timing keeps the run quick (suspect-fast still applies).
    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23, timeout_s=30),
                     timing=TimingPolicy(warmup_runs=1, min_runs=5, max_runs=20, max_seconds=0.5),
                     use_cache=False)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_every_rewrite_verifies_against_the_original(row_reduction_evaluator, path, rule):
    document = CudaDocument(path.read_text(), str(path))
    original = original_candidate(document, document.model.kernels[-1].name)
    view = KernelView.of(original)
    assert rule.detect(view)
    edits = rule.rewrite(view, original)
    assert edits
    failures = []
    for edit in edits:
        measurement = row_reduction_evaluator.evaluate(edit.candidate, reference=original)
        if not measurement.ok:
            failures.append(f"{edit.description}: {measurement.verdict} {measurement.reason}")
    assert not failures, failures
