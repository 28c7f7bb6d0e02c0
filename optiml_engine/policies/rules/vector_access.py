"""Vector access rules: `vectorize_grid_stride` (16-byte accesses in a grid-stride loop) and `pair_loads` (8-byte
loads of adjacent elements a thread reads).

A grid-stride loop (`for (i = global index; i < n; i += blockDim.x * gridDim.x)`) is what the grid_stride rule and
the global_reduction, histogram and elementwise templates write, and what many users write by hand. Its body runs
once per index; when every array access in it is `p[index]` (or the target of an atomic function, which commutes),
four consecutive indices can run per iteration on one 16-byte load per array, as vectorize_16b does for a
one-index-per-thread kernel. So the rule composes with those rewrites: the search can take a template's loop and
then widen its loads, a step no single rewrite makes.

The same contract-fed-buffer argument as elementwise.py's makes the 16-byte accesses aligned: each array is its
own allocation; the rules are held back where the file's own launches pass offset pointers, and where the kernel
moves a pointer parameter.

`pair_loads` is for kernels whose threads read `p[X]` and `p[X + 1]`: a 2x2 pooling window, interleaved complex
or (x, y) data. When X is even the two elements are one aligned 8-byte load; whether it is, and whether X + 1 lies
within the array (the contract's length of it, in the kernel's parameters), is decided at run time, with the
original loads where not. Each read then takes its element from the pair, so no read happens that the original
would not make, except the pair's other element, which lies within the array.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, bare, builtin_dim, derived, global_index_dim, operator
from optiml_engine.policies.rules.elementwise import (
    CROSS_THREAD_PREFIXES, VECTOR_TYPES, PerIndex, VectorRegisters, assigned_names, c_value, declared_contract,
    declared_values, element_reads, fresh_name, index_accesses, names_in, nodes_under, pointer_arguments,
    pointer_params, resolved_all, staged_lanes, statements_text, subscript_index, vector_type)
from optiml_engine.source.ctypes import dtype_of, is_integer

LANES = 4   # 16 bytes of 4-byte elements


@dataclass(frozen=True)
class GridStrideLoop:
    statement: Node           # the `for`
    pragma: Node | None       # a `#pragma unroll ...` on the line before it
    start: Node               # the global thread index it starts from
    bound: Node
    lanes: PerIndex           # the body, run once per index


def _is_grid_stride(update: Node | None, variable: str, view: KernelView) -> bool:
    """`variable += blockDim.x * gridDim.x` (either factor first, parentheses allowed)."""
    if update is None or update.type != "assignment_expression" or operator(update) != "+=" \
            or view.text(update.child_by_field_name("left")) != variable:
        return False
    step = bare(update.child_by_field_name("right"))
    if step.type != "binary_expression" or operator(step) != "*":
        return False
    factors = [step.child_by_field_name("left"), step.child_by_field_name("right")]
    return sorted(f"{builtin_dim(f, 'blockDim')}/{builtin_dim(f, 'gridDim')}" for f in factors) == ["None/x", "x/None"]


def _synchronizes(view: KernelView, roots: list[Node]) -> bool:
    """Barriers, warp-level functions or inline assembly: threads that would no longer meet in the same order."""
    for node in nodes_under(view, roots, "call_expression", "gnu_asm_expression", "asm_statement"):
        if node.type != "call_expression" or view.text(node.child_by_field_name("function")).split("::")[-1] \
                .startswith(CROSS_THREAD_PREFIXES):
            return True
    return False


def grid_stride_loop(view: KernelView, statement: Node) -> GridStrideLoop | None:
    """The loop when `statement` is a grid-stride loop over x whose body lanes can run: every array access
    `p[i]` (or an atomic's target), nothing that leaves the loop or synchronizes threads, `i` and the bound fixed
    in the body, pointers never moved in the kernel."""
    if statement.type != "for_statement":
        return None
    initializer = statement.child_by_field_name("initializer")
    if initializer is None or initializer.type != "declaration":
        return None
    declarators = initializer.children_by_field_name("declarator")
    if len(declarators) != 1 or declarators[0].type != "init_declarator":
        return None
    name, start = declarators[0].child_by_field_name("declarator"), declarators[0].child_by_field_name("value")
    index_type = view.text(initializer.child_by_field_name("type"))
    if name.type != "identifier" or global_index_dim(start) != "x" or not is_integer(dtype_of(index_type) or ""):
        return None
    index = view.text(name)
    condition = statement.child_by_field_name("condition")
    if condition is None or bare(condition).type != "binary_expression" or operator(bare(condition)) != "<" \
            or view.text(bare(bare(condition).child_by_field_name("left"))) != index:
        return None
    bound = bare(condition).child_by_field_name("right")
    if not _is_grid_stride(statement.child_by_field_name("update"), index, view):
        return None
    body = statement.child_by_field_name("body")
    statements = body.named_children if body.type == "compound_statement" else [body]
    if any(True for _ in nodes_under(view, statements, "return_statement", "break_statement", "continue_statement",
                                     "goto_statement")) or _synchronizes(view, statements):
        return None
    # The bound is read from the contract's sizes (arrays long enough): nothing in the kernel may change it.
    if index in assigned_names(view, statements) or names_in(view, [bound]) & assigned_names(view, [view.body]) \
            or index in names_in(view, [bound]):
        return None
    accesses = index_accesses(view, statements, index, atomics=True)
    if accesses is None or set(accesses) & assigned_names(view, [view.body]):
        return None
    before = statement.prev_named_sibling
    pragma = before if before is not None and before.type == "preproc_call" \
        and view.text(before).split()[:2] == ["#pragma", "unroll"] else None
    return GridStrideLoop(statement, pragma, start, bound, PerIndex(index, index_type, statements, accesses))


def _bound_values(view: KernelView, loop: GridStrideLoop, contract: Contract) -> list[tuple[dict, int]] | None:
    """At every size the contract checks: the array lengths and the loop's bound (from the contract's scalars and
    the integer declarations before the loop); None where the bound is not known."""
    resolved = resolved_all(contract)
    if resolved is None:
        return None
    found = []
    statements = view.body.named_children
    before = statements[:statements.index(loop.statement)]
    for at in resolved:
        value = c_value(view, loop.bound, declared_values(view, before, dict(at.scalars)))
        if value is None:
            return None
        found.append((at.lengths, value))
    return found


def _arrays_hold_bound(view: KernelView, loop: GridStrideLoop, contract: Contract) -> bool:
    """Every accessed array has at least `bound` elements at every size: a lane's vector load may read an index
    that the body reads on some paths only."""
    values = _bound_values(view, loop, contract)
    return values is not None and all(lengths[array] >= bound for lengths, bound in values
                                      for array in loop.lanes.accesses)


class VectorizeGridStride(Rule):
    """Four consecutive indices per iteration of a grid-stride loop: one 16-byte load (float4/int4/uint4) per array
    and iteration, the body once per index on the vector's lanes, one 16-byte store per written array; the last
    `bound % 4` indices after, one per thread. An unroll pragma on the loop stays on the vectorized loop."""

    name = "vectorize_grid_stride"
    symptom = "memory"

    def _loops(self, view: KernelView, contract: Contract | None) -> list[GridStrideLoop]:
        # A launch in the user's file passing an offset pointer (`x + 1`) may not be 16-byte aligned.
        if any(not name.isidentifier() for passed in pointer_arguments(view) for name in passed):
            return []
        loops = [loop for statement in view.body.named_children
                 if (loop := grid_stride_loop(view, statement)) is not None]
        return [loop for loop in loops if contract is None or _arrays_hold_bound(view, loop, contract)]

    def detect(self, view: KernelView) -> list[Match]:
        return [Match(rule=self.name, span=view.span(loop.statement), symptom=self.symptom,
                      message="grid-stride loop with one 4-byte access per array and index: 16-byte vector "
                              "accesses (float4) move four elements per instruction")
                for loop in self._loops(view, declared_contract(view))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        edits = []
        for loop in self._loops(view, node.contract):
            description = "grid-stride loop on 16-byte vector accesses, 4 consecutive elements per iteration, " \
                "scalar tail"
            first = loop.pragma or loop.statement
            text = view.replaced([(first.start_byte, loop.statement.end_byte, self._loops_text(view, loop))])
            edits.append(Edit(candidate=derived(node, text, description), rule=self.name, description=description,
                              symptom=self.symptom))
        return edits

    def _loops_text(self, view: KernelView, loop: GridStrideLoop) -> str:
        lanes, index_type, index = loop.lanes, loop.lanes.index_type, loop.lanes.index
        column = loop.statement.start_point.column
        indent, inner = " " * column, " " * (column + 4)
        taken: set[str] = set()
        quad, first = fresh_name(view, f"{index}_quad", taken), fresh_name(view, f"{index}_first", taken)
        start, bound = view.text(loop.start), view.text(loop.bound)
        stride = "blockDim.x * gridDim.x"
        staged = staged_lanes(view, lanes, LANES, lambda lane: f"{first} + {lane}" if lane else first,
                              VectorRegisters(view, lambda _: first, LANES, 1, taken), inner)
        pragma = f"{view.text(loop.pragma).strip()}\n{indent}" if loop.pragma is not None else ""
        return (f"// {LANES} consecutive elements per iteration on 16-byte accesses (each array is its own 256-byte "
                f"aligned buffer),\n{indent}// then the last ({bound}) % {LANES} one per thread.\n"
                f"{indent}{pragma}for ({index_type} {quad} = {start}; {quad} < ({bound}) / {LANES}; "
                f"{quad} += {stride}) {{\n"
                f"{inner}const {index_type} {first} = {quad} * {LANES};\n{staged}\n{indent}}}\n"
                f"{indent}for ({index_type} {index} = ({bound}) / {LANES} * {LANES} + {start}; {index} < {bound}; "
                f"{index} += {stride}) {{\n"
                f"{statements_text(view, lanes.body, inner)}\n{indent}}}")


# ---------------------------------------------------------------------------------------------------------------
# pair_loads

# What an index read twice must not contain: its value could differ between the reads, or reading it has effects.
_NOT_PLAIN = ("call_expression", "assignment_expression", "update_expression", "subscript_expression",
              "conditional_expression", "comma_expression")


@dataclass(frozen=True)
class Pair:
    array: str
    first: str                # X, as written at its first read
    reads: list[Node]         # the subscripts p[X] and p[X + 1], in text order
    seconds: set[int]         # ids of the p[X + 1] ones
    before: Node              # the statement the pair is loaded before


def _index_text(view: KernelView, node: Node) -> str:
    return re.sub(r"\s+", "", view.text(node))


def _split_plus_one(view: KernelView, index: Node) -> tuple[str, bool]:
    """(X, True) for an index `X + 1`; (the index, False) otherwise; X without spaces."""
    index = bare(index)
    if index.type == "binary_expression" and operator(index) == "+" \
            and view.text(index.child_by_field_name("right")).strip() == "1":
        return _index_text(view, index.child_by_field_name("left")), True
    return _index_text(view, index), False


def _read_only_arrays(view: KernelView) -> dict[str, list[Node]]:
    """4-byte arrays whose every use is a one-index read `p[e]`, with those reads."""
    found = {}
    for name, element in pointer_params(view).items():
        reads = element_reads(view, name) if dtype_of(element) in VECTOR_TYPES else None
        if reads and all(subscript_index(read) is not None for read in reads):
            found[name] = reads
    return found


def _enclosing_statement(node: Node, block: Node) -> Node:
    while node.parent != block:
        node = node.parent
    return node


def _common_block(nodes: list[Node]) -> Node | None:
    """The innermost compound statement that holds every node."""
    block = nodes[0].parent
    while block is not None:
        if block.type == "compound_statement" and all(
                block.start_byte <= n.start_byte and n.end_byte <= block.end_byte for n in nodes):
            return block
        block = block.parent
    return None


def pairs(view: KernelView) -> list[Pair]:
    """Every array read at X and X + 1 where the two can be loaded together: X free of calls and assignments, its
    variables set before the first read and not changed after it in the block that holds both reads. A pair is
    loaded where the block's first pair is when X's variables allow: the loads are then in flight together, not
    each behind the comparisons of the one before."""
    found: list[tuple[Pair, set[str]]] = []
    for array, reads in _read_only_arrays(view).items():
        by_first: dict[str, list[tuple[Node, bool]]] = {}
        for read in reads:
            first, second = _split_plus_one(view, subscript_index(read))
            by_first.setdefault(first, []).append((read, second))
        for first, uses in by_first.items():
            if not any(second for _, second in uses) or all(second for _, second in uses):
                continue
            nodes = [read for read, _ in uses]
            index = bare(subscript_index(next(read for read, second in uses if not second)))
            if any(True for _ in view.descendants(index, *_NOT_PLAIN)):
                continue
            block = _common_block(nodes)
            if block is None:
                continue
            before = _enclosing_statement(min(nodes, key=lambda n: n.start_byte), block)
            names = names_in(view, [index])
            if _loadable_before(view, before, before, names):
                found.append((Pair(array, view.text(index), sorted(nodes, key=lambda n: n.start_byte),
                                   {read.id for read, second in uses if second}, before), names))
    hoisted = []
    for pair, names in found:
        earlier = sorted((other.before for other, _ in found if other.before.parent == pair.before.parent
                          and other.before.start_byte < pair.before.start_byte), key=lambda n: n.start_byte)
        at = next((statement for statement in earlier if _loadable_before(view, statement, pair.before, names)),
                  pair.before)
        hoisted.append(Pair(pair.array, pair.first, pair.reads, pair.seconds, at))
    return hoisted


def _loadable_before(view: KernelView, at: Node, first_read: Node, names: set[str]) -> bool:
    """The index's variables (`names`) hold their final values from `at` on, in the block of both: none declared
    from `at` up to the statement of the first read, none assigned from `at` on."""
    statements = [s for s in at.parent.named_children if s.start_byte >= at.start_byte]
    declared = {view.text(d) for s in statements if s.start_byte < first_read.start_byte and s.type == "declaration"
                for d in view.descendants(s, "identifier") if d.parent.type in ("init_declarator", "declaration")}
    return not names & (declared | assigned_names(view, statements))


def _length_in_parameters(view: KernelView, contract: Contract, array: str) -> str | None:
    """The array's length as a C expression of the kernel's integer parameters (each size symbol the one scalar
    the contract passes it as); None when the contract's length needs more than + - * and parentheses."""
    spec = next((a for a in contract.arrays if a.param == array), None)
    if spec is None or not re.fullmatch(r"[\w\s+\-*()]+", spec.length):
        return None
    params = {s.value.strip(): s.param for s in contract.scalars if s.dtype.startswith(("int", "uint"))}
    missing = False

    def parameter(match: re.Match) -> str:
        nonlocal missing
        token = match.group(0)
        if token.isdigit():
            return token
        missing = missing or token not in params
        return params.get(token, token)

    length = re.sub(r"\w+", parameter, spec.length)
    return None if missing else f"({length})"


