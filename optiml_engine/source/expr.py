"""The contract's expression language: numbers, size symbols, + - * / // %, unary minus, parentheses and the
calls cdiv, min and max.

The reference oracle (oracle.py) and the generator's elementwise intents (generate/intent.py) parse the same
syntax with a vocabulary of functions of their own (`functions=`), and evaluate it over arrays: a call resolves to
a function the environment provides before the contract's own cdiv/min/max.

A tokenizer and a recursive-descent parser build a small immutable tree; nothing is ever handed to Python's
`eval`. Every node remembers where its text starts, so evaluation errors point at the offending symbol or operator.
It keeps that as an offset and a function from offsets to locations, and makes the `Location` only when something
asks for it: a contract's expressions almost never fail, and building their locations up front took longer than
parsing them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field

from optiml_engine.model import Location, OptimlError

Number = int | float
Locate = Callable[[int], Location]   # the location of an offset into the text an expression was parsed from

FUNCTIONS = ("cdiv", "min", "max")

# The space before a token, and the token: a hex, float or int number, a name, or an operator.
_TOKEN = re.compile(
    r"(\s*)("
    r"0[xX][0-9a-fA-F]+"
    r"|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+"
    r"|\d+"
    r"|[A-Za-z_]\w*"
    r"|//|[-+*/%(),]"
    r")",
    re.ASCII,
)


@dataclass(frozen=True)
class Expr:
    locate: Locate = field(compare=False, repr=False)
    offset: int = field(compare=False)   # where the node's text starts (binary nodes: the operator)

    @property
    def at(self) -> Location:
        return self.locate(self.offset)

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
        if isinstance(b, (int, float)) and b == 0:
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
        provided = env.get(self.function)
        if callable(provided):
            return provided(*values)
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


def _kind(token: str) -> str:
    """Which of _TOKEN's alternatives matched: "hex", "float", "int", "name" or "op"."""
    first = token[0]
    if first.isalpha() or first == "_":
        return "name"
    if first.isdigit() or first == ".":
        if token[:2] in ("0x", "0X"):
            return "hex"
        return "float" if "." in token or "e" in token or "E" in token else "int"
    return "op"


MAX_DEPTH = 100     # the deepest expression tree accepted: evaluation and printing recurse through it


