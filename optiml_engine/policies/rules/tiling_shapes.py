"""What the tiling rules (rules/tiling.py) read off a kernel's tree.

- Polynomials: an integer expression as a sum of integer multiples of products of atoms, so that `row * cols + col`,
  `col + cols*row` and `(row) * cols + (col)` compare equal.
- The grid shape: the global index variables (`blockIdx.x * blockDim.x + threadIdx.x`, in any order), their bounds
  from the guard (`if (row < rows && col < cols) {...}`, or `if (row >= rows || col >= cols) return;`), the
  declarations before the guard that every thread computes alike, and the statements under the guard.
- Counted loops: `for (int k = 0; k < K; k++)`, or `int k = 0; while (k < K) { ...; k++; }`.
- A reduction under the guard: an accumulator set to zero, a counted loop, then the statements that use the result.
- Stencil reads: an abstract interpretation of the guarded statements that bounds every read `img[r * cols + c]` to
  a constant distance from (row, col) and proves it inside the image, whether the original clamps its indices or
  skips the reads that fall outside; a read it cannot bound makes the analysis give up.

No shared helpers exist in kernel_view.py for these yet; they live here, beside their only user.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from tree_sitter import Node

from optiml_engine.policies.kernel_view import KernelView, global_index_dim, unparenthesized

# ---------------------------------------------------------------------------------------------------------------
# Tree helpers

# CUDA's per-thread and per-block coordinates: code that names them depends on the launch geometry.
THREAD_GEOMETRY = frozenset({"threadIdx", "blockIdx", "blockDim", "gridDim"})
# Calls that communicate between threads: code that makes them cannot be moved to another thread mapping.
_COLLECTIVE_PREFIXES = ("__sync", "__shfl", "__ballot", "__activemask", "__any", "__all", "__match", "__reduce")
_INTEGER_WORDS = frozenset({"const", "int", "unsigned", "signed", "long", "short", "size_t", "ptrdiff_t", "int32_t",
                            "uint32_t", "int64_t", "uint64_t", "auto"})
_SIGNED_INTEGER_WORDS = frozenset({"const", "int", "signed", "long", "short", "ptrdiff_t", "int32_t", "int64_t"})
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement", "for_range_loop"})
_INT_LITERAL = re.compile(r"^(-?)(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*$")
_PRIMARY = frozenset({"identifier", "number_literal", "field_expression", "call_expression", "subscript_expression",
                      "parenthesized_expression"})


def statements(node: Node) -> list[Node]:
    """The statements a statement stands for: a block's, or the statement alone; comments left out."""
    children = node.named_children if node.type == "compound_statement" else [node]
    return [child for child in children if child.type != "comment"]


def operator(node: Node) -> str | None:
    op = node.child_by_field_name("operator")
    return op.type if op is not None else None


def condition_of(node: Node) -> Node:
    """The expression of an if or while condition (`condition_clause` wraps it)."""
    condition = node.child_by_field_name("condition")
    if condition.type == "condition_clause":
        condition = condition.child_by_field_name("value")
    return unparenthesized(condition)


def flattened(node: Node, op: str) -> list[Node]:
    """`a op b op c` (parentheses allowed) as [a, b, c]: the conjuncts of `&&`, the disjuncts of `||`."""
    node = unparenthesized(node)
    if node.type == "binary_expression" and operator(node) == op:
        return flattened(node.child_by_field_name("left"), op) + flattened(node.child_by_field_name("right"), op)
    return [node]


def wrapped(view: KernelView, node: Node) -> str:
    """The node's text, parenthesized unless it is a primary expression."""
    text = view.text(node)
    return text if node.type in _PRIMARY else f"({text})"


def int_literal(text: str) -> int | None:
    match = _INT_LITERAL.match(text)
    if match is None:
        return None
    sign, digits = match.groups()
    base = 16 if digits[:2] in ("0x", "0X") else 8 if len(digits) > 1 and digits[0] == "0" else 10
    value = int(digits, base)
    return -value if sign else value


def is_zero_literal(view: KernelView, node: Node) -> bool:
    node = unparenthesized(node)
    if node.type != "number_literal":
        return False
    try:
        return float(view.text(node).rstrip("fFlLuU")) == 0.0
    except ValueError:
        return int_literal(view.text(node)) == 0


def is_integer_type(type_text: str) -> bool:
    words = set(type_text.replace("*", " * ").split())
    return bool(words) and words <= _INTEGER_WORDS and words != {"const"}


def is_signed_integer_type(type_text: str) -> bool:
    """A signed integer type: one where `v < 0` can hold, as clamping code expects."""
    words = set(type_text.split())
    return bool(words) and words <= _SIGNED_INTEGER_WORDS and words != {"const"}


def identifiers(view: KernelView, node: Node) -> Iterator[str]:
    """Names of variables used under `node` (not the names of called functions, fields or types)."""
    for child in view.descendants(node, "identifier"):
        parent = child.parent
        if parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == child:
            continue
        yield view.text(child)


def declarators(view: KernelView, declaration: Node) -> list[tuple[str, Node | None]] | None:
    """(name, initial value) of each plain variable a declaration declares; None if one is an array, a pointer..."""
    found = []
    for declarator in declaration.children_by_field_name("declarator"):
        if declarator.type == "identifier":
            found.append((view.text(declarator), None))
        elif declarator.type == "init_declarator" and declarator.child_by_field_name("declarator").type == "identifier":
            found.append((view.text(declarator.child_by_field_name("declarator")),
                          declarator.child_by_field_name("value")))
        else:
            return None
    return found


