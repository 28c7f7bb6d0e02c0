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

Either loop may declare locals before its update (a collapsed nest's digits, `d = E(n) - m`): the loops are compared
with their locals read through. The mean may be the sum itself, scaled in place between the loops
(`s += E(n); ... s /= count;`).
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
                squared = _centered_squares(second, first, _read_through(first, value))
                if squared is None:
                    break
                accumulator, mean = squared
                between = body[first_at + 1:second_at]
                if _fits(between, total, mean, accumulator, first.var):
                    return [*body[:first_at], *_one_loop(first, value, total, mean, accumulator, between, body,
                                                         taken), *body[second_at + 1:]]
                break
            if not isinstance(second, (Let, Assign)):
                break
    return None


def _update(loop: For) -> Assign | None:
    """The `+=` that ends a loop whose other statements declare locals (with values, none the updated name)."""
    *locals_, update = loop.body or [None]
    if isinstance(update, Assign) and update.op == "+=" and \
            all(isinstance(stmt, Let) and stmt.value is not None and stmt.name != update.name for stmt in locals_):
        return update
    return None


def _read_through(loop: For, expr: Expr) -> Expr:
    """`expr` with the loop's locals replaced by their values (each read through the ones before it)."""
    values: dict[str, Expr] = {}
    for stmt in loop.body[:-1]:
        values[stmt.name] = substitute(stmt.value, values)
    return substitute(expr, values)


def _sum_loop(stmt: Stmt) -> tuple[str, Expr] | None:
    """(s, E) for `for (...; step 1) { locals; s += E; }`."""
    if isinstance(stmt, For) and stmt.step == Const(text="1") and (update := _update(stmt)) is not None and \
            not mentions(_read_through(stmt, update.value), {update.name}):
        return update.name, update.value
    return None


def _centered_squares(loop: For, first: For, value: Expr) -> tuple[str, str] | None:
    """(q, m) when `loop` runs over `first`'s range and only adds (E - m)^2 (its locals read through), E being
    `first`'s summand read through its locals, m a name from outside the loop."""
    if (loop.start, loop.stop, loop.step) != (first.start, first.stop, first.step):
        return None
    update = _update(loop)
    if update is None:
        return None
    squared = substitute(_read_through(loop, update.value), {loop.var: Ref(name=first.var)})
    if not (isinstance(squared, Binary) and squared.op == "*" and squared.left == squared.right):
        return None
    difference = squared.left
    if not (isinstance(difference, Binary) and difference.op == "-" and isinstance(difference.right, Ref) and
            difference.right.name not in {stmt.name for stmt in loop.body} and difference.left == value):
        return None
    return update.name, difference.right.name


def _fits(between: list[Stmt], total: str, mean: str, accumulator: str, var: str) -> bool:
    """Between the loops only declarations and in-place changes of the sum (`s /= count`: the mean may be the sum
    itself), the mean declared there or the sum, the squares' accumulator declared there starting at zero, nothing
    there reading the loop's variable."""
    names = {stmt.name: stmt for stmt in between if isinstance(stmt, Let)}
    scaled = [stmt for stmt in between if isinstance(stmt, Assign) and stmt.name == total]
    start = names.get(accumulator)
    return (len(names) + len(scaled) == len(between) and (mean in names or mean == total) and start is not None
            and is_zero(start.value) and total not in names
            and not any(stmt.value is not None and mentions(stmt.value, {var}) for stmt in between))



def _one_loop(first: For, value: Expr, total: str, mean: str, accumulator: str, between: list[Stmt],
              body: list[Stmt], taken: set[str]) -> list[Stmt]:
    declared = {stmt.name: stmt for stmt in body if isinstance(stmt, Let)}
    total_type = _variable(declared[total].ctype)
    square_type = _variable(declared[accumulator].ctype)
    shift, shifted, squares, step, offset = (fresh_name(n, taken) for n in (
        f"{total}_shift", f"{total}_shifted", f"{accumulator}_shifted", "d", f"{mean}_offset"))
    count = Cast(ctype=total_type, operand=Binary(op="-", left=first.stop, right=first.start))
    at_first = substitute(_read_through(first, value), {first.var: first.start})
    loop = first.model_copy(update={"body": [
        *first.body[:-1],
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
