"""An intent in words translated into the spec form (generate/spec.py), never beyond it.

The translation reads three things and nothing else: one operation (a name from the vocabulary below, with the
parameters the vocabulary gives it: a slope, an axis, an epsilon, a scalar), the shapes of its operands, and an
element type. Every number and every operation word of the intent must be used by that reading, or the intent is
refused naming what was left over; a parameter the intent does not give takes its default and is listed as assumed.
The spec it writes is then read by the spec form's own parser, so the words add no operation of their own:

    "leaky ReLU (negative_slope=0.2) of a 1024 x 1024 matrix"  ->  y = leaky_relu(x, 0.2); x: float32[1024, 1024]
    "torch.sum(x, dim=2) for x of shape (32, 128, 1024)"        ->  y = sum(x, axis=2); x: float32[32, 128, 1024]
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from optiml_engine.generate.intent import (
    DESCRIBING_ONE, ELEMENTWISE, OPERAND_WORDS, IntentError, refuse_other_norm, unexplained_word, words_allowed)
from optiml_engine.generate.spec import class_targets, parse_spec

_NUM = r"-?\d+(?:\.\d+)?(?:[eE]-?\d+)?"
_INT = r"\d+"
# Shapes, each a list of dimensions: 64 x 512 x 256, (16, 256, 256), [8, 65536], 128*2048.
SHAPE_PATTERNS = (     # a shape may end a sentence ("x: 16 x 16384."), not a decimal
    re.compile(rf"(?<![\w.])({_INT}(?:\s*[x×]\s*{_INT})+)(?!\w|\.\d)"),
    re.compile(rf"[(\[]\s*({_INT}(?:\s*,\s*{_INT})+)\s*,?\s*[)\]]"),
    re.compile(rf"(?<![\w.*])({_INT}(?:\s*\*\s*{_INT})+)(?![\w*]|\.\d)"),
    re.compile(rf"[(\[]\s*({_INT})\s*,\s*[)\]]"),          # a 1-D shape as Python writes it: (4096,)
    re.compile(rf"((?:\[\s*{_INT}\s*\]){{2,}})"),                  # as C declares an array: [2048][8192]
)
ROWS_OF = re.compile(rf"\b({_INT})\s+rows\s+(?:of|with|by)\s+({_INT})\s*(?:floats|doubles|elements|columns|values)?|"
                     rf"\b({_INT})\s+tokens?\s+(?:with|of|and|x)\s+(?:a\s+)?hidden\s+(?:size|dim(?:ension)?)\s*"
                     rf"(?:of\s+|=\s*)?({_INT})\b")      # a transformer's activations: tokens x hidden size
LENGTH = re.compile(rf"(?:\blength\s*=?\s*|\b(?:of|on|over)\s+({_INT})\s+(?:(?:float32|fp32|float64|fp64|int32)\s+)?"
                    rf"(?:floats|doubles|ints|elements|entries|values)\b|"
                    rf"\b({_INT})[- ](?:element|entry)\b|\bn\s*=\s*)({_INT})?", re.IGNORECASE)
SQUARE = re.compile(rf"\bN\s*=\s*({_INT})\b")
# A shape written with named dimensions and their values elsewhere: "[B, N], B = 128, N = 65536",
# "(N, C) where N = 1024 and C = 8192", "N x C x H x W, N = 16, C = 64, H = W = 32".
_DIMENSION = r"[A-Za-z]\w{0,2}"
NAMED_SHAPES = (re.compile(rf"[(\[]\s*{_DIMENSION}(?:\s*,\s*{_DIMENSION})+\s*[)\]]"),
                re.compile(rf"(?<![\w.])(?:{_DIMENSION}\s*[x×]\s*)+{_DIMENSION}(?![\w.])"))
DIMENSION_VALUES = re.compile(rf"\b((?:{_DIMENSION}\s*=\s*)+)({_INT})\b")
SUFFIXED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*([kKmMgG])(?![a-zA-Z])")
POWER = re.compile(r"(?<![\w.])(?:(\d+)\s*<<\s*(\d+)|2\s*(?:\^|\*\*)\s*(\d+))(?![\w.])")   # 1 << 22, 2^20
NUMBER = re.compile(rf"(?<![\w.])({_NUM})(?![\w])")
SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]\+?(\d+)(?![\w.])")      # 1e6, 2.5e5: integers when whole
# A shape whose dimensions are named and given in place: [B=32, T=128, C=768].
VALUED_DIMENSIONS = re.compile(rf"[(\[]\s*{_DIMENSION}\s*=\s*{_INT}(?:\s*,\s*{_DIMENSION}\s*=\s*{_INT})+\s*[)\]]")
RANK = re.compile(r"(?<![\w.])(\d)\s*-?\s*[dD]\b")                                   # "3-D", "2d"
RESTATED = re.compile(rf"(?<![\w.])({_INT})\s+(?:entries|elements|values|rows|columns|cols|channels)\b")
DTYPE_WORDS = (("float64", r"double|doubles|fp64|float64"), ("int32", r"int|ints|int32|integers?"),
               ("float32", r"float|floats|fp32|float32|single"))
UNSUPPORTED_DTYPES = re.compile(r"\b(half|fp16|float16|bf16|bfloat16|int8|uint8|int64|fp8)\b", re.IGNORECASE)
# Operations the spec form does not generate: named in the refusal rather than read as something else.
NOT_GENERATED = re.compile(
    r"\b(sort\w*|top-?k|binary cross[- ]?entropy|bce(?:loss)?|"
    r"attention|gather|scatter|dropout|embedding|fft|histogram\w*|stencil|blur)\b",
    re.IGNORECASE)


class Contradiction(IntentError):
    """The intent says something its operation cannot be: operands whose sizes do not fit it, an axis its array
    lacks, a word changing the value that no reading here reads (VALUE_WORDS: the families' reader, which read the
    intent without it, has not read it either). Another reader's reading of it is refused too. Other words or
    numbers this translation leaves over are only its own limit: a formula the families' reader reads may hold
    several."""


@dataclass
class _Reading:
    """The intent's text with what the translation has used marked, so that what is left can be refused."""

    text: str
    used: list[bool] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    found_shapes: list[list[int]] | None = None

    def __post_init__(self) -> None:
        self.used = [False] * len(self.text)

    def take(self, match: re.Match, group: int = 0) -> re.Match:
        for i in range(match.start(group), match.end(group)):
            self.used[i] = True
        return match

    def search(self, pattern: re.Pattern | str) -> re.Match | None:
        pattern = re.compile(pattern, re.IGNORECASE) if isinstance(pattern, str) else pattern
        return next((m for m in pattern.finditer(self.text) if not any(self.used[m.start():m.end()])), None)

    def take_search(self, pattern: re.Pattern | str) -> re.Match | None:
        found = self.search(pattern)
        return self.take(found) if found else None

    def parameter(self, names: str, default: float, describe: str) -> str:
        """A number the intent gives after one of `names` ('negative_slope=0.2', 'alpha 0.5'), else the default,
        assumed."""
        found = self.take_search(rf"\b(?:{names})\b\s*(?:=|:|of|is)?\s*\(?\s*({_NUM})")
        if found is None:
            self.assumed.append(f"{describe} {default:g} (not given)")
            return f"{default:g}"
        return found.group(1)

    def shapes(self) -> list[list[int]]:
        """The shapes the intent writes (read once, after the operation's parameters); refused when none."""
        if self.found_shapes is None:
            self.found_shapes = _shapes(self)
        if not self.found_shapes:
            raise IntentError("no shape given", [], "the shape, e.g. '4096 x 1024' or '(16, 256, 256)'")
        return self.found_shapes

    def left_over(self, pattern: re.Pattern) -> list[str]:
        return [m.group(0) for m in pattern.finditer(self.text) if not all(self.used[m.start():m.end()])]


@dataclass(frozen=True)
class _Operation:
    """A name of the vocabulary and how it becomes the spec: `write(reading, match)` takes its parameters from the
    text, then the shapes (so that a bracketed parameter is not read as one), and returns the assignment and the
    operands' shapes, in the order the assignment names them."""

    pattern: re.Pattern
    write: Callable[[_Reading, re.Match], tuple[str, list[list[int]]]]
    takes: tuple[int | str, ...] = (0,)     # the groups of the name's match that are the name (not a shape inside)


def _words(*alternatives: str) -> re.Pattern:
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


def _one(reading: _Reading, what: str) -> list[int]:
    shapes = reading.shapes()
    if len(shapes) != 1:
        raise Contradiction(f"{what} of {len(shapes)} shapes", [], f"the shape of the one input of {what}")
    return shapes[0]


def _unary(call: str) -> Callable:
    def write(reading: _Reading, match: re.Match) -> tuple[str, list[list[int]]]:
        return f"y = {call}", [_one(reading, call.split('(')[0])]
    return write


def _leaky_relu(reading: _Reading, match):
    slope = reading.parameter(r"negative[_ ]slope|slope|alpha", 0.01, "negative slope")
    return f"y = leaky_relu(x, {slope})", [_one(reading, "leaky_relu")]


def _elu(reading: _Reading, match):
    return f"y = elu(x, {reading.parameter('alpha', 1.0, 'alpha')})", [_one(reading, "elu")]


BOUNDS = rf"(?:\[\s*({_NUM})\s*,\s*({_NUM})\s*\]|between\s+({_NUM})\s+and\s+({_NUM}))"


