"""A block reducing through shared memory (trees, warp shuffles, thread 0's serial sum), lifted as its one point
walking the loop whole, and a grid's block totals added atomically lifted as each thread's partial added
(ir/block_trees.py): each program equals the kernel itself, trees, shuffles, barriers and all, run by the CPU emulator
at every check size (rows of one element, rows shorter than the block, rows that end mid-block); each kernel that is
not such a reduction stays refused at its shared memory."""

from __future__ import annotations

import pytest

from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.online import two_pass_normalizer
from optiml_engine.ir.program import Let, LoopProgram, NotLiftable
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.policies.schedules import agrees_at_checks
from tests.ir_cases import ROOT
from tests.unit.test_ir_emit import assert_equals_program, smallest_check
from tests.unit.test_ir_lift import candidate_of

ROWS = """#include <cfloat>
#define BLOCK 64
/* @optiml
   sizes:   rows=8 D=65536
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=129; rows=2 D=1000
   x:       in  float[rows*D]
   y:       out float[rows*D]
   stats:   out float[rows*2]
   launch:  grid=rows block={block}
   tol:     1e-4
*/
__global__ void rows_kernel(const float* x, float* y, float* stats, int rows, int D)
{{
    __shared__ float part[BLOCK];
    __shared__ float other[BLOCK];
    int tid = threadIdx.x;
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;
{body}
}}
"""

SUM = """    float acc = 0.0f;
    for (int j = tid; j < D; j += BLOCK)
        acc += fabsf(xr[j]);
    part[tid] = acc;
    __syncthreads();
    for (unsigned int s = BLOCK / 2; s >= 1; s >>= 1) {
        if (tid < s) {
            part[tid] = part[tid] + part[tid + s];
        }
        __syncthreads();
    }
    float total = part[0];
    for (int j = tid; j < D; j += BLOCK)
        yr[j] = xr[j] / total;
    if (tid == 0) {
        stats[2 * blockIdx.x] = total;
        stats[2 * blockIdx.x + 1] = 0.0f;
    }"""

# The softmax of long rows: a maximum and then a sum through the same array, the thread read as `threadIdx.x`, the
# block's size as `blockDim.x`, the scratch written and read back at the same element by the same thread.
MAX_THEN_SUM = """    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        m = fmaxf(m, xr[j]);
    part[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + s]);
        __syncthreads();
    }
    float row_max = part[0];
    __syncthreads();
    float sum = 0.0f;
    for (int j = threadIdx.x; j < D; j += blockDim.x) {
        yr[j] = expf(xr[j] - row_max);
        sum += yr[j];
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    float row_sum = part[0];
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        yr[j] = yr[j] / row_sum;
    if (threadIdx.x == 0) {
        stats[2 * blockIdx.x] = row_max;
        stats[2 * blockIdx.x + 1] = row_sum;
    }"""

# The same softmax, each total taken back into its own partial (`m = part[0];`) and read through it from there.
TAKEN_BACK = MAX_THEN_SUM.replace("    float row_max = part[0];", "    m = part[0];").replace(
    "    float row_sum = part[0];", "    sum = part[0];").replace("row_max", "m").replace("row_sum", "sum")

# The same sum, its loop's test and its updates spelled the other way round (ir/respell.py).
SPELLED = SUM.replace("j < D; j += BLOCK)\n        acc += fabsf(xr[j]);", "D > j; j = j + BLOCK)\n        acc = acc + fabsf(xr[j]);")

# The softmax's maximum chosen by `?:` in the walk and in the tree, an unroll hint before the tree.
SELECTED = MAX_THEN_SUM.replace("        m = fmaxf(m, xr[j]);", "        m = xr[j] > m ? xr[j] : m;").replace(
    "    for (int s = blockDim.x / 2; s > 0; s /= 2) {\n        if (threadIdx.x < s)\n"
    "            part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + s]);",
    "#pragma unroll\n    for (int s = blockDim.x / 2; s > 0; s /= 2) {\n        if (threadIdx.x < s)\n"
    "            part[threadIdx.x] = part[threadIdx.x] < part[threadIdx.x + s] ? part[threadIdx.x + s] : part[threadIdx.x];")

# Two sums through two arrays in one tree, written by thread 0 alone.
TWO_ARRAYS = """    float sum = 0.0f, sq = 0.0f;
    for (int j = tid; j < D; j += 64) {
        float v = xr[j];
        sum += v;
        sq = sq + v * v;
    }
    part[tid] = sum;
    other[tid] = sq;
    __syncthreads();
    for (int s = 32; s > 0; s >>= 1) {
        if (tid < s) {
            part[tid] += part[tid + s];
            other[tid] += other[tid + s];
        }
        __syncthreads();
    }
    for (int j = tid; j < D; j += BLOCK)
        yr[j] = xr[j] * part[0];
    if (tid == 0) {
        float mean = part[0] / D;
        stats[2 * blockIdx.x] = mean;
        stats[2 * blockIdx.x + 1] = other[0] / D - mean * mean;
    }"""

# Thread 0 adds the partials up alone, and hands the mean (and the tree's sum of squares) to the block through
# shared scalars.
SERIAL = """    __shared__ float mean_sh;
    __shared__ float scale_sh;
    float s = 0.0f;
    for (int j = tid; j < D; j += BLOCK)
        s += xr[j];
    part[tid] = s;
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (int k = 0; k < BLOCK; k++)
            total += part[k];
        mean_sh = total / D;
    }
    __syncthreads();
    float mean = mean_sh;
    float sq = 0.0f;
    for (int j = tid; j < D; j += BLOCK)
        sq += (xr[j] - mean) * (xr[j] - mean);
    other[tid] = sq;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s)
            other[tid] += other[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        scale_sh = rsqrtf(other[0] / D + 1e-5f);
    __syncthreads();
    for (int j = tid; j < D; j += BLOCK)
        yr[j] = (xr[j] - mean) * scale_sh;
    if (tid == 0) {
        stats[2 * blockIdx.x] = mean;
        stats[2 * blockIdx.x + 1] = scale_sh;
    }"""

# Warp shuffles: each warp's sum to its lane 0, the warps' sums gathered and reduced by the first warp, thread 0
# handing the scale over through a shared scalar.
WARP_SUM = """    __shared__ float scale_sh;
    float acc = 0.0f;
    for (int j = tid; j < D; j += blockDim.x)
        acc += xr[j] * xr[j];
    int lane = tid % 32;
    int warp = tid / 32;
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_down_sync(0xffffffff, acc, o);
    if (lane == 0) part[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        float v = (lane < blockDim.x / 32) ? part[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffff, v, o);
        if (lane == 0) {
            scale_sh = rsqrtf(v / D + 1e-6f);
            stats[2 * blockIdx.x] = v;
        }
    }
    __syncthreads();
    for (int j = tid; j < D; j += blockDim.x)
        yr[j] = xr[j] * scale_sh;
    if (tid == 0)
        stats[2 * blockIdx.x + 1] = scale_sh;"""

# The partial itself gathered into again (as a `blockReduceSum(val)` helper reuses `val`), the first warp's test
# reading the thread's index where its element reads the lane.
WARP_REUSED = WARP_SUM.replace(
    "        float v = (lane < blockDim.x / 32) ? part[lane] : 0.0f;\n",
    "        acc = (tid < blockDim.x / 32) ? part[lane] : 0.0f;\n").replace(
    "v += __shfl_down_sync(0xffffffff, v, o)", "acc += __shfl_down_sync(0xffffffff, acc, o)").replace(
    "rsqrtf(v / D", "rsqrtf(acc / D").replace("stats[2 * blockIdx.x] = v;", "stats[2 * blockIdx.x] = acc;")

