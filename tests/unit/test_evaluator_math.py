"""CPU tests of what the GPU worker computes with: inputs, poisons, comparisons, timing statistics, SOL math.

The worker runs these same functions over CuPy arrays; here they run over NumPy arrays."""

import math
import random

import numpy as np
import pytest

from optiml_engine.gpu import timing
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import as_float64, bf16_from_float32, make_inputs, poisoned, still_poisoned
from optiml_engine.model import (
    ArraySpec, DeviceCeilings, DeviceInfo, InitSpec, ResolvedContract, TimingPolicy,
)
from optiml_engine.sol import sol_report


def array(param, direction, dtype, init=("uniform", (-1.0, 1.0))):
    return ArraySpec(param=param, direction=direction, dtype=dtype, length="n",
                     init=InitSpec(kind=init[0], args=init[1]))


def test_inputs_are_seeded_and_follow_the_fill():
    specs = [array("x", "in", "float32"), array("k", "in", "int32", ("range", (3.0, 9.0))),
             array("acc", "inout", "float32", ("const", (0.0,))), array("y", "out", "float32")]
    lengths = {"x": 1000, "k": 500, "acc": 1, "y": 1000}
    first = make_inputs(np, specs, lengths, seed=7)
    again = make_inputs(np, specs, lengths, seed=7)
    other = make_inputs(np, specs, lengths, seed=8)
    assert set(first) == {"x", "k", "acc"}                      # outputs are not inputs
    assert first["x"].dtype == np.float32 and first["x"].shape == (1000,)
    assert -1 <= first["x"].min() and first["x"].max() < 1 and first["x"].std() > 0.4
    assert first["k"].dtype == np.int32 and first["k"].min() >= 3 and first["k"].max() <= 8
    assert set(np.unique(first["k"])) == set(range(3, 9))
    assert np.array_equal(first["acc"], np.zeros(1, np.float32))
    assert np.array_equal(first["x"], again["x"]) and not np.array_equal(first["x"], other["x"])


def test_bfloat16_round_trip_keeps_eight_bits_of_mantissa():
    values = np.array([1.0, -2.5, 3.14159, 1e-3, 65504.0], dtype=np.float32)
    back = as_float64(np, bf16_from_float32(np, values), "bfloat16")
    assert np.allclose(back, values, rtol=2 ** -8)
    assert back[0] == 1.0 and back[1] == -2.5


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16", "int32", "uint8", "int64"])
def test_two_poisons_are_distinct_and_recognized(dtype):
    first, second = poisoned(np, dtype, 4, 0), poisoned(np, dtype, 4, 1)
    assert first.tobytes() != second.tobytes()
    assert still_poisoned(np, first, dtype, 0).all() and still_poisoned(np, second, dtype, 1).all()
    assert not still_poisoned(np, second, dtype, 0).any()
    written = second.copy()
    written[2] = 1
    assert still_poisoned(np, written, dtype, 1).tolist() == [True, True, False, True]


def test_float_comparison_relative_l2():
    ref = np.linspace(-1, 1, 1001, dtype=np.float32)
    close = ref * np.float32(1 + 1e-7)
    assert compare(np, "y", close, ref, "float32", 1e-5, None).ok
    off = ref.copy()
    off[17] += 0.5
    result = compare(np, "y", off, ref, "float32", 1e-5, None)
    assert result.verdict == "wrong" and "[17]" in result.reason and result.rel_err > 1e-5


def test_nan_where_reference_is_finite_fails_but_matching_specials_pass():
    ref = np.array([1.0, np.inf, np.nan, 2.0], dtype=np.float32)
    assert compare(np, "y", ref.copy(), ref, "float32", 1e-5, None).ok
    got = ref.copy()
    got[3] = np.nan
    result = compare(np, "y", got, ref, "float32", 1e-5, None)
    assert result.verdict == "nonfinite" and "first at [3]" in result.reason
    got = ref.copy()
    got[1] = -np.inf
    assert compare(np, "y", got, ref, "float32", 1e-5, None).verdict == "wrong"


def test_tiny_reference_uses_absolute_tolerance():
    ref = np.zeros(100, dtype=np.float32)
    assert compare(np, "y", ref + 1e-7, ref, "float32", 1e-5, 1e-6).ok
    assert compare(np, "y", ref + 1e-3, ref, "float32", 1e-5, 1e-6).verdict == "wrong"


