import pytest


def gpu_available() -> bool:
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    if gpu_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def gpu_pool():
    """One worker pool for every GPU test: worker processes start once per session."""
    from optiml_engine.gpu.pool import WorkerPool

    with WorkerPool() as pool:
        yield pool


@pytest.fixture(scope="session")
def verifying_evaluator(gpu_pool):
    """For tests where verification is the point (every rewrite of a rule family): a short timing keeps the many
    candidates quick."""
    from optiml_engine.evaluate import Evaluator
    from optiml_engine.model import TimingPolicy, VerifyPolicy

    timing = TimingPolicy(warmup_runs=1, min_runs=3, max_runs=5, max_seconds=0.5)
    return Evaluator(gpu_pool, verify=VerifyPolicy(seed=23, timeout_s=30), timing=timing, use_cache=False)
