"""Drawing the calibration sheet's pages (markers, boxes, labels, instructions) with Pillow.

Chinese text needs a CJK font: one that draws Latin too is preferred (Noto Sans CJK, AR PL, Microsoft JhengHei,
PingFang, ...); a Chinese-only one (the app's shipped Droid Sans Fallback) is used with a Latin font for letters and
digits. Without any the page is drawn with English only; :func:`has_chinese_font` tells the command so it can say
it.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.tiles import Tile
from companion.vision.sheet import ARUCO_DICT, LABEL_MM, MARKER_MM, Cell, PageLayout, box_named

__all__ = ["render_page", "has_chinese_font", "draw_text", "text_length", "INSTRUCTIONS"]

_SYSTEM_FONTS = (
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", "TC"),
    ("/usr/share/fonts/opentype/noto-cjk/NotoSansCJK-Regular.ttc", "TC"),
    ("/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc", "TC"),
    ("/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc", "TC"),
    ("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", ""),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", ""),
    ("C:/Windows/Fonts/msjh.ttc", ""),
    ("C:/Windows/Fonts/msjh.ttf", ""),
    ("C:/Windows/Fonts/mingliu.ttc", ""),
    ("/System/Library/Fonts/PingFang.ttc", "TC"),
    ("/System/Library/Fonts/STHeiti Light.ttc", ""),
    ("/Library/Fonts/Arial Unicode.ttf", ""),
)

INSTRUCTIONS = (
    ("每種牌放一張進它的格子：牌面朝上、字頭朝紙的上方；「0x」格放一張背面朝上的牌。花牌依牌上印的數字擺放。",
     "Put one tile of each kind face up in its box, top towards the top of the page; a face-down tile in "
     "the 0x box. Plants go by their printed number."),
    ("列印時選「實際大小」。從正上方拍照，四角的方塊都要拍進去，每頁拍一張。",
     "Print at actual size. Photograph each page from straight above with all four corner squares in view."),
)


_LATIN_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                "C:/Windows/Fonts/arial.ttf", "/System/Library/Fonts/Helvetica.ttc", "/Library/Fonts/Arial.ttf")


def _candidates() -> list[tuple[str, str]]:
    shipped = resources.files("companion") / "assets" / "fonts"
    out: list[tuple[str, str]] = []
    if shipped.is_dir():
        out += [(str(p), "") for p in sorted(shipped.iterdir(), key=lambda p: p.name)
                if p.name.lower().endswith((".ttf", ".otf", ".ttc"))]
    return out + [c for c in _SYSTEM_FONTS if Path(c[0]).is_file()]


@functools.lru_cache(maxsize=1)
def _font_file() -> tuple[str, int] | None:
    """(path, index in a collection) of a font that draws Traditional Chinese, or ``None``: one that draws Latin
    letters and digits too where there is one (the app's shipped Droid Sans Fallback has no Latin glyphs)."""
    found = []
    for path, want in _candidates():
        index = _face_index(path, want)
        if index is not None and _draws(ImageFont.truetype(path, 24, index=index), "萬筒"):
            found.append((path, index))
    both = [f for f in found if _draws(ImageFont.truetype(f[0], 24, index=f[1]), "AB")]
    return (both or found)[0] if found else None


@functools.lru_cache(maxsize=1)
def _latin_file() -> str | None:
    """A font for Latin letters and digits, when the Chinese one lacks them (``None``: Pillow's own)."""
    return next((p for p in _LATIN_FONTS if Path(p).is_file()), None)


@functools.lru_cache(maxsize=1)
def _mixed() -> bool:
    """The Chinese font lacks Latin glyphs: Latin runs are drawn with another font."""
    found = _font_file()
    return found is not None and not _draws(ImageFont.truetype(found[0], 24, index=found[1]), "AB")


def _face_index(path: str, want: str) -> int | None:
    """The face of a font file (collection) whose name holds ``want`` (e.g. "TC"), else its first face."""
    names = []
    for index in range(16):
        try:
            names.append(" ".join(n or "" for n in ImageFont.truetype(path, 24, index=index).getname()))
        except OSError:
            break
    if not names:
        return None
    return next((i for i, n in enumerate(names) if want and want in n.split()), 0)


def _draws(font: ImageFont.FreeTypeFont, pair: str) -> bool:
    """The two characters of ``pair`` come out different (a font without them draws the same box twice)."""
    glyphs = []
    for ch in pair:
        im = Image.new("L", (32, 32))
        ImageDraw.Draw(im).text((2, 2), ch, font=font, fill=255)
        glyphs.append(np.asarray(im))
    return bool(glyphs[0].any()) and bool(np.any(glyphs[0] != glyphs[1]))


def has_chinese_font() -> bool:
    return _font_file() is not None


Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@functools.lru_cache(maxsize=64)
def _font(px: int) -> Font:
    found = _font_file()
    if found is None:
        return ImageFont.load_default(px)
    return ImageFont.truetype(found[0], px, index=found[1])


@functools.lru_cache(maxsize=64)
def _latin(px: int) -> Font:
    path = _latin_file()
    return ImageFont.truetype(path, px) if path else ImageFont.load_default(px)


def _runs(text: str, px: int) -> list[tuple[str, Font]]:
    """``text`` cut into runs of one font each: all of it in the Chinese font where that draws Latin too, else
    Latin letters, digits and punctuation in a Latin font and the rest in the Chinese one."""
    if not _mixed():
        return [(text, _font(px))]
    out: list[tuple[str, Font]] = []
    for ch in text:
        font = _latin(px) if ord(ch) < 0x2000 else _font(px)
        if out and out[-1][1] is font:
            out[-1] = (out[-1][0] + ch, font)
        else:
            out.append((ch, font))
    return out


def _zh(text: str) -> str:
    """``text`` where Chinese can be drawn, else nothing."""
    return text if has_chinese_font() else ""


class _Pen:
    """Millimetre coordinates on one page image."""

    def __init__(self, page: PageLayout, dpi: int) -> None:
        self.k = dpi / 25.4
        w, h = (round(v * self.k) for v in page.size_mm)
        self.image = Image.new("RGB", (w, h), "white")
        self.draw = ImageDraw.Draw(self.image)

    def px(self, v: float) -> int:
        return round(v * self.k)

    def text(self, x: float, y: float, text: str, size_mm: float, width_mm: float | None = None,
             fill: tuple[int, int, int] = (20, 20, 20), anchor: str = "la") -> None:
        """``text`` at (x, y) mm, ``size_mm`` high, shrunk until it fits ``width_mm``."""
        if not text:
            return
        size = max(6, self.px(size_mm))
        while width_mm is not None and size > 6 and self._length(text, size) > self.px(width_mm):
            size -= 1
        draw_text(self.draw, (self.px(x), self.px(y)), text, size, fill, anchor)

    def _length(self, text: str, size: int) -> float:
        return text_length(self.draw, text, size)


def text_length(draw: ImageDraw.ImageDraw, text: str, px: int) -> float:
    """How wide ``text`` is drawn ``px`` high by :func:`draw_text`, in pixels."""
    return sum(draw.textlength(run, font=font) for run, font in _runs(text, px))


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, px: int,
              fill: tuple[int, int, int] = (20, 20, 20), anchor: str = "la") -> None:
    """``text`` (Chinese and Latin mixed) ``px`` high at ``xy`` (Pillow's two-letter ``anchor``, first letter l, m or
    r), in the Chinese font, with a Latin one for the Latin runs where the Chinese font has no Latin glyphs."""
    runs = _runs(text, px)
    if len(runs) == 1:
        draw.text(xy, text, font=runs[0][1], fill=fill, anchor=anchor)
        return
    # runs of two fonts sit on one baseline, placed by the Chinese font's measures
    at = float(xy[0]) - {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]] * text_length(draw, text, px)
    cjk = _font(px)
    ascent, descent = cjk.getmetrics() if isinstance(cjk, ImageFont.FreeTypeFont) else (px, 0)
    base = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}.get(anchor[1], ascent)
    for run, font in runs:
        draw.text((at, base), run, font=font, fill=fill, anchor="ls")
        at += draw.textlength(run, font=font)


