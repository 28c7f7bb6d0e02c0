"""Shared memory used as a cache, read as each thread loading what it reads itself: a rewrite of the kernel's text
for the lift alone (lift.py), as block_trees.py's is.

The tiled kernels users write by hand stage a tile of global memory in shared memory, wait at a barrier, and read
the tile in another order, or read each element several times:

    __shared__ float tile[32][33];
    for (int j = 0; j < 32; j += 8)
        if (xIndex < cols && yIndex + j < rows) tile[threadIdx.y + j][threadIdx.x] = x[(yIndex + j) * cols + xIndex];
    __syncthreads();
    ...
    y[(yIndex + j) * rows + xIndex] = tile[threadIdx.x][threadIdx.y + j];

Each element of the tile holds what one thread stored in it, so a read of `tile[a][b]` is the value the storing
thread computed, spelled in the reading thread's terms: the storing thread is found by solving the store's index
for the element read. The rewrite replaces every read by that value (a global load, guarded as the store was),
and drops the stores, the barriers and the shared declarations; the kernel left is a plain one, each thread
reading global memory itself, which the lift reads as any other (the schedules then stage, or not, as they choose).

How the storing thread is found. The store's index is affine in the storing thread's private values (its
`threadIdx` and the counters of the constant loops around the store): I(p) = A p + c, the coefficients read off
by evaluating it. Each dimension d of the index has a pivot, a private value with coefficient 1 or -1 there and
0 in every other dimension; the element e is then stored by g(e): the pivots set to (e_d - c_d) / A[d][pivot],
every other private value to the one all storers share (the thread that alone loads a halo), or 0. That is exact where the stored value depends on the private values only through
the element they store to; this is checked, not assumed: for every storing thread p (all of them, or a sample of
512), the value at p and at g(I(p)) reduce to the same text once every integer subexpression is evaluated, under
three random assignments of the other names (sizes, block indices, loop counters). A value that reads a private
value another way (a thread's own column of a register tile, say) differs there and is refused.

What else must hold (checked by evaluating at every thread of the launch's block, the block the same at every
contract size; the kernel is left as it is where anything does not hold):
- every barrier is a statement of a `{ }` block of its own; each shared array is stored to in one stretch between
  two barriers of one block and read only in the next stretch of the same block; inside a loop that block has a
  second barrier (so the next turn's stores wait for this turn's reads);
- a store is `arr[i]...[k] = value;`, alone, inside loops whose bounds evaluate per thread and `if`s; a condition
  that reads only the thread's private values selects the storing threads, any other is the value's guard (`if
  (c) arr[i] = v;` stores `c ? v : 0` for the lift: a correct kernel never reads an element its guard left
  unwritten; `if (c) arr[i] = v; else arr[i] = w;` stores `c ? v : w`);
- no element is stored twice between two barriers; every read, at every reading thread and at every turn of the
  constant loops around it, reads an element stored; a read of a one-dimensional array may span several stores
  (the halos of a stencil's tile), each storing an interval of elements: it reads the interval's value;
- the names a value reads mean the same where it is read: a storer's local that reads thread indices is spelled
  as a local the reader holds plus a shift in the reader's loop counters where that is its value at every reader
  (`i + (k - 3)`, `yIndex + j`), else as its value where the store is (refused where something else assigns it on
  the way); a local declared once in the kernel's body with no thread index in its value, never assigned again,
  keeps its name; thread and block indices left in a read are spelled as digits of a local holding the global index
  (`i % 64`, `i / 64`);
- no global memory is both read and written by the kernel (the barriers dropped ordered nothing else), and no
  atomic is used.

A guard of the store that the read's own `if`s already hold (the same comparison, checked by evaluating both sides
at every reading thread) is dropped: `if (i < n) y[i] = tile[..]` reads `x[..]`, not `i < n ? x[..] : 0`. The
kernel's last `if` is made to hold over the statements before it that compute what it stores (`guard_sunk`), so
that its bounds are the points' and the guards of the reads under it are dropped too; declarations only the dropped
stores read are dropped, and one dead until a later assignment moves there.

`_Privatized` reads the other common use of shared memory that is no reduction tree: a block's private copy of a
small target (a privatized histogram), its adds made to the target itself.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from tree_sitter import Node

from optiml_engine.ir.block_trees import shared_and_block
from optiml_engine.ir.kernel_values import (
    PURE_FUNCTIONS, KernelValues, NotRead, RandomNames, Scope, Unknown, comparison, if_condition, inside, literal,
    node_conjuncts, siblings, zero_literal)
from optiml_engine.model import Candidate, OptimlError
from optiml_engine.policies.kernel_view import KernelView, derived, unparenthesized
from optiml_engine.source.expr import evaluate

_CHECKED_THREADS = 512          # storing threads the value's dependence is checked at, at most


def staged_tiles_read(candidate: Candidate) -> Candidate:
    """The kernel with its shared tiles read through (the module's docstring); the candidate itself where it has
    no shared memory or is not such a kernel."""
    return _rewritten(candidate, _Staging)


def _rewritten(candidate: Candidate, reading: type[_Staging]) -> Candidate:
    """The kernel rewritten as `reading` reads its shared memory; the candidate itself where it has none or the
    reading refuses it."""
    found = shared_and_block(candidate)
    if found is None or 0 in found[1]:
        return candidate
    view, block = found
    try:
        replacements = reading(view, block).replacements()
    except (NotRead, Unknown):      # Unknown: a name read where no number or value is known for it
        return candidate
    return derived(candidate, view.replaced(replacements), candidate.description)


def privatized_merged(candidate: Candidate) -> Candidate:
    """A block's private copy of a small target in shared memory (a privatized histogram), read as the adds going to
    the target itself (the module's `_Privatized`); the candidate itself where it is not such a kernel."""
    return _rewritten(candidate, _Privatized)


@dataclass
class _Store:
    node: Node                          # the assignment
    value: Node                         # the value it stores (a guard's select taken apart: its `then`)
    index: list[Node]                   # its subscripts, outermost first
    guards: list[Node]                  # the comparisons guarding the value (`c ? v : 0`)
    otherwise: tuple[Node, Node] | None     # an else's condition and assignment (`c ? v : w`)
    scope: Scope
    private: list[str]                  # thread indices, then the counters of the loops around it
    storers: list[dict[str, int]]       # each storing thread and turn
    pivots: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # value -> (dimension, sign, offset)
    fixed: dict[str, int] = field(default_factory=dict)     # the other private values -> the storer's
    elements: set[tuple[int, ...]] = field(default_factory=set)

    @property
    def checked(self) -> list[Node]:
        """The expressions the stored value reads private values through."""
        other = [self.otherwise[0], self.otherwise[1].child_by_field_name("right")] if self.otherwise else []
        return [self.value, *self.guards, *other]


class _Staging(KernelValues):
    def __init__(self, view: KernelView, block: tuple[int, int, int]):
        super().__init__(view, block)
        self.arrays: dict[str, tuple[Node, int]] = {}       # shared array -> its declaration, its rank
        for statement in view.body.named_children:
            if statement.type == "declaration" and any(self.text(c) == "__shared__" for c in statement.children):
                for declarator in statement.children_by_field_name("declarator"):
                    rank = 0
                    while declarator.type == "array_declarator":
                        declarator, rank = declarator.child_by_field_name("declarator"), rank + 1
                    if rank == 0 or declarator.type != "identifier":
                        raise NotRead        # a shared scalar, or a declarator not plain
                    self.arrays[self.text(declarator)] = (statement, rank)
        declarations = [d for d, _ in self.arrays.values()]
        if not self.arrays or any(self.text(n) == "__shared__" and n.parent not in declarations
                                  for n in view.descendants(view.body, "type_qualifier")):
            raise NotRead
        self.barriers = [n for n in view.descendants(view.body, "expression_statement")
                         if self.text(n).replace(" ", "") == "__syncthreads();"]
        if any(b.parent.type != "compound_statement" for b in self.barriers):
            raise NotRead
        self.dropped: set[Node] = set(declarations) | set(self.barriers)

    # ---------------------------------------------------------------------------------------- the kernel's shape

    def replacements(self) -> list[tuple[int, int, str]]:
        if any(self.text(n.child_by_field_name("function")).startswith("atomic")
               for n in self.view.descendants(self.view.body, "call_expression")):
            raise NotRead
        self.global_memory_one_way()
        found: list[tuple[int, int, str]] = []
        self.sunk: tuple[Node, list[tuple[Node, Scope]]] | None = None    # the stretch the last guard holds over
        staging: list[tuple[list[_Store], list[Node], Node]] = []
        for array, (_, rank) in self.arrays.items():
            stores, reads = self.uses(array, rank)
            block, segment = self.stretch(stores[0])
            if not reads or any(self.stretch(s) != (block, segment) for s in stores) or \
                    any(self.stretch(r) != (block, segment + 1) for r in reads):
                raise NotRead
            if block.parent.type != "function_definition" and \
                    sum(1 for b in self.barriers if b.parent == block) < 2:
                raise NotRead        # the next turn's stores would not wait for this turn's reads
            staging.append((self.stores(array, block, segment), reads, block))
        found += self.guard_sunk()
        for staged, reads, block in staging:
            for read in reads:
                # Twice parenthesized: `(x[i]) + y` would parse as a cast of `+y` to a type `x[i]`.
                found.append((read.start_byte, read.end_byte, f"(({self.read_through(read, staged, block)}))"))
        self.moved: list[tuple[int, int, str]] = []
        self.dead_locals_dropped(found)
        return found + self.moved + [(n.start_byte, n.end_byte, "") for n in self.dropped]

    def guard_sunk(self) -> list[tuple[int, int, str]]:
        """The kernel's last statement `if (c) S` (no else) made to hold over the statements before it back to the
        last one assigning a name c reads: `float sum = 0; for (...) sum += ...; if (row < M) C[..] = sum;` becomes
        `if (row < M) { float sum = 0; for (...) sum += ...; C[..] = sum; }`. The same kernel where those statements
        write no memory (all they do is then lost where c fails), which the dropped stores make so; the lift then
        reads c as the points' bounds, and a read's guard that c holds is dropped (`row < M ? A[..] : 0`)."""
        statements = [s for s in self.view.body.named_children if s.type != "comment" and s not in self.dropped]
        if not statements or statements[-1].type != "if_statement" or \
                statements[-1].child_by_field_name("alternative") is not None:
            return []
        last = statements[-1]
        condition = if_condition(last)
        names = {self.text(n) for n in self.view.descendants(condition, "identifier")}
        first = max((p + 1 for p, s in enumerate(statements[:-1])
                     if names & (self.assigned_names(s) | set(self.declared_names(s) if s.type == "declaration"
                                                              else []))), default=0)
        before = [s for s in self.view.body.named_children if s.type != "comment"][:-1]
        region = [s for s in before if s.start_byte >= statements[first].start_byte] if first < len(statements) - 1 \
            else []
        if not any(s not in self.dropped for s in region) or any(
                self.writes_memory(s) for s in region if s not in self.dropped):
            return []
        scope, _, _ = self.scope_before(last)
        self.sunk = (region[0], [(c, scope) for c in node_conjuncts(condition)])
        consequence = last.child_by_field_name("consequence")
        return [(region[0].start_byte, region[0].start_byte, f"if ({self.text(condition)}) {{ "),
                (last.start_byte, consequence.start_byte, ""), (last.end_byte, last.end_byte, " }")]

    def writes_memory(self, statement: Node) -> bool:
        return any(n.type == "return_statement" or n.type == "assignment_expression" and
                   unparenthesized(n.child_by_field_name("left")).type != "identifier" or n.type == "call_expression"
                   and self.text(n.child_by_field_name("function")) not in PURE_FUNCTIONS
                   for n in self.view.descendants(statement) if not any(inside(n, d) for d in self.dropped))

    def dead_locals_dropped(self, found: list[tuple[int, int, str]]) -> None:
        """Declarations that only the dropped stores read (`int a_col = t * TILE + threadIdx.x;`) are dropped too:
        left, they would be indices the lift has to read for nothing. `found`: the reads' new texts."""
        read_through = {name for _, _, text in found for name in re.findall(r"[A-Za-z_]\w*", text)}
        for declaration in self.view.descendants(self.view.body, "declaration"):
            names = self.declared_names(declaration)
            if not names or any(inside(declaration, d) for d in self.dropped) or \
                    any(self.view.descendants(declaration, "call_expression", "assignment_expression")):
                continue
            if self.declaration_moved(declaration, names, found):
                continue
            if not set(names) & read_through and not any(self.text(n) in names and not inside(n, declaration) and
                       not any(inside(n, d) for d in self.dropped)
                       for n in self.view.descendants(self.view.body, "identifier")):
                self.dropped.add(declaration)

    def declaration_moved(self, declaration: Node, names: list[str], found: list[tuple[int, int, str]]) -> bool:
        """`int xIndex = a; ... xIndex = b;` where the dropped statements alone read a (the transpose's load
        indices, set again for its stores): the declaration moved to the assignment, `int xIndex = b;`, where that is
        the next statement of the block mentioning the name (no read's new text between mentioning it either). The
        lift reads an index declared once."""
        if len(names) != 1 or declaration.parent.type != "compound_statement":
            return False
        name = names[0]
        for statement in siblings(declaration, "next_named_sibling"):
            if any(statement.start_byte <= start < statement.end_byte and name in re.findall(r"[A-Za-z_]\w*", text)
                   for start, _, text in found) and not self.is_assignment_to(statement, name):
                return False
            if statement in self.dropped or not any(self.text(n) == name
                                                    for n in self.view.descendants(statement, "identifier")):
                continue
            assignment = statement.named_children[0] if statement.type == "expression_statement" and \
                statement.named_children else None
            if assignment is None or assignment.type != "assignment_expression" or \
                    self.text(assignment.child_by_field_name("left")) != name or \
                    self.text(assignment.child_by_field_name("operator")) != "=" or \
                    any(self.text(n) == name for n in self.view.descendants(assignment.child_by_field_name("right"),
                                                                            "identifier")):
                return False
            type_text = self.text(declaration)[:declaration.child_by_field_name("declarator").start_byte -
                                                declaration.start_byte].strip()
            self.dropped.add(declaration)
            self.moved.append((statement.start_byte, statement.start_byte, f"{type_text} "))
            return True
        return False

    def is_assignment_to(self, statement: Node, name: str) -> bool:
        assignment = statement.named_children[0] if statement.type == "expression_statement" and \
            statement.named_children else None
        return assignment is not None and assignment.type == "assignment_expression" and \
            self.text(assignment.child_by_field_name("left")) == name

    def global_memory_one_way(self) -> None:
        """No pointer parameter is both read and written through (a pointer local counts as the parameters its
        value names)."""
        parameters = set()
        for declaration in self.view.descendants(self.view.node.child_by_field_name("declarator"),
                                                 "parameter_declaration"):
            declarator = declaration.child_by_field_name("declarator")
            if declarator is not None and declarator.type == "pointer_declarator":
                parameters |= {self.text(n) for n in self.view.descendants(declarator, "identifier")}
        derived_from: dict[str, set[str]] = {}
        for declarator in self.view.descendants(self.view.body, "init_declarator"):
            name = declarator.child_by_field_name("declarator")
            while name.type == "pointer_declarator":
                name = name.child_by_field_name("declarator")
            derived_from[self.text(name)] = {self.text(n) for n in self.view.descendants(
                declarator.child_by_field_name("value"), "identifier")} & parameters
        written, read = set(), set()
        for subscript in self.view.descendants(self.view.body, "subscript_expression"):
            parent = subscript.parent
            if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == subscript:
                continue                # the outer subscript of the same access counts it
            base = self.base(subscript)
            names = derived_from.get(base, {base} & parameters)
            target = parent.type == "assignment_expression" and parent.child_by_field_name("left") == subscript
            (written if target else read).update(names)
            if target and self.text(parent.child_by_field_name("operator")) != "=":
                read.update(names)
        if written & read:
            raise NotRead

    def uses(self, array: str, rank: int) -> tuple[list[Node], list[Node]]:
        """The array's stores (assignments) and reads (full subscripts)."""
        stores, reads = [], []
        declaration = self.arrays[array][0]
        for name in self.view.descendants(self.view.body, "identifier"):
            if self.text(name) != array or inside(name, declaration):
                continue
            access, depth = name, 0
            while True:
                parent = access.parent
                if parent.type == "subscript_expression" and parent.child_by_field_name("argument") == access:
                    depth += 1
                elif parent.type != "parenthesized_expression":
                    break
                access = parent
            if depth != rank:
                raise NotRead        # the array passed, or indexed partly
            parent = access.parent
            if parent.type == "assignment_expression" and parent.child_by_field_name("left") == access:
                if self.text(parent.child_by_field_name("operator")) != "=" or \
                        parent.parent.type != "expression_statement":
                    raise NotRead
                stores.append(parent)
            elif parent.type in ("update_expression", "pointer_expression"):
                raise NotRead
            else:
                reads.append(access)
        if not stores:
            raise NotRead
        return stores, reads

    def stretch(self, node: Node) -> tuple[Node, int]:
        """The `{ }` block holding barriers that `node` is in, and how many of its barriers come before it."""
        statement = node
        while True:
            parent = statement.parent
            if parent is None or parent.type == "function_definition":
                raise NotRead
            if parent.type == "compound_statement" and any(b.parent == parent for b in self.barriers):
                return parent, sum(1 for b in self.barriers if b.parent == parent and b.start_byte < node.start_byte)
            statement = parent

    # -------------------------------------------------------------------------------------------------- scopes


    # -------------------------------------------------------------------------------------------------- stores

    def stores(self, array: str, block: Node, segment: int) -> list[_Store]:
        """The array's stores, solved for their elements; the statements holding them are dropped."""
        staged: list[_Store] = []
        statements = [s for s in block.named_children if s.type != "comment"]
        barriers = [s for s in statements if s in self.barriers]
        if segment >= len(barriers):
            raise NotRead
        start = statements.index(barriers[segment - 1]) + 1 if segment else 0
        for statement in statements[start:statements.index(barriers[segment])]:
            if statement not in self.dropped and \
                    any(self.text(n) == array for n in self.view.descendants(statement, "identifier")):
                scope, _, _ = self.scope_before(statement)
                self.dropped.add(statement)
                self.collect(statement, array, scope, [], [], [], staged)
        elements: dict[tuple[int, ...], int] = {}
        for position, store in enumerate(staged):
            self.solve(store)
            for element in store.elements:
                if elements.setdefault(element, position) != position:
                    raise NotRead    # stored twice
        return staged

    def collect(self, node: Node, array: str, scope: Scope, loops: list[tuple[str, Node]],
                selecting: list[tuple[Node, bool]], guards: list[Node], staged: list[_Store]) -> None:
        """The stores under `node`: loops around them, conditions selecting the storers, guards of the value."""
        if node.type == "comment":
            return
        if node.type == "compound_statement":
            scope = scope.child()
            for child in node.named_children:
                self.collect(child, array, scope, loops, selecting, guards, staged)
        elif node.type == "declaration" and not any(self.view.descendants(node, "subscript_expression")):
            self.absorb(node, scope)
        elif node.type == "for_statement":
            counter = self.loop_counter(node)
            inner = scope.child()
            inner.values.pop(counter, None)
            inner.varying.discard(counter)
            self.collect(node.child_by_field_name("body"), array, inner, [*loops, (counter, node)], selecting, guards,
                         staged)
        elif node.type == "if_statement":
            condition = if_condition(node)
            consequence, alternative = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
            if alternative is not None and alternative.type == "else_clause":
                alternative = alternative.named_children[0]
            private = [c for c in node_conjuncts(condition) if self.private_only(c, scope, loops)]
            if alternative is None:
                self.collect(consequence, array, scope, loops, [*selecting, *((c, True) for c in private)],
                             [*guards, *(c for c in node_conjuncts(condition) if c not in private)], staged)
            elif len(private) == len(node_conjuncts(condition)):
                self.collect(consequence, array, scope, loops, [*selecting, (condition, True)], guards, staged)
                self.collect(alternative, array, scope, loops, [*selecting, (condition, False)], guards, staged)
            else:
                then, other = self.sole_store(consequence), self.sole_store(alternative)
                if then is None or other is None or self.index_text(then) != self.index_text(other):
                    raise NotRead
                zero = zero_literal(self.text, other.child_by_field_name("right"))
                if self.base(then.child_by_field_name("left")) == array:    # `else arr[i] = 0;` is a guard's zero
                    staged.append(self.store(then, scope, loops, selecting, guards + node_conjuncts(condition), None)
                                  if zero else self.store(then, scope, loops, selecting, guards, (condition, other)))
        elif node.type == "expression_statement":
            assignment = unparenthesized(node.named_children[0]) if node.named_children else None
            if assignment is None or assignment.type != "assignment_expression" or \
                    self.base(assignment.child_by_field_name("left")) not in self.arrays:
                raise NotRead        # anything else in a statement that stores
            value = unparenthesized(assignment.child_by_field_name("right"))
            if value.type == "conditional_expression" and \
                    zero_literal(self.text, value.child_by_field_name("alternative")):
                guards = guards + node_conjuncts(value.child_by_field_name("condition"))    # `arr[i] = c ? v : 0;`
                value = value.child_by_field_name("consequence")
            if self.base(assignment.child_by_field_name("left")) == array:
                staged.append(self.store(assignment, scope, loops, selecting, guards, None, value))
        else:
            raise NotRead

    def sole_store(self, node: Node) -> Node | None:
        while node.type == "compound_statement" and len([c for c in node.named_children if c.type != "comment"]) == 1:
            node = next(c for c in node.named_children if c.type != "comment")
        if node.type != "expression_statement" or not node.named_children:
            return None
        assignment = unparenthesized(node.named_children[0])
        return assignment if assignment.type == "assignment_expression" and \
            self.text(assignment.child_by_field_name("operator")) == "=" and \
            self.base(assignment.child_by_field_name("left")) in self.arrays else None

    def base(self, access: Node) -> str | None:
        access = unparenthesized(access)
        while access.type == "subscript_expression":
            access = unparenthesized(access.child_by_field_name("argument"))
        return self.text(access) if access.type == "identifier" else None

    def subscripts(self, access: Node) -> list[Node]:
        found = []
        access = unparenthesized(access)
        while access.type == "subscript_expression":
            index = access.child_by_field_name("index") or access.child_by_field_name("indices")
            if index.type == "subscript_argument_list":
                if len(index.named_children) != 1:
                    raise NotRead
                index = index.named_children[0]
            found.insert(0, index)
            access = unparenthesized(access.child_by_field_name("argument"))
        return found

    def index_text(self, assignment: Node) -> str:
        return "][".join(self.text(i).replace(" ", "") for i in self.subscripts(assignment.child_by_field_name("left")))

    def store(self, assignment: Node, scope: Scope, loops: list[tuple[str, Node]], selecting: list[tuple[Node, bool]],
              guards: list[Node], otherwise: tuple[Node, Node] | None, value: Node | None = None) -> _Store:
        private = ["threadIdx.x", "threadIdx.y", "threadIdx.z", *(counter for counter, _ in loops)]
        storers = []
        for thread in self.threads:
            numbers = thread | self.constants
            for turn in self.turns(loops, scope, numbers):
                try:
                    if all(bool(self.number(c, scope, numbers | turn)) == keep for c, keep in selecting):
                        storers.append(numbers | turn)
                except Unknown:
                    raise NotRead from None
        return _Store(assignment, value or assignment.child_by_field_name("right"),
                      self.subscripts(assignment.child_by_field_name("left")), guards, otherwise, scope, private,
                      storers)

    def private_only(self, condition: Node, scope: Scope, loops: list[tuple[str, Node]]) -> bool:
        """Whether the condition reads nothing but the thread's private values and numbers."""
        numbers = {"threadIdx.x": 0, "threadIdx.y": 0, "threadIdx.z": 0} | {c: 0 for c, _ in loops} | self.constants
        try:
            self.number(condition, scope, numbers)
        except Unknown:
            return False
        return True

    def solve(self, store: _Store) -> None:
        """The store's pivots (the module's docstring), its elements, and the check that the value depends on the
        storer only through the element."""
        origin = dict.fromkeys(store.private, 0) | self.constants
        try:
            offsets = [self.number(i, store.scope, origin) for i in store.index]
            coefficients = [{v: self.number(i, store.scope, origin | {v: 1}) - offset for v in store.private}
                            for i, offset in zip(store.index, offsets)]
            for storer in store.storers:
                element = tuple(self.number(i, store.scope, storer) for i in store.index)
                if element != tuple(o + sum(c[v] * storer[v] for v in store.private)
                                    for o, c in zip(offsets, coefficients)):
                    raise NotRead    # not affine in the storer
                store.elements.add(element)
        except Unknown:
            raise NotRead from None  # an index reading more than the storer's private values
        for d, row in enumerate(coefficients):
            pivot = next((v for v in store.private if row[v] in (1, -1) and
                          all(other[v] == 0 for e, other in enumerate(coefficients) if e != d)), None)
            if pivot is None and any(row.values()):
                raise NotRead
            if pivot is not None:
                store.pivots[pivot] = (d, row[pivot], offsets[d])
        # A private value the element does not tell is the one every storer has (the thread that alone stores a
        # halo), or 0; the check below refuses where the value then differs.
        store.fixed = {v: store.storers[0][v] if len({s[v] for s in store.storers}) == 1 else 0
                       for v in store.private if v not in store.pivots}
        sample = store.storers if len(store.storers) <= _CHECKED_THREADS else \
            random.Random(0).sample(store.storers, _CHECKED_THREADS)
        for seed in range(3):
            for storer in sample:
                solved = self.storer_of(store, [self.number(i, store.scope, storer) for i in store.index])
                for node in store.checked:
                    if self.reduced(node, store.scope, RandomNames(seed, storer)) != \
                            self.reduced(node, store.scope, RandomNames(seed, solved)):
                        raise NotRead    # the value reads the storer another way

    def storer_of(self, store: _Store, element: list[int]) -> dict[str, int]:
        solved = dict(store.fixed) | self.constants
        for pivot, (d, sign, offset) in store.pivots.items():
            solved[pivot] = (element[d] - offset) * sign
        return solved

    # --------------------------------------------------------------------------------------------------- reads

    def read_through(self, read: Node, staged: list[_Store], block: Node) -> str:
        """The read spelled as the value its element was stored with."""
        top = next(s for s in block.named_children if inside(read, s))
        scope, _, _ = self.scope_before(top)
        scope, loops, conditions = self.scope_before(read, top, scope)
        if self.sunk is not None and read.start_byte >= self.sunk[0].start_byte:
            conditions = conditions + self.sunk[1]
        index = self.subscripts(read)
        readers, touched = [], {}
        for thread in self.threads:
            numbers = thread | self.constants
            for turn in self.turns(loops, scope, numbers):
                readers.append(numbers | turn)
                try:
                    element = tuple(self.number(i, scope, numbers | turn) for i in index)
                except Unknown:
                    raise NotRead from None
                position = next((p for p, s in enumerate(staged) if element in s.elements), None)
                if position is None:
                    raise NotRead    # an element no thread stored
                touched[position] = None
        pieces = sorted(touched, key=lambda p: min(staged[p].elements))
        if len(pieces) > 1 and len(index) != 1:
            raise NotRead
        text = ""
        for position in reversed(pieces):
            store = staged[position]
            value = self.value_at(store, index, scope, readers, conditions, [c for c, _ in loops])
            low, high = min(store.elements)[0], max(store.elements)[0]
            if len(pieces) > 1 and len(store.elements) != high - low + 1:
                raise NotRead        # a piece that is not an interval
            text = f"({self.text(index[0])}) <= {high} ? ({value}) : ({text})" if text else value
        return self.as_digits(text, scope)

    def as_digits(self, text: str, scope: Scope) -> str:
        """The read's text with the thread and block indices it still reads spelled as digits of the reader's
        index, `threadIdx.x` as `(i % 64)` and `blockIdx.x` as `(i / 64)`, where a local `i` declared once holds
        `blockIdx.x * 64 + threadIdx.x` (64 the block's extent): the lift reads builtins only in an index's
        definition."""
        for d in "xyz":
            builtins = re.compile(rf"\b(threadIdx|blockIdx)\s*\.\s*{d}\b")
            if not builtins.search(text):
                continue
            extent = self.constants[f"blockDim.{d}"]
            index = next((name for name in sorted(self.stable) if name in scope.values and all(
                self.number(*scope.values[name], RandomNames(seed, {f"threadIdx.{d}": t, f"blockIdx.{d}": b} |
                                                              self.constants))
                == b * extent + t for seed, (t, b) in enumerate([(0, 0), (1, 0), (0, 1), (extent - 1, 5)]))), None)
            if index is not None:
                text = builtins.sub(lambda m: f"({index} % {extent})" if m.group(1) == "threadIdx" else
                                    f"({index} / {extent})", text)
        return text

    def value_at(self, store: _Store, index: list[Node], scope: Scope, readers: list[dict[str, int]],
                 conditions: list[tuple[Node, Scope]], counters: list[str]) -> str:
        """The store's value at the element `index` reads, in the reader's terms: the storer solved for."""
        substitutions = {pivot: self.text(index[d]) if (sign, offset) == (1, 0) else
                         f"({self.text(index[d])}) - {offset}" if sign == 1 else f"{offset} - ({self.text(index[d])})"
                         for pivot, (d, sign, offset) in store.pivots.items()}
        substitutions |= {v: str(value) for v, value in store.fixed.items()}

        aliases = self.aliases(store, index, scope, readers, counters)

        def spelled(node: Node) -> str:
            return self.spelled(node, store.scope, substitutions, aliases)

        value = spelled(store.value)
        if store.otherwise is not None:
            condition, other = store.otherwise
            value = f"({spelled(condition)}) ? ({value}) : ({spelled(other.child_by_field_name('right'))})"
        guards = [g for g in store.guards if not any(self.same_comparison(store, g, c, c_scope, index, scope, readers)
                                                      for c, c_scope in conditions)]
        if guards:
            value = f"({' && '.join(f'({spelled(g)})' for g in guards)}) ? ({value}) : 0"
        return value

    def aliases(self, store: _Store, index: list[Node], scope: Scope, readers: list[dict[str, int]],
                counters: list[str]) -> dict[str, str]:
        """The storer's locals that read thread indices, each spelled as a local the reader holds plus a shift in
        the reader's loop counters where that is its value at every reader: `i + (k - 3)` where the reader of
        `tile[threadIdx.x + k]` reads what `tile[threadIdx.x + 3]`'s storer computed from its `i`; `yIndex + j`
        where the storer's `xIndex` was set from other indices. The lift reads thread indices only in an index's
        definition, and these names are the reader's own."""
        variables = ["threadIdx.x", "threadIdx.y", "threadIdx.z", *counters]
        sample = readers if len(readers) <= _CHECKED_THREADS else random.Random(0).sample(readers, _CHECKED_THREADS)
        found: dict[str, str] = {}
        writers = {name: bound for name, bound in store.scope.values.items() if self.reads_threads(bound)}
        held = {name: bound for name, bound in scope.values.items() if name not in scope.varying and
                self.reads_threads(bound)}
        for name, bound in writers.items():
            for alias, alias_bound in sorted(held.items(), key=lambda item: item[0] != name):
                def difference(point: dict[str, int], seed: int) -> int | float:
                    numbers = RandomNames(seed, point)
                    element = [self.number(i, scope, numbers) for i in index]
                    return self.number(*bound, RandomNames(seed, self.storer_of(store, element))) - \
                        self.number(*alias_bound, numbers)
                try:
                    origin = dict.fromkeys(variables, 0) | self.constants
                    base = difference(origin, 0)
                    slopes = {v: difference(origin | {v: 1}, 0) - base for v in variables}
                    if any(slopes[t] for t in variables[:3]) or any(not isinstance(k, int) for k in slopes.values()) \
                            or any(difference(reader, seed) != base + sum(slopes[v] * reader[v] for v in variables)
                                   for seed in range(2) for reader in sample):
                        continue
                except Unknown:
                    continue
                terms = [v if k == 1 else f"{k} * {v}" for v, k in slopes.items() if k] + ([str(base)] if base else [])
                found[name] = f"{alias} + ({' + '.join(terms)})" if terms else alias
                break
        return found

    def reads_threads(self, bound: tuple[Node, Scope]) -> bool:
        """Whether a local's value reads a thread index (False where it reads a name whose value varies)."""
        try:
            return bool(self.private_read(*bound))
        except Unknown:
            return False

    def same_comparison(self, store: _Store, guard: Node, condition: Node, condition_scope: Scope, index: list[Node],
                        scope: Scope, readers: list[dict[str, int]]) -> bool:
        """Whether the store's guard, at the element read, is the reader's condition at every reader."""
        sides = [comparison(self.text, guard), comparison(self.text, condition)]
        if None in sides or sides[0][0] != sides[1][0]:
            return False
        sample = readers if len(readers) <= _CHECKED_THREADS else random.Random(0).sample(readers, _CHECKED_THREADS)
        try:
            for seed in range(3):
                for reader in sample:
                    numbers = RandomNames(seed, reader)
                    element = [self.number(i, scope, numbers) for i in index]
                    solved = RandomNames(seed, self.storer_of(store, element))
                    (_, left, right), (_, c_left, c_right) = sides
                    if self.number(left, store.scope, solved) - self.number(right, store.scope, solved) != \
                            self.number(c_left, condition_scope, numbers) - self.number(c_right, condition_scope,
                                                                                       numbers):
                        return False
        except Unknown:
            return False
        return True

    # ------------------------------------------------------------------------------------------ expressions


    def spelled(self, node: Node, scope: Scope, substitutions: dict[str, str],
                aliases: dict[str, str] | None = None) -> str:
        """The expression's text at the reader: locals spelled as the reader's locals holding their values (`aliases`)
        or as their values, private values substituted."""
        if node.type in ("identifier", "field_expression"):
            name = self.text(node).replace(" ", "")
            if name in substitutions:
                return f"({substitutions[name]})"
            try:
                bound = self.binding(node, scope)
            except Unknown:
                raise NotRead from None
            if bound is not None:
                if aliases and name in aliases:
                    return f"({aliases[name]})"
                return f"({self.spelled(*bound, substitutions, aliases)})"
            if node.type == "identifier" or name.startswith("threadIdx"):
                return self.text(node)
        return self.spliced(node, lambda child: self.spelled(child, scope, substitutions, aliases))


class _Privatized(_Staging):
    """`__shared__ int h[N];` zeroed (every element stored 0 by the block, before a barrier), added to atomically
    (`atomicAdd(&h[e], v);`) between that barrier and the next, and merged after it (`atomicAdd(&hist[k], h[k]);` for
    every element k once, maybe behind `if (h[k] > 0)` or `!= 0`): the same sums as `atomicAdd(&hist[e], v);` in
    place of each add to the copy, the zeroing, barriers and merge dropped (integer sums exactly; float sums
    reassociated, as the atomics already add in any order). Only where the copy is the kernel's only shared memory,
    the kernel's two barriers are its body's own statements, the merge's target index is the copy's (or it plus a
    term reading no thread index: a copy a block), nothing else reads the target, and a `> 0` guard skips only
    zeros (every add a positive number)."""

    def replacements(self) -> list[tuple[int, int, str]]:
        if len(self.arrays) != 1 or len(self.barriers) != 2 or \
                any(b.parent != self.view.body for b in self.barriers):
            raise NotRead
        (array, (declaration, rank)), = self.arrays.items()
        size = self.view.text(declaration).split("[", 1)[1].split("]", 1)[0] if rank == 1 else ""
        try:
            extent = int(evaluate(size, dict(self.constants)))
        except (OptimlError, ValueError):
            raise NotRead from None
        statements = [s for s in self.view.body.named_children if s.type != "comment"]
        first, second = (statements.index(b) for b in self.barriers)
        zeroing, adding, merging = statements[:first], statements[first + 1:second], statements[second + 1:]
        # Zeroing: the stores to the copy before the first barrier, each 0, every element once.
        staged: list[_Store] = []
        for statement in zeroing:
            if any(self.text(n) == array for n in self.view.descendants(statement, "identifier")) and \
                    statement != declaration:
                scope, _, _ = self.scope_before(statement)
                self.dropped.add(statement)
                self.collect(statement, array, scope, [], [], [], staged)
        zeroed = set()
        for store in staged:
            if not zero_literal(self.text, store.value) or store.guards or store.otherwise:
                raise NotRead
            self.solve(store)
            zeroed |= store.elements
        if zeroed != {(k,) for k in range(extent)} or sum(len(s.storers) for s in staged) != extent:
            raise NotRead
        # Adding: every other mention of the copy between the barriers is `atomicAdd(&copy[e], v)`.
        adds, positive = [], True
        for statement in adding:
            for name in self.view.descendants(statement, "identifier"):
                if self.text(name) != array:
                    continue
                call = _atomic_on(self, name)
                if call is None:
                    raise NotRead
                target, value = call.child_by_field_name("arguments").named_children
                positive &= value.type == "number_literal" and literal(self.text(value)) > 0
                adds.append((call, unparenthesized(unparenthesized(target).child_by_field_name("argument"))))
        merged = self.merge(merging, array, extent, positive)
        prefix, target = merged
        found = [(subscript.child_by_field_name("argument").start_byte,
                  subscript.child_by_field_name("argument").end_byte, target) for _, subscript in adds]
        found += [(self.index_of(subscript).start_byte, self.index_of(subscript).start_byte, f"{prefix}(")
                  for _, subscript in adds if prefix]
        found += [(self.index_of(subscript).end_byte, self.index_of(subscript).end_byte, ")")
                  for _, subscript in adds if prefix]
        return found + [(n.start_byte, n.end_byte, "") for n in self.dropped]

    def merge(self, statements: list[Node], array: str, extent: int, positive: bool) -> tuple[str, str]:
        """The merge after the second barrier (it is dropped): the term its target index adds to the copy's (`""`
        where none) and the target's name."""
        found: list[tuple[str, str]] = []
        covered: list[tuple[int, ...]] = []
        for statement in statements:
            scope, _, _ = self.scope_before(statement)
            self.dropped.add(statement)
            node, loops, selecting = statement, [], []
            while node.type in ("for_statement", "if_statement", "compound_statement"):
                if node.type == "compound_statement":
                    inner = [c for c in node.named_children if c.type != "comment"]
                    if len(inner) != 1:
                        raise NotRead
                    node = inner[0]
                elif node.type == "for_statement":
                    loops.append((self.loop_counter(node), node))
                    node = node.child_by_field_name("body")
                else:
                    if node.child_by_field_name("alternative") is not None:
                        raise NotRead
                    selecting.append(if_condition(node))
                    node = node.child_by_field_name("consequence")
            call = unparenthesized(node.named_children[0]) if node.type == "expression_statement" and \
                node.named_children else None
            if call is None or call.type != "call_expression" or \
                    self.text(call.child_by_field_name("function")) != "atomicAdd":
                raise NotRead
            target, value = call.child_by_field_name("arguments").named_children
            target = unparenthesized(target)
            value = unparenthesized(value)
            if target.type != "pointer_expression" or value.type != "subscript_expression" or \
                    self.base(value) != array:
                raise NotRead
            destination = unparenthesized(target.child_by_field_name("argument"))
            copy_index = self.text(self.subscripts(value)[0]).replace(" ", "")
            target_index = self.text(self.subscripts(destination)[0]).replace(" ", "") \
                if destination.type == "subscript_expression" else ""
            prefix = target_index[:-len(copy_index)] if target_index.endswith(copy_index) else None
            if prefix is None or prefix and (not prefix.endswith("+") or "threadIdx" in prefix):
                raise NotRead
            found.append((prefix, self.base(destination)))
            for condition in selecting:     # skipping zeros only: `copy[k] != 0`, or `> 0` where adds are positive
                test = self.text(condition).replace(" ", "")
                if test not in (f"{self.text(value).replace(' ', '')}!=0", f"{self.text(value).replace(' ', '')}>0"
                                ) or test.endswith(">0") and not positive:
                    raise NotRead
            for thread in self.threads:
                numbers = thread | self.constants
                for turn in self.turns(loops, scope, numbers):
                    covered.append((self.number(self.subscripts(value)[0], scope, numbers | turn),))
        if len(set(found)) != 1 or sorted(covered) != [(k,) for k in range(extent)]:
            raise NotRead
        target_name = found[0][1]
        if any(self.text(n) == target_name for n in self.view.descendants(self.view.body, "identifier")
               if not any(inside(n, d) for d in self.dropped)):
            raise NotRead            # the target read or written elsewhere
        return found[0]


def _atomic_on(staging: _Staging, name: Node) -> Node | None:
    """The `atomicAdd(&copy[e], v)` call whose target `name` (the copy) is in; None where it is anything else."""
    subscript = name.parent
    address = subscript.parent if subscript is not None and subscript.type == "subscript_expression" else None
    while address is not None and address.type == "parenthesized_expression":
        address = address.parent
    arguments = address.parent if address is not None and address.type == "pointer_expression" and \
        staging.text(address.child_by_field_name("operator")) == "&" else None
    call = arguments.parent if arguments is not None and arguments.type == "argument_list" else None
    if call is None or staging.text(call.child_by_field_name("function")) != "atomicAdd" or \
            arguments.named_children[0] != address or call.parent.type != "expression_statement":
        return None                     # (an add whose old value is read reads the copy's)
    return call
