"""A flat parallel index taken apart into the digits its code uses.

Kernels launched over `rows * cols` threads (or `A * B * C`) read the coordinates back with `/` and `%`:
`r = idx / cols; c = idx % cols`, `b = idx % B; a = idx / B % A; c = idx / (A * B)`. As written, every index built
from them is opaque to the stride analysis (a transpose's strided write does not show). When every use of the flat
index is such a digit, or the index itself, and the digits tile its extent exactly (each divisor the product of the
moduli below it, the last digit's extent what is left of the flat extent), the space becomes one index per digit,
outermost first, and the flat index the affine sum of the digits times their divisors.
"""

from __future__ import annotations

from collections import Counter

from optiml_engine.ir.analysis import is_integer_cast, statement_exprs
from optiml_engine.ir.program import (
    Assign, Binary, Cast, Const, Expr, Let, LoopProgram, ParallelIndex, Ref, Stmt, children, rewritten, substituted,
    walk, with_children)

Factors = tuple[str, ...]          # a product of size parameters and integers, as a sorted multiset


def factors(expr: Expr) -> Factors | None:
    """The factors of a product of names and integer literals (integer casts looked through); None otherwise."""
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return factors(expr.operand)
    if isinstance(expr, Ref):
        return (expr.name,)
    if isinstance(expr, Const) and expr.text.rstrip("uUlL").isdigit():
        value = int(expr.text.rstrip("uUlL"))
        return () if value == 1 else (str(value),)
    if isinstance(expr, Binary) and expr.op == "*":
        left, right = factors(expr.left), factors(expr.right)
        return None if left is None or right is None else tuple(sorted(left + right))
    return None


def quotient(whole: Factors, part: Factors) -> Factors | None:
    rest = Counter(whole)
    rest.subtract(Counter(part))
    if any(count < 0 for count in rest.values()):
        return None
    return tuple(sorted(rest.elements()))


def product(names: Factors, ctype: str) -> Expr:
    if not names:
        return Const(text="1")
    result: Expr = Cast(ctype=ctype, operand=_atom(names[0])) if len(names) > 1 else _atom(names[0])
    for name in names[1:]:
        result = Binary(op="*", left=result, right=_atom(name))
    return result


def _atom(name: str) -> Expr:
    return Const(text=name) if name.isdigit() else Ref(name=name)


def bare_index(expr: Expr, index: str) -> bool:
    """Whether the expression is the index itself (integer casts looked through)."""
    while isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        expr = expr.operand
    return isinstance(expr, Ref) and expr.name == index


def digit_of(expr: Expr, index: str) -> tuple[Factors, Factors | None] | None:
    """(divisor, modulus) of `index % F`, `index / E` (modulus None) or `index / E % F`, casts looked through."""
    if isinstance(expr, Binary) and expr.op == "%":
        inner = expr.left
        modulus = factors(expr.right)
        if modulus is None:
            return None
        if bare_index(inner, index):
            return (), modulus
        if isinstance(inner, Binary) and inner.op == "/" and bare_index(inner.left, index):
            divisor = factors(inner.right)
            return None if divisor is None else (divisor, modulus)
        return None
    if isinstance(expr, Binary) and expr.op == "/" and bare_index(expr.left, index):
        divisor = factors(expr.right)
        return None if divisor is None else (divisor, None)
    return None


def _digits(expr: Expr, index: str, found: list) -> bool:
    """Collect the digits of `index` in the expression into `found`; False when the index is used otherwise than as
    a digit or itself (under a call, say)."""
    digit = digit_of(expr, index)
    if digit is not None:
        found.append(digit)
        return True
    if bare_index(expr, index):
        return True
    return all(_digits(child, index, found) for child in children(expr))


