"""A block's threads reducing through shared memory, read as one point walking the whole loop: a rewrite of the
kernel's text for the lift alone (lift.py), as `_block_split` is.

The block reduction users write by hand,

    __shared__ float sums[BLOCK];
    float acc = 0.0f;
    for (int j = tid; j < D; j += BLOCK) acc += fabsf(xr[j]);
    sums[tid] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sums[tid] += sums[tid + s];
        __syncthreads();
    }
    float total = sums[0];
    for (int j = tid; j < D; j += BLOCK) yr[j] = xr[j] / total;

computes in `sums[0]` the sum over the block's W threads of their partials, which is the sum one thread walking the
whole loop computes: the same sum for integers and for `fmaxf`/`fminf`/`max`/`min`, and for floating-point sums the
same sum reassociated. The loops that write memory give each thread the elements of its residue modulo W, so one
thread walking them whole makes the same writes. So the kernel is read as its block's one point:

    float acc = 0.0f;
    for (int j = 0; j < D; j += 1) acc += fabsf(xr[j]);
    float total = acc;
    for (int j = 0; j < D; j += 1) yr[j] = xr[j] / total;

launched with blocks of one thread; the reduce family then shares the loops among a thread group, or a cluster, as it
chooses. Applied only where the whole kernel is such, and refused otherwise (the kernel is then refused at its shared
memory as before):
- the launch's block is W threads along x alone at every contract size, W a power of two; the thread index is read
  as `threadIdx.x` or a local holding it, and the block size as `blockDim.x` or a number (or a `#define` of one) equal
  to W;
- every statement reading the thread index is one of the kernel body's own statements (not nested), and is:
  - a loop `for (T j = tid; cond; j += W)`, its condition and body reading neither the thread index nor a barrier,
    nor shared memory but as below;
  - a deposit `arr[tid] = p;` of a `__shared__` array `arr[N]`, p a local declared in the body before with a value
    (zero for a sum), assigned nowhere but by updates of one kind (`p += e`, `p = p + e`, `p = fmaxf(p, e)`,
    `fmaxf(e, p)`, and `fminf`, `max`, `min`, or a choice `p = e > p ? e : p` and its spellings, the larger or
    the smaller of the two wherever neither is NaN) inside the loops above that come before the deposit, read
    nowhere else;
    then `__syncthreads();`, then a tree `for (T s = W / 2; s > 0; s >>= 1) { if (tid < s) { arr[tid] op=
    arr[tid + s]; ... } __syncthreads(); }` (the halving spelled `s /= 2` too, the start `blockDim.x / 2`, the test
    `s >= 1` or `s != 0`; a `#pragma` before it a hint only), or the interleaved one `for (T s = 1; s < W; s *=
    2) { if (tid % (2 * s) == 0) ...`,
    combining each array deposited since the last tree with its local's update, and each of those arrays only; or,
    after the barrier, `if (tid == 0) { ... for (T k = 0; k < W; k++) q += arr[k]; ... }`, thread 0 adding up
    each array deposited alone (`q += p` then);
  - a loop over the thread's contiguous chunk, `T c = (n + W - 1) / W; T b = tid * c; T e = b + c; if (e > n) e =
    n; for (T i = b; i < e; i++)` (or `T e = min(b + c, n);`), n assigned nowhere: the W chunks are [0, n) in order,
    so `for (T i = 0; i < (n); i++)`, the chunk's statements dropped;
  - `if (tid == 0) S` (no else), which the one point runs once: S.
- a `__shared__` scalar is written only by thread 0 and read by the others only after a barrier: the one point's
  local; memory thread 0 alone writes may be read by thread 0 (a running mean updated in place);
- warp shuffles, W a multiple of 32: `for (T o = 16; o > 0; o >>= 1) p += __shfl_down_sync(0xffffffff, p, o);`
  (or `__shfl_xor_sync`, `o = warpSize / 2`, `fmaxf`..., with the full mask) reduces each warp's partials into its
  lane 0 (every lane, for xor); `if (lane == 0) sh[warp] = p;` deposits them (lane `tid % 32` or `tid & 31`, warp
  `tid / 32` or `tid >> 5`, spelled so or held in locals); after the barrier they are gathered,
  `v = (lane < NW) ? sh[lane] : identity;` (NW the block's warps, `blockDim.x / 32` and its spellings; the identity
  0 for a sum, -FLT_MAX or -INFINITY for a maximum; v may be p itself), inside `if (warp == 0)` (or `tid < 32`,
  whose test may read `tid` for the lane) or by every warp, then reduced across the warp the same way, or added up by
  thread 0 alone, or by every thread (`T q = v0; for (T k = 0; k < NW; k++) q += sh[k];`, an inlined
  `block_reduce_sum(v, partial)`'s end: every thread's q is v0 and the total, the one point's `q += p;`). The
  gathered v is then the deposited local, the shuffles dropped. Where only lane 0 holds the total (down shuffles, or
  a gather by the first warp alone), v is read only by thread 0 (`if (lane == 0)` inside the first warp, `if (tid ==
  0)` after).
- a pair of arrays, a value and its index, deposited from a pair of locals the loops update together as the first
  maximum (`if (e > v) { v = e; i = j; }`; `e < v` the first minimum) and combined by a tree that takes the other
  thread's pair where its value is greater, or equal at a smaller index: the first maximum one thread walking every
  element finds (an index seeded by the thread's, `int i = tid;`, the least of which the tree keeps on a tie: 0);
- a shared array is read only as `arr[0]` after its tree, which is then the deposited local (`p = arr[0];`, the total
  taken back into the deposited local itself, is then dropped, and p assigned nowhere after); a barrier outside a tree
  is dropped (only shared memory and the memory the loops write cross threads, and both are checked);
- a local assigned in a loop over the thread's elements and declared outside it is a deposited one (anything else
  would differ from thread to thread);
- memory the kernel writes is read only at an element spelled as one of its writes (its index reading no local
  declared in a loop's body), and only in the loops over the thread's elements, all of one partition (strides or
  chunks), so that a thread reads only what it wrote itself; memory written outside those loops is not read at all
  (a pointer local counts as the parameter it is declared from);
- a loop over the thread's elements tests its counter against a bound read from no memory and never leaves early
  (a break or a return would stop each thread at its own element); a statement every thread runs stores to memory
  but never adds to it (an atomicAdd by every thread would add W times what the one point adds once);
- a kernel that reads no `blockIdx` runs one block at every size; its one point is named by `blockIdx.x` (which
  the lift needs as an index).

With `merges` (lift.py then runs the kernel to check the reading, `_computes`), also:
- a tree step combining the deposited arrays by any code that reads them only at the thread's place and `s` past it
  and writes them only at the thread's place (`merge_step`), or a warp's xor shuffles of the thread's locals combined
  by code of its own (`warp_merge`): an online softmax's (max, sum) pairs, a (max, sum, argmax) triple, Welford's
  (mean, M2, count) by Chan's formula. Whether the merge is what one thread walking both threads' elements would
  compute is not read from the text: the run decides;
- a loop every thread runs alike around the loop over the thread's elements (`nested_walk`: a Welford over each
  plane of a batch).

A kernel whose threads stride the whole grid cannot be one point a block; where its tree's total is only added to
memory by thread 0 (`if (tid == 0) atomicAdd(c, cache[0]);`, CUDA by Example's dot product), `block_totals_added`
has every thread add its own partial instead, and the lift reads the grid-stride sum added atomically it then is.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from tree_sitter import Node

from optiml_engine.ir.kernel_values import (
    PURE_FUNCTIONS, file_constants, file_macros, integer_value, macros_expanded)
from optiml_engine.ir.program import fresh_name
from optiml_engine.model import Candidate
from optiml_engine.policies.kernel_view import KernelView, derived, unparenthesized
from optiml_engine.source.contract import resolve

_UPDATES = {"fmaxf": "fmaxf", "fmax": "fmaxf", "max": "max", "fminf": "fminf", "fmin": "fminf", "min": "min"}
_HALVINGS = ("{s}>>=1", "{s}/=2", "{s}={s}/2", "{s}={s}>>1")
_TESTS = ("{s}>0", "{s}>=1", "{s}!=0", "0<{s}")
_HALVING_GUARDS = ("({lane}<{s})", "({s}>{lane})")
_DOUBLINGS = ("{s}*=2", "{s}<<=1", "{s}={s}*2", "{s}=2*{s}", "{s}+={s}")
_FULL_MASKS = ("0xffffffff", "0xFFFFFFFF", "0xffffffffu", "0xFFFFFFFFu", "0xffffffffU", "0xFFFFFFFFU")
_SHUFFLES = {"__shfl_down_sync": "down", "__shfl_xor_sync": "xor"}
_IDENTITIES = {"fmaxf": ("-FLT_MAX", "-INFINITY", "-CUDART_INF_F", "-HUGE_VALF"),
               "fminf": ("FLT_MAX", "INFINITY", "CUDART_INF_F", "HUGE_VALF")}
_IDENTITIES |= {"max": _IDENTITIES["fmaxf"], "min": _IDENTITIES["fminf"]}
_DOUBLING_GUARDS = ("({lane}%(2*{s})==0)", "(({lane}%(2*{s}))==0)", "({lane}%({s}*2)==0)", "(({lane}%({s}*2))==0)",
                    "(({lane}&(2*{s}-1))==0)")
# Names a merge step may read beside its own: the infinities and the float limits.
_CONSTANTS = {"INFINITY", "CUDART_INF_F", "HUGE_VALF", "FLT_MAX", "FLT_MIN", "NAN"}
_HALF = re.compile(r"\(?(\d+)[uU]?\)?(/2|>>1)?")
_ZERO = re.compile(r"0+(\.0*)?[fF]?|0?\.0+[fF]?")


def _alike_kinds(one: str | None, other: str | None) -> bool:
    """Whether two updates combine alike: the same, or `max` and `fmaxf` (`min` and `fminf`), which a warp's
    shuffles of a float partial and the loop that made it may each be written with."""
    return one == other or {one, other} in ({"max", "fmaxf"}, {"min", "fminf"})


def unwrapped(written: str) -> bool:
    """Whether the text's first parenthesis closes at its end (`(a / b)`, not `(a) / (b)`)."""
    depth = 0
    for at, character in enumerate(written):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth == 0:
            return at == len(written) - 1
    return False


class _NotATree(Exception):
    """The kernel is not a block reduction of the module's docstring."""


def shared_and_block(candidate: Candidate) -> tuple[KernelView, tuple[int, int, int]] | None:
    """The kernel's view and its block's threads along x, y and z (the same at every contract size, or zeros), where
    it declares shared memory; None where it declares none (most kernels the lift retries: nothing else is done)."""
    view = KernelView.of(candidate)
    if not any(view.text(n) == "__shared__" for n in view.descendants(view.body, "type_qualifier")):
        return None
    contract = candidate.contract
    blocks = {tuple(launch.block) + (1,) * (3 - len(launch.block))
              for launch in (resolve(contract, binding) for binding in [contract.sizes, *contract.checks])}
    return view, blocks.pop() if len(blocks) == 1 else (0, 0, 0)


