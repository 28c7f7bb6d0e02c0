"""Lifting kernels into loop-nest programs (optiml_engine/ir/lift.py), the program's text and its NumPy interpreter
against formulas written here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from optiml_engine.candidate import original_candidate
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import Const, For, If, LoopProgram, NotLiftable
from optiml_engine.ir.schedule import defaults, shape_of
from optiml_engine.model import Candidate
from optiml_engine.source.contract import resolve
from optiml_engine.source.parse import CudaDocument

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.cu"))


def candidate_of(path: Path | str, text: str | None = None, kernel: str | None = None) -> Candidate:
    text = text if text is not None else Path(path).read_text()
    document = CudaDocument(text, str(path))
    return original_candidate(document, kernel or document.model.kernels[0].name)


def run_at(candidate: Candidate, program: LoopProgram, binding: dict[str, int], seed: int = 1):
    resolved = resolve(candidate.contract, binding)
    inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed)
    return inputs, run_program(program, resolved, candidate.contract.arrays, inputs)


def assert_equals_kernel(naive, program, emitted=(), rtol: float = 0.0) -> None:
    """The program (and each emitted candidate) equals the user's kernel `y` on the CPU at every check size: bit
    for bit, or within `rtol` where a helper's math may round differently through the interpreter."""
    for binding in naive.contract.checks:
        resolved = resolve(naive.contract, binding)
        inputs = make_inputs(np, naive.contract.arrays, resolved.lengths, seed=3)
        expected = run_on_cpu(naive, binding, inputs)["y"]
        got = run_program(program, resolved, naive.contract.arrays, inputs)["y"]
        assert np.allclose(got, expected, rtol=rtol, atol=0) if rtol else np.array_equal(got, expected)
        for candidate in emitted:
            assert np.array_equal(run_on_cpu(candidate, binding, inputs)["y"], expected), candidate.description


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_lifts(path: Path) -> None:
    program = lift(candidate_of(path))
    assert isinstance(program, LoopProgram), str(program)
    assert program.space and all(index.upper is not None for index in program.space)


def test_program_text_names_the_space_and_the_loops() -> None:
    program = lift(candidate_of(ROOT / "examples/layernorm_rows.cu"))
    text = str(program)
    assert text.splitlines()[1] == "parallel for row in [0, rows):"
    assert "for (int c = 0; c < cols; ++c) {" in text
    assert "y[row * cols + c] = (x[row * cols + c] - mean) * inv;" in text
    assert "threadIdx" not in text and "if (row < rows)" not in text


def test_interpreter_computes_layernorm() -> None:
    candidate = candidate_of(ROOT / "examples/layernorm_rows.cu")
    inputs, outputs = run_at(candidate, lift(candidate), {"rows": 37, "cols": 1000})
    x = inputs["x"].astype(np.float64).reshape(37, 1000)
    expected = (x - x.mean(1, keepdims=True)) / np.sqrt(x.var(1, keepdims=True) + 1e-5)
    assert np.allclose(outputs["y"].reshape(37, 1000), expected, atol=1e-4)


def test_interpreter_computes_transposed_add_and_clamped_blur() -> None:
    candidate = candidate_of(ROOT / "examples/add_transposed.cu")
    inputs, outputs = run_at(candidate, lift(candidate), {"rows": 17, "cols": 33})
    expected = inputs["A"].reshape(17, 33) + inputs["B"].reshape(33, 17).T
    assert np.array_equal(outputs["out"].reshape(17, 33), expected)
    blur = candidate_of(ROOT / "examples/blur3x3.cu")
    inputs, outputs = run_at(blur, lift(blur), {"rows": 5, "cols": 7})
    image = np.pad(inputs["img"].reshape(5, 7).astype(np.float64), 1, mode="edge")
    expected = sum(image[1 + dr:6 + dr, 1 + dc:8 + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)) / 9
    assert np.allclose(outputs["out"].reshape(5, 7), expected, atol=1e-6)


def test_interpreter_runs_atomics_and_integer_keys() -> None:
    candidate = candidate_of(ROOT / "examples/histogram64.cu")
    inputs, outputs = run_at(candidate, lift(candidate), {"n": 1000})
    assert np.array_equal(outputs["bins"], np.bincount(inputs["keys"], minlength=64).astype(np.uint32))


KERNEL_WITH = """
/* @optiml
   sizes: n=1024
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void k(const float* x, float* y, int n)
{{
{body}
}}
"""


@pytest.mark.parametrize("body, line, reason", [
    ("    __shared__ float tile[256];\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    if (i < n) { tile[threadIdx.x] = x[i]; y[i] = tile[threadIdx.x]; }", 10, "shared memory"),
    ("    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
     "    float v = x[i];\n    while (v > 1.0f) v -= 1.0f;\n    y[i] = v;", 13, "while loop"),
    ("    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) {\n        y[i] = x[i];\n"
     "        __syncthreads();\n    }", 13, "barrier"),
    ("    int i = threadIdx.x;\n    if (i < n) y[i] = x[i];", 10, "threadIdx.x alone, but the launch runs 4 blocks"),
])
def test_refusals_name_the_line_and_the_reason(body: str, line: int, reason: str) -> None:
    result = lift(candidate_of("user.cu", KERNEL_WITH.format(body=body)))
    assert isinstance(result, NotLiftable)
    assert result.location.file == "user.cu" and result.location.line == line, str(result)
    assert reason in result.reason


def test_a_launch_smaller_than_the_guard_is_refused() -> None:
    text = KERNEL_WITH.format(body="    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = x[i];")
    result = lift(candidate_of("user.cu", text.replace("grid=cdiv(n,256)", "grid=cdiv(n,512)")))
    assert isinstance(result, NotLiftable) and "fewer than the guard's bound" in result.reason


def test_user_spellings_lift_to_the_same_program() -> None:
    """Aliases, casts, early returns, grid-stride loops, #define constants and locals naming the builtins are taken
    apart the same way."""
    spellings = [
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n) { y[i] = 2.0f * x[i]; }",
        "    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
        "    const float* src = x + i;\n    float* dst = y;\n    dst[i] = TWO * src[0];",
        "    for (int i = threadIdx.x + blockDim.x * blockIdx.x; i < n; i += gridDim.x * blockDim.x) {\n"
        "        *(y + i) = 2.0f * x[i];\n    }",
        # NVIDIA's own grid-stride loop: the start and the step in locals.
        "    int index = blockIdx.x * blockDim.x + threadIdx.x;\n    int stride = blockDim.x * gridDim.x;\n"
        "    for (int i = index; i < n; i += stride)\n        y[i] = TWO * x[i];",
        # The builtins named by locals first.
        "    const int tid = threadIdx.x;\n    const int bid = blockIdx.x;\n    int i = bid * blockDim.x + tid;\n"
        "    if (i < n) y[i] = 2.0f * x[i];",
        "    const unsigned threads = blockDim.x;\n    int i = blockIdx.x * threads + threadIdx.x;\n"
        "    if (i < n) y[i] = 2.0f * x[i];",
        # The CUDA samples' 24-bit multiply; the return guard written as the negated test.
        "    int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;\n    if (!(i < n)) return;\n"
        "    y[i] = 2.0f * x[i];",
    ]
    for body in spellings:
        text = "#define TWO 2.0f\n" + KERNEL_WITH.format(body=body)
        candidate = candidate_of("user.cu", text)
        program = lift(candidate)
        assert isinstance(program, LoopProgram), str(program)
        inputs, outputs = run_at(candidate, program, {"n": 1000})
        assert np.array_equal(outputs["y"], (2 * inputs["x"]).astype(np.float32))


