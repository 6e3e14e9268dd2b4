"""Small drawing primitives shared by the face modules: glyphs fitted into boxes, rotated ellipses.

All art is drawn on a face canvas of :data:`FW` x :data:`FH` pixels (the tile face, upright) and scaled
down by the caller, which gives anti-aliasing for free.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from training.synth.fonts import FontSpec, load

__all__ = ["FW", "FH", "RGB", "glyph_mask", "paste_text", "ellipse", "rot_poly", "mix"]

FW, FH = 300, 400
RGB = tuple[int, int, int]


@lru_cache(maxsize=2048)
def glyph_mask(spec: FontSpec, text: str, stroke: int = 0) -> Image.Image:
    """An ``L`` mask of ``text`` cropped to its ink (rendered at 160 px)."""
    font = load(spec, 160)
    sw = stroke + spec.stroke
    left, top, right, bottom = font.getbbox(text, stroke_width=sw)
    im = Image.new("L", (int(right - left) + 8, int(bottom - top) + 8), 0)
    ImageDraw.Draw(im).text((4 - left, 4 - top), text, fill=255, font=font, stroke_width=sw, stroke_fill=255)
    box = im.getbbox()
    return im.crop(box) if box else im


def paste_text(
    img: Image.Image,
    text: str,
    box: tuple[float, float, float, float],
    spec: FontSpec,
    color: RGB,
    *,
    stroke: int = 0,
    keep_aspect: bool = True,
    anchor: str = "c",
) -> None:
    """Draw ``text`` fitted into ``box`` (x0, y0, x1, y1). With ``keep_aspect`` the glyph keeps its
    proportions and is centred (``anchor`` 'c'), or pushed left ('l') or right ('r')."""
    m = glyph_mask(spec, text, stroke)
    x0, y0, x1, y1 = box
    bw, bh = max(1.0, x1 - x0), max(1.0, y1 - y0)
    if keep_aspect:
        s = min(bw / m.width, bh / m.height)
        w, h = max(1, round(m.width * s)), max(1, round(m.height * s))
    else:
        w, h = max(1, round(bw)), max(1, round(bh))
    mm = m.resize((w, h), Image.Resampling.BILINEAR)
    if anchor == "l":
        px = x0
    elif anchor == "r":
        px = x1 - w
    else:
        px = x0 + (bw - w) / 2
    py = y0 + (bh - h) / 2
    img.paste(Image.new("RGB", (w, h), color), (round(px), round(py)), mm)


def ellipse(d: ImageDraw.ImageDraw, cx: float, cy: float, rx: float, ry: float, **kw: object) -> None:
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), **kw)  # type: ignore[arg-type]


def rot_poly(cx: float, cy: float, pts: list[tuple[float, float]], deg: float) -> list[tuple[float, float]]:
    """Points (relative to the centre) rotated by ``deg`` and moved to (cx, cy)."""
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """``a`` moved a fraction ``t`` towards ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))
