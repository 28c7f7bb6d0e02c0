"""The `optiml` command line, run as a user runs it (a real process), on the examples and on bad input: every
error is one located line on stderr with a non-zero exit code, never a traceback."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))
LOCATED = re.compile(r"^[^:\n]+:\d+:\d+: error: .+")


def optiml(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "optiml_engine.cli", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def assert_located_error(run: subprocess.CompletedProcess, fragment: str, code: int = 1) -> str:
    assert run.returncode == code, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines and all(LOCATED.match(line) for line in lines), run.stderr
    assert fragment in run.stderr, run.stderr
    return lines[0]


def test_kernels_lists_every_example_with_a_valid_contract():
    run = optiml("kernels", "examples/")
    assert run.returncode == 0, run.stderr
    for path in EXAMPLES:
        assert path.stem in run.stdout
    assert run.stdout.count(" ok ") == len(EXAMPLES)


def test_kernels_prints_an_inferred_contract_that_the_parser_accepts(tmp_path):
    source = tmp_path / "scale.cu"
    source.write_text("__global__ void scale(const float* x, float* y, float a, int n) {\n"
                      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i];\n}\n"
                      "void run(const float* x, float* y, int n) { scale<<<(n + 255) / 256, 256>>>(x, y, 2.f, n); }\n")
    run = optiml("kernels", str(source), "--contract")
    assert run.returncode == 0, run.stderr
    assert "@optiml" in run.stdout and "launch: grid=cdiv(n,256) block=256" in run.stdout.replace(" ,", ",")
    source.write_text(run.stdout + source.read_text())
    assert optiml("kernels", str(source)).returncode == 0


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_compile_reports_resources_of_every_example(path):
    run = optiml("compile", str(path.relative_to(ROOT)))
    assert run.returncode == 0, run.stderr
    assert "registers" in run.stdout and path.stem in run.stdout


def test_nvcc_backend_agrees_on_registers():
    numbers = []
    for backend in ("nvrtc", "nvcc"):
        run = optiml("compile", "examples/sgemm_nt.cu", "--backend", backend)
        assert run.returncode == 0, run.stderr
        numbers.append(re.findall(r"│\s+(\d+) │", run.stdout)[0])
    assert numbers[0] == numbers[1]


def test_not_cuda(tmp_path):
    script = tmp_path / "tool.py"
    script.write_text("import os\nprint(os.getcwd())\n")
    assert_located_error(optiml("kernels", str(script)), "no __global__ kernel found")


def test_broken_syntax_is_located(tmp_path):
    source = tmp_path / "broken.cu"
    source.write_text("__global__ void k(float* x, int n) {\n  int i = threadIdx.x\n  if (i < n) x[i] = 0.f;\n}\n"
                      "__global__ void fine(float* y) { y[0] = 1.f; }\n")
    first = assert_located_error(optiml("compile", str(source), "--kernel", "fine"), "broken.cu:")
    assert ":2:" in first or ":3:" in first


def test_contract_typo_is_located_with_a_suggestion(tmp_path):
    text = (ROOT / "examples" / "vector_add.cu").read_text().replace("sizes:", "sizez:")
    source = tmp_path / "vector_add.cu"
    source.write_text(text)
    line = assert_located_error(optiml("kernels", str(source)), "did you mean 'sizes'")
    assert line.startswith(f"{source}:{text.splitlines().index(next(l for l in text.splitlines() if 'sizez' in l)) + 1}:")


def test_unknown_element_type_is_located(tmp_path):
    text = (ROOT / "examples" / "vector_add.cu").read_text().replace("in  float[n]", "in  flaot[n]", 1)
    source = tmp_path / "vector_add.cu"
    source.write_text(text)
    assert_located_error(optiml("kernels", str(source)), "flaot")


def test_kernel_without_contract(tmp_path):
    source = tmp_path / "bare.cu"
    source.write_text("__global__ void bare(float* x) { x[threadIdx.x] = 0.f; }\n")
    assert_located_error(optiml("kernels", str(source)), "has no @optiml contract")
    assert_located_error(optiml("check", str(source)), "has no @optiml contract")


def test_compile_error_maps_to_the_users_line(tmp_path):
    source = tmp_path / "typo.cu"
    source.write_text("// a kernel with a typo\n\n__global__ void typo(float* x) {\n  x[threadIdx.x] = undefined_name;\n}\n")
    line = assert_located_error(optiml("compile", str(source)), "undefined_name")
    assert line.startswith(f"{source}:4:")


def test_missing_file_and_unknown_kernel():
    assert_located_error(optiml("compile", "examples/vector_add.cu", "--kernel", "nope"), "no kernel named 'nope'")
    run = optiml("compile", "examples/no_such_file.cu")
    assert run.returncode == 1 and "cannot read file" in run.stderr and "Traceback" not in run.stderr


def test_gpu_commands_without_a_gpu_exit_2():
    pytest.importorskip("cupy")
    from tests.gpu.conftest import gpu_available

    if gpu_available():
        pytest.skip("this machine has a GPU")
    for command in ("check", "profile"):
        run = optiml(command, "examples/vector_add.cu")
        assert run.returncode == 2 and "no CUDA device available" in run.stderr and "Traceback" not in run.stderr
    # optimize does what it can without one: the dry run, saying so.
    run = optiml("optimize", "examples/vector_add.cu")
    assert run.returncode == 0 and "Dry run of optimize on vector_add" in run.stdout
    assert "examples/vector_add.cu: no GPU here (no CUDA device available" in run.stdout


def test_optimize_dry_run_shows_the_program_the_findings_and_compiled_first_candidates():
    run = optiml("optimize", "examples/row_max.cu", "--dry-run")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "Dry run of optimize on row_max" in out
    assert "examples/row_max.cu: --dry-run. Nothing below is verified or timed." in out
    assert "Loop-nest program" in out and "parallel for row in [0, rows):" in out
    # each finding at its file:line, the markdown of its message rendered (`__restrict__` not read as bold)
    assert "examples/row_max.cu:19: warp_per_row [uncoalesced_loads]" in out
    assert "pointer parameters are not __restrict__" in out
    rows = [line.split() for line in out.splitlines() if "schedule_" in line]   # "#  rule  cures  compiles  ..."
    assert rows and all(row[3] == "yes" and row[4].isdigit() for row in rows)    # compiled, with its registers


def test_optimize_with_llm_but_no_endpoint_is_a_clear_error(monkeypatch):
    for name in ("OPTIML_LLM_MODEL", "OPTIML_LLM_BASE_URL", "OPTIML_LLM_API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    run = optiml("optimize", "examples/vector_add.cu", "--llm")
    assert run.returncode == 1 and "none is configured" in run.stderr and "Traceback" not in run.stderr
