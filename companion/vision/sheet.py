"""The printable calibration sheet (校正表): one labelled box per tile kind, and reading a photo of it.

The product prints two pages (A4 or US Letter). Each page carries four ArUco markers (``DICT_4X4_50``) at
its corners; their ids say which paper and which page it is. The player puts one tile of each kind face
up in its box (a face-down tile in the ``0x`` box) and photographs each page from above;
:func:`read_sheet` finds the markers, maps the photo onto the page in millimetres and cuts every box's
tile upright, ready for :meth:`~companion.vision.calibration.Calibration.from_crops`.

>>> pages = render_sheet(Paper.A4, dpi=150)       # doctest: +SKIP
>>> reading = read_sheet(photo_bgr, source="p1.jpg")  # doctest: +SKIP
>>> reading.samples()[0][0]                      # doctest: +SKIP
Tile.M1

Plants are placed by their printed number (5f-8f = printed 1-4), so calibration settles which plant a set
prints as 3 and which as 4. Drawing is in :mod:`companion.vision.sheet_render`.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.tiles import Tile

if TYPE_CHECKING:
    from companion.vision.classify import TileClassifier
    from companion.vision.detect import TileDetector

__all__ = ["Paper", "PageLayout", "Cell", "CellStatus", "CellReading", "SheetReading", "SheetError",
           "MarkersNotFound", "UnknownPage", "PhotoQualityError", "layout", "page_of_marker", "KINDS",
           "ARUCO_DICT", "read_sheet", "render_sheet", "sheet_pdf", "Misplaced", "misplaced", "misplaced_at", "MISPLACED_SCORE",
           "upside_down", "set_likeness", "SAME_SET", "other_set", "box_named"]

ARUCO_DICT = cv2.aruco.DICT_4X4_50
KINDS: tuple[Tile, ...] = (*(Tile(i) for i in range(42)), Tile.UNKNOWN)
"""The 43 kinds on the sheet in order: 1-9m 1-9p 1-9s 1-7z 1-8f 0x."""
RECT_PX_PER_MM = 4.0
"""Resolution of the rectified page the tiles are cut from (a 30 x 40 mm tile -> 120 x 160 px)."""
MIN_PX_PER_MM = 2.0
"""A photo with fewer pixels per millimetre of paper is too far away (a tile would be < 60 px wide)."""
MIN_PHOTO_SIDE = 200
"""A photo with a shorter side (pixels) is refused before looking for the sheet in it."""
MIN_DPI, MAX_DPI = 40, 1200
"""The resolutions :func:`render_sheet` draws the pages at."""
MIN_SHARPNESS = 0.165
"""Sharpness of the marker edges (see :func:`_sharpness`) below which a photo counts as blurred: synthetic
photos blurred by 0.7 mm of paper still classify as well as sharp ones and measure 0.18; at 1 mm (0.15)
readings start to fail."""


class Paper(Enum):
    A4 = "a4"
    LETTER = "letter"


PAPER_NAME = {Paper.A4: "A4", Paper.LETTER: "US Letter"}


@dataclass(frozen=True, slots=True)
class _Grid:
    size_mm: tuple[float, float]
    cols: int
    rows: int
    box_mm: tuple[float, float]
    pitch_mm: tuple[float, float]
    first_marker: int
    corner_cells: tuple[tuple[int, ...], ...]  # per page: the grid corners (0 TL, 1 TR, 2 BR, 3 BL) that hold a box


MARKER_MM = 14.0
MARGIN_MM = 7.0
LABEL_MM = 6.5
# A tile is about 20 mm thick: photographed from 30 cm, the face of a tile near a corner of the page shows up
# to 10 mm further out than its box and would hide the corner marker. The grid's corners are therefore
# left free wherever two pages have room without them, and on every page two opposite markers stay clear.
_GRIDS = {
    Paper.A4: _Grid((210.0, 297.0), 5, 5, (34.0, 42.0), (37.0, 49.5), 0, ((2,), ())),
    Paper.LETTER: _Grid((215.9, 279.4), 6, 4, (32.0, 42.0), (34.0, 49.5), 8, ((2,), (1, 3))),
}


class CellStatus(Enum):
    FOUND = "found"
    EMPTY = "empty"
    UNREADABLE = "unreadable"


@dataclass(frozen=True, slots=True)
class Cell:
    """The box for one kind: ``box_mm`` = (x, y, w, h) on its page, millimetres from the top-left corner."""

    tile: Tile
    box_mm: tuple[float, float, float, float]

    @property
    def centre_mm(self) -> tuple[float, float]:
        x, y, w, h = self.box_mm
        return x + w / 2, y + h / 2


@dataclass(frozen=True, slots=True)
class PageLayout:
    paper: Paper
    number: int  # 1-based
    pages: int
    size_mm: tuple[float, float]
    marker_ids: tuple[int, int, int, int]  # top-left, top-right, bottom-right, bottom-left
    marker_mm: tuple[tuple[float, float], ...]  # top-left corner of each marker
    cells: tuple[Cell, ...]

    @property
    def label(self) -> str:
        """``A4 page 1 of 2``: the English half of a message (a review found Chinese in it)."""
        return f"{PAPER_NAME[self.paper]} page {self.number} of {self.pages}"

    @property
    def label_zh(self) -> str:
        """``A4 第 1／2 頁``: the Chinese half's."""
        return f"{PAPER_NAME[self.paper]} 第 {self.number}／{self.pages} 頁"

    def marker_corners_mm(self, index: int) -> np.ndarray:
        """4 x 2 corners (clockwise from top-left, as ArUco reports them) of marker ``index``."""
        x, y = self.marker_mm[index]
        s = MARKER_MM
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float32)


