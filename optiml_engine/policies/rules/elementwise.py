"""Elementwise rules: `restrict_readonly`, `vectorize_16b`, `grid_stride`; and the analysis of thread-indexed
kernels that these and the launch knobs (knobs.py) share.

The shape they work on is the naive kernel's: declarations, among them global thread indices
(`int i = blockIdx.x * blockDim.x + threadIdx.x`, in any operand order), then a guard per index (`if (i < n) {...}`
around the rest, or `if (i >= n) return;` before it), then the guarded statements. A rewrite that moves work
between threads is only offered when nothing in the kernel depends on the launch geometry except through those
indices (no other threadIdx/blockIdx/blockDim/gridDim, shared memory, barriers or warp-level functions), and when,
at every size the contract checks, the contract's launch runs a thread for every index under its guard (the
kernel's bounds are evaluated from the contract's scalars).

Contract-fed buffers: every array parameter gets its own allocation (CuPy, 256-byte aligned). That is what makes
`__restrict__` and 16-byte vector accesses safe for a kernel whose pointer parameters are whole arrays; a caller
that passed overlapping or offset pointers would break them. As lints on the user's file, they are held back where
the file's own launches do that: one argument passed to two pointer parameters (restrict), a pointer argument that
is not a plain variable, such as `x + 1` (vectorize).
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract, OptimlError, ResolvedContract
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, bare, derived, global_index_dim, operator
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import dtype_of
from optiml_engine.source.expr import Call, parse_expr

GEOMETRY = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"})
# Calls through which threads of a block or warp see each other: barriers, shuffles, votes, warp reductions,
# cooperative groups.
CROSS_THREAD_PREFIXES = ("__sync", "__shfl", "__ballot", "__any", "__all", "__activemask", "__match", "__reduce",
                          "__barrier", "this_thread_block", "this_grid", "tiled_partition", "coalesced_threads")
# The same in a macro's text, which the tree keeps as one token.
_CROSS_THREAD_TEXT = re.compile(r"\b(?:%s|__shared__|asm)\b|\b(?:%s)" % ("|".join(GEOMETRY),
                                                                          "|".join(CROSS_THREAD_PREFIXES)))
_ASSIGNMENTS = frozenset({"assignment_expression", "update_expression"})

# H100 SXM: 132 SMs with 2048 resident threads each. The grid of one full wave, for kernels that loop over the
# data instead of growing the grid with it (the rule sees no device; the search measures on the real one).
RESIDENT_THREADS = 132 * 2048

# Element types a 16-byte vector access covers four of (an 8-byte one two: float2 ...).
VECTOR_TYPES = {"float32": "float4", "int32": "int4", "uint32": "uint4"}
LANES = "xyzw"


def vector_type(element: str, width: int) -> str:
    """The CUDA vector type of `width` (2 or 4) elements of the C type `element`: float2, int4 ..."""
    return VECTOR_TYPES[dtype_of(element)][:-1] + str(width)


# ---------------------------------------------------------------------------------------------------------------
# Tree helpers


def nodes_under(view: KernelView, roots: Sequence[Node], *types: str) -> Iterator[Node]:
    for root in roots:
        yield from view.descendants(root, *types)


def names_in(view: KernelView, roots: Sequence[Node]) -> set[str]:
    return {view.text(n) for n in nodes_under(view, roots, "identifier")}


def _helpers(view: KernelView) -> dict[str, Node]:
    """Top-level functions and macros of the text by name: the device code a kernel may call or expand."""
    helpers = {}
    for item in view.document.tree.root_node.named_children:
        definition = item.named_children[-1] if item.type == "template_declaration" else item
        if definition.type in ("preproc_def", "preproc_function_def"):
            helpers[view.text(definition.child_by_field_name("name"))] = definition
        elif definition.type == "function_definition" and definition != view.node:
            declarator = definition.child_by_field_name("declarator")
            while declarator is not None and declarator.type != "function_declarator":
                declarator = declarator.child_by_field_name("declarator")
            if declarator is not None:
                helpers[view.text(declarator.child_by_field_name("declarator"))] = definition
    return helpers


def thread_independent(view: KernelView, roots: Sequence[Node]) -> bool:
    """Nothing under `roots`, nor in the functions and macros they use, sees the launch geometry or other threads:
    no threadIdx/blockIdx/blockDim/gridDim/warpSize, no shared memory, barriers, warp-level functions or inline
    assembly."""
    helpers, seen, pending = _helpers(view), set(), list(roots)
    while pending:
        for node in view.descendants(pending.pop()):
            text = view.text(node) if node.type in ("identifier", "preproc_arg") else ""
            if node.type == "identifier" and text in GEOMETRY or node.type == "__shared__" or "asm" in node.type \
                    or node.type == "preproc_arg" and _CROSS_THREAD_TEXT.search(text):
                return False
            if node.type == "call_expression" and view.text(node.child_by_field_name("function")).split("::")[-1] \
                    .startswith(CROSS_THREAD_PREFIXES):
                return False
            if text in helpers and text not in seen:
                seen.add(text)
                pending.append(helpers[text])
    return True


def assigned(node: Node) -> Node | None:
    """The target of an assignment or increment (`x` of `x += 1`, `p[i]` of `p[i]++`); None for other nodes."""
    if node.type == "assignment_expression":
        return node.child_by_field_name("left")
    if node.type == "update_expression":
        return node.child_by_field_name("argument")
    return None


def assigned_names(view: KernelView, roots: Sequence[Node]) -> set[str]:
    """Variables assigned or incremented under `roots` (not array elements)."""
    targets = (assigned(n) for n in nodes_under(view, roots, *_ASSIGNMENTS))
    return {view.text(t) for t in targets if t is not None and t.type == "identifier"}


def is_write(node: Node) -> bool:
    """`node` is the target of an assignment or increment."""
    parent = node.parent
    return parent is not None and parent.type in _ASSIGNMENTS and assigned(parent) == node


def is_plain_store(node: Node) -> bool:
    """`node` is written by `node = ...` without being read."""
    parent = node.parent
    return is_write(node) and parent.type == "assignment_expression" and operator(parent) == "="


def subscript_of(name: Node) -> Node | None:
    """The subscript `name[...]` when the identifier `name` is indexed directly; None for any other use."""
    parent = name.parent
    if parent is not None and parent.type == "subscript_expression" and parent.child_by_field_name("argument") == name:
        return parent
    return None


def subscript_index(node: Node) -> Node | None:
    """The index of a one-index subscript `p[e]`."""
    indices = node.child_by_field_name("indices").named_children
    return indices[0] if len(indices) == 1 else None


def address_taken(node: Node) -> bool:
    parent = node.parent
    return parent is not None and parent.type == "pointer_expression" and operator(parent) == "&"


def element_reads(view: KernelView, name: str) -> list[Node] | None:
    """The subscripts `p[e]` of the pointer `name` when every use of it in the kernel is such an element read
    (none written, no address taken); None otherwise, and where a `#define` of the file names it (a macro's uses
    are not the kernel's text: `#define B_AT(i, j) B[(i) * m + (j)]` writes B where the kernel shows no B)."""
    if name in macro_names(view):
        return None
    reads = []
    for use in view.descendants(view.body, "identifier"):
        if view.text(use) == name:
            subscript = subscript_of(use)
            if subscript is None or is_write(subscript) or address_taken(subscript):
                return None
            reads.append(subscript)
    return reads


def macro_names(view: KernelView) -> set[str]:
    """Every name the values of the file's `#define`s mention."""
    return {word for macro in view.descendants(view.document.tree.root_node, "preproc_def", "preproc_function_def")
            if (value := macro.child_by_field_name("value")) is not None
            for word in re.findall(r"[A-Za-z_]\w*", view.text(value))}


def pointer_arguments(view: KernelView) -> list[list[str]]:
    """The pointer arguments of each launch of the kernel in the viewed text (none in a compile unit, which has no
    host code), spaces removed."""
    positions = [i for i, p in enumerate(view.kernel.params) if p.is_pointer]
    return [[site.args[i].replace(" ", "") for i in positions] for site in view.document.model.launch_sites
            if site.kernel == view.kernel.name and len(site.args) == len(view.kernel.params)]


def pointer_params(view: KernelView) -> dict[str, str]:
    """Pointer parameters (one level: `T*`) and their element types as written."""
    return {p.name: p.base_type for p in view.kernel.params if p.is_pointer and p.type_text.count("*") == 1}


def fresh_name(view: KernelView, wanted: str, taken: set[str]) -> str:
    """`wanted`, with underscores appended until it names nothing in the kernel or in `taken`; added to `taken`."""
    used = names_in(view, [view.node]) | taken
    while wanted in used:
        wanted += "_"
    taken.add(wanted)
    return wanted


def rendered(view: KernelView, node: Node, substitute: Callable[[Node, Callable[[Node], str]], str | None]) -> str:
    """The text of `node` with the nodes under it that `substitute` maps replaced; `substitute(n, render)` may
    render n's own children through `render`, so replacements nest."""

    def render(current: Node) -> str:
        new = substitute(current, render)
        if new is not None:
            return new
        pieces, cursor = [], current.start_byte
        for child in current.children:
            pieces += [view.source[cursor:child.start_byte].decode(), render(child)]
            cursor = child.end_byte
        pieces.append(view.source[cursor:current.end_byte].decode())
        return "".join(pieces)

    return render(node)


def statements_text(view: KernelView, statements: Sequence[Node], indent: str,
                    substitute: Callable[[Node, Callable[[Node], str]], str | None] | None = None) -> str:
    """Statements as lines at `indent`, each re-indented from where it stood, optionally with substitutions."""
    lines = []
    for statement in statements:
        text = rendered(view, statement, substitute) if substitute else view.text(statement)
        dedented = textwrap.dedent(" " * statement.start_point.column + text)
        lines.append(textwrap.indent(dedented, indent))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------------------
# Contract helpers


def declared_contract(view: KernelView) -> Contract | None:
    """The contract written above the kernel when the view holds the user's file (lints); None for a compile unit,
    which carries no comment: its rules take the contract from the candidate."""
    try:
        return view.document.contract(view.kernel.name)
    except OptimlError:
        return None


def resolved_all(contract: Contract) -> list[ResolvedContract] | None:
    """The contract at every size it checks; None when its launch rule is invalid at one of them."""
    try:
        return [resolve(contract, binding) for binding in (contract.sizes, *contract.checks)]
    except OptimlError:
        return None


def cdiv_extent(grid: str, block: str, contract: Contract) -> str | None:
    """E when the grid expression is `cdiv(E, B)` with B the block expression: the grid covers E threads."""
    tree, block_tree = parse_expr(grid, contract.location), parse_expr(block, contract.location)
    if isinstance(tree, Call) and tree.function == "cdiv" and str(tree.args[1]) == str(block_tree):
        return str(tree.args[0])
    return None


def c_value(view: KernelView, node: Node, env: dict[str, int | float | None]) -> int | None:
    """The value of an integer C expression of literals and known variables (C division and remainder); None
    when it has anything else."""
    node = bare(node)
    if node.type == "number_literal":
        text = view.text(node).lower().replace("'", "").rstrip("ul")
        base = 16 if text.startswith("0x") else 8 if text.startswith("0") and len(text) > 1 else 10
        try:
            return int(text, base)
        except ValueError:
            return None   # a floating-point literal
    if node.type == "identifier":
        value = env.get(view.text(node))
        return value if isinstance(value, int) else None
    if node.type == "unary_expression" and operator(node) in "-+":
        value = c_value(view, node.child_by_field_name("argument"), env)
        return None if value is None else (-value if operator(node) == "-" else value)
    if node.type != "binary_expression" or operator(node) not in ("+", "-", "*", "/", "%"):
        return None
    a, b = (c_value(view, node.child_by_field_name(side), env) for side in ("left", "right"))
    if a is None or b is None or operator(node) in "/%" and b == 0:
        return None
    op = operator(node)
    quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1) if op in "/%" else 0   # C truncates
    return {"+": a + b, "-": a - b, "*": a * b, "/": quotient, "%": a - b * quotient}[op]


