"""Perfectly nested loops made one: a program rewrite the schedules may start from (IR.md).

A point that reduces over several axes walks them as a nest,

    for (o = 0; o < outer; ++o)
        for (i = 0; i < inner; ++i)
            sum += x[(o * extent + c) * inner + i];

(batch norm's statistics over the batch and the pixels of a channel, a norm over a 2-D window), and the reduce
family shares only a single loop among a thread group. The nest is one loop over the product of the extents,

    for (oi = 0; oi < outer * inner; ++oi) { o = oi / inner; i = oi % inner; sum += ...; }

visiting the same iterations in the same order (so every sum is the same sum, added in the same order by one
thread), whose consecutive iterations are the inner loop's (a warp's lanes read neighbouring elements where the
inner loop did). A nest collapses where both loops start at zero, step by one, and the inner loop's bound does not
depend on the outer loop's variable or on anything the nest writes.

The outer body may define locals ahead of the inner loop (`long off = ((long)n * C + c) * HW;`, a row's offset
hoisted by hand, as batch norm's backward writes it): each is then computed in the one loop, from the outer variable
its iteration takes apart. Only locals with a value that nothing in the inner loop writes or redefines, that read no
name the inner loop's variable shadows, and whose names are neither loop's variable: those have the same value at
every inner iteration, so computing them there changes no value.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import constant, names_written
from optiml_engine.ir.program import Binary, Const, For, Let, LoopProgram, Ref, Stmt, fresh_name, mentions, names_in


def collapsed(program: LoopProgram) -> LoopProgram:
    """The program with each perfect nest of its point code's top-level loops made one loop; the program itself
    when it has none."""
    taken = names_in(program)
    body = [_collapsed(stmt, taken) for stmt in program.body]
    return program if body == program.body else program.model_copy(update={"body": body})


def _collapsed(stmt: Stmt, taken: set[str]) -> Stmt:
    if not isinstance(stmt, For) or not stmt.body or not isinstance(stmt.body[-1], For):
        return stmt
    outer_locals = stmt.body[:-1]
    if not all(isinstance(s, Let) and s.value is not None for s in outer_locals):
        return stmt
    inner = _collapsed(stmt.body[-1], taken)
    assert isinstance(inner, For)
    written = names_written(inner.body)
    defined = {s.name for s in outer_locals}
    if any(constant(e) != value for e, value in ((stmt.start, 0), (stmt.step, 1), (inner.start, 0), (inner.step, 1))) \
            or mentions(inner.stop, {stmt.var} | written | defined) or written & defined \
            or {stmt.var, inner.var} & defined \
            or any(mentions(s.value, written | {inner.var}) for s in outer_locals):
        return stmt
    var = fresh_name(f"{stmt.var}_{inner.var}", taken)
    stop = Binary(op="*", left=stmt.stop, right=inner.stop)
    return For(var=var, ctype=stmt.ctype, start=Const(text="0"), stop=stop, step=Const(text="1"),
               body=[Let(name=stmt.var, ctype=f"const {stmt.ctype}", value=Binary(op="/", left=Ref(name=var),
                                                                                right=inner.stop)),
                     Let(name=inner.var, ctype=f"const {inner.ctype}", value=Binary(op="%", left=Ref(name=var),
                                                                                  right=inner.stop)),
                     *outer_locals, *inner.body])
