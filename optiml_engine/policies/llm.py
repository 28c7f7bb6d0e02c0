"""A proposal policy that asks a language model, over any OpenAI-compatible chat-completions endpoint.

Each `propose` asks one prompt per strategy ("mixture of thoughts": memory access, parallel mapping, data reuse,
instruction-level), all at once. Every prompt carries the kernel's source (its compile unit without the `#line`
directives: the kernel and the device helpers it uses), its benchmark contract, and what the profiler and the
speed-of-light floor say about it when the context has them, and asks for one ```cuda block holding the complete
kernel, same name and parameter list, plus a `launch:` line in the contract's expression language when the
geometry changes.

A reply is never trusted: it becomes an Edit only when its kernel can be found, has the original signature, holds
no host code, and its launch line parses and resolves at every size the contract checks; the evaluator then
compiles, verifies and times it like any other candidate. A reply that fails, and a request that fails (timeouts,
rate limits, server errors, after bounded retries), is recorded in `LlmPolicy.calls` with its reason, never raised.

The policy is off unless configured (`LlmSettings.from_env`); nothing else in OptiML depends on it.
"""

from __future__ import annotations

import email.utils
import itertools
import os
import random
import re
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal

import openai
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from optiml_engine.diagnosis import Diagnosis
from optiml_engine.model import Candidate, Contract, Frozen, Kernel, LaunchRule, Location, OptimlError, Param
from optiml_engine.policies.base import Edit, Policy, PolicyContext
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import c_name
from optiml_engine.source.expr import parse_expr
from optiml_engine.source.parse import CudaDocument

# ---------------------------------------------------------------------------------------------------------------
# Strategies


@dataclass(frozen=True)
class Strategy:
    name: str
    focus: str                # what the prompt asks the model to work on
    # The profiler symptoms it targets (Diagnosis finding kinds and bounds, as the search ranks edits by them),
    # most specific first: an edit claims the first one the node's diagnosis shows, else the first.
    symptoms: tuple[str, ...]


STRATEGIES: dict[str, Strategy] = {s.name: s for s in (
    Strategy("memory_access", (
        "Focus on global memory access. Make consecutive threads of a warp touch consecutive addresses "
        "(coalescing), use wider loads and stores (float2/float4) only where alignment and lengths allow it, read "
        "through the read-only path (const __restrict__, __ldg), and never load the same element twice."),
        ("uncoalesced_loads", "uncoalesced_stores", "memory")),
    Strategy("parallel_mapping", (
        "Focus on how work maps onto threads, warps and blocks. Expose enough parallelism to fill every SM (a warp "
        "or a block per row instead of a thread per row, grid-stride loops), pick the block size and work per "
        "thread for occupancy, and combine partial results with warp shuffles (__shfl_xor_sync) and shared memory."),
        ("small_grid", "occupancy_limit", "occupancy")),
    Strategy("data_reuse", (
        "Focus on data reuse. Stage data that several threads need in shared memory or registers (tiling) so that "
        "each global element is read once per block, keep intermediate values in registers, fuse passes over the "
        "same data, and pad shared arrays against bank conflicts."),
        ("excess_dram", "bank_conflicts", "memory")),
    Strategy("instruction_level", (
        "Focus on instruction-level efficiency. Hoist and simplify index arithmetic (no integer division or modulo "
        "in inner loops), unroll inner loops (#pragma unroll), give each thread several independent accumulators "
        "or loads in flight (ILP), use fused multiply-add and fast intrinsics where the tolerance allows, and avoid "
        "divergent branches."),
        ("compute", "latency")),
)}


# ---------------------------------------------------------------------------------------------------------------
# Settings and accounting


