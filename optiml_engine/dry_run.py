"""What `optimize` would do, without a GPU (`optiml optimize --dry-run`, and `optiml optimize` on a machine without
one): the kernel's loop-nest program or the located reason it has none, the findings static analysis gives (the
rules' lints, one per symptom), and the first candidates the search would try, each compiled with NVRTC and its
resource report. Nothing is verified or timed: that needs the GPU.
"""

from __future__ import annotations

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import NotLiftable
from optiml_engine.model import Frozen, ResourceUsage
from optiml_engine.policies.base import Match, Policy, PolicyContext
from optiml_engine.policies.rules import document_lints
from optiml_engine.source.parse import CudaDocument


class FirstCandidate(Frozen):
    rule: str
    description: str
    symptom: str
    compiled: bool
    resources: ResourceUsage | None = None
    error: str = ""                     # the compiler's first line when it did not compile


class DryRun(Frozen):
    kernel: str
    program: str | None = None          # the loop-nest program, printed
    not_liftable: str | None = None     # or why there is none (file:line: reason)
    findings: list[Match]
    candidates: list[FirstCandidate]


def dry_run(document: CudaDocument, kernel: str, policies: list[Policy]) -> DryRun:
    """Raises OptimlError when the kernel's contract is wrong (as optimize does)."""
    original = original_candidate(document, kernel)
    program = lift(original)
    if isinstance(program, NotLiftable):
        where = program.location
        lifted = {"not_liftable": f"{where.file}:{where.line}:{where.column}: {program.reason}"}
    else:
        lifted = {"program": str(program)}
    candidates = []
    for policy in policies:
        for edit in policy.propose(original, PolicyContext()):
            result = compile_nvrtc(edit.candidate.unit, flags=edit.candidate.flags)
            error = "" if result.ok else next((line for line in result.log.splitlines() if "error" in line),
                                              result.log.strip().splitlines()[0] if result.log.strip() else "")
            candidates.append(FirstCandidate(rule=edit.rule, description=edit.description, symptom=edit.symptom,
                                             compiled=result.ok, resources=result.resources, error=error))
    return DryRun(kernel=kernel, findings=document_lints(document, [kernel], grouped=True), candidates=candidates,
                  **lifted)
