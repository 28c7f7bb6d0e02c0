"""What the schedules need to know about a program: affine index forms, the reductions of its loops, which
statements a thread group may share, and the program's size terms in contract language.

All of it reads the program only (program.py); nothing here looks at CUDA text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Call, Cast, Const, Expr, For, If, Let, Load, LoopProgram, Ref, Select, Stmt, Store, Unary,
    children, mentions, substitute, walk)
from optiml_engine.model import Contract
from optiml_engine.source.ctypes import dtype_of
from optiml_engine.source.expr import evaluate

Linear = dict[str, Expr]          # variable -> coefficient; "" -> the rest (terms free of the variables asked)
def is_integer_cast(ctype: str) -> bool:
    """Whether a C type (qualifiers aside) is an integer type: a cast to it keeps an index an index."""
    dtype = dtype_of(" ".join(word for word in ctype.split() if word not in ("const", "volatile")))
    return dtype is not None and dtype not in ("float16", "bfloat16", "float32", "float64", "bool")


def linear(expr: Expr, variables: set[str]) -> Linear | None:
    """`expr` as sum(coefficient * variable) + rest over `variables`, each coefficient free of them; None when it
    is not affine in them (a variable under / or %, a product of two, inside a call...)."""
    if not mentions(expr, variables):
        return {"": expr}
    if isinstance(expr, Ref):
        return {expr.name: Const(text="1")}
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return linear(expr.operand, variables)
    if isinstance(expr, Binary) and expr.op in ("+", "-"):
        left, right = linear(expr.left, variables), linear(expr.right, variables)
        if left is None or right is None:
            return None
        out = dict(left)
        for name, coefficient in right.items():
            term = coefficient if expr.op == "+" else _negative(coefficient)
            out[name] = _sum(out[name], term) if name in out else term
        return out
    if isinstance(expr, Binary) and expr.op == "*":
        for factor, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if not mentions(factor, variables):
                inner = linear(other, variables)
                if inner is None:
                    return None
                return {name: _product(factor, coefficient) for name, coefficient in inner.items()}
        return None
    if isinstance(expr, Unary) and expr.op == "-":
        inner = linear(expr.operand, variables)
        return None if inner is None else {name: _negative(c) for name, c in inner.items()}
    return None


def _sum(a: Expr, b: Expr) -> Expr:
    if constant(a) is not None and constant(b) is not None:
        return Const(text=str(constant(a) + constant(b)))
    return Binary(op="+", left=a, right=b)


def _product(a: Expr, b: Expr) -> Expr:
    if constant(a) == 1:
        return b
    if constant(b) == 1:
        return a
    if constant(a) is not None and constant(b) is not None:
        return Const(text=str(constant(a) * constant(b)))
    return Binary(op="*", left=a, right=b)


def _negative(a: Expr) -> Expr:
    value = constant(a)
    return Const(text=str(-value)) if value is not None else Unary(op="-", operand=a)


def constant(expr: Expr) -> int | None:
    if isinstance(expr, Const):
        try:
            return int(expr.text.rstrip("uUlL"), 0)
        except ValueError:
            return None
    if isinstance(expr, Unary) and expr.op == "-" and (inner := constant(expr.operand)) is not None:
        return -inner
    return None


def is_zero(value: Expr | None) -> bool:
    """`0`, `0u`, `0.0f`, `0.`, `(float)0`: a sum's start."""
    while isinstance(value, Cast):
        value = value.operand
    return isinstance(value, Const) and re.fullmatch(r"0*\.?0*([eE][-+]?\d+)?[fFuUlL]*", value.text) is not None and \
        any(c == "0" for c in value.text)