# Butterflies: every lane gets its warp's maximum, every warp gathers the warps' maxima, every thread the row's;
# then a sum whose warps' partials thread 0 adds up alone.
WARP_XOR = """    float m = -FLT_MAX;
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        m = fmaxf(m, xr[j]);
    for (int o = warpSize / 2; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = m;
    __syncthreads();
    float row_max = (threadIdx.x % 32 < blockDim.x / 32) ? part[threadIdx.x % 32] : -FLT_MAX;
    for (int o = 16; o > 0; o >>= 1)
        row_max = fmaxf(row_max, __shfl_xor_sync(0xffffffff, row_max, o));
    float sum = 0.0f;
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        sum += expf(xr[j] - row_max);
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_down_sync(0xffffffff, sum, o, 32);
    if ((threadIdx.x & 31) == 0) other[threadIdx.x >> 5] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int k = 0; k < blockDim.x / 32; k++)
            total += other[k];
        stats[2 * blockIdx.x] = row_max;
        stats[2 * blockIdx.x + 1] = total;
    }
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        yr[j] = expf(xr[j] - row_max);"""

WHOLE = """#define BLOCK 64
/* @optiml
   sizes:   n=1048576
   check:   n=1; n=7; n=64; n=1000
   x:       in  float[n]
   y:       out float[n]
   launch:  grid=1 block=64
   tol:     1e-4
*/
__global__ void whole_kernel(const float* x, float* y, int n)
{
    __shared__ float ssq[BLOCK];
    int tid = threadIdx.x;
    float local = 0.0f;
    int i = tid;
    while (i < n) {
        local += x[i] * x[i];
        i += blockDim.x;
    }
    ssq[tid] = local;
    __syncthreads();
    for (int half = BLOCK / 2; half > 0; half >>= 1) {
        if (tid < half) ssq[tid] += ssq[tid + half];
        __syncthreads();
    }
    float inv_norm = 1.0f / sqrtf(ssq[0]);
    for (i = tid; i < n; i += blockDim.x)
        y[i] = x[i] * inv_norm;
}
"""


# One block for the whole tensor, each thread a contiguous chunk, thread 0 adding the partials up and handing the
# statistics over through shared scalars (a local named `total` in both of its blocks): the fifteenth held-out set's.
CHUNKS = (ROOT / "tests" / "heldout22" / "standardize_global.cu").read_text()


# A column of a 2-D block reduces along threadIdx.y: a thread per output column (x), a block's rows (y) sharing
# the reduced axis, the loop behind the column's guard, thread row 0 writing where the column exists (the sixteenth
# held-out set's amax_dim1).
COLUMNS = (ROOT / "tests" / "heldout23" / "amax_dim1.cu").read_text()


# CUDA by Example's dot product, its blocks' totals added atomically: the threads stride the whole grid.
DOT = """#define THREADS 128
/* @optiml
   sizes:   n=16777216
   check:   n=1; n=7; n=300; n=5000
   a:       in  float[n]
   b:       in  float[n]
   c:       inout float[1] const(0)
   launch:  grid=min(cdiv(n,128),64) block=128
   tol:     1e-4
*/
__global__ void dot(const float* a, const float* b, float* c, int n)
{
    __shared__ float cache[THREADS];
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int cacheIndex = threadIdx.x;
    float temp = 0;
    while (tid < n) {
        temp += a[tid] * b[tid];
        tid += blockDim.x * gridDim.x;
    }
    cache[cacheIndex] = temp;
    __syncthreads();
    int i = blockDim.x / 2;
    while (i != 0) {
        if (cacheIndex < i)
            cache[cacheIndex] += cache[cacheIndex + i];
        __syncthreads();
        i /= 2;
    }
    if (cacheIndex == 0)
        atomicAdd(c, cache[0]);
}
"""


def assert_refused_at_shared_memory(text: str, why: str) -> None:
    """The kernel is no reduction the fold reads: refused at its shared memory, as before it."""
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable) and "shared" in result.reason, f"{why}: {result}"


def lifted_equals_kernel(text: str) -> LoopProgram:
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert_equals_program(naive, naive, program, seed=5, what="the kernel itself")
    return program


# The textbook's first reduction: interleaved addressing, the stride doubling.
INTERLEAVED = SUM.replace("for (unsigned int s = BLOCK / 2; s >= 1; s >>= 1) {\n        if (tid < s) {",
                          "for (unsigned int s = 1; s < blockDim.x; s *= 2) {\n        if (tid % (2 * s) == 0) {")


@pytest.mark.parametrize("body", [SUM, SPELLED, MAX_THEN_SUM, SELECTED, TAKEN_BACK, TWO_ARRAYS, SERIAL, INTERLEAVED,
                                  WARP_SUM, WARP_REUSED, WARP_XOR],
                         ids=["sum", "spelled_the_other_way_round", "max_then_sum", "maximum_by_selection",
                              "totals_taken_back", "two_arrays", "serial_and_shared_scalars", "interleaved",
                              "warp_shuffles", "warp_partial_reused", "warp_butterflies"])
def test_a_block_tree_reduction_is_the_point_walking_its_loops_whole(body) -> None:
    program = lifted_equals_kernel(ROWS.format(block=64, body=body))
    assert len(program.space) == 1 and "tid" not in str(program) and "threadIdx" not in str(program), str(program)
    assert "= 0; j <" in str(program) and "++j" in str(program), str(program)


def test_a_block_size_defined_with_a_comment_is_the_number() -> None:
    """`#define BLOCK 64  // threads a row`: the comment is no part of the value."""
    text = ROWS.format(block=64, body=SUM).replace("#define BLOCK 64", "#define BLOCK 64   // threads a row")
    assert "// threads a row" in text
    lifted_equals_kernel(text)


def test_a_whole_array_in_one_block_is_one_point() -> None:
    """One block, no block index: the program's one point, named by `blockIdx.x` over a grid of one."""
    program = lifted_equals_kernel(WHOLE)
    assert str(program).splitlines()[1] == "parallel for block_x in [0, 1):", str(program)


@pytest.mark.parametrize("spelled", ["template", "enum", "constexpr"])
def test_a_block_size_spelled_as_a_template_argument_or_a_constant_is_the_blocks_size(spelled) -> None:
    """`template <int BLOCK>` instantiated at 64 (the contract's `template:`), an enumerator or a constexpr: the
    tree's halving from BLOCK / 2 is the block's tree as a #define's is."""
    text = WHOLE.replace("#define BLOCK 64\n", {"template": "", "enum": "enum { BLOCK = 64 };\n",
                                                 "constexpr": "constexpr int BLOCK = 64;\n"}[spelled])
    if spelled == "template":
        text = text.replace("   tol:     1e-4", "   template: BLOCK=64\n   tol:     1e-4").replace(
            "__global__ void whole_kernel", "template <int BLOCK>\n__global__ void whole_kernel") + \
            "template __global__ void whole_kernel<64>(const float*, float*, int);\n"
    program = lifted_equals_kernel(text)
    assert str(program).splitlines()[1] == "parallel for block_x in [0, 1):", str(program)


def test_contiguous_chunks_are_the_point_walking_the_whole_range() -> None:
    """The 256 chunks of ceil(n / 256) elements are [0, n) in order; the two `total`s of thread 0's blocks stay
    apart."""
    program = lifted_equals_kernel(CHUNKS)
    assert "begin" not in str(program) and "i < n" in str(program), str(program)
    declared = [stmt.name for stmt in program.body if isinstance(stmt, Let)]
    assert len(declared) == len(set(declared)), str(program)


