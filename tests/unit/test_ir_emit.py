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


def assert_equals_program(emitted, naive, program, seed: int, what: str = "") -> None:
    """The emitted kernel equals the program at every check size of the contract (`mismatch`); `what` names it."""
    for binding in naive.contract.checks:
        found = mismatch(emitted, naive, program, binding, seed=seed)
        assert found is None, f"{what} {found}".strip()


def smallest_check(candidate) -> dict[str, int]:
    return min(candidate.contract.checks or [candidate.contract.sizes], key=lambda b: sum(b.values()))


def mismatch(emitted, naive, program, binding: dict[str, int], seed: int) -> str | None:
    """The emitted kernel run by the CPU emulator against the program's NumPy interpreter on the same random
    inputs at `binding`: the first output that differs beyond the contract's tolerance, and how (None: all agree)."""
    resolved = resolve(naive.contract, binding)
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=seed)
    expected = run_program(program, resolved, naive.contract.arrays, inputs)
    got = run_on_cpu(emitted, binding, inputs)
    for spec in naive.contract.arrays:
        if spec.direction != "in":
            found = compare(np, spec.param, got[spec.param], expected[spec.param], spec.dtype, naive.contract.tol,
                            naive.contract.atol)
            if not found.ok:
                return f"at {binding}: {found.reason}"
    return None


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
    found = mismatch(emitted, naive, program, smallest_check(naive), seed=11)
    assert found is None, f"{found}\n{emitted.unit.text}"


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
        found = mismatch(emitted, naive, program, binding, seed=binding["cols"])
        assert found is None, found


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
    for schedule in vectored:
        emitted = emit(program, shape, schedule, naive)
        assert "optiml_lanes<" in emitted.unit.text
        found = mismatch(emitted, naive, program, size, seed=13)
        assert found is None, f"{schedule.describe()}: {found}"


@pytest.mark.parametrize("name", ["tests/heldout13/col_cumsum.cu", "tests/heldout14/col_cummax.cu"])
def test_a_scan_down_columns_equals_the_program_at_every_check_size(name) -> None:
    """Lanes along y: every schedule of the space compiles; the defaults equal the program at every check size
    (one row, one column, columns past the last block's, rows not a whole step)."""
    naive, program, shape = scheduled(ROOT / name, False)
    assert shape.scan is not None and shape.scan.across_points
    assert_family_compiles_and_equals_the_program(naive, program, shape, "scan", seed=3)


def assert_family_compiles_and_equals_the_program(naive, program, shape, family: str, seed: int,
                                                  text: str = "") -> None:
    """Every schedule of the family's space compiles under NVRTC; its defaults (whose text holds `text`) equal the
    program at every check size."""
    from optiml_engine.ir.schedule import defaults, space
    for schedule in space(shape, family):
        emitted = emit(program, shape, schedule, naive)
        result = compile_nvrtc(emitted.unit)
        assert result.ok, f"{result.log}\n{emitted.unit.text}"
    for schedule in defaults(shape, family):
        emitted = emit(program, shape, schedule, naive)
        assert text in emitted.unit.text
        assert_equals_program(emitted, naive, program, seed=seed, what=schedule.describe())


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
    for schedule in walking:
        emitted = emit(program, shape, schedule, naive)
        cap = schedule.resident * SM_COUNT
        assert emitted.contract.launch.grid[0].startswith("min(") and f",{cap})" in emitted.contract.launch.grid[0]
        found = mismatch(emitted, naive, program, {"n": size}, seed=17)
        assert found is None, f"{schedule.describe()}: {found}"


@pytest.mark.parametrize("name, digits", [("tests/heldout39/conv2d_avgpool_sigmoid_sum.cu", False),
                                         ("tests/heldout32/maxpool2_sigmoid_sum.cu", True),
                                         ("tests/heldout35/diagonal_trace.cu", True),
                                         ("tests/heldout19/kl_div_batchmean.cu", False)])
