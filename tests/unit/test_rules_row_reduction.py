"""The row-reduction rules (warp_per_row, block_per_row): where they fire, the kernels they write (each compiled with
NVRTC), and the kernels they must leave alone. tests/gpu/test_rules_row_reduction_gpu.py verifies the rewrites."""

from __future__ import annotations

from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import RulePolicy, all_rules, lints
from optiml_engine.policies.rules.row_reduction import RULES, NotARowReduction, read_row_kernel
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
FAMILY = ROOT / "tests" / "rules" / "row_reduction"
FIRING_EXAMPLES = ["row_max", "layernorm_rows", "cross_entropy_rows", "gemv_rowmajor"]
FIRING = [ROOT / "examples" / f"{name}.cu" for name in FIRING_EXAMPLES] + sorted(FAMILY.glob("*.cu"))
QUIET_EXAMPLES = sorted(p for p in (ROOT / "examples").glob("*.cu") if p.stem not in FIRING_EXAMPLES)
WARP_PER_ROW, BLOCK_PER_ROW = RULES


def original(path: Path, text: str | None = None):
    document = CudaDocument(text if text is not None else path.read_text(), str(path))
    return original_candidate(document, document.model.kernels[-1].name)


def rewrites(rule, path: Path, text: str | None = None) -> dict[str, str]:
    """Each variant's description -> its kernel text."""
    candidate = original(path, text)
    return {edit.description: edit.candidate.unit.text for edit in rule.rewrite(KernelView.of(candidate), candidate)}


def ids(paths):
    return [p.stem for p in paths]


def test_the_family_is_discovered():
    assert {"warp_per_row", "block_per_row"} <= {rule.name for rule in all_rules()}


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("path", FIRING, ids=ids(FIRING))
def test_fires_on_a_column_loop_along_the_row(path, rule):
    view = KernelView.of(original(path))
    (match,) = rule.detect(view)
    assert match.symptom == "uncoalesced_loads" and match.rule == rule.name
    loop = view.document.tree.root_node.descendant_for_byte_range(match.span.start_byte, match.span.end_byte)
    assert loop.type in ("for_statement", "while_statement")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("path", FIRING, ids=ids(FIRING))
def test_every_rewrite_compiles_without_spills(path, rule):
    candidate = original(path)
    edits = rule.rewrite(KernelView.of(candidate), candidate)
    assert len(edits) == len(rule.layouts)
    for edit in edits:
        assert edit.rule == rule.name and edit.symptom == "uncoalesced_loads"
        assert edit.candidate.params == candidate.params
        assert edit.candidate.contract.arrays == candidate.contract.arrays
        result = compile_nvrtc(edit.candidate.unit, arch="sm_90")
        assert result.ok, (edit.description, [str(d) for d in result.diagnostics])
        assert result.resources.spill_store_bytes == 0 and result.resources.spill_load_bytes == 0, edit.description


@pytest.mark.parametrize(("path", "rows"), [(ROOT / "examples" / "row_max.cu", "rows"),
                                            (FAMILY / "row_l2norm.cu", "n_rows"), (FAMILY / "gemv_axpby.cu", "m")])
def test_launch_is_written_in_the_guards_size_symbol(path, rows):
    candidate = original(path)
    view = KernelView.of(candidate)
    warp = [(e.candidate.contract.launch.grid, e.candidate.contract.launch.block)
            for e in WARP_PER_ROW.rewrite(view, candidate)]
    block = [(e.candidate.contract.launch.grid, e.candidate.contract.launch.block)
             for e in BLOCK_PER_ROW.rewrite(view, candidate)]
    assert warp == [([f"cdiv({rows},8)"], ["256"]), ([f"cdiv({rows},4)"], ["128"]), ([f"cdiv({rows},16)"], ["512"])]
    assert block == [([rows], ["256"]), ([rows], ["1024"])]


def test_cross_entropy_warp_per_row():
    text = rewrites(WARP_PER_ROW, ROOT / "examples" / "cross_entropy_rows.cu")[
        "warp per row, 256 threads (8 rows) per block"]
    assert "int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;" in text
    assert "const int lane = threadIdx.x % 32;" in text
    assert "for (int c = 1 + lane; c < cols; c += 32)" in text        # the max starts at the second column
    assert "for (int c = lane; c < cols; c += 32)" in text
    assert "m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));" in text
    assert "sum += __shfl_xor_sync(0xffffffff, sum, offset);" in text
    assert "if (lane == 0) loss[row] = logf(sum) + m - logits[row * cols + label];" in text
    assert "!= 0" not in text        # max is idempotent and the sum starts from 0: nothing to reset


