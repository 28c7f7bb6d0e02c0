"""Ninth held-out set of intents, written on 2026-11-26 by a helper session without looking at the reader it judges:
its author read only the sections "The spec form" and "Intents" of docs/generate.md and the first ~40 lines of
tests/heldout8/intents_eighth.py (for the file format, not its phrasings or cases), nothing under optiml_engine/,
bench/, scratch/, server/ or the rest of tests/, no git history, and ran no OptiML code (only `python3 -c` to import
this file and check it is valid Python).

This set aims at "the word that changes everything", written as real users write: casual, verbose, chatty, with filler
and context sentences ("quick one:", "I'm porting a PyTorch model and need...", "for my RNN"). Many intents have their
meaning changed by ONE extra word or short phrase that a careless reader would drop: "upper triangle", "shifted by
one", "excluding the current element", "in log space", "stable", "masked by m", "squared", "flipped", "weighted",
"strided by 2", "fused with", "then", "twice", "per-channel", "broadcast along", "with temperature 2", "ignoring index
-100", "normalized by n-1", "unbiased", "scaled by 1/sqrt(d)", "accumulated in double", "to int", "modulo", "rounded",
"truncated", "integer division", "saturating", "with wraparound", "clamped at the edges", "for the first half",
"mirrored", "every other element", "the last 10 columns", "except the diagonal", "strictly", "negated", "where x > 0",
"only the positive entries". Often the same qualifier appears twice: once where its exact reading is generated (an
exclusive scan, log_softmax, triu, a masked scan, a reverse scan, an affine norm, a stride) and once where it is not
(a shifted copy, a cumulative logsumexp, a strict triangle, a masked softmax, a flip of a scan, a per-row offset).
Plain, fully supported intents are mixed in, phrased as docstrings, terse notes, math notation (Σ, ∑_j, x_i, ||x||₂,
e^x), NumPy/PyTorch/JAX/einsum calls, CUDA kernel comments, with shapes written in the doc's ways and others
("[B=32, T=128, C=768]", "a 4k x 4k matrix", "1e6 floats", "2^20").

Intents with a spec form are the ones whose exact reading is generated per the docs and has only one reading. Those
expected to be refused (None) are ambiguous, contradict themselves, or ask for what the docs do not list as generated
(or what the author could not confirm from the docs is generated: a softmax of a scaled formula, a strict triangle, a
layer norm of a sum, a negated log-softmax, a per-row offset broadcast along the columns).
A misreading is never acceptable; a refusal always is.

Expected forms name arrays positionally: the comparison ignores names. A negative axis in an intent is written in its
expected form as the positive axis it denotes. Sizes with M/K suffixes are binary, as the docs say (1M = 2^20,
4k = 4096).

Do not edit after measuring; add cases in a new set.
"""