def test_atomics_into_an_element_of_the_outer_indices_are_summed_in_runs_and_equal_the_program(name, digits) -> None:
    """A per-sample (or per-row, or scalar) atomicAdd of a 2-D or 3-D space: privatize sums each thread's run of
    points in a register and the block's warps before one atomic per element and block. Every schedule compiles;
    the defaults equal the program at every check size."""
    naive, program, shape = scheduled(ROOT / name, digits)
    assert len(program.space) > 1 and shape.run_atomics and "privatize" in shape.families
    assert_family_compiles_and_equals_the_program(naive, program, shape, "privatize", seed=5, text="__all_sync")


POSITIVES_PER_ROW = """
/* @optiml
   sizes:  rows=4096 cols=1000
   check:  rows=37 cols=45; rows=5 cols=300
   x:      in    float[rows*cols] uniform(-1,1)
   count:  inout int[rows] const(0)
   launch: grid=(cdiv(cols,128),rows) block=128
*/
__global__ void positives_per_row(const float* x, int* count, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols && x[(long)r * cols + c] > 0.0f)
        atomicAdd(&count[r], 1);
}
"""


def test_runs_of_atomics_past_the_grids_limit_end_where_their_elements_change(monkeypatch) -> None:
    """A thread walking several rows (the grid's y capped below the rows) adds a run's sum when its element
    changes, and a warp whose lanes end on different rows (a condition on the data skipped one lane's last row)
    adds each lane's own: the counts still equal the program's."""
    import optiml_engine.ir.emit as emit_module
    from optiml_engine.candidate import original_candidate
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import defaults, shape_of
    from optiml_engine.source.parse import CudaDocument
    naive = original_candidate(CudaDocument(POSITIVES_PER_ROW, "positives_per_row.cu"), "positives_per_row")
    program = lift(naive)
    shape = shape_of(program)
    assert [a.array for a in shape.run_atomics] == ["count"]
    monkeypatch.setattr(emit_module, "GRID_YZ_LIMIT", 2)
    for schedule in defaults(shape, "privatize"):
        emitted = emit(program, shape, schedule, naive)
        assert emitted.contract.launch.grid[1].endswith(",2)")
        assert_equals_program(emitted, naive, program, seed=9, what=schedule.describe())


def test_atomics_into_an_element_a_loop_or_the_innermost_index_walks_are_not_summed_in_runs() -> None:
    """A run would end at every point: a bias gradient's column (the innermost index), a scatter's row of a
    table (read from the data), are left to the other families."""
    for name in ("tests/heldout26/linear_bias_grad_atomic.cu", "tests/heldout11/scatter_add_rows.cu",
                 "tests/heldout20/token_bincount.cu"):
        _, program, shape = scheduled(ROOT / name, False)
        assert len(program.space) > 1 and not shape.run_atomics, name


def test_a_sum_of_any_term_of_one_read_per_side_is_a_contraction_equal_to_the_program() -> None:
    """Squared distances between rows, `diff = a - b; sum += diff * diff`: the tiles stage both reads as a product's
    operands would be, each thread's outputs adding the term of their two staged values; at every check size."""
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / "tests/heldout15/pairwise_sqdist.cu", False)
    assert shape.contraction is not None and shape.contraction.term is not None
    for schedule in defaults(shape, "contraction"):
        emitted = emit(program, shape, schedule, naive)
        assert "(left_values[m] - right_values[n]) * (left_values[m] - right_values[n])" in emitted.unit.text
        assert_equals_program(emitted, naive, program, seed=7, what=schedule.describe())


@pytest.mark.parametrize("name", ["tests/heldout/softmax_rows.cu", "examples/cross_entropy_rows.cu",
                                  "examples/row_max.cu", "examples/gemv_rowmajor.cu"])
def test_rows_held_in_registers_equal_the_program_at_every_check_size(name) -> None:
    """Reduce with `held`: softmax's row read by three loops and written by two (the first write kept in registers,
    the last written through), cross entropy's from a maximum's loop starting at 1 (element 0 filled by the next
    loop), a row maximum's one loop from 1 and a matrix-vector product's one loop (a row's loads all issued first).
    Few steps a lane (most of a row past them, loop by loop as written) and enough for the whole row; scalar and 4
    consecutive elements a step (vector accesses where a step's are inside the row and aligned: not in rows of an odd
    length)."""
    from optiml_engine.ir.schedule import Schedule
    naive, program, shape = scheduled(ROOT / name, False)
    assert shape.held is not None
    for lanes, held, vector in ((32, 2, 1), (128, 8, 1), (1024, 2, 1), (32, 2, 4), (128, 2, 4)):
        schedule = Schedule(family="reduce", block=(32, 4) if lanes == 32 else (lanes, 1), lanes=lanes, held=held,
                            vector=vector)
        emitted = emit(program, shape, schedule, naive)
        assert f"_held[{held * vector}];" in emitted.unit.text
        assert_equals_program(emitted, naive, program, seed=5, what=f"{schedule.describe()}\n{emitted.unit.text}")


