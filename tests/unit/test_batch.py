"""`optiml optimize-all` (optiml_engine/batch.py) run for real: the CLI in its own process, Ray workers in theirs,
on the testing engine (CPU-only: the synthetic evaluator of the search tests) since CI has no GPU. A tree with
kernels with and without contracts; one result file per kernel and the HTML summary; a second run resumes (a kernel
whose source is unchanged is not searched again, a changed one is); a worker killed mid-search loses no finished
result and its kernel is searched by another; a local Ray cluster started on 127.0.0.1 runs the same batch; without
a GPU or the testing engine, one clear error."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTOR_ADD = (ROOT / "examples" / "vector_add.cu").read_text()
NO_CONTRACT = "__global__ void plain(float* x, int n) { int i = threadIdx.x; if (i < n) x[i] = 0.0f; }\n"
pytestmark = pytest.mark.skipif(shutil.which("ray", path=str(Path(sys.executable).parent)) is None,
                                reason="ray is not installed")


def tree(root: Path, kernels: list[str]) -> Path:
    """A tree of CUDA files: each kernel (vector_add renamed) in its own file, one in a subfolder, and a kernel
    without a contract."""
    for index, name in enumerate(kernels):
        folder = root / "src" / ("nested" if index % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.cu").write_text(VECTOR_ADD.replace("vector_add", name))
    (root / "src" / "plain.cu").write_text(NO_CONTRACT)
    return root / "src"


def optimize_all(cwd: Path, *arguments: str, engine: str | None = "tests.lsp.synthetic_engine:synthetic_engine",
                 extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "OPTIML_TEST_ENGINE"}
    env.update({"PYTHONPATH": str(ROOT), **(extra_env or {})})
    if engine:
        env["OPTIML_TEST_ENGINE"] = engine
    return subprocess.run([sys.executable, "-m", "optiml_engine.cli", "optimize-all", *arguments, "--budget", "8"],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def test_a_tree_is_searched_once_per_kernel_and_a_second_run_resumes(tmp_path):
    source = tree(tmp_path, ["alpha", "beta", "gamma"])
    run = optimize_all(tmp_path, str(source), "--out", "results", "--workers", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    out = tmp_path / "results"
    rows = summary(out)["kernels"]
    assert sorted(r["kernel"] for r in rows) == ["alpha", "beta", "gamma"]
    assert all(r["accepted"] and not r["resumed"] and (out / r["result_file"]).is_file() for r in rows)
    assert "plain.cu:1:17: error: kernel 'plain' has no @optiml contract" in run.stdout.replace("\n", "")
    assert "plain" in " ".join(summary(out)["skipped"])
    page = (out / "summary.html").read_text()
    assert page.count("<tr><td>") == 3 and "what was tried" in page and "coalesce" in page
    assert "3 of 3 kernels improved" in run.stdout

    (source / "nested" / "beta.cu").write_text(VECTOR_ADD.replace("vector_add", "beta") + "// changed\n")
    again = optimize_all(tmp_path, str(source), "--out", "results", "--workers", "2")
    assert again.returncode == 0, again.stdout + again.stderr
    resumed = {r["kernel"]: r["resumed"] for r in summary(out)["kernels"]}
    assert resumed == {"alpha": True, "gamma": True, "beta": False}


def test_a_worker_killed_mid_search_loses_nothing_and_its_kernel_runs_elsewhere(tmp_path):
    source = tree(tmp_path, ["first", "dies_once", "third", "fourth"])
    marker = tmp_path / "died"
    run = optimize_all(tmp_path, str(source), "--out", "results", "--workers", "2",
                       engine="tests.batch_engine:dying_engine", extra_env={"OPTIML_TEST_DEATH_MARKER": str(marker)})
    assert run.returncode == 0, run.stdout + run.stderr
    assert marker.is_file()                                   # a worker process did die mid-search
    rows = {r["kernel"]: r for r in summary(tmp_path / "results")["kernels"]}
    assert sorted(rows) == ["dies_once", "first", "fourth", "third"]
    assert all(r["accepted"] for r in rows.values())
    assert rows["dies_once"]["worker"].split(" pid ")[1] != marker.read_text()   # searched again by another process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_local_cluster_on_127_0_0_1_runs_the_batch(tmp_path):
    ray = str(Path(sys.executable).parent / "ray")
    port = free_port()
    sessions = tempfile.mkdtemp(prefix="ray-")      # short: Ray's socket paths must fit in 107 bytes
    # Ray 2.60 starts clusters with token authentication; a driver sends the token (~/.ray/auth_token) when
    # RAY_AUTH_MODE=token, as a user connecting to their own cluster does.
    env = {**os.environ, "PYTHONPATH": str(ROOT), "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "token"}
    # A fresh machine has no token until one is made (kept if there is one).
    subprocess.run([ray, "get-auth-token", "--generate"], env=env, capture_output=True, timeout=60, check=True)
    started = subprocess.run([ray, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
                              "--num-cpus", "2", "--num-gpus", "0", "--include-dashboard", "false",
                              "--temp-dir", sessions],
                             env=env, capture_output=True, text=True, timeout=120)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        source = tree(tmp_path, ["left", "right"])
        run = optimize_all(tmp_path, str(source), "--out", "results", "--cluster", f"127.0.0.1:{port}",
                           extra_env={"RAY_AUTH_MODE": "token"})
        assert run.returncode == 0, run.stdout + run.stderr
        rows = summary(tmp_path / "results")["kernels"]
        assert sorted(r["kernel"] for r in rows) == ["left", "right"]
        assert all(r["accepted"] and " pid " in r["worker"] for r in rows)
        # The cluster's own workers ran them (not a Ray the CLI started for itself): their processes' logs are in
        # the cluster's session folder.
        logs = " ".join(p.name for p in Path(sessions).glob("session_latest/logs/worker-*"))
        assert all(f"-{r['worker'].split(' pid ')[1].split()[0]}." in logs for r in rows), logs
    finally:
        subprocess.run([ray, "stop", "--force"], env=env, capture_output=True, timeout=120)
        shutil.rmtree(sessions, ignore_errors=True)


def test_without_a_gpu_the_batch_says_so(tmp_path):
    source = tree(tmp_path, ["lonely"])
    run = optimize_all(tmp_path, str(source), "--out", "results", engine=None)
    assert run.returncode == 2
    assert "has no GPU" in run.stdout + run.stderr and "ray start --num-gpus" in run.stdout + run.stderr
    assert not list((tmp_path / "results").glob("*.optiml.json"))


def test_a_search_that_fails_is_said_in_the_summary_and_the_others_finish(tmp_path):
    source = tree(tmp_path, ["steady", "exploding_kernel"])
    run = optimize_all(tmp_path, str(source), "--out", "results", "--workers", "2")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {r["kernel"]: r for r in summary(tmp_path / "results")["kernels"]}
    assert rows["steady"]["accepted"] and rows["exploding_kernel"]["verdict"] == "error"
    assert "fails on purpose" in rows["exploding_kernel"]["notes"][0] and rows["exploding_kernel"]["result_file"] == ""
    assert not list((tmp_path / "results").glob("*exploding_kernel*"))
    assert "fails on purpose" in (tmp_path / "results" / "summary.html").read_text()
