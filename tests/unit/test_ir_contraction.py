"""Contraction schedules (ir/emit.py's contraction) on the CPU emulator where their vector staging is taken and where
it is not: each operand is read as aligned vectors along its unit stride only in a step whose piece of the tile is
whole and where two neighbouring rows are aligned (a block-uniform test), element by element elsewhere; every
layout of a matrix product, a batched one and a double one, at sizes that take both paths, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import EmitError, emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.schedule import (
    STATIC_SHARED_BYTES, Schedule, contraction_staging, defaults, shape_of, space)
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

PRODUCT = """/* @optiml
   sizes:  M=64 N=64 K=32
   A:      in  {t}[{batch}M*K]
   B:      in  {t}[{batch}K*N]
   C:      out {t}[{batch}M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16){grid_z}) block=(16,16)
   flops:  2*M*N*K
   tol:    1e-5
*/
__global__ void product({ctype} const* A, {ctype} const* B, {ctype}* C, int M, int N, int K{batch_param})
{{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    {batch_index}
    if (i < M && j < N) {{
        {ctype} acc = 0;
        for (int k = 0; k < K; ++k)
            acc += A[{a}] * B[{b}];
        C[{c}] = acc;
    }}
}}
"""
A_INDEX = {"N": "i * K + k", "T": "k * M + i"}
B_INDEX = {"N": "k * N + j", "T": "j * K + k"}


def product(layout: str, ctype: str = "float", batched: bool = False, a_index: str | None = None):
    t = {"float": "float32", "double": "float64"}[ctype]
    base = {"a": a_index or A_INDEX[layout[0]], "b": B_INDEX[layout[1]], "c": "i * N + j"}
    if batched:
        base = {key: f"b * {size} + {index}" for (key, index), size in
                zip(base.items(), ("M * K", "K * N", "M * N"))}
    text = PRODUCT.format(t=t, ctype=ctype, batch="Z*" if batched else "", grid_z=",Z" if batched else "",
                          batch_param=", int Z" if batched else "",
                          batch_index="int b = blockIdx.z; if (b >= Z) return;" if batched else "", **base)
    if batched:
        text = text.replace("sizes:  M=64 N=64 K=32", "sizes:  M=64 N=64 K=32 Z=2")
    naive = original_candidate(CudaDocument(text, f"product_{layout}.cu"), "product")
    program = lift(naive)
    return naive, program, shape_of(program)


def run(naive, candidate, binding: dict[str, int], layout: str) -> tuple[np.ndarray, np.ndarray]:
    resolved = resolve(naive.contract, binding)
    inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=3)
    got = run_on_cpu(candidate, binding, inputs)["C"]
    m, n, k = binding["M"], binding["N"], binding["K"]
    z = binding.get("Z", 1)
    a, b = inputs["A"].reshape(z, -1), inputs["B"].reshape(z, -1)
    expected = []
    for batch in range(z):
        left = a[batch].reshape(m, k) if layout[0] == "N" else a[batch].reshape(k, m).T
        right = b[batch].reshape(k, n) if layout[1] == "N" else b[batch].reshape(n, k).T
        expected.append((left.astype(np.float64) @ right.astype(np.float64)).ravel())
    return got, np.concatenate(expected)


def equal_at_checks(naive, emitted, outputs: tuple[str, ...], label: str, seed: int = 5, rtol: float = 1e-5,
                    atol: float = 1e-5) -> None:
    """The emitted kernel's outputs equal the naive kernel's on the CPU at every check size of its contract."""
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=seed)
        expected, got = run_on_cpu(naive, binding, inputs), run_on_cpu(emitted, binding, inputs)
        for output in outputs:
            np.testing.assert_allclose(got[output], expected[output], rtol=rtol, atol=atol,
                                       err_msg=f"{output}: {label} {binding}")


# Whole aligned tiles; rows of 30 (not 16-byte aligned: the row-major operand read element by element) and a last
# step of 6; edge tiles along both output axes and a last step of 1.
SIZES = [{"M": 64, "N": 64, "K": 32}, {"M": 64, "N": 64, "K": 30}, {"M": 40, "N": 72, "K": 33}]
SCHEDULES = [Schedule(family="contraction", block=(16, 16), tile=32, items=2, k_tile=8),
             Schedule(family="contraction", block=(16, 16), tile=64, items=4, k_tile=16, blocks_per_sm=2),
             Schedule(family="contraction", block=(8, 16), tile=32, tile_rows=64, items=4, k_tile=8),
             Schedule(family="contraction", block=(16, 8), tile=64, tile_rows=32, items=4, k_tile=16)]


@pytest.mark.parametrize("layout", ["NN", "NT", "TN", "TT"])
@pytest.mark.parametrize("schedule", SCHEDULES, ids=lambda s: "x".join(map(str, s.output_tile())) + f"-k{s.k_tile}")
def test_every_layout_equals_numpy_with_and_without_vector_staging(layout, schedule) -> None:
    naive, program, shape = product(layout)
    emitted = emit(program, shape, schedule, naive)
    text = emitted.unit.text
    assert "optiml_aligned(&A[" in text and "optiml_aligned(&B[" in text, text
    bounds = f"__launch_bounds__({schedule.threads()}{', 2' if schedule.blocks_per_sm == 2 else ''})"
    assert bounds in text
    for binding in SIZES:
        got, expected = run(naive, emitted, binding, layout)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, err_msg=f"{layout} at {binding}")


def test_a_batched_product_and_a_double_one() -> None:
    schedule = SCHEDULES[0]
    for layout, (naive, program, shape) in (("NT", product("NT", batched=True)),
                                            ("TN", product("TN", ctype="double"))):
        emitted = emit(program, shape, schedule, naive)
        for binding in SIZES[::2]:
            if "Z" in naive.contract.sizes:
                binding = {**binding, "Z": 2}
            got, expected = run(naive, emitted, binding, layout)
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert "optiml_lanes<double, 2>" in emitted.unit.text


def test_an_operand_read_with_a_stride_along_both_is_staged_element_by_element() -> None:
    """A[2 * (i * K + k) % (M * K)] has no unit stride: no vector read of it, the other operand's still."""
    naive, program, shape = product("NN", a_index="2 * (i * K + k) % (M * K)")
    emitted = emit(program, shape, SCHEDULES[0], naive)
    assert "optiml_aligned(&A[" not in emitted.unit.text and "optiml_aligned(&B[" in emitted.unit.text
    inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, SIZES[0]).lengths, seed=3)
    got, expected = run_on_cpu(emitted, SIZES[0], inputs)["C"], run_on_cpu(naive, SIZES[0], inputs)["C"]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("bounds, inside", [
    ("int k = j; k <= i; k++", lambda i, j, k: (j <= k) & (k <= i)),        # a product of lower triangles
    ("int k = i; k < K; ++k", lambda i, j, k: k >= i),                      # an upper-triangular left operand
])
@pytest.mark.parametrize("schedule", SCHEDULES[:3], ids=lambda s: "x".join(map(str, s.output_tile())))
def test_a_loop_bounded_by_the_point_is_a_ranged_contraction_equal_to_numpy(bounds, inside, schedule) -> None:
    """Bounds affine in the point's indices: each tile walks the steps some point of it takes (none above the
    diagonal), the steps at the ends of its range adding only for the outputs whose range holds them; square sizes
    with edge tiles and the steps' ends inside a tile."""
    text = PRODUCT.format(t="float32", ctype="float", batch="", grid_z="", batch_param="", batch_index="",
                          a="i * K + k", b="k * N + j", c="i * N + j").replace("int k = 0; k < K; ++k", bounds)
    naive = original_candidate(CudaDocument(text, "ranged.cu"), "product")
    program = lift(naive)
    shape = shape_of(program)
    assert shape.contraction is not None and shape.contraction.ranged
    emitted = emit(program, shape, schedule, naive)
    for size in (64, 45, 1):
        binding = {"M": size, "N": size, "K": size}
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=3)
        got = run_on_cpu(emitted, binding, inputs)["C"]
        i, j, k = np.meshgrid(*(np.arange(size),) * 3, indexing="ij")
        a, b = inputs["A"].reshape(size, size).astype(np.float64), inputs["B"].reshape(size, size).astype(np.float64)
        expected = np.where(inside(i, j, k), a[i, k] * b[k, j], 0.0).sum(axis=2).ravel()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5, err_msg=f"at {binding}")
    with pytest.raises(EmitError):
        emit(program, shape, schedule.model_copy(update={"splits": 4}), naive)


