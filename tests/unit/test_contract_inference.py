"""Contract inference (source/infer.py): the kernel runs on the CPU emulator at small sizes with its accesses
traced, so these tests compile with g++ (as CI can). Every inferred contract must parse, and its lengths,
directions and launch must be the ones a user would have written."""

from __future__ import annotations

import random
import re
from pathlib import Path

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.data import make_inputs, poisoned
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.source.contract import parse_contract, resolve
from optiml_engine.source.infer import fit_length, infer_contract_text, size_atoms
from optiml_engine.source.parse import CudaDocument

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Whose indices depend on the data (labels, keys): the inference must say so, not guess silently.
DATA_DEPENDENT = {"cross_entropy_rows", "histogram64"}


def inferred(text: str, kernel: str) -> tuple[str, object]:
    document = CudaDocument(text, "k.cu")
    contract_text = infer_contract_text(text, "k.cu", kernel, document.model.launch_sites)
    at = text.find(next(line for line in text.splitlines() if kernel + "(" in line and "__global__" in line))
    with_contract = text[:at] + contract_text + "\n" + text[at:]
    model = CudaDocument(with_contract, "k.cu").model
    return contract_text, parse_contract(model.kernel(kernel), "k.cu")


def lengths_agree(left: str, right: str, symbols: list[str]) -> bool:
    from optiml_engine.model import Location
    from optiml_engine.source.expr import parse_expr

    where = Location(file="<test>", line=1)
    rng = random.Random(5)
    for _ in range(20):
        binding = {s: rng.randrange(2, 300) for s in symbols}
        if parse_expr(left, where).evaluate(binding) != parse_expr(right, where).evaluate(binding):
            return False
    return True


def stripped(path: Path, kernel: str) -> str:
    text = path.read_text()
    comment = CudaDocument(text, str(path)).model.kernel(kernel).comment.span
    source = text.encode()
    return (source[:comment.start_byte] + source[comment.end_byte:]).decode()


EXAMPLE_KERNELS = [(path, kernel.name) for path in sorted(EXAMPLES.glob("*.cu"))
                   for kernel in CudaDocument(path.read_text(), str(path)).model.kernels
                   if kernel.comment is not None and "@optiml" in kernel.comment.text]


@pytest.mark.parametrize("path, kernel", EXAMPLE_KERNELS, ids=lambda value: getattr(value, "name", value))
def test_inference_recovers_the_examples_contracts(path, kernel):
    truth = parse_contract(CudaDocument(path.read_text(), str(path)).model.kernel(kernel), str(path))
    text = stripped(path, kernel)
    contract_text, contract = inferred(text, kernel)
    symbols = list(truth.sizes)
    marked = {line.split(":")[0].strip() for line in contract_text.splitlines() if "# adjust" in line}
    for spec in contract.arrays:
        wanted = next(a for a in truth.arrays if a.param == spec.param)
        if spec.param in marked:
            assert kernel in DATA_DEPENDENT, f"{spec.param}: {contract_text}"
            continue
        assert lengths_agree(spec.length, wanted.length, symbols), f"{spec.param}: {spec.length} != {wanted.length}"
        assert spec.direction == wanted.direction or (spec.direction, wanted.direction) == ("inout", "out") and \
            wanted.param in ("y",), f"{spec.param}: {spec.direction} != {wanted.direction}"
    assert bool(marked) == (kernel in DATA_DEPENDENT), contract_text
    if kernel in DATA_DEPENDENT:
        return
    # The kernel under the inferred contract (its launch, lengths, directions, scalars from the launch site)
    # computes what it computes under the hand-written one, at the hand-written contract's check sizes.
    original = original_candidate(CudaDocument(path.read_text(), str(path)), kernel)
    at = text.find(next(line for line in text.splitlines() if kernel + "(" in line and "__global__" in line))
    mine = original_candidate(CudaDocument(text[:at] + contract_text + "\n" + text[at:], str(path)), kernel)
    for binding in truth.checks:
        resolved = resolve(truth, binding)
        assert resolve(contract, binding).scalars == resolved.scalars
        inputs = make_inputs(np, truth.arrays, resolved.lengths, seed=3)
        for spec in contract.arrays:     # an output the inference calls inout starts as the verifier's poison
            if spec.direction == "inout" and spec.param not in inputs:
                inputs[spec.param] = poisoned(np, spec.dtype, resolved.lengths[spec.param], 0)
        expected = run_on_cpu(original, binding, inputs)
        got = run_on_cpu(mine, binding, inputs)
        for name, values in expected.items():
            np.testing.assert_array_equal(got[name], values, err_msg=f"{name} at {binding}")


