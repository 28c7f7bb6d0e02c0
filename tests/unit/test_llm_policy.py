"""The LLM policy (optiml_engine/policies/llm.py) against a real OpenAI-compatible endpoint on 127.0.0.1: the real
`openai` client sends real HTTP requests to a small scripted server (http.server in a thread). Good replies become
edits whose units compile with NVRTC; refusals, truncated and malformed replies are rejected with their reason;
429s, 5xx and timeouts are retried within bounds and recorded; tokens and cost are summed."""

from __future__ import annotations

import json
import socket
import textwrap
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.diagnosis import diagnose
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.model import Candidate, DeviceInfo, LaunchRule, SolReport
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.llm import (
    LlmPolicy, LlmSettings, LlmUsage, RejectedReply, STRATEGIES, launch_rule, rewritten_unit,
)
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
MODEL, API_KEY = "test-model", "sk-test-4f2a"

WARP_PER_ROW = """\
I give each row to a warp, so that the 32 lanes read neighbouring elements and the loads coalesce.

```cuda
#include <cstdio>

__device__ float warp_max(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    }
    return v;
}

__global__ void __launch_bounds__(256) row_max(const float* __restrict__ x, float* out, int rows, int cols)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) {
        return;   // the whole warp leaves together: rows are per warp
    }
    const float* r = x + (size_t)row * cols;
    float m = __int_as_float(0xff800000);   // -inf
    for (int c = lane; c < cols; c += 32) {
        m = fmaxf(m, r[c]);
    }
    m = warp_max(m);
    if (lane == 0) {
        out[row] = m;
    }
}
```

launch: grid=cdiv(rows, 8) block=256
"""


# ---------------------------------------------------------------------------------------------------------------
# A scripted OpenAI-compatible endpoint


@dataclass
class Scripted:
    """One answer of the endpoint."""

    content: str | None = WARP_PER_ROW
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] = (1200, 400)      # prompt, completion tokens
    finish_reason: str = "stop"
    body: object = None                        # instead of the chat completion the fields above make


@dataclass
class Received:
    path: str
    headers: dict[str, str]                    # names in lower case
    body: dict
    at: float                                  # time.monotonic() when it arrived


