"""CUDA kernel + contract -> LoopProgram (IR.md), or a located reason why not.

The kernel's thread indices (`blockIdx.d * blockDim.d + threadIdx.d` in any order and spelling, under casts, or a
grid-stride loop over one) become the parallel space; its guards (`if (i < n) {...}`, `if (i >= n) return;`,
`x > 0 && x < w - 1`, conjunctions) become the space's bounds; everything else becomes per-point code. Pointer
aliases (`const float* row = x + r * cols`) fold into the indices of the reads and writes through them; small
`__device__` helpers whose body is declarations and one `return` are inlined; object-like `#define` constants are
substituted. What the program cannot say is refused at its line: shared memory and barriers (but a block's tree
reduction through them, block_trees.py), warp intrinsics, `while`,
`break`, thread indices used as values, local arrays, writes through anything but an array parameter.
"""

from __future__ import annotations

import re
from typing import Literal

import numpy as np

from tree_sitter import Node

from optiml_engine.ir.analysis import (
    conjunction, conjuncts, constant, is_integer_cast, is_zero, loads, names_of, polynomial, statement_exprs,
    subexpressions)
from optiml_engine.ir.block_trees import (
    block_totals_added, block_trees_folded, shared_caches_read, warp_rows_folded, warp_totals_added)
from optiml_engine.ir.delinearize import digit_of, factors, quotient
from optiml_engine.gpu.compare import compare
from optiml_engine.gpu.data import make_inputs
from optiml_engine.gpu.emulate import run_on_cpu
from optiml_engine.ir.interpret import InterpretError, evaluate_scalar, run_program, scalar_values
from optiml_engine.ir.kernel_values import file_constants, file_macros, macro_value
from optiml_engine.ir.relabel import threads_transposed, threads_uncoarsened
from optiml_engine.ir.respell import WRITTEN_OUT, assigns, constant_bounds, constant_value, passed_below, respelled
from optiml_engine.ir.staged_tiles import privatized_merged, staged_tiles_read
from optiml_engine.ir.untile import tiles_joined
from optiml_engine.ir.program import (
    ArrayParam, Assign, Atomic, Binary, Call, Cast, Const, Expr, For, If, Let, Load, LoopProgram, NotLiftable,
    ParallelIndex, Ref, ScalarParam, Select, Stmt, Store, Unary, children, fresh_name, mentions, names_in,
    statements_replaced,
    substitute, substituted, walk)
from optiml_engine.model import Candidate, Location, OptimlError, ResolvedContract
from optiml_engine.policies.kernel_view import (
    KernelView, bare, builtin_dim, derived, global_index_dim, operator, sum_of_product, unparenthesized)
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import dtype_of, itemsize

_LINE_DIRECTIVE = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)\s+"([^"]*)"')
_ATOMICS = {"atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor"}
_NOT_LIFTABLE_CALLS = {
    "__syncthreads": "a barrier", "__syncwarp": "a warp barrier", "__threadfence": "a memory fence",
    "atomicExch": "an atomic exchange", "atomicCAS": "a compare-and-swap", "atomicInc": "an atomic increment",
    "atomicDec": "an atomic decrement", "printf": "printf", "malloc": "device malloc", "free": "device free",
    "__ballot_sync": "a warp vote", "__any_sync": "a warp vote", "__all_sync": "a warp vote",
    "__activemask": "a warp mask",
}
_BUILTINS = ("threadIdx", "blockIdx", "blockDim", "gridDim")
_COMPARISONS = {"<", "<=", ">", ">="}
_MIRRORED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


class _Refused(Exception):
    def __init__(self, node: Node | None, reason: str):
        super().__init__(reason)
        self.node, self.reason = node, reason


def lift(candidate: Candidate) -> LoopProgram | NotLiftable:
    """The kernel's loop-nest program, or why it has none (located in the user's file). A kernel refused as written
    is lifted again with its macros expanded and the comparisons its parse took for templates mended (respell.py),
    then with its locals that name builtins inlined too (`_builtin_aliases_inlined`), then with a 1-D block split
    by `%` and `/` read as the 2-D block it stands for (`_block_split`), then with a block reducing through a
    shared-memory tree read as its one point, or its tree's total added atomically read as each thread's partial
    added, or a warp a row reducing with shuffles read as the row's point (block_trees.py, `_rows_of_warps`); last,
    such a tree or warp merging its partials by code of its own, read so only where the kernel, run, agrees with the
    program (`_computes`); the refusal shown when none lifts is the kernel's as written, or, where that is in the
    kernel's body, its respelled text's where that stands further down (the lifter read further: what it stopped at
    is the kernel's real obstacle, the one before it only a spelling; a refusal in a helper stays, the respelled text
    inlines helpers at their calls) (`int b = blockIdx.z;` is a parallel index of its own, never inlined first)."""
    program = _lifted(candidate)
    if isinstance(program, LoopProgram):
        return program
    plain = respelled(candidate)
    # The thread index's aliases alone too: a block index's alias (`int b = blockIdx.z;`) is a parallel index of its
    # own, which inlining it would take away.
    thread_aliases_inlined = _builtin_aliases_inlined(plain, ("threadIdx",))
    split = _block_split(plain)
    if split is plain:          # the split reading the thread's index through its alias (`tx = tid % 32`)
        split = _block_split(thread_aliases_inlined)
    retries = [plain, _builtin_aliases_inlined(plain), thread_aliases_inlined]
    if split is not plain:      # its halves named (`int tx = threadIdx.x % 32;`) and the block index apart
        retries += [split, _builtin_aliases_inlined(split, ("threadIdx",))]
    retries += [_bare_blocks_named(plain), _block_strides_named(plain), _inline_indices_named(plain),
                _bare_blocks_named(thread_aliases_inlined)]
    folded = block_trees_folded(shared_caches_read(plain))
    if folded is not plain:     # a block reducing through a shared-memory tree, read as its one point
        retries += [folded, _builtin_aliases_inlined(folded), _builtin_aliases_inlined(folded, ("threadIdx",)),
                    _bare_blocks_named(folded)]
    # Shared tiles caching global memory, read through to the loads that filled them, in the kernel as written and
    # with the thread index's aliases inlined (the reads then name the thread itself, as without the alias).
    staged_readings = []
    for kernel in [plain] + [thread_aliases_inlined] * (thread_aliases_inlined is not plain):
        staged = staged_tiles_read(kernel)
        if staged is not kernel and all(staged is not reading for reading in staged_readings):
            staged_readings.append(staged)
    for reading in staged_readings:
        retries += [reading, _builtin_aliases_inlined(reading), _bare_blocks_named(reading)]
    for shared_nothing in (plain, *staged_readings):    # turns of the threads made threads, thread dimensions swapped
        uncoarsened = threads_uncoarsened(shared_nothing)
        if uncoarsened is not shared_nothing:
            retries += [uncoarsened, threads_transposed(uncoarsened), _inline_indices_named(uncoarsened)]
    retries += [threads_transposed(reading) for reading in staged_readings]
    merged = privatized_merged(plain)
    if merged is not plain:     # a block's private copy of a histogram: its adds made to the histogram itself
        retries += [merged, _builtin_aliases_inlined(merged)]
    added = block_totals_added(plain)
    if added is not plain:      # a block's tree total added atomically: each thread's partial added instead
        retries += [added, _builtin_aliases_inlined(added)]
    warp_added = warp_totals_added(plain)
    if warp_added is not plain:     # a warp's shuffled total added atomically: each thread's share added instead
        retries += [warp_added, _builtin_aliases_inlined(warp_added)]
    # A warp a row, reducing with shuffles: the row's one point (its lane read through a thread index's alias too).
    # Its lanes merging their partials by code of their own: to be checked (below).
    merged_warps = []
    for rows in (plain, _rows_of_warps(plain), _rows_of_warps(thread_aliases_inlined)):
        warps = warp_rows_folded(rows)
        if warps is not rows:
            retries += [warps, _builtin_aliases_inlined(warps)]
        elif (merged := warp_rows_folded(rows, merges=True)) is not rows:
            merged_warps += [merged, _builtin_aliases_inlined(merged)]
    plain_refusal = program
    for position, again in enumerate(retries):
        if again is not candidate and all(again is not before for before in retries[:position]):
            lifted = _lifted(again)
            if isinstance(lifted, LoopProgram):
                return lifted
            if again is plain:
                plain_refusal = lifted
    # A tree (or a warp's shuffles) whose steps combine the partials by code of their own (an online softmax's (max,
    # sum) pairs): read as one point only where the kernel, run, computes what that program does.
    merged = block_trees_folded(shared_caches_read(plain), merges=True) if folded is plain else plain
    checked = [merged, _builtin_aliases_inlined(merged), _bare_blocks_named(merged)] if merged is not plain else []
    for again in checked + merged_warps:
        lifted = _lifted(again)
        if isinstance(lifted, LoopProgram) and _computes(candidate, lifted):
            return lifted
    body = KernelView.of(candidate).body
    where = (program.location.line, program.location.column)
    first = located(candidate, body)
    in_body = program.location.file == first.file and \
        first.line <= where[0] <= first.line + body.end_point.row - body.start_point.row
    return plain_refusal if in_body and (plain_refusal.location.line, plain_refusal.location.column) > where \
        else program


CHECKED_SIZES = 3      # check sizes (the largest) a reading of the kernel that its text does not prove is run at
TIED_VALUES = 3        # the distinct values of each floating array of the inputs that tie
COMPUTED_KEPT = 64     # `_computes`' answers kept, the oldest dropped first
_COMPUTED: dict[tuple[str, str, str, str], bool] = {}


def _computes(candidate: Candidate, program: LoopProgram) -> bool:
    """Whether the kernel, run on the CPU emulator, writes what the program's interpreter does (within the contract's
    tolerance) at the contract's largest check sizes (where most threads hold partials of several elements for the
    merges to combine), on random inputs and on inputs that tie: the test of a reading its text cannot prove. Each
    floating array of the second set repeats its first three random values over and over (values of its own
    distribution, so every function stays in its domain), so that a reading that keeps another of equal values (the
    last maximum's index for the first) shows. Without check sizes, refused: the contract's own sizes would take
    the emulator hours."""
    key = (candidate.unit.text, candidate.unit.kernel, candidate.contract.model_dump_json(), str(program))
    if key not in _COMPUTED:
        # The search lifts its base kernel again for each node it proposes from: the runs are made once.
        if len(_COMPUTED) >= COMPUTED_KEPT:
            _COMPUTED.pop(next(iter(_COMPUTED)))
        _COMPUTED[key] = _runs_agree(candidate, program)
    return _COMPUTED[key]


def _runs_agree(candidate: Candidate, program: LoopProgram) -> bool:
    contract = candidate.contract
    checks = [(binding, resolve(contract, binding)) for binding in contract.checks]
    largest = sorted(checks, key=lambda check: sum(check[1].lengths.values()))[-CHECKED_SIZES:]
    for seed, (binding, resolved) in enumerate(largest):
        random = make_inputs(np, contract.arrays, resolved.lengths, seed)
        tied = {name: np.resize(array[:TIED_VALUES], array.shape) if array.dtype.kind == "f" else array
                for name, array in random.items()}
        if not all(_agree_on(candidate, program, binding, resolved, inputs) for inputs in (random, tied)):
            return False
    return bool(contract.checks)


def _agree_on(candidate: Candidate, program: LoopProgram, binding: dict[str, int], resolved: ResolvedContract,
              inputs: dict[str, np.ndarray]) -> bool:
    contract = candidate.contract
    try:
        kernel = run_on_cpu(candidate, binding, {name: array.copy() for name, array in inputs.items()})
        read = run_program(program, resolved, contract.arrays, inputs)
    except Exception:   # noqa: BLE001 - either side failing to run leaves the reading unconfirmed: refused
        return False
    return all(compare(np, spec.param, read[spec.param], kernel[spec.param], spec.dtype, contract.tol,
                       contract.atol).ok for spec in contract.arrays if spec.direction != "in")


def located(candidate: Candidate, node: Node) -> Location:
    """The user's file and line of a node of the candidate's unit, through the unit's #line directives."""
    row, column = node.start_point.row, node.start_point.column
    file, line = candidate.unit.path, 1
    for text_line in candidate.unit.text.split("\n")[:row]:
        if directive := _LINE_DIRECTIVE.match(text_line):
            file, line = directive.group(2), int(directive.group(1))
        else:
            line += 1
    return Location(file=file, line=line, column=column + 1)


def _lifted(candidate: Candidate) -> LoopProgram | NotLiftable:
    view = KernelView.of(candidate)
    lifter = _Lifter(view, candidate)
    unread = _unread(view.body)
    if unread is not None:
        # The parser recovered from something it could not read (a `#pragma` between a loop's header and its
        # body reads as a loop with an empty body): a program read from that tree would not be the kernel.
        return NotLiftable(location=lifter.location(unread), reason="code the parser cannot read here")
    try:
        return lifter.program()
    except _Refused as refused:
        return NotLiftable(location=lifter.location(refused.node), reason=refused.reason)
    except (InterpretError, OptimlError) as error:
        # The bounds could not be evaluated at the contract's sizes (a function the interpreter does not know, a
        # contract value out of range): refused, not guessed.
        return NotLiftable(location=lifter.location(None), reason=f"its bounds cannot be evaluated: {error}")


def _unread(node: Node) -> Node | None:
    """The first node the parser made up or skipped (missing, or an error) under `node`; None where it has none."""
    if not node.has_error:
        return None
    if node.is_missing or node.type == "ERROR":
        return node
    return next((found for child in node.children if (found := _unread(child)) is not None), node)


