"""Tile faces in many styles, from a seed.

``render_face(tile, style, size)`` draws one upright tile as an RGBA picture: the face art (characters in a
CJK font, dots, bamboo, the 1-bamboo bird, honours, seasons and plants with their printed numbers, optional
Western corner indices) on an ivory face, the tile body around it and the back-coloured layer showing as
the tile's thickness at the bottom; ``Tile.UNKNOWN`` (``0x``) is the face-down back. Pixels outside the
rounded body are transparent. ``face_box`` says where the face lies inside that picture.

``sample_style(rng, split)`` draws a :class:`FaceStyle`. The ``"heldout"`` split uses fonts, ink palettes,
pip/bamboo/bird designs and flower art seeds that ``"train"`` never uses, so accuracy on held-out styles
measures generalisation to unseen tile sets. ``CLEAN_STYLE`` is the plain style of the product's tile
pictures (``training/render_faces.py``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from companion.tiles import Tile
from training.synth import pips
from training.synth.bamboo import BIRD_DESIGNS, STICK_DESIGNS, draw_bamboo, draw_bird
from training.synth.draw import FH, FW, RGB, mix, paste_text
from training.synth.flowers import PLANTS, draw_bouquet, draw_plant
from training.synth.fonts import HELDOUT_FONTS, LATIN_FONT, TRAIN_FONTS, FontSpec
from training.synth.honours import draw_dragon_art, draw_white

__all__ = ["FaceStyle", "sample_style", "render_face", "face_box", "CLEAN_STYLE", "SPLITS"]

SPLITS = ("train", "heldout")
_NUMERALS = "一二三四五六七八九"
_WIND_LETTERS = "ESWN"
_SEASON_LATIN = ("SPR", "SUM", "AUT", "WIN")


@dataclass(frozen=True, slots=True)
class FaceStyle:
    """Everything that makes one tile set look the way it does (all 43 faces share one style)."""

    font: FontSpec
    stroke: int  # extra glyph weight, 0-4
    stretch: float  # glyph width factor
    face: RGB  # face colour (ivory, white)
    back: RGB  # back / thickness colour
    border: float  # body rim around the face, fraction of face width
    thickness: float  # back layer visible below the face, fraction of face height
    radius: float  # corner radius, fraction of width
    ink_num: RGB  # numerals on characters tiles
    ink_wan: RGB  # 萬
    ink_wind: RGB
    ink_red: RGB
    ink_green: RGB
    ink_white: RGB  # white dragon frame
    white: str  # white dragon design: frame, double, blank, letter
    dragon_art: bool  # 中/發 drawn as dragon pictures instead of characters
    pip_inks: tuple[RGB, RGB, RGB]  # blue, green, red
    pip_design: str
    bamboo_inks: tuple[RGB, RGB, RGB]  # green, red, blue
    stick_design: str
    bird: str
    flower_inks: tuple[RGB, RGB, RGB]  # dark, green, red
    flower_digits: bool  # printed numbers 1-4 on flowers
    flower_latin: bool  # seasons say SPR/SUM/AUT/WIN instead of 春夏秋冬
    flower_numerals: str  # how flowers print their number: "arabic" (1-4) or "chinese" (一二三四)
    line_art: bool  # flower paintings drawn as outlines (ink line drawings) instead of filled shapes
    plant_chars: str  # characters of plants 1-4 in art order (梅蘭菊竹)
    plant_swap: bool  # chrysanthemum carries 4 and bamboo 3
    corner_index: bool  # Western corner indices (digits, E S W N)
    ink_index: RGB
    five: str  # 五 or 伍
    wear: float  # 0 new - 0.5 worn
    seed: int  # art details (flower paintings, bird pose)


CLEAN_STYLE = FaceStyle(
    font=TRAIN_FONTS[0], stroke=2, stretch=1.0, face=(250, 247, 236), back=(24, 110, 76), border=0.05,
    thickness=0.07, radius=0.12, ink_num=(25, 25, 30), ink_wan=(200, 30, 35), ink_wind=(25, 25, 30),
    ink_red=(205, 30, 35), ink_green=(20, 125, 60), ink_white=(30, 70, 160), white="frame", dragon_art=False,
    pip_inks=((30, 70, 160), (20, 125, 60), (205, 30, 35)), pip_design="rings",
    bamboo_inks=((20, 125, 60), (205, 30, 35), (30, 70, 160)), stick_design="segments", bird="peacock",
    flower_inks=((30, 70, 160), (20, 125, 60), (205, 30, 35)), flower_digits=True, flower_latin=False,
    flower_numerals="arabic", line_art=False, plant_chars="梅蘭菊竹", plant_swap=False, corner_index=False, ink_index=(205, 30, 35), five="伍", wear=0.0,
    seed=7,
)

_DARKS: tuple[RGB, ...] = ((25, 25, 30), (20, 40, 110), (30, 70, 160), (15, 60, 45), (60, 30, 20), (45, 45, 90))
_REDS: tuple[RGB, ...] = ((205, 30, 35), (180, 20, 40), (225, 60, 40), (160, 30, 30), (215, 40, 90), (230, 90, 40))
_GREENS: tuple[RGB, ...] = ((20, 125, 60), (30, 100, 40), (40, 150, 90), (15, 90, 70), (70, 140, 40), (20, 110, 110))
_BLUES: tuple[RGB, ...] = ((30, 70, 160), (25, 40, 120), (40, 110, 190), (20, 20, 40), (60, 60, 150), (20, 90, 140))
_FACES: tuple[RGB, ...] = ((250, 247, 236), (244, 238, 215), (255, 255, 252), (236, 228, 200), (246, 242, 232),
                           (232, 230, 224), (250, 240, 205))
_BACKS: tuple[RGB, ...] = ((24, 110, 76), (30, 80, 150), (220, 170, 40), (200, 90, 40), (160, 30, 40),
                           (60, 150, 90), (235, 230, 220), (40, 40, 45), (120, 60, 140), (230, 120, 150))
# Even indices train, odd indices held out: every pool is split the same way.
_PIP = pips.PIP_DESIGNS
_HALF = {"train": 0, "heldout": 1}


def _pool(seq: tuple, split: str) -> tuple:
    return seq[_HALF[split] :: 2] if len(seq) > 1 else seq


def _as_random(rng: random.Random | np.random.Generator) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    return random.Random(int(rng.integers(0, 2**62)))


def _jitter(r: random.Random, c: RGB, amount: int = 18) -> RGB:
    return tuple(max(0, min(255, v + r.randint(-amount, amount))) for v in c)  # type: ignore[return-value]


def sample_style(rng: random.Random | np.random.Generator, split: str = "train") -> FaceStyle:
    """A random tile-set style of ``split`` (``"train"`` or ``"heldout"``)."""
    if split not in SPLITS:
        raise ValueError(f"unknown style split {split!r}: expected one of {SPLITS}")
    r = _as_random(rng)
    fonts = TRAIN_FONTS if split == "train" else HELDOUT_FONTS
    darks, reds, greens, blues = (_pool(p, split) for p in (_DARKS, _REDS, _GREENS, _BLUES))
    pick = r.choice

    def j(c: RGB) -> RGB:
        return _jitter(r, c)

    dark, red, green, blue = j(pick(darks)), j(pick(reds)), j(pick(greens)), j(pick(blues))
    latin = r.random() < 0.2
    swap = r.random() < 0.25
    return FaceStyle(
        font=pick(fonts), stroke=r.randint(0, 4), stretch=r.uniform(0.85, 1.15), face=j(pick(_FACES)),
        back=j(pick(_BACKS)), border=r.uniform(0.0, 0.07), thickness=r.uniform(0.0, 0.14),
        radius=r.uniform(0.04, 0.16), ink_num=pick((dark, blue, red, (20, 20, 25))), ink_wan=red,
        ink_wind=pick((dark, blue, (20, 20, 25), green)), ink_red=red, ink_green=green,
        ink_white=pick((blue, dark, green, red)), white=pick(("frame", "frame", "double", "blank", "letter")),
        dragon_art=r.random() < 0.12, pip_inks=(pick((blue, dark)), green, red),
        pip_design=pick(_pool(_PIP, split)), bamboo_inks=(green, red, pick((blue, green, dark))),
        stick_design=pick(_pool(STICK_DESIGNS, split)), bird=pick(_pool(BIRD_DESIGNS, split)),
        flower_inks=(pick((blue, dark)), green, red), flower_digits=swap or latin or r.random() < 0.85,
        flower_latin=latin, flower_numerals="chinese" if not latin and r.random() < 0.2 else "arabic",
        line_art=r.random() < 0.35, plant_chars=pick(("梅蘭菊竹", "梅蘭菊竹", "梅蘭菊竹", "福祿壽貴")), plant_swap=swap,
        corner_index=r.random() < 0.3, ink_index=pick((red, dark, blue)), five=pick("五伍"),
        wear=r.uniform(0.0, 0.35) if r.random() < 0.5 else 0.0,
        seed=r.randrange(1 << 30) * 2 + _HALF[split],
    )


# --- face art --------------------------------------------------------------------------------------------


def _text(img: Image.Image, s: FaceStyle, text: str, box: tuple[float, float, float, float], ink: RGB,
          font: FontSpec | None = None, anchor: str = "c") -> None:
    x0, y0, x1, y1 = box
    cx, w = (x0 + x1) / 2 * FW, (x1 - x0) * FW * (s.stretch if font is None else 1.0)
    paste_text(img, text, (cx - w / 2, y0 * FH, cx + w / 2, y1 * FH), font or s.font, ink,
               stroke=s.stroke if font is None else 0, anchor=anchor)


def _index_label(tile: Tile) -> str:
    if tile.is_suited:
        return str(tile.rank)
    if tile.is_wind:
        return _WIND_LETTERS[tile.rank - 1]
    return ""


def _numeral(tile: Tile, s: FaceStyle) -> str:
    return s.five if tile.rank == 5 else _NUMERALS[tile.rank - 1]


def _draw_flower(img: Image.Image, tile: Tile, s: FaceStyle, top: float) -> None:
    n = tile.flower_seat
    inks = s.flower_inks
    art = (top + 0.2, 0.95)
    left_digit = (s.seed >> 3) % 2 == 0
    layer = Image.new("RGBA", (FW, FH), (0, 0, 0, 0))
    if tile.is_season:
        label = _SEASON_LATIN[n - 1] if s.flower_latin else "春夏秋冬"[n - 1]
        draw_bouquet(layer, inks, s.seed * 8 + n, (0.08, art[0], 0.92, art[1]))
    else:
        plant = PLANTS[n - 1]
        if s.plant_swap and n >= 3:
            plant = PLANTS[3] if n == 3 else PLANTS[2]  # 3 = bamboo, 4 = chrysanthemum
        label = s.plant_chars[PLANTS.index(plant)]
        if s.plant_chars != "梅蘭菊竹":
            draw_bouquet(layer, inks, s.seed * 8 + n, (0.08, art[0], 0.92, art[1]))
        else:
            draw_plant(layer, plant, inks, s.seed + n, (0.1, art[0], 0.9, art[1]))
    if s.line_art:  # keep only the rims of the shapes: an ink line drawing
        alpha = layer.getchannel("A")
        layer.putalpha(ImageChops.subtract(alpha, alpha.filter(ImageFilter.MinFilter(7))))
    img.paste(layer, (0, 0), layer)
    number = str(n) if s.flower_numerals == "arabic" else _NUMERALS[n - 1]
    digit_box = (0.08, top + 0.03, 0.3, top + 0.19) if left_digit else (0.7, top + 0.03, 0.92, top + 0.19)
    w = 0.5 if s.flower_latin and tile.is_season else 0.24
    char_box = (0.62 - w / 2 + 0.1, top + 0.02, 0.72 + w / 2, top + 0.2) if left_digit else (
        0.18 - w / 2, top + 0.02, 0.28 + w / 2, top + 0.2)
    if s.flower_digits:
        _text(img, s, number, digit_box, inks[2] if (s.seed >> 5) % 2 else inks[0],
              LATIN_FONT if number.isdigit() else None)
    _text(img, s, label, char_box, inks[2] if (s.seed >> 4) % 2 else inks[0],
          LATIN_FONT if s.flower_latin and tile.is_season else None)


def _draw_art(img: Image.Image, tile: Tile, s: FaceStyle) -> None:
    idx = _index_label(tile) if s.corner_index else ""
    top = 0.05 if idx else 0.0  # corner indices push the art down a little
    if idx:
        _text(img, s, idx, (0.04, 0.02, 0.2, 0.14), s.ink_index, LATIN_FONT, anchor="l")
    x0 = 0.16 if idx else 0.08
    if tile.suit == "m":
        _text(img, s, _numeral(tile, s), (x0 + 0.04, 0.06 + top, 0.9, 0.43), s.ink_num)
        _text(img, s, "萬", (x0, 0.45, 0.94, 0.95), s.ink_wan)
    elif tile.suit == "p":
        pips.draw_dots(img, tile.rank, s.pip_inks, s.face, s.pip_design, s.seed >> 2,
                       (0.06, 0.04 + top, 0.94, 0.97))
    elif tile.suit == "s":
        if tile.rank == 1:
            draw_bird(img, s.bamboo_inks, s.face, s.bird, s.seed)
        else:
            draw_bamboo(img, tile.rank, s.bamboo_inks, s.face, s.stick_design, s.seed >> 2,
                        (0.06, 0.04 + top, 0.94, 0.97))
    elif tile.is_wind:
        _text(img, s, "東南西北"[tile.rank - 1], (0.1, 0.14 + top, 0.9, 0.86), s.ink_wind)
    elif tile == Tile.Z5:
        draw_white(img, s.white, s.ink_white, s.face)
    elif tile.is_dragon:
        ink = s.ink_red if tile == Tile.Z7 else s.ink_green
        if s.dragon_art:
            draw_dragon_art(img, ink, s.face, s.seed)
        else:
            _text(img, s, "中" if tile == Tile.Z7 else "發", (0.1, 0.12, 0.9, 0.88), ink)
    else:
        _draw_flower(img, tile, s, top)


def _draw_back(img: Image.Image, s: FaceStyle) -> None:
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, FW, FH), fill=s.back)
    kind = s.seed % 3
    if kind == 1:  # a lighter inner panel
        d.rounded_rectangle((FW * 0.1, FH * 0.08, FW * 0.9, FH * 0.92), radius=20,
                            outline=mix(s.back, (255, 255, 255), 0.25), width=6)
    elif kind == 2:  # faint diagonal texture
        ink = mix(s.back, (0, 0, 0), 0.12)
        for k in range(-FH, FW, 26):
            d.line((k, 0, k + FH, FH), fill=ink, width=3)


def _wear(img: Image.Image, s: FaceStyle) -> Image.Image:
    if s.wear <= 0:
        return img
    plain = Image.new("RGB", img.size, s.face)
    out = Image.blend(img, plain, s.wear * 0.6)
    r = random.Random(s.seed)
    d = ImageDraw.Draw(out)
    for _ in range(int(s.wear * 60)):
        x, y = r.uniform(0, FW), r.uniform(0, FH)
        d.ellipse((x, y, x + r.uniform(1, 4), y + r.uniform(1, 4)), fill=mix(s.face, (90, 80, 60), 0.4))
    return out.filter(ImageFilter.GaussianBlur(s.wear * 1.5))


def _face_art(tile: Tile, s: FaceStyle) -> Image.Image:
    img = Image.new("RGB", (FW, FH), s.face)
    if tile == Tile.UNKNOWN:
        _draw_back(img, s)
        return img
    _draw_art(img, tile, s)
    return _wear(img, s)


# --- the tile body ---------------------------------------------------------------------------------------


def _geometry(s: FaceStyle) -> tuple[int, int, int, int]:
    """(rim, thickness, internal width, internal height) of the tile around the FW x FH face."""
    e = round(s.border * FW) + 4
    t = round(s.thickness * FH)
    return e, t, FW + 2 * e, FH + 2 * e + t


def face_box(style: FaceStyle, size: tuple[int, int]) -> tuple[float, float, float, float]:
    """Where the face lies in ``render_face(..., style, size)``: (x0, y0, x1, y1) in pixels."""
    e, _t, iw, ih = _geometry(style)
    w, h = size
    return (e * w / iw, e * h / ih, (e + FW) * w / iw, (e + FH) * h / ih)


def render_face(tile: Tile, style: FaceStyle, size: tuple[int, int] = (96, 128)) -> Image.Image:
    """The upright tile ``tile`` in ``style`` as an RGBA picture of ``size`` (width, height)."""
    if size[0] < 4 or size[1] < 4:
        raise ValueError(f"tile picture size {size} is too small")
    e, t, iw, ih = _geometry(style)
    face_col, layer = (style.back, style.face) if tile == Tile.UNKNOWN else (style.face, style.back)
    rad = round(style.radius * iw)
    canvas = Image.new("RGBA", (iw, ih), (0, 0, 0, 0))
    d = ImageDraw.Draw(canvas)
    d.rounded_rectangle((0, 0, iw - 1, ih - 1), radius=rad, fill=(*layer, 255))
    rim = mix(face_col, (120, 110, 90), 0.18)
    d.rounded_rectangle((0, 0, iw - 1, ih - 1 - t), radius=rad, fill=(*rim, 255))
    d.rounded_rectangle((2, 2, iw - 3, ih - 3 - t), radius=rad, fill=(*face_col, 255))
    mask = Image.new("L", (FW, FH), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, FW - 1, FH - 1), radius=max(0, rad - e), fill=255)
    canvas.paste(_face_art(tile, style), (e, e), mask)
    return canvas.resize(size, Image.Resampling.LANCZOS)
