"""The tiling rules (rules/tiling.py) on the examples and on kernels written differently (tests/rules/tiling/):
where each fires, where it must not (and that a one-line fix of each negative makes it fire, so that the negative
fails for its stated reason), and that every rewrite compiles with NVRTC without spills and launches at every
checked size. Their verification on a GPU is tests/gpu/test_rules_tiling_gpu.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.model import Candidate
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import all_rules, lints
from optiml_engine.policies.rules.tiling import RULES
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
KERNELS = "tests/rules/tiling"
RULE = {rule.name: rule for rule in RULES}

# (file, kernel, rule, the arrays it tiles or stages: after the rewrite each is read from global memory once)
FIRES = [
    ("examples/add_transposed.cu", "add_transposed", "transpose_tile", ["B"]),
    (f"{KERNELS}/transpose_scaled_difference.cu", "scaled_minus_transpose", "transpose_tile", ["xt"]),
    (f"{KERNELS}/transpose_product.cu", "transposed_product", "transpose_tile", ["p", "q"]),
    (f"{KERNELS}/transpose_template.cu", "add_transposed_t", "transpose_tile", ["b"]),
    ("examples/blur3x3.cu", "blur3x3", "stencil_tile", ["img"]),
    (f"{KERNELS}/stencil_laplace_guarded.cu", "laplace5", "stencil_tile", ["u"]),
    (f"{KERNELS}/stencil_box5_clamped.cu", "box5", "stencil_tile", ["in"]),
    (f"{KERNELS}/stencil_conv3x3_zero_pad.cu", "conv3x3_zero_pad", "stencil_tile", ["in"]),
    ("examples/sgemm_nt.cu", "sgemm_nt", "gemm_tile", ["A", "B"]),
    (f"{KERNELS}/gemm_nn_while.cu", "matmul_nn", "gemm_tile", ["a", "b"]),
    (f"{KERNELS}/gemm_tn_fma.cu", "matmul_tn_bias", "gemm_tile", ["at", "b"]),
    ("examples/col_sum.cu", "col_sum", "column_reduce", []),
    (f"{KERNELS}/column_mean_square_while.cu", "column_mean_square", "column_reduce", []),
    (f"{KERNELS}/column_count_positive.cu", "count_positive_per_column", "column_reduce", []),
    (f"{KERNELS}/column_weighted_sum.cu", "weighted_column_sum", "column_reduce", []),
]

# (file, kernel, rule that must not fire, the smallest edits of its contract and source that remove the reason)
NEGATIVES = [
    (f"{KERNELS}/transpose_negatives.cu", "add_transposed_ld", "transpose_tile",
     [("b[col * ld + row]", "b[col * rows + row]")]),
    (f"{KERNELS}/transpose_negatives.cu", "add_transposed_positive", "transpose_tile",
     [("if (a[row * cols + col] < 0.0f) return;", "")]),
    (f"{KERNELS}/transpose_negatives.cu", "symmetrize_in_place", "transpose_tile",
     [("a:      inout float[n*n]", "a: in float[n*n]\n   b: out float[n*n]"),
      ("float* a, int n", "const float* a, float* b, int n"), ("a[row * n + col] = 0.5f", "b[row * n + col] = 0.5f")]),
    (f"{KERNELS}/transpose_negatives.cu", "copy_2d", "transpose_tile",
     [("out[row * cols + col] = a[row * cols + col];", "out[row * cols + col] = a[col * rows + row];")]),
    (f"{KERNELS}/stencil_negatives.cu", "box7", "stencil_tile",
     [("dr = -3; dr <= 3", "dr = -2; dr <= 2"), ("dc = -3; dc <= 3", "dc = -2; dc <= 2")]),
    (f"{KERNELS}/stencil_negatives.cu", "vertical_difference", "stencil_tile",
     [("img[(row + 1) * cols + col] -", "img[min(row + 1, rows - 1) * cols + col] -")]),
    (f"{KERNELS}/stencil_negatives.cu", "blur_vertical_off_by_one", "stencil_tile",
     [(", rows) * cols", ", rows - 1) * cols")]),
    (f"{KERNELS}/stencil_negatives.cu", "shifted_average", "stencil_tile", [("col + shift", "col + 2")]),
    (f"{KERNELS}/gemm_negatives.cu", "dgemm_nn", "gemm_tile", [("float64", "float32"), ("double", "float")]),
    (f"{KERNELS}/gemm_negatives.cu", "sgemm_bias_init", "gemm_tile", [("float sum = bias[col];", "float sum = 0;")]),
    (f"{KERNELS}/gemm_negatives.cu", "sgemm_abs", "gemm_tile",
     [("fabsf(A[row * K + k] * B[k * N + col])", "A[row * K + k] * B[k * N + col]")]),
    (f"{KERNELS}/gemm_negatives.cu", "row_dot_broadcast", "gemm_tile", [("B[row * K + k]", "B[col * K + k]")]),
    ("examples/gemv_rowmajor.cu", "gemv_rowmajor", "column_reduce", [("A[row * cols + c]", "A[c * rows + row]")]),
    (f"{KERNELS}/column_negatives.cu", "column_prefix_sum", "column_reduce",
     [("if (x[r * cols + col] < 0.0f) break;", "")]),
    (f"{KERNELS}/column_negatives.cu", "column_max", "column_reduce",
     [("m = fmaxf(m, x[r * cols + col]);", "m += x[r * cols + col];")]),
    (f"{KERNELS}/column_negatives.cu", "column_decayed_sum", "column_reduce", [("0.5f * sum + ", "sum + ")]),
]

EXPECTED_ON_EXAMPLES = {"add_transposed": {"transpose_tile"}, "blur3x3": {"stencil_tile"}, "sgemm_nt": {"gemm_tile"},
                        "col_sum": {"column_reduce"}}


def load(path: str, kernel: str, text: str | None = None) -> Candidate:
    document = CudaDocument(text if text is not None else (ROOT / path).read_text(), path)
    return original_candidate(document, kernel)


def fired(node: Candidate) -> set[str]:
    view = KernelView.of(node)
    return {rule.name for rule in RULES if rule.detect(view)}


@pytest.mark.parametrize("path, kernel, rule_name, staged", FIRES, ids=[f[1] for f in FIRES])
def test_rule_fires_and_every_rewrite_compiles_and_launches(path, kernel, rule_name, staged):
    node = load(path, kernel)
    assert fired(node) == {rule_name}
    rule = RULE[rule_name]
    view = KernelView.of(node)
    (match,) = rule.detect(view)
    assert match.symptom == rule.symptom and match.message
    edits = rule.rewrite(view, node)
    assert len(edits) == (1 if rule_name == "transpose_tile" else 2)
    for edit in edits:
        candidate = edit.candidate
        assert (edit.rule, edit.symptom) == (rule_name, rule.symptom)
        assert candidate.contract.arrays == node.contract.arrays and candidate.params == node.params
        for binding in [candidate.contract.sizes, *candidate.contract.checks]:
            resolve(candidate.contract, binding)      # a valid grid and block at every size the evaluator runs
        text = candidate.unit.text
        assert text.startswith(node.unit.text.splitlines()[0]) and "__launch_bounds__" not in text
        for array in staged:
            assert len(re.findall(rf"\b{array}\[", text)) == 1, f"{array} read from global memory more than once"
        result = compile_nvrtc(candidate.unit, arch="sm_90")
        assert result.ok, result.log
        assert result.resources.spill_store_bytes == 0 and result.resources.spill_load_bytes == 0
        assert result.resources.shared_bytes > 0


@pytest.mark.parametrize("path, kernel, rule_name, fixes", NEGATIVES, ids=[n[1] for n in NEGATIVES])
def test_rule_does_not_fire_for_its_reason(path, kernel, rule_name, fixes):
    text = (ROOT / path).read_text()
    assert rule_name not in fired(load(path, kernel, text))
    section = text.rindex("@optiml", 0, text.index(f" {kernel}("))      # this kernel's contract and definition
    end = text.find("@optiml", section + 1)
    end = len(text) if end < 0 else end
    fixed = text[section:end]
    for old, new in fixes:
        assert old in fixed
        fixed = fixed.replace(old, new)
    assert rule_name in fired(load(path, kernel, text[:section] + fixed + text[end:]))


def test_examples_fire_only_where_expected():
    for path in sorted((ROOT / "examples").glob("*.cu")):
        document = CudaDocument(path.read_text(), str(path))
        for kernel in document.model.kernels:
            assert fired(original_candidate(document, kernel.name)) == EXPECTED_ON_EXAMPLES.get(kernel.name, set()), \
                kernel.name


def test_launch_rules_in_contract_terms():
    expected = {
        "add_transposed": [(["cdiv(cols,32)", "cdiv(rows,32)"], ["32", "8"])],
        "blur3x3": [(["cdiv(cols,32)", "cdiv(rows,32)"], ["32", "8"]),
                    (["cdiv(cols,32)", "cdiv(rows,64)"], ["32", "8"])],
        "sgemm_nt": [(["cdiv(N,64)", "cdiv(M,64)"], ["256"]), (["cdiv(N,128)", "cdiv(M,128)"], ["256"])],
        "col_sum": [(["cdiv(cols,32)"], ["32", "8"]), (["cdiv(cols,32)"], ["32", "32"])],
        "transposed_product": [(["cdiv(n_cols,32)", "cdiv(n_rows,32)"], ["32", "8"])],   # n_cols through a local
    }
    for path, kernel, rule_name, _ in FIRES:
        if kernel in expected:
            node = load(path, kernel)
            edits = RULE[rule_name].rewrite(KernelView.of(node), node)
            assert [(e.candidate.contract.launch.grid, e.candidate.contract.launch.block) for e in edits] == \
                expected[kernel]


def test_transposed_reads_come_from_the_tile_and_direct_reads_stay():
    node = load("examples/add_transposed.cu", "add_transposed")
    (edit,) = RULE["transpose_tile"].rewrite(KernelView.of(node), node)
    text = edit.candidate.unit.text
    assert "__shared__ float B_tile[32][33];" in text
    assert "B_tile[tile_row][threadIdx.x] = B[col * rows + row];" in text
    assert "out[row * cols + col] = A[row * cols + col] + B_tile[threadIdx.x][tile_row];" in text


def test_stencil_keeps_the_border_handling_and_reads_the_tile():
    node = load("examples/blur3x3.cu", "blur3x3")
    edit = RULE["stencil_tile"].rewrite(KernelView.of(node), node)[0]
    text = edit.candidate.unit.text
    assert "if (r > rows - 1) r = rows - 1;" in text                       # the original's clamping, untouched
    assert "sum += img_tile[r - tile_row0][c - tile_col0];" in text
    assert "__shared__ float img_tile[34][34];" in text                    # 32 + 2 rows, 32 + 2 columns
    assert "int row = blockIdx.y * 32 + tile_output;" in text              # each thread: 4 rows, 8 apart


def test_gemm_reads_each_layout_coalesced_and_keeps_the_epilogue():
    node = load(f"{KERNELS}/gemm_tn_fma.cu", "matmul_tn_bias")
    edit = RULE["gemm_tile"].rewrite(KernelView.of(node), node)[0]
    text = edit.candidate.unit.text
    assert "at[g_k * M + g_outer]" in text and "b[g_k_1 * N + g_outer_1]" in text   # both k-major: outer fastest
    assert "tile_outer = e % 64" in text
    assert "c[i * N + j] = s + bias[j];" in text
    assert "wmma" not in text and "mma" not in text.replace("gemm", "")


def test_column_reduce_splits_rows_and_keeps_the_element_expression():
    node = load(f"{KERNELS}/column_mean_square_while.cu", "column_mean_square")
    edits = RULE["column_reduce"].rewrite(KernelView.of(node), node)
    text = edits[0].candidate.unit.text
    assert "for (int r = threadIdx.y; r < n_rows; r += 8) {" in text
    assert "total = total + v * v;" in text and "result[c] = total / n_rows;" in text
    assert "r += 1" not in text


def test_lints_locate_the_finding_in_the_users_file():
    path = ROOT / "examples" / "blur3x3.cu"
    text = path.read_text()
    (match,) = lints(text, str(path), "blur3x3", RULES)
    line = text.splitlines()[match.span.start.line]
    assert match.rule == "stencil_tile" and "img[r * cols + c]" in line


def test_rules_are_discovered():
    assert {rule.name for rule in all_rules()} >= set(RULE)
