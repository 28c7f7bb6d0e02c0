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

from optiml_engine.ir.analysis import is_integer_cast, names_of, statement_exprs
from optiml_engine.ir.program import (
    Assign, Binary, Cast, Const, Expr, Let, LoopProgram, ParallelIndex, Ref, Stmt, children, fresh_name, names_in,
    rewritten, substitute, substituted, walk, with_children)

Factors = tuple[str, ...]          # a product of size parameters and one integer (>1), as a sorted multiset


def factors(expr: Expr) -> Factors | None:
    """The factors of a product of names and integer literals (integer casts looked through); None otherwise."""
    if isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        return factors(expr.operand)
    if isinstance(expr, Ref):
        return (expr.name,)
    if isinstance(expr, Const) and expr.text.rstrip("uUlL").isdigit() and int(expr.text.rstrip("uUlL")):
        return _normal((expr.text.rstrip("uUlL"),))
    if isinstance(expr, Binary) and expr.op == "*":
        left, right = factors(expr.left), factors(expr.right)
        return None if left is None or right is None else times(left, right)
    return None


def times(left: Factors, right: Factors) -> Factors:
    return _normal(left + right)


def _normal(names: Factors) -> Factors:
    """The integers among the factors multiplied into one (`4 * H * W` and `2 * W * 2 * H` are one product)."""
    number = 1
    for name in names:
        if name.isdigit():
            number *= int(name)
    rest = [name for name in names if not name.isdigit()]
    return tuple(sorted(rest + ([str(number)] if number != 1 else [])))


