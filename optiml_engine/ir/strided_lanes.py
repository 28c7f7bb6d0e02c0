"""A block's threads striding one loop, their partial sums added into memory, made one point's loop: a program
rewrite the schedules may start from (IR.md).

A block per row whose threads share the row's loop (lift.py reads each thread as a point of its own),

    parallel for row in [0, N), thread_x in [0, 256):
        float partial = 0.0f;
        for (int c = thread_x; c < C; c += 256) partial += f(row, c);
        atomicAdd(&loss[row], partial);

adds, over its 256 points of a row, the terms of every c once: the sum one point walking the whole row adds,

    parallel for row in [0, N):
        float partial = 0.0f;
        for (int c = 0; c < C; c += 1) partial += f(row, c);
        atomicAdd(&loss[row], partial);

which the reduce family then shares among a group of threads again, as it chooses. The same sum for integers; for
floating point the same sum reassociated, as the kernel's own atomics already add its partials in any order. Only
where the lane index is read nowhere but as the start of such loops stepping by its extent (a constant), each loop
at the top of the point's code only adding to locals that start at zero, and the code after the loops only adds
those locals to memory with atomicAdd at elements the lane index does not choose. A floating-point sum may be
scaled as it is added (`atomicAdd(&loss, partial / n)`, a mean or a batch mean) by a factor read from neither the
lane nor the sums: scaling each partial and scaling their sum differ in rounding alone.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import constant, is_zero, names_of, reduction_update, statement_exprs
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Const, Expr, For, Let, LoopProgram, Ref, Stmt, Store, mentions, walk)
from optiml_engine.source.ctypes import dtype_of, is_float


def lanes_folded(program: LoopProgram) -> LoopProgram:
    """The program with a lane index its loops stride by folded into them (the module's docstring); the program
    itself where no index is such a lane."""
    for lane in program.space:
        width = constant(lane.upper) if constant(lane.lower) == 0 else None
        folded = _folded(program.body, lane.name, width) if width is not None and width > 1 else None
        if folded is not None:
            return program.model_copy(update={"space": [i for i in program.space if i.name != lane.name],
                                              "body": folded})
    return program


def _folded(body: list[Stmt], lane: str, width: int) -> list[Stmt] | None:
    loops = [stmt for stmt in body if isinstance(stmt, For) and stmt.start == Ref(name=lane)]
    if not loops or any(constant(loop.step) != width or mentions(loop.stop, {lane}) for loop in loops):
        return None
    sums = set().union(*(_sums(loop) for loop in loops))
    zeros = {stmt.name for stmt in body if isinstance(stmt, Let) and is_zero(stmt.value)}
    floats = {stmt.name for stmt in body if isinstance(stmt, Let) and (dtype := dtype_of(stmt.ctype)) is not None
              and is_float(dtype)}
    last = max(body.index(loop) for loop in loops)
    before, after = [s for s in body[:last + 1] if s not in loops], body[last + 1:]
    # The lane is read only as the loops' start; the sums only added to in the loops and added to memory after.
    if None in sums or not sums <= zeros or \
            any(mentions(e, {lane} | sums) for s in walk(before) for e in statement_exprs(s)) or \
            any(isinstance(s, Assign) and s.name in sums for s in walk(before)) or \
            any(mentions(e, {lane}) for loop in loops for s in walk(loop.body) for e in statement_exprs(s)) or \
            not all(isinstance(s, Atomic) and s.function == "atomicAdd" and _added(s.value, sums, lane, floats)
                    and not mentions(s.index, {lane}) for s in after):
        return None
    return [stmt.model_copy(update={"start": Const(text="0"), "step": Const(text="1")}) if stmt in loops else stmt
            for stmt in body]


def _sums(loop: For) -> set[str | None]:
    """The locals declared outside the loop that it assigns, each only by adding to it (None: one it assigns
    otherwise, or a write to memory)."""
    inside = {s.name for s in walk(loop.body) if isinstance(s, Let)}
    found: set[str | None] = set()
    for stmt in walk(loop.body):
        if isinstance(stmt, Assign) and stmt.name not in inside:
            update = reduction_update(stmt)
            found.add(stmt.name if update is not None and update.op == "+" and stmt.op == "+=" and
                      stmt.name not in names_of(stmt.value) else None)
        elif isinstance(stmt, (Atomic, Store)):
            found.add(None)
    return found


def _added(value: Expr, sums: set[str | None], lane: str, floats: set[str]) -> bool:
    """Whether an atomic adds one of the sums, or a floating-point one times or over a factor read from neither the
    lane nor the sums."""
    if isinstance(value, Ref):
        return value.name in sums
    if not (isinstance(value, Binary) and value.op in ("*", "/")):
        return False
    pairs = [(value.left, value.right)] + ([(value.right, value.left)] if value.op == "*" else [])
    return any(isinstance(summed, Ref) and summed.name in sums & floats and not mentions(factor, {lane} | sums)
               for summed, factor in pairs)
