"""Atomics that pile onto few addresses, privatized per block.

Both rules take a 1-D elementwise kernel (`i = blockIdx.x * blockDim.x + threadIdx.x`, guarded by `if (i < n)` or
`if (i >= n) return;`) whose per-element code issues global atomics onto a handful of addresses, which serialize
in L2. Each block accumulates privately first (in registers or shared memory) and touches global memory once:

- `atomic_block_reduce`: atomicAdd / atomicMax / atomicMin onto ONE address (`out`, `&out[0]`, `&sum[k]` with k
  uniform over the grid). Each thread accumulates into a register (the identity when it has no element), the block
  reduces with warp shuffles and a shared array of warp partials, and thread 0 issues the block's one atomic.
- `shared_privatization`: atomicAdd onto a data-dependent bin of a small array (`&bins[key]`): a per-block
  histogram in shared memory takes the atomics, then each block adds its nonzero bins to global memory.

Each comes at the original launch (one element per thread) and as grid-stride loops over fewer blocks, each thread
accumulating several elements. Every thread must reach the block's barriers, so the guard becomes a condition
around the per-element code (never an early return), and kernels that already synchronize are left alone.

Detection reads the syntax only (a compile unit carries no contract); what depends on sizes (how many bins, whether
blocks are whole warps, whether the grid covers [0, n)) is checked against the candidate's contract in `rewrite`,
and in `detect` too when the view holds the user's file with its @optiml block.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract, Dtype, LaunchRule, OptimlError, ResolvedContract
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, bare, derived, global_index_dim, unparenthesized
from optiml_engine.source.contract import parse_contract, resolve
from optiml_engine.source.ctypes import dtype_of, is_integer, itemsize
from optiml_engine.source.expr import evaluate

SYMPTOM = "atomics"
THREAD_BUILTINS = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
# Calls that need every thread of a warp or block: the rewrite adds its own after the per-element code, so a kernel
# that already has some (or shared memory, or the names the rewrite declares) is not restructured.
COLLECTIVE_PREFIXES = ("__syncthreads", "__syncwarp", "__shfl", "__ballot", "__any", "__all", "__activemask",
                       "__match", "__reduce", "__barrier")
PREFIX = "optiml_"
# (threads per block, most blocks) of the grid-stride variants: either fills an H100's 132 SMs about once.
GRID_STRIDE_SHAPES = ((256, 1024), (512, 512))
WARP = 32

# What a thread holds when it has no element, per reduction and element type (the types the CUDA atomic exists for).
IDENTITY: dict[str, dict[Dtype, str]] = {
    "atomicAdd": {"float32": "0", "float64": "0", "int32": "0", "uint32": "0", "uint64": "0"},
    "atomicMax": {"int32": "(-2147483647 - 1)", "uint32": "0u", "int64": "(-9223372036854775807LL - 1)",
                  "uint64": "0ull"},
    "atomicMin": {"int32": "2147483647", "uint32": "0xffffffffu", "int64": "9223372036854775807LL",
                  "uint64": "0xffffffffffffffffull"},
}
COMBINE = {"atomicAdd": "{acc} += {value};", "atomicMax": "{acc} = max({acc}, {value});",
           "atomicMin": "{acc} = min({acc}, {value});"}
# A shared histogram's limits: few bins, and little enough shared memory to keep 8 blocks per SM.
MAX_BINS = 4096
MAX_HISTOGRAM_BYTES = 16384
UNIFORM_NODES = {"number_literal", "binary_expression", "unary_expression", "parenthesized_expression",
                 "cast_expression", "type_descriptor", "primitive_type", "sized_type_specifier"}


# ---------------------------------------------------------------------------------------------------------------
# Syntax helpers


def _called(call: Node) -> str | None:
    function = call.child_by_field_name("function")
    return function.text.decode() if function.type == "identifier" else None


def _declared_name(declarator: Node) -> str | None:
    """The name a declarator declares, through pointers, arrays and initializers."""
    while declarator is not None and declarator.type != "identifier":
        declarator = declarator.child_by_field_name("declarator")
    return declarator.text.decode() if declarator is not None else None


def _inside(node: Node, outer: Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte


def _contains(view: KernelView, node: Node, *types: str) -> bool:
    return next(view.descendants(node, *types), None) is not None


def _is_bare_return(statement: Node) -> bool:
    return statement.type == "return_statement" and not statement.named_children


# ---------------------------------------------------------------------------------------------------------------
# The elementwise kernel and its atomics


@dataclass(frozen=True)
class Elementwise:
    """`[declarations] T i = <global index>; [declarations] <guard> <per-element code>` and nothing else."""

    index: Node                 # the declaration of the index
    index_name: str
    bound: Node                 # n in `i < n`
    condition: str              # the per-element condition: the guard's, or the negation of an early exit's
    guard: Node                 # the if statement
    end: int                    # where the guard and the per-element code end (an early exit: the body's end)
    prefix: list[Node]          # the declarations before the guard, the index's excepted
    guarded: tuple[int, int]    # byte range of the per-element code


@dataclass(frozen=True)
class AtomicUpdate:
    """An atomic call statement (its result unused) onto `array`, a pointer parameter, at `index` (None: `*array`)."""

    statement: Node
    function: str
    array: str
    address: Node
    index: Node | None
    value: Node


class KernelFacts:
    """What both rules ask of one kernel: its parameters, the names it changes, its shape and its atomics."""

    def __init__(self, view: KernelView):
        self.view = view
        self.pointers = {p.name: p for p in view.kernel.params if p.is_pointer}
        self.scalars = {p.name for p in view.kernel.params if not p.is_pointer}
        self.identifiers = list(view.descendants(view.body, "identifier"))
        self.assigned = self._assigned()
        self.declared = [_declared_name(d) for declaration in view.descendants(view.body, "declaration")
                         for d in declaration.children_by_field_name("declarator")]
        self.shape = None if self._untouchable() else self._shape()
        self.atomics = [update for call in view.descendants(view.body, "call_expression")
                        if (_called(call) or "").startswith("atomic") and (update := self._atomic(call))]

    def _assigned(self) -> set[str]:
        """Names the body assigns or increments."""
        targets = [node.child_by_field_name("left" if node.type == "assignment_expression" else "argument")
                   for node in self.view.descendants(self.view.body, "assignment_expression", "update_expression")]
        return {unparenthesized(t).text.decode() for t in targets}

    def unchanged(self, name: str) -> bool:
        return name not in self.assigned and name not in self.declared

    def uniform(self, node: Node) -> bool:
        """Whether `node` has one value over the whole grid: literals and unchanged scalar parameters."""
        for part in self.view.descendants(node):
            if part.type == "identifier":
                if part.text.decode() not in self.scalars or not self.unchanged(part.text.decode()):
                    return False
            elif part.is_named and part.type not in UNIFORM_NODES:
                return False
        return True

    def _untouchable(self) -> bool:
        return any(node.child_count == 0 and (node.text.decode() == "__shared__"
                                              or node.text.decode().startswith((*COLLECTIVE_PREFIXES, PREFIX)))
                   for node in self.view.descendants(self.view.body))

    def _index_name(self, statement: Node) -> str | None:
        """`i` when `statement` is `T i = blockIdx.x * blockDim.x + threadIdx.x;` (one declarator)."""
        declarators = statement.children_by_field_name("declarator") if statement.type == "declaration" else []
        if len(declarators) != 1 or declarators[0].type != "init_declarator":
            return None
        name, value = declarators[0].child_by_field_name("declarator"), declarators[0].child_by_field_name("value")
        if name.type != "identifier" or value is None or global_index_dim(value) != "x":
            return None
        return name.text.decode()

    def _shape(self) -> Elementwise | None:
        statements = [s for s in self.view.body.named_children if s.type != "comment"]
        index = next((s for s in statements if self._index_name(s)), None)
        if index is None:
            return None
        index_name = self._index_name(index)
        after = statements[statements.index(index) + 1:]
        guard = next((s for s in after if s.type != "declaration"), None)
        # Parameters stay as they came: a loop handing one thread several indices must find them unchanged.
        if guard is None or guard.type != "if_statement" or self.declared.count(index_name) != 1 \
                or self.assigned & {index_name, *self.pointers, *self.scalars}:
            return None
        prefix = [s for s in statements[:statements.index(guard)] if s is not index]
        if any(_contains(self.view, s, "assignment_expression", "update_expression", "call_expression")
               for s in prefix):
            return None
        comparison = self._comparison(guard, index_name)
        if comparison is None:
            return None
        bound, condition, early_exit = comparison
        if early_exit:
            end = self.view.body.named_children[-1].end_byte
            guarded = (guard.end_byte, end)
        elif guard is not statements[-1]:
            return None
        else:
            code, end = guard.child_by_field_name("consequence"), guard.end_byte
            guarded = ((code.children[0].end_byte, code.children[-1].start_byte) if code.type == "compound_statement"
                       else (code.start_byte, code.end_byte))
        shape = Elementwise(index=index, index_name=index_name, bound=bound, condition=condition, guard=guard,
                            end=end, prefix=prefix, guarded=guarded)
        return shape if self._per_element_only(shape) else None

    def _comparison(self, guard: Node, index_name: str) -> tuple[Node, str, bool] | None:
        """(n, the per-element condition, early exit) for `if (i < n) ...` / `if (n > i) ...` without else, or
        `if (i >= n) return;` / `if (n <= i) return;` (whose condition is then `i < n` / `n > i`)."""
        if guard.child_by_field_name("alternative") is not None:
            return None
        condition = guard.child_by_field_name("condition").child_by_field_name("value")
        condition = unparenthesized(condition) if condition is not None else None   # None: `if (T x = e)`
        if condition is None or condition.type != "binary_expression":
            return None
        left, right = (condition.child_by_field_name(f) for f in ("left", "right"))
        written = condition.child_by_field_name("operator").type
        if bare(left).text.decode() == index_name:
            bound, operator = right, written
        elif bare(right).text.decode() == index_name:
            bound, operator = left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(written, written)
        else:
            return None
        consequence = guard.child_by_field_name("consequence")
        statements = [s for s in (consequence.named_children if consequence.type == "compound_statement"
                                  else [consequence]) if s.type != "comment"]
        exits = len(statements) == 1 and _is_bare_return(statements[0])
        if operator != (">=" if exits else "<") or not self.uniform(bound):
            return None
        if exits:   # the negation of an integer comparison
            return bound, f"{left.text.decode()} {'<' if written == '>=' else '>'} {right.text.decode()}", True
        return bound, condition.text.decode(), False

    def _per_element_only(self, shape: Elementwise) -> bool:
        """Every thread reaches the end (no return in the per-element code), and that code depends on the thread
        only through the index, so that a loop may hand one thread several indices."""
        start, end = shape.guarded
        if any(start <= node.start_byte < end
               for node in self.view.descendants(self.view.body, "return_statement", "goto_statement")):
            return False
        return all(_inside(node, shape.index) for node in self.identifiers if node.text.decode() in THREAD_BUILTINS)

    def _atomic(self, call: Node) -> AtomicUpdate | None:
        """The call when its result is unused and its address is an element of an unchanged pointer parameter
        (`p`, `&p[k]`, `p + k`, `k + p`)."""
        arguments = call.child_by_field_name("arguments").named_children
        if call.parent.type != "expression_statement" or len(arguments) != 2:
            return None
        array, index = unparenthesized(arguments[0]), None
        if array.type == "pointer_expression" and array.child_by_field_name("operator").type == "&":
            subscript = unparenthesized(array.child_by_field_name("argument"))
            if subscript.type != "subscript_expression":
                return None
            array = unparenthesized(subscript.child_by_field_name("argument"))
            index = subscript.child_by_field_name("indices").named_children[0]
        elif array.type == "binary_expression" and array.child_by_field_name("operator").type == "+":
            left, right = (unparenthesized(array.child_by_field_name(f)) for f in ("left", "right"))
            array, index = (left, right) if left.text.decode() in self.pointers else (right, left)
        name = array.text.decode()
        if array.type != "identifier" or name not in self.pointers or not self.unchanged(name):
            return None
        return AtomicUpdate(statement=call.parent, function=_called(call), array=name, address=arguments[0],
                            index=index, value=arguments[1])

    def per_element(self, update: AtomicUpdate) -> bool:
        start, end = self.shape.guarded
        return start <= update.statement.start_byte and update.statement.end_byte <= end

    def only_used_by(self, array: str, updates: list[AtomicUpdate]) -> bool:
        """Whether every mention of `array` in the body is the address of one of `updates`."""
        mentions = [node for node in self.identifiers if node.text.decode() == array]
        return len(mentions) == len(updates) and all(any(_inside(m, u.address) for u in updates) for m in mentions)

    def element_dtype(self, array: str) -> Dtype | None:
        return dtype_of(self.pointers[array].base_type)


# ---------------------------------------------------------------------------------------------------------------
# The contract: the sizes a rewrite must hold at, and the bound in contract terms


def resolved_sizes(contract: Contract) -> list[ResolvedContract]:
    """The contract at its benchmark size and at every check size."""
    return [resolve(contract, binding) for binding in [contract.sizes, *contract.checks]]


def _contract_of(view: KernelView) -> Contract | None:
    """The @optiml contract above the kernel when the view holds the user's file (a compile unit has none)."""
    if view.kernel.comment is None:
        return None
    try:
        return parse_contract(view.kernel, view.document.model.path)
    except OptimlError:
        return None


