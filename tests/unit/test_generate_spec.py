"""The spec form of an intent (optiml_engine/generate/spec.py): what each form parses to, what is refused and why,
activations written out equal to independent definitions, and generated kernels that match their oracle on the
CPU."""

from __future__ import annotations

import itertools
import math
import re

import numpy as np
import pytest

from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import IntentError, parse_intent, reading_key
from optiml_engine.generate.spec import ACTIVATIONS, _einsum, is_spec_form, spec_form
from tests.intents import INTENTS
from tests.unit.test_generate_on_cpu import comparisons_on_cpu

PARSED = [
    ("y = softmax(x, axis=1); x: float32[4096, 393216]", "row_normalization", "softmax",
     {"rows": 4096, "cols": 393216}),
    ("p = torch.log_softmax(logits, dim=-1); logits: float32[8192, 1000]", "row_normalization", "log_softmax",
     {"rows": 8192, "cols": 1000}),
    ("out = sum(x, dim=0); x: float32[8192, 1024]", "column_reduction", "sum", {"rows": 8192, "cols": 1024}),
    ("out = x.mean(axis=1); x: float64[8192, 1024]", "row_reduction", "mean", {"rows": 8192, "cols": 1024}),
    ("i = np.argmax(scores, axis=-1); scores: float32[4096, 50257]", "row_reduction", "argmax",
     {"rows": 4096, "cols": 50257}),
    ("t = max(x); x: float32[2**24]", "global_reduction", "max", {"n": 2 ** 24}),
    ("C = A @ B.T; A: float32[2048, 512]; B: float32[1024, 512]", "gemm", "gemm", {"M": 2048, "N": 1024, "K": 512}),
    ("C = torch.matmul(A, B); A: float32[2048, 512]; B: float32[512, 1024]", "gemm", "gemm",
     {"M": 2048, "N": 1024, "K": 512}),
    ("y = A @ v; A: float32[4096, 1024]; v: float32[1024]", "gemv", "gemv", {"rows": 4096, "cols": 1024}),
    ("y = x.T; x: float32[4096, 2048]", "transpose", "transpose", {"rows": 4096, "cols": 2048}),
    ("y = x.permute(2, 0, 1); x: float32[64, 512, 256]", "transpose", "permute", {"d0": 64, "d1": 512, "d2": 256}),
    ("s = cumsum(x); x: float32[1_000_000]", "prefix_sum", "prefix_sum", {"n": 1000000}),
    ("y = F.layer_norm(x, eps=1e-6); x: float32[4096, 1024]", "row_normalization", "layernorm",
     {"rows": 4096, "cols": 1024}),
    ("y = silu(x) * g + 0.5; x: float32[1 << 20]; g: float32[1048576]", "elementwise", "map", {"n": 1 << 20}),
    ("y = leaky_relu(x, 0.2) + b; x: float32[1024, 4096]; b: float32[4096]", "elementwise", "map",
     {"rows": 1024, "cols": 4096}),
    # Any rank: the axes before the reduced ones are rows, those after columns.
    ("y = x.sum(axis=1); x: float32[64, 512, 256]", "middle_reduction", "sum",
     {"outer": 64, "extent": 512, "inner": 256}),
    ("y = amax(x, axis=(1, 2)); x: float32[64, 512, 256]", "row_reduction", "max", {"rows": 64, "cols": 131072}),
    ("y = x.mean(dim=0); x: float32[3, 5, 7]", "column_reduction", "mean", {"rows": 3, "cols": 35}),
    ("y = softmax(x, dim=-1); x: float32[8, 16, 1024]", "row_normalization", "softmax", {"rows": 128, "cols": 1024}),
    ("y = tanh(x) * w; x: float32[8, 16, 1024]; w: float32[8, 16, 1024]", "elementwise", "map", {"n": 131072}),
    # A formula reduced: losses and dot products.
    ("l = F.mse_loss(p, t); p: float32[1 << 20]; t: float32[1048576]", "global_reduction", "mean", {"n": 1 << 20}),
    ("d = sum(a * b, axis=1); a: float32[4096, 512]; b: float32[4096, 512]", "row_reduction", "sum",
     {"rows": 4096, "cols": 512}),
]


@pytest.mark.parametrize("text, family, operation, sizes", PARSED, ids=[p[0][:40] for p in PARSED])
def test_spec_forms_parse_to_their_operation(text, family, operation, sizes):
    assert is_spec_form(text)
    spec = parse_intent(text)
    assert (spec.family, spec.operation, spec.sizes) == (family, operation, sizes)
    assert spec.output == text.split("=")[0].strip()


def test_the_forms_details_reach_the_spec():
    assert parse_intent("C = A @ B.T; A: float32[64, 32]; B: float32[16, 32]").transpose_b
    assert parse_intent("y = x.permute(2, 0, 1); x: float32[4, 5, 6]").axes == [2, 0, 1]
    assert parse_intent("y = layer_norm(x, eps=1e-6); x: float32[8, 8]").scalars == {"eps": 1e-6}
    spec = parse_intent("y = leaky_relu(x, 0.2) + b; x: float32[1024, 4096]; b: float32[4096]")
    assert spec.row_vectors == ["b"] and spec.inputs == ["x", "b"]
    assert parse_intent("m = max(x); x: float64[100]").dtype == "float64"


