"""A loop split into tiles, joined again: what a kernel that staged its operands in shared tiles leaves once the
tiles are read through (staged_tiles.py),

    for (int t = 0; t < (K + 16 - 1) / 16; ++t)
        for (int k = 0; k < 16; ++k)
            sum += (t * 16 + k < K ? A[row * K + (t * 16 + k)] : 0) * (t * 16 + k < K ? B[(t * 16 + k) * N + col] : 0);

is one loop over `t * 16 + k`, and the turns past K add zero (every factor is zero there), so

    for (int k = 0; k < K; ++k)
        sum += A[row * K + k] * B[k * N + col];

which the contraction family reads as the product it is. Joined only where the outer loop's only statement is the
inner loop, both count up from zero, the inner by one a constant C times, the outer by one (tiles counted, read as
`C * t + k`) or by C (`t0 += C`, read as `t0 + k`), and every expression reading either counter reads them as that
one affine value (times a constant, plus what reads neither); the padding is dropped
only where every statement of the joined loop adds zero past X (a local `T a = k < X && ... ? v : 0;`, or a sum
adding a product one of whose factors is such a local or such a select: zero, times a value read in bounds) and
the outer loop counted `(X + C - 1) / C` tiles (so the joined loop covers [0, X) and more).
"""

from __future__ import annotations

from optiml_engine.ir.analysis import body_exprs, conjunction, conjuncts, constant, is_zero, linear, polynomial, \
    reduction_update
from optiml_engine.ir.program import (
    Assign, Binary, Cast, Const, Expr, For, Let, Ref, Select, Stmt, fresh_name, mentions, rewritten, statements_replaced,
    substituted, walk, with_children)


def tiles_joined(body: list[Stmt], taken: set[str]) -> list[Stmt]:
    """The statements with every tiled loop (the module's docstring) joined; `taken`: the names in use."""
    def joined(stmt: Stmt) -> list[Stmt] | None:
        if not isinstance(stmt, For) or len(stmt.body) != 1 or not isinstance(stmt.body[0], For):
            return None
        inner = stmt.body[0]
        width = constant(inner.stop)
        if width is None or width < 1 or constant(stmt.step) not in (1, width) or any(
                constant(e) != value for e, value in ((stmt.start, 0), (inner.start, 0), (inner.step, 1))):
            return None
        # Tiles counted (`t < (K + C - 1) / C`, read as `t * C + k`) or stepped over (`t0 < K; t0 += C`, read as
        # `t0 + k`); the tiles' count either way.
        per_tile = width if constant(stmt.step) == 1 else 1
        tiles = stmt.stop if per_tile == width else Binary(
            op="/", left=Binary(op="+", left=stmt.stop, right=Const(text=str(width - 1))), right=Const(text=str(width)))
        tile, within = stmt.var, inner.var
        joint = fresh_name(within, taken | {s.var for s in walk(body) if isinstance(s, For)})

        def combined(expr: Expr) -> Expr:
            if not mentions(expr, {tile, within}):
                return expr
            if isinstance(expr, Cast):      # kept: `(size_t)(t0 + k) * O` stays a size_t product
                return with_children(expr, combined)
            form = linear(expr, {tile, within})
            step = constant(form.get(within, Const(text="0"))) if form is not None else None
            if step and constant(form.get(tile, Const(text="0"))) == per_tile * step:
                scaled = Ref(name=joint) if step == 1 else Binary(op="*", left=Const(text=str(step)),
                                                                   right=Ref(name=joint))
                return scaled if "" not in form else Binary(op="+", left=form[""], right=scaled)
            return with_children(expr, combined)

        inside = rewritten(inner.body, combined)
        if any(mentions(e, {tile, within}) for e in body_exprs(inside)):
            return None                 # a counter read apart from the other
        loop = For(var=within, ctype=inner.ctype, start=Const(text="0"),
                   stop=Binary(op="*", left=Const(text=str(width)), right=tiles), step=Const(text="1"),
                   body=substituted(inside, {joint: Ref(name=within)}))
        return [_padding_dropped(loop, tiles, width)]

    return statements_replaced(body, joined)


def _padding_dropped(loop: For, tiles: Expr, width: int) -> For:
    """The joined loop over [0, X) alone where its turns past X add zero (the module's docstring): each statement a
    local `T a = k < X && ... ? v : 0;` or a sum `s += f * g * ...` with a factor such a local or such a select."""
    bounds: list[Expr] = []

    def bounded(select: Expr) -> Expr | None:
        """The select without its `k < X` term (its then where none is left); None where it is no such select."""
        if not isinstance(select, Select) or not is_zero(select.other):
            return None
        terms = conjuncts(select.cond)
        bound = next((t for t in terms if isinstance(t, Binary) and t.op == "<" and t.left == Ref(name=loop.var)
                      and not mentions(t.right, {loop.var})), None)
        if bound is None:
            return None
        bounds.append(bound.right)
        rest = [t for t in terms if t is not bound]
        return select.model_copy(update={"cond": conjunction(rest)}) if rest else select.then

    zeros: set[str] = set()
    body: list[Stmt] = []
    for stmt in loop.body:
        if isinstance(stmt, Let) and stmt.value is not None and (kept := bounded(stmt.value)) is not None:
            zeros.add(stmt.name)
            body.append(stmt.model_copy(update={"value": kept}))
            continue
        update = reduction_update(stmt) if isinstance(stmt, Assign) else None
        if update is None or update.op != "+":
            return loop
        added = stmt.value if stmt.op == "+=" else next(
            side for side in (stmt.value.left, stmt.value.right)
            if not (isinstance(side, Ref) and side.name == stmt.name))
        factors = [bounded(f) if isinstance(f, Select) else f for f in _factors(added)]
        if None in factors or not any(isinstance(f, Ref) and f.name in zeros for f in _factors(added)) and \
                not any(isinstance(f, Select) for f in _factors(added)):
            return loop
        product = factors[0]
        for factor in factors[1:]:
            product = Binary(op="*", left=product, right=factor)
        value = product if stmt.op == "+=" else Binary(op="+", left=Ref(name=stmt.name), right=product)
        body.append(stmt.model_copy(update={"value": value}))
    if not bounds or any(b != bounds[0] for b in bounds) or not _whole_tiles(tiles, bounds[0], width):
        return loop
    return loop.model_copy(update={"stop": bounds[0], "body": body})


def _whole_tiles(tiles: Expr, bound: Expr, width: int) -> bool:
    """Whether `tiles` is `(bound + width - 1) / width`, spelled any way the sum can be."""
    if not (isinstance(tiles, Binary) and tiles.op == "/" and constant(tiles.right) == width):
        return False
    whole, part = polynomial(tiles.left), polynomial(bound)
    if whole is None or part is None:
        return False
    difference = {term: whole.get(term, 0) - part.get(term, 0) for term in whole.keys() | part.keys()}
    return {term: k for term, k in difference.items() if k} == ({(): width - 1} if width > 1 else {})


def _factors(expr: Expr) -> list[Expr]:
    if isinstance(expr, Binary) and expr.op == "*":
        return _factors(expr.left) + _factors(expr.right)
    return [expr]
