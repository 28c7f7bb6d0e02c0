"""Every word of an intent explained by its reading (issue 17: an intent is understood completely or refused).

The readers (generate/intent.py, generate/words.py) find an operation, its operands, shapes and parameters; a word
they pass over may change what is computed ("restarting at every 128th element", "stored column-major", "with
overlap"). Refusing the words known to do so is a denylist an unseen intent outruns. This is the allowlist: a word
stands only where the reading explains it, by

- naming something in the reading's spec form (an array, a function, a keyword: `axis`, `eps`, `stride`...),
- being a word of what the reading computes (its operation's, family's, functions' and operators' vocabularies),
- saying the element type the reading holds, or
- being one of a small set of words that ask for a kernel and describe data without changing what is computed.

Numbers are not judged here (intent.py refuses a number its reading leaves unused). Words that do change what is
computed ("not", "only", "then", "except", "or", "shifted", "weighted") are in no vocabulary, so they refuse every
reading that holds them.
"""

from __future__ import annotations

import re

from optiml_engine.model import KernelSpec


def _vocabulary(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Asking for a kernel (politely or in passing: "hey", "I'm porting a model"), describing data and naming axes: words
# that say what a kernel is given and where the reading's operation runs, never what it computes. Which axis is
# checked apart (intent.py `_axis_used`, `_whole_used`); what a shape says, by the readers themselves. Not 'long'
# (an element type the readers do not generate).
REQUEST = _vocabulary("""
    a an the this that these those it its them their they i we you me my our your us please
    is are be being been was were will should must can could would may has have having do does doing done
    of for to in on into onto at by with from as so
    and both each every all per whole entire full given using via
    compute computes computed computing calculate calculates calculated calculating evaluate evaluates evaluated
    implement implements implemented implementation write writes written writing return returns returned returning
    produce produces produced producing output outputs give gives giving store stores stored storing
    apply applies applied applying perform performs performed performing make makes get gets need needs want wants
    take takes taking run runs find finds result results kernel kernels cuda gpu function op operation operator
    forward pass layer module code new separate buffer out-of-place contiguous row-major
    input inputs data tensor tensors matrix matrices array arrays vector vectors value values element elements
    entry entries item items number numbers scalar
    shape shapes shaped size sizes sized dimension dimensions dim dims axis axes length
    row rows column columns col cols batch batches sample samples channel channels height width depth
    feature features token tokens sequence time hidden spatial image images signal volume
    along over across within
    last first middle inner innermost outer outermost final trailing leading
    true false keepdim keepdims inplace default
    where between two one down wise also called known aka a.k.a rowwise columnwise vs versus
    activation activations logits class classes vocabulary vocab
    what what's how which way fast fastest quick efficient efficiently optimized
    hey hi thanks i'm i've i'd porting port building writing working model network project experiment
    transformer decoder encoder rnn mlp cnn pipeline
    torch np numpy jnp jax nn f functional tf scipy special pytorch
    nchw ncl ncdhw
""")

# Element types, explained where the reading holds them (a 'double' beside a float32 reading is refused).
ELEMENT_TYPES = {
    "float32": _vocabulary("float float32 floats fp32 single precision single-precision f32"),
    "float64": _vocabulary("double doubles float64 fp64 precision double-precision f64"),
    "int32": _vocabulary("int int32 ints integer integers i32"),
}

REDUCTION = _vocabulary("reduce reduces reduced reducing reduction reductions")
SCAN = _vocabulary("cumulative scan scans running prefix inclusive partial")
NORMALIZATION = _vocabulary("""normalize normalizes normalized normalizing normalization normalise normalised
    norm eps epsilon statistics mean variance stats zero unit""")
# An affine transform's words, where the reading holds its weight and bias.
AFFINE = _vocabulary("""affine learnable parameters parameter weight weights bias scale shift gamma beta
    elementwise_affine""")
LOSS = _vocabulary("""loss losses error errors prediction predictions predicted target targets label labels
    pred preds truth ground""")

# What each operation is called (spec.operation).
OPERATIONS: dict[str, frozenset[str]] = {
    "sum": _vocabulary("""sum sums summed summing summation total totals add adds added adding accumulate σ Σ ∑
        grand"""),
    "mean": _vocabulary("mean means average averages averaged averaging avg arithmetic"),
    "max": _vocabulary("max maximum maxima maximums largest biggest greatest highest amax"),
    "min": _vocabulary("min minimum minima minimums smallest lowest least amin"),
    "prod": _vocabulary("prod product products multiply multiplied multiplying"),
    "argmax": _vocabulary("argmax arg index indices position max maximum largest biggest greatest highest"),
    "argmin": _vocabulary("argmin arg index indices position min minimum smallest lowest least"),
    "l2norm": _vocabulary("norm norms l2 euclidean magnitude magnitudes"),
    "logsumexp": _vocabulary("numerically stable stably logsumexp log sum exp"),
    "softmax": _vocabulary("""numerically stable stably softmax probabilities probability distribution
        distributions normalized logits"""),
    "log_softmax": _vocabulary("""numerically stable stably log_softmax logsoftmax log softmax logits probabilities
        probability"""),
    "layernorm": _vocabulary("""layer layernorm layer_norm instance instancenorm instancenorm1d instancenorm2d
        instancenorm3d instance_norm group groups groupnorm group_norm"""),
    "rmsnorm": _vocabulary("rms rmsnorm rms_norm root square"),
    "l2normalize": _vocabulary("l2 l2_normalize euclidean"),
    "l1normalize": _vocabulary("l1 l1_normalize absolute"),
    "cross_entropy": _vocabulary("""cross entropy cross_entropy crossentropy crossentropyloss categorical nll
        softmax log logits class classes label labels target targets prediction predictions loss"""),
    "conv1d": _vocabulary("""convolution convolutions convolve convolved filter filters weight weights kernel taps tap
        point points stencil window moving average smoothing"""),
    "conv2d": _vocabulary("""convolution convolutions convolve convolved filter filters weight weights kernel stencil
        window box blur smoothing point points image"""),
    "histogram": _vocabulary("histogram histograms bin bins count counts counting frequency frequencies occurrences "
                             "byte bytes key keys"),
    "batchnorm": _vocabulary("batchnorm batch_norm batchnorm1d batchnorm2d batchnorm3d training mode current"),
    "prefix_sum": _vocabulary("sum sums cumsum σ Σ ∑"),
    "cumprod": _vocabulary("product products cumprod"),
    "gemm": _vocabulary("""gemm sgemm dgemm matmul mm bmm multiply multiplies multiplied multiplying multiplication
        product products times batched independent square"""),
    "gemv": _vocabulary("""gemv sgemv matmul mv multiply multiplies multiplied multiplication product times
        matrix-vector"""),
    "transpose": _vocabulary("transpose transposes transposed transposing transposition"),
    "permute": _vocabulary("permute permutes permuted permutation reorder order swap swaps swapped transpose"),
    "max_pool": _vocabulary("max maximum pool pools pooling pooled maxpool maxpool1d maxpool2d maxpool3d window "
                            "windows kernel kernel_size strided padded dilated"),
    "avg_pool": _vocabulary("avg average averaging mean pool pools pooling pooled avgpool avgpool1d avgpool2d "
                            "avgpool3d window windows kernel kernel_size strided padded"),
    "conv": _vocabulary("""conv convolution convolutions convolve convolves convolved conv1d conv2d conv3d filter
        filters weight weights bias plus kernel kernels depthwise grouped dilated strided padded in_channels
        out_channels"""),
    "conv_transpose": _vocabulary("""conv convolution transposed transpose deconvolution convtranspose1d
        convtranspose2d convtranspose3d weight weights bias kernel kernels filters in_channels out_channels strided
        padded dilated"""),
    "cosine_similarity_loss": _vocabulary("cosine similarity cosine-similarity cosine_similarity between pairs pair"),
    "triplet_margin_loss": _vocabulary("""triplet tripletmarginloss anchor anchors positive positives negative
        negatives embeddings embedding distance distances euclidean"""),
    "map": _vocabulary("elementwise element-wise pointwise activation activations"),
}

FAMILIES: dict[str, frozenset[str]] = {
    "row_reduction": REDUCTION, "column_reduction": REDUCTION, "middle_reduction": REDUCTION,
    "global_reduction": REDUCTION | LOSS | _vocabulary("global globally"), "row_pair_loss": LOSS,
    "row_normalization": NORMALIZATION, "axis_normalization": NORMALIZATION, "batch_normalization": NORMALIZATION,
    "row_scan": SCAN, "axis_scan": SCAN,
    "prefix_sum": SCAN,
}

# What a function or an operator of the reading's spec form is called.
FUNCTIONS: dict[str, frozenset[str]] = {
    "exp": _vocabulary("exp exponential exponentials exponentiate e"),
    "log": _vocabulary("log logs logarithm logarithms ln natural"),
    "sqrt": _vocabulary("sqrt square root"),
    "abs": _vocabulary("abs absolute magnitude magnitudes"),
    "erf": _vocabulary("erf error function gelu gaussian exact"),
    "tanh": _vocabulary("tanh hyperbolic tangent"),
    "sigmoid": _vocabulary("sigmoid logistic"),
    "relu": _vocabulary("relu rectified linear"),
    "maximum": _vocabulary("max maximum clamp clamped clamping clip clipped clipping bound bounds lower"),
    "minimum": _vocabulary("min minimum clamp clamped clamping clip clipped clipping bound bounds upper"),
    "kl_div": _vocabulary("kl divergence kullback-leibler kldivloss batchmean already log-probabilities probabilities"),
    "huber_loss": _vocabulary("huber smooth l1 delta"),
    "smooth_l1_loss": _vocabulary("huber smooth l1 beta"),
    "l1_loss": _vocabulary("l1 absolute mae"),
    "mse_loss": _vocabulary("mse squared l2"),
    "hinge_loss": _vocabulary("hinge margin"),
    "gelu": _vocabulary("gelu gaussian error linear unit exact erf-based approximation approximate approximated"),
    "leaky_relu": _vocabulary("leaky relu leakyrelu negative slope negative_slope"),
    "elu": _vocabulary("elu exponential linear unit alpha"),
    "selu": _vocabulary("selu scaled exponential linear unit"),
    "silu": _vocabulary("silu swish sigmoid linear unit a.k.a"),
    "swish": _vocabulary("silu swish a.k.a"),
    "hardtanh": _vocabulary("hardtanh hard tanh clamp clamping clamped clip clipped min max min_val max_val range"),
    "hardsigmoid": _vocabulary("hardsigmoid hard sigmoid"),
    "hardswish": _vocabulary("hardswish hard swish"),
    "softplus": _vocabulary("softplus smooth relu"),
    "softsign": _vocabulary("softsign"),
    "mish": _vocabulary("mish"),
    "clip": _vocabulary("clip clipped clipping clamp clamped range"),
    "clamp": _vocabulary("clip clipped clamp clamped clamping range"),
}
OPERATORS: dict[str, frozenset[str]] = {
    "+": _vocabulary("add adds added adding plus sum addition bias offset"),
    "-": _vocabulary("subtract subtracts subtracted subtracting minus difference differences negative negate negated"),
    "*": _vocabulary("""multiply multiplies multiplied multiplying times product products scale scales scaled scaling
        hadamard"""),
    "/": _vocabulary("divide divides divided dividing division quotient ratio"),
    "**": _vocabulary("power squared square squares"),
    "@": _vocabulary("multiply multiplies multiplied multiplication product times"),
    ".T": _vocabulary("transpose transposed transposes"),
}
WORD = re.compile(r"\d[\w.]*|[^\W\d_][^\W_]*(?:['’][a-z]+\b)?(?:[-_][^\W\d_][^\W_]*)*")


def _inflections(word: str) -> list[str]:
    """`word` and the stems it may inflect ('sums' sum, 'normalized' normalize, 'summing' sum)."""
    stems = [word]
    for ending, replacements in (("'s", ("",)), ("ies", ("y",)), ("es", ("", "e")), ("s", ("",)),
                                 ("ed", ("", "e")), ("ing", ("", "e")), ("ly", ("",))):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)]
            stems += [stem + r for r in replacements]
            if len(stem) > 2 and stem[-1] == stem[-2]:          # 'summing', 'summed'
                stems.append(stem[:-1])
    return stems


