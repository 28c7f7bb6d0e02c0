"""The optimize job end to end on the CPU: a deterministic evaluator stands in for the GPU (the search, the final
fresh-seed check, the sanitizers, the file edit, the result file and the HTML report are all real)."""

import threading
from pathlib import Path

from optiml_engine.diagnosis import Diagnosis
from optiml_engine.evaluate import Profile
from optiml_engine.gpu.sanitize import SanitizerReport
from optiml_engine.model import DeviceCeilings, DeviceInfo, SpeedupStats, VerifyPolicy
from optiml_engine.optimize import OptimizationResult, optimize
from optiml_engine.report import html_report
from optiml_engine.search.mcts import SearchBudget, SearchConfig
from optiml_engine.source.parse import CudaDocument
from tests.unit.test_search import ORIGINAL_MS, SyntheticPolicy, measure

ROOT = Path(__file__).resolve().parents[2]
DEVICE = DeviceInfo(index=0, name="synthetic", compute_capability="9.0", sm_count=132, l2_bytes=50 << 20,
                    memory_bytes=80 << 30, sm_clock_mhz=1980, memory_clock_mhz=2619, driver="13.0", runtime="13.0")


class SyntheticEvaluator:
    def __init__(self, sanitizer_ok: bool = True):
        self.device = DEVICE
        self.verify = VerifyPolicy(seed=5)
        self.sanitizer_ok = sanitizer_ok
        self.fresh_seeds: list[int] = []
        self.profiled = 0
        self.prepared: set[str] = set()
        self.unprepared: list[str] = []    # search candidates evaluated without having been compiled ahead

    def compile_ahead(self, candidates):
        self.prepared |= {candidate.unit.text for candidate in candidates}

    def evaluate(self, candidate, reference=None, incumbent=None, fresh_seed=None):
        if candidate.description != "original" and fresh_seed is None and candidate.unit.text not in self.prepared:
            self.unprepared.append(candidate.description)
        measurement = measure(candidate)
        if fresh_seed is not None:
            self.fresh_seeds.append(fresh_seed)
        if incumbent is not None and measurement.ok:
            ratio = measure(incumbent).timing.median_ms / measurement.timing.median_ms
            measurement = measurement.model_copy(update={"speedup": SpeedupStats(
                median=ratio, ci_low=ratio, ci_high=ratio, pairs=20)})
        return measurement

    def profile(self, measured):
        self.profiled += len(measured)
        return [Profile(metrics=None, diagnosis=Diagnosis(bound="memory", headline="memory-bound", explanation="",
                                                          findings=[], top_stalls=[])) for _ in measured]

    def sanitize(self, candidate, reference=None):
        return [SanitizerReport(tool=tool, ok=self.sanitizer_ok, errors=0 if self.sanitizer_ok else 2,
                                first_error="" if self.sanitizer_ok else "Invalid __global__ write")
                for tool in ("memcheck", "racecheck")]


def document():
    path = ROOT / "examples" / "vector_add.cu"
    return CudaDocument(path.read_text(), "examples/vector_add.cu")


def run(evaluator, **kwargs):
    return optimize(document(), "vector_add", evaluator, [SyntheticPolicy()],
                    SearchBudget(candidates=30, seconds=60, sol_stop=1.0), SearchConfig(seed=1), **kwargs)


