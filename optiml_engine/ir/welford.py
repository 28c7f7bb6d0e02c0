"""Shifted sums for Welford's running mean and M2: a program rewrite the schedules may start from (IR.md).

A loop that carries a running mean and a running sum of squared deviations, updating the mean by a division by the
count so far,

    delta = v - mean;  mean += delta / (j + 1);  m2 += delta * (v - mean)      // (or a counter n: n += 1; ... / n)

ends with the mean of the values and the sum of their squared deviations: what two plain sums give, shifted by the
first value K to stay accurate (ir/moments.py's algebra), d = v - K: mean = K + sum(d) / count, m2 = sum(d*d) -
sum(d)^2 / count. Each step of the running form depends on the last, so no thread group can share the loop; the sums
can be shared. As for the online normalizer (ir/online.py), the update's spelling is not parsed: the rewrite is a
guess read from the loop's shape (two carried values, one updated through a division, the element the loop reads)
and kept only when the program interpreter finds it equal to the original at the contract's check sizes (the
caller's `agrees`); the verifier checks it again on the GPU, as every candidate.
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.analysis import inlined
from optiml_engine.ir.online import reads_at
from optiml_engine.ir.program import (
    Assign, Binary, Cast, Const, Expr, For, Let, LoopProgram, Ref, Stmt, fresh_name, names_in, substitute)


def shifted_sums(program: LoopProgram, agrees: Callable[[LoopProgram], bool]) -> LoopProgram:
    """The program with its first Welford loop (top level, from zero) as two shifted sums, when `agrees` confirms
    it computes the same; the program itself otherwise."""
    taken = names_in(program)
    for at, stmt in enumerate(program.body):
        if isinstance(stmt, For):
            sums = _sums(stmt, program.body[:at], taken)
            if sums is not None:
                guess = program.model_copy(update={"body": [*program.body[:at], *sums, *program.body[at + 1:]]})
                if agrees(guess):
                    return guess
    return program


def _one(expr: Expr) -> bool:
    """A literal one, of any type (`1`, `1.0f`, `1u`)."""
    try:
        return isinstance(expr, Const) and float(expr.text.rstrip("fFuUlL")) == 1
    except ValueError:
        return False


def _divides(expr: Expr) -> bool:
    return isinstance(expr, Binary) and (expr.op == "/" or _divides(expr.left) or _divides(expr.right))


def _sums(loop: For, before: list[Stmt], taken: set[str]) -> list[Stmt] | None:
    if not (isinstance(loop.step, Const) and loop.step.text == "1"):
        return None
    declared = {s.name: s for s in before if isinstance(s, Let)}
    updates = [s for s in loop.body if isinstance(s, Assign) and s.name in declared]
    carried = list(dict.fromkeys(s.name for s in updates))
    counters = [name for name in carried if all(s.op == "+=" and _one(s.value) for s in updates if s.name == name)]
    moments = [name for name in carried if name not in counters]
    if len(moments) != 2 or len(counters) > 1 or any(isinstance(s, For) for s in loop.body):
        return None
    means = [name for name in moments if any(_divides(s.value) for s in updates if s.name == name)]
    if len(means) != 1:
        return None
    mean = means[0]
    m2 = next(name for name in moments if name != mean)
    # The element: the first local of the loop that reads memory at the loop variable, the loop's locals it reads
    # inlined (a collapsed nest's digits, `b = b_i / HW`).
    locals_ = {s.name: s.value for s in loop.body if isinstance(s, Let) and s.value is not None}
    element = next((value for s in loop.body if isinstance(s, Let) and s.value is not None
                    and reads_at(value := inlined(s.value, locals_), {loop.var})), None)
    if element is None:
        return None
    ctype = " ".join(w for w in declared[mean].ctype.split() if w != "const")
    shift, sd, sdd, d, count = (fresh_name(f"{mean}_{what}", taken) for what in ("shift", "sum", "sumsq", "d", "n"))
    zero = Const(text="0")
    total = Binary(op="-", left=loop.stop, right=loop.start)
    sums = [
        Let(name=shift, ctype=ctype, value=substitute(element, {loop.var: loop.start})),
        Let(name=sd, ctype=ctype, value=zero),
        Let(name=sdd, ctype=ctype, value=zero),
        For(var=loop.var, ctype=loop.ctype, start=loop.start, stop=loop.stop, step=loop.step, body=[
            Let(name=d, ctype=ctype, value=Binary(op="-", left=element, right=Ref(name=shift))),
            Assign(name=sd, op="+=", value=Ref(name=d)),
            Assign(name=sdd, op="+=", value=Binary(op="*", left=Ref(name=d), right=Ref(name=d)))]),
        Let(name=count, ctype=ctype, value=Cast(ctype=ctype, operand=total)),
        Assign(name=mean, op="=", value=Binary(op="+", left=Ref(name=shift), right=Binary(
            op="/", left=Ref(name=sd), right=Ref(name=count)))),
        Assign(name=m2, op="=", value=Binary(op="-", left=Ref(name=sdd), right=Binary(
            op="/", left=Binary(op="*", left=Ref(name=sd), right=Ref(name=sd)), right=Ref(name=count)))),
    ]
    sums += [Assign(name=name, op="+=", value=total) for name in counters]
    return sums
