"""A strided transposed convolution's taps walked by phase: a program rewrite the schedules may start from (IR.md).

A transposed convolution of stride S written as a gather visits every tap of every output and skips those off the
stride,

    for (k = 0; k < K; ++k) {
        int t = o + P - k;
        if (t % S == 0) { int i = t / S; if (0 <= i && i < L) acc += x[... i ...] * w[... k ...]; }
    }

so that S - 1 of every S iterations add nothing (S * S of them in two dimensions), or walks only the useful ones from
a start that depends on the output, `for (k = (o + P) % S; k < K; k += S) { int i = (o + P - k) / S; ... }`. Both
visit, in order, the taps k = (o + P) % S + S * j, j = 0, 1, ...: written so,

    for (j = 0; j < (K + S - 1) / S; ++j) {
        int k = (o % S + P) % S + S * j;
        if (k < K) { int i = o / S + (o % S + P) / S - j; ... }
    }

the loop's bounds are the same for every output, its test of the stride is gone, and the output reads its taps and
its input through the digits `o / S` and `o % S` of its coordinate: its phase `o % S` a batch, its place `o / S` a
column of a matrix product per phase (ir/implicit_gemm.py), whose operands a contraction schedule then stages.

Exact: the iterations removed are those that added nothing; those kept run in the same order, so every sum is the
same sum. `t % S` is 0 and `t / S` is the quotient above for every tap kept (o + P - k is a multiple of S), in C's
truncating arithmetic too, and t has the sign of its quotient: the tests folded (`t % S == 0` true), t's own tests
read the quotient, and t, read no more, dropped. A dilation D coprime to S (taps D apart) is the same walk from the
tap whose D multiple meets the stride, `k = (o + P) * D^-1 % S`. Only where o + P is a sum of parallel indices and
constants that cannot be negative (the first tap is then the least one of the loop's range) and the loop starts at
0 with step 1, or at `(o + P) % S` with step S. A stride or a padding the kernel is passed as a size (PyTorch's
`stride=`, `padding=` arguments) is walked the same way under the assumption `S > 0 && P >= 0` (program.py
`Assumption`: the program as written runs where it fails); a dilation then is 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from optiml_engine.ir.analysis import (
    conjunction, constant, folded, inlined, linear, names_of, names_read, polynomial, single_assignments)
from optiml_engine.ir.program import (
    Assign, Assumption, Binary, Const, Expr, For, If, Let, LoopProgram, Ref, Stmt, Unary, fresh_name, names_in,
    rewritten, statements_replaced, walk, with_children)


_COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


@dataclass(frozen=True)
class _Stride:
    """A loop's taps on the stride: k with `reach - dilation * k` a multiple of `stride`."""

    reach: Expr          # o + P: the output coordinate and the padding, free of the loop
    stride: Expr         # a constant above 1, or a size (a scalar parameter; its dilation then 1)
    dilation: int


def phased(program: LoopProgram) -> LoopProgram:
    """The program with every loop of taps tested against a stride walked by phase; the program itself where none
    is."""
    values = single_assignments(program.body)
    nonnegative = {index.name for index in program.space if (folded(index.lower) or 0) >= 0 and
                   folded(index.lower) is not None}
    scalars = {p.name for p in program.scalars}
    taken = names_in(program)
    assumed: list[Expr] = []

    def replace(stmt: Stmt) -> list[Stmt] | None:
        if not isinstance(stmt, For):
            return None
        # Inner loops first (a kernel's row of taps inside its column of them), then this one, whose tests of the
        # stride are then the only ones left.
        stmt = stmt.model_copy(update={"body": statements_replaced(stmt.body, replace)})
        stride = _walked(stmt, values, scalars) or _filtered(stmt, values, scalars)
        signs: list[Expr] = []
        if stride is None or not _nonnegative(stride.reach, nonnegative, scalars, signs):
            return [stmt]
        if constant(stride.stride) is None:
            signs.append(Binary(op=">", left=stride.stride, right=_number(0)))
        assumed.extend(sign for sign in signs if sign not in assumed)
        return [_by_phase(stmt, stride, values, nonnegative, scalars, taken)]

    body = statements_replaced(program.body, replace)
    if body == program.body:
        return program
    walked = program.model_copy(update={"body": body})
    if not assumed:
        return walked
    # A stride or a padding that is a size: the walk holds where the stride is positive (0 divides by zero as
    # written, a negative stride tests the same multiples in the other direction) and the padding is not negative
    # (the first tap the least of the loop's range); elsewhere the program runs as written.
    return walked.model_copy(update={"assumption": Assumption(condition=conjunction(assumed), otherwise=program)})


