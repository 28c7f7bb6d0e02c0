"""A kernel's text read as values: what each local holds at a point of the kernel, expressions evaluated at given
numbers for the thread indices, loop counters and the names around them, and reduced to text with every part that
evaluates replaced by its value. The shared-memory rewrites (staged_tiles.py) and the threads' relabelling
(relabel.py) check what they do by it: an expression equal at every thread (or at every sampled one, under random
numbers for the other names) is the same expression there.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from optiml_engine.model import OptimlError
from optiml_engine.policies.kernel_view import KernelView, unparenthesized
from optiml_engine.source.expr import evaluate

ITERATIONS = 4096               # turns of a loop evaluated, at most

# Functions of the CUDA math library and conversions of narrow floating types: calls that write no memory.
PURE_FUNCTIONS = {"expf", "exp", "logf", "log", "sqrtf", "sqrt", "rsqrtf", "fabsf", "fabs", "fmaxf", "fminf", "max",
                  "min", "tanhf", "tanh", "powf", "pow", "sinf", "cosf", "floorf", "ceilf", "roundf", "erff", "fmaf",
                  "__expf", "__logf", "log1pf", "expm1f", "__half2float", "__float2half", "__bfloat162float",
                  "__float2bfloat16"}


class NotRead(Exception):
    """The kernel is not what a rewrite reads (raised by the rewrites, and by the readings here)."""


class Unknown(Exception):
    """An expression does not evaluate: it reads memory, or a name with no number."""


@dataclass
class Scope:
    """What a local name holds at one point of the kernel: its value's node and the scope that value reads in
    (spelled as that value), or nothing (a name kept as written)."""
    values: dict[str, tuple[Node, Scope]] = field(default_factory=dict)
    varying: set[str] = field(default_factory=set)     # assigned on the way somewhere no value can be read off

    def child(self) -> Scope:
        return Scope(dict(self.values), set(self.varying))


class RandomNames(dict):
    """Numbers for the names an expression reads beyond the private ones: drawn once a name, the same for every
    expression evaluated under it."""

    def __init__(self, seed: int, private: dict[str, int]):
        super().__init__(private)
        self.seed = seed

    def __missing__(self, name: str) -> int:
        # Drawn from the name itself, so that the storer's and the reader's expressions see the same number.
        self[name] = random.Random(f"{self.seed}:{name}").randrange(1, 1 << 20)
        return self[name]


class KernelValues:
    """A kernel's values (the module's docstring), its block the launch's at every contract size."""

    def __init__(self, view: KernelView, block: tuple[int, int, int]):
        self.view = view
        self.constants: dict[str, int | float] = {f"blockDim.{d}": n for d, n in zip("xyz", block)}
        for definition in view.descendants(view.document.tree.root_node, "preproc_def"):
            if definition.child_by_field_name("value") is not None:
                try:
                    self.constants[view.text(definition.child_by_field_name("name"))] = evaluate(
                        view.text(definition.child_by_field_name("value")).strip(), dict(self.constants))
                except OptimlError:
                    pass                # a macro that is not a number: a name with none
        self.threads = [dict(zip(("threadIdx.x", "threadIdx.y", "threadIdx.z"), t))
                        for t in itertools.product(*(range(n) for n in block))]
        self.kept, self.stable = self.kept_locals()

    def text(self, node: Node) -> str:
        return self.view.text(node)

    def kept_locals(self) -> tuple[set[str], set[str]]:
        """The locals declared once in the kernel, in its body's own statements, and assigned nowhere else: those
        whose values read no thread index (through other locals neither), spelled by name wherever read; and the
        others, spelled by name where the reader's thread indices are the storer's."""
        declared: dict[str, int] = {}
        for declaration in self.view.descendants(self.view.body, "declaration"):
            for name in self.declared_names(declaration):
                declared[name] = declared.get(name, 0) + 1
        assigned = self.assigned_names(self.view.body)
        kept, stable, threaded = set(), set(), set()
        for statement in self.view.body.named_children:
            if statement.type != "declaration":
                continue
            for declarator in statement.children_by_field_name("declarator"):
                if declarator.type != "init_declarator":
                    continue
                name = self.declared_names(declarator)[0]
                value = declarator.child_by_field_name("value")
                reads = {self.text(n) for n in self.view.descendants(value, "identifier")}
                if declared.get(name) == 1 and name not in assigned:
                    (stable if "threadIdx" in reads or reads & threaded else kept).add(name)
                if "threadIdx" in reads or reads & threaded:
                    threaded.add(name)
        return kept, stable

    def declared_names(self, node: Node) -> list[str]:
        declarators = [node] if node.type == "init_declarator" else node.children_by_field_name("declarator")
        names = []
        for declarator in declarators:
            while declarator.type in ("init_declarator", "pointer_declarator", "array_declarator"):
                declarator = declarator.child_by_field_name("declarator")
            if declarator.type == "identifier":
                names.append(self.text(declarator))
        return names

    def assigned_names(self, node: Node) -> set[str]:
        names = set()
        for n in self.view.descendants(node, "assignment_expression", "update_expression"):
            target = unparenthesized(n.child_by_field_name("left") or n.child_by_field_name("argument"))
            if target.type == "identifier":
                names.add(self.text(target))
        return names

    def absorb(self, statement: Node, scope: Scope) -> None:
        """What `statement`, run before, leaves the locals holding."""
        if statement.type == "declaration":
            for declarator in statement.children_by_field_name("declarator"):
                for name in self.declared_names(declarator):
                    scope.values.pop(name, None)
                    scope.varying.discard(name)
                    if declarator.type == "init_declarator" and name not in self.kept:
                        scope.values[name] = (declarator.child_by_field_name("value"), scope.child())
                    elif declarator.type != "init_declarator":
                        scope.varying.add(name)
            return
        if statement.type == "expression_statement" and statement.named_children:
            assignment = unparenthesized(statement.named_children[0])
            target = assignment.child_by_field_name("left") if assignment.type == "assignment_expression" else None
            if target is not None and target.type == "identifier" and \
                    self.text(assignment.child_by_field_name("operator")) == "=":
                name = self.text(target)
                scope.varying.discard(name)
                scope.values[name] = (assignment.child_by_field_name("right"), scope.child())
                return
        inner = {n for d in self.view.descendants(statement, "declaration") for n in self.declared_names(d)}
        for name in self.assigned_names(statement) - inner:
            scope.values.pop(name, None)
            scope.varying.add(name)

    def scope_before(self, target: Node, within: Node | None = None,
                     scope: Scope | None = None) -> tuple[Scope, list[tuple[str, Node]], list[tuple[Node, Scope]]]:
        """The locals at `target`, the loops around it below `within` (the body by default) with their counters,
        and the conditions holding there (the `if`s it is in the consequence of, split at `&&`)."""
        scope = scope or Scope()
        path = []
        node = target
        while node is not None and node != (within or self.view.body):
            path.insert(0, node)
            node = node.parent
        if node is None:
            raise NotRead
        parent, loops, conditions = within or self.view.body, [], []
        for node in path:
            if parent.type == "compound_statement":
                for statement in parent.named_children:
                    if statement == node:
                        break
                    if statement.type != "comment":
                        self.absorb(statement, scope)
            elif parent.type == "for_statement" and node == parent.child_by_field_name("body"):
                counter = self.loop_counter(parent)
                scope = scope.child()
                scope.values.pop(counter, None)
                scope.varying.discard(counter)
                loops.append((counter, parent))
            elif parent.type == "if_statement" and node == parent.child_by_field_name("consequence"):
                conditions += [(c, scope) for c in node_conjuncts(if_condition(parent))]
            elif parent.type in ("while_statement", "do_statement", "switch_statement", "for_statement"):
                raise NotRead        # a loop whose turns are not enumerated, a switch...
            elif parent.type not in ("if_statement", "else_clause"):
                break                   # inside the statement's expressions
            parent = node
        return scope, loops, conditions

    def loop_counter(self, loop: Node) -> str:
        init = loop.child_by_field_name("initializer")
        if init is None or init.type != "declaration" or len(self.declared_names(init)) != 1 or \
                self.declared_names(init)[0] in self.assigned_names(loop.child_by_field_name("body")):
            raise NotRead
        return self.declared_names(init)[0]

    def turns(self, loops: list[tuple[str, Node]], scope: Scope, numbers: dict[str, int]) -> list[dict[str, int]]:
        """Each turn of the loops, nested, at one thread: the counters' values."""
        if not loops:
            return [{}]
        (counter, loop), inner = loops[0], loops[1:]
        init = loop.child_by_field_name("initializer").children_by_field_name("declarator")[0]
        condition, update = loop.child_by_field_name("condition"), loop.child_by_field_name("update")
        found = []
        try:
            value = self.number(init.child_by_field_name("value"), scope, numbers)
            for _ in range(ITERATIONS):
                here = numbers | {counter: value}
                if condition is None or not self.number(condition, scope, here):
                    return found
                found += [{counter: value} | turn for turn in self.turns(inner, scope, here)]
                value = self.updated(update, counter, scope, here)
        except Unknown:
            pass
        raise NotRead                # bounds that do not evaluate at a thread, or too many turns

    def updated(self, update: Node | None, counter: str, scope: Scope, numbers: dict[str, int]) -> int:
        update = unparenthesized(update) if update is not None else None
        if update is not None and update.type == "update_expression":
            return numbers[counter] + (1 if "++" in self.text(update) else -1)
        if update is not None and update.type == "assignment_expression" and \
                self.text(update.child_by_field_name("left")) == counter:
            operator = self.text(update.child_by_field_name("operator"))
            right = self.number(update.child_by_field_name("right"), scope, numbers)
            if operator == "=":
                return right
            return arithmetic(operator[:-1], numbers[counter], right)
        raise Unknown

    def binding(self, node: Node, scope: Scope) -> tuple[Node, Scope] | None:
        """The value a local name holds, where `node` is one spelled as its value."""
        if node.type != "identifier":
            return None
        name = self.text(node)
        if name in scope.varying:
            raise Unknown
        return scope.values.get(name)

    def number(self, node: Node, scope: Scope, numbers: dict[str, int]) -> int | float:
        """The expression's value; `Unknown` where it reads memory, calls, or a name with no number."""
        kind = node.type
        if kind == "number_literal":
            return literal(self.text(node))
        if kind == "identifier":
            bound = self.binding(node, scope)
            if bound is not None:
                return self.number(*bound, numbers)
            return _named(numbers, self.text(node))
        if kind == "field_expression":
            return _named(numbers, self.text(node).replace(" ", ""))
        if kind == "parenthesized_expression":
            return self.number(unparenthesized(node), scope, numbers)
        if kind == "cast_expression":
            value = self.number(node.child_by_field_name("value"), scope, numbers)
            type_text = self.text(node.child_by_field_name("type"))
            return float(value) if any(t in type_text for t in ("float", "double")) else int(value)
        if kind == "binary_expression":
            operator = self.text(node.child_by_field_name("operator"))
            left = self.number(node.child_by_field_name("left"), scope, numbers)
            if operator in ("&&", "||") and bool(left) == (operator == "||"):
                return int(bool(left))
            return arithmetic(operator, left, self.number(node.child_by_field_name("right"), scope, numbers))
        if kind == "unary_expression":
            operator = self.text(node.child_by_field_name("operator"))
            value = self.number(node.child_by_field_name("argument"), scope, numbers)
            return {"-": -value, "+": value, "!": int(not value)}.get(operator, ~value if operator == "~" else 0)
        if kind == "conditional_expression":
            chosen = "consequence" if self.number(node.child_by_field_name("condition"), scope, numbers) else \
                "alternative"
            return self.number(node.child_by_field_name(chosen), scope, numbers)
        raise Unknown

    def reduced(self, node: Node, scope: Scope, numbers: dict[str, int]) -> str:
        """The expression's text with every part that evaluates replaced by its value, locals by theirs."""
        try:
            return repr(self.number(node, scope, numbers))
        except Unknown:
            pass
        bound = self.binding(node, scope) if node.type == "identifier" else None
        if bound is not None:
            return self.reduced(*bound, numbers)
        return self.spliced(node, lambda child: self.reduced(child, scope, numbers))

    def private_read(self, node: Node, scope: Scope) -> set[str]:
        """The thread indices an expression reads, through the locals it reads too."""
        found = set()
        for name in self.view.descendants(node, "field_expression", "identifier"):
            text = self.text(name).replace(" ", "")
            if text.startswith("threadIdx."):
                found.add(text)
            elif name.type == "identifier" and (bound := self.binding(name, scope)) is not None:
                found |= self.private_read(*bound)
        return found

    def spliced(self, node: Node, part: Callable[[Node], str]) -> str:
        children = [c for c in node.named_children if c.type not in ("comment", "field_identifier", "primitive_type",
                                                                     "type_descriptor", "type_identifier")]
        if not children:
            return self.text(node)
        pieces, cursor = [], node.start_byte
        for child in children:
            pieces += [self.view.source[cursor:child.start_byte].decode(), part(child)]
            cursor = child.end_byte
        pieces.append(self.view.source[cursor:node.end_byte].decode())
        return "".join(pieces)


