"""Real NVRTC and nvcc compiles of hand-made compile units (no GPU needed: both only compile)."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from optiml_engine.gpu.compile import (
    compile_nvcc, compile_nvrtc, kernel_location, on_compile_threads, parse_ptxas_report)
from optiml_engine.model import CompileUnit, Location, ResourceUsage
from optiml_engine.source.contract import parse_contract
from optiml_engine.source.parse import CudaDocument

USER_FILE = "user/kern.cu"
REPOSITORY = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPOSITORY / "examples").glob("*.cu"))

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
both_backends = pytest.mark.parametrize("compile_unit", [compile_nvrtc, pytest.param(compile_nvcc, marks=needs_nvcc)])


def unit(body: str, kernel: str, name_expression: str | None = None, first_line: int = 40) -> CompileUnit:
    """A unit whose body starts at `first_line` of the user's file, as the closure builder writes them."""
    return CompileUnit(path=USER_FILE, kernel=kernel, name_expression=name_expression or kernel,
                       text=f'#line {first_line} "{USER_FILE}"\n{body}')


SAXPY = unit("""\
__global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
""", "saxpy")

REVERSE_TEMPLATE = unit("""\
template <typename T, int B>
__global__ void reverse_block(T* x) {
  __shared__ T s[B];
  s[threadIdx.x] = x[blockIdx.x * B + threadIdx.x];
  __syncthreads();
  x[blockIdx.x * B + threadIdx.x] = s[B - 1 - threadIdx.x];
}
""", "reverse_block", "reverse_block<float, 256>")

# 32 live accumulators that every step reads across: more registers than --maxrregcount=24 allows.
REGISTER_HEAVY = unit("""\
__global__ void heavy(const float* __restrict__ x, float* __restrict__ y, int n) {
  float acc[32];
  #pragma unroll
  for (int i = 0; i < 32; ++i) acc[i] = x[threadIdx.x + i * n];
  #pragma unroll
  for (int j = 0; j < 8; ++j) {
    #pragma unroll
    for (int i = 0; i < 32; ++i) acc[i] = acc[i] * acc[(i + j + 1) & 31] + 1.0f;
  }
  float s = 0.0f;
  #pragma unroll
  for (int i = 0; i < 32; ++i) s += acc[i];
  y[threadIdx.x] = s;
}
""", "heavy")

# A local array written and read at run-time indices cannot live in registers: it takes a stack frame.
DYNAMIC_LOCAL_ARRAY = unit("""\
__global__ void scatter_local(const float* x, float* y, int n, int k) {
  float a[64];
  for (int i = 0; i < 64; ++i) a[i] = x[i * n + threadIdx.x];
  for (int i = 0; i < 64; ++i) a[(i * k) & 63] += a[i];
  y[threadIdx.x] = a[k & 63];
}
""", "scatter_local")


# ---------------------------------------------------------------------------------------------------------------
# Successful compiles


@both_backends
def test_simple_kernel(compile_unit):
    result = compile_unit(SAXPY)
    assert result.ok, result.diagnostics
    assert result.kernel == "saxpy"
    assert result.lowered_name == "_Z5saxpyfPKfPfi"
    assert result.cubin[:4] == b"\x7fELF"
    assert result.resources.registers > 0
    assert result.resources.shared_bytes == 0
    assert result.diagnostics == []
    assert result.arch == "sm_90"
    assert result.seconds > 0


def test_concurrent_compiles_of_one_unit_share_one_nvrtc_run_and_compile_threads_keep_order():
    """The search compiles a proposal ahead while the evaluator may ask for it: the second asker joins the first
    compile (the same result object), and work on the compile threads comes back in the order given."""
    fresh = unit(SAXPY.text.split("\n", 1)[1].replace("saxpy", "saxpy_joined"), "saxpy_joined")
    start = threading.Barrier(2)

    def compile_after_barrier(_):
        start.wait()
        return compile_nvrtc(fresh)

    first, second = on_compile_threads(compile_after_barrier, range(2))
    assert first.ok and first is second
    names = on_compile_threads(lambda k: compile_nvrtc(unit(
        SAXPY.text.split("\n", 1)[1].replace("saxpy", f"saxpy_{k}"), f"saxpy_{k}")).kernel, range(4))
    assert names == [f"saxpy_{k}" for k in range(4)]


def test_backend_names_and_versions():
    assert compile_nvrtc(SAXPY).compiler_version.startswith("nvrtc 13.")
    if shutil.which("nvcc"):
        assert compile_nvcc(SAXPY).compiler_version.startswith("nvcc 13.")


@both_backends
def test_template_kernel_with_shared_memory(compile_unit):
    result = compile_unit(REVERSE_TEMPLATE)
    assert result.ok, result.diagnostics
    assert result.lowered_name == "_Z13reverse_blockIfLi256EEvPT_"
    assert result.resources.shared_bytes == 256 * 4
    assert result.resources.barriers == 1