# ---------------------------------------------------------------------------------------------------------------
# Guarded thread-indexed kernels


@dataclass(frozen=True)
class IndexVar:
    name: str
    dim: str                  # 'x', 'y' or 'z'
    type_text: str            # as declared: "int", "size_t", ...
    declaration: Node
    value: Node               # blockIdx.d * blockDim.d + threadIdx.d


@dataclass(frozen=True)
class GuardedGrid:
    """declarations (the indices among them) / a guard `index < bound` per index / the guarded statements."""

    prelude: list[Node]       # top-level statements before the guard, the index declarations left out
    indices: dict[str, IndexVar]
    bounds: dict[str, Node]   # index name -> its bound
    guard: Node               # the `if` (the first one of early returns)
    body: list[Node]          # the statements the guard protects

    def parts(self) -> list[Node]:
        """Everything but the index declarations and the guard itself."""
        return [*self.prelude, *self.bounds.values(), *self.body]


def _index_var(view: KernelView, statement: Node) -> IndexVar | None:
    declarators = statement.children_by_field_name("declarator")
    if statement.type != "declaration" or len(declarators) != 1 or declarators[0].type != "init_declarator":
        return None
    name, value = declarators[0].child_by_field_name("declarator"), declarators[0].child_by_field_name("value")
    type_text = view.text(statement.child_by_field_name("type"))
    if name.type != "identifier" or value is None or dtype_of(type_text) is None:
        return None
    dim = global_index_dim(value)
    return None if dim is None else IndexVar(view.text(name), dim, type_text, statement, value)


