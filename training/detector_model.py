"""The tile detector network, its training targets and loss (plain ``torch.nn``).

A CenterNet-style detector: a light depthwise-separable backbone down to stride 32, a top-down path back
to stride 4, and one head that predicts, per stride-4 cell,

- ``heat`` (2 channels): a peak at the centre of each face-up tile (channel 0) and face-down tile (1);
- ``reg`` (6 channels): sub-cell offset of the centre (2), log width and height in cells (2), and the
  direction of the tile's "up" as (cos, sin) of its angle (2).

The exported graph ends in the sigmoid and a 3x3 max-pool peak filter, so decoding is a threshold and a
gather (:func:`companion.vision.detect.decode`).
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

STRIDE = 4
CLASSES = ("tile_up", "tile_down")


def _cbr(cin: int, cout: int, k: int = 1, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout),
                         nn.ReLU(inplace=True))


class Block(nn.Module):
    """Depthwise 3x3 then pointwise 1x1, residual when the shape allows."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.dw = _cbr(cin, cin, 3, stride, groups=cin)
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        return F.relu(y + x if self.residual else y)


class TileDetector(nn.Module):
    def __init__(self, width: tuple[int, int, int, int, int] = (16, 32, 64, 128, 160), neck: int = 48,
                 fine: int = 32, extra: int = 0) -> None:
        """``extra``: residual blocks added after the stride-8 and the stride-4 fusions, started as the
        identity (:meth:`load_deeper` grows a trained detector without changing what it computes)."""
        super().__init__()
        self.extra = extra
        c1, c4, c8, c16, c32 = width
        self.stem = _cbr(3, c1, 3, 2)
        self.s4 = nn.Sequential(Block(c1, c4, 2), Block(c4, c4))
        self.s8 = nn.Sequential(Block(c4, c8, 2), Block(c8, c8), Block(c8, c8))
        self.s16 = nn.Sequential(Block(c8, c16, 2), Block(c16, c16), Block(c16, c16))
        self.s32 = nn.Sequential(Block(c16, c32, 2), Block(c32, c32))
        self.lat32, self.lat16, self.lat8 = _cbr(c32, neck), _cbr(c16, neck), _cbr(c8, neck)
        self.lat4, self.down8 = _cbr(c4, fine), _cbr(neck, fine)
        self.fuse8, self.fuse4 = Block(neck, neck), Block(fine, fine)
        self.more8 = nn.Sequential(*(Block(neck, neck) for _ in range(extra)))
        self.more4 = nn.Sequential(*(Block(fine, fine) for _ in range(extra)))
        for blk in (*self.more8, *self.more4):
            assert isinstance(blk, Block)
            bn = blk.pw[1]
            assert isinstance(bn, nn.BatchNorm2d)
            nn.init.zeros_(bn.weight)  # y = 0, so relu(y + x) = x: the block starts as the identity
        self.head = nn.Sequential(Block(fine, fine), nn.Conv2d(fine, 8, 1))
        last = self.head[1]
        assert isinstance(last, nn.Conv2d) and last.bias is not None
        nn.init.constant_(last.bias[:2], -4.0)  # start with few peaks (focal-loss prior)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.stem(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        p = self.lat32(f32)
        p = self.lat16(f16) + F.interpolate(p, size=f16.shape[-2:], mode="nearest")
        p = self.more8(self.fuse8(self.lat8(f8) + F.interpolate(p, size=f8.shape[-2:], mode="nearest")))
        p = self.more4(self.fuse4(self.lat4(f4) + F.interpolate(self.down8(p), size=f4.shape[-2:], mode="nearest")))
        out: torch.Tensor = self.head(p)
        return out


    def load_deeper(self, state: dict[str, torch.Tensor]) -> None:
        """Weights of a detector with fewer ``extra`` blocks: its own layers are loaded, the blocks it lacks
        keep their identity start. Any other mismatch is an error."""
        missing, unexpected = self.load_state_dict(state, strict=False)
        bad = [k for k in missing if not k.startswith(("more8.", "more4."))] + list(unexpected)
        if bad:
            raise ValueError(f"checkpoint does not fit this detector: {bad[:5]}")

    def load_folded(self, folded: dict[str, tuple[np.ndarray, np.ndarray]], x: torch.Tensor) -> None:
        """Weights of an exported detector, whose batch norms the export folded into its convolutions:
        ``folded`` maps each convolution's module path (``s4.0.dw.0``) to its weight and bias. Each batch
        norm gets back the statistics that ``x`` (a batch of training windows) gives its convolution's
        output, and the scale and shift that undo them, so the detector computes what the file computes in
        eval mode and nearly that in training mode, and trains on as a network with batch norms."""
        modules = dict(self.named_modules())
        convs = {name for name, m in modules.items() if isinstance(m, nn.Conv2d)}
        if set(folded) != convs:
            raise ValueError(f"the file's convolutions do not fit this detector: missing {sorted(convs - set(folded))[:5]}, "
                             f"unexpected {sorted(set(folded) - convs)[:5]}")
        stats: dict[str, tuple[nn.BatchNorm2d, torch.Tensor, torch.Tensor]] = {}
        hooks = []
        with torch.no_grad():
            for name, (w, b) in folded.items():
                conv = modules[name]
                assert isinstance(conv, nn.Conv2d)
                if tuple(conv.weight.shape) != w.shape:
                    raise ValueError(f"{name}: weight {w.shape} where this detector has {tuple(conv.weight.shape)}")
                conv.weight.copy_(torch.from_numpy(w))
                if conv.bias is not None:
                    conv.bias.copy_(torch.from_numpy(b))
                    continue
                bn = self._norm_after(name, modules)
                bn.reset_parameters()  # the identity until the statistics are known
                assert bn.running_mean is not None and bn.running_var is not None  # a BatchNorm2d tracks them
                bn.bias.copy_(torch.from_numpy(b))
                bn.running_var.fill_(1.0 - bn.eps)

                def keep(_m: nn.Module, _i: object, out: torch.Tensor, name: str = name,
                         bn: nn.BatchNorm2d = bn) -> None:
                    stats[name] = (bn, out.mean((0, 2, 3)), out.var((0, 2, 3), unbiased=False))

                hooks.append(conv.register_forward_hook(keep))
            was = self.training
            self.eval()
            try:
                self(x)
            finally:
                for h in hooks:
                    h.remove()
                self.train(was)
            for bn, mean, var in stats.values():
                assert bn.running_mean is not None and bn.running_var is not None
                # (a channel x leaves dead gets a scale near sqrt(eps): training mode then computes what eval
                # mode does on x's windows; x should be real training windows, as --from-onnx gives it)
                bn.running_mean.copy_(mean)
                bn.running_var.copy_(var)
                bn.weight.copy_(torch.sqrt(var + bn.eps))
                bn.bias.add_(mean)

    @staticmethod
    def _norm_after(conv: str, modules: dict[str, nn.Module]) -> nn.BatchNorm2d:
        parent, index = conv.rsplit(".", 1)
        bn = modules.get(f"{parent}.{int(index) + 1}")
        if not isinstance(bn, nn.BatchNorm2d):
            raise ValueError(f"{conv}: no batch norm after it")
        return bn


