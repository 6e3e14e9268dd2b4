"""The tile classifier network: a small depthwise-separable CNN in plain ``torch.nn``.

Input ``N x 3 x 80 x 60`` (normalised RGB, see companion.vision.preprocess); outputs the class logits
(43 tiles + "unknown") and an L2-normalised 128-d embedding used for calibration prototypes.

The stem is a 4x4 convolution with stride 4 (each 4x4 patch of 48 values becomes 48 channels, so nothing is
lost) instead of a 3x3 stride-2 convolution and a block at 40 x 30: the layers at the highest resolution
cost most of the time on a CPU, and dropping them made 72 crops about 2-3x faster at one thread.

The head is a cosine classifier: ``logits = LOGIT_SCALE * cos(embedding, class weight)``. Training it so
makes the embedding itself the thing that separates the classes, so a prototype built from a player's own
tiles (calibration) lives in the same space as the trained class weights and can be blended with them
(``companion.vision.calibration``; the scale travels in the ONNX metadata as ``logit_scale``).
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["TileNet", "LOGIT_SCALE", "load_weights", "interpolated"]

LOGIT_SCALE = 20.0


def _cbr(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True)]


def _sep(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    """Depthwise 3x3 then pointwise 1x1."""
    return _cbr(cin, cin, 3, stride, cin) + _cbr(cin, cout, 1)


class TileNet(nn.Module):
    def __init__(self, num_classes: int = 44, widths: tuple[int, int, int, int] = (48, 64, 128, 192),
                 embed: int = 128) -> None:
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(
            nn.Conv2d(3, a, 4, 4, 0, bias=False), nn.BatchNorm2d(a), nn.ReLU(inplace=True),  # 20 x 15 patches
            *_sep(a, b),  # 20 x 15
            *_sep(b, c, 2), *_sep(c, c), *_sep(c, c),  # 10 x 8
            *_sep(c, d, 2), *_sep(d, d),  # 5 x 4
        )
        self.embed = nn.Sequential(nn.Linear(d, embed), nn.BatchNorm1d(embed))
        self.head = nn.Linear(embed, num_classes, bias=False)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        e = nn.functional.normalize(self.embed(self.features(x).mean(dim=(2, 3))), dim=1)
        w = nn.functional.normalize(self.head.weight, dim=1)
        return LOGIT_SCALE * e @ w.t(), e


def load_weights(model: TileNet, path: object) -> None:
    """Weights saved by ``--save-ckpt``; a checkpoint of the earlier linear head (with a bias) keeps its
    weight rows as the cosine head's class directions and drops the bias."""
    state = torch.load(path, map_location="cpu", weights_only=True)  # type: ignore[arg-type]
    state.pop("head.bias", None)
    model.load_state_dict(state)


def interpolated(start: dict[str, torch.Tensor], end: dict[str, torch.Tensor], share: float) -> dict[str, torch.Tensor]:
    """The weights ``share`` of the way from ``start`` to ``end`` (1: ``end`` itself), the batch-norm statistics
    alike; counters (integer tensors) are ``end``'s.

    A fine-tune taken only part of the way from its start (Wortsman et al., "Robust fine-tuning of zero-shot
    models", 2022: WiSE-FT) can keep more of what the start knew, here the rendered styles the real crops'
    fine-tune forgets, while keeping much of what the fine-tune learned."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"the share of the way to the fine-tuned weights must be 0-1, got {share}")
    if start.keys() != end.keys():
        raise ValueError(f"the two sets of weights differ: {sorted(start.keys() ^ end.keys())}")
    return {k: end[k] if not end[k].is_floating_point() else start[k] + share * (end[k] - start[k]) for k in end}
