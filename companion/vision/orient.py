"""Which way up a face-up tile lies: a small ONNX network that reads a square around each box and says how
many quarter turns its angle is off.

The detector's angle, snapped to the tile's edges (:func:`companion.vision.detect.snap_angles`), is right
modulo 90 degrees for nearly every tile, but for a small, nearly square tile the network often picks the
wrong one of the four: on held-out table frames a quarter of the face-up tiles came out sideways and one in
eight upside down, and the classifier misreads a crop cut that way or calls it "not a tile". The square
(:func:`square_crops`: :data:`SPAN` times the box's longer side, turned by the box's angle) holds the tile
whichever way it lies; the network answers 0-3 quarter turns counter-clockwise to add to the angle.

It reads the detector's input image (table-frame tiles 12-30 px), all boxes in one batch.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.vision.runtime import model_session, shipped_model

__all__ = ["TileOrienter", "OrientError", "SquareModel", "square_crops", "default_model_path", "SIZE", "SPAN",
           "LYING_FROM", "lying", "upright"]

MODEL_NAME = "tile_orient.onnx"
SIZE = 32
"""Side of the square the network reads, in pixels."""
SPAN = 1.25
"""The square's side in units of the box's longer side (room for the tile turned any way and a shifted box)."""


FLIP_SURE = 0.9
"""A half turn is taken only when the network gives it at least this probability (otherwise the angle stays):
on real tiles up and down is the network's weak part, and unsure flips turned right readings of the upright
dev photos wrong (see models/README.md)."""
REMAP_ROWS = 32767
"""Most rows of one ``cv2.remap``'s map (OpenCV's limit, ``SHRT_MAX``): :func:`square_crops` stacks ``size`` rows a
square, so it cuts at most ``REMAP_ROWS // size`` squares at once (1023 of 32 px, 682 of the back check's 48 px;
a batch sized for 32-px squares, 1000, failed on a photo of 700 boxes read by the back check)."""


class OrientError(ValueError):
    """The orientation model is missing or does not describe itself; the message names the file and says it in
    English and Traditional Chinese (``English / 中文``)."""


def default_model_path() -> Path:
    """The model shipped in the package (``companion/models``), else the repository's ``models/``."""
    return shipped_model(MODEL_NAME)


