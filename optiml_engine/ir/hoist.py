"""What a point's code computes again inside or after its loops, computed once before them.

Index digits:
The lifter folds index locals into the reads (`const int co = i / W / H % C; ... w[co * K + k]` becomes
`w[(i / W / H % C) * K + k]`), which the analyses need. Emitted as they stand, the divisions sit inside the loops,
under their guards, where the compiler does not hoist them (an integer division it may not speculate): the emitted
map of a generated 3x3 convolution, a thread per output as the plain kernel, ran 10x slower than that kernel on an
H200 (bench/results/spec-h200/first-kernels/before-map-rule/). Each division or remainder of values no loop
changes, by sizes, that a top-level loop of the point recomputes is computed once, in a local before that loop.

Reads after the loops: a thread group sharing a point's loops combines their results through barriers, and a read
after the last loop (a cross entropy's label, then the logit it picks) waits for them and then for memory, twice,
before the point's write. A read whose address the loops do not change, of an array the kernel does not write, is
issued before the loops instead, so that its latency hides under theirs.
"""

from __future__ import annotations

from collections.abc import Callable

from optiml_engine.ir.analysis import loads, names_of, names_written, statement_exprs, unconditional_loads
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Call, Expr, For, Let, Load, Ref, Stmt, Store, children, rewritten, walk, with_children)


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


def hoisted_reads(body: list[Stmt], known: set[str], read_only: set[str], fresh: Callable[[str], str],
                  element_type: Callable[[str], str]) -> tuple[list[Stmt], list[Stmt]]:
    """(locals to compute before the point's loops, the point's code without them): each top-level statement after
    the last top-level loop that is a local (assigned nowhere else) of reads and `known` names only, and each read
    such statements perform unconditionally whose index reads `known` names and such locals only, of `read_only`
    arrays. `known`: the names fixed before the point's code (its indices, the kernel's scalars). Nothing when the
    point has no loop or nothing after it qualifies."""
    last = max((position for position, stmt in enumerate(body) if isinstance(stmt, For)), default=None)
    if last is None:
        return [], body
    assigned = [stmt.name for stmt in walk(body) if isinstance(stmt, (Assign, Let))]
    early = set(known)
    hoisted: list[Stmt] = []
    reads: list[tuple[Load, str]] = []

    def fixed(expr: Expr) -> bool:
        return names_of(expr) <= early and all(load.array in read_only and fixed(load.index)
                                               for load in loads(expr))

    def held(load: Load) -> Ref:
        name = next((name for found, name in reads if found == load), None)
        if name is None:
            name = fresh(f"{load.array}_read")
            reads.append((load, name))
            hoisted.append(Let(name=name, ctype=f"const {element_type(load.array)}", value=load))
        return Ref(name=name)

    def replace(expr: Expr, chosen: list[Load]) -> Expr:
        return held(expr) if isinstance(expr, Load) and expr in chosen else \
            with_children(expr, lambda child: replace(child, chosen))

    rest: list[Stmt] = []
    for stmt in body[last + 1:]:
        if isinstance(stmt, Let) and stmt.value is not None and assigned.count(stmt.name) == 1 and \
                fixed(stmt.value) and "&" not in stmt.ctype:
            hoisted.append(stmt)
            early.add(stmt.name)
            continue
        if isinstance(stmt, (Let, Assign, Store, Atomic)):
            chosen = [load for expr in statement_exprs(stmt) for load in unconditional_loads(expr)
                      if load.array in read_only and fixed(load.index) and not loads(load.index)]
            if chosen:
                stmt = rewritten([stmt], lambda expr: replace(expr, chosen))[0]
        rest.append(stmt)
    if not hoisted:
        return [], body
    return hoisted, body[:last + 1] + rest
