"""The CUDA source model: kernels, launch sites, device items, syntax problems, incremental edits, compile units."""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap

import pytest

from optiml_engine.model import OptimlError, Position
from optiml_engine.source.parse import CudaDocument, parse_source

PATH = "kernels/demo.cu"


def cuda(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# A file in the shape real ones have: host and device headers, macros, constant memory, helpers used and unused,
# contracts as block and line comments, a template kernel, C linkage, a namespace, launch bounds, host code.
DEMO = cuda(
    r"""
    #include <cstdio>
    #include <cuda_runtime.h>
    #include <cuda_fp16.h>

    #define BLOCK 256
    #define SQUARE(x) ((x) * (x))
    #define SHAPE(v) shaped_square(v)
    #define UNUSED_LIMIT 42

    __constant__ float scale_table[4];
    __constant__ float unused_table[4];

    int host_calls = 0;

    __device__ __forceinline__ float shaped_square(float v) {
        return SQUARE(v) * scale_table[0];
    }

    __device__ float unrelated_helper(float v) { return v + UNUSED_LIMIT + unused_table[1]; }

    static void log_launch(const char* name) { printf("%s\n", name); ++host_calls; }

    __global__ void prototype_only(float* x, int n);

    /* @optiml
       sizes:  n=1048576
       x:      in  float[n]
       y:      out float[n]
       launch: grid=cdiv(n,256) block=256
    */
    __global__ void shape_values(const float* __restrict__ x, float* __restrict__ y, int n) {
        int i = blockIdx.x * BLOCK + threadIdx.x;
        if (i < n) {
            y[i] = SHAPE(x[i]);  // the macro calls a device function that reads constant memory
        }
    }

    // Section: reductions
    // -------------------

    // @optiml
    // sizes:  rows=64 cols=1000
    // x:      in float[rows*cols]
    // out:    out float[rows]
    // launch: grid=rows block=256 smem=256*4
    __global__ void row_sum(float const* x, float* out, int rows, int cols) {
        extern __shared__ float partial[];
        float acc = 0.0f;
        for (int c = threadIdx.x; c < cols; c += blockDim.x) acc += x[blockIdx.x * cols + c];
        partial[threadIdx.x] = acc;
        __syncthreads();
        if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
    }

    /* @optiml
       sizes:    n=4096
       template: T=float VEC=4
       a:        in  T[n]
       b:        out T[n]
       launch:   grid=cdiv(n,1024) block=256
    */
    template <typename T, int VEC = 4>
    __global__ void copy_vec(const T* __restrict__ a, T* __restrict__ b, int n) {
        int base = (blockIdx.x * blockDim.x + threadIdx.x) * VEC;
        for (int v = 0; v < VEC; ++v) {
            if (base + v < n) b[base + v] = a[base + v];
        }
    }

    extern "C" __global__ void c_linkage_fill(float* out, float value, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) out[i] = value;
    }

    namespace ops {
    __device__ float twice(float v) { return 2.0f * v; }

    __global__ void inner_double(const float* const x, float* const y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = twice(x[i]);
    }

    void host_in_namespace() { printf("host\n"); }
    }  // namespace ops

    static __global__ void __launch_bounds__(128, 4) bounded(unsigned char* bytes, float * __restrict bias, size_t n) {
        size_t i = blockIdx.x * 128 + threadIdx.x;
        if (i < n) bytes[i] = (unsigned char)(bias[0] * i);
    }

    int main() {
        float *x, *y;
        int n = 1 << 20;
        cudaStream_t stream;
        cudaStreamCreate(&stream);
        shape_values<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n);
        row_sum<<<64, 256, 256 * sizeof(float), stream>>>(x, y, 64, 1000);
        copy_vec<float, 4><<<dim3(n / 1024), dim3(256), 0, stream>>>(x, y, n);
        ops::inner_double<<<n / 256, 256>>>(x, y, n);
        log_launch("done");
        return 0;
    }
    """
)


@pytest.fixture(scope="module")
def demo():
    return parse_source(DEMO, PATH)


def text_of(span, source: str = DEMO) -> str:
    return source.encode()[span.start_byte:span.end_byte].decode()


def line_of(needle: str, source: str = DEMO) -> int:
    """1-based line of the first line that contains `needle`."""
    return next(number for number, line in enumerate(source.splitlines(), 1) if needle in line)


# ---------------------------------------------------------------------------------------------------------------
# Kernels


def test_every_kernel_definition_is_found_and_prototypes_are_not(demo):
    assert [k.name for k in demo.kernels] == [
        "shape_values", "row_sum", "copy_vec", "c_linkage_fill", "inner_double", "bounded",
    ]


@pytest.mark.parametrize(
    "kernel, expected",
    [
        ("shape_values", [
            ("x", "const float* __restrict__", "float", True, True, True),
            ("y", "float* __restrict__", "float", True, False, True),
            ("n", "int", "int", False, False, False),
        ]),
        ("row_sum", [
            ("x", "float const*", "float", True, True, False),
            ("out", "float*", "float", True, False, False),
            ("rows", "int", "int", False, False, False),
            ("cols", "int", "int", False, False, False),
        ]),
        ("copy_vec", [
            ("a", "const T* __restrict__", "T", True, True, True),
            ("b", "T* __restrict__", "T", True, False, True),
            ("n", "int", "int", False, False, False),
        ]),
        ("inner_double", [
            ("x", "const float* const", "float", True, True, False),
            ("y", "float* const", "float", True, False, False),
            ("n", "int", "int", False, False, False),
        ]),
        ("bounded", [
            ("bytes", "unsigned char*", "unsigned char", True, False, False),
            ("bias", "float * __restrict", "float", True, False, True),
            ("n", "size_t", "size_t", False, False, False),
        ]),
    ],
)
def test_params(demo, kernel, expected):
    params = demo.kernel(kernel).params
    assert [(p.name, p.type_text, p.base_type, p.is_pointer, p.is_const, p.is_restrict) for p in params] == expected
    assert all(text_of(p.span).startswith(p.type_text[:5]) and p.name in text_of(p.span) for p in params)


def test_template_params_launch_bounds_and_spans(demo):
    copy_vec = demo.kernel("copy_vec")
    assert [(t.name, t.kind, t.default) for t in copy_vec.template_params] == [("T", "typename", None),
                                                                              ("VEC", "int", "4")]
    assert text_of(copy_vec.span).startswith("template <typename T, int VEC = 4>\n__global__ void copy_vec(")
    assert text_of(copy_vec.span).endswith("}")
    assert text_of(copy_vec.name_span) == "copy_vec"
    assert copy_vec.name_span.start.line + 1 == line_of("__global__ void copy_vec(")
    assert text_of(copy_vec.body_span).startswith("{\n    int base")

    bounded = demo.kernel("bounded")
    assert bounded.launch_bounds == "128, 4"
    assert text_of(bounded.span).startswith("static __global__ void __launch_bounds__(128, 4) bounded(")
    assert demo.kernel("shape_values").launch_bounds is None
    assert demo.kernel("c_linkage_fill").params[1].name == "value"


def test_comment_blocks(demo):
    shape_values = demo.kernel("shape_values").comment
    assert shape_values.text.startswith("/* @optiml\n   sizes:  n=1048576")
    assert shape_values.text.endswith("*/")
    assert text_of(shape_values.span) == shape_values.text
    assert shape_values.span.start.line + 1 == line_of("/* @optiml")

    # a run of line comments; the section header above it is separated by a blank line
    row_sum = demo.kernel("row_sum").comment
    assert row_sum.text.splitlines() == [
        "// @optiml",
        "// sizes:  rows=64 cols=1000",
        "// x:      in float[rows*cols]",
        "// out:    out float[rows]",
        "// launch: grid=rows block=256 smem=256*4",
    ]
    assert "template: T=float VEC=4" in demo.kernel("copy_vec").comment.text  # above the template header
    assert demo.kernel("c_linkage_fill").comment is None
    assert demo.kernel("bounded").comment is None  # `}  // namespace ops` trails the namespace


@pytest.mark.parametrize(
    "source, expected",
    [
        ("/* doc */\n\n\n__global__ void k() {}\n", "/* doc */"),       # blank lines before the kernel are fine
        ("// a\n// b\n\n// c\n// d\n__global__ void k() {}\n", "// c\n// d"),  # a blank line ends the block
        ("int x = 1; // about x\n__global__ void k() {}\n", None),       # trails code: not the kernel's
        ("int x = 1; // about x\n// doc\n__global__ void k() {}\n", "// doc"),
        ("/* a */ /* b */\n__global__ void k() {}\n", "/* a */ /* b */"),
        ("// doc\nextern \"C\" __global__ void k() {}\n", "// doc"),
        ("extern \"C\" {\n// doc\n__global__ void k() {}\n}\n", "// doc"),
        ("// doc\ntemplate <int N>\n__global__ void k() {}\n", "// doc"),
    ],
)
def test_comment_block_rules(source, expected):
    comment = parse_source(source, PATH).kernel("k").comment
    assert (comment and comment.text) == expected


def test_kernels_in_namespaces_and_linkage_blocks():
    document = CudaDocument(
        cuda(
            """
            namespace outer::inner { __global__ void nested(int* p) { p[0] = 1; } }
            namespace { __global__ void anonymous(int* p) { p[0] = 2; } }
            extern "C" {
            __global__ void first(int* p) { p[0] = 3; }
            void host_side() {}
            __global__ void second(int* p) { p[0] = 4; }
            }
            """
        ),
        PATH,
    )
    assert [k.name for k in document.model.kernels] == ["nested", "anonymous", "first", "second"]
    assert [(item.kind, item.defines) for item in document.model.device_items] == [
        ("namespace", ["outer", "inner", "nested"]),
        ("namespace", ["anonymous"]),
        ("kernel", ["first"]),       # a linkage block is no scope: its kernels are top-level items
        ("kernel", ["second"]),
    ]
    assert document.compile_unit("nested", {}).name_expression == "outer::inner::nested"
    assert document.compile_unit("anonymous", {}).name_expression == "anonymous"


# ---------------------------------------------------------------------------------------------------------------
# Launch sites


def test_launch_sites(demo):
    sites = {site.kernel: site for site in demo.launch_sites}
    assert list(sites) == ["shape_values", "row_sum", "copy_vec", "inner_double"]

    plain = sites["shape_values"]
    assert (plain.grid, plain.block, plain.smem, plain.stream) == ("(n + BLOCK - 1) / BLOCK", "BLOCK", None, None)
    assert plain.args == ["x", "y", "n"]
    assert plain.template_args is None
    assert plain.in_function == "main"
    assert text_of(plain.span) == "shape_values<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, y, n)"
    assert plain.span.start.line + 1 == line_of("shape_values<<<")

    four = sites["row_sum"]
    assert (four.grid, four.block, four.smem, four.stream) == ("64", "256", "256 * sizeof(float)", "stream")

    templated = sites["copy_vec"]
    assert templated.template_args == "float, 4"
    assert (templated.grid, templated.block, templated.smem) == ("dim3(n / 1024)", "dim3(256)", "0")

    assert sites["inner_double"].args == ["x", "y", "n"]


def test_launch_sites_outside_functions_and_in_comments():
    model = parse_source(
        cuda(
            """
            // k<<<1, 1>>>() in a comment is no launch
            struct Runner { void run() { k<<<1, 32>>>(); } };
            const char* text = "k<<<1, 1>>>()";
            """
        ),
        PATH,
    )
    assert [(site.kernel, site.block, site.in_function) for site in model.launch_sites] == [("k", "32", "run")]


# ---------------------------------------------------------------------------------------------------------------
# Device items


def test_device_items_in_file_order_without_host_code(demo):
    items = [(item.kind, item.defines) for item in demo.device_items]
    assert items == [
        ("include", []),                  # cuda_fp16.h; cstdio and cuda_runtime.h are host headers
        ("macro", ["BLOCK"]),
        ("macro", ["SQUARE"]),
        ("macro", ["SHAPE"]),
        ("macro", ["UNUSED_LIMIT"]),
        ("variable", ["scale_table"]),
        ("variable", ["unused_table"]),
        ("device_function", ["shaped_square"]),
        ("device_function", ["unrelated_helper"]),
        ("kernel", ["prototype_only"]),
        ("kernel", ["shape_values"]),
        ("kernel", ["row_sum"]),
        ("kernel", ["copy_vec"]),
        ("kernel", ["c_linkage_fill"]),
        ("namespace", ["ops", "twice", "inner_double"]),
        ("kernel", ["bounded"]),
    ]
    by_name = {item.defines[0]: item for item in demo.device_items if item.defines}
    assert by_name["SQUARE"].uses == []                     # its parameter is not a use
    assert by_name["SHAPE"].uses == ["shaped_square"]
    assert {"SQUARE", "scale_table"} <= set(by_name["shaped_square"].uses)
    assert {"BLOCK", "SHAPE", "blockIdx", "threadIdx"} <= set(by_name["shape_values"].uses)
    assert "shaped_square" not in by_name["shape_values"].uses  # only the macro names it, in its body
    assert "twice" not in by_name["ops"].uses                   # defined inside the namespace
    assert "const" not in by_name["row_sum"].uses and "x" in by_name["row_sum"].uses
    assert text_of(by_name["ops"].span).startswith("namespace ops {")
    assert text_of(by_name["ops"].span).endswith("}")


def test_device_item_kinds():
    source = cuda(
        """
        #include <mma.h>
        #include "local_helpers.h"
        #pragma nv_diag_suppress 177
        using namespace nvcuda;
        namespace cg = cooperative_groups;
        constexpr int TILE = 32;
        const int ROWS = 4;
        const char* host_names[] = {"a"};
        static __device__ int counter;
        extern __shared__ float dynamic_smem[];
        __managed__ int managed_flag;
        struct Pair { float a, b; };
        typedef struct { int v; } Boxed;
        enum Mode { FAST = 1, SLOW };
        using real = float;
        template <typename T> struct Vec2 { T x, y; };
        template <typename T> __device__ T clamp01(T v) { return v < 0 ? 0 : v > 1 ? 1 : v; }
        __host__ __device__ inline int add_one(int v) { return v + 1; }
        __host__ int host_only(int v) { return v; }
        #ifdef USE_FAST
        #define PATH_NAME FAST
        #else
        #define PATH_NAME SLOW
        #endif
        #if 0
        int host_debug() { return 0; }
        #endif
        static_assert(TILE % 32 == 0, "tile");
        """
    )
    items = [(item.kind, item.defines, item.uses) for item in parse_source(source, PATH).device_items]
    assert items == [
        ("include", [], []),
        ("other", [], ["nv_diag_suppress"]),
        ("other", [], ["nvcuda"]),
        ("other", ["cg"], ["cooperative_groups"]),
        ("variable", ["TILE"], []),
        ("variable", ["ROWS"], []),
        ("variable", ["counter"], []),
        ("variable", ["dynamic_smem"], []),
        ("variable", ["managed_flag"], []),
        ("type", ["Pair"], ["a", "b"]),
        ("type", ["Boxed"], ["v"]),
        ("type", ["Mode", "FAST", "SLOW"], []),
        ("type", ["real"], []),
        ("type", ["Vec2"], ["T", "x", "y"]),
        ("device_function", ["clamp01"], ["T", "v"]),
        ("device_function", ["add_one"], ["v"]),
        ("conditional", ["PATH_NAME"], ["FAST", "SLOW", "USE_FAST"]),
        ("other", [], ["TILE"]),
    ]


# ---------------------------------------------------------------------------------------------------------------
# Syntax problems


def test_syntax_error_is_located_and_other_kernels_survive():
    source = cuda(
        """
        __global__ void before(float* x) { x[0] = 1.0f; }

        __global__ void broken(float* x) {
            float v = ;
        }

        @@@ stray text

        __global__ void after(float* y) { y[0] = 2.0f; }
        """
    )
    model = parse_source(source, PATH)
    assert [k.name for k in model.kernels] == ["before", "broken", "after"]
    assert model.syntax_problems
    locations = [(p.location.file, p.location.line) for p in model.syntax_problems]
    assert (PATH, 4) in locations and (PATH, 7) in locations
    assert any(p.message == "unexpected '@@@'" and p.location.column == 1 for p in model.syntax_problems)


def test_missing_token_is_reported():
    model = parse_source("__global__ void k(float* x) {\n    x[0] = 1.0f;\n", PATH)
    [problem] = model.syntax_problems
    assert problem.message == "missing '}'"
    assert problem.location.line == 2
    assert [k.name for k in model.kernels] == ["k"]


def test_columns_of_problems_count_characters():
    model = parse_source("/* é */ @@@\n", PATH)
    [problem] = model.syntax_problems
    assert (problem.location.line, problem.location.column) == (1, 9)


def test_python_text_is_no_cuda_and_no_crash():
    source = cuda(
        '''
        import numpy as np

        def softmax(x: np.ndarray) -> np.ndarray:
            """Row-wise softmax."""
            e = np.exp(x - x.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)

        if __name__ == "__main__":
            print(softmax(np.ones((2, 3))))
        '''
    )
    model = parse_source(source, "softmax.py")
    assert model.kernels == [] and model.launch_sites == []
    assert model.syntax_problems
    assert all(p.location.file == "softmax.py" and p.location.line >= 1 for p in model.syntax_problems)


def test_every_prefix_of_a_file_parses_without_crashing():
    """What an editor sees while a file is typed: any prefix gives a model and compile units or a located error."""
    for end in range(0, len(DEMO), 41):
        document = CudaDocument(DEMO[:end], PATH)
        for kernel in document.model.kernels:
            try:
                document.compile_unit(kernel.name, {"T": "float"} if kernel.template_params else {})
            except OptimlError as error:
                assert error.location.file == PATH


def test_empty_file():
    model = parse_source("", PATH)
    assert (model.kernels, model.launch_sites, model.device_items, model.syntax_problems) == ([], [], [], [])
    assert CudaDocument("", PATH).text == ""


# ---------------------------------------------------------------------------------------------------------------
# Incremental edits


def position_of(text: str, needle: str, offset: int = 0) -> Position:
    """0-based line and UTF-8 byte column of `needle` (plus `offset` bytes) in `text`."""
    byte = text.encode().index(needle.encode()) + offset
    before = text.encode()[:byte]
    return Position(line=before.count(b"\n"), column=byte - (before.rfind(b"\n") + 1))


def edit(document: CudaDocument, needle: str, replacement: str, length: int | None = None) -> None:
    """Replace `needle` (or the `length` bytes from its start) with `replacement` through apply_change."""
    text = document.text
    end = len(needle.encode()) if length is None else length
    document.apply_change(position_of(text, needle), position_of(text, needle, end), replacement)
    expected = text.replace(needle, replacement, 1) if length is None else None
    if expected is not None:
        assert document.text == expected
    assert document.model == parse_source(document.text, PATH)


def test_incremental_edits_match_a_fresh_parse():
    document = CudaDocument(DEMO, PATH)
    assert document.model == parse_source(DEMO, PATH)

    edit(document, "y[i] = SHAPE(x[i]);", "y[i] = SHAPE(x[i]) + 1.0f;")                  # within a line
    edit(document, "int rows, int cols) {", "int rows, int cols, float scale) {")        # a new parameter
    assert document.model.kernel("row_sum").params[-1].name == "scale"
    edit(document, "#define BLOCK 256\n", "#define BLOCK 128\n#define WARP 32\n\n")     # inserts lines
    edit(document, "    size_t i = blockIdx.x", "    // two\n    // lines\n    size_t i = blockIdx.x")

    start = DEMO.index('extern "C" __global__ void c_linkage_fill')
    end = DEMO.index("namespace ops {")
    edit(document, DEMO[start:end], "")                                                   # deletes a kernel
    assert "c_linkage_fill" not in [k.name for k in document.model.kernels]

    edit(document, "namespace ops {", "__global__ void added(int* p) { p[0] = 0; }\n\nnamespace ops {")
    assert "added" in [k.name for k in document.model.kernels]

    edit(document, "int main() {", "int main() {{")                                       # breaks the syntax
    assert document.model.syntax_problems
    edit(document, "int main() {{", "int main() {")                                       # and repairs it
    assert document.model.syntax_problems == []


def test_edits_use_utf8_byte_columns_and_clamp():
    source = "// héllo\n__global__ void k(float* x) { x[0] = 1.0f; }\n"
    document = CudaDocument(source, PATH)
    # "é" is two bytes: byte column 7 is after "// hél"
    document.apply_change(Position(line=0, column=7), Position(line=0, column=7), "X")
    assert document.text.startswith("// hélXlo\n")
    # an end past the line's end stops at the line's end; past the document's end, at the document's end
    document.apply_change(Position(line=0, column=3), Position(line=0, column=99), "note")
    assert document.text.startswith("// note\n__global__")
    document.apply_change(Position(line=0, column=4), Position(line=0, column=5), "é")
    assert document.text.startswith("// néte\n")
    # a column inside a character moves to its start: byte column 5 is the second byte of "é"
    document.apply_change(Position(line=0, column=5), Position(line=0, column=5), "X")
    assert document.text.startswith("// nXéte\n")
    document.apply_change(Position(line=5, column=0), Position(line=9, column=0), "__global__ void z() {}\n")
    assert [k.name for k in document.model.kernels] == ["k", "z"]
    assert document.model == parse_source(document.text, PATH)


# ---------------------------------------------------------------------------------------------------------------
# Compile units


def chunks(unit_text: str) -> list[tuple[int, str]]:
    """(line, text) of each `#line` chunk of a compile unit."""
    parts = re.split(r'^#line (\d+) "[^"\n]*"\n', unit_text, flags=re.MULTILINE)
    assert parts[0] == ""
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts), 2)]


