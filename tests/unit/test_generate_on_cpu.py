"""Every generated kernel run on the CPU against its NumPy oracle, at the contract's check sizes.

A kernel whose threads do not talk to each other computes the same thing when its threads run one after another.
So the kernel text is compiled by g++ behind a small shim (blockIdx/threadIdx as globals, atomics as plain
read-modify-writes, CUDA's math functions from <cmath>), every thread of the contract's launch is run in turn, and
the outputs are compared with the oracle by the verifier's own comparison (gpu/compare.py), on inputs drawn as the
verifier draws them. A kernel that synchronizes its block (the one-block prefix sum) runs each block's threads as
OS threads, __syncthreads a std::barrier and __shared__ memory one copy per block (blocks run one at a time). This
is the CPU's evidence that a first kernel and its oracle agree; the GPU run (tests/gpu/test_generate_gpu.py) is the
proof.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess

import numpy
import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import parse_intent
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs, poisoned, storage_dtype
from optiml_engine.oracle import oracle_outputs
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import c_name
from optiml_engine.source.parse import CudaDocument
from tests.intents import INTENTS

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

SHIM = r"""
#include <barrier>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <thread>
#include <vector>
using std::sqrt; using std::exp; using std::log; using std::fabs; using std::fmax; using std::fmin;
struct Dim { unsigned x = 1, y = 1, z = 1; };
static Dim blockIdx, blockDim, gridDim;
static thread_local Dim threadIdx;
static std::barrier<>* block_barrier;
static void __syncthreads() { block_barrier->arrive_and_wait(); }
#define __global__
#define __device__ static
#define __shared__ static
#define __restrict__
template <class T> static T atomicAdd(T* address, T value) { T old = *address; *address = old + value; return old; }
template <class T> static T atomicMax(T* address, T value) { T old = *address; if (value > old) *address = value; return old; }
template <class T> static T atomicMin(T* address, T value) { T old = *address; if (value < old) *address = value; return old; }
static int __float_as_int(float v) { int i; std::memcpy(&i, &v, 4); return i; }
static unsigned __float_as_uint(float v) { unsigned i; std::memcpy(&i, &v, 4); return i; }
static long long __double_as_longlong(double v) { long long i; std::memcpy(&i, &v, 8); return i; }
static int min(int a, int b) { return a < b ? a : b; }
static int max(int a, int b) { return a > b ? a : b; }
"""

INTENT_TEXTS = [case[0] for case in INTENTS]


def launcher(kernel: str, params: list[str], types: list[str], cooperative: bool) -> str:
    """`launch(args..., grid, block)`: every block in turn; its threads one after another, or (cooperative) as OS
    threads meeting at __syncthreads."""
    declared = ", ".join(f"{t} {p}" for t, p in zip(types, params))
    call = f"{kernel}({', '.join(params)});"
    if cooperative:
        threads = ("        int count = blockDim.x * blockDim.y * blockDim.z;\n"
                   "        std::barrier<> barrier(count);\n"
                   "        block_barrier = &barrier;\n"
                   "        std::vector<std::thread> team;\n"
                   "        for (int t = 0; t < count; t++)\n"
                   "            team.emplace_back([&, t] {\n"
                   "                threadIdx = {t % blockDim.x, t / blockDim.x % blockDim.y, t / (blockDim.x * blockDim.y)};\n"
                   f"                {call}\n"
                   "            });\n"
                   "        for (auto& thread : team) thread.join();\n")
    else:
        threads = ("        for (threadIdx.z = 0; threadIdx.z < blockDim.z; threadIdx.z++)\n"
                   "        for (threadIdx.y = 0; threadIdx.y < blockDim.y; threadIdx.y++)\n"
                   "        for (threadIdx.x = 0; threadIdx.x < blockDim.x; threadIdx.x++)\n"
                   f"            {call}\n")
    return (f'extern "C" void launch({declared}, int gx, int gy, int gz, int bx, int by, int bz)\n{{\n'
            f"    gridDim = {{(unsigned)gx, (unsigned)gy, (unsigned)gz}};\n"
            f"    blockDim = {{(unsigned)bx, (unsigned)by, (unsigned)bz}};\n"
            f"    for (blockIdx.z = 0; blockIdx.z < gridDim.z; blockIdx.z++)\n"
            f"    for (blockIdx.y = 0; blockIdx.y < gridDim.y; blockIdx.y++)\n"
            f"    for (blockIdx.x = 0; blockIdx.x < gridDim.x; blockIdx.x++) {{\n"
            f"{threads}"
            f"    }}\n}}\n")


def compiled_kernel(text: str, kernel: str, params: list[str], types: list[str], folder) -> ctypes.CDLL:
    source = folder / f"{kernel}.cpp"
    source.write_text(SHIM + text + launcher(kernel, params, types, cooperative="__syncthreads" in text))
    library = folder / f"{kernel}.so"
    run = subprocess.run(["g++", "-std=c++20", "-O1", "-shared", "-fPIC", "-pthread", "-o", str(library),
                          str(source)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return ctypes.CDLL(str(library))


def comparisons_on_cpu(text: str, kernel: str, folder) -> list[tuple[dict, object]]:
    """The kernel of `text` run thread after thread at each check size: (binding, comparison with the oracle) for
    every compared array."""
    document = CudaDocument(text, "generated.cu")
    candidate = original_candidate(document, kernel)
    oracle = reference_candidate(document, candidate)
    contract = candidate.contract
    arrays = {a.param: a for a in contract.arrays}
    scalars = {s.param: s for s in contract.scalars}
    types = [f"{'const ' if arrays[p].direction == 'in' else ''}{c_name(arrays[p].dtype)}*" if p in arrays
             else c_name(scalars[p].dtype) for p in candidate.params]
    library = compiled_kernel(text, kernel, candidate.params, types, folder)
    ctype = {"float": ctypes.c_float, "double": ctypes.c_double, "int": ctypes.c_int}
    library.launch.argtypes = [ctypes.c_void_p if p in arrays else ctype[types[i]]
                               for i, p in enumerate(candidate.params)] + [ctypes.c_int] * 6
    found = []
    for binding in contract.checks:
        resolved = resolve(contract, binding)
        inputs = make_inputs(numpy, contract.arrays, resolved.lengths, seed=7)
        expected = oracle_outputs(numpy, oracle, contract, resolved, inputs)
        buffers = {name: numpy.ascontiguousarray(values.copy()) for name, values in inputs.items()}
        for spec in contract.arrays:
            if spec.direction == "out":
                buffers[spec.param] = poisoned(numpy, spec.dtype, resolved.lengths[spec.param], 0)
        arguments = [buffers[p].ctypes.data if p in arrays else resolved.scalars[p] for p in candidate.params]
        library.launch(*arguments, *resolved.grid, *resolved.block)
        for spec in contract.arrays:
            if spec.direction != "in":
                assert buffers[spec.param].dtype == numpy.dtype(storage_dtype(spec.dtype))
                found.append((binding, compare(numpy, spec.param, buffers[spec.param], expected[spec.param],
                                               spec.dtype, contract.tol, contract.atol)))
    return found


@pytest.mark.parametrize("intent", INTENT_TEXTS, ids=[intent[:40] for intent in INTENT_TEXTS])
def test_generated_kernel_matches_its_oracle_when_run_on_the_cpu(intent, tmp_path):
    generated = generate_kernel(parse_intent(intent))
    for binding, result in comparisons_on_cpu(generated.text, generated.kernel, tmp_path):
        assert result.ok, f"at {binding}: {result.reason}"


@pytest.mark.parametrize("intent, defect", [
    ("row-wise softmax of x (rows x cols) into y", (" / total;", ";")),
    ("argmax per row of scores (rows x cols)", ("best = c;", "best = c + 1;")),
    ("5x5 convolution of an image 4096x4096 with a filter w", ("c >= 0 && c < cols", "c < cols")),
    ("transpose a 4096x8192 float matrix", ("[col * rows + row]", "[row * cols + col]")),
    ("inclusive prefix sum of n ints", ("k < n;", "k + 1 < n;")),
], ids=["no-division", "argmax-off-by-one", "no-left-edge", "not-transposed", "scan-stops-one-short"])
def test_a_defect_is_caught_by_the_same_comparison(intent, defect, tmp_path):
    generated = generate_kernel(parse_intent(intent))
    assert defect[0] in generated.text
    results = comparisons_on_cpu(generated.text.replace(defect[0], defect[1]), generated.kernel, tmp_path)
    assert not all(result.ok for _, result in results)
