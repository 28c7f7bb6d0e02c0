"""Independent PyTorch implementations of the twenty-second held-out set of kernels (tests/heldout29/*.cu), in the form
of tests/heldout28/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 1 reference model computes each operator, with the PyTorch call it ports, not as
translations of the kernels: a grouped `F.conv3d` (padding 1), ShuffleNet's grouped 1 x 1 `F.conv2d` on channels-last
tensors, HiFi-GAN's `F.conv_transpose1d(stride=8, padding=4)`, `torch.matmul` of per-head probabilities by a value
broadcast over the heads (multi-query attention), `torch.matmul(A, B).t()`, `F.avg_pool3d(count_include_pad=False)`,
`torch.mean(x, dim=1, keepdim=True)`, the reverse cumulative product `x.flip(1).cumprod(1).flip(1)`,
`F.margin_ranking_loss`, ProGAN's pixel norm, an `F.elu` -> `F.silu` -> `F.hardtanh` chain on float16 and
`F.embedding_bag(mode="sum", per_sample_weights=...)`. Sizes are Python ints, float scalars Python floats; arrays are
torch.float32 unless the kernel's contract says otherwise (float16 for the activation chain, int32 labels, int64 ids).
The peers only call operators on their inputs (views, permutes, casts, arithmetic), so they make no tensor of their own
and run on a GPU as on the CPU. Every product and convolution runs with TF32 turned off (restored afterwards), since
the kernels compute in full fp32."""

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


# -------------------------------------------------------------------------------------------------- convolutions

def grouped_conv3d(x, weight, bias, N, Cin, Cout, G, D, H, W, **_):
    # nn.Conv3d(Cin, Cout, kernel_size=3, padding=1, groups=G): weight of shape (Cout, Cin // G, 3, 3, 3)
    with _full_fp32():
        y = F.conv3d(x.view(N, Cin, D, H, W), weight.view(Cout, Cin // G, 3, 3, 3), bias, padding=1, groups=G)
    return {"y": y.reshape(-1)}


def grouped_pointwise_nhwc(x, weight, NHW, C, GROUPS=3, **_):
    # ShuffleNet v1's grouped pointwise nn.Conv2d(C, C, 1, groups=3, bias=False) on channels_last activations: the
    # [N*H*W, C] rows are an NHWC tensor of H = W = 1 pixels per row; the logical NCHW tensor is a permuted view
    xc = x.view(NHW, 1, 1, C).permute(0, 3, 1, 2)
    with _full_fp32():
        y = F.conv2d(xc, weight.view(C, C // GROUPS, 1, 1), None, groups=GROUPS)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


def conv_transpose1d_hifigan(x, weight, bias, N, Cin, Cout, L, **_):
    # HiFi-GAN's up-sampler nn.ConvTranspose1d(Cin, Cout, kernel_size=16, stride=8, padding=4): weight (Cin, Cout, 16)
    with _full_fp32():
        y = F.conv_transpose1d(x.view(N, Cin, L), weight.view(Cin, Cout, 16), bias, stride=8, padding=4)
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------------------ products

def matmul_broadcast_mqa(P, V, B, H, M, K, N, **_):
    # multi-query attention's probs @ value: torch.matmul of (B, H, M, K) by (B, 1, K, N), V broadcast over the heads
    with _full_fp32():
        O = torch.matmul(P.view(B, H, M, K), V.view(B, 1, K, N))
    return {"O": O.reshape(-1)}


def matmul_out_transposed(A, B, M, K, N, **_):
    # torch.matmul(A, B).t().contiguous(): the product stored N x M
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(K, N))
    return {"Ct": C.t().contiguous().reshape(-1)}


# ------------------------------------------------------------------------------------- pooling, scans, reductions

def avgpool3d_exclude_pad(x, P, D, H, W, **_):
    # nn.AvgPool3d(kernel_size=(2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), count_include_pad=False); P = N * C
    y = F.avg_pool3d(x.view(1, P, D, H, W), (2, 3, 3), stride=(1, 2, 2), padding=(0, 1, 1), count_include_pad=False)
    return {"y": y.reshape(-1)}


def channel_mean_nchw(x, N, C, HW, **_):
    # CBAM's spatial-attention channel average: torch.mean(x, dim=1, keepdim=True)
    return {"y": torch.mean(x.view(N, C, HW), dim=1, keepdim=True).reshape(-1)}


def reverse_cumprod_dim1(x, B, T, D, **_):
    # reverse cumulative product along dim 1: flip, cumprod, flip back
    return {"y": x.view(B, T, D).flip(1).cumprod(1).flip(1).reshape(-1)}


# ------------------------------------------------------------------------------------------ losses and norms

def margin_ranking_loss(x1, x2, label, loss, n, **_):
    # F.margin_ranking_loss(x1, x2, y, margin=0.5), mean reduction, y = +1 / -1 from the {0, 1} labels; added to the
    # inout scalar's value before the launch
    y = label.to(x1.dtype) * 2 - 1
    return {"loss": loss + F.margin_ranking_loss(x1, x2, y, margin=0.5)}


def pixel_norm_nchw(x, eps, N, C, HW, **_):
    # ProGAN's PixelNorm: x * torch.rsqrt(torch.mean(x ** 2, dim=1, keepdim=True) + eps)
    xv = x.view(N, C, HW)
    return {"y": (xv * torch.rsqrt(torch.mean(xv ** 2, dim=1, keepdim=True) + eps)).reshape(-1)}


# ------------------------------------------------------------------------------------------ elementwise, gather

def elu_silu_hardtanh_half(x, n, **_):
    # F.hardtanh(F.silu(F.elu(x)), -0.2, 0.8) on float16, computed in float32 and rounded once (as a fused kernel does)
    y = F.hardtanh(F.silu(F.elu(x.float())), -0.2, 0.8)
    return {"y": y.to(torch.float16)}


def embedding_bag_weighted(ids, psw, table, B, L, V, D, **_):
    # nn.EmbeddingBag(V, D, mode="sum") on fixed-length [B, L] bags with per_sample_weights
    out = F.embedding_bag(ids.view(B, L), table.view(V, D), mode="sum", per_sample_weights=psw.view(B, L))
    return {"out": out.reshape(-1)}


PEERS = {
    "grouped_conv3d": (grouped_conv3d, ["y"]),
    "grouped_pointwise_nhwc": (grouped_pointwise_nhwc, ["y"]),
    "conv_transpose1d_hifigan": (conv_transpose1d_hifigan, ["y"]),
    "matmul_broadcast_mqa": (matmul_broadcast_mqa, ["O"]),
    "matmul_out_transposed": (matmul_out_transposed, ["Ct"]),
    "avgpool3d_exclude_pad": (avgpool3d_exclude_pad, ["y"]),
    "channel_mean_nchw": (channel_mean_nchw, ["y"]),
    "reverse_cumprod_dim1": (reverse_cumprod_dim1, ["y"]),
    "margin_ranking_loss": (margin_ranking_loss, ["loss"]),
    "pixel_norm_nchw": (pixel_norm_nchw, ["y"]),
    "elu_silu_hardtanh_half": (elu_silu_hardtanh_half, ["y"]),
    "embedding_bag_weighted": (embedding_bag_weighted, ["out"]),
}
