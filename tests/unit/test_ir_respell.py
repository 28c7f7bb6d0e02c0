"""Kernels the lifter reads once their text is spelled plainly (ir/respell.py) or their loop counts down
(lift.py's loop_down): each lifted program equals the kernel itself, compiled by g++ behind the CUDA shim (the real
preprocessor and C's own semantics), at sizes with partial blocks and single elements."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.emit import emit
from optiml_engine.ir.lift import lift
from optiml_engine.ir.program import Let, LoopProgram, NotLiftable
from optiml_engine.ir.respell import respelled
from optiml_engine.ir.schedule import defaults, shape_of
from tests.unit.test_ir_block_trees import lifted_equals_kernel as lifted_equal_at_its_checks
from tests.unit.test_ir_lift import candidate_of, run_at

ROWS = """{defines}
/* @optiml
   sizes: rows=256 cols=512
   check: rows=5 cols=37; rows=1 cols=1; rows=3 cols=2
   x: in float[rows*cols]
   y: out float[rows*cols]
   launch: grid=cdiv(rows,128) block=128
*/
__global__ void rows_kernel(const float* x, float* y, int rows, int cols)
{{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
{body}
}}
"""


def lifted_equals_kernel(text: str) -> LoopProgram:
    """The program lifted from `text`, checked equal to the kernel run on the CPU at every check size."""
    candidate = candidate_of("user.cu", text)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    for binding in ({"rows": 5, "cols": 37}, {"rows": 1, "cols": 1}, {"rows": 3, "cols": 2}):
        inputs, expected = run_at(candidate, program, binding)
        got = run_on_cpu(candidate, binding, inputs)
        found = compare(np, "y", got["y"], expected["y"], "float32", 1e-5, None)
        assert found.ok, f"{binding}: {found.reason}\n{program}"
    return program


@pytest.mark.parametrize("defines, body", [
    # A function-like macro for the index, as users write a 2-D or 3-D layout.
    ("#define AT(r, c) ((r) * cols + (c))",
     "    for (int c = 0; c < cols; ++c) y[AT(r, c)] = 2.0f * x[AT(r, c)];"),
    # Macros expanding into macros, and an object-like one whose value is an expression.
    ("#define ROW(r) ((size_t)(r) * cols)\n#define AT(r, c) (ROW(r) + (c))\n#define SCALE (1.0f + 1.0f)",
     "    for (int c = 0; c < cols; ++c) y[AT(r, c)] = SCALE * x[AT(r, c)];"),
    # No parentheses added: SQ(v + 1.0f) is v + 1.0f * v + 1.0f, as the preprocessor writes it.
    ("#define SQ(v) v * v",
     "    for (int c = 0; c < cols; ++c) y[r * cols + c] = SQ(x[r * cols + c] + 1.0f);"),
    # An object-like macro naming a function.
    ("#define SCALED(v) (TWICE * (v))\n#define TWICE 2.0f\n#define ABS fabsf",
     "    for (int c = 0; c < cols; ++c) y[r * cols + c] = ABS(SCALED(x[r * cols + c]));"),
    # BLAS-style accessors named as their arrays: the array's name in the value stays (one expansion), and the
    # parenthesized arguments, `(r) + ...` parsing as a cast of `+...` to a type `r`, are read as the sums they are.
    ("#define x(i, j) x[(i) * cols + (j)]\n#define y(i, j) y[(i) + (size_t)(j) * rows]",
     "    for (int c = 0; c < cols; ++c) y(r, c) = 2.0f * x(r, c);"),
    # The same parentheses written by hand.
    ("", "    for (int c = 0; c < cols; ++c) y[(r) * cols + (c)] = x[(c) + (r) * cols] - (c);"),
    # A value followed by a comment on its line, as libraries document their constants: the comment is no part of it.
    ("#define SCALE (1.0f + 1.0f)   // twice, /* as written */\n#define AT(r, c) ((r) * cols + (c))  /* row-major */",
     "    for (int c = 0; c < cols; ++c) y[AT(r, c)] = SCALE * x[AT(r, c)];"),
    # An argument spanning lines: the lines after it stay where they were.
    ("#define AT(r, c) ((r) * cols + (c))",
     "    for (int c = 0; c < cols; ++c)\n        y[AT(r,\n             c)] = x[AT(r, c)];"),
])
def test_macros_are_expanded_as_the_preprocessor_does(defines, body):
    lifted_equals_kernel(ROWS.format(defines=defines, body=body))


def test_a_comparison_parsed_as_a_template_is_read_as_a_comparison():
    """`c < cols && c2 >= 0` parses as `c<cols && c2> = 0` (a template and an assignment): `c` is a local, so the
    comparison is meant."""
    body = ("    for (int c = 0; c < cols; ++c) {\n        int c2 = c - 1;\n"
            "        y[r * cols + c] = (c2 >= 0 && c2 < cols && c >= 0 && c < cols) ? x[r * cols + c2] : 0.0f;\n"
            "    }")
    text = ROWS.format(defines="", body=body)
    assert "(c2) < cols" in respelled(candidate_of("user.cu", text)).unit.text
    lifted_equals_kernel(text)


@pytest.mark.parametrize("defines", [
    "#define AT(r, c) r ## c",                       # pasted tokens
    "#define AT(r, c) AT(c, r)",                     # names itself: the preprocessor expands it once
    "#define AT(r, c) AT2(r, c)\n#define AT2(r, c) AT(r, c)",   # the same, through another macro
])
def test_a_macro_the_preprocessor_would_not_expand_plainly_is_left_alone(defines):
    lines = defines.count("\n")
    text = ROWS.format(defines=defines,
                       body="    for (int c = 0; c < cols; ++c) y[r * cols + c] = x[AT(r, c)];")
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable) and "macro AT" in result.reason and result.location.line == 13 + lines


@pytest.mark.parametrize("loop", [
    "for (int c = cols - 1; c >= 0; --c)",
    "for (int c = cols - 1; c > -1; c--)",
    "for (int c = cols - 1; 0 <= c; c -= 1)",
    "for (int c = cols - 1; c >= 0; c = c - 1)",
])
def test_a_loop_counting_down_runs_the_same_iterations_in_the_same_order(loop):
    """A suffix sum: each step reads the value the later elements left."""
    body = (f"    float acc = 0.0f;\n    {loop} {{\n        acc += x[r * cols + c];\n        y[r * cols + c] = acc;\n"
            "    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "c_from_start" in str(program)


def test_a_loop_counting_down_from_a_middle_element_stops_at_its_bound():
    body = ("    for (int c = 0; c < cols; ++c) y[r * cols + c] = 0.0f;\n"
            "    for (int c = cols / 2; c > 0; --c) y[r * cols + c] = x[r * cols + c - 1];")
    lifted_equals_kernel(ROWS.format(defines="", body=body))


def test_an_unsigned_loop_counting_down_is_refused():
    """`c >= 0` always holds for an unsigned c: the loop wraps instead of ending, which no program may mean."""
    body = "    for (unsigned c = cols - 1; c >= 0; --c) y[r * cols + c] = x[r * cols + c];"
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable) and "unsigned" in result.reason and result.location.line == 13


@pytest.mark.parametrize("body", [
    "    float s = 0.0f;\n    int c = 0;\n    while (c < cols) {\n        s += x[r * cols + c];\n"
    "        y[r * cols + c] = s;\n        c++;\n    }",
    "    float s = 0.0f;\n    int c = 0;\n    while (c <= cols - 1) {\n        s += x[r * cols + c];\n"
    "        y[r * cols + c] = s;\n        c += 1;\n    }",
])
def test_a_counted_while_loop_is_read_as_the_for_loop_it_is(body):
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "for (int c = 0;" in str(program)


@pytest.mark.parametrize("loop", [
    "    while (r < rows) {\n        for (int c = 0; c < cols; ++c) y[r * cols + c] = 3.0f * x[r * cols + c];\n"
    "        r += blockDim.x * gridDim.x;\n    }",
    # A guard spelled the other way round before a do-while loop, its test too.
    "    if (rows <= r) return;\n    do {\n"
    "        for (int c = 0; c < cols; ++c) y[r * cols + c] = 3.0f * x[r * cols + c];\n"
    "        r = r + blockDim.x * gridDim.x;\n    } while (rows > r);",
])
def test_a_grid_stride_while_loop_is_read_as_the_for_loop_it_is(loop):
    text = ROWS.replace("    int r = blockIdx.x * blockDim.x + threadIdx.x;\n    if (r >= rows) return;\n", "").format(
        defines="", body="    int r = blockIdx.x * blockDim.x + threadIdx.x;\n" + loop)
    program = lifted_equals_kernel(text)
    assert str(program).splitlines()[1] == "parallel for r in [0, rows):"


@pytest.mark.parametrize("body", [
    # `!=` against a counter stepped by one, up or down; `i += 1`; `s = e + s`; the counter on the right of a
    # while loop's test.
    "    float s = 0.0f;\n    for (int c = 0; c != cols; c += 1) {\n        s = x[r * cols + c] * 0.5f + s;\n"
    "        y[r * cols + c] = s;\n    }",
    "    float s = 0.0f;\n    for (int c = cols - 1; c != -1; --c) {\n        s = s * 0.5f + x[r * cols + c];\n"
    "        y[r * cols + c] = s;\n    }",
    "    float s = 0.0f;\n    int c = 0;\n    while (cols > c) {\n        s = s + x[r * cols + c];\n"
    "        y[r * cols + c] = s;\n        c = c + 1;\n    }",
])
def test_tests_and_updates_spelled_the_other_way_round_are_the_loops_they_are(body):
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert " != " not in str(program) and "cols >" not in str(program), str(program)


@pytest.mark.parametrize("body, why", [
    ("    for (int c = 0; c != cols; ++c) {\n        y[r * cols + c] = x[r * cols + c];\n"
     "        if (x[r * cols + c] > 2.0f) c++;\n    }", "a counter the body steps too"),
    ("    for (int c = 0; c != cols; c += 2)\n        y[r * cols + c] = x[r * cols + c];",
     "a step of two may pass the bound"),
])
def test_an_inequality_test_that_is_no_ordered_test_stays_refused(body, why):
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable), why


RESET_COUNTER = ("    float s = 0.0f;\n    int c = 0;\n    while (c < cols) {\n        s += x[r * cols + c];\n"
                 "        c++;\n    }\n    c = 0;\n    while (c < cols) {\n"
                 "        y[r * cols + c] = x[r * cols + c] - s;\n        c++;\n    }")


def test_a_counter_reset_for_a_second_while_loop_gives_each_loop_a_counter_of_its_own():
    """`c = 0;` before the second loop kills the first loop's counter: the reset declares a fresh one, and both loops
    are the for loops they are."""
    program = lifted_equals_kernel(ROWS.format(defines="", body=RESET_COUNTER))
    assert "for (int c = 0;" in str(program) and "for (int c2 = 0;" in str(program), str(program)


OUTER_COUNTER = ("    float s = 0.0f;\n    int c;\n    for (c = 0; c < cols; c++) s += x[r * cols + c];\n"
                 "    for (c = 0; c < cols; c++) y[r * cols + c] = x[r * cols + c] - s;")


def test_a_for_loop_counting_a_name_declared_before_it_declares_its_own():
    """`int c; for (c = 0; ...)` twice: each loop's counter is dead after it (the next mention assigns it), so each
    loop declares a counter of its own."""
    program = lifted_equals_kernel(ROWS.format(defines="", body=OUTER_COUNTER))
    assert "for (int c2 = 0;" in str(program) and "for (int c3 = 0;" in str(program), str(program)


def test_a_for_loop_without_an_initializer_goes_on_from_its_counters_value():
    """Parboil's loop unrolled by two: `int k = 0; if (cols % 2) {...; k++;} for (; k < cols; k += 2)`: the loop
    declares a counter starting at k's value; with k read after the loop, it stays refused."""
    body = ("    float s = 0.0f;\n    int k = 0;\n    if (cols % 2) {\n        s += x[r * cols];\n        k++;\n    }\n"
            "    for (; k < cols; k += 2) {\n        s += x[r * cols + k];\n        s += x[r * cols + k + 1];\n    }\n"
            "    for (int c = 0; c < cols; c++) y[r * cols + c] = s;")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "for (int k2 = k; k2 < cols; k2 += 2)" in str(program), str(program)
    read_after = body + "\n    y[r * cols] = (float)k;"
    assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines="", body=read_after))), NotLiftable)


