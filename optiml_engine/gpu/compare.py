"""Output comparison against the reference: relative L2 for floats, exact match for integers.

Array-API generic (`xp` is NumPy or CuPy) so CI tests what the worker runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from optiml_engine.gpu.data import as_float64
from optiml_engine.model import Dtype, Verdict
from optiml_engine.source.ctypes import is_integer


@dataclass(frozen=True)
class Comparison:
    rel_err: float
    verdict: Verdict
    reason: str

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


def first_index(xp: Any, mask: Any) -> int:
    return int(xp.argmax(mask))


def compare(xp: Any, name: str, out: Any, ref: Any, dtype: Dtype, tol: float, atol: float | None) -> Comparison:
    """`out` against `ref` (same dtype and length). `atol` applies where the reference's norm is tiny."""
    if is_integer(dtype) or dtype == "bool":
        wrong = out != ref
        count = int(wrong.sum())
        if count:
            i = first_index(xp, wrong)
            return Comparison(1.0, "wrong", f"{name}: {count} of {out.size} elements differ "
                                            f"(first at [{i}]: got {out[i].item()}, expected {ref[i].item()})")
        return Comparison(0.0, "ok", "")

    got, want = as_float64(xp, out, dtype), as_float64(xp, ref, dtype)
    want_finite = xp.isfinite(want)
    bad = want_finite & ~xp.isfinite(got)
    count = int(bad.sum())
    if count:
        i = first_index(xp, bad)
        return Comparison(float("inf"), "nonfinite", f"{name}: {count} of {out.size} elements are NaN/Inf where "
                                                     f"the reference is finite (first at [{i}])")
    mismatched_specials = ~want_finite & (got != want) & ~(xp.isnan(got) & xp.isnan(want))
    if bool(mismatched_specials.any()):
        i = first_index(xp, mismatched_specials)
        return Comparison(float("inf"), "wrong", f"{name}: [{i}] is {got[i].item()}, the reference has "
                                                 f"{want[i].item()}")
    finite_want = xp.where(want_finite, want, 0.0)
    diff = xp.where(want_finite, got, 0.0) - finite_want
    ref_norm = float(xp.linalg.norm(finite_want))
    diff_norm = float(xp.linalg.norm(diff))
    abs_tol = tol if atol is None else atol
    if ref_norm <= abs_tol * (out.size ** 0.5):
        # The reference is (nearly) zero: relative error means nothing there, so bound the largest difference.
        worst = float(xp.abs(diff).max()) if out.size else 0.0
        if worst > abs_tol:
            i = first_index(xp, xp.abs(diff) == worst)
            return Comparison(worst, "wrong", f"{name}: max abs error {worst:.3g} > atol {abs_tol:g} "
                                              f"(at [{i}]: got {got[i].item():.6g}, expected {want[i].item():.6g})")
        return Comparison(worst, "ok", "")
    rel = diff_norm / ref_norm
    if rel > tol:
        i = first_index(xp, xp.abs(diff) == xp.abs(diff).max())
        return Comparison(rel, "wrong", f"{name}: relative L2 error {rel:.3g} > tol {tol:g} "
                                        f"(worst at [{i}]: got {got[i].item():.6g}, expected {want[i].item():.6g})")
    return Comparison(rel, "ok", "")
