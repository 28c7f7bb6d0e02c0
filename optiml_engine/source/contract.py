"""The @optiml benchmark contract (docs/contract.md): parse it, check it against the kernel, resolve it at a size
binding, and write an inferred one for a kernel that has none.

Everything a contract says is checked while parsing, at the benchmark size and at every check size, so every
mistake is reported at its own line and column. `resolve` repeats the evaluation for the harness; errors there can
only come from bindings the contract has not seen, and point at the block.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass
from typing import NamedTuple, get_args

from optiml_engine.model import (
    ArraySpec, Comment, Contract, Direction, Dtype, InitSpec, Kernel, LaunchRule, Location, OptimlError,
    Param, Position, ResolvedContract, ScalarSpec,
)
from optiml_engine.source.ctypes import (
    KNOWN_SPELLINGS, c_name, dtype_of, integer_bounds, is_float, is_integer, itemsize,
)
from optiml_engine.source.expr import (
    Expr, Locate, Name, Num, Number, located, parse_expr, parse_expr_in,
)

RESERVED_KEYS = ("sizes", "check", "launch", "flops", "bytes", "tol", "atol", "template", "reference", "spec")
DIRECTIONS: tuple[Direction, ...] = ("in", "out", "inout")
FILL_ARGS = {"uniform": ("lo", "hi"), "normal": ("mean", "std"), "range": ("lo", "hi"), "const": ("v",)}
MAX_BLOCK_THREADS = 1024
GRID_LIMITS = (2**31 - 1, 65535, 65535)
BLOCK_LIMITS = (1024, 1024, 64)

_IDENT = r"[A-Za-z_]\w*"
_BLOCK_COMMENT_MARKER = re.compile(r"/\*\s*@optiml\b")
_LINE_COMMENT_MARKER = re.compile(r"//[ \t]*@optiml\b")
_KEY = re.compile(rf"({_IDENT})[ \t]*:")
_BINDING = re.compile(rf"({_IDENT})\s*=")
_SIZE_BINDING = re.compile(rf"({_IDENT})=(.*)")
_FILL = re.compile(rf"({_IDENT})\s*\((.*)\)", re.S)
_POSITIVE_FLOAT = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_INTEGER = re.compile(r"-?\d+")
_WORD = re.compile(r"\w*")
_NON_SPACE = re.compile(r"\S+")
_DIRECTION = re.compile(r"[^\s\[]*")
_ANYWHERE = Location(file="<contract>", line=1)
_NOWHERE = located(_ANYWHERE)


@dataclass(frozen=True)
class _Parsed:
    """An expression with where its text starts, so that evaluation errors can name the whole expression."""

    text: str
    tree: Expr
    locate: Locate            # the location is made only for an error
    offset: int

    @property
    def where(self) -> Location:
        return self.locate(self.offset)


@dataclass(frozen=True)
class _Trees:
    """Every expression of a contract, parsed."""

    lengths: dict[str, _Parsed]
    scalars: dict[str, _Parsed]
    grid: list[_Parsed]
    block: list[_Parsed]
    smem: _Parsed
    flops: _Parsed | None
    bytes: _Parsed | None


class _Entry(NamedTuple):
    key: str
    key_at: int               # offsets into the comment text
    value_at: int
    value_end: int


def _location(path: str, position: Position) -> Location:
    return Location(file=path, line=position.line + 1, column=position.column + 1)


def _did_you_mean(wrong: str, names: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(wrong, names, n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _one_of(names: list[str] | tuple[str, ...], wrong: str | None = None) -> str:
    return f"one of: {', '.join(names) or 'none'}{_did_you_mean(wrong, names) if wrong else ''}"


def split_ranges(text: str, start: int, end: int, separator: str) -> list[tuple[int, int]]:
    """The stretches of text[start:end] between separators that stand outside parentheses."""
    ranges, depth, piece_start = [], 0, start
    for i in range(start, end):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if text[i] == separator and depth == 0:
            ranges.append((piece_start, i))
            piece_start = i + 1
    ranges.append((piece_start, end))
    return ranges


def _no_contract(kernel: Kernel, path: str) -> OptimlError:
    return OptimlError(_location(path, kernel.name_span.start), f"kernel '{kernel.name}' has no @optiml contract",
                       "a /* @optiml ... */ block directly above the kernel; "
                       f"`optiml kernels --contract FILE --kernel {kernel.name}` writes one")


def _fmt_binding(binding: dict[str, int]) -> str:
    return " ".join(f"{name}={value}" for name, value in binding.items())


def _template_ints(template: dict[str, str]) -> dict[str, int]:
    """Integer template arguments, usable as symbols in expressions (parse_contract normalises them to digits)."""
    return {name: int(value) for name, value in template.items() if _INTEGER.fullmatch(value)}


def _default_fill(dtype: Dtype) -> InitSpec:
    if is_float(dtype):
        return InitSpec(kind="uniform", args=(-1.0, 1.0))
    return InitSpec(kind="range", args=(0.0, float(min(100, integer_bounds(dtype)[1] + 1))))


# Models are immutable: every array without a fill shares its dtype's default.
_DEFAULT_FILLS = {dtype: _default_fill(dtype) for dtype in get_args(Dtype)}


def _element_dtype(param: Param, template_types: dict[str, str]) -> Dtype | None:
    base = " ".join(param.base_type.split())
    return dtype_of(template_types.get(base, base))


class _ContractParser:
    def __init__(self, kernel: Kernel, path: str, comment: Comment):
        self.kernel = kernel
        self.path = path
        self.text = comment.text
        self.start = comment.span.start
        self.params = {p.name: p for p in kernel.params}
        self.symbols: list[str] = []       # size symbols and integer template arguments, for error messages
        self.template_types: dict[str, str] = {}

    # -- positions ---------------------------------------------------------------------------------------------

    def loc(self, offset: int) -> Location:
        """The file location of a comment text offset. Location columns count characters; the comment's start
        column (a byte count) is taken as one, which is exact unless non-ASCII text precedes the comment."""
        line_start = self.text.rfind("\n", 0, offset) + 1
        line = self.text.count("\n", 0, offset)
        column = offset - line_start + (self.start.column if line == 0 else 0)
        return Location(file=self.path, line=self.start.line + line + 1, column=column + 1)

    def error(self, offset: int, message: str, expected: str | None) -> OptimlError:
        return OptimlError(self.loc(offset), message, expected)

    def strip(self, start: int, end: int) -> tuple[int, int]:
        piece = self.text[start:end]
        stripped = piece.lstrip()
        start += len(piece) - len(stripped)
        return start, start + len(stripped.rstrip())

    def split(self, start: int, end: int, separator: str) -> list[tuple[int, int]]:
        return [self.strip(*piece) for piece in split_ranges(self.text, start, end, separator)]

    # -- the block ---------------------------------------------------------------------------------------------

    def block_lines(self) -> tuple[int, int, list[tuple[int, int]]]:
        """(where the comment opens, where `@optiml` is, the entry lines) with decoration and # comments removed."""
        found = [m for m in (_BLOCK_COMMENT_MARKER.search(self.text), _LINE_COMMENT_MARKER.search(self.text)) if m]
        if not found:
            raise _no_contract(self.kernel, self.path)
        marker = min(found, key=lambda m: m.start())
        at_sign = self.text.index("@optiml", marker.start())
        raw: list[tuple[int, int]] = []
        if marker.group().startswith("/*"):
            close = self.text.find("*/", marker.end())
            if close < 0:
                raise self.error(marker.start(), "unterminated @optiml block", "'*/' closing the comment")
            for start, end in self.physical_lines(marker.end(), close):
                start = self.strip(start, end)[0]
                raw.append((start + 1 if self.text.startswith("*", start) else start, end))  # " * key: value" style
        else:
            first, *rest = self.physical_lines(marker.end(), len(self.text))
            raw.append(first)
            for start, end in rest:
                start = self.strip(start, end)[0]
                if not self.text.startswith("//", start):
                    break
                raw.append((start + 2, end))
        lines = []
        for start, end in raw:
            hash_at = self.text.find("#", start, end)
            start, end = self.strip(start, end if hash_at < 0 else hash_at)
            if start < end:
                lines.append((start, end))
        if not lines:
            raise self.error(at_sign, "empty @optiml block", "`sizes:` and `launch:` lines (docs/contract.md)")
        return marker.start(), at_sign, lines

    def physical_lines(self, start: int, end: int) -> list[tuple[int, int]]:
        lines = []
        while True:
            newline = self.text.find("\n", start, end)
            lines.append((start, end if newline < 0 else newline))
            if newline < 0:
                return lines
            start = newline + 1

    def entries(self, lines: list[tuple[int, int]]) -> tuple[dict[str, _Entry], dict[str, _Entry]]:
        """The reserved-key entries and the parameter entries, each keyed by name."""
        reserved: dict[str, _Entry] = {}
        params: dict[str, _Entry] = {}
        for start, end in lines:
            match = _KEY.match(self.text, start, end)
            if not match:
                raise self.error(start, f"cannot read '{self.text[start:end]}'", "`key: value`, e.g. `sizes: n=1024`")
            key = match.group(1)
            value_at, value_end = self.strip(match.end(), end)
            if value_at == value_end:
                raise self.error(match.end(), f"'{key}' has no value", f"a value after '{key}:'")
            entry = _Entry(key, start, value_at, value_end)
            first_word = _WORD.match(self.text, value_at, value_end).group()
            param = self.params.get(key)
            # A pointer parameter may share its name with a key: its line is told apart by the direction word.
            if param and (key not in RESERVED_KEYS or param.is_pointer and first_word in DIRECTIONS):
                table = params
            elif key in RESERVED_KEYS:
                table = reserved
            elif first_word in DIRECTIONS:
                raise self.error(start, f"'{key}' is not a parameter of kernel '{self.kernel.name}'",
                                 _one_of(list(self.params), key))
            else:
                raise self.error(start, f"unknown key '{key}'", _one_of([*RESERVED_KEYS, *self.params], key))
            if key in table:
                first_line = self.loc(table[key].key_at).line
                raise self.error(start, f"duplicate key '{key}'",
                                 f"one '{key}:' line; the first is on line {first_line}")
            table[key] = entry
        return reserved, params

    def value(self, entry: _Entry) -> str:
        return self.text[entry.value_at:entry.value_end]

    # -- keys --------------------------------------------------------------------------------------------------

    def template(self, entry: _Entry | None, at_sign: int) -> dict[str, str]:
        declared = {p.name: p for p in self.kernel.template_params}
        if entry is None:
            if declared:
                named = " ".join(f"{name}=..." for name in declared)
                raise self.error(at_sign, f"template kernel '{self.kernel.name}' has no template: line",
                                 f"`template: {named}` naming every template parameter")
            return {}
        if not declared:
            raise self.error(entry.key_at, f"kernel '{self.kernel.name}' is not a template", "no template: line")
        given: dict[str, str] = {}
        for name, name_at, start, end in self.bindings(entry.value_at, entry.value_end, "template"):
            if name not in declared:
                raise self.error(name_at, f"'{name}' is not a template parameter of '{self.kernel.name}'",
                                 _one_of(list(declared), name))
            if name in given:
                raise self.error(name_at, f"template parameter '{name}' is given twice", "each parameter once")
            value = " ".join(self.text[start:end].split())
            if not value:
                raise self.error(start, f"template parameter '{name}' has no value", f"`{name}=VALUE`")
            kind = declared[name].kind
            if kind == "typename":
                dtype = dtype_of(value)
                given[name] = c_name(dtype) if dtype else value
                self.template_types[name] = given[name]
            elif dtype_of(kind) and is_integer(dtype_of(kind)):
                tree = parse_expr_in(self.text, start, end, self.loc)
                number = tree.evaluate({}) if not tree.symbols() else None
                if not isinstance(number, int):
                    raise self.error(start, f"template parameter '{name}' ({kind}) needs an integer, got '{value}'",
                                     "an integer such as 256")
                given[name] = str(number)
            else:
                given[name] = value
        missing = [name for name in declared if name not in given]
        if missing:
            raise self.error(entry.key_at, f"template parameter '{missing[0]}' has no value",
                             f"every template parameter named: {', '.join(declared)}")
        return {name: given[name] for name in declared}

    def bindings(self, start: int, end: int, what: str) -> list[tuple[str, int, int, int]]:
        """`name=value ...` where values may hold spaces: (name, name offset, value start, value end)."""
        matches = list(_BINDING.finditer(self.text, start, end))
        if not matches or matches[0].start() != start:
            raise self.error(start, f"cannot read '{self.text[start:end]}' in {what}", "`name=value ...`")
        ends = [m.start() for m in matches[1:]] + [end]
        return [(m.group(1), m.start(), *self.strip(m.end(), stop)) for m, stop in zip(matches, ends, strict=True)]

    def size_bindings(self, start: int, end: int, known: dict[str, int] | None) -> dict[str, int]:
        binding: dict[str, int] = {}
        for token in _NON_SPACE.finditer(self.text, start, end):
            token_at = token.start()
            match = _SIZE_BINDING.fullmatch(token.group())
            if not match:
                raise self.error(token_at, f"bad size binding '{token.group()}'", "`symbol=integer`, e.g. `n=1048576`")
            name, value = match.groups()
            if known is not None and name not in known:
                raise self.error(token_at, f"unknown size symbol '{name}'", _one_of(list(known), name))
            if known is None and name in {p.name for p in self.kernel.template_params}:
                raise self.error(token_at, f"size symbol '{name}' is also a template parameter", "a distinct name")
            if name in binding:
                raise self.error(token_at, f"size symbol '{name}' is bound twice", "each symbol once")
            if not value.isdigit() or int(value) == 0:
                raise self.error(token_at + len(name) + 1, f"size '{name}' must be a positive integer, got '{value}'",
                                 "a positive integer such as 1024")
            binding[name] = int(value)
        return binding

    def expression(self, start: int, end: int) -> _Parsed:
        parsed = _Parsed(self.text[start:end], parse_expr_in(self.text, start, end, self.loc), self.loc, start)
        for name in parsed.tree.names():
            if name.name not in self.symbols:
                raise OptimlError(name.at, f"unknown size symbol '{name.name}'", _one_of(self.symbols, name.name))
        return parsed

    def dims(self, start: int, end: int, what: str) -> list[_Parsed]:
        """`E` or a tuple `(E,E[,E])`; a parenthesised single expression is an expression."""
        if self.text.startswith("(", start) and self.closing_paren(start, end) == end - 1:
            if not self.text[start + 1:end - 1].strip():
                raise self.error(start, f"{what} has no dimensions", "1 to 3: E or (E,E[,E])")
            elements = self.split(start + 1, end - 1, ",")
            if len(elements) > 3:
                raise self.error(elements[3][0], f"{what} has {len(elements)} dimensions", "at most 3: (x,y,z)")
            return [self.expression(*element) for element in elements]
        return [self.expression(start, end)]

    def closing_paren(self, start: int, end: int) -> int:
        depth = 0
        for i in range(start, end):
            depth += {"(": 1, ")": -1}.get(self.text[i], 0)
            if depth == 0:
                return i
        return -1

    def launch(self, entry: _Entry) -> tuple[LaunchRule, list[_Parsed], list[_Parsed], _Parsed]:
        parts: dict[str, tuple[int, int]] = {}
        for name, name_at, start, end in self.bindings(entry.value_at, entry.value_end, "launch"):
            if name not in ("grid", "block", "smem"):
                raise self.error(name_at, f"unknown launch setting '{name}'", _one_of(["grid", "block", "smem"], name))
            if name in parts:
                raise self.error(name_at, f"launch setting '{name}' is given twice", "each setting once")
            parts[name] = (start, end)
        for required in ("grid", "block"):
            if required not in parts:
                raise self.error(entry.value_at, f"launch has no {required}=",
                                 "`grid=E block=E [smem=E]`, e.g. `grid=cdiv(n,256) block=256`")
        grid = self.dims(*parts["grid"], "grid")
        block = self.dims(*parts["block"], "block")
        smem = (self.expression(*parts["smem"]) if "smem" in parts
                else _Parsed("0", Num(_NOWHERE, 0, 0), self.loc, entry.value_at))
        rule = LaunchRule(grid=[g.text for g in grid], block=[b.text for b in block], smem=smem.text)
        return rule, grid, block, smem

    def positive_float(self, entry: _Entry) -> float:
        text = self.value(entry)
        if not _POSITIVE_FLOAT.fullmatch(text) or float(text) <= 0:
            raise self.error(entry.value_at, f"{entry.key} must be a positive number, got '{text}'",
                             "a positive float such as 1e-5")
        return float(text)

    # -- parameters --------------------------------------------------------------------------------------------

    def array(self, param: Param, entry: _Entry) -> tuple[ArraySpec, _Parsed]:
        text, start, end = self.text, entry.value_at, entry.value_end
        signature_dtype = _element_dtype(param, self.template_types)
        direction = _DIRECTION.match(text, start, end).group()
        inferred = "in" if param.is_const else "inout"
        if direction not in DIRECTIONS:
            raise self.error(start, f"'{direction}' is not a direction",
                             f"in, out or inout, as in `{param.name}: {inferred} {param.base_type}[LENGTH]`")
        if param.is_const and direction != "in":
            raise self.error(start, f"'{param.name}' is {param.type_text}, read only, so it cannot be '{direction}'",
                             "in")
        bracket = text.find("[", start, end)
        type_at, type_end = self.strip(start + len(direction), end if bracket < 0 else bracket)
        if bracket < 0:
            raise self.error(type_end, "missing [LENGTH] after the element type", f"`{direction} TYPE[LENGTH]`")
        if type_at == type_end:
            raise self.error(bracket, "missing element type", f"`{direction} {param.base_type}[LENGTH]`")
        close = text.find("]", bracket, end)
        if close < 0:
            raise self.error(bracket, "unclosed '['", "']' after the length")
        type_text = " ".join(text[type_at:type_end].split())
        dtype = dtype_of(self.template_types.get(type_text, type_text))
        if dtype is None:
            raise self.error(type_at, f"unknown type '{type_text}'",
                             "a C element type such as float, __half, int or unsigned char, or a canonical name "
                             "such as float32" + _did_you_mean(type_text, KNOWN_SPELLINGS))
        if signature_dtype is None:
            raise self.error(type_at, f"parameter '{param.name}' has type '{param.type_text}', "
                             "whose elements OptiML cannot fill", "a pointer to a scalar type (float, int, __half...)")
        if dtype != signature_dtype:
            raise self.error(type_at, f"'{type_text}' does not match parameter '{param.name}' ({param.type_text})",
                             f"{param.base_type} ({signature_dtype})")
        length = self.expression(bracket + 1, close)
        fill_at, fill_end = self.strip(close + 1, end)
        if fill_at == fill_end:
            init = _DEFAULT_FILLS[dtype]
        elif direction == "out":
            raise self.error(fill_at, f"'{param.name}' is out: it is poisoned before each run and takes no fill",
                             "no fill, or direction inout")
        else:
            init = self.fill(fill_at, fill_end, param.name, dtype)
        return ArraySpec(param=param.name, direction=direction, dtype=dtype, length=length.text, init=init), length

    def fill(self, start: int, end: int, name: str, dtype: Dtype) -> InitSpec:
        match = _FILL.fullmatch(self.text, start, end)
        if not match:
            raise self.error(start, f"bad fill '{self.text[start:end]}'",
                             "uniform(lo,hi), normal(mean,std), range(lo,hi) or const(v)")
        kind = match.group(1)
        if kind not in FILL_ARGS:
            raise self.error(start, f"unknown fill '{kind}'", _one_of(list(FILL_ARGS), kind))
        floating = is_float(dtype)
        if kind in ("uniform", "normal") and not floating:
            raise self.error(start, f"{kind} fills float arrays; '{name}' is {dtype}", "range(lo,hi) or const(v)")
        if kind == "range" and floating:
            raise self.error(start, f"range fills integer arrays; '{name}' is {dtype}",
                             "uniform(lo,hi), normal(mean,std) or const(v)")
        inner = self.strip(match.start(2), match.end(2))
        pieces = self.split(*inner, ",") if inner[0] < inner[1] else []
        names = FILL_ARGS[kind]
        if len(pieces) != len(names):
            raise self.error(start, f"{kind} takes {len(names)} argument{'s' * (len(names) > 1)} "
                             f"({', '.join(names)}), got {len(pieces)}", f"{kind}({','.join(names)})")
        args = []
        for piece in pieces:
            tree = parse_expr_in(self.text, *piece, self.loc)
            symbol = next(tree.names(), None)
            if symbol is not None:
                raise OptimlError(symbol.at, f"fill arguments are numbers, not symbols ('{symbol.name}')", "a number")
            args.append(tree.evaluate({}))
        self.check_fill_values(start, kind, args, name, dtype)
        return InitSpec(kind=kind, args=tuple(float(a) for a in args))

    def check_fill_values(self, at: int, kind: str, args: list[Number], name: str, dtype: Dtype) -> None:
        if kind == "uniform" and args[0] > args[1]:
            raise self.error(at, f"uniform({args[0]},{args[1]}) has lo > hi", "lo <= hi")
        if kind == "normal" and args[1] < 0:
            raise self.error(at, f"normal std is negative ({args[1]})", "std >= 0")
        if is_float(dtype):
            return
        low, high = integer_bounds(dtype)
        if not all(isinstance(a, int) for a in args):
            raise self.error(at, f"{kind} on '{name}' ({dtype}) needs integer arguments", "integers")
        values = [args[0]] if kind == "const" else [args[0], args[1] - 1]
        if kind == "range" and args[0] >= args[1]:
            raise self.error(at, f"range({args[0]},{args[1]}) is empty", "lo < hi (hi is exclusive)")
        if any(not low <= v <= high for v in values):
            raise self.error(at, f"{kind} values do not fit '{name}' ({dtype})", f"values from {low} to {high}")

    def scalar(self, param: Param, entry: _Entry) -> tuple[ScalarSpec, _Parsed]:
        first_word = _WORD.match(self.text, entry.value_at, entry.value_end).group()
        if first_word in DIRECTIONS:
            raise self.error(entry.value_at, f"'{param.name}' is a scalar ({param.type_text}), not an array",
                             f"an expression, as in `{param.name}: 1.0`")
        dtype = _element_dtype(param, self.template_types)
        if dtype is None:
            raise self.error(entry.value_at, f"parameter '{param.name}' has type '{param.type_text}', "
                             "which OptiML cannot pass", "a scalar type (float, int, __half...)")
        value = self.expression(entry.value_at, entry.value_end)
        return ScalarSpec(param=param.name, dtype=dtype, value=value.text), value

    def unlisted_scalar(self, param: Param, sizes: dict[str, int]) -> tuple[ScalarSpec, _Parsed]:
        """An integer parameter named like a size symbol binds to it; any other scalar needs a line."""
        def at_param(_: int) -> Location:
            return _location(self.path, param.span.start)

        dtype = _element_dtype(param, self.template_types)
        if dtype and is_integer(dtype) and param.name in sizes:
            return (ScalarSpec(param=param.name, dtype=dtype, value=param.name),
                    _Parsed(param.name, Name(at_param, 0, param.name), at_param, 0))
        where = at_param(0)
        if dtype and is_integer(dtype):
            raise OptimlError(where, f"integer parameter '{param.name}' has no value and is not a size symbol",
                              f"`{param.name}: VALUE` in the @optiml block, or `{param.name}=...` in its sizes:")
        raise OptimlError(where, f"scalar parameter '{param.name}' has no value",
                          f"a line `{param.name}: VALUE` in the @optiml block")

    # -- all together ------------------------------------------------------------------------------------------

    def parse(self) -> Contract:
        block_at, at_sign, lines = self.block_lines()
        reserved, param_entries = self.entries(lines)
        template = self.template(reserved.get("template"), at_sign)
        if "sizes" not in reserved:
            raise self.error(at_sign, "the @optiml block has no sizes: line",
                             "`sizes: sym=int ...`, e.g. `sizes: n=1048576`")
        sizes = self.size_bindings(reserved["sizes"].value_at, reserved["sizes"].value_end, None)
        self.symbols = [*sizes, *_template_ints(template)]
        checks = []
        if "check" in reserved:
            for start, end in self.split(reserved["check"].value_at, reserved["check"].value_end, ";"):
                if start < end:
                    checks.append({**sizes, **self.size_bindings(start, end, sizes)})
        arrays, scalars, lengths, scalar_values = [], [], {}, {}
        for param in self.kernel.params:
            entry = param_entries.get(param.name)
            if param.is_pointer and entry is None:
                raise OptimlError(_location(self.path, param.span.start),
                                  f"pointer parameter '{param.name}' has no line, and its length cannot be inferred",
                                  f"`{param.name}: {'in' if param.is_const else 'inout'} {param.base_type}[LENGTH]` "
                                  "in the @optiml block")
            if param.is_pointer:
                spec, lengths[param.name] = self.array(param, entry)
                arrays.append(spec)
            elif entry is not None:
                spec, scalar_values[param.name] = self.scalar(param, entry)
                scalars.append(spec)
            else:
                spec, scalar_values[param.name] = self.unlisted_scalar(param, sizes)
                scalars.append(spec)
        if "launch" not in reserved:
            raise self.error(at_sign, "the @optiml block has no launch: line",
                             "`launch: grid=E block=E [smem=E]`, e.g. `launch: grid=cdiv(n,256) block=256`")
        rule, grid, block, smem = self.launch(reserved["launch"])
        work = {key: self.expression(reserved[key].value_at, reserved[key].value_end)
                for key in ("flops", "bytes") if key in reserved}
        optional: dict[str, object] = {key: parsed.text for key, parsed in work.items()}
        optional.update({key: self.positive_float(reserved[key]) for key in ("tol", "atol") if key in reserved})
        optional.update({key: self.value(reserved[key]) for key in ("reference", "spec") if key in reserved})
        contract = Contract(kernel=self.kernel.name, sizes=sizes, checks=checks, arrays=arrays, scalars=scalars,
                            launch=rule, template=template, location=self.loc(block_at), **optional)
        trees = _Trees(lengths, scalar_values, grid, block, smem, work.get("flops"), work.get("bytes"))
        for binding in [sizes, *checks]:
            _resolve(contract, trees, binding)
        return contract