def test_which_rows_are_held() -> None:
    """softmax: x filled by the maximum's loop, y's first write kept in registers (the last loop writes every element
    again); an array one loop writes, beside those; an array the rest of the point writes, an index other than the
    step's element, or a first access under an if leave it out (and with it the plan, where no other is shared)."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.ir.analysis import held_rows
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.printer import c_expr
    from optiml_engine.source.parse import CudaDocument
    _, softmax, _ = scheduled(ROOT / "tests/heldout/softmax_rows.cu", False)
    held = held_rows(softmax)
    assert held.arrays() == ("x", "y")
    assert held.filled == ((("x", None),), (), ()) and held.kept == ((), ("y",), ())

    def program(body: str):
        text = ("/* @optiml\n sizes: rows=64 cols=100\n x: in float[rows*cols]\n m: in int[cols]\n"
                " y: out float[rows*cols]\n z: out float[rows]\n launch: grid=cdiv(rows,128) block=128\n*/\n"
                "__global__ void k(const float* x, const int* m, float* y, float* z, int rows, int cols) {\n"
                "  int r = blockIdx.x * blockDim.x + threadIdx.x;\n  if (r >= rows) return;\n"
                f"{body}\n}}\n")
        document = CudaDocument(text, "k.cu")
        return lift(original_candidate(document, "k"))

    both = "  float s = 0.f;\n  for (int c = 0; c < cols; ++c) s += x[r * cols + c];\n" \
           "  for (int c = 0; c < cols; ++c) y[r * cols + c] = x[r * cols + c] / s;"
    assert held_rows(program(both)).arrays() == ("x", "y")     # y: one loop's, beside x
    shifted = both.replace("y[r * cols + c] = x[r * cols + c]", "y[r * cols + c] = x[r * cols + c + 1]")
    assert held_rows(program(shifted)) is None
    guarded = both.replace("s += x[r * cols + c];", "if (m[c] > 0) s += x[r * cols + c];")
    assert held_rows(program(guarded)) is None
    rewritten = both.replace("  float s = 0.f;\n", "  float s = 0.f;\n  for (int c = 0; c < cols; ++c) "
                                                    "y[r * cols + c] = 0.f;\n") + "\n  z[r] = y[r * cols];"
    assert held_rows(program(rewritten)).arrays() == ("x",)
    # One loop: its row, counted from 0 where the loop starts a few elements in (a lane's vectors then aligned).
    one = "  float s = x[r * cols];\n  for (int c = 1; c < cols; ++c) s += x[r * cols + c];\n  z[r] = s;"
    single = held_rows(program(one))
    assert single.arrays() == ("x",) and single.filled == ((("x", None),),) and c_expr(single.origin) == "0"
    assert held_rows(program(one.replace("s += x[r * cols + c]", "s += x[c * rows + r]"))) is None


@pytest.mark.parametrize("name", ["tests/heldout/conv1d_valid.cu", "tests/heldout/conv2d_3x3_multichan.cu"])
def test_a_window_slid_in_blocks_equals_the_program_at_every_check_size(name) -> None:
    """Map `slide_block`: whole blocks of `items` steps written out (the window's next elements one vector read where
    aligned and inside the array), then the leftover steps one at a time: conv1d's runtime tap counts (1, 3, 7, 31:
    no whole block, blocks and a remainder) and a 3x3 convolution's 3-tap loops (no whole block of 4 or 8)."""
    from optiml_engine.ir.schedule import space
    naive, program, shape = scheduled(ROOT / name, False)
    blocked = [s for s in space(shape, "map") if s.slide_block and s.block[1] == 1 and s.threads() == 256]
    assert {s.items for s in blocked} == {4, 8}
    for schedule in blocked:
        emitted = emit(program, shape, schedule, naive)
        assert "_blocks_end" in emitted.unit.text and "optiml_lanes<float" in emitted.unit.text
        assert_equals_program(emitted, naive, program, seed=9, what=schedule.describe())


