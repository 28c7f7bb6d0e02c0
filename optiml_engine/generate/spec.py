"""The precise spec form of an intent: a NumPy/PyTorch-style expression with typed shapes,

    y = softmax(x, axis=1); x: float32[4096, 393216]
    out = sum(x, dim=0); x: float32[8192, 1024]
    C = A @ B.T; A: float32[2048, 512]; B: float32[1024, 512]
    y = silu(x) * g + 0.5; x: float32[1 << 20]; g: float32[1048576]

read completely or refused: every name is declared, every declared array used, every keyword understood, and each
operation either maps onto a generated family (generate/families.py builds the kernel, its contract and the NumPy
oracle) or is refused naming it, with the forms that are generated. The expression is parsed by Python's `ast`
(never evaluated). Activations are written out in the elementwise functions the generator has (silu as
x * sigmoid(x), leaky_relu(x, 0.1) as max(x, 0) + 0.1 * min(x, 0)...).
"""

from __future__ import annotations

import ast
import math
import re

from optiml_engine.generate.intent import IntentError
from optiml_engine.model import KernelSpec

DTYPES = {"float32": "float32", "float": "float32", "f32": "float32", "float64": "float64", "double": "float64",
          "f64": "float64", "int32": "int32", "int": "int32", "i32": "int32"}
DECLARATION = re.compile(r"^\s*([A-Za-z_]\w*)\s*:\s*([A-Za-z_]\w*)\s*\[([^\]]*)\]\s*$")
REDUCTIONS = {"sum": "sum", "mean": "mean", "max": "max", "amax": "max", "min": "min", "amin": "min",
              "argmax": "argmax", "argmin": "argmin", "prod": "prod", "norm": "l2norm", "logsumexp": "logsumexp"}
ROW_NORMALIZATIONS = {"softmax": "softmax", "log_softmax": "log_softmax", "layer_norm": "layernorm",
                      "layernorm": "layernorm", "rms_norm": "rmsnorm", "rmsnorm": "rmsnorm",
                      "instance_norm": "layernorm", "group_norm": "layernorm", "batch_norm": "batchnorm",
                      "l1_normalize": "l1normalize", "l2_normalize": "l2normalize", "normalize": "l2normalize"}
# The affine parameters layer and RMS norm take (group, instance and batch norm: a weight and a bias, by keyword).
AFFINE = {"layernorm": ("weight", "bias"), "rmsnorm": ("weight",)}
# Divided by their norm, clamped below by eps (as F.normalize): the norm's default eps of each kind.
NORM_EPS = {"layernorm": 1e-5, "rmsnorm": 1e-5, "l1normalize": 1e-12, "l2normalize": 1e-12}
FUNCTIONS = ("exp", "log", "sqrt", "sin", "cos", "tanh", "erf", "abs", "sigmoid", "relu", "max", "min", "pow")
# Activations, written in the generator's functions: (parameters with defaults, formula over `x` and them).
ACTIVATIONS: dict[str, tuple[dict[str, float], str]] = {
    "silu": ({}, "x * sigmoid(x)"), "swish": ({}, "x * sigmoid(x)"),
    "softplus": ({}, "log(1 + exp(x))"),
    "leaky_relu": ({"negative_slope": 0.01}, "maximum(x, 0) + negative_slope * minimum(x, 0)"),
    "elu": ({"alpha": 1.0}, "maximum(x, 0) + alpha * (exp(minimum(x, 0)) - 1)"),
    "selu": ({}, "1.0507009873554805 * (maximum(x, 0) + 1.6732632423543772 * (exp(minimum(x, 0)) - 1))"),
    "hardtanh": ({"min_val": -1.0, "max_val": 1.0}, "minimum(maximum(x, min_val), max_val)"),
    "hardsigmoid": ({}, "minimum(maximum(x / 6 + 0.5, 0), 1)"),
    "hardswish": ({}, "x * minimum(maximum(x + 3, 0), 6) / 6"),
    "softsign": ({}, "x / (1 + abs(x))"),
    "mish": ({}, "x * tanh(log(1 + exp(x)))"),
    "gelu_tanh": ({}, "0.5 * x * (1 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)))"),
    "gelu_erf": ({}, "0.5 * x * (1 + erf(x * 0.7071067811865476))"),
    "square": ({}, "x * x"), "rsqrt": ({}, "1 / sqrt(x)"), "reciprocal": ({}, "1 / x"),
}
GENERATED = ("elementwise formulas (+ - * / **, exp log sqrt sin cos tanh erf abs sigmoid relu maximum minimum pow, "
             f"{', '.join(ACTIVATIONS)}, gelu(x) and gelu(x, approximate='tanh')); sum mean max min argmax argmin "
             "prod norm logsumexp over any axis (or neighbouring axes) of an array of any rank, sum mean max min of "
             "all of one; softmax log_softmax layer_norm rms_norm over any one axis (layer and RMS norm over the last "
             "axes too), l1_normalize l2_normalize normalize(x, p, dim) over any one axis, instance_norm, group_norm, "
             "batch_norm; A @ B with either operand transposed (A.T, B.T), bmm(A, B) of batch x M x K by batch x K x N, "
             "a tensor of 3 or more axes @ a matrix, triu(A @ B) and tril(A @ B), diag(a) @ B and B @ diag(a), A @ x and A.T @ x; x.T, transpose(x), permute(x, (a, b, c)); "
             "cumsum and cumprod along the last axis (exclusive=, reverse=); a reduction of a formula "
             "(sum((a - b) ** 2)), mse_loss, l1_loss, huber_loss, smooth_l1_loss, hinge_loss, kl_div, "
             "cross_entropy (int32 targets), triplet_margin_loss, cosine_similarity_loss (or mean(1 - "
             "cosine_similarity(a, b, dim=1))); max_pool and "
             "avg_pool "
             "1d/2d/3d; conv1d/2d/3d, conv_transpose1d/2d/3d; einsum of those products, sums and permutations")
EXAMPLE = "y = softmax(x, axis=1); x: float32[4096, 1024]"


def is_spec_form(text: str) -> bool:
    """`out = expression; name: dtype[dims]...`: an assignment, then typed declarations."""
    clauses = [c for c in text.split(";") if c.strip()]
    return len(clauses) >= 2 and "=" in clauses[0] and all(DECLARATION.match(c) for c in clauses[1:])


def parse_spec(text: str) -> KernelSpec:
    """The spec the form states; an IntentError naming what is not understood."""
    clauses = [c.strip() for c in text.split(";") if c.strip()]
    output, _, expression = clauses[0].partition("=")
    output = output.strip()
    shapes: dict[str, list[int]] = {}
    dtypes: dict[str, str] = {}
    for clause in clauses[1:]:
        name, dtype, dims = DECLARATION.match(clause).groups()
        if dtype not in DTYPES:
            raise IntentError(f"element type '{dtype}' of {name}", [], "float32, float64 or int32")
        shapes[name], dtypes[name] = [_dimension(d, name) for d in dims.split(",")], DTYPES[dtype]
        if name in FUNCTIONS or name in ACTIVATIONS or name in METHODS:
            # 'y = tanh of 2x' read as y = tanh with an array called tanh would verify a copy.
            raise IntentError(f"an array called {name}, a function's name", [], f"{name}(...) applied to an array")
    if not re.fullmatch(r"[A-Za-z_]\w*", output):
        raise IntentError(f"'{output}' is not an output name", [], "NAME = expression; ...")
    if output in shapes:
        raise IntentError(f"the output {output} is declared as an input", [], "a new name for the output")
    try:
        tree = _einsums_written_out(_plain_calls(ast.parse(expression.strip(), mode="eval").body, set(shapes)))
    except SyntaxError as error:
        raise IntentError(f"'{expression.strip()}' is not an expression ({error.msg})", [], GENERATED) from None
    functions = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in functions}
    undeclared = sorted(used - set(shapes))
    if undeclared:
        raise IntentError(f"{', '.join(undeclared)} not declared", [], f"a declaration such as "
                                                                         f"'{undeclared[0]}: float32[1024]'")
    unused = sorted(set(shapes) - used)
    if unused:
        raise IntentError(f"{', '.join(unused)} declared but not used", [], "declarations of the inputs only")
    # Class targets (cross_entropy's second operand) are integers beside the data's floats.
    targets = class_targets(tree)
    for name in targets:
        if dtypes.get(name) != "int32":
            raise IntentError(f"class targets {name} of element type {dtypes.get(name)}", [f"{name}: {shapes.get(name)}"],
                              f"{name}: int32[...], the class of each row")
    kinds = {dtype for name, dtype in dtypes.items() if name not in targets}
    if len(kinds) > 1:
        raise IntentError(f"inputs of several element types ({', '.join(sorted(kinds))})", [], "one element type")
    dtype = kinds.pop()
    try:
        spec = _Reader(text, output, shapes, dtype).spec(tree)
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as error:
        # A value where a constant belongs (`axis=k`), an empty tuple...: one located line, as every input error.
        raise IntentError(f"cannot read '{expression.strip()}' ({type(error).__name__}: {error})", [],
                          GENERATED) from None
    # Every declared array is read by the reading: a positional argument a function's reading has no place for
    # (`F.layer_norm(x, (1024,), w, b)` read without its weight and bias) would be a kernel of another operation.
    dropped = [name for name in shapes if name not in spec.inputs]
    if dropped:
        raise IntentError(f"{', '.join(dropped)} passed but not read by the reading {spec_form(spec)}",
                          [f"operation {spec.operation}"], GENERATED)
    if dtype == "int32" and spec.family not in ("elementwise", "transpose", "prefix_sum"):
        raise IntentError(f"{spec.operation} of integers is not generated", [f"operation {spec.operation}"],
                          "float32 or float64 data")
    return spec


