"""The search on a deterministic synthetic evaluator: a kernel's time is a product of per-edit factors, so the
best reachable kernel is known and every rule of the search can be checked without a GPU."""

import math
import threading
from pathlib import Path

import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.model import Candidate, Measurement, SolReport, TimingStats
from optiml_engine.policies.base import Edit, Policy, PolicyContext
from optiml_engine.search.mcts import Mcts, SearchBudget, SearchConfig
from optiml_engine.search.reward import REJECTED, reward
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
ORIGINAL_MS = 10.0
FLOOR_MS = 1.0
# edit name -> time factor; "wrong" edits produce kernels that fail verification
FACTORS = {"coalesce": 0.4, "vectorize": 0.7, "unroll": 0.95, "bigger_block": 1.1, "tile": 0.5}
WRONG = {"racy_shortcut"}


def original() -> Candidate:
    path = ROOT / "examples" / "vector_add.cu"
    return original_candidate(CudaDocument(path.read_text(), str(path)), "vector_add")


def applied(candidate: Candidate) -> list[str]:
    return [line.removeprefix("// edit ") for line in candidate.unit.text.splitlines() if line.startswith("// edit ")]


class SyntheticPolicy(Policy):
    """Proposes every edit not yet applied (each at most once per path)."""

    name = "synthetic"

    def __init__(self):
        self.calls = 0

    def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
        self.calls += 1
        done = applied(node)
        edits = []
        for name in [*FACTORS, *WRONG]:
            if name not in done:
                unit = node.unit.model_copy(update={"text": node.unit.text + f"\n// edit {name}"})
                edits.append(Edit(candidate=node.model_copy(update={"unit": unit, "description": name}), rule=name,
                                  description=f"apply {name}", symptom="memory" if name == "coalesce" else "latency"))
        return edits


def measure(candidate: Candidate, noise: float = 0.0, floor_ms: float = FLOOR_MS) -> Measurement:
    names = applied(candidate)
    if WRONG & set(names):
        return Measurement(kernel="vector_add", candidate_key="x", description="", verdict="wrong",
                           reason="relative L2 error 0.3 > tol")
    time_ms = ORIGINAL_MS * math.prod(FACTORS[n] for n in names) * (1 + noise)
    timing = TimingStats(median_ms=time_ms, ci_low_ms=time_ms, ci_high_ms=time_ms, iqr_ms=0.0,
                         spread_ms=0.005 * time_ms, min_ms=time_ms, max_ms=time_ms, runs=20)
    sol = SolReport(bytes=1, flops=0, floor_ms=floor_ms, bound="memory", headroom=time_ms / floor_ms,
                    percent_of_sol=100 * floor_ms / time_ms, achieved_gbps=1, achieved_gflops=0, suspect=False)
    return Measurement(kernel="vector_add", candidate_key="x", description="", verdict="ok", timing=timing, sol=sol)


def search(budget: SearchBudget, config: SearchConfig = SearchConfig(), evaluate=measure, stop=None, progress=None):
    start = original()
    return Mcts(evaluate, [SyntheticPolicy()], budget, config).run(start, measure(start), progress, stop)


def test_finds_the_best_combination_within_budget_and_never_returns_a_wrong_kernel():
    outcome = search(SearchBudget(candidates=60, seconds=60, sol_stop=1.0))
    best_ms = outcome.best_measurement.timing.median_ms
    assert outcome.best_measurement.ok
    # coalesce * vectorize * unroll * tile = 0.133 of the original: the best reachable (bigger_block only hurts)
    assert best_ms == pytest.approx(ORIGINAL_MS * 0.4 * 0.7 * 0.95 * 0.5)
    assert set(applied(outcome.best)) == {"coalesce", "vectorize", "unroll", "tile"}
    assert outcome.rejected >= 1 and outcome.evaluated <= 60
    assert len(outcome.rejections) == outcome.rejected
    assert all(r.rule == "racy_shortcut" and r.verdict == "wrong" and "relative L2 error" in r.reason
               for r in outcome.rejections)
    assert [s.rule for s in outcome.trajectory] and outcome.trajectory[-1].speedup == pytest.approx(ORIGINAL_MS / best_ms)
    assert all(b[2] >= a[2] for a, b in zip(outcome.history[1:], outcome.history[:-1]))   # best time only improves


