"""A point's index digits held in locals before the loops that read them.

The lifter folds index locals into the reads (`const int co = i / W / H % C; ... w[co * K + k]` becomes
`w[(i / W / H % C) * K + k]`), which the analyses need. Emitted as they stand, the divisions sit inside the loops,
under their guards, where the compiler does not hoist them (an integer division it may not speculate): the emitted
map of a generated 3x3 convolution, a thread per output as the plain kernel, ran 10x slower than that kernel on an
H200 (bench/results/spec-h200/first-kernels/before-map-rule/). Each division or remainder of values no loop
changes, by sizes, that a top-level loop of the point recomputes is computed once, in a local before that loop.
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.analysis import names_of, names_written, statement_exprs
from optiml_engine.ir.program import (
    Binary, Call, Expr, For, Let, Load, Ref, Stmt, children, rewritten, walk, with_children)


def hoisted_digits(body: list[Stmt], sizes: set[str], fresh: Callable[[str], str]) -> list[Stmt]:
    """`body` (a point's code) with every division or remainder inside its top-level loops that reads nothing the
    loop changes and divides by `sizes` (kernel scalars) and constants only, held in a `const auto` local before
    the loop; `fresh` names the locals."""
    out: list[Stmt] = []
    for stmt in body:
        if not isinstance(stmt, For):
            out.append(stmt)
            continue
        changing = names_written(stmt.body) | {s.var for s in walk([stmt]) if isinstance(s, For)}
        found = [e for inner in walk(stmt.body) for expr in statement_exprs(inner)
                 for e in _digits(expr, changing, sizes)]
        distinct = [e for position, e in enumerate(found) if e not in found[:position]]
        # Pairs, not a dict: an expression holding a call's argument list does not hash.
        held = [(expr, fresh("digit")) for expr in distinct]
        out += [Let(name=name, ctype="const auto", value=expr) for expr, name in held]

        def replace(expr: Expr) -> Expr:
            name = next((name for digit, name in held if digit == expr), None)
            return Ref(name=name) if name is not None else with_children(expr, replace)

        out += rewritten([stmt], replace) if held else [stmt]
    return out


def _digits(expr: Expr, changing: set[str], sizes: set[str]) -> list[Expr]:
    """The largest divisions and remainders in `expr` of values no loop changes by sizes and constants."""
    if isinstance(expr, Binary) and expr.op in ("/", "%") and _steady(expr, changing) and \
            names_of(expr.right) <= sizes:
        return [expr]
    return [found for child in children(expr) for found in _digits(child, changing, sizes)]


def _steady(expr: Expr, changing: set[str]) -> bool:
    """No load, call or name the loop changes in `expr`."""
    if isinstance(expr, (Load, Call)):
        return False
    if isinstance(expr, Ref):
        return expr.name not in changing
    return all(_steady(child, changing) for child in children(expr))
