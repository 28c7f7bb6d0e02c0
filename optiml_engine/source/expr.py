"""The contract's expression language: numbers, size symbols, + - * / // %, unary minus, parentheses and the
calls cdiv, min and max.

A tokenizer and a recursive-descent parser build a small immutable tree; nothing is ever handed to Python's
`eval`. Every node remembers where its text starts, so evaluation errors point at the offending symbol or operator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from optiml_engine.model import Location, OptimlError

Number = int | float

FUNCTIONS = ("cdiv", "min", "max")

_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<hex>0[xX][0-9a-fA-F]+)"
    r"|(?P<float>(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)"
    r"|(?P<int>\d+)"
    r"|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<op>//|[-+*/%(),])"
    r")",
    re.ASCII,
)


@dataclass(frozen=True)
class Expr:
    at: Location = field(compare=False)  # where the node's text starts (binary nodes: the operator)

    def children(self) -> tuple[Expr, ...]:
        return ()

    def names(self) -> Iterator[Name]:
        """Every symbol occurrence, in source order, with its location."""
        for child in self.children():
            yield from child.names()

    def symbols(self) -> set[str]:
        return {name.name for name in self.names()}

    def evaluate(self, env: dict[str, Number]) -> Number:
        raise NotImplementedError


@dataclass(frozen=True)
class Num(Expr):
    value: Number

    def evaluate(self, env: dict[str, Number]) -> Number:
        return self.value

    def __str__(self) -> str:
        return repr(self.value)


@dataclass(frozen=True)
class Name(Expr):
    name: str

    def names(self) -> Iterator[Name]:
        yield self

    def evaluate(self, env: dict[str, Number]) -> Number:
        if self.name not in env:
            known = ", ".join(env) or "none"
            raise OptimlError(self.at, f"unknown symbol '{self.name}'", f"one of: {known}")
        return env[self.name]

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Neg(Expr):
    operand: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.operand,)

    def evaluate(self, env: dict[str, Number]) -> Number:
        return -self.operand.evaluate(env)

    def __str__(self) -> str:
        return f"-{_wrapped(self.operand, 3)}"


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2}


@dataclass(frozen=True)
class Binary(Expr):
    op: str
    left: Expr
    right: Expr

    def children(self) -> tuple[Expr, ...]:
        return (self.left, self.right)

    def evaluate(self, env: dict[str, Number]) -> Number:
        a, b = self.left.evaluate(env), self.right.evaluate(env)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        if b == 0:
            raise OptimlError(self.at, f"division by zero in '{self}'", "a non-zero divisor")
        if self.op == "%":
            return a % b
        # `/` between integers divides as C does for the non-negative sizes contracts deal in.
        if self.op == "//" or isinstance(a, int) and isinstance(b, int):
            return a // b
        return a / b

    def __str__(self) -> str:
        level = _PRECEDENCE[self.op]
        # Left-associative: the right operand needs parentheses at equal precedence, the left does not.
        return f"{_wrapped(self.left, level)}{self.op}{_wrapped(self.right, level + 1)}"


@dataclass(frozen=True)
class Call(Expr):
    function: str
    args: tuple[Expr, ...]

    def children(self) -> tuple[Expr, ...]:
        return self.args

    def evaluate(self, env: dict[str, Number]) -> Number:
        values = [arg.evaluate(env) for arg in self.args]
        if self.function == "min":
            return min(values)
        if self.function == "max":
            return max(values)
        a, b = values
        if b == 0:
            raise OptimlError(self.at, f"division by zero in '{self}'", "a non-zero divisor")
        return -(-a // b)

    def __str__(self) -> str:
        return f"{self.function}({','.join(map(str, self.args))})"


def _wrapped(node: Expr, level: int) -> str:
    inner = _PRECEDENCE.get(node.op, 9) if isinstance(node, Binary) else 9
    return f"({node})" if inner < level else str(node)


class _Parser:
    def __init__(self, text: str, where: Location):
        self.where = where
        self.tokens: list[tuple[str, str, int]] = []  # (kind, text, offset)
        pos = 0
        while text[pos:].strip():
            match = _TOKEN.match(text, pos)
            if not match or not match.lastgroup:
                bad = len(text) - len(text[pos:].lstrip())
                raise OptimlError(self.at(bad), f"unexpected character '{text[bad]}' in expression",
                                  "a number, a symbol, an operator, or cdiv/min/max(...)")
            self.tokens.append((match.lastgroup, match.group(match.lastgroup), match.start(match.lastgroup)))
            pos = match.end()
        self.tokens.append(("end", "", len(text.rstrip())))
        self.index = 0

    def at(self, offset: int) -> Location:
        return self.where.model_copy(update={"column": self.where.column + offset})

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.index]

    def take(self, expected: str | None = None) -> tuple[str, str, int]:
        token = self.peek()
        if expected is not None and token[1] != expected:
            raise self.unexpected(token, f"'{expected}'")
        self.index += 1
        return token

    def unexpected(self, token: tuple[str, str, int], expected: str) -> OptimlError:
        what = f"'{token[1]}'" if token[0] != "end" else "end of expression"
        return OptimlError(self.at(token[2]), f"unexpected {what}", expected)

    def expression(self) -> Expr:
        node = self.term()
        while self.peek()[1] in ("+", "-"):
            op = self.take()
            node = Binary(self.at(op[2]), op[1], node, self.term())
        return node

    def term(self) -> Expr:
        node = self.unary()
        while self.peek()[1] in ("*", "/", "//", "%"):
            op = self.take()
            node = Binary(self.at(op[2]), op[1], node, self.unary())
        return node

    def unary(self) -> Expr:
        if self.peek()[1] == "-":
            op = self.take()
            return Neg(self.at(op[2]), self.unary())
        return self.primary()

    def primary(self) -> Expr:
        kind, text, offset = token = self.take()
        if kind == "int":
            return Num(self.at(offset), int(text))
        if kind == "hex":
            return Num(self.at(offset), int(text, 16))
        if kind == "float":
            return Num(self.at(offset), float(text))
        if kind == "name" and self.peek()[1] == "(":
            return self.call(token)
        if kind == "name":
            return Name(self.at(offset), text)
        if text == "(":
            node = self.expression()
            self.take(")")
            return node
        raise self.unexpected(token, "a number, a symbol or '('")

    def call(self, name: tuple[str, str, int]) -> Expr:
        if name[1] not in FUNCTIONS:
            raise OptimlError(self.at(name[2]), f"unknown function '{name[1]}'", "cdiv, min or max")
        self.take("(")
        args = [self.expression()]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.expression())
        self.take(")")
        if name[1] == "cdiv" and len(args) != 2:
            raise OptimlError(self.at(name[2]), f"cdiv takes 2 arguments, got {len(args)}", "cdiv(a,b)")
        return Call(self.at(name[2]), name[1], tuple(args))


def parse_expr(text: str, where: Location) -> Expr:
    """Parse `text`, whose first character sits at `where`; errors point at the offending character."""
    parser = _Parser(text, where)
    if parser.peek()[0] == "end":
        raise OptimlError(where, "empty expression", "an expression")
    node = parser.expression()
    if parser.peek()[0] != "end":
        raise parser.unexpected(parser.peek(), "an operator or the end of the expression")
    return node


def evaluate(text: str, env: dict[str, Number], where: Location | None = None) -> Number:
    return parse_expr(text, where or Location(file="<expression>", line=1)).evaluate(env)