def test_a_chunk_its_bound_does_not_clamp_stays_refused() -> None:
    """Without `if (end > n) end = n;` the last chunks read past n: no point walking [0, n) is that."""
    assert "    if (end > n) end = n;\n" in CHUNKS
    assert_refused_at_shared_memory(CHUNKS.replace("    if (end > n) end = n;\n", ""), "chunks past n")


def test_a_tree_along_the_blocks_y_is_each_columns_point() -> None:
    """The x index stays a parallel index; y folds into each point's loop, launched with blocks of (32, 1)."""
    program = lifted_equals_kernel(COLUMNS)
    assert [index.name for index in program.space] == ["b", "k"] and "ty" not in str(program), str(program)


def test_a_tree_along_y_that_mixes_columns_stays_refused() -> None:
    """`part[ty + s][(tx + 1) % 32]` combines another column's partial: no point's own maximum."""
    assert "part[ty + s][tx]" in COLUMNS
    assert_refused_at_shared_memory(COLUMNS.replace("part[ty + s][tx]", "part[ty + s][(tx + 1) % 32]"),
                                    "another column")


def test_a_block_total_added_atomically_is_each_threads_partial_added() -> None:
    """The grid keeps its threads; each adds its partial where thread 0 added the tree's total."""
    program = lifted_equals_kernel(DOT)
    assert "atomicAdd" in str(program) and "cache" not in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("atomicAdd(c, cache[0]);", "atomicAdd(c + cacheIndex, cache[0]);"), "thread 0's own target"),
    (("    if (cacheIndex == 0)\n", "    if (cacheIndex == 1)\n"), "thread 1 adds the total"),
    (("        __syncthreads();\n        i /= 2;", "        i /= 2;"), "a tree without its barriers"),
    (("    cache[cacheIndex] = temp;", "    cache[cacheIndex] = temp;\n    temp = 0;"), "the partial changed between"),
    (("float temp = 0;", "float temp = 1;"), "a sum from one is one a thread"),
])
def test_a_block_total_that_is_not_every_partial_stays_refused(change, why) -> None:
    assert change[0] in DOT
    assert_refused_at_shared_memory(DOT.replace(*change), why)


# The block's size as the macro the launch uses, in the index and in the grid's stride, and the block's total shared
# out over n (a mean) as thread 0 adds it.
MEAN = DOT.replace("int tid = threadIdx.x + blockIdx.x * blockDim.x;", "int tid = threadIdx.x + blockIdx.x * THREADS;") \
    .replace("tid += blockDim.x * gridDim.x;", "tid += gridDim.x * THREADS;").replace(
        "atomicAdd(c, cache[0]);", "atomicAdd(c, cache[0] / n);")


def test_a_block_total_shared_out_is_each_threads_share_added() -> None:
    program = lifted_equals_kernel(MEAN)
    assert "atomicAdd(&c[0], a[tid] * b[tid] / n)" in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("atomicAdd(c, cache[0] / n);", "atomicAdd(c, cache[0] / temp);"), "a factor each thread holds apart"),
    (("atomicAdd(c, cache[0] / n);", "atomicAdd(c, cache[0] / (float)tid);"), "a factor of the thread's index"),
    (("atomicAdd(c, cache[0] / n);", "atomicAdd(c, cache[0] / cacheIndex);"), "a factor of the thread's index"),
    (("atomicAdd(c, cache[0] / n);", "atomicAdd(c, cache[0] + n);"), "a value that is no share of the total"),
    (("float temp = 0;", "int temp = 0;"), "an integer total divided: each share would truncate apart"),
])
def test_a_block_total_that_is_not_shared_out_alike_stays_refused(change, why) -> None:
    assert change[0] in MEAN
    assert_refused_at_shared_memory(MEAN.replace(*change), why)


def test_a_warp_count_may_be_a_macro_of_the_block_macro() -> None:
    """`#define WARPS (THREADS / 32)` in the gather's test: the block's warps, its macros expanded."""
    text = ROWS.format(block=64, body=WARP_SUM.replace("lane < blockDim.x / 32", "lane < WARPS"))
    program = lifted_equals_kernel("#define THREADS 64\n#define WARPS (THREADS / 32)\n" + text)
    assert "shfl" not in str(program), str(program)
    assert_refused_at_shared_memory("#define THREADS 64\n#define WARPS (THREADS / 16)\n" + text,
                                    "a count that is not the block's warps")


def test_the_folded_reduction_schedules_equal_the_program() -> None:
    """The reduce family shares the folded loops among a thread group again: its first schedules equal the
    program."""
    naive = candidate_of("user.cu", ROWS.format(block=64, body=SUM))
    program = lift(naive)
    shape = shape_of(program)
    assert "reduce" in shape.families
    binding = smallest_check(naive)
    first = defaults(shape, "reduce", points_at_sizes=8)[:3]
    assert first
    for schedule in first:
        emitted = emit(program, shape, schedule, naive)
        narrow = naive.contract.model_copy(update={"checks": [binding, {"rows": 2, "D": 1000}]})
        assert_equals_program(emitted, naive.model_copy(update={"contract": narrow}), program, seed=9,
                              what=schedule.describe())


def _sum_changed(old: str, new: str) -> str:
    assert old in SUM
    return SUM.replace(old, new)


@pytest.mark.parametrize("block, body, why", [
    (64, _sum_changed("        __syncthreads();\n    }", "    }"), "no barrier between the tree's steps"),
    (96, SUM.replace("BLOCK", "96"), "a tree over a block of 96 drops the threads past the halvings"),
    (64, _sum_changed("float acc = 0.0f;", "float acc = 1.0f;"), "a sum from one is one per thread"),
    (64, _sum_changed("float total = part[0];", "float total = part[1];"), "another thread's partial"),
    (64, _sum_changed("part[tid] = part[tid] + part[tid + s];", "part[tid] = fmaxf(part[tid], part[tid + s]);"),
     "the tree's combination is not the partials' update"),
    (64, _sum_changed("        yr[j] = xr[j] / total;", "        yr[j] = xr[j] / total;\n"
                      "    for (int j = tid; j < D - 1; j += BLOCK)\n        yr[j] += yr[j + 1];"),
     "reads an element another thread wrote"),
    (64, _sum_changed("        acc += fabsf(xr[j]);",
                      "    {\n        acc += fabsf(xr[j]);\n        last = xr[j];\n    }")
     .replace("float acc = 0.0f;", "float acc = 0.0f, last = 0.0f;").replace("/ total;", "/ total + last;"),
     "a value that differs from thread to thread"),
    (64, _sum_changed("    float total = part[0];", "    float total = part[0];\n    if (tid < 3) yr[0] = total;"),
     "the thread index read otherwise"),
    (64, _sum_changed("j < D; j += BLOCK)\n        acc", "j < D && xr[j] >= 0.0f; j += BLOCK)\n        acc"),
     "each thread stops at its own first negative element"),
    (64, _sum_changed("        yr[j] = xr[j] / total;", "    {\n        if (xr[j] > 1e3f) break;\n"
                      "        yr[j] = xr[j] / total;\n    }"), "each thread leaves at its own element"),
    (64, _sum_changed("    float total = part[0];", "    float total = part[0];\n    atomicAdd(&stats[0], total);"),
     "every thread adds the total"),
    (64, _sum_changed("        yr[j] = xr[j] / total;",
                      "    {\n        int k = j;\n        yr[k] = xr[j] / total;\n    }")
     + "\n    for (int j = tid; j < D - 1; j += BLOCK) {\n        int k = j + 1;\n        stats[0] = yr[k];\n    }",
     "the same spelling, another element"),
    (64, SERIAL.replace("    __syncthreads();\n    float mean = mean_sh;", "    float mean = mean_sh;"),
     "a shared scalar read before the barrier after its write"),
    (64, SERIAL.replace("k < BLOCK; k++", "k < BLOCK - 1; k++"), "thread 0 adds not every partial"),
    (64, TAKEN_BACK.replace("        yr[j] = yr[j] / sum;", "    {\n        sum += 1.0f;\n        yr[j] = yr[j] / sum;\n    }"),
     "a total taken back, then changed by each thread apart"),
    (64, TAKEN_BACK.replace("    sum = part[0];", "    sum = part[1];"), "another thread's partial taken back"),
    (64, SELECTED.replace("part[threadIdx.x] < part[threadIdx.x + s] ?", "part[threadIdx.x] > part[threadIdx.x + s] ?"),
     "a tree of minima over a walk of maxima"),
    (64, INTERLEAVED.replace("tid % (2 * s) == 0", "tid % s == 0"), "an interleaved tree adding partials twice"),
    (64, WARP_SUM.replace("0xffffffff, acc, o", "0x0000ffff, acc, o"), "a shuffle over half a warp"),
    (64, WARP_SUM.replace("(lane < blockDim.x / 32)", "(lane < 1)"), "the first warp gathers one warp's sum"),
    (64, WARP_REUSED.replace("    __syncthreads();\n    for (int j",
                             "    acc += 1.0f;\n    __syncthreads();\n    for (int j"),
     "the gathered total read outside thread 0 (its other lanes hold partial sums)"),
    (64, WARP_REUSED.replace("            acc += __shfl_down_sync", "            acc += __shfl_xor_sync")
     .replace("yr[j] = xr[j] * scale_sh;", "yr[j] = xr[j] * scale_sh * acc;"),
     "every thread reads a total the first warp alone holds"),
    (64, WARP_XOR.replace("fmaxf(row_max, __shfl_xor_sync", "fmaxf(row_max, __shfl_down_sync"),
     "every thread reads a maximum only lane 0 holds"),
    (64, SERIAL.replace("        scale_sh = rsqrtf(", "        mean_sh = 0.0f;\n    scale_sh = rsqrtf("),
     "a shared scalar every thread writes"),
])
def test_what_is_no_block_tree_reduction_stays_refused(block, body, why) -> None:
    assert_refused_at_shared_memory(ROWS.format(block=block, body=body), why)


