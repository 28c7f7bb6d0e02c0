"""Schedules (IR.md): how a program's parallel space and loops map onto threads, and which schedules a program
allows.

The families:
- map: every point by its own thread; the innermost index on threadIdx.x, the next on y, the outermost on the grid's
  z; `items` points per thread along x, in groups of `vector` consecutive points whose reads and writes along the
  unit-stride index are one 4- to 16-byte access each (aligned at run time, a scalar path for tails); or `fused`:
  a thread's consecutive points sharing the point code's loops, and with `window` a loop's reads that move with the
  points (a convolution's taps) held in registers the loop slides, or with `neighbours` the reads at constant offsets
  from the point (a stencil's taps) held in a register window per thread whose ends the neighbouring lanes of the
  warp pass by shuffles.
- reduce: a group of `lanes` threads shares each point (and `splits` blocks, the last combining their partials,
  when a one-pass program has too few points to fill the GPU); every top-level loop of the point's code is split
  across the group and its reductions combined (warp shuffles, then shared memory across warps), so that several
  passes over a row (softmax: max, sum, write) run in one thread group. Lanes along x (a row's unit-stride loop:
  warp or block per point) or along y (a column's: `block_x` neighbouring points along x, each with `lanes` threads
  along y).
- stage: reads whose unit-stride index is not the write's (transposes, permutations) go through a padded
  shared-memory tile (32 or 64 wide), loaded along their own unit-stride index.
- privatize: atomic sums into one element summed per thread and per block first, or a small target array copied
  per block into shared memory; one atomic per block (and element). With `resident`, the grid is capped at that
  many blocks per SM and each block walks chunks of points grid-stride, so that the atomics merging the blocks'
  copies stay few however many points there are.
- contraction: `acc += left * right` over a loop whose operands follow different parallel indices (matrix products
  in any layout): output tiles, both operands staged through double-buffered shared memory, a register tile per
  thread; with few output tiles, the loop split across blocks (split-K).
- scan: a loop carrying one value that its iterations update (a reduction's update) and write as they go (prefix
  sums, running maxima): a warp per point walks the loop 32 x `items` iterations at a time, each lane a stretch of
  `items`; the lanes' stretch totals are scanned with warp shuffles and each lane replays its stretch from the value
  before it. With `splits` (a 1-D space: few points, long loops), a point's loop is cut into chunks, a warp each,
  that find the value before them by decoupled look-back. Down a strided axis (a column), `block_x` neighbouring
  points per block with `lanes` threads each along y, the stretch totals scanned in shared memory.
- stream: a thread per point walks its loop as written (scans, running values, online updates: loops no thread
  group may split), but the rows it walks are read and written through shared-memory windows the block's threads
  load and store together, neighbouring threads neighbouring elements.

Which families apply is decided here, from the program alone (analysis.py); the numeric parameters are the search's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from optiml_engine.ir.analysis import (
    HeldRows, Polynomial, Reduction, all_loads, bounds_checks, conditions_pushed_into_loops, constant, has_loops,
    held_rows, inlined, linear, loads, loop_reductions, names_of, names_read, names_written, point_dependent,
    polynomial, reduction_update, single_assignments, statement_exprs, stride, subexpressions, unit_stride, walk)
from optiml_engine.ir.delinearize import factors, quotient
from optiml_engine.ir.implicit_gemm import implicit_gemm
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Const, Expr, For, If, Let, Load, LoopProgram, ParallelIndex, Ref, ScalarParam, Stmt,
    Store, Unary, fresh_name, mentions, names_in, substitute, substituted, with_children)
from optiml_engine.ir.vector_groups import (
    declared_types, digit_split, index_locals_inlined, lowest_digit, uniform_branches)
from optiml_engine.model import Frozen
from optiml_engine.source.ctypes import dtype_of, itemsize

Family = Literal["map", "reduce", "stage", "privatize", "contraction", "stream", "scan"]


class Schedule(Frozen):
    family: Family
    block: tuple[int, int] = (256, 1)     # threads along x and y
    items: int = 1                        # map: points per thread along the innermost index; scan: iterations per lane
    vector: int = 1                       # map, stage: consecutive points per vector access (1: scalar)
    lanes: int = 1                        # reduce: threads per point
    lanes_axis: Literal["x", "y"] = "x"   # reduce, scan: the thread axis a point's lanes lie along
    tile: int = 32                        # stage: the shared-memory tile's side; stream: a window's elements
    target_copy: Literal["register", "shared", "runs"] = "register"   # privatize: a sum per thread, the target per
                                          # block, or a sum per thread for each run of points adding into one element
    k_tile: int = 8                       # contraction: the reduction loop's step through shared memory
    tile_rows: int = 0                    # contraction: the output tile's rows (0: square, `tile` of them)
    blocks_per_sm: int = 1                # contraction: registers capped so that this many blocks fit an SM
    splits: int = 1                       # reduce, contraction: blocks sharing each point's (tile's) loop
    fused: bool = False                   # map: a thread's `items` points consecutive, sharing the code's loops
    fused_axis: Literal["x", "y"] = "x"   # map, fused: along the innermost index or the second innermost
    window: bool = False                  # map, fused: reads that move with the point slid through registers
    slide_block: bool = False             # map, window: slid `items` steps at a time, the steps written out and the
                                          # next `items` elements read as 16-byte vectors where contiguous
    neighbours: bool = False              # map, fused along x: constant-offset reads shared across the warp's lanes
    interior: bool = False                # map, fused: a path without the points' bounds checks where all hold
    resident: int = 0                     # privatize: blocks per SM of a capped grid whose blocks walk the chunks
                                          # of points grid-stride (0: a block per chunk)
    held: int = 0                         # reduce: steps of each lane whose elements of the rows the point's loops
                                          # share stay in registers from the first loop to the last (0: none)
    cluster: int = 1                      # reduce: blocks of a thread-block cluster sharing each point's loops, each
                                          # loop's partials exchanged through distributed shared memory (1: none)

    def threads(self) -> int:
        return self.block[0] * self.block[1]

    def output_tile(self) -> tuple[int, int]:
        """contraction: (rows, columns) of a block's output tile."""
        return self.tile_rows or self.tile, self.tile

    def describe(self, columns_walked: bool = False) -> str:
        """What the schedule does, in the trajectory's words; `columns_walked`: a contraction's columns are a loop of
        the point that reduces them (`ColumnWalk`)."""
        split = (f", each point's loop split across {self.splits} blocks (the last to finish combines their "
                 f"partials)") if self.splits > 1 else ""
        if self.family == "map":
            vector = f", {self.vector}-point vector accesses" if self.vector > 1 else ""
            shape = f"{self.block[0]}x{self.block[1]}" if self.block[1] > 1 else f"{self.block[0]}"
            if self.fused:
                slid = (f"{self.items} steps at a time (the steps written out), the next {self.items} elements read "
                        "as 16-byte vectors where they are contiguous and aligned") if self.slide_block else \
                    "one new element a step"
                window = (", the reads that move with the point along a loop held in a register window that the "
                          f"loop slides, {slid}") if self.window else \
                    (", the reads at constant offsets from the points held in a register window, its ends passed "
                     "by the neighbouring lanes through warp shuffles") if self.neighbours else ""
                interior = (", and where every point's bounds checks hold (away from the edges), a path without "
                            "them") if self.interior else ""
                return (f"map: block {shape}, {self.items} consecutive points per thread along {self.fused_axis} "
                        f"sharing the point code's loops (what does not change between them read once){window}"
                        f"{interior}")
            return f"map: block {shape}, {self.items} point{'s' if self.items > 1 else ''} per thread{vector}"
        if self.family == "reduce":
            if self.lanes_axis == "x":
                per_block = f", {self.block[1]} points per block" if self.block[1] > 1 else ""
                group = "a warp" if self.lanes == 32 else f"{self.lanes} threads"
                vector = (f", {self.vector} consecutive elements per lane as one vector access" if self.vector > 1
                          else "")
                held = (f", each lane's first {self.held * self.vector} elements of the rows its loops share held "
                        f"in registers across them") if self.held else ""
                cluster = (f", each point's loops shared by a cluster of {self.cluster} blocks (each loop's partials "
                           f"exchanged through distributed shared memory)") if self.cluster > 1 else ""
                return f"reduce: {group} per point along its loops{per_block}{vector}{held}{split}{cluster}"
            return (f"reduce: {self.block[0]} neighbouring points per block, {self.lanes} threads each along y "
                    f"(combined in shared memory){split}")
        if self.family == "contraction":
            split = (f", the loop split across {self.splits} blocks per tile (the last to finish adds their partial "
                     f"tiles)") if self.splits > 1 else ""
            rows, columns = self.output_tile()
            capped = f", registers capped for {self.blocks_per_sm} blocks per SM" if self.blocks_per_sm > 1 else ""
            walk = ""
            if columns_walked:
                split = (f", a row tile's columns shared by {self.splits} blocks (the last to finish combines each "
                         f"row's values)") if self.splits > 1 else ""
                walk = (", each block walking its rows' columns tile by tile, each row's values combined in registers "
                        "and across its threads' lanes")
            return (f"contraction: {rows}x{columns} output tiles, both operands staged in shared memory "
                    f"{self.k_tile} steps of the loop at a time, {self.items}x{self.items} outputs per thread{walk}"
                    f"{split}{capped}")
        vector = f" ({self.vector} consecutive points read as one vector)" if self.vector > 1 else ""
        resident = (f", {self.resident} blocks per SM walking the points grid-stride" if self.resident else "")
        step = " a step" if self.resident else ""
        if self.family == "privatize" and self.target_copy == "shared":
            return (f"privatize: a copy of the target array per block in shared memory, {self.items} "
                    f"point{'s' if self.items > 1 else ''} per thread{vector}{step}, a block of {self.block[0]}"
                    f"{resident}, one atomic per element and block")
        if self.family == "privatize" and self.target_copy == "runs":
            shape = f"{self.block[0]}x{self.block[1]}" if self.block[1] > 1 else f"{self.block[0]}"
            return (f"privatize: {self.items} point{'s' if self.items > 1 else ''} per thread, a block of {shape}, "
                    "each thread's run of points adding into one element summed in a register, the warp's and the "
                    "block's combined where their elements agree, one atomic per element and block")
        if self.family == "privatize":
            return (f"privatize: {self.items} point{'s' if self.items > 1 else ''} per thread{vector}{step} "
                    f"summed in a register, a block of {self.block[0]}{resident} combined by warp shuffles, one "
                    f"atomic per block")
        if self.family == "scan" and self.splits > 1:
            return (f"scan: the point's loop cut into up to {self.splits} chunks, a warp each ({self.block[1]} a "
                    f"block), {self.items} "
                    f"consecutive iteration{'s' if self.items > 1 else ''} per lane (each chunk's sum published, the "
                    f"value before it found by looking back over the chunks before it)")
        if self.family == "scan" and self.lanes_axis == "y":
            return (f"scan: {self.block[0]} neighbouring points per block, {self.lanes} threads each along y taking "
                    f"{self.items} consecutive iteration{'s' if self.items > 1 else ''} a step (the stretch totals "
                    f"scanned across the threads in shared memory)")
        if self.family == "scan" and self.lanes > 32:
            return (f"scan: a block of {self.lanes} per point along its loop, {self.items} consecutive iteration"
                    f"{'s' if self.items > 1 else ''} per lane (the carried value scanned across each warp's lanes "
                    f"with shuffles, across the warps in shared memory)")
        if self.family == "scan":
            return (f"scan: a warp per point along its loop, {self.items} consecutive iteration"
                    f"{'s' if self.items > 1 else ''} per lane, {self.block[1]} points per block (the carried value "
                    f"scanned across lanes with warp shuffles)")
        if self.family == "stream":
            return (f"stream: a thread per point walking its loop, each row's next {self.tile} elements staged "
                    f"through shared memory for a block of {self.block[0]} points")
        vector = (f", {self.vector} consecutive elements a thread read and written as one vector access"
                  if self.vector > 1 else "")
        return (f"stage: {self.tile}x{self.tile} shared-memory tile (padded), block {self.block[0]}x{self.block[1]}"
                f"{vector}")


