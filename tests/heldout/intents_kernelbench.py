"""Held-out intents (issue 17): KernelBench level-1 operations phrased as outside users would, several styles each
(docstring-like, terse, formula-first, shapes as `4096 x 393216`, `4096*393216`, `(4096, 393216)`), with what each
must be read as: the spec form that states it exactly, or None when OptiML must refuse it (an operation it does not
generate; a misreading is never acceptable, a refusal always is). Written before measuring the parser on them; do
not edit after measuring (bench/intent_bench.py); add cases in a new set.

Expected forms name arrays positionally: the comparison ignores names (bench/intent_bench.py).
"""

KERNELBENCH_INTENTS: list[tuple[str, str | None]] = [
    # Matrix products
    ("Performs a single square matrix multiplication (C = A * B) with N = 2048",
     "C = A @ B; A: float32[2048, 2048]; B: float32[2048, 2048]"),
    ("matmul of A (1024 x 4096) and B (4096 x 2048)", "C = A @ B; A: float32[1024, 4096]; B: float32[4096, 2048]"),
    ("C = A @ B.T where A is 512x256 and B is 1024x256", "C = A @ B.T; A: float32[512, 256]; B: float32[1024, 256]"),
    ("matrix-vector product: y = A x, A is 8192*4096 floats", "y = A @ x; A: float32[8192, 4096]; x: float32[4096]"),
    ("batched matrix multiplication of (128, 512, 1024) and (128, 1024, 256) tensors", None),
    ("multiply a 4096 x 4096 matrix by a scalar 3.5", "y = x * 3.5; x: float32[4096, 4096]"),
    # Activations
    ("Performs a ReLU activation on the input tensor of shape (16, 16384)", "y = relu(x); x: float32[16, 16384]"),
    ("leaky relu with negative slope 0.01 over 16 x 16384 floats", "y = leaky_relu(x, 0.01); x: float32[16, 16384]"),
    ("Applies Sigmoid activation to x of shape (16, 16384)", "y = sigmoid(x); x: float32[16, 16384]"),
    ("tanh of every element of a 16*16384 tensor", "y = tanh(x); x: float32[16, 16384]"),
    ("swish activation (x * sigmoid(x)) on a (16, 16384) input", "y = x * sigmoid(x); x: float32[16, 16384]"),
    ("GELU activation, batch 16, dim 16384", None),
    ("gelu tanh approximation of x, 16 x 16384", "y = gelu(x, approximate='tanh'); x: float32[16, 16384]"),
    ("SELU on 16 x 16384", "y = selu(x); x: float32[16, 16384]"),
    ("hard sigmoid activation on a tensor of shape (16, 16384)", "y = hardsigmoid(x); x: float32[16, 16384]"),
    ("softplus of x (16, 16384)", "y = softplus(x); x: float32[16, 16384]"),
    ("softsign activation, input 16x16384", "y = softsign(x); x: float32[16, 16384]"),
    ("ELU with alpha 1.0 on 16 x 16384 floats", "y = elu(x, 1.0); x: float32[16, 16384]"),
    ("HardTanh clamping to [-1, 1], shape (16, 16384)", "y = hardtanh(x, -1.0, 1.0); x: float32[16, 16384]"),
    ("y = silu(x); x: float32[16, 16384]", "y = silu(x); x: float32[16, 16384]"),
    # Softmax family
    ("Performs a Softmax activation on the input, dim=1, batch_size=16, dim=16384",
     "y = softmax(x, axis=1); x: float32[16, 16384]"),
    ("log softmax over the last dimension of a 16 x 16384 tensor", "y = log_softmax(x, axis=-1); x: float32[16, 16384]"),
    ("softmax along dim 0 of a 16 x 16384 matrix", None),
    ("logsumexp of each row of x, 4096 x 1024", "y = logsumexp(x, axis=1); x: float32[4096, 1024]"),
    # Normalizations
    ("Layer normalization over the last dim of x (16, 64, 256, 256)",
     "y = layer_norm(x, axis=-1, eps=1e-05); x: float32[16, 64, 256, 256]"),
    ("layernorm over rows of a 4096x1024 matrix, eps 1e-5", "y = layer_norm(x, axis=-1, eps=1e-05); x: float32[4096, 1024]"),
    ("RMS normalization of each row, x is 16 x 4096, eps=1e-6", "y = rms_norm(x, axis=-1, eps=1e-06); x: float32[16, 4096]"),
    ("Batch Normalization over a (16, 64, 256, 256) input", None),
    ("Instance Normalization of x with shape (16, 64, 256, 256)", None),
    ("Group Normalization with 8 groups on (16, 64, 256, 256)", None),
    ("Frobenius norm normalization of a (16, 64, 256, 256) tensor", None),
    ("L2 norm of each row of x (16 x 16384)", "y = norm(x, axis=1); x: float32[16, 16384]"),
    # Reductions
    ("Sum reduction over dim 1 of a (16, 256, 256) tensor", "y = sum(x, axis=1); x: float32[16, 256, 256]"),
    ("mean over dimension 1, input shape (16, 256, 256)", "y = mean(x, axis=1); x: float32[16, 256, 256]"),
    ("Max reduction over dim 2 of x, shape 16 x 256 x 256", "y = max(x, axis=2); x: float32[16, 256, 256]"),
    ("min over the first dimension of a 16x256x256 tensor", "y = min(x, axis=0); x: float32[16, 256, 256]"),
    ("argmax over dim 1 of a (16, 256, 256) tensor", "y = argmax(x, axis=1); x: float32[16, 256, 256]"),
    ("argmin over dim 1 of a (16, 256, 256) tensor", None),
    ("product reduction over dim 1, (16, 256, 256)", None),
    ("sum of all elements of a 1M-element vector", "y = sum(x); x: float32[1048576]"),
    ("column sums of a 32768 x 2048 matrix", "y = sum(x, axis=0); x: float32[32768, 2048]"),
    ("y = x.mean(dim=-1); x: float32[128, 4096]", "y = mean(x, axis=1); x: float32[128, 4096]"),
    # Scans
    ("cumulative sum along dim 1 of a (128, 4000) tensor", None),
    ("inclusive prefix sum of a vector of 1000000 floats", "y = cumsum(x); x: float32[1000000]"),
    ("cumulative product along dim 1, shape (128, 4000)", None),
    ("reverse cumsum of x (128 x 4000) along dim 1", None),
    # Losses
    ("Mean squared error between predictions and targets, each 128 x 4096",
     "l = mean((p - t) ** 2); p: float32[128, 4096]; t: float32[128, 4096]"),
    ("l = F.mse_loss(pred, target); pred: float32[524288]; target: float32[524288]",
     "l = mean((p - t) ** 2); p: float32[524288]; t: float32[524288]"),
    ("Huber loss (smooth L1) between two 128 x 4096 tensors", None),
    ("KL divergence between distributions of shape (128, 4096)", None),
    ("Cross entropy loss for 4096 samples and 10 classes", None),
    ("Hinge loss over 128 predictions", None),
    ("Triplet margin loss for anchors, positives and negatives of shape (128, 4096)", None),
    # Transposes and elementwise
    ("transpose a 4096 x 2048 matrix", "y = x.T; x: float32[4096, 2048]"),
    ("permute a (64, 512, 256) tensor to (0, 2, 1)", "y = x.permute(0, 2, 1); x: float32[64, 512, 256]"),
    ("z = x * y + 1 elementwise, both 4096*4096", "z = x * y + 1; x: float32[4096, 4096]; y: float32[4096, 4096]"),
    ("add a bias vector of length 1024 to each row of a 4096 x 1024 matrix",
     "y = x + b; x: float32[4096, 1024]; b: float32[1024]"),
    # Convolutions and pooling (not generated)
    ("2D convolution, 3 input channels, 64 output channels, kernel 3, on 16 x 3 x 256 x 256", None),
    ("Max pooling 2D with kernel size 2, stride 2, input (16, 32, 128, 128)", None),
    ("Average pooling 1D, kernel 4, stride 2, on (16, 32, 128)", None),
    ("depthwise 3x3 convolution over a (16, 64, 128, 128) input", None),
    ("transposed 2D convolution with stride 2", None),
]