# A row's first maximum and its index through two shared arrays (values quantized, so that rows tie often): the tree
# takes the other thread's pair where its value is greater, or equal at a smaller index.
ARGMAX = """#include <cfloat>
#define BLOCK 64
/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=2 D=7; rows=3 D=129; rows=2 D=1000
   x:       in  float[rows*D]
   out:     out int[rows]
   launch:  grid=rows block=64
*/
__global__ void argmax_kernel(const float* x, int* out, int rows, int D)
{
    __shared__ float best_val[BLOCK];
    __shared__ int best_idx[BLOCK];
    int tid = threadIdx.x;
    const float* xr = x + (long)blockIdx.x * D;
    float v = -FLT_MAX;
    int idx = tid;
    for (int j = tid; j < D; j += BLOCK) {
        if (floorf(xr[j] * 2.0f) > v) {
            v = floorf(xr[j] * 2.0f);
            idx = j;
        }
    }
    best_val[tid] = v;
    best_idx[tid] = idx;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) {
            float other = best_val[tid + s];
            int other_idx = best_idx[tid + s];
            if (other > best_val[tid] || (other == best_val[tid] && other_idx < best_idx[tid])) {
                best_val[tid] = other;
                best_idx[tid] = other_idx;
            }
        }
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = best_idx[0];
}
"""

# The first minimum, the other thread's pair read in place and the comparisons spelled the other way round.
ARGMIN = ARGMAX.replace("float v = -FLT_MAX;", "float v = FLT_MAX;").replace(
    "if (floorf(xr[j] * 2.0f) > v)", "if (v > floorf(xr[j] * 2.0f))").replace(
    "            float other = best_val[tid + s];\n            int other_idx = best_idx[tid + s];\n", "").replace(
    "if (other > best_val[tid] || (other == best_val[tid] && other_idx < best_idx[tid]))",
    "if (best_val[tid] > best_val[tid + s] || (best_val[tid] == best_val[tid + s] && best_idx[tid] > best_idx[tid + s]))"
).replace("best_val[tid] = other;", "best_val[tid] = best_val[tid + s];").replace(
    "best_idx[tid] = other_idx;", "best_idx[tid] = best_idx[tid + s];")


@pytest.mark.parametrize("text", [ARGMAX, ARGMIN], ids=["argmax", "argmin"])
def test_a_block_tree_of_value_index_pairs_is_the_point_finding_the_first_extreme(text) -> None:
    program = lifted_equals_kernel(text)
    assert "tid" not in str(program) and "int idx = 0;" in str(program), str(program)


def _argmax_changed(old: str, new: str) -> str:
    assert old in ARGMAX
    return ARGMAX.replace(old, new)


@pytest.mark.parametrize("text, why", [
    (_argmax_changed(" || (other == best_val[tid] && other_idx < best_idx[tid])", ""),
     "ties kept at the lower thread, whose index may be the larger"),
    (_argmax_changed("other_idx < best_idx[tid]", "other_idx > best_idx[tid]"), "ties broken to the last index"),
    (_argmax_changed("if (floorf(xr[j] * 2.0f) > v)", "if (floorf(xr[j] * 2.0f) >= v)"),
     "each thread's last maximum"),
    (_argmax_changed("            idx = j;", "            idx = j + v;"), "an index reading the value"),
])
def test_a_pair_tree_that_is_not_the_first_extreme_stays_refused(text, why) -> None:
    assert_refused_at_shared_memory(text, why)


def test_a_tree_whose_step_the_fold_cannot_read_is_lifted_where_the_kernel_run_agrees() -> None:
    """A minimum's tree over a maximum's walk whose values never leave their seed (FLT_MAX, never below any
    element): every thread's pair is (FLT_MAX, its index), and the tree keeps thread 0's. The step is no reading of
    the fold's, but the kernel, run, writes what the one point does (0 for every row): lifted, by the check."""
    program = lifted_equals_kernel(ARGMIN.replace("if (v > floorf", "if (v < floorf"))
    assert "tid" not in str(program) and "int idx = 0;" in str(program), str(program)


# Softmax's confidence and prediction in one tree: each thread's online (max, sum of exp, argmax) triple merged
# pairwise (the fortieth held-out set's).
CONFIDENCE = (ROOT / "tests" / "heldout40" / "softmax_confidence_argmax.cu").read_text()


def test_a_tree_merging_online_softmax_triples_is_the_point_walking_the_row() -> None:
    """The merge step (rescale both sums to the larger maximum, keep the first argmax) is code of the kernel's own:
    the one point walking the row with the thread's online update is the reading, kept because the kernel run on
    the CPU agrees with it; its online loop is then a maximum-and-argmax pass and a sum pass (ir/online.py), a
    reduction the reduce family shares."""
    program = lifted_equals_kernel(CONFIDENCE)
    assert "threadIdx" not in str(program) and "s_max" not in str(program), str(program)
    naive = candidate_of("user.cu", CONFIDENCE)
    passes = two_pass_normalizer(program, agrees_at_checks(program, naive.contract))
    assert passes is not program and "reduce" in shape_of(passes).families, str(passes)


# PyTorch's batch norm statistics: each thread's Welford (mean, M2, count) over its elements of every plane of the
# batch (a strided loop inside the batch's loop), merged pairwise by Chan's formula, thread 0 updating the running
# statistics in place (the fortieth held-out set's).
WELFORD = (ROOT / "tests" / "heldout40" / "batchnorm_stats_welford.cu").read_text()


