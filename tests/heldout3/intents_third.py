"""Third held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md (the public user documentation
of what is generated and how sizes are written) and the first lines of tests/heldout/intents_styles.py (for the file
format), and nothing under optiml_engine/, bench/ or the rest of tests/, and ran no OptiML code.

The cases cover KernelBench level 1 and everyday kernels (activations with their parameters, elementwise formulas,
a bias over rows, reductions along a named axis, all elements or neighbouring axes, softmax and the norms, scans,
matmul layouts, permutes, losses, pooling and convolutions), phrased in many styles (a docstring, a terse note, a
formula first, PyTorch calls in prose, shapes as `4096 x 1024`, `4096*1024`, `(4096, 1024)`, `[B, N]` with B and N
given, `N = 2048`, `2M-element`, `1 << 20`). Each is paired with the spec form it must be read as, or None where
OptiML must refuse: an operation the docs do not list as generated, a request that leaves something essential
unsaid or ambiguous, or one that contradicts itself. A misreading is never acceptable; a refusal always is.

Do not edit after measuring; add cases in a new set.

Expected forms name arrays positionally: the comparison ignores names.
"""

THIRD_INTENTS: list[tuple[str, str | None]] = [
    # ---- activations with parameters ------------------------------------------------------------------------
    (
        "Computes the leaky ReLU of x with a negative slope of 0.01; x is a float tensor of shape (4096, 16384).",
        "y = leaky_relu(x, 0.01); x: float32[4096, 16384]",
    ),
    (
        "elu, alpha=1.5, on a 2048 x 8192 double matrix",
        "y = elu(x, alpha=1.5); x: float64[2048, 8192]",
    ),
    (
        "hardtanh with min_val=-2.0 and max_val=2.0 on x of shape [B, D], B = 256, D = 32768",
        "y = hardtanh(x, min_val=-2.0, max_val=2.0); x: float32[256, 32768]",
    ),
    (
        "softplus over every element of a 16M-element fp32 vector",
        "y = softplus(x); x: float32[16777216]",
    ),
    (
        "GELU in its tanh approximation; input is 64 x 1024 x 3072 float32",
        "y = gelu(x, approximate='tanh'); x: float32[64, 1024, 3072]",
    ),
    (
        "Apply SELU elementwise. x: 16 x 16384.",
        "y = selu(x); x: float32[16, 16384]",
    ),
    (
        "Mish activation of a 128*65536 tensor",
        "y = mish(x); x: float32[128, 65536]",
    ),
    (
        "z = hardsigmoid(a) * softsign(b), with a and b both shaped (512, 4096)",
        "z = hardsigmoid(a) * softsign(b); a: float32[512, 4096]; b: float32[512, 4096]",
    ),
    (
        "Swish (a.k.a. SiLU) activation. x: [N, C] where N = 1024 and C = 8192.",
        "y = silu(x); x: float32[1024, 8192]",
    ),
    # ---- elementwise formulas, bias -------------------------------------------------------------------------
    (
        "fused multiply-add d = a*b + c; a, b and c are 4096 x 4096 fp32",
        "d = a * b + c; a: float32[4096, 4096]; b: float32[4096, 4096]; c: float32[4096, 4096]",
    ),
    (
        "out = 0.7*a + 0.3*b where a and b are 8192*1024 float32",
        "out = 0.7 * a + 0.3 * b; a: float32[8192, 1024]; b: float32[8192, 1024]",
    ),
    (
        "Add the bias vector b (length 1024) to every row of x, a 4096 x 1024 activation matrix.",
        "y = x + b; x: float32[4096, 1024]; b: float32[1024]",
    ),
    # ---- reductions -----------------------------------------------------------------------------------------
    (
        "Sum over dim 1 of a [B, N] tensor, B = 128, N = 65536.",
        "y = sum(x, axis=1); x: float32[128, 65536]",
    ),
    (
        "Average x (16, 256, 256) over its middle axis.",
        "y = mean(x, axis=1); x: float32[16, 256, 256]",
    ),
    (
        "torch.max(x, dim=2).values for a float64 tensor of shape 32 x 1024 x 512",
        "y = max(x, axis=2); x: float64[32, 1024, 512]",
    ),
    (
        "Product of the 16 entries in each row of x, x: (4096, 16).",
        "y = prod(x, axis=1); x: float32[4096, 16]",
    ),
    (
        "argmax over the class dimension: logits 4096 x 1000, one index per row",
        "y = argmax(x, axis=1); x: float32[4096, 1000]",
    ),
    (
        "Computes argmin along dim 0 of a 3-D tensor of shape (64, 128, 256).",
        "y = argmin(x, axis=0); x: float32[64, 128, 256]",
    ),
    (
        "Euclidean norm of each row of x (16384 x 512)",
        "y = norm(x, axis=1); x: float32[16384, 512]",
    ),
    (
        "torch.logsumexp(x, dim=1), x: [2048, 32000]",
        "y = logsumexp(x, axis=1); x: float32[2048, 32000]",
    ),
    (
        "Total of all elements of a 4096 x 4096 float matrix",
        "y = sum(x); x: float32[4096, 4096]",
    ),
    (
        "global average over the spatial axes 1 and 2 of x with shape (64, 128, 128)",
        "y = mean(x, axis=(1, 2)); x: float32[64, 128, 128]",
    ),
    # ---- softmax --------------------------------------------------------------------------------------------
    (
        "softmax along dim 0 of x, (1024, 8192)",
        "y = softmax(x, axis=0); x: float32[1024, 8192]",
    ),
    (
        "log-softmax over the vocabulary (last) dim of logits [B, V], B = 64, V = 50257",
        "y = log_softmax(x, axis=1); x: float32[64, 50257]",
    ),
    # ---- normalizations -------------------------------------------------------------------------------------
    (
        "LayerNorm over the last dimension of x (4096 x 768), eps = 1e-5, no affine",
        "y = layer_norm(x, eps=1e-5); x: float32[4096, 768]",
    ),
    (
        "RMSNorm, eps 1e-6, normalizing the hidden size of a (16, 2048, 4096) float tensor",
        "y = rms_norm(x, eps=1e-6); x: float32[16, 2048, 4096]",
    ),
    (
        "Computes group normalization with 8 groups and eps=1e-5 (no affine) on an N x C x H x W input, "
        "N = 16, C = 64, H = W = 32.",
        "y = group_norm(x, 8, eps=1e-5); x: float32[16, 64, 32, 32]",
    ),
    (
        "instance norm without affine parameters, eps 1e-5, x of shape (8, 32, 128, 128)",
        "y = instance_norm(x, eps=1e-5); x: float32[8, 32, 128, 128]",
    ),
    (
        "batch_norm in training mode, batch statistics only (no running stats, no affine), eps=1e-5, "
        "x: (32, 64, 56, 56)",
        "y = batch_norm(x, eps=1e-5); x: float32[32, 64, 56, 56]",
    ),
    (
        "F.normalize(x, p=2, dim=1) for x of shape 4096 x 256",
        "y = normalize(x, p=2, axis=1); x: float32[4096, 256]",
    ),
    # ---- scans ----------------------------------------------------------------------------------------------
    (
        "reverse exclusive cumsum of a 1 << 22 float vector",
        "y = cumsum(x, axis=0, exclusive=True, reverse=True); x: float32[4194304]",
    ),
    (
        "Cumulative product from right to left (reverse) along dim 1, x: 64 x 1000",
        "y = cumprod(x, axis=1, reverse=True); x: float32[64, 1000]",
    ),
    (
        "masked cumsum along dim 1: data x and float mask m, both (256, 8192)",
        "y = cumsum(x * m, axis=1); x: float32[256, 8192]; m: float32[256, 8192]",
    ),
    # ---- matmul layouts -------------------------------------------------------------------------------------
    (
        "C = A^T B, A is 1024 x 2048, B is 1024 x 4096",
        "C = A.T @ B; A: float32[1024, 2048]; B: float32[1024, 4096]",
    ),
    (
        "torch.matmul(A, B.t()) with A (4096, 256) and B (8192, 256)",
        "C = A @ B.T; A: float32[4096, 256]; B: float32[8192, 256]",
    ),
    (
        "Batched matmul: 32 independent (512 x 64) @ (64 x 512) products",
        "C = bmm(A, B); A: float32[32, 512, 64]; B: float32[32, 64, 512]",
    ),
    (
        "gemv: y = A x with A 8192 x 4096",
        "y = A @ x; A: float32[8192, 4096]; x: float32[4096]",
    ),
    (
        "Scale row i of B by a[i], i.e. diag(a) @ B without building the diagonal matrix; B: 4096 x 1024, "
        "a has 4096 entries",
        "C = diag(a) @ B; a: float32[4096]; B: float32[4096, 1024]",
    ),
    (
        "Upper-triangular part of the product of two 1024 x 1024 matrices (torch.triu(A @ B))",
        "C = triu(A @ B); A: float32[1024, 1024]; B: float32[1024, 1024]",
    ),
    # ---- transposes -----------------------------------------------------------------------------------------
    (
        "Out-of-place transpose of a float matrix with 8192 rows and 4096 columns",
        "y = x.T; x: float32[8192, 4096]",
    ),
    (
        "Permute the axes of x (32, 128, 256) into the order (1, 0, 2)",
        "y = x.permute(1, 0, 2); x: float32[32, 128, 256]",
    ),
    # ---- losses ---------------------------------------------------------------------------------------------
    (
        "Mean squared error between predictions and targets, each 128 x 4096.",
        "loss = mse_loss(p, t); p: float32[128, 4096]; t: float32[128, 4096]",
    ),
    (
        "huber_loss(pred, target, delta=1.5), both of shape (256, 1024)",
        "loss = huber_loss(p, t, delta=1.5); p: float32[256, 1024]; t: float32[256, 1024]",
    ),
    (
        "KL divergence loss as F.kl_div computes it: the predictions are already log-probabilities, the targets "
        "are probabilities, both 256 x 1000, reduction='batchmean'",
        "loss = kl_div(p, t, reduction='batchmean'); p: float32[256, 1000]; t: float32[256, 1000]",
    ),
    (
        "cross-entropy of logits (4096, 1000) against int32 class labels (4096,), summed over the batch",
        "loss = cross_entropy(x, t, reduction='sum'); x: float32[4096, 1000]; t: int32[4096]",
    ),
    (
        "Triplet margin loss with margin 1.0; anchor, positive and negative are each 128 x 4096",
        "loss = triplet_margin_loss(a, p, n, margin=1.0); a: float32[128, 4096]; p: float32[128, 4096]; "
        "n: float32[128, 4096]",
    ),
    (
        "cosine similarity loss between the rows of a and b, (128, 4096) each",
        "loss = cosine_similarity_loss(a, b); a: float32[128, 4096]; b: float32[128, 4096]",
    ),
    # ---- pooling --------------------------------------------------------------------------------------------
    (
        "nn.MaxPool2d(kernel_size=3, stride=2, padding=1) applied to x: 16 x 64 x 112 x 112",
        "y = max_pool2d(x, kernel_size=3, stride=2, padding=1); x: float32[16, 64, 112, 112]",
    ),
    (
        "avg_pool1d with a window of 4 (default stride, no padding) over x (32, 128, 4096)",
        "y = avg_pool1d(x, kernel_size=4); x: float32[32, 128, 4096]",
    ),
    # ---- convolutions ---------------------------------------------------------------------------------------
    (
        "conv2d forward: input (16, 3, 224, 224), weight (64, 3, 7, 7), bias (64,), stride 2, padding 3",
        "y = conv2d(x, w, b, stride=2, padding=3); x: float32[16, 3, 224, 224]; w: float32[64, 3, 7, 7]; "
        "b: float32[64]",
    ),
    (
        "Depthwise conv1d (groups=64): x is 8 x 64 x 4096, w is 64 x 1 x 5, bias of length 64, padding 2",
        "y = conv1d(x, w, b, padding=2, groups=64); x: float32[8, 64, 4096]; w: float32[64, 1, 5]; "
        "b: float32[64]",
    ),
    (
        "ConvTranspose2d forward with x (8, 64, 32, 32), weight (64, 32, 3, 3), bias (32,), stride 2, padding 1, "
        "output_padding 1",
        "y = conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1); x: float32[8, 64, 32, 32]; "
        "w: float32[64, 32, 3, 3]; b: float32[32]",
    ),
    # ---- must be refused ------------------------------------------------------------------------------------
    # sorting is not generated
    ("Sort each row of x (4096 x 1024) in descending order.", None),
    # top-k is not generated
    ("top-k with k = 8 along the last dim of logits (128, 32000), returning values and indices", None),
    # half-precision matmul is not generated (matmul is fp32 only)
    ("fp16 GEMM: C = A @ B with A and B half precision, 4096 x 4096", None),
    # int8 matmul is not generated
    ("int8 matmul with int32 accumulation, A 1024 x 4096, B 4096 x 1024", None),
    # double-precision matmul is not generated (matmul is fp32 only)
    ("double-precision matmul C = A @ B, A and B are 2048 x 2048 fp64", None),
    # attention is not generated
    ("causal scaled dot-product attention over q, k, v of shape (8, 16, 1024, 64)", None),
    # scatter with an index array is not generated
    (
        "scatter_add: for each i, out[idx[i]] += src[i]; src has 1 << 20 floats, idx is an int32 index array of "
        "the same length, out has 65536 slots",
        None,
    ),
    # dropout needs random numbers
    ("Dropout with p = 0.1 in training mode on a 4096 x 4096 activation", None),
    # sum of a matrix with no axis said: per row, per column or all?
    ("Reduce the 8192 x 1024 matrix x with a sum.", None),
    # no shape, no axis
    ("Computes the softmax of the logits.", None),
    # inner dimensions do not match
    ("C = A @ B with A (1024, 512) and B (256, 128)", None),
    # bias of the wrong length for the rows
    ("Add a bias of length 512 to every row of x, x: 4096 x 1024", None),
    # the docs: not an exclusive cumprod
    ("Exclusive cumulative product along dim 1 of x (64, 1000)", None),
    # the docs: cumsum only along the last axis
    ("Cumulative sum down each column (dim 0) of a 4096 x 1024 matrix", None),
    # the docs: batch norm with running statistics is refused by name
    ("BatchNorm in eval mode using running_mean and running_var, eps 1e-5, x (32, 64, 56, 56)", None),
    # label smoothing is not generated
    ("cross entropy with label_smoothing=0.1, logits 4096 x 1000, int32 targets of length 4096", None),
    # axes 0 and 2 are not neighbours
    ("Sum x (64, 128, 256) over axes 0 and 2.", None),
    # the docs: KL divergence in words must name predictions and targets
    ("KL divergence between the distributions P and Q, both 256 x 1000", None),
]