class ExportWrapper(nn.Module):
    """Normalisation in, peaks out: ``image`` (1x3xHxW float BGR 0-255) -> ``heat`` (peaks only), ``reg``."""

    def __init__(self, net: TileDetector, mean: float, std: float) -> None:
        super().__init__()
        self.net, self.mean, self.std = net, mean, std

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.net((image - self.mean) / self.std)
        heat = torch.sigmoid(out[:, :2])
        peaks = heat * (F.max_pool2d(heat, 3, 1, 1) == heat).to(heat.dtype)
        return peaks, out[:, 2:]


# --- targets -----------------------------------------------------------------------------------------------

POSITIVE = 0.6
"""A tile whose visible share is at least this is a detection target."""
IGNORE = 0.2
"""Between IGNORE and POSITIVE a tile is neither a target nor background (no loss around it)."""


def make_targets(boxes: np.ndarray, shape: tuple[int, int]) -> dict[str, np.ndarray]:
    """Training targets for one image of ``shape`` (h, w) in pixels from its boxes (N x 7: cx, cy, w, h,
    angle degrees, face_up 0/1, visible share)."""
    h, w = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((2, h, w), np.float32)
    weight = np.ones((h, w), np.float32)
    reg = np.zeros((6, h, w), np.float32)
    mask = np.zeros((2, h, w), np.float32)  # [0] regression at the centre; [1] face-down (angle mod 180)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for cx, cy, bw, bh, angle, up, vis in boxes:
        if vis < IGNORE:
            continue
        gx, gy = cx / STRIDE, cy / STRIDE
        sigma = max(0.5, min(bw, bh) / STRIDE / 6)
        ix, iy = int(gx), int(gy)
        if not (0 <= ix < w and 0 <= iy < h):
            continue
        r = int(3 * sigma) + 1
        x0, x1, y0, y1 = max(0, ix - r), min(w, ix + r + 1), max(0, iy - r), min(h, iy + r + 1)
        g = np.exp(-((xx[y0:y1, x0:x1] - ix) ** 2 + (yy[y0:y1, x0:x1] - iy) ** 2) / (2 * sigma**2))
        if vis < POSITIVE:
            weight[y0:y1, x0:x1] = np.minimum(weight[y0:y1, x0:x1], 1 - (g > 0.1))
            continue
        c = 0 if up > 0.5 else 1
        heat[c, y0:y1, x0:x1] = np.maximum(heat[c, y0:y1, x0:x1], g)
        a = math.radians(angle)
        reg[:, iy, ix] = (gx - ix, gy - iy, math.log(bw / STRIDE), math.log(bh / STRIDE), math.cos(a), math.sin(a))
        mask[0, iy, ix] = 1
        mask[1, iy, ix] = 1 - up
    return {"heat": heat, "weight": weight, "reg": reg, "mask": mask}


def detector_loss(out: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor, reg: torch.Tensor,
                  mask: torch.Tensor) -> tuple[torch.Tensor, dict[str, float]]:
    """Penalty-reduced focal loss on the heatmap, L1 on offsets, log sizes and the angle vector."""
    pred = torch.sigmoid(out[:, :2]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1 - 1e-4).float()
    w = weight[:, None]
    pos_loss = -(torch.log(pred) * (1 - pred) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - pred) * pred**2 * (1 - heat) ** 4 * (1 - pos) * w).sum()
    n = pos.sum().clamp(min=1)
    focal = (pos_loss + neg_loss) / n
    m = mask[:, :1]
    r = out[:, 2:]
    off = (F.l1_loss(r[:, 0:2], reg[:, 0:2], reduction="none") * m).sum() / n
    size = (F.l1_loss(r[:, 2:4], reg[:, 2:4], reduction="none") * m).sum() / n
    ang_full = (r[:, 4:6] - reg[:, 4:6]).abs().sum(1, keepdim=True)
    ang_flip = (r[:, 4:6] + reg[:, 4:6]).abs().sum(1, keepdim=True)
    down = mask[:, 1:2]
    ang = torch.where(down > 0.5, torch.minimum(ang_full, ang_flip), ang_full)
    angle = (ang * m).sum() / n
    total = focal + off + size + 0.5 * angle
    parts = {"focal": focal, "off": off, "size": size, "angle": angle}
    return total, {k: float(v.detach()) for k, v in parts.items()}