def test_locals_of_sibling_blocks_are_renamed_apart_when_flattened():
    """Two blocks each declaring `t`: the program's code is flat, so the second block's `t` (the one the kernel
    declares elsewhere too) is renamed, and each block reads its own."""
    body = ("    {\n        float t = x[r * cols];\n        y[r * cols] = t * 2.0f;\n    }\n"
            "    {\n        float t = x[r * cols + cols - 1];\n        y[r * cols + cols - 1] = t + 1.0f;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    declared = [stmt.name for stmt in program.body if isinstance(stmt, Let)]
    assert len(declared) == 2 and len(set(declared)) == 2, str(program)


def test_a_counter_read_after_its_for_loop_stays_refused():
    """The count after the loop is read: the loop's counter is the name declared before it."""
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=OUTER_COUNTER + "\n    y[r * cols] = c;")))
    assert isinstance(result, NotLiftable) and "declared outside" in result.reason, str(result)


@pytest.mark.parametrize("body, why", [
    # `continue` skips the update in a while loop, not in a for loop.
    ("    int c = 0;\n    while (c < cols) {\n        if (x[r * cols + c] < 0.0f) { c++; continue; }\n"
     "        y[r * cols + c] = x[r * cols + c];\n        c++;\n    }", "continue"),
    # What the counter starts from assigned between its declaration and the loop.
    ("    int start = 0;\n    int c = start;\n    start = 1;\n    while (c < cols) {\n"
     "        y[r * cols + c] = x[r * cols + c] + (float)start;\n        c++;\n    }", "moved value"),
    # The counter read after the loop.
    ("    int c = 0;\n    while (c < cols) {\n        y[r * cols + c] = x[r * cols + c];\n        c++;\n    }\n"
     "    y[r * cols] = (float)c;", "read after"),
    # A reset counter read after its second loop: that loop's count is still read.
    (RESET_COUNTER + "\n    y[r * cols] = (float)c;", "reset, read after"),
])
def test_a_while_loop_that_is_no_counted_loop_stays_refused(body, why):
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable) and "while" in result.reason, why


@pytest.mark.parametrize("loop", [
    "    for (int c = 0; c < cols; ++c)\n        y[r * cols + c] = prod *= x[r * cols + c];",
    "    for (int c = 0; c < cols; ++c) {\n        y[r * cols + c] = (prod *= x[r * cols + c]);\n    }",
])
def test_a_chained_assignment_is_split_inside_its_loop(loop):
    """A running product written and stored in one statement, in a loop body with or without braces."""
    program = lifted_equals_kernel(ROWS.format(defines="", body="    float prod = 1.0f;\n" + loop))
    (loop_stmt,) = [s for s in program.body if type(s).__name__ == "For"]
    assert len(loop_stmt.body) == 2                  # both statements inside the loop


SUM_AFTER = """
/* @optiml
   sizes: n=1048576
   check: n=1; n=255; n=100003
   x: in float[n]
   total: inout float[1] const(0)
   launch: grid=min(cdiv(n,256),64) block=256
   tol: 1e-4
*/
__global__ void grid_sum(const float* x, float* total, int n)
{{
{body}
}}
"""


@pytest.mark.parametrize("body", [
    # A grid-stride for loop summing into a local, one atomicAdd per thread after it.
    "    float local = 0.0f;\n    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
    "i += blockDim.x * gridDim.x)\n        local += x[i] * x[i];\n    atomicAdd(total, local);",
    # The same as a while loop, its counter declared two statements before it.
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    int stride = gridDim.x * blockDim.x;\n"
    "    float local = 0.0f;\n    while (i < n) {\n        local += x[i] * x[i];\n        i += stride;\n    }\n"
    "    atomicAdd(&total[0], local);",
])
def test_a_grid_stride_sum_added_once_per_thread_is_an_atomic_per_point(body):
    candidate = candidate_of("user.cu", SUM_AFTER.format(body=body))
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1:] == ["parallel for i in [0, n):", "    atomicAdd(&total[0], x[i] * x[i]);"]
    for binding in ({"n": 255}, {"n": 100003}):
        inputs, expected = run_at(candidate, program, binding)
        got = run_on_cpu(candidate, binding, inputs)
        assert compare(np, "total", got["total"], expected["total"], "float32", 1e-4, None).ok


