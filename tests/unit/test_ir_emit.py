"""Emitted schedules (optiml_engine/ir/emit.py) in CI: every enumerated schedule of every lifted kernel compiles
under NVRTC (the policy prunes those that spill); each family's defaults run on the CPU emulator (gpu/emulate.py) and
equal the program's NumPy result at the contract's smallest check sizes. tests/gpu/test_ir_schedules_gpu.py runs them
all on a GPU."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.source.contract import resolve
from tests.ir_cases import KERNEL_FILES, ROOT, case_id, cases, lifted, scheduled

EVERY = cases(every=True)
DEFAULTS = cases(every=False)


def smallest_check(candidate) -> dict[str, int]:
    return min(candidate.contract.checks or [candidate.contract.sizes], key=lambda b: sum(b.values()))


@pytest.mark.parametrize("case", EVERY, ids=[case_id(c) for c in EVERY])
def test_every_schedule_compiles(case) -> None:
    path, digits, schedule = case
    naive, program, shape = scheduled(path, digits)
    emitted = emit(program, shape, schedule, naive)
    result = compile_nvrtc(emitted.unit)
    assert result.ok, f"{result.log}\n{emitted.unit.text}"
    assert f"OptiML schedule of the loop-nest program: {schedule.describe()}" in emitted.unit.text


@pytest.mark.parametrize("case", DEFAULTS, ids=[case_id(c) for c in DEFAULTS])
def test_default_schedules_equal_the_program_on_the_cpu(case) -> None:
    path, digits, schedule = case
    naive, program, shape = scheduled(path, digits)
    emitted = emit(program, shape, schedule, naive)
    binding = smallest_check(naive)
    resolved = resolve(naive.contract, binding)
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=11)
    expected = run_program(program, resolved, naive.contract.arrays, inputs)
    got = run_on_cpu(emitted, binding, inputs)
    for spec in naive.contract.arrays:
        if spec.direction != "in":
            found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, naive.contract.tol,
                            naive.contract.atol)
            assert found.ok, f"{found.reason}\n{emitted.unit.text}"


@pytest.mark.parametrize("path", KERNEL_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_program_equals_the_original_kernel_on_the_cpu(path) -> None:
    """The interpreter against the user's own kernel, run by the emulator, at every check size."""
    naive, program = lifted(path)
    for binding in naive.contract.checks:
        resolved = resolve(naive.contract, binding)
        inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=5)
        expected = run_on_cpu(naive, binding, inputs)
        got = run_program(program, resolved, naive.contract.arrays, inputs)
        for spec in naive.contract.arrays:
            if spec.direction != "in":
                found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype,
                                naive.contract.tol, naive.contract.atol)
                assert found.ok, f"at {binding}: {found.reason}\n{program}"


def test_a_split_reduction_is_right_launch_after_launch_and_past_its_workspace() -> None:
    """The blocks of a point count their arrivals in device memory that lives as long as the module: the last
    resets it, so a second launch of the same loaded kernel is right too. At more points than the workspace was
    sized for (the contract's sizes), each point's first block does all of it."""
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / "examples/col_sum.cu", False)
    split = next(s for s in defaults(shape, "reduce", points_at_sizes=1) if s.splits > 1)
    emitted = emit(program, shape, split, naive)
    capacity = max(b["cols"] for b in [naive.contract.sizes, *naive.contract.checks])
    for binding in ({"rows": 37, "cols": 45}, {"rows": 37, "cols": 45}, {"rows": 3, "cols": capacity + 5}):
        resolved = resolve(naive.contract, binding)
        inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=binding["cols"])
        expected = run_program(program, resolved, naive.contract.arrays, inputs)
        got = run_on_cpu(emitted, binding, inputs)
        found = compare(np, "out", got["out"], expected["out"], "float32", naive.contract.tol, naive.contract.atol)
        assert found.ok, f"{binding}: {found.reason}"


@pytest.mark.parametrize("name", ["tests/heldout/count_above.cu", "tests/heldout/sumsq_double_atomic.cu",
                                  "tests/heldout/byte_histogram.cu", "examples/dot_atomic.cu"])