def test_device_helpers_are_inlined() -> None:
    text = ("__device__ __forceinline__ float gelu(float v)\n{\n    const float c = 0.7978845608f;\n"
            "    return 0.5f * v * (1.0f + tanhf(c * (v + 0.044715f * v * v * v)));\n}\n"
            + KERNEL_WITH.format(body="    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                      "    if (i < n) y[i] = gelu(x[i]);"))
    candidate = candidate_of("user.cu", text)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    inputs, outputs = run_at(candidate, program, {"n": 1000})
    v = inputs["x"].astype(np.float64)
    expected = 0.5 * v * (1 + np.tanh(0.7978845608 * (v + 0.044715 * v ** 3)))
    assert np.allclose(outputs["y"], expected, atol=1e-6)


def test_a_floats_classification_is_an_int_the_interpreter_computes() -> None:
    """`isinf`, `isnan`, `isfinite` and `signbit` of a float are ints (1 or 0), on infinities and NaNs the
    kernel makes itself, as the GPU's math library computes them."""
    text = KERNEL_WITH.format(body="    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
                                   "    float v = x[i] > 0.5f ? x[i] / 0.0f : x[i] < -0.5f ? x[i] * 0.0f / 0.0f : x[i];\n"
                                   "    y[i] = isinf(v) + 2 * isnan(v) + 4 * isfinite(v) + 8 * signbit(v);")
    candidate = candidate_of("user.cu", text)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    inputs, outputs = run_at(candidate, program, {"n": 1024})
    expected = run_on_cpu(candidate, {"n": 1024}, inputs)["y"]
    assert np.array_equal(outputs["y"], expected) and len(set(expected.tolist())) >= 3, (outputs["y"], expected)


FLAT_TRANSPOSE = """
/* @optiml
   sizes: rows=512 cols=256
   check: rows=37 cols=33; rows=1 cols=3
   x: in float[rows*cols]
   y: out float[cols*rows]
   launch: grid=cdiv(rows*cols,256) block=256
*/
__global__ void flat_transpose(const float* x, float* y, int rows, int cols)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows * cols) return;
    int r = idx / cols;
    int c = idx % cols;
    y[c * rows + r] = x[idx];
}
"""


def test_a_flat_index_is_taken_apart_into_the_digits_it_uses() -> None:
    from optiml_engine.ir.schedule import shape_of
    from optiml_engine.ir.delinearize import delinearized
    candidate = candidate_of("user.cu", FLAT_TRANSPOSE)
    flat = lift(candidate)
    assert isinstance(flat, LoopProgram), str(flat)
    assert str(flat).splitlines()[1] == "parallel for idx in [0, rows * cols):"
    program = delinearized(flat)
    assert str(program).splitlines()[1] == "parallel for r in [0, rows), c in [0, cols):"
    assert "stage" in shape_of(program).families       # the strided write shows once the digits are indices
    inputs, outputs = run_at(candidate, program, {"rows": 37, "cols": 33})
    assert np.array_equal(outputs["y"].reshape(33, 37), inputs["x"].reshape(37, 33).T)


def test_a_digit_named_by_a_local_the_code_changes_keeps_the_local() -> None:
    """`int64_t t = idx / cols; ... t /= 2;`-style code walks a local on from a digit: the digit becomes an index of
    its own name and the local a copy of it the code may change (a parallel index is never assigned)."""
    from optiml_engine.ir.delinearize import delinearized
    text = FLAT_TRANSPOSE.replace("int r = idx / cols;", "int r = idx / cols;\n    r += 0;")
    program = delinearized(lift(candidate_of("user.cu", text)))
    assert str(program).splitlines()[1] == "parallel for idx_1 in [0, rows), c in [0, cols):"
    assert "int r = idx_1;" in str(program)
    inputs, outputs = run_at(candidate_of("user.cu", text), program, {"rows": 37, "cols": 33})
    assert np.array_equal(outputs["y"].reshape(33, 37), inputs["x"].reshape(37, 33).T)


def test_digits_that_do_not_tile_the_extent_keep_the_flat_index() -> None:
    # idx / (2 * cols) above idx % cols: the digit between them (idx / cols % 2) would leave rows / 2 for the last.
    text = FLAT_TRANSPOSE.replace("int r = idx / cols;", "int r = idx / (2 * cols);")
    from optiml_engine.ir.delinearize import delinearized
    program = delinearized(lift(candidate_of("user.cu", text)))
    assert isinstance(program, LoopProgram) and [i.name for i in program.space] == ["idx"]


PER_CHANNEL = """
/* @optiml
   sizes: N=4 C=8 HW=1024
   check: N=2 C=3 HW=5; N=1 C=1 HW=1; N=3 C=4 HW=33
   x: in float[N*C*HW]
   bias: in float[C]
   y: out float[N*C*HW]
   launch: grid=cdiv(N*C*HW,256) block=256
*/
__global__ void per_channel(const float* x, const float* bias, float* y, int N, int C, int HW)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (size_t)N * C * HW) return;
    BODY
}
"""


@pytest.mark.parametrize("body, space", [
    # The channel read, the position in the plane below it and the batch above it implied.
    ("int c = i / HW % C;\n    y[i] = x[i] + bias[c];", ["i_2", "c", "i_0"]),
    # The last digit read, the one below it as `i - q * (C * HW)`: the rest of i.
    ("size_t q = i / ((size_t)C * HW);\n    size_t rest = i - q * C * HW;\n    y[q * C * HW + rest] = x[i] + bias[0];",
     ["q", "i_0"]),
    # The plane's index read whole beside its channel: n * C + c.
    ("int c = i / HW % C;\n    size_t nc = i / HW;\n    y[i] = x[nc * HW + i % HW] + bias[c] * nc;", ["i_2", "c", "i_0"]),
])
def test_digits_the_code_does_not_read_are_implied(body, space) -> None:
    assert_digits_equal_the_kernel(PER_CHANNEL.replace("BODY", body), space, ({"N": 2, "C": 3, "HW": 5},
                                                                            {"N": 3, "C": 4, "HW": 33}))


NCHW = """
/* @optiml
   sizes: N=4 C=8 H=32 W=32
   check: N=2 C=3 H=5 W=7; N=1 C=1 H=1 W=1; N=3 C=2 H=4 W=33
   x: in float[N*C*H*W]
   bias: in float[C]
   y: out float[N*C*H*W]
   launch: grid=cdiv(N*C*H*W,256) block=256
*/
__global__ void per_pixel(const float* x, const float* bias, float* y, int N, int C, int H, int W)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)N * C * H * W) return;
    BODY
}
"""


@pytest.mark.parametrize("body, space", [
    # A local walking the quotients (`t /= W`) reads the digits as `i / W % H` would; four digits, the two above
    # the second one index whose own digits the code reads.
    ("long t = i; int w = t % W; t /= W; int h = t % H; t /= H; int c = t % C; long n = t / C;\n"
     "    y[i] = x[((n * C + c) * H + h) * W + w] + bias[c] * h;", ["i_rest", "h", "w"]),
    ("int w = i % W; int h = i / W % H; int c = i / W / H % C; int n = i / ((long)W * H * C);\n"
     "    y[((n * C + c) * H + h) * W + w] = x[i] - bias[c] * n;", ["i_rest", "h", "w"]),
    # A plane's index read whole beside its channel (`nc = i / (W * H)`, n * C + c: the digits above H * W as one
    # number) and beside the plane's own digits.
    ("int w = i % W; int h = i / W % H; int c = i / ((long)W * H) % C; long nc = i / ((long)W * H);\n"
     "    y[i] = x[(nc * H + h) * W + w] + bias[c] * nc;", ["i_rest", "h", "w"]),
])
def test_four_digits_and_walking_quotients_are_taken_apart(body, space) -> None:
    """The digits the kernel keeps in `int`s are `int` indices (32-bit quotients), the rest of the flat `long`."""
    program = assert_digits_equal_the_kernel(NCHW.replace("BODY", body), space, ({"N": 2, "C": 3, "H": 5, "W": 7},
                                                                               {"N": 3, "C": 2, "H": 4, "W": 33}))
    assert [index.ctype for index in program.space] == ["long", "int", "int"]


POOL_SIZED_IN_KERNEL = """
/* @optiml
   sizes: P=8 H=64 W=64
   check: P=2 H=5 W=7; P=1 H=3 W=3; P=3 H=8 W=33
   x: in float[P*H*W]
   y: out float[P*((H-3)//2+1)*((W-3)//2+1)]
   launch: grid=cdiv(P*((H-3)//2+1)*((W-3)//2+1),128) block=128
*/
__global__ void pool3s2(const float* x, float* y, int P, int H, int W)
{
    const int OH = (H - 3) / 2 + 1;
    const int OW = (W - 3) / 2 + 1;
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= (long)P * OH * OW) return;
    int ow = i % OW;
    int oh = i / OW % OH;
    long p = i / ((long)OW * OH);
    float m = x[(p * H + 2 * oh) * W + 2 * ow];
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            m = fmaxf(m, x[(p * H + 2 * oh + dy) * W + 2 * ow + dx]);
    y[i] = m;
}
"""


def test_output_sizes_computed_in_the_kernel_are_digits_extents() -> None:
    """`OW = (W - 3) / 2 + 1` is no product of sizes, but the same size wherever it is read: the digits tile
    P * OH * OW all the same."""
    assert_digits_equal_the_kernel(POOL_SIZED_IN_KERNEL, ["p", "oh", "ow"], ({"P": 2, "H": 5, "W": 7},
                                                                            {"P": 3, "H": 8, "W": 33}))


def assert_digits_equal_the_kernel(text: str, space: list[str], bindings: tuple[dict, ...]) -> LoopProgram:
    """The flat index taken apart into the digits `space` names, the program and each of its map schedules equal to
    the kernel at `bindings`."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.gpu.emulate import run_on_cpu
    from optiml_engine.ir.emit import emit
    from optiml_engine.ir.schedule import defaults, shape_of
    candidate = candidate_of("user.cu", text)
    program = delinearized(lift(candidate))
    assert isinstance(program, LoopProgram) and [i.name for i in program.space] == space, str(program)
    shape = shape_of(program)
    for binding in bindings:
        inputs, expected = run_at(candidate, program, binding)
        assert np.array_equal(run_on_cpu(candidate, binding, inputs)["y"], expected["y"])
        for schedule in defaults(shape, "map"):
            assert np.array_equal(run_on_cpu(emit(program, shape, schedule, candidate), binding, inputs)["y"],
                                  expected["y"]), schedule.describe()
    return program


LITERAL_BLOCK = """
/* @optiml
   sizes: rows=64 cols=48
   check: rows=3 cols=5; rows=17 cols=33
   x: in float[rows*cols]
   y: out float[cols*rows]
   launch: grid=(cdiv(cols,16),cdiv(rows,16)) block=(16,16)
*/
__global__ void literal_block(const float* x, float* y, int rows, int cols)
{
    int c = blockIdx.x * 16 + threadIdx.x;
    int r = 16 * blockIdx.y + threadIdx.y;
    if (r < rows && c < cols) y[c * rows + r] = x[r * cols + c];
}
"""


def test_a_block_size_written_as_a_number_is_the_launchs_block():
    """`blockIdx.x * 16 + threadIdx.x` is the global index when the contract launches 16 threads along x; with
    another block size it is not, and the kernel is refused, located."""
    program = lift(candidate_of("user.cu", LITERAL_BLOCK))
    assert isinstance(program, LoopProgram), str(program)
    assert [index.name for index in program.space] == ["r", "c"]
    other = lift(candidate_of("user.cu", LITERAL_BLOCK.replace("block=(16,16)", "block=(32,8)")))
    assert isinstance(other, NotLiftable) and "user.cu:11:" in str(other)


UNGUARDED = """/* @optiml
   sizes: n=4096
   check: n=256; n=768
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void twice(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2.0f * x[i] + 1.0f;
}
"""

PADDED = """/* @optiml
   sizes: rows=512 cols=1000 pitch=1024
   check: rows=3 cols=5 pitch=8; rows=17 cols=31 pitch=32; rows=1 cols=1 pitch=1
   x: in float[rows*pitch]
   y: out float[rows*pitch]
   launch: grid=(cdiv(pitch,32),cdiv(rows,8)) block=(32,8)
*/
__global__ void padded_relu(const float* x, float* y, int rows, int cols, int pitch)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        y[r * pitch + c] = fmaxf(x[r * pitch + c], 0.0f);
    } else if (r < rows && c < pitch) {
        y[r * pitch + c] = 0.0f;
    }
}
"""


@pytest.mark.parametrize("text", [UNGUARDED, PADDED], ids=["no guard", "a guard with an else branch"])
def test_a_kernel_bounded_by_its_launch_lifts_and_its_schedules_equal_it(text) -> None:
    """No guard (every thread the launch runs is a point), or a guard whose else branch serves other points: the
    space is the launch's threads, the branches per-point code; the program and each family's first schedules equal
    the user's kernel on the CPU at every check size."""
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    shape = shape_of(program)
    emitted = [emit(program, shape, s, naive) for family in shape.families for s in defaults(shape, family)]
    assert emitted
    assert_equals_kernel(naive, program, emitted)


