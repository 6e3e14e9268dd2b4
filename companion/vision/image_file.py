"""Reading crop and photo files safely: unreadable, empty, truncated or huge images (decompression bombs)
raise :class:`ImageFileError` naming the file, before any large allocation. A photo is turned upright as its
EXIF orientation says (a phone stores a portrait photo as landscape pixels with a tag), so boxes, angles and
drawings are in the picture the player sees."""

from __future__ import annotations

import re
import struct
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps, JpegImagePlugin, UnidentifiedImageError

__all__ = ["ImageFileError", "read_image", "MIN_SIDE", "too_small", "full_size", "jpeg_bytes", "image_size", "MAX_PIXELS", "MAX_BYTES",
           "MAX_SIDE"]

MAX_PIXELS = 40_000_000
"""Largest image (width x height) read; bigger ones are refused as possible decompression bombs."""
MAX_BYTES = 128 * 1024 * 1024
"""Largest file read (a 200 MP phone photo at the camera's best quality is 60-100 MB)."""
MAX_SIDE = 30_000
"""Longest side read: OpenCV's remapping, which cuts the tiles out, takes images under 32,767 pixels a side."""


MIN_SIDE = 8
"""Shortest side of an image that may hold a tile: ``companion read``, ``score`` and ``classify`` refuse smaller
ones alike (a review's 2x2 blank image was read by ``classify`` as a sure 白板 and refused by ``read``)."""
TOO_SMALL_EN = "image too small to hold a tile ({w}x{h} pixels; at least {m}x{m})"
TOO_SMALL_ZH = "影像太小，容不下一張牌（{w}x{h} 像素，至少要 {m}x{m}）"


def too_small(w: int, h: int) -> tuple[str, str] | None:
    """Why a ``w`` x ``h`` image cannot hold a tile, (English, Chinese), or ``None`` when it may."""
    if min(w, h) >= MIN_SIDE:
        return None
    return TOO_SMALL_EN.format(w=w, h=h, m=MIN_SIDE), TOO_SMALL_ZH.format(w=w, h=h, m=MIN_SIDE)


class ImageFileError(ValueError):
    """An image file that cannot be used; the message names the file and gives the reason in English and
    Traditional Chinese (``English / 中文``), with what the decoder or the system said (``detail``) where it said
    something. ``en`` and ``zh`` are the reason alone, for a page that names the file itself."""

    def __init__(self, path: Path, en: str, zh: str, detail: object = None) -> None:
        self.path, self.en, self.zh = path, en, zh
        super().__init__(f"{path}: {en}{f' ({detail})' if detail else ''} / {zh}")


HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"})
"""The ``ftyp`` brands of HEIF/HEIC files, which phones save by default and this program cannot decode."""


def _is_pdf(p: Path) -> bool:
    try:
        with open(p, "rb") as f:
            return f.read(5) == b"%PDF-"
    except OSError:
        return False