def _builtin_aliases_inlined(candidate: Candidate, builtins: tuple[str, ...] = _BUILTINS) -> Candidate:
    """The kernel with each local that only names a builtin (`const int tid = threadIdx.x;`, `int bid =
    blockIdx.x;`, never assigned again) replaced by the builtin where it is read, as users often spell the global
    index (`int i = bid * blockDim.x + tid;`); the candidate itself where there is none. Lines stay where they were.
    `builtins`: the builtins whose aliases are inlined."""
    view = KernelView.of(candidate)
    replacements: list[tuple[int, int, str]] = []
    for declaration in view.body.named_children:
        declarators = [d for d in declaration.named_children if d.type == "init_declarator"]
        if declaration.type != "declaration" or not declarators or \
                len(declarators) != len(declaration.children_by_field_name("declarator")):
            continue
        inlined = []                # every declarator an alias (`int tx = threadIdx.x, ty = threadIdx.y;`), or none
        for declarator in declarators:
            value = declarator.child_by_field_name("value")
            builtin = bare(value) if value is not None else None
            if builtin is None or builtin.type != "field_expression" or \
                    view.text(builtin.child_by_field_name("argument")) not in builtins:
                break
            name = view.text(declarator.child_by_field_name("declarator"))
            uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and
                    n.start_byte > declaration.end_byte]
            if any(n.parent is not None and (
                    n.parent.type == "update_expression" or n.parent.type == "assignment_expression" and
                    n.parent.child_by_field_name("left") == n) for n in uses):
                break
            inlined += [(n.start_byte, n.end_byte, view.text(builtin)) for n in uses]
        else:
            if "\n" not in view.text(declaration):
                replacements += [(declaration.start_byte, declaration.end_byte, ";"), *inlined]
    if not replacements:
        return candidate
    return derived(candidate, view.replaced(replacements), candidate.description)


def _bare_blocks_named(candidate: Candidate) -> Candidate:
    """A grid dimension whose blocks the kernel reads only as `blockIdx.d` (no thread, block size or grid size along
    it), taken apart by arithmetic (`int n = blockIdx.z / Cout; int co = blockIdx.z % Cout;`): the block index
    named once at the body's top (`const int block_z = blockIdx.z;`, on the brace's line, so lines stay where they
    were) and read through that name, which the lift takes as a parallel index of its own (delinearize.py then takes
    its digits apart). The candidate itself where no dimension is so read."""
    view = KernelView.of(candidate)
    fields = [node for node in view.descendants(view.body, "field_expression")
              if view.text(node.child_by_field_name("argument")) in _BUILTINS]
    taken = _names_taken(view)
    declarations, replacements = [], []
    for dim in "xyz":
        reads = {view.text(node.child_by_field_name("argument")) for node in fields
                 if view.text(node.child_by_field_name("field")) == dim}
        name = f"block_{dim}"
        if reads != {"blockIdx"} or name in taken:
            continue
        declarations.append(f" const int {name} = blockIdx.{dim};")
        replacements += [(node.start_byte, node.end_byte, name) for node in fields
                         if view.text(node) == f"blockIdx.{dim}"]
    return _named_at_top(candidate, view, declarations, replacements)


def _inline_indices_named(candidate: Candidate) -> Candidate:
    """A thread's global index written out where it is read (`y[blockIdx.x * blockDim.x + threadIdx.x] = ...`, the
    block size spelled `blockDim.d` or the number the contract launches along d at every size), as a whole
    expression, and the dimension's thread and block indices read nowhere else: the index named once at the body's
    top (`const int index_x = blockIdx.x * blockDim.x + threadIdx.x;`, on the brace's line, in the type of a cast
    around it where one is) and read through that name, which the lift takes as a parallel index. The candidate
    itself where no dimension is so read."""
    view = KernelView.of(candidate)
    lifter = _Lifter(view, candidate)
    taken = _names_taken(view)
    declarations, replacements = [], []
    for dim in "xyz":
        found = [node for node in view.descendants(view.body, "binary_expression")
                 if (global_index_dim(node) or lifter.fixed_block_index_dim(node)) == dim and
                 not (node.parent.type == "init_declarator" and unparenthesized(node.parent.child_by_field_name(
                     "value")) == node)]
        found = [node for node in found if not any(other != node and other.start_byte <= node.start_byte and
                                                   node.end_byte <= other.end_byte for other in found)]
        builtins = [node for node in view.descendants(view.body, "field_expression")
                    if view.text(node).replace(" ", "") in (f"threadIdx.{dim}", f"blockIdx.{dim}")]
        name = f"index_{dim}"
        if not found or name in taken or any(not any(n.start_byte <= b.start_byte < n.end_byte for n in found)
                                             for b in builtins):
            continue
        casts = {lifter.text(c.child_by_field_name("type")) for n in found
                 for c in view.descendants(n, "cast_expression")}
        ctype = casts.pop() if len(casts) == 1 else "int"
        declarations.append(f" const {ctype} {name} = {view.text(found[0])};")
        replacements += [(node.start_byte, node.end_byte, name) for node in found]
    return _named_at_top(candidate, view, declarations, replacements)


def _block_strides_named(candidate: Candidate) -> Candidate:
    """A block whose threads share loops (`for (int c = threadIdx.x; c < C; c += blockDim.x)`, a block per row, its
    threads striding the row), where the kernel reads the thread index and the block size along that dimension only
    so and the contract launches blocks of one size there at every size: the thread index named once at the body's
    top (`const int thread_x = threadIdx.x;`, on the brace's line, so lines stay where they were) and the block size
    written as its number, so that the lift takes each thread as a point of its own (beside its block's index) and
    its loop as a loop from that point. The candidate itself where no dimension is so read."""
    view = KernelView.of(candidate)
    contract = candidate.contract
    fields = [node for node in view.descendants(view.body, "field_expression")
              if view.text(node.child_by_field_name("argument")) in ("threadIdx", "blockDim")]
    taken = _names_taken(view)
    declarations, replacements = [], []
    for axis, dim in enumerate("xyz"):
        reads = [node for node in fields if view.text(node.child_by_field_name("field")) == dim]
        starts, steps = [], []
        for loop in view.descendants(view.body, "for_statement"):
            init, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
            values = [d.child_by_field_name("value") for d in (init.named_children if init is not None and
                                                               init.type == "declaration" else [])
                      if d.type == "init_declarator"]
            step = update.child_by_field_name("right") if update is not None and \
                update.type == "assignment_expression" and update.child_by_field_name("operator").type == "+=" \
                else None
            if len(values) == 1 and values[0] is not None and bare(values[0]) in reads and step is not None and \
                    bare(step) in reads:
                starts.append(bare(values[0]))
                steps.append(bare(step))
        sizes = {resolve(contract, binding).block[axis] if axis < len(contract.launch.block) else 1
                 for binding in [contract.sizes, *contract.checks]}
        name = f"thread_{dim}"
        if not starts or len(starts) + len(steps) != len(reads) or len(sizes) != 1 or name in taken or \
                any(view.text(n) != f"threadIdx.{dim}" for n in starts) or \
                any(view.text(n) != f"blockDim.{dim}" for n in steps):
            continue
        declarations.append(f" const int {name} = threadIdx.{dim};")
        replacements += [(n.start_byte, n.end_byte, name) for n in starts] + \
            [(n.start_byte, n.end_byte, str(sizes.pop())) for n in steps]
    return _named_at_top(candidate, view, declarations, replacements)


def _names_taken(view: KernelView) -> set[str]:
    """The names the kernel's body reads or declares, and its parameters': a name added must be none of them."""
    return {view.text(node) for node in view.descendants(view.body, "identifier")} | \
        {param.name for param in view.kernel.params}


def _named_at_top(candidate: Candidate, view: KernelView, declarations: list[str],
                  replacements: list[tuple[int, int, str]]) -> Candidate:
    """The kernel with `declarations` put on its body's opening brace's line (so lines stay where they were) and
    the `replacements` made; the candidate itself where there is no declaration."""
    if not declarations:
        return candidate
    brace = view.body.start_byte
    return derived(candidate, view.replaced([(brace, brace + 1, "{" + "".join(declarations)), *replacements]),
                   candidate.description)