@dataclass(frozen=True)
class ColumnWalk:
    """A product whose columns are a loop of the point that reduces them: `for (j ...) { acc = ...; for (k ...) acc
    += x[row][k] * w[j][k]; best = fmaxf(best, f(acc)); }` (a Gemm then a max, sum or mean over its features; a
    convolution then a pool over its positions). `program` is the point's code with the loop's index a parallel
    index of its own, innermost (the product's columns), and the loop's body each (row, column)'s code, ending in
    the update of `reduction`'s value (of C type `ctype`); `before` and `after`: the point's code around the loop
    (the value's declaration; the row's code once the value is complete); `rereads`: the row's code reads what the
    loop writes (a row's outputs normalized after: written by the row's threads, read back once the walk is done)."""

    loop: For
    reduction: Reduction
    ctype: str
    program: LoopProgram
    before: tuple[Stmt, ...]
    after: tuple[Stmt, ...]
    rereads: bool


@dataclass(frozen=True)
class Contraction:
    """`acc += left * right` over a loop whose operands are indexed by different parallel indices: left by the
    second innermost (and the loop), right by the innermost (and the loop): a matrix product in any layout. Or
    `acc += term`, any expression of reads of each side (`(a - b) * (a - b)`: squared distances; `a[i][k] * b[j][k]
    + b[i][k] * a[j][k]`: syr2k's two products, each side two operands): `lefts` and `rights` the reads, `term` the
    expression with each read as its `operand_value` (None: the product of the one read of each side). `ranged`: the
    loop's bounds are affine in the point's two indices (a product of triangular or banded matrices, `for (k = col;
    k <= row; ++k)`), each tile walking the steps some point of it takes, each point adding only its own."""

    loop: For
    accumulator: str
    lefts: tuple[Expr, ...]
    rights: tuple[Expr, ...]
    term: Expr | None = None
    ranged: bool = False
    columns: ColumnWalk | None = None

    @property
    def left(self) -> Expr:
        return self.lefts[0]

    @property
    def right(self) -> Expr:
        return self.rights[0]


def operand_value(side: str, position: int) -> str:
    """The name a contraction's term reads its `position`-th operand of a side ("left", "right") by (no C name can
    be it)."""
    return f"\0{side}{position}"


OPERANDS_A_SIDE = 2     # reads of one side a contraction stages (each its own tiles of shared memory)


@dataclass(frozen=True)
class Window:
    """An access `array[rest + var]` inside a streamed loop: `rest` reads only parallel indices and scalars (and
    neighbouring points' rests are not neighbouring elements), `var` is the loop's variable or a loop's inside it.
    The window holds `array[rest + w]` for a stretch of w, for each point of a block."""

    array: str
    rest: Expr
    var: str


@dataclass(frozen=True)
class Streamed:
    """A top-level loop whose bounds are the same for every point, walked a window at a time: the reads of
    arrays the program never writes (windows, each the loads of one array and rest), and the plain writes of the
    loop's own body at `rest + loop var` (step 1) of arrays written only there and never read."""

    loop: For
    reads: tuple[tuple[Load, Window], ...]
    writes: tuple[tuple[Store, Window], ...]

    def windows(self) -> list[Window]:
        found: list[Window] = []
        for _, window in (*self.reads, *self.writes):
            if not any(w.array == window.array and w.rest == window.rest for w in found):
                found.append(window)
        return found


@dataclass(frozen=True)
class Slide:
    """Reads inside a loop that move with the point as the loop moves: their index at (point + 1, var) is their
    index at (point, var + 1) (a convolution's taps: x[i + k] along x; a column of taps, in[(y + k) * W + x], along
    y). A thread's consecutive points (schedule `fused`) share them: a register per point holds its element at
    the loop's current step, and each step shifts the registers by one and reads one new element."""

    array: str
    index: Expr                  # the reads' index, the locals it reads inlined
    loads: tuple[Load, ...]


@dataclass(frozen=True)
class NeighbourRow:
    """Reads of one array at constant offsets from the innermost index, `array[base + x + offset]`: the elements
    from `low` to `high` around a point (0 among them). `base` is free of the innermost index and of the point
    code's locals (None: zero)."""

    array: str
    base: Expr | None
    low: int
    high: int


@dataclass(frozen=True)
class Scan:
    """A loop whose one carried value is updated by a reduction's update (a top-level statement of the loop) and
    may be read by everything else in it, its writes indexed by the loop variable: unit-stride along it, or, with
    `across_points`, along the innermost parallel index (a scan down columns)."""

    loop: For
    reduction: Reduction
    across_points: bool = False
    leading: tuple[Reduction, ...] = ()   # the reductions of loops before it (softmax, then a cumulative sum of the
                                          # probabilities): a warp shares those loops as reduce's lanes do


@dataclass(frozen=True)
class Shape:
    """What the families need to know about a program, read once."""

    program: LoopProgram
    families: tuple[Family, ...]
    reductions: tuple[Reduction, ...]        # of the top-level loops (reduce)
    staged: tuple[Load, ...]                 # reads to stage through shared memory (stage)
    write_axis: int                          # stage: the space index the writes are unit-stride along
    read_axis: int                           # stage: the space index the staged reads are unit-stride along
    scalar_atomics: tuple[Atomic, ...]       # privatize: the atomicAdds into one element, each target once
    run_atomics: tuple[Atomic, ...]          # privatize: the atomicAdds into an element neighbouring points share
    shared_target: str | None                # privatize: the small array whose elements the data choose
    contraction: Contraction | None          # contraction: the loop, its accumulator and its two operands
    vector_bytes: int                        # the widest element among the map's vectorizable accesses
    lanes_axis: Literal["x", "y"]            # reduce: along the loops' unit-stride reads, or across points
    streamed: tuple[Streamed, ...]           # stream: the loops walked a window at a time
    window_bytes: int                        # stream: bytes per point and window element, all windows together
    splittable: bool                         # reduce: one pass (one loop) a point's blocks may share
    scan: Scan | None                        # scan: the loop and its carried value
    fusable: tuple[str, ...] = ()            # map: the axes ("x", "y") along which neighbouring points may share
                                             # the point code's loops
    slid: tuple[str, ...] = ()               # map: the fusable axes along which a loop's reads move with the point
    neighbour_rows: tuple[NeighbourRow, ...] = ()   # map: reads at constant offsets along x (a stencil's taps)
    held: HeldRows | None = None             # reduce: the elements several of a point's loops access alike
    clustered: bool = False                  # reduce: passes (loops) a point's blocks may share in a cluster


def element_bytes(program: LoopProgram, array: str) -> int:
    dtype = dtype_of(program.element_type(array))
    return itemsize(dtype) if dtype is not None else 0


def shape_of(program: LoopProgram) -> Shape:
    families: list[Family] = []
    innermost = program.space[-1].name
    reductions: list[Reduction] = []
    staged: tuple[Load, ...] = ()
    write_axis = read_axis = -1
    lanes_axis: Literal["x", "y"] = "x"
    loops = [s for s in _point_statements(program.body) if isinstance(s, For)]
    families.append("map")
    splittable = False
    if not has_loops(program.body):
        found, write_axis, read_axis = _staged_loads(program)
        staged = tuple(found)
        if staged:
            families.append("stage")
    elif all(_parallel_loop(loop) is not None for loop in loops) and _loops_at_top(program, loops):
        for loop in loops:
            reductions += _parallel_loop(loop) or []
        families.append("reduce")
        lanes_axis = _lanes_axis(program, loops, innermost)
        if lanes_axis == "y" and any(loop not in program.body for loop in loops):
            # Lanes along y share barriers across neighbouring points, which a loop inside an `if` of one point's
            # code would split: such a program's lanes go along x (one point per warp or block).
            lanes_axis = "x"
        splittable = _splittable(program, loops)
    clustered = "reduce" in families and lanes_axis == "x" and not splittable and _clusterable(program, loops)
    contraction = _contraction(program) or _columns_reduced(program)
    if contraction is not None:
        families.append("contraction")
    scalar_atomics = tuple(_scalar_atomics(program))
    shared_target = None if scalar_atomics else _shared_target(program)
    # Not a contraction's: its schedule sums a row's atomics itself (emit.py `row_atomic`), with the reuse.
    run_atomics = tuple(_run_atomics(program)) if contraction is None else ()
    if scalar_atomics or shared_target or run_atomics:
        families.append("privatize")
    scan = _scan(program, loops) if "reduce" not in families else None
    if scan is not None:
        families.append("scan")
        reductions += scan.leading
    fusable = tuple(axis for axis in ("x", "y") if _fusable(program, axis))
    streamed = tuple(_streamed_loops(program))
    if streamed:
        families.append("stream")
    window_bytes = sum(element_bytes(program, w.array) for loop in streamed for w in loop.windows())
    vector_bytes = max((element_bytes(program, a.name) for a in program.arrays), default=4)
    rows = tuple(neighbour_rows(program)) if _points_may_share_code(program, "x") else ()
    held = held_rows(program) if "reduce" in families and lanes_axis == "x" else None
    return Shape(program, tuple(families), tuple(reductions), staged, write_axis, read_axis, scalar_atomics,
                 run_atomics, shared_target, contraction, vector_bytes, lanes_axis, streamed, window_bytes, splittable,
                 scan, fusable, tuple(axis for axis in fusable if _slid(program, axis)), rows, held, clustered)