def test_integer_outputs_must_match_exactly():
    ref = np.arange(64, dtype=np.uint32)
    assert compare(np, "bins", ref.copy(), ref, "uint32", 1e-5, None).ok
    got = ref.copy()
    got[5] += 1
    result = compare(np, "bins", got, ref, "uint32", 1e-5, None)
    assert result.verdict == "wrong" and "1 of 64" in result.reason and "got 6, expected 5" in result.reason


def test_median_interval_covers_the_true_median_about_95_percent():
    rng = random.Random(3)
    covered = 0
    for _ in range(400):
        samples = [rng.lognormvariate(0, 0.5) for _ in range(41)]   # skewed, true median 1.0
        low, high = timing.median_interval(samples)
        covered += low <= 1.0 <= high
    assert 0.90 <= covered / 400 <= 0.995


def test_stopping_rule_needs_min_runs_then_precision_or_cap():
    policy = TimingPolicy(min_runs=20, max_runs=50, max_seconds=10, target_half_width=0.02)
    steady = [1.0 + 0.001 * (i % 3) for i in range(20)]
    assert not timing.enough_samples(steady[:19], policy, elapsed_s=0)
    assert timing.enough_samples(steady, policy, elapsed_s=0)
    noisy = [1.0 + (0.5 if i % 2 else 0.0) for i in range(30)]
    assert not timing.enough_samples(noisy, policy, elapsed_s=0)
    assert timing.enough_samples(noisy * 2, policy, elapsed_s=0)                 # run cap
    assert timing.enough_samples(noisy, policy, elapsed_s=11)                    # time cap


def test_summary_and_interleaved_speedup():
    stats = timing.summarize([3.0, 1.0, 2.0, 5.0, 4.0])
    assert stats.median_ms == 3.0 and stats.min_ms == 1.0 and stats.max_ms == 5.0 and stats.runs == 5
    assert stats.ci_low_ms <= 3.0 <= stats.ci_high_ms
    # Drift shared by each pair cancels: the candidate is always 2x faster than the incumbent.
    drift = [1 + 0.3 * math.sin(i) for i in range(30)]
    speedup = timing.speedup_stats([d for d in drift], [2 * d for d in drift])
    assert speedup.median == pytest.approx(2.0) and speedup.ci_low == pytest.approx(2.0)
    with pytest.raises(ValueError):
        timing.speedup_stats([1.0], [1.0, 2.0])


def ceilings(gbps=3000.0, tflops=50.0):
    device = DeviceInfo(index=0, name="test", compute_capability="9.0", sm_count=132, l2_bytes=50 << 20,
                        memory_bytes=80 << 30, sm_clock_mhz=1980, memory_clock_mhz=2619, driver="13.0",
                        runtime="13.0")
    return DeviceCeilings(device=device, copy_gbps=gbps, fp32_tflops=tflops, measured_at="now")


def resolved(bytes_, flops):
    return ResolvedContract(binding={"n": 1}, lengths={}, scalars={}, grid=(1, 1, 1), block=(1, 1, 1), smem=0,
                            flops=flops, bytes=bytes_)


def test_sol_floor_is_the_larger_of_memory_and_compute_time():
    memory = sol_report(resolved(3_000_000_000, 1e9), ceilings(), time_ms=2.0)     # 1 ms of bytes, 0.02 of flops
    assert memory.bound == "memory" and memory.floor_ms == pytest.approx(1.0)
    assert memory.headroom == pytest.approx(2.0) and memory.percent_of_sol == pytest.approx(50.0)
    assert memory.achieved_gbps == pytest.approx(1500.0) and not memory.suspect
    compute = sol_report(resolved(1000, 5e11), ceilings(), time_ms=20.0)          # 10 ms of flops
    assert compute.bound == "compute" and compute.floor_ms == pytest.approx(10.0)
    assert compute.achieved_gflops == pytest.approx(25_000.0)


def test_faster_than_the_floor_is_suspect():
    assert sol_report(resolved(3_000_000_000, None), ceilings(), time_ms=0.85).suspect
    assert not sol_report(resolved(3_000_000_000, None), ceilings(), time_ms=0.95).suspect


def test_spread_is_the_iqr_but_never_under_the_run_to_run_floor():
    wide = timing.summarize([1.0, 1.0, 1.1, 1.2, 1.3, 1.4, 1.4, 1.4])
    assert wide.spread_ms == pytest.approx(wide.iqr_ms) and wide.iqr_ms > 0.1
    tight = timing.summarize([10.0] * 20)
    assert tight.iqr_ms == 0 and tight.spread_ms == pytest.approx(10.0 * timing.SPREAD_FLOOR)
