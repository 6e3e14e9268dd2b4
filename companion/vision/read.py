"""Reading every tile in a frame or photo: detect, warp each tile upright, classify all crops in one batch.

>>> reader = TileReader()                      # doctest: +SKIP
>>> dets = reader.read(frame_bgr)              # doctest: +SKIP
>>> [str(t) for t in dets.tiles()]             # doctest: +SKIP
['1m', '2m', '0x', ...]

Face-down tiles are ``0x``. A box the detector found face down (it sees the tile's body and rim around the
face) is a back: the detector's back check (:mod:`companion.vision.backs`) has already dropped the face-down
boxes where no tile lies, and the classifier does not read them. (Without the check, a face-down box the
classifier reads as a tile is a back, :func:`backs_face_down`.) The classifier reads the kind of the
others; a box that it says is not a tile at all (a die, a chip, a coin, a finger) is dropped. In a frame
read in one pass, the face-up boxes (orientation, crops, classifier) and the face-down ones (back check, rows)
are worked out side by side on the two cores (``TileReader(parallel=True)``). The onnxruntime sessions' threads
do not spin between runs (the detector's spin while its run lasts: :func:`companion.vision.runtime.cpu_session`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.tiles import Tile
from companion.vision.detect import Boxes, TileDetector, obb_corners, obb_xyxy, row_pairs, row_support
from companion.vision.legend import Entry, legend_strip
from companion.vision.sideways import (
    ACCEPT,
    OFFER,
    RowFrame,
    across_views,
    choose,
    proposals,
    row_labels,
    row_sizes,
    ways_up,
)

__all__ = ["Detections", "TileReader", "read_tiles", "upright_crops", "annotate", "back_colours", "backs_face_down",
           "levels_stretched", "too_dark", "TOO_DARK_EN", "TOO_DARK_ZH", "reduced_note",
           "grid_points", "reading_order", "standing_turn", "stood", "rows_tilt"]

GIANT = 2.0
"""A face-down box more than this times the median area of the tiles near it is dropped (:func:`_giants`) ..."""
GIANT_NEIGHBOURS = 6
"""... taking the median over this many nearest tiles ..."""
GIANT_FROM = 8
"""... when the image has at least this many tiles, ..."""
GIANT_ALIKE = 1.4
"""... unless two other face-down boxes are within this factor of its area (a row of near tiles)."""
BACK_CHROMA = 15.0
"""A box read face down whose colour (the chroma, a* b* of CIELAB in OpenCV's 8-bit units, at the middle of
the box and at each other part of :data:`BACK_PARTS`) is further than this from the backs' colour near it is
dropped (:func:`_odd_backs`): every back of a set has one colour, and a cup, a chip, a phone or a cloth that
reads like a back seldom has it ..."""
ODD_SURE = 0.99
"""... unless the back check (``tile_backs.onnx``) gives the box at least this (:meth:`TileReader._sure_backs`) ...
"""
BACK_FROM = 4
"""... when the image has at least this many boxes read as backs (and the backs' colour comes from rows when at
least this many of them lie in a row, counted over the whole image) ..."""
BACK_NEAR = 8
"""... the backs' colour near a box being the median of this many nearest boxes read as backs that lie in a row."""
BACK_PARTS = ((-0.25, 0.25), (-0.45, -0.05), (0.05, 0.45))
"""... and a box keeps its place when any of these parts of it has that colour: the middle half, the upper half
and the lower half of its height (from and to, in box heights from its centre). A standing tile's box is its
outline, whose middle may show the tile's body while its upper or lower part shows the back. Tried on the
validation seeds 7, 11, 13 and 777: recall +0.9 / +0.5 / +0.9 / +1.0 points, false boxes +1 / +1 / +7 / +1,
no distractor more; the left and right halves as well added 0-0.2 points more."""
BODY_NEAR = 6
"""A box read as a back but not of the backs' colour shows a tile's body (:func:`_tile_bodies`; a blank white
dragon face up, a standing tile face down) when its colour is that of the median of this many faces nearest
to it ..."""
BODY_FROM = 2
"""... and the image has at least this many of them ..."""
BODY_DARKER = 30.0
"""... and it is at most this much darker than they are (CIELAB L in OpenCV's 8-bit units)."""
WEAK_UP = 0.4
"""The reader keeps face-up peaks down to this score (the detector's own threshold is 0.5, chosen by F1 for the
network alone) ..."""
WEAK_SURE = 0.8
"""... where the classifier gives one tile kind at least this probability (:meth:`TileReader._weak_faces`): the
classifier, not the peak, then vouches for the tile. On 160 validation scenes (seeds 7, 11, 13, 777) the faces
found went 93.5 / 92.8 / 92.7 / 93.2% -> 96.0 / 94.2 / 94.3 / 95.1% and recall 80.0 / 85.5 / 81.8 / 81.0% ->
81.0 / 86.3 / 82.6 / 82.0%, with 20 / 30 / 33 / 42 boxes matching no tile against 18 / 29 / 31 / 41. Without the
classifier's say (0.4 alone) 81.5 / 86.6 / 83.0 / 82.5% with 22 / 33 / 42 / 57; asking 0.5, 81.4 / 86.4 / 82.8 /
82.2% with 21 / 31 / 35 / 49; 0.3 and 0.8, 81.3 / 86.6 / 82.8 / 82.2% with 21 / 31 / 33 / 44."""
COVERED = 0.75
"""A face-up box at least this share of whose area lies inside surer boxes read as tiles is dropped
(:func:`_covered`): a part of a tile found again, or a box between two tiles ..."""
COVER_GRID = 7
"""... the share counted on the cells of this many by this many over the box."""
RETRY_BELOW = 0.5
"""A box read as "not a tile" whose best tile is below this is read again in turned crops
(:meth:`TileReader._retry_turned`) ..."""
RETRY_ACCEPT = 0.5
"""... and a turn replaces the first reading only when its best tile reaches this ..."""
RETRY_STEP = 45
"""... every this many degrees."""
DOUBTFUL = 0.5
"""A face-up reading scored under this is unsure (:meth:`Detections.doubtful`): ``companion read`` and
:func:`annotate` mark it with a question mark."""
CROP_MAX = (120, 160)
"""Largest upright crop (w, h) warped out of the image; the classifier resizes it to its input."""
REMAP_ROWS = 30000
"""Most crop rows :func:`upright_crops` cuts in one ``cv2.remap`` (and boxes :func:`back_colours` samples in one)."""


