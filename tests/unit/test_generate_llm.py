"""Generation with an LLM (optiml_engine/generate/llm.py) against a scripted OpenAI-compatible endpoint on
127.0.0.1: one prompt per strategy asks for the spec's kernel from the intent, contract and NumPy reference; replies
go through the LLM policy's checks; the candidates are verified against the oracle (a stand-in evaluator here: no
GPU) and the fastest verified one replaces the built-in kernel, its launch line included."""

from __future__ import annotations

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.families import compile_check, generate_kernel
from optiml_engine.generate.intent import parse_intent
from optiml_engine.generate.llm import GENERATION_STRATEGIES, GenerationLlm, llm_seed
from optiml_engine.model import Measurement, ReferenceOracle, SpeedupStats
from optiml_engine.policies.llm import LlmSettings
from optiml_engine.source.parse import CudaDocument
from tests.unit.test_llm_policy import API_KEY, MODEL, Scripted, no_proxy, server  # noqa: F401 (fixtures)
from tests.unit.test_optimize import DEVICE

WARP_SUM = """\
Each warp sums one row: lanes read neighbouring elements and a shuffle tree combines them.

```cuda
__global__ void sum_rows_x(const float* __restrict__ x, float* out, int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) {
        return;
    }
    float acc = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        acc += x[(size_t)row * cols + c];
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        acc += __shfl_xor_sync(0xffffffffu, acc, offset);
    }
    if (lane == 0) {
        out[row] = acc;
    }
}
```

launch: grid=cdiv(rows,8) block=256
"""

WRONG_SIGNATURE = WARP_SUM.replace("float* out, int rows", "float* out, int n_rows")
RACY = WARP_SUM.replace("if (lane == 0) {\n        out[row] = acc;", "{\n        out[row] += acc;")


class OracleEvaluator:
    """Stands in for the GPU evaluator: records what each candidate was verified against; the shuffle kernel is
    3x faster than the built-in one, the racy one is wrong."""

    device = DEVICE

    def __init__(self):
        self.references = []

    def evaluate(self, candidate, reference=None, incumbent=None, fresh_seed=None):
        self.references.append(reference)
        if "+= acc" in candidate.unit.text and "out[row] +=" in candidate.unit.text:
            return Measurement(kernel=candidate.unit.kernel, candidate_key="racy", description="", verdict="race",
                               reason="two runs on the same inputs disagree")
        return Measurement(kernel=candidate.unit.kernel, candidate_key="warp", description="", verdict="ok",
                           speedup=SpeedupStats(median=3.0, ci_low=2.9, ci_high=3.1, pairs=20))


def test_fastest_verified_llm_kernel_replaces_the_built_in_one(server):  # noqa: F811
    generated = generate_kernel(parse_intent("sum of each row of x (rows x cols)"))
    server.script = [Scripted(WARP_SUM), Scripted(WRONG_SIGNATURE), Scripted(RACY)]
    policy = GenerationLlm(LlmSettings(model=MODEL, base_url=server.url, api_key=API_KEY, timeout_s=10,
                                       max_retries=0), generated)
    evaluator = OracleEvaluator()
    seeded, trials = llm_seed(generated, evaluator, policy)

    assert len(server.received) == len(GENERATION_STRATEGIES) == 3
    prompts = [request.body["messages"][1]["content"] for request in server.received]
    for prompt in prompts:
        assert "out = sum(reshape(x, rows, cols), 1)" in prompt and "sum of each row of x" in prompt
        assert "for (int c = 0; c < cols; c++)" not in prompt       # the built-in body is not shown
        assert "`(const float* x, float* out, int rows, int cols)`" in prompt
    assert sorted(prompt.split("\n\n")[0] for prompt in prompts) == sorted(s.focus for s in GENERATION_STRATEGIES)
    outcomes = {trial.outcome.split(":")[0] for trial in trials}
    assert outcomes == {"verified", "rejected", "race"}
    assert all(isinstance(reference, ReferenceOracle) for reference in evaluator.references)

    assert seeded.strategy.startswith("llm:") and "__shfl_xor_sync" in seeded.text
    assert "launch:    grid=cdiv(rows,8) block=256" in seeded.text
    assert compile_check(seeded).ok
    document = CudaDocument(seeded.text, "seeded.cu")
    candidate = original_candidate(document, "sum_rows_x")
    assert reference_candidate(document, candidate).text == generated.reference


