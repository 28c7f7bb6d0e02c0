"""Two passes for an online softmax normalizer: a program rewrite the schedules may start from (IR.md).

A loop that carries a running maximum M and a sum S rescaled whenever M grows,

    new = max(M, v);  S = S * exp(M - new) + exp(v - new);  M = new      // element by element, or
    new = max(M, max of a chunk);  S = S * exp(M - new) + sum of the chunk's exp(v - new);  M = new

ends with M = max(M0, every v) and S = S0 * exp(M0 - M) + sum of exp(v - M): what two plain reductions compute, a
maximum and then a sum, which a thread group can share as it shares softmax's passes. The online form cannot be
split that way: each step depends on the last. Recognizing every spelling of the update is not attempted; the
rewrite is a guess read from the loop's shape (the two carried values, the element expression under the exponential)
and kept only when the program interpreter finds it equal to the original at the contract's check sizes on random
inputs (the caller's `agrees`). The verifier checks it again on the GPU, as every candidate.
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.analysis import inlined, names_of, statement_exprs
from optiml_engine.ir.program import (
    Assign, Binary, Call, Const, Expr, For, If, Let, LoopProgram, Ref, Stmt, children, fresh_name, mentions, names_in,
    substitute, walk)

EXPONENTIALS = ("expf", "__expf", "exp")
MAXIMA = ("fmaxf", "max", "fmax")


def two_pass_normalizer(program: LoopProgram, agrees: Callable[[LoopProgram], bool]) -> LoopProgram:
    """The program with its first online normalizer loop (top level) as a maximum pass and a sum pass, when
    `agrees` confirms it computes the same; the program itself otherwise."""
    taken = names_in(program)
    for at, stmt in enumerate(program.body):
        if not isinstance(stmt, For):
            continue
        passes = _passes(stmt, program.body[:at], taken)
        if passes is None:
            continue
        guess = program.model_copy(update={"body": [*program.body[:at], *passes, *program.body[at + 1:]]})
        if agrees(guess):
            return guess
    return program


def _expressions(body: list[Stmt]) -> list[Expr]:
    found, stack = [], [e for stmt in walk(body) for e in statement_exprs(stmt)]
    while stack:
        expr = stack.pop()
        found.append(expr)
        stack.extend(children(expr))
    return found


def _passes(loop: For, before: list[Stmt], taken: set[str]) -> list[Stmt] | None:
    declared = {s.name: s for s in before if isinstance(s, Let)}
    carried = list(dict.fromkeys(s.name for s in walk(loop.body)
                                 if isinstance(s, Assign) and s.op == "=" and s.name in declared))
    # A third carried value, where the maximum is (`if (v > M) { S = S * exp(M - v) + 1; M = v; I = j; } else S +=
    # exp(v - M);`): assigned a loop variable under a strict comparison, which keeps the first maximum.
    variables = {loop.var} | {s.var for s in walk(loop.body) if isinstance(s, For)}
    branches = [s for s in walk(loop.body) if isinstance(s, If) and isinstance(s.cond, Binary) and
                s.cond.op in (">", "<")]
    wheres = [(name, branch) for name in carried for branch in branches
              if any(isinstance(a, Assign) and a.name == name and names_of(a.value) <= variables and
                     names_of(a.value) for a in branch.then)
              and all(not (isinstance(a, Assign) and a.name == name) or a in branch.then for a in walk(loop.body))]
    where = wheres[0] if len(carried) == 3 and len(wheres) == 1 else None
    if where is not None:
        carried = [name for name in carried if name != where[0]]
    if len(carried) != 2:
        return None
    expressions = _expressions(loop.body)
    exponentials = [e for e in expressions if isinstance(e, Call) and e.function in EXPONENTIALS and len(e.args) == 1
                    and isinstance(e.args[0], Binary) and e.args[0].op == "-"]
    # The running maximum: the carried value whose old value is rescaled, exp(M - new).
    rescaled = [e.args[0].left.name for e in exponentials if isinstance(e.args[0].left, Ref)
                and e.args[0].left.name in carried]
    if len(set(rescaled)) != 1:
        return None
    maximum = rescaled[0]
    total = next(name for name in carried if name != maximum)
    # The element: the exponential's operand that reads memory at a loop variable of this loop nest (through the
    # loop's locals: `float v = x[i]; ... exp(v - new)`).
    locals_ = {s.name: s.value for s in walk(loop.body) if isinstance(s, Let) and s.value is not None}
    operands = [inlined(e.args[0].left, locals_) for e in exponentials]
    elements = [operand for operand in operands if reads_at(operand, variables)]
    if not elements:
        return None
    element = elements[0]
    variable = next(v for v in [*(s.var for s in walk(loop.body) if isinstance(s, For)), loop.var]
                    if mentions(element, {v}))
    exponential = next(e.function for e in exponentials)
    largest = next((e.function for e in expressions if isinstance(e, Call) and e.function in MAXIMA), "fmaxf")
    index = fresh_name(f"{variable}_all", taken)
    start_max = fresh_name(f"{maximum}_start", taken)
    value = substitute(element, {variable: Ref(name=index)})
    over_all = dict(var=index, ctype=loop.ctype, start=loop.start, stop=loop.stop, step=Const(text="1"))
    ctype = " ".join(w for w in declared[maximum].ctype.split() if w != "const")
    if where is None:
        maximum_pass = [Assign(name=maximum, op="=", value=Call(function=largest, args=[Ref(name=maximum), value]))]
    else:
        placed = next(a.value for a in where[1].then if isinstance(a, Assign) and a.name == where[0])
        maximum_pass = [If(cond=Binary(op=">", left=value, right=Ref(name=maximum)), then=[
            Assign(name=maximum, op="=", value=value),
            Assign(name=where[0], op="=", value=substitute(placed, {variable: Ref(name=index)}))])]
    return [
        Let(name=start_max, ctype=ctype, value=Ref(name=maximum)),
        For(**over_all, body=maximum_pass),
        Assign(name=total, op="=", value=Binary(op="*", left=Ref(name=total), right=Call(
            function=exponential, args=[Binary(op="-", left=Ref(name=start_max), right=Ref(name=maximum))]))),
        For(**over_all, body=[Assign(name=total, op="+=", value=Call(function=exponential, args=[
            Binary(op="-", left=value, right=Ref(name=maximum))]))]),
    ]


def reads_at(expr: Expr, variables: set[str]) -> bool:
    """Whether `expr` reads memory at an index that mentions one of `variables`."""
    stack = [expr]
    while stack:
        node = stack.pop()
        if getattr(node, "kind", None) == "load" and mentions(node.index, variables):
            return True
        stack.extend(children(node))
    return False
