"""Monte Carlo Tree Search over edits.

A node is an evaluated candidate; its children are the edits the policies propose for it, tried one at a time
(progressive widening: a node visited n times may have at most ceil(WIDENING_BASE * n ** WIDENING_EXPONENT)
children), most promising first (edits whose symptom matches the node's diagnosis). Selection descends by UCT over
verified children; a rejected child is a leaf whose negative reward is backed up like any other. Several
candidates may be in flight at once (one per GPU): the path to each carries a virtual loss until its result comes
back. Budgets: candidates evaluated, wall time, and the speed-of-light stop: once a candidate the search found is
within `sol_stop` of its floor, the tree is explored no further, but the best is polished before the search stops:
the edits proposed beside it (its parent's untried ones), then its own (a template instance's parameter
neighbours, the rules), greedily while they improve it. The floor is an estimate, and a sibling or neighbour a few
percent faster is the kernel to offer (layernorm_rows: the first instance within 1.1x was 8% slower than another of
the same template). Seeded: the same seed proposes and orders the same edits, so a run is reproducible up to timing
noise.
A node is profiled when first expanded, and only when it is faster than its parent (else it keeps its parent's
diagnosis): Nsight Compute takes seconds a kernel, several candidates' worth of evaluation. Profiles run beside the
search, which expands the node on its parent's diagnosis until its own arrives.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from pydantic import Field

from optiml_engine.diagnosis import Diagnosis
from optiml_engine.model import Candidate, DeviceInfo, Frozen, Measurement
from optiml_engine.policies.base import Edit, Policy, PolicyContext, symptom_rank
from optiml_engine.search.reward import REJECTED, reward

IMPROVEMENT = 0.02   # a child at least this much faster than its parent gets a profile of its own

Evaluate = Callable[[Candidate], Measurement]
# What the profiler says about an evaluated candidate: its diagnosis and metrics, or None (not profiled).
Diagnose = Callable[[Candidate, Measurement], tuple[Diagnosis, dict[str, float]] | None]


class SearchBudget(Frozen):
    candidates: int = 60
    seconds: float = 600.0
    # Stop when the best is within this factor of its speed-of-light floor: the timing's own precision (a median
    # known to +-2%), not 1.1x, which stopped kernels that torch.compile beat by 3-8% (daxpby at 1.08x unsearched
    # against its 1.03x, heat1d at 1.09x against 1.03x: bench/results/ir-h200/issue16-full-8/).
    sol_stop: float = 1.02


class SearchConfig(Frozen):
    exploration: float = 0.7
    widening_base: float = 2.0
    widening_exponent: float = 0.5
    parallel: int = 1              # candidates in flight (one per GPU worker)
    seed: int = 0


class Step(Frozen):
    """One edit on the path from the original to the best kernel: what changed, and what it did."""

    rule: str
    description: str
    symptom: str
    reward: float
    time_ms: float
    speedup: float                 # over the original
    percent_of_sol: float | None
    diagnosis_before: str | None
    diagnosis_after: str | None


class Rejection(Frozen):
    """A candidate that failed verification: which edit made it, and why it was rejected."""

    rule: str
    description: str
    verdict: str
    reason: str


class SearchProgress(Frozen):
    evaluated: int
    rejected: int
    best_speedup: float
    best_percent_of_sol: float | None
    elapsed_s: float


class SearchSeconds(Frozen):
    """Where a search's wall time went, as its loop saw it (seconds)."""

    total: float = 0.0
    proposing: float = 0.0        # the policies: lifting, emitting, and the compiles that prune their edits
    profiling: float = 0.0        # after the loop, waiting for the profiles still running (past the final check)
    measuring: float = 0.0        # waiting for candidates in flight: compile (unless ahead), verify, time
    profiling_beside: float = 0.0  # Nsight Compute on the candidates that improved on their parent, run beside the
                                   # search (summed over the profiler threads)

    @property
    def other(self) -> float:
        return max(self.total - self.proposing - self.profiling - self.measuring, 0.0)