NINTH_INTENTS: list[tuple[str, str | None]] = [
    # ---- the qualifier's exact reading is generated ----------------------------------------------------------
    (
        "For my attention experiment I need the upper triangle of A @ B: everything below the diagonal set to zero, "
        "the diagonal itself kept. A and B are both 2048 x 2048 float32.",
        "C = triu(A @ B); A: float32[2048, 2048]; B: float32[2048, 2048]",
    ),
    (
        "I need a prefix sum over 2^20 floats, but shifted by one: out[0] is zero and every out[i] is the sum of the "
        "elements before position i.",
        "y = cumsum(x, axis=0, exclusive=True); x: float32[1048576]",
    ),
    (
        "Running sum along each row of a 512 x 8192 float32 matrix, excluding the current element, so each output is "
        "the sum of what comes strictly before it in its row.",
        "y = cumsum(x, axis=1, exclusive=True); x: float32[512, 8192]",
    ),
    (
        "Softmax of each row, but in log space please. The logits are 4096 rows by 32000 vocab entries, fp32.",
        "y = log_softmax(x, axis=1); x: float32[4096, 32000]",
    ),
    (
        "Can you write me a numerically stable softmax over the last dim of my attention scores? They're a "
        "[64, 12, 128, 128] float32 tensor.",
        "y = softmax(x, axis=3); x: float32[64, 12, 128, 128]",
    ),
    (
        "masked running sum along rows: out[i, j] = Σ_{k≤j} x[i, k] * m[i, k], where x and m are both float32 "
        "1024 x 4096 and m is a 0/1 mask stored as floats.",
        "y = cumsum(x * m, axis=1); x: float32[1024, 4096]; m: float32[1024, 4096]",
    ),
    (
        "Per-row sum of x masked by m, i.e. multiply by the float mask m and add up each row. x and m are float32 "
        "[2048, 512].",
        "y = sum(x * m, axis=1); x: float32[2048, 512]; m: float32[2048, 512]",
    ),
    (
        "Squared L2 norm of every row of an 8192 x 256 float32 matrix: ||x_i||₂², i.e. ∑_j x_ij^2.",
        "y = sum(x ** 2, axis=1); x: float32[8192, 256]",
    ),
    (
        "L2 norm of each row, ||x_i||₂, for an 8192 x 256 float32 matrix.",
        "y = norm(x, axis=1); x: float32[8192, 256]",
    ),
    (
        "hey, I need e^x summed over each row, Σ_j e^{x_ij}, for a 4096 x 1000 float32 matrix. Exp first, then the "
        "row sums.",
        "y = sum(exp(x), axis=1); x: float32[4096, 1000]",
    ),
    (
        "For my RNN's backward pass: for every row of a 256 x 1024 float32 matrix, take the row flipped, cumsum it, "
        "and flip it back, i.e. out[i, j] = Σ_{k≥j} x[i, k].",
        "y = cumsum(x, axis=1, reverse=True); x: float32[256, 1024]",
    ),
    (
        "BatchNorm forward in training mode (each channel normalized with the batch's own statistics only) with the "
        "per-channel affine: weight g and bias b, 64 values each. Input x is N=32, C=64, H=W=28, "
        "float32, eps 1e-5.",
        "y = batch_norm(x, weight=g, bias=b, eps=1e-5); x: float32[32, 64, 28, 28]; g: float32[64]; "
        "b: float32[64]",
    ),
    (
        "Add the bias vector b (768 floats) to every row of x, broadcast along the rows. x is [4096, 768] float32.",
        "y = x + b; x: float32[4096, 768]; b: float32[768]",
    ),
    (
        "Gradient of a linear layer with respect to its input: W transposed times g, where W is a 4096 x 1024 fp32 "
        "matrix and g is a vector of 4096 floats.",
        "y = W.T @ g; W: float32[4096, 1024]; g: float32[4096]",
    ),
    (
        "SwiGLU gate: silu(x) fused with the elementwise multiply by g. x and g are both [16384, 11008] float32.",
        "y = silu(x) * g; x: float32[16384, 11008]; g: float32[16384, 11008]",
    ),
    (
        "weird one, but: the exact (erf) GELU applied twice, gelu(gelu(x)), on a 4096 x 4096 float32 matrix.",
        "y = gelu(gelu(x)); x: float32[4096, 4096]",
    ),
    (
        "avg_pool2d with a 3x3 window strided by 2, no padding, over an [8, 64, 56, 56] fp32 input.",
        "y = avg_pool2d(x, kernel_size=3, stride=2, padding=0); x: float32[8, 64, 56, 56]",
    ),
    (
        "Conv1d from 32 input channels to 64 output channels, kernel size 3, dilated by 2, padding 2, stride 1, no "
        "bias. Input is [16, 32, 4096] float32.",
        "y = conv1d(x, w, stride=1, padding=2, dilation=2); x: float32[16, 32, 4096]; w: float32[64, 32, 3]",
    ),
    (
        "grouped 3x3 conv2d, groups=4, 64 -> 128 channels, stride 1, padding 1, with a bias. x is N=8, C=64, H=W=32, "
        "float32.",
        "y = conv2d(x, w, b, stride=1, padding=1, groups=4); x: float32[8, 64, 32, 32]; w: float32[128, 16, 3, 3]; "
        "b: float32[128]",
    ),
    (
        "A ConvTranspose2d for my decoder: 128 -> 64 channels, kernel 4, stride 2, padding 1, with bias, on an input "
        "of [8, 128, 32, 32] float32.",
        "y = conv_transpose2d(x, w, b, stride=2, padding=1); x: float32[8, 128, 32, 32]; w: float32[128, 64, 4, 4]; "
        "b: float32[64]",
    ),
    (
        "Leaky ReLU with negative slope 0.2 on 1e6 floats.",
        "y = leaky_relu(x, 0.2); x: float32[1000000]",
    ),
    (
        '"""Return the log of the sum of exponentials along each row, computed stably in log space.\n\n'
        'x: 16384 x 512 array of doubles.\n"""',
        "y = logsumexp(x, axis=1); x: float64[16384, 512]",
    ),
    (
        "LayerNorm for my RNN hidden state x, which is [64, 1024] float32: normalize over the hidden size with eps "
        "1e-5, then apply gamma g and beta b, which I have as 1024-float arrays.",
        "y = layer_norm(x, weight=g, bias=b, eps=1e-5); x: float32[64, 1024]; g: float32[1024]; b: float32[1024]",
    ),
    (
        "RMSNorm over the last dim, weighted by w (4096 values), eps=1e-6, for activations of 8192 tokens x 4096 "
        "hidden, fp32.",
        "y = rms_norm(x, weight=w, eps=1e-6); x: float32[8192, 4096]; w: float32[4096]",
    ),
    (
        "GroupNorm with 8 groups and affine=False, eps=1e-5, on an N=16, C=64, H=W=32 float32 tensor.",
        "y = group_norm(x, 8, eps=1e-5); x: float32[16, 64, 32, 32]",
    ),
    # ---- losses with their reduction ---------------------------------------------------------------------------
    (
        "MSE between predictions p and targets t, both [512, 1000] float32, summed rather than averaged "
        "(reduction='sum').",
        "loss = mse_loss(p, t, reduction='sum'); p: float32[512, 1000]; t: float32[512, 1000]",
    ),
    (
        "KL divergence as in F.kl_div: the predictions lp are already in log space (log-probabilities), the targets t "
        "are plain probabilities, reduction='batchmean'. Both are 256 x 10000 float32.",
        "loss = kl_div(lp, t, reduction='batchmean'); lp: float32[256, 10000]; t: float32[256, 10000]",
    ),
    (
        "Huber loss with delta = 0.5, reduction 'mean', between predictions p and targets t of 1M floats each.",
        "loss = huber_loss(p, t, delta=0.5); p: float32[1048576]; t: float32[1048576]",
    ),
    (
        "Cross entropy of logits x (8192 rows x 1000 classes, fp32) against int32 class labels y, one per row, summed "
        "over the rows instead of averaged.",
        "loss = cross_entropy(x, y, reduction='sum'); x: float32[8192, 1000]; y: int32[8192]",
    ),
    (
        "Triplet margin loss with margin 0.5 (PyTorch's, Euclidean distance, default reduction): anchors a, positives "
        "p, negatives n, each 1024 x 128 float32.",
        "loss = triplet_margin_loss(a, p, n, margin=0.5); a: float32[1024, 128]; p: float32[1024, 128]; "
        "n: float32[1024, 128]",
    ),
    (
        '"""Cosine similarity loss: the mean over rows of 1 - cos(a_i, b_i).\n\n'
        'a, b: float32 arrays of shape [2048, 256].\n"""',
        "loss = cosine_similarity_loss(a, b); a: float32[2048, 256]; b: float32[2048, 256]",
    ),
    # ---- plain calls in library / kernel-comment style ---------------------------------------------------------
    (
        "Quick one: I'm porting a PyTorch model and need F.gelu(x, approximate='tanh') on an activation of shape "
        "[B=32, T=128, C=768], fp32.",
        "y = gelu(x, approximate='tanh'); x: float32[32, 128, 768]",
    ),
    (
        "torch.einsum('ij,jk->ik', A, B) with A float32 of shape (1024, 512) and B float32 of shape (512, 256).",
        "C = A @ B; A: float32[1024, 512]; B: float32[512, 256]",
    ),
    (
        "jnp.sum(x, axis=0) where x is a float32 array of shape (8192, 512).",
        "y = sum(x, axis=0); x: float32[8192, 512]",
    ),
    (
        "x.mean(-1, keepdim=True) for x of shape [B=32, T=128, C=768], float32.",
        "y = mean(x, axis=2); x: float32[32, 128, 768]",
    ),
    (
        "F.normalize(x, dim=-1) on a 4096 x 768 float32 embedding matrix, with the defaults p=2 and eps=1e-12.",
        "y = normalize(x, p=2, dim=1); x: float32[4096, 768]",
    ),
    (
        "torch.bmm(q, k) where q is [16, 128, 64] and k is [16, 64, 128], both float32.",
        "y = bmm(q, k); q: float32[16, 128, 64]; k: float32[16, 64, 128]",
    ),
    (
        "x.permute(0, 2, 1) to go from [B, T, C] to [B, C, T], with B=32, T=128, C=768, fp32.",
        "y = x.permute(0, 2, 1); x: float32[32, 128, 768]",
    ),
    (
        "Just transpose a 4k x 4k float32 matrix: out = x.T.",
        "y = x.T; x: float32[4096, 4096]",
    ),
    (
        "The QKV projection of my transformer: x @ W with x of [B=8, T=512, C=1024] and W of [1024, 3072], all fp32.",
        "y = x @ W; x: float32[8, 512, 1024]; W: float32[1024, 3072]",
    ),
    (
        "// quick-GELU kernel: y[i] = x[i] * sigmoid(1.702f * x[i]);  n = 1 << 22 floats",
        "y = x * sigmoid(1.702 * x); x: float32[4194304]",
    ),
    (
        "Global max pooling, i.e. the max over H and W for every (n, c), of an N=32, C=256, H=W=14 float32 feature "
        "map.",
        "y = max(x, axis=(2, 3)); x: float32[32, 256, 14, 14]",
    ),
    (
        "Clamp every element of x to [-3, 3] (lower bound -3, upper bound 3); x is a 2^20-element float32 vector.",
        "y = hardtanh(x, -3.0, 3.0); x: float32[1048576]",
    ),
    # ---- the qualifier asks for what is not generated, or leaves two readings ----------------------------------
    (
        "Softmax over each row with temperature 2 (divide the logits by 2 first). x is 4096 x 1000 float32.",
        None,
    ),
    (
        "Cross entropy on logits [8192, 32000] fp32 with int32 targets, ignoring index -100 like PyTorch does by "
        "default.",
        None,
    ),
    (
        "Per-row variance of a 1024 x 4096 float32 matrix, normalized by n-1.",
        None,
    ),
    (
        "LayerNorm over the last dim of a [4096, 1024] float32 tensor, no affine, eps 1e-5, but using the unbiased "
        "variance.",
        None,
    ),
    (
        "A cumulative logsumexp along each row, i.e. a running sum done in log space, for a 256 x 4096 float32 "
        "matrix.",
        None,
    ),
    (
        "GEMM fused with ReLU: relu(A @ B), A is 4096x1024 and B is 1024x4096, fp32.",
        None,
    ),
    (
        "Sum each row, then exp the result: exp(Σ_j x_ij), for a 2048 x 2048 float32 matrix.",
        None,
    ),
    (
        "Apply softmax twice over the last axis of a 1024 x 1024 float32 matrix (the softmax of the softmax).",
        None,
    ),
    (
        "I only care about the first half of each row: mean of the first half of every row of a 1024 x 2048 "
        "float32 matrix.",
        None,
    ),
    (
        "Mirror each row of a 4096 x 4096 float32 image left to right.",
        None,
    ),
    (
        "y = x modulo 7 for an int32 array of 1M elements.",
        None,
    ),
    (
        "Round every element of x to the nearest integer, keeping float32; x has 1<<20 elements.",
        None,
    ),
    (
        "out = a // b (integer division), a and b are int32 arrays of 65536 elements each.",
        None,
    ),
    (
        "Saturating add of two int8 arrays of 1M elements each.",
        None,
    ),
    (
        "For each row of a float32 [4096, 512] matrix, count the entries where x > 0.",
        None,
    ),
    (
        "Mean of only the positive entries of each row of a 2048 x 1024 float32 matrix.",
        None,
    ),
    (
        "Sum of each row of a 2048 x 2048 float32 matrix except the diagonal element.",
        None,
    ),
    (
        "The strictly upper triangle of A @ B (the diagonal zeroed too), A and B both float32 1024 x 1024.",
        None,
    ),
    (
        "Upper triangle of A @ B where A is 1024 x 64 and B is 64 x 2048, float32.",
        None,
    ),
    (
        "Copy every other element of x into y, i.e. strided by 2; x holds 1<<21 floats.",
        None,
    ),
    (
        "Softmax over just the last 10 columns of each row of a 512 x 1000 float32 matrix.",
        None,
    ),
    (
        "3-point moving average with wraparound (periodic boundary) over a signal of 1M floats.",
        None,
    ),
    (
        "5-point stencil with weights 1, 4, 6, 4, 1 over 16, clamped at the edges, on 2^20 floats.",
        None,
    ),
    (
        "For each element, the sum of the other elements in its row, excluding the current element; 1024 x 1024 "
        "float32.",
        None,
    ),
    (
        "Weighted mean of each row of x [4096, 128] float32 with weights w (128 floats).",
        None,
    ),
    (
        "Per-channel scale: multiply x (NCHW, N=8, C=64, H=W=64, float32) by s, one value per channel (64 floats).",
        None,
    ),
    (
        "Add a per-row offset c (4096 values, one for each row, broadcast along the columns) to x, which is "
        "4096 x 768 float32.",
        None,
    ),
    (
        "Row means of a float32 [8192, 8192] matrix, accumulated in double.",
        None,
    ),
    (
        "Row sums of x (float32, 2048 x 512), converted to int.",
        None,
    ),
    (
        "Attention scores: Q @ K^T scaled by 1/sqrt(d) with d = 64; Q and K are both [4096, 64] float32.",
        None,
    ),
    (
        "BatchNorm2d in eval mode with running_mean and running_var, input [32, 64, 28, 28] float32, eps 1e-5.",
        None,
    ),
    (
        "Negated log-softmax over each row, -log_softmax(x, dim=1), for a 1024 x 50257 float32 matrix.",
        None,
    ),
    (
        "layer_norm(x + r): the residual add fused with LayerNorm over the last dim, x and r [4096, 1024] float32, "
        "eps 1e-5, no affine.",
        None,
    ),
    (
        "can you sum up x for me? it's a 2048 x 2048 float32 matrix.",
        None,
    ),
    (
        "Exclusive cumulative product along each row of a 128 x 4096 float32 matrix.",
        None,
    ),
    (
        "Matrix multiply of two 2048 x 2048 double-precision matrices, C = A @ B.",
        None,
    ),
    (
        "Masked softmax over each row, masked by m (a 0/1 float mask of the same shape), x is 1024 x 1024 float32.",
        None,
    ),
    (
        "Mean of each row masked by m, averaging over the unmasked entries only; x and m are 1024 x 1024 float32.",
        None,
    ),
    (
        "Truncate every element of x toward zero, keeping float32; 1M elements.",
        None,
    ),
    (
        "Take each row's running sum and then flip the result left to right; 256 x 1024 float32.",
        None,
    ),
    (
        "x shifted by one along each row, out[i, j] = x[i, j - 1] with a zero at the start; 512 x 512 float32.",
        None,
    ),
    (
        "Squared hinge loss: the mean of max(1 - p * t, 0) squared, p and t 65536 floats each.",
        None,
    ),
    (
        "Mean over C and W of an [8, 64, 32, 32] float32 NCHW tensor.",
        None,
    ),
]