@needs_nvcc
@pytest.mark.parametrize("compiled", [SAXPY, REVERSE_TEMPLATE, REGISTER_HEAVY], ids=lambda u: u.kernel)
def test_backends_agree_on_resources(compiled):
    from_nvrtc, from_nvcc = compile_nvrtc(compiled), compile_nvcc(compiled)
    assert from_nvrtc.lowered_name == from_nvcc.lowered_name
    assert from_nvrtc.resources == from_nvcc.resources


@both_backends
def test_register_limit_spills(compile_unit):
    unlimited = compile_unit(REGISTER_HEAVY)
    limited = compile_unit(REGISTER_HEAVY, flags=["--maxrregcount=24"])
    assert unlimited.ok and limited.ok
    assert unlimited.resources.spill_store_bytes == 0
    assert limited.resources.registers <= 24 < unlimited.resources.registers
    assert limited.resources.spill_store_bytes > 0 and limited.resources.spill_load_bytes > 0


@both_backends
def test_dynamically_indexed_local_array_takes_a_stack_frame(compile_unit):
    result = compile_unit(DYNAMIC_LOCAL_ARRAY)
    assert result.ok, result.diagnostics
    assert result.resources.stack_frame_bytes >= 64 * 4


@both_backends
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_architectures(compile_unit, arch):
    result = compile_unit(REVERSE_TEMPLATE, arch=arch)
    assert result.ok, result.diagnostics
    assert result.arch == arch
    assert f"for '{arch}'" in result.log


@both_backends
def test_cuda_headers_compile(compile_unit):
    result = compile_unit(unit("""\
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void halves(const __half* x, __nv_bfloat16* y, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  block.sync();
  if (i < n) y[i] = __float2bfloat16(__half2float(x[i]) * 2.0f);
}
""", "halves"))
    assert result.ok, result.diagnostics
    assert result.resources.registers > 0


@needs_nvcc
def test_nvcc_picks_the_kernel_among_several_entries():
    two_kernels = unit("""\
__global__ void helper_kernel(float* x) { x[threadIdx.x] = 0.0f; }
template <int B>
__global__ void fill(float* x) { __shared__ float s[B]; s[threadIdx.x] = 1.0f; __syncthreads(); x[threadIdx.x] = s[0]; }
template __global__ void fill<64>(float*);
""", "fill", "fill<128>")
    result = compile_nvcc(two_kernels)
    assert result.ok, result.diagnostics
    assert result.lowered_name == "_Z4fillILi128EEvPf"
    assert result.resources.shared_bytes == 128 * 4


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_every_example_kernel_compiles(example):
    relative = str(example.relative_to(REPOSITORY))
    document = CudaDocument(example.read_text(), relative)
    assert document.model.kernels
    for kernel in document.model.kernels:
        compiled = document.compile_unit(kernel.name, parse_contract(kernel, relative).template)
        result = compile_nvrtc(compiled)
        assert result.ok, [str(d) for d in result.diagnostics]
        assert result.diagnostics == []
        assert result.resources.registers > 0


# ---------------------------------------------------------------------------------------------------------------
# Diagnostics


@both_backends
def test_syntax_error_is_located(compile_unit):
    result = compile_unit(unit("""\
__global__ void broken(float* x) {
  float y = 3.0f +;
  x[0] = y;
}
""", "broken"))
    assert not result.ok
    assert result.cubin is None and result.resources is None and result.lowered_name is None
    (error,) = [d for d in result.diagnostics if d.severity == "error"]
    assert error.location == Location(file=USER_FILE, line=41, column=19)
    assert error.message == "expected an expression"
    assert "expected an expression" in result.log


@both_backends
def test_undefined_identifier_is_located(compile_unit):
    result = compile_unit(unit("""\
__global__ void uses_undefined(float* x) {
\tint i = threadIdx.x;
\tx[i] = scale * x[i];
}
""", "uses_undefined", first_line=12))
    assert not result.ok
    (error,) = result.diagnostics
    # The caret line repeats the tab, so the column counts the tab as one character, as editors do.
    assert error.location == Location(file=USER_FILE, line=14, column=9)
    assert error.severity == "error"
    assert error.message == 'identifier "scale" is undefined'


@both_backends
def test_error_in_template_instantiation_names_the_instance(compile_unit):
    result = compile_unit(unit("""\
template <typename T>
__global__ void member_of_float(T* x) {
  x[0] = x[1].value;
}
""", "member_of_float", "member_of_float<float>"))
    assert not result.ok
    (error,) = result.diagnostics
    assert error.location == Location(file=USER_FILE, line=42, column=10)
    assert error.message.startswith('expression must have class type but it has type "float"')
    assert "detected during instantiation" in error.message


@both_backends
def test_warning_keeps_ok(compile_unit):
    result = compile_unit(unit("""\
__global__ void with_unused(float* x) {
  int unused;
  x[threadIdx.x] = 1.0f;
}
""", "with_unused"))
    assert result.ok
    (warning,) = result.diagnostics
    assert warning.severity == "warning"
    assert warning.location == Location(file=USER_FILE, line=41, column=7)
    assert warning.message == 'variable "unused" was declared but never referenced'


