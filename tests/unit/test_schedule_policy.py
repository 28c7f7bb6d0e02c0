"""The schedule policy (policies/schedules.py): what it proposes on a lifted kernel, on its own kernels, and on a
kernel that does not lift; the order the profiler's symptom gives; the trajectory's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.diagnosis import Diagnosis, Finding
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.schedules import HELD, IMPLICIT_GEMM, SchedulePolicy
from tests.ir_cases import original

ROOT = Path(__file__).resolve().parents[2]


def test_a_row_kernel_gets_reduce_and_map_schedules_named_in_profiler_terms() -> None:
    edits = SchedulePolicy().propose(original(ROOT / "examples/layernorm_rows.cu"), PolicyContext())
    rules = [edit.rule for edit in edits]
    assert set(rules) == {"schedule_reduce", "schedule_map", "schedule_stream"}
    # The same symptom (uncoalesced loads) for both: a group per row first, a thread per row through windows after.
    assert rules.index("schedule_reduce") < rules.index("schedule_stream")
    reduce = next(edit for edit in edits if edit.rule == "schedule_reduce")
    assert reduce.symptom == "uncoalesced_loads"
    assert "neighbouring threads read neighbouring elements" in reduce.description
    assert "OptiML schedule of the loop-nest program: reduce:" in reduce.candidate.unit.text


def test_the_reported_symptom_orders_the_families() -> None:
    candidate = original(ROOT / "examples/layernorm_rows.cu")
    uncoalesced = Diagnosis(bound="memory", headline="", explanation="", top_stalls=[],
                            findings=[Finding(kind="uncoalesced_loads", message="")])
    edits = SchedulePolicy().propose(candidate, PolicyContext(diagnosis=uncoalesced))
    assert edits[0].rule == "schedule_reduce"
    memory = Diagnosis(bound="memory", headline="", explanation="", top_stalls=[], findings=[])
    assert SchedulePolicy().propose(candidate, PolicyContext(diagnosis=memory))[0].rule == "schedule_map"


def test_a_matrix_product_takes_its_contraction_first_whatever_the_profile_names() -> None:
    """The naive sgemm_nt's profile on an H100: latency-bound, the load queue full, loads uncoalesced. Two loads per
    multiply-add are behind all of it, and the program shows it: its contraction schedules rank before every edit
    the profile suggests (an H200 search that tried them 44th, after reduce and stream schedules and the gemm rules,
    offered a 1.9x kernel where the contraction is 1.3x)."""
    from optiml_engine.policies.base import symptom_rank
    candidate = original(ROOT / "examples/sgemm_nt.cu")
    for findings in ([Finding(kind="uncoalesced_loads", message="")], []):
        latency = Diagnosis(bound="latency", headline="", explanation="", top_stalls=[], findings=findings)
        edits = SchedulePolicy().propose(candidate, PolicyContext(diagnosis=latency))
        contraction = [e for e in edits if e.rule == "schedule_contraction"]
        assert contraction and edits[:len(contraction)] == contraction
        others = [symptom_rank(e.symptom, latency) for e in edits if e.rule != "schedule_contraction"]
        assert all(symptom_rank(e.symptom, latency) < min(others) for e in contraction)
        assert all(symptom_rank(e.symptom, None) < 2 for e in contraction)


def test_an_emitted_kernel_gets_its_neighbours() -> None:
    policy = SchedulePolicy()
    first = policy.propose(original(ROOT / "examples/vector_add.cu"), PolicyContext())[0]
    neighbours = policy.propose(first.candidate, PolicyContext())
    assert neighbours and all("a neighbour of" in edit.description for edit in neighbours)
    assert all(edit.rule == first.rule for edit in neighbours)


def test_a_contraction_moves_along_each_of_its_parameters() -> None:
    """Its block follows from its tile and outputs a thread: a move changes the tile, the outputs a thread, the
    loop's step, the tile's rows or the register cap, one at a time."""
    from optiml_engine.ir.schedule import Schedule, neighbours, shape_of
    from tests.ir_cases import lifted
    _, program = lifted(ROOT / "tests/heldout/sgemm_nn.cu")
    square = Schedule(family="contraction", block=(16, 16), tile=128, items=8, k_tile=8)
    moves = {(s.output_tile(), s.items, s.k_tile, s.blocks_per_sm) for s in neighbours(shape_of(program), square)
             if s.splits == 1}
    assert moves >= {((128, 128), 8, 16, 1), ((64, 64), 8, 8, 1), ((128, 128), 4, 8, 1), ((64, 128), 8, 8, 1),
                     ((128, 128), 8, 8, 2)}, moves


def test_a_kernel_that_does_not_lift_gets_nothing() -> None:
    # A fresh policy does not know this emitted kernel, whose warp shuffles the program cannot express.
    reduce = next(e for e in SchedulePolicy().propose(original(ROOT / "examples/row_max.cu"), PolicyContext())
                  if e.rule == "schedule_reduce").candidate
    assert SchedulePolicy().propose(reduce, PolicyContext()) == []


def test_a_transpose_over_a_flat_index_gets_a_tile_over_its_digits() -> None:
    from tests.unit.test_ir_lift import FLAT_TRANSPOSE, candidate_of
    edits = SchedulePolicy().propose(candidate_of("user.cu", FLAT_TRANSPOSE), PolicyContext())
    stage = [edit for edit in edits if edit.rule == "schedule_stage"]
    assert stage and "__shared__ float x_tile[32][33];" in stage[0].candidate.unit.text


GATED_FLAT = """
/* @optiml
   sizes: rows=512 cols=1024
   check: rows=3 cols=37; rows=2 cols=8
   x: in float[rows*2*cols]
   y: out float[rows*cols]
   launch: grid=cdiv(rows*cols,256) block=256
*/
__global__ void gated(const float* x, float* y, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < rows * cols) {
        int r = i / cols, c = i % cols;
        y[i] = x[r * 2 * cols + c] * x[r * 2 * cols + cols + c];
    }
}
"""


def test_a_map_over_a_flat_index_reads_each_row_segment_as_vectors_over_its_digits() -> None:
    """`i / cols` and `i % cols` hide that both halves of a row are read at unit stride; over the digits, each is a
    vector load, and the kernel, run on the CPU emulator, still equals the original where a row is not a whole
    number of vectors."""
    import numpy as np

    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.gpu.emulate import run_on_cpu
    from optiml_engine.source.contract import resolve
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of("user.cu", GATED_FLAT)
    edits = [e for e in SchedulePolicy().propose(naive, PolicyContext()) if e.rule == "schedule_map"]
    vectors = [e for e in edits if "digits of the flat index" in e.description
               and "optiml_lanes<float, 4> x_lanes_2 = " in e.candidate.unit.text]
    assert vectors, [e.description for e in edits]
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=3)
        expected = run_on_cpu(naive, binding, inputs)["y"]
        for edit in vectors:
            assert np.array_equal(run_on_cpu(edit.candidate, binding, inputs)["y"], expected), edit.description


def test_an_atomic_sum_into_one_element_is_privatized() -> None:
    edits = SchedulePolicy().propose(original(ROOT / "examples/dot_atomic.cu"), PolicyContext())
    privatize = [edit for edit in edits if edit.rule == "schedule_privatize"]
    assert privatize and all(edit.symptom == "atomics" for edit in privatize)
    text = privatize[0].candidate.unit.text
    assert text.count("atomicAdd(") == 1 and "if (threadIdx.x == 0) {" in text



def test_a_histogram_gets_a_copy_of_its_bins_per_block() -> None:
    edits = [e for e in SchedulePolicy().propose(original(ROOT / "examples/histogram64.cu"), PolicyContext())
             if e.rule == "schedule_privatize"]
    assert edits and all(e.candidate.contract.launch.smem == "(64)*4" for e in edits)
    assert "atomicAdd(&bins_block[keys[i]], 1u);" in edits[0].candidate.unit.text


def test_matrix_products_in_every_layout_are_contractions() -> None:
    """NT, NN (with alpha/beta reading C after the loop), TN and batched: the same family, each operand staged along
    its own unit stride."""
    from optiml_engine.ir.schedule import shape_of
    from tests.ir_cases import lifted
    layouts = {"examples/sgemm_nt.cu": ("the loop", "the loop"), "tests/heldout/sgemm_nn.cu": ("the loop", "its col"),
               "tests/heldout/matmul_tn.cu": ("its i", "its j"), "tests/heldout/bmm.cu": ("the loop", "its j")}
    for path, (left, right) in layouts.items():
        candidate, program = lifted(ROOT / path)
        assert "contraction" in shape_of(program).families, path
        edits = [e for e in SchedulePolicy().propose(candidate, PolicyContext()) if e.rule == "schedule_contraction"]
        # A product's implicit GEMM is itself renamed: not proposed again.
        assert not any(IMPLICIT_GEMM in e.description for e in edits), path
        text = edits[0].candidate.unit.text
        for side in (left, right):     # read element by element ("Along") or as vectors ("4 ... along")
            assert f"long {side} (the operand's unit stride)." in text, path


def test_a_product_with_a_short_side_takes_skinny_tiles_first_and_a_square_one_does_not() -> None:
    """A convolution into 16 channels as implicit GEMM (16 rows of output, 2M columns): 16-row tiles first, not a
    square tile computing mostly past the edge; a 4096 x 4096 product keeps its square tiles first."""
    skinny = [e for e in SchedulePolicy().propose(original(ROOT / "tests/heldout13/conv1d_multi_out.cu"),
                                                  PolicyContext()) if e.rule == "schedule_contraction"]
    assert skinny[0].candidate.description.startswith("schedule contraction: 16x128 output tiles")
    square = [e for e in SchedulePolicy().propose(original(ROOT / "examples/sgemm_nt.cu"), PolicyContext())
              if e.rule == "schedule_contraction"]
    assert not any("16x" in e.candidate.description or "x16 " in e.candidate.description for e in square)


def test_a_row_scan_is_scanned_by_a_warp_or_walked_through_shared_memory_windows() -> None:
    """A running sum along each row: a warp per row scans it (stretch totals combined by shuffles), or the thread
    per row stays and its reads and writes go through windows the block loads and stores together."""
    edits = SchedulePolicy().propose(original(ROOT / "tests/heldout/row_cumsum.cu"), PolicyContext())
    rules = [edit.rule for edit in edits]
    assert set(rules) == {"schedule_scan", "schedule_stream", "schedule_map"}
    assert rules.index("schedule_scan") < rules.index("schedule_stream")
    scan = next(edit for edit in edits if edit.rule == "schedule_scan")
    assert "running = lane == 0 ? running_carry : running_carry + running_before;" in scan.candidate.unit.text
    stream = [edit for edit in edits if edit.rule == "schedule_stream"]
    assert all(edit.symptom == "uncoalesced_loads" for edit in stream)
    text = stream[0].candidate.unit.text
    assert "x_window[threadIdx.x][c - c_window]" in text and "out[out_at] = out_window" in text


@pytest.mark.parametrize("path", ["tests/heldout13/col_cumsum.cu", "tests/heldout14/col_cummax.cu"])
def test_a_scan_down_columns_is_scanned_by_threads_along_y_across_a_block_of_columns(path) -> None:
    """A running sum (a running max after a first row stored alone) down each column: neighbouring columns on x,
    each column's rows shared by threads along y whose stretch totals meet in shared memory; no warp per column
    (its lanes would read a column's strided elements)."""
    edits = [e for e in SchedulePolicy().propose(original(ROOT / path), PolicyContext())
             if e.rule == "schedule_scan"]
    assert edits and all(e.symptom == "uncoalesced_loads" and "threads each along y" in e.candidate.description
                         for e in edits)
    text = edits[0].candidate.unit.text
    assert "__syncthreads();" in text and "__shfl" not in text and "if (active) {" in text


def test_few_points_split_their_loop_across_blocks_and_many_do_not() -> None:
    """col_sum has 2048 columns at its sizes (too few groups to fill an H100): some first schedules share each
    column's loop among several blocks. row_max has 65536 rows: none do."""
    few = SchedulePolicy().propose(original(ROOT / "examples/col_sum.cu"), PolicyContext())
    split = [edit for edit in few if "split across" in edit.description]
    assert split and all(edit.symptom == "small_grid" for edit in split)
    assert "__device__ unsigned int optiml_col_sum_arrivals[2048];" in split[0].candidate.unit.text
    many = SchedulePolicy().propose(original(ROOT / "examples/row_max.cu"), PolicyContext())
    assert many and not any("split across" in edit.description for edit in many)


def test_a_small_output_with_a_long_loop_splits_the_loop_across_blocks() -> None:
    """A 256 x 256 product over 131072 steps has 16 output tiles of 64 x 64: some first schedules share each tile's
    loop among several blocks (grid z), the last adding their partial tiles; a 4096^3 product gets none first."""
    from tests.unit.test_ir_lift import candidate_of
    text = """/* @optiml
   sizes:  M={m} N={m} K={k}
   check:  M=33 N=65 K=17
   A:      in  float[M*K]
   B:      in  float[K*N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
*/
__global__ void mm(const float* A, const float* B, float* C, int M, int N, int K)
{{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M && j < N) {{
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[i * K + k] * B[k * N + j];
        C[i * N + j] = acc;
    }}
}}
"""
    small = SchedulePolicy().propose(candidate_of("small.cu", text.format(m=256, k=131072)), PolicyContext())
    split = [e for e in small if e.rule == "schedule_contraction" and "split across" in e.description]
    assert split and all(len(e.candidate.contract.launch.grid) == 3 for e in split)
    assert "if (!last_block) continue;" in split[0].candidate.unit.text
    large = SchedulePolicy().propose(candidate_of("large.cu", text.format(m=4096, k=4096)), PolicyContext())
    assert not any("split across" in e.description for e in large if e.rule == "schedule_contraction")


ARGMAX_QUANTIZED = """
/* @optiml
   sizes: rows=64 cols=3000
   check: rows=3 cols=700; rows=5 cols=33; rows=2 cols=1
   x: in float[rows*cols]
   where: out int[rows]
   launch: grid=cdiv(rows,64) block=64
*/
__global__ void argmax_rows(const float* x, int* where, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float best = floorf(x[r * cols] * 2.0f);
    int at = 0;
    for (int c = 1; c < cols; ++c) {
        float v = floorf(x[r * cols + c] * 2.0f);
        if (v > best) {
            best = v;
            at = c;
        }
    }
    where[r] = at;
}
"""


ARGMIN_COLUMNS_QUANTIZED = """
/* @optiml
   sizes: rows=3000 cols=64
   check: rows=700 cols=3; rows=33 cols=5; rows=1 cols=2
   x: in float[rows*cols]
   where: out int[cols]
   launch: grid=cdiv(cols,64) block=64
*/
__global__ void argmin_columns(const float* x, int* where, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float best = floorf(x[c] * 2.0f);
    int at = 0;
    for (int r = 1; r < rows; ++r) {
        float v = floorf(x[r * cols + c] * 2.0f);
        if (v < best) {
            best = v;
            at = r;
        }
    }
    where[c] = at;
}
"""


@pytest.mark.parametrize("source, lanes_axis", [(ARGMAX_QUANTIZED, "x"), (ARGMIN_COLUMNS_QUANTIZED, "y")])
def test_an_argmax_is_a_thread_group_reduction_keeping_the_first_place_on_ties(source, lanes_axis):
    """The value and where it is are reduced together: every reduce schedule of the program (a warp to a block per
    point; lanes along x for rows, along y for columns; vector accesses), run on the CPU emulator, gives the
    original's indices where the quantized values tie at many places (the first place wins, as the loop's strict
    comparison keeps it). Never split across blocks: the partials would be pairs."""
    import numpy as np

    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.gpu.emulate import run_on_cpu
    from optiml_engine.ir.emit import emit
    from optiml_engine.ir.lift import lift
    from optiml_engine.ir.schedule import shape_of, space
    from optiml_engine.source.contract import resolve
    from tests.unit.test_ir_lift import candidate_of
    naive = candidate_of("user.cu", source)
    program = lift(naive)
    shape = shape_of(program)
    assert "reduce" in shape.families and shape.reductions[0].index == "at" and shape.lanes_axis == lanes_axis
    schedules = space(shape, "reduce")
    assert schedules and all(s.splits == 1 for s in schedules) and any(s.lanes > 32 for s in schedules)
    for binding in naive.contract.checks[:2]:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=5)
        expected = run_on_cpu(naive, binding, inputs)["where"]
        for schedule in schedules:
            emitted = emit(program, shape, schedule, naive)
            assert np.array_equal(run_on_cpu(emitted, binding, inputs)["where"], expected), schedule.describe()