class LlmSettings(BaseModel):
    """Which endpoint and model to ask, how, and what its tokens cost: given explicitly, or read by `from_env`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    base_url: str | None = None          # None: the OpenAI API
    api_key: SecretStr | None = None     # SecretStr: never printed with the settings
    timeout_s: float = Field(120.0, gt=0)
    max_tokens: int = Field(8192, gt=0)
    temperature: float | None = None     # None: the endpoint's default (reasoning models accept no other)
    strategies: list[str] = Field(default_factory=lambda: list(STRATEGIES))
    max_retries: int = Field(3, ge=0)    # after the first attempt, for timeouts, 429 and 5xx
    retry_backoff_s: float = Field(2.0, ge=0)   # the first wait when the server names none; doubles per retry
    max_retry_wait_s: float = Field(60.0, ge=0) # a server asking for a longer wait is not retried
    price_input_per_1m: float = Field(0.0, ge=0)    # USD per million prompt tokens
    price_output_per_1m: float = Field(0.0, ge=0)   # USD per million completion tokens

    @field_validator("strategies", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        return [name.strip() for name in value.split(",") if name.strip()] if isinstance(value, str) else value

    @field_validator("strategies")
    @classmethod
    def _known_strategies(cls, value: list[str]) -> list[str]:
        unknown = [name for name in value if name not in STRATEGIES]
        if unknown or not value:
            raise ValueError(f"unknown strategies {unknown}: expected some of {', '.join(STRATEGIES)}")
        return value

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LlmSettings | None:
        """Settings from OPTIML_LLM_* variables (OPENAI_BASE_URL / OPENAI_API_KEY as fallbacks); None when no model,
        or no endpoint (neither a base URL nor an API key), is configured. Every other field may be set as
        OPTIML_LLM_<FIELD>, e.g. OPTIML_LLM_TIMEOUT_S=60 or OPTIML_LLM_STRATEGIES=memory_access,data_reuse."""
        env = os.environ if environ is None else environ
        model = env.get("OPTIML_LLM_MODEL")
        base_url = env.get("OPTIML_LLM_BASE_URL") or env.get("OPENAI_BASE_URL")
        api_key = env.get("OPTIML_LLM_API_KEY") or env.get("OPENAI_API_KEY")
        if not model or not (base_url or api_key):
            return None
        tuning = {name: env[f"OPTIML_LLM_{name.upper()}"] for name in cls.model_fields
                  if name not in ("model", "base_url", "api_key") and f"OPTIML_LLM_{name.upper()}" in env}
        return cls(model=model, base_url=base_url, api_key=api_key, **tuning)


class LlmUsage(Frozen):
    """What was asked of the endpoint: one call's, or (summed) a whole run's."""

    requests: int = 0         # HTTP requests sent, retries included
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: LlmUsage) -> LlmUsage:
        return LlmUsage(requests=self.requests + other.requests,
                        prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                        completion_tokens=self.completion_tokens + other.completion_tokens,
                        cost_usd=self.cost_usd + other.cost_usd)


class LlmCall(Frozen):
    """One strategy's exchange with the model and what came of it."""

    strategy: str
    outcome: Literal["proposed", "rejected", "failed"]   # rejected: the reply; failed: the request
    reason: str = ""
    attempts: int
    seconds: float
    usage: LlmUsage
    reply: str = ""


class RejectedReply(Exception):
    """The reply cannot become a candidate; the message says why, in the model's terms."""


# ---------------------------------------------------------------------------------------------------------------
# The prompt