def _walked(loop: For, values: dict[str, Expr], scalars: set[str]) -> _Stride | None:
    """`for (k = (o + P) % S; k < K; k += S)`: the taps already on the stride."""
    step, start = _stride_of(inlined(loop.step, values), scalars), inlined(loop.start, values)
    if step is None or not (isinstance(start, Binary) and start.op == "%" and _same(start.right, step)):
        return None
    return _Stride(start.left, step, 1) if not _reads_loop(start.left, loop) else None


def _stride_of(expr: Expr, scalars: set[str]) -> Expr | None:
    """A stride: a constant above 1, or a size the kernel is passed."""
    if (value := constant(expr)) is not None:
        return expr if value > 1 else None
    return expr if isinstance(expr, Ref) and expr.name in scalars else None


def _same(a: Expr, b: Expr) -> bool:
    return a == b or constant(a) is not None and constant(a) == constant(b)


def _filtered(loop: For, values: dict[str, Expr], scalars: set[str]) -> _Stride | None:
    """`for (k = 0; k < K; ++k)` whose every effect is under a test that `o + P - D * k` is a multiple of S."""
    if constant(loop.start) != 0 or constant(loop.step) != 1:
        return None
    body = loop.body
    while True:
        declared = 0
        while declared < len(body) and isinstance(body[declared], Let):
            declared += 1
        rest = body[declared:]
        if len(rest) != 1 or not isinstance(rest[0], If) or rest[0].other:
            return None
        test = rest[0]
        for multiple, stride in _multiples_required(test.cond, scalars):
            found = _on_stride(inlined(multiple, values), stride, loop)
            if found is not None:
                return found
        body = test.then


def _multiples_required(cond: Expr, scalars: set[str]) -> list[tuple[Expr, Expr]]:
    """The (X, S) such that `cond` holds only where X % S == 0: a conjunct `X % S == 0` or `!(X % S)`, or a
    disjunct `X % S != 0` (or `X % S`) of a negated disjunction, S a stride (`_stride_of`)."""
    def remainder(expr: Expr) -> tuple[Expr, Expr] | None:
        if isinstance(expr, Binary) and expr.op == "%" and (stride := _stride_of(expr.right, scalars)) is not None:
            return expr.left, stride
        return None

    if isinstance(cond, Binary) and cond.op == "&&":
        return _multiples_required(cond.left, scalars) + _multiples_required(cond.right, scalars)
    if isinstance(cond, Binary) and cond.op == "==":
        for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if constant(other) == 0 and (found := remainder(side)) is not None:
                return [found]
    if isinstance(cond, Unary) and cond.op == "!":
        found = []
        for disjunct in _disjuncts(cond.operand):
            if isinstance(disjunct, Binary) and disjunct.op == "!=" and constant(disjunct.right) == 0:
                disjunct = disjunct.left
            if (pair := remainder(disjunct)) is not None:
                found.append(pair)
        return found
    return []


def _disjuncts(cond: Expr) -> list[Expr]:
    if isinstance(cond, Binary) and cond.op == "||":
        return _disjuncts(cond.left) + _disjuncts(cond.right)
    return [cond]


def _on_stride(multiple: Expr, stride: Expr, loop: For) -> _Stride | None:
    """`reach - D * k` (k the loop's variable, D a constant coprime to the stride; 1 for a stride that is a size) as
    a _Stride."""
    form = linear(multiple, {loop.var})
    if form is None or set(form) != {"", loop.var} or (coefficient := constant(form[loop.var])) is None or \
            coefficient >= 0 or _coprime_inverse(-coefficient, stride) is None or _reads_loop(form[""], loop):
        return None
    return _Stride(form[""], stride, -coefficient)