# (chain, comparison with the index on the left, the same with the index on the right)
_IF_GUARD = ("&&", "<", ">")              # if (i < n && m > j) { ... }
_EXIT_GUARD = ("||", ">=", "<=")          # if (i >= n || m <= j) return;


def _guard_terms(view: KernelView, condition: Node, form: tuple[str, str, str]) -> list[tuple[str, Node]]:
    """(index name, bound) of each term of a guard condition; ('', term) for a term of another form."""
    chain, index_left, index_right = form
    while condition.type == "parenthesized_expression":
        condition = condition.named_children[0]
    if condition.type == "binary_expression" and operator(condition) == chain:
        return [*_guard_terms(view, condition.child_by_field_name("left"), form),
                *_guard_terms(view, condition.child_by_field_name("right"), form)]
    if condition.type == "binary_expression" and operator(condition) in (index_left, index_right):
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        index, bound = (left, right) if operator(condition) == index_left else (right, left)
        if bare(index).type == "identifier":
            return [(view.text(bare(index)), bound)]
    return [("", condition)]


def _condition(statement: Node) -> Node:
    return statement.child_by_field_name("condition").child_by_field_name("value")


def _is_early_return(statement: Node) -> bool:
    """`if (...) return;` (braces allowed), without else."""
    if statement.type != "if_statement" or statement.child_by_field_name("alternative") is not None:
        return False
    consequence = statement.child_by_field_name("consequence")
    if consequence.type == "compound_statement" and len(consequence.named_children) == 1:
        consequence = consequence.named_children[0]
    return consequence.type == "return_statement" and not consequence.named_children


