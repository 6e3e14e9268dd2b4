"""Finding the tile in each box of a rectified calibration-sheet page.

The page has been warped to ``k`` pixels per millimetre. The tile detector runs once on it; a box whose
centre lies in a cell and whose size is a tile's is that cell's tile (turned to the nearest upright
angle: the sheet asks for tiles placed upright), cut at the median size of the tiles found on the page.
A cell whose inside looks like the paper around it is empty whatever the detector says (it may take an
empty printed box for a tile); one that holds something the detector missed is cut at its printed box.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.detect import TileDetector, obb_corners
from companion.vision.read import upright_crops
from companion.vision.sheet import Cell, CellReading, CellStatus, PageLayout

__all__ = ["read_cells", "ink_fraction", "INK_LEVEL", "MIN_INK", "MIN_INK_DETECTED"]

INK_LEVEL = 45
"""Levels (0-255, on the page made white) of colour or of a dark stroke that make a pixel ink."""
DARK_LEVEL = 100
"""Darker than this (0-255, on the page made white) is a dark tile back, never paper in a shadow."""
MIN_INK = 0.025
MIN_INK_DETECTED = 0.006
"""The same where the detector found a tile: a back as pale as the paper shows only its outline."""
"""Share of a box's inside that must differ from the paper for the box to hold something."""
_TILE_MM = (12.0, 50.0)
"""Sides (mm) a detected box may have to count as a tile on the sheet (the printed label pictures are 5 mm)."""


def read_cells(page: PageLayout, rect: np.ndarray, k: float, rect_to_photo: np.ndarray, inside: list[bool],
               detector: TileDetector | None, use_detector: bool) -> tuple[CellReading, ...]:
    """One :class:`CellReading` per cell of ``page``, in order."""
    found = _detected(page, rect, k, detector) if use_detector else {}
    size = _common_size(found)
    shift = _shift_model(page, found, k)
    out = []
    for i, cell in enumerate(page.cells):
        if not inside[i]:
            out.append(CellReading(cell, CellStatus.UNREADABLE, reason="outside the photo / 不在照片內"))
            continue
        obb, how = found.get(i), "detector"
        if ink_fraction(rect, cell, k) < (MIN_INK_DETECTED if obb is not None else MIN_INK):
            out.append(CellReading(cell, CellStatus.EMPTY))  # blank paper (the detector may take a box for a tile)
            continue
        if obb is None:
            x, y, w, h = cell.box_mm
            cx, cy = (x + w / 2) * k, (y + h / 2) * k
            dx, dy = np.array([cx, cy, 1.0]) @ shift if shift is not None else (0.0, 0.0)
            bw, bh = size if size is not None else (w * k, h * k)
            obb, how = np.array([cx + dx, cy + dy, bw, bh, 0.0], np.float32), "box"
        elif size is not None:
            obb = np.array([*obb[:2], *size, obb[4]], np.float32)
        crop = upright_crops(rect, obb[None])[0]
        quad = cv2.perspectiveTransform(obb_corners(obb[None]).astype(np.float32), rect_to_photo)[0]
        out.append(CellReading(cell, CellStatus.FOUND, crop, quad, how))
    return tuple(out)


def _detected(page: PageLayout, rect: np.ndarray, k: float, detector: TileDetector | None) -> dict[int, np.ndarray]:
    """Cell index -> the best detected tile box in that cell (rectified pixels, snapped upright)."""
    det = detector if detector is not None else TileDetector(threads=1, backs=False)
    boxes = det.detect(rect)
    centres = np.array([c.centre_mm for c in page.cells], np.float32) * k
    best: dict[int, tuple[float, np.ndarray]] = {}
    for obb, score in zip(boxes.obb, boxes.score, strict=True):
        box = _upright(obb)
        w_mm, h_mm = box[2] / k, box[3] / k
        if not (_TILE_MM[0] <= min(w_mm, h_mm) and max(w_mm, h_mm) <= _TILE_MM[1]):
            continue
        i = int(np.argmin(np.linalg.norm(centres - box[:2], axis=1)))
        if not _in_cell(page.cells[i], box[:2] / k):
            continue
        if i not in best or score > best[i][0]:
            best[i] = (float(score), box)
    return {i: b for i, (_, b) in best.items()}


