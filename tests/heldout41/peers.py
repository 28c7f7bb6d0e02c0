"""Independent PyTorch implementations of the thirty-fourth held-out set of kernels (tests/heldout41/*.cu), in the
form of tests/heldout40/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output:
flat tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a PyTorch user (or the library the kernel ports) computes each operator, with PyTorch calls on whole
tensors, not as translations of the kernels: `F.conv2d` then `F.softplus` and `.mean(dim=(1, 2, 3))`;
`F.max_pool2d(F.relu(x), 2) == 0` summed over (N, H, W); `F.linear` of the value head, a length mask from
`torch.arange` and the masked mean of the squared error; the binary entropy of `torch.sigmoid` as
`F.binary_cross_entropy_with_logits(z, sigmoid(z))`; `F.smooth_l1_loss(beta, reduction="sum")` on the positive
anchors selected by boolean indexing; `F.conv3d` and BatchNorm's moments by `.mean` over (N, D, H, W);
`F.cross_entropy(ignore_index, reduction="none")` plus the z-loss from `torch.logsumexp`; vLLM's `probs.div(q).argmax`
and `F.log_softmax(...).gather`; BiT's `torch.var_mean(unbiased=False)` weight standardisation; LSE pooling through
`torch.logsumexp`; torchmetrics' SI-SDR formula (zero mean, alpha, target_scaled, noise); Glow's ActNorm
initialisation (`permute`, `.mean(1)`, `.std(1)`). Everything runs in float64 (cast to the kernel's output dtype at
the end; an inout accumulator gets the result added to its value before the launch). Sizes are Python ints, float
scalars Python floats, template arguments the contracts' values as defaults. The peers only call operators on their
inputs, so they run on a GPU as on the CPU."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def _f64(t):
    return t.to(torch.float64)


# ----------------------------------------------------------------- naive modules ending in an atomic reduction

def conv2d_softplus_mean(x, weight, bias, out, batch, in_ch, out_ch, height, width, **_):
    # KernelBench-style: x = conv(x); x = F.softplus(x); x = x.mean(dim=(1, 2, 3))
    h = F.conv2d(_f64(x).view(batch, in_ch, height, width), _f64(weight).view(out_ch, in_ch, 3, 3), _f64(bias),
                 padding=1)
    m = F.softplus(h).mean(dim=(1, 2, 3))
    return {"out": (_f64(out) + m).to(out.dtype)}


def apoz_maxpool2d_relu(x, zero_count, N, C, H, W, **_):
    # zeros per channel after ReLU + MaxPool2d(2), the numerator of APoZ
    pooled = F.max_pool2d(F.relu(_f64(x).view(N, C, H, W)), 2)
    zeros = (pooled == 0).sum(dim=(0, 2, 3))
    return {"zero_count": (zero_count.to(torch.int64) + zeros).to(zero_count.dtype)}


def value_head_masked_mse(hidden, w, v_bias, returns, lengths, loss, B, T, D, **_):
    # 0.5 * masked mean squared error of a value head over padded sequences
    values = F.linear(_f64(hidden).view(B, T, D), _f64(w).view(1, D),
                      torch.tensor([v_bias], dtype=torch.float64)).squeeze(-1)
    mask = (torch.arange(T)[None, :] < lengths.to(torch.int64)[:, None]).to(torch.float64)
    l = 0.5 * ((values - _f64(returns).view(B, T)) ** 2 * mask).mean()
    return {"loss": (_f64(loss) + l).to(loss.dtype)}


def sigmoid_entropy_rows(logits, entropy, rows, classes, **_):
    # summed binary entropy of the sigmoid probabilities: BCE of p against itself
    z = _f64(logits).view(rows, classes)
    h = F.binary_cross_entropy_with_logits(z, torch.sigmoid(z), reduction="none").sum(-1)
    return {"entropy": (_f64(entropy) + h).to(entropy.dtype)}


def rpn_box_smooth_l1(pred_deltas, target_deltas, labels, loss, beta, batch_size_per_image, num_images,
                      num_anchors, **_):
    # RPN box regression: smooth L1 over the positive anchors, summed, / (images * sampled anchors per image)
    pred = _f64(pred_deltas).view(num_images * num_anchors, 4)
    target = _f64(target_deltas).view(num_images * num_anchors, 4)
    pos = labels.view(-1) == 1
    l = F.smooth_l1_loss(pred[pos], target[pos], beta=beta, reduction="sum") / (num_images * batch_size_per_image)
    return {"loss": (_f64(loss) + l).to(loss.dtype)}


def conv3d_bn_moments(x, weight, bias, mean, mean_sq, N, Cin, Cout, D, H, W, **_):
    # the batch moments BatchNorm3d takes of a Conv3d(k=3, padding=1) output
    y = F.conv3d(_f64(x).view(N, Cin, D, H, W), _f64(weight).view(Cout, Cin, 3, 3, 3), _f64(bias), padding=1)
    m = y.mean(dim=(0, 2, 3, 4))
    m2 = y.pow(2).mean(dim=(0, 2, 3, 4))
    return {"mean": (_f64(mean) + m).to(mean.dtype), "mean_sq": (_f64(mean_sq) + m2).to(mean_sq.dtype)}


# ------------------------------------------------------------------ cooperative multi-value row / plane reductions

def cross_entropy_z_loss(logits, target, z_loss_coef, ignore_index, rows, vocab, **_):
    # token cross-entropy + PaLM z-loss, ignored tokens 0
    lg = _f64(logits).view(rows, vocab)
    t = target.to(torch.int64)
    ce = F.cross_entropy(lg, t, ignore_index=int(ignore_index), reduction="none")
    z = torch.logsumexp(lg, dim=-1)
    loss = ce + z_loss_coef * z ** 2 * (t != ignore_index)
    return {"loss": loss.to(logits.dtype)}


def exponential_race_sample(logits, q, temperature, rows, vocab, BLOCK=256, **_):
    # vLLM-style sampling: probs / q with q ~ Exp(1), argmax; plus the sampled token's log-probability
    lg = _f64(logits).view(rows, vocab) / temperature
    probs = torch.softmax(lg, dim=-1)
    next_token = probs.div(_f64(q).view(rows, vocab)).argmax(dim=-1)
    logprob = F.log_softmax(lg, dim=-1).gather(-1, next_token[:, None]).squeeze(-1)
    return {"next_token": next_token.to(torch.int64), "logprob": logprob.to(logits.dtype)}


def std_conv_weight(weight, eps, out_channels, fan_in, **_):
    # BiT StdConv2d weight standardisation
    w = _f64(weight).view(out_channels, fan_in, 1, 1)
    v, m = torch.var_mean(w, dim=[1, 2, 3], keepdim=True, unbiased=False)
    w = (w - m) / torch.sqrt(v + eps)
    return {"weight_std": w.reshape(-1).to(weight.dtype)}


def lse_pool2d(x, r, N, C, HW, **_):
    # log-sum-exp pooling over each (sample, channel) plane
    xs = _f64(x).view(N, C, HW)
    y = (torch.logsumexp(r * xs, dim=2) - math.log(HW)) / r
    return {"y": y.reshape(-1).to(x.dtype)}


def si_sdr_utterances(preds, target, batch, time, **_):
    # torchmetrics scale_invariant_signal_distortion_ratio(preds, target, zero_mean=True)
    eps = torch.finfo(torch.float32).eps
    p = _f64(preds).view(batch, time)
    t = _f64(target).view(batch, time)
    t = t - torch.mean(t, dim=-1, keepdim=True)
    p = p - torch.mean(p, dim=-1, keepdim=True)
    alpha = (torch.sum(p * t, dim=-1, keepdim=True) + eps) / (torch.sum(t ** 2, dim=-1, keepdim=True) + eps)
    target_scaled = alpha * t
    noise = target_scaled - p
    val = (torch.sum(target_scaled ** 2, dim=-1) + eps) / (torch.sum(noise ** 2, dim=-1) + eps)
    return {"si_sdr": (10 * torch.log10(val)).to(preds.dtype)}


def actnorm_init(input, N, C, HW, **_):
    # Glow ActNorm data-dependent initialisation (rosinality glow-pytorch)
    x = _f64(input).view(N, C, HW, 1)
    flatten = x.permute(1, 0, 2, 3).contiguous().view(C, -1)
    mean = flatten.mean(1)
    std = flatten.std(1)
    return {"loc": (-mean).to(input.dtype), "scale": (1 / (std + 1e-6)).to(input.dtype)}


PEERS = {
    "conv2d_softplus_mean": (conv2d_softplus_mean, ["out"]),
    "apoz_maxpool2d_relu": (apoz_maxpool2d_relu, ["zero_count"]),
    "value_head_masked_mse": (value_head_masked_mse, ["loss"]),
    "sigmoid_entropy_rows": (sigmoid_entropy_rows, ["entropy"]),
    "rpn_box_smooth_l1": (rpn_box_smooth_l1, ["loss"]),
    "conv3d_bn_moments": (conv3d_bn_moments, ["mean", "mean_sq"]),
    "cross_entropy_z_loss": (cross_entropy_z_loss, ["loss"]),
    "exponential_race_sample": (exponential_race_sample, ["next_token", "logprob"]),
    "std_conv_weight": (std_conv_weight, ["weight_std"]),
    "lse_pool2d": (lse_pool2d, ["y"]),
    "si_sdr_utterances": (si_sdr_utterances, ["si_sdr"]),
    "actnorm_init": (actnorm_init, ["loc", "scale"]),
}