LINEAR_GRID = """
/* @optiml
   sizes: n=1000000
   check: n=1; n=1000; n=300001
   x: in float[n]
   y: out float[n]
   launch: grid=(GRID_X,cdiv(n,GRID_X*256)) block=256
*/
__global__ void linear_grid(const float* x, float* y, int n)
{
BODY
}
"""


@pytest.mark.parametrize("body", [
    "    int block = blockIdx.y * gridDim.x + blockIdx.x;\n    int i = block * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = 2.0f * x[i];",
    "    int i = (blockIdx.x + gridDim.x * blockIdx.y) * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
    "    y[i] = 2.0f * x[i];",
])
def test_a_block_index_flattened_over_the_grid_is_one_index(body) -> None:
    from optiml_engine.gpu.emulate import run_on_cpu
    candidate = candidate_of("user.cu", LINEAR_GRID.replace("GRID_X", "4").replace("BODY", body))
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for i in [0, n):"
    for binding in ({"n": 1000}, {"n": 1}):
        inputs, expected = run_at(candidate, program, binding)
        assert np.array_equal(run_on_cpu(candidate, binding, inputs)["y"], expected["y"])


def test_a_flattened_grid_smaller_than_the_guard_is_refused() -> None:
    body = "    int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;\n    if (i < n) y[i] = x[i];"
    text = LINEAR_GRID.replace("GRID_X*256", "GRID_X*512").replace("GRID_X", "4").replace("BODY", body)
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable) and "fewer than the guard's bound" in result.reason, str(result)


