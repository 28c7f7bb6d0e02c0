"""Independent PyTorch implementations of the seventeenth held-out set of naive kernels (tests/heldout24/*.cu), in the
form of tests/heldout23/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch code computes each operator, not as translations of the kernels: F.local_response_norm,
kornia's median_blur (torch.median over F.unfold), F.pad(mode="reflect"), F.conv_transpose2d, F.conv2d(groups=),
F.interpolate(mode="bicubic"), torch.kron, torch.linalg.cross, torch.remainder, F.binary_cross_entropy,
torch.diag_embed and F.max_pool2d(return_indices=True). Sizes are Python ints, float scalars Python floats; the
float64 vectors come as torch.float64 tensors, the int32 operands of torch.remainder as torch.int32, every other
array as torch.float32. F.conv_transpose2d and F.conv2d run with TF32 turned off (restored afterwards), since the
kernels compute in full fp32 and TF32 would miss their tolerances."""

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


# ------------------------------------------------------------------------------------------ image and NCHW ops

def local_response_norm(x, alpha, beta, k, N, C, H, W, **_):
    # nn.LocalResponseNorm(size=5, alpha, beta, k), AlexNet
    return {"y": F.local_response_norm(x.view(N, C, H, W), 5, alpha=alpha, beta=beta, k=k).reshape(-1)}


def median_blur3x3(x, P, H, W, **_):
    # kornia.filters.median_blur(x, (3, 3)): zero padding, torch.median of the 9 neighbours
    patches = F.unfold(x.view(P, 1, H, W), kernel_size=3, padding=1)      # [P, 9, H*W]
    return {"y": patches.median(dim=1).values.reshape(-1)}


def reflection_pad2d(x, N, C, H, W, **_):
    return {"y": F.pad(x.view(N, C, H, W), (3, 3, 3, 3), mode="reflect").reshape(-1)}


def conv_transpose2d_k2s2(x, w, bias, N, Cin, Cout, H, W, **_):
    # U-Net's up-convolution, nn.ConvTranspose2d(Cin, Cout, kernel_size=2, stride=2)
    with _full_fp32():
        y = F.conv_transpose2d(x.view(N, Cin, H, W), w.view(Cin, Cout, 2, 2), bias, stride=2)
    return {"y": y.reshape(-1)}


def grouped_conv2d_3x3(x, wt, N, C, H, W, groups, **_):
    # ResNeXt's grouped 3x3, nn.Conv2d(C, C, 3, padding=1, groups=groups, bias=False)
    with _full_fp32():
        y = F.conv2d(x.view(N, C, H, W), wt.view(C, C // groups, 3, 3), padding=1, groups=groups)
    return {"y": y.reshape(-1)}


def upsample_bicubic2x(x, P, H, W, **_):
    y = F.interpolate(x.view(1, P, H, W), scale_factor=2, mode="bicubic", align_corners=False)
    return {"y": y.reshape(-1)}


def max_pool2d_with_indices(x, N, C, H, W, **_):
    out, indices = F.max_pool2d(x.view(N, C, H, W), 2, stride=2, return_indices=True)
    return {"out": out.reshape(-1), "indices": indices.reshape(-1)}


# ---------------------------------------------------------------------------------- linear algebra, elementwise

def kron(A, B, m1, n1, m2, n2, **_):
    return {"C": torch.kron(A.view(m1, n1), B.view(m2, n2)).reshape(-1)}


def cross_product_f64(a, b, n, **_):
    return {"c": torch.linalg.cross(a.view(n, 3), b.view(n, 3), dim=-1).reshape(-1)}


def remainder_int(a, b, **_):
    return {"r": torch.remainder(a, b)}


def diag_embed(x, B, N, **_):
    return {"out": torch.diag_embed(x.view(B, N)).reshape(-1)}


# -------------------------------------------------------------------------------------------------------- loss

def bce_mean_warp_atomic(p, t, loss, **_):
    return {"loss": loss + F.binary_cross_entropy(p, t)}


PEERS = {
    "local_response_norm": (local_response_norm, ["y"]),
    "median_blur3x3": (median_blur3x3, ["y"]),
    "reflection_pad2d": (reflection_pad2d, ["y"]),
    "conv_transpose2d_k2s2": (conv_transpose2d_k2s2, ["y"]),
    "grouped_conv2d_3x3": (grouped_conv2d_3x3, ["y"]),
    "upsample_bicubic2x": (upsample_bicubic2x, ["y"]),
    "max_pool2d_with_indices": (max_pool2d_with_indices, ["out", "indices"]),
    "kron": (kron, ["C"]),
    "cross_product_f64": (cross_product_f64, ["c"]),
    "remainder_int": (remainder_int, ["r"]),
    "diag_embed": (diag_embed, ["out"]),
    "bce_mean_warp_atomic": (bce_mean_warp_atomic, ["loss"]),
}
