"""CJK and Latin fonts for tile faces, from free-licensed Debian packages.

The renderer relies on ``fonts-noto-cjk`` (OFL), ``fonts-arphic-ukai`` and ``fonts-arphic-uming`` (Arphic
Public License) and ``fonts-droid-fallback`` (Apache-2.0). GPL fonts are not used. Fonts are split into a
training pool and a held-out pool so that evaluation sees letterforms the classifier never trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

__all__ = ["FontSpec", "TRAIN_FONTS", "HELDOUT_FONTS", "LATIN_FONT", "load", "missing_fonts", "FontMissingError"]

_ROOTS: tuple[Path, ...] = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))


class FontMissingError(FileNotFoundError):
    """A font the renderer needs is not installed (install the Debian packages named in fonts.py)."""


@dataclass(frozen=True, slots=True)
class FontSpec:
    """One face of a font file: ``file`` is looked up under the system font folders; ``index`` picks the
    face inside a collection (the Traditional Chinese one)."""

    name: str
    file: str
    index: int = 0
    stroke: int = 0  # extra stroke width (per 100 px of glyph) for light faces


TRAIN_FONTS: tuple[FontSpec, ...] = (
    FontSpec("kai", "truetype/arphic/ukai.ttc", 2, 1),
    FontSpec("ming", "truetype/arphic/uming.ttc", 2, 3),
    FontSpec("serif-bold", "opentype/noto/NotoSerifCJK-Bold.ttc", 3),
    FontSpec("sans", "opentype/noto/NotoSansCJK-Regular.ttc", 3, 1),
)
HELDOUT_FONTS: tuple[FontSpec, ...] = (
    FontSpec("serif", "opentype/noto/NotoSerifCJK-Regular.ttc", 3, 1),
    FontSpec("sans-bold", "opentype/noto/NotoSansCJK-Bold.ttc", 3),
    FontSpec("droid", "truetype/droid/DroidSansFallbackFull.ttf", 0, 1),
)
LATIN_FONT = FontSpec("latin", "opentype/noto/NotoSansCJK-Bold.ttc", 3)
"""Digits and letters of corner indices and flower numbers."""


def _path(spec: FontSpec) -> Path | None:
    for root in _ROOTS:
        p = root / spec.file
        if p.exists():
            return p
    return None


def missing_fonts() -> list[str]:
    """Font files of either pool that are not installed."""
    return [s.file for s in (*TRAIN_FONTS, *HELDOUT_FONTS, LATIN_FONT) if _path(s) is None]


@lru_cache(maxsize=512)
def load(spec: FontSpec, size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels; raises :class:`FontMissingError` naming the file and the package."""
    p = _path(spec)
    if p is None:
        raise FontMissingError(
            f"font {spec.file!r} ({spec.name}) is not installed: install fonts-noto-cjk fonts-arphic-ukai "
            "fonts-arphic-uming fonts-droid-fallback"
        )
    return ImageFont.truetype(str(p), max(4, int(size)), index=spec.index)
