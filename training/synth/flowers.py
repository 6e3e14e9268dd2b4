"""Flowers (花): seasons 春夏秋冬 and the four plants, with their characters and printed numbers 1-4.

The plant art (plum, orchid, chrysanthemum, bamboo) and a few generic flower paintings are drawn from
simple strokes. Which plant carries 3 and which 4 differs between sets; the art is therefore chosen by
the style (``plant_swap``) while the label is always the printed number.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from training.synth.draw import FH, FW, RGB, ellipse, mix

__all__ = ["PLANTS", "draw_plant", "draw_bouquet"]

PLANTS = ("plum", "orchid", "chrysanthemum", "bamboo")
_BROWN: RGB = (110, 60, 30)


def _blossom(d: ImageDraw.ImageDraw, x: float, y: float, r: float, petal: RGB, centre: RGB, n: int = 5) -> None:
    for k in range(n):
        a = 2 * math.pi * k / n
        ellipse(d, x + math.cos(a) * r * 0.6, y + math.sin(a) * r * 0.6, r * 0.5, r * 0.5, fill=petal)
    ellipse(d, x, y, r * 0.3, r * 0.3, fill=centre)


def _leaf(d: ImageDraw.ImageDraw, x: float, y: float, length: float, ang: float, width: float, ink: RGB) -> None:
    a = math.radians(ang)
    ex, ey = x + math.cos(a) * length, y - math.sin(a) * length
    nx, ny = -math.sin(a) * width, -math.cos(a) * width
    mx, my = (x + ex) / 2, (y + ey) / 2
    d.polygon([(x, y), (mx + nx, my + ny), (ex, ey), (mx - nx, my - ny)], fill=ink)


def _plum(d: ImageDraw.ImageDraw, r: random.Random, inks: tuple[RGB, RGB, RGB], area: tuple[float, ...]) -> None:
    x0, y0, x1, y1 = area
    pts = [(x0 + (x1 - x0) * r.uniform(0.1, 0.3), y1)]
    for k in range(1, 5):
        pts.append((x0 + (x1 - x0) * r.uniform(0.2, 0.8), y1 - (y1 - y0) * k / 4.5))
    d.line(pts, fill=_BROWN, width=9, joint="curve")
    for px, py in pts[1:]:
        _blossom(d, px + r.uniform(-20, 20), py, r.uniform(22, 30), inks[2], (240, 200, 60))


def _orchid(d: ImageDraw.ImageDraw, r: random.Random, inks: tuple[RGB, RGB, RGB], area: tuple[float, ...]) -> None:
    x0, y0, x1, y1 = area
    bx, by = (x0 + x1) / 2, y1
    for k in range(5):
        ang = 40 + k * 25 + r.uniform(-8, 8)
        pts = []
        for t in range(8):
            s = t / 7
            a = math.radians(ang - 30 * s * (1 if ang > 90 else -1))
            pts.append((bx + math.cos(a) * s * (y1 - y0) * 0.85, by - math.sin(a) * s * (y1 - y0) * 0.85))
        d.line(pts, fill=inks[1], width=6)
    for _ in range(2):
        fx, fy = bx + r.uniform(-60, 60), y0 + (y1 - y0) * r.uniform(0.15, 0.45)
        for k in range(3):
            _leaf(d, fx, fy, 34, 90 + k * 120 + r.uniform(-10, 10), 12, inks[0] if r.random() < 0.5 else inks[2])
        ellipse(d, fx, fy, 7, 7, fill=(230, 190, 40))


def _chrys(d: ImageDraw.ImageDraw, r: random.Random, inks: tuple[RGB, RGB, RGB], area: tuple[float, ...]) -> None:
    x0, y0, x1, y1 = area
    cx, cy = (x0 + x1) / 2 + r.uniform(-20, 20), y0 + (y1 - y0) * 0.35
    d.line((cx, cy, cx + r.uniform(-30, 30), y1), fill=inks[1], width=8)
    for k in range(3):
        _leaf(d, cx, y0 + (y1 - y0) * (0.55 + 0.12 * k), 70, 20 + 140 * (k % 2), 22, inks[1])
    petal = inks[2] if r.random() < 0.6 else (220, 170, 20)
    for k in range(18):
        a = 2 * math.pi * k / 18
        ellipse(d, cx + math.cos(a) * 34, cy + math.sin(a) * 30, 14, 9, fill=petal, outline=mix(petal, (0, 0, 0), 0.4))
    ellipse(d, cx, cy, 20, 18, fill=mix(petal, (255, 220, 0), 0.5))


def _bamboo(d: ImageDraw.ImageDraw, r: random.Random, inks: tuple[RGB, RGB, RGB], area: tuple[float, ...]) -> None:
    x0, y0, x1, y1 = area
    for k in range(2):
        sx = x0 + (x1 - x0) * (0.35 + 0.3 * k) + r.uniform(-10, 10)
        top = y0 + (y1 - y0) * (0.05 + 0.2 * k)
        d.line((sx, y1, sx + r.uniform(-15, 15), top), fill=inks[1], width=14)
        for j in range(1, 4):
            ny = top + (y1 - top) * j / 4
            d.line((sx - 10, ny, sx + 10, ny), fill=mix(inks[1], (0, 0, 0), 0.5), width=4)
            _leaf(d, sx, ny, 60, 30 if (j + k) % 2 else 150, 12, inks[1])
    if r.random() < 0.5:
        _blossom(d, x0 + (x1 - x0) * 0.5, y1 - 30, 22, inks[2], (240, 200, 60))


_ART = {"plum": _plum, "orchid": _orchid, "chrysanthemum": _chrys, "bamboo": _bamboo}


def draw_plant(img: Image.Image, plant: str, inks: tuple[RGB, RGB, RGB], seed: int,
               area: tuple[float, float, float, float]) -> None:
    """Draw one of :data:`PLANTS` into the face-relative ``area``."""
    x0, y0, x1, y1 = area
    _ART[plant](ImageDraw.Draw(img), random.Random(seed), inks, (x0 * FW, y0 * FH, x1 * FW, y1 * FH))


def draw_bouquet(img: Image.Image, inks: tuple[RGB, RGB, RGB], seed: int,
                 area: tuple[float, float, float, float]) -> None:
    """A generic flower painting (seasons): a few blossoms on leafy stems, from ``seed``."""
    r = random.Random(seed)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = (area[0] * FW, area[1] * FH, area[2] * FW, area[3] * FH)
    bx = (x0 + x1) / 2
    for _ in range(r.randint(2, 4)):
        fx, fy = r.uniform(x0 + 40, x1 - 40), r.uniform(y0 + 30, (y0 + y1) / 2 + 20)
        d.line((bx + r.uniform(-20, 20), y1, fx, fy), fill=inks[1], width=6)
        _leaf(d, (bx + fx) / 2, (y1 + fy) / 2, 50, r.choice((25, 155)), 14, inks[1])
        petal = inks[2] if r.random() < 0.7 else inks[0]
        _blossom(d, fx, fy, r.uniform(24, 36), petal, mix(petal, (255, 255, 255), 0.5), n=r.choice((5, 6, 8)))
    if r.random() < 0.4:  # a pot or vase
        d.polygon([(bx - 50, y1 - 50), (bx + 50, y1 - 50), (bx + 35, y1), (bx - 35, y1)], fill=inks[0])