SYSTEM_PROMPT = """\
You are an expert CUDA performance engineer. You rewrite one CUDA kernel so that it runs faster on the GPU while \
computing the same results.

How your kernel is judged:
- It is compiled alone with NVRTC: device code only. No host code, no main(), no <<<...>>> launches, no host \
headers (<cstdio>, <cuda_runtime.h>); device headers such as <cuda_fp16.h> are fine.
- It is launched exactly as the contract's launch rule says, with the same arguments in the same order, at the \
benchmark size and at every check size (odd sizes included: guard every access).
- Its outputs are compared with the original kernel's on fresh random inputs, within the stated tolerance. Output \
arrays are filled with garbage before every launch: write every output element on every launch, and keep no state \
between launches.
- It is timed with CUDA events; a faster verified kernel wins.

Reply format, strictly:
1. One sentence saying what you changed and why it is faster.
2. Exactly ONE ```cuda fenced block holding the complete kernel, with the SAME name and the SAME parameter list \
(names, types and order; adding __restrict__ or __launch_bounds__ is allowed), preceded by the __device__ helpers \
it uses. Nothing else in the block.
3. Only if the grid, block or dynamic shared memory change: one line after the block,
   launch: grid=E block=E [smem=E]
   where E is an expression over the contract's size symbols, or a tuple (E,E[,E]) for 2-D and 3-D. Expressions \
use integers, the size symbols, + - * / % (integer division floors), parentheses, cdiv(a,b), min(a,b), max(a,b); \
smem is dynamic shared memory in bytes. Without this line the current launch is kept.
"""


def kernel_source(view: KernelView) -> str:
    """The compile unit as the model should read it: without the #line directives that map it to the user's file."""
    return re.sub(r"^#line .*\n", "", view.document.text, flags=re.M).strip()


def signature(kernel: Kernel) -> str:
    return f"({', '.join(f'{p.type_text} {p.name}' for p in kernel.params)})"


def contract_text(contract: Contract) -> str:
    def binding(values: dict[str, int]) -> str:
        return " ".join(f"{name}={value}" for name, value in values.items())

    lines = [f"- sizes: {binding(contract.sizes)} (the timed size)"]
    if contract.checks:
        lines.append(f"- also verified at: {'; '.join(binding(check) for check in contract.checks)}")
    if contract.template:
        lines.append(f"- template: {binding(contract.template)}")
    for array in contract.arrays:
        note = {"in": "read only", "out": "write every element",
                "inout": "read, then compared after the launch"}[array.direction]
        lines.append(f"- {array.param}: {array.direction} {c_name(array.dtype)}[{array.length}] ({note})")
    for scalar in contract.scalars:
        bound = scalar.value == scalar.param and scalar.param in contract.sizes
        value = f"the size {scalar.param}" if bound else scalar.value
        lines.append(f"- {scalar.param}: {c_name(scalar.dtype)} = {value}")
    launch = contract.launch
    lines.append(f"- launch: grid={_dims(launch.grid)} block={_dims(launch.block)} smem={launch.smem}")
    if contract.flops:
        lines.append(f"- flops: {contract.flops}")
    tolerance = f"- tolerance: relative L2 error <= {contract.tol:g} against the original kernel"
    lines.append(tolerance + (f" (max abs error <= {contract.atol:g} where it is near zero)" if contract.atol else ""))
    return "\n".join(lines)


def _dims(dims: list[str]) -> str:
    return dims[0] if len(dims) == 1 else f"({','.join(dims)})"


def profile_text(context: PolicyContext) -> str:
    """What is known about the kernel's performance; empty when nothing is (no GPU, not profiled yet)."""
    lines = []
    if context.device is not None:
        device = context.device
        lines.append(f"GPU: {device.name} ({device.arch()}, {device.sm_count} SMs, "
                     f"{device.l2_bytes / 2**20:.0f} MiB L2).")
    if context.diagnosis is not None:
        lines.append(f"Diagnosis at the benchmark size: {context.diagnosis.explanation}")
    if context.sol is not None:
        sol = context.sol
        lines.append(f"Speed of light: {sol.floor_ms * sol.headroom:.4f} ms against a {sol.bound}-bound floor of "
                     f"{sol.floor_ms:.4f} ms ({sol.percent_of_sol:.0f}% of the floor, {sol.headroom:.1f}x headroom; "
                     f"{sol.achieved_gbps:,.0f} GB/s, {sol.achieved_gflops:,.0f} GFLOP/s).")
    if context.tried:
        lines.append(f"Already applied to reach this kernel: {', '.join(context.tried)}.")
    return "\n".join(lines)


