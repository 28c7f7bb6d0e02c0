"""Device ceilings (copy bandwidth, fp32 GEMM rate), measured once per device and driver and cached."""

from __future__ import annotations

from optiml_engine.cache import open_cache
from optiml_engine.gpu.pool import WorkerPool
from optiml_engine.model import DeviceCeilings, DeviceInfo


CEILINGS_PREFIX = "ceilings:"


def ceilings_key(device: DeviceInfo) -> str:
    return f"{CEILINGS_PREFIX}{device.name}:{device.compute_capability}:{device.driver}:{device.memory_bytes}"


def device_ceilings(pool: WorkerPool) -> DeviceCeilings:
    device = pool.devices[0]
    cache = open_cache()
    key = ceilings_key(device)
    stored = cache.get(key)
    if stored is not None:
        return DeviceCeilings.model_validate_json(stored)
    measured = pool.ceilings()
    cache.set(key, measured.model_dump_json())
    return measured
