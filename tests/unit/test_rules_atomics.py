"""The atomics rule family (optiml_engine/policies/rules/atomics.py): where atomic_block_reduce and
shared_privatization fire, where they must not, and that every rewrite compiles with NVRTC without spills.
The GPU half (every rewrite verified against its original) is tests/gpu/test_rules_atomics_gpu.py."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.model import Candidate
from optiml_engine.policies.base import Rule
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import all_rules
from optiml_engine.policies.rules.atomics import RULES, AtomicBlockReduce, SharedPrivatization
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "rules" / "atomics"
REDUCE, PRIVATIZE = AtomicBlockReduce(), SharedPrivatization()

# (rule, file, kernel, how many rewrites: the original launch and two grid-stride shapes, unless said otherwise)
FIRES = [
    (REDUCE, "examples/dot_atomic.cu", "dot_atomic", 3),
    (REDUCE, "tests/rules/atomics/sum_squares_exit.cu", "sum_squares_exit", 3),
    (REDUCE, "tests/rules/atomics/count_positive.cu", "count_positive", 3),
    (REDUCE, "tests/rules/atomics/max_abs_slot.cu", "max_abs_slot", 3),
    (REDUCE, "tests/rules/atomics/min_key_matrix.cu", "min_key_matrix", 2),   # blocks of 100: grid-stride only
    (PRIVATIZE, "examples/histogram64.cu", "histogram64", 3),
    (PRIVATIZE, "tests/rules/atomics/byte_histogram.cu", "byte_histogram", 3),
    (PRIVATIZE, "tests/rules/atomics/weighted_bins.cu", "weighted_bins", 3),
    (PRIVATIZE, "tests/rules/atomics/pair_bins.cu", "pair_bins", 3),
]
NEGATIVES = ["compact_positive", "scatter_add", "capped_sum", "positive_sum_return", "block_sum", "shifted_slot",
             "last_writer", "four_sums", "capped_histogram", "sized_histogram"]
FIRING_EXAMPLES = {"dot_atomic.cu", "histogram64.cu"}


def load(path: str | Path, kernel: str) -> tuple[str, Candidate]:
    text = (ROOT / path).read_text()
    return text, original_candidate(CudaDocument(text, str(path)), kernel)


def file_view(path: str | Path, kernel: str) -> KernelView:
    return KernelView((ROOT / path).read_text(), str(path), kernel)


def source(text: str, kernel: str, path: str = "user/atomics.cu") -> Candidate:
    return original_candidate(CudaDocument(textwrap.dedent(text).lstrip("\n"), path), kernel)


def rewrites(rule: Rule, candidate: Candidate):
    return rule.rewrite(KernelView.of(candidate), candidate)


def assert_compiles(candidate: Candidate) -> None:
    result = compile_nvrtc(candidate.unit, arch="sm_90")
    assert result.ok, f"{candidate.description}\n{result.log}\n{candidate.unit.text}"
    assert result.resources.spill_store_bytes == 0 and result.resources.spill_load_bytes == 0


def test_the_family_is_discovered():
    names = {rule.name for rule in all_rules()}
    assert {"atomic_block_reduce", "shared_privatization"} <= names
    assert all(rule.symptom == "atomics" for rule in RULES)


@pytest.mark.parametrize("rule, path, kernel, count", FIRES, ids=[f"{r.name}-{k}" for r, _, k, _ in FIRES])
def test_fires_and_every_rewrite_compiles(rule, path, kernel, count):
    _, original = load(path, kernel)
    assert rule.detect(file_view(path, kernel)), "no lint on the user's file"
    matches = rule.detect(KernelView.of(original))
    assert matches and all(m.symptom == "atomics" and m.rule == rule.name for m in matches)
    edits = rewrites(rule, original)
    assert len(edits) == count
    assert len({e.description for e in edits}) == count
    for edit in edits:
        assert edit.rule == rule.name and edit.symptom == "atomics"
        assert "__syncthreads();" in edit.candidate.unit.text
        assert edit.candidate.unit.text.startswith(original.unit.text.split("\n")[0])   # the #line directive kept
        # Same arrays and scalars: only the launch may change.
        assert edit.candidate.contract.model_copy(update={"launch": original.contract.launch}) == original.contract
        for binding in [original.contract.sizes, *original.contract.checks]:
            resolve(edit.candidate.contract, binding)
        assert_compiles(edit.candidate)


@pytest.mark.parametrize("rule, path, kernel, count", FIRES, ids=[f"{r.name}-{k}" for r, _, k, _ in FIRES])
def test_a_rewrite_is_not_rewritten_again(rule, path, kernel, count):
    _, original = load(path, kernel)
    for edit in rewrites(rule, original):
        view = KernelView.of(edit.candidate)
        assert not REDUCE.detect(view) and not PRIVATIZE.detect(view)


@pytest.mark.parametrize("kernel", NEGATIVES)
def test_does_not_fire(kernel):
    path = KERNELS / "negatives.cu"
    _, original = load(path, kernel)
    for rule in RULES:
        assert not rule.detect(file_view(path, kernel)), rule.name
        assert not rewrites(rule, original), rule.name


@pytest.mark.parametrize("path", [p for p in sorted((ROOT / "examples").glob("*.cu")) if p.name not in FIRING_EXAMPLES],
                         ids=lambda p: p.stem)
def test_other_examples_are_left_alone(path):
    for kernel in CudaDocument(path.read_text(), str(path)).model.kernels:
        assert not any(rule.detect(file_view(path, kernel.name)) for rule in RULES)


def test_dot_atomic_reduces_in_the_block_and_adds_once():
    _, original = load("examples/dot_atomic.cu", "dot_atomic")
    first, strided, _ = rewrites(REDUCE, original)
    assert first.candidate.contract.launch == original.contract.launch
    text = first.candidate.unit.text
    assert "optiml_acc += (float)(a[i] * b[i]);" in text
    assert text.count("atomicAdd(") == 1 and "atomicAdd(result, optiml_acc);" in text
    assert text.count("__shfl_down_sync") == 2
    assert strided.candidate.contract.launch.grid == ["min(cdiv((n),256),1024)"]
    assert strided.candidate.contract.launch.block == ["256"]
    assert "i < n; i += blockDim.x * gridDim.x)" in strided.candidate.unit.text
    assert resolve(strided.candidate.contract, {"n": 1}).grid[0] == 1


def test_an_early_exit_becomes_a_condition_around_the_element():
    _, original = load("tests/rules/atomics/sum_squares_exit.cu", "sum_squares_exit")
    first, strided, _ = rewrites(REDUCE, original)
    assert "return" not in first.candidate.unit.text
    assert "if (idx < count) {" in first.candidate.unit.text
    # The loop variable drops `const`: the loop increments it.
    assert "for (int idx = threadIdx.x + blockDim.x * blockIdx.x; idx < count;" in strided.candidate.unit.text


def test_max_starts_from_the_identity_and_keeps_the_uniform_slot():
    _, original = load("tests/rules/atomics/max_abs_slot.cu", "max_abs_slot")
    text = rewrites(REDUCE, original)[0].candidate.unit.text
    assert "int optiml_acc = (int)((-2147483647 - 1));" in text
    assert "atomicMax(&peaks[slot], optiml_acc);" in text


def test_a_product_bound_is_translated_and_partial_warps_get_no_shuffle_at_the_original_launch():
    _, original = load("tests/rules/atomics/min_key_matrix.cu", "min_key_matrix")
    edits = rewrites(REDUCE, original)
    assert all("grid-stride" in e.description for e in edits)   # blocks of 100 threads are not whole warps
    assert edits[0].candidate.contract.launch.grid == ["min(cdiv(((rows)*(cols)),256),1024)"]


def test_histogram_bins_come_from_the_contract_or_from_the_keys():
    cases = {("examples/histogram64.cu", "histogram64"): 64,
             ("tests/rules/atomics/byte_histogram.cu", "byte_histogram"): 256,
             ("tests/rules/atomics/weighted_bins.cu", "weighted_bins"): 512,   # the largest check size
             ("tests/rules/atomics/pair_bins.cu", "pair_bins"): 16}             # `% 16` and `& 15`
    for (path, kernel), bins in cases.items():
        _, original = load(path, kernel)
        for edit in rewrites(PRIVATIZE, original):
            assert f"({bins} bins)" in edit.description
            assert re.search(rf"__shared__ [\w ]+ optiml_bins\[{bins}\];", edit.candidate.unit.text)


def test_histogram_keys_outside_the_shared_bins_still_reach_global_memory():
    _, original = load("examples/histogram64.cu", "histogram64")
    text = rewrites(PRIVATIZE, original)[0].candidate.unit.text
    assert "if ((unsigned long long)optiml_key < 64)" in text
    assert "atomicAdd(&bins[optiml_key], 1u);" in text
    assert "if (optiml_count != 0)" in text and "atomicAdd(&bins[optiml_bin], optiml_count);" in text


SUM = """
    /* @optiml
       sizes:  n=100000
       check:  n=1
       x:      in    float[n]
       out:    inout float[1] const(0)
       launch: {launch}
    */
    __global__ void partial_sum(const float* x, float* out, int n)
    {{
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) atomicAdd(out, x[i]);
    }}