@pytest.mark.parametrize("guard, end", [("if (i >= m) return;", ""), ("if (!(i < m)) return;", ""),
                                        ("if (i < m) {", "\n    }")], ids=["return", "negated", "braced"])
def test_a_guarded_grid_stride_do_while_summing_in_double_is_an_atomic_per_point(guard, end):
    """A guard (a return, or around the kernel's rest), then a do-while loop over the grid (read as the while loop
    it is, the guard kept), a double partial cast to float and scaled by a local size: each point adds its scaled
    term."""
    body = ("    const long m = n;\n    long i = blockIdx.x * blockDim.x + threadIdx.x;\n    " + guard + "\n"
            "    const long stride = (long)gridDim.x * blockDim.x;\n    double local = 0.0;\n"
            "    do {\n        local += x[i] * x[i];\n        i += stride;\n    } while (i < m);\n"
            "    atomicAdd(total, (float)(local / (double)m));" + end)
    candidate = candidate_of("user.cu", SUM_AFTER.format(body=body))
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == "parallel for i in [0, n):", str(program)
    for binding in ({"n": 255}, {"n": 100003}):
        inputs, expected = run_at(candidate, program, binding)
        got = run_on_cpu(candidate, binding, inputs)
        assert compare(np, "total", got["total"], expected["total"], "float32", 1e-4, None).ok


@pytest.mark.parametrize("body, reason", [
    # The local starts at one: one more than the points' sum per thread.
    ("    float local = 1.0f;\n    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
     "i += blockDim.x * gridDim.x)\n        local += x[i];\n    atomicAdd(total, local);", "once per thread"),
    # The loop reads the sum (a running value, not a sum of the points).
    ("    float local = 0.0f;\n    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
     "i += blockDim.x * gridDim.x)\n        local += x[i] * local;\n    atomicAdd(total, local);",
     "more with than add"),
    # A local of the same name declared in the loop: its sum is not the one added after it.
    ("    float local = 0.0f;\n    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; "
     "i += blockDim.x * gridDim.x) {\n        float local = x[i];\n        local += 1.0f;\n    }\n"
     "    atomicAdd(total, local);", "more with than add"),
])
def test_a_per_thread_value_after_a_grid_stride_loop_stays_refused(body, reason):
    result = lift(candidate_of("user.cu", SUM_AFTER.format(body=body)))
    assert isinstance(result, NotLiftable) and reason in result.reason, str(result)


@pytest.mark.parametrize("body", [
    # A row walked by a pointer of its own, to the row's end.
    "    float s = 0.0f;\n    const float* row = x + r * cols;\n    for (const float* p = row; p != row + cols; ++p)\n"
    "        s += *p;\n    for (int c = 0; c < cols; ++c) y[r * cols + c] = s;",
    # An end pointer, a do-while loop that reads the first element first (runs once whatever the bound).
    "    const float* p = x + r * cols;\n    const float* const end = p + cols;\n    float m = *p;\n"
    "    do {\n        m = fmaxf(m, *p * 0.5f);\n    } while (++p < end);\n    y[r * cols] = m;",
    # Two pointers stepped in one statement of a loop counting down, braces left out.
    "    const float* a = x + r * cols;\n    float* b = y + r * cols;\n"
    "    for (int k = cols; k > 0; --k)\n        *b++ = 2.0f * *a++;",
])
def test_a_loop_a_pointer_walks_is_a_loop_counting_its_steps(body):
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "*" not in str(program).split("parallel for")[1].replace(" * ", ""), str(program)


@pytest.mark.parametrize("body, why", [
    ("    float s = 0.0f;\n    const float* row = x + r * cols;\n    for (const float* p = row; p != row + cols; ++p) {\n"
     "        s += *p;\n        if (s > 4.0f) p++;\n    }\n    y[r * cols] = s;", "a pointer the body steps too"),
    ("    const float* p = x + r * cols;\n    const float* const end = p + cols;\n    float m = *p;\n"
     "    do {\n        m = fmaxf(m, *p);\n    } while (++p < end);\n    y[r * cols] = m + *(p - 1);",
     "a pointer read after its loop, where it has moved"),
])
def test_a_pointer_loop_that_is_no_count_of_its_steps_stays_refused(body, why):
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable), why


@pytest.mark.parametrize("body", [
    # A column walked by a pointer advanced a row a step.
    "    const float* p = x + r;\n    float s = 0.0f;\n    for (int c = 0; c < cols; ++c) {\n        s += *p;\n"
    "        y[r * cols + c] = s;\n        p += 1;\n    }",
    # Two pointers, one read and one written, each advanced by its own loop.
    "    const float* src = x + r * cols;\n    float* dst = y + r * cols;\n    for (int c = 0; c < cols; c++) {\n"
    "        dst[c] = 2.0f * *src;\n        src += 1;\n    }\n    for (int c = 0; c < cols; c++) {\n"
    "        dst[0] = dst[0] + 1.0f;\n        dst += 1;\n    }",
    # Advanced first, the first element read before the loop (an argmax down a row from its second element).
    "    const float* p = x + r * cols;\n    float best = *p;\n    for (int c = 1; c < cols; ++c) {\n"
    "        p += 1;\n        if (*p > best) best = *p;\n    }\n    y[r * cols] = best;",
])
def test_a_pointer_advanced_by_a_counted_loop_is_read_where_it_points(body):
    lifted_equals_kernel(ROWS.format(defines="", body=body))


@pytest.mark.parametrize("outer", ["{", ""])
def test_a_pointer_a_perfect_nest_keeps_advancing_is_read_where_it_points(outer):
    """Declared outside the outer loop, `p` goes on from where the inner loop left it (im2col's column pointer): at
    (k, c) it has moved on (k - 0) * (cols / 2 - 1 - 0 + 1) + (c - 0) steps; braces or none around the outer body."""
    body = (f"    const float* p = x + r * cols;\n    for (int k = 0; k < 2; ++k) {outer}\n"
            "        for (int c = 0; c <= cols / 2 - 1; c++) {\n"
            "            y[r * cols + k * (cols / 2) + c] = *p;\n            p += 1;\n"
            f"        }}\n    {'}' if outer else ''}")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "x[r * cols + (long long)((k - 0) * (cols / 2 - 1 - 0 + 1) + (c - 0)) * 1]" in str(program)


def test_a_pointer_advanced_in_a_nest_that_is_not_perfect_stays_refused():
    """Something beside the inner loop in the outer one's body: the inner loop's steps are not all the pointer's."""
    body = ("    const float* p = x + r * cols;\n    for (int k = 0; k < 2; ++k) {\n        p += 0;\n"
            "        for (int c = 0; c < cols / 2; ++c) {\n            y[r * cols + k * (cols / 2) + c] = *p;\n"
            "            p += 1;\n        }\n    }")
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable) and "pointer" in result.reason, str(result)


def assert_a_grid_stride_loop_equal_to_the_kernel(text: str, index: str) -> None:
    """The 1-D kernel `text` (x in, y out, n points) lifts to a space over [0, n) named `index`, equal to the kernel
    at n = 1 and n = 1000."""
    candidate = candidate_of("user.cu", text)
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    assert str(program).splitlines()[1] == f"parallel for {index} in [0, n):"
    for binding in ({"n": 1}, {"n": 1000}):
        inputs, expected = run_at(candidate, program, binding)
        assert np.array_equal(run_on_cpu(candidate, binding, inputs)["y"], expected["y"])


def test_a_loop_macro_before_its_body_is_the_loop_it_stands_for():
    """`CUDA_KERNEL_LOOP(i, n) { ... }` (Caffe's and PyTorch's grid-stride loop) parses as a function's definition:
    its header expanded is the for loop, a grid-stride loop over the points."""
    text = ("#define CUDA_KERNEL_LOOP(i, n) \\\n"
            "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)\n"
            "/* @optiml\n   sizes: n=4096\n   check: n=1; n=1000\n   x: in float[n]\n   y: out float[n]\n"
            "   launch: grid=min(cdiv(n,256),4) block=256\n*/\n"
            "__global__ void scale(const float* x, float* y, int n)\n{\n"
            "    CUDA_KERNEL_LOOP(index, n) {\n        y[index] = 2.0f * x[index];\n    }\n}\n")
    assert_a_grid_stride_loop_equal_to_the_kernel(text, "index")


