"""Map points fused along an axis (ir/schedule.py's `fused`, ir/emit.py's fused_points): where they apply, and that
what they emit equals the program, tails included (the enumerated schedules of every kernel are also compiled and
run by test_ir_emit.py)."""

from __future__ import annotations

import numpy as np
import pytest

from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.analysis import conditions_pushed_into_loops, point_dependent
from optiml_engine.ir.emit import emit
from optiml_engine.ir.interpret import run_program
from optiml_engine.ir.lift import lift
from optiml_engine.ir.printer import c_expr
from optiml_engine.ir.program import For, If
from optiml_engine.ir.schedule import Schedule, shape_of, space
from optiml_engine.source.contract import resolve
from tests.unit.test_ir_lift import ROOT, candidate_of


@pytest.mark.parametrize("example, axes", [
    ("blur3x3", ("y",)),             # clamped taps: rows shared along y; along x each point clamps its own column
    ("row_max", ()),                 # each point reads a row of its own: nothing to share
    ("gemv_rowmajor", ("x",)),       # x[c] read once for a thread's rows
    ("vector_add", ()),              # no loop
])
def test_where_points_may_share_loops(example, axes):
    assert shape_of(lift(candidate_of(ROOT / f"examples/{example}.cu"))).fusable == axes


def test_a_condition_holding_a_whole_loop_is_pushed_into_it():
    program = lift(candidate_of(ROOT / "tests/heldout/conv2d_3x3_multichan.cu"))
    dependent = point_dependent(program.body, "oy")
    assert {"oy", "iy", "acc"} <= dependent and "ox" not in dependent
    pushed = conditions_pushed_into_loops(program.body, dependent)
    (channels,) = [s for s in pushed if isinstance(s, For)]
    (rows,) = channels.body
    (columns,) = rows.body[1:]                       # after `iy = ...`: the row check moved inside the kx loop
    assert isinstance(columns, For) and isinstance(columns.body[0], If)
    assert shape_of(program).fusable == ("x", "y")


@pytest.mark.parametrize("axis, items", [("x", 2), ("x", 4), ("y", 2), ("y", 4)])
def test_fused_points_equal_the_program_with_tails(axis, items):
    """Sizes that leave a thread's last points past the end: the tail path computes the last point in their
    place and writes only its own."""
    candidate = candidate_of(ROOT / "tests/heldout/conv2d_3x3_multichan.cu")
    program = lift(candidate)
    shape = shape_of(program)
    emitted = emit(program, shape, Schedule(family="map", block=(32, 4), items=items, fused=True, fused_axis=axis),
                   candidate)
    for binding in ({"C": 2, "H": 13, "W": 37}, {"C": 1, "H": 1, "W": 3}, {"C": 3, "H": 5, "W": 1}):
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=4)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)
        got = run_on_cpu(emitted, binding, inputs)
        found = compare(np, "out", got["out"], expected["out"], "float32", 1e-5, None)
        assert found.ok, f"{binding}: {found.reason}\n{emitted.unit.text}"


@pytest.mark.parametrize("path, axes", [
    ("tests/heldout/conv1d_valid.cu", ("x",)),                 # x[i + k]: the taps move with the point
    ("tests/heldout/conv2d_3x3_multichan.cu", ("x",)),         # along x inside the kx loop; along y the kx loop
                                                               # inside the ky loop moves the reads too
    ("examples/gemv_rowmajor.cu", ()),                         # x[c] does not move with the row
    ("examples/blur3x3.cu", ()),                               # clamped taps: not affine in the point
])
def test_where_a_loop_slides_reads_with_the_points(path, axes):
    assert shape_of(lift(candidate_of(ROOT / path))).slid == axes


def assert_equals_program(candidate, program, emitted, output: str, bindings) -> None:
    """The emitted kernel on the CPU emulator equals the program's NumPy result at every binding."""
    for binding in bindings:
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=5)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)
        got = run_on_cpu(emitted, binding, inputs)
        found = compare(np, output, got[output], expected[output], "float32", 1e-5, None)
        assert found.ok, f"{binding}: {found.reason}\n{emitted.unit.text}"


