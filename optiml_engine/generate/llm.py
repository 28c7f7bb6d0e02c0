"""Generation with a language model (optional): several strategy prompts ("mixture of thoughts") each ask for the
spec's kernel from the intent, the contract and the NumPy reference, not from the built-in kernel's body. Every
reply goes through the LLM policy's checks (policies/llm.py: one kernel of the built-in signature, device code only,
a launch line that resolves at every size), then is verified against the oracle and timed interleaved with the
built-in kernel; the fastest verified one replaces it in the generated text and seeds the search. Without an LLM,
the built-in kernel is the seed: nothing else is missing.
"""

from __future__ import annotations

import math
import re

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.model import Candidate, Frozen, GeneratedKernel, KernelSpec, Measurement
from optiml_engine.policies.base import PolicyContext
from optiml_engine.policies.kernel_view import KernelView
from optiml_engine.policies.llm import LlmPolicy, LlmSettings, Strategy, contract_text, signature
from optiml_engine.source.edit import apply_candidate
from optiml_engine.source.parse import CudaDocument

GENERATION_STRATEGIES = (
    Strategy("straightforward", (
        "Write the simplest kernel that is obviously correct: one thread per output element (or per row or column "
        "for reductions), every access guarded."), ("memory",)),
    Strategy("cooperative", (
        "Write a kernel in which threads cooperate: a warp or a block per row or tile, partial results combined "
        "with warp shuffles (__shfl_xor_sync) and shared memory, grid-stride loops for the rest."), ("occupancy",)),
    Strategy("memory_first", (
        "Write a kernel designed around global memory traffic: coalesced accesses, each input element read once, "
        "shared-memory tiles where threads share data, 16-byte loads only where alignment allows."), ("memory",)),
)

SYSTEM_PROMPT = """\
You are an expert CUDA engineer. You write one CUDA kernel that computes what a specification asks.

How your kernel is judged:
- It is compiled alone with NVRTC: device code only. No host code, no main(), no <<<...>>> launches, no host \
headers.
- It is launched as the contract's launch rule says, with the given arguments in the given order, at the benchmark \
size and at every check size (odd sizes included: guard every access).
- Its outputs are compared with the NumPy reference on fresh random inputs, within the stated tolerance. Output \
arrays are filled with garbage before every launch: write every output element on every launch.
- It is timed with CUDA events; a faster verified kernel wins.

Reply format, strictly:
1. One sentence saying how your kernel works.
2. Exactly ONE ```cuda fenced block holding the complete kernel with the given name and parameter list, preceded \
by the __device__ helpers it uses.
3. Only if you need another launch geometry: one line after the block, `launch: grid=E block=E [smem=E]`, with E \
an expression over the size symbols (integers, + - * / %, cdiv(a,b), min, max; a tuple (E,E[,E]) for 2-D/3-D).
"""


class SeedTrial(Frozen):
    """One strategy's kernel and what verification said of it (None when the reply made no candidate)."""

    strategy: str
    outcome: str              # "verified", or why not: the reply's rejection, or the measurement's verdict
    speedup: float | None = None


class GenerationLlm(LlmPolicy):
    """The LLM policy with generation prompts: the node it is given is the built-in kernel, whose signature,
    contract and oracle the replies must honour; its body is not shown."""

    def __init__(self, settings: LlmSettings, generated: GeneratedKernel):
        super().__init__(settings)
        self.generated = generated

    def strategies(self) -> list[Strategy]:
        return list(GENERATION_STRATEGIES)

    def prompt(self, strategy: Strategy, view: KernelView, node: Candidate, context: PolicyContext) -> list[dict]:
        spec = self.generated.spec
        kernel = view.kernel
        user = "\n\n".join((
            strategy.focus,
            f"What the kernel computes: {self.generated.text.splitlines()[0].removeprefix('// ')}\n"
            f"(asked as: \"{spec.intent}\")",
            f"The NumPy reference it must match (arrays are flat; reshape views them as matrices; reductions keep "
            f"their axis): {self.generated.reference}",
            f"Its benchmark contract:\n{contract_text(node.contract)}",
            f"Reply with one sentence, then ONE ```cuda block with the complete kernel `{kernel.name}`, parameter "
            f"list exactly `{signature(kernel)}`, and, if the launch changes, a `launch:` line over the size symbols "
            f"{', '.join(node.contract.sizes)}.",
        ))
        return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def llm_seed(generated: GeneratedKernel, evaluator, policy: GenerationLlm) -> tuple[GeneratedKernel, list[SeedTrial]]:
    """The generated kernel with the fastest verified LLM kernel in place of the built-in one (when one is faster),
    and every strategy's outcome. `evaluator` verifies against the oracle and times (an Evaluator on a GPU)."""
    document = CudaDocument(generated.text, f"<generated {generated.kernel}>")
    built_in = original_candidate(document, generated.kernel)
    oracle = reference_candidate(document, built_in)
    edits = policy.propose(built_in, PolicyContext(device=evaluator.device))
    trials = [SeedTrial(strategy=call.strategy.removeprefix("llm:"), outcome=f"{call.outcome}: {call.reason}")
              for call in policy.calls if call.outcome != "proposed"]
    best: tuple[Candidate, Measurement, str] | None = None
    for edit in edits:
        strategy = edit.rule.removeprefix("llm:")
        measurement = evaluator.evaluate(edit.candidate, oracle, incumbent=built_in)
        speedup = measurement.speedup.median if measurement.speedup else None
        trials.append(SeedTrial(strategy=strategy, speedup=speedup,
                                outcome="verified" if measurement.ok else f"{measurement.verdict}: {measurement.reason}"))
        if measurement.ok and speedup is not None and speedup > 1.0 and \
                (best is None or speedup > best[1].speedup.median):
            best = (edit.candidate, measurement, strategy)
    if best is None:
        return generated, trials
    text = apply_candidate(generated.text, document.model, built_in, best[0]).new_text
    return generated.model_copy(update={"text": text, "strategy": f"llm:{best[2]}"}), trials