def block_trees_folded(candidate: Candidate, merges: bool = False) -> Candidate:
    """The kernel read as its block's one point (the module's docstring), with a launch of blocks of one thread; the
    candidate itself where it is not such a kernel. `merges`: a tree's step may combine the partials by any code
    (`_Folding.merge_step`), a reading the caller must check by running the kernel."""
    found = shared_and_block(candidate)
    if found is None:
        return candidate
    view, (threads_x, threads_y, threads_z) = found
    contract = candidate.contract
    dim, width = ("x", threads_x) if (threads_y, threads_z) == (1, 1) else ("y", threads_y) if threads_z == 1 and \
        any(view.text(n).replace(" ", "") == "threadIdx.y" for n in view.descendants(view.body, "field_expression")) \
        else ("x", 0)
    if width < 2 or width & (width - 1):
        return candidate
    try:
        replacements = _Folding(view, width, dim, candidate.contract.template, merges=merges).replacements()
    except _NotATree:
        return candidate
    if not any(view.text(n) == "blockIdx" for n in view.descendants(view.body, "identifier")):
        grids = {tuple(launch.grid) + (1,) * (3 - len(launch.grid))
                 for launch in (resolve(contract, binding) for binding in [contract.sizes, *contract.checks])}
        if dim == "y" or grids != {(1, 1, 1)}:
            return candidate
        name = fresh_name("block_x", {view.text(n) for n in view.descendants(view.body, "identifier")})
        replacements.append((view.body.start_byte + 1, view.body.start_byte + 1, f" const int {name} = blockIdx.x;"))
    launch = contract.launch.model_copy(update={"block": ["1"] if dim == "x" else [contract.launch.block[0], "1"]})
    return derived(candidate, view.replaced(replacements), candidate.description, launch)


def shared_caches_read(candidate: Candidate) -> Candidate:
    """A `__shared__` array (or `extern __shared__`) caching what the block's threads load, `for (int i = tid; i < n;
    i += W) { float v = xr[i]; xs[i] = v; ... }`, and read only in loops of the same threads' elements (`for (int i =
    tid; ...; i += W) ... xs[i] ...`): each read the value cached, `xr[i]`, recomputed where read (each thread reads
    what it cached itself). Only where every write is such a statement of such a loop, `xs[j] = e;` (e, or the
    local's value it names, reading the counter, math functions, and the kernel's scalars, read-only arrays and
    top-level locals assigned nowhere that point to read-only memory or hold a number), and every read is `xs[k]`,
    k such a loop's counter. The candidate itself where no array is such."""
    found = shared_and_block(candidate)
    if found is None:
        return candidate
    view, _ = found
    body = view.body
    lanes = {"threadIdx.x"} | {view.text(d.child_by_field_name("declarator")) for d in view.descendants(
        body, "init_declarator") if view.text(d.child_by_field_name("value") or d).replace(" ", "") == "threadIdx.x"}
    identifiers = list(view.descendants(body, "identifier"))
    assigned = {view.text(n.child_by_field_name("left")) for n in view.descendants(body, "assignment_expression")} | \
        {view.text(n.child_by_field_name("argument")) for n in view.descendants(body, "update_expression")}
    # What a cached value may read: the kernel's scalars and read-only arrays, and locals declared once and assigned
    # nowhere that point to read-only memory or hold a number (the memory it reads then stays as it was).
    readable = {p.name for p in view.kernel.params if not p.is_pointer or p.is_const} | \
        {"threadIdx", "blockIdx", "blockDim", "gridDim"}     # (a read is by the thread that cached the element)
    declared = [d for d in body.named_children
                if d.type == "declaration" and len(d.children_by_field_name("declarator")) == 1]
    for d in declared:
        target = d.child_by_field_name("declarator")
        pointer = target.child_by_field_name("declarator") if target.type == "init_declarator" else None
        constant = any(view.text(c) == "const" for c in d.children if c.type == "type_qualifier")
        if pointer is not None and (pointer.type == "identifier" or pointer.type == "pointer_declarator" and constant):
            name = view.text(pointer if pointer.type == "identifier" else pointer.child_by_field_name("declarator"))
            if sum(name == view.text(n) for n in view.descendants(body, "identifier")
                   if n.parent.type in ("init_declarator", "pointer_declarator", "array_declarator")) == 1:
                readable.add(name)

    def strided(loop: Node | None) -> str | None:
        """The counter of `for (T j = tid; cond; j += step)`, None for any other node."""
        if loop is None or loop.type != "for_statement" or loop.child_by_field_name("initializer") is None:
            return None
        declarators = [d for d in loop.child_by_field_name("initializer").named_children
                       if d.type == "init_declarator"]
        update = loop.child_by_field_name("update")
        if len(declarators) != 1 or update is None or \
                view.text(declarators[0].child_by_field_name("value")).replace(" ", "") not in lanes:
            return None
        counter = view.text(declarators[0].child_by_field_name("declarator"))
        return counter if view.text(update).replace(" ", "").startswith(f"{counter}+=") else None

    replacements: list[tuple[int, int, str]] = []
    for declaration in view.descendants(body, "declaration"):
        declarators = declaration.children_by_field_name("declarator")
        if not any(view.text(c) == "__shared__" for c in declaration.children) or len(declarators) != 1 or \
                declarators[0].type != "array_declarator" or \
                declarators[0].child_by_field_name("declarator").type != "identifier":
            continue
        array = view.text(declarators[0].child_by_field_name("declarator"))
        steps, values, reads, writes = set(), set(), [], []
        for mention in (n for n in identifiers if view.text(n) == array and n.parent != declarators[0]):
            element = mention.parent
            loop = element.parent
            while loop is not None and loop.type != "for_statement" and loop != body:
                loop = loop.parent
            counter = strided(loop)
            index = view.text(element.child_by_field_name("indices")).strip("[] ") \
                if element.type == "subscript_expression" else None
            if counter is None or index != counter:
                break
            steps.add((view.text(loop.child_by_field_name("initializer")).split("=")[-1].strip(" ;"),
                       view.text(loop.child_by_field_name("update")).replace(" ", "")[len(counter):]))
            assignment = element.parent
            if assignment.type == "assignment_expression" and assignment.child_by_field_name("left") == element:
                statement = assignment.parent
                value = unparenthesized(assignment.child_by_field_name("right"))
                if statement.type != "expression_statement" or view.text(assignment.child_by_field_name(
                        "operator")) != "=":
                    break
                if value.type == "identifier":      # a local of the loop's body holding the value
                    held = [d for d in view.descendants(loop.child_by_field_name("body"), "init_declarator")
                            if view.text(d.child_by_field_name("declarator")) == view.text(value)]
                    if len(held) != 1 or view.text(value) in assigned:
                        break
                    value = held[0].child_by_field_name("value")
                names = {view.text(n) for n in view.descendants(value, "identifier")} - {counter}
                if names - readable - PURE_FUNCTIONS or names & assigned or any(
                        n.type == "call_expression" and view.text(n.child_by_field_name("function")) not in
                        PURE_FUNCTIONS for n in view.descendants(value)):
                    break
                values.add(re.sub(rf"\b{counter}\b", "@", view.text(value)))
                writes.append(statement)
            else:
                reads.append((element, counter))
        else:
            if len(values) == 1 and len(steps) == 1 and writes and reads:
                value = values.pop()
                replacements += [(n.start_byte, n.end_byte, "") for n in (declaration, *writes)]
                replacements += [(element.start_byte, element.end_byte, f"({value.replace('@', counter)})")
                                 for element, counter in reads]
    if not replacements:
        return candidate
    return derived(candidate, view.replaced(replacements), candidate.description)


def warp_rows_folded(candidate: Candidate, merges: bool = False) -> Candidate:
    """A block of warps, one a row (a block of (32, Y) threads: `threadIdx.y` a row, `threadIdx.x` its lane; or of
    one warp), whose lanes reduce with shuffles alone: each row read as its warp's one point, the lanes' loops walked
    whole (the module's docstring, along x), threadIdx.y kept; launched with blocks of (1, Y). Only where the kernel
    has no shared memory and shuffles; the candidate itself otherwise. `merges`: the lanes' partials may be merged
    by code of the kernel's own (`_Folding.warp_merge`), a reading the caller must check by running the kernel."""
    view = KernelView.of(candidate)
    contract = candidate.contract
    blocks = {tuple(resolve(contract, binding).block) + (1,) * (3 - len(resolve(contract, binding).block))
              for binding in [contract.sizes, *contract.checks]}
    if len(blocks) != 1 or any(view.text(n) == "__shared__" for n in view.descendants(view.body, "type_qualifier")):
        return candidate
    (threads_x, threads_y, threads_z), = blocks
    if threads_x != 32 or threads_z != 1 or not any(view.text(n).startswith("__shfl")
                                                    for n in view.descendants(view.body, "identifier")):
        return candidate
    try:
        replacements = _Folding(view, 32, "x", candidate.contract.template, rows_kept=threads_y > 1,
                                merges=merges).replacements()
    except _NotATree:
        return candidate
    launch = contract.launch.model_copy(update={"block": ["1", str(threads_y)] if threads_y > 1 else ["1"]})
    return derived(candidate, view.replaced(replacements), candidate.description, launch)


def block_totals_added(candidate: Candidate) -> Candidate:
    """A block's tree whose total thread 0 adds to memory atomically, `if (tid == 0) atomicAdd(&c[k], arr[0]);`
    (CUDA by Example's dot product, the threads striding the whole grid): each thread's partial added atomically
    instead, `atomicAdd(&c[k], p);`, the tree and its barriers dropped: the same sum, reassociated as the atomics
    already add the blocks' totals. The kernel keeps its threads (its loops are the lift's, a grid-stride sum added
    atomically). Only where the deposit, one barrier, the tree and thread 0's atomicAdd follow each other in the
    kernel's body (so nothing assigns the partial between), the partial is a sum from zero, the shared array
    is the kernel's only shared memory and mentioned nowhere else, and the tree's barriers are the kernel's only ones;
    the candidate itself otherwise."""
    found = shared_and_block(candidate)
    if found is None:
        return candidate
    view, (width, *rest) = found
    if rest != [1, 1] or width < 2 or width & (width - 1):
        return candidate
    try:
        folding = _Folding(view, width, "x", candidate.contract.template)
        replacements = folding.totals_added()
    except _NotATree:
        return candidate
    return derived(candidate, view.replaced(replacements), candidate.description)


def warp_totals_added(candidate: Candidate) -> Candidate:
    """A warp's shuffled total that its lane 0 adds to memory atomically, `for (o = 16; o > 0; o >>= 1) p +=
    __shfl_down_sync(0xffffffff, p, o); if (lane == 0) atomicAdd(c, p / n);`: each thread's own share added
    instead, `atomicAdd(c, p / n);`, the shuffles dropped: the same sum, reassociated, as the atomics already add the
    warps' totals in any order (and `p * s`, `s * p` and, p floating, `p / n` share out over the warp's partials as
    p does). Only
    where the block's x extent is a whole number of warps at every contract size, the kernel has no shared memory and
    no other shuffle, the warp's sum (as block trees read it) and the `if` follow each other in the kernel's body,
    the added value reads the partial so and the target not at all, and nothing after reads the partial; the
    candidate itself otherwise."""
    view = KernelView.of(candidate)
    contract = candidate.contract
    widths = {resolve(contract, binding).block[0] for binding in [contract.sizes, *contract.checks]}
    shuffles = [n for n in view.descendants(view.body, "identifier") if view.text(n) in _SHUFFLES]
    if any(width % 32 for width in widths) or len(shuffles) != 1 or \
            any(view.text(n) == "__shared__" for n in view.descendants(view.body, "type_qualifier")):
        return candidate
    try:
        folding = _Folding(view, min(widths), "x", candidate.contract.template)
        statements = folding.statements
        at = next(i for i, statement in enumerate(statements[:-1]) if folding.warp_reduce(statement) is not None)
    except (_NotATree, StopIteration):
        return candidate
    partial, kind, _ = folding.warp_reduce(statements[at])
    added = statements[at + 1]
    if kind != "+" or added.type != "if_statement" or added.child_by_field_name("alternative") is not None or \
            folding.squeezed(added.child_by_field_name("condition")) not in folding.zero_tests(folding.in_warp):
        return candidate
    then = folding.sole(added.child_by_field_name("consequence"))
    call = then.named_children[0] if then.type == "expression_statement" and then.named_children else None
    arguments = call.child_by_field_name("arguments").named_children \
        if call is not None and call.type == "call_expression" else []
    # An integer partial's share over n truncates apart from the total's: division only for a floating partial.
    floating = _floating(folding, statements[:at], partial)
    if call is None or folding.text(call.child_by_field_name("function")) != "atomicAdd" or len(arguments) != 2 or \
            partial in folding.names(arguments[0]) or \
            _shared_out(folding, unparenthesized(arguments[1]), partial, floating) is None or \
            any(partial in folding.names(n) for n in statements[at + 2:]):
        return candidate
    return derived(candidate, view.replaced([
        (statements[at].start_byte, statements[at].end_byte, ""), (added.start_byte, then.start_byte, "")]),
        candidate.description)