def guarded_grid(view: KernelView) -> GuardedGrid | None:
    """The kernel as declarations, guard and guarded statements; None when it is not of that shape."""
    statements = view.body.named_children
    prelude, indices, position = [], {}, 0
    while position < len(statements) and statements[position].type in ("declaration", "comment"):
        index = _index_var(view, statements[position])
        if index is None:
            prelude.append(statements[position])
        elif index.name in indices:
            return None
        else:
            indices[index.name] = index
        position += 1
    terms, guard = [], None
    while position < len(statements) and _is_early_return(statements[position]):
        exits = _guard_terms(view, _condition(statements[position]), _EXIT_GUARD)
        if not all(name in indices for name, _ in exits):
            break   # a data-dependent exit: part of the guarded statements
        guard = guard or statements[position]
        terms += exits
        position += 1
    body = statements[position:]
    if guard is None:
        rest = [s for s in statements[position:] if s.type != "comment"]
        if len(rest) != 1 or rest[0].type != "if_statement" \
                or rest[0].child_by_field_name("alternative") is not None:
            return None   # an if-guard holds all that follows it
        guard, consequence = rest[0], rest[0].child_by_field_name("consequence")
        terms = _guard_terms(view, _condition(guard), _IF_GUARD)
        body = consequence.named_children if consequence.type == "compound_statement" else [consequence]
    if not indices:
        return None
    bounds = dict(terms)
    if len(bounds) != len(terms) or set(bounds) != set(indices):
        return None
    parts = [*prelude, *bounds.values(), *body]
    bound_names = names_in(view, [*bounds.values()])
    if (set(indices) | bound_names) & assigned_names(view, parts) or set(indices) & bound_names:
        return None   # indices and bounds are fixed for the thread
    return GuardedGrid(prelude, indices, bounds, guard, body)


def geometry_only_in_indices(view: KernelView, grid: GuardedGrid) -> bool:
    """The launch geometry reaches the kernel through its global indices only (a block size of the launch's
    choosing, no other thread or block reasoning)."""
    return thread_independent(view, grid.parts())


def bound_values(view: KernelView, grid: GuardedGrid, contract: Contract) \
        -> list[tuple[ResolvedContract, dict[str, int]]] | None:
    """At every size the contract checks: the resolved contract and the value of each index's bound (evaluated
    from the contract's scalars and the prelude's integer declarations); None if a bound is not known there."""
    resolved = resolved_all(contract)
    if resolved is None:
        return None
    result = []
    for at in resolved:
        env = declared_values(view, grid.prelude, dict(at.scalars))
        values = {name: c_value(view, bound, env) for name, bound in grid.bounds.items()}
        if any(v is None for v in values.values()):
            return None
        result.append((at, values))
    return result


def declared_values(view: KernelView, statements: Sequence[Node], env: dict[str, int | float | None]) \
        -> dict[str, int | float | None]:
    """`env` with the integer values the declarations among `statements` give their variables, in order (None
    where the value is not a constant expression of what is known)."""
    for statement in statements:
        if statement.type != "declaration":
            continue
        for declarator in statement.children_by_field_name("declarator"):
            if declarator.type == "init_declarator":
                name = view.text(declarator.child_by_field_name("declarator"))
                env[name] = c_value(view, declarator.child_by_field_name("value"), env)
            elif declarator.type == "identifier":
                env[view.text(declarator)] = None
    return env


def launch_covers(grid: GuardedGrid, bounds: list[tuple[ResolvedContract, dict[str, int]]]) -> bool:
    """The launch runs a thread for every index below its bound, at every size."""
    for at, values in bounds:
        threads = dict(zip("xyz", (g * b for g, b in zip(at.grid, at.block))))
        if any(values[name] > threads[index.dim] for name, index in grid.indices.items()):
            return False
    return True


# ---------------------------------------------------------------------------------------------------------------
# 1-D elementwise kernels


@dataclass(frozen=True)
class PerIndex:
    """Statements a thread runs once per value of an index, every array access among them `p[index]`: what
    staged_lanes runs on several indices at once."""

    index: str
    index_type: str           # as declared: "int", "size_t", ...
    body: list[Node]
    accesses: dict[str, list[Node]]   # array -> its subscripts