# ---------------------------------------------------------------------------------------------------------------
# Reading an intent the built-in readers refuse

# Prompts that read, not rewrite a kernel: they target no profiler symptom.
READING_STRATEGIES = (
    Strategy("literal", (
        "Translate the request phrase by phrase: each operation word becomes a function of the form, each shape "
        "a declaration, each number goes where the request puts it."), ()),
    Strategy("pytorch_first", (
        "First think of the PyTorch code that computes the request (which tensors, which shapes, which function "
        "and arguments); then write that code in the form."), ()),
    Strategy("shapes_first", (
        "First list every array the request names with its element type and shape, and the output's; then the "
        "one expression that makes the output from them."), ()),
)

READING_PROMPT = """\
You translate a request for a GPU kernel into OptiML's spec form, a NumPy/PyTorch-style expression with typed \
shapes. It is read by a strict parser: anything outside it is refused, so do not invent functions or arguments.

The form: `OUTPUT = EXPRESSION; NAME: DTYPE[DIMS]; ...`, one declaration per input (float32, float64, int32; \
dimensions as integers, `1 << 20` or `2**20`). `np.`, `torch.`, `F.` prefixes and method forms (`x.sum(axis=1)`) \
are the plain functions; `dim=` is `axis=`. Examples:
  y = softmax(x, axis=1); x: float32[4096, 393216]
  out = x.mean(dim=0); x: float64[8192, 1024]
  C = A @ B.T; A: float32[2048, 512]; B: float32[1024, 512]
  y = F.layer_norm(x, eps=1e-6); x: float32[4096, 1024]
  y = silu(x) * g + leaky_relu(b, 0.2); x: float32[1024, 4096]; g: float32[1024, 4096]; b: float32[4096]
  y = conv2d(x, w, b, stride=2, padding=1); x: float32[8, 32, 64, 64]; w: float32[64, 32, 3, 3]; b: float32[64]
  l = kl_div(log(p), q, reduction='batchmean'); p: float32[128, 4096]; q: float32[128, 4096]
Functions: elementwise math and activations (exp log sqrt tanh erf sigmoid relu gelu silu softplus elu selu \
leaky_relu hardtanh hardsigmoid hardswish softsign mish ...); sum mean max min prod argmax argmin norm logsumexp \
over an axis; softmax log_softmax layer_norm rms_norm l1_normalize normalize instance_norm group_norm batch_norm; \
cumsum cumprod (exclusive=True, reverse=True); @ matmul bmm with .T operands, triu tril diag; x.T and permute; \
mse_loss l1_loss huber_loss smooth_l1_loss hinge_loss kl_div cross_entropy triplet_margin_loss; max_pool1d/2d/3d \
avg_pool1d/2d/3d conv1d/2d/3d conv_transpose1d/2d/3d with PyTorch's arguments.

Every number of the request must appear in your spec (a dimension, an argument, a constant). If the request \
cannot be written in this form, or leaves a choice open that the form needs (a shape, an axis), say so.

Reply format, strictly: one sentence of reasoning, then one last line `spec: <the form>`, or `spec: none` when the \
request cannot be written in it.
"""

SPEC_LINE = re.compile(r"^\s*spec:\s*(.+?)\s*$", re.MULTILINE)
# A number of an intent: 4096, 0.2, 1e-5, 16M, 1 << 20, 2^20; not the digits of a name (x1, conv2d) or of "3D".
INTENT_NUMBER = re.compile(r"(?<![\w.])(\d+\s*<<\s*\d+|2\s*(?:\^|\*\*)\s*\d+|\d+(?:\.\d+)?(?:[eE]-?\d+)?"
                           r"(?:\s*[kKmMgG]\b)?)(?![\w.])")
FORM_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE]-?\d+)?(?![\w.])")
DECLARATION_DIMS = re.compile(r"\[([^\]]*)\]")

AGREEING = 2      # strategies whose readings must agree (and none disagree) for the reading to stand


