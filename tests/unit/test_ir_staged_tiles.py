"""Shared memory used as a cache (ir/staged_tiles.py), and the tiles joined again (ir/untile.py): the tiled matrix
product lifts as the plain product the contraction family reads, a reversed or shifted tile as the loads that filled
it; each program equals the kernel itself, barriers and all, run by the CPU emulator at every check size (tiles past
the matrices' edges, blocks half full); a tile read another way than its storer wrote it stays refused at its shared
memory."""

from __future__ import annotations

import pytest

from optiml_engine.ir.lift import lift
from optiml_engine.ir.printer import c_expr
from optiml_engine.ir.relabel import threads_uncoarsened
from optiml_engine.ir.respell import respelled
from optiml_engine.ir.staged_tiles import staged_tiles_read
from optiml_engine.ir.program import For, LoopProgram, walk
from optiml_engine.ir.schedule import shape_of
from tests.ir_cases import ROOT
from tests.unit.test_ir_block_trees import assert_refused_at_shared_memory, lifted_equals_kernel
from tests.unit.test_ir_lift import candidate_of

TILED = (ROOT / "tests" / "heldout23" / "matmul_tiled16.cu").read_text()

# The same product with its tiles filled by selects rather than branches.
TERNARY = TILED.replace("""        if (row < M && a_col < K)
            As[threadIdx.y][threadIdx.x] = A[row * K + a_col];
        else
            As[threadIdx.y][threadIdx.x] = 0.0f;""",
    "        As[threadIdx.y][threadIdx.x] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;")

# A 3-point stencil over a tile with a one-element halo on each side, loaded by the first and last threads.
HALO = """#define BLOCK 64
/* @optiml
   sizes:   n=1048576
   check:   n=1; n=63; n=64; n=65; n=200
   x:       in  float[n]
   y:       out float[n]
   launch:  grid=cdiv(n,64) block=64
   tol:     1e-5
*/
__global__ void smooth3(const float* x, float* y, int n)
{
    __shared__ float tile[BLOCK + 2];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    tile[threadIdx.x + 1] = (i < n) ? x[i] : 0.0f;
    if (threadIdx.x == 0)
        tile[0] = (i > 0) ? x[i - 1] : 0.0f;
    if (threadIdx.x == BLOCK - 1)
        tile[BLOCK + 1] = (i + 1 < n) ? x[i + 1] : 0.0f;
    __syncthreads();
    if (i < n)
        y[i] = 0.25f * tile[threadIdx.x] + 0.5f * tile[threadIdx.x + 1] + 0.25f * tile[threadIdx.x + 2];
}
"""


def test_the_tiled_product_is_the_plain_product() -> None:
    """The k-tiles joined into one loop over [0, K), the zero padding and the guards the bounds hold dropped: a
    contraction."""
    program = lifted_equals_kernel(TILED)
    loops = [stmt for stmt in walk(program.body) if isinstance(stmt, For)]
    assert [(loop.var, c_expr(loop.stop)) for loop in loops] == [("k", "K")], str(program)
    assert "?" not in str(program) and "As" not in str(program), str(program)
    assert [c_expr(index.upper) for index in program.space] == ["M", "N"], str(program)
    assert "contraction" in shape_of(program).families


def test_tiles_stepped_over_are_the_plain_product_too() -> None:
    """`for (t0 = 0; t0 < T; t0 += 16)` reading `t0 + k` (the tiles stepped over rather than counted), the operands
    transposed (a weight gradient, dy^T x), a size_t index kept so."""
    program = lifted_equals_kernel((ROOT / "tests" / "heldout26" / "linear_weight_grad_tiled.cu").read_text())
    assert "?" not in str(program) and "(size_t)k" in str(program), str(program)
    assert "contraction" in shape_of(program).families


def test_tiles_filled_by_selects_are_the_plain_product_too() -> None:
    program = lifted_equals_kernel(TERNARY)
    assert "?" not in str(program), str(program)


CONV_HALO = (ROOT / "tests" / "heldout23" / "conv1d_halo.cu").read_text()


@pytest.mark.parametrize("text", [HALO, CONV_HALO], ids=["halo", "conv_halo_by_rows"])
def test_a_tile_read_another_way_is_the_loads_that_filled_it(text) -> None:
    program = lifted_equals_kernel(text)
    assert isinstance(program, LoopProgram) and "tile" not in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];", "sum += As[threadIdx.y][k + 1] * Bs[k][threadIdx.x];"),
     "an element no thread stored"),
    (("            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n        __syncthreads();",
      "            sum += As[threadIdx.y][k] * Bs[k][threadIdx.x];"),
     "the next tile stored before this one is read"),
    (("Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];", "Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];\n"
      "            Bs[threadIdx.y][0] = 1.0f;"), "an element stored twice"),
    (("Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];", "Bs[threadIdx.y][threadIdx.x] = C[b_row * N + col];"),
     "memory the kernel writes read back"),
    (("Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col];",
      "Bs[threadIdx.y][threadIdx.x] = B[b_row * N + col] * As[threadIdx.y][threadIdx.x];"),
     "one tile read while the other is stored"),
])
def test_a_tile_not_read_as_its_storer_wrote_it_stays_refused(change, why) -> None:
    assert change[0] in TILED
    assert_refused_at_shared_memory(TILED.replace(*change), why)