def _marker(pen: _Pen, marker_id: int, x: float, y: float) -> None:
    n = pen.px(MARKER_MM)
    img = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), marker_id, n, borderBits=1)
    pen.image.paste(Image.fromarray(img).convert("RGB"), (pen.px(x), pen.px(y)))


@functools.lru_cache(maxsize=64)
def _picture(tile: Tile, height_px: int) -> Image.Image:
    src = resources.files("companion") / "assets" / "tiles" / f"{tile.code}.png"
    with Image.open(str(src)) as im:
        rgba = im.convert("RGBA")
    w = max(1, round(rgba.width * height_px / rgba.height))
    return rgba.resize((w, height_px), Image.Resampling.LANCZOS)


def _label(tile: Tile) -> tuple[str, str]:
    """Two label lines for a box: code and Chinese name, English name. Plants go by printed number."""
    zh, en = box_named(tile)
    return f"{tile.code} {_zh(zh)}", en


def _cell(pen: _Pen, cell: Cell) -> None:
    x, y, w, h = cell.box_mm
    pen.draw.rectangle((pen.px(x), pen.px(y), pen.px(x + w), pen.px(y + h)), outline=(90, 90, 90),
                       width=max(1, pen.px(0.3)))
    pic_h = LABEL_MM - 1.0
    pic = _picture(cell.tile, max(4, pen.px(pic_h)))
    ly = y + h + 0.6
    pen.image.paste(pic, (pen.px(x), pen.px(ly)), pic)
    tx = x + pic_h * 0.75 + 1.0
    top, bottom = _label(cell.tile)
    pen.text(tx, ly, top, 2.8, width_mm=x + w - tx)
    pen.text(tx, ly + 3.3, bottom, 2.1, width_mm=x + w - tx, fill=(70, 70, 70))


def render_page(page: PageLayout, dpi: int) -> np.ndarray:
    """One page of the sheet as ``HxWx3`` uint8 BGR."""
    pen = _Pen(page, dpi)
    for marker_id, (x, y) in zip(page.marker_ids, page.marker_mm, strict=True):
        _marker(pen, marker_id, x, y)
    for cell in page.cells:
        _cell(pen, cell)
    w, h = page.size_mm
    left = page.marker_mm[0][0] + MARKER_MM + 3
    width = w - 2 * left
    y = page.marker_mm[0][1] - 0.5
    for zh, en in INSTRUCTIONS:
        if has_chinese_font():
            pen.text(left, y, zh, 2.7, width)
            y += 3.4
        pen.text(left, y, en, 2.4, width, fill=(60, 60, 60))
        y += 3.4
    foot = page.marker_mm[3][1] + MARKER_MM / 2
    title = f"{_zh('麻將牌組校正表')} companion calibration sheet · {page.paper.value.upper()} · " \
            f"{_zh(f'第 {page.number}/{page.pages} 頁')} page {page.number}/{page.pages}"
    pen.text(w / 2, foot, title, 3.0, width, anchor="mm")
    rgb = np.asarray(pen.image)
    return np.ascontiguousarray(rgb[:, :, ::-1])
