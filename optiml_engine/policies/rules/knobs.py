"""Knobs that leave a kernel's algorithm alone: `block_size` (the launch's block shape, with a matching
`__launch_bounds__`), `fast_math` (hardware approximations of the fp32 math functions, where the contract's
tolerance leaves room for them) and `unroll` (`#pragma unroll 4` on loops with a runtime trip count)."""

from __future__ import annotations

import math
from collections.abc import Callable

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract, LaunchRule
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.policies.rules.elementwise import (
    GEOMETRY,
    GuardedGrid,
    assigned,
    bare,
    bound_values,
    cdiv_extent,
    declared_contract,
    geometry_only_in_indices,
    guarded_grid,
    launch_covers,
    names_in,
    operator,
    rendered,
    resolved_all,
    subscript_index,
    subscript_of,
)
from optiml_engine.source.ctypes import dtype_of, is_integer

# ---------------------------------------------------------------------------------------------------------------
# block_size

BLOCKS_1D = ((128,), (256,), (512,), (1024,))
BLOCKS_2D = ((32, 8), (32, 16), (64, 4))


def launch_bounds_replacement(view: KernelView, threads: int, blocks: int = 1) -> tuple[int, int, str]:
    """The replacement (for KernelView.replaced) that gives the kernel `__launch_bounds__(threads)` (with `blocks`
    > 1, `__launch_bounds__(threads, blocks)`: registers capped so that many blocks fit an SM), in place of the one
    it has, if any."""
    bounds = f"__launch_bounds__({threads}{f', {blocks}' if blocks > 1 else ''})"
    existing = next((c for c in view.node.children if c.type == "launch_bounds"), None)
    if existing is not None:
        return existing.start_byte, existing.end_byte, bounds
    declarator = view.node.child_by_field_name("declarator")
    return declarator.start_byte, declarator.start_byte, bounds + " "


class BlockSize(Rule):
    """Other block shapes for a kernel that takes its block size from the launch: the grid is `cdiv(E, B)` per
    dimension with B the block, and the kernel sees the geometry only through its guarded global indices
    (`blockIdx.d * blockDim.d + threadIdx.d`, nothing hard-coded, no shared memory or warp-level code). Each variant
    is checked to launch a thread for every guarded index at every size; `__launch_bounds__` tells the compiler the
    block size, so it may spend registers up to what that block size allows."""

    name = "block_size"
    symptom = "occupancy"

    def _grid(self, view: KernelView) -> GuardedGrid | None:
        grid = guarded_grid(view)
        if grid is None or not geometry_only_in_indices(view, grid):
            return None
        dims = sorted(index.dim for index in grid.indices.values())
        return grid if dims in (["x"], ["x", "y"]) else None

    def detect(self, view: KernelView) -> list[Match]:
        grid = self._grid(view)
        if grid is None:
            return []
        contract = declared_contract(view)
        if contract is not None and not self._variants(view, grid, contract):
            return []
        first = min((index.declaration for index in grid.indices.values()), key=lambda n: n.start_byte)
        return [Match(rule=self.name, span=view.span(first), symptom=self.symptom,
                      message="the block size is the launch's choice (the kernel indexes through blockDim): other "
                              "block shapes may keep more warps resident or fill the SMs better")]

    def _variants(self, view: KernelView, grid: GuardedGrid,
                  contract: Contract) -> list[tuple[tuple[int, ...], LaunchRule]]:
        """(block shape, launch rule) of every other block shape whose launch covers the guarded indices."""
        launch = contract.launch
        dims = len(grid.indices)
        if len(launch.grid) != dims or len(launch.block) != dims:
            return []
        extents = [cdiv_extent(g, b, contract) for g, b in zip(launch.grid, launch.block)]
        resolved = resolved_all(contract)
        if None in extents or resolved is None:
            return []
        current = resolved[0].block[:dims]
        variants = []
        for shape in BLOCKS_1D if dims == 1 else BLOCKS_2D:
            if shape == current:
                continue
            new = LaunchRule(grid=[f"cdiv({e},{b})" for e, b in zip(extents, shape)], block=[str(b) for b in shape],
                             smem=launch.smem)
            bounds = bound_values(view, grid, contract.model_copy(update={"launch": new}))
            if bounds is not None and launch_covers(grid, bounds):
                variants.append((shape, new))
        return variants

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        grid = self._grid(view)
        if grid is None:
            return []
        edits = []
        for shape, launch in self._variants(view, grid, node.contract):
            threads = math.prod(shape)
            replacement = launch_bounds_replacement(view, threads)
            description = f"block {'x'.join(map(str, shape))} with __launch_bounds__({threads})"
            edits.append(Edit(candidate=derived(node, view.replaced([replacement]), description, launch),
                              rule=self.name, description=description, symptom=self.symptom))
        return edits