def explained_by(reading: KernelSpec, forms: list[str]) -> frozenset[str]:
    """The words `reading` explains: `forms` are the spec forms it was read as (its own, and the words reader's as
    written, which keeps the names of the activations and losses its own writes out)."""
    arrays = {name.lower() for name in [*reading.inputs, reading.output]}     # explained where named (_named)
    identifiers = {word.lower() for form in forms for word in re.findall(r"[A-Za-z_]\w*", form)} - arrays
    words = set(REQUEST) | ELEMENT_TYPES[reading.dtype] | identifiers
    words |= {part for word in identifiers for part in word.split("_")}
    words |= OPERATIONS.get(reading.operation, frozenset()) | FAMILIES.get(reading.family, frozenset())
    for function in identifiers & FUNCTIONS.keys():
        words |= FUNCTIONS[function]
    for form in forms:
        body = form.partition("=")[2].split(";")[0]
        for operator, vocabulary in OPERATORS.items():
            if re.search(r"(?<!\*)\*(?!\*)" if operator == "*" else re.escape(operator), body):
                words |= vocabulary
        if re.search(r"(\b\w+\b|\([^()]*\)) \* \1", body):       # x * x, (p - t) * (p - t): a square
            words |= OPERATORS["**"]
        if reading.operation == "sum" and "*" in body:
            words.add("dot")
        if reading.family in ("row_scan", "axis_scan", "prefix_sum") and "*" in body:
            words |= {"masked", "mask"}             # cumsum(x * mask)
    if reading.row_vectors or reading.column_vectors:
        words |= _vocabulary("broadcast broadcasts broadcasted broadcasting bias")
    if reading.family.endswith("normalization") and len(reading.inputs) > 1:
        words |= AFFINE
    if reading.operation in ("argmax", "argmin"):
        words |= ELEMENT_TYPES["int32"]             # the indices' type
    if reading.reverse:
        words |= _vocabulary("reverse reversed suffix right left end back backward backwards from")
    if reading.exclusive:
        words |= _vocabulary("exclusive excluding exclude excludes preceding previous before strictly leaves out own")
    return frozenset(words)


