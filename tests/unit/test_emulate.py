"""The CPU emulator (optiml_engine/gpu/emulate.py): kernels compiled by g++ behind the CUDA shim and run on the
host, compared with NumPy. Real compiles, no GPU: the examples at their contract's check sizes, then hand-written
kernels for each thing the shim provides (block barriers, warp shuffles, early exits, dynamic shared memory,
templates, __half and __nv_bfloat16, float4 loads), then the errors the emulator gives."""

from __future__ import annotations

import math
import shutil
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import as_float64, bf16_from_float32, make_inputs
from optiml_engine.gpu.emulate import EmulationError, emulator_source, run_on_cpu
from optiml_engine.model import Candidate
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory):
    """Compiled libraries in a fresh cache: every kernel here is compiled by g++ in this run."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("OPTIML_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield


def example(name: str) -> Candidate:
    path = f"examples/{name}.cu"
    return original_candidate(CudaDocument((ROOT / path).read_text(), path), name)


def kernel(text: str, name: str) -> Candidate:
    return original_candidate(CudaDocument(textwrap.dedent(text).lstrip("\n"), "user/kernels.cu"), name)


def run(candidate: Candidate, binding: dict[str, int], seed: int = 3, **options) -> tuple[dict, dict]:
    """(inputs, outputs) of one emulated launch on inputs drawn as the verifier draws them."""
    inputs = make_inputs(np, candidate.contract.arrays, resolve(candidate.contract, binding).lengths, seed)
    return inputs, run_on_cpu(candidate, binding, inputs, **options)


def assert_close(candidate: Candidate, name: str, got: np.ndarray, expected: np.ndarray) -> None:
    """The verifier's own comparison, at the contract's tolerance."""
    spec = next(a for a in candidate.contract.arrays if a.param == name)
    result = compare(np, name, got, np.asarray(expected).astype(got.dtype), spec.dtype, candidate.contract.tol,
                     candidate.contract.atol)
    assert result.ok, result.reason


# ---------------------------------------------------------------------------------------------------------------
# The examples, at every check size of their contracts


def expected_vector_add(x, b):
    return {"c": x["a"] + x["b"]}


def expected_layernorm(x, b):
    rows = x["x"].astype(np.float64).reshape(b["rows"], b["cols"])
    mean = rows.mean(axis=1, keepdims=True)
    var = ((rows - mean) ** 2).mean(axis=1, keepdims=True)
    return {"y": ((rows - mean) / np.sqrt(var + 1e-5)).reshape(-1)}


def expected_add_transposed(x, b):
    a = x["A"].reshape(b["rows"], b["cols"])
    return {"out": (a + x["B"].reshape(b["cols"], b["rows"]).T).reshape(-1)}


def expected_histogram(x, b):
    return {"bins": x["bins"] + np.bincount(x["keys"], minlength=64).astype(np.uint32)}


def expected_dot(x, b):
    return {"result": x["result"] + np.dot(x["a"].astype(np.float64), x["b"].astype(np.float64))}


def expected_row_max(x, b):
    return {"out": x["x"].reshape(b["rows"], b["cols"]).max(axis=1)}


EXAMPLES = {
    "vector_add": expected_vector_add, "layernorm_rows": expected_layernorm, "add_transposed": expected_add_transposed,
    "histogram64": expected_histogram, "dot_atomic": expected_dot, "row_max": expected_row_max,
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_example_matches_numpy_at_every_check_size(name):
    candidate = example(name)
    assert candidate.contract.checks
    for binding in candidate.contract.checks:
        full = {**candidate.contract.sizes, **binding}
        inputs, outputs = run(candidate, binding)
        expected = EXAMPLES[name](inputs, full)
        assert set(outputs) == set(expected)
        for array, values in expected.items():
            assert_close(candidate, array, outputs[array], values)


def test_outputs_are_poisoned_first_and_inputs_left_alone():
    candidate = kernel("""
        /* @optiml
           sizes:  n=100
           x:      in  float[n]
           y:      out float[n]
           launch: grid=1 block=64
        */
        __global__ void first_64(const float* x, float* y, int n)
        {
            y[threadIdx.x] = x[threadIdx.x] + 1.0f;
            ((float*)x)[threadIdx.x] = 0.0f;          // writes its input: the caller's array is a copy
        }
        """, "first_64")
    inputs, outputs = run(candidate, {"n": 100})
    before = inputs["x"].copy()
    outputs = run_on_cpu(candidate, {"n": 100}, inputs)
    np.testing.assert_array_equal(inputs["x"], before)
    np.testing.assert_array_equal(outputs["y"][:64], before[:64] + 1)
    assert np.isnan(outputs["y"][64:]).all()                 # data.poisoned(np, "float32", n, 0) is NaN


def test_a_simple_kernel_runs_as_os_threads_too():
    candidate = example("vector_add")
    inputs, outputs = run(candidate, {"n": 40 * 256 - 3}, threads=True)
    np.testing.assert_array_equal(outputs["c"], inputs["a"] + inputs["b"])


# ---------------------------------------------------------------------------------------------------------------
# Threads that meet: __shared__, __syncthreads, warp shuffles, early exits

ROW_SUM = """
    /* @optiml
       sizes:  rows=40 cols=1000
       check:  rows=5 cols=1000; rows=3 cols=7; rows=2 cols=256
       x:      in  float[rows*cols]
       out:    out float[rows]
       launch: grid=rows block=256
       tol:    1e-5
    */
    __global__ void row_sum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
    {
        __shared__ float partial[8];
        const int row = blockIdx.x;
        const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
        float sum = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) {   // threads past `cols` skip the loads only
            sum += __ldg(&x[row * cols + c]);
        }
        #pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_down_sync(0xffffffffu, sum, offset);
        }
        if (lane == 0) {
            partial[warp] = sum;
        }
        __syncthreads();
        if (warp != 0) {
            return;                                             // seven warps leave after the last block barrier
        }
        sum = lane < blockDim.x / warpSize ? partial[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) {
            sum += __shfl_xor_sync(0xffffffffu, sum, offset);   // every lane ends with the total
        }
        if (lane == 0) {
            out[row] = sum;
        }
    }
