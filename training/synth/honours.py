"""Honour art that is not a character: the white dragon's frame and picture dragons for 中 and 發."""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from training.synth.draw import FH, FW, RGB, ellipse, mix, paste_text
from training.synth.fonts import LATIN_FONT

__all__ = ["draw_white", "draw_dragon_art"]


def draw_white(img: Image.Image, design: str, ink: RGB, bg: RGB) -> None:
    """The white dragon: a frame, a double frame, a blank face or a frame with a letter."""
    d = ImageDraw.Draw(img)
    if design == "blank":
        return
    box = (FW * 0.17, FH * 0.14, FW * 0.83, FH * 0.86)
    d.rounded_rectangle(box, radius=14, outline=ink, width=14)
    if design in ("double", "letter"):
        inner = (box[0] + 26, box[1] + 26, box[2] - 26, box[3] - 26)
        d.rectangle(inner, outline=mix(ink, bg, 0.15), width=5)
        for cx, cy in ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])):
            d.rectangle((cx - 12, cy - 12, cx + 12, cy + 12), fill=ink)
    if design == "letter":
        paste_text(img, "B", (FW * 0.4, FH * 0.42, FW * 0.6, FH * 0.58), LATIN_FONT, ink)


def draw_dragon_art(img: Image.Image, ink: RGB, bg: RGB, seed: int) -> None:
    """A serpent dragon climbing the face: a wavy scaled body, claws and a horned head."""
    r = random.Random(seed)
    d = ImageDraw.Draw(img)
    amp, waves = FW * r.uniform(0.12, 0.2), r.uniform(1.2, 2.0)
    pts = []
    for k in range(40):
        t = k / 39
        pts.append((FW / 2 + math.sin(t * waves * 2 * math.pi) * amp, FH * (0.9 - 0.7 * t)))
    for k, (x, y) in enumerate(pts):
        rad = 24 - k * 0.3
        ellipse(d, x, y, rad, rad * 0.8, fill=ink)
        if k % 3 == 0:
            ellipse(d, x, y, rad * 0.45, rad * 0.35, fill=mix(ink, bg, 0.6))
    for k in (10, 24):  # claws
        x, y = pts[k]
        side = 1 if k == 10 else -1
        d.line((x, y, x + side * 50, y - 10), fill=ink, width=7)
        for c in range(3):
            d.line((x + side * 50, y - 10, x + side * 62, y - 22 + c * 12), fill=ink, width=4)
    hx, hy = pts[-1]
    ellipse(d, hx, hy - 10, 30, 24, fill=ink)
    d.line((hx - 10, hy - 25, hx - 30, hy - 60), fill=ink, width=6)
    d.line((hx + 10, hy - 25, hx + 30, hy - 60), fill=ink, width=6)
    ellipse(d, hx + 8, hy - 14, 5, 5, fill=bg)