# 'no bias', 'without affine parameters', 'no padding', 'affine=False': explained where the reading holds none of it.
ABSENT = re.compile(r"\b(?:no|without)\s+(?:an?\s+|any\s+)?(bias|affine|learnable|padding|weights?)"
                    r"(?:\s+(?:parameters|transform|weights))?\b|\b(?:elementwise_)?(affine)\s*=\s*False\b",
                    re.IGNORECASE)
# 'the same shape': what a result keeps ('same padding', 'the same weights' would change what is computed).
SAME_SHAPE = re.compile(r"\b(?:the\s+)?same\s+(?:shape|size|dimensions|element\s+type|dtype|type)\b", re.IGNORECASE)
# Names in code: indexed (`out[i]`) or passed alone (`F.softmax(attn, dim=-1)`).
CODE_NAME = re.compile(r"\b[A-Za-z_]\w*(?=\[)|(?<=\()\s*[A-Za-z_]\w*(?=\s*[,)])")


def _absent(reading: KernelSpec, thing: str) -> bool:
    """Whether the reading holds none of `thing` (ABSENT's: padding, a bias, weights, affine parameters)."""
    if thing == "padding":
        return not any(reading.padding)
    if reading.family.endswith("normalization"):
        return len(reading.inputs) == 1                    # the data alone: no weight or bias
    if reading.family in ("convolution", "transposed_convolution"):
        return thing == "bias" and len(reading.inputs) < 3  # x, w and a bias; a convolution always has weights
    return thing == "bias" and not reading.row_vectors and not reading.column_vectors


