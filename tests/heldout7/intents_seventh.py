"""Seventh held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~50 lines of
tests/heldout6/intents_sixth.py (for the file format, not its phrasings), nothing under optiml_engine/, bench/,
scratch/, server/ or the rest of tests/, no git history, and ran no OptiML code.

The intents are written in the voices of real users: a PyTorch user pasting a line of a forward() or a module call,
a CUDA developer's kernel comment (`// out[r] = max_j in[r][j]`), a NumPy user (`np.einsum`, `A.dot(B)`, `x.mean(0)`,
`keepdims`), a hurried one-liner ("rowwise l2 normalize 4096x512"), a question, a paper-style sentence with unicode
(Σ, ∈, ×, ε, ᵀ, √), and the spec form itself. Sizes are written as 4k, 16K, 16M, 1M, 2^12, 2**12 and 1e6 (K/M are
binary per the docs; 1e6 is the decimal 1000000).

Intents with a spec form are the ones whose exact reading is generated per the docs, often next to a trap: einsum
subscripts that mean A B, Aᵀ B, A Bᵀ or a batched product, Σ-notation that means A x or Aᵀ x, `x.mean(0)` vs
`x.mean(1)`, softmax over the middle axis named by layout letters, F.normalize's default dim=1 on a 3-D tensor,
torch.max of two tensors (elementwise), relu6 (a clamp to [0, 6]), a swish with β = 1.5 (not SiLU), a sum of
absolute values, a sum of products, "average pooling" (a pool, not a mean), a max-pool with stride 1, a Huber
loss summed, kl_div with batchmean, 1e6 elements of a 1000 x 1000 matrix.

Intents expected to be refused (None) ask for what the docs do not list as generated (keepdims, a softmax of a
formula, a product times a scalar, attention, layer norm of a sum, standardization, fp16/bf16/int32 data or int64
labels, an affine nn.LayerNorm whose parameters are not given, a flattened argmax, an exclusive cumprod, a 4-D permute,
bmm with a transposed operand, addmm, an outer product, ceil_mode, a product of sums, a median, mse with
reduction='none', soft-target cross-entropy, a bare cosine similarity, nanmean, a masked mean, a mean of maxima), are
ambiguous ("normalize", a bare "GELU", "reduce with addition", a softmax without an axis, KL between p and q), or
contradict themselves (two shapes for one array, mixed float32/float64 operands, inner sizes that do not agree, an
axis the array lacks, axes that are not neighbours, 1e6 elements of a 1024 x 1024 matrix, "1M floats (1,000,000
values)"). A misreading is never acceptable; a refusal always is.

Expected forms name arrays positionally: the comparison ignores names. A negative axis in an intent is written in its
expected form as the positive axis it denotes.

Do not edit after measuring; add cases in a new set.
"""

SEVENTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- reductions: axis conventions in several voices ----------------------------------------------------
    (
        "what's the fastest way to compute the mean of each column of an 8192x8192 fp32 matrix?",
        "y = mean(x, axis=0); x: float32[8192, 8192]",
    ),
    (
        "// for each row r: out[r] = max_j in[r][j];  in is float[2048][4096]",
        "y = max(x, axis=1); x: float32[2048, 4096]",
    ),
    (
        "x.mean(0) for x = torch.randn(1000, 512)",
        "y = mean(x, axis=0); x: float32[1000, 512]",
    ),
    (
        "x.mean(1), x a float64 array of shape (512, 1000)",
        "y = mean(x, axis=1); x: float64[512, 1000]",
    ),
    (
        # sum of absolute values down each column, not a plain column sum
        "// s[j] = sum_i |x[i][j]|;  x is float[4096][1024]",
        "y = sum(abs(x), axis=0); x: float32[4096, 1024]",
    ),
    (
        # sum of products along each row (einsum 'ij,ij->i'), not a matrix product
        "s = np.einsum('ij,ij->i', a, b); a, b: float32[4096, 512]",
        "s = sum(a * b, axis=1); a: float32[4096, 512]; b: float32[4096, 512]",
    ),
    (
        "log-sum-exp of each row of a 2048 x 32000 fp32 matrix",
        "y = logsumexp(x, axis=1); x: float32[2048, 32000]",
    ),
    # keepdims is not a keyword the docs know
    ("x.sum(axis=-1, keepdims=True) for x: float32[4096, 1024]", None),
    # a flattened argmax: argmax is generated only along an axis
    ("x.argmax() for x: float32[2048, 2048]", None),
    # axes 0 and 2 are not neighbours
    ("max over axes 0 and 2 of x: float32[16, 64, 32]", None),
    # a reduction of a reduction
    ("product of the row sums of x, a 64 x 64 float32 matrix", None),
    ("median of each row of a 4096 x 1024 float32 matrix", None),
    # which axis? (np.add.reduce would take axis 0; a user might mean the total)
    ("reduce x (2048 x 2048 float32) with addition", None),
    ("np.nanmean(x, axis=1) for x: float32[4096, 1024]", None),
    # a mean of row maxima: two reductions
    ("x.max(dim=1).values.mean() for x: float32[4096, 1024]", None),
    # ---- sizes: 4k, 16K, 16M, 1M, 2^12, 1e6 --------------------------------------------------------------------
    (
        "sum of 1e6 float32 values",
        "y = sum(x); x: float32[1000000]",
    ),
    (
        "sum all 1e6 elements of a 1000 x 1000 float32 matrix",
        "y = sum(x); x: float32[1000, 1000]",
    ),
    (
        "mean of all elements of a 4k x 4k fp32 matrix",
        "y = mean(x); x: float32[4096, 4096]",
    ),
    (
        "relu 16M floats",
        "y = relu(x); x: float32[16777216]",
    ),
    # 1e6 is not 1024 * 1024
    ("sum all 1e6 elements of a 1024 x 1024 float32 matrix", None),
    # M is binary (1M = 1048576), which the parenthesis contradicts
    ("mean of 1M floats (1,000,000 values)", None),
    # ---- products: einsum, dot, Σ notation, CUDA comments ------------------------------------------------------
    (
        "C = np.einsum('ij,jk->ik', A, B) with A float32[1024, 512] and B float32[512, 2048]",
        "C = A @ B; A: float32[1024, 512]; B: float32[512, 2048]",
    ),
    (
        # 'ki,kj->ij' contracts the first axes: Aᵀ B
        "np.einsum('ki,kj->ij', A, B) where A is a (512, 1024) float32 array and B is a (512, 768) float32 array",
        "C = A.T @ B; A: float32[512, 1024]; B: float32[512, 768]",
    ),
    (
        "out = torch.einsum('bmk,bkn->bmn', X, Y)  # X: float32[16, 256, 128], Y: float32[16, 128, 64]",
        "C = bmm(A, B); A: float32[16, 256, 128]; B: float32[16, 128, 64]",
    ),
    (
        # B indexed [j][k]: A Bᵀ
        "// C[i][j] = sum_k A[i][k] * B[j][k];  A is float[2048][64], B is float[4096][64]",
        "C = A @ B.T; A: float32[2048, 64]; B: float32[4096, 64]",
    ),
    (
        "A.dot(B) for A of shape (4096, 256) and B of shape (256, 4096), both float32",
        "C = A @ B; A: float32[4096, 256]; B: float32[256, 4096]",
    ),
    (
        "square SGEMM with N = 4k",
        "C = A @ B; A: float32[4096, 4096]; B: float32[4096, 4096]",
    ),
    (
        "y_i = Σ_j A_ij x_j, with A ∈ R^{4096×2048} and x ∈ R^{2048}, fp32",
        "y = A @ x; A: float32[4096, 2048]; x: float32[2048]",
    ),
    (
        # the sum runs over the first index: Aᵀ x
        "y_j = Σ_i A_ij x_i where A: float32[2048, 1024] and x: float32[2048]",
        "y = A.T @ x; A: float32[2048, 1024]; x: float32[2048]",
    ),
    # inner sizes 128 and 256 disagree
    ("np.einsum('ij,jk->ik', A, B) where A is float32[256, 128] and B is float32[256, 64]", None),
    # A is 4096 x 1024, v has 4096: A @ v does not multiply (a careless reader would make it Aᵀ v)
    ("y = A @ v where A: float32[4096, 1024] and v: float32[4096]", None),
    ("C = A @ B with A: float32[1024, 512] and B: float64[512, 1024]", None),
    ("fp16 GEMM: C = A @ B with A and B half-precision 4096 x 4096", None),
    ("integer GEMM: C = A @ B with A, B int32[1024, 1024]", None),
    ("torch.bmm(q, k.transpose(1, 2)) with q, k: float32[32, 512, 64]", None),
    ("torch.addmm(bias, A, B) with bias: float32[1024], A: float32[512, 256], B: float32[256, 1024]", None),
    ("torch.outer(a, b) for two float32 vectors of 4096 elements", None),
    # a product times a scalar
    ("S = (Q @ K.T) * (1 / math.sqrt(d)) with d = 64 and Q, K: float32[2048, 64]", None),
    ("attention: softmax(Q Kᵀ / √d) V with Q, K, V ∈ R^{1024×64} and d = 64", None),
    # ---- softmax and normalization ------------------------------------------------------------------------------
    (
        "F.softmax(attn, dim=-1) for attn of shape [8, 1024, 1024], float32",
        "y = softmax(x, axis=2); x: float32[8, 1024, 1024]",
    ),
    (
        # T is the middle axis
        "activations x of shape [B, T, C] with B = 8, T = 1024, C = 768; softmax over T",
        "y = softmax(x, axis=1); x: float32[8, 1024, 768]",
    ),
    (
        "y = log_softmax(x, axis=-1); x: float32[2**12, 50257]",
        "y = log_softmax(x, axis=1); x: float32[4096, 50257]",
    ),
    (
        "rowwise l2 normalize 4096x512",
        "y = l2_normalize(x, axis=1); x: float32[4096, 512]",
    ),
    (
        # F.normalize defaults to p=2, dim=1: the middle axis of a 3-D tensor, not the last
        "return F.normalize(emb)  # emb: float32[32, 256, 128]",
        "y = l2_normalize(x, axis=1); x: float32[32, 256, 128]",
    ),
    (
        "We apply RMSNorm with ε = 1e-6 to the hidden states h ∈ R^{4096×1024}.",
        "y = rms_norm(x, eps=1e-6); x: float32[4096, 1024]",
    ),
    (
        "layer norm over the last axis, eps 1e-5, of a 16K x 1024 fp32 activation",
        "y = layer_norm(x, eps=1e-5); x: float32[16384, 1024]",
    ),
    # softmax of a formula (a temperature)
    ("return torch.softmax(logits / 0.7, dim=-1)  # logits: float32[64, 32000]", None),
    # no axis, square matrix
    ("softmax of x, x: float32[4096, 4096]", None),
    # two shapes for one array
    ("softmax over the last axis of x: float32[512, 1000], where x is a 512 x 1024 matrix", None),
    ("y = softmax(x, axis=2); x: float32[4096, 1024]", None),
    # L2? layer norm? min-max?
    ("normalize each row of x (4096 x 768 float32)", None),
    # population or sample std, no eps said
    ("standardize each column of a 10000 x 64 float64 matrix", None),
    # layer norm of a sum: two operations
    ("residual add then layernorm: y = layer_norm(x + r) with x and r float32[4096, 1024]", None),
    # nn.LayerNorm carries a weight and a bias that the intent does not give
    ("apply nn.LayerNorm(1024) to x: float32[8192, 1024]", None),
    ("layer norm (eps 1e-5) of a bf16 tensor of shape [4096, 1024]", None),
    # ---- losses ---------------------------------------------------------------------------------------------------
    (
        "softmax cross-entropy of logits (2048 x 50000 floats) against integer class labels, one int32 label per row, "
        "averaged over the rows",
        "loss = cross_entropy(x, t); x: float32[2048, 50000]; t: int32[2048]",
    ),
    (
        "mean of the squared differences between predictions p and targets t, both float32[8192, 128]",
        "loss = mse_loss(p, t); p: float32[8192, 128]; t: float32[8192, 128]",
    ),
    (
        "Huber loss with delta = 1.5 and reduction='sum' between predictions and targets, 1M floats each",
        "loss = huber_loss(p, t, delta=1.5, reduction='sum'); p: float32[1048576]; t: float32[1048576]",
    ),
    (
        "F.kl_div(log_q, p, reduction='batchmean') where log_q and p are both float32[512, 1000]",
        "loss = kl_div(a, b, reduction='batchmean'); a: float32[512, 1000]; b: float32[512, 1000]",
    ),
    # int64 labels: the form allows int32 only
    (
        "nn.CrossEntropyLoss()(logits, labels), logits float32[1024, 32000], labels a torch.int64 tensor of 1024 "
        "class indices",
        None,
    ),
    # which is the prediction?
    ("KL divergence between two distributions p and q, both float32[256, 128]", None),
    ("F.mse_loss(p, t, reduction='none') with p and t float32[4096, 128]", None),
    (
        "cross-entropy with soft targets: -(t * F.log_softmax(x, dim=1)).sum(dim=1).mean(), x and t float32[1024, 1000]",
        None,
    ),
    ("F.cosine_similarity(a, b, dim=1) for a, b: float32[4096, 256]", None),
    (
        "mean pooling over tokens with a padding mask: (h * m[..., None]).sum(1) / m.sum(1, keepdim=True), "
        "h: float32[32, 512, 768], m: float32[32, 512]",
        None,
    ),
    # ---- scans, permutes, pooling, convolution --------------------------------------------------------------------
    (
        "suffix sums down each column of a float64 matrix with 4096 rows and 256 columns",
        "y = cumsum(x, axis=0, reverse=True); x: float64[4096, 256]",
    ),
    (
        "x.transpose(1, 2) on a [16, 512, 64] float32 tensor",
        "y = x.permute(0, 2, 1); x: float32[16, 512, 64]",
    ),
    (
        # stride 1, not the default stride = kernel
        "max-pool 3x3, stride 1, padding 1 over x: float32[16, 32, 64, 64]",
        "y = max_pool2d(x, kernel_size=3, stride=1, padding=1); x: float32[16, 32, 64, 64]",
    ),
    (
        # a pool with window 4 (stride 4), not a mean over the axis
        "1-D average pooling with kernel size 4 over x of shape (N, C, L) = (32, 64, 1000), fp32",
        "y = avg_pool1d(x, kernel_size=4); x: float32[32, 64, 1000]",
    ),
    (
        "nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False) applied to x: float32[8, 3, 224, 224]",
        "y = conv2d(x, w, stride=2, padding=3); x: float32[8, 3, 224, 224]; w: float32[64, 3, 7, 7]",
    ),
    ("exclusive cumprod along each row of a 512 x 512 float32 matrix", None),
    ("x.permute(0, 2, 1, 3) for x: float32[8, 128, 12, 64]", None),
    ("F.avg_pool2d(x, 2, ceil_mode=True) for x: float32[8, 16, 33, 33]", None),
    # ---- elementwise ------------------------------------------------------------------------------------------------
    (
        "F.gelu(x, approximate='tanh') over a float32 tensor of shape (8, 1024, 3072)",
        "y = gelu(x, approximate='tanh'); x: float32[8, 1024, 3072]",
    ),
    (
        # torch.max of two tensors compares element by element
        "torch.max(a, b) where a and b are both float32[4096, 4096]",
        "y = maximum(a, b); a: float32[4096, 4096]; b: float32[4096, 4096]",
    ),
    (
        "F.relu6(x) for x: float32[1024, 4096]",
        "y = hardtanh(x, 0.0, 6.0); x: float32[1024, 4096]",
    ),
    (
        # β = 1.5 inside the sigmoid: not SiLU
        "y = x * torch.sigmoid(1.5 * x) for x of shape 2^12 x 2^10, float32",
        "y = x * sigmoid(1.5 * x); x: float32[4096, 1024]",
    ),
    # a bare GELU in words: exact or tanh?
    ("apply GELU to every element of a 4096 x 4096 float matrix", None),
]
