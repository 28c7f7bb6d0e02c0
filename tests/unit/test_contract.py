"""The @optiml contract: parsing, every error path with its exact location, resolution, inference.

Sources are real CUDA text. Contract lines built by `cuda()` start at column 4 of file line 2, 3, ...
"""

from pathlib import Path

import pytest

from optiml_engine.model import (
    ArraySpec, InitSpec, Kernel, LaunchRule, Location, OptimlError, ScalarSpec,
)
from optiml_engine.source.contract import parse_contract, resolve

from optiml_engine.source.parse import parse_source

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIGNATURE = "const float* x, float* y, float eps, int n"
VALID = ["sizes: n=1024", "x: in float[n]", "y: out float[n]", "eps: 1e-6", "launch: grid=cdiv(n,256) block=256"]


# ---------------------------------------------------------------------------------------------------------------
# Kernels from CUDA text


def kernel_of(source: str, name: str = "k") -> Kernel:
    kernel = parse_source(source, "k.cu").kernel(name)
    assert kernel is not None
    return kernel


def cuda(*lines: str, signature: str = SIGNATURE, header: str = "") -> str:
    """A block comment with `lines` at column 4 of lines 2, 3, ..., then the kernel."""
    body = "".join(f"   {line}\n" for line in lines)
    return f"/* @optiml\n{body}*/\n{header}__global__ void k({signature}) {{ }}\n"


def parse(source: str, name: str = "k"):
    return parse_contract(kernel_of(source, name), "k.cu")


def error(source: str, name: str = "k") -> OptimlError:
    with pytest.raises(OptimlError) as info:
        parse(source, name)
    return info.value


def assert_error(source: str, line: int, column: int, fragment: str) -> OptimlError:
    found = error(source)
    assert (found.location.file, found.location.line, found.location.column) == ("k.cu", line, column), str(found)
    assert fragment in str(found)
    return found


def replaced(key: str, line: str | None) -> list[str]:
    """VALID with the line for `key` replaced (or dropped when line is None)."""
    return [line if entry.startswith(f"{key}:") else entry
            for entry in VALID if line or not entry.startswith(f"{key}:")]


# ---------------------------------------------------------------------------------------------------------------
# Parsing


def test_the_documented_example():
    source = """
/* @optiml
   sizes:  rows=16384 cols=1024              # benchmark size
   check:  rows=37 cols=1000; rows=1 cols=3  # extra correctness sizes (odd tails, tiny)
   x:      in  float[rows*cols]              # default fill for floats: uniform(-1,1)
   y:      out float[rows*cols]
   eps:    1e-6
   launch: grid=cdiv(rows,128) block=128
   flops:  5*rows*cols                       # optional; bytes are derived from the arrays
   tol:    1e-5                              # relative L2 error vs the reference
*/
__global__ void layernorm_rows(const float* x, float* y, float eps, int rows, int cols) { }
"""
    contract = parse(source, "layernorm_rows")
    assert contract.kernel == "layernorm_rows"
    assert contract.sizes == {"rows": 16384, "cols": 1024}
    assert contract.checks == [{"rows": 37, "cols": 1000}, {"rows": 1, "cols": 3}]
    uniform = InitSpec(kind="uniform", args=(-1.0, 1.0))
    assert contract.arrays == [
        ArraySpec(param="x", direction="in", dtype="float32", length="rows*cols", init=uniform),
        ArraySpec(param="y", direction="out", dtype="float32", length="rows*cols", init=uniform),
    ]
    assert contract.scalars == [
        ScalarSpec(param="eps", dtype="float32", value="1e-6"),
        ScalarSpec(param="rows", dtype="int32", value="rows"),
        ScalarSpec(param="cols", dtype="int32", value="cols"),
    ]
    assert contract.launch == LaunchRule(grid=["cdiv(rows,128)"], block=["128"], smem="0")
    assert (contract.flops, contract.bytes, contract.tol, contract.atol) == ("5*rows*cols", None, 1e-5, None)
    assert contract.location == Location(file="k.cu", line=2, column=1)


