"""Eighth held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~40 lines of
tests/heldout7/intents_seventh.py (for the file format, not its phrasings), nothing under optiml_engine/, bench/,
scratch/, server/ or the rest of tests/, no git history, and ran no OptiML code.

This set aims at what a reader might silently drop or change: every word and every number matters. Qualifiers come
in a separate sentence ("Use the absolute values.", "Use B transposed."), sizes and element types are said twice
(consistently or not: "4M elements, 16 MiB", "2048 x 2048 (2M elements)", "doubles (float64)", "float32 ... of
doubles"), scalars are said in words or as fractions ("by one half", "1/sqrt(2)"), with a sign ("slope -0.1") or in
scientific notation ("alpha = 1.5e-1", "2.5e5 doubles"), axes are said by their role ("over the batch", "for each
sample", "per token", "per head", "along time", "over H and W"), losses say their reduction ("reduction='sum'",
"averaged over the batch"), and intents come as kernel comments with indices (`// out[i] = ...`), two clauses joined
by ';', typos and abbreviations ("lyaer norm", "smax", "bmm").

Intents with a spec form are the ones whose exact reading is generated per the docs: a formula reduced along an axis,
elementwise formulas with constants, named activations with their parameters, reductions over the first, last, middle
or neighbouring last axes, softmax/log-softmax/layer/RMS/group/batch norm, scans (exclusive, reverse), products with a
transposed operand, bmm, pooling with stride < kernel, conv "same" padding with an odd kernel (padding 2 for 5x5,
stride 1), depthwise and transposed convolutions, and losses with their reduction.

Intents expected to be refused (None) are ambiguous ("multiply A and B" of two square matrices, "one of them is
transposed", "A is transposed" of a square A, "smax", "L1 loss averaged over the batch", pooling "with overlap" whose
stride is unsaid), contradict themselves (element or byte counts that are not the shape's, float32 "doubles", an
elementwise product of shapes that do not broadcast, a bias of the wrong length), or ask for what the docs do not list
as generated (fp16 data or output, a bias per channel of NCHW, "same" padding with an even kernel, a mean over
non-zero elements, NaN-ignoring sums, sorting, in-place updates, a two-step row normalization, running statistics,
label smoothing, ceil_mode, a scaled product, max with its indices, a cumulative max, a running mean, an affine layer
norm whose parameters are not given, variance, shifted differences, a reversal, a reduction followed by another step,
two outputs, axes that are not neighbours, column-major storage, division by a norm plus epsilon, a segmented scan).
A misreading is never acceptable; a refusal always is.

Expected forms name arrays positionally: the comparison ignores names. A negative axis in an intent is written in its
expected form as the positive axis it denotes.

Do not edit after measuring; add cases in a new set.
"""

EIGHTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- a qualifier in a separate sentence ----------------------------------------------------------------
    (
        "Compute the max of each row of a 4096 x 1024 float32 matrix. Use the absolute values.",
        "y = max(abs(x), axis=1); x: float32[4096, 1024]",
    ),
    (
        "Multiply A by B, float32, with A 2048x512 and B 1024x512. Use B transposed.",
        "C = A @ B.T; A: float32[2048, 512]; B: float32[1024, 512]",
    ),
    (
        "Multiply the 4096x1024 matrix A by the vector x of length 4096. Use A transposed.",
        "y = A.T @ x; A: float32[4096, 1024]; x: float32[4096]",
    ),
    (
        "Multiply A (1024x1024 float32) by the vector x of 1024 floats. A is transposed.",
        None,
    ),
    (
        "Compute A times B, both 1024x1024 float32. One of them is transposed.",
        None,
    ),
    (
        "Compute the max of each row of A (2048 x 2048 float32). Then add 1.",
        None,
    ),
    (
        "Compute the max of each row of x, a 4096 x 1024 float32 matrix. Return the indices as well.",
        None,
    ),
    # ---- elementwise vs matrix product ---------------------------------------------------------------------
    (
        "Multiply A and B; both are 512x512 float32.",
        None,
    ),
    (
        "Multiply A and B element by element; both are 512x512 float32 matrices.",
        "C = A * B; A: float32[512, 512]; B: float32[512, 512]",
    ),
    (
        "Elementwise product of A (1024 x 512) and B (512 x 1024), float32.",
        None,
    ),
    (
        "GEMM C = 2.0 * A @ B with A and B both 1024 x 1024 float32",
        None,
    ),
    # ---- scalars in words, fractions, signs, scientific notation -------------------------------------------
    (
        "Out-of-place: scale a float32 vector of 65536 elements by one half into y.",
        "y = x * 0.5; x: float32[65536]",
    ),
    (
        "multiply every element of x by 1/sqrt(2), where x is a float32 array of shape (1024, 2048)",
        "y = x * (1 / sqrt(2)); x: float32[1024, 2048]",
    ),
    (
        "leaky relu with negative slope -0.1 on a 4096x4096 float32 matrix",
        "y = leaky_relu(x, -0.1); x: float32[4096, 4096]",
    ),
    (
        "ELU, alpha = 1.5e-1, over a float64 tensor of shape [64, 256, 256]",
        "y = elu(x, alpha=0.15); x: float64[64, 256, 256]",
    ),
    (
        "clip every element of a 1M-element float32 vector to the range [-2, 2]",
        "y = hardtanh(x, min_val=-2.0, max_val=2.0); x: float32[1048576]",
    ),
    (
        "GELU with the tanh approximation over an 8192x4096 float32 matrix",
        "y = gelu(x, approximate='tanh'); x: float32[8192, 4096]",
    ),
    # ---- sizes and element types said twice ----------------------------------------------------------------
    (
        "Apply tanh to a 4096 x 1024 float32 matrix (4M elements, 16 MiB).",
        "y = tanh(x); x: float32[4096, 1024]",
    ),
    (
        "Sigmoid of a 2048 x 2048 float32 matrix (2M elements).",
        None,
    ),
    (
        "Sum of all elements of a 1024 x 1024 float32 matrix (1 MB of data).",
        None,
    ),
    (
        "exp of a vector of 2.5e5 doubles (float64)",
        "y = exp(x); x: float64[250000]",
    ),
    (
        "Sum each row of a float32 matrix of 4096 x 4096 doubles.",
        None,
    ),
    (
        "Softmax over each row of a 1024 x 1024 fp16 matrix; accumulate in fp32.",
        None,
    ),
    (
        "Sigmoid of x, a 4096 x 4096 fp32 matrix; store the result in fp16.",
        None,
    ),
    # ---- kernel comments with indices ----------------------------------------------------------------------
    (
        "// out[i] = x[i] * w[i] - z[i];  0 <= i < N;  N = 1 << 22",
        "out = x * w - z; x: float32[4194304]; w: float32[4194304]; z: float32[4194304]",
    ),
    (
        "// C[i][j] = sum_k A[k][i] * B[k][j];  A is K x M, B is K x N;  M = 512, N = 256, K = 1024",
        "C = A.T @ B; A: float32[1024, 512]; B: float32[1024, 256]",
    ),
    (
        "// m[j] = max over i of |x[i][j]|, x is float 2048 x 300",
        "m = max(abs(x), axis=0); x: float32[2048, 300]",
    ),
    (
        "// out[i] = in[i + 1] - in[i], for i < N - 1, N = 4096",
        None,
    ),
    (
        "// y[i] = x[N - 1 - i], N = 1 << 20",
        None,
    ),
    # ---- two clauses joined by ';' -------------------------------------------------------------------------
    (
        "Add a and b; multiply the sum by c. All three are float32 vectors of 65536 elements.",
        "y = (a + b) * c; a: float32[65536]; b: float32[65536]; c: float32[65536]",
    ),
    (
        "Compute the softmax over each row of x; x is 2048 x 50257 float32.",
        "y = softmax(x, axis=1); x: float32[2048, 50257]",
    ),
    (
        "Compute the row sums of x (1024 x 1024 float32); then divide each row of x by its sum.",
        None,
    ),
    (
        "Sum each row of x and also each column; x is 2048 x 2048 float32.",
        None,
    ),
    # ---- axes said by their role ---------------------------------------------------------------------------
    (
        "Average x over the batch: x is [B, D] with B = 256, D = 4096, float32.",
        "y = mean(x, axis=0); x: float32[256, 4096]",
    ),
    (
        "log-softmax for each sample of a float32 logits matrix with 128 samples and 10000 classes",
        "y = log_softmax(x, axis=1); x: float32[128, 10000]",
    ),
    (
        "RMS norm per token, 16384 tokens with hidden size 4096, eps 1e-6, float32",
        "y = rms_norm(x, eps=1e-6); x: float32[16384, 4096]",
    ),
    (
        "Softmax over Tk of attention scores shaped [B, H, Tq, Tk], B=4, H=16, Tq=Tk=512, fp32: one softmax per head "
        "and per query.",
        "y = softmax(x, axis=3); x: float32[4, 16, 512, 512]",
    ),
    (
        "cumulative sum along time of x shaped [B, T, C] with B=32, T=1024, C=256 (float32)",
        "y = cumsum(x, axis=1); x: float32[32, 1024, 256]",
    ),
    (
        "Mean over H and W of an NCHW float32 tensor with N=32, C=256, H=W=14",
        "y = mean(x, axis=(2, 3)); x: float32[32, 256, 14, 14]",
    ),
    (
        "Sum over the C and W axes of an NCHW float32 tensor with N=8, C=3, H=W=224.",
        None,
    ),
    (
        "Add a per-channel bias b to an NCHW float32 tensor with N=8, C=64, H=W=64.",
        None,
    ),
    (
        "Mean of each row of x, where x is a 1024 x 4096 float32 matrix stored column-major.",
        None,
    ),
    # ---- what a reduction or scan is taken over ------------------------------------------------------------
    (
        "Mean of each row over the non-zero elements only, x float32 1024 x 1024",
        None,
    ),
    (
        "Sum each column of a 4096 x 512 float32 matrix, ignoring NaNs.",
        None,
    ),
    (
        "sum of squared differences of a and b along each row, a and b both 8192 x 128 float32",
        "y = sum((a - b) ** 2, axis=1); a: float32[8192, 128]; b: float32[8192, 128]",
    ),
    (
        "Variance of each row of a 4096 x 1024 float32 matrix.",
        None,
    ),
    (
        "Suffix sums along each row of a 1024 x 4096 float32 matrix",
        "y = cumsum(x, axis=1, reverse=True); x: float32[1024, 4096]",
    ),
    (
        "exclusive prefix sum of each row of a 512 x 8192 float32 matrix",
        "y = cumsum(x, axis=1, exclusive=True); x: float32[512, 8192]",
    ),
    (
        "Cumulative maximum along time of x [B, T, C], B=8, T=2048, C=64, float32.",
        None,
    ),
    (
        "Running mean along each row of a 512 x 4096 float32 matrix (prefix sum divided by the count so far).",
        None,
    ),
    (
        "Cumulative sum along each row of x (512 x 2048 float32), restarting at every 128th element.",
        None,
    ),
    (
        "Sort each row of a 1024 x 1024 float32 matrix in descending order.",
        None,
    ),
    (
        "Apply ReLU in-place to a 1M-element float32 buffer.",
        None,
    ),
    # ---- normalizations ------------------------------------------------------------------------------------
    (
        "lyaer norm over the last axis of a 4096x1024 float32 matrix, eps 1e-5",
        "y = layer_norm(x, eps=1e-5); x: float32[4096, 1024]",
    ),
    (
        "Layer norm over the last axis of x [4096, 768] float32 with learnable gamma and beta, eps 1e-5.",
        None,
    ),
    (
        "group norm, 8 groups, eps 1e-5, affine=False, on x of shape N=16, C=64, H=W=32 (float32)",
        "y = group_norm(x, num_groups=8, eps=1e-5); x: float32[16, 64, 32, 32]",
    ),
    (
        "Batch norm in training mode (statistics of the current batch), eps 1e-5, with per-channel scale g and "
        "shift h, on x [16, 32, 64, 64] float32",
        "y = batch_norm(x, weight=g, bias=h, eps=1e-5); x: float32[16, 32, 64, 64]; g: float32[32]; h: float32[32]",
    ),
    (
        "Batch norm of x [32, 64, 28, 28] float32 with running mean and running variance, eps 1e-5.",
        None,
    ),
    (
        "L1-normalize each row of a 1024x512 float32 matrix (divide by the row's L1 norm, clamped below at 1e-12)",
        "y = normalize(x, p=1, dim=1); x: float32[1024, 512]",
    ),
    (
        "Compute the L2 norm of each row of a 4096x512 float32 matrix and divide the row by it plus 1e-6.",
        None,
    ),
    (
        "smax over rows of a 2048x2048 fp32 matrix",
        None,
    ),
    # ---- products ------------------------------------------------------------------------------------------
    (
        "bmm A:[16, 256, 64] x B:[16, 64, 128], fp32",
        "C = bmm(A, B); A: float32[16, 256, 64]; B: float32[16, 64, 128]",
    ),
    # ---- pooling and convolutions --------------------------------------------------------------------------
    (
        "3x3 max pooling with stride 2 (overlapping windows), no padding, on a float32 input N=16, C=64, H=W=112",
        "y = max_pool2d(x, kernel_size=3, stride=2); x: float32[16, 64, 112, 112]",
    ),
    (
        "3x3 max pooling with overlap on a float32 input [16, 64, 112, 112]",
        None,
    ),
    (
        "2x2 average pooling, stride 2, ceil_mode=True, on a [8, 32, 55, 55] float32 input",
        None,
    ),
    (
        "2-D convolution: 5x5 kernel, 64 output channels, stride 1, same padding, no bias; input float32 N=8, C=32, "
        "H=W=56",
        "y = conv2d(x, w, stride=1, padding=2); x: float32[8, 32, 56, 56]; w: float32[64, 32, 5, 5]",
    ),
    (
        "2-D convolution with a 4x4 kernel, 32 output channels, same padding, on x [8, 16, 64, 64] float32",
        None,
    ),
    (
        "Depthwise 3x3 convolution with 64 output channels and groups=64, stride 1, padding 1, with a bias, on a "
        "float32 input [8, 64, 56, 56]",
        "y = conv2d(x, w, b, stride=1, padding=1, groups=64); x: float32[8, 64, 56, 56]; w: float32[64, 1, 3, 3]; "
        "b: float32[64]",
    ),
    (
        "2-D convolution, 3x3 kernel, 64 output channels, padding 1, with a bias of 32 values, on x [8, 32, 56, 56] "
        "float32.",
        None,
    ),
    (
        "conv1d: 128 filters of width 5, stride 2, no bias, on x [16, 64, 4096] float32",
        "y = conv1d(x, w, stride=2); x: float32[16, 64, 4096]; w: float32[128, 64, 5]",
    ),
    (
        "Transposed 2-D convolution, 4x4 kernel, stride 2, padding 1, from 64 to 32 channels, no bias, on x "
        "[8, 64, 32, 32] float32",
        "y = conv_transpose2d(x, w, stride=2, padding=1); x: float32[8, 64, 32, 32]; w: float32[64, 32, 4, 4]",
    ),
    # ---- losses and their reductions -----------------------------------------------------------------------
    (
        "MSE loss between predictions p and targets t, both 512x1024 float32, with reduction='sum'",
        "loss = mse_loss(p, t, reduction='sum'); p: float32[512, 1024]; t: float32[512, 1024]",
    ),
    (
        "L1 loss between predictions and targets, both [256, 512] float32, averaged over the batch",
        None,
    ),
    (
        "Cross-entropy of float32 logits [256, 1000] against int32 class indices [256], averaged over the batch",
        "loss = cross_entropy(x, t); x: float32[256, 1000]; t: int32[256]",
    ),
    (
        "Cross-entropy of logits [128, 1000] float32 with int32 targets [128], label smoothing 0.1.",
        None,
    ),
    (
        "kl_div(log_probs, targets, reduction='batchmean') with both float32 [64, 1000]",
        "loss = kl_div(a, b, reduction='batchmean'); a: float32[64, 1000]; b: float32[64, 1000]",
    ),
]