def assert_lines_map_back(unit_text: str, source: str) -> None:
    """Every line of every chunk is the user's line that its `#line` says (the first one from its column on)."""
    source_lines = source.splitlines()
    for line, text in chunks(unit_text):
        for number, chunk_line in enumerate(text.splitlines(), line):
            column = len(chunk_line) - len(chunk_line.lstrip(" "))
            assert source_lines[number - 1][column:].startswith(chunk_line[column:].rstrip()), (number, chunk_line)


def test_compile_unit_holds_the_transitive_closure_only():
    unit = CudaDocument(DEMO, PATH).compile_unit("shape_values", {})
    assert unit.kernel == "shape_values" and unit.name_expression == "shape_values" and unit.path == PATH
    starts = [text.splitlines()[0] for _, text in chunks(unit.text)]
    assert starts == [
        "#include <cuda_fp16.h>",
        "#define BLOCK 256",
        "#define SQUARE(x) ((x) * (x))",
        "#define SHAPE(v) shaped_square(v)",               # kernel -> macro
        "__constant__ float scale_table[4];",              # device function -> constant
        "__device__ __forceinline__ float shaped_square(float v) {",  # macro -> device function
        "__global__ void shape_values(const float* __restrict__ x, float* __restrict__ y, int n) {",
    ]
    for absent in ("cstdio", "cuda_runtime", "UNUSED_LIMIT", "unused_table", "unrelated_helper", "host_calls",
                   "log_launch", "int main", "@optiml", "row_sum"):
        assert absent not in unit.text
    assert [line for line, _ in chunks(unit.text)] == [
        line_of("#include <cuda_fp16.h>"), line_of("#define BLOCK"), line_of("#define SQUARE"),
        line_of("#define SHAPE"), line_of("__constant__ float scale_table"), line_of("float shaped_square"),
        line_of("__global__ void shape_values"),
    ]
    assert_lines_map_back(unit.text, DEMO)


