"""The program run on the CPU with NumPy, for small sizes: the oracle every emitted schedule is tested against.

Every point of the parallel space runs at once (one NumPy lane per point); sequential loops step all lanes
together, each lane masked off where its own bound is reached; `if`s mask lanes. Arithmetic follows C's: the usual
arithmetic conversions pick each operation's type, integer division truncates, a float literal is a double, an
`f`-suffixed math function is single precision, half and bfloat16 values round after every operation (as
cuda_fp16/cuda_bf16's operators do). Arrays use the storage of gpu/data.py (bfloat16 as uint16 bit patterns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from optiml_engine.gpu.data import poisoned
from optiml_engine.ir.program import (
    Assign, Atomic, Binary, Call, Cast, Const, Expr, For, If, Let, Load, LoopProgram, Ref, Select, Stmt, Store, Unary)
from optiml_engine.model import ArraySpec, Dtype, ResolvedContract
from optiml_engine.source.ctypes import dtype_of


class InterpretError(Exception):
    """The program does something the interpreter will not guess at (a read out of bounds, an unknown function)."""


_FLOAT_RANK = {"float16": 1, "bfloat16": 1, "float32": 2, "float64": 3}
_INT_RANK = {"int32": 1, "uint32": 2, "int64": 3, "uint64": 4}
_NAMED = {
    "INFINITY": ("float32", math.inf), "HUGE_VALF": ("float32", math.inf), "CUDART_INF_F": ("float32", math.inf),
    "NAN": ("float32", math.nan), "FLT_MAX": ("float32", float(np.finfo(np.float32).max)),
    "FLT_MIN": ("float32", float(np.finfo(np.float32).tiny)), "DBL_MAX": ("float64", float(np.finfo(np.float64).max)),
    "FLT_EPSILON": ("float32", float(np.finfo(np.float32).eps)), "M_PI": ("float64", math.pi),
    "CUDART_PI_F": ("float32", math.pi), "INT_MAX": ("int32", 2 ** 31 - 1), "INT_MIN": ("int32", -2 ** 31),
}


@dataclass
class Value:
    data: np.ndarray          # one element per lane (or 0-d); bfloat16 held as float32, already rounded
    dtype: Dtype


def numpy_dtype(dtype: Dtype) -> Any:
    return np.float32 if dtype == "bfloat16" else np.dtype(dtype)


def round_bf16(values: np.ndarray) -> np.ndarray:
    bits = np.asarray(values, dtype=np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) & np.uint32(0xFFFF0000)
    return np.where(np.isnan(values), np.float32(np.nan), rounded.view(np.float32))


def converted(value: Value, dtype: Dtype) -> Value:
    """C's conversion to `dtype`: floats to integers truncate toward zero, to bool compare with zero."""
    if value.dtype == dtype:
        return value
    data = value.data
    if dtype == "bool":
        return Value(np.asarray(data != 0), "bool")
    if dtype in _FLOAT_RANK:
        out = np.asarray(data, dtype=numpy_dtype(dtype))
        return Value(round_bf16(out) if dtype == "bfloat16" else out, dtype)
    if value.dtype in _FLOAT_RANK:
        data = np.trunc(np.nan_to_num(np.asarray(data, dtype=np.float64), nan=0.0, posinf=0.0, neginf=0.0))
        info = np.iinfo(np.dtype(dtype))
        data = np.clip(data, info.min, info.max)
    return Value(np.asarray(data).astype(np.dtype(dtype)), dtype)


def c_type(ctype: str, types: dict[str, str]) -> Dtype:
    words = [w for w in ctype.replace("const", " ").replace("volatile", " ").split()]
    spelled = " ".join(types.get(w, w) for w in words)
    dtype = dtype_of(spelled)
    if dtype is None:
        raise InterpretError(f"unknown type '{ctype}'")
    return dtype


def promoted(a: Dtype, b: Dtype) -> Dtype:
    """The usual arithmetic conversions (CUDA's half and bfloat16 operators included)."""
    if a in _FLOAT_RANK or b in _FLOAT_RANK:
        if a == b:
            return a
        ranks = [_FLOAT_RANK.get(t, 0) for t in (a, b)]
        if max(ranks) <= 1:
            return "float16" if "float16" in (a, b) and "bfloat16" not in (a, b) else \
                "bfloat16" if "float16" not in (a, b) else "float32"
        return "float64" if max(ranks) == 3 else "float32"
    a, b = integer_promoted(a), integer_promoted(b)
    if a == b:
        return a
    return max((a, b), key=lambda t: _INT_RANK[t])