def declared_type(view: KernelView, declaration: Node) -> str:
    """The declaration's type as written, qualifiers included ("const int")."""
    first = declaration.children_by_field_name("declarator")[0]
    return view.source[declaration.start_byte:first.start_byte].decode().strip()


def declarations(view: KernelView, node: Node) -> list[str]:
    """The names of the variables declared under `node`, once per declaration (a name declared twice shows twice)."""
    names = []
    for declaration in view.descendants(node, "declaration"):
        for declarator in declaration.children_by_field_name("declarator"):
            while declarator is not None and declarator.type != "identifier":
                declarator = declarator.child_by_field_name("declarator")
            if declarator is not None:
                names.append(view.text(declarator))
    return names


def declared_names(view: KernelView, node: Node) -> set[str]:
    return set(declarations(view, node))


def assigned_names(view: KernelView, node: Node) -> set[str]:
    """Variables that an assignment or increment under `node` changes."""
    names = set()
    for change in view.descendants(node, "assignment_expression", "update_expression"):
        target = change.child_by_field_name("left" if change.type == "assignment_expression" else "argument")
        target = unparenthesized(target)
        if target.type == "identifier":
            names.add(view.text(target))
    return names


def subscripts_of(view: KernelView, node: Node, array: str) -> Iterator[Node]:
    for subscript in view.descendants(node, "subscript_expression"):
        if view.text(subscript.child_by_field_name("argument")) == array:
            yield subscript


def index_of(subscript: Node) -> Node:
    (index,) = subscript.child_by_field_name("indices").named_children
    return index


def is_write(subscript: Node) -> bool:
    parent = subscript.parent
    while parent is not None and parent.type == "parenthesized_expression":
        subscript, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "assignment_expression":
        return parent.child_by_field_name("left") == subscript
    return parent.type == "update_expression" or (parent.type == "pointer_expression" and operator(parent) == "&")


def read_only_array(view: KernelView, array: str) -> bool:
    """Every use of `array` in the kernel is a read `array[i]`: nothing writes it or lets its address escape."""
    for use in view.descendants(view.body, "identifier"):
        if view.text(use) != array:
            continue
        parent = use.parent
        if parent.type != "subscript_expression" or parent.child_by_field_name("argument") != use or is_write(parent):
            return False
    return True


def movable(view: KernelView, nodes: list[Node], returns: bool = False) -> bool:
    """Whether these statements compute the same thing when another thread, at another place in the launch or in a
    block of another shape, runs them: they name no thread coordinates, talk to no other thread, declare no shared
    memory, and (unless `returns`: they stay the last thing their thread does) return nothing."""
    for node in nodes:
        for child in view.descendants(node):
            if child.type == "identifier" and view.text(child) in THREAD_GEOMETRY:
                return False
            if child.type in ("goto_statement", "labeled_statement") or \
                    (child.type == "return_statement" and not returns):
                return False
            if child.child_count == 0 and view.text(child) == "__shared__":
                return False
            if child.type == "call_expression" and view.text(child.child_by_field_name("function")).startswith(
                    _COLLECTIVE_PREFIXES):
                return False
    return True


def foreign_locals(view: KernelView, nodes: list[Node], allowed: set[str]) -> set[str]:
    """The kernel's local variables that these statements use without declaring them, beyond `allowed`."""
    kernel_locals = declared_names(view, view.body)
    own = set().union(*(declared_names(view, node) for node in nodes))
    used = {name for node in nodes for name in identifiers(view, node)}
    return (used & kernel_locals) - own - allowed


def _within(node: Node, root: Node) -> bool:
    return root.start_byte <= node.start_byte and node.end_byte <= root.end_byte


def escapes_loop(view: KernelView, nodes: list[Node]) -> bool:
    """Whether a `break` or `continue` in these statements (a loop's body) belongs to that loop, not to a loop or
    switch inside them."""
    for root in nodes:
        for jump in view.descendants(root, "break_statement", "continue_statement"):
            owner = jump.parent
            while owner is not None and _within(owner, root) and owner.type not in _LOOPS and not (
                    jump.type == "break_statement" and owner.type == "switch_statement"):
                owner = owner.parent
            if owner is None or not _within(owner, root):
                return True
    return False


def unconditional(node: Node, root: Node) -> bool:
    """Whether `node` runs whenever `root` (a statement holding it) runs: no branch or loop stands between them."""
    child, ancestor = node, node.parent
    while ancestor is not None and ancestor != root:
        if ancestor.type in _LOOPS or ancestor.type in ("if_statement", "conditional_expression", "switch_statement"):
            return False
        if ancestor.type == "binary_expression" and operator(ancestor) in ("&&", "||") and \
                ancestor.child_by_field_name("left") != child:
            return False
        child, ancestor = ancestor, ancestor.parent
    return ancestor == root


# ---------------------------------------------------------------------------------------------------------------
# Polynomials

Monomial = tuple[str, ...]       # sorted atom keys; () is the constant term
Polynomial = dict[Monomial, int]  # monomial -> integer coefficient, no zero coefficients


def atom_key(view: KernelView, node: Node) -> str:
    return "".join(view.text(node).split())


