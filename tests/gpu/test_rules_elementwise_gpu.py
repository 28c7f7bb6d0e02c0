"""Every rewrite of the elementwise rules and launch knobs, on every example and rule test kernel they fire on,
verifies against the original on a real GPU (all contract sizes, poisoned outputs, race and uninitialized-read
checks). Skipped without a CUDA device."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate
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


@pytest.mark.parametrize("original, made", CASES,
                         ids=[f"{o.unit.kernel}-{m.rule}-{m.description}" for o, m in CASES])
def test_rewrite_verifies_against_the_original(verifying_evaluator, original, made):
    measurement = verifying_evaluator.evaluate(made.candidate, reference=original)
    assert measurement.ok, f"{measurement.verdict}: {measurement.reason}\n{made.candidate.unit.text}"