def if_condition(statement: Node) -> Node:
    """An `if`'s condition, its parentheses stripped."""
    clause = statement.child_by_field_name("condition")
    if clause.type == "condition_clause":
        clause = clause.child_by_field_name("value") or clause.named_children[-1]
    return unparenthesized(clause)


def node_conjuncts(condition: Node) -> list[Node]:
    condition = unparenthesized(condition)
    if condition.type == "binary_expression" and condition.child_by_field_name("operator").type == "&&":
        return [term for side in ("left", "right") for term in node_conjuncts(condition.child_by_field_name(side))]
    return [condition]


def comparison(text: Callable[[Node], str], node: Node) -> tuple[str, Node, Node] | None:
    """A comparison as (`<` or `<=` or `==` or `!=`, left, right), `>` and `>=` turned around."""
    node = unparenthesized(node)
    if node.type != "binary_expression":
        return None
    operator = text(node.child_by_field_name("operator"))
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if operator in (">", ">="):
        return operator.replace(">", "<"), right, left
    return (operator, left, right) if operator in ("<", "<=", "==", "!=") else None


def zero_literal(text: Callable[[Node], str], node: Node) -> bool:
    node = unparenthesized(node)
    return node.type == "number_literal" and literal(text(node)) == 0


def file_macros(view: KernelView) -> dict[str, str]:
    """The file's object-like `#define`s with a value: name -> value as written (`macro_value`)."""
    return {view.text(n.child_by_field_name("name")): macro_value(view, n)
            for n in view.descendants(view.document.tree.root_node, "preproc_def")
            if n.child_by_field_name("value") is not None}


