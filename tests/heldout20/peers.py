"""Independent PyTorch implementations of the thirteenth held-out set of naive kernels (tests/heldout20/*.cu), in the
form of tests/heldout19/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way the LLM stacks' PyTorch code computes each operator (Hugging Face model code, vLLM's forward_native
paths and sampler, Megatron-LM's fused-op references, TRL, mamba_ssm's selective_scan_ref), not as translations of
the kernels. Sizes are Python ints, float scalars Python floats. The fp32 kernels compute in full fp32: every matmul
peer turns TF32 off (cuDNN's and cuBLAS's) for its call, and the fp16 products are computed on operands widened to
fp32 (the kernels accumulate in fp32 and write fp32). llama_rmsnorm_bf16's peer is LlamaRMSNorm.forward (fp32
variance, cast back to bfloat16, then the bfloat16 weight multiplies). quantize_rowwise_int8's peer rounds half to
even (torch.round), as rintf does. swiglu_bwd's peer takes the gradient through autograd. The accumulating kernels
(grad_sumsq_bf16, count_output_tokens, moe_scatter_combine and the two scalar losses) add into the given values
(zeroed by the contracts' const(0))."""

from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn.functional as F


@contextmanager
def _full_fp32():
    saved = torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    try:
        yield
    finally:
        torch.backends.cudnn.allow_tf32, torch.backends.cuda.matmul.allow_tf32 = saved


# ------------------------------------------------------------------------------------------------- layout ops

def permute_bshd_to_bhsd(x, B, S, H, D, **_):
    return {"out": x.view(B, S, H, D).transpose(1, 2).contiguous().reshape(-1)}


def concat_last_dim(a, b, rows, d1, d2, **_):
    return {"out": torch.cat((a.view(rows, d1), b.view(rows, d2)), dim=-1).reshape(-1)}


def write_kv_cache(k_new, v_new, k_cache, v_cache, B, S, H, D, max_len, start_pos, **_):
    # StaticCache.update: k_out.index_copy_(2, cache_position, key_states) with key_states = k.transpose(1, 2)
    cache_position = torch.arange(start_pos, start_pos + S)
    k_out = k_cache.clone().view(B, H, max_len, D)
    v_out = v_cache.clone().view(B, H, max_len, D)
    k_out.index_copy_(2, cache_position, k_new.view(B, S, H, D).transpose(1, 2))
    v_out.index_copy_(2, cache_position, v_new.view(B, S, H, D).transpose(1, 2))
    return {"k_cache": k_out.reshape(-1), "v_cache": v_out.reshape(-1)}


# ------------------------------------------------------------------------------------------------------ row ops

def llama_rmsnorm_bf16(x, weight, eps, rows, hidden, **_):
    hidden_states = x.view(rows, hidden)
    input_dtype = hidden_states.dtype
    hidden_states = hidden_states.to(torch.float32)
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + eps)
    return {"y": (weight * hidden_states.to(input_dtype)).reshape(-1)}


def quantize_rowwise_int8(x, tokens, hidden, **_):
    xf = x.view(tokens, hidden).float()
    amax = xf.abs().amax(dim=-1, keepdim=True)
    scale = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
    q = torch.round(xf / scale).clamp(-128, 127).to(torch.int8)
    return {"q": q.reshape(-1), "scale": scale.reshape(-1)}


# ---------------------------------------------------------------------------------------------- gated activations

def geglu_forward(x, tokens, d, **_):
    gate, up = x.view(tokens, 2 * d).chunk(2, dim=-1)
    return {"out": (F.gelu(gate) * up).reshape(-1)}


def swiglu_bwd(g, x, rows, d, **_):
    xs = x.view(rows, 2 * d).clone().requires_grad_(True)
    a, b = torch.chunk(xs, 2, dim=-1)
    y = F.silu(a) * b
    (dx,) = torch.autograd.grad(y, xs, grad_outputs=g.view(rows, d))
    return {"dx": dx.reshape(-1)}


# ----------------------------------------------------------------------------------------------------- rotary

def rotary_embedding_neox(positions, query, key, cos_sin_cache, T, H, KVH, D, max_pos, **_):
    # vLLM RotaryEmbedding.forward_native, is_neox_style=True, rotary_dim = head_size
    cos_sin = cos_sin_cache.view(max_pos, D).index_select(0, positions)
    cos, sin = cos_sin.chunk(2, dim=-1)
    cos, sin = cos.unsqueeze(-2), sin.unsqueeze(-2)

    def apply(x, heads):
        x = x.view(T, heads, D)
        x1, x2 = torch.chunk(x, 2, dim=-1)
        return torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1).reshape(-1)

    return {"query": apply(query, H), "key": apply(key, KVH)}


# ------------------------------------------------------------------------------------------------- reductions

def top2_softmax_router(router_logits, tokens, E, **_):
    routing_weights = F.softmax(router_logits.view(tokens, E), dim=1, dtype=torch.float)
    routing_weights, selected_experts = torch.topk(routing_weights, 2, dim=-1)
    routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
    return {"topk_weights": routing_weights.reshape(-1), "topk_ids": selected_experts.to(torch.int32).reshape(-1)}


def grad_sumsq_bf16(grad, total, **_):
    # the squared L2 norm as clip_grad_norm_ / Megatron compute it before the root, summed in fp32 as apex's
    # multi_tensor_l2norm does (torch.linalg.vector_norm(...) ** 2 on the CPU loses 3e-5 at 3e5 elements)
    return {"total": total + torch.sum(grad.float() ** 2)}


