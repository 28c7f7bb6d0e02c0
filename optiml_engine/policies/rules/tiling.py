"""Tiling rules: the big rewrites that stage data in shared memory (and registers) so that a block reads it once.

- transpose_tile: a 2-D kernel that reads an array transposed (B[x * rows + y] while its row-major arrays are
  indexed [y * cols + x]) stages that array through a padded 32x32 shared-memory tile, read coalesced;
- stencil_tile: a 2-D stencil of radius 1 or 2 reads its neighbourhood from a shared-memory tile with a halo;
- gemm_tile: a naive GEMM (one thread per C element, a k loop of A * B products) becomes a shared-memory tiled,
  register-blocked fp32 kernel;
- column_reduce: a thread-per-column reduction (each thread loops over all rows) gets 32 columns per block with
  the block's rows of threads splitting the rows, then a shared-memory reduction.

Each detector extracts what its template needs from the tree (names, bounds, index strides, the copied statements)
through rules/tiling_shapes.py, and does not fire when a piece is missing; each rewrite fills a string template with
those pieces, so a kernel written differently but of the same shape gets the same rewrite. Each rule's `render`
takes its tile sizes as parameters: the rules offer a few fixed ones, the templates (policies/templates/) tune them.
The statements the original runs per element are copied verbatim (only the reads being tiled are replaced), with the
original's index variables redeclared where the new thread mapping places them.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.model import Candidate, LaunchRule, Param
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, derived, unparenthesized
from optiml_engine.policies.rules.tiling_shapes import (
    GridShape, Reduction, StencilRead, contract_expression, declared_type, escapes_loop, foreign_locals, grid_shape,
    identifiers, index_of, int_literal, is_write, kernel_values, monomial_of, movable, operator, polynomial,
    read_only_array, reduction, rendered_monomial, rendered_terms, signed_terms, stencil_reads, strided,
    unconditional, uses_only, wrapped)

# ---------------------------------------------------------------------------------------------------------------
# Code generation helpers


class _Names:
    """Fresh identifiers: none of them is spelled like any word of the compile unit."""

    def __init__(self, view: KernelView):
        self.used = set(re.findall(r"[A-Za-z_]\w*", view.source.decode()))

    def __call__(self, base: str) -> str:
        name, suffix = base, 1
        while name in self.used:
            name, suffix = f"{base}_{suffix}", suffix + 1
        self.used.add(name)
        return name


def _source(view: KernelView, nodes: list[Node], replacements: dict[Node, str] | None = None) -> str:
    """The text of consecutive statements, with the given nodes under them replaced, dedented."""
    start, end = nodes[0].start_byte, nodes[-1].end_byte
    line_start = view.source.rfind(b"\n", 0, start) + 1
    lead = view.source[line_start:start].decode()
    text, cursor = lead if not lead.strip() else " " * len(lead), start
    for node, new in sorted((replacements or {}).items(), key=lambda item: item[0].start_byte):
        text += view.source[cursor:node.start_byte].decode() + new
        cursor = node.end_byte
    return textwrap.dedent(text + view.source[cursor:end].decode())


def _filled(template: str, **pieces: str) -> str:
    """The template with `$name` replaced by pieces; a line that is only `$name` takes a multi-line piece, each of
    its lines indented like the placeholder."""
    lines = []
    for line in textwrap.dedent(template).strip("\n").splitlines():
        placeholder = line.strip()
        if placeholder.startswith("$") and placeholder[1:] in pieces:
            indent = line[:len(line) - len(line.lstrip())]
            lines += [indent + piece if piece.strip() else "" for piece in pieces[placeholder[1:]].splitlines()]
        else:
            lines.append(re.sub(r"\$(\w+)", lambda match: pieces[match.group(1)], line))
    return "\n".join(lines)


def _param(view: KernelView, name: str) -> Param | None:
    return next((p for p in view.kernel.params if p.name == name), None)


def _pointer_params(view: KernelView) -> list[str]:
    return [p.name for p in view.kernel.params if p.is_pointer]


def _launch_bounds_removed(view: KernelView) -> list[tuple[int, int, str]]:
    """A rewrite that changes the block size drops the kernel's __launch_bounds__, which promised the old one."""
    removed = []
    for child in view.node.children:
        if child.type == "launch_bounds":
            end = child.end_byte
            while view.source[end:end + 1] in (b" ", b"\t"):
                end += 1
            removed.append((child.start_byte, end, ""))
    return removed


def _kernel_with_body(view: KernelView, body: str) -> str:
    return view.replaced([(view.body.start_byte, view.body.end_byte, "{\n" + textwrap.indent(body, "    ") + "\n}"),
                          *_launch_bounds_removed(view)])


