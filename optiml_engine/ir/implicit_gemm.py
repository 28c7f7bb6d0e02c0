"""A sum of products over a loop nest whose two factors read different coordinates of the point, as a matrix
product: a program rewrite the contraction schedules may start from (IR.md: convolution as implicit GEMM).

A convolution's naive kernel is a thread per output walking the taps,

    parallel for i in [0, n * cout * oh * ow):
        co = i / ow / oh % cout; ...                     (the output's coordinates: digits of a flat index)
        acc = b[co];
        for (c ...) for (kh ...) if (0 <= ih < h) for (kw ...) if (0 <= iw < w)
            acc += x[((batch * cin + c) * h + ih) * w + iw] * w[((co * cin + c) * 3 + kh) * 3 + kw];
        y[i] = acc;

and its weight reads only the output channel among the point's coordinates, its input only the batch and the
pixel. Grouping the coordinates by the factor that reads them makes it a product of a cout x (cin * 9) matrix and a
(cin * 9) x (n * oh * ow) one:

    parallel for row in [0, cout), column in [0, n * oh * ow):
        acc = b[row];
        for (c_kh_kw = 0; c_kh_kw < cin * 3 * 3; ++c_kh_kw)
            acc += w[... row ... c_kh_kw ...] * (guards(column, c_kh_kw) ? x[... column ... c_kh_kw ...] : 0);
        y[... row ... column ...] = acc;

visiting, for each output, the same products in the same order (the nest's iterations in its own order, a guard's
false iterations adding a zero), so every sum is the same sum (for finite inputs: a zero times an infinite weight
is not zero). The contraction schedule (schedule.py) then stages
tiles of both factors in shared memory, each value reused across a tile of outputs.

It applies where the point's code is declarations, one perfect nest of loops from constants by one whose bounds are
sizes, with declarations (assigned again there or not) and `if`s (no `else`) between them around one `acc += a * b`,
then code without loops; an inner sum weighted, `t = 0; for (...) t += e; acc += a * t;` (or added as it is, `acc +=
t`), is multiplied out into the nest first (`acc += a * e`, the sum reassociated), and a product of more than two
terms is two factors where its terms reading coordinates fall in two groups that share none (a bilinear form's
`x1[n][i] * W[o][i][j] * x2[n][j]`: W, and x1 * x2; the product reassociated); where each `if` reads the coordinates
of the point (a parallel index, or a digit `/` and `%` of a flat one, the digits tiling its extent exactly) of at most
one of the two factors (an `if` of the loops alone guards both: neither factor is read where the nest skips); and
where each factor reads at least one coordinate the other does not. The coordinates neither factor reads go with the
factor that reads the innermost one, the column: neighbouring threads then write neighbouring outputs.

A coordinate both factors read is a batch: a third index over which the products are independent (a batched
matrix product in one flat index). A grouped convolution's output channel `co` is read whole by the weight and
as its group `co / (C / G)` by the input; split at that size into the group `co / d` and the place `co % d`,
the group is a batch and the place a row. The split is exact where d divides the channels' extent: written as
a factor of it (`oy / 2` of `2 * H`) it always does; otherwise the rewrite carries the assumption `d > 0 &&
C % d == 0` and the program as written, which the emitted kernel runs where the sizes break it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from optiml_engine.ir.analysis import (
    body_exprs, conjunction, conjuncts, constant, inlined, is_integer_cast, is_zero, loads, names_of, polynomial,
    reduction_update, statement_exprs, subexpressions)
from optiml_engine.ir.delinearize import bare_index
from optiml_engine.ir.printer import c_expr
from optiml_engine.ir.program import (
    Assign, Assumption, Binary, Call, Cast, Const, Expr, For, If, Let, LoopProgram, ParallelIndex, Ref, Select, Stmt,
    children, fresh_name, mentions, names_in, rewritten, statements_replaced, substitute, walk, with_children)


@dataclass(frozen=True)
class _Coordinate:
    """One coordinate of the point: `index / divisor % extent` of a parallel index (divisor 1, or no modulus, at
    the ends of the digit chain; a parallel index read only whole is one coordinate)."""

    index: str
    divisor: tuple[str, ...]          # the divisor's factors, as `_key` spells them
    extent: Expr
    significance: float               # larger: more significant within its index (a group's, between two digits)


_REASSIGNMENTS = ("=", "+=", "-=", "*=", "/=", "%=")


@dataclass(frozen=True)
class _Nest:
    loops: list[For]
    lets: dict[str, Expr]
    guards: list[Expr]
    update: Assign


def implicit_gemm(program: LoopProgram) -> LoopProgram:
    """The program as a 2-D contraction over its coordinates grouped by the factor that reads them, or the program
    itself where its code is not such a sum of products."""
    found = _implicit_gemm(program, ragged_splits=True)
    # A split's guard of its points past the end reads the coordinates of both factors where the group and the
    # place are on different sides: the split assumed whole instead.
    return found if found is not None else _implicit_gemm(program, ragged_splits=False) or program


def _implicit_gemm(program: LoopProgram, ragged_splits: bool) -> LoopProgram | None:
    """implicit_gemm's product, or the program itself where there is none; None where only a guard of a split's
    points past the end stands in the way."""
    split = _split_body(program.body)
    if split is None:
        return program
    before, nest_loop, after = split
    nest = _nest([_distributed(nest_loop)], [], {}, [], set())
    if nest is None:
        return program
    update = reduction_update(nest.update)
    accumulator = nest.update.name
    product = nest.update.value if nest.update.op == "+=" else _other_term(nest.update.value, accumulator)
    if update is None or update.op != "+" or not (isinstance(product, Binary) and product.op == "*") or \
            accumulator not in {s.name for s in before}:
        return program
    locals_ = {s.name: s.value for s in before if s.name != accumulator and s.value is not None}
    locals_.update(nest.lets)
    scalars = {p.name for p in program.scalars}
    loop_vars = [loop.var for loop in nest.loops]
    # A loop from a constant other than zero (a window's `dy = -1; dy < 2`) counts its extent from its start.
    stops = [_extent(inlined(loop.stop, locals_), constant(loop.start)) for loop in nest.loops]
    if any(not names_of(stop) <= scalars for stop in stops):
        return program
    terms = _multiplicands(inlined(product, locals_))
    guards = [g for guard in nest.guards for g in conjuncts(inlined(guard, locals_))]
    coordinates = _coordinates(program, [*terms, *guards, *(inlined(e, locals_) for e in body_exprs(before + after))])
    if coordinates is None:
        return program
    placeholders = {coordinate: f"\0{n}" for n, coordinate in enumerate(coordinates)}

    def placed(expr: Expr) -> Expr:
        return _as_coordinates(expr, coordinates, {c: Ref(name=p) for c, p in placeholders.items()})

    whole = {placeholders[c] for c in coordinates
             if not ragged_splits or any(mentions(placed(load.index), {placeholders[c]}) for e in body_exprs(before)
                                         for load in loads(inlined(e, locals_)))}
    groups, assumed, ragged = _groups(terms, placed, coordinates, placeholders, scalars, whole)
    guards += ragged
    for coordinate, (divisor, high, low) in groups.items():
        placeholders[high], placeholders[low] = placeholders[coordinate] + "h", placeholders[coordinate] + "l"

    def regrouped(expr: Expr) -> Expr:
        return _regrouped(placed(expr), {placeholders[c]: (divisor, placeholders[high], placeholders[low])
                                         for c, (divisor, high, low) in groups.items()})

    def coordinates_of(expr: Expr) -> set[_Coordinate]:
        names = names_of(regrouped(expr))
        return {c for c, p in placeholders.items() if p in names and c not in groups}

    every = [c for c in placeholders if c not in groups]
    shared = set(every).intersection(*filter(None, (coordinates_of(term) for term in terms)))
    factors = _two_factors(terms, lambda term: coordinates_of(term) - shared)
    if factors is None:
        return program
    read = [coordinates_of(f) - shared for f in factors]
    # The column: the innermost index's least significant coordinate outside the batch (a transposed convolution's
    # column `ow / 2` where its phase `ow % 2` is the batch).
    innermost = min((c for c in every if c.index == program.space[-1].name and c not in shared),
                    key=lambda c: c.significance, default=None)
    if innermost is None:
        return program
    column_side = 0 if innermost in read[0] else 1
    sides = {c: 2 if c in shared else 1 if c in read[column_side] or c not in read[1 - column_side] else 0
             for c in every}
    guarded: list[list[Expr]] = [[], []]
    for guard in guards:
        touched = {sides[c] for c in coordinates_of(guard)} - {2}
        if len(touched) > 1:
            return None if guard in ragged else program
        # A guard of the loop (or the batch) alone skips those iterations for every point of the batch: neither
        # factor is read there.
        for side in touched or (0, 1):
            guarded[side].append(guard)

    taken = names_in(program)
    row, column, step = fresh_name("row", taken), fresh_name("column", taken), fresh_name("_".join(loop_vars), taken)
    batch = fresh_name("batch", taken)
    ctype = program.space[-1].ctype
    extents: list[Expr] = []
    values: dict[str, Expr] = {}
    for side, name in ((2, batch), (0, row), (1, column)):
        mine = sorted((c for c in every if sides[c] == side),
                      key=lambda c: ([s.name for s in program.space].index(c.index), -c.significance))
        extents.append(_product([c.extent for c in mine]))
        values.update(zip((placeholders[c] for c in mine), _digits(Ref(name=name), [c.extent for c in mine])))
    loop_values = {loop.var: digit if constant(loop.start) == 0 else Binary(op="+", left=digit, right=loop.start)
                   for loop, digit in zip(nest.loops, _digits(Ref(name=step), stops))}

    def new_terms(expr: Expr) -> Expr:
        return substitute(regrouped(expr), values)

    operands = []
    for side, factor in ((0, factors[1 - column_side]), (1, factors[column_side])):
        operand = factor
        if guarded[side]:
            operand = Select(cond=conjunction(guarded[side]), then=operand, other=Const(text="0"))
        operands.append(_recombined(substitute(new_terms(operand), loop_values), {batch, row, column, step}))
    loop = For(var=step, ctype="int", start=Const(text="0"), stop=_product(stops), step=Const(text="1"),
               body=[Assign(name=accumulator, op="+=", value=Binary(op="*", left=operands[0], right=operands[1]))])
    space = [ParallelIndex(name=row, ctype=ctype, dim="y", lower=Const(text="0"), upper=extents[1]),
             ParallelIndex(name=column, ctype=ctype, dim="x", lower=Const(text="0"), upper=extents[2])]
    if shared:
        space.insert(0, ParallelIndex(name=batch, ctype=ctype, dim="z", lower=Const(text="0"), upper=extents[0]))
    # A split past the coordinate's end (`o / 2` of an odd extent): the points there compute a product of zeros and
    # store nothing.
    after = rewritten(after, new_terms)
    if ragged:
        after = [If(cond=new_terms(conjunction(ragged)), then=after)]
    rewrite = program.model_copy(update={"space": space,
                                         "body": rewritten(before, new_terms) + [loop] + after})
    if not assumed:
        return rewrite
    # A program that assumes already (a transposed convolution walked by phase, its stride a size): both hold
    # where the product runs, and the program as first written runs elsewhere.
    if program.assumption is not None:
        assumed.insert(0, program.assumption.condition)
        program = program.assumption.otherwise
    return rewrite.model_copy(update={"assumption": Assumption(condition=conjunction(assumed), otherwise=program)})


def _groups(terms: list[Expr], placed: Callable[[Expr], Expr], coordinates: list[_Coordinate],
            placeholders: dict[_Coordinate, str], scalars: set[str], whole: set[str]
            ) -> tuple[dict[_Coordinate, tuple[Expr, _Coordinate, _Coordinate]], list[Expr], list[Expr]]:
    """The coordinates read by more than one term that a term reads divided by a size (a grouped convolution's
    output channel `co`, its input's group `co / (C / groups)`; a transposed convolution's row `oy` and its
    `oy / 2`, `oy % 2`): each as (the size d, `c / d`, `c % d`), two coordinates of their own (extents E / d and
    d, E the coordinate's extent; `E / max(d, 1)` where d is not a factor of E as written, whose launch must not
    divide by zero). One size per coordinate; a constant one above 1. And what the splits assume: `c / d` is a
    digit of its own only where d is positive (a constant is) and divides E (a factor of E as written does at every
    size). A constant or a size that may not divide E (a transposed convolution's output phases, `o % 2` of 2 * L - 1
    outputs) takes the group's extent up, ceil(E / d), and the split's points past E out by a guard (returned third,
    over the placeholders): their reads skipped, their code after the loop not run. Not for the coordinates in `whole`
    (the code before the loop reads them: it runs for every point of the tile); there, it assumes E % d == 0."""
    out, assumed, ragged = {}, [], []
    placed_terms = [placed(term) for term in terms]
    for coordinate in coordinates:
        name = placeholders[coordinate]
        divisors = {}
        for term in placed_terms:
            for e in subexpressions(term):
                if isinstance(e, Binary) and e.op in ("/", "%") and bare_index(e.left, name) and \
                        names_of(e.right) <= scalars and not loads(e.right) and (constant(e.right) or 2) > 1:
                    divisors[_spelling(e.right)] = e.right
        if len(divisors) != 1 or sum(name in names_of(term) for term in placed_terms) < 2:
            continue
        divisor = next(iter(divisors.values()))
        quotient = _without(_factors(coordinate.extent), _factors(divisor))
        positive = divisor if constant(divisor) else Call(function="max", args=[divisor, Const(text="1")])
        count = Binary(op="/", left=coordinate.extent, right=positive)
        if constant(divisor) is None:
            assumed.append(Binary(op=">", left=divisor, right=Const(text="0")))
        # A constant or a size the kernel is passed (a stride) may leave part of a group; a quotient of sizes (a
        # group's channels, C / G) divides its extent wherever the operator is defined: assumed whole.
        if quotient is None and name not in whole and isinstance(divisor, (Const, Ref)):
            less_one = Const(text=str(constant(divisor) - 1)) if constant(divisor) else \
                Binary(op="-", left=positive, right=Const(text="1"))
            count = Binary(op="/", left=Binary(op="+", left=coordinate.extent, right=less_one), right=positive)
            ragged.append(Binary(op="<", left=Ref(name=name), right=coordinate.extent))
        elif quotient is None:
            assumed.append(Binary(op="==", left=Binary(op="%", left=coordinate.extent, right=divisor),
                                  right=Const(text="0")))
        out[coordinate] = (divisor, _Coordinate(coordinate.index, coordinate.divisor + ("/",) + _key([divisor]),
                                                count if quotient is None else _product(quotient),
                                                coordinate.significance + 0.5),
                           _Coordinate(coordinate.index, coordinate.divisor + ("%",) + _key([divisor]), divisor,
                                       coordinate.significance))
    return out, assumed, ragged


def _regrouped(expr: Expr, groups: dict[str, tuple[Expr, str, str]]) -> Expr:
    """`expr` (coordinates as placeholders) with each grouped coordinate c read as its group and place: `c / d` and
    `c % d` as the two, c itself as `group * d + place`."""
    if isinstance(expr, Binary) and expr.op in ("/", "%"):
        for name, (divisor, high, low) in groups.items():
            if bare_index(expr.left, name) and _spelling(expr.right) == _spelling(divisor):
                return Ref(name=high if expr.op == "/" else low)
    if isinstance(expr, Ref) and expr.name in groups:
        divisor, high, low = groups[expr.name]
        return Binary(op="+", left=Binary(op="*", left=Ref(name=high), right=divisor), right=Ref(name=low))
    return with_children(expr, lambda child: _regrouped(child, groups))


def _extent(stop: Expr, start: int) -> Expr:
    """The iterations of a loop from the constant `start` by one to `stop`."""
    if start == 0:
        return stop
    if constant(stop) is not None:
        return Const(text=str(constant(stop) - start))
    return Binary(op="-", left=stop, right=Const(text=str(start)))


def _distributed(stmt: Stmt) -> Stmt:
    """The nest with an inner sum multiplied out: `T t = 0; for (...) t += e; T r = t; acc += a * r;` (the copy
    optional, e under the inner loops' `if`s) is `for (...) acc += a * e;` where t and its copies are read nowhere
    else and nothing the inner loops declare or assign is read by a (`acc += x1[n][i] * (sum over j of W[o][i][j]
    * x2[n][j])`, a depthwise stencil summed into a pointwise product): the same products, the sum reassociated.
    Inside a loop or an `if` of the nest, at the level of the update; the statement itself where there is none."""
    if isinstance(stmt, For):
        return stmt.model_copy(update={"body": _distributed_body(stmt.body)})
    if isinstance(stmt, If) and not stmt.other:
        return stmt.model_copy(update={"then": _distributed_body(stmt.then)})
    return stmt


def _distributed_body(body: list[Stmt]) -> list[Stmt]:
    if not body:
        return body
    *rest, last = body
    if isinstance(last, (For, If)):
        return [*rest, _distributed(last)]
    update = reduction_update(last)
    if update is None or update.op != "+" or not isinstance(last, Assign):
        return body
    term = last.value if last.op == "+=" else _other_term(last.value, last.name)
    loops = [n for n, stmt in enumerate(rest) if isinstance(stmt, For)]
    if term is None or len(loops) != 1:
        return body
    inner = rest[loops[0]]
    sums = [n for n, stmt in enumerate(rest[:loops[0]]) if isinstance(stmt, Let) and stmt.value is not None and
            is_zero(stmt.value) and _sums_into(inner, stmt.name)]
    if len(sums) != 1:
        return body
    total = rest[sums[0]].name
    copies = {total}
    for stmt in rest[loops[0] + 1:]:
        if not (isinstance(stmt, Let) and isinstance(stmt.value, Ref) and stmt.value.name in copies):
            return body
        copies.add(stmt.name)
    terms = _multiplicands(term)
    summed = [t for t in terms if isinstance(t, Ref) and t.name in copies]
    others = [t for t in terms if t not in summed]
    inside = {s.name for s in walk([inner]) if isinstance(s, (Let, Assign))} | \
        {s.var for s in walk([inner]) if isinstance(s, For)}
    if len(summed) != 1 or any(mentions(t, copies | inside | {last.name}) for t in others) or \
            any(mentions(e, copies) for e in body_exprs(rest[:sums[0]] + rest[sums[0] + 1:loops[0]])):
        return body
    # The weight of the inner sum: the other terms' product; none where the sum is added as it is (a helper's
    # sum over one channel's taps, `acc += taps(...)`).
    weight = others[0] if others else None
    for other in others[1:]:
        weight = Binary(op="*", left=weight, right=other)

    def multiplied(stmt: Stmt) -> list[Stmt] | None:
        if isinstance(stmt, Assign) and stmt.name == total:
            added = stmt.value if stmt.op == "+=" else _other_term(stmt.value, total)
            return [Assign(name=last.name, op="+=",
                           value=added if weight is None else Binary(op="*", left=weight, right=added))]
        return None
    kept = [stmt for n, stmt in enumerate(rest[:loops[0]]) if n != sums[0]]
    return [*kept, *statements_replaced([inner], multiplied)]


def _sums_into(loop: For, total: str) -> bool:
    """Whether every statement of the loop naming `total` is `total += e` (or `total = total + e`), e not reading it,
    at least one."""
    naming = [s for s in walk([loop]) if any(mentions(e, {total}) for e in statement_exprs(s)) or
              isinstance(s, (Assign, Let)) and s.name == total]
    return bool(naming) and all(isinstance(s, Assign) and s.name == total and
                                (update := reduction_update(s)) is not None and update.op == "+" for s in naming)


def _multiplicands(expr: Expr) -> list[Expr]:
    """The terms of a product (`a * b * c`: a, b, c); any other expression is one."""
    if isinstance(expr, Binary) and expr.op == "*":
        return _multiplicands(expr.left) + _multiplicands(expr.right)
    return [expr]


def _two_factors(terms: list[Expr], coordinates_of: Callable[[Expr], set[_Coordinate]]) -> list[Expr] | None:
    """The product's terms as two factors that read no coordinate in common, each the product of its terms in their
    order (a term reading no coordinate, a weight of the loop alone, goes with the first): two terms as they are;
    more only where the terms reading coordinates fall in exactly two groups sharing none (`x1[n][i] * W[o][i][j]
    * x2[n][j]`: W, and x1 * x2). None where they do not."""
    groups: list[tuple[set[_Coordinate], list[int]]] = []
    free: list[int] = []
    for position, term in enumerate(terms):
        read = coordinates_of(term)
        if not read:
            free.append(position)
            continue
        joined = [group for group in groups if group[0] & read]
        merged = (read.union(*(g[0] for g in joined)), sorted([position, *(p for g in joined for p in g[1])]))
        groups = [group for group in groups if group not in joined] + [merged]
    if len(groups) != 2:
        return None
    groups.sort(key=lambda group: group[1][0])
    chosen = [sorted(groups[0][1] + free), groups[1][1]]
    factors = []
    for positions in chosen:
        factor = terms[positions[0]]
        for position in positions[1:]:
            factor = Binary(op="*", left=factor, right=terms[position])
        factors.append(factor)
    return factors


def _split_body(body: list[Stmt]) -> tuple[list[Let], For, list[Stmt]] | None:
    """Declarations, one loop, then code without loops."""
    loops = [n for n, stmt in enumerate(body) if isinstance(stmt, For)]
    if len(loops) != 1 or not all(isinstance(stmt, Let) for stmt in body[:loops[0]]):
        return None
    after = body[loops[0] + 1:]
    if any(isinstance(s, For) for s in walk(after)):
        return None
    return body[:loops[0]], body[loops[0]], after


def _nest(body: list[Stmt], loops: list[For], lets: dict[str, Expr], guards: list[Expr],
          this_turn: set[str]) -> _Nest | None:
    """The nest under `body`: declarations, then one loop, `if` or the update, nothing after it. A declaration of
    the nest may be assigned again before what follows (a transposed convolution's `ih /= stride;` once the `if`
    has found it a multiple), where it is declared in the same turn of the innermost loop (`this_turn`: assigned
    in a loop inside, it would carry from turn to turn): the guards and the update are read with the values they
    see, inlined."""
    *declarations, last = body if body else [None]
    lets, this_turn = dict(lets), set(this_turn)
    for statement in declarations:
        if isinstance(statement, Let) and statement.value is not None and statement.name not in lets:
            lets[statement.name] = statement.value
            this_turn.add(statement.name)
        elif isinstance(statement, Assign) and statement.name in this_turn and statement.op in _REASSIGNMENTS:
            old = lets[statement.name]
            value = substitute(statement.value, {statement.name: old})
            lets[statement.name] = value if statement.op == "=" else \
                Binary(op=statement.op[:-1], left=old, right=value)
        else:
            return None
    if isinstance(last, For):
        if constant(last.start) is None or constant(last.step) != 1:
            return None
        return _nest(last.body, [*loops, last], lets, guards, set())
    if isinstance(last, If) and not last.other:
        return _nest(last.then, loops, lets, [*guards, inlined(last.cond, lets)], this_turn)
    if isinstance(last, Assign) and loops:
        return _Nest(loops, lets, guards, last.model_copy(update={"value": inlined(last.value, lets)}))
    return None


def _other_term(value: Expr, accumulator: str) -> Expr | None:
    """`e` of `acc = acc + e` or `acc = e + acc`."""
    if not isinstance(value, Binary) or value.op != "+":
        return None
    if isinstance(value.left, Ref) and value.left.name == accumulator:
        return value.right
    return value.left


# -- coordinates ----------------------------------------------------------------------------------------------

def _factors(expr: Expr) -> list[Expr]:
    """A product's factors (integer casts looked through, the literal 1 dropped); any other expression is one."""
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return _factors(expr.operand)
    if isinstance(expr, Binary) and expr.op == "*":
        return _factors(expr.left) + _factors(expr.right)
    if isinstance(expr, Const) and expr.text.rstrip("uUlL") == "1":
        return []
    return [expr]


def _key(factors: list[Expr]) -> tuple[str, ...]:
    """A product's factors as a key: each spelled one way (`_spelling`), its integer constants multiplied into one
    (`3 * 3 * 3` and `9 * 3` alike)."""
    number, texts = 1, []
    for factor in factors:
        value = constant(factor)
        if value is None:
            texts.append(_spelling(factor))
        else:
            number *= value
    return tuple(sorted(texts)) + ((str(number),) if number != 1 else ())


def _spelling(factor: Expr) -> str:
    """One text for a factor however it is written: its polynomial where it has one (an extent's `D - 2` and a
    local's `D - 3 + 1` alike), else its C text."""
    found = polynomial(factor)
    return repr(sorted(found.items())) if found is not None else c_expr(factor)


def _without(factors: list[Expr], removed: list[Expr]) -> list[Expr] | None:
    """The product `factors` less the product `removed` (matched by `_spelling`, integer constants by division);
    None where `removed` is not a part of it."""
    number = 1
    for factor in factors:
        number *= constant(factor) if constant(factor) is not None else 1
    left = [factor for factor in factors if constant(factor) is None]
    for factor in removed:
        value = constant(factor)
        if value is not None:
            if value == 0 or number % value:
                return None
            number //= value
            continue
        match = next((f for f in left if _spelling(f) == _spelling(factor)), None)
        if match is None:
            return None
        left.remove(match)
    return left + ([Const(text=str(number))] if number != 1 else [])


def _divided(expr: Expr, index: str) -> list[Expr] | None:
    """The divisor's factors of `index / A / B ...` (`index` itself: none); None for anything else."""
    if bare_index(expr, index):
        return []
    if isinstance(expr, Binary) and expr.op == "/":
        inner = _divided(expr.left, index)
        return None if inner is None else inner + _factors(expr.right)
    return None


def _digit(expr: Expr, index: str) -> tuple[list[Expr], list[Expr] | None] | None:
    """(divisor factors, modulus factors or None) of `index / D % M`, `index % M` or `index / D`."""
    if isinstance(expr, Binary) and expr.op == "%":
        divisor = _divided(expr.left, index)
        return None if divisor is None else (divisor, _factors(expr.right))
    divisor = _divided(expr, index)
    return None if divisor is None or not divisor else (divisor, None)


def _uses(expr: Expr, index: str, found: list) -> None:
    """Collect the digits of `index` in `expr` into `found`."""
    digit = _digit(expr, index)
    if digit is not None:
        found.append(digit)
    elif not bare_index(expr, index):
        for child in children(expr):
            _uses(child, index, found)


def _coordinates(program: LoopProgram, exprs: list[Expr]) -> list[_Coordinate] | None:
    """Every parallel index's coordinates: its digits where the expressions take it apart (each digit on the chain
    from divisor 1, the chain tiling the index's extent), else the index itself; None where an index does not
    start at 0."""
    out: list[_Coordinate] = []
    for index in program.space:
        if constant(index.lower) != 0:
            return None
        found: list[tuple[list[Expr], list[Expr] | None]] = []
        for expr in exprs:
            _uses(expr, index.name, found)
        # Read whole, or through digits off a chain (`c / (C / G)` alone, a group): the index is one coordinate.
        out += _chain(index, found) or [_Coordinate(index.name, (), index.upper, 0)]
    return out


def _chain(index: ParallelIndex, found: list[tuple[list[Expr], list[Expr] | None]]) -> list[_Coordinate] | None:
    """The digits from divisor 1, each next divisor the product of the moduli so far, the last what is left of the
    extent; None where a digit used is off that chain or two moduli follow one divisor."""
    moduli: dict[tuple[str, ...], set[tuple[str, ...] | None]] = {}
    exprs: dict[tuple[str, ...], list[Expr]] = {}
    for divisor, modulus in found:
        moduli.setdefault(_key(divisor), set()).add(None if modulus is None else _key(modulus))
        if modulus is not None:
            exprs[_key(modulus)] = modulus
    chain: list[_Coordinate] = []
    divisor: list[Expr] = []
    while True:
        following = moduli.get(_key(divisor), set()) - {None}
        if len(following) > 1:
            return None
        if not following:
            break
        modulus = exprs[following.pop()]
        chain.append(_Coordinate(index.name, _key(divisor), _product(modulus), len(chain)))
        divisor = divisor + modulus
    remaining = _without(_factors(index.upper), divisor)
    if remaining is None:
        return None
    if not chain or any(d not in {c.divisor for c in chain} | {_key(divisor)} for d in moduli):
        return None
    if remaining:
        chain.append(_Coordinate(index.name, _key(divisor), _product(remaining), len(chain)))
    return chain


def _as_coordinates(expr: Expr, coordinates: list[_Coordinate], values: dict[_Coordinate, Expr]) -> Expr:
    """`expr` with each digit of a parallel index, and each whole use of one, in terms of its coordinates'
    `values`."""
    by_index: dict[str, list[_Coordinate]] = {}
    for c in coordinates:
        by_index.setdefault(c.index, []).append(c)

    def rewrite(e: Expr) -> Expr:
        for index, mine in by_index.items():
            digit = _digit(e, index)
            position = None if digit is None else next(
                (n for n, c in enumerate(mine) if c.divisor == _key(digit[0]) and
                 (digit[1] is None or _key(digit[1]) == _key(_factors(c.extent)))), None)
            if position is not None:
                # `index / D`: this digit and the more significant ones
                return _cast_as(e, values[mine[position]] if digit[1] is not None else
                                _packed(mine[position:], values))
            if bare_index(e, index):
                return _cast_as(e, _packed(mine, values))
        return with_children(e, rewrite)

    return rewrite(expr)


def _cast_as(use: Expr, value: Expr) -> Expr:
    """`value` in the integer type a use of an index casts it to (`(size_t)b * T`, `(long)i / W`), which the
    arithmetic around it is computed in."""
    while not (isinstance(use, Cast) and is_integer_cast(use.ctype)):
        if not (isinstance(use, Binary) and use.op in ("/", "%")):
            return value
        use = use.left
    return Cast(ctype=use.ctype, operand=value)


def _packed(digits: list[_Coordinate], values: dict[_Coordinate, Expr]) -> Expr:
    """The number whose digits, least significant first, are `digits` (Horner's form: ((d2 * e1) + d1) * e0 + d0)."""
    out = values[digits[-1]]
    for digit in reversed(digits[:-1]):
        out = Binary(op="+", left=Binary(op="*", left=out, right=digit.extent), right=values[digit])
    return out


def _product(factors: list[Expr]) -> Expr:
    if not factors:
        return Const(text="1")
    out = factors[0]
    for f in factors[1:]:
        out = Binary(op="*", left=out, right=f)
    return out


def _digits(index: Expr, extents: list[Expr]) -> list[Expr]:
    """The values of coordinates of the given extents, most significant first, packed into `index`."""
    out = []
    for n, extent in enumerate(extents):
        below = extents[n + 1:]
        value = index if not below else Binary(op="/", left=index, right=_product(below))
        out.append(value if n == 0 else Binary(op="%", left=value, right=extent))
    return out


def _recombined(expr: Expr, indices: set[str]) -> Expr:
    """`expr` with the digits of one index put back together where a factor is laid out along them: `(a + q / (m *
    r)) * r + q / m % r` is `a * r + q / m` (`q / (m * r) * r + q / m % r` is `q / m`, `q / (m * r) % s * r + q / m
    % r` is `q / m % (s * r)`; with m = 1, `q % r`, `q`). A convolution's weight read over the collapsed loop,
    `((co * cin + c_kh_kw / 9) * 3 + c_kh_kw / 3 % 3) * 3 + c_kh_kw % 3`, is then `co * cin * 3 * 3 + c_kh_kw`: one
    affine index, read along the loop's unit stride in vectors instead of through a chain of divisions each step. Exact in C's arithmetic for positive m and r (its
    division truncates, so `q / m / r` is `q / (m * r)` and `q / r * r + q % r` is q); applied to the rewrite's own
    indices alone (`indices`), whose extents are sizes, never to a user's expression."""
    expr = with_children(expr, lambda child: _recombined(child, indices))
    if not (isinstance(expr, Binary) and expr.op == "+"):
        return expr
    terms, joined_any = _added(expr), False
    while (pair := next(((i, j, joined) for i, low in enumerate(terms) for j, scaled in enumerate(terms)
                         if i != j and (joined := _joined(scaled, low, indices)) is not None), None)):
        i, j, joined = pair
        terms = [t for n, t in enumerate(terms) if n not in (i, j)] + _added(joined)
        joined_any = True
    if not joined_any:
        return expr
    out = terms[0]
    for term in terms[1:]:
        out = Binary(op="+", left=out, right=term)
    return out


def _added(expr: Expr) -> list[Expr]:
    """The terms of a sum (`a + b + c`: a, b, c); any other expression is one."""
    if isinstance(expr, Binary) and expr.op == "+":
        return _added(expr.left) + _added(expr.right)
    return [expr]


def _joined(scaled: Expr, low: Expr, indices: set[str]) -> Expr | None:
    """`scaled + low` with `low` a digit of one of the `indices` and `scaled` the digits above it times
    its radix, as one digit (or what else `scaled` adds, times the radix, plus it); None where they are not."""
    if not (isinstance(scaled, Binary) and scaled.op == "*"):
        return None
    for q in indices:
        digit = _digit(low, q)
        if digit is None or digit[1] is None:
            continue
        divisor, radix = digit
        whole = Ref(name=q) if not divisor else Binary(op="/", left=Ref(name=q), right=_product(divisor))
        factors = _multiplicands(scaled)      # `(a + q / 9) * 3 * 3`: the radix 9 in two factors
        for high, factor in ((f, _product(factors[:n] + factors[n + 1:])) for n, f in enumerate(factors)):
            if _key(_factors(factor)) != _key(radix):
                continue
            rest = _above(high, q, _key(divisor + radix))
            if rest is _WHOLE:
                return whole
            if rest is not None:
                return Binary(op="+", left=Binary(op="*", left=rest, right=factor), right=whole)
            higher = _digit(high, q)
            if higher is not None and higher[1] is not None and \
                    _key(higher[0]) == _key(divisor + radix):
                return Binary(op="%", left=whole, right=_product(higher[1] + radix))
    return None


_WHOLE = Const(text="0")   # `_above`'s answer where the expression is the digit alone


def _above(high: Expr, index: str, divisor: tuple[str, ...]) -> Expr | None:
    """What `high` adds to `index / divisor` (`_WHOLE` where it is that alone, an integer cast looked through); None
    where it is no such sum."""
    if isinstance(high, Cast) and is_integer_cast(high.ctype):
        inner = _above(high.operand, index, divisor)
        return inner if inner is None or inner is _WHOLE else Cast(ctype=high.ctype, operand=inner)
    found = _divided(high, index)
    if found is not None and found and _key(found) == divisor:
        return _WHOLE
    if isinstance(high, Binary) and high.op == "+":
        for term, rest in ((high.right, high.left), (high.left, high.right)):
            if _above(term, index, divisor) is _WHOLE:
                return rest
    return None
