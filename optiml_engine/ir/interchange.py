"""Two nested loops swapped: a program rewrite the map schedules may start from (IR.md: stencil register windows).

A 2-D stencil or convolution walks its taps row by row,

    for (ky = 0; ky < 3; ++ky) {
        iy = oy + ky - 1;
        if (0 <= iy < H) for (kx = 0; kx < 3; ++kx) { ix = ox + kx - 1; if (0 <= ix < W) acc += in[iy * W + ix] * ...; }
    }

A thread's neighbouring points along x share the inner loop's reads through a register window the loop slides
(schedule.py `slides`), but those points are a warp's lanes 2 or 4 elements apart: the warp's reads are strided.
Neighbouring points along y, whose warps read whole rows, cannot share theirs: their reads move with the outer loop,
and the inner loop changes them. With the loops swapped, the taps walked column by column, they move with the inner
loop, and points along y share them:

    for (kx = 0; kx < 3; ++kx) { ix = ...; if (0 <= ix < W) for (ky = 0; ky < 3; ++ky) { iy = ...; if (...) acc += ...; } }

Swapped where the inner loop is the outer one's body, with declarations and `if`s (no `else`) around each, each
reading its own loop's variable and what is outside both; neither loop's bounds read the other's variable or
declarations; and the innermost statement is an update of one accumulator by an associative and commutative
operator. The sum then has the same terms in another order: equal within the contract's tolerance, which the
verifier checks as it checks every candidate.
"""

from __future__ import annotations

from optiml_engine.ir.analysis import names_of, reduction_update, statement_exprs
from optiml_engine.ir.program import For, If, Let, LoopProgram, Stmt, statements_replaced

# An item around a loop's body: a declaration, or a condition its statements are under.
Layer = Let | If


def interchanged(program: LoopProgram) -> LoopProgram:
    """The program with every innermost pair of loops that may be swapped, swapped; the program itself where none
    may."""
    body = statements_replaced(program.body, _swapped)
    return program if body == program.body else program.model_copy(update={"body": body})


def _swapped(stmt: Stmt) -> list[Stmt] | None:
    if not isinstance(stmt, For):
        return None
    outer_layers, inner = _peeled(stmt.body)
    if not isinstance(inner, For):
        return None
    inner_layers, update = _peeled(inner.body)
    if update is None or isinstance(update, For) or reduction_update(update) is None or \
            reduction_update(update).index is not None:
        return None
    outer_names = {stmt.var} | {layer.name for layer in outer_layers if isinstance(layer, Let)}
    inner_names = {inner.var} | {layer.name for layer in inner_layers if isinstance(layer, Let)}
    if any(_reads(layer) & inner_names for layer in outer_layers) or \
            any(_reads(layer) & outer_names for layer in inner_layers) or \
            any(names_of(e) & outer_names for e in (inner.start, inner.stop, inner.step)) or \
            any(names_of(e) & inner_names for e in (stmt.start, stmt.stop, stmt.step)):
        return None
    swapped_outer = stmt.model_copy(update={"body": _wrapped(outer_layers, [update])})
    return [inner.model_copy(update={"body": _wrapped(inner_layers, [swapped_outer])})]


def _peeled(body: list[Stmt]) -> tuple[list[Layer], Stmt | None]:
    """The declarations and conditions down to the one statement `body` holds (a loop or an update); None where
    the body holds more than that."""
    layers: list[Layer] = []
    while True:
        *declarations, last = body if body else [None]
        if not all(isinstance(s, Let) and s.value is not None for s in declarations):
            return layers, None
        layers += declarations
        if isinstance(last, If) and not last.other:
            layers.append(last.model_copy(update={"then": []}))
            body = last.then
            continue
        return layers, last


def _reads(layer: Layer) -> set[str]:
    return {name for expr in statement_exprs(layer) for name in names_of(expr)}


def _wrapped(layers: list[Layer], body: list[Stmt]) -> list[Stmt]:
    """`body` under the layers, the first outermost."""
    if not layers:
        return body
    first, rest = layers[0], _wrapped(layers[1:], body)
    if isinstance(first, If):
        return [first.model_copy(update={"then": rest})]
    return [first, *rest]
