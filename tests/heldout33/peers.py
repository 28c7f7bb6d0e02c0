"""Independent PyTorch implementations of the twenty-sixth held-out set of kernels (tests/heldout33/*.cu), in the form
of tests/heldout32/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench reference model or the PyTorch code each kernel ports computes the operator, one PyTorch
call per step, not as translations of the kernels: `torch.max(F.linear(x, weight, bias), dim=1, keepdim=True).values`,
KernelBench's Matmul_Min_Subtract (`F.linear`, its `torch.min(x, constant)` with a 0-d constant written as
`torch.clamp(x, max=constant)`, `- constant`), `torch.cdist(x1, x2, p=1)`, `F.adaptive_avg_pool2d(F.gelu(F.conv2d(x,
weight, bias, padding=1)), 1)`, KernelBench's Conv2d_Min_Tanh_Tanh (`F.conv2d`, `torch.min(dim=1, keepdim=True)[0]`,
`torch.tanh` twice), `x.mean(dim=(1, 2), keepdim=True)` on the NHWC view, `torch.amax(x, dim=(2, 3))`,
`F.soft_margin_loss(x, labels.float() * 2 - 1)`, `torch.renorm(x, p=2, dim=0, maxnorm=maxnorm)`, `torch.clamp(mel,
min=clip)` then `.log()` / `.log2()` / `.log10()` by `base`, `F.glu(x, dim=-1)` and `torch.logaddexp(a, b)`. Sizes
are Python ints, float scalars Python floats, the integer `base` a Python int; arrays are torch.float32 except the uint8
labels of soft_margin_loss. The peers only call operators on their inputs (views, a dtype cast, arithmetic with Python
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


# ------------------------------------------------------------------------------------------ products + reductions

def gemm_max_features(x, weight, bias, batch_size, in_features, out_features, **_):
    # KernelBench level 2 Gemm_Max_Subtract_GELU's head: nn.Linear then torch.max over the features, keepdim
    with _full_fp32():
        h = F.linear(x.view(batch_size, in_features), weight.view(out_features, in_features), bias)
    return {"y": torch.max(h, dim=1, keepdim=True).values.reshape(-1)}


def linear_min_sub_const(x, weight, bias, constant, batch_size, in_features, out_features, **_):
    # KernelBench level 2 Matmul_Min_Subtract: x = linear(x); x = torch.min(x, constant); x = x - constant
    with _full_fp32():
        h = F.linear(x.view(batch_size, in_features), weight.view(out_features, in_features), bias)
    h = torch.clamp(h, max=constant)   # torch.min with the 0-d constant parameter, as a clamp from above
    return {"y": (h - constant).reshape(-1)}


def cdist_l1(x1, x2, B, P, R, M, **_):
    # torch.cdist(x1, x2, p=1): x1 (B, P, M), x2 (B, R, M)
    d = torch.cdist(x1.view(B, P, M), x2.view(B, R, M), p=1)
    return {"d": d.reshape(-1)}


# -------------------------------------------------------------------------------------- convolutions + epilogues

def conv2d_gelu_global_avgpool(x, weight, bias, N, Cin, Cout, H, W, **_):
    # KernelBench level 2 Conv2d_GELU_GlobalAvgPool with padding 1: conv, F.gelu (erf), adaptive_avg_pool2d(1), squeeze
    with _full_fp32():
        h = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 3, 3), bias, padding=1)
    h = F.adaptive_avg_pool2d(F.gelu(h), 1)
    return {"y": h.squeeze(-1).squeeze(-1).reshape(-1)}


def conv2d_min_tanh_tanh(x, weight, bias, N, Cin, Cout, H, W, **_):
    # KernelBench level 2 Conv2d_Min_Tanh_Tanh: conv (no padding), min over channels keepdim, tanh, tanh
    with _full_fp32():
        h = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 3, 3), bias)
    h = torch.min(h, dim=1, keepdim=True)[0]
    h = torch.tanh(h)
    h = torch.tanh(h)
    return {"y": h.reshape(-1)}


# ---------------------------------------------------------------------------------------------------- reductions

def mean_hw_nhwc_keepdim(x, N, H, W, C, **_):
    # x.mean(dim=(1, 2), keepdim=True) on an (N, H, W, C) tensor
    return {"y": x.view(N, H, W, C).mean(dim=(1, 2), keepdim=True).reshape(-1)}


def amax_hw_nchw(x, N, C, H, W, **_):
    # torch.amax over H and W of an (N, C, H, W) tensor
    return {"y": torch.amax(x.view(N, C, H, W), dim=(2, 3)).reshape(-1)}


def soft_margin_loss(x, labels, loss, B, C, **_):
    # nn.SoftMarginLoss (mean) with targets 2 * labels - 1; added to the inout scalar's value before the launch
    target = labels.view(B, C).float() * 2 - 1
    return {"loss": loss + F.soft_margin_loss(x.view(B, C), target).reshape(1)}


def renorm_rows(x, maxnorm, rows, D, **_):
    # torch.renorm(x, p=2, dim=0, maxnorm): rows whose L2 norm exceeds maxnorm scaled back to it
    return {"y": torch.renorm(x.view(rows, D), p=2, dim=0, maxnorm=maxnorm).reshape(-1)}


# ------------------------------------------------------------------------------------------------------------ maps

def clamp_min_log(mel, clip, base, B, M, T, **_):
    # Whisper: torch.clamp(mel_spec, min=1e-10).log10(); base 0 and 1 give the natural and base-2 logs
    v = torch.clamp(mel.view(B, M, T), min=clip)
    v = v.log() if base == 0 else v.log2() if base == 1 else v.log10()
    return {"y": v.reshape(-1)}


def glu_lastdim(x, rows, D, **_):
    # F.glu over the last dimension of a (rows, 2 * D) tensor
    return {"y": F.glu(x.view(rows, 2 * D), dim=-1).reshape(-1)}


def logaddexp(a, b, n, **_):
    return {"y": torch.logaddexp(a, b)}


PEERS = {
    "gemm_max_features": (gemm_max_features, ["y"]),
    "linear_min_sub_const": (linear_min_sub_const, ["y"]),
    "cdist_l1": (cdist_l1, ["d"]),
    "conv2d_gelu_global_avgpool": (conv2d_gelu_global_avgpool, ["y"]),
    "conv2d_min_tanh_tanh": (conv2d_min_tanh_tanh, ["y"]),
    "mean_hw_nhwc_keepdim": (mean_hw_nhwc_keepdim, ["y"]),
    "amax_hw_nchw": (amax_hw_nchw, ["y"]),
    "soft_margin_loss": (soft_margin_loss, ["loss"]),
    "renorm_rows": (renorm_rows, ["y"]),
    "clamp_min_log": (clamp_min_log, ["y"]),
    "glu_lastdim": (glu_lastdim, ["y"]),
    "logaddexp": (logaddexp, ["y"]),
}