KERNELS = r"""
#define TILE 16
#define WARP 32

extern "C" __global__ void rows_warp(const float* __restrict__ x, float* y, int rows, int cols)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = gid / WARP, lane = gid % WARP;
    if (warp >= rows) return;
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP) s += x[(size_t)warp * cols + c];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
    if (lane == 0) y[warp] = s;
}

__global__ void block_per_row(const float* x, float* out, int rows, int cols)
{
    __shared__ float partial[128];
    const float* row = x + blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += row[c] * row[c];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h /= 2) {
        if (threadIdx.x < h) partial[threadIdx.x] += partial[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE + 1], Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; t++) {
        As[threadIdx.y][threadIdx.x] = row < M && t * TILE + threadIdx.x < K ? A[row * K + t * TILE + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = col < N && t * TILE + threadIdx.y < K ? B[(t * TILE + threadIdx.y) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

__global__ void grid_stride_scale(const double* x, double* y, double a, long long n)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] = a * x[i];
}

__global__ void taps(const float* x, const float* w, float* out, int n, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int valid = n - K + 1;
    if (i < valid) {
        float acc = 0.0f;
        for (int k = 0; k < K; k++) acc += x[i + k] * w[k];
        out[i] = acc;
    }
}

__global__ void pool_half(const float* img, float* out, int H, int W)
{
    int ox = blockIdx.x * blockDim.x + threadIdx.x, oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox < W / 2 && oy < H / 2)
        out[oy * (W / 2) + ox] = fmaxf(fmaxf(img[2 * oy * W + 2 * ox], img[2 * oy * W + 2 * ox + 1]),
                                       fmaxf(img[(2 * oy + 1) * W + 2 * ox], img[(2 * oy + 1) * W + 2 * ox + 1]));
}

__global__ void sum_of_squares(const float* x, float* total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(total, x[i] * x[i]);
}

__global__ void counts(const int* keys, unsigned int* bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[keys[i]], 1u);
}

__global__ void interior(const float* u, float* v, int h, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && x < w - 1 && y > 0 && y < h - 1)
        v[y * w + x] = 0.25f * (u[y * w + x - 1] + u[y * w + x + 1] + u[(y - 1) * w + x] + u[(y + 1) * w + x]);
}
"""


