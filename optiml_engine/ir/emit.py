"""Program + schedule -> CUDA kernel + launch rule (IR.md, "Emit").

The emitted kernel keeps the user's signature (and template header), gets `__launch_bounds__` of its block and a
comment naming its schedule; its body is the program's per-point code, printed back as C (printer.py), placed by
the schedule. Small `optiml_` device helpers (vector lanes, warp combines) are written above the kernel when used.
The launch rule is written in contract terms from the program's bounds (analysis.extent), so it holds at every
contract size.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from optiml_engine.ir.analysis import (
    Reduction, all_loads, extent, loads, names_of, names_read, names_written, unit_stride, walk)
from optiml_engine.ir.printer import c_expr, c_statements
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Cast, Const, Expr, For, If, Let, Load, LoopProgram, ParallelIndex, Ref, Select, Stmt,
    Store, children, rewritten, statements_replaced, with_children)
from optiml_engine.ir.schedule import SHARED_TARGET_BYTES, Schedule, Shape, element_bytes, reduction_type
from optiml_engine.model import Candidate, LaunchRule
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.policies.rules.knobs import launch_bounds_replacement

GRID_YZ_LIMIT = 65535


class EmitError(Exception):
    """The schedule cannot be written for this program (its bounds have no contract form, ...)."""


_HELPERS = {
    "lanes": """// Consecutive elements loaded or stored as one aligned vector access.
template <typename T, int N>
struct alignas(sizeof(T) * N) optiml_lanes {
    T v[N];
};

__device__ __forceinline__ bool optiml_aligned(const void* pointer, unsigned bytes)
{
    return reinterpret_cast<unsigned long long>(pointer) % bytes == 0;
}
""",
    "+": """template <typename T>
__device__ __forceinline__ T optiml_warp_sum(T value)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
    return value;
}
""",
    "*": """template <typename T>
__device__ __forceinline__ T optiml_warp_product(T value)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) value *= __shfl_xor_sync(0xffffffffu, value, offset);
    return value;
}
""",
    "max": """template <typename T>
__device__ __forceinline__ T optiml_warp_max(T value)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const T other = __shfl_xor_sync(0xffffffffu, value, offset);
        value = other > value ? other : value;
    }
    return value;
}
""",
    "min": """template <typename T>
__device__ __forceinline__ T optiml_warp_min(T value)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        const T other = __shfl_xor_sync(0xffffffffu, value, offset);
        value = other < value ? other : value;
    }
    return value;
}
""",
}
_WARP_FUNCTION = {"+": "optiml_warp_sum", "*": "optiml_warp_product", "max": "optiml_warp_max",
                  "min": "optiml_warp_min"}


def combined(op: str, a: str, b: str) -> str:
    return {"+": f"{a} + {b}", "*": f"{a} * {b}", "max": f"{b} > {a} ? {b} : {a}",
            "min": f"{b} < {a} ? {b} : {a}"}[op]


def identity(op: str, ctype: str) -> str | None:
    """The value a lane starts a reduction from when it is not the lane holding the initial value (None: every lane
    may start from the initial value, as max and min may)."""
    if op in ("max", "min"):
        return None
    value = "0" if op == "+" else "1"
    if ctype in ("float", "double"):
        return f"{value}.0f" if ctype == "float" else f"{value}.0"
    if ctype in ("__half", "half"):
        return f"__float2half({value}.0f)"
    if ctype in ("__nv_bfloat16", "nv_bfloat16"):
        return f"__float2bfloat16({value}.0f)"
    return f"static_cast<{ctype}>({value})"


class _Names:
    """Fresh names for the emitter's variables, clear of every name the program uses."""

    def __init__(self, program: LoopProgram):
        self.taken = names_read(program.body) | names_written(program.body) | \
            {a.name for a in program.arrays} | {s.name for s in program.scalars} | {i.name for i in program.space}

    def __call__(self, wanted: str) -> str:
        name = self.scoped(wanted)
        self.taken.add(name)
        return name

    def scoped(self, wanted: str) -> str:
        """A name clear of the kernel's, for a variable of a scope of its own (reused by the next such scope)."""
        name = wanted
        while name in self.taken:
            name += "_"
        return name


def _index_type(index: ParallelIndex, program: LoopProgram) -> str:
    ctype = " ".join(w for w in index.ctype.split() if w != "const")
    return program.types.get(ctype, ctype)


def _replaced(body: list[Stmt], loads_to: dict[Load, Expr], stores_to: dict[tuple[str, Expr], str]) -> list[Stmt]:
    """The statements with the given reads replaced by expressions and the given writes by assignments to a name."""

    def read(expr: Expr) -> Expr:
        return loads_to[expr] if isinstance(expr, Load) and expr in loads_to else with_children(expr, read)

    assigned = statements_replaced(body, lambda stmt: [Assign(name=stores_to[(stmt.array, stmt.index)], op="=",
                                                              value=stmt.value)]
                                   if isinstance(stmt, Store) and (stmt.array, stmt.index) in stores_to else None)
    return rewritten(assigned, read)


def _unconditional_loads(expr: Expr) -> list[Load]:
    """Reads every evaluation of the expression performs (not those under ?:, && or ||'s right side)."""
    if isinstance(expr, Select):
        return _unconditional_loads(expr.cond)
    if isinstance(expr, Binary) and expr.op in ("&&", "||"):
        return _unconditional_loads(expr.left)
    found = [expr] if isinstance(expr, Load) else []
    for child in children(expr):
        found += _unconditional_loads(child)
    return found