def layout(paper: Paper | str) -> tuple[PageLayout, ...]:
    """The pages of the sheet for ``paper`` (``"a4"`` or ``"letter"``)."""
    return _layout(_paper(paper))


@functools.cache
def _layout(paper: Paper) -> tuple[PageLayout, ...]:
    g = _GRIDS[paper]
    w, h = g.size_mm
    gw = g.cols * g.pitch_mm[0] - (g.pitch_mm[0] - g.box_mm[0])
    gh = g.rows * g.pitch_mm[1] - (g.pitch_mm[1] - g.box_mm[1] - LABEL_MM)
    x0, y0 = (w - gw) / 2, (h - gh) / 2
    far_x, far_y = w - MARGIN_MM - MARKER_MM, h - MARGIN_MM - MARKER_MM
    markers = ((MARGIN_MM, MARGIN_MM), (far_x, MARGIN_MM), (far_x, far_y), (MARGIN_MM, far_y))
    n_pages = len(g.corner_cells)
    corners = (0, g.cols - 1, g.cols * g.rows - 1, g.cols * (g.rows - 1))
    pages, left = [], list(KINDS)
    for p, used in enumerate(g.corner_cells):
        slots = [i for i in range(g.cols * g.rows) if i not in corners or corners.index(i) in used]
        cells = tuple(Cell(left.pop(0), (x0 + (i % g.cols) * g.pitch_mm[0], y0 + (i // g.cols) * g.pitch_mm[1],
                                         *g.box_mm)) for i in slots[: len(left)])
        ids = tuple(g.first_marker + 4 * p + k for k in range(4))
        pages.append(PageLayout(paper, p + 1, n_pages, g.size_mm, ids, markers, cells))  # type: ignore[arg-type]
    if left:
        raise AssertionError(f"{paper.value}: {len(left)} kinds do not fit the sheet")
    return tuple(pages)


def _paper(paper: Paper | str) -> Paper:
    if isinstance(paper, Paper):
        return paper
    try:
        return Paper(str(paper).lower())
    except ValueError:
        raise SheetError(f"unknown paper size {paper!r}: use a4 or letter") from None


def page_of_marker(marker_id: int) -> tuple[PageLayout, int] | None:
    """``(page, corner index)`` of an ArUco id printed on a sheet, or ``None``."""
    for paper in Paper:
        for page in layout(paper):
            if marker_id in page.marker_ids:
                return page, page.marker_ids.index(marker_id)
    return None


# --- reading a photo ----------------------------------------------------------------------------------


class SheetError(ValueError):
    """A photo or request the calibration sheet cannot be read from; the message names the photo."""


class MarkersNotFound(SheetError):
    """Too few of the sheet's corner markers are visible."""


class UnknownPage(SheetError):
    """The markers belong to no page of the sheet, or to several pages at once."""


class PhotoQualityError(SheetError):
    """The sheet is too small in the photo, or the photo is blurred."""


@dataclass(frozen=True, slots=True, eq=False)
class CellReading:
    """What one box holds: ``crop`` (upright BGR tile) when ``status`` is FOUND; ``quad`` 4 x 2 corners of
    the crop in the photo (top-left first, clockwise); ``how`` = ``"detector"`` or ``"box"``; ``reason``
    says why a cell is unreadable."""

    cell: Cell
    status: CellStatus
    crop: np.ndarray | None = None
    quad: np.ndarray | None = None
    how: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True, eq=False)