def neighbour_rows(program: LoopProgram) -> list[NeighbourRow]:
    """The arrays the program reads, never writes, at two or more constant offsets from the innermost index along
    one row (`u[i - 1]`, `u[i + 1]`; `a[(y + 1) * W + x - 1]`): neighbouring points read each other's elements."""
    written = {stmt.array for stmt in walk(program.body) if isinstance(stmt, (Store, Atomic))}
    offsets: dict[tuple[str, Expr | None], set[int]] = {}
    for load in all_loads(program.body):
        if load.array not in written and (found := neighbour_offset(load, program)) is not None:
            offsets.setdefault((load.array, found[0]), set()).add(found[1])
    return [NeighbourRow(array, base, min(found | {0}), max(found | {0}))
            for (array, base), found in offsets.items() if len(found) > 1]


def neighbour_offset(access: Load | Store, program: LoopProgram) -> tuple[Expr | None, int] | None:
    """(base, offset) of an access `array[base + x + offset]`, x the innermost index and the base read from the
    other parallel indices and scalars alone (a constant base None), the locals declared once that the index reads
    (`int ix = x + j - 2;`) inlined; None for other indices."""
    inner = program.space[-1].name
    index = inlined(access.index, single_assignments(program.body))
    if names_of(index) & names_written(program.body):
        return None                      # a local assigned more than once: its value at the access is not known here
    form = linear(index, {inner})
    if form is None or constant(form.get(inner, Const(text="0"))) != 1:
        return None
    base, value = _constant_apart(form.get("", Const(text="0")))
    outside = {p.name for p in program.space if p.name != inner} | {p.name for p in program.scalars}
    return (base, value) if base is None or names_of(base) <= outside else None


def _constant_apart(expr: Expr) -> tuple[Expr | None, int]:
    """`expr` as (the rest, the sum of its constant terms) over its + and - (None: no rest): `a * W + (b - 2)` is
    (a * W + b, -2)."""
    if (value := constant(expr)) is not None:
        return None, value
    if isinstance(expr, Binary) and expr.op in ("+", "-"):
        (left, low), (right, high) = _constant_apart(expr.left), _constant_apart(expr.right)
        sign = 1 if expr.op == "+" else -1
        if right is None:
            rest = left
        elif left is None:
            rest = right if sign == 1 else Unary(op="-", operand=right)
        else:
            rest = expr.model_copy(update={"left": left, "right": right})
        return rest, low + sign * high
    return expr, 0


def _fusable(program: LoopProgram, axis: str) -> bool:
    """Loops whose bounds no point changes, reading memory (a stencil's taps, a convolution's channels): a thread
    that takes neighbouring points along `axis` can run each loop once for all of them, reading what does not depend
    on the point once (weights, the taps its points share). Conditions on the point may hold a loop only as its
    whole body (pushed into it), or they would split the shared loop."""
    if not _points_may_share_code(program, axis):
        return False
    index, dependent, body = _point_code(program, axis)
    loops = [stmt for stmt in walk(body) if isinstance(stmt, For)]
    # Worth it where points share reads: one no point changes (a weight), or taps (neighbouring points read the
    # same elements at offsets the loop moves: along x, unit-stride reads; along y, reads of rows the loop moves
    # through), not where each point reads a row of its own.
    once = single_assignments(body)
    moved = set().union(*(point_dependent(body, loop.var) for loop in loops)) if loops else set()

    def shared(load: Load) -> bool:
        read_at = load.index
        for _ in range(len(once) + 1):
            read_at = substitute(read_at, once)
        names = names_of(read_at)
        if not names & dependent:
            return True
        if not names & moved:
            return False
        return axis == "y" or unit_stride(read_at, index)

    return any(shared(load) for loop in loops for load in all_loads(loop.body)) or _taps_shared(program, axis)


TAPS_APART = 8     # the most steps of the point's index two reads of one element by neighbouring points lie apart


def _taps_shared(program: LoopProgram, axis: str) -> bool:
    """Reads written out at constant offsets (a stencil's taps, or a convolution's after ir/unroll.py) of which a
    neighbouring point along `axis` reads the same element at another tap: two reads of one array the program
    never writes whose indices, as polynomials, differ by a few whole steps of the point's index (`(y + 1) * W + x`
    and `y * W + x` along y). A thread's points then read each such element once (emit.py `common_reads`)."""
    index, _, body = _point_code(program, axis)
    written = {s.array for s in walk(program.body) if isinstance(s, (Store, Atomic))}
    once = single_assignments(body)
    forms: dict[str, set[frozenset]] = {}
    for load in all_loads(body):
        at = inlined(load.index, once)
        if load.array not in written and not names_of(at) & names_written(body) and \
                (form := polynomial(at)) is not None:
            forms.setdefault(load.array, set()).add(frozenset(form.items()))
    return any(_steps_apart(dict(a), dict(b), index) for found in forms.values() for a, b in combinations(found, 2))


def _steps_apart(a: Polynomial, b: Polynomial, index: str) -> bool:
    """Whether a - b is k times the (shared, nonzero) coefficient of `index` in both, 0 < |k| <= TAPS_APART."""
    def coefficient(form: Polynomial) -> Polynomial | None:
        found: Polynomial = {}
        for term, k in form.items():
            if term.count(index) > 1:
                return None
            if index in term:
                rest = list(term)
                rest.remove(index)
                found[tuple(rest)] = k
        return found

    step = coefficient(a)
    if not step or step != coefficient(b):
        return False
    difference = {term: a.get(term, 0) - b.get(term, 0) for term in a.keys() | b.keys()}
    difference = {term: k for term, k in difference.items() if k}
    term, k = next(iter(step.items()))
    multiple, remainder = divmod(difference.get(term, 0), k)
    return remainder == 0 and 0 < abs(multiple) <= TAPS_APART and \
        difference == {t: multiple * v for t, v in step.items()}


def _edge_checks(program: LoopProgram) -> bool:
    """Whether the point code checks the points' bounds (analysis.bounds_checks): a check the emitted code may
    settle once for a thread's points (emit.py `interior_path`)."""
    return bool(bounds_checks(program.body, single_assignments(program.body),
                              {index.name for index in program.space}))


def _points_may_share_code(program: LoopProgram, axis: str) -> bool:
    """A thread may run the point code once for neighbouring points along `axis`: no loop's bounds depend on the
    point, and no condition on the point holds a loop (it would split the shared loop)."""
    if axis == "y" and len(program.space) < 2:
        return False
    _, dependent, body = _point_code(program, axis)
    loops = [stmt for stmt in walk(body) if isinstance(stmt, For)]
    if any(names_of(e) & dependent for loop in loops for e in (loop.start, loop.stop, loop.step)):
        return False
    return not any(isinstance(stmt, If) and names_of(stmt.cond) & dependent and has_loops([*stmt.then, *stmt.other])
                   for stmt in walk(body))


WINDOW_TYPES = {"float", "double", "int", "unsigned", "unsigned int", "long long", "unsigned long long", "short",
                "unsigned short", "char", "signed char", "unsigned char", "long", "unsigned long"}


def slides(program: LoopProgram, loop: For, index: str, dependent: set[str]) -> list[Slide]:
    """The reads of `loop` that move with the parallel `index` (Slide): of arrays the program never writes, of
    built-in element types (a register window starts at zero beyond the array), their index affine in the point
    and the loop variable with one coefficient, the rest read from nothing the loop or the point changes."""
    if constant(loop.step) != 1:
        return []
    written = {s.array for s in walk(program.body) if isinstance(s, (Store, Atomic))}
    inside = names_written(loop.body) | {s.var for s in walk(loop.body) if isinstance(s, For)} | {loop.var}
    once = single_assignments(program.body)
    found: dict[tuple[str, Expr], list[Load]] = {}
    for load in all_loads(loop.body):
        if load.array in written or program.element_type(load.array) not in WINDOW_TYPES:
            continue
        at = inlined(load.index, once)
        if names_of(at) & names_written(program.body):
            continue                     # a local assigned more than once: its value at the loop is not known here
        form = linear(at, {index, loop.var})
        if form is None or form.get(index) is None or form.get(index) != form.get(loop.var):
            continue
        moving = dependent | inside
        if names_of(form.get("", Const(text="0"))) & moving or names_of(form[index]) & moving:
            continue
        found.setdefault((load.array, at), []).append(load)
    return [Slide(array, at, tuple(dict.fromkeys(reads))) for (array, at), reads in found.items()]


def _point_code(program: LoopProgram, axis: str) -> tuple[str, set[str], list[Stmt]]:
    """The index a thread's neighbouring points follow along `axis`, the locals that change with it, and the point
    code with the conditions on it pushed into the loops they hold whole (the form fused points share loops in)."""
    index = program.space[-1 if axis == "x" else -2].name
    dependent = point_dependent(program.body, index)
    return index, dependent, conditions_pushed_into_loops(program.body, dependent)


def _slid(program: LoopProgram, axis: str) -> bool:
    index, dependent, body = _point_code(program, axis)
    return any(slides(program, loop, index, dependent) for loop in walk(body) if isinstance(loop, For))