def _shared_out(folding: _Folding, value: Node, partial: str, floating: bool) -> Node | None:
    """The partial's node where the value is the partial (`p`, or a tree's `arr[0]`: `partial` as squeezed), or the
    partial times (or, `floating`, over) a factor every thread holds alike (`_alike`); None otherwise."""
    if folding.squeezed(value) == partial:
        return value
    if value.type != "binary_expression" or \
            folding.text(value.child_by_field_name("operator")) not in (("*", "/") if floating else ("*",)):
        return None
    left, right = (unparenthesized(value.child_by_field_name(side)) for side in ("left", "right"))
    if folding.text(value.child_by_field_name("operator")) == "*" and folding.squeezed(right) == partial:
        left, right = right, left
    return left if folding.squeezed(left) == partial and folding.names(right) <= _alike(folding) else None


def _alike(folding: _Folding) -> set[str]:
    """The names every thread holds alike: the kernel's parameters that nothing assigns, and macros (the factors the
    lift takes in an atomic's value)."""
    assigned = {folding.assigned(n) for n in folding.view.descendants(folding.view.body)}
    return {p.name for p in folding.view.kernel.params} - assigned | set(folding.macros)


def _floating(folding: _Folding, statements: list[Node], local: str) -> bool:
    """Whether the local is declared among the statements with a floating type."""
    declared = next((s for s in statements if s.type == "declaration" and
                     (d := folding.declared(s)) is not None and d[0] == local), None)
    return declared is not None and any(t in folding.text(declared.child_by_field_name("type"))
                                        for t in ("float", "double", "half", "bfloat16"))