def _common_size(found: dict[int, np.ndarray]) -> tuple[float, float] | None:
    """The median width and height of the tiles found on the page: the tiles of one set are one size, and
    the median is steadier than any one box (crops lie better on their tiles: median IoU 0.84 -> 0.88)."""
    if len(found) < 5:
        return None
    w, h = np.median(np.stack(list(found.values()))[:, 2:4], axis=0)
    return float(w), float(h)


def _shift_model(page: PageLayout, found: dict[int, np.ndarray], k: float) -> np.ndarray | None:
    """How far tiles lie from their boxes' centres, as an affine function of the position (3 x 2): a tile's
    face stands 20 mm above the paper, so seen from 30 cm it shows up to 10 mm outwards from the photo's
    centre, and a tile the detector missed is cut where its found neighbours say it is."""
    if len(found) < 6:
        return None
    idx = sorted(found)
    centres = np.array([page.cells[i].centre_mm for i in idx], np.float64) * k
    seen = np.stack([found[i][:2] for i in idx]).astype(np.float64)
    a = np.column_stack([centres, np.ones(len(idx))])
    model, *_ = np.linalg.lstsq(a, seen - centres, rcond=None)
    return model


MAX_TILT = 8.0
"""A detected angle further than this (degrees) from upright is taken for the detector's error (its angle is
its weak point, and the sheet asks for tiles put down upright): such a box is cut upright."""


def _upright(obb: np.ndarray) -> np.ndarray:
    """The box turned by quarter turns to the angle nearest upright (width and height swapped on an odd
    turn); a tilt beyond ``MAX_TILT`` is dropped."""
    out = obb.astype(np.float32).copy()
    turns = round(float(out[4]) / 90.0)
    out[4] -= 90.0 * turns
    if turns % 2:
        out[2], out[3] = out[3], out[2]
    if abs(float(out[4])) > MAX_TILT:
        out[4] = 0.0
    return out


def _in_cell(cell: Cell, centre_mm: np.ndarray) -> bool:
    """A tile's centre lies inside its printed box, or just past it (a tile put down a little off)."""
    x, y, w, h = cell.box_mm
    slack = 0.25
    return bool(x - slack * w <= centre_mm[0] <= x + (1 + slack) * w and y - slack * h <= centre_mm[1] <= y + (1 + slack) * h)


def ink_fraction(rect: np.ndarray, cell: Cell, k: float, inset_mm: float = 2.0) -> float:
    """Share of the box's inside (``inset_mm`` in from its printed line) that is ink rather than paper or
    shadow: coloured (the paper's colour taken from the brightest of a strip just left and right of the
    box, so a shadow stays grey), a dark stroke thinner than 3 mm (a black-hat filter: a soft shadow is
    not one), or far darker than a shadow (a navy or black back). On synthetic photos a tile gives 1-100 %
    (a back as pale as the paper the least), an empty box under 0.5 %, even in a neighbour's shadow or
    under the side of a neighbour's tile."""
    x, y, w, h = cell.box_mm

    def px(v: float) -> int:
        return int(round(v * k))

    y0, y1 = px(y + inset_mm), px(y + h - inset_mm)
    inner = rect[y0:y1, px(x + inset_mm) : px(x + w - inset_mm)].astype(np.float32)
    strips = [rect[y0:y1, px(x - 1.5) : px(x - 0.5)], rect[y0:y1, px(x + w + 0.5) : px(x + w + 1.5)]]
    ring = np.concatenate([s.reshape(-1, 3) for s in strips if s.size]).astype(np.float32)
    if inner.size == 0 or ring.size == 0:
        return 0.0
    paper = np.percentile(ring, 90, axis=0) + 1.0
    norm = np.minimum(inner * (255.0 / paper), 255.0)
    chroma = norm.max(axis=2) - norm.min(axis=2)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (px(3.0) | 1, px(3.0) | 1))
    grey = norm.mean(axis=2)
    strokes = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, kernel)
    return float(((chroma > INK_LEVEL) | (strokes > INK_LEVEL) | (grey < DARK_LEVEL)).mean())