def test_compile_unit_of_a_kernel_in_a_namespace_keeps_the_namespace_not_its_host_code():
    unit = CudaDocument(DEMO, PATH).compile_unit("inner_double", {})
    assert unit.name_expression == "ops::inner_double"
    assert "namespace ops {" in unit.text and "__device__ float twice" in unit.text
    assert "host_in_namespace" not in unit.text and "main" not in unit.text
    assert_lines_map_back(unit.text, DEMO)


def test_compile_unit_of_template_kernel():
    document = CudaDocument(DEMO, PATH)
    assert document.compile_unit("copy_vec", {"T": "float", "VEC": "8"}).name_expression == "copy_vec<float, 8>"
    assert document.compile_unit("copy_vec", {"T": "__half"}).name_expression == "copy_vec<__half>"

    with pytest.raises(OptimlError) as missing:
        document.compile_unit("copy_vec", {"VEC": "8"})
    assert missing.value.location.line == line_of("__global__ void copy_vec(")
    assert missing.value.location.column == len("__global__ void ") + 1
    assert "'T'" in missing.value.message

    with pytest.raises(OptimlError) as unknown:
        document.compile_unit("copy_vec", {"T": "float", "VECS": "8"})
    assert "'VECS'" in unknown.value.message and unknown.value.expected == "one of: T, VEC"

    with pytest.raises(OptimlError) as no_kernel:
        document.compile_unit("copy_vector", {})
    assert "copy_vector" in no_kernel.value.message and "copy_vec" in no_kernel.value.expected


