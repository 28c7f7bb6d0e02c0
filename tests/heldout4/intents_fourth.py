"""Fourth held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~60 lines of
tests/heldout3/intents_third.py (for the file format, not its phrasings), nothing under optiml_engine/, bench/,
scratch/ or the rest of tests/, and ran no OptiML code.

The cases cover KernelBench level-1 style operations: activations with their parameters (leaky ReLU slope, ELU
alpha, hardtanh bounds, softplus, GELU in both forms, SELU, SiLU as a formula, mish, hard-sigmoid, softsign),
elementwise formulas over several inputs with scalars, a bias broadcast over rows, reductions (sum, mean, max, min,
prod, argmax, argmin) along a named axis of 2-D/3-D arrays and over all elements, softmax and log-softmax along an
axis, layer/RMS/batch/instance/group norm, L1/L2 normalization, cumsum/cumprod (exclusive, reverse), matmul with
transposed operands, batched matmul, matrix-vector, transpose and permute, losses (MSE, Huber, KL divergence, cross
entropy, triplet margin, cosine similarity), max/avg pooling in 1-D/2-D/3-D, and convolutions (1-D, dilated 2-D with
bias, depthwise, grouped transposed 3-D). They are phrased in many styles (docstrings, terse notes, formula first,
PyTorch calls in prose, imperatives), with shapes written as `4096 x 1024`, `4096*1024`, `(4096, 1024)`,
`[4096][1024]`, `[4096, 1024]`, `shape=(4096, 1024)`, "128 rows of 4000", named dimensions with values, `2^20`,
`1 << 22`, `1M elements`, and element types as float, fp32, float32, double, fp64.

Each intent is paired with the spec form it must be read as, or None where OptiML must refuse: an operation the docs
do not list as generated (half precision, an fp64 matmul, a 4-D permute, an exclusive cumprod, a cumsum not along
the last axis, batch norm with running statistics, an affine layer norm, label smoothing, avg pooling without the
padding counted, a flat argmax, an L1 norm), a request that leaves something essential unsaid or ambiguous (a
reduction of a 2-D array without its axis, a convolution without its kernel size, a KL divergence that does not say
which operand is the prediction), or one that contradicts itself (an axis the array lacks, inner sizes that do not
agree, a bias of the wrong length). A misreading is never acceptable; a refusal always is.

Do not edit after measuring; add cases in a new set.

Expected forms name arrays positionally: the comparison ignores names.
"""

FOURTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- activations with parameters ------------------------------------------------------------------------
    (
        "Applies LeakyReLU with negative_slope=0.2 to a float32 input of shape (8192, 8192) and returns a tensor of "
        "the same shape.",
        "y = leaky_relu(x, 0.2); x: float32[8192, 8192]",
    ),
    (
        "ELU (alpha 0.5), fp64, 4096*4096",
        "y = elu(x, alpha=0.5); x: float64[4096, 4096]",
    ),
    (
        "Clamp x into [-0.5, 3.0] the way nn.Hardtanh does; x is [2048][8192] float32",
        "y = hardtanh(x, min_val=-0.5, max_val=3.0); x: float32[2048, 8192]",
    ),
    (
        "Softplus of 1 << 22 doubles",
        "y = softplus(x); x: float64[4194304]",
    ),
    (
        "Exact, erf-based GELU of a float tensor sized 16 x 2048 x 4096",
        "y = gelu(x); x: float32[16, 2048, 4096]",
    ),
    (
        "Tanh-approximated GELU for activations with shape=(16384, 4096), fp32",
        "y = gelu(x, approximate='tanh'); x: float32[16384, 4096]",
    ),
    (
        "torch.selu on 1M elements (float32)",
        "y = selu(x); x: float32[1048576]",
    ),
    (
        "out = x * sigmoid(x), x: 2048*16384 float",
        "out = x * sigmoid(x); x: float32[2048, 16384]",
    ),
    (
        "Mish activation over a B x D float tensor, B=64, D=65536",
        "y = mish(x); x: float32[64, 65536]",
    ),
    (
        "Softplus in fp16: x is a 4096 x 4096 half-precision tensor",
        None,
    ),
    # ---- elementwise formulas, bias -------------------------------------------------------------------------
    (
        "Compute r = softsign(u) * hardsigmoid(v) + w elementwise; u, v and w are fp32 arrays of 1024 x 1024 x 64",
        "r = softsign(u) * hardsigmoid(v) + w; u: float32[1024, 1024, 64]; v: float32[1024, 1024, 64]; "
        "w: float32[1024, 1024, 64]",
    ),
    (
        "out = 2.5 * x - 0.5 * y where x and y are [8192, 8192] float32 arrays",
        "out = 2.5 * x - 0.5 * y; x: float32[8192, 8192]; y: float32[8192, 8192]",
    ),
    (
        "Adds a per-feature bias b (length 1024) to every row of the 16384 x 1024 activation matrix x and applies "
        "ReLU to the result.",
        "y = relu(x + b); x: float32[16384, 1024]; b: float32[1024]",
    ),
    (
        "y = x + b, where x is float32 4096 x 1024 and the bias b of length 4096 is added to each row",
        None,
    ),
    # ---- reductions -----------------------------------------------------------------------------------------
    (
        "Sum each column of x (8192 x 1024, fp32).",
        "y = sum(x, axis=0); x: float32[8192, 1024]",
    ),
    (
        "torch.mean(x, dim=2) for a double tensor 16 x 256 x 256",
        "y = mean(x, axis=2); x: float64[16, 256, 256]",
    ),
    (
        "Max-reduce the middle dimension of a 32 x 4096 x 64 float tensor.",
        "y = max(x, axis=1); x: float32[32, 4096, 64]",
    ),
    (
        "row minima, x is 2^14 x 2^12 fp32",
        "y = min(x, axis=1); x: float32[16384, 4096]",
    ),
    (
        "Product of the entries along dim 1 of x: float32, (128, 512)",
        "y = prod(x, axis=1); x: float32[128, 512]",
    ),
    (
        "Returns the index of the largest value along dim=1. Input: B=16, N=256, D=256, float.",
        "y = argmax(x, axis=1); x: float32[16, 256, 256]",
    ),
    (
        "argmin over the last axis of a (64, 128, 1024) fp32 tensor",
        "y = argmin(x, axis=2); x: float32[64, 128, 1024]",
    ),
    (
        "total of all elements in an 8192*8192 float array",
        "s = sum(x); x: float32[8192, 8192]",
    ),
    (
        "Sum of x where x is a 2048 x 2048 float matrix.",
        None,
    ),
    (
        "Add up x over dims 0 and 2; x: (64, 128, 256) float32.",
        None,
    ),
    (
        "Index of the maximum element of the whole 1024 x 1024 float matrix (flattened argmax).",
        None,
    ),
    (
        "L1 norm of each row of a 4096 x 1024 fp32 matrix",
        None,
    ),
    # ---- softmax --------------------------------------------------------------------------------------------
    (
        "F.softmax(x, dim=-1) where x: (32, 128, 4096) float32",
        "y = softmax(x, axis=-1); x: float32[32, 128, 4096]",
    ),
    (
        "LogSoftmax(dim=1) applied to logits stored as [4096][32768] doubles",
        "y = log_softmax(x, axis=1); x: float64[4096, 32768]",
    ),
    (
        "log_softmax along dim=3 of x, shape (32, 64, 128), fp32",
        None,
    ),
    # ---- norms and normalization ----------------------------------------------------------------------------
    (
        "Normalize each row of an 8192 x 4096 fp32 matrix to zero mean and unit variance (layer norm without "
        "affine parameters), eps=1e-5.",
        "y = layer_norm(x, eps=1e-5); x: float32[8192, 4096]",
    ),
    (
        "RMSNorm, epsilon 1e-6: 16384 tokens with hidden size 4096",
        "y = rms_norm(x, eps=1e-6); x: float32[16384, 4096]",
    ),
    (
        "Batch normalization in training mode, using only the current batch's statistics and no affine "
        "transform, eps=1e-5; input N=16, C=64, H=W=256, fp32",
        "y = batch_norm(x, eps=1e-5); x: float32[16, 64, 256, 256]",
    ),
    (
        "InstanceNorm2d (no affine) with eps 1e-5 over x of shape (8, 64, 128, 128)",
        "y = instance_norm(x, eps=1e-5); x: float32[8, 64, 128, 128]",
    ),
    (
        "GroupNorm: 8 groups, eps=1e-5, no learnable parameters; input 16 x 64 x 128 x 128",
        "y = group_norm(x, num_groups=8, eps=1e-5); x: float32[16, 64, 128, 128]",
    ),
    (
        "F.normalize(x, p=2, dim=1) for x: (65536, 512) float32",
        "y = normalize(x, p=2, axis=1); x: float32[65536, 512]",
    ),
    (
        "L1-normalize every row of a 4096 x 16384 fp32 matrix (F.normalize with p=1)",
        "y = l1_normalize(x, axis=1); x: float32[4096, 16384]",
    ),
    (
        "BatchNorm2d in eval mode: normalize with running_mean and running_var, eps=1e-5; x is 16 x 64 x 128 x 128",
        None,
    ),
    (
        "LayerNorm over the last dim with learnable gamma and beta, eps 1e-5, x 4096 x 1024",
        None,
    ),
    # ---- scans ----------------------------------------------------------------------------------------------
    (
        "exclusive prefix sum over 2^20 floats",
        "y = cumsum(x, axis=0, exclusive=True); x: float32[1048576]",
    ),
    (
        "Reverse cumulative sum (suffix sums) along the last dim; x has shape (16, 512, 1024), float32.",
        "y = cumsum(x, axis=2, reverse=True); x: float32[16, 512, 1024]",
    ),
    (
        "Cumulative product across each row: 128 rows of 4000 doubles.",
        "y = cumprod(x, axis=1); x: float64[128, 4000]",
    ),
    (
        "exclusive cumulative product along the last dim of 64 x 4096 floats",
        None,
    ),
    (
        "torch.cumsum(x, dim=0) for a 4096 x 4096 float matrix (running down each column)",
        None,
    ),
    # ---- matmul, transposes ---------------------------------------------------------------------------------
    (
        "C = A @ B, M=4096, K=2048, N=1024, all fp32",
        "C = A @ B; A: float32[4096, 2048]; B: float32[2048, 1024]",
    ),
    (
        "Performs C = A^T B, where A is stored as K x M with K = 1024, M = 4096, and B is K x N with N = 2048 "
        "(float32).",
        "C = A.T @ B; A: float32[1024, 4096]; B: float32[1024, 2048]",
    ),
    (
        "torch.matmul(A, B.T) with A (2048, 8192) and B (4096, 8192), float",
        "C = A @ B.T; A: float32[2048, 8192]; B: float32[4096, 8192]",
    ),
    (
        "batched GEMM: 32 independent products of 512x256 by 256x1024 float matrices",
        "C = bmm(A, B); A: float32[32, 512, 256]; B: float32[32, 256, 1024]",
    ),
    (
        "y = A x, A an 8192 x 8192 float matrix, x a vector of length 8192",
        "y = A @ x; A: float32[8192, 8192]; x: float32[8192]",
    ),
    (
        "Multiply A (1024 x 512) by B (1024 x 2048); fp32",
        None,
    ),
    (
        "double-precision GEMM C = A @ B for square fp64 matrices, N = 2048",
        None,
    ),
    (
        "Transpose a [8192][2048] float32 matrix",
        "y = x.T; x: float32[8192, 2048]",
    ),
    (
        "x.permute(0, 2, 1) for x: 64 x 1024 x 512 float",
        "y = x.permute(0, 2, 1); x: float32[64, 1024, 512]",
    ),
    (
        "NCHW -> NHWC: x.permute(0, 2, 3, 1) on a (16, 3, 224, 224) float tensor",
        None,
    ),
    # ---- losses ---------------------------------------------------------------------------------------------
    (
        "MSE loss between predictions and targets, both (128, 4096) float",
        "loss = mse_loss(p, t); p: float32[128, 4096]; t: float32[128, 4096]",
    ),
    (
        "Huber loss with delta 2.0 between predictions p and targets t, 32768 x 128 floats each",
        "loss = huber_loss(p, t, delta=2.0); p: float32[32768, 128]; t: float32[32768, 128]",
    ),
    (
        "kl_div(log_predictions, targets, reduction='batchmean'); both (128, 4096) float32, the predictions "
        "already in log space",
        "loss = kl_div(lp, t, reduction='batchmean'); lp: float32[128, 4096]; t: float32[128, 4096]",
    ),
    (
        "Summed cross-entropy of logits (4096 samples x 1000 classes, fp32) against int32 class indices",
        "loss = cross_entropy(x, t, reduction='sum'); x: float32[4096, 1000]; t: int32[4096]",
    ),
    (
        "TripletMarginLoss(margin=0.5) on anchor, positive and negative embeddings, each 128 x 4096 floats",
        "loss = triplet_margin_loss(a, p, n, margin=0.5); a: float32[128, 4096]; p: float32[128, 4096]; "
        "n: float32[128, 4096]",
    ),
    (
        "cosine-similarity loss over the rows of predictions and targets, each (256, 8192) fp32",
        "loss = cosine_similarity_loss(a, b); a: float32[256, 8192]; b: float32[256, 8192]",
    ),
    (
        "cross entropy with label_smoothing=0.1; logits 4096 x 1000 fp32, int32 targets",
        None,
    ),
    (
        "KL divergence between distributions p and q, both 128 x 4096 float",
        None,
    ),
    # ---- pooling --------------------------------------------------------------------------------------------
    (
        "MaxPool1d(kernel_size=4, stride=2, padding=1, dilation=3) over x of shape (16, 64, 65536)",
        "y = max_pool1d(x, kernel_size=4, stride=2, padding=1, dilation=3); x: float32[16, 64, 65536]",
    ),
    (
        "2x2 max pooling with stride 2 of a batch N=32, C=64, H=W=256 (float)",
        "y = max_pool2d(x, kernel_size=2, stride=2); x: float32[32, 64, 256, 256]",
    ),
    (
        "avg_pool3d with a 3x3x3 window, stride 2, padding 1, over x: float32[8, 32, 64, 64, 64]",
        "y = avg_pool3d(x, kernel_size=3, stride=2, padding=1); x: float32[8, 32, 64, 64, 64]",
    ),
    (
        "AvgPool2d(kernel_size=3, stride=1, padding=1, count_include_pad=False) on a 16 x 64 x 128 x 128 float batch",
        None,
    ),
    # ---- convolutions ---------------------------------------------------------------------------------------
    (
        "1-D convolution, no bias: input (32, 64, 8192), weight (128, 64, 7), stride 2",
        "y = conv1d(x, w, stride=2); x: float32[32, 64, 8192]; w: float32[128, 64, 7]",
    ),
    (
        "Performs a dilated 2-D convolution of x (16, 3, 256, 256) with 64 filters of 3x3 plus a bias, dilation 2, "
        "padding 2.",
        "y = conv2d(x, w, b, padding=2, dilation=2); x: float32[16, 3, 256, 256]; w: float32[64, 3, 3, 3]; "
        "b: float32[64]",
    ),
    (
        "depthwise 3x3 conv, stride 1, padding 1, groups = channels, no bias; input 8 x 128 x 112 x 112",
        "y = conv2d(x, w, stride=1, padding=1, groups=128); x: float32[8, 128, 112, 112]; w: float32[128, 1, 3, 3]",
    ),
    (
        "ConvTranspose3d without bias: x (4, 32, 16, 16, 16), weight (32, 8, 3, 3, 3), stride 2, padding 1, "
        "output_padding 1, groups 2",
        "y = conv_transpose3d(x, w, stride=2, padding=1, output_padding=1, groups=2); x: float32[4, 32, 16, 16, 16]; "
        "w: float32[32, 8, 3, 3, 3]",
    ),
    (
        "2-D convolution of a 16 x 3 x 224 x 224 image batch to 64 output channels, stride 1, with bias",
        None,
    ),
]