def test_a_transpose_of_interleaved_elements_is_staged_and_equals_the_program() -> None:
    """A complex matrix's conjugate transpose, real and imaginary parts interleaved (`AH[2 * (j * M + i) + 1] =
    -A[2 * (i * N + j) + 1]`): reads and writes two elements apart along their axes are staged through the tile as
    unit-stride ones are; every stage schedule equals the program at every check size."""
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / "tests/heldout16/conj_transpose_complex.cu", False)
    assert "stage" in shape.families and len(shape.staged) == 2
    for schedule in defaults(shape, "stage"):
        emitted = emit(program, shape, schedule, naive)
        assert_equals_program(emitted, naive, program, seed=5, what=schedule.describe())


def assert_vector_staging_equals_the_program(naive, program, shape, element: str, width: int,
                                             aligned: list[dict[str, int]]):
    """Every vector stage schedule reads and writes vectors of `width` elements (at least one of each) and equals the
    program at the `aligned` sizes (the vector path) and at the contract's check sizes (odd ones: the element
    path)."""
    from optiml_engine.ir.schedule import space
    vectored = [s for s in space(shape, "stage") if s.vector > 1]
    assert {s.vector for s in vectored} == {width} and {s.tile for s in vectored} == {32, 64}
    for schedule in vectored:
        emitted = emit(program, shape, schedule, naive)
        assert emitted.unit.text.count(f"optiml_lanes<{element}, {width}>*>") >= 2
        for binding in [*aligned, *naive.contract.checks]:
            found = mismatch(emitted, naive, program, binding, seed=3)
            assert found is None, f"{schedule.describe()}: {found}"


@pytest.mark.parametrize("name", ["tests/heldout/transpose2d.cu", "tests/heldout/permute_bmn_bnm.cu",
                                  "examples/add_transposed.cu"])
def test_a_vector_staged_transpose_equals_the_program_where_its_rows_align_and_where_they_do_not(name) -> None:
    """Stage with vector accesses: a thread reads 4 consecutive floats of a staged row as one access and writes 4
    consecutive outputs as one, where the group is whole and 16-byte aligned, element by element elsewhere. Sizes
    whose rows are all aligned (multiples of 4, whole tiles and a partial last tile) run the vector path; the
    contract's odd check sizes run the element path."""
    naive, program, shape = scheduled(ROOT / name, False)
    sides = [name for name in naive.contract.sizes if name != "B"]
    aligned = [{**dict(zip(sides, extents)), **({"B": 2} if "B" in naive.contract.sizes else {})}
               for extents in ((64, 96), (40, 36))]
    assert_vector_staging_equals_the_program(naive, program, shape, "float", 4, aligned)


HALF_TRANSPOSE = """#include <cuda_fp16.h>
/* @optiml
   sizes:  rows=1024 cols=2048
   check:  rows=37 cols=33; rows=1 cols=3
   x:      in  float16[rows*cols]
   y:      out float16[cols*rows]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void transpose_half(const __half* x, __half* y, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) y[(size_t)c * rows + r] = x[(size_t)r * cols + c];
}
"""