BYTE_PITCH = """/* @optiml
   sizes: rows=512 cols=1000 pitch=4096
   check: rows=3 cols=5 pitch=32; rows=17 cols=31 pitch=128; rows=1 cols=1 pitch=4
   x: in float[rows*(pitch/4)]
   y: out float[rows*cols]
   launch: grid=(cdiv(cols,32),cdiv(rows,8)) block=(32,8)
*/
__global__ void pitched_relu(const float* x, float* y, int rows, int cols, size_t pitch)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const float* row = (const float*)((const char*)x + r * pitch);
    y[r * cols + c] = fmaxf(row[c], 0.0f);
}
"""

TEMPLATE_BLOCK = """/* @optiml
   sizes: n=4096
   check: n=1; n=300; n=1000
   template: BLOCK=128
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(n,BLOCK) block=BLOCK
*/
template <int BLOCK>
__global__ void scaled(const float* x, float* y, int n)
{
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n) return;
    y[i] = x[i] * (float)BLOCK;
}
template __global__ void scaled<128>(const float*, float*, int);
"""

RETURNING_HELPER = """__device__ float softplus(float v)
{
    const float big = 20.0f;
    if (v > big)
        return v;
    if (v < -big) { return expf(v); } else { float e = expf(v); return log1pf(e); }
}

/* @optiml
   sizes: n=4096
   check: n=1; n=1000
   x: in float[n] normal(0,30)
   y: out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void softplus_map(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = softplus(x[i]);
}
"""


# A mirrored index, its parameter assigned in branches (PyTorch's reflection padding), and a running value.
ASSIGNING_HELPER = """__device__ int reflect(int i, int n)
{
    if (i < 0)
        i = -i;
    if (i >= n) {
        int over = i - (n - 1);
        i = n - 1 - over;
    } else
        i += 0;
    float unused = 0.0f;
    unused *= 2.0f;
    return i;
}

/* @optiml
   sizes: n=4096
   check: n=5; n=1000
   x: in float[n]
   y: out float[n+6]
   launch: grid=cdiv(n+6,256) block=256
*/
__global__ void reflect_pad(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + 6) y[i] = x[reflect(i - 3, n)];
}
"""


# A local assigned a float: C converts it to the local's int (the program must truncate as the kernel does).
TRUNCATING_HELPER = """__device__ float truncated(float v)
{
    int k = 0;
    if (v > 0.0f)
        k = v * 3.0f;
    else
        k -= v;
    return (float)k;
}

/* @optiml
   sizes: n=4096
   check: n=1; n=1000
   x: in float[n] normal(0,3)
   y: out float[n]
   launch: grid=cdiv(n,256) block=256
*/
__global__ void truncate_map(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = truncated(x[i]);
}
"""


@pytest.mark.parametrize("text", [BYTE_PITCH, TEMPLATE_BLOCK, RETURNING_HELPER, ASSIGNING_HELPER, TRUNCATING_HELPER],
                         ids=["a row found in bytes", "an integer template argument", "a helper returning early",
                              "a helper assigning in branches", "a helper's int local assigned floats"])
def test_user_spellings_lift_and_equal_the_kernel(text) -> None:
    """A row found by a byte pitch (`(const float*)((const char*)x + r * pitch)`: the offset over the element's
    size), an integer template argument in the index and the body (its instantiation's value), a helper whose
    branches return (`c ? then : otherwise`), a helper assigning its parameter and locals in branches (each then
    `c ? then : before`): the program equals the user's kernel on the CPU at every check size."""
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert_equals_kernel(naive, program, rtol=1e-6)


INLINE_INDEX = """/* @optiml
   sizes: n=4096
   check: n=1; n=1000
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(n,128) block=128
*/
__global__ void scale(const float* x, float* y, int n)
{
    if (blockIdx.x * 128 + threadIdx.x < n)
        y[blockIdx.x * 128 + threadIdx.x] = 2.0f * x[(blockIdx.x * blockDim.x + threadIdx.x)];
}
"""


def test_an_index_written_out_where_read_is_the_index() -> None:
    """`y[blockIdx.x * 128 + threadIdx.x]`, the block size a number or `blockDim.x`: one index, named."""
    naive = candidate_of("user.cu", INLINE_INDEX)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for index_x in [0, n):", str(program)
    assert_equals_kernel(naive, program)


def test_a_thread_index_read_apart_from_the_written_out_index_stays_refused() -> None:
    text = INLINE_INDEX.replace("2.0f * x", "(float)threadIdx.x * x")
    assert text != INLINE_INDEX
    assert isinstance(lift(candidate_of("user.cu", text)), NotLiftable)


def test_a_helper_with_a_loop_is_refused_located() -> None:
    text = ASSIGNING_HELPER.replace("    float unused = 0.0f;", "    for (int k = 0; k < 2; ++k) i += 0;")
    program = lift(candidate_of("user.cu", text))
    assert isinstance(program, NotLiftable) and "reflect has a `for` loop before its return" in str(program) and \
        "user.cu:10:" in str(program), str(program)


@pytest.mark.parametrize("old, new, reason", [
    ("(const float*)((const char*)x + r * pitch)", "(const float*)((const short*)x + r * pitch)",
     "through a pointer to short"),
    ("(const float*)((const char*)x + r * pitch)", "(const char*)x + r * pitch", "a byte pointer"),
])
def test_a_pointer_of_another_element_type_is_refused_located(old, new, reason) -> None:
    """Before, casts were looked through: a pointer to other elements was read as the array's own (a wrong
    program). Now only a byte offset cast back to the element type is followed; anything else is refused."""
    program = lift(candidate_of("user.cu", BYTE_PITCH.replace(old, new)))
    assert isinstance(program, NotLiftable) and reason in str(program) and "user.cu:13:" in str(program)


SEARCH = """/* @optiml
   sizes: rows=4096 cols=1024
   check: rows=40 cols=33; rows=3 cols=1; rows=64 cols=200
   x: in float[rows*cols] uniform(-1,1)
   y: out float[rows]
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void first_above(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    int c;
    for (c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        if (v > 0.9f)
            break;
    }
    y[r] = (float)c;
}
"""

SEARCH_ASSIGNING = """/* @optiml
   sizes: rows=4096 cols=1024
   check: rows=40 cols=33; rows=3 cols=1; rows=64 cols=200
   x: in float[rows*cols] uniform(-1,1)
   y: out float[rows]
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void value_after_first_drop(const float* x, float* y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float found = -2.0f;
    for (int c = 1; c <= cols - 1; c++) {
        const float* row = x + r * cols;
        if (row[c] < row[c - 1] - 0.8f) { found = row[c] * 2.0f + c; break; }
    }
    y[r] = found;
}
"""


@pytest.mark.parametrize("text", [SEARCH, SEARCH_ASSIGNING], ids=["loop variable after", "assigned at the break"])
def test_a_search_loop_is_the_first_hit_as_a_min_reduction(text) -> None:
    """`for (c = 0; c < n; ++c) if (cond) break;` and `if (cond) { found = e; break; }`: the first iteration
    whose condition holds, a min reduction over all of them (a thread group may then share the row), then the
    loop variable's value or the branch's assignments at that iteration; equal to the kernel at every check size
    (rows with and without a hit), and the reduce family's schedules too."""
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert "min(" in str(program)
    shape = shape_of(program)
    assert "reduce" in shape.families
    emitted = [emit(program, shape, s, naive) for s in defaults(shape, "reduce")[:2]]
    assert_equals_kernel(naive, program, emitted)