def _expression(node: Node, names: Callable[[str], str | None]) -> str | None:
    """The C integer expression `node` (literals, names, + - *, parentheses) in the contract's expression language,
    each name written as `names` says; None when it has anything else."""
    node = unparenthesized(node)
    if node.type == "identifier":
        return names(node.text.decode())
    if node.type == "number_literal":
        digits = node.text.decode().rstrip("uUlL")
        return digits if digits.isdigit() or digits.lower().startswith("0x") else None
    operator = node.child_by_field_name("operator") if node.type == "binary_expression" else None
    if operator is None or operator.type not in ("+", "-", "*"):
        return None
    left, right = (_expression(node.child_by_field_name(f), names) for f in ("left", "right"))
    return None if left is None or right is None else f"({left}{operator.type}{right})"


def element_count(shape: Elementwise, contract: Contract) -> str | None:
    """The bound `n` of `i < n` in contract terms, when it is an integer expression of integer scalars."""
    values = {s.param: s.value for s in contract.scalars if is_integer(s.dtype)}
    return _expression(shape.bound, lambda name: f"({values[name]})" if name in values else None)


def grid_covers(shape: Elementwise, resolved: list[ResolvedContract]) -> bool:
    """Whether the original grid has a thread for every index below the bound at every size: only then does a
    grid-stride loop over [0, n) do the same work."""
    bound = _expression(shape.bound, lambda name: name)
    try:
        return bound is not None and all(r.grid[0] * r.block[0] >= evaluate(bound, dict(r.scalars)) for r in resolved)
    except OptimlError:
        return False