@pytest.mark.parametrize("path, bindings", [
    ("tests/heldout/conv1d_valid.cu", ({"n": 1000, "K": 7}, {"n": 37, "K": 31}, {"n": 3, "K": 3}, {"n": 5, "K": 1})),
    ("tests/heldout/conv2d_3x3_multichan.cu", ({"C": 2, "H": 13, "W": 37}, {"C": 1, "H": 1, "W": 3},
                                               {"C": 3, "H": 5, "W": 1})),
])
@pytest.mark.parametrize("items", [2, 4])
def test_register_windows_equal_the_program(path, bindings, items):
    """The window starts at the thread's first point and slides one element a step; sizes leave whole threads,
    threads past the end and threads whose last points pass it (the tail path, without windows)."""
    candidate = candidate_of(ROOT / path)
    program = lift(candidate)
    emitted = emit(program, shape_of(program), Schedule(family="map", block=(32, 1), items=items, fused=True,
                                                        fused_axis="x", window=True), candidate)
    assert "_window_0" in emitted.unit.text
    output = next(a.param for a in candidate.contract.arrays if a.direction == "out")
    assert_equals_program(candidate, program, emitted, output, bindings)


@pytest.mark.parametrize("path, rows", [
    ("tests/heldout/heat1d_5pt.cu", [("u", None, -2, 2)]),             # u[i - 2] ... u[i + 2]
    ("tests/heldout/jacobi2d.cu", [("u", "y * w", -1, 1)]),            # the middle row's taps; the rows above and
                                                                       # below are read at one offset each
    ("tests/heldout/conv1d_valid.cu", []),                             # x[i + k]: a loop moves the taps
    ("examples/vector_add.cu", []),                                    # each point its own element
])
def test_where_neighbouring_points_read_each_others_elements(path, rows):
    found = shape_of(lift(candidate_of(ROOT / path))).neighbour_rows
    assert [(r.array, r.base and c_expr(r.base), r.low, r.high) for r in found] == rows


@pytest.mark.parametrize("path, bindings", [
    ("tests/heldout/heat1d_5pt.cu", ({"n": 10003}, {"n": 1}, {"n": 4}, {"n": 5}, {"n": 255}, {"n": 517})),
    ("tests/heldout/jacobi2d.cu", ({"h": 13, "w": 37}, {"h": 3, "w": 3}, {"h": 5, "w": 130}, {"h": 4, "w": 261})),
])
@pytest.mark.parametrize("items, block", [(2, (32, 1)), (4, (64, 1)), (4, (32, 4))])
def test_neighbour_windows_equal_the_program(path, bindings, items, block):
    """A warp's lanes pass each other the ends of their windows; its first and last lanes read theirs, and
    threads whose points pass the space's end (the tail path, without windows) still take part in the shuffles.
    Sizes leave whole warps, partial warps, one point, and rows misaligned for vector reads and writes."""
    candidate = candidate_of(ROOT / path)
    program = lift(candidate)
    if len(program.space) == 1 and block[1] > 1:
        pytest.skip("a 1-D space's blocks are one row")
    emitted = emit(program, shape_of(program), Schedule(family="map", block=block, items=items, fused=True,
                                                        fused_axis="x", neighbours=True), candidate)
    assert "__shfl_up_sync" in emitted.unit.text and "__shfl_down_sync" in emitted.unit.text
    output = next(a.param for a in candidate.contract.arrays if a.direction != "in")
    # Each writes its point on every path (heat1d on both branches, jacobi's space the interior): the thread's
    # points written together.
    assert f"{output}_points[" in emitted.unit.text
    assert_equals_program(candidate, program, emitted, output, bindings)