def test_checks_are_complete_bindings_and_a_trailing_semicolon_is_ignored():
    contract = parse(cuda("sizes: rows=64 cols=32", "check: rows=3; cols=5 ; rows=1 cols=1;",
                          "x: in float[rows*cols]", "y: out float[rows]", "eps: 0.5", "launch: grid=rows block=32",
                          signature="const float* x, float* y, float eps, int rows, int cols"))
    assert contract.checks == [{"rows": 3, "cols": 32}, {"rows": 64, "cols": 5}, {"rows": 1, "cols": 1}]


def test_optional_keys():
    contract = parse(cuda(*VALID, "bytes: 8*n", "tol: 1e-3", "atol: .5", "reference: np.maximum(x, 0)",
                          "flops: 2*n"))
    assert (contract.bytes, contract.tol, contract.atol) == ("8*n", 1e-3, 0.5)
    assert contract.reference == "np.maximum(x, 0)"
    assert contract.flops == "2*n"


def test_line_comment_block_and_star_decorated_block():
    kernel = f"__global__ void k({SIGNATURE}) {{ }}\n"
    line_style = "// @optiml\n" + "".join(f"//   {line}\n" for line in VALID) + kernel
    star_style = "/* @optiml\n" + "".join(f" *  {line}\n" for line in VALID) + " */\n" + kernel
    assert parse(line_style).launch == parse(star_style).launch == parse(cuda(*VALID)).launch
    assert parse(line_style).arrays == parse(cuda(*VALID)).arrays
    # Line comments: positions still point into the file.
    broken = line_style.replace("eps: 1e-6", "eps: 1e-6 +")
    found = error(broken)
    assert (found.location.line, found.location.column) == (5, 17)


def test_a_doc_comment_may_precede_the_block():
    source = "// Scales x into y.\n" + cuda(*replaced("x", "x: in float[m]"))
    found = assert_error(source, 4, 16, "unknown size symbol 'm'")
    assert parse("// Scales x into y.\n" + cuda(*VALID)).location == Location(file="k.cu", line=2, column=1)
    assert found.expected == "one of: n"


def test_int_params_named_like_size_symbols_bind_to_them():
    contract = parse(cuda("sizes: n=100 m=7", "x: in float[n*m]", "launch: grid=1 block=m",
                          signature="const float* x, unsigned long n, short m"))
    assert contract.scalars == [ScalarSpec(param="n", dtype="uint64", value="n"),
                                ScalarSpec(param="m", dtype="int16", value="m")]
    assert resolve(contract, {}).scalars == {"n": 100, "m": 7}


def test_in_is_fine_for_a_non_const_pointer_and_fills_default_by_type():
    contract = parse(cuda("sizes: n=16", "a: in float[n]", "b: inout int[n]", "c: in unsigned char[n]", "d: in bool[n]",
                          "e: out double[n]", "launch: grid=1 block=n",
                          signature="float* a, int* b, unsigned char* c, bool* d, double* e, int n"))
    assert [(a.param, a.direction, a.dtype, a.init.kind, a.init.args) for a in contract.arrays] == [
        ("a", "in", "float32", "uniform", (-1.0, 1.0)),
        ("b", "inout", "int32", "range", (0.0, 100.0)),
        ("c", "in", "uint8", "range", (0.0, 100.0)),
        ("d", "in", "bool", "range", (0.0, 2.0)),
        ("e", "out", "float64", "uniform", (-1.0, 1.0)),
    ]


def test_explicit_fills_and_canonical_type_names():
    contract = parse(cuda("sizes: n=16", "a: in float32[n] normal(0, 2)", "b: inout int32_t[n] const(-1)",
                          "c: in uint8[n] range(0,256)", "h: in __half[n] const(0.5)", "launch: grid=1 block=n",
                          signature="const float* a, int* b, const unsigned char* c, const half* h, int n"))
    assert [(a.dtype, a.init) for a in contract.arrays] == [
        ("float32", InitSpec(kind="normal", args=(0.0, 2.0))),
        ("int32", InitSpec(kind="const", args=(-1.0,))),
        ("uint8", InitSpec(kind="range", args=(0.0, 256.0))),
        ("float16", InitSpec(kind="const", args=(0.5,))),
    ]


