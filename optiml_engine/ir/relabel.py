"""A block's threads relabelled, a rewrite of the kernel's text for the lift alone (lift.py), where the threads no
longer share anything (no shared memory, barrier or warp intrinsic: what staged_tiles.py leaves of a tiled
transpose, or a kernel written so): any thread may then run any of the kernel's points, and the lift's index model
(`blockIdx.d * blockDim.d + threadIdx.d`) may read them once relabelled.

- `threads_uncoarsened`: a block of S threads along d each running C / S turns of `for (int j = 0; j < C; j += S)`
  (the CUDA samples' transpose: 32 x 8 threads, four rows each) is a block of C threads along d running one turn
  each, thread t + j doing what thread t did at turn j (the counter read as 0): exact where the loop's body at
  thread t and turn j is its body at thread t + j and turn 0, which is checked (the body's reduced text,
  `kernel_values.py`, at sampled threads and turns under random numbers for the other names), the loop the kernel's
  last statement and declarations alone before it, and the kernel reads no `blockDim.d` (which changes).
- `threads_transposed`: threadIdx.x and threadIdx.y swapped, blockDim.x and blockDim.y too, and the launch's block
  with them: the same threads, each named by the other coordinates (a tile's row read along the block's x).
"""

from __future__ import annotations

import random
import re

from optiml_engine.ir.kernel_values import KernelValues, NotRead, RandomNames, Unknown
from optiml_engine.model import Candidate
from optiml_engine.policies.kernel_view import KernelView, derived
from optiml_engine.source.contract import resolve

_SAMPLES = 128          # (thread, turn) pairs the loop's body is compared at
_SHARING = re.compile(r"__shared__|__syncthreads|__shfl|__ballot|__any_sync|__all_sync|__activemask|\bwarpSize\b")


def threads_uncoarsened(candidate: Candidate) -> Candidate:
    """The kernel with its threads' turns made threads of their own (the module's docstring); the candidate itself
    where it is not such a kernel."""
    view = KernelView.of(candidate)
    block = _block(candidate, view)
    if block is None:
        return candidate
    # An empty statement is a line another rewrite kept where it took a declaration out (`;`).
    statements = [s for s in view.body.named_children
                  if s.type != "comment" and not (s.type == "expression_statement" and not s.named_children)]
    if not statements or statements[-1].type != "for_statement" or \
            any(s.type != "declaration" or any(view.descendants(s, "call_expression")) for s in statements[:-1]):
        return candidate
    loop = statements[-1]
    values = KernelValues(view, block)
    try:
        return _uncoarsened(candidate, view, values, loop, block)
    except (NotRead, Unknown):
        return candidate


def _uncoarsened(candidate: Candidate, view: KernelView, values: KernelValues, loop, block) -> Candidate:
    counter = values.loop_counter(loop)
    scope, _, _ = values.scope_before(loop)
    inner = scope.child()
    inner.values.pop(counter, None)
    turns = values.turns([(counter, loop)], scope, dict(values.constants))
    dims = [d for d, extent in zip("xyz", block) if extent > 1 and
            [t[counter] for t in turns] == list(range(0, extent * len(turns), extent))]
    if len(turns) < 2 or len(dims) != 1:
        raise NotRead                   # no turns of the block's extent along one dimension
    dim = dims[0]
    extent = block["xyz".index(dim)]
    if re.search(rf"\bblockDim\s*\.\s*{dim}\b", view.text(view.body)):
        raise NotRead                   # the block's extent along d is read, and it changes
    if block[0] * block[1] * block[2] * len(turns) > 1024:
        raise NotRead                   # more threads than a block holds
    body = loop.child_by_field_name("body")
    pairs = [(thread, turn) for thread in values.threads for turn in turns]
    draw = random.Random(0)
    for seed in range(3):
        for thread, turn in draw.sample(pairs, min(_SAMPLES, len(pairs))):
            joined = thread | {f"threadIdx.{dim}": thread[f"threadIdx.{dim}"] + turn[counter], counter: 0}
            if values.reduced(body, inner, RandomNames(seed, thread | turn | values.constants)) != \
                    values.reduced(body, inner, RandomNames(seed, joined | values.constants)):
                raise NotRead           # the body reads its thread and its turn apart
    # The one turn is the first: the counter read as 0, `e + j` and `e - j` as e (the lift reads `i < n` as a bound,
    # not `i + 0 < n`).
    replacements = [(loop.start_byte, body.start_byte, "")]
    if body.type == "compound_statement" and not _declared(values, body) & _declared(values, view.body):
        # The body's statements the kernel's own (its guard then the points' bounds), where no name clashes.
        replacements += [(body.start_byte, body.start_byte + 1, ""), (body.end_byte - 1, body.end_byte, "")]
    for name in view.descendants(body, "identifier"):
        if view.text(name) != counter:
            continue
        parent = name.parent
        operator = view.text(parent.child_by_field_name("operator")) if parent.type == "binary_expression" else ""
        if operator == "+" or operator == "-" and parent.child_by_field_name("right") == name:
            other = parent.child_by_field_name("left" if parent.child_by_field_name("right") == name else "right")
            replacements.append((parent.start_byte, parent.end_byte, f"({view.text(other)})"))
        else:
            replacements.append((name.start_byte, name.end_byte, "0"))
    launch = candidate.contract.launch
    sizes = [str(n) for n in block]
    sizes["xyz".index(dim)] = str(extent * len(turns))
    try:
        text = view.replaced(replacements)
    except ValueError:
        raise NotRead from None         # the counter read inside a sum with itself (`j * 2 + j`)
    return derived(candidate, text, candidate.description,
                   launch.model_copy(update={"block": sizes[:max(len(launch.block), "xyz".index(dim) + 1)]}))