MODULES = {"np", "numpy", "torch", "F", "jnp", "nn", "functional"}
METHODS = {*REDUCTIONS, *ROW_NORMALIZATIONS, "cumsum", "permute", "transpose", "exp", "log", "sqrt", "abs", "tanh",
           "sigmoid", "relu", "clamp", "clip"}


POOLINGS = {f"{kind}_pool{axes}d": (f"{kind}_pool", axes) for kind in ("max", "avg") for axes in (1, 2, 3)}
CONVOLUTIONS = {f"conv{axes}d": axes for axes in (1, 2, 3)}
CONV_TRANSPOSES = {f"conv_transpose{axes}d": axes for axes in (1, 2, 3)}


def _per_axis(options: dict, key: str, default, axes: int, function: str) -> list[int]:
    """A pooling's or convolution's parameter, one whole number per spatial axis (a single number for all of
    them, or `default` when not given)."""
    value = default if options.get(key) is None else options[key]
    values = list(value) if isinstance(value, tuple | list) else [value] * axes
    if len(values) != axes or any(not isinstance(v, int) or v < 0 for v in values):
        raise IntentError(f"{key}={value!r} of {function}", [], f"a whole number or {axes} of them")
    return values


def _spatial_symbols(axes: int, arrays: set[str]) -> list[str]:
    """Size names of the last `axes` spatial axes, clear of the arrays' names (a weight is often called w)."""
    return [name if name not in arrays else f"{name}_size" for name in ("depth", "height", "width")[3 - axes:]]


def _plain_calls(tree: ast.expr, arrays: set[str]) -> ast.expr:
    """`np.sum(x, 1)`, `torch.softmax(x, dim=1)`, `F.relu(x)` and the method forms `x.sum(axis=1)`, `x.softmax(-1)`
    as plain calls `sum(x, 1)`..."""
    class Plain(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.expr:
            self.generic_visit(node)
            function = node.func
            if isinstance(function, ast.Attribute):
                owner = function.value
                while isinstance(owner, ast.Attribute) and owner.attr in MODULES:
                    owner = owner.value
                if isinstance(owner, ast.Name) and owner.id in MODULES and owner.id not in arrays or \
                        isinstance(owner, ast.Attribute) and owner.attr in MODULES:
                    return ast.Call(func=ast.Name(id=function.attr), args=node.args, keywords=node.keywords)
                if function.attr in METHODS:
                    return ast.Call(func=ast.Name(id=function.attr), args=[function.value, *node.args],
                                    keywords=node.keywords)
            return node

    return Plain().visit(tree)


# Element losses, written out: (parameters with defaults, formula over `a` (input) and `b` (target) and them).
LOSSES: dict[str, tuple[dict[str, float], str]] = {
    "mse_loss": ({}, "(a - b) ** 2"), "l1_loss": ({}, "abs(a - b)"),
    "huber_loss": ({"delta": 1.0}, "0.5 * minimum(abs(a - b), delta) ** 2 + "
                                   "delta * (abs(a - b) - minimum(abs(a - b), delta))"),
    "smooth_l1_loss": ({"beta": 1.0}, "(0.5 * minimum(abs(a - b), beta) ** 2 + "
                                      "beta * (abs(a - b) - minimum(abs(a - b), beta))) / beta"),
    "hinge_loss": ({}, "maximum(1 - a * b, 0)"),     # KernelBench's: mean(clamp(1 - predictions * targets, min=0))
    # PyTorch's kl_div(input, target): the input holds log-probabilities, the target probabilities.
    "kl_div": ({}, "b * (log(b) - a)"),
}
# 'batchmean' (the sum over the first axis's length: KL divergence's per-sample mean) is kl_div's alone, as in PyTorch.
LOSS_REDUCTIONS = {"kl_div": ("mean", "sum", "batchmean")}


def _einsums_written_out(tree: ast.expr) -> ast.expr:
    """`einsum('ij,jk->ik', A, B)` as the operation its subscripts state, in this form's own words: a product of
    two matrices in any layout (`A.T @ B`...), a batched product, a matrix-vector product, a dot product, an
    elementwise product, a transpose or permutation, a sum over some axes or all. Subscripts with an implicit output,
    a repeated letter (a diagonal, a trace) or any other contraction are refused."""
    class WrittenOut(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.expr:
            self.generic_visit(node)
            if not (isinstance(node.func, ast.Name) and node.func.id == "einsum"):
                return node
            said = ast.unparse(node)
            if node.keywords or not node.args or not isinstance(node.args[0], ast.Constant) or \
                    not isinstance(node.args[0].value, str) or not all(isinstance(a, ast.Name) for a in node.args[1:]):
                raise IntentError(f"{said}: subscripts and named operands expected", [], "einsum('ij,jk->ik', A, B)")
            subscripts = node.args[0].value.replace(" ", "")
            names = [a.id for a in node.args[1:]]
            written = _einsum(subscripts, names)
            if written is None:
                raise IntentError(f"{said} is not an operation OptiML generates", [],
                                  "a product of two matrices in any layout, batched or with a vector, a dot or "
                                  "elementwise product, a transpose or permutation, or a sum over axes")
            return ast.parse(written, mode="eval").body

    return WrittenOut().visit(tree)


def _einsum(subscripts: str, names: list[str]) -> str | None:
    """The expression `einsum(subscripts, *names)` computes, or None where it is none of _einsums_written_out's."""
    if not re.fullmatch(r"[a-z]+(?:,[a-z]+)?->[a-z]*", subscripts):
        return None
    inputs, output = subscripts.split("->")
    operands = inputs.split(",")
    if len(operands) != len(names) or any(len(set(o)) != len(o) for o in [*operands, output]) or \
            not set(output) <= set(inputs.replace(",", "")):
        return None
    if len(operands) == 1:
        (x,), (letters,) = names, operands
        if output == letters:
            return None
        if sorted(output) == sorted(letters):
            axes = tuple(letters.index(c) for c in output)
            return f"{x}.T" if len(axes) == 2 else f"permute({x}, {axes})"
        if [c for c in letters if c in output] != list(output):
            return None                  # a sum that also reorders what is left
        summed = tuple(i for i, c in enumerate(letters) if c not in output)
        return f"sum({x})" if not output else f"sum({x}, axis={summed[0] if len(summed) == 1 else summed})"
    (a, b), (first, second) = names, operands
    shared = [c for c in first if c in second]
    if first == second == output:
        return f"{a} * {b}"
    if first == second and output == "":
        return f"sum({a} * {b})"
    if len(shared) != 1 or shared[0] in output:
        batch = shared[0] if shared and len(first) == len(second) == len(output) == 3 else None
        if batch and first[0] == second[0] == output[0] == batch and len(shared) == 2:
            contracted = next(c for c in shared if c != batch)
            if first[2] == second[1] == contracted and output[1:] == first[1] + second[2]:
                return f"bmm({a}, {b})"
        return None
    k = shared[0]
    free = [c for c in first if c != k] + [c for c in second if c != k]
    if "".join(free) != output:
        return None
    if len(first) == 2 and len(second) == 2:
        return f"{a}{'.T' if first[0] == k else ''} @ {b}{'.T' if second[1] == k else ''}"
    if len(first) == 2 and len(second) == 1:
        return f"{a}{'.T' if first[0] == k else ''} @ {b}"
    if len(first) == 1 and len(second) == 2:     # x against A's k axis: A's k axis first is A.T @ x
        return f"{b}{'.T' if second[0] == k else ''} @ {a}"
    return None


def _losses_written_out(tree: ast.expr, shapes: dict[str, list[int]]) -> ast.expr:
    """`mse_loss(a, b)` as `mean((a - b) ** 2)`, `l1_loss(a, b, reduction='sum')` as `sum(abs(a - b))`,
    `huber_loss(a, b, delta=0.5)` with its delta in the formula, `kl_div(log(p), t, reduction='batchmean')` as
    `sum(t * (log(t) - log(p)) / N)` with N the first axis's length."""
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in LOSSES):
        return tree
    defaults, formula = LOSSES[tree.func.id]
    reductions = LOSS_REDUCTIONS.get(tree.func.id, ("mean", "sum"))
    usage = (f"{tree.func.id}(input, target{''.join(f', {k}=...' for k in defaults)}, reduction="
             f"{' or '.join(repr(r) for r in reductions)})")
    if len(tree.args) != 2 or any(k.arg not in ("reduction", *defaults) for k in tree.keywords):
        raise IntentError(ast.unparse(tree), [], usage)
    given = {k.arg: ast.literal_eval(k.value) for k in tree.keywords}
    reduction = given.pop("reduction", "mean")
    if reduction not in reductions:
        raise IntentError(f"reduction='{reduction}' of {tree.func.id}", [], usage)
    values = {**defaults, **given}
    if any(not isinstance(v, int | float) or v <= 0 for v in values.values()):
        raise IntentError(f"{ast.unparse(tree)}: parameters must be positive numbers", [], usage)
    body = ast.parse(formula, mode="eval").body

    class Operands(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            if node.id in values:
                return ast.Constant(value=float(values[node.id]))
            return {"a": tree.args[0], "b": tree.args[1]}.get(node.id, node)

    body = Operands().visit(body)
    if reduction == "batchmean":
        operands = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in shapes]
        if not operands:
            raise IntentError(f"{ast.unparse(tree)}: no declared operand", [], usage)
        body = ast.BinOp(left=body, op=ast.Div(), right=ast.Constant(value=float(shapes[operands[0]][0])))
        reduction = "sum"
    return ast.Call(func=ast.Name(id=reduction), args=[body], keywords=[])


def class_targets(tree: ast.expr) -> set[str]:
    """The arrays a `cross_entropy(x, t)` call reads as class indices."""
    return {call.args[1].id for call in ast.walk(tree) if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "cross_entropy" and len(call.args) == 2 and isinstance(call.args[1], ast.Name)}


# Losses over the rows of operands of one shape, each row's loss from sums along it: (arguments, keywords).
ROW_PAIR_LOSSES = {"triplet_margin_loss": (3, {"margin": 1.0}), "cosine_similarity_loss": (2, {})}


def _cosine_loss_named(tree: ast.expr) -> ast.expr:
    """KernelBench's `mean(1 - cosine_similarity(a, b, dim=1))` (or its sum) as `cosine_similarity_loss(a, b)`."""
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("mean", "sum") and \
            len(tree.args) == 1 and not tree.keywords:
        inner = tree.args[0]
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Sub) and isinstance(inner.left, ast.Constant) \
                and inner.left.value == 1 and isinstance(inner.right, ast.Call) and \
                isinstance(inner.right.func, ast.Name) and inner.right.func.id == "cosine_similarity":
            similarity = inner.right
            dims = [k for k in similarity.keywords if k.arg in ("dim", "axis")]
            if len(similarity.args) == 2 and len(similarity.keywords) == len(dims) and \
                    all(isinstance(k.value, ast.Constant | ast.UnaryOp) for k in dims) and \
                    all(ast.literal_eval(k.value) in (1, -1) for k in dims):
                return ast.Call(func=ast.Name(id="cosine_similarity_loss"), args=similarity.args,
                                keywords=[ast.keyword(arg="reduction", value=ast.Constant(value=tree.func.id))])
    return tree