@dataclass(frozen=True)
class Elementwise:
    """A guarded kernel with one x index whose guarded statements depend on nothing but that index."""

    grid: GuardedGrid
    index: IndexVar
    accesses: dict[str, list[Node]] | None   # array -> its subscripts, when every array access is `p[index]`

    @property
    def bound(self) -> Node:
        return self.grid.bounds[self.index.name]

    @property
    def body(self) -> list[Node]:
        return self.grid.body

    def per_index(self) -> PerIndex:
        assert self.accesses is not None, "only kernels whose every array access is p[index] run in lanes"
        return PerIndex(self.index.name, self.index.type_text, self.body, self.accesses)


def elementwise(view: KernelView) -> Elementwise | None:
    grid = guarded_grid(view)
    if grid is None or len(grid.indices) != 1:
        return None
    (index,) = grid.indices.values()
    if index.dim != "x" or not geometry_only_in_indices(view, grid) or index.name in names_in(view, grid.prelude):
        return None
    # A thread now runs the guarded statements several times: none may end the thread or jump out.
    if any(True for _ in nodes_under(view, grid.body, "return_statement", "goto_statement")):
        return None
    return Elementwise(grid, index, _index_accesses(view, grid, index))


def _index_accesses(view: KernelView, grid: GuardedGrid, index: IndexVar) -> dict[str, list[Node]] | None:
    """Every use of every array parameter as `p[index]` (no other index, no address taken, none in the prelude),
    the arrays of 4-byte elements a 16-byte vector holds four of."""
    if names_in(view, grid.prelude) & set(pointer_params(view)):
        return None
    return index_accesses(view, grid.body, index.name)


def atomic_target(view: KernelView, name: Node) -> bool:
    """The identifier is the address an atomic function updates: `atomicAdd(p, v)`, `atomicMax(&p[k], v)`."""
    operand = subscript_of(name) or name
    if operand != name and address_taken(operand):
        operand = operand.parent
    elif operand != name:
        return False
    arguments = operand.parent
    return arguments is not None and arguments.type == "argument_list" and arguments.named_children[0] == operand \
        and arguments.parent.type == "call_expression" \
        and view.text(arguments.parent.child_by_field_name("function")).startswith("atomic")


def index_accesses(view: KernelView, roots: Sequence[Node], index: str, atomics: bool = False) \
        -> dict[str, list[Node]] | None:
    """Every use of every array parameter under `roots` as `p[index]` (no other index, no address taken), the
    arrays of 4-byte elements a 16-byte vector holds four of; None when there is another use or none. With
    `atomics`, an array may also be only the target of atomic functions (any address): atomics commute, so the
    order in which lanes make them does not matter."""
    arrays = pointer_params(view)
    if any(p.is_pointer and p.name not in arrays for p in view.kernel.params):
        return None
    accesses: dict[str, list[Node]] = {}
    targets: set[str] = set()
    for name in nodes_under(view, roots, "identifier"):
        if view.text(name) not in arrays:
            continue
        if atomics and atomic_target(view, name):
            targets.add(view.text(name))
            continue
        subscript = subscript_of(name)
        index_node = subscript and subscript_index(subscript)
        if index_node is None or bare(index_node).type != "identifier" or view.text(bare(index_node)) != index \
                or address_taken(subscript) or dtype_of(arrays[view.text(name)]) not in VECTOR_TYPES:
            return None
        accesses.setdefault(view.text(name), []).append(subscript)
    # An array loaded into lanes while atomics update it could be read before another lane's update.
    return accesses if accesses and not targets & set(accesses) else None


def covered_bounds(view: KernelView, shape: Elementwise, contract: Contract) \
        -> list[tuple[ResolvedContract, dict[str, int]]] | None:
    """The bound at every size (bound_values) when the contract launches the kernel 1-D with a thread for every
    index below the bound; None otherwise."""
    if len(contract.launch.grid) != 1 or len(contract.launch.block) != 1:
        return None
    bounds = bound_values(view, shape.grid, contract)
    return bounds if bounds is not None and launch_covers(shape.grid, bounds) else None


def arrays_hold_bound(shape: Elementwise, bounds: list[tuple[ResolvedContract, dict[str, int]]]) -> bool:
    """Every accessed array holds at least `bound` elements at every size: the accesses for indices below the
    bound may be made in any grouping, also those the statements make on some paths only."""
    return shape.accesses is not None and all(at.lengths[array] >= values[shape.index.name]
                                              for at, values in bounds for array in shape.accesses)


# ---------------------------------------------------------------------------------------------------------------
# Staged lanes: several indices per thread, array elements through registers


@dataclass(frozen=True)
class _ArrayUse:
    name: str
    element: str              # C type of an element
    loaded: bool              # read, or written on some paths only: its old value must be there
    stored: bool