# ---------------------------------------------------------------------------------------------------------------
# fast_math

# The hardware (SFU) approximations, with their maximum error (CUDA C++ Programming Guide, "Intrinsic Functions"):
# __expf 2 + floor(|1.173 x|) ulp (under 1e-5 relative for |x| < 140); __exp10f 2 + floor(|2.97 x|) ulp;
# __logf, __log2f, __log10f: 2^-21.41 absolute for x in [0.5, 2], else 3 ulp (__log10f, __logf) or 2 ulp (__log2f);
# __sinf, __cosf: 2^-21.41 absolute for x in [-pi, pi] (larger outside); __tanf from them; __powf through
# exp2(y log2 x), 2 + floor(|1.173 y log2 x|) ulp; __fdividef 2 ulp for |y| in [2^-126, 2^126]; rsqrtf 2 ulp.
# All stay under about 1e-5 relative error (1e-6 absolute near a root of log) for arguments of the size
# elementwise and row kernels see; a contract tolerance of 1e-4 or more leaves a margin of ten.
FAST_FUNCTIONS = {"expf": "__expf", "exp10f": "__exp10f", "logf": "__logf", "log2f": "__log2f",
                  "log10f": "__log10f", "sinf": "__sinf", "cosf": "__cosf", "tanf": "__tanf", "powf": "__powf",
                  "sincosf": "__sincosf"}
FAST_MATH_TOL = 1e-4
# fp32 math functions whose result is a float (for telling fp32 divisions apart).
_FLOAT_FUNCTIONS = frozenset({*FAST_FUNCTIONS, *FAST_FUNCTIONS.values(), "sqrtf", "rsqrtf", "fabsf", "fmaxf",
                              "fminf", "fmaf", "tanhf", "exp2f", "floorf", "ceilf", "truncf", "roundf", "__fdividef"})


def _category(type_text: str) -> str | None:
    """'float', 'double' or 'int' for a C scalar type; None for anything else (vectors, templates, half)."""
    dtype = dtype_of(type_text)
    if dtype is None:
        return None
    if dtype == "float32":
        return "float"
    if dtype == "float64":
        return "double"
    return "int" if is_integer(dtype) or dtype == "bool" else None


def _declarations(view: KernelView, root: Node) -> list[tuple[str, Node]]:
    """(name, declaration) of every variable declared under `root`."""
    declared = []
    for declaration in view.descendants(root, "declaration"):
        for declarator in declaration.children_by_field_name("declarator"):
            while declarator.type != "identifier" and declarator.child_by_field_name("declarator") is not None:
                declarator = declarator.child_by_field_name("declarator")
            declared.append((view.text(declarator), declaration))
    return declared


def _declared_types(view: KernelView) -> dict[str, str | None]:
    """Variable -> category: scalars by their type, pointers and arrays by their element type; a name declared
    with different types in different scopes has none."""
    types: dict[str, str | None] = {}

    def declare(name: str, category: str | None) -> None:
        types[name] = category if types.get(name, category) == category else None

    for param in view.kernel.params:
        declare(param.name, _category(param.base_type))
    for name, declaration in _declarations(view, view.body):
        declare(name, _category(view.text(declaration.child_by_field_name("type"))))
    return types