def test_pointer_param_named_like_a_key_is_told_apart_by_its_direction():
    contract = parse(cuda("sizes: n=8", "bytes: in float[n]", "out: out float[n]", "launch: grid=1 block=n",
                          signature="const float* bytes, float* out, int n"))
    assert [a.param for a in contract.arrays] == ["bytes", "out"]
    assert contract.bytes is None


def test_template_kernel():
    header = "template <typename T, int BLOCK>\n"
    contract = parse(cuda("template: T=float32 BLOCK=2*64", "sizes: n=1000", "x: in T[n]", "y: out float[n]",
                          "launch: grid=cdiv(n,BLOCK) block=BLOCK smem=BLOCK*4",
                          signature="const T* x, T* y, int n", header=header))
    assert contract.template == {"T": "float", "BLOCK": "128"}
    assert [a.dtype for a in contract.arrays] == ["float32", "float32"]
    resolved = resolve(contract, {})
    assert (resolved.grid, resolved.block, resolved.smem) == ((8, 1, 1), (128, 1, 1), 512)

    half = parse(cuda("template: BLOCK=64 T=__half", "sizes: n=10", "x: in T[n]", "y: out __half[n]",
                      "launch: grid=1 block=BLOCK", signature="const T* x, T* y, int n", header=header))
    assert half.template == {"T": "__half", "BLOCK": "64"}  # in declaration order
    assert [a.dtype for a in half.arrays] == ["float16", "float16"]


# ---------------------------------------------------------------------------------------------------------------
# Error paths: each at its exact line and column


def test_no_contract_at_all():
    found = assert_error(f"__global__ void k({SIGNATURE}) {{ }}\n", 1, 17, "kernel 'k' has no @optiml contract")
    assert "optiml kernels --contract" in found.expected


def test_a_comment_without_the_marker_is_no_contract():
    assert_error(f"/* scales x into y */\n__global__ void k({SIGNATURE}) {{ }}\n", 2, 17, "has no @optiml contract")


def test_unknown_key_suggests_the_closest():
    found = assert_error(cuda("sizez: n=1024", *VALID[1:]), 2, 4, "unknown key 'sizez'")
    assert found.expected == ("one of: sizes, check, launch, flops, bytes, tol, atol, template, reference, spec, "
                              "x, y, eps, n; did you mean 'sizes'?")


def test_line_for_something_that_is_not_a_parameter():
    found = assert_error(cuda(*VALID, "z: in float[n]"), 7, 4, "'z' is not a parameter of kernel 'k'")
    assert found.expected == "one of: x, y, eps, n"
    assert "did you mean 'x'" in error(cuda(*VALID, "xx: in float[n]")).expected


def test_line_that_is_not_key_value():
    assert_error(cuda("sizes n=1024", *VALID[1:]), 2, 4, "cannot read 'sizes n=1024' (expected `key: value`")


def test_key_without_value():
    assert_error(cuda(*replaced("eps", "eps:   # forgot")), 5, 8, "'eps' has no value")


def test_missing_sizes():
    assert_error(cuda(*VALID[1:]), 1, 4, "the @optiml block has no sizes: line")


def test_missing_launch():
    assert_error(cuda(*VALID[:-1]), 1, 4, "the @optiml block has no launch: line")


def test_duplicate_key():
    found = assert_error(cuda(*VALID, "eps: 1e-5"), 7, 4, "duplicate key 'eps'")
    assert "the first is on line 5" in found.expected
    assert_error(cuda(*VALID, "sizes: n=3"), 7, 4, "duplicate key 'sizes'")