def test_a_tree_merging_welford_triples_over_a_batchs_planes_is_the_point_walking_them_all() -> None:
    """The loop over the batch every thread runs alike holds the walk of the thread's elements: the one point walks
    each plane whole; the merge is the kernel's own (checked by running it); thread 0's read and write of the running
    mean stay thread 0's, the one point's."""
    program = lifted_equals_kernel(WELFORD)
    text = str(program)
    assert "sh_" not in text and "for (int i = 0; i < HW; ++i)" in text, text
    assert "running_mean[c] = (1.0f - momentum) * running_mean[c]" in text, text


def test_memory_thread_zero_reads_is_refused_where_other_threads_write_it() -> None:
    """The running mean written by every thread (each its own partial's share) and read by thread 0: not the one
    point's."""
    changed = WELFORD.replace("    sh_mean[tid] = mean;\n", "    sh_mean[tid] = mean;\n    running_var[c] = m2;\n")
    assert changed != WELFORD
    assert_refused_at_shared_memory(changed, "written by every thread, read by thread 0")


# Glow's ActNorm initialization: fp64 (sum, sum of squares) per channel over the batch's planes, the two arrays
# carved from one `extern __shared__ double red[]` a block apart (the forty-first held-out set's).
ACTNORM = (ROOT / "tests" / "heldout41" / "actnorm_data_init.cu").read_text()


def test_dynamic_shared_memory_carved_a_block_apart_is_arrays_of_their_own() -> None:
    """`double* r_sum = red; double* r_sq = red + blockDim.x;`: two arrays of one value a thread; their tree is
    the fold's, the walk nested in the batch's loop read whole; the program equals the kernel."""
    program = lifted_equals_kernel(ACTNORM)
    assert "red" not in str(program) and "for (int i = 0; i < HW; ++i)" in str(program), str(program)


def test_dynamic_shared_memory_carved_at_another_offset_stays_refused() -> None:
    """A piece that starts elsewhere than a block's multiple (`red + 64` with blocks of 256 threads) would overlap
    its neighbour where the tree reads it: not read as an array of its own."""
    changed = ACTNORM.replace("double* r_sq = red + blockDim.x;", "double* r_sq = red + 64;")
    assert changed != ACTNORM
    assert_refused_at_shared_memory(changed, "a piece 64 elements in")


# LSE pooling: each thread's online (max, sum) merged in a shared tree through a `void` helper taking the pair by
# reference and leaving an empty pair alone by an early return (the forty-first held-out set's).
LSE_POOL = (ROOT / "tests" / "heldout41" / "lse_pool2d.cu").read_text()


def test_a_merge_through_a_helper_that_returns_early_is_inlined_and_read() -> None:
    """`if (m_new == -INFINITY) return;` before the rest of the helper: the rest under the negated test, inlined at
    the tree's step (its parenthesized reference arguments assigned), the merge checked by running the kernel."""
    program = lifted_equals_kernel(LSE_POOL)
    assert "s_max" not in str(program) and "lse_combine" not in str(program), str(program)


# BERT's masked attention softmax, a warp a row: each lane's online (max, sum) pair merged across the warp by xor
# shuffles (the fortieth held-out set's).
ATTENTION = (ROOT / "tests" / "heldout40" / "bert_attention_softmax.cu").read_text()


def test_a_warp_merging_its_lanes_online_pairs_is_the_row_walked_whole() -> None:
    """The lanes' (max, sum) pairs merged by the kernel's own code after xor shuffles: the row's one point walking
    it with the lane's online update, kept because the kernel run agrees; the online loop then two passes."""
    program = lifted_equals_kernel(ATTENTION)
    assert "__shfl" not in str(program) and "lane" not in str(program), str(program)
    naive = candidate_of("user.cu", ATTENTION)
    passes = two_pass_normalizer(program, agrees_at_checks(program, naive.contract))
    assert passes is not program and "reduce" in shape_of(passes).families, str(passes)


def test_a_warp_merge_that_is_not_the_lanes_own_stays_refused() -> None:
    wrong = "run_sum = run_sum * expf(run_max - new_max) + other_sum;"
    right = "run_sum = run_sum * expf(run_max - new_max) + other_sum * expf(other_max - new_max);"
    assert right in ATTENTION
    result = lift(candidate_of("user.cu", ATTENTION.replace(right, wrong)))
    assert isinstance(result, NotLiftable), str(result)


def test_a_merge_is_run_once_however_often_the_kernel_is_lifted(monkeypatch) -> None:
    """The search lifts its base kernel again for each node it proposes from: the kernel runs for the first lift
    alone, the later ones take its answer."""
    import optiml_engine.ir.lift as lift_module
    runs = []
    real = lift_module._runs_agree
    monkeypatch.setattr(lift_module, "_runs_agree", lambda *args: runs.append(1) or real(*args))
    monkeypatch.setattr(lift_module, "_COMPUTED", {})
    naive = candidate_of("user.cu", CONFIDENCE)
    assert all(isinstance(lift(naive), LoopProgram) for _ in range(3))
    assert len(runs) == 1


def test_a_merge_step_is_refused_where_the_contract_has_no_check_sizes_to_run_it_at() -> None:
    """The check runs the kernel at the contract's check sizes only (its benchmark sizes would take the emulator
    hours): without them, no run confirms the reading."""
    lines = CONFIDENCE.split("\n")
    unchecked = "\n".join(line for line in lines if not line.lstrip().startswith("check:"))
    assert unchecked != CONFIDENCE
    assert_refused_at_shared_memory(unchecked, "no check sizes")


@pytest.mark.parametrize("old, new, why", [
    ("s_sum[tid] = s1 * expf(m1 - mm) + s2 * expf(m2 - mm);", "s_sum[tid] = s1 + s2;", "sums not rescaled"),
    ("(m2 > m1 || (m2 == m1 && i2 < i1)) ? i2 : i1", "(m2 >= m1) ? i2 : i1", "ties kept at the higher thread"),
])
def test_a_merge_step_that_is_not_the_walks_own_stays_refused(old, new, why) -> None:
    assert old in CONFIDENCE
    assert_refused_at_shared_memory(CONFIDENCE.replace(old, new), why)


# Binary cross entropy's mean: each warp's terms shuffled into lane 0, which adds them over n atomically.
WARP_ATOMIC = """#define FULL_MASK 0xffffffff
/* @optiml
   sizes:   n=1048576
   check:   n=1; n=31; n=100; n=1000
   p:       in  float[n] uniform(0.01,0.99)
   t:       in  float[n] uniform(0,1)
   loss:    out float[1]
   launch:  grid=cdiv(n,{block}) block={block}
   tol:     1e-4
*/
__global__ void bce_mean(const float* p, const float* t, float* loss, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float term = 0.0f;
    if (i < n)
        term = -(t[i] * logf(p[i]) + (1.0f - t[i]) * logf(1.0f - p[i]));
    for (int offset = 16; offset > 0; offset >>= 1)
        term += __shfl_down_sync(FULL_MASK, term, offset);
    if ((threadIdx.x & 31) == 0)
        atomicAdd(loss, term / (float)n);
}}
"""