def _hardtanh(reading: _Reading, match):
    """hardtanh with its bounds (PyTorch's -1 and 1 where none are said), or a clamp or clip, which has no default
    bounds: 'clamp x to [0, 6]', 'clip x between -1 and 1', 'clamp(x, min=0, max=6)'."""
    bounds = reading.take_search(BOUNDS)
    if bounds is not None:
        low, high = [g for g in bounds.groups() if g is not None]
    elif re.match(r"cl", match.group(0), re.IGNORECASE):
        low_said = reading.take_search(rf"\bmin\s*=\s*({_NUM})")
        high_said = reading.take_search(rf"\bmax\s*=\s*({_NUM})")
        if low_said is None or high_said is None:
            raise IntentError("a clamp without both its bounds", ["operation clamp"], "'clamp x to [0, 6]'")
        low, high = low_said.group(1), high_said.group(1)
    else:
        low = reading.parameter(r"min(?:_val)?|minimum|lower", -1.0, "lower bound")
        high = reading.parameter(r"max(?:_val)?|maximum|upper", 1.0, "upper bound")
    return f"y = hardtanh(x, {float(low)!r}, {float(high)!r})", [_one(reading, "hardtanh")]


def _gelu(reading: _Reading, match):
    """GELU in words names its form: 'tanh approximation', or 'exact' / 'erf' (both are in use, and a bare 'GELU'
    is either: PyTorch's default is erf, GPT-2's tanh)."""
    if reading.take_search(_words(r"tanh(?:[- ]approx\w*)?", r"approximate\s*=\s*['\"]?tanh['\"]?")) is not None:
        reading.take_search(_words(r"approx\w*"))
        return "y = gelu(x, approximate='tanh')", [_one(reading, "gelu")]
    if reading.take_search(_words("exact", "erf", r"erf[- ]based", r"approximate\s*=\s*['\"]?none['\"]?")) is not None:
        return "y = gelu(x)", [_one(reading, "gelu")]
    raise IntentError("GELU without its form", ["operation gelu"],
                      "'exact GELU' (erf), 'GELU tanh approximation', or the spec form")


def _scalar(operator: str) -> Callable:
    def write(reading: _Reading, match):
        value = match.group("value")
        if value is None:
            raise IntentError("a scalar operation without its scalar", [], "the number, e.g. 'scale x by 0.5'")
        return f"y = x {operator} {value}", [_one(reading, "a scalar operation")]
    return write


def _pair(reading: _Reading, what: str) -> list[list[int]]:
    """Two operands of one shape ('both 256 x 1024', 'two 100 x 100 matrices': one shape written for both)."""
    shapes = reading.shapes()
    if len(shapes) == 1:
        shapes = shapes * 2
    if len(shapes) != 2 or shapes[0] != shapes[1]:
        raise Contradiction(f"{what} of operands of different shapes", [], "two operands of one shape")
    return shapes


def _binary(operator: str) -> Callable:
    def write(reading: _Reading, match):
        return f"y = a {operator} b", _pair(reading, "an elementwise operation")
    return write


def _bias(reading: _Reading, match):
    shapes = reading.shapes()
    if len(shapes) != 2 or len(shapes[0]) == len(shapes[1]):
        raise IntentError("a bias without a matrix and a vector", [], "the matrix's and the bias's shapes")
    matrix, bias = sorted(shapes, key=len, reverse=True)
    if bias != matrix[-1:]:
        raise Contradiction(f"a bias of length {bias[0]} for rows of {matrix[-1]}", [], "matching lengths")
    return "y = x + b", [matrix, bias]


AXIS_PHRASES: tuple[tuple[str, Callable[[int], tuple[int, ...] | None]], ...] = (
    (r"(?:dims?|dimensions?|axis|axes)\s*=?\s*\(?\s*(-?\d)\s*(?:,|and)\s*(-?\d)\s*\)?", None),   # two axes: below
    (r"(?:dim|dimension|axis)\s*=?\s*(-?\d)", None),
    (r"(?:each|every|per|of each|for each)\s+rows?|row-?wise|rows?wise|along\s+(?:the\s+)?rows?|"
     r"(?:over|along|across)\s+(?:the\s+)?(?:\w+\s+\(last\)|last|hidden)\s+(?:axis|dim\w*|size)",
     lambda rank: (rank - 1,)),
    (r"(?:each|every|per|of each|for each)\s+col(?:umn)?s?|col(?:umn)?-?wise|along\s+(?:the\s+)?col(?:umn)?s?",
     lambda rank: (0,) if rank == 2 else None),
    (r"(?:over|along|across)\s+(?:the\s+|its\s+)?middle\s+(?:axis|dim\w*)", lambda rank: (1,) if rank == 3 else None),
    (r"(?:over|along|across)\s+(?:the\s+)?first\s+(?:axis|dim\w*)", lambda rank: (0,)),
    (r"(?:of\s+)?all\s+(?:the\s+)?(?:(\d+)\s+)?(?:elements|entries|values)|\btotal\b|\bwhole\b|\bentire\b|\bglobal\b",
     lambda rank: ()),
    # A reduction's axis as an adjective ('row sums', 'column maxima'): beside an axis said otherwise, the same one.
    (r"\brows?(?=\s+(?:sums?|means?|averages?|max\w*|min\w*|norms?|products?|arg\w+)\b)", lambda rank: (rank - 1,)),
    (r"\bcol(?:umn)?s?(?=\s+(?:sums?|means?|averages?|max\w*|min\w*|norms?|products?|arg\w+)\b)",
     lambda rank: (0,) if rank == 2 else None),
)


def _axis_phrase(reading: _Reading) -> tuple[re.Match, Callable | None] | None:
    """The words naming the axes (taken before the shapes, so that 'dims (1, 2)' is not read as a shape)."""
    for phrase, resolve in AXIS_PHRASES:
        found = reading.take_search(re.compile(phrase, re.IGNORECASE))
        if found is not None:
            return found, resolve
    return None


def _axes(phrase: tuple[re.Match, Callable | None] | None, rank: int, what: str) -> tuple[int, ...] | None:
    """The axes a reduction or normalization runs over, as the intent says them; None when it does not."""
    if phrase is None:
        return None
    found, resolve = phrase
    if resolve is None:
        axes = tuple(int(g) % rank if -rank <= int(g) < rank else rank for g in found.groups() if g is not None)
        if any(a >= rank for a in axes):
            raise Contradiction(f"{what} over an axis a {rank}-D array lacks", [], f"an axis below {rank}")
        return axes
    axes = resolve(rank)
    if axes is None:
        raise IntentError(f"'{found.group(0)}' of a {rank}-D array", [], "the axis by number, e.g. 'dim=1'")
    return axes


def _shape_and_axes(reading: _Reading, function: str) -> tuple[list[int], tuple[int, ...] | None]:
    """The one operand's shape and the axes the intent names for it (None: none named). Axes said twice ('row sums
    (axis=1)') must be the same, and a count of all its elements its size: either is a contradiction otherwise."""
    phrase = _axis_phrase(reading)
    shape = _one(reading, function)
    axes = _axes(phrase, len(shape), function)
    while (again := _axis_phrase(reading)) is not None:
        if _axes(again, len(shape), function) != axes:
            raise Contradiction(f"'{phrase[0].group(0)}' and '{again[0].group(0)}' name different axes", [],
                                "one axis, said once")
    counted = [int(g) for g in phrase[0].groups() if g is not None] if phrase is not None and phrase[1] else []
    if counted and counted[0] != math.prod(shape):
        raise Contradiction(f"'{phrase[0].group(0)}' of a {shape} array of {math.prod(shape)} elements", [],
                            "the count the shape has, or none")
    return shape, axes


def _reduction(function: str) -> Callable:
    def write(reading: _Reading, match):
        if function == "norm":
            refuse_other_norm(reading.text, [f"operation {function}"])
        shape, axes = _shape_and_axes(reading, function)
        if axes is None:
            if len(shape) > 1:
                raise IntentError(f"{function} of a {len(shape)}-D array without its axis", [f"operation {function}"],
                                  "'over dim 1', 'of each row', 'of all elements'...")
            axes = ()
        if not axes:
            return f"y = {function}(x)", [shape]
        axis = str(axes[0]) if len(axes) == 1 else f"({', '.join(map(str, axes))})"
        return f"y = {function}(x, axis={axis})", [shape]
    return write


def _dot(reading: _Reading, match):
    shapes = _pair(reading, "a dot product")
    if len(shapes[0]) != 1:
        raise Contradiction(f"a dot product of {len(shapes[0])}-D operands", [], "two vectors")
    return "y = sum(a * b)", shapes


AXIS_NAMES = re.compile(r"\b(?:channels?|batch(?:es)?|height|width|spatial|depth|time(?:steps?)?|sequence|features?|"
                        r"tokens?|heads?|pixels?|(?:last|first) (?:two|three|four|\d+) (?:dim\w*|ax[ie]s))\b",
                        re.IGNORECASE)