class SearchOutcome(Frozen):
    original: Candidate
    original_measurement: Measurement
    best: Candidate
    best_measurement: Measurement
    trajectory: list[Step]
    evaluated: int
    stop_reason: str
    history: list[tuple[int, float, float]] = Field(default_factory=list)   # (evaluated, elapsed s, best ms)
    rejections: list[Rejection] = Field(default_factory=list)
    seconds: SearchSeconds = Field(default_factory=SearchSeconds)

    @property
    def rejected(self) -> int:
        return len(self.rejections)


class Node:
    def __init__(self, candidate: Candidate, measurement: Measurement, edit: Edit | None, parent: Node | None,
                 reward_value: float):
        self.candidate = candidate
        self.measurement = measurement
        self.edit = edit
        self.parent = parent
        self.reward = reward_value
        self.children: list[Node] = []
        self.visits = 0
        self.value = 0.0
        self.untried: list[Edit] | None = None    # proposed on first expansion
        self.diagnosis: Diagnosis | None = None
        self.metrics: dict[str, float] | None = None
        self.in_flight = 0
        self.exhausted = False

    @property
    def verified(self) -> bool:
        return self.measurement.ok

    def path(self) -> list[Node]:
        node, path = self, []
        while node is not None:
            path.append(node)
            node = node.parent
        return path[::-1]

    def rules(self) -> list[str]:
        return [n.edit.rule for n in self.path() if n.edit is not None]


def improved(node: Node) -> bool:
    """Faster than its parent by more than the timing's noise (IMPROVEMENT)."""
    return node.measurement.timing.median_ms < (1 - IMPROVEMENT) * node.parent.measurement.timing.median_ms


def candidate_identity(candidate: Candidate) -> tuple[str, str, str]:
    return candidate.unit.text, candidate.contract.launch.model_dump_json(), " ".join(candidate.flags)