@pytest.mark.parametrize("points, first", [(256 * 256, [(128, 64), (64, 16)]), (512 * 512, [(128, 16), (64, 4)])])
def test_few_output_tiles_are_split_to_fill_the_gpu(points, first) -> None:
    """A product with few output tiles (a 256 x 256 output over K = 131072) starts from splits of its loop that give
    each tile size blocks enough for every SM: 128 x 128 tiles first, then 64 x 64."""
    from optiml_engine.ir.schedule import defaults
    _, _, shape = product("NN")
    chosen = defaults(shape, "contraction", points)
    assert [(s.tile, s.splits) for s in chosen[:2]] == first


HEADS = """/* @optiml
   sizes:  B=2 H=4 S=64 D=32
   check:  B=1 H=1 S=1 D=1; B=2 H=3 S=7 D=5; B=1 H=2 S=33 D=40
   P:      in  float[B*H*S*S]
   V:      in  float[B*S*H*D]
   out:    out float[B*S*H*D]
   launch: grid=(cdiv(D,32),cdiv(S,8),B*H) block=(32,8)
   tol:    1e-4
*/
__global__ void heads_pv(const float* P, const float* V, float* out, int B, int H, int S, int D)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int s = blockIdx.y * blockDim.y + threadIdx.y;
    int bh = blockIdx.z;
    int b = bh / H;
    int h = bh % H;
    if (d < D && s < S) {
        float acc = 0.0f;
        for (int t = 0; t < S; t++)
            acc += P[((size_t)bh * S + s) * S + t] * V[(((size_t)b * S + t) * H + h) * D + d];
        out[(((size_t)b * S + s) * H + h) * D + d] = acc;
    }
}
"""


