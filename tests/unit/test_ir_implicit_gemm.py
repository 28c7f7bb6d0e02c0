"""A convolution's naive kernel as a matrix product (ir/implicit_gemm.py): written as people write it (a flat
index taken apart with / and %, by sizes or their products, or a 3-D grid; padding by `if` or `continue`; stride),
the rewritten program is a contraction, and its schedules (a plain tile, a register-capped one, a split-K one) equal
the naive kernel on the CPU emulator at the contract's check sizes. Where the factors share a coordinate (a depthwise convolution's input
reads the output channel) or there is no product, the program is left as it is."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.analysis import loads, subexpressions
from optiml_engine.ir.emit import emit
from optiml_engine.ir.implicit_gemm import implicit_gemm
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.printer import c_expr
from optiml_engine.ir.program import Binary, NotLiftable
from optiml_engine.ir.schedule import shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import candidate_of


def assert_schedules_compute_the_kernel(naive, product, schedules, seed: int, bindings=None) -> None:
    """Each schedule of `product` (emitted once) computes the naive kernel's `y` on the CPU emulator at every check
    size (or the given ones)."""
    shape = shape_of(product)
    emitted = [(schedule, emit(product, shape, schedule, naive)) for schedule in schedules]
    for binding in naive.contract.checks if bindings is None else bindings:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=seed)
        expected = run_on_cpu(naive, binding, inputs)
        for schedule, candidate in emitted:
            got = run_on_cpu(candidate, binding, inputs)
            found = compare(np, "y", got["y"], expected["y"], "float32", naive.contract.tol, naive.contract.atol)
            assert found.ok, f"{schedule.describe()} at {binding}: {found.reason}"

CONV2D = """/* @optiml
   sizes:  N=8 C=64 H=56 W=56 K=128 R=3 S=3
   check:  N=2 C=3 H=9 W=7 K=5 R=3 S=3; N=1 C=1 H=1 W=1 K=1 R=1 S=1; N=1 C=2 H=5 W=6 K=70 R=3 S=2
   x:      in  float[N*C*H*W]
   wt:     in  float[K*C*R*S]
   y:      out float[N*K*{P}*{Q}]
   launch: {launch}
   tol:    1e-4
*/
__global__ void conv(const float* x, const float* wt, float* y, int N, int C, int H, int W, int K, int R, int S)
{{
    {body}
}}
"""

FLAT_SAME = CONV2D.format(P="H", Q="W", launch="grid=cdiv(N*K*H*W,256) block=256", body="""
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * K * H * W) return;
    int q = idx % W;
    int p = (idx / W) % H;
    int k = (idx / (W * H)) % K;
    int n = idx / (W * H * K);
    float sum = 0.0f;
    for (int c = 0; c < C; c++) {
        for (int r = 0; r < R; r++) {
            for (int s = 0; s < S; s++) {
                int h = p - R / 2 + r;
                int w = q - S / 2 + s;
                if (h >= 0 && h < H && w >= 0 && w < W)
                    sum += x[((n * C + c) * H + h) * W + w] * wt[((k * C + c) * R + r) * S + s];
            }
        }
    }
    y[idx] = sum;""")

GRID_VALID_STRIDE2 = CONV2D.format(P="((H-R)/2+1)", Q="((W-S)/2+1)",
                                   launch="grid=(cdiv((W-S)/2+1,16),cdiv((H-R)/2+1,16),N*K) block=(16,16)",
                                   body="""
    int P = (H - R) / 2 + 1, Q = (W - S) / 2 + 1;
    int ow = blockIdx.x * blockDim.x + threadIdx.x;
    int oh = blockIdx.y * blockDim.y + threadIdx.y;
    int nk = blockIdx.z;
    if (ow >= Q || oh >= P) return;
    int n = nk / K, k = nk % K;
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
        for (int r = 0; r < R; ++r) {
            for (int s = 0; s < S; ++s)
                acc += x[((n * C + c) * H + oh * 2 + r) * W + ow * 2 + s] * wt[((k * C + c) * R + r) * S + s];
        }
    y[((n * K + k) * P + oh) * Q + ow] = acc;""")

CONV1D = """/* @optiml
   sizes:  B=16 C=32 L=4096 F=64 T=7
   check:  B=2 C=3 L=20 F=5 T=3; B=1 C=1 L=1 F=1 T=1
   x:      in  float[B*C*L]
   w:      in  float[F*C*T]
   bias:   in  float[F]
   y:      out float[B*F*L]
   launch: grid=cdiv(B*F*L,128) block=128
   tol:    1e-4
*/
__global__ void conv1d(const float* x, const float* w, const float* bias, float* y, int B, int C, int L, int F, int T)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * F * L) {
        int l = i % L, f = i / L % F, b = i / L / F;
        float acc = bias[f];
        for (int c = 0; c < C; ++c)
            for (int t = 0; t < T; ++t) {
                int at = l + t - T / 2;
                if (at < 0 || at >= L) continue;
                acc += w[(f * C + c) * T + t] * x[(b * C + c) * L + at];
            }
        y[i] = acc;
    }
}
"""


@pytest.mark.parametrize("name, text, weights", [
    ("flat_same.cu", FLAT_SAME, "wt"), ("grid_valid.cu", GRID_VALID_STRIDE2, "wt"), ("conv1d.cu", CONV1D, "w")])
def test_a_naive_convolution_is_a_matrix_product_its_schedules_compute(name, text, weights) -> None:
    naive = candidate_of(name, text)
    program = lift(naive)
    assert "contraction" not in shape_of(program).families
    product = implicit_gemm(program)
    shape = shape_of(product)
    assert "contraction" in shape.families, str(product)
    # The weights' side is the rows (output channels), the input windows' the columns (batch and pixels).
    assert {load.array for load in loads(shape.contraction.left)} == {weights}
    schedules = space(shape, "contraction")
    chosen = [schedules[0], next(s for s in schedules if s.blocks_per_sm > 1),
              next(s for s in schedules if s.splits > 1)]
    assert_schedules_compute_the_kernel(naive, product, chosen, seed=5)


@pytest.mark.parametrize("body", [
    # Depthwise: the input's channel is the output's, so both factors read k.
    "int idx = blockIdx.x * blockDim.x + threadIdx.x; if (idx >= N * K * H * W) return; int q = idx % W; "
    "int p = idx / W % H; int k = idx / W / H % K; int n = idx / W / H / K; float s = 0.0f; "
    "for (int r = 0; r < R; ++r) for (int t = 0; t < S; ++t) { int h = p + r; int w = q + t; "
    "if (h < H && w < W) s += x[((n * C + k) * H + h) * W + w] * wt[(k * R + r) * S + t]; } y[idx] = s;",
    # A pooling window: no product.
    "int idx = blockIdx.x * blockDim.x + threadIdx.x; if (idx >= N * K * H * W) return; float s = 0.0f; "
    "for (int r = 0; r < R; ++r) s += x[idx % (H * W) + r]; y[idx] = s;",
    # A digit off the chain (`idx / 3`, not a product of the sizes below it): the coordinates are not known.
    "int idx = blockIdx.x * blockDim.x + threadIdx.x; if (idx >= N * K * H * W) return; float s = 0.0f; "
    "for (int c = 0; c < C; ++c) s += x[(idx % W) * C + c] * wt[(idx / 3) * C + c]; y[idx] = s;",
])
def test_a_sum_that_is_not_a_product_of_two_coordinate_groups_is_left_alone(body) -> None:
    text = CONV2D.format(P="H", Q="W", launch="grid=cdiv(N*K*H*W,256) block=256", body=body)
    program = lift(candidate_of("other.cu", text))
    assert implicit_gemm(program) is program


TRANSPOSED_FLAT = """/* @optiml
   sizes:  N=4 C=32 K=16 H=64 W=64
   check:  N=2 C=3 K=5 H=3 W=7; N=1 C=1 K=1 H=1 W=1; N=1 C=9 K=3 H=4 W=33
   x:      in  float[N*C*H*W]
   wt:     in  float[C*K*4]
   y:      out float[N*K*(2*H)*(2*W)]
   launch: grid=cdiv(N*K*4*H*W,256) block=256
   tol:    1e-4
*/
__global__ void up(const float* x, const float* wt, float* y, int N, int C, int K, int H, int W)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * K * 4 * H * W) return;
    int ox = i % (2 * W), oy = i / (2 * W) % (2 * H), k = i / (4 * H * W) % K, n = i / (4 * H * W * K);
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
        acc += x[((n * C + c) * H + oy / 2) * W + ox / 2] * wt[((c * K + k) * 2 + oy % 2) * 2 + ox % 2];
    y[i] = acc;
}
"""


TRANSPOSED_GATHER = """/* @optiml
   sizes:  N=8 C=32 K=16 H=64 W=64 R=3 S=2 P=1
   check:  N=2 C=3 K=5 H=5 W=7 R=3 S=2 P=1; N=1 C=1 K=1 H=1 W=1 R=1 S=1 P=1; N=1 C=4 K=3 H=6 W=4 R=4 S=3 P=2
   x:      in  float[N*C*H*W]
   wt:     in  float[C*K*R*R]
   y:      out float[N*K*((H-1)*S-2*P+R)*((W-1)*S-2*P+R)]
   launch: grid=cdiv(N*K*((H-1)*S-2*P+R)*((W-1)*S-2*P+R),256) block=256
   tol:    1e-4
*/
__global__ void up(const float* x, const float* wt, float* y, int N, int C, int K, int H, int W, int R, int S, int P)
{
    int OH = (H - 1) * S - 2 * P + R, OW = (W - 1) * S - 2 * P + R;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * K * OH * OW) return;
    int ow = idx % OW, oh = (idx / OW) % OH, k = (idx / (OW * OH)) % K, n = idx / (OW * OH * K);
    float sum = 0.0f;
    for (int c = 0; c < C; c++)
        for (int r = 0; r < R; r++)
            for (int s = 0; s < R; s++) {
                int ih = oh + P - r;
                int iw = ow + P - s;
                if (ih % S != 0 || iw % S != 0) continue;
                ih /= S;
                iw = iw / S;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                sum += x[((n * C + c) * H + ih) * W + iw] * wt[((c * K + k) * R + r) * R + s];
            }
    y[idx] = sum;
}
"""


@pytest.mark.parametrize("text", [TRANSPOSED_FLAT, TRANSPOSED_GATHER])
def test_a_transposed_convolution_is_a_matrix_product_of_its_flat_index_and_over_its_digits(text) -> None:
    """`oy / 2` and `oy % 2` are digits of a digit of the flat index: two coordinates (`oy` split at the factor 2
    of its extent `2 * H`), or digits once the flat index is taken apart (ir/delinearize.py). The weight then
    reads the channel and the two parities, the input the batch and the input pixel; the schedule policy proposes
    the product's tiles. Written as a gather, the input's row is found by assigning `ih /= S` once the `if` has
    found it a multiple: the guards and the read see the values they read."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.policies.base import PolicyContext
    from optiml_engine.policies.schedules import SchedulePolicy
    naive = candidate_of("up.cu", text)
    program = lift(naive)
    for product in (implicit_gemm(program), implicit_gemm(delinearized(program))):
        shape = shape_of(product)
        assert "contraction" in shape.families and product.assumption is None, str(product)
        schedules = space(shape, "contraction")
        assert_schedules_compute_the_kernel(naive, product, [schedules[0], next(s for s in schedules
                                                                                if s.splits > 1)], seed=7)
    edits = SchedulePolicy().propose(naive, PolicyContext())
    assert any(edit.rule == "schedule_contraction" for edit in edits)


