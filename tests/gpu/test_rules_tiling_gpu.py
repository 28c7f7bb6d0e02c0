"""Every rewrite of the tiling rules, on every example and test kernel (tests/rules/tiling/) it fires on, verifies
against the original kernel on a GPU: fresh inputs at the benchmark size and every checked size, poisoned outputs,
race and uninitialized-read detection. Skipped without a CUDA device."""

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import VerifyPolicy
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules.tiling import RULES
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "examples").glob("*.cu")) + sorted((ROOT / "tests" / "rules" / "tiling").glob("*.cu"))


def firing() -> list[tuple[Path, str, str]]:
    """(file, kernel, rule) for every contracted kernel a tiling rule fires on."""
    found = []
    for path in SOURCES:
        document = CudaDocument(path.read_text(), str(path))
        for kernel in document.model.kernels:
            if kernel.comment is None:
                continue
            view = KernelView.of(original_candidate(document, kernel.name))
            found += [(path, kernel.name, rule.name) for rule in RULES if rule.detect(view)]
    return found


CASES = firing()


@pytest.fixture(scope="module")
def tiling_evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=29, timeout_s=60), use_cache=False)


def test_every_rule_fires_somewhere():
    assert {rule for _, _, rule in CASES} == {rule.name for rule in RULES}


@pytest.mark.parametrize("path, kernel, rule_name", CASES, ids=[f"{kernel}-{rule}" for _, kernel, rule in CASES])
def test_every_rewrite_verifies_against_the_original(tiling_evaluator, path, kernel, rule_name):
    original = original_candidate(CudaDocument(path.read_text(), str(path)), kernel)
    rule = next(rule for rule in RULES if rule.name == rule_name)
    edits = rule.rewrite(KernelView.of(original), original)
    assert edits
    for edit in edits:
        measurement = tiling_evaluator.evaluate(edit.candidate, reference=original)
        assert measurement.ok, f"{edit.description}: {measurement.verdict}: {measurement.reason}"