@pytest.mark.parametrize("sizes, column, fragment", [
    ("sizes: n:1024", 11, "bad size binding 'n:1024' (expected `symbol=integer`"),
    ("sizes: n = 1024", 11, "bad size binding 'n'"),
    ("sizes: n=1024 1=2", 18, "bad size binding '1=2'"),
    ("sizes: n=1.5", 13, "size 'n' must be a positive integer, got '1.5'"),
    ("sizes: n=0", 13, "size 'n' must be a positive integer, got '0'"),
    ("sizes: n=-4", 13, "size 'n' must be a positive integer, got '-4'"),
    ("sizes: n=big", 13, "size 'n' must be a positive integer, got 'big'"),
    ("sizes: n=4 n=8", 15, "size symbol 'n' is bound twice"),
])
def test_bad_sizes(sizes, column, fragment):
    assert_error(cuda(*replaced("sizes", sizes)), 2, column, fragment)


def test_check_names_an_unknown_size_symbol():
    found = assert_error(cuda(*VALID, "check: n=3; m=5"), 7, 16, "unknown size symbol 'm'")
    assert found.expected == "one of: n"
    assert_error(cuda(*VALID, "check: n=3; n=0"), 7, 18, "size 'n' must be a positive integer")


def test_pointer_param_without_a_line_cannot_have_its_length_inferred():
    found = assert_error(cuda(*replaced("x", None)), 7, 19, "pointer parameter 'x' has no line")
    assert "its length cannot be inferred" in found.message
    assert found.expected == "`x: in float[LENGTH]` in the @optiml block"
    assert error(cuda(*replaced("y", None))).expected == "`y: inout float[LENGTH]` in the @optiml block"


@pytest.mark.parametrize("line, column, fragment", [
    ("x: input float[n]", 7, "'input' is not a direction (expected in, out or inout, as in `x: in float[LENGTH]`)"),
    ("x: float[n]", 7, "'float' is not a direction"),
    ("x: out float[n]", 7, "'x' is const float*, read only, so it cannot be 'out' (expected in)"),
    ("x: inout float[n]", 7, "so it cannot be 'inout'"),
    ("x: in double[n]", 10, "'double' does not match parameter 'x' (const float*) (expected float (float32))"),
    ("x: in int[n]", 10, "'int' does not match parameter 'x'"),
    ("x: in flot[n]", 10, "unknown type 'flot' (expected a C element type such as float"),
    ("x: in float n", 17, "missing [LENGTH] after the element type"),
    ("x: in [n]", 10, "missing element type"),
    ("x: in float[n", 15, "unclosed '['"),
    ("x: in float[n*]", 18, "unexpected end of expression"),
    ("x: in float[n*(2]", 20, "unexpected end of expression (expected ')')"),
    ("x: in float[]", 16, "empty expression"),
    ("x: in float[m]", 16, "unknown size symbol 'm' (expected one of: n)"),
    ("x: in float[2*n + nn]", 22, "unknown size symbol 'nn' (expected one of: n; did you mean 'n'?)"),
])
def test_bad_array_lines(line, column, fragment):
    assert_error(cuda(*replaced("x", line)), 3, column, fragment)


def test_unknown_type_suggests_a_spelling():
    assert "did you mean 'float'?" in error(cuda(*replaced("x", "x: in flot[n]"))).expected


FILL_SIGNATURE = "const float* x, const int* keys, const unsigned char* c, float* y, int n"