def test_a_half_transpose_is_staged_8_elements_a_vector_and_equals_the_program() -> None:
    """16-byte vectors of 2-byte elements: 8 a thread along each unit stride, at sizes whose rows align (whole tiles
    and partial ones) and at the contract's odd sizes."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import shape_of
    from optiml_engine.source.parse import CudaDocument
    naive = original_candidate(CudaDocument(HALF_TRANSPOSE, "transpose_half.cu"), "transpose_half")
    program = lift(naive)
    assert_vector_staging_equals_the_program(naive, program, shape_of(program), "__half", 8,
                                             [{"rows": 64, "cols": 96}, {"rows": 40, "cols": 72}])


def test_a_read_whose_index_is_a_local_is_a_vector_read_and_equals_the_program() -> None:
    """A head permute reads `x[src]`, `src` a local built from the digits: the read is one 8-element vector where a
    group is whole and aligned (its address computed once, the locals inlined), element by element elsewhere; at
    every check size (a head of 1, 7, 33 and 64 elements) it equals the program."""
    from optiml_engine.ir.schedule import Schedule
    naive, program, shape = scheduled(ROOT / "tests/heldout20/permute_heads_bf16.cu", True)
    schedule = Schedule(family="map", block=(32, 8), items=8, vector=8)
    emitted = emit(program, shape, schedule, naive)
    assert "optiml_lanes<__nv_bfloat16, 8> x_lanes" in emitted.unit.text, emitted.unit.text
    assert_equals_program(emitted, naive, program, seed=5)


def test_a_map_over_a_short_innermost_index_starts_with_blocks_no_wider_than_it() -> None:
    """A head of 128 bf16 in 8-point vectors is 16 threads: the first vector schedule's blocks are 16 wide (a block
    128 wide left 112 of its 128 threads idle; H200 probes, `ir-h200/narrow-blocks-ab/`: the best schedule found
    3.30x -> 2.13x the floor); with a long innermost index, whole warps along it as before. The narrow block equals
    the program at every check size."""
    from optiml_engine.ir.analysis import extents_at_sizes
    from optiml_engine.ir.schedule import defaults
    naive, program, shape = scheduled(ROOT / "tests/heldout20/permute_heads_bf16.cu", True)
    extents = extents_at_sizes(program, naive.contract)
    assert extents[-1] == 128
    first = next(s for s in defaults(shape, "map", None, extents) if s.vector == 8)
    assert first.block == (16, 32), first
    long_rows = next(s for s in defaults(shape, "map", None, (*extents[:-1], 4096)) if s.vector == 8)
    assert long_rows.block == (128, 4), long_rows
    emitted = emit(program, shape, first, naive)
    assert_equals_program(emitted, naive, program, seed=11)


def test_a_groups_divisions_by_a_size_step_and_equal_the_program() -> None:
    """pixel_shuffle's 8 consecutive outputs a thread divide their column by the upscale factor `r`: once a group,
    the other points stepping the remainder (H200 probes, `ir-h200/stepped-digits-ab/`: 5.33x -> 1.92x the floor).
    At every check size (r of 1 to 4, rows shorter than a group) the schedule equals the program."""
    from optiml_engine.ir.schedule import Schedule
    naive, program, shape = scheduled(ROOT / "tests/heldout17/pixel_shuffle_bf16.cu", True)
    emitted = emit(program, shape, Schedule(family="map", block=(32, 8), items=8, vector=8), naive)
    vector_path = emitted.unit.text[emitted.unit.text.index("for (int lane"):].split("} else {")[0]
    assert "ow_remainder = 0; ++ow_quotient;" in vector_path and "ow / r" not in vector_path
    assert_equals_program(emitted, naive, program, seed=17)


FLIP_CHANNELS_LAST = """/* @optiml
   sizes:  N=32 H=64 W=64 C=128
   check:  N=1 H=1 W=1 C=1; N=2 H=3 W=5 C=8; N=1 H=4 W=2 C=3; N=2 H=2 W=3 C=12; N=1 H=3 W=3 C=6
   x:      in  float[N*H*W*C]
   y:      out float[N*H*W*C]
   launch: grid=cdiv(N*H*W*C,256) block=256
*/
__global__ void flip_rows(const float* x, float* y, int N, int H, int W, int C)
{
    size_t idx = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= (size_t)N * H * W * C) return;
    size_t c = idx % C;
    size_t w = idx / C % W;
    size_t h = idx / ((size_t)C * W) % H;
    size_t n = idx / ((size_t)C * W * H);
    y[idx] = x[((n * H + (H - 1 - h)) * W + (W - 1 - w)) * C + c];
}
"""

ROLL_CHANNELS_LAST = """/* @optiml
   sizes:  B=16 H=64 W=64 C=96 s=5
   check:  B=1 H=1 W=1 C=1 s=1; B=2 H=3 W=5 C=4 s=2; B=1 H=2 W=7 C=6 s=9; B=1 H=4 W=3 C=16 s=1
   x:      in  float[B*H*W*C]
   y:      out float[B*H*W*C]
   launch: grid=(cdiv(W*C,128),H,B) block=128
*/
__global__ void roll_w(const float* x, float* y, int B, int H, int W, int C, int s)
{
    int wc = blockIdx.x * blockDim.x + threadIdx.x;
    int h = blockIdx.y, b = blockIdx.z;
    if (wc >= W * C) return;
    int w = wc / C;
    int c = wc % C;
    y[(((long)b * H + h) * W + w) * C + c] = x[(((long)b * H + h) * W + (w + s) % W) * C + c];
}
"""


@pytest.mark.parametrize("source, name, index", [
    (FLIP_CHANNELS_LAST, "flip_rows", "idx"),       # a flat index taken apart into four digits
    (ROLL_CHANNELS_LAST, "roll_w", "wc"),           # the x index of a 3-D grid into two
])
def test_a_groups_points_that_share_their_quotient_by_the_lowest_digit_read_as_vectors(source, name, index) -> None:
    """The point code takes its index apart by the channel count (`c = idx % C`, `w = idx / C % W`) and reads `x` at
    a permuted position (a flip, a cyclic shift): no read is unit-stride along the index. Over a group of 4 points
    that share their quotient by `C` it is: the group divides once, reads one vector, and does not divide per point;
    groups across a multiple of `C` (C of 1, 3, 6) go point by point. Every vector schedule equals the program at
    every check size."""
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import shape_of, space
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of(f"{name}.cu", source)
    program = lift(naive)
    shape = shape_of(program)
    vectors = [s for s in space(shape, "map") if s.vector == 4 and not s.fused]
    assert vectors
    for schedule in vectors:
        emitted = emit(program, shape, schedule, naive)
        text = emitted.unit.text
        vector_path = text[text.index("for (int lane"):].split("} else {")[0]
        assert "x_lanes = *reinterpret_cast" in text and f"{index} % C" not in vector_path, text
        assert_equals_program(emitted, naive, program, seed=23, what=schedule.describe())


def test_a_groups_reads_under_a_branch_it_takes_whole_are_vectors_and_equal_the_program() -> None:
    """A concatenation along the last axis reads `a` where `col < d1`, `b` elsewhere: a group of 4 columns on one
    side of `d1` reads that side as one vector; a group across it goes column by column. At every check size (d1 of
    1, 7, 33, 128, 250: groups across the seam) it equals the program."""
    from optiml_engine.ir.schedule import Schedule
    naive, program, shape = scheduled(ROOT / "tests/heldout20/concat_lastdim.cu", True)
    emitted = emit(program, shape, Schedule(family="map", block=(256, 1), items=4, vector=4), naive)
    text = emitted.unit.text
    assert "(col_group < d1) == ((col_group + 3) < d1)" in text
    assert "a_lanes = *reinterpret_cast" in text and "b_lanes = *reinterpret_cast" in text
    assert_equals_program(emitted, naive, program, seed=19)


DIGITS_TYPED = """/* @optiml
   sizes:  n=1048576 C=64
   check:  n=7 C=3
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void k(const float* x, float* y, int n, int C)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[(i / %s) * C + i %% C];
}
"""


@pytest.mark.parametrize("divisor, split", [
    ("C", True),
    ("(long)C", False),              # the quotient is a long: a split's int quotient would not be it
    ("(unsigned)C", False),          # unsigned: the quotient wraps where an int's would not
    ("(C * 1u)", False),              # an unsigned literal makes the divisor, and the quotient, unsigned
])
def test_the_lowest_digit_is_split_only_where_the_quotient_keeps_the_index_type(divisor, split) -> None:
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.vector_groups import declared_types, lowest_digit
    from tests.unit.test_ir_lift import candidate_of
    program = lift(candidate_of("typed.cu", DIGITS_TYPED % divisor))
    outside = {index.name for index in program.space} | {p.name for p in program.scalars}
    found = lowest_digit(program.body, "i", program.space[0].ctype, outside, declared_types(program))
    assert (found is not None) == split, found


TRIANGLES = """/* @optiml
   sizes:  rows=4096 cols=4096
   check:  rows=1 cols=1; rows=5 cols=9; rows=17 cols=33; rows=8 cols=64
   x:      in  float[rows*cols]
   upper:  inout float[rows*cols]
   lower:  inout float[rows*cols]
   launch: grid=(cdiv(cols,32),cdiv(rows,8)) block=(32,8)
*/
__global__ void split_triangles(const float* x, float* upper, float* lower, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    if (c > r) upper[r * cols + c] = x[r * cols + c];
    else lower[r * cols + c] = 2.0f * x[r * cols + c];
}
"""


def test_a_groups_writes_under_a_branch_it_takes_whole_are_vectors_and_equal_the_program() -> None:
    """Each point writes one of two arrays as the diagonal decides (`c > r`); the arrays keep their elements
    elsewhere. A group of 4 columns on one side of the diagonal writes that side's array as one vector after its
    points have run (and reads `x` as one); a group across it goes column by column. At every check size (diagonals
    through groups, rows shorter than a group) it equals the program, the other array's elements untouched."""
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import Schedule, shape_of
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of("split_triangles.cu", TRIANGLES)
    program = lift(naive)
    shape = shape_of(program)
    emitted = emit(program, shape, Schedule(family="map", block=(32, 8), items=4, vector=4), naive)
    text = emitted.unit.text
    assert "*reinterpret_cast<optiml_lanes<float, 4>*>(&upper[" in text, text
    assert "*reinterpret_cast<optiml_lanes<float, 4>*>(&lower[" in text, text
    assert_equals_program(emitted, naive, program, seed=29)


