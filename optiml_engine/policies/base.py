"""The proposal interface every policy implements (rules, templates, LLM), and the rule contract.

A policy looks at a verified node (its candidate, and what the profiler and the speed-of-light floor say about
it) and proposes edits: new candidates, each with a short description and the profiler symptom it targets. A
proposal is never trusted: the search compiles, verifies and times it like any other candidate.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from pydantic import Field

from optiml_engine.diagnosis import Diagnosis
from optiml_engine.model import Candidate, DeviceInfo, Frozen, SolReport, Span
from optiml_engine.policies.kernel_view import KernelView


class Edit(Frozen):
    candidate: Candidate      # the rewritten kernel, with its own launch rule when the geometry changed
    rule: str                 # which rule or template made it ("warp_per_row", ...)
    description: str          # one line for the trajectory: what changed
    symptom: str              # the profiler symptom it cures ("uncoalesced_loads", "atomics", ...)


class PolicyContext(Frozen):
    """What a policy may use beyond the kernel itself; every field may be missing (no GPU, not profiled yet)."""

    diagnosis: Diagnosis | None = None
    sol: SolReport | None = None
    device: DeviceInfo | None = None
    tried: list[str] = Field(default_factory=list)   # rules already applied on the path to this node


# A symptom the kernel's loop-nest program shows whatever the profile says: each loaded value used once where a tile
# of outputs could share it (a contraction's two loads per multiply-add). The profile sees its effects (uncoalesced
# loads, a full load queue, memory traffic), the program its cause: an edit that cures it ranks first.
NO_REUSE = "no_reuse"


def symptom_rank(symptom: str, diagnosis: Diagnosis | None) -> int:
    """-1 for an edit that cures what the program shows (NO_REUSE); 0 when it cures one of the profiler's findings
    (uncoalesced loads, ...), 1 when it cures the bound (memory-bound, ...), 2 otherwise: a finding is the more
    specific evidence."""
    if symptom == NO_REUSE:
        return -1
    if diagnosis is None:
        return 2
    if symptom in {finding.kind for finding in diagnosis.findings}:
        return 0
    return 1 if symptom == diagnosis.bound else 2


class Policy(ABC):
    name: str

    @abstractmethod
    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        """Edits of `node`; an empty list when nothing applies."""


class Place(Frozen):
    """Another place of a grouped finding (document_lints), with that place's own advice."""

    span: Span
    message: str


class Match(Frozen):
    """Where a rule's detector fired, and why, in the kernel's own unit text."""

    rule: str
    span: Span                # in the compile unit's text
    message: str              # the performance problem, in the user's terms
    symptom: str
    also: list[Place] = Field(default_factory=list)   # grouped: the kernel's other places with this symptom


class Rule(ABC):
    """A detector on the kernel's syntax tree, the rewrite it enables, and the profiler symptom it cures."""

    name: str
    symptom: str

    @abstractmethod
    def detect(self, view: KernelView) -> list[Match]:
        """Where this rule applies; empty when it does not."""

    @abstractmethod
    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        """Rewritten candidates (variants of one idea, e.g. several block sizes); only called when detect fired."""