def _scan(program: LoopProgram, loops: list[For]) -> Scan | None:
    """One loop in the point's code (after top-level loops that only reduce, `leading`; with them, only a scan along
    the loop variable), a top-level statement, with step 1; in it one top-level reduction update of a local declared
    outside, whose value does not depend on the carried value and which nothing else assigns; no other value carried
    from one iteration to the next; writes at indices with a stride along the loop variable, one element (lanes
    taking neighbouring iterations read and write neighbouring elements), or unit-stride along the innermost
    parallel index (a scan down columns: lanes across a block of points); no atomics. What the code writes before
    the loop the loop does not read."""
    if not loops:
        return None
    # Loops before the last that only reduce (no writes; a value each carries combined as reduce's lanes combine
    # it), at the top of the point's code, then the scan.
    *firsts, loop = loops
    leading: list[Reduction] = []
    for first in firsts:
        reductions = _parallel_loop(first)
        if first not in program.body or not reductions or \
                any(isinstance(stmt, (Store, Atomic)) for stmt in walk(first.body)):
            return None
        leading += reductions
    if loop not in program.body or constant(loop.step) != 1:
        return None
    inside = {stmt.name for stmt in walk(loop.body) if isinstance(stmt, Let)}
    updates = [(position, reduction) for position, stmt in enumerate(loop.body)
               if (reduction := reduction_update(stmt)) is not None and reduction.variable not in inside]
    if len(updates) != 1:
        return None
    position, reduction = updates[0]
    # The update's value may not depend on the carried value through locals computed from it.
    carried = {reduction.variable}
    tainted = set(carried)
    for stmt in walk(loop.body[:position]):
        if isinstance(stmt, (Let, Assign)) and any(mentions(e, tainted) for e in statement_exprs(stmt)):
            tainted.add(stmt.name)
    others = list(walk(loop.body[:position] + loop.body[position + 1:]))
    if any(isinstance(stmt, Assign) and stmt.name not in inside for stmt in others) or \
            any(mentions(e, tainted - carried) for e in statement_exprs(loop.body[position])):
        return None
    # A write's index through the locals the code declares once and never assigns again (`const size_t at = row *
    # cols + i; y[at] = ...`, in the loop or before it).
    declared = Counter(stmt.name for stmt in walk(program.body) if isinstance(stmt, Let))
    assigned = {stmt.name for stmt in walk(program.body) if isinstance(stmt, Assign)}
    lets = {stmt.name: stmt.value for stmt in walk(program.body) if isinstance(stmt, Let) and
            stmt.value is not None and stmt.name not in assigned and declared[stmt.name] == 1}
    writes = [inlined(stmt.index, lets) for stmt in walk(loop.body) if isinstance(stmt, Store)]
    if any(isinstance(stmt, Atomic) for stmt in walk(loop.body)) or any(mentions(i, tainted) for i in writes):
        return None
    # Writes before the loop (a first row stored on its own) are the point's lane 0's; the loop may not read them.
    before = program.body[:program.body.index(loop)]
    if any(isinstance(stmt, Atomic) for stmt in walk(before)) or \
            {stmt.array for stmt in walk(before) if isinstance(stmt, Store)} & {l.array for l in all_loads(loop.body)}:
        return None
    if all(constant(stride(index, loop.var) or Const(text="x")) in (1, -1) for index in writes):
        return Scan(loop, reduction, leading=tuple(leading))
    if leading:
        return None
    # Down a strided axis (a column): neighbouring points write neighbouring elements, so the lanes sharing a point
    # go along y, a block of neighbouring points taking each stretch of the loop together; every point of a block
    # walks the same iterations (barriers between its stretches).
    innermost = program.space[-1].name
    uniform = {p.name for p in program.scalars}
    if all(unit_stride(index, innermost) for index in writes) and \
            names_of(loop.start) | names_of(loop.stop) <= uniform:
        return Scan(loop, reduction, across_points=True)
    return None


def _splittable(program: LoopProgram, loops: list[For]) -> bool:
    """A 1-D space (the grid's y is free for the blocks sharing a point) whose point code is straight-line code,
    one loop that carries reductions and writes nothing, then straight-line code: one pass, so that blocks may
    each take a share of the loop and one of them finish the point."""
    if len(program.space) != 1 or len(loops) != 1 or loops[0] not in program.body:
        return False
    loop = loops[0]
    reductions = loop_reductions(loop)
    # An argmax's partials would be pairs: not split across blocks (one block per point reduces it).
    return bool(reductions) and not any(r.index for r in reductions) and \
        not any(isinstance(s, (Store, Atomic)) for s in walk(loop.body))


def _clusterable(program: LoopProgram, loops: list[For]) -> bool:
    """A 1-D space (the grid's y is free for a cluster's blocks) whose point has loops with reductions, none an
    argmax (whose partials would be pairs): several passes, each of which may end with the cluster's blocks
    exchanging their partials, every block then holding the point's value for the passes after it."""
    if len(program.space) != 1:
        return False
    reductions = [r for loop in loops for r in loop_reductions(loop) or []]
    return bool(reductions) and not any(r.index for r in reductions)


def _loops_at_top(program: LoopProgram, loops: list[For]) -> bool:
    """Whether every loop of the point's code is a top-level loop or nested inside one."""
    nested = {id(stmt) for loop in loops for stmt in walk(loop.body)}
    return all(id(stmt) in nested or any(stmt is loop for loop in loops)
               for stmt in walk(program.body) if isinstance(stmt, For))


def _point_statements(body: list) -> list:
    """Top-level statements, opened through `if`s without else that hold loops."""
    out = []
    for stmt in body:
        out.append(stmt)
        if isinstance(stmt, If) and not stmt.other:
            out += _point_statements(stmt.then)
    return out


def _parallel_loop(loop: For) -> list[Reduction] | None:
    """The loop's reductions when its iterations may be split across threads: every carried value a reduction,
    every write indexed by the loop variable (distinct elements per iteration), no nested reduction state."""
    reductions = loop_reductions(loop)
    if reductions is None:
        return None
    lets = {stmt.name: stmt.value for stmt in walk(loop.body) if isinstance(stmt, Let) and stmt.value is not None}
    for stmt in walk(loop.body):
        if isinstance(stmt, Store):
            index = inlined(stmt.index, lets)
            coefficient = stride(index, loop.var)
            if (coefficient is None or not mentions(index, {loop.var})) and not _digits_distinct(index, loop.var):
                return None
    return reductions


def _digits_distinct(index: Expr, var: str) -> bool:
    """Whether an index `A * (var / n) + B * (var % n) + rest` (a collapsed nest's, ir/collapse.py) is distinct for
    every var: `rest` free of var, B not zero, and A a multiple of B * n (A's factors include n's and B's), so the
    quotient's steps pass over every remainder's."""
    parts = [e for e in subexpressions(index) if isinstance(e, Binary) and e.op in ("/", "%")
             and e.left == Ref(name=var) and not mentions(e.right, {var})]
    if not parts or any(e.right != parts[0].right for e in parts) or {e.op for e in parts} != {"/", "%"}:
        return False
    steps, digits = "optiml_quotient", "optiml_remainder"

    def named(e: Expr) -> Expr:
        if e in parts:
            return Ref(name=steps if e.op == "/" else digits)
        return with_children(e, named)

    form = linear(named(index), {steps, digits})
    if form is None or mentions(form.get("", Const(text="0")), {var}) or not {steps, digits} <= set(form) or \
            constant(form[digits]) == 0:
        return False
    step, divisor, digit = factors(form[steps]), factors(parts[0].right), factors(form[digits])
    return None not in (step, divisor, digit) and quotient(step, divisor + digit) is not None


def _lanes_axis(program: LoopProgram, loops: list[For], innermost: str) -> Literal["x", "y"]:
    """x when most reads in the loops are unit-stride along the loop (a row), y when they are along the innermost
    parallel index (a column: neighbouring points read neighbouring elements). Reads every point makes alike (a
    vector x[k] of a matrix-vector product) do not vote: they come from cache; nor do reads the loops do not move
    (an affine weight w[c] of a point's channel): one a point, not one a step."""
    along_loop = along_points = 0
    for loop in loops:
        # `size_t idx = col + r * cols;` read as what it holds (each loop may declare its own `idx`).
        once = {**single_assignments(program.body), **single_assignments(loop.body)}
        steps = {loop.var} | {inner.var for inner in walk(loop.body) if isinstance(inner, For)}
        for load in all_loads(loop.body):
            index = inlined(load.index, once)
            if not mentions(index, {innermost}) or not mentions(index, steps):
                continue
            if unit_stride(index, loop.var):
                along_loop += 1
            elif unit_stride(index, innermost):
                along_points += 1
    return "y" if along_points > along_loop else "x"


SHORT_STRIDE = 4     # elements: the parts of an interleaved element (a complex number's two, a pixel's 3 or 4)


def _short_stride(index: Expr, variable: str) -> bool:
    """A constant stride of 1 to SHORT_STRIDE elements along the variable: neighbouring points' accesses share
    sectors (an interleaved element's parts, read or written by accesses of their own, fill them)."""
    step = constant(stride(index, variable) or Const(text="x"))
    return step is not None and 1 <= step <= SHORT_STRIDE


def _staged_loads(program: LoopProgram) -> tuple[list[Load], int, int]:
    """In a 2-D or 3-D space of straight-line code whose writes are of short stride along one index (the write
    axis, the innermost that is; unit stride, or an interleaved element's parts): the reads of short stride along
    another (the read axis), which a thread per point would read with a long stride (a transpose or permutation,
    read or write side; a complex matrix's conjugate transpose). Returns them with both axes (indices into the
    space); a third axis is looped over outside the tile."""
    none: tuple[list[Load], int, int] = ([], -1, -1)
    if len(program.space) < 2 or any(isinstance(stmt, (If, For)) for stmt in program.body):
        return none
    uniform = {i.name for i in program.space} | {p.name for p in program.scalars}
    stores = [s for s in walk(program.body) if isinstance(s, Store)]
    if not stores:
        return none
    axes = range(len(program.space) - 1, -1, -1)
    for write_axis in axes:
        write = program.space[write_axis].name
        if not all(_short_stride(s.index, write) for s in stores):
            continue
        for read_axis in axes:
            read = program.space[read_axis].name
            found: list[Load] = []
            for load in all_loads(program.body) if read_axis != write_axis else []:
                if load not in found and _short_stride(load.index, read) and not _short_stride(load.index, write) and \
                        stride(load.index, write, {read}) is not None and names_of(load.index) <= uniform:
                    found.append(load)
            if found:
                return found, write_axis, read_axis
        return none
    return none


