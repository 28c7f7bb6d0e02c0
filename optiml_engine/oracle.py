"""The reference oracle: a contract's `reference:` written as NumPy expressions instead of a kernel's name.

    reference: y = softmax(reshape(x, rows, cols), 1)
    reference: bins = bins + bincount(keys, 64); total = sum(keys)

Each `array = expression` gives the expected contents of one compared (out or inout) array. Expressions use the
contract's syntax (source/expr.py: numbers, names, + - * / //, unary minus, calls), parsed, never `eval`ed, over
the vocabulary in `VOCABULARY`. Names are the contract's arrays (1-D, float arrays in float64, integer arrays in
int64; an inout array holds its value before the kernel ran), size symbols and scalars. Reductions keep the reduced
axis (length 1), so that `x - max(x, 1)` broadcasts as it reads; a result is flattened, then cast to the array's
type.

Array-API generic (`xp` is NumPy or CuPy): the worker evaluates on the GPU what the CPU tests evaluate on NumPy.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy

from optiml_engine.gpu.data import as_float64, bf16_from_float32, make_inputs, storage_dtype
from optiml_engine.model import Contract, OptimlError, ReferenceOracle, ResolvedContract
from optiml_engine.source.contract import resolve
from optiml_engine.source.ctypes import is_integer
from optiml_engine.source.expr import Expr, parse_expr


def _reduction(xp: Any, name: str) -> Callable[..., Any]:
    def reduce(a: Any, axis: int | None = None) -> Any:
        return getattr(xp, name)(a, axis=axis, keepdims=True)
    return reduce


def _arg(xp: Any, name: str) -> Callable[..., Any]:
    def arg(a: Any, axis: int = 0) -> Any:
        return xp.expand_dims(getattr(xp, name)(a, axis=axis), axis)
    return arg


def _erf(xp: Any) -> Callable[[Any], Any]:
    """NumPy has no erf: math.erf element by element on the CPU (where oracles run at check sizes), CuPy's special
    function on the GPU."""
    if xp is numpy:
        return numpy.vectorize(math.erf, otypes=[numpy.float64])
    from cupyx.scipy.special import erf
    return erf


def _pool(xp: Any, reduction: str) -> Callable[..., Any]:
    def pool(a: Any, *parameters: int) -> Any:
        """Max or average pooling of `a` (planes x spatial axes): the kernel sizes, strides, paddings and
        dilations, one per spatial axis each, in that order; padding is -inf for max, zeros counted for average
        (PyTorch's count_include_pad)."""
        axes = a.ndim - 1
        kernel, stride, padding, dilation = (parameters[i * axes:(i + 1) * axes] for i in range(4))
        fill = -xp.inf if reduction == "max" else 0.0
        padded = xp.pad(a, [(0, 0)] + [(p, p) for p in padding], constant_values=fill)
        out = [(a.shape[1 + i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
               for i in range(axes)]
        result = None
        for offset in itertools.product(*(range(k) for k in kernel)):
            window = padded[(slice(None),) + tuple(
                slice(o * dilation[i], o * dilation[i] + stride[i] * (out[i] - 1) + 1, stride[i])
                for i, o in enumerate(offset))]
            result = window if result is None else xp.maximum(result, window) if reduction == "max" else \
                result + window
        return result if reduction == "max" else result / math.prod(kernel)
    return pool


def _conv(xp: Any) -> Callable[..., Any]:
    def conv(x: Any, w: Any, *parameters: int) -> Any:
        """PyTorch's convolution (cross-correlation) of x (N x Cin x spatial) with w (Cout x Cin/groups x kernel):
        the strides, paddings and dilations, one per spatial axis each, then the groups."""
        axes = x.ndim - 2
        stride, padding, dilation = (parameters[i * axes:(i + 1) * axes] for i in range(3))
        groups = parameters[3 * axes]
        (n, cin), cout, kernel = x.shape[:2], w.shape[0], w.shape[2:]
        padded = xp.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
        out = [(x.shape[2 + i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) // stride[i] + 1
               for i in range(axes)]
        inputs = padded.reshape(n, groups, cin // groups, *padded.shape[2:])
        weights = w.reshape(groups, cout // groups, cin // groups, *kernel)
        result = xp.zeros((n, groups, cout // groups, *out))
        for offset in itertools.product(*(range(k) for k in kernel)):
            window = inputs[(slice(None),) * 3 + tuple(
                slice(o * dilation[i], o * dilation[i] + stride[i] * (out[i] - 1) + 1, stride[i])
                for i, o in enumerate(offset))]
            result += xp.einsum("ngc...,gkc->ngk...", window, weights[(slice(None),) * 3 + offset])
        return result.reshape(n, cout, *out)
    return conv


def _conv_transpose(xp: Any) -> Callable[..., Any]:
    def conv_transpose(x: Any, w: Any, *parameters: int) -> Any:
        """PyTorch's transposed convolution of x (N x Cin x spatial) with w (Cin x Cout/groups x kernel): the
        strides, paddings, output paddings and dilations, one per spatial axis each, then the groups. Input element
        i, weight offset k add to output i * stride + k * dilation of the uncropped result, whose first `padding`
        and last `padding - output_padding` elements are cut."""
        axes = x.ndim - 2
        stride, padding, output_padding, dilation = (parameters[i * axes:(i + 1) * axes] for i in range(4))
        groups = parameters[4 * axes]
        (n, cin), kernel = x.shape[:2], w.shape[2:]
        cout = w.shape[1] * groups
        size = x.shape[2:]
        full = [(size[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 + output_padding[i] for i in range(axes)]
        inputs = x.reshape(n, groups, cin // groups, *size)
        weights = w.reshape(groups, cin // groups, cout // groups, *kernel)
        result = xp.zeros((n, groups, cout // groups, *full))
        for offset in itertools.product(*(range(k) for k in kernel)):
            target = (slice(None),) * 3 + tuple(
                slice(o * dilation[i], o * dilation[i] + stride[i] * (size[i] - 1) + 1, stride[i])
                for i, o in enumerate(offset))
            result[target] += xp.einsum("ngc...,gck->ngk...", inputs, weights[(slice(None),) * 3 + offset])
        cropped = (slice(None),) * 3 + tuple(slice(padding[i], full[i] - padding[i]) for i in range(axes))
        return result[cropped].reshape(n, cout, *(full[i] - 2 * padding[i] for i in range(axes)))
    return conv_transpose


def _logsumexp(xp: Any) -> Callable[..., Any]:
    def logsumexp(a: Any, axis: int | None = None) -> Any:
        top = xp.max(a, axis=axis, keepdims=True)
        return top + xp.log(xp.sum(xp.exp(a - top), axis=axis, keepdims=True))
    return logsumexp


def _correlate1d(xp: Any) -> Callable[[Any, Any], Any]:
    def correlate1d(x: Any, w: Any) -> Any:
        """y[i] = sum over k of w[k] * x[i + k - r], r = len(w) // 2, zero outside x."""
        radius = w.size // 2
        padded = xp.pad(x, (radius, w.size - 1 - radius))
        return sum(w[k] * padded[k:k + x.size] for k in range(w.size))
    return correlate1d


def _correlate2d(xp: Any) -> Callable[[Any, Any], Any]:
    def correlate2d(image: Any, w: Any) -> Any:
        """out[r,c] = sum over i, j of w[i,j] * image[r + i - ri, c + j - rj], zero outside the image."""
        (rows, cols), (height, width) = image.shape, w.shape
        padded = xp.pad(image, ((height // 2, height - 1 - height // 2), (width // 2, width - 1 - width // 2)))
        return sum(w[i, j] * padded[i:i + rows, j:j + cols] for i in range(height) for j in range(width))
    return correlate2d


def vocabulary(xp: Any) -> dict[str, Callable[..., Any]]:
    """The functions an oracle expression may call, over `xp`'s arrays."""
    softmax_shift = _reduction(xp, "max")
    logsumexp = _logsumexp(xp)
    return {
        "reshape": lambda a, *dims: a.reshape(*dims),
        "triu": xp.triu, "tril": xp.tril,
        # Each row's element at its column in `index` (a class target): rows x 1.
        "pick": lambda a, index: xp.take_along_axis(a, index.reshape(-1, 1).astype(xp.int64), axis=1),
        "transpose": lambda a: a.T,
        "permute": lambda a, *axes: xp.transpose(a, axes),
        "matmul": xp.matmul,
        "exp": xp.exp, "log": xp.log, "sqrt": xp.sqrt, "abs": xp.abs, "sin": xp.sin, "cos": xp.cos,
        "tanh": xp.tanh, "erf": _erf(xp), "maximum": xp.maximum, "minimum": xp.minimum, "pow": xp.power,
        "sigmoid": lambda a: 1.0 / (1.0 + xp.exp(-a)),
        "relu": lambda a: xp.maximum(a, 0.0),
        "sum": _reduction(xp, "sum"), "mean": _reduction(xp, "mean"), "max": _reduction(xp, "max"),
        "min": _reduction(xp, "min"), "var": _reduction(xp, "var"), "argmax": _arg(xp, "argmax"),
        "argmin": _arg(xp, "argmin"), "prod": _reduction(xp, "prod"),
        "ones": lambda *shape: xp.ones(shape),
        "norm": lambda a, axis=None: xp.sqrt(xp.sum(a * a, axis=axis, keepdims=True)),
        "logsumexp": logsumexp,
        "softmax": lambda a, axis: xp.exp(a - softmax_shift(a, axis)) / xp.sum(
            xp.exp(a - softmax_shift(a, axis)), axis=axis, keepdims=True),
        "log_softmax": lambda a, axis: a - logsumexp(a, axis),
        "cumsum": lambda a, axis=0: xp.cumsum(a, axis=axis),
        "cumprod": lambda a, axis=0: xp.cumprod(a, axis=axis),
        "flip": lambda a, axis: xp.flip(a, axis=axis),
        "bincount": lambda a, bins: xp.bincount(a, minlength=bins)[:bins],
        "correlate1d": _correlate1d(xp),
        "correlate2d": _correlate2d(xp),
        "max_pool": _pool(xp, "max"), "avg_pool": _pool(xp, "avg"), "conv": _conv(xp),
        "conv_transpose": _conv_transpose(xp),
    }


VOCABULARY = tuple(vocabulary(numpy))   # the names an expression may call


def is_oracle(reference: str) -> bool:
    """`reference:` names a kernel (an identifier) or gives expressions (`array = expression`)."""
    return "=" in reference


def parse_oracle(contract: Contract) -> ReferenceOracle:
    """The contract's `reference:` expressions, checked: every compared array has exactly one, every name is an
    array, size or scalar of the contract, and every expression evaluates (NumPy, on the smallest checked size) to
    as many elements as its array has. Errors are located at the contract."""
    text = contract.reference or ""
    where = contract.location
    compared = [a.param for a in contract.arrays if a.direction != "in"]
    known = [a.param for a in contract.arrays] + list(contract.sizes) + [s.param for s in contract.scalars]
    outputs: dict[str, str] = {}
    for part in filter(str.strip, text.split(";")):
        target, _, expression = part.partition("=")
        target, expression = target.strip(), expression.strip()
        if target not in compared:
            raise OptimlError(where, f"reference: '{target}' is not an out or inout array",
                              "ARRAY = EXPRESSION for one of: " + ", ".join(compared))
        if target in outputs:
            raise OptimlError(where, f"reference: '{target}' is given twice", "one expression per array")
        for name in parse_expr(expression, where, VOCABULARY).names():
            if name.name not in known:
                raise OptimlError(where, f"reference: unknown name '{name.name}'", "one of: " + ", ".join(known))
        outputs[target] = expression
    missing = [name for name in compared if name not in outputs]
    if missing:
        raise OptimlError(where, f"reference: no expression for {', '.join(missing)}",
                          "ARRAY = EXPRESSION for every out and inout array, separated by ';'")
    oracle = ReferenceOracle(outputs=outputs, text=text)
    smallest = min([contract.sizes, *contract.checks], key=lambda binding: sum(resolve(contract, binding).lengths.values()))
    resolved = resolve(contract, smallest)
    oracle_outputs(numpy, oracle, contract, resolved, make_inputs(numpy, contract.arrays, resolved.lengths, seed=0))
    return oracle


def oracle_outputs(xp: Any, oracle: ReferenceOracle, contract: Contract, resolved: ResolvedContract,
                   inputs: dict[str, Any]) -> dict[str, Any]:
    """The expected contents of every compared array for one input set, in each array's storage type."""
    env: dict[str, Any] = {**resolved.binding, **resolved.scalars, **vocabulary(xp)}
    for spec in contract.arrays:
        if spec.param in inputs:
            values = inputs[spec.param]
            env[spec.param] = values.astype(xp.int64) if is_integer(spec.dtype) else as_float64(xp, values, spec.dtype)
    expected = {}
    for spec in contract.arrays:
        if spec.direction == "in":
            continue
        tree: Expr = parse_expr(oracle.outputs[spec.param], contract.location, VOCABULARY)
        try:
            value = xp.asarray(tree.evaluate(env)).reshape(-1)
        except (TypeError, ValueError, IndexError, ArithmeticError) as error:   # shapes that do not broadcast, a call with the wrong arguments
            raise OptimlError(contract.location, f"reference: {spec.param} = {tree} fails: {error}",
                              "an expression NumPy evaluates over the contract's arrays") from None
        length = resolved.lengths[spec.param]
        if value.size == 1 and length != 1:
            value = xp.broadcast_to(value, (length,))
        if value.size != length:
            raise OptimlError(contract.location, f"reference: {spec.param} = {tree} has {value.size} elements at "
                                                 f"{resolved.binding}, the array {length}",
                              f"an expression with {length} elements")
        expected[spec.param] = _stored(xp, value, spec.dtype)
    return expected


def _stored(xp: Any, values: Any, dtype: str) -> Any:
    return bf16_from_float32(xp, values) if dtype == "bfloat16" else values.astype(storage_dtype(dtype))
