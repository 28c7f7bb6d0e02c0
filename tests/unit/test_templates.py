"""The templates (optiml_engine/policies/templates/): where each recognizes its pattern (the examples, the rule
families' test kernels and their negatives), the spaces and both prunings (arithmetic before compiling, the NVRTC
compile report after), that every default instance compiles without spills and launches at every contract size, and
the tuner on synthetic cost surfaces. Their verification on a GPU is tests/gpu/test_templates_gpu.py."""

from __future__ import annotations

import json
import textwrap
from functools import cache
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.model import Candidate, DeviceInfo, ResourceUsage
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.rules import all_rules
from optiml_engine.policies.rules.elementwise import elementwise
from optiml_engine.policies.templates import TemplatePolicy, all_templates, matches
from optiml_engine.policies.templates.base import Instance, Params, Template, TemplateMatch, grid
from optiml_engine.policies.templates.tune import Trial, best, neighbours, tune
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = {template.name: template for template in all_templates()}
EXAMPLES = {
    "add_transposed": {"transpose"}, "blur3x3": {"stencil"}, "col_sum": {"column_reduction"},
    "cross_entropy_rows": {"row_reduction"}, "dot_atomic": {"global_reduction"}, "gemv_rowmajor": {"row_reduction"},
    "histogram64": {"histogram"}, "layernorm_rows": {"row_reduction"}, "maxpool2x2": set(),
    "relu_scale": {"elementwise"}, "row_max": {"row_reduction"}, "sgemm_nt": {"gemm"}, "vector_add": {"elementwise"},
}
# The rule each template generalizes: the template recognizes a kernel exactly where the rule rewrites it.
GENERALIZES = {"transpose": "transpose_tile", "stencil": "stencil_tile", "gemm": "gemm_tile",
               "column_reduction": "column_reduce", "row_reduction": "warp_per_row",
               "global_reduction": "atomic_block_reduce", "histogram": "shared_privatization"}
RULES = {rule.name: rule for rule in all_rules()}


def contracted() -> list[tuple[str, str]]:
    """(file, kernel) of every kernel with a valid contract in examples/ and tests/rules/."""
    found = []
    for path in sorted(ROOT.glob("examples/*.cu")) + sorted(ROOT.glob("tests/rules/*/*.cu")):
        relative = str(path.relative_to(ROOT))
        document = CudaDocument(path.read_text(), relative)
        for kernel in document.model.kernels:
            if kernel.comment is not None and "@optiml" in kernel.comment.text:
                try:
                    original_candidate(document, kernel.name)
                except Exception:
                    continue
                found.append((relative, kernel.name))
    return found


KERNELS = contracted()


@cache
def load(path: str, kernel: str) -> Candidate:
    return original_candidate(CudaDocument((ROOT / path).read_text(), path), kernel)


def source(text: str, kernel: str) -> Candidate:
    return original_candidate(CudaDocument(textwrap.dedent(text).lstrip("\n"), "user/kernels.cu"), kernel)


def matched(node: Candidate, name: str) -> TemplateMatch:
    (match,) = [m for t, m in matches(node) if t.name == name]
    return match


def test_templates_are_discovered():
    assert set(TEMPLATES) == {"elementwise", "global_reduction", "histogram", "row_reduction", "gemm", "transpose",
                              "stencil", "column_reduction"}
    assert all(t.symptom for t in TEMPLATES.values())


@pytest.mark.parametrize("kernel", sorted(EXAMPLES))
def test_recognition_on_the_examples(kernel):
    assert {t.name for t, _ in matches(load(f"examples/{kernel}.cu", kernel))} == EXAMPLES[kernel]


@pytest.mark.parametrize("path, kernel", KERNELS, ids=[f"{Path(p).stem}-{k}" for p, k in KERNELS])
def test_recognition_agrees_with_the_rule_each_template_generalizes(path, kernel):
    """On every contracted kernel of the examples and of the rule families' tests (negatives included)."""
    node = load(path, kernel)
    view = KernelView.of(node)
    found = {t.name: m for t, m in matches(node)}
    for template, rule in GENERALIZES.items():
        rewrites = bool(RULES[rule].detect(view)) and bool(RULES[rule].rewrite(view, node))
        assert (template in found) == rewrites, (template, rule)
    # elementwise: wherever vectorize_16b rewrites, with vector widths; elsewhere one element at a time.
    if "elementwise" in found:
        widths = {p["width"] for p in TEMPLATES["elementwise"].space(found["elementwise"])}
        assert widths == ({1, 2, 4} if RULES["vectorize_16b"].rewrite(view, node) else {1})


