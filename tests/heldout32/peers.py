"""Independent PyTorch implementations of the twenty-fifth held-out set of kernels (tests/heldout32/*.cu), in the form
of tests/heldout31/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 2 reference model computes each fused chain, one PyTorch call per step, not as
translations of the kernels: `F.gelu(F.linear(x, W, b), approximate="tanh")`, `torch.clamp(scale * torch.addmm(b, x,
W) + res, lo, hi)`, `torch.softmax(torch.bmm(A, B), dim=-1)`, KernelBench's Gemm_Divide_Sum_Scaling
(`torch.matmul(x, weight.T) / 2`, `torch.sum(dim=1, keepdim=True)`, `* scaling_factor`), `torch.relu(F.conv2d(x, weight,
bias)) * scale` with a (Cout, 1, 1) scale, `F.max_pool1d(torch.tanh(F.conv1d(x, weight, bias, padding=1)), L)`,
`F.hardswish(F.conv2d(x, weight, bias, padding=2, groups=C))`, `F.layer_norm(h + r, (D,), gamma, beta, eps)`, the
gated RMSNorm `x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight * F.silu(z)`, `torch.softmax(x, dim=-1) *
mask[:, None]`, `torch.sigmoid(F.max_pool2d(x, 2)).sum(dim=(2, 3))` and `torch.sigmoid(F.linear(v, W, b))`. Sizes are
Python ints, float scalars Python floats; arrays are torch.float32 except the bool mask of softmax_mask_mul. The peers
only call operators on their inputs (views, transposes), so they make no tensor of their own and run on a GPU as on the
CPU. Every product and convolution runs with TF32 turned off (restored afterwards), since the kernels compute in full
fp32."""

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

def linear_gelu_tanh(x, W, b, M, K, N, **_):
    # build-nanogpt's MLP front: nn.Linear(K, N) then nn.GELU(approximate="tanh")
    with _full_fp32():
        h = F.linear(x.view(M, K), W.view(N, K), b)
    return {"y": F.gelu(h, approximate="tanh").reshape(-1)}


def addmm_scale_residual_clamp(x, W, b, res, scale, lo, hi, M, K, N, **_):
    # x @ W + b with W stored (in, out), scaled, plus a residual tensor, clamped to [lo, hi]
    with _full_fp32():
        h = torch.addmm(b, x.view(M, K), W.view(K, N))
    return {"y": torch.clamp(h * scale + res.view(M, N), min=lo, max=hi).reshape(-1)}


def bmm_softmax_rows(A, B, batch, M, K, N, **_):
    # torch.softmax(torch.bmm(A, B), dim=-1): A (batch, M, K), B (batch, K, N)
    with _full_fp32():
        s = torch.bmm(A.view(batch, M, K), B.view(batch, K, N))
    return {"y": torch.softmax(s, dim=-1).reshape(-1)}


def gemm_divide_sum_scaling(x, weight, y, scaling_factor, batch_size, input_size, hidden_size, **_):
    # KernelBench level 2 "Gemm_Divide_Sum_Scaling"; added to the inout output's value before the launch
    with _full_fp32():
        h = torch.matmul(x.view(batch_size, input_size), weight.view(hidden_size, input_size).T)
    h = h / 2
    h = torch.sum(h, dim=1, keepdim=True)
    h = h * scaling_factor
    return {"y": y + h.reshape(-1)}


# -------------------------------------------------------------------------------------- convolutions + epilogues

def conv2d_relu_channel_scale(x, weight, bias, scale, N, Cin, Cout, H, W, **_):
    # nn.Conv2d(Cin, Cout, 3) (no padding, bias), ReLU, times a (Cout, 1, 1) multiplier
    with _full_fp32():
        h = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 3, 3), bias)
    return {"y": (torch.relu(h) * scale.view(Cout, 1, 1)).reshape(-1)}