def _declared(values: KernelValues, block) -> set[str]:
    """The names a block's own statements declare."""
    return {name for statement in block.named_children if statement.type == "declaration"
            for name in values.declared_names(statement)}


def threads_transposed(candidate: Candidate) -> Candidate:
    """The kernel with its threads' x and y swapped (the module's docstring); the candidate itself where its threads
    share anything or its block is not the same at every contract size."""
    block = _block(candidate, KernelView.of(candidate))
    if block is None:
        return candidate
    swapped = re.sub(r"\b(threadIdx|blockDim)\s*\.\s*([xy])\b",
                     lambda m: f"{m.group(1)}.{'y' if m.group(2) == 'x' else 'x'}", candidate.unit.text)
    launch = candidate.contract.launch
    sizes = [str(block[1]), str(block[0])] + ([str(block[2])] if block[2] > 1 else [])
    launch = launch.model_copy(update={"block": sizes})
    return _indices_named(derived(candidate, swapped, candidate.description, launch))


def _indices_named(candidate: Candidate) -> Candidate:
    """An index's value spelled out again in the kernel (`(blockIdx.y * 32 + (threadIdx.y))` where `int r =
    blockIdx.y * 32 + threadIdx.y;` is declared once and never assigned, as a staged tile's read spells it) read as
    the index's name: the lift reads thread and block indices only in an index's definition."""
    view = KernelView.of(candidate)
    values: dict[str, tuple[str, int]] = {}     # an index's value, squeezed -> its name, where its declaration ends
    assigned = {view.text(n.child_by_field_name("left")) for n in view.descendants(view.body, "assignment_expression")}
    for statement in view.body.named_children:
        declarators = statement.children_by_field_name("declarator") if statement.type == "declaration" else []
        for declarator in declarators:
            value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
            name = view.text(declarator.child_by_field_name("declarator")) if value is not None else None
            if name is not None and name not in assigned and "threadIdx" in view.text(value):
                values.setdefault(_squeezed(view.text(value)), (name, statement.end_byte))
    replacements = []
    for node in view.descendants(view.body, "parenthesized_expression"):
        name, declared = values.get(_squeezed(view.text(node)[1:-1]), (None, 0))
        if name is not None and node.start_byte > declared and \
                not any(start <= node.start_byte < end for start, end, _ in replacements):
            replacements.append((node.start_byte, node.end_byte, name))
    return derived(candidate, view.replaced(replacements), candidate.description) if replacements else candidate


def _squeezed(text: str) -> str:
    """The text without spaces and without parentheses around a single name or number."""
    text = text.replace(" ", "")
    while (bare := re.sub(r"\(([\w.]+)\)", r"\1", text)) != text:
        text = bare
    return text


def _block(candidate: Candidate, view: KernelView) -> tuple[int, int, int] | None:
    """The launch's block where it is the same at every contract size and the kernel's threads share nothing (its
    helpers' neither: the unit's code, comments aside)."""
    if _SHARING.search(view.text(view.body)) or \
            _SHARING.search(re.sub(r"//[^\n]*|/\*.*?\*/", "", candidate.unit.text, flags=re.S)):
        return None
    contract = candidate.contract
    blocks = {tuple(launch.block) + (1,) * (3 - len(launch.block))
              for launch in (resolve(contract, binding) for binding in [contract.sizes, *contract.checks])}
    return blocks.pop() if len(blocks) == 1 else None
