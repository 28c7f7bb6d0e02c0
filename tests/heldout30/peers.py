"""Independent PyTorch implementations of the twenty-third held-out set of kernels (tests/heldout30/*.cu), in the form
of tests/heldout29/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 1 reference model computes each operator, with the PyTorch call it ports, not as
translations of the kernels: `F.conv_transpose2d(stride=2, padding=2, output_padding=1)` on channels-last tensors
(Balle et al.'s codec), `F.conv_transpose3d(stride=(1, 2, 2), padding=1)` with a (3, 4, 4) kernel,
`F.conv_transpose1d(stride=3, padding=2, dilation=2)`, a grouped stride-1 `F.conv_transpose2d(groups=G)` with a
(3, 5) kernel, `F.conv2d` with a (3, 5) kernel, stride (2, 3), padding (2, 4) and dilation 2, Whisper's
`F.conv1d(stride=2, padding=1)` on channels-last sequences, SlowFast's `F.conv3d` stem ((5, 7, 7), stride (1, 2, 2),
padding (2, 3, 3)), a depthwise `F.conv2d(groups=C)` with a channel multiplier on channels-last tensors,
`F.max_pool2d(3, 2, 1, dilation=2)`, `F.avg_pool1d(3, 2, 1, ceil_mode=True, count_include_pad=True)`,
`F.max_pool3d(3, 2, ceil_mode=True)` and `torch.argmin(d, dim=1)`. Sizes are Python ints, int scalars Python ints;
arrays are torch.float32 except the int64 indices of the argmin. The peers only call operators on their inputs (views,
permutes, transposes), so they make no tensor of their own and run on a GPU as on the CPU. Every convolution runs with
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


# ---------------------------------------------------------------------------------------- transposed convolutions

def conv_transpose2d_nhwc(x, weight, bias, N, H, W, Cin, Cout, **_):
    # CompressAI's deconv: nn.ConvTranspose2d(Cin, Cout, 5, stride=2, padding=2, output_padding=1) on channels_last
    # activations; the NCHW tensor is a permuted view of the NHWC storage, the result permuted back
    xc = x.view(N, H, W, Cin).permute(0, 3, 1, 2)
    with _full_fp32():
        y = F.conv_transpose2d(xc, weight.view(Cin, Cout, 5, 5), bias, stride=2, padding=2, output_padding=1)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


def conv_transpose3d_spatial_up(x, weight, N, Cin, Cout, D, H, W, **_):
    # nn.ConvTranspose3d(Cin, Cout, kernel_size=(3, 4, 4), stride=(1, 2, 2), padding=(1, 1, 1), bias=False)
    with _full_fp32():
        y = F.conv_transpose3d(x.view(N, Cin, D, H, W), weight.view(Cin, Cout, 3, 4, 4), None,
                               stride=(1, 2, 2), padding=(1, 1, 1))
    return {"y": y.reshape(-1)}


def conv_transpose1d_dilated(x, weight, bias, N, Cin, Cout, L, **_):
    # nn.ConvTranspose1d(Cin, Cout, kernel_size=5, stride=3, padding=2, dilation=2)
    with _full_fp32():
        y = F.conv_transpose1d(x.view(N, Cin, L), weight.view(Cin, Cout, 5), bias, stride=3, padding=2, dilation=2)
    return {"y": y.reshape(-1)}


def conv_transpose2d_groups_full(x, weight, bias, N, Cin, Cout, G, H, W, **_):
    # nn.ConvTranspose2d(Cin, Cout, kernel_size=(3, 5), groups=G): weight of shape (Cin, Cout // G, 3, 5)
    with _full_fp32():
        y = F.conv_transpose2d(x.view(N, Cin, H, W), weight.view(Cin, Cout // G, 3, 5), bias, groups=G)
    return {"y": y.reshape(-1)}


# ------------------------------------------------------------------------------------------- forward convolutions

def conv2d_dilated_strided(x, weight, N, Cin, Cout, H, W, stride_h, stride_w, pad_h, pad_w, dil_h, dil_w, **_):
    # nn.Conv2d(Cin, Cout, kernel_size=(3, 5), stride=(2, 3), padding=(2, 4), dilation=(2, 2), bias=False)
    with _full_fp32():
        y = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 3, 5), None, stride=(stride_h, stride_w),
                     padding=(pad_h, pad_w), dilation=(dil_h, dil_w))
    return {"y": y.reshape(-1)}


def conv1d_nlc_stride2(x, weight, bias, N, L, Cin, Cout, **_):
    # Whisper's conv2, nn.Conv1d(Cin, Cout, kernel_size=3, stride=2, padding=1), applied to [N, L, C] activations as
    # conv(x.transpose(1, 2)).transpose(1, 2)
    with _full_fp32():
        y = F.conv1d(x.view(N, L, Cin).transpose(1, 2), weight.view(Cout, Cin, 3), bias, stride=2, padding=1)
    return {"y": y.transpose(1, 2).reshape(-1)}


def conv3d_slowfast_stem(x, weight, N, Cin, Cout, D, H, W, **_):
    # SlowFast fast-pathway stem: nn.Conv3d(Cin, Cout, (5, 7, 7), stride=(1, 2, 2), padding=(2, 3, 3), bias=False)
    with _full_fp32():
        y = F.conv3d(x.view(N, Cin, D, H, W), weight.view(Cout, Cin, 5, 7, 7), None, stride=(1, 2, 2),
                     padding=(2, 3, 3))
    return {"y": y.reshape(-1)}


def depthwise_mult_nhwc(x, weight, bias, N, H, W, C, MULT=2, **_):
    # nn.Conv2d(C, C * MULT, 3, stride=2, padding=1, groups=C) on channels_last activations (a permuted NCHW view)
    xc = x.view(N, H, W, C).permute(0, 3, 1, 2)
    with _full_fp32():
        y = F.conv2d(xc, weight.view(C * MULT, 1, 3, 3), bias, stride=2, padding=1, groups=C)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


# ----------------------------------------------------------------------------------------------------- pooling

def maxpool2d_dilated_pad(x, P, H, W, **_):
    # nn.MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=2); P = N * C
    y = F.max_pool2d(x.view(1, P, H, W), kernel_size=3, stride=2, padding=1, dilation=2)
    return {"y": y.reshape(-1)}


def avgpool1d_ceil_include_pad(x, R, L, **_):
    # nn.AvgPool1d(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=True); R = N * C
    y = F.avg_pool1d(x.view(1, R, L), kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=True)
    return {"y": y.reshape(-1)}


def maxpool3d_ceil(x, P, D, H, W, **_):
    # nn.MaxPool3d(kernel_size=3, stride=2, ceil_mode=True); P = N * C
    y = F.max_pool3d(x.view(1, P, D, H, W), kernel_size=3, stride=2, ceil_mode=True)
    return {"y": y.reshape(-1)}


# -------------------------------------------------------------------------------------------------- reductions

def argmin_dim1_codes(d, B, K, P, **_):
    # torch.argmin(d, dim=1) of [B, K, P] distances: the nearest code per position (int64)
    return {"idx": torch.argmin(d.view(B, K, P), dim=1).reshape(-1)}


PEERS = {
    "conv_transpose2d_nhwc": (conv_transpose2d_nhwc, ["y"]),
    "conv_transpose3d_spatial_up": (conv_transpose3d_spatial_up, ["y"]),
    "conv_transpose1d_dilated": (conv_transpose1d_dilated, ["y"]),
    "conv_transpose2d_groups_full": (conv_transpose2d_groups_full, ["y"]),
    "conv2d_dilated_strided": (conv2d_dilated_strided, ["y"]),
    "conv1d_nlc_stride2": (conv1d_nlc_stride2, ["y"]),
    "conv3d_slowfast_stem": (conv3d_slowfast_stem, ["y"]),
    "depthwise_mult_nhwc": (depthwise_mult_nhwc, ["y"]),
    "maxpool2d_dilated_pad": (maxpool2d_dilated_pad, ["y"]),
    "avgpool1d_ceil_include_pad": (avgpool1d_ceil_include_pad, ["y"]),
    "maxpool3d_ceil": (maxpool3d_ceil, ["y"]),
    "argmin_dim1_codes": (argmin_dim1_codes, ["idx"]),
}