def macro_value(view: KernelView, definition: Node) -> str:
    """A `#define`'s value as the preprocessor reads it: its continued lines joined and its comments dropped (`#define
    CLANES 8  // threads over the channels` is 8)."""
    value = view.text(definition.child_by_field_name("value")).replace("\\\n", " ")
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", value, flags=re.S).strip()


def file_constants(view: KernelView) -> dict[str, str]:
    """The file's enumerators (`enum { KSIZE = 3, PAD = 1 };`, each unset one its predecessor's value plus one) and
    file-scope `const` or `constexpr` numbers initialized with a literal (`constexpr float kEps = 1e-5f;`), or
    integers with integer arithmetic of the numbers before them and `#define`s of numbers (`constexpr int kWarps =
    kBlock / 32;`): name -> value as written (an integer's suffix dropped; the arithmetic's value); an enumerator
    set to anything but a number ends its enum's."""
    found: dict[str, str] = {}
    macros: dict[str, str] | None = None        # the file's #defines, read once where a computed integer needs them
    root = view.document.tree.root_node
    for listing in view.descendants(root, "enumerator_list"):
        value = -1
        for enumerator in (c for c in listing.named_children if c.type == "enumerator"):
            written = enumerator.child_by_field_name("value")
            text = view.text(written).rstrip("uUlL") if written is not None else None
            if text is not None and not text.isdigit():
                break
            value = int(text) if text is not None else value + 1
            found[view.text(enumerator.child_by_field_name("name"))] = str(value)
    for declaration in (c for c in root.named_children if c.type == "declaration"):
        qualifiers = {view.text(c) for c in declaration.named_children if c.type == "type_qualifier"}
        kind = declaration.child_by_field_name("type")
        if not qualifiers & {"const", "constexpr"} or kind is None or \
                view.text(kind) not in ("int", "unsigned", "long", "size_t", "int64_t", "float", "double"):
            continue
        for init in (c for c in declaration.named_children if c.type == "init_declarator"):
            value = init.child_by_field_name("value")
            if value is not None and value.type == "number_literal":
                text = view.text(value)
                found[view.text(init.child_by_field_name("declarator"))] = \
                    text.rstrip("uUlL") if text.rstrip("uUlL").isdigit() else text
            elif value is not None and view.text(kind) != "float" and view.text(kind) != "double":
                macros = file_macros(view) if macros is None else macros
                computed = integer_value(macros_expanded(view.text(value), macros | found))
                if computed is not None:
                    found[view.text(init.child_by_field_name("declarator"))] = str(computed)
    return found