class _Kernel:
    """One emission: the body's lines, the helpers it uses, the launch."""

    def __init__(self, program: LoopProgram, shape: Shape, schedule: Schedule, base: Candidate):
        self.program, self.shape, self.schedule, self.base = program, shape, schedule, base
        self.names = _Names(program)
        self.helpers: list[str] = []
        self.lines: list[str] = []
        self.grid: list[str] = []
        self.smem = "0"                    # dynamic shared memory, in contract terms

    def use(self, helper: str) -> None:
        if helper not in self.helpers:
            self.helpers.append(helper)

    def extent(self, axis: int) -> str:
        found = extent(self.program, axis, self.base.contract)
        if found is None:
            index = self.program.space[axis]
            raise EmitError(f"the bound of '{index.name}' ({c_expr(index.upper)}) has no form in contract terms")
        return found

    def bounds(self, axis: int) -> tuple[str, str, str]:
        """(type, "lower + " or "", upper) of a parallel index, as C: what a first index adds its offset to."""
        index = self.program.space[axis]
        lower = c_expr(index.lower)
        return _index_type(index, self.program), "" if lower == "0" else f"{lower} + ", c_expr(index.upper)

    def outer_loops(self, indent: str, middle: str | None = None, z_axis: int = 0) -> tuple[list[str], str, list[str]]:
        """Grid-stride loops over the indices outside the innermost: in a 3-D space `z_axis` (the outermost unless
        said) over blockIdx.z and, with `middle` (its first value's thread term: "blockIdx.y" or "blockIdx.y *
        blockDim.y + threadIdx.y"), the second innermost over y. Returns (opening lines, the indent inside them,
        closing lines)."""
        opening, closing = [], []
        space = self.program.space
        loops = []
        if len(space) == 3:
            loops.append((z_axis, "blockIdx.z", "gridDim.z"))
            self.grid_z = f"min(max({self.extent(z_axis)},1),{GRID_YZ_LIMIT})"
        if middle is not None and len(space) >= 2:
            loops.append((len(space) - 2, middle, "gridDim.y * blockDim.y" if "threadIdx" in middle else "gridDim.y"))
        for axis, first, stride in loops:
            ctype, lower, upper = self.bounds(axis)
            name = space[axis].name
            opening.append(f"{indent}for ({ctype} {name} = {lower}{first}; {name} < {upper}; {name} += {stride}) {{")
            closing.insert(0, f"{indent}}}")
            indent += "    "
        return opening, indent, closing

    def tiled_grid(self, x_axis: int, y_axis: int, tile: int) -> None:
        """A block per tile x tile points of two axes (y capped: its loop strides over the rest), z as outer_loops
        set it."""
        self.grid = [f"cdiv(max({self.extent(x_axis)},1),{tile})",
                     f"min(cdiv(max({self.extent(y_axis)},1),{tile}),{GRID_YZ_LIMIT})"]
        if len(self.program.space) == 3:
            self.grid.append(self.grid_z)

    # -- map ------------------------------------------------------------------------------------------------------

    def map(self) -> None:
        s, program = self.schedule, self.program
        inner = program.space[-1]
        ctype, lower, upper = self.bounds(len(program.space) - 1)
        bx, by = s.block
        opening, indent, closing = self.outer_loops("    ", middle="blockIdx.y * blockDim.y + threadIdx.y")
        self.lines += opening
        if s.vector == 1:
            self.scalar_points(inner, ctype, lower, upper, indent)
        else:
            self.vector_points(inner, ctype, lower, upper, indent)
        self.lines += closing
        self.grid = [f"cdiv(max({self.extent(len(program.space) - 1)},1),{bx * s.items})"]
        if len(program.space) >= 2:
            self.grid.append(f"min(cdiv(max({self.extent(len(program.space) - 2)},1),{by}),{GRID_YZ_LIMIT})")
        if len(program.space) == 3:
            self.grid.append(self.grid_z)

    def scalar_points(self, inner: ParallelIndex, ctype: str, lower: str, upper: str, indent: str) -> None:
        items = self.schedule.items
        body = c_statements(self.program.body, indent + "        " if items > 1 else indent + "    ")
        if items == 1:
            self.lines += [f"{indent}const {ctype} {inner.name} = {lower}blockIdx.x * blockDim.x + threadIdx.x;",
                           f"{indent}if ({inner.name} < {upper}) {{", *body, f"{indent}}}"]
            return
        first, item = self.names(f"{inner.name}_first"), self.names("item")
        self.lines += [
            f"{indent}const {ctype} {first} = {lower}blockIdx.x * (blockDim.x * {items}) + threadIdx.x;",
            f"{indent}#pragma unroll",
            f"{indent}for (int {item} = 0; {item} < {items}; ++{item}) {{",
            f"{indent}    const {ctype} {inner.name} = {first} + {item} * blockDim.x;",
            f"{indent}    if ({inner.name} < {upper}) {{", *body, f"{indent}    }}", f"{indent}}}"]

    def vector_points(self, inner: ParallelIndex, ctype: str, lower: str, upper: str, indent: str) -> None:
        s, program = self.schedule, self.program
        width, groups = s.vector, s.items // s.vector
        self.use("lanes")
        group_first, group, lane = self.names(f"{inner.name}_group"), self.names("group"), self.names("lane")
        # Vector accesses: top-level unconditional reads and plain writes, unit-stride along the innermost index.
        # An access's address is computed once per group, outside the per-point code: its index may read only
        # parallel indices and scalars.
        outside = {i.name for i in program.space} | {p.name for p in program.scalars}
        reads, stores = vector_accesses(program.body, inner.name, conditions=False, eligible=lambda array, index:
                                        names_of(index) <= outside and self.vector_bytes(array) in (4, 8, 16))
        at_group = _renamed({inner.name: Const(text=group_first)})
        setup, finish, load_names, store_names = self.lane_registers(reads, stores, at_group, lane,
                                                                     indent + "        ", self.names)
        aligned = [f"optiml_aligned(&{access.array}[{c_expr(access.index, at_group)}], "
                   f"{self.vector_bytes(access.array)})" for access in [*reads, *stores]]
        vector_body = _replaced(program.body, load_names, store_names)
        condition = " && ".join([f"{group_first} + {width} <= {upper}", *aligned])
        self.lines += [
            f"{indent}// {width} consecutive points per group, {groups} group{'s' if groups > 1 else ''} per thread; "
            f"a block's groups are contiguous.",
            f"{indent}const {ctype} {inner.name}_base = {lower}blockIdx.x * (blockDim.x * {s.items}) + "
            f"threadIdx.x * {width};",
            f"{indent}#pragma unroll",
            f"{indent}for (int {group} = 0; {group} < {groups}; ++{group}) {{",
            f"{indent}    const {ctype} {group_first} = {inner.name}_base + {group} * (blockDim.x * {width});",
            f"{indent}    if ({condition}) {{",
            *setup,
            f"{indent}        #pragma unroll",
            f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}            const {ctype} {inner.name} = {group_first} + {lane};",
            *c_statements(vector_body, indent + "            "),
            f"{indent}        }}",
            *finish,
            f"{indent}    }} else {{",
            f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}            const {ctype} {inner.name} = {group_first} + {lane};",
            f"{indent}            if ({inner.name} < {upper}) {{",
            *c_statements(program.body, indent + "                "),
            f"{indent}            }}",
            f"{indent}        }}",
            f"{indent}    }}",
            f"{indent}}}",
        ]
        self.names.taken.add(f"{inner.name}_base")

    def lane_registers(self, reads: list[Load], stores: list[Store], at: dict[str, str], lane: str, indent: str,
                       name_of: Callable[[str], str]) -> tuple[list[str], list[str], dict, dict]:
        """For vector accesses at the addresses `at` gives: the loads into `optiml_lanes` registers and the
        registers of the stores (setup), the stores themselves (finish), and what each read and write becomes in
        the per-lane code (register element `lane`)."""
        width = self.schedule.vector
        setup, finish, loads_to, stores_to = [], [], {}, {}
        for load in reads:
            name, element = name_of(f"{load.array}_lanes"), self.program.element_type(load.array)
            setup.append(f"{indent}const optiml_lanes<{element}, {width}> {name} = *reinterpret_cast<const "
                         f"optiml_lanes<{element}, {width}>*>(&{load.array}[{c_expr(load.index, at)}]);")
            loads_to[load] = Ref(name=f"{name}.v[{lane}]")
        for store in stores:
            name, element = name_of(f"{store.array}_lanes"), self.program.element_type(store.array)
            setup.append(f"{indent}optiml_lanes<{element}, {width}> {name};")
            finish.append(f"{indent}*reinterpret_cast<optiml_lanes<{element}, {width}>*>("
                          f"&{store.array}[{c_expr(store.index, at)}]) = {name};")
            stores_to[(store.array, store.index)] = f"{name}.v[{lane}]"
        return setup, finish, loads_to, stores_to

    def vector_bytes(self, array: str) -> int:
        return element_bytes(self.program, array) * self.schedule.vector

    # -- reduce ---------------------------------------------------------------------------------------------------

    def reduce(self) -> None:
        s, program = self.schedule, self.program
        inner = program.space[-1]
        ctype, lower, upper = self.bounds(len(program.space) - 1)
        self.lane = self.names("lane")
        opening, indent, closing = self.outer_loops("    ", middle="blockIdx.y")
        self.repeats = len(program.space) > 1
        self.lines += opening
        self.active: str | None = None
        if s.lanes_axis == "x":
            if s.lanes == 32:
                self.lines += [f"{indent}const {ctype} {inner.name} = {lower}blockIdx.x * blockDim.y + threadIdx.y;",
                               f"{indent}if ({inner.name} >= {upper}) return;   // a whole warp leaves together"]
                self.grid = [f"cdiv(max({self.extent(len(program.space) - 1)},1),{s.block[1]})"]
            else:
                self.lines += [f"{indent}const {ctype} {inner.name} = {lower}blockIdx.x;"]
                self.grid = [f"max({self.extent(len(program.space) - 1)},1)"]
            self.lines.append(f"{indent}const int {self.lane} = threadIdx.x;")
        else:
            raw, self.active = self.names(f"{inner.name}_point"), self.names("active")
            self.lines += [
                f"{indent}if ({upper} <= {c_expr(program.space[-1].lower)}) return;",
                f"{indent}// Threads past the last point compute the last point again (so that they reach every "
                f"barrier) and write nothing.",
                f"{indent}const {ctype} {raw} = {lower}blockIdx.x * blockDim.x + threadIdx.x;",
                f"{indent}const bool {self.active} = {raw} < {upper};",
                f"{indent}const {ctype} {inner.name} = {self.active} ? {raw} : {upper} - 1;",
                f"{indent}const int {self.lane} = threadIdx.y;"]
            self.grid = [f"cdiv(max({self.extent(len(program.space) - 1)},1),{s.block[0]})"]
        self.point(program.body, indent, in_loop=False)
        self.lines += closing
        if len(program.space) >= 2:
            self.grid.append(f"min(max({self.extent(len(program.space) - 2)},1),{GRID_YZ_LIMIT})")
        if len(program.space) == 3:
            self.grid.append(self.grid_z)

    def point(self, body: list[Stmt], indent: str, in_loop: bool) -> None:
        """The point's code shared by its lanes: top-level loops split across them, their reductions combined,
        writes outside the loops done by lane 0."""
        for stmt in body:
            if isinstance(stmt, For) and not in_loop:
                self.parallel_loop(stmt, indent)
            elif isinstance(stmt, If) and not in_loop:
                self.lines.append(f"{indent}if ({c_expr(stmt.cond)}) {{")
                self.point(stmt.then, indent + "    ", in_loop)
                if stmt.other:
                    self.lines.append(f"{indent}}} else {{")
                    self.point(stmt.other, indent + "    ", in_loop)
                self.lines.append(f"{indent}}}")
            elif isinstance(stmt, (Store, Atomic)):
                who = f"{self.lane} == 0" + (f" && {self.active}" if self.active else "")
                self.lines += [f"{indent}if ({who}) {{", *c_statements([stmt], indent + "    "), f"{indent}}}"]
            else:
                self.lines += c_statements([stmt], indent)

    def parallel_loop(self, loop: For, indent: str) -> None:
        s = self.schedule
        reductions = [r for r in self.shape.reductions if _updates(loop, r)]
        for reduction in reductions:
            ctype = reduction_type(self.program, reduction)
            start = identity(reduction.op, ctype)
            if start is not None:
                self.lines.append(f"{indent}if ({self.lane} != 0) {reduction.variable} = {start};")
        body = loop.body if self.active is None else _guard_writes(loop.body, self.active)
        if not (s.vector > 1 and c_expr(loop.step) == "1" and s.lanes_axis == "x" and self.vector_loop(loop, indent)):
            self.lane_loop(loop, body, loop.start, loop.stop, indent)
        for reduction in reductions:
            self.combine(reduction, indent)

    def lane_loop(self, loop: For, body: list[Stmt], start: Expr, stop: Expr, indent: str) -> None:
        """The iterations [start, stop) of a loop, lane by lane: lane l takes l, l + lanes, ..."""
        s, step = self.schedule, c_expr(loop.step)
        offset: Expr = Ref(name=self.lane) if step == "1" else Binary(op="*", left=Ref(name=self.lane), right=loop.step)
        first = c_expr(offset if c_expr(start) == "0" else Binary(op="+", left=start, right=offset))
        stride = f"{s.lanes}" if step == "1" else f"{s.lanes} * {step}"
        self.lines.append(f"{indent}for ({loop.ctype} {loop.var} = {first}; {loop.var} < {c_expr(stop)}; "
                          f"{loop.var} += {stride}) {{")
        self.lines += c_statements(body, indent + "    ")
        self.lines.append(f"{indent}}}")

    def vector_loop(self, loop: For, indent: str) -> bool:
        """The loop in three parts, in a scope of its own: a head, lane by lane, up to the first element where every
        read and write along the loop's unit stride is 16-byte aligned; the vector part, each lane taking V
        consecutive iterations with one vector access per array; the tail, lane by lane. False when the loop has no
        access to vectorize (nothing emitted)."""
        s, program, width = self.schedule, self.program, self.schedule.vector
        inside = {stmt.name for stmt in walk(loop.body) if isinstance(stmt, Let)}
        reads, stores = vector_accesses(loop.body, loop.var, conditions=True, eligible=lambda array, index:
                                        not (names_of(index) & inside) and
                                        element_bytes(program, array) * width in (4, 8, 16))
        if not reads and not stores:
            return False
        # The scope's names are reused by the next vector loop's scope.
        scoped = self.names.scoped
        first, element = scoped(f"{loop.var}_first"), scoped("e")
        begin, end = scoped(f"{loop.var}_vector_begin"), scoped(f"{loop.var}_vector_end")
        self.use("lanes")
        accesses = [(load.array, load.index) for load in reads] + [(st.array, st.index) for st in stores]
        at_start, at_begin, at_first = (_renamed({loop.var: loop.start}), {loop.var: begin}, {loop.var: first})
        taken: set[str] = set()

        def lanes_name(wanted: str) -> str:
            name, count = scoped(wanted), 1
            while name in taken:
                count += 1
                name = scoped(f"{wanted}{count}")
            taken.add(name)
            return name

        inner = indent + "    "
        setup, finish, replacements, store_names = self.lane_registers(reads, stores, at_first, element,
                                                                       inner + "    ", lanes_name)
        array, index = accesses[0]
        elements = element_bytes(program, array)
        aligned = " && ".join(f"optiml_aligned(&{a}[{c_expr(i, at_begin)}], {element_bytes(program, a) * width})"
                              for a, i in accesses)
        start, stop = c_expr(loop.start), c_expr(loop.stop)
        self.lines += [
            f"{indent}{{",
            f"{inner}// Vector part: {width} consecutive elements per lane and step, one vector access per array, "
            f"from the first element where all are aligned.",
            f"{inner}{loop.ctype} {begin} = {start} + ({loop.ctype})((16 - reinterpret_cast<unsigned long "
            f"long>(&{array}[{c_expr(index, at_start)}]) % 16) % 16 / {elements});",
            f"{inner}if ({begin} > {stop}) {begin} = {stop};",
            f"{inner}const {loop.ctype} {end} = ({aligned}) ? {begin} + ({stop} - {begin}) / {width} * {width} "
            f": {begin};"]
        self.lines.append(f"{inner}// Head, lane by lane.")
        self.lane_loop(loop, loop.body, loop.start, Ref(name=begin), inner)
        self.lines += [
            f"{inner}for ({loop.ctype} {first} = {begin} + {self.lane} * {width}; {first} < {end}; "
            f"{first} += {s.lanes * width}) {{",
            *setup,
            f"{inner}    #pragma unroll",
            f"{inner}    for (int {element} = 0; {element} < {width}; ++{element}) {{",
            f"{inner}        const {loop.ctype} {loop.var} = {first} + {element};",
            *c_statements(_replaced(loop.body, replacements, store_names), inner + "        "),
            f"{inner}    }}",
            *finish,
            f"{inner}}}",
            f"{inner}// Tail, lane by lane."]
        self.lane_loop(loop, loop.body, Ref(name=end), loop.stop, inner)
        self.lines.append(f"{indent}}}")
        return True

    def combine(self, reduction: Reduction, indent: str) -> None:
        s, var = self.schedule, reduction.variable
        ctype = reduction_type(self.program, reduction)
        partials = self.names(f"{var}_partials")
        if s.lanes_axis == "x":
            self.use(reduction.op)
            self.lines.append(f"{indent}{var} = {_WARP_FUNCTION[reduction.op]}({var});")
            if s.lanes == 32:
                return
            warps = s.lanes // 32
            w = self.names("warp")
            self.lines += [
                f"{indent}__shared__ {ctype} {partials}[{warps}];",
                f"{indent}if ({self.lane} % 32 == 0) {partials}[{self.lane} / 32] = {var};",
                f"{indent}__syncthreads();",
                f"{indent}{var} = {partials}[0];",
                f"{indent}for (int {w} = 1; {w} < {warps}; ++{w}) {var} = "
                f"{combined(reduction.op, var, f'{partials}[{w}]')};"]
        else:
            w = self.names("row")
            points, lanes = s.block
            self.lines += [
                f"{indent}__shared__ {ctype} {partials}[{lanes}][{points}];",
                f"{indent}{partials}[threadIdx.y][threadIdx.x] = {var};",
                f"{indent}__syncthreads();",
                f"{indent}if (threadIdx.y == 0) {{",
                f"{indent}    for (int {w} = 1; {w} < {lanes}; ++{w}) {var} = "
                f"{combined(reduction.op, var, f'{partials}[{w}][threadIdx.x]')};",
                f"{indent}    {partials}[0][threadIdx.x] = {var};",
                f"{indent}}}",
                f"{indent}__syncthreads();",
                f"{indent}{var} = {partials}[0][threadIdx.x];"]
        if self.repeats:
            self.lines.append(f"{indent}__syncthreads();   // the partials are written again for the next point")

    # -- contraction ----------------------------------------------------------------------------------------------

    def contraction(self) -> None:
        """Output tiles of tile x tile points per block; the loop in steps of k_tile, each step's left and right
        operand values staged in shared memory (each read along its own unit stride); items x items outputs per
        thread, interleaved so that a warp's shared-memory reads and output writes are contiguous; then each
        output's own code after the loop, with the loop's sum added to its accumulator."""
        s, program, found = self.schedule, self.program, self.shape.contraction
        tile, per, step = s.tile, s.items, s.k_tile
        threads_x = threads_y = tile // per
        i_axis, j_axis = len(program.space) - 2, len(program.space) - 1
        i, j, k = program.space[i_axis], program.space[j_axis], found.loop
        itype, ilower, iupper = self.bounds(i_axis)
        jtype, jlower, jupper = self.bounds(j_axis)
        acc_type = reduction_type(program, Reduction(found.accumulator, "+"))
        zero = identity("+", acc_type)
        opening, indent, closing = self.outer_loops("    ")
        self.lines += opening
        names = self.names
        left_tile, right_tile, partial = names("left_tile"), names("right_tile"), names("partial")
        i_block, j_block, k_step = names(f"{i.name}_block"), names(f"{j.name}_block"), names(f"{k.var}_step")
        element, m, n, kk, thread = names("e"), names("m"), names("n"), names("kk"), names("thread")
        left_values, right_values = names("left_values"), names("right_values")
        inner = indent + "    "
        self.lines += [
            f"{indent}__shared__ {acc_type} {left_tile}[{step}][{tile}];    // left operand: {step} steps x {tile} "
            f"{i.name}",
            f"{indent}__shared__ {acc_type} {right_tile}[{step}][{tile}];   // right operand: {step} steps x {tile} "
            f"{j.name}",
            f"{indent}const int {thread} = threadIdx.y * blockDim.x + threadIdx.x;",
            f"{indent}const {jtype} {j_block} = {jlower}blockIdx.x * {tile};",
            f"{indent}for ({itype} {i_block} = {ilower}blockIdx.y * {tile}; {i_block} < {iupper}; "
            f"{i_block} += gridDim.y * {tile}) {{",
            f"{inner}{acc_type} {partial}[{per}][{per}];   // unrolled loops keep it in registers",
            f"{inner}#pragma unroll",
            f"{inner}for (int {m} = 0; {m} < {per}; ++{m})",
            f"{inner}    #pragma unroll",
            f"{inner}    for (int {n} = 0; {n} < {per}; ++{n}) {partial}[{m}][{n}] = {zero};",
            f"{inner}for ({k.ctype} {k_step} = {c_expr(k.start)}; {k_step} < {c_expr(k.stop)}; {k_step} += {step}) {{"]
        body = inner + "    "
        operands = ((found.left, left_tile, i, itype, i_block, iupper),
                    (found.right, right_tile, j, jtype, j_block, jupper))
        for operand, tile_name, index, itype_, block, upper in operands:
            along = unit_stride_of(operand, index.name)
            position, step_of = (f"{element} % {tile}", f"{element} / {tile}") if along else \
                (f"{element} / {step}", f"{element} % {step}")
            self.lines += [
                f"{body}// Staged along {'its ' + index.name if along else 'the loop'} (the operand's unit stride).",
                f"{body}for (int {element} = {thread}; {element} < {tile * step}; "
                f"{element} += {threads_x * threads_y}) {{",
                f"{body}    const {itype_} {index.name} = {block} + {position};",
                f"{body}    const {k.ctype} {k.var} = {k_step} + {step_of};",
                f"{body}    {tile_name}[{step_of}][{position}] = ({index.name} < {upper} && {k.var} < "
                f"{c_expr(k.stop)}) ? ({acc_type})({c_expr(operand)}) : {zero};",
                f"{body}}}"]
        self.lines += [
            f"{body}__syncthreads();",
            f"{body}#pragma unroll",
            f"{body}for (int {kk} = 0; {kk} < {step}; ++{kk}) {{",
            f"{body}    {acc_type} {left_values}[{per}], {right_values}[{per}];",
            f"{body}    #pragma unroll",
            f"{body}    for (int {m} = 0; {m} < {per}; ++{m}) {left_values}[{m}] = "
            f"{left_tile}[{kk}][{m} * {threads_y} + threadIdx.y];",
            f"{body}    #pragma unroll",
            f"{body}    for (int {n} = 0; {n} < {per}; ++{n}) {right_values}[{n}] = "
            f"{right_tile}[{kk}][{n} * {threads_x} + threadIdx.x];",
            f"{body}    #pragma unroll",
            f"{body}    for (int {m} = 0; {m} < {per}; ++{m})",
            f"{body}        #pragma unroll",
            f"{body}        for (int {n} = 0; {n} < {per}; ++{n}) {partial}[{m}][{n}] += "
            f"{left_values}[{m}] * {right_values}[{n}];",
            f"{body}}}",
            f"{body}__syncthreads();",
            f"{inner}}}"]
        # Each output's own code: the declarations before the loop, the loop's sum, the code after it.
        position = program.body.index(found.loop)
        epilogue = program.body[:position] + [Assign(name=found.accumulator, op="+=",
                                                     value=Ref(name=f"{partial}[{m}][{n}]"))] + \
            program.body[position + 1:]
        self.lines += [
            f"{inner}#pragma unroll",
            f"{inner}for (int {m} = 0; {m} < {per}; ++{m}) {{",
            f"{inner}    #pragma unroll",
            f"{inner}    for (int {n} = 0; {n} < {per}; ++{n}) {{",
            f"{inner}        const {itype} {i.name} = {i_block} + {m} * {threads_y} + threadIdx.y;",
            f"{inner}        const {jtype} {j.name} = {j_block} + {n} * {threads_x} + threadIdx.x;",
            f"{inner}        if ({i.name} < {iupper} && {j.name} < {jupper}) {{",
            *c_statements(epilogue, inner + "            "),
            f"{inner}        }}",
            f"{inner}    }}",
            f"{inner}}}",
            f"{indent}}}"]
        self.lines += closing
        self.tiled_grid(j_axis, i_axis, tile)

    # -- privatize ------------------------------------------------------------------------------------------------

    def privatize(self) -> None:
        if self.schedule.target_copy == "shared":
            self.shared_copy()
        else:
            self.register_sums()

    def points_loop(self, body: list[Stmt]) -> None:
        """`items` points per thread, a block's contiguous, each under its bound (no thread leaves: barriers follow)."""
        s, inner = self.schedule, self.program.space[0]
        ctype, lower, upper = self.bounds(0)
        first, item = self.names(f"{inner.name}_first"), self.names("item")
        self.lines += [
            f"    // {s.items} point{'s' if s.items > 1 else ''} per thread, a block's points contiguous.",
            f"    const {ctype} {first} = {lower}blockIdx.x * (blockDim.x * {s.items}) + threadIdx.x;",
            f"    for (int {item} = 0; {item} < {s.items}; ++{item}) {{",
            f"        const {ctype} {inner.name} = {first} + {item} * blockDim.x;",
            f"        if ({inner.name} < {upper}) {{",
            *c_statements(body, "            "),
            "        }",
            "    }"]
        self.grid = [f"cdiv(max({self.extent(0)},1),{s.block[0] * s.items})"]

    def shared_copy(self) -> None:
        """A zeroed copy of the target array per block in shared memory takes the block's atomics; the block then
        adds each nonzero element to the target with one atomic."""
        program, target = self.program, self.shape.shared_target
        spec = next(a for a in self.base.contract.arrays if a.param == target)
        element = program.element_type(target)
        length = self.kernel_length(spec.length)
        if element_bytes(program, target) * self._length_at_sizes(spec.length) > SHARED_TARGET_BYTES:
            raise EmitError(f"a copy of {target} per block would exceed {SHARED_TARGET_BYTES} bytes")
        local, b = self.names(f"{target}_block"), self.names("bin")
        self.lines += [
            "    extern __shared__ unsigned char optiml_shared[];",
            f"    {element}* {local} = reinterpret_cast<{element}*>(optiml_shared);   // the block's copy of "
            f"{target}",
            f"    for (int {b} = threadIdx.x; {b} < {length}; {b} += blockDim.x) {local}[{b}] = 0;",
            "    __syncthreads();"]
        self.points_loop(_atomics_redirected(program.body, target, local))
        self.lines += [
            "    __syncthreads();",
            f"    for (int {b} = threadIdx.x; {b} < {length}; {b} += blockDim.x) {{",
            f"        if ({local}[{b}] != 0) atomicAdd(&{target}[{b}], {local}[{b}]);",
            "    }"]
        self.smem = f"({spec.length})*{element_bytes(program, target)}"

    def kernel_length(self, length: str) -> str:
        """An array's contract length in kernel terms: a number, or a size symbol an integer parameter is bound to."""
        if length.strip().isdigit():
            return length.strip()
        bound = {s.value.strip(): s.param for s in self.base.contract.scalars}
        if length.strip() in bound:
            return bound[length.strip()]
        raise EmitError(f"the length {length} has no kernel form")

    def _length_at_sizes(self, length: str) -> int:
        from optiml_engine.source.contract import resolve
        contract = self.base.contract
        return max(resolve(contract, binding).lengths[self.shape.shared_target]
                   for binding in [contract.sizes, *contract.checks])

    def register_sums(self) -> None:
        """Each thread sums its points' contributions to every atomic target in a register; the block combines them
        (warp shuffles, then one value per warp in shared memory) and its thread 0 adds them with one atomic."""
        s, program = self.schedule, self.program
        self.use("+")
        sums: dict[tuple[str, Expr], str] = {}
        for atomic in self.shape.scalar_atomics:
            name = self.names(f"{atomic.array}_sum")
            sums[(atomic.array, atomic.index)] = name
            element = program.element_type(atomic.array)
            self.lines.append(f"    {element} {name} = {identity('+', element)};")
        self.points_loop(_atomics_summed(program.body, sums, program))
        warps = s.block[0] // 32
        for (array, index), name in sums.items():
            element = program.element_type(array)
            partials, warp = self.names(f"{name}_partials"), self.names("warp")
            self.lines += [
                f"    {name} = optiml_warp_sum({name});",
                f"    __shared__ {element} {partials}[{warps}];",
                f"    if (threadIdx.x % 32 == 0) {partials}[threadIdx.x / 32] = {name};",
                "    __syncthreads();",
                "    if (threadIdx.x == 0) {",
                f"        for (int {warp} = 1; {warp} < {warps}; ++{warp}) {name} += {partials}[{warp}];",
                f"        atomicAdd(&{array}[{c_expr(index)}], {name});",
                "    }"]

    # -- stage ----------------------------------------------------------------------------------------------------

    def stage(self) -> None:
        s, program = self.schedule, self.program
        tile = s.tile
        # q: the index the writes are unit-stride along (threadIdx.x when computing), p: the staged reads' (threadIdx.x
        # when staging); a third index is looped over outside the tile.
        write_axis, read_axis = self.shape.write_axis, self.shape.read_axis
        q, p = program.space[write_axis], program.space[read_axis]
        qtype, qlower, qupper = self.bounds(write_axis)
        ptype, plower, pupper = self.bounds(read_axis)
        other = next((axis for axis in range(len(program.space)) if axis not in (write_axis, read_axis)), 0)
        opening, indent, closing = self.outer_loops("    ", z_axis=other)
        self.lines += opening
        q_tile, p_tile, row = self.names(f"{q.name}_tile"), self.names(f"{p.name}_tile"), self.names("tile_row")
        tiles: dict[Load, Expr] = {}
        declarations = []
        for load in self.shape.staged:
            name = self.names(f"{load.array}_tile")
            declarations.append(f"{indent}__shared__ {program.element_type(load.array)} {name}[{tile}][{tile + 1}];"
                                f"   // padded: a column read hits 32 banks")
            tiles[load] = Ref(name=f"{name}[threadIdx.x][{row}]")
        self.lines += declarations
        self.lines += [
            f"{indent}const {qtype} {q_tile} = {qlower}blockIdx.x * {tile};",
            f"{indent}for ({ptype} {p_tile} = {plower}blockIdx.y * {tile}; {p_tile} < {pupper}; "
            f"{p_tile} += gridDim.y * {tile}) {{"]
        inner = indent + "    "
        self.lines.append(f"{inner}// Staged reads: neighbouring threads read neighbouring {p.name} (their unit "
                          f"stride).")
        self.lines.append(f"{inner}for (int {row} = threadIdx.y; {row} < {tile}; {row} += blockDim.y) {{")
        self.lines += [f"{inner}    const {ptype} {p.name} = {p_tile} + threadIdx.x;",
                       f"{inner}    const {qtype} {q.name} = {q_tile} + {row};",
                       f"{inner}    if ({p.name} < {pupper} && {q.name} < {qupper}) {{"]
        for load, ref in tiles.items():
            name = ref.name.split("[")[0]
            self.lines.append(f"{inner}        {name}[{row}][threadIdx.x] = {c_expr(load)};")
        self.lines += [f"{inner}    }}", f"{inner}}}", f"{inner}__syncthreads();"]
        self.lines += [f"{inner}for (int {row} = threadIdx.y; {row} < {tile}; {row} += blockDim.y) {{",
                       f"{inner}    const {ptype} {p.name} = {p_tile} + {row};",
                       f"{inner}    const {qtype} {q.name} = {q_tile} + threadIdx.x;",
                       f"{inner}    if ({p.name} < {pupper} && {q.name} < {qupper}) {{",
                       *c_statements(_replaced(program.body, tiles, {}), inner + "        "),
                       f"{inner}    }}", f"{inner}}}",
                       f"{inner}__syncthreads();   // the tile is loaded again for the next rows"]
        self.lines.append(f"{indent}}}")
        self.lines += closing
        self.tiled_grid(write_axis, read_axis, tile)

    # -- the candidate --------------------------------------------------------------------------------------------

    def candidate(self) -> Candidate:
        getattr(self, self.schedule.family)()
        view = KernelView.of(self.base)
        helpers = "".join(_HELPERS[name] + "\n" for name in self.helpers)
        comment = (f"// OptiML schedule of the loop-nest program: {self.schedule.describe()}.\n")
        body = "{\n" + "\n".join(self.lines) + "\n}"
        # The helpers open the unit: above the kernel there may be a template header or an `extern "C"` whose
        # linkage a template may not have.
        replacements = [(0, 0, helpers), (view.body.start_byte, view.body.end_byte, body),
                        launch_bounds_replacement(view, self.schedule.threads()),
                        (_top_of(view.node), _top_of(view.node), comment)]
        text = view.replaced(replacements)
        bx, by = self.schedule.block
        block = [str(bx)] if by == 1 and len(self.grid) == 1 else [str(bx), str(by)]
        launch = LaunchRule(grid=self.grid, block=block, smem=self.smem)
        return derived(self.base, text, f"schedule {self.schedule.describe()}", launch)


