"""Independent PyTorch implementations of the fifteenth held-out set of naive kernels (tests/heldout22/*.cu), in the
form of tests/heldout21/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch code computes each normalization or statistic, not as translations of the kernels:
F.layer_norm over a 3-D normalized shape, F.group_norm, F.normalize(p=2), KernelBench's L1Norm and FrobeniusNorm
forwards (x / x.abs().sum(1), x / torch.linalg.norm(x)), Hugging Face's LlamaRMSNorm forward on bfloat16,
torch.softmax / torch.log_softmax along the rows, (x - x.mean()) / x.std(), amin / amax min-max scaling, and
torch.var_mean with correction=1 (NCHW) or correction=0 (channels-last fp16 widened to fp32). Sizes are Python ints,
float scalars Python floats; bfloat16 and float16 arrays come as torch.bfloat16 / float16 tensors. The size symbol F
of layer_norm_3d is taken from **sizes so that it does not shadow torch.nn.functional."""

from __future__ import annotations

import torch
import torch.nn.functional as F


# ------------------------------------------------------------------------------------------- normalization layers

def layer_norm_3d(x, weight, bias, eps, B, D1, D2, **sizes):
    features = sizes["F"]
    shape = (features, D1, D2)
    y = F.layer_norm(x.view(B, *shape), shape, weight.view(shape), bias.view(shape), eps)
    return {"y": y.reshape(-1)}


def group_norm_naive(x, weight, bias, eps, N, C, G, HW, **_):
    y = F.group_norm(x.view(N, C, HW), G, weight, bias, eps)
    return {"y": y.reshape(-1)}


def rms_norm_bf16(x, weight, eps, rows, D, **_):
    # transformers.models.llama.modeling_llama.LlamaRMSNorm.forward
    hidden_states = x.view(rows, D)
    input_dtype = hidden_states.dtype
    hidden_states = hidden_states.to(torch.float32)
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + eps)
    y = weight * hidden_states.to(input_dtype)
    return {"y": y.reshape(-1)}


# ---------------------------------------------------------------------------------------------- vector norms

def l2_normalize(x, rows, D, **_):
    return {"y": F.normalize(x.view(rows, D), p=2.0, dim=1).reshape(-1)}


def l1_normalize(x, rows, D, **_):
    # KernelBench level 1, 38_L1Norm_
    v = x.view(rows, D)
    return {"y": (v / torch.sum(torch.abs(v), dim=1, keepdim=True)).reshape(-1)}


def frobenius_norm_normalize(x, **_):
    # KernelBench level 1, 37_FrobeniusNorm_ (the norm of the whole tensor)
    norm = torch.linalg.norm(x)
    return {"y": x / norm}


# --------------------------------------------------------------------------------------------- softmax family

def softmax_long(x, rows, D, **_):
    return {"y": torch.softmax(x.view(rows, D), dim=1).reshape(-1)}


def log_softmax_few_rows(x, rows, D, **_):
    return {"y": torch.log_softmax(x.view(rows, D), dim=1).reshape(-1)}


# ------------------------------------------------------------------------------------------ scaling and statistics

def standardize_tensor(x, **_):
    return {"y": (x - x.mean()) / x.std()}              # torch.std: correction=1


def minmax_scale_rows(x, rows, D, **_):
    v = x.view(rows, D)
    lo = v.amin(dim=1, keepdim=True)
    hi = v.amax(dim=1, keepdim=True)
    return {"y": ((v - lo) / (hi - lo)).reshape(-1)}


def var_mean_unbiased(x, N, C, HW, **_):
    var, mean = torch.var_mean(x.view(N, C, HW), dim=(0, 2), correction=1)
    return {"mean": mean, "var": var}


def channel_stats_nhwc_half(x, M, C, **_):
    var, mean = torch.var_mean(x.view(M, C).float(), dim=0, correction=0)
    return {"mean": mean, "var": var}


PEERS = {
    "layer_norm_3d": (layer_norm_3d, ["y"]),
    "group_norm_naive": (group_norm_naive, ["y"]),
    "rms_norm_bf16": (rms_norm_bf16, ["y"]),
    "l2_normalize": (l2_normalize, ["y"]),
    "l1_normalize": (l1_normalize, ["y"]),
    "frobenius_norm_normalize": (frobenius_norm_normalize, ["y"]),
    "softmax_long": (softmax_long, ["y"]),
    "log_softmax_few_rows": (log_softmax_few_rows, ["y"]),
    "standardize_tensor": (standardize_tensor, ["y"]),
    "minmax_scale_rows": (minmax_scale_rows, ["y"]),
    "var_mean_unbiased": (var_mean_unbiased, ["mean", "var"]),
    "channel_stats_nhwc_half": (channel_stats_nhwc_half, ["mean", "var"]),
}