def polynomial(view: KernelView, node: Node) -> Polynomial | None:
    """The expression as a polynomial; identifiers, fields (`blockIdx.x`), calls and quotients are atoms. None for
    comparisons, assignments, floating-point literals and whatever else is no integer sum of products."""
    node = unparenthesized(node)
    kind = node.type
    if kind == "number_literal":
        value = int_literal(view.text(node))
        return None if value is None else _cleaned({(): value})
    if kind in ("identifier", "field_expression", "call_expression", "subscript_expression", "cast_expression"):
        return {(atom_key(view, node),): 1}
    if kind == "unary_expression" and operator(node) in ("-", "+"):
        argument = polynomial(view, node.child_by_field_name("argument"))
        return None if argument is None else scaled(argument, -1 if operator(node) == "-" else 1)
    if kind == "binary_expression":
        op = operator(node)
        if op in ("/", "%", "<<", ">>"):
            return {(atom_key(view, node),): 1}
        if op not in ("+", "-", "*"):
            return None
        left = polynomial(view, node.child_by_field_name("left"))
        right = polynomial(view, node.child_by_field_name("right"))
        if left is None or right is None:
            return None
        if op == "*":
            product: Polynomial = {}
            for left_monomial, left_coefficient in left.items():
                for right_monomial, right_coefficient in right.items():
                    monomial = tuple(sorted(left_monomial + right_monomial))
                    product[monomial] = product.get(monomial, 0) + left_coefficient * right_coefficient
            return _cleaned(product)
        return added(left, right if op == "+" else scaled(right, -1))
    return None


def added(*forms: Polynomial) -> Polynomial:
    total: Polynomial = {}
    for form in forms:
        for monomial, coefficient in form.items():
            total[monomial] = total.get(monomial, 0) + coefficient
    return _cleaned(total)


def scaled(form: Polynomial, factor: int) -> Polynomial:
    return _cleaned({monomial: coefficient * factor for monomial, coefficient in form.items()})


def constant(value: int) -> Polynomial:
    return _cleaned({(): value})


def _cleaned(form: Polynomial) -> Polynomial:
    return {monomial: coefficient for monomial, coefficient in form.items() if coefficient}


def monomial_of(view: KernelView, node: Node) -> Monomial | None:
    """The product of atoms the expression is (`rows`, `ld * 2` is not: its coefficient is 2), or None."""
    form = polynomial(view, node)
    if form is None or len(form) != 1:
        return None
    ((monomial, coefficient),) = form.items()
    return monomial if coefficient == 1 and monomial else None


def strided(form: Polynomial | None, outer: str, inner: str) -> Monomial | None:
    """S when `form` is outer * S + inner (S a nonempty product of atoms other than the two variables)."""
    if form is None or len(form) != 2 or form.get((inner,)) != 1:
        return None
    ((monomial, coefficient),) = [(m, c) for m, c in form.items() if m != (inner,)]
    if coefficient != 1 or monomial.count(outer) != 1 or inner in monomial:
        return None
    stride = list(monomial)
    stride.remove(outer)
    return tuple(stride) if stride and outer not in stride else None


def rendered_monomial(monomial: Monomial) -> str:
    return " * ".join(monomial)


# ---------------------------------------------------------------------------------------------------------------
# The grid shape


@dataclass(frozen=True)
class IndexVar:
    name: str
    type_text: str            # as declared: "int", "const int"
    bound: Node               # the guard's bound: under the guard, 0 <= variable < bound


@dataclass
class GridShape:
    """A one-thread-per-element kernel: global index variables, a guard that bounds each, and the guarded code."""

    x: IndexVar
    y: IndexVar | None
    uniform: set[str]         # scalar parameters and the locals computed from them alone
    uniform_decls: list[Node]  # declarations of those locals, before the guard
    local_values: dict[str, Node]  # uniform local -> its initial value
    body: list[Node]          # the statements under the guard

    def index_vars(self) -> list[IndexVar]:
        return [self.x] if self.y is None else [self.x, self.y]

    def guard(self, view: KernelView) -> str:
        return " && ".join(f"{var.name} < {wrapped(view, var.bound)}" for var in self.index_vars())

    def uniform_text(self, view: KernelView) -> list[str]:
        return [view.text(declaration) for declaration in self.uniform_decls]


def global_index_axis(node: Node) -> str | None:
    """The axis of a global index: "x" for blockIdx.x * blockDim.x + threadIdx.x in any order, "y" likewise (the
    tiles are 2-D)."""
    axis = global_index_dim(node)
    return axis if axis in ("x", "y") else None


def uses_only(view: KernelView, node: Node, names: set[str]) -> bool:
    """Whether the expression reads no memory, no thread coordinate and no variable outside `names`."""
    if any(child.type in ("subscript_expression", "field_expression", "assignment_expression", "update_expression",
                          "pointer_expression") for child in view.descendants(node)):
        return False
    return all(name in names for name in identifiers(view, node))


def _is_early_return(node: Node) -> bool:
    if node.type != "if_statement" or node.child_by_field_name("alternative") is not None:
        return False
    consequence = statements(node.child_by_field_name("consequence"))
    return len(consequence) == 1 and consequence[0].type == "return_statement" and \
        consequence[0].named_child_count == 0