@pytest.mark.parametrize("old, new, reason", [
    ("if (v > 0.9f)\n            break;", "if (v > 0.9f)\n            break;\n        y[r] = v;",
     "a break other than"),                                           # the break is not the loop's last statement
    ("float v = x[r * cols + c];", "float v = x[r * cols + c]; y[r] = v;", "do more than declare locals"),
    ("for (c = 0; c < cols; ++c)", "for (c = 0; c < cols; c += 2)", "a search loop other than"),
])
def test_other_breaks_are_refused_located(old, new, reason) -> None:
    program = lift(candidate_of("user.cu", SEARCH.replace(old, new)))
    assert isinstance(program, NotLiftable) and reason in str(program) and "user.cu:" in str(program)


COLUMN_WALK = """/* @optiml
   sizes: rows=1024 cols=4096
   check: rows=7 cols=33; rows=1 cols=1; rows=40 cols=3
   x: in float[rows*cols]
   y: out float[cols]
   launch: grid=cdiv(cols,128) block=128
*/
__global__ void col_sumsq(const float* x, float* y, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    float s = 0.0f;
    for (size_t idx = col; idx < (size_t)rows * cols; idx += cols)
        s += x[idx] * x[idx];
    y[col] = s;
}
"""


def test_a_column_walked_through_a_flat_index_is_a_loop_over_rows() -> None:
    """`for (idx = col; idx < rows * cols; idx += cols)` with col in [0, cols): a loop over the rows, its reads'
    stride along the loop cols, so a column reduction's thread groups lie across the columns (lanes along y);
    equal to the kernel. A step other than the index's extent stays as written."""
    naive = candidate_of("user.cu", COLUMN_WALK)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    (loop,) = [s for s in program.body if isinstance(s, For)]
    assert loop.start == Const(text="0") and loop.step == Const(text="1") and "(size_t)rows" in str(program)
    assert shape_of(program).lanes_axis == "y"
    assert_equals_kernel(naive, program, rtol=1e-6)
    other = lift(candidate_of("user.cu", COLUMN_WALK.replace("idx += cols", "idx += rows")))
    assert isinstance(other, LoopProgram) and "idx += rows" in str(other)


SPLIT_BLOCK = """#define TW 32
/* @optiml
   sizes: rows=1024 cols=2048
   check: rows=9 cols=33; rows=1 cols=1; rows=40 cols=5
   x: in float[rows*cols]
   y: out float[cols*rows]
   launch: grid=(cdiv(cols,32),cdiv(rows,8)) block=256
*/
__global__ void transpose_tiled_1d(const float* x, float* y, int rows, int cols)
{
    int tx = threadIdx.x % TW;
    int ty = threadIdx.x / TW;
    int c = blockIdx.x * TW + tx;
    int r = blockIdx.y * 8 + ty;
    if (r < rows && c < cols)
        y[c * rows + r] = x[r * cols + c];
}
"""


def test_a_1d_block_split_by_remainder_and_quotient_is_the_2d_block_it_stands_for() -> None:
    """`threadIdx.x % 32` and `threadIdx.x / 32` of a block of 256: the 32 x 8 block they stand for (thread t is
    thread (t % 32, t / 32) of it: the launch covers the same points); the program equals the kernel and its
    staged transpose too. A kernel that also reads threadIdx.x as it is keeps its refusal."""
    naive = candidate_of("user.cu", SPLIT_BLOCK)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert [index.name for index in program.space] == ["r", "c"]
    shape = shape_of(program)
    assert "stage" in shape.families
    emitted = [emit(program, shape, s, naive) for s in defaults(shape, "stage")]
    assert_equals_kernel(naive, program, emitted)
    mixed = lift(candidate_of("user.cu", SPLIT_BLOCK.replace("if (r < rows && c < cols)",
                                                             "if (r < rows && c < cols && threadIdx.x < 256)")))
    assert isinstance(mixed, NotLiftable) and "user.cu:11:" in str(mixed)
    # The split read through the thread index's alias (`int t = threadIdx.x; int tx = t % TW;`): the same program.
    aliased = SPLIT_BLOCK.replace("{\n    int tx = threadIdx.x % TW;\n    int ty = threadIdx.x / TW;",
                                  "{\n    const int t = threadIdx.x;\n    int tx = t % TW;\n    int ty = t / TW;")
    assert aliased != SPLIT_BLOCK and str(lift(candidate_of("user.cu", aliased))) == str(program)


POINTER_HELPER = """__device__ __forceinline__ float at(const float* img, int r, int c, int W) { return img[r * W + c]; }
__device__ float diff(const float* row, int c) { return at(row, 0, c + 1, 0) - row[c]; }

/* @optiml
   sizes: H=512 W=512
   check: H=3 W=5; H=1 W=2; H=17 W=33
   x: in float[H*W]
   y: out float[H*W]
   launch: grid=(cdiv(W,32),cdiv(H,8)) block=(32,8)
*/
__global__ void grads(const float* x, float* y, int H, int W)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= H || c >= W) return;
    float d = 0.0f;
    if (c + 1 < W) d = diff(x + r * W, c);
    y[r * W + c] = at(x, r, c, W) * 2.0f + d;
}
"""

SCALED_ATOMIC = """/* @optiml
   sizes: n=1048576
   check: n=1; n=1000; n=4097
   x: in float[n]
   y: inout float[1] const(0)
   launch: grid=64 block=256
   tol: 1e-4
*/
__global__ void mean_abs(const float* x, float* y, int n)
{
    int tid = threadIdx.x + blockIdx.x * blockDim.x;
    int stride = blockDim.x * gridDim.x;
    float partial = 0.f;
    for (int i = tid; i < n; i += stride)
        partial += fabsf(x[i]);
    atomicAdd(y, partial / n);
}
"""


@pytest.mark.parametrize("text", [POINTER_HELPER, SCALED_ATOMIC], ids=["a helper taking a pointer",
                                                                       "a grid-stride sum added scaled"])
def test_helpers_taking_pointers_and_scaled_sums_lift_and_equal_the_kernel(text) -> None:
    """A helper whose parameter is a pointer (`const float* img`, given `x` or a row `x + r * W`, through another
    helper too) reads the array its argument points into; a grid-stride sum added once a thread scaled by a
    parameter (`atomicAdd(y, partial / n)`) is each point's term scaled (the same sum, reassociated as the
    atomics already do). Both equal the kernel on the CPU at every check size."""
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert_equals_kernel(naive, program, rtol=1e-5)


@pytest.mark.parametrize("text, old, new, reason", [
    (POINTER_HELPER, "at(x, r, c, W) * 2.0f", "at(r, r, c, W) * 2.0f", "not given pointers"),
    (SCALED_ATOMIC, "atomicAdd(y, partial / n);", "atomicAdd(y, partial / x[0]);", "run once per thread"),
])
def test_a_pointer_parameter_given_a_value_and_a_sum_scaled_per_thread_are_refused(text, old, new, reason) -> None:
    program = lift(candidate_of("user.cu", text.replace(old, new)))
    assert isinstance(program, NotLiftable) and reason in str(program) and "user.cu:" in str(program)