def test_accepted_result_with_diff_trajectory_and_fresh_seed_final_check(tmp_path):
    evaluator = SyntheticEvaluator()
    result = run(evaluator)
    assert result.accepted and result.speedup > 5
    assert evaluator.fresh_seeds == [5 + 7919]                  # the final check used inputs the search never saw
    assert evaluator.profiled >= 1                              # nodes were profiled to guide the search
    assert evaluator.unprepared == []                           # each was handed to compile ahead when proposed
    assert result.seconds.total >= result.seconds.proposing + result.seconds.profiling + result.seconds.measuring
    assert result.seconds.proposing > 0 and result.seconds.measuring > 0
    assert result.diff.startswith("--- a/examples/vector_add.cu") and "// edit" in result.diff
    assert result.trajectory and result.trajectory[-1].speedup > 5
    saved = tmp_path / "result.json"
    saved.write_text(result.model_dump_json())
    again = OptimizationResult.model_validate_json(saved.read_text())
    assert again.new_text == result.new_text and again.source_sha256 == result.source_sha256
    ceilings = DeviceCeilings(device=DEVICE, copy_gbps=3000, fp32_tflops=50, measured_at="now")
    page = html_report(result, ceilings)
    assert "<svg" in page and "<script" not in page and 'src="http' not in page and 'href="http' not in page
    assert "the contract counts no FLOPs" in page        # the synthetic contract has none: no roofline point
    # the synthetic policy's racy_shortcut edits fail verification: listed with their reason, and kept in the JSON
    assert result.rejections and again.rejections == result.rejections
    assert "<h2>Rejected candidates</h2>" in page and "racy_shortcut" in page and "relative L2 error" in page


def test_roofline_places_each_step_under_the_roofs():
    from optiml_engine.report import svg_roofline

    svg = svg_roofline(3000, 50_000, [("original", 0.25, 100.0), ("coalesce", 0.25, 600.0)])
    assert svg.count("<circle") == 2 and "coalesce: 600 GFLOP/s" in svg


def test_sanitizer_failure_means_nothing_is_offered():
    result = run(SyntheticEvaluator(sanitizer_ok=False))
    assert not result.accepted and result.diff == "" and "Invalid __global__ write" in result.notes[0]


def test_an_original_faster_than_its_floor_points_at_the_contracts_traffic():
    """A kernel that updates a slice of a large inout cache runs faster than the floor of its whole arrays: nothing
    is searched, and the note names the contract's line and the `bytes:` line that would state its traffic."""
    class FasterThanItsFloor(SyntheticEvaluator):
        def evaluate(self, candidate, reference=None, incumbent=None, fresh_seed=None):
            measured = super().evaluate(candidate, reference, incumbent, fresh_seed)
            return measured.model_copy(update={"verdict": "suspect_fast", "reason": "0.0303 ms is under 0.9x the "
                                               "speed-of-light floor 0.0729 ms"})

    result = run(FasterThanItsFloor())
    contract_line = next(number for number, line in enumerate(document().text.splitlines(), 1) if "@optiml" in line)
    assert not result.accepted and result.evaluated == 0
    assert result.notes[0].startswith(f"examples/vector_add.cu:{contract_line}:") and "`bytes:`" in result.notes[0]
    assert "0.0729 ms" in result.notes[0]


def test_cancelled_search_still_returns_its_best():
    stop = threading.Event()
    stop.set()
    result = run(SyntheticEvaluator(), stop=stop)
    assert result.stop_reason == "cancelled" and result.evaluated == 0 and not result.accepted
    assert result.final.timing.median_ms == ORIGINAL_MS


class NoisyFinalEvaluator(SyntheticEvaluator):
    """The search's candidates look faster, but timed interleaved with the original the best is within noise."""

    def evaluate(self, candidate, reference=None, incumbent=None, fresh_seed=None):
        measurement = super().evaluate(candidate, reference, incumbent, fresh_seed)
        if fresh_seed is not None and measurement.speedup is not None:
            measurement = measurement.model_copy(update={"speedup": SpeedupStats(
                median=1.004, ci_low=0.997, ci_high=1.011, pairs=40)})
        return measurement


def test_a_speedup_within_timing_noise_is_not_offered():
    result = run(NoisyFinalEvaluator())
    assert not result.accepted and result.diff == "" and result.new_text == ""
    assert result.notes == ["no significant improvement: the best candidate runs at 1.004x the original's speed "
                            "(95% interval 0.997-1.011, 40 interleaved pairs); a result is offered only when the "
                            "interval lies above 1.02"]