class _Parser:
    def __init__(self, text: str, start: int, end: int, locate: Locate, functions: Collection[str] = FUNCTIONS):
        self.locate = locate
        self.functions = functions
        self.tokens: list[tuple[str, str, int]] = []  # (kind, text, offset into `text`)
        # findall reads all tokens in one call, but skips what no token matches: when the tokens and the space
        # before them do not cover the text, there was such a character.
        pos = start
        for space, token in _TOKEN.findall(text, start, end):
            pos += len(space)
            self.tokens.append((_kind(token), token, pos))
            pos += len(token)
        if text[pos:end].strip():
            bad = _first_stray(text, start, end)
            raise OptimlError(locate(bad), f"unexpected character '{text[bad]}' in expression",
                              "a number, a symbol, an operator, or cdiv/min/max(...)")
        self.tokens.append(("end", "", start + len(text[start:end].rstrip())))
        self.index = 0
        self.nesting = 0                 # parentheses, signs and calls open at the current token
        self.depths: dict[int, int] = {}  # id(node) -> the depth of the tree under it

    def built(self, node: Expr, *children: Expr) -> Expr:
        """`node`, refused when its tree is deeper than MAX_DEPTH (evaluating and printing it recurse)."""
        depth = 1 + max((self.depths[id(child)] for child in children), default=0)
        if depth > MAX_DEPTH:
            raise self.too_deep(node.offset)
        self.depths[id(node)] = depth
        return node

    def too_deep(self, offset: int) -> OptimlError:
        return OptimlError(self.locate(offset), f"expression nested more than {MAX_DEPTH} levels deep",
                           "a shallower expression (a contract's expressions are size formulas)")

    def opened(self, offset: int) -> None:
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise self.too_deep(offset)

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.index]

    def take(self, expected: str | None = None) -> tuple[str, str, int]:
        token = self.tokens[self.index]
        if expected is not None and token[1] != expected:
            raise self.unexpected(token, f"'{expected}'")
        self.index += 1
        return token

    def unexpected(self, token: tuple[str, str, int], expected: str) -> OptimlError:
        what = f"'{token[1]}'" if token[0] != "end" else "end of expression"
        return OptimlError(self.locate(token[2]), f"unexpected {what}", expected)

    def expression(self) -> Expr:
        node = self.term()
        while self.tokens[self.index][1] in ("+", "-"):
            _, op, offset = self.take()
            right = self.term()
            node = self.built(Binary(self.locate, offset, op, node, right), node, right)
        return node

    def term(self) -> Expr:
        node = self.unary()
        while self.tokens[self.index][1] in ("*", "/", "//", "%"):
            _, op, offset = self.take()
            right = self.unary()
            node = self.built(Binary(self.locate, offset, op, node, right), node, right)
        return node

    def unary(self) -> Expr:
        if self.peek()[1] == "-":
            op = self.take()
            self.opened(op[2])
            operand = self.unary()
            self.nesting -= 1
            return self.built(Neg(self.locate, op[2], operand), operand)
        return self.primary()

    def primary(self) -> Expr:
        kind, text, offset = token = self.take()
        if kind == "int":
            return self.built(Num(self.locate, offset, int(text)))
        if kind == "hex":
            return self.built(Num(self.locate, offset, int(text, 16)))
        if kind == "float":
            return self.built(Num(self.locate, offset, float(text)))
        if kind == "name" and self.peek()[1] == "(":
            return self.call(token)
        if kind == "name":
            return self.built(Name(self.locate, offset, text))
        if text == "(":
            self.opened(offset)
            node = self.expression()
            self.take(")")
            self.nesting -= 1
            return node
        raise self.unexpected(token, "a number, a symbol or '('")

    def call(self, name: tuple[str, str, int]) -> Expr:
        if name[1] not in self.functions:
            expected = "cdiv, min or max" if self.functions is FUNCTIONS else "one of: " + ", ".join(self.functions)
            raise OptimlError(self.locate(name[2]), f"unknown function '{name[1]}'", expected)
        self.take("(")
        self.opened(name[2])
        args = [self.expression()]
        while self.peek()[1] == ",":
            self.take()
            args.append(self.expression())
        self.take(")")
        self.nesting -= 1
        if name[1] == "cdiv" and len(args) != 2:
            raise OptimlError(self.locate(name[2]), f"cdiv takes 2 arguments, got {len(args)}", "cdiv(a,b)")
        return self.built(Call(self.locate, name[2], name[1], tuple(args)), *args)


def _first_stray(text: str, start: int, end: int) -> int:
    """Where the first character of text[start:end] that starts no token is (space before it skipped)."""
    pos = start
    while match := _TOKEN.match(text, pos, end):
        pos = match.end()
    return end - len(text[pos:end].lstrip())


def located(where: Location) -> Locate:
    """Offsets into a text that starts at `where` and holds no line break: columns counted from there."""
    return lambda offset: where.model_copy(update={"column": where.column + offset})


def parse_expr(text: str, where: Location, functions: Collection[str] = FUNCTIONS) -> Expr:
    """Parse `text`, whose first character sits at `where`; errors point at the offending character."""
    return parse_expr_in(text, 0, len(text), located(where), functions)


def parse_expr_in(text: str, start: int, end: int, locate: Locate, functions: Collection[str] = FUNCTIONS) -> Expr:
    """Parse `text[start:end]`; nodes keep offsets into `text` and `locate` turns them into locations."""
    parser = _Parser(text, start, end, locate, functions)
    if parser.peek()[0] == "end":
        raise OptimlError(locate(start), "empty expression", "an expression")
    node = parser.expression()
    if parser.peek()[0] != "end":
        raise parser.unexpected(parser.peek(), "an operator or the end of the expression")
    return node


def evaluate(text: str, env: dict[str, Number], where: Location | None = None) -> Number:
    return parse_expr(text, where or Location(file="<expression>", line=1)).evaluate(env)
