"""Fifth held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~70 lines of
tests/heldout4/intents_fourth.py (for the file format, not its phrasings), nothing under optiml_engine/, bench/,
scratch/, server/ or the rest of tests/, and ran no OptiML code.

The intents are written the way developers outside the project would write them: comments above a kernel
(`// y[i] = ...`), Stack Overflow-style questions, imperative one-liners, PyTorch/NumPy calls inside prose
(`torch.nn.functional.*`, `np.clip`, `x.sum(dim=-1)`, `nn.Conv1d(...)`), docstrings of a forward(), math notation
(Σ, "for each i", `Aᵀ Bᵀ`), terse shapes (`h[B=32, T=512, D=768]`, `N=16, C=64, H=W=128`), shapes in words ("a
matrix with 8192 rows and 1024 columns", "16384 tokens with hidden size 4096") and sizes such as `1 << 20`, `2**26`,
`2^24`, `1M`, `4K`, `16K`, `64x64x64`.

They cover activations with their parameters, elementwise formulas with scalars and arrays, a per-column bias, row,
column, middle-axis, two-axis and whole-array reductions (negative axes included), argmax/argmin, the L2 norm, a dot
product and a sum of squares written as formulas, softmax and log-softmax along rows, columns and the last axis,
layer/RMS/group/batch norm, L2 normalization, scans (exclusive, reverse, masked), products in every layout (A^T B,
A B^T, A^T B^T, batched, matrix-vector, tril of a product), transposes, pooling in 1-D/2-D/3-D with strides other
than the kernel, convolutions (1-D, 2-D with stride and padding, 3-D, transposed 2-D) and losses (MSE, smooth L1,
cross entropy, KL divergence, cosine similarity, triplet margin).

Each intent is paired with the spec form it must be read as, or None where OptiML must refuse: an operation the docs
do not list as generated (a running maximum, a cumsum not along the last axis, an exclusive cumprod, an fp64 or
bf16 kernel, a 4-D permute, ceil-mode pooling, cross entropy with an ignored index, a triplet loss with p=1, an
infinity norm, a function of a row sum, a softmax of a product, a bias broadcast down the columns), a request that
leaves something essential unsaid (a 2-D sum without its axis, pooling or a convolution without its kernel, a KL
divergence that does not say which operand is the prediction), or one that contradicts itself (an axis the array
lacks, axes that are not neighbours, inner sizes that do not agree, input channels that do not match the weight). A
misreading is never acceptable; a refusal always is.

Expected forms name arrays positionally: the comparison ignores names. A negative axis in an intent is written in its
expected form as the positive axis it denotes.

Do not edit after measuring; add cases in a new set.
"""

FIFTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- activations --------------------------------------------------------------------------------------
    (
        "apply leaky relu with negative slope 0.2 to h[B=32, T=512, D=768] (fp32)",
        "y = leaky_relu(x, 0.2); x: float32[32, 512, 768]",
    ),
    (
        "GELU (tanh approximation) on the MLP activations, a 4096x3072 fp32 matrix",
        "y = gelu(x, approximate='tanh'); x: float32[4096, 3072]",
    ),
    (
        "torch.nn.functional.gelu(x, approximate='none') where x has 16K rows and 1024 columns",
        "y = gelu(x); x: float32[16384, 1024]",
    ),
    (
        "How do I apply SiLU to a 4K x 4K matrix of doubles in a CUDA kernel?",
        "y = silu(x); x: float64[4096, 4096]",
    ),
    (
        "elu(x, alpha=1.0) over a 64x64x64 float volume",
        "y = elu(x, alpha=1.0); x: float32[64, 64, 64]",
    ),
    (
        "np.clip(x, -1.0, 1.0) where x is a float32 matrix with 8192 rows and 1024 columns",
        "y = hardtanh(x, min_val=-1.0, max_val=1.0); x: float32[8192, 1024]",
    ),
    (
        "hardswish activation for an NCHW input, N=16, C=64, H=W=128",
        "y = hardswish(x); x: float32[16, 64, 128, 128]",
    ),
    # ---- elementwise formulas, scalars, bias ----------------------------------------------------------------
    (
        "// y[i] = max(x[i], 0.0f) for every i < (1 << 20)",
        "y = maximum(x, 0.0); x: float32[1048576]",
    ),
    (
        "z = a*x + y with the scalar a = 2.0; x and y are float arrays of 1<<24 elements each",
        "z = 2.0 * x + y; x: float32[16777216]; y: float32[16777216]",
    ),
    (
        "out = relu(x + b) where x is 256 x 4096 and b is a per-column bias of length 4096",
        "y = relu(x + b); x: float32[256, 4096]; b: float32[4096]",
    ),
    (
        "out = w * x + c, where w and x are both [1024, 1024] float32 arrays and c = 0.5 is a scalar",
        "y = a * b + 0.5; a: float32[1024, 1024]; b: float32[1024, 1024]",
    ),
    (
        "GLU-style gate: out = a * sigmoid(b), with a and b each 8192 by 2048 (float)",
        "y = a * sigmoid(b); a: float32[8192, 2048]; b: float32[8192, 2048]",
    ),
    # ---- reductions -----------------------------------------------------------------------------------------
    (
        "x.sum(dim=-1) for x of shape [32, 128, 1024], float32",
        "y = sum(x, axis=2); x: float32[32, 128, 1024]",
    ),
    (
        "column means of a float matrix with 8192 rows and 1024 columns",
        "y = mean(x, axis=0); x: float32[8192, 1024]",
    ),
    (
        "For each i: m[i] = max over j of A[i][j]. A is a 4096 x 4096 matrix of doubles.",
        "y = max(x, axis=1); x: float64[4096, 4096]",
    ),
    (
        "torch.argmin(x, dim=1) with x: (16, 256, 256) float32",
        "y = argmin(x, axis=1); x: float32[16, 256, 256]",
    ),
    (
        "Which class wins in each row? I have logits of shape 65536 x 10 and need the index of the largest value per "
        "row.",
        "y = argmax(x, axis=1); x: float32[65536, 10]",
    ),
    (
        "Grand total of all 2**26 elements of a float array",
        "y = sum(x); x: float32[67108864]",
    ),
    (
        "reduce an NCHW tensor (N=8, C=256, H=W=56) by summing over H and W, leaving N x C",
        "y = sum(x, axis=(2, 3)); x: float32[8, 256, 56, 56]",
    ),
    (
        "Euclidean (L2) norm of every row of a 16384x256 embedding table",
        "y = norm(x, axis=1); x: float32[16384, 256]",
    ),
    (
        "s[j] = Σ_i X[i, j]   (X: 2048 × 8192, float32)",
        "y = sum(x, axis=0); x: float32[2048, 8192]",
    ),
    (
        "// rowsq[i] = sum over j of x[i][j] * x[i][j];  x is 1024 x 65536 float",
        "y = sum(x * x, axis=1); x: float32[1024, 65536]",
    ),
    (
        "Dot product of two float vectors of 1M elements each",
        "y = sum(a * b); a: float32[1048576]; b: float32[1048576]",
    ),
    (
        "x.mean(dim=-2) where x is [8, 4096, 64]",
        "y = mean(x, axis=1); x: float32[8, 4096, 64]",
    ),
    # ---- softmax, normalizations ----------------------------------------------------------------------------
    (
        "attention probs = softmax(scores, dim=-1); scores is 16 x 512 x 512 fp32",
        "y = softmax(x, axis=2); x: float32[16, 512, 512]",
    ),
    (
        "log-softmax over the classes for logits of shape (batch=4096, classes=1000)",
        "y = log_softmax(x, axis=1); x: float32[4096, 1000]",
    ),
    (
        "softmax down each column (dim 0) of a 1024 x 32768 matrix",
        "y = softmax(x, axis=0); x: float32[1024, 32768]",
    ),
    (
        '"""LayerNorm over the hidden dim (eps=1e-5, elementwise_affine=False). x holds 16384 tokens with hidden '
        'size 4096."""',
        "y = layer_norm(x, eps=1e-5); x: float32[16384, 4096]",
    ),
    (
        "RMSNorm with eps 1e-6 and no learnable scale, over the last dim of an 8192 x 5120 activation",
        "y = rms_norm(x, eps=1e-6); x: float32[8192, 5120]",
    ),
    (
        "F.normalize(emb, p=2, dim=1) for emb: float32[100000, 128]",
        "y = normalize(x, p=2, axis=1); x: float32[100000, 128]",
    ),
    (
        "GroupNorm(num_groups=32, affine=False, eps=1e-5) applied to x with N=8, C=256, H=W=64",
        "y = group_norm(x, num_groups=32, eps=1e-5); x: float32[8, 256, 64, 64]",
    ),
    (
        "BatchNorm2d in training mode without affine parameters (each channel normalized with the current batch's "
        "mean and variance), eps=1e-5, x: [32, 64, 56, 56]",
        "y = batch_norm(x, eps=1e-5); x: float32[32, 64, 56, 56]",
    ),
    # ---- scans ----------------------------------------------------------------------------------------------
    (
        "exclusive prefix sum of 2^24 floats (each output leaves out its own element)",
        "y = cumsum(x, axis=0, exclusive=True); x: float32[16777216]",
    ),
    (
        "suffix sums along each row of a 1024x4096 float matrix: s[i][j] = Σ_{k≥j} x[i][k]",
        "y = cumsum(x, axis=1, reverse=True); x: float32[1024, 4096]",
    ),
    (
        "torch.cumprod(x, dim=-1), x is 64 x 128 x 1000 double",
        "y = cumprod(x, axis=2); x: float64[64, 128, 1000]",
    ),
    (
        "masked cumsum: cumsum(x * mask, dim=1) with x and mask both [256, 4096] float32",
        "y = cumsum(x * m, axis=1); x: float32[256, 4096]; m: float32[256, 4096]",
    ),
    # ---- products -------------------------------------------------------------------------------------------
    (
        "C = A^T B, where A is 1024x4096 and B is 1024x2048 (fp32)",
        "C = A.T @ B; A: float32[1024, 4096]; B: float32[1024, 2048]",
    ),
    (
        "Multiply A (2048 x 1024) by the transpose of B, where B is 4096 x 1024",
        "C = A @ B.T; A: float32[2048, 1024]; B: float32[4096, 1024]",
    ),
    (
        "sgemm, M=4096, N=2048, K=512, row-major, C = A @ B",
        "C = A @ B; A: float32[4096, 512]; B: float32[512, 2048]",
    ),
    (
        "C = Aᵀ Bᵀ with A: 512 x 1024 and B: 2048 x 512",
        "C = A.T @ B.T; A: float32[512, 1024]; B: float32[2048, 512]",
    ),
    (
        "batch of 32 matmuls, each (1024 x 64) @ (64 x 1024)",
        "C = bmm(A, B); A: float32[32, 1024, 64]; B: float32[32, 64, 1024]",
    ),
    (
        "y = A x for a matrix A with 8192 rows and 4096 columns and a vector x of 4096 floats",
        "y = A @ v; A: float32[8192, 4096]; v: float32[4096]",
    ),
    (
        "torch.tril(A @ B) with A: 1024 x 64 and B: 64 x 1024",
        "C = tril(A @ B); A: float32[1024, 64]; B: float32[64, 1024]",
    ),
    # ---- transposes -----------------------------------------------------------------------------------------
    (
        "out = in.T for a 4096 x 8192 float matrix",
        "y = x.T; x: float32[4096, 8192]",
    ),
    (
        "swap the last two axes of a 32 x 1024 x 128 tensor",
        "y = x.permute(0, 2, 1); x: float32[32, 1024, 128]",
    ),
    # ---- pooling --------------------------------------------------------------------------------------------
    (
        "nn.MaxPool2d(kernel_size=3, stride=2, padding=1) on x: [32, 64, 112, 112]",
        "y = max_pool2d(x, kernel_size=3, stride=2, padding=1); x: float32[32, 64, 112, 112]",
    ),
    (
        "1-D average pooling, window 4, stride 2, over a (16, 32, 4096) signal",
        "y = avg_pool1d(x, kernel_size=4, stride=2); x: float32[16, 32, 4096]",
    ),
    (
        "3-D max pooling with a 2x2x2 window (default stride) on a [2, 16, 64, 64, 64] volume",
        "y = max_pool3d(x, kernel_size=2); x: float32[2, 16, 64, 64, 64]",
    ),
    # ---- convolutions ---------------------------------------------------------------------------------------
    (
        "Conv2d 64 -> 128 channels, 3x3 kernel, stride 2, padding 1, with bias; input is N=16, C=64, H=W=64",
        "y = conv2d(x, w, b, stride=2, padding=1); x: float32[16, 64, 64, 64]; w: float32[128, 64, 3, 3]; "
        "b: float32[128]",
    ),
    (
        "nn.Conv1d(in_channels=32, out_channels=64, kernel_size=5, padding=2, bias=False) applied to x of shape "
        "(8, 32, 16384)",
        "y = conv1d(x, w, padding=2); x: float32[8, 32, 16384]; w: float32[64, 32, 5]",
    ),
    (
        "3-D convolution from 16 input channels to 32 output channels, 3x3x3 kernel, no padding, no bias, on a "
        "[2, 16, 32, 64, 64] tensor",
        "y = conv3d(x, w); x: float32[2, 16, 32, 64, 64]; w: float32[32, 16, 3, 3, 3]",
    ),
    (
        "ConvTranspose2d(128, 64, kernel_size=4, stride=2, padding=1) with a bias, input [8, 128, 32, 32]",
        "y = conv_transpose2d(x, w, b, stride=2, padding=1); x: float32[8, 128, 32, 32]; w: float32[128, 64, 4, 4]; "
        "b: float32[64]",
    ),
    # ---- losses ---------------------------------------------------------------------------------------------
    (
        "mean squared error between predictions and targets, both [4096, 1000] float32",
        "y = mse_loss(p, t); p: float32[4096, 1000]; t: float32[4096, 1000]",
    ),
    (
        "F.smooth_l1_loss(pred, target, beta=0.5, reduction='sum') for two 8192x128 tensors",
        "y = smooth_l1_loss(p, t, beta=0.5, reduction='sum'); p: float32[8192, 128]; t: float32[8192, 128]",
    ),
    (
        "cross-entropy (mean over the batch) for logits [4096, 32000] with int32 class labels of length 4096",
        "y = cross_entropy(x, t); x: float32[4096, 32000]; t: int32[4096]",
    ),
    (
        "F.kl_div(log_probs, target, reduction='batchmean'), log_probs and target both 512 x 1000",
        "y = kl_div(p, t, reduction='batchmean'); p: float32[512, 1000]; t: float32[512, 1000]",
    ),
    (
        "loss = mean(1 - cosine_similarity(a, b, dim=1)) for a, b of shape 4096 x 768",
        "y = cosine_similarity_loss(a, b); a: float32[4096, 768]; b: float32[4096, 768]",
    ),
    (
        "TripletMarginLoss(margin=0.5) with anchor, positive and negative each 2048 x 256",
        "y = triplet_margin_loss(a, p, n, margin=0.5); a: float32[2048, 256]; p: float32[2048, 256]; "
        "n: float32[2048, 256]",
    ),
    # ---- must be refused: ambiguous or underspecified -------------------------------------------------------
    (
        "How do I sum a 4096x1024 float matrix as fast as possible?",
        None,
    ),
    (
        "max-pool the feature map x: [8, 64, 56, 56]",
        None,
    ),
    (
        "convolve a [16, 3, 224, 224] batch of images with 64 filters at stride 2",
        None,
    ),
    (
        "KL divergence between p and q, both 256 x 1000 probability tables",
        None,
    ),
    # ---- must be refused: self-contradictory ----------------------------------------------------------------
    (
        "softmax(x, dim=3) for x of shape [64, 128, 256]",
        None,
    ),
    (
        "x.sum(dim=(0, 2)) on a 64 x 128 x 256 tensor",
        None,
    ),
    (
        "C = A @ B with A 1024 x 512 and B 1024 x 512",
        None,
    ),
    (
        "F.conv2d(x, w) with x of shape [8, 3, 64, 64] and w of shape [16, 4, 3, 3]",
        None,
    ),
    (
        "out[i][j] = x[i][j] + b[i], with x 4096 x 1024 and b of length 4096",
        None,
    ),
    # ---- must be refused: not generated ---------------------------------------------------------------------
    (
        "running maximum along each row (the values of torch.cummax) of a 1024 x 4096 matrix",
        None,
    ),
    (
        "torch.cumsum(x, dim=0) where x is 8192 x 1024",
        None,
    ),
    (
        "exclusive cumulative product over a vector of 1<<20 doubles",
        None,
    ),
    (
        "double-precision GEMM: C = A B for two 2048 x 2048 fp64 matrices",
        None,
    ),
    (
        "row-wise softmax of a bf16 tensor of shape 4096 x 4096",
        None,
    ),
    (
        "convert an NCHW tensor [8, 64, 224, 224] to NHWC (x.permute(0, 2, 3, 1))",
        None,
    ),
    (
        "MaxPool2d(kernel_size=3, stride=2, ceil_mode=True) on [1, 96, 56, 56]",
        None,
    ),
    (
        "F.cross_entropy(logits, labels, ignore_index=-100), logits 8192 x 50257, labels int32 of length 8192",
        None,
    ),
    (
        "TripletMarginLoss(margin=1.0, p=1) with anchor/positive/negative each 1024 x 128",
        None,
    ),
    (
        "For every row i of a 2048 x 2048 matrix compute (Σ_j x[i][j])², the square of the row sum",
        None,
    ),
    (
        "infinity norm (max absolute value) of each row of a 4096 x 4096 matrix",
        None,
    ),
    (
        "compute softmax(Q @ K^T) with Q and K both 1024 x 64",
        None,
    ),
]