"""


def test_a_grid_that_does_not_cover_n_gets_no_grid_stride_loop():
    # Only the first half of [0, n) is summed: a loop over all of it would add more.
    original = source(SUM.format(launch="grid=cdiv(n,512) block=256"), "partial_sum")
    (edit,) = rewrites(REDUCE, original)
    assert "one element per thread" in edit.description


def test_two_dimensional_blocks_are_left_alone():
    original = source(SUM.format(launch="grid=cdiv(n,256) block=(32,8)"), "partial_sum")
    assert REDUCE.detect(KernelView.of(original))   # the syntax alone fits
    assert not rewrites(REDUCE, original)


@pytest.mark.parametrize("function, ctype, value", [
    ("atomicAdd", "double", "x[i]"),
    ("atomicAdd", "unsigned int", "(unsigned int)x[i]"),
    ("atomicAdd", "unsigned long long", "(unsigned long long)x[i]"),
    ("atomicMax", "unsigned int", "(unsigned int)x[i]"),
    ("atomicMax", "long long", "(long long)x[i]"),
    ("atomicMin", "int", "(int)x[i]"),
    ("atomicMin", "unsigned long long", "(unsigned long long)x[i]"),
])
def test_every_reduction_and_type_compiles(function, ctype, value):
    original = source(f"""
        /* @optiml
           sizes:  n=4096
           x:      in    double[n]
           out:    inout {ctype}[1] const(0)
           launch: grid=cdiv(n,128) block=128
        */
        __global__ void reduce_one(const double* x, {ctype}* out, int n)
        {{
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) {{ {function}(out, {value}); }}
        }}
    """, "reduce_one")
    edits = rewrites(REDUCE, original)
    assert len(edits) == 3
    for edit in edits:
        assert_compiles(edit.candidate)


def test_an_address_through_a_cast_is_left_alone():
    original = source("""
        /* @optiml
           sizes:  n=4096
           x:      in    int[n]
           out:    inout long long[1] const(0)
           launch: grid=cdiv(n,128) block=128
        */
        __global__ void add_wide(const int* x, long long* out, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) atomicAdd((unsigned long long*)out, (unsigned long long)x[i]);
        }
    """, "add_wide")
    # The address is a cast of the parameter: not recognised as one of its elements.
    assert not REDUCE.detect(KernelView.of(original))
