"""Independent PyTorch implementations of the eighth held-out set of naive kernels (tests/heldout15/*.cu), in the form
of tests/heldout/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user would write each operation (mostly as the model code they were ported from would), not
as translations of the kernels. Sizes are Python ints, float scalars Python floats. The kernels compute in full fp32
(the two fp16 kernels read halves, compute in fp32 and write halves): the convolution peers turn cuDNN's TF32 off for
their call, and torch's fp32 matmuls default to full fp32. layernorm_backward_dx's peer calls aten's
native_layer_norm_backward with the given mean and rstd (what autograd runs for F.layer_norm); adamw_step's runs one
step of torch.optim.AdamW on state built from the filled exp_avg and exp_avg_sq, at step `step`."""

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

def _rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rope_rotate_half(q, cos_cached, sin_cached, B, S, H, D, **_):
    x = q.view(B, S, H, D).float()
    cos = torch.cat([cos_cached.view(S, D // 2)] * 2, dim=-1)[None, :, None, :]   # (1, S, 1, D)
    sin = torch.cat([sin_cached.view(S, D // 2)] * 2, dim=-1)[None, :, None, :]
    return {"q_out": (x * cos + _rotate_half(x) * sin).half().reshape(-1)}


def gelu_tanh_backward(dy, x, **_):
    with torch.enable_grad():
        xf = x.float().requires_grad_(True)
        y = F.gelu(xf, approximate="tanh")
        (dx,) = torch.autograd.grad(y, xf, grad_outputs=dy.float())
    return {"dx": dx.half()}


def adamw_step(param, grad, exp_avg, exp_avg_sq, lr, beta1, beta2, eps, weight_decay, step, **_):
    p = torch.nn.Parameter(param.clone())
    p.grad = grad.clone()
    opt = torch.optim.AdamW([p], lr=lr, betas=(beta1, beta2), eps=eps, weight_decay=weight_decay)
    opt.state[p] = {"step": torch.tensor(float(step - 1)),                 # step() counts this one
                    "exp_avg": exp_avg.clone(), "exp_avg_sq": exp_avg_sq.clone()}
    opt.step()
    state = opt.state[p]
    return {"param": p.detach(), "exp_avg": state["exp_avg"], "exp_avg_sq": state["exp_avg_sq"]}


# ------------------------------------------------------------------------------------------------------ reductions

def layernorm_backward_weight_bias(dout, inp, mean, rstd, N, C, **_):
    dy = dout.view(N, C)
    x_hat = (inp.view(N, C) - mean.view(N, 1)) * rstd.view(N, 1)
    return {"dweight": (dy * x_hat).sum(dim=0), "dbias": dy.sum(dim=0)}


def conv2d_bias_grad(grad_out, N, C, H, W, **_):
    return {"grad_bias": grad_out.view(N, C, H, W).sum(dim=(0, 2, 3))}


def masked_mean_pool(token_emb, attention_mask, B, T, D, **_):
    emb = token_emb.view(B, T, D)
    mask = attention_mask.view(B, T).unsqueeze(-1).expand(emb.size()).float()
    summed = torch.sum(emb * mask, dim=1)
    counts = torch.clamp(mask.sum(dim=1), min=1e-9)
    return {"out": (summed / counts).reshape(-1)}


def cross_entropy_ignore_index(logits, target, loss_sum, n_valid, ignore_index, N, V, **_):
    loss = F.cross_entropy(logits.view(N, V), target.long(), ignore_index=ignore_index, reduction="sum")
    count = (target != ignore_index).sum().to(n_valid.dtype)
    return {"loss_sum": loss_sum + loss, "n_valid": n_valid + count}


# -------------------------------------------------------------------------------------------- row ops and scans

def causal_softmax_scaled(scores, scale, BH, T, **_):
    s = scores.view(BH, T, T) * scale
    causal_mask = torch.triu(torch.ones(T, T, dtype=torch.bool, device=s.device), diagonal=1)
    return {"probs": torch.softmax(s.masked_fill(causal_mask, float("-inf")), dim=-1).reshape(-1)}


def layernorm_backward_dx(dout, inp, weight, mean, rstd, N, C, **_):
    dx, _, _ = torch.ops.aten.native_layer_norm_backward(
        dout.view(N, C), inp.view(N, C), [C], mean.view(N, 1), rstd.view(N, 1), weight, None, [True, False, False])
    return {"dinp": dx.reshape(-1)}


def position_ids_from_mask(attention_mask, batch, seq_len, **_):
    mask = attention_mask.view(batch, seq_len).long()
    position_ids = mask.cumsum(-1) - 1
    position_ids.masked_fill_(mask == 0, 1)
    return {"position_ids": position_ids.reshape(-1)}


# ------------------------------------------------------------------------------------------ products and contractions

def pairwise_sqdist(x1, x2, n1, n2, dim, **_):
    d = torch.cdist(x1.view(n1, dim), x2.view(n2, dim), p=2.0, compute_mode="donot_use_mm_for_euclid_dist")
    return {"dist": d.pow(2).reshape(-1)}


def pointwise_conv2d(x, weight, bias, N, Cin, Cout, H, W, **_):
    with _full_fp32_cudnn():
        y = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 1, 1), bias)
    return {"y": y.reshape(-1)}


def gqa_decode_scores(q, k_cache, scale, B, T, H, KVH, D, **_):
    query = q.view(B, H, 1, D)
    keys = k_cache.view(B, T, KVH, D).transpose(1, 2)              # (B, KVH, T, D)
    keys = keys.repeat_interleave(H // KVH, dim=1)                  # (B, H, T, D): each key head serves H/KVH heads
    scores = torch.matmul(query, keys.transpose(-2, -1)) * scale    # (B, H, 1, T)
    return {"scores": scores.reshape(-1)}


# ------------------------------------------------------------------------------ convolutions and resampling

def causal_conv1d_silu(x, weight, bias, B, C, L, **_):
    with _full_fp32_cudnn():
        out = F.conv1d(x.view(B, C, L), weight.view(C, 1, 4), bias, padding=3, groups=C)[..., :L]
    return {"y": F.silu(out).reshape(-1)}


def conv_transpose1d_dw_s2(x, w, N, C, L, **_):
    with _full_fp32_cudnn():
        out = F.conv_transpose1d(x.view(N, C, L), w.view(C, 1, 4), stride=2, padding=1, groups=C)
    return {"out": out.reshape(-1)}


def upsample_bilinear2x(x, P, H, W, **_):
    out = F.interpolate(x.view(1, P, H, W), scale_factor=2, mode="bilinear", align_corners=False)
    return {"out": out.reshape(-1)}


PEERS = {
    "rope_rotate_half": (rope_rotate_half, ["q_out"]),
    "gelu_tanh_backward": (gelu_tanh_backward, ["dx"]),
    "adamw_step": (adamw_step, ["param", "exp_avg", "exp_avg_sq"]),
    "layernorm_backward_weight_bias": (layernorm_backward_weight_bias, ["dweight", "dbias"]),
    "conv2d_bias_grad": (conv2d_bias_grad, ["grad_bias"]),
    "masked_mean_pool": (masked_mean_pool, ["out"]),
    "cross_entropy_ignore_index": (cross_entropy_ignore_index, ["loss_sum", "n_valid"]),
    "causal_softmax_scaled": (causal_softmax_scaled, ["probs"]),
    "layernorm_backward_dx": (layernorm_backward_dx, ["dinp"]),
    "position_ids_from_mask": (position_ids_from_mask, ["position_ids"]),
    "pairwise_sqdist": (pairwise_sqdist, ["dist"]),
    "pointwise_conv2d": (pointwise_conv2d, ["y"]),
    "gqa_decode_scores": (gqa_decode_scores, ["scores"]),
    "causal_conv1d_silu": (causal_conv1d_silu, ["y"]),
    "conv_transpose1d_dw_s2": (conv_transpose1d_dw_s2, ["out"]),
    "upsample_bilinear2x": (upsample_bilinear2x, ["out"]),
}