def _within(axis, name: str, shape: list[int]):
    """`axis` (a whole number, several, or None), refused where one is not an axis of `shape` (NumPy's rule: from
    -rank to rank - 1): counted modulo the rank, axis 7 of a 2-D array would be read as one of its axes."""
    rank = len(shape)
    if any(isinstance(a, int) and not -rank <= a < rank for a in (axis if isinstance(axis, tuple | list) else [axis])):
        raise IntentError(f"axis {axis} of {name}, which has {rank} ax{'is' if rank == 1 else 'es'}",
                          [f"{name}: {shape}"], f"an axis from {-rank} to {rank - 1}")
    return axis


def _dimension(text: str, name: str) -> int:
    text = text.strip().replace("_", "")
    match = re.fullmatch(r"(\d+)\s*(?:<<\s*(\d+))?|2\s*\*\*\s*(\d+)", text)
    if match is None:
        raise IntentError(f"dimension '{text}' of {name}", [], "whole numbers, e.g. [4096, 1024] or [1 << 20]")
    if match.group(3):
        return 2 ** int(match.group(3))
    return int(match.group(1)) << int(match.group(2) or 0)


class _Reader:
    def __init__(self, text: str, output: str, shapes: dict[str, list[int]], dtype: str):
        self.text, self.output, self.shapes, self.dtype = " ".join(text.split()), output, shapes, dtype

    def spec(self, tree: ast.expr) -> KernelSpec:
        tree = _losses_written_out(tree, self.shapes)
        tree = _cosine_loss_named(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in REDUCTIONS:
            return self.reduction(tree, REDUCTIONS[tree.func.id])
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ROW_NORMALIZATIONS:
            return self.normalization(tree, ROW_NORMALIZATIONS[tree.func.id])
        if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.MatMult) and \
                any(self.diagonal(side) is not None for side in (tree.left, tree.right)):
            return self.diagonal_product(tree)
        if self.is_product(tree):
            return self.product(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("triu", "tril") and \
                len(tree.args) == 1 and not tree.keywords and self.is_product(tree.args[0]):
            # KernelBench's triangular products: torch.triu(torch.matmul(A, B)).
            spec = self.product(tree.args[0])
            if spec.family != "gemm" or "batch" in spec.sizes or spec.sizes["M"] != spec.sizes["N"]:
                raise IntentError(f"{tree.func.id} of {ast.unparse(tree.args[0])}", [],
                                  f"{tree.func.id}(A @ B) of a square product")
            return spec.model_copy(update={"triangle": "upper" if tree.func.id == "triu" else "lower",
                                           "kernel": f"{spec.kernel}_{tree.func.id}"})
        if self.transposition(tree) is not None:
            return self.transpose(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("cumsum", "cumprod"):
            return self.cumsum(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in POOLINGS:
            return self.pooling(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in CONVOLUTIONS:
            return self.convolution(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in CONV_TRANSPOSES:
            return self.transposed_convolution(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "cross_entropy":
            return self.cross_entropy(tree)
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ROW_PAIR_LOSSES:
            return self.row_pair_loss(tree)
        return self.elementwise(tree)

    def base(self, **fields) -> KernelSpec:
        return KernelSpec(intent=self.text, dtype=self.dtype, output=self.output, **fields)

    def array(self, node: ast.expr, what: str) -> tuple[str, list[int]]:
        if not isinstance(node, ast.Name) or node.id not in self.shapes:
            raise IntentError(f"{what} of '{ast.unparse(node)}'", [], f"{what} of a declared array")
        return node.id, self.shapes[node.id]

    def keywords(self, call: ast.Call, allowed: dict[str, object]) -> dict[str, object]:
        """The call's keywords (constants only), each one it allows; `dim` is `axis`."""
        found = dict(allowed)
        for keyword in call.keywords:
            name = "axis" if keyword.arg == "dim" else keyword.arg
            if name not in allowed or not isinstance(keyword.value, ast.Constant | ast.UnaryOp | ast.Tuple | ast.List):
                raise IntentError(f"keyword '{keyword.arg}' of {ast.unparse(call.func)}", [],
                                  f"{', '.join(allowed) or 'no keywords'} (constants)")
            found[name] = ast.literal_eval(keyword.value)
        return found

    def reduction(self, call: ast.Call, operation: str) -> KernelSpec:
        """Over one axis (or neighbouring axes) of an array of any rank: the axes before it are rows, those after
        it columns, so it is a row reduction (nothing after), a column reduction (nothing before) or a reduction
        over the middle axis; over every axis, a global one."""
        if len(call.args) not in (1, 2):
            raise IntentError(f"{ast.unparse(call)}", [], f"{ast.unparse(call.func)}(x, axis=...)")
        reduced = call.args[0]
        expression = None
        if not isinstance(reduced, ast.Name):
            # A formula reduced (a loss, a dot product): its inputs all of one shape, element by element.
            expression = self.formula(reduced)
            inputs = sorted({n.id for n in ast.walk(reduced) if isinstance(n, ast.Name) and n.id in self.shapes},
                            key=expression.index)
            shapes = {tuple(self.shapes[n]) for n in inputs}
            if len(shapes) != 1 or operation == "logsumexp":
                raise IntentError(f"a {operation} of {ast.unparse(reduced)}", [],
                                  "a formula over inputs of one shape (no broadcasting), reduced by sum mean max min "
                                  "argmax or norm")
            reduced = ast.Name(id=inputs[0])
        name, shape = self.array(reduced, f"a {operation}")
        inputs = [name] if expression is None else inputs
        options = self.keywords(call, {"axis": None, "keepdims": False})
        axis = _within(ast.literal_eval(call.args[1]) if len(call.args) == 2 else options["axis"], name, shape)
        axes = sorted({a % len(shape) for a in (axis if isinstance(axis, tuple | list) else [axis])}) \
            if axis is not None else list(range(len(shape)))
        if not axes or any(not isinstance(a, int) for a in axes) or axes != list(range(axes[0], axes[-1] + 1)):
            raise IntentError(f"a {operation} over axes {axis}", [f"{name}: {shape}"], "one axis, or neighbouring axes")
        before, over, after = (math.prod(shape[:axes[0]]), math.prod(shape[axes[0]:axes[-1] + 1]),
                               math.prod(shape[axes[-1] + 1:]))
        kernel = f"{operation}_{{}}_{name}"
        if before == 1 and after == 1:
            if operation not in ("sum", "mean", "max", "min"):
                raise IntentError(f"a {operation} of all elements", [f"{name}: {shape}"],
                                  "sum, mean, max or min of all elements; other reductions along an axis")
            return self.base(family="global_reduction", operation=operation, kernel=kernel.format("all"),
                             sizes={"n": over}, inputs=inputs, expression=expression)
        if after == 1:
            return self.base(family="row_reduction", operation=operation, kernel=kernel.format("rows"),
                             sizes={"rows": before, "cols": over}, inputs=inputs, expression=expression)
        if before == 1:
            return self.base(family="column_reduction", operation=operation, kernel=kernel.format("cols"),
                             sizes={"rows": over, "cols": after}, inputs=inputs, expression=expression)
        if expression is not None:
            raise IntentError(f"a {operation} of a formula over a middle axis", [],
                              "a formula reduced over the first or the last axes, or all of them")
        return self.base(family="middle_reduction", operation=operation, kernel=kernel.format("axis"),
                         sizes={"outer": before, "extent": over, "inner": after}, inputs=[name])

    def pooling(self, call: ast.Call) -> KernelSpec:
        """max_pool1d/2d/3d(x, kernel_size, stride=kernel_size, padding=0, dilation=1), avg_pool1d/2d/3d(x,
        kernel_size, stride, padding) as PyTorch has them (floor mode; the average counts the padding), over the
        last 1 to 3 axes of x; the axes before them are planes."""
        function = call.func.id
        operation, axes = POOLINGS[function]
        names = ["kernel_size", "stride", "padding"] + (["dilation"] if operation == "max_pool" else [])
        if not call.args or len(call.args) > 1 + len(names):
            raise IntentError(ast.unparse(call), [], f"{function}(x, {', '.join(names)})")
        name, shape = self.array(call.args[0], f"a {function}")
        options = self.keywords(call, {n: None for n in names})
        options.update({n: ast.literal_eval(a) for n, a in zip(names, call.args[1:])})
        if options["kernel_size"] is None:
            raise IntentError(f"{function} without kernel_size", [f"{name}: {shape}"], f"{function}(x, kernel_size=2)")
        window = _per_axis(options, "kernel_size", None, axes, function)
        stride, padding = (_per_axis(options, key, default, axes, function)
                           for key, default in (("stride", window), ("padding", 0)))
        dilation = _per_axis(options, "dilation", 1, axes, function)
        if len(shape) < axes + 1:
            raise IntentError(f"{function} of a {len(shape)}-D array", [f"{name}: {shape}"],
                              f"planes (N, C...) and {axes} spatial axes")
        if any(k < 1 or s < 1 or d < 1 or 2 * p > k for k, s, p, d in zip(window, stride, padding, dilation)):
            raise IntentError(f"{function} with kernel {window}, stride {stride}, padding {padding}", [],
                              "kernels, strides and dilations of 1 or more, padding at most half the kernel")
        spatial = shape[-axes:]
        if any(n + 2 * p - d * (k - 1) - 1 < 0 for n, k, p, d in zip(spatial, window, padding, dilation)):
            raise IntentError(f"a window larger than {name}'s {spatial}", [], "a window that fits the input")
        symbols = _spatial_symbols(axes, set(self.shapes))
        return self.base(family="pooling", operation=operation, kernel=f"{function}_{name}",
                         sizes={"planes": math.prod(shape[:-axes]), **dict(zip(symbols, spatial))}, inputs=[name],
                         window=window, stride=stride, padding=padding, dilation=dilation)

    def convolution_operands(self, call: ast.Call, names: list[str]):
        """A convolution's input, weight and bias (declared arrays: shapes) and its parameters, positional in the
        order `names` (PyTorch's, after the bias) or by keyword."""
        function = call.func.id
        if len(call.args) < 2 or len(call.args) > 3 + len(names):
            raise IntentError(ast.unparse(call), [], f"{function}(x, w, b, {', '.join(names)})")
        x = self.array(call.args[0], f"a {function}'s input")
        w = self.array(call.args[1], f"a {function}'s weight")
        bias = []
        if len(call.args) > 2 and not (isinstance(call.args[2], ast.Constant) and call.args[2].value is None):
            bias = [self.array(call.args[2], f"a {function}'s bias")]
        options = self.keywords(call, {"bias": None, **{n: None for n in names}})
        options.update({n: ast.literal_eval(a) for n, a in zip(names, call.args[3:])})
        if options["bias"] is not None:
            raise IntentError(f"bias= of {function}", [], f"{function}(x, w, b, ...) with b a declared array")
        return x, w, bias, options

    def convolution(self, call: ast.Call) -> KernelSpec:
        """conv1d/2d/3d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1) as PyTorch has them: x is
        N x Cin x spatial, w Cout x Cin/groups x kernel, b Cout; padding a number (or 'same' is refused)."""
        function = call.func.id
        axes = CONVOLUTIONS[function]
        (x, x_shape), (w, w_shape), bias, options = self.convolution_operands(
            call, ["stride", "padding", "dilation", "groups"])
        groups = options["groups"] or 1
        stride, padding, dilation = (_per_axis(options, key, default, axes, function)
                                     for key, default in (("stride", 1), ("padding", 0), ("dilation", 1)))
        if len(x_shape) != axes + 2 or len(w_shape) != axes + 2:
            raise IntentError(f"{function} of {x} {x_shape} with {w} {w_shape}", [],
                              f"x as N x Cin x {axes} spatial axes, w as Cout x Cin/groups x {axes} kernel axes")
        (n, cin), cout, window = x_shape[:2], w_shape[0], w_shape[2:]
        if not isinstance(groups, int) or groups < 1 or cin % groups or cout % groups or w_shape[1] != cin // groups:
            raise IntentError(f"{w} {w_shape} for {cin} input channels in {groups} group(s)", [],
                              "w's second axis Cin / groups, and groups dividing Cin and Cout")
        if bias and bias[0][1] != [cout]:
            raise IntentError(f"a bias of shape {bias[0][1]} for {cout} output channels", [], f"b: [{cout}]")
        if any(s < 1 or d < 1 for s, d in zip(stride, dilation)) or any(
                m + 2 * p - d * (k - 1) - 1 < 0 for m, k, p, d in zip(x_shape[2:], window, padding, dilation)):
            raise IntentError(f"{function} with stride {stride}, padding {padding}, dilation {dilation} of {x_shape}",
                              [], "strides and dilations of 1 or more, and a window that fits the padded input")
        symbols = _spatial_symbols(axes, set(self.shapes))
        return self.base(family="convolution", operation="conv", kernel=f"{function}_{x}",
                         sizes={"n": n, "cin": cin, "cout": cout, **dict(zip(symbols, x_shape[2:]))},
                         inputs=[x, w, *(b for b, _ in bias)], window=window, stride=stride, padding=padding,
                         dilation=dilation, groups=groups)

    def transposed_convolution(self, call: ast.Call) -> KernelSpec:
        """conv_transpose1d/2d/3d(x, w, b=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) as
        PyTorch has them: x is N x Cin x spatial, w Cin x Cout/groups x kernel, b Cout; each output extent
        (in - 1) * stride - 2 * padding + dilation * (kernel - 1) + output_padding + 1."""
        function = call.func.id
        axes = CONV_TRANSPOSES[function]
        (x, x_shape), (w, w_shape), bias, options = self.convolution_operands(
            call, ["stride", "padding", "output_padding", "groups", "dilation"])
        groups = options["groups"] or 1
        stride, padding, output_padding, dilation = (
            _per_axis(options, key, default, axes, function)
            for key, default in (("stride", 1), ("padding", 0), ("output_padding", 0), ("dilation", 1)))
        if len(x_shape) != axes + 2 or len(w_shape) != axes + 2:
            raise IntentError(f"{function} of {x} {x_shape} with {w} {w_shape}", [],
                              f"x as N x Cin x {axes} spatial axes, w as Cin x Cout/groups x {axes} kernel axes")
        (n, cin), cout, window = x_shape[:2], w_shape[1] * (groups if isinstance(groups, int) else 1), w_shape[2:]
        if not isinstance(groups, int) or groups < 1 or cin % groups or w_shape[0] != cin:
            raise IntentError(f"{w} {w_shape} for {cin} input channels in {groups} group(s)", [],
                              "w's first axis Cin, and groups dividing it")
        if bias and bias[0][1] != [cout]:
            raise IntentError(f"a bias of shape {bias[0][1]} for {cout} output channels", [], f"b: [{cout}]")
        if any(s < 1 or d < 1 or not 0 <= q < max(s, d) for s, d, q in zip(stride, dilation, output_padding)) or any(
                (m - 1) * s - 2 * p + d * (k - 1) + q + 1 < 1
                for m, k, s, p, d, q in zip(x_shape[2:], window, stride, padding, dilation, output_padding)):
            raise IntentError(f"{function} with stride {stride}, padding {padding}, output_padding {output_padding}, "
                              f"dilation {dilation} of {x_shape}", [],
                              "strides and dilations of 1 or more, an output padding below the stride or the "
                              "dilation, and an output of 1 element or more per axis")
        symbols = _spatial_symbols(axes, set(self.shapes))
        return self.base(family="transposed_convolution", operation="conv_transpose", kernel=f"{function}_{x}",
                         sizes={"n": n, "cin": cin, "cout": cout, **dict(zip(symbols, x_shape[2:]))},
                         inputs=[x, w, *(b for b, _ in bias)], window=window, stride=stride, padding=padding,
                         output_padding=output_padding, dilation=dilation, groups=groups)

    def cross_entropy(self, call: ast.Call) -> KernelSpec:
        """cross_entropy(x, t, reduction='mean' or 'sum') as PyTorch has it: x the logits, rows x classes; t the
        class of each row (int32); the loss of a row is logsumexp of its logits minus its target's logit."""
        if len(call.args) != 2:
            raise IntentError(ast.unparse(call), [], "cross_entropy(x, t, reduction='mean')")
        x, x_shape = self.array(call.args[0], "cross_entropy's logits")
        t, t_shape = self.array(call.args[1], "cross_entropy's targets")
        options = self.keywords(call, {"reduction": "mean"})
        if options["reduction"] not in ("mean", "sum"):
            raise IntentError(f"reduction='{options['reduction']}' of cross_entropy", [], "reduction='mean' or 'sum'")
        if len(x_shape) != 2 or t_shape != x_shape[:1]:
            raise IntentError(f"cross_entropy of {x} {x_shape} with targets {t} {t_shape}", [],
                              "logits rows x classes and one target per row: x: float32[B, C]; t: int32[B]")
        return self.base(family="cross_entropy", operation="cross_entropy", kernel=f"cross_entropy_{x}",
                         sizes={"rows": x_shape[0], "cols": x_shape[1]}, inputs=[x, t], reduction=options["reduction"],
                         assumed=["no class weights, no label smoothing, no ignored index"])

    def row_pair_loss(self, call: ast.Call) -> KernelSpec:
        """triplet_margin_loss(anchor, positive, negative, margin=1.0) (PyTorch's, p=2: each distance the norm of
        the difference plus 1e-6) and cosine_similarity_loss(a, b) (1 - the rows' cosine similarity), over the
        rows of rows x cols operands, reduced by their mean or sum."""
        function = call.func.id
        count, parameters = ROW_PAIR_LOSSES[function]
        if len(call.args) != count:
            raise IntentError(ast.unparse(call), [], f"{function} of {count} arrays of one shape")
        operands = [self.array(arg, f"{function}'s operand") for arg in call.args]
        options = self.keywords(call, {"reduction": "mean", **parameters})
        shapes = {tuple(shape) for _, shape in operands}
        if len(shapes) != 1 or len(operands[0][1]) != 2:
            raise IntentError(f"{function} of {', '.join(f'{n} {s}' for n, s in operands)}", [],
                              "operands of one shape, rows x cols")
        if options["reduction"] not in ("mean", "sum"):
            raise IntentError(f"reduction='{options['reduction']}' of {function}", [], "reduction='mean' or 'sum'")
        rows, cols = operands[0][1]
        return self.base(family="row_pair_loss", operation=function, kernel=f"{function}_{operands[0][0]}",
                         sizes={"rows": rows, "cols": cols}, inputs=[name for name, _ in operands],
                         scalars={k: float(options[k]) for k in parameters},
                         reduction=options["reduction"])

    def normalization(self, call: ast.Call, operation: str) -> KernelSpec:
        """Over the last axis, or (layer and RMS norm) the last axes: a row normalization of the rows the axes
        before them make. Instance norm of an N x C x ... array is a layer norm over the axes after C; group norm
        with G groups, one over each group's C/G channels and the axes after them (PyTorch's); affine
        parameters by keyword or at PyTorch's positions (`affine`)."""
        function = ast.unparse(call.func)
        if not call.args:
            raise IntentError(ast.unparse(call), [], f"{function}(x, axis=-1)")
        name, shape = self.array(call.args[0], f"a {function}")
        if function in ("instance_norm", "group_norm"):
            return self.channel_normalization(call, function, name, shape)
        if function == "batch_norm":
            return self.batch_normalization(call, name, shape)
        call, affine = self.affine(call, AFFINE.get(operation, ()), positional=True, shape=shape)
        allowed: dict[str, object] = {"axis": -1}
        if operation in NORM_EPS:
            allowed["eps"] = NORM_EPS[operation]
        if function == "normalize":
            allowed["p"] = 2                                    # F.normalize(x, p=2, dim=1)
        options = self.keywords(call, allowed)
        if "p" in options:
            if options["p"] not in (1, 2):
                raise IntentError(f"normalize with p={options['p']}", [f"{name}: {shape}"], "p=1 or p=2")
            operation = "l1normalize" if options["p"] == 1 else "l2normalize"
        axis = _within(ast.literal_eval(call.args[1]) if len(call.args) == 2 else options["axis"], name, shape)
        axes = sorted({a % len(shape) for a in axis} if isinstance(axis, tuple | list) and axis and
                      all(isinstance(a, int) for a in axis) else {axis % len(shape)} if isinstance(axis, int) else {-1})
        trailing = axes == list(range(len(shape) - len(axes), len(shape))) and axes[0] >= 1
        scalars = {"eps": float(options["eps"])} if "eps" in options else {}
        assumed = ["no affine weight or bias"] if operation in ("layernorm", "rmsnorm") and not affine else []
        if len(shape) >= 2 and len(axes) == 1 and not trailing:
            # Along a first or middle axis: each line along it, the axes before it outer, those after it inner.
            (axis,) = axes
            self.affine_shapes(affine, shape[axis:axis + 1], "element of the normalized axis")
            return self.base(family="axis_normalization", operation=operation, kernel=f"{operation}_axis_{name}",
                             sizes={"outer": math.prod(shape[:axis]), "extent": shape[axis],
                                    "inner": math.prod(shape[axis + 1:])}, inputs=[name, *affine], scalars=scalars,
                             assumed=assumed)
        if len(shape) < 2 or not trailing or len(axes) > 1 and operation not in ("layernorm", "rmsnorm"):
            raise IntentError(f"{operation} over axis {axis} of a {len(shape)}-D array", [f"{name}: {shape}"],
                              "the last axis of an array of 2 or more dimensions (the last axes for layer_norm "
                              "and rms_norm)")
        self.affine_shapes(affine, shape[axes[0]:], "element of the normalized axes")
        return self.base(family="row_normalization", operation=operation, kernel=f"{operation}_rows_{name}",
                         sizes={"rows": math.prod(shape[:axes[0]]), "cols": math.prod(shape[axes[0]:])},
                         inputs=[name, *affine], scalars=scalars, assumed=assumed)

    def affine(self, call: ast.Call, parameters: tuple[str, ...], positional: bool,
               shape: list[int] | None = None) -> tuple[ast.Call, list[str]]:
        """A normalization's affine parameters (`parameters`: those it takes), by keyword (`weight=w, bias=b`) or,
        where `positional`, at layer and RMS norm's PyTorch positions (`F.layer_norm(x, (1024,), w, b)`,
        `F.rms_norm(x, (1024,), w)`: the normalized shape, the array's last dimensions, makes them the normalized
        axes): the call left without them, and [weight] or [weight, bias]. A bias without a weight is refused; a
        parameter the normalization does not take is left to its keywords' check."""
        given = {k.arg: k.value for k in call.keywords if k.arg in parameters and isinstance(k.value, ast.Name)}
        keywords = [k for k in call.keywords if k.arg not in given]
        args = list(call.args)
        if positional and parameters and len(args) >= 3:
            dims = ast.literal_eval(args[1])
            dims = [dims] if isinstance(dims, int) else list(dims)
            if dims != shape[len(shape) - len(dims):] or len(args) > 2 + len(parameters):
                raise IntentError(f"{ast.unparse(call)} of a {shape} array", [],
                                  f"{ast.unparse(call.func)}(x, normalized_shape, "
                                  f"{', '.join(parameters)}): normalized_shape the array's last dimensions")
            given |= dict(zip(parameters, args[2:]))
            keywords.append(ast.keyword(arg="axis", value=ast.Tuple(
                elts=[ast.Constant(a) for a in range(len(shape) - len(dims), len(shape))])))
            args = args[:1]
        names = [self.array(given[p], f"the {p} of {ast.unparse(call.func)}")[0] for p in parameters if p in given]
        if "bias" in given and "weight" not in given:
            raise IntentError(f"a bias without a weight in {ast.unparse(call)}", [], "weight=w, bias=b, or weight=w")
        return ast.Call(func=call.func, args=args, keywords=keywords), names

    def affine_shapes(self, affine: list[str], each: list[int], per: str) -> None:
        """The affine parameters hold one value `per` element of the normalized axes (layer and RMS norm) or
        channel (group, instance and batch norm), PyTorch's layout."""
        for parameter in affine:
            if self.shapes[parameter] != each:
                raise IntentError(f"the {parameter}: {self.shapes[parameter]}", [],
                                  f"{parameter}: {each}, one value per {per}")

    def channel_normalization(self, call: ast.Call, function: str, name: str, shape: list[int]) -> KernelSpec:
        call, affine = self.affine(call, ("weight", "bias"), positional=False)
        allowed: dict[str, object] = {"eps": 1e-5} | ({"num_groups": None} if function == "group_norm" else {})
        options = self.keywords(call, allowed)
        groups = ast.literal_eval(call.args[1]) if len(call.args) == 2 and function == "group_norm" \
            else options.get("num_groups", 0)
        if len(shape) < 3 or len(call.args) > (2 if function == "group_norm" else 1):
            raise IntentError(f"{ast.unparse(call)} of a {len(shape)}-D array", [f"{name}: {shape}"],
                              f"{function}(x{', num_groups' if function == 'group_norm' else ''}, eps=...) of an "
                              f"N x C x ... array")
        if function == "group_norm" and (not isinstance(groups, int) or groups < 1 or shape[1] % groups):
            raise IntentError(f"{groups} groups of {shape[1]} channels", [f"{name}: {shape}"],
                              "a number of groups that divides the channels")
        groups = shape[1] if function == "instance_norm" else groups
        self.affine_shapes(affine, shape[1:2], "channel")
        # With affine parameters a row's channel is known from its group and a column's position (`inner` the
        # elements of a channel); without, the rows are a layer norm's.
        channels = {"groups": groups, "inner": math.prod(shape[2:])} if affine else {}
        return self.base(family="row_normalization", operation="layernorm", kernel=f"{function}_{name}",
                         sizes={"rows": shape[0] * groups, "cols": math.prod(shape[1:]) // groups, **channels},
                         inputs=[name, *affine], scalars={"eps": float(options["eps"])},
                         assumed=[] if affine else ["no affine weight or bias"])

    def batch_normalization(self, call: ast.Call, name: str, shape: list[int]) -> KernelSpec:
        """batch_norm(x, eps=...) of an N x C x ... array: each channel normalized by its mean and variance over the
        batch and the axes after C, as a BatchNorm layer in training mode does (PyTorch's, without running
        statistics), then scaled and shifted by a weight and bias per channel where given."""
        call, affine = self.affine(call, ("weight", "bias"), positional=False)
        options = self.keywords(call, {"eps": 1e-5, "training": True})
        if options["training"] is not True:
            raise IntentError("batch_norm with running statistics (training=False)", [f"{name}: {shape}"],
                              "batch_norm(x, eps=...): each channel's statistics over the batch, as in training")
        if len(shape) < 2 or len(call.args) > 1:
            raise IntentError(f"{ast.unparse(call)} of a {len(shape)}-D array", [f"{name}: {shape}"],
                              "batch_norm(x, eps=..., weight=w, bias=b) of an N x C x ... array (weight and bias "
                              "optional)")
        self.affine_shapes(affine, shape[1:2], "channel")
        return self.base(family="batch_normalization", operation="batchnorm", kernel=f"batch_norm_{name}",
                         sizes={"outer": shape[0], "extent": shape[1], "inner": math.prod(shape[2:])},
                         inputs=[name, *affine], scalars={"eps": float(options["eps"])},
                         assumed=[*([] if affine else ["no affine weight or bias"]),
                                  "the batch's statistics (training mode), no running ones"])

    def diagonal(self, node: ast.expr) -> str | None:
        """The vector a `diag(v)` (torch.diag) makes a diagonal matrix of."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "diag" and \
                len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Name) and \
                len(self.shapes.get(node.args[0].id, [])) == 1:
            return node.args[0].id
        return None

    def diagonal_product(self, tree: ast.BinOp) -> KernelSpec:
        """diag(a) @ B scales B's rows by a, B @ diag(a) its columns (KernelBench's diagonal product): element by
        element, never the N x N diagonal matrix."""
        vector, matrix_node, left = (self.diagonal(tree.left), tree.right, True) if self.diagonal(tree.left) \
            else (self.diagonal(tree.right), tree.left, False)
        matrix, shape = self.array(matrix_node, "a diagonal product")
        length = self.shapes[vector][0]
        if len(shape) != 2 or length != shape[0 if left else 1]:
            raise IntentError(f"diag({vector}) of {length} elements with {matrix} {shape}", [],
                              f"{vector}'s length {'rows' if left else 'columns'} of {matrix}")
        return self.base(family="elementwise", operation="map", kernel=f"map_{self.output}",
                         sizes={"rows": shape[0], "cols": shape[1]}, inputs=[vector, matrix] if left else [matrix, vector],
                         expression=f"{vector} * {matrix}" if left else f"{matrix} * {vector}",
                         column_vectors=[vector] if left else [], row_vectors=[] if left else [vector])

    @staticmethod
    def is_product(tree: ast.expr) -> bool:
        return isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.MatMult) or \
            isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("matmul", "mm", "bmm")

    def product(self, tree: ast.expr) -> KernelSpec:
        """A @ B with either operand transposed (`A.T @ B.T`), A @ x and A.T @ x, a batch of products (batch x M x K
        by batch x K x N), and a tensor of 3 or more axes by a matrix (its leading axes one M)."""
        if isinstance(tree, ast.Call) and (len(tree.args) != 2 or tree.keywords):
            raise IntentError(ast.unparse(tree), [], "matmul(A, B) or A @ B")
        left, right = (tree.left, tree.right) if isinstance(tree, ast.BinOp) else tuple(tree.args)
        left_t, right_t = self.transposition(left), self.transposition(right)
        a, a_shape = self.array(left_t if left_t is not None else left, "a matrix product")
        b, b_shape = self.array(right_t if right_t is not None else right, "a matrix product")
        if self.dtype != "float32":
            raise IntentError(f"a matrix product in {self.dtype}", [], "float32 operands")
        if len(a_shape) >= 3 and left_t is None and right_t is None:
            if len(b_shape) == 3 and len(a_shape) == 3:
                if b_shape[0] != a_shape[0] or b_shape[1] != a_shape[2]:
                    raise IntentError(f"a batch of products of {a} {a_shape} and {b} {b_shape}", [],
                                      "batch x M x K by batch x K x N")
                return self.base(family="gemm", operation="gemm", kernel="sgemm_batched",
                                 sizes={"batch": a_shape[0], "M": a_shape[1], "N": b_shape[2], "K": a_shape[2]},
                                 inputs=[a, b])
            # A tensor of 3 or more axes by a matrix (KernelBench's 3-D and 4-D tensor-matrix products): row-major,
            # its leading axes are one M.
            a_shape = [math.prod(a_shape[:-1]), a_shape[-1]]
            folded = [f"{a}'s leading axes read as one (row-major: the same memory)"]
        else:
            folded = []
        if len(a_shape) != 2:
            raise IntentError(f"a product of a {len(a_shape)}-D {a}", [], "2-D matrices, a batch of them (3-D by 3-D) "
                                                                         "or a 3-D tensor by a matrix")
        m, k = (a_shape[1], a_shape[0]) if left_t is not None else a_shape
        if len(b_shape) == 1 and right_t is None:
            if b_shape[0] != k:
                raise IntentError(f"{a} gives {k} columns but {b} has {b_shape[0]} elements", [], f"{b}: float32[{k}]")
            return self.base(family="gemv", operation="gemv", kernel=f"gemv{'_t' if left_t is not None else ''}_{a}",
                             sizes={"rows": m, "cols": k}, inputs=[a, b], transpose_a=left_t is not None)
        if len(b_shape) != 2:
            raise IntentError(f"a product with a {len(b_shape)}-D {b}", [], "a 2-D matrix or a vector")
        n, inner = (b_shape[0], b_shape[1]) if right_t is not None else (b_shape[1], b_shape[0])
        if inner != k:
            raise IntentError(f"inner dimensions differ: {a} gives {k}, {b} {inner}", [], "matching inner dimensions")
        layout = ("t" if left_t is not None else "n") + ("t" if right_t is not None else "n")
        return self.base(family="gemm", operation="gemm", kernel=f"sgemm_{layout}", sizes={"M": m, "N": n, "K": k},
                         inputs=[a, b], transpose_a=left_t is not None, transpose_b=right_t is not None,
                         assumed=folded)

    def transposition(self, node: ast.expr) -> ast.expr | None:
        """The array a 2-D transposition (`x.T`, `transpose(x)`, `x.t()`) is of."""
        if isinstance(node, ast.Attribute) and node.attr == "T":
            return node.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "t" and \
                not node.args:
            return node.func.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("transpose", "permute"):
            return node.args[0] if node.args else None
        return None

    def transpose(self, tree: ast.expr) -> KernelSpec:
        name, shape = self.array(self.transposition(tree), "a transpose")
        axes = None
        if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name):
            extra = [ast.literal_eval(a) for a in tree.args[1:]] + \
                [ast.literal_eval(k.value) for k in tree.keywords if k.arg in ("axes", "dims")]
            if extra and all(isinstance(e, int) for e in extra):
                extra = [tuple(extra)]           # torch's x.permute(2, 0, 1)
            if len(extra) > 1 or any(k.arg not in ("axes", "dims") for k in tree.keywords):
                raise IntentError(ast.unparse(tree), [], "permute(x, (a, b, c))")
            axes = list(extra[0]) if extra else None
        if len(shape) == 2 and axes in (None, [1, 0]):
            return self.base(family="transpose", operation="transpose", kernel=f"transpose_{name}",
                             sizes={"rows": shape[0], "cols": shape[1]}, inputs=[name])
        if len(shape) == 3 and axes is not None and sorted(axes) == [0, 1, 2] and axes != [0, 1, 2]:
            return self.base(family="transpose", operation="permute", kernel=f"permute_{''.join(map(str, axes))}_{name}",
                             sizes=dict(zip(("d0", "d1", "d2"), shape)), inputs=[name], axes=axes)
        raise IntentError(f"{ast.unparse(tree)} of a {len(shape)}-D array", [f"{name}: {shape}"],
                          "x.T of a 2-D array, or permute(x, (a, b, c)) of a 3-D one moving an axis")

    def cumsum(self, call: ast.Call) -> KernelSpec:
        """cumsum or cumprod along any axis (`exclusive=`, `reverse=`) of an array or of a formula over arrays of one
        shape (`cumsum(x * mask, axis=1)`): of a vector, the one-block prefix sum; along the last axis, a scan per
        row; along another, a scan per line along it (the axes before it outer, those after it inner)."""
        product = call.func.id == "cumprod"
        scanned, expression = (call.args[0] if call.args else call), None
        if call.args and not isinstance(scanned, ast.Name):
            # A formula scanned (a masked scan, cumsum(x * mask)): its inputs all of one shape, element by element.
            expression = self.formula(scanned)
            inputs = sorted({n.id for n in ast.walk(scanned) if isinstance(n, ast.Name) and n.id in self.shapes},
                            key=expression.index)
            if len({tuple(self.shapes[n]) for n in inputs}) != 1:
                raise IntentError(f"a {call.func.id} of {ast.unparse(scanned)}", [],
                                  "a formula over inputs of one shape (no broadcasting)")
            scanned = ast.Name(id=inputs[0])
        name, shape = self.array(scanned, f"a {call.func.id}")
        inputs = [name] if expression is None else inputs
        options = self.keywords(call, {"axis": -1 if len(shape) > 1 else 0, "exclusive": False, "reverse": False})
        axis = _within(ast.literal_eval(call.args[1]) if len(call.args) == 2 else options["axis"], name, shape)
        if not isinstance(axis, int):
            raise IntentError(f"a {call.func.id} along axes {axis} of a {len(shape)}-D array", [f"{name}: {shape}"],
                              "one axis")
        if product and options["exclusive"]:
            raise IntentError("an exclusive cumprod", [f"{name}: {shape}"], "an inclusive cumprod")
        operation = "cumprod" if product else "prefix_sum"
        if axis % len(shape) != len(shape) - 1:
            axis %= len(shape)
            return self.base(family="axis_scan", operation=operation, kernel=f"{call.func.id}_axis_{name}",
                             sizes={"outer": math.prod(shape[:axis]), "extent": shape[axis],
                                    "inner": math.prod(shape[axis + 1:])}, inputs=inputs, expression=expression,
                             reverse=bool(options["reverse"]), exclusive=bool(options["exclusive"]))
        if len(shape) == 1 and expression is None and not (product or options["exclusive"] or options["reverse"]):
            return self.base(family="prefix_sum", operation="prefix_sum", kernel=f"prefix_sum_{name}",
                             sizes={"n": shape[0]}, inputs=[name])
        return self.base(family="row_scan", operation=operation, kernel=f"{call.func.id}_rows_{name}",
                         sizes={"rows": math.prod(shape[:-1]), "cols": shape[-1]}, inputs=inputs,
                         expression=expression, reverse=bool(options["reverse"]),
                         exclusive=bool(options["exclusive"]))

    def elementwise(self, tree: ast.expr) -> KernelSpec:
        formula = self.formula(tree)
        inputs = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in self.shapes},
                        key=lambda name: formula.index(name))
        full = max((self.shapes[name] for name in inputs), key=len)
        row_vectors = []
        for name in inputs:
            shape = self.shapes[name]
            if shape == full:
                continue
            if len(full) >= 2 and shape == full[-1:]:
                row_vectors.append(name)     # broadcast over the leading axes, as NumPy does
            else:
                raise IntentError(f"{name} {shape} does not broadcast to {full}", [], f"{name}: the shape {full} "
                                  f"or its last dimension")
        # Element by element, the rank does not matter: the leading axes are rows.
        sizes = {"rows": math.prod(full[:-1]), "cols": full[-1]} if row_vectors else {"n": math.prod(full)}
        return self.base(family="elementwise", operation="map", kernel=f"map_{self.output}", sizes=sizes,
                         inputs=inputs, expression=formula, row_vectors=row_vectors)

    def formula(self, node: ast.expr) -> str:
        """The expression in the generator's formula syntax (source/expr.py with its functions)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            return repr(node.value)
        if isinstance(node, ast.Name) and node.id in self.shapes:
            return node.id
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            inner = self.formula(node.operand)
            return f"(-{inner})" if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            left, right = self.formula(node.left), self.formula(node.right)
            if isinstance(node.op, ast.Pow):
                return f"({left} * {left})" if right in ("2", "2.0") else f"pow({left}, {right})"
            ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}
            if type(node.op) not in ops:
                raise IntentError(f"operator '{ast.unparse(node)}'", [], GENERATED)
            return f"({left} {ops[type(node.op)]} {right})"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return self.call(node)
        raise IntentError(f"'{ast.unparse(node)}' is not generated", [], GENERATED)

    def call(self, node: ast.Call) -> str:
        name = node.func.id
        args = [self.formula(a) for a in node.args]
        if name == "gelu":
            # PyTorch's gelu: the exact (erf) form unless approximate='tanh'.
            options = self.keywords(node, {"approximate": "none"})
            if options["approximate"] not in ("none", "tanh"):
                raise IntentError(f"gelu(approximate='{options['approximate']}')", [], "approximate='none' or 'tanh'")
            name = "gelu_tanh" if options["approximate"] == "tanh" else "gelu_erf"
            node = ast.Call(func=ast.Name(id=name), args=node.args, keywords=[])
        if name in ("clip", "clamp"):
            # np.clip(x, lo, hi) and torch.clamp(x, min=lo, max=hi): hardtanh between the two bounds; one bound
            # alone is another formula, said as maximum(x, lo) or minimum(x, hi).
            words = {"a_min": "min", "a_max": "max", "min": "min", "max": "max"}
            bounds = dict(zip(("min", "max"), node.args[1:])) | {words.get(k.arg, k.arg): k.value for k in node.keywords}
            if len(node.args) > 3 or set(bounds) != {"min", "max"} or None in (
                    getattr(bounds[b], "value", 0) for b in bounds):
                raise IntentError(ast.unparse(node), [], f"{name}(x, lo, hi) with both bounds (or maximum(x, lo), "
                                                         "minimum(x, hi))")
            name = "hardtanh"
            node = ast.Call(func=ast.Name(id=name), args=[node.args[0], bounds["min"], bounds["max"]], keywords=[])
        if name in ACTIVATIONS:
            defaults, body = ACTIVATIONS[name]
            if not node.args or len(node.args) - 1 > len(defaults):
                raise IntentError(ast.unparse(node), [], f"{name}(x{''.join(', ' + k for k in defaults)})")
            values = dict(defaults)
            values.update({key: ast.literal_eval(value) for key, value in zip(defaults, node.args[1:])})
            given = {k.arg for k in node.keywords}
            values.update({k: v for k, v in self.keywords(node, defaults).items() if k in given})
            operands = {"x": node.args[0], **{k: ast.Constant(value=float(v)) for k, v in values.items()}}

            class Operands(ast.NodeTransformer):
                def visit_Name(self, name: ast.Name) -> ast.expr:
                    return operands.get(name.id, name)

            return f"({self.formula(Operands().visit(ast.parse(body, mode='eval').body))})"
        if node.keywords:
            raise IntentError(f"keywords of {name}()", [], f"{name}(...) without keywords")
        if name in ("max", "min", "amax", "amin", *REDUCTIONS):
            raise IntentError(f"{ast.unparse(node)} inside a formula (a reduction, as in NumPy)", [],
                              "maximum(a, b) or minimum(a, b) element by element; a reduction as the whole expression")
        if name in ("maximum", "minimum"):
            name = name[:3]
        if name not in FUNCTIONS:
            raise IntentError(f"'{name}' is not an operation OptiML generates", [], GENERATED)
        two = name in ("max", "min", "pow")
        if len(args) != (2 if two else 1):
            raise IntentError(ast.unparse(node), [], f"{ast.unparse(node.func)}() with {'two arguments' if two else 'one argument'}")
        return f"{name}({', '.join(args)})"


SPEC_OPERATIONS = {"l2norm": "norm", "layernorm": "layer_norm", "rmsnorm": "rms_norm", "batchnorm": "batch_norm",
                   "l1normalize": "l1_normalize", "l2normalize": "l2_normalize"}


def spec_form(spec: KernelSpec) -> str | None:
    """The spec form that states `spec` exactly (what an intent in words was read as); None for the families the
    form does not express yet (stencils, histograms)."""
    dtype = spec.dtype
    sizes = spec.sizes
    name = SPEC_OPERATIONS.get(spec.operation, spec.operation)
    out, inputs = spec.output, spec.inputs

    def declared(array: str, *dims: int) -> str:
        return f"{array}: {dtype}[{', '.join(str(d) for d in dims)}]"

    two_d = (sizes.get("rows"), sizes.get("cols"))
    if spec.family == "elementwise" and spec.column_vectors:
        vector, matrix = inputs
        return f"{out} = diag({vector}) @ {matrix}; {declared(vector, two_d[0])}; {declared(matrix, *two_d)}"
    if spec.family == "elementwise":
        formula = re.sub(r"\b(max|min)\(", lambda m: m.group(1) + "imum(", spec.expression or "")
        shapes = [declared(a, two_d[1]) if a in spec.row_vectors else
                  declared(a, *two_d) if "rows" in sizes else declared(a, sizes["n"]) for a in inputs]
        return "; ".join([f"{out} = {formula}", *shapes])
    reduced = re.sub(r"\b(max|min)\(", lambda m: m.group(1) + "imum(", spec.expression) if spec.expression \
        else inputs[0]
    if spec.family in ("row_reduction", "column_reduction"):
        axis = 1 if spec.family == "row_reduction" else 0
        return "; ".join([f"{out} = {name}({reduced}, axis={axis})", *(declared(a, *two_d) for a in inputs)])
    if spec.family == "global_reduction":
        return "; ".join([f"{out} = {name}({reduced})", *(declared(a, sizes["n"]) for a in inputs)])
    if spec.family == "middle_reduction":
        dims = (sizes["outer"], sizes["extent"], sizes["inner"])
        return f"{out} = {name}({inputs[0]}, axis=1); {declared(inputs[0], *dims)}"
    if spec.family == "row_normalization" and "groups" in sizes:
        groups, inner = sizes["groups"], sizes["inner"]
        channels = groups * sizes["cols"] // inner
        affine = [f"{role}={array}" for role, array in zip(("weight", "bias"), inputs[1:])]
        return "; ".join([f"{out} = group_norm({', '.join([inputs[0], str(groups), *affine])}, "
                          f"eps={spec.scalars['eps']!r})", declared(inputs[0], sizes["rows"] // groups, channels, inner),
                          *(declared(a, channels) for a in inputs[1:])])
    if spec.family in ("axis_normalization", "row_normalization", "batch_normalization"):
        eps = f"eps={spec.scalars['eps']!r}" if "eps" in spec.scalars else ""
        along = spec.family != "row_normalization"
        dims = (sizes["outer"], sizes["extent"], sizes["inner"]) if along else two_d
        axis = "" if spec.family == "batch_normalization" else f"axis={1 if along else -1}"
        affine = [f"{role}={array}" for role, array in zip(("weight", "bias"), inputs[1:])]
        arguments = ", ".join(a for a in [inputs[0], axis, eps, *affine] if a)
        return "; ".join([f"{out} = {name}({arguments})", declared(inputs[0], *dims),
                          *(declared(a, dims[1]) for a in inputs[1:])])
    if spec.family == "transpose" and spec.operation == "transpose":
        return f"{out} = {inputs[0]}.T; {declared(inputs[0], *two_d)}"
    if spec.family == "transpose":
        order = ", ".join(map(str, spec.axes))
        return f"{out} = {inputs[0]}.permute({order}); {declared(inputs[0], sizes['d0'], sizes['d1'], sizes['d2'])}"
    if spec.family == "gemm":
        a, b = inputs
        m, n, k = sizes["M"], sizes["N"], sizes["K"]
        if "batch" in sizes:
            return f"{out} = {a} @ {b}; {declared(a, sizes['batch'], m, k)}; {declared(b, sizes['batch'], k, n)}"
        left = (f"{a}.T", (k, m)) if spec.transpose_a else (a, (m, k))
        right = (f"{b}.T", (n, k)) if spec.transpose_b else (b, (k, n))
        product = f"{left[0]} @ {right[0]}"
        if spec.triangle:
            product = f"{'triu' if spec.triangle == 'upper' else 'tril'}({product})"
        return f"{out} = {product}; {declared(a, *left[1])}; {declared(b, *right[1])}"
    if spec.family == "gemv":
        a, x = inputs
        if spec.transpose_a:
            return f"{out} = {a}.T @ {x}; {declared(a, two_d[1], two_d[0])}; {declared(x, two_d[1])}"
        return f"{out} = {a} @ {x}; {declared(a, *two_d)}; {declared(x, two_d[1])}"
    if spec.family == "prefix_sum":
        return f"{out} = cumsum({inputs[0]}); {declared(inputs[0], sizes['n'])}"
    if spec.family == "pooling":
        axes = len(spec.window)
        options = [f"kernel_size={tuple(spec.window)}", f"stride={tuple(spec.stride)}",
                   f"padding={tuple(spec.padding)}"]
        if spec.operation == "max_pool":
            options.append(f"dilation={tuple(spec.dilation)}")
        return (f"{out} = {spec.operation}{axes}d({inputs[0]}, {', '.join(options)}); "
                f"{declared(inputs[0], *sizes.values())}")
    if spec.family in ("convolution", "transposed_convolution"):
        transposed = spec.family == "transposed_convolution"
        x, w, *bias = inputs
        spatial = [value for name, value in sizes.items() if name not in ("n", "cin", "cout")]
        channels = (sizes["cin"], sizes["cout"] // spec.groups) if transposed else \
            (sizes["cout"], sizes["cin"] // spec.groups)
        declarations = [declared(x, sizes["n"], sizes["cin"], *spatial), declared(w, *channels, *spec.window),
                        *(declared(b, sizes["cout"]) for b in bias)]
        options = [f"stride={tuple(spec.stride)}", f"padding={tuple(spec.padding)}",
                   *([f"output_padding={tuple(spec.output_padding)}"] if transposed else []),
                   f"dilation={tuple(spec.dilation)}", f"groups={spec.groups}"]
        function = f"conv{'_transpose' if transposed else ''}{len(spec.window)}d"
        return f"{out} = {function}({', '.join([x, w, *bias])}, {', '.join(options)}); {'; '.join(declarations)}"
    if spec.family == "row_pair_loss":
        margin = "".join(f", {k}={v!r}" for k, v in spec.scalars.items())
        return (f"{out} = {spec.operation}({', '.join(inputs)}{margin}, reduction='{spec.reduction}'); "
                + "; ".join(declared(a, *two_d) for a in inputs))
    if spec.family == "cross_entropy":
        x, t = inputs
        return (f"{out} = cross_entropy({x}, {t}, reduction='{spec.reduction}'); {declared(x, *two_d)}; "
                f"{t}: int32[{sizes['rows']}]")
    if spec.family in ("row_scan", "axis_scan"):
        flags = "".join(f", {flag}=True" for flag in ("exclusive", "reverse") if getattr(spec, flag))
        scan = "cumprod" if spec.operation == "cumprod" else "cumsum"
        along = spec.family == "axis_scan"
        dims = (sizes["outer"], sizes["extent"], sizes["inner"]) if along else two_d
        return "; ".join([f"{out} = {scan}({reduced}, axis={1 if along else -1}{flags})",
                          *(declared(a, *dims) for a in inputs)])
    return None