def test_a_write_not_made_on_every_path_is_left_where_it_is():
    """A point that writes on one branch only keeps its write: a window written out whole would overwrite the
    elements the other branch leaves as they were."""
    source = (ROOT / "tests/heldout/heat1d_5pt.cu").read_text().replace(
        "        u_next[i] = u[i];\n        return;", "        return;")
    candidate = candidate_of(ROOT / "tests/heldout/heat1d_5pt.cu", source)
    program = lift(candidate)
    emitted = emit(program, shape_of(program), Schedule(family="map", block=(32, 1), items=4, fused=True,
                                                        fused_axis="x", neighbours=True), candidate)
    assert "u_next_points[" not in emitted.unit.text and "u_neighbours[" in emitted.unit.text


@pytest.mark.parametrize("path, bindings, rows", [
    ("tests/heldout10/depthwise_conv5x5.cu", ({"N": 1, "C": 2, "H": 7, "W": 130}, {"N": 2, "C": 3, "H": 7, "W": 9},
                                              {"N": 1, "C": 1, "H": 1, "W": 1}), 5),
    ("tests/heldout2/box5_1d.cu", ({"n": 1000}, {"n": 3}, {"n": 257}), 1),
])
@pytest.mark.parametrize("items, block", [(2, (32, 1)), (4, (64, 1)), (4, (32, 4))])
def test_taps_in_constant_loops_written_out_share_neighbour_windows(path, bindings, rows, items, block):
    """A convolution's or a stencil's taps in loops of constant bounds (ir/unroll.py): written out, each is a read
    at a constant offset from the point, one neighbour row per row of taps; the neighbour windows of the program
    written out equal the program as written, with partial warps, one point and rows misaligned for vectors."""
    from optiml_engine.ir.unroll import unrolled
    candidate = candidate_of(ROOT / path)
    program = lift(candidate)
    written_out = unrolled(program)
    shape = shape_of(written_out)
    assert not shape_of(program).neighbour_rows and len(shape.neighbour_rows) == rows
    if len(program.space) == 1 and block[1] > 1:
        pytest.skip("a 1-D space's blocks are one row")
    emitted = emit(written_out, shape, Schedule(family="map", block=block, items=items, fused=True, fused_axis="x",
                                                neighbours=True), candidate)
    assert "__shfl_down_sync" in emitted.unit.text
    output = next(a.param for a in candidate.contract.arrays if a.direction != "in")
    assert_equals_program(candidate, program, emitted, output, bindings)


def test_loops_written_out_keep_each_copys_locals_and_the_order_of_the_sums():
    """Each copy of a body declares its locals under names of its own, and the program written out computes what
    the program does, sums added in the same order (equal to the last bit)."""
    from optiml_engine.ir.unroll import unrolled
    candidate = candidate_of(ROOT / "tests/heldout10/depthwise_conv5x5.cu")
    program = lift(candidate)
    written_out = unrolled(program)
    text = str(written_out)
    assert "for (" not in text and "int iy_0_0 =" in text and "int iy_4_4 =" in text
    for binding in ({"N": 2, "C": 3, "H": 7, "W": 9}, {"N": 1, "C": 5, "H": 33, "W": 2}):
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=3)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)["y"]
        assert np.array_equal(run_program(written_out, resolved, candidate.contract.arrays, inputs)["y"], expected)


def test_a_loop_with_a_bound_from_the_sizes_is_not_written_out():
    from optiml_engine.ir.unroll import unrolled
    program = lift(candidate_of(ROOT / "tests/heldout/conv1d_valid.cu"))      # for (k = 0; k < K; ++k)
    assert unrolled(program) is program