def test_only_nodes_faster_than_their_parent_are_profiled():
    from optiml_engine.diagnosis import Diagnosis

    profiled: list[list[str]] = []

    def diagnose(candidate, measurement):
        profiled.append(applied(candidate))
        return Diagnosis(bound="memory", headline=f"profile of {applied(candidate)}", explanation="", findings=[],
                         top_stalls=[]), {}

    start = original()
    mcts = Mcts(measure, [SyntheticPolicy()], SearchBudget(candidates=60, seconds=60, sol_stop=1.0), SearchConfig(),
                diagnose=diagnose)
    outcome = mcts.settle(mcts.run(start, measure(start)))
    assert profiled[0] == [] and len(profiled) > 1            # the original first, then improving nodes
    # bigger_block only slows a kernel down: a node whose last edit it is never gets a profile of its own
    assert not any(path and path[-1] == "bigger_block" for path in profiled)
    assert len(profiled) < outcome.evaluated
    # on the best path every step helped: each expanded node there carries its own profile, not its parent's
    rules = [step.rule for step in outcome.trajectory]
    explained = [(k, step) for k, step in enumerate(outcome.trajectory) if step.diagnosis_after is not None]
    assert explained and all(step.diagnosis_after == f"profile of {rules[:k + 1]}" for k, step in explained)


@pytest.mark.parametrize("parallel", [1, 2])
def test_profiles_run_beside_the_measurements(parallel):
    """A profile takes as long as several evaluations (ncu's start-up, mostly on the CPU). With one GPU or two, the
    search goes on measuring while a profile runs, and each profile still reaches its node."""
    import threading
    import time as clock

    from optiml_engine.diagnosis import Diagnosis

    profiling = threading.Event()
    measured_while_profiling: list[str] = []
    profiled: list[list[str]] = []

    def slow_measure(candidate):
        if profiling.is_set():
            measured_while_profiling.append(candidate.description)
        clock.sleep(0.02)
        return measure(candidate)

    def diagnose(candidate, measurement):
        profiling.set()
        clock.sleep(0.15)
        profiling.clear()
        profiled.append(applied(candidate))
        return Diagnosis(bound="memory", headline=f"profile of {applied(candidate)}", explanation="", findings=[],
                         top_stalls=[]), {}

    start = original()
    mcts = Mcts(slow_measure, [SyntheticPolicy()], SearchBudget(candidates=40, seconds=60, sol_stop=1.0),
                SearchConfig(parallel=parallel), diagnose=diagnose)
    outcome = mcts.settle(mcts.run(start, measure(start)))
    assert outcome.best_measurement.timing.median_ms < ORIGINAL_MS / 5 and len(profiled) > 1
    assert measured_while_profiling
    assert outcome.seconds.profiling_beside >= 0.15 * len(profiled) - 1e-6
    # Only a profile still running when the budget is spent is waited for.
    assert outcome.seconds.profiling <= 0.15 + 0.05


def test_candidate_budget_is_respected():
    outcome = search(SearchBudget(candidates=5, seconds=60, sol_stop=1.0))
    assert outcome.evaluated == 5 and "candidate budget" in outcome.stop_reason


def test_sol_stop_ends_the_search_early():
    outcome = search(SearchBudget(candidates=60, seconds=60, sol_stop=2.0))
    assert outcome.best_measurement.sol.headroom <= 2.0
    assert "speed-of-light" in outcome.stop_reason and outcome.evaluated < 60   # before the candidate budget


def test_sol_stop_polishes_the_best_greedily_then_stops():
    # Every single edit but bigger_block lands within 7.5x of the 1 ms floor. The tree is explored no further, but
    # the best is polished: the root's other edits, then the best's own while they improve it; the improving
    # factors all compose (coalesce, tile, vectorize, unroll), so the polish reaches their product.
    outcome = search(SearchBudget(candidates=200, seconds=60, sol_stop=7.5))
    assert "speed-of-light" in outcome.stop_reason
    assert outcome.best_measurement.timing.median_ms == pytest.approx(ORIGINAL_MS * 0.4 * 0.5 * 0.7 * 0.95)
    times = [step.time_ms for step in outcome.trajectory]
    assert times == sorted(times, reverse=True) and len(times) == 4
    # Greedy: each level's proposals once (6 at the root, then 5, 4, 3, 2 below the successive bests), not a tree.
    assert outcome.evaluated == 6 + 5 + 4 + 3 + 2
    full = search(SearchBudget(candidates=200, seconds=60, sol_stop=1.0))
    assert full.evaluated > outcome.evaluated


def test_sol_stop_is_the_reason_when_the_polish_ends_on_edits_already_seen():
    class HalveOrUndo(Policy):
        """The original gets one edit; the edited kernel, only the edit undone: a kernel the search has seen."""

        name = "halve_or_undo"

        def propose(self, node: Candidate, context: PolicyContext) -> list[Edit]:
            start = original()
            target = start if applied(node) else start.model_copy(update={"unit": start.unit.model_copy(
                update={"text": start.unit.text + "\n// edit coalesce"})})
            return [Edit(candidate=target, rule="undo" if applied(node) else "coalesce", description="",
                         symptom="memory")]

    start = original()
    outcome = Mcts(measure, [HalveOrUndo()], SearchBudget(sol_stop=6.0)).run(start, measure(start))
    assert outcome.evaluated == 1 and "speed-of-light" in outcome.stop_reason