def messages(strategy: Strategy, view: KernelView, contract: Contract, context: PolicyContext) -> list[dict]:
    kernel = view.kernel
    symbols = ", ".join([*contract.sizes, *(name for name, value in contract.template.items() if value.isdigit())])
    template = ""
    if kernel.template_params:
        template = (f" and the same template parameters "
                    f"({', '.join(f'{p.kind} {p.name}' for p in kernel.template_params)})")
    profile = profile_text(context)
    user = "\n\n".join(part for part in (
        f"{strategy.focus}",
        f"The kernel:\n```cuda\n{kernel_source(view)}\n```",
        f"Its benchmark contract:\n{contract_text(contract)}",
        profile,
        f"Reply with one sentence, then ONE ```cuda block with the complete kernel `{kernel.name}`, parameter list "
        f"exactly `{signature(kernel)}`{template}, and, if the launch changes, a line "
        f"`launch: grid=E block=E [smem=E]` over the size symbols {symbols}.",
    ) if part)
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def symptom(strategy: Strategy, diagnosis: Diagnosis | None) -> str:
    shown = set() if diagnosis is None else {diagnosis.bound} | {finding.kind for finding in diagnosis.findings}
    return next((s for s in strategy.symptoms if s in shown), strategy.symptoms[0])


# ---------------------------------------------------------------------------------------------------------------
# Reading the reply

_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+.-]*)[^\n]*$", re.M)
_CODE_LANGUAGES = frozenset({"", "cuda", "cu", "cuh", "c++", "cpp", "cxx", "c", "h", "hpp"})
_LAUNCH_LINE = re.compile(r"^[ \t>*_`-]*launch[*_`]*[ \t]*:[ \t]*(.+?)[ \t]*$", re.I | re.M)
_LAUNCH_SETTING = re.compile(r"\b(\w+)\s*=")
_RESTRICT = frozenset({"__restrict__", "__restrict", "restrict"})
_DESCRIPTION_CHARS = 200


def code_blocks(reply: str) -> tuple[list[tuple[str, str]], bool]:
    """The fenced blocks as (language, text), and whether the reply ends inside an unclosed one."""
    fences = list(_FENCE.finditer(reply))
    blocks = [(opening.group(1).lower(), reply[opening.end() + 1:closing.start()])
              for opening, closing in zip(fences[::2], fences[1::2])]
    return blocks, len(fences) % 2 == 1


def kernel_block(reply: str, name: str, finish_reason: str | None) -> str:
    """The last code block that holds a `__global__` function called `name`."""
    blocks, unclosed = code_blocks(reply)
    if unclosed:
        cause = " at the token limit" if finish_reason == "length" else ""
        raise RejectedReply(f"the reply was cut off{cause} inside a code block")
    if not blocks:
        first_line = reply.strip().splitlines()[0][:_DESCRIPTION_CHARS] if reply.strip() else "an empty reply"
        raise RejectedReply(f"no code block in the reply (refusal?): {first_line}")
    calls_kernel = re.compile(rf"\b{re.escape(name)}\s*\(")
    holding = [text for language, text in blocks
               if language in _CODE_LANGUAGES and "__global__" in text and calls_kernel.search(text)]
    if not holding:
        raise RejectedReply(f"no code block holds a __global__ kernel named {name}")
    return holding[-1]


def param_type(param: Param) -> str:
    """The parameter's type as the launch sees it: restrict qualifiers and top-level const (on a scalar, or on the
    pointer itself) change nothing for the caller."""
    tokens = [token for token in re.findall(r"\w+|\S", param.type_text) if token not in _RESTRICT]
    last_star = max((i for i, token in enumerate(tokens) if token == "*"), default=-1)
    return " ".join(tokens[:last_star + 1] + [token for token in tokens[last_star + 1:] if token != "const"])


def check_signature(original: Kernel, proposed: Kernel) -> None:
    if [(p.name, param_type(p)) for p in proposed.params] != [(p.name, param_type(p)) for p in original.params]:
        raise RejectedReply(f"the reply's kernel takes {signature(proposed)}, not {signature(original)}")
    if [(p.name, p.kind) for p in proposed.template_params] != [(p.name, p.kind) for p in original.template_params]:
        raise RejectedReply(f"the reply's kernel changes the template parameters of {original.name}")