class SheetReading:
    source: str
    page: PageLayout
    cells: tuple[CellReading, ...]
    px_per_mm: float
    sharpness: float
    markers_seen: int

    def tiles(self, status: CellStatus) -> tuple[Tile, ...]:
        return tuple(c.cell.tile for c in self.cells if c.status is status)

    def samples(self) -> list[tuple[Tile, np.ndarray]]:
        """``(tile, crop)`` for every box that holds a tile, for ``Calibration.from_crops``."""
        return [(c.cell.tile, c.crop) for c in self.cells if c.status is CellStatus.FOUND and c.crop is not None]


def _find_markers(grey: np.ndarray) -> tuple[list[np.ndarray], list[int]]:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), params)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return [], []
    return [c.reshape(4, 2) for c in corners], [int(i) for i in ids.ravel()]


def _locate_page(image: np.ndarray, source: str) -> tuple[PageLayout, np.ndarray, int]:
    """The page in the photo and the homography from page millimetres to photo pixels."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids = _find_markers(grey)
    known = [(page_of_marker(i), c) for i, c in zip(ids, corners, strict=True)]
    hits = [(pc[0], pc[1], c) for pc, c in known if pc is not None]
    if not hits:
        what = (f"markers {sorted(ids)} that are not on the sheet" if ids else "no corner markers",
                f"照片裡的標記 {sorted(ids)} 不是校正表上的" if ids else "找不到校正表四角的方塊")
        raise (UnknownPage if ids else MarkersNotFound)(
            f"{source}: {what[0]}; photograph one page of the sheet (`companion calibrate sheet`) from above "
            f"with its four corner squares in view, sharp and well lit / {what[1]}：請從正上方拍一頁校正表"
            "（companion calibrate sheet 印出的），四角的方塊都要拍進去，對好焦、光線充足")
    pages = {(p.paper, p.number): p for p, _, _ in hits}
    if len(pages) > 1:
        raise UnknownPage(f"{source}: markers of several pages ({', '.join(p.label for p in pages.values())}); "
                          f"photograph one page at a time / 拍到好幾頁的標記（{'、'.join(p.label_zh for p in pages.values())}）"
                          "：一次只拍一頁")
    page = hits[0][0]
    if len(hits) < 2:
        # too blurred, the other markers are not made out though they are in the photo (a review's photo blurred by
        # sigma 6 was told to keep all four corners in it): said as blurred, as a sharper blurred photo is
        sharp = _marker_sharpness(grey, hits[0][2])
        if sharp < MIN_SHARPNESS:
            raise _blurred(source, page, sharp)
        raise MarkersNotFound(f"{source}: only {len(hits)} of the 4 corner markers of {page.label} is visible; "
                              f"keep all four corners in the photo / {page.label_zh}只拍到 {len(hits)} 個角的方塊"
                              "（共 4 個）：四角都要拍進去")
    mm = np.concatenate([page.marker_corners_mm(k) for _, k, _ in hits])
    px = np.concatenate([c for _, _, c in hits]).astype(np.float32)
    h, _ = cv2.findHomography(mm, px, cv2.RANSAC if len(hits) > 2 else 0, 3.0)
    if h is None:
        raise MarkersNotFound(f"{source}: the corner markers of {page.label} do not fit the page; "
                              f"photograph it flat and from above / {page.label_zh}的四角對不起來：請把紙放平、從正上方拍")
    return page, h, len(hits)


def _px_per_mm(page: PageLayout, h: np.ndarray) -> float:
    """Smallest scale (photo pixels per mm) over the page's cells, from the homography."""
    pts = np.array([c.centre_mm for c in page.cells], np.float32)
    a = cv2.perspectiveTransform(pts[None], h)[0]
    b = cv2.perspectiveTransform((pts + [1.0, 0.0]).astype(np.float32)[None], h)[0]
    c = cv2.perspectiveTransform((pts + [0.0, 1.0]).astype(np.float32)[None], h)[0]
    return float(min(np.linalg.norm(b - a, axis=1).min(), np.linalg.norm(c - a, axis=1).min()))