def _array_uses(view: KernelView, shape: PerIndex) -> list[_ArrayUse]:
    """How each accessed array is used: a written array is loaded too when it is read or not written by a plain
    store at the top level of the guarded statements (the lanes write their registers back whole)."""
    uses = []
    top_level = {s.id for s in shape.body}
    for name, subscripts in shape.accesses.items():
        written = any(is_write(s) for s in subscripts)
        read = any(not is_plain_store(s) for s in subscripts)
        always_written = any(is_plain_store(s) and s.parent.parent.type == "expression_statement"
                             and s.parent.parent.id in top_level for s in subscripts)
        uses.append(_ArrayUse(name, pointer_params(view)[name], read or written and not always_written, written))
    return uses


class VectorRegisters:
    """Lanes in vector registers of `width` elements per array, `groups` of them: lane k is component k % width of
    vector k // width (`x_v.x ... x_v.w` for one group of four), vector g loaded and stored whole at index
    `group_first(g)`."""

    def __init__(self, view: KernelView, group_first: Callable[[int], str], width: int, groups: int, taken: set[str]):
        self.view, self.group_first, self.width, self.groups, self.taken = view, group_first, width, groups, taken
        self.names: dict[tuple[str, int], str] = {}

    def declare(self, use: _ArrayUse) -> list[str]:
        vector = vector_type(use.element, self.width)
        qualifier = "" if use.stored else "const "
        lines = []
        for group in range(self.groups):
            wanted = f"{use.name}_v{group}" if self.groups > 1 else f"{use.name}_v"
            self.names[use.name, group] = name = fresh_name(self.view, wanted, self.taken)
            address = f"{use.name} + {self.group_first(group)}"
            load = f" = *reinterpret_cast<const {vector}*>({address})" if use.loaded else ""
            lines.append(f"{qualifier}{vector} {name}{load};")
        return lines

    def element(self, array: str, lane: int) -> str:
        return f"{self.names[array, lane // self.width]}.{LANES[lane % self.width]}"

    def store(self, use: _ArrayUse) -> list[str]:
        vector = vector_type(use.element, self.width)
        return [f"*reinterpret_cast<{vector}*>({use.name} + {self.group_first(group)}) = "
                f"{self.names[use.name, group]};" for group in range(self.groups)]


class ScalarRegisters:
    """One register per lane and array, `x_0 ... x_3`, for lanes a stride apart."""

    def __init__(self, view: KernelView, lanes: int, lane_index: Callable[[int], str], taken: set[str]):
        self.view, self.lanes, self.lane_index, self.taken = view, lanes, lane_index, taken
        self.names: dict[tuple[str, int], str] = {}

    def declare(self, use: _ArrayUse) -> list[str]:
        lines = []
        for lane in range(self.lanes):
            self.names[use.name, lane] = name = fresh_name(self.view, f"{use.name}_{lane}", self.taken)
            qualifier = "" if use.stored else "const "
            load = f" = {use.name}[{self.lane_index(lane)}]" if use.loaded else ""
            lines.append(f"{qualifier}{use.element} {name}{load};")
        return lines

    def element(self, array: str, lane: int) -> str:
        return self.names[array, lane]

    def store(self, use: _ArrayUse) -> list[str]:
        return [f"{use.name}[{self.lane_index(lane)}] = {self.names[use.name, lane]};" for lane in range(self.lanes)]


def staged_lanes(view: KernelView, shape: PerIndex, lanes: int, lane_index: Callable[[int], str],
                 registers: VectorRegisters | ScalarRegisters, indent: str) -> str:
    """All loads first (independent, in flight together), then the guarded statements once per lane on
    registers, then the stores: lane k is index `lane_index(k)`."""
    uses = _array_uses(view, shape)
    lines = [indent + line for use in uses for line in registers.declare(use)]
    subscripts = {s.id: name for name, nodes in shape.accesses.items() for s in nodes}
    access_indices = {bare(subscript_index(s)).id for nodes in shape.accesses.values() for s in nodes}
    index_used = any(view.text(n) == shape.index and n.id not in access_indices
                     for n in nodes_under(view, shape.body, "identifier"))
    inner = indent + "    "
    for lane in range(lanes):
        def substitute(node: Node, _render: Callable[[Node], str], lane: int = lane) -> str | None:
            return registers.element(subscripts[node.id], lane) if node.id in subscripts else None

        lines.append(indent + "{")
        if index_used:
            lines.append(f"{inner}const {shape.index_type} {shape.index} = {lane_index(lane)};")
        lines += [statements_text(view, shape.body, inner, substitute), indent + "}"]
    lines += [indent + line for use in uses if use.stored for line in registers.store(use)]
    return "\n".join(lines)


def kernel_with_body(view: KernelView, prelude: Sequence[Node], code: str) -> str:
    """The unit text with the kernel's body replaced by the prelude statements and `code` (at 4 spaces)."""
    head = statements_text(view, prelude, "    ") + "\n" if prelude else ""
    return view.replaced([(view.body.start_byte, view.body.end_byte, "{\n" + head + code + "\n}")])


# ---------------------------------------------------------------------------------------------------------------
# Rules