def _contraction(program: LoopProgram) -> Contraction | None:
    """A 2-D or 3-D (batched) space whose code is: declarations, one loop `acc += left * right` (left reading the
    second innermost index, right the innermost, both the loop variable, neither a local), then code without
    loops."""
    if len(program.space) not in (2, 3):
        return None
    loops = [position for position, stmt in enumerate(program.body) if isinstance(stmt, For)]
    if len(loops) != 1 or has_loops(program.body[loops[0] + 1:]) or \
            any(not isinstance(stmt, Let) for stmt in program.body[:loops[0]]):
        return None
    loop = program.body[loops[0]]
    *lets, last = loop.body
    if constant(loop.step) != 1 or not all(isinstance(stmt, Let) and stmt.value is not None for stmt in lets):
        return None
    update = reduction_update(last)
    if update is None or update.op != "+" or not isinstance(last, Assign):
        return None
    value = inlined(last.value, {stmt.name: stmt.value for stmt in lets})
    if last.op == "=":
        value = value.right if isinstance(value.left, Ref) and value.left.name == update.variable else value.left
    i, j = program.space[-2].name, program.space[-1].name
    outer = {program.space[0].name} if len(program.space) == 3 else set()
    scalars = {p.name for p in program.scalars}
    # Locals of the batch index alone (`b = bh / H; h = bh % H`: a batch of heads whose operands are laid out
    # [B, S, H, D]) are part of each operand's offset for the batch.
    before = {stmt.name for stmt in program.body[:loops[0]]}
    batch_locals = {name: value for name, value in single_assignments(program.body).items() if name in before and
                    not loads(value) and names_of(value) & outer and names_of(value) <= outer | scalars}
    value = inlined(value, batch_locals)
    allowed = {i, j, loop.var} | outer | scalars
    ranged = mentions(loop.start, {i, j}) or mentions(loop.stop, {i, j})
    if ranged and not all(_affine_bound(bound, i, j, scalars) for bound in (loop.start, loop.stop)):
        return None
    # The code after the loop may go on with the sum (`acc += bias[col];`): it is each output's own code, run once
    # the output's sum is complete (emit's epilogue).
    if not names_of(value) <= allowed:
        return None
    if isinstance(value, Binary) and value.op == "*":
        left, right = value.left, value.right
        if mentions(left, {j}) and mentions(right, {i}):
            left, right = right, left
        if not mentions(left, {j}) and not mentions(right, {i}):
            return Contraction(loop, update.variable, (left,), (right,), None, ranged)
    # Any other term of reads of each side (a few each), none reading the accumulator.
    reads: list[Load] = []
    for read in all_loads([Assign(name=update.variable, op="=", value=value)]):
        if read not in reads:
            reads.append(read)
    lefts = [r for r in reads if mentions(r, {i}) and not mentions(r, {j})]
    rights = [r for r in reads if mentions(r, {j}) and not mentions(r, {i})]
    if len(lefts) + len(rights) != len(reads) or not 1 <= len(lefts) <= OPERANDS_A_SIDE or \
            not 1 <= len(rights) <= OPERANDS_A_SIDE or mentions(value, {update.variable}):
        return None
    names = [Ref(name=operand_value(side, position)) for side, reads_of in (("left", lefts), ("right", rights))
             for position in range(len(reads_of))]
    term = _loads_replaced(value, list(zip(lefts + rights, names)))
    if names_of(term) - {name.name for name in names} - {p.name for p in program.scalars}:
        return None        # the term reads an index or the loop variable outside its reads
    return Contraction(loop, update.variable, tuple(lefts), tuple(rights), term, ranged)


def _columns_reduced(program: LoopProgram) -> Contraction | None:
    """A 1-D or 2-D (batched) space whose code is: declarations, one loop over columns whose bounds are the same for
    every point, then the row's code (a residual's loop too); the loop's body a contraction's code (declarations, a
    loop of `acc += term`, code without loops) ending in a sum, maximum or minimum of a value declared before the
    loop that nothing else in the loop reads or writes: the contraction of the point and the loop's index
    (`ColumnWalk`)."""
    if len(program.space) not in (1, 2):
        return None
    position = next((position for position, stmt in enumerate(program.body) if isinstance(stmt, For)), None)
    if position is None:
        return None
    loop, before, after = program.body[position], program.body[:position], program.body[position + 1:]
    scalars = {p.name for p in program.scalars}
    if not all(isinstance(stmt, Let) for stmt in before) or constant(loop.step) != 1 or \
            not names_of(loop.start) | names_of(loop.stop) <= scalars or not loop.body:
        return None
    *inner, last = loop.body
    update = reduction_update(last)
    if update is None or update.index is not None or update.op not in ("+", "max", "min"):
        return None
    value = update.variable
    declarations = [stmt for stmt in before if stmt.name == value]
    # Nothing else carried from column to column: the loop assigns no local of the row's but in its last statement.
    if len(declarations) != 1 or declarations[0].value is None or \
            names_written(inner) & {stmt.name for stmt in before} or \
            any(mentions(e, {value}) for stmt in walk(inner) for e in statement_exprs(stmt)):
        return None
    column = ParallelIndex(name=loop.var, ctype=loop.ctype, dim="x", lower=loop.start, upper=loop.stop)
    opened = program.model_copy(update={"space": [*program.space, column],
                                        "body": [stmt for stmt in before if stmt.name != value] + loop.body})
    found = _contraction(opened)
    if found is None and len(program.space) == 2 and (product := _batched_product(opened)) is not None:
        opened, found = product, _contraction(product)
    if found is None or found.ranged:
        return None
    stored = {stmt.array for stmt in walk(loop.body) if isinstance(stmt, (Store, Atomic))}
    read = {load.array for load in all_loads(before + after)} | \
        {stmt.array for stmt in walk(after) if isinstance(stmt, Atomic) or isinstance(stmt, Store) and stmt.op != "="}
    walk_of_columns = ColumnWalk(loop, update, reduction_type(program, update), opened, tuple(before), tuple(after),
                                 bool(stored & read))
    return Contraction(found.loop, found.accumulator, found.lefts, found.rights, found.term, columns=walk_of_columns)


def _batched_product(opened: LoopProgram) -> LoopProgram | None:
    """A column walk's program (batch, row, column) whose code is a convolution's loop nest (`for (ci ...) for (t
    ...) if (0 <= l + t - 1 < L) acc += w[co][ci][t] * x[n][ci][l + t - 1]`, a convolution then a pool over its
    positions): its implicit GEMM over the row and the column with the batch index held fixed (ir/implicit_gemm.py),
    the batch put back outermost; None where that product does not keep the row and the column as they are (their
    coordinates grouped otherwise) or assumes anything."""
    batch, row, column = opened.space
    plane = opened.model_copy(update={"space": [row, column],
                                      "scalars": [*opened.scalars, ScalarParam(name=batch.name, ctype=batch.ctype)]})
    product = implicit_gemm(plane)
    mine = {index.name for index in product.space}
    taken = names_read(product.body) | names_written(product.body)
    if product is plane or product.assumption is not None or \
            [(i.lower, i.upper) for i in product.space] != [(i.lower, i.upper) for i in plane.space] or \
            (taken - mine) & {row.name, column.name}:
        return None
    named = {product.space[0].name: Ref(name=row.name), product.space[1].name: Ref(name=column.name)}
    return product.model_copy(update={"space": [batch, row, column], "scalars": opened.scalars,
                                      "body": substituted(product.body, named)})


def _affine_bound(bound: Expr, i: str, j: str, scalars: set[str]) -> bool:
    """A loop bound of the two indices with constant coefficients and scalars beside (`col`, `row + 1`, `i - w`):
    over a tile its least and greatest values are at the tile's corners."""
    form = linear(bound, {i, j})
    return form is not None and names_of(bound) <= {i, j} | scalars and \
        all(constant(form[name]) is not None for name in (i, j) if name in form)


def _loads_replaced(expr: Expr, replacements: list[tuple[Load, Expr]]) -> Expr:
    for load, replacement in replacements:
        if expr == load:
            return replacement
    return with_children(expr, lambda child: _loads_replaced(child, replacements))


def _scalar_atomics(program: LoopProgram) -> list[Atomic]:
    """In a 1-D space, when every atomic is an atomicAdd into one element fixed for the launch (its index reads only
    scalars) of an array the code does not otherwise read or write: one of each target (privatize sums them per
    thread and per block first)."""
    atomics = [s for s in walk(program.body) if isinstance(s, Atomic)]
    if len(program.space) != 1 or not atomics:
        return []
    scalars = {p.name for p in program.scalars}
    targets = {a.array for a in atomics}
    if any(a.function != "atomicAdd" or not names_of(a.index) <= scalars for a in atomics) or \
            targets & _touched(program):
        return []
    return _each_once(atomics)


def _touched(program: LoopProgram) -> set[str]:
    """The arrays the code reads or stores to (not by atomics)."""
    return {load.array for load in all_loads(program.body)} | \
        {s.array for s in walk(program.body) if isinstance(s, Store)}


def _each_once(atomics: list[Atomic]) -> list[Atomic]:
    """One atomic of each (array, index)."""
    found: list[Atomic] = []
    for atomic in atomics:
        if not any(f.array == atomic.array and f.index == atomic.index for f in found):
            found.append(atomic)
    return found


# Element types whose values warp shuffles carry.
SHUFFLED_TYPES = ("float", "double", "int", "unsigned int", "unsigned long long", "long long")


def _run_atomics(program: LoopProgram) -> list[Atomic]:
    """In a space of two or three indices, when every atomic is an atomicAdd, of a type warp shuffles carry, into
    an array the code does not otherwise read or write, at an element that neighbouring points along the innermost
    index share (a per-sample or per-row sum of a 2-D grid): one of each (array, index). Only where the index, its
    locals inlined, reads scalars and the outer indices alone: an element a point's loop walks would end a thread's
    run at every step. Privatize sums a thread's run of points adding into one element in a register, then the
    warp's and the block's where their elements agree."""
    atomics = [s for s in walk(program.body) if isinstance(s, Atomic)]
    if len(program.space) == 1 or not atomics:
        return []
    touched = _touched(program)
    outer = {p.name for p in program.scalars} | {index.name for index in program.space[:-1]}
    values = single_assignments(program.body)
    if any(a.function != "atomicAdd" or a.array in touched or program.element_type(a.array) not in SHUFFLED_TYPES
           or not names_of(inlined(a.index, values)) <= outer for a in atomics):
        return []
    return _each_once(atomics)


SHARED_TARGET_BYTES = 32 * 1024    # a per-block copy this large leaves room for several blocks per SM


