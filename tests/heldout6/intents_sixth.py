"""Sixth held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~60 lines of
tests/heldout5/intents_fifth.py (for the file format, not its phrasings), nothing under optiml_engine/, bench/,
scratch/, server/ or the rest of tests/, no git history, and ran no OptiML code.

This set is adversarial but fair: each intent is phrased so that a careless reader would turn it into a different
operation. The phrasings mix kernel comments, docstrings, PyTorch/NumPy calls in prose, the spec form itself, math
notation (Σ, Aᵀ, `A'`), terse notes and layout letters (`N=16, C=64, H=W=112`, NHWC).

Intents with a spec form are the ones whose exact reading is generated per the docs, often next to a trap: NumPy's
`np.max(x, 0)` (a reduction, not a ReLU), a clamp with only a lower bound, a formula that mentions a named operation
(sum of absolute values, max of the negated values, mean of squares, a hinge loss with margin 2.0 written out),
global average pooling (a reduction over H and W, not over everything), softmax along dim 0, over the last axis of a
1-D array or over the channels of an NHWC tensor, log of a softmax, F.normalize with p=1, affine layer/RMS/group
norm, training-mode batch norm, exclusive int32 and reverse column scans, a masked cumsum, products in several layouts
(Aᵀ B, Q Kᵀ, Aᵀ x, diag(d) B, tril of a square product), a 3-D permute that swaps the outer axes, pooling,
convolutions and losses with non-default parameters.

Intents expected to be refused (None) add a modifier the docs do not list as generated (variance, top-k, softmax
temperature, a flattened softmax, a running max or mean, weighted or masked means, values with indices, division by
a row max, centering, a root mean square, eval-mode batch norm, RMS norm with a bias, layer norm over leading axes,
padding='same' with an even kernel, reflect padding, return_indices, count_include_pad=False, label smoothing,
dropout, a product plus a bias or times a scalar, softmax of a transpose, PReLU per channel, softplus with beta,
pooling over the H and W of NHWC), or contradict themselves (a per-row vector beside a matrix, an axis said in words
and as a number that disagree, inner sizes that do not agree including a transposed `A'`, an element count that does
not match the shape, operands that do not broadcast, axes that are not neighbours, groups that do not divide the
channels, targets of the wrong length). A misreading is never acceptable; a refusal always is.

Expected forms name arrays positionally: the comparison ignores names. A negative axis in an intent is written in its
expected form as the positive axis it denotes.

Do not edit after measuring; add cases in a new set.
"""

SIXTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- elementwise: traps in NumPy/PyTorch conventions ---------------------------------------------------
    (
        "y = np.max(x, 0); x: float32[4096, 1024]",
        "y = max(x, axis=0); x: float32[4096, 1024]",
    ),
    (
        "y = np.maximum(x, 0.0) where x is a 2048 x 2048 float32 matrix",
        "y = maximum(x, 0.0); x: float32[2048, 2048]",
    ),
    (
        "torch.clamp(h, min=-1.0) -- a lower bound only, no upper bound -- for h of shape [64, 4096], fp32",
        "y = maximum(x, -1.0); x: float32[64, 4096]",
    ),
    (
        "// clip every element of x into [-3.0, 3.0]; x is float[1024][1024]",
        "y = hardtanh(x, min_val=-3.0, max_val=3.0); x: float32[1024, 1024]",
    ),
    (
        '"""Exact GELU (the erf form, not the tanh approximation) of x, x: float32[8192, 3072]."""',
        "y = gelu(x); x: float32[8192, 3072]",
    ),
    (
        "out = 2.0 * a - b / 3.0, where a and b are both float32[2048, 2048]",
        "y = 2.0 * a - b / 3.0; a: float32[2048, 2048]; b: float32[2048, 2048]",
    ),
    (
        "y = x * s, where x is a 4096 x 1024 float32 matrix and s is a vector of 1024 scales, one per column",
        "y = x * s; x: float32[4096, 1024]; s: float32[1024]",
    ),
    (
        "F.softplus(x, beta=2.0) for x: float32[4096, 4096]",
        None,
    ),
    (
        "PReLU with one learnable slope per channel (a: float32[64]) applied to x with N=16, C=64, H=W=56",
        None,
    ),
    (
        "GELU followed by dropout (p = 0.1) on a 4096 x 4096 fp32 activation",
        None,
    ),
    # ---- shapes that do not fit ----------------------------------------------------------------------------
    (
        "add a per-row bias to a square matrix: y[i][j] = x[i][j] + b[i], x is 1024 x 1024 fp32, b has 1024 entries",
        None,
    ),
    (
        "y = x * s where x is 4096 x 1024 (fp32) and s holds one scale per row (4096 values)",
        None,
    ),
    (
        "z = x + y; x: float32[512, 256]; y: float32[512]",
        None,
    ),
    # ---- reductions: formulas and modifiers ----------------------------------------------------------------
    (
        "out = np.sum(np.abs(x), axis=1); x: float32[4096, 1024]",
        "y = sum(abs(x), axis=1); x: float32[4096, 1024]",
    ),
    (
        "y = np.max(-x, axis=1); x: float32[1024, 8192]",
        "y = max(-x, axis=1); x: float32[1024, 8192]",
    ),
    (
        "y = np.mean(np.maximum(a, b)); a: float32[1024, 1024]; b: float32[1024, 1024]",
        "y = mean(maximum(a, b)); a: float32[1024, 1024]; b: float32[1024, 1024]",
    ),
    (
        "out = torch.mean(x ** 2, dim=-1); x: float32[8192, 512]",
        "y = mean(x ** 2, axis=1); x: float32[8192, 512]",
    ),
    (
        "Sum over the middle dimension of a [32, 128, 64] float tensor.",
        "y = sum(x, axis=1); x: float32[32, 128, 64]",
    ),
    (
        "x.sum(-1) for a float32 tensor of shape (8, 512, 1024)",
        "y = sum(x, axis=2); x: float32[8, 512, 1024]",
    ),
    (
        "Global average pooling: the mean over H and W of each channel, x: N=32, C=512, H=W=7 (fp32)",
        "y = mean(x, axis=(2, 3)); x: float32[32, 512, 7, 7]",
    ),
    (
        "Compute the variance of each row of x (8192 x 1024, fp32).",
        None,
    ),
    (
        "torch.topk(x, k=2, dim=-1).values for x: float32[8192, 1000] -- the two largest logits of each row",
        None,
    ),
    (
        "weighted mean of each row: out[i] = Σ_j w[j] * x[i][j] / Σ_j w[j], x is 4096 x 1024 fp32, w has 1024 floats",
        None,
    ),
    (
        "masked mean over the valid tokens of each sequence: x is [64, 2048] fp32, mask m is [64, 2048] with 1.0 at "
        "valid positions",
        None,
    ),
    (
        "torch.max(x, dim=1), returning both the maxima and their indices; x: float32[4096, 1024]",
        None,
    ),
    (
        "normalize each row by its maximum: x / x.max(dim=1, keepdim=True).values, x: float32[2048, 2048]",
        None,
    ),
    (
        "root mean square of each row, sqrt(mean(x**2, axis=1)), x is 4096 x 4096 fp32",
        None,
    ),
    (
        "row sums (axis=0) of a 4096 x 1024 float matrix",
        None,
    ),
    (
        "sum of all 1M elements of x, a 1024 x 2048 fp32 matrix",
        None,
    ),
    (
        "sum over dims 0 and 2 of a float32 tensor [32, 64, 128]",
        None,
    ),
    # ---- softmax family ------------------------------------------------------------------------------------
    (
        "softmax along dim 0, so that each column is a probability distribution; x: float32[512, 8192]",
        "y = softmax(x, axis=0); x: float32[512, 8192]",
    ),
    (
        "log of the softmax of each row, log(softmax(x, dim=1)), for x: float32[2048, 50257]",
        "y = log_softmax(x, axis=1); x: float32[2048, 50257]",
    ),
    (
        "log_softmax(x, dim=-1) with x of shape [4, 1024, 32000] (float32)",
        "y = log_softmax(x, axis=2); x: float32[4, 1024, 32000]",
    ),
    (
        "softmax over the last axis of a 1-D array of 65536 floats",
        "y = softmax(x, axis=0); x: float32[65536]",
    ),
    (
        "softmax over the channel axis of an NHWC tensor with N=8, H=W=64, C=21",
        "y = softmax(x, axis=3); x: float32[8, 64, 64, 21]",
    ),
    (
        "softmax with temperature 2.0 along each row of the 4096 x 1024 fp32 logits",
        None,
    ),
    (
        "softmax over all elements of a 1024 x 1024 matrix, treated as one flattened distribution",
        None,
    ),
    (
        "transpose x (2048 x 1024, fp32) and then apply softmax to each row of the result",
        None,
    ),
    # ---- norms ---------------------------------------------------------------------------------------------
    (
        "LayerNorm over the last dimension with eps=1e-5 and a learnable elementwise affine (weight w and bias b, "
        "1024 values each); x is float32[4096, 1024]",
        "y = layer_norm(x, eps=1e-5, weight=w, bias=b); x: float32[4096, 1024]; w: float32[1024]; b: float32[1024]",
    ),
    (
        "RMSNorm, eps 1e-6, learned scale g of 4096 values and no bias, over the hidden size of a 2048 x 4096 fp32 "
        "activation",
        "y = rms_norm(x, eps=1e-6, weight=w); x: float32[2048, 4096]; w: float32[4096]",
    ),
    (
        "F.group_norm(x, 8, weight=gamma, bias=beta, eps=1e-5) with x: float32[16, 64, 32, 32] and gamma, beta: "
        "float32[64]",
        "y = group_norm(x, num_groups=8, eps=1e-5, weight=w, bias=b); x: float32[16, 64, 32, 32]; w: float32[64]; "
        "b: float32[64]",
    ),
    (
        "batch norm with the current batch's statistics (training mode, no running stats), eps 1e-3, on x with "
        "N=32, C=128, H=W=28",
        "y = batch_norm(x, eps=1e-3); x: float32[32, 128, 28, 28]",
    ),
    (
        "F.normalize(x, p=1, dim=1) -- each row of x (4096 x 256, fp32) divided by its L1 norm",
        "y = normalize(x, p=1, axis=1); x: float32[4096, 256]",
    ),
    (
        "x - x.mean(dim=-1, keepdim=True): center each row of x, x: float32[8192, 768]",
        None,
    ),
    (
        "BatchNorm2d in eval mode, normalizing with running_mean and running_var, eps=1e-5, x: N=32, C=64, H=W=56",
        None,
    ),
    (
        "GroupNorm with 6 groups over 64 channels, eps 1e-5, x: [16, 64, 32, 32] fp32",
        None,
    ),
    (
        "RMSNorm with eps=1e-6, a learned weight w and a bias b (4096 each) over x: float32[2048, 4096]",
        None,
    ),
    (
        "layer norm over the first two axes of x: float32[64, 128, 512], eps=1e-5",
        None,
    ),
    # ---- scans ---------------------------------------------------------------------------------------------
    (
        "exclusive prefix sum along each row of a 1024 x 4096 int32 matrix",
        "y = cumsum(x, axis=1, exclusive=True); x: int32[1024, 4096]",
    ),
    (
        "suffix sums down each column: out[i][j] = Σ_{k ≥ i} x[k][j], x is 2048 x 512 fp32",
        "y = cumsum(x, axis=0, reverse=True); x: float32[2048, 512]",
    ),
    (
        "torch.cumsum(x * m, dim=1) where x and the mask m are both float32[512, 2048]",
        "y = cumsum(x * m, axis=1); x: float32[512, 2048]; m: float32[512, 2048]",
    ),
    (
        "running maximum along each row, torch.cummax(x, dim=1).values, x: float32[1024, 4096]",
        None,
    ),
    (
        "running mean along each row: the prefix sum divided by how many elements have been summed so far; "
        "x is 512 x 8192 fp32",
        None,
    ),
    # ---- products and layout -------------------------------------------------------------------------------
    (
        "C = Aᵀ B with A 1024 x 512 and B 1024 x 256 (fp32)",
        "C = A.T @ B; A: float32[1024, 512]; B: float32[1024, 256]",
    ),
    (
        "scores = Q @ K.T, Q: float32[4096, 128], K: float32[8192, 128]",
        "C = A @ B.T; A: float32[4096, 128]; B: float32[8192, 128]",
    ),
    (
        "y = Aᵀx where A is 8192 x 1024 and x has 8192 entries (float32)",
        "y = A.T @ v; A: float32[8192, 1024]; v: float32[8192]",
    ),
    (
        "scale row i of B by d[i], written diag(d) @ B without materializing the diagonal matrix; "
        "d: float32[2048], B: float32[2048, 512]",
        "C = diag(a) @ B; a: float32[2048]; B: float32[2048, 512]",
    ),
    (
        "tril(A @ B): only the lower triangle of the square product of A (1024 x 256) and B (256 x 1024), fp32",
        "C = tril(A @ B); A: float32[1024, 256]; B: float32[256, 1024]",
    ),
    (
        "swap the first and last axes of x: float32[64, 128, 256] (x.permute(2, 1, 0))",
        "y = x.permute(2, 1, 0); x: float32[64, 128, 256]",
    ),
    (
        "C = A @ B where A is 2048 x 512 and B is 1024 x 512 (fp32)",
        None,
    ),
    (
        "C = A' * B (MATLAB notation, A' the transpose of A), A is 512 x 1024 and B is 1024 x 256, single precision",
        None,
    ),
    (
        "y = A @ v where A is 4096 x 1024 fp32 and v has 4096 entries",
        None,
    ),
    (
        "linear layer: out = A @ B + bias, A: float32[1024, 512], B: float32[512, 2048], bias: float32[2048]",
        None,
    ),
    (
        "C = 0.5 * (A @ B); A: float32[2048, 2048]; B: float32[2048, 2048]",
        None,
    ),
    # ---- pooling and convolution ---------------------------------------------------------------------------
    (
        "max_pool2d(x, kernel_size=3, stride=2, padding=1) on x with N=16, C=64, H=W=112",
        "y = max_pool2d(x, kernel_size=3, stride=2, padding=1); x: float32[16, 64, 112, 112]",
    ),
    (
        "Conv2d: 3 input channels to 64 filters of 3x3, stride 1, padding 1, with a bias; x is N=8, C=3, H=W=224",
        "y = conv2d(x, w, b, stride=1, padding=1); x: float32[8, 3, 224, 224]; w: float32[64, 3, 3, 3]; "
        "b: float32[64]",
    ),
    (
        "transposed 2-D convolution, 64 -> 32 channels, kernel 4, stride 2, padding 1, bias=False; "
        "x: float32[8, 64, 32, 32]",
        "y = conv_transpose2d(x, w, stride=2, padding=1); x: float32[8, 64, 32, 32]; w: float32[64, 32, 4, 4]",
    ),
    (
        "max pooling, 2x2 window with stride 2, over the spatial dims of an NHWC tensor with N=16, H=W=128, C=64",
        None,
    ),
    (
        "F.max_pool2d(x, 2, return_indices=True) for x: float32[16, 64, 128, 128]",
        None,
    ),
    (
        "avg_pool2d(x, kernel_size=3, stride=1, padding=1, count_include_pad=False), x: float32[8, 32, 64, 64]",
        None,
    ),
    (
        "Conv2d with padding='same' and a 4x4 kernel, 16 -> 16 channels, no bias, x: [8, 16, 64, 64] fp32",
        None,
    ),
    (
        "nn.Conv2d(3, 64, 3, padding=1, padding_mode='reflect', bias=False) applied to x: float32[8, 3, 224, 224]",
        None,
    ),
    # ---- losses --------------------------------------------------------------------------------------------
    (
        "cross-entropy with reduction='sum' of logits x: float32[512, 1000] against class indices t: int32[512]",
        "y = cross_entropy(x, t, reduction='sum'); x: float32[512, 1000]; t: int32[512]",
    ),
    (
        "Huber loss with delta=0.5, summed (reduction='sum'), between predictions p and targets t, both "
        "[8192, 64] fp32",
        "y = huber_loss(p, t, delta=0.5, reduction='sum'); p: float32[8192, 64]; t: float32[8192, 64]",
    ),
    (
        "F.kl_div(lp, t, reduction='batchmean') with lp the predicted log-probabilities and t the target "
        "probabilities, both float32[256, 1000]",
        "y = kl_div(lp, t, reduction='batchmean'); lp: float32[256, 1000]; t: float32[256, 1000]",
    ),
    (
        "hinge loss with a margin of 2.0, i.e. loss = mean(maximum(2.0 - p * t, 0.0)), p and t both float32[65536]",
        "y = mean(maximum(2.0 - p * t, 0.0)); p: float32[65536]; t: float32[65536]",
    ),
    (
        "cross entropy with label_smoothing=0.1 over logits [512, 1000] fp32 and int32 targets [512]",
        None,
    ),
    (
        "cross_entropy(x, t) with x: float32[256, 1000] and t: int32[128]",
        None,
    ),
]