def rewritten_unit(view: KernelView, block: str, strategy: str) -> str:
    """The unit with its kernel replaced by the reply's, and the reply's device helpers in it.

    Helpers the reply defines before its kernel join the unit: one already there word for word is dropped (models
    repeat the helpers they were shown); one that redefines a name of the unit takes the place of the unit's
    definitions of that name (it was rewritten); a new one goes right before the kernel. Host items (headers,
    functions) are no device items: they are left out.
    """
    name = view.kernel.name
    if re.search(r"\bmain\s*\(", block) or "<<<" in block:
        raise RejectedReply("the code block holds host code (main or a <<<...>>> launch): only device code compiles")
    reply = CudaDocument(block, f"<llm:{strategy}>")
    kernel = reply.model.kernel(name)
    if kernel is None:
        raise RejectedReply(f"the code block defines no __global__ kernel named {name}")
    others = sorted({k.name for k in reply.model.kernels if k.name != name})
    if others:
        raise RejectedReply(f"the reply defines other kernels ({', '.join(others)}): the contract launches one")
    check_signature(view.kernel, kernel)

    reply_source = block.encode()

    def words(text: str) -> str:
        return " ".join(text.split())

    unit_items = [item for item in view.document.model.device_items if item.kind != "kernel"]
    present = {words(view.source[i.span.start_byte:i.span.end_byte].decode()) for i in unit_items}
    definers: dict[str, list[int]] = {}
    for index, item in enumerate(unit_items):
        for defined in item.defines:
            definers.setdefault(defined, []).append(index)
    in_place: dict[int, list[str]] = {}   # unit item index -> the reply's definitions that take its place
    removed: set[int] = set()
    added: list[str] = []
    for item in reply.model.device_items:
        if item.kind == "kernel" or item.span.end_byte > kernel.span.start_byte:
            continue   # items after the kernel cannot be used by it
        text = reply_source[item.span.start_byte:item.span.end_byte].decode().strip()
        if words(text) in present:
            continue
        clashing = sorted({index for defined in item.defines for index in definers.get(defined, [])})
        if clashing:
            in_place.setdefault(clashing[0], []).append(text)
            removed.update(clashing[1:])
        else:
            added.append(text)
    kernel_text = reply_source[kernel.span.start_byte:kernel.span.end_byte].decode()
    replacements = [(view.kernel.span.start_byte, view.kernel.span.end_byte, "\n\n".join([*added, kernel_text]))]
    for index in sorted(in_place.keys() | removed):
        span = unit_items[index].span
        replacements.append((span.start_byte, span.end_byte, "\n\n".join(in_place.get(index, []))))
    return view.replaced(replacements)


def launch_dims(text: str, what: str) -> list[str]:
    """`E`, `(E,E[,E])` or `dim3(E,E[,E])` as 1-3 expressions in their canonical spelling."""
    text = text.strip()
    inner = re.fullmatch(r"(?:dim3\s*)?\((.*)\)", text, re.S)
    parts = [text]
    if inner:
        depth, start, split = 0, 0, []
        for i, char in enumerate(inner.group(1)):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth < 0:
                break    # `(a)+(b)`: the parentheses do not enclose the whole text
            if char == "," and depth == 0:
                split.append(inner.group(1)[start:i])
                start = i + 1
        else:
            parts = [*split, inner.group(1)[start:]]
    if len(parts) > 3:
        raise RejectedReply(f"the launch line's {what} has {len(parts)} dimensions, at most 3")
    where = Location(file="<launch line>", line=1)
    try:
        return [str(parse_expr(part.strip(), where)) for part in parts]
    except OptimlError as error:
        raise RejectedReply(f"the launch line's {what} '{text}': {error.message}"
                            + (f" (expected {error.expected})" if error.expected else "")) from None


