"""Generation from an intent: the parsed spec of intents phrased as different people would, each generated kernel
compiled with NVRTC and its contract and NumPy oracle parsed; the oracles checked against direct Python loops;
intents outside the families answered with what is supported."""

from __future__ import annotations

import math

import numpy
import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import IntentError, intent_comments, parse_intent
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.gpu.data import make_inputs
from optiml_engine.model import OptimlError, ReferenceOracle
from optiml_engine.oracle import oracle_outputs
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

# (intent, family, operation, sizes, inputs, output, extra spec fields)
INTENTS = [
    ("row-wise softmax of x (rows x cols, float) into y", "row_normalization", "softmax",
     {"rows": 16384, "cols": 1024}, ["x"], "y", {}),
    ("softmax over the last dimension of a 4096x1024 matrix", "row_normalization", "softmax",
     {"rows": 4096, "cols": 1024}, ["x"], "y", {}),
    ("log-softmax of each row of logits, 8192 x 512", "row_normalization", "log_softmax",
     {"rows": 8192, "cols": 512}, ["logits"], "y", {}),
    ("logsumexp of every row of x (rows x cols)", "row_reduction", "logsumexp",
     {"rows": 16384, "cols": 1024}, ["x"], "out", {}),
    ("layernorm over rows of x, 65536 x 1024, eps 1e-5", "row_normalization", "layernorm",
     {"rows": 65536, "cols": 1024}, ["x"], "y", {"scalars": {"eps": 1e-5}}),
    ("RMSNorm each row of a 16384x4096 float matrix with eps=1e-6", "row_normalization", "rmsnorm",
     {"rows": 16384, "cols": 4096}, ["x"], "y", {"scalars": {"eps": 1e-6}}),
    ("sum of each row of x (rows x cols)", "row_reduction", "sum", {"rows": 16384, "cols": 1024}, ["x"], "out", {}),
    ("mean of every column of a 32768 x 2048 matrix", "column_reduction", "mean",
     {"rows": 32768, "cols": 2048}, ["x"], "out", {}),
    ("column-wise minimum of data (rows x cols) into colmin", "column_reduction", "min",
     {"rows": 16384, "cols": 1024}, ["data"], "colmin", {}),
    ("L2 norm of each row of x, 4096 by 4096", "row_reduction", "l2norm", {"rows": 4096, "cols": 4096}, ["x"],
     "out", {}),
    ("argmax per row of scores (rows x cols)", "row_reduction", "argmax", {"rows": 16384, "cols": 1024},
     ["scores"], "out", {}),
    ("I need the max of every row of a 2048x8192 double matrix", "row_reduction", "max",
     {"rows": 2048, "cols": 8192}, ["x"], "out", {"dtype": "float64"}),
    ("total sum of all elements of x, n = 16M floats", "global_reduction", "sum", {"n": 16 << 20}, ["x"], "out", {}),
    ("global max of a vector of 1M floats", "global_reduction", "max", {"n": 1 << 20}, ["x"], "out", {}),
    ("transpose a 4096x8192 float matrix", "transpose", "transpose", {"rows": 4096, "cols": 8192}, ["x"], "y", {}),
    ("permute x of shape 64 x 512 x 256 to (0, 2, 1)", "transpose", "permute",
     {"d0": 64, "d1": 512, "d2": 256}, ["x"], "y", {"axes": [0, 2, 1]}),
    ("swap the first two axes of t, 128 x 64 x 512", "transpose", "permute", {"d0": 128, "d1": 64, "d2": 512},
     ["t"], "y", {"axes": [1, 0, 2]}),
    ("C = A @ B with A 1024x512 and B 512x2048, fp32", "gemm", "gemm", {"M": 1024, "N": 2048, "K": 512},
     ["A", "B"], "C", {"transpose_b": False}),
    ("matrix multiply A (2048x2048) by B^T, B stored 2048x2048", "gemm", "gemm", {"M": 2048, "N": 2048, "K": 2048},
     ["A", "B"], "C", {"transpose_b": True}),
    ("matrix-vector product y = A x, A is 8192 x 4096", "gemv", "gemv", {"rows": 8192, "cols": 4096}, ["A", "x"],
     "y", {}),
    ("y = relu(x) * 2 elementwise over n floats", "elementwise", "map", {"n": 1 << 24}, ["x"], "y",
     {"expression": "relu(x)*2"}),
    ("out = a * b + c for vectors of length 1M", "elementwise", "map", {"n": 1 << 20}, ["a", "b", "c"], "out",
     {"expression": "a*b+c"}),
    ("compute z = exp(-x*x) + sin(v) elementwise, 10M floats", "elementwise", "map", {"n": 10 << 20},
     ["x", "v"], "z", {"expression": "exp(-x*x)+sin(v)"}),
    ("y = x + b where b is a bias vector broadcast over rows, x is 4096 x 1024", "elementwise", "map",
     {"rows": 4096, "cols": 1024}, ["x", "b"], "y", {"row_vectors": ["b"]}),
    ("sigmoid of x elementwise", "elementwise", "map", {"n": 1 << 24}, ["x"], "y", {"expression": "sigmoid(x)"}),
    ("3-point 1-D convolution of x with weights w (n = 1<<24)", "stencil", "conv1d", {"n": 1 << 24}, ["x", "w"],
     "y", {"width": 3}),
    ("5x5 convolution of an image 4096x4096 with a filter w", "stencil", "conv2d", {"rows": 4096, "cols": 4096},
     ["img", "w"], "out", {"width": 5}),
    ("3x3 box blur of img (rows x cols)", "stencil", "conv2d", {"rows": 4096, "cols": 4096}, ["img"], "out",
     {"width": 3}),
    ("histogram of 64M int keys into 256 bins", "histogram", "histogram", {"n": 64 << 20}, ["keys"], "bins",
     {"width": 256}),
    ("inclusive prefix sum of n ints", "prefix_sum", "prefix_sum", {"n": 1 << 24}, ["x"], "y", {"dtype": "int32"}),
    ("cumulative sum of x (n = 1M floats)", "prefix_sum", "prefix_sum", {"n": 1 << 20}, ["x"], "y",
     {"dtype": "float32"}),
]