def test_elementwise_leaves_loops_and_atomics_to_the_other_templates():
    row = load("examples/row_max.cu", "row_max")
    assert elementwise(KernelView.of(row)) is not None                  # a 1-D thread-indexed kernel ...
    assert "elementwise" not in {t.name for t, _ in matches(row)}       # ... with a loop per element
    assert {t.name for t, _ in matches(load("examples/dot_atomic.cu", "dot_atomic"))} == {"global_reduction"}


def test_every_space_point_renders_a_launch_valid_at_every_contract_size():
    for path, kernel in [(f"examples/{k}.cu", k) for k in EXAMPLES]:
        node = load(path, kernel)
        for template, match in matches(node):
            for params in template.feasible_space(match):
                candidate = template.render(match, params)
                assert candidate.params == node.params and candidate.contract.arrays == node.contract.arrays
                assert f"__launch_bounds__({template.threads(params)})" in candidate.unit.text
                for binding in [candidate.contract.sizes, *candidate.contract.checks]:
                    at = resolve(candidate.contract, binding)
                    assert at.block[0] * at.block[1] * at.block[2] == template.threads(params), (template.name, params)


def test_spaces_hold_the_parameters_of_each_family():
    keys = {name: set(TEMPLATES[name].space(matched(load(f"examples/{kernel}.cu", kernel), name))[0])
            for kernel, names in EXAMPLES.items() for name in names}
    assert keys == {"gemm": {"BM", "BN", "BK", "TM", "TN"}, "histogram": {"block", "blocks_per_sm", "copies", "items"},
                    "row_reduction": {"threads_per_row", "rows_per_block"},
                    "elementwise": {"block", "items", "width"},
                    "global_reduction": {"block", "blocks_per_sm", "items"}, "transpose": {"tile", "rows"},
                    "stencil": {"width", "block_rows", "height"}, "column_reduction": {"width", "height"}}


def refuse_to_compile(candidate: Candidate):
    raise AssertionError(f"compiled an instance the arithmetic excludes: {candidate.description}")


def test_over_the_thread_limit_is_pruned_before_compiling():
    template, match = TEMPLATES["gemm"], matched(load("examples/sgemm_nt.cu", "sgemm_nt"), "gemm")
    params = {"BM": 128, "BN": 128, "BK": 8, "TM": 2, "TN": 2}             # 64 x 64 threads
    assert params in template.space(match) and params not in template.feasible_space(match)
    assert template.exceeded(match, params) == "4096 threads per block (at most 1024)"
    instance = template.instance(match, params, compile=refuse_to_compile)
    assert instance.candidate is None and instance.pruned.startswith("4096 threads")


def test_over_the_static_shared_memory_limit_is_pruned_before_compiling():
    node = source("""
        /* @optiml
           sizes:  n=100000
           keys:   in    int[n] range(0,100000)
           bins:   inout unsigned int[4096] const(0)
           launch: grid=cdiv(n,256) block=256
        */
        __global__ void wide_histogram(const int* keys, unsigned int* bins, int n)
        {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) atomicAdd(&bins[keys[i] & 4095], 1u);
        }""", "wide_histogram")
    template, match = TEMPLATES["histogram"], matched(node, "histogram")
    assert match.plan.bins == 4096
    fits, over = ({"block": 256, "blocks_per_sm": 2, "copies": copies, "items": 1} for copies in (2, 4))
    assert template.feasible(match, fits)                                   # 2 x 16 KiB
    assert "65536 bytes of static shared memory" in template.exceeded(match, over)
    assert template.instance(match, over, compile=refuse_to_compile).pruned