@pytest.mark.parametrize("nest", [
    "int h = p; for (int c = 0; c < C; ++c) { h = h + 1; if (h < H) s += x[((n * C + c) * H + h) * W + q] * "
    "wt[k * C + c]; }",
    "for (int c = 0; c < C; ++c) { int h = p; for (int r = 0; r < R; ++r) { h = h + 1; if (h < H) "
    "s += x[((n * C + c) * H + h) * W + q] * wt[(k * C + c) * R + r]; } }",
], ids=["declared_before_the_nest", "declared_outside_the_inner_loop"])
def test_a_local_assigned_in_a_loop_inside_its_declaration_is_left_alone(nest) -> None:
    """Only a declaration of the same turn of the innermost loop is read with its new value: a local assigned in a
    loop inside the one that declares it carries from one turn to the next."""
    body = ("int idx = blockIdx.x * blockDim.x + threadIdx.x; if (idx >= N * K * H * W) return; int q = idx % W; "
            "int p = idx / W % H; int k = idx / W / H % K; int n = idx / W / H / K; float s = 0.0f; "
            + nest + " y[idx] = s;")
    text = CONV2D.format(P="H", Q="W", launch="grid=cdiv(N*K*H*W,256) block=256", body=body)
    program = lift(candidate_of("carried.cu", text))
    assert not isinstance(program, NotLiftable), program
    assert implicit_gemm(program) is program


