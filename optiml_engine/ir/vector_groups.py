"""What a group of consecutive points of a map shares, read off the point code: the addresses its accesses compute
once (index locals inlined), and the lowest digit of an index the code takes apart by a size, which the group's
points share the quotient of. The schedule space asks whether a program has vector accesses through these, the
emitter writes them.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import inlined, loads, names_of, single_assignments, statement_exprs, subexpressions, walk
from optiml_engine.ir.delinearize import bare_index, factors, product, quotient
from optiml_engine.ir.program import (
    Binary, Cast, Expr, Let, Load, Ref, Stmt, Store, rewritten, statements_replaced, with_children)


def typed_single_assignments(body: list[Stmt]) -> dict[str, Expr]:
    """`single_assignments`, each value cast to its local's type (as C converts it on assignment)."""
    lets = {stmt.name: stmt.ctype for stmt in walk(body) if isinstance(stmt, Let)}
    return {name: Cast(ctype=lets[name], operand=value) for name, value in single_assignments(body).items()}


def index_locals_inlined(body: list[Stmt], outside: set[str]) -> list[Stmt]:
    """The statements with each read's and write's index reading the locals it names as their values (each cast to
    its local's type), where the index then reads only `outside` names and no memory: `int64_t src = ((b * S + s) *
    H + h) * D + d; out[...] = x[src];` reads `x` at an address a group of points computes once, unit-stride along
    `d`. The locals stay, for the rest of the code to read."""
    values = typed_single_assignments(body)

    def address(index: Expr) -> Expr:
        value = inlined(index, values)
        return value if names_of(value) <= outside and not loads(value) else index

    def read(expr: Expr) -> Expr:
        expr = with_children(expr, read)
        return expr.model_copy(update={"index": address(expr.index)}) if isinstance(expr, Load) else expr

    return rewritten(statements_replaced(body, lambda stmt: [stmt.model_copy(update={"index": address(stmt.index)})]
                                         if isinstance(stmt, Store) else None), read)


def lowest_digit(body: list[Stmt], variable: str, ctype: str, outside: set[str]) -> Expr | None:
    """The size `D` of the body's `variable % D` (a product of names and literals, not literals alone) whose
    factors every other division of the variable (`variable / E`, `variable % E`) has too: the lowest digit of an
    index the code takes apart. None where there is none, or where the variable is divided otherwise (by a size
    that does not nest with it, or cast to another type first)."""
    divisions = [e for stmt in walk(body) for expr in statement_exprs(stmt) for e in subexpressions(expr)
                 if isinstance(e, Binary) and e.op in ("/", "%") and bare_index(e.left, variable)]
    if not all(_the_index(e.left, variable, ctype) for e in divisions):
        return None
    for candidate in (e.right for e in divisions if e.op == "%"):
        size = factors(candidate)
        if size and any(not name.isdigit() for name in size) and names_of(candidate) <= outside - {variable} and \
                all((other := factors(e.right)) is not None and quotient(other, size) is not None
                    for e in divisions):
            return candidate
    return None


def _the_index(expr: Expr, variable: str, ctype: str) -> bool:
    """Whether the expression is the variable, or the variable cast to its own type (`ctype`)."""
    while isinstance(expr, Cast) and expr.ctype == ctype:
        expr = expr.operand
    return isinstance(expr, Ref) and expr.name == variable


def digit_split(body: list[Stmt], variable: str, ctype: str, size: Expr, quotient_name: str,
                offset_name: str) -> list[Stmt]:
    """The statements over a group of points that share their quotient by `size` (`lowest_digit`; `ctype` the
    variable's type): `variable % size` is `variable + offset`, `variable / (size * E)` is `quotient / E`, and
    `variable % (size * F)` is `quotient % F * size + variable + offset` (for a non-negative variable and a
    positive size)."""
    lowest = factors(size)
    point: Expr = Binary(op="+", left=Ref(name=variable), right=Ref(name=offset_name))

    def read(expr: Expr) -> Expr:
        if isinstance(expr, Binary) and expr.op in ("/", "%") and bare_index(expr.left, variable) and \
                (rest := quotient(factors(expr.right) or (), lowest)) is not None:
            above: Expr = Ref(name=quotient_name) if not rest else \
                Binary(op="/", left=Ref(name=quotient_name), right=product(rest, ctype))
            if expr.op == "/":
                return above
            if not rest:
                return point
            return Binary(op="+", left=Binary(op="*", left=Binary(
                op="%", left=Ref(name=quotient_name), right=product(rest, ctype)), right=size), right=point)
        return with_children(expr, read)

    return rewritten(body, read)