def test_layernorm_block_per_row_combines_each_loop_through_its_own_buffer():
    text = rewrites(BLOCK_PER_ROW, ROOT / "examples" / "layernorm_rows.cu")["block per row, 1024 threads per block"]
    assert "int row = blockIdx.x;" in text
    assert "for (int c = threadIdx.x; c < cols; c += blockDim.x)" in text
    assert "__shared__ float sum_by_warp[32];" in text and "__shared__ float var_by_warp[32];" in text
    assert text.count("__syncthreads();") == 2       # one per accumulating loop; the normalizing loop needs none
    assert "sum = sum_by_warp[0];" in text and "var += var_by_warp[w];" in text
    # the third loop stores elementwise: every thread, no leader
    assert "y[row * cols + c] = (x[row * cols + c] - mean) * inv;" in text and "threadIdx.x == 0" not in text


def test_combine_follows_the_operation_and_type():
    ranges = rewrites(WARP_PER_ROW, FAMILY / "row_range_while.cu")["warp per row, 256 threads (8 rows) per block"]
    assert "hi = fmaxf(hi, __shfl_xor_sync(0xffffffff, hi, offset));" in ranges
    assert "lo = fminf(lo, __shfl_xor_sync(0xffffffff, lo, offset));" in ranges      # `(v < lo) ? v : lo`
    assert "int c = 1 + lane;" in ranges and "c += 32;" in ranges                   # the while loop's start and step
    softmax = rewrites(WARP_PER_ROW, FAMILY / "softmax_rows.cu")["warp per row, 256 threads (8 rows) per block"]
    assert "m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, offset));" in softmax       # max() of floats
    counts = rewrites(BLOCK_PER_ROW, FAMILY / "row_positive_mean.cu")["block per row, 256 threads per block"]
    assert "__shared__ int count_by_warp[32];" in counts and "count += count_by_warp[w];" in counts
    assert "{ if (threadIdx.x == 0) means[i] = total / count; }" in counts          # the else stays with its if


def test_only_a_sum_entering_with_a_value_is_reset_in_the_other_threads():
    text = rewrites(WARP_PER_ROW, FAMILY / "row_sum_product_bias.cu")["warp per row, 128 threads (4 rows) per block"]
    assert "if (lane != 0) s = 0;" in text           # s enters holding bias[row]: counted by one thread only
    assert "if (lane != 0) p = 1;" not in text       # p enters as 1, the product's identity
    assert "p *= __shfl_xor_sync(0xffffffff, p, offset);" in text


def test_a_loop_that_is_the_lone_branch_of_an_if_keeps_its_reset_and_combine_in_the_branch():
    text = rewrites(BLOCK_PER_ROW, FAMILY / "row_absmax_quantize.cu")["block per row, 256 threads per block"]
    view = KernelView(text, "rewritten.cu", "row_absmax_quantize")
    branches = {view.text(n.child_by_field_name("condition")): n.child_by_field_name("consequence")
                for n in view.descendants(view.body, "if_statement")}
    for condition in ("(cols > 0)", "(cols > 1)"):
        branch = branches[condition]
        assert branch.type == "compound_statement" and "__syncthreads();" in view.text(branch)
    assert "if (threadIdx.x != 0) total = 0;" in view.text(branches["(cols > 1)"])


def test_new_names_avoid_the_kernels_own():
    text = FAMILY.joinpath("row_l2norm.cu").read_text().replace("acc", "lane").replace("float* __restrict__ norms",
                                                                                         "float* __restrict__ offset")
    text = text.replace("norms", "offset")
    path = FAMILY / "renamed.cu"
    for rule in RULES:
        candidate = original(path, text)
        for edit in rule.rewrite(KernelView.of(candidate), candidate):
            assert "const int lane_2 = threadIdx.x % 32;" in edit.candidate.unit.text
            assert "for (int offset_2 = 16;" in edit.candidate.unit.text
            assert compile_nvrtc(edit.candidate.unit, arch="sm_90").ok


SCALAR_BOUND = """\
/* @optiml
   sizes:  rows=1000 cols=300
   x:      in  float[rows*cols]
   out:    out float[rows]
   count:  rows
   width:  cols
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void row_sums(const float* x, float* out, int count, int width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) {
        float s = 0.0f;
        for (int c = 0; c <= width - 1; c++) s += x[i * width + c];
        out[i] = s;
    }
}
"""


def test_a_row_count_bound_through_a_scalar_line_is_translated():
    candidate = original(Path("row_sums.cu"), SCALAR_BOUND)
    (edit, *_) = WARP_PER_ROW.rewrite(KernelView.of(candidate), candidate)
    assert edit.candidate.contract.launch.grid == ["cdiv(rows,8)"]