def test_threads_per_sm_depend_on_the_device():
    template, match = TEMPLATES["histogram"], matched(load("examples/histogram64.cu", "histogram64"), "histogram")
    params = {"block": 1024, "blocks_per_sm": 2, "copies": 1, "items": 1}
    ada = DeviceInfo(index=0, name="L4", compute_capability="8.9", sm_count=58, l2_bytes=1, memory_bytes=1,
                     sm_clock_mhz=1, memory_clock_mhz=1, driver="13.0", runtime="13.0")
    assert template.feasible(match, params) and template.feasible(match, params, ada.model_copy(
        update={"compute_capability": "9.0"}))
    assert template.exceeded(match, params, ada) == "2048 threads per SM (at most 1536)"


def test_the_compile_report_prunes_spills_and_registers():
    template, match = TEMPLATES["gemm"], matched(load("examples/sgemm_nt.cu", "sgemm_nt"), "gemm")
    params = {"BM": 128, "BN": 128, "BK": 8, "TM": 8, "TN": 8}
    fine = ResourceUsage(registers=128, shared_bytes=8448, stack_frame_bytes=0, spill_store_bytes=0,
                         spill_load_bytes=0)
    assert template.feasible(match, params, resources=fine)
    assert template.exceeded(match, params, resources=fine.model_copy(update={"registers": 256})) == \
        "256 registers per thread (at most 255)"
    wide = {"BM": 128, "BN": 128, "BK": 8, "TM": 4, "TN": 8}                 # 512 threads: 128 registers each at most
    assert template.feasible(match, wide, resources=fine)
    assert template.exceeded(match, wide, resources=fine.model_copy(update={"registers": 130})) == \
        "130 registers x 512 threads (at most 65536 per block)"
    assert "spills 8 bytes" in template.exceeded(match, params, resources=fine.model_copy(
        update={"spill_store_bytes": 8, "spill_load_bytes": 8}))
    # A real report: the same instance held to 32 registers (8 blocks of 256 per SM) spills, and is pruned after
    # its compile.

    def squeezing(candidate: Candidate):
        text = candidate.unit.text.replace("__launch_bounds__(256)", "__launch_bounds__(256, 8)")
        return compile_nvrtc(candidate.unit.model_copy(update={"text": text}), arch="sm_90")

    squeezed = template.instance(match, params, compile=squeezing)
    assert squeezed.compiled.ok and squeezed.compiled.resources.spill_store_bytes > 0
    assert squeezed.pruned.startswith("spills")
    unsqueezed = template.instance(match, params)
    assert unsqueezed.pruned is None and unsqueezed.compiled.resources.shared_bytes == template.shared_bytes(match,
                                                                                                            params)


def default_instances() -> list[tuple[str, str, str]]:
    return [(path, kernel, template.name) for path, kernel in KERNELS for template, _ in matches(load(path, kernel))]


DEFAULTS = default_instances()


@pytest.mark.parametrize("path, kernel, name", DEFAULTS, ids=[f"{k}-{n}" for _, k, n in DEFAULTS])
def test_every_default_instance_compiles_without_spills(path, kernel, name):
    template, match = TEMPLATES[name], matched(load(path, kernel), name)
    defaults = template.defaults(match)
    assert 1 <= len(defaults) <= 6 and all(template.feasible(match, params) for params in defaults)
    for params in defaults:
        candidate = template.render(match, params)
        result = compile_nvrtc(candidate.unit, arch="sm_90")
        assert result.ok, result.log
        assert template.feasible(match, params, resources=result.resources), template.exceeded(
            match, params, resources=result.resources)


def test_defaults_spread_over_the_space():
    template, match = TEMPLATES["row_reduction"], matched(load("examples/row_max.cu", "row_max"), "row_reduction")
    space = template.feasible_space(match)
    defaults = template.defaults(match)
    assert len(defaults) == 6 and defaults[0] == space[0] and defaults[-1] == space[-1]
    assert len({d["threads_per_row"] for d in defaults}) >= 4


