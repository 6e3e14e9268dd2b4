"""The tile classifier network: a small depthwise-separable CNN in plain ``torch.nn``.

Input ``N x 3 x 80 x 60`` (normalised RGB, see companion.vision.preprocess); outputs the class logits
(43 tiles + "unknown") and an L2-normalised 128-d embedding used for calibration prototypes.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["TileNet"]


def _cbr(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> list[nn.Module]:
    return [nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False), nn.BatchNorm2d(cout),
            nn.ReLU(inplace=True)]


def _sep(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    """Depthwise 3x3 then pointwise 1x1."""
    return _cbr(cin, cin, 3, stride, cin) + _cbr(cin, cout, 1)


class TileNet(nn.Module):
    def __init__(self, num_classes: int = 44, widths: tuple[int, int, int, int] = (32, 64, 128, 192),
                 embed: int = 128) -> None:
        super().__init__()
        a, b, c, d = widths
        self.features = nn.Sequential(
            *_cbr(3, a, 3, 2), *_sep(a, a),  # 40 x 30
            *_sep(a, b, 2), *_sep(b, b),  # 20 x 15
            *_sep(b, c, 2), *_sep(c, c), *_sep(c, c),  # 10 x 8
            *_sep(c, d, 2), *_sep(d, d),  # 5 x 4
        )
        self.embed = nn.Sequential(nn.Linear(d, embed), nn.BatchNorm1d(embed))
        self.head = nn.Linear(embed, num_classes)
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        e = self.embed(self.features(x).mean(dim=(2, 3)))
        logits = self.head(self.drop(torch.relu(e)))
        return logits, nn.functional.normalize(e, dim=1)