def launch_rule(reply: str, contract: Contract) -> LaunchRule | None:
    """The reply's last `launch:` line as a rule, checked at every size the contract verifies; None without one,
    or when it repeats the current rule."""
    # A `launch:` line without settings ("launch: unchanged") keeps the launch, as leaving it out does.
    lines = [line for line in _LAUNCH_LINE.findall(reply) if "=" in line]
    if not lines:
        return None
    line = lines[-1].strip("`*_ ")
    settings = list(_LAUNCH_SETTING.finditer(line))
    if not settings or line[:settings[0].start()].strip():
        raise RejectedReply(f"cannot read the launch line '{line}': expected grid=E block=E [smem=E]")
    values: dict[str, str] = {}
    for setting, following in zip(settings, [*settings[1:], None]):
        key = setting.group(1)
        if key not in ("grid", "block", "smem") or key in values:
            raise RejectedReply(f"the launch line '{line}' sets '{key}': expected grid, block and smem, each once")
        values[key] = line[setting.end():following.start() if following else len(line)].strip().rstrip(",;")
    if "grid" not in values or "block" not in values:
        raise RejectedReply(f"the launch line '{line}' needs both grid= and block=")
    smem = launch_dims(values["smem"], "smem") if "smem" in values else ["0"]
    if len(smem) != 1:
        raise RejectedReply(f"the launch line's smem '{values['smem']}' is a tuple: it is a number of bytes")
    rule = LaunchRule(grid=launch_dims(values["grid"], "grid"), block=launch_dims(values["block"], "block"),
                      smem=smem[0])
    if rule == contract.launch:
        return None
    relaunched = contract.model_copy(update={"launch": rule})
    for binding in [contract.sizes, *contract.checks]:
        try:
            resolve(relaunched, binding)
        except OptimlError as error:
            raise RejectedReply(f"the launch line '{line}': {error.message}"
                                + (f" (expected {error.expected})" if error.expected else "")) from None
    return rule


def first_sentence(reply: str, fallback: str) -> str:
    """The reply's first sentence before its first code block, as one line without markdown emphasis."""
    prose = reply.split("```", 1)[0]
    text = " ".join(re.sub(r"\*\*|__|^#+\s*", "", prose, flags=re.M).split())
    match = re.match(r"(.+?[.!?])(?=\s|$)", text)
    sentence = match.group(1) if match else text
    if not sentence:
        return fallback
    return sentence if len(sentence) <= _DESCRIPTION_CHARS else sentence[:_DESCRIPTION_CHARS - 3].rstrip() + "..."


def edit_from_reply(reply: str, finish_reason: str | None, strategy: Strategy, node: Candidate, view: KernelView,
                    context: PolicyContext) -> Edit:
    block = kernel_block(reply, view.kernel.name, finish_reason)
    text = rewritten_unit(view, block, strategy.name)
    launch = launch_rule(reply, node.contract)
    description = first_sentence(reply, f"{strategy.name.replace('_', ' ')} rewrite by the LLM")
    return Edit(candidate=derived(node, text, description, launch), rule=f"llm:{strategy.name}",
                description=description, symptom=symptom(strategy, context.diagnosis))


# ---------------------------------------------------------------------------------------------------------------
# The policy

_RETRIED = (openai.APITimeoutError, openai.APIConnectionError, openai.RateLimitError, openai.InternalServerError)
_REASON_CHARS = 300


@dataclass
class _Exchange:
    """One strategy's request, retries included: the response, or why there is none."""

    response: ChatCompletion | None
    failure: str
    attempts: int
    seconds: float


