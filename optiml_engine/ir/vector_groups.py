"""What a group of consecutive points of a map shares, read off the point code: the addresses its accesses compute
once (index locals inlined), the lowest digit of an index the code takes apart by a size (the group's points share
its quotient), and the branches a group takes whole (its first and last point decide every comparison alike). The
schedule space asks whether a program has vector accesses through these, the emitter writes them.
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.analysis import (
    all_loads, constant, inlined, linear, loads, names_of, single_assignments, statement_exprs, subexpressions,
    unconditional_loads, unit_stride, walk)
from optiml_engine.ir.delinearize import bare_index, factors, product, quotient
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Cast, Const, Expr, For, If, Let, Load, LoopProgram, Ref, Stmt, Store, Unary, mentions,
    rewritten, statements_replaced, with_children)
from optiml_engine.model import Frozen
from optiml_engine.source.ctypes import dtype_of, itemsize


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


def declared_types(program: LoopProgram) -> dict[str, str]:
    """The C type of every name the program declares: its scalars, its parallel indices, its locals."""
    return {p.name: p.ctype for p in program.scalars} | {i.name: i.ctype for i in program.space} | \
        {stmt.name: stmt.ctype for stmt in walk(program.body) if isinstance(stmt, Let)} | \
        {stmt.var: stmt.ctype for stmt in walk(program.body) if isinstance(stmt, For)}


def lowest_digit(body: list[Stmt], variable: str, ctype: str, outside: set[str],
                 declared: dict[str, str]) -> Expr | None:
    """The size `D` of the body's `variable % D` (a product of names and literals, not literals alone) whose
    factors every other division of the variable (`variable / E`, `variable % E`) has too: the lowest digit of an
    index the code takes apart. None where there is none, or where the variable is divided otherwise (by a size
    that does not nest with it, cast to another type first, or of a type C would convert the quotient to:
    `declared` holds the names' types)."""
    divisions = [e for stmt in walk(body) for expr in statement_exprs(stmt) for e in subexpressions(expr)
                 if isinstance(e, Binary) and e.op in ("/", "%") and bare_index(e.left, variable)]
    if not all(_the_index(e.left, variable, ctype) and _keeps_type(e.right, ctype, declared) for e in divisions):
        return None
    for candidate in (e.right for e in divisions if e.op == "%"):
        size = factors(candidate)
        if size and any(not name.isdigit() for name in size) and names_of(candidate) <= outside - {variable} and \
                all((other := factors(e.right)) is not None and quotient(other, size) is not None
                    for e in divisions):
            return candidate
    return None


def _keeps_type(divisor: Expr, ctype: str, declared: dict[str, str]) -> bool:
    """Whether C divides a `ctype` value by the divisor in `ctype` itself (the usual arithmetic conversions leave the
    quotient a `ctype`): the split's quotient is a `ctype`, and must be what the division was."""
    mine, theirs = dtype_of(ctype), _integer_type(divisor, declared)
    return mine is not None and theirs is not None and _common(mine, theirs) == mine


def _integer_type(expr: Expr, declared: dict[str, str]) -> str | None:
    """The dtype (int32, uint64, ...) C gives an integer expression of names (`declared`: their C types), literals,
    casts and + - * / %; None for anything else."""
    if isinstance(expr, Const):
        suffix = expr.text.lstrip("0123456789").lower()
        kind = {"": "int", "u": "unsigned int", "l": "long", "ul": "unsigned long", "lu": "unsigned long",
                "ll": "long long", "ull": "unsigned long long", "llu": "unsigned long long"}.get(suffix)
        return dtype_of(kind) if kind else None
    if isinstance(expr, Cast):
        return dtype_of(expr.ctype) if _integer_type(expr.operand, declared) is not None else None
    if isinstance(expr, Ref):
        found = dtype_of(declared[expr.name]) if expr.name in declared else None
        return found if found is not None and found.lstrip("u").startswith("int") else None
    if isinstance(expr, Binary) and expr.op in ("+", "-", "*", "/", "%"):
        left, right = _integer_type(expr.left, declared), _integer_type(expr.right, declared)
        return None if left is None or right is None else _common(left, right)
    return None


def _common(a: str, b: str) -> str:
    """C's usual arithmetic conversions of two integer dtypes (after promotion to at least int)."""
    a, b = (t if itemsize(t) >= 4 else "int32" for t in (a, b))
    if itemsize(a) != itemsize(b):
        return a if itemsize(a) > itemsize(b) else b
    return a if a.startswith("u") else b


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


def unconditional_reads(body: list[Stmt], variable: str, conditions: bool, eligible: Callable[[str, Expr], bool],
                       written: set[str], taken: list[Load]) -> list[Load]:
    """The reads every run of the statements (not their loops' or ifs' bodies; with `conditions`, their ifs'
    conditions) performs, unit-stride along `variable`, of arrays not `written`, admitted by `eligible` and not
    `taken` already."""
    reads: list[Load] = []
    for stmt in body:
        for expr in evaluated(stmt, conditions):
            for load in unconditional_loads(expr):
                if load not in reads and load not in taken and load.array not in written and \
                        unit_stride(load.index, variable) and eligible(load.array, load.index):
                    reads.append(load)
    return reads


def evaluated(stmt: Stmt, conditions: bool) -> list[Expr]:
    """The expressions a statement evaluates itself (not its loop's or branches' bodies; an if's condition only
    with `conditions`)."""
    return [stmt.value] if isinstance(stmt, (Let, Assign)) and stmt.value is not None else \
        [stmt.index, stmt.value] if isinstance(stmt, Store) else \
        [stmt.cond] if isinstance(stmt, If) and conditions else []


def comparisons(cond: Expr, variable: str) -> list[Expr]:
    """The comparisons a condition joins by &&, || and !, each of two sides affine in `variable` (so that over
    consecutive values of it, one that holds at the first and the last holds throughout); [] when it is anything
    else."""
    if isinstance(cond, Binary) and cond.op in ("&&", "||"):
        left, right = comparisons(cond.left, variable), comparisons(cond.right, variable)
        return left + right if left and right else []
    if isinstance(cond, Unary) and cond.op == "!":
        return comparisons(cond.operand, variable)
    if isinstance(cond, Binary) and cond.op in ("<", "<=", ">", ">=") and \
            linear(cond.left, {variable}) is not None and linear(cond.right, {variable}) is not None:
        return [cond]
    return []


class Branch(Frozen):
    """A top-level if a group of consecutive points may take whole (`uniform_branches`): its condition, and for each
    branch (then, else) the reads it performs every time it runs and the plain writes it makes, unit-stride along the
    points' index."""
    cond: Expr
    reads: tuple[tuple[Load, ...], tuple[Load, ...]]
    writes: tuple[tuple[Store, ...], tuple[Store, ...]]


def uniform_branches(body: list[Stmt], variable: str, outside: set[str], eligible: Callable[[str, Expr], bool],
                     taken: list[Load]) -> list[Branch]:
    """The top-level ifs of `body` whose condition reads only `outside` names and no memory and is made of
    `comparisons`, with the reads each branch's own statements perform every time it runs (the arrays `body` writes
    aside, and the reads `taken` already) and the plain writes they make of arrays `body` neither reads nor writes
    elsewhere, each unit-stride along `variable` and admitted by `eligible`: a group of consecutive points whose
    first and last decide every comparison alike all take one branch, whose reads are then one vector each, and
    whose writes one vector each after the points have run (a causal mask's fill)."""
    written = {stmt.array for stmt in walk(body) if isinstance(stmt, (Store, Atomic))}
    loaded = {load.array for load in all_loads(body)}
    found = []
    for stmt in body:
        if isinstance(stmt, If) and names_of(stmt.cond) <= outside and not loads(stmt.cond) and \
                comparisons(stmt.cond, variable):
            reads = tuple(tuple(unconditional_reads(branch, variable, False, eligible, written, taken))
                          for branch in (stmt.then, stmt.other))
            writes = tuple(tuple(s for s in branch if isinstance(s, Store) and s.op == "=" and
                                 s.array not in loaded and unit_stride(s.index, variable) and
                                 eligible(s.array, s.index) and
                                 sum(1 for other in walk(body) if isinstance(other, (Store, Atomic)) and
                                     other.array == s.array) == 1)
                           for branch in (stmt.then, stmt.other))
            if any(reads) or any(writes):
                found.append(Branch(cond=stmt.cond, reads=reads, writes=writes))
    return found


def expanded_reads(body: list[Stmt], variable: str, width: int, eligible: Callable[[str, Expr, int], bool],
                   taken: list[Load]) -> list[tuple[Load, Binary]]:
    """The reads every run of the body's top-level statements performs whose index moves by one element every `k`
    points: it reads `variable` only through one division `(variable + c) / k` (c fixed over the points, k a literal
    dividing `width`) and is unit-stride in that quotient (nearest upsampling's `x[... + ow / 2]`). Over a group of
    `width` consecutive points whose first dividend is a non-negative multiple of `k`, they read `width / k`
    consecutive elements, each `k` points in turn. Each with its division; the arrays the body writes, the reads
    `taken` and those `eligible(array, index, elements)` refuses aside."""
    written = {stmt.array for stmt in walk(body) if isinstance(stmt, (Store, Atomic))}
    found: list[tuple[Load, Binary]] = []
    for stmt in body:
        for expr in evaluated(stmt, False):
            for load in unconditional_loads(expr):
                # A list, not a set: an expression holding a call does not hash.
                divisions = [e for e in subexpressions(load.index) if isinstance(e, Binary) and e.op == "/" and
                             mentions(e, {variable})]
                if load in taken or load.array in written or any(load == other for other, _ in found) or \
                        len(divisions) != 1:
                    continue
                division = divisions[0]
                k = constant(division.right)
                if k is None or k < 2 or width % k or not unit_stride(division.left, variable):
                    continue
                quotient_index = substitute_expr(load.index, division, Ref(name=f"{variable}_quotient"))
                if not mentions(quotient_index, {variable}) and \
                        unit_stride(quotient_index, f"{variable}_quotient") and \
                        eligible(load.array, load.index, width // k):
                    found.append((load, division))
    return found


def substitute_expr(expr: Expr, old: Expr, new: Expr) -> Expr:
    """The expression with every occurrence of the subexpression `old` replaced by `new`."""
    return new if expr == old else with_children(expr, lambda child: substitute_expr(child, old, new))