@pytest.mark.parametrize("text, problem", [
    ("y = gelu(x, approximate='sigmoid'); x: float32[100]", "gelu(approximate='sigmoid')"),
    ("y = instance_norm(x); x: float32[64, 64]", "instance_norm(x) of a 2-D array"),
    ("y = max_pool2d(x, 3, padding=2); x: float32[4, 16, 16]", "padding at most half the kernel"),
    ("y = avg_pool2d(x); x: float32[4, 16, 16]", "avg_pool2d without kernel_size"),
    ("y = max_pool2d(x, 5); x: float32[4, 3, 3]", "a window larger than x's [3, 3]"),
    ("y = conv2d(x, w, groups=2); x: float32[1, 4, 8, 8]; w: float32[6, 4, 3, 3]",
     "w [6, 4, 3, 3] for 4 input channels in 2 group(s)"),
    ("y = conv2d(x, w, b); x: float32[1, 4, 8, 8]; w: float32[6, 4, 3, 3]; b: float32[4]",
     "a bias of shape [4] for 6 output channels"),
    ("y = conv2d(x, w); x: float32[1, 4, 2, 2]; w: float32[6, 4, 3, 3]", "a window that fits the padded input"),
    ("y = group_norm(x, 3); x: float32[2, 8, 5]", "3 groups of 8 channels"),
    ("l = huber_loss(p, t, delta=-1.0); p: float32[10]; t: float32[10]", "parameters must be positive numbers"),
    ("y = sum(x, axis=(0, 2)); x: float32[4, 100, 10]", "a sum over axes (0, 2)"),
    ("y = softmax(x, axis=(0, 2)); x: float32[4, 100, 10]", "softmax over axis (0, 2) of a 3-D array"),
    ("y = x + z; x: float32[100]", "z not declared"),
    ("y = x + 1; x: float32[100]; w: float32[3]", "w declared but not used"),
    ("y = conv1d(x, w); x: float32[100]; w: float32[3]", "x as N x Cin x 1 spatial axes"),
    ("y = x + v; x: float32[100, 10]; v: float32[100]", "does not broadcast"),
    ("C = A @ B; A: float32[64, 32]; B: float32[16, 64]", "inner dimensions differ"),
    ("m = max(x); x: int32[1024]", "max of integers is not generated"),
    ("y = softmax(x, axis=1, temperature=2); x: float32[8, 8]", "keyword 'temperature'"),
    ("y = x % 2; x: float32[8]", "operator"),
    ("y = x; x: bfloat16[8]", "element type 'bfloat16'"),
    ("y = cumsum(x, axis=(0, 1)); x: float32[4, 30, 5]", "a cumsum along axes (0, 1)"),
    ("y = matmul(x); x: float32[8, 8]", "matmul(x)"),
    ("y = sum(x, axis=()); x: float32[8, 9]", "a sum over axes ()"),
    ("y = sum(x, axis=1.5); x: float32[8, 9]", "a sum over axes 1.5"),
    ("y = cumprod(x, exclusive=True); x: float32[8, 4]", "an exclusive cumprod"),
    ("l = mse_loss(p, t, reduction='none'); p: float32[8]; t: float32[8]", "reduction='none' of mse_loss"),
    ("d = sum(a * b, axis=1); a: float32[8, 4]; b: float32[4]", "a sum of a * b"),
    ("d = sum(a * b, axis=1); a: float32[8, 4, 2]; b: float32[8, 4, 2]", "a sum of a formula over a middle axis"),
    ("y = x + 1; x: float32[n]", "dimension 'n'"),
    # An array a call is given but its reading has no place for: a kernel of another operation.
    ("y = softmax(x, 1, w); x: float32[64, 100]; w: float32[100]", "w passed but not read"),
    ("y = F.group_norm(x, 4, w, b); x: float32[2, 8, 10]; w: float32[8]; b: float32[8]", "group_norm(x, 4, w, b)"),
    ("y = F.layer_norm(x, (100,), w, b); x: float32[64, 100]; w: float32[64]; b: float32[100]", "the w: [64]"),
    ("y = F.layer_norm(x, (64, 100), w); x: float32[8, 100]; w: float32[64, 100]", "layer_norm(x, (64, 100), w) of a [8, 100]"),
    ("y = layer_norm(x, bias=b); x: float32[64, 100]; b: float32[100]", "a bias without a weight"),
    ("y = rms_norm(x, weight=w, bias=b); x: float32[64, 100]; w: float32[100]; b: float32[100]", "keyword 'bias'"),
    ("y = batch_norm(x, weight=g); x: float32[4, 6, 5]; g: float32[5]", "one value per channel"),
    ("y = torch.clamp(x, min=0); x: float32[64, 100]", "with both bounds"),
    ("y = np.clip(x, 0, 1, 2); x: float32[64, 100]", "with both bounds"),
])
def test_what_the_form_cannot_say_is_refused_naming_it(text, problem):
    with pytest.raises(IntentError, match=re.escape(problem)):
        parse_intent(text)