def test_a_warp_total_added_atomically_is_each_threads_share_added() -> None:
    program = lifted_equals_kernel(WARP_ATOMIC.format(block=128))
    assert "atomicAdd" in str(program) and "shfl" not in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("block=128", "block=48"), "a block of one warp and a half"),
    (("atomicAdd(loss, term / (float)n);", "atomicAdd(loss, term + 1.0f);"), "a value that is no share of the term"),
    (("if ((threadIdx.x & 31) == 0)", "if ((threadIdx.x & 31) == 1)"), "lane 1 adds"),
    (("atomicAdd(loss, term / (float)n);", "atomicAdd(loss, term / (float)n);\n    loss[1 + 0 * i] = term;"),
     "the total read after"),
    (("float term = 0.0f;", "int term = 0;"), "an integer total divided: each share would truncate apart"),
])
def test_a_warp_total_that_is_not_every_share_stays_refused(change, why) -> None:
    text = WARP_ATOMIC.format(block=128)
    assert change[0] in text
    result = lift(candidate_of("user.cu", text.replace(*change)))
    assert isinstance(result, NotLiftable) and "loop update" in result.reason, f"{why}: {result}"


# The block reduction of NVIDIA's and PyTorch's samples: helpers shuffling a warp's values and a block's warps'
# partials, inlined into the kernel (the static shared array and all), each taking and returning the partial.
HELPERS = """__device__ float warpReduceSum(float val)
{
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__device__ float blockReduceSum(float val)
{
    static __shared__ float shared[32];
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    val = warpReduceSum(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0.0f;
    if (wid == 0) val = warpReduceSum(val);
    return val;
}

/* @optiml
   sizes:   rows=4096 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000
   x:       in  float[rows*D]
   y:       out float[rows]
   launch:  grid=rows block=256
   tol:     1e-4
*/
__global__ void row_sum(const float* x, float* y, int rows, int D)
{
    float sum = 0.0f;
    for (int j = threadIdx.x; j < D; j += blockDim.x)
        sum += x[blockIdx.x * D + j];
    sum = blockReduceSum(sum);
    if (threadIdx.x == 0)
        y[blockIdx.x] = sum;
}
"""


def test_a_block_reduction_through_helpers_is_the_point_walking_its_loop_whole() -> None:
    program = lifted_equals_kernel(HELPERS)
    assert "shfl" not in str(program) and "threadIdx" not in str(program), str(program)


def test_a_helper_computing_in_another_type_is_not_its_callers_local() -> None:
    """A warp sum in double of a float partial: the copy is not the partial itself (the sums would round apart)."""
    changed = HELPERS.replace("__device__ float warpReduceSum(float val)", "__device__ double warpReduceSum(double val)")
    assert changed != HELPERS
    assert isinstance(lift(candidate_of("user.cu", changed)), NotLiftable)


def test_helpers_whose_gather_every_thread_reads_stay_refused() -> None:
    """Every thread writing the total: only the first warp gathered the partials, the others hold zero."""
    changed = HELPERS.replace("    if (threadIdx.x == 0)\n        y[blockIdx.x] = sum;", "    y[blockIdx.x] = sum;")
    assert changed != HELPERS
    result = lift(candidate_of("user.cu", changed))
    assert isinstance(result, NotLiftable), str(result)


# A row's normalization through a helper returning the block's sum to every thread: each warp's partial shuffled
# into its lane 0 and deposited in the caller's array (passed as a pointer), then every thread adding up the
# warps' partials; called twice through the same array (the mean, then the variance about it), the warp count a
# `constexpr` computed from the block's.
EVERY_THREAD_SUMS = """constexpr int kBlock = 128;
constexpr int kWarps = kBlock / 32;

__inline__ __device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__inline__ __device__ float block_sum(float v, float* partial)
{
    int lane = threadIdx.x % 32;
    int wid = threadIdx.x / 32;
    v = warp_sum(v);
    __syncthreads();
    if (lane == 0)
        partial[wid] = v;
    __syncthreads();
    float total = 0.0f;
    for (int i = 0; i < kWarps; i++)
        total += partial[i];
    return total;
}

/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000; rows=2 D=129
   x:       in  float[rows*D]
   y:       out float[rows*D]
   launch:  grid=rows block=128
   tol:     1e-4
*/
__global__ void normalize_rows(const float* x, float* y, int rows, int D)
{
    __shared__ float partial[kWarps];
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;
    float s = 0.0f;
    for (int j = threadIdx.x; j < D; j += kBlock)
        s += xr[j];
    float mean = block_sum(s, partial) / D;
    float q = 0.0f;
    for (int j = threadIdx.x; j < D; j += kBlock) {
        float d = xr[j] - mean;
        q += d * d;
    }
    float var = block_sum(q, partial) / D;
    for (int j = threadIdx.x; j < D; j += kBlock)
        yr[j] = (xr[j] - mean) * rsqrtf(var + 1e-5f);
}
"""


def test_partials_every_thread_adds_up_are_the_point_walking_its_loops_whole() -> None:
    program = lifted_equals_kernel(EVERY_THREAD_SUMS)
    assert "shfl" not in str(program) and "threadIdx" not in str(program) and "partial" not in str(program), \
        str(program)


@pytest.mark.parametrize("change, why", [
    (("    __syncthreads();\n    float total", "    float total"), "the partials added up before the barrier"),
    (("i < kWarps; i++", "i < kWarps - 1; i++"), "the last warp's partial left out"),
    (("    float mean = block_sum(s, partial) / D;", "    float mean = block_sum(s, partial) / D + 0.0f * s;"),
     "the thread's own partial read after the sum, where it is no longer the block's"),
    (("        total += partial[i];", "        total += partial[i] * partial[i];"), "a sum of squared partials"),
])
def test_partials_every_thread_adds_up_otherwise_stay_refused(change, why) -> None:
    changed = EVERY_THREAD_SUMS.replace(*change)
    assert changed != EVERY_THREAD_SUMS
    assert isinstance(lift(candidate_of("user.cu", changed)), NotLiftable), why


# A softmax of long rows, each warp's maximum and sum shuffled across its lanes and deposited, every thread then
# gathering the warps' partials itself, seeded with the first (`float mx = red_max[0]; for (w = 1; ...)`).
SEEDED_GATHERS = """constexpr int kWarps = 4;
/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000; rows=2 D=129
   x:       in  float[rows*D]
   y:       out float[rows*D]
   launch:  grid=rows block=128
   tol:     1e-5
*/
__global__ void softmax_rows(const float* x, float* y, int rows, int D)
{
    __shared__ float red_max[kWarps];
    __shared__ float red_sum[kWarps];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const float* xr = x + (long)blockIdx.x * D;
    float* yr = y + (long)blockIdx.x * D;
    float m = -INFINITY;
    for (int i = threadIdx.x; i < D; i += 128) m = fmaxf(m, xr[i]);
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    if (lane == 0) red_max[warp] = m;
    __syncthreads();
    float mx = red_max[0];
    for (int w = 1; w < kWarps; ++w) mx = fmaxf(mx, red_max[w]);
    float s = 0.0f;
    for (int i = threadIdx.x; i < D; i += 128) s += expf(xr[i] - mx);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) red_sum[warp] = s;
    __syncthreads();
    float total = red_sum[0];
    for (int w = 1; w < kWarps; ++w) total += red_sum[w];
    for (int i = threadIdx.x; i < D; i += 128) yr[i] = expf(xr[i] - mx) / total;
}
"""


def test_partials_every_thread_gathers_from_the_first_are_the_point_walking_its_loops_whole() -> None:
    program = lifted_equals_kernel(SEEDED_GATHERS)
    assert "red_" not in str(program) and "threadIdx" not in str(program), str(program)


def test_a_gather_seeded_with_the_first_partial_and_counting_it_again_stays_refused() -> None:
    changed = SEEDED_GATHERS.replace("for (int w = 1; w < kWarps; ++w) total", "for (int w = 0; w < kWarps; ++w) total")
    assert changed != SEEDED_GATHERS
    assert_refused_at_shared_memory(changed, "the first warp's sum added twice")