def folded(expr: Expr) -> int | None:
    """An integer expression of constants alone evaluated as C does (`-(5 / 2)`: -2, `5 / 2 + 1`: 3); None where it
    reads a name or is not integer arithmetic."""
    if (value := constant(expr)) is not None:
        return value
    if isinstance(expr, Unary) and expr.op in ("-", "+") and (inner := folded(expr.operand)) is not None:
        return -inner if expr.op == "-" else inner
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return folded(expr.operand)
    if isinstance(expr, Binary) and expr.op in ("+", "-", "*", "/", "%"):
        left, right = folded(expr.left), folded(expr.right)
        if left is None or right is None or (expr.op in ("/", "%") and right == 0):
            return None
        if expr.op == "/":
            return abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1)     # C truncates
        if expr.op == "%":
            return left - right * (abs(left) // abs(right) * (1 if (left < 0) == (right < 0) else -1))
        return left + right if expr.op == "+" else left - right if expr.op == "-" else left * right
    return None


Polynomial = dict[tuple[str, ...], int]   # a product of names (sorted) -> its integer coefficient


def polynomial(expr: Expr) -> Polynomial | None:
    """An integer expression as a sum of products of names with integer coefficients, so that two spellings of one
    index compare equal: `(c * H + (y + 1) - 1) * W + x` is {(H, W, c): 1, (W, y): 1, (x,): 1}. None where it has
    anything else (a division, a call, a read, a floating constant)."""
    if (value := constant(expr)) is not None:
        return {(): value} if value else {}
    if isinstance(expr, Ref):
        return {(expr.name,): 1}
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return polynomial(expr.operand)
    if isinstance(expr, Unary) and expr.op == "-":
        inner = polynomial(expr.operand)
        return None if inner is None else {term: -k for term, k in inner.items()}
    if not (isinstance(expr, Binary) and expr.op in ("+", "-", "*")):
        return None
    left, right = polynomial(expr.left), polynomial(expr.right)
    if left is None or right is None:
        return None
    found: Polynomial = {}
    if expr.op == "*":
        for a, j in left.items():
            for b, k in right.items():
                term = tuple(sorted(a + b))
                found[term] = found.get(term, 0) + j * k
    else:
        sign = 1 if expr.op == "+" else -1
        found = dict(left)
        for term, k in right.items():
            found[term] = found.get(term, 0) + sign * k
    return {term: k for term, k in found.items() if k}


def stride(index: Expr, variable: str, others: set[str] = frozenset()) -> Expr | None:
    """The coefficient of `variable` in an affine index (others: further variables that must stay affine too);
    None when the index is not affine in them."""
    form = linear(index, {variable, *others})
    if form is None:
        return None
    return form.get(variable, Const(text="0"))


def unit_stride(index: Expr, variable: str) -> bool:
    return constant(stride(index, variable) or Const(text="x")) == 1



# -- loads, stores, names -----------------------------------------------------------------------------------------

def loads(expr: Expr) -> list[Load]:
    found = [expr] if isinstance(expr, Load) else []
    for child in children(expr):
        found += loads(child)
    return found


def subexpressions(expr: Expr) -> list[Expr]:
    """The expression and every expression inside it, depth first."""
    return [expr, *(e for child in children(expr) for e in subexpressions(child))]


def statement_exprs(stmt: Stmt) -> list[Expr]:
    if isinstance(stmt, Let):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, Assign):
        return [stmt.value]
    if isinstance(stmt, (Store, Atomic)):
        return [stmt.index, stmt.value]
    if isinstance(stmt, For):
        return [stmt.start, stmt.stop, stmt.step]
    if isinstance(stmt, If):
        return [stmt.cond]
    return []


def body_exprs(body: list[Stmt]) -> list[Expr]:
    """Every expression the statements hold, loops' and ifs' bodies included."""
    return [expr for stmt in walk(body) for expr in statement_exprs(stmt)]


def conjuncts(cond: Expr) -> list[Expr]:
    """A condition's terms joined by `&&`."""
    if isinstance(cond, Binary) and cond.op == "&&":
        return conjuncts(cond.left) + conjuncts(cond.right)
    return [cond]


def conjunction(terms: list[Expr]) -> Expr | None:
    """The terms joined by `&&`; None where there are none."""
    result = None
    for term in terms:
        result = term if result is None else Binary(op="&&", left=result, right=term)
    return result


def all_loads(body: list[Stmt]) -> list[Load]:
    return [load for stmt in walk(body) for expr in statement_exprs(stmt) for load in loads(expr)]


def names_of(expr: Expr) -> set[str]:
    """The names an expression reads."""
    names = {expr.name} if isinstance(expr, Ref) else set()
    for child in children(expr):
        names |= names_of(child)
    return names