@dataclass(frozen=True, slots=True)
class Detections:
    """Tiles found in one image, as parallel arrays (validated here):

    ``obb`` N x 5 float32 (cx, cy, w, h, angle: degrees counter-clockwise of the tile's top from image
    up), ``kind`` N int16 (a :class:`Tile` value; 42 = ``0x``, face down), ``face_up`` N bool (as the
    detector saw it), ``score`` N float32 (detector score x classifier score; for a back the back check
    passed, the detector's score), ``top3_kind`` N x 3 int16 and ``top3_score`` N x 3 float32 (the
    classifier's three best readings that are tiles, three kinds, "not a tile" left out; in a photo the likeliest
    other face a second look read, as a tile lying across the row, may take the second or third place:
    :meth:`TileReader._offered`; for a back the check passed, ``0x`` with 1; for a box read as a back without the
    check because the detector found it face down, ``0x`` with the probability of "a tile", the others 0);
    ``image_size`` (w, h) of the image read, (0, 0) when unknown: :attr:`xyxy` is clipped to it;
    ``second_look`` N x 3 bool or None (none): the places of ``top3`` a second look filled (its probability, read
    in another view of the box, is not one of the classifier's for the box as read, and may exceed the reading's:
    :meth:`to_json` gives it apart)."""

    obb: np.ndarray
    kind: np.ndarray
    face_up: np.ndarray
    score: np.ndarray
    top3_kind: np.ndarray
    top3_score: np.ndarray
    image_size: tuple[int, int] = (0, 0)
    second_look: np.ndarray | None = None
    picked: np.ndarray | None = None
    """N bool or None (none): the tiles the player said (:meth:`corrected`), read as he says, for certain."""

    def __post_init__(self) -> None:
        n = len(self.kind)
        shapes = {"obb": (self.obb, (n, 5)), "face_up": (self.face_up, (n,)), "score": (self.score, (n,)),
                  "top3_kind": (self.top3_kind, (n, 3)), "top3_score": (self.top3_score, (n, 3))}
        for name, (arr, shape) in shapes.items():
            if arr.shape != shape:
                raise ValueError(f"Detections.{name} has shape {arr.shape}, expected {shape}")
        if self.kind.ndim != 1 or (n and (self.kind.min() < 0 or self.kind.max() > int(Tile.UNKNOWN))):
            raise ValueError(f"Detections.kind must hold tile values 0-42, got {self.kind!r}")
        if self.second_look is not None and (self.second_look.shape != (n, 3) or self.second_look.dtype != np.bool_):
            raise ValueError(f"Detections.second_look must be {n} x 3 bool, got {self.second_look.shape}")
        if self.picked is not None and (self.picked.shape != (n,) or self.picked.dtype != np.bool_):
            raise ValueError(f"Detections.picked must be {n} bool, got {self.picked.shape}")
        if self.face_up.dtype != np.bool_:
            raise ValueError(f"Detections.face_up must be bool, got {self.face_up.dtype}")
        if n and not (np.all(self.score >= 0) and np.all(self.score <= 1)):
            raise ValueError("Detections.score must lie in 0-1")

    def __len__(self) -> int:
        return len(self.kind)

    @staticmethod
    def empty(image_size: tuple[int, int] = (0, 0)) -> Detections:
        return Detections(np.zeros((0, 5), np.float32), np.zeros(0, np.int16), np.zeros(0, bool),
                          np.zeros(0, np.float32), np.zeros((0, 3), np.int16), np.zeros((0, 3), np.float32),
                          image_size)

    def tiles(self) -> tuple[Tile, ...]:
        return tuple(Tile(int(k)) for k in self.kind)

    def doubtful(self) -> np.ndarray:
        """Bool mask: the face-up readings scored under :data:`DOUBTFUL` (a back's score is the detector's)."""
        return np.asarray(self.face_up & (self.score < DOUBTFUL))

    def extra_copies(self) -> np.ndarray:
        """Bool mask: face-up readings of a kind read more often than a set holds it (a fifth ``5m``, a second
        ``3f``: :attr:`Tile.max_copies`), all but that many of the surest. No table shows such a thing, so at
        least one reading of the kind is wrong, and the least sure are the likeliest (``companion read`` marks
        them as it marks the unsure ones, and says why: :meth:`over_read`)."""
        out = np.zeros(len(self), bool)
        up = np.flatnonzero(np.asarray(self.face_up, bool) & (self.kind != Tile.UNKNOWN))
        for kind in np.unique(self.kind[up]):
            same = up[self.kind[up] == kind]
            most = Tile(int(kind)).max_copies
            if len(same) > most:
                out[same[np.argsort(-self.score[same], kind="stable")][most:]] = True
        return out

    def over_read(self) -> dict[Tile, int]:
        """The kinds read face up more often than a set holds them, with how often (``{5m: 5}``)."""
        up = np.asarray(self.face_up, bool) & (self.kind != Tile.UNKNOWN)
        kinds, counts = np.unique(self.kind[up], return_counts=True)
        return {Tile(int(k)): int(n) for k, n in zip(kinds, counts, strict=True) if n > Tile(int(k)).max_copies}

    def to_check(self) -> np.ndarray:
        """Bool mask: the readings a person should check against the photo: :meth:`doubtful` or
        :meth:`extra_copies`."""
        return np.asarray(self.doubtful() | self.extra_copies())

    def take(self, idx: np.ndarray) -> Detections:
        """These detections at the rows ``idx`` (an index array or a bool mask), in that order."""
        return Detections(self.obb[idx], self.kind[idx], self.face_up[idx], self.score[idx], self.top3_kind[idx],
                          self.top3_score[idx], self.image_size,
                          None if self.second_look is None else self.second_look[idx],
                          None if self.picked is None else self.picked[idx])

    def corrected(self, picks: Mapping[int, Tile]) -> Detections:
        """These detections with the tiles the player picked (index -> tile) read as those, for certain: neither
        doubted nor repaired by the scorer, nor named as suspect (:attr:`picked` marks them). A picked back is
        face down, a picked face face up. A ValueError for an index not read."""
        if not picks:
            return self
        kind, face_up, score = self.kind.copy(), self.face_up.copy(), self.score.copy()
        top3_kind, top3_score = self.top3_kind.copy(), self.top3_score.copy()
        picked = np.zeros(len(self), bool) if self.picked is None else self.picked.copy()
        second_look = None if self.second_look is None else self.second_look.copy()
        for i, t in picks.items():
            if not 0 <= i < len(self):
                raise ValueError(f"no tile {i} among the {len(self)} read")
            kind[i], face_up[i], score[i], picked[i] = int(t), t is not Tile.UNKNOWN, 1.0, True
            top3_kind[i], top3_score[i] = [int(t)] * 3, [1.0, 0.0, 0.0]
            if second_look is not None:
                second_look[i] = False
        return dataclasses.replace(self, kind=kind, face_up=face_up, score=score, top3_kind=top3_kind,
                                   top3_score=top3_score, second_look=second_look, picked=picked)

    def scaled(self, k: float, image_size: tuple[int, int]) -> Detections:
        """These detections in an image ``k`` times as large (centres and sides; angles kept), of ``image_size``:
        boxes read on a photo decoded at a reduced size, given in the photo's own pixels."""
        obb = self.obb.copy()
        obb[:, :4] *= np.float32(k)
        return dataclasses.replace(self, obb=obb, image_size=image_size)

    def mapped(self, affine: np.ndarray, turn: float, image_size: tuple[int, int]) -> Detections:
        """These detections moved into another image of ``image_size`` (w, h) by a turn of the pixels: each centre
        by the 2 x 3 ``affine`` (pixel (x, y) goes to ``affine @ (x, y, 1)``), each angle by ``turn`` degrees
        counter-clockwise (the turn ``affine`` makes), the sides scaled as ``affine`` scales (a turn keeps them)."""
        obb = self.obb.copy()
        m = np.asarray(affine, np.float64)
        xy = self.obb[:, :2].astype(np.float64)
        obb[:, :2] = xy @ m[:, :2].T + m[:, 2]
        obb[:, 2:4] *= np.float32(np.sqrt(abs(np.linalg.det(m[:, :2]))))  # a turn's scale, if any
        obb[:, 4] = (self.obb[:, 4].astype(np.float64) + turn + 180) % 360 - 180
        return dataclasses.replace(self, obb=obb, image_size=image_size)

    def quarter_turned(self, turn: int, image_size: tuple[int, int]) -> Detections:
        """These detections, of an image turned a quarter (``turn`` 1: counter-clockwise, -1: clockwise; as
        ``cv2.rotate`` turns it), given in that turned image of ``image_size`` (w, h)."""
        if turn not in (1, -1):
            raise ValueError(f"a quarter turn is 1 or -1, got {turn}")
        return self.mapped(_quarter_affine(turn, self.image_size), 90.0 * turn, image_size)

    def in_reading_order(self) -> Detections:
        """These detections as a person reads a photo of them (:func:`reading_order`), the photo turned so that the
        faces stand (:func:`standing_turn`: a hand photographed from its side reads along its rows, not across)."""
        turn = standing_turn(self)
        if not turn:
            return self.take(reading_order(self.obb))
        stand = cv2.getRotationMatrix2D((0.0, 0.0), -turn, 1.0)  # turned clockwise about the origin: only the order
        return self.take(reading_order(self.mapped(stand, -turn, (0, 0)).obb))

    @property
    def xyxy(self) -> np.ndarray:
        """Axis-aligned boxes N x 4 around the oriented ones, inside the image when its size is known."""
        box = obb_xyxy(self.obb)
        w, h = self.image_size
        if w > 0 and h > 0:
            box = np.clip(box, 0, [w, h, w, h])
        return box

    def to_json(self) -> list[dict[str, object]]:
        """One object per tile: ``{"tile": "5p", "xyxy": [...], "angle": 0.0, "score": 0.98, "top3": [...],
        "unsure": false, "extra_copy": false}`` (``unsure``: to be checked against the photo, as the text output
        marks it ``?``: the face read under :data:`DOUBTFUL`, or ``extra_copy``: one of more copies of its kind
        than a set holds, and of them the least sure, :meth:`extra_copies`). ``top3``: the classifier's likeliest
        kinds for the box as read, ``{"tile", "score"}``, the reading ``tile`` first and the others by score, each
        score the classifier's probability of that kind (together at most 1; ``score`` is the first's times the
        detector's); where a second look at the box (another view: the tile lying across its row) read another kind
        likelier than the third, that kind is ``"second_look": {"tile", "score"}`` instead, its probability in that
        view, which may exceed the reading's, and ``top3`` holds the other two (a review's program, sorting ``top3``,
        took such a 0.81 over the 0.38 reading)."""
        out = []
        extra = self.extra_copies()
        doubtful = self.doubtful() | extra
        looks = self.second_look if self.second_look is not None else np.zeros((len(self), 3), bool)
        for i, box in enumerate(self.xyxy):
            own = [(int(k), float(s)) for k, s, look in zip(self.top3_kind[i], self.top3_score[i], looks[i],
                                                             strict=True) if not look]
            own.sort(key=lambda ks: (ks[0] != int(self.kind[i]), -ks[1]))  # the reading first, then by score
            tile = {"tile": Tile(int(self.kind[i])).code, "xyxy": [round(float(v), 1) for v in box],
                    "angle": round(float(self.obb[i, 4]), 1), "score": round(float(self.score[i]), 4),
                    "top3": [{"tile": Tile(k).code, "score": round(s, 4)} for k, s in own],
                    "unsure": bool(doubtful[i]), "extra_copy": bool(extra[i])}
            for k, s, look in zip(self.top3_kind[i], self.top3_score[i], looks[i], strict=True):
                if look:
                    tile["second_look"] = {"tile": Tile(int(k)).code, "score": round(float(s), 4)}
            out.append(tile)
        return out


ROW_OVERLAP = 0.5
""":func:`reading_order`: two boxes side by side are in one row when their centres lie within this share of the
taller one's height of each other up the image ..."""
ROW_REACH = 1.6
"""... and within this many of the wider one's widths of each other across it."""


def reading_order(obb: np.ndarray) -> np.ndarray:
    """The order of the boxes ``obb`` (N x 5) as a person reads a photo of tiles: rows from the top of the image
    down, each row left to right. A row is a chain of boxes side by side (:data:`ROW_OVERLAP`,
    :data:`ROW_REACH`, on the boxes' extents in the image), so a hand photographed askew, whose row climbs or
    falls across the photo, still reads as one row; rows are ordered by their mean height in the image, a short
    row level with a longer one (a tile set apart at its end) read with it.
    Returns indices into ``obb``."""
    n = len(obb)
    if n == 0:
        return np.zeros(0, np.int64)
    box = obb_xyxy(obb)
    cx, cy = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    wide, tall = box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]
    near = (np.abs(cy[:, None] - cy[None, :]) <= ROW_OVERLAP * np.maximum(tall[:, None], tall[None, :])) & \
        (np.abs(cx[:, None] - cx[None, :]) <= ROW_REACH * np.maximum(wide[:, None], wide[None, :]))
    row = np.arange(n)
    changed = True
    while changed:  # each box takes the smallest row label of its neighbours until the chains settle
        new = np.where(near, row[None, :], n).min(axis=1)
        changed = bool((new != row).any())
        row = new
    # a row of a few tiles level with a longer one, too far along to chain to it (the winning tile set apart at the
    # end of the hand), reads with it: the longer row's box nearest across is at its height (a review found the
    # tile apart listed first, its lone row a pixel higher than the hand's mean)
    size = np.bincount(row, minlength=n)
    band = np.arange(n)
    rows = sorted(set(row.tolist()), key=lambda r: (-size[r], r))
    for k, r in enumerate(rows):
        mine = row == r
        for q in rows[:k]:
            if band[q] != q:  # (joined to a longer row itself: its band is that row's)
                continue
            theirs = np.nonzero(row == q)[0]
            j = theirs[np.argmin(np.abs(cx[theirs][:, None] - cx[mine][None, :]).min(axis=1))]
            if abs(cy[mine].mean() - cy[j]) <= ROW_OVERLAP * max(tall[mine].max(), tall[j]):
                band[r] = q
                break
    height = np.bincount(row, weights=cy, minlength=n) / np.maximum(size, 1)
    return np.lexsort((cx, height[band[row]]))


STAND_FROM = 3
""":func:`standing_turn` turns nothing in an image of fewer faces than this ..."""
STRAIGHT = 6.0
"""... and a turn within this many degrees of upright, a quarter or a half turn is that turn (upright: none; the others
done without resampling). The detector's angles of the tiles of one straight photo scatter by some degrees (on
hands composed from real faces, laid straight, the faces' common tilt came out up to 4.4 degrees); from 6 on, such
hands tilted 10 degrees are read straightened (45 of 60 right against 40 as they lie, 46 laid straight; tilted
5 degrees, 47 against 46)."""


ROW_AGREE = 8.0
""":func:`rows_tilt`: a box lies in line with the rows' tilt when the direction to its nearest neighbour is within this
many degrees of it (a quarter turn apart as one) ..."""
ROWS_SHARE = 0.7
"""... and :func:`standing_turn` turns nothing unless at least this share of the boxes do: tiles in rows, not a
discard pool's tiles lying every way (whose tilt and way up are noise: a review turned such photos at random angles,
up to three reads each, for no gain)."""
DARK_LEVEL = 100
"""An image whose brightest parts (:data:`DARK_TOP` of the brightest channel) are under this level is underexposed,
and :func:`levels_stretched` brings them up to :data:`DARK_TO` before anything is read: the detector learnt tiles in
the light of a table and a phone photo, and in a review's photo of the bundled hand at 15% exposure (the tiles still
legible, its brightest parts at 38) it found 2 of 19 tiles. A photo in ordinary light has white tile faces far
above it, and is read as it is."""
DARK_TOP = 99.5
"""The percentile of the brightest channel that :data:`DARK_LEVEL` is held to (tile faces: a few percent of the
photo's pixels at least, and a few glints above them do not count) ..."""
DARK_TO = 230.0
"""... and the level it is brought to (a tile's white, not the sensor's clipping)."""
DARK_FLOOR = 4.0
"""An image darker than this is black: nothing to stretch."""


TOO_DARK_EN = "the photo is too dark: take it again in more light (it was brightened to be read)"
TOO_DARK_ZH = "照片太暗：請在亮一點的地方重拍（已先調亮再讀）"
"""Said after a refusal of a photo that :func:`too_dark` finds dark: the reason may be the light, not the hand (a
review's dark photo was refused as "found 2 tiles" alone)."""


CLIPPED = 250
"""A pixel at or over this level (in its brightest channel) is clipped: a lamp, a window, a glint ..."""
LAMP_SHARE = 0.05
"""... and clipped pixels under this share of the photo are left out of :func:`brightest`: a change review's night
photo with a lamp in the corner (1.25% of it) was judged lit by the lamp, neither brightened nor said to be dark."""