@pytest.mark.parametrize("line, column, fragment", [
    ("keys: in int[n] uniform(0,1)", 20,
     "uniform fills float arrays; 'keys' is int32 (expected range(lo,hi) or const(v))"),
    ("keys: in int[n] normal(0,1)", 20, "normal fills float arrays"),
    ("x: in float[n] range(0,10)", 19, "range fills integer arrays; 'x' is float32 (expected uniform(lo,hi), normal"),
    ("x: in float[n] uniform(1)", 19, "uniform takes 2 arguments (lo, hi), got 1 (expected uniform(lo,hi))"),
    ("x: in float[n] const(1, 2)", 19, "const takes 1 argument (v), got 2"),
    ("x: in float[n] const()", 19, "const takes 1 argument (v), got 0"),
    ("x: in float[n] unifrom(-1,1)", 19, "unknown fill 'unifrom' (expected one of: uniform, normal, range, const; "
                                         "did you mean 'uniform'?)"),
    ("x: in float[n] random", 19, "bad fill 'random'"),
    ("x: in float[n] uniform(1,-1)", 19, "has lo > hi"),
    ("x: in float[n] normal(0,-1)", 19, "normal std is negative"),
    ("x: in float[n] uniform(-1,n)", 30, "fill arguments are numbers, not symbols ('n')"),
    ("x: in float[n] uniform(-1,)", 30, "empty expression"),
    ("keys: in int[n] range(5,5)", 20, "range(5,5) is empty"),
    ("keys: in int[n] range(0,1.5)", 20, "needs integer arguments"),
    ("keys: in int[n] const(0.5)", 20, "needs integer arguments"),
    ("c: in unsigned char[n] range(0,257)", 27, "range values do not fit 'c' (uint8) (expected values from 0 to 255)"),
    ("c: in unsigned char[n] const(-1)", 27, "const values do not fit 'c' (uint8)"),
])
def test_bad_fills(line, column, fragment):
    key = line.split(":")[0]
    lines = ["sizes: n=64", "x: in float[n]", "keys: in int[n]", "c: in unsigned char[n]", "y: out float[n]",
             "launch: grid=1 block=n"]
    index = next(i for i, entry in enumerate(lines) if entry.startswith(f"{key}:"))
    lines[index] = line
    assert_error(cuda(*lines, signature=FILL_SIGNATURE), index + 2, column, fragment)


def test_fill_on_an_out_array():
    assert_error(cuda(*replaced("y", "y: out float[n] const(0)")), 4, 20,
                 "'y' is out: it is poisoned before each run and takes no fill (expected no fill, or direction inout)")


@pytest.mark.parametrize("launch, column, fragment", [
    ("launch: grid=cdiv(n,,256) block=256", 24, "unexpected ','"),
    ("launch: grid=cdiv(m,256) block=256", 22, "unknown size symbol 'm'"),
    ("launch: grid=() block=256", 17, "grid has no dimensions (expected 1 to 3: E or (E,E[,E]))"),
    ("launch: grid=cdiv(n,256) block=(1,1,1,1)", 42, "block has 4 dimensions (expected at most 3: (x,y,z))"),
    ("launch: grid=(n,,2) block=256", 20, "empty expression"),
    ("launch: grid=(n,2 block=256", 19, "unexpected ','"),
    ("launch: grid=cdiv(n,256) block=(64,32)", 36, "a block of 2048 threads at n=1024 (expected at most 1024"),
    ("launch: grid=cdiv(n,256) block=2048", 35, "block.x = 2048 = 2048 at n=1024 (expected an integer from 1 to 1024)"),
    ("launch: grid=cdiv(n,256) block=(32,1,128)", 41,
     "block.z = 128 = 128 at n=1024 (expected an integer from 1 to 64)"),
    ("launch: grid=n/2048 block=256", 17, "grid.x = n/2048 = 0 at n=1024 (expected an integer from 1 to"),
    ("launch: grid=n/2.0 block=256", 17, "grid.x = n/2.0 = 512.0 at n=1024"),
    ("launch: grid=1 block=256 smem=n-2048", 34, "smem = n-2048 = -1024 at n=1024 (expected an integer >= 0)"),
    ("launch: grid=1 block=256 smem=(4,4)", 36, "unexpected ','"),
    ("launch: grid=1 block=n/0", 26, "division by zero in 'n/0'"),
    ("launch: grd=cdiv(n,256) block=256", 12, "unknown launch setting 'grd' (expected one of: grid, block, smem; "
                                              "did you mean 'grid'?)"),
    ("launch: grid=cdiv(n,256)", 12, "launch has no block="),
    ("launch: grid=1 grid=2 block=256", 19, "launch setting 'grid' is given twice"),
    ("launch: cdiv(n,256) 256", 12, "cannot read 'cdiv(n,256) 256' in launch"),
])
def test_bad_launch(launch, column, fragment):
    assert_error(cuda(*replaced("launch", launch)), 6, column, fragment)