def names_read(body: list[Stmt]) -> set[str]:
    names: set[str] = set()

    def visit(expr: Expr) -> None:
        if isinstance(expr, Ref):
            names.add(expr.name)
        for child in children(expr):
            visit(child)

    for stmt in walk(body):
        for expr in statement_exprs(stmt):
            visit(expr)
    return names


def names_written(body: list[Stmt]) -> set[str]:
    return {stmt.name for stmt in walk(body) if isinstance(stmt, (Assign, Let))}


def has_loops(body: list[Stmt]) -> bool:
    return any(isinstance(stmt, For) for stmt in walk(body))


def point_dependent(body: list[Stmt], index: str) -> set[str]:
    """The locals whose values differ from one value of the parallel `index` to the next (with `index` itself):
    assigned from it, directly or through other such locals, or assigned under a condition that depends on it."""
    found = {index}
    while True:
        grown = set(found)
        _taint(body, grown, conditional=False)
        if grown == found:
            return found
        found = grown


def conditions_pushed_into_loops(body: list[Stmt], dependent: set[str]) -> list[Stmt]:
    """`if (c) { for (...) S }` as `for (...) if (c) S` wherever c depends on `dependent` names and the loop is the
    condition's whole body (its bounds and S leave c alone): the form in which points that differ in c can share
    the loop."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, For):
            stmt = stmt.model_copy(update={"body": conditions_pushed_into_loops(stmt.body, dependent)})
        elif isinstance(stmt, If):
            then = conditions_pushed_into_loops(stmt.then, dependent)
            other = conditions_pushed_into_loops(stmt.other, dependent)
            loop = then[0] if len(then) == 1 and not other else None
            if isinstance(loop, For) and names_of(stmt.cond) & dependent and \
                    not names_of(stmt.cond) & ({loop.var} | names_written(loop.body)):
                stmt = loop.model_copy(update={"body": [If(cond=stmt.cond, then=loop.body)]})
            else:
                stmt = stmt.model_copy(update={"then": then, "other": other})
        out.append(stmt)
    return out


def _taint(body: list[Stmt], found: set[str], conditional: bool) -> None:
    for stmt in body:
        if isinstance(stmt, (Let, Assign)) and (conditional or any(names_of(e) & found
                                                                   for e in statement_exprs(stmt))):
            found.add(stmt.name)
        elif isinstance(stmt, For):
            _taint(stmt.body, found, conditional)
        elif isinstance(stmt, If):
            inner = conditional or bool(names_of(stmt.cond) & found)
            _taint(stmt.then, found, inner)
            _taint(stmt.other, found, inner)



# -- reductions ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Reduction:
    variable: str
    op: str                   # "+", "*", "max", "min"
    index: str | None = None  # max and min: the variable keeping where the extremum is (argmax, argmin)


_MAX_CALLS = {"fmaxf": "max", "fmax": "max", "max": "max", "fminf": "min", "fmin": "min", "min": "min"}


def reduction_update(stmt: Stmt) -> Reduction | None:
    """`s += e`, `s = s + e`, `s *= e`, `s = fmaxf(s, e)`, `s = e > s ? e : s`, `if (e > s) s = e;` with s not
    in e; None otherwise."""
    if isinstance(stmt, Assign):
        s = stmt.name
        if stmt.op in ("+=", "*=") and not mentions(stmt.value, {s}):
            return Reduction(s, stmt.op[0])
        if stmt.op != "=":
            return None
        value = stmt.value
        if isinstance(value, Binary) and value.op in ("+", "*"):
            for mine, other in ((value.left, value.right), (value.right, value.left)):
                if isinstance(mine, Ref) and mine.name == s and not mentions(other, {s}):
                    return Reduction(s, value.op)
        if isinstance(value, Call) and value.function in _MAX_CALLS and len(value.args) == 2:
            for mine, other in ((value.args[0], value.args[1]), (value.args[1], value.args[0])):
                if isinstance(mine, Ref) and mine.name == s and not mentions(other, {s}):
                    return Reduction(s, _MAX_CALLS[value.function])
        if isinstance(value, Select):
            op = _select_extremum(value.cond, value.then, value.other, s)
            if op is not None:
                return Reduction(s, op)
        return None
    if isinstance(stmt, If) and not stmt.other and len(stmt.then) == 1 and isinstance(stmt.then[0], Assign):
        assign = stmt.then[0]
        if assign.op == "=" and not mentions(assign.value, {assign.name}):
            op = _select_extremum(stmt.cond, assign.value, Ref(name=assign.name), assign.name)
            if op is not None:
                return Reduction(assign.name, op)
    if isinstance(stmt, If) and not stmt.other and len(stmt.then) == 2 and \
            all(isinstance(a, Assign) and a.op == "=" for a in stmt.then):
        # `if (v > best) { best = v; where = j; }`: an extremum and where it is (the first place, as the strict
        # comparison keeps it).
        for value, where in (stmt.then, stmt.then[::-1]):
            names = {value.name, where.name}
            if value.name != where.name and not mentions(value.value, names) and not mentions(where.value, names):
                op = _select_extremum(stmt.cond, value.value, Ref(name=value.name), value.name)
                if op is not None and isinstance(stmt.cond, Binary) and stmt.cond.op in ("<", ">"):
                    return Reduction(value.name, op, index=where.name)
    return None


def _select_extremum(cond: Expr, then: Expr, other: Expr, s: str) -> str | None:
    """'max' for `e > s ? e : s` (and its mirrored spellings), 'min' for the smaller; None otherwise."""
    if not (isinstance(cond, Binary) and cond.op in ("<", "<=", ">", ">=")):
        return None
    if not (isinstance(other, Ref) and other.name == s) or mentions(then, {s}):
        return None
    a, b, op = cond.left, cond.right, cond.op
    if isinstance(a, Ref) and a.name == s:
        a, b, op = b, a, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
    if not (isinstance(b, Ref) and b.name == s) or a != then:
        return None
    return "max" if op in (">", ">=") else "min"


def loop_reductions(loop: For) -> list[Reduction] | None:
    """The reductions a loop carries when every value it carries is one (locals declared outside it updated only
    by a reduction update and read nowhere else in it); None when it carries anything else."""
    declared_inside = {stmt.name for stmt in walk(loop.body) if isinstance(stmt, Let)}
    found: dict[str, Reduction] = {}
    others: list[Stmt] = []
    for stmt in _top_updates(loop.body):
        reduction = reduction_update(stmt)
        if reduction is not None and reduction.variable not in declared_inside:
            if found.get(reduction.variable, reduction) != reduction:
                return None
            found[reduction.variable] = reduction
        else:
            others.append(stmt)
    carried = set(found) | {r.index for r in found.values() if r.index}
    for stmt in others:
        if any(isinstance(s, Assign) and s.name not in declared_inside for s in walk([stmt])):
            return None
        if any(mentions(e, carried) for s in walk([stmt]) for e in statement_exprs(s)):
            return None
    return list(found.values())


def _top_updates(body: list[Stmt]) -> list[Stmt]:
    """The statements of a loop body, with `if`s opened up unless the `if` itself is a reduction update."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, If) and reduction_update(stmt) is None:
            out.append(If(cond=stmt.cond, then=[], other=[]))
            out += _top_updates(stmt.then) + _top_updates(stmt.other)
        else:
            out.append(stmt)
    return out


