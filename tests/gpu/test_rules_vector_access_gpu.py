"""Every rewrite of the vector access rules verifies against the original on a real GPU (all contract sizes, poisoned
outputs, race and uninitialized-read checks): vectorize_grid_stride on the hand-written loops of
tests/rules/vector_access/ and composed with each example's first rewrite that writes a grid-stride loop (a template
instance, grid_stride, atomic_block_reduce); pair_loads on every kernel it fires on (pairs.cu, the examples, other
families' rule kernels) and composed with block_size. Each checked against the naive kernel. Skipped without a CUDA
device."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate
from optiml_engine.policies.base import Edit, PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import RulePolicy
from optiml_engine.policies.rules.vector_access import PairLoads, VectorizeGridStride
from optiml_engine.policies.templates import TemplatePolicy
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
VECTORIZE, PAIRS = VectorizeGridStride(), PairLoads()


def vectorized(candidate: Candidate, rule=VECTORIZE) -> list[Edit]:
    view = KernelView.of(candidate)
    return rule.rewrite(view, candidate) if rule.detect(view) else []


def cases() -> list[tuple[str, Candidate, Edit]]:
    """(what was vectorized, the original to verify against, the rewrite); CPU only: collection."""
    found = []
    fixtures = ROOT / "tests" / "rules" / "vector_access" / "grid_stride.cu"
    document = CudaDocument(fixtures.read_text(), str(fixtures.relative_to(ROOT)))
    for kernel in document.model.kernels:
        original = original_candidate(document, kernel.name)
        found += [(kernel.name, original, made) for made in vectorized(original)]
    for path in sorted((ROOT / "examples").glob("*.cu")):
        document = CudaDocument(path.read_text(), str(path.relative_to(ROOT)))
        naive = original_candidate(document, path.stem)
        for edit in RulePolicy().propose(naive, PolicyContext()) + TemplatePolicy().propose(naive, PolicyContext()):
            found += [(f"{path.stem} after {edit.rule} ({edit.description})", naive, made)
                      for made in vectorized(edit.candidate)]
            if edit.rule == "block_size":
                found += [(f"{path.stem} pairs after {edit.description}", naive, made)
                          for made in vectorized(edit.candidate, PAIRS)]
    for path in [*sorted((ROOT / "examples").glob("*.cu")), *sorted((ROOT / "tests" / "rules").glob("*/*.cu"))]:
        document = CudaDocument(path.read_text(), str(path.relative_to(ROOT)))
        for kernel in document.model.kernels:
            if kernel.comment is not None:
                original = original_candidate(document, kernel.name)
                found += [(f"{kernel.name} pairs", original, made) for made in vectorized(original, PAIRS)]
    return found


CASES = cases()


@pytest.mark.parametrize("what, original, made", CASES, ids=[what for what, _, _ in CASES])
def test_vectorized_loop_verifies_against_the_original(verifying_evaluator, what, original, made):
    measurement = verifying_evaluator.evaluate(made.candidate, reference=original)
    assert measurement.ok, f"{what}: {measurement.verdict}: {measurement.reason}\n{made.candidate.unit.text}"