def test_a_batch_of_heads_taken_apart_into_locals_is_a_contraction_equal_to_the_kernel() -> None:
    """Attention's probabilities times V with V and the output laid out [B, S, H, D] and the grid's z a (batch,
    head) pair taken apart by `/` and `%` into locals: the locals are part of each operand's offset for the batch,
    so the product is a contraction, and its schedules equal the kernel at every check size."""
    naive = original_candidate(CudaDocument(HEADS, "heads_pv.cu"), "heads_pv")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families
    for schedule in SCHEDULES[:2]:
        emitted = emit(program, shape, schedule, naive)
        equal_at_checks(naive, emitted, ("out",), schedule.describe(), seed=4, rtol=1e-4)


EPILOGUE = """/* @optiml
   sizes:  M=64 N=64 K=32
   check:  M=64 N=64 K=32; M=40 N=37 K=9; M=3 N=5 K=1
   A:      in  float[M*K]
   B:      in  float[K*N]
   bias:   in  float[N]
   C:      out float[M*N]
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   tol:    1e-5
*/
__global__ void linear_relu(const float* A, const float* B, const float* bias, float* C, int M, int N, int K)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M && j < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[i * K + k] * B[k * N + j];
        float v = acc + bias[j];
        {store}
    }
}
"""


@pytest.mark.parametrize("store, vector", [("C[i * N + j] = fmaxf(v, 0.0f);", True),
                                           ("if (v > 0.0f) C[i * N + j] = v; else C[i * N + j] = 0.0f;", False)])
def test_outputs_neighbouring_along_the_row_are_stored_as_one_vector_after_their_own_code(store, vector) -> None:
    """The code after the loop (a bias, a ReLU) runs for each output; a group of neighbours along the row is stored
    as one vector where it is inside and aligned (rows of 37 are not: each its own store), and where the code ends in
    a branch each output stores on its own."""
    naive = original_candidate(CudaDocument(EPILOGUE.replace("{store}", store), "linear_relu.cu"), "linear_relu")
    program = lift(naive)
    shape = shape_of(program)
    emitted = emit(program, shape, SCHEDULES[1], naive)
    assert ("*reinterpret_cast<optiml_lanes<float, 4>*>(&C[" in emitted.unit.text) == vector, emitted.unit.text
    equal_at_checks(naive, emitted, ("C",), "at", seed=3, atol=1e-6)