# -- contract terms -----------------------------------------------------------------------------------------------

def contract_text(expr: Expr, contract: Contract, program: LoopProgram) -> str | None:
    """The expression in the contract's expression language (launch rules), its kernel scalars replaced by their
    contract values; None when it has no such form (a float, a load, a call other than min/max)."""
    values = {s.param: s.value for s in contract.scalars}
    integer_scalars = {s.name for s in program.scalars if is_integer_cast(program.types.get(s.ctype, s.ctype))}

    def text(e: Expr) -> str | None:
        if isinstance(e, Const):
            value = constant(e)
            return None if value is None else str(value)
        if isinstance(e, Ref):
            if e.name in values and e.name in integer_scalars:
                return f"({values[e.name]})"
            return None
        if isinstance(e, Cast) and is_integer_cast(e.ctype):
            return text(e.operand)
        if isinstance(e, Binary) and e.op in ("+", "-", "*", "/", "%"):
            left, right = text(e.left), text(e.right)
            return None if left is None or right is None else f"({left}{e.op}{right})"
        if isinstance(e, Call) and e.function in ("min", "max") and len(e.args) == 2:
            args = [text(a) for a in e.args]
            return None if None in args else f"{e.function}({args[0]},{args[1]})"
        if isinstance(e, Select) and (held := holds(e.cond)) is not None:
            # `c ? a : b` as b + (a - b) * [c], [c] 0 or 1 (a size a code adjusts: PyTorch's ceil-mode extent)
            then, other = text(e.then), text(e.other)
            return None if then is None or other is None else f"({other}+({then}-{other})*{held})"
        return None

    def holds(cond: Expr) -> str | None:
        """An integer comparison as 1 where it holds and 0 where not: [x >= y] = min(max(x - y + 1, 0), 1)."""
        if not (isinstance(cond, Binary) and cond.op in (">=", ">", "<=", "<")):
            return None
        high, low = (cond.left, cond.right) if cond.op in (">=", ">") else (cond.right, cond.left)
        left, right = text(high), text(low)
        if left is None or right is None:
            return None
        return f"min(max({left}-{right}{'+1' if cond.op in ('>=', '<=') else ''},0),1)"

    return text(expr)


