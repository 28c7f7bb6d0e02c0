"""A branch around a point's loop made a choice of the loop's result: a program rewrite the schedules may start from
(IR.md).

A point that either writes a constant or runs a loop,

    if (col > row) {
        C[row * N + col] = 0.0f;                  // the upper triangle
    } else {
        float sum = 0.0f;
        for (int k = col; k < row + 1; ++k) sum += A[row * N + k] * B[k * N + col];
        C[row * N + col] = sum;
    }

(a product of triangular matrices, a masked row, a boundary written apart) has no loop at the top of its code, where
the reduce, scan and contraction families look for one. Run for every point, the loop changes only its own locals,
and the branch then chooses what to write:

    float sum = 0.0f;
    for (int k = col; k < row + 1; ++k) sum += A[row * N + k] * B[k * N + col];
    if (col > row) { C[row * N + col] = 0.0f; } else { C[row * N + col] = sum; }

Only where one branch is declarations, one loop that writes no memory and no local declared outside that branch, then
code without loops, and the other has no loop; the points that took the other branch now run the loop too, so the rewrite is offered only where it computes
what the program does at the contract's check sizes (a read out of bounds there refuses it).
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.program import Assign, Atomic, For, If, Let, LoopProgram, Store, walk


def loop_hoisted(program: LoopProgram, agrees: Callable[[LoopProgram], bool]) -> LoopProgram:
    """The program with its branch's loop run for every point (the module's docstring), where the program is such a
    branch after declarations and the rewrite agrees with it; the program itself otherwise."""
    *before, last = program.body or [None]
    if not isinstance(last, If) or not all(isinstance(stmt, Let) for stmt in before):
        return program
    for looped, other, looped_is_then in ((last.then, last.other, True), (last.other, last.then, False)):
        loops = [position for position, stmt in enumerate(looped) if isinstance(stmt, For)]
        if len(loops) != 1 or any(isinstance(stmt, For) for stmt in walk(other)) or \
                not all(isinstance(stmt, Let) for stmt in looped[:loops[0]]) or \
                any(isinstance(stmt, For) for stmt in walk(looped[loops[0] + 1:])):
            continue
        prefix, rest = looped[:loops[0] + 1], looped[loops[0] + 1:]
        declared = {stmt.name for stmt in walk(prefix) if isinstance(stmt, Let)}
        # The loop writes no memory and no local of the code around it (the other branch may read those).
        if any(isinstance(stmt, (Store, Atomic)) for stmt in walk(prefix)) or \
                any(isinstance(stmt, Assign) and stmt.name not in declared for stmt in walk(prefix)) or \
                any(isinstance(stmt, Let) and stmt.name in declared for stmt in walk(other)):
            continue
        choice = If(cond=last.cond, then=rest if looped_is_then else other, other=other if looped_is_then else rest)
        rewritten = program.model_copy(update={"body": [*before, *prefix, choice]})
        return rewritten if agrees(rewritten) else program
    return program