def _bound(view: KernelView, comparison: Node, violated: bool, index: dict[str, tuple[str, str]],
           uniform: set[str]) -> tuple[str, Node] | None:
    """(variable, bound) when the comparison is `v < B` (or, `violated`, `v >= B`) for an index variable v."""
    comparison = unparenthesized(comparison)
    if comparison.type != "binary_expression":
        return None
    op = operator(comparison)
    left, right = comparison.child_by_field_name("left"), comparison.child_by_field_name("right")
    below, above = (">=", "<=") if violated else ("<", ">")
    if op == below:
        variable, bound = left, right
    elif op == above:
        variable, bound = right, left
    else:
        return None
    variable = unparenthesized(variable)
    if variable.type != "identifier" or view.text(variable) not in index or not uses_only(view, bound, uniform):
        return None
    return view.text(variable), bound


def grid_shape(view: KernelView) -> GridShape | None:
    """The kernel's grid shape, or None when it is not one guarded thread per element (a grid-stride loop, a guard
    that is not a plain bound on each index, an index variable changed after its declaration...).

    Before the guard: index declarations and uniform declarations; then early returns, between which more index
    declarations may stand; then either one `if` on the bounds holding the body, or the body itself."""
    uniform = {p.name for p in view.kernel.params if not p.is_pointer} | {t.name for t in view.kernel.template_params}
    index: dict[str, tuple[str, str]] = {}       # name -> (axis, declared type)
    uniform_decls, local_values, bounds = [], {}, {}
    body = statements(view.body)
    guarded = False           # an early return was seen: declarations from here on are no longer uniform
    for position, statement in enumerate(body):
        declared = declarators(view, statement) if statement.type == "declaration" else None
        if declared and all(value is not None for _, value in declared):
            axes = [global_index_axis(value) for _, value in declared]
            if all(axes) and is_integer_type(declared_type(view, statement)):
                index.update({name: (axis, declared_type(view, statement)) for (name, _), axis in zip(declared, axes)})
                continue
            if not guarded and not any(axes) and all(uses_only(view, value, uniform) for _, value in declared):
                uniform |= {name for name, _ in declared}
                local_values.update(declared)
                uniform_decls.append(statement)
                continue
        if _is_early_return(statement):
            found = [_bound(view, part, True, index, uniform) for part in flattened(condition_of(statement), "||")]
            if not all(found):
                return None
            bounds.update(found)
            guarded = True
            continue
        break
    else:
        return None
    rest = body[position:]
    if len(rest) == 1 and rest[0].type == "if_statement" and rest[0].child_by_field_name("alternative") is None:
        found = [_bound(view, part, False, index, uniform) for part in flattened(condition_of(rest[0]), "&&")]
        if all(found):
            bounds.update(found)
            rest = statements(rest[0].child_by_field_name("consequence"))
    axes = {axis: name for name, (axis, _) in index.items()}
    if len(axes) != len(index) or "x" not in axes or set(bounds) != set(index) or not rest:
        return None
    fixed = set(index) | set(local_values)
    declared = declarations(view, view.body)
    if fixed & assigned_names(view, view.body) or any(declared.count(name) > 1 for name in fixed):
        return None
    variables = {axis: IndexVar(name, index[name][1], bounds[name]) for axis, name in axes.items()}
    return GridShape(x=variables["x"], y=variables.get("y"), uniform=uniform, uniform_decls=uniform_decls,
                     local_values=local_values, body=rest)


def contract_expression(view: KernelView, node: Node, values: dict[str, str], locals_: dict[str, Node]) -> str | None:
    """The C expression in the contract's expression language: parameters become their contract values, uniform
    locals their definitions; None when it uses anything else (a float, a call other than min/max...)."""
    node = unparenthesized(node)
    if node.type == "number_literal":
        value = int_literal(view.text(node))
        return None if value is None else str(value)
    if node.type == "identifier":
        name = view.text(node)
        if name in values:
            value = values[name]
            return value if re.fullmatch(r"\w+", value) else f"({value})"
        if name in locals_:
            inner = contract_expression(view, locals_[name], values, locals_)
            return None if inner is None else inner if re.fullmatch(r"\w+", inner) else f"({inner})"
        return None
    if node.type == "unary_expression" and operator(node) == "-":
        inner = contract_expression(view, node.child_by_field_name("argument"), values, locals_)
        return None if inner is None else f"(-{inner})"
    if node.type == "binary_expression" and operator(node) in ("+", "-", "*", "/", "%"):
        left = contract_expression(view, node.child_by_field_name("left"), values, locals_)
        right = contract_expression(view, node.child_by_field_name("right"), values, locals_)
        return None if left is None or right is None else f"({left}{operator(node)}{right})"
    function = node.child_by_field_name("function") if node.type == "call_expression" else None
    if function is not None and view.text(function) in ("min", "max"):
        arguments = [contract_expression(view, a, values, locals_)
                     for a in node.child_by_field_name("arguments").named_children]
        return None if None in arguments else f"{view.text(function)}({','.join(arguments)})"
    return None


def kernel_values(view: KernelView) -> dict[str, str]:
    """Each integer scalar and template parameter standing for itself: what `contract_expression` needs to say
    whether a bound is expressible at all, before any contract is at hand."""
    return {p.name: p.name for p in view.kernel.params if not p.is_pointer and is_integer_type(p.base_type)} | \
        {t.name: t.name for t in view.kernel.template_params}


# ---------------------------------------------------------------------------------------------------------------
# Counted loops and reductions


