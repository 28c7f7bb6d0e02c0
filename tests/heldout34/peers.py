"""Independent PyTorch implementations of the twenty-seventh held-out set of kernels (tests/heldout34/*.cu), in the form
of tests/heldout33/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench reference model or the PyTorch code each kernel ports computes the operator, one PyTorch
call per step, not as translations of the kernels: `F.interpolate(mode="bilinear", align_corners=True)`,
`F.grid_sample(mode="bilinear", padding_mode="zeros", align_corners=False)`,
`F.adaptive_max_pool2d(return_indices=True)`, `F.conv1d(padding=2, dilation=2, groups=G)`, KernelBench's
Conv2d_Mish_Mish (`F.conv2d`, `F.mish` twice), its Gemm_Multiply_LeakyReLU (`F.linear`, `* multiplier`, `F.leaky_relu`),
its Matmul_AvgPool_GELU_Scale_Max (`F.linear`, `F.avg_pool1d` on the unsqueezed rows, `F.gelu`, `* scale_factor`,
`torch.max(dim=1).values`), `torch.var_mean(dim=-1)`, `F.pairwise_distance(p=2.0, eps=eps)`, `F.pad(mode="replicate")`,
`torch.where(flip[:, None, None, None], x.flip(-1), x)` and `torch.logit(x, eps=eps)`. Sizes are Python ints, float
scalars Python floats; arrays are torch.float32 except the int64 indices of adaptive_max_pool2d_indices and the bool
flags of random_hflip_batch. The peers only call operators on their inputs (views, flips, arithmetic with Python
numbers), so they make no tensor of their own and run on a GPU as on the CPU. Every product and convolution runs with
TF32 turned off (restored afterwards), since the kernels compute in full fp32."""

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


# ------------------------------------------------------------------------------------------ products + epilogues

def gemm_multiply_leakyrelu(x, weight, bias, multiplier, negative_slope, batch_size, in_features, out_features, **_):
    # KernelBench level 2 Gemm_Multiply_LeakyReLU: x = gemm(x); x = x * multiplier; x = leaky_relu(x)
    with _full_fp32():
        h = F.linear(x.view(batch_size, in_features), weight.view(out_features, in_features), bias)
    h = h * multiplier
    return {"y": F.leaky_relu(h, negative_slope=negative_slope).reshape(-1)}


def matmul_avgpool_gelu_scale_max(x, weight, bias, scale_factor, batch_size, in_features, out_features, pool, **_):
    # KernelBench level 2 Matmul_AvgPool_GELU_Scale_Max: linear, AvgPool1d(pool) over the features, gelu, scale, max
    with _full_fp32():
        h = F.linear(x.view(batch_size, in_features), weight.view(out_features, in_features), bias)
    h = F.avg_pool1d(h.unsqueeze(1), kernel_size=pool).squeeze(1)
    h = F.gelu(h)
    h = h * scale_factor
    return {"y": torch.max(h, dim=1).values.reshape(-1)}


# -------------------------------------------------------------------------------------------------- convolutions

def conv1d_dilated_grouped(x, weight, bias, N, Cin, Cout, G, L, **_):
    # nn.Conv1d(Cin, Cout, 3, padding=2, dilation=2, groups=G)
    with _full_fp32():
        h = F.conv1d(x.view(N, Cin, L), weight.view(Cout, Cin // G, 3), bias, padding=2, dilation=2, groups=G)
    return {"y": h.reshape(-1)}


def conv2d_mish_mish(x, weight, bias, N, Cin, Cout, H, W, **_):
    # KernelBench level 2 Conv2d_Mish_Mish: conv (no padding), mish, mish
    with _full_fp32():
        h = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 3, 3), bias)
    h = F.mish(h)
    h = F.mish(h)
    return {"y": h.reshape(-1)}


# ----------------------------------------------------------------------------------------- resampling + pooling

def resize_bilinear_align_corners(x, N, C, H, W, Ho, Wo, **_):
    y = F.interpolate(x.view(N, C, H, W), size=(Ho, Wo), mode="bilinear", align_corners=True)
    return {"y": y.reshape(-1)}


def grid_sample_bilinear(x, grid, N, C, H, W, Ho, Wo, **_):
    y = F.grid_sample(x.view(N, C, H, W), grid.view(N, Ho, Wo, 2), mode="bilinear", padding_mode="zeros",
                      align_corners=False)
    return {"y": y.reshape(-1)}


def adaptive_max_pool2d_indices(x, N, C, H, W, OH, OW, **_):
    y, idx = F.adaptive_max_pool2d(x.view(N, C, H, W), (OH, OW), return_indices=True)
    return {"y": y.reshape(-1), "idx": idx.reshape(-1)}


# ------------------------------------------------------------------------------------------------ row reductions

def var_mean_rows(x, rows, D, **_):
    # torch.var_mean over the last dimension, correction=1 (unbiased)
    var, mean = torch.var_mean(x.view(rows, D), dim=-1)
    return {"var": var.reshape(-1), "mean": mean.reshape(-1)}


def pairwise_distance_rows(x1, x2, eps, rows, D, **_):
    return {"y": F.pairwise_distance(x1.view(rows, D), x2.view(rows, D), p=2.0, eps=eps).reshape(-1)}


# ----------------------------------------------------------------------------------------------- copies and maps

def replicate_pad2d(x, N, C, H, W, pl, pr, pt, pb, **_):
    return {"y": F.pad(x.view(N, C, H, W), (pl, pr, pt, pb), mode="replicate").reshape(-1)}


def random_hflip_batch(x, flip, N, C, H, W, **_):
    # a per-image horizontal flip: torch.where(flip[:, None, None, None], x.flip(-1), x)
    img = x.view(N, C, H, W)
    return {"y": torch.where(flip.view(N, 1, 1, 1), img.flip(-1), img).reshape(-1)}


def logit_eps(x, eps, n, **_):
    return {"y": torch.logit(x, eps=eps)}


PEERS = {
    "gemm_multiply_leakyrelu": (gemm_multiply_leakyrelu, ["y"]),
    "matmul_avgpool_gelu_scale_max": (matmul_avgpool_gelu_scale_max, ["y"]),
    "conv1d_dilated_grouped": (conv1d_dilated_grouped, ["y"]),
    "conv2d_mish_mish": (conv2d_mish_mish, ["y"]),
    "resize_bilinear_align_corners": (resize_bilinear_align_corners, ["y"]),
    "grid_sample_bilinear": (grid_sample_bilinear, ["y"]),
    "adaptive_max_pool2d_indices": (adaptive_max_pool2d_indices, ["y", "idx"]),
    "var_mean_rows": (var_mean_rows, ["var", "mean"]),
    "pairwise_distance_rows": (pairwise_distance_rows, ["y"]),
    "replicate_pad2d": (replicate_pad2d, ["y"]),
    "random_hflip_batch": (random_hflip_batch, ["y"]),
    "logit_eps": (logit_eps, ["y"]),
}
