"""What `optimize` would do, without a GPU (`optiml optimize --dry-run`, and `optiml optimize` on a machine without
one): the kernel's loop-nest program or the located reason it has none, the findings static analysis gives (the
rules' lints, one per symptom), and the first candidates the search would try, each compiled with NVRTC and its
resource report. Nothing is verified or timed: that needs the GPU. `dry_run_markdown` writes it for a reader: the
command line prints it through Rich, the editor opens it as a file.
"""

from __future__ import annotations

import re

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.compile import compile_nvrtc
from optiml_engine.generate.algorithm import algorithm
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


def without_gpu(reason: str) -> str:
    """Why a dry run, when `optimize` found no GPU (`reason`: the driver's answer)."""
    return f"no GPU here ({reason}); the search needs one to verify and time each candidate"


def dry_run(document: CudaDocument, kernel: str, policies: list[Policy]) -> DryRun:
    """Raises OptimlError when the kernel's contract is wrong (as optimize does)."""
    original = original_candidate(document, kernel)
    program = lift(algorithm(original))
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


def dry_run_markdown(found: DryRun, path: str, why: str) -> str:
    """The dry run of the kernel in the file at `path`, as Markdown; `why` says why it was a dry run."""
    lines = [f"# Dry run of optimize on `{found.kernel}`", "",
             f"`{path}`: {prose(why)}. Nothing below is verified or timed.", ""]
    if found.program is not None:
        lines += ["## Loop-nest program", "", "```", found.program, "```", ""]
    else:
        lines += ["## Not a loop-nest program", "", prose(found.not_liftable), ""]
    lines += ["## Findings", ""]
    for match in found.findings:
        where = f"`{path}:{match.span.start.line + 1}`"
        lines.append(f"- {where}: `{match.rule}` [{match.symptom}]: {prose(match.message)}")
        lines += [f"  - `{path}:{place.span.start.line + 1}`: {prose(place.message)}" for place in match.also]
    if not found.findings:
        lines.append("none")
    lines += ["", f"## First candidates the search would try ({len(found.candidates)})", "",
              "| # | rule | cures | compiles | registers | spills (bytes) | shared (bytes) | candidate |",
              "|---|---|---|---|---|---|---|---|"]
    for index, candidate in enumerate(found.candidates, 1):
        usage = candidate.resources
        figures = [str(usage.registers), str(usage.spill_store_bytes), str(usage.shared_bytes)] if usage else [""] * 3
        cells = [str(index), f"`{candidate.rule}`", candidate.symptom,
                 "yes" if candidate.compiled else f"no: {prose(candidate.error)}", *figures,
                 prose(candidate.description)]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")   # a `|` ends a cell
    return "\n".join(lines) + "\n"


def prose(text: str) -> str:
    """`text` as literal Markdown outside its `code` spans: `__restrict__` would otherwise render as a bold word and
    `x[r*cols]` may open an emphasis."""
    pieces = re.split(r"(`[^`]*`)", text)   # the odd pieces are the code spans
    return "".join(piece if index % 2 else re.sub(r"([\\*_])", r"\\\1", piece) for index, piece in enumerate(pieces))