@dataclass(frozen=True)
class CountedLoop:
    var: str
    type_text: str
    start: Node
    bound: Node               # the loop runs while var < bound
    body: list[Node]          # its statements; a while loop's final increment left out
    node: Node                # the for or while statement


def _increments(view: KernelView, node: Node, var: str) -> bool:
    """Whether the expression is `var++`, `++var`, `var += 1` or `var = var + 1`."""
    node = unparenthesized(node)
    if node.type == "update_expression":
        return operator(node) == "++" and view.text(node.child_by_field_name("argument")) == var
    if node.type != "assignment_expression" or view.text(node.child_by_field_name("left")) != var:
        return False
    right = polynomial(view, node.child_by_field_name("right"))
    return (operator(node) == "+=" and right == constant(1)) or \
        (operator(node) == "=" and right == {(var,): 1, (): 1})


def _loop_condition(view: KernelView, condition: Node | None, var: str) -> tuple[Node, bool] | None:
    """(B, inclusive) when the condition is `var < B`, `B > var` (not inclusive), `var <= B` or `B >= var`."""
    if condition is None:
        return None
    condition = unparenthesized(condition)
    if condition.type != "binary_expression":
        return None
    op = operator(condition)
    left, right = condition.child_by_field_name("left"), condition.child_by_field_name("right")
    if op in ("<", "<=") and view.text(unparenthesized(left)) == var:
        return right, op == "<="
    if op in (">", ">=") and view.text(unparenthesized(right)) == var:
        return left, op == ">="
    return None


@dataclass(frozen=True)
class ForHeader:
    """`for (T var = start; var < bound (<= when inclusive); var++)`, var changed nowhere else."""

    var: str
    type_text: str
    start: Node
    bound: Node
    inclusive: bool


def for_header(view: KernelView, loop: Node) -> ForHeader | None:
    initializer, update = loop.child_by_field_name("initializer"), loop.child_by_field_name("update")
    if loop.type != "for_statement" or initializer is None or initializer.type != "declaration" or update is None:
        return None
    declared = declarators(view, initializer)
    if not declared or len(declared) != 1 or declared[0][1] is None:
        return None
    (var, start), = declared
    condition = _loop_condition(view, loop.child_by_field_name("condition"), var)
    if condition is None or not _increments(view, update, var) or \
            var in assigned_names(view, loop.child_by_field_name("body")):
        return None
    return ForHeader(var, declared_type(view, initializer), start, *condition)


def counted_loop(view: KernelView, body: list[Node], position: int) -> tuple[CountedLoop, int] | None:
    """The counted loop (`var < bound`, step 1) that starts at body[position], and how many statements it takes (1,
    or 2 for a declaration and a while loop); the loop variable changes nowhere but in the increment."""
    first = body[position]
    if first.type == "for_statement":
        header = for_header(view, first)
        if header is None or header.inclusive:
            return None
        loop_body = statements(first.child_by_field_name("body"))
        return CountedLoop(header.var, header.type_text, header.start, header.bound, loop_body, first), 1
    if first.type != "declaration" or position + 1 >= len(body) or body[position + 1].type != "while_statement":
        return None
    declared = declarators(view, first)
    loop = body[position + 1]
    if not declared or len(declared) != 1 or declared[0][1] is None:
        return None
    (var, start), = declared
    loop_body = statements(loop.child_by_field_name("body"))
    condition = _loop_condition(view, condition_of(loop), var)
    if condition is None or condition[1] or not loop_body or loop_body[-1].type != "expression_statement" or \
            not _increments(view, loop_body[-1].named_children[0], var) or \
            any(var in assigned_names(view, statement) for statement in loop_body[:-1]) or \
            any(True for statement in loop_body for _ in view.descendants(statement, "continue_statement")):
        return None
    return CountedLoop(var, declared_type(view, first), start, condition[0], loop_body[:-1], loop), 2


@dataclass(frozen=True)
class Reduction:
    """`T acc = 0; <counted loop>; <epilogue>`: the guarded statements of a thread that reduces a loop."""

    acc: str
    acc_type: str
    declaration: Node
    loop: CountedLoop
    epilogue: list[Node]


def reduction(view: KernelView, body: list[Node]) -> Reduction | None:
    if len(body) < 3 or body[0].type != "declaration":
        return None
    declared = declarators(view, body[0])
    if not declared or len(declared) != 1 or declared[0][1] is None or not is_zero_literal(view, declared[0][1]):
        return None
    acc_type = declared_type(view, body[0])
    if "const" in acc_type.split():
        return None
    found = counted_loop(view, body, 1)
    if found is None:
        return None
    loop, taken = found
    epilogue = body[1 + taken:]
    if not epilogue:
        return None
    return Reduction(declared[0][0], acc_type, body[0], loop, epilogue)


# ---------------------------------------------------------------------------------------------------------------
# Stencil reads


@dataclass(frozen=True)
class Offset:
    """An integer value: the index variable of `axis` plus an offset in [lo, hi], or (axis None) a constant in
    [lo, hi]. `nonnegative`, `below_bound`: proven 0 <= value, value < the axis' bound."""

    axis: str | None
    lo: int
    hi: int
    nonnegative: bool = False
    below_bound: bool = False

    def __post_init__(self):
        # The axis variable itself is inside [0, bound): so is a value at offset >= 0 (<= 0) of it.
        if self.axis is not None:
            object.__setattr__(self, "nonnegative", self.nonnegative or self.lo >= 0)
            object.__setattr__(self, "below_bound", self.below_bound or self.hi <= 0)