@both_backends
def test_ptxas_error_is_placed_at_the_kernel(compile_unit):
    result = compile_unit(unit("""\
__global__ void too_much_shared(float* x) {
  __shared__ float s[100000];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[threadIdx.x + 1];
}
""", "too_much_shared"))
    assert not result.ok
    (error,) = result.diagnostics
    assert error.location == Location(file=USER_FILE, line=40, column=17)
    assert error.message.startswith("ptxas: Entry function '_Z15too_much_sharedPf' uses too much shared data")


@both_backends
def test_bad_name_expression_is_placed_at_the_kernel(compile_unit):
    bad = REVERSE_TEMPLATE.model_copy(update={"name_expression": "reverse_block<float, int>"})
    result = compile_unit(bad)
    assert not result.ok
    assert result.diagnostics
    for diagnostic in result.diagnostics:
        assert diagnostic.location == Location(file=USER_FILE, line=41, column=17)
        assert diagnostic.message.endswith("(instantiating reverse_block<float, int>)")


@both_backends
def test_bad_architecture_is_an_error_result(compile_unit):
    result = compile_unit(SAXPY, arch="sm_1")
    assert not result.ok
    (error,) = result.diagnostics
    assert error.location == Location(file=USER_FILE, line=40, column=17)
    assert "sm_1" in error.message or "gpu-architecture" in error.message


def test_nvrtc_survives_garbage():
    garbage = CompileUnit(path=USER_FILE, kernel="k", name_expression="k<<<>>>", text="\x01\x02 }}}{{{ #pragma")
    result = compile_nvrtc(garbage)
    assert not result.ok
    assert all(d.severity == "error" for d in result.diagnostics) and result.diagnostics


def test_missing_nvcc_is_an_error_result(monkeypatch):
    monkeypatch.setattr("optiml_engine.gpu.compile.find_cuda_tool", lambda name: None)
    result = compile_nvcc(SAXPY)
    assert not result.ok
    (error,) = result.diagnostics
    assert error.message.startswith("nvcc not found")
    assert error.location == Location(file=USER_FILE, line=40, column=17)


# ---------------------------------------------------------------------------------------------------------------
# Parsers


def test_kernel_location_follows_line_directives():
    text = '#line 3 "user/a.h"\n__device__ float f();\n#line 90 "user/b.cu"\n\ntemplate <int B>\n' \
           '__global__ void __launch_bounds__(B) k(float* x) {}\n'
    located = CompileUnit(path="user/b.cu", kernel="k", name_expression="k<64>", text=text)
    assert kernel_location(located) == Location(file="user/b.cu", line=92, column=38)


def test_parse_ptxas_report_nvcc_layout():
    log = """\
ptxas info    : 0 bytes gmem
ptxas info    : Function properties for _Z6helperv
    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'
ptxas info    : Function properties for _Z1kPf
    16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads
ptxas info    : Used 12 registers, used 1 barriers, 2048 bytes smem, 360 bytes cmem[0]
ptxas info    : Compile time = 1.0 ms
ptxas info    : Compiling entry function '_Z1gv' for 'sm_90'
ptxas info    : Function properties for _Z1gv
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 4 registers
"""
    assert parse_ptxas_report(log) == {
        "_Z1kPf": ResourceUsage(registers=12, shared_bytes=2048, stack_frame_bytes=16, spill_store_bytes=4,
                                spill_load_bytes=8, constant_bytes=360, barriers=1),
        "_Z1gv": ResourceUsage(registers=4, shared_bytes=0, stack_frame_bytes=0, spill_store_bytes=0,
                               spill_load_bytes=0),
    }


def test_parse_ptxas_report_nvrtc_layout():
    log = """\
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z1kIfLi256EEvPT_' for 'sm_90'
ptxas info    : Function properties for _Z1kIfLi256EEvPT_
ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 10 registers, used 1 barriers, 1024 bytes smem
ptxas info    : Compile time = 28.010 ms
"""
    assert parse_ptxas_report(log) == {
        "_Z1kIfLi256EEvPT_": ResourceUsage(registers=10, shared_bytes=1024, stack_frame_bytes=0,
                                           spill_store_bytes=0, spill_load_bytes=0, barriers=1),
    }


def test_nvrtc_compiles_a_unit_once_per_arch_and_flags():
    """Templates compile each instance to prune it, the evaluator again to run it: the second is the first's result."""
    from optiml_engine.candidate import original_candidate

    document = CudaDocument((REPOSITORY / "examples" / "vector_add.cu").read_text(), "examples/vector_add.cu")
    unit = original_candidate(document, "vector_add").unit
    first = compile_nvrtc(unit, arch="sm_90")
    assert compile_nvrtc(unit, arch="sm_90") is first
    assert compile_nvrtc(unit, arch="sm_80") is not first and compile_nvrtc(unit, arch="sm_80").arch == "sm_80"
    edited = unit.model_copy(update={"text": unit.text.replace("a[i] + b[i]", "b[i] + a[i]")})
    assert edited.text != unit.text and compile_nvrtc(edited, arch="sm_90") is not first