"""


def test_block_reduction_with_shuffles_and_early_exit_matches_row_sums():
    candidate = kernel(ROW_SUM, "row_sum")
    for binding in candidate.contract.checks:
        full = {**candidate.contract.sizes, **binding}
        inputs, outputs = run(candidate, binding)
        expected = inputs["x"].astype(np.float64).reshape(full["rows"], full["cols"]).sum(axis=1)
        assert_close(candidate, "out", outputs["out"], expected)


def test_forty_blocks_of_256_threads_that_synchronize_take_well_under_a_second():
    candidate = kernel(ROW_SUM, "row_sum")
    run(candidate, {"rows": 2})                                 # compiled and loaded
    started = time.perf_counter()
    inputs, outputs = run(candidate, {"rows": 40})
    elapsed = time.perf_counter() - started
    expected = inputs["x"].astype(np.float64).reshape(40, 1000).sum(axis=1)
    assert_close(candidate, "out", outputs["out"], expected)
    assert elapsed < 1.5, f"{elapsed:.2f} s"                    # ~0.15 s on two cores; generous for loaded CI


def test_threads_that_exit_before_a_barrier_do_not_hold_up_the_others():
    candidate = kernel("""
        /* @optiml
           sizes:  n=1000
           check:  n=1000; n=70
           x:      in  float[n]
           y:      out float[n]
           launch: grid=cdiv(n,96) block=96
        */
        __global__ void neighbour_sum(const float* x, float* y, int n)
        {
            __shared__ float tile[96];
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) {
                return;                         // the tail of the last block leaves before both barriers
            }
            tile[threadIdx.x] = x[i];
            __syncthreads();
            const int last = min(n - 1 - (int)(blockIdx.x * blockDim.x), (int)blockDim.x - 1);
            const float right = threadIdx.x < last ? tile[threadIdx.x + 1] : 0.0f;
            __syncthreads();
            tile[threadIdx.x] += right;
            __syncthreads();
            y[i] = tile[threadIdx.x];
        }
        """, "neighbour_sum")
    for binding in candidate.contract.checks:
        inputs, outputs = run(candidate, binding)
        x = inputs["x"]
        expected = x.copy()
        for start in range(0, x.size, 96):
            block = x[start:start + 96]
            expected[start:start + block.size - 1] += block[1:]
        np.testing.assert_allclose(outputs["y"], expected, rtol=1e-6)


def test_two_dimensional_blocks_tiled_transpose():
    candidate = kernel("""
        /* @optiml
           sizes:  rows=100 cols=70
           check:  rows=100 cols=70; rows=33 cols=65; rows=1 cols=1
           a:      in  float[rows*cols]
           t:      out float[cols*rows]
           launch: grid=(cdiv(cols,32),cdiv(rows,32)) block=(32,8)
        */
        __global__ void transpose_tiled(const float* a, float* t, int rows, int cols)
        {
            __shared__ float tile[32][33];
            int x = blockIdx.x * 32 + threadIdx.x;
            int y = blockIdx.y * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8) {
                if (x < cols && y + j < rows) {
                    tile[threadIdx.y + j][threadIdx.x] = a[(y + j) * cols + x];
                }
            }
            __syncthreads();
            x = blockIdx.y * 32 + threadIdx.x;
            y = blockIdx.x * 32 + threadIdx.y;
            for (int j = 0; j < 32; j += 8) {
                if (x < rows && y + j < cols) {
                    t[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
                }
            }
        }
        """, "transpose_tiled")
    for binding in candidate.contract.checks:
        full = {**candidate.contract.sizes, **binding}
        inputs, outputs = run(candidate, binding)
        np.testing.assert_array_equal(outputs["t"], inputs["a"].reshape(full["rows"], full["cols"]).T.reshape(-1))


def test_ballot_any_all_and_syncthreads_count():
    candidate = kernel("""
        /* @optiml
           sizes:  n=200
           x:      in  int[n] range(0,4)
           votes:  out unsigned int[n]
           launch: grid=cdiv(n,64) block=64
        */
        __global__ void votes_of(const int* x, unsigned int* votes, int n)
        {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            const bool zero = i < n && x[i] == 0;
            const unsigned ballot = __ballot_sync(0xffffffffu, zero);
            const int any = __any_sync(0xffffffffu, zero), all = __all_sync(0xffffffffu, i < n);
            const int count = __syncthreads_count(zero);
            if (i < n) {
                votes[i] = (unsigned)__popc(ballot) | (unsigned)any << 8 | (unsigned)all << 9 | (unsigned)count << 10;
            }
        }
        """, "votes_of")
    inputs, outputs = run(candidate, {"n": 200})
    zero = np.zeros(256, dtype=bool)
    zero[:200] = inputs["x"] == 0
    valid = np.arange(256) < 200
    expected = []
    for i in range(200):
        warp = slice(i // 32 * 32, i // 32 * 32 + 32)
        block = slice(i // 64 * 64, i // 64 * 64 + 64)
        expected.append(zero[warp].sum() | int(zero[warp].any()) << 8 | int(valid[warp].all()) << 9 |
                        int(zero[block].sum()) << 10)
    np.testing.assert_array_equal(outputs["votes"], np.array(expected, dtype=np.uint32))


def test_warp_scan_broadcast_and_sub_warp_widths():
    candidate = kernel("""
        /* @optiml
           sizes:  n=100
           x:      in  int[n] range(0,10)
           scan:   out int[n]
           first:  out int[n]
           half:   out int[n]
           launch: grid=cdiv(n,64) block=64
        */
        __global__ void warp_ops(const int* x, int* scan, int* first, int* half, int n)
        {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            const int lane = threadIdx.x % 32;
            const int v = i < n ? x[i] : 0;
            int total = v;
            for (int d = 1; d < 32; d *= 2) {
                const int up = __shfl_up_sync(0xffffffffu, total, d);
                if (lane >= d) {
                    total += up;
                }
            }
            const int lane0 = __shfl_sync(0xffffffffu, v, 0);
            int sixteen = v;
            for (int m = 8; m > 0; m /= 2) {
                sixteen += __shfl_xor_sync(0xffffffffu, sixteen, m, 16);   // sums over each half warp
            }
            if (i < n) {
                scan[i] = total;
                first[i] = lane0;
                half[i] = sixteen;
            }
        }
        """, "warp_ops")
    inputs, outputs = run(candidate, {"n": 100})
    x = np.zeros(128, dtype=np.int32)
    x[:100] = inputs["x"]
    warps = x.reshape(-1, 32)
    np.testing.assert_array_equal(outputs["scan"], np.cumsum(warps, axis=1).reshape(-1)[:100])
    np.testing.assert_array_equal(outputs["first"], np.repeat(warps[:, 0], 32)[:100])
    np.testing.assert_array_equal(outputs["half"], np.repeat(x.reshape(-1, 16).sum(axis=1), 16)[:100])


ATOMICS = """
    /* @optiml
       sizes:    n=1000
       check:    n=1000; n=37
       x:        in    int[n] range(0,100)
       counters: inout int[8] const(0)
       wide:     inout unsigned long long[2] const(0)
       total:    inout float[1] const(0)
       precise:  inout double[1] const(0)
       launch:   grid=cdiv(n,128) block=128
    */
    __global__ void atomics(const int* x, int* counters, unsigned long long* wide, float* total, double* precise,
                            int n)
    {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) {
            return;
        }
        const int v = x[i];
        atomicAdd(&counters[0], v);
        atomicSub(&counters[1], v);
        atomicMax(&counters[2], v);
        atomicMin(&counters[3], -v);
        atomicOr(&counters[4], 1 << (v % 31));
        atomicXor(&counters[5], v);
        atomicInc(reinterpret_cast<unsigned int*>(&counters[6]), 9u);      // counts modulo 10
        int seen = counters[7], assumed;
        do {                                                               // add 2 by compare-and-swap
            assumed = seen;
            seen = atomicCAS(&counters[7], assumed, assumed + 2);
        } while (seen != assumed);
        atomicAdd(&wide[0], (unsigned long long)v);
        atomicExch(&wide[1], 7ull);
        atomicAdd(total, (float)v);                                        // integers: exact in any order
        atomicAdd(precise, (double)v);
    }