PAIRS = """/* @optiml
   sizes:   N=2048 I=128 J=256 O=64
   check:   N=3 I=5 J=7 O=2; N=1 I=1 J=1 O=1; N=33 I=4 J=9 O=17
   x1:      in  float[N*I]
   x2:      in  float[N*J]
   W:       in  float[O*I*J]
   dw:      in  float[I*3]
   y:       out float[N*O]
   launch:  grid=(cdiv(O,32),cdiv(N,8)) block=(32,8)
   tol:     1e-4
*/
__global__ void pairs(const float* x1, const float* x2, const float* W, const float* dw, float* y, int N, int I, int J,
                      int O)
{
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.y * blockDim.y + threadIdx.y;
    if (n >= N || o >= O) return;
    float acc = 0.0f;
    for (int i = 0; i < I; ++i) {
        {inner}
    }
    y[n * O + o] = acc;
}
"""


@pytest.mark.parametrize("inner", [
    # Three factors, two of them reading the batch row: W, and x1 * x2.
    "for (int j = 0; j < J; ++j) acc += x1[n * I + i] * W[(o * I + i) * J + j] * x2[n * J + j];",
    # nn.Bilinear as users factor it: an inner sum over j multiplied by x1, through a copy.
    "float t = 0.0f; for (int j = 0; j < J; ++j) t += W[(o * I + i) * J + j] * x2[n * J + j]; float r = t; "
    "acc += x1[n * I + i] * r;",
    # A window from -1 (a stencil's taps) summed, then weighted by the output's own weight.
    "float s = 0.0f; for (int d = -1; d < 2; ++d) { int at = i + d; if (at >= 0 && at < I) "
    "s += x1[n * I + at] * dw[i * 3 + d + 1]; } acc += W[o * I * J + i] * s;",
    # An inner sum added as it is (a helper's sum over one channel's taps, inlined).
    "float s = 0.0f; for (int j = 0; j < J; ++j) s += W[(o * I + i) * J + j] * x2[n * J + j]; float r = s; "
    "acc += r;",
], ids=["three_factors", "inner_sum_multiplied_out", "window_from_minus_one", "inner_sum_added_as_it_is"])
def test_a_sum_of_products_in_more_than_two_factors_or_an_inner_sum_is_a_matrix_product(inner) -> None:
    naive = candidate_of("pairs.cu", PAIRS.replace("{inner}", inner))
    program = lift(naive)
    product = implicit_gemm(program)
    shape = shape_of(product)
    assert "contraction" in shape.families, str(product)
    assert [type(stmt).__name__ for stmt in product.body[-2:]] == ["For", "Store"], str(product)
    assert_schedules_compute_the_kernel(naive, product, space(shape, "contraction")[:1], seed=7)