def test_a_counted_do_while_loop_runs_its_first_iteration_whatever_the_bound():
    """`do { ... } while (++c < cols)` runs once even for cols = 0 or 1: the for loop's bound is max(cols, 1)."""
    body = ("    float m = x[r * cols];\n    int c = 0;\n    do {\n        m = fmaxf(m, x[r * cols + c]);\n"
            "        y[r * cols + c] = m;\n    } while (++c < cols);")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "c < max(cols, 0 + 1)" in str(program)


def test_a_do_while_loop_stepping_its_counter_last_runs_its_first_iteration_whatever_the_bound():
    """`do { ...; c++; } while (c < cols)` is the `while (++c < cols)` loop: max(cols, 1) iterations, nested too."""
    body = ("    float m = x[r * cols];\n    int c = 0;\n    do {\n        int k = 0;\n        do {\n"
            "            m = fmaxf(m, x[r * cols + c] + k);\n            k++;\n        } while (k < 2);\n"
            "        y[r * cols + c] = m;\n        c++;\n    } while (c < cols);")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "c < max(cols, 0 + 1)" in str(program) and "k < max(2, 0 + 1)" in str(program), str(program)


@pytest.mark.parametrize("cases", [
    "        case 0:\n            y[r * cols + c] = x[r * cols + c];\n            break;\n"
    "        case 1: case 2:\n            y[r * cols + c] = 2.0f * x[r * cols + c];\n            break;\n"
    "        default:\n            for (int k = 0; k < 2; ++k)\n                y[r * cols + c] = -x[r * cols + c] + k;\n"
    "            break;\n",
])
def test_a_switch_whose_cases_each_end_in_a_break_is_its_if_chain(cases):
    body = ("    for (int c = 0; c < cols; ++c) {\n        switch (c % 4) {\n" + cases + "        }\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "switch" not in str(program) and "c % 4 == 1 || c % 4 == 2" in str(program), str(program)


@pytest.mark.parametrize("cases, why", [
    ("        case 0:\n            y[r * cols + c] = x[r * cols + c];\n"
     "        case 1:\n            y[r * cols + c] = 2.0f * x[r * cols + c];\n            break;\n", "falls through"),
    ("        default:\n            y[r * cols + c] = x[r * cols + c];\n            break;\n"
     "        case 1:\n            y[r * cols + c] = 2.0f * x[r * cols + c];\n            break;\n", "default first"),
    ("        case 0:\n            if (x[r * cols + c] > 0.0f) break;\n            y[r * cols + c] = x[r * cols + c];\n"
     "            break;\n        default:\n            y[r * cols + c] = 0.0f;\n            break;\n", "leaves early"),
])
def test_a_switch_that_is_no_plain_if_chain_stays_refused(cases, why):
    body = ("    for (int c = 0; c < cols; ++c) {\n        y[r * cols + c] = 1.0f;\n        switch (c % 4) {\n"
            + cases + "        }\n    }")
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable), why


@pytest.mark.parametrize("body", [
    # Two counters stepped together, one down.
    "    for (int c = 0, d = cols - 1; c < cols; ++c, --d)\n        y[r * cols + d] = 2.0f * x[r * cols + c];",
    # A bound declared beside its counter, read through the counter's start.
    "    for (int c = 0, stop = c + cols; c < stop; c++)\n        y[r * cols + c] = x[r * cols + c] + 1.0f;",
    # Two pointers walked together to an end pointer.
    "    const float* row = x + r * cols;\n    const float* const end = row + cols;\n    float* out = y + r * cols;\n"
    "    float s = 0.0f;\n    for (const float *p = row, *q = row; p != end; ++p, ++q)\n        s += *p * *q;\n"
    "    for (int c = 0; c < cols; ++c) out[c] = s;",
    # A C++ cast of the row's offset; the guard around the rest of the kernel, which returns inside.
    "    const float* row = x + static_cast<long>(r) * cols;\n    if (cols > 0) {\n"
    "        if (row[0] > 2.0f) return;\n        for (int c = 0; c < cols; ++c) y[r * cols + c] = row[c];\n    }",
    # Loads through the read-only cache (`__ldg(&e)`, `__ldg(p)`) filling a local array a loop reads.
    "    float w[2];\n    for (int k = 0; k < 2; ++k) w[k] = __ldg(&x[r * cols + k % cols]);\n"
    "    for (int c = 0; c < cols; ++c) y[r * cols + c] = w[c % 2] + __ldg(x + r * cols + c);",
])
def test_counters_stepped_together_casts_and_guards_around_the_rest_are_read_plainly(body):
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "static_cast" not in str(program) and "__ldg" not in str(program), str(program)


def test_local_arrays_declared_together_read_by_a_loop_that_skips_are_locals_per_element():
    """`float w[3], o[3];` filled at constant places, read by a constant loop that starts with `if (c) continue;`:
    the skip made a branch around the rest, the loop written out, each element a local."""
    body = ("    float w[3], o[3];\n    w[0] = 0.25f; w[1] = 0.5f; w[2] = 0.25f;\n    o[0] = -1.0f; o[1] = 0.0f; o[2] = 1.0f;\n"
            "    for (int c = 0; c < cols; ++c) {\n        float s = 0.0f;\n        for (int k = 0; k < 3; ++k) {\n"
            "            int at = c + (int)o[k];\n            if (at < 0 || at >= cols) continue;\n"
            "            s += w[k] * x[r * cols + at];\n        }\n        y[r * cols + c] = s;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "w_1" in str(program) and "continue" not in str(program), str(program)


def test_counters_stepped_together_whose_body_steps_one_stay_refused():
    body = ("    for (int c = 0, d = cols - 1; c < cols; ++c, --d) {\n        y[r * cols + d] = x[r * cols + c];\n"
            "        if (x[r * cols + c] > 2.0f) d--;\n    }")
    assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines="", body=body))), NotLiftable)


def test_a_constant_table_read_by_a_loop_is_its_entries_chosen_by_the_index():
    body = ("    const int offsets[3] = {-1, 0, 1};\n    for (int c = 0; c < cols; ++c) {\n        float s = 0.0f;\n"
            "        for (int k = 0; k < 3; ++k) {\n            int cc = min(max(c + offsets[k], 0), cols - 1);\n"
            "            s += x[r * cols + cc];\n        }\n        y[r * cols + c] = s;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "offsets" not in str(program)


# Weights computed once a row (a filter's taps from the row's own values), read by the loop over the taps.
COMPUTED_TABLE = ("    float a = x[r * cols];\n    float w[3] = {0.25f * a, 0.5f, fminf(a, 0.25f)};\n"
                  "    for (int c = 0; c < cols; ++c) {\n        float s = 0.0f;\n"
                  "        for (int k = 0; k < 3; ++k)\n            s += w[k] * x[r * cols + min(c + k, cols - 1)];\n"
                  "        y[r * cols + c] = s;\n    }")


def test_a_table_of_expressions_is_its_entries_computed_where_read():
    program = lifted_equals_kernel(ROWS.format(defines="", body=COMPUTED_TABLE))
    assert "w[" not in str(program), str(program)


@pytest.mark.parametrize("old, new, why", [
    ("0.5f, fminf", "0.5f * x[r], fminf", "an entry reading memory"),
    ("        y[r * cols + c] = s;", "        y[r * cols + c] = s;\n        a = s;", "a name the entries read assigned"),
])
def test_a_table_whose_entries_could_change_is_computed_where_declared(old, new, why):
    """Entries computed where read could differ from those the declaration computed: the table is then a local per
    entry, each computed at the declaration (the table's loop written out)."""
    assert old in COMPUTED_TABLE
    program = lifted_equals_kernel(ROWS.format(defines="", body=COMPUTED_TABLE.replace(old, new)))
    assert "w_2 = fminf(a, 0.25f)" in str(program), f"{why}: {program}"


def test_a_table_the_kernel_writes_stays_refused():
    body = ("    int offsets[2] = {0, 1};\n    offsets[1] = 2;\n"
            "    for (int c = 0; c < cols; ++c) y[r * cols + c] = x[r * cols + c] + (float)offsets[c % 2];")
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable) and "array" in result.reason, str(result)