def _shared_target(program: LoopProgram) -> str | None:
    """In a 1-D space, the one array every atomic adds into at elements the data choose, when the code does not
    otherwise touch it and its element type has shared-memory atomics (its length is checked where it is known, in
    emit)."""
    atomics = [s for s in walk(program.body) if isinstance(s, Atomic)]
    targets = {a.array for a in atomics}
    if len(program.space) != 1 or len(targets) != 1 or any(a.function != "atomicAdd" for a in atomics):
        return None
    target = targets.pop()
    if target in _touched(program) or program.element_type(target) not in ("int", "unsigned int", "unsigned", "float",
                                                                 "unsigned long long", "double"):
        return None
    return target


def _streamed_loops(program: LoopProgram) -> list[Streamed]:
    """The top-level loops with bounds every point shares (a block's threads meet at the windows' barriers) and a
    constant step, that read or write some array along a window: the accesses a thread per point makes with a
    stride between neighbouring threads."""
    inner = program.space[-1].name
    uniform = {i.name for i in program.space[:-1]} | {p.name for p in program.scalars}
    written = {s.array for s in walk(program.body) if isinstance(s, (Store, Atomic))}
    read = {load.array for load in all_loads(program.body)}
    found = []
    for loop in program.body:
        if not isinstance(loop, For) or not (names_of(loop.start) | names_of(loop.stop) | names_of(loop.step)) \
                <= uniform or (constant(loop.step) or 0) <= 0:
            continue
        variables = {loop.var} | {s.var for s in walk(loop.body) if isinstance(s, For)}
        reads = tuple((load, window) for load in dict.fromkeys(all_loads(loop.body)) if load.array not in written
                      and (window := _window(load.array, load.index, variables, inner, uniform)) is not None)
        writes = tuple((store, window) for store in loop.body if isinstance(store, Store) and store.op == "=" and
                       constant(loop.step) == 1 and store.array not in read and
                       sum(1 for s in walk(program.body) if isinstance(s, Store) and s.array == store.array) == 1
                       and (window := _window(store.array, store.index, {loop.var}, inner, uniform)) is not None)
        if reads or writes:
            found.append(Streamed(loop, reads, writes))
    return found


def _window(array: str, index: Expr, variables: set[str], inner: str, uniform: set[str]) -> Window | None:
    """`index` as rest + var, var one of `variables` with coefficient 1, rest reading the innermost parallel index
    (not with unit stride) and uniform names only."""
    form = linear(index, variables)
    if form is None:
        return None
    terms = [name for name in form if name]
    if len(terms) != 1 or constant(form[terms[0]]) != 1:
        return None
    rest = form.get("", Const(text="0"))
    if not names_of(rest) <= uniform | {inner} or not mentions(rest, {inner}) or unit_stride(rest, inner):
        return None
    return Window(array, rest, terms[0])


# Grid caps are rendered as blocks per SM times this many SMs (an H100's or H200's): a launch rule is written in
# contract terms, before any device is known; on another device the cap only changes how many waves the grid makes.
SM_COUNT = 132
# contraction: (rows, columns) of output tiles for a short side (4: a grouped convolution's 4 channels a group; 32:
# a transposed convolution's 32 output channels a phase)
SKINNY_TILES = ((16, 128), (16, 256), (4, 256), (32, 128), (128, 16))
SPLITS = (4, 16, 64)               # reduce: blocks per point, when a point's loop may be shared
CLUSTERS = (2, 4, 8)               # reduce: blocks of a cluster per point (8: CUDA's portable cluster size)
CLUSTER_POINTS = 512               # reduce: fewer points than this leave an H100 idle with one block per point
HELD_STEPS = (1, 2, 4, 8, 16, 32)  # reduce: a lane's steps held in registers across a point's loops
HELD_REGISTERS = 32                # reduce: the most elements of an array a lane holds in a first schedule
STATIC_SHARED_BYTES = 48 * 1024    # static shared memory a kernel may declare (stream windows, stage tiles)
FEW_POINTS = 4096                  # fewer points than this leave an H100's SMs idle with one group per point
FEW_OUTPUT_TILES = 264             # contraction: fewer 64x64 output tiles than two per H100 SM: split the loop


