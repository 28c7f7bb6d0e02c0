"""Independent PyTorch implementations of the thirty-third held-out set of kernels (tests/heldout40/*.cu), in the
form of tests/heldout39/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output:
flat tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user (or the library the kernel ports) computes each operator, with PyTorch calls on whole
tensors, not as translations of the kernels: vLLM's fused add + RMSNorm as `x + residual` then
`torch.rsqrt(pow(2).mean(-1))`; BERT's `scores / sqrt(d) + (1 - mask) * finfo.min` and `F.softmax`; `torch.max` of
`F.softmax`; the Jensen-Shannon divergence through `F.log_softmax` and `F.kl_div(log_target=True)`; `F.batch_norm` in
training mode on cloned running buffers (which it updates) and `torch.var_mean` for the saved statistics;
`F.group_norm` then `F.silu`; `F.layer_norm` without weights then DiT's `modulate`; ConvNeXt's channels-first
LayerNorm exactly as its module writes it; Barlow Twins' `(z - z.mean(0)) / z.std(0)`; MONAI's Dice sums over the
spatial axis of `torch.sigmoid`; `F.cross_entropy(reduction="none")` and the focal weighting; pytorch-AdaIN's
`calc_mean_std` and `adaptive_instance_normalization`. Everything runs in float64 (cast to the kernel's output dtype
at the end). Sizes are Python ints, float scalars Python floats, template arguments the contracts' values as defaults.
The peers only call operators on their inputs, so they run on a GPU as on the CPU."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def _f64(t):
    return t.to(torch.float64)


# ------------------------------------------------------------------------------------------- row normalisations

def fused_add_rms_norm(input, residual, weight, epsilon, num_tokens, hidden_size, BLOCK_SIZE=256, **_):
    # vLLM fused_add_rms_norm: residual = x + residual; x = RMSNorm(residual) * weight (both returned in place)
    x = _f64(input).view(num_tokens, hidden_size)
    r = x + _f64(residual).view(num_tokens, hidden_size)
    variance = r.pow(2).mean(-1, keepdim=True)
    out = r * torch.rsqrt(variance + epsilon) * _f64(weight)
    return {"input": out.reshape(-1).to(input.dtype), "residual": r.reshape(-1).to(residual.dtype)}


def bert_attention_softmax(scores, attention_mask, inv_sqrt_d, batch, heads, seq_len, **_):
    # HF BERT eager attention: scores / sqrt(d) + extended mask, softmax over the keys
    s = _f64(scores).view(batch, heads, seq_len, seq_len)
    s = s * inv_sqrt_d                                              # / math.sqrt(attention_head_size)
    mask = attention_mask.view(batch, seq_len)
    ext = (1.0 - mask[:, None, None, :].to(torch.float64)) * torch.finfo(torch.float32).min
    probs = F.softmax(s + ext, dim=-1)
    return {"probs": probs.reshape(-1).to(scores.dtype)}


def softmax_confidence(logits, rows, classes, **_):
    # maximum softmax probability and its class
    conf, pred = torch.max(F.softmax(_f64(logits).view(rows, classes), dim=1), dim=1)
    return {"conf": conf.to(logits.dtype), "pred": pred.to(torch.int64)}


def jsd_rows(student, teacher, rows, vocab, **_):
    # generalized JSD (beta = 0.5) between softmax(student) and softmax(teacher), per row
    lp = F.log_softmax(_f64(student).view(rows, vocab), dim=-1)
    lq = F.log_softmax(_f64(teacher).view(rows, vocab), dim=-1)
    log_m = torch.log(0.5 * (lp.exp() + lq.exp()))
    kl_p = F.kl_div(log_m, lp, reduction="none", log_target=True).sum(-1)
    kl_q = F.kl_div(log_m, lq, reduction="none", log_target=True).sum(-1)
    return {"loss": (0.5 * kl_p + 0.5 * kl_q).to(student.dtype)}


def dit_modulate_layernorm(x, shift, scale, eps, B, T, D, **_):
    # DiT FinalLayer: modulate(norm_final(x), shift, scale)
    h = F.layer_norm(_f64(x).view(B, T, D), (D,), eps=eps)
    h = h * (1 + _f64(scale).view(B, D).unsqueeze(1)) + _f64(shift).view(B, D).unsqueeze(1)
    return {"y": h.reshape(-1).to(x.dtype)}


def softmax_focal_loss(logits, target, alpha, gamma, num_samples, num_classes, BLOCK_SIZE=128, **_):
    # multi-class focal loss per sample
    ce = F.cross_entropy(_f64(logits).view(num_samples, num_classes), target.to(torch.int64), reduction="none")
    pt = torch.exp(-ce)
    loss = alpha * (1 - pt) ** gamma * ce
    return {"loss": loss.to(logits.dtype)}


# ------------------------------------------------------------------------- channel, group and column statistics

def batch_norm_collect_statistics(input, running_mean, running_var, momentum, epsilon, N, C, HW, **_):
    # nn.BatchNorm2d training forward: saved mean / invstd, running buffers updated in place
    x = _f64(input).view(N, C, HW, 1)
    rm = _f64(running_mean).clone()
    rv = _f64(running_var).clone()
    F.batch_norm(x, rm, rv, training=True, momentum=momentum, eps=epsilon)
    var, mean = torch.var_mean(x, dim=(0, 2, 3), correction=0)
    invstd = 1.0 / torch.sqrt(var + epsilon)
    dt = input.dtype
    return {"save_mean": mean.to(dt), "save_invstd": invstd.to(dt), "running_mean": rm.to(dt), "running_var": rv.to(dt)}


def group_norm_silu(x, gamma, beta, eps, N, C, HW, G, **_):
    # diffusers ResnetBlock2D: GroupNorm(G, C, eps) then SiLU
    h = F.group_norm(_f64(x).view(N, C, HW, 1), G, _f64(gamma), _f64(beta), eps=eps)
    return {"y": F.silu(h).reshape(-1).to(x.dtype)}


def convnext_layernorm_channels_first(x, weight, bias, eps, N, C, HW, **_):
    # ConvNeXt LayerNorm(data_format="channels_first")
    h = _f64(x).view(N, C, HW, 1)
    u = h.mean(1, keepdim=True)
    s = (h - u).pow(2).mean(1, keepdim=True)
    h = (h - u) / torch.sqrt(s + eps)
    h = _f64(weight)[:, None, None] * h + _f64(bias)[:, None, None]
    return {"y": h.reshape(-1).to(x.dtype)}


def batch_standardize_columns(z, N, D, BLOCK_SIZE=256, **_):
    # Barlow Twins: standardise the embeddings along the batch
    za = _f64(z).view(N, D)
    z_norm = (za - za.mean(0)) / za.std(0)
    return {"z_norm": z_norm.reshape(-1).to(z.dtype)}


def dice_loss_sigmoid(logits, target, smooth_nr, smooth_dr, N, C, S, **_):
    # MONAI DiceLoss(sigmoid=True, reduction="none") over the spatial axis of each (sample, class)
    p = torch.sigmoid(_f64(logits).view(N, C, S))
    t = _f64(target).view(N, C, S)
    intersection = torch.sum(t * p, dim=2)
    ground_o = torch.sum(t, dim=2)
    pred_o = torch.sum(p, dim=2)
    f = 1.0 - (2.0 * intersection + smooth_nr) / (ground_o + pred_o + smooth_dr)
    return {"loss": f.reshape(-1).to(logits.dtype)}


def adain_kernel(content, style, eps, N, C, HWc, HWs, **_):
    # pytorch-AdaIN adaptive_instance_normalization with calc_mean_std
    def calc_mean_std(feat):
        n, c = feat.shape[:2]
        feat_var = feat.view(n, c, -1).var(dim=2) + eps
        feat_std = feat_var.sqrt().view(n, c, 1)
        feat_mean = feat.view(n, c, -1).mean(dim=2).view(n, c, 1)
        return feat_mean, feat_std

    cf = _f64(content).view(N, C, HWc)
    sf = _f64(style).view(N, C, HWs)
    s_mean, s_std = calc_mean_std(sf)
    c_mean, c_std = calc_mean_std(cf)
    normalized = (cf - c_mean) / c_std
    return {"out": (normalized * s_std + s_mean).reshape(-1).to(content.dtype)}


PEERS = {
    "fused_add_rms_norm": (fused_add_rms_norm, ["input", "residual"]),
    "bert_attention_softmax": (bert_attention_softmax, ["probs"]),
    "softmax_confidence": (softmax_confidence, ["conf", "pred"]),
    "jsd_rows": (jsd_rows, ["loss"]),
    "dit_modulate_layernorm": (dit_modulate_layernorm, ["y"]),
    "softmax_focal_loss": (softmax_focal_loss, ["loss"]),
    "batch_norm_collect_statistics": (batch_norm_collect_statistics,
                                      ["save_mean", "save_invstd", "running_mean", "running_var"]),
    "group_norm_silu": (group_norm_silu, ["y"]),
    "convnext_layernorm_channels_first": (convnext_layernorm_channels_first, ["y"]),
    "batch_standardize_columns": (batch_standardize_columns, ["z_norm"]),
    "dice_loss_sigmoid": (dice_loss_sigmoid, ["loss"]),
    "adain_kernel": (adain_kernel, ["out"]),
}
