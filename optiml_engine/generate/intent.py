"""From an intent ("row-wise softmax of x (rows x cols, float) into y") to a KernelSpec: a small deterministic
parser over a vocabulary of operation words, shapes ("rows x cols", "4096x1024", "n = 1M", "MxK"), element types,
names ("of x", "into y") and, for elementwise intents, a formula in the contract's expression syntax.

What the intent leaves out is filled with a stated default (listed in the spec's `assumed`); what it leaves
ambiguous (a sum of a matrix: per row, per column or in all?) or asks outside the families is an IntentError that
says what was understood, what is missing, and what is supported. Never a guess that could be a wrong kernel.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from optiml_engine.generate.vocabulary import unexplained_words
from optiml_engine.model import GenerateFamily, GenerateOperation, KernelSpec, Location, OptimlError
from optiml_engine.source.expr import Call, Name, parse_expr

INTENT = Location(file="<intent>", line=1)

SUPPORTED = (
    "elementwise formulas (y = relu(x) * 2, math functions, a row vector broadcast over rows); "
    "row and column reductions (sum, mean, max, min, L2 norm, argmax); global sum/mean/max/min; "
    "softmax, log-softmax, logsumexp over rows; layernorm and rmsnorm over rows; transpose and permutes of axes; "
    "GEMM and GEMV in fp32; 1-D and 2-D convolutions/stencils (odd widths up to 9); histogram; prefix sum"
)

# Functions an elementwise formula may call (each has a CUDA and a NumPy rendering in generate/families.py).
ELEMENTWISE_FUNCTIONS = ("exp", "log", "sqrt", "sin", "cos", "tanh", "erf", "abs", "sigmoid", "relu", "max", "min",
                         "pow")

DEFAULT_SIZES: dict[str, dict[str, int]] = {
    "1d": {"n": 1 << 24},
    "2d": {"rows": 16384, "cols": 1024},
    "gemm": {"M": 2048, "N": 2048, "K": 2048},
    "image": {"rows": 4096, "cols": 4096},
}


class IntentError(OptimlError):
    """An intent that cannot become a kernel as stated: what was understood, what is missing or unsupported."""

    def __init__(self, problem: str, understood: list[str], expected: str):
        self.understood = list(understood)
        said = "; ".join(understood) if understood else "nothing yet"
        super().__init__(INTENT, f"{problem} (understood: {said})", expected)


class ModifierRefusal(IntentError):
    """The families' reader refused a word that changes what its operation computes ('squares', 'multiply'): a
    reading of the other reader that shows nothing of the word does not stand either."""

    def __init__(self, word: str, problem: str, understood: list[str], expected: str):
        self.word = word
        super().__init__(problem, understood, expected)

    # The modifiers whose omission reads another value (a sum of squares as a sum, a transposed product as a
    # transpose), and what the spec form shows of each where the other reader did read it. Other modifiers ('square
    # matrix', 'negative slope', 'masked') the other reader reads as parts of its operations' names.
    SHOWN_AS = ((r"abs", ("abs",)), (r"squares$|squared$", ("*", "square")), (r"exp", ("exp",)), (r"log", ("log",)),
                (r"multipl|times", ("*", "@")), (r"divid", ("/",)), (r"subtract|minus", ("-",)),
                (r"then$", ()))     # a second step: no one operation shows it

    def shown_in(self, form: str) -> bool:
        for stem, shown in self.SHOWN_AS:
            if re.match(stem, self.word, re.IGNORECASE):
                return any(token in form for token in shown)
        return True


@dataclass(frozen=True)
class Operation:
    family: GenerateFamily
    operation: GenerateOperation
    pattern: re.Pattern[str]


def _words(*alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w])", re.IGNORECASE)


# Checked in this order: the first match decides (log-softmax before softmax, prefix sum before sum ...).
OPERATIONS = (
    Operation("row_normalization", "log_softmax", _words(r"log[- _]?softmax")),
    Operation("row_normalization", "softmax", _words("softmax", "soft-max")),
    Operation("row_reduction", "logsumexp", _words(r"log[- _]?sum[- _]?exp", "lse")),
    Operation("row_normalization", "layernorm", _words(r"layer[- _]?norm\w*")),
    Operation("row_normalization", "rmsnorm", _words(r"rms[- _]?norm\w*", r"root[- ]mean[- ]square norm\w*")),
    Operation("histogram", "histogram", _words("histogram", r"bin[- ]?counts?", "count occurrences")),
    Operation("prefix_sum", "prefix_sum", _words(r"prefix[- ]sums?", r"cumulative sums?", "cumsum", "scan",
                                                 r"running (?:sum|total)s?")),
    Operation("gemv", "gemv", _words("gemv", r"matrix[- ]vector", "mat-?vec", r"matrix times (?:a )?vector")),
    Operation("gemm", "gemm", _words("gemm", "sgemm", "matmul", r"mat-?mul", r"matrix[- ]multipl\w*",
                                     r"matrix (?:matrix )?products?", r"multiply (?:two )?matrices",
                                     r"multiply (?:the )?matrix \w+ (?:\([^)]*\) )?(?:by|with|and) (?:the )?matrix",
                                     r"(?<=\w )@(?= \w)")),
    Operation("transpose", "permute", _words(r"permut\w*", r"swap (?:the )?(?:last two |first two )?(?:axes|dims?|dimensions)")),
    Operation("transpose", "transpose", _words(r"transpos\w*")),
    Operation("stencil", "conv2d", _words(r"2-?d (?:convolution|conv|stencil|filter|correlation)\w*",
                                          r"\d+ ?x ?\d+ (?:convolution|conv|stencil|filter|box blur|blur|box filter)",
                                          r"box blur", "blur")),
    Operation("stencil", "conv1d", _words(r"(?:1-?d )?convol\w*", "conv1d", r"1-?d conv", "stencil",
                                          r"moving average", r"\d+-point (?:filter|stencil|convolution)")),
    Operation("row_reduction", "argmax", _words("argmax", r"arg ?max", r"index of the (?:max|maximum|largest)")),
    Operation("row_reduction", "l2norm", _words(r"l2[- ]?norms?", r"euclidean norms?", r"(?:vector )?norms? of")),
    Operation("row_reduction", "mean", _words("mean", "means", "average", "averages", "avg")),
    Operation("row_reduction", "sum", _words("sum", "sums", "total", "add up", "reduce-?sum")),
    Operation("row_reduction", "max", _words("max", "maximum", "maxima", "largest", "biggest")),
    Operation("row_reduction", "min", _words("min", "minimum", "minima", "smallest")),
)

UNSUPPORTED_HINTS = _words("sort\\w*", "fft", "attention", "top-?k", "scatter", "gather", "inverse", "solve",
                           "eigen\\w*", "cholesky", "svd", "qr", "random", "hash\\w*", "compress\\w*")

# What a reduction gives one of per row or column, as a noun the axis qualifies ("row sums", "column maxima").
_REDUCED = (r"(?:sums?|means?|averages?|totals?|maxima|maximums?|max(?:es)?|minima|minimums?|mins?|"
            r"(?:l[12][- ])?norms?|argmax(?:es)?)")
ROW_WORDS = _words(r"(?:each|every|per|a) row", "per-row", "row-?wise", "rows-?wise", rf"row {_REDUCED}",
                   r"over (?:the )?(?:last|columns? of each row)", r"along (?:the )?(?:last|rows?)", r"for each row",
                   "by rows?", r"(?:over|along|across) (?:axis|dim|dimension)\s*=?\s*-?1")
COLUMN_WORDS = _words(r"(?:each|every|per|a) col(?:umn)?", r"per-col(?:umn)?", r"col(?:umn)?-?wise",
                      rf"col(?:umn)? {_REDUCED}", r"over (?:the )?rows of each column",
                      r"along (?:the )?(?:first|columns?)", r"for each col(?:umn)?", "by columns?",
                      r"(?:over|along|across) (?:axis|dim|dimension)\s*=?\s*0")
# 'Element-wise' said of a reduction's name ('element-wise maximum of a and b'): a map of two arrays, not a reduction.
ELEMENTWISE = _words(r"(?:element|point)[- ]?wise")
# Norms other than the L2 norm the readers generate: said, they are refused (read as "norm", they would be L2).
OTHER_NORMS = _words(r"l\s*-?\s*(?:0|1|3|p|inf\w*|∞)[- ]?norms?",
                     r"(?:manhattan|taxicab|infinity|chebyshev|max(?:imum)?|nuclear|spectral|p)[- ]norms?")


def refuse_other_norm(text: str, understood: list[str]) -> None:
    """A norm the intent qualifies as other than L2 (the readers' only norm) is refused, with the spec form's way
    to say an L1 norm."""
    if other := OTHER_NORMS.search(text):
        raise IntentError(f"'{other.group(0)}' is not the L2 (Euclidean) norm the readers generate", understood,
                          "the L2 norm (an L1 norm is y = sum(abs(x), axis=1) in the spec form, a max norm "
                          "y = max(abs(x), axis=1))")


GLOBAL_WORDS = _words("all (?:the )?(?:elements|values|entries)", "total", "global(?:ly)?", "entire", "whole",
                      "grand", "overall", "of a vector", "of the vector", "everything")

DTYPES = (
    ("float64", _words("double", "doubles", "fp64", "float64", "f64")),
    ("float32", _words("float", "floats", "fp32", "float32", "f32", "single")),
    ("int32", _words("int", "ints", "int32", "integers?", "i32")),
)
UNSUPPORTED_DTYPES = _words("half", "fp16", "float16", "bf16", "bfloat16", "int8", "uint8", "fp8", "int64", "tf32")

_NUMBER = r"(?:\d+\s*<<\s*\d+|2\s*(?:\^|\*\*)\s*\d+|\d+(?:\.\d+)?\s*(?:[kKmMgG]\b|e\d+)?)"
_DIM = rf"(?:{_NUMBER}|[A-Za-z_]\w*)"
SHAPE = re.compile(rf"(?<![\w.])({_DIM})\s*(?:x|×|by)\s*({_DIM})(?:\s*(?:x|×|by)\s*({_DIM}))?(?![\w.])")
# Dimension names a shape may use besides numbers ('rows x cols', 'M x K'); any other word is prose ('a x b').
SHAPE_SYMBOLS = {"rows", "cols", "columns", "M", "N", "K", "m", "n", "k", "B", "H", "W", "C", "batch", "height",
                 "width", "channels"}
COMPACT_SHAPE = re.compile(r"(?<!\w)([A-Z])x([A-Z])(?:x([A-Z]))?(?!\w)")   # MxK, MxNxK
# Numeric shapes written as a product or a tuple: 4096*393216, (16, 256, 256), [4096, 1024].
NUMERIC_SHAPES = (re.compile(r"(?<![\w.*])(\d+)\s*\*\s*(\d+)(?:\s*\*\s*(\d+))?(?![\w.*])"),
                  re.compile(r"[(\[]\s*(\d+)\s*,\s*(\d+)(?:\s*,\s*(\d+))?\s*,?\s*[)\]]"))
ASSIGNED_SIZE = re.compile(rf"\b(n|N|M|K|rows|cols|length|size|bins)\s*(?:=|:|is)\s*({_NUMBER})", re.IGNORECASE)
ROWS_OF = re.compile(rf"({_NUMBER})\s+rows\s+(?:of|with|and|by|x)\s+({_NUMBER})(?:\s+(?:columns|cols|elements))?",
                     re.IGNORECASE)
COUNT = re.compile(rf"({_NUMBER})\s*(?:floats|doubles|ints|elements|values|keys|items|entries|integers|numbers)\b")
LENGTH = re.compile(rf"(?:length|size|of|with)\s+({_NUMBER})(?!\s*(?:x|×|by|\*)\s*\w)\b"
                    r"(?!\s*-?\s*(?:taps?|points?|wide|bins|rows|cols|columns)\b)")
BINS = re.compile(rf"({_NUMBER})\s*bins\b|\bbins\s*=\s*({_NUMBER})")
WIDTH = re.compile(r"(?<![\w.])(\d)\s*(?:x\s*\d\s+|-?points?\b|-?taps?\b|-wide\b|\s+wide\b)|\bwidth\s*=?\s*(\d)"
                   r"|\bradius\s*=?\s*(\d)")
EPS = re.compile(r"\b(?:eps|epsilon)\s*(?:=|:|of)?\s*([0-9.]+(?:e-?\d+)?)", re.IGNORECASE)
ASSIGNMENT = re.compile(r"(?<![\w=<>!])([A-Za-z_]\w*)\s*=\s*(?!=)([^;]+)")
# What may follow an elementwise formula: the end, punctuation, or a word that starts the rest of the sentence.
FORMULA_END = re.compile(r"\s*(?:$|[,.;(:]|(?:elementwise|element-wise|for|over|where|with|on|in|of|across|per|"
                         r"broadcast\w*|and|using|given|if|as|when|n\b)\b)", re.IGNORECASE)
NAME_AFTER = re.compile(r"\b(?:of|from|over|on|in|to)\s+(?:the |a |an )?(?:input |matrix |vector |tensor |array |"
                        r"image |signal |keys |values )?([A-Za-z_]\w*)")
OUTPUT_AFTER = re.compile(r"(?:\binto|\bto|->|\bas|\bstore (?:it |the result )?in|\bwrite (?:to|into))\s+"
                          r"(?:the |an? )?(?:output |array |vector |matrix )?([A-Za-z_]\w*)")
PERMUTATION = re.compile(r"\(?\s*(\d)\s*,\s*(\d)\s*,\s*(\d)\s*\)?")

# Words that are never array names, however the sentence puts them.
STOP = set("""a an the each every all per row rows column columns col cols element elements matrix matrices vector
vectors tensor array image signal value values entry entries float floats double doubles int ints integer integers
fp32 fp64 single it its of into to from over on in with and by as is are along last first axis axes dim dims
dimension dimensions size sizes length n m k shape elementwise element-wise wise input output result results
keys key bins bin width point points filter weights weight kernel stencil convolution transpose sum mean max min
norm softmax batch that this these those so then be for x_ where compute computes computing apply applies take get
product total number numbers items""".split())


INTENT_COMMENT = re.compile(r"^[ \t]*//[ \t]*@optiml[ \t]+generate:[ \t]*(.*?)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class IntentComment:
    line: int                 # 0-based line of the `// @optiml generate: ...` comment
    intent: str


def intent_comments(text: str) -> list[IntentComment]:
    """Every `// @optiml generate: <intent>` line of a file. The generated kernel goes below it after a blank line:
    a contract block directly under the comment would be read as part of this `// @optiml` comment run."""
    return [IntentComment(text.count("\n", 0, match.start()), match.group(1))
            for match in INTENT_COMMENT.finditer(text)]


# Words that change what an operation computes ("sum of absolute values", "normalize each row to unit norm"): outside
# an elementwise formula, no family computes them, so they are refused rather than ignored.
MODIFIERS = _words("abs", "absolute", "squares?", "squared", "exp", "exponentials?", "logs?", "logarithms?",
                   "negatives?", "negated", "weighted", "masked", "scaled", "normali[sz]e[sd]?", "normali[sz]ing",
                   "unit", "clipped", "sorted", "plus", "minus", "times", "divided", "except", "excluding",
                   "ignoring", "positive", "non-?zero", "add", "adds", "added", "subtract\\w*", "multipl\\w*",
                   "divid\\w*", "bias", "gamma", "beta", "alpha", "affine", "temperature", "accumulat\\w*",
                   "conjugate", "then", "every other", "alternat\\w*", "scales?")


# Operations a reader would name (activations, reductions, losses, layers): one the intent names must be the one
# read, or the reading is of something else ("gelu tanh approximation" is not tanh).
OPERATION_WORDS = re.compile(
    r"\b(square\s+roots?|gelu|silu|swish|mish|selu|elu|softplus|softsign|hard[\s_-]*tanh|hard[\s_-]*sigmoid|"
    r"hard[\s_-]*swish|prelu|leaky|argmin|cumprod|cumulative\s+product|product\s+reduction|prod|huber|hinge|kl|"
    r"divergence|entropy|triplet|pool(?:ing)?|conv\w*|batch\s*norm\w*|instance\s*norm\w*|group\s*norm\w*|"
    r"frobenius|dropout|embedding|attention|tri[ul]|triangular|diag(?:onal)?)\b", re.IGNORECASE)


def unused_operation_word(text: str, spec: KernelSpec) -> str | None:
    """An operation word of the intent ('triangular', 'huber', 'gelu'...) that a reading of it does not use, if any."""
    triangle = f"tri{spec.triangle[0]} {spec.triangle}-triangular" if spec.triangle else ""
    read = " ".join([spec.operation, spec.expression or "", spec.family, triangle]).lower().replace("_", " ")
    for match in OPERATION_WORDS.finditer(text):
        word = re.sub(r"\s+", " ", match.group(1).lower())
        if word.replace(" ", "") not in read.replace(" ", "") and not (
                spec.family == "stencil" and word.startswith("conv")):
            return match.group(1)
    return None


def _refuse_unused_operations(text: str, spec: KernelSpec) -> None:
    """An operation word of the intent that the reading does not use: refused, naming it."""
    if (word := unused_operation_word(text, spec)) is not None:
        raise IntentError(f"'{word}' names an operation this reading ({spec.operation}) does not compute",
                          [f"operation {spec.operation.replace('_', ' ')}"], "the operations listed, each named once")


def _refuse_modifiers(text: str, found: Operation, understood: list[str]) -> None:
    rest = found.pattern.sub(" ", text)
    rest = re.sub(r"matrix times (?:a )?vector|root[- ]mean[- ]square", " ", rest, flags=re.IGNORECASE)
    if modifier := MODIFIERS.search(rest):
        what = "the function" if found.operation == "map" else found.operation.replace("_", " ")
        raise ModifierRefusal(modifier.group(0), f"'{modifier.group(0)}' changes what {what} computes, and "
                              f"OptiML generates the operation only as listed", understood,
                              f"the plain operation, or an elementwise formula (y = ...) for a transform; "
                              f"supported: {SUPPORTED}")


# Names an array cannot take: C++ keywords and types, size symbols and scalars, and the variables of the kernels
# generate/families.py writes for each family.
RESERVED = set("""auto bool break case char class const continue default delete do double else enum explicit extern
false float for goto half if inline int long namespace new operator private protected public register return short
signed sizeof static struct switch template this throw true try typedef typename union unsigned using virtual void
volatile while rows cols n M N K d0 d1 d2 eps""".split())
KERNEL_LOCALS: dict[str, set[str]] = {
    "elementwise": {"i"},
    "row_reduction": {"row", "c", "acc", "best", "top", "v"},
    "column_reduction": {"col", "r", "acc", "best", "top", "v"},
    "global_reduction": {"i"},
    "row_normalization": {"row", "c", "top", "total", "shift", "sum", "mean", "var", "d", "inv", "squares"},
    "transpose": {"row", "col", "i", "o0", "o1", "o2"},
    "gemm": {"i", "j", "k", "sum"},
    "gemv": {"row", "c", "sum"},
    "stencil": {"i", "j", "k", "row", "col", "r", "c", "di", "dj", "sum"},
    "histogram": {"i"},
    "prefix_sum": {"i", "k", "sum"},
}


def _checked_names(spec: KernelSpec, understood: list[str]) -> KernelSpec:
    reserved = RESERVED | KERNEL_LOCALS[spec.family]
    clashing = [name for name in [*spec.inputs, spec.output] if name in reserved or name.startswith("__")]
    if clashing:
        raise IntentError(f"the array name '{clashing[0]}' is reserved in the generated kernel", understood,
                          f"another name (not a C++ keyword, a size symbol, or one of: "
                          f"{', '.join(sorted(KERNEL_LOCALS[spec.family]))})")
    return spec


# A number as an intent writes it, standing alone (not inside a word: fp32, x1, conv1d); "4096x1024" is two.
STANDALONE_NUMBER = re.compile(rf"(?<![\w.])(?:\d+(?:\.\d+)?[eE][-+]?\d+|{_NUMBER})(?![\w.])"
                               rf"|(?<![\w.])\d+(?=\s*[x×]\s*\d)|(?<=[x×])\d+(?![\w.])")
DIMENSIONALITY = re.compile(r"(?<![\w.])(\d)\s*-?\s*d\b", re.IGNORECASE)           # "2-D", "3d"
AXIS = re.compile(r"\b(?:axis|dim|dimension)\s*(?:=\s*)?(-?\d+)", re.IGNORECASE)     # "axis 1", "dim=-1"
DECIMAL = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?:e-?\d+)?(?![\w])")


def _refuse_unused_numbers(text: str, spec: KernelSpec, understood: list[str]) -> None:
    """Every number of the intent must be part of the interpretation (a size, a width, a permutation, eps, a
    constant of the formula, the operation's own dimensionality or axis); one that is not means the intent says
    something this reading misses ("7 taps" read as the default width, "2048 columns" as the default 1024)."""
    used: set[float] = set()
    used.update(float(v) for v in spec.sizes.values())
    used.update(float(v) for v in spec.scalars.values())
    used.update(float(v) for v in spec.axes)
    if spec.width:
        used.add(float(spec.width))
    if spec.expression:
        used.update(float(m.group(0)) for m in DECIMAL.finditer(spec.expression))
    # A shape flattened into one size ('(16, 16384)' for n = 262144, element by element): its dimensions are used.
    for dims in _shapes(text):
        if all(_is_number(d) for d in dims) and math.prod(number(d) for d in dims) in spec.sizes.values():
            used.update(float(number(d)) for d in dims)
    rest = text
    dims = 3 if spec.family == "transpose" and len(spec.axes) == 3 else 1 if spec.family in (
        "elementwise", "global_reduction", "histogram", "prefix_sum") or spec.operation == "conv1d" else 2
    for match in DIMENSIONALITY.finditer(text):
        if int(match.group(1)) not in (dims, 1 if dims == 2 and spec.family == "gemm" else dims):
            raise IntentError(f"'{match.group(0)}' data is not what {spec.operation.replace('_', ' ')} is generated "
                              f"for here ({dims}-D)", understood, f"supported: {SUPPORTED}")
        rest = rest.replace(match.group(0), " ", 1)
    along = {"row_reduction": ("1", "-1"), "row_normalization": ("1", "-1"), "column_reduction": ("0",)}
    for match in AXIS.finditer(text):
        if match.group(1) not in along.get(spec.family, ()):
            raise IntentError(f"'{match.group(0)}' is not an axis this reading of the intent uses", understood,
                              f"the axis of a 2-D array that the operation runs along; supported: {SUPPORTED}")
        rest = rest.replace(match.group(0), " ", 1)
    for name in [*spec.inputs, spec.output]:       # names such as x1 hold digits, not numbers
        rest = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", rest)
    unused = []
    for match in STANDALONE_NUMBER.finditer(rest):
        token = match.group(0).strip()
        try:
            value = float(token) if re.fullmatch(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", token) else float(number(token))
        except ValueError:
            continue
        if value not in used:
            unused.append(match.group(0).strip())
    if unused:
        raise IntentError(f"the number{'s' if len(unused) > 1 else ''} {', '.join(unused)} of the intent "
                          f"{'are' if len(unused) > 1 else 'is'} not used by this reading of it "
                          f"({spec.operation.replace('_', ' ')} with sizes "
                          f"{', '.join(f'{k}={v}' for k, v in spec.sizes.items())})", understood,
                          "an intent whose every number this reading uses (a size as '16384 x 2048' or 'n = 1M', a "
                          f"width, eps = 1e-5); supported: {SUPPORTED}")


TRANSPOSED = re.compile(r"\^\s*T\b|\.T\b|ᵀ|\btranspos\w*", re.IGNORECASE)


def _transpose_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent transposes an operand ('A^T', 'transposed') and the reading transposes nothing: a
    product of A^T read as one of A is another product."""
    said = TRANSPOSED.search(intent)
    if said and not (form and re.search(r"\.T\b|transpose|permute|swapaxes", form)):
        raise IntentError(f"'{said.group(0).strip()}' transposes an operand, and this reading ({form}) transposes "
                          f"nothing", [f"operation {reading.operation.replace('_', ' ')}"],
                          "the transposed product in the spec form (y = A.T @ x; A: float32[1024, 512]; "
                          "x: float32[1024])")


# A number glued to a name ('2x', '0.5y'): a product neither reader sees as a number, so 'tanh of 2x' read as
# tanh(x). Not glued: sizes with a unit (1M, 4K, 64-bit), shapes (4096x1024, 3x3), axes counts (2d), ordinals,
# exponents (1e-5).
GLUED_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?!(?:[kKmMgGdD]|[kKmMgG]i?[bB]|bits?|bytes?|st|nd|rd|th)\b|"
                          r"[xX×]\s*\d|[eE][-+]?\d)([A-Za-z_]\w*)")
# Two results asked of one reduction's data ('min and max of each row', 'mean and variance'): a kernel writes one.
_REDUCED = r"(sum|mean|average|max(?:imum)?|min(?:imum)?|prod(?:uct)?|argmax|argmin|variance|std|standard deviation)"
TWO_REDUCTIONS = re.compile(rf"\b{_REDUCED}\s+(?:and|&|,|or|as well as|plus)\s+(?:the\s+|its\s+)?{_REDUCED}\b",
                            re.IGNORECASE)
VALUE_AND_INDEX = re.compile(r"\b(?:arg\s?(?:max|min)\w*\b.*\b(?:return|returning|returns|giving|gives|output"
                             r"|outputs|outputting)\s+(?:the|its|their)\s+(?:max\w*\s+|min\w*\s+)?values?\b|"
                             r"(?:max|min)\w*\b.*\b(?:and|with|plus|along with|as well as)\s+(?:its|their|the)\s+"
                             r"(?:index|indices|position|positions|location|argmax|argmin)\b)", re.IGNORECASE)


def _refuse_glued_numbers(intent: str) -> None:
    if (glued := GLUED_NUMBER.search(intent)) is not None:
        raise IntentError(f"'{glued.group(0)}', a number glued to a name", [],
                          f"the product written out, e.g. '{glued.group(1)} * {glued.group(2)}'")


# An order statistic other than the extreme ('the second largest'); a result of another element type than the
# data's ('of doubles, as floats'); an update of the output in place.
ORDER_STATISTIC = re.compile(r"\b(?:second|third|fourth|fifth|next|\d+(?:st|nd|rd|th)|[kn]-?th)[- ](?:largest|"
                             r"smallest|biggest|highest|lowest|greatest|maximum|minimum|max|min)\b", re.IGNORECASE)
CONVERSION = re.compile(r"\b(?:as|cast(?:ed)? to|convert(?:ed)? to|into) (?:floats|doubles|ints|integers|halfs|"
                        r"fp32|fp64|fp16|float32|float64|int32|int64)\b", re.IGNORECASE)
IN_PLACE_UPDATE = re.compile(r"\w\s*(?:\+|-|\*|/)=(?!=)")      # 'C += A @ B': the output an operand too
# A negation: what is not to be computed ("exact GELU, not the tanh approximation" was read as the tanh form: its
# operation word read, the negation dropped). Said only positively, an intent is read.
NEGATION = re.compile(r"\b(?:not|rather\s+than|instead\s+of|as\s+opposed\s+to|other\s+than)\b|\w+n't\b",
                      re.IGNORECASE)
# An array stored otherwise than row-major ("column-major", Fortran order): every reading assumes row-major.
STORAGE_ORDER = re.compile(r"\b(?:col(?:umn)?[- ]major|fortran(?:[- ]order)?)\b", re.IGNORECASE)
# The output written over an input ("ReLU in-place"): every generated kernel writes a new array.
IN_PLACE = re.compile(r"\bin[- ]place\b|\binplace\b(?!\s*=\s*False)", re.IGNORECASE)
# 'same' padding: PyTorch pads an even kernel unevenly; a reading takes padding as numbers only.
SAME_PADDING = re.compile(r"\bsame[- _]padding\b|\bpadding\s*(?:=|:|of)?\s*['\"]?same\b", re.IGNORECASE)
# What no reading generates, refused wherever the intent says it: read without it, another value would be written.
NOT_GENERATED_ASKS = (
    (NEGATION, "what not to compute is not read (a reading would hold the words it negates)",
     "only what to compute, e.g. 'exact GELU (erf form) of x'"),
    (STORAGE_ORDER, "an array stored otherwise than row-major is not generated", "row-major arrays (or the "
     "transposed operand said as such, A.T)"),
    (IN_PLACE, "an output written over its input is not generated", "the output as a new array"),
    (SAME_PADDING, "'same' padding is not read", "the padding as a number, e.g. 'padding 2' for a 5x5 kernel"),
    (ORDER_STATISTIC, "an order statistic other than the maximum or minimum is not generated",
     "the maximum or minimum, or a sort (not generated)"),
    (CONVERSION, "a result of another element type than the data's is not generated", "the data's own element type"),
    (IN_PLACE_UPDATE, "an update of the output in place is not generated",
     "the output as a formula of the inputs, e.g. 'D = A @ B + C' with C an input"),
)


# Two floating-point element types said of the data ("a float32 matrix of doubles"): one would be dropped.
FLOAT_TYPES = (re.compile(r"\b(?:float32|fp32|floats?|single)\b", re.IGNORECASE),
               re.compile(r"\b(?:float64|fp64|doubles?)\b", re.IGNORECASE))
# A normalization module whose learnable weight and bias are on by default (nn.InstanceNorm's are off).
AFFINE_MODULE = re.compile(r"\b(?:nn\.)?(?:LayerNorm|GroupNorm|BatchNorm[123]d|RMSNorm)\s*\([^)]*\)")
NO_AFFINE = re.compile(r"\b(?:elementwise_)?affine\s*=\s*False\b|\b(?:without|no|not)\s+(?:an?\s+)?"
                       r"(?:learn\w*\s+)?(?:affine|weights?|scale)\b", re.IGNORECASE)


def _refuse_unsupported_asks(intent: str) -> None:
    for pattern, problem, expected in NOT_GENERATED_ASKS:
        if (said := pattern.search(intent)) is not None:
            raise IntentError(f"'{said.group(0)}': {problem}", [], expected)
    said = [found.group(0) for found in (pattern.search(intent) for pattern in FLOAT_TYPES) if found]
    if len(said) > 1:
        raise IntentError(f"two element types ('{said[0]}', '{said[1]}')", [], "one element type")
    if (module := AFFINE_MODULE.search(intent)) is not None and not NO_AFFINE.search(intent):
        raise IntentError(f"'{module.group(0)}' has a weight and a bias (PyTorch's default, affine) the intent does not "
                          "give", [], "the weight and bias in the spec form (layer_norm(x, weight=w, bias=b)), or "
                                      "'elementwise_affine=False' / 'affine=False'")



def _refuse_two_results(intent: str) -> None:
    """A maximum's value and its index asked together, an argmax asked to return the value, or two reductions of
    the same data ('min and max'): one would be computed and the other dropped (a kernel writes one of them)."""
    if (said := VALUE_AND_INDEX.search(intent)) is not None:
        raise IntentError(f"'{said.group(0)}' asks for a maximum's or minimum's value and its index together", [],
                          "one of them: 'max of each row' or 'argmax of each row'")
    if (said := TWO_REDUCTIONS.search(intent)) is not None and said.group(1).lower() != said.group(2).lower():
        raise IntentError(f"'{said.group(0)}' asks for two results", [], "one operation per kernel")


# An arithmetic operator after a name or a call in the intent ('x / sum(x)', 'sigmoid(x) * x'); not between numbers
# (a size '4096*1024') and not '^' (a transpose 'A^T', a power '2^20').
FORMULA_OPERATOR = re.compile(r"(?:\b[A-Za-z_]\w*|\))\s*(\*\*|[*/+]|\s-\s)\s*(?=[\w(])")


def _operators_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent writes a formula whose operator the reading's expression lacks: it read a part of the
    formula ('y = x / sum(x)' read as the sum, 'sigmoid(x) * x' as the sigmoid). A product's '*' ('C = A * B') is
    its '@'; a power may be read as a product."""
    expression = (form or "").split(";")[0].partition("=")[2]
    for said in FORMULA_OPERATOR.finditer(intent):
        operator = said.group(1).strip()
        wanted = "*" if operator == "**" else operator
        if wanted == "*" and reading.family in ("gemm", "gemv"):
            continue
        if wanted not in expression:
            around = re.split(r"[,;]| for | of ", intent[said.start():said.end() + 12])[0].strip()
            raise IntentError(f"the '{operator}' of '{around}' is part of a formula this reading ({form}) leaves out",
                              [f"operation {reading.operation.replace('_', ' ')}"],
                              "the whole formula in the spec form (y = x / sum(x); x: float32[8192])")


# Arrays named as a list of operands ('of a, b and c', 'between p and q'): each one a reading must read.
OPERAND_LIST = re.compile(r"\b(?:of|between)\s+((?:[A-Za-z]\w{0,2}\s*,\s*)*[A-Za-z]\w{0,2}\s*,?\s+and\s+"
                          r"[A-Za-z]\w{0,2})\b")
NOT_NAMES = {"a", "an", "the", "and", "of", "its", "all", "two", "one", "row", "rows", "col", "cols", "sum", "max",
             "min", "fp", "int"}


# A name given a shape ('W 512 x 256', 'x: (64, 32)', 'v of 4096'): an array of the intent.
SHAPED_NAME = re.compile(r"\b([A-Za-z_]\w{0,5})\s*(?::|\bis\b|\bof shape\b|\bshaped\b)?\s*(?:\(\s*)?\d+\s*(?:[x×*,]\s*\d+)+"
                         r"|\b([A-Za-z_]\w{0,2})\s+of\s+\d+\b")
NOT_ARRAYS = NOT_NAMES | {"matrix", "tensor", "vector", "array", "input", "shape", "size", "length", "each", "both",
                          "with", "for", "on", "by", "is", "in", "to", "from", "as", "into", "over", "x", "dim",
                          "axis", "batch", "floats", "ints", "bins", "window", "kernel", "stride", "groups", "are",
                          "has", "have", "where", "rows", "cols", "width", "height", "float", "double", "sized",
                          "inputs", "image", "img", "signal", "data", "logits", "scores", "values", "number", "top",
                          "first", "last", "all", "every"}


def _operands_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent lists operands ('the sum of a, b and c') or gives a name a shape ('relu(W x)
    for W 512 x 256 and x of 256') that it does not read: it read one of them."""
    read = {*reading.inputs, reading.output}
    for shaped in SHAPED_NAME.finditer(intent):
        name = shaped.group(1) or shaped.group(2)
        if name.lower() not in NOT_ARRAYS and name not in read and \
                re.search(rf"\b{re.escape(name)}\b", intent[:shaped.start()] + intent[shaped.end():]):
            raise IntentError(f"'{name}' is given a shape and this reading ({', '.join(reading.inputs)}) does not "
                              f"read it", [f"operation {reading.operation.replace('_', ' ')}"],
                              "every array of the intent in the spec form (y = relu(W @ x); ...)")
    for listed in OPERAND_LIST.finditer(intent):
        # 'a' in a list of single names is one of them ('the average of a and b'), not an article.
        names = [n for n in re.split(r"\s*,\s*|\s+and\s+", listed.group(1).strip(" ,"))
                 if n == "a" or n.lower() not in NOT_NAMES]
        if len(names) >= 2 and not set(names) <= read:
            raise IntentError(f"'{listed.group(0)}' names operands this reading ({', '.join(reading.inputs)}) does not "
                              f"read", [f"operation {reading.operation.replace('_', ' ')}"],
                              "the formula over all of them in the spec form (y = a + b + c; a: float32[4096]; ...)")


# A math function named in words or as a call, and what the spec form writes for it: 'the sqrt of the sum of each
# row' read as the sum would drop it.
FUNCTION_NAMES = {"sqrt": r"\bsqrt\b|square root", "exp": r"\bexp\b|exponentials?\b",
                  "log": r"\blog\b|logarithms?\b", "tanh": r"\btanh\b", "sigmoid": r"\bsigmoid\b",
                  "sin": r"\bsin\b|\bsine\b", "cos": r"\bcos\b|cosine(?! sim)", "erf": r"\berf\b"}
# 'square the matrix', 'the matrix squared': a matrix power or each element squared, which the words do not say.
SQUARED_MATRIX = re.compile(r"\bsquare\s+(?:the|a|this|that)\s+(?:\w+\s+)?matri(?:x|ces)\b|\bmatri(?:x|ces)\s+"
                            r"(?:\w+\s+)?(?:squared|cubed)\b|\b(?:square|cube)\s+of\s+(?:the|a)\s+matri(?:x|ces)\b",
                            re.IGNORECASE)


def _functions_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where a reading of an operation other than an elementwise formula leaves out a math function the
    intent names ('sqrt of the sum of each row' read as the sum). Formulas and activations are read
    function by function by both readers (an activation's form is its formula: 'hard sigmoid' writes no sigmoid);
    losses and cross entropy name the logs and exps their definitions hold."""
    if reading.family in ("elementwise", "row_pair_loss", "cross_entropy"):
        return
    written = (form or "").split(";")[0].lower()
    for function, said in FUNCTION_NAMES.items():
        found = re.search(said, intent, re.IGNORECASE)
        if found and function not in written:
            raise IntentError(f"'{found.group(0)}' is a function this reading ({form}) does not apply",
                              [f"operation {reading.operation.replace('_', ' ')}"],
                              "the whole formula in the spec form (y = sqrt(sum(x, axis=1)); x: float32[64, 64])")


INDEX_WORDS = re.compile(r"\b(?:ind(?:ex|exes|ices)|positions?|locations?)\b", re.IGNORECASE)


def _index_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent asks for indices ('max pooling ... and returns the indices') and the
    reading computes values: it would write the maxima where the positions were asked."""
    said = INDEX_WORDS.search(intent)
    if said and reading.operation not in ("argmax", "argmin") and "arg" not in (reading.expression or ""):
        raise IntentError(f"'{said.group(0)}' asks for positions, and this reading ({reading.operation}) computes "
                          f"values", [f"operation {reading.operation.replace('_', ' ')}"], "argmax or argmin, or the "
                          "values alone")


# A keyword argument written as in a PyTorch call whose value is a flag (`count_include_pad=False`): numbers are
# checked as every number is, words as operation words; a flag must be in the reading, or change nothing the kernel
# writes (its outputs are flat: a kept dimension is the same elements).
FLAG_ARGUMENT = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*(True|False)\b")
FLAGS_THAT_CHANGE_NOTHING = ("inplace", "keepdim", "keepdims")     # inplace=True: refused first (IN_PLACE)
# Flags a reading holds without writing them: a convolution's bias is an operand of its call or absent.
FLAGS_HELD = {"bias": lambda value, reading: reading.family in ("convolution", "transposed_convolution") and
              (len(reading.inputs) > 2) == (value == "True"),
              # A normalization's affine weight and bias: held as given (inputs beyond the data) or not.
              "affine": lambda value, reading: reading.family.endswith("normalization") and
              (len(reading.inputs) > 1) == (value == "True")}
FLAGS_HELD["elementwise_affine"] = FLAGS_HELD["affine"]


def _flags_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent sets a flag the reading does not hold: `AvgPool2d(..., count_include_pad=False)`
    read as an average that counts the padding would be another operation."""
    written = (form or "").replace(" ", "")
    for said in FLAG_ARGUMENT.finditer(intent):
        name, value = said.groups()
        held = name in FLAGS_HELD and FLAGS_HELD[name](value, reading)
        if name not in FLAGS_THAT_CHANGE_NOTHING and not held and f"{name}={value}" not in written:
            raise IntentError(f"'{said.group(0)}' is not held by this reading of the intent "
                              f"({form or reading.operation})", [f"operation {reading.operation.replace('_', ' ')}"],
                              "the operation without that argument, or an operation that has it")


# Sums that are a scan's outputs, every one of them: a reading that is not a scan reads one sum where many were asked.
SCAN_SUMS = re.compile(r"\b(?:prefix|suffix|partial|running|cumulative)[- ]sums?\b|\bscan\b", re.IGNORECASE)


def _scan_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent asks for prefix, suffix, partial or running sums and the reading is not a scan
    ('suffix sums of each row' read as each row's sum)."""
    said = SCAN_SUMS.search(intent)
    if said and reading.family not in ("prefix_sum", "row_scan") and "cum" not in (form or ""):
        raise IntentError(f"'{said.group(0)}' asks for a scan, and this reading ({reading.operation}) computes one "
                          f"value a row", [f"operation {reading.operation.replace('_', ' ')}"],
                          "'cumsum along dim 1', reverse for suffix sums")


# An axis said of the result ('per row', 'for each sample'): a reading that reduces everything to one value drops it.
PER_AXIS = re.compile(r"\b(?:per|each|every|for each) (?:row|column|sample|example|item|batch element)s?\b|"
                      r"\b(?:row|column)-?wise\b|reduction\s*=\s*['\"]none['\"]", re.IGNORECASE)
WHOLE_REDUCTION = re.compile(r"\b(?:sum|mean|max|min|prod|norm|argmax|argmin|kl_div|cross_entropy|\w*_loss)\(")


OVER_THE_BATCH = re.compile(r"\b(?:averaged|mean|average|summed|sum)\s+(?:over|across)\s+(?:the\s+)?batch\b",
                            re.IGNORECASE)


def _axis_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent asks for a value per row (or sample) and the reading reduces everything to one:
    'the mean squared error between a and b, per row' read as one mean; or a loss 'averaged over the batch' read as
    the mean of every element (a value per sample first, or not: only cross entropy's rows are its samples)."""
    batch = OVER_THE_BATCH.search(intent)
    if batch and form and WHOLE_REDUCTION.search(form.partition(";")[0]) and "cross_entropy(" not in form and \
            "batchmean" not in form:
        raise IntentError(f"'{batch.group(0)}': the mean of each sample's value or of every element?",
                          [f"operation {reading.operation}"], "the reduction in the spec form")
    said = PER_AXIS.search(intent)
    if said and form and WHOLE_REDUCTION.search(form.partition(";")[0]) and "axis=" not in form:
        raise IntentError(f"'{said.group(0)}' asks for a value per {said.group(0).split()[-1]}, and this reading "
                          f"({reading.operation}) computes one value", [f"operation {reading.operation}"],
                          "the reduction along its axis in the spec form")


# An operand said to be one value ('s a float scalar', 'the scalar alpha'), which a reading may declare an array.
SCALAR_NAME = re.compile(r"\b([A-Za-z_]\w*),?\s+(?:is\s+)?(?:a|an|the)\s+(?:\w+\s+)?scalar\b|"
                         r"\bscalars?\s+(?!value|values|multipl\w*|product)([A-Za-z_]\w*)\b", re.IGNORECASE)


def _scalars_kept(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where a name the intent calls a scalar is an array of the reading: 'C = A * s, s a float scalar'
    read with s an array of A's shape is another kernel."""
    for said in SCALAR_NAME.finditer(intent):
        name = said.group(1) or said.group(2)
        if form and re.search(rf"(?:^|;)\s*{re.escape(name)}\s*:\s*\w+\[", form):
            raise IntentError(f"'{said.group(0)}' is one value, and this reading reads {name} as an array ({form})",
                              [f"operation {reading.operation}"], "the scalar as a number in the formula, e.g. 'C = A "
                              "* 2.5'")


# The whole array asked as one ("over all elements", "flattened", "of the entire matrix").
WHOLE = re.compile(r"\b(?:all\s+(?:the\s+)?(?:\S+\s+)?(?:elements|entries|values)|flatten\w*|entire|whole|"
                   r"global(?:ly)?)\b", re.IGNORECASE)


def _whole_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent asks for the whole array as one and the reading runs along an axis: 'softmax over all
    elements of a 1024 x 1024 matrix, as one flattened distribution' read as a softmax of each row."""
    said = WHOLE.search(intent)
    if said and form and "axis=" in form.partition(";")[0]:
        raise IntentError(f"'{said.group(0)}' asks for the whole array as one, and this reading ({form.partition(';')[0]}"
                          f") runs along an axis", [f"operation {reading.operation}"],
                          "the axis in the spec form, or a reduction of all elements")


# A scan's direction said in words ("cumulative sum ... from the right" was read as the forward scan).
BACKWARD = re.compile(r"\b(?:from\s+the\s+(?:right|end|back)|right[- ]to[- ]left|backwards?)\b", re.IGNORECASE)


# An order or a part of an operation said in words no reading holds ("layer norm ..., centered only" was read as the
# whole norm, "row-wise max ... in descending order" as the max).
ORDER_OR_PART = re.compile(r"\b(?:descending|ascending|(?:centered|centering|scaled|scaling)\s+only)\b",
                           re.IGNORECASE)


def _direction_and_order_used(intent: str, reading: KernelSpec, form: str | None) -> None:
    """Refused where the intent runs its operation from the end and the reading does not (`reverse=True`), or says
    an order or a part of it that no reading holds."""
    said = BACKWARD.search(intent)
    if said and "reverse=True" not in (form or ""):
        raise IntentError(f"'{said.group(0)}' runs the operation from the end, and this reading ({form}) does not",
                          [f"operation {reading.operation}"], "a reverse scan: 'reverse cumsum ...' or reverse=True")
    if (said := ORDER_OR_PART.search(intent)) is not None:
        raise IntentError(f"'{said.group(0)}': an order or a part of the operation that this reading ({form}) does "
                          "not hold", [f"operation {reading.operation}"], "the whole operation")


def _read_whole(intent: str, reading: KernelSpec, form: str | None, written: str | None = None) -> KernelSpec:
    """A reading of the intent, refused where it leaves something out: a transposed operand, an operator or a math
    function of a formula, an operand of a list or a name given a shape, the indices asked, a flag argument, the
    sums of a scan, a value per row or of the whole array, a direction, a scalar; and, last, any word that neither
    the reading (its spec form `form`, and `written`, the words reader's own spelling of it) nor the words of asking
    for a kernel explain (generate/vocabulary.py)."""
    for check in (_transpose_used, _operators_used, _functions_used, _operands_used, _index_used, _flags_used,
                  _scan_used, _axis_used, _whole_used, _direction_and_order_used, _scalars_kept):
        check(intent, reading, form)
    forms = [f for f in (form or f"{reading.output} = {reading.operation}({', '.join(reading.inputs)})", written) if f]
    if left := unexplained_words(intent, reading, forms):
        raise IntentError(f"{', '.join(repr(w) for w in left)}: not understood (this reading, {forms[0]}, does not "
                          f"explain {'them' if len(left) > 1 else 'it'})", [f"operation {reading.operation}"],
                          "the intent without words beyond its operation, operands, shapes and parameters")
    return reading


def parse_intent(intent: str) -> KernelSpec:
    """The spec an intent asks for, in the spec form (generate/spec.py) or in words; an IntentError when it is
    ambiguous or outside the families, or when the interpretation leaves a number of the intent unused.

    Words have two readers: the families' (below) and the translation into the spec form (generate/words.py). A
    reading stands when the other reader agrees, or refuses without finding the intent contradicting it; readings
    that differ, or one the other reader finds contradicted (a size the operation cannot take, a number or an
    operation word left over), are refused."""
    from optiml_engine.generate.spec import EXAMPLE, is_spec_form, parse_spec, spec_form   # they build on this one
    from optiml_engine.generate.words import Contradiction, spec_from_words

    if is_spec_form(intent):
        return parse_spec(intent)
    try:
        _refuse_glued_numbers(intent)
        _refuse_two_results(intent)
        _refuse_unsupported_asks(intent)
        if (said := SQUARED_MATRIX.search(intent)) is not None:
            raise IntentError(f"'{said.group(0)}': a matrix power or each element squared", [],
                              "'each element of x squared' (y = x * x) or the product (y = A @ A)")
        family_reading = family_refusal = words_reading = words_refusal = None
        try:
            family_reading = _parse(intent)
            _refuse_unused_numbers(" ".join(intent.split()), family_reading,
                                   [f"operation {family_reading.operation.replace('_', ' ')}"])
            _refuse_unused_operations(" ".join(intent.split()), family_reading)
            _scan_used(intent, family_reading, spec_form(family_reading))
        except IntentError as refused:
            family_reading, family_refusal = None, refused
        try:
            written, assumed = spec_from_words(intent)
            words_reading = parse_spec(written)
            words_reading = words_reading.model_copy(update={"intent": intent,
                                                             "assumed": [*words_reading.assumed, *assumed]})
        except IntentError as refused:
            words_refusal = refused
        if family_reading is not None and words_reading is not None:
            if reading_key(family_reading) != reading_key(words_reading):
                raise IntentError(f"two readings disagree: {spec_form(family_reading) or family_reading.operation} "
                                  f"and {spec_form(words_reading)}", [], "the intent in the spec form")
            # What either reader assumed is said (the words reader may say a default the families' reader took).
            assumed = list(dict.fromkeys([*family_reading.assumed, *words_reading.assumed]))
            return _read_whole(intent, family_reading.model_copy(update={"assumed": assumed}),
                               spec_form(family_reading), written)
        if family_reading is not None:
            if isinstance(words_refusal, Contradiction):
                raise words_refusal
            return _read_whole(intent, family_reading, spec_form(family_reading))
        if words_reading is not None:
            form = spec_form(words_reading) or ""
            if isinstance(family_refusal, ModifierRefusal) and not family_refusal.shown_in(form.partition("=")[2]):
                raise family_refusal
            return _read_whole(intent, words_reading, form, written)
        # Both refuse: the translation's reason when it recognized an operation the families' reader did not, or
        # when the families' reading left the intent's numbers over (a sign it read another operation: 'max' in
        # 'max pooling'); the families' reason otherwise, which knows its own families best.
        unused = "not used by this reading"
        if words_refusal is not None and words_refusal.understood and (
                not family_refusal.understood or unused in family_refusal.message and unused not in
                words_refusal.message):
            raise words_refusal
        raise family_refusal
    except IntentError as refused:
        # Words the parser could not read may still be said exactly.
        refused.expected = f"{refused.expected}; or exactly, in the spec form, e.g. '{EXAMPLE}' (docs/generate.md)"
        refused.args = (str(refused),)
        raise


def reading_key(spec: KernelSpec) -> dict:
    """What a spec computes, its arrays named by position (inputs a0, a1..., the output out): two readings of an
    intent agree when their keys are equal."""
    names = {name: f"a{i}" for i, name in enumerate(spec.inputs)} | {spec.output: "out"}

    def renamed(text: str) -> str:
        return re.sub(r"[A-Za-z_]\w*", lambda m: names.get(m.group(), m.group()), text)

    expression = None
    if spec.expression is not None:
        expression = renamed(str(parse_expr(spec.expression, INTENT, ELEMENTWISE_FUNCTIONS)))
    sizes = spec.sizes
    if spec.family == "elementwise" and not spec.row_vectors and not spec.column_vectors:
        sizes = {"n": math.prod(sizes.values())}     # element by element, rows x cols is n = rows * cols
    return {"family": spec.family, "operation": spec.operation, "sizes": sizes, "dtype": spec.dtype,
            "inputs": len(spec.inputs), "expression": expression,
            "row_vectors": sorted(names[n] for n in spec.row_vectors),
            "column_vectors": sorted(names[n] for n in spec.column_vectors), "scalars": spec.scalars, "axes": spec.axes,
            "transpose_a": spec.transpose_a, "transpose_b": spec.transpose_b, "triangle": spec.triangle,
            "reverse": spec.reverse,
            "exclusive": spec.exclusive,
            **spec.model_dump(include={"window", "stride", "padding", "dilation", "groups", "output_padding",
                                       "reduction"})}


def _parse(intent: str) -> KernelSpec:
    text = " ".join(intent.split())
    if not text:
        raise IntentError("the intent is empty", [], f"a description of the kernel; supported: {SUPPORTED}")
    understood: list[str] = []
    dtype = _dtype(text, understood)
    found = next((op for op in OPERATIONS if op.pattern.search(text)), None)
    assignment = _elementwise_assignment(text)
    if assignment is not None and (found is None or found.family == "row_reduction" and _assignment_owns(text, found)):
        return _checked_names(_refuse_words_around_formula(
            text, _elementwise(text, assignment, dtype, understood), assignment[1], understood), understood)
    if found is None:
        function = _applied_function(text, understood)
        if function is not None:
            return _checked_names(_elementwise(text, function, dtype, understood), understood)
        hint = UNSUPPORTED_HINTS.search(text)
        problem = f"'{hint.group(0)}' is not an operation OptiML generates" if hint else \
            "no supported operation recognized"
        raise IntentError(problem, understood, f"one of: {SUPPORTED}")
    understood.append(f"operation {found.operation.replace('_', ' ')}")
    _refuse_modifiers(text, found, understood)
    builder = {
        "row_reduction": _reduction, "row_normalization": _row_normalization, "transpose": _transpose,
        "gemm": _gemm, "gemv": _gemv, "stencil": _stencil, "histogram": _histogram, "prefix_sum": _prefix_sum,
    }[found.family]
    return _checked_names(builder(text, found, dtype, understood), understood)


# ---------------------------------------------------------------------------------------------------------------
# Pieces of an intent


def number(token: str) -> int:
    """'4096', '16M' (binary: 16 * 2^20), '1<<24', '2^20', '1e6'."""
    token = token.replace(" ", "")
    if "<<" in token:
        base, shift = token.split("<<")
        return int(base) << int(shift)
    for power in ("^", "**"):
        if power in token:
            base, exponent = token.split(power)
            return int(base) ** int(exponent)
    suffix = token[-1].lower()
    if suffix in "kmg":
        return int(float(token[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[suffix])
    return int(float(token))


def _is_number(token: str) -> bool:
    return bool(re.fullmatch(_NUMBER, token.strip()))


def _dtype(text: str, understood: list[str]) -> str | None:
    unsupported = UNSUPPORTED_DTYPES.search(text)
    if unsupported:
        raise IntentError(f"element type '{unsupported.group(0)}' is not generated", understood,
                          "float (fp32) or double (fp64) data; int keys for histograms and prefix sums")
    for dtype, pattern in DTYPES:
        if pattern.search(text):
            understood.append(f"element type {dtype}")
            return dtype
    return None


def _float_dtype(dtype: str | None, assumed: list[str], operation: str) -> str:
    if dtype is None:
        assumed.append("element type float32 (fp32)")
        return "float32"
    if dtype == "int32":
        raise IntentError(f"{operation} of integers is not generated", [f"operation {operation}"],
                          "float (fp32) or double (fp64) data")
    return dtype


def _shapes(text: str) -> list[list[str]]:
    """Every 2-D or 3-D shape written in the intent, dims as written ('4096', 'rows', 'M')."""
    found = []
    for pattern in (COMPACT_SHAPE, *NUMERIC_SHAPES):
        for match in pattern.finditer(text):
            found.append((match.start(), [d for d in match.groups() if d]))
    position = 0
    while match := SHAPE.search(text, position):
        dims = [d.strip() for d in match.groups() if d]
        if all(_is_number(d) or d in SHAPE_SYMBOLS for d in dims):
            found.append((match.start(), dims))
            position = match.end()
        else:   # prose before a shape ('norm x 4096x4096'): look again from the next character
            position = match.start() + 1
    return [dims for _, dims in sorted(found)]


def _assigned_sizes(text: str) -> dict[str, int]:
    return {m.group(1): number(m.group(2)) for m in ASSIGNED_SIZE.finditer(text)}


def _one_dimension(text: str, assumed: list[str]) -> dict[str, int]:
    """The length of a 1-D problem: 'n = 1M', '16M floats', 'of length 4096'; a default otherwise."""
    assigned = _assigned_sizes(text)
    for key in ("n", "N", "length", "size"):
        if key in assigned:
            return {"n": assigned[key]}
    for pattern in (COUNT, LENGTH):
        if match := pattern.search(text):
            return {"n": number(match.group(1))}
    assumed.append(f"n={DEFAULT_SIZES['1d']['n']} (benchmark size; the intent gives no length)")
    return dict(DEFAULT_SIZES["1d"])


def _two_dimensions(text: str, assumed: list[str], symbols: tuple[str, str] = ("rows", "cols"),
                    default: str = "2d", skip: list[str] | None = None) -> dict[str, int] | None:
    """rows x cols from the first 2-D shape (other than `skip`, a filter's); symbolic dims ('rows x cols') take
    the default benchmark size. None when the intent writes no 2-D shape."""
    shapes = [s for s in _shapes(text) if len(s) == 2 and s != skip]
    if not shapes and (rows_of := ROWS_OF.search(text)):
        shapes = [[rows_of.group(1), rows_of.group(2)]]
    assigned = _assigned_sizes(text)
    if not shapes:
        if all(s in assigned for s in symbols):
            return {s: assigned[s] for s in symbols}
        return None
    sizes = {}
    for symbol, dim in zip(symbols, shapes[0]):
        if _is_number(dim):
            sizes[symbol] = number(dim)
        else:
            sizes[symbol] = assigned.get(dim, DEFAULT_SIZES[default][symbol])
            if dim not in assigned:
                assumed.append(f"{symbol}={sizes[symbol]} (benchmark size for '{dim}')")
    return sizes


def _names(text: str, defaults: list[str], exclude: set[str] = frozenset()) -> list[str]:
    """Array names the intent uses after 'of', 'from' ... (not vocabulary words), in order; defaults fill up."""
    names: list[str] = []
    for match in NAME_AFTER.finditer(text):
        name = match.group(1)
        if name.lower() not in STOP and name not in exclude and name not in names and not _is_number(name) \
                and not UNSUPPORTED_DTYPES.fullmatch(name) and not any(p.fullmatch(name) for _, p in DTYPES):
            names.append(name)
    return (names + [d for d in defaults if d not in names])[:len(defaults)]


def _output(text: str, default: str, taken: list[str]) -> str:
    for match in OUTPUT_AFTER.finditer(text):
        name = match.group(1)
        if name.lower() not in STOP and name not in taken and not _is_number(name):
            return name
    return default if default not in taken else default + "_out"


# ---------------------------------------------------------------------------------------------------------------
# Families


def _refuse_three_dimensions(text: str, operation: str, understood: list[str]) -> None:
    """These families are rows and columns: an array of three dimensions is the spec translation's to read."""
    if any(len(dims) == 3 for dims in _shapes(text)):
        raise IntentError(f"a {operation} of a 3-D array", understood, "the axis and shape in the spec form")


def _reduction(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    operation = found.operation
    if operation == "l2norm":
        refuse_other_norm(text, understood)
    if elementwise := ELEMENTWISE.search(text):
        raise IntentError(f"an {elementwise.group(0)} {operation} is not a reduction", understood,
                          "the formula in the spec form (y = maximum(a, b); a: float32[1024]; b: float32[1024])")
    _refuse_three_dimensions(text, operation, understood)
    sizes = _two_dimensions(text, assumed)
    row, column, total = ROW_WORDS.search(text), COLUMN_WORDS.search(text), GLOBAL_WORDS.search(text)
    if operation == "logsumexp" and not column:
        row = True    # over the last dimension, as softmax
    if row and column:
        raise IntentError(f"{operation} both per row and per column", understood, "one axis: per row or per column")
    if not (row or column) and (total or sizes is None):
        family: GenerateFamily = "global_reduction"
        if operation not in ("sum", "mean", "max", "min"):
            raise IntentError(f"a global {operation} is not generated", understood,
                              "a global sum, mean, max or min; or the operation per row or per column")
        one_d = _one_dimension(text, assumed) if sizes is None else {"n": sizes["rows"] * sizes["cols"]}
        sizes = one_d
    elif not (row or column):
        understood.append(f"a {sizes['rows']}x{sizes['cols']} matrix")
        raise IntentError(f"a {operation} of a matrix, but not along which axis", understood,
                          "'of each row', 'of each column' or 'of all elements'")
    else:
        family = "row_reduction" if row else "column_reduction"
        if sizes is None:
            sizes = dict(DEFAULT_SIZES["2d"])
            assumed.append(f"rows={sizes['rows']} cols={sizes['cols']} (benchmark size; the intent gives no shape)")
    inputs = _names(text, ["x"])
    output = _output(text, "out", inputs)
    where = {"row_reduction": "rows", "column_reduction": "cols", "global_reduction": "all"}[family]
    return KernelSpec(intent=text, family=family, operation=operation, kernel=f"{operation}_{where}_{inputs[0]}",
                      dtype=_float_dtype(dtype, assumed, operation), sizes=sizes, inputs=inputs, output=output,
                      assumed=assumed)


def _row_normalization(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if COLUMN_WORDS.search(text) or re.search(r"\bcolumn\b", text, re.IGNORECASE):
        raise IntentError(f"{found.operation} over columns is not generated", understood,
                          f"{found.operation} over each row (the last dimension)")
    _refuse_three_dimensions(text, found.operation, understood)
    sizes = _two_dimensions(text, assumed)
    if sizes is None:
        sizes = dict(DEFAULT_SIZES["2d"])
        assumed.append(f"rows={sizes['rows']} cols={sizes['cols']} (benchmark size; the intent gives no shape)")
    inputs = _names(text, ["x"])
    output = _output(text, "y", inputs)
    scalars = {}
    if found.operation in ("layernorm", "rmsnorm"):
        eps = EPS.search(text)
        scalars["eps"] = float(eps.group(1)) if eps else 1e-5
        if not eps:
            assumed.append("eps=1e-5")
        assumed.append("no affine weight or bias")
    return KernelSpec(intent=text, family="row_normalization", operation=found.operation, kernel=f"{found.operation}_rows_{inputs[0]}",
                      dtype=_float_dtype(dtype, assumed, found.operation), sizes=sizes, inputs=inputs, output=output,
                      scalars=scalars, assumed=assumed)


def _transpose(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if product := re.search(r"\bmultipl\w*|\bproducts?\b|\bmatmul\b|\btimes\b|\bgem[mv]\b|@", text, re.IGNORECASE):
        raise IntentError(f"a transpose, and the intent names a product too ('{product.group(0)}')", understood,
                          "one operation; a transposed product in the spec form (y = A.T @ x; A: float32[1024, 512]; "
                          "x: float32[1024])")
    dtype = _float_dtype(dtype, assumed, found.operation)
    shapes = _shapes(text)
    three = next((s for s in shapes if len(s) == 3), None)
    if found.operation == "permute" or three is not None:
        if three is None:
            raise IntentError("a permute without a 3-D shape", understood, "a shape such as 64 x 512 x 256")
        symbols = ("d0", "d1", "d2")
        sizes = {s: number(d) if _is_number(d) else 256 for s, d in zip(symbols, three)}
        order = [m for m in PERMUTATION.finditer(text) if sorted(m.groups()) == ["0", "1", "2"]]
        if order:
            axes = [int(a) for a in order[-1].groups()]
        elif re.search(r"last two", text, re.IGNORECASE):
            axes = [0, 2, 1]
        elif re.search(r"first two", text, re.IGNORECASE):
            axes = [1, 0, 2]
        else:
            raise IntentError("a permute without its order of axes", understood + [f"shape {' x '.join(three)}"],
                              "the new order, e.g. (0, 2, 1), or 'swap the last two axes'")
        if axes == [0, 1, 2]:
            raise IntentError("the permutation (0, 1, 2) leaves the tensor as it is", understood,
                              "an order that moves an axis")
        inputs = _names(text, ["x"])
        return KernelSpec(intent=text, family="transpose", operation="permute",
                          kernel=f"permute_{''.join(map(str, axes))}_{inputs[0]}", dtype=dtype, sizes=sizes,
                          inputs=inputs, output=_output(text, "y", inputs), axes=axes, assumed=assumed)
    sizes = _two_dimensions(text, assumed)
    if sizes is None:
        sizes = dict(DEFAULT_SIZES["image"])
        assumed.append(f"rows={sizes['rows']} cols={sizes['cols']} (benchmark size; the intent gives no shape)")
    inputs = _names(text, ["x"])
    return KernelSpec(intent=text, family="transpose", operation="transpose", kernel=f"transpose_{inputs[0]}",
                      dtype=dtype, sizes=sizes, inputs=inputs, output=_output(text, "y", inputs), assumed=assumed)


def _gemm(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if dtype not in (None, "float32"):
        raise IntentError(f"GEMM in {dtype} is not generated", understood, "fp32 (float) GEMM")
    dtype = _float_dtype(dtype, assumed, "gemm")
    transpose_b = bool(re.search(r"B\s*(?:\^T|\^t|\.T|')|B transposed|transpose(?:d)? (?:of )?B|\bNT\b", text))
    assigned = _assigned_sizes(text)
    shapes = [s for s in _shapes(text) if len(s) == 2]
    sizes: dict[str, int] = {}
    if all(s in assigned for s in "MNK"):
        sizes = {s: assigned[s] for s in "MNK"}
    elif len(shapes) >= 2:
        (m, k), (b0, b1) = shapes[0], shapes[1]
        n = b0 if transpose_b else b1
        for symbol, dim in (("M", m), ("N", n), ("K", k)):
            sizes[symbol] = number(dim) if _is_number(dim) else assigned.get(dim, DEFAULT_SIZES["gemm"][symbol])
    elif len(shapes) == 1 and shapes[0][0] == shapes[0][1] and _is_number(shapes[0][0]):
        sizes = {s: number(shapes[0][0]) for s in "MNK"}
        assumed.append(f"square matrices: M=N=K={sizes['M']}")
    elif not shapes and (single := re.search(rf"(?<![\w.])({_NUMBER})(?![\w.])", text)):
        sizes = {s: number(single.group(1)) for s in "MNK"}
        assumed.append(f"square matrices: M=N=K={sizes['M']}")
    else:
        sizes = dict(DEFAULT_SIZES["gemm"])
        assumed.append("M=N=K=2048 (benchmark size; the intent gives no shapes)")
    names = _gemm_names(text)
    return KernelSpec(intent=text, family="gemm", operation="gemm", kernel="sgemm_nt" if transpose_b else "sgemm_nn",
                      dtype=dtype, sizes={s: sizes[s] for s in "MNK"}, inputs=names[:2], output=names[2],
                      transpose_b=transpose_b, assumed=assumed)


def _gemm_names(text: str) -> list[str]:
    match = re.search(r"\b([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*(?:@|\*|x|times)?\s*([A-Za-z_]\w*)", text)
    if match and all(name.lower() not in STOP for name in match.groups()):
        return [match.group(2), match.group(3), match.group(1)]
    return ["A", "B", "C"]


def _gemv(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if dtype not in (None, "float32"):
        raise IntentError(f"GEMV in {dtype} is not generated", understood, "fp32 (float) GEMV")
    dtype = _float_dtype(dtype, assumed, "gemv")
    sizes = _two_dimensions(text, assumed)
    if sizes is None:
        sizes = {"rows": 16384, "cols": 4096}
        assumed.append("rows=16384 cols=4096 (benchmark size; the intent gives no shape)")
    match = re.search(r"\b([A-Za-z_]\w*)\s*=\s*([A-Za-z_]\w*)\s*(?:@|\*|·)?\s*([A-Za-z_]\w*)", text)
    names = [match.group(2), match.group(3), match.group(1)] if match else ["A", "x", "y"]
    return KernelSpec(intent=text, family="gemv", operation="gemv", kernel=f"gemv_{names[0]}", dtype=dtype,
                      sizes=sizes, inputs=names[:2], output=names[2], assumed=assumed)


def _stencil(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    dtype = _float_dtype(dtype, assumed, "convolution")
    width_match = WIDTH.search(text)
    if width_match and width_match.group(3):
        width = 2 * int(width_match.group(3)) + 1
    elif width_match:
        width = int(width_match.group(1) or width_match.group(2))
    else:
        width = 3
        assumed.append("filter width 3")
    if width % 2 == 0 or not 1 <= width <= 9:
        raise IntentError(f"a filter of width {width}", understood, "an odd width from 1 to 9 (a centred filter)")
    box = bool(re.search(r"blur|box|moving average|mean filter", text, re.IGNORECASE))
    if found.operation == "conv2d":
        sizes = _two_dimensions(text, assumed, skip=[str(width), str(width)], default="image")
        if sizes is None:
            sizes = dict(DEFAULT_SIZES["image"])
            assumed.append(f"rows={sizes['rows']} cols={sizes['cols']} (benchmark size; the intent gives no shape)")
        defaults = ["img", "w"]
    else:
        sizes = _one_dimension(text, assumed)
        defaults = ["x", "w"]
    inputs = _names(text, defaults[:1] if box else defaults)
    if box:
        assumed.append(f"box filter: the weights are all 1/{width ** (2 if found.operation == 'conv2d' else 1)}")
    assumed.append("zero padding outside the input")
    return KernelSpec(intent=text, family="stencil", operation=found.operation,
                      kernel=f"{found.operation}_{width}_{inputs[0]}", dtype=dtype, sizes=sizes, inputs=inputs,
                      output=_output(text, "out" if found.operation == "conv2d" else "y", inputs), width=width,
                      scalars={"box": 1.0} if box else {}, assumed=assumed)


def _histogram(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if dtype not in (None, "int32"):
        raise IntentError(f"a histogram of {dtype} values is not generated", understood,
                          "a histogram of int keys in [0, bins)")
    bins_match = BINS.search(text)
    if not bins_match:
        raise IntentError("a histogram without its number of bins", understood, "e.g. 'into 256 bins'")
    bins = number(bins_match.group(1) or bins_match.group(2))
    if not 1 <= bins <= 1 << 16:
        raise IntentError(f"a histogram of {bins} bins", understood, "1 to 65536 bins")
    sizes = _one_dimension(text, assumed)
    inputs = _names(text, ["keys"])
    return KernelSpec(intent=text, family="histogram", operation="histogram", kernel=f"histogram{bins}",
                      dtype="int32", sizes=sizes, inputs=inputs, output=_output(text, "bins", inputs), width=bins,
                      assumed=assumed + ["keys are int32 in [0, bins); bins are unsigned int counters, added to"])


def _prefix_sum(text: str, found: Operation, dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    if dtype is None:
        dtype = "float32"
        assumed.append("element type float32 (fp32)")
    sizes = _one_dimension(text, assumed)
    inputs = _names(text, ["x"])
    exclusive = bool(re.search(r"exclusive", text, re.IGNORECASE))
    if exclusive:
        raise IntentError("an exclusive prefix sum is not generated", understood, "an inclusive prefix sum")
    return KernelSpec(intent=text, family="prefix_sum", operation="prefix_sum", kernel=f"prefix_sum_{inputs[0]}",
                      dtype=dtype, sizes=sizes, inputs=inputs, output=_output(text, "y", inputs),
                      assumed=assumed + ["inclusive: y[i] = x[0] + ... + x[i]"])


# ---------------------------------------------------------------------------------------------------------------
# Elementwise


def _elementwise_assignment(text: str) -> tuple[str, str] | None:
    """`target = formula` where the formula parses, reads at least one array (not 'eps = 1e-5', 'n = 1M'), and is
    followed by the end of the intent or a word that starts the rest of the sentence ('y = A x' is no formula)."""
    for match in ASSIGNMENT.finditer(text):
        target, tail = match.group(1), match.group(2)
        if target.lower() in ("n", "m", "k", "rows", "cols", "eps", "epsilon", "length", "size", "bins", "width"):
            continue
        formula = _formula_text(tail)
        if formula is not None:
            return target, formula
    return None


def _formula_text(tail: str) -> str | None:
    """The longest start of an assignment's right side that parses as a formula reading an array and ends where
    the sentence goes on."""
    ends = sorted({m.start() for m in re.finditer(r"\s|$|[,.;:]", tail)}, reverse=True)
    for end in ends:
        candidate = tail[:end].strip()
        if not candidate or not FORMULA_END.match(tail, end):
            continue
        try:
            tree = parse_expr(candidate, INTENT, ELEMENTWISE_FUNCTIONS)
        except OptimlError:
            continue
        if tree.symbols():
            return candidate
    return None


# What the words around a formula may say (both readers): its operands' kinds and element type (OPERAND_WORDS), a
# shape, and how to ask for it (REQUEST_WORDS). Any other word may change what is computed ("sorted", "summed over
# rows", "transposed", "in place") and is refused, never dropped.
OPERAND_WORDS = (r"a|an|the|is|are|has|have|of|with|and|both|each|shape|shaped|size|float32|fp32|float64|fp64|float|"
                 r"floats|double|doubles|single|precision|int|ints|int32|integers?|matrix|matrices|array|arrays|tensor|"
                 r"tensors|row-major|contiguous")
REQUEST_WORDS = (r"where|for|every|all|sizes|elementwise|element-wise|input|inputs|output|data|compute|computes|"
                 r"calculate|calculates|evaluate|evaluates|write|writes|kernel|cuda|gpu|that|given|same|on|in|over|"
                 r"take|takes|n")
# Words that describe one operand apart from the others (a vector, its length, a matrix's rows and columns): only
# the words reader, which reads each operand's own description (generate/words.py), reads them; the families'
# reader gives every operand of a formula one shape, and refuses them.
DESCRIBING_ONE = r"bias|vector|vectors|length|elements|entries|values|rows|columns|cols|per-column"
_NUMBER_OR_MARK = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?[kKmMgG]?(?:[x×]\d+)*|[,.;:()\[\]x×*<^=\s]|//|#"


def words_allowed(*vocabularies: str) -> re.Pattern:
    return re.compile(rf"\b(?:{'|'.join(vocabularies)})\b|{_NUMBER_OR_MARK}", re.IGNORECASE)


FORMULA_WORDS = words_allowed(OPERAND_WORDS, REQUEST_WORDS)
DESCRIBED_FORMULA_WORDS = words_allowed(OPERAND_WORDS, REQUEST_WORDS, DESCRIBING_ONE)
# A row vector as the families' reader reads one (_elementwise's row_vectors), understood where it read one.
ROW_VECTOR_PHRASE = re.compile(r"\b(?:(?:a\s+)?(?:bias\s+)?vector\s+)?(?:broadcast\s+)?(?:over\s+(?:the\s+)?rows|"
                               r"to\s+(?:each|every)\s+row)\b", re.IGNORECASE)


def unexplained_word(words: str, names: set[str], allowed: re.Pattern = DESCRIBED_FORMULA_WORDS) -> str | None:
    """The first word of the words around a formula that is neither one of its `names` nor an `allowed` one."""
    for word in re.finditer(r"\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\w*|[^\W\d]\w*(?:-\w+)*|\S", words):
        if word.group(0) not in names and not allowed.fullmatch(word.group(0)):
            return word.group(0)
    return None


def _refuse_words_around_formula(text: str, spec: KernelSpec, formula: str, understood: list[str]) -> KernelSpec:
    """The words around an elementwise formula (`y = a * b + c where ...`) say only what FORMULA_WORDS allows (with
    DESCRIBING_ONE's of a formula over vectors), a row vector the reading holds as one, and name no array the
    formula does not read."""
    start = text.find(formula, text.find(spec.output))
    around = text[:start] + " " + text[start + len(formula):]
    if spec.row_vectors:
        around = ROW_VECTOR_PHRASE.sub(" ", around)
    # Of one length, every operand is the vector the words may describe (a length said of another is a number this
    # reading leaves unused, and refused).
    allowed = DESCRIBED_FORMULA_WORDS if set(spec.sizes) == {"n"} else FORMULA_WORDS
    if (word := unexplained_word(around, {*spec.inputs, spec.output}, allowed)) is not None:
        raise IntentError(f"'{word}' beside the formula {spec.output} = {formula}: the words around a formula may give "
                          "only its operands' shapes and element type", understood,
                          "the operands' shapes and element type only ('where x is 4096 x 1024 float32')")
    return spec


def _assignment_owns(text: str, found: Operation) -> bool:
    """True when the reduction word matched inside the formula (`y = max(x, 0)`), not as the intent's operation."""
    assignment = _elementwise_assignment(text)
    match = found.pattern.search(text)
    return assignment is not None and match is not None and match.group(0) in assignment[1]


ROW_VECTOR_ADD = re.compile(r"\badd (?:the |a )?(?:bias |row )?(?:vector )?([A-Za-z_]\w*) to (?:each|every|all) rows? "
                            r"of (?:the |a )?(?:matrix )?([A-Za-z_]\w*)", re.IGNORECASE)
APPLIED = re.compile(r"\b(exp|log|sqrt|sin|cos|tanh|abs|sigmoid|relu|square|negate)\b", re.IGNORECASE)


def _applied_function(text: str, understood: list[str]) -> tuple[str, str] | None:
    """'sigmoid of x elementwise', 'apply tanh to x', 'square each element of v': a formula of one array; 'add
    vector b to every row of x': x + b, b broadcast over rows."""
    if added := ROW_VECTOR_ADD.search(text):
        vector, matrix = added.groups()
        return _output(text, "y", [vector, matrix]), f"{matrix} + {vector}"
    match = APPLIED.search(text)
    if match is None:
        return None
    functions = list(dict.fromkeys(m.group(1).lower() for m in APPLIED.finditer(text)))
    if len(functions) > 1:     # 'tanh of sigmoid of x': an order of composition this reading would have to guess
        raise IntentError(f"several functions ({', '.join(functions)}) and no formula that composes them",
                          understood, "the formula itself, e.g. 'y = tanh(sigmoid(x))'")
    _refuse_modifiers(text, Operation("elementwise", "map", APPLIED), understood)
    inputs = _names(text, ["x"])
    function = match.group(1).lower()
    formula = {"square": f"{inputs[0]} * {inputs[0]}", "negate": f"-{inputs[0]}"}.get(function,
                                                                                       f"{function}({inputs[0]})")
    return _output(text, "y", inputs), formula


def _elementwise(text: str, assignment: tuple[str, str], dtype: str | None, understood: list[str]) -> KernelSpec:
    assumed: list[str] = []
    output, formula = assignment
    tree = parse_expr(formula, INTENT, ELEMENTWISE_FUNCTIONS)
    for node in _calls(tree):
        if node.function in ("max", "min") and len(node.args) != 2 or node.function == "pow" and len(node.args) != 2:
            raise IntentError(f"{node.function}() in an elementwise formula takes two arguments", understood,
                              f"{node.function}(a, b)")
    if any(isinstance(n, Name) and n.name == output for n in tree.names()):
        raise IntentError(f"the formula reads its output '{output}'", understood, "a new output array name")
    inputs = sorted(tree.symbols(), key=lambda name: formula.index(name))
    understood.append(f"elementwise {output} = {formula}")
    sizes = _two_dimensions(text, assumed)
    row_vectors = [name for name in inputs if re.search(
        rf"(?:vector|bias|row)\s+{re.escape(name)}\b|\b{re.escape(name)}(?:\s+\w+){{0,4}}\s+(?:broadcast|to (?:each|every) "
        rf"row|over (?:the )?rows|has cols|of cols|of length cols)", text)]
    if row_vectors and sizes is None:
        sizes = dict(DEFAULT_SIZES["2d"])
        assumed.append(f"rows={sizes['rows']} cols={sizes['cols']} (benchmark size; the intent gives no shape)")
    if row_vectors and len(row_vectors) == len(inputs):
        raise IntentError("every input is a row vector", understood, "at least one full rows x cols input")
    if sizes is None:
        # Element by element, a tensor's shape flattens: (16, 16384) is n = 262144.
        shaped = [dims for dims in _shapes(text) if all(_is_number(d) for d in dims)]
        sizes = {"n": math.prod(number(d) for d in shaped[0])} if shaped else _one_dimension(text, assumed)
    return KernelSpec(intent=text, family="elementwise", operation="map", kernel=f"map_{output}",
                      dtype=_float_dtype(dtype, assumed, "an elementwise formula"), sizes=sizes, inputs=inputs,
                      output=output, expression=str(tree), row_vectors=row_vectors, assumed=assumed)


def _calls(tree) -> list[Call]:
    found = [tree] if isinstance(tree, Call) else []
    for child in tree.children():
        found += _calls(child)
    return found