@pytest.mark.parametrize("inner, why", [
    ("float t = 0.0f; for (int j = 0; j < J; ++j) t += W[(o * I + i) * J + j] * x2[n * J + j]; "
     "acc += x1[n * I + i] * t * t;", "the inner sum squared"),
    ("float t = 0.0f; for (int j = 0; j < J; ++j) t += W[(o * I + i) * J + j] * x2[n * J + j]; "
     "acc += x1[n * I + i] * t; acc += t;", "the inner sum read again"),
    ("float t = 0.0f; float u = 0.0f; for (int j = 0; j < J; ++j) { u = x2[n * J + j]; t += W[(o * I + i) * J + j]; } "
     "acc += u * t;", "a weight the inner loop assigns"),
    ("for (int j = 0; j < J; ++j) acc += x1[n * I + i] * W[(o * I + i) * J + j] * x2[(n + o) % N * J + j];",
     "a factor reading both the batch row and the output channel"),
])
def test_an_inner_sum_that_is_not_a_weighted_sum_is_left_alone(inner, why) -> None:
    program = lift(candidate_of("pairs.cu", PAIRS.replace("{inner}", inner)))
    assert not isinstance(program, NotLiftable), program
    assert implicit_gemm(program) is program, why


CONSTANT_TAPS = CONV2D.replace("wt:     in  float[K*C*R*S]", "wt:     in  float[K*C*9]").format(
    P="H", Q="W", launch="grid=cdiv(N*K*H*W,256) block=256", body="""
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= N * K * H * W) return;
    int q = idx % W, p = idx / W % H, k = idx / (W * H) % K, n = idx / (W * H * K);
    float sum = 0.0f;
    for (int c = 0; c < C; c++)
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 3; s++) {
                int h = p + r - 1, w = q + s - 1;
                if (h >= 0 && h < H && w >= 0 && w < W)
                    sum += x[((n * C + c) * H + h) * W + w] * wt[(k * C + c) * 9 + r * 3 + s];
            }
    y[idx] = sum;""")