class RestrictReadonly(Rule):
    """`__restrict__` on every pointer parameter, `const` on those the kernel only reads: with no possible alias,
    the compiler keeps loaded values in registers across stores and may use the read-only data path
    (LDG.CONSTANT) for const arrays. Safe for the contract's kernel: each array is its own buffer."""

    name = "restrict_readonly"
    symptom = "memory"

    def detect(self, view: KernelView) -> list[Match]:
        names = unaliased_pointers(view)
        if not names:
            return []
        parameters = view.node.child_by_field_name("declarator").child_by_field_name("parameters")
        return [Match(rule=self.name, span=view.span(parameters), symptom=self.symptom,
                      message=f"pointer parameters are not __restrict__: the compiler must assume they alias "
                              f"({', '.join(names)}), so it reloads after every store and cannot use the read-only "
                              f"cache path")]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        names = unaliased_pointers(view)
        replacements, made_const = restrict_replacements(view, names)
        if not replacements:
            return []
        description = "__restrict__ on " + ", ".join(names) + ("; const " + ", ".join(made_const) if made_const else "")
        return [Edit(candidate=derived(node, view.replaced(replacements), description), rule=self.name,
                     description=description, symptom=self.symptom)]


def unaliased_pointers(view: KernelView) -> list[str]:
    """The pointer parameters `__restrict__` may be put on: those without it, where there are two or more and no
    launch in the user's file passes one argument to two of them (it relies on their aliasing)."""
    pointers = [p for p in view.kernel.params if p.is_pointer]
    if len(pointers) < 2 or any(len(set(passed)) < len(passed) for passed in pointer_arguments(view)):
        return []
    return [p.name for p in pointers if not p.is_restrict]


def restrict_replacements(view: KernelView, names: list[str]) -> tuple[list[tuple[int, int, str]], list[str]]:
    """The replacements (for KernelView.replaced) that put `__restrict__` on the pointer parameters `names`, and
    `const` on those of them the kernel only reads; and the names made const."""
    replacements, made_const = [], []
    parameters = view.node.child_by_field_name("declarator").child_by_field_name("parameters")
    for declaration in parameters.named_children:
        declarator = declaration.child_by_field_name("declarator")
        param = next((p for p in view.kernel.params if p.span.start_byte == declaration.start_byte), None)
        if param is None or param.name not in names or declarator is None:
            continue
        while declarator.type == "pointer_declarator" and \
                declarator.child_by_field_name("declarator").type == "pointer_declarator":
            declarator = declarator.child_by_field_name("declarator")
        if declarator.type != "pointer_declarator":
            continue   # `float x[]`: no place for the qualifier before the name
        name_node = declarator.child_by_field_name("declarator")
        replacements.append((name_node.start_byte, name_node.start_byte, "__restrict__ "))
        if not param.is_const and param.type_text.count("*") == 1 and element_reads(view, param.name) is not None:
            replacements.append((declaration.start_byte, declaration.start_byte, "const "))
            made_const.append(param.name)
    return replacements, made_const


def scaled_grid(contract: Contract, factor: int) -> str:
    """A 1-D grid for `factor` indices per thread covering what the contract's grid covered:
    `cdiv(cdiv(E,factor),B)` for `cdiv(E,B)` (a multiple of B at least E), `cdiv(G,factor)` otherwise."""
    grid, block = contract.launch.grid[0], contract.launch.block[0]
    extent = cdiv_extent(grid, block, contract)
    if extent is not None:
        return f"cdiv(cdiv({extent},{factor}),{parse_expr(block, contract.location)})"
    return f"cdiv({parse_expr(grid, contract.location)},{factor})"


class Vectorize16B(Rule):
    """Four consecutive elements per thread: one 16-byte load (float4/int4/uint4) per array for the aligned part,
    the statements run once per element on the vector's lanes, one 16-byte store; the last thread's tail
    (n not a multiple of 4) runs the original statements element by element."""

    name = "vectorize_16b"
    symptom = "memory"

    def _fits(self, view: KernelView, shape: Elementwise, contract: Contract) -> bool:
        bounds = covered_bounds(view, shape, contract)
        return bounds is not None and arrays_hold_bound(shape, bounds)

    def detect(self, view: KernelView) -> list[Match]:
        shape = elementwise(view)
        if shape is None or shape.accesses is None:
            return []
        contract = declared_contract(view)
        if contract is not None and not self._fits(view, shape, contract):
            return []
        # A launch in the user's file passing an offset pointer (`x + 1`) may not be 16-byte aligned.
        if any(not name.isidentifier() for passed in pointer_arguments(view) for name in passed):
            return []
        return [Match(rule=self.name, span=view.span(shape.grid.guard), symptom=self.symptom,
                      message="one element per thread with 4-byte loads and stores: 16-byte vector accesses "
                              "(float4) move four elements per instruction")]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        shape = elementwise(view)
        if shape is None or shape.accesses is None or not self._fits(view, shape, node.contract):
            return []
        taken: set[str] = set()
        index, bound = shape.index, view.text(shape.bound)
        first = fresh_name(view, f"{index.name}_first", taken)
        lanes = staged_lanes(view, shape.per_index(), 4, lambda lane: f"{first} + {lane}" if lane else first,
                             VectorRegisters(view, lambda _: first, 4, 1, taken), "        ")
        code = (f"    // Four consecutive elements per thread: 16-byte accesses (each array is its own 256-byte\n"
                f"    // aligned buffer), the last thread's tail element by element.\n"
                f"    const {index.type_text} {first} = ({view.text(index.value)}) * 4;\n"
                f"    if ({first} + 4 <= {bound}) {{\n{lanes}\n"
                f"    }} else {{\n"
                f"        for ({index.type_text} {index.name} = {first}; {index.name} < {bound}; ++{index.name}) {{\n"
                f"{statements_text(view, shape.body, ' ' * 12)}\n"
                f"        }}\n"
                f"    }}")
        launch = node.contract.launch.model_copy(update={"grid": [scaled_grid(node.contract, 4)]})
        description = "4 elements per thread with 16-byte vector loads and stores, scalar tail"
        return [Edit(candidate=derived(node, kernel_with_body(view, shape.grid.prelude, code), description, launch),
                     rule=self.name, description=description, symptom=self.symptom)]


