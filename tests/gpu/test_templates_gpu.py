"""Every default instance of every template, on every example it recognizes, verifies against the naive kernel on a
GPU: fresh inputs at the benchmark size and every checked size, poisoned outputs, race and uninitialized-read
detection. Skipped without a CUDA device."""

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import VerifyPolicy
from optiml_engine.policies.templates import matches
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu
ROOT = Path(__file__).resolve().parents[2]


def recognized() -> list[tuple[Path, str, str]]:
    """(file, kernel, template) for every example and every template that recognizes it."""
    found = []
    for path in sorted((ROOT / "examples").glob("*.cu")):
        node = original_candidate(CudaDocument(path.read_text(), str(path)), path.stem)
        found += [(path, path.stem, template.name) for template, _ in matches(node)]
    return found


CASES = recognized()


@pytest.fixture(scope="module")
def templates_evaluator(gpu_pool):
    from optiml_engine.evaluate import Evaluator

    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=31, timeout_s=60), use_cache=False)


@pytest.mark.parametrize("path, kernel, name", CASES, ids=[f"{kernel}-{name}" for _, kernel, name in CASES])
def test_every_default_instance_verifies_against_the_naive_kernel(templates_evaluator, path, kernel, name):
    naive = original_candidate(CudaDocument(path.read_text(), str(path)), kernel)
    template, match = next((t, m) for t, m in matches(naive) if t.name == name)
    device = templates_evaluator.device
    for params in template.defaults(match, device):
        instance = template.instance(match, params, device, compile=lambda c: templates_evaluator.compile(c)[0])
        assert instance.pruned is None, f"{params}: {instance.pruned}"
        measurement = templates_evaluator.evaluate(instance.candidate, reference=naive)
        assert measurement.ok, f"{instance.candidate.description}: {measurement.verdict}: {measurement.reason}"
