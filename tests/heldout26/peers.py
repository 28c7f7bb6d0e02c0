"""Independent PyTorch implementations of the nineteenth held-out set of kernels (tests/heldout26/*.cu), in the form
of tests/heldout25/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch code computes each operator in a training or inference step, not as translations of the
kernels: lion-pytorch's `update_fn`, a W4A16 unpacking with `&` and `>>` and a grouped broadcast, MPT's `gen_slopes`
and `build_alibi_bias(full=True)` added to the scores, verl's `compute_policy_loss` (per token, before the masked mean),
torch.fake_quantize_per_channel_affine, TRL's GRPO group statistics, torch._amp_foreach_non_finite_check_and_unscale_,
verl's `entropy_from_logits`, Hugging Face's MinPLogitsWarper followed by the sampling softmax, the bias and weight
gradients of nn.Linear as autograd computes them (`grad_output.sum(0)`, `grad_output.t().mm(input)`) and Gemma 2's
final-logit soft-capping. Sizes are Python ints, float scalars Python floats; the packed int4 weights and zero points
come as torch.uint8, the fp16 scales, logits and outputs as torch.float16, the zero points of the fake quantization as
torch.int32, the response mask as torch.int64, every other array as torch.float32. Every tensor a peer makes is made
on its inputs' device (`device=x.device`), so the peers run on a GPU as on the CPU. The matmul of the weight gradient
runs with TF32 turned off (restored afterwards), since the kernel computes in full fp32."""

from __future__ import annotations

import contextlib
import math

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


# ---------------------------------------------------------------------------------------------------- optimizers

def lion_step(param, exp_avg, grad, lr, beta1, beta2, weight_decay, **_):
    # lion-pytorch, lion_pytorch/lion_pytorch.py: update_fn
    p, exp_avg = param.clone(), exp_avg.clone()
    p.mul_(1.0 - lr * weight_decay)
    update = exp_avg.clone().mul_(beta1).add(grad, alpha=1.0 - beta1).sign_()
    p.add_(update, alpha=-lr)
    exp_avg.mul_(beta2).add_(grad, alpha=1.0 - beta2)
    return {"param": p, "exp_avg": exp_avg}


def amp_unscale_inf_check(grads, found_inf, inv_scale, **_):
    # torch.amp.GradScaler._unscale_grads_
    grads, found_inf = grads.clone(), found_inf.clone()
    torch._amp_foreach_non_finite_check_and_unscale_([grads], found_inf, inv_scale)
    return {"grads": grads, "found_inf": found_inf}


# ----------------------------------------------------------------------------------------------- quantization