def test_a_table_with_fewer_entries_than_its_size_holds_zeros_after_them():
    """`{-1, 1}` in a table of 3 leaves a zero the list does not show: not read as the listed entries, but as a
    local per entry, the last zero."""
    body = ("    const int offsets[3] = {-1, 1};\n    for (int c = 1; c < cols - 1; ++c) {\n        float s = 0.0f;\n"
            "        for (int k = 0; k < 3; ++k) s += x[r * cols + c + offsets[k]];\n        y[r * cols + c] = s;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "s += x[r * cols + c + 0];" in str(program), str(program)


def test_a_pointer_the_loop_header_reads_is_not_moved():
    body = ("    const float* p = x + r * cols;\n    for (int c = 0; c < cols && *p > -2.0f; ++c) {\n"
            "        y[r * cols + c] = *p;\n        p += 1;\n    }")
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable), str(result)


def test_a_local_the_loop_header_advances_is_read_as_what_it_holds():
    """`for (int c = 0; c < cols; ++c, idx += 1)`: idx at each iteration is its start plus c steps, in its own
    type; one read after the loop keeps the kernel refused (the loop would no longer leave it moved on)."""
    body = ("    size_t idx = (size_t)r * cols;\n    float s = 0.0f;\n"
            "    for (int c = 0; c < cols; ++c, idx += 1) {\n        s += x[idx];\n        y[idx] = s;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "x[(size_t)r * cols + (size_t)(c - 0) * 1]" in str(program)
    after = body + "\n    y[r * cols] = (float)idx;"
    assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines="", body=after))), NotLiftable)


@pytest.mark.parametrize("body", [
    # A window clipped at the row's end by a break, after a continue at its start.
    "    for (int c = 0; c < cols; ++c) {\n        float s = 0.0f;\n"
    "        for (int k = c - 1; k < c + 2; ++k) {\n            if (k < 0) continue;\n            if (k >= cols) break;\n"
    "            s += x[r * cols + k];\n        }\n        y[r * cols + c] = s;\n    }",
    # `>`: the last index is the bound itself.
    "    for (int c = 0; c < cols; ++c) {\n        float s = 0.0f;\n"
    "        for (int k = c; k < c + 3; k++) {\n            if (k > cols - 1) { break; }\n"
    "            s += x[r * cols + k];\n        }\n        y[r * cols + c] = s;\n    }",
])
def test_a_break_at_an_edge_bounds_the_loop(body):
    """The bound, `k < (c + 2 < cols ? c + 2 : cols)`, is a choice: every schedule writes it in parentheses (C
    would read `k < a < b ? a : b` as `(k < a) < b ? a : b`) and equals the kernel."""
    text = ROWS.format(defines="", body=body)
    program = lifted_equals_kernel(text)
    assert "break" not in str(program)
    candidate = candidate_of("user.cu", text)
    shape = shape_of(program)
    for schedule in [s for family in shape.families for s in defaults(shape, family)]:
        emitted = emit(program, shape, schedule, candidate)
        assert " < (" in emitted.unit.text
        for binding in ({"rows": 5, "cols": 37}, {"rows": 3, "cols": 2}):
            inputs, expected = run_at(candidate, program, binding)
            got = run_on_cpu(emitted, binding, inputs)
            assert compare(np, "y", got["y"], expected["y"], "float32", 1e-5, None).ok, schedule.describe()


def test_a_break_on_data_stays_a_search_or_a_refusal():
    """`if (x[...] > 0) break;` depends on data, not on the counter: no bound is made of it."""
    body = ("    float s = 0.0f;\n    for (int c = 0; c < cols; ++c) {\n        if (c >= cols) break;\n"
            "        if (x[r * cols + c] > 0.5f) break;\n        s += x[r * cols + c];\n    }\n    y[r * cols] = s;")
    respelled_text = respelled(candidate_of("user.cu", ROWS.format(defines="", body=body))).unit.text
    assert "x[r * cols + c] > 0.5f) break;" in respelled_text and "(cols < (cols)" in respelled_text


def test_a_pointer_bumped_once_and_a_cached_row_read_where_they_point():
    """`p += cols;` after the first element is read (an argmax seeded by row 0), and a row kept in a local array
    filled from a const parameter: both read as the elements they stand for."""
    bumped = ("    const float* p = x + r * cols;\n    float best = *p;\n    int arg = 0;\n    p += 1;\n"
              "    for (int c = 1; c < cols; ++c) {\n        if (*p > best) { best = *p; arg = c; }\n        p += 1;\n"
              "    }\n    y[r * cols] = (float)arg;\n    for (int c = 1; c < cols; ++c) y[r * cols + c] = best;")
    lifted_equals_kernel(ROWS.format(defines="", body=bumped))
    cached = ("    float row[2];\n    #pragma unroll\n    for (int k = 0; k < 2; ++k) row[k] = x[r * cols + k % cols];\n"
              "    for (int c = 0; c < cols; ++c) y[r * cols + c] = row[c % 2] * 2.0f + row[0];")
    program = lifted_equals_kernel(ROWS.format(defines="", body=cached))
    assert "x[r * cols + c % 2 % cols] * 2.0f + x[r * cols + 0 % cols]" in str(program)
    written = cached.replace("y[r * cols + c] = row[c % 2]", "row[1] = 0.0f; y[r * cols + c] = row[c % 2]")
    moved = ("    int s = 0;\n" + cached.replace("k % cols]", "(k + s) % cols]")).replace(
        "    for (int c = 0; c < cols; ++c)", "    s = 1;\n    for (int c = 0; c < cols; ++c)")
    for refused in (written, moved):     # the array written, or what its fill read changed before it is read
        assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines="", body=refused))), NotLiftable)


def test_a_grid_stride_do_while_after_its_guard_is_the_grid_stride_loop():
    """`if (i >= n) return; do { ...; i += step; } while (i < n);`: the guard makes the first test true, so the loop
    is the grid-stride loop over [0, n); a statement after the loop keeps it refused (the guard skipped it)."""
    text = ("/* @optiml\n   sizes: n=4096\n   check: n=1; n=1000\n   x: in float[n]\n   y: out float[n]\n"
            "   launch: grid=min(cdiv(n,256),2) block=256\n*/\n"
            "__global__ void scale(const float* x, float* y, int n)\n{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    const int step = blockDim.x * gridDim.x;\n"
            "    if (i >= n) return;\n    do {\n        y[i] = 2.0f * x[i];\n        i += step;\n    } while (i < n);\n}\n")
    assert_a_grid_stride_loop_equal_to_the_kernel(text, "i")
    after = text.replace("} while (i < n);\n}", "} while (i < n);\n    y[0] = 1.0f;\n}")
    assert isinstance(lift(candidate_of("user.cu", after)), NotLiftable)
    # The loop inside a guard around the kernel's rest (`if (i < n) { do ... while (i < n); }`), and the guard
    # written `!(i < n)`: the same loop.
    braced = text.replace("    if (i >= n) return;\n    do {", "    if (i < n) {\n    do {").replace(
        "} while (i < n);\n}", "} while (i < n);\n    }\n}")
    negated = text.replace("if (i >= n) return;", "if (!(i < n)) return;")
    for spelled in (braced, negated):
        assert spelled != text
        assert_a_grid_stride_loop_equal_to_the_kernel(spelled, "i")


def test_a_count_down_while_and_post_incremented_pointers_are_a_counted_loop():
    """`int n = cols; while (n--) { s += *src++; *dst++ = s; }`: cols iterations, each reading and writing the next
    element; a `*src++` under an `if` (not stepped every iteration) keeps the kernel refused."""
    body = ("    const float* src = x + r * cols;\n    float* dst = y + r * cols;\n    float s = 0.0f;\n"
            "    int n = cols;\n    while (n--) {\n        s += *src++;\n        *dst++ = s;\n    }")
    program = lifted_equals_kernel(ROWS.format(defines="", body=body))
    assert "for (int n = 0; n < cols; ++n)" in str(program)
    guarded = body.replace("        s += *src++;\n", "        if (s < 100.0f) s += *src++;\n")
    assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines="", body=guarded))), NotLiftable)