class ChatServer:
    """Answers POST /v1/chat/completions with the next scripted answer, like the OpenAI API; records every request."""

    def __init__(self):
        self.script: list[Scripted] = []
        self.received: list[Received] = []
        self.lock = threading.Lock()
        self.closing = threading.Event()
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        # A short poll interval: shutdown() waits for the loop's next poll.
        self.thread = threading.Thread(target=self.http.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http.server_address[1]}/v1"

    def close(self) -> None:
        self.closing.set()        # wakes handlers sleeping through a timeout test
        self.http.shutdown()
        self.http.server_close()

    def answer(self, path: str, headers: dict[str, str], body: dict) -> tuple[int, dict[str, str], dict]:
        with self.lock:
            self.received.append(Received(path, headers, body, time.monotonic()))
            scripted = self.script.pop(0) if self.script else None
        if scripted is None:
            return 400, {}, {"error": {"message": "no answer scripted for this request", "type": "test"}}
        self.closing.wait(scripted.delay_s)
        if scripted.status != 200:
            return scripted.status, scripted.headers, {"error": {"message": f"scripted {scripted.status}",
                                                                 "type": "server_error"}}
        if scripted.body is not None:
            return 200, scripted.headers, scripted.body
        prompt, completion = scripted.usage
        return 200, scripted.headers, {
            "id": f"chatcmpl-{len(self.received)}", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": scripted.finish_reason,
                         "message": {"role": "assistant", "content": scripted.content}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                received_headers = {name.lower(): value for name, value in self.headers.items()}
                status, headers, payload = server.answer(self.path, received_headers, body)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass      # the client gave up (timeout test)

            def log_message(self, *args):
                pass

        return Handler


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    # The local endpoint is reached directly, whatever proxy the machine running the tests is configured with.
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def server():
    chat = ChatServer()
    yield chat
    chat.close()


def policy_for(server: ChatServer, **overrides) -> LlmPolicy:
    settings = dict(model=MODEL, base_url=server.url, api_key=API_KEY, timeout_s=10, strategies=["memory_access"],
                    max_retries=2, retry_backoff_s=0.01)
    return LlmPolicy(LlmSettings(**(settings | overrides)))


def row_max() -> Candidate:
    path = ROOT / "examples" / "row_max.cu"
    return original_candidate(CudaDocument(path.read_text(), str(path)), "row_max")


def profiled() -> PolicyContext:
    """What the search knows about the naive row_max on an H100: uncoalesced, occupancy-limited."""
    diagnosis = diagnose({
        "duration_ns": 2_000_000, "dram_pct": 22, "l2_pct": 30, "sm_pct": 8, "achieved_occupancy_pct": 11,
        "global_load_requests": 2_097_152, "global_load_sectors": 67_108_864, "waves_per_sm": 0.24,
        "grid_size": 256, "block_size": 256,
    }, sm_count=132)
    sol = SolReport(bytes=268_697_600, flops=67_108_864, floor_ms=0.084, bound="memory", headroom=23.8,
                    percent_of_sol=4.2, achieved_gbps=141, achieved_gflops=34, suspect=False)
    device = DeviceInfo(index=0, name="NVIDIA H100 80GB HBM3", compute_capability="9.0", sm_count=132,
                        l2_bytes=52_428_800, memory_bytes=85_000_000_000, sm_clock_mhz=1980, memory_clock_mhz=2619,
                        driver="13.0", runtime="13.0")
    return PolicyContext(diagnosis=diagnosis, sol=sol, device=device, tried=["unroll"])


def the_prompt(request: Received) -> str:
    return "\n".join(message["content"] for message in request.body["messages"])


# ---------------------------------------------------------------------------------------------------------------
# Good replies


def test_a_good_reply_becomes_an_edit_that_compiles_with_its_new_launch(server):
    server.script = [Scripted()]
    node = row_max()
    policy = policy_for(server)
    (edit,) = policy.propose(node, profiled())
    assert edit.rule == "llm:memory_access"
    assert edit.symptom == "uncoalesced_loads"    # the strategy's symptom that the diagnosis shows
    assert edit.description == ("I give each row to a warp, so that the 32 lanes read neighbouring elements and "
                                "the loads coalesce.")
    assert edit.candidate.description == edit.description
    assert edit.candidate.contract.launch == LaunchRule(grid=["cdiv(rows,8)"], block=["256"], smem="0")
    assert edit.candidate.contract.launch != node.contract.launch
    unit = edit.candidate.unit
    assert unit.text.count("__device__ float warp_max") == 1 and "cstdio" not in unit.text   # host header left out
    assert unit.name_expression == node.unit.name_expression and edit.candidate.params == node.params
    compiled = compile_nvrtc(unit)
    assert compiled.ok, compiled.log
    (call,) = policy.calls
    assert call.outcome == "proposed" and call.attempts == 1 and call.reply == WARP_PER_ROW


def test_the_request_carries_the_model_the_key_the_kernel_and_the_diagnosis(server):
    server.script = [Scripted()]
    node, context = row_max(), profiled()
    policy_for(server).propose(node, context)
    (request,) = server.received
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"
    assert request.body["model"] == MODEL
    prompt = the_prompt(request)
    kernel = KernelView.of(node)
    assert kernel.text(kernel.node) in prompt            # the kernel's definition, as written
    assert "#line" not in prompt and "int main" not in prompt and "cudaMalloc" not in prompt   # the kernel only
    assert context.diagnosis.explanation in prompt
    assert "Global loads are uncoalesced: 32.0 sectors per request" in prompt
    assert "4% of the floor, 23.8x headroom" in prompt
    assert "launch: grid=cdiv(rows,256) block=256" in prompt and "rows=37 cols=1000" in prompt
    assert "(const float* x, float* out, int rows, int cols)" in prompt
    assert STRATEGIES["memory_access"].focus in prompt


def test_without_a_launch_line_the_launch_is_kept(server):
    server.script = [Scripted(content=WARP_PER_ROW.replace("launch: grid=cdiv(rows, 8) block=256", "launch: same"))]
    node = row_max()
    (edit,) = policy_for(server).propose(node, PolicyContext())
    assert edit.candidate.contract == node.contract
    assert edit.symptom == STRATEGIES["memory_access"].symptoms[0]   # no diagnosis: the strategy's first


def test_every_strategy_is_asked_and_usage_and_cost_are_summed(server):
    server.script = [Scripted(usage=(1000, 500)), Scripted(usage=(3000, 700))]
    policy = policy_for(server, strategies=["memory_access", "data_reuse"], price_input_per_1m=2.0,
                        price_output_per_1m=10.0)
    edits = policy.propose(row_max(), PolicyContext())
    assert sorted(edit.rule for edit in edits) == ["llm:data_reuse", "llm:memory_access"]
    prompts = [the_prompt(request) for request in server.received]
    assert sorted(STRATEGIES["data_reuse"].focus in p for p in prompts) == [False, True]
    assert sorted(call.usage.prompt_tokens for call in policy.calls) == [1000, 3000]
    assert policy.usage.requests == 2
    assert policy.usage.prompt_tokens == 4000 and policy.usage.completion_tokens == 1200
    assert policy.usage.cost_usd == pytest.approx((4000 * 2.0 + 1200 * 10.0) / 1e6)
    server.script = [Scripted(content="I cannot help with that."), Scripted(content="No.")]
    assert policy.propose(row_max(), PolicyContext()) == []
    assert policy.usage.requests == 4 and policy.usage.prompt_tokens == 4000 + 2 * 1200   # refusals cost too


# ---------------------------------------------------------------------------------------------------------------
# Replies that are rejected, with their reason


BAD_REPLIES = {
    "refusal": (Scripted(content="I'm sorry, but I can't help with optimizing this kernel."),
                "no code block in the reply (refusal?): I'm sorry"),
    "truncated": (Scripted(content=WARP_PER_ROW[:WARP_PER_ROW.index("m = warp_max")], finish_reason="length"),
                  "cut off at the token limit inside a code block"),
    "wrong_name": (Scripted(content=WARP_PER_ROW.replace("row_max(", "row_max_fast(")),
                   "no code block holds a __global__ kernel named row_max"),
    "wrong_signature": (Scripted(content=WARP_PER_ROW.replace("int rows, int cols", "int n, int cols")),
                        "takes (const float* __restrict__ x, float* out, int n, int cols), not "
                        "(const float* x, float* out, int rows, int cols)"),
    "wrong_type": (Scripted(content=WARP_PER_ROW.replace("int rows, int cols", "long rows, int cols")),
                   "takes (const float* __restrict__ x, float* out, long rows, int cols)"),
    "host_code": (Scripted(content=WARP_PER_ROW.replace("```\n\nlaunch", textwrap.dedent("""\
                      int main()
                      {
                          row_max<<<1, 256>>>(nullptr, nullptr, 0, 0);
                          return 0;
                      }
                      ```

                      launch"""))),
                  "host code (main or a <<<...>>> launch)"),
    "two_kernels": (Scripted(content=WARP_PER_ROW.replace("__device__ float warp_max",
                                                          "__global__ void helper_pass(float* y) {}\n\n"
                                                          "__device__ float warp_max")),
                    "other kernels (helper_pass)"),
    "bad_launch": (Scripted(content=WARP_PER_ROW.replace("block=256", "block=2048")),
                   "block.x = 2048 = 2048 at rows=65536 cols=1024"),
    "empty_choices": (Scripted(body={"id": "c", "object": "chat.completion", "choices": [],
                                     "usage": {"prompt_tokens": 1200, "completion_tokens": 0}}),
                      "the endpoint returned no choices"),
    "refusal_field": (Scripted(body={"id": "c", "object": "chat.completion", "usage": {"prompt_tokens": 1200},
                                     "choices": [{"index": 0, "finish_reason": "stop", "message": {
                                         "role": "assistant", "content": None, "refusal": "I can't do that."}}]}),
                      "the model refused: I can't do that."),
    "empty_content": (Scripted(content=None), "no code block in the reply (refusal?): an empty reply"),
}


@pytest.mark.parametrize("name", BAD_REPLIES)
def test_a_bad_reply_is_recorded_as_rejected_never_raised(server, name):
    scripted, reason = BAD_REPLIES[name]
    server.script = [scripted]
    policy = policy_for(server)
    assert policy.propose(row_max(), PolicyContext()) == []
    (call,) = policy.rejections
    assert call.outcome == "rejected" and reason in call.reason
    assert call.attempts == 1 and call.usage.prompt_tokens == 1200


# ---------------------------------------------------------------------------------------------------------------
# Transport failures


def test_a_429_is_retried_after_the_wait_it_asks_for(server):
    server.script = [Scripted(status=429, headers={"Retry-After": "0.5"}), Scripted()]
    policy = policy_for(server)
    (edit,) = policy.propose(row_max(), PolicyContext())
    first, second = server.received
    assert second.at - first.at >= 0.45          # Retry-After, not the 0.01 s backoff
    (call,) = policy.calls
    assert call.outcome == "proposed" and call.attempts == 2
    assert policy.usage.requests == 2 and policy.usage.prompt_tokens == 1200


def test_a_429_asking_for_too_long_a_wait_is_not_retried(server):
    server.script = [Scripted(status=429, headers={"Retry-After": "120"})]
    policy = policy_for(server, max_retry_wait_s=30)
    assert policy.propose(row_max(), PolicyContext()) == []
    (call,) = policy.calls
    assert call.outcome == "failed" and call.reason.startswith("rate limited (HTTP 429, 1 attempt)")
    assert len(server.received) == 1


def test_server_errors_are_retried_a_bounded_number_of_times(server):
    server.script = [Scripted(status=500)] * 3
    policy = policy_for(server, max_retries=2)
    assert policy.propose(row_max(), PolicyContext()) == []
    (call,) = policy.calls
    assert call.outcome == "failed" and call.reason.startswith("HTTP 500 (3 attempts)")
    assert len(server.received) == 3 and policy.usage == LlmUsage(requests=3)


def test_a_server_error_then_a_reply_succeeds(server):
    server.script = [Scripted(status=503), Scripted()]
    policy = policy_for(server)
    assert len(policy.propose(row_max(), PolicyContext())) == 1
    assert policy.calls[0].attempts == 2


def test_a_client_error_is_not_retried(server):
    server.script = [Scripted(status=401)]
    policy = policy_for(server)
    assert policy.propose(row_max(), PolicyContext()) == []
    assert policy.calls[0].reason.startswith("HTTP 401 (1 attempt)") and len(server.received) == 1


def test_an_answer_that_is_no_chat_completion_is_recorded(server):
    server.script = [Scripted(body="<html>gateway</html>")]
    policy = policy_for(server)
    assert policy.propose(row_max(), PolicyContext()) == []
    assert policy.calls[0].outcome == "failed"
    assert policy.calls[0].reason == "the endpoint's answer is no chat completion: <html>gateway</html>"


def test_a_timeout_is_retried_then_recorded(server):
    server.script = [Scripted(delay_s=5), Scripted(delay_s=5)]
    policy = policy_for(server, timeout_s=0.3, max_retries=1)
    started = time.monotonic()
    assert policy.propose(row_max(), PolicyContext()) == []
    assert time.monotonic() - started < 3
    (call,) = policy.calls
    assert call.outcome == "failed" and call.reason == "no reply within 0.3 s (2 attempts)"
    assert len(server.received) == 2


def test_an_unreachable_endpoint_is_recorded():
    url = refused_url()
    policy = LlmPolicy(LlmSettings(model=MODEL, base_url=url, strategies=["parallel_mapping"], max_retries=1,
                                   retry_backoff_s=0.01))
    assert policy.propose(row_max(), PolicyContext()) == []
    (call,) = policy.calls
    assert call.outcome == "failed" and call.reason.startswith(f"cannot reach {url}/ (2 attempts)")


def refused_url() -> str:
    """A local URL where nothing listens: a port bound and closed again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# ---------------------------------------------------------------------------------------------------------------
# Reading replies (no server)


@pytest.mark.parametrize("line, grid, block, smem", [
    ("launch: grid=cdiv(rows, 8) block=256", ["cdiv(rows,8)"], ["256"], "0"),
    ("**launch:** `grid=(rows+3)/4 block=(32,4) smem=4*128`", ["(rows+3)/4"], ["32", "4"], "4*128"),
    ("launch: grid=dim3(cdiv(rows,8), 1), block=256;", ["cdiv(rows,8)", "1"], ["256"], "0"),
])
def test_launch_lines_in_the_contracts_language(line, grid, block, smem):
    assert launch_rule(f"Done.\n\n{line}\n", row_max().contract) == LaunchRule(grid=grid, block=block, smem=smem)


@pytest.mark.parametrize("line, reason", [
    ("launch: grid=cdiv(n,8) block=256", "unknown symbol 'n'"),
    ("launch: grid=cdiv(rows,8) block=256 stream=0", "sets 'stream'"),
    ("launch: block=256", "needs both grid= and block="),
    ("launch: grid=rows/0 block=256", "division by zero"),
    ("launch: grid=cdiv(rows,8) block=(16,16,8)", "a block of 2048 threads"),
    ("launch: grid=rows+ block=256", "unexpected end of expression"),
])
def test_bad_launch_lines_are_rejected(line, reason):
    with pytest.raises(RejectedReply, match=reason.replace("(", r"\(").replace(")", r"\)")):
        launch_rule(f"{line}\n", row_max().contract)


HELPER_SOURCE = """\
__device__ float square(float v) { return v * v; }

/* @optiml
   sizes:  n=4096
   x:      in  float[n]
   y:      out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void squares(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = square(x[i]);
    }
}
"""

SQUARES_KERNEL = """\
__global__ void squares(const float* x, float* y, int n)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i + 1 < n) {
        float2 v = load2(x + i);
        y[i] = square(v.x);
        y[i + 1] = square(v.y);
    } else if (i < n) {
        y[i] = square(x[i]);
    }
}
"""


def squares() -> Candidate:
    return original_candidate(CudaDocument(HELPER_SOURCE, "squares.cu"), "squares")


def compiles(unit_text: str) -> None:
    compiled = compile_nvrtc(squares().unit.model_copy(update={"text": unit_text}))
    assert compiled.ok, compiled.log


def test_helpers_the_reply_repeats_are_not_duplicated_and_new_ones_join():
    block = ("__device__ float  square(float v) { return v * v; }\n\n"
             "__device__ float2 load2(const float* p) { return make_float2(p[0], p[1]); }\n\n" + SQUARES_KERNEL)
    text = rewritten_unit(KernelView.of(squares()), block, "memory_access")
    assert text.count("square(float v)") == 1 and text.count("load2(const float* p)") == 1
    assert text.index("load2(const float* p)") < text.index("__global__")
    compiles(text)


def test_a_helper_the_reply_rewrites_takes_the_place_of_the_original():
    block = ("__device__ float square(float v) { return __fmul_rn(v, v); }\n\n"
             "__device__ float2 load2(const float* p) { return make_float2(p[0], p[1]); }\n\n" + SQUARES_KERNEL)
    text = rewritten_unit(KernelView.of(squares()), block, "instruction_level")
    assert "return v * v" not in text and text.count("__fmul_rn(v, v)") == 1
    assert text.index("__fmul_rn") < text.index("load2(const float* p)")    # in the original's place
    compiles(text)


# ---------------------------------------------------------------------------------------------------------------
# Settings


def test_settings_from_the_environment():
    assert LlmSettings.from_env({}) is None
    assert LlmSettings.from_env({"OPTIML_LLM_BASE_URL": "http://localhost:8000/v1"}) is None   # no model
    assert LlmSettings.from_env({"OPTIML_LLM_MODEL": "m"}) is None                             # no endpoint
    settings = LlmSettings.from_env({
        "OPTIML_LLM_BASE_URL": "http://localhost:8000/v1", "OPTIML_LLM_MODEL": "qwen", "OPTIML_LLM_API_KEY": "k",
        "OPENAI_API_KEY": "other", "OPTIML_LLM_TIMEOUT_S": "30", "OPTIML_LLM_STRATEGIES": "data_reuse, memory_access",
        "OPTIML_LLM_PRICE_INPUT_PER_1M": "0.5",
    })
    assert (settings.base_url, settings.model, settings.api_key.get_secret_value()) == (
        "http://localhost:8000/v1", "qwen", "k")
    assert settings.timeout_s == 30 and settings.strategies == ["data_reuse", "memory_access"]
    assert settings.price_input_per_1m == 0.5
    assert "k" not in repr(settings.api_key)
    fallback = LlmSettings.from_env({"OPTIML_LLM_MODEL": "gpt", "OPENAI_API_KEY": "sk", "OPENAI_BASE_URL": "http://b"})
    assert (fallback.base_url, fallback.api_key.get_secret_value()) == ("http://b", "sk")
    with pytest.raises(ValueError, match="unknown strategies"):
        LlmSettings(model="m", strategies=["vibes"])