def extent(program: LoopProgram, axis: int, contract: Contract) -> str | None:
    """The number of points along a parallel index, in contract terms."""
    index = program.space[axis]
    upper = contract_text(index.upper, contract, program)
    lower = contract_text(index.lower, contract, program)
    if upper is None or lower is None:
        return None
    return upper if lower == "0" else f"max({upper}-{lower},0)"


def inlined(expr: Expr, locals_: dict[str, Expr]) -> Expr:
    """`expr` with the locals it reads replaced by their values, those values' locals too (declarations come before
    their uses, so no local reads itself)."""
    for _ in range(len(locals_) + 1):
        expanded = substitute(expr, locals_)
        if expanded == expr:
            return expr
        expr = expanded
    return expr


def single_assignments(body: list[Stmt]) -> dict[str, Expr]:
    """The locals declared with a value and never assigned again (nor named like a loop's variable): what a read's
    index or a condition may be inlined with."""
    assigned = [s.name for s in walk(body) if isinstance(s, (Let, Assign))]
    loop_vars = {s.var for s in walk(body) if isinstance(s, For)}
    return {s.name: s.value for s in walk(body) if isinstance(s, Let) and s.value is not None and
            assigned.count(s.name) == 1 and s.name not in loop_vars}


def bounds_checks(body: list[Stmt], values: dict[str, Expr], indices: set[str]) -> dict[Expr, Expr]:
    """The conditions of `body` (of an `if` or a `?:`) on the parallel `indices` that, with `values` inlined, read
    no memory, no loop's variable and no other local: the same at every step, known before the code runs (a
    stencil's or a convolution's edges). Each as written -> as inlined."""
    unknown = {s.name for s in walk(body) if isinstance(s, (Let, Assign))} | \
        {s.var for s in walk(body) if isinstance(s, For)}
    found: dict[Expr, Expr] = {}
    for stmt in walk(body):
        conditions = [stmt.cond] if isinstance(stmt, If) else []
        conditions += [e.cond for x in statement_exprs(stmt) for e in subexpressions(x) if isinstance(e, Select)]
        for cond in conditions:
            hoisted = inlined(cond, values)
            names = names_of(hoisted)
            if names & indices and not loads(hoisted) and not names & unknown:
                found[cond] = hoisted
    return found


def extents_at_sizes(program: LoopProgram, contract: Contract) -> tuple[int, ...] | None:
    """Each index's extent at the contract's sizes, outermost first (None: a bound with no contract form)."""
    texts = [extent(program, axis, contract) for axis in range(len(program.space))]
    if any(text is None for text in texts):
        return None
    return tuple(int(evaluate(text, dict(contract.sizes))) for text in texts)


def points_at_sizes(program: LoopProgram, contract: Contract) -> int | None:
    """How many points the program's space has at the contract's sizes (None: a bound with no contract form)."""
    extents = extents_at_sizes(program, contract)
    return None if extents is None else math.prod(extents)