MACRO_ROUNDS = 8     # macros expanding into macros (`WARPS` into `(THREADS / 32)`)


def macros_expanded(written: str, macros: dict[str, str]) -> str:
    """The text with the object-like macros it names replaced by their values, parenthesized, until none is left
    (or MACRO_ROUNDS rounds)."""
    for _ in range(MACRO_ROUNDS):
        expanded = re.sub(r"[A-Za-z_]\w*", lambda m: f"({macros[m.group(0)]})" if m.group(0) in macros else m.group(0),
                          written)
        if expanded == written:
            break
        written = expanded
    return written


def integer_value(expanded: str) -> int | None:
    """The value of an integer expression of numbers alone (`(256 / 32)`, `(3) + 1`, `64 - 1 - (5)`, `0x1f`); None for
    any other text, and for a division or remainder where a value may be negative (C truncates where Python floors)."""
    expanded = re.sub(r"\b0[xX][0-9a-fA-F]+", lambda hexadecimal: str(int(hexadecimal[0], 16)), expanded)
    expanded = re.sub(r"(?<=\d)[uUlL]+", "", expanded)
    if not re.fullmatch(r"[\d\s()+\-*/%]+", expanded) or "-" in expanded and re.search(r"[/%]", expanded):
        return None
    try:
        value = evaluate(expanded, {})
    except (OptimlError, ZeroDivisionError):
        return None
    return value if isinstance(value, int) else None