def test_the_policy_proposes_every_variant():
    candidate = original(ROOT / "examples" / "gemv_rowmajor.cu")
    edits = RulePolicy(RULES).propose(candidate, PolicyContext())
    assert [e.description for e in edits] == [
        "warp per row, 256 threads (8 rows) per block", "warp per row, 128 threads (4 rows) per block",
        "warp per row, 512 threads (16 rows) per block", "block per row, 256 threads per block",
        "block per row, 1024 threads per block"]


def test_lint_points_at_the_loop_in_the_users_file():
    path = ROOT / "examples" / "gemv_rowmajor.cu"
    text = path.read_text()
    matches = lints(text, str(path), "gemv_rowmajor", RULES)
    assert [m.rule for m in matches] == ["warp_per_row", "block_per_row"]
    line = text.splitlines()[matches[0].span.start.line]
    assert line.strip().startswith("for (int c = 0; c < cols; c++)")


@pytest.mark.parametrize("path", QUIET_EXAMPLES, ids=ids(QUIET_EXAMPLES))
def test_quiet_on_the_other_examples(path):
    view = KernelView.of(original(path))
    assert [m for rule in RULES for m in rule.detect(view)] == []


def test_a_thread_per_column_walk_down_the_rows_is_already_coalesced():
    view = KernelView.of(original(ROOT / "examples" / "col_sum.cu"))
    assert read_row_kernel(view).contiguous is None      # the shape fits, the symptom is absent
    assert [m for rule in RULES for m in rule.detect(view)] == []


KERNEL = """\
__global__ void k(const float* x, float* y, float* out, int rows, int cols)
{{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {{
{body}
    }}
}}
"""

# Kernels the rewrite would change: (name, body inside the guard, why the detector refuses).
REFUSED = [
    ("break", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { float v = x[row * cols + c]; if (v < 0.0f) break; s += v; }
        out[row] = s;""", r"break"),
    ("argmax_index", """
        float m = x[row * cols]; int best = 0;
        for (int c = 1; c < cols; c++) { if (x[row * cols + c] > m) { m = x[row * cols + c]; best = c; } }
        out[row] = best;""", r"not an accumulation"),
    ("per_row_store_in_loop", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; out[row] = s; }""", r"not one element per column"),
    ("running_value", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s = 0.5f * s + x[row * cols + c]; }
        out[row] = s;""", r"not an accumulation"),
    ("last_value", """
        float last = 0.0f;
        for (int c = 0; c < cols; c++) { last = x[row * cols + c]; }
        out[row] = last;""", r"not an accumulation"),
    ("accumulator_read_in_its_loop", """
        float s = 1.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c] * s; }
        out[row] = s;""", r"used inside its loop"),
    ("prefix_sum", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; y[row * cols + c] = s; }""", r"used inside its loop"),
    ("stride_two", """
        float s = 0.0f;
        for (int c = 0; c < cols; c += 2) { s += x[row * cols + c]; }
        out[row] = s;""", r"step its variable by one"),
    ("inequality_bound", """
        float s = 0.0f;
        for (int c = 0; c != cols; c++) { s += x[row * cols + c]; }
        out[row] = s;""", r"condition"),
    ("nested_loop", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { for (int k = 0; k < 4; k++) s += x[row * cols + c] * k; }
        out[row] = s;""", r"unsupported statement"),
    ("reads_a_neighbour_it_stored", """
        for (int c = 0; c < cols; c++) { y[row * cols + c] = 2.0f * x[row * cols + c]; }
        for (int c = 1; c < cols; c++) { y[row * cols + c] = y[row * cols + c - 1] + x[row * cols + c]; }""",
     r"different elements"),
    ("loops_hand_out_columns_differently", """
        for (int c = 0; c < cols; c++) { y[row * cols + c] = 2.0f * x[row * cols + c]; }
        float s = 0.0f;
        for (int c = 1; c < cols; c++) { s += y[row * cols + c]; }
        out[row] = s;""", r"start at different columns"),
    ("reversed_store", """
        for (int c = 0; c < cols; c++) { y[row * cols + cols - 1 - c] = x[row * cols + c]; }""",
     r"not one element per column"),
    ("per_row_output_read_back", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        out[row] = s;
        for (int c = 0; c < cols; c++) { y[row * cols + c] = x[row * cols + c] - out[row]; }""",
     r"stored per row and read"),
    ("atomic", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        atomicAdd(&out[0], s);""", r"unsupported per-row statement"),
    ("atomic_in_expression", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        float old = atomicAdd(&out[0], s);""", r"calls `atomicAdd`"),
    ("barrier", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        __syncthreads();
        out[row] = s;""", r"unsupported per-row statement"),
    ("column_read_after_its_loop", """
        float s = 0.0f; int c;
        for (c = 0; c < cols; c++) { s += x[row * cols + c]; }
        out[row] = s + c;""", r"read after its loop"),
    ("max_and_min_on_one_accumulator", """
        float m = x[row * cols];
        for (int c = 0; c < cols; c++) { m = fmaxf(m, x[row * cols + c]); m = fminf(m, 0.0f); }
        out[row] = m;""", r"both max and min"),
    ("select_that_is_no_max", """
        float m = 0.0f;
        for (int c = 0; c < cols; c++) { m = (x[row * cols + c] > m) ? x[row * cols + c] : 0.0f; }
        out[row] = m;""", r"not an accumulation"),
    ("first_column_special_cased", """
        float m;
        for (int c = 0; c < cols; c++) { if (c == 0 || x[row * cols + c] > m) m = x[row * cols + c]; }
        out[row] = m;""", r"not an accumulation"),
    ("second_thread_dimension", """
        float s = 0.0f;
        for (int c = threadIdx.y; c < cols; c++) { s += x[row * cols + c]; }
        out[row] = s;""", r"threadIdx"),
    ("pointer_handed_to_a_function", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        float t = helper(out, s);""", r"passes a pointer"),
    ("store_through_a_pointer", """
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        *(out + row) = s;""", r"unsupported store"),
    ("shared_memory", """
        __shared__ float tile[256];
        float s = 0.0f;
        for (int c = 0; c < cols; c++) { s += x[row * cols + c]; }
        out[row] = s;""", r"shared memory"),
]


