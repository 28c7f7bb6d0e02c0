"""Every element type a contract can name, through the verifier's whole protocol on a GPU: a kernel that writes all
of its output verifies and is timed, as its own reference and as a candidate against it; one that leaves a tail of
its output unwritten is rejected as such; one whose threads race through shared memory is rejected, and
compute-sanitizer's racecheck names the race."""

from __future__ import annotations

import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu

TYPES = ["float", "double", "__half", "__nv_bfloat16", "signed char", "unsigned char", "short", "int", "long long",
         "unsigned int"]

CONTRACT = """/* @optiml
   sizes:  n=1048576
   check:  n=1000; n=300
   x:      in  {ctype}[n]
   y:      out {ctype}[n]
   launch: grid=cdiv(n,256) block=256
{reference}*/
"""

KERNELS = """#include <cuda_fp16.h>
#include <cuda_bf16.h>

{contract}__global__ void copy(const {ctype}* x, {ctype}* y, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i];
}}

{candidate}__global__ void copy_grid_stride(const {ctype}* x, {ctype}* y, int n)
{{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = x[i];
}}

{candidate}__global__ void copy_but_the_tail(const {ctype}* x, {ctype}* y, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 3) y[i] = x[i];
}}

{candidate}__global__ void reversed_twice_without_a_barrier(const {ctype}* x, {ctype}* y, int n)
{{
    // Each block reverses its elements through shared memory and back: a thread reads what another wrote, with no
    // __syncthreads() between (a race; on the last, partial block it also reads elements nobody wrote).
    __shared__ {ctype} tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[255 - threadIdx.x] = x[i];
    {ctype} mine = tile[255 - threadIdx.x];
    tile[threadIdx.x] = tile[(threadIdx.x + 37) % 256];
    if (i < n) y[i] = mine == tile[threadIdx.x] ? x[i] : tile[threadIdx.x];
}}
"""


def kernels(ctype: str) -> CudaDocument:
    text = KERNELS.format(ctype=ctype, contract=CONTRACT.format(ctype=ctype, reference=""),
                          candidate=CONTRACT.format(ctype=ctype, reference="   reference: copy\n"))
    return CudaDocument(text, f"types_{ctype.replace(' ', '_')}.cu")


@pytest.mark.parametrize("ctype", TYPES)
def test_each_element_type_verifies_and_rejects_what_it_should(ctype, verifying_evaluator) -> None:
    document = kernels(ctype)

    def measured(kernel: str):
        candidate = original_candidate(document, kernel)
        return candidate, verifying_evaluator.evaluate(candidate, reference_candidate(document, candidate))

    _, alone = measured("copy")
    assert alone.ok and alone.timing.median_ms > 0, f"{alone.verdict}: {alone.reason}"
    _, grid_stride = measured("copy_grid_stride")
    assert grid_stride.ok and grid_stride.timing.median_ms > 0, f"{grid_stride.verdict}: {grid_stride.reason}"
    _, tail = measured("copy_but_the_tail")
    assert tail.verdict == "unwritten", f"{tail.verdict}: {tail.reason}"
    racy, race = measured("reversed_twice_without_a_barrier")
    assert not race.ok, "a kernel that races through shared memory verified"
    (report,) = verifying_evaluator.sanitize(racy, reference_candidate(document, racy), tools=("racecheck",))
    assert report.errors > 0, report.log_tail