class GridStride(Rule):
    """A grid-stride loop over a fixed grid of one full wave of resident blocks, instead of a grid that grows
    with n: block scheduling and index set-up are paid once per resident thread. Variants with 2 and 4 indices a
    stride apart per iteration (loads of all of them issued before any statement runs) when every access is
    `p[index]`."""

    name = "grid_stride"
    symptom = "latency"

    def _cap(self, contract: Contract) -> int | None:
        """The one-wave grid; None when the contract's grid is no larger (the loop would run once)."""
        resolved = resolved_all(contract)
        if resolved is None:
            return None
        cap = max(1, RESIDENT_THREADS // resolved[0].block[0])
        return cap if resolved[0].grid[0] > cap else None

    def detect(self, view: KernelView) -> list[Match]:
        shape = elementwise(view)
        if shape is None:
            return []
        contract = declared_contract(view)
        if contract is not None and (covered_bounds(view, shape, contract) is None or self._cap(contract) is None):
            return []
        return [Match(rule=self.name, span=view.span(shape.index.declaration), symptom=self.symptom,
                      message="one thread per element: the grid grows with the data; a grid-stride loop over one "
                              "wave of resident blocks saves block scheduling and keeps several loads in flight")]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        shape = elementwise(view)
        bounds = None if shape is None else covered_bounds(view, shape, node.contract)
        cap = None if bounds is None else self._cap(node.contract)
        if cap is None:
            return []
        grid = f"min({parse_expr(node.contract.launch.grid[0], node.contract.location)},{cap})"
        launch = node.contract.launch.model_copy(update={"grid": [grid]})
        edits = []
        for per_iteration in (1, 2, 4) if arrays_hold_bound(shape, bounds) else (1,):
            code = self._loop(view, shape, per_iteration)
            description = f"grid-stride loop over {cap} blocks" + \
                (f", {per_iteration} indices per iteration" if per_iteration > 1 else "")
            edits.append(Edit(candidate=derived(node, kernel_with_body(view, shape.grid.prelude, code), description,
                                                launch), rule=self.name, description=description,
                              symptom=self.symptom))
        return edits

    def _loop(self, view: KernelView, shape: Elementwise, per_iteration: int) -> str:
        index, bound = shape.index, view.text(shape.bound)
        body = statements_text(view, shape.body, " " * 8)
        if per_iteration == 1:
            return (f"    for ({index.type_text} {index.name} = {view.text(index.value)}; {index.name} < {bound}; "
                    f"{index.name} += blockDim.x * gridDim.x) {{\n{body}\n    }}")
        taken: set[str] = set()
        stride, first = fresh_name(view, "stride", taken), fresh_name(view, f"{index.name}_first", taken)

        def lane_index(lane: int) -> str:
            return first if lane == 0 else f"{first} + {lane} * {stride}" if lane > 1 else f"{first} + {stride}"

        lanes = staged_lanes(view, shape.per_index(), per_iteration, lane_index,
                             ScalarRegisters(view, per_iteration, lane_index, taken), " " * 8)
        return (f"    const {index.type_text} {stride} = blockDim.x * gridDim.x;\n"
                f"    {index.type_text} {first} = {view.text(index.value)};\n"
                f"    for (; {lane_index(per_iteration - 1)} < {bound}; {first} += {per_iteration} * {stride}) {{\n"
                f"{lanes}\n    }}\n"
                f"    for ({index.type_text} {index.name} = {first}; {index.name} < {bound}; "
                f"{index.name} += {stride}) {{\n{body}\n    }}")


RULES: list[Rule] = [RestrictReadonly(), Vectorize16B(), GridStride()]