def expression_type(view: KernelView, node: Node, types: dict[str, str | None]) -> str | None:
    """'float', 'double' or 'int' for an arithmetic expression whose operands are all known; None otherwise."""
    node = node.named_children[0] if node.type == "parenthesized_expression" else node
    kind = node.type
    if kind == "number_literal":
        text = view.text(node).lower()
        if text.startswith("0x") or not any(c in text for c in ".e"):
            return "int"
        return "float" if text.endswith("f") else "double"
    if kind == "identifier":
        return types.get(view.text(node))
    if kind == "subscript_expression":
        argument = node.child_by_field_name("argument")
        return types.get(view.text(argument)) if argument.type == "identifier" else None
    if kind == "field_expression":
        return "int" if view.text(node.child_by_field_name("argument")) in GEOMETRY else None
    if kind == "call_expression":
        return "float" if view.text(node.child_by_field_name("function")) in _FLOAT_FUNCTIONS else None
    if kind == "cast_expression":
        return _category(view.text(node.child_by_field_name("type")))
    if kind == "unary_expression" and operator(node) in "-+":
        return expression_type(view, node.child_by_field_name("argument"), types)
    if kind == "binary_expression" and operator(node) in ("+", "-", "*", "/", "%"):
        operands = [expression_type(view, node.child_by_field_name(side), types) for side in ("left", "right")]
        if None in operands:
            return None
        return next((c for c in ("double", "float") if c in operands), "int")
    return None


def _reciprocal_sqrt(view: KernelView, node: Node) -> Node | None:
    """The argument of `1.0f / sqrtf(e)`, which is `rsqrtf(e)`."""
    if node.type != "binary_expression" or operator(node) != "/":
        return None
    left, right = node.child_by_field_name("left"), bare(node.child_by_field_name("right"))
    if view.text(left) not in ("1.0f", "1.f") or right.type != "call_expression" \
            or view.text(right.child_by_field_name("function")) != "sqrtf":
        return None
    arguments = right.child_by_field_name("arguments").named_children
    return arguments[0] if len(arguments) == 1 else None


class FastMath(Rule):
    """expf/logf/sinf/... calls become their hardware approximations (__expf ...), `1/sqrtf(e)` rsqrtf(e) and
    fp32 divisions __fdividef, when the contract's tolerance is at least 1e-4 (error bounds above). In the source,
    never as a compiler flag (--use_fast_math): the result is offered as a diff of the user's file, which carries no
    flags, so a kernel measured with one would not be the kernel the user gets."""

    name = "fast_math"
    symptom = "compute"

    def _sites(self, view: KernelView) -> list[Node]:
        """The calls and divisions to approximate, outermost first."""
        types = _declared_types(view)
        sites = []
        for node in view.descendants(view.body, "call_expression", "binary_expression"):
            if node.type == "call_expression":
                if view.text(node.child_by_field_name("function")) in FAST_FUNCTIONS:
                    sites.append(node)
            elif operator(node) == "/" and (_reciprocal_sqrt(view, node) is not None
                                            or expression_type(view, node, types) == "float"):
                sites.append(node)
        return sites

    @staticmethod
    def _approximation(view: KernelView, site: Node) -> str:
        """What a site becomes: the intrinsic's name."""
        if site.type == "call_expression":
            return FAST_FUNCTIONS[view.text(site.child_by_field_name("function"))]
        return "rsqrtf" if _reciprocal_sqrt(view, site) is not None else "__fdividef"

    def _substitute(self, view: KernelView, sites: set[int]) -> Callable[[Node, Callable[[Node], str]], str | None]:
        def substitute(node: Node, render: Callable[[Node], str]) -> str | None:
            if node.id not in sites:
                return None
            approximation = self._approximation(view, node)
            if node.type == "call_expression":
                return approximation + render(node.child_by_field_name("arguments"))
            if approximation == "rsqrtf":
                return f"rsqrtf({render(_reciprocal_sqrt(view, node))})"
            left, right = (render(node.child_by_field_name(side)) for side in ("left", "right"))
            return f"__fdividef({left}, {right})"

        return substitute

    def detect(self, view: KernelView) -> list[Match]:
        contract = declared_contract(view)
        if contract is not None and contract.tol < FAST_MATH_TOL:
            return []
        return [Match(rule=self.name, span=view.span(site), symptom=self.symptom,
                      message=f"'{view.text(site)[:40]}' is computed to IEEE accuracy; the hardware approximation "
                              f"is a few ulp off and several times faster, within the contract's tolerance")
                for site in self._sites(view)]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        sites = self._sites(view)
        if not sites or node.contract.tol < FAST_MATH_TOL:
            return []
        body = rendered(view, view.body, self._substitute(view, {site.id for site in sites}))
        description = f"fast math intrinsics ({', '.join(sorted({self._approximation(view, s) for s in sites}))})"
        return [Edit(candidate=derived(node, view.replaced([(view.body.start_byte, view.body.end_byte, body)]),
                                       description),
                     rule=self.name, description=description, symptom=self.symptom)]


