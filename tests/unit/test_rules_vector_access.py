"""The vector access rules (policies/rules/vector_access.py). vectorize_grid_stride: where it fires on hand-written
grid-stride loops (tests/rules/vector_access/grid_stride.cu) and where it must not, what its rewrite looks like, that
it composes with the rewrites that write grid-stride loops (templates, grid_stride, atomic_block_reduce) on the
examples. pair_loads: the same on adjacent reads (pairs.cu, the examples, other families' kernels), and that it
composes with block_size. Every rewrite compiles with NVRTC without spills; whether they compute what the originals
do is tests/gpu/test_rules_vector_access_gpu.py's question."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.model import Candidate
from optiml_engine.policies.base import Edit, PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import RulePolicy, all_rules, lints
from optiml_engine.policies.rules.vector_access import PairLoads, VectorizeGridStride
from optiml_engine.policies.templates import TemplatePolicy
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = "tests/rules/vector_access/grid_stride.cu"
RULE = VectorizeGridStride()
FIRES = {"saxpy_grid": True, "count_above_grid": True, "ramp_grid": True, "bins_grid": True,
         "diff_grid": False, "block_stride": False, "stop_at_negative": False, "copy_f64_grid": False,
         "synced_grid": False, "half_second": False, "shifted_copy": False, "first_half": False}
# The examples' first rewrites whose output this rule vectorizes: every rewrite that writes a grid-stride loop.
COMPOSES_AFTER = {
    "dot_atomic": {"global_reduction", "atomic_block_reduce", "grid_stride"},
    "histogram64": {"histogram", "shared_privatization", "grid_stride"},
    "vector_add": {"grid_stride"},
    "relu_scale": {"grid_stride"},
}


@cache
def loaded(path: str, kernel: str) -> tuple[CudaDocument, Candidate]:
    document = CudaDocument((ROOT / path).read_text(), path)
    return document, original_candidate(document, kernel)


def rewrites(candidate: Candidate) -> list[Edit]:
    view = KernelView.of(candidate)
    return RULE.rewrite(view, candidate) if RULE.detect(view) else []


def kernel_text(edit: Edit) -> str:
    text = edit.candidate.unit.text
    return text[text.index("__global__"):]


def test_rule_is_discovered():
    assert RULE.name in {rule.name for rule in all_rules()}


def test_every_fixture_kernel_is_covered():
    document = CudaDocument((ROOT / FIXTURES).read_text(), FIXTURES)
    assert {kernel.name for kernel in document.model.kernels} == set(FIRES)


@pytest.mark.parametrize("kernel", FIRES)
def test_fires_where_lanes_keep_the_loop_meaning_and_lints_agree(kernel):
    document, candidate = loaded(FIXTURES, kernel)
    assert bool(rewrites(candidate)) == FIRES[kernel]
    found = [m for m in lints(document.text, document.path, kernel, [RULE])]
    assert bool(found) == FIRES[kernel]
    for match in found:
        assert document.text.encode()[match.span.start_byte:match.span.end_byte].startswith(b"for (")
        assert "16-byte" in match.message and match.symptom == "memory"


@pytest.mark.parametrize("kernel", [k for k, fires in FIRES.items() if fires])
def test_rewrite_compiles_without_spills_and_keeps_the_contract(kernel):
    _, candidate = loaded(FIXTURES, kernel)
    for made in rewrites(candidate):
        result = compile_nvrtc(made.candidate.unit, arch="sm_90")
        assert result.ok, result.log + made.candidate.unit.text
        assert result.resources.spill_store_bytes == 0 == result.resources.spill_load_bytes
        assert made.candidate.contract == candidate.contract and made.candidate.params == candidate.params


def test_loaded_and_stored_arrays_and_the_scalar_tail():
    (made,) = rewrites(loaded(FIXTURES, "saxpy_grid")[1])
    text = kernel_text(made)
    assert "const float4 x_v = *reinterpret_cast<const float4*>(x + i_first);" in text
    assert "float4 y_v = *reinterpret_cast<const float4*>(y + i_first);" in text   # read: loaded before the lanes
    assert "*reinterpret_cast<float4*>(y + i_first) = y_v;" in text and "x + i_first) = " not in text
    assert "for (int i_quad = blockIdx.x * blockDim.x + threadIdx.x; i_quad < (n) / 4;" in text
    assert "for (int i = (n) / 4 * 4 + blockIdx.x * blockDim.x + threadIdx.x; i < n;" in text
    assert text.count("y_v.w = a * x_v.w + y_v.w;") == 1


def test_atomic_targets_stay_addresses_and_the_unroll_pragma_stays_on_the_vector_loop():
    (made,) = rewrites(loaded(FIXTURES, "count_above_grid")[1])
    text = kernel_text(made)
    assert "#pragma unroll 2\n    for (unsigned int i_quad" in text and text.count("#pragma unroll") == 1
    assert "count_v" not in text and text.count("atomicAdd(count, 1u)") == 5   # four lanes and the tail
    (made,) = rewrites(loaded(FIXTURES, "bins_grid")[1])
    text = kernel_text(made)
    assert "const int4 keys_v" in text and "bins_v" not in text and "atomicAdd(&bins[key], 1u)" in text


def test_index_used_in_values_is_declared_per_lane():
    (made,) = rewrites(loaded(FIXTURES, "ramp_grid")[1])
    text = kernel_text(made)
    assert all(f"const int k = k_first + {lane};" in text for lane in (1, 2, 3)) and "const int k = k_first;" in text
    assert "k_quad < (total) / 4" in text


@cache
def first_rewrites(example: str) -> list[Edit]:
    document = CudaDocument((ROOT / "examples" / f"{example}.cu").read_text(), f"examples/{example}.cu")
    naive = original_candidate(document, example)
    return RulePolicy().propose(naive, PolicyContext()) + TemplatePolicy().propose(naive, PolicyContext())


@pytest.mark.parametrize("example", sorted(p.stem for p in (ROOT / "examples").glob("*.cu")))
def test_composes_with_the_rewrites_that_write_grid_stride_loops(example):
    document = CudaDocument((ROOT / "examples" / f"{example}.cu").read_text(), f"examples/{example}.cu")
    assert not rewrites(original_candidate(document, example))     # no example is written with such a loop
    after = {edit.rule for edit in first_rewrites(example) if rewrites(edit.candidate)}
    assert after == COMPOSES_AFTER.get(example, set())


@pytest.mark.parametrize("example", sorted(COMPOSES_AFTER))
def test_composed_rewrites_compile_without_spills(example):
    for edit in first_rewrites(example):
        for made in rewrites(edit.candidate):
            result = compile_nvrtc(made.candidate.unit, arch="sm_90")
            assert result.ok, result.log + made.candidate.unit.text
            assert result.resources.spill_store_bytes == 0 == result.resources.spill_load_bytes
            assert made.candidate.contract.launch == edit.candidate.contract.launch


# ---------------------------------------------------------------------------------------------------------------
# pair_loads

PAIRS = "tests/rules/vector_access/pairs.cu"
PAIR_RULE = PairLoads()
PAIRS_FIRE = {"complex_magnitude": True, "pair_sums": True, "norm_sum": True, "shift_down": False,
              "moved_index": False, "complex_magnitude_f64": False, "padded_pairs": False}
# Which examples and rule kernels of other families read adjacent pairs.
PAIRS_ELSEWHERE = {"examples/maxpool2x2.cu:maxpool2x2": 2,
                   "tests/rules/elementwise/elementwise_negative.cu:forward_diff": 1,
                   "tests/rules/tiling/stencil_laplace_guarded.cu:laplace5": 1}


def pair_rewrites(candidate: Candidate) -> list[Edit]:
    view = KernelView.of(candidate)
    return PAIR_RULE.rewrite(view, candidate) if PAIR_RULE.detect(view) else []


def test_every_pairs_kernel_is_covered():
    document = CudaDocument((ROOT / PAIRS).read_text(), PAIRS)
    assert {kernel.name for kernel in document.model.kernels} == set(PAIRS_FIRE)


@pytest.mark.parametrize("kernel", PAIRS_FIRE)
def test_pairs_fire_where_both_reads_can_be_one_load_and_lints_agree(kernel):
    document, candidate = loaded(PAIRS, kernel)
    made = pair_rewrites(candidate)
    assert bool(made) == PAIRS_FIRE[kernel]
    assert bool(lints(document.text, document.path, kernel, [PAIR_RULE])) == PAIRS_FIRE[kernel]
    for edit in made:
        result = compile_nvrtc(edit.candidate.unit, arch="sm_90")
        assert result.ok, result.log + edit.candidate.unit.text
        assert edit.candidate.contract == candidate.contract


def test_pairs_on_the_examples_and_other_families_kernels():
    for path in [*sorted((ROOT / "examples").glob("*.cu")), *sorted((ROOT / "tests" / "rules").glob("*/*.cu"))]:
        if path.parent.name == "vector_access":
            continue
        relative = str(path.relative_to(ROOT))
        document = CudaDocument(path.read_text(), relative)
        for kernel in document.model.kernels:
            if kernel.comment is None:
                continue
            found = lints(document.text, relative, kernel.name, [PAIR_RULE])
            assert len(found) == PAIRS_ELSEWHERE.get(f"{relative}:{kernel.name}", 0), f"{relative}:{kernel.name}"


def test_pair_is_loaded_once_where_aligned_and_within_the_array_and_every_read_takes_its_element():
    (made,) = pair_rewrites(loaded("examples/maxpool2x2.cu", "maxpool2x2")[1])
    text = kernel_text(made)
    assert "const bool img_pair0_ok = (r * cols + c) >= 0 && (r * cols + c) % 2 == 0 && (r * cols + c) + 1 < " \
           "(rows*cols);" in text
    assert "const float2 img_pair0 = img_pair0_ok ? *reinterpret_cast<const float2*>(img + (r * cols + c)) : " \
           "float2();" in text
    assert text.count("(img_pair0_ok ? img_pair0.x : img[r * cols + c])") == 1
    assert text.count("(img_pair0_ok ? img_pair0.y : img[r * cols + c + 1])") == 2
    assert text.count("img_pair1_ok ? img_pair1.y") == 2 and text.count("img_pair1_ok ? img_pair1.x") == 2
    # Both pairs loaded where the block first reads the image, after the index's variables are set: the second
    # load is not held behind the comparisons on the first.
    order = [text.index(line) for line in ("int c = 2 * oc;", "const bool img_pair0_ok", "const bool img_pair1_ok",
                                           "float m =")]
    assert order == sorted(order)
    (made,) = pair_rewrites(loaded(PAIRS, "pair_sums")[1])
    assert "const int2 x_pair0 = x_pair0_ok ? *reinterpret_cast<const int2*>(x + (k)) : int2();" in kernel_text(made)


def test_a_pair_is_not_hoisted_above_its_index_variables():
    read = "    if (k < n) total += x[k];\n"
    source = (ROOT / PAIRS).read_text().replace(read, read + "    int j = k + 4;\n    total += x[j] + x[j + 1];\n")
    document = CudaDocument(source, PAIRS)
    (made,) = pair_rewrites(original_candidate(document, "pair_sums"))
    text = kernel_text(made)
    assert text.index("int j = k + 4;") < text.index("const bool x_pair1_ok") and \
        text.index("const bool x_pair0_ok") < text.index("if (k < n)")


def test_pairs_compose_with_block_size():
    _, naive = loaded("examples/maxpool2x2.cu", "maxpool2x2")
    (paired,) = pair_rewrites(naive)
    assert "block_size" in {edit.rule for edit in RulePolicy().propose(paired.candidate, PolicyContext())}
    for resized in (e for e in RulePolicy().propose(naive, PolicyContext()) if e.rule == "block_size"):
        (both,) = pair_rewrites(resized.candidate)
        assert both.candidate.contract.launch == resized.candidate.contract.launch
        assert compile_nvrtc(both.candidate.unit, arch="sm_90").ok