def test_row_groups_of_warps_wait_on_their_own_barrier():
    template = TEMPLATES["row_reduction"]
    match = matched(load("examples/layernorm_rows.cu", "layernorm_rows"), "row_reduction")
    candidate = template.render(match, {"threads_per_row": 128, "rows_per_block": 4})
    text = candidate.unit.text
    assert "int row = blockIdx.x * 4 + threadIdx.x / 128;" in text
    assert 'asm volatile("bar.sync %0, 128;" :: "r"(group + 1) : "memory");' in text and "__syncthreads" not in text
    assert "sum = sum_by_warp[group * 4 + 0];" in text
    assert candidate.contract.launch.grid == ["cdiv(rows,4)"] and candidate.contract.launch.block == ["512"]
    assert compile_nvrtc(candidate.unit, arch="sm_90").ok


def test_histogram_copies_split_the_warps_and_add_up_per_bin():
    template = TEMPLATES["histogram"]
    match = matched(load("examples/histogram64.cu", "histogram64"), "histogram")
    candidate = template.render(match, {"block": 256, "blocks_per_sm": 4, "copies": 2, "items": 4})
    text = candidate.unit.text
    assert "__shared__ unsigned int optiml_bins[128];" in text
    assert "const int optiml_copy = threadIdx.x / 32 % 2 * 64;" in text
    assert "atomicAdd(&optiml_bins[optiml_copy + optiml_key], 1u);" in text
    assert "optiml_bins[optiml_bin] + optiml_bins[64 + optiml_bin]" in text and "#pragma unroll 4" in text
    assert candidate.contract.launch.grid == ["min(cdiv((n),1024),528)"]


def test_elementwise_groups_of_vectors_with_a_scalar_tail():
    template = TEMPLATES["elementwise"]
    match = matched(load("examples/vector_add.cu", "vector_add"), "elementwise")
    text = template.render(match, {"block": 128, "items": 4, "width": 2}).unit.text
    assert "const int i_first = blockIdx.x * (blockDim.x * 4) + threadIdx.x * 2;" in text
    assert "const float2 a_v1 = *reinterpret_cast<const float2*>(a + i_first + blockDim.x * 2);" in text
    assert "if (i_first + blockDim.x * 2 + 2 <= n) {" in text
    assert "const int i = i_first + lane / 2 * blockDim.x * 2 + lane % 2;" in text
    launch = template.render(match, {"block": 128, "items": 4, "width": 2}).contract.launch
    assert launch.grid == ["cdiv(n,512)"] and launch.block == ["128"]


def test_the_policy_proposes_feasible_defaults_of_each_matching_template():
    node = load("examples/cross_entropy_rows.cu", "cross_entropy_rows")
    edits = TemplatePolicy().propose(node, PolicyContext())
    assert 1 <= len(edits) <= 6 and {e.rule for e in edits} == {"row_reduction"}
    assert all(e.symptom == "uncoalesced_loads" and e.description == e.candidate.description for e in edits)
    assert TemplatePolicy().propose(load("examples/maxpool2x2.cu", "maxpool2x2"), PolicyContext()) == []


@pytest.mark.parametrize("example, name", [("cross_entropy_rows", "row_reduction"), ("sgemm_nt", "gemm")])
def test_on_its_own_instance_the_policy_proposes_the_neighbours_of_its_parameters(example: str, name: str):
    """The search tree tunes a template: a node that is an instance gets the instances one parameter step away."""
    policy = TemplatePolicy(templates=[TEMPLATES[name]])
    node = load(f"examples/{example}.cu", example)
    (template, match), = matches(node, [TEMPLATES[name]])
    first = policy.propose(node, PolicyContext())[0]
    tuned = policy.propose(first.candidate, PolicyContext())
    params = policy.instances[first.candidate.unit.text][2]
    expected = neighbours(template.feasible_space(match), params)
    assert tuned and len(tuned) <= len(expected)
    assert all(policy.instances[e.candidate.unit.text][2] in expected for e in tuned)
    assert all("a neighbour of" in e.description and e.rule == name for e in tuned)
    # Each neighbour differs from the instance in exactly one parameter; none is the instance itself.
    for edit in tuned:
        other = policy.instances[edit.candidate.unit.text][2]
        assert sum(other[k] != v for k, v in params.items()) == 1
    # A node the policy did not make is recognized afresh, never taken for an instance.
    assert first.description in {e.description for e in policy.propose(node, PolicyContext())}