def _named(intent: str, name: str) -> bool:
    """True where the intent says `name` as an array's name: short (`x`, `emb`), spelled as code (`log_q`, `x2`,
    `Wq`), after the word that names it (`matrix A`, `logits attn`, `into y`) or before what it is (`x: `, `x (`,
    `x is`, `x of shape`); not a word the reader took for a name ('in tiles', 'of the largest')."""
    if len(name) <= 3 or re.search(r"[\d_]|.[A-Z]", name):
        return True
    said = re.escape(name)
    return re.search(rf"\b(?:matrix|matrices|tensor|tensors|vector|vectors|array|arrays|input|inputs|output|buffer|"
                     rf"called|named|and|logits|activations|into|to|as)\s+{said}\b|->\s*{said}\b|"
                     rf"\b{said}\s*(?::|\(|\[|=|,\s*(?:a|an|the)\b|\bis\b|\bare\b|\bhas\b|\bof\s+shape\b|"
                     rf"\bshaped\b)", intent) is not None


def unexplained_words(intent: str, reading: KernelSpec, forms: list[str]) -> list[str]:
    """The words of `intent` its reading does not explain, each once, in the intent's order."""
    names = {name.lower() for name in [*reading.inputs, reading.output, *reading.scalars] if _named(intent, name)}
    code_names = {name.strip().lower() for name in CODE_NAME.findall(intent)}
    explained = explained_by(reading, forms) | names | code_names
    said = ABSENT.sub(lambda m: m.group(0) if not _absent(reading, (m.group(1) or m.group(2)).lower()) else " ",
                      SAME_SHAPE.sub(" ", intent.replace("ᵀ", " ")))
    left: list[str] = []
    for match in WORD.finditer(said):
        word = match.group(0).replace("’", "'").lower()
        if word[0].isdigit() or len(word) == 1:     # numbers (judged apart); one letter: an index, a name, an axis
            continue
        parts = [word] if any(s in explained for s in _inflections(word)) else re.split(r"[-_]", word)
        for part in parts:
            if part and not any(stem in explained for stem in _inflections(part)) and part not in left:
                left.append(part)
    return left