def test_launch_must_hold_at_every_check_size():
    assert_error(cuda(*replaced("launch", "launch: grid=cdiv(n,256)-1 block=256"), "check: n=100"), 6, 17,
                 "grid.x = cdiv(n,256)-1 = 0 at n=100")


def test_tuples_pad_to_three_dimensions_and_a_parenthesised_expression_is_one():
    contract = parse(cuda(*replaced("launch", "launch: grid=(cdiv(n,16),(n+1)/2) block=(n/64)")))
    assert contract.launch.grid == ["cdiv(n,16)", "(n+1)/2"]
    assert contract.launch.block == ["n/64"]
    resolved = resolve(contract, {})
    assert (resolved.grid, resolved.block) == ((64, 512, 1), (16, 1, 1))


def test_lengths_may_be_zero_but_not_negative():
    assert resolve(parse(cuda(*replaced("y", "y: out float[n-4]"), "check: n=4")), {"n": 4}).lengths["y"] == 0
    assert_error(cuda(*replaced("y", "y: out float[n-8]"), "check: n=4"), 4, 17,
                 "the length of 'y' = n-8 = -4 at n=4 (expected an integer >= 0)")


@pytest.mark.parametrize("key, value, column", [("tol", "abc", 9), ("tol", "0", 9), ("tol", "-1e-5", 9),
                                                 ("tol", "1e-5 2", 9), ("atol", "inf", 10)])
def test_tolerance_must_be_a_positive_number(key, value, column):
    assert_error(cuda(*VALID, f"{key}: {value}"), 7, column,
                 f"{key} must be a positive number, got '{value}' (expected a positive float such as 1e-5)")


def test_flops_and_bytes_are_checked_expressions():
    assert_error(cuda(*VALID, "flops: 2*n*k"), 7, 15, "unknown size symbol 'k'")
    assert_error(cuda(*VALID, "flops: n-2000"), 7, 11, "flops = n-2000 = -976 at n=1024 (expected a number >= 0)")
    assert_error(cuda(*VALID, "bytes: n*4.5"), 7, 11, "bytes = n*4.5 = 4608.0 at n=1024 (expected an integer >= 0)")


TEMPLATE = "template <typename T, int BLOCK>\n"
TEMPLATE_LINES = ["sizes: n=64", "x: in T[n]", "y: out T[n]", "launch: grid=1 block=BLOCK"]


def template_source(*extra: str, header: str = TEMPLATE) -> str:
    return cuda(*extra, *TEMPLATE_LINES, signature="const T* x, T* y, int n", header=header)


def test_template_kernel_without_template_line():
    found = assert_error(template_source(), 1, 4, "template kernel 'k' has no template: line")
    assert found.expected == "`template: T=... BLOCK=...` naming every template parameter"


def test_template_line_missing_a_parameter():
    found = assert_error(template_source("template: T=float"), 2, 4, "template parameter 'BLOCK' has no value")
    assert found.expected == "every template parameter named: T, BLOCK"


def test_template_line_with_an_extra_parameter():
    found = assert_error(template_source("template: T=float BLOCK=256 WARP=32"), 2, 32,
                         "'WARP' is not a template parameter of 'k'")
    assert found.expected == "one of: T, BLOCK"


@pytest.mark.parametrize("line, column, fragment", [
    ("template: T=float BLOCK=big", 28, "template parameter 'BLOCK' (int) needs an integer, got 'big'"),
    ("template: T=float BLOCK=", 28, "template parameter 'BLOCK' has no value"),
    ("template: T=float T=int BLOCK=1", 22, "template parameter 'T' is given twice"),
    ("template: float 256", 14, "cannot read 'float 256' in template"),
])
def test_bad_template_values(line, column, fragment):
    assert_error(template_source(line), 2, column, fragment)


def test_columns_count_characters():
    assert_error(template_source("template: T=ünknown BLOCK=big"), 2, 30, "'BLOCK' (int) needs an integer")