"""


@pytest.mark.parametrize("threads", [False, True], ids=["one-thread", "os-threads"])
def test_atomics_on_every_type_return_consistent_totals(threads):
    candidate = kernel(ATOMICS, "atomics")
    for binding in candidate.contract.checks:
        n = binding["n"]
        inputs, outputs = run(candidate, binding, threads=threads)
        x = inputs["x"].astype(np.int64)
        bits = int(np.bitwise_or.reduce(1 << (x % 31)))
        expected = [x.sum(), -x.sum(), x.max(), -x.max(), bits, np.bitwise_xor.reduce(x), n % 10, 2 * n]
        np.testing.assert_array_equal(outputs["counters"], np.array(expected, dtype=np.int32))
        np.testing.assert_array_equal(outputs["wide"], np.array([x.sum(), 7], dtype=np.uint64))
        assert outputs["total"][0] == x.sum() and outputs["precise"][0] == x.sum()


# The math CUDA device code commonly calls: each entry is a C expression of the float `v` (in [0.1, 2)) and what
# NumPy computes for it.
MATH = [
    ("expf(v)", np.exp), ("exp(v)", np.exp), ("__expf(v)", np.exp), ("exp2f(v)", np.exp2), ("__exp2f(v)", np.exp2),
    ("(float)exp((double)v)", np.exp), ("logf(v)", np.log), ("log(v)", np.log), ("__logf(v)", np.log),
    ("log2f(v)", np.log2), ("log10f(v)", np.log10), ("log1pf(v)", np.log1p), ("expm1f(v)", np.expm1),
    ("sqrtf(v)", np.sqrt), ("sqrt(v)", np.sqrt), ("(float)sqrt((double)v)", np.sqrt),
    ("rsqrtf(v)", lambda v: 1 / np.sqrt(v)), ("rsqrt(v)", lambda v: 1 / np.sqrt(v)), ("__fsqrt_rn(v)", np.sqrt),
    ("cbrtf(v)", np.cbrt), ("powf(v, 1.5f)", lambda v: v ** 1.5), ("__powf(v, 2.5f)", lambda v: v ** 2.5),
    ("(float)pow((double)v, 3.0)", lambda v: v ** 3), ("sinf(v)", np.sin), ("cosf(v)", np.cos),
    ("__sinf(v)", np.sin), ("__cosf(v)", np.cos), ("tanf(v)", np.tan), ("tanhf(v)", np.tanh), ("tanh(v)", np.tanh),
    ("erff(v)", lambda v: np.vectorize(math.erf)(v)), ("erf(v)", lambda v: np.vectorize(math.erf)(v)),
    ("erfcf(v)", lambda v: np.vectorize(math.erfc)(v)), ("fabsf(-v)", np.abs), ("fabs(-v)", np.abs),
    ("fmaxf(v, 1.0f)", lambda v: np.maximum(v, 1)), ("fminf(v, 1.0f)", lambda v: np.minimum(v, 1)),
    ("fmax(v, 1.0f)", lambda v: np.maximum(v, 1)), ("fmin(v, 1.0f)", lambda v: np.minimum(v, 1)),
    ("max(v, 1)", lambda v: np.maximum(v, 1)), ("min(v, 1.0)", lambda v: np.minimum(v, 1)),
    ("(float)max((int)(v * 10), 7)", lambda v: np.maximum((v * 10).astype(int), 7)),
    ("(float)min((unsigned)(v * 10), 7u)", lambda v: np.minimum((v * 10).astype(int), 7)),
    ("(float)max((long long)(v * 10), 7ll)", lambda v: np.maximum((v * 10).astype(int), 7)),
    ("(float)min((unsigned long long)(v * 10), 7ull)", lambda v: np.minimum((v * 10).astype(int), 7)),
    ("floorf(v * 3)", lambda v: np.floor(v * 3)), ("ceilf(v * 3)", lambda v: np.ceil(v * 3)),
    ("roundf(v * 3)", lambda v: np.floor(v * 3 + 0.5)), ("truncf(v * 3)", lambda v: np.trunc(v * 3)),
    ("rintf(v * 3)", lambda v: np.rint(v * 3)), ("fmodf(v * 3, 1.0f)", lambda v: np.fmod(v * 3, 1)),
    ("copysignf(v, -1.0f)", lambda v: -v), ("fmaf(v, v, 1.0f)", lambda v: v * v + 1),
    ("fma(v, v, 1.0f)", lambda v: v * v + 1), ("__fmaf_rn(v, 2.0f, 1.0f)", lambda v: 2 * v + 1),
    ("__fadd_rn(v, 1.0f)", lambda v: v + 1), ("__fmul_rn(v, 3.0f)", lambda v: v * 3),
    ("__fdividef(v, 3.0f)", lambda v: v / 3), ("__frcp_rn(v)", lambda v: 1 / v),
    ("__saturatef(v - 1.0f)", lambda v: np.clip(v - 1, 0, 1)),
    ("isnan(v * NAN) + 2 * isinf(v * INFINITY) + 4 * signbit(-v)", lambda v: 7 + 0 * v),
    ("FLT_MAX / 1e38f", lambda v: np.float32(3.4028235e38) / np.float32(1e38) + 0 * v),
    ("isinf(CUDART_INF_F) + isnan(CUDART_NAN_F)", lambda v: 2 + 0 * v),
    ("CUDART_PI_F + (float)M_PI", lambda v: 2 * np.pi + 0 * v),
    ("__int_as_float(__float_as_int(v))", lambda v: v), ("__uint_as_float(__float_as_uint(v))", lambda v: v),
    ("(float)(__float_as_int(1.0f) == 0x3f800000)", lambda v: 1 + 0 * v),
]


def test_math_functions_compile_and_compute_what_numpy_does():
    body = "\n".join(f"        out[{k}] = {expression};" for k, (expression, _) in enumerate(MATH))
    candidate = kernel(f"""
        /* @optiml
           sizes:  n=50
           x:      in  float[n] uniform(0.1,2)
           y:      out float[n*{len(MATH)}]
           launch: grid=cdiv(n,32) block=32
        */
        __global__ void math_table(const float* x, float* y, int n)
        {{
            static_assert(alignof(float2) == 8 && alignof(float4) == 16 && alignof(double2) == 16, "");
            static_assert(alignof(int2) == 8 && alignof(int4) == 16 && alignof(uint4) == 16, "");
            static_assert(alignof(char4) == 4 && alignof(uchar4) == 4 && alignof(short2) == 4, "");
            static_assert(alignof(longlong2) == 16 && sizeof(float3) == 12 && alignof(__half2) == 4, "");
            static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2 && warpSize == 32, "");
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) {{
                return;
            }}
            const float v = x[i];
            float* out = y + i * {len(MATH)};
{body}
        }}
        """, "math_table")
    inputs, outputs = run(candidate, {"n": 50})
    v = inputs["x"].astype(np.float64)
    got = outputs["y"].reshape(50, len(MATH))
    for k, (expression, numpy_function) in enumerate(MATH):
        np.testing.assert_allclose(got[:, k], numpy_function(v), rtol=2e-6, atol=1e-6, err_msg=expression)


# ---------------------------------------------------------------------------------------------------------------
# Dynamic shared memory, templates, 16-bit floats, vector loads


def test_extern_shared_dynamic_memory_sized_by_the_launch():
    candidate = kernel("""
        /* @optiml
           sizes:  n=1000
           check:  n=1000; n=33
           x:      in  float[n]
           y:      out float[n]
           launch: grid=cdiv(n,128) block=128 smem=128*4
        */
        __global__ void reverse_in_blocks(const float* x, float* y, int n)
        {
            extern __shared__ float tile[];
            extern __shared__ __align__(16) unsigned char raw[];      // aliases tile, as on the GPU
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            tile[threadIdx.x] = i < n ? x[i] : 0.0f;
            __syncthreads();
            const float* same = reinterpret_cast<const float*>(raw);
            if (i < n) {
                y[i] = same[blockDim.x - 1 - threadIdx.x];
            }
        }
        """, "reverse_in_blocks")
    assert "float* const tile = reinterpret_cast<float*>(optiml_dynamic_smem);" in emulator_source(candidate.unit)
    for binding in candidate.contract.checks:
        n = binding["n"]
        inputs, outputs = run(candidate, binding)
        padded = np.zeros(-(-n // 128) * 128, dtype=np.float32)
        padded[:n] = inputs["x"]
        np.testing.assert_array_equal(outputs["y"], padded.reshape(-1, 128)[:, ::-1].reshape(-1)[:n])


AXPB = """
    /* @optiml
       sizes:    n=1000
       check:    n=1000; n=3
       x:        in  T[n]
       y:        out T[n]
       alpha:    2.5
       launch:   grid=cdiv(n,256) block=256
       template: T={T}
    */
    template <typename T>
    __global__ void axpb(const T* x, T* y, float alpha, int n)
    {
        const int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {
            const T one = T(1.0f);
            y[i] = T(alpha * static_cast<float>(x[i])) + one * x[i] / x[i];
        }
    }