def delinearized(program: LoopProgram) -> LoopProgram:
    """The program over the digits of its flat index, or the program as it was when the digits do not tile it."""
    flat = program.space[0]
    if len(program.space) != 1 or not (isinstance(flat.lower, Const) and flat.lower.text == "0"):
        return program
    extent = factors(flat.upper)
    if extent is None:
        return program
    found: list[tuple[Factors, Factors | None]] = []
    exprs = [expr for stmt in walk(program.body) for expr in statement_exprs(stmt)]
    if not all(_digits(expr, flat.name, found) for expr in exprs) or not found:
        return program
    # The chain of digits from divisor 1: each next divisor is the product of the moduli so far. A digit the code
    # never reads is implied where a larger one is read (`c = i / HW % C` reads the channel; the position in the
    # plane below it, `i % HW`, is what the rest of `i` holds).
    pairs = set(found)
    chain: list[tuple[Factors, Factors]] = []
    divisor: Factors = ()
    while True:
        following = [pair for pair in pairs if pair[0] == divisor]
        modulus = next((m for d, m in following if m is not None), None)
        if modulus is None:
            above = [rest for d, _ in pairs if d != divisor and (rest := quotient(d, divisor))]
            if following or not above:
                break
            modulus = min(above, key=len)
            if any(quotient(d, divisor) is not None and quotient(d, tuple(sorted(divisor + modulus))) is None
                   for d, _ in pairs if d != divisor):
                break                     # divisors that do not nest: no chain
        chain.append((divisor, modulus))
        divisor = tuple(sorted(divisor + modulus))
    last = quotient(extent, divisor)
    if last is None or not chain or len(chain) + (1 if last else 0) > 3:
        return program
    digits = chain + ([(divisor, last)] if last else [])
    known = {(d, m) for d, m in digits} | {(d, None) for d, _ in digits}
    # Every digit used is on the chain; `index / D` alone only for the last divisor (or one of the chain's whose
    # quotient the rest of the chain covers exactly, which `index / D % M` already says).
    if any((d, m) not in known for d, m in pairs) or any(m is None and d != divisor for d, m in pairs):
        return program
    ctype = flat.ctype
    names = _digit_names(program.body, flat.name, digits)
    values: dict = {}
    for (d, m), name in zip(digits, names):
        values[(d, m)] = Ref(name=name)
    values[(divisor, None)] = Ref(name=names[-1]) if last else Const(text="0")
    body = _replace_digits([s for s in program.body if not (isinstance(s, Let) and s.name in names)],
                           flat.name, values)
    linear: Expr = Ref(name=names[0])
    for (d, _), name in list(zip(digits, names))[1:]:
        linear = Binary(op="+", left=Binary(op="*", left=Ref(name=name), right=product(d, ctype)), right=linear)
    body = substituted(body, {flat.name: linear})
    dims = "xyz"
    space = [ParallelIndex(name=name, ctype=ctype, dim=dims[position], lower=Const(text="0"),
                           upper=product(m, ctype))
             for position, ((_, m), name) in enumerate(zip(digits, names))]
    return program.model_copy(update={"space": list(reversed(space)), "body": body})


def _digit_names(body: list[Stmt], flat: str, digits: list[tuple[Factors, Factors]]) -> list[str]:
    """The names the kernel gave its digits (`int r = idx / cols;`), else the flat index's name and the digit's. Not
    a local the code changes later (`int64_t t = i / C; ... t /= W;` walks on from the digit): a parallel index is
    never assigned."""
    named: dict = {}
    changed = {stmt.name for stmt in walk(body) if isinstance(stmt, Assign)}
    for stmt in body:
        if isinstance(stmt, Let) and stmt.value is not None and (digit := digit_of(stmt.value, flat)) is not None \
                and stmt.name not in changed:
            named.setdefault(digit, stmt.name)
    last_divisor = digits[-1][0]
    out = []
    for position, (d, m) in enumerate(digits):
        name = named.get((d, m)) or (named.get((d, None)) if d == last_divisor else None)
        out.append(name or f"{flat}_{position}")
    return out


def _replace_digits(body: list[Stmt], flat: str, values: dict) -> list[Stmt]:
    def rewrite(expr: Expr) -> Expr:
        digit = digit_of(expr, flat)
        if digit is not None:
            return values[digit] if digit in values else values[(digit[0], None)]
        return with_children(expr, rewrite)

    return rewritten(body, rewrite)