def test_privatized_points_read_as_vectors_equal_the_program(name) -> None:
    """Each thread's points read 16 bytes at a time where a group is whole and aligned (a float's 4 points, a
    byte's 16), point by point in the tail: at a size with whole groups and a partial last one."""
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / name, False)
    vectored = [s for s in defaults(shape, "privatize") if s.vector > 1]
    assert vectored, shape
    size = {symbol: 4099 for symbol in naive.contract.sizes}
    resolved = resolve(naive.contract, size)
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=13)
    expected = run_program(program, resolved, naive.contract.arrays, inputs)
    for schedule in vectored:
        emitted = emit(program, shape, schedule, naive)
        assert "optiml_lanes<" in emitted.unit.text
        got = run_on_cpu(emitted, size, inputs)
        for spec in naive.contract.arrays:
            if spec.direction != "in":
                found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype,
                                naive.contract.tol, naive.contract.atol)
                assert found.ok, f"{schedule.describe()}: {found.reason}"


@pytest.mark.parametrize("name", ["tests/heldout13/col_cumsum.cu", "tests/heldout14/col_cummax.cu"])
def test_a_scan_down_columns_equals_the_program_at_every_check_size(name) -> None:
    """Lanes along y: every schedule of the space compiles; the defaults equal the program at every check size
    (one row, one column, columns past the last block's, rows not a whole step)."""
    from optiml_engine.ir.schedule import defaults, space
    naive, program, shape = scheduled(ROOT / name, False)
    assert shape.scan is not None and shape.scan.across_points
    for schedule in space(shape, "scan"):
        emitted = emit(program, shape, schedule, naive)
        result = compile_nvrtc(emitted.unit)
        assert result.ok, f"{result.log}\n{emitted.unit.text}"
    for schedule in defaults(shape, "scan"):
        emitted = emit(program, shape, schedule, naive)
        for binding in naive.contract.checks:
            resolved = resolve(naive.contract, binding)
            inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=3)
            expected = run_program(program, resolved, naive.contract.arrays, inputs)
            got = run_on_cpu(emitted, binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"


@pytest.mark.parametrize("name", ["tests/heldout/count_above.cu", "tests/heldout/byte_histogram.cu"])
def test_a_capped_grid_walks_every_chunk_of_points(name) -> None:
    """Privatize with `resident`: at a size with more chunks of points than the capped grid has blocks, each block
    walks several (its copy or its sum carried across them), the last chunk partial."""
    from optiml_engine.ir.schedule import SM_COUNT, space
    naive, program, shape = scheduled(ROOT / name, False)
    size = 100003
    walking = [s for s in space(shape, "privatize")
               if s.resident and s.resident * SM_COUNT * s.threads() * s.items < size]
    assert walking
    resolved = resolve(naive.contract, {"n": size})
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=17)
    expected = run_program(program, resolved, naive.contract.arrays, inputs)
    for schedule in walking:
        emitted = emit(program, shape, schedule, naive)
        cap = schedule.resident * SM_COUNT
        assert emitted.contract.launch.grid[0].startswith("min(") and f",{cap})" in emitted.contract.launch.grid[0]
        got = run_on_cpu(emitted, {"n": size}, inputs)
        for spec in naive.contract.arrays:
            if spec.direction != "in":
                found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype,
                                naive.contract.tol, naive.contract.atol)
                assert found.ok, f"{schedule.describe()}: {found.reason}"


def test_a_sum_of_any_term_of_one_read_per_side_is_a_contraction_equal_to_the_program() -> None:
    """Squared distances between rows, `diff = a - b; sum += diff * diff`: the tiles stage both reads as a product's
    operands would be, each thread's outputs adding the term of their two staged values; at every check size."""
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / "tests/heldout15/pairwise_sqdist.cu", False)
    assert shape.contraction is not None and shape.contraction.term is not None
    for schedule in defaults(shape, "contraction"):
        emitted = emit(program, shape, schedule, naive)
        assert "(left_values[m] - right_values[n]) * (left_values[m] - right_values[n])" in emitted.unit.text
        for binding in naive.contract.checks:
            resolved = resolve(naive.contract, binding)
            inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=7)
            expected = run_program(program, resolved, naive.contract.arrays, inputs)
            got = run_on_cpu(emitted, binding, inputs)
            found = compare(np, "dist", got["dist"], expected["dist"], "float32", naive.contract.tol,
                            naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"