class LlmReading(Frozen):
    """The LLM's reading of an intent the built-in readers refused: the spec when enough strategies agree on one
    that uses every number of the intent, else why not; each strategy's own reading (or why it has none)."""

    spec: KernelSpec | None = None
    form: str | None = None
    readings: list[tuple[str, str]]
    reason: str = ""


def llm_reading(intent: str, refusal: str, policy: LlmPolicy) -> LlmReading:
    """Each reading strategy asked to write the intent in the spec form; the form each reply ends with parsed by
    the spec form's own parser and checked to use every number and every operation word of the intent. The reading
    stands when at least AGREEING strategies read the same operation on the same shapes and none reads another: one
    strategy's reading is not trusted alone (the built-in readers may read alone: they are deterministic and
    tested)."""
    from optiml_engine.generate.intent import IntentError, reading_key, unused_operation_word
    from optiml_engine.generate.spec import parse_spec

    prompts = [(strategy.name, [{"role": "system", "content": READING_PROMPT},
                                {"role": "user", "content": f"{strategy.focus}\n\nThe request: \"{intent}\"\n\n"
                                                            f"OptiML's own readers refused it: {refusal}"}])
               for strategy in READING_STRATEGIES]
    readings, parsed = [], []
    for (name, _), (call, reply) in zip(prompts, policy.replies(prompts), strict=True):
        forms = SPEC_LINE.findall(reply or "")
        if reply is None or not forms:
            readings.append((name, call.reason or "no `spec:` line in the reply"))
            continue
        form = forms[-1].strip("` ")
        if form.lower() == "none":
            readings.append((name, "none: the model says the form cannot express it"))
            continue
        try:
            spec = parse_spec(form)
        except IntentError as refused:
            readings.append((name, f"{form}: {refused.message}"))
            continue
        if left := numbers_left_out(intent, form):
            readings.append((name, f"{form}: the intent's {', '.join(left)} not in it"))
            continue
        if (word := unused_operation_word(" ".join(intent.split()), spec)) is not None:
            readings.append((name, f"{form}: the intent's '{word}' not in it"))
            continue
        readings.append((name, form))
        parsed.append((form, spec))
    keys = [reading_key(spec) for _, spec in parsed]
    if len(parsed) < AGREEING:
        return LlmReading(readings=readings, reason=f"{len(parsed)} of {len(READING_STRATEGIES)} strategies gave a "
                                                    f"reading that parses and uses every number (needed: {AGREEING})")
    if any(key != keys[0] for key in keys):
        return LlmReading(readings=readings, reason="the strategies read different operations or shapes")
    form, spec = parsed[0]
    by = f"the LLM ({policy.settings.model}, {len(parsed)} of {len(READING_STRATEGIES)} strategies agree)"
    return LlmReading(spec=spec.model_copy(update={"intent": intent, "read_by": by}), form=form, readings=readings)


def numbers_left_out(intent: str, form: str) -> list[str]:
    """The numbers of the intent that the spec form does not hold: each must be one of the form's numbers (a
    dimension, an argument, a constant), the value of a `1 << k` or `2**k` there, or the size of a declared array
    (a shape written as its element count); "3D" needs an operation of that many axes or an array of that rank."""
    from optiml_engine.generate.intent import DIMENSIONALITY, number

    held = {float(m.group(0)) for m in FORM_NUMBER.finditer(form)}
    for dims in DECLARATION_DIMS.findall(form):
        values = [_value(d) for d in dims.split(",") if d.strip()]
        held.update(v for v in values if v is not None)
        if values and None not in values:
            held.add(float(math.prod(values)))
    left = []
    for match in DIMENSIONALITY.finditer(intent):
        axes = int(match.group(1))
        ranks = [len([d for d in dims.split(",") if d.strip()]) for dims in DECLARATION_DIMS.findall(form)]
        if f"{axes}d" not in form.lower() and axes not in ranks:
            left.append(f"'{match.group(0)}'")
    rest = re.sub(r"(\d)\s*[x×]\s*(?=\d)", r"\1 , ", DIMENSIONALITY.sub(" ", intent))   # 64x64: two numbers
    for match in INTENT_NUMBER.finditer(rest):
        token = match.group(1)
        try:
            value = float(token) if re.fullmatch(r"[\d.]+(?:[eE]-?\d+)?", token) else float(number(token))
        except ValueError:
            continue
        if not any(math.isclose(value, h, rel_tol=1e-9) for h in held):
            left.append(token)
    return left


def _value(dimension: str) -> float | None:
    text = dimension.replace(" ", "")
    if re.fullmatch(r"\d+", text):
        return float(text)
    if shifted := re.fullmatch(r"(\d+)<<(\d+)", text):
        return float(int(shifted.group(1)) << int(shifted.group(2)))
    if power := re.fullmatch(r"(\d+)\*\*(\d+)", text):
        return float(int(power.group(1)) ** int(power.group(2)))
    return None