# ---------------------------------------------------------------------------------------------------------------
# unroll

UNROLL = 4


def _loop_variable(view: KernelView, loop: Node) -> str | None:
    """The variable of `for (v = ...; v < e; v += step)` with a literal step (++, --, += c, -= c)."""
    update, condition = loop.child_by_field_name("update"), loop.child_by_field_name("condition")
    if update is None or condition is None or condition.type != "binary_expression":
        return None
    target = assigned(update)
    if target is None or target.type != "identifier":
        return None
    if update.type == "assignment_expression" and (operator(update) not in ("+=", "-=")
                                                   or update.child_by_field_name("right").type != "number_literal"):
        return None
    variable = view.text(target)
    sides = [condition.child_by_field_name("left"), condition.child_by_field_name("right")]
    if operator(condition) not in ("<", "<=", ">", ">=", "!=") or variable not in [view.text(s) for s in sides]:
        return None
    return variable


def _runtime_trip_count(view: KernelView, loop: Node) -> bool:
    """The loop's start or bound involves a kernel parameter or a local variable (not only literals, template
    parameters or macros: constant trip counts, which the compiler unrolls by itself)."""
    runtime = {p.name for p in view.kernel.params} | {name for name, _ in _declarations(view, view.body)}
    initializer, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
    values = [d.child_by_field_name("value") for d in view.descendants(initializer, "init_declarator")] \
        if initializer is not None and initializer.type == "declaration" else [initializer]
    loop_variables = {name for name, _ in _declarations(view, initializer)} if initializer is not None else set()
    return bool(names_in(view, [v for v in [*values, condition] if v is not None]) & runtime - loop_variables)


def _carried_only_by_reductions(view: KernelView, loop: Node, variable: str) -> bool:
    """Iterations depend on each other only through reductions: every variable from outside the loop that the
    body writes is updated as `v op= e`, `v = v op e`, `v = f(v, e)` or `if (... v ...) v = e` (a max or min), with
    e free of v; arrays written in the loop are accessed at one index only (no value passes through memory from
    one iteration to the next); nothing breaks out of it."""
    body = loop.child_by_field_name("body")
    if any(True for _ in view.descendants(body, "break_statement", "return_statement", "goto_statement")):
        return False
    local = {name for name, _ in _declarations(view, body)}
    written_arrays: dict[str, set[str]] = {}
    for write in view.descendants(body, "assignment_expression", "update_expression"):
        target = assigned(write)
        if target.type == "subscript_expression":
            argument = target.child_by_field_name("argument")
            written_arrays[view.text(argument)] = set()
            continue
        name = view.text(target)
        if name == variable or target.type != "identifier":
            return False
        if name not in local and not _is_reduction(view, write, name):
            return False
    for name in view.descendants(body, "identifier"):
        subscript = subscript_of(name)
        if subscript is not None and view.text(name) in written_arrays:
            written_arrays[view.text(name)].add(view.text(subscript_index(subscript) or subscript))
    return all(len(indices) == 1 for indices in written_arrays.values())


