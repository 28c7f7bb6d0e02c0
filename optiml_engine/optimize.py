"""`optimize`: the whole job for one kernel, from the user's file to a verified result another process can open.

original verified and timed -> MCTS over the policies' edits (each candidate verified against the reference and
timed) -> the best re-verified on fresh inputs, timed interleaved with the original, and passed through
compute-sanitizer memcheck and racecheck -> the file edit (kernel, contract launch line, launch sites) as a diff.
Nothing is offered unless that last verification holds.
"""

from __future__ import annotations

import datetime
import hashlib
import threading
from collections.abc import Callable

from pydantic import Field

from optiml_engine.candidate import original_candidate, reference_candidate
from optiml_engine.generate.algorithm import algorithm
from optiml_engine.evaluate import Evaluator
from optiml_engine.gpu.sanitize import SanitizerReport
from optiml_engine.model import Candidate, DeviceInfo, Frozen, Location, Measurement, OptimlError
from optiml_engine.policies.base import Policy
from optiml_engine.search.mcts import (
    Mcts, Rejection, SearchBudget, SearchConfig, SearchProgress, SearchSeconds, Step)
from optiml_engine.source.edit import apply_candidate
from optiml_engine.source.parse import CudaDocument

FINAL_SEED_OFFSET = 7919    # the final check draws inputs no search evaluation saw
SIGNIFICANT_SPEEDUP = 1.02  # an offer's interleaved speedup: its 95% interval lies above this (timing noise below)


class OptimizationResult(Frozen):
    path: str
    kernel: str
    date: str
    source_sha256: str                 # of the file text the job started from: apply only onto that text
    device: DeviceInfo | None
    original: Measurement
    best: Measurement                  # as measured during the search
    final: Measurement                 # the best again, on fresh inputs, timed interleaved with the original
    sanitizer: list[SanitizerReport] = Field(default_factory=list)
    accepted: bool                     # final verification and sanitizers passed, and the kernel changed
    trajectory: list[Step] = Field(default_factory=list)
    evaluated: int = 0
    rejected: int = 0
    stop_reason: str = ""
    history: list[tuple[int, float, float]] = Field(default_factory=list)
    rejections: list[Rejection] = Field(default_factory=list)   # candidates that failed verification, and why
    seconds: SearchSeconds = Field(default_factory=SearchSeconds)
    diff: str = ""
    new_text: str = ""
    notes: list[str] = Field(default_factory=list)

    @property
    def speedup(self) -> float | None:
        return self.final.speedup.median if self.final.speedup else None


def default_policies(use_llm: bool) -> list[Policy]:
    """The loop-nest program's schedules, the built-in rules and templates always; the LLM only when asked for and
    configured."""
    from optiml_engine.policies.rules import RulePolicy
    from optiml_engine.policies.schedules import SchedulePolicy
    from optiml_engine.policies.templates import TemplatePolicy

    policies: list[Policy] = [SchedulePolicy(), RulePolicy(), TemplatePolicy()]
    if use_llm:
        from optiml_engine.policies.llm import LlmPolicy, LlmSettings

        settings = LlmSettings.from_env()
        if settings is None:
            raise OptimlError(Location(file="<settings>", line=1), "--llm asks for an LLM but none is configured",
                              "OPTIML_LLM_BASE_URL and OPTIML_LLM_MODEL (and OPTIML_LLM_API_KEY) in the environment")
        policies.append(LlmPolicy(settings))
    return policies


