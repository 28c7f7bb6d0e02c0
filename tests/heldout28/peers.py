"""Independent PyTorch implementations of the twenty-first held-out set of kernels (tests/heldout28/*.cu), in the form
of tests/heldout27/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way a KernelBench level 1 reference model computes each operator, with the PyTorch call it ports, not as
translations of the kernels: `F.conv1d` (stride 2, padding 6, dilation 3), a depthwise `F.conv2d` with a channel
multiplier (groups=C, a 5 x 3 kernel), `F.conv3d` with a 3 x 5 x 7 kernel, the ResNet stem `F.conv2d(stride=2,
padding=3)` on channels-last tensors, `F.conv_transpose3d(stride=2, padding=1)`, a strided 1 x 1 `F.conv2d`,
`F.conv_transpose2d` with asymmetric stride, padding and dilation and groups, wav2vec 2.0's grouped positional
`F.conv1d` with its `SamePad` trim, `torch.einsum("bijl,lk->bijk")`, the style-transfer Gram matrix
(`torch.bmm(f, f.transpose(1, 2)).div(C * H * W)`), `torch.matmul` of a 2-D by a 3-D tensor and
`torch.einsum("bhsd,hde->bse")`. Sizes are Python ints, float scalars Python floats; every array is torch.float32.
The peers only call operators on their inputs (views, permutes, slices), so they make no tensor of their own and run on
a GPU as on the CPU. Every product and convolution runs with TF32 turned off (restored afterwards), since the kernels
compute in full fp32."""

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


# -------------------------------------------------------------------------------------------------- convolutions

def conv1d_strided_dilated(x, weight, bias, N, Cin, Cout, L, **_):
    # nn.Conv1d(Cin, Cout, kernel_size=5, stride=2, padding=6, dilation=3)
    with _full_fp32():
        y = F.conv1d(x.view(N, Cin, L), weight.view(Cout, Cin, 5), bias, stride=2, padding=6, dilation=3)
    return {"y": y.reshape(-1)}


def depthwise_conv2d_mult(x, weight, bias, N, C, mult, H, W, **_):
    # nn.Conv2d(C, C * mult, kernel_size=(5, 3), padding=(2, 1), groups=C): weight of shape (C * mult, 1, 5, 3)
    with _full_fp32():
        y = F.conv2d(x.view(N, C, H, W), weight.view(C * mult, 1, 5, 3), bias, stride=1, padding=(2, 1), groups=C)
    return {"y": y.reshape(-1)}


def conv3d_asym_kernel(x, weight, N, Cin, Cout, D, H, W, **_):
    # KernelBench level 1, standard 3-D convolution with an asymmetric kernel: nn.Conv3d(Cin, Cout, (3, 5, 7), bias=False)
    with _full_fp32():
        y = F.conv3d(x.view(N, Cin, D, H, W), weight.view(Cout, Cin, 3, 5, 7), None)
    return {"y": y.reshape(-1)}


def conv2d_stem_nhwc(x, weight, N, H, W, Cin, Cout, ksize, stride, pad, **_):
    # ResNet stem nn.Conv2d(Cin, Cout, 7, stride=2, padding=3, bias=False) on channels_last tensors: the activations
    # are stored NHWC and the weight OHWI, so the logical NCHW / OIHW tensors are permuted views of the flat arrays
    xc = x.view(N, H, W, Cin).permute(0, 3, 1, 2)
    wc = weight.view(Cout, ksize, ksize, Cin).permute(0, 3, 1, 2)
    with _full_fp32():
        y = F.conv2d(xc, wc, None, stride=stride, padding=pad)
    return {"y": y.permute(0, 2, 3, 1).reshape(-1)}


def conv_transpose3d_k4s2(x, weight, bias, N, Cin, Cout, D, H, W, **_):
    # nn.ConvTranspose3d(Cin, Cout, kernel_size=4, stride=2, padding=1): weight of shape (Cin, Cout, 4, 4, 4)
    with _full_fp32():
        y = F.conv_transpose3d(x.view(N, Cin, D, H, W), weight.view(Cin, Cout, 4, 4, 4), bias, stride=2, padding=1)
    return {"y": y.reshape(-1)}