REPEAT_COLUMNS = """/* @optiml
   sizes:  rows=4096 cols=2048
   check:  rows=1 cols=1; rows=3 cols=5; rows=2 cols=8; rows=5 cols=13
   x:      in  float[rows*cols]
   y:      out float[rows*cols*2]
   launch: grid=(cdiv(2*cols,64),rows) block=64
*/
__global__ void repeat_columns(const float* x, float* y, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < 2 * cols) y[(long)r * 2 * cols + c] = x[(long)r * cols + c / 2];
}
"""


def test_a_read_that_moves_every_other_point_is_a_half_width_vector_and_equals_the_program() -> None:
    """Each element of a row written twice (`y[.. + c] = x[.. + c / 2]`, nearest upsampling along a row): a group of
    4 outputs reads 2 consecutive elements of `x` as one vector, each lane element lane / 2; rows of odd length
    leave groups misaligned, which go point by point. At every check size it equals the program."""
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import Schedule, shape_of
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of("repeat_columns.cu", REPEAT_COLUMNS)
    program = lift(naive)
    emitted = emit(program, shape_of(program), Schedule(family="map", block=(64, 4), items=4, vector=4), naive)
    assert "optiml_lanes<float, 2> x_lanes" in emitted.unit.text and "x_lanes.v[lane / 2]" in emitted.unit.text
    assert_equals_program(emitted, naive, program, seed=31)