def _normalization(function: str, eps: float | None) -> Callable:
    """Along one axis (the last when none is given, said as assumed); `eps`: the default epsilon, None when the
    operation has none."""
    def write(reading: _Reading, match):
        shape, axes = _shape_and_axes(reading, function)
        if axes is None and (named := reading.search(AXIS_NAMES)) is not None:
            # 'softmax over the channels of x (8, 32, 16, 16)': an axis said by what it holds is given, not absent.
            raise Contradiction(f"'{named.group(0)}' names an axis by what it holds", [f"operation {function}"],
                                "the axis by number, e.g. 'over dim 1'")
        if axes is None and function in ("softmax", "log_softmax") and len(shape) > 1:
            # Which axis a softmax of a matrix runs along is the framework's default: PyTorch's implicit dim is the
            # last, SciPy's the whole array. A layer norm's is the last in every one.
            raise Contradiction(f"a {function} of a {len(shape)}-D array without its axis", [f"operation {function}"],
                                "'over dim 1', 'of each row', 'along the last axis'...")
        if axes is None:
            reading.assumed.append(f"{function} over the last axis (no axis given)")
            axes = (len(shape) - 1,)
        if len(axes) != 1:
            raise IntentError(f"{function} over several axes", [], "one axis")
        if eps is None:
            return f"y = {function}(x, axis={axes[0]})", [shape]
        epsilon = reading.parameter(r"eps|epsilon", eps, "epsilon")
        return f"y = {function}(x, axis={axes[0] - len(shape)}, eps={float(epsilon)!r})", [shape]
    return write


def _instance_norm(reading: _Reading, match):
    epsilon = reading.parameter(r"eps|epsilon", 1e-5, "epsilon")
    shape = _one(reading, "instance_norm")
    return f"y = instance_norm(x, eps={float(epsilon)!r})", [shape]


def _batch_norm(reading: _Reading, match):
    """'BatchNorm2d on (16, 64, 256, 256)': training-mode statistics (a BatchNorm layer's forward as first called);
    running statistics (inference) are not generated and refused by name."""
    running = reading.search(_words(r"running (?:mean|var\w*|stat\w*)", "inference", r"eval(?:uation)? mode"))
    if running is not None:
        raise IntentError(f"batch norm with {running.group(0)}", ["operation batch norm"],
                          "batch norm with the batch's own statistics (training mode)")
    epsilon = reading.parameter(r"eps|epsilon", 1e-5, "epsilon")
    shape = _one(reading, "batch_norm")
    return f"y = batch_norm(x, eps={float(epsilon)!r})", [shape]


def _group_norm(reading: _Reading, match):
    groups = reading.take_search(r"\b(\d+)\s+groups\b|\b(?:num_)?groups\s*=?\s*(\d+)")
    if groups is None:
        raise IntentError("group norm without its number of groups", ["operation group norm"], "'with 8 groups'")
    epsilon = reading.parameter(r"eps|epsilon", 1e-5, "epsilon")
    shape = _one(reading, "group_norm")
    count = next(g for g in groups.groups() if g is not None)
    return f"y = group_norm(x, {count}, eps={float(epsilon)!r})", [shape]


def _parameterized_loss(function: str, parameter: str) -> Callable:
    def write(reading: _Reading, match):
        value = reading.parameter(parameter, 1.0, parameter)
        return f"l = {function}(a, b, {parameter}={value}{_loss_reduction(reading)})", _pair(reading, function)
    return write


# How an element loss combines its elements, said: PyTorch's reduction argument, with or without its '=' and quotes.
ELEMENT_LOSS_REDUCTION = _words(r"reduction\s*=?\s*['\"]?(?:mean|sum)['\"]?", r"summed over (?:all|every) elements?",
                                r"(?:mean|averaged?) over (?:all|every) elements?")


def _loss_reduction(reading: _Reading) -> str:
    """', reduction='sum'' where the intent says the sum; nothing for the mean, said or not (PyTorch's default)."""
    said = reading.take_search(ELEMENT_LOSS_REDUCTION)
    return ", reduction='sum'" if said is not None and "sum" in said.group(0) else ""


def _kl_divergence(reading: _Reading, match):
    """'KL divergence between predictions and targets, both (128, 4096)': PyTorch's kl_div of the predictions' log
    (KernelBench's kl_div(torch.log(predictions), targets)), per sample ('batchmean': the sum over the batch's
    length) unless the intent says the sum or the mean over every element; predictions given as log-probabilities
    are taken as they are. The operands must be named as predictions and targets: 'the KL divergence of p and q' is
    KL(p || q) to a mathematician and kl_div(log(q), p) to PyTorch."""
    if reading.search(_words(r"predict\w*", r"inputs?", r"log[- ]?prob\w*")) is None or \
            reading.search(_words(r"targets?", r"labels?")) is None:
        raise IntentError("a KL divergence whose operands are not named as predictions and targets",
                          ["operation KL divergence"], "'KL divergence between predictions and targets, both "
                          "(128, 4096)', or l = kl_div(log(p), t, reduction='batchmean'); p: ...; t: ...")
    logs = reading.take_search(_words(r"log[- ]?(?:probabilities|probs|predictions)", r"log[- ]space")) is not None
    if reading.take_search(_words(r"batch[- ]?mean", r"per sample", r"(?:mean|averaged?) over the batch")):
        reduction = "batchmean"
    elif reading.take_search(_words(r"sum(?:med)? over (?:all|every) elements?", r"reduction\s*=?\s*'?sum'?")):
        reduction = "sum"
    elif reading.take_search(_words(r"(?:mean|averaged?) over (?:all|every) elements?", r"element-?wise mean")):
        reduction = "mean"
    else:
        reduction = "batchmean"
        reading.assumed.append("reduction 'batchmean', the sum over the batch's length (not given)")
    if not logs:
        reading.assumed.append("the predictions are probabilities: their log is taken (not said to be logs)")
    first = "a" if logs else "log(a)"
    return f"l = kl_div({first}, b, reduction='{reduction}')", _pair(reading, "a KL divergence")


def _cross_entropy(reading: _Reading, match):
    """'cross entropy of logits (4096, 1000) and targets': PyTorch's cross_entropy, the targets a class index per
    row (their shape is the logits' rows when not written); the mean over rows unless the intent says summed."""
    summed = reading.take_search(_words(r"summed(?: over (?:all )?(?:rows|samples|the batch))?",
                                        r"reduction\s*=?\s*'?sum'?")) is not None
    shapes = reading.shapes()
    if len(shapes) == 1 and len(shapes[0]) == 2:
        shapes = [shapes[0], shapes[0][:1]]
    if len(shapes) != 2 or len(shapes[0]) != 2 or shapes[1] != shapes[0][:1]:
        raise Contradiction("a cross entropy without logits rows x classes and one target per row",
                            ["operation cross entropy"],
                            "'logits (4096, 1000) and targets (4096,)'")
    reading.assumed.append("the targets are class indices, one per row (int32)")
    return f"l = cross_entropy(x, t, reduction='{'sum' if summed else 'mean'}')", shapes


def _triplet_margin(reading: _Reading, match):
    """'triplet margin loss (margin 1.0) of anchors, positives and negatives, each (128, 4096)': PyTorch's, p=2."""
    margin = reading.parameter("margin", 1.0, "margin")
    shapes = reading.shapes()
    if len(shapes) == 1:
        shapes = shapes * 3
    if len(shapes) != 3 or len({tuple(s) for s in shapes}) != 1 or len(shapes[0]) != 2:
        raise Contradiction("a triplet margin loss without anchors, positives and negatives of one rows x cols shape",
                            ["operation triplet margin loss"], "'anchor, positive and negative, each (128, 4096)'")
    return f"l = triplet_margin_loss(a, p, n, margin={margin})", shapes


def _cosine_loss(reading: _Reading, match):
    """'cosine similarity loss between predictions and targets (128, 4096)': the mean over rows of 1 - their cosine
    similarity (KernelBench's torch.mean(1 - F.cosine_similarity(p, t, dim=1)))."""
    shapes = _pair(reading, "a cosine similarity loss")
    if len(shapes[0]) != 2:
        raise Contradiction(f"a cosine similarity loss of {len(shapes[0])}-D operands", [
            "operation cosine similarity loss"], "rows x cols operands")
    return "l = cosine_similarity_loss(a, b)", shapes


def _pooling(kind: str) -> Callable:
    """'max pooling 2x2 stride 2', 'avg_pool1d kernel 4 padding 1', 'MaxPool3d(kernel_size=3, stride=2)'. The
    number of spatial axes comes from the name (1d, 2d, 3d) or the kernel (3x3); the stride defaults to the kernel,
    as in PyTorch."""
    def write(reading: _Reading, match):
        sizes, axes = _window(reading, match, f"{kind} pooling", f"{kind} pooling",
                              "'2x2 max pooling', 'kernel_size=3'", "'max_pool2d', or the kernel per axis: '3x3'")
        options = {"kernel_size": sizes[0] if len(sizes) == 1 else tuple(sizes),
                   **_keyword_values(reading, ("stride", "padding") + (("dilation",) if kind == "max" else ()))}
        shape = _one(reading, f"{kind} pooling")
        arguments = ", ".join(f"{key}={value}" for key, value in options.items())
        return f"y = {kind}_pool{axes}d(x, {arguments})", [shape]
    return write


_SHAPE_TEXT = (rf"\(\s*{_INT}(?:\s*,\s*{_INT})+\s*,?\s*\)|\[\s*{_INT}(?:\s*,\s*{_INT})+\s*\]|"
               rf"{_INT}(?:\s*[x×]\s*{_INT})+")