def integer_promoted(dtype: Dtype) -> Dtype:
    return dtype if dtype in _INT_RANK else "int32"


def literal(text: str) -> Value:
    if text in _NAMED:
        dtype, number = _NAMED[text]
        return Value(np.asarray(number, dtype=numpy_dtype(dtype)), dtype)
    if text in ("true", "false"):
        return Value(np.asarray(text == "true"), "bool")
    if text.startswith("'"):
        return Value(np.asarray(ord(text[1:-1].encode().decode("unicode_escape")), dtype=np.int8), "int8")
    body = text.strip("()")
    lower = body.lower()
    is_hex = lower.startswith(("0x", "-0x", "+0x"))
    if not is_hex and ("." in lower or "e" in lower or lower.endswith("f")):
        single = lower.endswith("f")
        number = float(lower.rstrip("fl"))
        return Value(np.asarray(number, dtype=np.float32 if single else np.float64), "float32" if single else "float64")
    suffix = lower.lstrip("+-0123456789abcdefx")
    digits = lower[: len(lower) - len(suffix)] if suffix else lower
    number = int(digits, 0)
    unsigned, longs = "u" in suffix, suffix.count("l")
    if longs or number >= 2 ** 31:
        dtype: Dtype = "uint64" if unsigned else "int64"
    else:
        dtype = "uint32" if unsigned else "int32"
    return Value(np.asarray(number).astype(np.dtype(dtype)), dtype)


def _math(name: str) -> tuple[str, Any] | None:
    """(result precision, NumPy function) of a CUDA math function: 'f' single, 'g' generic (its argument's)."""
    unary = {
        "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10,
        "log1p": np.log1p, "sqrt": np.sqrt, "rsqrt": lambda v: 1 / np.sqrt(v), "cbrt": np.cbrt, "sin": np.sin,
        "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin,
        "acos": np.arccos, "atan": np.arctan, "fabs": np.abs, "floor": np.floor, "ceil": np.ceil,
        "round": lambda v: np.trunc(v + np.copysign(0.5, v)), "trunc": np.trunc, "rint": np.rint,
        "erf": _erf, "erfc": lambda v: 1 - _erf(v), "rcp": lambda v: 1 / v,
    }
    binary = {"fmax": np.fmax, "fmin": np.fmin, "pow": np.power, "fmod": np.fmod, "atan2": np.arctan2,
              "copysign": np.copysign, "hypot": np.hypot, "fdivide": np.divide}
    fast = {"__expf": "exp", "__logf": "log", "__sinf": "sin", "__cosf": "cos", "__powf": "pow",
            "__fdividef": "fdivide", "__exp2f": "exp2", "__log2f": "log2", "__tanf": "tan", "__frcp_rn": "rcp",
            "__fsqrt_rn": "sqrt", "__frsqrt_rn": "rsqrt"}
    if name in fast:
        return "f", {**unary, **binary}[fast[name]]
    for table in (unary, binary):
        if name in table:
            return "g", table[name]
        if name.endswith("f") and name[:-1] in table:
            return "f", table[name[:-1]]
    return None


def _erf(values: np.ndarray) -> np.ndarray:
    flat = np.asarray(values, dtype=np.float64)
    return np.vectorize(math.erf, otypes=[np.float64])(flat) if flat.ndim else np.asarray(math.erf(float(flat)))


def _divide(a: np.ndarray, b: np.ndarray, dtype: Dtype) -> np.ndarray:
    if dtype in _FLOAT_RANK:
        return a / b
    safe = np.where(b == 0, 1, b)
    quotient = np.abs(a) // np.abs(safe)
    return np.where((a < 0) != (safe < 0), -quotient, quotient).astype(a.dtype)


def _remainder(a: np.ndarray, b: np.ndarray, dtype: Dtype) -> np.ndarray:
    if dtype in _FLOAT_RANK:
        return np.fmod(a, b)
    safe = np.where(b == 0, 1, b)
    return np.fmod(a, safe).astype(a.dtype)