def brightest(image: np.ndarray) -> float:
    """The level of ``image``'s brightest parts: :data:`DARK_TOP` of its brightest channel, a lamp or a window in
    the picture (a few clipped pixels, :data:`LAMP_SHARE`) left out; 0 for an empty image."""
    sample = image[::4, ::4].max(axis=2).ravel()
    if not sample.size:
        return 0.0
    lit = sample[sample < CLIPPED]
    if lit.size and lit.size >= (1 - LAMP_SHARE) * sample.size:
        sample = lit
    return float(np.percentile(sample, DARK_TOP))


def too_dark(image: np.ndarray) -> bool:
    """Whether ``image`` is underexposed as :func:`levels_stretched` judges it (stretched, or black)."""
    return image.size > 0 and brightest(image) < DARK_LEVEL


def levels_stretched(image: np.ndarray, below: float = DARK_LEVEL) -> np.ndarray:
    """``image`` (BGR uint8) as it is unless it is underexposed (its brightest parts under ``below``,
    :data:`DARK_LEVEL`); then its levels multiplied so that its brightest parts reach :data:`DARK_TO`, as a photo
    editor's "levels" does (a copy)."""
    top = brightest(image)
    if top >= below or top < DARK_FLOOR:
        return image
    lut = np.clip(np.rint(np.arange(256, dtype=np.float64) * (DARK_TO / top)), 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


STAND_TRIES = 2
"""A photo is turned at most this many times (:meth:`TileReader.read`): the faces of a row askew may be read most of
them upside down, and the photo turned to stand them so is then read upside down and turned once more."""


def standing_turn(dets: Detections) -> float:
    """How far (degrees, counter-clockwise) the tops of the faces in ``dets`` lie turned from up, 0 where they stand
    (:data:`STRAIGHT`): the tilt their rows share (:func:`rows_tilt`; a meld's claimed tile lying across its row
    agrees), plus the quarter turn most of the faces' angles lie at from it; 0 where the tiles lie in no rows
    (:data:`ROWS_SHARE`). A hand photographed from the winner's side lies a quarter turned, one from across the
    table a half, one from a corner or with the phone askew at any angle; an upright hand has only its claimed tiles
    across its rows, a few of a hand. Backs do not count (they have no up)."""
    faces = dets.face_up & (dets.kind != int(Tile.UNKNOWN))
    if int(faces.sum()) < STAND_FROM or not np.isfinite(dets.obb).all():
        return 0.0
    tilt, share = rows_tilt(dets.obb)
    if share < ROWS_SHARE:
        return 0.0
    a = dets.obb[faces, 4].astype(np.float64)
    way = np.round((a - tilt) / 90).astype(np.int64) % 4  # 0 up, 1 top to the left, 2 down, 3 to the right
    turn = _degrees(tilt + 90 * int(np.bincount(way, minlength=4).argmax()))
    quarter = 90 * round(turn / 90)
    return _degrees(quarter) if abs(turn - quarter) <= STRAIGHT else turn


def _degrees(turn: float) -> float:
    """``turn`` as degrees in (-180, 180]: a half turn is 180."""
    turn = (float(turn) + 180) % 360 - 180
    return 180.0 if turn == -180 else turn


def rows_tilt(obb: np.ndarray) -> tuple[float, float]:
    """How far (degrees, -45 to 45, counter-clockwise) the rows of the boxes ``obb`` lie tilted off the image's
    axes, taken a quarter turn apart as one: the median direction from each box's centre to its nearest neighbour's
    (tiles side by side in a row, or a row's tile and the next row's; either gives the tilt); and the share of the
    boxes whose direction lies within :data:`ROW_AGREE` of it (tiles in rows: most; tiles scattered: a few). From
    where the tiles are, not from their boxes' angles, which the detector draws worst where the tiles lie askew: a
    row of flowers turned 30 degrees had its boxes' angles 9 to 42 degrees off a quarter turn."""
    c = obb[:, :2].astype(np.float64)
    if len(c) < 2:
        return 0.0, 0.0
    d = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    np.fill_diagonal(d, np.inf)
    v = c[d.argmin(axis=1)] - c
    r = 4 * np.arctan2(-v[:, 1], v[:, 0])  # counter-clockwise, image y down; four times: a quarter turn is one
    tilt = float(np.degrees(np.arctan2(np.median(np.sin(r)), np.median(np.cos(r)))) / 4)
    off = np.abs((np.degrees(r) / 4 - tilt + 45) % 90 - 45)
    return tilt, float(np.mean(off <= ROW_AGREE))


STAND_PIXELS = 40_000_000
""":func:`stood` shrinks a turned photo whose canvas would hold more pixels than this (a 40 MP photo turned 45
degrees: twice the pixels; a long panorama: up to ten times)."""


def stood(image: np.ndarray, turn: float) -> tuple[np.ndarray, np.ndarray]:
    """``image`` turned ``turn`` degrees clockwise, so that what lay turned that far counter-clockwise stands, on a
    canvas that holds all of it (the corners it adds filled with the colour of the image's edge; shrunk to
    :data:`STAND_PIXELS` where larger), and the 2 x 3 affine that takes its pixels there. A quarter or half turn is
    ``cv2.rotate``'s, without resampling; no turn is the image itself."""
    h, w = image.shape[:2]
    turn = _degrees(turn)
    if turn == 0:
        return image, np.array([[1, 0, 0], [0, 1, 0]], np.float64)
    exact = {90.0: cv2.ROTATE_90_CLOCKWISE, -90.0: cv2.ROTATE_90_COUNTERCLOCKWISE, 180.0: cv2.ROTATE_180}
    if turn in exact:
        if turn == 180.0:
            return cv2.rotate(image, exact[turn]), np.array([[-1, 0, w - 1], [0, -1, h - 1]], np.float64)
        return cv2.rotate(image, exact[turn]), _quarter_affine(-1 if turn > 0 else 1, (w, h))
    t = np.radians(turn)
    c, s = abs(np.cos(t)), abs(np.sin(t))
    k = min(1.0, float(np.sqrt(STAND_PIXELS / ((h * s + w * c) * (h * c + w * s)))))
    m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -turn, k)
    nw, nh = int(np.ceil(k * (h * s + w * c))), int(np.ceil(k * (h * c + w * s)))
    m[0, 2] += (nw - 1) / 2 - (w - 1) / 2
    m[1, 2] += (nh - 1) / 2 - (h - 1) / 2
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    fill = tuple(float(v) for v in np.median(edge, axis=0)) if image.ndim == 3 else float(np.median(edge))
    return cv2.warpAffine(image, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=fill), m


def _quarter_affine(turn: int, image_size: tuple[int, int]) -> np.ndarray:
    """The 2 x 3 affine of ``cv2.rotate``'s quarter turn (1: counter-clockwise, -1: clockwise) of an image of
    ``image_size`` (w, h): counter-clockwise, pixel (x, y) goes to (y, w - 1 - x); clockwise to (h - 1 - y, x)."""
    w, h = image_size
    if turn == 1:
        return np.array([[0, 1, 0], [-1, 0, w - 1]], np.float64)
    return np.array([[0, -1, h - 1], [1, 0, 0]], np.float64)


def upright_crops(image: np.ndarray, obb: np.ndarray) -> list[np.ndarray]:
    """Each oriented box warped to an upright crop (its own size, at most ``CROP_MAX``).

    All crops come from one ``cv2.remap`` (a box is a turned rectangle, so its warp is affine: the crop's
    pixel (x, y) samples ``top-left + x/w (top-right - top-left) + y/h (bottom-left - top-left)``, what a
    per-box ``warpPerspective`` computes), stacked one under another; half the time of warping them one by
    one, the same pixels (at most 1 of 255 apart where the two round a coordinate differently)."""
    n = len(obb)
    if n == 0:
        return []
    w = np.clip(np.round(obb[:, 2]), 12, CROP_MAX[0]).astype(np.int64)
    h = np.clip(np.round(obb[:, 3]), 16, CROP_MAX[1]).astype(np.int64)
    start = np.cumsum(h) - h
    if int(h.sum()) > REMAP_ROWS:  # cv2.remap's map is at most 32767 rows: cut in parts
        cut = int(np.searchsorted(np.cumsum(h), REMAP_ROWS, side="right"))
        return upright_crops(image, obb[:cut]) + upright_crops(image, obb[cut:])
    quad = obb_corners(obb).astype(np.float64)
    tl = quad[:, 0]
    ex = (quad[:, 1] - tl) / w[:, None]  # image step per crop column
    ey = (quad[:, 3] - tl) / h[:, None]  # ... per crop row
    box = np.repeat(np.arange(n), h)
    y = (np.arange(int(h.sum())) - start[box]).astype(np.float64)
    left = tl[box] + y[:, None] * ey[box]  # each map row's first sample; the row then steps by ex, in float32
    x = np.arange(int(w.max()), dtype=np.float32)[None, :]
    step = ex[box].astype(np.float32)
    mx = left[:, 0, None].astype(np.float32) + x * step[:, 0, None]
    my = left[:, 1, None].astype(np.float32) + x * step[:, 1, None]
    out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return [out[s:s + hh, :ww] for s, hh, ww in zip(start, h, w, strict=True)]


