"""The elementwise rules and launch knobs (policies/rules/elementwise.py, knobs.py): where they fire, on the
examples and on kernels written differently (tests/rules/elementwise/), where they must not, what the rewrites
look like, and that every rewrite compiles with NVRTC without spills. Whether the rewrites compute what the
originals do is tests/gpu/test_rules_elementwise_gpu.py's question."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.policies.base import Edit, PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import RulePolicy, all_rules, elementwise, knobs, lints
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
RULES = [*elementwise.RULES, *knobs.RULES]
BY_NAME = {rule.name: rule for rule in RULES}

LAUNCH_CHANGING = {"vectorize_16b", "grid_stride", "block_size"}
ELEMENTWISE_1D = {"restrict_readonly", *LAUNCH_CHANGING}

# Which rules rewrite each kernel (and lint it, from the contract in its file).
EXPECTED = {
    "examples/vector_add.cu:vector_add": ELEMENTWISE_1D,
    "examples/relu_scale.cu:relu_scale": ELEMENTWISE_1D,
    "examples/dot_atomic.cu:dot_atomic": {"restrict_readonly", "grid_stride", "block_size"},
    "examples/histogram64.cu:histogram64": {"restrict_readonly", "grid_stride", "block_size"},
    "examples/layernorm_rows.cu:layernorm_rows": {"restrict_readonly", "block_size", "fast_math", "unroll"},
    "examples/cross_entropy_rows.cu:cross_entropy_rows": {"restrict_readonly", "block_size", "fast_math", "unroll"},
    "examples/row_max.cu:row_max": {"restrict_readonly", "block_size", "unroll"},
    "examples/col_sum.cu:col_sum": {"restrict_readonly", "block_size", "unroll"},
    "examples/gemv_rowmajor.cu:gemv_rowmajor": {"restrict_readonly", "block_size", "unroll"},
    "examples/sgemm_nt.cu:sgemm_nt": {"restrict_readonly", "block_size", "unroll"},
    "examples/add_transposed.cu:add_transposed": {"restrict_readonly", "block_size"},
    "examples/blur3x3.cu:blur3x3": {"restrict_readonly", "block_size"},   # 3x3 loops: constant trip counts
    "examples/maxpool2x2.cu:maxpool2x2": {"restrict_readonly", "block_size"},
    "tests/rules/elementwise/elementwise_1d.cu:saxpy_early_exit": ELEMENTWISE_1D,
    "tests/rules/elementwise/elementwise_1d.cu:clamp_and_flag": ELEMENTWISE_1D,
    "tests/rules/elementwise/elementwise_1d.cu:keep_above": ELEMENTWISE_1D,
    "tests/rules/elementwise/elementwise_negative.cu:forward_diff": {"restrict_readonly", "grid_stride", "block_size"},
    "tests/rules/elementwise/elementwise_negative.cu:take_even": {"restrict_readonly", "grid_stride", "block_size"},
    "tests/rules/elementwise/elementwise_negative.cu:axpy_f64": {"restrict_readonly", "grid_stride", "block_size"},
    "tests/rules/elementwise/elementwise_negative.cu:sqrt_nonnegative": {"restrict_readonly", "block_size"},
    "tests/rules/elementwise/elementwise_negative.cu:pad_copy": {"restrict_readonly", "grid_stride", "block_size"},
    "tests/rules/elementwise/elementwise_negative.cu:first_half_double": {"restrict_readonly"},
    "tests/rules/elementwise/elementwise_negative.cu:block_sums": {"restrict_readonly"},
    "tests/rules/elementwise/elementwise_negative.cu:scale_in_place": LAUNCH_CHANGING,
    "tests/rules/elementwise/blocks_2d.cu:scale_rows_2d": {"restrict_readonly", "block_size"},
    "tests/rules/elementwise/blocks_2d.cu:transpose_tiled": {"restrict_readonly"},
    "tests/rules/elementwise/math_functions.cu:softplus": ELEMENTWISE_1D | {"fast_math"},
    "tests/rules/elementwise/math_functions.cu:silu": ELEMENTWISE_1D | {"fast_math"},
    "tests/rules/elementwise/math_functions.cu:rotate_points": ELEMENTWISE_1D | {"fast_math"},
    "tests/rules/elementwise/math_functions.cu:gamma_correct": ELEMENTWISE_1D | {"fast_math"},
    "tests/rules/elementwise/math_functions.cu:softplus_strict": ELEMENTWISE_1D,
    "tests/rules/elementwise/math_functions.cu:softplus_f64": {"restrict_readonly", "grid_stride", "block_size"},
    "tests/rules/elementwise/loops.cu:weighted_row_sum": {"restrict_readonly", "block_size", "unroll"},
    "tests/rules/elementwise/loops.cu:row_range": {"restrict_readonly", "block_size", "unroll"},
    "tests/rules/elementwise/loops.cu:row_scan_mix": {"restrict_readonly", "block_size", "unroll"},
}


@cache
def load(case: str):
    path, kernel = case.split(":")
    document = CudaDocument((ROOT / path).read_text(), path)
    return document, original_candidate(document, kernel)


@cache
def edits(case: str, rule_name: str) -> tuple[Edit, ...]:
    _, candidate = load(case)
    view, rule = KernelView.of(candidate), BY_NAME[rule_name]
    return tuple(rule.rewrite(view, candidate)) if rule.detect(view) else ()


def edit(case: str, rule_name: str, index: int = 0) -> Edit:
    return edits(case, rule_name)[index]


def kernel_text(case: str, rule_name: str, index: int = 0) -> str:
    return edit(case, rule_name, index).candidate.unit.text


def test_rules_are_discovered():
    names = {rule.name for rule in all_rules()}
    assert set(BY_NAME) <= names
    assert len(BY_NAME) == 6


def test_every_contracted_kernel_of_the_rule_kernels_is_covered():
    for path in sorted((ROOT / "tests" / "rules" / "elementwise").glob("*.cu")):
        document = CudaDocument(path.read_text(), str(path))
        for kernel in document.model.kernels:
            assert f"tests/rules/elementwise/{path.name}:{kernel.name}" in EXPECTED


@pytest.mark.parametrize("case", EXPECTED)
def test_rules_that_rewrite_the_kernel(case):
    assert {name for name in BY_NAME if edits(case, name)} == EXPECTED[case]


@pytest.mark.parametrize("case", EXPECTED)
def test_lints_on_the_users_file_agree_with_the_rewrites(case):
    document, candidate = load(case)
    matches = lints(document.text, document.path, candidate.unit.kernel, RULES)
    assert {m.rule for m in matches} == EXPECTED[case]
    for match in matches:
        assert match.message and match.symptom == BY_NAME[match.rule].symptom
        assert match.span.start_byte < match.span.end_byte <= len(document.text.encode())


@pytest.mark.parametrize("case", EXPECTED)
def test_every_rewrite_compiles_without_spills(case):
    for name in EXPECTED[case]:
        for made in edits(case, name):
            assert made.rule == name and made.description
            result = compile_nvrtc(made.candidate.unit, arch="sm_90", flags=made.candidate.flags)
            assert result.ok, f"{name} ({made.description}):\n{result.log}\n{made.candidate.unit.text}"
            assert result.resources.spill_store_bytes == 0 and result.resources.spill_load_bytes == 0
            # The contract's data and the parameter order stay; only the launch may change.
            _, original = load(case)
            assert made.candidate.params == original.params
            assert made.candidate.contract.arrays == original.contract.arrays
            assert made.candidate.contract.sizes == original.contract.sizes
            if name not in LAUNCH_CHANGING:
                assert made.candidate.contract.launch == original.contract.launch


# ---------------------------------------------------------------------------------------------------------------
# restrict_readonly


COPY_TWICE = """{define}
/* @optiml
   sizes:  n=1000
   a:      in  float[n]
   b:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void copy_twice(float *a, float *b, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {write} = 2.0f * a[i];
}}
"""


def restrict_of(source: str):
    candidate = original_candidate(CudaDocument(source, "user/copy.cu"), "copy_twice")
    (made,) = BY_NAME["restrict_readonly"].rewrite(KernelView.of(candidate), candidate)
    assert compile_nvrtc(made.candidate.unit).ok
    return made


def test_restrict_keeps_const_and_marks_read_only_pointers_const():
    text = kernel_text("examples/vector_add.cu:vector_add", "restrict_readonly")
    assert "(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)" in text
    made = restrict_of(COPY_TWICE.format(define="", write="b[i]"))
    assert "const float *__restrict__ a, float *__restrict__ b" in made.candidate.unit.text
    assert made.description == "__restrict__ on a, b; const a"
    partly = edit("tests/rules/elementwise/elementwise_1d.cu:clamp_and_flag", "restrict_readonly")
    assert partly.description == "__restrict__ on dst, positive"


def test_a_pointer_a_macro_writes_is_not_made_const():
    """`#define B_AT(i) b[...]` writes b where the kernel's text shows no b: making it const would not compile."""
    made = restrict_of(COPY_TWICE.format(define="#define B_AT(i) b[(i)]", write="B_AT(i)"))
    assert made.description == "__restrict__ on a, b; const a"


def test_lints_are_held_back_where_the_users_launches_alias_or_offset_pointers():
    source = """
/* @optiml
   sizes:  n=1000
   x:      in  float[n]
   y:      inout float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void add_into(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

void twice(float* buffer, int n) { add_into<<<(n + 255) / 256, 256>>>(buffer, buffer, n); }
"""
    assert "restrict_readonly" not in {m.rule for m in lints(source, "user/alias.cu", "add_into", RULES)}
    separate = source.replace("(buffer, buffer, n)", "(buffer, buffer + n, n)")
    (match,) = [m for m in lints(separate, "user/alias.cu", "add_into", RULES) if m.rule == "restrict_readonly"]
    assert "must assume they alias" in match.message and "x, y" in match.message
    assert separate.encode()[match.span.start_byte:match.span.end_byte].decode() == "(const float* x, float* y, int n)"
    # The offset pointer may not be 16-byte aligned: no vector accesses for this file.
    assert "vectorize_16b" in {m.rule for m in lints(source.replace("(buffer, buffer, n)", "(buffer, out, n)"),
                                                     "user/alias.cu", "add_into", RULES)}
    assert "vectorize_16b" not in {m.rule for m in lints(separate, "user/alias.cu", "add_into", RULES)}


# ---------------------------------------------------------------------------------------------------------------
# vectorize_16b


def test_vectorize_writes_pure_outputs_without_loading_them():
    made = edit("examples/vector_add.cu:vector_add", "vectorize_16b")
    text = made.candidate.unit.text
    assert made.candidate.contract.launch.grid == ["cdiv(cdiv(n,4),256)"]
    assert made.candidate.contract.launch.block == ["256"]
    assert "const float4 a_v = *reinterpret_cast<const float4*>(a + i_first);" in text
    assert "float4 c_v;" in text and "c_v.w = a_v.w + b_v.w;" in text
    assert "*reinterpret_cast<float4*>(c + i_first) = c_v;" in text
    assert "for (int i = i_first; i < n; ++i) {" in text    # the tail, element by element
    assert text.startswith("#line 15 \"examples/vector_add.cu\"\n")


def test_vectorize_loads_arrays_that_are_read_or_written_on_some_paths():
    saxpy = kernel_text("tests/rules/elementwise/elementwise_1d.cu:saxpy_early_exit", "vectorize_16b")
    assert "float4 ys_v = *reinterpret_cast<const float4*>(ys + idx_first);" in saxpy
    assert "ys_v.z = alpha * xs_v.z + ys_v.z;" in saxpy
    keep = kernel_text("tests/rules/elementwise/elementwise_1d.cu:keep_above", "vectorize_16b")
    assert "float4 out_v = *reinterpret_cast<const float4*>(out + k_first);" in keep


def test_vectorize_int_arrays_unsigned_index_and_index_used_in_values():
    made = edit("tests/rules/elementwise/elementwise_1d.cu:clamp_and_flag", "vectorize_16b")
    text = made.candidate.unit.text
    assert "const unsigned int t_first = ((blockDim.x * blockIdx.x) + threadIdx.x) * 4;" in text
    assert "int4 positive_v;" in text and "positive_v.y = v > 0.0f ? 1 : 0;" in text
    assert "const unsigned int t = t_first + 3;" in text     # the index itself, for `0.25f * (t % 3)`
    assert made.candidate.contract.launch.grid == ["cdiv(cdiv(len,4),256)"]


def test_vectorize_needs_every_access_at_the_index_and_arrays_as_long_as_the_bound():
    for case in ("forward_diff", "take_even", "axpy_f64", "pad_copy", "first_half_double", "sqrt_nonnegative"):
        assert not edits(f"tests/rules/elementwise/elementwise_negative.cu:{case}", "vectorize_16b"), case


GUARD_FORMS = {
    "if (i < n) { y[i] = x[i] * s; }": "int i = blockIdx.x * blockDim.x + threadIdx.x;",
    "if (n > i) y[i] = x[i] * s;": "int i = threadIdx.x + blockDim.x * blockIdx.x;",
    "if (i >= n) { return; } y[i] = x[i] * s;": "int i = (blockDim.x * blockIdx.x) + threadIdx.x;",
    "if (n <= i) return; y[(i)] = x[i] * s;": "size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;",
}


def kernel_source(declaration: str, guarded: str, params: str = "const float* x, float* y, float s, int n") -> str:
    return f"__global__ void k({params})\n{{\n    {declaration}\n    {guarded}\n}}\n"


@pytest.mark.parametrize("guarded", GUARD_FORMS)
def test_elementwise_shape_in_any_spelling(guarded):
    view = KernelView(kernel_source(GUARD_FORMS[guarded], guarded), "user/k.cu", "k")
    fired = {rule.name for rule in RULES if rule.detect(view)}
    assert LAUNCH_CHANGING <= fired


NOT_ELEMENTWISE = {
    "another condition in the guard": "if (i < n && s > 0.0f) y[i] = x[i];",
    "else branch": "if (i < n) y[i] = x[i]; else return;",
    "index reassigned": "if (i < n) { i += 1; y[i] = x[i]; }",
    "thread index in the body": "if (i < n) y[i] = x[i] + threadIdx.x;",
    "shared memory": "__shared__ float t[256]; if (i < n) y[i] = x[i];",
    "barrier": "if (i < n) { y[i] = x[i]; __syncthreads(); }",
    "guard not first": "y[0] = 0.0f; if (i < n) y[i] = x[i];",
    "statements after the guard": "if (i < n) y[i] = x[i]; y[0] = 1.0f;",
}


@pytest.mark.parametrize("guarded", NOT_ELEMENTWISE.values(), ids=NOT_ELEMENTWISE)
def test_no_launch_changing_rule_where_the_shape_is_not_elementwise(guarded):
    view = KernelView(kernel_source("int i = blockIdx.x * blockDim.x + threadIdx.x;", guarded), "user/k.cu", "k")
    assert not {rule.name for rule in RULES if rule.detect(view)} & LAUNCH_CHANGING


HELPER_SEES_THREADS = {
    "device function": "__device__ float lane_bias(float v) { return v + threadIdx.x; }\n",
    "device function template": "template <typename T> __device__ T lane_bias(T v) { return v + (T)warpSize; }\n",
    "macro": "#define lane_bias(v) ((v) + threadIdx.x % 32)\n",
}


@pytest.mark.parametrize("helper", HELPER_SEES_THREADS.values(), ids=HELPER_SEES_THREADS)
def test_helpers_the_kernel_calls_are_checked_for_thread_geometry(helper):
    guarded = "if (i < n) y[i] = lane_bias(x[i]);"
    source = helper + kernel_source("int i = blockIdx.x * blockDim.x + threadIdx.x;", guarded)
    view = KernelView(source, "user/k.cu", "k")
    assert not {rule.name for rule in RULES if rule.detect(view)} & LAUNCH_CHANGING
    plain = "__device__ float lane_bias(float v) { return v + 1.0f; }\n" + source[len(helper):]
    view = KernelView(plain, "user/k.cu", "k")
    assert LAUNCH_CHANGING <= {rule.name for rule in RULES if rule.detect(view)}


def test_hard_coded_block_in_the_index_is_no_global_index():
    view = KernelView(kernel_source("int i = blockIdx.x * 256 + threadIdx.x;", "if (i < n) y[i] = x[i];"),
                      "user/k.cu", "k")
    assert not {rule.name for rule in RULES if rule.detect(view)} & LAUNCH_CHANGING


# ---------------------------------------------------------------------------------------------------------------
# grid_stride


def test_grid_stride_variants_and_launch():
    made = edits("examples/vector_add.cu:vector_add", "grid_stride")
    assert [e.description for e in made] == ["grid-stride loop over 1056 blocks",
                                             "grid-stride loop over 1056 blocks, 2 indices per iteration",
                                             "grid-stride loop over 1056 blocks, 4 indices per iteration"]
    assert {tuple(e.candidate.contract.launch.grid) for e in made} == {("min(cdiv(n,256),1056)",)}
    assert "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {" \
        in made[0].candidate.unit.text
    unrolled = made[2].candidate.unit.text
    assert "for (; i_first + 3 * stride < n; i_first += 4 * stride) {" in unrolled
    assert "const float a_3 = a[i_first + 3 * stride];" in unrolled
    assert "for (int i = i_first; i < n; i += stride) {" in unrolled     # the rest, one index at a time


def test_grid_stride_keeps_any_body_but_unrolls_only_index_accesses():
    atomics = edits("examples/histogram64.cu:histogram64", "grid_stride")
    assert len(atomics) == 1 and "atomicAdd(&bins[keys[i]], 1u);" in atomics[0].candidate.unit.text
    assert len(edits("tests/rules/elementwise/elementwise_negative.cu:pad_copy", "grid_stride")) == 1
    block = edits("tests/rules/elementwise/elementwise_1d.cu:keep_above", "grid_stride")
    assert block[0].candidate.contract.launch.grid == ["min(cdiv(n,512),528)"]


def test_grid_stride_not_offered_where_the_grid_is_already_one_wave():
    for case in ("examples/layernorm_rows.cu:layernorm_rows", "examples/row_max.cu:row_max"):
        _, candidate = load(case)
        view = KernelView.of(candidate)
        assert BY_NAME["grid_stride"].detect(view)          # the shape is there (a compile unit has no contract)
        assert not BY_NAME["grid_stride"].rewrite(view, candidate)


# ---------------------------------------------------------------------------------------------------------------
# block_size


def test_block_size_1d_variants_with_launch_bounds():
    made = edits("examples/relu_scale.cu:relu_scale", "block_size")
    assert [e.candidate.contract.launch.block for e in made] == [["128"], ["512"], ["1024"]]
    assert [e.candidate.contract.launch.grid for e in made] == [["cdiv(n,128)"], ["cdiv(n,512)"], ["cdiv(n,1024)"]]
    assert "__global__ void __launch_bounds__(512) relu_scale(" in made[1].candidate.unit.text


def test_block_size_2d_replaces_existing_launch_bounds():
    made = edits("tests/rules/elementwise/blocks_2d.cu:scale_rows_2d", "block_size")
    assert [e.candidate.contract.launch.block for e in made] == [["32", "8"], ["32", "16"], ["64", "4"]]
    assert made[1].candidate.contract.launch.grid == ["cdiv(width,32)", "cdiv(height,16)"]
    text = made[1].candidate.unit.text
    assert text.count("__launch_bounds__") == 1 and "__launch_bounds__(512) scale_rows_2d" in text
    maxpool = edits("examples/maxpool2x2.cu:maxpool2x2", "block_size")
    assert maxpool[2].candidate.contract.launch.grid == ["cdiv(cdiv(cols,2),64)", "cdiv(cdiv(rows,2),4)"]


def test_block_size_not_offered_where_the_kernel_hard_codes_its_block():
    for case in ("elementwise_negative.cu:block_sums", "blocks_2d.cu:transpose_tiled"):
        _, candidate = load(f"tests/rules/elementwise/{case}")
        assert not BY_NAME["block_size"].detect(KernelView.of(candidate)), case


# ---------------------------------------------------------------------------------------------------------------
# fast_math


def test_fast_math_replaces_nested_calls_and_fp32_divisions():
    softplus = kernel_text("tests/rules/elementwise/math_functions.cu:softplus", "fast_math")
    assert "y[i] = __logf(1.0f + __expf(x[i]));" in softplus
    silu = kernel_text("tests/rules/elementwise/math_functions.cu:silu", "fast_math")
    assert "out[j] = __fdividef(v, (1.0f + __expf(-v)));" in silu
    layernorm = kernel_text("examples/layernorm_rows.cu:layernorm_rows", "fast_math")
    assert "float inv = rsqrtf(var + eps);" in layernorm and "float mean = __fdividef(sum, cols);" in layernorm
    assert "(rows + 1) / 2" not in layernorm


def test_no_rule_changes_the_compiler_flags():
    """A result is offered as a diff of the user's file, which carries no compiler flags: every edit must be in the
    source (fast math as intrinsics, never --use_fast_math)."""
    for path in sorted(ROOT.glob("examples/*.cu")):
        _, original = load(f"examples/{path.name}:{path.stem}")
        for made in RulePolicy().propose(original, PolicyContext()):
            assert made.candidate.flags == original.flags, made.description


def test_fast_math_needs_a_loose_tolerance_and_fp32():
    strict = "tests/rules/elementwise/math_functions.cu:softplus_strict"
    _, candidate = load(strict)
    assert BY_NAME["fast_math"].detect(KernelView.of(candidate))     # no contract in the unit: the rewrite decides
    assert not edits(strict, "fast_math")
    f64 = "tests/rules/elementwise/math_functions.cu:softplus_f64"
    assert not BY_NAME["fast_math"].detect(KernelView.of(load(f64)[1]))
    integer_division = KernelView(kernel_source("int i = blockIdx.x * blockDim.x + threadIdx.x;",
                                                "if (i < n) y[i] = x[i] * (n / 2);"), "user/k.cu", "k")
    assert not BY_NAME["fast_math"].detect(integer_division)


# ---------------------------------------------------------------------------------------------------------------
# unroll


def test_unroll_only_innermost_runtime_loops_carried_by_reductions():
    text = kernel_text("tests/rules/elementwise/loops.cu:row_scan_mix", "unroll")
    assert text.count("#pragma unroll 4") == 1
    assert "#pragma unroll 4\n            for (int b = a; b < min(cols, a + 16); b++) {" in text
    assert text.count("#pragma unroll 2") == 1
    row_range = kernel_text("tests/rules/elementwise/loops.cu:row_range", "unroll")
    assert "#pragma unroll 4\n        for (int c = cols - 1; c >= 0; --c) {" in row_range


def test_unroll_pragma_gets_a_line_of_its_own():
    source = """
/* @optiml
   sizes:  n=1000 w=64
   x:      in  float[n*w]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
   tol:    1e-4
*/
__global__ void row_sums(const float* x, float* y, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float s = 0.0f; for (int k = 0; k < w; ++k) s += x[i * w + k]; y[i] = s; }
}
"""
    candidate = original_candidate(CudaDocument(source, "user/sums.cu"), "row_sums")
    (made,) = BY_NAME["unroll"].rewrite(KernelView.of(candidate), candidate)
    assert "float s = 0.0f; \n#pragma unroll 4\nfor (int k = 0; k < w; ++k)" in made.candidate.unit.text
    assert compile_nvrtc(made.candidate.unit).ok


def test_unroll_on_the_examples():
    assert kernel_text("examples/layernorm_rows.cu:layernorm_rows", "unroll").count("#pragma unroll 4") == 3
    assert kernel_text("examples/cross_entropy_rows.cu:cross_entropy_rows", "unroll").count("#pragma unroll 4") == 2
    sgemm = kernel_text("examples/sgemm_nt.cu:sgemm_nt", "unroll")
    assert "#pragma unroll 4\n        for (int k = 0; k < K; k++) {" in sgemm


def test_unroll_lint_points_at_the_loop():
    document, _ = load("examples/sgemm_nt.cu:sgemm_nt")
    (match,) = [m for m in lints(document.text, document.path, "sgemm_nt", RULES) if m.rule == "unroll"]
    loop = document.text.encode()[match.span.start_byte:match.span.end_byte].decode()
    assert loop.startswith("for (int k = 0; k < K; k++)") and match.span.start.line == 20   # line 21, 0-based