def _contract_values(node: Candidate) -> dict[str, str]:
    return {s.param: s.value for s in node.contract.scalars} | node.contract.template


def _bounds_expressible(view: KernelView, shape: GridShape) -> bool:
    return all(contract_expression(view, var.bound, kernel_values(view), shape.local_values) is not None
               for var in shape.index_vars())


def _grid(view: KernelView, node: Candidate, shape: GridShape, tile_x: int, tile_y: int | None = None) -> list[str]:
    """The grid that covers the guard's bounds with tiles of tile_x (by tile_y) elements, in contract terms."""
    values = _contract_values(node)
    grid = [f"cdiv({contract_expression(view, shape.x.bound, values, shape.local_values)},{tile_x})"]
    if tile_y is not None:
        grid.append(f"cdiv({contract_expression(view, shape.y.bound, values, shape.local_values)},{tile_y})")
    return grid


def _uniform(view: KernelView, shape: GridShape) -> str:
    return "\n".join(shape.uniform_text(view))


def _tiled(node: Candidate, text: str, description: str, grid: list[str], block: list[str]) -> Candidate:
    return derived(node, text, description, LaunchRule(grid=grid, block=block, smem="0"))


def _edit(rule: Rule, candidate: Candidate) -> Edit:
    return Edit(candidate=candidate, rule=rule.name, description=candidate.description, symptom=rule.symptom)


def _guarded_root(shape: GridShape) -> Node:
    """The statement that holds the guarded statements (the guard's block, or the kernel body)."""
    return shape.body[0].parent


def _per_element(view: KernelView, shape: GridShape, header: str, x_value: str, y_value: str, body: str) -> str:
    """A loop whose every iteration runs the original guarded statements for one element: the index variables
    redeclared at that element's place, then the original guard."""
    return _filled("""
        $header {
            $xtype $x = $x_value;
            $ytype $y = $y_value;
            if ($guard) {
                $body
            }
        }""", header=header, xtype=shape.x.type_text, x=shape.x.name, x_value=x_value, ytype=shape.y.type_text,
                   y=shape.y.name, y_value=y_value, guard=shape.guard(view), body=body)


def _stays_per_element(view: KernelView, shape: GridShape) -> bool:
    """Whether the guarded statements can run for another element than their thread's own, in a loop over
    elements: movable, and using no local but the index variables, uniform values and their own."""
    return movable(view, shape.body) and not foreign_locals(view, shape.body,
                                                            {shape.x.name, shape.y.name} | shape.uniform)


# ---------------------------------------------------------------------------------------------------------------
# transpose_tile

TRANSPOSE_TILE, TRANSPOSE_ROWS = 32, 8      # a 32x32 tile, blocks of 32x8 threads: each thread takes 4 rows


@dataclass
class TransposePlan:
    shape: GridShape
    reads: dict[str, list[Node]]            # transposed array -> its transposed reads


def transpose_plan(view: KernelView) -> TransposePlan | None:
    shape = grid_shape(view)
    if shape is None or shape.y is None or not _bounds_expressible(view, shape) or not _stays_per_element(view, shape):
        return None
    x, y = shape.x, shape.y
    rows, cols = monomial_of(view, y.bound), monomial_of(view, x.bound)
    if rows is None or cols is None:
        return None
    transposed = {tuple(sorted((x.name, *rows))): 1, (y.name,): 1}      # x * rows + y
    direct = {tuple(sorted((y.name, *cols))): 1, (x.name,): 1}          # y * cols + x
    reads: dict[str, list[Node]] = {}
    writes_direct = False
    for statement in shape.body:
        for subscript in view.descendants(statement, "subscript_expression"):
            form = polynomial(view, index_of(subscript))
            array = view.text(subscript.child_by_field_name("argument"))
            writes_direct |= is_write(subscript) and form == direct
            if form == transposed and not is_write(subscript) and array in _pointer_params(view):
                reads.setdefault(array, []).append(subscript)
    root = _guarded_root(shape)
    reads = {array: nodes for array, nodes in reads.items()
             if read_only_array(view, array) and any(unconditional(n, root) for n in nodes)}
    return TransposePlan(shape, reads) if writes_direct and reads else None