def parse_contract(kernel: Kernel, path: str) -> Contract:
    """The kernel's @optiml contract, checked against its signature and evaluated at every size it names."""
    if kernel.comment is None:
        raise _no_contract(kernel, path)
    return _ContractParser(kernel, path, kernel.comment).parse()


class ContractCache:
    """`parse_contract` of one file's kernels, remembered across edits of the file.

    A result depends on what parse_contract reads of the kernel: its name, parameters, template parameters and
    comment block, and where they are. It is kept by all of that but the lines: a contract whose block moved to other
    lines is the same contract with its location moved as much. An error is given again only where nothing moved,
    since its message may name a line.
    """

    MAX_ENTRIES = 4096   # edits of a contract leave results of its older texts behind: keep the recent ones

    def __init__(self, path: str):
        self._path = path
        self._results: dict[tuple, tuple[tuple, Contract | OptimlError]] = {}   # oldest first

    def contract(self, kernel: Kernel) -> Contract:
        comment = kernel.comment
        key = (
            kernel.name,
            None if comment is None else (comment.text, comment.span.start.column),
            tuple((p.name, p.type_text, p.base_type, p.is_pointer, p.is_const, p.is_restrict) for p in kernel.params),
            tuple((p.name, p.kind, p.default) for p in kernel.template_params),
        )
        positions = (
            None if comment is None else comment.span.start,
            kernel.name_span.start,
            tuple(p.span.start for p in kernel.params),
        )
        cached = self._results.pop(key, None)   # taken out, and put back as the most recent
        if cached is not None:
            cached_positions, result = cached
            if isinstance(result, Contract):
                result = self._moved(result, comment.span.start.line - cached_positions[0].line)
                self._remember(key, positions, result)
                return result
            if cached_positions == positions:
                self._remember(key, positions, result)
                raise OptimlError(result.location, result.message, result.expected)
        try:
            result = parse_contract(kernel, self._path)
        except OptimlError as error:
            # a copy, without the traceback that would keep the parser's frames alive
            self._remember(key, positions, OptimlError(error.location, error.message, error.expected))
            raise
        self._remember(key, positions, result)
        return result

    def _remember(self, key: tuple, positions: tuple, result: Contract | OptimlError) -> None:
        self._results[key] = (positions, result)
        while len(self._results) > self.MAX_ENTRIES:
            del self._results[next(iter(self._results))]

    @staticmethod
    def _moved(contract: Contract, lines: int) -> Contract:
        if lines == 0:
            return contract
        location = contract.location
        return contract.model_copy(
            update={"location": Location(file=location.file, line=location.line + lines, column=location.column)})