def square_crops(image: np.ndarray, obb: np.ndarray, size: int = SIZE, span: float = SPAN) -> np.ndarray:
    """``N x size x size x 3`` uint8: for each box (cx, cy, w, h, angle) the square of side ``span x max(w,
    h)`` around its centre, turned so that the box's "up" is the square's up; one ``cv2.remap`` for all."""
    n = len(obb)
    if n == 0:
        return np.zeros((0, size, size, 3), np.uint8)
    batch = max(1, REMAP_ROWS // size)
    if n > batch:
        return np.concatenate([square_crops(image, obb[i:i + batch], size, span) for i in range(0, n, batch)])
    # a sample's image position is the box's centre + u * right + v * down, u across and v down the square:
    # x (and y) is a term of the column plus a term of the row, so each map is one broadcast sum of two
    # N x size tables (one pass over the map, in float32, instead of five in float64: a third of the cost)
    t = np.radians(obb[:, 4].astype(np.float64))
    c, s = np.cos(t)[:, None], np.sin(t)[:, None]  # right = (c, -s), down = (s, c)
    side = span * np.maximum(obb[:, 2], obb[:, 3]).astype(np.float64)
    steps = ((np.arange(size) + 0.5) / size - 0.5)[None, :] * side[:, None]  # N x size, image pixels
    col_x, row_x = obb[:, 0, None] + steps * c, steps * s
    col_y, row_y = obb[:, 1, None] - steps * s, steps * c
    # a square much bigger than the output is cut from the image halved (INTER_AREA) as often as brings it
    # to 1.06-2.1x the output, so that sampling does not alias; each square's level depends on its own
    # size only (table frames' squares are under twice SIZE: all on the image itself)
    ratio = side / size
    level = np.where(ratio > 2, np.round(np.log2(np.maximum(ratio, 1e-9) / 1.5)), 0).astype(np.int64)
    out = np.empty((n, size, size, 3), np.uint8)
    src = image
    for lv in range(int(level.max()) + 1):
        if lv:
            src = cv2.resize(src, ((src.shape[1] + 1) // 2, (src.shape[0] + 1) // 2), interpolation=cv2.INTER_AREA)
        rows = np.nonzero(level == lv)[0]
        if len(rows) == 0:
            continue
        f = 0.5 ** lv  # (pixel centres: image x -> (x + 0.5) f - 0.5 on the halved image)
        mx = np.add(((col_x[rows] + 0.5) * f - 0.5).astype(np.float32)[:, None, :],
                    (row_x[rows] * f).astype(np.float32)[:, :, None]).reshape(len(rows) * size, size)
        my = np.add(((col_y[rows] + 0.5) * f - 0.5).astype(np.float32)[:, None, :],
                    (row_y[rows] * f).astype(np.float32)[:, :, None]).reshape(len(rows) * size, size)
        cut = cv2.remap(src, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        out[rows] = np.asarray(cut).reshape(len(rows), size, size, 3)
    return out


class SquareModel:
    """An ONNX network that reads one :func:`square_crops` square per box (its ``input_size``, ``span`` and
    ``normalisation`` in the metadata), on one thread pool with spinning off like the other models; the
    orientation network and the back check (:mod:`companion.vision.backs`)."""

    error: type[ValueError] = ValueError
    what = "square model"
    what_zh = "方形裁切模型"
    """``what`` in Traditional Chinese, for the bilingual messages."""

    def __init__(self, path: str | Path | None, threads: int, default: Callable[[], Path]) -> None:
        self.path, self.session = model_session(Path(path) if path is not None else None, default, threads,
                                                self.error, self.what)
        self.meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.size = int(self.meta["input_size"])
            self.span = float(self.meta["span"])
            norm = json.loads(self.meta["normalisation"])
            self.mean, self.std = float(norm["mean"]), float(norm["std"])
        except (KeyError, ValueError, TypeError) as e:
            raise self.error(f"{self.path} lacks {self.what} metadata ({e}) / "
                             f"{self.path.name} 缺少{self.what_zh}的中繼資料（{e}）") from e
        self.input_name = self.session.get_inputs()[0].name

    def _run(self, image: np.ndarray, obb: np.ndarray, width: int) -> np.ndarray:
        """The network's ``N x width`` output for the boxes' squares."""
        if len(obb) == 0:
            return np.zeros((0, width), np.float32)
        crops = square_crops(image, obb, self.size, self.span)
        blob = (crops.astype(np.float32) - self.mean) / self.std
        (out,) = self.session.run(None, {self.input_name: np.ascontiguousarray(blob.transpose(0, 3, 1, 2))})
        return np.asarray(out, np.float32).reshape(len(obb), width)


class TileOrienter(SquareModel):
    """The ONNX orientation network."""

    error = OrientError
    what = "tile orientation model"
    what_zh = "牌面方向模型"

    def __init__(self, path: str | Path | None = None, threads: int = 2) -> None:
        super().__init__(path, threads, default_model_path)

    def probabilities(self, image: np.ndarray, obb: np.ndarray) -> np.ndarray:
        """``N x 4``: for each box, the probability that its angle is off by 0, 1, 2 or 3 quarter turns
        (counter-clockwise turns to add)."""
        return self._run(image, obb, 4)

    def turn(self, image: np.ndarray, obb: np.ndarray, face_up: np.ndarray) -> np.ndarray:
        """The boxes ``obb`` with each face-up box's angle turned by the network's answer (a face-down tile's
        back has no up: left as it is)."""
        out = obb.copy()
        rows = np.nonzero(face_up)[0]
        if len(rows) == 0:
            return out
        p = self.probabilities(image, obb[rows])
        k = p.argmax(axis=1)
        k[(k == 2) & (p[:, 2] < FLIP_SURE)] = 0  # an unsure half turn: the angle stays
        out[rows, 4] = (obb[rows, 4] + 90.0 * k + 180.0) % 360.0 - 180.0
        return out


LYING_FROM = 1.15
"""A crop of one tile at least this many times as wide as it is tall is of a tile lying on its side (:func:`lying`):
a tile is about 3:4 upright and 4:3 lying (1.33); a close crop of an upright tile is narrower than tall."""


def lying(w: int, h: int) -> bool:
    """Whether a ``w`` x ``h`` crop of one tile is of a tile lying on its side (:data:`LYING_FROM`)."""
    return h > 0 and w >= LYING_FROM * h


def upright(crop: np.ndarray, orienter: TileOrienter) -> tuple[np.ndarray, int]:
    """A crop of one tile lying on its side (:func:`lying`, and the orientation network agreeing) turned upright, and the quarter turn it was given
    (degrees, counter-clockwise: 90 or -90); other crops as they are, 0. The orientation network reads the tile as
    a box the crop's size turned a quarter (its top to the left), and says whether its top is there or to the
    right. On 29 dev crops (every 8th) turned a quarter each way, the classifier read 6 of the 58 right as they lay
    and 57 turned upright so (the upright 29: 29). A wide crop may be a loose one of an upright tile (the table or
    the next tiles left at its sides): the network then says the box is off by a quarter (its two other answers,
    0.90-1.00 on 24 such crops, at most 0.08 on the quarter-turned dev crops), and the crop is read as it is (turned
    anyway, 27 of 29 dev crops padded to 1.15:1 read right were read 2)."""
    h, w = crop.shape[:2]
    if not lying(w, h):
        return crop, 0
    p = orienter.probabilities(crop, np.array([[w / 2, h / 2, h, w, 90.0]], np.float32))[0]
    if p[1] + p[3] > p[0] + p[2]:  # the tile stands upright in a loose crop
        return crop, 0
    if p[0] >= p[2]:  # its top to the left: a quarter turn clockwise brings it up
        return cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE), -90
    return cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE), 90