@pytest.mark.parametrize("after", ["acc += bias[j];", "acc = acc * 0.5f + bias[j];"])
@pytest.mark.parametrize("schedule", [*SCHEDULES[:2], Schedule(family="contraction", block=(16, 16), tile=32,
                                                                items=2, k_tile=8, splits=2)],
                         ids=["32x32", "64x64", "32x32-split2"])
def test_code_after_the_loop_that_goes_on_with_the_sum_is_each_outputs_own_code(after, schedule) -> None:
    """`acc += bias[j];` after the loop (a Linear's bias as users add it): the code after the loop is each output's
    own, run once its sum is complete (also where blocks split the loop), so the product is a contraction still,
    equal to the kernel at every check size."""
    text = EPILOGUE.replace("        float v = acc + bias[j];", f"        {after}\n        float v = acc;").replace(
        "{store}", "C[i * N + j] = fmaxf(v, 0.0f);")
    naive = original_candidate(CudaDocument(text, "linear_relu.cu"), "linear_relu")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families, str(program)
    emitted = emit(program, shape, schedule, naive)
    equal_at_checks(naive, emitted, ("C",), schedule.describe(), atol=1e-6)


# Two products a step, each side read twice: PolyBench's syr2k (`A B^T + B A^T`) and a complex product's real part.
TWO_OPERANDS = """/* @optiml
   sizes:  N=64 K=32
   check:  N=64 K=32; N=37 K=9; N=3 K=1
   A:      in  float[N*K]
   B:      in  float[N*K]
   C:      out float[N*N]
   launch: grid=(cdiv(N,16),cdiv(N,16)) block=(16,16)
   tol:    1e-5
*/
__global__ void syr2k(const float* A, const float* B, float* C, int N, int K)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && j < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += TERM;
        C[i * N + j] = acc;
    }
}
"""


@pytest.mark.parametrize("term", ["A[i * K + k] * B[j * K + k] + B[i * K + k] * A[j * K + k]",
                                  "A[i * K + k] * A[j * K + k] - B[i * K + k] * B[j * K + k]"])
def test_a_term_reading_each_side_twice_stages_four_operands(term) -> None:
    """Each side's two reads staged as operands of their own (two tiles each): every default schedule equals the
    kernel at every check size; a schedule whose four operands' tiles exceed shared memory is not in the space."""
    naive = original_candidate(CudaDocument(TWO_OPERANDS.replace("TERM", term), "syr2k.cu"), "syr2k")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families and len(shape.contraction.lefts) == len(shape.contraction.rights) == 2
    assert all(contraction_staging(shape, s)[2] <= STATIC_SHARED_BYTES for s in space(shape, "contraction"))
    schedules = defaults(shape, "contraction")
    assert schedules
    for schedule in schedules:
        emitted = emit(program, shape, schedule, naive)
        assert emitted.unit.text.count("__shared__") == 4, emitted.unit.text
        equal_at_checks(naive, emitted, ("C",), schedule.describe())


# A product whose outputs each add into their row's element (KernelBench's Gemm + Sum as one kernel), accumulated
# with fmaf as users write it.
ROW_SUM = """/* @optiml
   sizes:  M=64 N=64 K=32
   check:  M=64 N=64 K=32; M=40 N=150 K=9; M=3 N=5 K=1
   A:      in  float[M*K]
   W:      in  float[N*K]
   y:      inout float[TARGET] const(0)
   launch: grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)
   tol:    1e-5
*/
__global__ void linear_sum(const float* A, const float* W, float* y, int M, int N, int K)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= M || j >= N) return;
    float dot = 0.0f;
    for (int k = 0; k < K; ++k)
        dot = fmaf(A[i * K + k], W[j * K + k], dot);
    atomicAdd(&y[INDEX], dot * 0.5f);
}
"""


@pytest.mark.parametrize("index, target, per_row", [("i", "M", True), ("j", "N", False)])
@pytest.mark.parametrize("schedule", [*SCHEDULES[:3], Schedule(family="contraction", block=(64, 4), tile=128,
                                                                tile_rows=8, items=2, k_tile=8),
                                      Schedule(family="contraction", block=(16, 16), tile=32, items=2, k_tile=8,
                                               splits=2)],
                         ids=["32x32", "64x64", "64x32", "8x128", "32x32-split2"])