def _is_reduction(view: KernelView, write: Node, name: str) -> bool:
    if write.type == "update_expression":
        return True   # a count
    right = write.child_by_field_name("right")
    if operator(write) != "=":
        return operator(write) in ("+=", "-=", "*=", "|=", "&=", "^=") and name not in names_in(view, [right])
    right = bare(right)
    if right.type == "binary_expression" and operator(right) in ("+", "*", "-", "|", "&", "^"):
        operands = [right.child_by_field_name("left"), right.child_by_field_name("right")]
        reduced = [o for o in operands if view.text(bare(o)) == name]
        others = [o for o in operands if view.text(bare(o)) != name]
        return len(reduced) == 1 and (operator(right) != "-" or reduced[0] == operands[0]) \
            and name not in names_in(view, others)
    if right.type == "call_expression" and view.text(right.child_by_field_name("function")) in (
            "fmaxf", "fminf", "max", "min", "fmax", "fmin"):
        arguments = right.child_by_field_name("arguments").named_children
        return sum(view.text(bare(a)) == name for a in arguments) == 1 and \
            name not in names_in(view, [a for a in arguments if view.text(bare(a)) != name])
    # `if (... v ...) v = e;`: a conditional select, the max/min pattern.
    statement = write.parent
    guard = statement.parent if statement.type == "expression_statement" else None
    if guard is not None and guard.type == "compound_statement" and len(guard.named_children) == 1:
        guard = guard.parent
    return guard is not None and guard.type == "if_statement" and guard.child_by_field_name("alternative") is None \
        and name in names_in(view, [guard.child_by_field_name("condition")]) and name not in names_in(view, [right])


def _has_unroll_pragma(view: KernelView, loop: Node) -> bool:
    before = loop.prev_named_sibling
    return before is not None and before.type == "preproc_call" and view.text(before).split()[:2] == [
        "#pragma", "unroll"]


class Unroll(Rule):
    """`#pragma unroll 4` on innermost `for` loops with a runtime trip count whose iterations depend on each
    other only through reductions: four iterations' loads can be in flight at once and the loop overhead is paid
    once per four. Unrolling never changes results (the compiler keeps the order of operations)."""

    name = "unroll"
    symptom = "latency"

    def _loops(self, view: KernelView) -> list[Node]:
        loops = []
        for loop in view.descendants(view.body, "for_statement"):
            body = loop.child_by_field_name("body")
            if loop.parent.type != "compound_statement" or any(
                    True for _ in view.descendants(body, "for_statement", "while_statement", "do_statement")):
                continue   # a pragma needs a line of its own in a block; only innermost loops
            variable = _loop_variable(view, loop)
            if variable is not None and not _has_unroll_pragma(view, loop) \
                    and _runtime_trip_count(view, loop) \
                    and _carried_only_by_reductions(view, loop, variable):
                loops.append(loop)
        return loops

    def detect(self, view: KernelView) -> list[Match]:
        return [Match(rule=self.name, span=view.span(loop), symptom=self.symptom,
                      message=f"loop with a runtime trip count and independent iterations (reductions aside): "
                              f"`#pragma unroll {UNROLL}` keeps {UNROLL} iterations' loads in flight together")
                for loop in self._loops(view)]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        loops = self._loops(view)
        if not loops:
            return []
        replacements = []
        for loop in loops:
            line_start = view.source.rfind(b"\n", 0, loop.start_byte) + 1
            indent = view.source[line_start:loop.start_byte].decode()
            if indent.strip():   # code before the loop on its line: the pragma goes on a new line
                replacements.append((loop.start_byte, loop.start_byte, f"\n#pragma unroll {UNROLL}\n"))
            else:
                replacements.append((loop.start_byte, loop.start_byte, f"#pragma unroll {UNROLL}\n{indent}"))
        description = f"#pragma unroll {UNROLL} on {len(loops)} loop{'s' if len(loops) > 1 else ''}"
        return [Edit(candidate=derived(node, view.replaced(replacements), description), rule=self.name,
                     description=description, symptom=self.symptom)]


RULES: list[Rule] = [BlockSize(), FastMath(), Unroll()]
