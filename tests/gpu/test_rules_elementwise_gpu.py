"""Every rewrite of the elementwise rules and launch knobs, on every example and rule test kernel they fire on,
verifies against the original on a real GPU (all contract sizes, poisoned outputs, race and uninitialized-read
checks). Skipped without a CUDA device."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate, TimingPolicy, VerifyPolicy
from optiml_engine.policies.base import Edit
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import elementwise, knobs
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
FILES = [*sorted((ROOT / "examples").glob("*.cu")), *sorted((ROOT / "tests" / "rules" / "elementwise").glob("*.cu"))]


def rewrites() -> list[tuple[Candidate, Edit]]:
    """(original, edit) for every rule that fires on every contracted kernel of FILES (CPU only: collection)."""
    cases = []
    for path in FILES:
        document = CudaDocument(path.read_text(), str(path.relative_to(ROOT)))
        for kernel in document.model.kernels:
            if kernel.comment is None:
                continue
            original = original_candidate(document, kernel.name)
            view = KernelView.of(original)
            for rule in [*elementwise.RULES, *knobs.RULES]:
                if rule.detect(view):
                    cases += [(original, made) for made in rule.rewrite(view, original)]
    return cases


CASES = rewrites()


@pytest.fixture(scope="module")
def rules_evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    # Verification is the point; a short timing keeps the many candidates quick.
    timing = TimingPolicy(warmup_runs=1, min_runs=3, max_runs=5, max_seconds=0.5)
    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23, timeout_s=30), timing=timing, use_cache=False)


@pytest.mark.parametrize("original, made", CASES,
                         ids=[f"{o.unit.kernel}-{m.rule}-{m.description}" for o, m in CASES])
def test_rewrite_verifies_against_the_original(rules_evaluator, original, made):
    measurement = rules_evaluator.evaluate(made.candidate, reference=original)
    assert measurement.ok, f"{measurement.verdict}: {measurement.reason}\n{made.candidate.unit.text}"