def test_sol_stop_does_not_search_an_original_already_at_its_floor():
    start = original()
    outcome = Mcts(measure, [SyntheticPolicy()], SearchBudget(sol_stop=20.0)).run(start, measure(start))
    assert outcome.evaluated == 0 and "speed-of-light" in outcome.stop_reason


def test_the_default_stop_searches_an_original_five_percent_above_its_floor():
    # 5% is a gap torch.compile closes on a map (daxpby); the default stops only within the timing's precision.
    def near_floor(candidate):
        return measure(candidate, floor_ms=ORIGINAL_MS / 1.05)

    start = original()
    outcome = Mcts(near_floor, [SyntheticPolicy()], SearchBudget()).run(start, near_floor(start))
    assert outcome.evaluated > 0
    assert outcome.best_measurement.timing.median_ms < ORIGINAL_MS


def test_time_budget():
    def slow(candidate):
        threading.Event().wait(0.05)
        return measure(candidate)

    outcome = search(SearchBudget(candidates=1000, seconds=0.3, sol_stop=1.0), evaluate=slow)
    assert "time budget" in outcome.stop_reason and outcome.evaluated <= 8


def test_cancellation_keeps_the_best_so_far():
    stop = threading.Event()

    def progress(p):
        if p.evaluated == 3:
            stop.set()

    outcome = search(SearchBudget(candidates=60, seconds=60, sol_stop=1.0), stop=stop, progress=progress)
    assert outcome.stop_reason == "cancelled" and outcome.evaluated == 3
    assert outcome.best_measurement.ok and outcome.best_measurement.timing.median_ms < ORIGINAL_MS


def test_same_seed_same_search():
    first = search(SearchBudget(candidates=12, seconds=60, sol_stop=1.0), SearchConfig(seed=3))
    second = search(SearchBudget(candidates=12, seconds=60, sol_stop=1.0), SearchConfig(seed=3))
    assert [s.rule for s in first.trajectory] == [s.rule for s in second.trajectory]
    assert [(n, ms) for n, _, ms in first.history] == [(n, ms) for n, _, ms in second.history]


def test_parallel_evaluation_with_virtual_loss_reaches_the_same_best():
    outcome = search(SearchBudget(candidates=60, seconds=60, sol_stop=1.0), SearchConfig(parallel=4))
    assert outcome.best_measurement.timing.median_ms == pytest.approx(ORIGINAL_MS * 0.4 * 0.7 * 0.95 * 0.5)


def test_progressive_widening_limits_children_of_rarely_visited_nodes():
    mcts = Mcts(measure, [SyntheticPolicy()], config=SearchConfig(widening_base=1.0, widening_exponent=0.5))
    from optiml_engine.search.mcts import Node

    start = original()
    node = Node(start, measure(start), None, None, 0.0)
    node.visits = 4
    assert mcts.widening_limit(node) == 2
    node.visits = 9
    assert mcts.widening_limit(node) == 3


def test_exhausted_space_stops():
    class OneEdit(SyntheticPolicy):
        def propose(self, node, context):
            return [e for e in super().propose(node, context) if e.rule == "coalesce"]

    start = original()
    outcome = Mcts(measure, [OneEdit()], SearchBudget(candidates=50, sol_stop=1.0)).run(start, measure(start))
    assert outcome.evaluated == 1 and outcome.stop_reason == "search space exhausted"


def test_original_must_verify():
    start = original()
    with pytest.raises(ValueError):
        Mcts(measure, [SyntheticPolicy()]).run(start, Measurement(kernel="k", candidate_key="x", description="",
                                                                  verdict="wrong"))


def test_reward_guardrails():
    start = original()
    base = measure(start)
    faster = measure(start.model_copy(update={"unit": start.unit.model_copy(update={"text": start.unit.text + "\n// edit coalesce"})}))
    slower = measure(start.model_copy(update={"unit": start.unit.model_copy(update={"text": start.unit.text + "\n// edit bigger_block"})}))
    assert reward(faster, ORIGINAL_MS, base).total == pytest.approx(math.log(1 / 0.4))
    regressed = reward(slower, ORIGINAL_MS, base)
    assert regressed.regression > 0 and regressed.total < regressed.log_speedup
    wrong = Measurement(kernel="k", candidate_key="x", description="", verdict="suspect_fast")
    assert reward(wrong, ORIGINAL_MS).total == REJECTED
    noisy = faster.model_copy(update={"timing": faster.timing.model_copy(update={"spread_ms": faster.timing.median_ms})})
    assert reward(noisy, ORIGINAL_MS).spread > 0
    assert reward(faster, ORIGINAL_MS, base, {"dram_pct": 80}, {"dram_pct": 40}).bottleneck == pytest.approx(0.08)
