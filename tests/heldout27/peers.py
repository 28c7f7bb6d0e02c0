"""Independent PyTorch implementations of the twentieth held-out set of kernels (tests/heldout27/*.cu), in the form
of tests/heldout26/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 1 reference model computes each operator, with the PyTorch call it ports, not as
translations of the kernels: `torch.matmul(A.T, B.T)`, `torch.matmul(A, B)` with K = 32, `F.bilinear`, `F.conv3d`,
`F.conv_transpose2d` (stride 2, padding 1, output_padding 1), a depthwise `F.conv2d` (groups=Cin) followed by a 1x1
`F.conv2d`, `F.avg_pool3d(3, 2, 1)`, `torch.cummin(dim=1)`, `torch.logsumexp(dim=1)`, `F.poisson_nll_loss`,
`torch._weight_norm(v, g, 0)` and `F.celu`. Sizes are Python ints, float scalars Python floats; `cummin_dim1`'s
indices come back as torch.int64, every other array is torch.float32. The peers only call operators on their inputs,
so they make no tensor of their own and run on a GPU as on the CPU. The matmuls and convolutions run with TF32 turned
off (restored afterwards), since the kernels compute in full fp32."""

from __future__ import annotations

import contextlib

import torch
import torch.nn.functional as F


@contextlib.contextmanager
def _full_fp32():
    matmul, cudnn = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cuda.matmul.allow_tf32 = matmul
        torch.backends.cudnn.allow_tf32 = cudnn


# ------------------------------------------------------------------------------------------------------ products

def matmul_at_bt(A, B, M, K, N, **_):
    # KernelBench level 1, 18_Matmul_with_transposed_both: torch.matmul(A.T, B.T), A of shape (K, M), B of (N, K)
    with _full_fp32():
        C = torch.matmul(A.view(K, M).T, B.view(N, K).T)
    return {"C": C.reshape(-1)}


def matmul_small_k(A, B, M, N, K, **_):
    # KernelBench level 1, 7_Matmul_with_small_K_dimension_: torch.matmul(A, B)
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(K, N))
    return {"C": C.reshape(-1)}


def bilinear_forward(x1, x2, W, bias, N, I, J, O, **_):
    # nn.Bilinear(I, J, O): weight of shape (O, I, J)
    with _full_fp32():
        y = F.bilinear(x1.view(N, I), x2.view(N, J), W.view(O, I, J), bias)
    return {"y": y.reshape(-1)}


# -------------------------------------------------------------------------------------------------- convolutions

def conv3d_ncdhw(x, weight, bias, N, Cin, Cout, D, H, W, **_):
    # nn.Conv3d(Cin, Cout, kernel_size=3, padding=1)
    with _full_fp32():
        y = F.conv3d(x.view(N, Cin, D, H, W), weight.view(Cout, Cin, 3, 3, 3), bias, stride=1, padding=1)
    return {"y": y.reshape(-1)}


def conv_transpose2d_s2(x, weight, bias, N, Cin, Cout, H, W, **_):
    # nn.ConvTranspose2d(Cin, Cout, 3, stride=2, padding=1, output_padding=1): weight of shape (Cin, Cout, 3, 3)
    with _full_fp32():
        y = F.conv_transpose2d(x.view(N, Cin, H, W), weight.view(Cin, Cout, 3, 3), bias,
                               stride=2, padding=1, output_padding=1)
    return {"y": y.reshape(-1)}


def depthwise_separable_conv2d(x, dw, pw, N, Cin, Cout, H, W, **_):
    # KernelBench level 1, 86_conv_depthwise_separable_2D: depthwise Conv2d(groups=Cin), then pointwise 1x1 Conv2d
    with _full_fp32():
        t = F.conv2d(x.view(N, Cin, H, W), dw.view(Cin, 1, 3, 3), None, stride=1, padding=1, groups=Cin)
        y = F.conv2d(t, pw.view(Cout, Cin, 1, 1))
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------------------- pooling

def avg_pool3d_k3s2p1(x, N, C, D, H, W, **_):
    # nn.AvgPool3d(kernel_size=3, stride=2, padding=1), count_include_pad=True, ceil_mode=False. PyTorch refuses a
    # volume smaller than the kernel on any axis even where the padding covers it, so the zero padding is applied
    # first with F.pad and the pool runs unpadded: the same windows and the same divisor of 27 at every size.
    y = F.avg_pool3d(F.pad(x.view(N, C, D, H, W), (1, 1, 1, 1, 1, 1)), kernel_size=3, stride=2, padding=0)
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------ scans and reductions

def cummin_dim1(x, B, L, D, **_):
    values, indices = torch.cummin(x.view(B, L, D), dim=1)
    return {"values": values.reshape(-1), "indices": indices.reshape(-1)}


def logsumexp_dim1(x, B, M, N, **_):
    return {"out": torch.logsumexp(x.view(B, M, N), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------------------------ loss and norm

def poisson_nll_loss(log_rate, target, loss, **_):
    # accumulated into a zeroed 1-element tensor
    value = F.poisson_nll_loss(log_rate, target, log_input=True, full=False, reduction="mean")
    return {"loss": loss + value.reshape(1)}


def weight_norm_rows(v, g, O, K, **_):
    # torch.nn.utils.weight_norm(module, dim=0): weight = g * v / ||v|| with the norm over every dim but 0
    return {"w": torch._weight_norm(v.view(O, K), g.view(O, 1), 0).reshape(-1)}


# --------------------------------------------------------------------------------------------------- activation

def celu_forward(x, alpha, **_):
    return {"y": F.celu(x, alpha=alpha)}


PEERS = {
    "matmul_at_bt": (matmul_at_bt, ["C"]),
    "matmul_small_k": (matmul_small_k, ["C"]),
    "bilinear_forward": (bilinear_forward, ["y"]),
    "conv3d_ncdhw": (conv3d_ncdhw, ["y"]),
    "conv_transpose2d_s2": (conv_transpose2d_s2, ["y"]),
    "depthwise_separable_conv2d": (depthwise_separable_conv2d, ["y"]),
    "avg_pool3d_k3s2p1": (avg_pool3d_k3s2p1, ["y"]),
    "cummin_dim1": (cummin_dim1, ["values", "indices"]),
    "logsumexp_dim1": (logsumexp_dim1, ["out"]),
    "poisson_nll_loss": (poisson_nll_loss, ["loss"]),
    "weight_norm_rows": (weight_norm_rows, ["w"]),
    "celu_forward": (celu_forward, ["y"]),
}