# ---------------------------------------------------------------------------------------------------------------
# Building the rewritten kernel


@dataclass(frozen=True)
class Privatized:
    """A rewrite's pieces: declarations before the per-element code, what replaces each atomic statement, and the
    block's combine after it, which every thread reaches."""

    prologue: str
    replacements: dict[Node, str]   # atomic statement -> its private update
    epilogue: str


def _spliced(view: KernelView, start: int, end: int, replacements: dict[Node, str]) -> str:
    """The text of [start, end) with the statements inside it replaced."""
    pieces, cursor = [], start
    for statement, text in sorted(replacements.items(), key=lambda item: item[0].start_byte):
        pieces += [view.source[cursor:statement.start_byte].decode(), text]
        cursor = statement.end_byte
    return "".join(pieces) + view.source[cursor:end].decode()


def _per_element_code(view: KernelView, shape: Elementwise, parts: Privatized) -> str:
    """The per-element code with its atomics replaced, unindented."""
    return textwrap.dedent(_spliced(view, *shape.guarded, parts.replacements)).strip("\n")


def _one_element_per_thread(view: KernelView, shape: Elementwise, parts: Privatized) -> str:
    """The kernel in place: the private state declared first, the per-element code under its condition (an early
    exit turned around), the combine last."""
    body_open, body_close = view.body.children[0], view.body.children[-1]
    guarded = (f"if ({shape.condition}) {{\n"
               f"{textwrap.indent(_per_element_code(view, shape, parts), ' ' * 8)}\n"
               f"    }}")
    return view.replaced([(body_open.end_byte, body_open.end_byte, "\n" + parts.prologue.rstrip("\n")),
                          (shape.guard.start_byte, shape.end, guarded),
                          (body_close.start_byte, body_close.start_byte, parts.epilogue)])