def dequant_int4_groups(qweight, scales, zeros, N, K, **_):
    group = 128
    packed = qweight.view(N, K // 2)
    q = torch.stack((packed & 0x0F, packed >> 4), dim=-1).view(N, K)       # even column in the low nibble
    groups = math.ceil(K / group)
    s = scales.view(N, groups).repeat_interleave(group, dim=1)[:, :K]
    z = zeros.view(N, groups).repeat_interleave(group, dim=1)[:, :K]
    w = (q.to(torch.int16) - z.to(torch.int16)).to(torch.float16) * s
    return {"w": w.reshape(-1)}


def fake_quant_per_channel(w, scale, zero_point, C, K, **_):
    y = torch.fake_quantize_per_channel_affine(w.view(C, K), scale, zero_point, 0, -128, 127)
    return {"y": y.reshape(-1)}


# -------------------------------------------------------------------------------------------------- attention

def alibi_bias_add(scores, B, H, S, **_):
    # MosaicML llm-foundry, attention.py: gen_slopes and build_alibi_bias(full=True), alibi_bias_max = 8
    device = scores.device

    def gen_slopes(n_heads, alibi_bias_max=8):
        _n_heads = 2 ** math.ceil(math.log2(n_heads))
        m = torch.arange(1, _n_heads + 1, dtype=torch.float32, device=device)
        m = m.mul(alibi_bias_max / _n_heads)
        slopes = 1.0 / torch.pow(2, m)
        if _n_heads != n_heads:
            slopes = torch.concat([slopes[1::2], slopes[::2]])[:n_heads]
        return slopes.view(1, n_heads, 1, 1)

    attn_bias = torch.arange(1 - S, 1, dtype=torch.int32, device=device).view(1, 1, 1, S)
    attn_bias = attn_bias - torch.arange(1 - S, 1, dtype=torch.int32, device=device).view(1, 1, S, 1)
    attn_bias = attn_bias.abs().mul(-1)
    attn_bias = attn_bias * gen_slopes(H)
    attn_weight = scores.view(B, H, S, S) + attn_bias
    return {"scores": attn_weight.reshape(-1)}


# ------------------------------------------------------------------------------------------------ RL and losses

def ppo_clip_loss(logp, old_logp, advantages, mask, clip_eps, **_):
    # verl, trainer/ppo/core_algos.py: compute_policy_loss, per token before the masked mean
    negative_approx_kl = logp - old_logp
    ratio = torch.exp(negative_approx_kl)
    pg_losses = -advantages * ratio
    pg_losses2 = -advantages * torch.clamp(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
    clip_pg_losses = torch.maximum(pg_losses, pg_losses2)
    return {"loss": clip_pg_losses * mask.to(clip_pg_losses.dtype)}


def grpo_advantages(rewards, P, G, **_):
    # TRL GRPOTrainer._generate_and_score_completions
    mean_grouped_rewards = rewards.view(-1, G).mean(dim=1)
    std_grouped_rewards = rewards.view(-1, G).std(dim=1)
    mean_grouped_rewards = mean_grouped_rewards.repeat_interleave(G, dim=0)
    std_grouped_rewards = std_grouped_rewards.repeat_interleave(G, dim=0)
    advantages = (rewards - mean_grouped_rewards) / (std_grouped_rewards + 1e-4)
    return {"advantages": advantages}


def entropy_from_logits(logits, rows, V, **_):
    # verl, utils/torch_functional.py: entropy_from_logits
    logits = logits.view(rows, V)
    pd = torch.nn.functional.softmax(logits, dim=-1)
    entropy = torch.logsumexp(logits, dim=-1) - torch.sum(pd * logits, dim=-1)
    return {"entropy": entropy}


def min_p_probs(logits, min_p, rows, V, **_):
    # transformers MinPLogitsWarper (min_tokens_to_keep=1), then the softmax of sampling
    scores = logits.view(rows, V)
    probs = torch.softmax(scores, dim=-1)
    top_probs = probs.amax(dim=-1, keepdim=True)
    scaled_min_p = min_p * top_probs
    tokens_to_remove = probs < scaled_min_p
    sorted_indices = torch.argsort(scores, descending=True, dim=-1)
    sorted_indices_to_remove = torch.gather(tokens_to_remove, dim=-1, index=sorted_indices)
    sorted_indices_to_remove[..., :1] = False
    indices_to_remove = sorted_indices_to_remove.scatter(1, sorted_indices, sorted_indices_to_remove)
    scores_processed = scores.masked_fill(indices_to_remove, -float("inf"))
    return {"probs": F.softmax(scores_processed, dim=-1).reshape(-1)}


def softcap_half2(x, cap, **_):
    # Gemma 2 final-logit soft-capping, in fp32 then back to the logits' dtype
    return {"y": (torch.tanh(x.float() / cap) * cap).to(x.dtype)}


# ----------------------------------------------------------------------------------------------- linear backward

def linear_bias_grad(dy, db, N, C, **_):
    # the bias gradient of nn.Linear, accumulated into a zeroed .grad
    return {"db": db + dy.view(N, C).sum(0)}


def linear_weight_grad(dy, x, T, O, I, **_):
    # the weight gradient of nn.Linear: grad_output.t().mm(input)
    with _full_fp32():
        dW = dy.view(T, O).t().mm(x.view(T, I))
    return {"dW": dW.reshape(-1)}


PEERS = {
    "lion_step": (lion_step, ["param", "exp_avg"]),
    "amp_unscale_inf_check": (amp_unscale_inf_check, ["grads", "found_inf"]),
    "dequant_int4_groups": (dequant_int4_groups, ["w"]),
    "fake_quant_per_channel": (fake_quant_per_channel, ["y"]),
    "alibi_bias_add": (alibi_bias_add, ["scores"]),
    "ppo_clip_loss": (ppo_clip_loss, ["loss"]),
    "grpo_advantages": (grpo_advantages, ["advantages"]),
    "entropy_from_logits": (entropy_from_logits, ["entropy"]),
    "min_p_probs": (min_p_probs, ["probs"]),
    "softcap_half2": (softcap_half2, ["y"]),
    "linear_bias_grad": (linear_bias_grad, ["db"]),
    "linear_weight_grad": (linear_weight_grad, ["dW"]),
}
