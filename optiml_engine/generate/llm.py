"""Generation with a language model (optional): several strategy prompts ("mixture of thoughts") each ask for the
spec's kernel from the intent, the contract and the NumPy reference, not from the built-in kernel's body. Every
reply goes through the LLM policy's checks (policies/llm.py: one kernel of the built-in signature, device code only,
a launch line that resolves at every size), then is verified against the oracle and timed interleaved with the
built-in kernel; the fastest verified one replaces it in the generated text and seeds the search. Without an LLM,
the built-in kernel is the seed: nothing else is missing.
"""

from __future__ import annotations

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.model import Candidate, Frozen, GeneratedKernel, Measurement
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
