"""Loops of a few constant iterations written out: a program rewrite the schedules may start from (IR.md).

A stencil or a convolution written with its taps in loops,

    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 5; ++j)
            acc += x[(y + i - 2) * W + x + j - 2] * w[i * 5 + j];

reads, at each tap, an element at a constant offset from the point, but the offset is the loop's: no schedule sees
which elements neighbouring points share. Written out, each tap is a read at `(y + c1) * W + x + c2` for constants
c1 and c2, and the neighbour windows (schedule.py `neighbour_rows`) hold a row's taps in registers shared across a
warp's lanes. Each copy of a loop's body keeps its own locals (renamed) and reads the loop's variable as its value;
the iterations stay in their order, so every sum is added in the same order.
"""

from __future__ import annotations

from math import prod

from optiml_engine.ir.analysis import folded, names_written
from optiml_engine.ir.program import (
    Assign, Const, For, If, Let, LoopProgram, Ref, Stmt, fresh_name, names_in, substituted, walk)

MOST_COPIES = 64        # the copies of the innermost body a nest may write out (a 5x5 window is 25; 8x8 at most)


def unrolled(program: LoopProgram) -> LoopProgram:
    """The program with each nest of constant loops whose iterations number MOST_COPIES or fewer written out; the
    program itself when it has none."""
    taken = names_in(program)
    body = _written_out(program.body, taken)
    return program if body == program.body else program.model_copy(update={"body": body})


def _written_out(body: list[Stmt], taken: set[str]) -> list[Stmt]:
    out: list[Stmt] = []
    for stmt in body:
        if isinstance(stmt, For) and (trips := _trips(stmt)) is not None:
            out += [s for position in range(trips) for s in _copy(stmt, position, taken)]
        elif isinstance(stmt, For):
            out.append(stmt.model_copy(update={"body": _written_out(stmt.body, taken)}))
        elif isinstance(stmt, If):
            out.append(stmt.model_copy(update={"then": _written_out(stmt.then, taken),
                                               "other": _written_out(stmt.other, taken)}))
        else:
            out.append(stmt)
    return out


def _trips(loop: For) -> int | None:
    """The loop's iterations where it and every loop inside it have constant bounds and the whole nest makes
    MOST_COPIES copies or fewer; None otherwise (or where the body assigns the loop's variable)."""
    nest = [loop, *(s for s in walk(loop.body) if isinstance(s, For))]
    counts = []
    for each in nest:
        start, stop, step = folded(each.start), folded(each.stop), folded(each.step)
        if start is None or stop is None or step is None or step <= 0 or each.var in names_written(each.body):
            return None
        counts.append(max(0, -(-(stop - start) // step)))
    return counts[0] if prod(counts) <= MOST_COPIES else None


def _copy(loop: For, position: int, taken: set[str]) -> list[Stmt]:
    """The `position`-th iteration of `loop` (from 0), its own locals renamed after it, its loops written out."""
    value = folded(loop.start) + position * folded(loop.step)
    declared = {s.name for s in walk(loop.body) if isinstance(s, Let)}
    renames = {name: fresh_name(f"{name}_{position}", taken) for name in declared}
    values = {loop.var: Const(text=str(value)), **{old: Ref(name=new) for old, new in renames.items()}}
    body = substituted(loop.body, values)
    body = [_renamed(stmt, renames) for stmt in body]
    return _written_out(body, taken)


def _renamed(stmt: Stmt, renames: dict[str, str]) -> Stmt:
    """The statement with the locals it declares or assigns renamed (their reads are substituted already)."""
    if isinstance(stmt, (Let, Assign)) and stmt.name in renames:
        stmt = stmt.model_copy(update={"name": renames[stmt.name]})
    if isinstance(stmt, For):
        return stmt.model_copy(update={"body": [_renamed(s, renames) for s in stmt.body]})
    if isinstance(stmt, If):
        return stmt.model_copy(update={"then": [_renamed(s, renames) for s in stmt.then],
                                       "other": [_renamed(s, renames) for s in stmt.other]})
    return stmt