class TransposeTile(Rule):
    name = "transpose_tile"
    symptom = "uncoalesced_loads"

    def detect(self, view: KernelView) -> list[Match]:
        plan = transpose_plan(view)
        if plan is None:
            return []
        array, (first, *_) = next(iter(plan.reads.items()))
        return [Match(rule=self.name, span=view.span(first), symptom=self.symptom, message=(
            f"{array} is read transposed: neighbouring threads read elements {view.text(plan.shape.y.bound)} apart, "
            "so every load touches its own memory sector; a shared-memory tile makes those loads coalesced"))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        plan = transpose_plan(view)
        if plan is None:
            return []
        return [_edit(self, self.render(view, node, plan, TRANSPOSE_TILE, TRANSPOSE_ROWS))]

    @staticmethod
    def render(view: KernelView, node: Candidate, plan: TransposePlan, tile: int, rows: int) -> Candidate:
        """Blocks of `tile` x `rows` threads stage `tile` x `tile` tiles; each thread takes tile / rows rows."""
        shape, names = plan.shape, _Names(view)
        x, y = shape.x, shape.y
        tiles = {array: names(f"{array}_tile") for array in plan.reads}
        step = names("tile_row")
        declare = "\n".join(f"__shared__ {_param(view, a).base_type} {staged}[{tile}][{tile + 1}];"
                            for a, staged in tiles.items())
        load = "\n".join(f"{tiles[a]}[{step}][threadIdx.x] = {a}[{view.text(index_of(reads[0]))}];"
                         for a, reads in plan.reads.items())
        replacements = {read: f"{tiles[a]}[threadIdx.x][{step}]" for a, reads in plan.reads.items() for read in reads}
        body = _filled("""
            // Tiles of the transposed arrays, padded by one column so that reading a column hits 32 banks.
            $declare
            $uniform
            // Load: consecutive threads take consecutive elements of the transposed array's rows (coalesced).
            for (int $step = threadIdx.y; $step < $tile; $step += $rows) {
                $xtype $x = blockIdx.x * $tile + $step;
                $ytype $y = blockIdx.y * $tile + threadIdx.x;
                if ($guard) {
                    $load
                }
            }
            __syncthreads();
            // Compute: each thread takes $per_thread rows of the tile, reading the transposed arrays from it.
            $compute""", declare=declare, uniform=_uniform(view, shape), step=step, tile=str(tile),
                       rows=str(rows), per_thread=str(tile // rows), xtype=x.type_text,
                       ytype=y.type_text, x=x.name, y=y.name, guard=shape.guard(view), load=load,
                       compute=_per_element(
                           view, shape, f"for (int {step} = threadIdx.y; {step} < {tile}; {step} += {rows})",
                           f"blockIdx.x * {tile} + threadIdx.x", f"blockIdx.y * {tile} + {step}",
                           _source(view, shape.body, replacements)))
        description = (f"{', '.join(plan.reads)} read through a {tile}x{tile} shared-memory tile (blocks of "
                       f"{tile}x{rows}, {tile // rows} rows per thread): coalesced loads of the transposed array")
        return _tiled(node, _kernel_with_body(view, body), description, _grid(view, node, shape, tile, tile),
                      [str(tile), str(rows)])


# ---------------------------------------------------------------------------------------------------------------
# stencil_tile

STENCIL_WIDTH = 32                          # columns per block, one per thread
STENCIL_BLOCK_ROWS = 8                      # rows of threads per block
STENCIL_TILE_ROWS = (32, 64)                # rows of outputs per block: 4 or 8 per thread
STENCIL_MAX_RADIUS = 2


@dataclass
class StencilPlan:
    shape: GridShape
    reads: dict[str, list[StencilRead]]     # tiled array -> its reads
    radius_y: int
    radius_x: int


def stencil_plan(view: KernelView) -> StencilPlan | None:
    shape = grid_shape(view)
    if shape is None or shape.y is None or not _bounds_expressible(view, shape) or not _stays_per_element(view, shape):
        return None
    tiled = {}
    for array in _pointer_params(view):
        if not read_only_array(view, array):
            continue
        reads = stencil_reads(view, shape, array)
        if not reads:
            continue
        radius = max(max(abs(r.row.lo), abs(r.row.hi), abs(r.col.lo), abs(r.col.hi)) for r in reads)
        if 0 < radius <= STENCIL_MAX_RADIUS:
            tiled[array] = reads
    if not tiled:
        return None
    every = [read for reads in tiled.values() for read in reads]
    return StencilPlan(shape, tiled, max(max(abs(r.row.lo), abs(r.row.hi)) for r in every),
                       max(max(abs(r.col.lo), abs(r.col.hi)) for r in every))


class StencilTile(Rule):
    name = "stencil_tile"
    symptom = "memory"

    def detect(self, view: KernelView) -> list[Match]:
        plan = stencil_plan(view)
        if plan is None:
            return []
        array, reads = next(iter(plan.reads.items()))
        return [Match(rule=self.name, span=view.span(reads[0].node), symptom=self.symptom, message=(
            f"each element of {array} is loaded by up to {(2 * plan.radius_y + 1) * (2 * plan.radius_x + 1)} "
            "threads of the stencil; a shared-memory tile with a halo loads it once per block"))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        plan = stencil_plan(view)
        if plan is None:
            return []
        return [_edit(self, self.render(view, node, plan, STENCIL_WIDTH, STENCIL_BLOCK_ROWS, height))
                for height in STENCIL_TILE_ROWS]

    @staticmethod
    def render(view: KernelView, node: Candidate, plan: StencilPlan, width: int, block_rows: int,
               height: int) -> Candidate:
        """Blocks of `width` x `block_rows` threads compute `width` x `height` outputs: each
        thread `height / block_rows` of its column, so that it has several loads in flight and the block's
        synchronization and halo are shared by more outputs."""
        shape, names = plan.shape, _Names(view)
        tile_rows, tile_cols = height + 2 * plan.radius_y, width + 2 * plan.radius_x
        threads, cells = width * block_rows, tile_rows * tile_cols
        steps = -(-cells // threads)
        tiles = {array: names(f"{array}_tile") for array in plan.reads}
        staged = {array: names(f"{array}_loaded") for array in plan.reads}
        types = {array: _param(view, array).base_type for array in plan.reads}
        row0, col0, step, cell, r, c, inside, output = (names(n) for n in (
            "tile_row0", "tile_col0", "tile_step", "tile_cell", "tile_r", "tile_c", "inside", "tile_output"))
        cols = wrapped(view, shape.x.bound)
        replacements = {read.node: f"{tiles[array]}[{_position(view, read.row_terms)} - {row0}]"
                                   f"[{_position(view, read.col_terms)} - {col0}]"
                        for array, reads in plan.reads.items() for read in reads}
        body = _filled("""
            // The block's tile of each stencil input, with a halo $radius_y deep above and below, $radius_x deep left
            // and right. Cells outside the image stay zero and are never read: the stencil reads only positions it
            // has clamped into the image or checked.
            $declare
            $uniform
            const int $row0 = (int)blockIdx.y * $height - $radius_y;
            const int $col0 = (int)blockIdx.x * $width - $radius_x;
            // All of a thread's loads are issued before its first store, so that it waits for memory once (the
            // compiler keeps a global load after a shared-memory store that it cannot prove disjoint from it).
            $staged
            #pragma unroll
            for (int $step = 0; $step < $steps; ++$step) {
                const int $cell = $step * $threads + threadIdx.y * $width + threadIdx.x;
                const int $r = $row0 + $cell / $tile_cols, $c = $col0 + $cell % $tile_cols;
                const bool $inside = $cell < $cells && $r >= 0 && $r < $rows && $c >= 0 && $c < $cols;
                $load
            }
            #pragma unroll
            for (int $step = 0; $step < $steps; ++$step) {
                const int $cell = $step * $threads + threadIdx.y * $width + threadIdx.x;
                if ($cell < $cells) {
                    $store
                }
            }
            __syncthreads();
            // Each thread computes $per_thread outputs of its column, $block_rows rows apart.
            #pragma unroll
            $compute""", radius_y=str(plan.radius_y), radius_x=str(plan.radius_x), row0=row0, col0=col0,
                       height=str(height), width=str(width), step=step, steps=str(steps),
                       threads=str(threads), cell=cell, cells=str(cells), r=r, c=c, tile_cols=str(tile_cols),
                       inside=inside, rows=wrapped(view, shape.y.bound), cols=cols, uniform=_uniform(view, shape),
                       per_thread=str(height // block_rows), block_rows=str(block_rows),
                       declare="\n".join(f"__shared__ {types[a]} {tile}[{tile_rows}][{tile_cols}];"
                                         for a, tile in tiles.items()),
                       staged="\n".join(f"{types[a]} {staged[a]}[{steps}];" for a in plan.reads),
                       load="\n".join(f"{staged[a]}[{step}] = {inside} ? {a}[{r} * {cols} + {c}] : ({types[a]})0;"
                                      for a in plan.reads),
                       store="\n".join(f"{tile}[{cell} / {tile_cols}][{cell} % {tile_cols}] = {staged[a]}[{step}];"
                                       for a, tile in tiles.items()),
                       compute=_per_element(
                           view, shape, f"for (int {output} = threadIdx.y; {output} < {height}; {output} += "
                           f"{block_rows})", f"blockIdx.x * {width} + threadIdx.x",
                           f"blockIdx.y * {height} + {output}", _source(view, shape.body, replacements)))
        description = (f"{', '.join(plan.reads)} read from a shared-memory tile of {width}x{height} "
                       f"outputs plus a halo {plan.radius_x} deep in x and {plan.radius_y} in y (blocks of "
                       f"{width}x{block_rows} threads, {height // block_rows} rows each)")
        return _tiled(node, _kernel_with_body(view, body), description, _grid(view, node, shape, width, height),
                      [str(width), str(block_rows)])


def _position(view: KernelView, terms: list[tuple[int, Node]]) -> str:
    text = rendered_terms(view, terms)
    return text if len(terms) == 1 and terms[0][0] > 0 else f"({text})"


# ---------------------------------------------------------------------------------------------------------------
# gemm_tile


@dataclass(frozen=True)
class GemmConfig:
    block_m: int              # rows of C per block
    block_n: int              # columns of C per block
    block_k: int              # depth of the shared-memory tiles
    thread_m: int             # rows of C per thread
    thread_n: int             # columns of C per thread

    @property
    def threads_m(self) -> int:
        return self.block_m // self.thread_m

    @property
    def threads_n(self) -> int:
        return self.block_n // self.thread_n

    @property
    def threads(self) -> int:
        return self.threads_m * self.threads_n


GEMM_CONFIGS = (GemmConfig(64, 64, 16, 4, 4), GemmConfig(128, 128, 8, 8, 8))
_FMA_FUNCTIONS = ("fmaf", "__fmaf_rn", "fma")


@dataclass(frozen=True)
class _Operand:
    """One factor of the product: array[outer * stride + k] (k_contiguous) or array[k * stride + outer]."""

    array: str
    stride: str
    k_contiguous: bool


@dataclass
class GemmPlan:
    shape: GridShape
    reduction: Reduction
    a: _Operand               # indexed by the row (y) variable
    b: _Operand               # indexed by the column (x) variable


def _factors(view: KernelView, reduced: Reduction) -> tuple[Node, Node] | None:
    """The two subscripts whose product the loop adds to the accumulator: `acc += X * Y`, `acc = acc + X * Y`,
    `acc = fmaf(X, Y, acc)`, X and Y subscripts or temporaries the loop body loaded just before."""
    *loads, update = reduced.loop.body
    temporaries: dict[str, Node] = {}
    for load in loads:
        declared = _declared_loads(view, load)
        if declared is None:
            return None
        temporaries.update(declared)
    if update.type != "expression_statement" or update.named_child_count != 1:
        return None
    assignment = unparenthesized(update.named_children[0])
    if assignment.type != "assignment_expression" or view.text(assignment.child_by_field_name("left")) != reduced.acc:
        return None
    right = unparenthesized(assignment.child_by_field_name("right"))
    product = None
    if operator(assignment) == "+=":
        product = right
    elif operator(assignment) == "=" and right.type == "call_expression" and \
            view.text(right.child_by_field_name("function")) in _FMA_FUNCTIONS:
        arguments = right.child_by_field_name("arguments").named_children
        if len(arguments) == 3 and view.text(unparenthesized(arguments[2])) == reduced.acc:
            return _resolved(view, arguments[:2], temporaries)
    elif operator(assignment) == "=":
        terms = signed_terms(right)
        others = [term for sign, term in terms if view.text(term) != reduced.acc]
        if len(terms) == 2 and len(others) == 1 and all(sign > 0 for sign, _ in terms):
            product = others[0]
    if product is None or product.type != "binary_expression" or operator(product) != "*":
        return None
    return _resolved(view, [product.child_by_field_name("left"), product.child_by_field_name("right")], temporaries)


def _declared_loads(view: KernelView, declaration: Node) -> dict[str, Node] | None:
    """Temporaries holding a subscript as it is (`float av = a[...];`: no conversion), by name."""
    if declaration.type != "declaration" or declared_type(view, declaration) not in ("float", "const float"):
        return None
    loads = {}
    for declarator in declaration.children_by_field_name("declarator"):
        value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
        if value is None or unparenthesized(value).type != "subscript_expression":
            return None
        loads[view.text(declarator.child_by_field_name("declarator"))] = unparenthesized(value)
    return loads


def _resolved(view: KernelView, factors: list[Node], temporaries: dict[str, Node]) -> tuple[Node, Node] | None:
    resolved = []
    for factor in factors:
        factor = unparenthesized(factor)
        if factor.type == "identifier" and view.text(factor) in temporaries:
            factor = temporaries.pop(view.text(factor))
        if factor.type != "subscript_expression":
            return None
        resolved.append(factor)
    return None if temporaries else (resolved[0], resolved[1])   # every temporary is a factor


def _operand(view: KernelView, subscript: Node, outer: str, k: str, uniform: set[str]) -> _Operand | None:
    array = view.text(subscript.child_by_field_name("argument"))
    param = _param(view, array)
    if param is None or not param.is_pointer or param.base_type != "float" or not read_only_array(view, array):
        return None
    form = polynomial(view, index_of(subscript))
    for k_contiguous, stride in ((True, strided(form, outer, k)), (False, strided(form, k, outer))):
        if stride is not None and set(stride) <= uniform:
            return _Operand(array, rendered_monomial(stride), k_contiguous)
    return None


def gemm_plan(view: KernelView) -> GemmPlan | None:
    shape = grid_shape(view)
    if shape is None or shape.y is None or not _bounds_expressible(view, shape):
        return None
    reduced = reduction(view, shape.body)
    if reduced is None or reduced.acc_type != "float" or int_literal(view.text(reduced.loop.start)) != 0 or \
            not uses_only(view, reduced.loop.bound, shape.uniform):
        return None
    factors = _factors(view, reduced)
    if factors is None:
        return None
    x, y, k = shape.x.name, shape.y.name, reduced.loop.var
    first, second = (_operand(view, f, outer, k, shape.uniform) for f, outer in zip(factors, (y, x)))
    if first is None or second is None:
        first, second = (_operand(view, f, outer, k, shape.uniform) for f, outer in zip(factors, (x, y)))
        first, second = second, first
    epilogue = reduced.epilogue
    if first is None or second is None or not movable(view, epilogue) or \
            foreign_locals(view, epilogue, {x, y, reduced.acc} | shape.uniform) or \
            reduced.acc not in {name for statement in epilogue for name in identifiers(view, statement)}:
        return None
    return GemmPlan(shape, reduced, first, second)


class GemmTile(Rule):
    name = "gemm_tile"
    symptom = "latency"

    def detect(self, view: KernelView) -> list[Match]:
        plan = gemm_plan(view)
        if plan is None:
            return []
        return [Match(rule=self.name, span=view.span(plan.reduction.loop.node), symptom=self.symptom, message=(
            f"naive matrix product: every multiply-add loads one element of {plan.a.array} and one of {plan.b.array} "
            "from L2, and the load queue, not the FMA units, sets the pace; shared-memory tiles with register "
            "blocking reuse each loaded element many times"))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        plan = gemm_plan(view)
        if plan is None:
            return []
        return [_edit(self, self.render(view, node, plan, config)) for config in GEMM_CONFIGS]

    @staticmethod
    def render(view: KernelView, node: Candidate, plan: GemmPlan, config: GemmConfig) -> Candidate:
        shape, reduced, names = plan.shape, plan.reduction, _Names(view)
        x, y = shape.x, shape.y
        n = {key: names(key) for key in ("a_tile", "b_tile", "thread_row", "thread_col", "block_row", "block_col",
                                          "acc", "k_base", "kk", "a_frag", "b_frag", "i", "j")}
        depth = wrapped(view, reduced.loop.bound)
        loads = "\n".join(_tile_load(names, config, operand, tile, origin, wrapped(view, bound), extent, n["k_base"],
                                     depth)
                          for operand, tile, origin, bound, extent in (
                              (plan.a, n["a_tile"], n["block_row"], y.bound, config.block_m),
                              (plan.b, n["b_tile"], n["block_col"], x.bound, config.block_n)))
        body = _filled("""
            // k-major tiles of A ($bm rows) and B ($bn columns): the fragments a thread reads for one k lie in one
            // shared-memory row; rows padded by 4 floats so that stores from k-contiguous loads spread over the banks.
            __shared__ float $a_tile[$bk][$bm + 4];
            __shared__ float $b_tile[$bk][$bn + 4];
            $uniform
            const int $thread_col = threadIdx.x % $threads_n;
            const int $thread_row = threadIdx.x / $threads_n;
            const int $block_row = blockIdx.y * $bm;
            const int $block_col = blockIdx.x * $bn;
            // Each thread accumulates $tm x $tn elements of C, rows $threads_m apart and columns $threads_n apart.
            float $acc[$tm][$tn] = {};
            for (int $k_base = 0; $k_base < $depth; $k_base += $bk) {
                $loads
                __syncthreads();
                #pragma unroll
                for (int $kk = 0; $kk < $bk; ++$kk) {
                    float $a_frag[$tm], $b_frag[$tn];
                    #pragma unroll
                    for (int $i = 0; $i < $tm; ++$i) {
                        $a_frag[$i] = $a_tile[$kk][$thread_row + $i * $threads_m];
                    }
                    #pragma unroll
                    for (int $j = 0; $j < $tn; ++$j) {
                        $b_frag[$j] = $b_tile[$kk][$thread_col + $j * $threads_n];
                    }
                    #pragma unroll
                    for (int $i = 0; $i < $tm; ++$i) {
                        #pragma unroll
                        for (int $j = 0; $j < $tn; ++$j) {
                            $acc[$i][$j] += $a_frag[$i] * $b_frag[$j];
                        }
                    }
                }
                __syncthreads();
            }
            #pragma unroll
            for (int $i = 0; $i < $tm; ++$i) {
                #pragma unroll
                for (int $j = 0; $j < $tn; ++$j) {
                    $ytype $y = $block_row + $thread_row + $i * $threads_m;
                    $xtype $x = $block_col + $thread_col + $j * $threads_n;
                    if ($guard) {
                        $acc_type $sum = $acc[$i][$j];
                        $epilogue
                    }
                }
            }""", **n, bk=str(config.block_k), bm=str(config.block_m), bn=str(config.block_n),
                       tm=str(config.thread_m), tn=str(config.thread_n), threads_m=str(config.threads_m),
                       threads_n=str(config.threads_n), uniform=_uniform(view, shape), depth=depth, loads=loads,
                       ytype=y.type_text, xtype=x.type_text, y=y.name, x=x.name, guard=shape.guard(view),
                       acc_type=reduced.acc_type, sum=reduced.acc, epilogue=_source(view, reduced.epilogue))
        description = (f"tiled fp32 GEMM: {config.block_m}x{config.block_n} block tile, {config.thread_m}x"
                       f"{config.thread_n} outputs per thread, k tiles of {config.block_k} in shared memory")
        return _tiled(node, _kernel_with_body(view, body), description,
                      _grid(view, node, shape, config.block_n, config.block_m), [str(config.threads)])


def _tile_load(names: _Names, config: GemmConfig, operand: _Operand, tile: str, origin: str, bound: str, extent: int,
               k_base: str, depth: str) -> str:
    """The block's threads copy one k tile of an operand (extent x block_k elements) into `tile`, consecutive
    threads taking consecutive addresses of the operand; elements past the matrix read as zero."""
    element, kk, outer, global_outer, global_k = (names(n) for n in ("e", "tile_k", "tile_outer", "g_outer", "g_k"))
    if operand.k_contiguous:
        split = f"const int {kk} = {element} % {config.block_k}, {outer} = {element} / {config.block_k};"
        index = f"{global_outer} * {operand.stride} + {global_k}"
    else:
        split = f"const int {outer} = {element} % {extent}, {kk} = {element} / {extent};"
        index = f"{global_k} * {operand.stride} + {global_outer}"
    return _filled("""
        for (int $element = threadIdx.x; $element < $size; $element += $threads) {
            $split
            const int $global_outer = $origin + $outer, $global_k = $k_base + $kk;
            $tile[$kk][$outer] = $global_outer < $bound && $global_k < $depth ? $array[$index] : 0.0f;
        }""", element=element, size=str(extent * config.block_k), threads=str(config.threads), split=split,
                   global_outer=global_outer, global_k=global_k, origin=origin, outer=outer, k_base=k_base, kk=kk,
                   tile=tile, bound=bound, depth=depth, array=operand.array, index=index)


# ---------------------------------------------------------------------------------------------------------------
# column_reduce

COLUMN_BLOCK_WIDTH = 32
COLUMN_BLOCK_HEIGHTS = (8, 32)


@dataclass
class ColumnPlan:
    shape: GridShape
    reduction: Reduction


def _sums_only(view: KernelView, reduced: Reduction) -> bool:
    """Whether the loop uses the accumulator only to add to it (`acc += e;`, `acc = acc + e;`, e free of acc):
    then per-thread partial sums added up afterwards give the same sum, reordered."""
    acc = reduced.acc
    accumulating: set[int] = set()      # start bytes of the uses of acc inside accumulations
    for statement in reduced.loop.body:
        for assignment in view.descendants(statement, "assignment_expression"):
            left, right = assignment.child_by_field_name("left"), assignment.child_by_field_name("right")
            if view.text(left) != acc or assignment.parent.type != "expression_statement":
                continue
            in_right = [use for use in view.descendants(right, "identifier") if view.text(use) == acc]
            if operator(assignment) == "+=" and not in_right:
                accumulating.add(left.start_byte)
            elif operator(assignment) == "=" and len(in_right) == 1 and \
                    (1, in_right[0].start_byte) in {(sign, term.start_byte) for sign, term in signed_terms(right)}:
                accumulating |= {left.start_byte, in_right[0].start_byte}
    return all(use.start_byte in accumulating for statement in reduced.loop.body
               for use in view.descendants(statement, "identifier") if view.text(use) == acc)


def _writes_memory(view: KernelView, nodes: list[Node]) -> bool:
    """Whether the statements store to memory (a subscript written, an atomic): iterations that the rewrite runs in
    parallel could then depend on each other through it."""
    return any(is_write(subscript) for node in nodes for subscript in view.descendants(node, "subscript_expression")) \
        or any(view.text(call.child_by_field_name("function")).startswith("atomic")
               for node in nodes for call in view.descendants(node, "call_expression"))


def _reads_columns(view: KernelView, reduced: Reduction, column: str, uniform: set[str]) -> bool:
    """Whether the loop reads some array down a column: array[r * stride + column]."""
    for statement in reduced.loop.body:
        for subscript in view.descendants(statement, "subscript_expression"):
            stride = strided(polynomial(view, index_of(subscript)), reduced.loop.var, column)
            if stride is not None and set(stride) <= uniform and not is_write(subscript):
                return True
    return False


def column_plan(view: KernelView) -> ColumnPlan | None:
    shape = grid_shape(view)
    if shape is None or shape.y is not None or not _bounds_expressible(view, shape):
        return None
    reduced = reduction(view, shape.body)
    if reduced is None:
        return None
    loop, column, acc = reduced.loop, shape.x.name, reduced.acc
    if not uses_only(view, loop.start, shape.uniform) or not uses_only(view, loop.bound, shape.uniform) or \
            not movable(view, loop.body) or escapes_loop(view, loop.body) or _writes_memory(view, loop.body) or \
            not _sums_only(view, reduced) or \
            foreign_locals(view, loop.body, {column, acc, loop.var} | shape.uniform) or \
            not _reads_columns(view, reduced, column, shape.uniform) or not movable(view, reduced.epilogue) or \
            foreign_locals(view, reduced.epilogue, {column, acc} | shape.uniform):
        return None
    return ColumnPlan(shape, reduced)


class ColumnReduce(Rule):
    name = "column_reduce"
    symptom = "small_grid"

    def detect(self, view: KernelView) -> list[Match]:
        plan = column_plan(view)
        if plan is None:
            return []
        loop = plan.reduction.loop
        return [Match(rule=self.name, span=view.span(loop.node), symptom=self.symptom, message=(
            f"one thread per column runs the whole loop over {view.text(loop.bound)}: the grid has only as many "
            "threads as columns, too few to fill the GPU; splitting the rows among a block's threads gives each "
            "column 8 to 32 threads"))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        plan = column_plan(view)
        if plan is None:
            return []
        return [_edit(self, self.render(view, node, plan, COLUMN_BLOCK_WIDTH, height))
                for height in COLUMN_BLOCK_HEIGHTS]

    @staticmethod
    def render(view: KernelView, node: Candidate, plan: ColumnPlan, width: int, height: int) -> Candidate:
        """`width` columns per block of `width` x `height` threads; `height` is a power of two (the tree sum)."""
        shape, reduced, names = plan.shape, plan.reduction, _Names(view)
        loop = reduced.loop
        partial, stride = names("partial"), names("stride")
        start = "threadIdx.y" if int_literal(view.text(loop.start)) == 0 else \
            f"{wrapped(view, loop.start)} + threadIdx.y"
        body = _filled("""
            __shared__ $acc_type $partial[$height][$width];
            $uniform
            $xtype $x = blockIdx.x * $width + threadIdx.x;
            $acc_declaration
            // The block's $height rows of threads split the rows of their column.
            if ($guard) {
                for ($loop_type $r = $start; $r < $bound; $r += $height) {
                    $loop_body
                }
            }
            $partial[threadIdx.y][threadIdx.x] = $acc;
            __syncthreads();
            for (int $stride = $height / 2; $stride > 0; $stride /= 2) {
                if (threadIdx.y < $stride) {
                    $partial[threadIdx.y][threadIdx.x] += $partial[threadIdx.y + $stride][threadIdx.x];
                }
                __syncthreads();
            }
            if (threadIdx.y == 0 && $guard) {
                $acc = $partial[0][threadIdx.x];
                $epilogue
            }""", acc_type=reduced.acc_type, partial=partial, height=str(height), width=str(width),
                       uniform=_uniform(view, shape), xtype=shape.x.type_text, x=shape.x.name,
                       acc_declaration=view.text(reduced.declaration), guard=shape.guard(view),
                       loop_type=loop.type_text, r=loop.var, start=start, bound=wrapped(view, loop.bound),
                       loop_body=_source(view, loop.body), acc=reduced.acc, stride=stride,
                       epilogue=_source(view, reduced.epilogue))
        description = (f"{width} columns per block of {width}x{height} threads: each "
                       f"column's rows split among {height} threads, partial sums added in shared memory")
        return _tiled(node, _kernel_with_body(view, body), description, _grid(view, node, shape, width),
                      [str(width), str(height)])


RULES = [TransposeTile(), StencilTile(), GemmTile(), ColumnReduce()]