def test_words_are_not_the_spec_form():
    assert not is_spec_form("softmax of each row of x; rows x cols")
    assert not is_spec_form("y = x + 1")


# Independent definitions (PyTorch's documentation's formulas), not the spec's expansions.
REFERENCE = {
    "silu": lambda x: x / (1 + np.exp(-x)), "swish": lambda x: x / (1 + np.exp(-x)),
    "softplus": lambda x: np.log1p(np.exp(x)),
    "leaky_relu": lambda x: np.where(x >= 0, x, 0.01 * x),
    "elu": lambda x: np.where(x > 0, x, np.expm1(x)),
    "selu": lambda x: 1.0507009873554804934193349852946 * np.where(
        x > 0, x, 1.6732632423543772848170429916717 * np.expm1(x)),
    "hardtanh": lambda x: np.clip(x, -1, 1), "hardsigmoid": lambda x: np.clip(x + 3, 0, 6) / 6,
    "hardswish": lambda x: x * np.clip(x + 3, 0, 6) / 6, "softsign": lambda x: x / (1 + np.abs(x)),
    "mish": lambda x: x * np.tanh(np.log1p(np.exp(x))),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3))),
    "gelu_erf": lambda x: x * np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x]),
    "square": lambda x: x ** 2, "rsqrt": lambda x: 1 / np.sqrt(x), "reciprocal": lambda x: 1 / x,
}
NUMPY_NAMES = {"exp": np.exp, "log": np.log, "sqrt": np.sqrt, "tanh": np.tanh, "abs": np.abs, "max": np.maximum,
               "min": np.minimum, "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "pow": np.power,
               "erf": np.vectorize(math.erf)}


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_each_activation_written_out_equals_its_definition(name):
    source = {"gelu_tanh": "gelu(x, approximate='tanh')", "gelu_erf": "gelu(x)"}.get(name, f"{name}(x)")
    formula = parse_intent(f"y = {source}; x: float64[64]").expression
    x = np.linspace(0.1 if name in ("rsqrt", "reciprocal") else -6, 6, 1001)
    got = eval(formula, {"__builtins__": {}}, {**NUMPY_NAMES, "x": x})   # noqa: S307 - the test's own formula
    np.testing.assert_allclose(got, REFERENCE[name](x), rtol=1e-12, atol=1e-12)


def pooled_by_loops(x: np.ndarray, kind: str, kernel, stride, padding, dilation) -> np.ndarray:
    """Pooling written as its definition: every output position, every window element, bounds checked."""
    spatial = x.shape[1:]
    out_shape = [(n + 2 * p - d * (k - 1) - 1) // s + 1 for n, k, s, p, d in zip(spatial, kernel, stride, padding,
                                                                                  dilation)]
    out = np.empty((x.shape[0], *out_shape))
    for plane in range(x.shape[0]):
        for position in np.ndindex(*out_shape):
            values = []
            for offset in np.ndindex(*kernel):
                index = [o * s - p + k * d for o, s, p, k, d in zip(position, stride, padding, offset, dilation)]
                inside = all(0 <= i < n for i, n in zip(index, spatial))
                values.append(x[(plane, *index)] if inside else (-np.inf if kind == "max" else 0.0))
            out[(plane, *position)] = max(values) if kind == "max" else sum(values) / len(values)
    return out


@pytest.mark.parametrize("kind, kernel, stride, padding, dilation, shape", [
    ("max", (3,), (2,), (1,), (2,), (3, 20)),
    ("avg", (3, 2), (2, 1), (1, 1), (1, 1), (2, 9, 7)),
    ("max", (2, 3, 2), (1, 2, 2), (1, 1, 0), (2, 1, 1), (2, 6, 7, 5)),
])
def test_the_oracles_pooling_equals_its_definition(kind, kernel, stride, padding, dilation, shape):
    from optiml_engine.oracle import vocabulary

    x = np.random.default_rng(5).normal(size=shape)
    got = vocabulary(np)[f"{kind}_pool"](x, *kernel, *stride, *padding, *dilation)
    np.testing.assert_allclose(got, pooled_by_loops(x, kind, kernel, stride, padding, dilation), rtol=1e-12)


