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