@pytest.mark.parametrize("path, bindings", [
    ("tests/heldout10/depthwise_conv5x5.cu", ({"N": 1, "C": 2, "H": 19, "W": 37}, {"N": 2, "C": 3, "H": 7, "W": 9},
                                              {"N": 1, "C": 1, "H": 1, "W": 1}, {"N": 1, "C": 1, "H": 2, "W": 3})),
    ("tests/heldout/conv2d_3x3_multichan.cu", ({"C": 2, "H": 13, "W": 37}, {"C": 1, "H": 1, "W": 3},
                                               {"C": 3, "H": 17, "W": 1})),
])
@pytest.mark.parametrize("axis, items", [("y", 2), ("y", 4), ("y", 8), ("x", 4)])
def test_taps_written_out_are_read_once_by_a_threads_points(path, bindings, axis, items):
    """Written out, point j's tap at one row below is point j + 1's tap at its own row: the fused points read each
    such element once (emit.py `common_reads`), out of bounds as zero, and still equal the program at sizes whose
    edges every point's bounds checks meet (one row, one column, rows fewer than the points)."""
    from optiml_engine.ir.unroll import unrolled
    candidate = candidate_of(ROOT / path)
    program = lift(candidate)
    written_out = unrolled(program)
    shape = shape_of(written_out)
    assert axis in shape.fusable
    emitted = emit(written_out, shape, Schedule(family="map", block=(32, 4), items=items, fused=True,
                                                fused_axis=axis), candidate)
    array = "x" if "depthwise" in path else "img"
    taps = emitted.unit.text.count(f"float {array}_tap")
    rows, width = (5, 5) if "depthwise" in path else (3, 3)
    # Along y, the rows of taps two or more of the points read; along x, the columns.
    shared = sum(1 for u in range(items + rows - 1) if sum(1 for j in range(items) if 0 <= u - j < rows) >= 2)
    assert taps > 0 and taps == (shared * width if axis == "y" else shared * rows)
    output = next(a.param for a in candidate.contract.arrays if a.direction != "in")
    assert_equals_program(candidate, written_out, emitted, output, bindings)


def test_reads_no_two_points_share_are_left_where_they_are():
    """Points of a 1-D stencil along x read neighbouring elements, but a row reduction's points read rows of their
    own: nothing to read once, and the emitted code is what it was (no register, the reads under their checks)."""
    candidate = candidate_of(ROOT / "examples/gemv_rowmajor.cu")
    program = lift(candidate)
    emitted = emit(program, shape_of(program), Schedule(family="map", block=(128, 1), items=4, fused=True,
                                                        fused_axis="x"), candidate)
    assert "_tap" not in emitted.unit.text


@pytest.mark.parametrize("a, b, index, apart", [
    ("(c * H + y + 1) * W + x", "(c * H + y) * W + x", "y", True),      # one row below: one step of y
    ("(c * H + y + 3) * W + x", "(c * H + y) * W + x", "y", True),
    ("(c * H + y) * W + x + 1", "(c * H + y) * W + x", "y", False),     # one column over: not a step of y
    ("(c * H + y) * W + x + 1", "(c * H + y) * W + x", "x", True),
    ("2 * x + 2", "2 * x", "x", True),                                  # a stride-2 window: one step of 2
    ("2 * x + 1", "2 * x", "x", False),                                 # half a step: no point reads it
    ("(y + 9) * W + x", "y * W + x", "y", False),                        # beyond TAPS_APART
    ("x * x + 1", "x * x", "x", False),                                  # not affine in x
])
def test_reads_steps_of_the_point_apart(a, b, index, apart):
    from optiml_engine.ir.analysis import polynomial
    from optiml_engine.ir.schedule import _steps_apart
    assert _steps_apart(polynomial(expression(a)), polynomial(expression(b)), index) is apart


def test_one_index_in_two_spellings_is_one_polynomial():
    from optiml_engine.ir.analysis import polynomial
    from optiml_engine.ir.program import Cast
    assert polynomial(expression("(c * H + (y + 1) - 1) * W + x")) == polynomial(expression("x + W * y + c * W * H"))
    assert polynomial(Cast(ctype="long long", operand=expression("(a - b) * 2"))) == {("a",): 2, ("b",): -2}
    assert polynomial(expression("a / 2")) is None and polynomial(expression("a * 0")) == {}