def convolved_by_loops(x: np.ndarray, w: np.ndarray, stride, padding, dilation, groups: int) -> np.ndarray:
    """Convolution written as its definition: every output element sums its group's channels over the window."""
    (n, cin), cout, kernel, spatial = x.shape[:2], w.shape[0], w.shape[2:], x.shape[2:]
    out_shape = [(m + 2 * p - d * (k - 1) - 1) // s + 1 for m, k, s, p, d in zip(spatial, kernel, stride, padding,
                                                                                  dilation)]
    out = np.zeros((n, cout, *out_shape))
    per_group, outs_per_group = cin // groups, cout // groups
    for b, co in np.ndindex(n, cout):
        for position in np.ndindex(*out_shape):
            for ci, offset in itertools.product(range(per_group), np.ndindex(*kernel)):
                index = [o * s - p + k * d for o, s, p, k, d in zip(position, stride, padding, offset, dilation)]
                if all(0 <= i < m for i, m in zip(index, spatial)):
                    out[(b, co, *position)] += x[(b, co // outs_per_group * per_group + ci, *index)] * \
                        w[(co, ci, *offset)]
    return out


@pytest.mark.parametrize("shape, weight, stride, padding, dilation, groups", [
    ((2, 4, 9, 8), (6, 2, 3, 2), (2, 1), (1, 1), (1, 2), 2),
    ((1, 3, 11), (4, 3, 3), (1,), (2,), (2,), 1),
    ((1, 2, 5, 6, 5), (2, 1, 2, 3, 2), (1, 2, 1), (0, 1, 1), (1, 1, 2), 2),
])
def test_the_oracles_convolution_equals_its_definition(shape, weight, stride, padding, dilation, groups):
    from optiml_engine.oracle import vocabulary

    rng = np.random.default_rng(7)
    x, w = rng.normal(size=shape), rng.normal(size=weight)
    got = vocabulary(np)["conv"](x, w, *stride, *padding, *dilation, groups)
    np.testing.assert_allclose(got, convolved_by_loops(x, w, stride, padding, dilation, groups), rtol=1e-10)


def transposed_by_loops(x, w, stride, padding, output_padding, dilation, groups):
    """PyTorch's documented transposed convolution, element by element: input i and weight offset k add
    x[n, ci, i] * w[ci, co % (Cout / groups), k] to output i * stride - padding + k * dilation."""
    (n, cin), kernel, axes = x.shape[:2], w.shape[2:], x.ndim - 2
    cout = w.shape[1] * groups
    out = [(x.shape[2 + a] - 1) * stride[a] - 2 * padding[a] + dilation[a] * (kernel[a] - 1) + output_padding[a] + 1
           for a in range(axes)]
    y = np.zeros((n, cout, *out))
    for b, ci in itertools.product(range(n), range(cin)):
        group = ci // (cin // groups)
        for local, i, k in itertools.product(range(cout // groups), itertools.product(*map(range, x.shape[2:])),
                                             itertools.product(*map(range, kernel))):
            o = tuple(i[a] * stride[a] - padding[a] + k[a] * dilation[a] for a in range(axes))
            if all(0 <= o[a] < out[a] for a in range(axes)):
                y[(b, group * (cout // groups) + local, *o)] += x[(b, ci, *i)] * w[(ci, local, *k)]
    return y


@pytest.mark.parametrize(("shape", "weight", "stride", "padding", "output_padding", "dilation", "groups"), [
    ((2, 4, 5), (4, 3, 3), (2,), (1,), (1,), (1,), 1),
    ((1, 4, 4, 5), (4, 2, 3, 2), (2, 1), (1, 0), (1, 0), (1, 2), 2),
    ((2, 2, 3, 3, 2), (2, 1, 2, 2, 2), (1, 2, 1), (0, 1, 0), (0, 1, 0), (2, 1, 1), 2),
])
def test_the_oracles_transposed_convolution_equals_its_definition(shape, weight, stride, padding, output_padding,
                                                                   dilation, groups):
    from optiml_engine.oracle import vocabulary

    rng = np.random.default_rng(8)
    x, w = rng.normal(size=shape), rng.normal(size=weight)
    got = vocabulary(np)["conv_transpose"](x, w, *stride, *padding, *output_padding, *dilation, groups)
    np.testing.assert_allclose(got, transposed_by_loops(x, w, stride, padding, output_padding, dilation, groups),
                               rtol=1e-10, atol=1e-12)


LOSS_DEFINITIONS = {
    "huber_loss(a, b, delta=0.7)": lambda d, a, b: np.where(abs(d) < 0.7, 0.5 * d * d, 0.7 * (abs(d) - 0.35)),
    "smooth_l1_loss(a, b, beta=0.5)": lambda d, a, b: np.where(abs(d) < 0.5, 0.5 * d * d / 0.5, abs(d) - 0.25),
    "hinge_loss(a, b)": lambda d, a, b: np.maximum(1 - a * b, 0),
}


@pytest.mark.parametrize("shape", [(8, 5, 6, 7), (40, 3), (2, 4, 100)])
def test_the_batch_norm_oracle_is_pytorchs_training_mode_definition(shape):
    """Each channel (axis 1) normalized by the mean and the biased variance of its elements over every other axis."""
    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.oracle import oracle_outputs, parse_oracle
    from optiml_engine.candidate import original_candidate
    from optiml_engine.source.contract import resolve
    from optiml_engine.source.parse import CudaDocument

    generated = generate_kernel(parse_intent(f"y = batch_norm(x, eps=1e-3); x: float64{list(shape)}"))
    contract = original_candidate(CudaDocument(generated.text, "g.cu"), generated.kernel).contract
    resolved = resolve(contract, contract.sizes)
    inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=4)
    got = oracle_outputs(np, parse_oracle(contract), contract, resolved, inputs)["y"]
    x = inputs["x"].reshape(shape)
    others = tuple(a for a in range(len(shape)) if a != 1)
    expected = (x - x.mean(others, keepdims=True)) / np.sqrt(x.var(others, keepdims=True) + 1e-3)
    np.testing.assert_allclose(got, expected.ravel(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("reduction", ["mean", "sum"])
def test_the_cross_entropy_oracle_is_the_negative_log_likelihood_of_each_rows_class(reduction):
    """PyTorch's cross_entropy(x, t): -log softmax(x[r])[t[r]] for each row r, averaged or summed; the targets drawn
    as valid classes at every size."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.oracle import oracle_outputs, parse_oracle
    from optiml_engine.source.contract import resolve
    from optiml_engine.source.parse import CudaDocument

    generated = generate_kernel(parse_intent(f"l = cross_entropy(x, t, reduction='{reduction}'); x: float64[30, 9]; "
                                             "t: int32[30]"))
    contract = original_candidate(CudaDocument(generated.text, "g.cu"), generated.kernel).contract
    for binding in (contract.sizes, *contract.checks):
        resolved = resolve(contract, binding)
        inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=2)
        rows = binding["rows"]
        x, t = inputs["x"].reshape(rows, 9), inputs["t"]
        assert t.min() >= 0 and t.max() < 9
        nll = -(x - np.log(np.exp(x).sum(axis=1, keepdims=True)))[np.arange(rows), t]
        got = oracle_outputs(np, parse_oracle(contract), contract, resolved, inputs)["l"]
        expected = inputs["l"][0] + (nll.mean() if reduction == "mean" else nll.sum())
        np.testing.assert_allclose(got, [expected], rtol=1e-12)


@pytest.mark.parametrize("text", [
    "l = triplet_margin_loss(a, p, n, margin=0.7); a: float64[30, 9]; p: float64[30, 9]; n: float64[30, 9]",
    "l = cosine_similarity_loss(a, p, reduction='sum'); a: float64[30, 9]; p: float64[30, 9]",
])
def test_the_row_pair_loss_oracles_are_pytorchs_definitions(text):
    """Triplet margin: mean over rows of max(||a - p + 1e-6|| - ||a - n + 1e-6|| + margin, 0) (pairwise_distance's
    eps); cosine: the sum over rows of 1 - a.b / max(|a| |b|, 1e-8)."""
    from optiml_engine.candidate import original_candidate
    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.oracle import oracle_outputs, parse_oracle
    from optiml_engine.source.contract import resolve
    from optiml_engine.source.parse import CudaDocument

    generated = generate_kernel(parse_intent(text))
    contract = original_candidate(CudaDocument(generated.text, "g.cu"), generated.kernel).contract
    resolved = resolve(contract, contract.sizes)
    inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=6)
    rows = {name: inputs[name].reshape(30, 9) for name in ("a", "p", "n") if name in inputs}
    got = oracle_outputs(np, parse_oracle(contract), contract, resolved, inputs)["l"][0] - inputs["l"][0]
    if "n" in rows:
        a, p, n = rows["a"], rows["p"], rows["n"]
        each = [max(np.linalg.norm(a[r] - p[r] + 1e-6) - np.linalg.norm(a[r] - n[r] + 1e-6) + 0.7, 0.0)
                for r in range(30)]
        expected = np.mean(each)
    else:
        a, p = rows["a"], rows["p"]
        expected = sum(1 - a[r] @ p[r] / max(np.linalg.norm(a[r]) * np.linalg.norm(p[r]), 1e-8) for r in range(30))
    np.testing.assert_allclose(got, expected, rtol=1e-9)


@pytest.mark.parametrize(("reduction", "divisor"), [("batchmean", 40), ("sum", 1), ("mean", 40 * 70)])
def test_kl_div_written_out_is_pytorchs_definition(reduction, divisor):
    """kl_div(input, target) with the input in log space: sum(target * (log(target) - input)) over every element,
    divided by the batch ('batchmean'), by nothing ('sum') or by the element count ('mean')."""
    rng = np.random.default_rng(5)
    p, t = rng.uniform(0.01, 1, (40, 70)), rng.uniform(0.01, 1, (40, 70))
    spec = parse_intent(f"l = kl_div(log(p), t, reduction='{reduction}'); p: float64[40, 70]; t: float64[40, 70]")
    flat = {"p": p.ravel(), "t": t.ravel()}
    got = eval(spec.expression, {"__builtins__": {}}, {**NUMPY_NAMES, **flat})   # noqa: S307 - the test's own formula
    got = got.mean() if spec.operation == "mean" else got.sum()
    np.testing.assert_allclose(got, (t * (np.log(t) - np.log(p))).sum() / divisor, rtol=1e-12)


@pytest.mark.parametrize("loss", sorted(LOSS_DEFINITIONS))
def test_each_loss_written_out_equals_its_definition(loss):
    """The summed formula of each loss, evaluated by NumPy, against the piecewise definition (PyTorch's)."""
    rng = np.random.default_rng(3)
    a, b = rng.uniform(-3, 3, 2001), rng.uniform(-3, 3, 2001)
    spec = parse_intent(f"l = {loss[:-1]}, reduction='sum'); a: float64[2001]; b: float64[2001]")
    got = eval(spec.expression, {"__builtins__": {}}, {**NUMPY_NAMES, "a": a, "b": b})   # noqa: S307 - the test's own formula
    np.testing.assert_allclose(got, LOSS_DEFINITIONS[loss](a - b, a, b), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("text", [
    "y = hardswish(x) - 0.25 * softsign(b); x: float32[37, 129]; b: float32[129]",
    "out = x.max(axis=0); x: float32[300, 70]",
    "y = torch.rms_norm(x, eps=1e-6); x: float32[64, 200]",
    "y = x.sum(axis=1); x: float32[4, 50, 6]",
    "y = argmax(x, axis=-2); x: float64[4, 50, 6]",
    "y = logsumexp(x, axis=1); x: float32[4, 50, 6]",
    "l = F.mse_loss(p, t); p: float32[1000]; t: float32[1000]",
    "l = l1_loss(p, t, reduction='sum'); p: float64[999]; t: float64[999]",
    "d = sum(a * b, axis=1); a: float32[40, 52]; b: float32[40, 52]",
    "m = max(abs(a - b), axis=0); a: float32[30, 70]; b: float32[30, 70]",
    "y = cumsum(x, axis=1); x: float32[12, 40]",
    "y = cumsum(x, dim=-1, reverse=True); x: float32[3, 4, 50]",
    "y = cumsum(x, axis=1, exclusive=True, reverse=True); x: float64[16, 30]",
    "y = cumsum(x, exclusive=True); x: float32[16, 30]",
    "y = torch.cumprod(x, dim=1); x: float32[8, 20]",
    "y = F.gelu(x) * g; x: float32[3, 333]; g: float32[333]",
    "i = argmin(x, axis=0); x: float32[50, 37]",
    "p = prod(x, axis=1); x: float64[4, 30, 5]",
    "y = instance_norm(x, eps=1e-6); x: float32[2, 3, 5, 7]",
    "y = softmax(x, axis=0); x: float32[40, 13]",
    "y = log_softmax(x, dim=1); x: float64[3, 50, 7]",
    "y = rms_norm(x, axis=1, eps=1e-6); x: float32[4, 30, 5]",
    "y = group_norm(x, 2); x: float32[3, 4, 9]",
    "y = group_norm(x, 2, weight=w, bias=b); x: float32[3, 4, 5, 2]; w: float32[4]; b: float32[4]",
    "y = instance_norm(x, weight=w, eps=1e-6); x: float64[2, 3, 11]; w: float64[3]",
    "y = layer_norm(x, axis=(-2, -1)); x: float32[5, 6, 7]",
    "y = layer_norm(x, weight=w, bias=b); x: float32[37, 129]; w: float32[129]; b: float32[129]",
    "y = np.clip(x, -0.5, 0.75) + torch.clamp(z, min=0, max=6); x: float32[33, 65]; z: float32[33, 65]",
    "y = x.clamp(-1.0, 1.0); x: float64[1000]",
    "y = F.layer_norm(x, (6, 7), w, b, eps=1e-6); x: float64[5, 6, 7]; w: float64[6, 7]; b: float64[6, 7]",
    "y = F.rms_norm(x, (200,), w); x: float32[64, 200]; w: float32[200]",
    "y = layer_norm(x, axis=1, weight=w); x: float32[4, 30, 5]; w: float32[30]",
    "l = huber_loss(p, t, delta=0.3); p: float32[20, 30]; t: float32[20, 30]",
    "l = smooth_l1_loss(p, t, reduction='sum'); p: float64[999]; t: float64[999]",
    "l = hinge_loss(p, t); p: float32[5000]; t: float32[5000]",
    "l = kl_div(log(p), t, reduction='batchmean'); p: float32[16, 300]; t: float32[16, 300]",
    "y = batch_norm(x, eps=1e-3); x: float32[4, 6, 5, 7]",
    "l = cross_entropy(x, t); x: float32[64, 100]; t: int32[64]",
    "y = F.normalize(x, p=1, dim=1); x: float32[64, 300]",
    "C = A.T @ B; A: float32[64, 32]; B: float32[64, 48]",
    "C = A.T @ B.T; A: float32[64, 32]; B: float32[48, 64]",
    "C = torch.bmm(A, B); A: float32[4, 32, 16]; B: float32[4, 16, 24]",
    "C = A @ B; A: float32[4, 32, 16]; B: float32[16, 24]",
    "C = A @ B; A: float32[2, 3, 5, 16]; B: float32[16, 24]",
    "y = A.T @ x; A: float32[100, 70]; x: float32[100]",
    "C = torch.triu(torch.matmul(A, B)); A: float32[64, 64]; B: float32[64, 64]",
    "C = tril(A @ B.T); A: float32[40, 30]; B: float32[40, 30]",
    "C = torch.diag(a) @ B; a: float32[64]; B: float32[64, 100]",
    "C = B @ diag(a); a: float64[100]; B: float64[64, 100]",
    "l = triplet_margin_loss(a, p, n, margin=0.5); a: float32[64, 100]; p: float32[64, 100]; n: float32[64, 100]",
    "l = torch.mean(1 - F.cosine_similarity(x, y, dim=1)); x: float64[50, 70]; y: float64[50, 70]",
    "y = l2_normalize(x, axis=0); x: float64[30, 7]",
    "y = normalize(x, dim=1, eps=1e-6); x: float32[4, 20, 6]",
    "l = F.cross_entropy(x, t, reduction='sum'); x: float64[50, 7]; t: int32[50]",
    "y = cumsum(x * m, axis=1, exclusive=True); x: float32[9, 40]; m: float32[9, 40]",
    "y = cumsum(x, axis=0); x: float32[40, 13]",
    "y = cumsum(x, axis=1, exclusive=True, reverse=True); x: float64[4, 30, 5]",
    "y = torch.cumprod(x, dim=-2); x: float32[3, 20, 6]",
    "y = cumsum(x * m, axis=0); x: float32[25, 3, 4]; m: float32[25, 3, 4]",
    "y = cumprod(abs(a) + 0.5, axis=-1); a: float64[3, 4, 10]",
    "y = F.batch_norm(x); x: float64[50, 9]",
    "y = batch_norm(x, weight=g, bias=b, eps=1e-3); x: float32[4, 6, 5, 7]; g: float32[6]; b: float32[6]",
    "l = F.kl_div(p, t, reduction='sum'); p: float64[999]; t: float64[999]",
    "y = max_pool2d(x, 3, stride=2, padding=1); x: float32[2, 3, 17, 20]",
    "y = F.avg_pool1d(x, kernel_size=4, stride=3, padding=2); x: float64[3, 50]",
    "y = max_pool3d(x, kernel_size=(2, 3, 2), dilation=(1, 2, 1)); x: float32[2, 9, 12, 10]",
    "y = conv2d(x, w, b, stride=2, padding=(1, 2), dilation=(2, 1), groups=2); x: float32[2, 4, 11, 12]; "
    "w: float32[6, 2, 3, 5]; b: float32[6]",
    "y = F.conv1d(x, w, None, 1, 2, 1, 4); x: float64[2, 8, 30]; w: float64[4, 2, 5]",
    "y = conv3d(x, w, stride=2); x: float32[1, 2, 6, 7, 5]; w: float32[3, 2, 3, 3, 3]",
    "y = conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1); x: float32[2, 4, 5, 6]; "
    "w: float32[4, 3, 3, 3]; b: float32[3]",
    "y = F.conv_transpose1d(x, w, None, 3, 2, 1, 2, 2); x: float64[2, 4, 9]; w: float64[4, 3, 4]",
    "y = conv_transpose3d(x, w, stride=(2, 1, 2), padding=(0, 1, 1)); x: float32[1, 2, 3, 4, 3]; "
    "w: float32[2, 2, 2, 3, 3]",
    "y = conv_transpose1d(x, w, padding=3); x: float32[2, 3, 20]; w: float32[3, 2, 3]",
])
def test_spec_form_kernels_match_their_oracle_on_the_cpu(text, tmp_path):
    generated = generate_kernel(parse_intent(text))
    for binding, result in comparisons_on_cpu(generated.text, generated.kernel, tmp_path):
        assert result.ok, f"at {binding}: {result.reason}"


def normalized(spec) -> dict:
    from optiml_engine.generate.intent import ELEMENTWISE_FUNCTIONS, INTENT
    from optiml_engine.source.expr import parse_expr

    fields = spec.model_dump(include={"family", "operation", "sizes", "inputs", "output", "row_vectors", "scalars",
                                      "axes", "transpose_b", "dtype", "expression", "reverse", "exclusive"})
    if spec.expression is not None:
        fields["expression"] = str(parse_expr(spec.expression, INTENT, ELEMENTWISE_FUNCTIONS))
    return fields


@pytest.mark.parametrize("intent", [case[0] for case in INTENTS])
def test_what_words_were_read_as_is_a_spec_form_that_reads_the_same(intent):
    """The form an intent in words is shown as ('read as:'), read again, is the same spec: the user can check and
    edit the interpretation in the exact language."""
    spec = parse_intent(intent)
    form = spec_form(spec)
    if spec.family in ("stencil", "histogram"):
        assert form is None
        return
    assert normalized(parse_intent(form)) == normalized(spec), form


def test_a_refusal_in_words_shows_the_spec_form():
    with pytest.raises(IntentError, match=r"or exactly, in the spec form, e\.g\. 'y = softmax\(x, axis=1\)"):
        parse_intent("frobnicate the tensor x")


def test_max_inside_a_formula_is_numpys_reduction_not_a_maximum():
    with pytest.raises(IntentError, match=re.escape("maximum(a, b) or minimum(a, b) element by element")):
        parse_intent("y = 1 + max(x, 0); x: float32[8]")
    assert parse_intent("y = 1 + maximum(x, 0); x: float32[8]").expression == "(1 + max(x, 0))"


@pytest.mark.parametrize("text", [
    "l = F.mse_loss(p, t); p: float32[1000]; t: float32[1000]",
    "m = max(abs(a - b), axis=0); a: float32[30, 70]; b: float32[30, 70]",
    "y = x.sum(axis=1); x: float32[64, 512, 256]",
    "y = cumsum(x, axis=1, exclusive=True, reverse=True); x: float64[16, 300]",
    "s = cumsum(x, reverse=True); x: float32[1000]",
])
def test_the_spec_form_of_a_spec_form_reads_the_same(text):
    spec = parse_intent(text)
    assert normalized(parse_intent(spec_form(spec))) == normalized(spec)


@pytest.mark.parametrize("intent", [
    "apply mish to x, 1024 floats",
    "tanh of x followed by dropout, n = 4096",
    "relu of x then max pooling, 4096 floats",
    "sum of each row of x after a huber transform (rows x cols)",
])
def test_an_operation_the_reading_leaves_out_is_refused(intent):
    with pytest.raises(IntentError):
        parse_intent(intent)


def test_the_refusal_names_the_operation_left_out():
    with pytest.raises(IntentError, match=r"'dropout' names an operation this reading \(map\) does not compute"):
        parse_intent("tanh of x followed by dropout, n = 4096")


def test_products_of_matrices_are_still_products():
    assert parse_intent("matrix-vector product, A is 4096 x 1024").family == "gemv"


@pytest.mark.parametrize("text", ["y = softmax(x, axis=7); x: float32[4096, 1000]",
                                  "y = sum(x, axis=5); x: float32[64, 32]",
                                  "m = amax(x, axis=(1, 3)); x: float32[32, 50, 60]",
                                  "y = cumsum(x, axis=-3); x: float32[4, 1000]"])
def test_an_axis_the_array_does_not_have_is_refused(text) -> None:
    """Counted modulo the rank, axis 7 of a 2-D array was read as axis 1: a wrong kernel, verified against the same
    misreading."""
    with pytest.raises(IntentError, match=r"axis .* of x, which has \d axes .*expected an axis from"):
        parse_intent(text)


EINSUMS = ["ij,jk->ik", "ji,jk->ik", "ij,kj->ik", "ji,kj->ik", "bij,bjk->bik", "ij,j->i", "ji,j->i", "k,ki->i",
           "k,ik->i", "i,i->", "ij,ij->ij", "ij->ji", "ijk->kij", "ijk->jik", "ij->i", "ij->j", "ijk->", "ijk->ik"]


@pytest.mark.parametrize("subscripts", EINSUMS)
def test_an_einsum_is_written_out_as_what_numpy_computes(subscripts):
    """The subscripts' expression in the form's words, evaluated by NumPy, equals np.einsum itself; and the spec
    form with the einsum reads as that expression does."""
    rng = np.random.default_rng(3)
    sizes = dict(zip("bijk", (2, 3, 4, 5)))
    inputs, output = subscripts.split("->")
    names = ["A", "B"] if "," in inputs else ["x"]
    arrays = {name: rng.standard_normal([sizes[c] for c in letters]).astype(np.float32)
              for name, letters in zip(names, inputs.split(","))}
    written = _einsum(subscripts, names)
    functions = {"sum": np.sum, "permute": np.transpose, "bmm": np.matmul}
    got = eval(written, {"__builtins__": {}}, {**functions, **arrays})     # the form's own expression, NumPy's meaning
    np.testing.assert_allclose(got, np.einsum(subscripts, *arrays.values()), rtol=1e-5, atol=1e-5)
    declared = "; ".join(f"{name}: float32[{', '.join(str(d) for d in a.shape)}]" for name, a in arrays.items())
    einsum = parse_intent(f"y = einsum('{subscripts}', {', '.join(names)}); {declared}")
    assert reading_key(einsum) == reading_key(parse_intent(f"y = {written}; {declared}"))


@pytest.mark.parametrize("subscripts", ["ii->", "ij,jk->ki", "i,j->ij", "ijk->ki", "ij,jk", "ij,jk,kl->il"])
def test_an_einsum_outside_those_is_refused(subscripts):
    operands = ", ".join(["A", "B", "C"][:len(subscripts.split("->")[0].split(","))])
    declared = "; ".join(f"{n}: float32[4, 4]" for n in operands.split(", "))
    with pytest.raises(IntentError, match="einsum"):
        parse_intent(f"y = einsum('{subscripts}', {operands}); {declared}")
