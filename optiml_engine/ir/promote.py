"""An output element a point updates inside its loops held in a local: a program rewrite the schedules may start
from (IR.md).

PolyBench, and many naive kernels, accumulate in the output itself,

    for (j = 0; j < n; ++j)
        tmp[i] += A[i * n + j] * x[j];

which reads and writes memory at every iteration, and which the reduce and contraction families do not read as a
reduction (their accumulator is a local). Held in a local,

    float tmp_held = tmp[i];
    for (j = 0; j < n; ++j)
        tmp_held += A[i * n + j] * x[j];
    tmp[i] = tmp_held;

the loop is the reduction it is. Exact where every read and write of the array in the point's code is of one element,
whose index reads only the point's parallel indices and the kernel's scalars (the same element throughout, which no
other point reads or writes: points sharing one would race), and no atomic touches the array. The local takes the
element's value where the point's code first touches it (or the value a first write gives it: `y[i] = v`, `c[i] *=
beta`) and the element takes the local's at the end of the point's code: where the code wrote nothing, the value it
had.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import loads, names_of, statement_exprs
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Expr, For, Let, Load, LoopProgram, Ref, Stmt, Store, fresh_name, names_in, rewritten,
    statements_replaced, walk, with_children)


def accumulators_held(program: LoopProgram) -> LoopProgram:
    """The program with each output element its point updates inside a loop held in a local (the module's
    docstring); the program itself when it has none."""
    taken = names_in(program)
    point = {index.name for index in program.space} | {scalar.name for scalar in program.scalars}
    body = program.body
    for array in (a.name for a in program.arrays if not a.const):
        statements = list(walk(body))
        indices = [load.index for stmt in statements for expr in statement_exprs(stmt) for load in loads(expr)
                   if load.array == array] + [stmt.index for stmt in statements
                                              if isinstance(stmt, Store) and stmt.array == array]
        distinct = [index for position, index in enumerate(indices) if index not in indices[:position]]
        updated_in_loop = any(isinstance(inner, Store) and inner.array == array
                              for loop in statements if isinstance(loop, For) for inner in walk(loop.body))
        if len(distinct) != 1 or not updated_in_loop or not names_of(distinct[0]) <= point or \
                any(isinstance(stmt, Atomic) and stmt.array == array for stmt in statements):
            continue
        body = _held(body, array, distinct[0], fresh_name(f"{array}_held", taken), program.element_type(array))
    return program if body is program.body else program.model_copy(update={"body": body})


def _held(body: list[Stmt], array: str, index: Expr, name: str, ctype: str) -> list[Stmt]:
    """`body` with the element `array[index]` held in the local `name` from the first top-level statement that
    touches it, written back at the end."""
    element = Load(array=array, index=index)

    def read(expr: Expr) -> Expr:
        return Ref(name=name) if expr == element else with_children(expr, read)

    def written(stmt: Stmt) -> list[Stmt] | None:
        return [Assign(name=name, op=stmt.op, value=read(stmt.value))] \
            if isinstance(stmt, Store) and stmt.array == array else None

    first = next(position for position, stmt in enumerate(body)
                 if any(load == element for s in walk([stmt]) for e in statement_exprs(s) for load in loads(e)) or
                 any(isinstance(s, Store) and s.array == array for s in walk([stmt])))
    start = body[first]
    if isinstance(start, Store) and element not in loads(start.value):
        # `y[i] = v;` or `c[i] *= beta;` first: the local starts with the value it writes.
        value = start.value if start.op == "=" else Binary(op=start.op[:-1], left=element, right=start.value)
        head, rest = [Let(name=name, ctype=ctype, value=value)], body[first + 1:]
    else:
        head, rest = [Let(name=name, ctype=ctype, value=element)], body[first:]
    return [*body[:first], *head, *statements_replaced(rewritten(rest, read), written),
            Store(array=array, index=index, op="=", value=Ref(name=name))]
