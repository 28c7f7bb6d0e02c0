"""Generation from an intent: the parsed spec of intents phrased as different people would, each generated kernel
compiled with NVRTC and its contract and NumPy oracle parsed; the oracles checked against direct Python loops;
intents outside the families answered with what is supported."""

from __future__ import annotations

import math
import re
import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.families import generate_kernel
from optiml_engine.generate.intent import KERNEL_LOCALS, IntentError, intent_comments, parse_intent
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.gpu.data import make_inputs
from optiml_engine.model import OptimlError, ReferenceOracle
from optiml_engine.oracle import oracle_outputs
from optiml_engine.policies.templates import matches
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument
from tests.benches import bench_module
from tests.intents import INTENTS, NEGATIVE
from tests.unit.test_cli import assert_located_error, optiml

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


# ---------------------------------------------------------------------------------------------------------------
# The command line and the GPU bench, as processes


def test_cli_generate_writes_a_kernel_the_other_commands_accept(tmp_path):
    target = tmp_path / "gen.cu"
    run = optiml("generate", "RMSNorm each row of a 16384x4096 float matrix with eps=1e-6", "-o", str(target))
    assert run.returncode == 0, run.stderr
    assert "row_normalization / rmsnorm: kernel rmsnorm_rows_x" in run.stdout and "compiles" in run.stdout
    run = optiml("generate", "y = relu(x) * 2 elementwise over n floats", "-o", str(target))
    assert run.returncode == 0, run.stderr
    listed = optiml("kernels", str(target))
    assert listed.returncode == 0 and listed.stdout.count(" ok ") == 2, listed.stdout + listed.stderr
    compiled = optiml("compile", str(target), "--kernel", "map_y")
    assert compiled.returncode == 0, compiled.stderr
    again = optiml("generate", "y = relu(x) * 2 elementwise over n floats", "-o", str(target))
    assert_located_error(again, "already has a kernel named map_y")


def test_cli_generate_refuses_an_unsupported_intent_and_writes_nothing(tmp_path):
    target = tmp_path / "gen.cu"
    run = optiml("generate", "sort 1M floats", "-o", str(target))
    assert_located_error(run, "'sort' is not an operation OptiML generates")
    assert "softmax" in run.stderr and not target.exists()


def test_bench_generates_every_kernel_then_exits_2_without_a_gpu(tmp_path):
    root = Path(__file__).resolve().parents[2]
    environment = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    environment.pop("OPTIML_GPUS", None)
    run = subprocess.run([sys.executable, str(root / "bench" / "generate_bench.py"), str(tmp_path)],
                         capture_output=True, text=True, timeout=300, env=environment)
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "error: no CUDA device" in run.stderr
    assert len(list((tmp_path / "kernels").glob("*.cu"))) == len(INTENTS)
    assert not (tmp_path / "generate.json").exists()


def test_bench_takes_a_subset_of_the_intents():
    bench = generate_bench()
    assert bench.intent_numbers("1-3,7") == {1, 2, 3, 7}
    with pytest.raises(Exception, match="not a list of intent numbers"):
        bench.intent_numbers("1-x")


def generate_bench():
    return bench_module("generate_bench")


@pytest.mark.parametrize("overhead_s", [10.0, 14.0, 20.0])
def test_bench_schedule_fits_eight_minutes_when_kernels_cost_what_it_assumes(overhead_s):
    """Kernels costing OVERHEAD_S (or less, or more) besides their search: the searches shrink to fit, and all
    intents end within the budget (a search may overrun its time by one candidate: counted as 3 s)."""
    bench = generate_bench()
    now, deadline, optimized = 20.0, 480.0, 0
    for index in range(len(INTENTS)):
        seconds = bench.search_seconds(now, deadline, len(INTENTS) - index)
        if seconds is None:
            now += bench.VERIFY_S
        else:
            assert bench.MIN_SEARCH_S <= seconds <= bench.MAX_SEARCH_S
            now += overhead_s + seconds + 3.0
            optimized += 1
    assert now <= deadline and optimized >= 10


def test_bench_measures_one_kernel_of_each_family_first(tmp_path):
    order = [generated.spec.family for _, _, generated, _ in generate_bench().generated_kernels(tmp_path)]
    families = len(set(order))
    assert len(set(order[:families])) == families == 11


def test_bench_table_reports_verification_and_time_over_sol():
    bench = generate_bench()
    row = {"intent": "sum of each row of x", "family": "row_reduction", "kernel": "sum_rows_x", "verified": True,
           "verdict": "ok", "reason": "", "note": "", "naive_ms": 2.5, "naive_time_over_sol": 8.0,
           "optimized": True, "optimized_ms": 0.3125, "optimized_time_over_sol": 1.2, "speedup": 8.0}
    wrong = {**row, "kernel": "bad", "verified": False, "verdict": "wrong", "reason": "y: relative L2 error 1",
             "optimized": False, "optimized_ms": None, "optimized_time_over_sol": None, "speedup": None,
             "naive_ms": None, "naive_time_over_sol": None}
    table = bench.markdown({"device": {"name": "NVIDIA H100"}, "date": "2026-01-01", "command": bench.COMMAND,
                            "minutes": 8, "seconds": 400, "intents": [row, wrong]})
    assert "1/2 first kernels verified; 1 optimized kernels accepted" in table
    assert "| 1 | sum of each row of x | row_reduction | sum_rows_x | yes | 2.5000 | 8.00x | 0.3125 | 1.20x | 8.00x |" \
        in table
    assert "| no (wrong) | - | - | - | - | - |" in table and "- 2 bad: y: relative L2 error 1" in table


