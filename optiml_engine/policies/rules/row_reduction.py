"""Thread-per-row reductions, rewritten so that the threads of a warp, or of a whole block, share each row.

A naive row reduction gives each thread a row of its own: the 32 threads of a warp then read 32 rows that lie a row
length apart, and every load instruction touches 32 sectors ("uncoalesced_loads"). The rewrites hand each row to a
warp (`warp_per_row`) or to a block (`block_per_row`, for long rows); the row_reduction template (policies/templates/)
also hands it to a group of warps, several rows per block. Every column loop starts at the thread's rank in its row
and strides by the number of threads that share the row, so neighbouring threads read neighbouring elements. Right
after each loop that accumulates, its accumulators are combined across those threads with an all-reduce (an XOR
butterfly of warp shuffles, then for a block or group the warps' partials through shared memory), so every
thread holds the row's value: later loops and statements may use it. Stores of per-row values are made by the row's
first thread only.

The detector (`read_row_kernel`) accepts a kernel of this shape, and nothing it cannot prove the rewrite keeps:

    int row = blockIdx.x * blockDim.x + threadIdx.x;      # in any order; the only use of the thread built-ins
    if (row < rows) { ROW }                               # or: if (row >= rows) return; ROW
    ROW: declarations, assignments to scalars, stores (out[row] = ...), if statements, `return;`, and column loops:
         for (int c = START; c < BOUND; c++) { ... }      # or `int c = START; while (c < BOUND) { ...; c++; }`
    column loop body: declarations of its own scalars, `if`, `continue` (for loops), stores along the row
         (y[row * cols + c] = ...: the loop variable is one added term of the index), and accumulations into scalars
         declared outside the loop: s += e, s -= e, s = s + e, s *= e, m = fmaxf(m, e) (fmax, max, fminf, fmin, min),
         m = (e > m) ? e : m, if (e > m) m = e; an accumulator appears nowhere else in its loop.

The rule does not fire on anything else: a `break`, a nested loop, a store to a per-row output inside a column loop,
a loop-carried scalar other than an accumulation (argmax's index, a running value), an array that is both stored and
read unless every access is the same element of the row in loops that hand out columns the same way, shared memory,
atomics, or any other use of the thread and block built-ins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from tree_sitter import Node

from optiml_engine.model import Candidate, Contract, LaunchRule
from optiml_engine.policies.base import Edit, Match, Rule
from optiml_engine.policies.kernel_view import KernelView, derived, global_index_dim, unparenthesized

WARP = 32
SYMPTOM = "uncoalesced_loads"

_THREAD_BUILTINS = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})
# Calls with effects beyond their result, or that need the threads of a warp or block together.
_EFFECTFUL_CALL = re.compile(
    r"atomic\w*|__sync\w*|__shfl\w*|__ballot\w*|__any\w*|__all\w*|__activemask|__reduce\w*|__match\w*|__threadfence\w*"
    r"|__nanosleep|__trap|__brkpt|printf|assert|malloc|free|memcpy|memset"
)
# Loads through a pointer argument: the only calls that may be handed a pointer (any other might store through it).
_POINTER_LOADS = frozenset({"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"})
_FLIPPED = {">": "<", ">=": "<=", "<": ">", "<=": ">="}    # the comparisons, and what each reads as reversed
_NUMBER = re.compile(r"([0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?)[fFlLuU]*")   # a decimal literal and its suffixes


class NotARowReduction(Exception):
    """The kernel is not a thread-per-row reduction this family can rewrite; the message says why."""


# ---------------------------------------------------------------------------------------------------------------
# Reductions


@dataclass(frozen=True)
class Reduction:
    name: str
    # What the threads of a row other than its first start from, so that the accumulator's value on entry counts
    # once; None for an idempotent operation, where every thread may start from that value.
    identity: str | None
    operator: str | None = None                # compound assignment of an arithmetic reduction ("+=")
    functions: tuple[str, str, str] | None = None  # a min/max's function for float, double and integer types

    def update(self, ctype: str, target: str, value: str) -> str:
        """The statement that folds `value` into `target`."""
        if self.operator:
            return f"{target} {self.operator} {value};"
        function = {"float": self.functions[0], "double": self.functions[1]}.get(ctype, self.functions[2])
        return f"{target} = {function}({target}, {value});"


SUM = Reduction("sum", identity="0", operator="+=")
PRODUCT = Reduction("product", identity="1", operator="*=")
MAX = Reduction("max", identity=None, functions=("fmaxf", "fmax", "max"))
MIN = Reduction("min", identity=None, functions=("fminf", "fmin", "min"))
_MINMAX_CALLS = {"fmaxf": MAX, "fmax": MAX, "max": MAX, "fminf": MIN, "fmin": MIN, "min": MIN}
_COMPOUND_ASSIGNMENTS = {"+=": SUM, "-=": SUM, "*=": PRODUCT}
# Element types __shfl_xor_sync moves, as the declaration's type tokens read.
_SHUFFLE_TYPES = frozenset({
    "float", "double", "int", "unsigned", "unsigned int", "long", "long int", "unsigned long", "unsigned long int",
    "long long", "long long int", "unsigned long long", "unsigned long long int",
})


@dataclass
class Accumulator:
    name: str
    reduction: Reduction
    ctype: str
    # Declared with the reduction's identity and not assigned before its loop: the threads after the row's first
    # start from the identity already, no reset needed.
    enters_as_identity: bool = False


# ---------------------------------------------------------------------------------------------------------------
# What the detector reads


@dataclass
class ColumnLoop:
    node: Node                   # the for or while statement
    var: str                     # the column variable
    start: Node                  # the expression the column starts from
    step: Node                   # the increment expression (`c++`)
    accumulators: dict[str, Accumulator] = field(default_factory=dict)
    locals: set[str] = field(default_factory=set)
    consumed: set[tuple[int, int]] = field(default_factory=set)   # accumulator occurrences in accumulations
    header: Node | None = None   # the statement that initializes a while loop's variable

    @property
    def is_while(self) -> bool:
        return self.node.type == "while_statement"

    def contains(self, node: Node) -> bool:
        first = self.header or self.node
        return first.start_byte <= node.start_byte and node.end_byte <= self.node.end_byte


@dataclass
class RowKernel:
    row_value: Node              # its initializer, the global thread index
    row_declaration: Node        # the statement declaring it
    bound: str                   # the parameter the guard compares the row with
    loops: list[ColumnLoop]
    row_stores: list[Node]       # per-row stores outside the column loops (expression statements)
    contiguous: ColumnLoop | None  # the first loop that accesses memory along the row, where the symptom is


@dataclass
class _Access:
    node: Node                   # the subscript expression
    root: str                    # the pointer parameter it addresses
    stored: bool
    loop: ColumnLoop | None
    element: tuple[str, ...]     # its tokens, the column variable written as one placeholder


# ---------------------------------------------------------------------------------------------------------------
# Tree helpers


def _statements(node: Node) -> list[Node]:
    """The statements of a block or an else clause; a lone statement (an if's branch, a loop's body) is its own."""
    if node.type in ("compound_statement", "else_clause"):
        return [child for child in node.named_children if child.type != "comment"]
    return [node]


def _identifiers(node: Node):
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            yield current
        stack.extend(current.children)


def _key(node: Node) -> tuple[int, int]:
    return node.start_byte, node.end_byte


def _inside(node: Node, container: Node) -> bool:
    return container.start_byte <= node.start_byte and node.end_byte <= container.end_byte


class _Reader:
    """Reads one kernel into a RowKernel, raising NotARowReduction at the first thing the rewrite could not keep."""

    def __init__(self, view: KernelView):
        self.view = view
        params = view.kernel.params
        self.params = {p.name for p in params}
        self.pointers = {p.name: p.name for p in params if p.is_pointer}   # pointer name -> parameter it points into
        self.scalars: dict[str, tuple[str, Node]] = {}   # scalar declared outside the loops -> (type, declarator)
        self.row_dependent: set[str] = set()
        self.loops: list[ColumnLoop] = []
        self.row_stores: list[Node] = []
        self.alias_values: list[Node] = []

    def text(self, node: Node) -> str:
        return self.view.text(node)

    def tokens(self, node: Node, column: str | None = None) -> tuple[str, ...]:
        leaves, stack = [], [node]
        while stack:
            current = stack.pop()
            if current.type == "comment":
                continue
            if current.child_count == 0:
                text = self.text(current)
                leaves.append("\0column" if current.type == "identifier" and text == column else text)
            stack.extend(reversed(current.children))
        return tuple(leaves)

    def is_name(self, node: Node, name: str) -> bool:
        node = unparenthesized(node)
        return node.type == "identifier" and self.text(node) == name

    def mentions(self, node: Node, names) -> bool:
        return any(self.text(i) in names for i in _identifiers(node))

    # -- the kernel ----------------------------------------------------------------------------------------------

    def read(self) -> RowKernel:
        body = self.view.body
        if "__shared__" in self.tokens(body):
            raise NotARowReduction("uses shared memory")
        statements = _statements(body)
        position = next((i for i, s in enumerate(statements) if self.row_declarator(s)), None)
        if position is None:
            raise NotARowReduction("no `row = blockIdx.x * blockDim.x + threadIdx.x` declaration")
        row_declaration = statements[position]
        row_declarator = self.row_declarator(row_declaration)
        row = self.text(row_declarator.child_by_field_name("declarator"))
        row_value = row_declarator.child_by_field_name("value")
        self.row_dependent.add(row)
        for statement in statements[:position]:
            self.declaration(statement)
        guard = next((i for i in range(position + 1, len(statements)) if statements[i].type != "declaration"), None)
        if guard is None:
            raise NotARowReduction("no guard of the row against the row count")
        for statement in statements[position + 1:guard]:
            self.declaration(statement)
        bound, region = self.guarded_region(statements[guard], statements[guard + 1:], row)
        self.row_statements(region)
        self.check_thread_builtins(row_value)
        self.check_assignments(row, bound)
        self.check_column_variables()
        accesses = self.accesses()
        self.check_stored_arrays(accesses)
        contiguous = next((loop for loop in self.loops
                           if any(a.loop is loop and self.along_row(a) for a in accesses)), None)
        return RowKernel(row_value=row_value, row_declaration=row_declaration, bound=bound,
                         loops=self.loops, row_stores=self.row_stores, contiguous=contiguous)

    def row_declarator(self, statement: Node) -> Node | None:
        """The init declarator of `int row = <global thread index>;`, if the statement is that."""
        if statement.type != "declaration":
            return None
        declarators = statement.children_by_field_name("declarator")
        if len(declarators) != 1 or declarators[0].type != "init_declarator":
            return None
        name = declarators[0].child_by_field_name("declarator")
        value = declarators[0].child_by_field_name("value")
        if name.type == "identifier" and global_index_dim(value) == "x":
            return declarators[0]
        return None

    def additive_terms(self, node: Node) -> list[tuple[str, Node]] | None:
        """The terms of a sum, each with its sign; None when the sum subtracts something that is itself a sum."""
        node = unparenthesized(node)
        if node.type == "binary_expression" and self.text(node.child_by_field_name("operator")) in "+-":
            operator = self.text(node.child_by_field_name("operator"))
            left = self.additive_terms(node.child_by_field_name("left"))
            right = self.additive_terms(node.child_by_field_name("right"))
            if left is None or right is None:
                return None
            if operator == "-":
                if len(right) != 1:
                    return None
                right = [("-" if sign == "+" else "+", term) for sign, term in right]
            return left + right
        return [("+", node)]

    def guarded_region(self, guard: Node, rest: list[Node], row: str) -> tuple[str, list[Node]]:
        """The row count the guard compares with, and the statements that run for rows in range."""
        if guard.type != "if_statement" or guard.child_by_field_name("alternative") is not None:
            raise NotARowReduction("the row is not guarded by `if (row < rows)` or `if (row >= rows) return;`")
        condition = unparenthesized(guard.child_by_field_name("condition").child_by_field_name("value"))
        comparison = self.comparison_with(condition, row)
        if comparison is None:
            raise NotARowReduction("the guard does not compare the row with a row count")
        operator, bound = comparison
        bound_node = unparenthesized(bound)
        if bound_node.type != "identifier" or self.text(bound_node) not in self.params \
                or self.text(bound_node) in self.pointers:
            raise NotARowReduction("the row count is not a scalar kernel parameter")
        consequence = guard.child_by_field_name("consequence")
        if operator == "<" and not rest:
            return self.text(bound_node), _statements(consequence)
        if operator == ">=" and [s.type for s in _statements(consequence)] == ["return_statement"] \
                and not _statements(consequence)[0].named_children:
            return self.text(bound_node), rest
        raise NotARowReduction("the row is not guarded by `if (row < rows)` or `if (row >= rows) return;`")

    def comparison_with(self, condition: Node, name: str) -> tuple[str, Node] | None:
        """(operator, other side) of `name OP other`, written either way round (`other > name` reads `name < other`)."""
        if condition.type != "binary_expression":
            return None
        operator = self.text(condition.child_by_field_name("operator"))
        left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
        if operator not in _FLIPPED:
            return None
        if self.is_name(left, name) and not self.mentions(right, {name}):
            return operator, right
        if self.is_name(right, name) and not self.mentions(left, {name}):
            return _FLIPPED[operator], left
        return None

    # -- declarations and expressions ----------------------------------------------------------------------------

    def declaration(self, statement: Node, loop: ColumnLoop | None = None) -> None:
        if statement.type != "declaration":
            raise NotARowReduction(f"unexpected statement before the guard: {self.text(statement)[:40]}")
        ctype = " ".join(self.tokens(statement.child_by_field_name("type")))
        for declarator in statement.children_by_field_name("declarator"):
            target, value = declarator, None
            if declarator.type == "init_declarator":
                target, value = declarator.child_by_field_name("declarator"), declarator.child_by_field_name("value")
                self.require_pure(value)
            name = self.text(target.child_by_field_name("declarator") if target.type == "pointer_declarator"
                             else target)
            if name in self.params or name in self.scalars or name in self.pointers \
                    or (loop is not None and name in loop.locals):
                raise NotARowReduction(f"`{name}` is declared twice")
            if target.type == "pointer_declarator" and value is not None and loop is None:
                root = self.root(value)
                if root is None or target.child_by_field_name("declarator").type != "identifier":
                    raise NotARowReduction(f"pointer `{name}` does not point into a parameter array")
                self.pointers[name] = root
                self.alias_values.append(value)
            elif target.type != "identifier":
                raise NotARowReduction(f"unsupported declaration of `{name}`")
            elif loop is not None:
                loop.locals.add(name)
            else:
                self.scalars[name] = (ctype, declarator)
            if value is not None and self.mentions(value, self.row_dependent):
                self.row_dependent.add(name)

    def root(self, node: Node) -> str | None:
        """The pointer parameter an address expression points into (x, x + i, &x[i], (T*)x ...)."""
        node = unparenthesized(node)
        if node.type == "identifier":
            return self.pointers.get(self.text(node))
        if node.type == "cast_expression":
            return self.root(node.child_by_field_name("value"))
        if node.type == "pointer_expression" and self.text(node.child_by_field_name("operator")) == "&":
            argument = unparenthesized(node.child_by_field_name("argument"))
            return self.root(argument.child_by_field_name("argument")) if argument.type == "subscript_expression" \
                else None
        if node.type == "binary_expression" and self.text(node.child_by_field_name("operator")) in "+-":
            left = self.root(node.child_by_field_name("left"))
            right = self.root(node.child_by_field_name("right"))
            if self.text(node.child_by_field_name("operator")) == "-":
                right = None
            return (left or right) if (left is None) != (right is None) else None
        return None

    def require_pure(self, node: Node) -> None:
        """No assignments, increments, or calls that could store, synchronize or depend on other threads."""
        for current in self.view.descendants(node):
            if current.type in ("assignment_expression", "update_expression", "gnu_asm_expression",
                                "lambda_expression", "comma_expression"):
                raise NotARowReduction(f"side effect in `{self.text(node)[:40]}`")
            if current.type == "call_expression":
                function = self.text(current.child_by_field_name("function"))
                if _EFFECTFUL_CALL.fullmatch(function):
                    raise NotARowReduction(f"calls `{function}`")
                arguments = current.child_by_field_name("arguments").named_children
                if function not in _POINTER_LOADS and any(self.is_pointer_valued(a) for a in arguments):
                    raise NotARowReduction(f"passes a pointer to `{function}`")

    def is_pointer_valued(self, node: Node) -> bool:
        node = unparenthesized(node)
        if node.type == "pointer_expression":
            return self.text(node.child_by_field_name("operator")) == "&"
        return self.root(node) is not None

    # -- per-row statements --------------------------------------------------------------------------------------

    def row_statements(self, statements: list[Node]) -> None:
        previous = None
        for statement in statements:
            kind = statement.type
            if kind == "declaration":
                self.declaration(statement)
            elif kind == "expression_statement":
                self.row_expression(statement)
            elif kind == "if_statement":
                self.require_pure(statement.child_by_field_name("condition"))
                self.row_statements(_statements(statement.child_by_field_name("consequence")))
                alternative = statement.child_by_field_name("alternative")
                if alternative is not None:
                    self.row_statements(_statements(alternative))
            elif kind == "compound_statement":
                self.row_statements(_statements(statement))
            elif kind in ("for_statement", "while_statement"):
                self.loops.append(self.column_loop(statement, previous))
            elif kind == "return_statement" and not statement.named_children:
                pass
            else:
                raise NotARowReduction(f"unsupported per-row statement: {self.text(statement)[:40]}")
            previous = statement

    def row_expression(self, statement: Node) -> None:
        if not statement.named_children:        # an empty statement
            return
        expression = statement.named_children[0]
        if expression.type == "update_expression" \
                and unparenthesized(expression.child_by_field_name("argument")).type == "identifier":
            return
        if expression.type != "assignment_expression":
            raise NotARowReduction(f"unsupported per-row statement: {self.text(statement)[:40]}")
        self.require_pure(expression.child_by_field_name("right"))
        left = unparenthesized(expression.child_by_field_name("left"))
        if left.type == "subscript_expression":
            self.require_pure(left)
            self.row_stores.append(statement)
        elif left.type != "identifier":
            raise NotARowReduction(f"unsupported store: {self.text(statement)[:40]}")
        elif self.mentions(expression.child_by_field_name("right"), self.row_dependent):
            self.row_dependent.add(self.text(left))

    # -- column loops --------------------------------------------------------------------------------------------

    def column_loop(self, statement: Node, previous: Node | None) -> ColumnLoop:
        if statement.type == "for_statement":
            initializer = statement.child_by_field_name("initializer")
            var, start = self.column_start(initializer)
            condition, step = statement.child_by_field_name("condition"), statement.child_by_field_name("update")
            body = _statements(statement.child_by_field_name("body"))
            loop = ColumnLoop(node=statement, var=var, start=start, step=step)
        else:
            initializer = previous
            if previous is not None and previous.type == "expression_statement" and previous.named_children:
                initializer = previous.named_children[0]
            var, start = self.column_start(initializer)
            condition = statement.child_by_field_name("condition").child_by_field_name("value")
            body = _statements(statement.child_by_field_name("body"))
            last = body.pop() if body else None
            if last is None or last.type != "expression_statement" or not last.named_children:
                raise NotARowReduction("a while loop that does not end with its column increment")
            step = last.named_children[0]
            loop = ColumnLoop(node=statement, var=var, start=start, step=step, header=previous)
        if condition is None or step is None or not self.is_unit_step(step, var):
            raise NotARowReduction(f"a loop that does not step its variable by one: {self.text(statement)[:40]}")
        comparison = self.comparison_with(unparenthesized(condition), var)
        if comparison is None or comparison[0] not in ("<", "<="):
            raise NotARowReduction("a loop whose condition is not `c < bound`")
        self.require_pure(comparison[1])
        self.require_pure(start)
        if self.mentions(start, {var}):
            raise NotARowReduction("a column loop whose start depends on its variable")
        self.loop_statements(body, loop)
        for accumulator in loop.accumulators.values():
            accumulator.enters_as_identity = self.enters_as_identity(accumulator, statement)
        for occurrence in _identifiers(statement):
            if self.text(occurrence) in loop.accumulators and _key(occurrence) not in loop.consumed:
                raise NotARowReduction(f"accumulator `{self.text(occurrence)}` is used inside its loop other "
                                       f"than by its accumulation")
        return loop

    def column_start(self, node: Node | None) -> tuple[str, Node]:
        """(variable, start) of `int c = START` or `c = START`."""
        if node is not None and node.type == "declaration":
            declarators = node.children_by_field_name("declarator")
            if len(declarators) == 1 and declarators[0].type == "init_declarator" \
                    and declarators[0].child_by_field_name("declarator").type == "identifier":
                return (self.text(declarators[0].child_by_field_name("declarator")),
                        declarators[0].child_by_field_name("value"))
        if node is not None and node.type == "assignment_expression" \
                and self.text(node.child_by_field_name("operator")) == "=" \
                and unparenthesized(node.child_by_field_name("left")).type == "identifier":
            var = self.text(unparenthesized(node.child_by_field_name("left")))
            if var not in self.scalars:
                raise NotARowReduction(f"column variable `{var}` is not declared in the kernel")
            return var, node.child_by_field_name("right")
        raise NotARowReduction("a loop that does not initialize a column variable")

    def is_unit_step(self, step: Node, var: str) -> bool:
        step = unparenthesized(step)
        if step.type == "update_expression":
            return self.text(step.child_by_field_name("operator")) == "++" \
                and self.is_name(step.child_by_field_name("argument"), var)
        if step.type != "assignment_expression" or not self.is_name(step.child_by_field_name("left"), var):
            return False
        operator, right = self.text(step.child_by_field_name("operator")), unparenthesized(
            step.child_by_field_name("right"))
        if operator == "+=":
            return self.text(right) == "1"
        if operator != "=" or right.type != "binary_expression" \
                or self.text(right.child_by_field_name("operator")) != "+":
            return False
        sides = [right.child_by_field_name("left"), right.child_by_field_name("right")]
        return any(self.is_name(a, var) and self.text(b) == "1" for a, b in (sides, sides[::-1]))

    def loop_statements(self, statements: list[Node], loop: ColumnLoop) -> None:
        for statement in statements:
            kind = statement.type
            if kind == "declaration":
                self.declaration(statement, loop)
            elif kind == "expression_statement":
                if statement.named_children:
                    self.loop_expression(statement.named_children[0], loop)
            elif kind == "if_statement":
                if self.select_statement(statement, loop):
                    continue
                self.require_pure(statement.child_by_field_name("condition"))
                self.loop_statements(_statements(statement.child_by_field_name("consequence")), loop)
                alternative = statement.child_by_field_name("alternative")
                if alternative is not None:
                    self.loop_statements(_statements(alternative), loop)
            elif kind == "compound_statement":
                self.loop_statements(_statements(statement), loop)
            elif kind == "continue_statement" and not loop.is_while:
                pass
            else:
                raise NotARowReduction(f"unsupported statement in a column loop: {self.text(statement)[:40]}")

    def loop_expression(self, expression: Node, loop: ColumnLoop) -> None:
        if expression.type == "update_expression":
            target = unparenthesized(expression.child_by_field_name("argument"))
            if target.type == "identifier" and self.text(target) in loop.locals:
                return
            if target.type == "identifier":      # count++ counts: a sum of ones
                self.accumulate(loop, self.text(target), SUM, [target])
                return
            raise NotARowReduction(f"unsupported increment in a column loop: {self.text(expression)}")
        if expression.type != "assignment_expression":
            raise NotARowReduction(f"unsupported statement in a column loop: {self.text(expression)[:40]}")
        left = unparenthesized(expression.child_by_field_name("left"))
        right = expression.child_by_field_name("right")
        self.require_pure(right)
        if left.type == "subscript_expression":
            self.require_pure(left)
            if not self.is_element_of_row(left, loop.var):
                raise NotARowReduction(f"a store in a column loop that is not one element per column: "
                                       f"{self.text(expression)[:40]}")
        elif left.type == "identifier" and self.text(left) in loop.locals:
            pass
        elif left.type == "identifier":
            self.accumulation(expression, left, loop)
        else:
            raise NotARowReduction(f"unsupported store in a column loop: {self.text(expression)[:40]}")

    def is_element_of_row(self, subscript: Node, var: str) -> bool:
        """The index adds the column variable, once, to terms that do not depend on it."""
        (index,) = subscript.child_by_field_name("indices").named_children or [None]
        terms = self.additive_terms(index) if index is not None else None
        if terms is None:
            return False
        columns = [(sign, term) for sign, term in terms if self.mentions(term, {var})]
        return len(columns) == 1 and columns[0][0] == "+" and self.is_name(columns[0][1], var)

    def along_row(self, access: _Access) -> bool:
        """An access of one element per column whose address moves with the row: threads of a row-per-thread warp
        touch addresses a row apart."""
        return self.is_element_of_row(access.node, access.loop.var) and self.mentions(access.node,
                                                                                     self.row_dependent)

    def accumulation(self, assignment: Node, target: Node, loop: ColumnLoop) -> None:
        name = self.text(target)
        operator = self.text(assignment.child_by_field_name("operator"))
        value = unparenthesized(assignment.child_by_field_name("right"))
        if operator in _COMPOUND_ASSIGNMENTS:
            self.accumulate(loop, name, _COMPOUND_ASSIGNMENTS[operator], [target])
            return
        if operator == "=" and value.type == "binary_expression":
            own_terms = [(sign, term) for sign, term in self.additive_terms(value) or [] if self.is_name(term, name)]
            if len(own_terms) == 1 and own_terms[0][0] == "+":          # s = s + e, s = e + s - f ...
                self.accumulate(loop, name, SUM, [target, own_terms[0][1]])
                return
            factors = [value.child_by_field_name("left"), value.child_by_field_name("right")]
            own_factors = [f for f in factors if self.is_name(f, name)]
            if self.text(value.child_by_field_name("operator")) == "*" and len(own_factors) == 1:
                self.accumulate(loop, name, PRODUCT, [target, unparenthesized(own_factors[0])])
                return
        if operator == "=" and value.type == "call_expression":
            function = self.text(value.child_by_field_name("function"))
            arguments = value.child_by_field_name("arguments").named_children
            own = [a for a in arguments if self.is_name(a, name)]
            if function in _MINMAX_CALLS and len(arguments) == 2 and len(own) == 1:
                self.accumulate(loop, name, _MINMAX_CALLS[function], [target, unparenthesized(own[0])])
                return
        if operator == "=" and value.type == "conditional_expression":
            reduction, uses = self.selection(value.child_by_field_name("condition"),
                                             value.child_by_field_name("consequence"),
                                             value.child_by_field_name("alternative"), name)
            if reduction is not None:
                self.accumulate(loop, name, reduction, [target, *uses])
                return
        raise NotARowReduction(f"`{name}` carries a value from one column to the next that is not an accumulation: "
                               f"{self.text(assignment)[:40]}")

    def select_statement(self, statement: Node, loop: ColumnLoop) -> bool:
        """`if (e > m) m = e;` (and its min and reversed forms): an accumulation, recorded; False for other ifs."""
        consequence = _statements(statement.child_by_field_name("consequence"))
        if statement.child_by_field_name("alternative") is not None or len(consequence) != 1 \
                or consequence[0].type != "expression_statement" or not consequence[0].named_children:
            return False
        assignment = consequence[0].named_children[0]
        if assignment.type != "assignment_expression" or self.text(assignment.child_by_field_name("operator")) != "=":
            return False
        target = unparenthesized(assignment.child_by_field_name("left"))
        if target.type != "identifier" or self.text(target) in loop.locals:
            return False
        condition = statement.child_by_field_name("condition").child_by_field_name("value")
        reduction, uses = self.selection(condition, assignment.child_by_field_name("right"), target, self.text(target))
        if reduction is None:
            return False
        self.require_pure(assignment.child_by_field_name("right"))
        self.accumulate(loop, self.text(target), reduction, [target, *uses])
        return True

    def selection(self, condition: Node, chosen: Node, otherwise: Node, name: str):
        """(MAX or MIN, accumulator occurrences) when `condition ? chosen : otherwise` keeps the larger or smaller
        of the accumulator and one value; (None, []) otherwise."""
        comparison = self.comparison_with(unparenthesized(condition), name)
        if comparison is None:
            return None, []
        operator, value = comparison[0], self.tokens(unparenthesized(comparison[1]))   # name OP value
        condition_use = next(i for i in _identifiers(condition) if self.text(i) == name)
        if self.is_name(otherwise, name) and self.tokens(unparenthesized(chosen)) == value:
            # picks the value when name OP value: `name < value` picks the larger
            reduction = MAX if operator in ("<", "<=") else MIN
            return reduction, [condition_use, unparenthesized(otherwise)]
        if self.is_name(chosen, name) and self.tokens(unparenthesized(otherwise)) == value:
            reduction = MAX if operator in (">", ">=") else MIN
            return reduction, [condition_use, unparenthesized(chosen)]
        return None, []

    def accumulate(self, loop: ColumnLoop, name: str, reduction: Reduction, uses: list[Node]) -> None:
        if name == loop.var or name not in self.scalars:
            raise NotARowReduction(f"`{name}` is assigned in a column loop but is not a scalar declared before it")
        ctype = self.scalars[name][0]
        if ctype not in _SHUFFLE_TYPES:
            raise NotARowReduction(f"accumulator `{name}` has a type warp shuffles do not move: {ctype}")
        known = loop.accumulators.setdefault(name, Accumulator(name, reduction, ctype))
        if known.reduction is not reduction:
            raise NotARowReduction(f"`{name}` is accumulated with both {known.reduction.name} and {reduction.name}")
        loop.consumed.update(_key(use) for use in uses)

    def enters_as_identity(self, accumulator: Accumulator, loop: Node) -> bool:
        if accumulator.reduction.identity is None:
            return False
        declarator = self.scalars[accumulator.name][1]
        value = declarator.child_by_field_name("value") if declarator.type == "init_declarator" else None
        number = _NUMBER.fullmatch(self.text(value)) if value is not None and value.type == "number_literal" else None
        if number is None or not number.group(1).strip(".") \
                or float(number.group(1)) != float(accumulator.reduction.identity):
            return False
        for node in self.view.descendants(self.view.body, "assignment_expression", "update_expression"):
            target = node.child_by_field_name("left" if node.type == "assignment_expression" else "argument")
            if declarator.end_byte <= node.start_byte < loop.start_byte and self.is_name(target, accumulator.name):
                return False
        return True

    # -- whole-kernel checks -------------------------------------------------------------------------------------

    def check_thread_builtins(self, row_value: Node) -> None:
        for identifier in _identifiers(self.view.body):
            if self.text(identifier) in _THREAD_BUILTINS and not _inside(identifier, row_value):
                raise NotARowReduction(f"uses `{self.text(identifier)}` beyond the row index")

    def check_assignments(self, row: str, bound: str) -> None:
        for node in self.view.descendants(self.view.body, "assignment_expression", "update_expression"):
            target = unparenthesized(node.child_by_field_name("left" if node.type == "assignment_expression"
                                                                else "argument"))
            if target.type == "identifier" and (self.text(target) in (row, bound) or self.text(target) in
                                                self.pointers):
                raise NotARowReduction(f"assigns `{self.text(target)}`")
            if target.type not in ("identifier", "subscript_expression"):
                raise NotARowReduction(f"stores through `{self.text(target)[:40]}`")

    def check_column_variables(self) -> None:
        """A column variable declared outside its loop ends with another value: nothing may read it after."""
        for loop in self.loops:
            if loop.var not in self.scalars:
                continue
            for occurrence in _identifiers(self.view.body):
                if self.text(occurrence) == loop.var and occurrence.start_byte >= loop.node.end_byte \
                        and not any(other.var == loop.var and other.contains(occurrence) for other in self.loops):
                    raise NotARowReduction(f"column variable `{loop.var}` is read after its loop")

    def accesses(self) -> list[_Access]:
        found = []
        for node in self.view.descendants(self.view.body, "subscript_expression"):
            root = self.root(node.child_by_field_name("argument"))
            if root is None:
                raise NotARowReduction(f"indexes something other than a parameter array: {self.text(node)[:40]}")
            parent = node.parent
            stored = parent.type == "assignment_expression" and _key(parent.child_by_field_name("left")) == _key(node)
            loop = next((loop for loop in self.loops if loop.contains(node)), None)
            found.append(_Access(node, root, stored, loop, self.tokens(node, loop.var if loop else None)))
        return found

    def check_stored_arrays(self, accesses: list[_Access]) -> None:
        """Threads of a row may only share an array they store to when each element stays with one thread."""
        stored = {a.root for a in accesses if a.stored}
        for root in stored:
            mine = [a for a in accesses if a.root == root]
            if any(a.stored and a.loop for a in mine):
                if any(a.loop is None for a in mine):
                    raise NotARowReduction(f"`{root}` is stored along the row and also accessed per row")
                if len({a.element for a in mine}) > 1:
                    raise NotARowReduction(f"`{root}` is stored and read at different elements")
                if len({self.tokens(a.loop.start) for a in mine}) > 1:
                    raise NotARowReduction(f"`{root}` is accessed by loops that start at different columns")
            elif not all(a.stored or any(_inside(a.node, store) for store in self.row_stores) for a in mine):
                # Reads inside the per-row stores (y[row] = a * s + b * y[row]) are made by the storing thread.
                raise NotARowReduction(f"`{root}` is stored per row and read outside those stores")
            for identifier in _identifiers(self.view.body):
                if self.pointers.get(self.text(identifier)) == root and not self.is_subscripted(identifier) \
                        and not any(_inside(identifier, value) for value in self.alias_values):
                    raise NotARowReduction(f"`{root}` is stored and used other than by indexing")

    def is_subscripted(self, identifier: Node) -> bool:
        parent = identifier.parent
        return parent.type == "subscript_expression" and _key(parent.child_by_field_name("argument")) == _key(
            identifier)


def read_row_kernel(view: KernelView) -> RowKernel:
    """The kernel as a thread-per-row reduction; raises NotARowReduction (with the reason) when it is not one."""
    return _Reader(view).read()


# ---------------------------------------------------------------------------------------------------------------
# The rewrite


@dataclass(frozen=True)
class Layout:
    """Which threads share a row: a warp, the whole block, or a group of whole warps (several rows per block)."""

    threads_per_row: int      # a multiple of 32
    rows_per_block: int

    @property
    def threads(self) -> int:
        return self.threads_per_row * self.rows_per_block

    @property
    def per_row(self) -> Literal["warp", "block", "group"]:
        if self.threads_per_row == WARP:
            return "warp"
        return "block" if self.rows_per_block == 1 else "group"

    @property
    def description(self) -> str:
        if self.per_row == "warp":
            return f"warp per row, {self.threads} threads ({self.rows_per_block} rows) per block"
        if self.per_row == "block":
            return f"block per row, {self.threads} threads per block"
        return f"{self.threads_per_row} threads per row, {self.rows_per_block} rows per block"

    def launch(self, rows: str) -> LaunchRule:
        grid = rows if self.per_row == "block" else f"cdiv({rows},{self.rows_per_block})"
        return LaunchRule(grid=[grid], block=[str(self.threads)])


class _FreshNames:
    """Names for new variables that collide with nothing in the unit."""

    def __init__(self, source: bytes):
        self.taken = set(re.findall(rb"[A-Za-z_]\w*", source))

    def __call__(self, base: str) -> str:
        name, suffix = base, 2
        while name.encode() in self.taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        self.taken.add(name.encode())
        return name


_PRIMARY = frozenset({"identifier", "number_literal", "call_expression", "subscript_expression", "field_expression",
                      "parenthesized_expression"})


class _Rewriter:
    """The kernel's text with each row handed to a warp, a block or a group of warps (see the module's docstring)."""

    def __init__(self, view: KernelView, kernel: RowKernel, layout: Layout):
        self.view, self.kernel, self.layout = view, kernel, layout
        names = _FreshNames(view.source)
        self.lane, self.offset = names("lane"), names("offset")
        self.buffers: dict[tuple[int, str], str] = {}    # (loop index, accumulator) -> its shared buffer
        self.declarations = []
        if layout.per_row == "warp":
            self.row_index = f"(blockIdx.x * blockDim.x + threadIdx.x) / {WARP}"
            self.rank, self.stride = self.lane, str(WARP)
            self.declarations.append(f"const int {self.lane} = threadIdx.x % {WARP};")
            return
        self.warp, self.w = names("warp"), names("w")
        if layout.per_row == "block":
            self.row_index, self.rank, self.stride = "blockIdx.x", "threadIdx.x", "blockDim.x"
        else:
            # Group g of the block (its threads_per_row / 32 warps) takes row blockIdx.x * rows_per_block + g.
            self.group, self.rank = names("group"), names("rank")
            per_row = layout.threads_per_row
            self.row_index = f"blockIdx.x * {layout.rows_per_block} + threadIdx.x / {per_row}"
            self.stride = str(per_row)
            self.declarations += [f"const int {self.group} = threadIdx.x / {per_row};",
                                  f"const int {self.rank} = threadIdx.x % {per_row};"]
        # One buffer per accumulator and loop: each is written once, so no barrier has to guard its reuse.
        for index, loop in enumerate(kernel.loops):
            for accumulator in loop.accumulators.values():
                buffer = self.buffers[(index, accumulator.name)] = names(f"{accumulator.name}_by_warp")
                self.declarations.append(f"__shared__ {accumulator.ctype} {buffer}[{1024 // WARP}];")
        if self.buffers:
            self.declarations += [f"const int {self.lane} = threadIdx.x % {WARP};",
                                  f"const int {self.warp} = threadIdx.x / {WARP};"]

    def text(self) -> str:
        kernel = self.kernel
        replacements = [(kernel.row_value.start_byte, kernel.row_value.end_byte, self.row_index),
                        self.inserted_after(kernel.row_declaration, self.declarations)]
        for index, loop in enumerate(kernel.loops):
            replacements += self.loop_replacements(index, loop)
        for store in kernel.row_stores:
            guarded = f"if ({self.rank} == 0) {self.view.text(store)}"
            if store.parent.type != "compound_statement":     # a branch of an if: keep its else with it
                guarded = "{ " + guarded + " }"
            replacements.append((store.start_byte, store.end_byte, guarded))
        return self.view.replaced(replacements)

    def loop_replacements(self, index: int, loop: ColumnLoop) -> list[tuple[int, int, str]]:
        start = self.view.text(loop.start)
        start = self.rank if start == "0" else (
            f"{start} + {self.rank}" if loop.start.type in _PRIMARY else f"({start}) + {self.rank}")
        replacements = [(loop.start.start_byte, loop.start.end_byte, start),
                        (loop.step.start_byte, loop.step.end_byte, f"{loop.var} += {self.stride}")]
        prologue = [f"if ({self.rank} != 0) {a.name} = {a.reduction.identity};"
                    for a in loop.accumulators.values() if a.reduction.identity is not None
                    and not a.enters_as_identity]
        epilogue = self.combine(index, loop) if loop.accumulators else []
        if not prologue and not epilogue:
            return replacements
        indent = self.indent(loop.node)
        before = "".join(line + "\n" + indent for line in prologue)
        after = "".join("\n" + indent + line for line in epilogue)
        if loop.node.parent.type != "compound_statement":    # a lone branch of an if: the new lines join it
            before, after = "{\n" + indent + before, after + "\n" + indent + "}"
        return replacements + [(loop.node.start_byte, loop.node.start_byte, before),
                               (loop.node.end_byte, loop.node.end_byte, after)]

    def combine(self, index: int, loop: ColumnLoop) -> list[str]:
        """Every thread of the row ends with the row's value of each accumulator of the loop."""
        accumulators = list(loop.accumulators.values())
        lines = [f"for (int {self.offset} = {WARP // 2}; {self.offset} > 0; {self.offset} /= 2) {{",
                 *("    " + a.reduction.update(a.ctype, a.name, f"__shfl_xor_sync(0xffffffff, {a.name}, {self.offset})")
                   for a in accumulators),
                 "}"]
        if self.layout.per_row == "warp":
            return lines
        buffer = {a.name: self.buffers[(index, a.name)] for a in accumulators}
        if self.layout.per_row == "block":
            barrier, first, warps = "__syncthreads();", "", f"blockDim.x / {WARP}"
        else:
            # The groups of a block's last rows may be past the row count and skip the combine: each group waits
            # on a named barrier of its own (ids from 1; 0 is __syncthreads'), for its threads only.
            per_row = self.layout.threads_per_row
            barrier = f'asm volatile("bar.sync %0, {per_row};" :: "r"({self.group} + 1) : "memory");'
            first, warps = f"{self.group} * {per_row // WARP} + ", str(per_row // WARP)
        return [*lines,
                f"if ({self.lane} == 0) {{",
                *(f"    {buffer[a.name]}[{self.warp}] = {a.name};" for a in accumulators),
                "}",
                barrier,
                *(f"{a.name} = {buffer[a.name]}[{first}0];" for a in accumulators),
                f"for (int {self.w} = 1; {self.w} < {warps}; {self.w}++) {{",
                *("    " + a.reduction.update(a.ctype, a.name, f"{buffer[a.name]}[{first}{self.w}]")
                  for a in accumulators),
                "}"]

    def indent(self, node: Node) -> str:
        line_start = self.view.source.rfind(b"\n", 0, node.start_byte) + 1
        line = self.view.source[line_start:node.start_byte].decode()
        return line[:len(line) - len(line.lstrip())]

    def inserted_after(self, node: Node, lines: list[str]) -> tuple[int, int, str]:
        indent = self.indent(node)
        return node.end_byte, node.end_byte, "".join("\n" + indent + line for line in lines)


def rows_expression(contract: Contract, bound: str) -> str | None:
    """The row count the guard compares with, in the contract's terms; None when the contract cannot say."""
    if bound in contract.sizes:
        return bound
    scalar = next((s for s in contract.scalars if s.param == bound), None)
    if scalar is None or not scalar.dtype.startswith(("int", "uint")):
        return None
    return scalar.value if re.fullmatch(r"\w+", scalar.value) else f"({scalar.value})"


def shared_rows(view: KernelView, node: Candidate, kernel: RowKernel, layout: Layout) -> Candidate | None:
    """`node` with each row shared by the threads `layout` says; None when the contract cannot say the row count."""
    rows = rows_expression(node.contract, kernel.bound)
    if rows is None:
        return None
    return derived(node, _Rewriter(view, kernel, layout).text(), layout.description, layout.launch(rows))


class _RowRule(Rule):
    symptom = SYMPTOM
    layouts: tuple[Layout, ...]
    remedy: str

    def detect(self, view: KernelView) -> list[Match]:
        try:
            kernel = read_row_kernel(view)
        except NotARowReduction:
            return []
        if kernel.contiguous is None:
            return []
        message = (f"one thread per row: the 32 threads of a warp read 32 different rows, so each load touches 32 "
                   f"sectors; {self.remedy}")
        return [Match(rule=self.name, span=view.span(kernel.contiguous.node), message=message, symptom=self.symptom)]

    def rewrite(self, view: KernelView, node: Candidate) -> list[Edit]:
        kernel = read_row_kernel(view)
        candidates = [shared_rows(view, node, kernel, layout) for layout in self.layouts]
        return [Edit(candidate=c, rule=self.name, description=c.description, symptom=self.symptom)
                for c in candidates if c is not None]


class WarpPerRowRule(_RowRule):
    name = "warp_per_row"
    layouts = tuple(Layout(WARP, threads // WARP) for threads in (256, 128, 512))
    remedy = "a warp per row reads each row in contiguous 128-byte pieces"


class BlockPerRowRule(_RowRule):
    """For long rows (thousands of columns): a whole block shares each row's loads, so that few rows fill the GPU."""

    name = "block_per_row"
    layouts = tuple(Layout(threads, 1) for threads in (256, 1024))
    remedy = "a block per row reads each long row with all of its threads"


RULES = [WarpPerRowRule(), BlockPerRowRule()]