# The radix written as two factors: `(k * C + c) * 3 * 3 + (r * 3 + s)`.
RADIX_IN_TWO_FACTORS = CONSTANT_TAPS.replace("wt[(k * C + c) * 9 + r * 3 + s]", "wt[(k * C + c) * 3 * 3 + (r * 3 + s)]")


@pytest.mark.parametrize("name, text, weights", [
    ("flat_same.cu", FLAT_SAME, "wt"), ("conv1d.cu", CONV1D, "w"), ("constant_taps.cu", CONSTANT_TAPS, "wt"),
    ("radix_in_two_factors.cu", RADIX_IN_TWO_FACTORS, "wt")])
def test_a_weight_laid_out_along_the_collapsed_loop_is_read_at_one_affine_index(name, text, weights) -> None:
    """The collapsed loop's digits put back together: `((k * C + c_r_s / (R * S)) * R + c_r_s / S % R) * S + c_r_s %
    S` is `k * C * R * S + c_r_s`, and `(k * C + c) * 9 + r * 3 + s` over constant taps too (`c_r_s / 3 % 3 * 3 +
    c_r_s % 3` is `c_r_s % 9`), its radix also written `* 3 * 3`: no division left, unit stride along the loop, so the weight is staged in vectors."""
    from optiml_engine.ir.analysis import unit_stride
    naive = candidate_of(name, text)
    product = implicit_gemm(lift(naive))
    shape = shape_of(product)
    read = next(load for load in loads(shape.contraction.left) if load.array == weights)
    assert not any(isinstance(e, Binary) and e.op in ("/", "%") for e in subexpressions(read.index)), str(product)
    assert unit_stride(read.index, shape.contraction.loop.var)
    assert_schedules_compute_the_kernel(naive, product, space(shape, "contraction")[:4], seed=3,
                                        bindings=naive.contract.checks[:1])


def test_only_the_rewrites_own_digits_are_put_back_together() -> None:
    """`a / 9 * 3 + a / 3 % 3` is `a / 3` for the rewrite's own indices; a user's own expression is left as written."""
    from optiml_engine.ir.implicit_gemm import _recombined
    from optiml_engine.ir.printer import c_expr
    from optiml_engine.ir.program import Const, Ref
    a = Ref(name="a")
    nested = Binary(op="+", left=Binary(op="*", left=Binary(op="/", left=a, right=Const(text="9")),
                                         right=Const(text="3")),
                    right=Binary(op="%", left=Binary(op="/", left=a, right=Const(text="3")), right=Const(text="3")))
    assert c_expr(_recombined(nested, {"a"})) == "a / 3"
    assert _recombined(nested, {"b"}) == nested