class TileReader:
    """The detector and the classifier, loaded once."""

    def __init__(self, detector: str | Path | None = None, classifier: str | Path | None = None, *,
                 detector_threads: int = 2, classifier_threads: int = 2, calibration: object | None = None,
                 threshold: float | None = None, turns: int = 1, long_side: int | None = None,
                 flower_model: str | Path | None = None, retry: bool | None = None,
                 orient: str | Path | bool = True, reread: bool | None = None,
                 backs: str | Path | bool = True, rows: bool = True, weak: bool = True,
                 parallel: bool = True, sideways: bool | None = None, way_up: bool | None = None,
                 straighten: bool | None = None) -> None:
        """``turns``: how many quarter-turned crops of each tile the classifier reads when the detector's
        angle is not trusted (1: as detected; 2: also upside down; 4: all four), keeping the turn it reads
        most confidently. ``long_side``: the detector's input scale (default: the model's). ``retry``: read
        the boxes the classifier is unsure of again in turned crops (:meth:`_retry_turned`; ``None``: for
        photos read ``tiled`` only, since it costs a live frame about a third more time; with ``turns`` > 1
        every box is read in its turns anyway and ``retry`` is not used). ``orient``: the detector's orientation
        network (:class:`companion.vision.orient.TileOrienter`): ``True`` the packaged one, a path, or
        ``False``. ``reread``: read the crops the classifier is unsure of again in moved views
        (:data:`companion.vision.classify.REREAD_VIEWS`; ``None``: for photos read ``tiled`` only: it costs a
        live frame about a fifth more time, and a live table sees each tile again in the next frames; the turned
        crops of ``turns`` and ``retry`` are not re-read: they are several views already). ``backs``: the
        detector's back check (:class:`companion.vision.backs.BackChecker`: ``True`` the packaged one, a path,
        or ``False``); the face-down boxes it passes are backs (``0x``) without the classifier, which reads
        faces and calls many real backs "not a tile" (without the check, :func:`backs_face_down` reads them);
        face-up boxes the classifier reads as backs must pass it too (:meth:`_checked_face_up_backs`).
        ``rows``: the detector's row completion (:meth:`companion.vision.detect.TileDetector._checked`).
        ``weak``: also the face-up peaks between :data:`WEAK_UP` and the detector's threshold, kept only where the
        classifier is sure of a tile (:meth:`_weak_faces`). ``parallel``: a frame read in one pass works out its
        face-up boxes (orientation, crops, classifier) and its face-down ones (back check, rows) at the same time
        (:meth:`companion.vision.detect.TileDetector.detect_read`), the classifier and the back check on one
        thread each whatever ``classifier_threads`` and ``detector_threads`` say (the detector's network keeps
        ``detector_threads``); photos read ``tiled``, and readings with ``turns`` > 1 or ``retry``, go one step
        after another as without it, on those same one-thread sessions. ``sideways``: look again at boxes that
        look like part of a tile, a meld's claimed tile lying across its row boxed short or a lone tile boxed as
        halves (:meth:`_across_rows`; ``None``: for images read ``tiled`` only, photos of hands and, unless
        ``--single-pass``, what ``companion read`` reads; a live frame's reading is left as it is). ``way_up``: read
        again, half turned, each face-up tile standing the other way up from its row (:meth:`_the_rows_way_up`;
        ``None``: as ``sideways``). ``straighten``: where the faces lie turned (:func:`standing_turn`: a hand photographed
        from the winner's side, from across the table, from a corner), read the image again turned so that they
        stand (:func:`stood`), the boxes given in the image's own pixels (``None``: for images read ``tiled`` only; a
        table frame's rows lie four ways)."""
        from companion.vision.classify import TileClassifier

        if turns not in (1, 2, 4):
            raise ValueError(f"turns must be 1, 2 or 4, got {turns}")
        self.turns, self.long_side, self.retry, self.reread = turns, long_side, retry, reread
        self.parallel, self.sideways, self.way_up, self.straighten = parallel, sideways, way_up, straighten
        self.detector = TileDetector(detector, threads=detector_threads, threshold=threshold, orient=orient,
                                     backs=backs, rows=rows, weak=WEAK_UP if weak else None,
                                     check_threads=1 if parallel else None)
        self.classifier = TileClassifier(Path(classifier) if classifier else None,
                                         threads=1 if parallel else classifier_threads,
                                         calibration=calibration,  # type: ignore[arg-type]
                                         flower_model=Path(flower_model) if flower_model else None)
        names = self.classifier.info.class_names
        self._kind_of = np.array([-1 if n == "unknown" else int(Tile.from_code(n)) for n in names], np.int16)
        self._tile_cols = np.nonzero(self._kind_of >= 0)[0]
        self._face_cols = self._tile_cols[self._kind_of[self._tile_cols] != int(Tile.UNKNOWN)]
        self._unknown = names.index("unknown") if "unknown" in names else -1
        self._back = names.index(str(Tile.UNKNOWN)) if str(Tile.UNKNOWN) in names else -1
        self._white = names.index("5z") if "5z" in names and self._back >= 0 else -1
        if self._unknown < 0:  # a classifier that cannot say "not a tile" cannot vouch for a weak peak
            self.detector.weak = None

    def read(self, image: np.ndarray, tiled: bool = False) -> Detections:
        """Every tile in an ``HxWx3`` uint8 BGR image. ``tiled``: also look at the image at twice the scale
        in overlapping windows (photos whose small tiles a single pass misses; several times slower)."""
        image = levels_stretched(image)
        dets = self._looked(image, tiled)
        if not (self.straighten if self.straighten is not None else tiled):
            return dets
        first, size, turn, affine = dets, dets.image_size, 0.0, None
        for _ in range(STAND_TRIES):  # the faces lie turned: read the photo again turned so that they stand
            more = standing_turn(dets)
            if not more:
                break
            turn = _degrees(turn + more)
            if turn == 0:  # turned back to where it lay: its first reading stands
                return first
            turned, affine = stood(image, turn)  # from the photo itself each time: one resampling at most
            dets = self._looked(turned, tiled)
        if affine is None:
            return dets
        dets = dets.mapped(cv2.invertAffineTransform(affine), turn, size)
        w, h = size  # a box found in the corners the turn added lies off the photo
        return dets.take((dets.obb[:, 0] >= 0) & (dets.obb[:, 0] <= w) & (dets.obb[:, 1] >= 0) & (dets.obb[:, 1] <= h))

    def _looked(self, image: np.ndarray, tiled: bool) -> Detections:
        """:meth:`read` as the image lies: the detector's boxes read, then the second looks; in a photo read
        ``tiled``, the boxes that are squares of a checked cloth dropped (:func:`cloth_squares`)."""
        dets = self._read(image, tiled)
        if self.sideways if self.sideways is not None else tiled:
            dets = self._across_rows(image, dets)
        if self.way_up if self.way_up is not None else self.sideways if self.sideways is not None else tiled:
            dets = self._the_rows_way_up(image, dets)
        return dets.take(~cloth_squares(dets)) if tiled else dets

    def _read(self, image: np.ndarray, tiled: bool) -> Detections:
        """:meth:`read` before its second look at boxes that look like part of a tile."""
        size = (int(image.shape[1]), int(image.shape[0]))
        checks = self.detector.backs is not None and self._back >= 0  # face-down boxes the check passed are backs
        if self.parallel and checks and not tiled and self.turns == 1 and not self.retry:
            # the checked backs are read 0x without the classifier, the faces at the same time as they are checked
            reread = bool(self.reread)
            boxes, probs = self.detector.detect_read(
                image, lambda obb: self.classifier.probabilities(upright_crops(image, obb), reread),
                len(self._kind_of), self.long_side)
            if len(boxes) == 0:
                return Detections.empty(size)
            probs[~boxes.face_up, self._back] = 1.0
            return self._combine(boxes, probs, image)
        boxes = self.detector.detect_tiled(image, self.long_side) if tiled else \
            self.detector.detect(image, self.long_side)
        if len(boxes) == 0:
            return Detections.empty(size)
        checked = ~boxes.face_up if checks else np.zeros(len(boxes), bool)
        if not checked.any():
            return self._combine(*self._read_boxes(image, boxes, tiled), image)
        # checked backs are read without the classifier: 0x for sure; the rest keep the detector's order
        probs = np.zeros((len(boxes), len(self._kind_of)), np.float32)
        probs[checked, self._back] = 1.0
        obb = boxes.obb.copy()
        rows = np.nonzero(~checked)[0]
        if len(rows):
            faces, read = self._read_boxes(image, Boxes(obb[rows], boxes.face_up[rows], boxes.score[rows]), tiled)
            obb[rows], probs[rows] = faces.obb, read
        return self._combine(Boxes(obb, boxes.face_up, boxes.score), probs, image)

    def _across_rows(self, image: np.ndarray, dets: Detections) -> Detections:
        """``dets`` with the boxes that look like part of a tile looked at again (:mod:`companion.vision.sideways`):
        replaced by a whole tile, lying across the row or standing in it, where
        :func:`~companion.vision.sideways.choose` takes it; and each face-up tile lying across the row read in the
        other :func:`~companion.vision.sideways.across_views` too, the surest reading and turn kept where it reaches
        :data:`~companion.vision.sideways.ACCEPT` and reads surer (its box grown to the view's sides, never shrunk).
        Upright boxes nearly short or read unsurely are looked at across the row too, and what any of these looks
        read besides a box's reading is offered to the hand's search (:meth:`_offered`) where the box is not
        replaced. Readings here are of faces only (never ``0x``: a face-up back must pass the back check, which this look
        does not ask)."""
        if len(dets) < 3 or self._unknown < 0:
            return dets
        reread = self.reread is not False
        frame = RowFrame.of(dets.obb)
        fresh = np.zeros(len(dets), bool)
        props = proposals(frame, dets.obb, dets.face_up, dets.image_size, dets.top3_score[:, 0])
        sizes = None if props is None else (props.width, props.depth)  # each box's row's tile size
        if props is not None:
            probs = self.classifier.probabilities(upright_crops(image, props.obb), reread)
            kind, sure = self._faces(probs)
            taken = choose(frame, props, sure, kind, dets.top3_score[:, 0], dets.kind)
            gone = np.zeros(len(dets), bool)
            for _, covered in taken:
                gone[covered] = True
            dets = self._offered(dets, props.owner, probs, gone)
            if taken:
                rows = [j for j, _ in taken]
                # a whole tile's detector score: the surest of the boxes it replaces
                found = [float(_found(dets, c).max()) for _, c in taken]
                new = self._readings(props.obb[rows], probs[rows], np.array(found), dets.image_size)
                dets = _joined(dets.take(~gone), new)
                fresh = np.arange(len(dets)) >= len(dets) - len(new)  # read at their row's size already
                frame = RowFrame.of(dets.obb)
                sizes = None
        side = np.flatnonzero(dets.face_up & frame.sideways & ~fresh & (dets.kind != int(Tile.UNKNOWN)))
        if len(side) == 0:
            return dets
        if sizes is None:  # (measured again where boxes changed, or where no box was a part)
            sizes = row_sizes(frame, dets.obb, dets.face_up)
        width, depth = (sizes[0][side], sizes[1][side]) if sizes is not None else (None, None)
        views = across_views(dets.obb[side], width, depth, frame.turn)
        probs = self.classifier.probabilities(upright_crops(image, views.reshape(-1, 5)), reread).reshape(
            len(views), len(side), -1)
        sure = np.stack([self._faces(p)[1] for p in probs])
        k = sure.argmax(axis=0)
        top = sure[k, np.arange(len(side))]
        pick = np.flatnonzero((top >= ACCEPT) & (top > dets.top3_score[side, 0]))
        reread_again = np.zeros(len(dets), bool)  # (read again below in their surest view: nothing to offer)
        reread_again[side[pick]] = True
        dets = self._offered(dets, np.tile(side, len(views)), probs.reshape(len(views) * len(side), -1), reread_again)
        if len(pick) == 0:
            return dets
        obb = views[k[pick], pick]
        # a view's sides only where they grow the detector's: a box drawn short of the tile left a gap that cut its
        # meld, but one shrunk to a row's size measured too small cut a meld in a turned photo (a review's)
        obb[:, 2:4] = np.maximum(obb[:, 2:4], dets.obb[side[pick], 2:4])
        return self._read_again(dets, side[pick], obb, probs[k[pick], pick])

    def _offered(self, dets: Detections, owner: np.ndarray, probs: np.ndarray, skip: np.ndarray) -> Detections:
        """``dets`` with each box ``owner`` names (but those ``skip`` marks) offered the likeliest face its second
        looks (``probs``, one row per look, ``owner``'s box each) read other than its own reading: it joins the
        box's ``top3`` after the reading taken, in place of the third where it is likelier than that and reaches
        :data:`~companion.vision.sideways.OFFER`. The hand's
        search (:mod:`companion.vision.hand_search`) may then take it, at the cost of its odds against the reading
        taken, where the tiles as read make no win: a claimed tile lying across its row boxed short of it, read as
        another kind and not replaced (a 4p across the row read as 2p at 0.97, the whole tile 4p at 0.95)."""
        if len(owner) == 0:
            return dets
        faces = probs[:, self._face_cols]
        face_kind = self._kind_of[self._face_cols]
        top3_kind, top3_score = dets.top3_kind.copy(), dets.top3_score.copy()
        looked = dets.second_look.copy() if dets.second_look is not None else np.zeros((len(dets), 3), bool)
        for i in np.unique(owner):
            if skip[i] or dets.kind[i] == int(Tile.UNKNOWN):
                continue
            best = faces[owner == i].max(axis=0)
            best[face_kind == dets.kind[i]] = -1.0
            f = int(best.argmax())
            k, p = int(face_kind[f]), float(best[f])
            if p < OFFER:
                continue
            kinds, scores, looks = list(top3_kind[i, 1:]), list(top3_score[i, 1:]), list(looked[i, 1:])
            if k in kinds:
                at = kinds.index(k)
                if p > scores[at]:
                    scores[at], looks[at] = p, True
            elif p > scores[-1]:
                kinds[-1], scores[-1], looks[-1] = k, p, True
            else:
                continue
            order = np.argsort(-np.array(scores), kind="stable")
            top3_kind[i, 1:] = np.array(kinds)[order]
            top3_score[i, 1:] = np.array(scores, np.float32)[order]
            looked[i, 1:] = np.array(looks, bool)[order]
        return dataclasses.replace(dets, top3_kind=top3_kind, top3_score=top3_score, second_look=looked)

    def _the_rows_way_up(self, image: np.ndarray, dets: Detections) -> Detections:
        """``dets`` with each face-up tile standing the other way up from its row read half turned: every standing
        face is read turned too, and each row takes the way up its readings favour together
        (:func:`~companion.vision.sideways.ways_up`); a tile lying the other way takes its turned reading where that
        reading is surer than its own (a tile left upside down in its row, read right as it lies, keeps it)."""
        if len(dets) < 3 or self._unknown < 0:
            return dets
        frame = RowFrame.of(dets.obb)
        standing = np.flatnonzero(dets.face_up & ~frame.sideways & (dets.kind != int(Tile.UNKNOWN)))
        if len(standing) < 2:
            return dets
        obb = _turned(dets.obb[standing], np.array([180]))[0]
        probs = self.classifier.probabilities(upright_crops(image, obb), self.reread is not False)
        sure = self._faces(probs)[1]
        gain = np.zeros(len(dets))
        gain[standing] = np.nan_to_num(np.log(np.maximum(sure, 1e-3)) - np.log(np.maximum(dets.top3_score[standing, 0],
                                                                                          1e-3)))
        mask = np.zeros(len(dets), bool)
        mask[standing] = True
        flip = ways_up(frame, dets.obb, mask, gain)
        pick = np.flatnonzero(flip[standing])
        if len(pick) == 0:
            return dets
        return self._read_again(dets, standing[pick], obb[pick], probs[pick])

    def _read_again(self, dets: Detections, idx: np.ndarray, obb: np.ndarray, probs: np.ndarray) -> Detections:
        """``dets`` with the tiles ``idx`` read again in the boxes ``obb`` as ``probs`` say, each new reading in its
        tile's place (its detector score kept)."""
        again = self._readings(obb, probs, _found(dets, idx), dets.image_size)
        order = np.arange(len(dets))
        order[idx] = len(dets) + np.arange(len(idx))
        return _joined(dets, again).take(order)

    def _faces(self, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's best face (a :class:`Tile` value, never ``0x``) and its probability."""
        best = probs[:, self._face_cols].argmax(axis=1)
        return self._kind_of[self._face_cols[best]], probs[np.arange(len(probs)), self._face_cols[best]]

    def _top3(self, probs: np.ndarray, faces_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The three best readings that are tiles (``N x 3`` kinds and probabilities), "not a tile" left out, and
        ``0x`` too where ``faces_only``; stable: ties are broken as argmax breaks them, in the columns' order."""
        cols = self._face_cols if faces_only else self._tile_cols
        tile_probs = probs[:, cols]
        order = np.argsort(-tile_probs, axis=1, kind="stable")[:, :3]
        return self._kind_of[cols[order]].astype(np.int16), np.take_along_axis(tile_probs, order, axis=1).astype(
            np.float32)

    def _readings(self, obb: np.ndarray, probs: np.ndarray, found: np.ndarray,
                  image_size: tuple[int, int]) -> Detections:
        """Face-up detections of the boxes ``obb`` read ``probs`` (their best readings that are faces), the
        detector's score of each ``found``."""
        top_k, top_p = self._top3(probs, faces_only=True)
        return Detections(obb.astype(np.float32), top_k[:, 0], np.ones(len(obb), bool),
                          np.clip(np.asarray(found) * top_p[:, 0], 0, 1).astype(np.float32), top_k, top_p, image_size)

    def _read_boxes(self, image: np.ndarray, boxes: Boxes, tiled: bool) -> tuple[Boxes, np.ndarray]:
        """The classifier's probabilities for ``boxes`` (their angles turned where a turn reads better)."""
        if self.turns == 1:
            reread = self.reread if self.reread is not None else tiled
            probs = self.classifier.probabilities(upright_crops(image, boxes.obb), reread)
            if self.retry if self.retry is not None else tiled:
                boxes, probs = self._retry_turned(image, boxes, probs)
            return boxes, probs
        turned = _turned(boxes.obb, np.arange(0, 360, 360 // self.turns))
        probs = self.classifier.probabilities(upright_crops(image, turned.reshape(-1, 5)), False).reshape(
            self.turns, len(boxes), -1)
        tiles = self._kind_of >= 0
        best = probs[:, :, tiles].max(axis=2).argmax(axis=0)  # the turn read most confidently as a tile
        idx = np.arange(len(boxes))
        return Boxes(turned[best, idx], boxes.face_up, boxes.score), probs[best, idx]

    def _retry_turned(self, image: np.ndarray, boxes: Boxes, probs: np.ndarray) -> tuple[Boxes, np.ndarray]:
        """Boxes read as "not a tile" (and no tile reaching :data:`RETRY_BELOW`) read again turned by every
        :data:`RETRY_STEP` degrees: the detector's angle of a tile turned off the table's axes is often wrong,
        and a crop cut sideways reads as "not a tile". The surest turn replaces box and reading when it
        reaches :data:`RETRY_ACCEPT`. Boxes read as an unsure tile are not retried: on the dev photos (upright
        hands) that turned 4 right readings wrong."""
        tiles = self._kind_of >= 0
        sure = probs[:, tiles].max(axis=1)
        rows = np.nonzero((sure < RETRY_BELOW) & (probs.argmax(axis=1) == self._unknown))[0]
        if len(rows) == 0:
            return boxes, probs
        turned = _turned(boxes.obb[rows], np.arange(RETRY_STEP, 360, RETRY_STEP))
        again = self.classifier.probabilities(upright_crops(image, turned.reshape(-1, 5)), False).reshape(
            len(turned), len(rows), -1)
        best = again[:, :, tiles].max(axis=2)
        k = best.argmax(axis=0)
        top = best[k, np.arange(len(rows))]
        pick = np.nonzero((top > sure[rows]) & (top >= RETRY_ACCEPT))[0]
        obb, out = boxes.obb.copy(), probs.copy()
        obb[rows[pick]] = turned[k[pick], pick]
        out[rows[pick]] = again[k[pick], pick]
        return Boxes(obb, boxes.face_up, boxes.score), out

    def _checked_face_up_backs(self, boxes: Boxes, probs: np.ndarray, image: np.ndarray) -> np.ndarray:
        """``probs`` with the face-up boxes the classifier reads as a back (``0x``) put through the back check
        too, like the face-down ones: a box the check finds no tile in is read "not a tile" (and dropped). The
        classifier sees only the crop, and a plain grey chip reads like a plain back; the check sees the box in
        its surroundings. On 120 validation scenes (seeds 7, 11, 13; 40 each) 11 face-up boxes were read as
        backs: the check dropped 7, among them the one distractor read as a tile (a chip); recall moved by one
        tile of 5,509 and the false boxes from 25 / 25 / 41 to 27 / 25 / 40 (fewer backs kept changes what
        :func:`_odd_backs` takes for the backs' colour)."""
        check = self.detector.backs
        if check is None or self._back < 0 or self._unknown < 0:
            return probs
        rows = np.nonzero(boxes.face_up & (probs.argmax(axis=1) == self._back))[0]
        if len(rows) == 0:
            return probs
        drop = np.zeros(len(probs), bool)
        drop[rows] = check.probabilities(image, boxes.obb[rows]) < check.threshold
        return self._not_tiles(probs, drop)

    def _not_tiles(self, probs: np.ndarray, drop: np.ndarray) -> np.ndarray:
        """``probs`` with the rows of the bool mask ``drop`` read "not a tile" for sure."""
        if not drop.any():
            return probs
        out = probs.copy()
        out[drop] = 0.0
        out[drop, self._unknown] = 1.0
        return out

    def _weak_faces(self, boxes: Boxes, probs: np.ndarray) -> np.ndarray:
        """``probs`` with the face-up boxes under the detector's threshold (kept down to :data:`WEAK_UP`) read "not
        a tile" unless the classifier gives one tile kind at least :data:`WEAK_SURE`."""
        weak = self.detector.weak_boxes(boxes)
        if not weak.any() or self._unknown < 0:
            return probs
        return self._not_tiles(probs, weak & (probs[:, self._kind_of >= 0].max(axis=1) < WEAK_SURE))

    def _sure_backs(self, image: np.ndarray, obb: np.ndarray, cand: np.ndarray) -> np.ndarray:
        """Bool mask over ``obb``: the boxes of ``cand`` (found face down, read as backs, not of the backs' colour
        near them: :func:`_odd_backs`) that the back check gives at least :data:`ODD_SURE`, asked again on each
        box in the image at its own scale. Such a box is a back in other light, or in a second wall whose colour
        the rows near it do not show, not a cup or a cloth: the colour rule was made when the check was weaker,
        and on 40 validation scenes (seed 7) the 9 boxes it dropped after the check had passed them (0.94-1.0 at
        the detector's scale) were all tiles. Face-up boxes are not asked about: one read as a back is a blank
        face or nothing (the check says a tile is there, not that it shows its back), and :func:`_tile_bodies`
        judges the blanks. Only the boxes the colour rule drops are asked about, so a frame without such a box
        pays nothing."""
        out = np.zeros(len(obb), bool)
        check = self.detector.backs
        rows = np.nonzero(cand)[0]
        if check is None or len(rows) == 0:
            return out
        out[rows] = check.probabilities(image, obb[rows]) >= ODD_SURE
        return out

    def _combine(self, boxes: Boxes, probs: np.ndarray, image: np.ndarray) -> Detections:
        size = (int(image.shape[1]), int(image.shape[0]))
        probs = self._weak_faces(boxes, probs)
        probs = self._checked_face_up_backs(boxes, probs, image)
        probs = backs_face_down(probs, ~boxes.face_up, self._kind_of, self.classifier.reject_below)
        best_k = self._kind_of[probs.argmax(axis=1)]
        keep = (best_k >= 0) & (probs.max(axis=1) >= self.classifier.reject_below)
        backs = best_k == int(Tile.UNKNOWN)
        keep &= ~_giants(boxes.obb, backs, keep)
        odd = _odd_backs(image, boxes.obb, backs, keep)
        body = _tile_bodies(image, boxes.obb, odd, keep & ~backs) if self._white >= 0 else np.zeros(len(odd), bool)
        white = body & boxes.face_up
        if white.any():
            probs = probs.copy()
            probs[white, self._white] += probs[white, self._back]
            probs[white, self._back] = 0.0
        keep &= ~odd | body | self._sure_backs(image, boxes.obb, odd & ~body & ~boxes.face_up)
        # the three best readings that are tiles: a kept box's best reading is a tile (its best column was one for
        # ``keep`` above, and a white dragon's reading is at least its back's was), so the first is that tile
        top_k, top_p = self._top3(probs)
        best_k, best_p = top_k[:, 0], top_p[:, 0]
        keep &= ~_covered(boxes.obb, boxes.score * best_p, boxes.face_up, keep)
        return Detections(boxes.obb[keep], best_k[keep].astype(np.int16), boxes.face_up[keep],
                          np.clip(boxes.score[keep] * best_p[keep], 0, 1).astype(np.float32),
                          top_k[keep].astype(np.int16), top_p[keep], size)


SPECK = 0.35
""":func:`cloth_squares`: a face-up box in no row whose area is under this share of the median face-up box's ..."""
SPECK_FROM = 8
"""... in a photo of at least this many faces is a speck of the table, not a tile."""
BESIDE_PITCH = (0.65, 1.4)
""":func:`cloth_squares` keeps a back in no row that lies beside a face as the next tile of its row would, whatever
its box's angle: its centre this many of the face's short sides from the face's along its short axis ..."""
BESIDE_ACROSS = 0.5
"""... and within this share of the face's long side off that axis; or (:data:`NEAR_FACE`) ..."""
NEAR_FACE = 0.85
"""... its centre within this share of a face's long side from the face's, either way (a box turned 90 degrees,
or a face's box turned so: a concealed kong's end beside the sideways tile of a chow) ..."""
NEAR_SIZE = 1.5
"""... the back's box (short side and long side) within this ratio of the face's: a speck beside a tile is not
one."""


def cloth_squares(dets: Detections) -> np.ndarray:
    """Bool mask over ``dets`` (a photo's): the boxes that are squares of a checked (gingham) cloth, not tiles. A
    box read as a back that lies in no row (no box next to it, either way, as the next tile of a row:
    :func:`companion.vision.detect.row_pairs`) and beside no face (:func:`_beside_a_face`): a square of the cloth
    is about a tile's size and plain, like a back, while a hand's backs are a concealed kong's ends, beside its
    faces, and a table's lie in walls and rows; and a face-up box in no row far smaller than the faces
    (:data:`SPECK`), a square or two read as a blank 白板.

    A kong's end is often boxed turned 90 degrees (it is nearly square) or tilted apart from its neighbours, so it
    lies in no row: the kong ``ckong:5555s ckong:9999p`` hand rendered on felt, wood, checked and plain tables (seeds
    1-6, 1600 x 1200) had 17 such real backs in 15 of its 24 scenes, 0.76-0.90 of a face's length from the nearest
    face; the cloth's squares read as backs were 0.88 of a length or more from every face, and end to end with it,
    not side by side (models/README.md, "Photo checks"). :meth:`TileReader.read` drops them in photos read ``tiled``
    only: a live frame's reading is left as it is."""
    out = np.zeros(len(dets), bool)
    if len(dets) < 2:
        return out
    pairs = row_pairs(dets.obb, dets.obb)
    lone = ~(pairs.any(axis=1) | pairs.any(axis=0))
    faces = dets.face_up & (dets.kind != int(Tile.UNKNOWN))
    backs = lone & (dets.kind == int(Tile.UNKNOWN))  # read as a back
    out |= backs & ~_beside_a_face(dets.obb, faces)
    if int(faces.sum()) >= SPECK_FROM:
        area = dets.obb[:, 2] * dets.obb[:, 3]
        out |= lone & dets.face_up & (area < SPECK * np.median(area[faces]))
    return out


def _beside_a_face(obb: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Bool mask over ``obb`` (N x 5): the boxes of a tile's size lying beside one of the boxes ``faces`` (a mask),
    side by side as a row's next tile (:data:`BESIDE_PITCH`, :data:`BESIDE_ACROSS`, the face's short axis taken as
    the row's whichever side its box calls its width) or touching it any way round (:data:`NEAR_FACE`)."""
    if not faces.any():
        return np.zeros(len(obb), bool)
    f = obb[faces]
    short, long_ = f[:, 2:4].min(axis=1), f[:, 2:4].max(axis=1)
    a = np.radians(f[:, 4])
    dx, dy = obb[:, None, 0] - f[None, :, 0], obb[:, None, 1] - f[None, :, 1]
    along = dx * np.cos(a) - dy * np.sin(a)  # along the face box's width axis
    across = -dx * np.sin(a) - dy * np.cos(a)
    wide = f[:, 2] > f[:, 3]  # a box whose width is its long side: the row runs along its height
    side, off = np.abs(np.where(wide, across, along)), np.abs(np.where(wide, along, across))
    beside = ((side > BESIDE_PITCH[0] * short) & (side < BESIDE_PITCH[1] * short) & (off < BESIDE_ACROSS * long_)
              | (np.hypot(dx, dy) < NEAR_FACE * long_))
    own_short, own_long = obb[:, 2:4].min(axis=1)[:, None], obb[:, 2:4].max(axis=1)[:, None]
    sized = ((own_short < NEAR_SIZE * short) & (own_short > short / NEAR_SIZE)
             & (own_long < NEAR_SIZE * long_) & (own_long > long_ / NEAR_SIZE))
    return np.asarray((beside & sized).any(axis=1))


def _found(dets: Detections, idx: np.ndarray | list[int]) -> np.ndarray:
    """The detector's score of the detections ``idx``: their score over their reading's (0-1)."""
    return np.clip(dets.score[idx] / np.maximum(dets.top3_score[idx, 0], 1e-6), 0, 1)


def _joined(a: Detections, b: Detections) -> Detections:
    """The detections of ``a`` followed by those of ``b`` (of the same image)."""
    looks = None if a.second_look is None and b.second_look is None else np.concatenate(
        [d.second_look if d.second_look is not None else np.zeros((len(d), 3), bool) for d in (a, b)])
    return Detections(np.concatenate([a.obb, b.obb]), np.concatenate([a.kind, b.kind]),
                      np.concatenate([a.face_up, b.face_up]), np.concatenate([a.score, b.score]),
                      np.concatenate([a.top3_kind, b.top3_kind]), np.concatenate([a.top3_score, b.top3_score]),
                      a.image_size, looks)


def backs_face_down(probs: np.ndarray, face_down: np.ndarray, kind_of: np.ndarray,
                    reject_below: float = 0.0) -> np.ndarray:
    """``probs`` (N x C, columns of kinds ``kind_of``: a :class:`Tile` value, -1 for "not a tile") with every
    row the detector found face down and the classifier read as a tile (its best column a tile kind, at least
    ``reject_below``) read as a back: the probability the classifier gives the tile kinds together goes to
    ``0x``. Other rows are left as they are, so a chip or a phone the classifier calls "not a tile", or
    cannot read, is still dropped.

    The classifier sees only the face, and a blank white dragon (``5z``) and a plain pale back are the same
    picture there; the detector sees the whole tile, its body and rim. On 80 held-out synthetic scenes
    (seeds 7 and 11, not the benchmark's) its face-up flag disagreed with the truth for 4 of 2,087 tiles,
    while the classifier read 47 face-down tiles as faces (30 of them ``5z``); on the dev photos (every
    labelled tile face up) it flagged none of 786 boxes face down. The other way (face up, read ``0x``) the
    classifier is kept: on those scenes it was right both times."""
    back = np.nonzero(kind_of == int(Tile.UNKNOWN))[0]
    if len(back) != 1 or not face_down.any():
        return probs
    best = probs.argmax(axis=1)
    rows = np.nonzero(face_down & (kind_of[best] >= 0) & (probs.max(axis=1) >= reject_below))[0]
    if len(rows) == 0:
        return probs
    tiles = kind_of >= 0
    out = probs.copy()
    sub = out[rows]
    mass = sub[:, tiles].sum(axis=1)
    sub[:, tiles] = 0.0
    sub[:, back[0]] = mass
    out[rows] = sub
    return out


def _turned(obb: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """``len(degrees) x N x 5``: the boxes ``obb`` with their angle turned by each of ``degrees``."""
    out = np.repeat(obb[None], len(degrees), axis=0)
    out[:, :, 4] = (out[:, :, 4] + degrees[:, None] + 180) % 360 - 180
    return out


def _giants(obb: np.ndarray, face_down: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """Face-down boxes far bigger than the tiles around them: a phone, a cup or a tray reads like a tile's
    back, but tiles side by side have the same size. A box is dropped when it is read face down, its area is
    more than :data:`GIANT` times the median of its :data:`GIANT_NEIGHBOURS` nearest tiles (near, not the
    whole image's: a photo from a seat has its near tiles much bigger than its far ones) and fewer than two
    other face-down boxes have about its size (a row of near wall tiles is not dropped). ``tiles``: the boxes
    read as tiles. On 40 held-out validation scenes no face-down tile was more than 1.7x the median of the
    image; 23 false boxes were more than 2x."""
    out = np.zeros(len(obb), bool)
    kept = np.nonzero(tiles)[0]
    cand = np.nonzero(face_down & tiles)[0]
    if len(kept) < GIANT_FROM or len(cand) == 0:
        return out
    area = obb[:, 2] * obb[:, 3]
    dist = np.hypot(obb[cand, None, 0] - obb[None, kept, 0], obb[cand, None, 1] - obb[None, kept, 1])
    dist[cand[:, None] == kept[None, :]] = np.inf  # not its own neighbour
    near = kept[np.argsort(dist, axis=1)[:, :GIANT_NEIGHBOURS]]
    big = area[cand] > GIANT * np.median(area[near], axis=1)
    alike = (np.abs(np.log(area[None, cand] / area[cand, None])) < np.log(GIANT_ALIKE)).sum(axis=1) - 1
    out[cand] = big & (alike < 2)
    return out


def grid_points(obb: np.ndarray, n: int = COVER_GRID) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)``, each ``N x n*n``: the centres of an ``n x n`` grid of cells over each box (cx, cy, w, h,
    angle; across the box is ``(cos, -sin)`` of its angle and down it ``(sin, cos)``, as in
    :func:`~companion.vision.detect.obb_corners`)."""
    o = obb.astype(np.float64)
    t = np.radians(o[:, 4])
    c, s = np.cos(t)[:, None], np.sin(t)[:, None]
    g = (np.arange(n) + 0.5) / n - 0.5
    u, v = (a.ravel()[None, :] for a in np.meshgrid(g, g))
    u, v = u * o[:, 2, None], v * o[:, 3, None]
    return o[:, 0, None] + u * c + v * s, o[:, 1, None] - u * s + v * c


def _covered(obb: np.ndarray, score: np.ndarray, face_up: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """Face-up boxes read as tiles (``tiles``) with at least :data:`COVERED` of their area (the cells of a
    :data:`COVER_GRID` grid) inside the union of surer boxes read as tiles, taken greedily in score order
    (a dropped box covers nothing). On 160 held-out validation scenes (seeds 7, 11, 13, 777; not the
    benchmark's 2024; the reader's boxes, each against all surer ones) 15 of the 63 face-up boxes matching no
    tile were at least 0.79 inside surer boxes (most of them wholly: parts of a tile found again in a photo's
    second pass), and of the 3,703 matching a tile none more than 0.63. Face-down boxes are left alone: one
    of their 87 false boxes there was more than half covered, and a wall's two levels overlap by design."""
    out = np.zeros(len(obb), bool)
    rows = np.nonzero(tiles)[0]
    if not (face_up & tiles).any() or len(rows) < 2:
        return out
    o = obb[rows].astype(np.float64)
    rank = np.empty(len(rows), np.int64)
    rank[np.argsort(-score[rows], kind="stable")] = np.arange(len(rows))
    reach = 0.5 * np.hypot(o[:, 2], o[:, 3])
    pairs = (np.hypot(o[:, None, 0] - o[None, :, 0], o[:, None, 1] - o[None, :, 1]) < reach[:, None] + reach[None, :]) \
        & (rank[None, :] < rank[:, None]) & face_up[rows][:, None]
    pi, pj = np.nonzero(pairs)  # (box, a surer box near it)
    if len(pi) == 0:
        return out
    x, y = grid_points(o)
    inside = _inside_each(x[pi], y[pi], o[pj])  # pairs x cells
    cells = np.zeros((len(rows), x.shape[1]), bool)
    np.logical_or.at(cells, pi, inside)
    # dropping a box can only uncover others, so only boxes covered by all their surer neighbours can go;
    # those few are decided greedily, in score order, against the boxes still kept
    kept = np.ones(len(rows), bool)
    for i in sorted(np.nonzero(cells.mean(axis=1) >= COVERED)[0], key=lambda k: rank[k]):
        mine = pi == i
        if inside[mine & kept[pj]].any(axis=0).mean() >= COVERED:
            kept[i] = False
            out[rows[i]] = True
    return out


def _inside_each(x: np.ndarray, y: np.ndarray, obb: np.ndarray) -> np.ndarray:
    """``P x C``: whether each of row ``p``'s points (``x[p]``, ``y[p]``) lies inside box ``obb[p]``."""
    t = np.radians(obb[:, 4])
    c, s = np.cos(t)[:, None], np.sin(t)[:, None]
    dx, dy = x - obb[:, 0, None], y - obb[:, 1, None]
    return np.asarray((np.abs(dx * c - dy * s) <= obb[:, 2, None] / 2) & (np.abs(dx * s + dy * c) <= obb[:, 3, None] / 2))


def back_colours(image: np.ndarray, obb: np.ndarray, part: tuple[float, float] = BACK_PARTS[0]) -> np.ndarray:
    """``N x 3`` CIELAB (OpenCV 8-bit units): the median colour of a 5 x 5 grid over the middle half of each box's
    width and, down its height, from ``part[0]`` to ``part[1]`` box heights from its centre (by default its
    middle half: a back's middle, no rim, no neighbour), sampled for all boxes by one ``cv2.remap``."""
    if len(obb) == 0:
        return np.zeros((0, 3), np.float32)
    if len(obb) > REMAP_ROWS:  # one map row a box: cv2.remap's map is at most 32767 rows
        return np.concatenate([back_colours(image, obb[i:i + REMAP_ROWS], part) for i in range(0, len(obb), REMAP_ROWS)])
    t = np.radians(obb[:, 4].astype(np.float64))
    right = np.stack([np.cos(t), -np.sin(t)], axis=1)
    down = np.stack([np.sin(t), np.cos(t)], axis=1)
    u = np.linspace(-0.25, 0.25, 5)[None, None, :] * obb[:, 2, None, None]  # across the box
    v = np.linspace(*part, 5)[None, :, None] * obb[:, 3, None, None]  # down the box
    x = obb[:, 0, None, None] + u * right[:, 0, None, None] + v * down[:, 0, None, None]
    y = obb[:, 1, None, None] + u * right[:, 1, None, None] + v * down[:, 1, None, None]
    n = len(obb)
    px = cv2.remap(image, x.reshape(n, 25).astype(np.float32), y.reshape(n, 25).astype(np.float32),
                   cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mid = np.partition(np.asarray(px).reshape(n, 25, 3), 12, axis=1)[:, 12]  # the median of 25: the 13th
    return np.asarray(cv2.cvtColor(mid[:, None, :], cv2.COLOR_BGR2LAB)).reshape(n, 3).astype(np.float32)


def _odd_backs(image: np.ndarray, obb: np.ndarray, face_down: np.ndarray, tiles: np.ndarray) -> np.ndarray:
    """Boxes read as backs whose colour is not the set's back colour (:data:`BACK_CHROMA`). Light changes the
    lightness of a back far more than its chroma, so only a* b* are compared, with the backs' colour near the
    box: the median of the :data:`BACK_NEAR` nearest boxes read as backs that lie in a row
    (:func:`companion.vision.detect.row_support`: walls and rows), or, where fewer than :data:`BACK_FROM` boxes
    do, the median of all the boxes read as backs. A box is odd when none of its :data:`BACK_PARTS` has that
    colour. ``tiles``: the boxes read as tiles.

    The median of all (the first rule) took the colour of whatever the most boxes lay on: on a checkered cloth
    whose squares the detector took for backs, the cloth's; rows of real backs are the surer sample, and the
    nearest ones follow uneven light across the table. On 160 validation scenes (seeds 7, 11, 13, 777) the
    rows' colour gave recall 80.0 / 85.5 / 81.8 / 81.0% with 18 / 29 / 31 / 41 false boxes, the median of all
    78.6 / 85.5 / 80.5 / 80.6% with 40 / 29 / 37 / 44; one median of every box in a row (not the nearest)
    lost 14 tiles of a wall in brighter light on seed 11. With the first rule, on seeds 7 and 11, 97.4% of the
    real backs read were within 15 of the median, and 3 of the 4 distractors read as backs and 36% of the
    other false face-down boxes were further."""
    out = np.zeros(len(obb), bool)
    cand = np.nonzero(face_down & tiles)[0]
    if len(cand) < BACK_FROM:
        return out
    box = obb[cand]
    ab = back_colours(image, box)[:, 1:]
    rows = np.nonzero(row_support(box, box))[0]  # a box is never its own neighbour (0 widths along)
    if len(rows) >= BACK_FROM:
        dist = np.hypot(box[:, None, 0] - box[None, rows, 0], box[:, None, 1] - box[None, rows, 1])
        dist[rows, np.arange(len(rows))] = np.inf  # not its own reference
        near = np.argsort(dist, axis=1)[:, :min(BACK_NEAR, len(rows) - 1)]
        ref = np.median(ab[rows][near], axis=1)
    else:
        ref = np.median(ab, axis=0, keepdims=True)
    off = np.hypot(*(ab - ref).T)  # the reference is the backs' middles; a box may show its back elsewhere
    far = np.nonzero(off > BACK_CHROMA)[0]  # (only a box whose middle is off can be odd: the others need no look)
    if len(far):
        ref_far = ref[far] if len(ref) > 1 else ref
        for part in BACK_PARTS[1:]:
            off[far] = np.minimum(off[far], np.hypot(*(back_colours(image, box[far], part)[:, 1:] - ref_far).T))
    out[cand] = off > BACK_CHROMA
    return out


def _tile_bodies(image: np.ndarray, obb: np.ndarray, cand: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Bool mask over ``obb``: the boxes of ``cand`` (read as a back and not of the backs' colour:
    :func:`_odd_backs`) that have the colour of the tiles' faces near them (``faces``: the boxes read as a
    tile other than a back): a*b* within :data:`BACK_CHROMA` of the median of the :data:`BODY_NEAR` nearest
    (at least :data:`BODY_FROM` of them) and at most :data:`BODY_DARKER` darker. Such a box shows a tile's
    body, not cloth or a cup: :meth:`TileReader._combine` keeps it, as a blank white dragon (``5z``) where the
    detector found it face up (a blank face and a plain back are the same picture to the classifier, which sees
    only the crop; the colour tells them apart), as a back where face down (a standing tile seen from behind
    shows its top edge, the body's colour, more than its back).

    On the validation seeds 7, 11, 13 and 777 (40 scenes each) the colour rule had dropped 3 blank faces found
    face up and some 30 standing tiles this way; keeping them gave +7 / +5 / +7 / +4 tiles read right for 0 /
    1 / 1 / 3 more false boxes, no distractor more (seeds 31 and 57, not chosen on: +6 / +12 for 1 / 0). Without
    the lightness bound, grey squares of a checked cloth passed for bodies (+3 / +1 / +3 / +6 false boxes)."""
    out = np.zeros(len(obb), bool)
    cand, near = np.nonzero(cand)[0], np.nonzero(faces)[0]
    if len(cand) == 0 or len(near) < BODY_FROM:
        return out
    lab = back_colours(image, obb[cand])
    faces_lab = back_colours(image, obb[near])
    dist = np.hypot(obb[cand, None, 0] - obb[None, near, 0], obb[cand, None, 1] - obb[None, near, 1])
    ref = np.median(faces_lab[np.argsort(dist, axis=1)[:, :BODY_NEAR]], axis=1)
    out[cand] = (np.hypot(*(lab[:, 1:] - ref[:, 1:]).T) <= BACK_CHROMA) & (lab[:, 0] >= ref[:, 0] - BODY_DARKER)
    return out


_DEFAULT: list[TileReader] = []


def read_tiles(image: np.ndarray, reader: TileReader | None = None) -> Detections:
    """Every tile in an ``HxWx3`` uint8 BGR image, with the packaged models (loaded on first use)."""
    if reader is None:
        if not _DEFAULT:
            _DEFAULT.append(TileReader())
        reader = _DEFAULT[0]
    return reader.read(image)


LABEL_SHARE = 0.18
""":func:`annotate` writes each reading about this share of its box's shorter side high (10 to 36 pixels, and no wider
than the box)."""
_FONT = cv2.FONT_HERSHEY_SIMPLEX  # about 22 px high at scale 1


UNSURE_BGR = (58, 131, 232)
"""The colour of an unsure face's box (the app's orange, #e8833a)."""


SURE_BGR = (40, 200, 40)
"""The colour of a face-up tile's box read surely."""
BACK_BGR = (220, 140, 30)
"""The colour of a face-down tile's box."""
TOP_BGR = (40, 40, 230)
"""The colour of each box's top edge: the tile's top."""
CORRECTED_BGR = (200, 60, 200)
"""The colour of a tile the player corrected (``companion score --tile``): read as he said, no score of its own."""


@dataclass(frozen=True, slots=True)
class Marks:
    """What :func:`annotate` draws beyond the reading, by detection: ``places``, each tile's number as ``companion
    score --tile`` names it (``"1.17"``, ``"f.2"``; written under the box); ``check``, the tiles a refusal asks the
    player to check (framed orange, thick, as the app frames them); ``corrected``, the tiles the player corrected
    (:data:`CORRECTED_BGR`, no score)."""

    places: Mapping[int, str] = dataclasses.field(default_factory=dict)
    check: frozenset[int] = frozenset()
    corrected: frozenset[int] = frozenset()


def annotate(image: np.ndarray, dets: Detections, names: Sequence[str] | None = None,
             legend: bool = False, full_size: tuple[int, int] | None = None, marks: Marks | None = None) -> np.ndarray:
    """A copy of ``image`` with each tile's oriented box (its top edge red) and its reading drawn on it: the
    kind, with the score where the box is at least 60 px across, and a question mark on a face-up reading scored
    under :data:`DOUBTFUL` (its box orange, :data:`UNSURE_BGR`). The label stands above the box, outside it, so the
    tile's face stays whole (一萬, 二萬 and 三萬 differ at their top, where a label inside hid them: a review), below
    it where the image has no room above, and inside it, see-through, where neither; in letters sized to the box (a
    30 px tile of a table frame and a 300 px tile of a phone photo are both legible) and no wider than it. ``marks``
    (:class:`Marks`): tile numbers, tiles to check, tiles corrected. ``legend``: a strip below the picture
    says, in both languages, what the colours and marks it shows mean (:func:`legend_entries`), and, where
    ``full_size`` (w, h), the photo's own size, is larger than ``image`` (a 48-200 MP photo read at a half, a
    quarter…), that the drawing is smaller than the photo, whose pixels ``--json``'s boxes are in
    (:func:`reduced_note`)."""
    out, entries = annotated(image, dets, names, marks)
    note = reduced_note(image.shape[1], full_size) if full_size is not None else None
    if legend and (entries or note):
        entries = entries + ([note] if note else [])
        out = np.vstack([out, legend_strip(out.shape[1], entries)])
    return out


def reduced_note(width: int, full_size: tuple[int, int]) -> Entry | None:
    """The legend's line saying that a drawing ``width`` pixels wide shows a photo of ``full_size`` (w, h) reduced,
    and by how much; None when it is the photo's size (a review's 48 MP photo was drawn at half size while
    ``--json`` gave its boxes in the photo's own pixels, and an overlay of the two was off by 2)."""
    if full_size[0] <= width:
        return None
    k = full_size[0] / width
    times = f"{k:.0f}" if abs(k - round(k)) < 0.05 else f"{k:.2f}"
    return Entry(f"圖縮成原照片的 1/{times}（{width} 像素寬，原圖 {full_size[0]}x{full_size[1]}）；--json 的框是原圖的像素",
                 f"drawn at 1/{times} of the photo's size ({width} px wide, the photo {full_size[0]}x{full_size[1]}); "
                 "--json gives boxes in the photo's own pixels")


def plate_box(text: str, font: float, thick: int, x: int, y: int) -> tuple[int, int, int, int]:
    """The plate :func:`_plate` lays under ``text`` written at ``(x, y)``: ``(x0, y0, x1, y1)``, its whole text
    (the stroke below the baseline, any descender) inside it with a margin on every side (a review's "2.1" plate
    ended at the baseline, its digits' feet cut off). It is ``th + base + pad`` high, as it was, moved ``low``
    down: the text's height ``th`` has room over its letters already."""
    (tw, th), base = cv2.getTextSize(text, _FONT, font, thick + 2)
    pad = max(2, round(th / 4))
    low = _plate_low(pad)
    return x - pad, y - th - pad + low, x + tw + pad, y + base + low


def _plate_low(pad: int) -> int:
    """How far below the baseline (past any descender) a plate of margin ``pad`` reaches (:func:`plate_box`)."""
    return max(1, round(pad / 2))


def _plate(out: np.ndarray, text: str, font: float, thick: int, x: int, y: int, see_through: bool) -> None:
    """``text`` written at ``(x, y)`` (its baseline's left end) on a light plate (:func:`plate_box`), so it is read
    apart from a tile's own printed numbers; ``see_through``: a fainter plate, over a tile's face."""
    h_img, w_img = out.shape[:2]
    x0, y0, x1, y1 = plate_box(text, font, thick, x, y)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w_img, x1), min(h_img, y1)
    plate = out[y0:y1, x0:x1]
    k = 0.35 if see_through else 0.7
    out[y0:y1, x0:x1] = (plate * (1 - k) + 255 * k).astype(np.uint8)
    for col, t in (((255, 255, 255), thick + 2), ((0, 0, 0), thick)):
        cv2.putText(out, text, (x, y), _FONT, font, col, t, cv2.LINE_AA)


def annotated(image: np.ndarray, dets: Detections, names: Sequence[str] | None = None, marks: Marks | None = None
              ) -> tuple[np.ndarray, list[Entry]]:
    """:func:`annotate`'s picture without the strip, and its legend's entries (none when nothing was read), for a
    screen that says them in its own words under the photo."""
    marks = marks or Marks()
    out = image.copy()
    h_img, w_img = image.shape[:2]
    line = max(1, round(2 * max(1.0, max(h_img, w_img) / 900)))
    # the reading as read: its unsure faces and the least sure of more copies than a set holds; a hand as scored
    # (``names``) has had those put right or said, so only its unsure faces
    doubtful = dets.to_check() if names is None else dets.doubtful()
    doubtful = doubtful & ~np.isin(np.arange(len(dets)), list(marks.corrected))  # (the player said what it is)
    quads = [np.round(q).astype(np.int32) for q in obb_corners(dets.obb)]
    bounds = np.array([[q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()] for q in quads], np.int64) \
        .reshape(-1, 4)
    size = np.tile(bounds[:, 2:] - bounds[:, :2], 2)  # (w, h, w, h)
    # a tile's face a plate keeps off: its sides less 15% (a tilted neighbour's corner is not in the way), but its
    # foot and top near whole (a review's second row had its plates on the first row's feet)
    core = (bounds + (np.array([0.15, 0.04, -0.15, -0.04]) * size).astype(np.int64)).tolist()
    Label = tuple[str, float, int, int, int, int, int, int]  # text, font, stroke, x, w, h, base, pad

    def label(i: int, texts: list[str], side: float) -> Label:
        text, font, thick = _fit_label(texts, side, max(8, int(bounds[i, 2] - bounds[i, 0])))
        (tw, th), base = cv2.getTextSize(text, _FONT, font, thick + 2)
        x = int(np.clip((bounds[i, 0] + bounds[i, 2] - tw) / 2, 1, max(1, w_img - tw - 1)))
        return text, font, thick, x, tw, th, base, max(2, round(th / 4))

    # each tile's label at three lengths, fullest first: its code and score; the score only where the face is unsure;
    # its code alone (a row of touching tiles has room for a plate per tile only as wide as a tile: a review)
    labels: list[list[Label]] = []
    for i, pts in enumerate(quads):
        up = bool(dets.face_up[i])
        # an unsure face orange, as the app frames it in its list of tiles to correct (a review found the unsure
        # box drawn the same green as the sure ones); one the refusal names too, thicker
        colour = CORRECTED_BGR if i in marks.corrected else UNSURE_BGR if up and (doubtful[i] or i in marks.check) \
            else SURE_BGR if up else BACK_BGR
        cv2.polylines(out, [pts], True, colour, line * 2 if i in marks.check else line, cv2.LINE_AA)
        cv2.line(out, tuple(pts[0]), tuple(pts[1]), TOP_BGR, line, cv2.LINE_AA)
        code = names[i] if names is not None else Tile(int(dets.kind[i])).code
        side, score = float(min(dets.obb[i, 2], dets.obb[i, 3])), float(dets.score[i])
        mark = code + ("?" if doubtful[i] else "")
        # (a corrected tile's score is the player's word, not a reading: none shown)
        full = [f"{mark} {score:.2f}", mark] if side >= 60 and i not in marks.corrected else [mark]
        labels.append([label(i, full, side), label(i, full if doubtful[i] else [mark], side), label(i, [mark], side)])
    n = len(quads)
    Rect = tuple[int, int, int, int]
    taken: list[Rect] = []  # the plates placed
    apart = max(2, line)  # the gap between two plates (a review read "7z" over "2.1", touching, as one plate)

    def free(rect: Rect, also: Sequence[Rect] = ()) -> bool:
        """A plate there stays in the image, off every tile's face and ``apart`` off every other plate."""
        x0, y0, x1, y1 = rect
        if y0 < 0 or y1 > h_img or x0 < 0 or x1 > w_img:
            return False
        if any(x0 < r[2] and r[0] < x1 and y0 < r[3] and r[1] < y1 for r in core):
            return False
        return not any(x0 < r[2] + apart and r[0] < x1 + apart and y0 < r[3] + apart and r[1] < y1 + apart
                       for r in [*taken, *also])

    def slot(i: int, lab: Label, where: str, gap: int = 0) -> tuple[int, Rect]:
        """The baseline and plate of ``lab`` ``gap`` pixels off tile ``i``'s top (``above``) or foot (``below``)."""
        text, font, thick, x, tw, th, base, pad = lab
        y = int(bounds[i, 1]) - line - gap - pad - base if where == "above" else \
            int(bounds[i, 3]) + line + gap + pad - _plate_low(pad) + th  # (its plate's top there)
        return y, plate_box(text, font, thick, x, y)

    def spot(i: int, lab: Label, sides: tuple[str, ...], also: Sequence[Rect] = (), reach: int = 3
             ) -> tuple[int, Rect] | None:
        """The nearest free place for ``lab`` above or below tile ``i``, at most ``reach`` plates' heights off it
        (past plates already there), if any."""
        high = lab[5] + lab[6] + lab[7]
        for where in sides:
            for gap in range(0, max(1, reach * high), max(1, high // 4)):
                y, rect = slot(i, lab, where, gap)
                if free(rect, also):
                    return y, rect
        return None

    plates: list[tuple[Label, int, bool]] = []  # label, baseline, over a tile's face

    def place_row(members: list[int], options: Sequence[Sequence[Label]], sides: tuple[str, str], reach: int) -> None:
        """Each of ``members``' plates (its ``options``, fullest first) placed, all on one side of the row while
        they fit there (shorter before on its other side), else each at its nearest room, else inside its foot."""
        for level in range(len(options[0])):
            for where in sides:
                row: list[tuple[Label, int, Rect]] = []
                for k, opts in zip(members, options, strict=True):
                    got = spot(k, opts[level], (where,), [p[2] for p in row], reach)
                    if got is None:
                        break
                    row.append((opts[level], *got))
                if len(row) == len(members):
                    plates.extend((lab, y, False) for lab, y, _ in row)
                    taken.extend(rect for _, _, rect in row)
                    return
        for k, opts in zip(members, options, strict=True):
            for lab in opts:
                got = spot(k, lab, sides)
                if got:
                    plates.append((lab, got[0], False))
                    taken.append(got[1])
                    break
            else:
                text, font, thick, x, tw, th, base, pad = lab = opts[-1]
                y = int(np.clip(bounds[k, 3] - line - pad - base, th + 1, max(th + 1, h_img - base - pad - 1)))
                plates.append((lab, y, True))
                taken.append(plate_box(text, font, thick, x, y))

    rows = row_labels(RowFrame.of(dets.obb)) if n else np.zeros(0, np.int64)
    numbered = [(i, label(i, [at], float(min(dets.obb[i, 2], dets.obb[i, 3])) * 0.8))
                for i, at in marks.places.items()]
    for r in np.unique(rows):  # the labels, nearest their tiles
        members = [int(k) for k in np.flatnonzero(rows == r)]
        place_row(members, [labels[k] for k in members], ("above", "below"), 0)
    for r in np.unique(rows):  # then the numbers for --tile, under the row, else above it
        members = [k for k, _ in numbered if rows[k] == r]
        if members:
            place_row(members, [[lab] for k, lab in numbered if rows[k] == r], ("below", "above"), 3)
    for lab, y, inside in plates:
        _plate(out, *lab[:4], y, inside)
    scored = any(" " in lab[0] for lab, _, _ in plates[:n])  # some label shows its score
    entries = legend_entries(dets, list(names) if names is not None else [], scored, doubtful, marks) \
        if len(dets) else []
    return out, entries


def legend_entries(dets: Detections, names: Sequence[str], scored: bool,
                   marked: np.ndarray | None = None, marks: Marks | None = None) -> list[Entry]:
    """What :func:`annotate` drew for ``dets`` labelled ``names``, each colour and mark it used once; ``marked``:
    the boxes it drew as unsure (default :meth:`Detections.doubtful`); ``marks``: what else it drew (:class:`Marks`)."""
    marks = marks or Marks()
    up = np.asarray(dets.face_up, bool)
    doubtful = dets.doubtful() if marked is None else np.asarray(marked, bool)
    plain = ~np.isin(np.arange(len(dets)), list(marks.corrected | marks.check))
    marks_said = "".join(names)
    out = []
    if (up & ~doubtful & plain).any():
        out.append(Entry("正面朝上的牌", "face up", SURE_BGR))
    if doubtful.any():
        out.append(Entry("不太確定，請看一下", "unsure: check it", UNSURE_BGR, "?"))
    if (~up).any():
        out.append(Entry("背面朝上的牌", "face down", BACK_BGR))
    out.append(Entry("紅邊是牌的上方", "red edge: the tile's top", TOP_BGR, line=True))
    if "!" in marks_said:
        out.append(Entry("照片讀的不同，改成這張才胡得成", "read otherwise; changed so the hand wins", mark="!"))
    if "*" in marks_said:
        out.append(Entry("胡的那張", "the winning tile", mark="*"))
    if scored:
        out.append(Entry("數字是讀牌的把握度（滿分 1）", "number: how sure the reading is (1 = sure)", mark="0.97"))
    if marks.check:
        out.append(Entry("粗框：請檢查這張，它可能讀錯了", "thick frame: check this tile, it may be misread",
                         UNSURE_BGR))
    if marks.corrected:
        out.append(Entry("你改正過的牌", "a tile you corrected", CORRECTED_BGR))
    if marks.places:
        at = next(iter(marks.places.values()))
        out.append(Entry(f"牌的 --tile 編號（列.張，例如 --tile {at}=牌）", f"the tile's number for --tile (ROW.N, "
                         f"as in --tile {at}=TILE)", mark=at))
    return out


def _fit_label(texts: list[str], side: float, width: int) -> tuple[str, float, int]:
    """The first of ``texts`` (fullest first) that fits a box of shorter side ``side`` and ``width`` pixels
    across at least 10 px high, else the last at 10 px: ``(text, font scale, stroke)``."""
    for text in texts:
        font = float(np.clip(LABEL_SHARE * side, 10, 36)) / 22
        wide = cv2.getTextSize(text, _FONT, font, max(1, round(font * 22 / 12)) + 2)[0][0]
        font = min(font, font * 0.92 * width / wide)
        if font * 22 >= 10:
            break
    font = max(font, 10 / 22)
    return text, font, max(1, round(font * 22 / 12))