def _window(reading: _Reading, name: re.Match, said: str, what: str, sizes_example: str,
            axes_example: str) -> tuple[list[int], int]:
    """A pooling's or convolution's kernel sizes and its number of spatial axes, or the refusal naming which is
    missing (`said`: the operation as the message names it)."""
    # A window over the channels, or a padding said by its effect: the reading would slide over the spatial axes,
    # or pad by nothing.
    if (elsewhere := reading.search(r"\b(?:over|across|along)\s+(?:the\s+)?channels?\b|\bchannel\s+(?:axis|dim)")):
        raise Contradiction(f"{said} '{elsewhere.group(0)}': its window slides over the spatial axes (N x C x ...)",
                            [f"operation {what}"], "the window over the spatial axes")
    if (effect := reading.search(r"\bpadding\s*(?:=|:|of)?\s*['\"]?(?:same|full)\b")):
        raise Contradiction(f"'{effect.group(0)}': the padding as a number of elements", [f"operation {what}"],
                            "'padding 1' (a 3-wide window of stride 1 keeps the size with padding 1)")
    sizes = _kernel_sizes(reading, name)
    if sizes is None:
        raise IntentError(f"{said} without its kernel size", [f"operation {what}"], sizes_example)
    axes = _axes_named(name, reading, sizes)
    if axes is None:
        raise IntentError(f"{said} over how many axes", [f"operation {what}"], axes_example)
    return sizes, axes


def _kernel_sizes(reading: _Reading, name: re.Match) -> list[int] | None:
    """A window's sizes: by keyword ('kernel_size=3', 'kernel size 3', 'window (2, 2)', '3x3 kernel'), or written
    A x B right beside the operation's name ('2x2 max pooling', 'max pooling 3x3', '3x3 convolution')."""
    found = reading.take_search(rf"\b(?:kernel(?:[_ ]size)?|window(?: size)?)\s*(?:=|of|:)?\s*"
                                rf"(?:\(\s*({_INT}(?:\s*,\s*{_INT})*)\s*,?\s*\)|"
                                rf"({_INT}(?:\s*[x×]\s*{_INT})*)\b)|"
                                rf"\b({_INT}(?:\s*[x×]\s*{_INT})*)[\s-]*(?:kernel|window)\b|"
                                # '64 filters of 3x3': the size alone, the filters' number is the output channels'
                                rf"(?:(?<=filters of )|(?<=filters of size ))({_INT}(?:\s*[x×]\s*{_INT})+)\b")
    if found is not None:
        return [int(v) for v in re.findall(r"\d+", next(g for g in found.groups() if g))]
    after = re.compile(rf"[\s_-]*({_INT}(?:\s*[x×]\s*{_INT})+)\b").match(reading.text, name.end())
    before = re.compile(rf"\b({_INT}(?:\s*[x×]\s*{_INT})+)[\s_-]*$").search(reading.text[:name.start()])
    beside = after or before
    if beside is None or any(reading.used[beside.start(1):beside.end(1)]):
        return None
    reading.take(beside, 1)
    return [int(v) for v in re.findall(r"\d+", beside.group(1))]


# A window's parameters said as what they do: 'strided by 2', 'dilated by 2', 'padded by 1'.
KEYWORD_PARTICIPLES = {"stride": r"stride|strided\s+by", "dilation": r"dilation|dilated\s+by",
                       "padding": r"padding|padded\s+by"}


def _keyword_values(reading: _Reading, keywords: tuple[str, ...]) -> dict[str, int | tuple[int, ...]]:
    """'stride 2', 'padding=(1, 2)', 'dilation of 3', 'strided by 2': the numbers each keyword the intent gives."""
    options: dict[str, int | tuple[int, ...]] = {}
    for keyword in keywords:
        said = KEYWORD_PARTICIPLES.get(keyword, keyword)
        given = reading.take_search(rf"\b(?:{said})\s*(?:=|of|:)?\s*(?:\(\s*({_INT}(?:\s*,\s*{_INT})*)\s*,?\s*\)|"
                                    rf"({_INT}(?:\s*[x×]\s*{_INT})*)\b)")
        if given is not None:
            values = [int(v) for v in re.findall(r"\d+", given.group(1) or given.group(2))]
            options[keyword] = values[0] if len(values) == 1 else tuple(values)
    return options


def _axes_named(match: re.Match, reading: _Reading, sizes: list[int]) -> int | None:
    """Spatial axes from the name ('max_pool2d', '2-D convolution') or from a kernel written per axis."""
    named = re.search(r"([123])\s*-?\s*d", match.group(0), re.IGNORECASE) or \
        reading.take_search(r"\b([123])\s*-?\s*d\b")
    return int(named.group(1)) if named else len(sizes) if len(sizes) > 1 else None