def test_compile_unit_conditionals_linkage_and_free_items():
    source = cuda(
        """
        #include <mma.h>
        using namespace nvcuda;
        #ifdef USE_WIDE
        #define WIDTH 8
        #else
        #define WIDTH 4
        int host_only() { return 0; }
        #endif
        #define UNUSED 1
        #undef UNUSED
        static_assert(WIDTH > 0, "width");
        extern "C" {
        __global__ void widen(float* x) { x[0] = WIDTH; }
        void host_too() {}
        __global__ void other(float* x) { x[0] = 0; }
        }
        """
    )
    unit = CudaDocument(source, PATH).compile_unit("widen", {})
    body = re.sub(r'#line \d+ "[^"]*"\n', "", unit.text)
    assert body == cuda(
        """
        #include <mma.h>
        using namespace nvcuda;
        #ifdef USE_WIDE
        #define WIDTH 8
        #else
        #define WIDTH 4
        #endif
        static_assert(WIDTH > 0, "width");
        extern "C" {
        __global__ void widen(float* x) { x[0] = WIDTH; }
        }
        """
    )
    assert_lines_map_back(unit.text, source)


NVCC = shutil.which("nvcc")


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
@pytest.mark.parametrize(
    "kernel, template",
    [("shape_values", {}), ("row_sum", {}), ("copy_vec", {"T": "float", "VEC": "4"}), ("c_linkage_fill", {}),
     ("inner_double", {}), ("bounded", {})],
)
def test_compile_unit_compiles_with_nvcc(tmp_path, kernel, template):
    unit = CudaDocument(DEMO, PATH).compile_unit(kernel, template)
    text = unit.text
    if template:
        text += f"static void* optiml_instance = (void*)&{unit.name_expression};\n"
    source = tmp_path / "unit.cu"
    source.write_text(text)
    result = subprocess.run(
        [NVCC, "-arch=sm_90", "-cubin", "-o", str(tmp_path / "unit.cubin"), str(source)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "unit.cubin").stat().st_size > 0


@pytest.mark.skipif(NVCC is None, reason="nvcc is not on PATH")
def test_compiler_messages_point_at_the_users_file(tmp_path):
    source = DEMO.replace("y[i] = SHAPE(x[i]);", "y[i] = SHAPE(x[i]) + undefined_name;")
    unit = CudaDocument(source, PATH).compile_unit("shape_values", {})
    (tmp_path / "unit.cu").write_text(unit.text)
    result = subprocess.run(
        [NVCC, "-arch=sm_90", "-cubin", "-o", str(tmp_path / "unit.cubin"), str(tmp_path / "unit.cu")],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode != 0
    assert f"{PATH}({line_of('undefined_name', source)}): error" in result.stderr