# Rows staged by a block of 32 x 4 threads, each storing 8 rows of the tile (the transpose's loading loop).
COPIED = """/* @optiml
   sizes:   rows=4096 cols=4096
   check:   rows=32 cols=32; rows=64 cols=96
   x:       in  float[rows*cols]
   y:       out float[rows*cols]
   launch:  grid=(cols/32,rows/32) block=(32,4)
   tol:     1e-6
*/
__global__ void copy_rows(const float* x, float* y, int rows, int cols)
{
    __shared__ float tile[32][32];
    int c = blockIdx.x * 32 + threadIdx.x;
    for (int j = 0; j < 32; j += 4)
        tile[threadIdx.y + j][threadIdx.x] = x[(blockIdx.y * 32 + threadIdx.y + j) * cols + c];
    __syncthreads();
    for (int j = 0; j < 32; j += 4)
        y[(blockIdx.y * 32 + threadIdx.y + j) * cols + c] = tile[threadIdx.y + j][threadIdx.x];
}
"""


def test_a_value_reading_its_storer_apart_from_the_element_is_not_read_through() -> None:
    """Element (r, c) is stored by every thread and turn with threadIdx.y + j == r: a value reading j apart (`x[..]
    + j`) is not a function of the element, and the rewrite leaves the kernel as it is; read only through the
    element, it is rewritten."""
    plain = respelled(candidate_of("user.cu", COPIED))
    assert "tile" not in staged_tiles_read(plain).unit.text.split("__global__")[1]
    apart = respelled(candidate_of("user.cu", COPIED.replace("+ j) * cols + c];\n    __syncthreads",
                                                             "+ j) * cols + c] + j;\n    __syncthreads")))
    assert apart.unit.text != plain.unit.text and staged_tiles_read(apart) is apart


PRIVATE = (ROOT / "tests" / "heldout23" / "histogram_u8.cu").read_text()


def test_a_privatized_histogram_is_its_adds_made_to_the_histogram() -> None:
    program = lifted_equals_kernel(PRIVATE)
    assert "local_hist" not in str(program) and "atomicAdd(&hist[x[" in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("atomicAdd(&local_hist[x[i]], 1);", "atomicAdd(&local_hist[x[i]], -1);"), "a > 0 merge skipping negative bins"),
    (("    local_hist[threadIdx.x] = 0;\n", "    if (threadIdx.x > 0) local_hist[threadIdx.x] = 0;\n"),
     "a bin not zeroed"),
    (("atomicAdd(&hist[threadIdx.x], local_hist[threadIdx.x]);",
      "atomicAdd(&hist[threadIdx.x], local_hist[(threadIdx.x + 1) % 256]);"), "a bin merged into its neighbour"),
    (("        atomicAdd(&local_hist[x[i]], 1);", "        atomicAdd(&local_hist[x[i]], hist[0]);"),
     "the histogram read while added to"),
])
def test_a_private_copy_not_merged_as_it_was_added_stays_refused(change, why) -> None:
    assert change[0] in PRIVATE
    assert_refused_at_shared_memory(PRIVATE.replace(*change), why)


TRANSPOSE = (ROOT / "tests" / "heldout23" / "transpose_tiled.cu").read_text()


def test_the_tiled_transpose_is_the_plain_transpose() -> None:
    """Read through its tile, its four rows a thread made threads of their own (32 x 32), its thread dimensions
    swapped so each index is one dimension's: the transpose over [0, rows) x [0, cols) (ir/relabel.py)."""
    program = lifted_equals_kernel(TRANSPOSE)
    assert [c_expr(index.upper) for index in program.space] == ["rows", "cols"], str(program)
    assert "?" not in str(program) and "for" not in str(program).split("\n", 2)[2], str(program)


def test_a_copy_through_a_tile_is_the_plain_copy() -> None:
    program = lifted_equals_kernel(COPIED)
    assert "tile" not in str(program) and "for" not in str(program).split("\n", 2)[2], str(program)


def test_rows_that_read_the_blocks_extent_stay_refused() -> None:
    """A value scaled by `blockDim.y` (4): made threads of their own, the block's extent would be 32."""
    changed = COPIED.replace("= tile[threadIdx.y + j][threadIdx.x];",
                             "= tile[threadIdx.y + j][threadIdx.x] * blockDim.y;")
    assert changed != COPIED
    plain, scaled = (staged_tiles_read(respelled(candidate_of("user.cu", text))) for text in (COPIED, changed))
    assert threads_uncoarsened(plain) is not plain and threads_uncoarsened(scaled) is scaled


def test_rows_a_thread_reads_apart_from_its_turn_stay_refused() -> None:
    """A thread's turn j also scaling what it writes: thread t at turn j is not thread t + j at turn 0."""
    changed = COPIED.replace("= tile[threadIdx.y + j][threadIdx.x];", "= tile[threadIdx.y + j][threadIdx.x] * j;")
    assert changed != COPIED
    assert_refused_at_shared_memory(changed, "the turn read apart")


def _thread_index_named(text: str) -> str:
    """The kernel with its thread index read through a local declared first (`const int tid_x = threadIdx.x;`)."""
    head, body = text.split("__global__", 1)
    signature, body = body.split("{", 1)
    return f"{head}__global__{signature}{{\n    const int tid_x = threadIdx.x;" + body.replace("threadIdx.x", "tid_x")


@pytest.mark.parametrize("kernel", ["heldout23/transpose_tiled", "heldout23/conv1d_halo",
                                    "heldout25/cosine_similarity_matrix"])
def test_tiles_read_through_a_thread_index_alias_are_read_as_without_it(kernel) -> None:
    """The tiles' reads name the alias (`tile[tid_x + k]`), the rows a thread loads are turns of the alias, the tile
    index is an alias of the alias (`int tx = tid_x`): read with the alias inlined, the program the kernel has
    without it (found by bench/respell_probe.py)."""
    text = (ROOT / "tests" / f"{kernel}.cu").read_text()
    aliased = _thread_index_named(text)
    assert aliased.count("tid_x") >= 2
    assert str(lifted_equals_kernel(aliased)) == str(lift(candidate_of("user.cu", text)))
