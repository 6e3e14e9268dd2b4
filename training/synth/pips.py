"""Dots (筒): pip designs, the big 1-dot and the classic layouts of 2-9 dots.

Colours are indices into the style's ink palette (0 = blue/dark, 1 = green, 2 = red), following the usual
arrangement (6 dots: two green over four red, 9 dots: rows of blue, red, green...).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from training.synth.draw import FH, FW, RGB, ellipse, mix

__all__ = ["PIP_DESIGNS", "draw_dots"]

PIP_DESIGNS = ("rings", "rosette", "coin", "dot", "wheel", "double")

# (x, y, colour index) in face units (0-1); radius per rank.
_A, _B, _C = 0, 1, 2
LAYOUTS: dict[int, tuple[list[tuple[float, float, int]], float]] = {
    2: ([(0.5, 0.27, _B), (0.5, 0.73, _A)], 0.2),
    3: ([(0.24, 0.2, _A), (0.5, 0.5, _C), (0.76, 0.8, _B)], 0.155),
    4: ([(0.28, 0.28, _A), (0.72, 0.28, _B), (0.28, 0.72, _B), (0.72, 0.72, _A)], 0.17),
    5: ([(0.25, 0.22, _A), (0.75, 0.22, _B), (0.5, 0.5, _C), (0.25, 0.78, _B), (0.75, 0.78, _A)], 0.15),
    6: ([(0.29, 0.17, _B), (0.71, 0.17, _B), (0.29, 0.52, _C), (0.71, 0.52, _C), (0.29, 0.82, _C),
         (0.71, 0.82, _C)], 0.135),
    7: ([(0.2, 0.1, _B), (0.5, 0.2, _B), (0.8, 0.3, _B), (0.3, 0.56, _C), (0.7, 0.56, _C), (0.3, 0.85, _C),
         (0.7, 0.85, _C)], 0.11),
    8: ([(x, y, _A) for y in (0.12, 0.37, 0.63, 0.88) for x in (0.3, 0.7)], 0.105),
    9: ([(x, y, c) for y, c in ((0.17, _A), (0.5, _C), (0.83, _B)) for x in (0.18, 0.5, 0.82)], 0.135),
}


def _pip(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, ink: RGB, bg: RGB, design: str,
         accent: RGB) -> None:
    if design == "rings":
        ellipse(d, cx, cy, r, r, fill=ink)
        ellipse(d, cx, cy, r * 0.78, r * 0.78, fill=bg)
        ellipse(d, cx, cy, r * 0.6, r * 0.6, fill=ink)
        ellipse(d, cx, cy, r * 0.42, r * 0.42, fill=bg)
        ellipse(d, cx, cy, r * 0.25, r * 0.25, fill=ink)
    elif design == "rosette":
        ellipse(d, cx, cy, r, r, outline=ink, width=max(2, round(r * 0.12)))
        for k in range(8):
            a = k * math.pi / 4
            ellipse(d, cx + math.cos(a) * r * 0.55, cy + math.sin(a) * r * 0.55, r * 0.2, r * 0.2, fill=ink)
        ellipse(d, cx, cy, r * 0.22, r * 0.22, fill=accent)
    elif design == "coin":
        ellipse(d, cx, cy, r, r, fill=ink)
        ellipse(d, cx, cy, r * 0.7, r * 0.7, outline=bg, width=max(2, round(r * 0.1)))
        s = r * 0.25
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=bg)
    elif design == "dot":
        ellipse(d, cx, cy, r, r, fill=ink)
        ellipse(d, cx, cy, r * 0.62, r * 0.62, outline=bg, width=max(2, round(r * 0.12)))
    elif design == "wheel":
        ellipse(d, cx, cy, r, r, outline=ink, width=max(2, round(r * 0.18)))
        for k in range(8):
            a = k * math.pi / 4
            d.line((cx, cy, cx + math.cos(a) * r * 0.85, cy + math.sin(a) * r * 0.85), fill=ink,
                   width=max(2, round(r * 0.13)))
        ellipse(d, cx, cy, r * 0.3, r * 0.3, fill=accent)
    else:  # double
        ellipse(d, cx, cy, r, r, fill=ink)
        ellipse(d, cx, cy, r * 0.72, r * 0.72, fill=bg)
        ellipse(d, cx, cy, r * 0.52, r * 0.52, fill=accent)
        ellipse(d, cx, cy, r * 0.22, r * 0.22, fill=bg)


def _big_one(d: ImageDraw.ImageDraw, inks: tuple[RGB, RGB, RGB], bg: RGB, design: str, variant: int) -> None:
    cx, cy, r = FW / 2, FH / 2, FW * 0.42
    outer, mid, inner = inks[1], inks[0], inks[2]
    if variant % 3 == 1:
        outer, mid = inks[0], inks[1]
    ellipse(d, cx, cy, r, r, fill=outer)
    ellipse(d, cx, cy, r * 0.9, r * 0.9, fill=bg)
    n = 12 + 4 * (variant % 2)
    for k in range(n):  # ring of petals / beads
        a = 2 * math.pi * k / n
        ellipse(d, cx + math.cos(a) * r * 0.72, cy + math.sin(a) * r * 0.72, r * 0.13, r * 0.13,
                fill=mid if k % 2 == 0 or variant % 2 else outer)
    ellipse(d, cx, cy, r * 0.5, r * 0.5, fill=inner if variant % 3 != 2 else mid)
    ellipse(d, cx, cy, r * 0.38, r * 0.38, fill=bg)
    _pip(d, cx, cy, r * 0.3, inner, bg, design, outer)


def draw_dots(img: Image.Image, rank: int, inks: tuple[RGB, RGB, RGB], bg: RGB, design: str,
              variant: int, area: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> None:
    """Draw ``rank`` dots into the face-relative ``area`` (x0, y0, x1, y1) of ``img``."""
    d = ImageDraw.Draw(img)
    if rank == 1:
        _big_one(d, inks, bg, design, variant)
        return
    pts, r = LAYOUTS[rank]
    x0, y0, x1, y1 = area
    w, h = (x1 - x0) * FW, (y1 - y0) * FH
    rad = r * min(w, h * 0.75) * (0.95 if variant % 2 else 1.0)
    for x, y, c in pts:
        ink = inks[c]
        if rank == 8 and variant % 3 == 2:
            ink = inks[0] if y < 0.5 else inks[1]
        _pip(d, x0 * FW + x * w, y0 * FH + y * h, rad, ink, bg, design, mix(inks[2], ink, 0.3))