def _sharpness(rect: np.ndarray, page: PageLayout) -> float:
    """Steepest black-to-white step across the markers' edges per rectified pixel, relative to their contrast:
    about 0.5 for a crisp print, falling towards 0 as blur spreads the edge."""
    scores = []
    s = RECT_PX_PER_MM
    for x, y in page.marker_mm:
        x0, y0, n = round(x * s), round(y * s), round(MARKER_MM * s)
        steep = _edge_steepness(cv2.cvtColor(rect[y0 : y0 + n, x0 : x0 + n], cv2.COLOR_BGR2GRAY).astype(np.float32))
        if steep is not None:
            scores.append(steep)
    return max(scores) if scores else 0.0


def _edge_steepness(patch: np.ndarray) -> float | None:
    """A grey patch's steepest step per pixel relative to its contrast; None where it is empty or has too little
    contrast to say."""
    if patch.size == 0:
        return None
    lo, hi = np.percentile(patch, 5), np.percentile(patch, 95)
    if hi - lo < 30:
        return None
    gx, gy = np.abs(np.diff(patch, axis=1)), np.abs(np.diff(patch, axis=0))
    return float(max(np.percentile(gx, 99), np.percentile(gy, 99)) / (hi - lo))


def _marker_sharpness(grey: np.ndarray, quad: np.ndarray) -> float:
    """:func:`_sharpness` of one marker found in the photo (``quad``: its 4 x 2 corners in photo pixels), measured in
    the photo and scaled to the rectified page's pixels: what the page would measure, before the page is placed."""
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
    if side < 4:
        return 0.0
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    steep = _edge_steepness(grey[max(0, y0) : y1 + 1, max(0, x0) : x1 + 1].astype(np.float32))  # per photo pixel
    if steep is None:
        return 0.0
    per_rect_px = side / MARKER_MM / RECT_PX_PER_MM  # photo pixels in one of the rectified page's
    return float(min(1.0, steep * per_rect_px))


def _blurred(source: str, page: PageLayout, sharp: float) -> PhotoQualityError:
    """(Said as a share of what the reading needs: "0.16, need 0.165" meant nothing to a player, a review found.)"""
    share = min(99, round(100 * sharp / MIN_SHARPNESS))
    return PhotoQualityError(f"{source}: {page.label} is blurred (sharp to {share}% of what reading the tiles "
                             f"needs); hold still and focus on the tiles / {page.label_zh}拍得模糊（清晰度只有讀牌"
                             f"所需的 {share}%）：請拿穩、對焦在牌上重拍")