def quotient(whole: Factors, part: Factors) -> Factors | None:
    whole, part = _normal(whole), _normal(part)
    number = _number(whole)
    if number % _number(part):
        return None
    rest = Counter(name for name in whole if not name.isdigit())
    rest.subtract(Counter(name for name in part if not name.isdigit()))
    if any(count < 0 for count in rest.values()):
        return None
    return _normal(tuple(rest.elements()) + (str(number // _number(part)),))


def _number(names: Factors) -> int:
    return next((int(name) for name in names if name.isdigit()), 1)


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
    """(divisor, modulus) of `index % F`, `index / E` (modulus None) or `index / E % F`, casts looked through;
    `index / E / G` is `index / (E * G)`."""
    if isinstance(expr, Binary) and expr.op == "%":
        modulus = factors(expr.right)
        divisor = _divisor(expr.left, index)
        return None if modulus is None or divisor is None else (divisor, modulus)
    divisor = _divisor(expr, index) if isinstance(expr, Binary) else None
    return None if divisor is None else (divisor, None)


def _divisor(expr: Expr, index: str) -> Factors | None:
    """E's factors for `index / E` (`index / E / G`: E * G), () for the index itself; None otherwise."""
    if bare_index(expr, index):
        return ()
    while isinstance(expr, Cast) and is_integer_cast(expr.ctype):
        expr = expr.operand
    if not (isinstance(expr, Binary) and expr.op == "/"):
        return None
    outer, inner = factors(expr.right), _divisor(expr.left, index)
    return None if outer is None or inner is None else times(inner, outer)


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
    """The program over the digits of its flat index, or the program as it was when the digits do not tile it.
    Three digits at most, one a grid dimension: the digits above the second are one index whose own digits the
    code reads by `/` and `%` (`n = rest / H, h = rest % H`), fewer divisions than the flat index's."""
    flat = program.space[0]
    if len(program.space) != 1 or not (isinstance(flat.lower, Const) and flat.lower.text == "0"):
        return program
    followed = program.model_copy(update={"body": _quotients_followed(program.body, flat.name)})
    digits = _over_digits(followed)
    if digits is not followed:
        return digits
    # Sizes named only where the digits need it: a local holding a size elsewhere stays read by its name.
    named, sizes = _sizes_named(followed)
    digits = _over_digits(named)
    if digits is named:
        return program
    return digits.model_copy(update={"space": [index.model_copy(update={"upper": substitute(index.upper, sizes)})
                                               for index in digits.space],
                                     "body": substituted(digits.body, sizes)})


def _sizes_named(program: LoopProgram) -> tuple[LoopProgram, dict[str, Expr]]:
    """The program with each size that is no product of names (`(H + 2 * 1 - 3) / 2 + 1`, `W / 2`, an output
    size computed in the kernel) read through a name of its own, the same size the same name, so that its digits'
    divisors and moduli factor (`factors`); and the names' values. A local holding such a size (`int OW = W / 2;`,
    assigned nowhere after) is read as its value first."""
    scalars = {scalar.name for scalar in program.scalars}
    assigned = {stmt.name for stmt in walk(program.body) if isinstance(stmt, Assign)}
    uniform: dict[str, Expr] = {}
    for stmt in program.body:
        if isinstance(stmt, Let) and stmt.value is not None and stmt.name not in assigned and \
                names_of(stmt.value) <= scalars | set(uniform):
            uniform[stmt.name] = substitute(stmt.value, uniform)
    taken = names_in(program)
    names: dict[str, str] = {}
    sizes: dict[str, Expr] = {}

    def name(expr: Expr) -> Expr:
        if not names_of(expr) or not names_of(expr) <= scalars:
            return with_children(expr, name)
        if isinstance(expr, (Ref, Const)) or isinstance(expr, Binary) and expr.op == "*" or \
                isinstance(expr, Cast) and is_integer_cast(expr.ctype):
            return with_children(expr, name)
        text = str(expr)
        if text not in names:
            names[text] = fresh_name("size", taken)
            sizes[names[text]] = expr
        return Ref(name=names[text])

    def read(expr: Expr) -> Expr:
        return name(substitute(expr, uniform))

    flat = program.space[0]
    named = program.model_copy(update={"space": [flat.model_copy(update={"upper": read(flat.upper)})],
                                       "body": rewritten(program.body, read)})
    return named, sizes


def _over_digits(program: LoopProgram) -> LoopProgram:
    flat = program.space[0]
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
            if any(quotient(d, divisor) is not None and quotient(d, times(divisor, modulus)) is None
                   for d, _ in pairs if d != divisor):
                break                     # divisors that do not nest: no chain
        chain.append((divisor, modulus))
        divisor = times(divisor, modulus)
    last = quotient(extent, divisor)
    if last is None or not chain:
        return program
    digits = chain + ([(divisor, last)] if last else [])
    known = {(d, m) for d, m in digits} | {(d, None) for d, _ in digits}
    # Every digit used is on the chain; `index / D` alone is the last digit, or for a divisor of the chain the digits
    # above it read as one number (a plane's `nc = i / (H * W)`, n * C + c).
    if any((d, m) not in known for d, m in pairs):
        return program
    ctype = flat.ctype
    names = _digit_names(program.body, flat.name, digits)
    values: dict = {}
    for (d, m), name in zip(digits, names):
        values[(d, m)] = Ref(name=name)
    values[(divisor, None)] = Ref(name=names[-1]) if last else Const(text="0")
    if len(digits) > 3:
        # The digits from the third on are one index, `rest`, over what is left of the flat extent.
        base = digits[2][0]
        rest = fresh_name(f"{flat.name}_rest", names_in(program))
        for d, m in digits[2:]:
            above = product(quotient(d, base), ctype)
            read = Ref(name=rest) if above == Const(text="1") else Binary(op="/", left=Ref(name=rest), right=above)
            values[(d, None)] = read
            values[(d, m)] = read if (d, m) == digits[-1] else Binary(op="%", left=read, right=product(m, ctype))
        values[(divisor, None)] = values[digits[-1]] if last else Const(text="0")
        names = names[:2] + [rest]
        digits = digits[:2] + [(base, quotient(extent, base))]
    for d, m in pairs:
        if m is None and (d, None) not in values:
            k = next(k for k, (digit, _) in enumerate(digits) if digit == d)
            above: Expr = Ref(name=names[k])
            for (digit, _), name in list(zip(digits, names))[k + 1:]:
                above = Binary(op="+", left=above,
                               right=Binary(op="*", left=Ref(name=name), right=product(quotient(digit, d), ctype)))
            values[(d, None)] = above
    body = _replace_digits([s for s in program.body if not (isinstance(s, Let) and s.name in names)],
                           flat.name, values)
    linear: Expr = Ref(name=names[0])
    for (d, _), name in list(zip(digits, names))[1:]:
        linear = Binary(op="+", left=Binary(op="*", left=Ref(name=name), right=product(d, ctype)), right=linear)
    body = substituted(body, {flat.name: linear})
    dims = "xyz"
    ctypes = _digit_types(program.body, flat.name, digits, ctype) + [ctype] * (len(digits) - 2)
    space = [ParallelIndex(name=name, ctype=ctypes[position], dim=dims[position], lower=Const(text="0"),
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


def _digit_types(body: list[Stmt], flat: str, digits: list[tuple[Factors, Factors]], ctype: str) -> list[str]:
    """Each of the two innermost digits' type: `int` where the kernel keeps it in an `int` (`int w = i % W;`, `int
    c = (int)(i % C);`) though the flat index is wider, as the kernel's own arithmetic on it is (a quotient by a
    size in 32 bits, several times cheaper than in 64); the flat index's type otherwise."""
    narrow: set = set()
    for stmt in body:
        value = stmt.value if isinstance(stmt, Let) and stmt.value is not None and stmt.ctype == "int" else None
        while isinstance(value, Cast) and value.ctype == "int":
            value = value.operand
        if value is not None and (digit := digit_of(value, flat)) is not None:
            narrow.add(digit)
    last_divisor = digits[-1][0]
    return ["int" if (d, m) in narrow or d == last_divisor and (d, None) in narrow else ctype
            for d, m in digits[:2]]


def _replace_digits(body: list[Stmt], flat: str, values: dict) -> list[Stmt]:
    def rewrite(expr: Expr) -> Expr:
        digit = digit_of(expr, flat)
        if digit is not None:
            return values[digit] if digit in values else values[(digit[0], None)]
        return with_children(expr, rewrite)

    return rewritten(body, rewrite)


def _quotients_followed(body: list[Stmt], flat: str) -> list[Stmt]:
    """The code with a local walking the flat index's quotients (`int64_t t = i / C; w = t % W; t /= W; h = t %
    H; n = t / H;`, each step at the body's top, the local assigned nowhere else) read as the quotient it holds at
    each read (`i / C % W`, `i / (C * W) % H`, `i / (C * W) / H`: for a non-negative index and positive divisors,
    dividing twice is dividing by the product), its declaration and steps dropped. The code as it was otherwise."""
    for position, stmt in enumerate(body):
        if not (isinstance(stmt, Let) and stmt.value is not None and
                (bare_index(stmt.value, flat) or digit_of(stmt.value, flat) is not None and
                 digit_of(stmt.value, flat)[1] is None)):
            continue
        steps = {id(s) for s in body[position + 1:] if isinstance(s, Assign) and s.name == stmt.name}
        if not steps or any(isinstance(s, Assign) and s.name == stmt.name and (id(s) not in steps or s.op != "/=")
                            for s in walk(body[position + 1:])):
            continue
        held: Expr = stmt.value
        kept: list[Stmt] = body[:position]
        for later in body[position + 1:]:
            if id(later) in steps:
                held = Binary(op="/", left=held, right=later.value)
            else:
                kept += substituted([later], {stmt.name: held})
        return kept
    return body