NEGATIVE = [
    ("sum of x (rows x cols)", "not along which axis"),
    ("sort an array of 1M floats", "'sort' is not an operation"),
    ("matrix multiply in fp16", "element type 'fp16' is not generated"),
    ("histogram of keys", "without its number of bins"),
    ("do something fast", "no supported operation"),
    ("column softmax of x", "over columns is not generated"),
    ("an exclusive prefix sum of x", "exclusive prefix sum is not generated"),
    ("8-point convolution of x", "width 8"),
    ("", "empty"),
]


def generated_document(intent: str):
    generated = generate_kernel(parse_intent(intent))
    return generated, CudaDocument(generated.text, "generated.cu")


@pytest.mark.parametrize("intent, family, operation, sizes, inputs, output, extra", INTENTS,
                         ids=[case[0][:40] for case in INTENTS])
def test_intent_parses_to_spec(intent, family, operation, sizes, inputs, output, extra):
    spec = parse_intent(intent)
    assert (spec.family, spec.operation, spec.sizes, spec.inputs, spec.output) == \
        (family, operation, sizes, inputs, output)
    for key, value in extra.items():
        assert getattr(spec, key) == value


@pytest.mark.parametrize("intent", [case[0] for case in INTENTS], ids=[case[0][:40] for case in INTENTS])
def test_generated_kernel_compiles_with_contract_and_oracle(intent):
    generated, document = generated_document(intent)
    candidate = original_candidate(document, generated.kernel)
    oracle = reference_candidate(document, candidate)
    assert isinstance(oracle, ReferenceOracle) and oracle.text == generated.reference
    assert candidate.contract.checks, "every generated kernel is checked at odd sizes too"
    result = compile_nvrtc(candidate.unit, arch="sm_90")
    assert result.ok, result.log
    assert result.resources.spill_store_bytes == 0


@pytest.mark.parametrize("intent, message", NEGATIVE)
def test_unsupported_or_ambiguous_intent_says_what_is_supported(intent, message):
    with pytest.raises(IntentError) as raised:
        parse_intent(intent)
    assert message in str(raised.value)
    assert "understood:" in str(raised.value)


def test_unknown_operation_lists_the_families():
    with pytest.raises(IntentError) as raised:
        parse_intent("fft of a signal")
    for family in ("softmax", "GEMM", "histogram", "prefix sum", "transpose"):
        assert family in str(raised.value)


def test_intent_comments_found_with_their_lines():
    text = "#include <x>\n// @optiml generate: sum of each row of x\nint a;\n  //  @optiml generate:  transpose x \n"
    assert [(c.line, c.intent) for c in intent_comments(text)] == [(1, "sum of each row of x"), (3, "transpose x")]


# ---------------------------------------------------------------------------------------------------------------
# The oracles against direct loops (CPU), at a small check size


def oracle_at_smallest(intent: str, pick: int = 0):
    generated, document = generated_document(intent)
    candidate = original_candidate(document, generated.kernel)
    oracle = reference_candidate(document, candidate)
    contract = candidate.contract
    resolved = resolve(contract, contract.checks[pick])
    inputs = make_inputs(numpy, contract.arrays, resolved.lengths, seed=3)
    return resolved.binding, inputs, oracle_outputs(numpy, oracle, contract, resolved, inputs)


def test_softmax_oracle_matches_loops():
    binding, inputs, expected = oracle_at_smallest("row-wise softmax of x (rows x cols) into y", pick=3)
    rows, cols, x = binding["rows"], binding["cols"], inputs["x"].astype(float)
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        total = sum(math.exp(v) for v in row)
        assert numpy.allclose(expected["y"][r * cols:(r + 1) * cols], [math.exp(v) / total for v in row], rtol=1e-6)