def conv1x1_stride2(x, weight, N, Cin, Cout, H, W, **_):
    # ResNet projection shortcut nn.Conv2d(Cin, Cout, kernel_size=1, stride=2, bias=False)
    with _full_fp32():
        y = F.conv2d(x.view(N, Cin, H, W), weight.view(Cout, Cin, 1, 1), None, stride=2)
    return {"y": y.reshape(-1)}


def conv_transpose2d_grouped(x, weight, bias, N, Cin, Cout, G, H, W, **_):
    # nn.ConvTranspose2d(Cin, Cout, (3, 5), stride=(3, 2), padding=(1, 2), dilation=(2, 1), groups=G):
    # weight of shape (Cin, Cout // G, 3, 5)
    with _full_fp32():
        y = F.conv_transpose2d(x.view(N, Cin, H, W), weight.view(Cin, Cout // G, 3, 5), bias,
                               stride=(3, 2), padding=(1, 2), dilation=(2, 1), groups=G)
    return {"y": y.reshape(-1)}


def pos_conv_grouped_nlc(x, w, bias, B, T, C, K, G, **_):
    # transformers' Wav2Vec2PositionalConvEmbedding without its activation: hidden_states.transpose(1, 2), then
    # nn.Conv1d(C, C, K, padding=K // 2, groups=G), then Wav2Vec2SamePadLayer (drops the last step when K is even),
    # then transpose(1, 2) back
    with _full_fp32():
        h = F.conv1d(x.view(B, T, C).transpose(1, 2), w.view(C, C // G, K), bias, padding=K // 2, groups=G)
    if K % 2 == 0:
        h = h[:, :, :-1]
    return {"y": h.transpose(1, 2).reshape(-1)}


# ------------------------------------------------------------------------------------------------------ products

def tensor4d_matmul(A, B, nb, ni, nj, nl, nk, **_):
    # KernelBench level 1, 11_4D_tensor_matrix_multiplication: torch.einsum("bijl,lk->bijk", A, B)
    with _full_fp32():
        C = torch.einsum("bijl,lk->bijk", A.view(nb, ni, nj, nl), B.view(nl, nk))
    return {"C": C.reshape(-1)}


def gram_matrix(feat, B, C, HW, **_):
    # neural style transfer's gram_matrix, batched: bmm(f, f^T) / (C * H * W)
    f = feat.view(B, C, HW)
    with _full_fp32():
        G = torch.bmm(f, f.transpose(1, 2)).div(C * HW)
    return {"gram": G.reshape(-1)}


def matmul_shared_lhs(A, B, batch, M, K, N, **_):
    # torch.matmul of (M, K) by (batch, K, N): A broadcast over the batch
    with _full_fp32():
        C = torch.matmul(A.view(M, K), B.view(batch, K, N))
    return {"C": C.reshape(-1)}


def heads_out_projection(o, W, B, H, S, D, E, **_):
    # attention output projection as an einsum over heads and head dimension
    with _full_fp32():
        out = torch.einsum("bhsd,hde->bse", o.view(B, H, S, D), W.view(H, D, E))
    return {"out": out.reshape(-1)}


PEERS = {
    "conv1d_strided_dilated": (conv1d_strided_dilated, ["y"]),
    "depthwise_conv2d_mult": (depthwise_conv2d_mult, ["y"]),
    "conv3d_asym_kernel": (conv3d_asym_kernel, ["y"]),
    "conv2d_stem_nhwc": (conv2d_stem_nhwc, ["y"]),
    "conv_transpose3d_k4s2": (conv_transpose3d_k4s2, ["y"]),
    "conv1x1_stride2": (conv1x1_stride2, ["y"]),
    "conv_transpose2d_grouped": (conv_transpose2d_grouped, ["y"]),
    "pos_conv_grouped_nlc": (pos_conv_grouped_nlc, ["y"]),
    "tensor4d_matmul": (tensor4d_matmul, ["C"]),
    "gram_matrix": (gram_matrix, ["gram"]),
    "matmul_shared_lhs": (matmul_shared_lhs, ["C"]),
    "heads_out_projection": (heads_out_projection, ["out"]),
}
