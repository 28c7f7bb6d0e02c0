"""One pass for a centered second moment: a program rewrite the schedules may start from (IR.md).

The two-pass variance every textbook writes,

    s = 0;  for (n...) s += E(n);          // a sum
    m = f(s);                              // its mean, or anything made of it
    q = 0;  for (n...) q += (E(n) - m)^2;  // centered squares over the same range: a second pass over the data

reads its data twice, and its second loop cannot start before the first has ended, so no schedule may split the loop
across blocks (a column variance over few columns stays one thread group per column). Rewritten with shifted sums
over a single loop, with K = E(first) (any value close to the mean keeps the sums small; the first element is one):

    d = E(n) - K;  sd += d;  sdd += d * d  // one pass
    s = sd + count * K;  m = f(s);  t = m - K;  q = sdd - 2 * t * sd + count * t * t

which is exact algebra for any K and stays accurate when K is near the data (unlike the raw E[x^2] - m^2 form: the
shift removes a large common offset before squaring). The rewritten program has one loop whose two sums split
like any other reduction. The verifier decides, as for every candidate, whether its rounding is within tolerance.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import is_zero
from optiml_engine.ir.program import (
    Assign, Binary, Cast, Const, Expr, For, If, Let, LoopProgram, Ref, Stmt, fresh_name, mentions, names_in,
    substitute)


def one_pass_moments(program: LoopProgram) -> LoopProgram:
    """The program with its first two-pass centered second moment made one pass; the program itself when it has
    none."""
    taken = names_in(program)
    body = _rewritten(program.body, taken)
    return program if body is None else program.model_copy(update={"body": body})


def _rewritten(body: list[Stmt], taken: set[str]) -> list[Stmt] | None:
    for first_at, first in enumerate(body):
        summand = _sum_loop(first)
        if summand is None:
            continue
        total, value = summand
        for second_at in range(first_at + 1, len(body)):
            second = body[second_at]
            if isinstance(second, For):
                squared = _centered_squares(second, first, value)
                if squared is None:
                    break
                accumulator, mean = squared
                between = body[first_at + 1:second_at]
                if _fits(between, total, mean, accumulator, first.var):
                    return [*body[:first_at], *_one_loop(first, value, total, mean, accumulator, between, body,
                                                         taken), *body[second_at + 1:]]
                break
            if not isinstance(second, Let):
                break
    return None


def _sum_loop(stmt: Stmt) -> tuple[str, Expr] | None:
    """(s, E) for `for (...; step 1) s += E;`."""
    if isinstance(stmt, For) and stmt.step == Const(text="1") and len(stmt.body) == 1:
        update = stmt.body[0]
        if isinstance(update, Assign) and update.op == "+=" and not mentions(update.value, {update.name}):
            return update.name, update.value
    return None


def _centered_squares(loop: For, first: For, value: Expr) -> tuple[str, str] | None:
    """(q, m) when `loop` runs over `first`'s range and only adds (E - m)^2, E being `first`'s summand."""
    if (loop.start, loop.stop, loop.step) != (first.start, first.stop, first.step):
        return None
    renamed = {loop.var: Ref(name=first.var)}
    statements = loop.body
    difference: Expr | None = None
    if len(statements) == 2 and isinstance(statements[0], Let) and statements[0].value is not None:
        local = statements[0].name
        difference = statements[0].value
        update = statements[1]
        squared = Binary(op="*", left=Ref(name=local), right=Ref(name=local))
    elif len(statements) == 1:
        update = statements[0]
        squared = None
        if isinstance(update, Assign) and isinstance(update.value, Binary) and update.value.op == "*" and \
                update.value.left == update.value.right:
            difference = update.value.left
            squared = update.value
    else:
        return None
    if not (isinstance(update, Assign) and update.op == "+=" and update.value == squared and
            isinstance(difference, Binary) and difference.op == "-" and isinstance(difference.right, Ref)):
        return None
    if substitute(difference.left, renamed) != value:
        return None
    return update.name, difference.right.name


def _fits(between: list[Stmt], total: str, mean: str, accumulator: str, var: str) -> bool:
    """Only declarations between the loops, the mean among them, the squares' accumulator starting at zero, and
    nothing there that changes the sum."""
    names = {stmt.name: stmt for stmt in between if isinstance(stmt, Let)}
    start = names.get(accumulator)
    return (len(names) == len(between) and mean in names and start is not None and is_zero(start.value)
            and total not in names and not any(stmt.value is not None and mentions(stmt.value, {var})
                                               for stmt in between))



def _one_loop(first: For, value: Expr, total: str, mean: str, accumulator: str, between: list[Stmt],
              body: list[Stmt], taken: set[str]) -> list[Stmt]:
    declared = {stmt.name: stmt for stmt in body if isinstance(stmt, Let)}
    total_type = _variable(declared[total].ctype)
    square_type = _variable(declared[accumulator].ctype)
    shift, shifted, squares, step, offset = (fresh_name(n, taken) for n in (
        f"{total}_shift", f"{total}_shifted", f"{accumulator}_shifted", "d", f"{mean}_offset"))
    count = Cast(ctype=total_type, operand=Binary(op="-", left=first.stop, right=first.start))
    at_first = substitute(value, {first.var: first.start})
    loop = first.model_copy(update={"body": [
        Let(name=step, ctype=total_type, value=Binary(op="-", left=value, right=Ref(name=shift))),
        Assign(name=shifted, op="+=", value=Ref(name=step)),
        Assign(name=squares, op="+=", value=Binary(op="*", left=Ref(name=step), right=Ref(name=step))),
    ]})
    t = Ref(name=offset)
    centered = Binary(op="+", left=Binary(op="-", left=Ref(name=squares), right=Binary(
        op="*", left=Binary(op="*", left=Const(text="2"), right=t), right=Ref(name=shifted))),
        right=Binary(op="*", left=count, right=Binary(op="*", left=t, right=t)))
    return [
        Let(name=shift, ctype=total_type, value=Const(text="0")),
        If(cond=Binary(op="<", left=first.start, right=first.stop), then=[Assign(name=shift, op="=", value=at_first)]),
        Let(name=shifted, ctype=total_type, value=Const(text="0")),
        Let(name=squares, ctype=square_type, value=Const(text="0")),
        loop,
        # `s` stays declared where the program declared it (before its loop): assigned its whole sum here.
        Assign(name=total, op="=",
               value=Binary(op="+", left=Ref(name=shifted), right=Binary(op="*", left=count, right=Ref(name=shift)))),
        *[stmt for stmt in between if not (isinstance(stmt, Let) and stmt.name == accumulator)],
        Let(name=offset, ctype=total_type, value=Binary(op="-", left=Ref(name=mean), right=Ref(name=shift))),
        Let(name=accumulator, ctype=declared[accumulator].ctype, value=centered),
    ]


def _variable(ctype: str) -> str:
    return " ".join(word for word in ctype.split() if word != "const")
