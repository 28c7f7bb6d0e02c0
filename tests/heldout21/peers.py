"""Independent PyTorch implementations of the fourteenth held-out set of naive kernels (tests/heldout21/*.cu), in the
form of tests/heldout20/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch training and vision code computes each operator, not as translations of the kernels: the
backward passes are taken through torch.autograd.grad of the forward operator (F.embedding with padding_idx,
F.max_pool2d, F.cross_entropy, F.batch_norm in training mode, F.gelu, F.hardswish, F.smooth_l1_loss), so that ATen's
own backward kernels compute them; the glue is the models' own code (torchvision's channel_shuffle, Hugging Face's
repeat_kv, Swin's window_partition and torch.roll, F.pad, F.interpolate, a triu mask with masked_fill_, torch.where
with the mask token, F.relu(inplace=True), Tensor.add_(alpha=), an int8 weight widened to fp16 times its scales).
Sizes are Python ints, float scalars Python floats; bfloat16 and float16 arrays come as torch.bfloat16 / float16
tensors, so the bf16 / fp16 peers round where PyTorch rounds (once, after fp32 math). The accumulating kernels
(embedding_dense_backward, max_pool2d_backward) add into the given values (zeroed by the contracts' const(0))."""

from __future__ import annotations

import torch
import torch.nn.functional as F


# --------------------------------------------------------------------------------------- scatter backward passes

def embedding_dense_backward(grad_output, ids, grad_weight, padding_idx, T, D, V, **_):
    weight = torch.zeros(V, D, dtype=grad_output.dtype, device=grad_output.device, requires_grad=True)
    out = F.embedding(ids, weight, padding_idx=padding_idx)
    (grad,) = torch.autograd.grad(out, weight, grad_outputs=grad_output.view(T, D))
    return {"grad_weight": grad_weight + grad.reshape(-1)}


def max_pool2d_backward(x, dy, dx, P, H, W, **_):
    inp = x.view(1, P, H, W).clone().requires_grad_(True)      # the N*C planes as the channels of one image
    out = F.max_pool2d(inp, kernel_size=3, stride=2, padding=1)
    (grad,) = torch.autograd.grad(out, inp, grad_outputs=dy.view_as(out))
    return {"dx": dx + grad.reshape(-1)}


# ------------------------------------------------------------------------------------ row / channel backward passes

def cross_entropy_backward(logits, targets, dloss, rows, V, **_):
    inp = logits.view(rows, V).clone().requires_grad_(True)
    loss = F.cross_entropy(inp, targets)
    (grad,) = torch.autograd.grad(loss, inp, grad_outputs=torch.tensor(dloss, dtype=loss.dtype, device=loss.device))
    return {"dlogits": grad.reshape(-1)}


def batch_norm_backward(x, dy, weight, eps, N, C, HW, **_):
    inp = x.view(N, C, HW).clone().requires_grad_(True)
    w = weight.clone().requires_grad_(True)
    b = torch.zeros_like(weight, requires_grad=True)
    out = F.batch_norm(inp, None, None, w, b, training=True, eps=eps)
    dx, dweight, dbias = torch.autograd.grad(out, (inp, w, b), grad_outputs=dy.view(N, C, HW))
    return {"dx": dx.reshape(-1), "dweight": dweight, "dbias": dbias}


# ------------------------------------------------------------------------------- element-wise backward passes

def gelu_backward_bf16(dy, x, **_):
    inp = x.clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(F.gelu(inp), inp, grad_outputs=dy)        # approximate="none"
    return {"dx": grad}


def hardswish_backward(dy, x, **_):
    inp = x.clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(F.hardswish(inp), inp, grad_outputs=dy)
    return {"dx": grad}


def smooth_l1_loss_backward(pred, target, beta, boxes, **_):
    inp = pred.view(boxes, 4).clone().requires_grad_(True)
    loss = F.smooth_l1_loss(inp, target.view(boxes, 4), reduction="mean", beta=beta)
    (grad,) = torch.autograd.grad(loss, inp)
    return {"dpred": grad.reshape(-1)}


# -------------------------------------------------------------------------------------------------- layout