def _is_heif(p: Path) -> bool:
    try:
        with open(p, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return len(head) == 12 and head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS


def read_image(path: str | Path, reduce_large: bool = False) -> np.ndarray:
    """The image at ``path`` as ``HxWx3`` ``uint8`` BGR.

    ``reduce_large``: a JPEG over :data:`MAX_PIXELS` (a 48-50 MP phone photo) is decoded at a half, a quarter or an
    eighth of its size, the first that fits, instead of being refused (the JPEG decoder does this without ever
    holding the full image); other formats are refused as before. Boxes read from it are in the smaller image."""
    if not str(path).strip():  # (Path("") is the folder ".": a review was told "a folder")
        raise ImageFileError(Path('""'), "an empty file name: give the photo's file", "檔名是空的：請給照片的檔案")
    p = Path(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError as e:  # said as such in both languages (a review read only 無法讀取檔案)
        raise ImageFileError(p, "no such file", "找不到這個檔案") from e
    except OSError as e:
        raise ImageFileError(p, "cannot read file", "無法讀取檔案", e.strerror or e) from e
    if p.is_dir():  # a folder was read as a damaged image (a review)
        raise ImageFileError(p, "a folder, not a photo: give the photo's file", "這是資料夾，不是照片：請給照片的檔案")
    if size == 0:
        raise ImageFileError(p, "empty file", "檔案是空的")
    if size > MAX_BYTES:
        raise ImageFileError(p, f"file too large ({size} bytes, limit {MAX_BYTES})",
                             f"檔案太大（{size} 位元組，上限 {MAX_BYTES}）")
    try:
        with _quiet_exif():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with _opened(p, reduce_large) as im:
                w, h = im.size
                if im.format == "JPEG" and w * h > JPEG_PIXELS_PER_BYTE * size:
                    raise ImageFileError(p, f"damaged image: its header says {w}x{h} pixels, which {size} bytes "
                                            "cannot hold", f"圖檔損壞：檔頭說有 {w}x{h} 像素，{size} 位元組裝不下")
                if reduce_large and w * h > MAX_PIXELS and im.format == "JPEG":
                    k = next((k for k in (2, 4, 8) if (w // k) * (h // k) <= MAX_PIXELS), 8)
                    im.draft("RGB", (w // k, h // k))
                    w, h = im.size
                if w * h > MAX_PIXELS:
                    jpeg_helps = reduce_large and im.format != "JPEG"  # (a review was told no more than "too large")
                    raise ImageFileError(
                        p, f"image too large ({w}x{h} pixels, {_mp(w * h)}; at most {_mp(MAX_PIXELS)}): make it smaller"
                           + (", or save it as a JPEG, which is read at a smaller scale" if jpeg_helps else ""),
                        f"圖太大（{w}x{h}，{_mp_zh(w * h)}；上限 {_mp_zh(MAX_PIXELS)}）：請縮小"
                        + ("，或存成 JPEG（會縮小來讀）" if jpeg_helps else ""))
                if max(w, h) > MAX_SIDE:
                    raise ImageFileError(p, f"image too long ({w}x{h} pixels, at most {MAX_SIDE} a side)",
                                         f"圖的邊太長（{w}x{h} 像素，每邊最多 {MAX_SIDE}）")
                im.load()
                rgb = _rgb(_upright(im))
    except ImageFileError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as e:
        # Pillow's own check (about 89 MP) came first: said as the check above says it (a review was told no more
        # than "possible decompression bomb" for a 100 MP PNG)
        said = re.search(r"Image size \((\d+) pixels\) exceeds limit of (\d+) pixels", str(e))
        if said is None:
            raise ImageFileError(p, "image too large (possible decompression bomb)", "圖太大（疑似解壓縮炸彈）") from e
        n, limit = int(said.group(1)), min(MAX_PIXELS, int(said.group(2)))
        raise ImageFileError(p, f"image too large ({_mp(n)}; at most {_mp(limit)}): make it smaller"
                                + (", or save it as a JPEG, which is read at a smaller scale" if reduce_large else ""),
                             f"圖太大（{_mp_zh(n)}；上限 {_mp_zh(limit)}）：請縮小"
                             + ("，或存成 JPEG（會縮小來讀）" if reduce_large else "")) from e
    except UnidentifiedImageError as e:
        if _is_heif(p):  # a phone's own format: say what to do, not that it is no image (a review)
            raise ImageFileError(p, "an HEIC/HEIF photo, which this program cannot read: save or share it as JPEG "
                                    "(on an iPhone: Settings > Camera > Formats > Most Compatible)",
                                 "HEIC/HEIF 格式的照片讀不了：請存成或分享成 JPEG（iPhone：設定 > 相機 > 格式 > 最相容）") from e
        if _is_pdf(p):  # the calibration sheet itself, uploaded instead of a photo of it (a review)
            raise ImageFileError(p, "a PDF document, not a photo: print it, and give a photo of the printed page "
                                    "(with the tiles on it)", "這是 PDF 文件，不是照片：請印出來，拍印好的那一頁（放上牌）"
                                    "再上傳") from e
        raise ImageFileError(p, "not an image file", "不是圖檔") from e
    except (OSError, SyntaxError, ValueError) as e:
        # (the decoder's own words, "image file is truncated (3 bytes not processed)", were said in the English
        # alone: a review; said in plain words in both)
        raise ImageFileError(p, "damaged or truncated image", "圖檔損壞或不完整") from e
    if rgb.ndim != 3 or rgb.shape[0] < 2 or rgb.shape[1] < 2:
        h, w = rgb.shape[:2]
        raise ImageFileError(p, *(too_small(w, h) or ("", "")))  # as the 8x8 minimum is said (it said 30000x1 was
        # "too small to show a tile" beside "at least 8x8" for 3x3: a review)
    return np.ascontiguousarray(rgb[:, :, ::-1])


JPEG_PIXELS_PER_BYTE = 4096
"""More pixels than this for each byte of a JPEG file is a damaged one: a header claiming a picture its data cannot
hold (Pillow fills the rest with grey: a review's 700-byte file claiming 50000x50000 took 13 s and 820 MB to decode
at an eighth, and was said to show no tile). A blank picture, the most a JPEG squeezes, holds 170-260 pixels a byte;
progressive coding, a bit a block at least, 512."""

REDUCED_MAX_PIXELS = 64 * MAX_PIXELS
"""Largest JPEG decoded reduced (an eighth a side at most: 2.5 GP): a 200 MP phone photo is a quarter of it."""


def _mp(pixels: int) -> str:
    """A count of pixels as people say a photo's size: ``40 MP`` (megapixels), ``40.4 MP``; ``1200 pixels``."""
    if pixels < 100_000:
        return f"{pixels} pixels"
    # two decimals at most, none where they are 0: a photo of 40.4 MP was said "40 MP; at most 40 MP" (a change review)
    return f"{pixels / 1e6:.2f}".rstrip("0").rstrip(".") + " MP"


def _mp_zh(pixels: int) -> str:
    """The same in Chinese, as a photo's size is said in Taiwan: ``4000 萬畫素``, ``4040 萬畫素``, ``25.6 億畫素``;
    ``1200 畫素`` (a wording review read "42 MP" in the Chinese)."""
    wan = round(pixels / 10_000)  # whole 萬 (4212 萬, not 4212.35 萬: a change review)
    if wan >= 10_000:
        return f"{pixels / 100_000_000:.2f}".rstrip("0").rstrip(".") + " 億畫素"
    if wan >= 1:
        return f"{wan} 萬畫素"
    return f"{pixels} 畫素"


def _opened(p: Path, reduce_large: bool) -> Image.Image:
    """The image file opened lazily (header only). A JPEG that may be decoded reduced is opened past Pillow's own
    bomb check (about 89 MP, which a 108-200 MP phone photo exceeds) with :data:`REDUCED_MAX_PIXELS` in its place:
    it is never decoded at full size."""
    if reduce_large:
        with open(p, "rb") as f:
            jpeg = f.read(3) == b"\xff\xd8\xff"
        if jpeg:
            im = JpegImagePlugin.JpegImageFile(str(p))
            w, h = im.size
            if w * h > REDUCED_MAX_PIXELS:
                im.close()
                # (said as the limit a JPEG is read up to, shrunk, not in pixels only a reader of the code knew: a
                # privacy review was told "limit 2560000000")
                raise ImageFileError(p, f"image too large ({w}x{h} pixels, {_mp(w * h)}; a JPEG is read up to "
                                        f"{_mp(REDUCED_MAX_PIXELS)}, shrunk to {_mp(MAX_PIXELS)})",
                                     f"圖太大（{w}x{h}，{_mp_zh(w * h)}；JPEG 最多讀 {_mp_zh(REDUCED_MAX_PIXELS)}，"
                                     f"縮成 {_mp_zh(MAX_PIXELS)}來讀）")
            return im
    return Image.open(p)


def full_size(path: str | Path) -> tuple[int, int]:
    """The width and height of the image at ``path`` as :func:`read_image` turns it upright, at its full size,
    read from its header (what boxes read on a reduced decoding are scaled back to)."""
    with _quiet_exif(), _opened(Path(path), True) as im:
        w, h = im.size
        if im.format in SIZE_TURNED_FORMATS:  # Pillow's header size is the upright one already
            return w, h
        try:
            turned = im.getexif().get(0x0112, 1) in (5, 6, 7, 8)  # EXIF orientations that swap the sides
        except (OSError, ValueError, TypeError, KeyError, SyntaxError, struct.error):
            turned = False
    return (h, w) if turned else (w, h)


SIZE_TURNED_FORMATS = frozenset({"TIFF"})
"""Formats whose size Pillow reports turned as the Orientation tag says (and whose pixels it turns as it loads
them): :func:`full_size` must not turn it again (a review's TIFF with orientation 6 had every box of
``read --json`` squeezed by height/width). A test holds :func:`full_size` to :func:`read_image` for each format
and orientation."""


def _rgb(im: Image.Image) -> np.ndarray:
    """``H x W x 3`` uint8 RGB. Greyscale of more than 8 bits (16-bit PNGs, mode ``I;16`` or ``I``) is scaled
    to 8 bits; Pillow's own conversion would clip it, and a 16-bit photo would come out nearly white."""
    if im.mode in ("I", "I;16", "I;16B", "I;16L", "I;16N"):
        grey = np.asarray(im).astype(np.float64)
        top = 65535.0 if im.mode != "I" or grey.max(initial=0) > 255 else 255.0
        grey8 = np.clip(np.rint(grey * (255.0 / top)), 0, 255).astype(np.uint8)
        return np.repeat(grey8[:, :, None], 3, axis=2)
    return np.asarray(im.convert("RGB"))


def _upright(im: Image.Image) -> Image.Image:
    """``im`` turned as its EXIF orientation tag says; as stored when the tag is missing or cannot be read."""
    try:
        return ImageOps.exif_transpose(im)
    except (OSError, ValueError, TypeError, KeyError, SyntaxError, struct.error):
        return im


@contextmanager
def _quiet_exif() -> Iterator[None]:
    """Pillow's warnings about a damaged EXIF block not printed (they come when the file is opened): the tags it could
    read are used and the rest ignored, as for a tag that cannot be read at all (a review was shown Pillow's English
    "Corrupt EXIF data" with the path of its source file, twice: once for the photo's size, once for its pixels)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")
        yield


def jpeg_bytes(image: np.ndarray, max_side: int = 1280, quality: int = 85) -> bytes:
    """``image`` (BGR) as JPEG bytes for a screen, its longer side brought down to ``max_side``."""
    im = Image.fromarray(np.ascontiguousarray(image[:, :, ::-1]))
    im.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
    out = BytesIO()
    im.save(out, format="JPEG", quality=quality)
    return out.getvalue()


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of the encoded image ``data``, from its header alone; None when it is no image."""
    try:
        with Image.open(BytesIO(data)) as im:
            w, h = im.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return (w, h) if w > 0 and h > 0 else None
