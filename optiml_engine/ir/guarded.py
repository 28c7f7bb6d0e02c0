"""Guarded sums made unconditional: a program rewrite the schedules may start from (IR.md).

A loop that adds only where a condition holds,

    for (j = 0; j < L; ++j) {
        if (mask[r * L + j]) running += x[r * L + j];
        out[r * L + j] = running;
    }

(a masked cumulative sum, a count of the elements above a threshold, a sum over the valid tokens) carries a value
whose update the scan and reduce families look for as a top-level statement of the loop. The same update written
as one, `running += mask[r * L + j] ? x[r * L + j] : 0`, adds zero where the condition fails: the same value (for
integers exactly; for floating point the same but for the sign of a zero sum), its read still made only where the
condition holds. Only `+=` and `-=` of a local declared outside the loop, the `if` holding that one statement and
no `else`.
"""

from __future__ import annotations

from optiml_engine.ir.program import Assign, Const, For, If, Let, LoopProgram, Select, Stmt, walk


def guarded_sums(program: LoopProgram) -> LoopProgram:
    """The program with each guarded sum in its point code's top-level loops made unconditional; the program itself
    when it has none."""
    body = [_unguarded(stmt) for stmt in program.body]
    return program if body == program.body else program.model_copy(update={"body": body})


def _unguarded(stmt: Stmt) -> Stmt:
    if not isinstance(stmt, For):
        return stmt
    inside = {s.name for s in walk(stmt.body) if isinstance(s, Let)}
    body = []
    for inner in stmt.body:
        if isinstance(inner, If) and not inner.other and len(inner.then) == 1 and \
                isinstance(update := inner.then[0], Assign) and update.op in ("+=", "-=") and \
                update.name not in inside:
            inner = Assign(name=update.name, op=update.op,
                           value=Select(cond=inner.cond, then=update.value, other=Const(text="0")))
        body.append(inner)
    return stmt.model_copy(update={"body": body})