def grid_stride_kernel(view: KernelView, shape: Elementwise, parts: Privatized, unroll: int = 1) -> str:
    """The kernel as a grid-stride loop over the per-element code: each thread takes indices i, i + stride, ...
    while the guard's condition holds (it is `i < n`: once false, false for every later index); with `unroll` > 1,
    that many iterations' loads may be in flight together."""
    index_type = view.text(shape.index.child_by_field_name("type"))   # without const: the loop increments it
    start = view.text(shape.index.child_by_field_name("declarator").child_by_field_name("value"))
    name = shape.index_name
    code = "\n".join([*(view.text(s) for s in shape.prefix), _per_element_code(view, shape, parts)])
    pragma = f"    #pragma unroll {unroll}\n" if unroll > 1 else ""
    body = (f"{{\n{parts.prologue}{pragma}"
            f"    for ({index_type} {name} = {start}; {shape.condition}; {name} += blockDim.x * gridDim.x) {{\n"
            f"{textwrap.indent(code, ' ' * 8)}\n"
            f"    }}\n{parts.epilogue}}}")
    return view.replaced([(view.body.start_byte, view.body.end_byte, body)])


def _variants(view: KernelView, node: Candidate, shape: Elementwise, parts: Privatized, what: str,
              whole_warps: bool) -> list[Candidate]:
    """The rewrite at the original launch, when its blocks are 1-D (and whole warps, when the combine shuffles),
    and as grid-stride loops, when the original grid covers [0, n) and n is a contract expression."""
    resolved = resolved_sizes(node.contract)
    if not all(r.block[1:] == (1, 1) for r in resolved):
        return []
    variants = []
    if not whole_warps or all(r.block[0] % WARP == 0 for r in resolved):
        description = f"{what}, one element per thread"
        variants.append(derived(node, _one_element_per_thread(view, shape, parts), description))
    count = element_count(shape, node.contract)
    if count is not None and all(r.grid[1:] == (1, 1) for r in resolved) and grid_covers(shape, resolved):
        text = grid_stride_kernel(view, shape, parts)
        for block, most_blocks in GRID_STRIDE_SHAPES:
            launch = LaunchRule(grid=[f"min(cdiv({count},{block}),{most_blocks})"], block=[str(block)], smem="0")
            candidate = derived(node, text, f"{what}, grid-stride: block {block}, at most {most_blocks} blocks",
                                launch=launch)
            try:
                resolved_sizes(candidate.contract)
            except OptimlError:      # a size where the new grid is empty (n = 0): no such variant
                continue
            variants.append(candidate)
    return variants