class Mcts:
    def __init__(self, evaluate: Evaluate, policies: list[Policy], budget: SearchBudget | None = None,
                 config: SearchConfig | None = None, diagnose: Diagnose | None = None, device: DeviceInfo | None = None,
                 prepare: Callable[[list[Candidate]], None] | None = None):
        self.evaluate = evaluate
        # Told of each node's proposals as they are made, to compile them while the GPU measures others.
        self.prepare = prepare
        self.spent = {"proposing": 0.0, "profiling_beside": 0.0}
        # Profiles run on threads of their own, as many as GPUs: Nsight Compute's seconds are mostly start-up on the
        # CPU, and the GPU is held only for the launches (gpu/profile.py), so the search measures meanwhile. A node is
        # expanded at once on its parent's diagnosis, and its edits are put in order again when its own arrives.
        self.profiler: ThreadPoolExecutor | None = None
        self.best: Node | None = None      # the run's best node, for the trajectory once its profiles settle
        self.pending: dict[int, tuple[Node, Future]] = {}
        self.policies = policies
        self.budget = budget or SearchBudget()
        self.config = config or SearchConfig()
        self.diagnose = diagnose
        self.device = device
        self.rng = random.Random(self.config.seed)

    # -- tree policy ------------------------------------------------------------------------------------------------

    def widening_limit(self, node: Node) -> int:
        return math.ceil(self.config.widening_base * max(node.visits, 1) ** self.config.widening_exponent)

    def uct(self, parent: Node, child: Node) -> float:
        visits = child.visits + child.in_flight
        if visits == 0:
            return math.inf
        mean = (child.value + REJECTED * child.in_flight) / visits        # virtual loss while in flight
        return mean + self.config.exploration * math.sqrt(math.log(parent.visits + parent.in_flight + 1) / visits)

    def proposals(self, node: Node) -> list[Edit]:
        began = time.perf_counter()
        context = PolicyContext(diagnosis=node.diagnosis, sol=node.measurement.sol, device=self.device,
                                tried=node.rules())
        edits = [edit for policy in self.policies for edit in policy.propose(node.candidate, context)]
        keyed = [(symptom_rank(edit.symptom, node.diagnosis), self.rng.random(), index, edit)
                 for index, edit in enumerate(edits)]
        ordered = [edit for *_, edit in sorted(keyed)]
        if self.prepare is not None:
            self.prepare([edit.candidate for edit in ordered])
        self.spent["proposing"] += time.perf_counter() - began
        return ordered

    def expandable(self, node: Node) -> bool:
        if node.untried is None:
            if self.diagnose is not None and node.diagnosis is None:
                if node.parent is not None and not improved(node):
                    # Its parent's bottleneck still stands: a profile (seconds of Nsight Compute) would say little
                    # new, and the search evaluates several candidates in that time.
                    node.diagnosis, node.metrics = node.parent.diagnosis, node.parent.metrics
                else:
                    self.pending[id(node)] = (node, self.profiler.submit(self.profiled, node))
                    if node.parent is not None:
                        node.diagnosis, node.metrics = node.parent.diagnosis, node.parent.metrics
            node.untried = self.proposals(node)
        return bool(node.untried) and len(node.children) < self.widening_limit(node)

    def profiled(self, node: Node) -> tuple[Diagnosis, dict[str, float]] | None:
        began = time.perf_counter()
        found = self.diagnose(node.candidate, node.measurement)
        self.spent["profiling_beside"] += time.perf_counter() - began
        return found

    def settle_profiles(self) -> None:
        """Profiles that arrived: the node's diagnosis, and its untried edits in the order its symptoms give."""
        for key, (node, future) in list(self.pending.items()):
            if future.done():
                del self.pending[key]
                found = None if future.cancelled() else future.result()   # cancelled: queued when the loop ended
                if found is not None:
                    node.diagnosis, node.metrics = found
                    if node.untried:
                        node.untried.sort(key=lambda edit: symptom_rank(edit.symptom, node.diagnosis))

    def select(self, root: Node) -> Node | None:
        """The node to expand next: descend by UCT while the current node may not widen. With nowhere to descend
        (no verified children left open), a node widens anyway while it has edits, else it is exhausted and the
        descent starts again; None when the whole tree is exhausted."""
        while not root.exhausted:
            node = root
            while not self.expandable(node):
                open_children = [c for c in node.children if c.verified and not c.exhausted]
                if open_children:
                    node = max(open_children, key=lambda child: self.uct(node, child))
                elif node.untried:
                    return node
                else:
                    node.exhausted = True
                    break
            else:
                return node
        return None

    # -- the loop ---------------------------------------------------------------------------------------------------

    def run(self, original: Candidate, original_measurement: Measurement,
            progress: Callable[[SearchProgress], None] | None = None,
            stop: threading.Event | None = None) -> SearchOutcome:
        if not original_measurement.ok or original_measurement.timing is None:
            raise ValueError(f"the original kernel must verify first: {original_measurement.reason}")
        began = time.perf_counter()
        self.spent = {"proposing": 0.0, "profiling_beside": 0.0}
        self.pending = {}
        self.profiler = ThreadPoolExecutor(max_workers=self.config.parallel, thread_name_prefix="optiml-profile") \
            if self.diagnose is not None else None
        measuring = 0.0
        original_ms = original_measurement.timing.median_ms
        root = Node(original, original_measurement, None, None, 0.0)
        root.visits = 1
        best = root
        seen = {candidate_identity(original)}
        evaluated = 0
        history: list[tuple[int, float, float]] = []
        rejections: list[Rejection] = []
        stop_reason = "search space exhausted"
        in_flight: dict[Future, tuple[Node, Edit]] = {}

        def stopping() -> str | None:
            if stop is not None and stop.is_set():
                return "cancelled"
            if evaluated + len(in_flight) >= self.budget.candidates:
                return f"candidate budget ({self.budget.candidates}) reached"
            if time.perf_counter() - began >= self.budget.seconds:
                return f"time budget ({self.budget.seconds:.0f} s) reached"
            if at_floor() and polished_from() is None:
                return f"within {self.budget.sol_stop}x of the speed-of-light floor"
            return None

        def at_floor() -> bool:
            sol = best.measurement.sol
            return sol is not None and sol.headroom <= self.budget.sol_stop

        def polished_from() -> Node | None:
            """At the floor, where the next edit comes from: the best's parent while it has edits left (the best's
            alternatives), then the best itself (its refinements); None when both are done, or when the original
            itself is at the floor (nothing to polish: the search had found nothing)."""
            if best.parent is None:
                return None
            if best.parent.untried:
                return best.parent
            if best.untried is None:
                self.expandable(best)    # proposes its edits (and profiles it if it improved on its parent)
            return best if best.untried else None

        def next_parent() -> Node | None:
            return polished_from() if at_floor() else self.select(root)

        with ThreadPoolExecutor(max_workers=self.config.parallel) as pool:
            while True:
                self.settle_profiles()
                reason = stopping()
                while reason is None and len(in_flight) < self.config.parallel:
                    parent = next_parent()
                    if parent is None:
                        break
                    edit = parent.untried.pop(0)
                    if candidate_identity(edit.candidate) in seen:
                        continue
                    seen.add(candidate_identity(edit.candidate))
                    for node in parent.path():
                        node.in_flight += 1
                    in_flight[pool.submit(self.evaluate, edit.candidate)] = (parent, edit)
                    reason = stopping()
                if not in_flight:
                    stop_reason = reason or stopping() or stop_reason   # the polish may end on seen edits
                    break
                waited = time.perf_counter()
                done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
                measuring += time.perf_counter() - waited
                for future in done:
                    parent, edit = in_flight.pop(future)
                    for node in parent.path():
                        node.in_flight -= 1
                    measurement = future.result()
                    evaluated += 1
                    value = reward(measurement, original_ms, parent.measurement, None, parent.metrics).total
                    child = Node(edit.candidate, measurement, edit, parent, value)
                    parent.children.append(child)
                    if not child.verified:
                        rejections.append(Rejection(rule=edit.rule, description=edit.description,
                                                    verdict=measurement.verdict, reason=measurement.reason[:500]))
                    for node in child.path():
                        node.visits += 1
                        node.value += value
                    if child.verified and child.measurement.timing.median_ms < best.measurement.timing.median_ms:
                        best = child
                    history.append((evaluated, time.perf_counter() - began, best.measurement.timing.median_ms))
                    if progress is not None:
                        sol = best.measurement.sol
                        progress(SearchProgress(
                            evaluated=evaluated, rejected=len(rejections),
                            best_speedup=original_ms / best.measurement.timing.median_ms,
                            best_percent_of_sol=sol.percent_of_sol if sol else None,
                            elapsed_s=time.perf_counter() - began))
        self.best = best
        return SearchOutcome(original=original, original_measurement=original_measurement, best=best.candidate,
                             best_measurement=best.measurement, trajectory=self.trajectory(best, original_ms),
                             evaluated=evaluated, stop_reason=stop_reason, history=history,
                             rejections=rejections,
                             seconds=SearchSeconds(total=time.perf_counter() - began, measuring=measuring,
                                                   **self.spent))

    def settle(self, outcome: SearchOutcome) -> SearchOutcome:
        """The outcome once the profiles still running when the loop ended have arrived (the trajectory's
        diagnoses): called after the caller's own closing work (the final check), which they overlap."""
        if self.profiler is None:
            return outcome
        waited = time.perf_counter()
        self.profiler.shutdown(wait=True, cancel_futures=True)
        self.settle_profiles()
        seconds = outcome.seconds.model_copy(update={"profiling": time.perf_counter() - waited,
                                                      "profiling_beside": self.spent["profiling_beside"]})
        return outcome.model_copy(update={
            "trajectory": self.trajectory(self.best, outcome.original_measurement.timing.median_ms),
            "seconds": seconds})

    def trajectory(self, best: Node, original_ms: float) -> list[Step]:
        steps = []
        for node in best.path()[1:]:
            timing, sol = node.measurement.timing, node.measurement.sol
            steps.append(Step(
                rule=node.edit.rule, description=node.edit.description, symptom=node.edit.symptom,
                reward=node.reward, time_ms=timing.median_ms, speedup=original_ms / timing.median_ms,
                percent_of_sol=sol.percent_of_sol if sol else None,
                diagnosis_before=node.parent.diagnosis.headline if node.parent.diagnosis else None,
                diagnosis_after=node.diagnosis.headline if node.diagnosis else None))
        return steps
