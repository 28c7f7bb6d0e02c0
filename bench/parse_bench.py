"""Times the CUDA source model (and the contract parser, where present) on a generated 5,000-line .cu file.

    python bench/parse_bench.py [--lines 5000] [--runs 20] [--write FILE]

Prints the median of RUNS timed runs after one warm-up, and exits non-zero when parse (+ contracts) takes longer
than the editor's budget of 30 ms. Also prints, for information, what one keystroke costs an open document
(incremental re-parse and a new model).
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import statistics
import sys
import time
from collections.abc import Callable

import tree_sitter
import tree_sitter_cuda

from optiml_engine.model import Position
from optiml_engine.source.parse import CudaDocument, parse_source

BUDGET_MS = 30.0
PATH = "bench_generated.cu"

FILE_HEADER = """\
// Generated benchmark input for the OptiML source model: kernels with contracts, device helpers, macros and
// host code with launches, in the shapes real .cu files have.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define CUDA_CHECK(call)                                                        \\
    do {                                                                        \\
        cudaError_t err_ = (call);                                              \\
        if (err_ != cudaSuccess) {                                              \\
            fprintf(stderr, "%s:%d: %s\\n", __FILE__, __LINE__,                 \\
                    cudaGetErrorString(err_));                                  \\
        }                                                                       \\
    } while (0)

static inline int cdiv(int a, int b) { return (a + b - 1) / b; }
"""

# One module: the shapes repeat with the index {i} so that every name is distinct.
MODULE = """
// ---------------------------------------------------------------------------------------------------------------
// Module {i}

#define BLOCK_{i} 256
#define CLAMP_{i}(x, lo, hi) fminf(fmaxf((x), (lo)), (hi))

__constant__ float coeffs_{i}[8];

__device__ __forceinline__ float activate_{i}(float v) {{
    // A polynomial through the constant table, clamped to the useful range.
    float acc = coeffs_{i}[0];
    #pragma unroll
    for (int k = 1; k < 8; ++k) {{
        acc = acc * v + coeffs_{i}[k];
    }}
    return CLAMP_{i}(acc, -1.0f, 1.0f);
}}

/* @optiml
   sizes:  n=1048576
   check:  n=1000; n=1
   x:      in  float[n]
   y:      out float[n]
   alpha:  0.5
   launch: grid=cdiv(n,256) block=256
   flops:  18*n
   tol:    1e-5
*/
__global__ void __launch_bounds__(BLOCK_{i}) scale_activate_{i}(const float* __restrict__ x,
                                                                  float* __restrict__ y,
                                                                  float alpha, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {{
        y[i] = alpha * activate_{i}(x[i]);
    }}
}}

// @optiml
// sizes:  rows=4096 cols=1024
// check:  rows=3 cols=37
// x:      in  float[rows*cols] normal(0,1)
// out:    out float[rows]
// launch: grid=rows block=256 smem=256*4
__global__ void row_sum_{i}(float const* x, float* out, int rows, int cols) {{
    extern __shared__ float partial[];
    const int row = blockIdx.x;
    float acc = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {{
        acc += x[row * cols + c];
    }}
    partial[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {{
        if (threadIdx.x < stride) {{
            partial[threadIdx.x] += partial[threadIdx.x + stride];
        }}
        __syncthreads();
    }}
    if (threadIdx.x == 0) {{
        out[row] = partial[0];
    }}
}}

/* @optiml
   sizes:    n=1048576
   template: T=float VEC=4
   a:        in  T[n]
   b:        in  T[n]
   c:        out T[n]
   launch:   grid=cdiv(n,256*4) block=256
*/
template <typename T, int VEC>
__global__ void add_vec_{i}(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c, int n) {{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
    #pragma unroll
    for (int v = 0; v < VEC; ++v) {{
        int i = base + v;
        if (i < n) {{
            c[i] = a[i] + b[i];
        }}
    }}
}}

void run_module_{i}(const float* d_x, float* d_y, float* d_sum, int n, int rows, int cols, cudaStream_t stream) {{
    const int threads = BLOCK_{i};
    scale_activate_{i}<<<cdiv(n, threads), threads>>>(d_x, d_y, 0.5f, n);
    row_sum_{i}<<<rows, threads, threads * sizeof(float), stream>>>(d_x, d_sum, rows, cols);
    add_vec_{i}<float, 4><<<cdiv(n, threads * 4), threads, 0, stream>>>(d_x, d_y, d_y, n);
    CUDA_CHECK(cudaGetLastError());
}}
"""


def generate_source(lines: int) -> str:
    parts = [FILE_HEADER]
    count = FILE_HEADER.count("\n")
    index = 0
    while count < lines:
        module = MODULE.format(i=index)
        parts.append(module)
        count += module.count("\n")
        index += 1
    return "".join(parts)


def median_ms(run: Callable[[], object], runs: int) -> float:
    run()  # warm-up: first-call costs (imports, caches) are not what an editor keystroke pays
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(samples)


def keystroke_in_the_middle(source: str) -> Callable[[], object]:
    """One character typed in a device function halfway down the file, then the model: an editor's cost per edit."""
    document = CudaDocument(source, PATH)
    lines = source.splitlines()
    line = next(n for n in range(len(lines) // 2, len(lines)) if "float acc = coeffs_" in lines[n])
    column = lines[line].index("[0]") + 1   # the line is ASCII: its byte column is its character column
    digits = itertools.cycle("10")

    def keystroke() -> object:
        document.apply_change(Position(line=line, column=column), Position(line=line, column=column + 1), next(digits))
        return document.model

    return keystroke


def contract_parser() -> Callable | None:
    """`parse_contract(kernel, path)` from the contract module, when it exists yet."""
    try:
        module = importlib.import_module("optiml_engine.source.contract")
    except ImportError:
        return None
    return getattr(module, "parse_contract", None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--write", metavar="FILE", help="also write the generated source to FILE")
    args = parser.parse_args()

    source = generate_source(args.lines)
    if args.write:
        with open(args.write, "w") as out:
            out.write(source)
    model = parse_source(source, PATH)
    print(f"{source.count(chr(10))} lines, {len(model.kernels)} kernels, {len(model.launch_sites)} launch sites, "
          f"{len(model.device_items)} device items, {len(model.syntax_problems)} syntax problems")

    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_cuda.language()))
    encoded = source.encode()
    tree_only = median_ms(lambda: parser.parse(encoded), args.runs)
    print(f"tree-sitter parse alone (the floor under parse_source): {tree_only:.1f} ms (median of {args.runs})")

    gated = median_ms(lambda: parse_source(source, PATH), args.runs)
    print(f"parse_source: {gated:.1f} ms (median of {args.runs})")

    parse_contract = contract_parser()
    if parse_contract is None:
        print("contract parser not available: optiml_engine.source.contract.parse_contract")
    else:
        def parse_with_contracts() -> None:
            for kernel in parse_source(source, PATH).kernels:
                parse_contract(kernel, PATH)

        gated = median_ms(parse_with_contracts, args.runs)
        print(f"parse_source + parse_contract of every kernel: {gated:.1f} ms (median of {args.runs})")

    keystroke = median_ms(keystroke_in_the_middle(source), args.runs)
    print(f"one keystroke in an open document (apply_change + model): {keystroke:.1f} ms (median of {args.runs})")

    if gated > BUDGET_MS:
        print(f"over budget: {gated:.1f} ms > {BUDGET_MS:.0f} ms", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