def _convolution(transposed: bool) -> Callable:
    """'conv2d with 64 output channels, kernel 3, padding 1 on (8, 3, 224, 224)': the weight is Cout x Cin/groups x
    kernel (transposed: Cin x Cout/groups x kernel, with an output padding), Cin from the input's second axis; a
    bias only when the words say so."""
    what = "transposed convolution" if transposed else "convolution"

    def write(reading: _Reading, match):
        # 'output padding' before 'padding', which would read its number otherwise.
        options = {"output_padding": value for value in _keyword_values(reading, (r"output[_ ]padding",)).values()} \
            if transposed else {}
        options.update(_keyword_values(reading, ("stride", "padding", "dilation", "groups")))
        groups = options.get("groups", 1)
        # The input channels said in words ('from 32 input channels', 'in_channels=32', '32 -> 64 channels') are
        # the input's own, checked against its shape below.
        said_in = reading.search(rf"\b({_INT})\s+(?:input|in)[\s_-]channels\b|\bin_channels\s*=\s*({_INT})|"
                                 rf"\b({_INT})\s*->\s*(?={_INT}\s+channels\b)")
        channels_in = None
        if said_in is not None:      # the number alone: '-> 64 channels' is the output's
            group = next(i for i in (1, 2, 3) if said_in.group(i))
            reading.take(said_in, group)
            channels_in = int(said_in.group(group))
        stated = reading.take_search(rf"\b(?:weights?|w|filters?)\b\s*(?:is|:|=|of\s+shape|shaped)?\s*({_SHAPE_TEXT})")
        dims = None
        if stated is not None:     # PyTorch's weight shape says the kernel and the output channels
            dims = [int(v) for v in re.findall(r"\d+", stated.group(1))]
            sizes, named = dims[2:], _axes_named(match, reading, dims[2:])
            if len(dims) < 3 or not isinstance(groups, int) or named not in (None, len(sizes)):
                raise Contradiction(f"a {what} weight of shape {dims}", [], "Cout x Cin/groups x kernel (transposed: "
                                    "Cin x Cout/groups x kernel) of the convolution's axes")
            axes, cout = len(sizes), dims[1] * groups if transposed else dims[0]
        else:
            sizes, axes = _window(reading, match, f"a {what}", what, "'3x3', 'kernel_size=5', or its weight's shape",
                                  "'conv2d', or '3x3'")
            channels = reading.take_search(rf"\b({_INT})\s+(?:output|out)[\s_-]channels\b|"
                                           rf"\bout_channels\s*=\s*({_INT})|(?:\bto|\binto|->)\s*({_INT})\s+channels\b|"
                                           rf"\b({_INT})\s+(?:filters|kernels)\b")
            if channels is None:
                raise IntentError(f"a {what} without its output channels", [f"operation {what}"],
                                  "'64 output channels', 'out_channels=64', or its weight's shape")
            cout = int(next(g for g in channels.groups() if g))
        given = reading.take_search(rf"\bbias\b\s*(?:is|:|=|of\s+shape|of\s+length|of|shaped)?\s*"
                                    rf"(?:\(\s*({_INT})\s*,?\s*\)|({_INT})\b)")
        if given is not None and int(given.group(1) or given.group(2)) != cout:
            raise Contradiction(f"a bias of {given.group(1) or given.group(2)} for {cout} output channels", [],
                                "one bias value per output channel")
        bias = given is not None or reading.take_search(
            _words(r"with(?: a)? bias", "bias=True", r"plus (?:a )?bias", r"and (?:a )?bias")) is not None
        without = reading.take_search(_words(r"no bias", r"without (?:a )?bias", "bias=False", r"bias[- ]free"))
        if bias and without is not None:
            raise Contradiction(f"a {what} with a bias and '{without.group(0)}'", [], "a bias or none")
        if not bias and without is None:
            reading.assumed.append("no bias (not mentioned)")
        shape = _one(reading, what)
        if channels_in is not None and len(shape) > 1 and channels_in != shape[1]:
            raise Contradiction(f"{channels_in} input channels for an input of {shape}", [],
                                "the input's channels (its second axis)")
        if len(shape) != axes + 2 or not isinstance(groups, int) or shape[1] % groups or cout % groups:
            raise Contradiction(f"a {axes}-D {what} of {shape} in {groups} group(s) to {cout} channels", [],
                                "an N x Cin x spatial input whose channels the groups divide")
        kernel = sizes * axes if len(sizes) == 1 else sizes
        weight = [shape[1], cout // groups, *kernel] if transposed else [cout, shape[1] // groups, *kernel]
        if dims is not None and dims != weight:
            raise Contradiction(f"a {what} weight of shape {dims} for an input of {shape} in {groups} group(s)", [],
                                f"its weight as {weight}")
        arguments = "".join(f", {key}={value}" for key, value in options.items())
        function = f"conv_transpose{axes}d" if transposed else f"conv{axes}d"
        return f"y = {function}(x, w{', b' if bias else ''}{arguments})", [shape, weight] + ([[cout]] if bias else [])
    return write


def _scan(function: str) -> Callable:
    def write(reading: _Reading, match):
        shape, axes = _shape_and_axes(reading, function)
        if axes is None and len(shape) > 1:
            raise IntentError(f"{function} of a {len(shape)}-D array without its axis", [], "'along each row'...")
        keywords = ""
        if reading.take_search(_words("reverse", "reversed", "from the end", "right to left", "backwards?")) or \
                re.match(r"suffix", match.group(0), re.IGNORECASE):     # a suffix sum is a reverse prefix sum
            keywords += ", reverse=True"
        if reading.take_search(_words("exclusive")):
            keywords += ", exclusive=True"
        reading.take_search(_words("inclusive"))
        axis = (axes or (0,))[0]
        # 'masked cumsum', 'cumsum ... where mask': the scan of x * mask, the mask an array of x's shape.
        if reading.take_search(_words("masked", r"(?:with|by|where|under) (?:a |the )?(?:boolean |binary )?mask")):
            reading.assumed.append("the mask an array of the data's type multiplied in (a boolean one as 0 and 1)")
            return f"y = {function}(x * mask, axis={axis}{keywords})", [shape, shape]
        return f"y = {function}(x, axis={axis}{keywords})", [shape]
    return write


# BLAS's names of a product's sizes: C (M x N) = A (M x K) B (K x N).
BLAS_SIZES = {letter: re.compile(rf"\b{letter}\s*=\s*({_INT})\b") for letter in "MNK"}


def _matmul(reading: _Reading, match):
    # B^T, B.T, 'B transposed': the second operand stored N x K.
    transposed = reading.take_search(r"\^\s*T\b|\.T\b|\btransposed\b") is not None
    # '32 independent products of 512x256 by 256x1024': a batch of products of the same shapes.
    batch = reading.take_search(rf"\b({_INT})\s+(?:independent|separate)\s+(?:matrix\s+)?"
                                rf"(?:products|multiplications|matmuls|gemms)\b")
    said = {letter: reading.search(pattern) for letter, pattern in BLAS_SIZES.items()}
    if all(said.values()):        # 'M=4096, K=2048, N=1024': every size named, no shape written
        m, n, k = (int(reading.take(said[letter]).group(1)) for letter in "MNK")
        return ("C = A @ B.T" if transposed else "C = A @ B"), [[m, k], [n, k] if transposed else [k, n]]
    shapes = reading.shapes()
    if len(shapes) == 2 and len(shapes[0]) >= 3 and not transposed:
        # A batch of products (both 3-D), or a tensor of 3 or more axes by a matrix; '4D tensor' names its rank.
        named = reading.take_search(r"\b([1-9])[- ]?d\b")
        if named is not None and int(named.group(1)) != len(shapes[0]):
            raise Contradiction(f"a {named.group(0)} tensor of shape {shapes[0]}", ["operation matmul"],
                                "the rank the shape has")
        if len(shapes[1]) == 3 and (len(shapes[0]) != 3 or shapes[1][0] != shapes[0][0] or
                                    shapes[1][1] != shapes[0][2]) or \
                len(shapes[1]) == 2 and shapes[1][0] != shapes[0][-1] or len(shapes[1]) not in (2, 3):
            raise Contradiction("a batched matrix product without batch x M x K and batch x K x N (or K x N) "
                                "operands", ["operation matmul"], "'A (128, 512, 1024) and B (128, 1024, 256)'")
        return ("C = bmm(A, B)" if len(shapes[1]) == 3 else "C = A @ B"), shapes
    if len(shapes) == 1 and len(shapes[0]) == 2 and shapes[0][0] == shapes[0][1] and \
            reading.search(_words("square", "two", "both", "each")) is not None:
        shapes = shapes * 2
    inner = 0 if transposed else 1
    if len(shapes) != 2 or any(len(s) != 2 for s in shapes) or shapes[0][1] != shapes[1][1 - inner]:
        raise Contradiction("a matrix product without two matrices whose inner sizes agree", ["operation matmul"],
                            "both shapes, e.g. 'A 1024 x 512 and B 512 x 2048'")
    if batch is not None:
        if transposed:
            raise IntentError("a batch of products with a transposed operand", ["operation bmm"],
                              "the batched product in the spec form, e.g. 'C = bmm(A, B); A: float32[32, 64, 32]; "
                              "B: float32[32, 32, 16]'")
        return "C = bmm(A, B)", [[int(batch.group(1)), *shape] for shape in shapes]
    return ("C = A @ B.T" if transposed else "C = A @ B"), shapes


def _matvec(reading: _Reading, match):
    shapes = reading.shapes()
    if len(shapes) == 1 and len(shapes[0]) == 2:
        shapes = [shapes[0], [shapes[0][1]]]
    if len(shapes) != 2 or len(shapes[0]) != 2 or shapes[1] != shapes[0][1:]:
        raise Contradiction("a matrix-vector product without a matrix and a vector of its width", [], "both shapes")
    return "y = A @ x", shapes


def _transpose(reading: _Reading, match):
    shape = _one(reading, "transpose")
    if len(shape) != 2:
        raise IntentError(f"transpose of a {len(shape)}-D array", [], "a matrix, or 'permute ... to order (2, 0, 1)'")
    return "y = x.T", [shape]


def _permute(reading: _Reading, match):
    order = reading.take_search(r"(?:order|to|axes|dims)\s*\(\s*(\d)\s*,\s*(\d)\s*,\s*(\d)\s*\)")
    if order is None:
        raise IntentError("a permutation without its order", [], "'to order (2, 0, 1)'")
    shape = _one(reading, "permute")
    return f"y = permute(x, ({', '.join(order.groups())}))", [shape]


def _loss(function: str, operands: str) -> Callable:
    def write(reading: _Reading, match):
        return f"l = {function}({operands}{_loss_reduction(reading)})", _pair(reading, "a loss")
    return write


_SCALAR_VALUE = rf"(?:an?\s+)?(?:scalar\s+|constant\s+|factor\s+(?:of\s+)?)?(?P<value>{_NUM})?"
# Longest names first where one contains another (square root before square, log softmax before softmax).
OPERATIONS: tuple[_Operation, ...] = (
    _Operation(_words(r"log[- _]?softmax"), _normalization("log_softmax", eps=None)),
    _Operation(_words("softmax"), _normalization("softmax", eps=None)),
    _Operation(_words(r"layer[- _]?norm\w*", r"layer normali[sz]ation"), _normalization("layer_norm", eps=1e-5)),
    _Operation(_words(r"rms[- _]?norm\w*", r"rms normali[sz]ation", r"root[- ]mean[- ]square normali[sz]ation"),
               _normalization("rms_norm", eps=1e-5)),
    # Before the norms as reductions: 'L2 normalization' divides by the norm, 'L2 norm' is the norm.
    *(_Operation(_words(rf"l{p}[- ]?normali[sz](?:ation|ed?)", rf"l{p}[- ]norm normali[sz]ation",
                        rf"normali[sz]ed? by (?:the |its |their )?l{p}[- ]norms?"),
                 _normalization(f"l{p}_normalize", eps=1e-12)) for p in (1, 2)),
    _Operation(_words(r"mean[- ]squared?[- ]error", "mse(?: loss)?"), _loss("mse_loss", "p, t")),
    _Operation(_words(r"huber(?: loss)?(?: \(smooth[- ]l1\))?"), _parameterized_loss("huber_loss", "delta")),
    _Operation(_words(r"smooth[- ]l1(?: loss)?"), _parameterized_loss("smooth_l1_loss", "beta")),
    _Operation(_words(r"hinge(?: loss)?"), _loss("hinge_loss", "a, b")),
    _Operation(_words(r"cross[- _]?entropy(?: loss)?", "crossentropyloss", r"categorical cross[- ]entropy"),
               _cross_entropy),
    _Operation(_words(r"triplet[- _]?margin(?: loss)?", "tripletmarginloss", r"triplet loss"), _triplet_margin),
    _Operation(_words(r"cosine[- ]similarity loss", r"cosine loss"), _cosine_loss),
    _Operation(_words(r"kl[- _]?div(?:ergence)?(?: loss)?", r"kullback[- ]leibler(?: divergence)?", "kldivloss"),
               _kl_divergence),
    _Operation(_words(r"l1[- ]loss", r"mean[- ]absolute[- ]error", "mae"), _loss("l1_loss", "a, b")),
    _Operation(_words(r"max[- _]?pool(?:ing)?(?:[- _]?[123][- ]?d)?", r"max[- _]?pool[123]d"), _pooling("max")),
    _Operation(_words(r"(?:avg|average)[- _]?pool(?:ing)?(?:[- _]?[123][- ]?d)?", r"avg[- _]?pool[123]d"),
               _pooling("avg")),
    _Operation(_words(r"transposed (?:[123][- ]?d )?conv(?:olution)?(?:[- _]?[123][- ]?d)?",
                      r"conv(?:olution)?[- _]?transpose(?:[- _]?[123][- ]?d)?", r"convtranspose[123]d",
                      r"deconv(?:olution)?(?:[- _]?[123][- ]?d)?"), _convolution(transposed=True)),
    _Operation(_words(r"conv(?:olution)?[- _]?(?:[123][- ]?d)?", r"[123][- ]?d conv(?:olution)?", r"conv[123]d"),
               _convolution(transposed=False)),
    _Operation(_words(r"instance[- ]?norm\w*", r"instance normali[sz]ation"), _instance_norm),
    _Operation(_words(r"group[- ]?norm\w*", r"group normali[sz]ation"), _group_norm),
    _Operation(_words(r"batch[- _]?norm\w*", r"batch normali[sz]ation"), _batch_norm),
    _Operation(_words(r"cumulative[- ]sums?", "cumsum", r"prefix[- ]sums?", r"running[- ]sums?", r"partial[- ]sums?",
                      r"inclusive scan", r"suffix[- ]sums?"), _scan("cumsum")),
    _Operation(_words(r"cumulative[- ]products?", "cumprod"), _scan("cumprod")),
    _Operation(_words(r"matrix[- ]vector(?: product| multiplication)?", r"matrix times (?:a )?vector", "gemv",
                      "mat-?vec"), _matvec),
    _Operation(_words("matmul", "gemm", "bmm", r"batch(?:ed)? mat(?:rix )?mul\w*", r"batch(?:ed)? matrix[- ]multipl\w*",
                      r"batch(?:ed)? (?:matrix )?products?", r"tensor[- ]matrix (?:multipl\w*|products?)",
                      r"matrix[- ]multipl\w*", r"matrix[- ]products?",
                      r"multiply(?= (?:two )?(?:\d+ ?x ?\d+ )?matrices)", r"[A-Z]\s*=\s*[A-Z]\s*@\s*[A-Z]"), _matmul),
    _Operation(_words(r"dot[- ]product"), _dot),
    _Operation(_words(r"permut\w*"), _permute),
    _Operation(_words(r"transpos\w*"), _transpose),
    _Operation(_words(r"leaky[- _]?relu"), _leaky_relu),
    _Operation(_words(r"hard[- _]?tanh", r"clamp(?:ed|s)?", r"clip(?:ped|s)?"), _hardtanh),
    _Operation(_words(r"hard[- _]?sigmoid"), _unary("hardsigmoid(x)")),
    _Operation(_words(r"hard[- _]?swish"), _unary("hardswish(x)")),
    _Operation(_words("selu"), _unary("selu(x)")),
    _Operation(_words("elu"), _elu),
    _Operation(_words("gelu"), _gelu),
    _Operation(_words("silu", "swish"), _unary("silu(x)")),
    _Operation(_words("mish"), _unary("mish(x)")),
    _Operation(_words("softplus"), _unary("softplus(x)")),
    _Operation(_words("softsign"), _unary("softsign(x)")),
    _Operation(_words("relu"), _unary("relu(x)")),
    _Operation(_words("sigmoid", "logistic"), _unary("sigmoid(x)")),
    _Operation(_words("tanh"), _unary("tanh(x)")),
    _Operation(_words(r"square[- ]roots?", "sqrt"), _unary("sqrt(x)")),
    _Operation(_words("exp", "exponentials?"), _unary("exp(x)")),
    _Operation(_words(r"natural log\w*", "log", "logarithms?"), _unary("log(x)")),
    _Operation(_words(r"absolute values?", "abs"), _unary("abs(x)")),
    _Operation(_words(r"elementwise product", r"element-wise product", r"hadamard product"), _binary("*")),
    _Operation(_words(r"elementwise (?:sum|addition)", r"element-wise (?:sum|addition)"), _binary("+")),
    _Operation(_words(r"elementwise difference", r"element-wise difference"), _binary("-")),
    _Operation(_words(r"add (?:a |the )?bias(?: vector)?(?: \w+)?"), _bias),
    _Operation(re.compile(rf"\b(?P<verb>scale|multiply)\b[^.;]*?(?P<by>\bby\s+{_SCALAR_VALUE})", re.I), _scalar("*"),
               takes=("verb", "by")),
    _Operation(re.compile(rf"\b(?P<verb>divide)\b[^.;]*?(?P<by>\bby\s+{_SCALAR_VALUE})", re.I), _scalar("/"),
               takes=("verb", "by")),
    _Operation(re.compile(rf"\badd\s+{_SCALAR_VALUE}\s+to\b", re.I), _scalar("+")),
    _Operation(re.compile(rf"\bsubtract\s+{_SCALAR_VALUE}\s+from\b", re.I), _scalar("-")),
    _Operation(_words("argmax", r"arg max"), _reduction("argmax")),
    _Operation(_words("argmin", r"arg min"), _reduction("argmin")),
    _Operation(_words(r"l2[- ]norms?", r"euclidean norms?", "norms?"), _reduction("norm")),
    _Operation(_words("mean", "average", "avg"), _reduction("mean")),
    _Operation(_words("sum", "sums", r"reduce-?sum", r"with a sum"), _reduction("sum")),
    _Operation(_words("max", "maximum", "amax"), _reduction("max")),
    _Operation(_words("min", "minimum", "amin"), _reduction("min")),
    _Operation(_words("product", "prod"), _reduction("prod")),
)
# Every name of the vocabulary (the scalar phrases aside: 'multiply' is also said of matrices), to find those the
# reading leaves over; and names of what the spec form computes that words are not read as (the triangle or the
# diagonal of a product): named, they must be written in the spec form, never dropped.
UNREAD_OPERATIONS = r"\b(?:tri[ul]|triangular|triangles?|diag(?:onal)?|sums|maxima|minima)\b"
# Words that change what an operation computes ('sum of squares', 'root mean square', 'mean absolute value', '|x|',
# 'plus one', 'summed, not averaged', 'with a mask'): one the reading leaves unread would leave a reading of another
# operation.
VALUE_WORDS = re.compile(r"(?<![\w-])(?:\|\s*\w+\s*\||summed|not averaged|plus|minus|divided|multiplied|doubled|"
                         r"tripled|halved|twice|with (?:\w+ )?affine|"
                         r"with (?:a|an|the) (?:\w+ )?mask|abs|absolute|squares|squared|square of|squaring|root|"
                         r"exponentials?|logarithms?|weighted|clipped|"
                         r"sorted|non-?zeros?|excluding|except|ignoring|skip\w*|omit\w*|masked|causal|followed by|"
                         r"(?:positive|negative) (?:elements|entries|values|part)|negated|ceil\w*|accumulat\w*|"
                         r"last (?:occurrence|index|one)|rightmost|label[- _]smoothing|class[- _]weights?|"
                         r"ignored?[- _]index|then|subtract\w*|gamma|beta|learned|"
                         r"weights?|every other|alternat\w*|odd|even|consecutive|cumulative|running|"
                         r"scal(?:e|es|ed|ing)|restart\w*|reset\w*|overlap\w*|segment\w*|"
                         r"\d+(?:st|nd|rd|th))(?![\w-])", re.IGNORECASE)
REDUCTION_CALL = re.compile(r"\b(?:sum|mean|max|min|prod|norm|argmax|argmin)\(")
NOT_ELEMENTWISE = re.compile(r"\b(?:sum|mean|max|min|prod|norm|argmax|argmin|\w*softmax|\w*_norm|\w*normalize|cumsum|"
                             r"cumprod|conv\w*|\w*pool\w*|bmm|permute|kl_div|cross_entropy|\w*_loss|\w*_similarity)\(|"
                             r"@|\.T\b")
OPERATION_WORDS = re.compile("|".join([*(f"(?:{op.pattern.pattern})" for op in OPERATIONS if not op.pattern.groupindex),
                                       UNREAD_OPERATIONS]), re.IGNORECASE)


def _shapes(reading: _Reading) -> list[list[int]]:
    """Every shape the intent writes, in order, each taken from the text."""
    found: list[tuple[int, list[int]]] = []
    for pattern in SHAPE_PATTERNS:
        for match in pattern.finditer(reading.text):
            if not any(reading.used[match.start():match.end()]):
                reading.take(match)
                found.append((match.start(), [int(d) for d in re.findall(r"\d+", match.group(1))]))
    for match in ROWS_OF.finditer(reading.text):
        if not any(reading.used[match.start():match.end()]):
            reading.take(match)
            found.append((match.start(), [int(v) for v in match.groups() if v is not None]))
    for match in SQUARE.finditer(reading.text):
        if not any(reading.used[match.start():match.end()]):
            reading.take(match)
            found.append((match.start(), [int(match.group(1))] * 2))
    for match in LENGTH.finditer(reading.text):
        value = next((g for g in match.groups() if g is not None), None)
        if value is not None and not any(reading.used[match.start():match.end()]):
            reading.take(match)
            found.append((match.start(), [int(value)]))
    return [shape for _, shape in sorted(found)]


def _dtype(reading: _Reading) -> str:
    if (unsupported := UNSUPPORTED_DTYPES.search(reading.text)) is not None:
        raise IntentError(f"element type '{unsupported.group(1)}' is not generated", [], "float32, float64 or int32")
    kinds = {dtype for dtype, words in DTYPE_WORDS if re.search(rf"\b(?:{words})\b", reading.text, re.IGNORECASE)}
    if len(kinds) > 1:
        raise IntentError(f"several element types ({', '.join(sorted(kinds))})", [], "one element type")
    if not kinds:
        reading.assumed.append("float32 data (no element type given)")
    return kinds.pop() if kinds else "float32"


def _named_dimensions(text: str) -> str:
    """The text with each shape of named dimensions whose every name is given a value ("B = 128", "H = W = 32")
    written with the values, and those values' phrases taken out; a shape with a name left unvalued stays as it
    is (and is then no shape a reading takes)."""
    values: dict[str, str] = {}
    phrases = []
    for match in DIMENSION_VALUES.finditer(text):
        for name in re.findall(_DIMENSION, match.group(1)):
            values.setdefault(name, match.group(2))
        phrases.append(match)
    rewritten, used = text, set()
    for pattern in NAMED_SHAPES:
        for match in list(pattern.finditer(rewritten)):
            names = re.findall(_DIMENSION, match.group(0).replace("×", " x "))
            names = [n for n in names if n != "x"]
            if names and all(n in values for n in names):
                used.update(names)
                numbers = [values[n] for n in names]    # in the shape's own style: (B, N) or N x N
                shape = "(" + ", ".join(numbers) + ")" if match.group(0)[0] in "([" else " x ".join(numbers)
                rewritten = _named_axes(rewritten.replace(match.group(0), shape, 1), names)
    if not used:
        layout = _layout(values)
        if layout is None or CHANNELS_LAST.search(text):
            return text
        # PyTorch's layout letters valued and no shape written ("N=32, C=64, H=W=256"): the shape is N x C x H x W.
        rewritten = text.replace(phrases[0].group(0), "(" + ", ".join(values[n] for n in layout) + ")", 1)
        used.update(layout)
        phrases = phrases[1:]
    for match in phrases:    # each value given once: its phrase is part of the shape now
        if set(re.findall(_DIMENSION, match.group(1))) <= used:
            rewritten = rewritten.replace(match.group(0), " ", 1)
    return rewritten


def _named_axes(text: str, names: list[str]) -> str:
    """An axis said by its dimension's name ("softmax over T" of [B, T, C], "mean over H and W") written as its
    number ("over dim 1", "over dims 2 and 3"): read, never left for the default axis."""
    if len(set(names)) != len(names):
        return text          # N x N: a name of two axes names neither
    listed = "|".join(re.escape(n) for n in names)
    phrase = re.compile(rf"\b(over|along|across)\s+(?:the\s+)?(?:(?:dims?|dimensions?|ax[ie]s)\s+)?({listed})"
                        rf"(?:\s*(?:,|and)\s*({listed}))?(?:\s+(?:dims?|dimensions?|ax[ie]s))?(?![\w=])")

    def numbered(match: re.Match) -> str:
        axes = [str(names.index(n)) for n in match.groups()[1:] if n is not None]
        return f"{match.group(1)} dim {axes[0]}" if len(axes) == 1 else f"{match.group(1)} dims {axes[0]} and {axes[1]}"
    return phrase.sub(numbered, text)


LAYOUTS = (("C", "L"), ("C", "H", "W"), ("C", "D", "H", "W"))     # after the batch (N or B), as PyTorch orders them
CHANNELS_LAST = re.compile(r"\b(?:NHWC|NDHWC|NWC|NLC|channels?[_ -]last)\b", re.IGNORECASE)    # another order


def _layout(values: dict[str, str]) -> list[str] | None:
    """The names of an N x C x spatial layout, in its order, where the valued names are exactly its letters."""
    for batch in ("N", "B"):
        rest = set(values) - {batch}
        if batch in values and (layout := next((ls for ls in LAYOUTS if set(ls) == rest), None)) is not None:
            return [batch, *layout]
    return None


# An expression of the spec form's own syntax inside words ("F.normalize(x, p=2, dim=1) for x of shape 4096 x
# 256", "z = hardsigmoid(a) * softsign(b), with a and b both shaped (512, 4096)"): it starts at a call or an
# assignment and runs to the words around it.
EXPRESSION_START = re.compile(r"\b[A-Za-z_]\w*\s*=(?!=)\s*|(?:[A-Za-z_][\w.]*\s*\(|[A-Za-z_]\w*\s*@)")
# A matrix written transposed as A^T or A', and two matrices side by side (A^T B): the product, in the form's syntax.
TRANSPOSED = re.compile(r"\b([A-Z]\w*)(?:\^T|'|ᵀ)(?![\w'])")
SIDE_BY_SIDE = re.compile(r"\b([A-Z]\w*(?:\.T)?)\s+(?=[A-Z]\w*(?:\.T)?\b)")
EXPRESSION_END = re.compile(r",\s|;|\s(?:for|with|where|on|over|of\s+shape|both|each|all|i\.e\.|without)\b")
ALL_SHAPED = re.compile(r"\b(?:both|all|each|every one)\b", re.IGNORECASE)
# Operands named and then described: "x is a float32 matrix with 8192 rows and 1024 columns", "x and y are float
# arrays of 1M elements each", "a, b of shape 4096 x 768", "b is a per-column bias of length 4096", "A float32 of
# shape (1024, 512)".
DESCRIBED = r"(?:\s+(?:is|are|has|have)\b|\s*:|(?:\s+(?:float32|fp32|float64|fp64|float|double|int32))?\s+of" \
            r"\s+shape\b)"
ROWS_AND_COLUMNS = re.compile(rf"\b({_INT})\s+rows\s+(?:and|by|x)\s+({_INT})\s+(?:columns|cols)\b")
ONE_AXIS = re.compile(rf"\blength\s+({_INT})\b|\b({_INT})\s+(?:elements|entries|values|floats|doubles)\b")
# What an operand's description may say besides its shape: its kind and element type, never a word that changes
# what it holds (a "per-row" bias is a column vector, which a last-axis broadcast would misread).
DESCRIPTION_WORDS = words_allowed(OPERAND_WORDS, DESCRIBING_ONE)
# A scalar operand given its value: "the scalar a = 2.0", "c = 0.5 is a scalar", "alpha = 0.5".
SCALAR_VALUE = r"(?:\b(?:the\s+)?scalar\s+)?\b{name}\s*=\s*({number})(?:\s+is\s+a\s+scalar\b|\s*\(a\s+scalar\))?"
# Python's keywords are names in CUDA (`in`, `out = in.T`): the expression is parsed with them renamed.
KEYWORD_NAMES = re.compile(r"\b(in|is|as|from|with|lambda|global)\b(?=\s*(?:[.\[)*+\-/,@]|$))")


def _described_shapes(rest: str, names: list[str]) -> dict[str, list[int]]:
    """The shapes the words give operands by describing them (DESCRIBED): a name, or a list of names, then one
    shape in a description of nothing else (DESCRIPTION_WORDS) up to the next operand, a semicolon or the end.
    A description with another word is no shape: the words then decide (and refuse what they do not read)."""
    listed = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    group = rf"(?<![\w.])((?:{listed})(?:\s*,\s*(?:{listed})|\s+and\s+(?:{listed}))*){DESCRIBED}"
    starts = list(re.finditer(group, rest))
    shapes = {}
    for index, start in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(rest)
        description = re.split(r";|\.(?:\s|$)|\band\s+(?=the\s+scalar\b)", rest[start.end():end])[0]
        description = re.sub(r"\s+and\s*$", "", description)
        found = [([int(d) for d in re.findall(r"\d+", m.group(1))], m) for pattern in SHAPE_PATTERNS
                 for m in pattern.finditer(description)]
        found += [([int(m.group(1)), int(m.group(2))], m) for m in ROWS_AND_COLUMNS.finditer(description)]
        found += [([int(m.group(1) or m.group(2))], m) for m in ONE_AXIS.finditer(description)]
        if len(found) != 1:
            continue
        shape, said = found[0]
        others = description[:said.start()] + " " + description[said.end():]
        if unexplained_word(others, set(), DESCRIPTION_WORDS) is not None:
            continue
        for name in re.findall(r"[A-Za-z_]\w*", start.group(1)):
            if name in names:
                shapes[name] = shape
    return shapes


def _embedded_expression(reading: _Reading, dtype: str) -> str | None:
    """The spec form of an intent that writes its operation in the spec form's own syntax and its arrays' shapes in
    words: each array given a shape in its own description (`_described_shapes`) or right after its name ("B: 4096 x
    1024", "x of shape ...", "a has 4096 entries"), or one shape said of them all ("both of shape", "all shaped"); a
    scalar given its value is that constant; `A^T B` is `A.T @ B`. None when there is no such expression, or its
    arrays' shapes are not all said, or a number of the intent is not in it, or a word around it is neither a
    description nor a request (intent.py DESCRIBED_FORMULA_WORDS): the words are then read as words. An IntentError, the
    spec form's own, when the shapes do not fit the operation; a Contradiction when shapes said of each operand do
    not fit it (no reading with other shapes stands)."""
    start = EXPRESSION_START.search(reading.text)
    if start is None:
        return None
    stop, depth = len(reading.text), 0
    for position in range(start.start(), len(reading.text)):     # the first end outside the parentheses
        character = reading.text[position]
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(character, 0)
        if depth == 0 and position >= start.end() and EXPRESSION_END.match(reading.text, position):
            stop = position
            break
    expression = reading.text[start.start():stop].strip().rstrip(".")
    output, _, value = expression.partition("=") if re.match(r"[A-Za-z_]\w*\s*=(?!=)", expression) else \
        ("y", "", expression)
    value = KEYWORD_NAMES.sub(r"\1_", SIDE_BY_SIDE.sub(r"\1 @ ", TRANSPOSED.sub(r"\1.T", value)))
    try:
        tree = ast.parse(value.strip(), mode="eval").body
    except SyntaxError:
        return None
    called = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    called |= {node.func.attr for node in ast.walk(tree) if isinstance(node, ast.Call)
               and isinstance(node.func, ast.Attribute)}
    prefixes = {node.value.id for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name) and node.value.id in ("F", "torch", "np", "nn")}
    names = list(dict.fromkeys(node.id for node in ast.walk(tree) if isinstance(node, ast.Name)
                               and node.id not in called | prefixes | {"True", "False", "None"}))
    if not names:
        return None
    rest = reading.text[:start.start()] + " " * len(expression) + reading.text[start.start() + len(expression):]
    if any(word.group(0).lower() not in called for word in REDUCTION_WORDS.finditer(rest)):
        return None       # 'the sum of all elements of A @ B': a reduction of the expression, which the words decide
    for name in list(names):     # a scalar given its value is that constant in the formula
        if (given := re.search(SCALAR_VALUE.format(name=re.escape(name), number=_NUM), rest)) is not None:
            value = re.sub(rf"(?<![\w.]){re.escape(name)}(?![\w])", given.group(1), value)
            rest = rest[:given.start()] + " " * (given.end() - given.start()) + rest[given.end():]
            names.remove(name)
            tree = ast.parse(value.strip(), mode="eval").body
    if not names:
        return None
    shapes = _described_shapes(rest, names)
    for name in (n for n in names if n not in shapes):
        # The name itself, not an 'x' inside a shape ("4096 x 1024").
        own = re.search(rf"(?<!\d )(?<!\d)\b{re.escape(name)}\b\s*(?::|is|of\s+shape|of|shaped|has|\(|=)?\s*"
                        rf"(\(?{_INT}(?:\s*[x×,*]\s*{_INT})*\)?)(\s+(?:entries|elements|floats|values))?", rest)
        if own is not None:
            shapes[name] = [int(d) for d in re.findall(r"\d+", own.group(1))]
    each_said = len(shapes) == len(names)
    if not each_said:
        said = [[int(d) for d in re.findall(r"\d+", m.group(1))] for pattern in SHAPE_PATTERNS
                for m in pattern.finditer(rest)]
        if len(said) != 1 or not (len(names) == 1 or ALL_SHAPED.search(rest)):
            return None
        shapes = {name: said[0] for name in names}
    if unexplained_word(rest, set(names) | {output.strip()}) is not None:
        return None      # a word that may change what is computed ("summed over rows", "added to each column")
    integers = class_targets(tree)
    declarations = "; ".join(f"{name}: {'int32' if name in integers else dtype}[{', '.join(map(str, shapes[name]))}]"
                             for name in names)
    form = f"{output.strip() or 'y'} = {value.strip()}; {declarations}"
    held = set(re.findall(r"\d+(?:\.\d+)?(?:[eE]-?\d+)?", form))
    for number in NUMBER.finditer(reading.text):
        if number.group(1).lstrip("-") not in held and \
                str(float(number.group(1).lstrip("-"))) not in {str(float(h)) for h in held}:
            return None          # a number the form leaves out: the words decide (and refuse it)
    try:
        parse_spec(form)      # its shapes must fit its operation: the spec form's own refusal says how they do not
    except IntentError as refused:
        if not each_said:
            raise
        # Shapes said of each operand that do not fit the formula ("b is a vector of 64 values" beside a 64 x 128
        # x): no reading of the formula with other shapes stands either.
        raise Contradiction(f"the shapes the intent gives its operands ({declarations}) do not fit {value.strip()}: "
                            f"{refused.message}", [], "operands whose shapes fit the formula") from None
    return form