_ARITHMETIC = {
    "+": lambda a, b, t: a + b, "-": lambda a, b, t: a - b, "*": lambda a, b, t: a * b,
    "/": _divide, "%": _remainder, "&": lambda a, b, t: a & b, "|": lambda a, b, t: a | b,
    "^": lambda a, b, t: a ^ b,
}
_COMPARE = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal, "==": np.equal,
            "!=": np.not_equal}


class _Machine:
    def __init__(self, program: LoopProgram, lanes: int, arrays: dict[str, np.ndarray], dtypes: dict[str, Dtype],
                 exact: bool = False):
        self.program, self.lanes, self.arrays, self.dtypes, self.exact = program, lanes, arrays, dtypes, exact
        self.env: dict[str, Value] = {}

    def type_of(self, ctype: str) -> Dtype:
        return exact_type(c_type(ctype, self.program.types), self.exact)

    # -- expressions ----------------------------------------------------------------------------------------------

    def eval(self, expr: Expr, mask: np.ndarray) -> Value:
        if isinstance(expr, Const):
            return literal(expr.text)
        if isinstance(expr, Ref):
            if expr.name not in self.env:
                raise InterpretError(f"'{expr.name}' read before it is defined")
            return self.env[expr.name]
        if isinstance(expr, Load):
            return self.load(expr.array, self.eval(expr.index, mask), mask)
        if isinstance(expr, Cast):
            return converted(self.eval(expr.operand, mask), self.type_of(expr.ctype))
        if isinstance(expr, Unary):
            operand = self.eval(expr.operand, mask)
            if expr.op == "!":
                return Value(np.asarray(operand.data == 0), "bool")
            if expr.op == "+":
                return converted(operand, integer_promoted(operand.dtype) if operand.dtype not in _FLOAT_RANK
                                 else operand.dtype)
            dtype = operand.dtype if operand.dtype in _FLOAT_RANK else integer_promoted(operand.dtype)
            operand = converted(operand, dtype)
            data = -operand.data if expr.op == "-" else ~operand.data
            return Value(round_bf16(data) if dtype == "bfloat16" else data, dtype)
        if isinstance(expr, Binary):
            return self.binary(expr, mask)
        if isinstance(expr, Select):
            cond = self.eval(expr.cond, mask).data != 0
            then = self.eval(expr.then, mask & cond)
            other = self.eval(expr.other, mask & ~cond)
            dtype = promoted(then.dtype, other.dtype) if then.dtype != other.dtype else then.dtype
            then, other = converted(then, dtype), converted(other, dtype)
            return Value(np.where(cond, then.data, other.data), dtype)
        if isinstance(expr, Call):
            return self.call(expr, mask)
        raise InterpretError(f"unknown expression {expr}")

    def binary(self, expr: Binary, mask: np.ndarray) -> Value:
        if expr.op in ("&&", "||"):
            left = self.eval(expr.left, mask).data != 0
            right_mask = mask & left if expr.op == "&&" else mask & ~left
            right = self.eval(expr.right, right_mask).data != 0
            return Value(np.asarray(left & right if expr.op == "&&" else left | right), "bool")
        left, right = self.eval(expr.left, mask), self.eval(expr.right, mask)
        if expr.op in ("<<", ">>"):
            dtype = integer_promoted(left.dtype)
            a, b = converted(left, dtype).data, converted(right, "int32").data
            return Value(np.asarray(a << b if expr.op == "<<" else a >> b).astype(np.dtype(dtype)), dtype)
        dtype = promoted(left.dtype, right.dtype)
        a, b = converted(left, dtype).data, converted(right, dtype).data
        if expr.op in _COMPARE:
            return Value(np.asarray(_COMPARE[expr.op](a, b)), "bool")
        data = np.asarray(_ARITHMETIC[expr.op](a, b, dtype)).astype(numpy_dtype(dtype))
        return Value(round_bf16(data) if dtype == "bfloat16" else data, dtype)

    def call(self, expr: Call, mask: np.ndarray) -> Value:
        args = [self.eval(a, mask) for a in expr.args]
        name = expr.function.removeprefix("std::")
        conversions = {"__half2float": "float32", "__bfloat162float": "float32", "__float2half": "float16",
                       "__float2half_rn": "float16", "__float2bfloat16": "bfloat16",
                       "__float2bfloat16_rn": "bfloat16", "__int2float_rn": "float32", "__float2int_rz": "int32",
                       "__saturatef": None}
        if name in conversions and len(args) == 1:
            if name == "__saturatef":
                value = converted(args[0], "float32")
                return Value(np.clip(value.data, np.float32(0), np.float32(1)), "float32")
            return converted(args[0], conversions[name])  # type: ignore[arg-type]
        bit_casts = {"__int_as_float": ("int32", "float32"), "__float_as_int": ("float32", "int32"),
                     "__uint_as_float": ("uint32", "float32"), "__float_as_uint": ("float32", "uint32"),
                     "__longlong_as_double": ("int64", "float64"), "__double_as_longlong": ("float64", "int64")}
        if name in bit_casts and len(args) == 1:
            source, target = bit_casts[name]
            data = np.ascontiguousarray(converted(args[0], source).data)
            return Value(data.view(np.dtype(target)), target)
        half_ops = {"__hadd": "+", "__hsub": "-", "__hmul": "*", "__hdiv": "/"}
        if name in half_ops and len(args) == 2:
            return self.binary(Binary(op=half_ops[name], left=expr.args[0], right=expr.args[1]), mask)
        if name in ("max", "min", "__hmax", "__hmin") and len(args) == 2:
            dtype = promoted(args[0].dtype, args[1].dtype)
            a, b = converted(args[0], dtype).data, converted(args[1], dtype).data
            function = np.fmax if "max" in name else np.fmin
            return Value(np.asarray(function(a, b)).astype(numpy_dtype(dtype)), dtype)
        if name in ("abs", "llabs", "labs", "__habs") and len(args) == 1:
            dtype = args[0].dtype if args[0].dtype in _FLOAT_RANK else integer_promoted(args[0].dtype)
            return Value(np.abs(converted(args[0], dtype).data), dtype)
        if name in ("fmaf", "fma", "__fmaf_rn") and len(args) == 3:
            dtype: Dtype = "float32" if name != "fma" else promoted(promoted(args[0].dtype, args[1].dtype),
                                                                  args[2].dtype)
            a, b, c = (converted(v, "float64").data for v in args)
            return converted(Value(np.asarray(a * b + c), "float64"), dtype)
        classes = {"isinf": np.isinf, "isnan": np.isnan, "isfinite": np.isfinite, "signbit": np.signbit,
                   "__isinf": np.isinf, "__isnan": np.isnan, "__finitef": np.isfinite}
        if name in classes and len(args) == 1:     # CUDA's classification of a float: an int, 1 or 0
            source = args[0].dtype if args[0].dtype in _FLOAT_RANK else "float64"
            return Value(classes[name](converted(args[0], source).data).astype(np.int32), "int32")
        if name in ("hexp", "hlog", "hsqrt", "hrsqrt", "htanh"):
            inner = _math(name[1:])
            assert inner is not None
            result = converted(Value(inner[1](converted(args[0], "float32").data), "float32"), args[0].dtype)
            return result
        found = _math(name)
        if found is None:
            raise InterpretError(f"the function {expr.function} is not known to the interpreter")
        precision, function = found
        if precision == "f":
            dtype = "float32"
        else:
            dtype = args[0].dtype
            for other in args[1:]:
                dtype = promoted(dtype, other.dtype)
            if dtype not in _FLOAT_RANK:
                dtype = "float64"
            if dtype in ("float16", "bfloat16"):
                dtype = "float32"
        with np.errstate(all="ignore"):
            data = function(*(converted(a, dtype).data for a in args))
        return Value(np.asarray(data).astype(numpy_dtype(dtype)), dtype)

    # -- memory ---------------------------------------------------------------------------------------------------

    def lane_index(self, index: Value, mask: np.ndarray, array: str) -> np.ndarray:
        positions = np.broadcast_to(np.asarray(index.data, dtype=np.int64), (self.lanes,))
        length = self.arrays[array].shape[0]
        outside = mask & ((positions < 0) | (positions >= length))
        if outside.any():
            where = int(positions[outside][0])
            raise InterpretError(f"{array}[{where}] is out of bounds (length {length})")
        return np.where(mask, positions, 0)

    def load(self, array: str, index: Value, mask: np.ndarray) -> Value:
        positions = self.lane_index(index, mask, array)
        dtype = self.dtypes[array]
        raw = self.arrays[array][positions] if self.arrays[array].shape[0] else np.zeros(self.lanes)
        if dtype == "bfloat16":
            raw = (np.asarray(raw, dtype=np.uint32) << 16).view(np.float32)
        return Value(np.asarray(raw).astype(numpy_dtype(dtype)), dtype)

    def store(self, array: str, index: Value, value: Value, mask: np.ndarray) -> None:
        positions = self.lane_index(index, mask, array)
        dtype = self.dtypes[array]
        data = np.broadcast_to(converted(value, dtype).data, (self.lanes,))
        if dtype == "bfloat16":
            data = (data.view(np.uint32) >> 16).astype(np.uint16)
        self.arrays[array][positions[mask]] = data[mask]

    # -- statements -----------------------------------------------------------------------------------------------

    def run(self, body: list[Stmt], mask: np.ndarray) -> None:
        for stmt in body:
            if not mask.any():
                return
            self.step(stmt, mask)

    def assign(self, name: str, value: Value, mask: np.ndarray) -> None:
        old = self.env[name]
        new = converted(value, old.dtype)
        self.env[name] = Value(np.where(mask, new.data, old.data), old.dtype)

    def step(self, stmt: Stmt, mask: np.ndarray) -> None:
        if isinstance(stmt, Let):
            dtype = self.type_of(stmt.ctype)
            start = Value(np.zeros(self.lanes, dtype=numpy_dtype(dtype)), dtype)
            if stmt.name in self.env and self.env[stmt.name].data.shape == (self.lanes,):
                start = converted(self.env[stmt.name], dtype)      # a redeclaration in a later iteration
            self.env[stmt.name] = start
            if stmt.value is not None:
                self.assign(stmt.name, self.eval(stmt.value, mask), mask)
        elif isinstance(stmt, Assign):
            value = self.eval(stmt.value, mask)
            if stmt.op != "=":
                value = self.combine(stmt.op[:-1], self.env[stmt.name], value)
            self.assign(stmt.name, value, mask)
        elif isinstance(stmt, Store):
            value = self.eval(stmt.value, mask)
            index = self.eval(stmt.index, mask)
            if stmt.op != "=":
                current = self.load(stmt.array, index, mask)
                value = self.combine(stmt.op[:-1], current, value)
            self.store(stmt.array, index, value, mask)
        elif isinstance(stmt, Atomic):
            self.atomic(stmt, mask)
        elif isinstance(stmt, For):
            self.loop(stmt, mask)
        elif isinstance(stmt, If):
            cond = self.eval(stmt.cond, mask).data != 0
            cond = np.broadcast_to(cond, (self.lanes,))
            self.run(stmt.then, mask & cond)
            if stmt.other:
                self.run(stmt.other, mask & ~cond)
        else:
            raise InterpretError(f"unknown statement {stmt}")

    def combine(self, op: str, left: Value, right: Value) -> Value:
        dtype = promoted(left.dtype, right.dtype)
        a, b = converted(left, dtype).data, converted(right, dtype).data
        data = np.asarray(_ARITHMETIC[op](a, b, dtype)).astype(numpy_dtype(dtype))
        return Value(round_bf16(data) if dtype == "bfloat16" else data, dtype)

    def atomic(self, stmt: Atomic, mask: np.ndarray) -> None:
        positions = self.lane_index(self.eval(stmt.index, mask), mask, stmt.array)[mask]
        dtype = self.dtypes[stmt.array]
        value = np.broadcast_to(converted(self.eval(stmt.value, mask), dtype).data, (self.lanes,))[mask]
        target = self.arrays[stmt.array]
        if dtype == "bfloat16":
            raise InterpretError("atomics on bfloat16 arrays")
        ufunc = {"atomicAdd": np.add, "atomicSub": np.subtract, "atomicMax": np.maximum, "atomicMin": np.minimum,
                 "atomicAnd": np.bitwise_and, "atomicOr": np.bitwise_or, "atomicXor": np.bitwise_xor}[stmt.function]
        if dtype in _FLOAT_RANK and ufunc in (np.add, np.subtract):
            # Accumulate in double so the interpreter's sum is a reference, not one more float ordering.
            wide = target.astype(np.float64)
            ufunc.at(wide, positions, value.astype(np.float64))
            target[:] = wide.astype(target.dtype)
        else:
            ufunc.at(target, positions, value)

    def loop(self, stmt: For, mask: np.ndarray) -> None:
        dtype = self.type_of(stmt.ctype)
        start = converted(self.eval(stmt.start, mask), dtype)
        self.env[stmt.var] = Value(np.broadcast_to(start.data, (self.lanes,)).copy(), dtype)
        while True:
            var = self.env[stmt.var]
            stop = self.eval(stmt.stop, mask)
            kind = promoted(var.dtype, stop.dtype)
            active = mask & np.broadcast_to(converted(var, kind).data < converted(stop, kind).data, (self.lanes,))
            if not active.any():
                return
            self.run(stmt.body, active)
            step = converted(self.eval(stmt.step, active), dtype)
            self.env[stmt.var] = Value(np.where(active, self.env[stmt.var].data + step.data, self.env[stmt.var].data)
                                       .astype(numpy_dtype(dtype)), dtype)


