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