def _sum(a: Offset | None, b: Offset | None) -> Offset | None:
    if a is None or b is None or (a.axis is not None and b.axis is not None):
        return None
    if b.axis is not None:
        a, b = b, a
    if a.axis is None:
        return Offset(None, a.lo + b.lo, a.hi + b.hi)
    return Offset(a.axis, a.lo + b.lo, a.hi + b.hi, a.nonnegative and b.lo >= 0, a.below_bound and b.hi <= 0)


def _negated(a: Offset | None) -> Offset | None:
    return Offset(None, -a.hi, -a.lo) if a is not None and a.axis is None else None


def _clamped(a: Offset | None, low: bool) -> Offset | None:
    """max(a, 0) (low) or min(a, bound - 1): the value moves towards the axis variable, which lies inside both."""
    if a is None or a.axis is None:
        return None
    return replace(a, lo=min(a.lo, 0), hi=max(a.hi, 0), nonnegative=a.nonnegative or low,
                   below_bound=a.below_bound or not low)


def _joined(a: Offset | None, b: Offset | None) -> Offset | None:
    if a is None or b is None or a.axis != b.axis:
        return None
    return Offset(a.axis, min(a.lo, b.lo), max(a.hi, b.hi), a.nonnegative and b.nonnegative,
                  a.below_bound and b.below_bound)


@dataclass
class _State:
    values: dict[str, Offset | None]
    facts: list[Polynomial]   # polynomials known to be >= 0 here

    def copy(self) -> _State:
        return _State(dict(self.values), list(self.facts))

    def assign(self, name: str, value: Offset | None) -> None:
        """Sets a variable; the facts that mention it (in any atom: `min(r, 0)` too) no longer hold."""
        self.values[name] = value
        mentions = re.compile(rf"\b{re.escape(name)}\b")
        self.facts = [fact for fact in self.facts if not any(mentions.search(atom) for m in fact for atom in m)]

    def join(self, a: _State, b: _State) -> None:
        self.values = {name: _joined(a.values.get(name), b.values.get(name)) for name in a.values.keys() & b.values}
        self.facts = [fact for fact in a.facts if fact in b.facts]


@dataclass(frozen=True)
class StencilRead:
    node: Node                        # the subscript expression
    row_terms: list[tuple[int, Node]]  # the signed terms of its row (multiplied by the row stride)
    col_terms: list[tuple[int, Node]]
    row: Offset
    col: Offset


def signed_terms(node: Node, sign: int = 1) -> list[tuple[int, Node]]:
    """`a - b + (c - d)` as [(1, a), (-1, b), (1, c), (-1, d)]."""
    node = unparenthesized(node)
    if node.type == "binary_expression" and operator(node) in ("+", "-"):
        right_sign = sign if operator(node) == "+" else -sign
        return signed_terms(node.child_by_field_name("left"), sign) + \
            signed_terms(node.child_by_field_name("right"), right_sign)
    return [(sign, node)]


def rendered_terms(view: KernelView, terms: list[tuple[int, Node]]) -> str:
    text = ""
    for sign, node in terms:
        if text:
            text += " + " if sign > 0 else " - "
        elif sign < 0:
            text = "-"
        text += wrapped(view, node)
    return text


