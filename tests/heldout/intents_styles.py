"""Second held-out set of intents (issue 17), written before the words-to-spec translator it judges
(optiml_engine/generate/words.py) and after the first set (intents_kernelbench.py) had informed the parser: the
operations of KernelBench level 1 and of everyday kernels, phrased the way different people write a request
(a docstring, a terse note, a formula first, PyTorch calls in prose, shapes as `B x N`, `B*N`, `(B, N)`, `N = ...`,
`1M`), each with the spec form it must be read as, or None where OptiML must refuse (an operation it does not
generate, or a request that leaves something essential unsaid). A misreading is never acceptable; a refusal always
is. Do not edit after measuring (bench/intent_bench.py --set styles); add cases in a new set.

Expected forms name arrays positionally: the comparison ignores names.
"""

STYLE_INTENTS: list[tuple[str, str | None]] = [
    # Activations over a 2-D input, several phrasings each
    ("apply relu to a 32 x 8192 float tensor", "y = relu(x); x: float32[32, 8192]"),
    ("y = relu(x) where x has shape (64, 4096)", "y = relu(x); x: float32[64, 4096]"),
    ("Computes torch.sigmoid on an input of size 128*2048", "y = sigmoid(x); x: float32[128, 2048]"),
    ("leaky ReLU (negative_slope=0.2) of a 1024 x 1024 matrix", "y = leaky_relu(x, 0.2); x: float32[1024, 1024]"),
    ("ELU, alpha = 0.5, over x: 256 x 4096", "y = elu(x, 0.5); x: float32[256, 4096]"),
    ("softplus over a vector of 1048576 floats", "y = softplus(x); x: float32[1048576]"),
    ("SiLU of x with shape [8, 65536]", "y = x * sigmoid(x); x: float32[8, 65536]"),
    ("hardtanh with min -2 and max 2 on a (512, 512) tensor", "y = hardtanh(x, -2.0, 2.0); x: float32[512, 512]"),
    ("Hardswish activation for an input of shape (32, 32768)", "y = hardswish(x); x: float32[32, 32768]"),
    ("mish activation of a 4096x4096 double matrix", "y = mish(x); x: float64[4096, 4096]"),
    ("exponential of each element of a 2M-element vector", "y = exp(x); x: float32[2097152]"),
    ("square root of every entry, x is 1000 x 1000", "y = sqrt(x); x: float32[1000, 1000]"),
    ("GELU of a 64 x 1024 tensor", None),                      # which GELU (erf or tanh) is unsaid
    ("apply the activation to x (16, 16384)", None),           # no operation named
    # Scalar and broadcast arithmetic
    ("scale a 2048 x 2048 matrix by 0.125", "y = x * 0.125; x: float32[2048, 2048]"),
    ("add 1.5 to every element of a vector of length 65536", "y = x + 1.5; x: float32[65536]"),
    ("elementwise product of two 4096 x 1024 matrices", "y = a * b; a: float32[4096, 1024]; b: float32[4096, 1024]"),
    ("z = x + y for two float vectors of 10M elements", None),  # 10M: 10,000,000 or 10 * 2**20 is unsaid
    ("add bias b (length 768) to each row of x, x is 8192 x 768",
     "y = x + b; x: float32[8192, 768]; b: float32[768]"),
    # Reductions along an axis, 2-D and 3-D
    ("row-wise sum of a 4096 x 8192 matrix", "y = sum(x, axis=1); x: float32[4096, 8192]"),
    ("sum each column of x, shape (65536, 512)", "y = sum(x, axis=0); x: float32[65536, 512]"),
    ("torch.sum(x, dim=2) for x of shape (32, 128, 1024)", "y = sum(x, axis=2); x: float32[32, 128, 1024]"),
    ("mean over the middle dimension of a 64 x 512 x 256 tensor", "y = mean(x, axis=1); x: float32[64, 512, 256]"),
    ("max along the last axis, input (128, 256, 512)", "y = max(x, axis=2); x: float32[128, 256, 512]"),
    ("minimum of each row, 1024 rows of 1024 floats", "y = min(x, axis=1); x: float32[1024, 1024]"),
    ("argmin over dim 0 of a 4096 x 256 tensor", "y = argmin(x, axis=0); x: float32[4096, 256]"),
    ("product of all elements along dim 1, x: (256, 64)", "y = prod(x, axis=1); x: float32[256, 64]"),
    ("L2 norm of every row of a 16384 x 128 matrix", "y = norm(x, axis=1); x: float32[16384, 128]"),
    ("total sum of a 4096*4096 array", "y = sum(x); x: float32[4096, 4096]"),
    ("mean of all 1M entries of x", None),                     # 1M: 1,000,000 or 2**20 is unsaid
    ("reduce x (32, 64, 128) over dims 1 and 2 with a sum", "y = sum(x, axis=(1, 2)); x: float32[32, 64, 128]"),
    # Normalizations
    ("softmax over the last dimension of a (256, 32768) input", "y = softmax(x, axis=1); x: float32[256, 32768]"),
    ("log_softmax(x, dim=-1) with x 512 x 4096", "y = log_softmax(x, axis=1); x: float32[512, 4096]"),
    ("softmax along dim 0 of a 8192 x 64 matrix", "y = softmax(x, axis=0); x: float32[8192, 64]"),
    ("LayerNorm over the last dimension (eps 1e-6) of x with shape 4096 x 1024",
     "y = layer_norm(x, axis=-1, eps=1e-06); x: float32[4096, 1024]"),
    ("RMS normalization of each row, x is 2048 x 4096, epsilon 1e-5",
     "y = rms_norm(x, axis=-1, eps=1e-05); x: float32[2048, 4096]"),
    ("batch norm of a (16, 64, 128, 128) activation", None),    # not generated
    ("instance normalization on (8, 32, 64, 64)", None),       # not generated
    # Products
    ("C = A @ B with A 1024 x 512 and B 512 x 2048", "C = A @ B; A: float32[1024, 512]; B: float32[512, 2048]"),
    ("multiply two 4096 x 4096 matrices", "C = A @ B; A: float32[4096, 4096]; B: float32[4096, 4096]"),
    ("matrix times vector, the matrix is 16384 x 4096", "y = A @ x; A: float32[16384, 4096]; x: float32[4096]"),
    ("dot product of two vectors of 1048576 floats", "y = sum(a * b); a: float32[1048576]; b: float32[1048576]"),
    ("batched matmul of (32, 256, 64) by (32, 64, 256)", None),  # not generated
    # Scans and data movement
    ("cumulative sum along each row of a 1024 x 4096 matrix", "y = cumsum(x, axis=1); x: float32[1024, 4096]"),
    ("reverse cumsum of x (256, 8192) along the last axis",
     "y = cumsum(x, axis=1, reverse=True); x: float32[256, 8192]"),
    ("transpose a 8192 x 2048 matrix", "y = x.T; x: float32[8192, 2048]"),
    ("permute a (64, 128, 256) tensor to order (2, 0, 1)", "y = permute(x, (2, 0, 1)); x: float32[64, 128, 256]"),
    # Losses
    ("mean squared error of predictions vs targets, both 256 x 1024",
     "l = mean((p - t) ** 2); p: float32[256, 1024]; t: float32[256, 1024]"),
    ("L1 loss between a and b of shape (4096, 512)", "l = mean(abs(a - b)); a: float32[4096, 512]; b: float32[4096, 512]"),
    ("huber loss of two (128, 4096) tensors", None),           # not generated
    # Not generated, or not a kernel
    ("max pooling 2x2 stride 2 of a (16, 64, 128, 128) tensor", None),
    ("3x3 convolution with padding 1 of an (8, 3, 224, 224) image", None),
    ("sort each row of a 1024 x 1024 matrix", None),
    ("top-k (k=8) of each row of a 4096 x 32000 matrix", None),
    ("make it fast", None),
]