class PairLoads(Rule):
    """`p[X]` and `p[X + 1]` read by one thread: one 8-byte load (float2/int2/uint2) when X is even and X + 1 is
    within p, each read taking its element from the pair (the original load otherwise)."""

    name = "pair_loads"
    symptom = "memory"

    def _pairs(self, view: KernelView, contract: Contract | None) -> list[tuple[Pair, str | None]]:
        """The pairs with the array's length in the kernel's parameters; without a contract (a compile unit's
        detector, before the rewrite has the candidate's), every pair with None."""
        if any(not name.isidentifier() for passed in pointer_arguments(view) for name in passed):
            return []
        found = []
        for pair in pairs(view):
            length = None if contract is None else _length_in_parameters(view, contract, pair.array)
            if contract is None or length is not None:
                found.append((pair, length))
        return found

    def detect(self, view: KernelView) -> list[Match]:
        return [Match(rule=self.name, span=view.span(pair.reads[0]), symptom=self.symptom,
                      message=f"{pair.array}[{pair.first}] and {pair.array}[{pair.first} + 1] read separately: one "
                              f"8-byte load (float2) moves both")
                for pair, _ in self._pairs(view, declared_contract(view))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        found = self._pairs(view, node.contract)
        if not found:
            return []
        taken: set[str] = set()
        replacements, inserted = [], {}
        for number, (pair, length) in enumerate(found):
            element = pointer_params(view)[pair.array]
            vector = vector_type(element, 2)
            loaded, value = (fresh_name(view, f"{pair.array}_pair{number}_ok", taken),
                             fresh_name(view, f"{pair.array}_pair{number}", taken))
            indent = " " * pair.before.start_point.column
            first = f"({pair.first})"
            inserted.setdefault(pair.before.start_byte, []).append(
                f"// {pair.array}[{pair.first}] and the element after it in one 8-byte load where aligned and "
                f"within {pair.array}\n{indent}"
                f"const bool {loaded} = {first} >= 0 && {first} % 2 == 0 && {first} + 1 < {length};\n{indent}"
                f"const {vector} {value} = {loaded} ? *reinterpret_cast<const {vector}*>({pair.array} + {first}) "
                f": {vector}();\n{indent}")
            for read in pair.reads:
                lane = "y" if read.id in pair.seconds else "x"
                replacements.append((read.start_byte, read.end_byte,
                                     f"({loaded} ? {value}.{lane} : {view.text(read)})"))
        replacements += [(position, position, "".join(lines)) for position, lines in inserted.items()]
        count = len(found)
        description = f"{count} pair{'s' if count > 1 else ''} of adjacent reads in 8-byte loads " + \
            ", ".join(f"({pair.array}[{pair.first}], +1)" for pair, _ in found)
        return [Edit(candidate=derived(node, view.replaced(replacements), description), rule=self.name,
                     description=description, symptom=self.symptom)]


RULES: list[Rule] = [VectorizeGridStride(), PairLoads()]