NHWC = """/* @optiml
   sizes:  N=16 H=128 W=128 Cin=32 Cout=32
   check:  N=1 H=1 W=1 Cin=1 Cout=1; N=2 H=5 W=7 Cin=3 Cout=4; N=1 H=9 W=4 Cin=17 Cout=33
   x:      in  float[N*H*W*Cin]
   f:      in  float[3*3*Cin*Cout]
   y:      out float[N*H*W*Cout]
   launch: grid=(cdiv(Cout,32),cdiv(W,8),N*H) block=(32,8)
   tol:    1e-4
*/
__global__ void nhwc(const float* x, const float* f, float* y, int N, int H, int W, int Cin, int Cout)
{
    int co = blockIdx.x * blockDim.x + threadIdx.x, ow = blockIdx.y * blockDim.y + threadIdx.y;
    int n = blockIdx.z / H, oh = blockIdx.z % H;
    if (co >= Cout || ow >= W || n >= N) return;
    float acc = 0.f;
    for (int ky = 0; ky < 3; ++ky) {
        int ih = oh + ky - 1;
        if (ih < 0 || ih >= H) continue;
        for (int kx = 0; kx < 3; ++kx) {
            int iw = ow + kx - 1;
            if (iw < 0 || iw >= W) continue;
            for (int ci = 0; ci < Cin; ++ci)
                acc += x[((n * H + ih) * W + iw) * Cin + ci] * f[((ky * 3 + kx) * Cin + ci) * Cout + co];
        }
    }
    y[((n * H + oh) * W + ow) * Cout + co] = acc;
}
"""


@pytest.mark.parametrize("name, text, split_expected", [
    ("flat_same.cu", FLAT_SAME, True), ("constant_taps.cu", CONSTANT_TAPS, True), ("nhwc.cu", NHWC, True),
    # The input's pixel is `(oh + P - r) / S`: a division reading both the point and the loop.
    ("up.cu", TRANSPOSED_GATHER, False)])
def test_a_gathered_operand_is_staged_from_a_part_of_the_point_and_a_part_of_the_step(name, text,
                                                                                      split_expected) -> None:
    """The input window's index is a sum of a part of the point (held per slot) and a part of the loop (computed
    once a step where each thread stages one step; read along the point, NCHW, or along the loop, NHWC): the
    emitted kernel computes the same outputs as the naive one at every check size, for the tiles of the space that
    take that path. An index no such sum is staged as before."""
    from optiml_engine.ir.delinearize import delinearized
    naive = candidate_of(name, text)
    program = lift(naive)
    product = implicit_gemm(program) if implicit_gemm(program) is not program else \
        implicit_gemm(delinearized(program))
    shape = shape_of(product)
    split = [s for s in space(shape, "contraction") if s.splits == 1 and s.blocks_per_sm == 1 and
             "_offset = " in emit(product, shape, s, naive).unit.text]
    assert bool(split) == split_expected
    assert_schedules_compute_the_kernel(naive, product, split[:3], seed=9)


@pytest.mark.parametrize("name, text, masked", [
    ("constant_taps.cu", CONSTANT_TAPS, True),
    # Taps of R x S, sizes, and taps that are the loop's digits by the size Cin (`k / Cin % 3`): not digits of
    # constant radix.
    ("flat_same.cu", FLAT_SAME, False), ("nhwc.cu", NHWC, False)])
def test_a_convolutions_padding_is_tested_once_per_slot_and_tap_into_a_mask(name, text, masked) -> None:
    """The input window's padding tests read the point and the loop's lowest digits of constant radix (its taps):
    before the loop each slot's tests of every tap fill a mask, each tap digit's values tested and the digits'
    masks combined, so that a step reads one bit and no bound; at every check size (one pixel, one channel: every
    tap but the centre padding) the emitted kernel computes the naive one's outputs."""
    from optiml_engine.ir.delinearize import delinearized
    naive = candidate_of(name, text)
    program = lift(naive)
    product = implicit_gemm(program) if implicit_gemm(program) is not program else \
        implicit_gemm(delinearized(program))
    shape = shape_of(product)
    emitted = {s: emit(product, shape, s, naive).unit.text for s in space(shape, "contraction")
               if s.splits == 1 and s.blocks_per_sm == 1}
    with_masks = [s for s, text in emitted.items() if "right_taps[slot] >> right_tap & 1" in text]
    assert bool(with_masks) == masked
    for schedule in with_masks:
        step_loop = emitted[schedule].split("const int right_tap = ")[1]
        assert ">= H" not in step_loop.split("__syncthreads")[0], schedule.describe()
    assert_schedules_compute_the_kernel(naive, product, with_masks[:3], seed=11)