def expression(text: str):
    """An index written in C's integer arithmetic (names, numbers, + - * /, parentheses) as a program expression."""
    import ast
    from optiml_engine.ir.program import Binary, Const, Ref, Unary
    ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}

    def convert(node):
        if isinstance(node, ast.BinOp):
            return Binary(op=ops[type(node.op)], left=convert(node.left), right=convert(node.right))
        if isinstance(node, ast.UnaryOp):
            return Unary(op="-", operand=convert(node.operand))
        if isinstance(node, ast.Name):
            return Ref(name=node.id)
        return Const(text=str(node.value))

    return convert(ast.parse(text, mode="eval").body)


def test_loops_whose_bounds_are_constant_arithmetic_are_written_out():
    """`for (k = -HALF; k <= HALF; k++)` with `#define HALF (WIDTH / 2)`: bounds folded as C folds them (-(7 / 2)
    is -3), the loop written out, each tap a read at a constant offset (one neighbour row of 7), and the program
    written out equal to the program to the last bit."""
    from optiml_engine.ir.analysis import folded
    from optiml_engine.ir.unroll import unrolled
    assert [folded(expression(e)) for e in ("-(7 / 2)", "7 / 2 + 1", "-7 / 2", "7 - 9 / 4 * 2", "n + 1")] == \
        [-3, 4, -3, 3, None]
    candidate = candidate_of(ROOT / "tests/heldout12/moving_avg7.cu")
    program = lift(candidate)
    written_out = unrolled(program)
    assert written_out is not program and "for (" not in str(written_out)
    (row,) = shape_of(written_out).neighbour_rows
    assert (row.low, row.high) == (-3, 3)
    for binding in ({"n": 1000}, {"n": 3}, {"n": 1}):
        resolved = resolve(candidate.contract, binding)
        inputs = make_inputs(np, candidate.contract.arrays, resolved.lengths, seed=2)
        expected = run_program(program, resolved, candidate.contract.arrays, inputs)["y"]
        assert np.array_equal(run_program(written_out, resolved, candidate.contract.arrays, inputs)["y"], expected)


@pytest.mark.parametrize("path, bindings", [
    ("tests/heldout/conv2d_3x3_multichan.cu", ({"C": 2, "H": 19, "W": 37}, {"C": 1, "H": 1, "W": 3},
                                               {"C": 3, "H": 9, "W": 2})),
    ("tests/heldout10/depthwise_conv5x5.cu", ({"N": 1, "C": 2, "H": 21, "W": 37}, {"N": 1, "C": 1, "H": 4, "W": 5})),
    ("tests/heldout13/avgpool5x5_s1.cu", ({"P": 2, "H": 19, "W": 37}, {"P": 1, "H": 3, "W": 2})),
])
@pytest.mark.parametrize("axis, items", [("y", 4), ("y", 8), ("x", 2)])
def test_an_interior_path_without_bounds_checks_equals_the_program(path, bindings, axis, items):
    """Schedule `interior`: where every bounds check of a thread's points holds (settled once, before the code),
    the code without them; elsewhere the code as written. Equal to the program at sizes with interior threads,
    edge threads and no interior at all."""
    from optiml_engine.ir.delinearize import delinearized
    from optiml_engine.ir.unroll import unrolled
    candidate = candidate_of(ROOT / path)
    written_out = unrolled(delinearized(lift(candidate)))
    shape = shape_of(written_out)
    schedule = Schedule(family="map", block=(32, 4), items=items, fused=True, fused_axis=axis, interior=True)
    assert schedule in space(shape, "map")
    emitted = emit(written_out, shape, schedule, candidate)
    checked = emit(written_out, shape, schedule.model_copy(update={"interior": False}), candidate)
    assert emitted.unit.text.count("if (") > checked.unit.text.count("if (")     # the path chosen once
    output = next(a.param for a in candidate.contract.arrays if a.direction != "in")
    assert_equals_program(candidate, written_out, emitted, output, bindings)


def test_a_program_without_bounds_checks_has_no_interior_schedules():
    """A 3x3 blur whose taps clamp their coordinates (min/max, no condition): nothing to settle once."""
    program = lift(candidate_of(ROOT / "examples/blur3x3.cu"))
    assert not any(s.interior for s in space(shape_of(program), "map"))