def test_template_type_must_match_the_array_type():
    assert_error(template_source("template: T=double BLOCK=32").replace("x: in T[n]", "x: in float[n]"), 4, 10,
                 "'float' does not match parameter 'x' (const T*) (expected T (float64))")


def test_template_line_for_a_kernel_that_is_not_a_template():
    assert_error(cuda(*VALID, "template: T=float"), 7, 4, "kernel 'k' is not a template")


def test_size_symbol_named_like_a_template_parameter():
    assert_error(template_source("template: T=float BLOCK=32").replace("sizes: n=64", "sizes: n=64 BLOCK=3"),
                 3, 16, "size symbol 'BLOCK' is also a template parameter")


def test_scalar_param_without_a_value():
    found = assert_error(cuda(*replaced("eps", None)), 7, 45, "scalar parameter 'eps' has no value")
    assert found.expected == "a line `eps: VALUE` in the @optiml block"


def test_int_param_that_is_not_a_size_symbol_needs_a_line():
    source = cuda(*VALID, signature=SIGNATURE + ", int stride")
    found = assert_error(source, 8, 63, "integer parameter 'stride' has no value and is not a size symbol")
    assert found.expected == "`stride: VALUE` in the @optiml block, or `stride=...` in its sizes:"
    assert parse(cuda(*VALID, "stride: n+1", signature=SIGNATURE + ", int stride")).scalars[-1] == ScalarSpec(
        param="stride", dtype="int32", value="n+1")


def test_int_param_bound_to_a_symbol_that_is_not_a_size():
    assert_error(cuda(*VALID, "stride: m", signature=SIGNATURE + ", int stride"), 7, 12,
                 "unknown size symbol 'm' (expected one of: n)")


@pytest.mark.parametrize("line, column, fragment", [
    ("stride: n/2.5", 12, "'stride' (int32) = n/2.5 = 409.6 at n=1024 (expected an integer from -2147483648"),
    ("stride: in int[n]", 12, "'stride' is a scalar (int), not an array (expected an expression"),
])
def test_bad_scalar_values(line, column, fragment):
    assert_error(cuda(*VALID, line, signature=SIGNATURE + ", int stride"), 7, column, fragment)


def test_scalar_value_must_fit_its_type_even_when_bound_to_a_size():
    assert_error(cuda(*VALID, "k: 0-1", signature=SIGNATURE + ", unsigned k"), 7, 7,
                 "'k' (uint32) = 0-1 = -1 at n=1024 (expected an integer from 0 to 4294967295)")
    assert_error(cuda("sizes: n=300", "launch: grid=1 block=1", signature="unsigned char n"), 5, 19,
                 "'n' (uint8) = n = 300 at n=300 (expected an integer from 0 to 255)")


def test_parameters_of_types_the_harness_cannot_handle():
    assert_error(cuda(*VALID, "p: 1", signature=SIGNATURE + ", Params p"), 7, 7,
                 "parameter 'p' has type 'Params', which OptiML cannot pass")
    assert_error(cuda(*replaced("x", "x: in float[4*n]"), signature="const float4* x, float* y, float eps, int n"),
                 3, 10, "parameter 'x' has type 'const float4*', whose elements OptiML cannot fill")


def test_empty_block():
    assert_error(f"/* @optiml */\n__global__ void k({SIGNATURE}) {{ }}\n", 1, 4, "empty @optiml block")
    assert_error(f"/* @optiml\n   # nothing yet\n*/\n__global__ void k({SIGNATURE}) {{ }}\n", 1, 4,
                 "empty @optiml block (expected `sizes:` and `launch:` lines")


def test_unterminated_block():
    kernel = kernel_of(cuda(*VALID))
    assert kernel.comment is not None
    cut = kernel.comment.model_copy(update={"text": kernel.comment.text.removesuffix("*/")})
    with pytest.raises(OptimlError) as info:
        parse_contract(kernel.model_copy(update={"comment": cut}), "k.cu")
    assert (info.value.location.line, info.value.location.column) == (1, 1)
    assert "unterminated @optiml block (expected '*/' closing the comment)" in str(info.value)