def channel_shuffle(x, N, C, HW, G, **_):
    # torchvision.models.shufflenetv2.channel_shuffle, with H * W flattened
    batchsize, num_channels = N, C
    channels_per_group = num_channels // G
    y = x.view(batchsize, G, channels_per_group, HW)
    y = torch.transpose(y, 1, 2).contiguous()
    return {"out": y.view(batchsize, num_channels, HW).reshape(-1)}


def repeat_kv(kv, B, KVH, H, S, D, **_):
    # transformers.models.llama.modeling_llama.repeat_kv
    n_rep = H // KVH
    hidden_states = kv.view(B, KVH, S, D)
    hidden_states = hidden_states[:, :, None, :, :].expand(B, KVH, n_rep, S, D)
    return {"out": hidden_states.reshape(B, KVH * n_rep, S, D).reshape(-1)}


def window_partition(x, B, H, W, C, **_):
    # Swin Transformer's window_partition(x, window_size=7)
    window_size = 7
    y = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    windows = y.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)
    return {"out": windows.reshape(-1)}


# ------------------------------------------------------------------------------------ padding and resampling

def constant_pad2d(x, P, H, W, pad_left, pad_right, pad_top, pad_bottom, **_):
    out = F.pad(x.view(P, H, W), (pad_left, pad_right, pad_top, pad_bottom), mode="constant", value=0.0)
    return {"out": out.reshape(-1)}


def upsample_nearest2x_nchw(x, P, H, W, **_):
    out = F.interpolate(x.view(1, P, H, W), scale_factor=2, mode="nearest")
    return {"out": out.reshape(-1)}


def roll_shift_windows(x, B, H, W, C, shift, **_):
    shifted_x = torch.roll(x.view(B, H, W, C), shifts=(-shift, -shift), dims=(1, 2))
    return {"out": shifted_x.reshape(-1)}


# --------------------------------------------------------------------------------------------- masks and selects

def causal_mask_fill_half(scores, BH, Sq, Sk, **_):
    causal = torch.ones(Sq, Sk, device=scores.device).triu(diagonal=Sk - Sq + 1).bool()
    out = scores.view(BH, Sq, Sk).clone()
    out.masked_fill_(causal, -1e4)
    return {"scores": out.reshape(-1)}


def mask_token_where(x, bool_masked_pos, mask_token, B, L, D, **_):
    mask = bool_masked_pos.view(B, L).bool().unsqueeze(-1)
    out = torch.where(mask, mask_token.view(1, 1, D), x.view(B, L, D))
    return {"out": out.reshape(-1)}


# ------------------------------------------------------------------------------------- in place and dequantize

def relu_inplace_half(x, **_):
    y = x.clone()
    F.relu(y, inplace=True)
    return {"x": y}


def sgd_step_bf16(param, grad, lr, **_):
    p = param.clone()
    p.add_(grad, alpha=-lr)
    return {"param": p}


def dequant_int8_per_channel(q, scale, rows, cols, **_):
    w = q.view(rows, cols).to(torch.float16) * scale.view(rows, 1)
    return {"w": w.reshape(-1)}


PEERS = {
    "embedding_dense_backward": (embedding_dense_backward, ["grad_weight"]),
    "max_pool2d_backward": (max_pool2d_backward, ["dx"]),
    "cross_entropy_backward": (cross_entropy_backward, ["dlogits"]),
    "batch_norm_backward": (batch_norm_backward, ["dx", "dweight", "dbias"]),
    "gelu_backward_bf16": (gelu_backward_bf16, ["dx"]),
    "hardswish_backward": (hardswish_backward, ["dx"]),
    "smooth_l1_loss_backward": (smooth_l1_loss_backward, ["dpred"]),
    "channel_shuffle": (channel_shuffle, ["out"]),
    "repeat_kv": (repeat_kv, ["out"]),
    "window_partition": (window_partition, ["out"]),
    "constant_pad2d": (constant_pad2d, ["out"]),
    "upsample_nearest2x_nchw": (upsample_nearest2x_nchw, ["out"]),
    "roll_shift_windows": (roll_shift_windows, ["out"]),
    "causal_mask_fill_half": (causal_mask_fill_half, ["scores"]),
    "mask_token_where": (mask_token_where, ["out"]),
    "relu_inplace_half": (relu_inplace_half, ["x"]),
    "sgd_step_bf16": (sgd_step_bf16, ["param"]),
    "dequant_int8_per_channel": (dequant_int8_per_channel, ["w"]),
}
