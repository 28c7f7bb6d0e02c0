"""Independent PyTorch implementations of the twenty-ninth held-out set of kernels (tests/heldout36/*.cu), in the form
of tests/heldout35/peers.py: PEERS[kernel] = (fn, outputs), fn(**flat arrays, scalars and sizes) -> {output: flat
tensor} with each out / inout array's length and dtype (an inout array comes with its value before the launch).

Written the way the code base each kernel ports (or PyTorch) computes the operator, with PyTorch calls on whole
tensors, not as translations of the kernels: Darknet's shortcut as a scaled add on strided views of the two maps,
Darknet's reorg as the view / permute that its index mapping amounts to, TensorFlow's crop_and_resize through
`F.grid_sample(align_corners=True)` (sampled in float64) with the extrapolation mask, OpenCV's NV12 -> RGB and pyrDown with OpenCV's
fixed-point formulas on int32 / float64 tensors (pyrDown as a strided `F.conv2d` of a BORDER_REFLECT_101 padded
image), Caffe's infogain loss terms from the gathered rows of H and `torch.log(torch.clamp(prob, min=1e-20))`, the
PReLU weight gradient by `torch.autograd.grad` of `F.prelu`, the center loss from `centers[labels]`, FlowNet's
correlation as 441 shifted channel means of a zero-padded map, pysot's `xcorr_depthwise` as its grouped `F.conv2d`,
Caffe's col2im as `F.fold`, and Darknet's maxpool as `F.max_pool2d(return_indices=True)` of a -inf padded map. Sizes
are Python ints, float scalars Python floats; arrays are torch.float32 except the uint8 images and planes of
nv12_to_rgb and pyr_down_u8, the float16 image of CropAndResizeKernel and the float16 maps of
xcorr_depthwise_kernel, the int32 box indices, labels and pool indexes, and the int64 labels of the center loss.
The peers only call operators on their inputs and on index or weight tensors made on the input's device, so they
run on a GPU as on the CPU. Every product and convolution runs with TF32 turned off (restored afterwards), since
the kernels compute in full fp32."""

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


# ------------------------------------------------------------------------------------------------ maps + gathers