def _block_split(candidate: Candidate) -> Candidate:
    """A 1-D block of T threads split by the kernel into a W x (T / W) tile, `threadIdx.x % W` and `threadIdx.x /
    W` (W a number or a `#define` of one dividing T at every contract size), as the 2-D block it stands for:
    threadIdx.x and threadIdx.y, the launch's block (W, T / W) for the lift alone. Thread t of the 1-D block is the
    thread (t % W, t / W) of the 2-D one, so the launch covers the same points. The candidate itself where the
    kernel reads threadIdx.x otherwise, or threadIdx.y or blockDim at all."""
    view = KernelView.of(candidate)
    contract = candidate.contract
    blocks = {tuple(resolve(contract, binding).block) for binding in [contract.sizes, *contract.checks]}
    if len(blocks) != 1:
        return candidate
    threads, *others = blocks.pop()
    if any(extent != 1 for extent in others):
        return candidate
    macros = file_macros(view)
    replacements: list[tuple[int, int, str]] = []
    widths: set[int] = set()
    for node in view.descendants(view.body, "field_expression"):
        text = view.text(node)
        if text in ("threadIdx.y", "threadIdx.z", "blockDim.x", "blockDim.y", "blockDim.z"):
            return candidate
        if text != "threadIdx.x":
            continue
        parent = node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            parent = parent.parent
        if parent is None or parent.type != "binary_expression" or operator(parent) not in ("%", "/") or \
                bare(parent.child_by_field_name("left")) != node:
            return candidate
        written = view.text(bare(parent.child_by_field_name("right")))
        width = macros.get(written, written).rstrip("uU")
        if not width.isdigit() or int(width) == 0 or threads % int(width):
            return candidate
        widths.add(int(width))
        replacements.append((parent.start_byte, parent.end_byte,
                             "threadIdx.x" if operator(parent) == "%" else "threadIdx.y"))
    if len(widths) != 1:
        return candidate
    width = widths.pop()
    launch = contract.launch.model_copy(update={"block": [str(width), str(threads // width)]})
    return derived(candidate, view.replaced(replacements), candidate.description, launch)


def _rows_of_warps(candidate: Candidate) -> Candidate:
    """A 1-D launch whose global index is split into a warp and its lane (`(blockIdx.x * blockDim.x + threadIdx.x)
    / 32` and `threadIdx.x % 32`, or a local holding the global index read only so) as blocks of (32, T / 32) threads
    on a grid along y: the warp `blockIdx.y * (T / 32) + threadIdx.y`, the lane `threadIdx.x` (`_block_split`, the
    block index relabelled y, which a 1-D grid allows: every blockIdx.x and gridDim.x read as along y). The
    candidate itself where the kernel is not so."""
    view = KernelView.of(candidate)
    contract = candidate.contract
    blocks = {tuple(resolve(contract, binding).block) for binding in [contract.sizes, *contract.checks]}
    if len(blocks) != 1 or len(contract.launch.grid) != 1:
        return candidate
    threads, *others = blocks.pop()
    macros = file_macros(view)
    found = _global_index_split(view, threads, macros) if not any(extent != 1 for extent in others) else []
    if not found:
        return candidate
    split = _block_split(derived(candidate, view.replaced(found), candidate.description))
    if split.contract.launch.block[0] != "32":
        return candidate
    view = KernelView.of(split)
    relabelled = [(n.start_byte, n.end_byte, f"{view.text(n.child_by_field_name('argument'))}.y")
                  for n in view.descendants(view.body, "field_expression")
                  if view.text(n).replace(" ", "") in ("blockIdx.x", "gridDim.x")]
    launch = split.contract.launch.model_copy(update={"grid": ["1", contract.launch.grid[0]]})
    return derived(split, view.replaced(relabelled), candidate.description, launch)


def _global_index_split(view: KernelView, threads: int, macros: dict[str, str]) -> list[tuple[int, int, str]]:
    """Each `g / W` and `g % W`, g the global index along x as written or a local holding it (declared with it,
    never assigned, read only so), W a number or a `#define` of one dividing the block's T threads, as
    `(blockIdx.x * (T / W) + threadIdx.x / W)` and `threadIdx.x % W`; none unless every use of such a local is
    one."""
    def width(node: Node) -> int | None:
        written = view.text(bare(node))
        written = macros.get(written, written).rstrip("uU")
        return int(written) if written.isdigit() and int(written) and threads % int(written) == 0 else None

    holders = {}
    for declaration in view.descendants(view.body, "declaration"):
        declarators = [d for d in declaration.named_children if d.type == "init_declarator"]
        if len(declarators) == 1 and declarators[0].child_by_field_name("value") is not None and \
                global_index_dim(declarators[0].child_by_field_name("value")) == "x":
            holders[view.text(declarators[0].child_by_field_name("declarator"))] = declaration
    found: list[tuple[int, int, str]] = []
    split_holders: set[str] = set()
    for node in view.descendants(view.body, "binary_expression"):
        left = bare(node.child_by_field_name("left"))
        if operator(node) not in ("/", "%") or (w := width(node.child_by_field_name("right"))) is None or \
                not (global_index_dim(left) == "x" or left.type == "identifier" and view.text(left) in holders):
            continue
        if left.type == "identifier":
            split_holders.add(view.text(left))
        found.append((node.start_byte, node.end_byte, f"(blockIdx.x * {threads // w} + threadIdx.x / {w})"
                      if operator(node) == "/" else f"threadIdx.x % {w}"))
    for name in split_holders:
        declaration = holders[name]
        uses = [n for n in view.descendants(view.body, "identifier") if view.text(n) == name and
                not declaration.start_byte <= n.start_byte < declaration.end_byte]
        if any(not _found_at(found, n) for n in uses) or any(assigns(view, n, name)
                                                            for n in view.descendants(view.body)):
            return []                     # the global index read whole too: no block split stands for it
        found.append((declaration.start_byte, declaration.end_byte, "\n" * view.text(declaration).count("\n")))
    return found


def _found_at(found: list[tuple[int, int, str]], node: Node) -> bool:
    return any(start <= node.start_byte and node.end_byte <= end for start, end, _ in found)


def one(x: int | str) -> Const:
    return Const(text=str(x))


def plus_one(value: Expr) -> Expr:
    """value + 1, folded when the value is an integer literal (a bound `x > 0` is the lower bound 1)."""
    if isinstance(value, Const) and value.text.isdigit():
        return one(int(value.text) + 1)
    return Binary(op="+", left=value, right=one(1))


def plus(left: Expr, right: Expr) -> Expr:
    if isinstance(right, Const) and right.text == "0":
        return left
    if isinstance(left, Const) and left.text == "0":
        return right
    return Binary(op="+", left=left, right=right)


def fold_index_locals(body: list[Stmt], uniform: set[str]) -> list[Stmt]:
    """Top-level integer locals computed once from parallel indices and scalars (`size_t src = (b * M + m) * N + n;`)
    folded into the expressions that read them, as aliases are: an index is then one expression of the space's
    indices, which the schedules' stride analysis reads. A digit of an index (`int r = idx / cols;`) keeps its name
    (ir/delinearize.py may make it an index of its own)."""
    assigned = {stmt.name for stmt in walk(body) if isinstance(stmt, Assign)}
    values: dict[str, Expr] = {}
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, Let) and stmt.value is not None and stmt.name not in assigned and \
                is_integer_cast(stmt.ctype) and _reads_only(stmt.value, uniform | set(values)) and \
                not any(digit_of(stmt.value, index) for index in uniform):
            values[stmt.name] = substitute(stmt.value, values)
            continue
        out += substituted([stmt], values)
    return out


def _inductions_substituted(body: list[Stmt]) -> list[Stmt]:
    """An integer local stepped by a counted loop (`long offset = b * n + j; for (i = 0; i < n; ++i) { s *= x[offset];
    y[offset] = s; offset += stride; }`), declared before the loop in its block and assigned nowhere but by the
    loop body's last statement, adding (or subtracting) a value the loop does not change, and read nowhere after the
    loop: read as what it holds at each iteration, `offset + (long)(i - 0) * stride`, the step dropped. Then no
    value but the loop's own is carried from one iteration to the next (a scan's carried value shows alone), and the
    local holds one expression of the point (fold_index_locals). Loops stepping by one, in the point's code and
    inside loops."""
    assigned = [stmt for stmt in walk(body) if isinstance(stmt, Assign)]
    out: list[Stmt] = []
    for position, stmt in enumerate(body):
        if not isinstance(stmt, For):
            out.append(stmt)
            continue
        loop = stmt.model_copy(update={"body": _inductions_substituted(stmt.body)})
        step = loop.body[-1] if loop.body else None
        declared = {s.name: s for s in out if isinstance(s, Let)}
        local = declared.get(step.name) if isinstance(step, Assign) and step.op in ("+=", "-=") else None
        changed = {s.name for s in walk(loop.body) if isinstance(s, (Assign, Let))} | {loop.var}
        if local is None or constant(loop.step) != 1 or not is_integer_cast(local.ctype) or \
                mentions(step.value, changed) or mentions(loop.start, {local.name}) or \
                mentions(loop.stop, {local.name}) or [s for s in assigned if s.name == local.name] != [stmt.body[-1]] or \
                any(mentions(e, {local.name}) for later in body[position + 1:] for s in walk([later])
                    for e in statement_exprs(s)):
            out.append(loop)
            continue
        count = Binary(op="-", left=Ref(name=loop.var), right=loop.start)
        held = Binary(op=step.op[0], left=Ref(name=local.name),
                      right=Binary(op="*", left=Cast(ctype=local.ctype, operand=count), right=step.value))
        out.append(loop.model_copy(update={"body": substituted(loop.body[:-1], {local.name: held})}))
    return out


_POWERS = ("powf", "pow", "__powf")


_FUSED_MULTIPLY_ADDS = ("fmaf", "fma", "__fmaf_rn", "__fma_rn")


def _fused_accumulation(assign: Assign) -> Assign:
    """`s = fmaf(a, b, s)` as `s += a * b`: the sum it accumulates, which the schedules know as one (a reduction, a
    contraction's term). Its emitted `+=` of the product is contracted into the same fused multiply-add by the
    compiler (fmad is on by default in nvcc and NVRTC); the interpreter rounds the product apart, within any
    tolerance of a sum."""
    value = assign.value
    if assign.op == "=" and isinstance(value, Call) and value.function in _FUSED_MULTIPLY_ADDS and \
            len(value.args) == 3 and value.args[2] == Ref(name=assign.name) and \
            not mentions(Binary(op="*", left=value.args[0], right=value.args[1]), {assign.name}):
        return Assign(name=assign.name, op="+=", value=Binary(op="*", left=value.args[0], right=value.args[1]))
    return assign


def _small_power(exponent: Expr) -> int:
    """2, 3 or 4 for an exponent written as that number (`3.0f`, `2`, a #define of one); 0 otherwise."""
    try:
        value = float(exponent.text.lower().rstrip("fl")) if isinstance(exponent, Const) else 0.0
    except ValueError:
        return 0
    return int(value) if value in (2.0, 3.0, 4.0) else 0


def _reads_only(expr: Expr, names: set[str]) -> bool:
    if isinstance(expr, Ref):
        return expr.name in names
    if isinstance(expr, (Load, Call)):
        return False
    return all(_reads_only(child, names) for child in children(expr))


def negated(cond: Expr) -> Expr:
    if isinstance(cond, Binary) and cond.op in _NEGATED:
        return cond.model_copy(update={"op": _NEGATED[cond.op]})
    if isinstance(cond, Unary) and cond.op == "!":
        return cond.operand
    return Unary(op="!", operand=cond)


class _Index:
    def __init__(self, name: str, ctype: str, dim: str, node: Node, grid_stride: bool = False,
                 block_only: bool = False, linear_grid: bool = False, thread_only: bool = False):
        self.name, self.ctype, self.node = name, ctype, node
        self.dim = dim                     # the program's dimension
        self.launch_dim = dim              # the launch's dimension it reads (another where both halves are indices)
        self.grid_stride = grid_stride
        self.block_only = block_only       # `b = blockIdx.z` with one thread along z: the grid's z is the extent
        self.thread_only = thread_only     # `ox = threadIdx.x` with one block along x, or a block-only index beside
        self.linear_grid = linear_grid     # `(blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x`
        self.lower: Expr = one(0)
        self.upper: Expr | None = None


class _Lifter:
    def __init__(self, view: KernelView, candidate: Candidate):
        self.view = view
        self.candidate = candidate
        params = view.kernel.params
        self.arrays = {p.name: ArrayParam(name=p.name, ctype=p.base_type, const=p.is_const) for p in params
                       if p.is_pointer}
        self.scalars = {p.name: ScalarParam(name=p.name, ctype=p.base_type) for p in params if not p.is_pointer}
        self.indices: dict[str, _Index] = {}
        self.aliases: dict[str, tuple[str, Expr]] = {}       # pointer local -> (array, offset)
        self.names: set[str] = set(self.scalars)              # names an expression may read
        self.uniform: dict[str, Expr] = {}                    # locals before the guard that read no index
        self.per_point: set[str] = set()                      # locals before the guard that read one
        self.grid_strides: dict[str, str] = {}                # locals holding blockDim.d * gridDim.d -> d
        self.linear_blocks: set[str] = set()                  # locals holding blockIdx.y * gridDim.x + blockIdx.x
        self.macros, self.helpers = self._file_scope()
        # `template <int BLOCK>`: the contract's instantiation gives each integer argument its value.
        self.template_ints = {name: value for name, value in self.candidate.contract.template.items()
                              if value.isdigit()}
        self.constants = file_constants(self.view)
        self.function_macros = {self.text(node.child_by_field_name("name")) for node in
                                self.view.descendants(self.view.document.tree.root_node, "preproc_function_def")}

    # -- locations ------------------------------------------------------------------------------------------------

    def location(self, node: Node | None) -> Location:
        """The user's file and line of a node of the unit, through the unit's #line directives."""
        return located(self.candidate, node if node is not None else self.view.node)

    def text(self, node: Node) -> str:
        return self.view.text(node)

    # -- file scope: #define constants and __device__ helpers ------------------------------------------------------

    def _file_scope(self) -> tuple[dict[str, Node], dict[str, Node]]:
        macros: dict[str, Node] = {}
        helpers: dict[str, Node] = {}
        for node in self.view.descendants(self.view.document.tree.root_node, "preproc_def", "function_definition"):
            if node.type == "preproc_def":
                value = node.child_by_field_name("value")
                if value is not None:
                    macros[self.text(node.child_by_field_name("name"))] = node
            elif node != self.view.node:
                declarator = node.child_by_field_name("declarator")
                while declarator is not None and declarator.type != "function_declarator":
                    declarator = declarator.child_by_field_name("declarator")
                if declarator is not None:
                    helpers[self.text(declarator.child_by_field_name("declarator"))] = node
        return macros, helpers

    def macro(self, name: str, node: Node) -> Expr:
        text = macro_value(self.view, self.macros[name])
        if re.fullmatch(r"[-+]?(0[xX][0-9a-fA-F]+|[0-9.]+([eE][-+]?[0-9]+)?)[uUlLfF]*", text):
            return Const(text=f"({text})" if text[0] in "+-" else text)
        raise _Refused(node, f"'{name}' is a #define whose value ({text}) is not a number")

    # -- the program ----------------------------------------------------------------------------------------------

    def program(self) -> LoopProgram:
        body = self.kernel_body(list(self.view.body.named_children))
        self.split_launch_dims()
        space = sorted(self.indices.values(), key=lambda index: "zyx".index(index.dim))
        if not space:
            raise _Refused(self.view.node, "no thread index (blockIdx.d * blockDim.d + threadIdx.d) defines a "
                                           "parallel index")
        for index in space:
            if index.upper is None and index.linear_grid:
                raise _Refused(index.node, f"no guard bounds the index '{index.name}' over a flattened grid")
            if index.upper is None and index.block_only:
                index.upper = self.launch_extent(index, "grid")
            elif index.upper is None and index.thread_only:
                index.upper = self.launch_extent(index, "block")
            elif index.upper is None and not index.grid_stride:
                # No guard: every thread the launch runs is a point (an exact grid, or the bounds in the code).
                index.upper = Binary(op="*", left=self.launch_extent(index, "grid"),
                                     right=self.launch_extent(index, "block"))
            if index.upper is None:
                raise _Refused(index.node, f"no guard bounds the index '{index.name}' (expected `if "
                                               f"({index.name} < n)` or `if ({index.name} >= n) return;`)")
        program = LoopProgram(
            kernel=self.view.kernel.name,
            arrays=list(self.arrays.values()), scalars=list(self.scalars.values()),
            space=[ParallelIndex(name=i.name, ctype=i.ctype, dim=i.dim, lower=i.lower, upper=i.upper) for i in space],
            body=body, types=dict(self.candidate.contract.template), location=self.location(self.view.node))
        self.check_launch_covers(program, space)
        uniform = {index.name for index in program.space} | set(self.scalars)
        body = _strided_loops_counted(fold_index_locals(_inductions_substituted(_implied_guards_dropped(program)),
                                                        uniform), program)
        return program.model_copy(update={"body": tiles_joined(body, names_in(program))})

    def split_launch_dims(self) -> None:
        """A launch dimension read as two indices, its block alone and its thread alone (`p = blockIdx.x; ox =
        threadIdx.x;`, a block per plane and a thread per element of a small tile): the block's index moved to a
        program dimension no index reads, the outermost free, so that the program's dimensions stay apart."""
        for index in list(self.indices.values()):
            if not index.block_only or not any(other.thread_only and other.launch_dim == index.launch_dim
                                               for other in self.indices.values()):
                continue
            free = [d for d in "zyx" if all(other.dim != d for other in self.indices.values())]
            if not free:
                raise _Refused(index.node, f"'{index.name}' is blockIdx.{index.launch_dim} alone beside the "
                                           f"thread's index along {index.launch_dim}, and no dimension is left")
            index.dim = free[0]

    def launch_extent(self, index: _Index, field: Literal["grid", "block"]) -> Expr:
        """The contract's grid or block size along the index's dimension, in kernel terms: each size symbol it names
        must be bound to an integer parameter of the kernel, or be an integer template parameter (`Cout / CPG`)."""
        from optiml_engine.source import expr as contract_expr
        launch = self.candidate.contract.launch
        sizes = getattr(launch, field)
        axis = "xyz".index(index.launch_dim)
        if axis >= len(sizes):
            if field == "block":
                return one(1)
            raise _Refused(index.node, f"'{index.name}' is blockIdx.{index.launch_dim} but the launch has no grid "
                                       f"along {index.launch_dim}")
        parameters = {spec.value: spec.param for spec in self.candidate.contract.scalars
                      if spec.param in self.scalars}

        def converted(node) -> Expr:
            if isinstance(node, contract_expr.Num) and isinstance(node.value, int):
                return one(node.value)
            if isinstance(node, contract_expr.Name) and node.name in parameters:
                return Ref(name=parameters[node.name])
            if isinstance(node, contract_expr.Name) and self.candidate.contract.template.get(node.name, "").isdigit():
                return one(int(self.candidate.contract.template[node.name]))
            # `/` and `//` alike: the contract divides integers as C does for the non-negative sizes it deals in.
            if isinstance(node, contract_expr.Binary) and node.op in ("+", "-", "*", "/", "//", "%"):
                return Binary(op=node.op[0], left=converted(node.left), right=converted(node.right))
            if isinstance(node, contract_expr.Call) and node.function in ("min", "max") and len(node.args) == 2:
                return Call(function=node.function, args=[converted(arg) for arg in node.args])
            if isinstance(node, contract_expr.Call) and node.function == "cdiv" and len(node.args) == 2:
                a, b = converted(node.args[0]), converted(node.args[1])
                return Binary(op="/", left=Binary(op="-", left=Binary(op="+", left=a, right=b), right=one(1)),
                              right=b)
            raise _Refused(index.node, f"no guard bounds '{index.name}', and the launch's {field} along "
                                       f"{index.launch_dim} ({sizes[axis]}) names no kernel parameter")

        return converted(contract_expr.parse_expr(sizes[axis], self.candidate.contract.location))

    def check_launch_covers(self, program: LoopProgram, space: list[_Index]) -> None:
        """An exact launch (not a grid-stride loop) must reach every point of the space at every contract size:
        otherwise the original computes less than its program says."""
        contract = self.candidate.contract
        for binding in [contract.sizes, *contract.checks]:
            resolved = resolve(contract, binding)
            values = scalar_values(program, resolved)
            for index in space:
                if index.grid_stride:
                    continue
                dim = index.launch_dim
                axis = "xyz".index(dim)
                block = resolved.block[axis] if axis < len(resolved.block) else 1
                grid = resolved.grid[axis] if axis < len(resolved.grid) else 1
                halves = {other.launch_dim for other in space if other.thread_only}, \
                    {other.launch_dim for other in space if other.block_only}
                if index.block_only and block != 1 and dim not in halves[0]:
                    raise _Refused(index.node, f"'{index.name}' is blockIdx.{dim} alone, but the launch runs "
                                               f"{block} threads per block along {dim}")
                if index.thread_only and grid != 1 and dim not in halves[1]:
                    raise _Refused(index.node, f"'{index.name}' is threadIdx.{dim} alone, but the launch runs "
                                               f"{grid} blocks along {dim}")
                threads = grid if index.block_only else block if index.thread_only else grid * block
                if index.linear_grid:               # blocks numbered across the grid's x and y
                    threads *= resolved.grid[1] if len(resolved.grid) > 1 else 1
                upper = evaluate_scalar(program, index.upper, values)
                if upper > threads:
                    raise _Refused(self.view.node, f"the launch runs {threads} threads along {dim} at "
                                   f"{binding}, fewer than the guard's bound on '{index.name}' ({upper})")

    def kernel_body(self, nodes: list[Node]) -> list[Stmt]:
        """The kernel's top level: index definitions and guards are taken out; what follows them is per point.
        Declarations before the guard stay in the per-point code; those that read no index are also uniform
        values a guard's bound may use (`int out_rows = (rows + 1) / 2; ... if (r < out_rows)`)."""
        prelude: list[Stmt] = []
        for position, node in enumerate(nodes):
            if node.type == "comment" or (node.type == "expression_statement" and not node.named_children):
                continue
            if node.type == "declaration" and self.index_declaration(node):
                continue
            if node.type == "declaration":     # a pointer's declaration holds no statement: an alias
                for let in self.declaration(node):
                    prelude.append(let)
                    if let.value is not None and not mentions(let.value, set(self.indices) | self.per_point):
                        self.uniform[let.name] = substitute(let.value, self.uniform)
                    else:
                        self.per_point.add(let.name)
                continue
            if node.type == "if_statement" and self.guards_grid_stride(node, nodes[position + 1:]):
                continue
            if node.type == "if_statement" and self.indices:
                guarded = self.guard(node, nodes[position + 1:])
                if guarded is not None:
                    return prelude + guarded
            if node.type in ("if_statement", "expression_statement") and \
                    (updated := self.uniform_update(node, prelude)):
                # Declared once, with the value the update leaves: a local every analysis may read through.
                prelude = [stmt.model_copy(update={"value": self.uniform[stmt.name]})
                           if isinstance(stmt, Let) and stmt.name in updated else stmt for stmt in prelude]
                continue
            if node.type == "for_statement" and self.grid_stride(node):
                rest = [n for n in nodes[position + 1:] if n.type != "comment"]
                body = node.child_by_field_name("body")
                lifted = self.block(list(body.named_children) if body.type == "compound_statement" else [body])
                if rest:
                    return self.sums_into_atomics(prelude, lifted, rest)
                return prelude + lifted
            return prelude + self.block(nodes[position:])
        return prelude

    def guards_grid_stride(self, node: Node, later: list[Node]) -> bool:
        """`if (start >= n) return;` (or `!(start < n)`) before a grid-stride loop `for (T i = start; i < n; ...)`
        (declarations alone between): the loop runs no iteration for a thread the guard returns, and what may follow
        the loop (`sums_into_atomics`) adds that thread's zero sums, which the program's points leave out as well:
        the guard says nothing the loop does not."""
        condition = node.child_by_field_name("condition")
        passed = passed_below(condition.child_by_field_name("value")) if condition is not None else None
        if node.child_by_field_name("alternative") is not None or passed is None or \
                self.text(node.child_by_field_name("consequence")).strip("{}; \n") != "return":
            return False
        start, bound = passed
        loop = next((n for n in later if n.type not in ("comment", "declaration")), None)
        init = loop.child_by_field_name("initializer") if loop is not None and loop.type == "for_statement" else None
        declarators = [d for d in init.named_children if d.type == "init_declarator"] \
            if init is not None and init.type == "declaration" else []
        loop_test = loop.child_by_field_name("condition") if declarators else None

        def squeezed(node: Node) -> str:
            return self.text(bare(node)).replace(" ", "")

        return len(declarators) == 1 and loop_test is not None and loop_test.type == "binary_expression" and \
            loop_test.child_by_field_name("operator").type == "<" and \
            self.text(loop_test.child_by_field_name("left")) == \
            self.text(declarators[0].child_by_field_name("declarator")) and \
            squeezed(loop_test.child_by_field_name("right")) == squeezed(bound) and \
            squeezed(declarators[0].child_by_field_name("value")) == squeezed(start) and \
            global_index_dim(bare(start)) is not None

    def uniform_update(self, node: Node, prelude: list[Stmt]) -> set[str] | None:
        """A statement before the point's code that only changes uniform locals from uniform values (`if ((out - 1)
        * stride >= n + pad) out--;`, PyTorch's ceil-mode rule for an output's extent), none of them read since its
        declaration (in `prelude`): the locals it changes, each one's uniform value updated (a conditional one as
        `cond ? updated : before`), so that a guard's bound reads the extent the code computes. None for anything
        else (an index's definition, a store, a loop, a local whose value before the change is read)."""
        if self.uses_builtins(node) or any(self.view.descendants(node, "for_statement", "while_statement",
                                                                  "do_statement", "return_statement")):
            return None
        try:
            stmts = self.block([node])
        except _Refused:
            return None
        values = dict(self.uniform)

        def updated(stmt: Stmt) -> Expr | None:
            if not (isinstance(stmt, Assign) and stmt.name in values and stmt.op in ("=", "+=", "-=", "*=")):
                return None
            value = substitute(stmt.value, values)
            return value if stmt.op == "=" else Binary(op=stmt.op[0], left=values[stmt.name], right=value)

        for stmt in stmts:
            if isinstance(stmt, If) and not stmt.other and len(stmt.then) == 1 and \
                    (new := updated(stmt.then[0])) is not None:
                values[stmt.then[0].name] = Select(cond=substitute(stmt.cond, values), then=new,
                                                   other=values[stmt.then[0].name])
            elif (new := updated(stmt)) is not None:
                values[stmt.name] = new
            else:
                return None
        if any(mentions(value, set(self.indices) | self.per_point) or loads(value) for value in values.values()):
            return None
        changed = {name for name, value in values.items() if value != self.uniform.get(name)}
        declared = {stmt.name: position for position, stmt in enumerate(prelude) if isinstance(stmt, Let)}
        if any(name not in declared or any(mentions(e, {name}) for stmt in prelude[declared[name] + 1:]
                                           for e in statement_exprs(stmt)) for name in changed):
            return None
        self.uniform = values
        return changed

    def sums_into_atomics(self, prelude: list[Stmt], body: list[Stmt], rest: list[Node]) -> list[Stmt]:
        """A grid-stride loop that sums into locals a thread then adds to memory with one atomicAdd each
        (`float local = 0; for (...) local += e; atomicAdd(loss, local);`): the program adds each point's `e` with
        an atomic of its own (the same sum, reassociated as the float atomics already do it; privatize sums per thread
        and block again). Refused unless every statement after the loop is such an atomicAdd of a local that starts
        at zero and that the loop only adds to."""
        after = self.block(rest)
        lets = {stmt.name: stmt for stmt in prelude if isinstance(stmt, Let)}
        sums: dict[str, Atomic] = {}
        for stmt in after:
            name = self.scaled_local(stmt.value) if isinstance(stmt, Atomic) else None
            if not (isinstance(stmt, Atomic) and stmt.function == "atomicAdd" and name in lets and
                    is_zero(lets[name].value) and name not in sums):
                raise _Refused(rest[0], "statements after a grid-stride loop run once per thread")
            sums[name] = stmt
        added = [s for s in walk(body) if isinstance(s, Assign) and s.name in sums]
        if any(s.op != "+=" or mentions(s.value, set(sums)) for s in added) or \
                any(isinstance(s, Let) and s.name in sums for s in walk(body)) or \
                any(mentions(e, set(sums)) for s in walk(body) if s not in added for e in statement_exprs(s)):
            raise _Refused(rest[0], "a sum after a grid-stride loop that the loop does more with than add to")

        def atomic(stmt: Stmt) -> list[Stmt] | None:
            if isinstance(stmt, Assign) and stmt.name in sums:
                added_once = sums[stmt.name]
                return [added_once.model_copy(update={"value": substitute(added_once.value, {stmt.name: stmt.value})})]
            return None

        return [s for s in prelude if not (isinstance(s, Let) and s.name in sums)] + \
            statements_replaced(body, atomic)

    def scaled_local(self, value: Expr) -> str | None:
        """The local an atomic adds, as it is or scaled by a factor of the parameters and the uniform locals alone
        (`partial`, `partial / n`, `scale * partial`), or that cast to a floating type (`(float)(partial / n)`, a
        double partial added to a float): a sum of terms scaled so is the sum of the scaled terms (reassociated, and
        each term rounded to the atomic's type, as the float atomics already add them). None for other values."""
        if isinstance(value, Cast) and value.ctype in ("float", "double"):
            value = value.operand
        if isinstance(value, Ref):
            return value.name
        if isinstance(value, Binary) and value.op in ("*", "/"):
            for mine, factor in ((value.left, value.right), *([(value.right, value.left)] if value.op == "*" else [])):
                if isinstance(mine, Ref) and not any(isinstance(e, Load) for e in subexpressions(factor)) and \
                        names_of(factor) <= set(self.scalars) | set(self.uniform):
                    return mine.name
        return None

    def declares_pointer(self, node: Node) -> bool:
        return any(d.type == "pointer_declarator" or (d.type == "init_declarator" and
                   d.child_by_field_name("declarator").type == "pointer_declarator") for d in node.named_children)

    def index_declaration(self, node: Node) -> bool:
        """`int i = blockIdx.x * blockDim.x + threadIdx.x;` (any spelling): registers a parallel index."""
        declarators = [d for d in node.named_children if d.type == "init_declarator"]
        if len(declarators) != 1:
            return False
        value = declarators[0].child_by_field_name("value")
        name = self.text(declarators[0].child_by_field_name("declarator"))
        for stride_dim in "xyz":
            if value is not None and self.whole_grid(value, stride_dim):
                self.grid_strides[name] = stride_dim    # `int stride = blockDim.x * gridDim.x;`
                return True
        if value is not None and self.linear_block(value):
            self.linear_blocks.add(name)               # `int block = blockIdx.y * gridDim.x + blockIdx.x;`
            return True
        if value is not None and self.linear_index(value):
            if self.indices:
                raise _Refused(node, f"an index ('{name}') over a grid flattened to one dimension beside others")
            self.indices[name] = _Index(name, self.type_text(node), "x", node, linear_grid=True)
            self.names.add(name)
            return True
        dim = global_index_dim(value) or self.fixed_block_index_dim(value) if value is not None else None
        block_dim = builtin_dim(value, "blockIdx") if value is not None and dim is None else None
        thread_dim = builtin_dim(value, "threadIdx") if value is not None and dim is block_dim is None else None
        along = dim or block_dim or thread_dim
        if along is None:
            return False
        # Along one launch dimension: one index, or its block alone and its thread alone (two halves).
        if any(index.launch_dim == along and not (block_dim and index.thread_only or thread_dim and index.block_only)
               for index in self.indices.values()):
            raise _Refused(node, f"a second index along {along} ('{name}')")
        self.indices[name] = _Index(name, self.type_text(node), along, node, block_only=block_dim is not None,
                                    thread_only=thread_dim is not None)
        self.names.add(name)
        return True

    def linear_block(self, node: Node) -> bool:
        """`blockIdx.y * gridDim.x + blockIdx.x` (terms and factors in any order): a block's place in a 2-D grid
        read as one dimension, as kernels whose blocks outnumber one grid dimension spell it."""
        return any(builtin_dim(x, "blockIdx") == "x" and builtin_dim(y, "blockIdx") == "y" and
                   builtin_dim(g, "gridDim") == "x" for x, y, g in sum_of_product(node))

    def linear_index(self, node: Node) -> bool:
        """`block * blockDim.x + threadIdx.x` for a local `block` holding a linear block index (`linear_block`),
        the block index written out in place too."""
        return any(builtin_dim(thread, "threadIdx") == "x" and builtin_dim(size, "blockDim") == "x" and
                   (self.text(bare(block)) in self.linear_blocks or self.linear_block(block))
                   for thread, block, size in sum_of_product(node))

    def fixed_block_index_dim(self, node: Node) -> str | None:
        """`blockIdx.d * 16 + threadIdx.d` where the contract launches blocks of exactly 16 along d at every size:
        the global index with the block size written as a number (or a `#define` of one), as users often do."""
        for thread, block, size in sum_of_product(node):
            dim = builtin_dim(thread, "threadIdx")
            if dim is not None and builtin_dim(block, "blockIdx") == dim and self.fixed_block_size(size, dim):
                return dim
        return None

    def fixed_block_size(self, size: Node, dim: str) -> bool:
        """Whether the node is a number (or a `#define` or template argument of one) the contract launches as the
        block's threads along d at every size."""
        size = bare(size)
        written = self.text(size)
        if size.type == "identifier" and written in self.macros:     # `#define THREADS 256`
            written = macro_value(self.view, self.macros[written])
        elif size.type == "identifier" and written in self.template_ints:     # `template <int BLOCK>`
            written = self.template_ints[written]
        elif size.type == "identifier" and written in self.constants:     # `constexpr int BLOCK = 256;`
            written = self.constants[written]
        elif size.type != "number_literal":
            return False
        digits = written.rstrip("uUlL")
        return digits.isdigit() and self.block_size_is(dim, int(digits))

    def block_size_is(self, dim: str, threads: int) -> bool:
        contract = self.candidate.contract
        axis = "xyz".index(dim)
        return all(axis < len(resolved.block) and resolved.block[axis] == threads
                   for resolved in (resolve(contract, binding) for binding in [contract.sizes, *contract.checks]))

    def grid_stride(self, node: Node) -> bool:
        """`for (int i = <global index>; i < n; i += blockDim.x * gridDim.x)`: the parallel index i over [0, n).
        The start may be an index declared before (`int index = ...; for (int i = index; ...)`), which the loop's
        variable then replaces, and the step a local holding the whole grid (`int stride = blockDim.x *
        gridDim.x;`), as NVIDIA's own grid-stride loops are written."""
        init = node.child_by_field_name("initializer")
        if init is None or init.type != "declaration":
            return False
        declarators = [d for d in init.named_children if d.type == "init_declarator"]
        if len(declarators) != 1 or (value := declarators[0].child_by_field_name("value")) is None:
            return False
        dim = global_index_dim(value) or self.fixed_block_index_dim(value)
        start = self.indices.get(self.text(bare(value)))
        if dim is None and start is not None and not start.block_only and not start.thread_only and \
                not start.grid_stride and start.upper is None:
            dim = start.dim
            del self.indices[start.name]           # the loop's variable is the index from here on
            self.names.discard(start.name)
        if dim is None:
            return False
        name = self.text(declarators[0].child_by_field_name("declarator"))
        update = node.child_by_field_name("update")
        stride = self.increment(update, name) if update is not None else None
        if stride is None or not (stride != "1" and (self.whole_grid(stride, dim) or
                                                     self.grid_strides.get(self.text(bare(stride))) == dim)):
            raise _Refused(node, f"a loop from the thread index whose step is not blockDim.{dim} * gridDim.{dim}")
        self.indices[name] = index = _Index(name, self.type_text(init), dim, node, grid_stride=True)
        self.names.add(name)
        condition = node.child_by_field_name("condition")
        bound = self.bound(condition) if condition is not None else None
        if bound is None or bound[0] != name or bound[1] != "upper":
            raise _Refused(condition or node, f"a grid-stride loop without a bound `{name} < n`")
        index.upper = bound[2]
        return True

    def whole_grid(self, stride: Node, dim: str) -> bool:
        stride = bare(stride)
        if stride.type != "binary_expression" or stride.child_by_field_name("operator").type != "*":
            return False
        a, b = stride.child_by_field_name("left"), stride.child_by_field_name("right")
        return any((builtin_dim(p, "blockDim") == dim or self.fixed_block_size(p, dim)) and
                   builtin_dim(q, "gridDim") == dim for p, q in ((a, b), (b, a)))

    def increment(self, update: Node, name: str) -> Node | str | None:
        """The step of `name++`, `++name`, `name += s`, `name = name + s`: "1" or the step's node."""
        update = unparenthesized(update)
        if update.type == "update_expression" and self.text(update.child_by_field_name("argument")) == name \
                and "++" in self.text(update):
            return "1"
        if update.type == "assignment_expression" and self.text(update.child_by_field_name("left")) == name:
            op, right = update.child_by_field_name("operator").type, update.child_by_field_name("right")
            if op == "+=":
                return right
            if op == "=":
                right = unparenthesized(right)
                if right.type == "binary_expression" and right.child_by_field_name("operator").type == "+":
                    if self.text(right.child_by_field_name("left")) == name:
                        return right.child_by_field_name("right")
                    if self.text(right.child_by_field_name("right")) == name:
                        return right.child_by_field_name("left")
        return None

    # -- guards ---------------------------------------------------------------------------------------------------

    def guard(self, node: Node, rest: list[Node]) -> list[Stmt] | None:
        """`if (i >= n || ...) return;` (or `if (!(i < n && ...)) return;`) followed by the rest, or `if (i < n &&
        ...) {...}` as the last statement:
        the bounds on parallel indices go to the space; other terms stay as an `if` around the per-point code.
        None when the condition bounds no parallel index."""
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        returns = self.is_return(consequence)
        test = unparenthesized(condition.named_children[0] if condition.type == "condition_clause" else condition)
        inverted = test.type == "unary_expression" and test.child_by_field_name("operator").type == "!"
        if inverted:            # `if (!(i < n)) return;`, as a guard hoisted to a return is written
            test = test.child_by_field_name("argument")
        # Whether the points that run are those where every term holds (`if (i < n && ...) {...}`), or where none
        # does (`if (i >= n || ...) return;`).
        every = returns == inverted
        terms = self.terms(test, "&&" if every else "||")
        bounds = [(term, self.bound(term, negate=not every)) for term in terms]
        if not any(b is not None for _, b in bounds):
            return None
        if alternative is not None:
            # Two branches, each for its points ('if (c < cols) {...} else if (c < pitch) {...}'): per-point code,
            # the space the launch's threads (`launch_extent`).
            return None
        if not returns and any(n.type != "comment" for n in rest):
            return None   # an `if` bounding an index in the middle of the code: per-point code, not a guard
        others = []
        for term, found in bounds:
            if found is None:
                others.append(self.expr(term))
                continue
            name, side, value = found
            index = self.indices[name]
            if side == "upper":
                if index.upper is not None:
                    others.append(self.expr(term))
                    continue
                index.upper = value
            else:
                index.lower = value
        if returns:
            body = self.kernel_body(rest)
        else:
            body = self.kernel_body(list(consequence.named_children) if consequence.type == "compound_statement"
                                    else [consequence])
        return [If(cond=conjunction(others) if every else negated(_disjunction(others)), then=body)] if others \
            else body

    def terms(self, node: Node, operator: str) -> list[Node]:
        node = unparenthesized(node)
        if node.type == "binary_expression" and node.child_by_field_name("operator").type == operator:
            return self.terms(node.child_by_field_name("left"), operator) + \
                self.terms(node.child_by_field_name("right"), operator)
        return [node]

    def bound(self, term: Node, negate: bool = False) -> tuple[str, str, Expr] | None:
        """(index, "upper" | "lower", value) of `i < E`, `E > i`, `i >= L`... (as the points that run see it: a
        return guard's condition is negated); None when the term is no bound of a parallel index."""
        term = unparenthesized(term)
        if term.type != "binary_expression" or term.child_by_field_name("operator").type not in _COMPARISONS:
            return None
        op = term.child_by_field_name("operator").type
        left, right = bare(term.child_by_field_name("left")), bare(term.child_by_field_name("right"))
        if self.text(right) in self.indices and self.text(left) not in self.indices:
            left, right, op = right, left, _MIRRORED[op]
        name = self.text(left)
        if left.type != "identifier" or name not in self.indices:
            return None
        value = self.expr(term.child_by_field_name("right") if left == bare(term.child_by_field_name("left"))
                          else term.child_by_field_name("left"))
        if mentions(value, set(self.indices) | self.per_point):
            return None
        value = substitute(value, self.uniform)
        if negate:
            op = _NEGATED[op]
        if op == "<":
            return name, "upper", value
        if op == "<=":
            return name, "upper", plus_one(value)
        if op == ">=":
            return name, "lower", value
        return name, "lower", plus_one(value)

    def is_return(self, node: Node) -> bool:
        if node.type == "compound_statement":
            inner = [n for n in node.named_children if n.type != "comment"]
            return len(inner) == 1 and self.is_return(inner[0])
        if node.type == "return_statement":
            if node.named_children:
                raise _Refused(node, "a kernel returning a value")
            return True
        return False

    def is_continue(self, node: Node) -> bool:
        if node.type == "compound_statement":
            inner = [n for n in node.named_children if n.type != "comment"]
            return len(inner) == 1 and self.is_continue(inner[0])
        return node.type == "continue_statement"

    # -- statements -----------------------------------------------------------------------------------------------

    def block(self, nodes: list[Node], in_loop: bool = False, nested: bool = False) -> list[Stmt]:
        """Statements in order. At the kernel's top level and a loop body's (not `nested` in a branch), an `if` one
        of whose branches ends by leaving (a return, or a continue in a loop) takes the statements after it into
        its other branch; a return or continue anywhere else is refused."""
        out: list[Stmt] = []
        for position, node in enumerate(nodes):
            kind = node.type
            if kind == "comment" or (kind == "expression_statement" and not node.named_children):
                continue
            if kind in ("preproc_call", "preproc_if", "preproc_ifdef"):
                if self.text(node).split()[:2] == ["#pragma", "unroll"]:
                    continue
                raise _Refused(node, "a preprocessor directive inside the kernel")
            if kind == "if_statement":
                consequence = node.child_by_field_name("consequence")
                alternative = node.child_by_field_name("alternative")
                other_node = None if alternative is None else (
                    alternative.named_children[0] if alternative.type == "else_clause" else alternative)
                leaves = [self.leaves(consequence, in_loop),
                          other_node is not None and self.leaves(other_node, in_loop)]
                if any(leaves):
                    if nested:
                        raise _Refused(node, "a return or continue inside a nested branch")
                    rest = self.block(nodes[position + 1:], in_loop)
                    then = self.branch(consequence, in_loop) + ([] if leaves[0] else rest)
                    other = (self.branch(other_node, in_loop) if other_node is not None else []) + \
                        ([] if leaves[1] else rest)
                    if not then and other:
                        out.append(If(cond=negated(self.condition(node)), then=other))
                    elif then or other:
                        out.append(If(cond=self.condition(node), then=then, other=other))
                    return out
            if kind in ("return_statement", "continue_statement"):
                if kind == "return_statement" and node.named_children:
                    raise _Refused(node, "a kernel returning a value")
                if kind == "return_statement" and in_loop:
                    raise _Refused(node, "a return inside a loop (the loop's trip count depends on data)")
                if nested or any(n.type != "comment" for n in nodes[position + 1:]):
                    raise _Refused(node, f"a {kind.split('_')[0]} the program cannot follow (only as the last "
                                         f"statement of the kernel, a loop body, or an if's branch at their level)")
                return out
            out += self.statement(node, in_loop)
        return out

    def leaves(self, node: Node, in_loop: bool) -> bool:
        """Whether a branch ends by leaving the code that follows it: a return (refused inside a loop, where it
        would end the loop on data) or, inside a loop, a continue."""
        last = node
        while last.type == "compound_statement":
            inner = [n for n in last.named_children if n.type != "comment"]
            if not inner:
                return False
            last = inner[-1]
        if last.type == "return_statement" and in_loop:
            raise _Refused(last, "a return inside a loop (the loop's trip count depends on data)")
        return last.type == "return_statement" or (in_loop and last.type == "continue_statement")

    def branch(self, node: Node, in_loop: bool) -> list[Stmt]:
        """A branch's statements, its final return or continue (see `leaves`) dropped."""
        nodes = [n for n in (node.named_children if node.type == "compound_statement" else [node])
                 if n.type != "comment"]
        if nodes and nodes[-1].type in ("return_statement", "continue_statement"):
            if nodes[-1].named_children:
                raise _Refused(nodes[-1], "a kernel returning a value")
            nodes = nodes[:-1]
        return self.block(nodes, in_loop, nested=True)

    def condition(self, node: Node) -> Expr:
        condition = node.child_by_field_name("condition")
        return self.expr(condition.named_children[0] if condition.type == "condition_clause" else condition)

    def statement(self, node: Node, in_loop: bool) -> list[Stmt]:
        kind = node.type
        if kind == "compound_statement":
            return self.scoped(node, self.block(list(node.named_children), in_loop, nested=True))
        if kind == "declaration":
            return self.declaration(node)
        if kind == "expression_statement":
            return self.expression_statement(node.named_children[0])
        if kind == "if_statement":
            then = self.statement(node.child_by_field_name("consequence"), in_loop)
            alternative = node.child_by_field_name("alternative")
            other = []
            if alternative is not None:
                other_node = alternative.named_children[0] if alternative.type == "else_clause" else alternative
                other = self.statement(other_node, in_loop)
            return [If(cond=self.condition(node), then=then, other=other)]
        if kind == "for_statement":
            body = node.child_by_field_name("body")
            if body is not None and _breaks(body):
                return self.search_loop(node)
            return [self.loop(node)]
        if kind in ("while_statement", "do_statement"):
            raise _Refused(node, "a while loop (its trip count is not a bound over sizes)")
        if kind == "break_statement":
            raise _Refused(node, "a break (the loop's trip count depends on data)")
        if kind == "continue_statement":
            raise _Refused(node, "a continue that is not the whole branch of an if")
        if kind == "return_statement":
            raise _Refused(node, "a return inside a branch the program cannot follow")
        raise _Refused(node, f"a statement the program cannot express ({kind})")

    def scoped(self, block: Node, body: list[Stmt]) -> list[Stmt]:
        """A nested block's statements, flattened into the code around it: the locals it declares that the kernel
        declares outside it too renamed apart (`{ float t = a; ... } { float t = b; ... }`), as C's block scope keeps
        them apart."""
        outside = {self.text(n) for n in self.view.descendants(self.view.body, "identifier")
                   if not block.start_byte <= n.start_byte < block.end_byte and n.parent is not None and
                   (n.parent.type == "declaration" or n.parent.type == "init_declarator" and
                    n.parent.child_by_field_name("declarator") == n)}
        clashes = {stmt.name for stmt in body if isinstance(stmt, Let)} & outside
        if not clashes:
            return body
        taken = self.names | {self.text(n) for n in self.view.descendants(self.view.body, "identifier")}
        names = {name: fresh_name(name, taken) for name in sorted(clashes)}
        self.names.update(names.values())
        return _renamed(body, names)

    def type_text(self, declaration: Node) -> str:
        # `constexpr` says only that the value is known at compile time: the type is the rest.
        words = [self.text(child) for child in declaration.children
                 if child.type in ("type_qualifier", "primitive_type", "sized_type_specifier", "type_identifier",
                                   "qualified_identifier", "template_type") and self.text(child) != "constexpr"]
        return " ".join(words)

    def local_array_refused(self, target: Node) -> str:
        """Why a local array is refused: the first place it is read or written at an element the code decides as it
        runs, its index reading a name other than a counter of a loop of constant bounds (a local per element needs
        every place a constant once such loops are written out)."""
        name = self.text(target.child_by_field_name("declarator"))
        counters = set()
        for loop in self.view.descendants(self.view.body, "for_statement"):
            init, condition = loop.child_by_field_name("initializer"), loop.child_by_field_name("condition")
            declared = [d for d in init.named_children if d.type == "init_declarator"] \
                if init is not None and init.type == "declaration" else []
            if len(declared) == 1 and condition is not None and condition.type == "binary_expression" and \
                    constant_value(self.view, self.text(declared[0].child_by_field_name("value"))) is not None and \
                    constant_value(self.view, self.text(condition.child_by_field_name("right"))) is not None:
                counters.add(self.text(declared[0].child_by_field_name("declarator")))
        for node in self.view.descendants(self.view.body, "subscript_expression"):
            argument = node.child_by_field_name("argument")
            if argument.type == "identifier" and self.text(argument) == name and \
                    {self.text(n) for n in self.view.descendants(node.child_by_field_name("indices"), "identifier")} - \
                    counters - set(self.macros):
                return (f"a local array ('{name}') at an element the code decides as it runs ({self.text(node)}): "
                        f"it is read as a local per element only where every place is a constant once loops of "
                        f"constant bounds are written out")
        nests = []
        for node in self.view.descendants(self.view.body, "subscript_expression"):
            if self.text(node.child_by_field_name("argument")) == name:
                turns, loop = 1, node.parent
                while loop is not None and loop != self.view.body:
                    if loop.type == "for_statement" and (bounds := constant_bounds(self.view, loop)) is not None:
                        turns *= len(range(*bounds))
                    loop = loop.parent
                nests.append(turns)
        if max(nests, default=0) > WRITTEN_OUT:
            return (f"a local array ('{name}') read in loops of constant bounds that, nested, run {max(nests)} "
                    f"turns: more than the {WRITTEN_OUT} written out to make its elements locals")
        return f"a local array ('{name}')"

    def declaration(self, node: Node) -> list[Stmt]:
        if any(child.type == "storage_class_specifier" for child in node.children) or "__shared__" in \
                self.text(node).split("=")[0]:
            raise _Refused(node, "a static or __shared__ variable (shared memory), in none of the forms read "
                                 "through it: a block's reduction tree of one value a thread (sums, maxima, minima), "
                                 "tiles staged as a cache, or a privatized histogram")
        ctype = self.type_text(node)
        out: list[Stmt] = []
        for declarator in node.named_children:
            if declarator.type not in ("init_declarator", "identifier", "pointer_declarator", "array_declarator"):
                continue
            target = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" \
                else declarator
            value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
            if target.type == "array_declarator":
                raise _Refused(declarator, self.local_array_refused(target))
            if target.type == "pointer_declarator":
                self.alias(declarator, self.text(target.child_by_field_name("declarator")), value)
                continue
            name = self.text(target)
            if value is not None and self.uses_builtins(value):
                raise _Refused(value, f"'{name}' is defined from thread or block indices in a way the program "
                                      f"cannot express (expected blockIdx.d * blockDim.d + threadIdx.d)")
            if name in self.indices or name in self.aliases:
                raise _Refused(declarator, f"'{name}' shadows a parallel index or pointer")
            if value is not None and value.type == "initializer_list":
                raise _Refused(value, "an initializer list")
            lifted = self.expr(value) if value is not None else None
            self.names.add(name)
            out.append(Let(name=name, ctype=ctype, value=lifted))
        return out

    def alias(self, node: Node, name: str, value: Node | None) -> None:
        """`const float* row = x + r * cols;`: later reads and writes of row[i] are x[r * cols + i]."""
        if value is None:
            raise _Refused(node, f"a pointer '{name}' declared without a value")
        array, offset = self.pointer(value)
        self.aliases[name] = (array, offset)

    def pointer(self, node: Node) -> tuple[str, Expr]:
        """(array parameter, element offset) of a pointer expression: p, p + e, e + p, p - e, &p[e], an alias, and
        a row found in bytes, `(float*)((char*)p + r * pitch)` (the byte offset over the element's size: a pitch
        that is not a whole number of elements would misalign every read of the kernel)."""
        array, offset, in_bytes = self.pointer_in(node)
        if in_bytes:
            raise _Refused(node, f"a byte pointer read as it stands ({self.text(bare(node))}): expected it cast back "
                                 f"to its array's element type")
        return array, offset

    def pointer_in(self, node: Node) -> tuple[str, Expr, bool]:
        """(array, offset, whether the offset counts bytes rather than the array's elements)."""
        node = unparenthesized(node)
        if node.type == "cast_expression" and (cast := self.pointer_cast(node)) is not None:
            array, offset, in_bytes = self.pointer_in(node.child_by_field_name("value"))
            ctype = self.arrays[array].ctype
            element = dtype_of(self.candidate.contract.template.get(ctype, ctype))
            if element is None:
                raise _Refused(node, f"a pointer cast of '{array}', whose element type ({ctype}) has no known size")
            size = itemsize(element)
            if cast in ("char", "signed char", "unsigned char", "int8_t", "uint8_t"):
                if not in_bytes and constant(offset) != 0:
                    offset = Binary(op="*", left=offset, right=one(size))
                return array, offset, True
            if dtype_of(cast) != element:
                raise _Refused(node, f"'{array}' read through a pointer to {cast}, not to its own element type")
            return array, Binary(op="/", left=offset, right=one(size)) if in_bytes else offset, False
        node = bare(node)
        text = self.text(node)
        if node.type == "identifier":
            if text in self.arrays:
                return text, one(0), False
            if text in self.aliases:
                return (*self.aliases[text], False)
        if node.type == "binary_expression" and node.child_by_field_name("operator").type in ("+", "-"):
            op = node.child_by_field_name("operator").type
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            for base, offset, sign in ((left, right, op), (right, left, "+")):
                if self.is_pointer(base):
                    array, start, in_bytes = self.pointer_in(base)
                    step = self.expr(offset)
                    return array, (plus(start, step) if sign == "+" else Binary(op="-", left=start, right=step)), \
                        in_bytes
        if node.type == "pointer_expression" and node.child_by_field_name("operator").type == "&":
            target = bare(node.child_by_field_name("argument"))
            if target.type == "subscript_expression":
                return (*self.subscript(target), False)
        raise _Refused(node, f"a pointer the program cannot follow ({text}): expected an array parameter plus an "
                             f"offset")

    def pointer_cast(self, node: Node) -> str | None:
        """The element type a cast to a pointer type names (`(const float*)`: float); None for other casts."""
        descriptor = node.child_by_field_name("type")
        if descriptor is None or not any(c.type == "abstract_pointer_declarator" for c in descriptor.children):
            return None
        return " ".join(self.text(c) for c in descriptor.children
                        if c.type not in ("type_qualifier", "abstract_pointer_declarator"))

    def is_pointer(self, node: Node) -> bool:
        node = bare(node)
        if node.type == "identifier":
            return self.text(node) in self.arrays or self.text(node) in self.aliases
        if node.type == "binary_expression" and node.child_by_field_name("operator").type in ("+", "-"):
            return self.is_pointer(node.child_by_field_name("left")) or \
                self.is_pointer(node.child_by_field_name("right"))
        return False

    def subscript(self, node: Node) -> tuple[str, Expr]:
        base = node.child_by_field_name("argument")
        indices = node.child_by_field_name("indices")
        index_nodes = indices.named_children if indices is not None else [node.child_by_field_name("index")]
        if not self.is_pointer(base):
            raise _Refused(node, f"a subscript of '{self.text(base)}', which is not an array parameter")
        array, offset = self.pointer(base)
        return array, plus(offset, self.expr(index_nodes[0]))

    def expression_statement(self, node: Node) -> list[Stmt]:
        node = unparenthesized(node)
        if node.type == "assignment_expression":
            left, op = bare(node.child_by_field_name("left")), node.child_by_field_name("operator").type
            value = self.expr(node.child_by_field_name("right"))
            if left.type == "identifier":
                name = self.text(left)
                if name in self.indices:
                    raise _Refused(node, f"an assignment to the parallel index '{name}'")
                if name in self.aliases or name in self.arrays:
                    raise _Refused(node, f"an assignment to the pointer '{name}'")
                if name not in self.names or name in self.scalars:
                    raise _Refused(node, f"an assignment to '{name}', which is not a local variable")
                return [_fused_accumulation(Assign(name=name, op=op, value=value))]
            if left.type == "subscript_expression":
                array, index = self.subscript(left)
                return [Store(array=array, index=index, op=op, value=value)]
            if left.type == "pointer_expression" and left.child_by_field_name("operator").type == "*":
                array, index = self.pointer(left.child_by_field_name("argument"))
                return [Store(array=array, index=index, op=op, value=value)]
            raise _Refused(node, f"an assignment to {self.text(left)}")
        if node.type == "update_expression":
            target = bare(node.child_by_field_name("argument"))
            op = "+=" if "++" in self.text(node) else "-="
            if target.type == "identifier" and self.text(target) in self.names and \
                    self.text(target) not in self.indices and self.text(target) not in self.scalars:
                return [Assign(name=self.text(target), op=op, value=one(1))]
            if target.type == "subscript_expression":
                array, index = self.subscript(target)
                return [Store(array=array, index=index, op=op, value=one(1))]
            raise _Refused(node, f"an increment of {self.text(target)}")
        if node.type == "call_expression":
            function = self.text(node.child_by_field_name("function"))
            args = node.child_by_field_name("arguments").named_children
            if function in _ATOMICS and len(args) == 2:
                array, index = self.pointer(args[0])
                return [Atomic(function=function, array=array, index=index, value=self.expr(args[1]))]
            self.expr(node)   # refuses what it cannot lift
            raise _Refused(node, f"a call to {function} whose result is unused")
        raise _Refused(node, f"an expression statement the program cannot express ({node.type})")

    def loop(self, node: Node) -> For:
        init, condition = node.child_by_field_name("initializer"), node.child_by_field_name("condition")
        update, body = node.child_by_field_name("update"), node.child_by_field_name("body")
        if init is None or condition is None or update is None:
            raise _Refused(node, "a for loop without an initializer, a condition or an update")
        if init.type == "declaration":
            declarators = [d for d in init.named_children if d.type == "init_declarator"]
            if len(declarators) != 1:
                raise _Refused(init, "a loop declaring several variables")
            var = self.text(declarators[0].child_by_field_name("declarator"))
            start_node = declarators[0].child_by_field_name("value")
            ctype = self.type_text(init)
        else:
            raise _Refused(init, "a loop whose variable is declared outside it")
        if self.uses_builtins(start_node) or self.uses_builtins(condition) or self.uses_builtins(update):
            raise _Refused(node, "a loop over thread indices (a strided or block-cooperative loop) inside a "
                                 "thread's code")
        start = self.expr(start_node)
        if self.decrement(update, var):
            return self.loop_down(node, var, ctype, start)
        step_node = self.increment(update, var)
        if step_node is None:
            raise _Refused(update, f"a loop update other than {var}++, {var} += step or {var}--")
        self.names.add(var)
        step = one(1) if step_node == "1" else self.expr(step_node)
        if not (isinstance(step, (Const, Ref)) and not (isinstance(step, Ref) and step.name == var)):
            raise _Refused(update, "a loop step that is not a constant or a parameter")
        cond = unparenthesized(condition)
        op = cond.child_by_field_name("operator").type if cond.type == "binary_expression" else None
        if op not in ("<", "<=", ">", ">="):
            raise _Refused(condition, f"a loop condition other than {var} < bound")
        left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
        if self.text(bare(right)) == var:
            left, right, op = right, left, _MIRRORED[op]
        if self.text(bare(left)) != var or op in (">", ">="):
            raise _Refused(condition, f"a loop condition other than {var} < bound or {var} <= bound")
        stop = self.expr(right)
        if mentions(stop, {var}):
            raise _Refused(condition, "a loop bound that changes inside the loop")
        if op == "<=":
            stop = plus_one(stop)
        inner = list(body.named_children) if body.type == "compound_statement" else [body]
        lifted = self.block(inner, in_loop=True)
        if self.assigns(lifted, var):
            raise _Refused(body, f"an assignment to the loop variable '{var}' inside the loop")
        return For(var=var, ctype=ctype, start=start, stop=stop, step=step, body=lifted)

    def search_loop(self, node: Node) -> list[Stmt]:
        """A loop that stops at the first iteration whose condition holds, `for (c = s; c < n; ++c) { ...; if
        (cond) break; }` or `if (cond) { found = e; break; }`, its iterations before the test declaring locals
        only: the first such iteration as a min reduction over all of them, `first = min(first, cond ? c : n)`
        (every iteration below n is one the loop could run, so each of its reads is in bounds), then the
        branch's assignments with c read as `first` where some iteration held, and a loop variable declared
        outside given the value the loop leaves in it. Any other break is refused."""
        init, condition = node.child_by_field_name("initializer"), node.child_by_field_name("condition")
        update, body = node.child_by_field_name("update"), node.child_by_field_name("body")
        statements = [n for n in (body.named_children if body.type == "compound_statement" else [body])
                      if n.type != "comment"]
        last = statements[-1] if statements else None
        branch = _branch(last.child_by_field_name("consequence")) if last is not None and \
            last.type == "if_statement" and last.child_by_field_name("alternative") is None else []
        branch = [n for n in branch if n.type != "comment"]
        if not branch or branch[-1].type != "break_statement" or any(
                _breaks(n) for n in [*statements[:-1], *branch[:-1]]):
            raise _Refused(node, "a break other than a loop's last statement `if (cond) break;` (or `{ x = e; "
                                 "break; }`): the loop's trip count depends on data")
        if init is None or condition is None or update is None or \
                self.increment(update, self.loop_variable(init)) != "1":
            raise _Refused(node, "a search loop other than `for (c = start; c < n; ++c)`")
        var = self.loop_variable(init)
        declared_outside = init.type != "declaration"
        start_node = init.child_by_field_name("right") if declared_outside else \
            next(d for d in init.named_children if d.type == "init_declarator").child_by_field_name("value")
        if declared_outside and var not in self.names:
            raise _Refused(init, f"'{var}' is not a local the program knows")
        start = self.expr(start_node)
        cond = unparenthesized(condition)
        if cond.type != "binary_expression" or cond.child_by_field_name("operator").type not in ("<", "<=") or \
                self.text(bare(cond.child_by_field_name("left"))) != var:
            raise _Refused(condition, f"a search loop condition other than {var} < bound")
        stop = self.expr(cond.child_by_field_name("right"))
        if cond.child_by_field_name("operator").type == "<=":
            stop = plus_one(stop)
        ctype = self.declared_type(var) if declared_outside else self.type_text(init)
        taken = self.names | {self.text(n) for n in self.view.descendants(self.view.body, "identifier")}
        step, first = fresh_name(var, taken), fresh_name(f"{var}_first", taken)
        added = {var, step, first} - self.names
        self.names |= {var, step, first}
        try:
            before = self.block(statements[:-1], in_loop=True)
            test = self.condition(last)
            found = self.block(branch[:-1], in_loop=True)
        finally:
            self.names -= added - {var} if declared_outside else added
        if any(isinstance(s, (Store, Atomic, Assign)) for s in walk(before)) or \
                any(not isinstance(s, Assign) or s.name == var for s in found) or mentions(stop, {var}):
            raise _Refused(node, "a search loop whose iterations do more than declare locals before their test, "
                                 "or whose break branch does more than assign locals")
        at_step = {var: Ref(name=step)}
        hit = Binary(op="<", left=Ref(name=first), right=stop)
        lifted: list[Stmt] = [
            Let(name=first, ctype=ctype, value=stop),
            For(var=step, ctype=ctype, start=start, stop=stop, step=one(1), body=[
                *substituted(before, at_step),
                Assign(name=first, op="=", value=Call(function="min", args=[
                    Ref(name=first), Select(cond=substitute(test, at_step), then=Ref(name=step), other=stop)]))])]
        if found:
            lifted.append(If(cond=hit, then=substituted(found, {var: Ref(name=first)})))
        if declared_outside:
            lifted.append(Assign(name=var, op="=", value=Select(cond=hit, then=Ref(name=first), other=Call(
                function="max", args=[start, stop]))))
        return lifted

    def declared_type(self, name: str) -> str:
        """The type a local of the kernel is declared with (`int c;`)."""
        for declaration in self.view.descendants(self.view.body, "declaration"):
            for declarator in declaration.named_children:
                target = declarator.child_by_field_name("declarator") if declarator.type == "init_declarator" \
                    else declarator
                if target is not None and target.type == "identifier" and self.text(target) == name:
                    return self.type_text(declaration).replace("const ", "")
        raise _Refused(self.view.node, f"no declaration of '{name}'")

    def loop_variable(self, init: Node) -> str:
        """The variable a loop's initializer sets: `int c = 0` or `c = 0`."""
        if init.type == "declaration":
            declarators = [d for d in init.named_children if d.type == "init_declarator"]
            if len(declarators) == 1:
                return self.text(declarators[0].child_by_field_name("declarator"))
        elif init.type == "assignment_expression" and init.child_by_field_name("operator").type == "=":
            return self.text(init.child_by_field_name("left"))
        raise _Refused(init, "a loop initializer other than one variable's")

    def loop_down(self, node: Node, var: str, ctype: str, start: Expr) -> For:
        """`for (int c = start; c >= low; --c)` (or `c > low`) as a loop counting up, `t` from 0 to the trip count,
        its body reading `start - t` for `c`: the same iterations in the same order."""
        if "unsigned" in ctype or "size_t" in ctype:
            raise _Refused(node, f"a loop counting an unsigned '{var}' down (it wraps instead of ending)")
        condition = node.child_by_field_name("condition")
        cond = unparenthesized(condition)
        op = cond.child_by_field_name("operator").type if cond.type == "binary_expression" else None
        if op not in _COMPARISONS:
            raise _Refused(condition, f"a loop condition other than {var} >= bound")
        left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
        if self.text(bare(right)) == var:
            left, right, op = right, left, _MIRRORED[op]
        if self.text(bare(left)) != var or op in ("<", "<="):
            raise _Refused(condition, f"a loop counting {var} down with a condition other than {var} >= bound")
        self.names.add(var)
        low = self.expr(right)
        if mentions(low, {var}) or mentions(start, {var}):
            raise _Refused(condition, "a loop bound that changes inside the loop")
        if op == ">":
            low = plus_one(low)
        body = node.child_by_field_name("body")
        lifted = self.block(list(body.named_children) if body.type == "compound_statement" else [body], in_loop=True)
        if self.assigns(lifted, var):
            raise _Refused(body, f"an assignment to the loop variable '{var}' inside the loop")
        taken = self.names | {self.text(n) for n in self.view.descendants(self.view.body, "identifier")}
        counter = fresh_name(f"{var}_from_start", taken)
        self.names.add(counter)
        trips = start if low == one(0) else Binary(op="-", left=start, right=low)
        return For(var=counter, ctype=ctype, start=one(0), stop=plus_one(trips),
                   step=one(1), body=substituted(lifted, {var: Binary(op="-", left=start, right=Ref(name=counter))}))

    def decrement(self, update: Node, name: str) -> bool:
        """`name--`, `--name`, `name -= 1`, `name = name - 1`."""
        update = unparenthesized(update)
        if update.type == "update_expression":
            return self.text(update.child_by_field_name("argument")) == name and "--" in self.text(update)
        if update.type == "assignment_expression" and self.text(update.child_by_field_name("left")) == name:
            op, right = update.child_by_field_name("operator").type, unparenthesized(
                update.child_by_field_name("right"))
            if op == "-=":
                return self.text(right) == "1"
            return op == "=" and right.type == "binary_expression" and \
                right.child_by_field_name("operator").type == "-" and \
                self.text(right.child_by_field_name("left")) == name and \
                self.text(right.child_by_field_name("right")) == "1"
        return False

    def assigns(self, body: list[Stmt], name: str) -> bool:
        for stmt in body:
            if isinstance(stmt, Assign) and stmt.name == name:
                return True
            if isinstance(stmt, For) and self.assigns(stmt.body, name):
                return True
            if isinstance(stmt, If) and (self.assigns(stmt.then, name) or self.assigns(stmt.other, name)):
                return True
        return False

    def uses_builtins(self, node: Node) -> bool:
        return any(self.text(n) in _BUILTINS for n in self.view.descendants(node, "identifier"))

    # -- expressions ----------------------------------------------------------------------------------------------

    def expr(self, node: Node) -> Expr:
        kind = node.type
        if kind == "parenthesized_expression":
            return self.expr(unparenthesized(node))
        if kind in ("number_literal", "true", "false", "char_literal"):
            return Const(text=self.text(node))
        if kind == "identifier":
            name = self.text(node)
            if name in self.names:
                return Ref(name=name)
            if name in self.macros:
                return self.macro(name, node)
            if name in self.template_ints:
                return Const(text=self.template_ints[name])
            if name in self.constants:
                return Const(text=self.constants[name])
            if name in ("INFINITY", "NAN", "FLT_MAX", "FLT_MIN", "DBL_MAX", "M_PI", "INT_MAX", "INT_MIN",
                        "CUDART_INF_F", "CUDART_PI_F", "FLT_EPSILON", "HUGE_VALF"):
                return Const(text=name)
            if name in _BUILTINS:
                raise _Refused(node, f"{name} used as a value")
            if name in self.arrays or name in self.aliases:
                raise _Refused(node, f"the pointer '{name}' used as a value")
            raise _Refused(node, f"'{name}' is not a parameter, index or local the program knows")
        if kind == "field_expression":
            raise _Refused(node, f"{self.text(node)} used as a value (only in a thread index definition)")
        if kind == "subscript_expression":
            array, index = self.subscript(node)
            return Load(array=array, index=index)
        if kind == "pointer_expression":
            if node.child_by_field_name("operator").type == "*":
                array, index = self.pointer(node.child_by_field_name("argument"))
                return Load(array=array, index=index)
            raise _Refused(node, "an address taken outside an atomic")
        if kind == "unary_expression":
            op = self.text(node.child_by_field_name("operator"))
            return Unary(op=op, operand=self.expr(node.child_by_field_name("argument")))
        if kind == "binary_expression":
            op = node.child_by_field_name("operator").type
            return Binary(op=op, left=self.expr(node.child_by_field_name("left")),
                          right=self.expr(node.child_by_field_name("right")))
        if kind == "conditional_expression":
            return Select(cond=self.expr(node.child_by_field_name("condition")),
                          then=self.expr(node.child_by_field_name("consequence")),
                          other=self.expr(node.child_by_field_name("alternative")))
        if kind == "cast_expression":
            written, value = self.text(node.child_by_field_name("type")), node.child_by_field_name("value")
            if written in self.names:
                # `(i) + x * ld`: C's grammar cannot tell it from a cast of `+x` to a type `i` (which then binds
                # tighter than the `*`) without knowing `i`; a local, index or parameter is no type. Refused here:
                # lift's retry reads respell.py's text, which writes the name without its parentheses.
                raise _Refused(node, f"'{written}' in parentheses before a sign, read as a cast to a type "
                                     f"'{written}'; write it without the parentheses")
            return Cast(ctype=written, operand=self.expr(value))
        if kind == "call_expression":
            return self.call(node)
        if kind == "update_expression" or kind == "assignment_expression":
            raise _Refused(node, "an assignment inside an expression")
        raise _Refused(node, f"an expression the program cannot express ({kind}: {self.text(node)[:40]})")

    def call(self, node: Node) -> Expr:
        function_node = node.child_by_field_name("function")
        # `::abs(v)`, `std::min(a, b)`: the global or the standard library's function, CUDA's of the same name.
        function = re.sub(r"^(?:std)?\s*::\s*(?=[A-Za-z_]\w*$)", "", self.text(function_node))
        args = node.child_by_field_name("arguments").named_children
        if function_node.type == "template_function":
            name = self.text(function_node.child_by_field_name("name"))
            if name == "static_cast" and len(args) == 1:
                template_args = function_node.child_by_field_name("arguments")
                return Cast(ctype=self.text(template_args)[1:-1].strip(), operand=self.expr(args[0]))
            raise _Refused(node, f"a call of {function}")
        if function in self.function_macros:
            raise _Refused(node, f"a use of the macro {function}")   # lift() expands it and lifts again
        if function in _NOT_LIFTABLE_CALLS:
            raise _Refused(node, f"{_NOT_LIFTABLE_CALLS[function]} ({function})")
        if function.startswith("__shfl") or function.startswith("atomic"):
            raise _Refused(node, f"{function} inside an expression")
        if function in self.helpers:
            return self.inline(node, function, args)
        if len(args) == 1 and (function in self.candidate.contract.template or dtype_of(function) is not None):
            return Cast(ctype=function, operand=self.expr(args[0]))     # a functional cast: T(x), float(i)
        if function == "__ldg" and len(args) == 1:
            array, index = self.pointer(args[0])
            return Load(array=array, index=index)
        lifted = [self.expr(a) for a in args]
        if function in _POWERS and len(lifted) == 2 and (power := _small_power(lifted[1])):
            # The product the power is: a few multiplications for the library's log and exp with their special
            # cases, and as accurate (CUDA's powf is within 4 ulp, pow within 2, "Mathematical Functions" of the
            # CUDA C++ Programming Guide; the product rounds once a multiplication, within 3 ulp of x^4). The
            # base converted as the call converts it (an integer base too) and read again for each factor: an
            # expression of the program has no effect but its value.
            base = Cast(ctype="double" if function == "pow" else "float", operand=lifted[0])
            product: Expr = base
            for _ in range(power - 1):
                product = Binary(op="*", left=product, right=base)
            return product
        return Call(function=function, args=lifted)

    def inline(self, node: Node, function: str, args: list[Node]) -> Expr:
        """A `__device__` helper whose body is declarations then one `return e;` (or branches that return): e with
        the helper's parameters and locals replaced by what they stand for; a pointer parameter (`const float*
        img`) by the array and offset its argument points at, read through as the kernel's own pointers are."""
        definition = self.helpers[function]
        declarator = definition.child_by_field_name("declarator")
        while declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        params = [p.child_by_field_name("declarator") for p in
                  declarator.child_by_field_name("parameters").named_children if p.type == "parameter_declaration"]
        pointers = [p is not None and p.type == "pointer_declarator" for p in params]
        params = [p.child_by_field_name("declarator") if pointer else p for p, pointer in zip(params, pointers)]
        if len(params) != len(args) or any(p is None or p.type != "identifier" for p in params):
            raise _Refused(node, f"a call of {function} whose parameters the program cannot bind")
        names = [self.text(p) for p in params]
        types = {self.text(p): self.type_text(p.parent).replace("const ", "") for p, pointer in zip(params, pointers)
                 if not pointer}
        taken = self.names | set(self.arrays) | {self.text(n) for n in self.view.descendants(definition, "identifier")}
        values: dict[str, Expr] = {}
        aliases: dict[str, tuple[str, Expr]] = {}
        for name, pointer, arg in zip(names, pointers, args):
            if pointer != self.is_pointer(arg):
                raise _Refused(arg, f"a call of {function} whose pointer parameters are not given pointers")
            if pointer:
                # The offset stands in the helper's reads as a name of its own, replaced last with the rest: the
                # caller's names in it are never taken for the helper's.
                array, offset = self.pointer(arg)
                placeholder = fresh_name(f"{name}_offset", taken)
                taken.add(placeholder)
                aliases[name], values[placeholder] = (array, Ref(name=placeholder)), offset
            else:
                values[name] = self.expr(arg)
        saved = self.aliases
        self.aliases = {**saved, **aliases}
        try:
            return _Helper(self, values, types).returned(function, definition,
                                                         list(definition.child_by_field_name("body").named_children))
        finally:
            self.aliases = saved


def _implied_guards_dropped(program: LoopProgram) -> list[Stmt]:
    """The point's code without the bounds its space implies: `n < N` where `const int n = block_z / H;` and
    block_z ranges over [0, N * H) (a guard written for a digit of a grid dimension, `if (n >= N) return;`). An `if`
    at the top of the code, after declarations, with no else, whose condition is such terms joined by `&&`: its
    terms dropped, the `if` too where none is left."""
    *before, last = program.body or [None]
    if not isinstance(last, If) or last.other or not all(isinstance(stmt, Let) for stmt in before):
        return program.body
    extents = {index.name: index.upper for index in program.space if constant(index.lower) == 0}
    quotients = {stmt.name: stmt.value for stmt in before if stmt.value is not None}
    if any(isinstance(stmt, (Assign, Let)) and stmt.name in quotients for stmt in walk(last.then)):
        return program.body

    def implied(term: Expr) -> bool:
        if not isinstance(term, Binary) or term.op not in ("<", ">"):
            return False
        digit, bound = (term.left, term.right) if term.op == "<" else (term.right, term.left)
        value = quotients.get(digit.name) if isinstance(digit, Ref) else None
        value = value.operand if isinstance(value, Cast) and is_integer_cast(value.ctype) else value
        if not (isinstance(value, Binary) and value.op == "/" and isinstance(value.left, Ref) and
                value.left.name in extents):
            return False
        whole, divisor, rest = factors(extents[value.left.name]), factors(value.right), factors(bound)
        return None not in (whole, divisor, rest) and quotient(whole, divisor) == rest

    terms = conjuncts(last.cond)
    kept = [term for term in terms if not implied(term)]
    if len(kept) == len(terms):
        return program.body
    return before + ([last.model_copy(update={"cond": conjunction(kept)})] if kept else last.then)


def _renamed(body: list[Stmt], names: dict[str, str]) -> list[Stmt]:
    """The statements with the locals `names` maps renamed, where declared, assigned, counted and read."""
    reads = {old: Ref(name=new) for old, new in names.items()}

    def renamed(stmt: Stmt) -> list[Stmt] | None:
        if isinstance(stmt, (Let, Assign)) and stmt.name in names:
            return [stmt.model_copy(update={"name": names[stmt.name]})]
        if isinstance(stmt, For) and stmt.var in names:
            return [stmt.model_copy(update={"var": names[stmt.var], "body": _renamed(stmt.body, names)})]
        return None

    return substituted(statements_replaced(body, renamed), reads)


def _strided_loops_counted(body: list[Stmt], program: LoopProgram) -> list[Stmt]:
    """A loop from a parallel index by the index's own extent, `for (idx = col; idx < rows * cols; idx += cols)`
    with col in [0, cols) (a column walked in a flat array), as the loop it is: `for (r = 0; r < rows; ++r)`
    with `idx = col + r * cols` declared in its body. Its trip count no longer reads the point, and its reads'
    stride along the loop shows (cols, not the 1 of idx): a column reduction's thread groups then lie across
    the columns. Other steps stay as written."""
    bounds = {index.name: index for index in program.space}
    taken = names_in(program)

    def counted(stmt: Stmt) -> list[Stmt]:
        if not isinstance(stmt, For):
            return [stmt]
        stmt = stmt.model_copy(update={"body": [s for inner in stmt.body for s in counted(inner)]})
        index = bounds.get(stmt.start.name) if isinstance(stmt.start, Ref) else None
        trips = _quotient(stmt.stop, stmt.step)
        if index is None or constant(index.lower) != 0 or trips is None or \
                polynomial(index.upper) != polynomial(stmt.step) or polynomial(stmt.step) is None:
            return [stmt]
        step = fresh_name(f"{stmt.var}_step", taken)
        taken.add(step)
        at = Binary(op="+", left=stmt.start, right=Binary(op="*", left=Ref(name=step), right=stmt.step))
        return [stmt.model_copy(update={"var": step, "start": one(0), "stop": trips, "step": one(1),
                                        "body": [Let(name=stmt.var, ctype=stmt.ctype, value=at), *stmt.body]})]

    return [s for stmt in body for s in counted(stmt)]


def _quotient(whole: Expr, part: Expr) -> Expr | None:
    """`whole` over `part` where `whole` is written as a product with `part` a factor (`(size_t)rows * cols` over
    `cols`: `(size_t)rows`); None otherwise."""
    bare_part = part.operand if isinstance(part, Cast) else part
    if isinstance(whole, Cast) and is_integer_cast(whole.ctype):
        inner = _quotient(whole.operand, part)
        return None if inner is None else Cast(ctype=whole.ctype, operand=inner)
    if isinstance(whole, Binary) and whole.op == "*":
        for mine, other in ((whole.right, whole.left), (whole.left, whole.right)):
            if (mine.operand if isinstance(mine, Cast) else mine) == bare_part:
                return other
            inner = _quotient(mine, part)
            if inner is not None:
                return Binary(op="*", left=other, right=inner)
    return None


def _breaks(node: Node) -> bool:
    """Whether `node` holds a break of the loop around it (not one of a loop inside it)."""
    if node.type == "break_statement":
        return True
    return node.type not in ("for_statement", "while_statement", "do_statement") and \
        any(_breaks(child) for child in node.named_children)


_STATEMENT_KINDS = {"while_statement": "a `while` loop", "for_statement": "a `for` loop", "do_statement": "a `do` loop",
                    "switch_statement": "a `switch`", "return_statement": "a return before its last statement",
                    "goto_statement": "a `goto`", "break_statement": "a `break`", "continue_statement": "a `continue`"}


def _branch(node: Node) -> list[Node]:
    """A branch's statements: a block's, or the one statement."""
    return list(node.named_children) if node.type == "compound_statement" else [node]


def _disjunction(terms: list[Expr]) -> Expr:
    result = terms[0]
    for term in terms[1:]:
        result = Binary(op="||", left=result, right=term)
    return result


class _Helper:
    """Expressions inside a helper: its parameters and locals stand for the caller's expressions."""

    def __init__(self, lifter: _Lifter, values: dict[str, Expr], types: dict[str, str]):
        self.lifter, self.values, self.types = lifter, values, dict(types)    # types: of what may be assigned

    def declare(self, node: Node) -> None:
        for declarator in node.named_children:
            if declarator.type == "init_declarator":
                name = self.lifter.text(declarator.child_by_field_name("declarator"))
                ctype = self.lifter.type_text(node)
                self.types[name] = ctype.replace("const ", "")
                self.values[name] = Cast(ctype=ctype.replace("const ", ""),
                                         operand=self.value(declarator.child_by_field_name("value")))

    def returned(self, function: str, at: Node, statements: list[Node]) -> Expr:
        """The value statements of the helper's body return: declarations, then `return e;`, or `if (c)` a branch
        that returns (`if (v > 20.f) return v;`), its `else` or the statements after it returning otherwise:
        `c ? then : otherwise`."""
        statements = [n for n in statements if n.type != "comment"]
        for position, statement in enumerate(statements):
            if statement.type in ("declaration", "expression_statement") or statement.type == "if_statement" and \
                    not any(n.type == "return_statement" for n in self.lifter.view.descendants(statement)):
                self.run([statement], function)
            elif statement.type == "return_statement" and statement.named_children and \
                    position == len(statements) - 1:
                return self.value(statement.named_children[0])
            elif statement.type == "if_statement":
                cond, consequence, alternative = self.branches(statement)
                declared = dict(self.values)
                then = self.returned(function, statement, consequence)
                self.values = dict(declared)
                otherwise = self.returned(function, statement, alternative + statements[position + 1:])
                return Select(cond=cond, then=then, other=otherwise)
            else:
                found = _STATEMENT_KINDS.get(statement.type, f"a {statement.type.replace('_', ' ')}")
                raise _Refused(statement, f"{function} has {found} before its return (a helper is read as "
                                          f"declarations, assignments and branches that assign or return)")
        raise _Refused(at, f"{function} does not end with `return value;` on every path")

    def run(self, statements: list[Node], function: str) -> None:
        """Statements that only declare and assign the helper's locals and parameters (`if (i < 0) i = -i;`): what
        each then holds, a branch's as `c ? then : before`."""
        for statement in statements:
            if statement.type == "comment":
                continue
            if statement.type == "declaration":
                self.declare(statement)
                continue
            assignment = statement.named_children[0] if statement.type == "expression_statement" and \
                statement.named_children else None
            target = assignment.child_by_field_name("left") if assignment is not None and \
                assignment.type == "assignment_expression" else None
            operator = self.lifter.text(assignment.child_by_field_name("operator")) if target is not None else ""
            if target is not None and target.type == "identifier" and self.lifter.text(target) in self.values and \
                    operator in ("=", "+=", "-=", "*=", "/="):
                name, value = self.lifter.text(target), self.value(assignment.child_by_field_name("right"))
                if name not in self.types:
                    raise _Refused(statement, f"{function} assigns {name}, whose type is not known")
                # Converted to the name's type, as C's assignment does (`int k; k = x * 0.5f;` truncates).
                self.values[name] = Cast(ctype=self.types[name], operand=value if operator == "=" else
                                         Binary(op=operator[0], left=self.values[name], right=value))
            elif statement.type == "if_statement":
                cond, consequence, alternative = self.branches(statement)
                before = dict(self.values)
                self.run(consequence, function)
                then, self.values = self.values, dict(before)
                self.run(alternative, function)
                self.values = {name: value if then[name] == value else Select(cond=cond, then=then[name], other=value)
                               for name, value in self.values.items() if name in before}
            else:
                raise _Refused(statement, f"{function} has code other than declarations, assignments of its "
                                          f"locals and returns before its return")

    def branches(self, statement: Node) -> tuple[Expr, list[Node], list[Node]]:
        """An `if`'s condition, and its two branches' statements (none for a missing else)."""
        condition = statement.child_by_field_name("condition")
        cond = self.value(condition.named_children[0] if condition.type == "condition_clause" else condition)
        alternative = statement.child_by_field_name("alternative")
        if alternative is not None and alternative.type == "else_clause":
            alternative = alternative.named_children[0]
        return cond, _branch(statement.child_by_field_name("consequence")), \
            _branch(alternative) if alternative is not None else []

    def value(self, node: Node) -> Expr:
        saved = self.lifter.names
        self.lifter.names = saved | set(self.values)
        try:
            expr = self.lifter.expr(node)
        finally:
            self.lifter.names = saved
        return substitute(expr, self.values)
