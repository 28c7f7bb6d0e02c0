"""The loop-nest program (IR.md): what a naive kernel computes, apart from how it runs.

A program is a parallel space (1-3 indices, each with its bounds) and the per-point code the kernel runs there:
declarations, assignments, stores, atomics, sequential `for` loops and `if`s over scalar expressions, reads
`A[index]` of its array parameters. Nothing in it names a thread: lift.py takes the kernel's thread indices,
guards and grid-stride loops apart into the space, and a schedule (schedule.py) decides how the space and the
loops map onto threads again (emit.py).

Expressions keep C's operators, literals, casts and function names, so that the program prints as C (what the
emitted kernel shows) and the interpreter (interpret.py) follows C's arithmetic.
"""

from __future__ import annotations

import re

from collections.abc import Callable
from typing import Annotated, Literal, Union

from pydantic import Field

from optiml_engine.model import Frozen, Location

# -- expressions --------------------------------------------------------------------------------------------------

class Const(Frozen):
    kind: Literal["const"] = "const"
    text: str                 # the C literal as written ("0.0f", "1e-5", "256u", "true")


class Ref(Frozen):
    """A name: a parallel index, a loop variable, a local, a scalar parameter."""
    kind: Literal["ref"] = "ref"
    name: str


class Load(Frozen):
    kind: Literal["load"] = "load"
    array: str                # an array parameter (aliases are folded into the index)
    index: Expr


class Unary(Frozen):
    kind: Literal["unary"] = "unary"
    op: str                   # "-", "+", "!", "~"
    operand: Expr


class Binary(Frozen):
    kind: Literal["binary"] = "binary"
    op: str                   # C's binary operators
    left: Expr
    right: Expr


class Call(Frozen):
    kind: Literal["call"] = "call"
    function: str             # a CUDA math function or intrinsic (expf, fmaxf, __half2float, ...)
    args: list[Expr]

    def __hash__(self) -> int:
        # A read at a call (`x[min(i, n - 1)]`) is a key like any other read.
        return hash((self.function, tuple(self.args)))


class Select(Frozen):
    kind: Literal["select"] = "select"
    cond: Expr
    then: Expr
    other: Expr


class Cast(Frozen):
    kind: Literal["cast"] = "cast"
    ctype: str
    operand: Expr


Expr = Annotated[Union[Const, Ref, Load, Unary, Binary, Call, Select, Cast], Field(discriminator="kind")]


# -- statements ---------------------------------------------------------------------------------------------------

class Let(Frozen):
    """`ctype name = value;` (a local; value None: declared without an initializer)."""
    kind: Literal["let"] = "let"
    name: str
    ctype: str
    value: Expr | None = None


class Assign(Frozen):
    """`name op value;` for a local, op one of = += -= *= /= %= &= |= ^= <<= >>=."""
    kind: Literal["assign"] = "assign"
    name: str
    op: str
    value: Expr


class Store(Frozen):
    """`array[index] op value;`."""
    kind: Literal["store"] = "store"
    array: str
    index: Expr
    op: str
    value: Expr


class Atomic(Frozen):
    """`atomicAdd(&array[index], value);` (or Max, Min, Sub...), its result unused: a scatter reduction."""
    kind: Literal["atomic"] = "atomic"
    function: str
    array: str
    index: Expr
    value: Expr


class For(Frozen):
    """`for (ctype var = start; var < stop; var += step)`: a sequential loop; step is positive."""
    kind: Literal["for"] = "for"
    var: str
    ctype: str
    start: Expr
    stop: Expr
    step: Expr
    body: list[Stmt]


class If(Frozen):
    kind: Literal["if"] = "if"
    cond: Expr
    then: list[Stmt]
    other: list[Stmt] = Field(default_factory=list)


Stmt = Annotated[Union[Let, Assign, Store, Atomic, For, If], Field(discriminator="kind")]


# -- the program --------------------------------------------------------------------------------------------------

class ParallelIndex(Frozen):
    """One dimension of the parallel space: `name` takes every value in [lower, upper)."""
    name: str
    ctype: str                # the type the kernel declared it with (int, size_t, ...)
    dim: Literal["x", "y", "z"]   # the thread dimension the original kernel mapped it to
    lower: Expr
    upper: Expr


class ArrayParam(Frozen):
    name: str
    ctype: str                # element type as written ("float", "T", "__half")
    const: bool


class ScalarParam(Frozen):
    name: str
    ctype: str


class Assumption(Frozen):
    """What a rewrite of the program assumes of its sizes (`C % (C / groups) == 0`: whole groups), and the program
    as written, which runs where they do not hold."""
    condition: Expr                   # over the scalars alone
    otherwise: LoopProgram


class LoopProgram(Frozen):
    kernel: str
    arrays: list[ArrayParam]
    scalars: list[ScalarParam]
    space: list[ParallelIndex]        # outermost first (the original's z, y, x order)
    body: list[Stmt]
    types: dict[str, str] = Field(default_factory=dict)   # template type parameter -> C type (the contract's)
    location: Location                # the kernel's definition, for messages
    assumption: Assumption | None = None

    def array(self, name: str) -> ArrayParam:
        return next(a for a in self.arrays if a.name == name)

    def element_type(self, name: str) -> str:
        """The C element type of an array, template types resolved."""
        ctype = self.array(name).ctype
        return self.types.get(ctype, ctype)

    def __str__(self) -> str:
        from optiml_engine.ir.printer import program_text
        return program_text(self)