def siblings(node: Node, step: str) -> list[Node]:
    """The statements after `node` in its block (step `next_named_sibling`), or before it, nearest first
    (`prev_named_sibling`)."""
    found, sibling = [], getattr(node, step)
    while sibling is not None:
        found.append(sibling)
        sibling = getattr(sibling, step)
    return found


def inside(node: Node, ancestor: Node) -> bool:
    return ancestor.start_byte <= node.start_byte and node.end_byte <= ancestor.end_byte


def _named(numbers: dict[str, int], name: str) -> int:
    try:
        return numbers[name]
    except KeyError:
        raise Unknown from None


def literal(text: str) -> int | float:
    text = text.rstrip("uUlL")
    if text.lower().startswith("0x"):
        return int(text, 16)
    if any(c in text for c in ".eEfF"):
        return float(text.rstrip("fF"))
    return int(text, 8) if len(text) > 1 and text.startswith("0") else int(text)


def arithmetic(operator: str, a: int | float, b: int | float) -> int | float:
    """C's binary operators on numbers (integer division and remainder truncate toward zero)."""
    if operator in ("/", "%") and b == 0:
        raise Unknown
    if operator == "/":
        return a / b if isinstance(a, float) or isinstance(b, float) else abs(a) // abs(b) * (1 if a * b >= 0 else -1)
    if operator == "%":
        return a - b * arithmetic("/", a, b)
    operations = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "<<": lambda: a << b,
                  ">>": lambda: a >> b, "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b,
                  "<": lambda: int(a < b), "<=": lambda: int(a <= b), ">": lambda: int(a > b),
                  ">=": lambda: int(a >= b), "==": lambda: int(a == b), "!=": lambda: int(a != b),
                  "&&": lambda: int(bool(a) and bool(b)), "||": lambda: int(bool(a) or bool(b))}
    if operator not in operations:
        raise Unknown
    try:
        return operations[operator]()
    except TypeError:
        raise Unknown from None