def test_a_stencils_taps_in_loops_are_proposed_written_out_and_fused() -> None:
    """A 5x5 window in constant loops over a flat index (tests/heldout13's pool): the program over its digits with
    the loops written out is proposed with its fused schedules only (their points read shared taps once), and a
    2-D convolution's over its own indices; a kernel with no constant loops gets none."""
    from optiml_engine.policies.schedules import WRITTEN_OUT
    for path in ("tests/heldout13/avgpool5x5_s1.cu", "tests/heldout/conv2d_3x3_multichan.cu"):
        edits = SchedulePolicy().propose(original(ROOT / path), PolicyContext())
        written = [e for e in edits if WRITTEN_OUT in e.description]
        assert written and all("consecutive points per thread" in e.description for e in written), path
        # Shared taps read once: written-out taps held in locals, or a register window slid along the points.
        assert any("_tap" in e.candidate.unit.text or "_neighbours" in e.candidate.unit.text for e in written), path
    edits = SchedulePolicy().propose(original(ROOT / "examples/layernorm_rows.cu"), PolicyContext())
    assert not any(WRITTEN_OUT in e.description for e in edits)


def test_an_output_accumulated_in_its_loop_gets_reduce_schedules_of_it_held_in_a_local() -> None:
    """PolyBench's mvt (`x2[i] += a[j * n + i] * y_2[j]`, in double) is a map as written; the policy proposes
    reduce schedules of it with the element held in a local (ir/promote.py) and says so."""
    edits = SchedulePolicy().propose(original(ROOT / "tests/heldout37/polybench_mvt_f64.cu"), PolicyContext())
    held = [edit for edit in edits if edit.rule == "schedule_reduce"]
    assert held and all(HELD in edit.description for edit in held), [edit.description for edit in edits]