def test_layernorm_oracle_matches_loops():
    binding, inputs, expected = oracle_at_smallest("layernorm of each row of x, eps 1e-5", pick=3)
    rows, cols, x = binding["rows"], binding["cols"], inputs["x"].astype(float)
    for r in range(rows):
        row = x[r * cols:(r + 1) * cols]
        mean = sum(row) / cols
        var = sum((v - mean) ** 2 for v in row) / cols
        want = [(v - mean) / math.sqrt(var + 1e-5) for v in row]
        assert numpy.allclose(expected["y"][r * cols:(r + 1) * cols], want, rtol=1e-5, atol=1e-6)


def test_column_argmax_oracle_is_first_index_of_the_max():
    binding, inputs, expected = oracle_at_smallest("argmax of each column of x", pick=3)
    rows, cols, x = binding["rows"], binding["cols"], inputs["x"]
    assert expected["out"].dtype == numpy.int32
    for c in range(cols):
        column = [x[r * cols + c] for r in range(rows)]
        assert expected["out"][c] == column.index(max(column))


def test_conv2d_oracle_pads_with_zeros():
    binding, inputs, expected = oracle_at_smallest("5x5 convolution of img with filter w", pick=0)
    rows, cols, img, w = binding["rows"], binding["cols"], inputs["img"].astype(float), inputs["w"].astype(float)
    for r, c in [(0, 0), (rows - 1, cols - 1), (rows // 2, 1)]:
        want = sum(w[i * 5 + j] * img[(r + i - 2) * cols + c + j - 2] for i in range(5) for j in range(5)
                   if 0 <= r + i - 2 < rows and 0 <= c + j - 2 < cols)
        assert math.isclose(expected["out"][r * cols + c], want, rel_tol=1e-5, abs_tol=1e-6)


def test_permute_oracle_moves_axes():
    binding, inputs, expected = oracle_at_smallest("permute x of shape 8 x 16 x 32 to (2, 0, 1)")
    d0, d1, d2, x = binding["d0"], binding["d1"], binding["d2"], inputs["x"]
    out = expected["y"]
    for a, b, c in [(0, 0, 0), (d0 - 1, d1 - 1, d2 - 1), (1, min(2, d1 - 1), min(3, d2 - 1))]:
        assert out[c * d0 * d1 + a * d1 + b] == x[a * d1 * d2 + b * d2 + c]


def test_histogram_and_prefix_sum_oracles_count_and_accumulate():
    _, inputs, expected = oracle_at_smallest("histogram of keys into 64 bins", pick=2)
    counts = [0] * 64
    for key in inputs["keys"]:
        counts[key] += 1
    assert list(expected["bins"]) == counts and expected["bins"].dtype == numpy.uint32
    _, inputs, expected = oracle_at_smallest("prefix sum of n ints", pick=2)
    running, want = 0, []
    for value in inputs["x"]:
        running += int(value)
        want.append(running)
    assert list(expected["y"]) == want


def test_global_max_oracle_keeps_the_starting_value_in_play():
    _, inputs, expected = oracle_at_smallest("global max of x", pick=2)
    assert expected["out"][0] == numpy.float32(max(inputs["x"].max(), inputs["out"][0]))


def test_broadcast_oracle_adds_the_row_vector_to_every_row():
    binding, inputs, expected = oracle_at_smallest("y = x + b where b is a bias vector broadcast over rows")
    cols = binding["cols"]
    x, b = inputs["x"], inputs["b"]
    assert numpy.allclose(expected["y"], numpy.float32(x + numpy.tile(b, binding["rows"])), rtol=1e-6)
    assert b.size == cols


# ---------------------------------------------------------------------------------------------------------------
# Oracle errors


ORACLE_CONTRACT = """/* @optiml
   sizes:  n=64
   x:      in  float[n]
   y:      out float[n]
   launch: grid=1 block=64
   reference: {reference}
*/
__global__ void k(const float* x, float* y, int n) {{}}
"""


@pytest.mark.parametrize("reference, message", [
    ("y = exp(z)", "unknown name 'z'"),
    ("x = exp(x)", "'x' is not an out or inout array"),
    ("y = sum(x)  ; y = x", "given twice"),
    ("y = matmul(reshape(x, 8, 8), ones(8, 2))", "has 16 elements"),
    ("y = eval(x)", "unknown function 'eval'"),
])
def test_oracle_errors_are_located_and_say_what_is_expected(reference, message):
    document = CudaDocument(ORACLE_CONTRACT.format(reference=reference), "k.cu")
    with pytest.raises(OptimlError) as raised:
        reference_candidate(document, original_candidate(document, "k"))
    assert message in str(raised.value) and str(raised.value).startswith("k.cu:1:")


def test_reference_naming_a_kernel_still_means_that_kernel():
    text = ORACLE_CONTRACT.format(reference="other") + "__global__ void other(const float* x, float* y, int n) {}\n"
    text = text.replace("__global__ void other", "/* @optiml\n   sizes: n=64\n   x: in float[n]\n   y: out float[n]\n"
                                                 "   launch: grid=1 block=64\n*/\n__global__ void other")
    document = CudaDocument(text, "k.cu")
    reference = reference_candidate(document, original_candidate(document, "k"))
    assert reference.unit.kernel == "other"