LOOP_HELPERS = """
__device__ float mean_sq(const float* v, int n)
{
    float s = 0.0f;  // the row's sum of squares
#pragma unroll 4
    for (int i = 0; i < n; ++i)
        s += v[i] * v[i];
    return s / n;
}

__device__ float scaled_sum(const float* v, int n, float k)
{
    k *= 0.5f;
    float r = 0.0f;
    for (int i = 0; i < n; ++i) r += k * v[i];
    return r;
}

__device__ inline void split_pair(float &lo, float &hi, float a, float b)   // results through references
{
    float s, d;
    s = a + b;
    d = a - b;
    lo = fminf(s, d);
    hi = fmaxf(s, d) + lo;
}
"""


@pytest.mark.parametrize("body", [
    # Helpers with loops as a declaration's value and inside an expression; the kernel's own `s` and `i` are not the
    # helpers'.
    "    float s = mean_sq(x + r * cols, cols);\n    int i = 1;\n"
    "    for (int c = 0; c < cols; ++c) y[r * cols + c] = x[r * cols + c] * rsqrtf(s + 1e-3f) + i;",
    # A helper assigning its own parameter, called in a loop's body without braces, at every point of the loop.
    "    for (int c = 0; c < cols; ++c)\n        y[r * cols + c] = 0.5f * scaled_sum(x + r * cols, c + 1, 1.0f + c);",
    # A void helper writing its results through references, into an element and into a local of the kernel's own
    # named as one of the helper's (`s`); the element's index reads a name the helper declares too (`d`).
    "    float s = 0.0f;\n    for (int d = 0; d < cols; ++d)\n"
    "        split_pair(y[r * cols + d], s, x[r * cols + d], x[r * cols + (d + 1) % cols]);\n"
    "    y[r * cols] += s;",
])
def test_a_helper_with_loops_is_inlined_as_the_compiler_inlines_it(body):
    program = lifted_equals_kernel(ROWS.format(defines=LOOP_HELPERS, body=body))
    assert "mean_sq(" not in str(program) and "scaled_sum(" not in str(program) and "split_pair(" not in str(program)


@pytest.mark.parametrize("body", [
    # In the arm of a choice the helper runs only where the choice takes it: not hoisted before the statement.
    "    for (int c = 0; c < cols; ++c) y[r * cols + c] = c > 0 ? mean_sq(x + r * cols, c) : 0.0f;",
    # An argument that assigns is evaluated once, where it is.
    "    int c = 0;\n    y[r * cols] = mean_sq(x + r * cols, ++c);",
    # A void helper inside an expression; an element passed by reference whose index the other reference changes.
    "    float t = 0.0f;\n    y[r * cols] = (split_pair(t, t, 1.0f, 2.0f), t);",
    "    float v = 0.0f;\n    split_pair(v, y[r * cols + (int)v], 1.0f, 2.0f);",
])
def test_a_helper_call_that_is_not_evaluated_once_per_statement_stays_refused(body):
    assert isinstance(lift(candidate_of("user.cu", ROWS.format(defines=LOOP_HELPERS, body=body))), NotLiftable)


COLUMN_MARCH = """
/* @optiml
   sizes: nx=256 ny=128
   check: nx=5 ny=7; nx=1 ny=3; nx=33 ny=4
   u: in float[nx*ny]
   out: inout float[nx*ny] const(0)
   launch: grid=cdiv(nx,128) block=128
*/
__global__ void column_march(const float* u, float* out, int nx, int ny)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nx) return;
    const float* north = u + i;
    const float* centre = north + STEP;
    const float* south = centre + nx;
    float* o = out + nx + i;
    int j = 1;
    while (j < ny - 1) {
        *o = 0.5f * centre[0] + 0.25f * (north[0] + south[0]);
        north = centre;
        centre = south;
        south += nx;
        o += nx;
        ++j;
    }
}
"""


def program_equals_kernel_exactly(candidate, outputs: tuple[str, ...]) -> None:
    """The candidate lifts, and its program writes exactly what the kernel writes to `outputs` at every check size."""
    program = lift(candidate)
    assert isinstance(program, LoopProgram), str(program)
    for binding in candidate.contract.checks:
        inputs, expected = run_at(candidate, program, binding)
        got = run_on_cpu(candidate, binding, inputs)
        for array in outputs:
            assert np.array_equal(got[array], expected[array]), (array, binding)


def test_row_pointers_rotated_down_a_column_are_advanced_by_their_step():
    """`north = centre; centre = south; south += nx;` with the three declared a row apart: each pointer advanced by a
    row, the program equal to the kernel; declared two rows apart, the rotation is no advance and stays refused."""
    program_equals_kernel_exactly(candidate_of("user.cu", COLUMN_MARCH.replace("STEP", "nx")), ("out",))
    assert isinstance(lift(candidate_of("user.cu", COLUMN_MARCH.replace("STEP", "2 * nx"))), NotLiftable)


CHOSEN_POINTER = """/* @optiml
   sizes: T=64 H=4 K=2 D=16
   check: T=3 H=2 K=1 D=4; T=1 H=1 K=1 D=2; T=5 H=3 K=2 D=6
   q: inout float[T*H*D]
   k: inout float[T*K*D]
   launch: grid=cdiv(T*(H+K)*(D/2),64) block=64
*/
__global__ void halves(float* q, float* k, int T, int H, int K, int D)
{
    int half = D / 2;
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= T * (H + K) * half) return;
    int i = idx % half;
    int head = (idx / half) % (H + K);
    int t = idx / (half * (H + K));
    float* x;
    if ((head) < H)
        x = q + (t * H + head) * D;
    else {
        x = k + (t * K + (head - H)) * D;
    }
    float a = x[i];
    float b = x[half + i];
    x[i] = a - b * 0.5f;
    x[half + i] += a * 2.0f;
    LAST
}
"""


def test_a_pointer_chosen_between_two_arrays_reads_and_writes_the_one_chosen():
    """`float* x; if (head < H) x = q + ...; else x = k + ...;` (a rotary embedding over the query's heads then the
    key's): each subscript reads or writes the chosen array, the program equal to the kernel on both arrays at every
    check size; a pointer also used unsubscripted (compared), subscripted in its own index or incremented in place
    stays refused."""
    program_equals_kernel_exactly(candidate_of("user.cu", CHOSEN_POINTER.replace("LAST", "")), ("q", "k"))
    # Elements through pointer arithmetic (`*(x + e)`, `*(e + x)`, `*x`) are the same elements.
    arithmetic = CHOSEN_POINTER.replace("float b = x[half + i];", "float b = *(half + i + x);").replace(
        "x[i] = a - b * 0.5f;", "*(x + i) = a - b * 0.5f;").replace("LAST", "if (i == 0) *x += 1.0f;")
    program_equals_kernel_exactly(candidate_of("user.cu", arithmetic), ("q", "k"))
    for last in ("if (x == q) x[0] = 0.0f;", "x[(int)x[0] % D] = 1.0f;", "x[0]++;", "*(x - 1 + D) = 0.0f;",
                 "float* y = x + 1; y[0] = 0.0f;"):
        refused = lift(candidate_of("user.cu", CHOSEN_POINTER.replace("LAST", last)))
        assert isinstance(refused, NotLiftable), last


# Four elements a thread through float4 loads and stores, a scalar tail, and a component read straight off a load.
VECTORS = """/* @optiml
   sizes: n=4099
   check: n=1; n=7; n=1000; n=1030
   x: in float[n]
   y: out float[n]
   launch: grid=cdiv(cdiv(n,4),128) block=128
*/
__global__ void scale4(const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 v = reinterpret_cast<const float4*>(x)[i];
        float4 w = make_float4(2.0f * v.x, 2.0f * v.y, 2.0f * v.z, v.w + reinterpret_cast<const float4*>(x)[i].x);
        reinterpret_cast<float4*>(y)[i] = w;
    }
    int t = n / 4 * 4 + i;
    if (t < n)
        y[t] = 3.0f * x[t];
}
"""


def test_a_vector_passed_whole_stays_refused():
    text = VECTORS.replace("reinterpret_cast<float4*>(y)[i] = w;", "reinterpret_cast<float4*>(y)[i] = twice(w);")
    text = "__device__ float4 twice(float4 a) { return make_float4(a.x, a.y, a.z, a.w); }\n" + text
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable), str(result)