def _coprime_inverse(dilation: int, stride: Expr) -> int | None:
    """D^-1 modulo the stride; 1 for a dilation of 1; None where there is none (or the stride is a size)."""
    if dilation == 1:
        return 1
    try:
        return pow(dilation, -1, constant(stride)) if constant(stride) is not None else None
    except ValueError:
        return None


def _reads_loop(expr: Expr, loop: For) -> bool:
    """Whether `expr` reads the loop's variable or anything the loop assigns."""
    assigned = {loop.var} | {s.name for s in walk(loop.body) if isinstance(s, (Let, Assign))} | \
        {s.var for s in walk(loop.body) if isinstance(s, For)}
    return bool(names_of(expr) & assigned)


def _nonnegative(expr: Expr, indices: set[str], scalars: set[str], assumed: list[Expr]) -> bool:
    """Whether `expr` is a sum or product of constants at least 0, parallel indices starting at 0 or above and
    sizes, each size's sign then `assumed` (`P >= 0`)."""
    if (value := folded(expr)) is not None:
        return value >= 0
    if isinstance(expr, Ref) and expr.name in scalars:
        assumed.append(Binary(op=">=", left=expr, right=_number(0)))
        return True
    if isinstance(expr, Ref):
        return expr.name in indices
    if isinstance(expr, Binary) and expr.op in ("+", "*"):
        return _nonnegative(expr.left, indices, scalars, assumed) and \
            _nonnegative(expr.right, indices, scalars, assumed)
    return False


