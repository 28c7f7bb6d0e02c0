"""The on-disk cache of measurements, profiles and device ceilings (diskcache, safe across processes)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import diskcache


def cache_dir() -> Path:
    return Path(os.environ.get("OPTIML_CACHE", Path.home() / ".cache" / "optiml"))


def open_cache() -> diskcache.Cache:
    return diskcache.Cache(str(cache_dir()))


def content_key(*parts: str) -> str:
    """A stable key over the parts that decide a result (source, contract, flags, device, driver, toolkit)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()