def source_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def optimize(document: CudaDocument, kernel: str, evaluator: Evaluator, policies: list[Policy],
             budget: SearchBudget, config: SearchConfig, profile: bool = True,
             progress: Callable[[SearchProgress], None] | None = None,
             stop: threading.Event | None = None) -> OptimizationResult:
    text, model = document.text, document.model
    original = original_candidate(document, kernel)
    algorithm(original)   # a contract's spec that does not fit the kernel: said here, before any GPU work
    reference = reference_candidate(document, original) or original
    original_measurement = evaluator.evaluate(original, reference)
    base = dict(path=model.path, kernel=kernel, source_sha256=source_hash(text), device=evaluator.device,
                date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    if not original_measurement.ok:
        note = f"the original kernel does not verify: {original_measurement.reason}"
        if original_measurement.verdict == "suspect_fast":
            # The user's own kernel cannot be gaming its check: the contract's traffic is more than it moves.
            note = (f"{original.contract.location}: the original kernel runs faster than the speed-of-light floor "
                    f"its contract gives ({original_measurement.reason}); the floor counts every array of the "
                    f"contract moved once whole: where the kernel moves less (a slice of an inout array, a cache it "
                    f"updates in place), state the bytes it moves with a `bytes:` line")
        return OptimizationResult(**base, original=original_measurement, best=original_measurement,
                                  final=original_measurement, accepted=False, notes=[note])

    def evaluate(candidate: Candidate) -> Measurement:
        return evaluator.evaluate(candidate, reference)

    def diagnose(candidate: Candidate, measurement: Measurement):
        (found,) = evaluator.profile([(candidate, measurement)])
        return found.diagnosis, found.metrics.metrics if found.metrics else {}

    search = Mcts(evaluate, policies, budget, config, diagnose=diagnose if profile else None, device=evaluator.device,
                  prepare=evaluator.compile_ahead)
    outcome = search.run(original, original_measurement, progress, stop)

    def summary() -> dict:
        settled = search.settle(outcome)      # after the final check: the last profiles finish during it
        return dict(trajectory=settled.trajectory, evaluated=settled.evaluated, rejected=settled.rejected,
                    stop_reason=settled.stop_reason, history=settled.history, rejections=settled.rejections,
                    seconds=settled.seconds)

    if outcome.best is original:
        return OptimizationResult(**base, original=original_measurement, best=original_measurement,
                                  final=original_measurement, accepted=False, **summary(),
                                  notes=["no verified candidate was faster than the original"])
    final = evaluator.evaluate(outcome.best, reference, incumbent=original,
                               fresh_seed=evaluator.verify.seed + FINAL_SEED_OFFSET)
    sanitizer = evaluator.sanitize(outcome.best, reference) if final.ok else []
    significant = final.speedup is not None and final.speedup.ci_low > SIGNIFICANT_SPEEDUP
    accepted = final.ok and significant and all(report.ok for report in sanitizer)
    edit = apply_candidate(text, model, original, outcome.best) if accepted else None
    notes = []
    exact_at = [check.binding for check in final.checks if check.against_exact]
    if final.ok and exact_at:
        notes.append("verified against the original's math in double at " + ", ".join(
            " ".join(f"{k}={v}" for k, v in binding.items()) for binding in exact_at) + ": there the original's own "
            "float atomics, added in the order the GPU chose, are further from it than the contract's tol")
    if final.ok and not significant and all(report.ok for report in sanitizer):
        measured = (f"{final.speedup.median:.3f}x the original's speed (95% interval {final.speedup.ci_low:.3f}-"
                    f"{final.speedup.ci_high:.3f}, {final.speedup.pairs} interleaved pairs)"
                    if final.speedup is not None else "no interleaved timing")
        notes.append(f"no significant improvement: the best candidate runs at {measured}; a result is offered only "
                     f"when the interval lies above {SIGNIFICANT_SPEEDUP}")
    elif not accepted:
        why = final.reason or "; ".join(r.first_error for r in sanitizer if not r.ok)
        notes.append(f"the best candidate failed its final check: {why}")
    return OptimizationResult(**base, original=original_measurement, best=outcome.best_measurement, final=final,
                              sanitizer=sanitizer, accepted=accepted, **summary(), notes=notes,
                              diff=edit.diff if edit else "", new_text=edit.new_text if edit else "")
