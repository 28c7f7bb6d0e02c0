"""The atomics rule family on a real GPU: every rewrite of every example and test kernel the rules fire on verifies
against its original (fresh inputs at every contract size, poisoned outputs, races), and the block-level versions
of the two atomics-bound examples beat the originals by far. Skipped without a CUDA device."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate, OptimlError, VerifyPolicy
from optiml_engine.policies.base import Edit
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.atomics import RULES
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "examples").glob("*.cu")) + sorted((ROOT / "tests" / "rules" / "atomics").glob("*.cu"))


def rewritten(path: Path, kernel: str) -> tuple[Candidate, list[Edit]]:
    original = original_candidate(CudaDocument(path.read_text(), str(path)), kernel)
    view = KernelView.of(original)
    return original, [edit for rule in RULES if rule.detect(view) for edit in rule.rewrite(view, original)]


def fired() -> list[tuple[Path, str]]:
    """Every (file, kernel) with a contract that some rule of the family rewrites (found without a GPU)."""
    found = []
    for path in SOURCES:
        for kernel in CudaDocument(path.read_text(), str(path)).model.kernels:
            try:
                if rewritten(path, kernel.name)[1]:
                    found.append((path, kernel.name))
            except OptimlError:      # no contract: nothing to verify it with
                continue
    return found


FIRED = fired()


@pytest.fixture(scope="module")
def atomics_evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23, timeout_s=60), use_cache=False)


def test_the_rules_fire_on_both_atomics_examples():
    assert {(p.name, k) for p, k in FIRED} >= {("dot_atomic.cu", "dot_atomic"), ("histogram64.cu", "histogram64")}


@pytest.mark.parametrize("path, kernel", FIRED, ids=[f"{p.parent.name}-{k}" for p, k in FIRED])
def test_every_rewrite_verifies(atomics_evaluator, path, kernel):
    original, edits = rewritten(path, kernel)
    failures = []
    for edit in edits:
        measurement = atomics_evaluator.evaluate(edit.candidate, reference=original)
        if not measurement.ok:
            failures.append(f"{edit.description}: {measurement.verdict}: {measurement.reason}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("kernel", ["dot_atomic", "histogram64"])
def test_the_best_rewrite_of_an_atomics_example_is_much_faster(atomics_evaluator, kernel):
    original, edits = rewritten(ROOT / "examples" / f"{kernel}.cu", kernel)
    before = atomics_evaluator.evaluate(original)
    best = min(atomics_evaluator.evaluate(edit.candidate, reference=original).timing.median_ms for edit in edits)
    assert before.ok and best * 10 < before.timing.median_ms, (best, before.timing.median_ms)
