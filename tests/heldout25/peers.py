"""Independent PyTorch implementations of the eighteenth held-out set of naive kernels (tests/heldout25/*.cu), in the
form of tests/heldout24/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way PyTorch code computes each operator, not as translations of the kernels: CLIP's QuickGELU
(`x * torch.sigmoid(1.702 * x)` on float16), timm's EMA update (`Tensor.lerp`), F.gaussian_nll_loss, F.prelu,
`x + bias + residual` then F.layer_norm, sentence-transformers' cos_sim (F.normalize, then a matmul with the
transpose), Conway's rule from F.conv2d with a 3 x 3 neighbour kernel, torchvision's box_iou after a box_convert,
the boolean causal-and-padding mask that F.scaled_dot_product_attention takes, torch.topk, nanoGPT's token plus
position embedding (F.embedding twice) and F.scaled_dot_product_attention. Sizes are Python ints, float scalars
Python floats; the float16 activations come as torch.float16 tensors, the uint8 board as torch.uint8, the int64
attention mask as torch.int64, the int32 token ids as torch.int32, every other array as torch.float32; the bool mask
is returned as torch.bool and the top-k indices as torch.int64. The matmul of cos_sim, the convolution of the Game of
Life and scaled_dot_product_attention run with TF32 turned off (restored afterwards), since the kernels compute in
full fp32 and TF32 would miss their tolerances."""

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


# ------------------------------------------------------------------------------------------------- element-wise

def quick_gelu_half(x, **_):
    # open_clip / Hugging Face CLIP: QuickGELU, in the activations' dtype
    return {"y": x * torch.sigmoid(1.702 * x)}


def ema_update_float4(ema, model, decay, **_):
    # timm ModelEmaV3: ema_v.lerp_(model_v, weight=1. - decay)
    return {"ema": ema.clone().lerp_(model, 1.0 - decay)}


def gaussian_nll_loss(input, target, var, **_):
    return {"loss": F.gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="none")}


def prelu_forward(x, weight, N, C, H, W, **_):
    # nn.PReLU(num_parameters=C)
    return {"y": F.prelu(x.view(N, C, H, W), weight).reshape(-1)}


def token_position_embedding(idx, wte, wpe, B, T, C, V, **_):
    # nanoGPT GPT.forward: tok_emb = wte(idx); pos_emb = wpe(pos); x = tok_emb + pos_emb
    tokens = idx.view(B, T).long()
    pos = torch.arange(0, T, dtype=torch.long)
    tok_emb = F.embedding(tokens, wte.view(V, C))
    pos_emb = F.embedding(pos, wpe.view(T, C))
    return {"out": (tok_emb + pos_emb).reshape(-1)}


# ------------------------------------------------------------------------------------------------ rows and pairs

def add_bias_residual_layernorm(x, residual, bias, gamma, beta, eps, rows, D, **_):
    # post-LN sublayer output: LayerNorm(dense(x) + input), with the dense bias added here
    h = x.view(rows, D) + bias + residual.view(rows, D)
    y = F.layer_norm(h, (D,), gamma, beta, eps)
    return {"h": h.reshape(-1), "y": y.reshape(-1)}


def cosine_similarity_matrix(A, B, M, N, K, **_):
    # sentence_transformers.util.cos_sim
    a_norm = F.normalize(A.view(M, K), p=2, dim=1)
    b_norm = F.normalize(B.view(N, K), p=2, dim=1)
    with _full_fp32():
        S = torch.mm(a_norm, b_norm.transpose(0, 1))
    return {"S": S.reshape(-1)}


def topk4_rows(x, rows, cols, **_):
    values, indices = torch.topk(x.view(rows, cols), 4, dim=1)
    return {"values": values.reshape(-1), "indices": indices.reshape(-1)}


def box_iou_xywh(boxes1, boxes2, N, M, **_):
    # torchvision.ops.box_iou(box_convert(b1, "xywh", "xyxy"), box_convert(b2, "xywh", "xyxy"))
    def xywh_to_xyxy(boxes):
        x, y, w, h = boxes.unbind(-1)
        return torch.stack([x, y, x + w, y + h], dim=-1)

    def box_area(boxes):
        return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])

    b1 = xywh_to_xyxy(boxes1.view(N, 4))
    b2 = xywh_to_xyxy(boxes2.view(M, 4))
    area1, area2 = box_area(b1), box_area(b2)
    lt = torch.max(b1[:, None, :2], b2[:, :2])
    rb = torch.min(b1[:, None, 2:], b2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return {"iou": (inter / union).reshape(-1)}


# ----------------------------------------------------------------------------------------------------- attention

def sdpa_bool_mask(attention_mask, B, S, **_):
    causal = torch.ones(S, S, dtype=torch.bool).tril()
    mask = causal[None, None, :, :] & attention_mask.view(B, S)[:, None, None, :].bool()
    return {"mask": mask.reshape(-1)}


def attention_online_softmax(q, k, v, B, H, S, **_):
    shape = (B, H, S, 64)
    with _full_fp32():
        o = F.scaled_dot_product_attention(q.view(shape), k.view(shape), v.view(shape))
    return {"o": o.reshape(-1)}


# ---------------------------------------------------------------------------------------------------- image ops

def game_of_life_step(board, H, W, **_):
    neighbours = torch.ones(1, 1, 3, 3)
    neighbours[0, 0, 1, 1] = 0.0
    with _full_fp32():
        n = F.conv2d(board.view(1, 1, H, W).float(), neighbours, padding=1).view(H, W)
    alive = board.view(H, W).bool()
    nxt = (n == 3) | (alive & (n == 2))
    return {"out": nxt.to(torch.uint8).reshape(-1)}


PEERS = {
    "quick_gelu_half": (quick_gelu_half, ["y"]),
    "ema_update_float4": (ema_update_float4, ["ema"]),
    "gaussian_nll_loss": (gaussian_nll_loss, ["loss"]),
    "prelu_forward": (prelu_forward, ["y"]),
    "token_position_embedding": (token_position_embedding, ["out"]),
    "add_bias_residual_layernorm": (add_bias_residual_layernorm, ["h", "y"]),
    "cosine_similarity_matrix": (cosine_similarity_matrix, ["S"]),
    "topk4_rows": (topk4_rows, ["values", "indices"]),
    "box_iou_xywh": (box_iou_xywh, ["iou"]),
    "sdpa_bool_mask": (sdpa_bool_mask, ["mask"]),
    "attention_online_softmax": (attention_online_softmax, ["o"]),
    "game_of_life_step": (game_of_life_step, ["out"]),
}
