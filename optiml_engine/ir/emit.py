"""Program + schedule -> CUDA kernel + launch rule (IR.md, "Emit").

The emitted kernel keeps the user's signature (and template header), gets `__launch_bounds__` of its block and a
comment naming its schedule; its body is the program's per-point code, printed back as C (printer.py), placed by
the schedule. Small `optiml_` device helpers (vector lanes, warp combines) are written above the kernel when used.
The launch rule is written in contract terms from the program's bounds (analysis.extent), so it holds at every
contract size.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.ir.analysis import (
    Reduction, all_loads, bounds_checks, conditions_pushed_into_loops, conjunction, conjuncts, constant,
    contract_text, extent, folded, inlined, is_integer_cast, loads, loop_reductions, names_of, names_read,
    names_written, point_dependent, polynomial, reduction_update, single_assignments, statement_exprs, stride,
    subexpressions, unconditional_loads, unit_stride, walk)
from optiml_engine.ir.hoist import hoisted_digits, hoisted_reads
from optiml_engine.ir.vector_groups import (
    comparisons, declared_types, digit_split, evaluated, expanded_reads, index_locals_inlined, lowest_digit,
    substitute_expr, typed_single_assignments, unconditional_reads, uniform_branches)
from optiml_engine.ir.printer import c_expr, c_operand, c_statements
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Call, Cast, Const, Expr, For, If, Let, Load, LoopProgram, ParallelIndex, Ref, Select, Stmt,
    Store, Unary, children, mentions, names_in, rewritten, statements_replaced, substitute, substituted, with_children)
from optiml_engine.ir.schedule import (
    SHARED_TARGET_BYTES, SHUFFLED_TYPES, SM_COUNT, STATIC_SHARED_BYTES, Schedule, Shape, Slide, Streamed,
    Window, contraction_staging, described, element_bytes, neighbour_offset, operand_value, reduction_type, slides)
from optiml_engine.model import Candidate, LaunchRule, OptimlError
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.policies.rules.elementwise import restrict_replacements, unaliased_pointers
from optiml_engine.policies.rules.knobs import launch_bounds_replacement
from optiml_engine.source.ctypes import dtype_of, itemsize
from optiml_engine.source.expr import evaluate

GRID_YZ_LIMIT = 65535
SPLIT_WORKSPACE_BYTES = 16 << 20    # a split reduction's partials, in device memory for the module's life


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
_HELPERS.update({f"arg{op}": f"""// The {op}imum across a warp and where it is: the first place on ties, as a loop keeps it.
template <typename T, typename I>
__device__ __forceinline__ void optiml_warp_arg{op}(T& value, I& index)
{{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {{
        const T other = __shfl_xor_sync(0xffffffffu, value, offset);
        const I other_index = __shfl_xor_sync(0xffffffffu, index, offset);
        if ({"other > value" if op == "max" else "other < value"} || (other == value && other_index < index)) {{
            value = other;
            index = other_index;
        }}
    }}
}}
""" for op in ("max", "min")})
_WARP_FUNCTION = {"+": "optiml_warp_sum", "*": "optiml_warp_product", "max": "optiml_warp_max",
                  "min": "optiml_warp_min"}
_SCAN_FUNCTION = {"+": "optiml_warp_inclusive_sum", "*": "optiml_warp_inclusive_product",
                  "max": "optiml_warp_inclusive_max", "min": "optiml_warp_inclusive_min"}


def _guarded(name: str, helper: str) -> str:
    """A helper defined once however many kernels of a file carry it (generated kernels appended to one file,
    schedules accepted one after another)."""
    defined = re.search(r"\b(optiml_\w+)\s*[({]", helper)
    guard = f"{(defined.group(1) if defined else f'optiml_helper_{name}').upper()}_DEFINED"
    return f"#ifndef {guard}\n#define {guard}\n{helper.rstrip()}\n#endif"


def _scan_helper(op: str) -> str:
    return f"""// Inclusive scan across a warp (lane l: lanes 0..l combined).