PLANES = """
/* @optiml
   sizes: N=4 C=8 HW=4096
   check: N=2 C=3 HW=5; N=1 C=1 HW=1; N=3 C=4 HW=300
   x: in float[N*C*HW]
   scale: in float[C]
   y: out float[N*C*HW]
   launch: grid=(cdiv(HW,256),1,N*C) block=256
*/
__global__ void plane_scale(const float* x, const float* scale, float* y, int N, int C, int HW)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = blockIdx.z / C;
    int c = blockIdx.z % C;
    if (i >= HW) return;
    y[((size_t)n * C + c) * HW + i] = x[((size_t)n * C + c) * HW + i] * scale[c];
}
"""


def test_a_block_index_taken_apart_by_arithmetic_is_an_index_of_its_own() -> None:
    """`n = blockIdx.z / C; c = blockIdx.z % C` (no thread along z): the grid's z named once (`block_z`) and lifted as
    a parallel index, n and c the point code's digits of it; the program equals the kernel at every check size. A
    dimension the kernel also reads threads of keeps its refusal."""
    candidate = candidate_of("user.cu", PLANES)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for block_z in [0, N * C), i in [0, HW):"
    assert "int n = block_z / C;" in str(program)
    assert_equals_kernel(candidate, program)
    mixed = PLANES.replace("int i = blockIdx.x * blockDim.x + threadIdx.x;",
                           "int i = blockIdx.x * blockDim.x + threadIdx.x + threadIdx.z;")
    assert isinstance(lift(candidate_of("user.cu", mixed)), NotLiftable)


TILE_PER_BLOCK = """
/* @optiml
   sizes: P=64 H=32 W=32
   check: P=3 H=13 W=20; P=1 H=1 W=1; P=2 H=5 W=9
   x: in float[P*H*W]
   y: out float[P*3*4]
   launch: grid=P block=(4,3)
*/
__global__ void tile_means(const float* x, float* y, int P, int H, int W)
{
    int ox = threadIdx.x;
    int oy = threadIdx.y;
    int p = blockIdx.x;
    float s = 0.0f;
    for (int h = oy * H / 3; h < ((oy + 1) * H + 2) / 3; ++h)
        for (int w = ox * W / 4; w < ((ox + 1) * W + 3) / 4; ++w)
            s += x[(size_t)p * H * W + h * W + w];
    y[p * 12 + oy * 4 + ox] = s;
}
"""


def test_a_block_per_plane_and_a_thread_per_tile_element_are_indices_of_their_own() -> None:
    """`p = blockIdx.x; ox = threadIdx.x; oy = threadIdx.y` (a block per plane, a 4 x 3 block per output tile, as
    adaptive pooling is written): the thread's indices range over the launch's block, the block's over its grid,
    moved to a dimension of its own; the program and its default schedules equal the kernel at every check size. A
    thread index alone over a grid of several blocks that no block index reads is refused, located."""
    candidate = candidate_of("user.cu", TILE_PER_BLOCK)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for p in [0, P), oy in [0, 3), ox in [0, 4):"
    shape = shape_of(program)
    emitted = [emit(program, shape, s, candidate) for f in shape.families for s in defaults(shape, f)]
    assert_equals_kernel(candidate, program, emitted)
    unread = TILE_PER_BLOCK.replace("int p = blockIdx.x;", "int p = 0;").replace("launch: grid=P", "launch: grid=2")
    refused = lift(candidate_of("user.cu", unread))
    assert isinstance(refused, NotLiftable) and "'ox' is threadIdx.x alone, but the launch runs 2 blocks along x" \
        in refused.reason and refused.location.line == 11


def test_a_bound_the_space_implies_is_dropped_and_others_are_kept() -> None:
    """`if (i >= HW || n >= N) return;` with `n = blockIdx.z / C` over a grid of N * C: n < N holds at every point,
    so the point's code has no branch left (a convolution's nest is then at its top, for implicit GEMM); a bound that
    is not the grid's quotient (`n >= N + C`, true as well) stays, and both programs equal the kernel."""
    implied = PLANES.replace("if (i >= HW) return;", "if (i >= HW || n >= N) return;")
    program = lift(candidate_of("user.cu", implied))
    assert isinstance(program, LoopProgram), str(program)
    assert not any(isinstance(stmt, If) for stmt in program.body), str(program)
    assert_equals_kernel(candidate_of("user.cu", implied), program)
    looser = PLANES.replace("if (i >= HW) return;", "if (i >= HW || n >= N + C) return;")
    kept = lift(candidate_of("user.cu", looser))
    assert isinstance(kept.body[-1], If) and "n < N + C" in str(kept), str(kept)
    assert_equals_kernel(candidate_of("user.cu", looser), kept)


ROW_PER_BLOCK = """
/* @optiml
   sizes: R=64 C=4096
   check: R=3 C=1000; R=1 C=1; R=2 C=129
   x: in float[R*C]
   y: inout float[R] const(0)
   launch: grid=R block=128
   tol: 1e-5
*/
__global__ void row_sums(const float* x, float* y, int R, int C)
{
    constexpr int unused = 1;
    const int row = blockIdx.x;
    if (row >= R) return;
    float partial = 0.0f;
    for (int c = threadIdx.x; c < C; c += blockDim.x)
        partial += x[(size_t)row * C + c] * (float)unused;
    atomicAdd(&y[row], partial);
}
"""


def test_a_block_striding_a_row_lifts_a_point_a_thread_and_folds_into_one_loop() -> None:
    """A block per row whose threads stride it and add their partials atomically: each thread a point of its own
    (`thread_x` over the launch's 128), the program equal to the kernel; folded (ir/strided_lanes.py), one point a
    row walking it whole, its reduce schedules equal to the kernel within the tolerance of reassociated sums. A
    `constexpr` local's type is the rest of its words."""
    from optiml_engine.ir.strided_lanes import lanes_folded
    candidate = candidate_of("user.cu", ROW_PER_BLOCK)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for row in [0, R), thread_x in [0, 128):"
    assert "x[(size_t)row * C + c] * (float)1" in str(program)     # the constexpr local read as its value
    folded = lanes_folded(program)
    assert str(folded).splitlines()[1] == "parallel for row in [0, R):" and "c = 0; c < C; ++c" in str(folded)
    shape = shape_of(folded)
    emitted = [emit(folded, shape, s, candidate) for s in defaults(shape, "reduce")]
    for binding in candidate.contract.checks:
        inputs, expected = run_at(candidate, program, binding)
        assert np.allclose(run_on_cpu(candidate, binding, inputs)["y"], expected["y"], rtol=1e-5)
        _, folded_expected = run_at(candidate, folded, binding)
        for made in emitted:
            assert np.allclose(run_on_cpu(made, binding, inputs)["y"], folded_expected["y"], rtol=1e-5)
    # A float sum scaled as it is added (a mean): folded, equal within rounding.
    scaled = ROW_PER_BLOCK.replace("atomicAdd(&y[row], partial);", "atomicAdd(&y[row], partial / C);")
    scaled_program = lift(candidate_of("user.cu", scaled))
    assert str(lanes_folded(scaled_program)).splitlines()[1] == "parallel for row in [0, R):"
    for binding in candidate.contract.checks:
        inputs, expected = run_at(candidate_of("user.cu", scaled), scaled_program, binding)
        _, folded_expected = run_at(candidate_of("user.cu", scaled), lanes_folded(scaled_program), binding)
        assert np.allclose(folded_expected["y"], expected["y"], rtol=1e-5)
    # A lane whose loop reads it beside its start, or a sum scaled before it is added: not folded.
    from optiml_engine.ir.program import Assign, Binary, Ref
    loop = next(stmt for stmt in program.body if isinstance(stmt, For))
    reading = loop.model_copy(update={"body": [loop.body[0].model_copy(update={"value": Binary(
        op="*", left=loop.body[0].value, right=Ref(name="thread_x"))})]})
    scaled = program.body[:-1] + [Assign(name="partial", op="*=", value=Ref(name="R"))] + program.body[-1:]
    for body in ([reading if stmt is loop else stmt for stmt in program.body], scaled):
        kept = lanes_folded(program.model_copy(update={"body": body}))
        assert [index.name for index in kept.space] == ["row", "thread_x"], str(kept)
    # The thread index read as a value too: the lanes are not only the loop's stride, nothing is folded.
    kept = ROW_PER_BLOCK.replace("atomicAdd(&y[row], partial);", "atomicAdd(&y[row], partial + 0.0f * threadIdx.x);")
    assert isinstance(lift(candidate_of("user.cu", kept)), NotLiftable)