IN_PLACE = """/* @optiml
   sizes: n=1048576
   check: n=1; n=5; n=1027
   x: inout float[n]
   y: inout float[n]
   z: in float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void k(float* x, float* y, const float* z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i] * 0.5f + z[i];
    x[i] = v;
    %s
}
"""


@pytest.mark.parametrize("rest, updated", [
    ("y[i] = y[i] - v;", {"x", "y"}),                   # both updated in place
    ("y[i] = x[i];", set()),                            # x read again after its write: not in place
    ("if (i + 1 < n) y[i] = y[i + 1];", {"x"}),         # y read at another point's element
])
def test_an_array_updated_in_place_is_read_and_written_as_vectors_and_equals_the_program(rest, updated) -> None:
    """A point that reads an array only where it then writes it, before writing (an optimizer's step, x = f(x)),
    reads and writes it as vectors; an array read again after its write, or at another point's element, is not.
    Either way the schedule equals the program at every check size."""
    from optiml_engine.ir.emit import in_place
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import Schedule, shape_of
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of("in_place.cu", IN_PLACE % rest)
    program = lift(naive)
    shape = shape_of(program)
    assert in_place(program.body, "i", lambda array, index: True) == updated
    emitted = emit(program, shape, Schedule(family="map", block=(256, 1), items=4, vector=4), naive)
    for array in updated:
        assert f"optiml_lanes<float, 4>*>(&{array}[i_group]) = " in emitted.unit.text, emitted.unit.text
    assert_equals_program(emitted, naive, program, seed=23)