class _Folding:
    """The replacements that make the kernel its block's one point, found statement by statement; `_NotATree` where
    the kernel is not such."""

    def __init__(self, view: KernelView, width: int, dim: str, template: dict[str, str], rows_kept: bool = False,
                 merges: bool = False):
        # rows_kept: a block of warps along x, one a row of the block's y; y stays the program's (warp_rows_folded)
        # merges: a tree's step may combine the deposited arrays by any code (`merge_step`), to be checked by running
        self.view, self.width, self.dim, self.rows_kept, self.merges = view, width, dim, rows_kept, merges
        self.merged: set[str] = set()               # deposited locals a merge step combines
        self.size = f"blockDim.{dim}"
        # A `#pragma` line (an unroll hint before the tree) is no statement of the fold's.
        self.statements = [n for n in view.body.named_children
                           if n.type != "comment" and not (n.type == "preproc_call" and
                                                           self.text(n).lstrip().startswith("#pragma"))]
        # The names that stand for numbers: #defines, enumerators and constants, integer template arguments (`template
        # <int BLOCK>`, the contract's instantiation).
        self.macros = file_macros(view) | file_constants(view) | \
            {name: value for name, value in template.items() if value.isdigit()}
        self.lanes = {f"threadIdx.{dim}"} | {name for statement in self.statements
                                             if (name := self.lane_declared(statement)) is not None}
        # Along y, each thread's column of the block reduces apart: an array's element is `arr[tid][x]`, x the
        # thread's index along x as spelled (`threadIdx.x` or a local holding it); along x, `arr[tid]`.
        declared = [self.declared(statement) for statement in self.statements]
        self.columns = [""] if dim == "x" else [f"[{x}]" for x in {"threadIdx.x"} | {
            name_value[0] for name_value in declared
            if name_value is not None and self.squeezed(name_value[1]) == "threadIdx.x"}]
        self.shared: dict[str, Node] = {}           # shared array -> its declaration
        self.scalars: dict[str, Node] = {}          # shared scalar -> its declaration
        for statement in self.statements:
            self.shared_declared(statement)
        self.found: list[tuple[int, int, str]] = []
        self.strided: list[Node] = []               # the loops over the thread's elements, in order
        self.walking: list[Node] = []               # the body's statements holding them (a loop, or its guard)
        self.deposited: dict[str, str] = {}         # shared array -> local, since the last tree
        self.reduced: dict[str, str] = {}           # shared array -> local its `[0]` reads now are
        self.locals_deposited: set[str] = set()
        self.unsynced: set[str] = set()             # shared scalars written since the last barrier
        self.partitions: set[str] = set()           # how the loops give threads their elements: strides, chunks
        self.chunk_found: dict[Node, None] = {}     # the statements that compute a thread's chunk
        self.chunk: tuple[str, str, str] | None = self.chunked()   # its begin, its end, the bound of all chunks
        self.dropped: set[Node] = set()
        self.deposit_at: dict[str, int] = {}        # deposited local -> where its deposit is
        # Warps: a thread's lane in its warp and its warp's index, as spelled or held in locals.
        warp_lanes = self.lanes if dim == "x" else set()      # warps run along x
        self.in_warp = {f"{t}{op}" for t in warp_lanes for op in ("%32", "&31", "%warpSize", "&(warpSize-1)")}
        self.warp_of = {f"{t}{op}" for t in warp_lanes for op in ("/32", ">>5", "/warpSize")}
        self.warp_locals: set[Node] = set()
        for statement in self.statements:
            declared = self.declared(statement)
            if declared is not None and (value := self.squeezed(declared[1])) in self.in_warp | self.warp_of:
                name = declared[0]
                if not any(self.assigned(n) == name for n in self.view.descendants()):
                    (self.in_warp if value in self.in_warp else self.warp_of).add(name)
                    self.warp_locals.add(statement)
        self.warp_done: dict[str, str] = {}         # a partial reduced across its warp -> "down" or "xor"
        self.warp_arrays: set[str] = set()          # shared arrays holding one partial a warp
        self.lane0_only: set[str] = set()           # locals holding the total in thread 0 alone
        self.gathered: dict[str, tuple[str, bool]] = {}   # local -> its kind, and whether gathered by lane in warp
        self.regathered: dict[str, int] = {}        # a deposited local gathered into again -> where
        self.taken: set[str] = set()                # deposited locals assigned their tree's total (`p = arr[0];`)
        self.seeded_loops: set[Node] = set()        # serial gathers from the second partial, the first taken before
        self.slots: dict[tuple[str, int], str] = {}  # a shared array's element at a constant place -> its local
        self.by_thread_zero: set[Node] = set()      # the body's `if (tid == 0) S` statements

    def replacements(self) -> list[tuple[int, int, str]]:
        if any(self.text(n) == "__shared__" for n in self.view.descendants(self.view.body, "type_qualifier")
               if self.statement_of(n) not in (*self.shared.values(), *self.scalars.values())):
            raise _NotATree                         # shared memory declared elsewhere
        synced = False
        for statement in self.statements:
            if statement in self.shared.values() or self.lane_declared(statement) is not None:
                self.drop(statement)
            elif statement in self.scalars.values():
                qualifier = next(c for c in statement.children if self.text(c) == "__shared__")
                self.found.append((qualifier.start_byte, qualifier.end_byte, ""))
            elif statement in self.warp_locals:
                self.drop(statement)
            elif self.warp_step(statement):
                self.drop(statement)
            elif self.merges and self.warp_merge(statement):
                self.drop(statement)
            elif self.barrier(statement):
                synced = bool(self.deposited)
                self.unsynced = set()
                self.drop(statement)
            elif self.deposit(statement) or self.warp_deposit(statement):
                synced = False
                self.drop(statement)
            elif self.tree(statement):
                if not synced:
                    raise _NotATree
                self.drop(statement)
            elif self.deposited and self.tree_counter(statement):
                self.drop(statement)
            elif self.deposited:
                if not (synced and (self.lane_zero(statement) or self.warp_zero(statement) or
                                    self.gather(statement) or self.summed_by_all(statement))):
                    raise _NotATree                 # something between a deposit and its tree
            elif statement in self.chunk_found:
                self.drop(statement)
            elif self.strided_loop(statement) or self.chunk_loop(statement) or self.guarded_walk(statement) or \
                    self.nested_walk(statement):
                self.walking.append(statement)
            elif self.lane_zero(statement):
                pass
            elif self.total_taken(statement):
                self.drop(statement)
            elif not self.index_seeded(statement):
                self.plain(statement)
        if self.deposited or not self.locals_deposited:
            raise _NotATree
        self.check_locals()
        self.check_memory()
        return self.found

    def totals_added(self) -> list[tuple[int, int, str]]:
        """The replacements of `block_totals_added`; `_NotATree` where its conditions fail."""
        statements = self.statements
        found = next((i for i, statement in enumerate(statements[:-3]) if self.deposit(statement)), None)
        barriers = [n for n in self.view.descendants(self.view.body, "identifier") if self.text(n) == "__syncthreads"]
        if found is None or len(self.shared) != 1 or self.scalars or len(barriers) != 2:
            raise _NotATree
        counters = [statements[found + 2]] if self.tree_counter(statements[found + 2]) else []
        if found + 4 + len(counters) > len(statements):
            raise _NotATree
        deposit, barrier, tree, added = [statements[found], statements[found + 1],
                                         *statements[found + 2 + len(counters):found + 4 + len(counters)]]
        (array, local), = self.deposited.items()
        self.walking = [statement for statement in statements[:found]
                        if any(self.assigned(n) == local for n in self.view.descendants(statement))]
        if not self.barrier(barrier) or not self.tree(tree) or self.update_kind(local, deposit.start_byte) != "+" or \
                added.type != "if_statement" or added.child_by_field_name("alternative") is not None or \
                self.squeezed(added.child_by_field_name("condition")) not in self.zero_tests(self.lanes):
            raise _NotATree
        declared = next((d for statement in statements[:found]
                         if (d := self.declared(statement)) is not None and d[0] == local), None)
        then = added.child_by_field_name("consequence")
        then = self.sole(then)
        call = then.named_children[0] if then.type == "expression_statement" and then.named_children else None
        arguments = call.child_by_field_name("arguments").named_children \
            if call is not None and call.type == "call_expression" else []
        mentions = [n for n in self.view.descendants(self.view.body, "identifier") if self.text(n) == array]
        own = [n for statement in (self.shared[array], deposit, tree, added)
               for n in self.view.descendants(statement, "identifier") if self.text(n) == array]
        # The total may be shared out (`arr[0] / n`): each thread adds its partial's share, as warp totals do.
        total = _shared_out(self, unparenthesized(arguments[1]), f"{array}[0]",
                            _floating(self, statements[:found], local)) if len(arguments) == 2 else None
        if declared is None or not _ZERO.fullmatch(self.squeezed(declared[1])) or total is None or \
                self.text(call.child_by_field_name("function")) != "atomicAdd" or len(mentions) != len(own) or \
                any(self.text(n) in self.lanes | {"threadIdx"} for n in self.view.descendants(arguments[0])):
            raise _NotATree                         # (the target is thread 0's alone: every thread adds there now)
        return [*((statement.start_byte, statement.end_byte, "\n" * self.text(statement).count("\n"))
                  for statement in (self.shared[array], deposit, barrier, *counters, tree)),
                (added.start_byte, then.start_byte,
                 "\n" * self.text(added)[:then.start_byte - added.start_byte].count("\n")),
                (total.start_byte, total.end_byte, local)]

    # -- the statements

    def lane_declared(self, statement: Node) -> str | None:
        """`T tid = threadIdx.x;`, the local never assigned: its name."""
        declared = self.declared(statement)
        if declared is None or self.squeezed(declared[1]) != f"threadIdx.{self.dim}":
            return None
        name = declared[0]
        return None if any(self.assigned(n) == name for n in self.view.descendants()) else name

    def shared_declared(self, statement: Node) -> None:
        """`__shared__ T name[N];` (`name[N][M]` along y) or `__shared__ T name;`: recorded as a shared array or
        scalar."""
        if statement.type != "declaration" or \
                not any(self.text(c) == "__shared__" for c in statement.children if c.type == "type_qualifier"):
            return
        declarator = statement.child_by_field_name("declarator")
        if len(statement.children_by_field_name("declarator")) != 1:
            raise _NotATree                         # several names
        dimensions = 0
        while declarator.type == "array_declarator":
            declarator, dimensions = declarator.child_by_field_name("declarator"), dimensions + 1
        if declarator.type != "identifier" or dimensions > (1 if self.dim == "x" else 2):
            raise _NotATree                         # an initialized one, or more dimensions than the block's
        (self.shared if dimensions else self.scalars)[self.text(declarator)] = statement

    def barrier(self, statement: Node) -> bool:
        return self.squeezed(statement) == "__syncthreads();"

    def plain_assignment(self, statement: Node) -> Node | None:
        """The assignment `a = e` a statement is, or None."""
        assignment = statement.named_children[0] if statement.type == "expression_statement" and \
            statement.named_children else None
        return assignment if assignment is not None and assignment.type == "assignment_expression" and \
            self.text(assignment.child_by_field_name("operator")) == "=" else None

    def deposit(self, statement: Node) -> bool:
        """`arr[tid] = p;`: recorded as arr's local, awaiting its tree."""
        assignment = self.plain_assignment(statement)
        if assignment is None:
            return False
        array = self.lane_element(assignment.child_by_field_name("left"))
        value = assignment.child_by_field_name("right")
        if array is None:
            return False
        if value.type != "identifier" or array in self.deposited or self.text(value) in self.locals_deposited:
            raise _NotATree
        self.deposited[array] = self.text(value)
        self.locals_deposited.add(self.text(value))
        self.deposit_at[self.text(value)] = statement.start_byte
        return True

    def tree(self, statement: Node) -> bool:
        """The halving loop of the module's docstring combining the arrays deposited: they are then reduced. A for
        loop, or a while loop counting a name the statement before declares (`int i = blockDim.x / 2; while (i !=
        0) { ...; __syncthreads(); i /= 2; }`, CUDA by Example's), the name unread after it."""
        if statement.type not in ("for_statement", "while_statement") or not self.deposited:
            return False
        body = statement.child_by_field_name("body")
        inner = self.inside(body)
        if statement.type == "for_statement":
            counted = self.counter(statement)
            update = self.squeezed(statement.child_by_field_name("update"))
        else:
            counted = self.declared(statement.prev_named_sibling)
            update = self.squeezed(inner[-1]).rstrip(";") if len(inner) > 1 else ""
            inner = inner[:-1]
            if counted is not None and any(self.text(n) == counted[0] for later in self.statements
                                           if later.start_byte > statement.end_byte
                                           for n in self.view.descendants(later, "identifier")):
                raise _NotATree
        if counted is None:
            return False
        s, start = counted[0], self.squeezed(counted[1])
        condition = self.squeezed(statement.child_by_field_name("condition"))
        if statement.type == "while_statement" and condition.startswith("(") and condition.endswith(")"):
            condition = condition[1:-1]
        if (start in (f"{self.size}/2", f"{self.size}>>1") or self.number(start) == self.width // 2) and \
                condition in [t.format(s=s) for t in _TESTS] and update in [h.format(s=s) for h in _HALVINGS]:
            guard_forms = _HALVING_GUARDS
        elif start == "1" and condition.startswith(f"{s}<") and self.block_size(condition[len(s) + 1:]) and \
                update in [d.format(s=s) for d in _DOUBLINGS]:
            guard_forms = _DOUBLING_GUARDS      # interleaved: thread 2ks adds thread 2ks + s's partial
        else:
            return False
        guards = [n for n in inner if not self.barrier(n)]
        if len(guards) != 1 or not self.barrier(inner[-1]) or guards[0].type != "if_statement" or \
                guards[0].child_by_field_name("alternative") is not None or \
                self.squeezed(guards[0].child_by_field_name("condition")) not in \
                [g.format(lane=lane, s=s) for lane in self.lanes for g in guard_forms]:
            raise _NotATree
        then = guards[0].child_by_field_name("consequence")
        combines = self.inside(then)
        combined = self.pair_combined(combines, s)
        if combined is None:
            try:
                combined = {self.combine(c, s) for c in combines}
                if len(combined) != len(combines):
                    raise _NotATree
            except _NotATree:
                if not self.merges:
                    raise
                combined = self.merge_step(then, s)
        if {array for array, _ in combined} != set(self.deposited) or \
                any(kind != "merged" and self.update_kind(self.deposited[array], statement.start_byte) != kind
                    for array, kind in combined):
            raise _NotATree
        self.reduced.update(self.deposited)
        self.deposited = {}
        return True

    def tree_counter(self, statement: Node) -> bool:
        """`T s = start;` right before a while loop testing s: a tree's counter (`tree` judges the loop)."""
        declared = self.declared(statement)
        loop = statement.next_named_sibling
        return declared is not None and loop is not None and loop.type == "while_statement" and \
            declared[0] in self.names(loop.child_by_field_name("condition"))

    def merge_step(self, step: Node, s: str) -> set[tuple[str, str]]:
        """A tree step combining the deposited arrays' elements by any code (an online softmax's (max, sum) pairs,
        a Welford triple, a (max, sum, argmax) triple): it reads them only at the thread's place and at `s` past it,
        writes them only at the thread's place, and otherwise reads and writes only locals of its own, numbers and
        pure functions (`merge_code`). Every deposited array is then "merged"."""
        places = {f"{lane}{offset}" for lane in self.lanes for offset in ("", f"+{s}")}
        for node in self.view.descendants(step, "subscript_expression"):
            index = self.squeezed(node.child_by_field_name("indices") or node.child_by_field_name("index"))
            if self.text(node.child_by_field_name("argument")) not in self.deposited or \
                    index.strip("[]") not in places:
                raise _NotATree
        self.merge_code(step, set(self.deposited) | {s},
                        lambda target: target.type == "subscript_expression" and
                        self.squeezed(target).endswith(tuple(f"[{lane}]" for lane in self.lanes)))
        self.merged |= set(self.deposited.values())
        return {(array, "merged") for array in self.deposited}

    def warp_merge(self, statement: Node) -> bool:
        """`for (T o = 16; o > 0; o >>= 1) { ... }` (or `o = warpSize / 2`) whose code shuffles the thread's locals
        across the warp (`__shfl_xor_sync` with the full mask, o the offset: every lane ends with the warp's) and
        combines them by code of its own (`merge_code`): a block of one warp a row merging its lanes' online (max,
        sum) pairs. Those locals are then the row's, "merged"."""
        o = self.warp_halving(statement) if self.width == 32 and not self.shared else None
        if o is None or statement.type != "for_statement":
            return False
        body = statement.child_by_field_name("body")
        shuffled: set[str] = set()
        for call in self.view.descendants(body, "call_expression"):
            function = self.text(call.child_by_field_name("function"))
            if function not in _SHUFFLES:
                continue
            value = self.shuffled_value(call, o)
            if function != "__shfl_xor_sync" or value is None:
                return False
            shuffled.add(value)
        if not shuffled or shuffled & self.locals_deposited:
            return False
        self.merge_code(body, shuffled | {o}, lambda target: target.type == "identifier" and
                        self.text(target) in shuffled, calls={"__shfl_xor_sync"})
        self.dropped.add(statement)
        self.merged |= shuffled
        self.locals_deposited |= shuffled
        for local in shuffled:
            self.deposit_at[local] = self.regathered[local] = statement.start_byte
        return True

    def merge_code(self, code: Node, readable: set[str], writable: Callable[[Node], bool],
                   calls: set[str] = frozenset()) -> None:
        """Code that merges two threads' partials: it reads `readable` names, locals it declares, the lanes, the
        file's numbers and the infinities, and calls pure functions (and `calls`); it writes only what `writable`
        accepts and its own locals. Whether it combines the partials as one thread walking both threads' elements
        would is not read from it: the lift runs the kernel to check (lift.py `_computes`). `_NotATree` otherwise."""
        declared = {self.text(n.child_by_field_name("declarator"))
                    for n in self.view.descendants(code, "init_declarator")}
        for node in self.view.descendants(code):
            if node.type in ("assignment_expression", "update_expression"):
                target = unparenthesized(node.child_by_field_name("left") or node.child_by_field_name("argument"))
                if not (target.type == "identifier" and self.text(target) in declared or writable(target)):
                    raise _NotATree
            elif node.type == "call_expression":
                if self.text(node.child_by_field_name("function")) not in PURE_FUNCTIONS | calls:
                    raise _NotATree
            elif node.type == "identifier" and node.parent.type != "call_expression" and \
                    self.text(node) not in declared | readable | self.lanes | set(self.macros) | _CONSTANTS:
                raise _NotATree

    def combine(self, statement: Node, s: str) -> tuple[str, str]:
        """`arr[tid] += arr[tid + s];` (or `=` with `+`, `fmaxf`, ...): the array and the kind of its combination."""
        written = self.squeezed(statement)
        for array, lane, column in itertools.product(self.deposited, self.lanes, self.columns):
            mine, theirs = f"{array}[{lane}]{column}", f"{array}[{lane}+{s}]{column}"
            if written in (f"{mine}+={theirs};", f"{mine}={mine}+{theirs};", f"{mine}={theirs}+{mine};"):
                return array, "+"
            for function, kind in _UPDATES.items():
                if written in (f"{mine}={function}({mine},{theirs});", f"{mine}={function}({theirs},{mine});"):
                    return array, kind
            assignment = self.plain_assignment(statement)
            if assignment is not None and self.squeezed(assignment.child_by_field_name("left")) == mine and \
                    (selected := self.selection(assignment.child_by_field_name("right"), mine)) is not None and \
                    selected[1] == theirs:
                return array, selected[0]
        raise _NotATree

    def selection(self, value: Node, local: str) -> tuple[str, str] | None:
        """`e > p ? e : p` (and `p < e ? e : p`, `p > e ? p : e`, `e < p ? p : e`): ("select_max", e) for the local
        p; the same with the other choice, ("select_min", e). The larger (smaller) of the two in any order where
        neither is NaN. None for any other value."""
        value = unparenthesized(value)
        if value.type != "conditional_expression":
            return None
        conjuncts = self.conjuncts(value.child_by_field_name("condition"))
        test = conjuncts[0]
        if len(conjuncts) != 1 or test.type != "binary_expression" or \
                self.text(test.child_by_field_name("operator")) not in (">", "<"):
            return None
        left, right = (self.squeezed(unparenthesized(test.child_by_field_name(side))) for side in ("left", "right"))
        chosen, other = (self.squeezed(unparenthesized(value.child_by_field_name(side)))
                         for side in ("consequence", "alternative"))
        if {left, right} != {chosen, other} or left == right or local not in (left, right):
            return None
        larger = (self.text(test.child_by_field_name("operator")) == ">") == (chosen == left)
        return "select_max" if larger else "select_min", right if left == local else left

    def pair_combined(self, statements: list[Node], s: str) -> set[tuple[str, str]] | None:
        """A tree step taking the other thread's pair where its value is greater, or equal with a smaller index (the
        first maximum, as one thread walking every element finds it; the first minimum for `<`):
            `if (v[tid + s] > v[tid] || (v[tid + s] == v[tid] && i[tid + s] < i[tid])) { v[tid] = v[tid + s];
            i[tid] = i[tid + s]; }`,
        the other thread's elements held in locals first or not, the comparisons spelled either way round. The two
        arrays and their kind (`pair_kind`'s, of the locals deposited in them); None where the step is no such."""
        held: dict[str, str] = {}
        for statement in statements[:-1]:
            declared = self.declared(statement)
            if declared is None:
                return None
            held[declared[0]] = self.squeezed(declared[1])
        if not statements or (last := statements[-1]).type != "if_statement" or \
                last.child_by_field_name("alternative") is not None:
            return None

        def read(node: Node) -> str:
            return re.sub(r"[A-Za-z_]\w*", lambda m: held.get(m.group(0), m.group(0)), self.squeezed(node))

        condition = read(last.child_by_field_name("condition"))
        taken = sorted(read(n) for n in self.inside(last.child_by_field_name("consequence")))
        for (values, value), (indices, index), lane, column in itertools.product(
                self.deposited.items(), self.deposited.items(), self.lanes, self.columns):
            kind = self.update_kind(value, self.deposit_at[value])
            if kind is None or kind != self.update_kind(index, self.deposit_at[index]) or \
                    kind.split(":")[1:] != [value, index]:
                continue
            mine_v, theirs_v = f"{values}[{lane}]{column}", f"{values}[{lane}+{s}]{column}"
            mine_i, theirs_i = f"{indices}[{lane}]{column}", f"{indices}[{lane}+{s}]{column}"
            better = (f"{theirs_v}>{mine_v}", f"{mine_v}<{theirs_v}") if kind.startswith("argmax") else \
                (f"{theirs_v}<{mine_v}", f"{mine_v}>{theirs_v}")
            tie = [f"{a}&&{b}" for a in (f"{theirs_v}=={mine_v}", f"{mine_v}=={theirs_v}")
                   for b in (f"{theirs_i}<{mine_i}", f"{mine_i}>{theirs_i}")]
            forms = {f"({b}||({t}))" for b in better for t in tie} | {f"(({b})||({t}))" for b in better for t in tie}
            if condition in forms and taken == sorted([f"{mine_v}={theirs_v};", f"{mine_i}={theirs_i};"]):
                return {(values, kind), (indices, kind)}
        return None

    # -- warps

    def warp_reduce(self, statement: Node) -> tuple[str, str, str] | None:
        """`for (T o = 16; o > 0; o >>= 1) v op= __shfl_down_sync(0xffffffff, v, o);` (or `__shfl_xor_sync`, `o =
        warpSize / 2`, `v = fmaxf(v, ...)`): the local, the kind of its combination, and "down" (lane 0 then holds
        the warp's total) or "xor" (every lane does)."""
        o = self.warp_halving(statement)
        if o is None:
            return None
        body = self.sole(statement.child_by_field_name("body"))
        if body.type != "expression_statement" or not body.named_children:
            return None
        update = body.named_children[0]
        v = self.assigned(update)
        shuffles = [c for c in self.view.descendants(update, "call_expression")
                    if self.text(c.child_by_field_name("function")) in _SHUFFLES]
        if v is None or len(shuffles) != 1 or self.shuffled_value(shuffles[0], o) != v:
            return None
        shuffle, right = self.squeezed(shuffles[0]), update.child_by_field_name("right")
        operator = self.text(update.child_by_field_name("operator"))
        operands = [right.child_by_field_name("left"), right.child_by_field_name("right")] \
            if right.type == "binary_expression" and self.text(right.child_by_field_name("operator")) == "+" else \
            right.child_by_field_name("arguments").named_children if right.type == "call_expression" else []
        combined = operator == "=" and sorted(self.squeezed(o) for o in operands) == sorted([v, shuffle])
        kind = "+" if operator == "+=" and self.squeezed(right) == shuffle else None if not combined else \
            "+" if right.type == "binary_expression" else _UPDATES.get(self.text(right.child_by_field_name("function")))
        return (v, kind, _SHUFFLES[self.text(shuffles[0].child_by_field_name("function"))]) if kind else None

    def warp_halving(self, statement: Node) -> str | None:
        """`for (T o = 16; o > 0; o >>= 1)` (or `o = warpSize / 2`, the tests and halvings spelled otherwise): o."""
        counted = self.counter(statement)
        if counted is None:
            return None
        o, start = counted[0], self.squeezed(counted[1])
        if not (start in ("warpSize/2", "warpSize>>1") or self.number(start) == 16) or \
                self.squeezed(statement.child_by_field_name("condition")) not in [t.format(s=o) for t in _TESTS] or \
                self.squeezed(statement.child_by_field_name("update")) not in [h.format(s=o) for h in _HALVINGS]:
            return None
        return o

    def shuffled_value(self, call: Node, o: str) -> str | None:
        """The value a shuffle of the whole warp (the full mask, the warp's width) by the offset o reads, as written;
        None for any other shuffle."""
        arguments = [self.squeezed(a) for a in call.child_by_field_name("arguments").named_children]
        if len(arguments) not in (3, 4) or self.macros.get(arguments[0], arguments[0]) not in _FULL_MASKS or \
                arguments[2] != o or arguments[3:] not in ([], ["32"], ["warpSize"]):
            return None
        return arguments[1]

    def warp_step(self, statement: Node) -> bool:
        """A warp reduction at the body's level, unguarded or behind `if (warp == 0)`: of a thread's partial (the
        first step of a block's reduction), or of the warps' partials gathered (its second)."""
        guarded = statement.type == "if_statement" and statement.child_by_field_name("alternative") is None and \
            self.warp_zero_test(statement)
        reduced = self.warp_reduce(self.sole(statement.child_by_field_name("consequence")) if guarded else statement)
        if reduced is None:
            return False
        v, kind, mode = reduced
        if self.width % 32:
            raise _NotATree
        self.dropped.add(statement)
        if v in self.gathered:
            if not _alike_kinds(kind, self.gathered[v][0]):
                raise _NotATree
            if mode == "xor" and not guarded and self.gathered[v][1]:
                self.lane0_only.discard(v)          # every warp gathered every partial: every thread holds the total
            return True
        if guarded or v in self.warp_done or not _alike_kinds(self.update_kind(v, statement.start_byte), kind):
            raise _NotATree
        self.warp_done[v] = mode
        if self.width == 32 and not self.shared:
            # A block of one warp a row: its shuffles are the whole reduction, the local the row's total from here
            # (every lane's for xor, lane 0's for down).
            self.locals_deposited.add(v)
            self.deposit_at[v] = self.regathered[v] = statement.start_byte
            if mode == "down":
                self.lane0_only.add(v)
        return True

    def warp_deposit(self, statement: Node) -> bool:
        """`if (lane == 0) sh[warp] = v;` after v's warp reduction: sh holds a partial a warp; or several such in
        one block (`{ s_inter[warp] = inter; s_card[warp] = card; }`), each of its own array."""
        if statement.type != "if_statement" or statement.child_by_field_name("alternative") is not None or \
                self.squeezed(statement.child_by_field_name("condition")) not in \
                self.zero_tests(self.in_warp):
            return False
        deposits = []
        for then in self.inside(statement.child_by_field_name("consequence")):
            assignment = then.named_children[0] if then.type == "expression_statement" and then.named_children \
                else None
            left = assignment.child_by_field_name("left") if assignment is not None and \
                assignment.type == "assignment_expression" else None
            if left is None or left.type != "subscript_expression" or \
                    self.text(assignment.child_by_field_name("operator")) != "=":
                return False
            deposits.append((self.text(left.child_by_field_name("argument")), left,
                             self.text(assignment.child_by_field_name("right"))))
        if not deposits:
            return False
        for array, left, value in deposits:
            if array not in self.shared or self.squeezed(left)[len(array):] not in [f"[{w}]" for w in self.warp_of] \
                    or value not in self.warp_done or array in self.deposited or value in self.locals_deposited:
                raise _NotATree
            self.deposited[array] = value
            self.warp_arrays.add(array)
            self.locals_deposited.add(value)
            self.deposit_at[value] = statement.start_byte
        return True

    def total_taken(self, statement: Node) -> bool:
        """`p = arr[0];` after arr's tree, p the local deposited into arr: p holds the block's total from here,
        which the one point's p already is (its mentions after are its total's, `check_locals`)."""
        assignment = self.plain_assignment(statement)
        if assignment is None:
            return False
        local = self.text(assignment.child_by_field_name("left"))
        value = self.squeezed(assignment.child_by_field_name("right"))
        if not any(self.reduced.get(array) == local and value in [f"{array}[0]{column}" for column in self.columns]
                   for array in self.shared):
            return False
        self.regathered[local] = statement.start_byte
        self.taken.add(local)
        return True

    def gather(self, statement: Node, first_warp: bool = False) -> bool:
        """`T v = (lane < NW) ? sh[lane] : identity;` (or an assignment, v the deposited local itself too), sh a
        warp's partials deposited and NW the block's warps: v, once reduced across the warp, holds the block's total;
        here the deposited local. The test may read the thread's index for its lane (`tid < NW`): in the
        `first_warp` the same, elsewhere only the first warp then gathers."""
        if statement.type == "declaration":
            declared = self.declared(statement)
            if declared is None:
                return False
            target, value = declared[1].parent.child_by_field_name("declarator"), declared[1]
        elif statement.type == "expression_statement" and statement.named_children and \
                statement.named_children[0].type == "assignment_expression" and \
                self.text(statement.named_children[0].child_by_field_name("operator")) == "=":
            target, value = (statement.named_children[0].child_by_field_name("left"),
                             statement.named_children[0].child_by_field_name("right"))
        else:
            return False
        if value is None or value.type != "conditional_expression" or target.type != "identifier":
            return False
        condition = unparenthesized(value.child_by_field_name("condition"))
        if condition.type != "binary_expression" or self.text(condition.child_by_field_name("operator")) != "<":
            return False
        tested = self.squeezed(condition.child_by_field_name("left"))
        element = value.child_by_field_name("consequence")
        if element.type != "subscript_expression":
            raise _NotATree
        array = self.text(element.child_by_field_name("argument"))
        lane = self.squeezed(element)[len(array) + 1:-1]
        # Every warp gathering with the thread's index tested (`tid < NW`): the first warp gathers (its threads'
        # indices are their lanes), the others hold the identity, and the flag below says so.
        if {tested, lane} - (self.in_warp | self.lanes) or tested != lane and not first_warp and \
                tested not in self.lanes or \
                array not in self.deposited or array not in self.warp_arrays or \
                not self.warp_count(self.squeezed(condition.child_by_field_name("right"))):
            raise _NotATree
        local = self.deposited.pop(array)
        kind = self.update_kind(local, self.deposit_at[local])
        # The identity as written, or cast to the partials' type (`(T)(0.0f)` of a template's T).
        identity = re.sub(r"^\((?:float|double|int|unsigned|long|longlong)\)(\((.*)\)|(.*))$", r"\2\3",
                          self.squeezed(value.child_by_field_name("alternative")))
        if kind is None or not (identity in _IDENTITIES.get(kind, ()) or
                                kind == "+" and _ZERO.fullmatch(identity)):
            raise _NotATree
        self.gathered[self.text(target)] = (kind, lane in self.in_warp and tested in self.in_warp)
        self.lane0_only.add(self.text(target))  # until its warp reduction
        if self.text(target) in self.locals_deposited:
            self.regathered[self.text(target)] = statement.start_byte
        self.found.append((value.start_byte, value.end_byte, local))
        return True

    def warp_zero(self, statement: Node) -> bool:
        """`if (warp == 0) { v = (lane < NW) ? sh[lane] : 0; <v's warp reduction>; if (lane == 0) S }`: the first
        warp gathers the warps' partials and reduces them; its lane 0 (thread 0) then holds the total: the block
        as written, each gathered v the deposited local, S run once."""
        if statement.type != "if_statement" or statement.child_by_field_name("alternative") is not None or \
                not self.warp_zero_test(statement):
            return False
        then = statement.child_by_field_name("consequence")
        inner = self.inside(then)
        gathered_before = set(self.gathered)
        for part in inner:
            reduced = self.warp_reduce(part)
            if self.gather(part, first_warp=True):
                continue
            if reduced is not None and reduced[0] in self.gathered:
                v, kind, mode = reduced
                if not _alike_kinds(kind, self.gathered[v][0]):
                    raise _NotATree
                if mode == "xor":
                    self.lane0_only.discard(v)      # every lane of the first warp holds the total, in this block
                self.drop(part)
            elif part.type == "if_statement" and part.child_by_field_name("alternative") is None and \
                    self.squeezed(part.child_by_field_name("condition")) in \
                    self.zero_tests(self.in_warp | self.lanes):
                inside = part.child_by_field_name("consequence")
                self.plain(inside, lane_zero=True)
                self.found.append((part.start_byte, inside.start_byte,
                                   "\n" * self.text(part)[:inside.start_byte - part.start_byte].count("\n")))
            else:
                self.plain(part)
        if self.deposited:
            raise _NotATree                         # a warp's partials not gathered
        # After the block, the other warps' threads hold their own values: thread 0 alone may read the total.
        self.lane0_only |= set(self.gathered) - gathered_before
        self.found.append((statement.start_byte, then.start_byte,
                           "\n" * self.text(statement)[:then.start_byte - statement.start_byte].count("\n")))
        return True

    def zero_tests(self, names: set[str]) -> list[str]:
        """`(lane == 0)` for each spelling of a lane, squeezed, its operand parenthesized or not."""
        return [test for name in names for test in (f"({name}==0)", f"(({name})==0)", f"(0=={name})")]

    def warp_zero_test(self, statement: Node) -> bool:
        """`if (warp == 0)`, `if (tid < 32)`: the block's first warp."""
        return self.squeezed(statement.child_by_field_name("condition")) in \
            [f"({w}==0)" for w in self.warp_of] + [f"({t}<{n})" for t in self.lanes for n in ("32", "warpSize")]

    def warp_count(self, written: str) -> bool:
        """Whether the text is the block's number of warps (`blockDim.x / 32`, `(blockDim.x + 31) / 32`, ...)."""
        # (`(blockDim.x / 32.f)`, a float division, where the block is whole warps)
        while written.startswith("(") and written.endswith(")") and unwrapped(written):
            written = written[1:-1]
        written = re.sub(r"/32\.0*[fF]?$", "/32", written) if self.width % 32 == 0 else written
        found = re.fullmatch(r"\(?(.+?)(\+31|\+warpSize-1)?\)?(/32|/warpSize|>>5)", written)
        return found is not None and (found.group(1) == self.size or self.number(found.group(1)) == self.width) \
            or self.number(written) == self.width // 32

    def strided_loop(self, statement: Node) -> bool:
        """`for (T j = tid; cond; j += W)`: its start made 0 and its step 1."""
        if statement.type != "for_statement":
            return False
        counted = self.counter(statement)
        if counted is None or self.squeezed(counted[1]) not in self.lanes:
            return False
        update = statement.child_by_field_name("update")
        j = counted[0]
        if update is None or update.type != "assignment_expression" or \
                self.text(update.child_by_field_name("left")) != j or \
                self.text(update.child_by_field_name("operator")) != "+=" or \
                not self.block_size(self.squeezed(update.child_by_field_name("right"))):
            raise _NotATree
        self.check_walk(statement, j)
        value = counted[1]
        right = update.child_by_field_name("right")
        self.found += [(value.start_byte, value.end_byte, "0"), (right.start_byte, right.end_byte, "1")]
        self.partitions.add("strides")
        self.strided.append(statement)
        return True

    def nested_walk(self, statement: Node) -> bool:
        """`for (T b = 0; b < N; ++b) { ...; for (T j = tid; cond; j += W) ...; }` with `merges`: a loop every thread
        runs alike (its header reads no thread index) around one loop over the thread's elements (`strided_loop`),
        the rest of its body plain: the one point walks every element of each turn. A sum read so is reassociated;
        an update of any other kind is a merge's (a Welford triple over a batch's planes), which the lift checks by
        running the kernel."""
        if not self.merges or statement.type != "for_statement" or self.counter(statement) is None:
            return False
        inner = self.inside(statement.child_by_field_name("body"))
        strided = [part for part in inner if part.type == "for_statement" and
                   (counted := self.counter(part)) is not None and self.squeezed(counted[1]) in self.lanes]
        if len(strided) != 1:
            return False
        header = [statement.child_by_field_name(field) for field in ("initializer", "condition", "update")]
        for part in header:
            self.plain(part)
        if any(True for _ in self.view.descendants(statement.child_by_field_name("body"), "break_statement",
                                                   "return_statement", "goto_statement")):
            raise _NotATree
        for part in inner:
            if part is strided[0]:
                self.strided_loop(part)
            else:
                self.plain(part, walked=True)
        return True

    def check_walk(self, loop: Node, counter: str, bound_read: bool = True) -> None:
        """A loop over the thread's elements walks them whole: its test is the counter against a bound read from
        no memory (`j < D`, not `j < D && x[j] > 0`, which would stop each thread at its own first failure), and its
        body never leaves it (a break or a return); its parts are plain (`plain`; the bound only where `bound_read`,
        a chunk's end being replaced)."""
        condition = loop.child_by_field_name("condition")
        if condition is None or condition.type != "binary_expression" or \
                self.text(condition.child_by_field_name("operator")) not in ("<", "<=") or \
                self.squeezed(condition.child_by_field_name("left")) != counter or \
                counter in self.names(condition.child_by_field_name("right")) or \
                any(True for _ in self.view.descendants(condition.child_by_field_name("right"), "subscript_expression",
                                                        "call_expression", "pointer_expression")) or \
                any(True for _ in self.view.descendants(loop.child_by_field_name("body"), "break_statement",
                                                        "return_statement", "goto_statement")):
            raise _NotATree
        if bound_read:
            self.plain(condition)
        self.plain(loop.child_by_field_name("body"), walked=True)

    def chunked(self) -> tuple[str, str, str] | None:
        """`T c = (n + W - 1) / W; T b = tid * c; T e = b + c; if (e > n) e = n;` (or `T e = min(b + c, n);`), n
        assigned nowhere: thread t's chunk [t * c, min((t + 1) * c, n)), the W chunks [0, n) in order. Its begin, its
        end and n; the statements recorded in `chunk_found`. None where the kernel has no such chunk."""
        values = {}
        for statement in self.statements:
            if (declared := self.declared(statement)) is not None:
                values[declared[0]] = (statement, self.squeezed(declared[1]))
        for c, (c_statement, c_value) in values.items():
            found = re.fullmatch(rf"\((.+)\+({re.escape(self.size)}-1|\w+)\)/({re.escape(self.size)}|\w+)", c_value)
            if found is None or not self.block_size(found.group(3)) or \
                    found.group(2) != f"{self.size}-1" and self.number(found.group(2)) != self.width - 1:
                continue
            bound = found.group(1)
            starts = [f"{lane}*{c}" for lane in self.lanes] + [f"{c}*{lane}" for lane in self.lanes]
            begin = next((b for b, (_, v) in values.items() if v in starts), None)
            end = next((e for e, (_, v) in values.items()
                        if begin is not None and v in (f"{begin}+{c}", f"min({begin}+{c},{bound})")), None)
            if end is None or any(self.assigned(n) in self.names_in(bound) for n in self.view.descendants()):
                continue
            clamp = f"if({end}>{bound})"
            clamps = [n for n in self.statements
                      if self.squeezed(n) in (f"{clamp}{end}={bound};", f"{clamp}{{{end}={bound};}}")]
            if values[end][1] != f"min({begin}+{c},{bound})" and len(clamps) != 1:
                continue
            self.chunk_found = dict.fromkeys([c_statement, values[begin][0], values[end][0], *clamps])
            return begin, end, bound
        return None

    def chunk_loop(self, statement: Node) -> bool:
        """`for (T i = begin; i < end; i++)` over the thread's chunk: from 0 to the bound of all chunks."""
        counted = self.counter(statement)
        if self.chunk is None or counted is None:
            return False
        begin, end, bound = self.chunk
        i = counted[0]
        condition = statement.child_by_field_name("condition")
        if self.squeezed(counted[1]) != begin:
            return False
        if self.squeezed(condition) != f"{i}<{end}" or \
                self.squeezed(statement.child_by_field_name("update")) not in (f"{i}++", f"++{i}", f"{i}+=1"):
            raise _NotATree
        self.check_walk(statement, i, bound_read=False)
        value, limit = counted[1], condition.child_by_field_name("right")
        self.found += [(value.start_byte, value.end_byte, "0"), (limit.start_byte, limit.end_byte, f"({bound})")]
        self.partitions.add("chunks")
        self.strided.append(statement)
        return True

    def guarded_walk(self, statement: Node) -> bool:
        """`if (c) for (T j = tid; ...) ...` with no else, c read by every thread alike (`k < D2`): the loop over the
        thread's elements behind its guard."""
        if statement.type != "if_statement" or statement.child_by_field_name("alternative") is not None:
            return False
        then = statement.child_by_field_name("consequence")
        inner = self.inside(then)
        if len(inner) != 1 or not (self.strided_loop(inner[0]) or self.chunk_loop(inner[0])):
            return False
        self.plain(statement.child_by_field_name("condition"))
        return True

    def lane_zero(self, statement: Node) -> bool:
        """`if (tid == 0) S` with no else: S, run once by the one point; `if (tid == 0 && c) S` (c read by every
        thread alike): `if (c) S`. S's loops adding up a deposited array (`for (int k = 0; k < W; k++) total +=
        arr[k];`) add its local instead; each array deposited must be so."""
        if statement.type != "if_statement" or statement.child_by_field_name("alternative") is not None:
            return False
        condition = statement.child_by_field_name("condition")
        tests = [test for lane in self.lanes for test in (f"{lane}==0", f"0=={lane}")]
        conjuncts = self.conjuncts(condition)
        chosen = [c for c in conjuncts if self.squeezed(c).strip("()") in tests]
        if len(chosen) != 1:
            return False
        then = statement.child_by_field_name("consequence")
        if len(conjuncts) > 1:
            for other in conjuncts:
                if other is not chosen[0]:
                    self.plain(other)
            test = chosen[0]
            while test.parent.type == "parenthesized_expression":
                test = test.parent
            both = test.parent                      # the `&&` joining the test to the rest: the rest alone
            rest = both.child_by_field_name("right" if both.child_by_field_name("left") == test else "left")
            self.found.append((both.start_byte, both.end_byte, self.text(rest)))
        inner = self.inside(then)
        added = {}
        for part in inner:
            serials = self.serial_sums(part)
            for array, _ in serials:
                added[array] = part
            if serials:
                self.found.append((part.start_byte, part.end_byte, " ".join(update for _, update in serials)))
            else:
                self.plain(part, lane_zero=True)
        if set(added) != set(self.deposited):
            raise _NotATree
        self.deposited = {}
        self.by_thread_zero.add(statement)
        if len(conjuncts) == 1:
            self.found.append((statement.start_byte, then.start_byte,
                               "\n" * self.text(statement)[:then.start_byte - statement.start_byte].count("\n")))
        return True

    def summed_by_all(self, statement: Node) -> bool:
        """`T q = v; for (T k = 0; k < NW; k++) q += sh[k];` by every thread after the barrier (an inlined
        `block_reduce_sum` helper's end): every thread's q then holds v and the block's total, the one point's q
        that of its local (`q += p;`); or seeded with the first partial, `T q = sh[0]; for (T k = 1; k < NW; k++) q =
        fmaxf(q, sh[k]);`: the one point's q is its local. The declaration is taken where the loop right after it is
        such."""
        following = statement.next_named_sibling
        if statement.type == "declaration":
            declared = self.declared(statement)
            seeded = next((array for array in self.deposited if declared is not None and self.squeezed(declared[1])
                           in [f"{array}[0]{column}" for column in self.columns]), None)
            serials = self.serial_sums(following, "1" if seeded else "0") \
                if declared is not None and following is not None else []
            serial = serials[0] if len(serials) == 1 else None
            if serial is None or seeded not in (None, serial[0]) or \
                    self.assigned(self.sole(following.child_by_field_name("body")).named_children[0]) != declared[0]:
                return False
            if seeded:
                self.found.append((declared[1].start_byte, declared[1].end_byte, self.deposited[seeded]))
                self.seeded_loops.add(following)
            else:
                self.plain(statement)
            return True
        seeded = statement in self.seeded_loops
        serials = self.serial_sums(statement, "1" if seeded else "0")
        if len(serials) != 1:
            return False
        (array, update), = serials
        self.deposited.pop(array)
        self.found.append((statement.start_byte, statement.end_byte, "" if seeded else update))
        return True

    def conjuncts(self, condition: Node) -> list[Node]:
        """The terms of a condition's `&&` chain (itself alone where it is none), parentheses taken off."""
        while condition.type in ("parenthesized_expression", "condition_clause") and condition.named_children:
            condition = condition.named_children[0]
        if condition.type == "binary_expression" and self.text(condition.child_by_field_name("operator")) == "&&":
            return self.conjuncts(condition.child_by_field_name("left")) + \
                self.conjuncts(condition.child_by_field_name("right"))
        return [condition]

    def serial_sums(self, statement: Node, start: str = "0") -> list[tuple[str, str]]:
        """`for (T k = 0; k < W; k++) q op= arr[k];` (k from `start`) over a deposited array, its kind its local's,
        or several such updates a turn (`{ I += s_inter[w]; U += s_card[w]; }`), each of its own array: each array
        and the update of its q by the array's local (`q += p;`); none where the loop is not such."""
        counted = self.counter(statement)
        if counted is None or self.squeezed(counted[1]) != start:
            return []
        k = counted[0]
        condition = self.squeezed(statement.child_by_field_name("condition"))
        body = self.inside(statement.child_by_field_name("body"))
        # `k < NW`, or `k <= NW - 1`
        bound = condition[len(k) + 2:-2] if condition.startswith(f"{k}<=") and condition.endswith("-1") else \
            condition[len(k) + 1:] if condition.startswith(f"{k}<") and not condition.startswith(f"{k}<=") else None
        if bound is None or \
                self.squeezed(statement.child_by_field_name("update")) not in (f"{k}++", f"++{k}", f"{k}+=1") or \
                not body or any(part.type != "expression_statement" or not part.named_children for part in body):
            return []
        found = []
        for part in body:
            update = part.named_children[0]
            q = self.assigned(update)
            for array, local in self.deposited.items():
                if not (self.warp_count(bound) if array in self.warp_arrays else self.block_size(bound)):
                    continue
                kinds = {self.kind_of(update, q, f"{array}[{k}]{column}") for column in self.columns} - {None} \
                    if q is not None else set()
                kind = kinds.pop() if len(kinds) == 1 else None
                if kind is not None and kind == self.update_kind(local, self.deposit_at[local]):
                    found.append((array, f"{q} += {local};" if kind == "+" else f"{q} = {kind}({q}, {local});"))
                    break
            else:
                return []
        arrays = [array for array, _ in found]
        targets = [self.assigned(part.named_children[0]) for part in body]
        return found if len(set(arrays)) == len(arrays) and len(set(targets)) == len(targets) else []

    def plain(self, node: Node, lane_zero: bool = False, walked: bool = False) -> None:
        """A statement (or a loop's part) that reads neither the thread index nor the block's size nor a barrier: its
        reads of a reduced array's `[0]` made its local; a shared scalar written only by thread 0 (`lane_zero`) and
        read by the others only after a barrier; any other mention of shared memory refused. Unless run by thread 0
        alone or `walked` (each element by one thread), every thread runs it: it may store a value to memory (the
        same value, as it reads nothing that differs between threads) but not add to it, atomically or not."""
        if not (lane_zero or walked) and any(
                n.type == "call_expression" and self.text(n.child_by_field_name("function")).startswith("atomic") or
                n.type == "assignment_expression" and self.text(n.child_by_field_name("operator")) != "=" and
                n.child_by_field_name("left").type != "identifier" or
                n.type == "update_expression" and n.child_by_field_name("argument").type != "identifier"
                for n in self.view.descendants(node)):
            raise _NotATree
        if any(self.text(n) in self.lanes | self.in_warp | self.warp_of or self.thread_read(n) or
               self.chunk is not None and self.text(n) in self.chunk[:2] or
               not lane_zero and self.text(n) in self.lane0_only
               for n in self.view.descendants(node, "identifier")):
            raise _NotATree
        for reference in self.view.descendants(node, "identifier"):
            name = self.text(reference)
            if name in self.scalars:
                if self.assigned(reference.parent) == name and lane_zero:
                    self.unsynced.add(name)
                elif self.assigned(reference.parent) == name or self.written(reference) or \
                        not lane_zero and name in self.unsynced:
                    raise _NotATree
                continue
            if name not in self.shared:
                continue
            subscript = reference
            while subscript.parent is not None and subscript.parent.type == "subscript_expression" and \
                    subscript.parent.child_by_field_name("argument") == subscript:
                subscript = subscript.parent        # `arr[0][x]`, the whole element
            if name in self.reduced and self.squeezed(subscript) in \
                    [f"{name}[0]{column}" for column in self.columns] and not self.written(subscript):
                self.found.append((subscript.start_byte, subscript.end_byte, self.reduced[name]))
                continue
            self.found.append((subscript.start_byte, subscript.end_byte, self.slot(subscript, name, lane_zero)))

    def slot(self, element: Node, array: str, lane_zero: bool) -> str:
        """An element of a shared array at a constant place past the partials it holds (`red[32]`, where a helper's
        first warp leaves the block's total for every thread): a shared scalar (`plain`), written by thread 0
        alone and read by the others only after a barrier; the one point's local, declared at the body's start."""
        index = self.squeezed(element)[len(array) + 1:-1]
        place = self.number(index) if element.type == "subscript_expression" else None
        held = self.width // 32 if array in self.warp_arrays else self.width
        if place is None or place < held or self.squeezed(element) != f"{array}[{index}]":
            raise _NotATree
        local = self.slots.get((array, place))
        if local is None and not self.written(element):
            raise _NotATree                         # read before any thread wrote it
        if local is None:
            local = fresh_name(f"{array}_{place}", {self.text(n) for n in self.view.descendants(self.view.body,
                                                                                             "identifier")})
            self.slots[(array, place)] = local
            declaration = self.shared[array]
            kind = self.text(declaration.child_by_field_name("type"))
            self.found.append((self.view.body.start_byte + 1, self.view.body.start_byte + 1, f" {kind} {local};"))
        if self.written(element):
            if not lane_zero:
                raise _NotATree
            self.unsynced.add(local)
        elif not lane_zero and local in self.unsynced:
            raise _NotATree
        return local

    # -- the whole kernel

    def check_locals(self) -> None:
        """Every local a loop over the thread's elements assigns and does not declare is deposited, and a deposited
        local is assigned only so, updated one way, from a value that is zero for a sum, and read only by its
        deposit."""
        for loop in self.strided:
            inside = {self.text(n) for n in self.view.descendants(loop, "identifier")
                      if n.parent is not None and n.parent.type in ("init_declarator", "declaration") and
                      n.parent.child_by_field_name("declarator") == n}
            for node in self.view.descendants(loop.child_by_field_name("body")):
                target = self.assigned(node)
                if target is not None and target not in inside and target not in self.locals_deposited:
                    raise _NotATree
        for local in self.locals_deposited:
            kind = self.update_kind(local, self.deposit_at[local])
            declarator = next((d for s in self.statements if s.type == "declaration" for d in s.named_children
                               if d.type == "init_declarator" and
                               self.text(d.child_by_field_name("declarator")) == local), None)
            # A merged local is updated by any code: the lift's run of the kernel judges it.
            if declarator is None or kind is None and local not in self.merged:
                raise _NotATree
            declaration = declarator.parent
            value = self.squeezed(declarator.child_by_field_name("value"))
            if kind == "+" and not _ZERO.fullmatch(value):
                raise _NotATree
            gathered_at = self.regathered.get(local)
            for mention in self.view.descendants(self.view.body, "identifier"):
                statement = self.statement_of(mention)
                if self.text(mention) != local or not self.top_level(mention, local) or statement == declaration or \
                        statement in self.dropped:
                    continue
                if gathered_at is not None and mention.start_byte >= gathered_at:
                    if local in self.taken and self.assigned(mention.parent) == local:
                        raise _NotATree             # each thread's total changed apart from the others'
                    continue                        # after its gather, the local is the block's total
                if statement not in self.walking or mention.start_byte > self.deposit_at[local]:
                    raise _NotATree                 # read beside its deposit, or updated after it

    def update_kind(self, local: str, before: int) -> str | None:
        """The one kind of update every assignment of the local before the byte `before` (its deposit) is, in the
        loops over the thread's elements (`+`, `fmaxf`, ...); None if they differ or another statement assigns it.
        (What assigns it after is `check_locals`'s to judge.)"""
        kinds = set()
        for node in self.view.descendants(self.view.body):
            if self.assigned(node) != local or not self.top_level(node, local) or \
                    self.statement_of(node) in self.dropped or node.start_byte >= before:
                continue
            if self.statement_of(node) not in self.walking:
                return None
            kinds.add(self.kind_of(node, local) or self.pair_kind(node, local))
        return kinds.pop() if len(kinds) == 1 else None

    def index_seeded(self, statement: Node) -> bool:
        """`T i = tid;`, i a pair's index (`pair_update`): each thread's index before it finds an element past the
        value's seed, of which the tree keeps the least, thread 0's: the one point's seed is 0."""
        declared = self.declared(statement)
        if declared is None or self.squeezed(declared[1]) not in self.lanes or not any(
                (pair := self.pair_update(n)) is not None and pair[2] == declared[0]
                for n in self.view.descendants(self.view.body, "if_statement")):
            return False
        self.found.append((declared[1].start_byte, declared[1].end_byte, "0"))
        return True

    def pair_update(self, statement: Node) -> tuple[str, str, str] | None:
        """`if (e > v) { v = e; i = x; }` (no else; e and x reading neither v nor i): the first maximum's value and
        index, ("argmax", v, i); `e < v` the first minimum's, ("argmin", v, i); the comparison spelled either way
        round. None for any other statement."""
        if statement is None or statement.type != "if_statement" or \
                statement.child_by_field_name("alternative") is not None:
            return None
        assignments = [n.named_children[0] if n.type == "expression_statement" and n.named_children else n
                       for n in self.inside(statement.child_by_field_name("consequence"))]
        if len(assignments) != 2 or any(a.type != "assignment_expression" or
                                        self.text(a.child_by_field_name("operator")) != "=" or
                                        self.assigned(a) is None for a in assignments):
            return None
        conjuncts = self.conjuncts(statement.child_by_field_name("condition"))
        condition = conjuncts[0]
        if len(conjuncts) != 1 or condition.type != "binary_expression":
            return None
        left, right = (self.squeezed(condition.child_by_field_name(side)) for side in ("left", "right"))
        operator = self.text(condition.child_by_field_name("operator"))
        for (v, value), (i, index) in itertools.permutations(
                [(self.assigned(a), a.child_by_field_name("right")) for a in assignments]):
            e = self.squeezed(value)
            kind = {(e, ">", v): "argmax", (v, "<", e): "argmax", (e, "<", v): "argmin", (v, ">", e): "argmin"}.get(
                (left, operator, right))
            if kind is not None and v != i and not {v, i} & (self.names(value) | self.names(index)):
                return kind, v, i
        return None

    def pair_kind(self, node: Node, local: str) -> str | None:
        """The kind of a pair's update (`pair_update`) an assignment of one of its locals is part of, naming both
        locals (so that the value's and the index's kinds are alike only as the same pair's)."""
        statement = node.parent.parent if node.parent is not None and node.parent.type == "expression_statement" \
            else None
        if statement is not None and statement.type == "compound_statement":
            statement = statement.parent
        pair = self.pair_update(statement)
        return f"{pair[0]}:{pair[1]}:{pair[2]}" if pair is not None and local in pair[1:] else None

    def kind_of(self, node: Node, local: str, operand: str | None = None) -> str | None:
        """The kind of update an assignment of the local is: `+` for `p += e` and `p = p + e`, the function's for
        `p = fmaxf(p, e)` and its like (e not reading p, and spelled `operand` where given); None for any other."""
        if node.type != "assignment_expression":
            return None
        operator, right = self.text(node.child_by_field_name("operator")), node.child_by_field_name("right")
        if operator == "+=":
            return "+" if local not in self.names(right) and \
                operand in (None, self.squeezed(unparenthesized(right))) else None
        if operator != "=":
            return None
        if (selected := self.selection(right, local)) is not None:
            return selected[0] if local not in self.names_in(selected[1]) and operand in (None, selected[1]) \
                else None
        if right.type == "binary_expression" and self.text(right.child_by_field_name("operator")) == "+":
            kind, operands = "+", [right.child_by_field_name("left"), right.child_by_field_name("right")]
        elif right.type == "call_expression" and self.text(right.child_by_field_name("function")) in _UPDATES:
            kind = _UPDATES[self.text(right.child_by_field_name("function"))]
            operands = right.child_by_field_name("arguments").named_children
        else:
            return None
        if len(operands) == 2 and sum(self.text(o) == local for o in operands) == 1 and \
                sum(local in self.names(o) for o in operands) == 1 and \
                operand in (None, *(self.squeezed(o) for o in operands if self.text(o) != local)):
            return kind
        return None

    def check_memory(self) -> None:
        """Memory the kernel writes is read only at an element spelled as one of its writes (its index reading no
        local of a loop's body), in the loops over the thread's elements; memory written elsewhere is not read, but
        by thread 0 where thread 0 alone writes it (a running mean updated in place: the one point's code is thread
        0's, in its order)."""
        bases = {p.name: p.name for p in self.view.kernel.params}
        for statement in self.statements:
            for declarator in (d for d in statement.named_children if d.type == "init_declarator"
                               and statement.type == "declaration"):
                target, value = declarator.child_by_field_name("declarator"), declarator.child_by_field_name("value")
                names = [self.text(n) for n in self.view.descendants(value, "identifier")]
                if target.type == "pointer_declarator" and names and names[0] in bases:
                    bases[self.text(target.child_by_field_name("declarator"))] = bases[names[0]]
        writes: dict[str, set[str]] = {}
        written_outside: set[str] = set()
        written_by_all: set[str] = set()
        loop_locals = {self.text(n) for loop in self.strided
                       for n in self.view.descendants(loop.child_by_field_name("body"), "identifier")
                       if n.parent is not None and (n.parent.type == "declaration" or
                                                    n.parent.type == "init_declarator" and
                                                    n.parent.child_by_field_name("declarator") == n)}
        for node in self.view.descendants(self.view.body, "subscript_expression"):
            base = bases.get(self.text(node.child_by_field_name("argument")))
            if base is not None and self.written(node):
                writes.setdefault(base, set()).add(self.squeezed(node))
                if self.statement_of(node) not in self.walking:
                    written_outside.add(base)
                if self.statement_of(node) not in self.by_thread_zero:
                    written_by_all.add(base)
        for node in self.view.descendants(self.view.body, "subscript_expression", "identifier"):
            base = bases.get(self.text(node.child_by_field_name("argument")) if node.type == "subscript_expression"
                             else self.text(node))
            if base not in writes or (node.type == "subscript_expression" and self.written(node)):
                continue
            if node.type == "identifier" and node.parent is not None and node.parent.type == "subscript_expression" \
                    and node.parent.child_by_field_name("argument") == node:
                continue                            # the subscript itself is judged
            if node.type == "identifier" and node.parent is not None and node.parent.type in (
                    "init_declarator", "pointer_declarator") or self.declares_pointer(node):
                continue                            # a pointer local declared from it
            if node.type == "subscript_expression" and base not in written_by_all and \
                    self.statement_of(node) in self.by_thread_zero:
                continue                            # thread 0's alone
            if node.type != "subscript_expression" or base in written_outside or \
                    self.squeezed(node) not in writes[base] or self.statement_of(node) not in self.walking or \
                    len(self.partitions) > 1 or self.names(node.child_by_field_name("indices")) & loop_locals:
                raise _NotATree                     # (`y[k]`, k a loop's local, may be another element each time)

    # -- helpers

    def top_level(self, node: Node, name: str) -> bool:
        """Whether `name` at the node is the kernel body's own local, not one a loop or a block around the node
        declares (a tree's `s` beside a partial named `s`)."""
        child, parent = node, node.parent
        while parent is not None and parent != self.view.body:
            declared = [parent.child_by_field_name("initializer")] if parent.type == "for_statement" else \
                [c for c in parent.named_children if c.start_byte < child.start_byte] \
                if parent.type == "compound_statement" else []
            if any(self.text(d.child_by_field_name("declarator")).lstrip("*& ") == name
                   for part in declared if part is not None and part.type == "declaration"
                   for d in [part, *self.view.descendants(part, "init_declarator")]
                   if d.child_by_field_name("declarator") is not None and d.type == "init_declarator"):
                return False
            child, parent = parent, parent.parent
        return True

    def declares_pointer(self, node: Node) -> bool:
        declarator = node.parent
        while declarator is not None and declarator.type not in ("init_declarator", "compound_statement"):
            declarator = declarator.parent
        return declarator is not None and declarator.type == "init_declarator" and \
            declarator.child_by_field_name("declarator").type == "pointer_declarator" and \
            declarator.parent is not None and declarator.parent.parent == self.view.body

    def inside(self, node: Node) -> list[Node]:
        """The statements of a block, comments left out, or the one statement a loop or a branch has instead."""
        return [n for n in node.named_children if n.type != "comment"] if node.type == "compound_statement" \
            else [node]

    def sole(self, node: Node) -> Node:
        """A block's one statement, or the node itself (a statement, or a block of several)."""
        inner = self.inside(node)
        return inner[0] if len(inner) == 1 else node

    def declared(self, statement: Node | None) -> tuple[str, Node] | None:
        """`T name = value;` declaring one plain name: the name and the value's node."""
        declarators = [d for d in statement.named_children if d.type == "init_declarator"] \
            if statement is not None and statement.type == "declaration" else []
        if len(declarators) != 1 or declarators[0].child_by_field_name("declarator").type != "identifier":
            return None
        return self.text(declarators[0].child_by_field_name("declarator")), declarators[0].child_by_field_name("value")

    def counter(self, statement: Node) -> tuple[str, Node] | None:
        """`for (T name = value; ...)`: the counter's name and its start's node."""
        return self.declared(statement.child_by_field_name("initializer")) if statement.type == "for_statement" \
            else None

    def thread_read(self, identifier: Node) -> bool:
        """Whether an identifier is a barrier or a warp intrinsic (those the fold reads are gone before `plain`), or
        reads the thread's index or the block's size along the reduced dimension (along x, any: the block has no
        other, unless its rows are kept)."""
        field = identifier.parent.child_by_field_name("field") if identifier.parent is not None and \
            identifier.parent.type == "field_expression" else None
        return self.text(identifier) == "__syncthreads" or self.text(identifier).startswith(("__shfl", "__syncwarp")) \
            or field is not None and \
            self.text(identifier) in ("threadIdx", "blockDim") and \
            (self.dim == "x" and not self.rows_kept or self.text(field) == self.dim)

    def lane_element(self, node: Node) -> str | None:
        """`arr[tid]` (`arr[tid][x]` along y) of a shared array: arr."""
        if node.type != "subscript_expression":
            return None
        base = node
        while base.type == "subscript_expression":
            base = base.child_by_field_name("argument")
        array = self.text(base)
        index = self.squeezed(node)[len(array):]
        return array if array in self.shared and index in [f"[{lane}]{column}" for lane in self.lanes
                                                            for column in self.columns] else None

    def written(self, node: Node) -> bool:
        """Whether the node is written: assigned, incremented, or an atomic's target."""
        parent = node.parent
        if parent is not None and parent.type == "assignment_expression":
            return parent.child_by_field_name("left") == node
        if parent is not None and parent.type == "update_expression":
            return True
        if parent is not None and parent.type == "pointer_expression" and self.text(parent).startswith("&"):
            return True
        return False

    def assigned(self, node: Node) -> str | None:
        """The name a node assigns (`x = e`, `x += e`, `x++`), None if it assigns no name."""
        if node.type == "assignment_expression" and node.child_by_field_name("left").type == "identifier":
            return self.text(node.child_by_field_name("left"))
        if node.type == "update_expression" and node.child_by_field_name("argument").type == "identifier":
            return self.text(node.child_by_field_name("argument"))
        return None


    def statement_of(self, node: Node) -> Node | None:
        """The kernel body's own statement holding the node."""
        while node is not None and node.parent != self.view.body:
            node = node.parent
        return node

    def block_size(self, written: str) -> bool:
        return written == self.size or self.number(written) == self.width

    def number(self, written: str) -> int | None:
        """The value of a number, or a `#define` of one, or either halved (`BLOCK / 2`, `256 >> 1`), or integer
        arithmetic of those (`#define WARPS (THREADS / 32)`); None for any other text."""
        expanded = macros_expanded(written, self.macros)
        found = _HALF.fullmatch(expanded.replace(" ", ""))
        if found is not None:
            value = int(found.group(1))
            return value if found.group(2) is None else value // 2
        return integer_value(expanded)

    def names_in(self, written: str) -> set[str]:
        return set(re.findall(r"[A-Za-z_]\w*", written))

    def names(self, node: Node) -> set[str]:
        return {self.text(n) for n in self.view.descendants(node, "identifier")}

    def squeezed(self, node: Node | None) -> str:
        return re.sub(r"\s+", "", self.text(node)) if node is not None else ""

    def text(self, node: Node | None) -> str:
        return self.view.text(node) if node is not None else ""

    def drop(self, statement: Node) -> None:
        self.dropped.add(statement)
        self.found.append((statement.start_byte, statement.end_byte, "\n" * self.text(statement).count("\n")))
