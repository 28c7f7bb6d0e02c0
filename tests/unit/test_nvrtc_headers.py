"""Device code that nvcc compiles with the usual C math, limit and integer headers (or none: nvcc's cuda_runtime.h
brings <math.h>) compiles under NVRTC too (gpu/nvrtc_prelude.h), one kernel per macro family, both compilers for
real; and a contract stands where the docs say it may (after preprocessor lines, CRLF, inside a namespace)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import PRELUDE, compile_nvcc, compile_nvrtc
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.source.parse import CudaDocument

CONTRACT = """/* @optiml
   sizes: n=1024
   check: n=5
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(n,256) block=256
*/
"""

FAMILIES = {
    "INFINITY and NAN, no include": ("", "y[i] = isnan(x[i]) ? NAN : fmaxf(x[i], -INFINITY);"),
    "<cmath>: std:: functions, M_PI": ("#include <cmath>\n",
                                       "y[i] = std::sqrt(std::fabs(x[i])) + std::fmax(x[i], 0.0f) * (float)M_PI;"),
    "<math.h>: HUGE_VALF, M_SQRT2": ("#include <math.h>\n", "y[i] = fminf(x[i] * (float)M_SQRT2, HUGE_VALF);"),
    "<cfloat>: FLT_MAX, DBL_EPSILON": ("#include <cfloat>\n", "y[i] = fminf(x[i], FLT_MAX) + (float)DBL_EPSILON;"),
    "<float.h>: FLT_EPSILON": ("#include <float.h>\n", "y[i] = x[i] + FLT_EPSILON;"),
    "<climits>: INT_MAX, LLONG_MIN": ("#include <climits>\n",
                                      "y[i] = x[i] + (float)(INT_MAX / 2) * 0.0f + (float)LLONG_MIN * 0.0f;"),
    "<limits.h>: UINT_MAX": ("#include <limits.h>\n", "y[i] = x[i] + (float)(UINT_MAX / 2) * 0.0f;"),
    "<cstdint>: int32_t, std::uint64_t, INT32_MAX": (
        "#include <cstdint>\n", "int32_t k = i; std::uint64_t m = 1; y[i] = x[k] * (float)m + INT32_MAX * 0.0f;"),
    "<stdint.h>: uint32_t": ("#include <stdint.h>\n", "uint32_t k = i; y[i] = x[k];"),
    "<math_constants.h>: CUDART_PI_F": ("#include <math_constants.h>\n", "y[i] = x[i] * CUDART_PI_F;"),
}


def kernel(include: str, body: str, newline: str = "\n") -> str:
    text = (include + CONTRACT + "__global__ void k(const float* x, float* y, int n)\n{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) { " + body + " }\n}\n")
    return text.replace("\n", newline)


@pytest.mark.parametrize("family", FAMILIES)
def test_nvcc_and_nvrtc_both_compile_each_macro_family(family) -> None:
    include, body = FAMILIES[family]
    candidate = original_candidate(CudaDocument(kernel(include, body), "user.cu"), "k")
    nvcc, nvrtc = compile_nvcc(candidate.unit), compile_nvrtc(candidate.unit)
    assert nvcc.ok, nvcc.log
    assert nvrtc.ok, nvrtc.log


PRELUDE_VALUES = {
    "M_PI": math.pi, "M_E": math.e, "M_SQRT2": math.sqrt(2), "M_LN2": math.log(2), "M_1_PI": 1 / math.pi,
    "FLT_MAX": float(np.finfo(np.float32).max), "FLT_MIN": float(np.finfo(np.float32).tiny),
    "FLT_EPSILON": float(np.finfo(np.float32).eps), "DBL_MAX": float(np.finfo(np.float64).max),
    "DBL_MIN": float(np.finfo(np.float64).tiny), "DBL_EPSILON": float(np.finfo(np.float64).eps),
    "INT_MAX": 2**31 - 1, "UINT_MAX": 2**32 - 1, "LLONG_MAX": 2**63 - 1, "ULLONG_MAX": 2**64 - 1,
    "SHRT_MAX": 2**15 - 1, "SCHAR_MAX": 127, "UCHAR_MAX": 255, "CHAR_BIT": 8,
}


def test_the_prelude_defines_the_values_the_real_headers_do() -> None:
    """The prelude's constants (NVRTC gets no others) against the values C's headers give them; INFINITY and NAN
    by their bit patterns."""
    defines = dict(re.findall(r"^#define (\w+) (\S+)$", PRELUDE.read_text(), re.MULTILINE))
    for name, value in PRELUDE_VALUES.items():
        written = float(defines[name].rstrip("FfLlUu"))
        assert written == pytest.approx(value, rel=1e-9), name
    assert defines["INFINITY"] == "__int_as_float(0x7f800000)"
    assert np.array([0x7F800000], dtype=np.uint32).view(np.float32)[0] == np.inf
    assert np.isnan(np.array([0x7FFFFFFF], dtype=np.uint32).view(np.float32)[0])


def test_the_macros_mean_what_they_mean() -> None:
    """-INFINITY clamps nothing, NAN replaces NaNs, with the C headers' own macros (the CPU emulator's)."""
    include, body = FAMILIES["INFINITY and NAN, no include"]
    candidate = original_candidate(CudaDocument(kernel(include, body), "user.cu"), "k")
    x = np.array([1.5, -np.inf, np.nan, -3.0, 0.0], dtype=np.float32)
    y = run_on_cpu(candidate, {"n": 5}, {"x": x})["y"]
    assert y[0] == 1.5 and y[1] == -np.inf and np.isnan(y[2]) and y[3] == -3.0


@pytest.mark.parametrize("before", ["#include <cmath>\n", "#include <cstdint>\n#define TILE 32\n",
                                    "// a file comment\n\n#pragma once\n"])
def test_a_contract_directly_below_preprocessor_lines_is_found(before) -> None:
    document = CudaDocument(kernel(before, "y[i] = x[i];"), "user.cu")
    assert original_candidate(document, "k").contract.sizes == {"n": 1024}


def test_a_contract_with_crlf_line_endings_is_found() -> None:
    document = CudaDocument(kernel("#include <cmath>\n", "y[i] = x[i];", newline="\r\n"), "user.cu")
    assert original_candidate(document, "k").contract.sizes == {"n": 1024}


def test_a_contract_inside_a_namespace_is_found() -> None:
    text = "namespace ops {\n" + kernel("", "y[i] = x[i];") + "}\n"
    document = CudaDocument(text, "user.cu")
    assert document.model.kernels[0].comment is not None
    assert original_candidate(document, "k").contract.sizes == {"n": 1024}


def test_a_comment_trailing_code_above_the_kernel_is_no_contract() -> None:
    text = "int a; /* @optiml sizes: n=1 */\n__global__ void k(float* x, int n) { }\n"
    assert CudaDocument(text, "user.cu").model.kernels[0].comment is None