def longest_loop_at_sizes(program: LoopProgram, contract: Contract) -> int | None:
    """The most iterations a loop of the point's code (outside any other loop) runs at the contract's sizes; None
    where a loop's bounds have no contract form (they read the point or the data) or there is no loop."""
    loops = [s for s in walk(program.body) if isinstance(s, For)]
    inner = {id(s) for loop in loops for s in walk(loop.body)}
    trips = []
    for loop in (loop for loop in loops if id(loop) not in inner):
        text = contract_text(Binary(op="-", left=loop.stop, right=loop.start), contract, program)
        if text is None:
            return None
        trips.append(int(evaluate(text, dict(contract.sizes))))
    return max(trips) if trips else None


# -- elements a point's loops share -------------------------------------------------------------------------------

def unconditional_loads(expr: Expr) -> list[Load]:
    """Reads every evaluation of the expression performs (not those under ?:, && or ||'s right side)."""
    if isinstance(expr, Select):
        return unconditional_loads(expr.cond)
    if isinstance(expr, Binary) and expr.op in ("&&", "||"):
        return unconditional_loads(expr.left)
    found = [expr] if isinstance(expr, Load) else []
    for child in children(expr):
        found += unconditional_loads(child)
    return found


POSITION = Ref(name="@position")      # a held access's index with its loop's variable taken out


@dataclass(frozen=True)
class HeldRows:
    """Arrays that the top-level loops of a point, all to the same end, read or write at the same element of each
    step (softmax's row: its maximum's loop, its sum's and its writes' read it at `row + c`; a row maximum's one
    loop), and beside them arrays one of those loops accesses so: a lane taking the same elements in every loop
    (counted from `origin`) may keep them in registers from the first loop to the last. The loops start at the same
    place, or at constants a few apart (a maximum's loop from 1, its start read before it)."""

    loops: tuple[int, ...]                   # positions in the program's body of the loops over the shared range
    origin: Expr                             # the element a lane's steps count from (0, or the loops' first start)
    indices: tuple[tuple[str, Expr], ...]    # (array, its index with the loop's variable as POSITION)
    filled: tuple[tuple[tuple[str, int | None], ...], ...]   # by loop (as `loops`): (array, below) whose registers
                                             # it fills by a read first: every step, or (below) where the element is
                                             # before `below`, which an earlier loop filled from
    kept: tuple[tuple[str, ...], ...]        # by loop: arrays it writes to registers only (a later loop writes every
                                             # element again)

    def arrays(self) -> tuple[str, ...]:
        return tuple(array for array, _ in self.indices)

    def index_at(self, array: str, variable: str) -> Expr:
        return substitute(dict(self.indices)[array], {POSITION.name: Ref(name=variable)})


HELD_START_SPREAD = 32      # most elements apart the starts of held loops may be (fewer than a lane's first step)


