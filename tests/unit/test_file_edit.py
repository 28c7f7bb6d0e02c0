"""From a rewritten candidate back to the user's file: kernel replaced, contract launch line and launch sites
rewritten when the geometry changed, a unified diff, and a file that still parses with the same kernels."""

from pathlib import Path

from optiml_engine.candidate import original_candidate
from optiml_engine.model import LaunchRule
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.kernel_view import derived
from optiml_engine.policies.rules import RulePolicy
from optiml_engine.source.edit import apply_candidate, kernel_parts
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]


def load(name: str):
    path = ROOT / "examples" / f"{name}.cu"
    text = path.read_text()
    document = CudaDocument(text, f"examples/{name}.cu")
    return text, document, original_candidate(document, name)


def test_geometry_change_rewrites_kernel_contract_and_launch_site():
    text, document, naive = load("row_max")
    edit = next(e for e in RulePolicy().propose(naive, PolicyContext()) if e.rule == "warp_per_row")
    result = apply_candidate(text, document.model, naive, edit.candidate)
    assert "-   launch: grid=cdiv(rows,256) block=256" in result.diff
    assert "+   launch: grid=cdiv(rows,8) block=256" in result.diff
    assert "__shfl_xor_sync" in result.new_text and "#line" not in result.new_text
    assert "row_max<<<(((rows) + 8 - 1) / 8), 256>>>(x, out, rows, cols);" in result.new_text
    again = CudaDocument(result.new_text, "examples/row_max.cu")
    assert [k.name for k in again.model.kernels] == ["row_max"] and not again.model.syntax_problems
    assert again.contract("row_max").launch == edit.candidate.contract.launch


def test_two_dimensional_launch_sites_use_dim3():
    text, document, naive = load("add_transposed")
    rule = LaunchRule(grid=["cdiv(cols,32)", "cdiv(rows,32)"], block=["32", "8"])
    moved = derived(naive, naive.unit.text, "same kernel, other geometry", launch=rule)
    result = apply_candidate(text, document.model, naive, moved)
    assert ("add_transposed<<<dim3((((cols) + 32 - 1) / 32), (((rows) + 32 - 1) / 32)), dim3(32, 8)>>>"
            "(A, B, out, rows, cols);") in result.new_text
    assert "launch: grid=(cdiv(cols,32),cdiv(rows,32)) block=(32,8)" in result.new_text


def test_same_geometry_touches_only_the_kernel():
    text, document, naive = load("vector_add")
    edit = next(e for e in RulePolicy().propose(naive, PolicyContext()) if e.rule == "restrict_readonly")
    result = apply_candidate(text, document.model, naive, edit.candidate)
    changed = [line for line in result.diff.splitlines()
               if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))]
    assert changed == ["-__global__ void vector_add(const float* a, const float* b, float* c, int n)",
                       "+__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b, "
                       "float* __restrict__ c, int n)"]


def test_helpers_a_rewrite_placed_before_the_kernel_go_above_its_contract():
    """Between the contract and the kernel they would leave the kernel without its contract."""
    text, document, naive = load("vector_add")
    unit = naive.unit.text.replace("__global__ void vector_add",
                                   "__device__ float twice(float v) { return 2 * v; }\n__global__ void vector_add")
    rewritten = naive.model_copy(update={"unit": naive.unit.model_copy(update={"text": unit})})
    above, definition = kernel_parts(rewritten)
    assert above == "__device__ float twice(float v) { return 2 * v; }" and definition.startswith("__global__")
    edited = apply_candidate(text, document.model, naive, rewritten).new_text
    assert edited.index("__device__ float twice") < edited.index("@optiml")
    contract = CudaDocument(edited, "examples/vector_add.cu").contract("vector_add")
    assert contract.model_dump(exclude={"location"}) == naive.contract.model_dump(exclude={"location"})


def test_a_launch_line_that_multiplies_is_rewritten():
    """`cdiv(n*2,256)`: the line's value runs to a `#` remark or the block's end, not to the first `*`."""
    text, document, naive = load("vector_add")
    text = text.replace("grid=cdiv(n,256)", "grid=cdiv(n*1,256)")
    document = CudaDocument(text, "examples/vector_add.cu")
    naive = original_candidate(document, "vector_add")
    wider = derived(naive, naive.unit.text, "wider", LaunchRule(grid=["cdiv(n,512)"], block=["512"]))
    edited = CudaDocument(apply_candidate(text, document.model, naive, wider).new_text, "examples/vector_add.cu")
    assert edited.contract("vector_add").launch == wider.contract.launch