def conv1d_tanh_maxpool(x, weight, bias, N, Cin, Cout, L, **_):
    # sentence CNN: nn.Conv1d(Cin, Cout, 3, padding=1), tanh, max-over-time pooling
    with _full_fp32():
        h = F.conv1d(x.view(N, Cin, L), weight.view(Cout, Cin, 3), bias, padding=1)
    return {"y": F.max_pool1d(torch.tanh(h), kernel_size=L).reshape(-1)}


def depthwise5x5_hardswish(x, weight, bias, N, C, H, W, **_):
    # MobileNetV3: nn.Conv2d(C, C, 5, padding=2, groups=C) (BN folded into the bias), nn.Hardswish
    with _full_fp32():
        h = F.conv2d(x.view(N, C, H, W), weight.view(C, 1, 5, 5), bias, padding=2, groups=C)
    return {"y": F.hardswish(h).reshape(-1)}


# ------------------------------------------------------------------------------------- normalization fusions

def residual_layernorm_bert(h, r, gamma, beta, eps, B, S, D, **_):
    # HF BertSelfOutput / BertOutput: self.LayerNorm(hidden_states + input_tensor), eps 1e-12
    v = h.view(B, S, D) + r.view(B, S, D)
    return {"y": F.layer_norm(v, (D,), gamma, beta, eps).reshape(-1)}


def rmsnorm_gated_silu(x, z, weight, eps, rows, D, **_):
    # mamba_ssm RMSNormGated(norm_before_gate=True), one group: rmsnorm(x) * weight, then * silu(z)
    x2, z2 = x.view(rows, D), z.view(rows, D)
    normed = x2 * torch.rsqrt(x2.pow(2).mean(-1, keepdim=True) + eps) * weight
    return {"y": (normed * F.silu(z2)).reshape(-1)}


def softmax_mask_mul(x, mask, B, H, S, **_):
    # softmax over the keys, then the (B, S, S) keep mask broadcast over the heads
    p = torch.softmax(x.view(B, H, S, S), dim=-1)
    return {"y": (p * mask.view(B, S, S)[:, None]).reshape(-1)}


# ------------------------------------------------------------------------------------------------------- others

def maxpool2_sigmoid_sum(x, y, N, C, H, W, **_):
    # torch.sigmoid(F.max_pool2d(x, 2)).sum(dim=(2, 3)); added to the inout output's value before the launch
    p = F.max_pool2d(x.view(N, C, H, W), kernel_size=2)
    return {"y": y + torch.sigmoid(p).sum(dim=(2, 3)).reshape(-1)}


def gemv_bias_sigmoid(W, v, b, M, K, **_):
    # torch.sigmoid(F.linear(v, W, b)) for a single vector
    with _full_fp32():
        h = F.linear(v, W.view(M, K), b)
    return {"y": torch.sigmoid(h)}


PEERS = {
    "linear_gelu_tanh": (linear_gelu_tanh, ["y"]),
    "addmm_scale_residual_clamp": (addmm_scale_residual_clamp, ["y"]),
    "bmm_softmax_rows": (bmm_softmax_rows, ["y"]),
    "gemm_divide_sum_scaling": (gemm_divide_sum_scaling, ["y"]),
    "conv2d_relu_channel_scale": (conv2d_relu_channel_scale, ["y"]),
    "conv1d_tanh_maxpool": (conv1d_tanh_maxpool, ["y"]),
    "depthwise5x5_hardswish": (depthwise5x5_hardswish, ["y"]),
    "residual_layernorm_bert": (residual_layernorm_bert, ["y"]),
    "rmsnorm_gated_silu": (rmsnorm_gated_silu, ["y"]),
    "softmax_mask_mul": (softmax_mask_mul, ["y"]),
    "maxpool2_sigmoid_sum": (maxpool2_sigmoid_sum, ["y"]),
    "gemv_bias_sigmoid": (gemv_bias_sigmoid, ["y"]),
}