def held_rows(program: LoopProgram) -> HeldRows | None:
    """The elements a point's loops share (HeldRows), or None where no array is accessed at the same element by two
    loops to one end, or by a point's only such loop: its row's elements are then loaded before they are used, a
    lane's every load in flight at once, as torch.compile's row reductions hold a row (H200: row_max 0.0748 ->
    0.0723 ms, gemv 0.0726 -> 0.0720 ms, their fastest schedules; bench/results/ir-h200/probe-where-compile-wins/).
    An array qualifies when every access to it in the loops is such an access (no other element, no atomic), the
    rest of the point's code does not write it (nor read it, where the loops write it), and before each loop's first
    conditional access to it, its registers hold the elements that loop starts from: an earlier loop, or this one on
    every step before anything else, read them (filling the registers) or wrote them."""
    fixed = {index.name for index in program.space} | {scalar.name for scalar in program.scalars}
    ranges: dict[tuple, list[int]] = {}
    for position, stmt in enumerate(program.body):
        if isinstance(stmt, For) and constant(stmt.step) == 1 and \
                names_of(stmt.start) | names_of(stmt.stop) <= fixed:
            starts = "constant" if constant(stmt.start) is not None else stmt.start
            ranges.setdefault((stmt.stop, starts), []).append(position)
    group = max(ranges.values(), key=len, default=[])
    if not group:
        return None
    loops = [program.body[position] for position in group]
    starts = [constant(loop.start) for loop in loops]
    if None in starts:
        origin, offsets = loops[0].start, [0] * len(loops)
    else:
        # From 0 where every start is a few elements in (a maximum's loop from 1, its start read before it): a lane's
        # steps then start at multiples of its vector, aligned where the row is.
        low = 0 if max(starts) <= HELD_START_SPREAD else min(starts)
        origin, offsets = Const(text=str(low)), [start - low for start in starts]
        if max(offsets) > HELD_START_SPREAD:
            return None
    first = constant(origin) or 0          # the origin as a number (not one: every offset is then 0)
    indices: dict[str, set] = {}
    touched: dict[str, list[int]] = {}
    for number, loop in enumerate(loops):
        accesses = [(load.array, load.index) for load in all_loads(loop.body)] + \
            [(stmt.array, stmt.index if isinstance(stmt, Store) else None) for stmt in walk(loop.body)
             if isinstance(stmt, (Store, Atomic))]
        for array, index in accesses:
            key = substitute(index, {loop.var: POSITION}) if index is not None and \
                unit_stride(index, loop.var) and names_of(index) <= fixed | {loop.var} else None
            indices.setdefault(array, set()).add(key)
            if number not in touched.setdefault(array, []):
                touched[array].append(number)
    # Arrays the rest of the point's code writes, or reads where the loops write them (reads of an array nothing
    # writes see the same values as the registers).
    outside = [stmt for position, stmt in enumerate(program.body) if position not in group]
    written = {stmt.array for stmt in walk(program.body) if isinstance(stmt, (Store, Atomic))}
    elsewhere = {load.array for load in all_loads(outside) if load.array in written} | \
        {stmt.array for stmt in walk(outside) if isinstance(stmt, (Store, Atomic))}
    chosen, filled = {}, [[] for _ in loops]
    for array, keys in indices.items():
        if len(keys) != 1 or None in keys or array in elsewhere:
            continue
        fills, valid_from = [], None       # elements held from `valid_from` on (offsets from the origin)
        for number in touched[array]:
            touch = _first_touch(loops[number].body, array)
            if valid_from is not None and valid_from <= offsets[number]:
                continue
            if touch is None:
                break
            if touch == "read":
                fills.append((number, valid_from))
            valid_from = offsets[number] if valid_from is None else min(valid_from, offsets[number])
        else:
            chosen[array] = next(iter(keys))
            for number, below in fills:
                filled[number].append((array, None if below is None else below + first))
    # Arrays one loop accesses so are held too (their step's elements then move as one vector), where some other
    # array is shared.
    if not any(len(touched[array]) >= min(2, len(loops)) for array in chosen):
        return None
    # A loop's writes stay in registers where a later loop from no later start writes every element again.
    kept = tuple(tuple(a for a in chosen if any(
        isinstance(stmt, Store) and stmt.array == a for stmt in walk(loop.body)) and any(
        isinstance(stmt, Store) and stmt.array == a for later in range(number + 1, len(loops))
        if offsets[later] <= offsets[number] for stmt in loops[later].body))
        for number, loop in enumerate(loops))
    return HeldRows(loops=tuple(group), origin=origin, indices=tuple(chosen.items()),
                    filled=tuple(tuple(f) for f in filled), kept=kept)


def _first_touch(body: list[Stmt], array: str) -> str | None:
    """How a loop body's first access to `array` happens on every step: "read" or "write"; None where the first
    access is conditional (under an if, in an inner loop, on one side of ?: or &&)."""
    for stmt in body:
        anywhere = any(load.array == array for load in all_loads([stmt])) or \
            any(isinstance(s, (Store, Atomic)) and s.array == array for s in walk([stmt]))
        if not anywhere:
            continue
        if isinstance(stmt, For):
            return None
        exprs = statement_exprs(stmt)
        if any(load.array == array for expr in exprs for load in unconditional_loads(expr)):
            return "read"
        if isinstance(stmt, Store) and stmt.array == array:
            return "write" if stmt.op == "=" else "read"
        return None
    return None
