"""Contract inference: an @optiml block for a kernel that has none, that runs as written (`optiml kernels FILE
--contract`, the editor's "Add benchmark contract").

What is read from where:
- the launch's dimensionality and extents, statically: the thread indices the kernel uses (`blockIdx.d *
  blockDim.d + threadIdx.d`, `blockIdx.d * TILE + threadIdx.d`, `blockIdx.d` alone, a grid-stride loop) and the
  guard that bounds each (`if (i < n)`, `if (r >= rows) return;`, `warp < rows` with `warp = gid / 32`); the block
  from `__launch_bounds__`, shared-memory tiles (`__shared__ float t[TILE][TILE+1]` with threadIdx.y: TILE x TILE),
  the constant a global index multiplies blockIdx by, otherwise 256 threads (16 x 16 in two dimensions). A launch
  site in the file that translates wins over all of that.
- array lengths and directions, dynamically: the kernel runs on the CPU emulator (gpu/emulate.py) at many small
  sizes with every memory access wrapped to mark the elements it reads and writes; each array's length is the
  polynomial in the size parameters (degree <= 3, integer coefficients) that its largest touched index + 1 fits
  exactly at every size. An array written everywhere and never read is `out`; written in part, or read and written,
  `inout`; never written, `in`.
- sizes and scalar values: the file's launch sites (literals, or host variables initialized with literals in the
  calling function), otherwise defaults that make the largest array about 2^24 elements.

What could not be inferred is written anyway, marked `# adjust: <why>`; everything else is unmarked. The run on
the CPU happens in a child process: a kernel that crashes or hangs there costs a fallback, never the caller.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import itertools
import math
import multiprocessing
import random
import re
from collections.abc import Callable

import numpy as np
from tree_sitter import Node

from optiml_engine.model import Comment, Kernel, LaunchSite, Location, OptimlError
from optiml_engine.policies.kernel_view import KernelView, bare, builtin_dim, unparenthesized
from optiml_engine.source.contract import parse_contract, split_ranges
from optiml_engine.source.ctypes import dtype_of, is_float, is_integer
from optiml_engine.source.expr import Binary, Call, Expr, Name, Neg, Num, parse_expr

DIMS = ("x", "y", "z")
DEFAULT_BLOCK = {1: (256,), 2: (16, 16), 3: (8, 8, 4)}
TARGET_ELEMENTS = 2 ** 24        # the largest array at the default sizes
TARGET_WORK = 2 ** 30            # the product of all size symbols at the default sizes
DEFAULT_FLOAT = "0.5"            # a float scalar's value: a threshold inside the inputs' range, a mild scale
SHRINKING_SIZE = 15              # a size that only shortens a length: a filter's taps
PROBE_SAMPLES = 24               # size bindings the kernel runs at on the CPU
PROBE_RANGES = ((5, 29), (32, 96))   # small sizes first; multiples of 32 when a kernel assumes whole tiles
PROBE_TIMEOUT_S = 120.0
_MAX_DEGREE = 3
_NOWHERE = Location(file="<inferred>", line=1, column=1)
_IDENT = r"[A-Za-z_]\w*"


@dataclasses.dataclass
class _Line:
    key: str
    value: str
    why: str = ""        # non-empty: marked `# adjust: why`


# ---------------------------------------------------------------------------------------------------------------
# The launch, statically


class _LaunchReader:
    """The launch a kernel's thread indices and guards imply, in contract terms (size parameters by name)."""

    def __init__(self, view: KernelView, symbols: list[str], constants: dict[str, int]):
        self.view, self.symbols, self.constants = view, symbols, constants
        self.definitions = self._definitions()
        text = view.text(view.body)
        self.used = [d for d in DIMS if re.search(rf"\b(?:threadIdx|blockIdx)\s*\.\s*{d}\b", text)]
        self.threads_used = {d for d in DIMS if re.search(rf"\bthreadIdx\s*\.\s*{d}\b", text)}
        self.blocks_used = {d for d in DIMS if re.search(rf"\bblockIdx\s*\.\s*{d}\b", text)}

    def _definitions(self) -> dict[str, Node]:
        """Each local's initializer (its first declaration), and the loop variables' initializers."""
        found: dict[str, Node] = {}
        for node in self.view.descendants(None, "init_declarator"):
            name = node.child_by_field_name("declarator")
            value = node.child_by_field_name("value")
            if name is not None and name.type == "identifier" and value is not None:
                found.setdefault(self.view.text(name), value)
        return found

    def mentions(self, node: Node, builtin: str, dim: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether `node` depends on `builtin.dim`, through locals too."""
        for child in self.view.descendants(node, "field_expression", "identifier"):
            if child.type == "field_expression" and builtin_dim(child, builtin) == dim:
                return True
            name = self.view.text(child)
            if child.type == "identifier" and name in self.definitions and name not in seen and \
                    (child.parent is None or child.parent.type != "field_expression"):
                if self.mentions(self.definitions[name], builtin, dim, seen | {name}):
                    return True
        return False

    def constant(self, node: Node) -> int | None:
        node = bare(node)
        text = self.view.text(node).strip()
        if re.fullmatch(r"\d+[uUlL]*", text):
            return int(re.sub(r"[uUlL]+$", "", text))
        return self.constants.get(text)

    def per_thread(self, node: Node, dim: str) -> tuple[str, int] | None:
        """How a value derived from the dimension's indices relates to threads: ('global', c) when it is the global
        thread index divided by c (c = 1: the index itself), ('block', c) when it is blockIdx times c; None when it
        is neither."""
        node = bare(node)
        if node.type == "identifier" and self.view.text(node) in self.definitions:
            return self.per_thread(self.definitions[self.view.text(node)], dim)
        if node.type == "binary_expression":
            op = node.child_by_field_name("operator").type
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if op in ("/", ">>") and (c := self.constant(right)) is not None and c > 0:
                inner = self.per_thread(left, dim)
                divisor = c if op == "/" else 2 ** c
                if inner is not None and inner[0] == "global":
                    return "global", inner[1] * divisor
                return None
            if op == "+" and self.mentions(node, "threadIdx", dim) and self.mentions(node, "blockIdx", dim):
                return "global", 1
            if op == "*" and not self.mentions(node, "threadIdx", dim):
                for block, factor in ((left, right), (right, left)):
                    if builtin_dim(block, "blockIdx") == dim and (c := self.constant(factor)) is not None:
                        return "block", c
        if node.type == "field_expression" and builtin_dim(node, "blockIdx") == dim:
            return "block", 1
        return None

    def tile(self, dim: str) -> int | None:
        """The constant T of `blockIdx.d * T + threadIdx.d` when a global index is written that way."""
        for value in self.definitions.values():
            value = bare(value)
            if value.type != "binary_expression" or value.child_by_field_name("operator").type != "+":
                continue
            for product in (value.child_by_field_name("left"), value.child_by_field_name("right")):
                product = bare(product)
                if product.type == "binary_expression" and product.child_by_field_name("operator").type == "*":
                    a, b = product.child_by_field_name("left"), product.child_by_field_name("right")
                    for block, factor in ((a, b), (b, a)):
                        if builtin_dim(block, "blockIdx") == dim and (c := self.constant(factor)) is not None:
                            return c
        return None

    def bound(self, dim: str) -> tuple[str, int, str] | None:
        """(kind, per, bound): the first comparison of a value derived from the dimension's block index with an
        expression of size parameters only, as the number of those values the launch must cover."""
        for node in self.view.descendants(None, "binary_expression"):
            op = node.child_by_field_name("operator").type
            if op not in ("<", "<=", ">", ">="):
                continue
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            for index, limit, inclusive in ((left, right, op in ("<=", ">")), (right, left, op in (">=", "<"))):
                if not self.mentions(index, "blockIdx", dim) or self.mentions(limit, "blockIdx", dim) or \
                        self.mentions(limit, "threadIdx", dim):
                    continue
                relation = self.per_thread(index, dim)
                limit_text = self.contract_expr(limit)
                if relation is None or limit_text is None or not re.search(_IDENT, limit_text):
                    continue     # not an index against sizes, or a lower bound (`x > 0`)
                return relation[0], relation[1], f"{limit_text}+1" if inclusive else limit_text
        return None

    def extents(self) -> list[str]:
        """What each used dimension's guard bounds its index by."""
        return [found[2] for dim in self.used if (found := self.bound(dim)) is not None]

    def parsed(self, text: str) -> Expr | None:
        """A C expression as a contract expression, the file's constants put in and integer casts dropped; None
        when the contract's expressions cannot say it."""
        for name, value in self.constants.items():
            text = re.sub(rf"\b{name}\b", str(value), text)
        text = re.sub(r"\(\s*(?:size_t|int|long|unsigned|long long|unsigned int|int64_t)\s*\)", "", text)
        try:
            return parse_expr(text, _NOWHERE)
        except OptimlError:
            return None

    def contract_expr(self, node: Node) -> str | None:
        """A C expression of size parameters and constants as a contract expression, or None."""
        tree = self.parsed(self.substituted(self.view.text(node), frozenset()))
        return str(tree) if tree is not None and tree.symbols() <= set(self.symbols) else None

    def substituted(self, text: str, seen: frozenset[str]) -> str:
        """`text` with each local replaced by its initializer (`n_out` by `(n - K + 1)`), recursively."""
        def local(match: re.Match) -> str:
            name = match.group()
            if name not in self.definitions or name in seen:
                return name
            return f"({self.substituted(self.view.text(self.definitions[name]), seen | {name})})"
        return re.sub(_IDENT, local, text)

    def shared_tile(self) -> tuple[int, ...] | None:
        """The extents of the kernel's shared arrays of constant size: (n,) or (rows, cols) with padding dropped."""
        for node in self.view.descendants(None, "declaration"):
            if "__shared__" not in self.view.text(node).split("[")[0]:
                continue
            sizes = [self.constant_text(m) for m in re.findall(r"\[([^\]]*)\]", self.view.text(node))]
            if sizes and all(s is not None for s in sizes):
                if len(sizes) == 2 and sizes[1] in (sizes[0], sizes[0] + 1):
                    return sizes[0], sizes[0]
                return tuple(sizes)
        return None

    def constant_text(self, text: str) -> int | None:
        tree = self.parsed(text)
        return int(tree.evaluate({})) if tree is not None and not tree.symbols() else None

    def block(self) -> tuple[int, ...]:
        dims = len(self.used)
        if dims == 0:
            return (1,)
        bounds = self.view.kernel.launch_bounds
        tile = self.shared_tile()
        defaults = iter(DEFAULT_BLOCK.get(len(self.threads_used), (1,)))
        block = [next(defaults) if dim in self.threads_used else 1 for dim in self.used]
        for i, dim in enumerate(self.used):
            if dim in self.threads_used and (t := self.tile(dim)) is not None and t <= 1024:
                block[i] = t
        if len(self.threads_used) == 1:
            i = self.used.index(next(iter(self.threads_used)))
            if bounds is not None and bounds.split(",")[0].strip().isdigit():
                block[i] = int(bounds.split(",")[0])
            elif tile is not None and len(tile) == 1 and 32 <= tile[0] <= 1024 and self.tile(self.used[i]) is None:
                block[i] = tile[0]
        elif len(self.threads_used) == 2 and dims == 2 and tile is not None and len(tile) == 2 and all(self.tile(d) is None for d in self.used):
            block = [tile[1], tile[0]]
        return tuple(block)

    def launch(self, unused: list[str]) -> tuple[str, str]:
        """(launch value, why it needs adjusting or '')."""
        block = self.block()
        if not self.used:
            return "grid=1 block=1", ""
        grid, unsure = [], []
        spare = list(unused)
        for dim, threads in zip(self.used, block):
            found = self.bound(dim)
            grid_stride = self.grid_stride_bound(dim)
            if found is not None and found[0] == "global":
                count = found[2] if found[1] == 1 else f"({found[2]})*{found[1]}"
                grid.append(f"cdiv({count},{threads})" if threads > 1 else count)
            elif found is not None:
                grid.append(found[2] if found[1] == 1 else f"cdiv({found[2]},{found[1]})")
            elif grid_stride is not None:
                grid.append(f"cdiv({grid_stride},{threads})")
            elif dim in self.blocks_used and spare:
                # No guard on this block index: a size the kernel never reads is the number of blocks it means.
                grid.append(spare.pop(0))
            elif dim in self.blocks_used:
                grid.append("1")
                unsure.append(f"no guard bounds blockIdx.{dim}")
            else:
                grid.append("1")
        def dims(values: list) -> str:
            return str(values[0]) if len(values) == 1 else "(" + ",".join(str(v) for v in values) + ")"
        return f"grid={dims(grid)} block={dims(list(block))}", "; ".join(unsure)

    def grid_stride_bound(self, dim: str) -> str | None:
        for loop in self.view.descendants(None, "for_statement"):
            update = loop.child_by_field_name("update")
            condition = loop.child_by_field_name("condition")
            if update is None or condition is None or not re.search(rf"\bgridDim\s*\.\s*{dim}\b",
                                                                     self.view.text(update)):
                continue
            condition = unparenthesized(condition)
            if condition.type == "binary_expression" and condition.child_by_field_name("operator").type == "<":
                return self.contract_expr(condition.child_by_field_name("right"))
        return None


# ---------------------------------------------------------------------------------------------------------------
# Accesses, on the CPU


ATOMIC_UPDATE = 7       # read, write and atomic (emulate.TRACE_*)
ACCUMULATOR = "accumulator"     # a direction of its own here: inout, zeroed before each run
# Float atomics add in an order that changes from run to run: the error grows with the number of terms.
ATOMIC_TOLERANCE = "1e-2"


def access_kind(view: KernelView, node: Node) -> int:
    """The kinds of access (emulate.TRACE_*: 1 read, 2 write, 4 atomic update, or-ed), 0 when only the address is
    taken (a pointer alias: its own accesses are traced)."""
    child, parent = node, node.parent
    while parent is not None and (parent.type in ("parenthesized_expression", "field_expression")
                                  and (parent.type != "field_expression" or parent.child_by_field_name("argument") == child)):
        child, parent = parent, parent.parent
    if parent is None:
        return 1
    if parent.type == "assignment_expression" and parent.child_by_field_name("left") == child:
        return 2 if view.text(parent.child_by_field_name("operator")) == "=" else 3
    if parent.type == "update_expression":
        return 3
    if parent.type == "pointer_expression" and view.text(parent.child_by_field_name("operator")) == "&":
        call = parent.parent.parent if parent.parent is not None else None
        if call is not None and call.type == "call_expression" and \
                view.text(call.child_by_field_name("function")).startswith("atomic"):
            return ATOMIC_UPDATE
        return 0
    return 1


def traced_text(view: KernelView) -> str:
    """The document's text with every memory access of the kernel wrapped in `::optiml::touch(access, kind)`."""
    source = view.source

    def is_access(node: Node) -> bool:
        if node.type == "subscript_expression":
            parent = node.parent
            return not (parent is not None and parent.type == "subscript_expression"
                        and parent.child_by_field_name("argument") == node)
        return node.type == "pointer_expression" and view.text(node.child_by_field_name("operator")) == "*" and \
            node.parent is not None and node.parent.type not in ("declaration", "init_declarator", "parameter_declaration",
                                                                 "pointer_declarator")

    def is_atomic_address(node: Node) -> bool:
        """The address an atomic updates, when not written `&a[i]` (whose subscript is traced)."""
        arguments = node.parent
        call = arguments.parent if arguments is not None else None
        return call is not None and call.type == "call_expression" and arguments.type == "argument_list" and \
            view.text(call.child_by_field_name("function")).startswith("atomic") and \
            arguments.named_children[0] == node and not (
                node.type == "pointer_expression" and view.text(node.child_by_field_name("operator")) == "&")

    def render(node: Node) -> str:
        pieces, cursor = [], node.start_byte
        for child in node.children:
            pieces += [source[cursor:child.start_byte].decode(), render(child)]
            cursor = child.end_byte
        pieces.append(source[cursor:node.end_byte].decode())
        text = "".join(pieces)
        if is_access(node):
            return f"::optiml::touch({text}, {access_kind(view, node)})"
        if is_atomic_address(node):
            return f"&::optiml::touch(*({text}), {ATOMIC_UPDATE})"
        return text

    body = view.body
    return source[:body.start_byte].decode() + render(body) + source[body.end_byte:].decode()


@dataclasses.dataclass
class _Trace:
    binding: dict[str, int]
    highest: dict[str, int]          # the largest index touched + 1 (0: untouched)
    read: dict[str, bool]
    written: dict[str, bool]
    covered: dict[str, int]          # elements written below `highest`
    accumulated: dict[str, bool]     # written, and only by atomic updates


def _probe_contract(kernel: Kernel, lines: list[_Line], symbols: list[str], samples: list[dict[str, int]],
                    probe_length: int) -> str:
    """The contract the traced run uses: every array `probe_length` long, sizes at the first sample, the others
    as checks."""
    def binding(sample: dict[str, int]) -> str:
        return " ".join(f"{s}={sample[s]}" for s in symbols)

    body = [_Line("sizes", binding(samples[0]))] if symbols else []
    body += [_Line("check", "; ".join(binding(s) for s in samples[1:]))] if symbols and len(samples) > 1 else []
    for line in lines:
        if line.key in ("sizes", "check"):
            continue
        if line.key in {p.name for p in kernel.params if p.is_pointer}:
            param = next(p for p in kernel.params if p.name == line.key)
            element = line.value.split(None, 1)[1].split("[")[0]
            body.append(_Line(line.key, f"{'in' if param.is_const else 'inout'} {element}[{probe_length}]"))
        else:
            body.append(line)
    return block_text(body)


def _trace_all(text: str, path: str, kernel_name: str, contract_text: str, arrays: list[str]) -> list[_Trace] | str:
    """In the child process: the traces at the contract's sizes and checks, or why there are none (as text: an
    exception need not survive the trip between processes)."""
    try:
        return _traces(text, path, kernel_name, contract_text, arrays)
    except OptimlError as error:
        return error.message
    except Exception as error:  # noqa: BLE001 - any failure of the run is a reason to fall back, said
        return f"{type(error).__name__}: {error}"


def _traces(text: str, path: str, kernel_name: str, contract_text: str, arrays: list[str]) -> list[_Trace]:
    from optiml_engine.candidate import original_candidate
    from optiml_engine.gpu.data import make_inputs
    from optiml_engine.gpu.emulate import TRACE_ATOMIC, TRACE_READ, TRACE_WRITE, run_traced
    from optiml_engine.source.contract import resolve
    from optiml_engine.source.parse import CudaDocument

    kernel = CudaDocument(text, path).model.kernel(kernel_name)
    at = text.encode().rfind(b"\n", 0, kernel.span.start_byte) + 1      # the line's start: before any `extern "C"`
    source = text.encode()
    document = CudaDocument((source[:at] + contract_text.encode() + b"\n" + source[at:]).decode(), path)
    candidate = original_candidate(document, kernel_name)
    contract = candidate.contract
    traces = []
    for binding in [contract.sizes, *contract.checks]:
        resolved = resolve(contract, binding)
        inputs = make_inputs(np, contract.arrays, resolved.lengths, seed=len(traces))
        _, marks = run_traced(candidate, binding, inputs)
        highest, read, written, covered, accumulated = {}, {}, {}, {}, {}
        for name in arrays:
            touched = np.flatnonzero(marks[name])
            highest[name] = int(touched[-1]) + 1 if touched.size else 0
            read[name] = bool((marks[name] & TRACE_READ).any())
            written[name] = bool((marks[name] & TRACE_WRITE).any())
            covered[name] = int(np.count_nonzero(marks[name][:highest[name]] & TRACE_WRITE))
            writes = marks[name][(marks[name] & TRACE_WRITE) != 0]
            accumulated[name] = bool(writes.size) and bool(np.all(writes & TRACE_ATOMIC))
        traces.append(_Trace(binding=dict(binding), highest=highest, read=read, written=written, covered=covered,
                             accumulated=accumulated))
    return traces


def _traced_in_child(text: str, path: str, kernel_name: str, contract_text: str,
                     arrays: list[str]) -> list[_Trace] | str:
    """The traces, or why there are none (the kernel crashed, hung or could not run on the CPU)."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        future = pool.submit(_trace_all, text, path, kernel_name, contract_text, arrays)
        try:
            return future.result(timeout=PROBE_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            for process in list(pool._processes.values()):   # a hung kernel: the pool cannot end it otherwise
                process.kill()
            return f"the kernel did not finish on the CPU within {PROBE_TIMEOUT_S:.0f} s"
        except concurrent.futures.process.BrokenProcessPool:
            return "the kernel crashed on the CPU (an access far outside its arrays?)"


# ---------------------------------------------------------------------------------------------------------------
# Lengths: the polynomial that fits


def monomials(symbols: list[str]) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = [()]
    for degree in range(1, _MAX_DEGREE + 1):
        found += list(itertools.combinations_with_replacement(symbols, degree))
    return found


# A factor of a length: a size, or half of one rounded down or up (pooling with stride 2).
_ATOMS = (("{}", lambda v: v), ("({}/2)", lambda v: v // 2), ("cdiv({},2)", lambda v: -(-v // 2)))


Atom = tuple[str, Callable[[dict[str, int]], int]]     # a factor's contract text, and its value at a binding


def size_atoms(symbols: list[str], extents: list[str]) -> list[Atom]:
    """The factors a length may be a product of: each size, its halves, and each extent a guard compares an index
    with (`(L-3)/2+1`, the outputs of a strided window)."""
    atoms: list[Atom] = [(form.format(s), lambda b, s=s, value=value: value(b[s]))
                         for form, value in _ATOMS for s in symbols]
    for extent in extents:
        tree = parse_expr(extent, _NOWHERE)
        if extent not in symbols and tree.symbols() <= set(symbols):
            atoms.append((f"({extent})" if re.search(r"[-+]", extent) else extent,
                          lambda b, tree=tree: int(tree.evaluate(b))))
    return atoms


def fit_length(samples: list[tuple[dict[str, int], int]], symbols: list[str], atoms: list[Atom],
               at_most: bool = False) -> str | None:
    """The simplest expression over `symbols` that equals each sample's length exactly, as a contract expression:
    a whole multiple of a product of at most three atoms, else a polynomial of degree at most three with integer
    coefficients; None when neither fits. `at_most` (arrays only read): a product that is never shorter and is
    exact at an eighth of the samples will do (a window that skips an odd last row reads less than the array)."""
    if at_most:
        return fit_product(samples, atoms, at_most=True)
    return fit_product(samples, atoms) or fit_polynomial(samples, symbols)


def fit_product(samples: list[tuple[dict[str, int], int]], atoms: list[Atom], at_most: bool = False) -> str | None:
    for degree in range(_MAX_DEGREE + 1):
        for factors in itertools.combinations_with_replacement(atoms, degree):
            products = [math.prod(value(b) for _, value in factors) for b, _ in samples]
            if any(p <= 0 for p in products):
                continue
            printed = [text for text, _ in factors]
            if at_most:
                exact = sum(p == length for (_, length), p in zip(samples, products))
                if printed and all(p >= length for (_, length), p in zip(samples, products)) and \
                        exact >= max(2, len(samples) // 8):
                    return "*".join(printed)
                continue
            if any(length % p for (_, length), p in zip(samples, products)):
                continue
            ratios = {length // p for (_, length), p in zip(samples, products)}
            if len(ratios) == 1:
                (ratio,) = ratios
                if ratio == 1 and len(printed) == 1 and printed[0].startswith("("):
                    return printed[0][1:-1]          # `(n-K+1)` alone needs no parentheses
                return "*".join(([str(ratio)] if ratio != 1 or not printed else []) + printed)
    return None


def fit_polynomial(samples: list[tuple[dict[str, int], int]], symbols: list[str]) -> str | None:
    terms = monomials(symbols)
    if len(samples) < len(terms) + 2:
        terms = [t for t in terms if len(t) <= 2] if len(samples) >= len([t for t in terms if len(t) <= 2]) + 2 \
            else [t for t in terms if len(t) <= 1]
    matrix = np.array([[math.prod(b[s] for s in term) for term in terms] for b, _ in samples], dtype=np.float64)
    target = np.array([length for _, length in samples], dtype=np.float64)
    solution, *_ = np.linalg.lstsq(matrix, target, rcond=None)
    coefficients = np.rint(solution).astype(np.int64)
    if not np.all(np.abs(solution - coefficients) < 1e-6) or \
            not np.array_equal(matrix.astype(np.int64) @ coefficients, target.astype(np.int64)):
        return None
    printed = []
    for term, c in sorted(zip(terms, coefficients), key=lambda tc: (-len(tc[0]), tc[1] < 0, tc[0])):
        if c == 0:
            continue
        product = "*".join(term)
        body = product if product and abs(c) == 1 else f"{abs(c)}*{product}" if product else str(abs(c))
        printed.append(("-" if c < 0 else "+") + body)
    if not printed:
        return None
    text = "".join(printed)
    return text[1:] if text.startswith("+") else text


# ---------------------------------------------------------------------------------------------------------------
# Launch sites: sizes, scalars and the launch as the file writes them


def _c_launch_to_contract(node: Expr, renames: dict[str, str]) -> Expr:
    """A C launch expression in contract form: call arguments renamed to the kernel's parameters, and the
    rounding-up division idioms `(n + b - 1) / b` and `(n + 255) / 256` written as cdiv."""
    if isinstance(node, Name):
        return dataclasses.replace(node, name=renames[node.name])
    if isinstance(node, Neg):
        return dataclasses.replace(node, operand=_c_launch_to_contract(node.operand, renames))
    if isinstance(node, Call):
        return dataclasses.replace(node, args=tuple(_c_launch_to_contract(a, renames) for a in node.args))
    if not isinstance(node, Binary):
        return node
    left, right = _c_launch_to_contract(node.left, renames), _c_launch_to_contract(node.right, renames)
    if node.op == "/" and isinstance(left, Binary):
        numerator = None
        if (left.op == "-" and left.right == Num(_NOWHERE, 0, 1) and isinstance(left.left, Binary)
                and left.left.op == "+" and left.left.right == right):
            numerator = left.left.left                            # (n + b - 1) / b
        elif (left.op == "+" and isinstance(left.right, Num) and isinstance(right, Num)
              and left.right.value == right.value - 1):
            numerator = left.left                                 # (n + 255) / 256
        if numerator is not None:
            return Call(node.locate, node.offset, "cdiv", (numerator, right))
    return dataclasses.replace(node, left=left, right=right)


def _translate_launch_expr(text: str, renames: dict[str, str]) -> str | None:
    try:
        tree = parse_expr(text, _NOWHERE)
    except OptimlError:
        return None
    if not tree.symbols() <= renames.keys():
        return None
    return str(_c_launch_to_contract(tree, renames))


def _translate_dims(text: str, renames: dict[str, str]) -> str | None:
    text = text.strip()
    match = re.fullmatch(r"dim3\s*\((.*)\)", text, re.S)
    elements = _top_level_pieces(match.group(1)) if match else [text]
    translated = [t for t in (_translate_launch_expr(e, renames) for e in elements) if t is not None]
    if len(translated) != len(elements) or len(translated) > 3:
        return None
    return translated[0] if len(translated) == 1 else f"({','.join(translated)})"


def _top_level_pieces(text: str) -> list[str]:
    """The comma-separated pieces of `text` outside parentheses (`cdiv(n,16),m` is two)."""
    return [text[start:end] for start, end in split_ranges(text, 0, len(text), ",")]


def site_launch(kernel: Kernel, site: LaunchSite | None, symbols: list[str]) -> str | None:
    """The launch site's configuration, when it uses only size parameters passed straight through."""
    if site is None:
        return None
    renames = {arg.strip(): param.name for arg, param in zip(site.args, kernel.params, strict=False)
               if re.fullmatch(_IDENT, arg.strip()) and param.name in symbols}
    grid, block = _translate_dims(site.grid, renames), _translate_dims(site.block, renames)
    smem_text = (site.smem or "0").strip()
    smem = "0" if smem_text == "0" else _translate_launch_expr(smem_text, renames)
    if grid is None or block is None or smem is None:
        return None
    return f"grid={grid} block={block}" + ("" if smem == "0" else f" smem={smem}")


def site_values(text: str, kernel: Kernel, site: LaunchSite | None) -> dict[str, str]:
    """Each scalar argument the launch site passes as a literal, or as a host variable the calling function
    initializes with one (`int rows = 65536;`, `const float eps = 1e-5f;`)."""
    if site is None:
        return {}
    caller = text[:site.span.start_byte]
    values = {}
    for param, arg in zip(kernel.params, site.args, strict=False):
        if param.is_pointer:
            continue
        arg = arg.strip()
        if not re.fullmatch(_IDENT, arg):
            literal = arg
        else:
            found = re.findall(rf"\b{re.escape(arg)}\s*=\s*([^;,=]+)[;,]", caller)
            literal = found[-1].strip() if found else ""
        literal = re.sub(r"(?<=\d)[uUlL]+\b", "", literal).rstrip("f") if literal else ""
        try:
            tree = parse_expr(literal, _NOWHERE) if literal else None
        except OptimlError:
            continue
        if tree is not None and not tree.symbols():
            number = tree.evaluate({})
            values[param.name] = str(int(number)) if float(number).is_integer() else repr(float(number))
    return values


# ---------------------------------------------------------------------------------------------------------------
# The block


def _template_default(kind: str, default: str | None) -> str:
    if default:
        return default
    return "float" if kind == "typename" else "true" if kind == "bool" else "128"


def file_constants(text: str) -> dict[str, int]:
    """Integer constants of the file: `#define NAME 16`, `constexpr int NAME = 16;`, `const int NAME = 16;`."""
    found = {}
    for name, value in re.findall(rf"^\s*#\s*define\s+({_IDENT})\s+\(?\s*(\d+)[uUlL]*\s*\)?\s*$", text, re.M):
        found[name] = int(value)
    for name, value in re.findall(rf"\b(?:constexpr|const)\s+(?:static\s+)?(?:unsigned\s+)?(?:int|size_t|long)\s+"
                                  rf"({_IDENT})\s*=\s*(\d+)[uUlL]*\s*;", text):
        found.setdefault(name, int(value))
    return found


def block_text(lines: list[_Line]) -> str:
    key_width = max(len(line.key) for line in lines) + 2
    value_width = max(len(line.value) for line in lines)
    body = [f"   {line.key + ':':<{key_width}}{line.value:<{value_width}}  # adjust: {line.why}" if line.why
            else f"   {line.key + ':':<{key_width}}{line.value}" for line in lines]
    return "\n".join(["/* @optiml", *body, "*/"])


def _accepted(kernel: Kernel, contract_text: str) -> bool:
    try:
        parse_contract(kernel.model_copy(update={"comment": Comment(text=contract_text, span=kernel.span)}), "")
    except OptimlError:
        return False
    return True


def default_sizes(symbols: list[str], lengths: list[str]) -> dict[str, int]:
    """One power of two for every size: the largest array about TARGET_ELEMENTS elements, all sizes' product at
    most TARGET_WORK (a triple loop over three sizes stays a benchmark, not a minute). A size that only shortens
    some length (a filter's taps in `n-K+1`) is SHRINKING_SIZE instead, so that the length stays long."""
    trees = []
    for length in lengths:
        try:
            trees.append(parse_expr(length, _NOWHERE))
        except OptimlError:
            continue
    middle = {s: 64 for s in symbols}

    def grows(tree, symbol: str) -> bool:
        return tree.evaluate({**middle, symbol: 66}) > tree.evaluate(middle)     # +2: halves grow too

    shrinking = {s for s in symbols for t in trees if s in t.symbols() and not grows(t, s)}
    scaled = [s for s in symbols if s not in shrinking]
    degree = max((sum(1 for s in scaled if s in t.symbols() and grows(t, s)) for t in trees), default=1)
    exponent = min(int(math.log2(TARGET_ELEMENTS)) // max(1, degree),
                   int(math.log2(TARGET_WORK)) // max(1, len(scaled)))
    return {s: SHRINKING_SIZE if s in shrinking else 2 ** exponent for s in symbols}


def fitted_to_the_device(kernel: Kernel, lines: list[_Line], launch: str) -> list[_Line]:
    """The lines with the sizes halved until the launch resolves (a grid's y and z extents stop at 65535)."""
    for _ in range(24):
        if _accepted(kernel, block_text([*lines, _Line("launch", launch)])):
            return lines
        sizes = next((line for line in lines if line.key == "sizes"), None)
        if sizes is None:
            return lines
        halved = " ".join(f"{name}={max(1, int(value) // 2) if int(value) > SHRINKING_SIZE else value}"
                          for name, value in (pair.split("=") for pair in sizes.value.split()))
        lines = [_Line("sizes", halved) if line is sizes else line for line in lines]
    return lines


def infer_contract_text(text: str, path: str, kernel_name: str, launch_sites: list[LaunchSite]) -> str:
    """A complete @optiml block for the kernel; parse_contract accepts it as is."""
    view = KernelView(text, path, kernel_name)
    kernel = view.kernel
    template = {p.name: _template_default(p.kind, p.default) for p in kernel.template_params}
    template_types = {p.name: template[p.name] for p in kernel.template_params if p.kind == "typename"}
    dtypes = {p.name: dtype_of(template_types.get(" ".join(p.base_type.split()), " ".join(p.base_type.split())))
              for p in kernel.params}
    symbols = [p.name for p in kernel.params if not p.is_pointer and dtypes[p.name] and is_integer(dtypes[p.name])]
    arrays = [p for p in kernel.params if p.is_pointer]
    site = next((s for s in launch_sites if s.kernel == kernel.name), None)
    values = site_values(text, kernel, site)
    constants = {**file_constants(text), **{k: int(v) for k, v in template.items() if v.isdigit()}}
    lines: list[_Line] = []
    if template:
        lines.append(_Line("template", " ".join(f"{name}={value}" for name, value in template.items())))
    for param in kernel.params:
        dtype = dtypes[param.name]
        element = " ".join(w for w in param.base_type.split() if w not in ("const", "volatile"))
        if param.is_pointer:
            lines.append(_Line(param.name, f"{'in' if param.is_const else 'inout'} {element}[1]"))
        elif param.name in symbols:
            continue
        elif dtype is None:
            lines.append(_Line(param.name, "0", f"OptiML cannot pass a '{param.type_text}'"))
        else:
            lines.append(_Line(param.name, values.get(param.name, DEFAULT_FLOAT if is_float(dtype) else "1")))

    reader = _LaunchReader(view, symbols, constants)
    body_text = view.text(view.body)
    unread = [s for s in symbols if not re.search(rf"\b{s}\b", body_text)]
    launch, launch_why = reader.launch(unread)
    from_site = site_launch(kernel, site, symbols)

    lengths, why_lengths, directions = _lengths(text, path, kernel, lines, symbols, arrays, launch, from_site,
                                                reader.extents())
    sizes_used = [s for s in symbols if any(re.search(rf"\b{s}\b", v) for v in [launch, *lengths.values()])]
    sizes = default_sizes(sizes_used or symbols, list(lengths.values()))
    sizes.update({s: int(values[s]) for s in symbols if s in values})
    for s in symbols:
        sizes.setdefault(s, int(values.get(s, 16)))
    result = lines[:1] if template else []
    if symbols:
        result.append(_Line("sizes", " ".join(f"{s}={sizes[s]}" for s in symbols)))
    for line in lines:
        if line.key == "template":
            continue
        if line.key in lengths or line.key in why_lengths:
            param = next(p for p in arrays if p.name == line.key)
            element = line.value.split(None, 1)[1].split("[")[0]
            length = lengths.get(line.key, "1")
            direction = directions.get(line.key, "in" if param.is_const else "inout")
            value = f"inout {element}[{length}] const(0)" if direction == ACCUMULATOR else \
                f"{direction} {element}[{length}]"
            result.append(_Line(line.key, value, why_lengths.get(line.key, "")))
        else:
            result.append(line)
    if any(direction == ACCUMULATOR and is_float(dtypes[name]) for name, direction in directions.items()):
        result.append(_Line("tol", ATOMIC_TOLERANCE))
    result = fitted_to_the_device(kernel, result, launch if from_site is None else from_site)
    chosen = from_site if from_site is not None else launch
    candidate_text = block_text([*result, _Line("launch", chosen, "" if from_site else launch_why)])
    if from_site is not None and not _accepted(kernel, candidate_text):
        # The site's configuration may not hold at the default sizes (a block of `b` threads with b=4096).
        candidate_text = block_text([*result, _Line("launch", launch, launch_why)])
    return candidate_text


def launches_somewhere(launch: str, binding: dict[str, int]) -> bool:
    """Whether every grid extent of the launch is at least 1 at the binding (`cdiv(n-K+1,256)` is not at K > n)."""
    grid = re.match(r"grid=(\S+)", launch).group(1)
    extents = _top_level_pieces(grid[1:-1]) if grid.startswith("(") else [grid]
    try:
        return all(parse_expr(e, _NOWHERE).evaluate(binding) >= 1 for e in extents)
    except OptimlError:
        return False


def _lengths(text: str, path: str, kernel: Kernel, lines: list[_Line], symbols: list[str], arrays: list,
             launch: str, from_site: str | None, extents: list[str]
             ) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Each array's length and direction from traced runs, and why an array's could not be found."""
    names = [p.name for p in arrays]
    if not names:
        return {}, {}, {}
    view = KernelView(text, path, kernel.name)
    traced = traced_text(view)
    atoms = size_atoms(symbols, extents)
    best: tuple[dict[str, str], dict[str, str], dict[str, str]] | None = None
    why = ""
    for low, high in PROBE_RANGES:
        rng = random.Random(low)
        drawn = [{s: rng.randrange(low, high + 1) for s in symbols} for _ in range(8 * PROBE_SAMPLES)]
        samples = [b for b in drawn if launches_somewhere(launch, b)][:PROBE_SAMPLES if symbols else 1] or drawn[:1]
        largest = max((math.prod(sorted(s.values(), reverse=True)[:_MAX_DEGREE]) for s in samples), default=1)
        probe_length = 4 * max(largest, 1024)
        for launch_text in [x for x in (from_site, launch) if x is not None]:
            contract_text = _probe_contract(kernel, [*lines, _Line("launch", launch_text)], symbols, samples,
                                            probe_length)
            traces = _traced_in_child(traced, path, kernel.name, contract_text, names)
            if isinstance(traces, str):
                why = traces
                continue
            found = _fitted(traces, names, symbols, atoms, probe_length)
            if best is None or len(found[0]) > len(best[0]):
                best = found
            if len(best[0]) == len(names):
                return best
    if best is None:
        return {}, {name: why for name in names}, {}
    return best


def _fitted(traces: list[_Trace], names: list[str], symbols: list[str], atoms: list[Atom], probe_length: int
            ) -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Lengths and directions of the arrays whose lengths fit, and why for the others."""
    lengths, why, directions = {}, {}, {}
    for name in names:
        seen = [(t.binding, t.highest[name]) for t in traces if t.highest[name] > 0]
        read = any(t.read[name] for t in traces)
        written = any(t.written[name] for t in traces)
        whole = all(t.covered[name] == t.highest[name] for t in traces if t.highest[name] > 0)
        accumulated = any(t.accumulated[name] for t in traces) and \
            all(t.accumulated[name] for t in traces if t.written[name])
        directions[name] = "in" if not written else ACCUMULATOR if accumulated else \
            "out" if whole and not read else "inout"
        if not seen:
            why[name] = "the kernel never touched it on the CPU"
        elif any(h >= probe_length for _, h in seen):
            why[name] = "the kernel reached past any length the sizes explain"
        elif (length := fit_length(seen, symbols, atoms)) is not None or \
                (not written and (length := fit_length(seen, symbols, atoms, at_most=True)) is not None):
            lengths[name] = length
        else:
            # Indices that depend on the data (a histogram's bins): the most any run touched, rounded up.
            most = max(h for _, h in seen)
            lengths[name] = str(2 ** math.ceil(math.log2(most)))
            why[name] = "its indices depend on the data or on no size: the most touched, rounded up"
    return lengths, why, directions
