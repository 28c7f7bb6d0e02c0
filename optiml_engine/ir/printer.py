"""C text of the program's expressions and statements (what emit.py writes), and the program's readable form
(what the hover and the trajectory show)."""

from __future__ import annotations

from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Call, Cast, Const, Expr, For, If, Let, Load, LoopProgram, Ref, Select, Stmt, Store, Unary)

# C precedence, higher binds tighter.
_PRECEDENCE = {
    "*": 13, "/": 13, "%": 13, "+": 12, "-": 12, "<<": 11, ">>": 11, "<": 10, "<=": 10, ">": 10, ">=": 10,
    "==": 9, "!=": 9, "&": 8, "^": 7, "|": 6, "&&": 5, "||": 4,
}
_UNARY, _SELECT, _ATOM = 14, 3, 16


def _precedence(expr: Expr) -> int:
    if isinstance(expr, Binary):
        return _PRECEDENCE[expr.op]
    if isinstance(expr, (Unary, Cast)):
        return _UNARY
    if isinstance(expr, Select):
        return _SELECT
    return _ATOM


def c_expr(expr: Expr, rename: dict[str, str] | None = None) -> str:
    """The expression as C; `rename` maps names (a parallel index onto the emitted kernel's variable)."""
    rename = rename or {}

    def text(e: Expr, context: int = 0, right: bool = False) -> str:
        own = _precedence(e)
        if isinstance(e, Const):
            body = e.text
        elif isinstance(e, Ref):
            body = rename.get(e.name, e.name)
        elif isinstance(e, Load):
            body = f"{e.array}[{text(e.index)}]"
        elif isinstance(e, Unary):
            body = e.op + text(e.operand, own)
        elif isinstance(e, Cast):
            body = f"({e.ctype}){text(e.operand, own)}"
        elif isinstance(e, Binary):
            body = f"{text(e.left, own)} {e.op} {text(e.right, own, right=True)}"
        elif isinstance(e, Select):
            body = f"{text(e.cond, own + 1)} ? {text(e.then, own)} : {text(e.other, own)}"
        elif isinstance(e, Call):
            body = f"{e.function}({', '.join(text(a) for a in e.args)})"
        else:
            raise TypeError(e)
        # Equal precedence on the right of a left-associative operator needs parentheses: a - (b - c).
        if own < context or (right and own == context and own != _ATOM):
            return f"({body})"
        return body

    return text(expr)


def c_operand(expr: Expr, rename: dict[str, str] | None = None) -> str:
    """The expression as C to put on either side of a comparison, or on the left of `+` or `-`, in text (a loop's
    bound in `i < {stop}`): parenthesized unless it binds as tightly as `+` and `-` (a bound `b < c ? b : c`). On
    the right of `-` a sum still needs the caller's parentheses."""
    text = c_expr(expr, rename)
    return text if _precedence(expr) >= _PRECEDENCE["+"] else f"({text})"


def c_statements(body: list[Stmt], indent: str, rename: dict[str, str] | None = None) -> list[str]:
    """The statements as C lines."""
    lines: list[str] = []
    for stmt in body:
        if isinstance(stmt, Let):
            value = "" if stmt.value is None else f" = {c_expr(stmt.value, rename)}"
            lines.append(f"{indent}{stmt.ctype} {stmt.name}{value};")
        elif isinstance(stmt, Assign):
            lines.append(f"{indent}{stmt.name} {stmt.op} {c_expr(stmt.value, rename)};")
        elif isinstance(stmt, Store):
            lines.append(f"{indent}{stmt.array}[{c_expr(stmt.index, rename)}] {stmt.op} {c_expr(stmt.value, rename)};")
        elif isinstance(stmt, Atomic):
            lines.append(f"{indent}{stmt.function}(&{stmt.array}[{c_expr(stmt.index, rename)}], "
                         f"{c_expr(stmt.value, rename)});")
        elif isinstance(stmt, For):
            step = c_expr(stmt.step, rename)
            update = f"++{stmt.var}" if step == "1" else f"{stmt.var} += {step}"
            lines.append(f"{indent}for ({stmt.ctype} {stmt.var} = {c_expr(stmt.start, rename)}; "
                         f"{stmt.var} < {c_operand(stmt.stop, rename)}; {update}) {{")
            lines += c_statements(stmt.body, indent + "    ", rename)
            lines.append(f"{indent}}}")
        elif isinstance(stmt, If):
            lines.append(f"{indent}if ({c_expr(stmt.cond, rename)}) {{")
            lines += c_statements(stmt.then, indent + "    ", rename)
            if stmt.other:
                lines.append(f"{indent}}} else {{")
                lines += c_statements(stmt.other, indent + "    ", rename)
            lines.append(f"{indent}}}")
        else:
            raise TypeError(stmt)
    return lines


def program_text(program: LoopProgram) -> str:
    """The program in loop-nest form: the parallel space as one `parallel for`, then the per-point code."""
    params = [f"{a.ctype}{' const' if a.const else ''} {a.name}[]" for a in program.arrays] + \
        [f"{s.ctype} {s.name}" for s in program.scalars]
    space = ", ".join(f"{i.name} in [{c_expr(i.lower)}, {c_expr(i.upper)})" for i in program.space)
    lines = [f"program {program.kernel}({', '.join(params)})", f"parallel for {space}:"]
    lines += c_statements(program.body, "    ")
    if program.assumption is not None:
        lines.append(f"assuming {c_expr(program.assumption.condition)}; elsewhere, as written:")
        lines += ["    " + line for line in program_text(program.assumption.otherwise).splitlines()]
    return "\n".join(lines)