def test_without_a_faster_verified_kernel_the_built_in_one_stays(server):  # noqa: F811
    generated = generate_kernel(parse_intent("sum of each row of x (rows x cols)"))
    server.script = [Scripted(RACY), Scripted(WRONG_SIGNATURE), Scripted("I cannot help with that.")]
    policy = GenerationLlm(LlmSettings(model=MODEL, base_url=server.url, api_key=API_KEY, timeout_s=10,
                                       max_retries=0), generated)
    seeded, trials = llm_seed(generated, OracleEvaluator(), policy)
    assert seeded == generated and seeded.strategy == "built-in"
    assert sorted(trial.outcome.split(":")[0] for trial in trials) == ["race", "rejected", "rejected"]


# -- reading an intent the built-in readers refuse ------------------------------------------------------------------

REFUSED = "the sum of squared differences between a and b, 1M floats each"
SQUARED_DIFFERENCES = "a and b are two flat arrays; the sum of (a - b) ** 2 is a reduction of a formula.\n" \
                      "spec: s = sum((a - b) ** 2); a: float32[1 << 20]; b: float32[1 << 20]"


def reading_policy(server):  # noqa: F811
    from optiml_engine.policies.llm import LlmPolicy
    return LlmPolicy(LlmSettings(model=MODEL, base_url=server.url, api_key=API_KEY, timeout_s=10, max_retries=0))


def refusal_of(intent: str) -> str:
    from optiml_engine.generate.intent import IntentError
    try:
        parse_intent(intent)
    except IntentError as refused:
        return refused.message
    raise AssertionError(f"the built-in readers read {intent!r}")


def test_a_refused_intent_is_read_when_the_strategies_agree_and_every_number_is_used(server):  # noqa: F811
    from optiml_engine.generate.llm import READING_STRATEGIES, llm_reading
    from optiml_engine.generate.spec import parse_spec
    refusal = refusal_of(REFUSED)
    server.script = [Scripted(SQUARED_DIFFERENCES), Scripted(SQUARED_DIFFERENCES.replace("s = ", "out = ")),
                     Scripted("It cannot be written.\nspec: none")]
    reading = llm_reading(REFUSED, refusal, reading_policy(server))

    assert len(server.received) == len(READING_STRATEGIES) == 3
    for request in server.received:
        system, user = (m["content"] for m in request.body["messages"])
        assert "spec: <the form>" in system and REFUSED in user and refusal in user
    assert reading.spec is not None, reading
    expected = parse_spec("s = sum((a - b) ** 2); a: float32[1048576]; b: float32[1048576]")
    assert reading.spec.operation == expected.operation and reading.spec.sizes == expected.sizes
    assert reading.spec.intent == REFUSED
    assert reading.spec.read_by == f"the LLM ({MODEL}, 2 of 3 strategies agree)"
    assert sorted(said.split(":")[0] for _, said in reading.readings)[0] == "none"
    kernel = generate_kernel(reading.spec)
    assert compile_check(kernel).ok and f"// Read by {reading.spec.read_by}, not by OptiML's readers" in kernel.text


def test_readings_that_differ_or_leave_a_number_out_do_not_stand(server):  # noqa: F811
    from optiml_engine.generate.llm import llm_reading
    refusal = refusal_of(REFUSED)
    other_shape = SQUARED_DIFFERENCES.replace("1 << 20", "1 << 10")     # 1M not in it: that reading is dropped
    mean = SQUARED_DIFFERENCES.replace("sum(", "mean(")                   # another operation
    server.script = [Scripted(SQUARED_DIFFERENCES), Scripted(mean), Scripted(other_shape)]
    reading = llm_reading(REFUSED, refusal, reading_policy(server))
    assert reading.spec is None and "different operations" in reading.reason
    assert any("the intent's 1M not in it" in said for _, said in reading.readings)

    server.script = [Scripted(SQUARED_DIFFERENCES), Scripted(other_shape), Scripted("No idea.")]
    reading = llm_reading(REFUSED, refusal, reading_policy(server))
    assert reading.spec is None and reading.reason.startswith("1 of 3 strategies gave a reading")
    assert any("no `spec:` line" in said for _, said in reading.readings)