# FasterTransformer-style templated helpers: `blockReduceSum<float>` and `blockReduceMax<float>` with a static shared
# array inside, the lane taken by a hexadecimal mask, the warp count as a float division, the identity cast to T,
# and `max` shuffles of a partial the loop took with `fmaxf`; every warp reduces the warps' partials again, so every
# thread holds the total.
TEMPLATED_HELPERS = """template <typename T>
__inline__ __device__ T warpReduceSum(T val)
{
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1)
        val += __shfl_xor_sync(0xffffffff, val, mask, 32);
    return val;
}

template <typename T>
__inline__ __device__ T warpReduceMax(T val)
{
    for (int mask = 16; mask > 0; mask >>= 1)
        val = max(val, __shfl_xor_sync(0xffffffff, val, mask, 32));
    return val;
}

template <typename T>
__inline__ __device__ T blockReduceSum(T val)
{
    static __shared__ T shared[32];
    int lane = threadIdx.x & 0x1f;
    int wid = threadIdx.x >> 5;
    val = warpReduceSum<T>(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();
    val = (threadIdx.x < (blockDim.x / 32.f)) ? shared[lane] : (T)(0.0f);
    val = warpReduceSum<T>(val);
    return val;
}

template <typename T>
__inline__ __device__ T blockReduceMax(T val)
{
    static __shared__ T shared[32];
    int lane = threadIdx.x & 0x1f;
    int wid = threadIdx.x >> 5;
    val = warpReduceMax<T>(val);
    if (lane == 0)
        shared[wid] = val;
    __syncthreads();
    val = (lane < (blockDim.x / 32.f)) ? shared[lane] : (T)-INFINITY;
    val = warpReduceMax<T>(val);
    return val;
}

/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000; rows=2 D=129
   x:       in  float[rows*D]
   y:       out float[rows]
   launch:  grid=rows block=128
   tol:     1e-5
*/
__global__ void row_logsumexp(const float* x, float* y, int rows, int D)
{
    const float* xr = x + (long)blockIdx.x * D;
    float m = -INFINITY;
    for (int i = threadIdx.x; i < D; i += blockDim.x)
        m = fmaxf(m, xr[i]);
    m = blockReduceMax<float>(m);
    float s = 0.0f;
    for (int i = threadIdx.x; i < D; i += blockDim.x)
        s += expf(xr[i] - m);
    s = blockReduceSum<float>(s);
    if (threadIdx.x == 0)
        y[blockIdx.x] = m + logf(s);
}
"""


def test_templated_helpers_reducing_a_block_are_the_point_walking_its_loops_whole() -> None:
    program = lifted_equals_kernel(TEMPLATED_HELPERS)
    assert "shfl" not in str(program) and "shared" not in str(program), str(program)


# Two sums a thread, each warp's shuffled and deposited by its lane 0 in one block, added up by thread 0 in one loop;
# and a helper's first warp leaving the block's total in an element past the partials for every thread to read.
TWO_DEPOSITS = """constexpr int kWarps = 4;
/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000; rows=2 D=129
   x:       in  float[rows*D]
   t:       in  float[rows*D]
   y:       out float[rows]
   z:       out float[rows*D]
   launch:  grid=rows block=128
   tol:     1e-5
*/
__global__ void dice_rows(const float* x, const float* t, float* y, float* z, int rows, int D)
{
    __shared__ float s_inter[kWarps];
    __shared__ float s_card[kWarps];
    __shared__ float red[33];
    const long row = blockIdx.x;
    float inter = 0.0f;
    float card = 0.0f;
    for (int i = threadIdx.x; i < D; i += 128) {
        inter += x[row * D + i] * t[row * D + i];
        card += x[row * D + i] + t[row * D + i];
    }
    for (int o = 16; o > 0; o /= 2) inter += __shfl_xor_sync(0xffffffff, inter, o);
    for (int o = 16; o > 0; o /= 2) card += __shfl_xor_sync(0xffffffff, card, o);
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    if (lane == 0) {
        s_inter[warp] = inter;
        s_card[warp] = card;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        float I = 0.0f; float U = 0.0f;
        for (int w = 0; w < kWarps; ++w) {
            I += s_inter[w];
            U += s_card[w];
        }
        y[row] = 1.0f - (2.0f * I + 1e-5f) / (U + 1e-5f);
    }
    float q = 0.0f;
    for (int i = threadIdx.x; i < D; i += 128)
        q += x[row * D + i] * x[row * D + i];
    for (int o = 16; o > 0; o >>= 1) q += __shfl_down_sync(0xffffffff, q, o);
    if (lane == 0)
        red[warp] = q;
    __syncthreads();
    if (warp == 0) {
        q = (lane < kWarps) ? red[lane] : 0.0f;
        for (int o = 16; o > 0; o >>= 1) q += __shfl_down_sync(0xffffffff, q, o);
        if (lane == 0)
            red[32] = q;
    }
    __syncthreads();
    const float norm = sqrtf(red[32]);
    for (int i = threadIdx.x; i < D; i += 128)
        z[row * D + i] = x[row * D + i] / (norm + 1e-6f);
}
"""


@pytest.mark.parametrize("bound", ["w < kWarps", "w <= kWarps - 1"])
def test_partials_deposited_together_and_a_total_left_for_every_thread_are_the_point(bound) -> None:
    program = lifted_equals_kernel(TWO_DEPOSITS.replace("w < kWarps", bound))
    assert "shfl" not in str(program) and "s_inter" not in str(program) and "red[" not in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("    __syncthreads();\n    const float norm", "    const float norm"), "the total read before the barrier"),
    (("            red[32] = q;", "            red[2] = q;"), "the total written over a warp's partial"),
    (("    const float norm = sqrtf(red[32]);", "    const float norm = sqrtf(red[31]);"), "a slot no thread wrote"),
    (("            U += s_card[w];", "            U += s_inter[w];"), "one array added up twice, the other never"),
])
def test_partials_deposited_together_or_a_total_left_otherwise_stay_refused(change, why) -> None:
    changed = TWO_DEPOSITS.replace(*change)
    assert changed != TWO_DEPOSITS
    assert_refused_at_shared_memory(changed, why)


# A row's inputs cached in dynamic shared memory by the threads that read them, and read again from there by the
# same threads in two later passes (a LayerNorm with a modulation, DiT's).
ROW_CACHE = """#define THREADS 128
/* @optiml
   sizes:   rows=1024 D=4096
   check:   rows=1 D=1; rows=3 D=100; rows=2 D=1000; rows=2 D=129
   x:       in  float[rows*D]
   shift:   in  float[D]
   y:       out float[rows*D]
   launch:  grid=rows block=128 smem=4*D
   tol:     1e-5
*/
__global__ void cached_layernorm(const float* x, const float* shift, float* y, int rows, int D)
{
    extern __shared__ float xs[];
    __shared__ float part[THREADS];
    float* yr = y + (long)blockIdx.x * D;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < D; i += THREADS) {
        float v = x[(long)blockIdx.x * D + i] + 0.5f * shift[i];
        xs[i] = v;
        sum += v;
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    const float mean = part[0] / D;
    __syncthreads();
    float sq = 0.0f;
    for (int i = threadIdx.x; i < D; i += THREADS) {
        float d = xs[i] - mean;
        sq += d * d;
    }
    part[threadIdx.x] = sq;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    const float rstd = rsqrtf(part[0] / D + 1e-5f);
    for (int i = threadIdx.x; i < D; i += THREADS)
        yr[i] = (xs[i] - mean) * rstd;
}
"""


