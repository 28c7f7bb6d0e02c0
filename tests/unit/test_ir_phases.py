"""A strided transposed convolution's taps walked by phase (ir/phases.py): written as a gather that skips the taps off
the stride (`continue`, a negated test, a dilation coprime to the stride) or as a loop that walks only the useful ones
from `(o + P) % S`, the rewritten program visits only the taps on the stride, computes what the kernel computes
(interpreted, at every check size), and is a matrix product per phase (ir/implicit_gemm.py) whose schedules equal
the naive kernel on the CPU emulator, an odd number of outputs included (the last phase one output short). Loops whose
every effect is not under the stride's test, or whose stride is not a constant, are left as written."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.implicit_gemm import implicit_gemm
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.phases import phased
from optiml_engine.ir.printer import c_expr
from optiml_engine.ir.program import For, walk
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_implicit_gemm import assert_schedules_compute_the_kernel
from tests.unit.test_ir_lift import candidate_of

UP = """/* @optiml
   sizes:  N=4 C=64 K=32 L=4096
   check:  N=2 C=3 K=5 L=7; N=1 C=1 K=1 L=1; N=1 C=4 K=3 L=6
   x:      in  float[N*C*L]
   w:      in  float[C*K*{taps}]
   y:      out float[N*K*({out})]
   launch: grid=(cdiv({out},128),N*K) block=128
   tol:    1e-4
*/
__global__ void up(const float* x, const float* w, float* y, int N, int C, int K, int L)
{{
    int LO = {out};
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= LO) return;
    int n = blockIdx.y / K, k = blockIdx.y % K;
    float acc = 0.0f;
    for (int c = 0; c < C; ++c) {{
        {taps_loop}
    }}
    y[(n * K + k) * LO + o] = acc;
}}
"""

SKIPPED = UP.format(taps=3, out="(L - 1) * 2 - 2 * 1 + 3", taps_loop="""
        for (int t = 0; t < 3; ++t) {
            int num = o + 1 - t;
            if (num < 0 || num % 2 != 0) continue;
            int i = num / 2;
            if (i >= L) continue;
            acc += x[(n * C + c) * L + i] * w[(c * K + k) * 3 + t];
        }""")
TESTED = UP.format(taps=4, out="(L - 1) * 2 - 2 * 1 + 4", taps_loop="""
        for (int t = 0; t < 4; ++t)
            if ((o + 1 - t) % 2 == 0) {
                int i = (o + 1 - t) / 2;
                if (i >= 0 && i < L) acc += w[(c * K + k) * 4 + t] * x[(n * C + c) * L + i];
            }""")
DILATED = UP.format(taps=3, out="(L - 1) * 3 - 2 * 2 + 2 * (3 - 1) + 1", taps_loop="""
        for (int t = 0; t < 3; ++t) {
            int num = o + 2 - 2 * t;
            if (num < 0 || num % 3 != 0 || num / 3 >= L) continue;
            acc += x[(n * C + c) * L + num / 3] * w[(c * K + k) * 3 + t];
        }""")
WALKED = UP.format(taps=8, out="(L - 1) * 4 - 2 * 2 + 8", taps_loop="""
        for (int t = (o + 2) % 4; t < 8; t += 4) {
            int i = (o + 2 - t) / 4;
            if (i >= 0 && i < L) acc += x[(n * C + c) * L + i] * w[(c * K + k) * 8 + t];
        }""")


def assert_interpreted_equals_kernel(naive, program) -> None:
    """The program interpreted computes the naive kernel's `y` at every check size."""
    for seed, binding in enumerate(naive.contract.checks):
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=seed)
        got = run_program(program, resolve(naive.contract, binding), naive.contract.arrays, inputs)
        assert compare(np, "y", got["y"], run_on_cpu(naive, binding, inputs)["y"], "float32", 1e-4, 0).ok, binding


def _loops(program) -> list[For]:
    return [s for s in walk(program.body) if isinstance(s, For)]


@pytest.mark.parametrize("text, taps", [(SKIPPED, 2), (TESTED, 2), (DILATED, 1), (WALKED, 2)],
                         ids=["skipped_by_continue", "tested", "dilated_coprime", "walked_from_its_phase"])