# ---------------------------------------------------------------------------------------------------------------
# atomic_block_reduce


class AtomicBlockReduce(Rule):
    name = "atomic_block_reduce"
    symptom = SYMPTOM

    @staticmethod
    def targets(facts: KernelFacts) -> Iterator[AtomicUpdate]:
        """atomicAdd/Max/Min at a uniform address in the per-element code, the only use of its array, of a type
        the combine supports."""
        if facts.shape is None:
            return
        for update in facts.atomics:
            if (update.function in IDENTITY and facts.element_dtype(update.array) in IDENTITY[update.function]
                    and (update.index is None or facts.uniform(update.index)) and facts.per_element(update)
                    and facts.only_used_by(update.array, [update])):
                yield update

    def detect(self, view: KernelView) -> list[Match]:
        return [Match(rule=self.name, span=view.span(u.statement), symptom=self.symptom,
                      message=f"every thread does {u.function} on the same address of '{u.array}': same-address "
                              f"atomics serialize in L2; reduce in the block first and issue one atomic per block")
                for u in self.targets(KernelFacts(view))]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        facts = KernelFacts(view)
        update = next(self.targets(facts), None)
        if update is None:
            return []
        candidates = _variants(view, node, facts.shape, self.privatized(view, facts, update),
                               f"block reduce of {update.function} on {update.array}", whole_warps=True)
        return [Edit(candidate=c, rule=self.name, description=c.description, symptom=self.symptom)
                for c in candidates]

    @staticmethod
    def privatized(view: KernelView, facts: KernelFacts, update: AtomicUpdate) -> Privatized:
        element = facts.pointers[update.array].base_type
        identity = f"({element})({IDENTITY[update.function][facts.element_dtype(update.array)]})"
        acc, partials, lane = f"{PREFIX}acc", f"{PREFIX}warp_partials", "threadIdx.x"
        combine = COMBINE[update.function]

        def warp_reduce(indent: str) -> str:
            offset = f"{PREFIX}offset"
            shuffled = f"__shfl_down_sync(0xffffffffu, {acc}, {offset})"
            return (f"{indent}for (int {offset} = {WARP // 2}; {offset} > 0; {offset} /= 2)\n"
                    f"{indent}    {combine.format(acc=acc, value=shuffled)}\n")

        epilogue = (f"    // One atomic per block: reduce each warp with shuffles, then the warps' partials.\n"
                    f"    __shared__ {element} {partials}[{WARP}];\n"
                    f"{warp_reduce('    ')}"
                    f"    if ({lane} % {WARP} == 0)\n"
                    f"        {partials}[{lane} / {WARP}] = {acc};\n"
                    f"    __syncthreads();\n"
                    f"    if ({lane} < {WARP}) {{\n"
                    f"        {acc} = {lane} < blockDim.x / {WARP} ? {partials}[{lane}] : {identity};\n"
                    f"{warp_reduce('        ')}"
                    f"        if ({lane} == 0)\n"
                    f"            {update.function}({view.text(update.address)}, {acc});\n"
                    f"    }}\n")
        value = f"({element})({view.text(update.value)})"
        return Privatized(prologue=f"    {element} {acc} = {identity};   // this thread's elements, combined\n",
                          replacements={update.statement: combine.format(acc=acc, value=value)},
                          epilogue=epilogue)


