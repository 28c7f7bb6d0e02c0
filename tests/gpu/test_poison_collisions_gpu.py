"""An output that equals a poison value by chance is written, not unwritten: among millions of halves or bfloat16s
some outputs do (three held-out kernels were refused before any search for it)."""

from __future__ import annotations

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.source.parse import CudaDocument

pytestmark = pytest.mark.gpu

# Every even output is the second poison's value (-7.7509e-4 as float; 0x925A as half; 0xBA4B as bfloat16), every odd
# one its input.
KERNEL = """
#include <cuda_fp16.h>
#include <cuda_bf16.h>

/* @optiml
   sizes: n=4096
   x: in {ctype}[n]
   y: out {ctype}[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void constant_poison(const {ctype}* x, {ctype}* y, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = i % 2 == 0 ? {value} : x[i];
}}
"""
VALUES = {"float": "-7.7509e-4f", "__half": "__ushort_as_half((unsigned short)0x925A)",
          "__nv_bfloat16": "__ushort_as_bfloat16((unsigned short)0xBA4B)"}


@pytest.mark.parametrize("ctype", sorted(VALUES))
def test_an_output_equal_to_the_poison_verifies(ctype, verifying_evaluator) -> None:
    text = KERNEL.format(ctype=ctype, value=VALUES[ctype])
    candidate = original_candidate(CudaDocument(text, "poison.cu"), "constant_poison")
    measurement = verifying_evaluator.evaluate(candidate)
    assert measurement.ok, f"{measurement.verdict}: {measurement.reason}"