class _StencilAnalysis:
    """Walks the guarded statements once, tracking each integer local as an Offset and the comparisons known to
    hold, and checks every read of one array on the way. Loops over constant ranges give their variable that
    range; a variable that a loop changes is unknown in and after it."""

    def __init__(self, view: KernelView, shape: GridShape, array: str):
        self.view, self.shape, self.array = view, shape, array
        self.bounds = {"x": polynomial(view, shape.x.bound), "y": polynomial(view, shape.y.bound)}
        self.reads: list[StencilRead] = []
        self.failed = False

    def run(self) -> list[StencilRead] | None:
        state = _State({self.shape.x.name: Offset("x", 0, 0, True, True),
                        self.shape.y.name: Offset("y", 0, 0, True, True)}, [])
        for statement in self.shape.body:
            self.statement(statement, state)
        return None if self.failed or None in self.bounds.values() else self.reads

    # statements

    def statement(self, node: Node, state: _State) -> None:
        kind = node.type
        if kind == "compound_statement":
            outer = dict(state.values)
            declared = set()
            for child in statements(node):
                self.statement(child, state)
                if child.type == "declaration":
                    declared |= declared_names(self.view, child)
            for name in declared:                # the block's own variables end with it
                state.assign(name, outer.get(name))
        elif kind == "declaration":
            self.declaration(node, state)
        elif kind == "expression_statement":
            if node.named_child_count:
                self.scan(node.named_children[0], state)
                self.effects(node.named_children[0], state)
        elif kind == "if_statement":
            self.branch(node, state)
        elif kind == "for_statement":
            self.for_loop(node, state)
        elif kind in ("while_statement", "do_statement"):
            self.widen(node, state)
            inner = state.copy()
            self.scan(node.child_by_field_name("condition"), inner)
            self.statement(node.child_by_field_name("body"), inner)
            self.widen(node, state)
        elif kind == "return_statement":
            for child in node.named_children:
                self.scan(child, state)
        elif kind not in ("break_statement", "continue_statement", "comment"):
            if any(True for _ in subscripts_of(self.view, node, self.array)):
                self.failed = True
            self.widen(node, state)

    def declaration(self, node: Node, state: _State) -> None:
        declared = declarators(self.view, node)
        names = declared_names(self.view, node)
        for child in node.named_children:
            self.scan(child, state)
        if declared is None or not is_signed_integer_type(declared_type(self.view, node)):
            for name in names:
                state.assign(name, None)
            return
        for name, value in declared:
            state.assign(name, None if value is None else self.value(value, state))

    def effects(self, expression: Node, state: _State) -> None:
        """Applies an expression statement's changes: a lone `v = e`, `v += e`, `v -= e`, `v++` or `v--` is
        followed; any other change makes the variable unknown."""
        expression = unparenthesized(expression)
        changed = assigned_names(self.view, expression)
        changes = list(self.view.descendants(expression, "assignment_expression", "update_expression"))
        if changes != [expression] or len(changed) != 1:
            for name in changed:
                state.assign(name, None)
            return
        (name,) = changed
        current, op = state.values.get(name), operator(expression)
        if expression.type == "update_expression":
            value = _sum(current, Offset(None, 1, 1) if op == "++" else Offset(None, -1, -1))
        else:
            right = self.value(expression.child_by_field_name("right"), state)
            value = {"=": right, "+=": _sum(current, right), "-=": _sum(current, _negated(right))}.get(op)
        state.assign(name, value)

    def branch(self, node: Node, state: _State) -> None:
        condition = condition_of(node)
        self.scan(condition, state)
        if self.clamp(node, state):
            return
        taken, other = state.copy(), state.copy()
        self.refine(condition, taken)
        self.statement(node.child_by_field_name("consequence"), taken)
        alternative = node.child_by_field_name("alternative")
        if alternative is not None:
            for child in alternative.named_children:
                self.statement(child, other)
        state.join(taken, other)

    def for_loop(self, node: Node, state: _State) -> None:
        inner = state.copy()
        initializer, update = node.child_by_field_name("initializer"), node.child_by_field_name("update")
        if initializer is not None and initializer.type == "declaration":
            self.declaration(initializer, inner)
        elif initializer is not None:
            self.scan(initializer, inner)
            self.effects(initializer, inner)
        self.widen(node, inner)
        header = for_header(self.view, node)
        if header is not None and is_signed_integer_type(header.type_text):
            start, bound = self.value(header.start, state), self.value(header.bound, state)
            last = bound if header.inclusive else _sum(bound, Offset(None, -1, -1))
            if start is not None and last is not None and start.axis is None and last.axis is None and \
                    start.lo == start.hi and last.lo == last.hi:
                inner.assign(header.var, Offset(None, start.lo, max(start.lo, last.lo)))
        self.scan(node.child_by_field_name("condition"), inner)
        self.statement(node.child_by_field_name("body"), inner)
        self.scan(update, inner)
        self.widen(node, state)

    def widen(self, node: Node, state: _State) -> None:
        for name in assigned_names(self.view, node):
            state.assign(name, None)

    def clamp(self, node: Node, state: _State) -> bool:
        """`if (v < 0) v = 0;` and `if (v > N - 1) v = N - 1;` (or `v >= N`), N the bound of v's axis: v clamped
        into the image, which holds the axis variable itself."""
        consequence = statements(node.child_by_field_name("consequence"))
        if node.child_by_field_name("alternative") is not None or len(consequence) != 1 or \
                consequence[0].type != "expression_statement" or consequence[0].named_child_count != 1:
            return False
        assignment = unparenthesized(consequence[0].named_children[0])
        if assignment.type != "assignment_expression" or operator(assignment) != "=":
            return False
        target = unparenthesized(assignment.child_by_field_name("left"))
        current = state.values.get(self.view.text(target)) if target.type == "identifier" else None
        fact = self.normalized(condition_of(node))
        value = polynomial(self.view, assignment.child_by_field_name("right"))
        if current is None or current.axis is None or fact is None or value is None:
            return False
        name = self.view.text(target)
        variable = {(name,): 1}
        bound = self.bounds[current.axis]
        if value == {} and added(fact, variable) in ({}, constant(-1)):            # v < 0, v <= 0
            state.assign(name, _clamped(current, low=True))
            return True
        if value == added(bound, constant(-1)) and added(fact, scaled(variable, -1), bound) in ({}, constant(1)):
            state.assign(name, _clamped(current, low=False))                        # v >= N, v > N - 1, v >= N - 1
            return True
        return False

    # expressions

    def normalized(self, comparison: Node) -> Polynomial | None:
        """The comparison as a polynomial F with F >= 0 (integers: a < b is b - a - 1 >= 0)."""
        comparison = unparenthesized(comparison)
        if comparison.type != "binary_expression" or operator(comparison) not in (">=", ">", "<=", "<"):
            return None
        left = polynomial(self.view, comparison.child_by_field_name("left"))
        right = polynomial(self.view, comparison.child_by_field_name("right"))
        if left is None or right is None:
            return None
        op = operator(comparison)
        difference = added(left, scaled(right, -1)) if op in (">=", ">") else added(right, scaled(left, -1))
        return added(difference, constant(-1)) if op in (">", "<") else difference

    def refine(self, condition: Node, state: _State) -> None:
        for part in flattened(condition, "&&"):
            fact = self.normalized(part)
            if fact is not None:
                state.facts.append(fact)

    def scan(self, node: Node | None, state: _State) -> None:
        """Checks the reads of the array in an expression, under what its conditions (`c ? a : b`, `c && a`) add."""
        if node is None:
            return
        if node.type == "subscript_expression" and self.view.text(node.child_by_field_name("argument")) == self.array:
            self.read(node, state)
        elif node.type == "conditional_expression":
            self.scan(node.child_by_field_name("condition"), state)
            taken = state.copy()
            self.refine(node.child_by_field_name("condition"), taken)
            self.scan(node.child_by_field_name("consequence"), taken)
            self.scan(node.child_by_field_name("alternative"), state)
            return
        elif node.type == "binary_expression" and operator(node) == "&&":
            self.scan(node.child_by_field_name("left"), state)
            taken = state.copy()
            self.refine(node.child_by_field_name("left"), taken)
            self.scan(node.child_by_field_name("right"), taken)
            return
        for child in node.named_children:
            self.scan(child, state)

    def value(self, node: Node, state: _State) -> Offset | None:
        node = unparenthesized(node)
        kind = node.type
        if kind == "number_literal":
            value = int_literal(self.view.text(node))
            return None if value is None else Offset(None, value, value)
        if kind == "identifier":
            return state.values.get(self.view.text(node))
        if kind == "unary_expression" and operator(node) == "-":
            return _negated(self.value(node.child_by_field_name("argument"), state))
        if kind == "binary_expression" and operator(node) in ("+", "-"):
            left = self.value(node.child_by_field_name("left"), state)
            right = self.value(node.child_by_field_name("right"), state)
            return _sum(left, right if operator(node) == "+" else _negated(right))
        if kind == "call_expression" and self.view.text(node.child_by_field_name("function")) in ("min", "max"):
            arguments = node.child_by_field_name("arguments").named_children
            if len(arguments) == 2:
                return self.clamped_call(self.view.text(node.child_by_field_name("function")), arguments, state)
        return None

    def clamped_call(self, function: str, arguments: list[Node], state: _State) -> Offset | None:
        """max(v, 0) and min(v, N - 1) in either argument order."""
        for value_node, limit_node in (arguments, arguments[::-1]):
            value, limit = self.value(value_node, state), polynomial(self.view, limit_node)
            if value is None or value.axis is None or limit is None:
                continue
            if function == "max" and limit == {}:
                return _clamped(value, low=True)
            if function == "min" and limit == added(self.bounds[value.axis], constant(-1)):
                return _clamped(value, low=False)
        return None

    def read(self, node: Node, state: _State) -> None:
        """Records a read `array[R * N + C]` (N the column bound) whose row R and column C are proven inside the
        image at a constant distance from the thread's own; any other read makes the analysis fail."""
        row_terms, col_terms = [], []
        for sign, term in signed_terms(index_of(node)):
            factor = None
            if term.type == "binary_expression" and operator(term) == "*":
                left, right = term.child_by_field_name("left"), term.child_by_field_name("right")
                if polynomial(self.view, right) == self.bounds["x"]:
                    factor = left
                elif polynomial(self.view, left) == self.bounds["x"]:
                    factor = right
            if factor is not None:
                row_terms.append((sign, factor))
            else:
                col_terms.append((sign, term))
        row, col = self.position(row_terms, "y", state), self.position(col_terms, "x", state)
        if row is None or col is None:
            self.failed = True
            return
        self.reads.append(StencilRead(node, row_terms, col_terms, row, col))

    def position(self, terms: list[tuple[int, Node]], axis: str, state: _State) -> Offset | None:
        """The Offset of a sum of signed terms, if it is on `axis` and proven inside [0, bound)."""
        total: Offset | None = Offset(None, 0, 0)
        form: Polynomial | None = {}
        for sign, term in terms:
            value = self.value(term, state)
            total = _sum(total, value if sign > 0 else _negated(value))
            term_form = polynomial(self.view, term)
            form = None if form is None or term_form is None else added(form, scaled(term_form, sign))
        if total is None or total.axis != axis:
            return None
        if form is not None:
            upper_slack = added(self.bounds[axis], constant(-1), scaled(form, -1))   # bound - 1 - position >= 0
            total = replace(total, nonnegative=total.nonnegative or self.implied(form, state),
                            below_bound=total.below_bound or self.implied(upper_slack, state))
        return total if total.nonnegative and total.below_bound else None

    def implied(self, form: Polynomial, state: _State) -> bool:
        """Whether form >= 0 follows from a known fact F >= 0: form - F is a sum of constants and loop variables
        whose ranges keep it >= 0."""
        for fact in state.facts:
            low = 0
            for monomial, coefficient in added(form, scaled(fact, -1)).items():
                value = state.values.get(monomial[0]) if len(monomial) == 1 else None
                if monomial == ():
                    low += coefficient
                elif value is not None and value.axis is None:
                    low += min(coefficient * value.lo, coefficient * value.hi)
                else:
                    break
            else:
                if low >= 0:
                    return True
        return False


def stencil_reads(view: KernelView, shape: GridShape, array: str) -> list[StencilRead] | None:
    """Every read of `array` under the guard of a 2-D kernel, each within a constant distance of (row, col) and
    inside the image; None when a read is not proven so."""
    if shape.y is None:
        return None
    return _StencilAnalysis(view, shape, array).run()
