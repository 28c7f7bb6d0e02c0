"""Kernel data from a contract: seeded inputs, poisoned outputs, and the float64 view used for comparison.

Written against the array API that NumPy and CuPy share (`xp`), so that CI checks the same code on the CPU that the
worker runs on the GPU. bfloat16 has no NumPy/CuPy dtype: it lives in uint16 arrays holding the bit patterns.
"""

from __future__ import annotations

from typing import Any

from optiml_engine.model import ArraySpec, Dtype, InitSpec
from optiml_engine.source.ctypes import is_integer, numpy_name

# Two poisons per element type: the first run sees the first, the repeat run the second. The first is NaN for
# floats, so that any arithmetic on an unwritten value shows; the second is a small value with distinctive bits, so
# that an element still holding it exactly was never written (a huge value would absorb an accumulation unchanged
# and make a read-before-write look like an unwritten element).
FLOAT_POISONS = (float("nan"), -7.7509e-4)
HALF_POISONS = (0x7E00, 0x925A)               # float16 NaN, about -7.75e-4
BF16_POISONS = (0x7FC0, 0xBA4B)               # bfloat16 NaN, about -7.75e-4
INT_POISON_BYTES = (0xAB, 0x5C)


def storage_dtype(dtype: Dtype) -> str:
    return "uint16" if dtype == "bfloat16" else numpy_name(dtype)


def bf16_from_float32(xp: Any, values: Any) -> Any:
    """Round float32 values to bfloat16 bit patterns (round to nearest even)."""
    bits = values.astype(xp.float32).view(xp.uint32)
    rounded = bits + xp.uint32(0x7FFF) + ((bits >> 16) & xp.uint32(1))
    return (rounded >> 16).astype(xp.uint16)


def as_float64(xp: Any, values: Any, dtype: Dtype) -> Any:
    if dtype == "bfloat16":
        return (values.astype(xp.uint32) << 16).view(xp.float32).astype(xp.float64)
    return values.astype(xp.float64)


def fill(xp: Any, rng: Any, spec: InitSpec, dtype: Dtype, length: int) -> Any:
    """One input array drawn from `rng` (an xp.random.RandomState) as the contract's fill says."""
    if spec.kind == "const":
        values = xp.full(length, spec.args[0], dtype=xp.float64)
    elif spec.kind == "range":
        low, high = int(spec.args[0]), int(spec.args[1])
        return rng.randint(low, high, size=length).astype(storage_dtype(dtype))
    elif spec.kind == "normal":
        values = rng.normal(spec.args[0], spec.args[1], size=length)
    else:
        values = rng.uniform(spec.args[0], spec.args[1], size=length)
    if dtype == "bfloat16":
        return bf16_from_float32(xp, values)
    return values.astype(storage_dtype(dtype))


def make_inputs(xp: Any, arrays: list[ArraySpec], lengths: dict[str, int], seed: int) -> dict[str, Any]:
    """Inputs (in and inout arrays) for one trial; the same seed gives the same arrays on the same backend."""
    rng = xp.random.RandomState(seed)
    return {a.param: fill(xp, rng, a.init, a.dtype, lengths[a.param]) for a in arrays if a.direction != "out"}


def poisoned(xp: Any, dtype: Dtype, length: int, which: int) -> Any:
    """An output buffer filled with poison number `which` (0 or 1)."""
    if dtype == "bfloat16":
        return xp.full(length, BF16_POISONS[which], dtype=xp.uint16)
    if dtype == "float16":
        return xp.full(length, HALF_POISONS[which], dtype=xp.uint16).view(xp.float16)
    if is_integer(dtype) or dtype == "bool":
        buffer = xp.full(length * xp.dtype(storage_dtype(dtype)).itemsize, INT_POISON_BYTES[which], dtype=xp.uint8)
        return buffer.view(storage_dtype(dtype))
    return xp.full(length, FLOAT_POISONS[which], dtype=storage_dtype(dtype))


def still_poisoned(xp: Any, values: Any, dtype: Dtype, which: int) -> Any:
    """Mask of elements whose bits equal poison `which` exactly."""
    reference = poisoned(xp, dtype, 1, which)
    if dtype in ("float32", "float64"):
        if which == 0:
            return xp.isnan(values)
        return values == reference[0]
    return values.view(f"uint{8 * values.dtype.itemsize}") == reference.view(f"uint{8 * values.dtype.itemsize}")[0]