# ---------------------------------------------------------------------------------------------------------------
# Resolution


def _resolve(contract: Contract, trees: _Trees, binding: dict[str, int]) -> dict[str, object]:
    """The fields of the ResolvedContract at `binding`, every value checked (parse_contract needs only the
    checks: it skips building the model)."""
    env: dict[str, Number] = {**binding, **_template_ints(contract.template)}

    def integer(parsed: _Parsed, what: str, low: int, high: int | None = None) -> int:
        value = parsed.tree.evaluate(env)
        if not isinstance(value, int) or value < low or (high is not None and value > high):
            wanted = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
            raise OptimlError(parsed.where, f"{what} = {parsed.text} = {value} at {_fmt_binding(binding)}", wanted)
        return value

    lengths = {a.param: integer(trees.lengths[a.param], f"the length of '{a.param}'", 0) for a in contract.arrays}
    scalars: dict[str, int | float] = {}
    for spec in contract.scalars:
        parsed = trees.scalars[spec.param]
        if is_float(spec.dtype):
            scalars[spec.param] = float(parsed.tree.evaluate(env))
        else:
            scalars[spec.param] = integer(parsed, f"'{spec.param}' ({spec.dtype})", *integer_bounds(spec.dtype))
    grid = [integer(p, f"grid.{'xyz'[i]}", 1, GRID_LIMITS[i]) for i, p in enumerate(trees.grid)]
    block = [integer(p, f"block.{'xyz'[i]}", 1, BLOCK_LIMITS[i]) for i, p in enumerate(trees.block)]
    threads = math.prod(block)
    if threads > MAX_BLOCK_THREADS:
        raise OptimlError(trees.block[0].where, f"a block of {threads} threads at {_fmt_binding(binding)}",
                          f"at most {MAX_BLOCK_THREADS} threads per block")
    smem = integer(trees.smem, "smem", 0)
    flops = None
    if trees.flops is not None:
        flops = trees.flops.tree.evaluate(env)
        if flops < 0:
            raise OptimlError(trees.flops.where, f"flops = {trees.flops.text} = {flops} at {_fmt_binding(binding)}",
                              "a number >= 0")
    if trees.bytes is not None:
        moved = integer(trees.bytes, "bytes", 0)
    else:
        moved = sum(lengths[a.param] * itemsize(a.dtype) * (2 if a.direction == "inout" else 1)
                    for a in contract.arrays)
    return dict(
        binding=binding, lengths=lengths, scalars=scalars, grid=(*grid, 1, 1)[:3], block=(*block, 1, 1)[:3],
        smem=smem, flops=None if flops is None else float(flops), bytes=moved,
    )