def read_sheet(image: np.ndarray, *, source: str = "photo", detector: TileDetector | None = None,
               use_detector: bool = True) -> SheetReading:
    """Every box of the sheet page in ``image`` (``HxWx3`` uint8 BGR). ``detector`` is a
    :class:`~companion.vision.detect.TileDetector` (the packaged one if ``None``); with ``use_detector=False``
    each tile is cut at its box. Raises :class:`SheetError` subclasses naming ``source``."""
    from companion.vision.sheet_cells import read_cells

    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise SheetError(f"{source}: expected an HxWx3 uint8 BGR image, got {image.shape} {image.dtype} / "
                         "影像格式不符")
    if min(image.shape[:2]) < MIN_PHOTO_SIDE:
        w, h = image.shape[1], image.shape[0]
        raise PhotoQualityError(f"{source}: photo too small ({w}x{h} px, at least {MIN_PHOTO_SIDE} a side) / "
                                f"照片太小（{w}x{h} 像素，每邊至少 {MIN_PHOTO_SIDE}）")
    page, h, seen = _locate_page(image, source)
    scale = _px_per_mm(page, h)
    if scale < MIN_PX_PER_MM:
        raise PhotoQualityError(
            f"{source}: {page.label} is too small in the photo ({scale:.1f} px/mm, need {MIN_PX_PER_MM}); "
            f"move closer or use a higher resolution / {page.label_zh}在照片裡太小（每公釐 {scale:.1f} 像素，至少要 "
            f"{MIN_PX_PER_MM}）：請靠近一點拍")
    w_mm, h_mm = page.size_mm
    to_rect = np.diag([RECT_PX_PER_MM, RECT_PX_PER_MM, 1.0]) @ np.linalg.inv(h)
    size = (round(w_mm * RECT_PX_PER_MM), round(h_mm * RECT_PX_PER_MM))
    rect = cv2.warpPerspective(image, to_rect, size, flags=cv2.INTER_AREA if scale > RECT_PX_PER_MM
                               else cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    sharp = _sharpness(rect, page)
    if sharp < MIN_SHARPNESS:
        raise _blurred(source, page, sharp)
    inside = _inside_photo(page, h, image.shape)
    cells = read_cells(page, rect, RECT_PX_PER_MM, np.linalg.inv(to_rect), inside, detector, use_detector)
    return SheetReading(source, page, cells, scale, sharp, seen)


def _inside_photo(page: PageLayout, h: np.ndarray, shape: tuple[int, ...]) -> list[bool]:
    out = []
    for c in page.cells:
        x, y, w, hh = c.box_mm
        quad = np.array([[[x, y], [x + w, y], [x + w, y + hh], [x, y + hh]]], np.float32)
        p = cv2.perspectiveTransform(quad, h)[0]
        out.append(bool(np.all(p >= 0) and np.all(p[:, 0] < shape[1]) and np.all(p[:, 1] < shape[0])))
    return out


def render_sheet(paper: Paper | str = Paper.A4, dpi: int = 300) -> list[np.ndarray]:
    """The sheet's pages as ``HxWx3`` uint8 BGR images at ``dpi``."""
    from companion.vision.sheet_render import render_page

    if not MIN_DPI <= dpi <= MAX_DPI:
        raise SheetError(f"dpi {dpi} out of {MIN_DPI}-{MAX_DPI} / 解析度 {dpi} dpi 超出範圍（{MIN_DPI} 到 {MAX_DPI}）")
    return [render_page(page, dpi) for page in layout(paper)]


MISPLACED_SCORE = 0.9
"""The trained model must be this sure that a box holds another kind before it is said."""
TWICE_SCORE = 0.6
"""As sure, where the box of the kind it looks like holds one that looks like it too (:func:`misplaced`)."""


@dataclass(frozen=True, slots=True)
class Misplaced:
    """The tile in the box for ``tile`` looks like ``looks_like`` (the trained model's ``score``)."""

    tile: Tile
    looks_like: Tile
    score: float


def misplaced(samples: list[tuple[Tile, np.ndarray]], classifier: TileClassifier) -> list[Misplaced]:
    """The boxes that seem to hold another kind: a tile put in the wrong box would teach the wrong face. Read by
    an uncalibrated ``classifier``, which knows no set's faces but its training's."""
    return [m for _, m in misplaced_at(samples, classifier)]


def misplaced_at(samples: list[tuple[Tile, np.ndarray]], classifier: TileClassifier) -> list[tuple[int, Misplaced]]:
    """:func:`misplaced`, each with its place in ``samples``: ``calibrate add`` names the file of a crop labelled
    as another kind than it shows (a newcomer review's ``6m=`` a 5m taught the set to read its 5m as 6m at 1.00)."""
    if not samples:
        return []
    preds = classifier.classify([c for _, c in samples])
    itself = {tile for (tile, _), pred in zip(samples, preds, strict=True) if pred.tile == tile}
    out = []
    for i, ((tile, _), pred) in enumerate(zip(samples, preds, strict=True)):
        if pred.tile is None or pred.tile == tile:
            continue
        # a second copy of a kind whose own box holds it, said at a lower score: laying out 43 tiles, a player puts
        # one kind in two boxes (a calibration review: a 2m in the 5m box, read 2m at 0.89, taught the set's 5m)
        if pred.score >= MISPLACED_SCORE or (pred.score >= TWICE_SCORE and pred.tile in itself):
            out.append((i, Misplaced(tile, pred.tile, float(pred.score))))
    return out


TURNED_SCORE = 0.5
"""A box's tile is taken as laid upside down when the trained model reads it turned a half turn as the box's kind at
least this surely, and more than :data:`TURNED_MARGIN` surer than as laid, and as laid reads no other kind as surely as
:data:`MISPLACED_SCORE` (a synthetic 6p upside down reads 8p at 0.79)."""
TURNED_MARGIN = 0.3
HALF_TURN_ALIKE = 0.6
"""A crop whose pixels correlate with its own half turn this well (:func:`_look`) shows a face alike both ways up: it
is not said to lie upside down (a review's 4s of set 11, 0.84, laid the right way up, was said turned). Measured on
the review's sheets: faces alike both ways 0.74-0.85 (4s, 8p, 9p, 2s), a tile laid turned 0.34-0.38; set in the gap
between (it was 0.75, above the 0.74 face: a change review)."""


def upside_down(reading: SheetReading, classifier: TileClassifier) -> tuple[SheetReading, list[Tile]]:
    """``reading`` with each box's tile that lies upside down turned the right way up, and those tiles. A tile laid
    upside down in its box taught the set its face turned (a calibration review: every suit tile of a page turned
    passed unsaid, and the set's other copies were read right 51 times in 68, 68 without calibration); a tile the
    same both ways up (5p) is read alike either way and left as laid. Read by an uncalibrated ``classifier``."""
    found = [i for i, c in enumerate(reading.cells) if c.status is CellStatus.FOUND and c.crop is not None]
    if not found:
        return reading, []
    crops = [reading.cells[i].crop for i in found]
    laid = classifier.probabilities(crops)  # type: ignore[arg-type]
    turned = classifier.probabilities([np.ascontiguousarray(c[::-1, ::-1]) for c in crops])  # type: ignore[index]
    names = classifier.info.class_names
    cells = list(reading.cells)
    out = []
    for row, i in enumerate(found):
        tile = reading.cells[i].cell.tile
        if tile.code not in names:
            continue
        col = names.index(tile.code)
        crop = reading.cells[i].crop
        assert crop is not None
        # (a tile read surely as laid is another kind's, put in the wrong box: said by :func:`misplaced`; a review's
        # 3s in the 4s box read 4s turned; a tile alike both ways up, last as the dearest test: a turn cannot be
        # told, nor would it teach another face)
        if turned[row, col] >= TURNED_SCORE and turned[row, col] - laid[row, col] >= TURNED_MARGIN \
                and np.delete(laid[row], col).max() < MISPLACED_SCORE \
                and float(_look(crop) @ _look(np.ascontiguousarray(crop[::-1, ::-1]))) < HALF_TURN_ALIKE:
            cells[i] = dataclasses.replace(cells[i], crop=np.ascontiguousarray(crop[::-1, ::-1]))
            out.append(tile)
    return (dataclasses.replace(reading, cells=tuple(cells)) if out else reading), out


def sheet_pdf(paper: Paper | str = Paper.A4, dpi: int = 300) -> bytes:
    """The sheet's pages as one PDF (a page per sheet page, printed at ``dpi``)."""
    import io

    from PIL import Image

    pages = [Image.fromarray(np.ascontiguousarray(p[:, :, ::-1])) for p in render_sheet(paper, dpi)]
    out = io.BytesIO()
    pages[0].save(out, "PDF", save_all=True, append_images=pages[1:], resolution=float(dpi))
    return out.getvalue()


# --- one set ---------------------------------------------------------------------------------------------

SAME_SET = 0.69
"""Least :func:`set_likeness` of two groups of crops of one physical set. Measured on sheet photos made of the crops
of five real sets: a page against another photo of it (sharp, blurred, askew, its tiles larger than their boxes)
0.72-1.00; against the same page of another set 0.49-0.66 (the three sets a review mixed). Two sets much alike in
style can measure as one (sets 2 and 3, the same page: 0.78 in a later review's photos): they are not told apart."""
SHARED_KINDS = 3
"""Fewer kinds than this shared by two groups of crops say nothing of whether they are of one set."""
_LOOK = (24, 32)


def _look(crop: np.ndarray) -> np.ndarray:
    """The crop small, its mean taken out and scaled to unit length: its pixels to correlate."""
    v = cv2.resize(crop, _LOOK, interpolation=cv2.INTER_AREA).astype(np.float32).ravel()
    v -= v.mean()
    return v / (float(np.linalg.norm(v)) + 1e-6)


def set_likeness(held: Sequence[tuple[Tile, np.ndarray]], new: Sequence[tuple[Tile, np.ndarray]],
                 classifier: TileClassifier) -> float | None:
    """How alike the tiles of ``held`` and ``new`` (``(tile, BGR crop)`` pairs) are as tiles of one set: over the
    kinds both hold, the median of the mean of two measures, the cosine of the trained model's embeddings (the kind's
    drawing) and the correlation of the small crops' pixels (the set's own colours, strokes and tile body); under
    :data:`SAME_SET`, two sets. None where they share fewer than :data:`SHARED_KINDS` kinds. (A review's photos of
    three sets were averaged into one calibration, and another set's page put into a saved set, unsaid.)"""
    kinds = sorted({t for t, _ in held} & {t for t, _ in new}, key=lambda t: t.code)
    if len(kinds) < SHARED_KINDS:
        return None
    a = [(t, c) for t, c in held if t in kinds]
    b = [(t, c) for t, c in new if t in kinds]
    emb, look = _features([c for _, c in a + b], classifier)
    ta, tb = np.array([t.code for t, _ in a]), np.array([t.code for t, _ in b])
    ea, eb, la, lb = emb[: len(a)], emb[len(a):], look[: len(a)], look[len(a):]
    per_kind = []
    for t in kinds:
        i, j = ta == t.code, tb == t.code
        per_kind.append(float(((ea[i] @ eb[j].T).mean() + (la[i] @ lb[j].T).mean()) / 2))
    return float(np.median(per_kind))


_FEATURES_KEPT = 4096
"""Crops whose :func:`_features` are kept per classifier (half a kilobyte each with the packaged model): a few dozen
sheet pages."""
_FEATURES: weakref.WeakKeyDictionary[TileClassifier, dict[bytes, tuple[np.ndarray, np.ndarray]]] = \
    weakref.WeakKeyDictionary()
_FEATURES_LOCK = threading.Lock()


def _features(crops: Sequence[np.ndarray], classifier: TileClassifier) -> tuple[np.ndarray, np.ndarray]:
    """``(unit embeddings N x D, small crops N x L)`` of ``crops`` for :func:`set_likeness`, each crop embedded once by
    ``classifier`` and kept, keyed by its pixels: every photo of a page was compared with all the photos before it, their
    crops embedded again each time (`calibrate photo`'s photo N of a page embedded 22 N crops, the 20th in 110 ms; now 22,
    in 24 ms). The model reads each crop alone, so a crop embedded in another batch gives the same embedding."""
    keys = [_pixels_key(c) for c in crops]
    with _FEATURES_LOCK:
        kept = _FEATURES.setdefault(classifier, {})
        got = {k: kept[k] for k in keys if k in kept}
    todo = {k: c for k, c in zip(keys, crops, strict=True) if k not in got}  # (a crop given twice, embedded once)
    if todo:
        _, emb = classifier.run(list(todo.values()))
        emb = emb / (np.linalg.norm(emb, axis=1, keepdims=True) + 1e-8)
        fresh = {k: (e.copy(), _look(c)) for (k, c), e in zip(todo.items(), emb, strict=True)}
        got.update(fresh)
        with _FEATURES_LOCK:
            kept.update(fresh)
            for old in list(kept)[: max(0, len(kept) - _FEATURES_KEPT)]:  # the longest kept go first
                del kept[old]
    return np.stack([got[k][0] for k in keys]), np.stack([got[k][1] for k in keys])


def _pixels_key(crop: np.ndarray) -> bytes:
    """A digest of ``crop``'s size and pixels (hashed in an eighth of the time the model takes to embed it)."""
    h = hashlib.sha256(f"{crop.shape} {crop.dtype}".encode())
    h.update(np.ascontiguousarray(crop).data)
    return h.digest()


def other_set(like: float | None) -> bool:
    """A :func:`set_likeness` that says two sets (None, too few kinds shared to tell, does not)."""
    return like is not None and like < SAME_SET


def box_named(tile: Tile) -> tuple[str, str]:
    """A box's kind, (zh, en), as the sheet labels it and calibration's messages name it: a plant by the number
    printed on it (印 3 的花, plant printed 3), since sets differ on which plant is printed 3 or 4 (spec §1.1: a
    message said "check box 7f 菊 (Chrysanthemum): it looks like 8f 竹" of a set whose 竹 is printed 3, a review);
    any other kind by its name."""
    if tile.is_plant:
        n = tile.rank - 4
        return f"印 {n} 的花", f"plant printed {n}"
    return tile.zh, tile.en