def test_an_index_whose_terms_read_both_the_point_and_the_step_is_not_split() -> None:
    from optiml_engine.ir.emit import _separated
    from optiml_engine.ir.printer import c_expr
    from optiml_engine.ir.program import Const, Ref
    column, k = Ref(name="column"), Ref(name="k")
    digit = Binary(op="%", left=column, right=Ref(name="W"))
    mixed = Binary(op="*", left=Binary(op="+", left=digit, right=k), right=Binary(op="+", left=digit, right=k))
    assert _separated(mixed, "k", "column") is None
    affine = Binary(op="-", left=Binary(op="*", left=Binary(op="+", left=digit, right=k), right=Ref(name="C")),
                    right=Const(text="1"))
    point, step = _separated(affine, "k", "column")
    assert (c_expr(point), c_expr(step)) == ("(long)(column % W) * C - (long)1", "(long)k * C")


SPELLED_APART = """/* @optiml
   sizes:  N=8 C=64 K=128 L=4096
   check:  N=2 C=3 K=5 L=9; N=1 C=1 K=1 L=3; N=1 C=4 K=7 L=33
   x:      in  float[N*C*L]
   w:      in  float[K*C*3]
   y:      out float[N*K*(L-2)]
   launch: grid=cdiv(N*K*(L-2),128) block=128
   tol:    1e-4
*/
__global__ void valid(const float* x, const float* w, float* y, int N, int C, int K, int L)
{
    const int P = L - 3 + 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N * K * (L - 2)) return;
    int p = i % P, k = i / P % K, n = i / P / K;
    float acc = 0.0f;
    for (int c = 0; c < C; ++c)
        for (int t = 0; t < 3; ++t)
            acc += w[(k * C + c) * 3 + t] * x[(n * C + c) * L + p + t];
    y[i] = acc;
}
"""


def test_an_extent_and_its_digits_spelled_apart_are_one_coordinate_chain() -> None:
    """The guard's `N * K * (L - 2)` and the digits' `L - 3 + 1` are one size: the flat index's digits tile its
    extent, and the product's schedules compute the kernel's outputs."""
    naive = candidate_of("valid.cu", SPELLED_APART)
    product = implicit_gemm(lift(naive))
    shape = shape_of(product)
    assert "contraction" in shape.families, str(product)
    assert_schedules_compute_the_kernel(naive, product, space(shape, "contraction")[:4], seed=4)


def test_a_digit_held_in_32_bits_is_widened_where_it_enters_an_index() -> None:
    """`column % W` is held as an int (below W): compared as it is (a window's bounds test), widened to the
    column's type where it is multiplied into an output's index, whose arithmetic stays as wide as the program's."""
    from optiml_engine.ir.emit import _from_registers
    from optiml_engine.ir.printer import c_expr
    from optiml_engine.ir.program import Ref
    digit = Binary(op="%", left=Ref(name="column"), right=Ref(name="W"))
    read = _from_registers({digit: ("w_digit[n]", "int")}, "long")
    index = Binary(op="*", left=digit, right=Ref(name="HC"))
    test = Binary(op="<", left=Binary(op="+", left=digit, right=Ref(name="kw")), right=Ref(name="W"))
    assert c_expr(read(index)) == "(long)w_digit[n] * HC"
    assert c_expr(read(test)) == "w_digit[n] + kw < W"