def test_bench_table_merges_a_split_run_by_intent_number():
    bench = generate_bench()
    row = {"intent": "sum of each row of x", "family": "row_reduction", "kernel": "sum_rows_x", "verified": True,
           "verdict": "ok", "reason": "", "note": "", "naive_ms": 2.5, "naive_time_over_sol": 8.0,
           "optimized": True, "optimized_ms": 0.3125, "optimized_time_over_sol": 1.2, "speedup": 8.0}
    halves = [{"device": {"name": "NVIDIA H100"}, "date": "2026-01-01", "command": f"{bench.COMMAND} --only {only}",
               "minutes": 9, "seconds": 500, "intents": [{**row, "number": n, "kernel": f"k{n}"} for n in numbers]}
              for only, numbers in (("3-4", (4, 3)), ("1-2", (1, 2)))]
    table = bench.markdown(bench.merged(halves))
    assert [line.split(" | ")[3] for line in table.splitlines() if line.startswith("| ") and line.split(" | ")[3][1:].isdigit()] \
        == ["k1", "k2", "k3", "k4"]
    assert "--only 3-4; " in table and "18-minute budget" in table and "4/4 first kernels verified" in table


@pytest.mark.parametrize("intent", [case[0] for case in INTENTS], ids=[case[0][:40] for case in INTENTS])
def test_every_kernel_variable_is_a_name_the_parser_refuses_for_arrays(intent):
    generated = generate_kernel(parse_intent(intent))
    body = generated.text[generated.text.index("__global__"):]
    declared = set(re.findall(r"\b(?:int|float|double|unsigned int)\s+(\w+)\s*(?:=|\[|;)", body))
    assert declared <= KERNEL_LOCALS[generated.spec.family]


# Which built-in template recognizes each family's first kernel: what the search starts from. The kernels of
# UNTEMPLATED have no template yet; the search has the rules only for them.
TEMPLATE_OF_FAMILY = {
    "elementwise": "elementwise", "row_reduction": "row_reduction", "row_normalization": "row_reduction",
    "column_reduction": "column_reduction", "global_reduction": "global_reduction", "transpose": "transpose",
    "gemm": "gemm", "gemv": "row_reduction", "stencil": "stencil", "histogram": "histogram",
}
UNTEMPLATED = {("row_reduction", "argmax"), ("column_reduction", "argmax"), ("column_reduction", "min"), ("global_reduction", "max"),
               ("stencil", "conv1d"), ("transpose", "permute"), ("prefix_sum", "prefix_sum")}
TEMPLATED = [case[0] for case in INTENTS if (case[1], case[2]) not in UNTEMPLATED]


@pytest.mark.parametrize("intent", TEMPLATED, ids=[intent[:40] for intent in TEMPLATED])
def test_a_template_recognizes_the_first_kernel(intent):
    generated, document = generated_document(intent)
    names = {template.name for template, _ in matches(original_candidate(document, generated.kernel))}
    assert TEMPLATE_OF_FAMILY[generated.spec.family] in names, names


def test_an_oracles_cached_outputs_are_keyed_by_the_scalars_it_reads():
    """Two generated rmsnorm kernels differ only in eps: the GPU worker must not check the second against the
    outputs it computed for the first (it did, on an H100: 'got 0.365083, expected 0.778436' at cols=1)."""
    from optiml_engine.gpu.worker import CompiledKernel, EvaluateJob, reference_identity

    def job(intent: str) -> EvaluateJob:
        generated, document = generated_document(intent)
        candidate = original_candidate(document, generated.kernel)
        kernel = CompiledKernel(key=intent, cubin=b"", lowered_name=generated.kernel, params=candidate.params,
                                contract=candidate.contract)
        return EvaluateJob(candidate=kernel, reference=reference_candidate(document, candidate),
                           bindings=[candidate.contract.sizes])

    default_eps, small_eps = job("rms norm x 4096x4096"), job("rms norm of x 4096x4096 with eps=1e-6")
    assert default_eps.reference.text == small_eps.reference.text
    assert reference_identity(default_eps) != reference_identity(small_eps)
    assert reference_identity(default_eps) == reference_identity(job("rms norm x 4096x4096"))


@pytest.mark.parametrize("intent, message", [
    ("softmax of each row of x, 16384 rows, 2048 columns", "the number 2048 of the intent is not used"),
    ("sum of x where x has 4096*393216 floats", "a sum of a matrix, but not along which axis"),
    ("sum over dim 1 of a 3-D tensor x", "'3-D' data is not what sum is generated for here"),
    ("max of each row of a 4096 x 1024 matrix, then keep the top 8", "'then' changes what max computes"),
    ("relu of x for 3 streams, n = 1M floats", "the number 3 of the intent is not used"),
    ("gelu, tanh approximation: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))", "several functions (tanh, sqrt)"),
    ("apply tanh to the sigmoid of x", "several functions (tanh, sigmoid) and no formula that composes them"),
])
def test_an_intent_with_a_number_or_a_shape_the_reading_misses_is_refused(intent, message) -> None:
    """A reading that leaves a number of the intent unused, or data of other dimensions, is a different operation
    than the one asked: refused, never generated (these became kernels for other sizes or operations before)."""
    with pytest.raises(IntentError, match=re.escape(message)):
        parse_intent(intent)


@pytest.mark.parametrize("intent, family, sizes, width", [
    ("1-D convolution of x with a filter of 7 taps", "stencil", {"n": 1 << 24}, 7),
    ("mean over axis 0 of a 4096 x 512 matrix", "column_reduction", {"rows": 4096, "cols": 512}, 0),
    ("max along dim=-1 of a 1024 x 256 matrix", "row_reduction", {"rows": 1024, "cols": 256}, 0),
])
def test_taps_and_axes_are_read_as_such(intent, family, sizes, width) -> None:
    spec = parse_intent(intent)
    assert (spec.family, spec.sizes, spec.width) == (family, sizes, width)
