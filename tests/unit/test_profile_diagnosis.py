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
RECORDED = json.loads((ROOT / "bench/results/evaluator-h100.json").read_text())["examples"]
EXAMPLES = sorted(r["kernel"] for r in RECORDED)     # the examples then, in the order the bench launched them
BYTES = {r["kernel"]: r["bytes"] for r in RECORDED}


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
    command = profile.ncu_command("ncu", ["_Z1kPf", "_Z1kPf", "_Z5otherv"], tmp_path / "log", tmp_path)
    assert command[command.index("--clock-control") + 1] == "none"
    assert command[command.index("--kernel-name") + 1] == "regex:^(_Z1kPf|_Z5otherv)$"


def test_missing_ncu_is_reported_not_raised(monkeypatch):
    monkeypatch.setattr(profile, "ncu_binary", lambda: None)
    run = profile.profile_kernels([], profile.on_device(0))
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

    def refused(targets, hold):
        calls.append(len(targets))
        return profile.ProfileRun(profiles=[], counters_available=False, note="counters refused (ERR_NVGPUCTRPERM)")

    monkeypatch.setattr(evaluate, "profile_kernels", refused)
    evaluator = evaluate.Evaluator.__new__(evaluate.Evaluator)       # no GPU pool: only profile() is exercised
    evaluator.cache, evaluator.profiler_unavailable, evaluator.pool = None, None, None
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


# A stand-in for ncu where there is none (CI has no GPU): it plays the target's side of the handshake as the real one
# does (start-up, READY, wait for GO, launches, DONE), then writes the recorded CSV as ncu does after the target
# exits: the recorded run's first launch.
STAND_IN = '''import sys, time, pathlib
args = sys.argv[1:]
folder, log = pathlib.Path(args[-1]), pathlib.Path(args[args.index("--log-file") + 1])
mode = (folder.parent / "mode").read_text()
def say(name, text=""):
    (folder / (name + ".part")).write_text(text)
    (folder / (name + ".part")).rename(folder / name)
time.sleep(0.3)                                   # ncu's and Python's start-up
if mode == "dies":
    sys.exit(3)
say("ready")
while not (folder / "go").exists():
    time.sleep(0.005)
(folder.parent / "device").write_text((folder / "go").read_text())
time.sleep(0.2 if mode != "hangs" else 60)        # the launches
say("done")
time.sleep(0.3)                                   # ncu writes its report after the target exits
log.write_text((folder.parent / "csv").read_text())
'''


def stand_in_profile(tmp_path, monkeypatch, mode, timeout_s=30.0):
    import stat
    import sys
    import time
    import types

    ncu = tmp_path / "ncu"
    ncu.write_text(f"#!{sys.executable}\n" + STAND_IN)
    ncu.chmod(ncu.stat().st_mode | stat.S_IEXEC)
    header, units, first = [line for line in CSV.splitlines() if line.startswith('"')][:3]
    (tmp_path / "csv").write_text("\n".join([header, units, first]))
    (tmp_path / "mode").write_text(mode)
    monkeypatch.setattr(profile, "ncu_binary", lambda: str(ncu))
    monkeypatch.setattr(profile.tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(profile, "tool_version", lambda *_: "stand-in")
    holds = []

    def hold(work):
        began = time.perf_counter()
        work(1)
        holds.append(time.perf_counter() - began)

    target = profile.ProfileTarget.model_construct(kernel=types.SimpleNamespace(lowered_name="_Z1kPf"), binding={})
    run = profile.profile_kernels([target], hold, timeout_s=timeout_s)
    return run, holds


def test_the_gpu_is_held_only_while_the_target_launches(tmp_path, monkeypatch):
    run, holds = stand_in_profile(tmp_path, monkeypatch, "launches")
    assert run.counters_available and len(run.profiles) == 1, run.note
    assert (tmp_path / "device").read_text() == "1"          # the target was told the GPU it was given
    assert len(holds) == 1 and 0.2 <= holds[0] < 0.5 and run.held_seconds == pytest.approx(holds[0], abs=0.01)
    assert run.seconds >= 0.8                                  # start-up and report writing were not held


def test_a_target_that_dies_starting_never_takes_a_gpu(tmp_path, monkeypatch):
    run, holds = stand_in_profile(tmp_path, monkeypatch, "dies")
    assert holds == [] and not run.counters_available and "exit code 3" in run.note


def test_a_target_that_hangs_is_killed_at_the_time_limit_and_frees_its_gpu(tmp_path, monkeypatch):
    run, holds = stand_in_profile(tmp_path, monkeypatch, "hangs", timeout_s=1.5)
    assert "timed out" in run.note and len(holds) == 1 and holds[0] < 1.5