# Two halves a thread through a __half2 pointer local, converted to float2 and built back.
HALVES = """#include <cuda_fp16.h>
/* @optiml
   sizes: n=4096
   check: n=2; n=10; n=1000
   x: in half[n]
   y: out half[n]
   launch: grid=cdiv(n/2,128) block=128
   tol: 1e-3
*/
__global__ void double_halves(const __half* x, __half* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const __half2* x2 = reinterpret_cast<const __half2*>(x);
    if (i < n / 2) {
        float2 v = __half22float2(x2[i]);
        reinterpret_cast<__half2*>(y)[i] = __floats2half2_rn(2.0f * v.x, v.y + 1.0f);
    }
}
"""


@pytest.mark.parametrize("text, element", [(VECTORS, "x[4 * i + 3]"), (HALVES, "x[2 * i + 1]")],
                         ids=["float4 through casts", "half2 through a pointer local"])
def test_vector_loads_and_stores_are_their_components(text, element):
    naive = candidate_of("user.cu", text)
    program = lift(naive)
    assert isinstance(program, LoopProgram), str(program)
    assert "reinterpret_cast" not in str(program) and element in str(program), str(program)
    for binding in naive.contract.checks:
        inputs, expected = run_at(naive, program, binding)
        assert np.allclose(run_on_cpu(naive, binding, inputs)["y"].astype(np.float32),
                           expected["y"].astype(np.float32), rtol=1e-3), binding


# A thread's running values in a local array walked by constant loops (a register tile of 4 columns), and a small
# matrix read at literal places (a 2 x 2 determinant): one local per element once the loops are written out.
LOCAL_ARRAYS = {
    "register_tile": """    #pragma unroll
    for (int t = 0; t < COLS; ++t)
        acc[t] = 0.0f;
    for (int c = 0; c < cols; ++c) {
        float v = x[r * cols + c];
        #pragma unroll
        for (int t = 0; t < COLS; ++t)
            acc[t] += v * (float)(t + 1);
    }
    for (int t = 0; t <= COLS - 1; t++)
        y[r * cols + t % cols] = acc[t];""",
    "nested_loops": """    #pragma unroll
    for (int a = 0; a < 2; ++a)
        #pragma unroll
        for (int b = 0; b < COLS / 2; ++b)
            acc[a * (COLS / 2) + b] = x[r * cols + (a + b) % cols];
    for (int t = 0; t < COLS; ++t)
        y[r * cols + t % cols] = acc[COLS - 1 - t];""",
    "literal_places": """    acc[0] = x[r * cols];
    acc[1] = x[r * cols + cols / 2];
    acc[2] = x[r * cols + cols - 1];
    acc[3] = acc[0] * acc[2] - acc[1] * acc[1];
    y[r * cols] = acc[3];""",
}


@pytest.mark.parametrize("body", LOCAL_ARRAYS.values(), ids=LOCAL_ARRAYS.keys())
def test_a_local_array_at_constant_places_is_a_local_per_element(body) -> None:
    text = ROWS.format(defines="#define COLS 4", body="    float acc[COLS];\n" + body)
    program = lifted_equals_kernel(text)
    assert "acc_3" in str(program) and "acc[" not in str(program), str(program)


@pytest.mark.parametrize("replacement", ["acc[r % 4] = acc[0];", "acc[4] = acc[0];", "float* p = acc; p[3] = acc[0];",
                                         "float* p = &acc[1]; p[2] = acc[0];"],
                         ids=["a_place_the_code_decides", "past_its_end", "through_a_pointer", "an_element_s_address"])
def test_a_local_array_read_at_a_place_the_code_decides_or_past_its_end_stays_refused(replacement) -> None:
    body = "    float acc[COLS];\n" + LOCAL_ARRAYS["literal_places"].replace(
        "acc[3] = acc[0] * acc[2] - acc[1] * acc[1];", replacement)
    result = lift(candidate_of("user.cu", ROWS.format(defines="#define COLS 4", body=body)))
    assert isinstance(result, NotLiftable) and "local array ('acc')" in result.reason, f"{replacement}: {result}"
    if replacement.startswith("acc[r % 4]"):
        assert "at an element the code decides as it runs (acc[r % 4])" in result.reason, result.reason


def test_a_loop_over_a_local_array_that_breaks_stays_refused() -> None:
    body = ("    float acc[COLS];\n"
            "    for (int t = 0; t < COLS; ++t) { acc[t] = x[r * cols]; if (acc[t] > 1.0f) break; }\n"
            "    y[r * cols] = acc[0];")
    result = lift(candidate_of("user.cu", ROWS.format(defines="#define COLS 4", body=body)))
    assert isinstance(result, NotLiftable), str(result)


def test_a_local_array_whose_name_is_declared_again_stays_refused() -> None:
    """An inner block's own `acc` would take the outer array's locals: neither is rewritten."""
    body = ("    float acc[2];\n    acc[0] = x[r * cols];\n    acc[1] = 0.0f;\n"
            "    { float acc[2]; acc[0] = 1.0f; acc[1] = acc[0]; }\n    y[r * cols] = acc[0] + acc[1];")
    result = lift(candidate_of("user.cu", ROWS.format(defines="", body=body)))
    assert isinstance(result, NotLiftable) and "local array" in result.reason, str(result)


# Darknet's layers: the 2-D grid flattened, the index taken apart in place (`id /= W;`, `id = id / H;`), two
# counters declared together before their nested loops, the global namespace's `::abs` and `::min` (`std::min`).
TAKEN_APART = """/* @optiml
   sizes: B=4 C=3 H=32 W=48
   check: B=1 C=1 H=1 W=1; B=2 C=3 H=4 W=5; B=3 C=2 H=7 W=3
   x: in float[B*C*H*W]
   y: out float[B*C*H*W]
   launch: grid=(min(cdiv(B*C*H*W,64),65535),cdiv(cdiv(B*C*H*W,64),65535)) block=64
*/
__global__ void window2(int B, int C, int H, int W, const float* x, float* y)
{
    int id = (blockIdx.x + blockIdx.y * gridDim.x) * blockDim.x + threadIdx.x;
    if (id >= B * C * H * W) return;
    int j = id % W;
    id /= W;
    int i = id % H;
    id = id / H;
    int k = id % C;
    id /= C;
    int b = id;
    float s = 0.0f;
    int l, m;
    for (l = 0; l < 2; ++l)
        for (m = 0; m < 2; ++m)
            s += x[((b * C + k) * H + ::abs(i - l) % H) * W + ::min(j + m, W - 1)];
    y[((b * C + k) * H + i) * W + j] = s;
}
"""


def test_an_index_taken_apart_in_place_is_its_digits():
    """Each in-place division a fresh local (`int id2 = id / (W);`), so the index is assigned once: the program is
    over the flat index's digits and equals the kernel at every check size. A local not declared from the thread's
    index and divided in place is the lifter's as it is."""
    program = lifted_equal_at_its_checks(TAKEN_APART)
    assert "::" not in str(program), str(program)
    assert str(lifted_equal_at_its_checks(TAKEN_APART.replace("::min(", "std::min("))) == str(program)
    plain = respelled(candidate_of("user.cu", TAKEN_APART)).unit.text
    assert "int id2 = id / (W);" in plain and "int l;" in plain and "for (int l2 = 0;" in plain, plain
    unrelated = TAKEN_APART.replace("    float s = 0.0f;\n", "    float s = 0.0f;\n    int q = B;\n    q /= 2;\n")
    assert "q /= 2;" in respelled(candidate_of("user.cu", unrelated)).unit.text
    # The rest of the kernel inside the guard (`if (id < n) { ... id /= W; ... }`): the guard hoisted to a return
    # (`if (!(id < n)) return;`, which the lifter reads as the bound), the index then taken apart as before.
    braced = TAKEN_APART.replace("    if (id >= B * C * H * W) return;\n", "    if (id < B * C * H * W) {\n").replace(
        "    y[((b * C + k) * H + i) * W + j] = s;\n}", "    y[((b * C + k) * H + i) * W + j] = s;\n    }\n}")
    assert braced.count("{") == TAKEN_APART.count("{") + 1
    assert str(lifted_equal_at_its_checks(braced)) == str(program)