# ------------------------------------------------------------------------------------------------------- scans

def sorted_softmax_cumsum(logits_sort, batch, vocab, **_):
    probs_sort = logits_sort.view(batch, vocab).softmax(dim=-1)
    return {"cumprobs": probs_sort.cumsum(dim=-1).reshape(-1)}


def selective_scan_fwd(u, delta, A, Bm, Cm, Dskip, batch, dim, seqlen, **_):
    # mamba_ssm selective_scan_ref with B and C of shape (batch, dstate, seqlen), no z, no delta_bias / softplus
    u = u.view(batch, dim, seqlen)
    delta = delta.view(batch, dim, seqlen)
    A = A.view(dim, 16)
    B = Bm.view(batch, 16, seqlen)
    C = Cm.view(batch, 16, seqlen)
    deltaA = torch.exp(torch.einsum("bdl,dn->bdln", delta, A))
    deltaB_u = torch.einsum("bdl,bnl,bdl->bdln", delta, B, u)
    x = A.new_zeros((batch, dim, 16))
    ys = []
    for i in range(seqlen):
        x = deltaA[:, :, i] * x + deltaB_u[:, :, i]
        ys.append(torch.einsum("bdn,bn->bd", x, C[:, :, i]))
    y = torch.stack(ys, dim=2)
    out = y + u * Dskip.view(dim, 1)
    return {"y": out.reshape(-1)}


# ---------------------------------------------------------------------------------------------------- products

def mul_mat_vec_f16_f32(W, y, nrows, ncols, **_):
    with _full_fp32():
        dst = torch.mv(W.view(nrows, ncols).float(), y)
    return {"dst": dst}


def attn_probs_times_v(P, V, B, H, S, D, **_):
    with _full_fp32():
        attn_output = torch.matmul(P.view(B, H, S, S), V.view(B, S, H, D).transpose(1, 2))
    return {"out": attn_output.transpose(1, 2).contiguous().reshape(-1)}


def lm_head_logits(hidden, wte, T, V, d, **_):
    with _full_fp32():
        logits = F.linear(hidden.view(T, d).float(), wte.view(V, d).float())
    return {"logits": logits.reshape(-1)}


# ---------------------------------------------------------------------------------------------- scatter reductions

def count_output_tokens(tokens, counts, batch, L, vocab, **_):
    bin_counts = counts.view(batch, vocab).clone()
    bin_counts.scatter_add_(1, tokens.view(batch, L), torch.ones_like(tokens.view(batch, L), dtype=counts.dtype))
    return {"counts": bin_counts.reshape(-1)}


def moe_scatter_combine(expert_out, src_token, route_weight, out, N, D, T, **_):
    final_hidden_states = out.view(T, D).clone()
    current_hidden_states = expert_out.view(N, D) * route_weight.view(N, 1)
    final_hidden_states.index_add_(0, src_token.long(), current_hidden_states)
    return {"out": final_hidden_states.reshape(-1)}


# ------------------------------------------------------------------------------------------------------- losses

def gather_token_logprobs(logits, labels, T, V, **_):
    logps = torch.log_softmax(logits.view(T, V), dim=-1)
    return {"logp": torch.gather(logps, dim=-1, index=labels.view(T, 1)).squeeze(-1)}


def ce_label_smoothing_loss(logits, targets, loss, eps, rows, V, **_):
    ce = F.cross_entropy(logits.view(rows, V), targets.long(), label_smoothing=eps)
    return {"loss": loss + ce}


def dpo_sigmoid_loss(policy_chosen, policy_rejected, ref_chosen, ref_rejected, loss, beta, **_):
    pi_logratios = policy_chosen - policy_rejected
    ref_logratios = ref_chosen - ref_rejected
    logits = pi_logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    return {"loss": loss + losses.mean()}


PEERS = {
    "permute_bshd_to_bhsd": (permute_bshd_to_bhsd, ["out"]),
    "concat_last_dim": (concat_last_dim, ["out"]),
    "write_kv_cache": (write_kv_cache, ["k_cache", "v_cache"]),
    "llama_rmsnorm_bf16": (llama_rmsnorm_bf16, ["y"]),
    "quantize_rowwise_int8": (quantize_rowwise_int8, ["q", "scale"]),
    "geglu_forward": (geglu_forward, ["out"]),
    "swiglu_bwd": (swiglu_bwd, ["dx"]),
    "rotary_embedding_neox": (rotary_embedding_neox, ["query", "key"]),
    "top2_softmax_router": (top2_softmax_router, ["topk_weights", "topk_ids"]),
    "grad_sumsq_bf16": (grad_sumsq_bf16, ["total"]),
    "sorted_softmax_cumsum": (sorted_softmax_cumsum, ["cumprobs"]),
    "selective_scan_fwd": (selective_scan_fwd, ["y"]),
    "mul_mat_vec_f16_f32": (mul_mat_vec_f16_f32, ["dst"]),
    "attn_probs_times_v": (attn_probs_times_v, ["out"]),
    "lm_head_logits": (lm_head_logits, ["logits"]),
    "count_output_tokens": (count_output_tokens, ["counts"]),
    "moe_scatter_combine": (moe_scatter_combine, ["out"]),
    "gather_token_logprobs": (gather_token_logprobs, ["logp"]),
    "ce_label_smoothing_loss": (ce_label_smoothing_loss, ["loss"]),
    "dpo_sigmoid_loss": (dpo_sigmoid_loss, ["loss"]),
}