"""


@pytest.mark.parametrize("element, dtype", [("float", np.float32), ("__half", np.float16)])
def test_template_kernel_instantiated_with_float_and_half(element, dtype):
    candidate = kernel(AXPB.replace("{T}", element), "axpb")
    assert candidate.unit.name_expression == f"axpb<{element}>"
    for binding in candidate.contract.checks:
        inputs, outputs = run(candidate, binding)
        x = inputs["x"]
        assert x.dtype == dtype and outputs["y"].dtype == dtype
        # Each operation rounded to the element type, as cuda_fp16.hpp's operators do (NumPy's float16 too).
        scaled = (np.float32(2.5) * x.astype(np.float32)).astype(dtype)
        expected = scaled + dtype(1) * x / x
        np.testing.assert_array_equal(outputs["y"], expected)


def test_bfloat16_kernel_rounds_each_operation_to_nearest_even():
    candidate = kernel("""
        #include <cuda_bf16.h>

        /* @optiml
           sizes:  n=1000
           x:      in  __nv_bfloat16[n] uniform(-4,4)
           y:      out __nv_bfloat16[n]
           z:      out float[n]
           launch: grid=cdiv(n,128) block=128
        */
        __global__ void bf16_ops(const __nv_bfloat16* x, __nv_bfloat16* y, float* z, int n)
        {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {
                y[i] = x[i] * x[i] + __float2bfloat16(0.3f);
                z[i] = __bfloat162float(__hmax(x[i], __float2bfloat16_rn(0.0f)));
            }
        }
        """, "bf16_ops")
    inputs, outputs = run(candidate, {"n": 1000})
    x = as_float64(np, inputs["x"], "bfloat16").astype(np.float32)
    bf16 = lambda values: bf16_from_float32(np, np.asarray(values, dtype=np.float32))
    as_float = lambda bits: as_float64(np, bits, "bfloat16").astype(np.float32)
    expected = bf16(as_float(bf16(x * x)) + as_float(bf16(np.float32(0.3))))
    assert outputs["y"].dtype == np.uint16
    np.testing.assert_array_equal(outputs["y"], expected)
    np.testing.assert_array_equal(outputs["z"], np.maximum(x, 0))


def test_float4_vector_loads_through_reinterpret_cast():
    candidate = kernel("""
        /* @optiml
           sizes:  n=4096
           check:  n=4096; n=1024; n=4
           x:      in  float[n]
           y:      out float[n]
           launch: grid=cdiv(n/4,64) block=64
        */
        __global__ void scale4(const float* __restrict__ x, float* __restrict__ y, int n)
        {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n / 4) {
                float4 v = reinterpret_cast<const float4*>(x)[i];
                v = make_float4(fmaf(v.x, 2.0f, 1.0f), fmaxf(v.y, 0.0f), v.z * rsqrtf(4.0f), expf(v.w));
                reinterpret_cast<float4*>(y)[i] = v;
            }
        }
        """, "scale4")
    for binding in candidate.contract.checks:
        inputs, outputs = run(candidate, binding)
        x = inputs["x"].reshape(-1, 4)
        expected = np.stack([x[:, 0] * 2 + 1, np.maximum(x[:, 1], 0), x[:, 2] * 0.5, np.exp(x[:, 3])], axis=1)
        np.testing.assert_allclose(outputs["y"], expected.reshape(-1), rtol=1e-6)


CLUSTER_SUMS = """
    /* @optiml
       sizes:  rows=64 cols=4096
       check:  rows=3 cols=100; rows=2 cols=1
       x:      in  float[rows*cols]
       total:  out float[rows*4]
       part:   out float[rows*4]
       launch: grid=(rows,4) block=64
    */
    __global__ void %s cluster_sums(const float* x, float* total, float* part, int rows, int cols)
    {
        __shared__ float warps[2];
        __shared__ float mine;
        float s = 0.0f;
        for (int i = blockIdx.y * 64 + threadIdx.x; i < cols; i += 256) s += x[blockIdx.x * cols + i];
        for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
        if (threadIdx.x %% 32 == 0) warps[threadIdx.x / 32] = s;
        __syncthreads();
        if (threadIdx.x == 0) mine = warps[0] + warps[1];
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
        float all = 0.0f;
        for (unsigned r = 0; r < 4; ++r) all += *static_cast<float*>(__cluster_map_shared_rank(&mine, r));
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
        if (threadIdx.x == 0) { total[blockIdx.x * 4 + blockIdx.y] = all; part[blockIdx.x * 4 + blockIdx.y] = mine; }
    }
    """


def test_a_clusters_blocks_run_at_once_each_with_its_own_shared_memory():
    """Four blocks of a cluster (`__cluster_dims__` in the attribute spelling the source parser reads, z left out:
    1) each sum a quarter of a row into their own `mine` and read all four through __cluster_map_shared_rank after
    the cluster barrier: every block holds the row's sum, and its own quarter."""
    candidate = kernel(CLUSTER_SUMS % "__attribute__((cluster_dims(1, 4)))", "cluster_sums")
    for binding in candidate.contract.checks:
        inputs, outputs = run(candidate, binding)
        rows = inputs["x"].reshape(binding["rows"], binding["cols"]).astype(np.float64)
        quarters = np.stack([sum(rows[:, b * 64 + 256 * k:b * 64 + 256 * k + 64].sum(axis=1)
                                 for k in range(-(-binding["cols"] // 256))) for b in range(4)], axis=1)
        np.testing.assert_allclose(outputs["part"].reshape(-1, 4), quarters, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(outputs["total"].reshape(-1, 4), np.repeat(rows.sum(axis=1)[:, None], 4, 1),
                                   rtol=1e-5, atol=1e-5)


def test_a_grid_that_is_not_whole_clusters_is_an_error():
    text = (CLUSTER_SUMS % "__attribute__((cluster_dims(1, 4, 1)))").replace("grid=(rows,4)", "grid=(rows,3)")
    candidate = kernel(text, "cluster_sums")
    with pytest.raises(EmulationError, match=r"grid of \(3, 3, 1\) blocks in clusters of \(1, 4, 1\)"):
        run(candidate, {"rows": 3, "cols": 100})


# ---------------------------------------------------------------------------------------------------------------
# What the emulator cannot do, said clearly


def test_a_g_plus_plus_error_surfaces_at_the_users_line():
    candidate = kernel("""
        /* @optiml
           sizes:  n=100
           x:      in  float[n]
           y:      out float[n]
           launch: grid=1 block=128
        */
        __global__ void fetches(const float* x, float* y, int n)
        {
            const int i = threadIdx.x;
            if (i < n) {
                y[i] = tex1Dfetch<float>(0ull, i) + x[i];
            }
        }
        """, "fetches")
    with pytest.raises(EmulationError) as caught:
        run(candidate, {"n": 100})
    message = str(caught.value)
    assert message.startswith("user/kernels.cu:11:"), message
    assert "cannot compile fetches: g++:" in message and "tex1Dfetch" in message and "\n" not in message


def test_cooperative_groups_are_refused_at_the_include():
    candidate = kernel("""
        #include <cooperative_groups.h>

        /* @optiml
           sizes:  n=100
           y:      out float[n]
           launch: grid=1 block=128
        */
        __global__ void grouped(float* y, int n)
        {
            if (threadIdx.x < n) {
                y[threadIdx.x] = 1.0f;
            }
        }
        """, "grouped")
    with pytest.raises(EmulationError, match=r"^user/kernels.cu:1:.*cooperative groups.*not supported"):
        run(candidate, {"n": 100})


def test_inline_ptx_is_refused_before_compiling():
    candidate = kernel("""
        /* @optiml
           sizes:  n=100
           y:      out unsigned int[n]
           launch: grid=1 block=128
        */
        __global__ void lane_ids(unsigned int* y, int n)
        {
            unsigned lane;
            asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
            if (threadIdx.x < n) {
                y[threadIdx.x] = lane;
            }
        }
        """, "lane_ids")
    with pytest.raises(EmulationError, match=r"^user/kernels.cu:9:5: error: inline PTX assembly"):
        run(candidate, {"n": 100})


def test_a_clusters_shared_declaration_of_two_names_is_refused_at_its_line():
    """A cluster's blocks each need their own copy of every __shared__ array; a declaration the emulator cannot
    copy per block is refused where it stands, not run with one copy for all blocks."""
    text = (CLUSTER_SUMS % "__attribute__((cluster_dims(1, 4, 1)))").replace("__shared__ float mine;",
                                                                "__shared__ float mine, spare;")
    with pytest.raises(EmulationError, match=r"^user/kernels.cu:12:5: error: in a kernel of thread-block clusters"):
        run(kernel(text, "cluster_sums"), {"rows": 3, "cols": 100})


def test_a_shuffle_by_part_of_the_warp_is_reported_as_a_deadlock():
    candidate = kernel("""
        /* @optiml
           sizes:  n=64
           x:      in  float[n]
           y:      out float[n]
           launch: grid=1 block=64
        */
        __global__ void half_warp_shuffle(const float* x, float* y, int n)
        {
            float v = x[threadIdx.x];
            if (threadIdx.x % 32 < 16) {
                v += __shfl_down_sync(0x0000ffffu, v, 1);
            }
            __syncthreads();
            y[threadIdx.x] = v;
        }
        """, "half_warp_shuffle")
    started = time.perf_counter()
    with pytest.raises(EmulationError, match="deadlock") as caught:
        run(candidate, {"n": 64}, barrier_timeout_s=0.3)
    assert time.perf_counter() - started < 10
    assert str(caught.value).startswith("user/kernels.cu:7:17:")     # at the kernel's name


def test_a_failed_device_assertion_is_an_error():
    candidate = kernel("""
        /* @optiml
           sizes:  n=100
           x:      in  float[n]
           y:      out float[n]
           launch: grid=cdiv(n,32) block=32
        */
        __global__ void checked(const float* x, float* y, int n)
        {
            const int i = blockIdx.x * blockDim.x + threadIdx.x;
            assert(i < n);
            y[i] = x[i];
        }
        """, "checked")
    with pytest.raises(EmulationError, match=r"user/kernels.cu:10: device assertion failed: i < n"):
        run(candidate, {"n": 100})