REDUCTION_WORDS = re.compile(r"\b(?:sums?|mean|average|max|maximum|maxima|min|minimum|minima|norm|argmax|argmin|"
                             r"softmax|cumsum|"
                             r"cumulative|variance|std)\b", re.IGNORECASE)


def spec_from_words(intent: str) -> tuple[str, list[str]]:
    """The spec form an intent in words states, and what it assumed; IntentError naming what was not understood."""
    binary: list[str] = []

    def written_out(match: re.Match) -> str:
        # As the families' reader and docs/generate.md have it: K, M, G are powers of two (16M = 16 * 2**20).
        value = int(float(match.group(1)) * (1 << 10 * " kmg".index(match.group(2).lower())))
        binary.append(f"{match.group(0)} read as {value} (K, M and G are powers of two)")
        return str(value)

    def power(match: re.Match) -> str:
        base, shift, exponent = match.groups()
        return str(int(base) << int(shift) if exponent is None else 2 ** int(exponent))

    def whole(match: re.Match) -> str:
        value = float(match.group(0))
        return str(int(value)) if value == int(value) else match.group(0)

    def values_in_place(match: re.Match) -> str:
        return "[" + ", ".join(re.findall(rf"=\s*({_INT})", match.group(0))) + "]"

    text = SCIENTIFIC.sub(whole, VALUED_DIMENSIONS.sub(values_in_place, " ".join(intent.split())))
    reading = _Reading(_named_dimensions(SUFFIXED.sub(written_out, POWER.sub(power, text))), assumed=binary)
    if (unsupported := NOT_GENERATED.search(reading.text)) is not None:
        raise IntentError(f"'{unsupported.group(0)}' is not an operation the spec form generates", [],
                          "an operation the spec form lists (docs/generate.md)")
    dtype = _dtype(reading)
    try:
        return _operation_in_words(reading, dtype)
    except Contradiction:
        raise
    except IntentError:
        # Words this reader does not read may hold the spec form's own syntax with the shapes said in words.
        if (form := _embedded_expression(_Reading(reading.text, assumed=list(binary)), dtype)) is None:
            raise
        return form, [*binary, f"read as the spec form written in the intent: {form}"]