def shortcut_kernel(add, out, s1, s2, batch, w1, h1, c1, w2, h2, c2, **_):
    # Darknet [shortcut]: out = alpha * out + beta * add on the common extent; the larger map is subsampled
    stride = max(w1 // w2, 1)
    sample = max(w2 // w1, 1)
    mc, mh, mw = min(c1, c2), min(h1, h2), min(w1, w2)
    y = out.clone().view(batch, c2, h2, w2)
    a = add.view(batch, c1, h1, w1)
    dst = y[:, :mc, ::sample, ::sample][:, :, :mh, :mw]
    src = a[:, :mc, ::stride, ::stride][:, :, :mh, :mw]
    dst.copy_(s1 * dst + s2 * src)
    return {"out": y.reshape(-1)}


def reorg_kernel(x, stride, forward, batch, c, h, w, **_):
    # Darknet's reorg (forward=0): the [batch, c, h, w] input read as [batch, c/s^2, h*s, w*s]; output channel
    # (sy * s + sx) * (c/s^2) + c2 at (j, i) takes that map's (c2, j*s + sy, i*s + sx)
    assert forward == 0
    s = stride
    oc = c // (s * s)
    xv = x.view(batch, oc, h, s, w, s)
    return {"out": xv.permute(0, 3, 5, 1, 2, 4).reshape(-1)}


def CropAndResizeKernel(image_ptr, boxes_ptr, box_ind_ptr, extrapolation_value, batch, image_height, image_width,
                        depth, num_boxes, crop_height, crop_width, **_):
    # tf.image.crop_and_resize (bilinear) through F.grid_sample with align_corners=True (sample points in pixels)
    H, W, dev = image_height, image_width, image_ptr.device
    img = image_ptr.view(batch, H, W, depth).permute(0, 3, 1, 2).double()
    y1, x1, y2, x2 = boxes_ptr.view(num_boxes, 4).unbind(1)
    ys = torch.arange(crop_height, device=dev, dtype=torch.float32)
    xs = torch.arange(crop_width, device=dev, dtype=torch.float32)
    if crop_height > 1:
        in_y = y1[:, None] * (H - 1) + ys[None, :] * ((y2 - y1) * (H - 1) / (crop_height - 1))[:, None]
    else:
        in_y = (0.5 * (y1 + y2) * (H - 1))[:, None]
    if crop_width > 1:
        in_x = x1[:, None] * (W - 1) + xs[None, :] * ((x2 - x1) * (W - 1) / (crop_width - 1))[:, None]
    else:
        in_x = (0.5 * (x1 + x2) * (W - 1))[:, None]
    # the points in float64, so that normalizing and unnormalizing them moves them by no visible amount
    gy = in_y.double() / (H - 1) * 2 - 1 if H > 1 else torch.zeros_like(in_y, dtype=torch.float64)
    gx = in_x.double() / (W - 1) * 2 - 1 if W > 1 else torch.zeros_like(in_x, dtype=torch.float64)
    grid = torch.stack(torch.broadcast_tensors(gx[:, None, :], gy[:, :, None]), dim=-1)   # [boxes, ch, cw, 2]
    crops = torch.empty(num_boxes, crop_height, crop_width, depth, device=dev, dtype=torch.float32)
    for b in range(batch):
        sel = (box_ind_ptr == b).nonzero().flatten()
        if sel.numel() == 0:
            continue
        g = grid[sel].reshape(1, -1, crop_width, 2)
        s = F.grid_sample(img[b:b + 1], g, mode="bilinear", padding_mode="zeros", align_corners=True)
        crops[sel] = s.view(depth, sel.numel(), crop_height, crop_width).permute(1, 2, 3, 0).float()
    outside = ((in_y < 0) | (in_y > H - 1))[:, :, None] | ((in_x < 0) | (in_x > W - 1))[:, None, :]
    crops = torch.where(outside[..., None], torch.full_like(crops, extrapolation_value), crops)
    return {"crops_ptr": crops.reshape(-1)}


def nv12_to_rgb(y_plane, uv_plane, dst, src_step, dst_step, width, height, **_):
    # cv::cvtColor(COLOR_YUV2RGB_NV12), OpenCV's fixed-point BT.601 (ITUR_BT_601_* constants, shift 20)
    CY, CUB, CUG, CVG, CVR, SHIFT = 1220542, 2116026, -409993, -852492, 1673527, 20
    Y = y_plane.view(height, src_step)[:, :width].to(torch.int32)
    uv = uv_plane.view(height // 2, src_step)[:, :width].to(torch.int32).view(height // 2, width // 2, 2)
    u = uv[..., 0].repeat_interleave(2, 0).repeat_interleave(2, 1) - 128
    v = uv[..., 1].repeat_interleave(2, 0).repeat_interleave(2, 1) - 128
    half = 1 << (SHIFT - 1)
    yy = torch.clamp(Y - 16, min=0) * CY
    r = (yy + half + CVR * v) >> SHIFT
    g = (yy + half + CVG * v + CUG * u) >> SHIFT
    b = (yy + half + CUB * u) >> SHIFT
    rgb = torch.stack([r, g, b], dim=-1).clamp(0, 255).to(torch.uint8).view(height, 3 * width)
    out = dst.clone().view(height, dst_step)
    out[:, :3 * width] = rgb
    return {"dst": out.reshape(-1)}


# -------------------------------------------------------------------------------------------------- reductions

def InfogainLossForwardGPU(prob_data, label, infogain_mat, has_ignore_label_, ignore_label_, num, num_labels, height,
                           width, **_):
    # Caffe InfogainLoss terms: -sum_l H[label, l] * log(max(prob[l], kLOG_THRESHOLD)), 0 (and count 0) if ignored
    K, S = num_labels, height * width
    lbl = label.view(num, S).long()
    valid = lbl != ignore_label_ if has_ignore_label_ else torch.ones_like(lbl, dtype=torch.bool)
    rows = infogain_mat.view(K, K)[torch.where(valid, lbl, torch.zeros_like(lbl))]             # [num, S, K]
    logp = torch.log(torch.clamp(prob_data.view(num, K, S), min=1e-20))                        # [num, K, S]
    loss = -(rows.permute(0, 2, 1) * logp).sum(dim=1)
    loss = torch.where(valid, loss, torch.zeros_like(loss))
    return {"loss": loss.reshape(-1), "counts": valid.to(prob_data.dtype).reshape(-1)}


def prelu_cuda_backward_weight_kernel(grad_output, input, batch, channels, spatial, **_):
    # d/dw of nn.PReLU(channels) by autograd (the weight's value does not enter its own gradient)
    x = input.view(batch, channels, spatial)
    w = torch.full((channels,), 0.25, dtype=x.dtype, device=x.device, requires_grad=True)
    with torch.enable_grad():
        y = F.prelu(x, w)
        (gw,) = torch.autograd.grad(y, w, grad_output.view(batch, channels, spatial))
    return {"grad_weight": gw.detach()}


def center_loss_forward_kernel1(x, centers, labels, N, C, num_classes, **_):
    # Wen et al. center loss, per sample: 0.5 * ||x_i - c_{y_i}||^2
    d = x.view(N, C) - centers.view(num_classes, C)[labels.long()]
    return {"losses": 0.5 * d.pow(2).sum(dim=1)}


# ------------------------------------------------------------------------------------------ products + convolutions

def CorrelationForward(bottom0, bottom1, num, channels, height, width, neighborhood_grid_radius, stride2, **_):
    # FlowNetC correlation (kernel_size 1): mean over channels of f1 * shifted f2, zero padded, one channel a shift
    md = neighborhood_grid_radius * stride2
    f1 = bottom0.view(num, channels, height, width)
    f2 = F.pad(bottom1.view(num, channels, height, width), (md, md, md, md))
    planes = []
    for dy in range(-md, md + 1, stride2):
        for dx in range(-md, md + 1, stride2):
            shifted = f2[:, :, md + dy:md + dy + height, md + dx:md + dx + width]
            planes.append((f1 * shifted).sum(dim=1) / channels)
    return {"top": torch.stack(planes, dim=1).reshape(-1)}


def xcorr_depthwise_kernel(input, kernel, batch, channels, in_h, in_w, k_h, k_w, **_):
    # pysot xcorr_depthwise: grouped conv2d with one filter per (sample, channel); fp32 math, fp16 result
    x = input.view(1, batch * channels, in_h, in_w).float()
    k = kernel.view(batch * channels, 1, k_h, k_w).float()
    with _full_fp32():
        out = F.conv2d(x, k, groups=batch * channels)
    return {"output": out.to(input.dtype).reshape(-1)}


# --------------------------------------------------------------------------------------------- stencils + pools

def pyr_down_u8(src, dst, src_step, dst_step, rows, cols, **_):
    # cv::pyrDown: 5 x 5 binomial kernel / 256 with BORDER_REFLECT_101, every second pixel, (sum + 128) >> 8

    def reflect101(n, length):
        idx = torch.arange(-2, n + 2, device=src.device)
        if length == 1:
            return torch.zeros_like(idx)
        period = 2 * length - 2
        idx = torch.remainder(idx, period)
        return torch.where(idx >= length, period - idx, idx)

    img = src.view(rows, src_step)[:, :cols].to(torch.float64)
    padded = img[reflect101(rows, rows)][:, reflect101(cols, cols)]
    k = torch.tensor([1.0, 4.0, 6.0, 4.0, 1.0], dtype=torch.float64, device=src.device)
    weight = (k[:, None] * k[None, :]).view(1, 1, 5, 5)
    sums = F.conv2d(padded.view(1, 1, rows + 4, cols + 4), weight, stride=2)[0, 0]
    small = torch.floor((sums + 128) / 256).to(torch.uint8)
    out = dst.clone().view((rows + 1) // 2, dst_step)
    out[:, :(cols + 1) // 2] = small
    return {"dst": out.reshape(-1)}


def col2im_gpu_kernel(data_col, channels, height, width, kernel_h, kernel_w, pad_h, pad_w, stride_h, stride_w,
                      dilation_h, dilation_w, **_):
    # Caffe col2im = F.fold of the [C * kh * kw, L] column buffer
    cols = data_col.view(1, channels * kernel_h * kernel_w, -1)
    im = F.fold(cols, (height, width), kernel_size=(kernel_h, kernel_w), dilation=(dilation_h, dilation_w),
                padding=(pad_h, pad_w), stride=(stride_h, stride_w))
    return {"data_im": im.reshape(-1)}


def forward_maxpool_layer_kernel(input, size, stride, pad, batch, in_c, in_h, in_w, **_):
    # Darknet maxpool: pad/2 before and the rest of pad after each axis, padding never chosen (-inf);
    # indexes are flat indices into the whole input
    front = pad // 2
    back = pad - front
    x = input.view(batch, in_c, in_h, in_w)
    xp = F.pad(x, (front, back, front, back), value=float("-inf"))
    y, idx = F.max_pool2d(xp, size, stride, return_indices=True)
    wp = in_w + pad
    r = torch.div(idx, wp, rounding_mode="floor") - front
    q = torch.remainder(idx, wp) - front
    plane = torch.arange(batch * in_c, device=input.device).view(batch, in_c, 1, 1)
    flat = (plane * in_h + r) * in_w + q
    return {"output": y.reshape(-1), "indexes": flat.to(torch.int32).reshape(-1)}


PEERS = {
    "shortcut_kernel": (shortcut_kernel, ["out"]),
    "reorg_kernel": (reorg_kernel, ["out"]),
    "CropAndResizeKernel": (CropAndResizeKernel, ["crops_ptr"]),
    "nv12_to_rgb": (nv12_to_rgb, ["dst"]),
    "InfogainLossForwardGPU": (InfogainLossForwardGPU, ["loss", "counts"]),
    "prelu_cuda_backward_weight_kernel": (prelu_cuda_backward_weight_kernel, ["grad_weight"]),
    "center_loss_forward_kernel1": (center_loss_forward_kernel1, ["losses"]),
    "CorrelationForward": (CorrelationForward, ["top"]),
    "xcorr_depthwise_kernel": (xcorr_depthwise_kernel, ["output"]),
    "pyr_down_u8": (pyr_down_u8, ["dst"]),
    "col2im_gpu_kernel": (col2im_gpu_kernel, ["data_im"]),
    "forward_maxpool_layer_kernel": (forward_maxpool_layer_kernel, ["output", "indexes"]),
}