def test_numbers_left_out_of_a_reading():
    from optiml_engine.generate.llm import numbers_left_out
    conv = "y = conv2d(x, w, stride=2); x: float32[8, 32, 64, 64]; w: float32[64, 32, 3, 3]"
    assert numbers_left_out("2D convolution of 8 images, 32 channels of 64x64, 64 filters of 3x3, stride 2",
                            conv) == []
    assert numbers_left_out("2D convolution of 8 images, 32 channels of 64x64, 64 filters of 5x5, stride 2",
                            conv) == ["5", "5"]
    assert numbers_left_out("3D tensor summed along dim 1, 16 x 300 x 40",
                            "y = x.sum(axis=1); x: float32[16, 300, 40]") == []
    assert numbers_left_out("3D max pooling of 16 x 300", "y = max_pool2d(x, 2); x: float32[16, 300]") == ["'3D'"]
    assert numbers_left_out("leaky relu, slope 0.01, of x with 4096*393216 floats",
                            "y = leaky_relu(x, 0.01); x: float32[4096, 393216]") == []


def test_the_cli_writes_the_agreed_reading_of_a_refused_intent(server, tmp_path):  # noqa: F811
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    # Three readings, then (on a machine with a GPU) three kernel replies that make no kernel.
    server.script = [Scripted(SQUARED_DIFFERENCES)] * 3 + [Scripted("I cannot help with that.")] * 3
    env = {**os.environ, "OPTIML_LLM_BASE_URL": server.url, "OPTIML_LLM_MODEL": MODEL, "OPTIML_LLM_API_KEY": API_KEY,
           "OPTIML_LLM_MAX_RETRIES": "0"}
    target = tmp_path / "sq.cu"
    run = subprocess.run([sys.executable, "-m", "optiml_engine.cli", "generate", REFUSED, "-o", str(target), "--llm"],
                         cwd=root, capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("llm reading") == 3 and "3 of 3 strategies agree" in run.stdout
    written = target.read_text()
    assert f"// Read by the LLM ({MODEL}, 3 of 3 strategies agree), not by OptiML's readers" in written
    # The first schedule of the reading's program (a block's sum, one atomic), the reading kept as its spec.
    assert "spec:      s = sum(((a - b) * (a - b))); a: float32[1048576]" in written and "atomicAdd(&s[0], " in written
    refused = subprocess.run([sys.executable, "-m", "optiml_engine.cli", "generate", REFUSED, "-o",
                              str(tmp_path / "no.cu")], cwd=root, capture_output=True, text=True, timeout=120, env=env)
    assert refused.returncode == 1 and "error:" in refused.stderr and not (tmp_path / "no.cu").exists()


def test_a_reading_that_drops_an_operation_word_does_not_stand(server):  # noqa: F811
    """Three strategies agree on the plain product for an intent that names its upper triangle: the word
    'triangular' is in no reading, so none stands; a reading of triu(A @ B) does."""
    from optiml_engine.generate.llm import llm_reading
    intent = "the upper triangular part of A @ B, A and B both 512 x 512"
    plain = "The product of two matrices.\nspec: C = A @ B; A: float32[512, 512]; B: float32[512, 512]"
    server.script = [Scripted(plain)] * 3
    reading = llm_reading(intent, "refused", reading_policy(server))
    assert reading.spec is None and all("'triangular' not in it" in said for _, said in reading.readings)
    server.script = [Scripted(plain.replace("C = A @ B", "C = triu(A @ B)"))] * 3
    reading = llm_reading(intent, "refused", reading_policy(server))
    assert reading.spec is not None and reading.spec.triangle == "upper"