def resolve(contract: Contract, binding: dict[str, int]) -> ResolvedContract:
    """The contract at `binding`; symbols it leaves out take their `sizes` value.

    Array lengths may be 0 (nothing to fill or compare; the harness still passes a valid pointer); grid and block
    dimensions must be at least 1, and a block at most 1024 threads."""
    for name, value in binding.items():
        if name not in contract.sizes:
            raise OptimlError(contract.location, f"unknown size symbol '{name}'", _one_of(list(contract.sizes), name))
        if type(value) is not int or value <= 0:
            raise OptimlError(contract.location, f"size '{name}' must be a positive integer, got {value!r}",
                              "a positive integer")

    def parsed(text: str) -> _Parsed:
        return _Parsed(text, parse_expr(text, contract.location), located(contract.location), 0)

    trees = _Trees(
        lengths={a.param: parsed(a.length) for a in contract.arrays},
        scalars={s.param: parsed(s.value) for s in contract.scalars},
        grid=[parsed(g) for g in contract.launch.grid],
        block=[parsed(b) for b in contract.launch.block],
        smem=parsed(contract.launch.smem),
        flops=parsed(contract.flops) if contract.flops else None,
        bytes=parsed(contract.bytes) if contract.bytes else None,
    )
    return ResolvedContract(**_resolve(contract, trees, {**contract.sizes, **binding}))