@pytest.mark.parametrize("kernel, arrays, launch", [
    ("rows_warp", {"x": "in float[rows*cols]", "y": "out float[rows]"}, "grid=cdiv((rows)*32,256) block=256"),
    ("block_per_row", {"x": "in float[rows*cols]", "out": "out float[rows]"}, "grid=rows block=128"),
    ("tiled_matmul", {"A": "in float[M*K]", "B": "in float[N*K]", "C": "out float[M*N]"},
     "grid=(cdiv(N,16),cdiv(M,16)) block=(16,16)"),
    ("grid_stride_scale", {"x": "in double[n]", "y": "out double[n]"}, "grid=cdiv(n,256) block=256"),
    ("taps", {"x": "in float[n]", "w": "in float[K]", "out": "out float[n-K+1]"}, "grid=cdiv(n-K+1,256) block=256"),
    ("pool_half", {"img": "in float[H*W]", "out": "out float[(H/2)*(W/2)]"},
     "grid=(cdiv(W/2,16),cdiv(H/2,16)) block=(16,16)"),
    ("sum_of_squares", {"x": "in float[n]", "total": "inout float[1] const(0)"}, "grid=cdiv(n,256) block=256"),
    ("interior", {"u": "in float[h*w-1]", "v": "inout float[h*w-w-1]"}, "grid=(cdiv(w-1,16),cdiv(h-1,16)) block=(16,16)"),
])
def test_inference_reads_each_kernel_class(kernel, arrays, launch):
    text, contract = inferred(KERNELS, kernel)
    assert "# adjust" not in text, text
    for name, value in arrays.items():
        assert re.search(rf"^\s+{name}:\s+{re.escape(value)}$", text, re.M), f"{name}: {value}\n{text}"
    assert f"launch: {launch}" in text
    for binding in [contract.sizes]:
        resolve(contract, binding)


def test_float_atomics_get_a_tolerance_and_a_zeroed_accumulator():
    text, contract = inferred(KERNELS, "sum_of_squares")
    assert contract.tol == 1e-2 and contract.arrays[1].init.kind == "const"


def test_default_sizes_keep_lengths_long_and_launches_legal():
    text, contract = inferred(KERNELS, "taps")
    assert contract.sizes["K"] < 100 < contract.sizes["n"]      # K shortens `out`: it stays small
    _, matmul = inferred(KERNELS, "tiled_matmul")
    assert matmul.sizes["M"] * matmul.sizes["N"] * matmul.sizes["K"] <= 2 ** 30


def test_data_dependent_indices_are_marked_for_the_user():
    text, _ = inferred(KERNELS, "counts")
    assert re.search(r"bins:\s+inout unsigned int\[\d+\] const\(0\)\s+# adjust: its indices depend on the data", text)


def test_sizes_scalars_and_launch_come_from_the_files_launch_site():
    host = KERNELS + r"""
int main()
{
    int rows = 3000, cols = 700;
    float *x, *y;
    rows_warp<<<(rows * 32 + 127) / 128, 128>>>(x, y, rows, cols);
    double *a, *b;
    grid_stride_scale<<<120, 512>>>(a, b, 2.5, 1 << 20);
}
"""
    text, contract = inferred(host, "rows_warp")
    assert contract.sizes == {"rows": 3000, "cols": 700}
    assert "launch: grid=cdiv(rows*32,128) block=128" in text
    text, contract = inferred(host, "grid_stride_scale")
    assert "a:      2.5" in text and "launch: grid=120 block=512" in text


def test_a_kernel_that_crashes_on_the_cpu_falls_back_with_a_reason():
    text = "__global__ void wild(float* y, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
           "    if (i < n) y[(long long)i * 4000000000LL] = 1.0f;\n}\n"
    contract_text, contract = inferred(text, "wild")
    assert "y:" in contract_text and "# adjust" in contract_text
    assert contract.launch.grid == ["cdiv(n,256)"]


def test_fit_length_forms():
    rng = random.Random(3)
    samples = [{"a": rng.randrange(5, 40), "b": rng.randrange(5, 40), "c": rng.randrange(5, 40)} for _ in range(24)]
    atoms = size_atoms(["a", "b", "c"], ["(b-3)/2+1"])

    def fit(function):
        return fit_length([(s, function(s)) for s in samples], ["a", "b", "c"], atoms)

    assert fit(lambda s: s["a"] * s["b"]) == "a*b"
    assert fit(lambda s: 9 * s["c"]) == "9*c"
    assert fit(lambda s: s["a"] * ((s["b"] - 3) // 2 + 1)) == "a*((b-3)/2+1)"
    assert fit(lambda s: s["a"] * s["b"] - s["b"] - 1) == "a*b-b-1"
    assert fit(lambda s: s["a"] ** 4) is None