# TensorFlow's CropAndResize: a grid-stride loop whose body skips a point, or writes it and skips the rest.
SKIPPING = """/* @optiml
   sizes: n=4096
   check: n=1; n=100; n=1000
   g: in int[n] range(-2,3)
   x: in float[n] uniform(-2,2)
   y: inout float[n]
   launch: grid=min(cdiv(n,128),4) block=128
*/
__global__ void skipping(const int* g, const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (g[i] < 0) {
            continue;
        }
        const float v = x[i] * (float)g[i];
        if (v > 1.0f) {
            y[i] = 1.0f;
            continue;
        }
        if (v < -1.0f) continue;
        y[i] = v;
    }
}
"""


def test_continues_in_a_grid_stride_loop_are_the_rest_of_the_point_in_an_else():
    program = lifted_equal_at_its_checks(SKIPPING)
    assert "continue" not in str(program), str(program)


# Modern CUDA C++: braced values, a pointer declared `auto`, a lambda returning a value, a range-based loop over a
# local array sized by a file `constexpr`.
MODERN = """constexpr int kTaps = 3;
""" + ROWS.format(defines="", body="""    const auto row = x + static_cast<size_t>(r) * cols;
    float w[kTaps];
    for (int t = 0; t < kTaps; ++t) w[t] = 1.0f + t;
    float total{0.0f};
    for (const auto v : w) total += v;
    auto at = [&](int c) { return row[c] * w[c % kTaps] / total; };
    for (int c = 0; c < cols; ++c) y[r * cols + c] = at(c) + at((c + 1) % cols);""")


def test_modern_cpp_declarations_lambdas_and_range_loops_are_read_plainly():
    """Each spelled the plain way it means: `float total = 0.0f;`, `const float* row = ...`, the lambda's value at
    each call with its argument converted to its parameter's type, `for (int i = 0; i < 3; ++i) { const float v =
    w[i]; ... }` (3 from the file's `constexpr`): the program equals the kernel; a lambda reading a name it captured
    by value that the kernel assigns after it, one with a return type and one with an initialized capture stay
    refused."""
    program = lifted_equals_kernel(MODERN)
    assert "at(" not in str(program) and "auto" not in str(program), str(program)
    by_value = MODERN.replace("auto at = [&](int c)", "auto at = [=](int c)").replace(
        "    for (int c = 0; c < cols; ++c) y[r", "    total += 1.0f;\n    for (int c = 0; c < cols; ++c) y[r")
    # A return type converts the value; an initialized capture names a value of its own.
    converted = MODERN.replace("auto at = [&](int c) {", "auto at = [&](int c) -> int {")
    renamed = MODERN.replace("auto at = [&](int c) { return row[c]", "auto at = [p = row](int c) { return p[c]")
    for refused in (by_value, converted, renamed):
        assert refused != MODERN and isinstance(lift(candidate_of("user.cu", refused)), NotLiftable), refused


def test_an_integer_declared_auto_from_the_block_index_is_its_unsigned_int() -> None:
    """`const auto c = blockIdx.x;` (batch norm's channel, kept as a local by a block's fold, ir/block_trees.py):
    declared as the `unsigned int` it is, the program's local has a type; the Welford statistics kernel it stands
    in (the fortieth held-out set's) lifts and equals the kernel."""
    from tests.ir_cases import ROOT
    text = (ROOT / "tests" / "heldout40" / "batchnorm_stats_welford.cu").read_text()
    spelled = text.replace("const int c = blockIdx.x;", "const auto c = blockIdx.x;")
    assert spelled != text
    program = lifted_equal_at_its_checks(spelled)
    assert "auto" not in str(program), str(program)


def test_a_kernel_refused_further_down_once_respelled_is_told_that_refusal() -> None:
    """An `auto` pointer (refused as written, read once respelled) before a `printf` (refused either way): the
    message is the printf's, the construct that really stops the lift, not the spelling before it."""
    text = ("/* @optiml\n   sizes: n=1000\n   x: in float[n]\n   y: out float[n]\n"
            "   launch: grid=cdiv(n,128) block=128\n*/\n"
            "__global__ void late(const float* x, float* y, int n)\n{\n"
            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i >= n) return;\n"
            "    const auto p = x + i;\n    float v = p[0];\n    printf(\"%f\\n\", v);\n    y[i] = v;\n}\n")
    result = lift(candidate_of("user.cu", text))
    assert isinstance(result, NotLiftable) and result.location.line == 13 and "printf" in result.reason, str(result)
    assert isinstance(lift(candidate_of("user.cu", text.replace('    printf("%f\\n", v);\n', ""))), LoopProgram)


def test_a_copy_of_a_local_dead_after_it_is_the_local_itself():
    """`float t = (s);` with s unread after it (an inlined helper's parameter): t read as s, the copy dropped; a copy
    inside a loop whose next turn reads the original again stays a copy (each turn's s is the sum so far)."""
    dead = ROWS.format(defines="#define AT(r, c) ((r) * cols + (c))",
                       body="    float s = 0.0f;\n    for (int c = 0; c < cols; ++c) s += x[AT(r, c)];\n"
                            "    float t = (s);\n    t *= 0.5f;\n    for (int c = 0; c < cols; ++c) y[AT(r, c)] = t;")
    assert "float t" not in respelled(candidate_of("user.cu", dead)).unit.text
    lifted_equals_kernel(dead)
    looped = ROWS.format(defines="#define AT(r, c) ((r) * cols + (c))",
                         body="    float s = 0.0f;\n    for (int c = 0; c < cols; ++c) {\n        s += x[AT(r, c)];\n"
                              "        float t = s;\n        t *= 0.5f;\n        y[AT(r, c)] = t;\n    }")
    assert "float t = s;" in respelled(candidate_of("user.cu", looped)).unit.text
    lifted_equals_kernel(looped)


def test_a_pointer_holding_a_parameter_is_the_parameter_unless_either_is_assigned():
    body = "    {pointer} = (x);\n{moved}    for (int c = 0; c < cols; ++c) y[r * cols + c] = 2.0f * at[r * cols + c];"
    held = ROWS.format(defines="#define AT(r, c) ((r) * cols + (c))",
                       body=body.format(pointer="const float* at", moved="") + "\n    y[AT(r, 0)] += 0.0f;")
    assert "const float* at" not in respelled(candidate_of("user.cu", held)).unit.text
    lifted_equals_kernel(held)
    moved = ROWS.format(defines="#define AT(r, c) ((r) * cols + (c))",
                        body=body.format(pointer="const float* at", moved="    at = x + 0;\n") +
                        "\n    y[AT(r, 0)] += 0.0f;")
    assert "const float* at = (x);" in respelled(candidate_of("user.cu", moved)).unit.text


QUADRATIC_FORM = """/* @optiml
   sizes:    N=1024
   check:    N=1; N=37
   template: D={dim}
   x:        in  float[N*D]
   P:        in  float[D*D]
   y:        out float[N]
   launch:   grid=cdiv(N,128) block=128
   tol:      1e-4
*/
template <int D>
__global__ void quadratic_form(const float* x, const float* P, float* y, int N)
{{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= N) return;
    float d[D];
    float running = 0.0f;
    for (int k = 0; k < D; ++k) {{
        running += x[r * D + k];
        d[k] = running;
    }}
    float q = 0.0f;
    for (int i = 0; i < D; ++i) {{
        float pd = 0.0f;
        for (int j = 0; j < D; ++j) pd += P[i * D + j] * d[j];
        q += d[i] * pd;
    }}
    y[r] = q;
}}
"""


def test_loops_over_a_template_sized_array_are_written_out_within_the_nests_bound():
    """D a template parameter: its loops are of constant bounds. A 4 x 4 nest is written out (16 turns), the array
    then a local per element; a 64 x 64 nest (4096 turns) is not, and the refusal says so."""
    program = lift(candidate_of("user.cu", QUADRATIC_FORM.format(dim=4)))
    assert isinstance(program, LoopProgram) and "d_2" in str(program), str(program)
    lifted_equal_at_its_checks(QUADRATIC_FORM.format(dim=4))
    refused = lift(candidate_of("user.cu", QUADRATIC_FORM.format(dim=64)))
    assert isinstance(refused, NotLiftable) and "run 4096 turns" in refused.reason and refused.location.line == 16, \
        str(refused)