GROUPED = """/* @optiml
   sizes:  N=4 C=64 G=4 L=1024 R=64
   check:  N=2 C=8 G=2 L=9 R=8; N=1 C=6 G=3 L=33 R=6; N=2 C=5 G=2 L=7 R=6; N=1 C=3 G=5 L=4 R=3; N=1 C=1 G=1 L=1 R=1
   x:      in  float[N*R*(L+2)]
   w:      in  float[C*(C/G)*3]
   y:      out float[N*C*L]
   launch: grid=(cdiv(L,64),N*C) block=64
   tol:    1e-4
*/
__global__ void grouped(const float* x, const float* w, float* y, int N, int C, int G, int L, int R)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= L) return;
    int n = blockIdx.y / C, co = blockIdx.y % C;
    int cpg = C / G;
    float acc = 0.0f;
    for (int ci = 0; ci < cpg; ci++) {
        int g = co / cpg;
        for (int k = 0; k < 3; k++)
            acc += w[((long)co * cpg + ci) * 3 + k] * x[((long)n * R + g * cpg + ci) * (L + 2) + l + k];
    }
    y[((long)n * C + co) * L + l] = acc;
}
"""


def test_a_grouped_convolution_is_a_batch_of_matrix_products_where_its_groups_are_whole() -> None:
    """The output channel `co` is read by the weight whole and by the input as its group `co / (C / G)`: split at
    that size, the group is read by both factors (a batch: one product per group) and the channel within it by the
    weight alone (the rows). The split holds where C / G divides C; at other sizes (C = 5, G = 2: channel 4 is in a
    third group of one; C = 3, G = 5: no channel per group) the kernel runs the program as written, so every check
    size's outputs are the naive kernel's. The input is sized for the reach of any group."""
    naive = candidate_of("grouped.cu", GROUPED)
    program = lift(naive)
    product = implicit_gemm(program)
    shape = shape_of(product)
    assert "contraction" in shape.families, str(product)
    assert len(product.space) == 3 and product.assumption.otherwise == program
    assert str(product).splitlines()[1].startswith("parallel for batch in [0, C / max(C / G, 1)), row in [0, C / G)")
    schedules = space(shape, "contraction")
    chosen = [schedules[0], schedules[-1]]
    assert_schedules_compute_the_kernel(naive, product, chosen, seed=3)
    # The interpreter takes the same branch.
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=2)
        got = run_program(product, resolve(naive.contract, binding), naive.contract.arrays, inputs)
        assert compare(np, "y", got["y"], run_on_cpu(naive, binding, inputs)["y"], "float32", 1e-4, 0).ok, binding
    # The batched product alone misses channel 4 at C = 5, G = 2.
    bare = product.model_copy(update={"assumption": None})
    with pytest.raises(AssertionError, match="'C': 5"):
        assert_schedules_compute_the_kernel(naive, bare, chosen[:1], seed=3)


def test_an_index_cast_wider_is_read_as_wide_in_the_product() -> None:
    """`(long)blockIdx.y * L` in the program is 64-bit arithmetic: the index's value in the product, packed from
    its coordinates, keeps the cast, so an output past 2^31 elements is computed as the program computes it."""
    from optiml_engine.ir.program import Store
    wide = GROUPED.replace("y[((long)n * C + co) * L + l] = acc;", "y[(long)blockIdx.y * L + l] = acc;")
    naive = candidate_of("grouped.cu", wide)
    product = implicit_gemm(lift(naive))
    store = next(stmt for stmt in product.body if isinstance(stmt, Store))
    assert c_expr(store.index).startswith("(long)("), c_expr(store.index)
    assert_schedules_compute_the_kernel(naive, product, space(shape_of(product), "contraction")[:1], seed=3)


@pytest.mark.parametrize("rows, first", [(4, (4, 256)), (16, (16, 128)), (32, (32, 128)), (24, (32, 128))])
def test_a_batch_of_short_products_takes_the_skinny_tile_that_covers_its_rows_first(rows, first) -> None:
    """Groups of 4 channels (ResNeXt's): a 4-row tile first, not a 16-row one computing mostly past the edge; 16
    rows take the 16-row tiles, 24 or 32 the 32-row one (a 16-row tile would read each input twice), and none a
    4-row one, which would read each input 4 or 8 times."""
    from optiml_engine.ir.schedule import defaults
    product = implicit_gemm(lift(candidate_of("grouped.cu", GROUPED)))
    chosen = defaults(shape_of(product), "contraction", 16 * rows * 65536, (16, rows, 65536))
    assert chosen[0].output_tile() == first
    assert ((4, 256) in [s.output_tile() for s in chosen]) == (rows <= 4)