# ---------------------------------------------------------------------------------------------------------------
# The tuner, on synthetic cost surfaces (no compiler)


class Surface(Template):
    """A template whose instances are free to make: the candidate's description carries its parameters."""

    name, symptom = "surface", "synthetic"

    def __init__(self, node: Candidate, space: list[Params], pruned_after_compile: frozenset = frozenset()):
        self.node, self.points, self.pruned_after_compile = node, space, pruned_after_compile

    def recognize(self, view, node):
        return TemplateMatch(self.name, view, node, None, "synthetic")

    def space(self, match):
        return self.points

    def threads(self, params):
        return 32

    def shared_bytes(self, match, params):
        return 0

    def rewrite(self, match, params):
        return self.node.model_copy(update={"description": json.dumps(params)})

    def instance(self, match, params, device=None, compile=None):
        pruned = "spills" if tuple(params.values()) in self.pruned_after_compile else None
        return Instance(params, self.rewrite(match, params), None, pruned)


def bowl(params: Params) -> float:
    """One minimum, at a=5 b=2 c=1."""
    return 1.0 + (params["a"] - 5) ** 2 + 2 * (params["b"] - 2) ** 2 + (params["c"] - 1) ** 2


def run(space: list[Params], cost, budget: int, seed: int, pruned: frozenset = frozenset()):
    node = load("examples/vector_add.cu", "vector_add")
    template = Surface(node, space, pruned)
    calls: list[Params] = []

    def evaluate(candidate: Candidate) -> float | None:
        params = json.loads(candidate.description)
        calls.append(params)
        return cost(params)

    trials = tune(template, template.recognize(KernelView.of(node), node), evaluate, budget, seed)
    return trials, calls


SPACE = grid(a=tuple(range(8)), b=tuple(range(8)), c=(0, 1, 2))


@pytest.mark.parametrize("seed", range(8))
def test_the_tuner_finds_the_minimum_of_a_bowl(seed):
    trials, calls = run(SPACE, bowl, budget=32, seed=seed)
    assert best(trials).params == {"a": 5, "b": 2, "c": 1} and len(calls) == 32
    assert len({json.dumps(c) for c in calls}) == len(calls)         # no point measured twice


def test_the_tuner_is_exhaustive_when_the_space_fits_the_budget():
    space = grid(a=(1, 2), b=(3,), c=(0, 1))
    trials, calls = run(space, bowl, budget=12, seed=3)
    assert calls == space and [t.params for t in trials] == space


def test_the_tuner_is_deterministic_per_seed():
    first, _ = run(SPACE, bowl, budget=16, seed=7)
    again, _ = run(SPACE, bowl, budget=16, seed=7)
    other, _ = run(SPACE, bowl, budget=16, seed=8)
    assert first == again and first != other


def test_the_tuner_respects_the_budget_and_does_not_count_compile_pruned_points():
    pruned = frozenset((a, b, c) for a in range(8) for b in range(8) for c in range(3) if b % 2)
    trials, calls = run(SPACE, bowl, budget=20, seed=1, pruned=pruned)
    assert len(calls) == 20 and all(t.time_ms is None for t in trials if t.pruned)
    assert len(trials) == 20 + sum(t.pruned is not None for t in trials)
    assert not any(tuple(c.values()) in pruned for c in calls)


def test_the_tuner_handles_rejected_candidates():
    def rejected_past_four(params: Params) -> float | None:
        return None if params["a"] >= 5 else bowl(params)

    trials, calls = run(SPACE, rejected_past_four, budget=40, seed=2)
    assert len(calls) == 40 and any(t.time_ms is None and t.pruned is None for t in trials)
    assert best(trials) == Trial({"a": 4, "b": 2, "c": 1}, 2.0)


def test_neighbours_are_one_parameter_one_value_away():
    space = [p for p in SPACE if p["a"] != 3]                            # a hole: a=2 neighbours a=4
    assert neighbours(space, {"a": 2, "b": 0, "c": 1}) == [
        {"a": 1, "b": 0, "c": 1}, {"a": 4, "b": 0, "c": 1}, {"a": 2, "b": 1, "c": 1}, {"a": 2, "b": 0, "c": 0},
        {"a": 2, "b": 0, "c": 2}]