def _by_phase(loop: For, stride: _Stride, values: dict[str, Expr], nonnegative: set[str], scalars: set[str],
              taken: set[str]) -> For:
    """The loop over the taps of its output's phase: j in [0, ceil(K / S)), k = first + S * j."""
    s, d = stride.stride, stride.dilation
    place, phase, offset = _digits_of(stride.reach, s, nonnegative, scalars)
    first = _mod(_times(_plus(phase, offset), _number(_coprime_inverse(d, s))), s)
    # reach - d * first is a multiple of S: its quotient, place + (phase + offset - d * first) / S; undilated,
    # place + (phase + offset) / S (phase + offset less its remainder), and place alone without an offset.
    rest = _plus(phase, offset) if d == 1 else _minus(_plus(phase, offset), _times(_number(d), first))
    quotient = place if d == 1 and folded(offset) == 0 else \
        _plus(place, Binary(op="/", left=rest, right=s))
    tap = fresh_name(f"{loop.var}_phase", taken)
    j = Ref(name=tap)
    k = Ref(name=loop.var)

    def multiple(expr: Expr) -> bool:
        """Whether `expr` is `reach - d * k`: a multiple of the stride at every tap kept."""
        form = linear(inlined(expr, values), {loop.var})
        return form is not None and set(form) == {"", loop.var} and constant(form[loop.var]) == -d and \
            polynomial(form[""]) is not None and polynomial(form[""]) == polynomial(stride.reach)

    def on_stride(expr: Expr) -> Expr:
        if isinstance(expr, Binary) and expr.op in ("%", "/") and _same(expr.right, s) and multiple(expr.left):
            return _number(0) if expr.op == "%" else _minus(quotient, _times(_number(d), j))
        # A multiple's sign is its quotient's: `t < 0` tested on the input's row itself.
        if isinstance(expr, Binary) and expr.op in _COMPARISONS and folded(expr.right) == 0 and multiple(expr.left):
            return expr.model_copy(update={"left": _minus(quotient, _times(_number(d), j))})
        return with_children(expr, on_stride)

    body = _unread_dropped(_decided(rewritten(loop.body, lambda expr: _folded_tests(on_stride(expr)))))
    stop, steps = loop.stop, constant(s)
    whole = folded(stop) is not None and steps is not None and folded(stop) % steps == 0
    taps = _number(-(-folded(stop) // steps)) if folded(stop) is not None and steps is not None else \
        Binary(op="/", left=_plus(stop, _minus(s, _number(1)) if steps is None else _number(steps - 1)), right=s)
    inner: list[Stmt] = [Let(name=loop.var, ctype=loop.ctype, value=_plus(first, _times(s, j)))]
    inner += body if whole else [If(cond=Binary(op="<", left=k, right=stop), then=body)]
    return For(var=tap, ctype=loop.ctype, start=_number(0), stop=taps, step=_number(1), body=inner)


def _digits_of(reach: Expr, stride: Expr, nonnegative: set[str], scalars: set[str]) -> tuple[Expr, Expr, Expr]:
    """`reach` as place * S + phase + offset: (place, phase, offset). An index plus a padding (a constant, or sizes:
    not negative, as `_nonnegative` found), `o + P`, as (o / S, o % S, P): the index's digits, which the matrix
    product takes as coordinates; anything else whole, (reach / S, reach % S, 0)."""
    form = linear(reach, nonnegative)
    if form is not None:
        indices = [name for name in form if name]
        offset = form.get("", _number(0))
        if len(indices) == 1 and constant(form[indices[0]]) == 1 and names_of(offset) <= scalars:
            index = Ref(name=indices[0])
            return Binary(op="/", left=index, right=stride), Binary(op="%", left=index, right=stride), offset
    return Binary(op="/", left=reach, right=stride), Binary(op="%", left=reach, right=stride), _number(0)


def _number(value: int) -> Expr:
    return Const(text=str(value)) if value >= 0 else Unary(op="-", operand=Const(text=str(-value)))


def _plus(a: Expr, b: Expr) -> Expr:
    return a if folded(b) == 0 else b if folded(a) == 0 else Binary(op="+", left=a, right=b)


def _minus(a: Expr, b: Expr) -> Expr:
    return a if folded(b) == 0 else Binary(op="-", left=a, right=b)


def _times(a: Expr, b: Expr) -> Expr:
    return b if folded(a) == 1 else a if folded(b) == 1 else Binary(op="*", left=a, right=b)


def _mod(a: Expr, s: Expr) -> Expr:
    """`a % s`, without the modulus where `a` is already a remainder by s."""
    if isinstance(a, Binary) and a.op == "%" and _same(a.right, s):
        return a
    return Binary(op="%", left=a, right=s)


def _folded_tests(expr: Expr) -> Expr:
    """`expr` with the tests the rewrite decided (`0 != 0`, `0 == 0`) folded into the conditions around them."""
    expr = with_children(expr, _folded_tests)
    if isinstance(expr, Binary) and expr.op in ("==", "!=") and (left := folded(expr.left)) is not None and \
            (right := folded(expr.right)) is not None:
        return Const(text="true" if (left == right) == (expr.op == "==") else "false")
    if isinstance(expr, Binary) and expr.op in ("||", "&&"):
        neutral, absorbing = ("false", "true") if expr.op == "||" else ("true", "false")
        for side, other in ((expr.left, expr.right), (expr.right, expr.left)):
            if _truth(side) == neutral:
                return other
            if _truth(side) == absorbing:
                return Const(text=absorbing)
    if isinstance(expr, Unary) and expr.op == "!" and _truth(expr.operand) is not None:
        return Const(text="false" if _truth(expr.operand) == "true" else "true")
    return expr


def _truth(expr: Expr) -> str | None:
    return expr.text if isinstance(expr, Const) and expr.text in ("true", "false") else None


def _decided(body: list[Stmt]) -> list[Stmt]:
    """The statements with each `if` whose condition folded to true replaced by its body (false: by its else)."""
    def replace(stmt: Stmt) -> list[Stmt] | None:
        if isinstance(stmt, If) and _truth(stmt.cond) is not None:
            return _decided(stmt.then if _truth(stmt.cond) == "true" else stmt.other)
        return None
    return statements_replaced(body, replace)


def _unread_dropped(body: list[Stmt]) -> list[Stmt]:
    """The statements less the declarations nothing reads any more (`t = o + P - k`, once its tests and quotient
    are rewritten)."""
    while True:
        read = names_read(body)
        kept = statements_replaced(body, lambda stmt: [] if isinstance(stmt, Let) and stmt.name not in read
                                   else None)
        if kept == body:
            return body
        body = kept
