"""Bamboo (條): segmented sticks in several designs, the layouts of 2-9 bamboo and the 1-bamboo bird.

Stick colours are indices into the style's bamboo palette (0 = green, 1 = red, 2 = blue).
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from training.synth.draw import FH, FW, RGB, ellipse, mix, rot_poly

__all__ = ["STICK_DESIGNS", "BIRD_DESIGNS", "draw_bamboo", "draw_bird"]

STICK_DESIGNS = ("segments", "beads", "waist", "plain")
BIRD_DESIGNS = ("peacock", "sparrow", "crane", "phoenix", "stick")

_G, _R, _B = 0, 1, 2
# (x, y, angle, colour), stick length (fraction of face height)
LAYOUTS: dict[int, tuple[list[tuple[float, float, float, int]], float]] = {
    2: ([(0.5, 0.27, 0, _B), (0.5, 0.73, 0, _G)], 0.36),
    3: ([(0.5, 0.27, 0, _B), (0.3, 0.73, 0, _G), (0.7, 0.73, 0, _G)], 0.36),
    4: ([(0.3, 0.27, 0, _B), (0.7, 0.27, 0, _G), (0.3, 0.73, 0, _G), (0.7, 0.73, 0, _B)], 0.36),
    5: ([(0.22, 0.27, 0, _G), (0.78, 0.27, 0, _B), (0.5, 0.5, 0, _R), (0.22, 0.73, 0, _B),
         (0.78, 0.73, 0, _G)], 0.36),
    6: ([(x, y, 0.0, _G if y < 0.5 else _B) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)], 0.36),
    7: ([(0.5, 0.17, 0, _R)] + [(x, y, 0.0, _G if y < 0.6 else _B) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
        0.28),
    8: ([(0.17, 0.27, -22, _G), (0.39, 0.27, 22, _G), (0.61, 0.27, -22, _G), (0.83, 0.27, 22, _G),
         (0.17, 0.73, 22, _B), (0.39, 0.73, -22, _B), (0.61, 0.73, 22, _B), (0.83, 0.73, -22, _B)], 0.38),
    9: ([(x, y, 0.0, _R if x == 0.5 else (_G if y != 0.5 else _B)) for y in (0.17, 0.5, 0.83)
         for x in (0.2, 0.5, 0.8)], 0.28),
}


def _stick(d: ImageDraw.ImageDraw, cx: float, cy: float, length: float, width: float, deg: float, ink: RGB,
           bg: RGB, design: str) -> None:
    n = 3
    seg = length / n
    for k in range(n):
        oy = -length / 2 + seg * (k + 0.5)
        if design == "beads":
            pts = [(math.cos(t) * width / 2, oy + math.sin(t) * seg * 0.48) for t in _CIRCLE]
            d.polygon(rot_poly(cx, cy, pts, deg), fill=ink)
        elif design == "waist":
            w2, h2 = width / 2, seg / 2
            pts = [(-w2, -h2), (w2, -h2), (w2 * 0.55, 0), (w2, h2), (-w2, h2), (-w2 * 0.55, 0)]
            d.polygon(rot_poly(cx, cy + 0, [(x, y + oy) for x, y in pts], deg), fill=ink)
        else:
            w2, h2 = width / 2, seg / 2 * 0.9
            d.polygon(rot_poly(cx, cy, [(-w2, oy - h2), (w2, oy - h2), (w2, oy + h2), (-w2, oy + h2)], deg),
                      fill=ink)
        if design != "plain":  # light centre line
            a, b = rot_poly(cx, cy, [(0, oy - seg * 0.3), (0, oy + seg * 0.3)], deg)
            d.line((a, b), fill=bg, width=max(1, round(width * 0.18)))
        # node bands between segments
        nodes = [(-width * 0.62, oy - seg / 2), (width * 0.62, oy - seg / 2)]
        a, b = rot_poly(cx, cy, nodes, deg)
        d.line((a, b), fill=ink, width=max(2, round(width * 0.28)))
    a, b = rot_poly(cx, cy, [(-width * 0.62, length / 2), (width * 0.62, length / 2)], deg)
    d.line((a, b), fill=ink, width=max(2, round(width * 0.28)))


_CIRCLE = [2 * math.pi * k / 16 for k in range(16)]


def draw_bamboo(img: Image.Image, rank: int, inks: tuple[RGB, RGB, RGB], bg: RGB, design: str, variant: int,
                area: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> None:
    """Draw ``rank`` (2-9) sticks into the face-relative ``area`` of ``img``."""
    d = ImageDraw.Draw(img)
    pts, length = LAYOUTS[rank]
    x0, y0, x1, y1 = area
    w, h = (x1 - x0) * FW, (y1 - y0) * FH
    width = FW * (0.1 if rank < 6 else 0.085) * (0.85 if variant % 2 else 1.0)
    for x, y, ang, c in pts:
        ink = inks[c] if variant % 3 else (inks[_R] if c == _R else inks[_G])
        _stick(d, x0 * FW + x * w, y0 * FH + y * h, length * h, width, ang, ink, bg, design)


def draw_bird(img: Image.Image, inks: tuple[RGB, RGB, RGB], bg: RGB, design: str, seed: int) -> None:
    """A stylised bird standing on the face (the 1 bamboo), or a single big stick for ``stick``."""
    d = ImageDraw.Draw(img)
    r = random.Random(seed)
    green, red, blue = inks
    if design == "stick":
        _stick(d, FW / 2, FH / 2, FH * 0.75, FW * 0.2, 0, green, bg, "segments")
        return
    cx, cy = FW * r.uniform(0.45, 0.55), FH * r.uniform(0.45, 0.55)
    flip = -1 if r.random() < 0.5 else 1
    body = (green, blue, red)[r.randrange(3)] if design != "peacock" else green
    if design in ("peacock", "phoenix"):
        for k in range(7):  # fanned tail feathers
            ang = math.radians(70 + k * 12) * flip
            ex, ey = cx + math.cos(ang) * FW * 0.42 * flip, cy + math.sin(abs(ang)) * FH * 0.38
            d.line((cx, cy, ex, ey), fill=(blue, green, red)[k % 3], width=7)
            ellipse(d, ex, ey, 14, 18, fill=(red, blue, green)[k % 3])
            ellipse(d, ex, ey, 6, 8, fill=bg)
    elif design == "crane":
        d.line((cx - 10, cy + 60, cx - 20, FH * 0.92), fill=red, width=6)
        d.line((cx + 10, cy + 60, cx + 20, FH * 0.92), fill=red, width=6)
    ellipse(d, cx, cy, FW * 0.2, FH * 0.16, fill=body)
    ellipse(d, cx + flip * 8, cy + 10, FW * 0.12, FH * 0.08, fill=mix(body, bg, 0.5))  # wing
    for k in range(4):  # wing feathers
        d.line((cx - flip * 20, cy - 10 + k * 12, cx + flip * 40, cy + k * 14), fill=blue, width=4)
    hx, hy = cx + flip * FW * 0.18, cy - FH * 0.22
    d.line((cx + flip * 15, cy - 30, hx, hy), fill=body, width=22)  # neck
    ellipse(d, hx, hy, 26, 24, fill=body)
    ellipse(d, hx + flip * 6, hy - 6, 6, 6, fill=bg)
    ellipse(d, hx + flip * 7, hy - 6, 3, 3, fill=(20, 20, 20))
    d.polygon([(hx + flip * 22, hy - 6), (hx + flip * 50, hy + 4), (hx + flip * 22, hy + 10)], fill=red)
    if design == "sparrow":
        d.polygon([(cx - flip * 40, cy + 10), (cx - flip * 120, cy + 90), (cx - flip * 80, cy + 100)], fill=blue)
        d.line((FW * 0.15, FH * 0.75, FW * 0.85, FH * 0.7), fill=mix(red, (90, 50, 20), 0.5), width=10)
    if design == "phoenix":
        for k in range(3):  # crest
            d.line((hx, hy - 20, hx + flip * (k * 14 - 10), hy - 60), fill=red, width=5)