class NotLiftable(Frozen):
    """Why a kernel is not a loop-nest program, at the line that says so."""
    location: Location
    reason: str

    def __str__(self) -> str:
        return f"{self.location}: not liftable: {self.reason}"


# -- reading and rewriting ------------------------------------------------------------------------------------

def children(expr: Expr) -> list[Expr]:
    if isinstance(expr, Load):
        return [expr.index]
    if isinstance(expr, (Unary, Cast)):
        return [expr.operand]
    if isinstance(expr, Binary):
        return [expr.left, expr.right]
    if isinstance(expr, Call):
        return list(expr.args)
    if isinstance(expr, Select):
        return [expr.cond, expr.then, expr.other]
    return []


def mentions(expr: Expr, names: set[str]) -> bool:
    """Whether the expression reads any of the names (as a Ref)."""
    if isinstance(expr, Ref):
        return expr.name in names
    return any(mentions(child, names) for child in children(expr))


def with_children(expr: Expr, rewrite: Callable[[Expr], Expr]) -> Expr:
    """The expression with `rewrite` applied to each of its direct children."""
    if isinstance(expr, Load):
        return expr.model_copy(update={"index": rewrite(expr.index)})
    if isinstance(expr, (Unary, Cast)):
        return expr.model_copy(update={"operand": rewrite(expr.operand)})
    if isinstance(expr, Binary):
        return expr.model_copy(update={"left": rewrite(expr.left), "right": rewrite(expr.right)})
    if isinstance(expr, Call):
        return expr.model_copy(update={"args": [rewrite(a) for a in expr.args]})
    if isinstance(expr, Select):
        return Select(cond=rewrite(expr.cond), then=rewrite(expr.then), other=rewrite(expr.other))
    return expr


def substitute(expr: Expr, values: dict[str, Expr]) -> Expr:
    if isinstance(expr, Ref):
        return values.get(expr.name, expr)
    return with_children(expr, lambda child: substitute(child, values))


def rewritten(body: list[Stmt], rewrite: Callable[[Expr], Expr]) -> list[Stmt]:
    """The statements with `rewrite` applied to every expression they hold."""
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, Let):
            out.append(stmt if stmt.value is None else stmt.model_copy(update={"value": rewrite(stmt.value)}))
        elif isinstance(stmt, Assign):
            out.append(stmt.model_copy(update={"value": rewrite(stmt.value)}))
        elif isinstance(stmt, (Store, Atomic)):
            out.append(stmt.model_copy(update={"index": rewrite(stmt.index), "value": rewrite(stmt.value)}))
        elif isinstance(stmt, For):
            out.append(stmt.model_copy(update={"start": rewrite(stmt.start), "stop": rewrite(stmt.stop),
                                               "step": rewrite(stmt.step), "body": rewritten(stmt.body, rewrite)}))
        elif isinstance(stmt, If):
            out.append(If(cond=rewrite(stmt.cond), then=rewritten(stmt.then, rewrite),
                          other=rewritten(stmt.other, rewrite)))
    return out


def statements_replaced(body: list[Stmt], replace: Callable[[Stmt], list[Stmt] | None]) -> list[Stmt]:
    """The statements with each one `replace` returns statements for replaced by them, loops' and ifs' bodies
    included (a loop or if `replace` leaves, None, is kept with its bodies replaced)."""
    out: list[Stmt] = []
    for stmt in body:
        replacement = replace(stmt)
        if replacement is not None:
            out += replacement
        elif isinstance(stmt, For):
            out.append(stmt.model_copy(update={"body": statements_replaced(stmt.body, replace)}))
        elif isinstance(stmt, If):
            out.append(If(cond=stmt.cond, then=statements_replaced(stmt.then, replace),
                          other=statements_replaced(stmt.other, replace)))
        else:
            out.append(stmt)
    return out


def substituted(body: list[Stmt], values: dict[str, Expr]) -> list[Stmt]:
    """The statements with names replaced by expressions wherever they are read."""
    return rewritten(body, lambda expr: substitute(expr, values))


def names_in(program: LoopProgram) -> set[str]:
    """Every identifier the program's text uses: what a new local must not be called."""
    return set(re.findall(r"[A-Za-z_]\w*", str(program)))


def fresh_name(wanted: str, taken: set[str]) -> str:
    """`wanted`, or `wanted2`, `wanted3`... whichever is not taken; taken from then on."""
    name, count = wanted, 1
    while name in taken:
        count += 1
        name = f"{wanted}{count}"
    taken.add(name)
    return name


def walk(body: list[Stmt]):
    """Every statement, depth first."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, For):
            yield from walk(stmt.body)
        elif isinstance(stmt, If):
            yield from walk(stmt.then)
            yield from walk(stmt.other)


for _model in (Load, Unary, Binary, Call, Select, Cast, For, If, Assumption, LoopProgram):
    _model.model_rebuild()