def _renamed(values: dict[str, Expr]) -> dict[str, str]:
    return {name: c_expr(value) for name, value in values.items()}


def _updates(loop: For, reduction: Reduction) -> bool:
    return any(isinstance(s, Assign) and s.name == reduction.variable for s in walk(loop.body))


def unit_stride_of(operand: Expr, index: str) -> bool:
    """Whether the operand's reads are unit-stride along `index` (rather than along the loop)."""
    found = loads(operand)
    return bool(found) and all(unit_stride(load.index, index) for load in found)


def vector_accesses(body: list[Stmt], variable: str, conditions: bool,
                    eligible: Callable[[str, Expr], bool]) -> tuple[list[Load], list[Store]]:
    """The reads every run of `body`'s top-level statements performs (with `conditions`, its top-level ifs'
    conditions too) and its plain writes, unit-stride along `variable` and admitted by `eligible(array, index)`: an
    array written is not read as a vector, an array read is not written as one, nor one written twice."""
    written = {stmt.array for stmt in walk(body) if isinstance(stmt, (Store, Atomic))}
    reads: list[Load] = []
    for stmt in body:
        exprs = [stmt.value] if isinstance(stmt, (Let, Assign)) and stmt.value is not None else \
            [stmt.index, stmt.value] if isinstance(stmt, Store) else \
            [stmt.cond] if isinstance(stmt, If) and conditions else []
        for expr in exprs:
            for load in _unconditional_loads(expr):
                if load not in reads and load.array not in written and unit_stride(load.index, variable) and \
                        eligible(load.array, load.index):
                    reads.append(load)
    loaded = {load.array for load in all_loads(body)}
    stores = [stmt for stmt in body if isinstance(stmt, Store) and stmt.op == "=" and
              unit_stride(stmt.index, variable) and eligible(stmt.array, stmt.index) and stmt.array not in loaded
              and sum(1 for other in walk(body) if isinstance(other, Store) and other.array == stmt.array) == 1]
    return reads, stores