# -- entry points ---------------------------------------------------------------------------------------------------

def exact_type(dtype: Dtype, exact: bool) -> Dtype:
    """`dtype`, or double for every floating type when the program runs exactly (its math without fp32 rounding)."""
    return "float64" if exact and dtype in _FLOAT_RANK else dtype


def scalar_values(program: LoopProgram, resolved: ResolvedContract, exact: bool = False) -> dict[str, Value]:
    """The scalar parameters' values at a resolved contract, as the kernel receives them."""
    values = {}
    for scalar in program.scalars:
        dtype = exact_type(c_type(scalar.ctype, program.types), exact)
        values[scalar.name] = Value(np.asarray(resolved.scalars[scalar.name]).astype(numpy_dtype(dtype)), dtype)
    return values


def evaluate_scalar(program: LoopProgram, expr: Expr, values: dict[str, Value]) -> int | float:
    """An expression over scalars only (a bound, an extent), as a Python number."""
    machine = _Machine(program, 1, {}, {})
    machine.env = dict(values)
    return np.asarray(machine.eval(expr, np.ones(1, dtype=bool)).data).reshape(-1)[0].item()


def run_program(program: LoopProgram, resolved: ResolvedContract, arrays: list[ArraySpec],
                inputs: dict[str, np.ndarray], exact: bool = False) -> dict[str, np.ndarray]:
    """The program's out and inout arrays after it ran on `inputs` (in and inout arrays, storage dtypes); out arrays
    start poisoned, so that an element the program does not write shows. `exact`: every floating value (arrays,
    scalars, variables) held in double, the kernel's math without its fp32 rounding; the arrays come back in
    double."""
    if program.assumption is not None and not evaluate_scalar(
            program, program.assumption.condition, scalar_values(program, resolved)):
        return run_program(program.assumption.otherwise, resolved, arrays, inputs, exact)
    memory: dict[str, np.ndarray] = {}
    dtypes = {spec.param: exact_type(spec.dtype, exact) for spec in arrays}
    for spec in arrays:
        if spec.direction == "out":
            memory[spec.param] = poisoned(np, dtypes[spec.param], resolved.lengths[spec.param], 0)
        else:
            memory[spec.param] = np.array(inputs[spec.param], copy=True, dtype=np.float64 if exact and
                                          dtypes[spec.param] != spec.dtype else None)
    values = scalar_values(program, resolved, exact)
    bounds = [(int(evaluate_scalar(program, index.lower, values)), int(evaluate_scalar(program, index.upper, values)))
              for index in program.space]
    ranges = [np.arange(low, max(low, high)) for low, high in bounds]
    # Every point of the parallel space, the last index fastest.
    points = np.stack(np.meshgrid(*ranges, indexing="ij"), axis=-1).reshape(-1, len(ranges)) if ranges else \
        np.zeros((1, 0), dtype=np.int64)
    lanes = points.shape[0]
    if lanes == 0:
        return {s.param: memory[s.param] for s in arrays if s.direction != "in"}
    machine = _Machine(program, lanes, memory, dtypes, exact)
    machine.env = {name: Value(np.broadcast_to(v.data, (lanes,)).copy(), v.dtype) for name, v in values.items()}
    for axis, index in enumerate(program.space):
        dtype = c_type(index.ctype, program.types)
        machine.env[index.name] = Value(points[:, axis].astype(np.dtype(dtype)), dtype)
    with np.errstate(all="ignore"):
        machine.run(program.body, np.ones(lanes, dtype=bool))
    return {s.param: memory[s.param] for s in arrays if s.direction != "in"}
