"""Independent PyTorch implementations of the seventh held-out set of naive kernels (tests/heldout14/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation, not as translations of the kernels. Sizes are Python ints,
float scalars Python floats. The kernels compute in full fp32: the Sobel peer turns cuDNN's TF32 off for its
convolution, and torch's fp32 matvec defaults to full fp32. Column-major matrices (gemv_colmajor,
colmajor_to_rowmajor) are read as the row-major N x M view of the same memory, transposed."""

from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn.functional as F


@contextmanager
def _full_fp32_cudnn():
    saved = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32 = saved


# ------------------------------------------------------------------------------------------------ element-wise maps

def softplus_beta(x, beta, threshold, **_):
    return {"y": F.softplus(x, beta=beta, threshold=threshold)}


def pow_scalar(x, p, **_):
    return {"y": torch.pow(x, p)}


def squared_diff(a, b, **_):
    return {"out": torch.square(a - b)}


def masked_fill_(x, mask, value, **_):
    return {"x": x.masked_fill(mask.bool(), value)}


def bias_relu_nhwc(x, bias, N, H, W, C, **_):
    return {"y": torch.relu(x.view(N, H, W, C) + bias).reshape(-1)}


def upsample_nearest2x(x, rows, L, **_):
    return {"out": F.interpolate(x.view(1, rows, L), scale_factor=2, mode="nearest").reshape(-1)}


def outer_product(a, b, **_):
    return {"C": torch.outer(a, b).reshape(-1)}


# ------------------------------------------------------------------------------------------------------ reductions

def lse_of_sum_rows(a, b, rows, cols, **_):
    return {"out": torch.logsumexp(a.view(rows, cols) + b.view(rows, cols), dim=1)}


def batched_dot(x, y, B, K, **_):
    return {"out": (x.view(B, K) * y.view(B, K)).sum(dim=1)}


def mean_abs_atomic(x, result, **_):
    return {"result": result + x.abs().mean()}


# --------------------------------------------------------------------------------------------------- row ops, scans

def softmax_temperature(x, temperature, rows, cols, **_):
    return {"y": torch.softmax(x.view(rows, cols) / temperature, dim=1).reshape(-1)}


def col_cummax(x, rows, cols, **_):
    return {"y": torch.cummax(x.view(rows, cols), dim=0).values.reshape(-1)}


# ----------------------------------------------------------------------------------------- matvecs and transposes

def gemv_colmajor(A, x, M, N, **_):
    return {"y": torch.mv(A.view(N, M).t(), x)}         # column-major M x N == row-major N x M, transposed


def colmajor_to_rowmajor(A, M, N, **_):
    return {"B": A.view(N, M).t().contiguous().reshape(-1)}


# ---------------------------------------------------------------------------------- stencils and pooling

def sobel_magnitude(img, H, W, **_):
    out = torch.zeros(H, W, dtype=img.dtype, device=img.device)
    if H >= 3 and W >= 3:
        kx = torch.tensor([[-1.0, 0.0, 1.0], [-2.0, 0.0, 2.0], [-1.0, 0.0, 1.0]], device=img.device)
        weight = torch.stack([kx, kx.t()]).unsqueeze(1)            # (2, 1, 3, 3): gx, gy
        with _full_fp32_cudnn():
            g = F.conv2d(img.view(1, 1, H, W), weight)             # valid: (1, 2, H-2, W-2)
        out[1:-1, 1:-1] = torch.sqrt(g[0, 0] ** 2 + g[0, 1] ** 2)
    return {"out": out.reshape(-1)}


def maxpool3x3_s1_same(x, P, H, W, **_):
    return {"out": F.max_pool2d(x.view(1, P, H, W), kernel_size=3, stride=1, padding=1).reshape(-1)}


PEERS = {
    "softplus_beta": (softplus_beta, ["y"]),
    "pow_scalar": (pow_scalar, ["y"]),
    "squared_diff": (squared_diff, ["out"]),
    "masked_fill_": (masked_fill_, ["x"]),
    "bias_relu_nhwc": (bias_relu_nhwc, ["y"]),
    "upsample_nearest2x": (upsample_nearest2x, ["out"]),
    "outer_product": (outer_product, ["C"]),
    "lse_of_sum_rows": (lse_of_sum_rows, ["out"]),
    "batched_dot": (batched_dot, ["out"]),
    "mean_abs_atomic": (mean_abs_atomic, ["result"]),
    "softmax_temperature": (softmax_temperature, ["y"]),
    "col_cummax": (col_cummax, ["y"]),
    "gemv_colmajor": (gemv_colmajor, ["y"]),
    "colmajor_to_rowmajor": (colmajor_to_rowmajor, ["B"]),
    "sobel_magnitude": (sobel_magnitude, ["out"]),
    "maxpool3x3_s1_same": (maxpool3x3_s1_same, ["out"]),
}