def space(shape: Shape, family: Family) -> list[Schedule]:
    """Every schedule of a family the program allows, most conservative first."""
    if family == "map":
        vectors = [1]
        widest = 16 // max(shape.vector_bytes, 1)
        if widest > 1 and _vectorizable(shape.program):
            vectors.append(widest)
        two_d = len(shape.program.space) > 1
        blocks = [(32, 8), (64, 4), (128, 2), (32, 4), (64, 8), (128, 4), (256, 1)] if two_d else \
            [(128, 1), (256, 1), (512, 1), (1024, 1)]
        # Where the point code checks the points' bounds (a stencil's edges), a path without the checks for the
        # threads all of whose points are inside.
        interiors = (False, True) if _edge_checks(shape.program) else (False,)
        fused = [Schedule(family="map", block=b, items=items, fused=True, fused_axis=axis, window=window,
                          interior=interior)
                 for axis in shape.fusable for window in ((False, True) if axis in shape.slid else (False,))
                 for interior in interiors if not (window and interior)
                 for items in ((2, 4, 8) if axis == "y" else (2, 4)) for b in blocks]
        # A window slid several steps at a time: 4 or 8 points a thread, each element read once for all of them.
        fused += [Schedule(family="map", block=b, items=items, fused=True, fused_axis=axis, window=True,
                           slide_block=True)
                  for axis in shape.slid for items in (4, 8) for b in blocks]
        # A warp's lanes along one row (whole warps along x) pass each other the ends of their windows.
        fused += [Schedule(family="map", block=b, items=items, fused=True, fused_axis="x", neighbours=True)
                  for items in (2, 4) for b in blocks if b[0] % 32 == 0 and shape.neighbour_rows and
                  all(row.high <= items and -row.low <= items for row in shape.neighbour_rows)]
        # Half-warp rows too, for an innermost index too short for a warp's points (a head's 128 bf16 in 8-point
        # vectors: 16 threads); not for the fused points, whose rows are the longer ones of stencils.
        narrow = [(16, 16), (16, 32)] if two_d else []
        return [Schedule(family="map", block=b, items=items, vector=v)
                for v in vectors for items in (1, 2, 4, 8) if items % v == 0 for b in blocks + narrow] + fused
    if family == "reduce":
        if shape.lanes_axis == "x":
            widest = 16 // max(shape.vector_bytes, 1)
            vectors = (1, widest) if widest > 1 else (1,)
            found = [Schedule(family="reduce", block=(32, p), lanes=32, vector=v)
                     for v in vectors for p in (1, 2, 4, 8)]
            found += [Schedule(family="reduce", block=(lanes, 1), lanes=lanes, vector=v)
                      for v in vectors for lanes in (64, 128, 256, 512, 1024)]
            # Rows kept in registers (a lane's steps the same in every loop), loaded before they are used.
            if shape.held is not None:
                found += [Schedule(family="reduce", block=(32, 4) if lanes == 32 else (lanes, 1), lanes=lanes,
                                   vector=v, held=held)
                          for v in vectors for lanes in (32, 64, 128, 256, 512, 1024) for held in HELD_STEPS]
            split = [(32, 4), (256, 1), (1024, 1)]
            if shape.clustered:
                found += [Schedule(family="reduce", block=(lanes, 1), lanes=lanes, vector=vectors[-1],
                                   cluster=cluster) for lanes in (512, 1024) for cluster in CLUSTERS]
        else:
            found = [Schedule(family="reduce", block=(points, lanes), lanes=lanes, lanes_axis="y")
                     for points in (8, 16, 32) for lanes in (4, 8, 16, 32, 64) if points * lanes <= 1024]
            split = [(32, 8), (16, 16), (32, 32)]
        if shape.splittable:
            # Not of held rows: a block holds its lanes' steps of the point's whole loop.
            found += [s.model_copy(update={"splits": splits}) for s in found
                      if s.block in split and not s.held and s.vector == max(f.vector for f in found)
                      for splits in SPLITS]
        return found
    if family == "contraction":
        found = [Schedule(family="contraction", block=(tile // per_thread, tile // per_thread), tile=tile,
                          items=per_thread, k_tile=k_tile)
                 for tile in (32, 64, 128) for per_thread in (2, 4, 8) for k_tile in (8, 16)
                 if 64 <= (tile // per_thread) ** 2 <= 1024]
        # Half-height and half-width tiles of 8x8 outputs a thread: 128 threads, more blocks an SM than the square
        # 128 tile's one (its registers); and the square one with registers capped for two blocks an SM.
        found += [Schedule(family="contraction", block=(columns // 8, rows // 8), tile=columns, tile_rows=rows,
                           items=8, k_tile=k_tile)
                  for rows, columns in ((128, 64), (64, 128)) for k_tile in (8, 16)]
        found += [Schedule(family="contraction", block=(16, 16), tile=128, items=8, k_tile=k_tile, blocks_per_sm=2)
                  for k_tile in (8, 16)]
        # Skinny tiles for a product with a side of a few rows or columns (a batch of 16 through a linear layer, a
        # convolution into 16 channels): a square tile would compute mostly past the edge.
        found += [Schedule(family="contraction", block=(columns // 4, rows // 4), tile=columns, tile_rows=rows,
                           items=4, k_tile=k_tile)
                  for rows, columns in SKINNY_TILES for k_tile in (8, 16)]
        columns = shape.contraction.columns
        if columns is not None:
            # A row's threads combine their columns' values across neighbouring lanes of one warp.
            found = [s for s in found if s.block[0] <= 32]
        if len(shape.program.space) == 2 and not shape.contraction.ranged and columns is None or \
                columns is not None and len(shape.program.space) == 1 and not columns.rereads:
            # The grid's z (a column walk's x) is free for the blocks sharing a tile's loop (whose steps are the
            # same for every tile) or sharing a row tile's columns (where the row's code reads none of the outputs
            # the blocks store: its warp's own are all it may read, `rows_finished`).
            found += [s.model_copy(update={"splits": splits}) for s in found
                      if (s.tile, s.items, s.k_tile, s.tile_rows, s.blocks_per_sm) in ((64, 4, 16, 0, 1),
                                                                                      (128, 8, 8, 0, 1))
                      for splits in SPLITS]
        # Those whose tiles fit in shared memory (double values, or two operands a side, take twice the room).
        return [s for s in found if contraction_staging(shape, s)[2] <= STATIC_SHARED_BYTES]
    if family == "privatize" and shape.run_atomics:
        # Blocks along x, or 2-D where the innermost index is short; the block's elements merged once at its end.
        return [Schedule(family="privatize", block=block, items=items, target_copy="runs")
                for block in ((256, 1), (128, 2), (64, 4), (32, 8)) for items in (1, 2, 4)]
    if family == "privatize":
        target_copy = "shared" if shape.shared_target else "register"
        # 16-byte reads of the data where it is read along the index (bytes 16 at a time: a histogram's input).
        widest = _privatized_vector(shape.program)
        return [Schedule(family="privatize", block=(threads, 1), items=items, target_copy=target_copy, vector=vector,
                         resident=resident)
                for vector in sorted({1, widest}) for items in (1, 4, 16, 64) if items % vector == 0
                for threads in (256, 512, 1024) for resident in (0, 2, 4, 8) if threads * resident <= 2048]
    if family == "scan":
        # A 1-D space's point may cut its loop into chunks, a warp each (the grid's y holds them).
        split = [Schedule(family="scan", block=(32, 4), lanes=32, items=items, splits=splits)
                 for splits in (64, 512, 4096) for items in (4, 8)] \
            if len(shape.program.space) == 1 and not shape.scan.leading else []
        if shape.scan.across_points:
            return [Schedule(family="scan", block=(points, lanes), lanes=lanes, lanes_axis="y", items=items)
                    for points in (16, 32) for lanes in (8, 16, 32) for items in (2, 4, 8, 16)]
        # A block a point where the points are too few for a warp each to fill the GPU.
        blocks = [Schedule(family="scan", block=(lanes, 1), lanes=lanes, items=items)
                  for lanes in (128, 256) for items in (2, 4, 8)]
        return [Schedule(family="scan", block=(32, points), lanes=32, items=items)
                for points in (1, 4, 8) for items in (1, 2, 4, 8)] + blocks + split
    if family == "stream":
        return [Schedule(family="stream", block=(points, 1), tile=window) for points in (64, 128, 256)
                for window in (8, 16, 32, 64) if points * (window + 1) * shape.window_bytes <= STATIC_SHARED_BYTES]
    # A tile's side is the block's width (threadIdx.x walks it); 64-wide tiles move 4x the elements a block, where
    # the padded tiles of every staged read fit the 48 KiB of static shared memory.
    staged_bytes = sum(element_bytes(shape.program, load.array) for load in shape.staged)
    # With vector accesses, a thread reads 16 bytes of a staged row and writes 16 bytes of an output row at once:
    # a quarter of the memory instructions for floats, and more bytes in flight a thread.
    # Only where every staged read is unit-stride along its axis (not two elements apart, as a complex matrix's
    # interleaved parts are).
    width = 16 // shape.vector_bytes
    read = shape.program.space[shape.read_axis].name
    vectors = [Schedule(family="stage", block=(tile // width, rows), tile=tile, vector=width)
               for tile in (32, 64) for rows in (8, 16, 32) if 64 <= tile // width * rows <= 512] \
        if 1 < width < 32 and all(unit_stride(load.index, read) for load in shape.staged) else []
    return [s for s in [Schedule(family="stage", block=(tile, rows), tile=tile) for tile in (32, 64)
                        for rows in (4, 8, 16)] + vectors
            if s.tile * (s.tile + 1) * staged_bytes <= STATIC_SHARED_BYTES]


def _privatized_vector(program: LoopProgram) -> int:
    """The points one 16-byte read covers of the arrays a privatized program reads along its index (by the widest
    of them; 1 when it reads none so): what its points' vector reads take."""
    index = program.space[0].name
    outside = {index} | {p.name for p in program.scalars}
    read = {load.array for load in all_loads(program.body)
            if unit_stride(load.index, index) and names_of(load.index) <= outside}
    widest = max((element_bytes(program, array) for array in read), default=0)
    return 16 // widest if widest and 16 // widest > 1 else 1


def _vectorizable(program: LoopProgram) -> bool:
    """Whether some top-level read or write is unit-stride along the innermost index (worth a vector access): its
    index locals read as their values, and where the code takes the index apart by a size, over a group of points
    that share its quotient, or in a branch a group of points may take whole (ir/vector_groups.py, as the emitted
    groups read them)."""
    inner = program.space[-1]
    outside = {index.name for index in program.space} | {p.name for p in program.scalars}
    body = index_locals_inlined(program.body, outside)
    if (lowest := lowest_digit(body, inner.name, inner.ctype, outside, declared_types(program))) is not None:
        taken = names_in(program)
        body = digit_split(body, inner.name, inner.ctype, lowest, fresh_name("quotient", taken),
                           fresh_name("offset", taken))
    accesses = [s.index for s in body if isinstance(s, Store)] + \
        [load.index for load in all_loads([s for s in body if not isinstance(s, (If, For))])] + \
        [access.index for branch in uniform_branches(body, inner.name, outside, lambda array, index: True, [])
         for side in (*branch.reads, *branch.writes) for access in side]
    return any(unit_stride(index, inner.name) for index in accesses) and \
        not any(isinstance(s, Atomic) for s in walk(program.body))


def defaults(shape: Shape, family: Family, points_at_sizes: int | None = None,
             extents: tuple[int, ...] | None = None, loop_at_sizes: int | None = None) -> list[Schedule]:
    """The first schedules the search tries of a family: a few spread over its space; schedules that split a
    point across blocks only where the program has few points at the contract's sizes (`points_at_sizes`); a
    contraction's skinny tiles first where a side of its output is short, a map's blocks no wider than its
    innermost index (`extents`: the space's at the sizes);
    rows held in registers first, as many steps a lane as hold the point's loop (`loop_at_sizes`: its iterations
    at the sizes)."""
    points = space(shape, family)
    if family == "contraction" and extents is not None and len(extents) >= 2:
        rows, columns = extents[-2], extents[-1]

        def fits(tile: tuple[int, int], axis: int, extent: int) -> bool:
            """A short side for a short extent: the least of the tiles' that covers it (a 16-row product's tile is
            not 32 rows), or the longest where none does."""
            short = [t[axis] for t in SKINNY_TILES if t[axis] <= 32]
            covering = [side for side in short if side >= extent]
            return tile[axis] in short and extent <= max(short) and \
                tile[axis] == (min(covering) if covering else max(short))

        skinny = [s for s in points if s.splits == 1 and s.items == 4 and
                  s.output_tile() in SKINNY_TILES and s.k_tile == 8 and
                  (fits(s.output_tile(), 0, rows) or fits(s.output_tile(), 1, columns))]
        skinny.sort(key=lambda s: min(s.output_tile()))      # the least past the edge first
        if skinny:
            return skinny + [s for s in defaults(shape, family, points_at_sizes) if s not in skinny]
    if family == "reduce" and shape.splittable and points_at_sizes is not None and points_at_sizes < FEW_POINTS:
        wanted = ((256, 1, 16), (32, 4, 16)) if shape.lanes_axis == "x" else ((32, 8, 16), (32, 32, 4))
        widest = max(s.vector for s in points)
        return [s for s in points if (*s.block, s.splits) in wanted and s.vector == widest] + \
            defaults(shape, family)[:2]
    if family == "contraction" and points_at_sizes is not None and points_at_sizes < FEW_OUTPUT_TILES * 64 * 64 \
            and any(s.splits > 1 for s in points):
        # Each tile size split across as many blocks as fill the GPU (a 256 x 256 output of 128 x 128 tiles: 4
        # tiles, 64 blocks each), the 128 x 128 tiles with their 8 x 8 register tiles first.
        def filling(tile: int) -> int:
            tiles = -(-points_at_sizes // (tile * tile))
            return next((splits for splits in SPLITS if tiles * splits >= FEW_OUTPUT_TILES // 2), SPLITS[-1])
        chosen = [s for tile in (128, 64) for s in points if s.tile == tile and s.splits == filling(tile)]
        return chosen + [s for s in points if (s.tile, s.splits) == (64, 4)] + defaults(shape, family)[:2]
    if family == "scan" and points_at_sizes is not None and points_at_sizes < FEW_POINTS:
        # A point's loop split across warps where it may be (a 1-D space, no loop before it), else a block a point.
        wide = [s for s in points if (s.splits, s.items) in ((4096, 4), (512, 8))] or \
            [s for s in points if s.lanes == 256 and s.lanes_axis == "x" and s.items == 4]
        if wide:
            return wide + defaults(shape, family)[:1]
    if family == "reduce" and shape.clustered and points_at_sizes is not None and points_at_sizes < CLUSTER_POINTS:
        # Few points whose passes no block may finish alone: a cluster of 8 blocks each, then one block each.
        return [s for s in points if s.cluster == CLUSTERS[-1]] + defaults(shape, family)
    points = [s for s in points if s.splits == 1 and s.cluster == 1]
    if family == "map":
        # (threads, points per thread, vector width); of the block shapes with that many threads, the widest along
        # x (whole warps along the unit-stride index) whose points along x the innermost index has at the sizes,
        # else the narrowest: a row of 128 in 8-point groups takes 16 threads, and a block 128 wide would leave
        # 112 of each 128 idle (H200, a bf16 head permute: the fastest schedule found 3.30x -> 2.13x its floor, a
        # 32x8 neighbour of the 16x32 first; bench/results/ir-h200/narrow-blocks-ab/).
        wanted = [(256, 1, 1), (256, 4, shape_vector(points)), (512, 8, shape_vector(points)), (128, 2, 1)]
        inner = extents[-1] if extents else None
        chosen = [_widest_filled(matching, inner) for key in wanted
                  if (matching := [s for s in points if not s.fused and
                                   (s.block[0] * s.block[1], s.items, s.vector) == key])]
        # Two neighbouring points sharing a stencil's or a convolution's loops. More lose more than they share:
        # a thread's points are consecutive, so a warp's accesses stride by the points per thread (H100: conv1d
        # 1.23x faster at 2 points a thread, 1.0x at 4, 0.5x at 8; bench/results/ir-h100/fused-points/).
        # Along y a warp's accesses stay coalesced: 4 points a thread there.
        # With the reads that move with the points slid through registers, 4 points a thread along x (H200:
        # conv1d 1.47x and a 3x3 convolution 1.36x faster than naive, 2 and 8 points slower;
        # bench/results/ir-h200/slide-windows/). Slid 4 steps at a time, their next 4 elements one vector read:
        # conv1d (15 taps) 1.19x faster again; 8 points 1.47x slower than 4 (H100, ir-h100/slide-blocks/).
        chosen += [max(matching, key=lambda s: s.block[0])
                   for axis, items, window, neighbours, interior, block_slide in (
                       ("x", 2, False, False, False, False), ("y", 4, False, False, False, False),
                       ("x", 4, True, False, False, False), ("x", 4, False, True, False, False),
                       ("y", 4, False, False, True, False), ("x", 4, True, False, False, True))
                   if (matching := [s for s in points if s.fused and s.fused_axis == axis and s.items == items and
                                    s.window == window and s.neighbours == neighbours and s.interior == interior
                                    and s.slide_block == block_slide and s.threads() == 256])]
        return _unique(chosen) or points[:4]
    if family == "reduce":
        if shape.lanes_axis == "x":
            widest = max(s.vector for s in points)
            # Held rows first, as many steps a lane as take the point's loop (rows of 1024 where its length is not
            # known).
            length = loop_at_sizes or 1024
            held = [s for vector, lanes in ((widest, 128), (widest, 256), (widest, 32), (1, 128))
                    if (steps := [h for h in HELD_STEPS if lanes * h * vector >= length and
                                  h * vector <= HELD_REGISTERS])
                    for s in points if (s.lanes, s.vector, s.held) == (lanes, vector, steps[0])]
            return held + [s for s in points if not s.held and (s.lanes, s.block[1], s.vector) in
                           ((32, 4, widest), (128, 1, widest), (256, 1, widest), (1024, 1, 1), (32, 4, 1))]
        return [s for s in points if (s.block[0], s.lanes) in ((32, 8), (16, 16), (8, 32), (32, 32))]
    if family == "privatize" and shape.run_atomics:
        # Those whose threads along x have points of the innermost index first (a pooled plane's short rows).
        inner = extents[-1] if extents else None
        chosen = [s for s in points if (s.block, s.items) in (((256, 1), 1), ((256, 1), 4), ((64, 4), 2),
                                                              ((32, 8), 1))]
        return sorted(chosen, key=lambda s: inner is not None and s.block[0] * s.items > inner)
    if family == "privatize":
        # A block per chunk of points, and two capped grids walking the chunks (a histogram's copies merged by
        # blocks x bins global atomics: 4096 blocks of byte_histogram's 2^27 bytes merged 1M of them).
        # A histogram's capped grids first: the fastest of byte_histogram's and histogram64's on an H100 (0.065
        # against 0.105 ms, bench/results/ir-h100/column-scans-resident/), and a search of 30 candidates on an
        # H200 ended before reaching them (ir-h200/issue16-full-6).
        widest = shape_vector(points)
        chosen = [s for s in points if (s.block[0], s.items, s.vector, s.resident) in
                  ((256, 4, 1, 0), (512, 16, 1, 0), (1024, 64, 1, 0), (512, 16, widest, 0), (256, 64, widest, 0),
                   (512, 16, widest, 4), (256, 64, widest, 8))]
        return sorted(chosen, key=lambda s: s.resident == 0) if shape.shared_target else chosen
    if family == "contraction":
        # The two fastest at 4096^3 in every layout before the capped and rectangular tiles joined the space (H200,
        # bench/results/ir-h200/contraction-vector-staging/; the capped 128 tile, fastest since, is a neighbour of
        # the first), a small tile for small products, and 4x4 outputs a thread of a 64 tile: within 12% of the
        # fastest of every convolution's implicit GEMM where the 8x8 tiles run out of registers (H100,
        # bench/results/spec-h100/implicit-gemm/hoisted-digits/).
        return [s for s in points if (s.output_tile(), s.items, s.k_tile, s.blocks_per_sm) in
                (((128, 128), 8, 16, 1), ((64, 64), 8, 16, 1), ((32, 32), 2, 16, 1), ((64, 64), 4, 8, 1))]
    if family == "scan" and shape.scan.across_points:
        return [s for s in points if (*s.block, s.items) in ((32, 32, 4), (32, 16, 8), (16, 32, 8))]
    if family == "scan":
        return [s for s in points if (s.block[1], s.items) in ((4, 4), (8, 2), (4, 8))]
    if family == "stream":
        return [s for s in points if (s.block[0], s.tile) in ((128, 32), (256, 16), (64, 64))] or points[:2]
    return [s for s in points if (s.block, s.tile) in (((32, 8), 32), ((64, 8), 64), ((8, 32), 32), ((16, 16), 64))]


MANY_OUTPUTS = 1 << 20              # contraction: outputs from which a first kernel takes the 64 tile first

# A generated kernel's first schedule (generate/algorithm.py): of the families its program has, the one whose
# absence costs a naive kernel most comes first (a product without reuse, a value carried by one thread along a
# whole row, a thread walking a long loop alone, an atomic per element, strided writes). Not a map: the plain
# kernel is one already, and the emitted map recomputes the index digits its locals held (a 3x3 convolution 10x
# slower on an H200, bench/results/spec-h200/first-kernels/).
FIRST_FAMILIES: tuple[Family, ...] = ("contraction", "scan", "reduce", "privatize", "stage", "stream")


def _widest_filled(schedules: list[Schedule], inner: int | None) -> Schedule:
    """The widest along x of map schedules whose threads along x have points of an innermost index `inner` long
    (unknown: the widest), else the narrowest."""
    if inner is None:
        return max(schedules, key=lambda s: s.block[0])
    filled = [s for s in schedules if s.block[0] * s.items <= inner]
    return max(filled, key=lambda s: s.block[0]) if filled else min(schedules, key=lambda s: s.block[0])


def first_schedules(shape: Shape, points_at_sizes: int | None, longest_loop: int | None) -> list[Schedule]:
    """Every family's first schedules (`defaults`), the families in FIRST_FAMILIES' order: a caller takes the first
    that emits and compiles. A thread group shares a point's loops only where they are longer than a warp
    (`longest_loop`: the most iterations a loop of the point runs at the contract's sizes): a stencil's or a
    pooling window's few taps are a map's."""
    short = longest_loop is not None and longest_loop < 32
    found = []
    for family in FIRST_FAMILIES:
        if family not in shape.families or family == "reduce" and short:
            continue
        chosen = defaults(shape, family, points_at_sizes, loop_at_sizes=longest_loop)
        if family == "contraction" and points_at_sizes is not None and points_at_sizes >= MANY_OUTPUTS:
            # Many outputs: 4x4 a thread of a 64 tile first, not 2x2 of a 32 tile (H100: 1.3-1.6x faster for
            # convolutions of 2M-26M outputs and a 4096^2 product; 32x32 was as fast or faster below 1M outputs;
            # bench/results/spec-h100/implicit-gemm/first-tile/).
            chosen.sort(key=lambda s: (s.output_tile(), s.items, s.k_tile) != ((64, 64), 4, 8))
        if family == "reduce" and not shape.splittable and points_at_sizes is not None and \
                points_at_sizes < FEW_POINTS:
            # Few points whose loops no blocks share: the widest thread group a point, or the GPU idles. Not a
            # cluster's blocks: a first kernel is run on the CPU emulator at every check size, which would take a
            # host thread per CUDA thread of a cluster (8192); the search tries them.
            chosen = sorted(chosen, key=lambda s: (s.cluster > 1, -s.lanes))
        found += chosen
    return found


def shape_vector(points: list[Schedule]) -> int:
    return max(s.vector for s in points)


def _unique(schedules: list[Schedule]) -> list[Schedule]:
    seen, out = set(), []
    for s in schedules:
        key = s.model_dump_json()
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


# What a neighbour move changes; of a contraction, not its block, which follows from its tile and outputs a thread.
TUNED_FIELDS = ("block", "items", "vector", "lanes", "tile", "tile_rows", "k_tile", "splits", "blocks_per_sm",
                "window", "slide_block", "interior", "resident", "held", "cluster")


def tuned_fields(family: Family) -> tuple[str, ...]:
    return tuple(f for f in TUNED_FIELDS if not (family == "contraction" and f == "block"))


def neighbours(shape: Shape, schedule: Schedule) -> list[Schedule]:
    """Schedules of the same family one parameter step away (Kernel Tuner's local moves)."""
    points = space(shape, schedule.family)
    fields = tuned_fields(schedule.family)

    def differences(other: Schedule) -> int:
        return sum(getattr(other, f) != getattr(schedule, f) for f in fields)

    return [p for p in points if differences(p) == 1 and _adjacent(points, schedule, p)]


def _adjacent(points: list[Schedule], a: Schedule, b: Schedule) -> bool:
    """Along the one field they differ in, no other point of the space lies between them."""
    fields = tuned_fields(a.family)
    for field in fields:
        x, y = getattr(a, field), getattr(b, field)
        if x != y:
            key = (lambda v: v[0] * v[1]) if field == "block" else (lambda v: v)
            low, high = sorted((key(x), key(y)))
            others = {key(getattr(p, field)) for p in points
                      if all(getattr(p, f) == getattr(a, f) for f in fields if f != field)}
            return not any(low < v < high for v in others)
    return False


def described(shape: Shape, schedule: Schedule) -> str:
    """The schedule's description for this program (a contraction's columns walked where they are a loop)."""
    return schedule.describe(schedule.family == "contraction" and shape.contraction is not None and
                             shape.contraction.columns is not None)


def contraction_staging(shape: Shape, schedule: Schedule) -> tuple[str, int, int]:
    """(the accumulator's C type, the outputs a thread reads from an operand's tile as one vector, the shared memory
    the schedule's two buffers of every operand's tiles take). Each tile's rows are padded by that vector's width,
    so that a warp's staging stores along the loop fall in different banks."""
    found = shape.contraction
    acc_type = reduction_type(shape.program, Reduction(found.accumulator, "+"))
    dtype = dtype_of(acc_type)
    acc_bytes = itemsize(dtype) if dtype is not None else 0
    width = max((w for w in (4, 2, 1) if schedule.items % w == 0 and w * acc_bytes <= 16 and acc_bytes), default=1)
    rows, columns = schedule.output_tile()
    return acc_type, width, 2 * schedule.k_tile * (len(found.lefts) * (rows + width) +
                                                   len(found.rights) * (columns + width)) * acc_bytes


def reduction_type(program: LoopProgram, reduction: Reduction) -> str:
    """The C type of a reduction's variable, from its declaration."""
    for stmt in walk(program.body):
        if isinstance(stmt, Let) and stmt.name == reduction.variable:
            ctype = " ".join(w for w in stmt.ctype.split() if w != "const")
            return program.types.get(ctype, ctype)
    raise KeyError(reduction.variable)