template <typename T>
__device__ __forceinline__ T {_SCAN_FUNCTION[op]}(T value)
{{
    const int lane = threadIdx.x % 32;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {{
        const T other = __shfl_up_sync(0xffffffffu, value, offset);
        if (lane >= offset) value = {combined(op, "value", "other")};
    }}
    return value;
}}
"""


def _lanes_share(code: list[Stmt]) -> bool:
    """Whether every lane of a row may run the row's code (`rows_finished`): declarations and assignments of locals,
    loops whose iterations each write elements of their own and reduce into locals declared in the code (a sum, a
    product, a maximum, a minimum: a softmax's sum of exponentials; each lane's share then combined across the
    lanes), reading what the loop writes only at the element the iteration writes (what earlier loops wrote, any
    lane may read once the lanes synchronize after each loop), and stores and atomics outside the loops (the first
    lane's alone), none read by the code."""
    outside = {stmt.array for stmt in code if isinstance(stmt, (Store, Atomic))}
    declared = {stmt.name for stmt in code if isinstance(stmt, Let)}
    if outside & {load.array for load in all_loads(code)}:
        return False
    for stmt in code:
        if isinstance(stmt, (Let, Assign, Store, Atomic)):
            continue
        reductions = loop_reductions(stmt) if isinstance(stmt, For) else None
        if reductions is None or constant(stmt.step) != 1 or \
                any(r.index is not None or r.variable not in declared for r in reductions):
            return False
        stores = [inner for inner in walk(stmt.body) if isinstance(inner, Store)]
        own = {inner.name for inner in stmt.body if isinstance(inner, Let)}
        if not all(isinstance(inner, (Let, Store)) or isinstance(inner, Assign) and inner.name in own or
                   reduction_update(inner) is not None for inner in stmt.body) or \
                any(isinstance(inner, (For, Atomic)) for inner in walk(stmt.body)) or \
                not all(mentions(store.index, {stmt.var}) and stride(store.index, stmt.var) is not None
                        for store in stores) or \
                any(load.array in {store.array for store in stores} and
                    all(load.index != store.index for store in stores if store.array == load.array)
                    for load in all_loads(stmt.body)):
            return False
    return True


def _lanes_strided(code: list[Stmt], lanes: int) -> list[Stmt]:
    """The row's code for every lane of the row (`_lanes_share`): each loop's iterations strided across the lanes
    (lane threadIdx.x), each store and atomic outside them the first lane's."""
    first = Binary(op="==", left=Ref(name="threadIdx.x"), right=Const(text="0"))
    return [stmt.model_copy(update={"start": Binary(op="+", left=stmt.start, right=Ref(name="threadIdx.x")),
                                    "step": Const(text=str(lanes))}) if isinstance(stmt, For) else
            If(cond=first, then=[stmt]) if isinstance(stmt, (Store, Atomic)) else stmt for stmt in code]


# The element types `__shfl_xor_sync` carries that atomicAdd adds.
def combined(op: str, a: str, b: str) -> str:
    return {"+": f"{a} + {b}", "*": f"{a} * {b}", "max": f"{b} > {a} ? {b} : {a}",
            "min": f"{b} < {a} ? {b} : {a}"}[op]


def arg_better(op: str, value: str, index: str, than_value: str, than_index: str) -> str:
    """Whether (value, index) should replace (than_value, than_index) in an argmax or argmin: a better value, or
    the same value at an earlier place."""
    compare = ">" if op == "max" else "<"
    return f"{value} {compare} {than_value} || ({value} == {than_value} && {index} < {than_index})"


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
        name, count = wanted, 1
        while name in self.taken:
            count += 1
            name = f"{wanted}_{count}"
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


class _Kernel:
    """One emission: the body's lines, the helpers it uses, the launch."""

    def __init__(self, program: LoopProgram, shape: Shape, schedule: Schedule, base: Candidate):
        self.program, self.shape, self.schedule, self.base = program, shape, schedule, base
        self.names = _Names(program)
        self.helpers: list[str] = []
        self.lines: list[str] = []
        self.grid: list[str] = []
        self.smem = "0"                    # dynamic shared memory, in contract terms
        self.declarations: list[str] = []  # file-scope device variables the kernel uses

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
        lower = c_operand(index.lower)
        # Either bound beside a comparison or an addition in the text: a `?:` one (an extent the code adjusts)
        # parenthesized.
        return _index_type(index, self.program), "" if lower == "0" else f"{lower} + ", c_operand(index.upper)

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
        for axis, first, advance in loops:
            ctype, lower, upper = self.bounds(axis)
            name = space[axis].name
            opening.append(f"{indent}for ({ctype} {name} = {lower}{first}; {name} < {upper}; {name} += {advance}) {{")
            closing.insert(0, f"{indent}}}")
            indent += "    "
        return opening, indent, closing

    def tiled_grid(self, x_axis: int, y_axis: int, tile: int, tile_y: int | None = None) -> None:
        """A block per tile x tile_y (tile x tile unless said) points of two axes (y capped: its loop strides over
        the rest), z as outer_loops set it."""
        self.grid = [f"cdiv(max({self.extent(x_axis)},1),{tile})",
                     f"min(cdiv(max({self.extent(y_axis)},1),{tile_y or tile}),{GRID_YZ_LIMIT})"]
        if len(self.program.space) == 3:
            self.grid.append(self.grid_z)

    def space_grid(self, points_per_block: int, rows_per_block: int = 1) -> None:
        """A block per `points_per_block` points of the innermost index; y over the second innermost,
        `rows_per_block` a block (capped: its loop strides over the rest); z as outer_loops set it."""
        space = self.program.space
        self.grid = [f"cdiv(max({self.extent(len(space) - 1)},1),{points_per_block})"]
        if len(space) >= 2:
            self.grid.append(f"min(cdiv(max({self.extent(len(space) - 2)},1),{rows_per_block}),{GRID_YZ_LIMIT})")
        if len(space) == 3:
            self.grid.append(self.grid_z)

    # -- map ------------------------------------------------------------------------------------------------------

    def map(self) -> None:
        s, program = self.schedule, self.program
        inner = program.space[-1]
        ctype, lower, upper = self.bounds(len(program.space) - 1)
        bx, by = s.block
        if s.fused and s.fused_axis == "y":
            self.rows_fused(inner, ctype, lower, upper)
            return
        opening, indent, closing = self.outer_loops("    ", middle="blockIdx.y * blockDim.y + threadIdx.y")
        self.lines += opening
        if s.fused:
            first = self.names(f"{inner.name}_first")
            self.lines += [
                f"{indent}// {s.items} consecutive points per thread along x share the point code's loops.",
                f"{indent}const {ctype} {first} = {lower}(blockIdx.x * blockDim.x + threadIdx.x) * {s.items};"]
            body, stored = self.neighbour_windows(inner, first, indent) if s.neighbours else (None, [])
            self.lines.append(f"{indent}if ({first} < {upper}) {{")
            self.fused_points(inner, first, ctype, upper, indent + "    ", body, stored)
            self.lines.append(f"{indent}}}")
        elif s.vector == 1:
            self.scalar_points(inner, ctype, lower, upper, indent, hoisted_digits(
                program.body, {p.name for p in program.scalars}, self.names))
        else:
            self.vector_points(inner, ctype, lower, upper, indent)
        self.lines += closing
        self.space_grid(bx * s.items, by)

    def rows_fused(self, inner: ParallelIndex, ctype: str, lower: str, upper: str) -> None:
        """Schedule `fused` along y: a thread's `items` points are consecutive along the second innermost index (a
        warp's accesses stay coalesced along x), sharing the point code's loops."""
        s, space = self.schedule, self.program.space
        y_axis = len(space) - 2
        row = space[y_axis]
        row_type, row_lower, row_upper = self.bounds(y_axis)
        opening, indent, closing = self.outer_loops("    ")
        first = self.names(f"{row.name}_first")
        self.lines += [
            *opening,
            f"{indent}// {s.items} consecutive points per thread along y share the point code's loops.",
            f"{indent}for ({row_type} {first} = {row_lower}(blockIdx.y * blockDim.y + threadIdx.y) * {s.items}; "
            f"{first} < {row_upper}; {first} += gridDim.y * blockDim.y * {s.items}) {{",
            f"{indent}    const {ctype} {inner.name} = {lower}blockIdx.x * blockDim.x + threadIdx.x;",
            f"{indent}    if ({inner.name} < {upper}) {{"]
        self.fused_points(row, first, row_type, row_upper, indent + "        ")
        self.lines += [f"{indent}    }}", f"{indent}}}", *closing]
        self.space_grid(s.block[0], s.block[1] * s.items)

    def scalar_points(self, inner: ParallelIndex, ctype: str, lower: str, upper: str, indent: str,
                      statements: list[Stmt], chunk: str = "blockIdx.x") -> None:
        """`items` points per thread, chunk `chunk`'s contiguous, each running `statements` under its bound (no
        thread leaves: barriers may follow)."""
        items = self.schedule.items
        body = c_statements(statements, indent + "        " if items > 1 else indent + "    ")
        if items == 1:
            self.lines += [f"{indent}const {ctype} {inner.name} = {lower}{chunk} * blockDim.x + threadIdx.x;",
                           f"{indent}if ({inner.name} < {upper}) {{", *body, f"{indent}}}"]
            return
        first, item = self.names(f"{inner.name}_first"), self.names("item")
        self.lines += [
            f"{indent}const {ctype} {first} = {lower}{chunk} * (blockDim.x * {items}) + threadIdx.x;",
            f"{indent}#pragma unroll",
            f"{indent}for (int {item} = 0; {item} < {items}; ++{item}) {{",
            f"{indent}    const {ctype} {inner.name} = {first} + {item} * blockDim.x;",
            f"{indent}    if ({inner.name} < {upper}) {{", *body, f"{indent}    }}", f"{indent}}}"]

    def neighbour_windows(self, inner: ParallelIndex, first: str, indent: str) -> tuple[list[Stmt], list[str]]:
        """Schedule `neighbours`: for each row of reads at constant offsets (schedule.py `NeighbourRow`), a register
        window of the elements from the thread's first point plus the row's lowest offset to its last point plus the
        highest: its own `items` read (one vector where aligned and inside the array), the rest taken from the
        neighbouring lanes' own by warp shuffles, and read from memory by the warp's first and last lanes. Every
        lane of the warp runs this (no thread has left yet) and a warp lies along one row (blocks of whole warps
        along x). An element outside its array is zero: the program never reads it. A write every path of the point
        code makes once at the point's own element (`out[base + x]`) goes to a register of its own, the thread's
        `items` of them written as one vector where aligned. Returns the point code with those reads and writes
        made accesses of the windows (at the point's distance from the first), and the lines writing them out."""
        items, program = self.schedule.items, self.program
        lane = self.names("row_lane")
        self.lines.append(f"{indent}const int {lane} = threadIdx.x & 31;")
        distance = Binary(op="-", left=Ref(name=inner.name), right=Ref(name=first))   # a point's, from the first
        loads_to: dict[Load, Expr] = {}
        for row in self.shape.neighbour_rows:
            window, at = self.names(f"{row.array}_neighbours"), self.names(f"{row.array}_at")
            element, length = program.element_type(row.array), self.array_length(row.array)
            size = items + row.high - row.low
            base = f"(long long)({c_expr(row.base)}) + " if row.base is not None else ""

            def read(offset: str) -> str:
                return f"({at} + {offset} >= 0 && {at} + {offset} < {length} ? {row.array}[{at} + {offset}] : " \
                       f"({element})0)"

            own = [f"{window}[{m - row.low}]" for m in range(items)]
            vector = element_bytes(program, row.array) * items
            self.lines += [f"{indent}// {row.array}'s elements from {row.low} before the thread's first point to "
                           f"{row.high} after its last, the ends from the neighbouring lanes.",
                           f"{indent}{element} {window}[{size}];",
                           f"{indent}const long long {at} = {base}(long long){first};"]
            if vector in (4, 8, 16):
                self.use("lanes")
                lanes = self.names(f"{row.array}_own")
                self.lines += [
                    f"{indent}if ({at} >= 0 && {at} + {items} <= {length} && optiml_aligned(&{row.array}[{at}], "
                    f"{vector})) {{",
                    f"{indent}    const optiml_lanes<{element}, {items}> {lanes} = *reinterpret_cast<const "
                    f"optiml_lanes<{element}, {items}>*>(&{row.array}[{at}]);",
                    *(f"{indent}    {name} = {lanes}.v[{m}];" for m, name in enumerate(own)),
                    f"{indent}}} else {{",
                    *(f"{indent}    {name} = {read(str(m))};" for m, name in enumerate(own)),
                    f"{indent}}}"]
            else:
                self.lines += [f"{indent}{name} = {read(str(m))};" for m, name in enumerate(own)]
            for m in range(row.low, 0):           # the lane before holds them as its last elements
                self.lines.append(f"{indent}{window}[{m - row.low}] = __shfl_up_sync(0xffffffffu, "
                                  f"{window}[{m + items - row.low}], 1);")
                self.lines.append(f"{indent}if ({lane} == 0) {window}[{m - row.low}] = {read(str(m))};")
            for m in range(items, items + row.high):  # the lane after holds them as its first
                self.lines.append(f"{indent}{window}[{m - row.low}] = __shfl_down_sync(0xffffffffu, "
                                  f"{window}[{m - items - row.low}], 1);")
                self.lines.append(f"{indent}if ({lane} == 31) {window}[{m - row.low}] = {read(str(m))};")
            for load in all_loads(program.body):
                found = neighbour_offset(load, program) if load.array == row.array else None
                if found is not None and found[0] == row.base:
                    loads_to[load] = Load(array=window, index=Binary(op="+", left=distance,
                                                                     right=Const(text=str(found[1] - row.low))))
        body = _replaced(program.body, loads_to, {})
        stored: list[str] = []
        for array in dict.fromkeys(stmt.array for stmt in walk(body) if isinstance(stmt, Store)):
            stores = [stmt for stmt in walk(body) if isinstance(stmt, (Store, Atomic)) and stmt.array == array]
            bases = {neighbour_offset(stmt, program) for stmt in stores}
            if len(bases) != 1 or (found := bases.pop()) is None or found[1] != 0 or \
                    any(load.array == array for load in all_loads(body)) or _writes_on_every_path(body, array) != 1:
                continue
            window, at = self.names(f"{array}_points"), self.names(f"{array}_at")
            element = program.element_type(array)
            body = statements_replaced(body, lambda stmt: [stmt.model_copy(update={"array": window, "index": distance})]
                                       if isinstance(stmt, Store) and stmt.array == array else None)
            base = f"(long long)({c_expr(found[0])}) + " if found[0] is not None else ""
            self.lines.append(f"{indent}{element} {window}[{items}];   // the thread's points' {array}, written "
                              f"together")
            vector = element_bytes(program, array) * items
            stored += [f"const long long {at} = {base}(long long){first};"]
            if vector in (4, 8, 16):
                self.use("lanes")
                stored += [f"if (optiml_aligned(&{array}[{at}], {vector})) {{",
                           f"    optiml_lanes<{element}, {items}> {window}_lanes;",
                           *(f"    {window}_lanes.v[{m}] = {window}[{m}];" for m in range(items)),
                           f"    *reinterpret_cast<optiml_lanes<{element}, {items}>*>(&{array}[{at}]) = "
                           f"{window}_lanes;",
                           "} else {",
                           *(f"    {array}[{at} + {m}] = {window}[{m}];" for m in range(items)),
                           "}"]
            else:
                stored += [f"{array}[{at} + {m}] = {window}[{m}];" for m in range(items)]
        return body, stored

    def fused_points(self, inner: ParallelIndex, first: str, ctype: str, upper: str, indent: str,
                     windowed: list[Stmt] | None = None, stored: list[str] = ()) -> None:
        """`items` consecutive points of the index `inner` from `first` (below `upper`) running the point code's
        loops once for all of them: each loop once, what depends on the point once per point inside it (locals
        renamed per point), what does not (a weight, another index's condition) once. A thread whose points pass
        the space's end computes its last point in their place and writes only its own. `windowed`: the point code
        reading a register window (neighbour_windows), for the thread whose points are all inside: the tail's
        repeated points would index the window at run time, which puts it in local memory; `stored`: the lines
        that then write its points' registers out."""
        items = self.schedule.items
        dependent = point_dependent(self.program.body, inner.name)
        points = [self.names(f"{inner.name}_{j}") for j in range(items)]
        renames = [{name: self.names(f"{name}_{j}") for name in dependent if name != inner.name}
                   for j in range(items)]
        for j, point in enumerate(points):
            renames[j][inner.name] = point

        def declared(clamped: bool) -> list[Stmt]:
            at = [Const(text=f"{first} + {j}") for j in range(items)]
            if clamped:
                at = [Select(cond=Binary(op="<", left=a, right=Const(text=upper)), then=a,
                             other=Const(text=f"{upper} - 1")) for a in at]
            return [Let(name=point, ctype=f"const {ctype}", value=value) for point, value in zip(points, at)]

        def guards(clamped: bool) -> list[Expr | None]:
            return [Binary(op="<", left=Const(text=f"{first} + {j}"), right=Const(text=upper)) if clamped else None
                    for j in range(items)]

        body = conditions_pushed_into_loops(self.program.body, dependent)
        # Register windows assume the points consecutive from `first`: not in the tail, whose last points repeat.
        slide = (inner.name, first) if self.schedule.window else None
        whole_body = body if windowed is None else conditions_pushed_into_loops(windowed, dependent)
        at_first = {point: Binary(op="+", left=Ref(name=first), right=Const(text=str(j)))
                    for j, point in enumerate(points)}
        whole = self.common_reads([*declared(False), *self.fused(whole_body, dependent, renames, guards(False),
                                                                 slide)], at_first, set())
        if self.schedule.interior:
            whole = self.interior_path(whole, at_first, first)
        tail = [*declared(True), *self.fused(body, dependent, renames, guards(True))]
        self.lines += [
            f"{indent}if ({first} + {items} <= {upper}) {{",
            *c_statements(whole, indent + "    "),
            *(f"{indent}    {line}" for line in stored),
            f"{indent}}} else {{",
            *c_statements(tail, indent + "    "),
            f"{indent}}}"]

    def interior_path(self, body: list[Stmt], points: dict[str, Expr], first: str) -> list[Stmt]:
        """Schedule `interior`: `body` (the thread's points' code) twice, under `if` all the points' bounds checks
        (analysis.bounds_checks, on the points' indices and the other parallel ones) hold: once with them taken as
        true, once as written."""
        checks = bounds_checks(body, {**single_assignments(body), **points},
                               {first} | {index.name for index in self.program.space})
        if not checks:
            return body

        def true_where_checked(expr: Expr) -> Expr:
            if isinstance(expr, Select) and expr.cond in checks:
                return true_where_checked(expr.then)
            return with_children(expr, true_where_checked)

        inside = statements_replaced(rewritten(body, true_where_checked), lambda stmt: [
            If(cond=Const(text="true"), then=stmt.then)] if isinstance(stmt, If) and stmt.cond in checks else None)
        every = None
        for hoisted in dict.fromkeys(checks.values()):
            every = hoisted if every is None else Binary(op="&&", left=every, right=hoisted)
        declared = [stmt for stmt in body if isinstance(stmt, Let) and stmt.name in points]
        rest = body[len(declared):]
        return [*declared, If(cond=every, then=inside[len(declared):], other=rest)]

    def fused(self, body: list[Stmt], dependent: set[str], renames: list[dict[str, str]],
              guards: list[Expr | None], slide: tuple[str, str] | None = None) -> list[Stmt]:
        """`body` for several points at once (schedule `fused`): loops and what no point changes once, the rest
        once per point with that point's names, each point's writes under its guard (None: none). A read that no
        point changes, under a condition that does (a weight inside a bounds check), is read once, when any of the
        points' conditions holds. With `slide` (the points' index and the name of the first), a loop's reads that
        move with the point go through a register window the loop slides (schedule `window`)."""
        out: list[Stmt] = []
        for stmt in body:
            if isinstance(stmt, For) and slide and (found := slides(self.program, stmt, slide[0], dependent)):
                out += self.slid(stmt, found, dependent, renames, guards, slide)
            elif isinstance(stmt, For):
                out.append(stmt.model_copy(update={"body": self.fused(stmt.body, dependent, renames, guards,
                                                                       slide)}))
            elif isinstance(stmt, If) and not names_of(stmt.cond) & dependent:
                out.append(stmt.model_copy(update={"then": self.fused(stmt.then, dependent, renames, guards, slide),
                                                   "other": self.fused(stmt.other, dependent, renames, guards,
                                                                       slide)}))
            elif isinstance(stmt, (Let, Assign)) and stmt.name not in dependent:
                out.append(stmt)
            elif isinstance(stmt, If) and not stmt.other:
                shared, stmt = self.shared_reads(stmt, dependent, renames)
                out += [*shared, *(_point_copy(stmt, rename, guard) for rename, guard in zip(renames, guards))]
            else:
                out += [_point_copy(stmt, rename, guard) for rename, guard in zip(renames, guards)]
        return out

    def common_reads(self, body: list[Stmt], points: dict[str, Expr], loop_vars: set[str]) -> list[Stmt]:
        """`body` (the thread's points' code, `points` each point's index from the first) with the reads that
        several points make of one element read once, at the top of the innermost loop around them: a stencil's or
        a convolution's taps written out (ir/unroll.py), where point j's tap at offset 1 is point j + 1's at offset
        0. Two reads are of one element when their indices, the locals declared once inlined, are one polynomial
        in the names left (`(c * H + y_1 - 1) * W + x` and `(c * H + y_2 - 2) * W + x` with y_j = first + j). Only
        arrays the program never writes, at indices free of reads and of names assigned in the loop. The read no
        longer waits for its point's condition (a bounds check): an element outside its array is read as zero,
        as the register windows do (never used: the program does not read it)."""
        program = self.program
        written = {s.array for s in walk(program.body) if isinstance(s, (Store, Atomic))}
        values = {**single_assignments(body), **points}
        unstable = {s.name for s in walk(body) if isinstance(s, Assign)} | \
            {s.var for s in walk(body) if isinstance(s, For)} | \
            ({s.name for s in walk(body) if isinstance(s, Let)} - set(values))
        arrays = {a.name for a in program.arrays} - written

        def reads_here(stmts: list[Stmt]) -> list[Load]:
            found = []
            for stmt in stmts:
                if isinstance(stmt, If):
                    found += loads(stmt.cond) + reads_here(stmt.then) + reads_here(stmt.other)
                elif not isinstance(stmt, For):
                    found += [load for e in statement_exprs(stmt) for load in loads(e)]
            return found

        groups: dict[tuple, list[tuple[Load, Expr]]] = {}
        for load in dict.fromkeys(reads_here(body)):
            if load.array not in arrays:
                continue
            index = inlined(load.index, values)
            form = polynomial(index) if not loads(index) and not names_of(index) & (unstable - loop_vars) else None
            if form is not None:
                groups.setdefault((load.array, frozenset(form.items())), []).append((load, index))
        registers: dict[Load, Expr] = {}
        setup: list[Stmt] = []
        for (array, _), found in groups.items():
            if len(found) < 2:
                continue
            register, index = self.names(f"{array}_tap"), found[0][1]
            inside = Binary(op="&&", left=Binary(op=">=", left=index, right=Const(text="0")),
                            right=Binary(op="<", left=index, right=Const(text=self.array_length(array))))
            setup.append(Let(name=register, ctype=program.element_type(array),
                             value=Select(cond=inside, then=Load(array=array, index=index), other=Const(text="0"))))
            registers |= {load: Ref(name=register) for load, _ in found}
        body = [stmt.model_copy(update={"body": self.common_reads(stmt.body, points, loop_vars | {stmt.var})})
                if isinstance(stmt, For) else stmt for stmt in _replaced(body, registers, {})]
        # After the points' own declarations: the registers' indices may read the points' indices.
        at = next((k for k, stmt in enumerate(body) if not (isinstance(stmt, Let) and stmt.name in points)), len(body))
        return [*body[:at], *setup, *body[at:]]

    def slid(self, loop: For, found: list[Slide], dependent: set[str], renames: list[dict[str, str]],
             guards: list[Expr | None], slide: tuple[str, str]) -> list[Stmt]:
        """`loop` for the thread's points with the reads that move with them (`found`) held in registers: point j's
        register of a read holds its element at the loop's current step, read before the loop for all points; each
        step shifts the registers down by one and reads the element the last point needs at the next step. An
        element outside its array is read as zero: the window may hold it for a step where the program does not
        read it (a read there would be out of bounds in the program too)."""
        index, first = slide
        items = len(renames)
        registers = [self.names(f"{read.array}_window") for read in found]
        body = _replaced(loop.body, {load: Ref(name=register) for read, register in zip(found, registers)
                                     for load in read.loads}, {})
        renames = [{**rename, **{register: self.names(f"{register}_{j}") for register in registers}}
                   for j, rename in enumerate(renames)]
        following = Binary(op="+", left=Ref(name=loop.var), right=Const(text="1"))

        def element(read: Slide, point: int, step: Expr) -> Expr:
            at = substitute(read.index, {index: Const(text=f"({first} + {point})"), loop.var: step})
            inside = Binary(op="&&", left=Binary(op=">=", left=at, right=Const(text="0")),
                            right=Binary(op="<", left=at, right=Const(text=self.array_length(read.array))))
            return Select(cond=inside, then=Load(array=read.array, index=at), other=Const(text="0"))

        setup: list[Stmt] = []
        steps: list[Stmt] = []
        for read, register in zip(found, registers):
            window = [rename[register] for rename in renames]
            element_type = self.program.element_type(read.array)
            setup += [Let(name=name, ctype=element_type, value=element(read, j, loop.start))
                      for j, name in enumerate(window)]
            steps += [Assign(name=window[j], op="=", value=Ref(name=window[j + 1])) for j in range(items - 1)]
            steps.append(If(cond=Binary(op="<", left=following, right=loop.stop),
                            then=[Assign(name=window[-1], op="=", value=element(read, items - 1, following))]))
        inner = self.fused(body, dependent | set(registers), renames, guards, slide)
        stepwise = loop.model_copy(update={"body": [*inner, *steps]})
        if not self.schedule.slide_block:
            return [*setup, stepwise]
        blocks, end = self.slid_blocks(loop, found, registers, body, dependent, renames, guards, slide, element)
        return [*setup, *blocks, stepwise.model_copy(update={"start": Ref(name=end)})]

    def slid_blocks(self, loop: For, found: list[Slide], registers: list[str], body: list[Stmt], dependent: set[str],
                    renames: list[dict[str, str]], guards: list[Expr | None], slide: tuple[str, str],
                    element: Callable[[Slide, int, Expr], Expr]) -> tuple[list[Stmt], str]:
        """Schedule `slide_block`: the loop's whole blocks of `items` steps before the step-by-step loop `slid`
        makes, which then starts where they end (`end`, returned with them). Each block reads the window's next
        `items` elements (16-byte vector accesses where the read is unit-stride along the loop, inside its array and
        aligned), runs its steps written out, point j's read at step s of the block being register j + s, and
        shifts the window down by `items`."""
        items, index = self.schedule.items, slide[0]
        var = loop.var
        end = self.names(f"{var}_blocks_end")
        extent = Binary(op="-", left=loop.stop, right=loop.start)
        statements: list[Stmt] = [Let(name=end, ctype=f"const {loop.ctype}", value=Select(
            cond=Binary(op=">", left=extent, right=Const(text="0")),
            then=Binary(op="+", left=loop.start, right=Binary(op="*", left=Binary(
                op="/", left=extent, right=Const(text=str(items))), right=Const(text=str(items)))),
            other=loop.start))]
        block: list[Stmt] = []
        shifts: list[Stmt] = []
        windows = {}
        for read, register in zip(found, registers):
            window = [rename[register] for rename in renames] + [self.names(f"{register}_{items + m}")
                                                                 for m in range(items)]
            windows[register] = window
            element_type = self.program.element_type(read.array)
            statements += [Let(name=name, ctype=element_type) for name in window[items:]]
            ahead = [Binary(op="+", left=Ref(name=var), right=Const(text=str(items + m))) for m in range(items)]
            scalar = [Assign(name=window[items + m], op="=", value=element(read, 0, ahead[m])) for m in range(items)]
            # Vectors of up to 16 bytes: `chunk` elements each, items / chunk of them.
            size = element_bytes(self.program, read.array)
            chunk = min(items, 16 // size) if 0 < size <= 16 else 0
            unit = constant(stride(read.index, var) or Const(text="x")) == 1 and chunk > 1 and items % chunk == 0
            if not unit:
                block += scalar
            else:
                self.use("lanes")
                at = substitute(read.index, {index: Ref(name=slide[1]), var: ahead[0]})
                kind = f"optiml_lanes<{element_type}, {chunk}>"
                fits = Binary(op="&&", left=Binary(op=">=", left=at, right=Const(text="0")), right=Binary(
                    op="<=", left=Binary(op="+", left=at, right=Const(text=str(items))),
                    right=Const(text=self.array_length(read.array))))
                aligned = Call(function="optiml_aligned", args=[Unary(op="&", operand=Load(array=read.array,
                                                                                          index=at)),
                                                                Const(text=str(chunk * size))])
                vectors: list[Stmt] = []
                for part in range(items // chunk):
                    lanes = self.names(f"{read.array}_next")
                    address = Binary(op="+", left=at, right=Const(text=str(part * chunk))) if part else at
                    vectors.append(Let(name=lanes, ctype=f"const {kind}", value=Call(
                        function=f"*reinterpret_cast<const {kind}*>",
                        args=[Unary(op="&", operand=Load(array=read.array, index=address))])))
                    vectors += [Assign(name=window[items + part * chunk + m], op="=", value=Ref(name=f"{lanes}.v[{m}]"))
                                for m in range(chunk)]
                block.append(If(cond=Binary(op="&&", left=fits, right=aligned), then=vectors, other=scalar))
            shifts += [Assign(name=window[j], op="=", value=Ref(name=window[j + items])) for j in range(items)]
        for step in range(items):
            at_step = substituted(body, {var: Binary(op="+", left=Ref(name=var), right=Const(text=str(step)))})
            shifted = [{**rename, **{register: windows[register][j + step] for register in registers}}
                       for j, rename in enumerate(renames)]
            block.append(If(cond=Const(text="true"), then=self.fused(at_step, dependent | set(registers), shifted,
                                                                     guards, slide)))
        statements.append(loop.model_copy(update={"stop": Ref(name=end), "step": Const(text=str(items)),
                                                  "body": [*block, *shifts]}))
        return statements, end

    def shared_reads(self, branch: If, dependent: set[str], renames: list[dict[str, str]]
                     ) -> tuple[list[Stmt], If]:
        """The reads of a point's conditional code at an index no point changes, read once into a register when
        any point's condition holds; and the code reading the register instead."""
        found = [load for stmt in walk(branch.then) for e in statement_exprs(stmt) for load in loads(e)
                 if not names_of(load.index) & dependent]
        names_in_branch = {s.name for s in walk(branch.then) if isinstance(s, (Let, Assign))}
        found = list(dict.fromkeys(load for load in found if not names_of(load.index) & names_in_branch))
        if not found:
            return [], branch
        registers = {load: self.names(f"{load.array}_shared") for load in found}
        any_point = None
        for rename in renames:
            cond = substitute(branch.cond, {old: Ref(name=new) for old, new in rename.items()})
            any_point = cond if any_point is None else Binary(op="||", left=any_point, right=cond)
        setup: list[Stmt] = [Let(name=name, ctype=self.program.element_type(load.array), value=None)
                             for load, name in registers.items()]
        setup.append(If(cond=any_point, then=[Assign(name=name, op="=", value=load)
                                              for load, name in registers.items()]))
        reads = _replaced(branch.then, {load: Ref(name=name) for load, name in registers.items()}, {})
        return setup, branch.model_copy(update={"then": reads})

    def vector_points(self, inner: ParallelIndex, ctype: str, lower: str, upper: str, indent: str,
                      body: list[Stmt] | None = None, conditions: bool = False, chunk: str = "blockIdx.x") -> None:
        """`items` points per thread in groups of `vector` consecutive ones, each group's reads and writes along the
        index one vector access where the group is whole and aligned, point by point elsewhere. `body`: the point
        code (the program's unless given); `conditions`: its top-level ifs' conditions' reads vectorized too;
        `chunk`: the block of points the block computes."""
        s, program = self.schedule, self.program
        body = program.body if body is None else body
        width, groups = s.vector, s.items // s.vector
        self.use("lanes")
        group_first, group, lane = self.names(f"{inner.name}_group"), self.names("group"), self.names("lane")
        # Vector accesses: top-level unconditional reads and plain writes, unit-stride along the innermost index.
        # An access's address is computed once per group, outside the per-point code: its index may read only
        # parallel indices and scalars.
        outside = {i.name for i in program.space} | {p.name for p in program.scalars}
        addressed = index_locals_inlined(body, outside)
        # The points' lowest digit by a size (`c = idx % C`, `w = wc / C`): where a group's points share its
        # quotient, each point's remainder is the index plus the group's one offset, and every higher digit the
        # quotient's, so that a read through them (a window partition's, a cyclic shift's) is unit-stride along the
        # index. Divided once a group; a group that crosses a multiple of the size takes the point-by-point path.
        split_lines, split_conditions = [], []
        if (lowest := self.wide_lowest_digit(addressed, inner.name, ctype, outside)) is not None:
            first, divisor = group_first, c_expr(lowest)
            quotient, offset = self.names(f"{inner.name}_quotient"), self.names(f"{inner.name}_offset")
            addressed = digit_split(addressed, inner.name, ctype, lowest, quotient, offset)
            outside = outside | {quotient, offset}
            divides = f"({first}) >= 0 && ({divisor}) > 0"
            split_lines = [f"{indent}    const {ctype} {quotient} = {divides} ? ({first}) / ({divisor}) : 0;",
                           f"{indent}    const {ctype} {offset} = {divides} ? ({first}) % ({divisor}) - ({first}) "
                           f": 0;"]
            split_conditions = [divides, f"({first}) % ({divisor}) + {width} <= ({divisor})"]

        def eligible(array: str, index: Expr) -> bool:
            return names_of(index) <= outside and self.vector_bytes(array) in (4, 8, 16)

        reads, stores = vector_accesses(addressed, inner.name, conditions=conditions, eligible=eligible)
        at_group = _renamed({inner.name: Const(text=group_first)})
        setup, finish, load_names, store_names = self.lane_registers(reads, stores, at_group, lane,
                                                                     indent + "        ", self.names)
        aligned = split_conditions + \
            list(dict.fromkeys(self.aligned(access, at_group) for access in [*reads, *stores]))
        # Reads that move by one element every k points (nearest upsampling's `x[... + ow / 2]`): width / k
        # elements one vector, each lane reading element lane / k.
        for load, division in expanded_reads(
                addressed, inner.name, width,
                lambda array, index, elements: names_of(index) <= outside and
                element_bytes(program, array) * elements in (4, 8, 16), reads):
            k, elements = int(constant(division.right)), width // int(constant(division.right))
            name, lanes_type = self.names(f"{load.array}_lanes"), f"optiml_lanes<{program.element_type(load.array)}, " \
                f"{elements}>"
            dividend, address = c_expr(division.left, at_group), f"&{load.array}[{c_expr(load.index, at_group)}]"
            aligned += [f"({dividend}) >= 0 && ({dividend}) % {k} == 0",
                        f"optiml_aligned({address}, {element_bytes(program, load.array) * elements})"]
            setup.append(f"{indent}        const {lanes_type} {name} = *reinterpret_cast<const {lanes_type}*>"
                         f"({address});")
            load_names[load] = Ref(name=f"{name}.v[{lane} / {k}]")
            reads.append(load)
        # A top-level if whose condition every point of the group decides alike (a concatenation's `col < d1`):
        # its branches' reads one vector each, loaded by the branch the group takes.
        at_last = {inner.name: f"({group_first} + {width - 1})"}
        registers: dict[Load, str] = {}
        for branch in uniform_branches(addressed, inner.name, outside, eligible, reads):
            cond = c_expr(branch.cond, at_group)
            aligned += [f"({c_expr(c, at_group)}) == ({c_expr(c, at_last)})"
                        for c in comparisons(branch.cond, inner.name) if mentions(c, {inner.name})]
            side_aligned, side_loads, side_stores = [], [], []
            for side_reads, side_writes in zip(branch.reads, branch.writes):
                side_aligned.append(" && ".join(self.aligned(access, at_group)
                                                for access in [*side_reads, *side_writes]) or "true")
                side_loads.append([])
                for load in side_reads:
                    # A read both branches make is one register, loaded by whichever the group takes.
                    if load not in registers:
                        registers[load] = self.names(f"{load.array}_lanes")
                        setup.append(f"{indent}        {self.lanes_type(load.array)} {registers[load]};")
                        load_names[load] = Ref(name=f"{registers[load]}.v[{lane}]")
                    side_loads[-1].append(f"{indent}            {registers[load]} = "
                                          f"{self.vector_read(load, at_group)};")
                declared, written, _, names = self.lane_registers([], list(side_writes), at_group, lane,
                                                                  indent + "        ", self.names)
                setup += declared
                store_names.update(names)
                side_stores.append(["    " + line for line in written])
            aligned.append(f"(({cond}) ? ({side_aligned[0]}) : ({side_aligned[1]}))")
            setup += _branched(f"{indent}        ", cond, *side_loads)
            # Written after the points have run, by the branch the group took.
            finish += _branched(f"{indent}        ", cond, *side_stores)
        vector_body = _replaced(addressed, load_names, store_names)
        # Quotients and remainders of the points by a size, one division a group: consecutive points step the
        # remainder by one (where the group's first dividend is not negative and the size positive; elsewhere the
        # point-by-point path divides as written).
        typed = typed_single_assignments(vector_body)
        digits = stepped_digits(vector_body, inner.name, outside, program, typed)
        digit_names = [(pair, (self.names(f"{inner.name}_quotient"), self.names(f"{inner.name}_remainder")))
                       for pair in digits]
        for (dividend, divisor), (quotient, remainder) in digit_names:
            first = c_expr(dividend, at_group)
            setup += [f"{indent}        auto {quotient} = ({first}) / ({c_expr(divisor)});",
                      f"{indent}        auto {remainder} = ({first}) % ({c_expr(divisor)});"]
            aligned += [f"({first}) >= 0", f"({c_expr(divisor)}) > 0"]
        vector_body = digits_stepped(vector_body, digit_names, typed)
        steps = [f"{indent}            if (++{remainder} == ({c_expr(divisor)})) {{ {remainder} = 0; ++{quotient}; }}"
                 for (_, divisor), (quotient, remainder) in digit_names]
        condition = " && ".join([f"{group_first} + {width} <= {upper}", *aligned])
        self.lines += [
            f"{indent}// {width} consecutive points per group, {groups} group{'s' if groups > 1 else ''} per thread; "
            f"a block's groups are contiguous.",
            f"{indent}const {ctype} {inner.name}_base = {lower}{chunk} * (blockDim.x * {s.items}) + "
            f"threadIdx.x * {width};",
            f"{indent}#pragma unroll",
            f"{indent}for (int {group} = 0; {group} < {groups}; ++{group}) {{",
            f"{indent}    const {ctype} {group_first} = {inner.name}_base + {group} * (blockDim.x * {width});",
            *split_lines,
            f"{indent}    if ({condition}) {{",
            *setup,
            f"{indent}        #pragma unroll",
            f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}            const {ctype} {inner.name} = {group_first} + {lane};",
            *c_statements(vector_body, indent + "            "),
            *steps,
            f"{indent}        }}",
            *finish,
            f"{indent}    }} else {{",
            f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}            const {ctype} {inner.name} = {group_first} + {lane};",
            f"{indent}            if ({inner.name} < {upper}) {{",
            *c_statements(body, indent + "                "),
            f"{indent}            }}",
            f"{indent}        }}",
            f"{indent}    }}",
            f"{indent}}}",
        ]
        self.names.taken.add(f"{inner.name}_base")

    def wide_lowest_digit(self, body: list[Stmt], variable: str, ctype: str, outside: set[str]) -> Expr | None:
        """`lowest_digit`, where at the contract's sizes it is at least two groups long: groups of consecutive
        points that share its quotient are then most groups (a group across a multiple of it goes point by point;
        pixel_shuffle's `ow % r`, r = 2, would send every group of 8 there, where stepping the remainder keeps them
        vectors)."""
        lowest = lowest_digit(body, variable, ctype, outside, declared_types(self.program))
        text = None if lowest is None else contract_text(lowest, self.base.contract, self.program)
        if text is None:
            return None
        try:
            value = evaluate(text, self.base.contract.sizes)
        except OptimlError:       # a size the contract does not bind
            return None
        return lowest if value >= 2 * self.schedule.vector else None

    def lane_registers(self, reads: list[Load], stores: list[Store], at: dict[str, str], lane: str, indent: str,
                       name_of: Callable[[str], str]) -> tuple[list[str], list[str], dict, dict]:
        """For vector accesses at the addresses `at` gives: the loads into `optiml_lanes` registers and the
        registers of the stores (setup), the stores themselves (finish), and what each read and write becomes in
        the per-lane code (register element `lane`)."""
        width = self.schedule.vector
        setup, finish, loads_to, stores_to = [], [], {}, {}
        for load in reads:
            name = name_of(f"{load.array}_lanes")
            setup.append(f"{indent}const {self.lanes_type(load.array)} {name} = {self.vector_read(load, at)};")
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

    def lanes_type(self, array: str) -> str:
        return f"optiml_lanes<{self.program.element_type(array)}, {self.schedule.vector}>"

    def vector_read(self, load: Load, at: dict[str, str]) -> str:
        """The read of the vector of `load`'s elements from the address `at` gives it."""
        return f"*reinterpret_cast<const {self.lanes_type(load.array)}*>(&{load.array}[{c_expr(load.index, at)}])"

    def aligned(self, access: Load | Store, at: dict[str, str]) -> str:
        """Whether the access's address at `at` is aligned to its vector."""
        return f"optiml_aligned(&{access.array}[{c_expr(access.index, at)}], {self.vector_bytes(access.array)})"

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
                self.space_grid(s.block[1])
            else:
                self.lines += [f"{indent}const {ctype} {inner.name} = {lower}blockIdx.x;"]
                self.space_grid(1)
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
            self.space_grid(s.block[0])
        # A point's lane among all threads sharing it (its blocks' too, when split) and their number.
        self.point_lane, self.point_lanes = self.lane, str(s.lanes)
        if s.splits > 1:
            self.split_setup(indent)
        if s.cluster > 1:
            self.cluster_setup(indent)
        self.held_names: dict[str, str] = {}
        if s.held:
            if self.shape.held is None or s.lanes_axis != "x" or s.splits > 1:
                raise EmitError("held rows need loops sharing a row's elements, lanes along x and one block a point")
            for array in self.shape.held.arrays():
                self.held_names[array] = self.names(f"{array}_held")
                count = s.held * s.vector
                self.lines.append(f"{indent}{self.program.element_type(array)} {self.held_names[array]}[{count}];"
                                  f"   // this lane's first {count} elements of the row, for every loop")
        if s.family == "reduce":
            written = {stmt.array for stmt in walk(program.body) if isinstance(stmt, (Store, Atomic))}
            early, body = hoisted_reads(program.body, {i.name for i in program.space} |
                                        {parameter.name for parameter in program.scalars},
                                        {a.name for a in program.arrays if a.name not in written}, self.names,
                                        program.element_type)
            if early:
                self.lines.append(f"{indent}// Reads the loops do not change, issued before them.")
                self.lines += c_statements(early, indent)
                self.program = program.model_copy(update={"body": body})
        self.point(self.program.body, indent, in_loop=False)
        if s.cluster > 1:
            self.lines.append(f"{indent}{CLUSTER_BARRIER}   // no block leaves while another may read its shared "
                              f"memory")
        self.lines += closing

    def point(self, body: list[Stmt], indent: str, in_loop: bool) -> None:
        """The point's code shared by its lanes: top-level loops split across them, their reductions combined,
        writes outside the loops done by lane 0."""
        for position, stmt in enumerate(body):
            if isinstance(stmt, For) and not in_loop and self.schedule.family == "scan" and \
                    stmt == self.shape.scan.loop:
                self.scan_loop(stmt, indent)
            elif isinstance(stmt, For) and not in_loop:
                self.parallel_loop(stmt, indent, held_at=position if self.held_names and body is self.program.body
                                   and position in self.shape.held.loops else None)
                if self.schedule.splits > 1:      # one loop (schedule.py: splittable): the rest finishes the point
                    self.split_finish(stmt, body[position + 1:], indent)
                    return
            elif isinstance(stmt, If) and not in_loop:
                self.lines.append(f"{indent}if ({c_expr(stmt.cond)}) {{")
                self.point(stmt.then, indent + "    ", in_loop)
                if stmt.other:
                    self.lines.append(f"{indent}}} else {{")
                    self.point(stmt.other, indent + "    ", in_loop)
                self.lines.append(f"{indent}}}")
            elif isinstance(stmt, (Store, Atomic)):
                who = f"{self.point_lane} == 0" + (f" && {self.active}" if self.active else "")
                self.lines += [f"{indent}if ({who}) {{", *c_statements([stmt], indent + "    "), f"{indent}}}"]
            else:
                self.lines += c_statements([stmt], indent)

    def parallel_loop(self, loop: For, indent: str, held_at: int | None = None) -> None:
        s = self.schedule
        reductions = [r for r in self.shape.reductions if _updates(loop, r)]
        for reduction in reductions:
            ctype = reduction_type(self.program, reduction)
            start = identity(reduction.op, ctype)
            if start is not None:
                self.lines.append(f"{indent}if ({self.point_lane} != 0) {reduction.variable} = {start};")
        body = loop.body if self.active is None else _guard_writes(loop.body, self.active)
        if held_at is not None:
            self.held_loop(loop, held_at, indent)
        elif not (s.vector > 1 and c_expr(loop.step) == "1" and s.lanes_axis == "x" and
                  self.vector_loop(loop, indent)):
            self.lane_loop(loop, body, loop.start, loop.stop, indent)
        for reduction in reductions:
            self.combine(reduction, indent)

    def lane_loop(self, loop: For, body: list[Stmt], start: Expr, stop: Expr, indent: str) -> None:
        """The iterations [start, stop) of a loop, lane by lane: lane l takes l, l + lanes, ..."""
        step = c_expr(loop.step)
        lane = Ref(name=self.point_lane)
        offset: Expr = lane if step == "1" else Binary(op="*", left=lane, right=loop.step)
        first = c_expr(offset if c_expr(start) == "0" else Binary(op="+", left=start, right=offset))
        stride = self.point_lanes if step == "1" else f"{self.point_lanes} * {step}"
        self.lines.append(f"{indent}for ({loop.ctype} {loop.var} = {first}; {loop.var} < {c_operand(stop)}; "
                          f"{loop.var} += {stride}) {{")
        self.lines += c_statements(body, indent + "    ")
        self.lines.append(f"{indent}}}")

    def held_loop(self, loop: For, position: int, indent: str) -> None:
        """A loop over the rows the point's loops share: each lane's first `held` steps of `vector` consecutive
        elements (the same in every loop) unrolled, their elements of the held arrays in registers: filled by the
        first loop that reads them, written to memory (after each step, one vector access where the step's elements
        are all inside and aligned) by the loops that write them, save those whose writes a later loop writes again;
        the elements past those steps, lane by lane as written."""
        plan, width, number = self.shape.held, self.schedule.vector, self.shape.held.loops.index(position)
        step, element = self.names.scoped("step"), self.names.scoped("e")
        first = self.names.scoped(f"{loop.var}_first")
        slot = f"{step} * {width} + {element}" if width > 1 else step
        at = {array: Ref(name=f"{name}[{slot}]") for array, name in self.held_names.items()}
        indices = {array: plan.index_at(array, loop.var) for array in at}
        firsts = {array: c_expr(plan.index_at(array, first)) for array in at}
        written = [a for a in at if a not in plan.kept[number] and
                   any(isinstance(stmt, Store) and stmt.array == a for stmt in walk(loop.body))]
        filled = plan.filled[number]

        def write(stmt: Stmt) -> list[Stmt] | None:
            return [Assign(name=at[stmt.array].name, op=stmt.op, value=stmt.value)] \
                if isinstance(stmt, Store) and stmt.array in at else None

        def read(expr: Expr) -> Expr:
            if isinstance(expr, Load) and expr.array in at and expr.index == indices[expr.array]:
                return at[expr.array]
            return with_children(expr, read)

        body = rewritten(statements_replaced(loop.body, write), read)
        origin, start, stop = c_operand(plan.origin), c_operand(loop.start), c_operand(loop.stop)
        inside = f"{loop.var} < {stop}" if start == origin else f"{loop.var} >= {start} && {loop.var} < {stop}"
        whole = f"{first} + {width} <= {stop}" if start == origin else \
            f"{first} >= {start} && {first} + {width} <= {stop}"
        vectored = {a for a in at if width > 1 and element_bytes(self.program, a) * width in (4, 8, 16)}
        if vectored:
            self.use("lanes")

        def elementwise(statements: Callable[[str], list[str]], deeper: str) -> list[str]:
            """The statements (indented as asked) for each element of the step inside the loop's range, `loop.var`
            the element."""
            opening = [f"{deeper}{{", f"{deeper}    const {loop.ctype} {loop.var} = {first};"] if width == 1 else \
                [f"{deeper}#pragma unroll", f"{deeper}for (int {element} = 0; {element} < {width}; ++{element}) {{",
                 f"{deeper}    const {loop.ctype} {loop.var} = {first} + {element};"]
            return [*opening, f"{deeper}    if ({inside}) {{", *statements(deeper + "        "), f"{deeper}    }}",
                    f"{deeper}}}"]

        def moved(array: str, into_registers: bool, deeper: str) -> list[str]:
            """The step's elements of `array` between memory and its registers: one vector access where the step is
            whole and aligned, element by element otherwise."""
            one = f"{at[array].name} = {array}[{c_expr(indices[array])}];" if into_registers else \
                f"{array}[{c_expr(indices[array])}] = {at[array].name};"
            if array not in vectored:
                return elementwise(lambda at_indent: [at_indent + one], deeper)
            kind = f"optiml_lanes<{self.program.element_type(array)}, {width}>"
            address = f"&{array}[{firsts[array]}]"
            lanes_name = self.names.scoped(f"{array}_lanes")
            copy = (f"{deeper}    for (int {element} = 0; {element} < {width}; ++{element}) "
                    + (f"{at[array].name} = {lanes_name}.v[{element}];" if into_registers else
                       f"{lanes_name}.v[{element}] = {at[array].name};"))
            vector = [f"{deeper}    const {kind} {lanes_name} = *reinterpret_cast<const {kind}*>({address});",
                      f"{deeper}    #pragma unroll", copy] if into_registers else \
                [f"{deeper}    {kind} {lanes_name};", f"{deeper}    #pragma unroll", copy,
                 f"{deeper}    *reinterpret_cast<{kind}*>({address}) = {lanes_name};"]
            aligned = f"optiml_aligned({address}, {element_bytes(self.program, array) * width})"
            return [f"{deeper}if ({whole} && {aligned}) {{", *vector, f"{deeper}}} else {{",
                    *elementwise(lambda at_indent: [at_indent + one], deeper + "    "), f"{deeper}}}"]

        lanes = self.point_lanes
        inner = indent + "    "
        offset = f"({step} * {lanes} + {self.point_lane}) * {width}" if width > 1 else \
            f"{step} * {lanes} + {self.point_lane}"
        steps = [f"{indent}#pragma unroll",
                 f"{indent}for (int {step} = 0; {step} < {self.schedule.held}; ++{step}) {{",
                 f"{inner}const {loop.ctype} {first} = {offset}" + ("" if origin == "0" else f" + {origin}") + ";"]
        loaded = [array for array, below in filled if below is None]
        if loaded:
            # Every step's loads first, in a loop of their own: a load's use in the same step would wait for it
            # before the next step's load issues, one load in flight per lane (H200: a cross entropy a warp a row,
            # its whole row held, 0.130 -> 0.097 ms; bench/results/ir-h200/held-loads-first/).
            self.lines += steps
            for array in loaded:
                self.lines += moved(array, True, inner)
            self.lines.append(f"{indent}}}")
        self.lines += steps
        fills = [f"if ({loop.var} < {below}) {at[array].name} = {array}[{c_expr(indices[array])}];"
                 for array, below in filled if below is not None]
        self.lines += elementwise(lambda at_indent: [at_indent + f for f in fills] + c_statements(body, at_indent),
                                  inner)
        for array in written:
            self.lines += moved(array, False, inner)
        self.lines.append(f"{indent}}}")
        # Past the held steps (every loop's start is within a lane's first step).
        past = Const(text=str(self.schedule.held * self.schedule.lanes * width))
        if origin != "0":
            past = Binary(op="+", left=plan.origin, right=past)
        self.lane_loop(loop, loop.body, past, loop.stop, indent)

    def vector_loop(self, loop: For, indent: str) -> bool:
        """The loop in three parts, in a scope of its own: a head, lane by lane, up to the first element where every
        read and write along the loop's unit stride is 16-byte aligned; the vector part, each lane taking V
        consecutive iterations with one vector access per array; the tail, lane by lane. False when the loop has no
        access to vectorize (nothing emitted)."""
        program, width = self.program, self.schedule.vector
        inside = {stmt.name for stmt in walk(loop.body) if isinstance(stmt, Let)}
        reads, stores = vector_accesses(loop.body, loop.var, conditions=True, eligible=lambda array, index:
                                        not (names_of(index) & inside) and
                                        element_bytes(program, array) * width in (4, 8, 16))
        if not reads and not stores:
            return self.vector_digit_loop(loop, indent)
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
        start, stop = c_operand(loop.start), c_operand(loop.stop)
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
            f"{inner}for ({loop.ctype} {first} = {begin} + {self.point_lane} * {width}; {first} < {end}; "
            f"{first} += {self.point_lanes} * {width}) {{",
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

    def vector_digit_loop(self, loop: For, indent: str) -> bool:
        """A loop whose index the body takes apart by a size (a collapsed nest's `n = ni / HW; i = ni % HW`), in
        chunks of V consecutive iterations a lane: a chunk that does not cross a multiple of the size shares its
        quotient (ir/vector_groups.py), and its reads and writes through the digits are one vector access each where
        aligned; any other chunk goes iteration by iteration. False when no access becomes a vector so."""
        program, width = self.program, self.schedule.vector
        # Addresses may read what the loop does not change: not its own locals, nor what it assigns.
        outside = names_in(program) - {stmt.name for stmt in walk(loop.body) if isinstance(stmt, Let)} - \
            names_written(loop.body)
        addressed = index_locals_inlined(loop.body, outside)
        lowest = self.wide_lowest_digit(addressed, loop.var, loop.ctype, outside)
        if lowest is None:
            return False
        scoped = self.names.scoped
        first, element = scoped(f"{loop.var}_first"), scoped("e")
        quotient, offset = scoped(f"{loop.var}_quotient"), scoped(f"{loop.var}_offset")
        addressed = digit_split(addressed, loop.var, loop.ctype, lowest, quotient, offset)
        reads, stores = vector_accesses(addressed, loop.var, conditions=True, eligible=lambda array, index:
                                        names_of(index) <= outside | {quotient, offset} and
                                        element_bytes(program, array) * width in (4, 8, 16))
        if not reads and not stores:
            return False
        self.use("lanes")
        at_first = _renamed({loop.var: Ref(name=first)})
        inner = indent + "    "
        setup, finish, replacements, store_names = self.lane_registers(reads, stores, at_first, element,
                                                                       inner + "    ", scoped)
        size, stop = c_expr(lowest), c_operand(loop.stop)
        divides = f"({first}) >= 0 && ({size}) > 0"
        whole = " && ".join([f"{first} + {width} <= {stop}", divides, f"({first}) % ({size}) + {width} <= ({size})",
                             *dict.fromkeys(self.aligned(access, at_first) for access in [*reads, *stores])])
        start = c_expr(loop.start)
        self.lines += [
            f"{indent}// {width} consecutive iterations a lane and step: one vector access per array where they share "
            f"their quotient by {size} and are aligned, iteration by iteration elsewhere.",
            f"{indent}for ({loop.ctype} {first} = {'' if start == '0' else start + ' + '}{self.point_lane} * {width}; "
            f"{first} < {stop}; {first} += {self.point_lanes} * {width}) {{",
            f"{inner}const {loop.ctype} {quotient} = {divides} ? ({first}) / ({size}) : 0;",
            f"{inner}const {loop.ctype} {offset} = {divides} ? ({first}) % ({size}) - ({first}) : 0;",
            f"{inner}if ({whole}) {{",
            *setup,
            f"{inner}    #pragma unroll",
            f"{inner}    for (int {element} = 0; {element} < {width}; ++{element}) {{",
            f"{inner}        const {loop.ctype} {loop.var} = {first} + {element};",
            *c_statements(_replaced(addressed, replacements, store_names), inner + "        "),
            f"{inner}    }}",
            *finish,
            f"{inner}}} else {{",
            f"{inner}    for (int {element} = 0; {element} < {width} && {first} + {element} < {stop}; ++{element}) {{",
            f"{inner}        const {loop.ctype} {loop.var} = {first} + {element};",
            *c_statements(loop.body, inner + "        "),
            f"{inner}    }}",
            f"{inner}}}",
            f"{indent}}}"]
        return True

    def combine(self, reduction: Reduction, indent: str) -> None:
        """The lanes' partials of a reduction combined, every lane left with the result: a sum, product, maximum
        or minimum; or an argmax or argmin, whose (value, place) pairs keep the first place on ties."""
        var, op = reduction.variable, reduction.op
        carried = [(var, reduction_type(self.program, reduction))]
        if reduction.index:
            at = reduction.index
            carried.append((at, reduction_type(self.program, Reduction(at, "+"))))
            helper, call = f"arg{op}", f"optiml_warp_arg{op}({var}, {at});"

            def merge(other: list[str]) -> str:
                better = arg_better(op, other[0], other[1], var, at)
                return f"if ({better}) {{ {var} = {other[0]}; {at} = {other[1]}; }}"
        else:
            helper, call = op, f"{var} = {_WARP_FUNCTION[op]}({var});"

            def merge(other: list[str]) -> str:
                return f"{var} = {combined(op, var, other[0])};"
        self.exchange(carried, helper, call, merge, indent)
        if self.schedule.cluster > 1:
            self.cluster_exchange(carried, merge, indent)

    def exchange(self, carried: list[tuple[str, str]], helper: str, warp_call: str,
                 merge: Callable[[list[str]], str], indent: str) -> None:
        """Lanes along x: a warp combines by shuffles (`warp_call`), the warps of a block through shared memory;
        lanes along y: through shared memory, row 0 merging. `merge(others)` folds another lane's values in."""
        s = self.schedule
        partials = [self.names(f"{name}_partials") for name, _ in carried]
        if s.lanes_axis == "x":
            self.use(helper)
            self.lines.append(f"{indent}{warp_call}")
            if s.lanes == 32:
                return
            warps, w = s.lanes // 32, self.names("warp")
            self.lines += [f"{indent}__shared__ {ctype} {array}[{warps}];"
                           for (_, ctype), array in zip(carried, partials)]
            self.lines += [
                f"{indent}if ({self.lane} % 32 == 0) {{ " + " ".join(
                    f"{array}[{self.lane} / 32] = {name};" for (name, _), array in zip(carried, partials)) + " }",
                f"{indent}__syncthreads();",
                *(f"{indent}{name} = {array}[0];" for (name, _), array in zip(carried, partials)),
                f"{indent}for (int {w} = 1; {w} < {warps}; ++{w}) {merge([f'{array}[{w}]' for array in partials])}"]
        else:
            w = self.names("row")
            points, lanes = s.block
            self.lines += [f"{indent}__shared__ {ctype} {array}[{lanes}][{points}];"
                           for (_, ctype), array in zip(carried, partials)]
            self.lines += [
                *(f"{indent}{array}[threadIdx.y][threadIdx.x] = {name};"
                  for (name, _), array in zip(carried, partials)),
                f"{indent}__syncthreads();",
                f"{indent}if (threadIdx.y == 0) {{",
                f"{indent}    for (int {w} = 1; {w} < {lanes}; ++{w}) "
                f"{merge([f'{array}[{w}][threadIdx.x]' for array in partials])}",
                *(f"{indent}    {array}[0][threadIdx.x] = {name};" for (name, _), array in zip(carried, partials)),
                f"{indent}}}",
                f"{indent}__syncthreads();",
                *(f"{indent}{name} = {array}[0][threadIdx.x];" for (name, _), array in zip(carried, partials))]
        if self.repeats:
            self.lines.append(f"{indent}__syncthreads();   // the partials are written again for the next point")

    def split_setup(self, indent: str) -> None:
        """blockIdx.y: which of the point's blocks this is. Workspace for every point at the contract's sizes; at
        larger sizes one block per point (the others leave), so the kernel stays correct at any size."""
        s, program = self.schedule, self.program
        points = self.split_capacity()
        _, lower, upper = self.bounds(0)
        span = f"{upper} - {c_expr(program.space[0].lower)}" if lower else upper
        self.split_workspace(indent, "point", points, {r.variable: (reduction_type(program, r), 1)
                                                       for r in self.shape.reductions}, span, "y")
        self.point_lane, self.point_lanes = self.names("point_lane"), f"{s.lanes} * {self.splits}"
        self.lines.append(f"{indent}const int {self.point_lane} = blockIdx.y * {s.lanes} + {self.lane};")
        self.grid.append(self.split_layers(self.extent(0), points))

    def cluster_setup(self, indent: str) -> None:
        """blockIdx.y: the block's rank in the point's cluster (the grid's y is the cluster's blocks, a whole
        cluster a point, so that no size leaves a block without its cluster)."""
        s, program = self.schedule, self.program
        if len(program.space) != 1 or s.lanes_axis != "x" or s.block != (s.lanes, 1) or s.splits > 1 or s.held:
            raise EmitError("a cluster of blocks per point needs a 1-D space, lanes along x filling the block, and "
                            "neither split workspaces nor held rows")
        if any(r.index for r in self.shape.reductions):
            raise EmitError("an argmax's partials are pairs: not exchanged across a cluster")
        self.point_lane, self.point_lanes = self.names("point_lane"), str(s.lanes * s.cluster)
        self.lines.append(f"{indent}const int {self.point_lane} = blockIdx.y * {s.lanes} + {self.lane};   // among "
                          f"the cluster's blocks")
        self.grid.append(str(s.cluster))

    def cluster_exchange(self, carried: list[tuple[str, str]], merge: Callable[[list[str]], str],
                         indent: str) -> None:
        """After the block's lanes have combined their partials: each block's value in its shared memory, read by
        every block of the cluster from every block in rank order (the same result in each, bit for bit)."""
        cluster, rank = self.schedule.cluster, self.names("rank")
        slots = [self.names(f"{name}_block") for name, _ in carried]
        self.lines += [f"{indent}__shared__ {ctype} {slot};   // the block's value, read by the cluster's blocks"
                       for (_, ctype), slot in zip(carried, slots)]
        self.lines += [
            f"{indent}if ({self.lane} == 0) {{ " + " ".join(f"{slot} = {name};" for (name, _), slot in
                                                             zip(carried, slots)) + " }",
            f"{indent}{CLUSTER_BARRIER}",
            *(f"{indent}{name} = {_peer(slot, ctype, '0')};" for (name, ctype), slot in zip(carried, slots)),
            f"{indent}for (unsigned {rank} = 1; {rank} < {cluster}u; ++{rank}) "
            f"{merge([_peer(slot, ctype, rank) for (_, ctype), slot in zip(carried, slots)])}"]

    def split_workspace(self, indent: str, what: str, capacity: int, partials: dict[str, tuple[str, int]],
                        count: str, axis: str) -> None:
        """A split schedule's device memory (an arrival count per `what` and, per value, `partials[value]` = (C
        type, elements per `what` and block)) and its first lines: the blocks per `what` (one past the capacity:
        `count`, as C, is how many there are), those beyond leaving."""
        s, kernel = self.schedule, self.base.contract.kernel
        self.splits = self.names("splits")
        self.arrivals = self.names(f"optiml_{kernel}_arrivals")
        self.declarations += [
            f"// Split {what}s: each block's partials, and how many of a {what}'s {s.splits} blocks have finished "
            f"(the last resets it to 0 for the next launch; launches of {kernel} must not overlap).",
            f"__device__ unsigned int {self.arrivals}[{capacity}];"]
        self.partials = {}
        for value, (ctype, elements) in partials.items():
            self.partials[value] = name = self.names(f"optiml_{kernel}_{value}_partials")
            self.declarations.append(f"__device__ {ctype} {name}[{capacity * s.splits * elements}];")
        self.lines += [f"{indent}const int {self.splits} = {count} <= {capacity} ? {s.splits} : 1;",
                       f"{indent}if (blockIdx.{axis} >= {self.splits}) return;"]

    def split_capacity(self, count: str | None = None, elements: int = 1, element_bytes: int = 8) -> int:
        """The most points (or `count`, in contract terms, of things of `elements` partials each) at the contract's
        sizes and checks, as far as the workspace allows."""
        contract = self.base.contract
        text = count or self.extent(0)
        most = max(int(evaluate(text, {**contract.sizes, **binding})) for binding in [{}, *contract.checks])
        return max(min(most, SPLIT_WORKSPACE_BYTES // (self.schedule.splits * elements * element_bytes)), 1)

    def split_layers(self, count: str, capacity: int) -> str:
        """The grid's split dimension: the schedule's splits, or one layer past the workspace (the others would
        only leave)."""
        splits = self.schedule.splits
        return f"max(1,{splits}-{splits}*min(1,({count})//{capacity + 1}))"

    def split_finish(self, loop: For, rest: list[Stmt], indent: str) -> None:
        """Each block's lane 0 publishes the block's partials; the point's last block to arrive combines them all,
        in block order (the same result every run), and runs the rest of the point's code."""
        program = self.program
        reductions = [r for r in self.shape.reductions if _updates(loop, r)]
        slot, last, arrived, block = (self.names("point_slot"), self.names("last"), self.names("arrived"),
                                      self.names("block"))
        who = f"{self.lane} == 0" + (f" && {self.active}" if self.active else "")
        lower = c_expr(program.space[0].lower)
        lower = "" if lower == "0" else f" - ({lower})"
        inner = indent + "        "
        self.lines += [f"{indent}if ({who}) {{",
                       f"{indent}    bool {last} = true;",
                       f"{indent}    if ({self.splits} > 1) {{",
                       f"{inner}const int {slot} = {program.space[0].name}{lower};"]
        self.lines += [f"{inner}{self.partials[r.variable]}[{slot} * {self.splits} + blockIdx.y] = {r.variable};"
                       for r in reductions]
        self.lines += [
            f"{inner}__threadfence();   // the partials are visible before the count says so",
            f"{inner}const unsigned int {arrived} = atomicAdd(&{self.arrivals}[{slot}], 1u);",
            f"{inner}{last} = {arrived} == {self.splits} - 1;",
            f"{inner}if ({last}) {{",
            f"{inner}    __threadfence();"]
        for r in reductions:
            partials = self.partials[r.variable]
            other = self.names.scoped(f"{r.variable}_block")
            self.lines += [
                f"{inner}    {r.variable} = __ldcg(&{partials}[{slot} * {self.splits}]);   // past L1: other "
                f"blocks wrote them",
                f"{inner}    for (int {block} = 1; {block} < {self.splits}; ++{block}) {{",
                f"{inner}        const {reduction_type(program, r)} {other} = __ldcg(&{partials}[{slot} * "
                f"{self.splits} + {block}]);",
                f"{inner}        {r.variable} = {combined(r.op, r.variable, other)};",
                f"{inner}    }}"]
        self.lines += [f"{inner}    {self.arrivals}[{slot}] = 0u;",
                       f"{inner}}}",
                       f"{indent}    }}",
                       f"{indent}    if ({last}) {{",
                       *c_statements(rest, indent + "        "),
                       f"{indent}    }}",
                       f"{indent}}}"]

    # -- scan -----------------------------------------------------------------------------------------------------

    def scan(self) -> None:
        """A warp per point (lanes along x, 32 of them): reduce's frame, whose point code hands the loop to
        scan_loop; split across warps (split_scan) where the schedule says."""
        if self.schedule.splits > 1:
            self.split_scan()
        else:
            self.reduce()

    def update_alone(self, loop: For, total: str) -> list[Stmt]:
        """The loop's code without its writes, the carried value renamed `total`: the update alone."""
        var = self.shape.scan.reduction.variable
        return statements_replaced(substituted(loop.body, {var: Ref(name=total)}), lambda stmt: [] if isinstance(
            stmt, Store) else [stmt.model_copy(update={"name": total})] if isinstance(stmt, Assign) and
            stmt.name == var else None)

    def split_scan(self) -> None:
        """A point's loop cut into chunks, a warp (a block) each, in the order the warps take tickets (a warp only
        waits for warps already running). A warp sums its chunk by the update alone, publishes the sum, and looks
        back over the chunks before it (decoupled look-back: a chunk's inclusive prefix where published, else its
        sum and on to the one before); it publishes its own inclusive prefix, then scans its chunk from the value
        before it as scan_loop does. The last chunk runs the code after the loop. The last warp of the point to
        finish resets the point's flags and tickets for the next launch (launches must not overlap). Chunks are
        at least 4 warp steps long; the grid's y holds the chunks, one past the workspace a single chunk."""
        s, program = self.schedule, self.program
        scan = self.shape.scan
        loop, reduction = scan.loop, scan.reduction
        var, op = reduction.variable, reduction.op
        ctype = reduction_type(program, reduction)
        kernel = self.base.contract.kernel
        span_text = contract_text(Binary(op="-", left=loop.stop, right=loop.start), self.base.contract, program)
        if span_text is None:
            raise EmitError(f"the loop's length ({c_operand(loop.stop)} - {c_operand(loop.start)}) has no form in "
                            f"contract terms")
        names = self.names
        self.lane = names("lane")
        self.point_lane, self.point_lanes, self.active = self.lane, "32", None
        inner = program.space[0]
        itype, lower, _ = self.bounds(0)
        capacity = self.split_capacity(element_bytes=4 + 2 * 8)
        step = 32 * s.items * 4
        tickets, arrivals, flags, sums, prefixes = (
            names(f"optiml_{kernel}_{what}") for what in ("tickets", "arrivals", "flags", "sums", "prefixes"))
        self.declarations += [
            f"// Split scan: per point, the tickets its warps took and how many finished (the last resets them and "
            f"the flags for the next launch; launches of {kernel} must not overlap); per chunk, a flag (1: its sum "
            f"published, 2: its inclusive prefix), its sum and its inclusive prefix.",
            f"__device__ unsigned int {tickets}[{capacity}];",
            f"__device__ unsigned int {arrivals}[{capacity}];",
            f"__device__ unsigned int {flags}[{capacity * s.splits}];",
            f"__device__ {ctype} {sums}[{capacity * s.splits}];",
            f"__device__ {ctype} {prefixes}[{capacity * s.splits}];"]
        chunks, chunk, slot, length = names("chunks"), names("chunk"), names("point_slot"), names("chunk_length")
        first, end, total, before = (names(f"{loop.var}_chunk_first"), names(f"{loop.var}_chunk_end"),
                                     names(f"{var}_chunk"), names(f"{var}_before"))
        b, flag, got, arrived, at = (names("earlier"), names("flag"), names("earlier_value"), names("arrived"),
                                     names("chunk_base"))
        window, mine, found, nearest = names("window"), names("earlier_chunk"), names("prefixed"), names("nearest")
        position = program.body.index(loop)
        self.use(f"scan{op}")
        start = identity(op, ctype) or var
        stop, begin = c_operand(loop.stop), c_operand(loop.start)
        indent = "    "
        warps = s.block[1]
        self.lines += [f"{indent}const {itype} {inner.name} = {lower}blockIdx.x;",
                       f"{indent}const int {self.lane} = threadIdx.x;",
                       f"{indent}// A warp a chunk; one chunk (one warp) where the grid has one layer.",
                       f"{indent}const int {chunks} = gridDim.y > 1 ? gridDim.y * {warps} : 1;",
                       f"{indent}if ({chunks} == 1 && threadIdx.y > 0) return;",
                       f"{indent}const unsigned int {slot} = blockIdx.x;"]
        self.point(program.body[:position], indent, in_loop=False)
        ll = "long long"
        flag_at = f"*(volatile unsigned int*)&{flags}[{at} + {mine}]"
        self.use(op)
        self.lines += [
            f"{indent}unsigned int {chunk} = 0;",
            f"{indent}if ({chunks} > 1) {{",
            f"{indent}    if ({self.lane} == 0) {chunk} = atomicAdd(&{tickets}[{slot}], 1u);",
            f"{indent}    {chunk} = __shfl_sync(0xffffffffu, {chunk}, 0);",
            f"{indent}}}",
            f"{indent}// This warp's chunk: whole warp steps of the loop.",
            f"{indent}const {ll} {length} = ((({ll})({stop}) - ({ll})({begin}) + {chunks} - 1) / {chunks} + {step - 1})"
            f" / {step} * {step};",
            f"{indent}const {loop.ctype} {first} = ({loop.ctype})min(({ll})({begin}) + {chunk} * {length}, "
            f"({ll})({stop}));",
            f"{indent}const {loop.ctype} {end} = ({loop.ctype})min(({ll}){first} + {length}, ({ll})({stop}));",
            f"{indent}{ctype} {before} = {start};",
            f"{indent}if ({chunks} > 1) {{",
            f"{indent}    // The chunk's sum by the update alone.",
            f"{indent}    {ctype} {total} = {start};",
            f"{indent}    #pragma unroll 4",
            f"{indent}    for ({loop.ctype} {loop.var} = {first} + {self.lane}; {loop.var} < {end}; "
            f"{loop.var} += 32) {{",
            *c_statements(self.update_alone(loop, total), indent + "        "),
            f"{indent}    }}",
            f"{indent}    {total} = {_WARP_FUNCTION[op]}({total});",
            f"{indent}    const {ll} {at} = ({ll}){slot} * {s.splits};",
            f"{indent}    if ({self.lane} == 0 && {chunk} > 0) {{",
            f"{indent}        {sums}[{at} + {chunk}] = {total};",
            f"{indent}        __threadfence();",
            f"{indent}        atomicExch(&{flags}[{at} + {chunk}], 1u);",
            f"{indent}    }}",
            f"{indent}    // Look back 32 chunks at a time (lane l at the l-th before): the nearest inclusive prefix "
            f"and the sums after it.",
            f"{indent}    for (int {window} = (int){chunk} - 1; {window} >= 0; {window} -= 32) {{",
            f"{indent}        const int {mine} = {window} - {self.lane};",
            f"{indent}        unsigned int {flag} = {mine} >= 0 ? {flag_at} : 2u;",
            f"{indent}        while (__any_sync(0xffffffffu, {flag} == 0u)) {{",
            f"{indent}            if ({flag} == 0u) {flag} = {flag_at};",
            f"{indent}        }}",
            f"{indent}        __threadfence();",
            f"{indent}        const unsigned int {found} = __ballot_sync(0xffffffffu, {flag} == 2u);",
            f"{indent}        // The nearest chunk with its prefix (none here: its 32 sums count, look further).",
            f"{indent}        const int {nearest} = {found} != 0u ? __ffs({found}) - 1 : 31;",
            f"{indent}        {ctype} {got} = {start};",
            f"{indent}        if ({mine} >= 0 && {self.lane} <= {nearest}) {{",
            f"{indent}            {got} = {flag} == 2u ? __ldcg(&{prefixes}[{at} + {mine}]) : "
            f"__ldcg(&{sums}[{at} + {mine}]);",
            f"{indent}        }}",
            f"{indent}        {before} = {combined(op, _WARP_FUNCTION[op] + '(' + got + ')', before)};",
            f"{indent}        if ({found} != 0u) break;",
            f"{indent}    }}",
            f"{indent}    if ({self.lane} == 0) {{",
            f"{indent}        {prefixes}[{at} + {chunk}] = {chunk} > 0 ? {combined(op, before, total)} : {total};",
            f"{indent}        __threadfence();",
            f"{indent}        atomicExch(&{flags}[{at} + {chunk}], 2u);",
            f"{indent}    }}",
            f"{indent}}}",
            f"{indent}{var} = {chunk} > 0 ? {combined(op, var, before)} : {var};"]
        self.scan_loop(loop, indent, (first, end))
        if program.body[position + 1:]:
            self.lines.append(f"{indent}if ({chunk} == {chunks} - 1) {{")
            self.point(program.body[position + 1:], indent + "    ", in_loop=False)
            self.lines.append(f"{indent}}}")
        self.lines += [
            f"{indent}if ({chunks} > 1 && {self.lane} == 0) {{",
            f"{indent}    __threadfence();",
            f"{indent}    const unsigned int {arrived} = atomicAdd(&{arrivals}[{slot}], 1u);",
            f"{indent}    if ({arrived} == {chunks} - 1) {{",
            f"{indent}        for (int {b} = 0; {b} < {chunks}; ++{b}) {flags}[({ll}){slot} * {s.splits} + {b}] = 0u;",
            f"{indent}        {tickets}[{slot}] = 0u;",
            f"{indent}        {arrivals}[{slot}] = 0u;",
            f"{indent}        __threadfence();",
            f"{indent}    }}",
            f"{indent}}}"]
        self.space_grid(1)
        layers = f"cdiv(min({s.splits},cdiv(max({span_text},1),{step})),{warps})"
        self.grid.append(f"max(1,{layers}-{s.splits}*min(1,({self.extent(0)})//{capacity + 1}))")

    def scan_loop(self, loop: For, indent: str, bounds: tuple[str, str] | None = None) -> None:
        """lanes x items iterations at a time: each lane's stretch of `items` combined by the update alone (from the
        identity; max and min from the carried value, which they may count twice); the stretch totals scanned
        across the warp by shuffles, and where a block shares the point (rows too few to give every SM warps
        enough: a softmax-cumsum of 1024 rows of 32000, a warp a row, 7.4x its floor on an H200) across its warps,
        each leaving its total in shared memory; each lane replays the loop's code over its stretch from the value
        before it (the carried value, the warps' totals before its own, its warp's lanes' before it); the carried
        value then takes the total of all stretches. `bounds`: the iterations to take (C), the loop's own unless
        said."""
        if self.schedule.lanes_axis == "y":
            self.scan_loop_across(loop, indent)
            return
        program, items, lanes = self.program, self.schedule.items, self.schedule.lanes
        reduction = self.shape.scan.reduction
        var, op = reduction.variable, reduction.op
        ctype = reduction_type(program, reduction)
        names = self.names
        tile, first, end = names(f"{loop.var}_tile"), names(f"{loop.var}_first"), names(f"{loop.var}_end")
        total, carry, before = names(f"{var}_stretch"), names(f"{var}_carry"), names(f"{var}_before")
        self.use(f"scan{op}")
        start = identity(op, ctype) or var
        alone = self.update_alone(loop, total)
        begin, stop = bounds or (c_operand(loop.start), c_operand(loop.stop))
        inner = indent + "    "
        stretch = f"for ({loop.ctype} {loop.var} = {first}; {loop.var} < {end}; ++{loop.var}) {{"
        if lanes == 32:
            shared: list[str] = []
            value_before = [f"{inner}{var} = {self.lane} == 0 ? {carry} : {combined(op, carry, before)};"]
            value_after = [f"{inner}{var} = {combined(op, carry, f'__shfl_sync(0xffffffffu, {total}, 31)')};"]
        else:
            warp_totals, warp = names(f"{var}_warp_totals"), names("warp")
            shared = [f"{indent}__shared__ {ctype} {warp_totals}[{lanes // 32}];   // each warp's total of a step"]
            value_before = [
                f"{inner}if ({self.lane} % 32 == 31) {warp_totals}[{self.lane} / 32] = {total};",
                f"{inner}__syncthreads();",
                # Unrolled over every warp, each under its condition (NVRTC 13.5 spilled the loop to `lane / 32`).
                f"{inner}#pragma unroll",
                f"{inner}for (int {warp} = 0; {warp} < {lanes // 32}; ++{warp}) "
                f"if ({warp} < {self.lane} / 32) {var} = {combined(op, var, f'{warp_totals}[{warp}]')};",
                f"{inner}if ({self.lane} % 32 != 0) {var} = {combined(op, var, before)};"]
            value_after = [
                f"{inner}{var} = {carry};",
                f"{inner}for (int {warp} = 0; {warp} < {lanes // 32}; ++{warp}) "
                f"{var} = {combined(op, var, f'{warp_totals}[{warp}]')};",
                f"{inner}__syncthreads();   // every warp has read the totals before the next step writes them"]
        self.lines += [
            *shared,
            f"{indent}for ({loop.ctype} {tile} = {begin}; {tile} < {stop}; {tile} += {lanes * items}) {{",
            f"{inner}// This lane's stretch: {items} consecutive iteration{'s' if items > 1 else ''}.",
            f"{inner}const {loop.ctype} {first} = {tile} + {self.lane} * {items};",
            f"{inner}const {loop.ctype} {end} = {first} + {items} < {stop} ? {first} + {items} : {stop};",
            f"{inner}{ctype} {total} = {start};",
            f"{inner}{stretch}",
            *c_statements(alone, inner + "    "),
            f"{inner}}}",
            f"{inner}{total} = {_SCAN_FUNCTION[op]}({total});",
            f"{inner}const {ctype} {carry} = {var};",
            f"{inner}const {ctype} {before} = __shfl_up_sync(0xffffffffu, {total}, 1);",
            *value_before,
            f"{inner}// The loop's own code over the stretch, from the value before it.",
            f"{inner}{stretch}",
            *c_statements(loop.body, inner + "    "),
            f"{inner}}}",
            *value_after,
            f"{indent}}}"]

    def scan_loop_across(self, loop: For, indent: str) -> None:
        """Lanes along y (a scan down columns): the block's `lanes` rows of threads take `lanes x items` iterations
        at a time, each a stretch of `items`, for each of the block's neighbouring points; the stretch totals (the
        update alone) go through shared memory, where each thread combines those of the stretches before its own
        (the value before it) and all of them (the carried value after the step); each thread then replays its
        stretch, writing where its point is one (`active`). Every thread of the block walks the same iterations:
        the loop's bounds are the same for every point (schedule.py `_scan`)."""
        s, program, items = self.schedule, self.program, self.schedule.items
        reduction = self.shape.scan.reduction
        var, op = reduction.variable, reduction.op
        ctype = reduction_type(program, reduction)
        names = self.names
        tile, first = names(f"{loop.var}_tile"), names(f"{loop.var}_first")
        total, totals, before, after, other = (names(f"{var}_stretch"), names(f"{var}_stretches"),
                                               names(f"{var}_before"), names(f"{var}_after"), names("stretch"))
        start = identity(op, ctype) or var
        begin, stop = c_operand(loop.start), c_operand(loop.stop)
        inner, body = indent + "    ", indent + "        "
        step = names("step")
        # Unrolled with each iteration under its bound: a stretch's reads all in flight at once.
        stretch = [f"{inner}#pragma unroll",
                   f"{inner}for (int {step} = 0; {step} < {items}; ++{step}) {{",
                   f"{body}const {loop.ctype} {loop.var} = {first} + {step};",
                   f"{body}if ({loop.var} < {stop}) {{"]
        self.lines += [
            f"{indent}__shared__ {ctype} {totals}[{s.lanes}][{s.block[0]}];   // each stretch's total, by lane and "
            f"point",
            f"{indent}for ({loop.ctype} {tile} = {begin}; {tile} < {stop}; {tile} += {s.lanes * items}) {{",
            f"{inner}// This thread's stretch: {items} consecutive iteration{'s' if items > 1 else ''}.",
            f"{inner}const {loop.ctype} {first} = {tile} + {self.lane} * {items};",
            f"{inner}{ctype} {total} = {start};",
            *stretch,
            *c_statements(self.update_alone(loop, total), body + "    "),
            f"{body}}}",
            f"{inner}}}",
            f"{inner}{totals}[threadIdx.y][threadIdx.x] = {total};",
            f"{inner}__syncthreads();",
            f"{inner}{ctype} {before} = {var};",
            f"{inner}for (int {other} = 0; {other} < threadIdx.y; ++{other}) "
            f"{before} = {combined(op, before, f'{totals}[{other}][threadIdx.x]')};",
            f"{inner}{ctype} {after} = {before};",
            f"{inner}for (int {other} = threadIdx.y; {other} < {s.lanes}; ++{other}) "
            f"{after} = {combined(op, after, f'{totals}[{other}][threadIdx.x]')};",
            f"{inner}{var} = {before};",
            f"{inner}// The loop's own code over the stretch, from the value before it.",
            *stretch,
            *c_statements(_guard_writes(loop.body, self.active), body + "    "),
            f"{body}}}",
            f"{inner}}}",
            f"{inner}{var} = {after};",
            f"{inner}__syncthreads();   // the totals are written again by the next step",
            f"{indent}}}"]

    # -- contraction ----------------------------------------------------------------------------------------------

    def contraction(self) -> None:
        """Output tiles of rows x columns points per block; the loop in steps of k_tile, each step's left and right
        operand values staged in shared memory (each read along its own unit stride), two buffers: the next step's
        values are read from global memory into registers before the current step's multiply-adds and stored into
        the other buffer after them (one barrier a step). items x items outputs per thread, in groups of `width`
        neighbours (one vector read from shared memory each), the groups of a warp's threads contiguous; then each
        output's own code after the loop, with the loop's sum added to its accumulator. A ranged contraction (bounds
        of the point's indices) walks, tile by tile, the steps from the least first step of its points to the
        greatest last; a step inside every point's range adds as any, one at an end adds for the points whose range
        holds it."""
        s, program, found = self.schedule, self.program, self.shape.contraction
        if found.ranged and s.splits > 1:
            raise EmitError("a loop whose steps differ from tile to tile is not split across blocks")
        (tile_i, tile_j), per, step = s.output_tile(), s.items, s.k_tile
        threads_x, threads_y = tile_j // per, tile_i // per
        columns = found.columns
        if columns is not None:
            # The point's loop over columns walked by each block over its rows' tile: the program whose innermost
            # index is that loop's.
            self.program = program = columns.program
            if threads_x > 32:
                raise EmitError(f"a row's {threads_x} threads span warps; its columns' values combine in one")
            if s.splits > 1 and len(program.space) != 2:
                raise EmitError("a batch's rows are not split across blocks")
            if s.splits > 1 and columns.rereads:
                raise EmitError("a row's code reads the outputs its walk stores: not split across blocks")
        threads = threads_x * threads_y
        i_axis, j_axis = len(program.space) - 2, len(program.space) - 1
        i, j, k = program.space[i_axis], program.space[j_axis], found.loop
        itype, ilower, iupper = self.bounds(i_axis)
        jtype, jlower, jupper = self.bounds(j_axis)
        acc_type, width, staging_bytes = contraction_staging(self.shape, s)
        zero = identity("+", acc_type)
        # Padded rows: a warp's staging stores along the loop fall in different banks.
        row_i, row_j = tile_i + width, tile_j + width
        if staging_bytes > STATIC_SHARED_BYTES:
            raise EmitError(f"two buffers of {step} steps of {tile_i}x{tile_j} tiles of {acc_type} "
                            f"({len(found.lefts)} + {len(found.rights)} operands) exceed {STATIC_SHARED_BYTES} bytes "
                            f"of shared memory")
        opening, indent, closing = self.outer_loops("    ")
        self.lines += opening
        names = self.names
        k_begin, k_end = names(f"{k.var}_begin"), names(f"{k.var}_end")
        if s.splits > 1 and columns is None:
            self.split_k_setup(indent, k_begin, k_end)
        elif not found.ranged:
            self.lines += [f"{indent}const {k.ctype} {k_begin} = {c_operand(k.start)};",
                           f"{indent}const {k.ctype} {k_end} = {c_operand(k.stop)};"]
        if columns is not None:
            if columns.ctype not in SHUFFLED_TYPES:
                raise EmitError(f"a row's value of type {columns.ctype} does not pass between lanes")
            self.row_values = names(f"{columns.reduction.variable}_of_rows")
            if s.splits > 1:
                dtype = dtype_of(columns.ctype)
                self.split_rows = self.split_capacity(None, 1, itemsize(dtype) if dtype else 8)
                self.split_workspace(indent, "row", self.split_rows, {columns.reduction.variable: (columns.ctype, 1)},
                                     self.extent(0), "x")
        partial = names("partial")
        i_block, j_block, k_step = names(f"{i.name}_block"), names(f"{j.name}_block"), names(f"{k.var}_step")
        element, m, n, kk, thread = names("e"), names("m"), names("n"), names("kk"), names("thread")
        # Each operand's tiles and the values a thread takes from them a step: (side, operand, tile, values).
        operands = [(side, operand, names(f"{side}_tile"), names(f"{side}_values"))
                    for side, reads in (("left", found.lefts), ("right", found.rights)) for operand in reads]
        values_at = {operand_value(side, place): Ref(name=f"{values}[{m if side == 'left' else n}]")
                     for side in ("left", "right")
                     for place, (_, _, _, values) in enumerate(o for o in operands if o[0] == side)}
        term = f"{operands[0][3]}[{m}] * {operands[1][3]}[{n}]" if found.term is None else \
            c_expr(substitute(found.term, values_at))
        buffer, slot, lane, more = names("buffer"), names("slot"), names("lane"), names("more")
        firsts = {name: names(f"{name}_first") for name in (i.name, j.name, k.var)}
        if width > 1:
            self.use("lanes")
        # The tile's code: inside the loop over row tiles (and the walk over column tiles).
        inner = indent + ("        " if columns is not None else "    ")
        body = inner + "    "
        # A side's index, its type, block start and bound, its tile's points and padded row, and the thread axis
        # (and its threads) that takes its values.
        sides = {"left": (i.name, itype, i_block, iupper, tile_i, row_i, "threadIdx.y", threads_y),
                 "right": (j.name, jtype, j_block, jupper, tile_j, row_j, "threadIdx.x", threads_x)}
        staged = [_Staged(operand, tile_name, *sides[side][:4], names, side)
                  for side, operand, tile_name, _ in operands]
        for operand, (side, *_) in zip(staged, operands):
            operand.plan(program, k.var, sides[side][4], step, threads, acc_type, sides[side][5])
            if operand.width > 1:
                self.use("lanes")
        def owned(index: str, threads_along: str, count: int) -> str:
            """The tile position of a thread's `index`-th output along an axis: groups of `width` neighbours, a
            warp's groups contiguous."""
            return f"({index} / {width}) * ({count} * {width}) + {threads_along} * {width} + {index} % {width}"

        self.lines += [
            f"{indent}// Two buffers of each operand: {step} steps of the loop x the tile's points, rows padded.",
            *(f"{indent}__shared__ __align__(16) {acc_type} {tile_name}[2][{step}][{sides[side][5]}];   // {side} "
              f"operand, by {sides[side][0]}" for side, _, tile_name, _ in operands),
            f"{indent}const int {thread} = threadIdx.y * blockDim.x + threadIdx.x;",
            *([f"{indent}const {jtype} {j_block} = {jlower}blockIdx.x * {tile_j};"] if columns is None else []),
            f"{indent}for ({itype} {i_block} = {ilower}blockIdx.y * {tile_i}; {i_block} < {iupper}; "
            f"{i_block} += gridDim.y * {tile_i}) {{",
            *(self.columns_walked(indent + "    ", (i, i_block, itype, iupper), (j_block, jtype, jlower, jupper),
                                  owned(m, "threadIdx.y", threads_y), m) if columns is not None else []),
            f"{inner}{acc_type} {partial}[{per}][{per}];   // unrolled loops keep it in registers",
            f"{inner}#pragma unroll",
            f"{inner}for (int {m} = 0; {m} < {per}; ++{m})",
            f"{inner}    #pragma unroll",
            f"{inner}    for (int {n} = 0; {n} < {per}; ++{n}) {partial}[{m}][{n}] = {zero};"]
        inside_begin, inside_end = names(f"{k.var}_inside_begin"), names(f"{k.var}_inside_end")
        if found.ranged:
            self.lines += self.tile_range(inner, (i_block, itype, iupper, tile_i), (j_block, jtype, jupper, tile_j),
                                          (k_begin, k_end, inside_begin, inside_end))
        for operand in staged:
            self.lines += operand.declarations(inner, k.var, k_begin, thread, element, slot)

        def staging(at: str, first: str, what: str) -> list[str]:
            """`what` for each operand value of the step starting at `first` this thread stages: "load" into its
            registers, "store" them into buffer `at`."""
            out = []
            for operand in staged:
                out += operand.load(body, first, k.var, k.ctype, k_end, thread, element, slot, lane, zero, firsts) \
                    if what == "load" else operand.store(body, at, thread, element, slot, lane)
            return out

        def values(name: str, tile_name: str, threads_along: str, count: int, at: str) -> list[str]:
            if width == 1:
                return [f"{at}    #pragma unroll",
                        f"{at}    for (int {m} = 0; {m} < {per}; ++{m}) {name}[{m}] = "
                        f"{tile_name}[{buffer}][{kk}][{m} * {count} + {threads_along}];"]
            lanes = f"optiml_lanes<{acc_type}, {width}>"
            group, loaded = names.scoped("group"), names.scoped("loaded")
            return [f"{at}    #pragma unroll",
                    f"{at}    for (int {group} = 0; {group} < {per // width}; ++{group}) {{",
                    f"{at}        const {lanes} {loaded} = *reinterpret_cast<const {lanes}*>(&{tile_name}[{buffer}]"
                    f"[{kk}][{group} * {count * width} + {threads_along} * {width}]);",
                    f"{at}        #pragma unroll",
                    f"{at}        for (int {m} = 0; {m} < {width}; ++{m}) {name}[{group} * {width} + {m}] = "
                    f"{loaded}.v[{m}];",
                    f"{at}    }}"]

        self.lines.append(f"{inner}// The first step, staged.")
        self.lines.append(f"{inner}{{")
        self.lines += staging("0", k_begin, "load")
        self.lines += staging("0", k_begin, "store")
        self.lines += [f"{inner}}}", f"{inner}__syncthreads();", f"{inner}int {buffer} = 0;",
                       f"{inner}for ({k.ctype} {k_step} = {k_begin}; {k_step} < {k_end}; "
                       f"{k_step} += {step}) {{",
                       f"{body}// The next step's values, read while this step's multiply-adds run.",
                       f"{body}const bool {more} = {k_step} + {step} < {k_end};",
                       f"{body}if ({more}) {{"]
        self.lines += ["    " + line for line in staging(buffer, f"{k_step} + {step}", "load")]

        def multiply_adds(at: str, step_at: str | None) -> list[str]:
            """The step's multiply-adds; with `step_at` (the name of the step's loop value), each only where the
            output's own range holds the step."""
            add = [f"{at}        for (int {n} = 0; {n} < {per}; ++{n}) {partial}[{m}][{n}] += {term};"]
            if step_at is not None:
                point = {i.name: Ref(name=f"({i_block} + {owned(m, 'threadIdx.y', threads_y)})"),
                         j.name: Ref(name=f"({j_block} + {owned(n, 'threadIdx.x', threads_x)})")}
                add = [f"{at}        for (int {n} = 0; {n} < {per}; ++{n})",
                       f"{at}            if ({step_at} >= {c_operand(substitute(k.start, point))} && "
                       f"{step_at} < {c_operand(substitute(k.stop, point))}) {partial}[{m}][{n}] += {term};"]
            return [f"{at}#pragma unroll",
                    f"{at}for (int {kk} = 0; {kk} < {step}; ++{kk}) {{",
                    f"{at}    {acc_type} {', '.join(f'{values}[{per}]' for *_, values in operands)};",
                    *(line for side, _, tile_name, values_name in operands
                      for line in values(values_name, tile_name, *sides[side][6:], at)),
                    *([f"{at}    const {k.ctype} {step_at} = {k_step} + {kk};"] if step_at is not None else []),
                    f"{at}    #pragma unroll",
                    f"{at}    for (int {m} = 0; {m} < {per}; ++{m})",
                    f"{at}        #pragma unroll",
                    *add,
                    f"{at}}}"]

        self.lines.append(f"{body}}}")
        if found.ranged:
            self.lines += [f"{body}if ({k_step} >= {inside_begin} && {k_step} + {step} <= {inside_end}) {{",
                           *multiply_adds(body + "    ", None),
                           f"{body}}} else {{   // a step at an end of the tile's range: each output its own",
                           *multiply_adds(body + "    ", names(k.var)),
                           f"{body}}}"]
        else:
            self.lines += multiply_adds(body, None)
        self.lines += [f"{body}if ({more}) {{"]
        self.lines += ["    " + line for line in staging(f"1 - {buffer}", "", "store")]
        self.lines += [
            f"{body}}}",
            f"{body}__syncthreads();   // the other buffer is complete; this one may be written again",
            f"{body}{buffer} = 1 - {buffer};",
            f"{inner}}}"]
        if s.splits > 1 and columns is None:
            self.split_k_finish(inner, partial, per, acc_type, thread, i_block)
        # Each output's own code: the declarations before the loop, the loop's sum, the code after it.
        position = program.body.index(found.loop)
        epilogue = program.body[:position] + [Assign(name=found.accumulator, op="+=",
                                                     value=Ref(name=f"{partial}[{m}][{n}]"))] + \
            program.body[position + 1:]
        if columns is not None:
            # The code ends in the row's value's update (`best = fmaxf(best, v)`, `if (v > best) best = v;`): made
            # to this thread's value of its row.
            value, mine = columns.reduction.variable, Ref(name=f"{self.row_values}[{m}]")
            epilogue[-1:] = statements_replaced(substituted(epilogue[-1:], {value: mine}), lambda stmt: [
                stmt.model_copy(update={"name": mine.name})] if isinstance(stmt, Assign) and stmt.name == value
                else None)
        vector_store = self.vector_epilogue(epilogue, j.name, width)
        row_atomic = self.row_atomic(epilogue, j.name)
        # The divisions of a column (an implicit GEMM's batch and pixel) computed once for each of the thread's
        # columns, not again for each of its rows under each output's bounds test, where the compiler keeps them.
        scalars = {p.name for p in program.scalars}
        digits = list(dict.fromkeys(digit for stmt in walk(epilogue) for e in statement_exprs(stmt)
                                    for digit in _point_digits(e, j.name, k.var, scalars)))
        if digits:
            held = {digit: (names(f"{j.name}_digit"), _digit_type(digit, program, jtype)) for digit in digits}
            self.lines += [
                *(f"{inner}{ctype} {name}[{per}];" for name, ctype in held.values()),
                f"{inner}#pragma unroll",
                f"{inner}for (int {n} = 0; {n} < {per}; ++{n}) {{",
                f"{inner}    const {jtype} {j.name} = {j_block} + {owned(n, 'threadIdx.x', threads_x)};",
                *(f"{inner}    {name}[{n}] = {c_expr(digit)};" for digit, (name, _) in held.items()),
                f"{inner}}}"]
            from_registers = _from_registers({digit: (f"{name}[{n}]", ctype) for digit, (name, ctype) in held.items()},
                                             jtype)
            epilogue = rewritten(epilogue, from_registers)
            if vector_store is not None:
                vector_store = (rewritten([vector_store[0]], from_registers)[0], vector_store[1])
        if row_atomic is not None:
            # Every output of a row adds into one element (`atomicAdd(&y[row], f(dot))`): the row's outputs of the
            # tile summed by each thread, then across the threads sharing the row (neighbouring lanes of a warp),
            # one atomic a row a warp instead of one an output.
            atomic = epilogue[-1]
            ctype = program.element_type(atomic.array)
            total = names("row_total")
            lanes = min(threads_x, 32)
            self.lines += [
                f"{inner}#pragma unroll",
                f"{inner}for (int {m} = 0; {m} < {per}; ++{m}) {{",
                f"{inner}    const {itype} {i.name} = {i_block} + {owned(m, 'threadIdx.y', threads_y)};",
                f"{inner}    {ctype} {total} = {identity('+', ctype)};",
                f"{inner}    #pragma unroll",
                f"{inner}    for (int {n} = 0; {n} < {per}; ++{n}) {{",
                f"{inner}        const {jtype} {j.name} = {j_block} + {owned(n, 'threadIdx.x', threads_x)};",
                f"{inner}        if ({i.name} < {iupper} && {j.name} < {jupper}) {{",
                *c_statements(epilogue[:-1], inner + "            "),
                f"{inner}            {total} += {c_expr(atomic.value)};",
                f"{inner}        }}",
                f"{inner}    }}",
                *self.lanes_combined(inner + "    ", "+", ctype, total, lanes),
                f"{inner}    if (threadIdx.x % {lanes} == 0 && {i.name} < {iupper}) "
                f"atomicAdd(&{atomic.array}[{c_expr(row_atomic)}], {total});",
                f"{inner}}}"]
        elif vector_store is None:
            self.lines += [
                f"{inner}#pragma unroll",
                f"{inner}for (int {m} = 0; {m} < {per}; ++{m}) {{",
                f"{inner}    #pragma unroll",
                f"{inner}    for (int {n} = 0; {n} < {per}; ++{n}) {{",
                f"{inner}        const {itype} {i.name} = {i_block} + {owned(m, 'threadIdx.y', threads_y)};",
                f"{inner}        const {jtype} {j.name} = {j_block} + {owned(n, 'threadIdx.x', threads_x)};",
                f"{inner}        if ({i.name} < {iupper} && {j.name} < {jupper}) {{",
                *c_statements(epilogue, inner + "            "),
                f"{inner}        }}",
                f"{inner}    }}",
                f"{inner}}}"]
        else:
            # A group's `width` neighbouring outputs are neighbouring elements of the output: stored as one vector
            # where the group is inside and aligned, each output's own code run first.
            store, first_index = vector_store
            group, first, out = names("group"), names(f"{j.name}_first"), names("outputs")
            element = program.element_type(store.array)
            self.lines += [
                f"{inner}#pragma unroll",
                f"{inner}for (int {m} = 0; {m} < {per}; ++{m}) {{",
                f"{inner}    const {itype} {i.name} = {i_block} + {owned(m, 'threadIdx.y', threads_y)};",
                f"{inner}    #pragma unroll",
                f"{inner}    for (int {group} = 0; {group} < {per // width}; ++{group}) {{",
                f"{inner}        const {jtype} {first} = {j_block} + "
                f"{owned(f'{group} * {width}', 'threadIdx.x', threads_x)};",
                f"{inner}        if ({i.name} < {iupper} && {first} + {width} <= {jupper} && "
                f"optiml_aligned(&{store.array}[{c_expr(substitute(first_index, {j.name: Ref(name=first)}))}], "
                f"{element_bytes(program, store.array) * width})) {{",
                f"{inner}            optiml_lanes<{element}, {width}> {out};",
                f"{inner}            #pragma unroll",
                f"{inner}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
                f"{inner}                const int {n} = {group} * {width} + {lane};",
                f"{inner}                const {jtype} {j.name} = {first} + {lane};",
                *c_statements(epilogue[:-1], inner + "                "),
                f"{inner}                {out}.v[{lane}] = {c_expr(store.value)};",
                f"{inner}            }}",
                f"{inner}            *reinterpret_cast<optiml_lanes<{element}, {width}>*>(&{store.array}["
                f"{c_expr(substitute(first_index, {j.name: Ref(name=first)}))}]) = {out};",
                f"{inner}        }} else {{",
                f"{inner}            #pragma unroll",
                f"{inner}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
                f"{inner}                const int {n} = {group} * {width} + {lane};",
                f"{inner}                const {jtype} {j.name} = {first} + {lane};",
                f"{inner}                if ({i.name} < {iupper} && {j.name} < {jupper}) {{",
                *c_statements(epilogue, inner + "                    "),
                f"{inner}                }}",
                f"{inner}            }}",
                f"{inner}        }}",
                f"{inner}    }}",
                f"{inner}}}"]
        if columns is not None:
            self.lines.append(f"{indent}    }}")
            self.rows_finished(indent + "    ", (i, i_block, itype, iupper), owned(m, "threadIdx.y", threads_y), m,
                               threads_x)
        self.lines += [f"{indent}}}"]
        self.lines += closing
        if columns is not None:
            # x: the blocks sharing a row tile's columns; y: row tiles; z: the batch.
            self.grid = [self.split_layers(self.extent(0), self.split_rows) if s.splits > 1 else "1",
                         f"min(cdiv(max({self.extent(i_axis)},1),{tile_i}),{GRID_YZ_LIMIT})",
                         *([self.grid_z] if len(program.space) == 3 else [])]
            return
        self.tiled_grid(j_axis, i_axis, tile_j, tile_i)
        if s.splits > 1:
            self.grid.append(self.split_layers(self.tiles_text, self.split_tiles))

    def columns_walked(self, at: str, row: tuple[ParallelIndex, str, str, str], column: tuple[str, str, str, str],
                       position: str, m: str) -> list[str]:
        """A column walk's start, inside the loop over row tiles: each thread's value of each of its rows (the
        reduction's identity, or for a maximum or a minimum the row's first value, which it may take again), then
        the loop over the column tiles this block walks (the grid's x shares them)."""
        s, columns = self.schedule, self.shape.contraction.columns
        index, first, itype, iupper = row
        j_block, jtype, jlower, jupper = column
        op, value = columns.reduction.op, columns.reduction.variable
        start = identity(op, columns.ctype)
        stride = self.splits if s.splits > 1 else "gridDim.x"
        lines = [f"{at}{columns.ctype} {self.row_values}[{s.items}];   // this thread's value of each of its rows "
                 f"over the columns it walks",
                 f"{at}#pragma unroll",
                 f"{at}for (int {m} = 0; {m} < {s.items}; ++{m}) {{"]
        if start is not None:
            lines.append(f"{at}    {self.row_values}[{m}] = {start};")
        else:
            lines += [f"{at}    const {itype} {index.name} = {first} + {position};",
                      f"{at}    {self.row_values}[{m}] = ({columns.ctype})0;",
                      f"{at}    if ({index.name} < {iupper}) {{",
                      *c_statements(list(columns.before), at + "        "),
                      f"{at}        {self.row_values}[{m}] = {value};",
                      f"{at}    }}"]
        return lines + [
            f"{at}}}",
            f"{at}for ({jtype} {j_block} = {jlower}blockIdx.x * {s.output_tile()[1]}; {j_block} < {jupper}; "
            f"{j_block} += {stride} * {s.output_tile()[1]}) {{"]

    def rows_finished(self, at: str, row: tuple[ParallelIndex, str, str, str], position: str, m: str,
                      lanes: int) -> None:
        """After a column walk: each row's value combined across the lanes of the threads sharing the row (a
        warp's neighbouring lanes, each then holding it), then across the blocks sharing the row (the row's first
        thread publishes, the last block to arrive combines them all in block order, the same result every run,
        and passes it to the row's other lanes), then the row's own code: the code before the loop, the row's value
        combined into its first value, the code after the loop. Where that code is declarations, loops each of
        whose iterations writes its own elements (a residual's) and reduces into locals (a softmax's sum of
        exponentials), and stores (`_lanes_share`), every lane of the row runs it (`row_code_shared`), the loops'
        iterations strided across them and the stores the first lane's; otherwise the first lane runs it all."""
        s, columns = self.schedule, self.shape.contraction.columns
        index, first, itype, iupper = row
        op, value, ctype = columns.reduction.op, columns.reduction.variable, columns.ctype
        names = self.names
        total, other = names("row_total"), names.scoped("other")
        shared = _lanes_share(list(columns.after))
        if columns.rereads:
            # A row's outputs are stored by its threads, all of one warp (`threads_x <= 32`), and read back below.
            self.lines.append(f"{at}__syncwarp();   // the outputs the warp stored are visible to its lanes")
        self.lines += [
            f"{at}// Each row's value: its threads' values combined across their lanes, then the row's own code.",
            f"{at}#pragma unroll",
            f"{at}for (int {m} = 0; {m} < {s.items}; ++{m}) {{",
            f"{at}    const {itype} {index.name} = {first} + {position};",
            f"{at}    {ctype} {total} = {self.row_values}[{m}];",
            *self.lanes_combined(at + "    ", op, ctype, total, lanes)]
        if s.splits > 1:
            last, slot, arrived, block = names("last"), names("row_slot"), names("arrived"), names.scoped("block")
            partials = self.partials[value]
            lower = c_expr(index.lower)
            self.lines += [
                f"{at}    bool {last} = true;",
                f"{at}    if ({self.splits} > 1 && threadIdx.x == 0 && {index.name} < {iupper}) {{",
                f"{at}        const int {slot} = {index.name}{'' if lower == '0' else f' - ({lower})'};",
                f"{at}        {partials}[{slot} * {self.splits} + blockIdx.x] = {total};",
                f"{at}        __threadfence();   // the partial is visible before the count says so",
                f"{at}        const unsigned int {arrived} = atomicAdd(&{self.arrivals}[{slot}], 1u);",
                f"{at}        {last} = {arrived} == {self.splits} - 1;",
                f"{at}        if ({last}) {{",
                f"{at}            __threadfence();",
                f"{at}            {total} = __ldcg(&{partials}[{slot} * {self.splits}]);   // past L1: other blocks "
                f"wrote them",
                f"{at}            for (int {block} = 1; {block} < {self.splits}; ++{block}) {{",
                f"{at}                const {ctype} {other} = __ldcg(&{partials}[{slot} * {self.splits} + {block}]);",
                f"{at}                {total} = {combined(op, total, other)};",
                f"{at}            }}",
                f"{at}            {self.arrivals}[{slot}] = 0u;",
                f"{at}        }}",
                f"{at}    }}"]
            if shared:      # the first lane's word to the row's other lanes
                self.lines += [f"{at}    {last} = __shfl_sync(0xffffffffu, (int){last}, 0, {lanes});",
                               f"{at}    {total} = __shfl_sync(0xffffffffu, {total}, 0, {lanes});"]
        who = " && ".join(([] if shared else ["threadIdx.x == 0"]) + ([last] if s.splits > 1 else []) +
                          [f"{index.name} < {iupper}"])
        self.lines += [f"{at}    if ({who}) {{",
                       *c_statements(list(columns.before), at + "        "),
                       f"{at}        {value} = {combined(op, value, total)};",
                       *(self.row_code_shared(at + "        ", list(columns.after), lanes) if shared else
                         c_statements(list(columns.after), at + "        ")),
                       f"{at}    }}",
                       f"{at}}}"]

    def row_code_shared(self, at: str, code: list[Stmt], lanes: int) -> list[str]:
        """The row's own code run by all its lanes (`_lanes_share`): each loop's iterations strided across them, each
        of its reductions started from the identity on every lane but the first (a maximum or a minimum from its
        value, on every lane) and combined across the lanes after the loop, the lanes synchronized after each loop
        and each statement reading what the code stores (the next may read any lane's elements, or store where
        another lane read); stores outside the loops the first lane's. The row's
        lanes may be a part of a warp whose other rows are done (`if` on the row's bound): the shuffles and the
        barriers name the row's lanes alone."""
        types = {stmt.name: stmt.ctype for stmt in code if isinstance(stmt, Let)}
        stored = {stmt.array for stmt in walk(code) if isinstance(stmt, Store)}
        mask = "0xffffffffu" if lanes == 32 else f"(({(1 << lanes) - 1}u) << ((threadIdx.y * {lanes}) % 32))"
        lines = []
        for stmt in code:
            reductions = loop_reductions(stmt) if isinstance(stmt, For) else []
            for reduction in reductions:
                start = identity(reduction.op, types[reduction.variable])
                if start is not None:
                    lines.append(f"{at}if (threadIdx.x != 0) {reduction.variable} = {start};   // the first lane's "
                                 f"value alone counts once")
            lines += c_statements(_lanes_strided([stmt], lanes), at)
            for reduction in reductions:
                lines += self.lanes_combined(at, reduction.op, types[reduction.variable], reduction.variable, lanes,
                                             mask)
            if stored and (isinstance(stmt, For) or {load.array for load in all_loads([stmt])} & stored):
                # What a lane stored visible to the others, and what it read read before another lane stores there.
                lines.append(f"{at}__syncwarp({mask});")
        return lines

    def lanes_combined(self, at: str, op: str, ctype: str, value: str, lanes: int,
                       mask: str = "0xffffffffu") -> list[str]:
        """`value` combined by `op` across each aligned group of `lanes` neighbouring lanes of the warp (a row's
        threads), every lane of the group then holding the group's result; `mask` the lanes taking part (the whole
        warp, or the group alone)."""
        offset, other = self.names.scoped("offset"), self.names.scoped("other")
        return [f"{at}#pragma unroll",
                f"{at}for (int {offset} = {lanes // 2}; {offset} > 0; {offset} /= 2) {{",
                f"{at}    const {ctype} {other} = __shfl_xor_sync({mask}, {value}, {offset});",
                f"{at}    {value} = {combined(op, value, other)};",
                f"{at}}}"]

    def vector_epilogue(self, epilogue: list[Stmt], j: str, width: int) -> tuple[Store, Expr] | None:
        """The epilogue's one store and its index (the epilogue's locals inlined) where a group of `width` outputs
        neighbouring along j may store as one vector: the epilogue ends in a plain store whose index reads j at unit
        stride, of an element `width` of which make 8 or 16 bytes, after declarations and assignments alone (no
        loops, branches, atomics or other stores); None otherwise."""
        *before, store = epilogue
        if self.schedule.splits > 1 or width < 2 or not isinstance(store, Store) or store.op != "=" or \
                not all(isinstance(stmt, (Let, Assign)) for stmt in before) or \
                element_bytes(self.program, store.array) * width not in (8, 16):
            return None
        index = inlined(store.index, single_assignments(before))
        if names_of(index) & {stmt.name for stmt in before} or not unit_stride(index, j):
            return None
        return store, index

    def row_atomic(self, epilogue: list[Stmt], j: str) -> Expr | None:
        """The index of the epilogue's one atomicAdd (its locals inlined) where it reads neither j nor a local: every
        output of a row adds into the same element, after declarations and assignments alone, of a type the warp's
        shuffles carry; None otherwise."""
        *before, atomic = epilogue
        if not isinstance(atomic, Atomic) or atomic.function != "atomicAdd" or \
                not all(isinstance(stmt, (Let, Assign)) for stmt in before) or \
                self.program.element_type(atomic.array) not in SHUFFLED_TYPES:
            return None
        index = inlined(atomic.index, single_assignments(before))
        if j in names_of(index) or names_of(index) & {stmt.name for stmt in before}:
            return None
        return index

    def tile_range(self, indent: str, rows: tuple[str, str, str, int], columns: tuple[str, str, str, int],
                   range_names: tuple[str, str, str, str]) -> list[str]:
        """A ranged contraction's steps over the tile whose first row and column are given (each with its type, the
        index's bound and the tile's extent): from the least first step of its points to the greatest last, and the
        steps inside every point's range. The bounds are affine in the two indices, so each extreme is at a corner
        of the tile's points."""
        found = self.shape.contraction
        k = found.loop
        i, j = self.program.space[-2].name, self.program.space[-1].name
        begin, end, inside_begin, inside_end = range_names
        lines, corners = [], []
        for (first, ctype, upper, extent), index in ((rows, i), (columns, j)):
            last = self.names(f"{index}_last")
            lines.append(f"{indent}const {ctype} {last} = min(({ctype})({first} + {extent}), ({ctype})({upper})) - 1;")
            corners.append((first, last))

        def at_corners(bound: Expr, pick: str) -> str:
            values = [f"({k.ctype})({c_operand(substitute(bound, {i: Ref(name=a), j: Ref(name=b)}))})"
                      for a in corners[0] for b in corners[1]]
            return f"{pick}({pick}({values[0]}, {values[1]}), {pick}({values[2]}, {values[3]}))"

        return lines + [
            f"{indent}// The steps some point of the tile takes, and those every point takes.",
            f"{indent}const {k.ctype} {begin} = {at_corners(k.start, 'min')};",
            f"{indent}const {k.ctype} {end} = {at_corners(k.stop, 'max')};",
            f"{indent}const {k.ctype} {inside_begin} = {at_corners(k.start, 'max')};",
            f"{indent}const {k.ctype} {inside_end} = {at_corners(k.stop, 'min')};"]

    def split_k_setup(self, indent: str, k_begin: str, k_end: str) -> None:
        """blockIdx.z: which share of the loop this block takes (whole steps of k_tile). Workspace for every
        output tile at the contract's sizes; past it, one share (the grid has one z layer)."""
        s, program, found = self.schedule, self.program, self.shape.contraction
        k, space = found.loop, program.space
        rows, columns = s.output_tile()
        self.tiles_text = (f"cdiv(max({self.extent(len(space) - 2)},1),{rows})*"
                           f"cdiv(max({self.extent(len(space) - 1)},1),{columns})")
        acc_type = reduction_type(program, Reduction(found.accumulator, "+"))
        acc_dtype = dtype_of(acc_type)
        tiles = self.split_tiles = self.split_capacity(self.tiles_text, rows * columns,
                                                       itemsize(acc_dtype) if acc_dtype else 8)
        self.split_workspace(indent, "tile", tiles, {found.accumulator: (acc_type, rows * columns)},
                             self.tile_count(), "z")
        share = self.names(f"{k.var}_share")
        start, stop = c_operand(k.start), c_operand(k.stop)
        self.lines += [
            f"{indent}// This block's share of the loop: whole steps of {s.k_tile}.",
            f"{indent}const {k.ctype} {share} = ((({stop}) - ({start}) + {self.splits} - 1) / {self.splits} + "
            f"{s.k_tile - 1}) / {s.k_tile} * {s.k_tile};",
            f"{indent}const {k.ctype} {k_begin} = {start} + blockIdx.z * {share};",
            f"{indent}const {k.ctype} {k_end} = {k_begin} + {share} < {stop} ? {k_begin} + {share} : {stop};"]

    def tile_count(self) -> str:
        """The output tiles of a 2-D contraction, as C."""
        s, program = self.schedule, self.program
        _, _, iupper = self.bounds(len(program.space) - 2)
        _, _, jupper = self.bounds(len(program.space) - 1)
        ilower = c_expr(program.space[-2].lower)
        jlower = c_expr(program.space[-1].lower)
        rows, columns = s.output_tile()
        return (f"((({iupper}) - ({ilower}) + {rows - 1}) / {rows}) * "
                f"((({jupper}) - ({jlower}) + {columns - 1}) / {columns})")

    def split_k_finish(self, indent: str, partial: str, per: int, acc_type: str, thread: str, i_block: str) -> None:
        """Each block publishes its partial tile; the tile's last block to arrive adds them all, in block order
        (the same sum every run), into its own partial, which the outputs' code then takes."""
        s, program = self.schedule, self.program
        names = self.names
        tile_id, last, arrived, block, m, n = (names("tile_id"), names("last_block"), names("arrived"),
                                               names("block"), names.scoped("m"), names.scoped("n"))
        partials = self.partials[self.shape.contraction.accumulator]
        ilower = c_expr(program.space[-2].lower)
        offset = "" if ilower == "0" else f" - ({ilower})"
        at = f"(({tile_id} * {self.splits} + {{split}}) * {s.threads()} + {thread}) * {per * per} + {m} * {per} + {n}"
        self.lines += [
            f"{indent}if ({self.splits} > 1) {{",
            f"{indent}    const int {tile_id} = (({i_block}{offset}) / {s.output_tile()[0]}) * gridDim.x + blockIdx.x;",
            f"{indent}    #pragma unroll",
            f"{indent}    for (int {m} = 0; {m} < {per}; ++{m})",
            f"{indent}        #pragma unroll",
            f"{indent}        for (int {n} = 0; {n} < {per}; ++{n}) {partials}[{at.format(split='blockIdx.z')}] = "
            f"{partial}[{m}][{n}];",
            f"{indent}    __threadfence();   // the partials are visible before the count says so",
            f"{indent}    __shared__ bool {last};",
            f"{indent}    __syncthreads();",
            f"{indent}    if ({thread} == 0) {{",
            f"{indent}        const unsigned int {arrived} = atomicAdd(&{self.arrivals}[{tile_id}], 1u);",
            f"{indent}        {last} = {arrived} == {self.splits} - 1;",
            f"{indent}        if ({last}) {self.arrivals}[{tile_id}] = 0u;",
            f"{indent}    }}",
            f"{indent}    __syncthreads();",
            f"{indent}    if (!{last}) continue;   // another block finishes this tile",
            f"{indent}    __threadfence();",
            f"{indent}    #pragma unroll",
            f"{indent}    for (int {m} = 0; {m} < {per}; ++{m})",
            f"{indent}        #pragma unroll",
            f"{indent}        for (int {n} = 0; {n} < {per}; ++{n}) {{",
            f"{indent}            {partial}[{m}][{n}] = __ldcg(&{partials}[{at.format(split='0')}]);",
            f"{indent}            for (int {block} = 1; {block} < {self.splits}; ++{block}) {partial}[{m}][{n}] += "
            f"__ldcg(&{partials}[{at.format(split=block)}]);",
            f"{indent}        }}",
            f"{indent}}}"]

    # -- privatize ------------------------------------------------------------------------------------------------

    def privatize(self) -> None:
        if self.schedule.target_copy == "shared":
            self.shared_copy()
        elif self.schedule.target_copy == "runs":
            self.run_sums()
        else:
            self.register_sums()

    def points_loop(self, body: list[Stmt]) -> None:
        """Chunks of `threads x items` points, a block each; with `resident`, a capped grid whose blocks walk the
        chunks grid-stride."""
        s, inner = self.schedule, self.program.space[0]
        ctype, lower, upper = self.bounds(0)
        per_chunk = s.block[0] * s.items
        points = f"cdiv(max({self.extent(0)},1),{per_chunk})"
        indent, chunk = "    ", "blockIdx.x"
        if s.resident:
            chunk, chunks = self.names("chunk"), self.names("chunks")
            span = f"(long long)({upper})" + (f" - (long long)({c_expr(inner.lower)})" if lower else "")
            self.lines += [f"    const long long {chunks} = ({span} + {per_chunk - 1}) / {per_chunk};",
                           f"    for (long long {chunk} = blockIdx.x; {chunk} < {chunks}; {chunk} += gridDim.x) {{"]
            indent = "        "
        if s.vector > 1:
            self.vector_points(inner, ctype, lower, upper, indent, body, conditions=True, chunk=chunk)
        else:
            self.lines.append(f"{indent}// {s.items} point{'s' if s.items > 1 else ''} per thread, a block's points "
                              f"contiguous.")
            self.scalar_points(inner, ctype, lower, upper, indent, body, chunk=chunk)
        if s.resident:
            self.lines.append("    }")
            points = f"min({points},{s.resident * SM_COUNT})"
        self.grid = [points]

    def shared_copy(self) -> None:
        """A zeroed copy of the target array per block in shared memory takes the block's atomics; the block then
        adds each nonzero element to the target with one atomic."""
        program, target = self.program, self.shape.shared_target
        spec = next(a for a in self.base.contract.arrays if a.param == target)
        element = program.element_type(target)
        length = self.array_length(target)
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

    def run_sums(self) -> None:
        """Each thread sums the contributions of its run of points adding into one element in a register (its
        element kept beside it, -1 before the first), adding the sum with one atomic when the element changes; at
        the end the warp's sums go into one atomic where its lanes' elements agree (its lanes lie along the
        innermost index, sharing the outer indices the element is a function of, schedule.py `_run_atomics`; only a
        thread walking several outer indices past the grid's limit may end on an element its neighbours skipped),
        else each lane adds its own, and the block's thread 0 adds the warps' sums, one atomic for each run of warps
        of one element (a per-sample sum of a 2-D grid: one atomic per block)."""
        s, program = self.schedule, self.program
        self.use("+")
        self.use("max")
        runs: dict[tuple[str, Expr], tuple[str, str]] = {}
        for atomic in self.shape.run_atomics:
            element, sum_ = self.names(f"{atomic.array}_element"), self.names(f"{atomic.array}_sum")
            runs[(atomic.array, atomic.index)] = (element, sum_)
            self.lines += [f"    long long {element} = -1;",
                           f"    {program.element_type(atomic.array)} {sum_} = 0;"]
        inner = program.space[-1]
        ctype, lower, upper = self.bounds(len(program.space) - 1)
        opening, indent, closing = self.outer_loops("    ", middle="blockIdx.y * blockDim.y + threadIdx.y")
        self.lines += opening
        self.scalar_points(inner, ctype, lower, upper, indent, _atomics_in_runs(program.body, runs, program,
                                                                                self.names))
        self.lines += closing
        thread, lane, warp = self.names("thread"), self.names("lane"), self.names("warp")
        warps = s.threads() // 32
        self.lines += [f"    const int {thread} = threadIdx.y * blockDim.x + threadIdx.x;",
                       f"    const int {lane} = {thread} % 32, {warp} = {thread} / 32;"]
        for (array, _), (element, sum_) in runs.items():
            ctype_sum = program.element_type(array)
            top, elements, sums, at, total, w = (self.names(n) for n in (
                f"{element}_top", f"{element}s", f"{sum_}s", f"{element}_at", f"{sum_}_total", "w"))
            self.lines += [
                "    // The warp's sums into one atomic where its lanes' elements agree, else each lane's own.",
                f"    const long long {top} = optiml_warp_max({element});",
                f"    if (__all_sync(0xffffffffu, {element} == {top} || {element} < 0)) {{",
                f"        {sum_} = optiml_warp_sum({sum_});",
                f"        {element} = {lane} == 0 ? {top} : -1;",
                "    } else if (" + element + " >= 0) {",
                f"        atomicAdd(&{array}[{element}], {sum_});",
                f"        {element} = -1;",
                "    }",
                f"    __shared__ long long {elements}[{warps}];",
                f"    __shared__ {ctype_sum} {sums}[{warps}];",
                f"    if ({lane} == 0) {{ {elements}[{warp}] = {element}; {sums}[{warp}] = {sum_}; }}",
                "    __syncthreads();",
                f"    if ({thread} == 0) {{",
                f"        long long {at} = -1;",
                f"        {ctype_sum} {total} = 0;",
                f"        for (int {w} = 0; {w} < {warps}; ++{w}) {{",
                f"            if ({elements}[{w}] < 0) continue;",
                f"            if ({elements}[{w}] != {at}) {{",
                f"                if ({at} >= 0) atomicAdd(&{array}[{at}], {total});",
                f"                {at} = {elements}[{w}];",
                f"                {total} = 0;",
                "            }",
                f"            {total} += {sums}[{w}];",
                "        }",
                f"        if ({at} >= 0) atomicAdd(&{array}[{at}], {total});",
                "    }"]
        self.space_grid(s.block[0] * s.items, s.block[1])

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
        # The rows' step is the block's height as a constant, so that the loop unrolls and a thread's reads are all
        # in flight at once (a loop over blockDim.y issued them one at a time).
        rows = s.block[1]
        if s.vector > 1:
            self.stage_vectors(tiles, (q, qtype, qupper, q_tile), (p, ptype, pupper, p_tile), row, inner)
            self.lines.append(f"{indent}}}")
            self.lines += closing
            self.tiled_grid(write_axis, read_axis, tile)
            return
        self.lines.append(f"{inner}#pragma unroll")
        self.lines.append(f"{inner}for (int {row} = threadIdx.y; {row} < {tile}; {row} += {rows}) {{")
        self.lines += [f"{inner}    const {ptype} {p.name} = {p_tile} + threadIdx.x;",
                       f"{inner}    const {qtype} {q.name} = {q_tile} + {row};",
                       f"{inner}    if ({p.name} < {pupper} && {q.name} < {qupper}) {{"]
        for load, ref in tiles.items():
            name = ref.name.split("[")[0]
            self.lines.append(f"{inner}        {name}[{row}][threadIdx.x] = {c_expr(load)};")
        self.lines += [f"{inner}    }}", f"{inner}}}", f"{inner}__syncthreads();"]
        self.lines += [f"{inner}#pragma unroll",
                       f"{inner}for (int {row} = threadIdx.y; {row} < {tile}; {row} += {rows}) {{",
                       f"{inner}    const {ptype} {p.name} = {p_tile} + {row};",
                       f"{inner}    const {qtype} {q.name} = {q_tile} + threadIdx.x;",
                       f"{inner}    if ({p.name} < {pupper} && {q.name} < {qupper}) {{",
                       *c_statements(_replaced(program.body, tiles, {}), inner + "        "),
                       f"{inner}    }}", f"{inner}}}",
                       f"{inner}__syncthreads();   // the tile is loaded again for the next rows"]
        self.lines.append(f"{indent}}}")
        self.lines += closing
        self.tiled_grid(write_axis, read_axis, tile)

    def stage_vectors(self, tiles: dict[Load, Expr], q_axis: tuple, p_axis: tuple, row: str, indent: str) -> None:
        """stage with `vector` consecutive elements a thread: each staged read `vector` consecutive elements along
        its unit stride (p) as one access, and each point's writes (and the other reads unit-stride along q)
        `vector` consecutive q as one; element by element where a group is not whole or not aligned."""
        s, program = self.schedule, self.program
        tile, rows, width = s.tile, s.block[1], s.vector
        (q, qtype, qupper, q_tile), (p, ptype, pupper, p_tile) = q_axis, p_axis
        if not all(unit_stride(load.index, p.name) for load in tiles):
            raise EmitError("vector staging needs every staged read unit-stride along its axis")
        self.use("lanes")
        first, lane = self.names(f"{p.name}_first"), self.names.scoped("e")
        tile_of = {load: ref.name.split("[")[0] for load, ref in tiles.items()}
        at_p = _renamed({p.name: Const(text=first)})
        aligned = " && ".join(f"optiml_aligned(&{load.array}[{c_expr(load.index, at_p)}], "
                              f"{element_bytes(program, load.array) * width})" for load in tiles)
        lanes = {load: self.names(f"{load.array}_lanes") for load in tiles}
        kinds = {load: f"optiml_lanes<{program.element_type(load.array)}, {width}>" for load in tiles}
        self.lines += [
            f"{indent}#pragma unroll",
            f"{indent}for (int {row} = threadIdx.y; {row} < {tile}; {row} += {rows}) {{",
            f"{indent}    const {qtype} {q.name} = {q_tile} + {row};",
            f"{indent}    const {ptype} {first} = {p_tile} + threadIdx.x * {width};",
            f"{indent}    if ({q.name} < {qupper}) {{",
            f"{indent}        if ({first} + {width} <= {pupper} && {aligned}) {{",
            *[f"{indent}            const {kinds[load]} {lanes[load]} = *reinterpret_cast<const {kinds[load]}*>("
              f"&{load.array}[{c_expr(load.index, at_p)}]);" for load in tiles],
            f"{indent}            #pragma unroll",
            f"{indent}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            *[f"{indent}                {tile_of[load]}[{row}][threadIdx.x * {width} + {lane}] = "
              f"{lanes[load]}.v[{lane}];" for load in tiles],
            f"{indent}            }}",
            f"{indent}        }} else {{",
            f"{indent}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}                const {ptype} {p.name} = {first} + {lane};",
            f"{indent}                if ({p.name} < {pupper}) {{",
            *[f"{indent}                    {tile_of[load]}[{row}][threadIdx.x * {width} + {lane}] = "
              f"{c_expr(load)};" for load in tiles],
            f"{indent}                }}",
            f"{indent}            }}",
            f"{indent}        }}",
            f"{indent}    }}",
            f"{indent}}}",
            f"{indent}__syncthreads();"]
        # The points: `width` consecutive q a thread, their tile elements read down a column.
        first = self.names(f"{q.name}_first")
        body = _replaced(program.body, {load: Ref(name=f"{name}[threadIdx.x * {width} + {lane}][{row}]")
                                        for load, name in tile_of.items()}, {})
        outside = {i.name for i in program.space} | {parameter.name for parameter in program.scalars}
        reads, stores = vector_accesses(body, q.name, conditions=False, eligible=lambda array, index:
                                        names_of(index) <= outside and self.vector_bytes(array) in (4, 8, 16))
        at_q = _renamed({q.name: Const(text=first)})
        setup, finish, loads_to, stores_to = self.lane_registers(reads, stores, at_q, lane, indent + "            ",
                                                                 self.names)
        whole = " && ".join([f"{first} + {width} <= {qupper}",
                             *dict.fromkeys(self.aligned(access, at_q) for access in [*reads, *stores])])
        self.lines += [
            f"{indent}#pragma unroll",
            f"{indent}for (int {row} = threadIdx.y; {row} < {tile}; {row} += {rows}) {{",
            f"{indent}    const {ptype} {p.name} = {p_tile} + {row};",
            f"{indent}    const {qtype} {first} = {q_tile} + threadIdx.x * {width};",
            f"{indent}    if ({p.name} < {pupper}) {{",
            f"{indent}        if ({whole}) {{",
            *setup,
            f"{indent}            #pragma unroll",
            f"{indent}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}                const {qtype} {q.name} = {first} + {lane};",
            *c_statements(_replaced(body, loads_to, stores_to), indent + "                "),
            f"{indent}            }}",
            *finish,
            f"{indent}        }} else {{",
            f"{indent}            for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}                const {qtype} {q.name} = {first} + {lane};",
            f"{indent}                if ({q.name} < {qupper}) {{",
            *c_statements(body, indent + "                    "),
            f"{indent}                }}",
            f"{indent}            }}",
            f"{indent}        }}",
            f"{indent}    }}",
            f"{indent}}}",
            f"{indent}__syncthreads();   // the tile is loaded again for the next rows"]

    # -- stream -------------------------------------------------------------------------------------------------

    def stream(self) -> None:
        """A thread per point along x, each walking the point's code as written; each streamed loop a window at a
        time: the block's threads load the next elements of every point's rows into shared memory together
        (consecutive threads, consecutive elements), walk the window's iterations reading from it (a read outside
        it goes to global memory), and store the window's writes together."""
        program = self.program
        inner = program.space[-1]
        ctype, lower, upper = self.bounds(len(program.space) - 1)
        points = self.schedule.block[0]
        opening, indent, closing = self.outer_loops("    ", middle="blockIdx.y")
        self.lines += opening
        raw, first, self.active = self.names(f"{inner.name}_point"), self.names(f"{inner.name}_block"), \
            self.names("active")
        self.lines += [
            f"{indent}if ({upper} <= {c_expr(program.space[-1].lower)}) return;",
            f"{indent}// Threads past the last point walk the last point again (they meet the others at every window's "
            f"barriers) and write nothing.",
            f"{indent}const {ctype} {first} = {lower}blockIdx.x * blockDim.x;",
            f"{indent}const {ctype} {raw} = {first} + threadIdx.x;",
            f"{indent}const bool {self.active} = {raw} < {upper};",
            f"{indent}const {ctype} {inner.name} = {self.active} ? {raw} : {upper} - 1;"]
        streamed = {id(entry.loop): entry for entry in self.shape.streamed}
        for stmt in program.body:
            if id(stmt) in streamed:
                self.windowed_loop(streamed[id(stmt)], first, ctype, upper, indent)
            else:
                self.lines += c_statements(_guard_writes([stmt], self.active), indent)
        self.lines += closing
        self.space_grid(points)

    def windowed_loop(self, streamed: Streamed, first: str, ctype: str, upper: str, indent: str) -> None:
        program, loop, points = self.program, streamed.loop, self.schedule.block[0]
        step = constant(loop.step)
        width = -(-self.schedule.tile // step) * step        # the window: whole steps of the loop
        inner = program.space[-1].name
        names = self.names
        chunk, chunk_end = names(f"{loop.var}_window"), names(f"{loop.var}_window_end")
        element, point = names.scoped("e"), names.scoped("point")
        tiles: dict[tuple[str, Expr], str] = {}
        for window in streamed.windows():
            tiles[(window.array, window.rest)] = name = names(f"{window.array}_window")
            self.lines.append(f"{indent}__shared__ {program.element_type(window.array)} {name}[{points}]"
                              f"[{width + 1}];   // padded: a thread's row and its neighbour's in different banks")
        if points * (width + 1) * self.shape.window_bytes > STATIC_SHARED_BYTES:
            raise EmitError(f"windows of {width} elements for {points} points exceed {STATIC_SHARED_BYTES} bytes")

        def element_of(window: Window, var: Expr) -> str:
            return f"{tiles[(window.array, window.rest)]}[threadIdx.x][{c_expr(var)} - {chunk}]"

        reads: dict[Load, Expr] = {}
        for load, window in streamed.reads:
            var = Ref(name=window.var)
            if window.var == loop.var:
                reads[load] = Ref(name=element_of(window, var))     # the loop's own variable: always inside
            else:
                inside = Binary(op="&&", left=Binary(op=">=", left=var, right=Ref(name=chunk)),
                                right=Binary(op="<", left=var, right=Ref(name=f"{chunk} + {width}")))
                reads[load] = Select(cond=inside, then=Ref(name=element_of(window, var)), other=load)
        writes = {(store.array, store.index): element_of(window, Ref(name=loop.var))
                  for store, window in streamed.writes}
        body = _guard_writes(_replaced(loop.body, reads, writes), self.active)
        start, stop = c_operand(loop.start), c_operand(loop.stop)
        inside_indent = indent + "    "

        def window_sweep(what: str, clamped: bool, statement: Callable[[Window, str, str], str],
                         arrays: list[Window]) -> list[str]:
            """For each element of the window of every point of the block, consecutive threads consecutive
            elements: per window, its array position (the point's rest + the element's var) and `statement` of
            the window, its element in shared memory and that position's name."""
            out = [f"{inside_indent}// {what}",
                   f"{inside_indent}for (int {element} = threadIdx.x; {element} < {points * width}; "
                   f"{element} += {points}) {{",
                   f"{inside_indent}    const {ctype} {point} = {first} + {element} / {width} < {upper} ? "
                   f"{first} + {element} / {width} : {upper} - 1;   // past the last point: the last point's row"
                   if clamped else f"{inside_indent}    const {ctype} {point} = {first} + {element} / {width};",
                   f"{inside_indent}    const {loop.ctype} {loop.var} = {chunk} + {element} % {width};"]
            for window in arrays:
                position = Binary(op="+", left=Cast(ctype="long long", operand=window.rest), right=Ref(name=loop.var))
                tile = f"{tiles[(window.array, window.rest)]}[{element} / {width}][{element} % {width}]"
                at = names.scoped(f"{window.array}_at")
                out += [f"{inside_indent}    const long long {at} = {c_expr(position, {inner: point})};",
                        f"{inside_indent}    {statement(window, tile, at)}"]
            return out + [f"{inside_indent}}}"]

        read_windows = [w for w in streamed.windows() if any(r[1].array == w.array and r[1].rest == w.rest
                                                             for r in streamed.reads)]
        write_windows = [w for w in streamed.windows() if w not in read_windows]
        self.lines.append(f"{indent}for ({loop.ctype} {chunk} = {start}; {chunk} < {stop}; {chunk} += {width}) {{")
        if read_windows:
            self.lines += window_sweep(
                f"The next {width} elements of each point's rows, loaded together (in the array's bounds).", True,
                lambda w, tile, at: f"if ({at} >= 0 && {at} < {self.array_length(w.array)}) "
                                f"{tile} = {w.array}[{at}];", read_windows)
            self.lines.append(f"{inside_indent}__syncthreads();")
        self.lines += [
            f"{inside_indent}const {loop.ctype} {chunk_end} = {chunk} + {width} < {stop} ? {chunk} + {width} : "
            f"{stop};",
            f"{inside_indent}for ({loop.ctype} {loop.var} = {chunk}; {loop.var} < {chunk_end}; "
            f"{loop.var} += {c_expr(loop.step)}) {{",
            *c_statements(body, inside_indent + "    "),
            f"{inside_indent}}}",
            f"{inside_indent}__syncthreads();   // the window is loaded (or stored) again for the next elements"]
        if write_windows:
            self.lines += window_sweep(
                "The window's writes, stored together.", False,
                lambda w, tile, at: f"if ({point} < {upper} && {loop.var} < {stop}) {w.array}[{at}] = {tile};",
                write_windows)
        self.lines.append(f"{indent}}}")

    def array_length(self, array: str) -> str:
        """An array's contract length in kernel terms (64-bit): its size symbols as the integer parameters bound
        to them."""
        spec = next((a for a in self.base.contract.arrays if a.param == array), None)
        if spec is None:
            raise EmitError(f"the contract names no array {array}")
        bound = {s.value.strip(): s.param for s in self.base.contract.scalars if s.dtype.startswith(("int", "uint"))}

        def parameter(match: re.Match) -> str:
            if match.group(0) not in bound:
                raise EmitError(f"the length of {array} ({spec.length}) reads {match.group(0)}, which no integer "
                                f"parameter holds")
            return f"(long long){bound[match.group(0)]}"

        return "(" + re.sub(r"[A-Za-z_]\w*", parameter, spec.length) + ")"

    # -- the candidate --------------------------------------------------------------------------------------------

    def as_written(self) -> list[str]:
        """Where the sizes break the rewrite's assumption (program.py `Assumption`), the program as written: every
        thread of the grid, whatever its shape, takes the points in turn. Every thread sees the same scalars, so all
        return together, before any barrier."""
        if self.program.assumption is None:
            return []
        program = self.program.assumption.otherwise
        names = _Names(program)
        threads, point, points = names("threads"), names("point"), names("points")
        extents = [f"max((long long)({c_expr(i.upper)})" + (f" - (long long)({c_expr(i.lower)})" if
                                                             constant(i.lower) != 0 else "") + ", 0LL)"
                   for i in program.space]
        lines = [f"    if (!({c_expr(self.program.assumption.condition)})) {{",
                 "        // The sizes are not those the schedule's rewrite assumes: the program as written.",
                 f"        const long long {threads} = (long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x * "
                 "blockDim.y * blockDim.z;",
                 f"        const long long {points} = {' * '.join(extents)};",
                 f"        for (long long {point} = ((long long)(blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + "
                 "blockIdx.x) * (blockDim.x * blockDim.y * blockDim.z) + (threadIdx.z * blockDim.y + threadIdx.y) * "
                 f"blockDim.x + threadIdx.x; {point} < {points}; {point} += {threads}) {{"]
        divisor = ""
        for index, extent in reversed(list(zip(program.space, extents))):
            digit = f"{point}{divisor}" if index is program.space[0] else f"{point}{divisor} % {extent}"
            lower = "" if constant(index.lower) == 0 else f"{c_operand(index.lower)} + "
            lines.append(f"            const {_index_type(index, program)} {index.name} = {lower}({digit});")
            divisor += f" / {extent}"
        return lines + [*c_statements(program.body, "            "), "        }", "        return;", "    }"]

    def candidate(self) -> Candidate:
        getattr(self, self.schedule.family)()
        view = KernelView.of(self.base)
        helpers = "".join(_guarded(name, _scan_helper(name[len("scan"):]) if name.startswith("scan") else
                                   _HELPERS[name]) + "\n\n" for name in self.helpers)
        comment = "".join(line + "\n" for line in self.declarations)
        # Inside the body, the schedule's name moves with the kernel when a later schedule replaces it.
        description = described(self.shape, self.schedule)
        body = "{\n" + "\n".join([f"    // OptiML schedule of the loop-nest program: {description}.",
                                   *self.as_written(), *self.lines]) + "\n}"
        # The helpers open the unit: above the kernel there may be a template header or an `extern "C"` whose
        # linkage a template may not have.
        bounds = launch_bounds_replacement(view, self.schedule.threads(), self.schedule.blocks_per_sm)
        if self.schedule.cluster > 1:
            # GNU attribute spelling of __cluster_dims__ (the same cubin), which the source parser reads.
            bounds = (*bounds[:2], bounds[2].rstrip() + f" __attribute__((cluster_dims(1, {self.schedule.cluster}, "
                                                         f"1))) ")
        replacements = [(0, 0, helpers), (view.body.start_byte, view.body.end_byte, body), bounds,
                        (_top_of(view.node), _top_of(view.node), comment)]
        if self.schedule.family == "scan":
            # A lane's stretch is read twice, for its total and again for the loop's own code after the warp's
            # shuffles; unaliased, the compiler need not read it again after the writes (H200, row_cumsum 4
            # iterations a lane: 0.335 -> 0.143 ms, bench/results/ir-h200/probe-where-compile-wins/). The contract's
            # arrays are buffers of their own, as every schedule assumes (the stretch's total read before its writes).
            replacements += restrict_replacements(view, unaliased_pointers(view))[0]
        text = view.replaced(replacements)
        bx, by = self.schedule.block
        block = [str(bx)] if by == 1 and len(self.grid) == 1 else [str(bx), str(by)]
        launch = LaunchRule(grid=self.grid, block=block, smem=self.smem)
        return derived(self.base, text, f"schedule {description}", launch)


# The blocks of a cluster meet: every write before it (shared memory and global) is seen by every block after it.
CLUSTER_BARRIER = "__cluster_barrier_arrive(); __cluster_barrier_wait();"


def _peer(slot: str, ctype: str, rank: str) -> str:
    """The value of `slot` (a `__shared__` variable) in the cluster's block of rank `rank`, as C."""
    return f"*static_cast<{ctype}*>(__cluster_map_shared_rank(&{slot}, {rank}))"


def _branched(indent: str, cond: str, then: list[str], other: list[str]) -> list[str]:
    """`if (cond) { then } else { other }` as lines, without an empty branch (none when both are)."""
    if not then and not other:
        return []
    if not then:
        return [f"{indent}if (!({cond})) {{", *other, f"{indent}}}"]
    return [f"{indent}if ({cond}) {{", *then, *([f"{indent}}} else {{", *other] if other else []), f"{indent}}}"]


def _point_copy(stmt: Stmt, rename: dict[str, str], guard: Expr | None) -> Stmt:
    """One point's copy of a statement: its locals renamed, its writes under `guard`."""
    refs = {old: Ref(name=new) for old, new in rename.items()}
    if isinstance(stmt, (Let, Assign)):
        copied = stmt.model_copy(update={"name": rename.get(stmt.name, stmt.name)})
        return copied.model_copy(update={"value": substitute(stmt.value, refs)}) if stmt.value is not None \
            else copied
    if isinstance(stmt, (Store, Atomic)):
        copied = stmt.model_copy(update={"index": substitute(stmt.index, refs), "value": substitute(stmt.value, refs)})
        return copied if guard is None else If(cond=guard, then=[copied])
    if isinstance(stmt, If):
        return If(cond=substitute(stmt.cond, refs), then=[_point_copy(s, rename, guard) for s in stmt.then],
                  other=[_point_copy(s, rename, guard) for s in stmt.other])
    raise EmitError(f"cannot copy {type(stmt).__name__} per point")


def _renamed(values: dict[str, Expr]) -> dict[str, str]:
    return {name: c_expr(value) for name, value in values.items()}


def _updates(loop: For, reduction: Reduction) -> bool:
    return any(isinstance(s, Assign) and s.name == reduction.variable for s in walk(loop.body))


def unit_stride_of(operand: Expr, index: str) -> bool:
    """Whether the operand's reads are unit-stride along `index` (rather than along the loop), or are between the
    places its digits carry: an implicit GEMM's input read at `... + index % width + kw` (ir/implicit_gemm.py),
    whose neighbouring points are neighbouring elements along a row of pixels."""
    found = loads(operand)
    return bool(found) and all(unit_stride(load.index, index) or unit_stride(_lowest_digit(load.index, index), index)
                               for load in found)


def _lowest_digit(expr: Expr, index: str) -> Expr:
    """`expr` near a point where no digit of `index` carries: `index % m` as `index`, its higher digits (`index /
    d`, `index / d % m`) as 0, which do not change there."""
    if isinstance(expr, Binary) and expr.op == "%" and isinstance(expr.left, Ref) and expr.left.name == index:
        return expr.left
    if isinstance(expr, Binary) and expr.op in ("/", "%") and mentions(expr.left, {index}):
        return Const(text="0")
    return with_children(expr, lambda child: _lowest_digit(child, index))


class _Staged:
    """One operand of a contraction on its way to shared memory: each step of the loop, `tile` points by `step`
    iterations of it, read into registers (before the step's multiply-adds) and stored into the operand's tile
    (after them). Read along its unit stride: its index's (`along`: the operand's parallel index) or the loop's.
    Where its one read is affine in both and the step's piece is whole and aligned (a block-uniform test),
    `width` consecutive elements come as one vector read; elsewhere element by element with bounds checks, into the
    same registers, so the store is the same either way."""

    def __init__(self, operand: Expr, tile_name: str, index: str, index_type: str, block: str, upper: str,
                 names: _Names, side: str):
        self.operand, self.tile_name = operand, tile_name
        self.index, self.index_type, self.block, self.upper = index, index_type, block, upper
        self.registers, self.whole, self.loaded = names(f"{side}_next"), names(f"{side}_whole"), \
            names(f"{side}_loaded")
        self.names, self.side = names, side

    def plan(self, program: LoopProgram, loop: str, tile: int, step: int, threads: int, acc_type: str,
             row: int) -> None:
        self.loop, self.tile, self.step, self.threads, self.acc_type, self.row = loop, tile, step, threads, \
            acc_type, row
        self.along = unit_stride_of(self.operand, self.index)
        unit, other = (self.index, loop) if self.along else (loop, self.index)
        found = set(loads(self.operand))
        self.read = found.pop() if len(found) == 1 else None
        self.width = 1
        if self.read is not None:
            width = 16 // max(element_bytes(program, self.read.array), 1)
            if width > 1 and (tile if self.along else step) % width == 0 and unit_stride(self.read.index, unit) \
                    and stride(self.read.index, other, {unit}) is not None:
                self.width, self.element = width, program.element_type(self.read.array)
        self.vectors = tile * step // self.width
        self.slots = -(-self.vectors // threads)
        self.across = (tile if self.along else step) // self.width   # vectors along the unit stride
        # A slot's point is the same every step: the divisions of it (an implicit GEMM's batch, row and pixel of a
        # column) computed once, before the loop, not under each step's bounds test, where the compiler keeps them.
        self.scalars = {p.name for p in program.scalars}
        self.digits = [] if self.width > 1 else _point_digits(self.operand, self.index, loop, self.scalars)
        self.digit_names = [self.names(f"{self.side}_digit") for _ in self.digits]
        self.digit_types = [_digit_type(digit, program, self.index_type) for digit in self.digits]
        # An implicit GEMM's gather, `x[((n * cin + c) * h + y + kh - 1) * w + x + kw - 1]`, is a sum of a part of
        # the point alone and a part of the loop alone: the first held per slot (`base`), the second computed once a
        # step where each thread stages one step of the loop (`loop_fixed`), so that each value costs an add and
        # its guards, not the index's multiplications and the loop's digits. Only where a warp's piece of a step
        # still fills whole 32-byte sectors.
        parts = _separated(self.read.index, loop, self.index) if self.digits and self.read is not None else None
        group = threads // step if threads % step == 0 else 0
        self.loop_fixed = parts is not None and group > 0 and (tile * step) % threads == 0 and \
            (not self.along or tile % group == 0 and group * element_bytes(program, self.read.array) >= 32)
        self.parts = parts if self.loop_fixed else None
        self.base = self.names(f"{self.side}_base") if self.parts is not None else None
        # A convolution's padding tests, `0 <= y + kh - 1 < h && 0 <= x + kw - 1 < w`, read the point and the loop's
        # lowest digits (the taps): tested once per slot for every tap before the loop, into a bit mask, so that a
        # step tests one bit instead of every bound, and the bounds are not held (`_Window`).
        self.window = _Window.of(self.operand, loop, self.index, self.scalars) if self.parts is not None else None
        if self.window is not None:
            self.mask, self.tap = self.names(f"{self.side}_taps"), self.names(f"{self.side}_tap")

    def declarations(self, indent: str, loop: str, k_begin: str, thread: str, element: str, slot: str) -> list[str]:
        if self.width == 1:
            lines = [f"{indent}{self.acc_type} {self.registers}[{self.slots}];"]
            if not self.digits:
                return lines
            held = self._held(slot)
            return lines + [
                f"{indent}// This thread's points' index digits, the same every step.",
                *(f"{indent}{ctype} {name}[{self.slots}];" for ctype, name in zip(self.digit_types,
                                                                              self.digit_names)),
                *([f"{indent}long {self.base}[{self.slots}];   // the read's index, its part of the point"]
                  if self.parts is not None else []),
                *([f"{indent}{self.window.ctype} {self.mask}[{self.slots}];   // bit t: tap t inside the input"]
                  if self.window is not None else []),
                f"{indent}#pragma unroll",
                f"{indent}for (int {slot} = 0; {slot} < {self.slots}; ++{slot}) {{",
                f"{indent}    const int {element} = {thread} + {slot} * {self.threads};",
                f"{indent}    const {self.index_type} {self.index} = {self.block} + {self._position(element, thread, slot)[0]};",
                *(f"{indent}    {name}[{slot}] = {c_expr(digit)};" for name, digit in zip(self.digit_names,
                                                                                     self.digits)),
                *([f"{indent}    {self.base}[{slot}] = {c_expr(held(self.parts[0]))};"]
                  if self.parts is not None else []),
                *(self.window.filled(indent + "    ", f"{self.mask}[{slot}]", self.tap, held, self.names)
                  if self.window is not None else []),
                f"{indent}}}"]
        other = loop if self.along else self.index
        origin = {self.index: self.block, loop: k_begin}
        beside = {**origin, other: f"({origin[other]} + 1)"}
        address = f"&{self.read.array}[{{}}]"
        return [
            f"{indent}optiml_lanes<{self.acc_type}, {self.width}> {self.registers}[{self.slots}];",
            f"{indent}// Vector reads where this tile's points are all inside and every {self.width}-element vector "
            f"is aligned (the index is affine: two neighbouring rows aligned, all are).",
            f"{indent}const bool {self.whole} = {self.block} + {self.tile} <= {self.upper} && "
            f"optiml_aligned({address.format(c_expr(self.read.index, origin))}, 16) && "
            f"optiml_aligned({address.format(c_expr(self.read.index, beside))}, 16);"]

    def load(self, indent: str, first: str, loop: str, loop_type: str, k_end: str, thread: str, element: str,
             slot: str, lane: str, zero: str, firsts: dict[str, str]) -> list[str]:
        """The step's values this thread reads into its registers; `firsts`: the names of a vector's first index
        and loop value."""
        index, block, step = self.index, self.block, self.step
        if self.width == 1:
            position, step_of = self._position(element, thread, slot)
            held = self._held(slot)
            guard = f"({element} < {self.vectors} && {index} < {self.upper} && {loop} < {k_end})"
            if self.parts is None:
                return [f"{indent}#pragma unroll",
                        f"{indent}for (int {slot} = 0; {slot} < {self.slots}; ++{slot}) {{",
                        f"{indent}    const int {element} = {thread} + {slot} * {self.threads};",
                        f"{indent}    // Along {'its ' + index if self.along else 'the loop'} (the operand's unit "
                        f"stride).",
                        f"{indent}    const {self.index_type} {index} = {block} + {position};",
                        f"{indent}    const {loop_type} {loop} = {first} + {step_of};",
                        f"{indent}    {self.registers}[{slot}] = {guard} ? ({self.acc_type})"
                        f"({c_expr(held(self.operand))}) : {zero};",
                        f"{indent}}}"]
            # This thread's step of the loop: its digits and its part of the read once, before the slots.
            offset = self.names(f"{self.side}_offset")
            read = Load(array=self.read.array, index=Binary(op="+", left=Ref(name=f"{self.base}[{slot}]"),
                                                             right=Ref(name=offset)))

            def separated(expr: Expr) -> Expr:
                return read if expr == self.read else with_children(expr, separated)
            operand = separated(self.operand)
            if self.window is not None:
                operand = self.window.tested(operand, f"({self.mask}[{slot}] >> {self.tap} & 1)")
            digits = list(dict.fromkeys(_point_digits(operand, loop, index, self.scalars) +
                                        _point_digits(self.parts[1], loop, index, self.scalars)))
            digit_names = {digit: self.names(f"{self.side}_step_digit") for digit in digits}

            def stepped(expr: Expr) -> Expr:
                return Ref(name=digit_names[expr]) if expr in digit_names else with_children(expr, stepped)
            return [f"{indent}{{",
                    f"{indent}    const {loop_type} {loop} = {first} + {step_of};",
                    *([f"{indent}    const int {self.tap} = {c_expr(self.window.tap)};"]
                      if self.window is not None else []),
                    *(f"{indent}    const {loop_type} {name} = {c_expr(digit)};" for digit, name in
                      digit_names.items()),
                    f"{indent}    const long {offset} = {c_expr(stepped(self.parts[1]))};",
                    f"{indent}    #pragma unroll",
                    f"{indent}    for (int {slot} = 0; {slot} < {self.slots}; ++{slot}) {{",
                    f"{indent}        const int {element} = {thread} + {slot} * {self.threads};",
                    f"{indent}        // Along {'its ' + index if self.along else 'the loop'} (the operand's unit "
                    f"stride).",
                    f"{indent}        const {self.index_type} {index} = {block} + {position};",
                    f"{indent}        {self.registers}[{slot}] = {guard} ? ({self.acc_type})"
                    f"({c_expr(held(stepped(operand)))}) : {zero};",
                    f"{indent}    }}",
                    f"{indent}}}"]
        width, across = self.width, self.across
        if self.along:
            index_first, loop_first = f"{block} + ({element} % {across}) * {width}", f"{first} + {element} / {across}"
            index_lane, loop_lane = f"{firsts[index]} + {lane}", firsts[loop]
        else:
            index_first, loop_first = f"{block} + {element} / {across}", f"{first} + ({element} % {across}) * {width}"
            index_lane, loop_lane = firsts[index], f"{firsts[loop]} + {lane}"
        vector = f"optiml_lanes<{self.element}, {width}>"
        loaded = self.loaded

        def swap(expr: Expr) -> Expr:
            return Ref(name=f"{loaded}.v[{lane}]") if expr == self.read else with_children(expr, swap)

        return [
            f"{indent}#pragma unroll",
            f"{indent}for (int {slot} = 0; {slot} < {self.slots}; ++{slot}) {{",
            f"{indent}    const int {element} = {thread} + {slot} * {self.threads};",
            f"{indent}    // {width} consecutive elements along {'its ' + index if self.along else 'the loop'} (the "
            f"operand's unit stride).",
            f"{indent}    const {self.index_type} {firsts[index]} = {index_first};",
            f"{indent}    const {loop_type} {firsts[loop]} = {loop_first};",
            f"{indent}    if ({self.whole} && {first} + {step} <= {k_end}) {{",
            f"{indent}        if ({element} < {self.vectors}) {{",
            f"{indent}            const {self.index_type} {index} = {firsts[index]};",
            f"{indent}            const {loop_type} {loop} = {firsts[loop]};",
            f"{indent}            const {vector} {loaded} = *reinterpret_cast<const {vector}*>(&{self.read.array}"
            f"[{c_expr(self.read.index)}]);",
            f"{indent}            #pragma unroll",
            f"{indent}            for (int {lane} = 0; {lane} < {width}; ++{lane}) "
            f"{self.registers}[{slot}].v[{lane}] = ({self.acc_type})({c_expr(swap(self.operand))});",
            f"{indent}        }}",
            f"{indent}    }} else {{",
            f"{indent}        #pragma unroll",
            f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {{",
            f"{indent}            const {self.index_type} {index} = {index_lane};",
            f"{indent}            const {loop_type} {loop} = {loop_lane};",
            f"{indent}            {self.registers}[{slot}].v[{lane}] = ({element} < {self.vectors} && {index} < "
            f"{self.upper} && {loop} < {k_end}) ? ({self.acc_type})({c_expr(self.operand)}) : {zero};",
            f"{indent}        }}",
            f"{indent}    }}",
            f"{indent}}}"]

    def _position(self, element: str, thread: str, slot: str) -> tuple[str, str]:
        """(the point's offset in the tile, the loop's in the step) of a scalar staging slot's element (`thread` +
        `slot` * threads). Where each thread stages one step of the loop, the thread's step is `thread / group`
        and its slots are points `group` apart from `thread % group`: written with the thread, not the element,
        so that the compiler sees one step for every slot and computes its part of the read once (read along the
        loop, the same places as `element`'s: consecutive threads take consecutive steps)."""
        if self.loop_fixed:
            group = self.threads // self.step
            return (f"{thread} % {group} + {group} * {slot}", f"{thread} / {group}") if self.along else \
                (f"{thread} / {self.step} + {group} * {slot}", f"{thread} % {self.step}")
        return (f"{element} % {self.tile}", f"{element} / {self.tile}") if self.along else \
            (f"{element} / {self.step}", f"{element} % {self.step}")

    def _held(self, slot: str) -> Callable[[Expr], Expr]:
        """An expression with this slot's digits read from their registers."""
        return _from_registers({digit: (f"{name}[{slot}]", ctype) for digit, name, ctype in
                                zip(self.digits, self.digit_names, self.digit_types)}, self.index_type)

    def store(self, indent: str, at: str, thread: str, element: str, slot: str, lane: str) -> list[str]:
        tile_name, registers = self.tile_name, self.registers
        head = [f"{indent}#pragma unroll",
                f"{indent}for (int {slot} = 0; {slot} < {self.slots}; ++{slot}) {{",
                f"{indent}    const int {element} = {thread} + {slot} * {self.threads};"]
        if self.width == 1:
            position, step_of = self._position(element, thread, slot)
            return head + [f"{indent}    if ({element} < {self.vectors}) {tile_name}[{at}][{step_of}][{position}] = "
                           f"{registers}[{slot}];", f"{indent}}}"]
        width, across = self.width, self.across
        acc_bytes = itemsize(dtype_of(self.acc_type) or "float32")
        if self.along and self.row % width == 0 and acc_bytes * width <= 16:
            target = f"{tile_name}[{at}][{element} / {across}][({element} % {across}) * {width}]"
            return head + [f"{indent}    if ({element} < {self.vectors}) *reinterpret_cast<optiml_lanes<"
                           f"{self.acc_type}, {width}>*>(&{target}) = {registers}[{slot}];", f"{indent}}}"]
        target = f"{tile_name}[{at}][{element} / {across}][({element} % {across}) * {width} + {lane}]" \
            if self.along else f"{tile_name}[{at}][({element} % {across}) * {width} + {lane}][{element} / {across}]"
        return head + [f"{indent}    if ({element} < {self.vectors}) {{",
                       f"{indent}        #pragma unroll",
                       f"{indent}        for (int {lane} = 0; {lane} < {width}; ++{lane}) {target} = "
                       f"{registers}[{slot}].v[{lane}];",
                       f"{indent}    }}",
                       f"{indent}}}"]


SEPARATED_TERMS = 32    # a read's index multiplied out into more terms than this is left as it is
WINDOW_TAPS = 64        # a mask of a slot's taps fits a 64-bit word


@dataclass(frozen=True)
class _Window:
    """The guards of a staged operand that each read its point and one of the loop's lowest digits (`k / 3 % 3`,
    `k % 3`: a 3 x 3 convolution's taps of the loop over `c * 9 + kh * 3 + kw`, whose padding tests are `0 <= y + kh
    - 1 < h` and `0 <= x + kw - 1 < w`), the digits one run whose radices' product, the taps, is WINDOW_TAPS at most:
    each slot's guards for every tap are one mask, filled before the loop, each digit's few values tested and the
    digits' masks combined (bit t of the whole: every digit of tap t inside); a step reads its tap, `k / lowest %
    taps`, and the slot's bit."""

    guards: tuple[Expr, ...]
    tap: Expr                                           # the loop's tap: k / lowest % taps
    digits: tuple[tuple[Expr, int, tuple[Expr, ...]], ...]   # most significant first: digit, radix, its guards
    taps: int

    @property
    def ctype(self) -> str:
        return "unsigned" if self.taps <= 32 else "unsigned long long"

    @staticmethod
    def of(operand: Expr, loop: str, point: str, scalars: set[str]) -> _Window | None:
        guards: dict[Expr, list[Expr]] = {}
        radices: dict[Expr, tuple[int, int]] = {}
        for select in (e for e in subexpressions(operand) if isinstance(e, Select)):
            for guard in conjuncts(select.cond):
                found = _loop_digits(guard, loop)
                if found and len(found) == 1 and mentions(guard, {point}) and \
                        names_of(guard) <= {loop, point} | scalars and not loads(guard):
                    (digit, radix), = found.items()
                    radices[digit] = radix
                    if guard not in guards.setdefault(digit, []):
                        guards[digit].append(guard)
        if not guards:
            return None
        chain = sorted(set(radices.values()))
        lowest, taps = chain[0][0], 1
        run: list[tuple[int, int]] = []
        for divisor, radix in chain:
            if divisor != lowest * taps:
                return None        # not one run of digits
            run.append((divisor, radix))
            taps *= radix
        if taps > WINDOW_TAPS or len(set(radices.values())) != len(radices):
            return None
        k = Ref(name=loop)
        tap = Binary(op="%", left=k if lowest == 1 else Binary(op="/", left=k, right=Const(text=str(lowest))),
                     right=Const(text=str(taps)))
        by_place = {place: digit for digit, place in radices.items()}
        digits = tuple((by_place.get(place, Const(text="0")), place[1], tuple(guards.get(by_place.get(place), [])))
                       for place in reversed(run))
        return _Window(tuple(g for found in guards.values() for g in found), tap, digits, taps)

    def filled(self, indent: str, mask: str, index: str, held: Callable[[Expr], Expr], names: _Names) -> list[str]:
        """The statements setting a slot's mask (its point's digits held): each digit's values tested, bit v for
        value v (all set for a digit no guard reads), and the digits' masks combined most significant first (the
        mask so far, over n taps, spread to n * radix: bit i * radix + v set where bit i and the digit's bit v
        are)."""
        one = "1u" if self.taps <= 32 else "1ull"
        digit_taps, before = names("digit_taps"), names("taps_before")
        lines = []
        span = 1
        for position, (digit, radix, guards) in enumerate(self.digits):
            tests = [c_expr(held(substitute_expr(conjunction(list(guards)), digit, Const(text=str(value)))))
                     for value in range(radix)] if guards else []
            bits = " | ".join(f"(({test}) ? {one} << {value} : 0)" for value, test in enumerate(tests)) \
                if tests else f"({one} << {radix}) - 1"
            if position == 0:
                lines.append(f"{indent}{mask} = {bits};")
            else:
                lines += [f"{indent}{{",
                          f"{indent}    const {self.ctype} {digit_taps} = {bits}, {before} = {mask};",
                          f"{indent}    {mask} = 0;",
                          f"{indent}    #pragma unroll",
                          f"{indent}    for (int {index} = 0; {index} < {span}; ++{index}) "
                          f"{mask} |= ({before} >> {index} & 1) * ({digit_taps} << ({index} * {radix}));",
                          f"{indent}}}"]
            span *= radix
        return lines

    def tested(self, operand: Expr, bit: str) -> Expr:
        """`operand` with each select's window guards replaced by the slot's bit for the step's tap."""
        if isinstance(operand, Select):
            kept = [g for g in conjuncts(operand.cond) if g not in self.guards]
            if len(kept) < len(conjuncts(operand.cond)):
                operand = operand.model_copy(update={"cond": conjunction(kept + [Ref(name=bit)])})
        return with_children(operand, lambda child: self.tested(child, bit))


def _loop_digits(expr: Expr, loop: str) -> dict[Expr, tuple[int, int]] | None:
    """Each digit `loop / d % m` (or `loop % m`) of `expr`, d and m constants, as (d, m); None where `expr` reads
    the loop otherwise (or not at all)."""
    found: dict[Expr, tuple[int, int]] = {}

    def visit(e: Expr) -> bool:
        if isinstance(e, Binary) and e.op == "%" and (radix := folded(e.right)) is not None and radix > 0:
            inner = e.left
            if isinstance(inner, Ref) and inner.name == loop:
                found[e] = (1, radix)
                return True
            if isinstance(inner, Binary) and inner.op == "/" and isinstance(inner.left, Ref) and \
                    inner.left.name == loop and (divisor := folded(inner.right)) is not None and divisor > 0:
                found[e] = (divisor, radix)
                return True
        if isinstance(e, Ref) and e.name == loop:
            return False
        return all(visit(child) for child in children(e))
    return found if visit(expr) and found else None
_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def _separated(index: Expr, loop: str, point: str) -> tuple[Expr, Expr] | None:
    """`index` as (a part reading no `loop`, a part reading no `point`), each a sum of products computed in 64 bits
    (the index multiplied out, its integer casts dropped: the same value where the original's own arithmetic does
    not overflow); None where a term reads both, or where there is no part of the loop."""
    terms = _sum_terms(index)
    if terms is None or len(terms) > SEPARATED_TERMS:
        return None
    parts: tuple[list, list] = ([], [])
    for sign, factors in terms:
        reads_loop = any(mentions(f, {loop}) for f in factors)
        if reads_loop and any(mentions(f, {point}) for f in factors):
            return None
        parts[reads_loop].append((sign, factors))
    if not parts[1]:
        return None

    def total(part: list) -> Expr:
        out: Expr | None = None
        for sign, factors in part:
            product: Expr = Cast(ctype="long", operand=factors[0])
            for factor in factors[1:]:
                product = Binary(op="*", left=product, right=factor)
            out = (Unary(op="-", operand=product) if sign < 0 else product) if out is None else \
                Binary(op="+" if sign > 0 else "-", left=out, right=product)
        return out if out is not None else Cast(ctype="long", operand=Const(text="0"))
    return total(parts[0]), total(parts[1])


def _sum_terms(expr: Expr) -> list[tuple[int, list[Expr]]] | None:
    """An integer expression multiplied out: (sign, factors) terms, integer casts looked through, anything but `+`,
    `-` and `*` a factor; None past SEPARATED_TERMS."""
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return _sum_terms(expr.operand)
    if isinstance(expr, Unary) and expr.op in ("-", "+"):
        inner = _sum_terms(expr.operand)
        return None if inner is None else [(sign * (-1 if expr.op == "-" else 1), f) for sign, f in inner]
    if isinstance(expr, Binary) and expr.op in ("+", "-", "*"):
        left, right = _sum_terms(expr.left), _sum_terms(expr.right)
        if left is None or right is None:
            return None
        if expr.op == "*":
            out = [(a * b, fa + fb) for a, fa in left for b, fb in right]
        else:
            out = left + [(sign * (-1 if expr.op == "-" else 1), f) for sign, f in right]
        return out if len(out) <= SEPARATED_TERMS else None
    return [(1, [expr])]


def _from_registers(held: dict[Expr, tuple[str, str]], index_type: str) -> Callable[[Expr], Expr]:
    """Expressions with the given digits read from their registers (digit: (register, its type)). A digit held in a
    narrower type than its index's is read as it is where it is compared (a window's bounds test, in 32 bits) and
    widened to the index's type elsewhere, so that the arithmetic it enters (an output's index) is as wide as the
    program's."""
    def read(expr: Expr, compared: bool) -> Expr:
        if isinstance(expr, Cast) and expr.ctype == index_type and expr.operand in held:   # widened already
            return expr.model_copy(update={"operand": Ref(name=held[expr.operand][0])})
        if expr in held:
            name, ctype = held[expr]
            return Ref(name=name) if compared or ctype == index_type else Cast(ctype=index_type,
                                                                               operand=Ref(name=name))
        inside = compared or isinstance(expr, Binary) and expr.op in _COMPARISONS
        return with_children(expr, lambda child: read(child, inside))
    return lambda expr: read(expr, False)


def _digit_type(digit: Expr, program: LoopProgram, index_type: str) -> str:
    """A remainder by int sizes is below them: an int, however wide the index it is a digit of (32-bit guards and
    arithmetic); any other digit the index's type."""
    int_scalars = {p.name for p in program.scalars if p.ctype in ("int", "const int")}
    return "int" if isinstance(digit, Binary) and digit.op == "%" and names_of(digit.right) <= int_scalars and \
        constant(digit.right) != 0 else index_type


def _point_digits(operand: Expr, index: str, loop: str, scalars: set[str]) -> list[Expr]:
    """The outermost divisions and remainders in `operand` of its point `index` by sizes (no loop variable, no
    read, no cast), each once."""
    found: list[Expr] = []

    def visit(expr: Expr) -> None:
        if isinstance(expr, Binary) and expr.op in ("/", "%") and mentions(expr, {index}) and \
                names_of(expr) <= {index} | scalars and not loads(expr) and \
                not any(isinstance(e, Cast) for e in subexpressions(expr)):
            if expr not in found:
                found.append(expr)
            return
        for child in children(expr):
            visit(child)

    visit(operand)
    return found


def _writes_on_every_path(body: list[Stmt], array: str) -> int | None:
    """How many writes to `array` every path through `body` makes (both branches of an if the same); None where
    paths differ or a loop writes it."""
    count = 0
    for stmt in body:
        if isinstance(stmt, (Store, Atomic)) and stmt.array == array:
            count += 1
        elif isinstance(stmt, If):
            then, other = _writes_on_every_path(stmt.then, array), _writes_on_every_path(stmt.other, array)
            if then is None or then != other:
                return None
            count += then
        elif isinstance(stmt, For) and any(isinstance(s, (Store, Atomic)) and s.array == array
                                           for s in walk(stmt.body)):
            return None
    return count


def stepped_digits(body: list[Stmt], variable: str, outside: set[str], program: LoopProgram,
                   typed: dict[str, Expr]) -> list[tuple[Expr, Expr]]:
    """The integer divisions and remainders in `body` of `variable` plus something fixed (`ow / r`, `(ow + 1) % W`)
    by a size that is not a literal (the compiler divides by a literal cheaply): (dividend, divisor) pairs, the
    dividend's locals inlined (`typed`: the body's `typed_single_assignments`), each pair once; what a group of
    consecutive points may step instead of dividing."""
    fixed = outside - {variable}
    declared = {p.name: p.ctype for p in program.scalars} | {i.name: i.ctype for i in program.space}
    found: list[tuple[Expr, Expr]] = []
    for stmt in walk(body):
        for expr in statement_exprs(stmt):
            for e in subexpressions(expr):
                if not (isinstance(e, Binary) and e.op in ("/", "%")):
                    continue
                dividend = inlined(e.left, typed)
                if unit_stride(dividend, variable) and names_of(dividend) <= outside and names_of(e.right) <= fixed \
                        and names_of(e.right) and not loads(dividend) and not loads(e.right) and \
                        _integral(dividend, declared) and _integral(e.right, declared) and \
                        (dividend, e.right) not in found:
                    found.append((dividend, e.right))
    return found


def _integral(expr: Expr, declared: dict[str, str]) -> bool:
    """Whether C computes the expression in an integer type: integer literals, names `declared` (their types) an
    integer type, integer casts, and + - * / % of those."""
    if isinstance(expr, Const):
        return folded(expr) is not None
    if isinstance(expr, Ref):
        return expr.name in declared and is_integer_cast(declared[expr.name])
    if isinstance(expr, Cast):
        return is_integer_cast(expr.ctype) and _integral(expr.operand, declared)
    if isinstance(expr, Binary) and expr.op in ("+", "-", "*", "/", "%"):
        return _integral(expr.left, declared) and _integral(expr.right, declared)
    return False


def digits_stepped(body: list[Stmt], digit_names: list[tuple[tuple[Expr, Expr], tuple[str, str]]],
                   typed: dict[str, Expr]) -> list[Stmt]:
    """The statements with each division and remainder `stepped_digits` found read as its stepped quotient or
    remainder (`digit_names`: each (dividend, divisor) pair's names; `typed`: the locals `stepped_digits` inlined,
    so that a division matches the pair it found)."""

    def read(expr: Expr) -> Expr:
        if isinstance(expr, Binary) and expr.op in ("/", "%"):
            pair = (inlined(expr.left, typed), expr.right)
            names = next((names for found, names in digit_names if found == pair), None)
            if names is not None:
                return Ref(name=names[0] if expr.op == "/" else names[1])
        return with_children(expr, read)

    return rewritten(body, read)


def vector_accesses(body: list[Stmt], variable: str, conditions: bool,
                    eligible: Callable[[str, Expr], bool]) -> tuple[list[Load], list[Store]]:
    """The reads every run of `body`'s top-level statements performs (with `conditions`, its top-level ifs'
    conditions too) and its plain writes, unit-stride along `variable` and admitted by `eligible(array, index)`: an
    array written is not read as a vector, an array read is not written as one, nor one written twice; but an array
    updated in place (`in_place`) is both."""
    written = {stmt.array for stmt in walk(body) if isinstance(stmt, (Store, Atomic))}
    updated = in_place(body, variable, eligible)
    reads = unconditional_reads(body, variable, conditions, eligible, written - updated, [])
    loaded = {load.array for load in all_loads(body)} - updated
    stores = [stmt for stmt in body if isinstance(stmt, Store) and stmt.op == "=" and
              unit_stride(stmt.index, variable) and eligible(stmt.array, stmt.index) and stmt.array not in loaded
              and sum(1 for other in walk(body) if isinstance(other, Store) and other.array == stmt.array) == 1]
    return reads, stores


def in_place(body: list[Stmt], variable: str, eligible: Callable[[str, Expr], bool]) -> set[str]:
    """The arrays a point updates in place (`p = param[i]; ... param[i] = p;`): written once, by a plain top-level
    write unit-stride along `variable`, and read only at that write's index, by top-level statements up to it, every
    time they run. A group's vector read of such an array before its points run holds what each point would read,
    and its vector write after them what each would write."""
    found = set()
    for position, stmt in enumerate(body):
        if not (isinstance(stmt, Store) and stmt.op == "=" and unit_stride(stmt.index, variable) and
                eligible(stmt.array, stmt.index)) or \
                sum(1 for other in walk(body) if isinstance(other, (Store, Atomic)) and other.array == stmt.array) != 1:
            continue
        everywhere = [load for load in all_loads(body) if load.array == stmt.array]
        before = [load for expr in [*(e for earlier in body[:position] for e in evaluated(earlier, False)),
                                    stmt.value]
                  for load in unconditional_loads(expr) if load.array == stmt.array]
        if everywhere and len(before) == len(everywhere) and all(load.index == stmt.index for load in everywhere):
            found.add(stmt.array)
    return found


def _atomics_summed(body: list[Stmt], sums: dict[tuple[str, Expr], str], program: LoopProgram) -> list[Stmt]:
    """The statements with each atomicAdd into a privatized target replaced by an addition to its register."""
    return statements_replaced(body, lambda stmt: [Assign(
        name=sums[(stmt.array, stmt.index)], op="+=",
        value=Cast(ctype=program.element_type(stmt.array), operand=stmt.value))]
        if isinstance(stmt, Atomic) and (stmt.array, stmt.index) in sums else None)


def _atomics_in_runs(body: list[Stmt], runs: dict[tuple[str, Expr], tuple[str, str]], program: LoopProgram,
                     names: _Names) -> list[Stmt]:
    """The statements with each atomicAdd into a privatized target added to its run's register, the run's sum
    added with one atomic first where the element differs from the run's."""
    def in_run(stmt: Stmt) -> list[Stmt] | None:
        if not isinstance(stmt, Atomic) or (stmt.array, stmt.index) not in runs:
            return None
        element, sum_ = runs[(stmt.array, stmt.index)]
        here = names(f"{stmt.array}_here")
        return [Let(name=here, ctype="long long", value=Cast(ctype="long long", operand=stmt.index)),
                If(cond=Binary(op="!=", left=Ref(name=here), right=Ref(name=element)), then=[
                    If(cond=Binary(op=">=", left=Ref(name=element), right=Const(text="0")), then=[
                        Atomic(function="atomicAdd", array=stmt.array, index=Ref(name=element),
                               value=Ref(name=sum_))]),
                    Assign(name=element, op="=", value=Ref(name=here)),
                    Assign(name=sum_, op="=", value=Const(text="0"))]),
                Assign(name=sum_, op="+=", value=Cast(ctype=program.element_type(stmt.array), operand=stmt.value))]
    return statements_replaced(body, in_run)


def _atomics_redirected(body: list[Stmt], target: str, local: str) -> list[Stmt]:
    """The statements with atomics into `target` made into the block's copy `local`."""
    return statements_replaced(body, lambda stmt: [stmt.model_copy(update={"array": local})]
                               if isinstance(stmt, Atomic) and stmt.array == target else None)


def _guard_writes(body: list[Stmt], active: str) -> list[Stmt]:
    """Writes under `if (active)`: a lane computing a clamped point again must not write it."""
    return statements_replaced(body, lambda stmt: [If(cond=Ref(name=active), then=[stmt])]
                               if isinstance(stmt, (Store, Atomic)) else None)


def _top_of(node: Node) -> int:
    """Where text may be inserted above the kernel: before its template header and any `extern "C"` (which a
    compile unit's `#line` may have cut off the kernel: the parser then sees it alone, as an error node)."""
    while node.parent is not None and node.parent.type in ("template_declaration", "linkage_specification",
                                                           "declaration_list"):
        node = node.parent
    before = node.prev_sibling
    while before is not None and before.type == "preproc_call":
        before = before.prev_sibling
    if before is not None and before.type == "ERROR" and before.text.decode().split() == ["extern", '"C"']:
        return before.start_byte
    return node.start_byte


def emit(program: LoopProgram, shape: Shape, schedule: Schedule, base: Candidate) -> Candidate:
    """The schedule's kernel and launch rule, as a candidate made from `base` (the original kernel)."""
    if schedule.family not in shape.families:
        raise EmitError(f"the program has no {schedule.family} schedule")
    return _Kernel(program, shape, schedule, base).candidate()