def test_first_line_columns_count_from_where_the_comment_starts():
    source = "    /* @optiml sizes: n=0 */\n__global__ void k(float* y, int n) { }\n"
    assert_error(source, 1, 25, "size 'n' must be a positive integer, got '0'")


def test_error_string_format():
    assert str(error(cuda(*replaced("x", "x: in float[colz]")))) == (
        "k.cu:3:16: error: unknown size symbol 'colz' (expected one of: n)")


# ---------------------------------------------------------------------------------------------------------------
# Resolution


LAYERNORM = cuda("sizes: rows=64 cols=1024", "check: rows=37", "x: in float[rows*cols]", "y: out float[rows*cols]",
                 "s: inout double[cols]", "eps: 1e-5", "launch: grid=cdiv(rows,128) block=(32,4) smem=cols*4",
                 "flops: 5*rows*cols", signature="const float* x, float* y, double* s, float eps, int rows, int cols")


def test_resolve_at_the_benchmark_size_and_a_partial_binding():
    contract = parse(LAYERNORM)
    at_sizes = resolve(contract, {})
    assert at_sizes.binding == {"rows": 64, "cols": 1024}
    assert at_sizes.lengths == {"x": 65536, "y": 65536, "s": 1024}
    assert at_sizes.scalars == {"eps": 1e-5, "rows": 64, "cols": 1024}
    assert type(at_sizes.scalars["eps"]) is float and type(at_sizes.scalars["rows"]) is int
    assert (at_sizes.grid, at_sizes.block, at_sizes.smem) == ((1, 1, 1), (32, 4, 1), 4096)
    assert at_sizes.flops == 5.0 * 65536
    # in read once, out written once, inout both
    assert at_sizes.bytes == 65536 * 4 + 65536 * 4 + 2 * 1024 * 8

    tiny = resolve(contract, {"rows": 200, "cols": 3})
    assert tiny.lengths == {"x": 600, "y": 600, "s": 3}
    assert (tiny.grid, tiny.smem) == ((2, 1, 1), 12)
    assert resolve(contract, contract.checks[0]).binding == {"rows": 37, "cols": 1024}


def test_bytes_override():
    assert resolve(parse(cuda(*VALID, "bytes: 3*n*4")), {"n": 10}).bytes == 120


def test_no_flops_resolves_to_none():
    assert resolve(parse(cuda(*VALID)), {}).flops is None


def test_resolve_rejects_bad_bindings_at_the_block():
    contract = parse(LAYERNORM)
    for binding, fragment in [({"colz": 3}, "unknown size symbol 'colz'"),
                              ({"rows": 0}, "size 'rows' must be a positive integer, got 0"),
                              ({"rows": 2.5}, "got 2.5"), ({"rows": True}, "got True")]:
        with pytest.raises(OptimlError) as info:
            resolve(contract, binding)
        assert info.value.location == contract.location
        assert fragment in str(info.value)


def test_resolve_checks_values_at_new_bindings():
    contract = parse(cuda(*replaced("launch", "launch: grid=1 block=min(n,2048)"), "check: n=1"))
    assert resolve(contract, {"n": 1000}).block == (1000, 1, 1)
    with pytest.raises(OptimlError, match=r"block.x = min\(n,2048\) = 2000 at n=2000"):
        resolve(contract, {"n": 2000})


# ---------------------------------------------------------------------------------------------------------------
# Examples


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.cu")), ids=lambda p: p.name)
def test_every_example_contract_parses_and_resolves(path):
    contracts = [parse_contract(k, str(path)) for k in parse_source(path.read_text(), str(path)).kernels if k.comment
                 and "@optiml" in k.comment.text]
    assert contracts, f"{path.name} has no @optiml contract"
    for contract in contracts:
        for binding in [contract.sizes, *contract.checks]:
            resolved = resolve(contract, binding)
            assert resolved.binding == binding
            assert all(length > 0 for length in resolved.lengths.values())