# ---------------------------------------------------------------------------------------------------------------
# shared_privatization


def _bins_reached(index: Node) -> int | None:
    """The bins a key's own arithmetic reaches: `k % C` gives C, `k & M` gives M + 1."""
    index = unparenthesized(index)
    operator = index.child_by_field_name("operator") if index.type == "binary_expression" else None
    right = unparenthesized(index.child_by_field_name("right")) if operator is not None else None
    if operator is None or operator.type not in ("%", "&") or right.type != "number_literal":
        return None
    try:
        constant = int(right.text.decode().rstrip("uUlL"), 0)
    except ValueError:
        return None
    return constant if operator.type == "%" else constant + 1


class SharedPrivatization(Rule):
    name = "shared_privatization"
    symptom = SYMPTOM

    @staticmethod
    def targets(facts: KernelFacts) -> dict[str, list[AtomicUpdate]]:
        """Arrays whose every use is an atomicAdd at a data-dependent index in the per-element code, of a type
        shared atomics support: array -> its updates."""
        if facts.shape is None:
            return {}
        found: dict[str, list[AtomicUpdate]] = {}
        for update in facts.atomics:
            if (update.function == "atomicAdd" and facts.element_dtype(update.array) in IDENTITY["atomicAdd"]
                    and update.index is not None and not facts.uniform(update.index) and facts.per_element(update)):
                found.setdefault(update.array, []).append(update)
        return {array: updates for array, updates in found.items() if facts.only_used_by(array, updates)}

    @staticmethod
    def bins(facts: KernelFacts, array: str, updates: list[AtomicUpdate], contract: Contract | None) -> int | None:
        """How many bins the shared histogram holds: the array's length (its largest over the contract's sizes)
        or the bins the keys' arithmetic reaches, whichever is smaller; None when not known or too many."""
        reached = [_bins_reached(u.index) for u in updates]
        counts = [max(reached)] if None not in reached else []
        spec = next((a for a in contract.arrays if a.param == array), None) if contract is not None else None
        if spec is not None:
            counts.append(max(r.lengths[array] for r in resolved_sizes(contract)))
        if not counts:
            return None
        count = min(counts)
        fits = 0 < count <= MAX_BINS and count * itemsize(facts.element_dtype(array)) <= MAX_HISTOGRAM_BYTES
        return count if fits else None

    def detect(self, view: KernelView) -> list[Match]:
        facts = KernelFacts(view)
        contract = _contract_of(view)
        return [Match(rule=self.name, span=view.span(u.statement), symptom=self.symptom,
                      message=f"atomicAdd into few bins of '{array}': global atomics on few addresses serialize in "
                              f"L2; count per block in shared memory and add each block's bins once")
                for array, updates in self.targets(facts).items()
                # A compile unit has no contract: there the bin count is for the rewrite to check.
                if contract is None or self.bins(facts, array, updates, contract) is not None
                for u in updates]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        facts = KernelFacts(view)
        for array, updates in self.targets(facts).items():
            count = self.bins(facts, array, updates, node.contract)
            if count is not None:
                candidates = _variants(view, node, facts.shape, self.privatized(view, facts, array, updates, count),
                                       f"shared-memory histogram of {array} ({count} bins)", whole_warps=False)
                return [Edit(candidate=c, rule=self.name, description=c.description, symptom=self.symptom)
                        for c in candidates]
        return []

    @staticmethod
    def privatized(view: KernelView, facts: KernelFacts, array: str, updates: list[AtomicUpdate], count: int,
                   copies: int = 1) -> Privatized:
        """The per-block histogram; with `copies` > 1, that many histograms side by side, warp w counting into copy
        w % copies, so that fewer warps contend for one shared counter."""
        element = facts.pointers[array].base_type
        bins, bin_, key, copy = f"{PREFIX}bins", f"{PREFIX}bin", f"{PREFIX}key", f"{PREFIX}copy"
        slots = count * copies

        def each_bin(bound: int) -> str:
            return f"for (int {bin_} = threadIdx.x; {bin_} < {bound}; {bin_} += blockDim.x)"

        prologue = (f"    // This block's histogram{'s' if copies > 1 else ''}: its atomics stay in shared memory.\n"
                    f"    __shared__ {element} {bins}[{slots}];\n"
                    f"    {each_bin(slots)}\n"
                    f"        {bins}[{bin_}] = 0;\n"
                    f"    __syncthreads();\n")
        if copies > 1:
            prologue += f"    const int {copy} = threadIdx.x / {WARP} % {copies} * {count};   // this warp's copy\n"
        total = " + ".join([f"{bins}[{bin_}]", *(f"{bins}[{k * count} + {bin_}]" for k in range(1, copies))])
        epilogue = (f"    // One global atomic per bin the block used.\n"
                    f"    __syncthreads();\n"
                    f"    {each_bin(count)} {{\n"
                    f"        const {element} {PREFIX}count = {total};\n"
                    f"        if ({PREFIX}count != 0)\n"
                    f"            atomicAdd(&{array}[{bin_}], {PREFIX}count);\n"
                    f"    }}\n")
        slot = f"{copy} + {key}" if copies > 1 else key
        # A key outside the shared bins (one the original would write out of bounds, or past the bins the key's
        # arithmetic reaches) goes to global memory exactly as before.
        replacements = {}
        for update in updates:
            indent, value = " " * update.statement.start_point.column, view.text(update.value)
            replacements[update.statement] = (
                f"{{\n{indent}    const auto {key} = {view.text(update.index)};\n"
                f"{indent}    if ((unsigned long long){key} < {count})\n"
                f"{indent}        atomicAdd(&{bins}[{slot}], {value});\n"
                f"{indent}    else\n"
                f"{indent}        atomicAdd(&{array}[{key}], {value});\n"
                f"{indent}}}")
        return Privatized(prologue=prologue, replacements=replacements, epilogue=epilogue)


RULES: list[Rule] = [AtomicBlockReduce(), SharedPrivatization()]