def _operation_in_words(reading: _Reading, dtype: str) -> tuple[str, list[str]]:
    """The spec form of the one operation the intent names in words, with its operands' shapes."""
    matches = [(op, m) for op in OPERATIONS if (m := reading.search(op.pattern)) is not None]
    if not matches:
        raise IntentError("no operation named", [], "an operation the spec form lists (docs/generate.md)")
    operation, match = matches[0]
    for group in operation.takes:
        if match.group(group) is not None:
            reading.take(match, group)
    assignment, operand_shapes = operation.write(reading, match)
    while (again := reading.search(operation.pattern)) is not None:     # the same operation named again
        reading.take(again)                                            # ('Swish (a.k.a. SiLU)')
    ranks = {len(shape) for shape in operand_shapes}
    dimensions = {d for shape in operand_shapes for d in shape}
    for said in RANK.finditer(reading.text):        # '3-D tensor' of a 3-D operand; a '4D tensor' of (8, 16, 32) not
        if any(reading.used[said.start():said.end()]):
            continue
        if int(said.group(1)) not in ranks:
            raise Contradiction(f"'{said.group(0)}' data of shape {' and '.join(map(str, operand_shapes))}", [],
                                "the rank the shapes have")
        reading.take(said)
    for said in RESTATED.finditer(reading.text):    # 'the 16 entries in each row' of a (4096, 16) operand
        if int(said.group(1)) in dimensions:
            reading.take(said)
    left = reading.left_over(OPERATION_WORDS)
    if left:
        # A reduction named and not read ('the sum of all elements of the matrix product'): a contradiction, so the
        # families' reading of the product alone falls too.
        # So is any operation word left by a reading that is not an elementwise formula ('layer norm ... followed by
        # relu', 'max of each row of the upper triangle'): the families' reading, one operation too, drops it.
        refusal = Contradiction if REDUCTION_WORDS.fullmatch(left[0].strip()) or \
            NOT_ELEMENTWISE.search(assignment) else IntentError
        raise refusal(f"'{left[0]}' names an operation this reading ({match.group(0)}) does not use",
                          [f"operation {match.group(0)}"], "one operation a sentence, or the spec form")
    numbers = reading.left_over(NUMBER)
    if numbers:
        raise IntentError(f"the number {numbers[0]} is not used by this reading ({assignment})",
                          [f"operation {match.group(0)}"], "only the numbers the operation takes")
    if REDUCTION_CALL.search(assignment) and (elementwise := ELEMENTWISE.search(reading.text)):
        raise IntentError(f"'{elementwise.group(0)}' said of a reduction ({match.group(0)})",
                          [f"operation {match.group(0)}"], "the formula in the spec form (y = maximum(a, b); ...)")
    modifiers = reading.left_over(VALUE_WORDS)
    if modifiers:     # a contradiction: a reading of the other reader, which has not read the word either, falls too
        raise Contradiction(f"'{modifiers[0]}' changes what this reading ({match.group(0)}) computes, and it does not "
                          f"read it", [f"operation {match.group(0)}"], "the plain operation, or the spec form")
    names = re.findall(r"\b([A-Za-z_]\w*)\b(?!\s*\()", assignment.partition("=")[2])
    keywords = ("axis", "eps", "reverse", "exclusive", "True", "approximate", "tanh", "T")
    operands = list(dict.fromkeys(n for n in names if n not in keywords))
    integers = class_targets(ast.parse(assignment.partition("=")[2].strip(), mode="eval").body)
    declarations = "; ".join(f"{name}: {'int32' if name in integers else dtype}[{', '.join(map(str, shape))}]"
                             for name, shape in zip(operands, operand_shapes))
    return f"{assignment}; {declarations}", reading.assumed