def test_a_global_index_through_static_cast_is_the_index() -> None:
    text = KERNEL_WITH.format(body="    const int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;\n"
                                   "    if (i < n) y[i] = 2.0f * x[i];")
    program = lift(candidate_of("user.cu", text))
    assert isinstance(program, LoopProgram) and str(program).splitlines()[1] == "parallel for i in [0, n):"


POWERS = """
#define CUBE 3.0f
/* @optiml
   sizes: n=1024
   check: n=1; n=37
   x: in float[n] normal(0,3)
   y: out float[n]
   launch: grid=cdiv(n,128) block=128
*/
__global__ void powers(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 0.5f * powf(x[i], CUBE) + powf(fabsf(x[i]), 2) - powf(x[i] + 1.0f, 4.0f) + powf(fabsf(x[i]), 2.5f)
                      + powf(i % 7 + 40000, 2) * 1e-9f;
}
"""


def test_integer_powers_are_the_products_they_are() -> None:
    """pow of 2, 3 or 4 (a #define of one too) is the product, negative bases included, where the library goes
    through a log and an exp; 2.5 stays a call. The base converted as the call converts it: an integer base squared
    in float, not in int (where 40006^2 would overflow). The program equals the kernel to a few ulp."""
    naive = candidate_of("user.cu", POWERS)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    text = str(program)
    assert "0.5f * ((float)x[i] * (float)x[i] * (float)x[i])" in text, text
    assert "(float)fabsf(x[i]) * (float)fabsf(x[i])" in text and "(float)(i % 7 + 40000) * (float)(i % 7" in text
    assert "powf(fabsf(x[i]), 2.5f)" in text and text.count("powf") == 1
    assert_equals_kernel(naive, program, rtol=1e-6)


CUMPROD_MIDDLE = """
/* @optiml
   sizes: B=4 L=64 D=256
   check: B=2 L=5 D=7; B=1 L=1 D=1; B=3 L=9 D=33
   x: in float[B*L*D] uniform(0.9,1.1)
   y: out float[B*L*D]
   launch: grid=cdiv(B*D,128) block=128
*/
__global__ void cumprod_middle(const float* x, float* y, int B, int L, int D)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= B * D) return;
    int b = t / D;
    int j = t % D;
    long offset = (long)b * L * D + j;
    float p = 1.0f;
    for (int i = 0; i < L; ++i) {
        p *= x[offset];
        y[offset] = p;
        offset += D;
    }AFTER
}
"""


def test_a_local_a_loop_steps_is_read_as_what_it_holds() -> None:
    """`offset += D` as a loop's last statement: `offset + (long)(i - 0) * D` at each iteration, so that the
    product carried down the middle axis is a scan (down columns, over the digits); equal to the kernel. Read
    after the loop, the local keeps its steps."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.ir.program import Assign, walk
    naive = candidate_of("user.cu", CUMPROD_MIDDLE.replace("AFTER", ""))
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert not [s for s in walk(program.body) if isinstance(s, Assign) and s.name == "offset"], str(program)
    assert "x[offset + (long)(i - 0) * D]" in str(program)
    scan = shape_of(delinearized(program)).scan
    assert scan is not None and scan.across_points and scan.reduction.op == "*"
    assert_equals_kernel(naive, program)
    after = lift(candidate_of("user.cu", CUMPROD_MIDDLE.replace("AFTER", "\n    if (j == 0) y[offset - D] = p;")))
    assert isinstance(after, LoopProgram) and \
        [s for s in walk(after.body) if isinstance(s, Assign) and s.name == "offset"], str(after)


def test_a_local_a_loop_steps_down_is_read_as_what_it_holds() -> None:
    """A product carried up the middle axis from its last row (`offset -= D` as a reversed loop's last statement):
    `offset - (long)(i - 0) * D` at each iteration of the loop counted from its start, a scan down columns over the
    digits; equal to the kernel."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.ir.program import Assign, walk
    reversed_walk = CUMPROD_MIDDLE.replace("AFTER", "").replace(
        "long offset = (long)b * L * D + j;", "long offset = ((long)b * L + (L - 1)) * D + j;").replace(
        "for (int i = 0; i < L; ++i)", "for (int i = L - 1; i >= 0; --i)").replace("offset += D;", "offset -= D;")
    naive = candidate_of("user.cu", reversed_walk)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert not [s for s in walk(program.body) if isinstance(s, Assign) and s.name == "offset"], str(program)
    scan = shape_of(delinearized(program)).scan
    assert scan is not None and scan.across_points and scan.reduction.op == "*"
    assert_equals_kernel(naive, program)


def test_a_grid_stride_loop_may_spell_the_block_as_the_number_it_launches() -> None:
    """`i = blockIdx.x * THREADS + threadIdx.x; i += gridDim.x * THREADS` with THREADS the launch's block; another
    number is a stride that skips threads' points, refused."""
    text = """#define THREADS 128
/* @optiml
   sizes:   n=1048576
   check:   n=1; n=300; n=70000
   x:       in  float[n]
   y:       out float[n]
   launch:  grid=min(cdiv(n,128),64) block=128
*/
__global__ void twice(const float* x, float* y, int n)
{
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS)
        y[i] = 2.0f * x[i];
}
"""
    program = lift(candidate_of("user.cu", text))
    assert isinstance(program, LoopProgram) and str(program).splitlines()[1] == "parallel for i in [0, n):", \
        str(program)
    refused = lift(candidate_of("user.cu", text.replace("#define THREADS 128", "#define THREADS 64")))
    assert isinstance(refused, NotLiftable), str(refused)


def test_a_helper_with_a_while_loop_is_refused_naming_the_loop_at_its_line() -> None:
    text = """__device__ int next_power(int n)
{
    int p = 1;
    while (p < n)
        p *= 2;
    return p;
}
/* @optiml
   sizes:   n=1024
   check:   n=1; n=5
   y:       out float[n]
   launch:  grid=cdiv(n,128) block=128
*/
__global__ void scaled(float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = (float)next_power(n);
}
"""
    refused = lift(candidate_of("user.cu", text))
    assert isinstance(refused, NotLiftable) and refused.location.line == 4, str(refused)
    assert "next_power has a `while` loop before its return" in refused.reason, str(refused)


PRAGMA_BETWEEN = """/* @optiml
   sizes:   n=1024
   check:   n=5; n=1
   x:       in  float[n*4]
   y:       out float[n*4]
   launch:  grid=cdiv(n,128) block=128
*/
__global__ void pairs(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    for (int a = 0; a < 2; ++a)
        #pragma unroll
        for (int b = 0; b < 2; ++b)
            y[i * 4 + a * 2 + b] = x[i * 4 + a * 2 + b] * (float)(a + 1);
}
"""


def test_a_pragma_between_a_loop_and_its_body_is_read_as_a_hint() -> None:
    """The parser reads `for (...)` then `#pragma unroll` as a loop with an empty body and the inner loop as the next
    statement; before, the program was that (a wrong one). The pragma is now dropped and the nest read whole."""
    naive = candidate_of("user.cu", PRAGMA_BETWEEN)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    for binding in naive.contract.checks:
        inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=3)
        np.testing.assert_allclose(run_program(program, resolve(naive.contract, binding), naive.contract.arrays,
                                               inputs)["y"], run_on_cpu(naive, binding, inputs)["y"])