def test_a_strided_transposed_convolution_walks_only_its_taps_and_is_a_product_per_phase(text, taps) -> None:
    """The taps loop runs ceil(K / S) times from 0 for every output, its stride test gone; interpreted, the program
    computes the kernel's outputs at every check size; as a matrix product its phase `o % S` is the batch, no size
    assumed (2 L - 1 outputs: the split's points past the end store nothing), and its schedules compute the kernel."""
    naive = candidate_of("up.cu", text)
    program = lift(naive)
    by_phase = phased(program)
    assert by_phase is not program
    inner = _loops(by_phase)[-1]
    assert inner.start.text == "0" and inner.step.text == "1" and inner.stop.text == str(taps), str(by_phase)
    assert "% 2 != 0" not in str(by_phase) and "% 3 != 0" not in str(by_phase)
    assert_interpreted_equals_kernel(naive, by_phase)
    product = implicit_gemm(by_phase)
    shape = shape_of(product)
    assert "contraction" in shape.families and product.assumption is None, str(product)
    assert str(product).splitlines()[1].startswith("parallel for batch in [0, "), str(product)
    schedules = space(shape, "contraction")
    assert_schedules_compute_the_kernel(naive, product, [schedules[0], schedules[-1]], seed=5)


@pytest.mark.parametrize("text", [
    SKIPPED.replace("if (num < 0 || num % 2 != 0) continue;", "calls += 1; if (num < 0 || num % 2 != 0) continue;")
    .replace("float acc = 0.0f;", "float acc = 0.0f; int calls = 0;").replace("= acc;", "= acc + calls;"),
    DILATED.replace("2 * t", "3 * t"),
    SKIPPED.replace("int num = o + 1 - t;", "int num = o - 1 - t;"),
], ids=["an_effect_outside_the_test", "dilation_sharing_the_stride", "reach_that_may_be_negative"])
def test_a_loop_whose_taps_are_not_all_on_one_stride_is_left_as_written(text) -> None:
    """A count that every tap adds to, a dilation that meets the stride only at some outputs (3 and 3), an output
    less a padding (its first tap not the least of the loop's): the program is left as it is."""
    program = lift(candidate_of("up.cu", text))
    assert phased(program) is program, str(program)


SIZED = """/* @optiml
   sizes:  N=4 C=64 K=32 L=4096 S=2 P=1
   check:  N=2 C=3 K=5 L=7 S=2 P=1; N=1 C=1 K=1 L=1 S=2 P=1; N=1 C=4 K=3 L=6 S=3 P=1; N=2 C=2 K=2 L=5 S=1 P=1; N=1 C=2 K=3 L=4 S=2 P=2
   x:      in  float[N*C*L]
   w:      in  float[C*K*3]
   y:      out float[N*K*((L-1)*S-2*P+3)]
   launch: grid=(cdiv((L-1)*S-2*P+3,128),N*K) block=128
   tol:    1e-4
*/
__global__ void up(const float* x, const float* w, float* y, int N, int C, int K, int L, int S, int P)
{
    int LO = (L - 1) * S - 2 * P + 3;
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o >= LO) return;
    int n = blockIdx.y / K, k = blockIdx.y % K;
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
        for (int t = 0; t < 3; ++t) {
            int num = o + P - t;
            if (num < 0 || num % S != 0) continue;
            int i = num / S;
            if (i >= L) continue;
            acc += x[(n * C + c) * L + i] * w[(c * K + k) * 3 + t];
        }
    y[(n * K + k) * LO + o] = acc;
}
"""


def test_a_stride_and_a_padding_passed_as_sizes_are_walked_where_they_are_a_stride_and_a_padding() -> None:
    """`stride` and `padding` arguments: the taps walked by phase under `S > 0 && P >= 0`, the program as written
    elsewhere; the interpreted program and the product per phase's schedules compute the kernel at every check size
    (strides 1 to 3, paddings 1 and 2, outputs of 2 L - 1 and 3 L - 2)."""
    naive = candidate_of("up.cu", SIZED)
    program = lift(naive)
    by_phase = phased(program)
    assert by_phase.assumption is not None and by_phase.assumption.otherwise == program
    assert "S > 0" in str(by_phase) and "P >= 0" in str(by_phase), str(by_phase)
    assert_interpreted_equals_kernel(naive, by_phase)
    product = implicit_gemm(by_phase)
    shape = shape_of(product)
    assert "contraction" in shape.families and product.assumption.otherwise == program, str(product)
    # Neither assumes the outputs a multiple of the stride: the last phase's points past the end are guarded.
    assert "%" not in c_expr(product.assumption.condition), c_expr(product.assumption.condition)
    schedules = space(shape, "contraction")
    assert_schedules_compute_the_kernel(naive, product, [schedules[0], schedules[-1]], seed=5)


def test_the_schedule_policy_proposes_the_product_per_phase() -> None:
    from optiml_engine.policies.base import PolicyContext
    from optiml_engine.policies.schedules import PHASED, PHASED_PRODUCT, SchedulePolicy
    edits = SchedulePolicy().propose(candidate_of("up.cu", SKIPPED), PolicyContext())
    assert any(edit.rule == "schedule_contraction" and edit.description.endswith(f"({PHASED_PRODUCT})")
               for edit in edits)
    assert any(edit.rule == "schedule_map" and edit.description.endswith(f"({PHASED})") for edit in edits)