class LlmPolicy(Policy):
    name = "llm"

    def __init__(self, settings: LlmSettings):
        self.settings = settings
        # Retries are ours (see _exchange), so that every attempt is counted and Retry-After is bounded.
        self.client = openai.OpenAI(
            base_url=settings.base_url, timeout=settings.timeout_s, max_retries=0,
            # Local servers need no key, but the client insists on one (and would otherwise read OPENAI_API_KEY).
            api_key=settings.api_key.get_secret_value() if settings.api_key else "unused")
        self.calls: list[LlmCall] = []

    @classmethod
    def from_env(cls) -> LlmPolicy | None:
        settings = LlmSettings.from_env()
        return None if settings is None else cls(settings)

    @property
    def usage(self) -> LlmUsage:
        """Everything this policy has asked for so far."""
        return sum((call.usage for call in self.calls), LlmUsage())

    @property
    def rejections(self) -> list[LlmCall]:
        """The calls that made no edit: rejected replies and failed requests, each with its reason."""
        return [call for call in self.calls if call.outcome != "proposed"]

    def close(self) -> None:
        self.client.close()

    def strategies(self) -> list[Strategy]:
        return [STRATEGIES[name] for name in self.settings.strategies]

    def prompt(self, strategy: Strategy, view: KernelView, node: Candidate, context: PolicyContext) -> list[dict]:
        return messages(strategy, view, node.contract, context)

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        view = KernelView.of(node)
        strategies = self.strategies()
        prompts = [self.prompt(strategy, view, node, context) for strategy in strategies]
        # Only the requests run in threads; the replies are read here, one after another, so that the view's
        # lazily built source model is never built by two threads at once.
        exchanges = self._exchanges(prompts)
        edits = []
        for strategy, exchange in zip(strategies, exchanges, strict=True):
            call, edit = self._judge(strategy, exchange, node, view, context)
            self.calls.append(call)
            if edit is not None:
                edits.append(edit)
        return edits

    def _exchanges(self, prompts: list[list[dict]]) -> list[_Exchange]:
        """Every prompt sent at once, each on a thread of its own; the exchanges in the prompts' order."""
        with ThreadPoolExecutor(max_workers=max(len(prompts), 1)) as pool:
            return list(pool.map(self._exchange, prompts))

    def _exchange(self, prompt: list[dict]) -> _Exchange:
        started = time.monotonic()
        optional = {} if self.settings.temperature is None else {"temperature": self.settings.temperature}
        for attempt in itertools.count(1):
            try:
                response = self.client.chat.completions.create(
                    model=self.settings.model, messages=prompt, max_tokens=self.settings.max_tokens, **optional)
            except _RETRIED as error:
                wait = self._retry_wait(error, attempt)
                if attempt > self.settings.max_retries or wait is None:
                    return _Exchange(None, self._failure(error, attempt), attempt, time.monotonic() - started)
                time.sleep(wait)
                continue
            except openai.APIError as error:   # 4xx other than 429: retrying would not help
                return _Exchange(None, self._failure(error, attempt), attempt, time.monotonic() - started)
            if not isinstance(response, ChatCompletion):
                # The client hands back a 200 whose body is no JSON object as it came (text, a list...).
                failure = f"the endpoint's answer is no chat completion: {str(response)[:_REASON_CHARS]}"
                return _Exchange(None, failure, attempt, time.monotonic() - started)
            return _Exchange(response, "", attempt, time.monotonic() - started)

    def _retry_wait(self, error: openai.APIError, attempt: int) -> float | None:
        """Seconds to wait before the next attempt: the server's Retry-After when it sends one, else exponential
        backoff with jitter; None when the server asks for longer than max_retry_wait_s."""
        response = getattr(error, "response", None)
        asked = _retry_after(response.headers) if response is not None else None
        if asked is not None:
            return asked if asked <= self.settings.max_retry_wait_s else None
        backoff = self.settings.retry_backoff_s * 2 ** (attempt - 1)
        return min(backoff * (1 + 0.25 * random.random()), self.settings.max_retry_wait_s)

    def _failure(self, error: openai.APIError, attempts: int) -> str:
        tries = f"{attempts} attempt{'s' if attempts > 1 else ''}"
        if isinstance(error, openai.APITimeoutError):
            return f"no reply within {self.settings.timeout_s:g} s ({tries})"
        if isinstance(error, openai.APIConnectionError):
            return f"cannot reach {self.client.base_url} ({tries}): {error}"
        if isinstance(error, openai.RateLimitError):
            return f"rate limited (HTTP 429, {tries}): {error.message}"[:_REASON_CHARS]
        if isinstance(error, openai.APIStatusError):
            return f"HTTP {error.status_code} ({tries}): {error.message}"[:_REASON_CHARS]
        return f"{type(error).__name__} ({tries}): {error}"[:_REASON_CHARS]

    def replies(self, prompts: list[tuple[str, list[dict]]]) -> list[tuple[LlmCall, str | None]]:
        """Each (strategy name, prompt) sent at once: per prompt, its call as recorded here (outcome "proposed" for
        a reply, whatever it holds) and the reply's text (None when the request failed or the reply was refused)."""
        found = []
        for (name, _), exchange in zip(prompts, self._exchanges([prompt for _, prompt in prompts]), strict=True):
            record = self._record(name, exchange)
            try:
                reply, _ = self._text(exchange)
            except RejectedReply as rejection:
                call = LlmCall(outcome="failed" if exchange.response is None else "rejected", reason=str(rejection),
                               **record)
                reply = None
            else:
                call = LlmCall(outcome="proposed", reply=reply, **record)
            self.calls.append(call)
            found.append((call, reply))
        return found

    def _record(self, strategy: str, exchange: _Exchange) -> dict:
        """What a call is recorded with besides its outcome: the strategy, attempts, time and tokens."""
        # OpenAI-compatible servers differ in what they fill in: any field may be missing.
        counted = getattr(exchange.response, "usage", None)
        prompt_tokens = getattr(counted, "prompt_tokens", None) or 0
        completion_tokens = getattr(counted, "completion_tokens", None) or 0
        usage = LlmUsage(requests=exchange.attempts, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens,
                         cost_usd=(prompt_tokens * self.settings.price_input_per_1m
                                   + completion_tokens * self.settings.price_output_per_1m) / 1e6)
        return dict(strategy=strategy, attempts=exchange.attempts, seconds=exchange.seconds, usage=usage)

    @staticmethod
    def _text(exchange: _Exchange) -> tuple[str, str | None]:
        """The reply's text and finish reason; RejectedReply when the request failed or the reply holds none."""
        response = exchange.response
        if response is None:
            raise RejectedReply(exchange.failure)
        if not getattr(response, "choices", None):
            raise RejectedReply("the endpoint returned no choices")
        choice = response.choices[0]
        message = getattr(choice, "message", None)
        refusal = getattr(message, "refusal", None)
        if refusal:
            raise RejectedReply(f"the model refused: {refusal}"[:_REASON_CHARS])
        finish_reason = getattr(choice, "finish_reason", None)
        if finish_reason == "content_filter":
            raise RejectedReply("the endpoint's content filter stopped the reply")
        return getattr(message, "content", None) or "", finish_reason

    def _judge(self, strategy: Strategy, exchange: _Exchange, node: Candidate, view: KernelView,
               context: PolicyContext) -> tuple[LlmCall, Edit | None]:
        record = self._record(strategy.name, exchange)
        if exchange.response is None:
            return LlmCall(outcome="failed", reason=exchange.failure, **record), None
        reply = ""
        try:
            reply, finish_reason = self._text(exchange)
            edit = edit_from_reply(reply, finish_reason, strategy, node, view, context)
        except RejectedReply as rejection:
            return LlmCall(outcome="rejected", reason=str(rejection), reply=reply, **record), None
        return LlmCall(outcome="proposed", reply=reply, **record), edit


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """The wait a 429 or 503 asks for, in seconds: `retry-after-ms`, or `Retry-After` as seconds or an HTTP date."""
    if "retry-after-ms" in headers:
        try:
            return max(float(headers["retry-after-ms"]) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        return max(email.utils.parsedate_to_datetime(value).timestamp() - time.time(), 0.0)
    except (TypeError, ValueError):
        return None
