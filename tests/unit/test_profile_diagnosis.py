"""The profiler's readers and the diagnosis, on Nsight Compute output recorded on an H100
(bench/profile_bench.py: the 13 examples profiled in one ncu process, raw CSV page)."""

import json
from pathlib import Path

import pytest

from optiml_engine.diagnosis import diagnose, stall_shares, timing_only
from optiml_engine.gpu import profile
from optiml_engine.model import SolReport

ROOT = Path(__file__).resolve().parents[2]
CSV = (ROOT / "tests" / "fixtures" / "ncu" / "examples-h100.csv").read_text()
EXAMPLES = sorted(p.stem for p in (ROOT / "examples").glob("*.cu"))     # the order the bench launched them
BYTES = {r["kernel"]: r["bytes"] for r in json.loads((ROOT / "bench/results/evaluator-h100.json").read_text())["examples"]}


@pytest.fixture(scope="module")
def profiles():
    rows = profile.read_csv(CSV)
    return {name: row for name, row in zip(EXAMPLES, rows)}


def diagnosis_of(profiles, name):
    return diagnose(profiles[name].metrics, BYTES[name], sm_count=132)


def test_csv_has_one_row_per_launch_with_every_metric(profiles):
    assert len(profiles) == 13
    for name, row in profiles.items():
        assert row.kernel.startswith(name + "(")
        missing = set(profile.METRICS) - set(row.metrics)
        assert not missing, (name, missing)
    assert profiles["vector_add"].metrics["block_size"] == 256


def test_streaming_kernels_are_memory_bound(profiles):
    for name in ("vector_add", "relu_scale", "maxpool2x2"):
        diagnosis = diagnosis_of(profiles, name)
        assert diagnosis.bound == "memory", (name, diagnosis.headline)
        assert "% of peak" in diagnosis.headline
        assert not any(f.kind.startswith("uncoalesced") for f in diagnosis.findings)


def test_thread_per_row_reads_are_uncoalesced_and_refetched(profiles):
    diagnosis = diagnosis_of(profiles, "layernorm_rows")
    kinds = {f.kind for f in diagnosis.findings}
    assert {"uncoalesced_loads", "uncoalesced_stores", "excess_dram", "small_grid"} <= kinds
    assert "32.0 sectors per request" in diagnosis.explanation
    assert diagnosis.bound == "occupancy"


def test_thread_per_column_grid_is_too_small(profiles):
    diagnosis = diagnosis_of(profiles, "col_sum")
    assert diagnosis.bound == "occupancy"
    small = next(f for f in diagnosis.findings if f.kind == "small_grid")
    assert "16 blocks of 128 threads on 132 SMs" in small.message


def test_atomic_kernels_are_named_for_their_atomics(profiles):
    for name in ("dot_atomic", "histogram64"):
        diagnosis = diagnosis_of(profiles, name)
        assert diagnosis.bound == "latency"
        assert any(f.kind == "atomics" for f in diagnosis.findings), name
    assert diagnosis_of(profiles, "dot_atomic").top_stalls[0][0] == "drain"


def test_naive_gemm_waits_on_its_load_queue(profiles):
    diagnosis = diagnosis_of(profiles, "sgemm_nt")
    assert diagnosis.top_stalls[0][0] == "lg_throttle"
    assert "load/store queue is full" in diagnosis.headline


def test_stall_shares_are_percentages_without_issuing_cycles():
    shares = stall_shares({"stall_long_scoreboard": 3.0, "stall_wait": 1.0, "stall_selected": 5.0,
                           "stall_barrier": 0.001})
    assert [name for name, _ in shares] == ["long_scoreboard", "wait"]
    assert [share for _, share in shares] == pytest.approx([75.0, 25.0], abs=0.05)


def test_short_kernel_is_launch_bound():
    diagnosis = diagnose({"duration_ns": 2500, "dram_pct": 5, "l2_pct": 5, "sm_pct": 5})
    assert diagnosis.bound == "launch" and "2.5 µs" in diagnosis.headline


def test_no_counters_gives_a_timing_only_diagnosis():
    sol = SolReport(bytes=10**9, flops=0, floor_ms=0.33, bound="memory", headroom=3.0, percent_of_sol=33.3,
                    achieved_gbps=1000, achieved_gflops=0, suspect=False)
    diagnosis = timing_only(sol, "this machine refuses access to the GPU performance counters")
    assert diagnosis.bound == "unknown" and "33% of the speed-of-light floor" in diagnosis.headline
    assert diagnosis.explanation.startswith("this machine refuses")


def test_ncu_command_never_touches_clocks_and_filters_our_kernels(tmp_path):
    command = profile.ncu_command("ncu", ["_Z1kPf", "_Z1kPf", "_Z5otherv"], tmp_path / "log", tmp_path / "t", 0)
    assert command[command.index("--clock-control") + 1] == "none"
    assert command[command.index("--kernel-name") + 1] == "regex:^(_Z1kPf|_Z5otherv)$"


def test_missing_ncu_is_reported_not_raised(monkeypatch):
    monkeypatch.setattr(profile, "ncu_binary", lambda: None)
    run = profile.profile_kernels([], 0)
    assert not run.counters_available and "not found" in run.note


def test_permission_refusal_is_recognized():
    assert profile.PERMISSION.search("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
                                     "NVIDIA GPU Performance Counters on the target device 0.")


def test_an_evaluator_asks_ncu_once_when_the_counters_are_refused(monkeypatch):
    """The refusal is said once: later profiles of the same evaluator use the timing-only diagnosis directly."""
    from optiml_engine import evaluate
    from optiml_engine.candidate import original_candidate
    from optiml_engine.model import Measurement
    from optiml_engine.source.parse import CudaDocument

    calls = []

    def refused(targets, device_index):
        calls.append(len(targets))
        return profile.ProfileRun(profiles=[], counters_available=False, note="counters refused (ERR_NVGPUCTRPERM)")

    monkeypatch.setattr(evaluate, "profile_kernels", refused)
    from concurrent.futures import Future

    class InlinePool:
        """The pool's one duty here: hand profile work a device (index 0) it holds."""

        def exclusively(self, work):
            done = Future()
            done.set_result(work(0))
            return done

    evaluator = evaluate.Evaluator.__new__(evaluate.Evaluator)       # no GPU pool: only profile() is exercised
    evaluator.cache, evaluator.profiler_unavailable, evaluator.pool = None, None, InlinePool()
    evaluator.device = type("Device", (), {"index": 0, "sm_count": 132, "arch": lambda self: "sm_90",
                                           "model_dump_json": lambda self, **_: "{}"})()
    evaluator.arch = "sm_90"
    path = ROOT / "examples" / "vector_add.cu"
    candidate = original_candidate(CudaDocument(path.read_text(), str(path)), "vector_add")
    measurement = Measurement(kernel="vector_add", candidate_key="k", description="", verdict="ok")
    first = evaluator.profile([(candidate, measurement)])
    second = evaluator.profile([(candidate, measurement)])
    assert calls == [1]
    assert first[0].metrics is None and "refused" in first[0].note and "refused" in second[0].note