def test_outputs_adding_into_their_rows_element_are_summed_across_the_row_before_one_atomic(
        index, target, per_row, schedule) -> None:
    """`dot = fmaf(a, w, dot)` is the product's sum; where every output of a row adds into the row's element, the
    tile's outputs of the row are summed in registers and across the row's lanes (a warp's neighbouring lanes, or
    all of a warp where the row has more threads) before one atomicAdd; where each column adds into its own, each
    output adds alone. Equal to the kernel at every check size."""
    text = ROW_SUM.replace("INDEX", index).replace("TARGET", target)
    naive = original_candidate(CudaDocument(text, "linear_sum.cu"), "linear_sum")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families, str(program)
    emitted = emit(program, shape, schedule, naive)
    assert ("__shfl_xor_sync" in emitted.unit.text) == per_row, emitted.unit.text
    equal_at_checks(naive, emitted, ("y",), schedule.describe())


# A Linear reduced over its features by the thread of its row (KernelBench's Gemm + Max, + Mean as one kernel).
ROWS_REDUCED = """/* @optiml
   sizes:  M=64 N=64 K=32
   check:  M=64 N=64 K=32; M=40 N=150 K=9; M=3 N=5 K=1; M=130 N=33 K=17
   x:      in  float[M*K]
   w:      in  float[N*K]
   bias:   in  float[N]
   y:      out float[M]
   z:      out float[M*K]
   launch: grid=cdiv(M,128) block=128
   tol:    1e-5
*/
__global__ void linear_reduced(const float* x, const float* w, const float* bias, float* y, float* z, int M, int N,
                               int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    float best = INIT;
    for (int j = 0; j < COLUMNS; ++j) {
        float acc = bias[j];
        for (int k = 0; k < K; ++k)
            acc += x[row * K + k] * w[j * K + k];
        UPDATE;
    }
    y[row] = AFTER;
    TAIL
}
"""
# The row's code after the walk: a residual (a loop whose iterations write their own elements, which the row's lanes
# share) or a running sum (a value carried across the loop: the row's first lane runs it).
RESIDUAL = "for (int k = 0; k < K; ++k) z[row * K + k] = x[row * K + k] + best;"
RUNNING = "float t = 0.0f; for (int k = 0; k < K; ++k) { t += x[row * K + k]; z[row * K + k] = t * best; }"
REDUCED = {"max": ("-1e30f", "best = fmaxf(best, tanhf(acc))", "best * 2.0f", RESIDUAL),
           "mean": ("0.5f", "best += acc * acc", "best / N", RESIDUAL),
           "min": ("1e30f", "best = acc < best ? acc : best", "best", RUNNING),
           "max by a branch": ("-1e30f", "if (acc - 1.0f > best) best = acc - 1.0f", "best", RUNNING)}


def rows_reduced(op: str, columns: str = "N"):
    init, update, after, tail = REDUCED[op]
    text = ROWS_REDUCED.replace("INIT", init).replace("UPDATE", update).replace("AFTER", after).replace(
        "COLUMNS", columns).replace("TAIL", tail)
    naive = original_candidate(CudaDocument(text, "linear_reduced.cu"), "linear_reduced")
    program = lift(naive)
    return naive, program, shape_of(program)