@pytest.mark.parametrize(("body", "reason"), [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_refuses(body, reason):
    view = KernelView(KERNEL.format(body=body.strip("\n")), "refused.cu", "k")
    with pytest.raises(NotARowReduction, match=reason):
        read_row_kernel(view)
    assert [m for rule in RULES for m in rule.detect(view)] == []


@pytest.mark.parametrize(("kernel", "reason"), [
    ("""__global__ void k(const float* x, float* out, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows && cols > 0) { float s = 0; for (int c = 0; c < cols; c++) s += x[row * cols + c]; out[row] = s; }
}""", r"compare the row"),
    ("""__global__ void k(const float* x, float* out, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) { float s = 0; for (int c = 0; c < cols; c++) s += x[row * cols + c]; out[row] = s; }
    else out[0] = 0;
}""", r"not guarded"),
    ("""__global__ void k(const float* x, float* out, int rows, int cols) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) { float s = 0; for (int c = 0; c < cols; c++) s += x[row * cols + c]; out[row] = s; }
    out[rows] = 1;
}""", r"not guarded"),
    ("""__global__ void k(const float* x, float* out, int rows, int cols) {
    int row = blockIdx.x + threadIdx.x;
    if (row < rows) { float s = 0; for (int c = 0; c < cols; c++) s += x[row * cols + c]; out[row] = s; }
}""", r"no `row ="),
    ("""__global__ void k(const float* x, float* out, int rows, int cols) {
    for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += gridDim.x * blockDim.x) {
        float s = 0; for (int c = 0; c < cols; c++) s += x[row * cols + c]; out[row] = s;
    }
}""", r"no `row ="),
], ids=["guard_with_more_conditions", "guard_with_else", "store_after_the_guard", "not_the_global_index",
        "grid_stride_loop"])
def test_refuses_other_kernel_shapes(kernel, reason):
    with pytest.raises(NotARowReduction, match=reason):
        read_row_kernel(KernelView(kernel, "refused.cu", "k"))



def test_a_larger_block_after_block_size_raises_its_launch_bounds():
    """block_size writes `__launch_bounds__(128)`; a block per row of 1024 threads must not keep it (the launch
    would fail: the H100 run of row_max rejected two such candidates)."""
    path = ROOT / "examples" / "row_max.cu"
    naive = original_candidate(CudaDocument(path.read_text(), str(path)), "row_max")
    resized = next(e for e in RulePolicy().propose(naive, PolicyContext()) if e.description.startswith("block 128"))
    assert "__launch_bounds__(128)" in resized.candidate.unit.text
    blocks = {e.candidate.contract.launch.block[0]: e.candidate.unit.text
              for e in RulePolicy().propose(resized.candidate, PolicyContext()) if e.rule == "block_per_row"}
    assert "__launch_bounds__(1024) row_max" in blocks["1024"] and "__launch_bounds__(256) row_max" in blocks["256"]
    assert all(compile_nvrtc(e.candidate.unit, arch="sm_90").ok
               for e in RulePolicy().propose(resized.candidate, PolicyContext()) if e.rule == "block_per_row")
