"""Tiles lying across their row in a photo of a laid-down hand (a meld's claimed tile turned sideways): the frame of
the rows, and a second look where the detector boxed such a tile wrong.

The detector learnt sideways tiles from rendered ones, whose body shows around the face. A real tile photographed
from above shows little body, and a face lying across its row then looks like upright faces: on hands composed
from the real dev crops with each meld's claimed tile turned (``python -m benchmarks.photo_score DEV ...
--sideways``) the detector boxed about one sideways tile in five as an upright tile, a box about a tile's width
high (its true height, which is what sets it apart) but cut to part of its length, or as two narrow upright
tiles side by side (a 4p across the row as two 2p). So in photos (``TileReader.read(..., tiled=True)``) a face-up
box markedly less deep across its row than the photo's upright tiles (:data:`SHORT`) is read again as a tile
lying across the row, at a few places along it (:data:`SLIDE`), turned both ways; the surest reading replaces the
boxes it covers when it is surer than they are, or when it covers two boxes both narrower than a tile (a tile
read as two). And a face-up tile that lies across the row is read again half turned, and at the photo's tile size
both ways (:func:`across_views`), keeping the surest reading: which end of a sideways tile is its top is the
orientation network's least certain call, and a sideways box drawn smaller than the tile cuts off part of its
face (萬 read as a wind).

The other way round, a lone upright tile with no row around it (the winning tile set apart) was boxed as one or two
halves lying across the row, a 4p as 2p: a box lying across the row that reaches along it only a tile's width
(:data:`PART`) is read again as an upright tile slid across the row, under the same rules.

Pure geometry here; :class:`companion.vision.read.TileReader` reads the crops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SIDEWAYS = 0.7
"""A tile lies sideways (a meld's claimed tile) when the sine of its turn against the tiles' common turn is at
least this (about 45 degrees and more)."""
SHORT = 0.875
"""A face-up upright box whose depth across its row is under this share of the photo's upright tiles' median
depth may be a tile lying across the row: halfway between a tile's width and its height (3:4), so a box nearer a
tile's width deep than its height."""
SLIDE = (-1.0, -0.5, 0.0, 0.5, 1.0)
"""Where along the row a sideways tile is looked for around a short box: its centre moved by these shares of
half the length the box lacks (from one end of the tile to the other)."""
PART = 0.8
"""A box lying across its row that reaches along it less than this share of the photo's upright tiles' height is
no sideways tile (one reaches a tile's height along the row) but may be part of an upright one: a lone 4p, with no
row around it, was boxed as one or two 2p lying across the row, each half the tile."""
ACCEPT = 0.6
"""A whole tile's reading replaces boxes only when its best tile reaches this."""
OVERLAP = 0.25
"""... and when it reaches at most this share of a tile's width into a box it does not replace."""


def common_turn(angle: np.ndarray) -> float:
    """The tiles' common turn (radians, counter-clockwise from image up), up to a half turn: the median of doubled
    angles ignores which way up a tile lies, and sideways tiles are few."""
    a = np.radians(angle)
    return float(np.arctan2(np.median(np.sin(2 * a)), np.median(np.cos(2 * a))) / 2)


@dataclass(frozen=True, slots=True)
class RowFrame:
    """Tiles in the frame of their rows: ``along`` and ``across`` the rows (px), each tile's extent along its
    row (``extent``) and across it (``depth``), and whether it lies ``sideways``; ``turn`` is the rows' common
    turn (radians)."""

    along: np.ndarray
    across: np.ndarray
    extent: np.ndarray
    depth: np.ndarray
    sideways: np.ndarray
    turn: float

    @staticmethod
    def of(obb: np.ndarray) -> RowFrame:
        """The frame of the oriented boxes ``obb`` (N x 5: cx, cy, w, h, angle in degrees)."""
        ref = common_turn(obb[:, 4])
        xy = obb[:, :2].astype(np.float64)
        w, h = obb[:, 2].astype(np.float64), obb[:, 3].astype(np.float64)
        side = np.abs(np.sin(np.radians(obb[:, 4]) - ref)) >= SIDEWAYS
        short, long = np.minimum(w, h), np.maximum(w, h)
        return RowFrame(xy @ _right(ref), xy @ _down(ref), np.where(side, long, short), np.where(side, short, long),
                        side, ref)

    def point(self, along: float, across: float) -> tuple[float, float]:
        """Image coordinates of a point given along and across the rows."""
        x, y = along * _right(self.turn) + across * _down(self.turn)
        return float(x), float(y)


def _right(ref: float) -> np.ndarray:
    return np.array([np.cos(ref), -np.sin(ref)])  # a tile's right in the image (y down), turned with it


def _down(ref: float) -> np.ndarray:
    return np.array([np.sin(ref), np.cos(ref)])


@dataclass(frozen=True, slots=True)
class Proposals:
    """Boxes of a whole tile (``obb``, P x 5) around the boxes that look like part of one; ``owner`` (P) is the box
    each was put around, ``upright`` (P) whether it stands in its row (else it lies across it); ``parts`` the mask
    of boxes that look like part of a tile (:func:`proposals`); ``width`` and ``depth`` the photo's upright tiles'
    median sides."""

    obb: np.ndarray
    owner: np.ndarray
    upright: np.ndarray
    parts: np.ndarray
    width: float
    depth: float

    def halves(self, j: int) -> tuple[float, float]:
        """Half the extent of proposal ``j`` along its row and across it."""
        return (self.width / 2, self.depth / 2) if self.upright[j] else (self.depth / 2, self.width / 2)


def tile_size(frame: RowFrame, obb: np.ndarray, face_up: np.ndarray) -> tuple[float, float] | None:
    """A tile's width and height in the photo: the medians of the face-up tiles' sides that do not lie across their
    row; None where there are fewer than three to measure by."""
    up = face_up & ~frame.sideways
    if up.sum() < 3:
        return None
    return float(np.median(np.minimum(obb[up, 2], obb[up, 3]))), float(np.median(np.maximum(obb[up, 2], obb[up, 3])))


def across_views(obb: np.ndarray, size: tuple[float, float] | None) -> np.ndarray:
    """``V x N x 5``: other boxes to read each tile lying across its row in (``obb``, N x 5): half turned, and,
    where the photo's tile size is known, at that size both ways (a sideways box drawn smaller than the tile cuts
    off part of its face)."""
    views = [half_turned(obb)]
    if size is not None:
        full = obb.copy()
        full[:, 2], full[:, 3] = size
        views += [full, half_turned(full)]
    return np.stack(views)


def proposals(frame: RowFrame, obb: np.ndarray, face_up: np.ndarray) -> Proposals | None:
    """Whole tiles around the face-up boxes that look like part of one: sideways tiles around the upright boxes less
    deep than :data:`SHORT` of the photo's upright tiles (slid along the row), and upright tiles around the boxes
    lying across the row that reach along it less than :data:`PART` of a tile's height (slid across the row: a
    lone 4p boxed as one or two 2p lying across it), each at the :data:`SLIDE` places, turned both ways. None where
    there is none, or fewer than three upright face-up tiles to measure a tile by."""
    size = tile_size(frame, obb, face_up)
    if size is None:
        return None
    width, depth = size
    short = face_up & ~frame.sideways & (frame.depth < SHORT * depth)
    small = face_up & frame.sideways & (frame.extent < PART * depth)
    cand = np.flatnonzero(short | small)
    if len(cand) == 0:
        return None
    out, owner, upright = [], [], []
    turn = np.degrees(frame.turn)
    for i in cand:
        stands = bool(small[i])  # the tile it is part of stands in the row
        lacks = max(depth - (frame.depth[i] if stands else frame.extent[i]), 0.0) / 2
        for k in SLIDE:
            a, c = (frame.along[i], frame.across[i] + k * lacks) if stands else (frame.along[i] + k * lacks,
                                                                                 frame.across[i])
            x, y = frame.point(float(a), float(c))
            for t in ((0.0, 180.0) if stands else (90.0, -90.0)):
                out.append((x, y, width, depth, (turn + t + 180) % 360 - 180))
                owner.append(i)
                upright.append(stands)
    return Proposals(np.array(out, np.float32), np.array(owner), np.array(upright), short | small, width, depth)


def choose(frame: RowFrame, props: Proposals, sure: np.ndarray, old: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Which proposals to take: ``(proposal, boxes it replaces)``. ``sure`` (P) is each proposal's best tile
    probability, ``old`` (N) each box's. Each box that looks like part of a tile offers its surest proposal, the
    surest first; one is taken when it reaches :data:`ACCEPT`, covers no box (centre inside it) but such parts,
    reaches no further than :data:`OVERLAP` of a tile's width along the row into a box in line with it that it does
    not cover, and reads surer than every box it covers, or, lying across the row, covers two or more boxes each
    narrower along the row than :data:`SHORT` of a tile's width (one tile read as two)."""
    n = len(frame.along)
    best: dict[int, int] = {}
    for j, i in enumerate(props.owner):
        if int(i) not in best or sure[j] > sure[best[int(i)]]:
            best[int(i)] = j
    taken: list[tuple[int, np.ndarray]] = []
    gone = np.zeros(n, bool)
    for i, j in sorted(best.items(), key=lambda kv: -sure[kv[1]]):
        if gone[i] or sure[j] < ACCEPT:
            continue
        half_long, half_wide = props.halves(j)
        x, y = props.obb[j, :2].astype(np.float64)
        pa, pc = np.array([x, y]) @ _right(frame.turn), np.array([x, y]) @ _down(frame.turn)
        in_line = np.abs(frame.across - pc) < half_wide
        covered = np.flatnonzero(in_line & (np.abs(frame.along - pa) < half_long) & ~gone)
        others = np.ones(n, bool)
        others[covered] = False
        if ((~props.parts[covered]) & (covered != i)).any():
            continue
        reach = np.minimum(pa + half_long, frame.along + frame.extent / 2) - \
            np.maximum(pa - half_long, frame.along - frame.extent / 2)
        if (others & in_line & ~gone & (reach > OVERLAP * props.width)).any():
            continue
        split = not props.upright[j] and len(covered) >= 2 and bool((frame.extent[covered] < SHORT * props.width).all())
        if sure[j] > old[covered].max(initial=0.0) or split:
            taken.append((j, covered))
            gone[covered] = True
    return taken


def half_turned(obb: np.ndarray) -> np.ndarray:
    """The boxes ``obb`` turned half a turn (the same place, the other end up)."""
    out = obb.copy()
    out[:, 4] = (out[:, 4] + 360) % 360 - 180
    return out