@pytest.mark.parametrize("op", sorted(REDUCED))
@pytest.mark.parametrize("schedule", [*SCHEDULES[:3], *(Schedule(family="contraction", block=(tile // per, tile // per),
                                                                 tile=tile, items=per, k_tile=k_tile, splits=splits)
                                                        for tile, per, k_tile, splits in ((64, 4, 16, 4),
                                                                                          (128, 8, 8, 16)))],
                         ids=["32x32", "64x64", "64x32", "64x64-split4", "128x128-split16"])
def test_a_rows_loop_over_its_products_columns_is_a_contraction_walking_them(op, schedule) -> None:
    """A thread per row walking the product's columns, each column's dot product inside, reduced by a maximum (a
    call or a branch), a sum or a minimum: a contraction whose blocks walk their rows' column tiles, each row's
    values combined in registers, across its lanes and (split) across the blocks sharing its columns, then the row's
    own code (a loop of its own too, whose iterations the row's lanes share where each writes its own elements).
    Equal to the kernel at every check size, twice in a row (the split's arrival counts reset)."""
    naive, program, shape = rows_reduced(op)
    assert "contraction" in shape.families and shape.contraction.columns is not None, str(program)
    assert schedule.splits == 1 or schedule in space(shape, "contraction")
    emitted = emit(program, shape, schedule, naive)
    assert "walking its rows' columns" in emitted.unit.text
    assert (f"k += {schedule.block[0]}" in emitted.unit.text) == (REDUCED[op][3] == RESIDUAL), emitted.unit.text
    for _ in range(2):
        equal_at_checks(naive, emitted, ("y", "z"), schedule.describe(True))


def test_a_rows_loop_whose_columns_depend_on_the_row_is_not_walked() -> None:
    """Columns up to the row (a triangle): every row does not walk the same column tiles, so no contraction."""
    _, program, shape = rows_reduced("max", columns="row + 1")
    assert "contraction" not in shape.families, str(program)


def test_a_rows_loop_carrying_a_second_value_is_not_walked() -> None:
    """A second value carried from column to column (a count beside the maximum, as an online logsumexp carries
    its scale): the columns' code is not each column's own, so no contraction."""
    init, update, after, tail = REDUCED["max"]
    text = ROWS_REDUCED.replace("        UPDATE;", "        seen += acc > 0.0f ? 1.0f : 0.0f;\n        UPDATE;")
    text = text.replace("INIT", init).replace("UPDATE", update).replace("AFTER", "best + seen").replace(
        "COLUMNS", "N").replace("TAIL", tail).replace("    float best = ", "    float seen = 0.0f;\n    float best = ")
    program = lift(original_candidate(CudaDocument(text, "linear_reduced.cu"), "linear_reduced"))
    assert "seen +=" in str(program) and "contraction" not in shape_of(program).families, str(program)


# A convolution pooled over its positions by the thread of its (sample, channel) (KernelBench's Conv + Max or Mean
# over time as one kernel): the column walk of its implicit GEMM, a batch of samples.
CONV_POOLED = """/* @optiml
   sizes:  N=4 Cin=8 Cout=32 L=64
   check:  N=2 Cin=3 Cout=5 L=7; N=1 Cin=1 Cout=1 L=1; N=3 Cin=4 Cout=33 L=40
   x:      in  float[N*Cin*L]
   w:      in  float[Cout*Cin*3]
   bias:   in  float[Cout]
   y:      out float[N*Cout]
   launch: grid=(cdiv(Cout,64),N) block=64
   tol:    1e-5
*/
__global__ void conv_pooled(const float* x, const float* w, const float* bias, float* y, int N, int Cin, int Cout,
                            int L)
{
    int co = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y;
    if (co >= Cout) return;
    float best = INIT;
    for (int l = 0; l < L; ++l) {
        float acc = bias[co];
        for (int ci = 0; ci < Cin; ++ci)
            for (int t = 0; t < 3; ++t) {
                int p = l - 1 + t;
                if (p >= 0 && p < L) acc += x[(n * Cin + ci) * L + p] * w[(co * Cin + ci) * 3 + t];
            }
        UPDATE;
    }
    y[n * Cout + co] = AFTER;
}
"""


@pytest.mark.parametrize("op", ["max", "mean"])
@pytest.mark.parametrize("schedule", SCHEDULES[:3], ids=["32x32", "64x64", "64x32"])
def test_a_convolution_pooled_over_its_positions_is_a_batched_column_walk(op, schedule) -> None:
    """The convolution's taps and channels one loop of its implicit GEMM (the sample held fixed, then a batch), its
    positions the columns the blocks walk: equal to the kernel at every check size."""
    init, update, after, _ = REDUCED[op]
    text = CONV_POOLED.replace("INIT", init).replace("UPDATE", update).replace("AFTER", after.replace("N", "L"))
    naive = original_candidate(CudaDocument(text, "conv_pooled.cu"), "conv_pooled")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families and len(shape.contraction.columns.program.space) == 3, str(program)
    emitted = emit(program, shape, schedule, naive)
    equal_at_checks(naive, emitted, ("y",), schedule.describe(True))


# A row's outputs normalized once its walk is done (CLIP's projection then an L2 normalization): the row's code reads
# back what its threads stored.
ROWS_NORMALIZED = """/* @optiml
   sizes:  M=64 N=64 K=32
   check:  M=64 N=64 K=32; M=40 N=150 K=9; M=3 N=5 K=1
   x:      in  float[M*K]
   w:      in  float[N*K]
   out:    out float[M*N]
   launch: grid=cdiv(M,128) block=128
   tol:    1e-5
*/
__global__ void linear_normalized(const float* x, const float* w, float* out, int M, int N, int K)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    float ss = 0.0f;
    for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += x[row * K + k] * w[j * K + k];
        out[row * N + j] = acc;
        ss += acc * acc;
    }
    float inv = 1.0f / sqrtf(ss + 1e-6f);
    for (int j = 0; j < N; ++j)
        out[row * N + j] *= inv;
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES[:3], ids=["32x32", "64x64", "64x32"])
def test_a_row_normalized_after_its_walk_reads_its_warps_outputs_unsplit(schedule) -> None:
    """The row's code reads the outputs the walk stored, each by one of the row's threads (one warp): the warp
    synchronized first, and no schedule splits the row's columns across blocks. Equal to the kernel at every check
    size."""
    naive = original_candidate(CudaDocument(ROWS_NORMALIZED, "linear_normalized.cu"), "linear_normalized")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families and shape.contraction.columns.rereads, str(program)
    assert all(s.splits == 1 for s in space(shape, "contraction"))
    with pytest.raises(EmitError):
        emit(program, shape, schedule.model_copy(update={"splits": 4}), naive)
    emitted = emit(program, shape, schedule, naive)
    assert "__syncwarp();" in emitted.unit.text
    equal_at_checks(naive, emitted, ("out",), schedule.describe(True))


# A Linear then a softmax over its features by the thread of its row (KernelBench's Gemm + Softmax as one kernel): the
# walk finds the row's maximum and stores the products; the row's code then sums their exponentials, storing each,
# and scales them, every pass reading what the one before stored.
ROWS_SOFTMAX = """/* @optiml
   sizes:  M=64 N=64 K=32
   check:  M=64 N=64 K=32; M=40 N=150 K=9; M=3 N=5 K=1; M=33 N=37 K=4
   x:      in  float[M*K]
   w:      in  float[N*K]
   y:      out float[M*N]
   launch: grid=cdiv(M,128) block=128
   tol:    1e-5
*/
__global__ void linear_softmax(const float* x, const float* w, float* y, int M, int N, int K)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= M) return;
    float mx = -1e30f;
    for (int j = 0; j < N; ++j) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += x[r * K + k] * w[j * K + k];
        y[r * N + j] = acc;
        if (acc > mx) mx = acc;
    }
    float sum = 0.0f;
    for (int j = 0; j < N; ++j) {
        float e = expf(y[r * N + j] - mx);
        y[r * N + j] = e;
        sum += e;
    }
    for (int j = 0; j < N; ++j)
        y[r * N + j] = y[r * N + j] / sum;
}
"""


@pytest.mark.parametrize("schedule", SCHEDULES[:3], ids=["32x32", "64x64", "64x32"])
def test_a_softmax_after_its_walk_shares_its_passes_across_the_rows_lanes(schedule) -> None:
    """The passes after the walk, a sum and a scaling, each strided across the row's lanes: each lane's share of the
    sum combined across the row's lanes alone (the warp's other rows may be done), the lanes synchronized after
    each pass that stores. Equal to the kernel at every check size."""
    naive = original_candidate(CudaDocument(ROWS_SOFTMAX, "linear_softmax.cu"), "linear_softmax")
    program = lift(naive)
    shape = shape_of(program)
    assert "contraction" in shape.families and shape.contraction.columns.rereads, str(program)
    emitted = emit(program, shape, schedule, naive)
    lanes = schedule.block[0]
    assert f"j += {lanes}" in emitted.unit.text and "if (threadIdx.x != 0) sum = 0.0f;" in emitted.unit.text and \
        emitted.unit.text.count("__syncwarp(") == 3, emitted.unit.text
    equal_at_checks(naive, emitted, ("y",), schedule.describe(True))