def _atomics_summed(body: list[Stmt], sums: dict[tuple[str, Expr], str], program: LoopProgram) -> list[Stmt]:
    """The statements with each atomicAdd into a privatized target replaced by an addition to its register."""
    return statements_replaced(body, lambda stmt: [Assign(
        name=sums[(stmt.array, stmt.index)], op="+=",
        value=Cast(ctype=program.element_type(stmt.array), operand=stmt.value))]
        if isinstance(stmt, Atomic) and (stmt.array, stmt.index) in sums else None)


def _atomics_redirected(body: list[Stmt], target: str, local: str) -> list[Stmt]:
    """The statements with atomics into `target` made into the block's copy `local`."""
    return statements_replaced(body, lambda stmt: [stmt.model_copy(update={"array": local})]
                               if isinstance(stmt, Atomic) and stmt.array == target else None)


def _guard_writes(body: list[Stmt], active: str) -> list[Stmt]:
    """Writes under `if (active)`: a lane computing a clamped point again must not write it."""
    return statements_replaced(body, lambda stmt: [If(cond=Ref(name=active), then=[stmt])]
                               if isinstance(stmt, (Store, Atomic)) else None)


def _top_of(node: Node) -> int:
    """Where text may be inserted above the kernel: before its template header and any `extern "C"`."""
    while node.parent is not None and node.parent.type in ("template_declaration", "linkage_specification",
                                                           "declaration_list"):
        node = node.parent
    return node.start_byte


def emit(program: LoopProgram, shape: Shape, schedule: Schedule, base: Candidate) -> Candidate:
    """The schedule's kernel and launch rule, as a candidate made from `base` (the original kernel)."""
    if schedule.family not in shape.families:
        raise EmitError(f"the program has no {schedule.family} schedule")
    return _Kernel(program, shape, schedule, base).candidate()