def test_a_pragma_before_a_grid_stride_loop_is_read_as_a_hint() -> None:
    """`#pragma unroll 1` as the statement before the kernel's grid-stride loop: the loop is still the parallel
    space."""
    text = PRAGMA_BETWEEN.replace("    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n",
                                  "    #pragma unroll 1\n"
                                  "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
                                  "i += blockDim.x * gridDim.x)\n").replace("grid=cdiv(n,128)", "grid=2")
    assert "gridDim" in text and "grid=2" in text
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for i in [0, n):", str(program)
    assert_equals_kernel(naive, program)


def test_code_the_parser_cannot_read_is_refused_where_it_stands() -> None:
    text = PRAGMA_BETWEEN.replace("        #pragma unroll\n", "").replace("* (float)(a + 1);", "* (float)(a + 1) @;")
    refused = lift(candidate_of("user.cu", text))
    assert isinstance(refused, NotLiftable) and refused.reason == "code the parser cannot read here" and \
        refused.location.line == 14, str(refused)


CLAMPED_WINDOW = """/* @optiml
   sizes:  N=1048576 K=8
   check:  N=5 K=3; N=1 K=1; N=300 K=7
   x:      in  float[N]
   y:      out float[N]
   launch: grid=cdiv(N,256) block=256
   tol:    1e-5
*/
__global__ void clamp_window(const float* x, float* y, int N, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
        acc += x[min(i + k, N - 1)];
    y[i] = acc;
}
"""


def test_a_read_at_a_clamped_index_in_a_loop_is_a_reduction_whose_schedules_compute_the_kernel() -> None:
    """`x[min(i + k, N - 1)]`: a read whose index is a call is a key like any other read (the loops' reads are
    collected into dicts), so the program has a shape and its reduce schedules agree with the kernel."""
    naive = candidate_of("clamp.cu", CLAMPED_WINDOW)
    program = lift(naive)
    shape = shape_of(program)
    assert "reduce" in shape.families
    for schedule in defaults(shape, "reduce")[:2]:
        scheduled = emit(program, shape, schedule, naive)
        for binding in naive.contract.checks:
            inputs = make_inputs(np, naive.contract.arrays, resolve(naive.contract, binding).lengths, seed=1)
            assert np.allclose(run_on_cpu(scheduled, binding, inputs)["y"], run_on_cpu(naive, binding, inputs)["y"],
                               rtol=1e-5), (schedule.describe(), binding)


CEIL_POOL = """
enum { KSIZE = 3, STRIDE = 2 };
constexpr int PAD = 1;
constexpr float THIRD = 0.33333334f;

/* @optiml
   sizes: R=64 L=4096
   check: R=1 L=1; R=2 L=2; R=3 L=7; R=2 L=8
   x: in float[R*L]
   y: out float[R*(L//2+1)]
   launch: grid=cdiv(R*(L//2+1),128) block=128
*/
__global__ void pool(const float* x, float* y, int R, int L)
{
    int Lout = (L + 2 * PAD - KSIZE + STRIDE - 1) / STRIDE + 1;
    if ((Lout - 1) * STRIDE >= L + PAD)
        Lout--;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= R * Lout) return;
    int r = idx / Lout, t = idx % Lout;
    int lo = max(t * STRIDE - PAD, 0), hi = min(t * STRIDE - PAD + KSIZE, L);
    float s = 0.f;
    for (int l = lo; l < hi; ++l) s += x[r * L + l];
    y[idx] = s * THIRD;
}
"""


def test_a_files_enumerators_and_constants_and_an_extent_adjusted_before_the_index_are_read() -> None:
    """An anonymous enum's and a constexpr's numbers (an integer's, a float's) are constants like a #define's; an extent the code adjusts
    before its index (PyTorch's ceil-mode rule: a last window starting past the padded end dropped) is the guard's
    bound, declared once with the value it ends with; equal to the kernel (the outputs past R * Lout unwritten), and
    so are the map schedules over its digits, whose bound `?:` stands beside comparisons in the emitted text."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.ir.emit import emit
    from optiml_engine.ir.schedule import defaults
    naive = candidate_of("user.cu", CEIL_POOL)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert "Lout" not in str(program).splitlines()[1] and "?" in str(program).splitlines()[1], str(program)
    digits = delinearized(program)
    shape = shape_of(digits)
    assert_equals_kernel(naive, program, [emit(digits, shape, s, naive) for s in defaults(shape, "map")])


UNGUARDED_ROWS = """
/* @optiml
   sizes: N=4 L=300 C=64
   check: N=1 L=1 C=1; N=2 L=7 C=5; N=3 L=10 C=130
   x: in float[N*L*C]
   y: out float[N*((L-1)//2+1)*C]
   launch: grid=(cdiv(C,128),N*((L-1)//2+1)) block=128
*/
__global__ void every_other_row(const float* x, float* y, int N, int L, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y;
    if (c >= C) return;
    int Lout = (L - 1) / 2 + 1;
    int n = row / Lout, t = row % Lout;
    y[(size_t)row * C + c] = 2.0f * x[((size_t)n * L + 2 * t) * C + c];
}
"""


def test_a_block_index_no_guard_bounds_takes_its_extent_from_a_launch_with_floor_divisions() -> None:
    """`row = blockIdx.y` unguarded: its extent is the launch's grid along y, `N*((L-1)//2+1)` (the contract's
    `//` and `/` both C's division for its non-negative sizes); equal to the kernel."""
    naive = candidate_of("user.cu", UNGUARDED_ROWS)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1].startswith("parallel for row in [0, N * ((L - 1) / 2 + 1))"), str(program)
    assert_equals_kernel(naive, program)


def test_an_extent_whose_value_before_the_adjustment_is_read_is_refused() -> None:
    """A local read between its declaration and the `if` that adjusts it (`int first = Lout;` then `Lout--`): the
    declaration may not take the adjusted value, and the index after the adjustment is then refused, located."""
    text = CEIL_POOL.replace("    if ((Lout - 1) * STRIDE >= L + PAD)", "    int first = Lout;\n"
                             "    if ((Lout - 1) * STRIDE >= L + PAD)").replace("y[idx] = s * THIRD;",
                                                                            "y[idx] = s * THIRD + (first - Lout);")
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable) and result.location.line == 19, str(result)   # the index's line