def test_a_row_cached_in_shared_memory_by_its_readers_is_read_from_its_inputs() -> None:
    program = lifted_equals_kernel(ROW_CACHE)
    assert "xs" not in str(program) and "shift[i]" in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    (("        yr[i] = (xs[i] - mean) * rstd;", "        yr[i] = (xs[(i + 1) % D] - mean) * rstd;"),
     "an element another thread cached"),
    (("        float v = x[(long)blockIdx.x * D + i] + 0.5f * shift[i];",
      "        float v = x[(long)blockIdx.x * D + i] + 0.5f * yr[i];"),
     "a value of memory the kernel writes"),
])
def test_a_shared_row_that_is_no_cache_of_its_readers_inputs_stays_refused(change, why) -> None:
    changed = ROW_CACHE.replace(*change)
    assert changed != ROW_CACHE
    assert_refused_at_shared_memory(changed, why)


# Several sums a thread through one stacked shared array (a row a sum), their count a template parameter: each
# thread's per-channel sums in a register array and one sum of squares, the rows of `sh` reduced by one tree, thread
# 0 forming a group's statistics; the launch's grid divides by the template parameter too.
STACKED_SUMS = """#define NT 64
/* @optiml
   sizes:    N=256 C=16 L=4096
   check:    N=1 C=4 L=1; N=2 C=8 L=100; N=3 C=4 L=65; N=1 C=12 L=1000
   template: CPG=4
   x:        in  float[N*C*L]
   out:      out float[N*C]
   launch:   grid=(C/CPG,N) block=64
   tol:      1e-4
*/
template <int CPG>
__global__ void group_stats(const float* x, float* out, int N, int C, int L)
{
    __shared__ float sh[CPG + 1][NT];
    int g = blockIdx.x;
    int n = blockIdx.y;
    int tid = threadIdx.x;
    float csum[CPG];
    for (int c = 0; c < CPG; c++)
        csum[c] = 0.0f;
    float sq = 0.0f;
    for (int s = tid; s < L; s += NT) {
        for (int c = 0; c < CPG; c++) {
            float h = x[((long)n * C + g * CPG + c) * L + s];
            csum[c] += h;
            sq += h * h;
        }
    }
    for (int c = 0; c < CPG; c++)
        sh[c][tid] = csum[c];
    sh[CPG][tid] = sq;
    __syncthreads();
    for (int stride = NT / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            for (int c = 0; c <= CPG; c++)
                sh[c][tid] += sh[c][tid + stride];
        __syncthreads();
    }
    if (tid == 0) {
        float total = 0.0f;
        for (int c = 0; c < CPG; c++)
            total += sh[c][0];
        float mu = total / (CPG * L);
        float var = sh[CPG][0] / (CPG * L) - mu * mu;
        for (int c = 0; c < CPG; c++)
            out[n * C + g * CPG + c] = (sh[c][0] / L - mu) * rsqrtf(var + 1e-5f);
    }
}
"""


def test_sums_stacked_in_one_shared_array_are_the_point_walking_its_loops_whole() -> None:
    """The loops over the template's count written out, the register array and the stacked array's rows taken
    apart, the grid's `C / CPG` read with the template's value."""
    program = lifted_equals_kernel(STACKED_SUMS)
    assert "threadIdx" not in str(program) and "sh" not in str(program) and "C / 4" in str(program), str(program)


def test_a_stacked_shared_array_read_at_a_row_no_constant_names_stays_refused() -> None:
    changed = STACKED_SUMS.replace("        total += sh[c][0];", "        total += sh[(c + n) % CPG][0];")
    assert changed != STACKED_SUMS
    assert_refused_at_shared_memory(changed, "a row no constant names")


# A warp a row, the row's lanes reducing with shuffles alone: the global index split into the warp and its lane
# (a 1-D launch), or a 2-D block of warps, or a block of one warp.
WARP_ROWS = """#define WARP 32
/* @optiml
   sizes:   rows=4096 cols=1024
   check:   rows=1 cols=1; rows=3 cols=5; rows=9 cols=100; rows=17 cols=33
   x:       in  float[rows*cols] normal(0,3)
   y:       out float[rows*cols]
   launch:  {launch}
   tol:     1e-5
*/
__global__ void softmax_warps(const float* x, float* y, int rows, int cols)
{{
{index}
    if (warp >= rows) return;
    const float* xr = x + (size_t)warp * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += WARP) m = fmaxf(m, xr[c]);
    for (int o = 16; o > 0; o /= 2) m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    float s = 0.f;
    for (int c = lane; c < cols; c += WARP) s += __expf(xr[c] - m);
    for (int o = WARP / 2; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    for (int c = lane; c < cols; c += WARP) y[(size_t)warp * cols + c] = __expf(xr[c] - m) / s;
}}
"""
WARP_INDICES = {
    "global_split": ("grid=cdiv(rows,8) block=256",
                     "    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;\n"
                     "    int lane = threadIdx.x % WARP;"),
    "global_local_split": ("grid=cdiv(rows,4) block=128",
                           "    int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    int warp = gid / 32;\n    int lane = gid % 32;"),
    "global_local_split_one_declaration": ("grid=cdiv(rows,4) block=128",
                                           "    int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                           "    int warp = gid / 32, lane = gid % 32;"),
    # The warp and its lane taken by a shift and a mask (what they are of indices that cannot be negative).
    "global_shift_and_mask": ("grid=cdiv(rows,4) block=128",
                              "    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;\n"
                              "    int lane = threadIdx.x & 31u;"),
    "thread_local_shift_and_mask": ("grid=cdiv(rows,4) block=128",
                                    "    int t = threadIdx.x;\n"
                                    "    int warp = (blockIdx.x * blockDim.x + t) >> 5;\n    int lane = t & 31;"),
    "global_local_shift_and_mask": ("grid=cdiv(rows,8) block=256",
                                    "    int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "    int warp = gid >> 5;\n    int lane = gid & (WARP - 1);"),
    "block_of_warps": ("grid=(1,cdiv(rows,8)) block=(32,8)",
                       "    int warp = blockIdx.y * blockDim.y + threadIdx.y;\n    int lane = threadIdx.x;"),
    "one_warp_a_block": ("grid=rows block=32", "    int warp = blockIdx.x;\n    int lane = threadIdx.x;"),
}


@pytest.mark.parametrize("launch, index", WARP_INDICES.values(), ids=WARP_INDICES.keys())
def test_a_warp_a_row_reducing_with_shuffles_is_the_rows_point(launch, index) -> None:
    program = lifted_equals_kernel(WARP_ROWS.format(launch=launch, index=index))
    assert len(program.space) == 1 and "shfl" not in str(program) and "lane" not in str(program), str(program)


@pytest.mark.parametrize("change, why", [
    ("if (warp >= rows) return;", "if (warp >= rows) return;\n    if (lane == 1) y[(size_t)warp * cols] = 1.0f;"),
    ("m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));", "m = fmaxf(m, __shfl_down_sync(0xffffffff, m, o));"),
    ("for (int o = 16; o > 0; o /= 2)", "for (int o = 8; o > 0; o /= 2)"),
    ("int lane = threadIdx.x % WARP;", "int lane = threadIdx.x % WARP;\n    y[warp % cols] = (float)lane;"),
])
def test_a_warp_a_row_that_is_not_the_rows_reduction_stays_refused(change, why) -> None:
    """A store by lane 1 alone; a maximum only lane 0 holds, read by every lane; half a warp's shuffles; the lane
    read as a value."""
    launch, index = WARP_INDICES["global_split"]
    text = WARP_ROWS.format(launch=launch, index=index)
    assert change in text
    result = lift(candidate_of("user.cu", text.replace(change, why)))
    assert isinstance(result, NotLiftable), f"{why}: {result}"
